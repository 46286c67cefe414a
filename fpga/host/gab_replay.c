/*
 * gab_replay.c — replay a gatrace (docs/traces.md) through the board (docs/fpga.md §7.3).
 *
 * The trace library's replay (sim/trace/ga_replay.h) drives every MLU operation through a backend
 * (cmodel/ga_backend.h) opened by name from the program's registry: gaprobe's replay registry holds
 * the board backend "board" defined here, and the session travels as the backend's argument, so no
 * global binds the two. Each operation goes to the golden model (the replay's own ga_system, trace address
 * space) and to the board (board address space, with the board's golden-model mirror checking every
 * response exactly); the two results are compared lane by lane.
 *
 *   - SMs: the replay runs with the board's SMs (1, or NumSms of a system board: docs/fpga.md §12);
 *     each operation goes to its SM's MLU, the runtime's invalidations and register writes to every SM.
 *   - Lanes: a warp operation wider than the board is sent as consecutive groups of the board's lanes;
 *     the per-lane results of spec §4-§5 do not depend on the grouping (spec §5.4), so the combined
 *     fault mask and lowest failing lane's record must equal the model's. The MLB sees more lookups
 *     than the model's (each group looks up), which changes hit counts, never results.
 *   - Memory: the runtime's metadata region is placed in the board's window (md_base 32); after every
 *     runtime call the changed lines are written, the invalidated locations invalidated and ROOT
 *     rewritten, as spec §5.2 asks of the runtime.
 *   - Narrow builds keep only the low VaKeep bits of a VA: heap addresses are moved down by the heap's
 *     base (auto traces; fixed traces keep their addresses and must fit), addresses outside the heap are
 *     sent as an address no allocation covers; the comparison is made in board addresses.
 *   - TABLE: the oracle answer for an operation is the runtime's for its lane-0 VA (exact for 1-lane
 *     boards, which all FPGA builds are).
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "ga_replay.h"
#include "ga_trace.h"
#include "gab_sess.h"

/* What gab_replay hands the backend's open, and learns back: the session, and the backend built
 * (for its counters after the replay). */
typedef struct bk bk_t;
typedef struct {
    gab_sess_t *s;
    bk_t *bk;
} bk_bind_t;

struct bk {
    gab_sess_t *s;
    ga_system_t *sys;
    ga_backend_t model;
    uint8_t *shadow;        /* the runtime's window as last sent (trace values) */
    bool started;
    bool narrow;
    uint64_t heap_lo, span; /* narrow: trace VAs [heap_lo, heap_lo + span) map to [H0, H0 + span) */
    uint64_t ph;            /* narrow: the board VA for an address outside that range */
    ga_mlu_cfg_t regs;      /* the board's registers as last written */
    uint64_t ops, groups, skipped, cmp_fail;
    int fatal;
    char fatal_msg[600];
};

/* Narrow builds: the lowest board VA of the heap. */
#define H0 UINT64_C(0x100)

static unsigned tbits(const bk_t *b) { return b->s->info.tag_bits; }
static uint64_t vamask(const bk_t *b) { return (UINT64_C(1) << (64u - tbits(b))) - 1u; }

/* Trace VA -> board VA. */
static uint64_t xva(const bk_t *b, uint64_t va)
{
    if (!b->narrow) return va;
    if (va >= b->heap_lo && va - b->heap_lo < b->span) return va - b->heap_lo + H0;
    return b->ph;
}
static uint64_t xptr(const bk_t *b, uint64_t p) { return (p & ~vamask(b)) | xva(b, p & vamask(b)); }

static void set_fatal(bk_t *b, const char *msg)
{
    if (b->fatal) return;
    b->fatal = 1;
    snprintf(b->fatal_msg, sizeof b->fatal_msg, "%s", msg);
}

static int cfg_write(bk_t *b, unsigned reg, uint64_t v)
{
    gab_req_t r;
    gab_rsp_t rsp;
    memset(&r, 0, sizeof r);
    r.op = GAB_OP_CFG_WRITE;
    r.cfg_addr = (uint8_t)reg;
    r.md = v;
    r.sm_set = reg == GAB_CFG_SM_ID; /* SM 0's; the other registers reach every SM */
    r.sm = 0;
    if (gab_sess_op(b->s, &r, &rsp) != 0) {
        set_fatal(b, b->s->err);
        return -1;
    }
    return 0;
}

/* Registers of the model's SM 0 onto the board when they differ. */
static int sync_regs(bk_t *b)
{
    const ga_mlu_cfg_t *c = &b->sys->sm[0].cfg;
    int rc = 0;
    if (!b->started || c->mode != b->regs.mode) rc |= cfg_write(b, GAB_CFG_MODE, c->mode);
    if (!b->started || c->layout != b->regs.layout) rc |= cfg_write(b, GAB_CFG_LAYOUT, c->layout);
    if (!b->started || c->root != b->regs.root) rc |= cfg_write(b, GAB_CFG_ROOT, c->root);
    if (!b->started || c->step_limit != b->regs.step_limit) {
        /* A narrow build cannot express every STEP_LIMIT: the largest it can, which no walk inside the
         * board's window reaches without a cycle (docs/fpga.md §6). */
        uint64_t sl = c->step_limit, km = b->s->mirror.keep_md & UINT32_MAX;
        rc |= cfg_write(b, GAB_CFG_STEP_LIMIT, (sl & ~km) != 0u ? km : sl);
    }
    if (!b->started || c->policy != b->regs.policy) rc |= cfg_write(b, GAB_CFG_POLICY, c->policy);
    if (!b->started || c->sm_id != b->regs.sm_id) rc |= cfg_write(b, GAB_CFG_SM_ID, c->sm_id);
    /* SM_ID is each SM's own (a system board: every SM's, written once). */
    for (unsigned k = 1; !b->started && k < b->s->info.num_sms && rc == 0; k++) {
        gab_req_t r;
        gab_rsp_t rsp;
        memset(&r, 0, sizeof r);
        r.op = GAB_OP_CFG_WRITE;
        r.cfg_addr = GAB_CFG_SM_ID;
        r.md = b->sys->sm[k].cfg.sm_id;
        r.sm_set = true;
        r.sm = (uint8_t)k;
        if (gab_sess_op(b->s, &r, &rsp) != 0) {
            set_fatal(b, b->s->err);
            rc = -1;
        }
    }
    b->regs = *c;
    return rc;
}

/* An entry's tagged base in board addresses; false when its base cannot be represented. */
static bool xtb(const bk_t *b, uint64_t tb, uint64_t size, uint64_t *out)
{
    uint64_t va = tb & vamask(b);
    if (!b->narrow || (tb == 0u && size == 0u)) {
        *out = tb;
        return true;
    }
    if (!(va >= b->heap_lo && va - b->heap_lo < b->span)) return false;
    *out = (tb & ~vamask(b)) | (va - b->heap_lo + H0);
    return true;
}

static int sync_mem(bk_t *b)
{
    gab_sess_t *s = b->s;
    bool table = b->sys->cfg.rt.layout == GA_LAYOUT_TABLE;
    for (uint64_t a = 0; a < s->mirror.win; a += 32u) {
        uint8_t line[32];
        (void)ga_mem_read(b->sys->mem, a, line, 32);
        if (b->started && memcmp(line, b->shadow + a, 32) == 0) continue;
        memcpy(b->shadow + a, line, 32);
        uint8_t out[32];
        memcpy(out, line, 32);
        for (unsigned h = 0; h < (table ? 2u : 1u); h++) {
            uint64_t tb;
            if (!xtb(b, ga_le64(line + 16u * h), ga_le64(line + 16u * h + 8u), &tb)) {
                char m[300];
                snprintf(m, sizeof m, "the trace's allocation at 0x%" PRIx64 " is beyond the %u VA bits this board "
                         "keeps (docs/fpga.md §6)", ga_le64(line + 16u * h) & vamask(b), s->info.va_keep);
                set_fatal(b, m);
                return -1;
            }
            ga_put_le64(out + 16u * h, tb);
        }
        uint8_t have[32];
        (void)ga_mem_read(s->mirror.mem, a, have, 32);
        if (memcmp(out, have, 32) != 0 && gab_sess_mem_write(s, (unsigned)(a / 32u), out) != 0) {
            set_fatal(b, s->err);
            return -1;
        }
    }
    return 0;
}

static int start(bk_t *b)
{
    if (b->started) return b->fatal ? -1 : 0;
    if (sync_mem(b) != 0 || sync_regs(b) != 0) return -1;
    b->started = true;
    return 0;
}

/* Compare the board's combined result with the model's (both in board addresses). */
static void compare(bk_t *b, const char *what, const ga_warp_req_t *req, const ga_warp_rsp_t *m,
                    const ga_warp_rsp_t *g, bool with_addr)
{
    char d[600];
    const char *f = NULL;
    uint64_t e = 0, v = 0;
    if (m->fault != g->fault) { f = "fault mask"; e = m->fault; v = g->fault; }
    else if (with_addr) {
        for (unsigned l = 0; l < req->lanes && f == NULL; l++)
            if (((req->active >> l) & 1u) && m->addr[l] != g->addr[l]) { f = "lane address"; e = m->addr[l]; v = g->addr[l]; }
    }
    if (f == NULL && m->fault != 0u) {
        const ga_exc_t *x = &m->rec, *y = &g->rec;
        if (x->kind != y->kind) { f = "record kind"; e = x->kind; v = y->kind; }
        else if (x->lane != y->lane) { f = "record lane"; e = x->lane; v = y->lane; }
        else if (x->addr != y->addr) { f = "record addr"; e = x->addr; v = y->addr; }
        else if (x->md != y->md) { f = "record md"; e = x->md; v = y->md; }
        else if (x->entry.tb != y->entry.tb) { f = "record entry tb"; e = x->entry.tb; v = y->entry.tb; }
        else if (x->entry.size != y->entry.size) { f = "record entry size"; e = x->entry.size; v = y->entry.size; }
        else if (x->size != y->size) { f = "record size"; e = x->size; v = y->size; }
        else if (x->sm != y->sm) { f = "record sm"; e = x->sm; v = y->sm; }
        else if (x->warp != y->warp) { f = "record warp"; e = x->warp; v = y->warp; }
    }
    if (f == NULL) return;
    b->cmp_fail++;
    snprintf(d, sizeof d, "replay op %" PRIu64 " %s lane0 0x%" PRIx64 ": %s: model 0x%" PRIx64 ", board 0x%" PRIx64,
             b->ops, what, req->addr[0], f, e, v);
    gab_sess_mismatch(b->s, "board vs model", d);
}

/* The model's response moved into board addresses. */
static void to_board(const bk_t *b, const ga_warp_req_t *req, ga_warp_rsp_t *m)
{
    for (unsigned l = 0; l < req->lanes; l++) m->addr[l] = xva(b, m->addr[l]);
    if (m->fault != 0u) {
        m->rec.addr = xptr(b, m->rec.addr);
        uint64_t tb;
        if (xtb(b, m->rec.entry.tb, m->rec.entry.size, &tb)) m->rec.entry.tb = tb;
    }
}

static unsigned size_log2(uint32_t s)
{
    unsigned k = 0;
    while ((UINT32_C(1) << k) < s) k++;
    return k;
}

/* Run a warp op on the board in groups of its lanes; combined result into g (board addresses). Returns
 * GA_OK, GA_ERR_HALTED (the board refused), or another error with the session's message. */
static ga_err_t board_warp(bk_t *b, unsigned op, unsigned sm, const ga_warp_req_t *req, uint64_t md,
                           ga_warp_rsp_t *g)
{
    gab_sess_t *s = b->s;
    unsigned L = s->lanes;
    memset(g, 0, sizeof *g);
    bool halted = false;
    for (unsigned c = 0; c < req->lanes; c += L) {
        uint32_t act = (req->active >> c) & (uint32_t)((UINT64_C(1) << L) - 1u);
        if (act == 0u && op != GAB_OP_LOADMETA) {
            for (unsigned l = c; l < c + L && l < req->lanes; l++)
                g->addr[l] = op == GAB_OP_MEMCHECK_S ? 0u : xva(b, req->addr[l] & vamask(b));
            continue;
        }
        gab_req_t r;
        memset(&r, 0, sizeof r);
        r.op = (uint8_t)op;
        r.md = md;
        r.warp = req->warp;
        r.size_log2 = (uint8_t)size_log2(req->size);
        r.active = act;
        r.sm_set = true;
        r.sm = (uint8_t)sm;
        for (unsigned l = 0; l < L && c + l < req->lanes; l++)
            r.addr[l] = op == GAB_OP_MEMCHECK_S ? req->addr[c + l] : xptr(b, req->addr[c + l]);
        uint64_t idx = 0;
        if (op != GAB_OP_MEMCHECK_S && op != GAB_OP_MEMCHECK_G &&
            ga_rt_oracle(b->sys->rt, req->addr[c] & vamask(b), &idx) && idx <= UINT16_MAX) {
            r.orc_found = 1;
            r.orc_idx = (uint16_t)idx;
        }
        char why[300];
        if (!gab_mirror_req_fits(&s->mirror, &r, why, sizeof why)) {
            b->skipped++;
            return GA_ERR_BAD_PARAM; /* not comparable: the caller counts it */
        }
        gab_rsp_t rsp;
        if (gab_sess_op(s, &r, &rsp) != 0) {
            set_fatal(b, s->err);
            return GA_ERR_NO_MEMORY;
        }
        b->groups++;
        if (rsp.rsp_status == GAB_RSP_HALTED) halted = true;
        for (unsigned l = 0; l < L && c + l < req->lanes; l++) g->addr[c + l] = rsp.addr[l];
        if (op == GAB_OP_LOADMETA) g->addr[0] = rsp.rd; /* carried back in addr[0] */
        if (rsp.fault != 0u && g->fault == 0u) {
            g->rec.kind = (ga_exc_kind_t)rsp.kind;
            g->rec.addr = rsp.exc_addr;
            g->rec.size = UINT32_C(1) << (rsp.exc_size_log2 & 7u);
            g->rec.sm = rsp.exc_sm;
            g->rec.warp = rsp.exc_warp;
            g->rec.lane = (uint8_t)(rsp.exc_lane + c);
            g->rec.md = rsp.exc_md;
            g->rec.entry.tb = rsp.exc_tb;
            g->rec.entry.size = rsp.exc_esize;
        }
        g->fault |= rsp.fault << c;
    }
    return halted ? GA_ERR_HALTED : GA_OK;
}

static ga_err_t bk_loadmeta(void *ctx, unsigned sm, uint64_t p, uint64_t *rd)
{
    bk_t *b = ctx;
    ga_err_t e = b->model.loadmeta(b->model.ctx, sm, p, rd);
    if (b->fatal || start(b) != 0 || sync_regs(b) != 0) return b->fatal ? GA_ERR_NO_MEMORY : e;
    b->ops++;
    ga_warp_req_t req;
    memset(&req, 0, sizeof req);
    req.lanes = 1;
    req.active = 1;
    req.size = 1;
    req.addr[0] = p;
    ga_warp_rsp_t g;
    ga_err_t ge = board_warp(b, GAB_OP_LOADMETA, sm, &req, 0, &g);
    if (b->fatal) return GA_ERR_NO_MEMORY;
    if (ge == GA_ERR_BAD_PARAM) return e;
    if (ge != e || (e == GA_OK && g.addr[0] != *rd)) {
        char d[300];
        b->cmp_fail++;
        snprintf(d, sizeof d, "replay op %" PRIu64 " LOADMETA 0x%" PRIx64 ": model rd 0x%" PRIx64 " (%s), board rd 0x%"
                 PRIx64 " (%s)", b->ops, p, *rd, ga_strerror(e), g.addr[0], ga_strerror(ge));
        gab_sess_mismatch(b->s, "board vs model", d);
    }
    return e;
}

static ga_err_t warp_op(bk_t *b, unsigned op, unsigned sm, const ga_warp_req_t *req, uint64_t md, uint32_t base,
                        uint32_t ssize, ga_warp_rsp_t *rsp)
{
    ga_err_t e;
    if (op == GAB_OP_MEMCHECK_G) e = b->model.memcheck_g(b->model.ctx, sm, req, md, rsp);
    else if (op == GAB_OP_MEMCHECK_S) e = b->model.memcheck_s(b->model.ctx, sm, req, base, ssize, rsp);
    else e = b->model.access(b->model.ctx, sm, req, rsp);
    if (b->fatal || start(b) != 0 || sync_regs(b) != 0) return b->fatal ? GA_ERR_NO_MEMORY : e;
    if (e != GA_OK && e != GA_ERR_HALTED) return e;
    b->ops++;
    ga_warp_rsp_t g;
    uint64_t bmd = op == GAB_OP_MEMCHECK_S ? ((uint64_t)ssize << 32) | base : md;
    ga_err_t ge = board_warp(b, op, sm, req, bmd, &g);
    if (b->fatal) return GA_ERR_NO_MEMORY;
    if (ge == GA_ERR_BAD_PARAM) return e;
    if (ge != e) {
        char d[300];
        b->cmp_fail++;
        snprintf(d, sizeof d, "replay op %" PRIu64 " %s: model %s, board %s", b->ops, gab_op_name(op), ga_strerror(e),
                 ga_strerror(ge));
        gab_sess_mismatch(b->s, "board vs model", d);
        return e;
    }
    if (e == GA_OK) {
        ga_warp_rsp_t m = *rsp;
        if (op != GAB_OP_MEMCHECK_S) to_board(b, req, &m);
        compare(b, gab_op_name(op), req, &m, &g, op != GAB_OP_MEMCHECK_S);
    }
    return e;
}

static ga_err_t bk_memcheck_g(void *ctx, unsigned sm, const ga_warp_req_t *req, uint64_t md, ga_warp_rsp_t *rsp)
{
    return warp_op(ctx, GAB_OP_MEMCHECK_G, sm, req, md, 0, 0, rsp);
}
static ga_err_t bk_memcheck_s(void *ctx, unsigned sm, const ga_warp_req_t *req, uint32_t base, uint32_t ssize,
                              ga_warp_rsp_t *rsp)
{
    return warp_op(ctx, GAB_OP_MEMCHECK_S, sm, req, 0, base, ssize, rsp);
}
static ga_err_t bk_access(void *ctx, unsigned sm, const ga_warp_req_t *req, ga_warp_rsp_t *rsp)
{
    return warp_op(ctx, GAB_OP_ACCESS, sm, req, 0, 0, 0, rsp);
}

static void bk_runtime_changed(void *ctx, const uint64_t *locs, size_t n, uint64_t root)
{
    bk_t *b = ctx;
    b->model.runtime_changed(b->model.ctx, locs, n, root);
    if (b->fatal || start(b) != 0) return;
    if (sync_mem(b) != 0) return;
    for (size_t i = 0; i < n; i++) {
        gab_req_t r;
        gab_rsp_t rsp;
        memset(&r, 0, sizeof r);
        r.op = GAB_OP_INVALIDATE;
        r.md = locs[i];
        if (gab_sess_op(b->s, &r, &rsp) != 0) {
            set_fatal(b, b->s->err);
            return;
        }
    }
    (void)sync_regs(b);
}

/* An MLB flush goes to the model and to the board's MLU of that SM (the replay itself never flushes;
 * the interface's other users may). */
static void bk_flush(void *ctx, unsigned sm)
{
    bk_t *b = ctx;
    b->model.flush(b->model.ctx, sm);
    if (b->fatal || start(b) != 0) return;
    gab_req_t r;
    gab_rsp_t rsp;
    memset(&r, 0, sizeof r);
    r.op = GAB_OP_FLUSH;
    r.sm_set = true;
    r.sm = (uint8_t)sm;
    if (gab_sess_op(b->s, &r, &rsp) != 0) set_fatal(b, b->s->err);
}

static int bk_check(void *ctx, char *msg, size_t cap)
{
    bk_t *b = ctx;
    if (b->fatal) {
        snprintf(msg, cap, "board: %.400s", b->fatal_msg);
        return -1;
    }
    uint32_t cnt[GAB_NCNT];
    if (gab_sess_counters(b->s, false, cnt) != 0 || gab_sess_check_regs(b->s) != 0) {
        snprintf(msg, cap, "board: %.400s", b->s->err);
        return -1;
    }
    if (cap > 0u) msg[0] = '\0';
    return 0;
}

static void bk_destroy(void *ctx)
{
    bk_t *b = ctx;
    if (b == NULL) return;
    ga_backend_close(&b->model);
    free(b->shadow);
    free(b);
}

/* The board backend's open (registry name "board"): gaprobe's board, bound to the session in arg (a
 * bk_bind_t, which also learns the backend built). */
static int bk_create(ga_backend_t *be, ga_system_t *sys, void *arg, char *msg, size_t cap)
{
    bk_bind_t *bind = arg;
    memset(be, 0, sizeof *be);
    if (bind == NULL || bind->s == NULL) {
        snprintf(msg, cap, "no board session to replay through");
        return -1;
    }
    bk_t *b = calloc(1, sizeof *b);
    if (b != NULL) b->shadow = calloc(1, (size_t)bind->s->mirror.win);
    if (b == NULL || b->shadow == NULL) {
        if (b != NULL) free(b);
        snprintf(msg, cap, "out of memory");
        return -1;
    }
    b->s = bind->s;
    b->sys = sys;
    if (ga_backend_open(NULL, "model", sys, NULL, &b->model, msg, cap) != GA_BACKEND_OK) {
        free(b->shadow);
        free(b);
        return -1;
    }
    unsigned v = 64u - b->s->info.tag_bits;
    b->narrow = b->s->info.va_keep < v;
    if (b->narrow) {
        uint64_t top = UINT64_C(1) << b->s->info.va_keep;
        b->heap_lo = sys->cfg.rt.fixed_addresses ? H0 : sys->cfg.rt.heap_base;
        uint64_t reserve = top / 4u < 0x1000u ? top / 4u : 0x1000u; /* the top quarter (at most 4 KiB) */
        b->span = top - H0 - reserve;                                 /* holds no allocation: addresses */
        b->ph = top - reserve / 2u;                                   /* outside the heap go there */
    }
    be->name = "board";
    be->ctx = b;
    be->loadmeta = bk_loadmeta;
    be->memcheck_g = bk_memcheck_g;
    be->memcheck_s = bk_memcheck_s;
    be->access = bk_access;
    be->flush = bk_flush;
    be->runtime_changed = bk_runtime_changed;
    be->check = bk_check;
    be->destroy = bk_destroy;
    bind->bk = b;
    return 0;
}

/* gaprobe's replay registry: the board (the model runs inside it, beside the board). */
static const ga_backend_def_t board_def = {"board", "the iCE40 board over its UART, checked against the model",
                                           bk_create};
static const ga_backend_def_t *const replay_backends[] = {&board_def, NULL};

int gab_replay(gab_sess_t *s, const gab_replay_opts_t *o)
{
    ga_trace_err_t err;
    memset(&err, 0, sizeof err);
    ga_trace_reader_t *r = NULL;
    if (ga_trace_open(&r, o->trace, &err) != 0) {
        fprintf(stderr, "gaprobe: %s\n", err.msg);
        return -4; /* an unreadable input (gaprobe.c: FAIL_INPUT) */
    }
    ga_replay_cfg_t cfg;
    ga_replay_default_cfg(&cfg);
    cfg.mode = o->mode ? GA_MODE_HWONLY : GA_MODE_COMPILER;
    cfg.layout = (ga_layout_t)o->layout;
    cfg.tag_bits = s->info.tag_bits;
    cfg.mlb_entries = s->info.mlb_entries;
    cfg.sms = s->info.num_sms;
    cfg.seed = o->seed;
    cfg.md_base = 32;
    cfg.md_capacity = (uint32_t)((s->mirror.win - 32u) / (o->layout == 2 ? 16u : 32u));
    cfg.step_limit = o->step_limit;
    bk_bind_t bind = {s, NULL};
    cfg.backend = "board";
    cfg.backends = replay_backends;
    cfg.backend_arg = &bind;
    ga_replay_t *rp = NULL;
    int rc = ga_replay_run(&rp, &cfg, r, NULL, NULL, &err);
    if (rc != 0) {
        /* the backend is destroyed with the failed replay: its message was kept in err or below */
        fprintf(stderr, "gaprobe: replay: %s\n", err.msg);
        ga_trace_close(r);
        return -3;
    }
    const bk_t *last_bk = bind.bk;
    const ga_replay_stats_t *st = ga_replay_stats(rp);
    if (s->verbose > 0) {
        fprintf(s->out, "replay %s (%s, %s, TagBits %u, MLB %u): %" PRIu64 " global and %" PRIu64
                " shared accesses, %" PRIu64 " detections",
                o->trace, o->mode ? "hwonly" : "compiler", ga_layout_name((ga_layout_t)o->layout), cfg.tag_bits,
                cfg.mlb_entries, st->global_accesses, st->shared_accesses, st->detections);
        if (last_bk != NULL)
            fprintf(s->out, "; %" PRIu64 " operations on the board in %" PRIu64 " requests, %" PRIu64
                    " not comparable (do not fit the build), %" PRIu64 " board/model differences",
                    last_bk->ops, last_bk->groups, last_bk->skipped, last_bk->cmp_fail);
        fprintf(s->out, "\n");
    }
    ga_replay_destroy(rp);
    ga_trace_close(r);
    return 0;
}
