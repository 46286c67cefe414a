/*
 * ga_runtime.h — the GPUArmor runtime around cudaMalloc/cudaFree (spec §7; paper §6.1).
 *
 * Keeps one metadata structure (list, AVL tree or table) in simulated device memory in exactly the
 * formats of spec §2, plus a host-side index used only by the runtime itself (heights, free order,
 * the allocator). Deterministic for a given configuration and sequence of calls.
 */
#ifndef GA_RUNTIME_H
#define GA_RUNTIME_H

#include "ga_mem.h"

typedef struct {
    ga_layout_t layout;
    unsigned tag_bits;          /* 7 or 16 */
    uint64_t seed;              /* tag generator seed */
    bool fixed_addresses;       /* true: ga_rt_malloc_at only; false: ga_rt_malloc only */
    uint64_t heap_base;         /* auto mode: 256-aligned, heap inside [0, 2^V) */
    uint64_t heap_size;         /* auto mode: bytes, multiple of 256, >= 256 */
    uint64_t md_base;           /* metadata region base: 32-aligned, region inside [0, 2^V) */
    uint32_t md_capacity;       /* nodes (list/BST) or table slots, >= 1 */
    uint32_t reclaim_threshold; /* freed entries kept (spec §7.4); UINT32_MAX: never reclaim */
} ga_rt_cfg_t;

/* Defaults: heap 0x7000_0000_0000 + 1 TiB, metadata at 0x6000_0000_0000, 1 Mi nodes,
 * reclaim threshold 1024, auto addresses. */
void ga_rt_default_cfg(ga_rt_cfg_t *cfg, ga_layout_t layout, unsigned tag_bits, uint64_t seed);

typedef struct ga_rt ga_rt_t; /* opaque */

/* GA_ERR_BAD_PARAM for an illegal configuration (every field is checked). mem is borrowed. */
ga_err_t ga_rt_create(const ga_rt_cfg_t *cfg, ga_mem_t *mem, ga_rt_t **out);
void ga_rt_destroy(ga_rt_t *rt); /* NULL is a no-op */

/* Allocate (spec §7.1). On success *ptr is the tagged pointer. On error nothing changes. */
ga_err_t ga_rt_malloc(ga_rt_t *rt, uint64_t size, uint64_t *ptr);
ga_err_t ga_rt_malloc_at(ga_rt_t *rt, uint64_t base, uint64_t size, uint64_t *ptr);

/* Free (spec §7.2). On error nothing changes. */
ga_err_t ga_rt_free(ga_rt_t *rt, uint64_t ptr);

/* Locations whose entry the last successful malloc/free changed or removed: the caller invalidates
 * them in every MLU (spec §5.2). Valid until the next call that changes the runtime. */
size_t ga_rt_invalidations(const ga_rt_t *rt, const uint64_t **locs);

/* The ROOT register value for the walker (spec §2.3). */
uint64_t ga_rt_root(const ga_rt_t *rt);

/* The TABLE oracle (spec §2.3) in ga_memif_t form: ctx is the ga_rt_t. Any layout: for LIST/BST it
 * answers with 0 (unused). */
int ga_rt_oracle(void *ctx, uint64_t va, uint64_t *idx);

/* Host-side lookup, tags ignored: the entry whose range contains va and its location.
 * Returns false if none. For reports ("which allocation did this hit"). */
bool ga_rt_find(const ga_rt_t *rt, uint64_t va, ga_entry_t *e, uint64_t *loc);

/* The live allocation nearest to va (for "distance to the nearest allocation" reports); false if
 * there is none. *dist = 0 if inside. */
bool ga_rt_nearest_live(const ga_rt_t *rt, uint64_t va, ga_entry_t *e, uint64_t *dist);

typedef struct {
    uint64_t live, freed;        /* entries in the structure */
    uint64_t nodes;              /* nodes in use (list/BST) or occupied slots (table) */
    uint64_t metadata_bytes;     /* nodes * 32, or table slots in use * 16 */
    uint64_t live_bytes;         /* sum of live sizes */
    uint64_t mallocs, frees, reclaimed, trimmed;
    uint32_t height;             /* BST height (0 empty, 1 a single node); 0 for list/table */
} ga_rt_stats_t;
ga_rt_stats_t ga_rt_stats(const ga_rt_t *rt);

const ga_rt_cfg_t *ga_rt_cfg(const ga_rt_t *rt);

#endif /* GA_RUNTIME_H */
