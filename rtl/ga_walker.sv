// Copyright GPUArmor contributors.
//
// ga_walker -- the Metadata Loading Unit's FSM (paper §5.2 "Metadata Loading Unit", Figure 6;
// spec §3.3 walk, §4.2 MEMCHECK.G entry fetch).
//
// Two jobs, one at a time, each started by the top with a one-cycle start pulse:
//   WK_WALK  -- LOADMETA walk for tagged pointer p of the LIST, BST or TABLE layout, exactly the read
//               sequence of spec §3.3 (the order of checks is null, alignment, step limit, read):
//                 LIST/BST: n <- ROOT; loop { n = 0 -> NOT_FOUND; n mod 32 -> FAULT (no read);
//                           steps = limit -> STEP_LIMIT (no read); read 32 bytes at n, steps++;
//                           error -> FAULT; covers va(p) -> FOUND / RANGE_ONLY;
//                           LIST n <- next; BST n <- va(p) < ebase ? left : right }
//                 TABLE:    oracle(va(p)); none -> NOT_FOUND; ROOT mod 16 -> FAULT (no read);
//                           read 16 bytes at ROOT + 16 i; error -> FAULT; covers -> FOUND /
//                           RANGE_ONLY, else NOT_FOUND
//                 INDEX:    n <- ROOT, live phase; loop { n mod 128 -> FAULT (no read; ROOT - 128
//                           needs no check); steps = limit -> STEP_LIMIT (no read); read 128 bytes
//                           at n, steps++; error / bad header -> FAULT; count = 0 -> none; inner:
//                           n <- ROOT + 16 ref[j]; leaf: the slot at ROOT + 16 ref[j] (16 bytes,
//                           after the step check): covers -> FOUND / RANGE_ONLY, else none };
//                           none: live phase -> n <- ROOT - 128, freed phase, go on; freed phase
//                           -> NOT_FOUND (spec §3.3 *None*)
//                 LAYOUT 3 without the INDEX block (never accepted by the register) -> FAULT, no
//                 read (fail closed)
//   WK_FETCH -- MEMCHECK.G entry fetch: md mod 16 -> FAULT (no read); read 16 bytes at md;
//               error -> FAULT; else FOUND with the entry (the MLU applies the checks).
// The result (status, location, entry) is held in DONE until the top acknowledges it (ack_i); the top
// may start the next job in the acknowledging cycle.
//
// Speed: the node's response is decoded in the cycle it arrives (entry compare, child select and the
// null / alignment / step checks of the next pointer) and the next request is valid in the very next
// cycle: one cycle of FSM overhead per node beyond the memory latency.
//
//            start_*           mem_rsp_data_i            orc_rsp_*
//               |                    |                       |
//               v                    v                       v
//       +-------+--------------------+-----------------------+-----+
//       |  IDLE -> (ORC_REQ -> ORC_WAIT ->) MEM_REQ <-> MEM_WAIT   |
//       |            \__________________________________/   |      |
//       |                              v                     v      |
//       |                             DONE --(ack_i)--> IDLE/start  |
//       +------------------------------------------------------------+
//         node_q / len_q -> mem_req_*     va(ptr_q) -> orc_req_va_o
//
// Parameters:
//   TagBits  7 or 16   tag width (spec §1.1)
//
// Interfaces:
//   start: start_i is a one-cycle command, legal only when idle_o, or when done_o && ack_i (checked by
//     an assertion). Its payload is sampled in that cycle only.
//   result: done_o stays high with a stable result until the cycle ack_i is high.
//   memory read port (valid/ready, microarchitecture §1.3): one read outstanding; mem_req_addr_o and
//     mem_req_len_o are registers, stable while mem_req_valid_o && !mem_req_ready_i; mem_rsp_ready_o
//     is high exactly while a read is outstanding (state MEM_WAIT).
//   oracle port (§1.4): orc_req_va_o is a register, stable while orc_req_valid_o && !orc_req_ready_i;
//     the answer pulse orc_rsp_valid_i is taken in the request-transfer cycle or any later cycle.
//   Every output depends on state only.

// Icarus 11 can spin forever at one time step on chains of always_comb blocks that assign a default
// and then override it (reproduced on a 3-block example); `always @*` is correct there. Verilator and
// Yosys get always_comb. Every function called from these blocks takes what it reads as arguments,
// so the two sensitivity rules agree.
`ifndef GA_ALWAYS_COMB
`ifdef __ICARUS__
`define GA_ALWAYS_COMB always @*
`else
`define GA_ALWAYS_COMB always_comb
`endif
`endif

module ga_walker #(
  parameter int TagBits  = 7,
  parameter int EndForm  = 0,   // as ga_mlb's: M3 of an arriving node as va < ebase + size (65 bits)
  parameter int HasIndex = 1    // 1: the INDEX layout's block is built; 0: left out (LAYOUT 3 fails closed)
) (
  input  logic                          clk_i,
  input  logic                          rst_ni,

  // Job start (from ga_mlu)
  input  logic                          start_i,
  input  logic                          start_kind_i,      // ga_pkg::WK_WALK / WK_FETCH
  input  logic [63:0]                   start_ptr_i,       // WALK: tagged pointer p; FETCH: md
  input  logic [ga_pkg::LayoutW-1:0]    start_layout_i,    // WALK only
  input  logic [63:0]                   start_root_i,      // WALK only
  input  logic [ga_pkg::StepW-1:0]      start_limit_i,     // WALK only, >= 1

  // Result (to ga_mlu)
  output logic                          idle_o,
  output logic                          done_o,
  input  logic                          ack_i,
  output logic [ga_pkg::WalkStW-1:0]    status_o,
  output logic [63:0]                   loc_o,             // FOUND / RANGE_ONLY: node location
  output logic [63:0]                   tb_o,              // FOUND / RANGE_ONLY: entry read
  output logic [63:0]                   size_o,
  output logic [ga_pkg::StepW-1:0]      steps_o,           // reads issued

  // Metadata memory read port
  output logic                          mem_req_valid_o,
  input  logic                          mem_req_ready_i,
  output logic [63:0]                   mem_req_addr_o,
  output logic [ga_pkg::MemLenW-1:0]    mem_req_len_o,
  input  logic                          mem_rsp_valid_i,
  output logic                          mem_rsp_ready_o,
  input  logic [ga_pkg::MemDataW-1:0]   mem_rsp_data_i,
  input  logic                          mem_rsp_err_i,

  // Table oracle port
  output logic                          orc_req_valid_o,
  input  logic                          orc_req_ready_i,
  output logic [63:0]                   orc_req_va_o,
  input  logic                          orc_rsp_valid_i,
  input  logic                          orc_rsp_found_i,
  input  logic [63:0]                   orc_rsp_idx_i
);

  localparam int V = 64 - TagBits;
  // F = 2^T - 1, written as a replication: Yosys 0.23 elaborates a '1 localparam initialiser as
  // the one-bit value 1 (F was 0x01 in every Yosys netlist; found by the formal proof of ga_check).
  localparam logic [TagBits-1:0] TagFreed = {TagBits{1'b1}};

  // Beats of a 128-byte read (microarchitecture §1.3): node bytes / beat bytes.
  localparam int BeatBytes = ga_pkg::MemDataW / 8;
  localparam int IxBeats   = ga_pkg::IdxNodeBytes / BeatBytes;
  localparam int BeatCntW  = (IxBeats > 1) ? $clog2(IxBeats) : 1;

  localparam bit ParamsBad = (TagBits != 7 && TagBits != 16) || (HasIndex != 0 && HasIndex != 1) ||
                             (BeatBytes < 32) || (IxBeats * BeatBytes != ga_pkg::IdxNodeBytes) ||
                             (EndForm != 0 && EndForm != 1);
`ifdef __ICARUS__
  initial begin
    if (ParamsBad) $fatal(1, "ga_walker: TagBits must be 7 or 16, EndForm and HasIndex 0 or 1, the beat 32 .. 128 bytes");
  end
`else
  if (ParamsBad) begin : gen_bad_params
    $error("ga_walker: TagBits must be 7 or 16, EndForm and HasIndex 0 or 1, the beat 32 .. 128 bytes");
  end
`endif

  // FSM states
  typedef enum logic [2:0] {
    W_IDLE     = 3'd0,  // no job
    W_ORC_REQ  = 3'd1,  // TABLE: oracle request valid, waiting for orc_req_ready_i
    W_ORC_WAIT = 3'd2,  // TABLE: oracle request sent, waiting for the answer pulse
    W_MEM_REQ  = 3'd3,  // read request valid (node_q, len_q), waiting for mem_req_ready_i
    W_MEM_WAIT = 3'd4,  // one read outstanding, waiting for its response (beats)
    W_DONE     = 3'd5   // result held until ack_i
  } w_state_e;

  w_state_e                     state_q, state_d;
  logic                         kind_q, kind_d;
  logic [ga_pkg::LayoutW-1:0]   layout_q, layout_d;
  logic [63:0]                  ptr_q, ptr_d;        // p (WALK) or md (FETCH)
  logic [63:0]                  root_q, root_d;      // TABLE base / INDEX root, needed after the start
  logic [ga_pkg::StepW-1:0]     limit_q, limit_d;
  logic [63:0]                  node_q, node_d;      // address of the read to issue / outstanding
  logic [ga_pkg::MemLenW-1:0]   len_q, len_d;
  logic [ga_pkg::StepW-1:0]     steps_q, steps_d;
  logic                         phase_q, phase_d;    // INDEX walk: 0 the live index, 1 the freed one
  logic [BeatCntW-1:0]          beat_q, beat_d;      // beats of the outstanding read taken so far
  logic                         berr_q, berr_d;      // an earlier beat of the outstanding read failed
  // Not a state machine: a result code. The attribute keeps Yosys 0.23's fsm pass off it (with
  // synth -flatten that pass hits an internal assertion on this register).
  (* fsm_encoding = "none" *)
  logic [ga_pkg::WalkStW-1:0]   status_q;
  logic [ga_pkg::WalkStW-1:0]   status_d;
  logic [63:0]                  loc_q, loc_d;
  logic [63:0]                  tb_q, tb_d;
  logic [63:0]                  size_q, size_d;

  // ---------------------------------------------------------------------------------------------
  // Shared: the 16-byte entry at the start of the arriving beat (a LIST/BST node's entry, a TABLE
  // or INDEX slot, a MEMCHECK.G fetch) and the walk's pointer
  // ---------------------------------------------------------------------------------------------
  logic [63:0]        rsp_tb, rsp_size;
  logic [63:0]        p_va, rsp_ebase, rsp_off;
  logic [TagBits-1:0] p_tag;
  logic               rsp_covers, rsp_matches;

  assign rsp_tb    = mem_rsp_data_i[ga_pkg::NodeTbLsb   +: 64];
  assign rsp_size  = mem_rsp_data_i[ga_pkg::NodeSizeLsb +: 64];
  assign p_tag     = ptr_q[63:V];
  assign p_va      = {{TagBits{1'b0}}, ptr_q[V-1:0]};
  assign rsp_ebase = {{TagBits{1'b0}}, rsp_tb[V-1:0]};
  assign rsp_off   = p_va - rsp_ebase;
  if (EndForm == 0) begin : gen_m3_spec
    assign rsp_covers  = (p_va >= rsp_ebase) && (rsp_off < rsp_size);               // M3
  end else begin : gen_m3_end
    // The same function (given va >= ebase, va - ebase is exact): a narrow operand gives a narrow
    // carry chain (ga_mlb EndForm; docs/fpga.md §5.4).
    assign rsp_covers = (p_va >= rsp_ebase) &&                                         // M3
                        ({1'b0, p_va} < ({1'b0, rsp_ebase} + {1'b0, rsp_size}));
  end
  assign rsp_matches = rsp_covers && (p_tag != '0) && (p_tag != TagFreed)            // M1
                       && (p_tag == rsp_tb[63:V]);                                   // M2

  // ---------------------------------------------------------------------------------------------
  // Per-layout blocks. Each says, for a job starting with its layout, how the walk begins
  // (*_st_*: end now with a status, or the first request), and, for the last beat of a response
  // without an error, what the read means (*_ent: an entry read, whose covering entry ends the walk
  // FOUND / RANGE_ONLY) and what comes next when it does not end there (*_end / *_status, or the
  // next request *_next / *_len). The FSM below is shared; the layout register selects the block.
  // ---------------------------------------------------------------------------------------------

  // The checks that precede every LIST/BST read (spec §3.3 steps 1-3), applied to pointer n with
  // the read count so far: {1, status} ends the walk, {0, -} requests the read.
  function automatic logic [ga_pkg::WalkStW:0] pre_check(input logic [63:0] n,
                                                         input logic [ga_pkg::StepW-1:0] steps,
                                                         input logic [ga_pkg::StepW-1:0] limit);
    if (n == 64'd0) begin
      pre_check = {1'b1, ga_pkg::WALK_NOT_FOUND};     // 1. null pointer
    end else if (n[4:0] != 5'd0) begin
      pre_check = {1'b1, ga_pkg::WALK_FAULT};         // 2. misaligned node, no read
    end else if (steps == limit) begin
      pre_check = {1'b1, ga_pkg::WALK_STEP_LIMIT};    // 3. step limit, no read
    end else begin
      pre_check = {1'b0, ga_pkg::WALK_FOUND};         // read it (status unused)
    end
  endfunction

  // --- LIST / BST: one 32-byte node per read (spec §3.3 steps 1-6) -----------------------------
  logic [63:0]              rsp_p0, rsp_p1, lb_next;
  logic [ga_pkg::WalkStW:0] lb_pre_root, lb_pre_next;
  assign rsp_p0 = mem_rsp_data_i[ga_pkg::NodeP0Lsb +: 64];   // LIST next / BST left
  assign rsp_p1 = mem_rsp_data_i[ga_pkg::NodeP1Lsb +: 64];   // BST right
  // Spec §3.3 step 6: LIST follows next; BST goes left when va < ebase, else right.
  assign lb_next = (layout_q == ga_pkg::LAYOUT_BST && !(p_va < rsp_ebase)) ? rsp_p1 : rsp_p0;
  assign lb_pre_root = pre_check(start_root_i, '0, start_limit_i);
  assign lb_pre_next = pre_check(lb_next, steps_q, limit_q);

  // --- TABLE: the oracle's slot, one 16-byte read (the oracle step is in the FSM) ---------------
  // A slot that does not cover va(p) ends NOT_FOUND; nothing else to decode.

  // --- INDEX: 128-byte nodes in IxBeats beats, then one 16-byte slot, in the live index and,
  // after a miss there, in the freed index (spec §2.3, §3.3) -------------------------------------
  logic                         ix_st_end;      // start: end at once (ROOT misaligned, limit 0)
  logic [ga_pkg::WalkStW-1:0]   ix_st_status;
  logic                         ix_node;        // the outstanding read is an index node (not the slot)
  logic                         ix_end;         // last beat of a node: the walk ends with ix_status
  logic [ga_pkg::WalkStW-1:0]   ix_status;
  logic [63:0]                  ix_next;        // else the next read: child node or slot
  logic [ga_pkg::MemLenW-1:0]   ix_len;
  logic                         ix_freed;       // the node was empty (none): the walk's phase is freed
  logic [63:0]                  ix_froot;       // the freed index's root, ROOT - 128
  logic                         ix_none_end;    // none (empty node, slot not covering): end now
  logic [ga_pkg::WalkStW-1:0]   ix_none_status; //   with this status, else read the freed root

  if (HasIndex != 0) begin : gen_index
    // Node fields (spec §2.3): byte 0 count, 1 kind, 2..3 reserved, 4 + 4 j ref[j] (j = 0..10),
    // 48 + 8 (i - 1) key[i] (i = 1..10). A field never straddles two beats (BeatBytes >= 32 is a
    // multiple of 8); the beat that holds it is a constant of the field.
    localparam int Fan = ga_pkg::IdxFan;
    logic [7:0]        cnt_q, cnt_d;           // count, from beat 0
    logic              kind_in_q, kind_in_d;   // kind (1: inner), from beat 0
    logic              bad_q, bad_d;           // header malformed
    logic [3:0]        j_q, j_d;               // the ref chosen so far (spec §3.3 step 6)
    logic [Fan*32-1:0] refs_q, refs_d;         // the refs that have arrived
    logic [7:0]        cnt_c;
    logic [31:0]       ref_sel;
    logic              to_freed;                // loc_sel is the freed root (an empty node, the slot)
    logic [63:0]       loc_sel;
    logic              last_beat;

    assign last_beat = (32'(beat_q) == IxBeats - 1);
    assign ix_node   = (len_q == ga_pkg::MEM_LEN_128);

    // Decode of one beat: the header (beat 0), the refs and keys it holds; j keeps the largest i in
    // 1 .. c-1 with key[i] <= va(p), later keys overriding earlier ones (keys arrive in order of i).
    `GA_ALWAYS_COMB begin
      cnt_d     = cnt_q;
      kind_in_d = kind_in_q;
      bad_d     = bad_q;
      j_d       = j_q;
      refs_d    = refs_q;
      if (beat_q == '0) begin
        cnt_d     = mem_rsp_data_i[7:0];
        kind_in_d = mem_rsp_data_i[8];
        bad_d     = (mem_rsp_data_i[7:0] > 8'(Fan)) || (mem_rsp_data_i[15:8] > 8'd1) ||
                    (mem_rsp_data_i[31:16] != 16'd0);
        j_d       = 4'd0;
      end
      cnt_c = cnt_d;
      for (int j = 0; j < Fan; j++) begin
        if (32'(beat_q) == (4 + 4 * j) / BeatBytes) begin
          refs_d[j*32 +: 32] = mem_rsp_data_i[((4 + 4 * j) % BeatBytes) * 8 +: 32];
        end
      end
      for (int i = 1; i < Fan; i++) begin
        if (32'(beat_q) == (48 + 8 * (i - 1)) / BeatBytes && 8'(i) < cnt_c &&
            mem_rsp_data_i[((48 + 8 * (i - 1)) % BeatBytes) * 8 +: 64] <= p_va) begin
          j_d = 4'(i);
        end
      end
    end

    // After the last beat (spec §3.3 steps 4-9): L = ROOT + 16 ref[j].
    `GA_ALWAYS_COMB begin
      ref_sel = 32'd0;
      for (int j = 0; j < Fan; j++) begin
        if (j_d == 4'(j)) ref_sel = refs_d[j*32 +: 32];
      end
    end

    // *None* (spec §3.3 steps 5 and 9, and the *None* paragraph): in the live phase the walk goes
    // on at the freed index's root, n <- ROOT - 128 (mod 2^64), after step 2's check (steps =
    // STEP_LIMIT ends STEP_LIMIT, no read; steps keep counting across the phases); in the freed
    // phase it ends NOT_FOUND. Step 1 needs no check here: ROOT passed the start's mod-128 check
    // (a walk with ROOT mod 128 != 0 ends FAULT before its first read), so ROOT - 128 is 128-byte
    // aligned as well. Refs in both indexes stay offsets from ROOT.
    // One adder for both: L = ROOT + 16 ref[j] (step 7, modulo 2^64), or, after an empty node or
    // at the slot's response (to_freed), ROOT - 128 = ROOT + (2^64 - 128): the second operand's
    // bits are the ref's or constants, so the choice is a gate per bit, not a second adder.
    assign to_freed = !ix_node || (cnt_d == 8'd0);
    assign loc_sel  = root_q + (to_freed ? {{57{1'b1}}, 7'd0} : {28'd0, ref_sel, 4'd0});
    assign ix_froot = loc_sel;                                    // read only when to_freed
    assign ix_none_end    = phase_q || (steps_q == limit_q);                // 2. in the live phase
    assign ix_none_status = phase_q ? ga_pkg::WALK_NOT_FOUND : ga_pkg::WALK_STEP_LIMIT;

    `GA_ALWAYS_COMB begin
      ix_end    = 1'b0;
      ix_status = ga_pkg::WALK_NOT_FOUND;
      ix_next   = loc_sel;
      ix_len    = kind_in_d ? ga_pkg::MEM_LEN_128 : ga_pkg::MEM_LEN_16;
      ix_freed  = 1'b0;
      if (!last_beat) begin
        ix_end    = 1'b0;                                 // more beats to come
      end else if (bad_d) begin
        ix_end    = 1'b1;                                 // 4. malformed header
        ix_status = ga_pkg::WALK_FAULT;
      end else if (cnt_d == 8'd0) begin
        ix_end    = ix_none_end;                          // 5. empty node: none, the end or
        ix_status = ix_none_status;                       //    the freed root next (ix_next =
        ix_len    = ga_pkg::MEM_LEN_128;                  //    loc_sel = ROOT - 128, 128 bytes)
        ix_freed  = 1'b1;
      end else if (kind_in_d && loc_sel[6:0] != 7'd0) begin
        ix_end    = 1'b1;                                 // 8. -> 1. misaligned child, no read
        ix_status = ga_pkg::WALK_FAULT;
      end else if (steps_q == limit_q) begin
        ix_end    = 1'b1;                                 // 8. -> 2. / 9. step limit, no read
        ix_status = ga_pkg::WALK_STEP_LIMIT;
      end
    end

    // Start (spec §3.3 steps 1-2 for n = ROOT).
    `GA_ALWAYS_COMB begin
      ix_st_end    = 1'b0;
      ix_st_status = ga_pkg::WALK_FAULT;
      if (start_root_i[6:0] != 7'd0) begin
        ix_st_end    = 1'b1;
        ix_st_status = ga_pkg::WALK_FAULT;
      end else if (start_limit_i == '0) begin
        ix_st_end    = 1'b1;
        ix_st_status = ga_pkg::WALK_STEP_LIMIT;
      end
    end

    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        cnt_q     <= '0;
        kind_in_q <= 1'b0;
        bad_q     <= 1'b0;
        j_q       <= '0;
        refs_q    <= '0;
      end else if (state_q == W_MEM_WAIT && mem_rsp_valid_i && ix_node) begin
        cnt_q     <= cnt_d;
        kind_in_q <= kind_in_d;
        bad_q     <= bad_d;
        j_q       <= j_d;
        refs_q    <= refs_d;
      end
    end
  end else begin : gen_no_index
    assign ix_st_end    = 1'b1;                 // never reached: the register refuses LAYOUT 3
    assign ix_st_status = ga_pkg::WALK_FAULT;
    assign ix_node      = 1'b0;
    assign ix_end       = 1'b1;
    assign ix_status    = ga_pkg::WALK_FAULT;
    assign ix_next      = '0;
    assign ix_len       = ga_pkg::MEM_LEN_16;
    assign ix_freed     = 1'b0;
    assign ix_froot     = '0;
    assign ix_none_end  = 1'b1;
    assign ix_none_status = ga_pkg::WALK_FAULT;
  end

  // The layout register selects the block (a WK_FETCH job is one 16-byte entry read).
  logic lay_lb, lay_table, lay_index;
  assign lay_lb    = (layout_q == ga_pkg::LAYOUT_LIST || layout_q == ga_pkg::LAYOUT_BST);
  assign lay_table = (layout_q == ga_pkg::LAYOUT_TABLE);
  assign lay_index = (HasIndex != 0) && (layout_q == ga_pkg::LAYOUT_INDEX);

  logic rsp_last;                               // this beat ends the outstanding read
  assign rsp_last = !(kind_q == ga_pkg::WK_WALK && lay_index && ix_node) ||
                    (32'(beat_q) == IxBeats - 1);

  // ---------------------------------------------------------------------------------------------
  // Next state
  // ---------------------------------------------------------------------------------------------
  `GA_ALWAYS_COMB begin
    state_d  = state_q;
    kind_d   = kind_q;
    layout_d = layout_q;
    ptr_d    = ptr_q;
    root_d   = root_q;
    limit_d  = limit_q;
    node_d   = node_q;
    len_d    = len_q;
    steps_d  = steps_q;
    phase_d  = phase_q;
    beat_d   = beat_q;
    berr_d   = berr_q;
    status_d = status_q;
    loc_d    = loc_q;
    tb_d     = tb_q;
    size_d   = size_q;

    case (state_q)
      W_IDLE, W_DONE: begin
        // DONE holds its result until acknowledged; IDLE waits. A start is taken in IDLE, or in
        // DONE together with the acknowledgement.
        if (state_q == W_DONE && ack_i) begin
          state_d = W_IDLE;
        end
        if (start_i) begin
          kind_d   = start_kind_i;
          layout_d = start_layout_i;
          ptr_d    = start_ptr_i;
          root_d   = start_root_i;
          limit_d  = start_limit_i;
          steps_d  = '0;
          phase_d  = 1'b0;                             // INDEX: the live index first
          beat_d   = '0;
          berr_d   = 1'b0;
          status_d = ga_pkg::WALK_NOT_FOUND;
          loc_d    = '0;
          tb_d     = '0;
          size_d   = '0;
          if (start_kind_i == ga_pkg::WK_FETCH) begin
            // spec §4.2 step 1: a misaligned md fails without a read
            node_d = start_ptr_i;
            len_d  = ga_pkg::MEM_LEN_16;
            if (start_ptr_i[3:0] != 4'd0) begin
              state_d  = W_DONE;
              status_d = ga_pkg::WALK_FAULT;
            end else begin
              state_d = W_MEM_REQ;
            end
          end else if (start_layout_i == ga_pkg::LAYOUT_TABLE) begin
            state_d = W_ORC_REQ;
          end else if (start_layout_i == ga_pkg::LAYOUT_LIST ||
                       start_layout_i == ga_pkg::LAYOUT_BST) begin
            node_d    = start_root_i;
            len_d     = ga_pkg::MEM_LEN_32;
            if (lb_pre_root[ga_pkg::WalkStW]) begin
              state_d  = W_DONE;
              status_d = lb_pre_root[ga_pkg::WalkStW-1:0];
            end else begin
              state_d = W_MEM_REQ;
            end
          end else if (HasIndex != 0 && start_layout_i == ga_pkg::LAYOUT_INDEX) begin
            node_d    = start_root_i;
            len_d     = ga_pkg::MEM_LEN_128;
            if (ix_st_end) begin
              state_d  = W_DONE;
              status_d = ix_st_status;
            end else begin
              state_d = W_MEM_REQ;
            end
          end else begin
            state_d  = W_DONE;                         // illegal layout: fail closed, no read
            status_d = ga_pkg::WALK_FAULT;
          end
        end
      end

      W_ORC_REQ, W_ORC_WAIT: begin
        if (state_q == W_ORC_REQ && orc_req_ready_i) begin
          state_d = W_ORC_WAIT;
        end
        if ((state_q == W_ORC_REQ && orc_req_ready_i) || state_q == W_ORC_WAIT) begin
          if (orc_rsp_valid_i) begin
            node_d = root_q + (orc_rsp_idx_i << 4);   // ROOT + 16 i, modulo 2^64
            len_d  = ga_pkg::MEM_LEN_16;
            if (!orc_rsp_found_i) begin
              state_d  = W_DONE;
              status_d = ga_pkg::WALK_NOT_FOUND;
            end else if (root_q[3:0] != 4'd0) begin
              state_d  = W_DONE;
              status_d = ga_pkg::WALK_FAULT;
            end else begin
              state_d = W_MEM_REQ;
            end
          end
        end
      end

      W_MEM_REQ: begin
        if (mem_req_ready_i) begin
          state_d = W_MEM_WAIT;
          steps_d = steps_q + 1'b1;
          beat_d  = '0;
          berr_d  = 1'b0;
        end
      end

      W_MEM_WAIT: begin
        if (mem_rsp_valid_i) begin
          if (mem_rsp_err_i) begin
            berr_d = 1'b1;                             // the read fails, after its last beat
          end
          if (!rsp_last) begin
            beat_d = beat_q + 1'b1;                    // more beats of this read to come
          end else if (berr_d) begin
            state_d  = W_DONE;
            status_d = ga_pkg::WALK_FAULT;
          end else if (kind_q == ga_pkg::WK_FETCH) begin
            state_d  = W_DONE;
            status_d = ga_pkg::WALK_FOUND;
            loc_d    = node_q;
            tb_d     = rsp_tb;
            size_d   = rsp_size;
          end else if (lay_index && ix_node) begin
            // an index node: the INDEX block decides (no entry in it)
            node_d = ix_next;
            len_d  = ix_len;
            if (ix_freed) begin
              phase_d = 1'b1;                          // spec §3.3 *None*: phase <- freed
            end
            if (ix_end) begin
              state_d  = W_DONE;
              status_d = ix_status;
            end else begin
              state_d = W_MEM_REQ;
            end
          end else if (rsp_covers) begin
            state_d  = W_DONE;
            status_d = rsp_matches ? ga_pkg::WALK_FOUND : ga_pkg::WALK_RANGE_ONLY;
            loc_d    = node_q;
            tb_d     = rsp_tb;
            size_d   = rsp_size;
          end else if (lay_index) begin
            // INDEX slot not covering (spec §3.3 step 9: none): the live phase goes on at the
            // freed root (128 bytes, after the step-limit check), the freed phase ends NOT_FOUND
            node_d  = ix_froot;
            len_d   = ga_pkg::MEM_LEN_128;
            phase_d = 1'b1;
            if (ix_none_end) begin
              state_d  = W_DONE;
              status_d = ix_none_status;
            end else begin
              state_d = W_MEM_REQ;
            end
          end else if (lay_table || !lay_lb) begin
            state_d  = W_DONE;                         // TABLE slot not covering
            status_d = ga_pkg::WALK_NOT_FOUND;
          end else begin
            node_d    = lb_next;
            if (lb_pre_next[ga_pkg::WalkStW]) begin
              state_d  = W_DONE;
              status_d = lb_pre_next[ga_pkg::WalkStW-1:0];
            end else begin
              state_d = W_MEM_REQ;
            end
          end
        end
      end

      default: begin
        state_d = W_IDLE;
      end
    endcase
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q  <= W_IDLE;
      kind_q   <= ga_pkg::WK_WALK;
      layout_q <= ga_pkg::LAYOUT_BST;
      ptr_q    <= '0;
      root_q   <= '0;
      limit_q  <= ga_pkg::STEP_LIMIT_RESET;
      node_q   <= '0;
      len_q    <= ga_pkg::MEM_LEN_32;
      steps_q  <= '0;
      phase_q  <= 1'b0;
      beat_q   <= '0;
      berr_q   <= 1'b0;
      status_q <= ga_pkg::WALK_NOT_FOUND;
      loc_q    <= '0;
      tb_q     <= '0;
      size_q   <= '0;
    end else begin
      state_q  <= state_d;
      kind_q   <= kind_d;
      layout_q <= layout_d;
      ptr_q    <= ptr_d;
      root_q   <= root_d;
      limit_q  <= limit_d;
      node_q   <= node_d;
      len_q    <= len_d;
      steps_q  <= steps_d;
      phase_q  <= phase_d;
      beat_q   <= beat_d;
      berr_q   <= berr_d;
      status_q <= status_d;
      loc_q    <= loc_d;
      tb_q     <= tb_d;
      size_q   <= size_d;
    end
  end

  // ---------------------------------------------------------------------------------------------
  // Outputs: state only
  // ---------------------------------------------------------------------------------------------
  assign idle_o          = (state_q == W_IDLE);
  assign done_o          = (state_q == W_DONE);
  assign status_o        = status_q;
  assign loc_o           = loc_q;
  assign tb_o            = tb_q;
  assign size_o          = size_q;
  assign steps_o         = steps_q;
  assign mem_req_valid_o = (state_q == W_MEM_REQ);
  assign mem_req_addr_o  = node_q;
  assign mem_req_len_o   = len_q;
  assign mem_rsp_ready_o = (state_q == W_MEM_WAIT);
  assign orc_req_valid_o = (state_q == W_ORC_REQ);
  assign orc_req_va_o    = p_va;

  // ---------------------------------------------------------------------------------------------
  // Assertions (simulation)
  // ---------------------------------------------------------------------------------------------
`ifndef SYNTHESIS
  logic        mem_hold_q;     // last cycle: mem request valid and not ready
  logic [63:0] mem_addr_q;
  logic [ga_pkg::MemLenW-1:0] mem_len_q;
  logic        orc_hold_q;
  logic [63:0] orc_va_q;
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      mem_hold_q <= 1'b0;
      mem_addr_q <= '0;
      mem_len_q  <= '0;
      orc_hold_q <= 1'b0;
      orc_va_q   <= '0;
    end else begin
      mem_hold_q <= mem_req_valid_o && !mem_req_ready_i;
      mem_addr_q <= mem_req_addr_o;
      mem_len_q  <= mem_req_len_o;
      orc_hold_q <= orc_req_valid_o && !orc_req_ready_i;
      orc_va_q   <= orc_req_va_o;
    end
  end

  always @(posedge clk_i or negedge rst_ni) begin
    if (rst_ni) begin
      begin : StateLegal_A
        assert (state_q <= W_DONE)
          else $error("StateLegal_A: state %0d", state_q);
      end
      begin : MemReqStable_A
        assert (!mem_hold_q || (mem_req_valid_o && mem_req_addr_o == mem_addr_q &&
                                mem_req_len_o == mem_len_q))
          else $error("MemReqStable_A: request changed while valid && !ready");
      end
      begin : OrcReqStable_A
        assert (!orc_hold_q || (orc_req_valid_o && orc_req_va_o == orc_va_q))
          else $error("OrcReqStable_A: oracle request changed while valid && !ready");
      end
      // Reads are 32-byte aligned nodes, 128-byte aligned index nodes or 16-byte aligned entries
      // (spec §2.1, §2.3); length code 3 is never issued.
      if (mem_req_valid_o) begin
        begin : MemReqAligned_A
          assert ((mem_req_len_o == ga_pkg::MEM_LEN_16  && mem_req_addr_o[3:0] == 4'd0) ||
                  (mem_req_len_o == ga_pkg::MEM_LEN_32  && mem_req_addr_o[4:0] == 5'd0) ||
                  (mem_req_len_o == ga_pkg::MEM_LEN_128 && mem_req_addr_o[6:0] == 7'd0))
            else $error("MemReqAligned_A: addr %h len %0d", mem_req_addr_o, mem_req_len_o);
        end
      end
      // The walk never reads more than STEP_LIMIT nodes (spec §3.3).
      begin : StepsWithinLimit_A
        assert (kind_q == ga_pkg::WK_FETCH || layout_q == ga_pkg::LAYOUT_TABLE ||
                steps_q <= limit_q)
          else $error("StepsWithinLimit_A: steps %0d limit %0d", steps_q, limit_q);
      end
      begin : StepLimitNonZero_A
        assert (!start_i || start_kind_i == ga_pkg::WK_FETCH || start_limit_i != '0)
          else $error("StepLimitNonZero_A: walk started with STEP_LIMIT 0");
      end
      begin : StartWhenFree_A
        assert (!start_i || state_q == W_IDLE || (state_q == W_DONE && ack_i))
          else $error("StartWhenFree_A: start while busy (state %0d)", state_q);
      end
      begin : AckWhenDone_A
        assert (!ack_i || state_q == W_DONE)
          else $error("AckWhenDone_A: ack without a result");
      end
      begin : MemRspWhenAsked_A
        assert (!mem_rsp_valid_i || state_q == W_MEM_REQ || state_q == W_MEM_WAIT)
          else $error("MemRspWhenAsked_A: memory response with no read outstanding");
      end
    end
  end
`endif

  // ---------------------------------------------------------------------------------------------
  // Formal properties (yosys read_verilog -formal defines FORMAL): rtl/formal/ga_walker_props.svh,
  // docs/verification.md.
  // ---------------------------------------------------------------------------------------------
`ifdef FORMAL
`include "formal/ga_walker_props.svh"
`endif

endmodule : ga_walker
