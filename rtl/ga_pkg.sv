// Copyright GPUArmor contributors.
//
// ga_pkg -- shared widths and encodings of the GPUArmor Metadata Loading Unit (MLU).
//
// Paper: Ibn Ziad et al., "GPUArmor", §5 (Figure 6). Contract: docs/spec.md and
// docs/microarchitecture.md §1. The encodings shared with the C golden model, the co-simulation and the
// board protocol (op codes, response status, exception kinds, MLB events, modes, policies, walk and
// fetch results, register addresses, reset values and legal ranges, layout codes, the walk-end ->
// exception mapping of spec §5.4) are not written here: they come from cmodel/ga_isa.def and
// cmodel/ga_layouts.def through the generated, committed rtl/ga_isa.svh (scripts/gen_isa.py), so a
// value crosses the co-simulation boundary unchanged and `make isa-check` fails when any copy drifts.
// What stays here is the RTL's own: data-path widths, the walker's job kinds, the MLB update command,
// the memory read length and node field offsets.
//
// Use qualified names (ga_pkg::OP_LOADMETA); `import ga_pkg::*` is outside the tool subset of
// TOOLCHAIN.md. Encodings are sized localparams rather than package enum types so that ports stay
// plain `logic` vectors in all three tools (Verilator 5.006, Yosys 0.23, Icarus 11). Yosys finds the
// included file next to this one; Verilator and Icarus need the include directory (-I of rtl/), which
// every flow that reads the file list rtl/ga_mlu.f passes (mk/rtl.mk: RTL_INC).

package ga_pkg;

  // ---------------------------------------------------------------------------------------------
  // The shared encodings (OpW ... MdStW, OP_*, RSP_*, EXC_*, EV_*, MODE_*, POLICY_*, WALK_*, MD_*,
  // CFG_*, LAYOUT_*, cfg_legal(), walk_exc()): generated from cmodel/ga_isa.def.
  // ---------------------------------------------------------------------------------------------
`include "ga_isa.svh"

  // ---------------------------------------------------------------------------------------------
  // Fixed widths of the data path (spec §1, §2, §4.5; microarchitecture §1)
  // ---------------------------------------------------------------------------------------------
  localparam int AddrW     = 64;   // pointers, locations, entry words
  localparam int MemDataW  = 256;  // one 32-byte node / L1 sector (spec §2.1)
  localparam int WarpW     = 16;   // warp id in requests and records
  localparam int SmW       = 16;   // SM_ID register
  localparam int LaneW     = 5;    // lane index, 0..31
  localparam int SizeW     = 3;    // log2 of the access size
  localparam int StepW     = 32;   // STEP_LIMIT register and the walk's step counter
  localparam int EvSlotW   = 6;    // MLB entry index, up to 64 entries
  localparam int MaxLanes  = 32;
  localparam int MaxMlb    = 64;

  // The STEP_LIMIT register's reset value under the name the walker and the MLU use (spec §5.1).
  localparam logic [StepW-1:0] STEP_LIMIT_RESET = CFG_STEP_LIMIT_RESET;

  // ---------------------------------------------------------------------------------------------
  // Walker (spec §3.3): what it is asked to do. Its results are WALK_* and MD_* (generated).
  // ---------------------------------------------------------------------------------------------
  localparam logic WK_WALK  = 1'b0;  // LOADMETA walk of the configured layout
  localparam logic WK_FETCH = 1'b1;  // MEMCHECK.G entry fetch: one 16-byte read at md

  // MLB state update command (ga_mlu -> ga_mlb): at most one per cycle (spec §6)
  localparam int MlbOpW = 3;
  localparam logic [MlbOpW-1:0] MLB_NONE  = 3'd0;  // no change (also: a lookup that missed)
  localparam logic [MlbOpW-1:0] MLB_TOUCH = 3'd1;  // make upd_idx most recently used (a hit)
  localparam logic [MlbOpW-1:0] MLB_FILL  = 3'd2;  // fill (upd_tb, upd_size) at upd_loc, spec §6.3
  localparam logic [MlbOpW-1:0] MLB_INVAL = 3'd3;  // invalidate every entry at upd_loc, spec §6.4
  localparam logic [MlbOpW-1:0] MLB_FLUSH = 3'd4;  // all invalid, ages reset, spec §6.4

  // Metadata memory read length (mem_req_len_o, microarchitecture §1.3). A 16- or 32-byte read is
  // answered by one response beat; a 128-byte read by IdxNodeBytes / (MemDataW / 8) = 4 beats in
  // address order. Code 3 is never issued.
  localparam int MemLenW = 2;
  localparam logic [MemLenW-1:0] MEM_LEN_16  = 2'd0;  // one entry (TABLE / INDEX slot, MEMCHECK.G fetch)
  localparam logic [MemLenW-1:0] MEM_LEN_32  = 2'd1;  // one LIST/BST node
  localparam logic [MemLenW-1:0] MEM_LEN_128 = 2'd2;  // one INDEX node (one L1 line)

  // INDEX node (spec §2.3): bytes and fan-out (refs per node)
  localparam int IdxNodeBytes = 128;
  localparam int IdxFan       = 11;

  // Byte offsets inside a node (spec §2.2, §2.3); bit offsets in mem_rsp_data_i
  localparam int NodeTbLsb   = 0;    // +0  tagged base
  localparam int NodeSizeLsb = 64;   // +8  size
  localparam int NodeP0Lsb   = 128;  // +16 LIST next / BST left
  localparam int NodeP1Lsb   = 192;  // +24 LIST prev / BST right

endpackage : ga_pkg
