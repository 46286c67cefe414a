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
//      an outstanding id and its op; the response payload is stable while valid && !ready; with
//      RegLookup the lookup register holds its id's op, a small STEP_LIMIT and a legal layout, and
//      the response slot it will write is free (LkOp_A, LkLimit_A, LkLayout_A, LkRspFree_A: the
//      system proof's induction needs them, its LSU being free to leave a response untaken);
//      with ReadForm 2 no FILL from an acceptance to the end of its accept stage (LateNoFill_A:
//      the MLB's copies it reads late are the acceptance's).
//      f_out and f_op leave through the formal-only ports fv_out_o / fv_op_o (ga_system_props.svh)
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
//  64  the lanes of a warp operation (spec §4.2-§4.4; job mlu_lanes at Lanes 2): every lane's
//      result address, which lanes may fail, the check fed with the request's own lanes, size and
//      entry and its verdict passed on whole (each lane's verdict then follows from ga_check's
//      proof, the check_* jobs), and the record of the lowest failing lane, against a ghost copy of
//      the request taken at acceptance
// 128  the same verdicts recomputed here on exact integers (in no job: z3 does not finish)

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
  assign fv_out_o = f_out;                    // the port for the system proof (ga_system_props.svh)
  logic [FvIds*3-1:0] f_op;                   // the op of each outstanding id
  assign fv_op_o = f_op;
  assign fv_lim_pend_o = lk_busy && a_op == ga_pkg::OP_CFG_WRITE && a_cfg_addr == ga_pkg::CFG_STEP_LIMIT;
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
      if (32'(rsp_valid_o && rsp_id_o == IdW'(i)) +
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
        if (ReadForm == 2 && (req_fire || lk_busy)) begin
          // The copies the accept stage reads at the registered location index are those of the
          // acceptance: only a FILL writes them (ga_mlb RamCopy_A), and none comes in between.
          LateNoFill_A: assert (mlb_op != ga_pkg::MLB_FILL);
        end
        if (lk_busy) begin                      // RegLookup 1: the lookup register's op, and
          LkOp_A:  assert (f_op[3*a_id +: 3] == a_op);
          LkRspFree_A: assert (!rsp_valid_o);   // the response slot it will write is free
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
      CfgLegal_A: assert (limit_q != '0 && layout_q <= ((HasIndex != 0) ? ga_pkg::LAYOUT_INDEX : ga_pkg::LAYOUT_TABLE));   // spec §5.1 legal values (per build)
      if (sl_state_q == SL_LM || sl_state_q == SL_HW_ITER || sl_state_q == SL_HW_WALK) begin
        SlLimit_A: assert (sl_q.limit != '0 && sl_q.limit <= FvLimitMax);
      end
      if (pk_state_q == PK_LM || pk_state_q == PK_HW) begin
        PkLimit_A: assert (pk_q.limit != '0 && pk_q.limit <= FvLimitMax);
      end
      if (lk_busy && (a_op == ga_pkg::OP_LOADMETA || a_op == ga_pkg::OP_ACCESS)) begin
        LkLimit_A: assert (a_ctx.limit != '0 && a_ctx.limit <= FvLimitMax);   // RegLookup 1
      end
      if (lk_busy) begin
        LkLayout_A: assert (a_ctx.layout <= ((HasIndex != 0) ? ga_pkg::LAYOUT_INDEX : ga_pkg::LAYOUT_TABLE));
      end
      if (sl_state_q != SL_IDLE) begin
        SlLayout_A: assert (sl_q.layout <= ((HasIndex != 0) ? ga_pkg::LAYOUT_INDEX : ga_pkg::LAYOUT_TABLE));
      end
      if (pk_state_q != PK_EMPTY) begin
        PkLayout_A: assert (pk_q.layout <= ((HasIndex != 0) ? ga_pkg::LAYOUT_INDEX : ga_pkg::LAYOUT_TABLE));
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
  // f_inv_loc: the INVALIDATE's md as the request port gave it (RegLookup 1: the md of the last
  // acceptance, the one the accept stage serves); InvalLoc_A ties the MLB's INVAL port to it.
  logic [63:0] f_inv_loc, f_acc_md;
  always @(posedge clk_i) begin
    if (req_fire) f_acc_md <= req_md_i;
  end
  if (RegLookup == 0) begin : g_fv_inv_acc
    assign f_inv_now   = req_fire && req_op_i == ga_pkg::OP_INVALIDATE;
    assign f_flush_now = req_fire && req_op_i == ga_pkg::OP_FLUSH;
    assign f_inv_loc   = req_md_i;
  end else begin : g_fv_inv_cmd
    assign f_inv_now   = mlb_op == ga_pkg::MLB_INVAL;
    assign f_flush_now = mlb_op == ga_pkg::MLB_FLUSH;
    assign f_inv_loc   = f_acc_md;
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
          FillFresh_A: assert (mlb_fill_loc == f_rd_addr && !f_rd_stale && f_job_reads != '0);
        end
        if (mlb_op == ga_pkg::MLB_INVAL) begin
          // The entry invalidated is the one the INVALIDATE named (FillPort 1: its own port).
          InvalLoc_A: assert (mlb_inv_loc == f_inv_loc);
        end
        if (RegLookup != 0 && lk_busy) begin
          LkMd_A: assert (a_md == f_acc_md);          // strengthening: the lookup register's md
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
  localparam int FvCfgW = 16 + 1 + ga_pkg::LayoutW + 64 + 32;
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
  assign f_rsp_cfg = f_acc_cfg[FvCfgW*rsp_id_o +: FvCfgW];
  assign f_sl_cfg  = f_acc_cfg[FvCfgW*sl_q.id +: FvCfgW];
  assign f_pk_cfg  = f_acc_cfg[FvCfgW*pk_q.id +: FvCfgW];

  // The fields each group compares: SM_ID and POLICY (16), LAYOUT, ROOT and STEP_LIMIT (32).
  localparam logic [FvCfgW-1:0] FvCfgMask = {{17{(FvGroups & 16) != 0}}, {(ga_pkg::LayoutW+96){(FvGroups & 32) != 0}}};
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
          WalkCfgAtAccept_A: assert ({w_layout, w_root, w_limit} == f_w_cfg[ga_pkg::LayoutW+64+32-1:0]);
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
  // Group 64: the lanes of a warp operation (spec §4.2-§4.4; issue 13: ga_mlu with Lanes > 1)
  // ---------------------------------------------------------------------------------------------
  // f_acc_req: each outstanding id's request as accepted (lane addresses, active mask, size, Rb,
  // warp); f_req_of: the same for a request accepted in this very cycle. Checked on every staged
  // response (r_set) of MEMCHECK.G, MEMCHECK.S and ACCESS with status OK, against that request:
  //   LaneStrip_A   every lane's result address is strip(Ra) (G, ACCESS; inactive lanes too)
  //   LaneFaultPend_A only active lanes fail; for G and ACCESS only active lanes with a tag
  //   LaneRecord_A  the record is the lowest failing lane's: its lane number, its address as given
  //                 (S: zero-extended), the warp, the size; all zero when no lane failed
  //   LaneCheckIn_A, LaneSharedIn_A, LaneGIn_A  (G, S) the check works on this request's lanes,
  //                 active mask and size, the shared (b, s) or G2 / G3 from Rb and the lookup's or
  //                 fetch's entry, and the response is its fault mask and record
  //   (group 128) LaneShared_A, LaneG_A: each lane's verdict from spec §4.3 / §4.2 on exact integers
  // Strengthening: the slow-op, park and (RegLookup) lookup registers hold their id's request, and
  // the HWOnly sequencer's pending / failed lanes and record are those of that request.
  localparam int FvReqW = AW + Lanes + 3 + 64 + 16;
  logic [FvIds*FvReqW-1:0] f_acc_req;
  logic [FvReqW-1:0]       f_req_live;
  assign f_req_live = {req_addr_i, req_active_i, req_size_i, req_md_i, req_warp_i};
  always @(posedge clk_i) begin
    for (int i = 0; i < FvIds; i++) begin
      if (req_fire && req_id_i == IdW'(i)) f_acc_req[FvReqW*i +: FvReqW] <= f_req_live;
    end
  end
  logic [FvReqW-1:0] f_rq, f_sl_rq, f_pk_rq, f_a_rq;
  assign f_rq    = (req_fire && req_id_i == r_id) ? f_req_live : f_acc_req[FvReqW*r_id +: FvReqW];
  assign f_sl_rq = {sl_q.addr, sl_q.active, sl_q.size, sl_q.md, sl_q.warp};
  assign f_pk_rq = {pk_q.addr, pk_q.active, pk_q.size, pk_q.md, pk_q.warp};
  assign f_a_rq  = {a_ctx.addr, a_ctx.active, a_ctx.size, a_ctx.md, a_ctx.warp};

  logic [AW-1:0]    f_rq_addr;
  logic [Lanes-1:0] f_rq_active, f_rq_pend;
  logic [2:0]       f_rq_size;
  logic [63:0]      f_rq_md;
  logic [15:0]      f_rq_warp;
  assign {f_rq_addr, f_rq_active, f_rq_size, f_rq_md, f_rq_warp} = f_rq;

  // Lanes of a request with a non-zero tag among the active ones (what ctx_t.pend must be).
  function automatic logic [Lanes-1:0] f_pend_of(input logic [AW-1:0] addr,
                                                 input logic [Lanes-1:0] act);
    logic [Lanes-1:0] r;
    for (int l = 0; l < Lanes; l++) begin
      r[l] = act[l] && addr[64*l + V +: TagBits] != '0;
    end
    f_pend_of = r;
  endfunction
  assign f_rq_pend = f_pend_of(f_rq_addr, f_rq_active);

  // spec §4.2 G1..G7 for one lane, on exact integers (66 bits: no wrap)
  function automatic logic [2:0] f_g_kind(input logic [63:0] p, input logic [2:0] sz,
                                          input logic [1:0] mdst, input logic [63:0] tb,
                                          input logic [63:0] es);
    logic [65:0] a, eb, s;
    a  = {2'b00, 64'(p[V-1:0])};
    eb = {2'b00, 64'(tb[V-1:0])};
    s  = 66'd1 << sz;
    if (p[63:V] == '0)                          f_g_kind = ga_pkg::EXC_NONE;             // G1
    else if (mdst == ga_pkg::MD_NONE)           f_g_kind = ga_pkg::EXC_NO_METADATA;      // G2
    else if (mdst != ga_pkg::MD_OK)             f_g_kind = ga_pkg::EXC_METADATA_FAULT;   // G3
    else if (tb[63:V] == TagFreed)              f_g_kind = ga_pkg::EXC_USE_AFTER_FREE;   // G4
    else if (tb[63:V] != p[63:V])               f_g_kind = ga_pkg::EXC_TAG_MISMATCH;     // G5
    else if (!(eb <= a && a + s <= eb + {2'b00, es} && a + s <= (66'd1 << V)))
                                                f_g_kind = ga_pkg::EXC_OUT_OF_BOUNDS;    // G6
    else                                        f_g_kind = ga_pkg::EXC_NONE;             // G7
  endfunction
  // spec §4.3 for one lane: the access lies inside [b, b + s) and below 2^32, exact integers
  function automatic logic f_s_inb(input logic [63:0] p, input logic [2:0] sz,
                                   input logic [63:0] md);
    logic [33:0] a, b, s, n;
    a = {2'b00, p[31:0]};
    b = {2'b00, md[31:0]};
    n = {2'b00, md[63:32]};
    s = 34'd1 << sz;
    f_s_inb = b <= a && a + s <= b + n && a + s <= 34'h1_0000_0000;
  endfunction

  // The lowest failing lane, and the G verdict of every lane against the check's entry.
  logic [1:0]         f_g_mdst;               // G2 / G3 from Rb, else what the lookup or fetch gave
  logic [4:0]         f_lo_lane;
  logic [63:0]        f_lo_addr;
  logic [Lanes-1:0]   f_g_fault, f_s_fault;
  logic [2:0]         f_lo_gkind;
  assign f_g_mdst = (f_rq_md == 64'd0) ? ga_pkg::MD_NONE :
                    (f_rq_md[3:0] != 4'd0) ? ga_pkg::MD_FAULT : chk_md_state;
  always @(*) begin
    f_lo_lane = '0;
    f_lo_addr = '0;
    for (int l = Lanes - 1; l >= 0; l--) begin
      if (r_fault[l]) begin
        f_lo_lane = 5'(l);
        f_lo_addr = (r_op == ga_pkg::OP_MEMCHECK_S) ? {32'd0, f_rq_addr[64*l +: 32]} :
                                                      f_rq_addr[64*l +: 64];
      end
    end
    f_lo_gkind = '0;
    for (int l = 0; l < Lanes; l++) begin
      f_g_fault[l] = f_rq_active[l] &&
                     f_g_kind(f_rq_addr[64*l +: 64], f_rq_size, f_g_mdst, chk_etb, chk_esize) !=
                     ga_pkg::EXC_NONE;
      f_s_fault[l] = f_rq_active[l] && !f_s_inb(f_rq_addr[64*l +: 64], f_rq_size, f_rq_md);
      if (5'(l) == f_lo_lane) begin
        f_lo_gkind = f_g_kind(f_rq_addr[64*l +: 64], f_rq_size, f_g_mdst, chk_etb, chk_esize);
      end
    end
  end
  logic [AW-1:0] f_rq_strip;
  always @(*) begin
    for (int l = 0; l < Lanes; l++) begin
      f_rq_strip[64*l +: 64] = {{TagBits{1'b0}}, f_rq_addr[64*l +: V]};
    end
  end
  // HWOnly sequencer: the lowest failing lane so far and its address.
  logic [4:0]  f_hw_lo;
  logic [63:0] f_hw_lo_addr;
  always @(*) begin
    f_hw_lo = '0;
    f_hw_lo_addr = '0;
    for (int l = Lanes - 1; l >= 0; l--) begin
      if (hw_fault_q[l]) begin
        f_hw_lo = 5'(l);
        f_hw_lo_addr = sl_q.addr[64*l +: 64];
      end
    end
  end

  logic f_lane_op;
  assign f_lane_op = r_set && r_status == ga_pkg::RSP_OK &&
                     (r_op == ga_pkg::OP_MEMCHECK_G || r_op == ga_pkg::OP_MEMCHECK_S ||
                      r_op == ga_pkg::OP_ACCESS);
  if ((FvGroups & 64) != 0) begin : g_fv_lanes
    always @(*) begin
      if (f_past_valid && rst_ni) begin
        if (f_lane_op) begin
          if (r_op != ga_pkg::OP_MEMCHECK_S) begin
            LaneStrip_A:     assert (r_addr == f_rq_strip);
            LaneFaultPend_A: assert ((r_fault & ~f_rq_pend) == '0);
          end else begin
            LaneFaultPend_A2: assert ((r_fault & ~f_rq_active) == '0);
          end
          if (r_fault != '0) begin
            LaneRecord_A: assert (r_lane == f_lo_lane && r_eaddr == f_lo_addr &&
                                  r_warp == f_rq_warp && r_size == f_rq_size);
          end else begin
            LaneRecordZero_A: assert (r_kind == ga_pkg::EXC_NONE && r_lane == '0 &&
                                      r_eaddr == '0 && r_md == '0 && r_tb == '0 &&
                                      r_esize == '0 && r_size == '0 && r_sm == '0 &&
                                      r_warp == '0);
          end
          if (r_op == ga_pkg::OP_MEMCHECK_S || r_op == ga_pkg::OP_MEMCHECK_G) begin
            // The one check of the cycle works on this request's lanes, size and entry, and the
            // response is its verdict (ga_check's per-lane verdict and lowest-failing-lane record
            // against spec §4.2-§4.4 on exact integers: the check_* jobs).
            LaneCheckIn_A: assert (chk_addr == f_rq_addr && chk_active == f_rq_active &&
                                   chk_size == f_rq_size && !chk_group &&
                                   chk_shared == (r_op == ga_pkg::OP_MEMCHECK_S) &&
                                   r_fault == chk_fault && (r_fault == '0 ||
                                   (r_kind == chk_first_kind && r_eaddr == chk_first_addr)));
          end
          if (r_op == ga_pkg::OP_MEMCHECK_S) begin
            LaneSharedIn_A: assert (chk_etb == {32'd0, f_rq_md[31:0]} &&
                                    chk_esize == {32'd0, f_rq_md[63:32]} && (r_fault == '0 ||
                                    (r_tb == chk_etb && r_esize == chk_esize)));
          end
          if (r_op == ga_pkg::OP_MEMCHECK_G) begin
            // G2 / G3 from the request's Rb; an entry only with MD_OK; the record names Rb.
            LaneGIn_A: assert ((f_rq_md == '0 || f_rq_md[3:0] != 4'd0 ||
                                chk_md_state == ga_pkg::MD_OK || chk_md_state == ga_pkg::MD_FAULT) &&
                               (f_rq_md != '0 || chk_md_state == ga_pkg::MD_NONE) &&
                               (f_rq_md == '0 || f_rq_md[3:0] == 4'd0 ||
                                chk_md_state == ga_pkg::MD_FAULT) &&
                               (r_fault == '0 || (r_md == f_rq_md &&
                                {r_tb, r_esize} == (chk_md_state == ga_pkg::MD_OK ?
                                                    {chk_etb, chk_esize} : 128'd0))));
          end
        end
        if ((FvGroups & 128) != 0 && f_lane_op) begin
          // The same verdicts computed here from the spec's words on exact integers (slow: z3 has
          // the 64-bit arithmetic of both sides; in no job: docs/verification.md §2.4).
          if (r_op == ga_pkg::OP_MEMCHECK_S) begin
            LaneShared_A: assert (r_fault == f_s_fault && (r_fault == '0 ||
                                  r_kind == ga_pkg::EXC_SHARED_OUT_OF_BOUNDS));
          end
          if (r_op == ga_pkg::OP_MEMCHECK_G) begin
            LaneG_A: assert (r_fault == f_g_fault && (r_fault == '0 || r_kind == f_lo_gkind));
          end
        end
        // Strengthening: the registers hold their id's request; the sequencer's lanes are its.
        if (sl_state_q != SL_IDLE) begin
          SlReq_A: assert (f_sl_rq == f_acc_req[FvReqW*sl_q.id +: FvReqW] &&
                           sl_q.pend == f_pend_of(sl_q.addr, sl_q.active));
        end
        if (pk_state_q != PK_EMPTY) begin
          PkReq_A: assert (f_pk_rq == f_acc_req[FvReqW*pk_q.id +: FvReqW] &&
                           pk_q.pend == f_pend_of(pk_q.addr, pk_q.active));
        end
        if (lk_busy) begin
          LkReq_A: assert (f_a_rq == f_acc_req[FvReqW*a_id +: FvReqW] &&
                           a_ctx.pend == f_pend_of(a_ctx.addr, a_ctx.active));
        end
        if (sl_state_q == SL_MG) begin
          SlMgMd_A: assert (sl_q.md != '0 && sl_q.md[3:0] == 4'd0);   // a fetch needs a lookup
        end
        if (pk_state_q == PK_MG) begin
          PkMgMd_A: assert (pk_q.md != '0 && pk_q.md[3:0] == 4'd0);
        end
        if (lk_busy) begin
          LkMdSt_A: assert (a_md_st == (a_md == '0 ? ga_pkg::MD_NONE : a_md[3:0] != 4'd0 ?
                                        ga_pkg::MD_FAULT : ga_pkg::MD_OK));
        end
        if (sl_state_q == SL_HW_ITER || sl_state_q == SL_HW_WALK) begin
          HwLanes_A: assert ((hw_pend_q & ~sl_q.pend) == '0 && (hw_fault_q & ~sl_q.pend) == '0 &&
                             (hw_fault_q & hw_pend_q) == '0);
          if (hw_fault_q != '0) begin
            HwRecord_A: assert (hw_lane_q == f_hw_lo && hw_eaddr_q == f_hw_lo_addr);
          end
          if (sl_state_q == SL_HW_WALK) begin
            HwLead_A: assert (32'(hw_lead_q) < Lanes && hw_pend_q[hw_lead_q]);
          end
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
