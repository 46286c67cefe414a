/*
 * ga_backend.c — the model backend and the backend selector (see ga_backend.h).
 */
#include "ga_backend.h"

#include <stdio.h>
#include <string.h>

static ga_err_t m_loadmeta(void *ctx, unsigned sm, uint64_t p, uint64_t *rd)
{
    ga_system_t *s = ctx;
    return ga_mlu_loadmeta(&s->sm[sm], p, rd);
}

static ga_err_t m_memcheck_g(void *ctx, unsigned sm, const ga_warp_req_t *req, uint64_t md, ga_warp_rsp_t *rsp)
{
    ga_system_t *s = ctx;
    return ga_mlu_memcheck_g(&s->sm[sm], req, md, rsp);
}

static ga_err_t m_memcheck_s(void *ctx, unsigned sm, const ga_warp_req_t *req, uint32_t base, uint32_t ssize,
                             ga_warp_rsp_t *rsp)
{
    ga_system_t *s = ctx;
    return ga_mlu_memcheck_s(&s->sm[sm], req, base, ssize, rsp);
}

static ga_err_t m_access(void *ctx, unsigned sm, const ga_warp_req_t *req, ga_warp_rsp_t *rsp)
{
    ga_system_t *s = ctx;
    return ga_mlu_access(&s->sm[sm], req, rsp);
}

static void m_flush(void *ctx, unsigned sm)
{
    ga_system_t *s = ctx;
    ga_mlu_flush(&s->sm[sm]);
}

/* The model SMs are updated by ga_system itself: nothing to forward. */
static void m_runtime_changed(void *ctx, const uint64_t *locs, size_t n, uint64_t root)
{
    (void)ctx;
    (void)locs;
    (void)n;
    (void)root;
}

static int m_check(void *ctx, char *msg, size_t cap)
{
    (void)ctx;
    if (cap > 0u) msg[0] = '\0';
    return 0;
}

/* ga_eval_backend_open — "model": every op is the ga_mlu_* function on sys->sm[sm]; "rtl": the
 * Verilator lockstep backend when the program links it (gaeval-rtl), else -1 with the reason. */
int ga_eval_backend_open(const char *kind, ga_system_t *sys, ga_eval_backend_t *b, char *msg, size_t cap)
{
    if (cap > 0u) msg[0] = '\0';
    memset(b, 0, sizeof *b);
    if (kind == NULL || strcmp(kind, "model") == 0) {
        b->name = "model";
        b->ctx = sys;
        b->loadmeta = m_loadmeta;
        b->memcheck_g = m_memcheck_g;
        b->memcheck_s = m_memcheck_s;
        b->access = m_access;
        b->flush = m_flush;
        b->runtime_changed = m_runtime_changed;
        b->check = m_check;
        b->destroy = NULL;
        return 0;
    }
    if (strcmp(kind, "rtl") == 0) return ga_eval_backend_rtl(sys, b, msg, cap);
    snprintf(msg, cap, "unknown backend '%s' (model or rtl)", kind);
    return -1;
}

void ga_eval_backend_close(ga_eval_backend_t *b)
{
    if (b->destroy != NULL) b->destroy(b->ctx);
    memset(b, 0, sizeof *b);
}

static void forward(ga_system_t *sys, ga_eval_backend_t *b)
{
    const uint64_t *locs;
    size_t n = ga_rt_invalidations(sys->rt, &locs);
    b->runtime_changed(b->ctx, locs, n, ga_rt_root(sys->rt));
}

ga_err_t ga_eval_malloc(ga_system_t *sys, ga_eval_backend_t *b, uint64_t size, uint64_t *ptr)
{
    ga_err_t err = ga_system_malloc(sys, size, ptr);
    if (err == GA_OK) forward(sys, b);
    return err;
}

ga_err_t ga_eval_malloc_at(ga_system_t *sys, ga_eval_backend_t *b, uint64_t base, uint64_t size, uint64_t *ptr)
{
    ga_err_t err = ga_system_malloc_at(sys, base, size, ptr);
    if (err == GA_OK) forward(sys, b);
    return err;
}

ga_err_t ga_eval_free(ga_system_t *sys, ga_eval_backend_t *b, uint64_t ptr)
{
    ga_err_t err = ga_system_free(sys, ptr);
    if (err == GA_OK) forward(sys, b);
    return err;
}
