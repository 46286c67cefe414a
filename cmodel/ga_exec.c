/*
 * ga_exec.c — the compiler-mode dispatch and the kernel's metadata registers (see ga_exec.h).
 *
 * The registers are an open-addressing table whose entries carry the generation (kernel) they belong
 * to, so a kernel start empties it by moving to the next generation.
 */
#include "ga_exec.h"

#include <stdlib.h>
#include <string.h>

void ga_exec_init(ga_exec_t *x, ga_mode_t mode, const ga_exec_ops_t *ops, void *ctx)
{
    memset(x, 0, sizeof *x);
    x->mode = mode;
    x->ops = ops;
    x->ctx = ctx;
    x->gen = 1;
}

void ga_exec_fini(ga_exec_t *x)
{
    free(x->reg);
    memset(x, 0, sizeof *x);
}

void ga_exec_kernel(ga_exec_t *x)
{
    x->gen++;
    x->count = 0;
    if (x->gen == 0) { /* wrapped after 2^32 kernels: clear for real */
        if (x->reg) memset(x->reg, 0, x->cap * sizeof *x->reg);
        x->gen = 1;
    }
}

static size_t reg_hash(uint16_t sm, uint16_t warp, uint64_t root)
{
    return (size_t)ga_mix64(root ^ ((uint64_t)sm << 48) ^ ((uint64_t)warp << 32) ^ UINT64_C(0x9e3779b97f4a7c15));
}

/* The current kernel's register for the key, or NULL. */
static ga_exec_reg_t *reg_find(ga_exec_t *x, uint16_t sm, uint16_t warp, uint64_t root)
{
    if (x->cap == 0) return NULL;
    for (size_t h = reg_hash(sm, warp, root) & (x->cap - 1u);; h = (h + 1u) & (x->cap - 1u)) {
        ga_exec_reg_t *e = &x->reg[h];
        if (e->gen != x->gen) return NULL;
        if (e->root == root && e->sm == sm && e->warp == warp) return e;
    }
}

/* Set the register for the key (present or not). false when out of memory. */
static bool reg_set(ga_exec_t *x, uint16_t sm, uint16_t warp, uint64_t root, uint64_t md, bool cut)
{
    ga_exec_reg_t *hit = reg_find(x, sm, warp, root);
    if (hit) {
        hit->md = md;
        hit->cut = cut;
        return true;
    }
    if ((x->count + 1u) * 2u > x->cap) {
        size_t nc = x->cap ? 2u * x->cap : 1024u;
        ga_exec_reg_t *nt = calloc(nc, sizeof *nt);
        if (nt == NULL) return false;
        for (size_t i = 0; i < x->cap; i++) {
            const ga_exec_reg_t *e = &x->reg[i];
            if (e->gen != x->gen) continue;
            size_t h = reg_hash(e->sm, e->warp, e->root) & (nc - 1u);
            while (nt[h].gen == x->gen) h = (h + 1u) & (nc - 1u);
            nt[h] = *e;
        }
        free(x->reg);
        x->reg = nt;
        x->cap = nc;
    }
    size_t h = reg_hash(sm, warp, root) & (x->cap - 1u);
    while (x->reg[h].gen == x->gen) h = (h + 1u) & (x->cap - 1u);
    x->reg[h] = (ga_exec_reg_t){root, md, x->gen, sm, warp, cut};
    x->count++;
    return true;
}

/* Run a LOADMETA and set its register. */
static int run_loadmeta(ga_exec_t *x, unsigned sm, uint16_t warp, uint64_t root, uint64_t *md, bool *cut)
{
    int rc = x->ops->loadmeta(x->ctx, sm, warp, root, md, cut);
    if (rc != 0) return rc;
    return reg_set(x, (uint16_t)sm, warp, root, *md, *cut) ? 0 : GA_EXEC_NO_MEMORY;
}

/* The register's location for root (and whether its walk was cut short), running LOADMETA first when
 * it has none. */
static int reg_md(ga_exec_t *x, unsigned sm, uint16_t warp, uint64_t root, uint64_t *md, bool *cut)
{
    const ga_exec_reg_t *hit = reg_find(x, (uint16_t)sm, warp, root);
    if (hit) {
        *md = hit->md;
        *cut = hit->cut;
        return 0;
    }
    return run_loadmeta(x, sm, warp, root, md, cut);
}

int ga_exec_loadmeta(ga_exec_t *x, unsigned sm, uint16_t warp, uint64_t root, uint64_t *md, bool *cut)
{
    uint64_t m = 0;
    bool c = false;
    if (x->mode == GA_MODE_HWONLY) return GA_EXEC_SKIPPED;
    int rc = run_loadmeta(x, sm, warp, root, &m, &c);
    if (md) *md = m;
    if (cut) *cut = c;
    return rc;
}

int ga_exec_global(ga_exec_t *x, unsigned sm, const ga_warp_req_t *q, ga_exec_root_t kind, uint64_t root)
{
    if (x->mode == GA_MODE_HWONLY || kind == GA_EXEC_ROOT_NONE) return x->ops->access(x->ctx, sm, q);
    if (kind == GA_EXEC_ROOT_PTR) {
        uint64_t md;
        bool cut;
        int rc = reg_md(x, sm, q->warp, root, &md, &cut);
        if (rc != 0) return rc;
        return x->ops->memcheck_g(x->ctx, sm, q, md, cut ? q->active : 0u);
    }
    /* one root per lane: every active lane's location, then one MEMCHECK.G per distinct location */
    uint64_t md[GA_LANES_MAX];
    uint32_t cut_mask = 0;
    unsigned lanes = q->lanes > GA_LANES_MAX ? GA_LANES_MAX : q->lanes;
    uint32_t active = lanes >= 32u ? q->active : q->active & ((UINT32_C(1) << lanes) - 1u);
    for (unsigned l = 0; l < lanes; l++) {
        if (!(active >> l & 1u)) continue;
        bool cut;
        int rc = reg_md(x, sm, q->warp, q->addr[l], &md[l], &cut);
        if (rc != 0) return rc;
        if (cut) cut_mask |= UINT32_C(1) << l;
    }
    uint32_t left = active;
    while (left) {
        unsigned k = 0;
        while (!(left >> k & 1u)) k++;
        uint32_t group = 0;
        for (unsigned l = k; l < lanes; l++)
            if ((left >> l & 1u) && md[l] == md[k]) group |= UINT32_C(1) << l;
        left &= ~group;
        ga_warp_req_t g = *q;
        g.active = group;
        int rc = x->ops->memcheck_g(x->ctx, sm, &g, md[k], cut_mask & group);
        if (rc != 0) return rc;
    }
    return 0;
}

int ga_exec_shared(ga_exec_t *x, unsigned sm, const ga_warp_req_t *q, uint32_t base, uint32_t ssize)
{
    if (x->mode == GA_MODE_HWONLY) return GA_EXEC_SKIPPED;
    return x->ops->memcheck_s(x->ctx, sm, q, base, ssize);
}
