/*
 * garun — replay the built-in default workload through the GPUArmor golden model and print a report.
 *
 * The workload is synthetic and deterministic (seeded): a few hundred allocations with sizes from
 * 256 B to 8 MiB, a sequence of kernels whose warps each touch a small working set of buffers (the
 * paper's Observation 6: working sets under eight allocations), frees and new allocations between
 * kernels, shared-memory accesses, and a handful of injected memory-safety errors of each class of the
 * paper's Table 4. It runs in COMPILER mode (LOADMETA per root pointer, MEMCHECK.G / MEMCHECK.S per
 * access, paper §6.2) and in HWONLY mode (every global access checked, §6.2) for each metadata layout
 * of cmodel/ga_layouts.def (the paper's list, BST and table, §4.2, and the index, spec §2.3).
 *
 * Every MLU operation goes through the model backend (cmodel/ga_backend.h) and the one compiler-mode
 * dispatch (cmodel/ga_exec.h) that gasim's replay and gaeval use too: a warp LOADMETAs its working set
 * at its start, and every access is dispatched with its buffer's base as root pointer.
 *
 * --write-trace FILE also records the BST / COMPILER run as a gatrace file (docs/traces.md) for
 * gasim, e.g. `gasim-rtl --rtl --trace FILE` co-simulates it through the RTL (make run). The report
 * is the same with or without it.
 *
 * Exit status (ga_exit.h): 0 when the run completed, no clean access raised an exception (no false
 * positive) and every injected error whose detection the design guarantees was detected (see
 * `guaranteed`); 3 when one of those self-checks failed; 1 for a runtime error (the model refused its
 * configuration, the trace could not be written); 2 for a bad command line. Detections that are probabilistic by design (a stray pointer
 * landing in another allocation whose random tag happens to equal its own: paper §7.2, 1 in 126 at
 * 7 bits) are reported, not required.
 */
#include "ga_backend.h"
#include "ga_exec.h"
#include "ga_system.h"
#include "ga_rng.h"
#include "ga_exit.h"
#include "trace/ga_trace.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Injected error classes (paper Table 4 rows that a trace of accesses can express). */
enum {
    INJ_ADJ_OOB,      /* one element past the end */
    INJ_FAR_OOB,      /* far past the end (non-adjacent) */
    INJ_UAF,          /* access through a pointer whose allocation was freed */
    INJ_REALLOC_UAF,  /* ... after the memory was allocated again (delayed UAF) */
    INJ_WILD,         /* tagged pointer into memory nobody allocated */
    INJ_SHARED_OOB,   /* shared-memory index past the shared allocation (compiler mode) */
    INJ_CLASSES
};
/* guaranteed[mode][class]: the design detects every instance (paper Table 4 rows at 100 %, given how
 * this workload injects them). COMPILER: the root pointer is the buffer's base, so any OOB is checked
 * against the right bounds; the concurrent free makes MEMCHECK.G see the freed tag; a wild pointer gets
 * no metadata. HWONLY: an OOB address may land in another allocation (tag check only) and is
 * probabilistic here, as is any use-after-realloc (the new tag may equal the old one). */
static const int guaranteed[2][INJ_CLASSES] = {
    /* COMPILER */ {1, 1, 1, 0, 1, 1},
    /* HWONLY   */ {0, 0, 1, 0, 1, 0},
};
static const char *const inj_name[INJ_CLASSES] = {
    "adjacent OOB", "non-adjacent OOB", "use-after-free", "use-after-realloc", "wild pointer",
    "shared OOB",
};

typedef struct {
    uint64_t seed;
    unsigned sms, mlb, tag_bits, allocs, kernels, warps, iters;
    int verbose;
    const char *write_trace; /* --write-trace FILE, or NULL */
} opts_t;

typedef struct {
    uint64_t ptr, size;
    int live;
} buf_t;

typedef struct {
    uint64_t injected[INJ_CLASSES], detected[INJ_CLASSES], missed_guaranteed;
    uint64_t by_kind[INJ_CLASSES][GA_EXC_KINDS];
    uint64_t false_positives;
    uint64_t clean_ops;
    ga_exc_t first_fp;
} outcome_t;

/* Everything one layout x mode run needs. */
typedef struct {
    const opts_t *o;
    ga_system_t sys;
    ga_backend_t be;   /* the model backend over sys */
    ga_exec_t ex;      /* the dispatch and the kernel's metadata registers */
    ga_warp_rsp_t rsp; /* the response of the last warp operation the dispatch ran */
    ga_rng_t rng;
    buf_t *bufs;
    size_t nbufs, cap;
    outcome_t out;
    int printed;
    FILE *tw; /* the trace being written (the recorded run only), else NULL */
} run_t;

static void die_err(const char *what, ga_err_t err)
{
    fprintf(stderr, "garun: %s: %s\n", what, ga_strerror(err));
    exit(GA_EXIT_ERROR);
}

static uint64_t rand_size(run_t *r)
{
    /* Log-uniform 256 B .. 4 MiB, and one in four sizes not a multiple of 256 so that the padding
     * cudaMalloc-style alignment adds behind an allocation is exercised. */
    unsigned lg = 8u + (unsigned)ga_rng_below(&r->rng, 15); /* 2^8 .. 2^22 */
    uint64_t sz = (UINT64_C(1) << lg) + ga_rng_below(&r->rng, UINT64_C(1) << lg);
    if (ga_rng_below(&r->rng, 4) != 0) sz &= ~UINT64_C(255);
    return sz < 256u ? 256u : sz;
}

/* ---- the trace recorder (--write-trace): allocation IDs are buffer indices ---- */
static void tw_event(run_t *r, const ga_tev_t *ev)
{
    if (ga_trace_write_event(r->tw, ev) != 0) {
        fprintf(stderr, "garun: --write-trace: cannot write a %s record\n", ga_tev_name(ev->kind));
        exit(GA_EXIT_ERROR);
    }
}

/* ptr as "aV+off" relative to buffer v (with a tag override when its tag differs from v's). */
static ga_tptr_t tw_rel(const run_t *r, size_t v, uint64_t ptr)
{
    unsigned tb = r->o->tag_bits;
    ga_tptr_t t;
    memset(&t, 0, sizeof t);
    t.is_alloc = true;
    t.id = v;
    t.off = ga_va_of(ptr, tb) - ga_va_of(r->bufs[v].ptr, tb);
    if (ga_tag_of(ptr, tb) != ga_tag_of(r->bufs[v].ptr, tb)) {
        t.set_tag = true;
        t.tag = (uint16_t)ga_tag_of(ptr, tb);
    }
    return t;
}

static ga_tptr_t tw_raw(uint64_t value)
{
    ga_tptr_t t;
    memset(&t, 0, sizeof t);
    t.off = value;
    return t;
}

static void tw_simple(run_t *r, ga_tev_kind_t kind, size_t v, const char *name)
{
    if (r->tw == NULL) return;
    ga_tev_t ev;
    memset(&ev, 0, sizeof ev);
    ev.kind = kind;
    ev.id = v;
    if (name != NULL) snprintf(ev.name, sizeof ev.name, "%s", name);
    tw_event(r, &ev);
}

/* A global access of warp q on sm with root pointer root and lane addresses strided by 4 from
 * lane0 (stride) or, for one lane, the pointer lane0. */
static void tw_ld(run_t *r, unsigned sm, const ga_warp_req_t *q, ga_tptr_t root, ga_tptr_t lane0)
{
    if (r->tw == NULL) return;
    ga_tev_t ev;
    memset(&ev, 0, sizeof ev);
    ev.kind = GA_TEV_LD;
    ev.sm = (uint16_t)sm;
    ev.warp = q->warp;
    ev.size = q->size;
    ev.mask = q->active;
    ev.root_kind = GA_ROOT_PTR;
    ev.root = root;
    ev.strided = q->lanes > 1u;
    ev.stride = 4;
    ev.lane[0] = lane0;
    tw_event(r, &ev);
}

static void tw_lds(run_t *r, unsigned sm, const ga_warp_req_t *q, uint32_t sbase, uint32_t ssize)
{
    if (r->tw == NULL) return;
    ga_tev_t ev;
    memset(&ev, 0, sizeof ev);
    ev.kind = GA_TEV_LDS;
    ev.sm = (uint16_t)sm;
    ev.warp = q->warp;
    ev.size = q->size;
    ev.mask = q->active;
    ev.sbase = sbase;
    ev.ssize = ssize;
    ev.strided = q->lanes > 1u;
    ev.stride = 4;
    ev.lane[0] = tw_raw(q->addr[0]);
    tw_event(r, &ev);
}

static void push_buf(run_t *r, uint64_t ptr, uint64_t size)
{
    if (r->nbufs == r->cap) {
        r->cap = r->cap ? 2 * r->cap : 512;
        buf_t *nb = realloc(r->bufs, r->cap * sizeof *nb);
        if (nb == NULL) die_err("buffer list", GA_ERR_NO_MEMORY);
        r->bufs = nb;
    }
    r->bufs[r->nbufs++] = (buf_t){ptr, size, 1};
    if (r->tw != NULL) {
        ga_tev_t ev;
        memset(&ev, 0, sizeof ev);
        ev.kind = GA_TEV_ALLOC;
        ev.id = r->nbufs - 1u;
        ev.bytes = size;
        tw_event(r, &ev);
    }
}

static void alloc_one(run_t *r)
{
    uint64_t sz = rand_size(r), p;
    ga_err_t err = ga_backend_malloc(&r->sys, &r->be, sz, &p);
    if (err != GA_OK) die_err("malloc", err);
    push_buf(r, p, sz);
}

static size_t pick_live(run_t *r)
{
    for (;;) {
        size_t i = (size_t)ga_rng_below(&r->rng, r->nbufs);
        if (r->bufs[i].live) return i;
    }
}

static void print_record(const run_t *r, const char *label, const ga_exc_t *x)
{
    printf("    %-18s %-20s addr 0x%016" PRIx64 " (%" PRIu32 " B) sm %u warp %u lane %u",
           label, ga_exc_name(x->kind), x->addr, x->size, (unsigned)x->sm, (unsigned)x->warp,
           (unsigned)x->lane);
    if (x->kind == GA_EXC_SHARED_OUT_OF_BOUNDS)
        printf("  shared [0x%" PRIx64 ", +%" PRIu64 ")\n", x->entry.tb, x->entry.size);
    else if (x->entry.size != 0 || x->entry.tb != 0)
        printf("  entry tag 0x%" PRIx64 " [0x%" PRIx64 ", +%" PRIu64 ")\n",
               ga_tag_of(x->entry.tb, r->o->tag_bits), ga_va_of(x->entry.tb, r->o->tag_bits),
               x->entry.size);
    else
        printf("  no entry\n");
}

/* One global access by one warp: all lanes active, lane l at base + (first + l) * 4. */
static void fill_req(ga_warp_req_t *q, unsigned lanes, uint16_t warp, uint64_t ptr, uint64_t first)
{
    memset(q, 0, sizeof *q);
    q->lanes = lanes;
    q->active = lanes == 32u ? UINT32_MAX : ((UINT32_C(1) << lanes) - 1u);
    q->warp = warp;
    q->size = 4;
    for (unsigned l = 0; l < lanes; l++) q->addr[l] = ptr + (first + l) * 4u;
}

/* A clean access must not fault: count false positives. */
static void clean_result(run_t *r, const ga_warp_rsp_t *rsp)
{
    r->out.clean_ops++;
    if (rsp->fault != 0u) {
        if (r->out.false_positives == 0) r->out.first_fp = rsp->rec;
        r->out.false_positives++;
    }
}

static void check_ok(ga_err_t err, const char *what)
{
    if (err != GA_OK) die_err(what, err);
}

/* The dispatch's operations (ga_exec_ops_t) on the backend; a failure ends the program. */
static int op_loadmeta(void *ctx, unsigned sm, uint16_t warp, uint64_t root, uint64_t *md, bool *cut)
{
    run_t *r = ctx;
    (void)warp;
    *cut = false;
    check_ok(r->be.loadmeta(r->be.ctx, sm, root, md), "LOADMETA");
    return 0;
}

static int op_memcheck_g(void *ctx, unsigned sm, const ga_warp_req_t *q, uint64_t md, uint32_t cut_mask)
{
    run_t *r = ctx;
    (void)cut_mask;
    check_ok(r->be.memcheck_g(r->be.ctx, sm, q, md, &r->rsp), "MEMCHECK.G");
    return 0;
}

static int op_memcheck_s(void *ctx, unsigned sm, const ga_warp_req_t *q, uint32_t base, uint32_t ssize)
{
    run_t *r = ctx;
    check_ok(r->be.memcheck_s(r->be.ctx, sm, q, base, ssize, &r->rsp), "MEMCHECK.S");
    return 0;
}

static int op_access(void *ctx, unsigned sm, const ga_warp_req_t *q)
{
    run_t *r = ctx;
    check_ok(r->be.access(r->be.ctx, sm, q, &r->rsp), "ACCESS");
    return 0;
}

static const ga_exec_ops_t run_ops = {op_loadmeta, op_memcheck_g, op_memcheck_s, op_access};

/* A dispatch result: the operations end the program on failure, so only the registers can fail. */
static void exec_ok(int rc)
{
    if (rc < 0) die_err("metadata registers", GA_ERR_NO_MEMORY);
}

/* Run one injected error of class c in warp 0 of SM 0 and score it. */
static void inject(run_t *r, int c, unsigned kernel)
{
    ga_mode_t mode = r->sys.cfg.mode;
    ga_warp_req_t q;
    ga_warp_rsp_t rsp;
    size_t v = pick_live(r);
    uint64_t p = r->bufs[v].ptr, sz = r->bufs[v].size, addr = 0;
    unsigned tb = r->o->tag_bits;

    if (c == INJ_SHARED_OOB) {
        if (mode != GA_MODE_COMPILER) return; /* shared checks are compiler-inserted (§6.2) */
        fill_req(&q, 1, 0, 0, 0);
        q.addr[0] = 48u * 1024u; /* one past a 48 KiB shared allocation */
        exec_ok(ga_exec_shared(&r->ex, 0, &q, 0, 48u * 1024u));
        rsp = r->rsp;
        tw_lds(r, 0, &q, 0, 48u * 1024u);
        goto score;
    }
    switch (c) {
    case INJ_ADJ_OOB: addr = p + sz; break;
    case INJ_FAR_OOB: addr = p + sz + (UINT64_C(1) << 30); break;
    case INJ_WILD:
        addr = ga_make_ptr(1u + ga_rng_below(&r->rng, ga_tag_freed(tb) - 1u),
                           UINT64_C(0x100000000) + ga_rng_below(&r->rng, UINT64_C(1) << 32) * 256u, tb);
        break;
    case INJ_UAF:
    case INJ_REALLOC_UAF:
        addr = p + (sz / 2u & ~UINT64_C(3));
        /* Compiler mode: LOADMETA at the kernel's start, while the buffer is live; the host frees it
         * while the kernel runs (the paper's concurrent UAF, §7.2): MEMCHECK.G must see the freed tag. */
        exec_ok(ga_exec_loadmeta(&r->ex, 0, 0, p, NULL, NULL));
        if (r->tw != NULL && mode == GA_MODE_COMPILER) { /* the kernel's LOADMETA, before the free */
            ga_tev_t ev;
            memset(&ev, 0, sizeof ev);
            ev.kind = GA_TEV_LOADMETA;
            ev.root = tw_rel(r, v, p);
            tw_event(r, &ev);
        }
        check_ok(ga_backend_free(&r->sys, &r->be, p), "free");
        tw_simple(r, GA_TEV_FREE, v, NULL);
        r->bufs[v].live = 0;
        if (c == INJ_REALLOC_UAF) {
            /* Allocate until the freed range is reused by a new allocation (first fit reuses it at
             * once when the new request fits in it). */
            uint64_t np = 0;
            for (int tries = 0; tries < 64 && ga_va_of(np, tb) != ga_va_of(p, tb); tries++) {
                check_ok(ga_backend_malloc(&r->sys, &r->be, sz, &np), "malloc");
                push_buf(r, np, sz);
            }
            if (ga_va_of(np, tb) != ga_va_of(p, tb)) return; /* not reused: nothing to inject */
        }
        break;
    default: return;
    }
    fill_req(&q, 1, 0, addr, 0);
    q.addr[0] = addr;
    /* The compiler's root pointer: the buffer's base for an OOB index, the pointer itself for a wild
     * pointer (each LOADMETAed just before the check); the UAF cases ran their LOADMETA before the
     * free, above. HWOnly: one plain access. */
    uint64_t root = c == INJ_WILD ? addr : p;
    if (c == INJ_ADJ_OOB || c == INJ_FAR_OOB || c == INJ_WILD)
        exec_ok(ga_exec_loadmeta(&r->ex, 0, 0, root, NULL, NULL));
    exec_ok(ga_exec_global(&r->ex, 0, &q, GA_EXEC_ROOT_PTR, root));
    rsp = r->rsp;
    if (mode != GA_MODE_HWONLY) {
        if (c == INJ_WILD) tw_ld(r, 0, &q, tw_raw(addr), tw_raw(addr));
        else tw_ld(r, 0, &q, tw_rel(r, v, p), tw_rel(r, v, addr));
    }
score:
    r->out.injected[c]++;
    if (!(rsp.fault & 1u) && guaranteed[mode][c]) r->out.missed_guaranteed++;
    if (rsp.fault & 1u) {
        r->out.detected[c]++;
        r->out.by_kind[c][rsp.rec.kind]++;
        if (r->o->verbose && r->printed < 12) {
            char label[40];
            snprintf(label, sizeof label, "k%u %s", kernel, inj_name[c]);
            print_record(r, label, &rsp.rec);
            r->printed++;
        }
    }
}

static void run_kernel(run_t *r, unsigned k)
{
    const opts_t *o = r->o;
    enum { WS = 6 };
    size_t ws[WS];
    for (int i = 0; i < WS; i++) ws[i] = pick_live(r);
    unsigned lanes = 32;
    if (r->tw != NULL) {
        char name[32];
        snprintf(name, sizeof name, "k%u", k);
        tw_simple(r, GA_TEV_KERNEL, 0, name);
    }
    ga_exec_kernel(&r->ex); /* registers do not survive a kernel */
    for (unsigned s = 0; s < r->sys.cfg.sms; s++) {
        for (unsigned w = 0; w < o->warps; w++) {
            /* compiler mode: the warp's LOADMETAs of its working set (HWOnly: skipped) */
            for (int i = 0; i < WS; i++)
                exec_ok(ga_exec_loadmeta(&r->ex, s, (uint16_t)w, r->bufs[ws[i]].ptr, NULL, NULL));
            for (unsigned it = 0; it < o->iters; it++) {
                for (int i = 0; i < WS; i++) {
                    const buf_t *b = &r->bufs[ws[i]];
                    uint64_t elems = b->size / 4u; /* 4-byte elements, all in bounds */
                    uint64_t first = ((uint64_t)(s * o->warps + w) * 32u + it * 1024u) % (elems - lanes + 1u);
                    ga_warp_req_t q;
                    fill_req(&q, lanes, (uint16_t)w, b->ptr, first);
                    exec_ok(ga_exec_global(&r->ex, s, &q, GA_EXEC_ROOT_PTR, b->ptr));
                    tw_ld(r, s, &q, tw_rel(r, ws[i], b->ptr), tw_rel(r, ws[i], q.addr[0]));
                    clean_result(r, &r->rsp);
                }
                ga_warp_req_t q; /* a shared access: MEMCHECK.S in compiler mode, unchecked in HWOnly */
                fill_req(&q, lanes, (uint16_t)w, 0, (uint64_t)it * 32u % (12u * 1024u - 32u));
                int rc = ga_exec_shared(&r->ex, s, &q, 0, 48u * 1024u);
                exec_ok(rc);
                if (rc != GA_EXEC_SKIPPED) {
                    tw_lds(r, s, &q, 0, 48u * 1024u);
                    clean_result(r, &r->rsp);
                }
            }
        }
    }
    for (int c = 0; c < INJ_CLASSES; c++) inject(r, c, k);
    tw_simple(r, GA_TEV_END, 0, NULL);
    /* Churn between kernels: free some buffers, allocate new ones (paper §6.1 wrappers). */
    for (unsigned i = 0; i < o->allocs / 16u; i++) {
        size_t v = pick_live(r);
        check_ok(ga_backend_free(&r->sys, &r->be, r->bufs[v].ptr), "free");
        tw_simple(r, GA_TEV_FREE, v, NULL);
        r->bufs[v].live = 0;
        alloc_one(r);
    }
}

static int run_one(const opts_t *o, ga_layout_t layout, ga_mode_t mode, outcome_t total[2], int *ok)
{
    run_t r;
    memset(&r, 0, sizeof r);
    r.o = o;
    ga_system_cfg_t cfg;
    ga_system_default_cfg(&cfg, layout, o->tag_bits, o->seed);
    cfg.sms = o->sms;
    cfg.mlb_entries = o->mlb;
    cfg.mode = mode;
    ga_err_t err = ga_system_init(&r.sys, &cfg);
    if (err != GA_OK) die_err("system", err);
    char msg[256];
    if (ga_backend_open(ga_backends_model, "model", &r.sys, NULL, &r.be, msg, sizeof msg) != GA_BACKEND_OK) {
        fprintf(stderr, "garun: %s\n", msg);
        exit(GA_EXIT_ERROR);
    }
    ga_exec_init(&r.ex, mode, &run_ops, &r);
    ga_rng_seed(&r.rng, o->seed ^ UINT64_C(0x5eed));
    if (o->write_trace != NULL && layout == GA_LAYOUT_BST && mode == GA_MODE_COMPILER) {
        r.tw = fopen(o->write_trace, "w");
        ga_trace_header_t h = {.version = GA_TRACE_VERSION, .sms = o->sms, .fixed = false};
        if (r.tw == NULL || ga_trace_write_header(r.tw, &h) != 0) {
            fprintf(stderr, "garun: --write-trace: cannot write '%s': %s\n", o->write_trace, strerror(errno));
            exit(GA_EXIT_ERROR);
        }
    }
    for (unsigned i = 0; i < o->allocs; i++) alloc_one(&r);
    if (o->verbose) printf("\n  %s / %s: injected errors as reported\n", ga_layout_name(layout),
                           mode == GA_MODE_HWONLY ? "HWOnly" : "compiler");
    for (unsigned k = 0; k < o->kernels; k++) run_kernel(&r, k);
    /* version 2: the end-of-trace record tells a complete trace from a cut one */
    if (r.tw != NULL && (ga_trace_write_end(r.tw) != 0) + (fclose(r.tw) != 0)) {
        fprintf(stderr, "garun: --write-trace: cannot write '%s': %s\n", o->write_trace, strerror(errno));
        exit(GA_EXIT_ERROR);
    }

    ga_mlu_stats_t st = ga_system_stats(&r.sys);
    ga_rt_stats_t rs = ga_rt_stats(r.sys.rt);
    uint64_t lookups = st.loadmeta - st.loadmeta_unchecked;
    double hit = lookups ? 100.0 * (double)st.loadmeta_hits / (double)lookups : 0.0;
    double rpl = st.loadmeta ? (double)st.walk_steps / (double)st.loadmeta : 0.0;
    double walk = st.walks ? (double)st.walk_steps / (double)st.walks : 0.0;
    uint64_t inj = 0, det = 0;
    for (int c = 0; c < INJ_CLASSES; c++) {
        inj += r.out.injected[c];
        det += r.out.detected[c];
    }
    printf("  %-6s %-8s %10" PRIu64 " %10" PRIu64 " %7.2f%% %9.3f %7.2f %5" PRIu32 " %8" PRIu64
           " %5" PRIu64 "/%-5" PRIu64 " %4" PRIu64 "\n",
           ga_layout_name(layout), mode == GA_MODE_HWONLY ? "HWOnly" : "compiler",
           st.loadmeta + st.memcheck_g + st.memcheck_s + st.access, st.lanes_checked, hit, rpl, walk,
           st.walk_max, rs.metadata_bytes, det, inj, r.out.false_positives);
    if (r.out.false_positives) {
        printf("  FALSE POSITIVE on a clean access:\n");
        print_record(&r, "first", &r.out.first_fp);
        *ok = 0;
    }
    if (r.out.missed_guaranteed) {
        printf("  MISSED %" PRIu64 " injected error(s) whose detection is guaranteed\n", r.out.missed_guaranteed);
        *ok = 0;
    }
    outcome_t *t = &total[mode];
    for (int c = 0; c < INJ_CLASSES; c++) {
        t->injected[c] += r.out.injected[c];
        t->detected[c] += r.out.detected[c];
        for (int k = 0; k < GA_EXC_KINDS; k++) t->by_kind[c][k] += r.out.by_kind[c][k];
    }
    if (layout == (ga_layout_t)(GA_LAYOUTS - 1) && mode == GA_MODE_HWONLY) {
        printf("\nDetections by class and kind, summed over the %u layouts:\n", (unsigned)GA_LAYOUTS);
        printf("  %-18s %-9s %-9s  kinds reported\n", "class", "compiler", "HWOnly");
        for (int c = 0; c < INJ_CLASSES; c++) {
            printf("  %-18s %4" PRIu64 "/%-4" PRIu64 " ", inj_name[c], total[0].detected[c], total[0].injected[c]);
            if (total[1].injected[c]) printf("%4" PRIu64 "/%-4" PRIu64 "  ", total[1].detected[c], total[1].injected[c]);
            else printf("%-11s", "   n/a");
            for (int m = 0; m < 2; m++)
                for (int k = 1; k < GA_EXC_KINDS; k++)
                    if (total[m].by_kind[c][k])
                        printf(" %s:%s=%" PRIu64, m ? "hw" : "cc", ga_exc_name((ga_exc_kind_t)k), total[m].by_kind[c][k]);
            printf("\n");
        }
    }
    free(r.bufs);
    ga_exec_fini(&r.ex);
    ga_backend_close(&r.be);
    ga_system_fini(&r.sys);
    return 0;
}

static int parse_u(const char *arg, const char *name, unsigned long long lo, unsigned long long hi,
                   unsigned long long *out)
{
    char *end;
    errno = 0;
    unsigned long long v = strtoull(arg, &end, 0);
    if (errno || end == arg || *end != '\0' || arg[0] == '-' || v < lo || v > hi) {
        fprintf(stderr, "garun: %s: expected an integer in %llu..%llu, got '%s'\n", name, lo, hi, arg);
        return -1;
    }
    *out = v;
    return 0;
}

static void usage(FILE *f)
{
    fprintf(f,
            "usage: garun [options]\n"
            "  --seed N       workload and tag seed (default 1)\n"
            "  --sms N        SMs, each with its own MLB (1..128, default 4)\n"
            "  --mlb N        MLB entries (1..64, default 8)\n"
            "  --tag-bits N   7 or 16 (default 7)\n"
            "  --allocs N     initial allocations (16..100000, default 320)\n"
            "  --kernels N    kernels (1..100000, default 12)\n"
            "  --warps N      warps per SM per kernel (1..1024, default 8)\n"
            "  --iters N      iterations per warp (1..100000, default 16)\n"
            "  --verbose      print exception records of the injected errors\n"
            "  --write-trace FILE  also write the BST / compiler run as a gatrace file (for gasim --rtl)\n"
            "  --dry-run      check the command line only and exit (0 when it is valid)\n"
            "exit: 0 no false positive and every guaranteed detection made; 3 a self-check failed;\n"
            "1 a runtime error (the model refused its configuration, the trace cannot be written);\n"
            "2 bad command line\n");
}

int main(int argc, char **argv)
{
    opts_t o = {.seed = 1, .sms = 4, .mlb = 8, .tag_bits = 7, .allocs = 320, .kernels = 12,
                .warps = 8, .iters = 16, .verbose = 0};
    bool dry = false;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        unsigned long long v;
        /* every option may be given once: a second one would silently win */
        for (int j = 1; j < i; j++)
            if (argv[j][0] == '-' && strcmp(argv[j], a) == 0 && a[0] == '-') {
                fprintf(stderr, "garun: option %s given twice\n", a);
                return GA_EXIT_USAGE;
            }
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout);
            return GA_EXIT_OK;
        }
        if (!strcmp(a, "--verbose")) {
            o.verbose = 1;
            continue;
        }
        if (!strcmp(a, "--dry-run")) {
            dry = true;
            continue;
        }
        if (a[0] != '-' || a[1] != '-') {
            fprintf(stderr, "garun: unexpected argument '%s' (see garun --help)\n", a);
            return GA_EXIT_USAGE;
        }
        if (i + 1 >= argc) {
            fprintf(stderr, "garun: unknown option or missing value: '%s' (see garun --help)\n", a);
            return GA_EXIT_USAGE;
        }
        const char *val = argv[++i];
        if (!strcmp(a, "--write-trace")) {
            o.write_trace = val;
        } else if (!strcmp(a, "--seed")) {
            if (parse_u(val, a, 0, UINT64_MAX, &v)) return GA_EXIT_USAGE;
            o.seed = v;
        } else if (!strcmp(a, "--sms")) {
            if (parse_u(val, a, 1, GA_SYSTEM_MAX_SMS, &v)) return GA_EXIT_USAGE;
            o.sms = (unsigned)v;
        } else if (!strcmp(a, "--mlb")) {
            if (parse_u(val, a, 1, GA_MLB_MAX, &v)) return GA_EXIT_USAGE;
            o.mlb = (unsigned)v;
        } else if (!strcmp(a, "--tag-bits")) {
            if (parse_u(val, a, 7, 16, &v)) return GA_EXIT_USAGE;
            if (v != 7 && v != 16) {
                fprintf(stderr, "garun: --tag-bits: expected 7 or 16, got '%s'\n", val);
                return GA_EXIT_USAGE;
            }
            o.tag_bits = (unsigned)v;
        } else if (!strcmp(a, "--allocs")) {
            if (parse_u(val, a, 16, 100000, &v)) return GA_EXIT_USAGE;
            o.allocs = (unsigned)v;
        } else if (!strcmp(a, "--kernels")) {
            if (parse_u(val, a, 1, 100000, &v)) return GA_EXIT_USAGE;
            o.kernels = (unsigned)v;
        } else if (!strcmp(a, "--warps")) {
            if (parse_u(val, a, 1, 1024, &v)) return GA_EXIT_USAGE;
            o.warps = (unsigned)v;
        } else if (!strcmp(a, "--iters")) {
            if (parse_u(val, a, 1, 100000, &v)) return GA_EXIT_USAGE;
            o.iters = (unsigned)v;
        } else {
            fprintf(stderr, "garun: unknown option '%s' (see garun --help)\n", a);
            return GA_EXIT_USAGE;
        }
    }
    if (dry) {
        printf("garun: dry run: the command line is valid\n");
        return GA_EXIT_OK;
    }

    printf("GPUArmor golden model — default workload (seed %" PRIu64 ", %u SMs, %u-entry MLB, %u-bit tags)\n",
           o.seed, o.sms, o.mlb, o.tag_bits);
    printf("%u allocations (256 B .. 8 MiB), %u kernels x %u SMs x %u warps x %u iterations, "
           "working set 6 buffers per kernel, 32-lane 4-byte accesses\n\n",
           o.allocs, o.kernels, o.sms, o.warps, o.iters);
    printf("  %-6s %-8s %10s %10s %8s %9s %7s %5s %8s %11s %4s\n", "layout", "mode", "ops", "lanes",
           "MLB hit", "rd/LDMETA", "walk", "max", "md bytes", "detected", "FP");
    int ok = 1;
    outcome_t total[2];
    memset(total, 0, sizeof total);
    for (int m = 0; m < 2; m++)
        for (unsigned l = 0; l < (unsigned)GA_LAYOUTS; l++) run_one(&o, (ga_layout_t)l, (ga_mode_t)m, total, &ok);
    printf("\nops: LOADMETA + MEMCHECK.G + MEMCHECK.S + ACCESS warp operations; lanes: checked lanes;\n"
           "MLB hit: LOADMETA range-lookup hits (tag-0 and freed-tag inputs excluded); rd/LDMETA: metadata\n"
           "reads per LOADMETA; walk: mean reads per walk (index: node levels + the slot); md bytes: metadata\n"
           "storage at the end;\n"
           "detected: injected errors that raised an exception; FP: clean accesses that raised one.\n");
    printf("\n%s\n", ok ? "RESULT: no false positives; every injected error the design guarantees to catch was caught"
                        : "RESULT: FAILED (see above)");
    return ok ? GA_EXIT_OK : GA_EXIT_MISMATCH;
}
