// Copyright GPUArmor contributors.
//
// EHXPLLL stand-in for Verilator lint only (make fpga-lint): the ECP5 PLL primitive's ports and the
// parameters ga_board_ulx3s sets; the clock passes through and LOCK is high. Synthesis uses the real
// primitive (Yosys' ECP5 cell library); this file is never read by the ECP5 flow.

/* verilator lint_off UNUSEDPARAM */
module EHXPLLL #(
  parameter string PLLRST_ENA      = "DISABLED",
  parameter string INTFB_WAKE      = "DISABLED",
  parameter string STDBY_ENABLE    = "DISABLED",
  parameter string DPHASE_SOURCE   = "DISABLED",
  parameter string OUTDIVIDER_MUXA = "DIVA",
  parameter string OUTDIVIDER_MUXB = "DIVB",
  parameter string OUTDIVIDER_MUXC = "DIVC",
  parameter string OUTDIVIDER_MUXD = "DIVD",
  parameter int    CLKI_DIV        = 1,
  parameter string CLKOP_ENABLE    = "ENABLED",
  parameter int    CLKOP_DIV       = 8,
  parameter int    CLKOP_CPHASE    = 0,
  parameter int    CLKOP_FPHASE    = 0,
  parameter string FEEDBK_PATH     = "CLKOP",
  parameter int    CLKFB_DIV       = 1
) (
  /* verilator lint_on UNUSEDPARAM */
  /* verilator lint_off UNUSEDSIGNAL */
  input  logic RST, STDBY, CLKFB, PHASESEL0, PHASESEL1, PHASEDIR, PHASESTEP, PHASELOADREG,
  input  logic PLLWAKESYNC, ENCLKOP,
  /* verilator lint_on UNUSEDSIGNAL */
  input  logic CLKI,
  output logic CLKOP, CLKINTFB, LOCK
);
  assign CLKOP    = CLKI;
  assign CLKINTFB = CLKI;
  assign LOCK     = 1'b1;
endmodule : EHXPLLL
