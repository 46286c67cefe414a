// Copyright GPUArmor contributors.
//
// ga_pkg -- shared widths and encodings of the GPUArmor Metadata Loading Unit (MLU).
//
// Paper: Ibn Ziad et al., "GPUArmor", §5 (Figure 6). Contract: docs/spec.md and
// docs/microarchitecture.md §1. Every encoding here is the one those documents give and the C golden
// model (cmodel/ga_types.h, ga_walker.h, ga_check.h) uses, so a value crosses the co-simulation
// boundary unchanged.
//
// Use qualified names (ga_pkg::OP_LOADMETA); `import ga_pkg::*` is outside the tool subset of
// TOOLCHAIN.md. Encodings are sized localparams rather than package enum types so that ports stay
// plain `logic` vectors in all three tools (Verilator 5.006, Yosys 0.23, Icarus 11).

package ga_pkg;

  // ---------------------------------------------------------------------------------------------
  // Fixed widths (spec §1, §2, §4.5; microarchitecture §1)
  // ---------------------------------------------------------------------------------------------
  localparam int AddrW     = 64;   // pointers, locations, entry words
  localparam int MemDataW  = 256;  // one 32-byte node / L1 sector (spec §2.1)
  localparam int WarpW     = 16;   // warp id in requests and records
  localparam int SmW       = 16;   // SM_ID register
  localparam int LaneW     = 5;    // lane index, 0..31
  localparam int OpW       = 3;
  localparam int StatusW   = 2;
  localparam int ExcW      = 3;
  localparam int SizeW     = 3;    // log2 of the access size
  localparam int CfgAddrW  = 3;
  localparam int LayoutW   = 2;
  localparam int StepW     = 32;   // STEP_LIMIT register and the walk's step counter
  localparam int EvKindW   = 3;
  localparam int EvSlotW   = 6;    // MLB entry index, up to 64 entries
  localparam int WalkStW   = 3;
  localparam int MdStW     = 2;
  localparam int MaxLanes  = 32;
  localparam int MaxMlb    = 64;

  // ---------------------------------------------------------------------------------------------
  // Request op codes (req_op_i, rsp_op_o; microarchitecture §1.1)
  // ---------------------------------------------------------------------------------------------
  localparam logic [OpW-1:0] OP_LOADMETA   = 3'd0;  // Rd = LOADMETA(lane 0)        spec §3
  localparam logic [OpW-1:0] OP_MEMCHECK_G = 3'd1;  // MEMCHECK.G(lanes, Rb = md)   spec §4.2
  localparam logic [OpW-1:0] OP_MEMCHECK_S = 3'd2;  // MEMCHECK.S(lanes, md = {Rc, Rb}) spec §4.3
  localparam logic [OpW-1:0] OP_ACCESS     = 3'd3;  // plain global access          spec §5.3/§5.4
  localparam logic [OpW-1:0] OP_INVALIDATE = 3'd4;  // MLB invalidate(md)           spec §6.4
  localparam logic [OpW-1:0] OP_FLUSH      = 3'd5;  // MLB flush                    spec §6.4
  localparam logic [OpW-1:0] OP_CFG_WRITE  = 3'd6;  // register[cfg_addr] = md      spec §5.1
  localparam logic [OpW-1:0] OP_CLEAR_HALT = 3'd7;  // leave the halted state       spec §4.5

  // Response status (rsp_status_o)
  localparam logic [StatusW-1:0] RSP_OK        = 2'd0;
  localparam logic [StatusW-1:0] RSP_HALTED    = 2'd1;  // refused: unit halted (TERMINATE policy)
  localparam logic [StatusW-1:0] RSP_CFG_ERROR = 2'd2;  // illegal register value, nothing changed

  // ---------------------------------------------------------------------------------------------
  // Exception kinds (spec §4.5; cmodel ga_exc_kind_t)
  // ---------------------------------------------------------------------------------------------
  localparam logic [ExcW-1:0] EXC_NONE                 = 3'd0;
  localparam logic [ExcW-1:0] EXC_OUT_OF_BOUNDS        = 3'd1;
  localparam logic [ExcW-1:0] EXC_USE_AFTER_FREE       = 3'd2;
  localparam logic [ExcW-1:0] EXC_TAG_MISMATCH         = 3'd3;
  localparam logic [ExcW-1:0] EXC_NO_METADATA          = 3'd4;
  localparam logic [ExcW-1:0] EXC_SHARED_OUT_OF_BOUNDS = 3'd5;
  localparam logic [ExcW-1:0] EXC_METADATA_FAULT       = 3'd6;

  // ---------------------------------------------------------------------------------------------
  // MLB commit-log event kinds (ev_kind_o; microarchitecture §1.5, spec §8)
  // ---------------------------------------------------------------------------------------------
  localparam logic [EvKindW-1:0] EV_RANGE_HIT  = 3'd0;
  localparam logic [EvKindW-1:0] EV_RANGE_MISS = 3'd1;
  localparam logic [EvKindW-1:0] EV_LOC_HIT    = 3'd2;
  localparam logic [EvKindW-1:0] EV_LOC_MISS   = 3'd3;
  localparam logic [EvKindW-1:0] EV_FILL       = 3'd4;
  localparam logic [EvKindW-1:0] EV_FILL_DROP  = 3'd5;
  localparam logic [EvKindW-1:0] EV_INVAL      = 3'd6;
  localparam logic [EvKindW-1:0] EV_FLUSH      = 3'd7;

  // ---------------------------------------------------------------------------------------------
  // Configuration registers (spec §5.1): addresses, encodings, reset values
  // ---------------------------------------------------------------------------------------------
  localparam logic [CfgAddrW-1:0] CFG_MODE       = 3'd0;
  localparam logic [CfgAddrW-1:0] CFG_LAYOUT     = 3'd1;
  localparam logic [CfgAddrW-1:0] CFG_ROOT       = 3'd2;
  localparam logic [CfgAddrW-1:0] CFG_STEP_LIMIT = 3'd3;
  localparam logic [CfgAddrW-1:0] CFG_POLICY     = 3'd4;
  localparam logic [CfgAddrW-1:0] CFG_SM_ID      = 3'd5;

  localparam logic MODE_COMPILER = 1'b0;
  localparam logic MODE_HWONLY   = 1'b1;

  localparam logic [LayoutW-1:0] LAYOUT_LIST  = 2'd0;
  localparam logic [LayoutW-1:0] LAYOUT_BST   = 2'd1;
  localparam logic [LayoutW-1:0] LAYOUT_TABLE = 2'd2;   // 3 is illegal

  localparam logic POLICY_REPORT    = 1'b0;
  localparam logic POLICY_TERMINATE = 1'b1;

  localparam logic [StepW-1:0] STEP_LIMIT_RESET = 32'd65536;  // spec §5.1 [decision]

  // ---------------------------------------------------------------------------------------------
  // Walker (spec §3.3; cmodel ga_walk_status_t, ga_md_state_t)
  // ---------------------------------------------------------------------------------------------
  localparam logic [WalkStW-1:0] WALK_FOUND      = 3'd0;  // covers and matches; fetch: entry read
  localparam logic [WalkStW-1:0] WALK_RANGE_ONLY = 3'd1;  // covers, tag differs
  localparam logic [WalkStW-1:0] WALK_NOT_FOUND  = 3'd2;
  localparam logic [WalkStW-1:0] WALK_STEP_LIMIT = 3'd3;
  localparam logic [WalkStW-1:0] WALK_FAULT      = 3'd4;  // error response or misaligned pointer

  // What the walker is asked to do.
  localparam logic WK_WALK  = 1'b0;  // LOADMETA walk of the configured layout
  localparam logic WK_FETCH = 1'b1;  // MEMCHECK.G entry fetch: one 16-byte read at md

  // How MEMCHECK.G obtained its entry (spec §4.2).
  localparam logic [MdStW-1:0] MD_NONE  = 2'd0;  // Rb = 0               -> G2
  localparam logic [MdStW-1:0] MD_FAULT = 2'd1;  // misaligned or error  -> G3
  localparam logic [MdStW-1:0] MD_OK    = 2'd2;  // entry valid

  // MLB state update command (ga_mlu -> ga_mlb): at most one per cycle (spec §6)
  localparam int MlbOpW = 3;
  localparam logic [MlbOpW-1:0] MLB_NONE  = 3'd0;  // no change (also: a lookup that missed)
  localparam logic [MlbOpW-1:0] MLB_TOUCH = 3'd1;  // make upd_idx most recently used (a hit)
  localparam logic [MlbOpW-1:0] MLB_FILL  = 3'd2;  // fill (upd_tb, upd_size) at upd_loc, spec §6.3
  localparam logic [MlbOpW-1:0] MLB_INVAL = 3'd3;  // invalidate every entry at upd_loc, spec §6.4
  localparam logic [MlbOpW-1:0] MLB_FLUSH = 3'd4;  // all invalid, ages reset, spec §6.4

  // Metadata memory read length (mem_req_len_o)
  localparam logic MEM_LEN_16 = 1'b0;  // one entry (TABLE slot, MEMCHECK.G fetch)
  localparam logic MEM_LEN_32 = 1'b1;  // one LIST/BST node

  // Byte offsets inside a node (spec §2.2, §2.3); bit offsets in mem_rsp_data_i
  localparam int NodeTbLsb   = 0;    // +0  tagged base
  localparam int NodeSizeLsb = 64;   // +8  size
  localparam int NodeP0Lsb   = 128;  // +16 LIST next / BST left
  localparam int NodeP1Lsb   = 192;  // +24 LIST prev / BST right

endpackage : ga_pkg
