// ga_mlu_shim.cpp — the thin extern "C" layer between the C co-simulation harness and one Verilated
// ga_mlu model (API: tb_dut.h). Compiled once per configuration with
//   -DTB_VTOP=<model class> -DTB_VTOP_H='"<model class>.h"'
//   -DTB_TAG_BITS=.. -DTB_MLB_ENTRIES=.. -DTB_LANES=.. -DTB_ID_BITS=.. -DTB_CFG_NAME='"t7_m8_l1"'
//   [-DTB_TRACE] (model built with --trace-fst)  [-DTB_COVERAGE] (model built with --coverage)
// The parameters are passed twice (to Verilator as -G and here as -D) by mk/tb.mk from one list.
//
// Port widths differ per configuration (a 1-lane address is a 64-bit QData, a 32-lane one a
// VlWide<64>); the overloaded put/get helpers below pick the right form at compile time, so this file
// names every port once and never needs editing when Lanes or IdW change.

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>

#include "verilated.h"
#include TB_VTOP_H
#ifdef TB_TRACE
#include "verilated_fst_c.h"
#endif
#ifdef TB_COVERAGE
#include "verilated_cov.h"
#endif

#include "tb_dut.h"

namespace {

// Scalars up to 64 bits. Values wider than the port are masked by Verilator's own width rules only
// on some paths, so mask here explicitly: a stray high bit would be a harness bug, not an RTL one.
template <typename T>
inline void put(T &sig, uint64_t v, unsigned bits)
{
    uint64_t m = bits >= 64u ? ~UINT64_C(0) : ((UINT64_C(1) << bits) - 1u);
    sig = static_cast<T>(v & m);
}
template <typename T>
inline uint64_t get(const T &sig)
{
    return static_cast<uint64_t>(sig);
}

// Lane vectors: Lanes x 64 bits.
inline void put_lanes(QData &sig, const uint64_t *v, unsigned) { sig = v[0]; }
template <std::size_t W>
inline void put_lanes(VlWide<W> &sig, const uint64_t *v, unsigned lanes)
{
    for (unsigned l = 0; l < lanes && 2u * l + 1u < W; l++) {
        sig[2u * l] = static_cast<EData>(v[l]);
        sig[2u * l + 1u] = static_cast<EData>(v[l] >> 32);
    }
}
inline void get_lanes(const QData &sig, uint64_t *v, unsigned) { v[0] = sig; }
template <std::size_t W>
inline void get_lanes(const VlWide<W> &sig, uint64_t *v, unsigned lanes)
{
    for (unsigned l = 0; l < lanes && 2u * l + 1u < W; l++)
        v[l] = static_cast<uint64_t>(sig[2u * l]) | (static_cast<uint64_t>(sig[2u * l + 1u]) << 32);
}

// 256-bit memory data.
template <std::size_t W>
inline void put_bytes(VlWide<W> &sig, const uint8_t *b, unsigned nbytes)
{
    for (unsigned w = 0; w < W && 4u * w < nbytes; w++)
        sig[w] = static_cast<EData>(b[4u * w]) | (static_cast<EData>(b[4u * w + 1u]) << 8) |
                 (static_cast<EData>(b[4u * w + 2u]) << 16) | (static_cast<EData>(b[4u * w + 3u]) << 24);
}

} // namespace

// The VL_SIM models are patched (tb/scripts/vl_skip_ico.py, mk/tb.mk) so that their eval() skips the
// input region while this flag is set: only in the clock-edge evaluation of a cycle whose inputs were
// settled by the evaluation before it (clk_i feeds no block of that region; the script checks). The
// Debian-built variants (-cov, -fst) do not read it.
#define TB_SHIM_CAT2(a, b) a##b
#define TB_SHIM_CAT(a, b) TB_SHIM_CAT2(a, b)
bool TB_SHIM_CAT(TB_VTOP, _ico_skip) = false;

struct tb_dut {
    std::unique_ptr<VerilatedContext> ctx;
    std::unique_ptr<TB_VTOP> top;
#ifdef TB_TRACE
    std::unique_ptr<VerilatedFstC> fst;
#endif
    bool failed_reported = false;
    bool settled = false; // no input written since the last eval()
};

extern "C" {

tb_dut_t *tb_dut_create(const char *args)
{
    // args: whitespace-separated words; the one this shim knows is init-seed=N (tb_dut.h).
    long init_seed = 0;
    for (const char *p = args != nullptr ? args : ""; *p != '\0';) {
        while (*p == ' ' || *p == '\t') p++;
        if (*p == '\0') break;
        size_t n = std::strcspn(p, " \t");
        char *end = nullptr;
        if (n > 10 && std::strncmp(p, "init-seed=", 10) == 0) {
            init_seed = std::strtol(p + 10, &end, 10);
            if (end != p + n || init_seed < 0 || init_seed > 0x7fffffffL) {
                std::fprintf(stderr, "ga_mlu shim: init-seed=%.*s: a whole number 0..2^31-1\n", (int)(n - 10), p + 10);
                return nullptr;
            }
        } else {
            std::fprintf(stderr, "ga_mlu shim: unknown DUT argument '%.*s' (known: init-seed=N)\n", (int)n, p);
            return nullptr;
        }
        p += n;
    }
    tb_dut_t *d = new tb_dut_t;
    d->ctx.reset(new VerilatedContext);
    // The registers without a reset start from 0 (Verilator's default) or, with a seed, from random
    // values (every variable is given one when the model is constructed, below).
    if (init_seed != 0) {
        d->ctx->randReset(2);
        d->ctx->randSeed((int)init_seed);
    }
    Verilated::threadContextp(d->ctx.get()); // the model's constructor draws from the thread's context
    d->ctx->fatalOnError(false); // the harness reports assertion failures as mismatches
#ifdef TB_TRACE
    d->ctx->traceEverOn(true);
#endif
    d->top.reset(new TB_VTOP{d->ctx.get(), "TOP"});
    // Reset is driven before the first eval (assertions are live from time 0 under --assert).
    d->top->clk_i = 0;
    d->top->rst_ni = 0;
    d->top->req_valid_i = 0;
    d->top->rsp_ready_i = 0;
    d->top->mem_req_ready_i = 0;
    d->top->mem_rsp_valid_i = 0;
    d->top->orc_req_ready_i = 0;
    d->top->orc_rsp_valid_i = 0;
    d->top->eval();
    return d;
}

void tb_dut_destroy(tb_dut_t *d)
{
    if (d == nullptr) return;
    tb_dut_trace_close(d);
    d->top->final();
    delete d;
}

tb_dut_info_t tb_dut_info(const tb_dut_t *d)
{
    (void)d;
    tb_dut_info_t i;
    i.tag_bits = TB_TAG_BITS;
    i.mlb_entries = TB_MLB_ENTRIES;
    i.lanes = TB_LANES;
    i.id_bits = TB_ID_BITS;
#if defined(TB_HAS_INDEX) && TB_HAS_INDEX == 0
    i.has_index = false;
#else
    i.has_index = true; /* HasIndex is ga_mlu's default; a build that sets it to 0 defines TB_HAS_INDEX=0 */
#endif
#ifdef TB_TRACE
    i.can_trace = true;
#else
    i.can_trace = false;
#endif
#ifdef TB_COVERAGE
    i.coverage = true;
#else
    i.coverage = false;
#endif
    i.name = TB_CFG_NAME;
    return i;
}

void tb_dut_set_reset(tb_dut_t *d, bool rst_n)
{
    d->top->rst_ni = rst_n ? 1 : 0;
    d->settled = false;
}

void tb_dut_set_inputs(tb_dut_t *d, const tb_dut_in_t *in)
{
    TB_VTOP &t = *d->top;
    d->settled = false;
    put(t.req_valid_i, in->req_valid, 1);
    put(t.req_op_i, in->req_op, 3);
    put(t.req_id_i, in->req_id, TB_ID_BITS);
    put(t.req_warp_i, in->req_warp, 16);
    put(t.req_active_i, in->req_active, TB_LANES);
    put_lanes(t.req_addr_i, in->req_addr, TB_LANES);
    put(t.req_size_i, in->req_size, 3);
    put(t.req_md_i, in->req_md, 64);
    put(t.req_cfg_addr_i, in->req_cfg_addr, 3);
    put(t.rsp_ready_i, in->rsp_ready, 1);
    put(t.mem_req_ready_i, in->mem_req_ready, 1);
    put(t.mem_rsp_valid_i, in->mem_rsp_valid, 1);
    put_bytes(t.mem_rsp_data_i, in->mem_rsp_data, 32);
    put(t.mem_rsp_err_i, in->mem_rsp_err, 1);
    put(t.orc_req_ready_i, in->orc_req_ready, 1);
    put(t.orc_rsp_valid_i, in->orc_rsp_valid, 1);
    put(t.orc_rsp_found_i, in->orc_rsp_found, 1);
    put(t.orc_rsp_idx_i, in->orc_rsp_idx, 64);
}

void tb_dut_eval(tb_dut_t *d)
{
    d->top->clk_i = 0;
    d->top->eval();
    d->settled = true;
}

void tb_dut_get_outputs(tb_dut_t *d, tb_dut_out_t *o)
{
    const TB_VTOP &t = *d->top;
    o->req_ready = static_cast<uint8_t>(get(t.req_ready_o));
    o->rsp_valid = static_cast<uint8_t>(get(t.rsp_valid_o));
    o->rsp_id = static_cast<uint16_t>(get(t.rsp_id_o));
    o->rsp_op = static_cast<uint8_t>(get(t.rsp_op_o));
    o->rsp_status = static_cast<uint8_t>(get(t.rsp_status_o));
    o->rsp_rd = get(t.rsp_rd_o);
    if (o->rsp_valid) get_lanes(t.rsp_addr_o, o->rsp_addr, TB_LANES);
    o->rsp_fault = static_cast<uint32_t>(get(t.rsp_fault_o));
    o->rsp_exc_kind = static_cast<uint8_t>(get(t.rsp_exc_kind_o));
    o->rsp_exc_addr = get(t.rsp_exc_addr_o);
    o->rsp_exc_md = get(t.rsp_exc_md_o);
    o->rsp_exc_tb = get(t.rsp_exc_tb_o);
    o->rsp_exc_esize = get(t.rsp_exc_esize_o);
    o->rsp_exc_size = static_cast<uint8_t>(get(t.rsp_exc_size_o));
    o->rsp_exc_sm = static_cast<uint16_t>(get(t.rsp_exc_sm_o));
    o->rsp_exc_warp = static_cast<uint16_t>(get(t.rsp_exc_warp_o));
    o->rsp_exc_lane = static_cast<uint8_t>(get(t.rsp_exc_lane_o));
    o->mem_req_valid = static_cast<uint8_t>(get(t.mem_req_valid_o));
    o->mem_req_addr = get(t.mem_req_addr_o);
    o->mem_req_len = static_cast<uint8_t>(get(t.mem_req_len_o));
    o->mem_rsp_ready = static_cast<uint8_t>(get(t.mem_rsp_ready_o));
    o->orc_req_valid = static_cast<uint8_t>(get(t.orc_req_valid_o));
    o->orc_req_va = get(t.orc_req_va_o);
    o->ev_valid = static_cast<uint8_t>(get(t.ev_valid_o));
    o->ev_kind = static_cast<uint8_t>(get(t.ev_kind_o));
    o->ev_id = static_cast<uint16_t>(get(t.ev_id_o));
    o->ev_slot = static_cast<uint8_t>(get(t.ev_slot_o));
    o->ev_lane = static_cast<uint8_t>(get(t.ev_lane_o));
    o->halted = static_cast<uint8_t>(get(t.halted_o));
    o->cfg_mode = static_cast<uint8_t>(get(t.cfg_mode_o));
    o->cfg_layout = static_cast<uint8_t>(get(t.cfg_layout_o));
    o->cfg_root = get(t.cfg_root_o);
    o->cfg_step_limit = static_cast<uint32_t>(get(t.cfg_step_limit_o));
    o->cfg_policy = static_cast<uint8_t>(get(t.cfg_policy_o));
    o->cfg_sm_id = static_cast<uint16_t>(get(t.cfg_sm_id_o));
    o->cfg_tag_bits = static_cast<uint8_t>(get(t.cfg_tag_bits_o));
}

void tb_dut_tick(tb_dut_t *d)
{
    TB_VTOP &t = *d->top;
#ifdef TB_TRACE
    if (d->fst) d->fst->dump(d->ctx->time());
#endif
    d->ctx->timeInc(1);
    t.clk_i = 1;
    TB_SHIM_CAT(TB_VTOP, _ico_skip) = d->settled; // only clk_i changed since the last eval()
    t.eval();
    TB_SHIM_CAT(TB_VTOP, _ico_skip) = false;
    d->settled = false;
#ifdef TB_TRACE
    if (d->fst) d->fst->dump(d->ctx->time());
#endif
    d->ctx->timeInc(1);
    // The falling edge is evaluated by the next tb_dut_eval() together with the next inputs: two
    // evaluations per cycle instead of three (each one re-runs the input logic of every lane).
}

int tb_dut_trace_open(tb_dut_t *d, const char *path)
{
#ifdef TB_TRACE
    if (d->fst) return 0;
    d->fst.reset(new VerilatedFstC);
    d->top->trace(d->fst.get(), 99);
    d->fst->open(path);
    if (!d->fst->isOpen()) {
        d->fst.reset();
        return -1;
    }
    return 0;
#else
    (void)d;
    (void)path;
    return -1;
#endif
}

void tb_dut_trace_close(tb_dut_t *d)
{
#ifdef TB_TRACE
    if (d->fst) {
        d->fst->close();
        d->fst.reset();
    }
#else
    (void)d;
#endif
}

bool tb_dut_failed(tb_dut_t *d)
{
    bool f = d->ctx->gotError() || d->ctx->gotFinish();
    if (f) {
        d->ctx->gotError(false);
        d->ctx->gotFinish(false);
    }
    return f;
}

void tb_dut_assert_on(tb_dut_t *d, bool on) { d->ctx->assertOn(on); }

void tb_dut_write_coverage(tb_dut_t *d, const char *path)
{
#ifdef TB_COVERAGE
    d->ctx->coveragep()->write(path);
#else
    (void)d;
    (void)path;
#endif
}

} // extern "C"
