/*
 * ga_backend.c — the model backend and the registry look-up (see ga_backend.h).
 */
#include "ga_backend.h"

#include <stdio.h>
#include <string.h>

static ga_err_t m_loadmeta(void *ctx, unsigned sm, uint64_t p, uint64_t *rd)
{
    return ga_mlu_loadmeta(&((ga_system_t *)ctx)->sm[sm], p, rd);
}

static ga_err_t m_memcheck_g(void *ctx, unsigned sm, const ga_warp_req_t *req, uint64_t md, ga_warp_rsp_t *rsp)
{
    return ga_mlu_memcheck_g(&((ga_system_t *)ctx)->sm[sm], req, md, rsp);
}

static ga_err_t m_memcheck_s(void *ctx, unsigned sm, const ga_warp_req_t *req, uint32_t base, uint32_t ssize,
                             ga_warp_rsp_t *rsp)
{
    return ga_mlu_memcheck_s(&((ga_system_t *)ctx)->sm[sm], req, base, ssize, rsp);
}

static ga_err_t m_access(void *ctx, unsigned sm, const ga_warp_req_t *req, ga_warp_rsp_t *rsp)
{
    return ga_mlu_access(&((ga_system_t *)ctx)->sm[sm], req, rsp);
}

static void m_flush(void *ctx, unsigned sm) { ga_mlu_flush(&((ga_system_t *)ctx)->sm[sm]); }

/* The model SMs are updated by ga_system itself: nothing to forward. */
static void m_runtime_changed(void *ctx, const uint64_t *locs, size_t n, uint64_t root)
{
    (void)ctx;
    (void)locs;
    (void)n;
    (void)root;
}

/* The model agrees with itself. */
static int m_check(void *ctx, char *msg, size_t cap)
{
    (void)ctx;
    if (cap > 0u) msg[0] = '\0';
    return 0;
}

/* The context is the borrowed system: nothing to free. */
static void m_destroy(void *ctx) { (void)ctx; }

static int m_open(ga_backend_t *b, ga_system_t *sys, void *arg, char *msg, size_t cap)
{
    (void)arg;
    if (cap > 0u) msg[0] = '\0';
    memset(b, 0, sizeof *b);
    b->name = "model";
    b->ctx = sys;
    b->loadmeta = m_loadmeta;
    b->memcheck_g = m_memcheck_g;
    b->memcheck_s = m_memcheck_s;
    b->access = m_access;
    b->flush = m_flush;
    b->runtime_changed = m_runtime_changed;
    b->check = m_check;
    b->wave = NULL;
    b->destroy = m_destroy;
    return 0;
}

const ga_backend_def_t ga_backend_model_def = {"model", "the C golden model's MLUs", m_open};

const ga_backend_def_t *const ga_backends_model[] = {&ga_backend_model_def, NULL};

/* The backends of the project and the programs that hold each (for the "not built" message). */
static const struct {
    const char *name, *where;
} known[] = {
    {"model", "every program"},
    {"rtl", "the Verilator lockstep backend (tb/replay/tb_backend.c) is built into build/cosim/<cfg>/gasim-rtl "
            "(make gasim-rtl), build/cosim/<cfg>/gaeval-rtl (make gaeval-rtl) and the RTL runtime (make cudart-rtl)"},
    {"board", "the iCE40 board backend (fpga/host/gab_replay.c) is built into gaprobe (make gaprobe): gaprobe replay"},
};

const ga_backend_def_t *ga_backend_find(const ga_backend_def_t *const *reg, const char *name)
{
    if (reg == NULL) reg = ga_backends_model;
    for (; *reg != NULL; reg++)
        if (strcmp((*reg)->name, name) == 0) return *reg;
    return NULL;
}

int ga_backend_open(const ga_backend_def_t *const *reg, const char *name, ga_system_t *sys, void *arg,
                    ga_backend_t *b, char *msg, size_t cap)
{
    if (cap > 0u) msg[0] = '\0';
    memset(b, 0, sizeof *b);
    if (name == NULL) name = "model";
    const ga_backend_def_t *d = ga_backend_find(reg, name);
    if (d != NULL) return d->open(b, sys, arg, msg, cap) == 0 ? GA_BACKEND_OK : GA_BACKEND_FAILED;
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
        if (strcmp(known[i].name, name) == 0) {
            snprintf(msg, cap, "backend '%s' is not built into this program: %s", name, known[i].where);
            return GA_BACKEND_NOT_BUILT;
        }
    snprintf(msg, cap, "unknown backend '%s' (model, rtl or board)", name);
    return GA_BACKEND_UNKNOWN;
}

void ga_backend_close(ga_backend_t *b)
{
    if (b->destroy != NULL) b->destroy(b->ctx);
    memset(b, 0, sizeof *b);
}

size_t ga_backend_forward(ga_system_t *sys, const ga_backend_t *b)
{
    const uint64_t *locs;
    size_t n = ga_rt_invalidations(sys->rt, &locs);
    if (b->runtime_changed != NULL) b->runtime_changed(b->ctx, locs, n, ga_rt_root(sys->rt));
    return n;
}

ga_err_t ga_backend_malloc(ga_system_t *sys, const ga_backend_t *b, uint64_t size, uint64_t *ptr)
{
    ga_err_t err = ga_system_malloc(sys, size, ptr);
    if (err == GA_OK) (void)ga_backend_forward(sys, b);
    return err;
}

ga_err_t ga_backend_malloc_at(ga_system_t *sys, const ga_backend_t *b, uint64_t base, uint64_t size, uint64_t *ptr)
{
    ga_err_t err = ga_system_malloc_at(sys, base, size, ptr);
    if (err == GA_OK) (void)ga_backend_forward(sys, b);
    return err;
}

ga_err_t ga_backend_free(ga_system_t *sys, const ga_backend_t *b, uint64_t ptr)
{
    ga_err_t err = ga_system_free(sys, ptr);
    if (err == GA_OK) (void)ga_backend_forward(sys, b);
    return err;
}
