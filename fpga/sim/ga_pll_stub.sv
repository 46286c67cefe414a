// Copyright GPUArmor contributors.
//
// ga_pll_stub -- lint and simulation stand-in for the PLL module `ga_pll` that icepll generates per
// build (fpga/ice40.sh): the clock passes through and is locked at once.

module ga_pll (
  input  logic clock_in,
  output logic clock_out,
  output logic locked
);
  assign clock_out = clock_in;
  assign locked    = 1'b1;
endmodule : ga_pll
