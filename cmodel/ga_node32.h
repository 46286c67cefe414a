/*
 * ga_node32.h — what the two 32-byte-node layouts share (spec §2.3 "Linked list" and "Balanced binary
 * search tree", §3.3, §7.5) [paper §4.2]: the node geometry, the walk loop, and the writer's chain of
 * nodes whose links changed. The layouts differ only in which link a walk step follows (list: next;
 * BST: left or right by base) and in how the writer links entries (ga_layout_list.c, ga_layout_bst.c).
 *
 * Device format of both: 32-byte nodes, 32-byte aligned, node `slot` at md_base + 32 * slot: the entry
 * (tb, size), then two links (+16, +24), each a node location or 0. ROOT is the first node's location,
 * 0 for an empty structure.
 *
 * The reference searches are not here: each layout keeps its own, sharing no code with the walk
 * (ga_refsearch.h).
 */
#ifndef GA_NODE32_H
#define GA_NODE32_H

#include "ga_check.h"
#include "ga_layout.h"

/* --- geometry ------------------------------------------------------------------------------------- */

uint64_t ga_n32_md_bytes(uint32_t capacity);
uint64_t ga_n32_slot_offset(uint32_t capacity, uint32_t slot);

/* --- the walk ------------------------------------------------------------------------------------- */

/* The link a walk step follows from a node that does not range-cover va(p): a location, 0 for none.
 * node is the node's 32 bytes as read, e its entry. */
typedef uint64_t (*ga_n32_next_fn)(const uint8_t *node, ga_entry_t e, uint64_t p, unsigned tag_bits);

/*
 * n = ROOT, steps = 0, repeat (spec §3.3):
 *   1. n = 0                     -> NOT_FOUND
 *   2. n mod 32 != 0             -> FAULT, no read
 *   3. steps = step_limit        -> STEP_LIMIT, no read
 *   4. read 32 bytes at n, steps++; error response -> FAULT
 *   5. entry (bytes 0..15) range-covers a -> FOUND (n, e) or RANGE_ONLY (n, e)
 *   6. n = next(node, e, p)
 * So a node found by the step_limit-th read is FOUND, and a 0 link met after step_limit reads ends
 * NOT_FOUND (check 1 precedes check 3). A step_limit of 0 (illegal in the register) ends STEP_LIMIT
 * before the first read of a non-empty, aligned structure. Inline, so that each layout's walk is
 * compiled with its own link choice.
 */
static inline ga_walk_result_t ga_n32_walk(const ga_walk_cfg_t *cfg, const ga_memif_t *mem, uint64_t p,
                                           ga_n32_next_fn next)
{
    unsigned tb = cfg->tag_bits;
    uint8_t buf[GA_NODE_BYTES];
    uint64_t n = cfg->root;
    uint32_t steps = 0;
    for (;;) {
        uint64_t bytes = (uint64_t)steps * GA_NODE_BYTES;
        if (n == 0u) return ga_walk_end_empty(GA_WALK_NOT_FOUND, steps, bytes);
        if (n % GA_NODE_BYTES != 0u) return ga_walk_end_empty(GA_WALK_FAULT, steps, bytes);
        if (steps == cfg->step_limit) return ga_walk_end_empty(GA_WALK_STEP_LIMIT, steps, bytes);
        steps++;
        bytes += GA_NODE_BYTES;
        if (mem->read(mem->read_ctx, n, GA_NODE_BYTES, buf) != 0) return ga_walk_end_empty(GA_WALK_FAULT, steps, bytes);
        ga_entry_t e = { ga_le64(buf), ga_le64(buf + 8) };
        if (ga_entry_covers(e, p, tb)) return ga_walk_end_covered(n, e, p, steps, bytes, tb);
        n = next(buf, e, p, tb);
    }
}

/* --- the writer's changed-link chain --------------------------------------------------------------- */

/* Record ids whose links changed in the current operation, each once (a chain through dnext). */
typedef struct {
    uint32_t cap;    /* record ids the arrays hold */
    uint32_t *dnext; /* the chain, valid while dirty */
    uint8_t *dirty;
    uint32_t dhead;  /* UINT32_MAX: empty */
} ga_n32_dirty_t;

/* The links (+16, +24) a flush writes for record id: record ids, UINT32_MAX for none. */
typedef void (*ga_n32_links_fn)(const void *st, uint32_t id, uint32_t *l0, uint32_t *l1);

void ga_n32_dirty_init(ga_n32_dirty_t *d);
void ga_n32_dirty_free(ga_n32_dirty_t *d);
/* Room for record ids below rec_cap; GA_ERR_NO_MEMORY leaves the chain as it was. */
ga_err_t ga_n32_dirty_reserve(ga_n32_dirty_t *d, uint32_t rec_cap);
void ga_n32_dirty_mark(ga_n32_dirty_t *d, uint32_t id);
/* A record's node location, 0 for UINT32_MAX. */
uint64_t ga_n32_loc(const ga_lw_env_t *env, const ga_rec_t *rec, uint32_t id);
/* Write both links of every chained record still in use (a removed node's slot was zeroed by the
 * runtime) and empty the chain. The pages are mapped (reserve), so the writes cannot fail. */
void ga_n32_flush(ga_n32_dirty_t *d, const ga_lw_env_t *env, const ga_rec_t *rec, ga_n32_links_fn links,
                  const void *st);

#endif /* GA_NODE32_H */
