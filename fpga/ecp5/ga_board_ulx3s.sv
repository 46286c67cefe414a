// Copyright GPUArmor contributors.
//
// ga_board_ulx3s -- top of the ULX3S (Lattice LFE5U-85F-6BG381C) build (docs/fpga.md §11; pins in
// constraints/ulx3s_85f.lpf).
//
//   clk_25mhz_i (25 MHz oscillator, pin G2) --> EHXPLLL (dividers from yowasp-ecppll for the build's
//   clock) --> power-on reset (held until the PLL locks, then 15 cycles) --> ga_board_core
//   uart_rx_i / uart_tx_o: the FT231X USB UART (FPGA receives on M1, transmits on L4), 8N1 at Baud
//   led_o[7:0] (B2 C2 C1 D2 D1 E2 E1 H3): 0 halted, 1 MLU busy, 2 frame toggle, 3 last frame failed,
//   7 heartbeat
//
// Parameters: those of ga_board_core (NumSms 1: one SM's MLU, protocol version 1; NumSms 2..8: the
// system board of docs/fpga.md §12, protocol version 2), plus
//   ClkKhz                       the PLL's output frequency in kHz (the build's clock)
//   ClkiDiv, ClkfbDiv, ClkopDiv  the EHXPLLL dividers for it: 25 MHz / ClkiDiv * ClkfbDiv, VCO =
//                                output * ClkopDiv (yowasp-ecppll -i 25 -o MHZ prints them)
//   Baud                         the UART's baud rate; ClksPerBit = round(ClkKhz * 1000 / Baud)

module ga_board_ulx3s #(
  parameter int TagBits    = 7,
  parameter int MlbEntries = 16,
  parameter int Lanes      = 16,
  parameter int MemLinesW  = 8,
  parameter int CntW       = 24,
  parameter int VaKeep     = 64 - TagBits,
  parameter int MdKeep     = 32,
  parameter int HwOnlyMode = 0,
  parameter int EndForm    = 1,
  parameter int ReadForm   = 0,
  parameter int FillPort   = 0,
  parameter int RegLookup  = 1,
  parameter int RegCheck   = 0,
  parameter int CheckLanes = 0,
  parameter int NumSms     = 1,
  parameter int ReqSlice   = 0,
  parameter int MemRegOut  = 0,
  parameter int ClkKhz     = 60000,
  parameter int ClkiDiv    = 5,
  parameter int ClkfbDiv   = 12,
  parameter int ClkopDiv   = 10,
  parameter int Baud       = 115200
) (
  input  logic       clk_25mhz_i,
  input  logic       uart_rx_i,
  output logic       uart_tx_o,
  output logic [7:0] led_o
);

  localparam int ClksPerBit = (ClkKhz * 1000 + Baud / 2) / Baud;

  logic clk, locked;
  // CLKINTFB (internal feedback) is not used: the feedback path is CLKOP.
  /* verilator lint_off PINCONNECTEMPTY */
  (* FREQUENCY_PIN_CLKI = "25" *)
  EHXPLLL #(
    .PLLRST_ENA("DISABLED"), .INTFB_WAKE("DISABLED"), .STDBY_ENABLE("DISABLED"),
    .DPHASE_SOURCE("DISABLED"), .OUTDIVIDER_MUXA("DIVA"), .OUTDIVIDER_MUXB("DIVB"),
    .OUTDIVIDER_MUXC("DIVC"), .OUTDIVIDER_MUXD("DIVD"),
    .CLKI_DIV(ClkiDiv), .CLKOP_ENABLE("ENABLED"), .CLKOP_DIV(ClkopDiv),
    // the output phase counter is set to the middle of the divider, as Lattice's PLL tools do
    .CLKOP_CPHASE(ClkopDiv / 2 - 1), .CLKOP_FPHASE(0), .FEEDBK_PATH("CLKOP"), .CLKFB_DIV(ClkfbDiv)
  ) u_pll (
    .RST(1'b0), .STDBY(1'b0), .CLKI(clk_25mhz_i), .CLKOP(clk), .CLKFB(clk), .CLKINTFB(),
    .PHASESEL0(1'b0), .PHASESEL1(1'b0), .PHASEDIR(1'b1), .PHASESTEP(1'b1), .PHASELOADREG(1'b1),
    .PLLWAKESYNC(1'b0), .ENCLKOP(1'b0), .LOCK(locked)
  );
  /* verilator lint_on PINCONNECTEMPTY */

  // Power-on reset: held until the PLL has locked and the counter has run out (ECP5 flip-flops are
  // 0 after configuration).
  logic [3:0] por_q;
  logic       rst_n_q;
  always_ff @(posedge clk) begin
    if (!locked) begin
      por_q   <= 4'd0;
      rst_n_q <= 1'b0;
    end else if (por_q != 4'hF) begin
      por_q   <= por_q + 4'd1;
      rst_n_q <= 1'b0;
    end else begin
      rst_n_q <= 1'b1;
    end
  end

  logic [3:0]  status;
  logic [24:0] beat_q;
  always_ff @(posedge clk) beat_q <= beat_q + 25'd1;

  ga_board_core #(
    .TagBits(TagBits), .MlbEntries(MlbEntries), .Lanes(Lanes), .ClksPerBit(ClksPerBit),
    .MemLinesW(MemLinesW), .CntW(CntW), .ClkKhz(ClkKhz), .VaKeep(VaKeep), .MdKeep(MdKeep),
    .HwOnlyMode(HwOnlyMode), .EndForm(EndForm), .ReadForm(ReadForm), .FillPort(FillPort),
    .RegLookup(RegLookup), .RegCheck(RegCheck), .CheckLanes(CheckLanes), .NumSms(NumSms),
    .ReqSlice(ReqSlice), .MemRegOut(MemRegOut)
  ) u_core (
    .clk_i(clk), .rst_ni(rst_n_q), .uart_rx_i(uart_rx_i), .uart_tx_o(uart_tx_o), .status_o(status)
  );

  assign led_o = {beat_q[24], 3'b000, status};

endmodule : ga_board_ulx3s
