// Copyright GPUArmor contributors.
//
// ga_tim_mlb -- timing probe (docs/fpga.md §5.3): ga_mlb alone between two banks of registers, so
// that nextpnr measures the register-to-register delay of one MLB lookup (pointer register -> range
// CAM -> lowest-index select -> entry multiplexer -> result register) without the rest of the MLU.
// The probe needs no pins beyond clock and one output: its input registers are an LFSR-driven shift
// chain, its result registers are folded into one registered parity bit.
//
// Parameters: TagBits, Entries as ga_mlb; VaKeep as ga_board_core (the lookup's pointer keeps its tag
// and the low VaKeep VA bits, like a narrow board build).

module ga_tim_mlb #(
  parameter int TagBits = 7,
  parameter int Entries = 8,
  parameter int VaKeep  = 64 - TagBits
) (
  input  logic clk_i,
  output logic out_o
);
  localparam int V = 64 - TagBits;
  localparam int IdxW = (Entries > 1) ? $clog2(Entries) : 1;
  localparam logic [63:0] Keep = ((VaKeep >= 64) ? '1 : ((64'd1 << VaKeep) - 64'd1)) | ~((64'd1 << V) - 64'd1);

  // Stimulus: a 64-bit LFSR and a shift chain feeding every input register.
  logic [63:0] lfsr_q = 64'h1;
  always_ff @(posedge clk_i) lfsr_q <= {lfsr_q[62:0], lfsr_q[63] ^ lfsr_q[62] ^ lfsr_q[60] ^ lfsr_q[59]};

  logic [63:0] ptr_q, loc_q, tb_q, size_q;
  logic [2:0]  op_q;
  logic [IdxW-1:0] idx_q;
  always_ff @(posedge clk_i) begin
    ptr_q  <= lfsr_q & Keep;
    loc_q  <= {ptr_q[31:0], lfsr_q[31:0]} & Keep;
    tb_q   <= loc_q;
    size_q <= tb_q & ((64'd1 << VaKeep) - 64'd1);
    op_q   <= lfsr_q[2:0];
    idx_q  <= lfsr_q[IdxW+2:3];
  end

  logic            rng_hit, loc_hit;
  logic [IdxW-1:0] rng_idx, loc_idx, fill_idx;
  logic [63:0]     rng_tb, rng_size, rng_loc, loc_tb, loc_size;

  ga_mlb #(.TagBits(TagBits), .Entries(Entries)) u_mlb (
    .clk_i, .rst_ni(1'b1),
    .rng_ptr_i(ptr_q), .rng_hit_o(rng_hit), .rng_idx_o(rng_idx), .rng_tb_o(rng_tb), .rng_size_o(rng_size),
    .rng_loc_o(rng_loc),
    .loc_i(loc_q), .loc_hit_o(loc_hit), .loc_idx_o(loc_idx), .loc_tb_o(loc_tb), .loc_size_o(loc_size),
    .loc_rd_idx_i(idx_q),                                         // (ReadForm 2 only: not read)
    .upd_op_i(op_q), .upd_idx_i(idx_q), .upd_tb_i(tb_q), .upd_size_i(size_q), .upd_loc_i(loc_q),
    .inv_loc_i(loc_q), .inv_hit_i(1'b0), .fill_idx_o(fill_idx)   // (inv_*: FillPort 0, not read)
  );

  // Result registers, then a registered fold (the fold is its own pipeline stage).
  logic [319+2*IdxW+2:0] res_q;
  logic fold_q;
  always_ff @(posedge clk_i) begin
    res_q  <= {rng_hit, loc_hit, rng_idx, loc_idx ^ fill_idx, rng_tb ^ loc_tb, rng_size, rng_loc, loc_size, loc_tb};
    fold_q <= ^res_q;
  end
  assign out_o = fold_q;
endmodule : ga_tim_mlb
