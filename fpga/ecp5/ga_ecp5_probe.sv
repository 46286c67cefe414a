// Copyright GPUArmor contributors.
//
// ga_ecp5_probe -- the unit alone between registers on an ECP5 (docs/fpga.md §11): one ga_mlu
// (NumSms = 0) or a ga_system of NumSms MLUs, every input port driven by a register of a shift
// chain fed from an LFSR, every output port captured in a register and folded, through two registered
// XOR stages, into one output pin. nextpnr then times every register-to-register path of the unit
// itself at full width (no port is narrowed and nothing can be optimised away: every output bit
// reaches the pin), without the thousands of I/O pins the ports would need. The chain costs a flip-flop
// and a LUT4 per input bit, the capture a flip-flop per output bit and the folds a LUT per 4 output
// bits; docs/fpga.md §11 lists them.
//
// Parameters:
//   NumSms      0: one ga_mlu; 1 .. 8: ga_system with that many SMs
//   TagBits, MlbEntries, Lanes, HwOnly, EndForm, ReadForm, FillPort, RegLookup, RegCheck, CheckLanes: the unit's
//               (microarchitecture §1)
//   ReqSlice    ga_system's (NumSms > 0 only)

module ga_ecp5_probe #(
  parameter int NumSms     = 0,
  parameter int TagBits    = 7,
  parameter int MlbEntries = 16,
  parameter int Lanes      = 32,
  parameter int HwOnly     = 0,
  parameter int EndForm    = 1,
  parameter int ReadForm   = 0,
  parameter int FillPort   = 0,
  parameter int RegLookup  = 1,
  parameter int RegCheck   = 0,
  parameter int CheckLanes = 0,
  parameter int ReqSlice   = 0
) (
  input  logic clk_i,
  output logic out_o
);
  localparam int N    = (NumSms == 0) ? 1 : NumSms;
  localparam int IdW  = 4;
  localparam int SmW  = (N > 1) ? $clog2(N) : 1;
  localparam int AW   = 64 * Lanes;
  // Input bits: per SM request (valid, op, id, warp, active, addrs, size, md, cfg addr) and rsp
  // ready; shared memory, oracle and (system) runtime ports.
  localparam int ReqW = 1 + 3 + IdW + 16 + Lanes + AW + 3 + 64 + 3 + 1;
  localparam int InW  = N * ReqW + 1 + 1 + SmW + 256 + 1 + 1 + 1 + SmW + 1 + 64 + 1 + 2 + 64 + 3;
  // Output bits (upper bound; unused high bits are 0).
  localparam int RspW = 520 + 2 * IdW + AW + Lanes;      // per-SM outputs, zero-padded
  localparam int OutW = N * RspW + 160 + 2 * SmW;        // and the shared ports' outputs
  localparam int F1   = (OutW + 63) / 64;   // first fold: 64 bits per register

  // Stimulus: a 64-bit LFSR and a shift chain through every input register. Each chain bit is XORed
  // with its upper neighbour: a plain shift chain fed from a shifting LFSR holds only delayed copies of
  // one LFSR bit, many of them the same register (in_q[j] and lfsr_q[j+1] both take lfsr_q[j], and so
  // on down the chain), which Yosys merges: the 4-SM probe kept 234 of about 1 800 chain flip-flops,
  // and a lane's 64 address bits were about 15 distinct signals, so the unit's per-lane logic
  // simplified and the area and timing were not the unit's (found 2026-11-24; docs/fpga.md §11.3).
  // With the XOR no two chain registers have the same inputs (one LUT4 per bit).
  logic [63:0]    lfsr_q = 64'h1;
  logic [InW-1:0] in_q = '0;
  always_ff @(posedge clk_i) begin
    lfsr_q <= {lfsr_q[62:0], lfsr_q[63] ^ lfsr_q[62] ^ lfsr_q[60] ^ lfsr_q[59]};
    in_q   <= {in_q[InW-9:0], lfsr_q[7:0]} ^ {1'b0, in_q[InW-1:1]};
  end
  logic rst_q = 1'b0;
  always_ff @(posedge clk_i) rst_q <= 1'b1;

  logic [OutW-1:0] res;

  // Input fields, in order, from in_q.
  localparam int B0 = N * ReqW;
  // The units are built as the boards build them, without the INDEX walker (HasIndex 0): reads are 16
  // or 32 bytes and LAYOUT is at most 2; the length code's and the layout's upper bits are folded in.
  logic [ga_pkg::MemLenW-1:0]   mlen;
  logic [N*ga_pkg::LayoutW-1:0] mlay;
  if (NumSms == 0) begin : gen_mlu
    logic [RspW-1:0] r;
    ga_mlu #(.TagBits(TagBits), .MlbEntries(MlbEntries), .Lanes(Lanes), .IdW(IdW), .HwOnly(HwOnly),
             .HasIndex(0), .EndForm(EndForm), .ReadForm(ReadForm), .FillPort(FillPort),
             .RegLookup(RegLookup), .RegCheck(RegCheck), .CheckLanes(CheckLanes)) u_mlu (
      .clk_i, .rst_ni(rst_q),
      .req_valid_i(in_q[0]), .req_ready_o(r[0]), .req_op_i(in_q[3:1]), .req_id_i(in_q[4 +: IdW]),
      .req_warp_i(in_q[4+IdW +: 16]), .req_active_i(in_q[20+IdW +: Lanes]),
      .req_addr_i(in_q[20+IdW+Lanes +: AW]), .req_size_i(in_q[20+IdW+Lanes+AW +: 3]),
      .req_md_i(in_q[23+IdW+Lanes+AW +: 64]), .req_cfg_addr_i(in_q[87+IdW+Lanes+AW +: 3]),
      .rsp_valid_o(r[1]), .rsp_ready_i(in_q[90+IdW+Lanes+AW]), .rsp_id_o(r[2 +: IdW]),
      .rsp_op_o(r[2+IdW +: 3]), .rsp_status_o(r[5+IdW +: 2]), .rsp_rd_o(r[7+IdW +: 64]),
      .rsp_addr_o(r[71+IdW +: AW]), .rsp_fault_o(r[71+IdW+AW +: Lanes]),
      .rsp_exc_kind_o(r[71+IdW+AW+Lanes +: 3]), .rsp_exc_addr_o(r[74+IdW+AW+Lanes +: 64]),
      .rsp_exc_md_o(r[138+IdW+AW+Lanes +: 64]), .rsp_exc_tb_o(r[202+IdW+AW+Lanes +: 64]),
      .rsp_exc_esize_o(r[266+IdW+AW+Lanes +: 64]), .rsp_exc_size_o(r[330+IdW+AW+Lanes +: 3]),
      .rsp_exc_sm_o(r[333+IdW+AW+Lanes +: 16]), .rsp_exc_warp_o(r[349+IdW+AW+Lanes +: 16]),
      .rsp_exc_lane_o(r[365+IdW+AW+Lanes +: 5]),
      .mem_req_valid_o(res[N*RspW]), .mem_req_ready_i(in_q[B0]), .mem_req_addr_o(res[N*RspW+1 +: 64]),
      .mem_req_len_o(mlen), .mem_rsp_valid_i(in_q[B0+1]), .mem_rsp_ready_o(res[N*RspW+66]),
      .mem_rsp_data_i(in_q[B0+2+SmW +: 256]), .mem_rsp_err_i(in_q[B0+258+SmW]),
      .orc_req_valid_o(res[N*RspW+67+SmW]), .orc_req_ready_i(in_q[B0+259+SmW]),
      .orc_req_va_o(res[N*RspW+68+SmW +: 64]), .orc_rsp_valid_i(in_q[B0+260+SmW]),
      .orc_rsp_found_i(in_q[B0+261+2*SmW]), .orc_rsp_idx_i(in_q[B0+262+2*SmW +: 64]),
      .ev_valid_o(r[370+IdW+AW+Lanes]), .ev_kind_o(r[371+IdW+AW+Lanes +: 3]),
      .ev_id_o(r[374+IdW+AW+Lanes +: IdW]), .ev_slot_o(r[375+2*IdW+AW+Lanes +: 6]),
      .ev_lane_o(r[381+2*IdW+AW+Lanes +: 5]), .halted_o(r[386+2*IdW+AW+Lanes]),
      .cfg_mode_o(r[387+2*IdW+AW+Lanes]), .cfg_layout_o(mlay[0 +: ga_pkg::LayoutW]),
      .cfg_root_o(r[390+2*IdW+AW+Lanes +: 64]), .cfg_step_limit_o(r[454+2*IdW+AW+Lanes +: 32]),
      .cfg_policy_o(r[486+2*IdW+AW+Lanes]), .cfg_sm_id_o(r[487+2*IdW+AW+Lanes +: 16]),
      .cfg_tag_bits_o(r[503+2*IdW+AW+Lanes +: 5])
    );
    assign res[N*RspW+65] = ^mlen;
    assign r[388+2*IdW+AW+Lanes +: 2] = {mlay[1], mlay[0] ^ mlay[2]};
    assign r[RspW-1:508+2*IdW+AW+Lanes] = '0;
    assign r[374+2*IdW+AW+Lanes] = 1'b0;      // a spare bit between ev_id and ev_slot
    assign res[RspW-1:0] = r;
    assign res[OutW-1:N*RspW+132+2*SmW] = '0;
    assign res[N*RspW+67 +: SmW] = '0;
    assign res[N*RspW+132+SmW +: SmW] = '0;
  end else begin : gen_sys
    // Per-SM input vectors gathered from the chain.
    logic [N-1:0]      v, rr, rdy, rv, evv, acc, rrsp, hl, md, pol;
    logic [N*3-1:0]    op, sz, ca, rop, ek, esz, evk;
    logic [N*IdW-1:0]  id, rid;
    logic [N*16-1:0]  wp, esm, ewp, smid;
    logic [N*Lanes-1:0] act, flt;
    logic [N*AW-1:0]  ad, rad;
    logic [N*64-1:0]  mdv, rd, ea, emd, etb, esi, root;
    logic [N*2-1:0]   rst2, rts;
    logic [N*5-1:0]   el, evl;
    logic [N*(IdW+1)-1:0] evi;
    logic [N*6-1:0]   evs;
    logic [N*32-1:0]  lim;
    for (genvar s = 0; s < N; s++) begin : gen_in
      localparam int O = s * ReqW;
      assign v[s] = in_q[O];
      assign op[s*3 +: 3] = in_q[O+1 +: 3];
      assign id[s*IdW +: IdW] = in_q[O+4 +: IdW];
      assign wp[s*16 +: 16] = in_q[O+4+IdW +: 16];
      assign act[s*Lanes +: Lanes] = in_q[O+20+IdW +: Lanes];
      assign ad[s*AW +: AW] = in_q[O+20+IdW+Lanes +: AW];
      assign sz[s*3 +: 3] = in_q[O+20+IdW+Lanes+AW +: 3];
      assign mdv[s*64 +: 64] = in_q[O+23+IdW+Lanes+AW +: 64];
      assign ca[s*3 +: 3] = in_q[O+87+IdW+Lanes+AW +: 3];
      assign rr[s] = in_q[O+90+IdW+Lanes+AW];
      assign res[s*RspW +: RspW] = {rdy[s], rv[s], rid[s*IdW +: IdW], rop[s*3 +: 3], rst2[s*2 +: 2],
                                    rd[s*64 +: 64], rad[s*AW +: AW], flt[s*Lanes +: Lanes], ek[s*3 +: 3],
                                    ea[s*64 +: 64], emd[s*64 +: 64], etb[s*64 +: 64], esi[s*64 +: 64],
                                    esz[s*3 +: 3], esm[s*16 +: 16], ewp[s*16 +: 16], el[s*5 +: 5],
                                    evv[s], evk[s*3 +: 3], evi[s*(IdW+1) +: IdW+1], evs[s*6 +: 6],
                                    evl[s*5 +: 5], acc[s], rrsp[s], rts[s*2 +: 2], root[s*64 +: 64],
                                    lim[s*32 +: 32], hl[s] ^ md[s] ^ pol[s], smid[s*16 +: 16],
                                    mlay[s*3+1], mlay[s*3] ^ mlay[s*3+2],
                                    {(RspW-505-2*IdW-AW-Lanes){1'b0}}};
    end
    ga_system #(.TagBits(TagBits), .MlbEntries(MlbEntries), .Lanes(Lanes), .IdW(IdW), .NumSms(N),
                .HwOnly(HwOnly), .HasIndex(0), .EndForm(EndForm), .ReadForm(ReadForm), .FillPort(FillPort),
                .RegLookup(RegLookup), .RegCheck(RegCheck), .CheckLanes(CheckLanes), .ReqSlice(ReqSlice)) u_sys (
      .clk_i, .rst_ni(rst_q),
      .req_valid_i(v), .req_ready_o(rdy), .req_op_i(op), .req_id_i(id), .req_warp_i(wp),
      .req_active_i(act), .req_addr_i(ad), .req_size_i(sz), .req_md_i(mdv), .req_cfg_addr_i(ca),
      .rsp_valid_o(rv), .rsp_ready_i(rr), .rsp_id_o(rid), .rsp_op_o(rop), .rsp_status_o(rst2),
      .rsp_rd_o(rd), .rsp_addr_o(rad), .rsp_fault_o(flt), .rsp_exc_kind_o(ek), .rsp_exc_addr_o(ea),
      .rsp_exc_md_o(emd), .rsp_exc_tb_o(etb), .rsp_exc_esize_o(esi), .rsp_exc_size_o(esz),
      .rsp_exc_sm_o(esm), .rsp_exc_warp_o(ewp), .rsp_exc_lane_o(el),
      .rt_valid_i(in_q[B0+326+2*SmW]), .rt_ready_o(res[N*RspW+132+2*SmW]),
      .rt_op_i(in_q[B0+327+2*SmW +: 2]), .rt_md_i(in_q[B0+329+2*SmW +: 64]),
      .rt_cfg_addr_i(in_q[B0+393+2*SmW +: 3]), .rt_ack_o(res[N*RspW+133+2*SmW]),
      .rt_err_o(res[N*RspW+134+2*SmW]),
      .mem_req_valid_o(res[N*RspW]), .mem_req_ready_i(in_q[B0]), .mem_req_addr_o(res[N*RspW+1 +: 64]),
      .mem_req_len_o(mlen), .mem_req_sm_o(res[N*RspW+67 +: SmW]),
      .mem_rsp_valid_i(in_q[B0+1]), .mem_rsp_ready_o(res[N*RspW+66]), .mem_rsp_sm_i(in_q[B0+2 +: SmW]),
      .mem_rsp_data_i(in_q[B0+2+SmW +: 256]), .mem_rsp_err_i(in_q[B0+258+SmW]),
      .orc_req_valid_o(res[N*RspW+67+SmW]), .orc_req_ready_i(in_q[B0+259+SmW]),
      .orc_req_va_o(res[N*RspW+68+SmW +: 64]), .orc_req_sm_o(res[N*RspW+132+SmW +: SmW]),
      .orc_rsp_valid_i(in_q[B0+260+SmW]), .orc_rsp_sm_i(in_q[B0+261+SmW +: SmW]),
      .orc_rsp_found_i(in_q[B0+261+2*SmW]), .orc_rsp_idx_i(in_q[B0+262+2*SmW +: 64]),
      .ev_valid_o(evv), .ev_kind_o(evk), .ev_id_o(evi), .ev_slot_o(evs), .ev_lane_o(evl),
      .rt_acc_o(acc), .rt_rsp_o(rrsp), .rt_rsp_status_o(rts),
      .halted_o(hl), .cfg_mode_o(md), .cfg_layout_o(mlay), .cfg_root_o(root), .cfg_step_limit_o(lim),
      .cfg_policy_o(pol), .cfg_sm_id_o(smid), .cfg_tag_bits_o(res[N*RspW+135+2*SmW +: 5])
    );
    assign res[N*RspW+65] = ^mlen;
    assign res[OutW-1:N*RspW+140+2*SmW] = '0;
  end

  // Capture, then two registered folds.
  logic [OutW-1:0]   res_q;
  logic [F1*64-1:0]  res_pad;
  logic [F1-1:0]     f1_q;
  logic              out_q;
  assign res_pad = {{(F1*64-OutW){1'b0}}, res_q};
  always_ff @(posedge clk_i) begin
    res_q <= res;
    for (int i = 0; i < F1; i++) f1_q[i] <= ^res_pad[i*64 +: 64];
    out_q <= ^f1_q;
  end
  assign out_o = out_q;
endmodule : ga_ecp5_probe
