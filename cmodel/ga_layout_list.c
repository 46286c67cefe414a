/*
 * ga_layout_list.c — the linked-list layout (spec §2.3 "Linked list", §3.3, §7.5) [paper §4.2].
 *
 * Device format (ga_node32.h): 32-byte nodes, node `slot` at md_base + 32 * slot: the entry (tb,
 * size), then next (+16) and prev (+24), the locations of the neighbours, 0 at the ends. ROOT is the
 * head's location, 0 for an empty list. The runtime inserts at the head, so the newest entry is found
 * first; the walk follows next only, prev serves the runtime's unlink. Slots: most recently released
 * first, else the next never-used one (spec §7.5).
 */
#include "ga_node32.h"

#include <stdlib.h>
#include <string.h>

#define NIL UINT32_MAX

/* --- the walk (ga_n32_walk): step 6 follows next ----------------------------------------------------- */

static uint64_t list_next(const uint8_t *node, ga_entry_t e, uint64_t p, unsigned tag_bits)
{
    (void)e;
    (void)p;
    (void)tag_bits;
    return ga_le64(node + 16);
}

static ga_walk_result_t list_walk(const ga_walk_cfg_t *cfg, const ga_memif_t *mem, uint64_t p)
{
    return ga_n32_walk(cfg, mem, p, list_next);
}

/* --- the reference search (no code shared with the walk; see ga_refsearch.h) ---------------------- */

static uint64_t ref_le64(const uint8_t *b)
{
    uint64_t v = 0;
    for (unsigned i = 0; i < 8u; i++) v |= (uint64_t)b[i] << (8u * i);
    return v;
}

/* Follow next from root to a 0 pointer; the first node whose range contains a ends the search. */
static uint64_t list_ref_search(ga_mem_t *mem, uint64_t root, uint64_t slots, unsigned tag_bits, uint64_t p,
                                uint64_t max_nodes, ga_entry_t *e_out, bool *ok)
{
    (void)slots;
    const unsigned vbits = 64u - tag_bits;
    const uint64_t va_mask = UINT64_MAX >> tag_bits;
    const uint64_t a = p & va_mask, t = p >> vbits;
    uint8_t node[32];
    uint64_t count = 0;
    for (uint64_t n = root; n != 0u; n = ref_le64(node + 16)) {
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
    }
    *ok = true;
    return 0;
}

/* --- the runtime writer ----------------------------------------------------------------------------- */

typedef struct {
    ga_lw_env_t env;
    uint32_t cap;          /* record ids next and prev hold */
    uint32_t *next, *prev; /* per record: neighbours in device order, NIL at the ends */
    ga_n32_dirty_t d;      /* records whose next or prev changed */
    uint32_t head;
} list_w_t;

static ga_err_t lw_create(void **st, const ga_lw_env_t *env)
{
    list_w_t *w = calloc(1, sizeof *w);
    *st = w;
    if (w == NULL) return GA_ERR_NO_MEMORY;
    w->env = *env;
    w->head = NIL;
    ga_n32_dirty_init(&w->d);
    return GA_OK;
}

static void lw_destroy(void *st)
{
    list_w_t *w = st;
    if (w == NULL) return;
    free(w->next);
    free(w->prev);
    ga_n32_dirty_free(&w->d);
    free(w);
}

static ga_err_t lw_reserve(void *st, uint32_t rec_cap, uint32_t inserts)
{
    list_w_t *w = st;
    (void)inserts;
    if (rec_cap > w->cap) {
        uint32_t *a = realloc(w->next, (size_t)rec_cap * sizeof *a);
        if (a == NULL) return GA_ERR_NO_MEMORY;
        w->next = a;
        a = realloc(w->prev, (size_t)rec_cap * sizeof *a);
        if (a == NULL) return GA_ERR_NO_MEMORY;
        w->prev = a;
        w->cap = rec_cap;
    }
    return ga_n32_dirty_reserve(&w->d, rec_cap);
}

/* At the head (spec §2.3: the newest allocation is found first). */
static void lw_insert(void *st, const ga_rec_t *rec, uint32_t id)
{
    list_w_t *w = st;
    (void)rec;
    w->prev[id] = NIL;
    w->next[id] = w->head;
    if (w->head != NIL) {
        w->prev[w->head] = id;
        ga_n32_dirty_mark(&w->d, w->head);
    }
    w->head = id;
    ga_n32_dirty_mark(&w->d, id);
}

/* Unlink: the neighbours' links are rewritten, no node moves. */
static void lw_remove(void *st, const ga_rec_t *rec, uint32_t id)
{
    list_w_t *w = st;
    (void)rec;
    if (w->prev[id] != NIL) {
        w->next[w->prev[id]] = w->next[id];
        ga_n32_dirty_mark(&w->d, w->prev[id]);
    } else {
        w->head = w->next[id];
    }
    if (w->next[id] != NIL) {
        w->prev[w->next[id]] = w->prev[id];
        ga_n32_dirty_mark(&w->d, w->next[id]);
    }
}

static void lw_links(const void *st, uint32_t id, uint32_t *l0, uint32_t *l1)
{
    const list_w_t *w = st;
    *l0 = w->next[id];
    *l1 = w->prev[id];
}

/* next and prev of every changed node still in use. */
static void lw_flush(void *st, const ga_rec_t *rec)
{
    list_w_t *w = st;
    ga_n32_flush(&w->d, &w->env, rec, lw_links, w);
}

static uint64_t lw_root(const void *st, const ga_rec_t *rec)
{
    const list_w_t *w = st;
    return ga_n32_loc(&w->env, rec, w->head);
}

static void lw_stats(const void *st, ga_lw_stats_t *out)
{
    (void)st;
    memset(out, 0, sizeof *out);
}

const ga_layout_ops_t ga_layout_list_ops = {
    .code = GA_LAYOUT_LIST,
    .md_align = GA_NODE_BYTES,
    .slot_bytes = GA_NODE_BYTES,
    .lowest_slot = false,
    .zero_filled = false,
    .md_bytes = ga_n32_md_bytes,
    .slot_offset = ga_n32_slot_offset,
    .walk = list_walk,
    .ref_search = list_ref_search,
    .w_create = lw_create,
    .w_destroy = lw_destroy,
    .w_reserve = lw_reserve,
    .w_insert = lw_insert,
    .w_remove = lw_remove,
    .w_flush = lw_flush,
    .w_root = lw_root,
    .w_stats = lw_stats,
};
