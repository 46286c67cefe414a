/*
 * ga_walker.c — the metadata walk of spec §3.3 and the MEMCHECK.G entry fetch of spec §4.2, written
 * as the exact sequence of metadata reads the hardware issues (RTL rtl/ga_walker.sv).
 *
 * Reads go through a ga_memif_t: 32 bytes per LIST/BST node, 16 bytes per TABLE entry and per fetch.
 * Nothing is read speculatively and every read that is issued is counted in steps (a read that
 * returns an error response counts too). Entries are decoded little-endian (spec §2.1).
 */
#include "ga_walker.h"

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
    }
    return "?";
}

/* The end of a walk at a node that range-covers va(p): FOUND when e matches p (M1..M3 of spec §3.1),
 * else RANGE_ONLY. Spec §3.3 step 5 writes "FOUND if M2 holds": the same thing for every pointer the
 * MLU walks for, because spec §3.2 step 1 (and §5.4) never walk for tag 0 or F. For such a pointer
 * (a direct caller's) this walker answers RANGE_ONLY [decision: fail closed, so a tag-0 entry can never
 * be FOUND for a tag-0 pointer]. */
static ga_walk_result_t walk_end_covered(uint64_t loc, ga_entry_t e, uint64_t p, uint32_t steps,
                                         unsigned tag_bits)
{
    ga_walk_result_t r;
    r.status = ga_entry_matches(e, p, tag_bits) ? GA_WALK_FOUND : GA_WALK_RANGE_ONLY;
    r.loc = loc;
    r.entry = e;
    r.steps = steps;
    return r;
}

/* An end without an entry (NOT_FOUND, STEP_LIMIT, FAULT): loc 0, entry zero. */
static ga_walk_result_t walk_end_empty(ga_walk_status_t s, uint32_t steps)
{
    ga_walk_result_t r;
    memset(&r, 0, sizeof r);
    r.status = s;
    r.steps = steps;
    return r;
}

/*
 * ga_walk — the walk of spec §3.3 for tagged pointer p, a = va(p).
 *
 * LIST and BST, n = cfg->root, steps = 0, repeat:
 *   1. n = 0                     -> NOT_FOUND
 *   2. n mod 32 != 0             -> FAULT, no read
 *   3. steps = step_limit        -> STEP_LIMIT, no read
 *   4. read 32 bytes at n, steps++; error response -> FAULT
 *   5. entry (bytes 0..15) range-covers a -> FOUND (n, e) or RANGE_ONLY (n, e)
 *   6. LIST: n = next (bytes 16..23). BST: n = left (bytes 16..23) if a < ebase, else right (24..31).
 * So a node found by the step_limit-th read is FOUND, and a 0 pointer met after step_limit reads ends
 * NOT_FOUND (check 1 precedes check 3). A step_limit of 0 (illegal in the register) ends STEP_LIMIT
 * before the first read of a non-empty, aligned structure.
 *
 * TABLE:
 *   1. no oracle (mem->oracle NULL) or oracle(a) says none -> NOT_FOUND, no read
 *   2. root mod 16 != 0                                     -> FAULT, no read
 *   3. L = root + 16 i (modulo 2^64; L stays 16-aligned, so the read never passes 2^64)
 *   4. read 16 bytes at L, steps = 1; error response        -> FAULT
 *   5. covers a -> FOUND / RANGE_ONLY, else NOT_FOUND (a wrong or stale oracle answer only misses).
 * The step limit does not apply to the single table read (the register is at least 1).
 *
 * Any other layout value (3 is illegal in the register) ends FAULT with no read [decision: fail
 * closed]. The result carries loc and entry only for FOUND and RANGE_ONLY, and always the number of
 * reads issued.
 */
ga_walk_result_t ga_walk(const ga_walk_cfg_t *cfg, const ga_memif_t *mem, uint64_t p)
{
    unsigned tb = cfg->tag_bits;
    uint64_t a = ga_va_of(p, tb);
    uint8_t buf[GA_NODE_BYTES];

    if (cfg->layout == GA_LAYOUT_TABLE) {
        uint64_t idx = 0;
        if (mem->oracle == NULL || mem->oracle(mem->oracle_ctx, a, &idx) == 0)
            return walk_end_empty(GA_WALK_NOT_FOUND, 0);
        if (cfg->root % GA_ENTRY_BYTES != 0u) return walk_end_empty(GA_WALK_FAULT, 0);
        uint64_t loc = cfg->root + GA_ENTRY_BYTES * idx; /* unsigned: modulo 2^64 */
        if (mem->read(mem->read_ctx, loc, GA_ENTRY_BYTES, buf) != 0) return walk_end_empty(GA_WALK_FAULT, 1);
        ga_entry_t e = { ga_le64(buf), ga_le64(buf + 8) };
        if (!ga_entry_covers(e, p, tb)) return walk_end_empty(GA_WALK_NOT_FOUND, 1);
        return walk_end_covered(loc, e, p, 1, tb);
    }
    if (cfg->layout != GA_LAYOUT_LIST && cfg->layout != GA_LAYOUT_BST)
        return walk_end_empty(GA_WALK_FAULT, 0);

    bool bst = cfg->layout == GA_LAYOUT_BST;
    uint64_t n = cfg->root;
    uint32_t steps = 0;
    for (;;) {
        if (n == 0u) return walk_end_empty(GA_WALK_NOT_FOUND, steps);
        if (n % GA_NODE_BYTES != 0u) return walk_end_empty(GA_WALK_FAULT, steps);
        if (steps == cfg->step_limit) return walk_end_empty(GA_WALK_STEP_LIMIT, steps);
        steps++;
        if (mem->read(mem->read_ctx, n, GA_NODE_BYTES, buf) != 0) return walk_end_empty(GA_WALK_FAULT, steps);
        ga_entry_t e = { ga_le64(buf), ga_le64(buf + 8) };
        if (ga_entry_covers(e, p, tb)) return walk_end_covered(n, e, p, steps, tb);
        if (bst && a >= ga_va_of(e.tb, tb))
            n = ga_le64(buf + 24); /* right */
        else
            n = ga_le64(buf + 16); /* LIST next, BST left */
    }
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
