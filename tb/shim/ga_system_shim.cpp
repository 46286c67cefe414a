// ga_system_shim.cpp — the thin extern "C" layer between the C system co-simulation harness
// (tb/sys/tb_sys.c) and one Verilated ga_system model (API: tb_sysdut.h). Compiled once per
// configuration with -DTB_VTOP=<class> -DTB_VTOP_H='"<class>.h"' -DTB_SMS=.. -DTB_TAG_BITS=..
// -DTB_MLB_ENTRIES=.. -DTB_LANES=.. -DTB_ID_BITS=.. -DTB_CFG_NAME='"s4_t7_m16_l1"' (mk/tb.mk).
//
// Every per-SM port is a flat vector (SM s's field of width W at [s*W +: W]) whose C++ type depends
// on its total width (CData .. QData, VlWide beyond 64 bits): the field helpers below read and
// write a bit range of any of them.

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>

#include "verilated.h"
#include TB_VTOP_H

#include "tb_sysdut.h"

namespace {

inline uint64_t mask(unsigned w) { return w >= 64u ? ~UINT64_C(0) : ((UINT64_C(1) << w) - 1u); }

// A field of up to 64 bits at bit lsb of an integral port (the whole port fits in 64 bits).
template <typename T>
inline void put_f(T &sig, unsigned lsb, unsigned w, uint64_t v)
{
    uint64_t x = static_cast<uint64_t>(sig);
    x &= ~(mask(w) << lsb);
    x |= (v & mask(w)) << lsb;
    sig = static_cast<T>(x);
}
template <typename T>
inline uint64_t get_f(const T &sig, unsigned lsb, unsigned w)
{
    return (static_cast<uint64_t>(sig) >> lsb) & mask(w);
}
// The same on a wide port: word-aligned 32/64-bit fields directly, others bit by bit.
template <std::size_t W>
inline void put_f(VlWide<W> &sig, unsigned lsb, unsigned w, uint64_t v)
{
    if (lsb % 32u == 0u && (w == 32u || w == 64u)) {
        sig[lsb / 32u] = static_cast<EData>(v);
        if (w == 64u) sig[lsb / 32u + 1u] = static_cast<EData>(v >> 32);
        return;
    }
    for (unsigned b = 0; b < w; b++) {
        unsigned i = lsb + b;
        EData bit = static_cast<EData>(1u) << (i % 32u);
        if ((v >> b) & 1u) sig[i / 32u] |= bit;
        else sig[i / 32u] &= ~bit;
    }
}
template <std::size_t W>
inline uint64_t get_f(const VlWide<W> &sig, unsigned lsb, unsigned w)
{
    if (lsb % 32u == 0u && (w == 32u || w == 64u)) {
        uint64_t v = sig[lsb / 32u];
        if (w == 64u) v |= static_cast<uint64_t>(sig[lsb / 32u + 1u]) << 32;
        return v;
    }
    uint64_t v = 0;
    for (unsigned b = 0; b < w; b++) {
        unsigned i = lsb + b;
        v |= static_cast<uint64_t>((sig[i / 32u] >> (i % 32u)) & 1u) << b;
    }
    return v;
}

template <std::size_t W>
inline void put_bytes(VlWide<W> &sig, const uint8_t *b, unsigned nbytes)
{
    for (unsigned w = 0; w < W && 4u * w < nbytes; w++)
        sig[w] = static_cast<EData>(b[4u * w]) | (static_cast<EData>(b[4u * w + 1u]) << 8) |
                 (static_cast<EData>(b[4u * w + 2u]) << 16) | (static_cast<EData>(b[4u * w + 3u]) << 24);
}

constexpr unsigned N = TB_SMS;
constexpr unsigned L = TB_LANES;
constexpr unsigned IW = TB_ID_BITS;
constexpr unsigned MW = TB_ID_BITS + 1u;

} // namespace

// The VL_SIM models are patched (tb/scripts/vl_skip_ico.py, mk/tb.mk) so that their eval() skips the
// input region while this flag is set: only in the clock-edge evaluation of a cycle whose inputs were
// settled by the evaluation before it (clk_i feeds no block of that region; the script checks). The
// Debian-built variants (-cov, -fst) do not read it.
#define TB_SHIM_CAT2(a, b) a##b
#define TB_SHIM_CAT(a, b) TB_SHIM_CAT2(a, b)
bool TB_SHIM_CAT(TB_VTOP, _ico_skip) = false;

struct tb_sys {
    std::unique_ptr<VerilatedContext> ctx;
    std::unique_ptr<TB_VTOP> top;
    bool settled = false; // no input written since the last eval()
};

extern "C" {

tb_sys_t *tb_sys_create(uint32_t init_seed)
{
    if (init_seed > 0x7fffffffu) {
        std::fprintf(stderr, "ga_system shim: init seed %u: at most 2^31-1\n", init_seed);
        return nullptr;
    }
    tb_sys_t *d = new tb_sys_t;
    d->ctx.reset(new VerilatedContext);
    // The registers without a reset start from 0 (Verilator's default) or from random values drawn
    // when the model is constructed (below), from the thread's context.
    if (init_seed != 0) {
        d->ctx->randReset(2);
        d->ctx->randSeed((int)init_seed);
    }
    Verilated::threadContextp(d->ctx.get());
    d->ctx->fatalOnError(false); // the harness reports assertion failures as mismatches
    d->top.reset(new TB_VTOP{d->ctx.get(), "TOP"});
    d->top->clk_i = 0;
    d->top->rst_ni = 0;
    d->top->req_valid_i = 0;
    d->top->rsp_ready_i = 0;
    d->top->rt_valid_i = 0;
    d->top->mem_req_ready_i = 0;
    d->top->mem_rsp_valid_i = 0;
    d->top->orc_req_ready_i = 0;
    d->top->orc_rsp_valid_i = 0;
    d->top->eval();
    return d;
}

void tb_sys_destroy(tb_sys_t *d)
{
    if (d == nullptr) return;
    d->top->final();
    delete d;
}

tb_sys_info_t tb_sys_info(const tb_sys_t *d)
{
    (void)d;
    tb_sys_info_t i;
    i.sms = N;
    i.tag_bits = TB_TAG_BITS;
#if defined(TB_HAS_INDEX) && TB_HAS_INDEX == 0
    i.has_index = false;
#else
    i.has_index = true; /* HasIndex is ga_system's default; a build that sets it to 0 defines TB_HAS_INDEX=0 */
#endif
    i.mlb_entries = TB_MLB_ENTRIES;
    i.lanes = L;
    i.id_bits = IW;
    i.name = TB_CFG_NAME;
    return i;
}

void tb_sys_set_reset(tb_sys_t *d, bool rst_n)
{
    d->top->rst_ni = rst_n ? 1 : 0;
    d->settled = false;
}

void tb_sys_set_inputs(tb_sys_t *d, const tb_sys_in_t *in)
{
    TB_VTOP &t = *d->top;
    d->settled = false;
    for (unsigned s = 0; s < N; s++) {
        const tb_dut_in_t &p = in->sm[s];
        put_f(t.req_valid_i, s, 1, p.req_valid);
        put_f(t.req_op_i, 3 * s, 3, p.req_op);
        put_f(t.req_id_i, IW * s, IW, p.req_id);
        put_f(t.req_warp_i, 16 * s, 16, p.req_warp);
        put_f(t.req_active_i, L * s, L, p.req_active);
        for (unsigned l = 0; l < L; l++) put_f(t.req_addr_i, 64 * (L * s + l), 64, p.req_addr[l]);
        put_f(t.req_size_i, 3 * s, 3, p.req_size);
        put_f(t.req_md_i, 64 * s, 64, p.req_md);
        put_f(t.req_cfg_addr_i, 3 * s, 3, p.req_cfg_addr);
        put_f(t.rsp_ready_i, s, 1, p.rsp_ready);
    }
    t.mem_req_ready_i = in->mem_req_ready & 1u;
    t.mem_rsp_valid_i = in->mem_rsp_valid & 1u;
    t.mem_rsp_sm_i = static_cast<CData>(in->mem_rsp_sm);
    t.mem_rsp_err_i = in->mem_rsp_err & 1u;
    put_bytes(t.mem_rsp_data_i, in->mem_rsp_data, 32);
    t.orc_req_ready_i = in->orc_req_ready & 1u;
    t.orc_rsp_valid_i = in->orc_rsp_valid & 1u;
    t.orc_rsp_sm_i = static_cast<CData>(in->orc_rsp_sm);
    t.orc_rsp_found_i = in->orc_rsp_found & 1u;
    t.orc_rsp_idx_i = in->orc_rsp_idx;
    t.rt_valid_i = in->rt_valid & 1u;
    t.rt_op_i = in->rt_op & 3u;
    t.rt_md_i = in->rt_md;
    t.rt_cfg_addr_i = in->rt_cfg_addr & 7u;
}

void tb_sys_eval(tb_sys_t *d)
{
    d->top->clk_i = 0;
    d->top->eval();
    d->settled = true;
}

void tb_sys_get_outputs(tb_sys_t *d, tb_sys_out_t *o)
{
    const TB_VTOP &t = *d->top;
    for (unsigned s = 0; s < N; s++) {
        tb_dut_out_t &p = o->sm[s];
        p.req_ready = static_cast<uint8_t>(get_f(t.req_ready_o, s, 1));
        p.rsp_valid = static_cast<uint8_t>(get_f(t.rsp_valid_o, s, 1));
        p.rsp_id = static_cast<uint16_t>(get_f(t.rsp_id_o, IW * s, IW));
        p.rsp_op = static_cast<uint8_t>(get_f(t.rsp_op_o, 3 * s, 3));
        p.rsp_status = static_cast<uint8_t>(get_f(t.rsp_status_o, 2 * s, 2));
        p.rsp_rd = get_f(t.rsp_rd_o, 64 * s, 64);
        o->rt_rsp[s] = static_cast<uint8_t>(get_f(t.rt_rsp_o, s, 1));
        if (p.rsp_valid || o->rt_rsp[s])
            for (unsigned l = 0; l < L; l++) p.rsp_addr[l] = get_f(t.rsp_addr_o, 64 * (L * s + l), 64);
        p.rsp_fault = static_cast<uint32_t>(get_f(t.rsp_fault_o, L * s, L));
        p.rsp_exc_kind = static_cast<uint8_t>(get_f(t.rsp_exc_kind_o, 3 * s, 3));
        p.rsp_exc_addr = get_f(t.rsp_exc_addr_o, 64 * s, 64);
        p.rsp_exc_md = get_f(t.rsp_exc_md_o, 64 * s, 64);
        p.rsp_exc_tb = get_f(t.rsp_exc_tb_o, 64 * s, 64);
        p.rsp_exc_esize = get_f(t.rsp_exc_esize_o, 64 * s, 64);
        p.rsp_exc_size = static_cast<uint8_t>(get_f(t.rsp_exc_size_o, 3 * s, 3));
        p.rsp_exc_sm = static_cast<uint16_t>(get_f(t.rsp_exc_sm_o, 16 * s, 16));
        p.rsp_exc_warp = static_cast<uint16_t>(get_f(t.rsp_exc_warp_o, 16 * s, 16));
        p.rsp_exc_lane = static_cast<uint8_t>(get_f(t.rsp_exc_lane_o, 5 * s, 5));
        p.ev_valid = static_cast<uint8_t>(get_f(t.ev_valid_o, s, 1));
        p.ev_kind = static_cast<uint8_t>(get_f(t.ev_kind_o, 3 * s, 3));
        p.ev_id = static_cast<uint16_t>(get_f(t.ev_id_o, MW * s, MW));
        p.ev_slot = static_cast<uint8_t>(get_f(t.ev_slot_o, 6 * s, 6));
        p.ev_lane = static_cast<uint8_t>(get_f(t.ev_lane_o, 5 * s, 5));
        p.halted = static_cast<uint8_t>(get_f(t.halted_o, s, 1));
        p.cfg_mode = static_cast<uint8_t>(get_f(t.cfg_mode_o, s, 1));
        p.cfg_layout = static_cast<uint8_t>(get_f(t.cfg_layout_o, 3 * s, 3)); /* ga_pkg::LayoutW */
        p.cfg_root = get_f(t.cfg_root_o, 64 * s, 64);
        p.cfg_step_limit = static_cast<uint32_t>(get_f(t.cfg_step_limit_o, 32 * s, 32));
        p.cfg_policy = static_cast<uint8_t>(get_f(t.cfg_policy_o, s, 1));
        p.cfg_sm_id = static_cast<uint16_t>(get_f(t.cfg_sm_id_o, 16 * s, 16));
        p.cfg_tag_bits = static_cast<uint8_t>(t.cfg_tag_bits_o);
        o->rt_acc[s] = static_cast<uint8_t>(get_f(t.rt_acc_o, s, 1));
        o->rt_rsp_status[s] = static_cast<uint8_t>(get_f(t.rt_rsp_status_o, 2 * s, 2));
    }
    o->mem_req_valid = t.mem_req_valid_o;
    o->mem_req_len = t.mem_req_len_o;
    o->mem_req_sm = static_cast<uint8_t>(t.mem_req_sm_o);
    o->mem_req_addr = t.mem_req_addr_o;
    o->mem_rsp_ready = t.mem_rsp_ready_o;
    o->orc_req_valid = t.orc_req_valid_o;
    o->orc_req_sm = static_cast<uint8_t>(t.orc_req_sm_o);
    o->orc_req_va = t.orc_req_va_o;
    o->rt_ready = t.rt_ready_o;
    o->rt_ack = t.rt_ack_o;
    o->rt_err = t.rt_err_o;
}

void tb_sys_tick(tb_sys_t *d)
{
    TB_VTOP &t = *d->top;
    d->ctx->timeInc(1);
    t.clk_i = 1;
    TB_SHIM_CAT(TB_VTOP, _ico_skip) = d->settled; // only clk_i changed since the last eval()
    t.eval();
    TB_SHIM_CAT(TB_VTOP, _ico_skip) = false;
    d->settled = false;
    d->ctx->timeInc(1);
}

bool tb_sys_failed(tb_sys_t *d)
{
    bool f = d->ctx->gotError() || d->ctx->gotFinish();
    if (f) {
        d->ctx->gotError(false);
        d->ctx->gotFinish(false);
    }
    return f;
}

void tb_sys_assert_on(tb_sys_t *d, bool on) { d->ctx->assertOn(on); }

} // extern "C"
