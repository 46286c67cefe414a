// Copyright GPUArmor contributors.
//
// ga_system_props.svh -- formal properties of ga_system (spec §6.6; docs/microarchitecture.md §10),
// included at the bottom of rtl/ga_system.sv under `ifdef FORMAL. The proof's top is ga_system
// (define GA_FV_SYS_TOP). Each ga_mlu inside brings its own property file (not as a top: its LSU
// environment is not assumed, its group-1 and group-2 properties are asserted in context), so the
// MLUs' conservation (HeldOnce_A), race rule (FillWhenClean_A, DropWhenDirty_A, FillFresh_A) and
// commit log (LogMatchesMlb_A) are proved again inside the system, fed by the system's muxes and
// arbiters. Names end in _A (assert), _M (assume), _C (cover).
//
// Environment (GA_FV_SYS_TOP), at the system's ports:
//   ResetFirst_M / ResetOnce_M   reset in the first step, never again
//   ReqHold_M     each SM's LSU keeps valid and payload stable while valid && !ready
//   IdFree_M      an LSU id is not outstanding in its SM
//   ReqSize_M     access sizes 0..4 (spec §4.1)
//   LimitSmall_M  LOADMETA / ACCESS only while that SM's STEP_LIMIT <= FvLimitMax (the walker
//                 proof's small symbolic limit; asserted in context by the MLU props)
//   LimitFlight_M with ReqSlice, and only while no CFG_WRITE of STEP_LIMIT, the runtime's or that
//                 SM's LSU's, is accepted at that SM and not yet answered: a request waiting in the
//                 stage reaches the MLU after such a write commits, so the live register the port
//                 sees is not yet its limit (a bound of the proof's environment, not of the
//                 hardware: BMC 5 found the trace for the runtime's write, BMC 7 with Yices the one
//                 for the LSU's, 2026-11-29)
//   RtHold_M      the runtime keeps rt_valid_i and its payload stable until rt_ready_o
//   MemRspOwner_M a memory response names an SM that waits for a read (at most one per SM)
//   OrcRspOwner_M an oracle answer names an SM with a query outstanding (or transferring)
//
// Properties (groups, -DGA_FV_SYS_GROUPS=mask, default 1):
//   1  the glue: each MLU sees a request held stable while valid && !ready and an id that is not
//      outstanding in it (so the MLU's own proof applies); no LSU response without its request;
//      the runtime command is accepted once per SM, and rt_ack_o comes only after every SM has
//      answered it and, for INVALIDATE / FLUSH, after every SM's commit log has shown the INVAL /
//      FLUSH event, i.e. after every SM's MLB has applied it (RtCommittedBeforeAck_A); the
//      register that selects the runtime command onto an MLU's port is set exactly while the
//      command is pending there and no LSU request was held on that port in the previous cycle
//      (ShowRtReg_A). MluReqHold_A compares the MLU's whole request payload (op, id, warp, lanes,
//      addresses, size, md, CFG address). With ReqSlice the ids an SM owes are those outstanding in
//      its MLU or waiting in its register stage, and the stage holds its output by itself.
//      Strengthening for k-induction (jobs sys_glue*, docs/verification.md §8.2): only the
//      runtime's id among those with the top bit is ever outstanding (RtSysIdOnly_A) and it carries
//      the runtime's op (RtSysOp_A); an INVALIDATE / FLUSH not yet logged is held, not answered,
//      unless its event shows in the same cycle (RtLogDue_A); with ReqSlice, a stage holding the
//      runtime's id holds its command (SlRt_A) and one holding a LOADMETA / ACCESS has a small
//      STEP_LIMIT and no STEP_LIMIT write ahead of it (SlLimit_A, SlLimw_A, LimPend_A, LimwOut_A).
//      The outstanding ids, their ops and the arbiters' fairness counts are the MLUs' and arbiters'
//      own ghost state, read through their formal-only ports (fv_*), so the induction sees one copy
//   2  the shared ports: payload stable while valid && !ready (MemStable_A, OrcStable_A); fairness
//      (MemFair_A, OrcFair_A): while an SM's walker requests, at most NumSms - 1 transfers of
//      other SMs happen before its own
//   8  covers

`ifndef GA_FV_SYS_GROUPS
`define GA_FV_SYS_GROUPS 1
`endif
`ifndef GA_FV_LIMIT_MAX
`define GA_FV_LIMIT_MAX 3
`endif

  localparam int FvSysGroups = `GA_FV_SYS_GROUPS;
  localparam int FvSysLimit  = `GA_FV_LIMIT_MAX;
  localparam int FvLsuIds    = 1 << IdW;
  localparam int FvMluIds    = 1 << MIdW;

  logic f_sys_past = 1'b0;
  always @(posedge clk_i) f_sys_past <= 1'b1;

  // ---------------------------------------------------------------------------------------------
  // Shadow state
  // ---------------------------------------------------------------------------------------------
  logic [NumSms*FvLsuIds-1:0] f_lsu_out;     // LSU ids outstanding, per SM
  logic [NumSms*FvLsuIds-1:0] f_lsu_limw;    // ... those that are a CFG_WRITE of STEP_LIMIT
  // MLU ids outstanding, per SM (LSU's and the runtime's): the MLU's own shadow (its fv_out_o), so
  // that k-induction sees one set, which each MLU's HeldOnce_A ties to the registers holding them.
  logic [NumSms*FvMluIds-1:0] f_mlu_out;
  assign f_mlu_out = fv_mlu_out;
  logic [NumSms-1:0]          f_lsu_hold;    // LSU request shown and not taken last cycle
  logic [NumSms-1:0]          f_m_lsu_hold;  // ... and the MLU's port showed it (lsu_hold_d)
  logic [NumSms-1:0]          f_m_hold;      // MLU request port: valid && !ready last cycle
  logic [NumSms*ReqPayW-1:0]  f_m_pay_p;     // the MLU's whole request payload last cycle
  logic [NumSms*FvMluIds-1:0] f_sl_ids;      // ReqSlice: the MLU id waiting in SM s's stage
  logic                       f_rt_hold;
  logic [69-1:0]              f_rt_pay_p;
  logic [NumSms-1:0]          f_rt_acc;      // SMs that accepted the current runtime command
  logic [NumSms-1:0]          f_rt_log_due;  // accepted an INVALIDATE/FLUSH whose event is not yet logged
  logic [NumSms-1:0]          f_orc_out;     // SM s's walker has an oracle query outstanding
  // Transfers of other SMs while SM s requests: the arbiters' own counts (their fv_skip_o), which
  // their Fair_A and its strengthening (ga_arb_props.svh, asserted here per instance) bound.
  logic [NumSms*4-1:0]        f_mem_skip, f_orc_skip;
  assign f_mem_skip = fv_mem_skip;
  assign f_orc_skip = fv_orc_skip;
  logic                       f_mem_hold, f_orc_hold;
  logic [64+ga_pkg::MemLenW+SmIdxW-1:0] f_mem_pay_p;
  logic [64+SmIdxW-1:0]       f_orc_pay_p;
  logic                       f_rt_inv;      // the command in flight is INVALIDATE or FLUSH

  assign f_rt_inv = !rt_op_q[1];
  // SM s accepted the runtime's CFG_WRITE of STEP_LIMIT and has not answered it yet
  logic [NumSms-1:0]          f_rt_limw;
  assign f_rt_limw = {NumSms{rt_busy_q && rt_op_q == 2'd2 && rt_cfg_q == ga_pkg::CFG_STEP_LIMIT}} &
                     f_rt_acc & ~rt_done_q;

  for (genvar s = 0; s < NumSms; s++) begin : gen_fv_pay
    // With ReqSlice the MLU's port is the stage's output: a request there is owed but not yet in
    // the MLU (without it the port is the mux, and nothing waits between).
    for (genvar i = 0; i < FvMluIds; i++) begin : gen_fv_sl
      assign f_sl_ids[s*FvMluIds + i] = (ReqSlice != 0) && m_valid[s] && m_id[s*MIdW +: MIdW] == MIdW'(i);
    end
  end

  always @(posedge clk_i) begin
    if (!rst_ni) begin
      f_lsu_out    <= '0;
      f_lsu_limw   <= '0;
      f_lsu_hold   <= '0;
      f_m_lsu_hold <= '0;
      f_m_hold     <= '0;
      f_rt_hold    <= 1'b0;
      f_rt_acc     <= '0;
      f_rt_log_due <= '0;
      f_orc_out    <= '0;
      f_mem_hold   <= 1'b0;
      f_orc_hold   <= 1'b0;
    end else begin
      for (int s = 0; s < NumSms; s++) begin
        for (int i = 0; i < FvLsuIds; i++) begin
          if (rsp_valid_o[s] && rsp_ready_i[s] && rsp_id_o[s*IdW +: IdW] == IdW'(i)) begin
            f_lsu_out[s*FvLsuIds + i]  <= 1'b0;
            f_lsu_limw[s*FvLsuIds + i] <= 1'b0;
          end
          if (req_valid_i[s] && req_ready_o[s] && req_id_i[s*IdW +: IdW] == IdW'(i)) begin
            f_lsu_out[s*FvLsuIds + i]  <= 1'b1;
            f_lsu_limw[s*FvLsuIds + i] <= req_op_i[s*3 +: 3] == ga_pkg::OP_CFG_WRITE &&
                                          req_cfg_addr_i[s*3 +: 3] == ga_pkg::CFG_STEP_LIMIT;
          end
        end
        if (rt_acc_o[s]) begin
          f_rt_acc[s] <= 1'b1;
          if (f_rt_inv) f_rt_log_due[s] <= 1'b1;
        end
        if (ev_valid_o[s] && ev_id_o[s*MIdW + MIdW-1] &&
            (ev_kind_o[s*3 +: 3] == ga_pkg::EV_INVAL || ev_kind_o[s*3 +: 3] == ga_pkg::EV_FLUSH))
          f_rt_log_due[s] <= 1'b0;
        if (w_orc_valid[s] && w_orc_ready[s] && !(orc_rsp_valid_i && orc_rsp_sm_i == SmIdxW'(s)))
          f_orc_out[s] <= 1'b1;
        else if (orc_rsp_valid_i && orc_rsp_sm_i == SmIdxW'(s))
          f_orc_out[s] <= 1'b0;
      end
      if (rt_valid_i && rt_ready_o) begin
        f_rt_acc     <= '0;
        f_rt_log_due <= '0;
      end
      f_lsu_hold <= req_valid_i & ~req_ready_o;
      f_m_lsu_hold <= lsu_hold_d;
      f_m_hold   <= m_valid & ~m_req_ready;
      f_rt_hold  <= rt_valid_i && !rt_ready_o;
      f_mem_hold <= mem_req_valid_o && !mem_req_ready_i;
      f_orc_hold <= orc_req_valid_o && !orc_req_ready_i;
    end
    f_m_pay_p   <= m_pay;
    f_rt_pay_p  <= {rt_op_i, rt_md_i, rt_cfg_addr_i};
    f_mem_pay_p <= {mem_req_addr_o, mem_req_len_o, mem_req_sm_o};
    f_orc_pay_p <= {orc_req_va_o, orc_req_sm_o};
  end

  // The LSU payload of each SM, as ReqHold_M keeps it.
  localparam int FvLsuW = 3 + IdW + 16 + Lanes + AW + 3 + 64 + 3;
  logic [NumSms*FvLsuW-1:0] f_lsu_all, f_lsu_all_p;
  for (genvar s = 0; s < NumSms; s++) begin : gen_fv_lsu
    assign f_lsu_all[s*FvLsuW +: FvLsuW] = {req_op_i[s*3 +: 3], req_id_i[s*IdW +: IdW],
        req_warp_i[s*16 +: 16], req_active_i[s*Lanes +: Lanes], req_addr_i[s*AW +: AW],
        req_size_i[s*3 +: 3], req_md_i[s*64 +: 64], req_cfg_addr_i[s*3 +: 3]};
  end
  always @(posedge clk_i) f_lsu_all_p <= f_lsu_all;

  // ---------------------------------------------------------------------------------------------
  // Environment
  // ---------------------------------------------------------------------------------------------
`ifdef GA_FV_SYS_TOP
  always @(*) begin
    if (!f_sys_past) begin
      ResetFirst_M: assume (!rst_ni);
    end else begin
      ResetOnce_M: assume (rst_ni);
    end
    if (f_sys_past && rst_ni) begin
      if (f_rt_hold) begin
        RtHold_M: assume (rt_valid_i && {rt_op_i, rt_md_i, rt_cfg_addr_i} == f_rt_pay_p);
      end
      if (mem_rsp_valid_i) begin
        MemRspOwner_M: assume (32'(mem_rsp_sm_i) < NumSms && w_mem_rsp_ready[mem_rsp_sm_i]);
      end
      if (orc_rsp_valid_i) begin
        OrcRspOwner_M: assume (32'(orc_rsp_sm_i) < NumSms &&
                               (f_orc_out[orc_rsp_sm_i] ||
                                (w_orc_valid[orc_rsp_sm_i] && w_orc_ready[orc_rsp_sm_i])));
      end
    end
  end
`define GA_FV_SYS_ENV(K) \
  if (NumSms > K) begin : gen_fv_env_``K \
    always @(*) begin \
      if (f_sys_past && rst_ni) begin \
        if (f_lsu_hold[K]) begin \
          ReqHold``K``_M: assume (req_valid_i[K] && \
                             f_lsu_all[K*FvLsuW +: FvLsuW] == f_lsu_all_p[K*FvLsuW +: FvLsuW]); \
        end \
        if (req_valid_i[K]) begin \
          IdFree``K``_M: assume (!f_lsu_out[K*FvLsuIds + 32'(req_id_i[K*IdW +: IdW])]); \
          if (req_op_i[K*3 +: 3] == ga_pkg::OP_MEMCHECK_G || req_op_i[K*3 +: 3] == ga_pkg::OP_MEMCHECK_S || \
              req_op_i[K*3 +: 3] == ga_pkg::OP_ACCESS) begin \
            ReqSize``K``_M: assume (req_size_i[K*3 +: 3] <= 3'd4); \
          end \
          if (req_op_i[K*3 +: 3] == ga_pkg::OP_LOADMETA || req_op_i[K*3 +: 3] == ga_pkg::OP_ACCESS) begin \
            LimitSmall``K``_M: assume (cfg_step_limit_o[K*32 +: 32] <= 32'(FvSysLimit)); \
            if (ReqSlice != 0) begin \
              LimitFlight``K``_M: assume (!f_rt_limw[K] && f_lsu_limw[K*FvLsuIds +: FvLsuIds] == '0); \
            end \
          end \
        end \
        end \
    end \
  end
  `GA_FV_SYS_ENV(0)
  `GA_FV_SYS_ENV(1)
  `GA_FV_SYS_ENV(2)
  `GA_FV_SYS_ENV(3)
  `GA_FV_SYS_ENV(4)
  `GA_FV_SYS_ENV(5)
  `GA_FV_SYS_ENV(6)
  `GA_FV_SYS_ENV(7)
`endif

  // ---------------------------------------------------------------------------------------------
  // Group 1: the glue
  // ---------------------------------------------------------------------------------------------
  always @(*) begin
    if (f_sys_past && rst_ni && (FvSysGroups & 1) != 0) begin
      // "The free has taken effect" (spec §6.6): when the ack comes, every SM has accepted the
      // command and, for INVALIDATE / FLUSH, applied it to its MLB (the event is in its log).
      if (rt_ack_o) begin
        RtAckAll_A:             assert (&f_rt_acc);
        RtCommittedBeforeAck_A: assert (f_rt_log_due == '0);
      end
      if (rt_ack_o) begin
        RtAckIdle_A: assert (!rt_busy_q);
      end
      // show_rt's own register: the function of the gate it replaced, in every cycle.
      ShowRtReg_A: assert (show_rt_q == (rt_pend_q & ~f_m_lsu_hold));
    end
  end

// Per SM (macros, because Yosys 0.23 names a procedural assertion by its label alone, so a label
// inside a generate loop collides): each MLU sees the environment its own proof assumes (ReqHold_M,
// IdFree_M of ga_mlu); no LSU response without its request and the runtime's id never reaches the
// LSU; the LSU ids outstanding in the MLU are exactly those outstanding at the LSU port; the runtime
// command is accepted once per SM and answered after it was accepted; an INVALIDATE / FLUSH is in
// the MLB (its event logged) by the time the SM answers it; fairness of the shared ports.
`define GA_FV_SYS_SM(K) \
  if (NumSms > K) begin : gen_fv_sm_``K \
    always @(*) begin \
      if (f_sys_past && rst_ni && (FvSysGroups & 1) != 0) begin \
        if (f_m_hold[K]) begin \
          MluReqHold``K``_A: assert (m_valid[K] && m_pay[K*ReqPayW +: ReqPayW] == f_m_pay_p[K*ReqPayW +: ReqPayW]); \
        end \
        if (m_valid[K]) begin \
          MluIdFree``K``_A: assert (!f_mlu_out[K*FvMluIds + 32'(m_id[K*MIdW +: MIdW])]); \
        end \
        if (rsp_valid_o[K]) begin \
          RspHasReq``K``_A: assert (f_lsu_out[K*FvLsuIds + 32'(rsp_id_o[K*IdW +: IdW])] && !m_rsp_sys[K]); \
        end \
        LsuIdsMatch``K``_A: assert ((f_mlu_out[K*FvMluIds +: FvLsuIds] | f_sl_ids[K*FvMluIds +: FvLsuIds]) == \
                                    f_lsu_out[K*FvLsuIds +: FvLsuIds]); \
        RtPendAcc``K``_A: assert (!rt_busy_q || (rt_pend_q[K] != f_rt_acc[K])); \
        RtSysId``K``_A:   assert ((f_mlu_out[K*FvMluIds + FvLsuIds] || f_sl_ids[K*FvMluIds + FvLsuIds]) == \
                             (rt_busy_q && f_rt_acc[K] && !rt_done_q[K])); \
        if (rt_done_q[K] && rt_busy_q) begin \
          RtDoneAcc``K``_A: assert (f_rt_acc[K]); \
        end \
        if (!rt_busy_q) begin \
          RtIdle``K``_A: assert (rt_pend_q[K] == 1'b0); \
        end \
        if (rt_done_q[K] && rt_busy_q) begin \
          RtLoggedWhenDone``K``_A: assert (!f_rt_log_due[K]); \
        end \
        if (ReqSlice != 0 && m_valid[K] && \
            (m_op[K*3 +: 3] == ga_pkg::OP_LOADMETA || m_op[K*3 +: 3] == ga_pkg::OP_ACCESS)) begin \
          SlLimit``K``_A: assert (cfg_step_limit_o[K*32 +: 32] <= 32'(FvSysLimit) && \
                                  f_lsu_limw[K*FvLsuIds +: FvLsuIds] == '0 && !f_rt_limw[K]); \
        end \
        if (ReqSlice != 0 && m_valid[K] && !m_id[K*MIdW + MIdW-1] && m_op[K*3 +: 3] == ga_pkg::OP_CFG_WRITE && \
            m_cfg_addr[K*3 +: 3] == ga_pkg::CFG_STEP_LIMIT) begin \
          SlLimw``K``_A: assert (f_lsu_limw[K*FvLsuIds + 32'(m_id[K*MIdW +: IdW])]); \
        end \
        if (fv_lim_pend[K]) begin \
          LimPend``K``_A: assert (f_lsu_limw[K*FvLsuIds +: FvLsuIds] != '0 || f_rt_limw[K]); \
        end \
        LimwOut``K``_A: assert ((f_lsu_limw[K*FvLsuIds +: FvLsuIds] & ~f_lsu_out[K*FvLsuIds +: FvLsuIds]) == '0); \
        if (ReqSlice != 0 && m_valid[K] && m_id[K*MIdW + MIdW-1]) begin \
          SlRt``K``_A: assert (m_op[K*3 +: 3] == {1'b1, rt_op_q} && m_md[K*64 +: 64] == rt_md_q && \
                               m_cfg_addr[K*3 +: 3] == rt_cfg_q); \
        end \
        RtSysIdOnly``K``_A: assert (((f_mlu_out[K*FvMluIds +: FvMluIds] | f_sl_ids[K*FvMluIds +: FvMluIds]) >> \
                                     (FvLsuIds + 1)) == '0); \
        if (f_mlu_out[K*FvMluIds + FvLsuIds]) begin \
          RtSysOp``K``_A: assert (fv_mlu_op[(K*FvMluIds + FvLsuIds)*3 +: 3] == {1'b1, rt_op_q}); \
        end \
        if (f_rt_log_due[K]) begin \
          RtLogDue``K``_A: assert (rt_busy_q && f_rt_inv && f_rt_acc[K] && !rt_done_q[K] && \
                                   (!(m_rsp_valid[K] && m_rsp_sys[K]) || \
                                    (ev_valid_o[K] && ev_id_o[K*MIdW + MIdW-1] && \
                                     (ev_kind_o[K*3 +: 3] == ga_pkg::EV_INVAL || \
                                      ev_kind_o[K*3 +: 3] == ga_pkg::EV_FLUSH)))); \
        end \
        end \
      if (f_sys_past && rst_ni && (FvSysGroups & 2) != 0) begin \
        MemFair``K``_A: assert (32'(f_mem_skip[K*4 +: 4]) <= NumSms - 1); \
        OrcFair``K``_A: assert (32'(f_orc_skip[K*4 +: 4]) <= NumSms - 1); \
      end \
    end \
  end
  `GA_FV_SYS_SM(0)
  `GA_FV_SYS_SM(1)
  `GA_FV_SYS_SM(2)
  `GA_FV_SYS_SM(3)
  `GA_FV_SYS_SM(4)
  `GA_FV_SYS_SM(5)
  `GA_FV_SYS_SM(6)
  `GA_FV_SYS_SM(7)

  // ---------------------------------------------------------------------------------------------
  // Group 2: the shared ports
  // ---------------------------------------------------------------------------------------------
  always @(*) begin
    if (f_sys_past && rst_ni && (FvSysGroups & 2) != 0) begin
      if (f_mem_hold) begin
        MemStable_A: assert (mem_req_valid_o &&
                             {mem_req_addr_o, mem_req_len_o, mem_req_sm_o} == f_mem_pay_p);
      end
      if (f_orc_hold) begin
        OrcStable_A: assert (orc_req_valid_o && {orc_req_va_o, orc_req_sm_o} == f_orc_pay_p);
      end
      if (mem_req_valid_o) begin
        MemGrantValid_A: assert (w_mem_valid[mem_req_sm_o]);
      end
    end
  end

  // ---------------------------------------------------------------------------------------------
  // Group 8: covers
  // ---------------------------------------------------------------------------------------------
  always @(*) begin
    if (f_sys_past && rst_ni && (FvSysGroups & 8) != 0) begin
      AckInval_C:   cover (rt_ack_o && rt_op_q == 2'd0);
      TwoWaiting_C: cover (&w_mem_valid && NumSms > 1);
      SkipMax_C:    cover (32'(f_mem_skip[4*(NumSms-1) +: 4]) == NumSms - 1 && NumSms > 1);
      AccSkew_C:    cover (rt_busy_q && rt_acc_o[0] && rt_pend_q[NumSms-1] && !rt_acc_o[NumSms-1]);
      LsuHeldRt_C:  cover (rt_pend_q[0] && f_m_lsu_hold[0]);
    end
  end
