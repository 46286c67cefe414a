/*
 * ga_walker.h — the Metadata Loading Unit's walk (spec §3.3; RTL rtl/ga_walker.sv), expressed as the
 * exact sequence of metadata reads the hardware issues, through a ga_memif_t.
 */
#ifndef GA_WALKER_H
#define GA_WALKER_H

#include "ga_check.h"
#include "ga_mem.h"

/* ga_walk_status_t (FOUND, RANGE_ONLY, NOT_FOUND, STEP_LIMIT, FAULT; spec §3.3): ga_isa.h. FOUND: the
 * entry range-covers and matches; RANGE_ONLY: it range-covers, the tag differs. */

typedef struct {
    ga_walk_status_t status;
    uint64_t loc;     /* FOUND / RANGE_ONLY: node location; else 0 */
    ga_entry_t entry; /* FOUND / RANGE_ONLY: the entry read; else zero */
    uint32_t steps;   /* metadata reads issued (nodes, and the slot of an INDEX walk) */
    uint64_t bytes;   /* bytes those reads requested (spec §3.3: 32 per LIST/BST node, 16 per TABLE
                         or INDEX slot, 128 per INDEX node) */
} ga_walk_result_t;

typedef struct {
    ga_layout_t layout;
    uint64_t root;       /* ROOT register */
    uint32_t step_limit; /* >= 1 */
    unsigned tag_bits;
} ga_walk_cfg_t;

const char *ga_walk_status_name(ga_walk_status_t s);

/* Walk for tagged pointer p (spec §3.3): the layout's own walk (ga_layout.h), chosen by cfg->layout. The caller has already excluded tag 0 and the freed tag
 * (spec §3.2 step 1); the walk itself does not look at them except through the match rule: a covering
 * entry ends FOUND only when it matches p by M1..M3, so a tag-0 or freed-tag pointer can only get
 * RANGE_ONLY [decision: fail closed; unobservable through the MLU]. A code that names no layout (spec
 * §5.1: illegal in the register) ends FAULT with no read. TABLE: the oracle is asked first, then
 * ROOT's alignment is checked. */
ga_walk_result_t ga_walk(const ga_walk_cfg_t *cfg, const ga_memif_t *mem, uint64_t p);

/* MEMCHECK.G fetch (spec §4.2 steps 1 and 3, no MLB): 16-byte read at md. Returns GA_MD_OK with the
 * entry, or GA_MD_FAULT (misaligned md: no read; error response). md must be non-zero. *reads gets
 * the number of reads issued (0 or 1). */
ga_md_state_t ga_fetch_entry(const ga_memif_t *mem, uint64_t md, ga_entry_t *e, uint32_t *reads);

/* Helpers for the layouts' walks (ga_layout_<name>.c), so that every layout ends a walk the same way.
 * ga_walk_end_covered: the end at a location whose entry e range-covers va(p): FOUND when e matches p
 * by M1..M3 of spec §3.1, else RANGE_ONLY; loc and e are kept. ga_walk_end_empty: an end without an
 * entry (NOT_FOUND, STEP_LIMIT, FAULT): loc 0, entry zero. Both record steps and bytes as given. */
ga_walk_result_t ga_walk_end_covered(uint64_t loc, ga_entry_t e, uint64_t p, uint32_t steps, uint64_t bytes,
                                     unsigned tag_bits);
ga_walk_result_t ga_walk_end_empty(ga_walk_status_t s, uint32_t steps, uint64_t bytes);

#endif /* GA_WALKER_H */
