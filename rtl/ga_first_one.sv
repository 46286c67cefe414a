// Copyright GPUArmor contributors.
//
// ga_first_one -- the lowest set bit of a mask as a one-hot word (lowest index wins: spec §4.4 for the
// failing lane, §6.2 for an MLB hit). oh_o[i] = m_i[i] && no lower bit of m_i is set; a zero mask
// gives a zero word. The source is a chain over the bits; synthesis balances it (an OR tree per bit
// in the source gave the SMT2 proofs of the MLB up to ten times the run time, docs/fpga.md §11.4).
//
// Why a module of its own: its users feed the one-hot word straight into wide AND-OR multiplexers (an
// MLB hit's 64-bit fields, the failing lane's 64-bit address). Given the mask and the multiplexer as
// one flat netlist, YoWASP Yosys 0.70's synth_ecp5 -abc9 merges the priority logic into every output
// bit: a 16-way 64-bit select after this function costs 3 489 LUT4 and 1 131 L6MUX21 flattened, 757
// LUT4 with this module kept apart (a 32-way: 5 379 LUT4 and 1 408 L6MUX21 against 1 417 LUT4;
// docs/fpga.md §11). The ECP5 flow (fpga/ecp5.sh) therefore keeps this module's boundary
// (keep_hierarchy); every other flow flattens it, and the function is the same either way.
//
// Parameters: N >= 1, the mask width.

module ga_first_one #(
  parameter int N = 8
) (
  input  logic [N-1:0] m_i,
  output logic [N-1:0] oh_o
);

  // Elaboration stops here in Verilator and Yosys; Icarus 11 has no elaboration-time $error in
  // generate blocks, so it stops at time 0 instead.
`ifdef __ICARUS__
  initial begin
    if (N < 1) $fatal(1, "ga_first_one: N must be at least 1");
  end
`else
  if (N < 1) begin : gen_bad_params
    $error("ga_first_one: N must be at least 1");
  end
`endif

  function automatic logic [N-1:0] first_one(input logic [N-1:0] m);
    logic [N-1:0] f;
    logic         seen;   // some bit below i is set (a chain in the source; synthesis balances it)
    f    = '0;
    seen = 1'b0;
    for (int i = 0; i < N; i++) begin
      f[i] = m[i] && !seen;
      seen = seen || m[i];
    end
    first_one = f;
  endfunction

  assign oh_o = first_one(m_i);

endmodule : ga_first_one
