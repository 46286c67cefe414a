/*
 * ga_sweep.c — a captured trace replayed with one layout and MLB size, with "no MLB" and the
 * allocation working set added around the trace library's replay (see ga_sweep.h).
 */
#include "ga_sweep.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The distinct allocations (metadata locations) one warp touched in the current kernel. */
typedef struct {
    bool used;
    uint32_t key; /* trace SM << 16 | warp */
    uint32_t n, cap;
    uint64_t *loc;
} ws_ent_t;

/* The wrapping backend's state: the model backend it forwards to, and the working-set table. */
typedef struct {
    ga_backend_t inner;
    ga_system_t *sys;
    bool none;       /* no MLB: flush before every lookup */
    ws_ent_t *t;     /* open addressing, cap a power of two */
    size_t cap, used;
    uint32_t ws_max;
    bool oom;
} wrap_t;

/* The sweep's own context, handed to the backend's open. */
typedef struct {
    bool none;
    wrap_t *w; /* set by w_open; owned by the replay (freed by its destroy) */
} sweep_ctx_t;

void ga_sweep_default_cfg(ga_sweep_cfg_t *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->mode = GA_MODE_COMPILER;
    cfg->layout = GA_LAYOUT_BST;
    cfg->mlb = 8;
    cfg->seed = 1;
}

static void ws_clear(wrap_t *w)
{
    for (size_t i = 0; i < w->cap; i++) free(w->t[i].loc);
    memset(w->t, 0, w->cap * sizeof *w->t);
    w->used = 0;
}

static ws_ent_t *ws_slot(ws_ent_t *t, size_t cap, uint32_t key)
{
    size_t i = (size_t)(key * UINT32_C(2654435761)) & (cap - 1u); /* Knuth's multiplicative hash */
    while (t[i].used && t[i].key != key) i = (i + 1u) & (cap - 1u);
    return &t[i];
}

/* The entry of warp `key`, created when missing (the table doubles at half load). NULL: out of memory. */
static ws_ent_t *ws_get(wrap_t *w, uint32_t key)
{
    if (2u * (w->used + 1u) > w->cap) {
        size_t nc = w->cap * 2u;
        ws_ent_t *nt = calloc(nc, sizeof *nt);
        if (nt == NULL) return NULL;
        for (size_t i = 0; i < w->cap; i++)
            if (w->t[i].used) *ws_slot(nt, nc, w->t[i].key) = w->t[i];
        free(w->t);
        w->t = nt;
        w->cap = nc;
    }
    ws_ent_t *e = ws_slot(w->t, w->cap, key);
    if (!e->used) {
        e->used = true;
        e->key = key;
        w->used++;
    }
    return e;
}

/* Count the allocations that request q's active lanes fall in, for warp q->warp on model SM sm (the
 * trace's SM: the replay uses as many model SMs as the header declares). */
static void ws_note(wrap_t *w, unsigned sm, const ga_warp_req_t *q)
{
    ws_ent_t *e = ws_get(w, (uint32_t)sm << 16 | q->warp);
    if (e == NULL) {
        w->oom = true;
        return;
    }
    for (unsigned l = 0; l < q->lanes; l++) {
        if (!((q->active >> l) & 1u)) continue;
        uint64_t loc;
        if (!ga_rt_find(w->sys->rt, q->addr[l], NULL, &loc)) continue;
        uint32_t k = 0;
        while (k < e->n && e->loc[k] != loc) k++;
        if (k < e->n) continue;
        if (e->n == e->cap) {
            uint32_t nc = e->cap ? 2u * e->cap : 8u;
            uint64_t *nl = realloc(e->loc, nc * sizeof *nl);
            if (nl == NULL) {
                w->oom = true;
                return;
            }
            e->loc = nl;
            e->cap = nc;
        }
        e->loc[e->n++] = loc;
        if (e->n > w->ws_max) w->ws_max = e->n;
    }
}

static ga_err_t w_loadmeta(void *ctx, unsigned sm, uint64_t p, uint64_t *rd)
{
    wrap_t *w = ctx;
    if (w->none) ga_mlu_flush(&w->sys->sm[sm]);
    return w->inner.loadmeta(w->inner.ctx, sm, p, rd);
}

static ga_err_t w_memcheck_g(void *ctx, unsigned sm, const ga_warp_req_t *req, uint64_t md, ga_warp_rsp_t *rsp)
{
    wrap_t *w = ctx;
    ws_note(w, sm, req);
    if (w->none) ga_mlu_flush(&w->sys->sm[sm]);
    return w->inner.memcheck_g(w->inner.ctx, sm, req, md, rsp);
}

static ga_err_t w_memcheck_s(void *ctx, unsigned sm, const ga_warp_req_t *req, uint32_t base, uint32_t ssize,
                             ga_warp_rsp_t *rsp)
{
    wrap_t *w = ctx;
    return w->inner.memcheck_s(w->inner.ctx, sm, req, base, ssize, rsp);
}

static ga_err_t w_access(void *ctx, unsigned sm, const ga_warp_req_t *req, ga_warp_rsp_t *rsp)
{
    wrap_t *w = ctx;
    ws_note(w, sm, req);
    if (w->none) ga_mlu_flush(&w->sys->sm[sm]);
    return w->inner.access(w->inner.ctx, sm, req, rsp);
}

static void w_flush(void *ctx, unsigned sm)
{
    wrap_t *w = ctx;
    w->inner.flush(w->inner.ctx, sm);
}

static void w_runtime_changed(void *ctx, const uint64_t *locs, size_t n, uint64_t root)
{
    wrap_t *w = ctx;
    w->inner.runtime_changed(w->inner.ctx, locs, n, root);
}

static int w_check(void *ctx, char *msg, size_t cap)
{
    wrap_t *w = ctx;
    return w->inner.check(w->inner.ctx, msg, cap);
}

static void w_destroy(void *ctx)
{
    wrap_t *w = ctx;
    ga_backend_close(&w->inner);
    ws_clear(w);
    free(w->t);
    free(w);
}

/* The sweep's backend (registry name "sweep"): the model backend, wrapped. */
static int w_open(ga_backend_t *b, ga_system_t *sys, void *arg, char *msg, size_t cap)
{
    sweep_ctx_t *sc = arg;
    wrap_t *w = calloc(1, sizeof *w);
    if (w != NULL) {
        w->cap = 1024;
        w->t = calloc(w->cap, sizeof *w->t);
    }
    if (w == NULL || w->t == NULL) {
        free(w);
        snprintf(msg, cap, "gasweep: out of memory");
        return -1;
    }
    w->sys = sys;
    w->none = sc->none;
    if (ga_backend_open(NULL, "model", sys, NULL, &w->inner, msg, cap) != GA_BACKEND_OK) {
        free(w->t);
        free(w);
        return -1;
    }
    memset(b, 0, sizeof *b);
    b->name = sc->none ? "model, no MLB" : "model";
    b->ctx = w;
    b->loadmeta = w_loadmeta;
    b->memcheck_g = w_memcheck_g;
    b->memcheck_s = w_memcheck_s;
    b->access = w_access;
    b->flush = w_flush;
    b->runtime_changed = w_runtime_changed;
    b->check = w_check;
    b->destroy = w_destroy;
    sc->w = w;
    return 0;
}

static const ga_backend_def_t sweep_def = {"sweep", "the model with no-MLB flushes and working-set counts", w_open};
static const ga_backend_def_t *const sweep_backends[] = {&sweep_def, NULL};

int ga_sweep_run(const char *path, const ga_sweep_cfg_t *cfg, ga_sweep_res_t *res, char *msg, size_t cap)
{
    memset(res, 0, sizeof *res);
    if (cfg->mlb > 64u || (cfg->tag_bits != 0u && cfg->tag_bits != 7u && cfg->tag_bits != 16u)) {
        snprintf(msg, cap, "%s: bad sweep configuration (MLB 0 .. 64, tag bits 7, 16 or 0)", path);
        return -1;
    }
    sweep_ctx_t sc = {cfg->mlb == 0u, NULL};
    ga_replay_cfg_t rc;
    ga_replay_default_cfg(&rc);
    rc.mode = cfg->mode;
    rc.layout = cfg->layout;
    rc.mlb_entries = cfg->mlb == 0u ? 8u : cfg->mlb;
    rc.seed = cfg->seed;
    rc.tag_bits = cfg->tag_bits;
    rc.tag_neighbour_distinct = cfg->neighbour_distinct;
    rc.tag_quarantine = cfg->quarantine;
    rc.max_detections = 16; /* counted all the same; the records are not needed here */
    rc.backend = "sweep";   /* the wrapped model backend */
    rc.backends = sweep_backends;
    rc.backend_arg = &sc;

    ga_trace_err_t err;
    ga_trace_reader_t *r = NULL;
    ga_replay_t *rp = NULL;
    ga_tev_t ev;
    int rcode = -1;
    if (ga_trace_open(&r, path, &err) != 0) goto out;
    int more = ga_trace_next(r, &ev, &err);
    if (more < 0) goto out;
    if (ga_replay_create(&rp, &rc, ga_trace_header(r), &err) != 0) {
        rp = NULL;
        goto out;
    }
    while (more > 0) {
        if (ev.kind == GA_TEV_KERNEL) { /* a working set is a kernel's */
            ws_clear(sc.w);
            res->kernels++;
        }
        if (ga_replay_event(rp, r, &ev, &err) != 0) goto out;
        more = ga_trace_next(r, &ev, &err);
    }
    if (more < 0 || ga_replay_finish(rp, &err) != 0) goto out;
    if (sc.w->oom) {
        snprintf(err.msg, sizeof err.msg, "%s: out of memory counting working sets", path);
        goto out;
    }
    res->st = *ga_replay_stats(rp);
    res->ws_max = sc.w->ws_max;
    rcode = 0;
out:
    if (rcode != 0) snprintf(msg, cap, "%s", err.msg);
    ga_replay_destroy(rp);
    if (r != NULL) ga_trace_close(r);
    return rcode;
}
