/*
 * ga_layout.h — a metadata layout as one module (spec §2.3, §3.3, §7.5; docs/microarchitecture.md §9).
 *
 * Everything that differs between layouts sits behind one operations table, defined in the layout's
 * own file cmodel/ga_layout_<name>.c: the geometry of its metadata region, its walk (the exact read
 * sequence of spec §3.3), its reference search (the independent "third opinion", sharing no code
 * with the walk), and its runtime writer (how the runtime links an entry in and out and writes the
 * nodes). The list of layouts is cmodel/ga_layouts.def; ga_layout_ops() maps a code to its table.
 *
 * The runtime (ga_runtime.c) owns the entries: their records, their slots, the 16 bytes of the entry
 * at each location (which are the first 16 bytes at the location in every layout, spec §2.4), the
 * free order and the invalidations. A writer owns everything else it puts in device memory (list and
 * BST links, index nodes) and never moves an entry: a slot keeps its location while its entry lives.
 */
#ifndef GA_LAYOUT_H
#define GA_LAYOUT_H

#include "ga_walker.h"

/* One runtime record: one entry in the structure (live or freed), indexed by a record id. Record ids
 * are host bookkeeping; the device sees slots. Writers read base, size and slot; the rest is the
 * runtime's. */
typedef struct {
    uint64_t base, size;   /* the entry's range */
    uint64_t tag;          /* live: its tag. freed: the tag its allocation had if base is that
                              allocation's base (DOUBLE_FREE detection), else 0 */
    uint32_t slot;         /* the entry's slot: its location is md_base + slot_offset(slot) */
    uint32_t fnext, fprev; /* freed: free order (oldest first). Unused record: the pool chain (fnext) */
    uint32_t dnext;        /* the runtime's dirty chain (valid while dirty) */
    bool used, freed, dirty;
} ga_rec_t;

/* What a writer is told when it is created. */
typedef struct {
    ga_mem_t *mem;        /* the device memory (borrowed) */
    uint64_t md_base;     /* the metadata region's base (aligned to md_align) */
    uint32_t md_capacity; /* slots */
    unsigned tag_bits;
} ga_lw_env_t;

/* What a writer reports about its structure (ga_rt_stats). */
typedef struct {
    uint32_t height;       /* node levels (0 when the layout has none; index: the live index's) */
    uint32_t freed_height; /* index: the freed index's node levels (spec §2.3); 0 for the others */
    uint64_t extra_bytes;  /* metadata beyond the slots (index nodes) */
    uint64_t repacks;      /* index: repacks (spec §7.7) since the runtime started */
    uint64_t repack_nodes; /* index: nodes those repacks wrote */
    uint64_t node_writes;  /* index: nodes written by flush since the start (releases' zeroing not counted) */
} ga_lw_stats_t;

typedef struct ga_layout_ops {
    ga_layout_t code;
    /* --- geometry (spec §2.3, §7.5) --- */
    uint32_t md_align;   /* md_base must be a non-zero multiple of it */
    uint32_t slot_bytes; /* bytes at a slot's location that belong to it (zeroed when it is released) */
    bool lowest_slot;    /* a new entry takes the lowest free slot; else the most recently released */
    bool zero_filled;    /* the writer zero-fills every slot at create: no page of a slot ever needs
                            mapping later (else the runtime maps a never-used slot before its commit) */
    uint64_t (*md_bytes)(uint32_t capacity);                /* the region's size in bytes */
    uint64_t (*slot_offset)(uint32_t capacity, uint32_t slot); /* a slot's location minus md_base */
    /* --- the walk of spec §3.3 (same contract as ga_walk; cfg->layout is this layout) --- */
    ga_walk_result_t (*walk)(const ga_walk_cfg_t *cfg, const ga_memif_t *mem, uint64_t p);
    /* --- the reference search (contract of ga_ref_search, for this layout) --- */
    uint64_t (*ref_search)(ga_mem_t *mem, uint64_t root, uint64_t slots, unsigned tag_bits, uint64_t p,
                           uint64_t max_nodes, ga_entry_t *e_out, bool *ok);
    /* --- the runtime writer ---
     * create: the writer's state for an empty structure, with everything it must write at start
     *   (table: the zero-filled slots; index: the empty root); GA_ERR_NO_MEMORY; *st NULL on error.
     * destroy: frees the state (NULL is a no-op).
     * reserve: before a commit, make the next `inserts` inserts and any number of removes unable to
     *   fail: host memory for record ids below rec_cap, device pages of nodes the inserts may take.
     *   GA_ERR_NO_MEMORY or GA_ERR_NO_METADATA_SPACE; either changes nothing the walker can see.
     * insert: record id (base, size, slot set, its slot already taken) enters the structure.
     * remove: record id leaves it (called before its slot is released and zeroed).
 * freed (optional, NULL when the layout does not care): live record id was just freed (its tag in
 *   device memory becomes F; the structure must not change: frees race walks, spec §8).
 * begin (optional): a malloc is about to commit (before its removes and inserts); index: moves the
 *   entries freed since the last malloc into the freed index (spec §7.7). reserve already counted
 *   those moves among its inserts.
     * flush: write every node the operation changed; called once at the end of each operation, after
     *   the runtime has written the changed entries. Must not fail (pages were mapped by reserve).
     * root: the ROOT register value for the current structure.
     * stats: the structure's height in node levels (0 when the layout has none), the bytes of
     *   metadata it holds beyond the slots (index nodes; 0 for the others) and the index's repacks
     *   (spec §7.7; 0 for the others). */
    ga_err_t (*w_create)(void **st, const ga_lw_env_t *env);
    void (*w_destroy)(void *st);
    ga_err_t (*w_reserve)(void *st, uint32_t rec_cap, uint32_t inserts);
    void (*w_insert)(void *st, const ga_rec_t *rec, uint32_t id);
    void (*w_remove)(void *st, const ga_rec_t *rec, uint32_t id);
    void (*w_freed)(void *st, const ga_rec_t *rec, uint32_t id);
    void (*w_begin)(void *st, const ga_rec_t *rec);
    void (*w_flush)(void *st, const ga_rec_t *rec);
    uint64_t (*w_root)(const void *st, const ga_rec_t *rec);
    void (*w_stats)(const void *st, ga_lw_stats_t *out);
} ga_layout_ops_t;

/* The table of layout l; NULL when l names no layout. */
const ga_layout_ops_t *ga_layout_ops(ga_layout_t l);

/* The metadata region of a runtime with layout l and capacity slots (spec §7.5): its size in bytes
 * (0 when l names no layout) and its base alignment (0 when l names no layout). */
uint64_t ga_layout_md_bytes(ga_layout_t l, uint32_t capacity);
uint32_t ga_layout_md_align(ga_layout_t l);

/* The layouts' tables, one per file (referenced only through ga_layout_ops). */
#define GA_LAYOUT(id, code, name, rtl, title) extern const ga_layout_ops_t ga_layout_##name##_ops;
#include "ga_layouts.def"
#undef GA_LAYOUT

#endif /* GA_LAYOUT_H */
