// Copyright GPUArmor contributors.
//
// ga_tim_check -- timing probe (docs/fpga.md §5.3): ga_check alone between two banks of registers
// (entry, lane address, size, state -> G1..G7 / shared rules -> fault, record and stripped address),
// the second half of the MLU's accept-stage MEMCHECK.G path. Stimulus and fold as ga_tim_mlb.

module ga_tim_check #(
  parameter int TagBits = 7,
  parameter int Lanes   = 1,
  parameter int VaKeep  = 64 - TagBits
) (
  input  logic clk_i,
  output logic out_o
);
  localparam int V = 64 - TagBits;
  localparam logic [63:0] Keep = ((VaKeep >= 64) ? '1 : ((64'd1 << VaKeep) - 64'd1)) | ~((64'd1 << V) - 64'd1);

  logic [63:0] lfsr_q = 64'h1;
  always_ff @(posedge clk_i) lfsr_q <= {lfsr_q[62:0], lfsr_q[63] ^ lfsr_q[62] ^ lfsr_q[60] ^ lfsr_q[59]};

  logic [64*Lanes-1:0] addr_q;
  logic [63:0] etb_q, esize_q;
  logic [Lanes-1:0] act_q;
  logic [2:0] size_q;
  logic [1:0] md_q;
  logic shared_q, group_q;
  // Lane 0 from the LFSR, every other lane from the previous one (a shift chain).
  always_ff @(posedge clk_i) addr_q[63:0] <= lfsr_q & Keep;
  for (genvar l = 1; l < Lanes; l++) begin : gen_chain
    always_ff @(posedge clk_i) addr_q[64*l +: 64] <= addr_q[64*(l-1) +: 64];
  end
  always_ff @(posedge clk_i) begin
    etb_q   <= addr_q[63:0];
    esize_q <= etb_q & ((64'd1 << VaKeep) - 64'd1);
    act_q   <= Lanes'(lfsr_q);
    size_q  <= lfsr_q[5:3];
    md_q    <= lfsr_q[7:6];
    shared_q <= lfsr_q[8];
    group_q  <= lfsr_q[9];
  end

  logic [64*Lanes-1:0] strip;
  logic [Lanes-1:0] match, fault;
  logic first_valid;
  logic [4:0] first_lane;
  logic [2:0] first_kind;
  logic [63:0] first_addr;
  ga_check #(.TagBits(TagBits), .Lanes(Lanes)) u_check (
    .clk_i(clk_i), .shared_i(shared_q), .group_i(group_q), .active_i(act_q), .addr_i(addr_q), .size_i(size_q),
    .md_state_i(md_q), .etb_i(etb_q), .esize_i(esize_q), .strip_o(strip), .match_o(match), .fault_o(fault),
    .first_valid_o(first_valid), .first_lane_o(first_lane), .first_kind_o(first_kind), .first_addr_o(first_addr)
  );

  logic [64*Lanes+2*Lanes+73-1:0] res_q;
  logic fold_q;
  always_ff @(posedge clk_i) begin
    res_q  <= {strip, match, fault, first_valid, first_lane, first_kind, first_addr};
    fold_q <= ^res_q;
  end
  assign out_o = fold_q;
endmodule : ga_tim_check
