/*
 * ga_walker.c — the metadata walk of spec §3.3 and the MEMCHECK.G entry fetch of spec §4.2, written
 * as the exact sequence of metadata reads the hardware issues (RTL rtl/ga_walker.sv).
 *
 * The walk of each layout lives in the layout's module (cmodel/ga_layout_<name>.c); this file picks
 * it by the LAYOUT value and holds what every walk shares: how a walk ends. Reads go through a
 * ga_memif_t; nothing is read speculatively and every read that is issued is counted in steps and
 * bytes (a read that returns an error response counts too). Entries are decoded little-endian.
 */
#include "ga_walker.h"

#include "ga_layout.h"

#include <string.h>

/* ga_walk_status_name: "FOUND", "RANGE_ONLY", "NOT_FOUND", "STEP_LIMIT", "FAULT"; "?" otherwise. */
const char *ga_walk_status_name(ga_walk_status_t s)
{
    switch (s) {
    case GA_WALK_FOUND: return "FOUND";
    case GA_WALK_RANGE_ONLY: return "RANGE_ONLY";
    case GA_WALK_NOT_FOUND: return "NOT_FOUND";
    case GA_WALK_STEP_LIMIT: return "STEP_LIMIT";
    case GA_WALK_FAULT: return "FAULT";
    case GA_WALK_ENDS: break;
    }
    return "?";
}

/* Spec §3.3 step 5 writes "FOUND if M2 holds": the same thing for every pointer the MLU walks for,
 * because spec §3.2 step 1 (and §5.4) never walk for tag 0 or F. For such a pointer (a direct
 * caller's) this answers RANGE_ONLY [decision: fail closed, so a tag-0 entry can never be FOUND for a
 * tag-0 pointer]. */
ga_walk_result_t ga_walk_end_covered(uint64_t loc, ga_entry_t e, uint64_t p, uint32_t steps, uint64_t bytes,
                                     unsigned tag_bits)
{
    ga_walk_result_t r;
    r.status = ga_entry_matches(e, p, tag_bits) ? GA_WALK_FOUND : GA_WALK_RANGE_ONLY;
    r.loc = loc;
    r.entry = e;
    r.steps = steps;
    r.bytes = bytes;
    return r;
}

ga_walk_result_t ga_walk_end_empty(ga_walk_status_t s, uint32_t steps, uint64_t bytes)
{
    ga_walk_result_t r;
    memset(&r, 0, sizeof r);
    r.status = s;
    r.steps = steps;
    r.bytes = bytes;
    return r;
}

/*
 * ga_walk — the walk of spec §3.3 for tagged pointer p: the walk of the layout cfg->layout names
 * (each layout's file states its exact read sequence). A code that names no layout ends FAULT with no
 * read [decision: fail closed]. The result carries loc and entry only for FOUND and RANGE_ONLY, and
 * always the number of reads issued and the bytes they requested.
 */
ga_walk_result_t ga_walk(const ga_walk_cfg_t *cfg, const ga_memif_t *mem, uint64_t p)
{
    const ga_layout_ops_t *o = ga_layout_ops(cfg->layout);
    if (o == NULL) return ga_walk_end_empty(GA_WALK_FAULT, 0, 0);
    return o->walk(cfg, mem, p);
}

/*
 * ga_fetch_entry — the memory half of the MEMCHECK.G fetch (spec §4.2 steps 1 and 3; the MLB half is
 * the MLU's): md mod 16 != 0 -> GA_MD_FAULT with no read; else one 16-byte read at md, an error
 * response -> GA_MD_FAULT, success -> GA_MD_OK with the decoded entry. *e is zero unless GA_MD_OK.
 * *reads (may be NULL) gets the reads issued, 0 or 1. md = 0 is the caller's G2 case and must not be
 * passed; if it is, it is read like any aligned location.
 */
ga_md_state_t ga_fetch_entry(const ga_memif_t *mem, uint64_t md, ga_entry_t *e, uint32_t *reads)
{
    uint8_t buf[GA_ENTRY_BYTES];
    e->tb = 0u;
    e->size = 0u;
    if (reads != NULL) *reads = 0u;
    if (md % GA_ENTRY_BYTES != 0u) return GA_MD_FAULT;
    if (reads != NULL) *reads = 1u;
    if (mem->read(mem->read_ctx, md, GA_ENTRY_BYTES, buf) != 0) return GA_MD_FAULT;
    e->tb = ga_le64(buf);
    e->size = ga_le64(buf + 8);
    return GA_MD_OK;
}
