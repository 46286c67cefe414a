// Copyright GPUArmor contributors.
//
// ga_mlu_cfg -- the MLU's configuration registers (spec §5.1), their write legality, and the halt
// (spec §4.5). One per ga_mlu; the accept stage writes it, everything else reads it.
//
//   wr_addr_i, wr_data_i --> legality (ranges of cmodel/ga_isa.def, per build) --> wr_legal_o
//   wr_i && wr_legal_o   --> MODE | LAYOUT | ROOT | STEP_LIMIT | POLICY | SM_ID at the edge
//   halt_set_i (a faulting response commits under TERMINATE) / halt_clr_i (CLEAR_HALT) --> halted
//
// Owns: MODE, LAYOUT, ROOT, STEP_LIMIT, POLICY, SM_ID and the halt flag, with their reset values
// (MODE COMPILER, LAYOUT BST, ROOT 0, STEP_LIMIT STEP_LIMIT_RESET, POLICY REPORT, SM_ID 0, not halted).
// TAG_BITS is a parameter of ga_mlu, not a register.
//
// Ports:
//   wr_i        a CFG_WRITE is accepted this cycle (the accept stage); it writes only if legal
//   wr_addr_i   its configuration address, wr_data_i its value (the request's Rb)
//   wr_legal_o  the write is legal (combinational from wr_addr_i and wr_data_i alone, whether or not
//               wr_i): the ranges of spec §5.1, with MODE = HWONLY only in a unit built with HwOnly
//               and LAYOUT = INDEX only in one built with HasIndex; the accept stage answers
//               CFG_ERROR when it is low
//   halt_set_i  set the halt (wins over halt_clr_i); halt_clr_i clear it
//   halted_o    the halt flag; halted_d_o its next value (read by the formal properties of ga_mlu)
//   mode_o .. sm_o  the registers
//
// Parameters: HwOnly 0 | 1 and HasIndex 0 | 1, as ga_mlu's (they only narrow what is legal).
//
// Timing: every output but wr_legal_o and halted_d_o is a register; a write or a halt change takes
// effect at the edge that ends the cycle in which it is requested (as one always_ff in ga_mlu did).

`ifndef GA_ALWAYS_COMB
`ifdef __ICARUS__
`define GA_ALWAYS_COMB always @*
`else
`define GA_ALWAYS_COMB always_comb
`endif
`endif

module ga_mlu_cfg #(
  parameter int HwOnly   = 1,
  parameter int HasIndex = 1
) (
  input  logic                       clk_i,
  input  logic                       rst_ni,

  // Write port (the accept stage's CFG_WRITE)
  input  logic                       wr_i,
  input  logic [2:0]                 wr_addr_i,
  input  logic [63:0]                wr_data_i,
  output logic                       wr_legal_o,

  // Halt (spec §4.5)
  input  logic                       halt_set_i,
  input  logic                       halt_clr_i,
  output logic                       halted_o,
  output logic                       halted_d_o,

  // Registers (spec §5.1)
  output logic                       mode_o,
  output logic [ga_pkg::LayoutW-1:0] layout_o,
  output logic [63:0]                root_o,
  output logic [31:0]                limit_o,
  output logic                       policy_o,
  output logic [15:0]                sm_o
);

  // Elaboration-time parameter checks (Icarus 11: at time 0, see ga_mlb)
  localparam bit ParamsBad = (HwOnly != 0 && HwOnly != 1) || (HasIndex != 0 && HasIndex != 1);
`ifdef __ICARUS__
  initial begin
    if (ParamsBad) $fatal(1, "ga_mlu_cfg: HwOnly and HasIndex 0 or 1");
  end
`else
  if (ParamsBad) begin : gen_bad_params
    $error("ga_mlu_cfg: HwOnly and HasIndex 0 or 1");
  end
`endif

  logic                       mode_q, mode_d;
  logic [ga_pkg::LayoutW-1:0] layout_q, layout_d;
  logic [63:0]                root_q, root_d;
  logic [31:0]                limit_q, limit_d;
  logic                       policy_q, policy_d;
  logic [15:0]                sm_q, sm_d;
  logic                       halted_q, halted_d;

  // Configuration write legality (spec §5.1; microarchitecture §1.7): the ranges of cmodel/ga_isa.def
  // with LAYOUT limited to the layouts this RTL has (ga_pkg::cfg_legal, generated), MODE = HWONLY
  // only in a unit built with HwOnly, and LAYOUT = INDEX only in a unit built with HasIndex.
  function automatic logic cfg_legal(input logic [ga_pkg::CfgAddrW-1:0] a, input logic [63:0] v);
    cfg_legal = ga_pkg::cfg_legal(a, v) && (a != ga_pkg::CFG_MODE || HwOnly != 0 || !v[0]) &&
                (a != ga_pkg::CFG_LAYOUT || HasIndex != 0 ||
                 v[ga_pkg::LayoutW-1:0] != ga_pkg::LAYOUT_INDEX);
  endfunction

  assign wr_legal_o = cfg_legal(wr_addr_i, wr_data_i);

  `GA_ALWAYS_COMB begin
    mode_d   = mode_q;
    layout_d = layout_q;
    root_d   = root_q;
    limit_d  = limit_q;
    policy_d = policy_q;
    sm_d     = sm_q;
    if (wr_i && wr_legal_o) begin
      case (wr_addr_i)
        ga_pkg::CFG_MODE:       mode_d   = (HwOnly != 0) && wr_data_i[0];
        ga_pkg::CFG_LAYOUT:     layout_d = wr_data_i[ga_pkg::LayoutW-1:0];
        ga_pkg::CFG_ROOT:       root_d   = wr_data_i;
        ga_pkg::CFG_STEP_LIMIT: limit_d  = wr_data_i[31:0];
        ga_pkg::CFG_POLICY:     policy_d = wr_data_i[0];
        default:                sm_d     = wr_data_i[15:0];   // CFG_SM_ID
      endcase
    end
  end

  // A faulting response under TERMINATE halts the unit even in the cycle of a CLEAR_HALT (the two
  // never meet: a CLEAR_HALT's response has no fault).
  assign halted_d = halt_set_i ? 1'b1 : halt_clr_i ? 1'b0 : halted_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      mode_q   <= ga_pkg::MODE_COMPILER;
      layout_q <= ga_pkg::LAYOUT_BST;
      root_q   <= '0;
      limit_q  <= ga_pkg::STEP_LIMIT_RESET;
      policy_q <= ga_pkg::POLICY_REPORT;
      sm_q     <= '0;
      halted_q <= 1'b0;
    end else begin
      mode_q   <= mode_d;
      layout_q <= layout_d;
      root_q   <= root_d;
      limit_q  <= limit_d;
      policy_q <= policy_d;
      sm_q     <= sm_d;
      halted_q <= halted_d;
    end
  end

  assign mode_o     = mode_q;
  assign layout_o   = layout_q;
  assign root_o     = root_q;
  assign limit_o    = limit_q;
  assign policy_o   = policy_q;
  assign sm_o       = sm_q;
  assign halted_o   = halted_q;
  assign halted_d_o = halted_d;

  // ---------------------------------------------------------------------------------------------
  // Assertions (simulation)
  // ---------------------------------------------------------------------------------------------
`ifndef SYNTHESIS
  always @(posedge clk_i or negedge rst_ni) begin
    if (rst_ni) begin
      // Configuration registers hold legal values only (spec §5.1).
      begin : CfgLegal_A
        assert (ga_pkg::cfg_legal(ga_pkg::CFG_LAYOUT, 64'(layout_q)) && limit_q != 32'd0)
          else $error("CfgLegal_A: layout %0d limit %0d", layout_q, limit_q);
      end
    end
  end
`endif

endmodule : ga_mlu_cfg
