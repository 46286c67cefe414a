/*
 * ga_layout_bst.c — the balanced binary-search-tree layout (spec §2.3 "Balanced binary search tree",
 * §3.3, §7.5) [paper §4.2].
 *
 * Device format (ga_node32.h): 32-byte nodes, node `slot` at md_base + 32 * slot: the entry (tb,
 * size), then left (+16) and right (+24), the children's locations, 0 if none. ROOT is the root's
 * location, 0 for an empty tree. Every entry of the left subtree ends at or before the node's base,
 * every entry of the right one starts at or after its end. The runtime keeps the tree an AVL tree
 * (ga_avl.h) whose heights stay in host memory: the node is exactly the paper's 32 bytes. A deletion
 * relinks the successor node into the deleted node's place, so no entry ever moves (spec §2.4). Slots:
 * most recently released first, else the next never-used one.
 */
#include "ga_node32.h"

#include "ga_avl.h"

#include <stdlib.h>
#include <string.h>

#define NIL GA_AVL_NIL

/* --- the walk (ga_n32_walk): step 6 follows left if a < ebase, else right ----------------------------- */

static uint64_t bst_next(const uint8_t *node, ga_entry_t e, uint64_t p, unsigned tag_bits)
{
    return ga_va_of(p, tag_bits) >= ga_va_of(e.tb, tag_bits) ? ga_le64(node + 24) : ga_le64(node + 16);
}

static ga_walk_result_t bst_walk(const ga_walk_cfg_t *cfg, const ga_memif_t *mem, uint64_t p)
{
    return ga_n32_walk(cfg, mem, p, bst_next);
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
    uint32_t cap;      /* record ids tn holds */
    ga_avl_node_t *tn; /* the device tree's nodes, by record id (key = base) */
    ga_avl_t t;
    ga_n32_dirty_t d;  /* records whose left or right changed */
} bst_w_t;

/* The AVL tree's touch hook: a changed child link is a node to rewrite. */
static void bw_touch(void *ctx, uint32_t id)
{
    bst_w_t *w = ctx;
    ga_n32_dirty_mark(&w->d, id);
}

static ga_err_t bw_create(void **st, const ga_lw_env_t *env)
{
    bst_w_t *w = calloc(1, sizeof *w);
    *st = w;
    if (w == NULL) return GA_ERR_NO_MEMORY;
    w->env = *env;
    ga_n32_dirty_init(&w->d);
    ga_avl_init(&w->t, NULL, false, bw_touch, w);
    return GA_OK;
}

static void bw_destroy(void *st)
{
    bst_w_t *w = st;
    if (w == NULL) return;
    free(w->tn);
    ga_n32_dirty_free(&w->d);
    free(w);
}

static ga_err_t bw_reserve(void *st, uint32_t rec_cap, uint32_t inserts)
{
    bst_w_t *w = st;
    (void)inserts;
    if (rec_cap > w->cap) {
        ga_avl_node_t *tn = realloc(w->tn, (size_t)rec_cap * sizeof *tn);
        if (tn == NULL) return GA_ERR_NO_MEMORY;
        w->tn = tn;
        w->t.n = tn;
        w->cap = rec_cap;
    }
    return ga_n32_dirty_reserve(&w->d, rec_cap);
}

static void bw_insert(void *st, const ga_rec_t *rec, uint32_t id)
{
    bst_w_t *w = st;
    w->tn[id].key = rec[id].base;
    w->tn[id].val = 0;
    ga_avl_insert(&w->t, id);
    ga_n32_dirty_mark(&w->d, id);
}

static void bw_remove(void *st, const ga_rec_t *rec, uint32_t id)
{
    bst_w_t *w = st;
    (void)rec;
    ga_avl_remove(&w->t, id);
}

static void bw_links(const void *st, uint32_t id, uint32_t *l0, uint32_t *l1)
{
    const bst_w_t *w = st;
    *l0 = w->tn[id].l;
    *l1 = w->tn[id].r;
}

/* left and right of every node whose links changed and that is still in use. */
static void bw_flush(void *st, const ga_rec_t *rec)
{
    bst_w_t *w = st;
    ga_n32_flush(&w->d, &w->env, rec, bw_links, w);
}

static uint64_t bw_root(const void *st, const ga_rec_t *rec)
{
    const bst_w_t *w = st;
    return ga_n32_loc(&w->env, rec, w->t.root);
}

static void bw_stats(const void *st, ga_lw_stats_t *out)
{
    const bst_w_t *w = st;
    memset(out, 0, sizeof *out);
    out->height = ga_avl_height(&w->t);
}

const ga_layout_ops_t ga_layout_bst_ops = {
    .code = GA_LAYOUT_BST,
    .md_align = GA_NODE_BYTES,
    .slot_bytes = GA_NODE_BYTES,
    .lowest_slot = false,
    .zero_filled = false,
    .md_bytes = ga_n32_md_bytes,
    .slot_offset = ga_n32_slot_offset,
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
