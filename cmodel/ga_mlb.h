/*
 * ga_mlb.h — the Metadata Lookaside Buffer (spec §6; RTL rtl/ga_mlb.sv).
 *
 * N entries (1..64), lowest index wins, true LRU as an age permutation, fills racing invalidations
 * dropped by generation (spec §6.5). The struct holds exactly the hardware state plus the generation
 * counter; the model never keeps anything the hardware would not.
 */
#ifndef GA_MLB_H
#define GA_MLB_H

#include "ga_types.h"

typedef struct {
    unsigned n;        /* entries, 1..GA_MLB_MAX */
    unsigned tag_bits; /* 7 or 16 */
    uint64_t gen;      /* invalidations + flushes since reset (spec §6.5) */
    bool valid[GA_MLB_MAX];
    ga_entry_t e[GA_MLB_MAX];
    uint64_t loc[GA_MLB_MAX];
    uint8_t age[GA_MLB_MAX]; /* permutation of 0..n-1; 0 = most recently used */
} ga_mlb_t;

/* Reset state (spec §6.1). GA_ERR_BAD_PARAM for n outside 1..64 or tag_bits not 7/16. */
ga_err_t ga_mlb_init(ga_mlb_t *mlb, unsigned n, unsigned tag_bits);

/* Range lookup (spec §6.2): lowest valid i whose entry matches tagged pointer p (spec §3.1). On a hit
 * touches i and returns i; on a miss returns -1 and changes nothing. */
int ga_mlb_lookup_range(ga_mlb_t *mlb, uint64_t p);

/* Location lookup (spec §6.2): lowest valid i with loc == L; touch on hit; -1 on a miss. */
int ga_mlb_lookup_loc(ga_mlb_t *mlb, uint64_t loc);

/* Make i most recently used (spec §6.2). i < n. */
void ga_mlb_touch(ga_mlb_t *mlb, unsigned i);

/* Fill (spec §6.3) if mlb->gen == gen_at_start, returning the entry index written; otherwise drop the
 * fill and return -1 (spec §6.5). */
int ga_mlb_fill(ga_mlb_t *mlb, ga_entry_t e, uint64_t loc, uint64_t gen_at_start);

/* The index fill() would write now (for co-simulation checks); does not change state. */
unsigned ga_mlb_victim(const ga_mlb_t *mlb, uint64_t loc);

/* Invalidate every valid entry with location loc (spec §6.4); returns how many; gen++ always. The
 * invalidated entries keep their contents and ages (only valid drops, as in the hardware). */
unsigned ga_mlb_invalidate(ga_mlb_t *mlb, uint64_t loc);

/* Flush (spec §6.4): all invalid, ages reset, gen++. */
void ga_mlb_flush(ga_mlb_t *mlb);

#endif /* GA_MLB_H */
