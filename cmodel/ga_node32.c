/*
 * ga_node32.c — the 32-byte-node layouts' shared geometry and changed-link chain (ga_node32.h).
 */
#include "ga_node32.h"

#include <stdlib.h>
#include <string.h>

#define NIL UINT32_MAX

uint64_t ga_n32_md_bytes(uint32_t capacity) { return (uint64_t)capacity * GA_NODE_BYTES; }

uint64_t ga_n32_slot_offset(uint32_t capacity, uint32_t slot)
{
    (void)capacity;
    return (uint64_t)slot * GA_NODE_BYTES;
}

void ga_n32_dirty_init(ga_n32_dirty_t *d)
{
    memset(d, 0, sizeof *d);
    d->dhead = NIL;
}

void ga_n32_dirty_free(ga_n32_dirty_t *d)
{
    free(d->dnext);
    free(d->dirty);
    ga_n32_dirty_init(d);
}

ga_err_t ga_n32_dirty_reserve(ga_n32_dirty_t *d, uint32_t rec_cap)
{
    if (rec_cap <= d->cap) return GA_OK;
    uint32_t *a = realloc(d->dnext, (size_t)rec_cap * sizeof *a);
    if (a == NULL) return GA_ERR_NO_MEMORY;
    d->dnext = a;
    uint8_t *f = realloc(d->dirty, (size_t)rec_cap);
    if (f == NULL) return GA_ERR_NO_MEMORY;
    memset(f + d->cap, 0, (size_t)(rec_cap - d->cap));
    d->dirty = f;
    d->cap = rec_cap;
    return GA_OK;
}

void ga_n32_dirty_mark(ga_n32_dirty_t *d, uint32_t id)
{
    if (d->dirty[id]) return;
    d->dirty[id] = 1;
    d->dnext[id] = d->dhead;
    d->dhead = id;
}

uint64_t ga_n32_loc(const ga_lw_env_t *env, const ga_rec_t *rec, uint32_t id)
{
    return id == NIL ? 0u : env->md_base + (uint64_t)rec[id].slot * GA_NODE_BYTES;
}

void ga_n32_flush(ga_n32_dirty_t *d, const ga_lw_env_t *env, const ga_rec_t *rec, ga_n32_links_fn links,
                  const void *st)
{
    uint32_t id = d->dhead;
    d->dhead = NIL;
    while (id != NIL) {
        uint32_t nx = d->dnext[id];
        d->dirty[id] = 0;
        if (rec[id].used) {
            uint32_t l0, l1;
            uint8_t buf[16];
            links(st, id, &l0, &l1);
            ga_put_le64(buf, ga_n32_loc(env, rec, l0));
            ga_put_le64(buf + 8, ga_n32_loc(env, rec, l1));
            (void)ga_mem_write(env->mem, ga_n32_loc(env, rec, id) + 16u, buf, sizeof buf); /* mapped */
        }
        id = nx;
    }
}
