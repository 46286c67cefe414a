/*
 * ga_runtime.h — the GPUArmor runtime around cudaMalloc/cudaFree (spec §7; paper §6.1).
 *
 * Keeps one metadata structure (list, AVL tree, table or index: the layouts of ga_layouts.def) in
 * simulated device memory in exactly the formats of spec §2, plus a host-side index used only by the
 * runtime itself (heights, free order, the allocator). Deterministic for a given configuration and
 * sequence of calls. The parts are separate files: this one (records, slots, free order, tags,
 * reclamation), ga_avl.c (ordering), ga_alloc.c (the allocator) and one ga_layout_<name>.c per layout
 * (its device structure and node writes, ga_layout.h).
 *
 * Terms. V = 64 - tag_bits, F = 2^tag_bits - 1 (the freed tag). An entry's range is [base, base + size)
 * with size the size the program asked for. Entries are live (tag 1..F-1) or freed (tag F). A node's
 * location is md_base + 32*slot (list, BST), md_base + 16*slot (table) or md_base + 256 + 16*slot
 * (index: the slot, after the freed and the live root nodes; the other index nodes follow the slots,
 * spec §2.3). Every operation is O(log n) in
 * the number of entries n, plus O(log n) per freed entry it trims or reclaims.
 *
 * Order of work inside one successful malloc (fixes node placement, spec §7.5, and the invalidations):
 *   1. every freed entry whose range overlaps the new range is removed, in increasing base order, and
 *      its slot released (spec §7.3);
 *   2. their parts outside the new range (at most two pieces: below and above) are inserted as freed
 *      entries, lower piece first; they keep the original's place in free order;
 *   3. the new live entry is inserted (list: at the head; BST: AVL insert; table: lowest free slot;
 *      index: lowest free slot, and a B+-tree insert, spec §7.7);
 *   4. while more than reclaim_threshold freed entries exist, the oldest is reclaimed (spec §7.4).
 * Inside one successful free: the entry's tag becomes F, then step 4.
 * A released list/BST slot is pushed on a LIFO stack; a new node pops it, else takes the next
 * never-used slot (table and index: the lowest free slot). A released node, slot or index node is
 * overwritten with zeros in device memory.
 * The TABLE region (md_capacity * 16 bytes) is written with zeros by ga_rt_create, so every slot of
 * [md_base, md_base + 16 * md_capacity) is readable and a free slot is all zero (spec §2.3).
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
    /* Extensions beyond the paper (spec §7.6). Both off by default; off, the runtime's behaviour
     * (pointers, tags, device memory, invalidations) is bit-for-bit that of spec §7.1-§7.5. */
    bool tag_neighbour_distinct; /* new tag differs from the nearest live allocation's below and
                                    above (spec §7.6.1) */
    uint32_t tag_quarantine;     /* W: a new allocation never takes the old tag of an overlapping
                                    range among the W most recent frees; 0 = off (spec §7.6.2);
                                    at most GA_RT_QUARANTINE_MAX */
} ga_rt_cfg_t;

#define GA_RT_QUARANTINE_MAX (UINT32_C(1) << 20)

/* Defaults: heap 0x7000_0000_0000 + 1 TiB, metadata at 0x6000_0000_0000, 1 Mi nodes,
 * reclaim threshold 1024, auto addresses, both extensions off (tag_neighbour_distinct false,
 * tag_quarantine 0). Valid for both tag widths. cfg NULL is a no-op. */
void ga_rt_default_cfg(ga_rt_cfg_t *cfg, ga_layout_t layout, unsigned tag_bits, uint64_t seed);

typedef struct ga_rt ga_rt_t; /* opaque */

/* GA_ERR_BAD_PARAM for an illegal configuration (every field is checked). mem is borrowed.
 * Legal: a layout of ga_layouts.def; tag_bits 7 or 16; md_base a non-zero multiple of 32 (128 for
 * INDEX; a node at location 0 would read as "no metadata"); md_capacity >= 1; the region [md_base,
 * md_base + ga_rt_md_bytes(cfg)) ends at or below 2^V (INDEX: and spans at most 2^36 bytes, what its
 * 32-bit refs address). Auto mode also: heap_base a non-zero
 * multiple of 256 (base 0 is refused as in fixed mode); heap_size a multiple of 256 and >= 256;
 * heap_base + heap_size <= 2^V; heap and metadata region disjoint. Fixed mode ignores the heap fields.
 * Any seed and reclaim_threshold (0: a free reclaims its entry at once) are legal; tag_quarantine
 * above GA_RT_QUARANTINE_MAX is GA_ERR_BAD_PARAM.
 * GA_ERR_BAD_PARAM also for cfg, mem or out NULL; GA_ERR_NO_MEMORY if the host is out of memory.
 * On success the structure is empty, ROOT is 0 (list, BST) or md_base (table, index: its empty root
 * node, 128 zero bytes, is written). */
ga_err_t ga_rt_create(const ga_rt_cfg_t *cfg, ga_mem_t *mem, ga_rt_t **out);
void ga_rt_destroy(ga_rt_t *rt); /* NULL is a no-op; mem is left as it is */

/* Allocate (spec §7.1). On success *ptr is the tagged pointer. On error nothing changes (allocator,
 * structure, device memory, tag generator, stats, the last invalidation list).
 * ga_rt_malloc (auto mode), errors in this order of precedence:
 *   GA_ERR_BAD_PARAM (rt or ptr NULL), GA_ERR_WRONG_MODE (fixed-mode runtime), GA_ERR_ZERO_SIZE,
 *   GA_ERR_TOO_LARGE (size > heap_size), GA_ERR_NO_SPACE (no free block of size rounded up to 256),
 *   GA_ERR_NO_METADATA_SPACE (the nodes in use after the operation, trimmed pieces included, would
 *   exceed md_capacity), GA_ERR_NO_MEMORY (host).
 *   The base is the lowest-addressed free block that fits (first fit, 256-aligned); the block
 *   reserved is size rounded up to 256; freed blocks coalesce with their neighbours.
 * ga_rt_malloc_at (fixed mode): GA_ERR_BAD_PARAM, GA_ERR_WRONG_MODE (auto-mode runtime),
 *   GA_ERR_ZERO_SIZE, GA_ERR_TOO_LARGE (size > 2^V), GA_ERR_BAD_ADDRESS (base 0, base >= 2^V,
 *   base + size > 2^V, or the range overlaps the metadata region [decision: it is reserved address
 *   space, paper §4.2]), GA_ERR_OVERLAP (the range overlaps a live allocation's range),
 *   GA_ERR_NO_METADATA_SPACE, GA_ERR_NO_MEMORY. Any alignment is accepted.
 * The tag is drawn (uniform over 1 .. F-1, ga_rng_below) only after every check passed. With an
 * extension of spec §7.6 on, it is drawn uniformly over the valid tags minus an excluded set (still
 * one ga_rng_below call): the tags of the nearest live allocation below and above the new range
 * (tag_neighbour_distinct), then, newest first, the old tags of the quarantined frees whose range
 * overlaps the new range (tag_quarantine); the set stops growing when one more tag would leave no
 * valid tag to draw (F - 2 tags at most), so a tag always exists. */
ga_err_t ga_rt_malloc(ga_rt_t *rt, uint64_t size, uint64_t *ptr);
ga_err_t ga_rt_malloc_at(ga_rt_t *rt, uint64_t base, uint64_t size, uint64_t *ptr);

/* Free (spec §7.2). On error nothing changes. With tag_quarantine = W > 0 a successful free
 * records (base, size, old tag) in a ring holding the W most recent frees (spec §7.6.2). ptr 0 is a successful no-op (not counted in stats;
 * the invalidation list becomes empty). Otherwise, with a = va(ptr), t = tag(ptr):
 *   - a is the base of a live entry: GA_OK if t equals its tag, else GA_ERR_TAG_MISMATCH (t = 0 too);
 *   - a is the base of a freed entry whose allocation had base a and tag t: GA_ERR_DOUBLE_FREE;
 *   - a is inside a live entry but not its base: GA_ERR_INTERIOR_POINTER;
 *   - anything else (no entry, inside or at the base of a freed piece with another tag or left over by
 *     trimming, a reclaimed entry): GA_ERR_UNKNOWN_POINTER.
 * GA_ERR_BAD_PARAM for rt NULL. A successful free writes tag F into the entry (base and size kept),
 * returns the block to the allocator (auto mode) and may reclaim the oldest freed entry. */
ga_err_t ga_rt_free(ga_rt_t *rt, uint64_t ptr);

/* Locations whose entry the last successful malloc/free changed or removed: the caller invalidates
 * them in every MLU (spec §5.2). Valid until the next call that changes the runtime.
 * A failed call leaves the previous list in place. Link-only changes (list neighbours, BST rotations)
 * are not listed: the MLB holds entries, not links. A location may appear twice when a slot is released
 * and reused inside one malloc. Returns the count; *locs may be NULL when the count is 0. */
size_t ga_rt_invalidations(const ga_rt_t *rt, const uint64_t **locs);

/* The ROOT register value for the walker (spec §2.3): list head / tree root location, 0 when empty;
 * md_base for the table. */
uint64_t ga_rt_root(const ga_rt_t *rt);

/* The TABLE oracle (spec §2.3) in ga_memif_t form: ctx is the ga_rt_t. Any layout: for LIST/BST it
 * answers with 0 (unused). For TABLE: 1 and *idx = slot of the entry (live or freed) whose range
 * contains va, else 0. The tag bits of va are ignored (masked off). */
int ga_rt_oracle(void *ctx, uint64_t va, uint64_t *idx);

/* Host-side lookup, tags ignored: the entry whose range contains va and its location.
 * Returns false if none. For reports ("which allocation did this hit"). The tag bits of va are
 * masked off. *e gets the entry exactly as in device memory (freed entries carry tag F). e and loc may
 * be NULL. */
bool ga_rt_find(const ga_rt_t *rt, uint64_t va, ga_entry_t *e, uint64_t *loc);

/* The live allocation nearest to va (for "distance to the nearest allocation" reports); false if
 * there is none. *dist = 0 if inside. The tag bits of va are masked off. Outside, *dist is the distance
 * to the allocation's nearest byte: base - va below it, va - (base + size - 1) above it. On a tie the
 * allocation below va wins. e and dist may be NULL. */
bool ga_rt_nearest_live(const ga_rt_t *rt, uint64_t va, ga_entry_t *e, uint64_t *dist);

typedef struct {
    uint64_t live, freed;        /* entries in the structure */
    uint64_t nodes;              /* nodes in use (list/BST) or occupied slots (table, index) */
    uint64_t metadata_bytes;     /* nodes * 32 (list, BST), slots in use * 16 (table), slots in use
                                    * 16 + index_bytes (index) */
    uint64_t live_bytes;         /* sum of live sizes */
    uint64_t mallocs, frees, reclaimed, trimmed; /* successful mallocs and non-NULL frees; freed
                                                    entries reclaimed (spec §7.4); freed entries
                                                    removed by a new allocation's range (spec §7.3) */
    uint32_t height;             /* BST height (0 empty, 1 a single node); index: node levels (1 while
                                    the root is a leaf); 0 for list/table */
    /* Fields below were added after the first release. */
    uint64_t index_bytes;        /* index: 128 bytes per index node in use, both roots included; else 0 */
    uint64_t index_repacks;      /* index: repacks (spec §7.7) since the runtime started; else 0 */
    uint64_t index_repack_nodes; /* index: the nodes those repacks wrote; else 0 */
    uint32_t freed_height;       /* index: the freed index's node levels (spec §2.3; `height` is the
                                    live index's); else 0 */
    uint64_t index_node_writes;  /* index: 128-byte index nodes written since the runtime started
                                    (the roots' first zeroing not counted); else 0 */
} ga_rt_stats_t;
ga_rt_stats_t ga_rt_stats(const ga_rt_t *rt);

const ga_rt_cfg_t *ga_rt_cfg(const ga_rt_t *rt);

/* The size in bytes of cfg's metadata region [md_base, md_base + size) (spec §7.5): md_capacity * 32
 * (list, BST), * 16 (table), or the index's root, slots and node pool (spec §2.3). 0 for cfg NULL, a
 * layout that is none of them, or an index region its refs cannot address. */
uint64_t ga_rt_md_bytes(const ga_rt_cfg_t *cfg);

#endif /* GA_RUNTIME_H */
