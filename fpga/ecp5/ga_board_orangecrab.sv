// Copyright GPUArmor contributors.
//
// ga_board_orangecrab -- top of the OrangeCrab r0.2 (Lattice LFE5U-25F-8MG285C) build (docs/fpga.md
// §11; pins in constraints/orangecrab_25f.lpf).
//
//   clk48_i (48 MHz oscillator, pin A9) --> power-on reset --> ga_board_core, on the oscillator's
//   clock (no PLL: the smallest ECP5 build is the CI build, and 48 MHz is its clock)
//   uart_rx_i / uart_tx_o: a 3.3 V USB-serial adapter on the Feather header (GPIO 1 = M18 receives,
//   GPIO 0 = N17 transmits); the board's own USB port goes to the FPGA directly and has no UART
//   rgb_led_o (K4 red, M3 green, J3 blue; active low): red halted or last frame failed, green MLU
//   busy, blue toggles on every frame
//
// Parameters: those of ga_board_core (NumSms 2..8: the system board of docs/fpga.md §12), plus Baud
// (ClksPerBit = round(48 MHz / Baud)).

module ga_board_orangecrab #(
  parameter int TagBits    = 7,
  parameter int MlbEntries = 8,
  parameter int Lanes      = 1,
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
  parameter int Baud       = 115200
) (
  input  logic       clk48_i,
  input  logic       uart_rx_i,
  output logic       uart_tx_o,
  output logic [2:0] rgb_led_o
);

  localparam int ClkKhz     = 48000;
  localparam int ClksPerBit = (ClkKhz * 1000 + Baud / 2) / Baud;

  logic [3:0] por_q = 4'd0;
  logic       rst_n_q = 1'b0;
  always_ff @(posedge clk48_i) begin
    if (por_q != 4'hF) begin
      por_q   <= por_q + 4'd1;
      rst_n_q <= 1'b0;
    end else begin
      rst_n_q <= 1'b1;
    end
  end

  logic [3:0] status;
  ga_board_core #(
    .TagBits(TagBits), .MlbEntries(MlbEntries), .Lanes(Lanes), .ClksPerBit(ClksPerBit),
    .MemLinesW(MemLinesW), .CntW(CntW), .ClkKhz(ClkKhz), .VaKeep(VaKeep), .MdKeep(MdKeep),
    .HwOnlyMode(HwOnlyMode), .EndForm(EndForm), .ReadForm(ReadForm), .FillPort(FillPort),
    .RegLookup(RegLookup), .RegCheck(RegCheck), .CheckLanes(CheckLanes), .NumSms(NumSms),
    .ReqSlice(ReqSlice), .MemRegOut(MemRegOut)
  ) u_core (
    .clk_i(clk48_i), .rst_ni(rst_n_q), .uart_rx_i(uart_rx_i), .uart_tx_o(uart_tx_o), .status_o(status)
  );

  // blue: frame toggle, green: MLU busy, red: halted or last frame failed; the LEDs are active low
  assign rgb_led_o = ~{status[2], status[1], status[0] | status[3]};

endmodule : ga_board_orangecrab
