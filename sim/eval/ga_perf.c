/*
 * ga_perf.c — a workload stream through the model (see ga_perf.h).
 */
#include "ga_perf.h"

#include "ga_exec.h"

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

typedef struct {
    const ga_perf_cfg_t *c;
    ga_system_t sys;
    ga_backend_t be;
    ga_exec_t ex;  /* the compiler-mode dispatch and the kernel's metadata registers */
    uint64_t *ptr; /* by allocation id */
    uint64_t faults, md_peak;
    char *msg;
    size_t cap;
} perf_t;

static int fail(perf_t *p, const char *what, ga_err_t err)
{
    snprintf(p->msg, p->cap, "%s: %s", what, ga_strerror(err));
    return -1;
}

/* The dispatch's operations (ga_exec_ops_t) on the backend; "no MLB" flushes first so that no lookup
 * can ever hit. */
static int op_loadmeta(void *ctx, unsigned sm, uint16_t warp, uint64_t root, uint64_t *md, bool *cut)
{
    perf_t *p = ctx;
    (void)warp;
    *cut = false;
    if (p->c->mlb == 0u) p->be.flush(p->be.ctx, sm);
    ga_err_t err = p->be.loadmeta(p->be.ctx, sm, root, md);
    return err != GA_OK ? fail(p, "LOADMETA", err) : 0;
}

static int op_memcheck_g(void *ctx, unsigned sm, const ga_warp_req_t *q, uint64_t md, uint32_t cut_mask)
{
    perf_t *p = ctx;
    ga_warp_rsp_t rsp;
    (void)cut_mask;
    if (p->c->mlb == 0u) p->be.flush(p->be.ctx, sm);
    ga_err_t err = p->be.memcheck_g(p->be.ctx, sm, q, md, &rsp);
    if (err != GA_OK) return fail(p, "MEMCHECK.G", err);
    p->faults += rsp.fault != 0u;
    return 0;
}

static int op_memcheck_s(void *ctx, unsigned sm, const ga_warp_req_t *q, uint32_t base, uint32_t ssize)
{
    perf_t *p = ctx;
    ga_warp_rsp_t rsp;
    ga_err_t err = p->be.memcheck_s(p->be.ctx, sm, q, base, ssize, &rsp);
    if (err != GA_OK) return fail(p, "MEMCHECK.S", err);
    p->faults += rsp.fault != 0u;
    return 0;
}

static int op_access(void *ctx, unsigned sm, const ga_warp_req_t *q)
{
    perf_t *p = ctx;
    ga_warp_rsp_t rsp;
    if (p->c->mlb == 0u) p->be.flush(p->be.ctx, sm);
    ga_err_t err = p->be.access(p->be.ctx, sm, q, &rsp);
    if (err != GA_OK) return fail(p, "access", err);
    p->faults += rsp.fault != 0u;
    return 0;
}

static const ga_exec_ops_t perf_ops = {op_loadmeta, op_memcheck_g, op_memcheck_s, op_access};

/* A dispatch result: 0 or GA_EXEC_SKIPPED are success; an operation's -1 has set the message. */
static int exec_rc(perf_t *p, int rc)
{
    if (rc == GA_EXEC_NO_MEMORY) return fail(p, "registers", GA_ERR_NO_MEMORY);
    return rc < 0 ? -1 : 0;
}

static int sink(void *ctx, const ga_wev_t *ev)
{
    perf_t *p = ctx;
    unsigned sm = ev->sm % p->sys.cfg.sms;
    ga_err_t err;
    ga_warp_req_t q;
    switch (ev->kind) {
    case GA_WEV_ALLOC:
        if ((err = ga_backend_malloc(&p->sys, &p->be, ev->bytes, &p->ptr[ev->id])) != GA_OK)
            return fail(p, "malloc", err);
        {
            uint64_t b = ga_rt_stats(p->sys.rt).metadata_bytes;
            if (b > p->md_peak) p->md_peak = b;
        }
        return 0;
    case GA_WEV_FREE:
        if ((err = ga_backend_free(&p->sys, &p->be, p->ptr[ev->id])) != GA_OK) return fail(p, "free", err);
        return 0;
    case GA_WEV_KERNEL:
        ga_exec_kernel(&p->ex);
        return 0;
    case GA_WEV_END:
        return 0;
    case GA_WEV_LOADMETA: /* HWOnly binaries have none (skipped) */
        return exec_rc(p, ga_exec_loadmeta(&p->ex, sm, ev->warp, p->ptr[ev->id] + ev->root_off, NULL, NULL));
    case GA_WEV_GLOBAL:
        memset(&q, 0, sizeof q);
        q.lanes = 32;
        q.active = ev->mask;
        q.warp = ev->warp;
        q.size = ev->size;
        for (unsigned l = 0; l < 32u; l++) q.addr[l] = p->ptr[ev->id] + ev->off + (uint64_t)l * ev->size;
        if (ev->root == GA_WL_ROOT_ADDRESS) {
            /* the access's own address is the root: a LOADMETA of lane 0's address before every check */
            int rc = ga_exec_loadmeta(&p->ex, sm, ev->warp, q.addr[0], NULL, NULL);
            if (rc < 0) return exec_rc(p, rc);
            return exec_rc(p, ga_exec_global(&p->ex, sm, &q, GA_EXEC_ROOT_PTR, q.addr[0]));
        }
        return exec_rc(p, ga_exec_global(&p->ex, sm, &q, GA_EXEC_ROOT_PTR, p->ptr[ev->id] + ev->root_off));
    case GA_WEV_SHARED: /* HWOnly has no MEMCHECK.S (paper §6.2): skipped */
        memset(&q, 0, sizeof q);
        q.lanes = 32;
        q.active = ev->mask;
        q.warp = ev->warp;
        q.size = ev->size;
        for (unsigned l = 0; l < 32u; l++) q.addr[l] = ev->saddr + l * ev->size;
        return exec_rc(p, ga_exec_shared(&p->ex, sm, &q, ev->sbase, ev->ssize));
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
    if (ga_backend_open(c->backends, c->backend, &p.sys, NULL, &p.be, msg, cap) != GA_BACKEND_OK) {
        ga_system_fini(&p.sys);
        return -1;
    }
    ga_exec_init(&p.ex, c->mode, &perf_ops, &p);
    p.ptr = calloc(spec->allocs, sizeof *p.ptr);
    int rc = -1;
    if (p.ptr == NULL) {
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
    ga_exec_fini(&p.ex);
    ga_backend_close(&p.be);
    ga_system_fini(&p.sys);
    return rc;
}
