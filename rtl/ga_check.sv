// Copyright GPUArmor contributors.
//
// ga_check -- the memory-safety check logic (paper §5.2 "Memory Safety Check Logic", Figure 6;
// spec §3.1, §4.2, §4.3, §4.4, §5.4). Pure combinational: Lanes lane checks in parallel against
// one metadata entry.
//
//   addr_i[l] --+--> strip: va(addr)                                   --> strip_o[l]
//               +--> match rule M1..M3 vs (etb_i, esize_i)              --> match_o[l]
//               +--> G1..G7 (MEMCHECK.G) or shared bounds (MEMCHECK.S)  --> kind[l]
//   checked[l] = active_i[l] && (!group_i || match_o[l])
//   fault_o[l] = checked[l] && kind[l] != NONE;  lowest failing lane --> first_*_o
//
// MEMCHECK.G (shared_i = 0), per lane with t = tag(a), va = va(a), first rule that applies (§4.2):
//   G1 t = 0 -> pass; G2 md_state MD_NONE -> NO_METADATA; G3 md_state not MD_OK -> METADATA_FAULT;
//   G4 etag = F -> USE_AFTER_FREE; G5 t != etag -> TAG_MISMATCH;
//   G6 !(va >= ebase && off < esize && S <= esize - off && S <= 2^V - va), off = va - ebase
//      -> OUT_OF_BOUNDS (64-bit, wrap-free exactly as the spec writes it); G7 pass.
// MEMCHECK.S (shared_i = 1), a = addr[31:0], b = etb_i[31:0], s = esize_i[31:0] (§4.3):
//   pass iff a >= b && off < s && S <= s - off && S <= 2^32 - a (33-bit for the last term).
// S = 2^size_i bytes; size_i 5..7 are reserved (the MLU asserts they never arrive) and give
// S = 32..128 through the same formula.
//
// group_i (HWOnly lane grouping, §5.4): only lanes whose start address the entry matches are checked;
// for them G1..G5 pass by construction, so each is decided by G6 alone.
//
// Parameters:
//   TagBits  7 or 16   tag width (spec §1.1)
//   Lanes    1 .. 32   lanes per warp operation (spec §4.4)
//   EndForm  0 or 1    how M3 and G6 are computed (same function, proved equal: docs/fpga.md §5.4).
//                      0 (default): as the spec writes them, off = va - ebase, esize - off, 2^V - va
//                      (three 64-bit carry chains in series). 1: against the end bound
//                      end = ebase + esize (65 bits) and va + S, with every operand zero-extended:
//                        M3  va >= ebase && va < end
//                        G6  va >= ebase && va + S <= end && va + S <= 2^V
//                      (exact integers; off < esize && S <= esize - off <=> off + S <= esize as S >= 1).
//                      Two chains in series, and with narrow operands (high bits held at 0, the FPGA
//                      narrow builds) every chain is as narrow as the operands.
// No handshake: outputs follow inputs in the same cycle.

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

module ga_check #(
  parameter int TagBits = 7,
  parameter int Lanes   = 32,
  parameter int EndForm = 0
) (
  input  logic                          shared_i,     // 1: MEMCHECK.S rules, 0: MEMCHECK.G rules
  input  logic                          group_i,      // check only lanes the entry matches (§5.4)
  input  logic [Lanes-1:0]              active_i,     // lanes to check
  input  logic [64*Lanes-1:0]           addr_i,       // lane l at [64l +: 64]
  input  logic [ga_pkg::SizeW-1:0]      size_i,       // log2 of the access size in bytes
  input  logic [ga_pkg::MdStW-1:0]      md_state_i,   // MEMCHECK.G: how the entry was obtained
  input  logic [63:0]                   etb_i,        // entry tagged base (S: shared base, low 32)
  input  logic [63:0]                   esize_i,      // entry size (S: shared size, low 32)
  output logic [64*Lanes-1:0]           strip_o,      // va(addr) of every lane, active or not
  output logic [Lanes-1:0]              match_o,      // entry matches the lane's address (§3.1)
  output logic [Lanes-1:0]              fault_o,      // checked lanes that failed
  output logic                          first_valid_o,// some lane failed
  output logic [ga_pkg::LaneW-1:0]      first_lane_o, // lowest failing lane (0 if none)
  output logic [ga_pkg::ExcW-1:0]       first_kind_o, // its kind (EXC_NONE if none)
  output logic [63:0]                   first_addr_o  // its address as given (S: zero-extended)
);

  localparam int V = 64 - TagBits;
  // F = 2^T - 1, written as a replication: Yosys 0.23 elaborates a '1 localparam initialiser as
  // the one-bit value 1 (F was 0x01 in every Yosys netlist; found by the formal proof of ga_check).
  localparam logic [TagBits-1:0] TagFreed = {TagBits{1'b1}};
  localparam logic [63:0] VaTop = 64'd1 << V;          // 2^V

  // Elaboration-time parameter checks (Icarus 11: at time 0, see ga_mlb).
  localparam bit ParamsBad = (TagBits != 7 && TagBits != 16) || (Lanes < 1) || (Lanes > 32);
`ifdef __ICARUS__
  initial begin
    if (ParamsBad) $fatal(1, "ga_check: TagBits must be 7 or 16 and Lanes 1..32");
  end
`else
  if (ParamsBad) begin : gen_bad_params
    $error("ga_check: TagBits must be 7 or 16 and Lanes 1..32");
  end
`endif

  // Entry fields shared by every lane
  logic [TagBits-1:0] etag;
  logic [63:0]        ebase;
  logic [63:0]        acc_bytes;    // S
  logic               g_entry_ok;   // G2, G3 passed
  logic               e_freed;      // G4

  assign etag       = etb_i[63:V];
  assign ebase      = {{TagBits{1'b0}}, etb_i[V-1:0]};
  assign acc_bytes  = 64'd1 << size_i;
  assign g_entry_ok = (md_state_i == ga_pkg::MD_OK);
  assign e_freed    = (etag == TagFreed);

  logic [Lanes*ga_pkg::ExcW-1:0] kind;    // per-lane result, lane l at [3l +: 3]
  logic [Lanes-1:0]              checked;

  for (genvar l = 0; l < Lanes; l++) begin : gen_lane
    logic [63:0]        a;
    logic [TagBits-1:0] t;
    logic [63:0]        va;
    logic               g_ge, g_lt, g_inb;
    logic [31:0]        s_a;
    logic               s_ge, s_inb;
    logic [ga_pkg::ExcW-1:0] g_kind;

    assign a  = addr_i[64*l +: 64];
    assign t  = a[63:V];
    assign va = {{TagBits{1'b0}}, a[V-1:0]};

    // Global: match rule and G6 (wrap-free form of spec §4.2)
    assign g_ge  = (va >= ebase);
    if (EndForm == 0) begin : gen_g_spec
      logic [63:0] g_off;
      assign g_off = va - ebase;
      assign g_lt  = (g_off < esize_i);
      assign g_inb = g_ge && g_lt && (acc_bytes <= esize_i - g_off) && (acc_bytes <= VaTop - va);
    end else begin : gen_g_end
      logic [64:0] g_end, g_vas;
      assign g_end = {1'b0, ebase} + {1'b0, esize_i};
      assign g_vas = {1'b0, va} + {1'b0, acc_bytes};
      assign g_lt  = ({1'b0, va} < g_end);
      assign g_inb = g_ge && (g_vas <= g_end) && (g_vas <= {1'b0, VaTop});
    end
    assign match_o[l] = (t != '0) && (t != TagFreed) && (t == etag) && g_ge && g_lt;

    `GA_ALWAYS_COMB begin
      if (t == '0) begin
        g_kind = ga_pkg::EXC_NONE;                     // G1 unchecked pointer
      end else if (md_state_i == ga_pkg::MD_NONE) begin
        g_kind = ga_pkg::EXC_NO_METADATA;              // G2 Rb = 0
      end else if (!g_entry_ok) begin
        g_kind = ga_pkg::EXC_METADATA_FAULT;           // G3 fetch failed
      end else if (e_freed) begin
        g_kind = ga_pkg::EXC_USE_AFTER_FREE;           // G4
      end else if (t != etag) begin
        g_kind = ga_pkg::EXC_TAG_MISMATCH;             // G5
      end else if (!g_inb) begin
        g_kind = ga_pkg::EXC_OUT_OF_BOUNDS;            // G6
      end else begin
        g_kind = ga_pkg::EXC_NONE;                     // G7
      end
    end

    // Shared (spec §4.3), 32-bit; the last term in 33 bits so that 2^32 - a never wraps
    assign s_a   = a[31:0];
    assign s_ge  = (s_a >= etb_i[31:0]);
    if (EndForm == 0) begin : gen_s_spec
      logic [31:0] s_off;
      logic        s_lt;
      assign s_off = s_a - etb_i[31:0];
      assign s_lt  = (s_off < esize_i[31:0]);
      assign s_inb = s_ge && s_lt && (acc_bytes[32:0] <= {1'b0, esize_i[31:0] - s_off})
                     && (acc_bytes[32:0] <= (33'h1_0000_0000 - {1'b0, s_a}));
    end else begin : gen_s_end
      logic [32:0] s_end, s_as;
      assign s_end = {1'b0, etb_i[31:0]} + {1'b0, esize_i[31:0]};
      assign s_as  = {1'b0, s_a} + acc_bytes[32:0];
      assign s_inb = s_ge && (s_as <= s_end) && (s_as <= 33'h1_0000_0000);
    end

    assign kind[ga_pkg::ExcW*l +: ga_pkg::ExcW] =
        shared_i ? (s_inb ? ga_pkg::EXC_NONE : ga_pkg::EXC_SHARED_OUT_OF_BOUNDS) : g_kind;

    assign checked[l] = active_i[l] && (!group_i || match_o[l]);
    assign fault_o[l] = checked[l] && (kind[ga_pkg::ExcW*l +: ga_pkg::ExcW] != ga_pkg::EXC_NONE);

    assign strip_o[64*l +: 64] = va;
  end

  // Lowest failing lane (spec §4.4). The lowest set bit of fault_o is isolated as a one-hot word
  // (lane l fails and no lower lane does: an OR tree per lane), and lane, kind and address are its
  // AND-OR multiplexers: OR trees of depth log2(Lanes) instead of a Lanes-deep chain of priority
  // multiplexers (the 32-lane unit's accept path, docs/fpga.md §11.3). No lane fails: first_oh is
  // zero and so are the outputs (EXC_NONE is 0).
  logic [Lanes-1:0] first_oh;
  for (genvar l = 0; l < Lanes; l++) begin : gen_first
    if (l == 0) begin : gen_l0
      assign first_oh[l] = fault_o[l];
    end else begin : gen_ln
      assign first_oh[l] = fault_o[l] && (fault_o[l-1:0] == '0);
    end
  end
  `GA_ALWAYS_COMB begin
    first_lane_o = '0;
    first_kind_o = ga_pkg::EXC_NONE;
    first_addr_o = '0;
    for (int l = 0; l < Lanes; l++) begin
      first_lane_o = first_lane_o | ({ga_pkg::LaneW{first_oh[l]}} & ga_pkg::LaneW'(l));
      first_kind_o = first_kind_o | ({ga_pkg::ExcW{first_oh[l]}} & kind[ga_pkg::ExcW*l +: ga_pkg::ExcW]);
      first_addr_o = first_addr_o | ({64{first_oh[l]}} &
                                     (shared_i ? {32'd0, addr_i[64*l +: 32]} : addr_i[64*l +: 64]));
    end
  end
  assign first_valid_o = |fault_o;

  // ---------------------------------------------------------------------------------------------
  // Assertions: none clocked (the block has no clock). The reserved access sizes are asserted by
  // ga_mlu where a request is accepted; the per-lane rules are checked against the C model by the
  // co-simulation (tb/).
  // ---------------------------------------------------------------------------------------------

endmodule : ga_check
