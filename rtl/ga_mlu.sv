// Copyright GPUArmor contributors.
//
// ga_mlu -- GPUArmor Metadata Loading Unit, one per SM (paper §5.2, Figure 6; spec §3-§6, §8).
//
// Ports: exactly docs/microarchitecture.md §1 (the testbench's contract); §1.7 pins the details.
//
//            req_* (LSU)                                                    rsp_* (LSU)
//                |                                                              ^
//   +------------v------------------------------------------------------+       |
//   | accept stage (one op per cycle)                                    |       |
//   |   decode, config registers, halt, refuse                            |  +----+-----+
//   |   MLB range lookup (LOADMETA) / location lookup (MEMCHECK.G) ----+--+->| response |
//   |   ga_check on the hit entry (MEMCHECK.G/.S, ACCESS strip) -------+  |  | register |
//   |   hit -> response next cycle; miss -> slow op or park register     |  +----^-----+
//   +------+------------------------------+-------------------------------+       |
//          | miss                         | MLB commands, one per cycle           |
//   +------v------+   start/ack   +-------v------+                                |
//   | slow op reg |<------------->|  ga_walker   |<--> mem_* (L1), orc_* (oracle)  |
//   | + park reg  |   result      +--------------+                                |
//   | HWOnly seq. |----- fill / group check / response --------------------------+
//   +-------------+                 ga_mlb <---- ev_* commit log (one event per MLB change)
//
// Pipeline: an operation is accepted when req_valid_i && req_ready_o. In that cycle the MLB lookup
// it needs is made, its LRU touch and its commit-log event commit at the edge that accepts it, and
// (on a hit, or when no lookup is needed) the check runs and the response is registered: the
// response is valid in the next cycle. A miss goes to the slow-op register and starts the walker
// (LOADMETA walk or MEMCHECK.G fetch) in the same cycle; the walker's result completes the op later
// (fill or dropped fill, check, response). While the walker serves that miss, later operations that
// hit are accepted and answered (hit-under-miss; responses carry ids). A second miss is accepted
// into the park register and then the request port stalls until the slow op ends and the parked op
// takes its place. An HWOnly ACCESS is sequenced in the slow-op register (leader loop of spec §5.4);
// it blocks the request port while it looks up leaders, and lets hits through while a leader walks.
//
// Parameters:
//   TagBits     7, 16     pointer tag width (spec §1.1)
//   MlbEntries  1 .. 64   MLB entries (spec §6.1)
//   Lanes       1 .. 32   lanes per warp operation (spec §4.4)
//   IdW         1 .. 16   request id width
//
// Handshakes: all valid/ready ports transfer on a rising edge with valid && ready; every output of
// this module is a register or a function of registers and of *_ready_i only (req_ready_o depends on
// state and rsp_ready_i). Payloads of rsp_* and mem_req_* / orc_req_* are stable while
// valid && !ready (assertions below and in ga_walker).

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

module ga_mlu #(
  parameter int TagBits    = 7,
  parameter int MlbEntries = 8,
  parameter int Lanes      = 32,
  parameter int IdW        = 4
) (
  input  logic                      clk_i,
  input  logic                      rst_ni,

  // Request port (LSU -> MLU), microarchitecture §1.1
  input  logic                      req_valid_i,
  output logic                      req_ready_o,
  input  logic [2:0]                req_op_i,
  input  logic [IdW-1:0]            req_id_i,
  input  logic [15:0]               req_warp_i,
  input  logic [Lanes-1:0]          req_active_i,
  input  logic [64*Lanes-1:0]       req_addr_i,
  input  logic [2:0]                req_size_i,
  input  logic [63:0]               req_md_i,
  input  logic [2:0]                req_cfg_addr_i,

  // Response port (MLU -> LSU), §1.2
  output logic                      rsp_valid_o,
  input  logic                      rsp_ready_i,
  output logic [IdW-1:0]            rsp_id_o,
  output logic [2:0]                rsp_op_o,
  output logic [1:0]                rsp_status_o,
  output logic [63:0]               rsp_rd_o,
  output logic [64*Lanes-1:0]       rsp_addr_o,
  output logic [Lanes-1:0]          rsp_fault_o,
  output logic [2:0]                rsp_exc_kind_o,
  output logic [63:0]               rsp_exc_addr_o,
  output logic [63:0]               rsp_exc_md_o,
  output logic [63:0]               rsp_exc_tb_o,
  output logic [63:0]               rsp_exc_esize_o,
  output logic [2:0]                rsp_exc_size_o,
  output logic [15:0]               rsp_exc_sm_o,
  output logic [15:0]               rsp_exc_warp_o,
  output logic [4:0]                rsp_exc_lane_o,

  // Metadata memory read port (MLU -> L1), §1.3
  output logic                      mem_req_valid_o,
  input  logic                      mem_req_ready_i,
  output logic [63:0]               mem_req_addr_o,
  output logic                      mem_req_len_o,
  input  logic                      mem_rsp_valid_i,
  output logic                      mem_rsp_ready_o,
  input  logic [255:0]              mem_rsp_data_i,
  input  logic                      mem_rsp_err_i,

  // Table oracle port, §1.4
  output logic                      orc_req_valid_o,
  input  logic                      orc_req_ready_i,
  output logic [63:0]               orc_req_va_o,
  input  logic                      orc_rsp_valid_i,
  input  logic                      orc_rsp_found_i,
  input  logic [63:0]               orc_rsp_idx_i,

  // MLB commit log, §1.5
  output logic                      ev_valid_o,
  output logic [2:0]                ev_kind_o,
  output logic [IdW-1:0]            ev_id_o,
  output logic [5:0]                ev_slot_o,
  output logic [4:0]                ev_lane_o,

  // Status, §1.6
  output logic                      halted_o,
  output logic                      cfg_mode_o,
  output logic [1:0]                cfg_layout_o,
  output logic [63:0]               cfg_root_o,
  output logic [31:0]               cfg_step_limit_o,
  output logic                      cfg_policy_o,
  output logic [15:0]               cfg_sm_id_o,
  output logic [4:0]                cfg_tag_bits_o
);

  localparam int V    = 64 - TagBits;
  localparam int IdxW = (MlbEntries > 1) ? $clog2(MlbEntries) : 1;
  localparam int AW   = 64 * Lanes;
  // F = 2^T - 1, written as a replication: Yosys 0.23 elaborates a '1 localparam initialiser as
  // the one-bit value 1 (F was 0x01 in every Yosys netlist; found by the formal proof of ga_check).
  localparam logic [TagBits-1:0] TagFreed = {TagBits{1'b1}};

  // ---------------------------------------------------------------------------------------------
  // Elaboration-time parameter checks (Icarus 11: at time 0, see ga_mlb)
  // ---------------------------------------------------------------------------------------------
  localparam bit ParamsBad = (TagBits != 7 && TagBits != 16) || (MlbEntries < 1) ||
                             (MlbEntries > 64) || (Lanes < 1) || (Lanes > 32) || (IdW < 1) ||
                             (IdW > 16);
`ifdef __ICARUS__
  initial begin
    if (ParamsBad) $fatal(1, "ga_mlu: TagBits 7|16, MlbEntries 1..64, Lanes 1..32, IdW 1..16");
  end
`else
  if (ParamsBad) begin : gen_bad_params
    $error("ga_mlu: TagBits 7|16, MlbEntries 1..64, Lanes 1..32, IdW 1..16");
  end
`endif

  // ---------------------------------------------------------------------------------------------
  // Types
  // ---------------------------------------------------------------------------------------------
  // What an accepted operation that has to wait keeps: its request and the configuration it was
  // accepted under (microarchitecture §1.7: acceptance is the commit point).
  typedef struct packed {
    logic [IdW-1:0]             id;
    logic [15:0]                warp;
    logic [Lanes-1:0]           active;
    logic [Lanes-1:0]           pend;      // active lanes with a non-zero tag
    logic [AW-1:0]              addr;
    logic [2:0]                 size;
    logic [63:0]                md;        // MEMCHECK.G Rb
    logic [15:0]                sm;
    logic                       policy;
    logic [1:0]                 layout;
    logic [63:0]                root;
    logic [31:0]                limit;
  } ctx_t;

  // Slow-op register: the one operation that owns the walker (or the HWOnly sequencer).
  typedef enum logic [2:0] {
    SL_IDLE    = 3'd0,  // free; the walker is idle
    SL_LM      = 3'd1,  // LOADMETA whose range lookup missed: waiting for its walk
    SL_MG      = 3'd2,  // MEMCHECK.G whose location lookup missed: waiting for its fetch
    SL_HW_ITER = 3'd3,  // HWOnly ACCESS: one leader per cycle (request port blocked)
    SL_HW_WALK = 3'd4   // HWOnly ACCESS: waiting for the walk of leader hw_lead_q
  } sl_state_e;

  // Park register: one accepted operation waiting for the slow-op register.
  typedef enum logic [1:0] {
    PK_EMPTY = 2'd0,    // empty; the request port may accept
    PK_LM    = 2'd1,    // LOADMETA, range miss already committed: walk when the walker frees
    PK_MG    = 2'd2,    // MEMCHECK.G, location miss already committed: fetch when it frees
    PK_HW    = 2'd3     // HWOnly ACCESS, nothing committed yet
  } pk_state_e;

  // ---------------------------------------------------------------------------------------------
  // State
  // ---------------------------------------------------------------------------------------------
  // Configuration registers (spec §5.1) and the halt (spec §4.5)
  logic                 mode_q, mode_d;
  logic [1:0]           layout_q, layout_d;
  logic [63:0]          root_q, root_d;
  logic [31:0]          limit_q, limit_d;
  logic                 policy_q, policy_d;
  logic [15:0]          sm_q, sm_d;
  logic                 halted_q, halted_d;

  // Response register
  logic                 rsp_valid_q, rsp_valid_d;
  logic [IdW-1:0]       rsp_id_q, rsp_id_d;
  logic [2:0]           rsp_op_q, rsp_op_d;
  logic [1:0]           rsp_status_q, rsp_status_d;
  logic [63:0]          rsp_rd_q, rsp_rd_d;
  logic [AW-1:0]        rsp_addr_q, rsp_addr_d;
  logic [Lanes-1:0]     rsp_fault_q, rsp_fault_d;
  logic [2:0]           rsp_kind_q, rsp_kind_d;
  logic [63:0]          rsp_eaddr_q, rsp_eaddr_d;
  logic [63:0]          rsp_md_q, rsp_md_d;
  logic [63:0]          rsp_tb_q, rsp_tb_d;
  logic [63:0]          rsp_esize_q, rsp_esize_d;
  logic [2:0]           rsp_size_q, rsp_size_d;
  logic [15:0]          rsp_sm_q, rsp_sm_d;
  logic [15:0]          rsp_warp_q, rsp_warp_d;
  logic [4:0]           rsp_lane_q, rsp_lane_d;

  // Commit-log register
  logic                 ev_valid_q, ev_valid_d;
  logic [2:0]           ev_kind_q, ev_kind_d;
  logic [IdW-1:0]       ev_id_q, ev_id_d;
  logic [5:0]           ev_slot_q, ev_slot_d;
  logic [4:0]           ev_lane_q, ev_lane_d;

  // Slow-op register, its race bit (spec §6.5) and the HWOnly sequencer state
  sl_state_e            sl_state_q, sl_state_d;
  ctx_t                 sl_q, sl_d;
  logic                 sl_dirty_q, sl_dirty_d;     // INVAL/FLUSH since the miss committed
  logic [Lanes-1:0]     hw_pend_q, hw_pend_d;       // lanes still to decide
  logic [Lanes-1:0]     hw_fault_q, hw_fault_d;     // lanes that failed
  logic [2:0]           hw_kind_q, hw_kind_d;       // record of the lowest failing lane so far
  logic [4:0]           hw_lane_q, hw_lane_d;
  logic [63:0]          hw_eaddr_q, hw_eaddr_d;
  logic [63:0]          hw_md_q, hw_md_d;
  logic [63:0]          hw_tb_q, hw_tb_d;
  logic [63:0]          hw_esize_q, hw_esize_d;
  logic [4:0]           hw_lead_q, hw_lead_d;       // leader lane of the walk in flight

  // Park register
  pk_state_e            pk_state_q, pk_state_d;
  ctx_t                 pk_q, pk_d;
  logic                 pk_dirty_q, pk_dirty_d;

  // ---------------------------------------------------------------------------------------------
  // Request decode (payload of the request port; used only in the accepting cycle)
  // ---------------------------------------------------------------------------------------------
  logic                 req_fire;
  logic                 slot_free;      // the response register can take a response this cycle
  logic [63:0]          req_p0;         // lane 0 (LOADMETA)
  logic [TagBits-1:0]   req_t0;
  logic [Lanes-1:0]     req_pend;       // active lanes with a non-zero tag
  ctx_t                 req_ctx;

  assign slot_free = !rsp_valid_q || rsp_ready_i;
  assign req_fire  = req_valid_i && req_ready_o;
  assign req_p0    = req_addr_i[63:0];
  assign req_t0    = req_p0[63:V];

  for (genvar l = 0; l < Lanes; l++) begin : gen_req_tag
    assign req_pend[l] = req_active_i[l] && (req_addr_i[64*l + V +: TagBits] != '0);
  end

  `GA_ALWAYS_COMB begin
    req_ctx        = '0;
    req_ctx.id     = req_id_i;
    req_ctx.warp   = req_warp_i;
    req_ctx.active = req_active_i;
    req_ctx.pend   = req_pend;
    req_ctx.addr   = req_addr_i;
    req_ctx.size   = req_size_i;
    req_ctx.md     = req_md_i;
    req_ctx.sm     = sm_q;
    req_ctx.policy = policy_q;
    req_ctx.layout = layout_q;
    req_ctx.root   = root_q;
    req_ctx.limit  = limit_q;
  end

  // ---------------------------------------------------------------------------------------------
  // HWOnly leader (spec §5.4): the lowest pending lane
  // ---------------------------------------------------------------------------------------------
  logic [4:0]           hw_k;           // lowest lane of hw_pend_q
  logic [4:0]           lead_sel;       // hw_k while iterating, hw_lead_q while walking
  logic [63:0]          lead_addr;
  logic [TagBits-1:0]   lead_tag;

  `GA_ALWAYS_COMB begin
    hw_k = '0;
    for (int l = Lanes - 1; l >= 0; l--) begin
      if (hw_pend_q[l]) begin
        hw_k = 5'(l);
      end
    end
  end
  logic [AW-1:0]        sl_addr;        // (a plain vector: Icarus 11 cannot index struct members)
  assign sl_addr  = sl_q.addr;
  assign lead_sel = (sl_state_q == SL_HW_WALK) ? hw_lead_q : hw_k;
  `GA_ALWAYS_COMB begin
    lead_addr = '0;
    for (int l = 0; l < Lanes; l++) begin
      if (lead_sel == 5'(l)) begin
        lead_addr = sl_addr[64*l +: 64];
      end
    end
  end
  assign lead_tag = lead_addr[63:V];

  // ---------------------------------------------------------------------------------------------
  // Walker
  // ---------------------------------------------------------------------------------------------
  logic                 w_start, w_kind, w_ack;
  logic [63:0]          w_ptr, w_root;
  logic [1:0]           w_layout;
  logic [31:0]          w_limit;
  logic                 w_idle, w_done;
  logic [2:0]           w_status;
  logic [63:0]          w_loc, w_tb, w_size;
  logic [31:0]          w_steps;
  logic                 w_found;

  ga_walker #(
    .TagBits (TagBits)
  ) u_walker (
    .clk_i,
    .rst_ni,
    .start_i         (w_start),
    .start_kind_i    (w_kind),
    .start_ptr_i     (w_ptr),
    .start_layout_i  (w_layout),
    .start_root_i    (w_root),
    .start_limit_i   (w_limit),
    .idle_o          (w_idle),
    .done_o          (w_done),
    .ack_i           (w_ack),
    .status_o        (w_status),
    .loc_o           (w_loc),
    .tb_o            (w_tb),
    .size_o          (w_size),
    .steps_o         (w_steps),
    .mem_req_valid_o,
    .mem_req_ready_i,
    .mem_req_addr_o,
    .mem_req_len_o,
    .mem_rsp_valid_i,
    .mem_rsp_ready_o,
    .mem_rsp_data_i,
    .mem_rsp_err_i,
    .orc_req_valid_o,
    .orc_req_ready_i,
    .orc_req_va_o,
    .orc_rsp_valid_i,
    .orc_rsp_found_i,
    .orc_rsp_idx_i
  );

  assign w_found = (w_status == ga_pkg::WALK_FOUND);

  // ---------------------------------------------------------------------------------------------
  // MLB
  // ---------------------------------------------------------------------------------------------
  logic [63:0]                  mlb_rng_ptr;
  logic                         rng_hit, loc_hit;
  logic [IdxW-1:0]              rng_idx, loc_idx, fill_idx;
  logic [63:0]                  rng_tb, rng_size, rng_loc, loc_tb, loc_size;
  logic [ga_pkg::MlbOpW-1:0]    mlb_op;
  logic [IdxW-1:0]              mlb_idx;
  logic [63:0]                  mlb_loc;

  // The range lookup serves the HWOnly leader while the sequencer iterates (the request port is
  // then closed), else LOADMETA's lane 0. Fills only happen when the walker hands back a result
  // (request port closed), so the update location is the walker's, else INVALIDATE's md.
  assign mlb_rng_ptr = (sl_state_q == SL_HW_ITER) ? lead_addr : req_p0;
  assign mlb_loc     = w_done ? w_loc : req_md_i;

  ga_mlb #(
    .TagBits (TagBits),
    .Entries (MlbEntries)
  ) u_mlb (
    .clk_i,
    .rst_ni,
    .rng_ptr_i   (mlb_rng_ptr),
    .rng_hit_o   (rng_hit),
    .rng_idx_o   (rng_idx),
    .rng_tb_o    (rng_tb),
    .rng_size_o  (rng_size),
    .rng_loc_o   (rng_loc),
    .loc_i       (req_md_i),
    .loc_hit_o   (loc_hit),
    .loc_idx_o   (loc_idx),
    .loc_tb_o    (loc_tb),
    .loc_size_o  (loc_size),
    .upd_op_i    (mlb_op),
    .upd_idx_i   (mlb_idx),
    .upd_tb_i    (w_tb),
    .upd_size_i  (w_size),
    .upd_loc_i   (mlb_loc),
    .fill_idx_o  (fill_idx)
  );

  // ---------------------------------------------------------------------------------------------
  // Check logic: the accept stage, the MEMCHECK.G fetch completion and the HWOnly groups share one
  // ga_check; the slow users only run in cycles where the request port is closed.
  // ---------------------------------------------------------------------------------------------
  logic                 chk_slow;      // the slow-op register drives the check this cycle
  logic                 chk_shared, chk_group;
  logic [Lanes-1:0]     chk_active;
  logic [AW-1:0]        chk_addr;
  logic [2:0]           chk_size;
  logic [1:0]           chk_md_state;
  logic [63:0]          chk_etb, chk_esize;
  logic [AW-1:0]        chk_strip;
  logic [Lanes-1:0]     chk_match, chk_fault;
  logic                 chk_first_valid;
  logic [4:0]           chk_first_lane;
  logic [2:0]           chk_first_kind;
  logic [63:0]          chk_first_addr;

  assign chk_slow   = (sl_state_q == SL_HW_ITER) ||
                      (w_done && (sl_state_q == SL_MG || sl_state_q == SL_HW_WALK));
  assign chk_shared = !chk_slow && (req_op_i == ga_pkg::OP_MEMCHECK_S);
  assign chk_group  = chk_slow && (sl_state_q != SL_MG);
  assign chk_active = !chk_slow ? req_active_i :
                      (sl_state_q == SL_MG) ? sl_q.active : hw_pend_q;
  assign chk_addr   = chk_slow ? sl_q.addr : req_addr_i;
  assign chk_size   = chk_slow ? sl_q.size : req_size_i;

  `GA_ALWAYS_COMB begin
    if (sl_state_q == SL_HW_ITER) begin
      chk_md_state = ga_pkg::MD_OK;                    // leader's MLB range hit
      chk_etb      = rng_tb;
      chk_esize    = rng_size;
    end else if (chk_slow) begin
      chk_md_state = w_found ? ga_pkg::MD_OK : ga_pkg::MD_FAULT;   // walk or fetch result
      chk_etb      = w_tb;
      chk_esize    = w_size;
    end else if (req_op_i == ga_pkg::OP_MEMCHECK_S) begin
      chk_md_state = ga_pkg::MD_OK;                    // unused by the shared rules
      chk_etb      = {32'd0, req_md_i[31:0]};          // Rb: shared base
      chk_esize    = {32'd0, req_md_i[63:32]};         // Rc: shared size
    end else if (req_md_i == 64'd0) begin
      chk_md_state = ga_pkg::MD_NONE;                  // G2
      chk_etb      = '0;
      chk_esize    = '0;
    end else if (req_md_i[3:0] != 4'd0) begin
      chk_md_state = ga_pkg::MD_FAULT;                 // G3: misaligned Rb, no lookup
      chk_etb      = '0;
      chk_esize    = '0;
    end else begin
      chk_md_state = ga_pkg::MD_OK;                    // used only on a location hit
      chk_etb      = loc_tb;
      chk_esize    = loc_size;
    end
  end

  ga_check #(
    .TagBits (TagBits),
    .Lanes   (Lanes)
  ) u_check (
    .shared_i      (chk_shared),
    .group_i       (chk_group),
    .active_i      (chk_active),
    .addr_i        (chk_addr),
    .size_i        (chk_size),
    .md_state_i    (chk_md_state),
    .etb_i         (chk_etb),
    .esize_i       (chk_esize),
    .strip_o       (chk_strip),
    .match_o       (chk_match),
    .fault_o       (chk_fault),
    .first_valid_o (chk_first_valid),
    .first_lane_o  (chk_first_lane),
    .first_kind_o  (chk_first_kind),
    .first_addr_o  (chk_first_addr)
  );

  // ---------------------------------------------------------------------------------------------
  // Request port ready: a response slot, no parked op, no sequencer iteration, no walker result
  // being handed back (those cycles own the MLB update, the check and the response register).
  // ---------------------------------------------------------------------------------------------
  assign req_ready_o = slot_free && (pk_state_q == PK_EMPTY) && (sl_state_q != SL_HW_ITER) &&
                       !w_done;

  // Configuration write legality (spec §5.1; microarchitecture §1.7)
  function automatic logic cfg_legal(input logic [2:0] a, input logic [63:0] v);
    case (a)
      ga_pkg::CFG_MODE:       cfg_legal = (v[63:1] == '0);
      ga_pkg::CFG_LAYOUT:     cfg_legal = (v[63:2] == '0) && (v[1:0] != 2'd3);
      ga_pkg::CFG_ROOT:       cfg_legal = 1'b1;
      ga_pkg::CFG_STEP_LIMIT: cfg_legal = (v[63:32] == '0) && (v[31:0] != 32'd0);
      ga_pkg::CFG_POLICY:     cfg_legal = (v[63:1] == '0);
      ga_pkg::CFG_SM_ID:      cfg_legal = (v[63:16] == '0);
      default:                cfg_legal = 1'b0;
    endcase
  endfunction

  // ---------------------------------------------------------------------------------------------
  // Next state
  // ---------------------------------------------------------------------------------------------
  // Staging of this cycle's response (r_*), event (e_*) and HWOnly record candidate (c_*).
  logic                 r_set;
  logic [IdW-1:0]       r_id;
  logic [2:0]           r_op;
  logic [1:0]           r_status;
  logic [63:0]          r_rd;
  logic [AW-1:0]        r_addr;
  logic [Lanes-1:0]     r_fault;
  logic [2:0]           r_kind;
  logic [63:0]          r_eaddr, r_md, r_tb, r_esize;
  logic [2:0]           r_size;
  logic [15:0]          r_sm, r_warp;
  logic [4:0]           r_lane;
  logic                 r_policy;
  logic                 e_set;
  logic [2:0]           e_kind;
  logic [IdW-1:0]       e_id;
  logic [5:0]           e_slot;
  logic [4:0]           e_lane;
  logic                 c_set;          // a lane or group of lanes was decided
  logic [Lanes-1:0]     c_fault;        // ... these of them failed
  logic [Lanes-1:0]     c_done;         // ... these were decided
  logic [4:0]           c_lane;         // lowest failing lane of the candidate
  logic [2:0]           c_kind;
  logic [63:0]          c_eaddr, c_md, c_tb, c_esize;
  logic                 sl_end;         // the slow op ends this cycle
  logic                 hw_try_end;     // the HWOnly op may respond this cycle if nothing is left
  logic [Lanes-1:0]     lead_oh;

  `GA_ALWAYS_COMB begin
    // ---- defaults: hold state ----
    mode_d     = mode_q;
    layout_d   = layout_q;
    root_d     = root_q;
    limit_d    = limit_q;
    policy_d   = policy_q;
    sm_d       = sm_q;
    halted_d   = halted_q;

    rsp_valid_d  = rsp_valid_q && !rsp_ready_i;
    rsp_id_d     = rsp_id_q;
    rsp_op_d     = rsp_op_q;
    rsp_status_d = rsp_status_q;
    rsp_rd_d     = rsp_rd_q;
    rsp_addr_d   = rsp_addr_q;
    rsp_fault_d  = rsp_fault_q;
    rsp_kind_d   = rsp_kind_q;
    rsp_eaddr_d  = rsp_eaddr_q;
    rsp_md_d     = rsp_md_q;
    rsp_tb_d     = rsp_tb_q;
    rsp_esize_d  = rsp_esize_q;
    rsp_size_d   = rsp_size_q;
    rsp_sm_d     = rsp_sm_q;
    rsp_warp_d   = rsp_warp_q;
    rsp_lane_d   = rsp_lane_q;

    sl_state_d = sl_state_q;
    sl_d       = sl_q;
    sl_dirty_d = sl_dirty_q;
    hw_pend_d  = hw_pend_q;
    hw_fault_d = hw_fault_q;
    hw_kind_d  = hw_kind_q;
    hw_lane_d  = hw_lane_q;
    hw_eaddr_d = hw_eaddr_q;
    hw_md_d    = hw_md_q;
    hw_tb_d    = hw_tb_q;
    hw_esize_d = hw_esize_q;
    hw_lead_d  = hw_lead_q;

    pk_state_d = pk_state_q;
    pk_d       = pk_q;
    pk_dirty_d = pk_dirty_q;

    // ---- defaults: no command this cycle ----
    mlb_op   = ga_pkg::MLB_NONE;
    mlb_idx  = '0;
    w_start  = 1'b0;
    w_kind   = ga_pkg::WK_WALK;
    w_ptr    = '0;
    w_layout = ga_pkg::LAYOUT_BST;
    w_root   = '0;
    w_limit  = ga_pkg::STEP_LIMIT_RESET;
    w_ack    = 1'b0;

    r_set = 1'b0;  r_id = '0;  r_op = '0;  r_status = ga_pkg::RSP_OK;  r_rd = '0;  r_addr = '0;
    r_fault = '0;  r_kind = ga_pkg::EXC_NONE;  r_eaddr = '0;  r_md = '0;  r_tb = '0;
    r_esize = '0;  r_size = '0;  r_sm = '0;  r_warp = '0;  r_lane = '0;  r_policy = 1'b0;
    e_set = 1'b0;  e_kind = '0;  e_id = '0;  e_slot = '0;  e_lane = '0;
    c_set = 1'b0;  c_fault = '0;  c_done = '0;  c_lane = '0;  c_kind = ga_pkg::EXC_NONE;
    c_eaddr = '0;  c_md = '0;  c_tb = '0;  c_esize = '0;
    sl_end     = 1'b0;
    hw_try_end = 1'b0;
    lead_oh    = Lanes'(1) << lead_sel;

    // =============================================================================================
    // Slow-op register: walker results and the HWOnly sequencer. Whenever this part acts on the
    // MLB, the check or the response register, req_ready_o is low (w_done or SL_HW_ITER).
    // =============================================================================================
    case (sl_state_q)
      SL_LM: begin
        // LOADMETA walk ended (spec §3.2 step 3): FOUND returns L and fills, else 0.
        if (w_done && slot_free) begin
          w_ack  = 1'b1;
          sl_end = 1'b1;
          r_set  = 1'b1;
          r_id   = sl_q.id;
          r_op   = ga_pkg::OP_LOADMETA;
          r_rd   = w_found ? w_loc : 64'd0;
          if (w_found) begin
            e_set = 1'b1;
            e_id  = sl_q.id;
            if (sl_dirty_q) begin
              e_kind = ga_pkg::EV_FILL_DROP;           // spec §6.5
            end else begin
              mlb_op = ga_pkg::MLB_FILL;
              e_kind = ga_pkg::EV_FILL;
              e_slot = 6'(fill_idx);
            end
          end
        end
      end

      SL_MG: begin
        // MEMCHECK.G fetch ended (spec §4.2 step 3): check every lane against the fetched entry;
        // fill when the entry's tag is a valid tag.
        if (w_done && slot_free) begin
          w_ack    = 1'b1;
          sl_end   = 1'b1;
          r_set    = 1'b1;
          r_id     = sl_q.id;
          r_op     = ga_pkg::OP_MEMCHECK_G;
          r_addr   = chk_strip;
          r_fault  = chk_fault;
          r_policy = sl_q.policy;
          if (chk_first_valid) begin
            r_kind  = chk_first_kind;
            r_eaddr = chk_first_addr;
            r_md    = sl_q.md;
            r_tb    = w_found ? w_tb : 64'd0;
            r_esize = w_found ? w_size : 64'd0;
            r_size  = sl_q.size;
            r_sm    = sl_q.sm;
            r_warp  = sl_q.warp;
            r_lane  = chk_first_lane;
          end
          if (w_found && w_tb[63:V] != '0 && w_tb[63:V] != TagFreed) begin
            e_set = 1'b1;
            e_id  = sl_q.id;
            if (sl_dirty_q) begin
              e_kind = ga_pkg::EV_FILL_DROP;
            end else begin
              mlb_op = ga_pkg::MLB_FILL;
              e_kind = ga_pkg::EV_FILL;
              e_slot = 6'(fill_idx);
            end
          end
        end
      end

      SL_HW_ITER: begin
        // One leader per cycle (spec §5.4). With nothing pending, respond when the slot is free.
        hw_try_end = 1'b1;
        if (hw_pend_q != '0) begin
          if (lead_tag == TagFreed) begin
            // Forged freed tag: NO_METADATA alone, no LOADMETA.
            c_set   = 1'b1;
            c_done  = lead_oh;
            c_fault = lead_oh;
            c_lane  = hw_k;
            c_kind  = ga_pkg::EXC_NO_METADATA;
            c_eaddr = lead_addr;
          end else begin
            e_set  = 1'b1;
            e_id   = sl_q.id;
            e_lane = hw_k;
            if (rng_hit) begin
              // LOADMETA hit: the group of pending lanes the entry matches is decided by G6.
              mlb_op  = ga_pkg::MLB_TOUCH;
              mlb_idx = rng_idx;
              e_kind  = ga_pkg::EV_RANGE_HIT;
              e_slot  = 6'(rng_idx);
              c_set   = 1'b1;
              c_done  = (hw_pend_q & chk_match) | lead_oh;
              c_fault = chk_fault;
              c_lane  = chk_first_lane;
              c_kind  = chk_first_kind;
              c_eaddr = chk_first_addr;
              c_md    = rng_loc;
              c_tb    = rng_tb;
              c_esize = rng_size;
            end else begin
              // LOADMETA miss: walk for the leader; the miss clears the race bit (spec §6.5).
              e_kind     = ga_pkg::EV_RANGE_MISS;
              w_start    = 1'b1;
              w_kind     = ga_pkg::WK_WALK;
              w_ptr      = lead_addr;
              w_layout   = sl_q.layout;
              w_root     = sl_q.root;
              w_limit    = sl_q.limit;
              sl_dirty_d = 1'b0;
              hw_lead_d  = hw_k;
              sl_state_d = SL_HW_WALK;
              hw_try_end = 1'b0;
            end
          end
        end
      end

      SL_HW_WALK: begin
        if (w_done) begin
          w_ack      = 1'b1;
          sl_state_d = SL_HW_ITER;
          hw_try_end = 1'b1;
          c_set      = 1'b1;
          if (w_found) begin
            // FOUND: fill (or drop), then decide the leader's group as on a hit.
            e_set   = 1'b1;
            e_id    = sl_q.id;
            e_lane  = hw_lead_q;
            if (sl_dirty_q) begin
              e_kind = ga_pkg::EV_FILL_DROP;
            end else begin
              mlb_op = ga_pkg::MLB_FILL;
              e_kind = ga_pkg::EV_FILL;
              e_slot = 6'(fill_idx);
            end
            c_done  = (hw_pend_q & chk_match) | lead_oh;
            c_fault = chk_fault;
            c_lane  = chk_first_lane;
            c_kind  = chk_first_kind;
            c_eaddr = chk_first_addr;
            c_md    = w_loc;
            c_tb    = w_tb;
            c_esize = w_size;
          end else begin
            // Any other end decides the leader alone.
            c_done  = lead_oh;
            c_fault = lead_oh;
            c_lane  = hw_lead_q;
            c_eaddr = lead_addr;
            if (w_status == ga_pkg::WALK_RANGE_ONLY) begin
              c_kind  = (w_tb[63:V] == TagFreed) ? ga_pkg::EXC_USE_AFTER_FREE
                                                 : ga_pkg::EXC_TAG_MISMATCH;
              c_md    = w_loc;
              c_tb    = w_tb;
              c_esize = w_size;
            end else if (w_status == ga_pkg::WALK_NOT_FOUND) begin
              c_kind  = ga_pkg::EXC_NO_METADATA;
            end else begin
              c_kind  = ga_pkg::EXC_METADATA_FAULT;   // FAULT or STEP_LIMIT
            end
          end
        end
      end

      default: begin
        sl_state_d = SL_IDLE;                          // SL_IDLE (and any illegal encoding)
      end
    endcase

    // HWOnly: merge the decided lanes and keep the record of the lowest failing lane (spec §4.4).
    if (c_set) begin
      hw_pend_d  = hw_pend_q & ~c_done;
      hw_fault_d = hw_fault_q | c_fault;
      if (c_fault != '0 && (hw_fault_q == '0 || c_lane < hw_lane_q)) begin
        hw_kind_d  = c_kind;
        hw_lane_d  = c_lane;
        hw_eaddr_d = c_eaddr;
        hw_md_d    = c_md;
        hw_tb_d    = c_tb;
        hw_esize_d = c_esize;
      end
    end
    // HWOnly response once every pending lane is decided and the response slot is free.
    if (hw_try_end && hw_pend_d == '0 && slot_free) begin
      sl_end   = 1'b1;
      r_set    = 1'b1;
      r_id     = sl_q.id;
      r_op     = ga_pkg::OP_ACCESS;
      r_addr   = chk_strip;
      r_fault  = hw_fault_d;
      r_policy = sl_q.policy;
      if (hw_fault_d != '0) begin
        r_kind  = hw_kind_d;
        r_eaddr = hw_eaddr_d;
        r_md    = hw_md_d;
        r_tb    = hw_tb_d;
        r_esize = hw_esize_d;
        r_size  = sl_q.size;
        r_sm    = sl_q.sm;
        r_warp  = sl_q.warp;
        r_lane  = hw_lane_d;
      end
    end

    // The slow op ended: the parked op (if any) takes the slow-op register and, if it already
    // missed, starts its walk or fetch now (the walker accepts a start with its acknowledgement).
    if (sl_end) begin
      sl_state_d = SL_IDLE;
      if (pk_state_q != PK_EMPTY) begin
        pk_state_d = PK_EMPTY;
        sl_d       = pk_q;
        sl_dirty_d = pk_dirty_q;
        hw_pend_d  = pk_q.pend;
        hw_fault_d = '0;
        hw_kind_d  = ga_pkg::EXC_NONE;
        hw_lane_d  = '0;
        hw_eaddr_d = '0;
        hw_md_d    = '0;
        hw_tb_d    = '0;
        hw_esize_d = '0;
        case (pk_state_q)
          PK_LM: begin
            sl_state_d = SL_LM;
            w_start    = 1'b1;
            w_kind     = ga_pkg::WK_WALK;
            w_ptr      = pk_q.addr[63:0];
            w_layout   = pk_q.layout;
            w_root     = pk_q.root;
            w_limit    = pk_q.limit;
          end
          PK_MG: begin
            sl_state_d = SL_MG;
            w_start    = 1'b1;
            w_kind     = ga_pkg::WK_FETCH;
            w_ptr      = pk_q.md;
          end
          default: begin
            sl_state_d = SL_HW_ITER;                  // PK_HW
          end
        endcase
      end
    end

    // =============================================================================================
    // Accept stage: the operation on the request port (req_fire implies the slow part above did
    // nothing with the MLB, the check or the response register this cycle).
    // =============================================================================================
    if (req_fire) begin
      r_id   = req_id_i;
      r_op   = req_op_i;
      r_policy = policy_q;
      if (halted_q && (req_op_i == ga_pkg::OP_LOADMETA || req_op_i == ga_pkg::OP_MEMCHECK_G ||
                       req_op_i == ga_pkg::OP_MEMCHECK_S || req_op_i == ga_pkg::OP_ACCESS)) begin
        // Halted (spec §4.5 TERMINATE): refused, no effect.
        r_set    = 1'b1;
        r_status = ga_pkg::RSP_HALTED;
      end else begin
        case (req_op_i)
          ga_pkg::OP_LOADMETA: begin
            if (req_t0 == '0 || req_t0 == TagFreed) begin
              r_set = 1'b1;                            // spec §3.2 step 1: 0, no lookup
            end else begin
              e_set = 1'b1;
              e_id  = req_id_i;
              if (rng_hit) begin
                mlb_op  = ga_pkg::MLB_TOUCH;           // step 2: hit, touch
                mlb_idx = rng_idx;
                e_kind  = ga_pkg::EV_RANGE_HIT;
                e_slot  = 6'(rng_idx);
                r_set   = 1'b1;
                r_rd    = rng_loc;
              end else begin
                e_kind = ga_pkg::EV_RANGE_MISS;        // step 3: walk
                if (sl_state_q == SL_IDLE) begin
                  sl_state_d = SL_LM;
                  sl_d       = req_ctx;
                  sl_dirty_d = 1'b0;
                  w_start    = 1'b1;
                  w_kind     = ga_pkg::WK_WALK;
                  w_ptr      = req_p0;
                  w_layout   = layout_q;
                  w_root     = root_q;
                  w_limit    = limit_q;
                end else begin
                  pk_state_d = PK_LM;
                  pk_d       = req_ctx;
                  pk_dirty_d = 1'b0;
                end
              end
            end
          end

          ga_pkg::OP_MEMCHECK_G: begin
            // The entry is needed only for a tagged active lane and Rb != 0; a misaligned Rb fails
            // without a lookup (spec §4.2 steps 1-3).
            if (req_pend != '0 && req_md_i != 64'd0 && req_md_i[3:0] == 4'd0 && !loc_hit) begin
              e_set  = 1'b1;
              e_id   = req_id_i;
              e_kind = ga_pkg::EV_LOC_MISS;
              if (sl_state_q == SL_IDLE) begin
                sl_state_d = SL_MG;
                sl_d       = req_ctx;
                sl_dirty_d = 1'b0;
                w_start    = 1'b1;
                w_kind     = ga_pkg::WK_FETCH;
                w_ptr      = req_md_i;
              end else begin
                pk_state_d = PK_MG;
                pk_d       = req_ctx;
                pk_dirty_d = 1'b0;
              end
            end else begin
              if (req_pend != '0 && req_md_i != 64'd0 && req_md_i[3:0] == 4'd0) begin
                mlb_op  = ga_pkg::MLB_TOUCH;           // location hit
                mlb_idx = loc_idx;
                e_set   = 1'b1;
                e_id    = req_id_i;
                e_kind  = ga_pkg::EV_LOC_HIT;
                e_slot  = 6'(loc_idx);
              end
              r_set   = 1'b1;
              r_addr  = chk_strip;
              r_fault = chk_fault;
              if (chk_first_valid) begin
                r_kind  = chk_first_kind;
                r_eaddr = chk_first_addr;
                r_md    = req_md_i;
                r_tb    = (chk_md_state == ga_pkg::MD_OK) ? chk_etb : 64'd0;
                r_esize = (chk_md_state == ga_pkg::MD_OK) ? chk_esize : 64'd0;
                r_size  = req_size_i;
                r_sm    = sm_q;
                r_warp  = req_warp_i;
                r_lane  = chk_first_lane;
              end
            end
          end

          ga_pkg::OP_MEMCHECK_S: begin
            r_set   = 1'b1;                            // spec §4.3: no MLB, no memory
            r_fault = chk_fault;
            if (chk_first_valid) begin
              r_kind  = chk_first_kind;
              r_eaddr = chk_first_addr;
              r_tb    = chk_etb;
              r_esize = chk_esize;
              r_size  = req_size_i;
              r_sm    = sm_q;
              r_warp  = req_warp_i;
              r_lane  = chk_first_lane;
            end
          end

          ga_pkg::OP_ACCESS: begin
            if (mode_q == ga_pkg::MODE_HWONLY && req_pend != '0) begin
              // spec §5.4: sequenced in the slow-op register (or parked behind the op there)
              if (sl_state_q == SL_IDLE) begin
                sl_state_d = SL_HW_ITER;
                sl_d       = req_ctx;
                hw_pend_d  = req_pend;
                hw_fault_d = '0;
                hw_kind_d  = ga_pkg::EXC_NONE;
                hw_lane_d  = '0;
                hw_eaddr_d = '0;
                hw_md_d    = '0;
                hw_tb_d    = '0;
                hw_esize_d = '0;
              end else begin
                pk_state_d = PK_HW;
                pk_d       = req_ctx;
              end
            end else begin
              r_set  = 1'b1;                           // COMPILER pass-through (spec §5.3), or
              r_addr = chk_strip;                      // HWOnly with no tagged active lane
            end
          end

          ga_pkg::OP_INVALIDATE: begin
            mlb_op     = ga_pkg::MLB_INVAL;            // spec §6.4; every in-flight fill is
            e_set      = 1'b1;                         // now stale (spec §6.5)
            e_id       = req_id_i;
            e_kind     = ga_pkg::EV_INVAL;
            sl_dirty_d = 1'b1;
            pk_dirty_d = 1'b1;
            r_set      = 1'b1;
          end

          ga_pkg::OP_FLUSH: begin
            mlb_op     = ga_pkg::MLB_FLUSH;
            e_set      = 1'b1;
            e_id       = req_id_i;
            e_kind     = ga_pkg::EV_FLUSH;
            sl_dirty_d = 1'b1;
            pk_dirty_d = 1'b1;
            r_set      = 1'b1;
          end

          ga_pkg::OP_CFG_WRITE: begin
            r_set = 1'b1;
            if (!cfg_legal(req_cfg_addr_i, req_md_i)) begin
              r_status = ga_pkg::RSP_CFG_ERROR;
            end else begin
              case (req_cfg_addr_i)
                ga_pkg::CFG_MODE:       mode_d   = req_md_i[0];
                ga_pkg::CFG_LAYOUT:     layout_d = req_md_i[1:0];
                ga_pkg::CFG_ROOT:       root_d   = req_md_i;
                ga_pkg::CFG_STEP_LIMIT: limit_d  = req_md_i[31:0];
                ga_pkg::CFG_POLICY:     policy_d = req_md_i[0];
                default:                sm_d     = req_md_i[15:0];   // CFG_SM_ID
              endcase
            end
          end

          default: begin
            halted_d = 1'b0;                           // OP_CLEAR_HALT
            r_set    = 1'b1;
          end
        endcase
      end
    end

    // ---- commit the staged response and event ----
    if (r_set) begin
      rsp_valid_d  = 1'b1;
      rsp_id_d     = r_id;
      rsp_op_d     = r_op;
      rsp_status_d = r_status;
      rsp_rd_d     = r_rd;
      rsp_addr_d   = r_addr;
      rsp_fault_d  = r_fault;
      rsp_kind_d   = r_kind;
      rsp_eaddr_d  = r_eaddr;
      rsp_md_d     = r_md;
      rsp_tb_d     = r_tb;
      rsp_esize_d  = r_esize;
      rsp_size_d   = r_size;
      rsp_sm_d     = r_sm;
      rsp_warp_d   = r_warp;
      rsp_lane_d   = r_lane;
      if (r_fault != '0 && r_policy == ga_pkg::POLICY_TERMINATE) begin
        halted_d = 1'b1;                               // spec §4.5
      end
    end
    ev_valid_d = e_set;
    ev_kind_d  = e_kind;
    ev_id_d    = e_id;
    ev_slot_d  = e_slot;
    ev_lane_d  = e_lane;
  end

  // ---------------------------------------------------------------------------------------------
  // Registers
  // ---------------------------------------------------------------------------------------------
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      mode_q       <= ga_pkg::MODE_COMPILER;
      layout_q     <= ga_pkg::LAYOUT_BST;
      root_q       <= '0;
      limit_q      <= ga_pkg::STEP_LIMIT_RESET;
      policy_q     <= ga_pkg::POLICY_REPORT;
      sm_q         <= '0;
      halted_q     <= 1'b0;
      rsp_valid_q  <= 1'b0;
      rsp_id_q     <= '0;
      rsp_op_q     <= '0;
      rsp_status_q <= ga_pkg::RSP_OK;
      rsp_rd_q     <= '0;
      rsp_addr_q   <= '0;
      rsp_fault_q  <= '0;
      rsp_kind_q   <= ga_pkg::EXC_NONE;
      rsp_eaddr_q  <= '0;
      rsp_md_q     <= '0;
      rsp_tb_q     <= '0;
      rsp_esize_q  <= '0;
      rsp_size_q   <= '0;
      rsp_sm_q     <= '0;
      rsp_warp_q   <= '0;
      rsp_lane_q   <= '0;
      ev_valid_q   <= 1'b0;
      ev_kind_q    <= '0;
      ev_id_q      <= '0;
      ev_slot_q    <= '0;
      ev_lane_q    <= '0;
      sl_state_q   <= SL_IDLE;
      sl_q         <= '0;
      sl_dirty_q   <= 1'b0;
      hw_pend_q    <= '0;
      hw_fault_q   <= '0;
      hw_kind_q    <= ga_pkg::EXC_NONE;
      hw_lane_q    <= '0;
      hw_eaddr_q   <= '0;
      hw_md_q      <= '0;
      hw_tb_q      <= '0;
      hw_esize_q   <= '0;
      hw_lead_q    <= '0;
      pk_state_q   <= PK_EMPTY;
      pk_q         <= '0;
      pk_dirty_q   <= 1'b0;
    end else begin
      mode_q       <= mode_d;
      layout_q     <= layout_d;
      root_q       <= root_d;
      limit_q      <= limit_d;
      policy_q     <= policy_d;
      sm_q         <= sm_d;
      halted_q     <= halted_d;
      rsp_valid_q  <= rsp_valid_d;
      rsp_id_q     <= rsp_id_d;
      rsp_op_q     <= rsp_op_d;
      rsp_status_q <= rsp_status_d;
      rsp_rd_q     <= rsp_rd_d;
      rsp_addr_q   <= rsp_addr_d;
      rsp_fault_q  <= rsp_fault_d;
      rsp_kind_q   <= rsp_kind_d;
      rsp_eaddr_q  <= rsp_eaddr_d;
      rsp_md_q     <= rsp_md_d;
      rsp_tb_q     <= rsp_tb_d;
      rsp_esize_q  <= rsp_esize_d;
      rsp_size_q   <= rsp_size_d;
      rsp_sm_q     <= rsp_sm_d;
      rsp_warp_q   <= rsp_warp_d;
      rsp_lane_q   <= rsp_lane_d;
      ev_valid_q   <= ev_valid_d;
      ev_kind_q    <= ev_kind_d;
      ev_id_q      <= ev_id_d;
      ev_slot_q    <= ev_slot_d;
      ev_lane_q    <= ev_lane_d;
      sl_state_q   <= sl_state_d;
      sl_q         <= sl_d;
      sl_dirty_q   <= sl_dirty_d;
      hw_pend_q    <= hw_pend_d;
      hw_fault_q   <= hw_fault_d;
      hw_kind_q    <= hw_kind_d;
      hw_lane_q    <= hw_lane_d;
      hw_eaddr_q   <= hw_eaddr_d;
      hw_md_q      <= hw_md_d;
      hw_tb_q      <= hw_tb_d;
      hw_esize_q   <= hw_esize_d;
      hw_lead_q    <= hw_lead_d;
      pk_state_q   <= pk_state_d;
      pk_q         <= pk_d;
      pk_dirty_q   <= pk_dirty_d;
    end
  end

  // ---------------------------------------------------------------------------------------------
  // Outputs: registers only
  // ---------------------------------------------------------------------------------------------
  assign rsp_valid_o      = rsp_valid_q;
  assign rsp_id_o         = rsp_id_q;
  assign rsp_op_o         = rsp_op_q;
  assign rsp_status_o     = rsp_status_q;
  assign rsp_rd_o         = rsp_rd_q;
  assign rsp_addr_o       = rsp_addr_q;
  assign rsp_fault_o      = rsp_fault_q;
  assign rsp_exc_kind_o   = rsp_kind_q;
  assign rsp_exc_addr_o   = rsp_eaddr_q;
  assign rsp_exc_md_o     = rsp_md_q;
  assign rsp_exc_tb_o     = rsp_tb_q;
  assign rsp_exc_esize_o  = rsp_esize_q;
  assign rsp_exc_size_o   = rsp_size_q;
  assign rsp_exc_sm_o     = rsp_sm_q;
  assign rsp_exc_warp_o   = rsp_warp_q;
  assign rsp_exc_lane_o   = rsp_lane_q;
  assign ev_valid_o       = ev_valid_q;
  assign ev_kind_o        = ev_kind_q;
  assign ev_id_o          = ev_id_q;
  assign ev_slot_o        = ev_slot_q;
  assign ev_lane_o        = ev_lane_q;
  assign halted_o         = halted_q;
  assign cfg_mode_o       = mode_q;
  assign cfg_layout_o     = layout_q;
  assign cfg_root_o       = root_q;
  assign cfg_step_limit_o = limit_q;
  assign cfg_policy_o     = policy_q;
  assign cfg_sm_id_o      = sm_q;
  assign cfg_tag_bits_o   = 5'(TagBits);

  // ---------------------------------------------------------------------------------------------
  // Assertions (simulation)
  // ---------------------------------------------------------------------------------------------
`ifndef SYNTHESIS
  // Previous-cycle copies for the stability checks ($past is kept for formal runs).
  logic          rsp_hold_q;
  logic [IdW+3+2+64+AW+Lanes+3+64*4+3+16+16+5-1:0] rsp_pay_q, rsp_pay;
  assign rsp_pay = {rsp_id_o, rsp_op_o, rsp_status_o, rsp_rd_o, rsp_addr_o, rsp_fault_o,
                    rsp_exc_kind_o, rsp_exc_addr_o, rsp_exc_md_o, rsp_exc_tb_o, rsp_exc_esize_o,
                    rsp_exc_size_o, rsp_exc_sm_o, rsp_exc_warp_o, rsp_exc_lane_o};
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rsp_hold_q <= 1'b0;
      rsp_pay_q  <= '0;
    end else begin
      rsp_hold_q <= rsp_valid_o && !rsp_ready_i;
      rsp_pay_q  <= rsp_pay;
    end
  end

  logic any_mlb_state_change;
  assign any_mlb_state_change = (mlb_op != ga_pkg::MLB_NONE);

  always @(posedge clk_i or negedge rst_ni) begin
    if (rst_ni) begin
      begin : RspStable_A
        assert (!rsp_hold_q || (rsp_valid_o && rsp_pay == rsp_pay_q))
          else $error("RspStable_A: response changed while valid && !ready");
      end
      // A response is only produced into a free slot.
      begin : RspIntoFreeSlot_A
        assert (!r_set || slot_free)
          else $error("RspIntoFreeSlot_A: response with the slot occupied");
      end
      // Legal sizes only (spec §4.1: 5..7 reserved).
      if (req_fire && (req_op_i == ga_pkg::OP_MEMCHECK_G || req_op_i == ga_pkg::OP_MEMCHECK_S ||
                       req_op_i == ga_pkg::OP_ACCESS)) begin
        begin : ReqSizeLegal_A
          assert (req_size_i <= 3'd4)
            else $error("ReqSizeLegal_A: req_size_i %0d", req_size_i);
        end
      end
      // Every MLB state change is in the commit log, in the same cycle (spec §8).
      begin : MlbChangeLogged_A
        assert (!any_mlb_state_change || e_set)
          else $error("MlbChangeLogged_A: MLB command %0d without an event", mlb_op);
      end
      // The slow part and the accept stage never both act in one cycle.
      begin : AcceptExclusive_A
        assert (!req_fire || (!w_done && sl_state_q != SL_HW_ITER && !chk_slow))
          else $error("AcceptExclusive_A: request accepted in a slow-op cycle");
      end
      // Walker ownership: only the slow op uses it; a park entry implies a busy slow op.
      begin : WalkerOwned_A
        assert (sl_state_q != SL_IDLE || w_idle)
          else $error("WalkerOwned_A: walker busy with no slow op");
      end
      begin : ParkBehindSlow_A
        assert (pk_state_q == PK_EMPTY || sl_state_q != SL_IDLE)
          else $error("ParkBehindSlow_A: parked op with a free slow-op register");
      end
      begin : SlStateLegal_A
        assert (sl_state_q <= SL_HW_WALK)
          else $error("SlStateLegal_A: state %0d", sl_state_q);
      end
      begin : WalkerIdleWhileIter_A
        assert (!(sl_state_q == SL_HW_ITER) || w_idle)
          else $error("WalkerIdleWhileIter_A: walker busy while the sequencer iterates");
      end
      // Configuration registers hold legal values only (spec §5.1).
      begin : CfgLegal_A
        assert (layout_q != 2'd3 && limit_q != 32'd0)
          else $error("CfgLegal_A: layout %0d limit %0d", layout_q, limit_q);
      end
      // HWOnly groups: matched lanes can only fail G6 (spec §5.4). (The check's result is used as a
      // group only after a leader hit or a FOUND walk.)
      if (chk_first_valid &&
          ((sl_state_q == SL_HW_ITER && hw_pend_q != '0 && lead_tag != TagFreed && rng_hit) ||
           (sl_state_q == SL_HW_WALK && w_done && w_found))) begin
        begin : GroupOnlyOob_A
          assert (chk_first_kind == ga_pkg::EXC_OUT_OF_BOUNDS)
            else $error("GroupOnlyOob_A: kind %0d", chk_first_kind);
        end
      end
      // A walk that hit the step limit read exactly STEP_LIMIT nodes (spec §3.3).
      if (w_done && w_status == ga_pkg::WALK_STEP_LIMIT) begin
        begin : StepLimitExact_A
          assert (w_steps == sl_q.limit)
            else $error("StepLimitExact_A: steps %0d limit %0d", w_steps, sl_q.limit);
        end
      end
      // A non-zero fault mask always comes with the record of its lowest lane (spec §4.4).
      if (rsp_valid_o && rsp_op_o != ga_pkg::OP_LOADMETA) begin
        begin : FaultHasRecord_A
          assert (rsp_status_o != ga_pkg::RSP_OK || rsp_fault_o == '0 ||
                  rsp_exc_kind_o != ga_pkg::EXC_NONE)
            else $error("FaultHasRecord_A: fault mask without a record");
        end
      end
    end
  end
`endif

endmodule : ga_mlu
