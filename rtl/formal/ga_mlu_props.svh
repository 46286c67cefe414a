// Copyright GPUArmor contributors.
//
// ga_mlu_props.svh -- formal properties of ga_mlu (spec §6.5, §8; microarchitecture §1; issue 6),
// included at the bottom of rtl/ga_mlu.sv under `ifdef FORMAL. The proof's top is ga_mlu itself
// (define GA_FV_MLU_TOP); its ga_mlb and ga_walker bring their own property files, in which the
// port rules (`GA_MLB_PORT, `GA_WALKER_PORT) are now assertions: ga_mlu must keep them.
// Names end in _A (assert), _M (assume), _C (cover).
//
// Environment (GA_FV_MLU_TOP), the LSU's side of the contract and the fairness assumptions:
//   ReqHold_M    the request payload is stable and valid stays high while valid && !ready
//   IdFree_M     a request's id is not outstanding (no response pending for it)
//   ReqSize_M    access sizes are legal (spec §4.1: 5..7 reserved)
//   LimitSmall_M LOADMETA and ACCESS are issued only while STEP_LIMIT <= FvLimitMax (the small
//                symbolic step limit of the walker proof; CFG_WRITE may set any value)
//   RspReady_M   rsp_ready_i is high at the latest in the (FvRspRdy+1)-th cycle of a response
//   memory and oracle: ga_walker_props.svh (GA_FV_WALKER_ENV): bounded ready and latency
//
// Properties (groups, -DGA_FV_MLU_GROUPS=mask, default 1):
//   1  no response without a request, exactly one response per request (safety): every outstanding
//      id is held in exactly one place (response, slow-op, park or, with RegLookup, lookup register); a response carries
//      an outstanding id and its op; the response payload is stable while valid && !ready
//   2  the MLB race rule of spec §6.5: a fill commits exactly when no INVAL/FLUSH committed since
//      the miss that started its read (FILL vs FILL_DROP); no fill of location L whose read request
//      was issued before (or at) an INVAL(L) or FLUSH; every MLB command is logged, and only those
//   4  liveness in bounded-response form: every accepted request is answered within FvLatMax
//      cycles (Answered_A). Unbounded by k-induction (job mlu_live, k = 10) when the walker's
//      termination accounting is asserted in context (-DGA_FV_WALKER_GROUPS=3: BusyBound_A and
//      the per-state Term*_A of ga_walker_props.svh) -- without it the induction trace keeps the
//      walker busy forever from an unreachable state; with it no further strengthening is needed
//   8  covers
//  16  configuration captured at acceptance (spec §8): a ghost copy per id of SM_ID, POLICY,
//      LAYOUT, ROOT and STEP_LIMIT taken when the request is accepted; every faulting response's
//      record carries that SM_ID (RecSmAtAccept_A), and the halt that a response commits is decided
//      by that POLICY (HaltByAcceptPolicy_A; the halt changes only with a response or CLEAR_HALT:
//      HaltOnlyByRsp_A, ClearHalt_A), whatever CFG_WRITEs were accepted in between; strengthened by
//      the same equalities for the slow-op, park and (RegLookup) lookup registers. Needs group 1 in
//      the same job (ids are unique).
//  32  the same for walks: every walk starts with the LAYOUT, ROOT and STEP_LIMIT of its owner's
//      acceptance (WalkCfgAtAccept_A), with the same strengthening for those fields

`ifndef GA_FV_MLU_GROUPS
`define GA_FV_MLU_GROUPS 1
`endif
`ifndef GA_FV_RSP_RDY
`define GA_FV_RSP_RDY 1
`endif
`ifndef GA_FV_LAT_MAX
`define GA_FV_LAT_MAX 40
`endif
`ifndef GA_FV_LIMIT_MAX
`define GA_FV_LIMIT_MAX 3
`endif

  localparam int FvGroups   = `GA_FV_MLU_GROUPS;
  localparam int FvRspRdy   = `GA_FV_RSP_RDY;
  localparam int FvLatMax   = `GA_FV_LAT_MAX;
  localparam int FvLimitMax = `GA_FV_LIMIT_MAX;
  localparam int FvIds      = 1 << IdW;

  logic f_past_valid = 1'b0;
  always @(posedge clk_i) f_past_valid <= 1'b1;

  // ---------------------------------------------------------------------------------------------
  // Environment
  // ---------------------------------------------------------------------------------------------
  logic [FvIds-1:0] f_out;                    // ids with a request accepted and not yet answered
  logic [FvIds*3-1:0] f_op;                   // the op of each outstanding id
  logic             f_rsp_fire;
  assign f_rsp_fire = rsp_valid_o && rsp_ready_i;

  localparam int PayW = 3 + IdW + 16 + Lanes + 64*Lanes + 3 + 64 + 3;
  logic [PayW-1:0] f_pay, f_pay_p;
  logic            f_req_hold;
  logic [3:0]      f_rsp_wait;
  assign f_pay = {req_op_i, req_id_i, req_warp_i, req_active_i, req_addr_i, req_size_i, req_md_i,
                  req_cfg_addr_i};

  always @(posedge clk_i) begin
    if (!rst_ni) begin
      f_out      <= '0;
      f_req_hold <= 1'b0;
      f_rsp_wait <= '0;
    end else begin
      for (int i = 0; i < FvIds; i++) begin
        if (f_rsp_fire && rsp_id_o == IdW'(i)) f_out[i] <= 1'b0;
        if (req_fire && req_id_i == IdW'(i)) begin
          f_out[i]       <= 1'b1;
          f_op[3*i +: 3] <= req_op_i;
        end
      end
      f_req_hold <= req_valid_i && !req_ready_o;
      f_rsp_wait <= (rsp_valid_o && !rsp_ready_i) ? f_rsp_wait + 1'b1 : '0;
    end
    f_pay_p <= f_pay;
  end

`ifdef GA_FV_MLU_TOP
  always @(*) begin
    if (!f_past_valid) begin
      ResetFirst_M: assume (!rst_ni);
    end else begin
      ResetOnce_M:  assume (rst_ni);
    end
    if (f_past_valid && rst_ni) begin
      if (f_req_hold) begin
        ReqHold_M:  assume (req_valid_i && f_pay == f_pay_p);
      end
      if (req_valid_i) begin
        IdFree_M:   assume (!f_out[req_id_i]);
        if (req_op_i == ga_pkg::OP_MEMCHECK_G || req_op_i == ga_pkg::OP_MEMCHECK_S ||
            req_op_i == ga_pkg::OP_ACCESS) begin
          ReqSize_M: assume (req_size_i <= 3'd4);
        end
        if (req_op_i == ga_pkg::OP_LOADMETA || req_op_i == ga_pkg::OP_ACCESS) begin
          LimitSmall_M: assume (limit_q <= FvLimitMax);
        end
      end
      if (rsp_valid_o && 32'(f_rsp_wait) >= FvRspRdy) begin
        RspReady_M: assume (rsp_ready_i);
      end
    end
  end
`endif

  // ---------------------------------------------------------------------------------------------
  // Group 1: every request gets exactly one response
  // ---------------------------------------------------------------------------------------------
  logic f_held_ok;                            // each id is held once if outstanding, else nowhere
  always @(*) begin
    f_held_ok = 1'b1;
    for (int i = 0; i < FvIds; i++) begin
      if (32'(rsp_valid_q && rsp_id_q == IdW'(i)) +
          32'(sl_state_q != SL_IDLE && sl_q.id == IdW'(i)) +
          32'(pk_state_q != PK_EMPTY && pk_q.id == IdW'(i)) +
          32'(lk_busy && a_id == IdW'(i)) != 32'(f_out[i])) begin   // RegLookup's lookup stage
        f_held_ok = 1'b0;
      end
    end
  end

  logic             f_rsp_hold;
  logic [IdW+3+2+64+64*Lanes+Lanes+3+64*4+3+16+16+5-1:0] f_rsp_pay, f_rsp_pay_p;
  assign f_rsp_pay = {rsp_id_o, rsp_op_o, rsp_status_o, rsp_rd_o, rsp_addr_o, rsp_fault_o,
                      rsp_exc_kind_o, rsp_exc_addr_o, rsp_exc_md_o, rsp_exc_tb_o,
                      rsp_exc_esize_o, rsp_exc_size_o, rsp_exc_sm_o, rsp_exc_warp_o,
                      rsp_exc_lane_o};
  always @(posedge clk_i) begin
    f_rsp_hold  <= rst_ni && rsp_valid_o && !rsp_ready_i;
    f_rsp_pay_p <= f_rsp_pay;
  end

  always @(*) begin
    if (f_past_valid && rst_ni) begin
      // Structure the other properties rest on (microarchitecture §3.4).
      SlLegal_A:      assert (sl_state_q <= SL_HW_WALK);
      ParkBehind_A:   assert (pk_state_q == PK_EMPTY || sl_state_q != SL_IDLE);
      WalkerOwned_A:  assert ((sl_state_q == SL_IDLE || sl_state_q == SL_HW_ITER) == w_idle);
      if ((FvGroups & 1) != 0) begin
        // No response without a request; the response is for that request's op.
        if (rsp_valid_o) begin
          RspHasReq_A: assert (f_out[rsp_id_o] && rsp_op_o == f_op[3*rsp_id_o +: 3]);
        end
        // Conservation: an accepted request is never lost or duplicated before its response.
        HeldOnce_A:    assert (f_held_ok);
        if (f_rsp_hold) begin
          RspStable_A: assert (rsp_valid_o && f_rsp_pay == f_rsp_pay_p);
        end
        if (sl_state_q != SL_IDLE) begin
          SlOp_A:  assert (f_op[3*sl_q.id +: 3] ==
                           (sl_state_q == SL_LM ? ga_pkg::OP_LOADMETA :
                            sl_state_q == SL_MG ? ga_pkg::OP_MEMCHECK_G : ga_pkg::OP_ACCESS));
        end
        if (pk_state_q != PK_EMPTY) begin
          PkOp_A:  assert (f_op[3*pk_q.id +: 3] ==
                           (pk_state_q == PK_LM ? ga_pkg::OP_LOADMETA :
                            pk_state_q == PK_MG ? ga_pkg::OP_MEMCHECK_G : ga_pkg::OP_ACCESS));
        end
      end
    end
  end

  // Walks start with a small limit: the accepted copies keep it (strengthening for LimitSmall_P).
  always @(*) begin
    if (f_past_valid && rst_ni) begin
      CfgLegal_A: assert (limit_q != '0 && layout_q != 2'd3);   // spec §5.1 legal values
      if (sl_state_q == SL_LM || sl_state_q == SL_HW_ITER || sl_state_q == SL_HW_WALK) begin
        SlLimit_A: assert (sl_q.limit != '0 && sl_q.limit <= FvLimitMax);
      end
      if (pk_state_q == PK_LM || pk_state_q == PK_HW) begin
        PkLimit_A: assert (pk_q.limit != '0 && pk_q.limit <= FvLimitMax);
      end
      if (sl_state_q != SL_IDLE) begin
        SlLayout_A: assert (sl_q.layout != 2'd3);
      end
      if (pk_state_q != PK_EMPTY) begin
        PkLayout_A: assert (pk_q.layout != 2'd3);
      end
    end
  end

  // ---------------------------------------------------------------------------------------------
  // Group 2: spec §6.5, fills racing invalidations
  // ---------------------------------------------------------------------------------------------
  // (a) The exact rule, per id: a miss commit clears its id's bit, every INVAL/FLUSH commit sets all
  //     bits; a due fill is FILL when its id's bit is clear and FILL_DROP when it is set.
  logic [FvIds-1:0] f_dirty;
  logic             f_ev_miss, f_ev_inv;
  assign f_ev_miss = e_set && (e_kind == ga_pkg::EV_RANGE_MISS || e_kind == ga_pkg::EV_LOC_MISS);
  assign f_ev_inv  = e_set && (e_kind == ga_pkg::EV_INVAL || e_kind == ga_pkg::EV_FLUSH);
  always @(posedge clk_i) begin
    if (!rst_ni) begin
      f_dirty <= '0;
    end else if (f_ev_inv) begin
      f_dirty <= {FvIds{1'b1}};
    end else if (f_ev_miss) begin
      f_dirty[e_id] <= 1'b0;
    end
  end

  // (b) End to end, spec words: "after INVAL(L) commits, no fill of an entry read before it
  //     enters the MLB". f_rd_addr: the last read request; f_rd_stale: an INVAL of that address
  //     or a FLUSH committed at or after the edge that transferred it.
  logic [63:0] f_rd_addr;
  logic        f_rd_stale, f_inv_now, f_flush_now;
  logic [7:0]  f_job_reads;                   // reads of the walker's current job
  // The edge at which an INVAL / FLUSH commits: its acceptance with RegLookup = 0 (served even when
  // halted); with RegLookup = 1 the MLB command of the accept stage, one cycle after the acceptance
  // (microarchitecture §3.4). A read issued in between is older than the commit, and its fill is
  // dropped as well (the dirty bit is set at the commit), so the property stays the spec's §6.5.
  logic [63:0] f_inv_loc;
  if (RegLookup == 0) begin : g_fv_inv_acc
    assign f_inv_now   = req_fire && req_op_i == ga_pkg::OP_INVALIDATE;
    assign f_flush_now = req_fire && req_op_i == ga_pkg::OP_FLUSH;
    assign f_inv_loc   = req_md_i;
  end else begin : g_fv_inv_cmd
    assign f_inv_now   = mlb_op == ga_pkg::MLB_INVAL;
    assign f_flush_now = mlb_op == ga_pkg::MLB_FLUSH;
    assign f_inv_loc   = mlb_loc;
  end
  always @(posedge clk_i) begin
    if (!rst_ni) begin
      f_rd_addr   <= '0;
      f_rd_stale  <= 1'b0;
      f_job_reads <= '0;
    end else begin
      if (mem_req_valid_o && mem_req_ready_i) begin
        f_rd_addr  <= mem_req_addr_o;
        f_rd_stale <= f_flush_now || (f_inv_now && f_inv_loc == mem_req_addr_o);
      end else if (f_flush_now || (f_inv_now && f_inv_loc == f_rd_addr)) begin
        f_rd_stale <= 1'b1;
      end
      if (w_start) begin
        f_job_reads <= '0;
      end else if (mem_req_valid_o && mem_req_ready_i && f_job_reads != 8'hff) begin
        f_job_reads <= f_job_reads + 1'b1;
      end
    end
  end

  logic f_slow_walks;                         // the slow op owns a walk or fetch in flight
  assign f_slow_walks = sl_state_q == SL_LM || sl_state_q == SL_MG || sl_state_q == SL_HW_WALK;

  if ((FvGroups & 2) != 0) begin : g_fv_race
    always @(*) begin
      if (f_past_valid && rst_ni) begin
        if (e_set && e_kind == ga_pkg::EV_FILL) begin
          FillWhenClean_A: assert (!f_dirty[e_id]);
        end
        if (e_set && e_kind == ga_pkg::EV_FILL_DROP) begin
          DropWhenDirty_A: assert (f_dirty[e_id]);
        end
        if (mlb_op == ga_pkg::MLB_FILL) begin
          // The filled entry is the one the last read returned, read after every INVAL of its
          // location and every FLUSH.
          FillFresh_A: assert (mlb_loc == f_rd_addr && !f_rd_stale && f_job_reads != '0);
        end
        // Every MLB command is in the log with its kind and slot, and every logged change is one.
        LogMatchesMlb_A: assert (
          (mlb_op == ga_pkg::MLB_NONE  && (!e_set || e_kind == ga_pkg::EV_RANGE_MISS ||
                                           e_kind == ga_pkg::EV_LOC_MISS ||
                                           e_kind == ga_pkg::EV_FILL_DROP)) ||
          (mlb_op == ga_pkg::MLB_TOUCH && e_set && (e_kind == ga_pkg::EV_RANGE_HIT ||
                                           e_kind == ga_pkg::EV_LOC_HIT) &&
                                           e_slot == 6'(mlb_idx)) ||
          (mlb_op == ga_pkg::MLB_FILL  && e_set && e_kind == ga_pkg::EV_FILL &&
                                           e_slot == 6'(fill_idx)) ||
          (mlb_op == ga_pkg::MLB_INVAL && e_set && e_kind == ga_pkg::EV_INVAL) ||
          (mlb_op == ga_pkg::MLB_FLUSH && e_set && e_kind == ga_pkg::EV_FLUSH));
        // Strengthening: the dirty bits of the slow-op and park registers are the per-id ones;
        // a stale last read of the slow op's own job has set its dirty bit; the walker's result
        // location is its last read.
        if (f_slow_walks) begin
          SlDirty_A: assert (sl_dirty_q == f_dirty[sl_q.id]);
          if (f_job_reads != '0 && f_rd_stale) begin
            SlStaleDirty_A: assert (sl_dirty_q);
          end
        end
        if (pk_state_q == PK_LM || pk_state_q == PK_MG) begin
          PkDirty_A: assert (pk_dirty_q == f_dirty[pk_q.id]);
        end
        if (mem_rsp_ready_o) begin
          ReadInFlight_A: assert (f_rd_addr == mem_req_addr_o && f_job_reads != '0);
        end
        if (w_done && (w_status == ga_pkg::WALK_FOUND || w_status == ga_pkg::WALK_RANGE_ONLY)) begin
          ResultIsLastRead_A: assert (w_loc == f_rd_addr && f_job_reads != '0);
        end
      end
    end
  end

  // ---------------------------------------------------------------------------------------------
  // Group 4: liveness, bounded-response form -- every accepted request is answered within
  // FvLatMax cycles (f_age: cycles since acceptance per outstanding id; see the header for the proof)
  // ---------------------------------------------------------------------------------------------
  logic [FvIds*8-1:0] f_age;                  // cycles each outstanding id has waited
  always @(posedge clk_i) begin
    if (!rst_ni) begin
      f_age <= '0;
    end else begin
      for (int i = 0; i < FvIds; i++) begin
        if (req_fire && req_id_i == IdW'(i)) begin
          f_age[8*i +: 8] <= '0;
        end else if (f_out[i] && f_age[8*i +: 8] != 8'hff) begin
          f_age[8*i +: 8] <= f_age[8*i +: 8] + 1'b1;
        end
      end
    end
  end
  logic f_age_ok;
  always @(*) begin
    f_age_ok = 1'b1;
    for (int i = 0; i < FvIds; i++) begin
      if (f_out[i] && 32'(f_age[8*i +: 8]) > FvLatMax) f_age_ok = 1'b0;
    end
  end
  if ((FvGroups & 4) != 0) begin : g_fv_live
    always @(*) begin
      if (f_past_valid && rst_ni) begin
        Answered_A: assert (f_age_ok);
      end
    end
  end

  // ---------------------------------------------------------------------------------------------
  // Group 16: configuration captured at acceptance (spec §8)
  // ---------------------------------------------------------------------------------------------
  // f_acc_cfg: the registers when each outstanding id was accepted. f_cfg_of gives the same for an
  // id accepted in this very cycle (RegLookup 0 answers a hit, and starts a walk, in it).
  localparam int FvCfgW = 16 + 1 + 2 + 64 + 32;
  logic [FvIds*FvCfgW-1:0] f_acc_cfg;
  logic [FvCfgW-1:0]       f_cfg_live;
  assign f_cfg_live = {sm_q, policy_q, layout_q, root_q, limit_q};
  always @(posedge clk_i) begin
    for (int i = 0; i < FvIds; i++) begin
      if (req_fire && req_id_i == IdW'(i)) f_acc_cfg[FvCfgW*i +: FvCfgW] <= f_cfg_live;
    end
  end
  function automatic logic [FvCfgW-1:0] f_cfg_of(input logic [IdW-1:0] id, input logic fire,
                                                  input logic [IdW-1:0] fid,
                                                  input logic [FvCfgW-1:0] live,
                                                  input logic [FvIds*FvCfgW-1:0] acc);
    f_cfg_of = (fire && fid == id) ? live : acc[FvCfgW*id +: FvCfgW];
  endfunction
  // What the context registers hold of the configuration, in the same bit order.
  logic [FvCfgW-1:0] f_sl_ctx, f_pk_ctx, f_a_ctx;
  assign f_sl_ctx = {sl_q.sm, sl_q.policy, sl_q.layout, sl_q.root, sl_q.limit};
  assign f_pk_ctx = {pk_q.sm, pk_q.policy, pk_q.layout, pk_q.root, pk_q.limit};
  assign f_a_ctx  = {a_ctx.sm, a_ctx.policy, a_ctx.layout, a_ctx.root, a_ctx.limit};

  logic [FvCfgW-1:0] f_r_cfg, f_w_cfg, f_rsp_cfg, f_sl_cfg, f_pk_cfg;
  assign f_r_cfg   = f_cfg_of(r_id, req_fire, req_id_i, f_cfg_live, f_acc_cfg);   // staged response
  assign f_w_cfg   = f_cfg_of(sl_d.id, req_fire, req_id_i, f_cfg_live, f_acc_cfg); // walk's owner
  assign f_rsp_cfg = f_acc_cfg[FvCfgW*rsp_id_q +: FvCfgW];
  assign f_sl_cfg  = f_acc_cfg[FvCfgW*sl_q.id +: FvCfgW];
  assign f_pk_cfg  = f_acc_cfg[FvCfgW*pk_q.id +: FvCfgW];

  // The fields each group compares: SM_ID and POLICY (16), LAYOUT, ROOT and STEP_LIMIT (32).
  localparam logic [FvCfgW-1:0] FvCfgMask = {{17{(FvGroups & 16) != 0}}, {98{(FvGroups & 32) != 0}}};
  if ((FvGroups & 48) != 0) begin : g_fv_cfg
    always @(*) begin
      if (f_past_valid && rst_ni) begin
        // A faulting response's record carries the SM_ID of its request's acceptance.
        if ((FvGroups & 16) != 0 && rsp_valid_o && rsp_status_o == ga_pkg::RSP_OK && rsp_fault_o != '0) begin
          RecSmAtAccept_A: assert (rsp_exc_sm_o == f_rsp_cfg[FvCfgW-1 -: 16]);
        end
        // The halt: set by a faulting response whose request was accepted under TERMINATE, cleared
        // by CLEAR_HALT, otherwise held (spec §4.5, §8).
        if ((FvGroups & 16) != 0) begin
          if (r_set && a_fire && a_op == ga_pkg::OP_CLEAR_HALT) begin
            ClearHalt_A: assert (!halted_d);
          end else if (r_set && r_status == ga_pkg::RSP_OK && r_fault != '0) begin
            HaltByAcceptPolicy_A: assert (halted_d == (halted_q ||
                                          f_r_cfg[FvCfgW-17] == ga_pkg::POLICY_TERMINATE));
          end else begin
            HaltOnlyByRsp_A: assert (halted_d == halted_q);
          end
        end
        // Every walk starts with the LAYOUT, ROOT and STEP_LIMIT of its owner's acceptance.
        if ((FvGroups & 32) != 0 && w_start && w_kind == ga_pkg::WK_WALK) begin
          WalkCfgAtAccept_A: assert ({w_layout, w_root, w_limit} == f_w_cfg[2+64+32-1:0]);
        end
        // Strengthening: the copies the unit keeps are the ghost's.
        if (sl_state_q != SL_IDLE) begin
          SlCfg_A: assert (((f_sl_ctx ^ f_sl_cfg) & FvCfgMask) == '0);
        end
        if (pk_state_q != PK_EMPTY) begin
          PkCfg_A: assert (((f_pk_ctx ^ f_pk_cfg) & FvCfgMask) == '0);
        end
        if (lk_busy) begin
          LkCfg_A: assert (((f_a_ctx ^ f_acc_cfg[FvCfgW*a_id +: FvCfgW]) & FvCfgMask) == '0);
        end
      end
    end
  end

  // ---------------------------------------------------------------------------------------------
  // Group 8: covers
  // ---------------------------------------------------------------------------------------------
  logic [7:0] f_max_age;
  always @(*) begin
    f_max_age = '0;
    for (int i = 0; i < FvIds; i++) begin
      if (f_rsp_fire && rsp_id_o == IdW'(i) && f_age[8*i +: 8] > f_max_age) begin
        f_max_age = f_age[8*i +: 8];
      end
    end
  end
  if ((FvGroups & 8) != 0) begin : g_fv_cover
    always @(*) begin
      if (f_past_valid && rst_ni) begin
        HitUnderMiss_C:  cover (f_rsp_fire && rsp_op_o == ga_pkg::OP_LOADMETA && rsp_rd_o != '0 &&
                                sl_state_q == SL_LM);
        Parked_C:        cover (pk_state_q == PK_LM && sl_state_q == SL_MG);
        FillDropRace_C:  cover (e_set && e_kind == ga_pkg::EV_FILL_DROP);
        Fill_C:          cover (e_set && e_kind == ga_pkg::EV_FILL && sl_state_q == SL_LM);
        HwWalkFill_C:    cover (e_set && e_kind == ga_pkg::EV_FILL && sl_state_q == SL_HW_WALK);
        McgFetchFill_C:  cover (e_set && e_kind == ga_pkg::EV_FILL && sl_state_q == SL_MG);
        AllIdsOut_C:     cover (f_out == {FvIds{1'b1}} && pk_state_q != PK_EMPTY);
        Halted_C:        cover (f_rsp_fire && rsp_status_o == ga_pkg::RSP_HALTED);
        SlowAnswer_C:    cover (f_rsp_fire && 32'(f_max_age) >= 6);
      end
    end
  end
