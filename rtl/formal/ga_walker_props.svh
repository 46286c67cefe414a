// Copyright GPUArmor contributors.
//
// ga_walker_props.svh -- formal properties of ga_walker (spec §3.3, §4.2; issue 6), included at the
// bottom of rtl/ga_walker.sv under `ifdef FORMAL so that they see the FSM's registers.
// Names end in _A (assert), _M (assume), _C (cover); _P marks a port rule of the start/ack interface
// (`GA_WALKER_PORT: assumed when ga_walker is the top of the proof, define GA_FV_WALKER_TOP;
// asserted inside ga_mlu's proof, where ga_mlu must keep it).
//
// Environment (define GA_FV_WALKER_ENV: the walker's own proof and ga_mlu's proof) -- the fairness
// assumptions under which termination is proved. The memory and the oracle are otherwise free:
// read data, error flags, pointers (cyclic lists, nodes that point to themselves, misaligned or
// null pointers), INDEX node headers, refs and keys, oracle answers and indices are arbitrary in
// every step.
//   MemRdy_M  mem_req_ready_i is high at the latest in the (FvMemRdy+1)-th cycle of a request
//   MemRsp_M  one response beat per 16- or 32-byte read and four per 128-byte read (microarchitecture
//             §1.3), only while the read has beats to come; an error may come on any beat
//   MemLat_M  every beat comes at the latest FvMemLat cycles after the request transfer or the
//             previous beat
//   OrcRdy_M, OrcRsp_M, OrcLat_M: the same for the oracle (the answer pulse may come in the
//             transfer cycle or up to FvOrcLat cycles later)
//   LimitSmall_P  a walk starts with 1 <= STEP_LIMIT <= FvLimitMax (a small symbolic limit)
//
// Properties (groups, -DGA_FV_WALKER_GROUPS=mask, default 1):
//   1  handshake: one read outstanding, mem_rsp_ready_o exactly while it is, request payloads stable
//      while valid && !ready, reads aligned, result stable in DONE until ack
//   2  termination: a job spends at most reads * (FvMemRdy + 1 + beats * FvMemLat) + oracle cycles
//      busy, reads = STEP_LIMIT for LIST/BST and INDEX walks and 1 for TABLE and FETCH, beats = 4
//      for INDEX walks (a node read) and 1 otherwise; a walk reads at most STEP_LIMIT times (INDEX:
//      nodes and the slot together); a STEP_LIMIT end read exactly STEP_LIMIT; the walker's beat
//      count agrees with the beats the memory delivered
//   4  results: reads are exactly spec §3.3's sequence (INDEX: the first read is ROOT, 128 bytes,
//      the first after a miss in the live index is the freed root ROOT - 128, 128 bytes, node
//      reads are 128 bytes and 128-byte aligned, the slot read 16 bytes; which child or slot is
//      group 32's); after an INDEX slot read the walker's next action is spec §3.3 step 9's with
//      the two-phase rule (*None*); NOT_FOUND of an INDEX walk only after a miss in the freed
//      index; FOUND / RANGE_ONLY are justified by the last read
//      (not an error on any beat, its entry, its address, 16 bytes for INDEX: the slot; M1..M3 on
//      exact integers)
//   8  covers
//   16 covers of INDEX walks (deeper: a node read is four beats; job walker_cover_ix, formal-full)
//   32 INDEX key selection: after the last beat of a node read the walker's next action is spec
//      §3.3's, computed from the whole node (a ghost copy taken beat by beat) and the walk's phase:
//      the next read at ROOT + 16 ref[j*] (128 bytes inner, 16 the slot), at the freed root after
//      an empty node in the live phase, or the end with the spec's status; with strengthening
//      invariants tying the partial decode to the ghost (job walker_ix_keys, CI; needs group 1)
// The INDEX walk's phase (spec §3.3 *None*: live from ROOT, freed from ROOT - 128 after a miss) is
// a ghost of the spec model (f_ix_frd), computed from what the memory returned, never from the
// walker's phase register; groups 4 and 32 tie that register to it.

`ifdef GA_FV_WALKER_TOP
`define GA_WALKER_PORT assume
`else
`define GA_WALKER_PORT assert
`endif
`ifndef GA_FV_WALKER_GROUPS
`define GA_FV_WALKER_GROUPS 1
`endif
`ifndef GA_FV_LIMIT_MAX
`define GA_FV_LIMIT_MAX 3
`endif
`ifndef GA_FV_MEM_RDY
`define GA_FV_MEM_RDY 1
`endif
`ifndef GA_FV_MEM_LAT
`define GA_FV_MEM_LAT 2
`endif
`ifndef GA_FV_ORC_RDY
`define GA_FV_ORC_RDY 1
`endif
`ifndef GA_FV_ORC_LAT
`define GA_FV_ORC_LAT 1
`endif

  localparam int FvGroups   = `GA_FV_WALKER_GROUPS;
  localparam int FvLimitMax = `GA_FV_LIMIT_MAX;
  localparam int FvMemRdy   = `GA_FV_MEM_RDY;    // most consecutive cycles of valid && !ready
  localparam int FvMemLat   = `GA_FV_MEM_LAT;    // most cycles from request transfer to response, >= 1
  localparam int FvOrcRdy   = `GA_FV_ORC_RDY;
  localparam int FvOrcLat   = `GA_FV_ORC_LAT;    // >= 0
  localparam int FvNode     = FvMemRdy + 1 + FvMemLat;   // most busy cycles per one-beat read
  localparam int FvNode4    = FvMemRdy + 1 + IxBeats * FvMemLat;   // per 128-byte INDEX node read
  localparam int FvOrc      = FvOrcRdy + 1 + FvOrcLat;   // most busy cycles of the oracle step
  localparam logic [63:0] FvVaMask = (64'd1 << V) - 64'd1;

  logic f_past_valid = 1'b0;
  always @(posedge clk_i) f_past_valid <= 1'b1;

`ifdef GA_FV_WALKER_TOP
  always @(*) begin
    if (!f_past_valid) begin
      ResetFirst_M: assume (!rst_ni);
    end else begin
      ResetOnce_M:  assume (rst_ni);
    end
  end
`endif

  // ---------------------------------------------------------------------------------------------
  // Port rules of the start / ack interface (microarchitecture §3.3)
  // ---------------------------------------------------------------------------------------------
  logic f_start;                              // a job starts at this edge
  assign f_start = rst_ni && start_i && (state_q == W_IDLE || (state_q == W_DONE && ack_i));
  always @(*) begin
    if (f_past_valid && rst_ni) begin
      StartWhenFree_P: `GA_WALKER_PORT (!start_i || state_q == W_IDLE ||
                                        (state_q == W_DONE && ack_i));
      AckWhenDone_P:   `GA_WALKER_PORT (!ack_i || state_q == W_DONE);
      if (start_i && start_kind_i == ga_pkg::WK_WALK) begin
        LimitSmall_P:  `GA_WALKER_PORT (start_limit_i != '0 && start_limit_i <= FvLimitMax);
      end
    end
  end

  // ---------------------------------------------------------------------------------------------
  // Environment model: outstanding read / oracle request and their waiting times
  // ---------------------------------------------------------------------------------------------
  logic       f_mem_out, f_orc_out;           // a read / an oracle request is outstanding
  logic [3:0] f_mem_wait, f_mem_lat, f_orc_wait, f_orc_lat;
  logic [2:0] f_beats_left;                   // beats still to come of the outstanding read
  logic [2:0] f_req_beats;                    // beats of the read requested now
  assign f_req_beats = (mem_req_len_o == ga_pkg::MEM_LEN_128) ? 3'(IxBeats) : 3'd1;
  assign f_mem_out   = (f_beats_left != 3'd0);
  logic       f_mem_req_fire, f_mem_rsp_fire, f_orc_req_fire;
  assign f_mem_req_fire = mem_req_valid_o && mem_req_ready_i;
  assign f_mem_rsp_fire = mem_rsp_valid_i && mem_rsp_ready_o;
  assign f_orc_req_fire = orc_req_valid_o && orc_req_ready_i;

  always @(posedge clk_i) begin
    if (!rst_ni) begin
      f_beats_left <= '0;  f_mem_wait <= '0;  f_mem_lat <= '0;
      f_orc_out <= 1'b0;  f_orc_wait <= '0;  f_orc_lat <= '0;
    end else begin
      f_beats_left <= f_mem_req_fire ? f_req_beats
                    : (f_mem_rsp_fire && f_mem_out) ? f_beats_left - 3'd1 : f_beats_left;
      f_mem_wait <= (mem_req_valid_o && !mem_req_ready_i) ? f_mem_wait + 1'b1 : '0;
      f_mem_lat  <= (f_mem_out && !f_mem_rsp_fire) ? f_mem_lat + 1'b1 : '0;
      f_orc_out  <= (f_orc_req_fire && !orc_rsp_valid_i) || (f_orc_out && !orc_rsp_valid_i);
      f_orc_wait <= (orc_req_valid_o && !orc_req_ready_i) ? f_orc_wait + 1'b1 : '0;
      f_orc_lat  <= (f_orc_out && !orc_rsp_valid_i) ? f_orc_lat + 1'b1 : '0;
    end
  end

`ifdef GA_FV_WALKER_ENV
  always @(*) begin
    if (f_past_valid && rst_ni) begin
      if (mem_req_valid_o && 32'(f_mem_wait) >= FvMemRdy) begin
        MemRdy_M: assume (mem_req_ready_i);
      end
      MemRsp_M: assume (!mem_rsp_valid_i || f_mem_out);
      if (f_mem_out && 32'(f_mem_lat) >= FvMemLat - 1) begin
        MemLat_M: assume (mem_rsp_valid_i);
      end
      if (orc_req_valid_o && 32'(f_orc_wait) >= FvOrcRdy) begin
        OrcRdy_M: assume (orc_req_ready_i);
      end
      OrcRsp_M: assume (!orc_rsp_valid_i || f_orc_out || f_orc_req_fire);
      if (f_orc_out && 32'(f_orc_lat) >= FvOrcLat - 1) begin
        OrcLat_M: assume (orc_rsp_valid_i);
      end
      if (f_orc_req_fire && FvOrcLat == 0) begin
        OrcLat0_M: assume (orc_rsp_valid_i);
      end
    end
  end
`endif

  // ---------------------------------------------------------------------------------------------
  // Shadow of the current job and of its reads
  // ---------------------------------------------------------------------------------------------
  logic        f_job_kind;
  logic [ga_pkg::LayoutW-1:0] f_job_layout;
  logic [63:0] f_job_ptr, f_job_root;
  logic [31:0] f_job_limit;
  logic [7:0]  f_busy;                        // busy cycles of the current job (saturating)
  logic [31:0] f_reads;                       // read requests transferred in the current job
  logic [63:0] f_rd_addr;                     // address of the last read request
  logic [ga_pkg::MemLenW-1:0] f_rd_len;       //   and its length code
  logic [31:0] f_spent, f_spent_prev;         // busy-cycle budget of the reads requested so far,
                                              //   and of those before the last one
  logic        f_rsp_seen, f_rsp_err;         // the last read's response: every beat seen, an
                                              //   error on some beat
  logic [63:0] f_rsp_tb, f_rsp_size;          //   and its entry words
  logic [63:0] f_exp_addr;                    // where spec §3.3 says the next read must go
  logic        f_busy_state;
  assign f_busy_state = state_q != W_IDLE && state_q != W_DONE;

  // spec §3.3 step 6 and §2.3: the next node from a node that does not cover va(p)
  logic [63:0] f_p_va, f_n_ebase;
  assign f_p_va    = f_job_ptr & FvVaMask;
  assign f_n_ebase = mem_rsp_data_i[63:0] & FvVaMask;

  always @(posedge clk_i) begin
    if (!rst_ni) begin
      f_busy <= '0;  f_reads <= '0;  f_rsp_seen <= 1'b0;  f_spent <= '0;  f_spent_prev <= '0;
    end else if (f_start) begin
      f_job_kind   <= start_kind_i;
      f_job_layout <= start_layout_i;
      f_job_ptr    <= start_ptr_i;
      f_job_root   <= start_root_i;
      f_job_limit  <= start_limit_i;
      f_busy       <= '0;
      f_reads      <= '0;
      f_spent      <= '0;
      f_spent_prev <= '0;
      f_rsp_seen   <= 1'b0;
      f_exp_addr   <= (start_kind_i == ga_pkg::WK_FETCH) ? start_ptr_i : start_root_i;
    end else begin
      if (f_busy_state && f_busy != 8'hff) f_busy <= f_busy + 1'b1;
      if (f_mem_req_fire) begin
        f_reads      <= f_reads + 1'b1;
        f_rd_addr    <= mem_req_addr_o;
        f_rd_len     <= mem_req_len_o;
        f_spent_prev <= f_spent;
        f_spent      <= f_spent + ((mem_req_len_o == ga_pkg::MEM_LEN_128) ? 32'(FvNode4) : 32'(FvNode));
        f_rsp_seen   <= 1'b0;
        f_rsp_err    <= 1'b0;
      end
      if (f_mem_rsp_fire) begin
        f_rsp_seen <= (f_beats_left == 3'd1);
        f_rsp_err  <= f_rsp_err || mem_rsp_err_i;
        f_rsp_tb   <= mem_rsp_data_i[63:0];
        f_rsp_size <= mem_rsp_data_i[127:64];
        f_exp_addr <= (f_job_layout == ga_pkg::LAYOUT_BST && f_p_va >= f_n_ebase)
                      ? mem_rsp_data_i[255:192] : mem_rsp_data_i[191:128];
      end
      if (orc_rsp_valid_i && (f_orc_out || f_orc_req_fire)) begin
        f_exp_addr <= f_job_root + {orc_rsp_idx_i[59:0], 4'd0};   // ROOT + 16 i mod 2^64
      end
    end
  end

  // Exact-integer M1..M3 of the entry the walker reports, for the job's pointer (spec §3.1)
  logic [63:0] f_p_tag, f_e_tag;
  logic [65:0] f_e_base, f_e_end;
  logic        f_covers, f_match;
  assign f_p_tag  = f_job_ptr >> V;
  assign f_e_tag  = tb_o >> V;
  assign f_e_base = {2'b00, tb_o & FvVaMask};
  assign f_e_end  = f_e_base + {2'b00, size_o};
  assign f_covers = f_e_base <= {2'b00, f_p_va} && {2'b00, f_p_va} < f_e_end;
  assign f_match  = f_covers && f_p_tag != 0 && f_p_tag != (64'd1 << TagBits) - 1 &&
                    f_p_tag == f_e_tag;

  logic f_walk_ll, f_walk_ix;                 // the job is a LIST / BST walk, an INDEX walk
  assign f_walk_ll = f_job_kind == ga_pkg::WK_WALK &&
                     (f_job_layout == ga_pkg::LAYOUT_LIST || f_job_layout == ga_pkg::LAYOUT_BST);
  assign f_walk_ix = HasIndex != 0 && f_job_kind == ga_pkg::WK_WALK &&
                     f_job_layout == ga_pkg::LAYOUT_INDEX;

  // ---------------------------------------------------------------------------------------------
  // INDEX: the walk's phase by the spec model (spec §3.3 steps 5 and 9, *None*), from the reads'
  // contents. A read's last beat without an error on any beat is *none* when it is a node with a
  // well-formed header and count 0, or the slot and its entry does not range-cover va(p) (exact
  // integers). A none in the live phase makes the phase freed and the next read, if any, the freed
  // root ROOT - 128 (mod 2^64); in the freed phase it ends the walk NOT_FOUND.
  // ---------------------------------------------------------------------------------------------
  function automatic logic fv_ix_hbad(input logic [31:0] h);     // spec §3.3 step 4 on the header
    fv_ix_hbad = h[7:0] > 8'd11 || h[15:8] > 8'd1 || h[31:16] != 16'd0;
  endfunction

  logic        f_ix_frd;      // the phase now: 0 live, 1 freed
  logic        f_rd_frd;      // the phase when the last read was requested
  logic        f_ix_tofr;     // a none in the live phase came: the next read is the freed root
  logic        f_rd_none;     // the last read ended none (every beat seen, no error)
  logic [31:0] f_ix_hdr;      // beat 0 (count, kind, reserved) of the last node read
  logic [31:0] f_ix_hdr_now;  //   as of the arriving beat
  logic [63:0] f_ix_froot;    // spec §2.3: the freed root, ROOT - 128 mod 2^64
  logic [65:0] f_sl_base, f_sl_end;
  logic        f_sl_covers, f_sl_match;   // the arriving beat's entry range-covers va(p) / matches p
  logic        f_ix_none;     // the last beat of an INDEX walk's read arrives now and is none
  assign f_ix_froot   = f_job_root - 64'd128;
  assign f_ix_hdr_now = (f_beats_left == 3'(IxBeats)) ? mem_rsp_data_i[31:0] : f_ix_hdr;
  assign f_sl_base    = {2'b00, f_n_ebase};
  assign f_sl_end     = f_sl_base + {2'b00, mem_rsp_data_i[127:64]};
  assign f_sl_covers  = f_sl_base <= {2'b00, f_p_va} && {2'b00, f_p_va} < f_sl_end;
  assign f_sl_match   = f_sl_covers && (f_job_ptr >> V) != 0 &&
                        (f_job_ptr >> V) != (64'd1 << TagBits) - 1 &&
                        (f_job_ptr >> V) == (mem_rsp_data_i[63:0] >> V);
  assign f_ix_none    = f_walk_ix && f_mem_rsp_fire && f_beats_left == 3'd1 && !f_rsp_err &&
                        !mem_rsp_err_i &&
                        ((f_rd_len == ga_pkg::MEM_LEN_128) ? (!fv_ix_hbad(f_ix_hdr_now) &&
                                                              f_ix_hdr_now[7:0] == 8'd0)
                                                           : !f_sl_covers);

  always @(posedge clk_i) begin
    if (!rst_ni) begin
      f_ix_frd <= 1'b0;  f_rd_frd <= 1'b0;  f_ix_tofr <= 1'b0;  f_rd_none <= 1'b0;
    end else if (f_start) begin
      f_ix_frd <= 1'b0;  f_rd_frd <= 1'b0;  f_ix_tofr <= 1'b0;  f_rd_none <= 1'b0;
    end else begin
      if (f_mem_req_fire) begin
        f_rd_frd  <= f_ix_frd;
        f_ix_tofr <= 1'b0;
        f_rd_none <= 1'b0;
      end
      if (f_mem_rsp_fire && f_rd_len == ga_pkg::MEM_LEN_128 && f_beats_left == 3'(IxBeats)) begin
        f_ix_hdr <= mem_rsp_data_i[31:0];
      end
      if (f_ix_none) begin
        f_ix_frd  <= 1'b1;
        f_ix_tofr <= !f_ix_frd;
        f_rd_none <= 1'b1;
      end
    end
  end

  // The job registers the FSM keeps agree with the shadow (inductive strengthening).
  logic f_job_regs_ok;
  assign f_job_regs_ok = kind_q == f_job_kind && layout_q == f_job_layout && ptr_q == f_job_ptr &&
                         root_q == f_job_root && limit_q == f_job_limit;

  // ---------------------------------------------------------------------------------------------
  // Group 1: handshakes
  // ---------------------------------------------------------------------------------------------
  logic        f_mem_hold, f_orc_hold, f_done_hold;
  logic [63:0] f_mem_addr_p, f_orc_va_p, f_loc_p, f_tb_p, f_size_p;
  logic [ga_pkg::MemLenW-1:0] f_mem_len_p;
  logic [2:0]  f_status_p;
  logic [31:0] f_steps_p;
  always @(posedge clk_i) begin
    f_mem_hold   <= rst_ni && mem_req_valid_o && !mem_req_ready_i;
    f_orc_hold   <= rst_ni && orc_req_valid_o && !orc_req_ready_i;
    f_done_hold  <= rst_ni && done_o && !ack_i;
    f_mem_addr_p <= mem_req_addr_o;  f_mem_len_p <= mem_req_len_o;  f_orc_va_p <= orc_req_va_o;
    f_status_p   <= status_o;  f_loc_p <= loc_o;  f_tb_p <= tb_o;  f_size_p <= size_o;
    f_steps_p    <= steps_o;
  end

  if ((FvGroups & 1) != 0) begin : g_fv_hs
    always @(*) begin
      if (f_past_valid && rst_ni) begin
        StateLegal_A:    assert (state_q <= W_DONE);
        OneRead_A:       assert (mem_rsp_ready_o == f_mem_out);     // ready exactly while outstanding
        NoReqWhileOut_A: assert (!(mem_req_valid_o && f_mem_out));   // one read at a time
        OrcOut_A:        assert (f_orc_out == (state_q == W_ORC_WAIT));
        if (f_mem_hold) begin
          MemReqStable_A: assert (mem_req_valid_o && mem_req_addr_o == f_mem_addr_p &&
                                  mem_req_len_o == f_mem_len_p);
        end
        if (f_orc_hold) begin
          OrcReqStable_A: assert (orc_req_valid_o && orc_req_va_o == f_orc_va_p);
        end
        if (mem_req_valid_o) begin
          MemReqAligned_A: assert ((mem_req_len_o == ga_pkg::MEM_LEN_16 && mem_req_addr_o[3:0] == 4'd0) ||
                                   (mem_req_len_o == ga_pkg::MEM_LEN_32 && mem_req_addr_o[4:0] == 5'd0) ||
                                   (HasIndex != 0 && mem_req_len_o == ga_pkg::MEM_LEN_128 &&
                                    mem_req_addr_o[6:0] == 7'd0));
        end
        // Beats: the walker's count is the memory's (a read of one beat has beat 0); with OneRead_A
        // the walker waits for every beat of a 128-byte read and takes no beat more.
        BeatsCounted_A: assert (state_q != W_MEM_WAIT ||
                                (32'(f_beats_left) + 32'(beat_q) ==
                                 ((len_q == ga_pkg::MEM_LEN_128) ? IxBeats : 1)));
        // The oracle states only in TABLE walks.
        if (state_q == W_ORC_REQ || state_q == W_ORC_WAIT) begin
          OrcShape_A: assert (kind_q == ga_pkg::WK_WALK && layout_q == ga_pkg::LAYOUT_TABLE);
        end
        // A 128-byte read only in an INDEX walk; length code 3 never.
        if (state_q == W_MEM_REQ || state_q == W_MEM_WAIT) begin
          LenShape_A: assert (len_q != 2'd3 &&
                              (len_q != ga_pkg::MEM_LEN_128 ||
                               (HasIndex != 0 && kind_q == ga_pkg::WK_WALK &&
                                layout_q == ga_pkg::LAYOUT_INDEX)));
        end
        // INDEX: the root passed its mod-128 check, a node read is 128-byte aligned, the slot
        // (ROOT + 16 ref) 16-byte aligned (strengthens MemReqAligned_A for the induction).
        if ((state_q == W_MEM_REQ || state_q == W_MEM_WAIT) && HasIndex != 0 &&
            kind_q == ga_pkg::WK_WALK && layout_q == ga_pkg::LAYOUT_INDEX) begin
          IxAligned_A: assert (root_q[6:0] == 7'd0 &&
                               ((len_q == ga_pkg::MEM_LEN_128 && node_q[6:0] == 7'd0) ||
                                (len_q == ga_pkg::MEM_LEN_16 && node_q[3:0] == 4'd0)));
        end
        if (f_done_hold) begin
          DoneStable_A:   assert (done_o && status_o == f_status_p && loc_o == f_loc_p &&
                                  tb_o == f_tb_p && size_o == f_size_p && steps_o == f_steps_p);
        end
      end
    end
  end

  // ---------------------------------------------------------------------------------------------
  // Group 2: termination within STEP_LIMIT node reads plus a constant
  // ---------------------------------------------------------------------------------------------
  logic [31:0] f_nodes, f_orc_cost, f_bound, f_cost;
  assign f_nodes    = (f_walk_ll || f_walk_ix) ? f_job_limit : 32'd1;
  assign f_cost     = f_walk_ix ? 32'(FvNode4) : 32'(FvNode);          // most per read
  assign f_orc_cost = (f_job_kind == ga_pkg::WK_WALK && f_job_layout == ga_pkg::LAYOUT_TABLE)
                      ? 32'(FvOrc) : 32'd0;
  assign f_bound    = f_nodes * f_cost + f_orc_cost;

  if ((FvGroups & 2) != 0) begin : g_fv_term
    always @(*) begin
      if (f_past_valid && rst_ni) begin
        // The bound itself: every job is over (DONE) within f_bound busy cycles.
        BusyBound_A:    assert (32'(f_busy) <= f_bound);
        if (f_busy_state || state_q == W_DONE) begin
          ReadsBound_A:  assert (f_reads == steps_q && f_reads <= f_nodes);
          SpentBound_A:  assert (f_spent <= f_reads * f_cost && f_spent_prev <= f_spent);
          JobRegs_A:     assert (f_job_regs_ok);
          if (f_job_kind == ga_pkg::WK_WALK) begin
            LimitSmall_A: assert (f_job_limit != '0 && f_job_limit <= FvLimitMax);
          end
        end
        // The job's shape matches its state: oracle states only in TABLE walks, 32-byte reads
        // exactly for LIST / BST nodes, 128-byte ones only for INDEX nodes.
        if (state_q == W_ORC_REQ || state_q == W_ORC_WAIT) begin
          JobShapeOrc_A: assert (kind_q == ga_pkg::WK_WALK && layout_q == ga_pkg::LAYOUT_TABLE);
        end
        if (state_q == W_MEM_REQ || state_q == W_MEM_WAIT) begin
          JobShapeMem_A: assert ((f_walk_ll ? len_q == ga_pkg::MEM_LEN_32 :
                                  f_walk_ix ? (len_q == ga_pkg::MEM_LEN_128 ||
                                               len_q == ga_pkg::MEM_LEN_16) :
                                              len_q == ga_pkg::MEM_LEN_16) &&
                                 (kind_q == ga_pkg::WK_FETCH || f_walk_ll || f_walk_ix ||
                                  layout_q == ga_pkg::LAYOUT_TABLE));
          if (state_q == W_MEM_WAIT) begin
            BeatErr_A:  assert (berr_q == f_rsp_err && f_rd_addr == node_q && f_rd_len == len_q &&
                                !f_rsp_seen);
          end
        end
        // Inductive accounting, per state: what the job has spent so far.
        if (state_q == W_ORC_REQ) begin
          TermOrcReq_A:  assert (f_busy <= f_orc_wait && 32'(f_orc_wait) <= FvOrcRdy &&
                                 f_reads == '0);
        end
        if (state_q == W_ORC_WAIT) begin
          TermOrcWait_A: assert (32'(f_busy) <= FvOrcRdy + 1 + 32'(f_orc_lat) &&
                                 32'(f_orc_lat) < FvOrcLat && f_reads == '0);
        end
        if (state_q == W_MEM_REQ) begin
          TermMemReq_A:  assert (32'(f_busy) <= f_orc_cost + f_spent + 32'(f_mem_wait) &&
                                 32'(f_mem_wait) <= FvMemRdy && f_reads < f_nodes &&
                                 f_beats_left == '0);
        end
        if (state_q == W_MEM_WAIT) begin
          TermMemWait_A: assert (f_reads >= 1 && 32'(f_mem_lat) < FvMemLat &&
                                 f_spent == f_spent_prev + ((len_q == ga_pkg::MEM_LEN_128)
                                                            ? 32'(FvNode4) : 32'(FvNode)) &&
                                 32'(f_busy) <= f_orc_cost + f_spent_prev + FvMemRdy + 1
                                                + 32'(beat_q) * FvMemLat + 32'(f_mem_lat));
        end
        if (state_q == W_DONE && status_o == ga_pkg::WALK_STEP_LIMIT) begin
          StepLimitExact_A: assert ((f_walk_ll || f_walk_ix) && f_reads == f_job_limit);
        end
        if (state_q == W_IDLE) begin
          IdleQuiet_A:   assert (!f_mem_out && !f_orc_out);
        end
      end
    end
  end

  // ---------------------------------------------------------------------------------------------
  // Group 4: the read sequence and the results
  // ---------------------------------------------------------------------------------------------
  if ((FvGroups & 4) != 0) begin : g_fv_result
    always @(*) begin
      if (f_past_valid && rst_ni) begin
        if (mem_req_valid_o) begin
          // spec §3.3: ROOT, then next / the BST child; TABLE ROOT + 16 i; FETCH md. A LIST / BST
          // read only of a non-null, aligned node while the step limit is not reached.
          if (!f_walk_ix) begin
            ReadSequence_A: assert (mem_req_addr_o == f_exp_addr &&
                                    mem_req_len_o == (f_walk_ll ? ga_pkg::MEM_LEN_32
                                                                : ga_pkg::MEM_LEN_16));
          end else begin
            // INDEX: ROOT first (128 bytes); after a none in the live phase the freed root
            // (128 bytes); every read before the step limit; nodes aligned
            IxReadSeq_A: assert ((f_reads != '0 || (mem_req_addr_o == f_job_root &&
                                                    mem_req_len_o == ga_pkg::MEM_LEN_128)) &&
                                 (!f_ix_tofr || (mem_req_addr_o == f_ix_froot &&
                                                 mem_req_len_o == ga_pkg::MEM_LEN_128)) &&
                                 f_reads < f_job_limit &&
                                 (mem_req_len_o == ga_pkg::MEM_LEN_16 ||
                                  (mem_req_len_o == ga_pkg::MEM_LEN_128 &&
                                   mem_req_addr_o[6:0] == 7'd0)));
          end
          if (f_walk_ll) begin
            ReadPreChecks_A: assert (mem_req_addr_o != '0 && mem_req_addr_o[4:0] == 5'd0 &&
                                     f_reads < f_job_limit);
          end
        end
        // Inductive strengthening: the read in progress is the expected one; no result before the
        // job ends.
        if ((state_q == W_MEM_REQ || state_q == W_MEM_WAIT) && !f_walk_ix) begin
          ReadAddr_A: assert (node_q == f_exp_addr &&
                              (state_q != W_MEM_WAIT || f_rd_addr == node_q) &&
                              (f_job_kind != ga_pkg::WK_FETCH || node_q == f_job_ptr));
        end
        if (f_busy_state) begin
          BusyNoResult_A: assert (loc_q == '0 && tb_q == '0 && size_q == '0);
        end
        if (done_o && status_o == ga_pkg::WALK_FOUND && f_job_kind == ga_pkg::WK_WALK) begin
          // A match is reported only when the last node read justifies it.
          FoundJustified_A: assert (f_rsp_seen && !f_rsp_err && loc_o == f_rd_addr &&
                                    tb_o == f_rsp_tb && size_o == f_rsp_size && f_match &&
                                    (!f_walk_ix || f_rd_len == ga_pkg::MEM_LEN_16));
        end
        if (done_o && status_o == ga_pkg::WALK_RANGE_ONLY) begin
          RangeOnlyJustified_A: assert (f_job_kind == ga_pkg::WK_WALK && f_rsp_seen &&
                                        !f_rsp_err && loc_o == f_rd_addr && tb_o == f_rsp_tb &&
                                        size_o == f_rsp_size && f_covers && !f_match &&
                                        (!f_walk_ix || f_rd_len == ga_pkg::MEM_LEN_16));
        end
        if (done_o && f_job_kind == ga_pkg::WK_FETCH) begin
          FetchResult_A: assert (status_o == ga_pkg::WALK_FAULT ||
                                 (status_o == ga_pkg::WALK_FOUND && f_rsp_seen && !f_rsp_err &&
                                  loc_o == f_job_ptr && tb_o == f_rsp_tb &&
                                  size_o == f_rsp_size));
        end
        if (done_o && status_o != ga_pkg::WALK_FOUND && status_o != ga_pkg::WALK_RANGE_ONLY) begin
          NoEntryOnMiss_A: assert (loc_o == '0 && tb_o == '0 && size_o == '0);
        end
      end
    end
  end

  // INDEX results (group 4): the slot step and the end of the walk by the two-phase rule.
  if ((FvGroups & 4) != 0 && HasIndex != 0) begin : g_fv_result_ix
    logic                       f_sl_end;       // spec §3.3 step 9 on the arriving slot: the end
    logic [ga_pkg::WalkStW-1:0] f_sl_status;    //   with this status, else the freed root
    logic                       f_sl_chk;       // the slot read's beat came in the last cycle
    logic                       f_sl_x_end;     //   and what spec §3.3 said then
    logic [ga_pkg::WalkStW-1:0] f_sl_x_status;
    always @(*) begin
      f_sl_end    = 1'b1;
      f_sl_status = ga_pkg::WALK_FAULT;
      if (f_rsp_err || mem_rsp_err_i) begin
        f_sl_status = ga_pkg::WALK_FAULT;                              // 9. the read fails
      end else if (f_sl_covers) begin
        f_sl_status = f_sl_match ? ga_pkg::WALK_FOUND : ga_pkg::WALK_RANGE_ONLY;
      end else if (f_ix_frd) begin
        f_sl_status = ga_pkg::WALK_NOT_FOUND;                          // none, freed phase
      end else if (f_reads == f_job_limit) begin
        f_sl_status = ga_pkg::WALK_STEP_LIMIT;                         // none, live: 2. (no read)
      end else begin
        f_sl_end    = 1'b0;                                            // none, live: the freed root
      end
    end
    always @(posedge clk_i) begin
      if (!rst_ni) begin
        f_sl_chk <= 1'b0;
      end else begin
        f_sl_chk      <= f_walk_ix && f_mem_rsp_fire && f_rd_len == ga_pkg::MEM_LEN_16;
        f_sl_x_end    <= f_sl_end;
        f_sl_x_status <= f_sl_status;
      end
    end
    always @(*) begin
      if (f_past_valid && rst_ni) begin
        // After the slot read the walker's next action is spec §3.3 step 9's with *None*: FAULT,
        // FOUND / RANGE_ONLY on the entry, NOT_FOUND in the freed phase; in the live phase
        // STEP_LIMIT at the limit, else the 128-byte read of the freed root ROOT - 128.
        if (f_sl_chk) begin
          IxSlotNext_A: assert (f_sl_x_end ? (done_o && status_o == f_sl_x_status)
                                           : (mem_req_valid_o && mem_req_addr_o == f_ix_froot &&
                                              mem_req_len_o == ga_pkg::MEM_LEN_128));
        end
        // An INDEX walk ends NOT_FOUND only after a none of a read made in the freed phase (an
        // empty node or a slot that does not cover va(p)), i.e. after both indexes missed.
        if (done_o && f_walk_ix && status_o == ga_pkg::WALK_NOT_FOUND) begin
          IxNotFound_A: assert (f_rd_frd && f_rd_none && f_reads >= 2);
        end
      end
    end
  end

  // Inductive strengthening of the phase (groups 4 and 32): the walker's phase register, job
  // registers and the read in progress agree with the ghost.
  if ((FvGroups & 36) != 0 && HasIndex != 0) begin : g_fv_ix_phase
    always @(*) begin
      if (f_past_valid && rst_ni) begin
        if (f_walk_ix && state_q != W_IDLE) begin
          IxPhase_A:    assert (f_job_regs_ok && steps_q == f_reads && phase_q == f_ix_frd &&
                                (!f_ix_frd || f_reads != '0) && (!f_rd_frd || f_ix_frd) &&
                                f_reads <= f_job_limit &&
                                (state_q != W_MEM_REQ || f_reads < f_job_limit));
        end
        if (f_walk_ix && state_q == W_MEM_WAIT) begin
          IxWaitRead_A: assert (len_q == f_rd_len && node_q == f_rd_addr && berr_q == f_rsp_err &&
                                f_rd_frd == f_ix_frd && !f_ix_tofr && !f_rd_none &&
                                f_reads != '0 && (!f_rd_frd || f_reads >= 2));
          if (len_q == ga_pkg::MEM_LEN_128 && beat_q != '0) begin
            IxHdr_A:    assert (gen_index.cnt_q == f_ix_hdr[7:0] &&
                                gen_index.kind_in_q == f_ix_hdr[8] &&
                                gen_index.bad_q == fv_ix_hbad(f_ix_hdr));
          end
        end
        if (f_ix_tofr) begin
          IxToFreed_A:  assert (f_walk_ix && f_ix_frd &&
                                (state_q == W_MEM_REQ || state_q == W_DONE || state_q == W_IDLE) &&
                                (state_q != W_MEM_REQ || (node_q == f_ix_froot &&
                                                          len_q == ga_pkg::MEM_LEN_128)) &&
                                (state_q != W_DONE || status_o == ga_pkg::WALK_STEP_LIMIT));
        end
      end
    end
  end

  // ---------------------------------------------------------------------------------------------
  // Group 8: covers
  // ---------------------------------------------------------------------------------------------
  if ((FvGroups & 8) != 0) begin : g_fv_cover
    always @(*) begin
      if (f_past_valid && rst_ni && done_o) begin
        FoundAtLimit_C:  cover (f_walk_ll && status_o == ga_pkg::WALK_FOUND &&
                                f_reads == f_job_limit && f_job_limit == FvLimitMax);
        StepLimit_C:     cover (status_o == ga_pkg::WALK_STEP_LIMIT && f_job_limit == FvLimitMax);
        SelfLoop_C:      cover (status_o == ga_pkg::WALK_STEP_LIMIT && f_reads >= 2 &&
                                f_rd_addr == f_job_root && f_job_layout == ga_pkg::LAYOUT_LIST);
        ErrorFault_C:    cover (status_o == ga_pkg::WALK_FAULT && f_rsp_err && f_reads == 2);
        MisalignFault_C: cover (status_o == ga_pkg::WALK_FAULT && !f_rsp_err && f_reads == 1 &&
                                f_walk_ll);
        RangeOnly_C:     cover (status_o == ga_pkg::WALK_RANGE_ONLY &&
                                f_e_tag == (64'd1 << TagBits) - 1);
        BstRight_C:      cover (f_job_layout == ga_pkg::LAYOUT_BST && f_reads == 2 &&
                                status_o == ga_pkg::WALK_FOUND);
        TableFound_C:    cover (f_job_layout == ga_pkg::LAYOUT_TABLE &&
                                f_job_kind == ga_pkg::WK_WALK && status_o == ga_pkg::WALK_FOUND);
        FetchFound_C:    cover (f_job_kind == ga_pkg::WK_FETCH && status_o == ga_pkg::WALK_FOUND);
        BoundReached_C:  cover (32'(f_busy) == f_bound && f_walk_ll && f_job_limit == FvLimitMax);
        TableBound_C:    cover (32'(f_busy) == f_bound && !f_walk_ll && !f_walk_ix &&
                                f_job_kind == ga_pkg::WK_WALK);
      end
    end
    always @(*) begin
      if (f_past_valid && rst_ni) begin
        StartWithAck_C:  cover (state_q == W_DONE && ack_i && start_i);
        MemStall_C:      cover (mem_req_valid_o && 32'(f_mem_wait) == FvMemRdy);
      end
    end
  end
  if ((FvGroups & 16) != 0) begin : g_fv_cover_ix
    logic f_cv_lslot;         // the live phase of this walk ended with a slot that missed
    always @(posedge clk_i) begin
      if (!rst_ni || f_start) begin
        f_cv_lslot <= 1'b0;
      end else if (f_ix_none && !f_ix_frd && f_rd_len == ga_pkg::MEM_LEN_16) begin
        f_cv_lslot <= 1'b1;
      end
    end
    always @(*) begin
      if (f_past_valid && rst_ni && done_o) begin
        IndexFound_C:    cover (f_walk_ix && status_o == ga_pkg::WALK_FOUND && f_reads == 2);
        IndexTwoLevel_C: cover (f_walk_ix && status_o == ga_pkg::WALK_FOUND && f_reads == 3);
        // both indexes empty: the live root, then the freed root, each count 0
        IndexEmpty_C:    cover (f_walk_ix && status_o == ga_pkg::WALK_NOT_FOUND && f_reads == 2);
        IndexLimit_C:    cover (f_walk_ix && status_o == ga_pkg::WALK_STEP_LIMIT && f_reads == 2 &&
                                f_job_limit == 2);
        IndexBeatErr_C:  cover (f_walk_ix && status_o == ga_pkg::WALK_FAULT && f_rsp_err &&
                                f_rd_len == ga_pkg::MEM_LEN_128);
        // the entry found in the freed index after a miss in the live one: a match, and a freed
        // entry (tag F) that ends RANGE_ONLY
        IndexFreedFound_C: cover (f_walk_ix && status_o == ga_pkg::WALK_FOUND && f_rd_frd);
        IndexFreedRange_C: cover (f_walk_ix && status_o == ga_pkg::WALK_RANGE_ONLY && f_rd_frd &&
                                  f_e_tag == (64'd1 << TagBits) - 1);
        // NOT_FOUND after both phases: the freed index's slot misses (after an empty live root)
        IndexBothMiss_C: cover (f_walk_ix && status_o == ga_pkg::WALK_NOT_FOUND &&
                                f_rd_len == ga_pkg::MEM_LEN_16);
        //   and after a slot miss in the live index (root leaf, slot), the freed root empty
        IndexSlotMiss_C: cover (f_walk_ix && status_o == ga_pkg::WALK_NOT_FOUND && f_cv_lslot);
        // the live index missed at the step limit: STEP_LIMIT before the freed root's read
        IndexFreedLimit_C: cover (f_walk_ix && status_o == ga_pkg::WALK_STEP_LIMIT && f_ix_tofr);
      end
    end
  end

  // ---------------------------------------------------------------------------------------------
  // Group 32: which child or slot an INDEX node's keys select (spec §2.3, §3.3 steps 3-9; issue 13)
  // A ghost copy of the node, taken beat by beat as the memory delivers it, gives at the last beat
  // the whole 128 bytes; from them the spec's rule (count, kind, header checks, j* = the largest i
  // in 1 .. c-1 with key[i] <= va(p), ROOT + 16 ref[j*] mod 2^64) decides the walk's next action,
  // which the walker must take in the next cycle: the next read at that location (128 bytes for an
  // inner node, 16 for a leaf's slot), the freed root ROOT - 128 (128 bytes) after an empty node in
  // the live phase (the ghost phase f_ix_frd, *None*), or DONE with the spec's status.
  // ---------------------------------------------------------------------------------------------
  localparam int FvIxW   = ga_pkg::IdxNodeBytes * 8;  // bits of an index node
  localparam int FvIxFan = 11;                        // spec §2.3: ref[0 .. 10], key[1 .. 10]

  // j* of spec §3.3 step 6 over the keys held in the first `got` bytes of node n (all 128: the
  // spec's rule; fewer: the keys received so far, for the induction).
  function automatic logic [3:0] fv_ix_j(input logic [FvIxW-1:0] n, input logic [63:0] va,
                                         input logic [31:0] got);
    logic [3:0] j;
    j = 4'd0;
    for (int i = 1; i < FvIxFan; i++) begin
      if (48 + 8 * i <= got && 8'(i) < n[7:0] && n[(48 + 8 * (i - 1)) * 8 +: 64] <= va &&
          4'(i) > j) begin
        j = 4'(i);
      end
    end
    fv_ix_j = j;
  endfunction

  // spec §3.3 step 4: the header is malformed
  function automatic logic fv_ix_bad(input logic [FvIxW-1:0] n);
    fv_ix_bad = n[7:0] > 8'd11 || n[15:8] > 8'd1 || n[31:16] != 16'd0;
  endfunction

  if ((FvGroups & 32) != 0 && HasIndex != 0) begin : g_fv_ix_keys
    logic [FvIxW-1:0]           f_ixn;        // beats of the outstanding node read received so far
    logic [FvIxW-1:0]           f_ixn_all;    //   and the arriving beat (the whole node at the last)
    logic [31:0]                f_ix_got;     // beats of the outstanding read received so far
    logic                       f_ix_last;    // the last beat of a node read arrives now
    logic [3:0]                 f_ix_j;       // spec §3.3 step 6 on the whole node
    logic [31:0]                f_ix_ref;     //   ref[j*]
    logic [63:0]                f_ix_loc;     // step 7: ROOT + 16 ref[j*] (mod 2^64)
    logic                       f_ix_end;     // the walk ends after this node
    logic [ga_pkg::WalkStW-1:0] f_ix_status;  //   with this status
    logic [63:0]                f_ix_addr;    // else the next read: f_ix_loc or the freed root,
    logic [ga_pkg::MemLenW-1:0] f_ix_len;     //   this length
    logic                       f_ix_chk;     // the last beat of a node read came in the last cycle
    logic                       f_ix_x_end;   //   and what spec §3.3 said then
    logic [ga_pkg::WalkStW-1:0] f_ix_x_status;
    logic [63:0]                f_ix_x_addr;
    logic [ga_pkg::MemLenW-1:0] f_ix_x_len;
    logic                       f_ix_wait;    // a node read of an INDEX walk is outstanding

    assign f_ix_got  = 32'(IxBeats) - 32'(f_beats_left);
    assign f_ix_last = f_walk_ix && f_mem_rsp_fire && f_rd_len == ga_pkg::MEM_LEN_128 &&
                       f_beats_left == 3'd1;
    assign f_ix_wait = f_walk_ix && state_q == W_MEM_WAIT && f_rd_len == ga_pkg::MEM_LEN_128;

    always @(*) begin
      f_ixn_all = f_ixn;
      for (int b = 0; b < IxBeats; b++) begin
        if (f_mem_rsp_fire && f_ix_got == b) begin
          f_ixn_all[b * ga_pkg::MemDataW +: ga_pkg::MemDataW] = mem_rsp_data_i;
        end
      end
    end

    // Spec §3.3 steps 3-9 on the whole node (meaningful at the last beat).
    always @(*) begin
      f_ix_j   = fv_ix_j(f_ixn_all, f_p_va, 32'(ga_pkg::IdxNodeBytes));
      f_ix_ref = 32'd0;
      for (int j = 0; j < FvIxFan; j++) begin
        if (f_ix_j == 4'(j)) f_ix_ref = f_ixn_all[(4 + 4 * j) * 8 +: 32];
      end
      f_ix_loc    = f_job_root + {28'd0, f_ix_ref, 4'd0};
      f_ix_addr   = f_ix_loc;
      f_ix_len    = (f_ixn_all[15:8] == 8'd1) ? ga_pkg::MEM_LEN_128 : ga_pkg::MEM_LEN_16;
      f_ix_end    = 1'b1;
      f_ix_status = ga_pkg::WALK_FAULT;
      if (f_rsp_err || mem_rsp_err_i) begin
        f_ix_status = ga_pkg::WALK_FAULT;                              // 3. error on a beat
      end else if (fv_ix_bad(f_ixn_all)) begin
        f_ix_status = ga_pkg::WALK_FAULT;                              // 4. malformed header
      end else if (f_ixn_all[7:0] == 8'd0 && f_ix_frd) begin
        f_ix_status = ga_pkg::WALK_NOT_FOUND;                          // 5. none, freed phase
      end else if (f_ixn_all[7:0] == 8'd0) begin
        // 5. none, live phase: n <- ROOT - 128, 1. (aligned: ROOT passed it), 2. step limit
        if (f_reads == f_job_limit) begin
          f_ix_status = ga_pkg::WALK_STEP_LIMIT;
        end else begin
          f_ix_end    = 1'b0;
          f_ix_addr   = f_ix_froot;
          f_ix_len    = ga_pkg::MEM_LEN_128;
        end
      end else if (f_ixn_all[15:8] == 8'd1 && f_ix_loc[6:0] != 7'd0) begin
        f_ix_status = ga_pkg::WALK_FAULT;                              // 8. -> 1. misaligned child
      end else if (f_reads == f_job_limit) begin
        f_ix_status = ga_pkg::WALK_STEP_LIMIT;                         // 8. -> 2. / 9. step limit
      end else begin
        f_ix_end    = 1'b0;                                            // 8. child / 9. the slot
      end
    end

    always @(posedge clk_i) begin
      if (!rst_ni) begin
        f_ix_chk <= 1'b0;
      end else begin
        f_ix_chk      <= f_ix_last;
        f_ix_x_end    <= f_ix_end;
        f_ix_x_status <= f_ix_status;
        f_ix_x_addr   <= f_ix_addr;
        f_ix_x_len    <= f_ix_len;
        if (f_mem_rsp_fire && f_rd_len == ga_pkg::MEM_LEN_128) f_ixn <= f_ixn_all;
      end
    end

    // The refs of the beats received so far are the ghost's.
    logic f_ix_refs_ok;
    always @(*) begin
      f_ix_refs_ok = 1'b1;
      for (int j = 0; j < FvIxFan; j++) begin
        if (4 + 4 * j + 4 <= f_ix_got * BeatBytes &&
            gen_index.refs_q[j * 32 +: 32] != f_ixn[(4 + 4 * j) * 8 +: 32]) begin
          f_ix_refs_ok = 1'b0;
        end
      end
    end

    always @(*) begin
      if (f_past_valid && rst_ni) begin
        // The walker's next action after a node is the spec's, from the whole node and the phase.
        if (f_ix_chk) begin
          IxKeyNext_A: assert (f_ix_x_end ? (done_o && status_o == f_ix_x_status)
                                          : (mem_req_valid_o && mem_req_addr_o == f_ix_x_addr &&
                                             mem_req_len_o == f_ix_x_len));
        end
        // Inductive strengthening: during a node read the walker's partial decode is the ghost's
        // (header from beat 0, the refs of the beats received, j* over the keys received so far).
        if (f_walk_ix && state_q != W_IDLE) begin
          IxJobRegs_A: assert (f_job_regs_ok && steps_q == f_reads && phase_q == f_ix_frd);
        end
        if (f_ix_wait) begin
          IxWaitLen_A: assert (len_q == f_rd_len && berr_q == f_rsp_err &&
                               32'(beat_q) == f_ix_got);
          if (f_ix_got != 0) begin
            IxHeader_A: assert (gen_index.cnt_q == f_ixn[7:0] &&
                                gen_index.kind_in_q == f_ixn[8] &&
                                gen_index.bad_q == fv_ix_bad(f_ixn) &&
                                gen_index.j_q == fv_ix_j(f_ixn, f_p_va, f_ix_got * BeatBytes));
          end
          IxRefs_A: assert (f_ix_refs_ok);
        end
      end
    end
  end

`undef GA_WALKER_PORT
`undef GA_FV_WALKER_GROUPS
