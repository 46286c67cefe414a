/*
 * tb_backend.c — the RTL lockstep backend of the trace replay (ga_backend_rtl, sim/trace/ga_replay.h)
 * and of the evaluation (ga_eval_backend_rtl, sim/eval/ga_backend.h).
 *
 * Every MLU operation runs twice: on the golden model's unit sys->sm[sm] (its result is what the
 * backend returns, so every figure of gasim / gaeval is the model's), and as one request on a
 * Verilated ga_mlu, run to completion (drained) and checked in lockstep by the co-simulation's own
 * checker (tb/cosim/tb_chk.c: MLB commit log, walk replay with the reads the RTL made, every response
 * field) against its model state. The RTL's response is also compared with the model unit's answer
 * (rd; fault mask and the first record's kind). One Verilated instance per model SM, created on the
 * SM's first operation (an SM's model MLB is empty until then, so a fresh instance agrees with it).
 * The metadata memory port is served from the system's ga_mem (what the runtime wrote) and the table
 * oracle from ga_rt_oracle, with no latency, stalls, error injection or oracle lies: the replay checks
 * the workload, `make cosim` checks the corner cases of the ports.
 *
 * After every runtime call the runtime's invalidation locations go to every instance as
 * OP_INVALIDATE requests, then ROOT as OP_CFG_WRITE if it moved (as tb_main.c does).
 *
 * One Verilated configuration is linked into a program (the shim's symbols are per configuration:
 * mk/tb.mk builds build/cosim/<cfg>/gasim-rtl and gaeval-rtl); a system whose tag bits or MLB size
 * differ from it is refused with the name of the configuration to build.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ga_backend.h"
#include "ga_replay.h"
#include "tb_chk.h"
#include "tb_memsys.h"

#define RB_TIMEOUT 1000000u /* cycles one request may take before the backend gives up */

typedef struct {
    tb_dut_t *dut;
    tb_chk_t *chk;
    tb_memsys_t ms;
    uint64_t cycle;
    unsigned next_id;
} rb_unit_t;

typedef struct {
    ga_system_t *sys;
    tb_dut_info_t info;
    unsigned nids;
    rb_unit_t *u[GA_SYSTEM_MAX_SMS];
    uint64_t ops, disagree, fatal;
    char first[512]; /* the first problem, for check() */
} rb_t;

/* Remember the first problem (printed too). */
static void rb_note(rb_t *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void rb_note(rb_t *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char line[512];
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    if (b->first[0] == '\0') snprintf(b->first, sizeof b->first, "%s", line);
    if (b->disagree + b->fatal <= 20u) fprintf(stderr, "rtl: %s\n", line);
}

static void to_rsp(unsigned lanes, const tb_dut_out_t *o, tb_rsp_t *x)
{
    memset(x, 0, sizeof *x);
    x->id = o->rsp_id;
    x->op = o->rsp_op;
    x->status = o->rsp_status;
    x->rd = o->rsp_rd;
    for (unsigned l = 0; l < lanes; l++) x->addr[l] = o->rsp_addr[l];
    x->fault = o->rsp_fault;
    x->kind = o->rsp_exc_kind;
    x->size_log2 = o->rsp_exc_size;
    x->lane = o->rsp_exc_lane;
    x->exc_addr = o->rsp_exc_addr;
    x->md = o->rsp_exc_md;
    x->tb = o->rsp_exc_tb;
    x->esize = o->rsp_exc_esize;
    x->sm = o->rsp_exc_sm;
    x->warp = o->rsp_exc_warp;
}

/* Issue one request on unit u and run until its response has transferred and nothing is in flight.
 * Returns 0 with *x the response, -1 on a timeout (counted). */
static int rb_issue(rb_t *b, rb_unit_t *u, tb_req_t *q, tb_rsp_t *x)
{
    tb_dut_in_t in;
    tb_dut_out_t o;
    memset(&in, 0, sizeof in);
    q->id = (uint16_t)(u->next_id++ % b->nids);
    q->opidx = b->ops++;
    bool accepted = false, got = false;
    for (uint64_t n = 0; n < RB_TIMEOUT; n++) {
        in.req_valid = accepted ? 0u : 1u;
        in.req_op = q->op;
        in.req_id = q->id;
        in.req_warp = q->warp;
        in.req_active = q->active;
        memcpy(in.req_addr, q->addr, sizeof in.req_addr);
        in.req_size = q->size_log2;
        in.req_md = q->md;
        in.req_cfg_addr = q->cfg_addr;
        in.rsp_ready = 1;
        tb_memsys_drive(&u->ms, u->cycle, &in);
        tb_dut_set_inputs(u->dut, &in);
        tb_dut_eval(u->dut);
        tb_dut_get_outputs(u->dut, &o);
        tb_chk_cycle(u->chk, u->cycle);
        /* the transfers, in the order tb_chk.h asks for */
        if (in.req_valid && o.req_ready) {
            tb_chk_req(u->chk, q);
            accepted = true;
        }
        if (o.mem_req_valid && in.mem_req_ready) {
            if (!tb_memsys_accept_read(&u->ms, u->cycle, o.mem_req_addr, o.mem_req_len))
                tb_chk_fail(u->chk, q->opidx, "memory model queue overflow");
            tb_chk_mem_req(u->chk, o.mem_req_addr, o.mem_req_len);
        }
        if (in.mem_rsp_valid && o.mem_rsp_ready) {
            tb_chk_mem_rsp(u->chk, in.mem_rsp_data, in.mem_rsp_err != 0u, tb_memsys_rsp_injected(&u->ms));
            tb_memsys_rsp_taken(&u->ms);
        }
        if (o.orc_req_valid && in.orc_req_ready) {
            tb_memsys_accept_oracle(&u->ms, u->cycle, o.orc_req_va);
            tb_chk_orc_req(u->chk, o.orc_req_va);
        }
        if (in.orc_rsp_valid) {
            tb_chk_orc_rsp(u->chk, in.orc_rsp_found != 0u, in.orc_rsp_idx, tb_memsys_orc_lie(&u->ms));
            tb_memsys_orc_delivered(&u->ms);
        }
        if (o.ev_valid) tb_chk_event(u->chk, o.ev_kind, o.ev_id, o.ev_slot, o.ev_lane);
        if (o.rsp_valid) {
            to_rsp(b->info.lanes, &o, x);
            tb_chk_rsp(u->chk, x);
            got = true;
        }
        tb_dut_tick(u->dut);
        u->cycle++;
        if (tb_dut_failed(u->dut))
            tb_chk_fail(u->chk, q->opidx, "the RTL executed a failing assertion / $error / $stop at cycle %" PRIu64
                        " (its message is on stderr)", u->cycle);
        if (got && tb_chk_in_flight(u->chk) == 0u && tb_memsys_idle(&u->ms)) {
            tb_dut_get_outputs(u->dut, &o);
            tb_chk_drained(u->chk, &o);
            return 0;
        }
    }
    tb_chk_fail(u->chk, q->opidx, "timeout: %s got no response within %u cycles", tb_op_name(q->op), RB_TIMEOUT);
    b->fatal++;
    rb_note(b, "timeout: %s request %" PRIu64 " got no response within %u cycles", tb_op_name(q->op), q->opidx,
            RB_TIMEOUT);
    return -1;
}

static void rb_simple(rb_t *b, rb_unit_t *u, unsigned op, uint64_t md, unsigned cfg_addr)
{
    tb_req_t q;
    tb_rsp_t x;
    memset(&q, 0, sizeof q);
    q.op = (uint8_t)op;
    q.md = md;
    q.cfg_addr = (uint8_t)cfg_addr;
    if (op == TB_OP_CFG_WRITE) q.flags = TB_RF_SEQ;
    (void)rb_issue(b, u, &q, &x);
}

static void rb_unit_free(rb_unit_t *u)
{
    if (u == NULL) return;
    tb_chk_destroy(u->chk);
    tb_dut_destroy(u->dut);
    free(u);
}

/* A fresh instance out of reset, its registers written from the model unit's. */
static rb_unit_t *rb_unit_new(rb_t *b, unsigned sm, tb_dut_t *dut)
{
    rb_unit_t *u = calloc(1, sizeof *u);
    if (u == NULL) return NULL;
    u->dut = dut != NULL ? dut : tb_dut_create("");
    if (u->dut == NULL) {
        free(u);
        return NULL;
    }
    tb_dut_info_t info = tb_dut_info(u->dut);
    tb_chk_cfg_t cc;
    memset(&cc, 0, sizeof cc);
    cc.tag_bits = info.tag_bits;
    cc.mlb_entries = info.mlb_entries;
    cc.lanes = info.lanes;
    cc.id_bits = info.id_bits;
    cc.seed = sm;
    cc.max_print = 20;
    u->chk = tb_chk_create(&cc);
    if (u->chk == NULL) {
        rb_unit_free(u);
        return NULL;
    }
    tb_chk_set_world(u->chk, b->sys->mem, b->sys->rt, b->sys->cfg.rt.md_capacity);
    tb_mem_knobs_t k;
    memset(&k, 0, sizeof k); /* no latency, stalls, errors or lies */
    tb_memsys_init(&u->ms, &k, b->sys->mem, b->sys->rt, sm);
    tb_dut_in_t in;
    memset(&in, 0, sizeof in);
    tb_dut_set_reset(u->dut, false);
    for (unsigned i = 0; i < 4u; i++) {
        tb_dut_set_inputs(u->dut, &in);
        tb_dut_eval(u->dut);
        tb_dut_tick(u->dut);
    }
    tb_dut_set_reset(u->dut, true);
    const ga_mlu_cfg_t *r = &b->sys->sm[sm].cfg;
    rb_simple(b, u, TB_OP_CFG_WRITE, (uint64_t)r->mode, TB_CFG_MODE);
    rb_simple(b, u, TB_OP_CFG_WRITE, (uint64_t)r->layout, TB_CFG_LAYOUT);
    rb_simple(b, u, TB_OP_CFG_WRITE, r->step_limit, TB_CFG_STEP_LIMIT);
    rb_simple(b, u, TB_OP_CFG_WRITE, (uint64_t)r->policy, TB_CFG_POLICY);
    rb_simple(b, u, TB_OP_CFG_WRITE, r->sm_id, TB_CFG_SM_ID);
    rb_simple(b, u, TB_OP_CFG_WRITE, r->root, TB_CFG_ROOT);
    return u;
}

static rb_unit_t *rb_unit(rb_t *b, unsigned sm)
{
    if (sm >= b->sys->cfg.sms) return NULL;
    if (b->u[sm] == NULL) {
        b->u[sm] = rb_unit_new(b, sm, NULL);
        if (b->u[sm] == NULL) {
            b->fatal++;
            rb_note(b, "cannot create the Verilated MLU of SM %u", sm);
        }
    }
    return b->u[sm];
}

static unsigned log2u(uint32_t v)
{
    unsigned l = 0;
    while (l < 31u && (UINT32_C(1) << l) < v) l++;
    return l;
}

static void warp_req(const ga_warp_req_t *w, unsigned op, uint64_t md, tb_req_t *q)
{
    memset(q, 0, sizeof *q);
    q->op = (uint8_t)op;
    q->warp = w->warp;
    q->active = w->active;
    for (unsigned l = 0; l < w->lanes && l < TB_LANES_MAX; l++) q->addr[l] = w->addr[l];
    q->size_log2 = (uint8_t)log2u(w->size);
    q->md = md;
}

/* The RTL's answer against the model unit's (e = the model's return code). */
static void rb_compare(rb_t *b, unsigned sm, const tb_req_t *q, const tb_rsp_t *x, ga_err_t e, uint64_t rd,
                       const ga_warp_rsp_t *rsp)
{
    bool halted = e == GA_ERR_HALTED;
    if ((x->status == TB_ST_HALTED) != halted) {
        b->disagree++;
        rb_note(b, "SM %u op %" PRIu64 " %s: RTL status %s, model %s", sm, q->opidx, tb_op_name(q->op),
                tb_status_name(x->status), ga_strerror(e));
        return;
    }
    if (halted) return;
    if (q->op == TB_OP_LOADMETA) {
        if (x->rd != rd) {
            b->disagree++;
            rb_note(b, "SM %u op %" PRIu64 " LOADMETA 0x%" PRIx64 ": RTL rd 0x%" PRIx64 ", model 0x%" PRIx64, sm,
                    q->opidx, q->addr[0], x->rd, rd);
        }
        return;
    }
    if (x->fault != rsp->fault || (rsp->fault != 0u && x->kind != (unsigned)rsp->rec.kind)) {
        b->disagree++;
        rb_note(b, "SM %u op %" PRIu64 " %s: RTL fault mask 0x%x kind %u, model 0x%x kind %u", sm, q->opidx,
                tb_op_name(q->op), x->fault, x->kind, rsp->fault, (unsigned)rsp->rec.kind);
    }
}

/* ------------------------------------------------------------------------------------------------ */
/* Operations: the model first (its answer is returned), then the RTL.                              */

static bool rb_lanes_ok(rb_t *b, const ga_warp_req_t *req)
{
    if (req->lanes <= b->info.lanes) return true;
    b->fatal++;
    rb_note(b, "a warp request with %u lanes: the linked RTL configuration %s has %u", req->lanes, b->info.name,
            b->info.lanes);
    return false;
}

static ga_err_t rb_loadmeta(void *ctx, unsigned sm, uint64_t p, uint64_t *rd)
{
    rb_t *b = ctx;
    ga_err_t e = ga_mlu_loadmeta(&b->sys->sm[sm], p, rd);
    if (e != GA_OK && e != GA_ERR_HALTED) return e;
    rb_unit_t *u = rb_unit(b, sm);
    if (u == NULL) return e;
    tb_req_t q;
    tb_rsp_t x;
    memset(&q, 0, sizeof q);
    q.op = TB_OP_LOADMETA;
    q.active = 1;
    q.addr[0] = p;
    if (rb_issue(b, u, &q, &x) == 0) rb_compare(b, sm, &q, &x, e, *rd, NULL);
    return e;
}

static ga_err_t rb_warp(rb_t *b, unsigned sm, unsigned op, const ga_warp_req_t *req, uint64_t md, ga_err_t e,
                        const ga_warp_rsp_t *rsp)
{
    if (e != GA_OK && e != GA_ERR_HALTED) return e;
    rb_unit_t *u = rb_unit(b, sm);
    if (u == NULL || !rb_lanes_ok(b, req)) return e;
    tb_req_t q;
    tb_rsp_t x;
    warp_req(req, op, md, &q);
    if (rb_issue(b, u, &q, &x) == 0) rb_compare(b, sm, &q, &x, e, 0, rsp);
    return e;
}

static ga_err_t rb_memcheck_g(void *ctx, unsigned sm, const ga_warp_req_t *req, uint64_t md, ga_warp_rsp_t *rsp)
{
    rb_t *b = ctx;
    ga_err_t e = ga_mlu_memcheck_g(&b->sys->sm[sm], req, md, rsp);
    return rb_warp(b, sm, TB_OP_MEMCHECK_G, req, md, e, rsp);
}

static ga_err_t rb_memcheck_s(void *ctx, unsigned sm, const ga_warp_req_t *req, uint32_t base, uint32_t ssize,
                              ga_warp_rsp_t *rsp)
{
    rb_t *b = ctx;
    ga_err_t e = ga_mlu_memcheck_s(&b->sys->sm[sm], req, base, ssize, rsp);
    return rb_warp(b, sm, TB_OP_MEMCHECK_S, req, (uint64_t)base | ((uint64_t)ssize << 32), e, rsp);
}

static ga_err_t rb_access(void *ctx, unsigned sm, const ga_warp_req_t *req, ga_warp_rsp_t *rsp)
{
    rb_t *b = ctx;
    ga_err_t e = ga_mlu_access(&b->sys->sm[sm], req, rsp);
    return rb_warp(b, sm, TB_OP_ACCESS, req, 0, e, rsp);
}

static void rb_flush(void *ctx, unsigned sm)
{
    rb_t *b = ctx;
    ga_mlu_flush(&b->sys->sm[sm]);
    rb_unit_t *u = rb_unit(b, sm);
    if (u != NULL) rb_simple(b, u, TB_OP_FLUSH, 0, 0);
}

/* The model SMs were updated by ga_system: forward the invalidations and ROOT to every instance. */
static void rb_runtime_changed(void *ctx, const uint64_t *locs, size_t n, uint64_t root)
{
    rb_t *b = ctx;
    for (unsigned s = 0; s < b->sys->cfg.sms; s++) {
        rb_unit_t *u = b->u[s];
        if (u == NULL) continue; /* created later, with the ROOT of that time and an empty MLB */
        for (size_t i = 0; i < n; i++) rb_simple(b, u, TB_OP_INVALIDATE, locs[i], 0);
        if (tb_chk_regs(u->chk)->root != root) rb_simple(b, u, TB_OP_CFG_WRITE, root, TB_CFG_ROOT);
    }
}

static uint64_t rb_mismatches(const rb_t *b)
{
    uint64_t m = b->disagree + b->fatal;
    for (unsigned s = 0; s < b->sys->cfg.sms; s++)
        if (b->u[s] != NULL) m += tb_chk_stats(b->u[s]->chk).mismatches;
    return m;
}

static int rb_check_msg(rb_t *b, char *msg, size_t cap)
{
    uint64_t m = rb_mismatches(b);
    uint64_t cycles = 0;
    unsigned units = 0;
    for (unsigned s = 0; s < b->sys->cfg.sms; s++)
        if (b->u[s] != NULL) {
            cycles += b->u[s]->cycle;
            units++;
        }
    if (m == 0u) {
        fprintf(stderr, "rtl: RTL (%s) and model agree: %" PRIu64 " requests on %u Verilated MLU(s), %" PRIu64
                " cycles, 0 mismatches\n", b->info.name, b->ops, units, cycles);
        if (cap > 0u) msg[0] = '\0';
        return 0;
    }
    snprintf(msg, cap, "RTL (%s) and model DISAGREE: %" PRIu64 " mismatch(es) in %" PRIu64 " requests; first: %s",
             b->info.name, m, b->ops, b->first[0] ? b->first : "see the MISMATCH lines above");
    return -1;
}

static void rb_destroy(void *ctx)
{
    rb_t *b = ctx;
    if (b == NULL) return;
    for (unsigned s = 0; s < GA_SYSTEM_MAX_SMS; s++) rb_unit_free(b->u[s]);
    free(b);
}

/* Create the backend context: one instance now (for SM 0, and to learn the configuration). */
static rb_t *rb_open(ga_system_t *sys, char *msg, size_t cap)
{
    tb_dut_t *d = tb_dut_create("");
    if (d == NULL) {
        snprintf(msg, cap, "--rtl: cannot create the Verilated MLU");
        return NULL;
    }
    tb_dut_info_t info = tb_dut_info(d);
    if (info.tag_bits != sys->cfg.rt.tag_bits || info.mlb_entries != sys->cfg.mlb_entries) {
        snprintf(msg, cap, "--rtl: this program has the Verilated configuration %s linked in (TagBits %u, "
                 "MlbEntries %u); the run needs TagBits %u and MlbEntries %u: build and use "
                 "build/cosim/t%u_m%u_l32/ (make gasim-rtl RTL_CFG=t%u_m%u_l32)", info.name, info.tag_bits,
                 info.mlb_entries, sys->cfg.rt.tag_bits, sys->cfg.mlb_entries, sys->cfg.rt.tag_bits,
                 sys->cfg.mlb_entries, sys->cfg.rt.tag_bits, sys->cfg.mlb_entries);
        tb_dut_destroy(d);
        return NULL;
    }
    rb_t *b = calloc(1, sizeof *b);
    if (b == NULL) {
        tb_dut_destroy(d);
        snprintf(msg, cap, "--rtl: out of memory");
        return NULL;
    }
    b->sys = sys;
    b->info = info;
    b->nids = 1u << info.id_bits;
    b->u[0] = rb_unit_new(b, 0, d);
    if (b->u[0] == NULL) {
        free(b);
        snprintf(msg, cap, "--rtl: cannot create the lockstep checker");
        return NULL;
    }
    return b;
}

/* ------------------------------------------------------------------------------------------------ */
/* The two front ends.                                                                              */

static int rb_trace_check(void *ctx, ga_trace_err_t *err) { return rb_check_msg(ctx, err->msg, sizeof err->msg); }

int ga_backend_rtl(ga_backend_t *be, ga_system_t *sys, ga_trace_err_t *err)
{
    memset(be, 0, sizeof *be);
    rb_t *b = rb_open(sys, err->msg, sizeof err->msg);
    if (b == NULL) return -1;
    be->name = "rtl";
    be->ctx = b;
    be->loadmeta = rb_loadmeta;
    be->memcheck_g = rb_memcheck_g;
    be->memcheck_s = rb_memcheck_s;
    be->access = rb_access;
    be->runtime_changed = rb_runtime_changed;
    be->check = rb_trace_check;
    be->destroy = rb_destroy;
    return 0;
}

static int rb_eval_check(void *ctx, char *msg, size_t cap) { return rb_check_msg(ctx, msg, cap); }

int ga_eval_backend_rtl(ga_system_t *sys, ga_eval_backend_t *be, char *msg, size_t cap)
{
    memset(be, 0, sizeof *be);
    rb_t *b = rb_open(sys, msg, cap);
    if (b == NULL) return -1;
    be->name = "rtl";
    be->ctx = b;
    be->loadmeta = rb_loadmeta;
    be->memcheck_g = rb_memcheck_g;
    be->memcheck_s = rb_memcheck_s;
    be->access = rb_access;
    be->flush = rb_flush;
    be->runtime_changed = rb_runtime_changed;
    be->check = rb_eval_check;
    be->destroy = rb_destroy;
    return 0;
}
