// Copyright GPUArmor contributors.
//
// ga_uart_rx -- 8N1 UART receiver of the FPGA board top (docs/fpga.md §2).
//
//   rx_i --> 2-flop synchroniser --> start bit found on a falling edge, confirmed at half a bit
//        --> 8 data bits sampled at mid-bit, LSB first --> stop bit: valid_o or frame_err_o
//
// A line held low for BreakBits bit times (a UART "break", tcsendbreak() on the host) raises break_o
// for one cycle; the board uses it to drop a half-received frame and wait for the next sync byte.
//
// Parameters:
//   ClksPerBit  4 .. 65535   clock cycles per bit (f_clk / baud, rounded; error below 2 % is safe)
//   BreakBits   12 .. 255    low bit times that make a break (longer than any character: 10 bits)
//
// Outputs: valid_o / frame_err_o / break_o are one-cycle pulses; data_o is held until the next byte.
// No handshake: the consumer takes a byte in the cycle valid_o is high (the board always can).

`ifndef GA_ALWAYS_COMB
`ifdef __ICARUS__
`define GA_ALWAYS_COMB always @*
`else
`define GA_ALWAYS_COMB always_comb
`endif
`endif

module ga_uart_rx #(
  parameter int ClksPerBit = 104,
  parameter int BreakBits  = 20
) (
  input  logic       clk_i,
  input  logic       rst_ni,
  input  logic       rx_i,
  output logic       valid_o,
  output logic [7:0] data_o,
  output logic       frame_err_o,
  output logic       break_o
);

  localparam int CntW   = $clog2(ClksPerBit + 1);
  localparam int BreakN = ClksPerBit * BreakBits;
  localparam int BrkW   = $clog2(BreakN + 1);

  localparam bit ParamsBad = (ClksPerBit < 4) || (ClksPerBit > 65535) || (BreakBits < 12) ||
                             (BreakBits > 255);
`ifdef __ICARUS__
  initial begin
    if (ParamsBad) $fatal(1, "ga_uart_rx: ClksPerBit 4..65535, BreakBits 12..255");
  end
`else
  if (ParamsBad) begin : gen_bad_params
    $error("ga_uart_rx: ClksPerBit 4..65535, BreakBits 12..255");
  end
`endif

  typedef enum logic [2:0] {
    RX_IDLE  = 3'd0,  // line high, waiting for a start bit
    RX_START = 3'd1,  // falling edge seen: confirm the start bit at half a bit time
    RX_DATA  = 3'd2,  // sampling the 8 data bits at mid-bit
    RX_STOP  = 3'd3,  // sampling the stop bit
    RX_WAIT  = 3'd4   // framing error: wait for the line to return high
  } rx_state_e;

  logic [1:0]      sync_q, sync_d;   // synchroniser (reset high: idle line)
  rx_state_e       state_q, state_d;
  logic [CntW-1:0] cnt_q, cnt_d;
  logic [2:0]      bit_q, bit_d;
  logic [7:0]      sh_q, sh_d;
  logic [BrkW-1:0] low_q, low_d;     // cycles the line has been low (saturates)
  logic            valid_d, ferr_d, brk_d;
  logic            valid_q, ferr_q, brk_q;
  logic            rx;

  assign rx = sync_q[1];

  `GA_ALWAYS_COMB begin
    sync_d  = {sync_q[0], rx_i};
    state_d = state_q;
    cnt_d   = cnt_q + 1'b1;
    bit_d   = bit_q;
    sh_d    = sh_q;
    valid_d = 1'b0;
    ferr_d  = 1'b0;
    low_d   = rx ? '0 : ((low_q == BrkW'(BreakN)) ? low_q : low_q + 1'b1);
    brk_d   = !rx && (low_q == BrkW'(BreakN - 1));
    case (state_q)
      RX_IDLE: begin
        cnt_d = '0;
        if (!rx) state_d = RX_START;
      end
      RX_START: begin
        if (cnt_q == CntW'(ClksPerBit / 2 - 1)) begin
          cnt_d   = '0;
          bit_d   = '0;
          if (rx) state_d = RX_IDLE;          // a glitch shorter than half a bit is ignored
          else    state_d = RX_DATA;
        end
      end
      RX_DATA: begin
        if (cnt_q == CntW'(ClksPerBit - 1)) begin
          cnt_d = '0;
          sh_d  = {rx, sh_q[7:1]};
          bit_d = bit_q + 1'b1;
          if (bit_q == 3'd7) state_d = RX_STOP;
        end
      end
      RX_STOP: begin
        if (cnt_q == CntW'(ClksPerBit - 1)) begin
          cnt_d = '0;
          if (rx) begin
            valid_d = 1'b1;
            state_d = RX_IDLE;
          end else begin
            ferr_d  = 1'b1;
            state_d = RX_WAIT;
          end
        end
      end
      RX_WAIT: begin
        cnt_d = '0;
        if (rx) state_d = RX_IDLE;
      end
      default: state_d = RX_IDLE;
    endcase
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      sync_q  <= 2'b11;
      state_q <= RX_IDLE;
      cnt_q   <= '0;
      bit_q   <= '0;
      sh_q    <= '0;
      low_q   <= '0;
      valid_q <= 1'b0;
      ferr_q  <= 1'b0;
      brk_q   <= 1'b0;
    end else begin
      sync_q  <= sync_d;
      state_q <= state_d;
      cnt_q   <= cnt_d;
      bit_q   <= bit_d;
      sh_q    <= sh_d;
      low_q   <= low_d;
      valid_q <= valid_d;
      ferr_q  <= ferr_d;
      brk_q   <= brk_d;
    end
  end

  assign valid_o     = valid_q;
  assign data_o      = sh_q;
  assign frame_err_o = ferr_q;
  assign break_o     = brk_q;

endmodule : ga_uart_rx
