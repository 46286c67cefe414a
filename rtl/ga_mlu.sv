// Copyright GPUArmor contributors.
//
// ga_mlu -- GPUArmor Metadata Loading Unit, one per SM (paper §5.2, Figure 6; spec §3-§6, §8).
//
// Ports: exactly docs/microarchitecture.md §1 (the testbench's contract); §1.7 pins the details.
//
//            req_* (LSU)                                                    rsp_* (LSU)
//                |                                                              ^
//   +------------v------------------------------------------------------+       |
//   | accept stage (one op per cycle)                                    |  +----+-----------+
//   |   decode, refuse when halted     config registers, halt: ga_mlu_cfg |  | ga_mlu_rsp     |
//   |   MLB range lookup (LOADMETA) / location lookup (MEMCHECK.G) ----+--+->| response reg.  |
//   |   ga_check on the hit entry (MEMCHECK.G/.S, ACCESS strip) -------+  |  | commit-log reg.|
//   |   hit -> response next cycle; miss -> slow op or park register     |  +----^-----------+
//   +------+------------------------------+-------------------------------+       |
//          | miss                         | MLB commands, one per cycle           |
//   +------v------+   start/ack   +-------v------+                                |
//   | slow op reg |<------------->|  ga_walker   |<--> mem_* (L1), orc_* (oracle)  |
//   | + park reg  |   result      +--------------+                                |
//   | ga_mlu_hwseq|----- fill / group check / response --------------------------+
//   +-------------+                 ga_mlb <---- ev_* commit log (one event per MLB change)
//
// Files: this file is the accept stage, the slow-op control (slow-op and park registers, walker
// results, the one fill-or-drop decision, the HWOnly sequencer's MLB and walker actions) and the
// wiring; ga_mlu_cfg.sv holds the configuration registers, their write legality and the halt;
// ga_mlu_hwseq.sv the HWOnly sequencer's state (pending lanes, leader select, group records);
// ga_mlu_rsp.sv the response and commit-log registers. All next-state decisions that stage a
// response, an event or a command are made in this file's one next-state block; the three blocks
// only hold registers and compute from their own state and this cycle's lookups and check, so the
// split adds no cycle and no combinational loop (docs/microarchitecture.md §3.4).
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
//   HwOnly      0 | 1     1 (default): both modes of spec §5. 0: a compiler-mode-only unit: a
//                         CFG_WRITE of MODE = 1 (HWONLY) is illegal (CFG_ERROR) and the HWOnly
//                         sequencer is left out (the FPGA builds, docs/fpga.md §6)
//   HasIndex    0 | 1     1 (default): the walker's INDEX block is built (spec §2.3). 0: it is left
//                         out and a CFG_WRITE of LAYOUT = INDEX (3) is illegal (CFG_ERROR), as
//                         for a layout the RTL lacks (the iCE40 board builds, docs/fpga.md)
//   EndForm     0 | 1 | 2 EndForm of ga_check, ga_mlb and ga_walker: the same functions computed
//                         against the end bound base + size (fewer and shorter carry chains;
//                         docs/fpga.md §5.4); 1 also selects ga_mlb's AgeForm 1 (the LRU touch by
//                         one-hot: the same function, fewer gate levels after a fill's victim).
//                         2: as 1, and the MLB stores each entry's end bound at fill (ga_mlb
//                         EndForm 2: no adder on the range lookup, 65 flip-flops per entry)
//   ReadForm    0 .. 2    ga_mlb's ReadForm: 0 (default) a hit's fields through multiplexers over
//                         the entry registers; 1 from copies in distributed RAM read by the hit's
//                         index (the same function; the 16-entry ECP5 builds, docs/fpga.md §11.3).
//                         2 (needs RegLookup 1): as 1, but the location lookup's fields are read in
//                         the accept stage's cycles from the lookup register's index (lk_loc_idx_q)
//                         instead of at the acceptance, so the accepting cycle ends at the compares'
//                         encoded index. The same function: no FILL comes at the accepting edge or
//                         while the lookup register is busy (fills wait for !lk_busy and close the
//                         request port; LateNoFill_A), and only a FILL writes the copies (the 4-SM
//                         ECP5 board, docs/fpga.md §11.3)
//   FillPort    0 .. 4    how the MLB gets a FILL's and an INVAL's location (the same function).
//                         0 (default): one select between the walker's result location and the
//                         accept stage's md gives both, and one set of the MLB's compares serves
//                         both. 1 (ga_mlb FillPort 1): the FILL port reads the walker's location
//                         register directly and the INVAL port the accept stage's md, so the fill
//                         victim's compares start at registers (MlbEntries 64-bit compares more;
//                         the 16-entry ECP5 builds, docs/fpga.md §11.3). 2 (ga_mlb FillPort 2): as
//                         1, and the MLB registers the FILL's compares a cycle early; to keep its
//                         contract (the cycle before a FILL has the same location and no FILL) a
//                         walker result is taken only from its second cycle (w_settled): one cycle
//                         more per walk, the same function. 3 (ga_mlb FillPort 3): as 2, and an
//                         INVAL names the entry that the location lookup of the INVALIDATE's md
//                         found at its acceptance (a_loc_hit, a_loc_idx: the lookup MEMCHECK.G
//                         makes; nothing changes the MLB between that lookup and the INVAL), so the
//                         MLB has no compares of the INVAL's own (MlbEntries 64-bit compares fewer
//                         than 1 and 2: the 4-SM ECP5 board, docs/fpga.md §11.3). 4 (ga_mlb
//                         FillPort 4): as 3, and the MLB registers the FILL's whole victim a cycle
//                         early; to keep its contract a walker result settles only over a cycle
//                         with no MLB command (w_settled), at most one cycle more per walk
//   RegLookup   0 | 1     0 (default): the accept stage of §3.4, lookup + check + response in the
//                         accepting cycle. 1: the lookup is registered. The accepting cycle only makes
//                         the MLB lookups and registers their results with the request (lk_*); the
//                         next cycle runs the accept stage on those registers (check, MLB touch or
//                         command, event, response or miss). Every operation then answers one cycle
//                         later, the request port is closed in that second cycle (one operation per
//                         two cycles), and walker results wait for it. The MLB cannot change in
//                         between (nothing else runs in that cycle), so the results are those of a
//                         lookup made in the second cycle. The HWOnly leader lookups are not
//                         registered (docs/microarchitecture.md §6).
//   RegCheck    0 .. 3    0 (default): ga_check is combinational. 1..3 (needs RegLookup 1): ga_check's
//                         RegStages, register stages inside the check (docs/fpga.md §11.3: the 32-lane
//                         unit's accept path). Every user of the check (the accept stage on the lk
//                         registers, a walker result, an HWOnly leader step) then holds the check's
//                         inputs and waits RegCheck cycles before it acts (chk_go); the request port
//                         stays closed meanwhile, so an operation answers RegCheck cycles later and a
//                         walker result is taken RegCheck cycles later (microarchitecture §6).
//   CheckLanes  0, or P   0 (default): ga_check checks every lane in one cycle. P (needs RegCheck >= 2;
//                         Lanes / P a power of two >= 2): ga_check's P lane checks serve the lanes in
//                         Lanes / P beats, and every user of the check waits RegCheck + Lanes / P - 1
//                         cycles (ga_check's contract; the 32-lane FPGA unit, docs/fpga.md §11.3).
//   Defaults (HwOnly 1, EndForm 0, RegLookup 0, RegCheck 0, CheckLanes 0) are the unit's function as before the
//   options; the flattened synthesis of the unit maps differently (docs/fpga.md §5.1).
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
  parameter int IdW        = 4,
  parameter int HwOnly     = 1,
  parameter int HasIndex   = 1,
  parameter int EndForm    = 0,
  parameter int ReadForm   = 0,
  parameter int FillPort   = 0,
  parameter int RegLookup  = 0,
  parameter int RegCheck   = 0,
  parameter int CheckLanes = 0
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
  output logic [ga_pkg::MemLenW-1:0] mem_req_len_o,   // 0: 16, 1: 32, 2: 128 bytes (4 beats)
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
  output logic [ga_pkg::LayoutW-1:0] cfg_layout_o,
  output logic [63:0]               cfg_root_o,
  output logic [31:0]               cfg_step_limit_o,
  output logic                      cfg_policy_o,
  output logic [15:0]               cfg_sm_id_o,
  output logic [4:0]                cfg_tag_bits_o
`ifdef FORMAL
  ,
  // Formal only, for the system proof's induction (rtl/formal/ga_system_props.svh): the ids the
  // property file counts outstanding (f_out, which HeldOnce_A ties to the registers holding them),
  // each one's op (f_op), and whether the lookup register (RegLookup 1) holds a CFG_WRITE of
  // STEP_LIMIT.
  output logic [(1<<IdW)-1:0]       fv_out_o,
  output logic [(1<<IdW)*3-1:0]     fv_op_o,
  output logic                      fv_lim_pend_o
`endif
);

  localparam int V    = 64 - TagBits;
  localparam int IdxW = (MlbEntries > 1) ? $clog2(MlbEntries) : 1;
  localparam int AW   = 64 * Lanes;
  // F = 2^T - 1, written as a replication: Yosys 0.23 elaborates a '1 localparam initialiser as
  // the one-bit value 1 (F was 0x01 in every Yosys netlist; found by the formal proof of ga_check).
  localparam logic [TagBits-1:0] TagFreed = {TagBits{1'b1}};

  // The walker's and the check's EndForm (0 or 1; EndForm 2 changes the MLB only) and the MLB's AgeForm.
  localparam int EndFormCw = (EndForm != 0) ? 1 : 0;

  // ---------------------------------------------------------------------------------------------
  // Elaboration-time parameter checks (Icarus 11: at time 0, see ga_mlb)
  // ---------------------------------------------------------------------------------------------
  localparam bit ParamsBad = (TagBits != 7 && TagBits != 16) || (MlbEntries < 1) ||
                             (MlbEntries > 64) || (Lanes < 1) || (Lanes > 32) || (IdW < 1) ||
                             (IdW > 16) || (RegCheck < 0) || (RegCheck > 3) ||
                             (RegCheck != 0 && RegLookup == 0) || (EndForm < 0) || (EndForm > 2) ||
                             (ReadForm < 0) || (ReadForm > 2) || (ReadForm == 2 && RegLookup == 0) ||
                             (FillPort < 0) || (FillPort > 4) ||
                             (HwOnly != 0 && HwOnly != 1) || (HasIndex != 0 && HasIndex != 1) ||
                             (RegLookup != 0 && RegLookup != 1) || (CheckLanes < 0) ||
                             (CheckLanes > 0 && (RegCheck < 2 || Lanes % CheckLanes != 0 ||
                                                 Lanes / CheckLanes < 2 ||
                                                 ((Lanes / CheckLanes) & (Lanes / CheckLanes - 1)) != 0));
`ifdef __ICARUS__
  initial begin
    if (ParamsBad) $fatal(1, "ga_mlu: TagBits 7|16, MlbEntries 1..64, Lanes 1..32, IdW 1..16, RegCheck 0..3 (> 0 needs RegLookup 1), EndForm 0..2, ReadForm 0..2 (2 needs RegLookup 1), FillPort 0..4, HwOnly, HasIndex and RegLookup 0|1, CheckLanes 0 or a divisor of Lanes with Lanes / CheckLanes a power of two >= 2 (needs RegCheck >= 2)");
  end
`else
  if (ParamsBad) begin : gen_bad_params
    $error("ga_mlu: TagBits 7|16, MlbEntries 1..64, Lanes 1..32, IdW 1..16, RegCheck 0..3 (> 0 needs RegLookup 1), EndForm 0..2, ReadForm 0..2 (2 needs RegLookup 1), FillPort 0..4, HwOnly, HasIndex and RegLookup 0|1, CheckLanes 0 or a divisor of Lanes with Lanes / CheckLanes a power of two >= 2 (needs RegCheck >= 2)");
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
    logic [ga_pkg::LayoutW-1:0] layout;
    logic [63:0]                root;
    logic [31:0]                limit;
  } ctx_t;

  localparam int CtxW = IdW + 16 + 2 * Lanes + AW + 3 + 64 + 16 + 1 + ga_pkg::LayoutW + 64 + 32;  // bits of ctx_t

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
  // Configuration registers (spec §5.1) and the halt (spec §4.5): u_cfg (ga_mlu_cfg.sv) holds them;
  // these are its outputs, under the registers' names
  logic                 mode_q;
  logic [ga_pkg::LayoutW-1:0] layout_q;
  logic [63:0]          root_q;
  logic [31:0]          limit_q;
  logic                 policy_q;
  logic [15:0]          sm_q;
  logic                 halted_q;
  /* verilator lint_off UNUSEDSIGNAL */
  logic                 halted_d;                   // the halt's next value: formal properties only
  /* verilator lint_on UNUSEDSIGNAL */

  // Slow-op register and its race bit (spec §6.5)
  sl_state_e            sl_state_q, sl_state_d;
  ctx_t                 sl_q, sl_d;
  logic                 sl_dirty_q, sl_dirty_d;     // INVAL/FLUSH since the miss committed

  // HWOnly sequencer (u_hwseq, ga_mlu_hwseq.sv): its registers, the leader and this cycle's outcome
  logic [Lanes-1:0]     hw_pend_q;                  // lanes still to decide
  logic [Lanes-1:0]     hw_fault_q;                 // lanes that failed
  logic [4:0]           hw_lane_q;                  // lowest failing lane so far
  logic [63:0]          hw_eaddr_q;                 // ... its address
  logic [4:0]           hw_lead_q;                  // leader lane of the walk in flight
  logic [4:0]           hw_lead_lane;               // the leader (lowest pending, or hw_lead_q)
  logic                 hw_lead_hit, hw_lead_miss;  // the leader's range lookup (tag not F)
  logic                 hw_done;                    // nothing left pending: respond when free
  logic [Lanes-1:0]     hw_fault_m;                 // failed lanes and record after this cycle
  logic [2:0]           hw_kind_m;
  logic [4:0]           hw_lane_m;
  logic [63:0]          hw_eaddr_m, hw_md_m, hw_tb_m, hw_esize_m;
  logic                 hw_load;                    // a new HWOnly op takes the sequencer
  logic [Lanes-1:0]     hw_load_pend;               // ... with these lanes pending

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
  logic [Lanes-1:0]     req_pend;       // active lanes with a non-zero tag

  assign req_fire  = req_valid_i && req_ready_o;
  assign req_p0    = req_addr_i[63:0];

  for (genvar l = 0; l < Lanes; l++) begin : gen_req_tag
    assign req_pend[l] = req_active_i[l] && (req_addr_i[64*l + V +: TagBits] != '0);
  end


  // ---------------------------------------------------------------------------------------------
  // What the accept stage works on (a_*): the request port and this cycle's MLB lookups, or with
  // RegLookup the operation accepted in the previous cycle and its registered lookups (lk_*).
  // ---------------------------------------------------------------------------------------------
  // MLB ports (the MLB itself is instantiated below)
  logic [63:0]                  mlb_rng_ptr;
  logic                         rng_hit, loc_hit;
  logic [IdxW-1:0]              rng_idx, loc_idx, fill_idx;
  logic [IdxW-1:0]              loc_rd_idx;     // ReadForm 2: the entry whose copies loc_tb/size are
  logic [63:0]                  rng_tb, rng_size, rng_loc, loc_tb, loc_size;
  logic [ga_pkg::MlbOpW-1:0]    mlb_op;
  logic [IdxW-1:0]              mlb_idx;
  logic [63:0]                  mlb_fill_loc;   // the location of a FILL
  logic [63:0]                  mlb_inv_loc;    // the location of an INVAL
  logic                         mlb_inv_hit;    // FillPort 3, 4: an INVAL clears entry mlb_idx (a_loc_*)

  ctx_t                 req_ctx;        // what an accepted operation keeps (slow-op, park, lk)
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

  logic                 lk_busy;        // RegLookup: the accept stage runs on the lk registers
  logic                 chk_go;         // the check's outputs are valid for its inputs (RegCheck)
  logic                 a_fire;
  logic [IdW-1:0]       a_id;
  logic [2:0]           a_op, a_size, a_cfg_addr;
  logic [15:0]          a_warp;
  logic [Lanes-1:0]     a_active, a_pend;
  logic [AW-1:0]        a_addr;
  logic [63:0]          a_md, a_p0;
  logic [TagBits-1:0]   a_t0;
  logic                 a_rng_hit, a_loc_hit;
  logic [IdxW-1:0]      a_rng_idx, a_loc_idx;
  logic [63:0]          a_rng_loc, a_loc_tb, a_loc_size;
  logic                 a_md_ok;        // MEMCHECK.G: Rb != 0 and 16-byte aligned (a lookup is made)
  logic [ga_pkg::MdStW-1:0] a_md_st;    // RegLookup: MEMCHECK.G's md state, decided at acceptance
  ctx_t                 a_ctx;

  if (RegLookup == 0) begin : gen_lk_none
    assign lk_busy    = 1'b0;
    assign a_fire     = req_fire;
    assign a_id       = req_id_i;
    assign a_op       = req_op_i;
    assign a_size     = req_size_i;
    assign a_cfg_addr = req_cfg_addr_i;
    assign a_warp     = req_warp_i;
    assign a_active   = req_active_i;
    assign a_pend     = req_pend;
    assign a_addr     = req_addr_i;
    assign a_md       = req_md_i;
    assign a_rng_hit  = rng_hit;
    assign a_rng_idx  = rng_idx;
    assign a_rng_loc  = rng_loc;
    assign a_loc_hit  = loc_hit;
    assign a_loc_idx  = loc_idx;
    assign a_loc_tb   = loc_tb;
    assign a_loc_size = loc_size;
    assign a_ctx      = req_ctx;
    assign a_md_ok    = (req_md_i != 64'd0) && (req_md_i[3:0] == 4'd0);
    assign a_md_st    = ga_pkg::MD_OK;                  // (not used: the check decodes md itself)
    assign loc_rd_idx = '0;                             // (ReadForm 2 needs RegLookup 1)
  end else begin : gen_lk
    // The lookup register: loaded by every accepted operation (its context, op and the results of
    // this cycle's lookups); valid for exactly the next cycle (RegCheck: the next RegCheck + 1
    // cycles, until chk_go), in which the request port is closed and walker results wait
    // (lk_busy). The configuration cannot change in between (the port is closed and only the
    // accept stage writes it), so the context's copy of it is the live one.
    logic                     lk_valid_q;
    logic [CtxW-1:0]          lk_ctx_q;      // (a plain vector: struct signals in generate blocks
                                             // defeat Yosys 0.23)
    logic [2:0]               lk_op_q, lk_cfg_addr_q;
    logic                     lk_rng_hit_q, lk_loc_hit_q;
    logic [IdxW-1:0]          lk_rng_idx_q, lk_loc_idx_q;
    logic [63:0]              lk_rng_loc_q;
    logic [ga_pkg::MdStW-1:0] lk_md_st_q;     // MEMCHECK.G md state: NONE, FAULT (misaligned), OK
    logic                     md_zero, md_ok;
    assign md_zero = (req_md_i == 64'd0);
    assign md_ok   = !md_zero && (req_md_i[3:0] == 4'd0);

    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        lk_valid_q    <= 1'b0;
        lk_ctx_q      <= '0;
        lk_op_q       <= '0;
        lk_cfg_addr_q <= '0;
        lk_rng_hit_q  <= 1'b0;
        lk_rng_idx_q  <= '0;
        lk_rng_loc_q  <= '0;
        lk_loc_hit_q  <= 1'b0;
        lk_loc_idx_q  <= '0;
        lk_md_st_q    <= ga_pkg::MD_NONE;
      end else begin
        lk_valid_q <= req_fire || (lk_valid_q && !chk_go);
        if (req_fire) begin
          lk_ctx_q      <= req_ctx;
          lk_op_q       <= req_op_i;
          lk_cfg_addr_q <= req_cfg_addr_i;
          lk_rng_hit_q  <= rng_hit;
          lk_rng_idx_q  <= rng_idx;
          lk_rng_loc_q  <= rng_loc;
          lk_loc_hit_q  <= loc_hit;
          lk_loc_idx_q  <= loc_idx;
          lk_md_st_q    <= md_zero ? ga_pkg::MD_NONE : md_ok ? ga_pkg::MD_OK : ga_pkg::MD_FAULT;
        end
      end
    end

    // The entry the check gets in the second cycle: MEMCHECK.S's shared base and size (Rb, Rc),
    // else MEMCHECK.G's entry (0 unless a lookup is made and hits).
    if (ReadForm != 2) begin : gen_lk_entry_reg
      // Decided at the acceptance, so that the second cycle starts from registers (the accept
      // stage's second half is the longer one).
      logic [63:0] lk_loc_tb_q, lk_loc_size_q;
      always_ff @(posedge clk_i or negedge rst_ni) begin
        if (!rst_ni) begin
          lk_loc_tb_q   <= '0;
          lk_loc_size_q <= '0;
        end else if (req_fire) begin
          if (req_op_i == ga_pkg::OP_MEMCHECK_S) begin
            lk_loc_tb_q   <= {32'd0, req_md_i[31:0]};
            lk_loc_size_q <= {32'd0, req_md_i[63:32]};
          end else begin
            lk_loc_tb_q   <= md_ok ? loc_tb : 64'd0;
            lk_loc_size_q <= md_ok ? loc_size : 64'd0;
          end
        end
      end
      assign a_loc_tb   = lk_loc_tb_q;
      assign a_loc_size = lk_loc_size_q;
      assign loc_rd_idx = '0;                           // (ReadForm 2 only)
    end else begin : gen_lk_entry_late
      // ReadForm 2: the accepting cycle registers only the location hit's index (lk_loc_idx_q);
      // the copies are read here, in the accept stage's cycles, at that index. They are those the
      // acceptance would have read: only a FILL writes them, and none comes from the accepting
      // edge to the end of lk_busy (LateNoFill_A below; rtl/formal/ga_mlu_props.svh).
      logic lk_shared;
      logic lk_entry;                                   // MD_OK and the location lookup hit
      assign lk_shared  = (lk_op_q == ga_pkg::OP_MEMCHECK_S);
      assign lk_entry   = (lk_md_st_q == ga_pkg::MD_OK) && lk_loc_hit_q;
      assign loc_rd_idx = lk_loc_idx_q;
      assign a_loc_tb   = lk_shared ? {32'd0, a_md[31:0]} : {64{lk_entry}} & loc_tb;
      assign a_loc_size = lk_shared ? {32'd0, a_md[63:32]} : {64{lk_entry}} & loc_size;
    end

    assign lk_busy    = lk_valid_q;
    assign a_fire     = lk_valid_q && chk_go;
    assign a_ctx      = lk_ctx_q;
    assign a_id       = a_ctx.id;
    assign a_op       = lk_op_q;
    assign a_size     = a_ctx.size;
    assign a_cfg_addr = lk_cfg_addr_q;
    assign a_warp     = a_ctx.warp;
    assign a_active   = a_ctx.active;
    assign a_pend     = a_ctx.pend;
    assign a_addr     = a_ctx.addr;
    assign a_md       = a_ctx.md;
    assign a_rng_hit  = lk_rng_hit_q;
    assign a_rng_idx  = lk_rng_idx_q;
    assign a_rng_loc  = lk_rng_loc_q;
    assign a_loc_hit  = lk_loc_hit_q;
    assign a_loc_idx  = lk_loc_idx_q;
    assign a_md_ok    = (lk_md_st_q == ga_pkg::MD_OK);
    assign a_md_st    = lk_md_st_q;
  end
  assign a_p0 = a_addr[63:0];
  assign a_t0 = a_p0[63:V];

  // ---------------------------------------------------------------------------------------------
  // The slow-op register's HWOnly states (the sequencer itself is u_hwseq, below the check)
  // ---------------------------------------------------------------------------------------------
  logic [63:0]          lead_addr;      // the leader's address (u_hwseq)
  logic [AW-1:0]        sl_addr;        // (a plain vector: Icarus 11 cannot index struct members)
  assign sl_addr = sl_q.addr;
  logic [TagBits-1:0]   lead_tag;
  logic                 sl_hw_iter, sl_hw_walk;   // the HWOnly states (never, in a HwOnly = 0 unit)
  assign sl_hw_iter = (HwOnly != 0) && (sl_state_q == SL_HW_ITER);
  assign sl_hw_walk = (HwOnly != 0) && (sl_state_q == SL_HW_WALK);
  assign lead_tag   = lead_addr[63:V];

  // ---------------------------------------------------------------------------------------------
  // Walker
  // ---------------------------------------------------------------------------------------------
  logic                 w_start, w_kind, w_ack;
  logic [63:0]          w_ptr, w_root;
  logic [ga_pkg::LayoutW-1:0] w_layout;
  logic [31:0]          w_limit;
  logic                 w_idle, w_done;
  logic [2:0]           w_status;
  logic [63:0]          w_loc, w_tb, w_size;
  logic [31:0]          w_steps;
  logic                 w_found;

  ga_walker #(
    .TagBits  (TagBits),
    .EndForm  (EndFormCw),
    .HasIndex (HasIndex)
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

  // A walker result is taken only in a cycle that the accept stage does not own (RegLookup: the
  // cycle after an acceptance belongs to the registered accept stage, the walker waits). w_hold: the
  // result owns the check's inputs and the request port is closed; w_done_g: it is taken (RegCheck:
  // RegCheck cycles later, chk_go).
  // FillPort 2..4: w_settled, the result was there in the cycle before and not taken then (w_ack), so
  // its location was on the MLB's FILL port a cycle before the FILL and no FILL came in between
  // (every FILL takes a result; ga_mlb's FillPre contract); the walker holds a result unchanged
  // until it is taken. FillPort 4: and no MLB command at all in that cycle (ga_mlb's VicPre
  // contract: the victim registered then is still the FILL's); a result that arrives while the
  // accept stage commands the MLB waits one cycle more (the request port is closed from then on, so
  // the next cycle has no command).
  logic                 w_hold, w_done_g, w_settled;
  assign w_hold   = w_done && !lk_busy;
  assign w_done_g = w_hold && chk_go && w_settled;
  if (FillPort >= 2) begin : gen_w_settle
    logic w_settle_q;
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        w_settle_q <= 1'b0;
      end else begin
        w_settle_q <= w_done && !w_ack && (FillPort < 4 || mlb_op == ga_pkg::MLB_NONE);
      end
    end
    assign w_settled = w_settle_q;
  end else begin : gen_w_now
    assign w_settled = 1'b1;
  end

  // ---------------------------------------------------------------------------------------------
  // MLB
  // ---------------------------------------------------------------------------------------------
  // The range lookup serves the HWOnly leader while the sequencer iterates (the request port is
  // then closed), else LOADMETA's lane 0. Fills only happen when the walker hands back a result
  // (request port closed), so the update location is the walker's, else INVALIDATE's md.
  // RegLookup: INVALIDATE's command comes only in lk_busy cycles and a fill only outside them, so
  // the select is the lookup register's valid bit, not the walker's done decode. FillPort 1..3: no
  // select, each command's location on its own MLB port.
  assign mlb_rng_ptr = sl_hw_iter ? lead_addr : req_p0;
  if (FillPort != 0) begin : gen_fill_port
    assign mlb_fill_loc = w_loc;
    assign mlb_inv_loc  = a_md;
  end else begin : gen_fill_sel
    logic [63:0] mlb_loc;
    assign mlb_loc      = ((RegLookup != 0) ? !lk_busy : w_done_g) ? w_loc : a_md;
    assign mlb_fill_loc = mlb_loc;
    assign mlb_inv_loc  = mlb_loc;
  end
  // FillPort 3, 4: the INVAL's entry is the one the location lookup of its md found at acceptance
  // (ga_mlb's InvPre contract; mlb_inv_loc then serves only to state it). Read by the MLB only
  // with FillPort 3 and 4.
  assign mlb_inv_hit = a_loc_hit;

  ga_mlb #(
    .TagBits (TagBits),
    .Entries (MlbEntries),
    .EndForm (EndForm),
    .AgeForm (EndFormCw),
    .ReadForm(ReadForm),
    .FillPort(FillPort)
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
    .loc_rd_idx_i(loc_rd_idx),
    .upd_op_i    (mlb_op),
    .upd_idx_i   (mlb_idx),
    .upd_tb_i    (w_tb),
    .upd_size_i  (w_size),
    .upd_loc_i   (mlb_fill_loc),
    .inv_loc_i   (mlb_inv_loc),
    .inv_hit_i   (mlb_inv_hit),
    .fill_idx_o  (fill_idx)
  );

  // ---------------------------------------------------------------------------------------------
  // Check logic: the accept stage, the MEMCHECK.G fetch completion and the HWOnly groups share one
  // ga_check; the slow users only run in cycles where the request port is closed.
  // ---------------------------------------------------------------------------------------------
  logic                 chk_slow;      // the slow-op register drives the check this cycle
  logic                 chk_sel;       // the check's input select: 1 slow-op sources, 0 accept stage
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

  assign chk_slow   = sl_hw_iter || (w_hold && (sl_state_q == SL_MG || sl_hw_walk));
  // RegLookup: the accept stage owns the check exactly in the cycles of lk_busy (a register), and the
  // slow op uses it only outside them, so the select need not wait for the walker's done decode.
  assign chk_sel    = (RegLookup != 0) ? !lk_busy : chk_slow;
  assign chk_shared = !chk_sel && (a_op == ga_pkg::OP_MEMCHECK_S);
  assign chk_group  = chk_sel && (sl_state_q != SL_MG);
  assign chk_active = !chk_sel ? a_active :
                      (sl_state_q == SL_MG) ? sl_q.active : hw_pend_q;
  assign chk_addr   = chk_sel ? sl_q.addr : a_addr;
  assign chk_size   = chk_sel ? sl_q.size : a_size;

  `GA_ALWAYS_COMB begin
    if (sl_hw_iter) begin
      chk_md_state = ga_pkg::MD_OK;                    // leader's MLB range hit
      chk_etb      = rng_tb;
      chk_esize    = rng_size;
    end else if (chk_sel) begin
      chk_md_state = w_found ? ga_pkg::MD_OK : ga_pkg::MD_FAULT;   // walk or fetch result
      chk_etb      = w_tb;
      chk_esize    = w_size;
    end else if (RegLookup != 0) begin
      chk_md_state = a_md_st;                          // G2 / G3 / location lookup, decided at
      chk_etb      = a_loc_tb;                         // acceptance (entry 0 unless MD_OK); for
      chk_esize    = a_loc_size;                       // MEMCHECK.S Rb and Rc (md state unused)
    end else if (a_op == ga_pkg::OP_MEMCHECK_S) begin
      chk_md_state = ga_pkg::MD_OK;                    // unused by the shared rules
      chk_etb      = {32'd0, a_md[31:0]};              // Rb: shared base
      chk_esize    = {32'd0, a_md[63:32]};             // Rc: shared size
    end else if (a_md == 64'd0) begin
      chk_md_state = ga_pkg::MD_NONE;                  // G2
      chk_etb      = '0;
      chk_esize    = '0;
    end else if (a_md[3:0] != 4'd0) begin
      chk_md_state = ga_pkg::MD_FAULT;                 // G3: misaligned Rb, no lookup
      chk_etb      = '0;
      chk_esize    = '0;
    end else begin
      chk_md_state = ga_pkg::MD_OK;                    // used only on a location hit
      chk_etb      = a_loc_tb;
      chk_esize    = a_loc_size;
    end
  end

  ga_check #(
    .TagBits   (TagBits),
    .Lanes     (Lanes),
    .EndForm   (EndFormCw),
    .RegStages (RegCheck),
    .CheckLanes(CheckLanes)
  ) u_check (
    .clk_i,
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

  // RegCheck: the check's users wait for its registers. chk_ph_q counts the cycles a user has held
  // the check's inputs (the accept stage on the lk registers, a walker result, an HWOnly leader step;
  // each holds them until it acts, and the request port is closed meanwhile); at ChkLat (RegCheck,
  // plus Lanes / CheckLanes - 1 beats with CheckLanes) the outputs are those of the held inputs
  // (ga_check's contract) and the user acts (chk_go). The count restarts after every chk_go, so the
  // next user (or the next leader step) waits again.
  localparam int ChkLat = RegCheck + ((CheckLanes > 0) ? Lanes / CheckLanes - 1 : 0);
  localparam int ChkW   = (ChkLat > 1) ? $clog2(ChkLat + 1) : 1;
  logic chk_wait;
  assign chk_wait = lk_busy || sl_hw_iter || w_done;
  if (RegCheck == 0) begin : gen_chk_comb
    assign chk_go = 1'b1;
  end else begin : gen_chk_wait
    logic [ChkW-1:0] chk_ph_q;
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        chk_ph_q <= '0;
      end else begin
        chk_ph_q <= (chk_wait && !chk_go) ? chk_ph_q + ChkW'(1) : '0;
      end
    end
    assign chk_go = (chk_ph_q == ChkW'(ChkLat));
  end

  // ---------------------------------------------------------------------------------------------
  // HWOnly sequencer (spec §5.4): pending lanes, leader select, group records
  // ---------------------------------------------------------------------------------------------
  ga_mlu_hwseq #(
    .TagBits (TagBits),
    .Lanes   (Lanes)
  ) u_hwseq (
    .clk_i,
    .rst_ni,
    .iter_i           (sl_hw_iter && chk_go),   // RegCheck: one leader step per chk_go
    .walk_i           (sl_hw_walk),
    .addr_i           (sl_addr),
    .rng_hit_i        (rng_hit),
    .rng_loc_i        (rng_loc),
    .rng_tb_i         (rng_tb),
    .rng_size_i       (rng_size),
    .w_done_i         (w_done_g),
    .w_status_i       (w_status),
    .w_loc_i          (w_loc),
    .w_tb_i           (w_tb),
    .w_size_i         (w_size),
    .chk_match_i      (chk_match),
    .chk_fault_i      (chk_fault),
    .chk_first_lane_i (chk_first_lane),
    .chk_first_kind_i (chk_first_kind),
    .chk_first_addr_i (chk_first_addr),
    .load_i           (hw_load),
    .load_pend_i      (hw_load_pend),
    .lead_lane_o      (hw_lead_lane),
    .lead_addr_o      (lead_addr),
    .lead_hit_o       (hw_lead_hit),
    .lead_miss_o      (hw_lead_miss),
    .done_o           (hw_done),
    .fault_m_o        (hw_fault_m),
    .kind_m_o         (hw_kind_m),
    .lane_m_o         (hw_lane_m),
    .eaddr_m_o        (hw_eaddr_m),
    .md_m_o           (hw_md_m),
    .tb_m_o           (hw_tb_m),
    .esize_m_o        (hw_esize_m),
    .pend_o           (hw_pend_q),
    .fault_o          (hw_fault_q),
    .lane_o           (hw_lane_q),
    .eaddr_o          (hw_eaddr_q),
    .lead_o           (hw_lead_q)
  );

  // ---------------------------------------------------------------------------------------------
  // Request port ready: a response slot, no parked op, no sequencer iteration, no walker result
  // being handed back (those cycles own the MLB update, the check and the response register).
  // ---------------------------------------------------------------------------------------------
  assign req_ready_o = slot_free && (pk_state_q == PK_EMPTY) && !sl_hw_iter &&
                       !w_hold && !lk_busy;

  // ---------------------------------------------------------------------------------------------
  // Next state: the slow-op control (walker results, the HWOnly sequencer's actions, the park
  // register) and the accept stage. They stage this cycle's response (r_*), event (e_*), MLB and
  // walker commands, and the writes to the configuration and sequencer blocks.
  // ---------------------------------------------------------------------------------------------
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
  logic                 fill_req;       // a walk or fetch result is due in the MLB: fill or drop
  logic                 sl_end;         // the slow op ends this cycle
  logic                 cfg_wr;         // an accepted CFG_WRITE (u_cfg writes it if legal)
  logic                 cfg_wr_legal;
  logic                 halt_clr;       // CLEAR_HALT
  logic                 halt_set;       // the staged response halts the unit (u_rsp)

  `GA_ALWAYS_COMB begin
    // ---- defaults: hold state ----
    sl_state_d = sl_state_q;
    sl_d       = sl_q;
    sl_dirty_d = sl_dirty_q;
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
    hw_load      = 1'b0;
    hw_load_pend = '0;
    cfg_wr   = 1'b0;
    halt_clr = 1'b0;

    r_set = 1'b0;  r_id = '0;  r_op = '0;  r_status = ga_pkg::RSP_OK;  r_rd = '0;  r_addr = '0;
    r_fault = '0;  r_kind = ga_pkg::EXC_NONE;  r_eaddr = '0;  r_md = '0;  r_tb = '0;
    r_esize = '0;  r_size = '0;  r_sm = '0;  r_warp = '0;  r_lane = '0;  r_policy = 1'b0;
    e_set = 1'b0;  e_kind = '0;  e_id = '0;  e_slot = '0;  e_lane = '0;
    fill_req = 1'b0;
    sl_end   = 1'b0;

    // =============================================================================================
    // Slow-op register: walker results and the HWOnly sequencer. Whenever this part acts on the
    // MLB, the check or the response register, req_ready_o is low (w_done or SL_HW_ITER).
    // =============================================================================================
    case (sl_state_q)
      SL_LM: begin
        // LOADMETA walk ended (spec §3.2 step 3): FOUND returns L and fills, else 0.
        if (w_done_g && slot_free) begin
          w_ack  = 1'b1;
          sl_end = 1'b1;
          r_set  = 1'b1;
          r_id   = sl_q.id;
          r_op   = ga_pkg::OP_LOADMETA;
          r_rd   = w_found ? w_loc : 64'd0;
          fill_req = w_found;                          // FOUND: fill or drop (below)
        end
      end

      SL_MG: begin
        // MEMCHECK.G fetch ended (spec §4.2 step 3): check every lane against the fetched entry;
        // fill when the entry's tag is a valid tag.
        if (w_done_g && slot_free) begin
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
          fill_req = w_found && w_tb[63:V] != '0 && w_tb[63:V] != TagFreed;
        end
      end

      SL_HW_ITER: if (HwOnly != 0) begin
        // One leader per cycle (spec §5.4; u_hwseq decides the lanes). A freed tag decides the
        // leader alone, without a LOADMETA; otherwise the leader's range lookup is logged.
        if (hw_lead_hit || hw_lead_miss) begin
          e_set  = 1'b1;
          e_id   = sl_q.id;
          e_lane = hw_lead_lane;
          if (hw_lead_hit) begin
            // LOADMETA hit: the group of pending lanes the entry matches is decided by G6.
            mlb_op  = ga_pkg::MLB_TOUCH;
            mlb_idx = rng_idx;
            e_kind  = ga_pkg::EV_RANGE_HIT;
            e_slot  = 6'(rng_idx);
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
            sl_state_d = SL_HW_WALK;
          end
        end
      end

      SL_HW_WALK: if (HwOnly != 0) begin
        // The leader's walk ended: FOUND fills (or drops), then u_hwseq decides the leader's group
        // as on a hit; any other end decides the leader alone.
        if (w_done_g) begin
          w_ack      = 1'b1;
          sl_state_d = SL_HW_ITER;
          fill_req   = w_found;
          if (w_found) begin
            e_lane = hw_lead_lane;                     // the fill's event names the leader
          end
        end
      end

      default: begin
        sl_state_d = SL_IDLE;                          // SL_IDLE (and any illegal encoding)
      end
    endcase

    // The one place a walk or fetch result enters the MLB: a FILL, or a FILL_DROP when an INVAL or
    // FLUSH committed since the miss that started its read (spec §6.5).
    if (fill_req) begin
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

    // HWOnly response once every pending lane is decided and the response slot is free.
    if (hw_done && slot_free) begin
      sl_end   = 1'b1;
      r_set    = 1'b1;
      r_id     = sl_q.id;
      r_op     = ga_pkg::OP_ACCESS;
      r_addr   = chk_strip;
      r_fault  = hw_fault_m;
      r_policy = sl_q.policy;
      if (hw_fault_m != '0) begin
        r_kind  = hw_kind_m;
        r_eaddr = hw_eaddr_m;
        r_md    = hw_md_m;
        r_tb    = hw_tb_m;
        r_esize = hw_esize_m;
        r_size  = sl_q.size;
        r_sm    = sl_q.sm;
        r_warp  = sl_q.warp;
        r_lane  = hw_lane_m;
      end
    end

    // The slow op ended: the parked op (if any) takes the slow-op register and, if it already
    // missed, starts its walk or fetch now (the walker accepts a start with its acknowledgement).
    if (sl_end) begin
      sl_state_d = SL_IDLE;
      if (pk_state_q != PK_EMPTY) begin
        pk_state_d   = PK_EMPTY;
        sl_d         = pk_q;
        sl_dirty_d   = pk_dirty_q;
        hw_load      = 1'b1;
        hw_load_pend = pk_q.pend;
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
    // nothing with the MLB, the check or the response register this cycle), or with RegLookup the
    // operation accepted in the previous cycle, from the lk registers (a_*).
    // =============================================================================================
    if (a_fire) begin
      r_id   = a_id;
      r_op   = a_op;
      r_policy = policy_q;
      if (halted_q && (a_op == ga_pkg::OP_LOADMETA || a_op == ga_pkg::OP_MEMCHECK_G ||
                       a_op == ga_pkg::OP_MEMCHECK_S || a_op == ga_pkg::OP_ACCESS)) begin
        // Halted (spec §4.5 TERMINATE): refused, no effect.
        r_set    = 1'b1;
        r_status = ga_pkg::RSP_HALTED;
      end else begin
        case (a_op)
          ga_pkg::OP_LOADMETA: begin
            if (a_t0 == '0 || a_t0 == TagFreed) begin
              r_set = 1'b1;                            // spec §3.2 step 1: 0, no lookup
            end else begin
              e_set = 1'b1;
              e_id  = a_id;
              if (a_rng_hit) begin
                mlb_op  = ga_pkg::MLB_TOUCH;           // step 2: hit, touch
                mlb_idx = a_rng_idx;
                e_kind  = ga_pkg::EV_RANGE_HIT;
                e_slot  = 6'(a_rng_idx);
                r_set   = 1'b1;
                r_rd    = a_rng_loc;
              end else begin
                e_kind = ga_pkg::EV_RANGE_MISS;        // step 3: walk
                if (sl_state_q == SL_IDLE) begin
                  sl_state_d = SL_LM;
                  sl_d       = a_ctx;
                  sl_dirty_d = 1'b0;
                  w_start    = 1'b1;
                  w_kind     = ga_pkg::WK_WALK;
                  w_ptr      = a_p0;
                  w_layout   = layout_q;
                  w_root     = root_q;
                  w_limit    = limit_q;
                end else begin
                  pk_state_d = PK_LM;
                  pk_d       = a_ctx;
                  pk_dirty_d = 1'b0;
                end
              end
            end
          end

          ga_pkg::OP_MEMCHECK_G: begin
            // The entry is needed only for a tagged active lane and Rb != 0; a misaligned Rb fails
            // without a lookup (spec §4.2 steps 1-3).
            if (a_pend != '0 && a_md_ok && !a_loc_hit) begin
              e_set  = 1'b1;
              e_id   = a_id;
              e_kind = ga_pkg::EV_LOC_MISS;
              if (sl_state_q == SL_IDLE) begin
                sl_state_d = SL_MG;
                sl_d       = a_ctx;
                sl_dirty_d = 1'b0;
                w_start    = 1'b1;
                w_kind     = ga_pkg::WK_FETCH;
                w_ptr      = a_md;
              end else begin
                pk_state_d = PK_MG;
                pk_d       = a_ctx;
                pk_dirty_d = 1'b0;
              end
            end else begin
              if (a_pend != '0 && a_md_ok) begin
                mlb_op  = ga_pkg::MLB_TOUCH;           // location hit
                mlb_idx = a_loc_idx;
                e_set   = 1'b1;
                e_id    = a_id;
                e_kind  = ga_pkg::EV_LOC_HIT;
                e_slot  = 6'(a_loc_idx);
              end
              r_set   = 1'b1;
              r_addr  = chk_strip;
              r_fault = chk_fault;
              if (chk_first_valid) begin
                r_kind  = chk_first_kind;
                r_eaddr = chk_first_addr;
                r_md    = a_md;
                r_tb    = (chk_md_state == ga_pkg::MD_OK) ? chk_etb : 64'd0;
                r_esize = (chk_md_state == ga_pkg::MD_OK) ? chk_esize : 64'd0;
                r_size  = a_size;
                r_sm    = sm_q;
                r_warp  = a_warp;
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
              r_size  = a_size;
              r_sm    = sm_q;
              r_warp  = a_warp;
              r_lane  = chk_first_lane;
            end
          end

          ga_pkg::OP_ACCESS: begin
            if (HwOnly != 0 && mode_q == ga_pkg::MODE_HWONLY && a_pend != '0) begin
              // spec §5.4: sequenced in the slow-op register (or parked behind the op there)
              if (sl_state_q == SL_IDLE) begin
                sl_state_d   = SL_HW_ITER;
                sl_d         = a_ctx;
                hw_load      = 1'b1;
                hw_load_pend = a_pend;
              end else begin
                pk_state_d = PK_HW;
                pk_d       = a_ctx;
              end
            end else begin
              r_set  = 1'b1;                           // COMPILER pass-through (spec §5.3), or
              r_addr = chk_strip;                      // HWOnly with no tagged active lane
            end
          end

          ga_pkg::OP_INVALIDATE: begin
            mlb_op     = ga_pkg::MLB_INVAL;            // spec §6.4; every in-flight fill is
            mlb_idx    = a_loc_idx;                    // now stale (spec §6.5). FillPort 3, 4: the
            e_set      = 1'b1;                         // entry, if any (mlb_inv_hit), by index
            e_id       = a_id;
            e_kind     = ga_pkg::EV_INVAL;
            sl_dirty_d = 1'b1;
            pk_dirty_d = 1'b1;
            r_set      = 1'b1;
          end

          ga_pkg::OP_FLUSH: begin
            mlb_op     = ga_pkg::MLB_FLUSH;
            e_set      = 1'b1;
            e_id       = a_id;
            e_kind     = ga_pkg::EV_FLUSH;
            sl_dirty_d = 1'b1;
            pk_dirty_d = 1'b1;
            r_set      = 1'b1;
          end

          ga_pkg::OP_CFG_WRITE: begin
            r_set  = 1'b1;                             // u_cfg writes it if legal
            cfg_wr = 1'b1;
            if (!cfg_wr_legal) begin
              r_status = ga_pkg::RSP_CFG_ERROR;
            end
          end

          default: begin
            halt_clr = 1'b1;                           // OP_CLEAR_HALT
            r_set    = 1'b1;
          end
        endcase
      end
    end
  end

  // ---------------------------------------------------------------------------------------------
  // Configuration registers and the halt (spec §5.1, §4.5)
  // ---------------------------------------------------------------------------------------------
  ga_mlu_cfg #(
    .HwOnly   (HwOnly),
    .HasIndex (HasIndex)
  ) u_cfg (
    .clk_i,
    .rst_ni,
    .wr_i       (cfg_wr),
    .wr_addr_i  (a_cfg_addr),
    .wr_data_i  (a_md),
    .wr_legal_o (cfg_wr_legal),
    .halt_set_i (halt_set),
    .halt_clr_i (halt_clr),
    .halted_o   (halted_q),
    .halted_d_o (halted_d),
    .mode_o     (mode_q),
    .layout_o   (layout_q),
    .root_o     (root_q),
    .limit_o    (limit_q),
    .policy_o   (policy_q),
    .sm_o       (sm_q)
  );

  // ---------------------------------------------------------------------------------------------
  // Response and commit-log registers: the staged response (r_*) and event (e_*)
  // ---------------------------------------------------------------------------------------------
  // RegCheck: the response's lane addresses (Lanes x 64 bits) load from a shallow condition, not with
  // r_set (whose decode, through the accept stage's case, fans out to every bit of the field: the
  // 32-lane ECP5 build's critical path, docs/fpga.md §11.3). Every response is staged in a cycle
  // where a user of the check acts (chk_go) into a free slot; the lanes' field then holds the strip
  // for MEMCHECK.G, a fetch completion, a non-sequenced ACCESS and an HWOnly response (after a leader
  // step or a leader's walk: r_addr's cases below), else 0, and ga_mlu_rsp asserts that this is what
  // r_set loads.
  logic           lane_load;
  logic [AW-1:0]  lane_addr;
  logic           lane_strip;
  assign lane_load  = chk_go && chk_wait && slot_free;
  assign lane_strip = lk_busy ? (!halted_q && (a_op == ga_pkg::OP_MEMCHECK_G || a_op == ga_pkg::OP_ACCESS))
                              : (sl_state_q == SL_MG || sl_hw_iter || sl_hw_walk);
  assign lane_addr  = lane_strip ? chk_strip : '0;

  ga_mlu_rsp #(
    .IdW      (IdW),
    .Lanes    (Lanes),
    .LaneLoad ((RegCheck != 0) ? 1 : 0)
  ) u_rsp (
    .clk_i,
    .rst_ni,
    .rsp_ready_i,
    .slot_free_o (slot_free),
    .set_i       (r_set),
    .id_i        (r_id),
    .op_i        (r_op),
    .status_i    (r_status),
    .rd_i        (r_rd),
    .addr_i      (r_addr),
    .fault_i     (r_fault),
    .kind_i      (r_kind),
    .eaddr_i     (r_eaddr),
    .md_i        (r_md),
    .tb_i        (r_tb),
    .esize_i     (r_esize),
    .size_i      (r_size),
    .sm_i        (r_sm),
    .warp_i      (r_warp),
    .lane_i      (r_lane),
    .policy_i    (r_policy),
    .halt_o      (halt_set),
    .lane_load_i (lane_load),
    .lane_addr_i (lane_addr),
    .ev_set_i    (e_set),
    .ev_kind_i   (e_kind),
    .ev_id_i     (e_id),
    .ev_slot_i   (e_slot),
    .ev_lane_i   (e_lane),
    .rsp_valid_o,
    .rsp_id_o,
    .rsp_op_o,
    .rsp_status_o,
    .rsp_rd_o,
    .rsp_addr_o,
    .rsp_fault_o,
    .rsp_exc_kind_o,
    .rsp_exc_addr_o,
    .rsp_exc_md_o,
    .rsp_exc_tb_o,
    .rsp_exc_esize_o,
    .rsp_exc_size_o,
    .rsp_exc_sm_o,
    .rsp_exc_warp_o,
    .rsp_exc_lane_o,
    .ev_valid_o,
    .ev_kind_o,
    .ev_id_o,
    .ev_slot_o,
    .ev_lane_o
  );

  // ---------------------------------------------------------------------------------------------
  // Slow-op and park registers
  // ---------------------------------------------------------------------------------------------
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      sl_state_q   <= SL_IDLE;
      sl_q         <= '0;
      sl_dirty_q   <= 1'b0;
      pk_state_q   <= PK_EMPTY;
      pk_q         <= '0;
      pk_dirty_q   <= 1'b0;
    end else begin
      sl_state_q   <= sl_state_d;
      sl_q         <= sl_d;
      sl_dirty_q   <= sl_dirty_d;
      pk_state_q   <= pk_state_d;
      pk_q         <= pk_d;
      pk_dirty_q   <= pk_dirty_d;
    end
  end

  // ---------------------------------------------------------------------------------------------
  // Status outputs: registers only
  // ---------------------------------------------------------------------------------------------
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
  logic [63:0]   hw_rec_addr;            // the address of lane hw_lane_q
  always @* begin
    hw_rec_addr = '0;
    for (int l = 0; l < Lanes; l++) begin
      if (hw_lane_q == 5'(l)) begin
        hw_rec_addr = sl_addr[64*l +: 64];
      end
    end
  end

  logic any_mlb_state_change;
  assign any_mlb_state_change = (mlb_op != ga_pkg::MLB_NONE);

  always @(posedge clk_i or negedge rst_ni) begin
    if (rst_ni) begin
      // (RspStable_A and RspIntoFreeSlot_A: ga_mlu_rsp; CfgLegal_A: ga_mlu_cfg)
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
      // ReadForm 2: the MLB's copies do not change from an acceptance to the end of its accept
      // stage (its location lookup's fields are read there, at the registered index).
      if (ReadForm == 2) begin
        begin : LateNoFill_A
          assert (!((req_fire || lk_busy) && mlb_op == ga_pkg::MLB_FILL))
            else $error("LateNoFill_A: FILL while a location hit's copies are still to be read");
        end
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
      // HWOnly sequencer: a failed lane is decided, the record names a failed lane and its address,
      // the walking leader is pending (HwLanes_A, HwRecord_A, HwLead_A of the formal properties).
      if (sl_state_q == SL_HW_ITER || sl_state_q == SL_HW_WALK) begin
        begin : HwLanes_A
          assert ((hw_fault_q & hw_pend_q) == '0)
            else $error("HwLanes_A: pending %0h failed %0h", hw_pend_q, hw_fault_q);
        end
        if (hw_fault_q != '0) begin
          begin : HwRecord_A
            assert (((hw_fault_q >> hw_lane_q) & Lanes'(1)) != '0 && hw_eaddr_q == hw_rec_addr)
              else $error("HwRecord_A: lane %0d failed %0h", hw_lane_q, hw_fault_q);
          end
        end
      end
      if (sl_state_q == SL_HW_WALK) begin
        begin : HwLead_A
          assert (((hw_pend_q >> hw_lead_q) & Lanes'(1)) != '0)
            else $error("HwLead_A: leader %0d not pending %0h", hw_lead_q, hw_pend_q);
        end
      end
      // HWOnly groups: matched lanes can only fail G6 (spec §5.4). (The check's result is used as a
      // group only after a leader hit or a FOUND walk.)
      if (chk_first_valid &&
          ((sl_state_q == SL_HW_ITER && chk_go && hw_pend_q != '0 && lead_tag != TagFreed && rng_hit) ||
           (sl_state_q == SL_HW_WALK && w_done_g && w_found))) begin
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

  // ---------------------------------------------------------------------------------------------
  // Formal properties (yosys read_verilog -formal defines FORMAL): rtl/formal/ga_mlu_props.svh,
  // docs/verification.md.
  // ---------------------------------------------------------------------------------------------
`ifdef FORMAL
`include "formal/ga_mlu_props.svh"
`endif

endmodule : ga_mlu
