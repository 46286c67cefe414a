/*
 * ga_layout_bst.c — the balanced binary-search-tree layout (spec §2.3 "Balanced binary search tree",
 * §3.3, §7.5) [paper §4.2].
 *
 * Device format: 32-byte nodes, 32-byte aligned, node `slot` at md_base + 32 * slot: the entry (tb,
 * size), then left (+16) and right (+24), the children's locations, 0 if none. ROOT is the root's
 * location, 0 for an empty tree. Every entry of the left subtree ends at or before the node's base,
 * every entry of the right one starts at or after its end. The runtime keeps the tree an AVL tree
 * (ga_avl.h) whose heights stay in host memory: the node is exactly the paper's 32 bytes. A deletion
 * relinks the successor node into the deleted node's place, so no entry ever moves (spec §2.4). Slots:
 * most recently released first, else the next never-used one.
 */
#include "ga_layout.h"

#include "ga_avl.h"

#include <stdlib.h>
#include <string.h>

#define NIL GA_AVL_NIL

/* --- geometry ------------------------------------------------------------------------------------- */

static uint64_t bst_md_bytes(uint32_t capacity) { return (uint64_t)capacity * GA_NODE_BYTES; }
static uint64_t bst_slot_offset(uint32_t capacity, uint32_t slot)
{
    (void)capacity;
    return (uint64_t)slot * GA_NODE_BYTES;
}

/* --- the walk ------------------------------------------------------------------------------------- */

/*
 * n = ROOT, steps = 0, repeat (spec §3.3):
 *   1. n = 0                     -> NOT_FOUND
 *   2. n mod 32 != 0             -> FAULT, no read
 *   3. steps = step_limit        -> STEP_LIMIT, no read
 *   4. read 32 bytes at n, steps++; error response -> FAULT
 *   5. entry (bytes 0..15) range-covers a -> FOUND (n, e) or RANGE_ONLY (n, e)
 *   6. n = left (bytes 16..23) if a < ebase, else right (bytes 24..31)
 * A step_limit of 0 (illegal in the register) ends STEP_LIMIT before the first read of a non-empty,
 * aligned tree.
 */
static ga_walk_result_t bst_walk(const ga_walk_cfg_t *cfg, const ga_memif_t *mem, uint64_t p)
{
    unsigned tb = cfg->tag_bits;
    uint64_t a = ga_va_of(p, tb);
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
        n = a >= ga_va_of(e.tb, tb) ? ga_le64(buf + 24) : ga_le64(buf + 16);
    }
}

/* --- the reference search (no code shared with the walk; see ga_refsearch.h) ---------------------- */

static uint64_t ref_le64(const uint8_t *b)
{
    uint64_t v = 0;
    for (unsigned i = 0; i < 8u; i++) v |= (uint64_t)b[i] << (8u * i);
    return v;
}

/* Ordinary descent by base from root to a 0 pointer. */
static uint64_t bst_ref_search(ga_mem_t *mem, uint64_t root, uint64_t slots, unsigned tag_bits, uint64_t p,
                               uint64_t max_nodes, ga_entry_t *e_out, bool *ok)
{
    (void)slots;
    const unsigned vbits = 64u - tag_bits;
    const uint64_t va_mask = UINT64_MAX >> tag_bits;
    const uint64_t a = p & va_mask, t = p >> vbits;
    uint8_t node[32];
    uint64_t count = 0, n = root;
    while (n != 0u) {
        if (n % 32u != 0u || count == max_nodes) return 0;
        if (ga_mem_read(mem, n, node, 32) != GA_MEM_OK) return 0;
        count++;
        uint64_t tb = ref_le64(node), size = ref_le64(node + 8), ebase = tb & va_mask;
        if (a >= ebase && a - ebase < size) {
            *ok = true;
            e_out->tb = tb;
            e_out->size = size;
            uint64_t etag = tb >> vbits;
            return t == etag && t != 0u && t != (UINT64_MAX >> vbits) ? n : 0u;
        }
        n = a < ebase ? ref_le64(node + 16) : ref_le64(node + 24);
    }
    *ok = true;
    return 0;
}

/* --- the runtime writer ----------------------------------------------------------------------------- */

typedef struct {
    ga_lw_env_t env;
    uint32_t cap;
    ga_avl_node_t *tn; /* the device tree's nodes, by record id (key = base) */
    ga_avl_t t;
    uint32_t *dnext;   /* dirty chain: records whose left or right changed */
    uint8_t *dirty;
    uint32_t dhead;
} bst_w_t;

static uint64_t bw_loc(const bst_w_t *w, const ga_rec_t *rec, uint32_t id)
{
    return id == NIL ? 0u : w->env.md_base + (uint64_t)rec[id].slot * GA_NODE_BYTES;
}

static void bw_dirty(bst_w_t *w, uint32_t id)
{
    if (w->dirty[id]) return;
    w->dirty[id] = 1;
    w->dnext[id] = w->dhead;
    w->dhead = id;
}

/* The AVL tree's touch hook: a changed child link is a node to rewrite. */
static void bw_touch(void *ctx, uint32_t id) { bw_dirty(ctx, id); }

static ga_err_t bw_create(void **st, const ga_lw_env_t *env)
{
    bst_w_t *w = calloc(1, sizeof *w);
    *st = w;
    if (w == NULL) return GA_ERR_NO_MEMORY;
    w->env = *env;
    w->dhead = NIL;
    ga_avl_init(&w->t, NULL, false, bw_touch, w);
    return GA_OK;
}

static void bw_destroy(void *st)
{
    bst_w_t *w = st;
    if (w == NULL) return;
    free(w->tn);
    free(w->dnext);
    free(w->dirty);
    free(w);
}

static ga_err_t bw_reserve(void *st, uint32_t rec_cap, uint32_t inserts)
{
    bst_w_t *w = st;
    (void)inserts;
    if (rec_cap <= w->cap) return GA_OK;
    ga_avl_node_t *tn = realloc(w->tn, (size_t)rec_cap * sizeof *tn);
    if (tn == NULL) return GA_ERR_NO_MEMORY;
    w->tn = tn;
    w->t.n = tn;
    uint32_t *a = realloc(w->dnext, (size_t)rec_cap * sizeof *a);
    if (a == NULL) return GA_ERR_NO_MEMORY;
    w->dnext = a;
    uint8_t *d = realloc(w->dirty, (size_t)rec_cap);
    if (d == NULL) return GA_ERR_NO_MEMORY;
    memset(d + w->cap, 0, (size_t)(rec_cap - w->cap));
    w->dirty = d;
    w->cap = rec_cap;
    return GA_OK;
}

static void bw_insert(void *st, const ga_rec_t *rec, uint32_t id)
{
    bst_w_t *w = st;
    w->tn[id].key = rec[id].base;
    w->tn[id].val = 0;
    ga_avl_insert(&w->t, id);
    bw_dirty(w, id);
}

static void bw_remove(void *st, const ga_rec_t *rec, uint32_t id)
{
    bst_w_t *w = st;
    (void)rec;
    ga_avl_remove(&w->t, id);
}

/* left and right of every node whose links changed and that is still in use. */
static void bw_flush(void *st, const ga_rec_t *rec)
{
    bst_w_t *w = st;
    uint32_t id = w->dhead;
    w->dhead = NIL;
    while (id != NIL) {
        uint32_t nx = w->dnext[id];
        w->dirty[id] = 0;
        if (rec[id].used) {
            uint8_t buf[16];
            ga_put_le64(buf, bw_loc(w, rec, w->tn[id].l));
            ga_put_le64(buf + 8, bw_loc(w, rec, w->tn[id].r));
            (void)ga_mem_write(w->env.mem, bw_loc(w, rec, id) + 16u, buf, sizeof buf); /* mapped */
        }
        id = nx;
    }
}

static uint64_t bw_root(const void *st, const ga_rec_t *rec)
{
    const bst_w_t *w = st;
    return bw_loc(w, rec, w->t.root);
}

static void bw_stats(const void *st, uint32_t *height, uint64_t *extra_bytes)
{
    const bst_w_t *w = st;
    *height = ga_avl_height(&w->t);
    *extra_bytes = 0;
}

const ga_layout_ops_t ga_layout_bst_ops = {
    .code = GA_LAYOUT_BST,
    .md_align = GA_NODE_BYTES,
    .slot_bytes = GA_NODE_BYTES,
    .lowest_slot = false,
    .zero_filled = false,
    .md_bytes = bst_md_bytes,
    .slot_offset = bst_slot_offset,
    .walk = bst_walk,
    .ref_search = bst_ref_search,
    .w_create = bw_create,
    .w_destroy = bw_destroy,
    .w_reserve = bw_reserve,
    .w_insert = bw_insert,
    .w_remove = bw_remove,
    .w_flush = bw_flush,
    .w_root = bw_root,
    .w_stats = bw_stats,
};
