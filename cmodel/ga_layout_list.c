/*
 * ga_layout_list.c — the linked-list layout (spec §2.3 "Linked list", §3.3, §7.5) [paper §4.2].
 *
 * Device format: 32-byte nodes, 32-byte aligned, node `slot` at md_base + 32 * slot: the entry (tb,
 * size), then next (+16) and prev (+24), the locations of the neighbours, 0 at the ends. ROOT is the
 * head's location, 0 for an empty list. The runtime inserts at the head, so the newest entry is found
 * first; the walk follows next only, prev serves the runtime's unlink. Slots: most recently released
 * first, else the next never-used one (spec §7.5).
 */
#include "ga_layout.h"

#include <stdlib.h>
#include <string.h>

#define NIL UINT32_MAX

/* --- geometry ------------------------------------------------------------------------------------- */

static uint64_t list_md_bytes(uint32_t capacity) { return (uint64_t)capacity * GA_NODE_BYTES; }
static uint64_t list_slot_offset(uint32_t capacity, uint32_t slot)
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
 *   6. n = next (bytes 16..23)
 * So a node found by the step_limit-th read is FOUND, and a 0 pointer met after step_limit reads ends
 * NOT_FOUND (check 1 precedes check 3). A step_limit of 0 (illegal in the register) ends STEP_LIMIT
 * before the first read of a non-empty, aligned list.
 */
static ga_walk_result_t list_walk(const ga_walk_cfg_t *cfg, const ga_memif_t *mem, uint64_t p)
{
    unsigned tb = cfg->tag_bits;
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
        n = ga_le64(buf + 16);
    }
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
    uint32_t cap;        /* record ids the arrays hold */
    uint32_t *next, *prev; /* per record: neighbours in device order, NIL at the ends */
    uint32_t *dnext;     /* dirty chain through record ids */
    uint8_t *dirty;
    uint32_t head, dhead;
} list_w_t;

static uint64_t lw_loc(const list_w_t *w, const ga_rec_t *rec, uint32_t id)
{
    return id == NIL ? 0u : w->env.md_base + (uint64_t)rec[id].slot * GA_NODE_BYTES;
}

static void lw_dirty(list_w_t *w, uint32_t id)
{
    if (w->dirty[id]) return;
    w->dirty[id] = 1;
    w->dnext[id] = w->dhead;
    w->dhead = id;
}

static ga_err_t lw_create(void **st, const ga_lw_env_t *env)
{
    list_w_t *w = calloc(1, sizeof *w);
    *st = w;
    if (w == NULL) return GA_ERR_NO_MEMORY;
    w->env = *env;
    w->head = w->dhead = NIL;
    return GA_OK;
}

static void lw_destroy(void *st)
{
    list_w_t *w = st;
    if (w == NULL) return;
    free(w->next);
    free(w->prev);
    free(w->dnext);
    free(w->dirty);
    free(w);
}

static ga_err_t lw_reserve(void *st, uint32_t rec_cap, uint32_t inserts)
{
    list_w_t *w = st;
    (void)inserts;
    if (rec_cap <= w->cap) return GA_OK;
    uint32_t *a = realloc(w->next, (size_t)rec_cap * sizeof *a);
    if (a == NULL) return GA_ERR_NO_MEMORY;
    w->next = a;
    a = realloc(w->prev, (size_t)rec_cap * sizeof *a);
    if (a == NULL) return GA_ERR_NO_MEMORY;
    w->prev = a;
    a = realloc(w->dnext, (size_t)rec_cap * sizeof *a);
    if (a == NULL) return GA_ERR_NO_MEMORY;
    w->dnext = a;
    uint8_t *d = realloc(w->dirty, (size_t)rec_cap);
    if (d == NULL) return GA_ERR_NO_MEMORY;
    memset(d + w->cap, 0, (size_t)(rec_cap - w->cap));
    w->dirty = d;
    w->cap = rec_cap;
    return GA_OK;
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
        lw_dirty(w, w->head);
    }
    w->head = id;
    lw_dirty(w, id);
}

/* Unlink: the neighbours' links are rewritten, no node moves. */
static void lw_remove(void *st, const ga_rec_t *rec, uint32_t id)
{
    list_w_t *w = st;
    (void)rec;
    if (w->prev[id] != NIL) {
        w->next[w->prev[id]] = w->next[id];
        lw_dirty(w, w->prev[id]);
    } else {
        w->head = w->next[id];
    }
    if (w->next[id] != NIL) {
        w->prev[w->next[id]] = w->prev[id];
        lw_dirty(w, w->next[id]);
    }
}

/* next and prev of every changed node still in use (a removed node's slot was zeroed). */
static void lw_flush(void *st, const ga_rec_t *rec)
{
    list_w_t *w = st;
    uint32_t id = w->dhead;
    w->dhead = NIL;
    while (id != NIL) {
        uint32_t nx = w->dnext[id];
        w->dirty[id] = 0;
        if (rec[id].used) {
            uint8_t buf[16];
            ga_put_le64(buf, lw_loc(w, rec, w->next[id]));
            ga_put_le64(buf + 8, lw_loc(w, rec, w->prev[id]));
            (void)ga_mem_write(w->env.mem, lw_loc(w, rec, id) + 16u, buf, sizeof buf); /* mapped */
        }
        id = nx;
    }
}

static uint64_t lw_root(const void *st, const ga_rec_t *rec)
{
    const list_w_t *w = st;
    return lw_loc(w, rec, w->head);
}

static void lw_stats(const void *st, uint32_t *height, uint64_t *extra_bytes)
{
    (void)st;
    *height = 0;
    *extra_bytes = 0;
}

const ga_layout_ops_t ga_layout_list_ops = {
    .code = GA_LAYOUT_LIST,
    .md_align = GA_NODE_BYTES,
    .slot_bytes = GA_NODE_BYTES,
    .lowest_slot = false,
    .zero_filled = false,
    .md_bytes = list_md_bytes,
    .slot_offset = list_slot_offset,
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
