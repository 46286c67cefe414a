/*
 * tb_backend.c — the RTL lockstep backend "rtl" (ga_backend_rtl_def, cmodel/ga_backend.h) of every
 * tool built with it: gasim-rtl, gaeval-rtl and the RTL runtime library (their registries name it when
 * compiled with -DGA_WITH_RTL; mk/tb.mk, mk/emu.mk).
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
 *
 * Waveforms (gasim --rtl --wave FROM:TO, docs/traces.md §10): compiled with TB_TRACE and linked with
 * an FST-traced model (build/cosim/<cfg>-fst/gasim-rtl, make gasim-rtl-wave), the replay backend has
 * a wave hook; otherwise that hook is NULL and the replay refuses --wave with the target to build.
 * The replay turns the hook on at the window's first record and off after its last; while it is on,
 * every clock of every Verilated instance is dumped, one FST file per model SM that has an instance
 * (SM 0: the file given; SM s > 0: the same name with ".sm<s>" before its extension), because each
 * instance is its own Verilated context with its own time. An instance created inside the window is
 * dumped from its reset on. Requests run to completion one at a time, so a window always opens and
 * closes between two requests, with every instance idle.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ga_backend.h"
#include "tb_chk.h"
#include "tb_memsys.h"

#define RB_TIMEOUT 1000000u /* cycles one request may take before the backend gives up */

/* What one instance's waveform holds so far (TB_TRACE builds), for the line printed when it closes. */
typedef struct {
    bool open;
    char *path;
    uint64_t tick0;          /* the instance's clock count when the file was opened */
    uint64_t reqs;           /* requests issued while it was open */
    uint64_t op_first, op_last; /* their request numbers (the "op N" of mismatch reports) */
} rb_wave_t;

typedef struct {
    tb_dut_t *dut;
    tb_chk_t *chk;
    tb_memsys_t ms;
    uint64_t cycle;
    uint64_t ticks;          /* every clock of the instance, reset included: its waveform time is 2 x ticks */
    unsigned next_id;
    rb_wave_t wave;
} rb_unit_t;

typedef struct {
    ga_system_t *sys;
    tb_dut_info_t info;
    unsigned nids;
    rb_unit_t *u[GA_SYSTEM_MAX_SMS];
    uint64_t ops, disagree, fatal;
    char first[512]; /* the first problem, for check() */
    char *wave_path; /* the window's file while the wave hook is on, else NULL */
    char wave_err[512]; /* the first waveform problem of the window, returned when it closes */
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
    if (u->wave.open) {
        if (u->wave.reqs++ == 0u) u->wave.op_first = q->opidx;
        u->wave.op_last = q->opidx;
    }
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
        u->ticks++;
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

/* ------------------------------------------------------------------------------------------------ */
/* Waveforms (TB_TRACE builds only: the FST-traced model has the shim's trace functions working).    */

#ifdef TB_TRACE
/* The file of SM sm's waveform: path for SM 0; else path with ".sm<sm>" inserted before the extension
 * of its last component (wave.fst -> wave.sm1.fst), or appended when that component has none (a
 * leading dot, as in ".fst", is not an extension). NULL when out of memory. */
static char *rb_wave_name(const char *path, unsigned sm)
{
    size_t n = strlen(path), cap = n + 16u; /* ".sm" + up to 10 digits + NUL */
    char *out = malloc(cap);
    if (out == NULL) return NULL;
    const char *slash = strrchr(path, '/');
    const char *base = slash ? slash + 1 : path;
    const char *dot = strrchr(base, '.');
    size_t cut = sm == 0u ? n : (dot != NULL && dot != base) ? (size_t)(dot - path) : n;
    memcpy(out, path, cut);
    if (sm == 0u) out[cut] = '\0';
    else snprintf(out + cut, cap - cut, ".sm%u%s", sm, path + cut);
    return out;
}

/* Remember the first waveform problem of the window (returned by the hook when the window closes). */
static void rb_wave_fail(rb_t *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void rb_wave_fail(rb_t *b, const char *fmt, ...)
{
    if (b->wave_err[0] != '\0') return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(b->wave_err, sizeof b->wave_err, fmt, ap);
    va_end(ap);
}

/* Start dumping unit u (model SM sm) to its file of the window b->wave_path, and write the file's
 * "<file>.cfg" beside it as ga_cosim does (cfg, lanes, mlb, tag, idw: what tb/scripts/wave.sh needs
 * to fit the saved GTKWave view), plus sm. Returns 0, or -1 with b->wave_err set and no file left;
 * a .cfg that cannot be written sets b->wave_err but returns 0 (the window fails when it closes). */
static int rb_wave_open(rb_t *b, rb_unit_t *u, unsigned sm)
{
    char *name = rb_wave_name(b->wave_path, sm);
    if (name == NULL) {
        rb_wave_fail(b, "out of memory");
        return -1;
    }
    /* fopen first: the FST writer reports no cause, and this names one (no directory, no permission) */
    FILE *f = fopen(name, "wb");
    if (f == NULL) {
        rb_wave_fail(b, "cannot write the waveform %s: %s", name, strerror(errno));
        free(name);
        return -1;
    }
    fclose(f);
    if (tb_dut_trace_open(u->dut, name) != 0) {
        rb_wave_fail(b, "cannot open the FST waveform %s", name);
        (void)remove(name);
        free(name);
        return -1;
    }
    size_t sn = strlen(name) + 5u;
    char *side = malloc(sn);
    FILE *sf = NULL;
    if (side != NULL) {
        snprintf(side, sn, "%s.cfg", name);
        sf = fopen(side, "w");
    }
    if (sf == NULL || fprintf(sf, "cfg=%s lanes=%u mlb=%u tag=%u idw=%u sm=%u\n", b->info.name, b->info.lanes,
                              b->info.mlb_entries, b->info.tag_bits, b->info.id_bits, sm) < 0 || fclose(sf) != 0) {
        rb_wave_fail(b, "cannot write %s: %s", side ? side : "the waveform's .cfg file",
                     side ? strerror(errno) : "out of memory");
    }
    free(side);
    memset(&u->wave, 0, sizeof u->wave);
    u->wave.open = true;
    u->wave.path = name;
    u->wave.tick0 = u->ticks;
    return 0;
}
#endif

/* Stop dumping unit u, if it is, and remove its file and .cfg (a window that could not be opened,
 * and an instance idle throughout the window, leave no file behind). */
static void rb_wave_discard(rb_unit_t *u)
{
    if (!u->wave.open) return;
    tb_dut_trace_close(u->dut);
    (void)remove(u->wave.path);
    size_t sn = strlen(u->wave.path) + 5u;
    char *side = malloc(sn);
    if (side != NULL) {
        snprintf(side, sn, "%s.cfg", u->wave.path);
        (void)remove(side);
        free(side);
    }
    free(u->wave.path);
    memset(&u->wave, 0, sizeof u->wave);
}

/* Stop dumping unit u (model SM sm), if it is, and say on stderr what its file holds: the waveform's
 * time range (2 time units per clock, counted from the instance's creation), cycles, and the numbers
 * of the requests it shows. An instance that had no clock in the window gets no file (it would show
 * only unknown values at one instant): its file is removed, and the line says so. */
static void rb_wave_close(rb_unit_t *u, unsigned sm)
{
    if (!u->wave.open) return;
    uint64_t n = u->ticks - u->wave.tick0;
    if (n == 0u) {
        fprintf(stderr, "rtl: SM %u was idle in the window (no clock): no waveform written for it (%s)\n", sm,
                u->wave.path);
        rb_wave_discard(u);
        return;
    }
    tb_dut_trace_close(u->dut);
    if (u->wave.reqs == 0u)
        fprintf(stderr, "rtl: waveform of SM %u: %s, times %" PRIu64 "..%" PRIu64 " (%" PRIu64 " cycles of reset)\n",
                sm, u->wave.path, 2u * u->wave.tick0, 2u * u->ticks - 1u, n);
    else if (u->wave.reqs == 1u)
        fprintf(stderr, "rtl: waveform of SM %u: %s, times %" PRIu64 "..%" PRIu64 " (%" PRIu64 " cycles, 1 request, "
                "op %" PRIu64 ")\n", sm, u->wave.path, 2u * u->wave.tick0, 2u * u->ticks - 1u, n, u->wave.op_first);
    else
        fprintf(stderr, "rtl: waveform of SM %u: %s, times %" PRIu64 "..%" PRIu64 " (%" PRIu64 " cycles, %" PRIu64
                " requests, op %" PRIu64 "..%" PRIu64 ")\n", sm, u->wave.path, 2u * u->wave.tick0,
                2u * u->ticks - 1u, n, u->wave.reqs, u->wave.op_first, u->wave.op_last);
    free(u->wave.path);
    memset(&u->wave, 0, sizeof u->wave);
}

static void rb_unit_free(rb_unit_t *u, unsigned sm)
{
    if (u == NULL) return;
    rb_wave_close(u, sm);
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
        rb_unit_free(u, sm);
        return NULL;
    }
    tb_chk_set_world(u->chk, b->sys->mem, b->sys->rt, b->sys->cfg.rt.md_capacity);
    tb_mem_knobs_t k;
    memset(&k, 0, sizeof k); /* no latency, stalls, errors or lies */
    tb_memsys_init(&u->ms, &k, b->sys->mem, b->sys->rt, sm);
#ifdef TB_TRACE
    /* created inside the window: dump it from its reset on (a failure is returned when the window closes) */
    if (b->wave_path != NULL) (void)rb_wave_open(b, u, sm);
#endif
    tb_dut_in_t in;
    memset(&in, 0, sizeof in);
    tb_dut_set_reset(u->dut, false);
    for (unsigned i = 0; i < 4u; i++) {
        tb_dut_set_inputs(u->dut, &in);
        tb_dut_eval(u->dut);
        tb_dut_tick(u->dut);
        u->ticks++;
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
    for (unsigned s = 0; s < GA_SYSTEM_MAX_SMS; s++) rb_unit_free(b->u[s], s);
    free(b->wave_path);
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
/* The backend.                                                                                     */

static int rb_check(void *ctx, char *msg, size_t cap) { return rb_check_msg(ctx, msg, cap); }

#ifdef TB_TRACE
/* The replay's wave hook (ga_replay.h): with a path, open one FST file per instance that exists now
 * (instances created later open theirs at creation); with NULL, close them all. Returns 0, or -1
 * with msg set: at opening when a file cannot be written, at closing when the file of an instance
 * created inside the window could not be; either way every file of the window is removed again. */
static int rb_wave(void *ctx, const char *path, char *msg, size_t cap)
{
    rb_t *b = ctx;
    for (unsigned s = 0; s < GA_SYSTEM_MAX_SMS; s++) {
        if (b->u[s] == NULL) continue;
        if (b->wave_err[0] != '\0') rb_wave_discard(b->u[s]);
        else rb_wave_close(b->u[s], s);
    }
    free(b->wave_path);
    b->wave_path = NULL;
    if (path == NULL) {
        if (b->wave_err[0] == '\0') return 0;
        snprintf(msg, cap, "%s", b->wave_err);
        b->wave_err[0] = '\0';
        return -1;
    }
    b->wave_err[0] = '\0';
    b->wave_path = strdup(path);
    if (b->wave_path == NULL) {
        snprintf(msg, cap, "out of memory");
        return -1;
    }
    for (unsigned s = 0; s < GA_SYSTEM_MAX_SMS; s++) {
        if (b->u[s] == NULL || rb_wave_open(b, b->u[s], s) == 0) continue;
        snprintf(msg, cap, "%s", b->wave_err);
        b->wave_err[0] = '\0';
        for (unsigned t = 0; t < s; t++)
            if (b->u[t] != NULL) rb_wave_discard(b->u[t]);
        free(b->wave_path);
        b->wave_path = NULL;
        return -1;
    }
    return 0;
}
#endif

/* The backend's open (ga_backend_def_t): one Verilated instance now, the others on their SM's first
 * operation. arg is unused. */
static int rb_open_backend(ga_backend_t *be, ga_system_t *sys, void *arg, char *msg, size_t cap)
{
    (void)arg;
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
    be->check = rb_check;
    be->destroy = rb_destroy;
#ifdef TB_TRACE
    if (b->info.can_trace) be->wave = rb_wave;
#endif
    return 0;
}

const ga_backend_def_t ga_backend_rtl_def = {"rtl", "the Verilated MLU in lockstep with the model", rb_open_backend};
