/*
 * ga_runtime.c — the GPUArmor runtime (spec §7; see ga_runtime.h for the contract).
 *
 * This file is the part every layout shares; the rest lives in three kinds of module:
 *   - ga_avl.c: the AVL tree that orders entries, live allocations and free blocks;
 *   - ga_alloc.c: the first-fit allocator of auto mode;
 *   - ga_layout_<name>.c: how a layout links an entry in and out of its device structure and writes
 *     its nodes (ga_layout.h, "runtime writer").
 *
 * Host-side state here
 *   - records (ga_rec_t): one per entry in the structure (live or freed), in a pool indexed by record
 *     id. A record knows its range, its tag and its slot. Record ids are host bookkeeping only; the
 *     device sees slots.
 *   - et: an AVL tree of every entry keyed by base: the host index behind free(), the oracle and
 *     ga_rt_find. lt: an AVL tree of the live entries only (nearest-live reports, overlap checks).
 *   - the free order of freed entries: a doubly-linked FIFO; trimmed pieces take their original's place.
 *   - slots: a LIFO stack of released slots, or a min-heap of them for the layouts whose new entries
 *     take the lowest free slot, plus the count of slots ever used.
 *
 * Every operation first checks and reserves everything it needs (host arrays, device pages of new
 * slots and nodes), then commits; the commit cannot fail, so an error changes nothing. Device writes
 * are batched: a record whose entry changed is marked dirty and its 16-byte entry is written once at
 * the end, then the layout writes the nodes it changed; a released slot is zeroed at once (before any
 * reuse in the same operation).
 */
#include "ga_runtime.h"

#include "ga_alloc.h"
#include "ga_avl.h"
#include "ga_layout.h"
#include "ga_rng.h"

#include <stdlib.h>
#include <string.h>

#define NIL UINT32_MAX
#define ALIGN 256u /* CUDA allocation alignment (paper §3.2) */

struct ga_rt {
    ga_rt_cfg_t cfg;
    ga_mem_t *mem;
    const ga_layout_ops_t *lo; /* the layout's module */
    void *lw;                  /* its writer state */
    unsigned vbits;  /* V */
    uint64_t vmask;  /* 2^V - 1 */
    uint64_t ftag;   /* F = 2^T - 1 */
    ga_rng_t rng;

    ga_rec_t *rec;
    ga_avl_node_t *etn, *ltn; /* nodes of et and lt, indexed by record id */
    uint32_t rcap, rtop, rfree, nrfree; /* capacity, ids ever used, pool chain head and length */
    ga_avl_t et, lt;
    uint32_t fold, fnew;    /* free order: oldest and newest freed record */
    uint32_t dhead;         /* dirty chain head */
    uint64_t nlive, nfreed, live_bytes;

    uint32_t bump;          /* slots ever used */
    uint32_t *sfree;        /* released slots: LIFO stack, or a min-heap (lo->lowest_slot) */
    uint32_t nsfree, sfree_cap;

    bool have_alloc;        /* auto mode */
    ga_alloc_t alloc;

    uint32_t *ov;           /* scratch: freed records a new range overlaps, by base */
    size_t nov, ov_cap;
    uint64_t *inval;        /* the last successful operation's invalidations */
    size_t ninval, inval_cap;

    uint64_t mallocs, frees, reclaimed, trimmed;

    /* Extensions (spec §7.6), allocated at create only when enabled, so commits never allocate. */
    uint64_t *qbase, *qsize, *qtag; /* quarantine ring: the tag_quarantine most recent frees */
    uint32_t qnext, qcount;         /* next ring slot to write; records held (<= tag_quarantine) */
    uint64_t *excl;                 /* scratch: excluded tags, sorted, distinct */
    size_t nexcl, excl_cap;
};

static const uint8_t g_zero[4096]; /* constant zeros for clearing device memory (no state) */

void ga_rt_default_cfg(ga_rt_cfg_t *cfg, ga_layout_t layout, unsigned tag_bits, uint64_t seed)
{
    if (cfg == NULL) return;
    memset(cfg, 0, sizeof *cfg);
    cfg->layout = layout;
    cfg->tag_bits = tag_bits;
    cfg->seed = seed;
    cfg->fixed_addresses = false;
    cfg->heap_base = UINT64_C(0x700000000000);
    cfg->heap_size = UINT64_C(1) << 40;
    cfg->md_base = UINT64_C(0x600000000000);
    cfg->md_capacity = UINT32_C(1) << 20;
    cfg->reclaim_threshold = 1024u;
    cfg->tag_neighbour_distinct = false;
    cfg->tag_quarantine = 0u;
}

static uint64_t slot_loc(const ga_rt_t *rt, uint32_t slot)
{
    return rt->cfg.md_base + rt->lo->slot_offset(rt->cfg.md_capacity, slot);
}

static uint64_t rec_loc(const ga_rt_t *rt, uint32_t id)
{
    return id == NIL ? 0u : slot_loc(rt, rt->rec[id].slot);
}

static uint64_t rec_tb(const ga_rt_t *rt, const ga_rec_t *r)
{
    return ((r->freed ? rt->ftag : r->tag) << rt->vbits) | r->base;
}

static uint64_t round_up_256(uint64_t size) { return (size + (ALIGN - 1u)) & ~(uint64_t)(ALIGN - 1u); }

/* --- reservations (before any change) ---------------------------------------------------------- */

static ga_err_t reserve_recs(ga_rt_t *rt, uint32_t k)
{
    if ((uint64_t)(rt->rcap - rt->rtop) + rt->nrfree >= k) return GA_OK;
    uint64_t ncap = rt->rcap == 0u ? 64u : (uint64_t)rt->rcap * 2u;
    while (ncap - rt->rtop + rt->nrfree < k) ncap *= 2u;
    if (ncap >= NIL) ncap = NIL - 1u;
    if (ncap - rt->rtop + rt->nrfree < k) return GA_ERR_NO_MEMORY;
    ga_rec_t *nr = realloc(rt->rec, (size_t)ncap * sizeof *nr);
    if (nr == NULL) return GA_ERR_NO_MEMORY;
    rt->rec = nr;
    memset(nr + rt->rcap, 0, (size_t)(ncap - rt->rcap) * sizeof *nr);
    ga_avl_node_t *ne = realloc(rt->etn, (size_t)ncap * sizeof *ne);
    if (ne == NULL) return GA_ERR_NO_MEMORY;
    rt->etn = ne;
    rt->et.n = ne;
    ga_avl_node_t *nl = realloc(rt->ltn, (size_t)ncap * sizeof *nl);
    if (nl == NULL) return GA_ERR_NO_MEMORY;
    rt->ltn = nl;
    rt->lt.n = nl;
    rt->rcap = (uint32_t)ncap;
    return GA_OK;
}

/* Room for every slot that can be released: never more than the slots ever used (+3 new ones). */
static ga_err_t reserve_slots(ga_rt_t *rt)
{
    uint64_t need = (uint64_t)rt->bump + 4u;
    if (need <= rt->sfree_cap) return GA_OK;
    uint64_t ncap = rt->sfree_cap == 0u ? 64u : (uint64_t)rt->sfree_cap * 2u;
    while (ncap < need) ncap *= 2u;
    if (ncap > UINT32_MAX) ncap = UINT32_MAX;
    if (ncap < need) return GA_ERR_NO_MEMORY;
    uint32_t *ns = realloc(rt->sfree, (size_t)ncap * sizeof *ns);
    if (ns == NULL) return GA_ERR_NO_MEMORY;
    rt->sfree = ns;
    rt->sfree_cap = (uint32_t)ncap;
    return GA_OK;
}

static ga_err_t reserve_inval(ga_rt_t *rt, size_t k)
{
    if (k <= rt->inval_cap) return GA_OK;
    size_t ncap = rt->inval_cap == 0u ? 16u : rt->inval_cap;
    while (ncap < k) ncap *= 2u;
    uint64_t *ni = realloc(rt->inval, ncap * sizeof *ni);
    if (ni == NULL) return GA_ERR_NO_MEMORY;
    rt->inval = ni;
    rt->inval_cap = ncap;
    return GA_OK;
}

static ga_err_t ov_push(ga_rt_t *rt, uint32_t id)
{
    if (rt->nov == rt->ov_cap) {
        size_t ncap = rt->ov_cap == 0u ? 16u : rt->ov_cap * 2u;
        uint32_t *no = realloc(rt->ov, ncap * sizeof *no);
        if (no == NULL) return GA_ERR_NO_MEMORY;
        rt->ov = no;
        rt->ov_cap = ncap;
    }
    rt->ov[rt->nov++] = id;
    return GA_OK;
}

/* Map the device pages of the `fresh` never-used slots the operation will take, with one
 * all-or-nothing write of zeros, so that the commit's writes cannot fail. A zero-filled layout (the
 * table) mapped every slot at create. */
static ga_err_t premap_slots(ga_rt_t *rt, uint64_t fresh)
{
    if (fresh == 0u || rt->lo->zero_filled) return GA_OK;
    if (fresh > 3u) return GA_ERR_NO_MEMORY; /* cannot happen: at most 3 new entries per operation */
    return ga_mem_write(rt->mem, slot_loc(rt, rt->bump), g_zero, (size_t)(fresh * rt->lo->slot_bytes));
}

/* Everything an operation that inserts `inserts` entries needs before it commits: records, the slot
 * stack, the invalidation list, device pages of new slots, and the layout writer's own reservation.
 * GA_ERR_NO_MEMORY or (the layout's nodes) GA_ERR_NO_METADATA_SPACE, changing nothing visible. */
static ga_err_t reserve_op(ga_rt_t *rt, uint32_t inserts, size_t invals, uint64_t fresh)
{
    ga_err_t err = reserve_recs(rt, inserts);
    if (err == GA_OK) err = reserve_slots(rt);
    if (err == GA_OK) err = reserve_inval(rt, invals);
    if (err == GA_OK) err = premap_slots(rt, fresh);
    if (err == GA_OK) err = rt->lo->w_reserve(rt->lw, rt->rcap, inserts);
    return err;
}

/* --- records, dirty chain, device writes --------------------------------------------------------- */

static uint32_t rec_new(ga_rt_t *rt)
{
    uint32_t id;
    if (rt->rfree != NIL) {
        id = rt->rfree;
        rt->rfree = rt->rec[id].fnext;
        rt->nrfree--;
    } else {
        id = rt->rtop++;
    }
    ga_rec_t *r = &rt->rec[id];
    /* r->dirty / r->dnext are kept: the id may still be on this operation's dirty chain. */
    r->base = 0;
    r->size = 0;
    r->tag = 0;
    r->slot = 0;
    r->fnext = r->fprev = NIL;
    r->used = true;
    r->freed = false;
    return id;
}

static void rec_release(ga_rt_t *rt, uint32_t id)
{
    rt->rec[id].used = false;
    rt->rec[id].fnext = rt->rfree;
    rt->rfree = id;
    rt->nrfree++;
}

static void mark_dirty(ga_rt_t *rt, uint32_t id)
{
    ga_rec_t *r = &rt->rec[id];
    if (r->dirty) return;
    r->dirty = true;
    r->dnext = rt->dhead;
    rt->dhead = id;
}

/* Write every changed entry (16 bytes at its location; the page is mapped: the slot was written
 * before, or premapped, so the write cannot fail), then the layout's changed nodes. */
static void flush_dirty(ga_rt_t *rt)
{
    uint32_t id = rt->dhead;
    rt->dhead = NIL;
    while (id != NIL) {
        ga_rec_t *r = &rt->rec[id];
        uint32_t next = r->dnext;
        r->dirty = false;
        r->dnext = NIL;
        if (r->used) {
            uint8_t buf[GA_ENTRY_BYTES];
            ga_put_le64(buf, rec_tb(rt, r));
            ga_put_le64(buf + 8, r->size);
            (void)ga_mem_write(rt->mem, slot_loc(rt, r->slot), buf, sizeof buf);
        }
        id = next;
    }
    rt->lo->w_flush(rt->lw, rt->rec);
}

static void inval_push(ga_rt_t *rt, uint64_t loc)
{
    /* Cheap dedupe of the common case (a slot released and reused in the same malloc). */
    size_t from = rt->ninval > 8u ? rt->ninval - 8u : 0u;
    for (size_t i = from; i < rt->ninval; i++)
        if (rt->inval[i] == loc) return;
    rt->inval[rt->ninval++] = loc; /* capacity reserved by the caller */
}

/* --- slots --------------------------------------------------------------------------------------- */

static void heap_push(ga_rt_t *rt, uint32_t s)
{
    uint32_t *h = rt->sfree;
    uint32_t i = rt->nsfree++;
    while (i > 0u) {
        uint32_t p = (i - 1u) / 2u;
        if (h[p] <= s) break;
        h[i] = h[p];
        i = p;
    }
    h[i] = s;
}

static uint32_t heap_pop(ga_rt_t *rt)
{
    uint32_t *h = rt->sfree;
    uint32_t top = h[0];
    uint32_t last = h[--rt->nsfree];
    uint32_t n = rt->nsfree, i = 0;
    for (;;) {
        uint32_t c = 2u * i + 1u;
        if (c >= n) break;
        if (c + 1u < n && h[c + 1u] < h[c]) c++;
        if (h[c] >= last) break;
        h[i] = h[c];
        i = c;
    }
    if (n > 0u) h[i] = last;
    return top;
}

static uint32_t slot_take(ga_rt_t *rt)
{
    if (rt->nsfree == 0u) return rt->bump++;
    if (rt->lo->lowest_slot) return heap_pop(rt); /* lowest free slot */
    return rt->sfree[--rt->nsfree];               /* most recently released */
}

static void slot_release(ga_rt_t *rt, uint32_t slot)
{
    (void)ga_mem_write(rt->mem, slot_loc(rt, slot), g_zero, rt->lo->slot_bytes); /* mapped: written before */
    if (rt->lo->lowest_slot)
        heap_push(rt, slot);
    else
        rt->sfree[rt->nsfree++] = slot;
}

/* --- the structure ----------------------------------------------------------------------------- */

static void fifo_unlink(ga_rt_t *rt, uint32_t id)
{
    ga_rec_t *r = &rt->rec[id];
    if (r->fprev != NIL)
        rt->rec[r->fprev].fnext = r->fnext;
    else
        rt->fold = r->fnext;
    if (r->fnext != NIL)
        rt->rec[r->fnext].fprev = r->fprev;
    else
        rt->fnew = r->fprev;
    r->fnext = r->fprev = NIL;
}

/* Put x right after `after` in free order (after must be freed and linked). */
static void fifo_insert_after(ga_rt_t *rt, uint32_t after, uint32_t x)
{
    uint32_t nx = rt->rec[after].fnext;
    rt->rec[x].fprev = after;
    rt->rec[x].fnext = nx;
    rt->rec[after].fnext = x;
    if (nx != NIL)
        rt->rec[nx].fprev = x;
    else
        rt->fnew = x;
}

static void fifo_append(ga_rt_t *rt, uint32_t x)
{
    rt->rec[x].fprev = rt->fnew;
    rt->rec[x].fnext = NIL;
    if (rt->fnew != NIL)
        rt->rec[rt->fnew].fnext = x;
    else
        rt->fold = x;
    rt->fnew = x;
}

/* Give record id (base, size, tag, freed set) a slot and link it into the host index and the layout. */
static void place_entry(ga_rt_t *rt, uint32_t id)
{
    ga_rec_t *r = &rt->rec[id];
    r->slot = slot_take(rt);
    rt->etn[id].key = r->base;
    rt->etn[id].val = 0;
    ga_avl_insert(&rt->et, id);
    rt->lo->w_insert(rt->lw, rt->rec, id);
    mark_dirty(rt, id);
    inval_push(rt, slot_loc(rt, r->slot));
}

/* Remove freed record id from the structure; its slot is zeroed and released. */
static void remove_entry(ga_rt_t *rt, uint32_t id)
{
    ga_rec_t *r = &rt->rec[id];
    rt->lo->w_remove(rt->lw, rt->rec, id);
    ga_avl_remove(&rt->et, id);
    fifo_unlink(rt, id);
    inval_push(rt, slot_loc(rt, r->slot));
    slot_release(rt, r->slot);
    rt->nfreed--;
    rec_release(rt, id);
}

/* Freed entries beyond the threshold after the operation (spec §7.4). */
static uint64_t excess_freed(const ga_rt_t *rt, uint64_t nfreed)
{
    return nfreed > rt->cfg.reclaim_threshold ? nfreed - rt->cfg.reclaim_threshold : 0u;
}

static void reclaim(ga_rt_t *rt)
{
    while (rt->nfreed > rt->cfg.reclaim_threshold) {
        remove_entry(rt, rt->fold);
        rt->reclaimed++;
    }
}

/* --- create / destroy ----------------------------------------------------------------------------- */

static bool cfg_ok(const ga_rt_cfg_t *c)
{
    const ga_layout_ops_t *lo = ga_layout_ops(c->layout);
    if (lo == NULL) return false;
    if (!ga_tag_bits_ok(c->tag_bits)) return false;
    uint64_t vend = UINT64_C(1) << ga_va_bits(c->tag_bits); /* 2^V */
    if (c->md_base == 0u || c->md_base % lo->md_align != 0u || c->md_capacity == 0u) return false;
    if (c->md_base >= vend) return false;
    uint64_t md_len = lo->md_bytes(c->md_capacity);
    if (md_len == 0u || md_len > vend - c->md_base) return false;
    if (!c->fixed_addresses) {
        if (c->heap_base == 0u || c->heap_base % ALIGN != 0u) return false;
        if (c->heap_size < ALIGN || c->heap_size % ALIGN != 0u) return false;
        if (c->heap_base >= vend || c->heap_size > vend - c->heap_base) return false;
        bool disjoint = c->heap_base + c->heap_size <= c->md_base || c->md_base + md_len <= c->heap_base;
        if (!disjoint) return false;
    }
    if (c->tag_quarantine > GA_RT_QUARANTINE_MAX) return false;
    return true;
}

ga_err_t ga_rt_create(const ga_rt_cfg_t *cfg, ga_mem_t *mem, ga_rt_t **out)
{
    if (out == NULL) return GA_ERR_BAD_PARAM;
    *out = NULL;
    if (cfg == NULL || mem == NULL || !cfg_ok(cfg)) return GA_ERR_BAD_PARAM;
    ga_rt_t *rt = calloc(1, sizeof *rt);
    if (rt == NULL) return GA_ERR_NO_MEMORY;
    rt->cfg = *cfg;
    rt->mem = mem;
    rt->lo = ga_layout_ops(cfg->layout);
    rt->vbits = ga_va_bits(cfg->tag_bits);
    rt->vmask = ga_va_mask(cfg->tag_bits);
    rt->ftag = ga_tag_freed(cfg->tag_bits);
    ga_rng_seed(&rt->rng, cfg->seed);
    rt->rfree = rt->fold = rt->fnew = rt->dhead = NIL;
    ga_avl_init(&rt->et, NULL, false, NULL, NULL);
    ga_avl_init(&rt->lt, NULL, false, NULL, NULL);

    ga_err_t err = reserve_recs(rt, 64u);
    if (err == GA_OK) err = reserve_slots(rt);
    if (err == GA_OK) err = reserve_inval(rt, 16u);
    if (err == GA_OK && !cfg->fixed_addresses) {
        err = ga_alloc_init(&rt->alloc, cfg->heap_base, cfg->heap_size);
        rt->have_alloc = true;
    }
    if (err == GA_OK) {
        ga_lw_env_t env = { mem, cfg->md_base, cfg->md_capacity, cfg->tag_bits };
        err = rt->lo->w_create(&rt->lw, &env);
    }
    if (err == GA_OK) err = rt->lo->w_reserve(rt->lw, rt->rcap, 0u);
    if (err == GA_OK && cfg->tag_quarantine > 0u) {
        size_t w = cfg->tag_quarantine;
        rt->qbase = calloc(w, sizeof *rt->qbase);
        rt->qsize = calloc(w, sizeof *rt->qsize);
        rt->qtag = calloc(w, sizeof *rt->qtag);
        if (rt->qbase == NULL || rt->qsize == NULL || rt->qtag == NULL) err = GA_ERR_NO_MEMORY;
    }
    if (err == GA_OK && (cfg->tag_neighbour_distinct || cfg->tag_quarantine > 0u)) {
        /* Two neighbour tags plus one per ring record, never more than F - 2 (ga_rt_malloc). */
        uint64_t cap = 2u + (uint64_t)cfg->tag_quarantine;
        if (cap > rt->ftag - 2u) cap = rt->ftag - 2u;
        rt->excl_cap = (size_t)cap;
        rt->excl = calloc(rt->excl_cap, sizeof *rt->excl);
        if (rt->excl == NULL) err = GA_ERR_NO_MEMORY;
    }
    if (err != GA_OK) {
        ga_rt_destroy(rt);
        return err;
    }
    *out = rt;
    return GA_OK;
}

void ga_rt_destroy(ga_rt_t *rt)
{
    if (rt == NULL) return;
    if (rt->lw != NULL) rt->lo->w_destroy(rt->lw);
    if (rt->have_alloc) ga_alloc_fini(&rt->alloc);
    free(rt->rec);
    free(rt->etn);
    free(rt->ltn);
    free(rt->sfree);
    free(rt->ov);
    free(rt->inval);
    free(rt->qbase);
    free(rt->qsize);
    free(rt->qtag);
    free(rt->excl);
    free(rt);
}

/* --- tags (spec §7.1, extensions §7.6) ------------------------------------------------------------ */

/* Add valid tag t to the sorted, distinct excluded set unless it is there already or the set is full
 * (excl_cap, at most F - 2, so at least one valid tag always stays drawable). */
static void excl_add(ga_rt_t *rt, uint64_t t)
{
    if (!ga_tag_is_valid(t, rt->cfg.tag_bits) || rt->nexcl >= rt->excl_cap) return;
    size_t i = 0;
    while (i < rt->nexcl && rt->excl[i] < t) i++;
    if (i < rt->nexcl && rt->excl[i] == t) return;
    memmove(rt->excl + i + 1, rt->excl + i, (rt->nexcl - i) * sizeof *rt->excl);
    rt->excl[i] = t;
    rt->nexcl++;
}

/* The tag of a new allocation over [base, base + size), drawn with exactly one ga_rng_below call.
 * Extensions off: uniform over 1 .. F-1 (spec §7.1), the draw of every earlier version. On: uniform
 * over the valid tags minus the excluded set of ga_rt_malloc's contract: the r-th smallest tag not in
 * the set, r uniform over the (F - 1 - |set|) candidates. Called in the commit, before the new entry
 * enters the live tree; the range holds no live entry (checked by the callers). */
static uint64_t draw_tag(ga_rt_t *rt, uint64_t base, uint64_t size)
{
    if (!rt->cfg.tag_neighbour_distinct && rt->cfg.tag_quarantine == 0u)
        return 1u + ga_rng_below(&rt->rng, rt->ftag - 1u); /* uniform over 1 .. F-1 */
    rt->nexcl = 0;
    if (rt->cfg.tag_neighbour_distinct) {
        uint32_t below = ga_avl_floor(&rt->lt, base), above = ga_avl_above(&rt->lt, base);
        if (below != NIL) excl_add(rt, rt->rec[below].tag);
        if (above != NIL) excl_add(rt, rt->rec[above].tag);
    }
    uint64_t end = base + size;
    uint32_t w = rt->cfg.tag_quarantine;
    for (uint32_t k = 1; k <= rt->qcount; k++) { /* newest first */
        uint32_t i = (rt->qnext + w - k) % w;
        if (rt->qbase[i] < end && base < rt->qbase[i] + rt->qsize[i]) excl_add(rt, rt->qtag[i]);
    }
    uint64_t t = 1u + ga_rng_below(&rt->rng, rt->ftag - 1u - rt->nexcl);
    for (size_t i = 0; i < rt->nexcl; i++) /* ascending: skip every excluded tag at or below t */
        if (rt->excl[i] <= t) t++;
    return t;
}

/* Quarantine ring (spec §7.6.2): remember a successful free's range and old tag, overwriting the
 * oldest record once W are held. */
static void quarantine_push(ga_rt_t *rt, uint64_t base, uint64_t size, uint64_t tag)
{
    uint32_t w = rt->cfg.tag_quarantine;
    if (w == 0u) return;
    rt->qbase[rt->qnext] = base;
    rt->qsize[rt->qnext] = size;
    rt->qtag[rt->qnext] = tag;
    rt->qnext = (rt->qnext + 1u) % w;
    if (rt->qcount < w) rt->qcount++;
}

/* --- malloc ---------------------------------------------------------------------------------------- */

/* Common part of both mallocs: range [base, base + size) is free of live entries in auto mode (the
 * allocator's block `blk`, `need` bytes, is taken on commit); fixed mode passes blk = NIL. */
static ga_err_t malloc_common(ga_rt_t *rt, uint64_t base, uint64_t size, uint32_t blk, uint64_t need,
                              uint64_t *ptr)
{
    uint64_t end = base + size; /* <= 2^V: checked by the callers */

    /* Plan: the entries the new range overlaps, in base order. */
    rt->nov = 0;
    uint32_t id = ga_avl_floor(&rt->et, base);
    if (id == NIL || rt->rec[id].base + rt->rec[id].size <= base) id = ga_avl_above(&rt->et, base);
    while (id != NIL && rt->rec[id].base < end) {
        if (!rt->rec[id].freed) return GA_ERR_OVERLAP; /* auto mode: impossible (block was free) */
        if (ov_push(rt, id) != GA_OK) return GA_ERR_NO_MEMORY;
        id = ga_avl_above(&rt->et, rt->rec[id].base);
    }
    uint32_t first = rt->nov > 0u ? rt->ov[0] : NIL;
    uint32_t last = rt->nov > 0u ? rt->ov[rt->nov - 1u] : NIL;
    bool lo_piece = first != NIL && rt->rec[first].base < base;
    bool hi_piece = last != NIL && rt->rec[last].base + rt->rec[last].size > end;
    uint64_t npieces = (uint64_t)lo_piece + (uint64_t)hi_piece;

    uint64_t nodes = rt->nlive + rt->nfreed;
    if (nodes - rt->nov + npieces + 1u > rt->cfg.md_capacity) return GA_ERR_NO_METADATA_SPACE;

    uint64_t nfreed_after = rt->nfreed - rt->nov + npieces;
    uint64_t fresh_avail = (uint64_t)rt->nsfree + rt->nov; /* released slots before the new nodes */
    uint64_t fresh = npieces + 1u > fresh_avail ? npieces + 1u - fresh_avail : 0u;
    ga_err_t err = reserve_op(rt, (uint32_t)npieces + 1u,
                              rt->nov + npieces + 1u + excess_freed(rt, nfreed_after) + 1u, fresh);
    if (err != GA_OK) return err;

    /* Commit (cannot fail). */
    rt->ninval = 0;
    if (rt->lo->w_begin != NULL) rt->lo->w_begin(rt->lw, rt->rec);
    if (blk != NIL) ga_alloc_take(&rt->alloc, blk, need);
    uint32_t lo = NIL, hi = NIL;
    if (hi_piece) {
        const ga_rec_t *o = &rt->rec[last];
        uint64_t oend = o->base + o->size;
        hi = rec_new(rt);
        rt->rec[hi].base = end;
        rt->rec[hi].size = oend - end;
        rt->rec[hi].tag = 0; /* not an allocation's base: no DOUBLE_FREE for it */
        rt->rec[hi].freed = true;
        fifo_insert_after(rt, last, hi);
    }
    if (lo_piece) {
        const ga_rec_t *o = &rt->rec[first];
        uint64_t obase = o->base, otag = o->tag;
        lo = rec_new(rt);
        rt->rec[lo].base = obase;
        rt->rec[lo].size = base - obase;
        rt->rec[lo].tag = otag; /* same base: a second free of the old pointer is a DOUBLE_FREE */
        rt->rec[lo].freed = true;
        fifo_insert_after(rt, first, lo); /* before hi when both come from the same entry */
    }
    for (size_t k = 0; k < rt->nov; k++) {
        remove_entry(rt, rt->ov[k]);
        rt->trimmed++;
    }
    if (lo != NIL) {
        place_entry(rt, lo);
        rt->nfreed++;
    }
    if (hi != NIL) {
        place_entry(rt, hi);
        rt->nfreed++;
    }
    uint64_t tag = draw_tag(rt, base, size);
    uint32_t nid = rec_new(rt);
    ga_rec_t *r = &rt->rec[nid];
    r->base = base;
    r->size = size;
    r->tag = tag;
    place_entry(rt, nid);
    rt->ltn[nid].key = base;
    rt->ltn[nid].val = 0;
    ga_avl_insert(&rt->lt, nid);
    rt->nlive++;
    rt->live_bytes += size;
    rt->mallocs++;
    reclaim(rt);
    flush_dirty(rt);
    *ptr = (tag << rt->vbits) | base;
    return GA_OK;
}

ga_err_t ga_rt_malloc(ga_rt_t *rt, uint64_t size, uint64_t *ptr)
{
    if (rt == NULL || ptr == NULL) return GA_ERR_BAD_PARAM;
    if (rt->cfg.fixed_addresses) return GA_ERR_WRONG_MODE;
    if (size == 0u) return GA_ERR_ZERO_SIZE;
    if (size > rt->cfg.heap_size) return GA_ERR_TOO_LARGE;
    uint64_t need = round_up_256(size); /* no overflow: heap_size <= 2^57 */
    uint64_t base;
    uint32_t blk;
    if (!ga_alloc_find(&rt->alloc, need, &base, &blk)) return GA_ERR_NO_SPACE;
    return malloc_common(rt, base, size, blk, need, ptr);
}

ga_err_t ga_rt_malloc_at(ga_rt_t *rt, uint64_t base, uint64_t size, uint64_t *ptr)
{
    if (rt == NULL || ptr == NULL) return GA_ERR_BAD_PARAM;
    if (!rt->cfg.fixed_addresses) return GA_ERR_WRONG_MODE;
    if (size == 0u) return GA_ERR_ZERO_SIZE;
    uint64_t vend = rt->vmask + 1u;
    if (size > vend) return GA_ERR_TOO_LARGE;
    if (base == 0u || base >= vend || size > vend - base) return GA_ERR_BAD_ADDRESS;
    uint64_t md_end = rt->cfg.md_base + rt->lo->md_bytes(rt->cfg.md_capacity);
    if (base < md_end && rt->cfg.md_base < base + size) return GA_ERR_BAD_ADDRESS;
    /* A live overlap is found by malloc_common's scan too, but the live tree answers in O(log n)
     * even when the range covers many freed entries. */
    uint32_t l = ga_avl_floor(&rt->lt, base + size - 1u);
    if (l != NIL && rt->rec[l].base + rt->rec[l].size > base) return GA_ERR_OVERLAP;
    return malloc_common(rt, base, size, NIL, 0u, ptr);
}

/* --- free ------------------------------------------------------------------------------------------ */

ga_err_t ga_rt_free(ga_rt_t *rt, uint64_t ptr)
{
    if (rt == NULL) return GA_ERR_BAD_PARAM;
    if (ptr == 0u) {
        rt->ninval = 0;
        return GA_OK;
    }
    uint64_t t = ptr >> rt->vbits, a = ptr & rt->vmask;
    uint32_t id = ga_avl_floor(&rt->et, a);
    if (id == NIL) return GA_ERR_UNKNOWN_POINTER;
    ga_rec_t *r = &rt->rec[id];
    if (r->base != a) {
        if (a - r->base < r->size) return r->freed ? GA_ERR_UNKNOWN_POINTER : GA_ERR_INTERIOR_POINTER;
        return GA_ERR_UNKNOWN_POINTER;
    }
    if (r->freed) return (r->tag != 0u && r->tag == t) ? GA_ERR_DOUBLE_FREE : GA_ERR_UNKNOWN_POINTER;
    if (r->tag != t) return GA_ERR_TAG_MISMATCH;

    ga_err_t err = rt->have_alloc ? ga_alloc_reserve(&rt->alloc, 1u) : GA_OK;
    if (err == GA_OK) err = reserve_op(rt, 0u, 1u + excess_freed(rt, rt->nfreed + 1u), 0u);
    if (err != GA_OK) return err;

    /* Commit (cannot fail). */
    rt->ninval = 0;
    r = &rt->rec[id];
    ga_avl_remove(&rt->lt, id);
    r->freed = true; /* r->tag keeps the old tag for DOUBLE_FREE */
    if (rt->lo->w_freed != NULL) rt->lo->w_freed(rt->lw, rt->rec, id);
    quarantine_push(rt, r->base, r->size, r->tag);
    fifo_append(rt, id);
    mark_dirty(rt, id);
    inval_push(rt, slot_loc(rt, r->slot));
    if (rt->have_alloc) ga_alloc_give(&rt->alloc, r->base, round_up_256(r->size));
    rt->nlive--;
    rt->nfreed++;
    rt->live_bytes -= r->size;
    rt->frees++;
    reclaim(rt);
    flush_dirty(rt);
    return GA_OK;
}

/* --- queries ---------------------------------------------------------------------------------------- */

size_t ga_rt_invalidations(const ga_rt_t *rt, const uint64_t **locs)
{
    if (rt == NULL) {
        if (locs != NULL) *locs = NULL;
        return 0;
    }
    if (locs != NULL) *locs = rt->inval;
    return rt->ninval;
}

uint64_t ga_rt_root(const ga_rt_t *rt)
{
    if (rt == NULL) return 0;
    return rt->lo->w_root(rt->lw, rt->rec);
}

/* The record whose range contains va (tag bits masked off), or NIL. */
static uint32_t find_rec(const ga_rt_t *rt, uint64_t va)
{
    uint64_t a = va & rt->vmask;
    uint32_t id = ga_avl_floor(&rt->et, a);
    if (id == NIL || a - rt->rec[id].base >= rt->rec[id].size) return NIL;
    return id;
}

int ga_rt_oracle(void *ctx, uint64_t va, uint64_t *idx)
{
    const ga_rt_t *rt = ctx;
    if (rt == NULL || rt->cfg.layout != GA_LAYOUT_TABLE) return 0;
    uint32_t id = find_rec(rt, va);
    if (id == NIL) return 0;
    if (idx != NULL) *idx = rt->rec[id].slot;
    return 1;
}

bool ga_rt_find(const ga_rt_t *rt, uint64_t va, ga_entry_t *e, uint64_t *loc)
{
    if (rt == NULL) return false;
    uint32_t id = find_rec(rt, va);
    if (id == NIL) return false;
    if (e != NULL) {
        e->tb = rec_tb(rt, &rt->rec[id]);
        e->size = rt->rec[id].size;
    }
    if (loc != NULL) *loc = rec_loc(rt, id);
    return true;
}

bool ga_rt_nearest_live(const ga_rt_t *rt, uint64_t va, ga_entry_t *e, uint64_t *dist)
{
    if (rt == NULL) return false;
    uint64_t a = va & rt->vmask;
    uint32_t below = ga_avl_floor(&rt->lt, a), above = ga_avl_above(&rt->lt, a);
    uint32_t best = NIL;
    uint64_t d = 0;
    if (below != NIL) {
        const ga_rec_t *r = &rt->rec[below];
        uint64_t lastb = r->base + (r->size - 1u);
        best = below;
        d = a <= lastb ? 0u : a - lastb;
    }
    if (above != NIL) {
        uint64_t da = rt->rec[above].base - a;
        if (best == NIL || da < d) {
            best = above;
            d = da;
        }
    }
    if (best == NIL) return false;
    if (e != NULL) {
        e->tb = rec_tb(rt, &rt->rec[best]);
        e->size = rt->rec[best].size;
    }
    if (dist != NULL) *dist = d;
    return true;
}

ga_rt_stats_t ga_rt_stats(const ga_rt_t *rt)
{
    ga_rt_stats_t s;
    memset(&s, 0, sizeof s);
    if (rt == NULL) return s;
    ga_lw_stats_t ws;
    rt->lo->w_stats(rt->lw, &ws);
    uint32_t height = ws.height;
    uint64_t extra = ws.extra_bytes;
    s.index_repacks = ws.repacks;
    s.index_repack_nodes = ws.repack_nodes;
    s.freed_height = ws.freed_height;
    s.index_node_writes = ws.node_writes;
    s.live = rt->nlive;
    s.freed = rt->nfreed;
    s.nodes = rt->nlive + rt->nfreed;
    s.index_bytes = extra;
    s.metadata_bytes = s.nodes * rt->lo->slot_bytes + extra;
    s.live_bytes = rt->live_bytes;
    s.mallocs = rt->mallocs;
    s.frees = rt->frees;
    s.reclaimed = rt->reclaimed;
    s.trimmed = rt->trimmed;
    s.height = height;
    return s;
}

const ga_rt_cfg_t *ga_rt_cfg(const ga_rt_t *rt) { return rt == NULL ? NULL : &rt->cfg; }

uint64_t ga_rt_md_bytes(const ga_rt_cfg_t *cfg)
{
    return cfg == NULL ? 0u : ga_layout_md_bytes(cfg->layout, cfg->md_capacity);
}
