/*
 * emu_exec.c — the SIMT interpreter (docs/emulator.md §5): CTAs on SMs, warps in lockstep with a
 * reconvergence stack, barriers, call frames, every decoded operation, device memory in each state
 * space, and the GPUArmor requests (LOADMETA / MEMCHECK.G / MEMCHECK.S in compiler mode, a check of
 * every global access in HWOnly mode) sent to the SM's MLU through the backend.
 *
 * Scheduling is deterministic: CTAs are handed out in linear order to the first free SM; every round
 * visits the SMs in index order and runs each ready warp of the SM's CTA for up to QUANTUM warp
 * instructions (or until it waits at a barrier or ends). A warp runs the entry at the top of its
 * reconvergence stack; a divergent branch turns the top entry into the reconvergence entry (pc = the
 * immediate post-dominator) and pushes the not-taken and the taken paths, the taken one on top.
 */
#include "emu_fp.h"
#include "emu_internal.h"

#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#define QUANTUM 64u
#define MAX_FRAMES 4096u
#define MAX_BARRIERS 16u

typedef struct {
    emu_launch_t *L;
    emu_dev_t *d;
    emu_module_t *m;
    const emu_insn_t *code;
    emu_sm_t *sm;
    emu_cta_t *cta;
    emu_region_t *rc; /* last region hit */
    uint32_t stack_bytes;
    unsigned tag_bits;
    uint64_t va_mask;
    bool compiler, hwonly;
    /* counters of this launch (flushed into d->last at the end) */
    uint64_t warp_insns, thread_insns, ga_insns, ga_overhead;
    /* barrier state of the running CTA */
    uint32_t bar_arrived[MAX_BARRIERS];
    uint32_t bar_expected[MAX_BARRIERS];
    uint32_t bar_red_acc[MAX_BARRIERS];
    uint32_t bar_red_op[MAX_BARRIERS];
} xctx_t;

/* Per-warp barrier bookkeeping kept outside emu_warp_t for the reduction variant. */

static inline uint32_t popc32(uint32_t x) { return (uint32_t)__builtin_popcount(x); }

/* ---------------------------------------------------------------------------------------------------
 * Fatal conditions. */

static void fatal(xctx_t *X, emu_warp_t *w, const emu_insn_t *in, emu_status_t st, const char *fmt, ...)
{
    if (X->L->status != EMU_OK) return;
    X->L->status = st;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(X->L->msg, sizeof X->L->msg, fmt, ap);
    va_end(ap);
    emu_report_fatal(X->d, X->L, X->sm, w, in, "%s", X->L->msg);
}

/* ---------------------------------------------------------------------------------------------------
 * Frames. */

static void frame_init(xctx_t *X, emu_warp_t *w, emu_frame_t *fr)
{
    const emu_func_t *f = fr->fn;
    uint64_t *rf = fr->rf;
    emu_launch_t *L = X->L;
    for (uint32_t i = 0; i < f->nconst; i++) {
        uint64_t v = f->const_val[i];
        uint64_t *row = rf + (size_t)(f->const_first + i) * EMU_LANES;
        for (unsigned l = 0; l < EMU_LANES; l++) row[l] = v;
    }
    for (uint32_t i = 0; i < f->nsregs; i++) {
        uint64_t *row = rf + (size_t)f->sregs[i].slot * EMU_LANES;
        unsigned c = f->sregs[i].comp;
        for (unsigned l = 0; l < EMU_LANES; l++) {
            uint64_t v = 0;
            switch (f->sregs[i].sreg) {
            case PTX_SREG_TID: v = w->tid[l][c < 3 ? c : 0]; break;
            case PTX_SREG_NTID: v = c == 0 ? L->block.x : c == 1 ? L->block.y : L->block.z; break;
            case PTX_SREG_CTAID: v = X->cta->ctaid[c < 3 ? c : 0]; break;
            case PTX_SREG_NCTAID: v = c == 0 ? L->grid.x : c == 1 ? L->grid.y : L->grid.z; break;
            case PTX_SREG_LANEID: v = l; break;
            case PTX_SREG_WARPID: v = w->id; break;
            case PTX_SREG_NWARPID: v = 64; break;
            case PTX_SREG_SMID: v = X->sm->index; break;
            case PTX_SREG_NSMID: v = X->d->cfg.sms; break;
            case PTX_SREG_GRIDID: v = L->gridid; break;
            case PTX_SREG_LANEMASK_EQ: v = UINT32_C(1) << l; break;
            case PTX_SREG_LANEMASK_LE: v = (uint32_t)((UINT64_C(2) << l) - 1u); break;
            case PTX_SREG_LANEMASK_LT: v = (uint32_t)((UINT64_C(1) << l) - 1u); break;
            case PTX_SREG_LANEMASK_GE: v = (uint32_t)~((UINT64_C(1) << l) - 1u); break;
            case PTX_SREG_LANEMASK_GT: v = (uint32_t)~((UINT64_C(2) << l) - 1u); break;
            case PTX_SREG_TOTAL_SMEM_SIZE:
            case PTX_SREG_AGGR_SMEM_SIZE: v = L->shared_bytes; break;
            case PTX_SREG_DYNAMIC_SMEM_SIZE: v = L->dyn_shared; break;
            case PTX_SREG_CLUSTERID:
            case PTX_SREG_CLUSTER_CTAID:
            case PTX_SREG_CLUSTER_CTARANK: v = 0; break;
            case PTX_SREG_NCLUSTERID: v = c == 0 ? L->grid.x : c == 1 ? L->grid.y : L->grid.z; break;
            case PTX_SREG_CLUSTER_NCTAID: v = 1; break;
            case PTX_SREG_CLUSTER_NCTARANK: v = 1; break;
            default: v = 0; break;
            }
            row[l] = v;
        }
    }
    for (uint32_t i = 0; i < f->nlocals; i++) {
        uint64_t *row = rf + (size_t)f->locals[i].slot * EMU_LANES;
        uint64_t v = (uint64_t)fr->local_base + f->locals[i].local_off;
        for (unsigned l = 0; l < EMU_LANES; l++) row[l] = v;
    }
    uint64_t *cc = rf + (size_t)f->cc_slot * EMU_LANES;
    for (unsigned l = 0; l < EMU_LANES; l++) cc[l] = 0;
}

static int push_simt(emu_warp_t *w, uint32_t pc, uint32_t rpc, uint32_t mask)
{
    if (w->nsimt == w->cap_simt) {
        uint32_t nc = w->cap_simt ? w->cap_simt * 2 : 16;
        emu_simt_t *ns = realloc(w->simt, (size_t)nc * sizeof *ns);
        if (ns == NULL) return -1;
        w->simt = ns;
        w->cap_simt = nc;
    }
    w->simt[w->nsimt].pc = pc;
    w->simt[w->nsimt].rpc = rpc;
    w->simt[w->nsimt].mask = mask;
    w->nsimt++;
    return 0;
}

/* Push a frame for function f with mask m; its local window starts at the warp's stack pointer. */
static int push_frame(xctx_t *X, emu_warp_t *w, const emu_func_t *f, uint32_t ret_pc, uint32_t caller_insn,
                      uint32_t mask)
{
    if (w->nframes >= MAX_FRAMES) return -2;
    if (w->nframes == w->cap_frames) {
        uint32_t nc = w->cap_frames ? w->cap_frames * 2 : 4;
        emu_frame_t *nf = realloc(w->frames, (size_t)nc * sizeof *nf);
        if (nf == NULL) return -1;
        w->frames = nf;
        w->cap_frames = nc;
    }
    uint32_t base = (w->local_sp + 15u) & ~15u;
    if ((uint64_t)base + f->local_bytes > X->stack_bytes) return -2;
    emu_frame_t *fr = &w->frames[w->nframes];
    memset(fr, 0, sizeof *fr);
    fr->fn = f;
    fr->rf = malloc((size_t)f->nslots * EMU_LANES * sizeof(uint64_t));
    fr->params = f->param_bytes ? calloc(EMU_LANES, f->param_bytes) : NULL;
    fr->pinit = f->param_bytes ? calloc(f->param_bytes, sizeof *fr->pinit) : NULL;
    if (fr->rf == NULL || (f->param_bytes && (fr->params == NULL || fr->pinit == NULL))) {
        free(fr->rf);
        free(fr->params);
        free(fr->pinit);
        return -1;
    }
    fr->local_base = base;
    fr->ret_pc = ret_pc;
    fr->caller_insn = caller_insn;
    fr->simt_base = w->nsimt;
    w->local_sp = base + f->local_bytes;
    w->nframes++;
    frame_init(X, w, fr);
    if (f->local_bytes && w->local == NULL) {
        w->local = calloc(EMU_LANES, X->stack_bytes);
        if (w->local == NULL) return -1;
    }
    if (push_simt(w, f->start, EMU_NONE, mask)) return -1;
    return 0;
}

static void pop_frame(emu_warp_t *w)
{
    emu_frame_t *fr = &w->frames[w->nframes - 1];
    w->nsimt = fr->simt_base;
    w->local_sp = fr->local_base;
    free(fr->rf);
    free(fr->params);
    free(fr->pinit);
    w->nframes--;
}

/* ---------------------------------------------------------------------------------------------------
 * Memory. */

static inline uint8_t *gptr(xctx_t *X, uint64_t va, unsigned n)
{
    emu_region_t *r = X->rc;
    if (r && va >= r->lo && va < r->hi && n <= r->hi - va) return r->host + (va - r->lo);
    r = emu_region_find(X->d, va);
    if (r == NULL || n > r->hi - va) return NULL;
    X->rc = r;
    return r->host + (va - r->lo);
}

/* Resolve a lane's address in space sp (NONE = generic). *kind: 0 global, 1 shared, 2 local. */
static inline uint8_t *resolve(xctx_t *X, emu_warp_t *w, unsigned sp, uint64_t addr, unsigned n, unsigned lane,
                               int *kind)
{
    if (sp == PTX_SPACE_NONE) {
        uint64_t hi = addr >> 32;
        if (hi == (EMU_SHARED_WIN >> 32)) {
            sp = PTX_SPACE_SHARED;
        } else if (hi == (EMU_LOCAL_WIN >> 32)) {
            sp = PTX_SPACE_LOCAL;
        } else {
            sp = PTX_SPACE_GLOBAL;
        }
    }
    switch (sp) {
    case PTX_SPACE_SHARED:
    case PTX_SPACE_SHARED_CTA: {
        *kind = 1;
        uint32_t off = (uint32_t)addr;
        if ((uint64_t)off + n > X->cta->shared_bytes) return NULL;
        return X->cta->shared + off;
    }
    case PTX_SPACE_LOCAL: {
        *kind = 2;
        uint32_t off = (uint32_t)addr;
        if ((uint64_t)off + n > X->stack_bytes || w->local == NULL) return NULL;
        return w->local + (size_t)lane * X->stack_bytes + off;
    }
    default:
        *kind = 0;
        return gptr(X, addr & X->va_mask, n);
    }
}

static inline bool is_global_addr(unsigned sp, uint64_t addr)
{
    if (sp == PTX_SPACE_GLOBAL) return true;
    if (sp != PTX_SPACE_NONE) return false;
    uint64_t hi = addr >> 32;
    return hi != (EMU_SHARED_WIN >> 32) && hi != (EMU_LOCAL_WIN >> 32);
}

static inline uint64_t load_le(const uint8_t *p, unsigned n)
{
    uint64_t v = 0;
    memcpy(&v, p, n); /* little-endian host (x86-64, AArch64) */
    return v;
}

static inline void store_le(uint8_t *p, uint64_t v, unsigned n) { memcpy(p, &v, n); }

/* Extend an n-byte loaded value of type t to a register of w bytes. */
static inline uint64_t extend(uint64_t v, unsigned n, unsigned t, unsigned w)
{
    if (n >= 8) return v;
    bool sgn = (t == PTX_T_S8 || t == PTX_T_S16 || t == PTX_T_S32);
    if (sgn) {
        unsigned sh = 64u - 8u * n;
        v = (uint64_t)(((int64_t)(v << sh)) >> sh);
    }
    if (w < 8) v &= (UINT64_C(1) << (8u * w)) - 1u;
    return v;
}

static inline uint64_t wmask(unsigned bytes)
{
    return bytes >= 8 ? UINT64_MAX : (UINT64_C(1) << (8u * bytes)) - 1u;
}

static inline int64_t sx(uint64_t v, unsigned bytes)
{
    if (bytes >= 8) return (int64_t)v;
    unsigned sh = 64u - 8u * bytes;
    return ((int64_t)(v << sh)) >> sh;
}

/* Reading device memory for printf and assert messages, generic addresses of one lane. */
typedef struct {
    xctx_t *X;
    emu_warp_t *w;
    unsigned lane;
} reader_t;

static bool read_generic(void *ctx, uint64_t addr, void *buf, size_t n)
{
    reader_t *r = ctx;
    int kind;
    uint8_t *p = resolve(r->X, r->w, PTX_SPACE_NONE, addr, (unsigned)n, r->lane, &kind);
    if (p == NULL) return false;
    memcpy(buf, p, n);
    return true;
}

/* ---------------------------------------------------------------------------------------------------
 * GPUArmor requests. */

static void lm_note(emu_warp_t *w, uint64_t loc, uint64_t root)
{
    for (uint32_t i = 0; i < w->nlm; i++)
        if (w->lm_loc[i] == loc) {
            w->lm_root[i] = root;
            return;
        }
    if (w->nlm == w->cap_lm) {
        uint32_t nc = w->cap_lm ? w->cap_lm * 2 : 16;
        uint64_t *a = realloc(w->lm_loc, (size_t)nc * sizeof *a);
        if (a == NULL) return;
        w->lm_loc = a;
        uint64_t *b = realloc(w->lm_root, (size_t)nc * sizeof *b);
        if (b == NULL) return;
        w->lm_root = b;
        w->cap_lm = nc;
    }
    w->lm_loc[w->nlm] = loc;
    w->lm_root[w->nlm] = root;
    w->nlm++;
}

static bool lm_root_of(const emu_warp_t *w, uint64_t loc, uint64_t *root)
{
    for (uint32_t i = 0; i < w->nlm; i++)
        if (w->lm_loc[i] == loc) {
            *root = w->lm_root[i];
            return true;
        }
    return false;
}

/* A backend result: GA_OK, GA_ERR_HALTED (TERMINATE already reported the fault), anything else is an
 * internal error (or an RTL mismatch). Returns true when execution may go on. */
static bool be_ok(xctx_t *X, emu_warp_t *w, const emu_insn_t *in, ga_err_t e, const char *op)
{
    if (e == GA_OK) return true;
    if (e == GA_ERR_HALTED) {
        fatal(X, w, in, EMU_ERR_LAUNCH_FAILED,
              "GPUArmor stopped the kernel after a memory-safety error (TERMINATE policy)");
        return false;
    }
    fatal(X, w, in, EMU_ERR_INTERNAL, "the MLU refused a %s request: %s", op, ga_strerror(e));
    return false;
}

static bool after_fault(xctx_t *X, emu_warp_t *w, const emu_insn_t *in, const ga_warp_rsp_t *rsp)
{
    if (rsp->fault == 0) return true;
    if (X->d->cfg.policy == GA_POLICY_TERMINATE) {
        fatal(X, w, in, EMU_ERR_LAUNCH_FAILED,
              "GPUArmor stopped the kernel after a memory-safety error (TERMINATE policy)");
        return false;
    }
    return true;
}

/* HWOnly: check the global lanes of a memory instruction. Returns false on a fatal condition. */
static bool hw_check(xctx_t *X, emu_warp_t *w, const emu_insn_t *in, const uint64_t *addr, uint32_t m, bool store)
{
    ga_warp_req_t req;
    memset(&req, 0, sizeof req);
    uint32_t gm = 0;
    for (uint32_t mm = m; mm; mm &= mm - 1) {
        unsigned l = (unsigned)__builtin_ctz(mm);
        if (is_global_addr(in->space, addr[l])) {
            gm |= 1u << l;
            req.addr[l] = addr[l];
        }
    }
    if (gm == 0) return true;
    req.lanes = EMU_LANES;
    req.active = gm;
    req.warp = (uint16_t)w->id;
    req.size = in->size;
    ga_warp_rsp_t rsp;
    ga_err_t e = X->d->be.access(X->d->be.ctx, X->sm->index, &req, &rsp);
    X->d->last.hw_checks++;
    emu_trace_global(X->d, store, X->sm->index, w->id, &req, GA_ROOT_LANE, 0);
    if (!be_ok(X, w, in, e, "HWOnly access")) return false;
    if (rsp.fault) {
        X->d->last.detections++;
        w->ga_flagged |= rsp.fault;
        emu_report_mlu(X->d, X->L, X->sm, w, in, store ? "write" : "read", &req, &rsp, -1);
    }
    return after_fault(X, w, in, &rsp);
}

/* Read a param-area value of n bytes for lane l (call-scope parameters of the current frame). */
static inline uint64_t prm_get(const emu_frame_t *fr, uint32_t off, unsigned l, unsigned n)
{
    return load_le(fr->params + (size_t)l * fr->fn->param_bytes + off, n);
}
/* Mark n bytes at off written by the lanes of m. */
static inline void prm_mark(emu_frame_t *fr, uint32_t off, uint32_t m, unsigned n)
{
    for (unsigned k = 0; k < n; k++) fr->pinit[off + k] |= m;
}
static inline void prm_put(emu_frame_t *fr, uint32_t off, unsigned l, uint64_t v, unsigned n)
{
    store_le(fr->params + (size_t)l * fr->fn->param_bytes + off, v, n);
    prm_mark(fr, off, 1u << l, n);
}
/* True when the n bytes at off were written for every lane of m (first and last byte: a parameter is
 * written whole by st.param or a call's copy). */
static inline bool prm_written(const emu_frame_t *fr, uint32_t off, uint32_t m, unsigned n)
{
    return n == 0 || ((fr->pinit[off] & m) == m && (fr->pinit[off + n - 1] & m) == m);
}
/* The arguments of a native call (GPUArmor instructions, printf, assert) must have been written. */
static bool args_written(xctx_t *X, emu_warp_t *w, emu_frame_t *fr, const emu_insn_t *in, uint32_t m,
                         const unsigned *sizes)
{
    for (uint32_t k = 0; k < in->nargs; k++)
        if (!prm_written(fr, X->m->pool[in->arg_first + k], m, sizes[k])) {
            fatal(X, w, in, EMU_ERR_INVALID_PTX,
                  "argument %u of the call was not written (st.param) before the call: the kernel reads an "
                  "uninitialised parameter", k);
            return false;
        }
    return true;
}

static bool ga_loadmeta(xctx_t *X, emu_warp_t *w, emu_frame_t *fr, const emu_insn_t *in, uint32_t m)
{
    uint32_t aoff = X->m->pool[in->arg_first];
    uint32_t roff = in->nrets ? X->m->pool[in->ret_first] : EMU_NONE;
    uint32_t todo = m;
    while (todo) {
        unsigned l0 = (unsigned)__builtin_ctz(todo);
        uint64_t root = prm_get(fr, aoff, l0, 8);
        uint32_t grp = 0;
        for (uint32_t mm = todo; mm; mm &= mm - 1) {
            unsigned l = (unsigned)__builtin_ctz(mm);
            if (prm_get(fr, aoff, l, 8) == root) grp |= 1u << l;
        }
        todo &= ~grp;
        uint64_t rd = 0;
        if (X->compiler) {
            ga_err_t e = X->d->be.loadmeta(X->d->be.ctx, X->sm->index, root, &rd);
            X->d->last.loadmeta++;
            emu_trace_loadmeta(X->d, X->sm->index, w->id, root);
            if (!be_ok(X, w, in, e, "LOADMETA")) return false;
            lm_note(w, rd, root);
        }
        if (roff != EMU_NONE)
            for (uint32_t mm = grp; mm; mm &= mm - 1) prm_put(fr, roff, (unsigned)__builtin_ctz(mm), rd, 8);
    }
    return true;
}

static bool ga_memcheck_g(xctx_t *X, emu_warp_t *w, emu_frame_t *fr, const emu_insn_t *in, uint32_t m)
{
    const uint32_t *pool = X->m->pool + in->arg_first;
    uint32_t roff = in->nrets ? X->m->pool[in->ret_first] : EMU_NONE;
    uint32_t todo = m;
    while (todo) {
        unsigned l0 = (unsigned)__builtin_ctz(todo);
        uint64_t md = prm_get(fr, pool[1], l0, 8);
        uint32_t info = (uint32_t)prm_get(fr, pool[2], l0, 4);
        uint32_t grp = 0;
        ga_warp_req_t req;
        memset(&req, 0, sizeof req);
        for (uint32_t mm = todo; mm; mm &= mm - 1) {
            unsigned l = (unsigned)__builtin_ctz(mm);
            if (prm_get(fr, pool[1], l, 8) == md) {
                grp |= 1u << l;
                req.addr[l] = prm_get(fr, pool[0], l, 8);
            }
        }
        todo &= ~grp;
        req.lanes = EMU_LANES;
        req.active = grp;
        req.warp = (uint16_t)w->id;
        req.size = info & 0xffu;
        int cls = (int)((info >> 8) & 3u);
        bool store = (info >> 10) & 1u;
        if (!X->compiler) { /* a pre-instrumented module run without compiler mode: strip only */
            for (uint32_t mm = grp; mm; mm &= mm - 1) {
                unsigned l = (unsigned)__builtin_ctz(mm);
                if (roff != EMU_NONE) prm_put(fr, roff, l, req.addr[l] & X->va_mask, 8);
            }
            continue;
        }
        if (req.size != 1 && req.size != 2 && req.size != 4 && req.size != 8 && req.size != 16) {
            fatal(X, w, in, EMU_ERR_INVALID_PTX, "__ga_memcheck_g: access size %u in its info word is not 1, 2, 4, 8 or 16",
                  req.size);
            return false;
        }
        ga_warp_rsp_t rsp;
        ga_err_t e = X->d->be.memcheck_g(X->d->be.ctx, X->sm->index, &req, md, &rsp);
        X->d->last.memcheck_g++;
        if (cls == 0)
            X->d->last.memcheck_g_full++;
        else if (cls == 1)
            X->d->last.memcheck_g_partial++;
        else
            X->d->last.memcheck_g_tagging++;
        uint64_t root = 0;
        if (lm_root_of(w, md, &root))
            emu_trace_global(X->d, store, X->sm->index, w->id, &req, GA_ROOT_PTR, root);
        else
            emu_trace_global(X->d, store, X->sm->index, w->id, &req, -1, md);
        if (!be_ok(X, w, in, e, "MEMCHECK.G")) return false;
        for (uint32_t mm = grp; mm; mm &= mm - 1) {
            unsigned l = (unsigned)__builtin_ctz(mm);
            if (roff != EMU_NONE) prm_put(fr, roff, l, rsp.addr[l], 8);
        }
        if (rsp.fault) {
            X->d->last.detections++;
            w->ga_flagged |= rsp.fault;
            emu_report_mlu(X->d, X->L, X->sm, w, in, store ? "write" : "read", &req, &rsp, cls);
            if (!after_fault(X, w, in, &rsp)) return false;
        }
    }
    return true;
}

static bool ga_memcheck_s(xctx_t *X, emu_warp_t *w, emu_frame_t *fr, const emu_insn_t *in, uint32_t m)
{
    if (!X->compiler) return true;
    const uint32_t *pool = X->m->pool + in->arg_first;
    uint32_t todo = m;
    while (todo) {
        unsigned l0 = (unsigned)__builtin_ctz(todo);
        uint32_t base = (uint32_t)prm_get(fr, pool[1], l0, 4);
        uint32_t ssize = (uint32_t)prm_get(fr, pool[2], l0, 4);
        uint32_t info = (uint32_t)prm_get(fr, pool[3], l0, 4);
        uint32_t grp = 0;
        ga_warp_req_t req;
        memset(&req, 0, sizeof req);
        for (uint32_t mm = todo; mm; mm &= mm - 1) {
            unsigned l = (unsigned)__builtin_ctz(mm);
            if ((uint32_t)prm_get(fr, pool[1], l, 4) == base && (uint32_t)prm_get(fr, pool[2], l, 4) == ssize) {
                grp |= 1u << l;
                req.addr[l] = (uint32_t)prm_get(fr, pool[0], l, 4);
            }
        }
        todo &= ~grp;
        req.lanes = EMU_LANES;
        req.active = grp;
        req.warp = (uint16_t)w->id;
        req.size = info & 0xffu;
        bool store = (info >> 10) & 1u;
        if (req.size != 1 && req.size != 2 && req.size != 4 && req.size != 8 && req.size != 16) {
            fatal(X, w, in, EMU_ERR_INVALID_PTX, "__ga_memcheck_s: access size %u is not 1, 2, 4, 8 or 16", req.size);
            return false;
        }
        ga_warp_rsp_t rsp;
        ga_err_t e = X->d->be.memcheck_s(X->d->be.ctx, X->sm->index, &req, base, ssize, &rsp);
        X->d->last.memcheck_s++;
        emu_trace_shared(X->d, store, X->sm->index, w->id, &req, base, ssize);
        if (!be_ok(X, w, in, e, "MEMCHECK.S")) return false;
        if (rsp.fault) {
            X->d->last.detections++;
            w->ga_flagged |= rsp.fault;
            emu_report_mlu(X->d, X->L, X->sm, w, in, store ? "write" : "read", &req, &rsp, -1);
            if (!after_fault(X, w, in, &rsp)) return false;
        }
    }
    return true;
}

/* ---------------------------------------------------------------------------------------------------
 * Comparisons, conversions. */

static inline bool cmp_int(unsigned op, uint64_t a, uint64_t b, unsigned t)
{
    unsigned n = ptx_type_bytes((ptx_type_t)t);
    bool sgn = ptx_type_is_signed((ptx_type_t)t);
    uint64_t ua = a & wmask(n), ub = b & wmask(n);
    int64_t sa = sx(a, n), sb = sx(b, n);
    switch (op) {
    case 1: return ua == ub;
    case 2: return ua != ub;
    case 3: return sgn ? sa < sb : ua < ub;
    case 4: return sgn ? sa <= sb : ua <= ub;
    case 5: return sgn ? sa > sb : ua > ub;
    case 6: return sgn ? sa >= sb : ua >= ub;
    case 7: return ua < ub;  /* lo */
    case 8: return ua <= ub; /* ls */
    case 9: return ua > ub;  /* hi */
    case 10: return ua >= ub; /* hs */
    default: return false;
    }
}

static inline bool cmp_f(unsigned op, double a, double b)
{
    bool un = isnan(a) || isnan(b);
    switch (op) {
    case 1: return !un && a == b;
    case 2: return !un && a != b;
    case 3: return !un && a < b;
    case 4: return !un && a <= b;
    case 5: return !un && a > b;
    case 6: return !un && a >= b;
    case 11: return un || a == b;
    case 12: return un || a != b;
    case 13: return un || a < b;
    case 14: return un || a <= b;
    case 15: return un || a > b;
    case 16: return un || a >= b;
    case 17: return !un;
    case 18: return un;
    default: return false;
    }
}

static inline double fval(uint64_t v, unsigned t)
{
    switch (t) {
    case PTX_T_F64: return emu_as_f64(v);
    case PTX_T_F16: return emu_f16_to_f32((uint16_t)v);
    case PTX_T_BF16: return emu_bf16_to_f32((uint16_t)v);
    default: return emu_as_f32(v);
    }
}

/* An f32 result's bits: a NaN is the canonical NaN 0x7fffffff whatever the inputs' payloads, as the
 * H100 gives it (JIT-compiled PTX and sm_90 SASS alike; docs/emulator.md, "Against a real GPU"), not
 * the host's propagated payload or its default NaN 0xffc00000. PTX leaves single-precision NaN results
 * unspecified (PTX ISA, "Floating-Point Instructions"); f64 results keep payloads, which PTX supports. */
static inline uint64_t f32_result(float v)
{
    return isnan(v) ? UINT64_C(0x7fffffff) : emu_f32_bits(v);
}

static uint64_t cvt_value(const emu_insn_t *in, uint64_t a)
{
    unsigned dt = in->t, st = in->t2;
    unsigned dn = ptx_type_bytes((ptx_type_t)dt), sn = ptx_type_bytes((ptx_type_t)st);
    bool dflt = dt == PTX_T_F32 || dt == PTX_T_F64 || dt == PTX_T_F16 || dt == PTX_T_BF16;
    bool sflt = st == PTX_T_F32 || st == PTX_T_F64 || st == PTX_T_F16 || st == PTX_T_BF16;
    int r = in->rnd;
    bool sat = in->flags & EF_SAT;
    bool ftz = in->flags & EF_FTZ;
    uint64_t out;
    if (!sflt && !dflt) {
        /* integer to integer */
        bool ss = ptx_type_is_signed((ptx_type_t)st), ds = ptx_type_is_signed((ptx_type_t)dt);
        if (ss) {
            int64_t v = sx(a, sn);
            if (sat) {
                int64_t lo = ds ? (dn >= 8 ? INT64_MIN : -(INT64_C(1) << (8 * dn - 1))) : 0;
                int64_t hi = ds ? (dn >= 8 ? INT64_MAX : (INT64_C(1) << (8 * dn - 1)) - 1)
                                : (dn >= 8 ? INT64_MAX : (int64_t)wmask(dn));
                if (v < lo) v = lo;
                if (v > hi) v = hi;
            }
            out = (uint64_t)v;
        } else {
            uint64_t v = a & wmask(sn);
            if (sat) {
                uint64_t hi = ds ? (dn >= 8 ? (uint64_t)INT64_MAX : (UINT64_C(1) << (8 * dn - 1)) - 1) : wmask(dn);
                if (v > hi) v = hi;
            }
            out = v;
        }
        out &= wmask(dn);
        /* the destination register may be wider than the type: sign-extend signed types */
        if (ds) out = (uint64_t)sx(out, dn);
        return out & wmask(in->dwidth ? in->dwidth : dn);
    }
    if (sflt && dflt) {
        double v = fval(a, st);
        if (st == PTX_T_F32 && ftz) v = emu_ftz32((float)v);
        if (r >= ER_RNI && r <= ER_RPI) v = emu_round_integral(v, r);
        if (sat) v = !(v > 0.0) ? 0.0 : v > 1.0 ? 1.0 : v;
        int fr = (r >= ER_RN && r <= ER_RP) ? r : ER_RN;
        switch (dt) {
        case PTX_T_F64: return emu_f64_bits(st == PTX_T_F64 ? v : v);
        case PTX_T_F32: {
            float f = (st == PTX_T_F64) ? emu_f64_to_f32(v, fr) : (float)v;
            if (ftz) f = emu_ftz32(f);
            return st == PTX_T_F32 ? f32_result(f) : emu_f32_bits(f);
        }
        case PTX_T_F16: return (st == PTX_T_F64) ? emu_f64_to_f16(v, fr) : emu_f32_to_f16((float)v, fr);
        case PTX_T_BF16: return emu_f32_to_bf16((float)v, fr);
        default: return 0;
        }
    }
    if (sflt) {
        /* float to integer: round to integral (default RZI), saturate, NaN -> 0 */
        double v = fval(a, st);
        if (st == PTX_T_F32 && ftz) v = emu_ftz32((float)v);
        int ir = (r >= ER_RNI && r <= ER_RPI) ? r : (r == ER_RN ? ER_RNI : r == ER_RM ? ER_RMI : r == ER_RP ? ER_RPI : ER_RZI);
        if (ptx_type_is_signed((ptx_type_t)dt)) {
            int64_t lo = dn >= 8 ? INT64_MIN : -(INT64_C(1) << (8 * dn - 1));
            int64_t hi = dn >= 8 ? INT64_MAX : (INT64_C(1) << (8 * dn - 1)) - 1;
            int64_t x = emu_f64_to_i64_sat(v, ir, lo, hi);
            out = (uint64_t)x & wmask(dn);
            out = (uint64_t)sx(out, dn);
        } else {
            out = emu_f64_to_u64_sat(v, ir, wmask(dn));
        }
        return out & wmask(in->dwidth ? in->dwidth : dn);
    }
    /* integer to float */
    int fr = (r >= ER_RN && r <= ER_RP) ? r : ER_RN;
    bool ss = ptx_type_is_signed((ptx_type_t)st);
    switch (dt) {
    case PTX_T_F64: return emu_f64_bits(ss ? emu_i64_to_f64(sx(a, sn), fr) : emu_u64_to_f64(a & wmask(sn), fr));
    case PTX_T_F32: {
        float f = ss ? emu_i64_to_f32(sx(a, sn), fr) : emu_u64_to_f32(a & wmask(sn), fr);
        if (sat) f = !(f > 0.0f) ? 0.0f : f > 1.0f ? 1.0f : f;
        return emu_f32_bits(f);
    }
    case PTX_T_F16: {
        double dv = ss ? (double)sx(a, sn) : (double)(a & wmask(sn));
        return emu_f64_to_f16(dv, fr);
    }
    case PTX_T_BF16: {
        float f = ss ? emu_i64_to_f32(sx(a, sn), fr) : emu_u64_to_f32(a & wmask(sn), fr);
        return emu_f32_to_bf16(f, fr);
    }
    default: return 0;
    }
}

/* Float binary/ternary operation on one lane for type t. */
static uint64_t fop(unsigned op, const emu_insn_t *in, uint64_t a, uint64_t b, uint64_t c)
{
    unsigned t = in->t;
    int r = in->rnd;
    bool ftz = in->flags & EF_FTZ, sat = in->flags & EF_SAT;
    if (t == PTX_T_F16X2 || t == PTX_T_BF16X2) {
        emu_insn_t sub = *in;
        sub.t = (t == PTX_T_F16X2) ? PTX_T_F16 : PTX_T_BF16;
        uint64_t lo = fop(op, &sub, a & 0xffff, b & 0xffff, c & 0xffff);
        uint64_t hi = fop(op, &sub, (a >> 16) & 0xffff, (b >> 16) & 0xffff, (c >> 16) & 0xffff);
        return (lo & 0xffff) | ((hi & 0xffff) << 16);
    }
    if (t == PTX_T_F64) {
        double x = emu_as_f64(a), y = emu_as_f64(b), z = emu_as_f64(c), v;
        switch (op) {
        case EOP_FADD: v = (r <= ER_RN) ? x + y : emu_f64_add(x, y, r); break;
        case EOP_FSUB: v = (r <= ER_RN) ? x - y : emu_f64_sub(x, y, r); break;
        case EOP_FMUL: v = (r <= ER_RN) ? x * y : emu_f64_mul(x, y, r); break;
        case EOP_FFMA: v = (r <= ER_RN) ? fma(x, y, z) : emu_f64_fma(x, y, z, r); break;
        case EOP_FDIV: v = (r <= ER_RN) ? x / y : emu_f64_div(x, y, r); break;
        case EOP_FRCP: v = (r <= ER_RN) ? 1.0 / x : emu_f64_div(1.0, x, r); break;
        case EOP_FSQRT: v = (r <= ER_RN) ? sqrt(x) : emu_f64_sqrt(x, r); break;
        case EOP_FRSQRT: v = 1.0 / sqrt(x); break;
        case EOP_FSIN: v = sin(x); break;
        case EOP_FCOS: v = cos(x); break;
        case EOP_FLG2: v = log2(x); break;
        case EOP_FEX2: v = exp2(x); break;
        case EOP_FTANH: v = tanh(x); break;
        default: v = 0; break;
        }
        if (sat) v = !(v > 0.0) ? 0.0 : v > 1.0 ? 1.0 : v;
        return emu_f64_bits(v);
    }
    if (t == PTX_T_F16 || t == PTX_T_BF16) {
        double x = fval(a, t), y = fval(b, t), z = fval(c, t), v;
        switch (op) {
        case EOP_FADD: v = x + y; break;
        case EOP_FSUB: v = x - y; break;
        case EOP_FMUL: v = x * y; break;
        case EOP_FFMA: v = fma(x, y, z); break;
        case EOP_FDIV: v = x / y; break;
        case EOP_FRCP: v = 1.0 / x; break;
        case EOP_FSQRT: v = sqrt(x); break;
        case EOP_FRSQRT: v = 1.0 / sqrt(x); break;
        case EOP_FSIN: v = sin(x); break;
        case EOP_FCOS: v = cos(x); break;
        case EOP_FLG2: v = log2(x); break;
        case EOP_FEX2: v = exp2(x); break;
        case EOP_FTANH: v = tanh(x); break;
        default: v = 0; break;
        }
        if (sat) v = !(v > 0.0) ? 0.0 : v > 1.0 ? 1.0 : v;
        int fr = (r >= ER_RN && r <= ER_RP) ? r : ER_RN;
        return t == PTX_T_F16 ? emu_f64_to_f16(v, fr) : emu_f32_to_bf16((float)v, fr);
    }
    float x = emu_as_f32(a), y = emu_as_f32(b), z = emu_as_f32(c), v;
    if (ftz) {
        x = emu_ftz32(x);
        y = emu_ftz32(y);
        z = emu_ftz32(z);
    }
    switch (op) {
    case EOP_FADD: v = (r <= ER_RN) ? x + y : emu_f32_add(x, y, r); break;
    case EOP_FSUB: v = (r <= ER_RN) ? x - y : emu_f32_sub(x, y, r); break;
    case EOP_FMUL: v = (r <= ER_RN) ? x * y : emu_f32_mul(x, y, r); break;
    case EOP_FFMA: v = (r <= ER_RN) ? fmaf(x, y, z) : emu_f32_fma(x, y, z, r); break;
    case EOP_FDIV: v = (r <= ER_RN) ? x / y : emu_f32_div(x, y, r); break;
    case EOP_FRCP: v = (r <= ER_RN) ? 1.0f / x : emu_f32_div(1.0f, x, r); break;
    case EOP_FSQRT: v = (r <= ER_RN) ? sqrtf(x) : emu_f32_sqrt(x, r); break;
    case EOP_FRSQRT: v = 1.0f / sqrtf(x); break;
    case EOP_FSIN: v = sinf(x); break;
    case EOP_FCOS: v = cosf(x); break;
    case EOP_FLG2: v = log2f(x); break;
    case EOP_FEX2: v = exp2f(x); break;
    case EOP_FTANH: v = tanhf(x); break;
    default: v = 0; break;
    }
    if (ftz) v = emu_ftz32(v);
    if (sat) v = !(v > 0.0f) ? 0.0f : v > 1.0f ? 1.0f : v;
    return f32_result(v);
}

static uint64_t fminmax(bool mx, const emu_insn_t *in, uint64_t a, uint64_t b)
{
    unsigned t = in->t;
    if (t == PTX_T_F16X2 || t == PTX_T_BF16X2) {
        emu_insn_t sub = *in;
        sub.t = (t == PTX_T_F16X2) ? PTX_T_F16 : PTX_T_BF16;
        return (fminmax(mx, &sub, a & 0xffff, b & 0xffff) & 0xffff) |
               ((fminmax(mx, &sub, (a >> 16) & 0xffff, (b >> 16) & 0xffff) & 0xffff) << 16);
    }
    double x = fval(a, t), y = fval(b, t);
    if ((in->flags & EF_FTZ) && t == PTX_T_F32) {
        x = emu_ftz32((float)x);
        y = emu_ftz32((float)y);
    }
    bool nanx = isnan(x), nany = isnan(y);
    uint64_t qnan = t == PTX_T_F64 ? UINT64_C(0x7ff8000000000000) : t == PTX_T_F32 ? 0x7fffffffu : t == PTX_T_F16 ? 0x7fff : 0x7fc0;
    if (nanx || nany) {
        if ((in->sub & 1) || (nanx && nany)) return qnan;
        return nanx ? b : a;
    }
    if (x == y) { /* signed zeros: min prefers -0, max prefers +0 */
        uint64_t sbit = t == PTX_T_F64 ? UINT64_C(1) << 63 : t == PTX_T_F32 ? (UINT64_C(1) << 31) : (UINT64_C(1) << 15);
        return mx ? (a & b) | (a & ~sbit) : (a | (b & sbit));
    }
    bool pick_a = mx ? x > y : x < y;
    uint64_t rv = pick_a ? a : b;
    if ((in->flags & EF_FTZ) && t == PTX_T_F32) rv = emu_f32_bits(emu_ftz32(emu_as_f32(rv)));
    return rv;
}

static uint64_t atom_apply(unsigned aop, unsigned t, uint64_t old, uint64_t b, uint64_t c, unsigned n)
{
    bool sgn = ptx_type_is_signed((ptx_type_t)t);
    uint64_t m = wmask(n);
    switch (aop) {
    case 1: /* add */
        if (t == PTX_T_F32) return emu_f32_bits(emu_as_f32(old) + emu_as_f32(b));
        if (t == PTX_T_F64) return emu_f64_bits(emu_as_f64(old) + emu_as_f64(b));
        return (old + b) & m;
    case 2: /* min */
        if (t == PTX_T_F32) return fminf(emu_as_f32(old), emu_as_f32(b)) == emu_as_f32(old) ? old : b;
        return sgn ? (sx(b, n) < sx(old, n) ? b : old) : ((b & m) < (old & m) ? b : old);
    case 3: /* max */
        if (t == PTX_T_F32) return fmaxf(emu_as_f32(old), emu_as_f32(b)) == emu_as_f32(old) ? old : b;
        return sgn ? (sx(b, n) > sx(old, n) ? b : old) : ((b & m) > (old & m) ? b : old);
    case 4: /* inc: ((old >= b) ? 0 : old + 1) */ return ((old & m) >= (b & m)) ? 0 : (old + 1) & m;
    case 5: /* dec: (old == 0 || old > b) ? b : old - 1 */
        return ((old & m) == 0 || (old & m) > (b & m)) ? (b & m) : (old - 1) & m;
    case 6: return old & b & m;
    case 7: return (old | b) & m;
    case 8: return (old ^ b) & m;
    case 9: return b & m;
    case 10: return ((old & m) == (b & m)) ? (c & m) : old;
    default: return old;
    }
}

/* ---------------------------------------------------------------------------------------------------
 * Memory instructions. */

static bool addr_of(xctx_t *X, emu_warp_t *w, emu_frame_t *fr, const emu_insn_t *in, uint32_t m, uint64_t *addr)
{
    (void)w;
    if (in->mbase == MB_SLOT) {
        const uint64_t *A = fr->rf + (size_t)in->a * EMU_LANES;
        for (uint32_t mm = m; mm; mm &= mm - 1) {
            unsigned l = (unsigned)__builtin_ctz(mm);
            addr[l] = A[l] + (uint64_t)in->off;
        }
        return true;
    }
    (void)X;
    return true;
}

/* The common start of a global/shared/local/generic memory instruction: the lanes' addresses, the
 * HWOnly check of the global ones, and the lanes a GPUArmor check just reported (their access is not
 * reported again by the memory system). Returns false on a fatal condition. */
static bool mem_begin(xctx_t *X, emu_warp_t *w, emu_frame_t *fr, const emu_insn_t *in, uint32_t m, bool store,
                      uint64_t *addr, uint32_t *flagged)
{
    addr_of(X, w, fr, in, m, addr);
    if (X->hwonly && (in->space == PTX_SPACE_GLOBAL || in->space == PTX_SPACE_NONE))
        if (!hw_check(X, w, in, addr, m, store)) return false;
    *flagged = w->ga_flagged;
    w->ga_flagged = 0;
    return true;
}

/* A lane's access that lands outside every allocation (resolve() gave NULL): reported unless GPUArmor
 * already reported it; under TERMINATE the kernel stops. Returns false on a fatal condition. */
static bool illegal_lane(xctx_t *X, emu_warp_t *w, const emu_insn_t *in, unsigned l, uint64_t addr, unsigned size,
                         bool store, int kind, uint32_t flagged)
{
    if (flagged & (1u << l)) return true;
    X->d->last.illegal_accesses++;
    emu_report_illegal(X->d, X->L, X->sm, w, in, l, addr, size, store,
                       kind == 0 ? NULL : kind == 1 ? "shared" : "local");
    if (X->d->cfg.policy == GA_POLICY_TERMINATE) {
        fatal(X, w, in, EMU_ERR_LAUNCH_FAILED, "an illegal address stopped the kernel");
        return false;
    }
    return true;
}

static bool do_ld(xctx_t *X, emu_warp_t *w, emu_frame_t *fr, const emu_insn_t *in, uint32_t m)
{
    uint64_t *rf = fr->rf;
    unsigned n = in->elem;
    if (in->space == PTX_SPACE_PARAM || in->mbase != MB_SLOT) {
        for (uint32_t mm = m; mm; mm &= mm - 1) {
            unsigned l = (unsigned)__builtin_ctz(mm);
            for (unsigned k = 0; k < in->vec; k++) {
                uint64_t off = (uint64_t)in->off + (uint64_t)k * n;
                uint64_t v;
                if (in->mbase == MB_PARAM_KERNEL) {
                    if (off + n > X->L->kfn->kparam_bytes) {
                        fatal(X, w, in, EMU_ERR_INVALID_PTX, "ld.param reads past the kernel's %u parameter bytes",
                              X->L->kfn->kparam_bytes);
                        return false;
                    }
                    v = load_le(X->L->kparams + off, n);
                } else {
                    if (off + n > fr->fn->param_bytes) {
                        fatal(X, w, in, EMU_ERR_INVALID_PTX, "ld.param reads past the parameter area");
                        return false;
                    }
                    if (l == (unsigned)__builtin_ctz(m) && !prm_written(fr, (uint32_t)off, m, n)) {
                        fatal(X, w, in, EMU_ERR_INVALID_PTX,
                              "ld.param reads a parameter that was never written (an uninitialised parameter: a "
                              "call argument without its st.param, or a result the callee did not return)");
                        return false;
                    }
                    v = prm_get(fr, (uint32_t)off, l, n);
                }
                if (in->v[k] != EMU_NONE) rf[(size_t)in->v[k] * EMU_LANES + l] = extend(v, n, in->t, in->dwidth);
            }
        }
        return true;
    }
    uint64_t addr[EMU_LANES] = {0};
    uint32_t flagged;
    if (!mem_begin(X, w, fr, in, m, false, addr, &flagged)) return false;
    for (uint32_t mm = m; mm; mm &= mm - 1) {
        unsigned l = (unsigned)__builtin_ctz(mm);
        int kind;
        uint8_t *p = resolve(X, w, in->space, addr[l], in->size, l, &kind);
        if (p == NULL) {
            if (!illegal_lane(X, w, in, l, addr[l], in->size, false, kind, flagged)) return false;
            for (unsigned k = 0; k < in->vec; k++)
                if (in->v[k] != EMU_NONE) rf[(size_t)in->v[k] * EMU_LANES + l] = 0;
            continue;
        }
        for (unsigned k = 0; k < in->vec; k++)
            if (in->v[k] != EMU_NONE)
                rf[(size_t)in->v[k] * EMU_LANES + l] = extend(load_le(p + (size_t)k * n, n), n, in->t, in->dwidth);
    }
    return true;
}

static bool do_st(xctx_t *X, emu_warp_t *w, emu_frame_t *fr, const emu_insn_t *in, uint32_t m)
{
    uint64_t *rf = fr->rf;
    unsigned n = in->elem;
    if (in->space == PTX_SPACE_PARAM || in->mbase != MB_SLOT) {
        if (in->mbase != MB_PARAM_FRAME) {
            fatal(X, w, in, EMU_ERR_UNSUPPORTED, "st.param to a kernel parameter");
            return false;
        }
        for (unsigned k = 0; k < in->vec; k++) {
            uint64_t off = (uint64_t)in->off + (uint64_t)k * n;
            if (off + n > fr->fn->param_bytes) {
                fatal(X, w, in, EMU_ERR_INVALID_PTX, "st.param writes past the parameter area");
                return false;
            }
            prm_mark(fr, (uint32_t)off, m, n);
        }
        for (uint32_t mm = m; mm; mm &= mm - 1) {
            unsigned l = (unsigned)__builtin_ctz(mm);
            for (unsigned k = 0; k < in->vec; k++) {
                uint64_t off = (uint64_t)in->off + (uint64_t)k * n;
                store_le(fr->params + (size_t)l * fr->fn->param_bytes + (uint32_t)off, rf[(size_t)in->v[k] * EMU_LANES + l], n);
            }
        }
        return true;
    }
    uint64_t addr[EMU_LANES] = {0};
    uint32_t flagged;
    if (!mem_begin(X, w, fr, in, m, true, addr, &flagged)) return false;
    for (uint32_t mm = m; mm; mm &= mm - 1) {
        unsigned l = (unsigned)__builtin_ctz(mm);
        int kind;
        uint8_t *p = resolve(X, w, in->space, addr[l], in->size, l, &kind);
        if (p == NULL) {
            if (!illegal_lane(X, w, in, l, addr[l], in->size, true, kind, flagged)) return false;
            continue;
        }
        for (unsigned k = 0; k < in->vec; k++) store_le(p + (size_t)k * n, rf[(size_t)in->v[k] * EMU_LANES + l], n);
    }
    return true;
}

static bool do_atom(xctx_t *X, emu_warp_t *w, emu_frame_t *fr, const emu_insn_t *in, uint32_t m)
{
    uint64_t *rf = fr->rf;
    unsigned n = in->elem;
    uint64_t addr[EMU_LANES] = {0};
    uint32_t flagged;
    if (!mem_begin(X, w, fr, in, m, true, addr, &flagged)) return false;
    const uint64_t *B = rf + (size_t)in->b * EMU_LANES;
    const uint64_t *C = in->c != EMU_NONE ? rf + (size_t)in->c * EMU_LANES : NULL;
    for (uint32_t mm = m; mm; mm &= mm - 1) {
        unsigned l = (unsigned)__builtin_ctz(mm);
        int kind;
        uint8_t *p = resolve(X, w, in->space, addr[l], n, l, &kind);
        if (p == NULL) {
            if (!illegal_lane(X, w, in, l, addr[l], n, true, kind, flagged)) return false;
            if (in->op == EOP_ATOM && in->d != EMU_NONE) rf[(size_t)in->d * EMU_LANES + l] = 0;
            continue;
        }
        uint64_t old = load_le(p, n);
        uint64_t nv = atom_apply(in->sub, in->t, old, B[l], C ? C[l] : 0, n);
        store_le(p, nv, n);
        if (in->op == EOP_ATOM && in->d != EMU_NONE) rf[(size_t)in->d * EMU_LANES + l] = old & wmask(n);
    }
    return true;
}

/* ---------------------------------------------------------------------------------------------------
 * The interpreter loop. Returns 0 when the warp yields (quantum used, barrier, done), -1 on a fatal
 * condition (X->L->status set). */

#define ROW(s) (rf + (size_t)(s) * EMU_LANES)
#define LANES(mask, ...)                                                                                 \
    do {                                                                                                 \
        uint32_t mm_ = (mask);                                                                           \
        if (mm_ == 0xffffffffu) {                                                                        \
            for (unsigned l = 0; l < EMU_LANES; l++) {                                                   \
                __VA_ARGS__;                                                                             \
            }                                                                                            \
        } else {                                                                                         \
            while (mm_) {                                                                                \
                unsigned l = (unsigned)__builtin_ctz(mm_);                                               \
                mm_ &= mm_ - 1;                                                                          \
                __VA_ARGS__;                                                                             \
            }                                                                                            \
        }                                                                                                \
    } while (0)

/* Finish the function at the top of w (its base entry reached FUNC_EXIT with every live lane). */
static void func_return(xctx_t *X, emu_warp_t *w)
{
    emu_frame_t *fr = &w->frames[w->nframes - 1];
    if (w->nframes >= 2) {
        emu_frame_t *caller = &w->frames[w->nframes - 2];
        const emu_insn_t *ci = &X->code[fr->caller_insn];
        uint32_t mask = w->simt[fr->simt_base].mask & ~w->exited;
        for (uint32_t k = 0; k < ci->nrets && k < fr->fn->nrets; k++) {
            uint32_t coff = X->m->pool[ci->ret_first + k];
            uint32_t n = fr->fn->ret_size[k];
            for (uint32_t mm = mask; mm; mm &= mm - 1) {
                unsigned l = (unsigned)__builtin_ctz(mm);
                memcpy(caller->params + (size_t)l * caller->fn->param_bytes + coff,
                       fr->params + (size_t)l * fr->fn->param_bytes + fr->fn->ret_off[k], n);
            }
            for (uint32_t b = 0; b < n; b++) caller->pinit[coff + b] |= fr->pinit[fr->fn->ret_off[k] + b] & mask;
        }
    }
    pop_frame(w);
}

static int run_warp(xctx_t *X, emu_warp_t *w, uint32_t budget)
{
    const emu_insn_t *code = X->code;
    uint64_t wi = 0, ti = 0, gi = 0, go = 0;
    int ret = 0;
    for (;;) {
        /* Find the entry to run: pop reconverged or empty entries, finish frames. */
        while (w->nsimt > 0) {
            emu_frame_t *fr = &w->frames[w->nframes - 1];
            emu_simt_t *top = &w->simt[w->nsimt - 1];
            uint32_t am = top->mask & ~w->exited;
            bool base = (w->nsimt - 1 == fr->simt_base);
            if (am == 0) {
                if (base) {
                    pop_frame(w);
                } else {
                    w->nsimt--;
                }
                continue;
            }
            if (!base && top->pc == top->rpc) {
                w->nsimt--;
                continue;
            }
            if (top->pc == fr->fn->end) { /* reached the function's end */
                if (base) {
                    if (w->nframes == 1) {
                        w->exited |= am;
                        pop_frame(w);
                        continue;
                    }
                    func_return(X, w);
                    continue;
                }
                /* lanes that returned early: they wait for the whole function to return */
                for (uint32_t k = fr->simt_base + 1; k + 1 < w->nsimt; k++) w->simt[k].mask &= ~top->mask;
                w->nsimt--;
                continue;
            }
            break;
        }
        if (w->nsimt == 0) {
            w->state = W_DONE;
            break;
        }
        if (budget == 0) break;
        emu_frame_t *fr = &w->frames[w->nframes - 1];
        emu_simt_t *top = &w->simt[w->nsimt - 1];
        uint64_t *rf = fr->rf;
        uint32_t pc = top->pc;
        const uint32_t rpc = top->rpc;
        const uint32_t amask = top->mask & ~w->exited;
        const uint32_t act = popc32(amask);
        while (budget) {
            const emu_insn_t *in = &code[pc];
            budget--;
            wi++;
            ti += act;
            if (in->ga) {
                if (in->ga == GA_OVERHEAD)
                    go += act;
                else
                    gi += act;
            }
            uint32_t m = amask;
            if (in->flags & EF_GUARD) {
                const uint64_t *G = ROW(in->guard);
                uint32_t pm = 0;
                for (uint32_t mm = amask; mm; mm &= mm - 1) {
                    unsigned l = (unsigned)__builtin_ctz(mm);
                    pm |= (uint32_t)(G[l] & 1u) << l;
                }
                m = (in->flags & EF_GUARD_NEG) ? amask & ~pm : pm;
            }
            const unsigned nb = ptx_type_bytes((ptx_type_t)in->t) ? ptx_type_bytes((ptx_type_t)in->t) : 1;
            const uint64_t M = wmask(nb);
            switch ((emu_op_t)in->op) {
            case EOP_NOP: break;
            case EOP_MOV: {
                uint64_t *D = ROW(in->d);
                const uint64_t *A = ROW(in->a);
                if (in->t == PTX_T_PRED) {
                    LANES(m, D[l] = A[l] & 1u);
                } else {
                    LANES(m, D[l] = A[l] & M);
                }
                break;
            }
            case EOP_MOV_PACK: {
                uint64_t *D = ROW(in->d);
                unsigned eb = in->elem * 8u;
                LANES(m, {
                    uint64_t v = 0;
                    for (unsigned k = 0; k < in->vec; k++) v |= (ROW(in->v[k])[l] & wmask(in->elem)) << (k * eb);
                    D[l] = v;
                });
                break;
            }
            case EOP_MOV_UNPACK: {
                const uint64_t *A = ROW(in->a);
                unsigned eb = in->elem * 8u;
                LANES(m, {
                    uint64_t v = A[l];
                    for (unsigned k = 0; k < in->vec; k++)
                        if (in->v[k] != EMU_NONE) ROW(in->v[k])[l] = (v >> (k * eb)) & wmask(in->elem);
                });
                break;
            }
            case EOP_CLOCK: {
                uint64_t *D = ROW(in->d);
                uint64_t clk = X->sm->clock + wi;
                uint64_t v = in->sub == PTX_SREG_CLOCK ? (uint32_t)clk
                             : in->sub == PTX_SREG_CLOCK_HI ? (uint32_t)(clk >> 32)
                             : in->sub == PTX_SREG_GLOBALTIMER_LO ? (uint32_t)(X->warp_insns + wi)
                             : in->sub == PTX_SREG_GLOBALTIMER_HI ? (uint32_t)((X->warp_insns + wi) >> 32)
                             : in->sub == PTX_SREG_GLOBALTIMER ? X->warp_insns + wi
                                                               : clk;
                LANES(m, D[l] = v);
                break;
            }
            case EOP_ADD: {
                uint64_t *D = ROW(in->d);
                const uint64_t *A = ROW(in->a), *B = ROW(in->b);
                if (in->flags & EF_CC) {
                    uint64_t *C = ROW(in->e);
                    LANES(m, {
                        uint64_t a = A[l] & M, b = B[l] & M, s = (a + b) & M;
                        C[l] = s < a;
                        D[l] = s;
                    });
                } else if ((in->flags & EF_SAT) && nb == 4) {
                    LANES(m, {
                        int64_t s = (int64_t)(int32_t)A[l] + (int64_t)(int32_t)B[l];
                        s = s > INT32_MAX ? INT32_MAX : s < INT32_MIN ? INT32_MIN : s;
                        D[l] = (uint32_t)s;
                    });
                } else if (nb == 4) {
                    LANES(m, D[l] = (uint32_t)(A[l] + B[l]));
                } else {
                    LANES(m, D[l] = (A[l] + B[l]) & M);
                }
                break;
            }
            case EOP_SUB: {
                uint64_t *D = ROW(in->d);
                const uint64_t *A = ROW(in->a), *B = ROW(in->b);
                if (in->flags & EF_CC) {
                    uint64_t *C = ROW(in->e);
                    LANES(m, {
                        uint64_t a = A[l] & M, b = B[l] & M;
                        C[l] = a < b;
                        D[l] = (a - b) & M;
                    });
                } else if ((in->flags & EF_SAT) && nb == 4) {
                    LANES(m, {
                        int64_t s = (int64_t)(int32_t)A[l] - (int64_t)(int32_t)B[l];
                        s = s > INT32_MAX ? INT32_MAX : s < INT32_MIN ? INT32_MIN : s;
                        D[l] = (uint32_t)s;
                    });
                } else {
                    LANES(m, D[l] = (A[l] - B[l]) & M);
                }
                break;
            }
            case EOP_ADDC:
            case EOP_SUBC: {
                uint64_t *D = ROW(in->d), *C = ROW(in->e);
                const uint64_t *A = ROW(in->a), *B = ROW(in->b);
                bool setcc = in->flags & EF_CC;
                bool sub = in->op == EOP_SUBC;
                LANES(m, {
                    uint64_t a = A[l] & M, b = B[l] & M, ci = C[l] & 1u, r, co;
                    if (!sub) {
                        uint64_t s1 = a + b, s2 = s1 + ci;
                        r = s2 & M;
                        co = (nb == 8) ? ((s1 < a) || (s2 < s1)) : ((s2 >> (8 * nb)) != 0);
                    } else {
                        r = (a - b - ci) & M;
                        co = (b > a) || (ci && b == a); /* borrow */
                    }
                    D[l] = r;
                    if (setcc) C[l] = co;
                });
                break;
            }
            case EOP_MUL_LO: {
                uint64_t *D = ROW(in->d);
                const uint64_t *A = ROW(in->a), *B = ROW(in->b);
                if (nb == 4) {
                    LANES(m, D[l] = (uint32_t)((uint32_t)A[l] * (uint32_t)B[l]));
                } else {
                    LANES(m, D[l] = (A[l] * B[l]) & M);
                }
                break;
            }
            case EOP_MUL_HI: {
                uint64_t *D = ROW(in->d);
                const uint64_t *A = ROW(in->a), *B = ROW(in->b);
                bool s = ptx_type_is_signed((ptx_type_t)in->t);
                LANES(m, {
                    uint64_t r;
                    if (nb == 8) {
                        r = s ? (uint64_t)(((__int128)(int64_t)A[l] * (__int128)(int64_t)B[l]) >> 64)
                              : (uint64_t)(((unsigned __int128)A[l] * (unsigned __int128)B[l]) >> 64);
                    } else {
                        r = s ? (uint64_t)((sx(A[l], nb) * sx(B[l], nb)) >> (8 * nb))
                              : (((A[l] & M) * (B[l] & M)) >> (8 * nb));
                    }
                    D[l] = r & M;
                });
                break;
            }
            case EOP_MUL_WIDE: {
                uint64_t *D = ROW(in->d);
                const uint64_t *A = ROW(in->a), *B = ROW(in->b);
                bool s = ptx_type_is_signed((ptx_type_t)in->t);
                uint64_t WM = wmask(nb * 2);
                if (s) {
                    LANES(m, D[l] = (uint64_t)(sx(A[l], nb) * sx(B[l], nb)) & WM);
                } else {
                    LANES(m, D[l] = ((A[l] & M) * (B[l] & M)) & WM);
                }
                break;
            }
            case EOP_MUL24_LO:
            case EOP_MUL24_HI:
            case EOP_MAD24_LO: {
                uint64_t *D = ROW(in->d);
                const uint64_t *A = ROW(in->a), *B = ROW(in->b);
                const uint64_t *C = in->op == EOP_MAD24_LO ? ROW(in->c) : NULL;
                bool s = ptx_type_is_signed((ptx_type_t)in->t);
                LANES(m, {
                    int64_t p = s ? sx(A[l] & 0xffffffu, 3) * sx(B[l] & 0xffffffu, 3)
                                  : (int64_t)((A[l] & 0xffffffu) * (B[l] & 0xffffffu));
                    uint64_t r = in->op == EOP_MUL24_HI ? ((uint64_t)p >> 16) : (uint64_t)p;
                    if (C) r += C[l];
                    D[l] = (uint32_t)r;
                });
                break;
            }
            case EOP_MAD_LO:
            case EOP_MAD_HI:
            case EOP_MADC_LO:
            case EOP_MADC_HI: {
                uint64_t *D = ROW(in->d);
                const uint64_t *A = ROW(in->a), *B = ROW(in->b), *C = ROW(in->c);
                bool s = ptx_type_is_signed((ptx_type_t)in->t);
                bool hi = in->op == EOP_MAD_HI || in->op == EOP_MADC_HI;
                bool usec = in->op == EOP_MADC_LO || in->op == EOP_MADC_HI;
                bool setcc = in->flags & EF_CC;
                uint64_t *CC = in->e != EMU_NONE ? ROW(in->e) : NULL;
                LANES(m, {
                    uint64_t p;
                    if (hi) {
                        if (nb == 8)
                            p = s ? (uint64_t)(((__int128)(int64_t)A[l] * (__int128)(int64_t)B[l]) >> 64)
                                  : (uint64_t)(((unsigned __int128)A[l] * (unsigned __int128)B[l]) >> 64);
                        else
                            p = s ? (uint64_t)((sx(A[l], nb) * sx(B[l], nb)) >> (8 * nb))
                                  : (((A[l] & M) * (B[l] & M)) >> (8 * nb));
                    } else {
                        p = A[l] * B[l];
                    }
                    p &= M;
                    uint64_t c = C[l] & M, ci = (usec && CC) ? (CC[l] & 1u) : 0;
                    uint64_t r;
                    if ((in->flags & EF_SAT) && nb == 4 && s) {
                        int64_t v = (int64_t)(int32_t)p + (int64_t)(int32_t)c;
                        v = v > INT32_MAX ? INT32_MAX : v < INT32_MIN ? INT32_MIN : v;
                        r = (uint32_t)v;
                    } else {
                        r = (p + c + ci) & M;
                    }
                    if (setcc && CC) {
                        if (nb == 8)
                            CC[l] = (p + c < p) || (p + c + ci < p + c);
                        else
                            CC[l] = ((p + c + ci) >> (8 * nb)) != 0;
                    }
                    D[l] = r;
                });
                break;
            }
            case EOP_MAD_WIDE: {
                uint64_t *D = ROW(in->d);
                const uint64_t *A = ROW(in->a), *B = ROW(in->b), *C = ROW(in->c);
                bool s = ptx_type_is_signed((ptx_type_t)in->t);
                uint64_t WM = wmask(nb * 2);
                LANES(m, {
                    uint64_t p = s ? (uint64_t)(sx(A[l], nb) * sx(B[l], nb)) : (A[l] & M) * (B[l] & M);
                    D[l] = (p + C[l]) & WM;
                });
                break;
            }
            case EOP_SAD: {
                uint64_t *D = ROW(in->d);
                const uint64_t *A = ROW(in->a), *B = ROW(in->b), *C = ROW(in->c);
                bool s = ptx_type_is_signed((ptx_type_t)in->t);
                LANES(m, {
                    uint64_t diff;
                    if (s) {
                        int64_t x = sx(A[l], nb), y = sx(B[l], nb);
                        diff = (uint64_t)(x > y ? x - y : y - x);
                    } else {
                        uint64_t x = A[l] & M, y = B[l] & M;
                        diff = x > y ? x - y : y - x;
                    }
                    D[l] = (diff + C[l]) & M;
                });
                break;
            }
            case EOP_DIV:
            case EOP_REM: {
                uint64_t *D = ROW(in->d);
                const uint64_t *A = ROW(in->a), *B = ROW(in->b);
                bool s = ptx_type_is_signed((ptx_type_t)in->t);
                bool rem = in->op == EOP_REM;
                LANES(m, {
                    uint64_t r;
                    if (s) {
                        int64_t x = sx(A[l], nb), y = sx(B[l], nb);
                        int64_t mn = nb >= 8 ? INT64_MIN : -(INT64_C(1) << (8 * nb - 1));
                        if (y == 0)
                            r = rem ? (uint64_t)x : UINT64_MAX; /* [decision] PTX leaves it undefined */
                        else if (x == mn && y == -1)
                            r = rem ? 0 : (uint64_t)x;
                        else
                            r = rem ? (uint64_t)(x % y) : (uint64_t)(x / y);
                    } else {
                        uint64_t x = A[l] & M, y = B[l] & M;
                        r = y == 0 ? (rem ? x : UINT64_MAX) : rem ? x % y : x / y;
                    }
                    D[l] = r & M;
                });
                break;
            }
            case EOP_ABS: {
                uint64_t *D = ROW(in->d);
                const uint64_t *A = ROW(in->a);
                LANES(m, {
                    int64_t x = sx(A[l], nb);
                    D[l] = (uint64_t)(x < 0 ? -(uint64_t)x : (uint64_t)x) & M;
                });
                break;
            }
            case EOP_NEG: {
                uint64_t *D = ROW(in->d);
                const uint64_t *A = ROW(in->a);
                LANES(m, D[l] = (0 - A[l]) & M);
                break;
            }
            case EOP_MIN:
            case EOP_MAX: {
                uint64_t *D = ROW(in->d);
                const uint64_t *A = ROW(in->a), *B = ROW(in->b);
                bool s = ptx_type_is_signed((ptx_type_t)in->t);
                bool mx = in->op == EOP_MAX;
                LANES(m, {
                    bool lt = s ? sx(A[l], nb) < sx(B[l], nb) : (A[l] & M) < (B[l] & M);
                    D[l] = (mx ? (lt ? B[l] : A[l]) : (lt ? A[l] : B[l])) & M;
                });
                break;
            }
            case EOP_POPC: {
                uint64_t *D = ROW(in->d);
                const uint64_t *A = ROW(in->a);
                LANES(m, D[l] = (uint64_t)__builtin_popcountll(A[l] & M));
                break;
            }
            case EOP_CLZ: {
                uint64_t *D = ROW(in->d);
                const uint64_t *A = ROW(in->a);
                LANES(m, {
                    uint64_t x = A[l] & M;
                    D[l] = x ? (uint64_t)(__builtin_clzll(x) - (64 - 8 * (int)nb)) : 8u * nb;
                });
                break;
            }
            case EOP_BFIND: {
                uint64_t *D = ROW(in->d);
                const uint64_t *A = ROW(in->a);
                bool s = ptx_type_is_signed((ptx_type_t)in->t);
                LANES(m, {
                    uint64_t x = A[l] & M;
                    if (s && (sx(x, nb) < 0)) x = ~x & M;
                    uint64_t r;
                    if (x == 0)
                        r = 0xffffffffu;
                    else {
                        r = 63u - (uint64_t)__builtin_clzll(x);
                        if (in->sub) r = 8u * nb - 1u - r;
                    }
                    D[l] = r;
                });
                break;
            }
            case EOP_BREV: {
                uint64_t *D = ROW(in->d);
                const uint64_t *A = ROW(in->a);
                LANES(m, {
                    uint64_t x = A[l], r = 0;
                    for (unsigned k = 0; k < 8u * nb; k++) r |= ((x >> k) & 1u) << (8u * nb - 1u - k);
                    D[l] = r;
                });
                break;
            }
            case EOP_BFE: {
                uint64_t *D = ROW(in->d);
                const uint64_t *A = ROW(in->a), *B = ROW(in->b), *C = ROW(in->c);
                bool s = ptx_type_is_signed((ptx_type_t)in->t);
                unsigned msb = 8u * nb - 1u;
                LANES(m, {
                    unsigned pos = (unsigned)(B[l] & 0xffu), len = (unsigned)(C[l] & 0xffu);
                    uint64_t x = A[l] & M, r = 0;
                    bool sbit = s && len ? ((pos + len - 1 <= msb) ? ((x >> (pos + len - 1)) & 1u) : ((x >> msb) & 1u)) : 0;
                    for (unsigned k = 0; k <= msb; k++) {
                        uint64_t bit;
                        if (k < len && pos + k <= msb)
                            bit = (x >> (pos + k)) & 1u;
                        else
                            bit = sbit;
                        r |= bit << k;
                    }
                    D[l] = r & M;
                });
                break;
            }
            case EOP_BFI: {
                uint64_t *D = ROW(in->d);
                const uint64_t *A = ROW(in->a), *B = ROW(in->b), *C = ROW(in->c), *E = ROW(in->e);
                unsigned msb = 8u * nb - 1u;
                LANES(m, {
                    unsigned pos = (unsigned)(C[l] & 0xffu), len = (unsigned)(E[l] & 0xffu);
                    uint64_t r = B[l] & M;
                    for (unsigned k = 0; k < len && pos + k <= msb; k++) {
                        r &= ~(UINT64_C(1) << (pos + k));
                        r |= ((A[l] >> k) & 1u) << (pos + k);
                    }
                    D[l] = r;
                });
                break;
            }
            case EOP_FNS: {
                uint64_t *D = ROW(in->d);
                const uint64_t *A = ROW(in->a), *B = ROW(in->b), *C = ROW(in->c);
                LANES(m, {
                    uint32_t mask = (uint32_t)A[l], base = (uint32_t)B[l] & 31u;
                    int32_t off = (int32_t)C[l];
                    uint32_t r = 0xffffffffu;
                    if (off == 0) {
                        r = base;
                    } else if (off > 0) {
                        int cnt = 0;
                        for (uint32_t k = base; k < 32; k++)
                            if ((mask >> k) & 1u && ++cnt == off) {
                                r = k;
                                break;
                            }
                    } else {
                        int cnt = 0;
                        for (int k = (int)base; k >= 0; k--)
                            if ((mask >> k) & 1u && --cnt == off) {
                                r = (uint32_t)k;
                                break;
                            }
                    }
                    D[l] = r;
                });
                break;
            }
            case EOP_BMSK: {
                uint64_t *D = ROW(in->d);
                const uint64_t *A = ROW(in->a), *B = ROW(in->b);
                LANES(m, {
                    uint32_t pos = (uint32_t)A[l], wdt = (uint32_t)B[l];
                    if (in->sub) {
                        pos &= 31u;
                        wdt &= 31u;
                    } else {
                        if (pos > 32) pos = 32;
                        if (wdt > 32) wdt = 32;
                    }
                    uint64_t r = pos >= 32 ? 0 : ((((UINT64_C(1) << wdt) - 1u) << pos) & 0xffffffffu);
                    D[l] = r;
                });
                break;
            }
            case EOP_SZEXT: {
                uint64_t *D = ROW(in->d);
                const uint64_t *A = ROW(in->a), *B = ROW(in->b);
                bool s = ptx_type_is_signed((ptx_type_t)in->t);
                LANES(m, {
                    uint32_t pos = (uint32_t)B[l];
                    pos = in->sub ? pos & 31u : (pos > 32 ? 32 : pos);
                    uint32_t x = (uint32_t)A[l];
                    uint32_t r;
                    if (pos == 0)
                        r = 0;
                    else if (pos >= 32)
                        r = x;
                    else if (s)
                        r = (uint32_t)(((int32_t)(x << (32 - pos))) >> (32 - pos));
                    else
                        r = x & ((1u << pos) - 1u);
                    D[l] = r;
                });
                break;
            }
            case EOP_AND:
            case EOP_OR:
            case EOP_XOR: {
                uint64_t *D = ROW(in->d);
                const uint64_t *A = ROW(in->a), *B = ROW(in->b);
                uint64_t MM = in->t == PTX_T_PRED ? 1u : M;
                if (in->op == EOP_AND) LANES(m, D[l] = A[l] & B[l] & MM);
                else if (in->op == EOP_OR) LANES(m, D[l] = (A[l] | B[l]) & MM);
                else LANES(m, D[l] = (A[l] ^ B[l]) & MM);
                break;
            }
            case EOP_NOT: {
                uint64_t *D = ROW(in->d);
                const uint64_t *A = ROW(in->a);
                uint64_t MM = in->t == PTX_T_PRED ? 1u : M;
                LANES(m, D[l] = ~A[l] & MM);
                break;
            }
            case EOP_CNOT: {
                uint64_t *D = ROW(in->d);
                const uint64_t *A = ROW(in->a);
                LANES(m, D[l] = (A[l] & M) == 0);
                break;
            }
            case EOP_LOP3: {
                uint64_t *D = ROW(in->d);
                const uint64_t *A = ROW(in->a), *B = ROW(in->b), *C = ROW(in->c);
                unsigned lut = in->sub;
                LANES(m, {
                    uint64_t a = A[l], b = B[l], c = C[l], r = 0;
                    for (unsigned i = 0; i < 8; i++)
                        if ((lut >> i) & 1u) r |= ((i & 4) ? a : ~a) & ((i & 2) ? b : ~b) & ((i & 1) ? c : ~c);
                    D[l] = r & M;
                });
                break;
            }
            case EOP_SHL: {
                uint64_t *D = ROW(in->d);
                const uint64_t *A = ROW(in->a), *B = ROW(in->b);
                unsigned bits = 8u * nb;
                LANES(m, {
                    uint32_t sh = (uint32_t)B[l];
                    D[l] = sh >= bits ? 0 : (A[l] << sh) & M;
                });
                break;
            }
            case EOP_SHR: {
                uint64_t *D = ROW(in->d);
                const uint64_t *A = ROW(in->a), *B = ROW(in->b);
                unsigned bits = 8u * nb;
                bool s = ptx_type_is_signed((ptx_type_t)in->t);
                LANES(m, {
                    uint32_t sh = (uint32_t)B[l];
                    if (s) {
                        int64_t x = sx(A[l], nb);
                        D[l] = (uint64_t)(x >> (sh >= bits ? bits - 1 : sh)) & M;
                    } else {
                        D[l] = sh >= bits ? 0 : ((A[l] & M) >> sh);
                    }
                });
                break;
            }
            case EOP_SHF_L:
            case EOP_SHF_R: {
                uint64_t *D = ROW(in->d);
                const uint64_t *A = ROW(in->a), *B = ROW(in->b), *C = ROW(in->c);
                bool left = in->op == EOP_SHF_L;
                LANES(m, {
                    uint32_t n = (uint32_t)C[l];
                    n = in->sub ? (n & 31u) : (n > 32 ? 32 : n);
                    uint64_t x = ((uint64_t)(uint32_t)B[l] << 32) | (uint32_t)A[l];
                    D[l] = left ? (uint32_t)((x << n) >> 32) : (uint32_t)(x >> n);
                });
                break;
            }
            case EOP_PRMT: {
                uint64_t *D = ROW(in->d);
                const uint64_t *A = ROW(in->a), *B = ROW(in->b), *C = ROW(in->c);
                LANES(m, {
                    uint64_t bytes = ((uint64_t)(uint32_t)B[l] << 32) | (uint32_t)A[l];
                    uint32_t c = (uint32_t)C[l], r = 0;
                    unsigned sel[4];
                    bool rep[4] = {false, false, false, false};
                    unsigned md = c & 3u;
                    switch (in->sub) {
                    case 0:
                        for (unsigned k = 0; k < 4; k++) {
                            sel[k] = (c >> (4 * k)) & 7u;
                            rep[k] = (c >> (4 * k + 3)) & 1u;
                        }
                        break;
                    case 1: sel[0] = md, sel[1] = (md + 1) & 7u, sel[2] = (md + 2) & 7u, sel[3] = (md + 3) & 7u; break;
                    case 2: sel[0] = md, sel[1] = (md - 1) & 7u, sel[2] = (md - 2) & 7u, sel[3] = (md - 3) & 7u; break;
                    case 3: sel[0] = sel[1] = sel[2] = sel[3] = md; break;
                    case 4: /* ecl: byte k = byte max(k, c) */
                        for (unsigned k = 0; k < 4; k++) sel[k] = k > md ? k : md;
                        break;
                    case 5: /* ecr: byte k = byte min(k, c) */
                        for (unsigned k = 0; k < 4; k++) sel[k] = k < md ? k : md;
                        break;
                    default: sel[0] = (md & 1u) * 2u, sel[1] = (md & 1u) * 2u + 1u, sel[2] = sel[0], sel[3] = sel[1]; break;
                    }
                    for (unsigned k = 0; k < 4; k++) {
                        uint32_t byte = (uint32_t)(bytes >> (8 * sel[k])) & 0xffu;
                        if (rep[k]) byte = (byte & 0x80u) ? 0xffu : 0;
                        r |= byte << (8 * k);
                    }
                    D[l] = r;
                });
                break;
            }
            case EOP_DP4A:
            case EOP_DP2A: {
                uint64_t *D = ROW(in->d);
                const uint64_t *A = ROW(in->a), *B = ROW(in->b), *C = ROW(in->c);
                bool as = ptx_type_is_signed((ptx_type_t)in->t), bs = ptx_type_is_signed((ptx_type_t)in->t2);
                bool four = in->op == EOP_DP4A;
                LANES(m, {
                    uint32_t a = (uint32_t)A[l], b = (uint32_t)B[l];
                    int64_t acc = (as || bs) ? (int64_t)(int32_t)C[l] : (int64_t)(uint32_t)C[l];
                    if (four) {
                        for (unsigned k = 0; k < 4; k++) {
                            int64_t x = as ? (int8_t)(a >> (8 * k)) : (uint8_t)(a >> (8 * k));
                            int64_t y = bs ? (int8_t)(b >> (8 * k)) : (uint8_t)(b >> (8 * k));
                            acc += x * y;
                        }
                    } else {
                        for (unsigned k = 0; k < 2; k++) {
                            int64_t x = as ? (int16_t)(a >> (16 * k)) : (uint16_t)(a >> (16 * k));
                            unsigned bi = (in->sub ? 2 : 0) + k;
                            int64_t y = bs ? (int8_t)(b >> (8 * bi)) : (uint8_t)(b >> (8 * bi));
                            acc += x * y;
                        }
                    }
                    D[l] = (uint32_t)acc;
                });
                break;
            }
            case EOP_FADD:
            case EOP_FSUB:
            case EOP_FMUL:
            case EOP_FFMA:
            case EOP_FDIV: {
                uint64_t *D = ROW(in->d);
                const uint64_t *A = ROW(in->a), *B = ROW(in->b);
                const uint64_t *C = in->c != EMU_NONE ? ROW(in->c) : NULL;
                if (in->t == PTX_T_F32 && in->rnd <= ER_RN && !(in->flags & (EF_FTZ | EF_SAT))) {
                    switch (in->op) {
                    case EOP_FADD: LANES(m, D[l] = f32_result(emu_as_f32(A[l]) + emu_as_f32(B[l]))); break;
                    case EOP_FSUB: LANES(m, D[l] = f32_result(emu_as_f32(A[l]) - emu_as_f32(B[l]))); break;
                    case EOP_FMUL: LANES(m, D[l] = f32_result(emu_as_f32(A[l]) * emu_as_f32(B[l]))); break;
                    case EOP_FFMA: LANES(m, D[l] = f32_result(fmaf(emu_as_f32(A[l]), emu_as_f32(B[l]), emu_as_f32(C[l])))); break;
                    default: LANES(m, D[l] = f32_result(emu_as_f32(A[l]) / emu_as_f32(B[l]))); break;
                    }
                } else if (in->t == PTX_T_F64 && in->rnd <= ER_RN && !(in->flags & EF_SAT)) {
                    switch (in->op) {
                    case EOP_FADD: LANES(m, D[l] = emu_f64_bits(emu_as_f64(A[l]) + emu_as_f64(B[l]))); break;
                    case EOP_FSUB: LANES(m, D[l] = emu_f64_bits(emu_as_f64(A[l]) - emu_as_f64(B[l]))); break;
                    case EOP_FMUL: LANES(m, D[l] = emu_f64_bits(emu_as_f64(A[l]) * emu_as_f64(B[l]))); break;
                    case EOP_FFMA: LANES(m, D[l] = emu_f64_bits(fma(emu_as_f64(A[l]), emu_as_f64(B[l]), emu_as_f64(C[l])))); break;
                    default: LANES(m, D[l] = emu_f64_bits(emu_as_f64(A[l]) / emu_as_f64(B[l]))); break;
                    }
                } else {
                    LANES(m, D[l] = fop(in->op, in, A[l], B[l], C ? C[l] : 0));
                }
                break;
            }
            case EOP_FRCP:
            case EOP_FSQRT:
            case EOP_FRSQRT:
            case EOP_FSIN:
            case EOP_FCOS:
            case EOP_FLG2:
            case EOP_FEX2:
            case EOP_FTANH: {
                uint64_t *D = ROW(in->d);
                const uint64_t *A = ROW(in->a);
                LANES(m, D[l] = fop(in->op, in, A[l], 0, 0));
                break;
            }
            case EOP_FABS:
            case EOP_FNEG: {
                uint64_t *D = ROW(in->d);
                const uint64_t *A = ROW(in->a);
                uint64_t sbit = in->t == PTX_T_F64 ? UINT64_C(1) << 63 : in->t == PTX_T_F32 ? UINT64_C(1) << 31
                                : (in->t == PTX_T_F16X2 || in->t == PTX_T_BF16X2) ? UINT64_C(0x80008000) : UINT64_C(0x8000);
                bool ftz = (in->flags & EF_FTZ) && in->t == PTX_T_F32;
                LANES(m, {
                    uint64_t x = A[l];
                    if (ftz) x = emu_f32_bits(emu_ftz32(emu_as_f32(x)));
                    /* abs.f32 of a NaN gives the canonical NaN on the H100 (as fop) */
                    if (in->op == EOP_FABS && in->t == PTX_T_F32 && (x & 0x7fffffffu) > 0x7f800000u) x = 0x7fffffffu;
                    D[l] = (in->op == EOP_FABS ? x & ~sbit : x ^ sbit) & M;
                });
                break;
            }
            case EOP_FMIN:
            case EOP_FMAX: {
                uint64_t *D = ROW(in->d);
                const uint64_t *A = ROW(in->a), *B = ROW(in->b);
                LANES(m, D[l] = fminmax(in->op == EOP_FMAX, in, A[l], B[l]));
                break;
            }
            case EOP_TESTP: {
                uint64_t *D = ROW(in->d);
                const uint64_t *A = ROW(in->a);
                LANES(m, {
                    double x = fval(A[l], in->t);
                    bool r;
                    switch (in->sub) {
                    case 1: r = isfinite(x); break;
                    case 2: r = isinf(x); break;
                    case 3: r = !isnan(x); break;
                    case 4: r = isnan(x); break;
                    case 5: r = (in->t == PTX_T_F32) ? isnormal((float)x) : isnormal(x); break;
                    default: r = (in->t == PTX_T_F32) ? (fpclassify((float)x) == FP_SUBNORMAL) : (fpclassify(x) == FP_SUBNORMAL); break;
                    }
                    D[l] = r;
                });
                break;
            }
            case EOP_COPYSIGN: {
                uint64_t *D = ROW(in->d);
                const uint64_t *A = ROW(in->a), *B = ROW(in->b);
                uint64_t sbit = in->t == PTX_T_F64 ? UINT64_C(1) << 63 : UINT64_C(1) << 31;
                LANES(m, D[l] = ((B[l] & ~sbit) | (A[l] & sbit)) & M);
                break;
            }
            case EOP_SETP:
            case EOP_SET: {
                uint64_t *D = ROW(in->d);
                uint64_t *D2 = in->d2 != EMU_NONE ? ROW(in->d2) : NULL;
                const uint64_t *A = ROW(in->a), *B = ROW(in->b);
                const uint64_t *C = in->c != EMU_NONE ? ROW(in->c) : NULL;
                unsigned op = in->sub & 31u, bo = in->sub >> 5;
                bool flt = in->t == PTX_T_F32 || in->t == PTX_T_F64 || in->t == PTX_T_F16 || in->t == PTX_T_BF16;
                bool ftz = (in->flags & EF_FTZ) && in->t == PTX_T_F32;
                bool cneg = in->flags & EF_NEGA;
                uint64_t tval = 1, fvalv = 0;
                if (in->op == EOP_SET) {
                    if (in->t2 == PTX_T_F32) {
                        tval = emu_f32_bits(1.0f);
                    } else {
                        tval = 0xffffffffu;
                    }
                }
                LANES(m, {
                    bool r;
                    if (flt) {
                        double x = fval(A[l], in->t), y = fval(B[l], in->t);
                        if (ftz) {
                            x = emu_ftz32((float)x);
                            y = emu_ftz32((float)y);
                        }
                        r = cmp_f(op, x, y);
                    } else {
                        r = cmp_int(op, A[l], B[l], in->t);
                    }
                    bool r2 = !r;
                    if (bo && C) {
                        bool c = (C[l] & 1u) != cneg;
                        if (bo == 1) r = r && c, r2 = r2 && c;
                        else if (bo == 2) r = r || c, r2 = r2 || c;
                        else r = r != c, r2 = r2 != c;
                    }
                    D[l] = r ? tval : fvalv;
                    if (D2) D2[l] = r2;
                });
                break;
            }
            case EOP_SELP: {
                uint64_t *D = ROW(in->d);
                const uint64_t *A = ROW(in->a), *B = ROW(in->b), *C = ROW(in->c);
                bool neg = in->flags & EF_NEGA;
                LANES(m, D[l] = (((C[l] & 1u) != 0) != neg) ? A[l] : B[l]);
                break;
            }
            case EOP_SLCT: {
                uint64_t *D = ROW(in->d);
                const uint64_t *A = ROW(in->a), *B = ROW(in->b), *C = ROW(in->c);
                LANES(m, {
                    bool ge = in->t2 == PTX_T_F32 ? !(emu_as_f32(C[l]) < 0.0f) : (int32_t)C[l] >= 0;
                    D[l] = (ge ? A[l] : B[l]) & M;
                });
                break;
            }
            case EOP_CVT: {
                uint64_t *D = ROW(in->d);
                const uint64_t *A = ROW(in->a);
                if (in->sub == 1) { /* pack two f32 into f16x2 / bf16x2: a in the upper half */
                    const uint64_t *B = ROW(in->b);
                    int rm = (in->rnd >= ER_RN && in->rnd <= ER_RP) ? in->rnd : ER_RN;
                    bool bf = in->t == PTX_T_BF16X2;
                    LANES(m, {
                        uint64_t hi = bf ? emu_f32_to_bf16(emu_as_f32(A[l]), rm) : emu_f32_to_f16(emu_as_f32(A[l]), rm);
                        uint64_t lo = bf ? emu_f32_to_bf16(emu_as_f32(B[l]), rm) : emu_f32_to_f16(emu_as_f32(B[l]), rm);
                        D[l] = (hi << 16) | lo;
                    });
                } else if (in->t == PTX_T_U64 && (in->t2 == PTX_T_U32 || in->t2 == PTX_T_B32)) {
                    LANES(m, D[l] = (uint32_t)A[l]);
                } else if (in->t == PTX_T_S64 && in->t2 == PTX_T_S32) {
                    LANES(m, D[l] = (uint64_t)(int64_t)(int32_t)A[l]);
                } else if ((in->t == PTX_T_U32 || in->t == PTX_T_S32) && (in->t2 == PTX_T_U64 || in->t2 == PTX_T_S64) &&
                           !(in->flags & EF_SAT)) {
                    LANES(m, D[l] = (uint32_t)A[l]);
                } else {
                    LANES(m, D[l] = cvt_value(in, A[l]));
                }
                break;
            }
            case EOP_CVTA: {
                uint64_t *D = ROW(in->d);
                const uint64_t *A = ROW(in->a);
                uint64_t win = in->space == PTX_SPACE_SHARED ? EMU_SHARED_WIN : in->space == PTX_SPACE_LOCAL ? EMU_LOCAL_WIN : 0;
                if (win == 0) {
                    LANES(m, D[l] = A[l] & M);
                } else if (in->sub) { /* generic -> space */
                    LANES(m, D[l] = (A[l] - win) & 0xffffffffu);
                } else {
                    LANES(m, D[l] = (win + (uint32_t)A[l]) & M);
                }
                break;
            }
            case EOP_ISSPACEP: {
                uint64_t *D = ROW(in->d);
                const uint64_t *A = ROW(in->a);
                LANES(m, {
                    uint64_t hi = A[l] >> 32;
                    bool sh = hi == (EMU_SHARED_WIN >> 32), lo = hi == (EMU_LOCAL_WIN >> 32);
                    bool r = in->space == PTX_SPACE_SHARED ? sh : in->space == PTX_SPACE_LOCAL ? lo
                             : in->space == PTX_SPACE_GLOBAL ? (!sh && !lo) : false;
                    D[l] = r;
                });
                break;
            }
            case EOP_LD:
                if (!do_ld(X, w, fr, in, m)) goto fatal_out;
                break;
            case EOP_ST:
                if (!do_st(X, w, fr, in, m)) goto fatal_out;
                break;
            case EOP_ATOM:
            case EOP_RED:
                if (!do_atom(X, w, fr, in, m)) goto fatal_out;
                break;
            case EOP_BRA:
            case EOP_RET: {
                if (m == 0) break;
                if (m == amask) {
                    pc = in->target;
                    top->pc = pc;
                    goto reload;
                }
                uint32_t nt = amask & ~m;
                uint32_t R = in->rpc;
                uint32_t T = in->target;
                top->pc = R;
                if (pc + 1 != R && push_simt(w, pc + 1, R, nt)) goto oom;
                if (T != R && push_simt(w, T, R, m)) goto oom;
                goto reload;
            }
            case EOP_EXIT:
                if (m == 0) break;
                w->exited |= m;
                top->pc = pc + 1;
                goto reload;
            case EOP_FUNC_EXIT:
                top->pc = pc;
                goto reload;
            case EOP_TRAP:
                if (m == 0) break;
                fatal(X, w, in, EMU_ERR_LAUNCH_FAILED, "the kernel executed a trap instruction");
                goto fatal_out;
            case EOP_CALL: {
                if (m == 0) break;
                const emu_func_t *callee = &X->m->funcs[in->target];
                top->pc = pc + 1;
                int rc = push_frame(X, w, callee, pc + 1, pc, m);
                if (rc == -2) {
                    fatal(X, w, in, EMU_ERR_STACK_OVERFLOW,
                          "call of %s: the call stack exceeds %u bytes of local memory per thread or %u frames "
                          "(recursion too deep? --stack-size)",
                          callee->name, X->stack_bytes, MAX_FRAMES);
                    goto fatal_out;
                }
                if (rc) goto oom;
                emu_frame_t *nf = &w->frames[w->nframes - 1];
                emu_frame_t *cf = &w->frames[w->nframes - 2];
                for (uint32_t k = 0; k < in->nargs; k++) {
                    uint32_t coff = X->m->pool[in->arg_first + k];
                    uint32_t n = callee->param_size[k];
                    if (!prm_written(cf, coff, m, n)) {
                        fatal(X, w, in, EMU_ERR_INVALID_PTX,
                              "call of %s: argument %u was not written (st.param) before the call: the callee would "
                              "read an uninitialised parameter", callee->name, k);
                        goto fatal_out;
                    }
                    for (uint32_t mm = m; mm; mm &= mm - 1) {
                        unsigned l = (unsigned)__builtin_ctz(mm);
                        memcpy(nf->params + (size_t)l * callee->param_bytes + callee->param_off[k],
                               cf->params + (size_t)l * cf->fn->param_bytes + coff, n);
                    }
                    prm_mark(nf, callee->param_off[k], m, n);
                }
                goto reload;
            }
            case EOP_BAR:
            case EOP_BAR_ARRIVE:
            case EOP_BAR_RED: {
                if (m == 0) break;
                unsigned l0 = (unsigned)__builtin_ctz(m);
                uint32_t id = (uint32_t)ROW(in->a)[l0];
                if (id >= MAX_BARRIERS) {
                    fatal(X, w, in, EMU_ERR_LAUNCH_FAILED, "barrier id %u is not 0..15", id);
                    goto fatal_out;
                }
                uint32_t cnt = in->b != EMU_NONE ? (uint32_t)ROW(in->b)[l0] : 0;
                uint32_t live = popc32(~w->exited & (w->nthreads >= 32 ? 0xffffffffu : ((1u << w->nthreads) - 1u)));
                X->bar_arrived[id] += live;
                if (cnt) X->bar_expected[id] = cnt;
                if (in->op == EOP_BAR_RED) {
                    const uint64_t *C = ROW(in->c);
                    bool neg = in->flags & EF_NEGA;
                    uint32_t pcount = 0, all = 1, any = 0;
                    for (uint32_t mm = m; mm; mm &= mm - 1) {
                        unsigned l = (unsigned)__builtin_ctz(mm);
                        bool p = ((C[l] & 1u) != 0) != neg;
                        pcount += p;
                        all &= p;
                        any |= p;
                    }
                    X->bar_red_op[id] = in->sub;
                    if (in->sub == 1)
                        X->bar_red_acc[id] += pcount;
                    else if (in->sub == 2)
                        X->bar_red_acc[id] &= all;
                    else
                        X->bar_red_acc[id] |= any;
                }
                top->pc = pc + 1;
                if (in->op == EOP_BAR_ARRIVE) goto reload;
                w->state = W_BAR;
                w->bar_id = id;
                w->bar_red_d = in->op == EOP_BAR_RED ? in->d : EMU_NONE;
                w->bar_red_mask = m;
                goto yield;
            }
            case EOP_WARPSYNC: break;
            case EOP_SHFL: {
                uint64_t *D = ROW(in->d);
                uint64_t *P = in->d2 != EMU_NONE ? ROW(in->d2) : NULL;
                const uint64_t *A = ROW(in->a), *B = ROW(in->b), *C = ROW(in->c);
                uint64_t src[EMU_LANES];
                memcpy(src, A, sizeof src);
                LANES(m, {
                    uint32_t bval = (uint32_t)B[l] & 31u, c = (uint32_t)C[l];
                    uint32_t cval = c & 31u, seg = (c >> 8) & 31u;
                    uint32_t maxl = (l & seg) | (cval & ~seg), minl = l & seg;
                    int32_t j;
                    bool ok;
                    switch (in->sub) {
                    case 1: j = (int32_t)l - (int32_t)bval; ok = j >= (int32_t)maxl; break;
                    case 2: j = (int32_t)(l + bval); ok = j <= (int32_t)maxl; break;
                    case 3: j = (int32_t)(l ^ bval); ok = j <= (int32_t)maxl; break;
                    default: j = (int32_t)(minl | (bval & ~seg)); ok = j <= (int32_t)maxl; break;
                    }
                    if (!ok || j < 0 || j > 31) j = (int32_t)l;
                    D[l] = (uint32_t)src[j];
                    if (P) P[l] = ok;
                });
                break;
            }
            case EOP_VOTE: {
                uint64_t *D = ROW(in->d);
                const uint64_t *A = ROW(in->a);
                bool neg = in->flags & EF_NEGA;
                uint32_t ballot = 0;
                for (uint32_t mm = m; mm; mm &= mm - 1) {
                    unsigned l = (unsigned)__builtin_ctz(mm);
                    if (((A[l] & 1u) != 0) != neg) ballot |= 1u << l;
                }
                uint64_t r;
                switch (in->sub) {
                case 1: r = ballot == m; break;
                case 2: r = ballot != 0; break;
                case 3: r = ballot == 0 || ballot == m; break;
                default: r = ballot; break;
                }
                LANES(m, D[l] = r);
                break;
            }
            case EOP_ACTIVEMASK: {
                uint64_t *D = ROW(in->d);
                LANES(m, D[l] = amask);
                break;
            }
            case EOP_MATCH: {
                uint64_t *D = ROW(in->d);
                uint64_t *P = in->d2 != EMU_NONE ? ROW(in->d2) : NULL;
                const uint64_t *A = ROW(in->a);
                bool all = true;
                unsigned l0 = (unsigned)__builtin_ctz(m ? m : 1u);
                for (uint32_t mm = m; mm; mm &= mm - 1)
                    if ((A[__builtin_ctz(mm)] & M) != (A[l0] & M)) all = false;
                LANES(m, {
                    uint32_t eq = 0;
                    for (uint32_t k = m; k; k &= k - 1) {
                        unsigned j = (unsigned)__builtin_ctz(k);
                        if ((A[j] & M) == (A[l] & M)) eq |= 1u << j;
                    }
                    if (in->sub == 2) {
                        D[l] = all ? m : 0;
                        if (P) P[l] = all;
                    } else {
                        D[l] = eq;
                    }
                });
                break;
            }
            case EOP_REDUX: {
                uint64_t *D = ROW(in->d);
                const uint64_t *A = ROW(in->a);
                bool s = ptx_type_is_signed((ptx_type_t)in->t);
                uint64_t acc = 0;
                bool first = true;
                for (uint32_t mm = m; mm; mm &= mm - 1) {
                    uint64_t x = A[__builtin_ctz(mm)] & 0xffffffffu;
                    if (first) {
                        acc = x;
                        first = false;
                        continue;
                    }
                    switch (in->sub) {
                    case 1: acc = (acc + x) & 0xffffffffu; break;
                    case 2: acc = s ? ((int32_t)x < (int32_t)acc ? x : acc) : (x < acc ? x : acc); break;
                    case 3: acc = s ? ((int32_t)x > (int32_t)acc ? x : acc) : (x > acc ? x : acc); break;
                    case 6: acc &= x; break;
                    case 7: acc |= x; break;
                    default: acc ^= x; break;
                    }
                }
                LANES(m, D[l] = acc);
                break;
            }
            case EOP_ELECT: {
                uint64_t *D = ROW(in->d);
                uint64_t *P = in->d2 != EMU_NONE ? ROW(in->d2) : NULL;
                const uint64_t *A = ROW(in->a);
                unsigned l0 = m ? (unsigned)__builtin_ctz(m & (uint32_t)A[__builtin_ctz(m)]) : 0;
                LANES(m, {
                    D[l] = l0;
                    if (P) P[l] = (l == l0);
                });
                break;
            }
            case EOP_GA_LOADMETA:
            case EOP_GA_MEMCHECK_G:
            case EOP_GA_MEMCHECK_S: {
                /* The pass guards a check's call with its access's guard but not the st.param/ld.param
                 * around it (ptxas refuses guards there): lanes whose guard is false still read the
                 * result, so they get a defined one (LOADMETA: 0; MEMCHECK.G: the stripped address), as
                 * if the check were a pass-through for them; their access does not run. */
                static const unsigned lsz[] = {8}, gsz[] = {8, 8, 4}, ssz[] = {4, 4, 4, 4};
                const unsigned *sz = in->op == EOP_GA_LOADMETA ? lsz : in->op == EOP_GA_MEMCHECK_G ? gsz : ssz;
                uint32_t skipped = amask & ~m;
                if (skipped && in->nrets) {
                    uint32_t roff = X->m->pool[in->ret_first];
                    uint32_t aoff = X->m->pool[in->arg_first];
                    for (uint32_t mm = skipped; mm; mm &= mm - 1) {
                        unsigned l = (unsigned)__builtin_ctz(mm);
                        uint64_t v = 0;
                        if (in->op == EOP_GA_MEMCHECK_G && prm_written(fr, aoff, 1u << l, 8))
                            v = prm_get(fr, aoff, l, 8) & X->va_mask;
                        prm_put(fr, roff, l, v, 8);
                    }
                }
                if (m == 0) break;
                if (!args_written(X, w, fr, in, m, sz)) goto fatal_out;
                bool ok = in->op == EOP_GA_LOADMETA     ? ga_loadmeta(X, w, fr, in, m)
                          : in->op == EOP_GA_MEMCHECK_G ? ga_memcheck_g(X, w, fr, in, m)
                                                        : ga_memcheck_s(X, w, fr, in, m);
                if (!ok) goto fatal_out;
                break;
            }
            case EOP_VPRINTF: {
                static const unsigned vsz[] = {8, 8};
                if (m == 0) break;
                if (!args_written(X, w, fr, in, m, vsz)) goto fatal_out;
                const uint32_t *pool = X->m->pool + in->arg_first;
                uint32_t roff = in->nrets ? X->m->pool[in->ret_first] : EMU_NONE;
                for (uint32_t mm = m; mm; mm &= mm - 1) {
                    unsigned l = (unsigned)__builtin_ctz(mm);
                    uint64_t fmt = prm_get(fr, pool[0], l, 8), args = prm_get(fr, pool[1], l, 8);
                    char buf[4096];
                    reader_t rd = {X, w, l};
                    int nout = emu_format_printf(read_generic, &rd, fmt, args, buf, sizeof buf);
                    if (nout >= 0) fputs(buf, stdout);
                    if (roff != EMU_NONE) prm_put(fr, roff, l, (uint64_t)(uint32_t)nout, 4);
                }
                fflush(stdout);
                break;
            }
            case EOP_ASSERTFAIL: {
                static const unsigned asz[] = {8, 8, 4, 8, 8};
                if (m == 0) break;
                if (!args_written(X, w, fr, in, m, asz)) goto fatal_out;
                const uint32_t *pool = X->m->pool + in->arg_first;
                unsigned l = (unsigned)__builtin_ctz(m);
                char msgbuf[256], filebuf[256], fnbuf[256];
                reader_t rd = {X, w, l};
                emu_read_cstr(read_generic, &rd, prm_get(fr, pool[0], l, 8), msgbuf, sizeof msgbuf);
                emu_read_cstr(read_generic, &rd, prm_get(fr, pool[1], l, 8), filebuf, sizeof filebuf);
                emu_read_cstr(read_generic, &rd, prm_get(fr, pool[3], l, 8), fnbuf, sizeof fnbuf);
                uint32_t line = (uint32_t)prm_get(fr, pool[2], l, 4);
                fatal(X, w, in, EMU_ERR_ASSERT,
                      "%s:%u: %s: block: [%u,%u,%u], thread: [%u,%u,%u] Assertion `%s` failed.", filebuf, line, fnbuf,
                      X->cta->ctaid[0], X->cta->ctaid[1], X->cta->ctaid[2], w->tid[l][0], w->tid[l][1], w->tid[l][2],
                      msgbuf);
                goto fatal_out;
            }
            default:
                fatal(X, w, in, EMU_ERR_INTERNAL, "internal: undecoded operation %u", in->op);
                goto fatal_out;
            }
            pc++;
            if (pc == rpc) {
                top->pc = pc;
                goto reload;
            }
            continue;
        }
        top->pc = pc;
        break;
    reload:
        continue;
    }
    goto done;
yield:
    ret = 0;
    goto done;
oom:
    fatal(X, w, NULL, EMU_ERR_INTERNAL, "out of host memory");
fatal_out:
    ret = -1;
done:
    X->warp_insns += wi;
    X->thread_insns += ti;
    X->ga_insns += gi;
    X->ga_overhead += go;
    X->sm->clock += wi;
    return ret;
}

/* ---------------------------------------------------------------------------------------------------
 * CTAs and the launch loop. */

static uint32_t cta_live_threads(const emu_cta_t *c)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < c->nwarps; i++) {
        const emu_warp_t *w = &c->warps[i];
        if (w->state == W_DONE) continue;
        uint32_t valid = w->nthreads >= 32 ? 0xffffffffu : ((1u << w->nthreads) - 1u);
        n += popc32(valid & ~w->exited);
    }
    return n;
}

/* Release the barriers whose count is reached. Returns true if a warp became ready. */
static bool release_barriers(xctx_t *X, emu_cta_t *c)
{
    bool any = false;
    uint32_t live = cta_live_threads(c);
    for (uint32_t id = 0; id < MAX_BARRIERS; id++) {
        uint32_t need = X->bar_expected[id] ? X->bar_expected[id] : live;
        bool waiting = false;
        for (uint32_t i = 0; i < c->nwarps; i++) waiting |= (c->warps[i].state == W_BAR && c->warps[i].bar_id == id);
        if (!waiting || X->bar_arrived[id] < need) continue;
        for (uint32_t i = 0; i < c->nwarps; i++) {
            emu_warp_t *w = &c->warps[i];
            if (w->state != W_BAR || w->bar_id != id) continue;
            w->state = W_READY;
            if (w->bar_red_d != EMU_NONE && w->nframes) {
                emu_frame_t *fr = &w->frames[w->nframes - 1];
                uint64_t *row = fr->rf + (size_t)w->bar_red_d * EMU_LANES;
                for (uint32_t mm = w->bar_red_mask; mm; mm &= mm - 1) row[__builtin_ctz(mm)] = X->bar_red_acc[id];
            }
            any = true;
        }
        X->bar_arrived[id] = 0;
        X->bar_expected[id] = 0;
        X->bar_red_acc[id] = (X->bar_red_op[id] == 2) ? 1 : 0;
    }
    return any;
}

static int start_cta(xctx_t *X, emu_sm_t *sm, uint64_t linear)
{
    emu_launch_t *L = X->L;
    emu_cta_t *c = &sm->cta;
    c->linear = linear;
    c->ctaid[0] = (uint32_t)(linear % L->grid.x);
    c->ctaid[1] = (uint32_t)((linear / L->grid.x) % L->grid.y);
    c->ctaid[2] = (uint32_t)(linear / ((uint64_t)L->grid.x * L->grid.y));
    c->shared_bytes = L->shared_bytes;
    if (c->shared_bytes) memset(c->shared, 0, c->shared_bytes);
    c->live = c->nwarps;
    for (uint32_t i = 0; i < c->nwarps; i++) {
        emu_warp_t *w = &c->warps[i];
        while (w->nframes) pop_frame(w);
        w->id = i;
        w->nthreads = (L->threads_per_cta - 32u * i) < 32u ? L->threads_per_cta - 32u * i : 32u;
        uint32_t valid = w->nthreads >= 32 ? 0xffffffffu : ((1u << w->nthreads) - 1u);
        w->exited = ~valid;
        w->state = W_READY;
        w->nsimt = 0;
        w->local_sp = 0;
        w->ga_flagged = 0;
        w->nlm = 0;
        w->bar_red_d = EMU_NONE;
        for (unsigned l = 0; l < EMU_LANES; l++) {
            uint32_t t = 32u * i + l;
            w->tid[l][0] = t % L->block.x;
            w->tid[l][1] = (t / L->block.x) % L->block.y;
            w->tid[l][2] = t / (L->block.x * L->block.y);
        }
        X->cta = c;
        X->sm = sm;
        int rc = push_frame(X, w, L->kfn, EMU_NONE, EMU_NONE, valid);
        if (rc) return rc;
    }
    memset(X->bar_arrived, 0, sizeof X->bar_arrived);
    memset(X->bar_expected, 0, sizeof X->bar_expected);
    memset(X->bar_red_acc, 0, sizeof X->bar_red_acc);
    sm->busy = true;
    return 0;
}

emu_status_t emu_run_launch(emu_launch_t *L)
{
    emu_dev_t *d = L->dev;
    xctx_t X;
    memset(&X, 0, sizeof X);
    X.L = L;
    X.d = d;
    X.m = L->mod;
    X.code = L->mod->code;
    X.stack_bytes = d->cfg.stack_bytes;
    X.tag_bits = d->cfg.tag_bits;
    X.va_mask = ga_va_mask(d->cfg.tag_bits);
    X.compiler = L->mod->instrumented && d->cfg.armor == EMU_ARMOR_COMPILER;
    X.hwonly = d->cfg.armor == EMU_ARMOR_HWONLY;
    unsigned S = d->cfg.sms;
    emu_status_t st = EMU_OK;
    /* Per-SM resources for this launch. The barrier state lives in X and belongs to the CTA being
     * run; SMs run their rounds one after the other, so it is saved per SM. */
    typedef struct {
        uint32_t arrived[MAX_BARRIERS], expected[MAX_BARRIERS], acc[MAX_BARRIERS], op[MAX_BARRIERS];
    } barsave_t;
    barsave_t *bs = calloc(S, sizeof *bs);
    if (bs == NULL) return EMU_ERR_NO_MEMORY;
    for (unsigned s = 0; s < S; s++) {
        emu_sm_t *sm = &d->sm[s];
        sm->busy = false;
        sm->cta.nwarps = L->warps_per_cta;
        sm->cta.warps = calloc(L->warps_per_cta, sizeof *sm->cta.warps);
        sm->cta.shared = L->shared_bytes ? malloc(L->shared_bytes) : NULL;
        if (sm->cta.warps == NULL || (L->shared_bytes && sm->cta.shared == NULL)) {
            st = EMU_ERR_NO_MEMORY;
            goto cleanup;
        }
    }
    uint64_t maxi = d->cfg.max_instructions;
    for (;;) {
        bool any = false;
        for (unsigned s = 0; s < S && L->status == EMU_OK; s++) {
            emu_sm_t *sm = &d->sm[s];
            X.sm = sm;
            X.cta = &sm->cta;
            if (!sm->busy) {
                if (L->next_cta >= L->ncta) continue;
                int rc = start_cta(&X, sm, L->next_cta++);
                if (rc) {
                    fatal(&X, NULL, NULL, rc == -2 ? EMU_ERR_STACK_OVERFLOW : EMU_ERR_NO_MEMORY,
                          rc == -2 ? "the kernel's local memory exceeds --stack-size" : "out of host memory");
                    break;
                }
                memset(&bs[s], 0, sizeof bs[s]);
            }
            memcpy(X.bar_arrived, bs[s].arrived, sizeof X.bar_arrived);
            memcpy(X.bar_expected, bs[s].expected, sizeof X.bar_expected);
            memcpy(X.bar_red_acc, bs[s].acc, sizeof X.bar_red_acc);
            memcpy(X.bar_red_op, bs[s].op, sizeof X.bar_red_op);
            any = true;
            emu_cta_t *c = &sm->cta;
            bool ran = false;
            for (uint32_t i = 0; i < c->nwarps && L->status == EMU_OK; i++) {
                emu_warp_t *w = &c->warps[i];
                if (w->state != W_READY) continue;
                ran = true;
                if (run_warp(&X, w, QUANTUM) < 0) break;
                if (w->state == W_DONE || w->state == W_BAR) release_barriers(&X, c);
            }
            if (L->status != EMU_OK) break;
            uint32_t live = 0;
            for (uint32_t i = 0; i < c->nwarps; i++) live += c->warps[i].state != W_DONE;
            if (live == 0) {
                sm->busy = false;
            } else if (!ran) {
                if (!release_barriers(&X, c)) {
                    char ids[128];
                    size_t k = 0;
                    ids[0] = 0;
                    for (uint32_t i = 0; i < c->nwarps && k + 16 < sizeof ids; i++)
                        if (c->warps[i].state == W_BAR) k += (size_t)snprintf(ids + k, sizeof ids - k, " w%u@%u", i, c->warps[i].bar_id);
                    fatal(&X, NULL, NULL, EMU_ERR_LAUNCH_FAILED,
                          "barrier deadlock in block (%u,%u,%u): %u warps wait (warp@barrier:%s) for threads that "
                          "exited or wait elsewhere",
                          c->ctaid[0], c->ctaid[1], c->ctaid[2], live, ids);
                    break;
                }
            }
            memcpy(bs[s].arrived, X.bar_arrived, sizeof X.bar_arrived);
            memcpy(bs[s].expected, X.bar_expected, sizeof X.bar_expected);
            memcpy(bs[s].acc, X.bar_red_acc, sizeof X.bar_red_acc);
            memcpy(bs[s].op, X.bar_red_op, sizeof X.bar_red_op);
        }
        if (L->status != EMU_OK || !any) break;
        if (maxi && X.warp_insns > maxi) {
            fatal(&X, NULL, NULL, EMU_ERR_TIMEOUT,
                  "the kernel ran more than %" PRIu64 " warp instructions (--max-instructions): stopped as hung",
                  maxi);
            break;
        }
    }
    st = L->status;
cleanup:
    for (unsigned s = 0; s < S; s++) {
        emu_sm_t *sm = &d->sm[s];
        if (sm->cta.warps) {
            for (uint32_t i = 0; i < sm->cta.nwarps; i++) {
                emu_warp_t *w = &sm->cta.warps[i];
                while (w->nframes) pop_frame(w);
                free(w->frames);
                free(w->simt);
                free(w->local);
                free(w->lm_loc);
                free(w->lm_root);
            }
        }
        free(sm->cta.warps);
        free(sm->cta.shared);
        sm->cta.warps = NULL;
        sm->cta.shared = NULL;
        sm->busy = false;
    }
    free(bs);
    d->last.warp_insns = X.warp_insns;
    d->last.thread_insns = X.thread_insns;
    d->last.ga_insns = X.ga_insns;
    d->last.ga_overhead = X.ga_overhead;
    L->warp_insns = X.warp_insns;
    return st;
}
