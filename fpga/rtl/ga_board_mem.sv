// Copyright GPUArmor contributors.
//
// ga_board_mem -- the metadata memory of the FPGA board: the MLU's L1 read port (microarchitecture
// §1.3) served from on-chip block RAM, written by the host through the UART link (docs/fpga.md §4).
//
//   2^LinesW lines of 32 bytes at byte addresses [0, 32 * 2^LinesW). Line l, byte k at bits [8k+7:8k]
//   of a 256-bit word. Sixteen 16-bit-wide memories, one per 2-byte column, so a whole 32-byte node is
//   read in one cycle (on iCE40: 16 SB_RAM40_4K in 256 x 16 mode for LinesW = 8, i.e. 8 KiB).
//
//   read:  mem_req fire --> BRAM read (registered) --> mem_rsp_valid_o the next cycle (RegOut 0)
//                                                   --> output register --> the cycle after (RegOut 1)
//          16-byte read at addr[4] = 1: the upper half of the line, moved down to bits [127:0]
//          address bits above the window (addr[63:LinesW+5]) set: error response (mem_rsp_err_o)
//   write: one 16-bit column word of one line per cycle (wr_en_i)
//
// Parameters:
//   LinesW  4 .. 11   log2 of the number of 32-byte lines
//   RegOut  0 | 1     1: the response (the half select applied) comes from flip-flops one cycle after
//                     the block RAM's read, so the RAM's clock-to-out (4.3 ns on an ECP5 DP16KD without
//                     its output register) and the half select no longer lead the walker's compare
//                     (docs/fpga.md §11.3); every metadata read takes one cycle more
//
// Handshakes (microarchitecture §1.3): one read outstanding; mem_req_ready_o is high while none is;
// the response is valid from the cycle after the request transfer (two cycles after, RegOut 1) until
// mem_rsp_ready_i takes it (the MLU holds mem_rsp_ready_o high while a read is outstanding, so that is
// the same cycle). Data and error depend on registers only. A write and a read of the same line in one
// cycle read the old data (the host never writes while an MLU operation runs).

`ifndef GA_ALWAYS_COMB
`ifdef __ICARUS__
`define GA_ALWAYS_COMB always @*
`else
`define GA_ALWAYS_COMB always_comb
`endif
`endif

module ga_board_mem #(
  parameter int LinesW = 8,
  parameter bit RegOut = 1'b0
) (
  input  logic              clk_i,
  input  logic              rst_ni,

  // MLU metadata read port
  input  logic              mem_req_valid_i,
  output logic              mem_req_ready_o,
  input  logic [63:0]       mem_req_addr_i,
  input  logic [1:0]        mem_req_len_i,      // 0: 16 bytes, 1: 32 bytes (2, 128 bytes, is never
                                                 // issued: the board units are built with HasIndex 0)
  output logic              mem_rsp_valid_o,
  input  logic              mem_rsp_ready_i,
  output logic [255:0]      mem_rsp_data_o,
  output logic              mem_rsp_err_o,

  // Host write port: 16-bit column word wr_word_i of line wr_line_i
  input  logic              wr_en_i,
  input  logic [LinesW-1:0] wr_line_i,
  input  logic [3:0]        wr_word_i,
  input  logic [15:0]       wr_data_i
);

  localparam bit ParamsBad = (LinesW < 4) || (LinesW > 11);
`ifdef __ICARUS__
  initial begin
    if (ParamsBad) $fatal(1, "ga_board_mem: LinesW 4..11");
  end
`else
  if (ParamsBad) begin : gen_bad_params
    $error("ga_board_mem: LinesW 4..11");
  end
`endif

  logic              pend_q, pend_d;    // a read is outstanding (RegOut 0: its response is valid)
  logic              half_q, half_d;    // it is the upper 16 bytes of the line
  logic              err_q, err_d;      // it is outside the window
  logic              rd_fire;
  logic [LinesW-1:0] rd_line;
  logic [255:0]      line_q;            // the BRAM output registers

  logic              out_q;             // RegOut 1: the response in the output register is valid

  assign mem_req_ready_o = !pend_q && !out_q;
  assign rd_fire         = mem_req_valid_i && mem_req_ready_o;
  assign rd_line         = mem_req_addr_i[LinesW+4:5];

  `GA_ALWAYS_COMB begin
    pend_d = pend_q;
    half_d = half_q;
    err_d  = err_q;
    // RegOut 1: the read moves on to the output register the cycle after it fired
    if (pend_q && (RegOut || mem_rsp_ready_i)) begin
      pend_d = 1'b0;
    end
    if (rd_fire) begin
      pend_d = 1'b1;
      half_d = (mem_req_len_i == 2'd0) && mem_req_addr_i[4];
      err_d  = (mem_req_addr_i[63:LinesW+5] != '0);
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      pend_q <= 1'b0;
      half_q <= 1'b0;
      err_q  <= 1'b0;
    end else begin
      pend_q <= pend_d;
      half_q <= half_d;
      err_q  <= err_d;
    end
  end

  // Sixteen 2^LinesW x 16 memories: block RAM with a registered read (no reset: BRAM output latches
  // have none). Contents start at zero (iCE40 block RAM is zero after configuration).
  for (genvar c = 0; c < 16; c++) begin : gen_col
    logic [15:0] ram [0:(1 << LinesW) - 1];
    logic [15:0] rd_q;
    initial begin
      for (int i = 0; i < (1 << LinesW); i++) ram[i] = 16'd0;
    end
    always_ff @(posedge clk_i) begin
      if (wr_en_i && wr_word_i == 4'(c)) begin
        ram[wr_line_i] <= wr_data_i;
      end
      if (rd_fire) begin
        rd_q <= ram[rd_line];
      end
    end
    assign line_q[16*c +: 16] = rd_q;
  end

  logic [255:0] rsp_data;
  assign rsp_data = half_q ? {128'd0, line_q[255:128]} : line_q;

  if (RegOut) begin : gen_reg_out
    logic         oerr_q;
    logic [255:0] odata_q;              // no reset: only read while out_q
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        out_q  <= 1'b0;
        oerr_q <= 1'b0;
      end else begin
        if (pend_q) begin
          out_q  <= 1'b1;
          oerr_q <= err_q;
        end else if (mem_rsp_ready_i) begin
          out_q  <= 1'b0;
        end
      end
    end
    always_ff @(posedge clk_i) begin
      if (pend_q) odata_q <= rsp_data;
    end
    assign mem_rsp_valid_o = out_q;
    assign mem_rsp_err_o   = oerr_q;
    assign mem_rsp_data_o  = odata_q;
  end else begin : gen_comb_out
    assign out_q           = 1'b0;
    assign mem_rsp_valid_o = pend_q;
    assign mem_rsp_err_o   = err_q;
    assign mem_rsp_data_o  = rsp_data;
  end

  // Reads are 16-byte aligned (the walker asserts it): the low address bits carry nothing.
  logic unused_addr;
  assign unused_addr = ^mem_req_addr_i[3:0];

endmodule : ga_board_mem
