// Copyright GPUArmor contributors.
//
// ga_uart_tx -- 8N1 UART transmitter of the FPGA board top (docs/fpga.md §2).
//
//   valid_i && ready_o --> {stop 1, data LSB first, start 0} shifted out, ClksPerBit cycles a bit
//
// Parameters:
//   ClksPerBit  4 .. 65535   clock cycles per bit (f_clk / baud, rounded)
//
// Handshake: a byte transfers on a rising edge with valid_i && ready_o; ready_o is high exactly while
// the transmitter is idle (it depends on state only). tx_o is a register, high when idle.

`ifndef GA_ALWAYS_COMB
`ifdef __ICARUS__
`define GA_ALWAYS_COMB always @*
`else
`define GA_ALWAYS_COMB always_comb
`endif
`endif

module ga_uart_tx #(
  parameter int ClksPerBit = 104
) (
  input  logic       clk_i,
  input  logic       rst_ni,
  input  logic       valid_i,
  output logic       ready_o,
  input  logic [7:0] data_i,
  output logic       tx_o
);

  localparam int CntW = $clog2(ClksPerBit + 1);

  localparam bit ParamsBad = (ClksPerBit < 4) || (ClksPerBit > 65535);
`ifdef __ICARUS__
  initial begin
    if (ParamsBad) $fatal(1, "ga_uart_tx: ClksPerBit 4..65535");
  end
`else
  if (ParamsBad) begin : gen_bad_params
    $error("ga_uart_tx: ClksPerBit 4..65535");
  end
`endif

  logic            busy_q, busy_d;
  logic [CntW-1:0] cnt_q, cnt_d;
  logic [3:0]      bit_q, bit_d;     // bits left to send after the current one
  logic [8:0]      sh_q, sh_d;       // {stop, data}; bit 0 is on the line after the start bit
  logic            tx_q, tx_d;

  `GA_ALWAYS_COMB begin
    busy_d = busy_q;
    cnt_d  = cnt_q;
    bit_d  = bit_q;
    sh_d   = sh_q;
    tx_d   = tx_q;
    if (!busy_q) begin
      if (valid_i) begin
        busy_d = 1'b1;
        cnt_d  = '0;
        bit_d  = 4'd9;
        sh_d   = {1'b1, data_i};
        tx_d   = 1'b0;                   // start bit
      end
    end else if (cnt_q == CntW'(ClksPerBit - 1)) begin
      cnt_d = '0;
      if (bit_q == 4'd0) begin
        busy_d = 1'b0;                   // the stop bit has been on the line for a full bit
        tx_d   = 1'b1;
      end else begin
        tx_d  = sh_q[0];
        sh_d  = {1'b1, sh_q[8:1]};
        bit_d = bit_q - 1'b1;
      end
    end else begin
      cnt_d = cnt_q + 1'b1;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      busy_q <= 1'b0;
      cnt_q  <= '0;
      bit_q  <= '0;
      sh_q   <= '1;
      tx_q   <= 1'b1;
    end else begin
      busy_q <= busy_d;
      cnt_q  <= cnt_d;
      bit_q  <= bit_d;
      sh_q   <= sh_d;
      tx_q   <= tx_d;
    end
  end

  assign ready_o = !busy_q;
  assign tx_o    = tx_q;

endmodule : ga_uart_tx
