/*
 * ga_perf.c — a workload stream through the model (see ga_perf.h).
 */
#include "ga_perf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void ga_perf_default_cfg(ga_perf_cfg_t *c)
{
    memset(c, 0, sizeof *c);
    c->mode = GA_MODE_COMPILER;
    c->layout = GA_LAYOUT_BST;
    c->mlb = 8;
    c->tag_bits = 7;
    c->sms = 8;
    c->seed = 1;
    c->scale = 1e-3;
    c->backend = "model";
    c->mlb_cycles = 1;
    c->l1_cycles = 28;
    c->check_cycles = 3;
}

/* The kernel's metadata registers: (sm, warp, root value) -> location, open addressing, cleared at
 * every kernel (registers do not survive a kernel). */
typedef struct {
    uint64_t key_root;
    uint32_t key_sw; /* sm << 16 | warp, +1 so that 0 marks an empty slot */
    uint64_t md;
} reg_t;

typedef struct {
    reg_t *t;
    size_t cap, n; /* cap a power of two */
} regs_t;

static size_t reg_hash(uint32_t sw, uint64_t root, size_t cap)
{
    uint64_t h = (root ^ ((uint64_t)sw << 40)) * UINT64_C(0x9E3779B97F4A7C15);
    return (size_t)(h >> 17) & (cap - 1u);
}

static reg_t *reg_find(regs_t *r, uint32_t sw, uint64_t root)
{
    for (size_t i = reg_hash(sw, root, r->cap);; i = (i + 1u) & (r->cap - 1u)) {
        reg_t *e = &r->t[i];
        if (e->key_sw == 0u || (e->key_sw == sw && e->key_root == root)) return e;
    }
}

static int reg_put(regs_t *r, uint32_t sw, uint64_t root, uint64_t md)
{
    if ((r->n + 1u) * 2u > r->cap) {
        regs_t nr = {calloc(r->cap * 2u, sizeof *nr.t), r->cap * 2u, 0};
        if (nr.t == NULL) return -1;
        for (size_t i = 0; i < r->cap; i++)
            if (r->t[i].key_sw != 0u) {
                *reg_find(&nr, r->t[i].key_sw, r->t[i].key_root) = r->t[i];
                nr.n++;
            }
        free(r->t);
        *r = nr;
    }
    reg_t *e = reg_find(r, sw, root);
    if (e->key_sw == 0u) r->n++;
    e->key_sw = sw;
    e->key_root = root;
    e->md = md;
    return 0;
}

static void reg_clear(regs_t *r)
{
    memset(r->t, 0, r->cap * sizeof *r->t);
    r->n = 0;
}

typedef struct {
    const ga_perf_cfg_t *c;
    ga_system_t sys;
    ga_eval_backend_t be;
    uint64_t *ptr; /* by allocation id */
    regs_t regs;
    uint64_t faults, md_peak;
    char *msg;
    size_t cap;
} perf_t;

static int fail(perf_t *p, const char *what, ga_err_t err)
{
    snprintf(p->msg, p->cap, "%s: %s", what, ga_strerror(err));
    return -1;
}

/* LOADMETA through the backend; "no MLB" flushes first so the lookup can never hit. */
static int do_loadmeta(perf_t *p, unsigned sm, uint16_t warp, uint64_t root, uint64_t *md)
{
    if (p->c->mlb == 0u) p->be.flush(p->be.ctx, sm);
    ga_err_t err = p->be.loadmeta(p->be.ctx, sm, root, md);
    if (err != GA_OK) return fail(p, "LOADMETA", err);
    if (reg_put(&p->regs, ((uint32_t)sm << 16 | warp) + 1u, root, *md) != 0) return fail(p, "registers", GA_ERR_NO_MEMORY);
    return 0;
}

static int sink(void *ctx, const ga_wev_t *ev)
{
    perf_t *p = ctx;
    const ga_perf_cfg_t *c = p->c;
    unsigned sm = ev->sm % p->sys.cfg.sms;
    ga_err_t err;
    ga_warp_req_t q;
    ga_warp_rsp_t rsp;
    switch (ev->kind) {
    case GA_WEV_ALLOC:
        if ((err = ga_eval_malloc(&p->sys, &p->be, ev->bytes, &p->ptr[ev->id])) != GA_OK) return fail(p, "malloc", err);
        {
            uint64_t b = ga_rt_stats(p->sys.rt).metadata_bytes;
            if (b > p->md_peak) p->md_peak = b;
        }
        return 0;
    case GA_WEV_FREE:
        if ((err = ga_eval_free(&p->sys, &p->be, p->ptr[ev->id])) != GA_OK) return fail(p, "free", err);
        return 0;
    case GA_WEV_KERNEL:
        reg_clear(&p->regs);
        return 0;
    case GA_WEV_END:
        return 0;
    case GA_WEV_LOADMETA: {
        if (c->mode != GA_MODE_COMPILER) return 0; /* vanilla binaries have none */
        uint64_t md;
        return do_loadmeta(p, sm, ev->warp, p->ptr[ev->id] + ev->root_off, &md);
    }
    case GA_WEV_GLOBAL:
        memset(&q, 0, sizeof q);
        q.lanes = 32;
        q.active = ev->mask;
        q.warp = ev->warp;
        q.size = ev->size;
        for (unsigned l = 0; l < 32u; l++) q.addr[l] = p->ptr[ev->id] + ev->off + (uint64_t)l * ev->size;
        if (c->mode == GA_MODE_HWONLY) {
            if (c->mlb == 0u) p->be.flush(p->be.ctx, sm);
            err = p->be.access(p->be.ctx, sm, &q, &rsp);
            if (err != GA_OK) return fail(p, "access", err);
        } else {
            uint64_t md;
            if (ev->root == GA_WL_ROOT_ADDRESS) {
                if (do_loadmeta(p, sm, ev->warp, q.addr[0], &md) != 0) return -1;
            } else {
                uint64_t root = p->ptr[ev->id] + ev->root_off;
                reg_t *r = reg_find(&p->regs, ((uint32_t)sm << 16 | ev->warp) + 1u, root);
                if (r->key_sw != 0u)
                    md = r->md;
                else if (do_loadmeta(p, sm, ev->warp, root, &md) != 0)
                    return -1;
            }
            if (c->mlb == 0u) p->be.flush(p->be.ctx, sm);
            err = p->be.memcheck_g(p->be.ctx, sm, &q, md, &rsp);
            if (err != GA_OK) return fail(p, "MEMCHECK.G", err);
        }
        p->faults += rsp.fault != 0u;
        return 0;
    case GA_WEV_SHARED:
        if (c->mode != GA_MODE_COMPILER) return 0; /* HWOnly has no MEMCHECK.S (paper §6.2) */
        memset(&q, 0, sizeof q);
        q.lanes = 32;
        q.active = ev->mask;
        q.warp = ev->warp;
        q.size = ev->size;
        for (unsigned l = 0; l < 32u; l++) q.addr[l] = ev->saddr + l * ev->size;
        err = p->be.memcheck_s(p->be.ctx, sm, &q, ev->sbase, ev->ssize, &rsp);
        if (err != GA_OK) return fail(p, "MEMCHECK.S", err);
        p->faults += rsp.fault != 0u;
        return 0;
    default:
        snprintf(p->msg, p->cap, "unknown event kind %d", (int)ev->kind);
        return -1;
    }
}

int ga_perf_run(const ga_wl_spec_t *spec, const ga_perf_cfg_t *c, ga_perf_res_t *res, char *msg, size_t cap)
{
    memset(res, 0, sizeof *res);
    if (cap > 0u) msg[0] = '\0';
    perf_t p;
    memset(&p, 0, sizeof p);
    p.c = c;
    p.msg = msg;
    p.cap = cap;
    if (c->mlb > GA_MLB_MAX || c->sms < 1u || c->sms > GA_SYSTEM_MAX_SMS) {
        snprintf(msg, cap, "bad configuration (mlb %u, sms %u)", c->mlb, c->sms);
        return -1;
    }
    ga_system_cfg_t sc;
    ga_system_default_cfg(&sc, c->layout, c->tag_bits, c->seed * UINT64_C(0x2545F4914F6CDD1D) + 17u);
    sc.sms = c->sms;
    sc.mlb_entries = c->mlb == 0u ? 8u : c->mlb;
    sc.mode = c->mode;
    sc.rt.md_capacity = spec->allocs + 64u; /* every allocation's node, and room for trimmed pieces */
    ga_err_t err = ga_system_init(&p.sys, &sc);
    if (err != GA_OK) return fail(&p, "system", err);
    if (ga_eval_backend_open(c->backend, &p.sys, &p.be, msg, cap) != 0) {
        ga_system_fini(&p.sys);
        return -1;
    }
    p.ptr = calloc(spec->allocs, sizeof *p.ptr);
    p.regs.cap = 1024;
    p.regs.t = calloc(p.regs.cap, sizeof *p.regs.t);
    int rc = -1;
    if (p.ptr == NULL || p.regs.t == NULL) {
        fail(&p, "host", GA_ERR_NO_MEMORY);
        goto out;
    }
    ga_wl_opts_t o = {c->scale, c->seed, c->sms};
    rc = ga_wl_generate(spec, &o, sink, &p, &res->wl);
    if (rc > 0) rc = -1; /* the sink's failure, message set */
    if (rc < 0 && msg[0] == '\0') snprintf(msg, cap, "workload %s: bad specification or options", spec->name);
    if (rc == 0 && p.be.check(p.be.ctx, msg, cap) != 0) rc = -1;
    if (rc == 0) {
        ga_mlu_stats_t st = ga_system_stats(&p.sys);
        res->loadmeta = st.loadmeta;
        res->loadmeta_hits = st.loadmeta_hits;
        res->walk_reads = st.walk_steps;
        res->memcheck_g = st.memcheck_g;
        res->memcheck_s = st.memcheck_s;
        res->accesses = st.access;
        res->fetches = st.fetches;
        res->fetch_hits = st.fetch_hits;
        res->fetch_reads = st.md_reads - st.walk_steps;
        res->faults = p.faults;
        res->md_bytes_peak = p.md_peak;
        uint32_t mlbc = c->mlb == 0u ? 0u : c->mlb_cycles;
        uint64_t looked = st.loadmeta - st.loadmeta_unchecked;
        double lm_cyc = (double)looked * mlbc + (double)st.walk_steps * c->l1_cycles;
        double mc_cyc = (double)st.memcheck_g * c->check_cycles + (double)res->fetches * mlbc +
                        (double)res->fetch_reads * c->l1_cycles;
        res->reads_per_loadmeta = st.loadmeta ? (double)st.walk_steps / (double)st.loadmeta : 0.0;
        res->lat_loadmeta = st.loadmeta ? lm_cyc / (double)st.loadmeta : 0.0;
        res->lat_memcheck = st.memcheck_g ? mc_cyc / (double)st.memcheck_g : 0.0;
        res->md_cycles_per_kinstr = res->wl.instr ? (lm_cyc + mc_cyc) * 1000.0 / (double)res->wl.instr : 0.0;
    }
out:
    free(p.ptr);
    free(p.regs.t);
    ga_eval_backend_close(&p.be);
    ga_system_fini(&p.sys);
    return rc;
}
