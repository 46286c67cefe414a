/*
 * ga_alloc.h — the runtime's device allocator in auto mode (spec §7.1): deterministic first fit over
 * one heap region, in 256-byte granules [paper §3.2: "CUDA's memory allocator guarantees at least
 * 256B alignment"], freed blocks coalesced with both neighbours.
 *
 * Free blocks live in an augmented AVL tree (ga_avl.h) keyed by address whose nodes also carry the
 * largest block length of their subtree, so first fit is one O(log n) descent. Every operation that
 * changes the tree can need at most one new block node; ga_alloc_reserve makes room for it before the
 * caller commits, so take and give cannot fail (the runtime's "check, reserve, then commit" rule).
 */
#ifndef GA_ALLOC_H
#define GA_ALLOC_H

#include "ga_avl.h"
#include "ga_types.h"

typedef struct {
    ga_avl_node_t *bn;                 /* block nodes: key = block base, val = block length */
    uint32_t bcap, btop, bfree, nbfree; /* capacity, ids ever used, released chain head and length */
    ga_avl_t bt;
} ga_alloc_t;

/* One free block [base, base + size). GA_ERR_NO_MEMORY if the host is out of memory (a is then
 * empty and ga_alloc_fini may be called). */
ga_err_t ga_alloc_init(ga_alloc_t *a, uint64_t base, uint64_t size);
void ga_alloc_fini(ga_alloc_t *a); /* frees the host memory; a zeroed a is a no-op */

/* Room for k more block nodes (GA_ERR_NO_MEMORY, nothing changed, if the host is out of memory). */
ga_err_t ga_alloc_reserve(ga_alloc_t *a, uint32_t k);

/* The lowest-addressed free block of at least need bytes: true with *base and *blk (for
 * ga_alloc_take), false if none. */
bool ga_alloc_find(const ga_alloc_t *a, uint64_t need, uint64_t *base, uint32_t *blk);

/* Take need bytes from the start of block blk (from ga_alloc_find with the same need). */
void ga_alloc_take(ga_alloc_t *a, uint32_t blk, uint64_t need);

/* Return [base, base + len) (free of any block) and coalesce it with both neighbours. Needs one spare
 * block node: call ga_alloc_reserve(a, 1) first. */
void ga_alloc_give(ga_alloc_t *a, uint64_t base, uint64_t len);

#endif /* GA_ALLOC_H */
