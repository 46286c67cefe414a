// Copyright GPUArmor contributors.
//
// ga_system -- the MLUs of a whole GPU (paper §5.2: one MLU and MLB per SM; §6.1: the runtime
// invalidates freed entries; spec §5.2, §6.6; docs/microarchitecture.md §10).
//
//   LSU port of SM 0 --+   +------------------+                 +---------+
//   (req_*, rsp_*)     +-->| port mux (SM 0)  |--> ga_mlu 0 --+->|         |  mem_req_*  (+ SM id)
//                          |  runtime command |               |  | ga_arb  |-----------> shared
//   runtime port  --+----->|  first, an LSU   |    ...        |  | round   |<----------- metadata
//   rt_valid_i      |      |  request shown   |               |  | robin   |  mem_rsp_*  memory
//   rt_op_i (INVAL, |      |  and not taken   |--> ga_mlu N-1-+->|         |  (routed by SM id)
//   FLUSH, CFG,     |      |  keeps the port  |                  +---------+
//   CLEAR_HALT)     |      +------------------+                  ga_arb for the TABLE oracle too
//   rt_ack_o <------+-- every SM has answered (its MLU accepted the command earlier: the command
//                       committed there; spec §6.6)
//
// Each SM has its own ga_mlu (its own MLB, walker, registers, commit log), unchanged. They share:
//   - the metadata memory read port, through a round-robin arbiter (ga_arb). A read carries its SM's
//     index on mem_req_sm_o and its response must carry it back on mem_rsp_sm_i. Every SM keeps at
//     most one read outstanding (ga_walker), so responses of different SMs may come in any order.
//     A response is one beat per 16- or 32-byte read and four beats (in address order) per 128-byte
//     INDEX node read (microarchitecture §1.3); every beat names its SM on mem_rsp_sm_i, and beats
//     of different SMs may interleave (each SM takes its own in order).
//   - the TABLE oracle port, likewise (orc_req_sm_o / orc_rsp_sm_i).
//   - the runtime port (rt_*): one command at a time (INVALIDATE, FLUSH, CFG_WRITE, CLEAR_HALT) is
//     delivered to every SM's MLU through that SM's request port, with the reserved MLU id
//     {1, 0...0} (the LSU ids are {0, req_id_i}); its responses are taken here and never reach the
//     LSU. rt_ack_o pulses once every SM has answered; rt_err_o (with the ack) says that some SM
//     answered CFG_ERROR.
//
// Parameters:
//   TagBits     7, 16     pointer tag width (spec §1.1)
//   MlbEntries  1 .. 64   MLB entries per SM (spec §6.1)
//   Lanes       1 .. 32   lanes per warp operation (spec §4.4)
//   IdW         1 .. 15   LSU request id width; each MLU has IdW + 1 (the runtime's reserved id)
//   NumSms      1 .. 8    SMs, one MLU each
//   HwOnly, HasIndex, EndForm, ReadForm, FillPort, RegLookup, RegCheck, CheckLanes: passed to every ga_mlu
//               (docs/microarchitecture.md §1)
//   ReqSlice    0 | 1     0 (default): each SM's port mux drives its MLU's request port. 1: a register
//                         stage (ga_req_slice) between them, so that the MLU's accept path (request ->
//                         MLB lookup -> lookup register, docs/fpga.md §11.3) starts at flip-flops next
//                         to it instead of behind the mux and its select's fan-out; one cycle more
//                         latency, no bubble. The SM's port rules below are the same; a transfer on
//                         it (and rt_acc_o) enters the stage, and the MLU takes it in order from there.
//
// Per-SM vectors are flat: SM s's field of width W at [s*W +: W].
//
// Port rules (each SM's LSU port is ga_mlu's port of microarchitecture §1.1/§1.2 otherwise):
//   - The request port of SM s is ready when its MLU is ready and the runtime command is not being
//     shown to it. A pending runtime command is shown before any new LSU request, but an LSU request
//     that was shown (valid) and not accepted keeps the MLU's port until it is accepted, so the MLU
//     always sees a payload held stable while valid && !ready (ReqHold of its proof).
//   - rt_ready_o is high while no runtime command is in flight; the command is held in a register.
//   - mem_* and orc_*: valid/ready; payload stable while valid && !ready (ga_arb locks its grant);
//     mem_rsp_ready_o is high while some SM waits for a read; a response must name an SM that waits
//     (MemRspOwner_A). One oracle answer pulse per oracle request, naming its SM.
//   - Verification outputs: the per-SM commit logs (ev_*, MLU ids of IdW + 1 bits), rt_acc_o (SM s's
//     MLU accepted the runtime command in this cycle: the command commits there at this edge) and
//     rt_rsp_o / rt_rsp_status_o (SM s answered it in this cycle).

`ifndef GA_ALWAYS_COMB
`ifdef __ICARUS__
`define GA_ALWAYS_COMB always @*
`else
`define GA_ALWAYS_COMB always_comb
`endif
`endif

module ga_system #(
  parameter int TagBits    = 7,
  parameter int MlbEntries = 16,
  parameter int Lanes      = 1,
  parameter int IdW        = 4,
  parameter int NumSms     = 4,
  parameter int HwOnly     = 1,
  parameter int HasIndex   = 1,
  parameter int EndForm    = 0,
  parameter int ReadForm   = 0,
  parameter int FillPort   = 0,
  parameter int RegLookup  = 0,
  parameter int RegCheck   = 0,
  parameter int CheckLanes = 0,
  parameter int ReqSlice   = 0
) (
  input  logic                          clk_i,
  input  logic                          rst_ni,

  // LSU request ports, one per SM (microarchitecture §1.1)
  input  logic [NumSms-1:0]             req_valid_i,
  output logic [NumSms-1:0]             req_ready_o,
  input  logic [NumSms*3-1:0]           req_op_i,
  input  logic [NumSms*IdW-1:0]         req_id_i,
  input  logic [NumSms*16-1:0]          req_warp_i,
  input  logic [NumSms*Lanes-1:0]       req_active_i,
  input  logic [NumSms*64*Lanes-1:0]    req_addr_i,
  input  logic [NumSms*3-1:0]           req_size_i,
  input  logic [NumSms*64-1:0]          req_md_i,
  input  logic [NumSms*3-1:0]           req_cfg_addr_i,

  // LSU response ports, one per SM (§1.2)
  output logic [NumSms-1:0]             rsp_valid_o,
  input  logic [NumSms-1:0]             rsp_ready_i,
  output logic [NumSms*IdW-1:0]         rsp_id_o,
  output logic [NumSms*3-1:0]           rsp_op_o,
  output logic [NumSms*2-1:0]           rsp_status_o,
  output logic [NumSms*64-1:0]          rsp_rd_o,
  output logic [NumSms*64*Lanes-1:0]    rsp_addr_o,
  output logic [NumSms*Lanes-1:0]       rsp_fault_o,
  output logic [NumSms*3-1:0]           rsp_exc_kind_o,
  output logic [NumSms*64-1:0]          rsp_exc_addr_o,
  output logic [NumSms*64-1:0]          rsp_exc_md_o,
  output logic [NumSms*64-1:0]          rsp_exc_tb_o,
  output logic [NumSms*64-1:0]          rsp_exc_esize_o,
  output logic [NumSms*3-1:0]           rsp_exc_size_o,
  output logic [NumSms*16-1:0]          rsp_exc_sm_o,
  output logic [NumSms*16-1:0]          rsp_exc_warp_o,
  output logic [NumSms*5-1:0]           rsp_exc_lane_o,

  // Runtime port: one command for every SM (spec §5.2, §6.6)
  input  logic                          rt_valid_i,
  output logic                          rt_ready_o,
  input  logic [1:0]                    rt_op_i,       // 0 INVALIDATE, 1 FLUSH, 2 CFG_WRITE, 3 CLEAR_HALT
  input  logic [63:0]                   rt_md_i,       // INVALIDATE location, CFG_WRITE value
  input  logic [2:0]                    rt_cfg_addr_i, // CFG_WRITE register
  output logic                          rt_ack_o,      // pulse: every SM has answered the command
  output logic                          rt_err_o,      // with rt_ack_o: some SM answered CFG_ERROR

  // Shared metadata memory read port (§1.3, plus the SM index)
  output logic                          mem_req_valid_o,
  input  logic                          mem_req_ready_i,
  output logic [63:0]                   mem_req_addr_o,
  output logic [ga_pkg::MemLenW-1:0]    mem_req_len_o,
  output logic [SmIdxW-1:0]             mem_req_sm_o,
  input  logic                          mem_rsp_valid_i,
  output logic                          mem_rsp_ready_o,
  input  logic [SmIdxW-1:0]             mem_rsp_sm_i,
  input  logic [255:0]                  mem_rsp_data_i,
  input  logic                          mem_rsp_err_i,

  // Shared table oracle port (§1.4, plus the SM index)
  output logic                          orc_req_valid_o,
  input  logic                          orc_req_ready_i,
  output logic [63:0]                   orc_req_va_o,
  output logic [SmIdxW-1:0]             orc_req_sm_o,
  input  logic                          orc_rsp_valid_i,
  input  logic [SmIdxW-1:0]             orc_rsp_sm_i,
  input  logic                          orc_rsp_found_i,
  input  logic [63:0]                   orc_rsp_idx_i,

  // Per-SM MLB commit logs (§1.5; ids of IdW + 1 bits) and runtime-command observation
  output logic [NumSms-1:0]             ev_valid_o,
  output logic [NumSms*3-1:0]           ev_kind_o,
  output logic [NumSms*(IdW+1)-1:0]     ev_id_o,
  output logic [NumSms*6-1:0]           ev_slot_o,
  output logic [NumSms*5-1:0]           ev_lane_o,
  output logic [NumSms-1:0]             rt_acc_o,
  output logic [NumSms-1:0]             rt_rsp_o,
  output logic [NumSms*2-1:0]           rt_rsp_status_o,

  // Per-SM status (§1.6)
  output logic [NumSms-1:0]             halted_o,
  output logic [NumSms-1:0]             cfg_mode_o,
  output logic [NumSms*ga_pkg::LayoutW-1:0] cfg_layout_o,
  output logic [NumSms*64-1:0]          cfg_root_o,
  output logic [NumSms*32-1:0]          cfg_step_limit_o,
  output logic [NumSms-1:0]             cfg_policy_o,
  output logic [NumSms*16-1:0]          cfg_sm_id_o,
  output logic [4:0]                    cfg_tag_bits_o
);

  localparam int SmIdxW = (NumSms > 1) ? $clog2(NumSms) : 1;
  localparam int MIdW   = IdW + 1;
  localparam int AW     = 64 * Lanes;

  localparam bit ParamsBad = (NumSms < 1) || (NumSms > 8) || (IdW < 1) || (IdW > 15) ||
                            (ReqSlice < 0) || (ReqSlice > 1);
`ifdef __ICARUS__
  initial begin
    if (ParamsBad) $fatal(1, "ga_system: NumSms 1..8, IdW 1..15, ReqSlice 0|1");
  end
`else
  if (ParamsBad) begin : gen_bad_params
    $error("ga_system: NumSms 1..8, IdW 1..15, ReqSlice 0|1");
  end
`endif

  // ---------------------------------------------------------------------------------------------
  // Runtime command register
  // ---------------------------------------------------------------------------------------------
  logic              rt_busy_q, rt_busy_d;      // a command is in flight
  logic [1:0]        rt_op_q, rt_op_d;
  logic [63:0]       rt_md_q, rt_md_d;
  logic [2:0]        rt_cfg_q, rt_cfg_d;
  logic [NumSms-1:0] rt_pend_q, rt_pend_d;      // SMs whose MLU has not accepted it yet
  logic [NumSms-1:0] rt_done_q, rt_done_d;      // SMs that have answered it
  logic              rt_err_q, rt_err_d;        // some SM answered CFG_ERROR
  logic              rt_ack_q, rt_ack_d;
  logic              rt_aerr_q, rt_aerr_d;
  logic [NumSms-1:0] lsu_hold_d;                // an LSU request is shown and not taken

  logic [NumSms-1:0] show_rt;                   // the runtime command is on SM s's MLU port
  logic [NumSms-1:0] show_rt_q;                 // its register (below)
  logic [NumSms-1:0] m_req_ready;              // each MLU's req_ready_o
  logic [NumSms-1:0] p_ready;                  // what the port mux's output takes: the MLU, or the
                                               // register stage in front of it (ReqSlice)
  logic [NumSms-1:0] m_rsp_valid, m_rsp_sys, m_rsp_ready;
  logic [NumSms*2-1:0] m_rsp_status;
  logic [NumSms*5-1:0] m_tag_bits;
`ifdef FORMAL
  logic [NumSms*(1<<MIdW)-1:0] fv_mlu_out;     // each MLU's outstanding ids (its fv_out_o)
  logic [NumSms*(1<<MIdW)*3-1:0] fv_mlu_op;    // and their ops (its fv_op_o)
  logic [NumSms-1:0]           fv_lim_pend;    // a STEP_LIMIT write in its lookup register
  logic [NumSms*4-1:0]         fv_mem_skip, fv_orc_skip;   // the arbiters' fairness counts
`endif

  assign rt_ready_o = !rt_busy_q;
  assign rt_ack_o   = rt_ack_q;
  assign rt_err_o   = rt_aerr_q;
  // The runtime command is shown to SM s while it is pending there and no LSU request shown to
  // that MLU in the previous cycle is still waiting (an LSU request keeps the port until taken).
  // show_rt_q holds that as a register of its own, loaded from the next values (rt_pend_d,
  // lsu_hold_d; ShowRtReg_A): it selects every field of each MLU's request port, so its fan-out
  // heads the MLU's longest path (request -> MLB lookup -> lookup register, docs/fpga.md §11.3),
  // which then starts at a flip-flop rather than at a gate fed by two.
  assign show_rt    = show_rt_q;
  assign rt_acc_o   = show_rt & p_ready;

  `GA_ALWAYS_COMB begin
    rt_busy_d  = rt_busy_q;
    rt_op_d    = rt_op_q;
    rt_md_d    = rt_md_q;
    rt_cfg_d   = rt_cfg_q;
    rt_pend_d  = rt_pend_q & ~(show_rt & p_ready);
    rt_done_d  = rt_done_q | (m_rsp_valid & m_rsp_sys);
    rt_err_d   = rt_err_q;
    rt_ack_d   = 1'b0;
    rt_aerr_d  = 1'b0;
    lsu_hold_d = req_valid_i & ~show_rt & ~p_ready;
    for (int s = 0; s < NumSms; s++) begin
      if (m_rsp_valid[s] && m_rsp_sys[s] && m_rsp_status[s*2 +: 2] == ga_pkg::RSP_CFG_ERROR)
        rt_err_d = 1'b1;
    end
    if (rt_busy_q && (&rt_done_d)) begin
      // The last answer arrives this cycle: the command has taken effect in every SM.
      rt_busy_d = 1'b0;
      rt_ack_d  = 1'b1;
      rt_aerr_d = rt_err_d;
    end
    if (!rt_busy_q && rt_valid_i) begin
      rt_busy_d = 1'b1;
      rt_op_d   = rt_op_i;
      rt_md_d   = rt_md_i;
      rt_cfg_d  = rt_cfg_addr_i;
      rt_pend_d = '1;
      rt_done_d = '0;
      rt_err_d  = 1'b0;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rt_busy_q  <= 1'b0;
      rt_op_q    <= '0;
      rt_md_q    <= '0;
      rt_cfg_q   <= '0;
      rt_pend_q  <= '0;
      rt_done_q  <= '0;
      rt_err_q   <= 1'b0;
      rt_ack_q   <= 1'b0;
      rt_aerr_q  <= 1'b0;
      show_rt_q  <= '0;
    end else begin
      rt_busy_q  <= rt_busy_d;
      rt_op_q    <= rt_op_d;
      rt_md_q    <= rt_md_d;
      rt_cfg_q   <= rt_cfg_d;
      rt_pend_q  <= rt_pend_d;
      rt_done_q  <= rt_done_d;
      rt_err_q   <= rt_err_d;
      rt_ack_q   <= rt_ack_d;
      rt_aerr_q  <= rt_aerr_d;
      show_rt_q  <= rt_pend_d & ~lsu_hold_d;
    end
  end

  // ---------------------------------------------------------------------------------------------
  // Shared ports: walkers' reads and oracle queries through round-robin arbiters
  // ---------------------------------------------------------------------------------------------
  localparam int MemPayW = 64 + ga_pkg::MemLenW;      // {len, addr}
  logic [NumSms-1:0]      w_mem_valid, w_mem_ready, w_mem_rsp_ready;
  logic [NumSms*ga_pkg::MemLenW-1:0] w_mem_len;
  logic [NumSms*MemPayW-1:0] w_mem_pay;
  logic [NumSms-1:0]      w_orc_valid, w_orc_ready;
  logic [NumSms*64-1:0]   w_orc_va;
  logic [MemPayW-1:0]     mem_pay;

  ga_arb #(.N(NumSms), .PayW(MemPayW)) u_mem_arb (
    .clk_i, .rst_ni,
    .req_valid_i (w_mem_valid),
    .req_ready_o (w_mem_ready),
    .req_pay_i   (w_mem_pay),
    .out_valid_o (mem_req_valid_o),
    .out_ready_i (mem_req_ready_i),
    .out_pay_o   (mem_pay),
    .out_id_o    (mem_req_sm_o)
`ifdef FORMAL
    ,
    .fv_skip_o   (fv_mem_skip)
`endif
  );
  assign mem_req_addr_o  = mem_pay[63:0];
  assign mem_req_len_o   = mem_pay[64 +: ga_pkg::MemLenW];
  assign mem_rsp_ready_o = |w_mem_rsp_ready;

  ga_arb #(.N(NumSms), .PayW(64)) u_orc_arb (
    .clk_i, .rst_ni,
    .req_valid_i (w_orc_valid),
    .req_ready_o (w_orc_ready),
    .req_pay_i   (w_orc_va),
    .out_valid_o (orc_req_valid_o),
    .out_ready_i (orc_req_ready_i),
    .out_pay_o   (orc_req_va_o),
    .out_id_o    (orc_req_sm_o)
`ifdef FORMAL
    ,
    .fv_skip_o   (fv_orc_skip)
`endif
  );

  // ---------------------------------------------------------------------------------------------
  // One MLU per SM
  // ---------------------------------------------------------------------------------------------
  // What each port mux shows (x_*) and what each MLU's request port gets (m_*): the same signals, or
  // with ReqSlice the register stage's output (flat per-SM vectors, so that the property file can
  // index them by SM).
  localparam int ReqPayW = 3 + MIdW + 16 + Lanes + AW + 3 + 64 + 3;
  logic [NumSms-1:0]       x_valid, m_valid;
  logic [NumSms*ReqPayW-1:0] x_pay, m_pay;
  logic [NumSms*3-1:0]     m_op, m_size, m_cfg_addr;
  logic [NumSms*MIdW-1:0]  m_id, m_rsp_id;
  logic [NumSms*16-1:0]    m_warp;
  logic [NumSms*Lanes-1:0] m_active;
  logic [NumSms*AW-1:0]    m_addr;
  logic [NumSms*64-1:0]    m_md;

  for (genvar s = 0; s < NumSms; s++) begin : gen_sm
    logic [63:0]      m_mem_addr;

    // The runtime command carries no lanes: its warp, lanes and size are shown as 0.
    assign x_valid[s] = show_rt[s] || req_valid_i[s];
    assign x_pay[s*ReqPayW +: ReqPayW] =
        show_rt[s] ? {1'b1, rt_op_q, 1'b1, {IdW{1'b0}}, 16'd0, {Lanes{1'b0}}, {AW{1'b0}}, 3'd0,
                      rt_md_q, rt_cfg_q}
                   : {req_op_i[s*3 +: 3], 1'b0, req_id_i[s*IdW +: IdW], req_warp_i[s*16 +: 16],
                      req_active_i[s*Lanes +: Lanes], req_addr_i[s*AW +: AW], req_size_i[s*3 +: 3],
                      req_md_i[s*64 +: 64], req_cfg_addr_i[s*3 +: 3]};
    if (ReqSlice != 0) begin : gen_slice
      ga_req_slice #(.PayW(ReqPayW)) u_slice (
        .clk_i, .rst_ni,
        .in_valid_i  (x_valid[s]),
        .in_ready_o  (p_ready[s]),
        .in_pay_i    (x_pay[s*ReqPayW +: ReqPayW]),
        .out_valid_o (m_valid[s]),
        .out_ready_i (m_req_ready[s]),
        .out_pay_o   (m_pay[s*ReqPayW +: ReqPayW])
      );
    end else begin : gen_no_slice
      assign p_ready[s]                   = m_req_ready[s];
      assign m_valid[s]                   = x_valid[s];
      assign m_pay[s*ReqPayW +: ReqPayW]  = x_pay[s*ReqPayW +: ReqPayW];
    end
    assign {m_op[s*3 +: 3], m_id[s*MIdW +: MIdW], m_warp[s*16 +: 16], m_active[s*Lanes +: Lanes],
            m_addr[s*AW +: AW], m_size[s*3 +: 3], m_md[s*64 +: 64], m_cfg_addr[s*3 +: 3]} =
        m_pay[s*ReqPayW +: ReqPayW];

    assign req_ready_o[s] = p_ready[s] && !show_rt[s];
    assign m_rsp_sys[s]   = m_rsp_id[s*MIdW + MIdW-1];
    assign m_rsp_ready[s] = m_rsp_sys[s] || rsp_ready_i[s];
    assign rsp_valid_o[s] = m_rsp_valid[s] && !m_rsp_sys[s];
    assign rsp_id_o[s*IdW +: IdW] = m_rsp_id[s*MIdW +: IdW];
    assign rt_rsp_o[s]    = m_rsp_valid[s] && m_rsp_sys[s];
    assign rt_rsp_status_o[s*2 +: 2] = m_rsp_status[s*2 +: 2];
    assign rsp_status_o[s*2 +: 2]    = m_rsp_status[s*2 +: 2];
    assign w_mem_pay[s*MemPayW +: MemPayW] = {w_mem_len[s*ga_pkg::MemLenW +: ga_pkg::MemLenW],
                                              m_mem_addr};

    ga_mlu #(
      .TagBits    (TagBits),
      .MlbEntries (MlbEntries),
      .Lanes      (Lanes),
      .IdW        (MIdW),
      .HwOnly     (HwOnly),
      .HasIndex   (HasIndex),
      .EndForm    (EndForm),
      .ReadForm   (ReadForm),
      .FillPort   (FillPort),
      .RegLookup  (RegLookup),
      .RegCheck   (RegCheck),
      .CheckLanes (CheckLanes)
    ) u_mlu (
      .clk_i, .rst_ni,
      .req_valid_i      (m_valid[s]),
      .req_ready_o      (m_req_ready[s]),
      .req_op_i         (m_op[s*3 +: 3]),
      .req_id_i         (m_id[s*MIdW +: MIdW]),
      .req_warp_i       (m_warp[s*16 +: 16]),
      .req_active_i     (m_active[s*Lanes +: Lanes]),
      .req_addr_i       (m_addr[s*AW +: AW]),
      .req_size_i       (m_size[s*3 +: 3]),
      .req_md_i         (m_md[s*64 +: 64]),
      .req_cfg_addr_i   (m_cfg_addr[s*3 +: 3]),
      .rsp_valid_o      (m_rsp_valid[s]),
      .rsp_ready_i      (m_rsp_ready[s]),
      .rsp_id_o         (m_rsp_id[s*MIdW +: MIdW]),
      .rsp_op_o         (rsp_op_o[s*3 +: 3]),
      .rsp_status_o     (m_rsp_status[s*2 +: 2]),
      .rsp_rd_o         (rsp_rd_o[s*64 +: 64]),
      .rsp_addr_o       (rsp_addr_o[s*AW +: AW]),
      .rsp_fault_o      (rsp_fault_o[s*Lanes +: Lanes]),
      .rsp_exc_kind_o   (rsp_exc_kind_o[s*3 +: 3]),
      .rsp_exc_addr_o   (rsp_exc_addr_o[s*64 +: 64]),
      .rsp_exc_md_o     (rsp_exc_md_o[s*64 +: 64]),
      .rsp_exc_tb_o     (rsp_exc_tb_o[s*64 +: 64]),
      .rsp_exc_esize_o  (rsp_exc_esize_o[s*64 +: 64]),
      .rsp_exc_size_o   (rsp_exc_size_o[s*3 +: 3]),
      .rsp_exc_sm_o     (rsp_exc_sm_o[s*16 +: 16]),
      .rsp_exc_warp_o   (rsp_exc_warp_o[s*16 +: 16]),
      .rsp_exc_lane_o   (rsp_exc_lane_o[s*5 +: 5]),
      .mem_req_valid_o  (w_mem_valid[s]),
      .mem_req_ready_i  (w_mem_ready[s]),
      .mem_req_addr_o   (m_mem_addr),
      .mem_req_len_o    (w_mem_len[s*ga_pkg::MemLenW +: ga_pkg::MemLenW]),
      .mem_rsp_valid_i  (mem_rsp_valid_i && mem_rsp_sm_i == SmIdxW'(s)),
      .mem_rsp_ready_o  (w_mem_rsp_ready[s]),
      .mem_rsp_data_i   (mem_rsp_data_i),
      .mem_rsp_err_i    (mem_rsp_err_i),
      .orc_req_valid_o  (w_orc_valid[s]),
      .orc_req_ready_i  (w_orc_ready[s]),
      .orc_req_va_o     (w_orc_va[s*64 +: 64]),
      .orc_rsp_valid_i  (orc_rsp_valid_i && orc_rsp_sm_i == SmIdxW'(s)),
      .orc_rsp_found_i  (orc_rsp_found_i),
      .orc_rsp_idx_i    (orc_rsp_idx_i),
      .ev_valid_o       (ev_valid_o[s]),
      .ev_kind_o        (ev_kind_o[s*3 +: 3]),
      .ev_id_o          (ev_id_o[s*MIdW +: MIdW]),
      .ev_slot_o        (ev_slot_o[s*6 +: 6]),
      .ev_lane_o        (ev_lane_o[s*5 +: 5]),
      .halted_o         (halted_o[s]),
      .cfg_mode_o       (cfg_mode_o[s]),
      .cfg_layout_o     (cfg_layout_o[s*ga_pkg::LayoutW +: ga_pkg::LayoutW]),
      .cfg_root_o       (cfg_root_o[s*64 +: 64]),
      .cfg_step_limit_o (cfg_step_limit_o[s*32 +: 32]),
      .cfg_policy_o     (cfg_policy_o[s]),
      .cfg_sm_id_o      (cfg_sm_id_o[s*16 +: 16]),
      .cfg_tag_bits_o   (m_tag_bits[s*5 +: 5])
`ifdef FORMAL
      ,
      .fv_out_o         (fv_mlu_out[s*(1<<MIdW) +: (1<<MIdW)]),
      .fv_op_o          (fv_mlu_op[s*(1<<MIdW)*3 +: (1<<MIdW)*3]),
      .fv_lim_pend_o    (fv_lim_pend[s])
`endif
    );
  end

  assign cfg_tag_bits_o = m_tag_bits[4:0];

  // ---------------------------------------------------------------------------------------------
  // Assertions (simulation; the formal properties are in rtl/formal/ga_system_props.svh)
  // ---------------------------------------------------------------------------------------------
`ifndef SYNTHESIS
  always @(posedge clk_i or negedge rst_ni) begin
    if (rst_ni) begin
      if (m_tag_bits != {NumSms{m_tag_bits[4:0]}}) $error("ga_system: TagBitsSame_A");
      // A memory response must be for an SM that waits for one (one read outstanding per SM).
      if (mem_rsp_valid_i && mem_rsp_ready_o && !w_mem_rsp_ready[mem_rsp_sm_i])
        $error("ga_system: MemRspOwner_A: memory response for SM %0d, which has no read outstanding",
               mem_rsp_sm_i);
      if (mem_rsp_valid_i && {1'b0, mem_rsp_sm_i} >= (SmIdxW+1)'(NumSms))
        $error("ga_system: MemRspSm_A: memory response names SM %0d of %0d", mem_rsp_sm_i, NumSms);
      // The runtime's id never reaches an LSU: a system response only while a command is in flight.
      if (|(m_rsp_valid & m_rsp_sys) && !rt_busy_q)
        $error("ga_system: RtRspInFlight_A: a runtime-command response with no command in flight");
      if (|(rt_acc_o & ~rt_pend_q)) $error("ga_system: RtAccOnce_A: an SM accepted the command twice");
    end
  end
`endif

`ifdef FORMAL
`include "formal/ga_system_props.svh"
`endif

endmodule : ga_system
