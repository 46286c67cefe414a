// Copyright GPUArmor contributors.
//
// ga_check_pipe_fv -- formal proof wrapper of ga_check's register stages (RegStages 1..3, the
// FPGA builds' accept path; docs/fpga.md §11.3). Issue 14.
//
// ga_check's contract with RegStages N: with its inputs held the same in cycles t-N .. t-1, every
// output but strip_o in cycle t is the function of those inputs that RegStages 0 computes. The
// wrapper feeds free inputs to a pipelined copy (the DUT) and keeps the previous cycle's inputs
// and how many cycles in a row they were held; whenever that is N or more, the DUT's outputs must
// equal those of a combinational copy (RegStages 0) on the previous cycle's inputs. That copy is
// itself proved against the spec's rules by ga_check_fv (the check_* jobs), so the two proofs
// together say that the pipelined check is the spec's check, N cycles late. strip_o is the same
// expression at every RegStages (combinational from addr_i) and is proved by ga_check_fv.
//
//   inputs --> ga_check #(RegStages N) ----------------------------------> outputs(t)
//     \--> prev_q (inputs of t-1), held_q --> ga_check #(RegStages 0) --> expected(t)
//   assert: held_q >= N  ->  outputs(t) == expected(t)
//
// The pipeline's registers have no reset, so the proof starts from any state (BMC from an
// arbitrary state of them) and closes by k-induction with k = N + 1 (after N + 1 cycles every
// register holds a function of inputs inside the window).
//
// CheckLanes P (lanes checked per cycle, Lanes / P beats): the window is L = N + Lanes / P - 1
// cycles (ga_check's contract), and k = L + 1; the beat counter, free-running and without reset,
// starts from any value too.

`default_nettype none

module ga_check_pipe_fv #(
  parameter int TagBits   = 7,
  parameter int Lanes     = 5,
  parameter int EndForm   = 1,
  parameter int RegStages = 3,
  parameter int CheckLanes = 0
) (
  input  wire                     clk_i,
  input  wire                     shared_i,
  input  wire                     group_i,
  input  wire [Lanes-1:0]         active_i,
  input  wire [64*Lanes-1:0]      addr_i,
  input  wire [2:0]               size_i,
  input  wire [1:0]               md_state_i,
  input  wire [63:0]              etb_i,
  input  wire [63:0]              esize_i
);

  localparam int InW = 1 + 1 + Lanes + 64 * Lanes + 3 + 2 + 64 + 64;

  logic [InW-1:0] in_now;
  assign in_now = {shared_i, group_i, active_i, addr_i, size_i, md_state_i, etb_i, esize_i};

  // The window: how many cycles the inputs must be held (ga_check's contract)
  localparam int Lat = RegStages + ((CheckLanes > 0) ? Lanes / CheckLanes - 1 : 0);

  // The previous cycle's inputs and for how many cycles in a row (ending there) they were held
  // (saturating at Lat).
  logic [InW-1:0] prev_q;
  logic [5:0]     held_q = 6'd0;
  always @(posedge clk_i) begin
    prev_q <= in_now;
    held_q <= (held_q != 6'd0 && in_now == prev_q) ? ((32'(held_q) >= Lat) ? held_q : held_q + 6'd1) : 6'd1;
  end

  // The pipelined DUT on the live inputs
  logic [64*Lanes-1:0] d_strip;
  logic [Lanes-1:0]    d_match, d_fault;
  logic                d_valid;
  logic [4:0]          d_lane;
  logic [2:0]          d_kind;
  logic [63:0]         d_addr;
  ga_check #(
    .TagBits (TagBits), .Lanes (Lanes), .EndForm (EndForm), .RegStages (RegStages),
    .CheckLanes (CheckLanes)
  ) dut (
    .clk_i         (clk_i),
    .shared_i      (shared_i),
    .group_i       (group_i),
    .active_i      (active_i),
    .addr_i        (addr_i),
    .size_i        (size_i),
    .md_state_i    (md_state_i),
    .etb_i         (etb_i),
    .esize_i       (esize_i),
    .strip_o       (d_strip),
    .match_o       (d_match),
    .fault_o       (d_fault),
    .first_valid_o (d_valid),
    .first_lane_o  (d_lane),
    .first_kind_o  (d_kind),
    .first_addr_o  (d_addr)
  );

  // The combinational reference copy on the previous cycle's inputs
  logic                p_shared, p_group;
  logic [Lanes-1:0]    p_active;
  logic [64*Lanes-1:0] p_addr;
  logic [2:0]          p_size;
  logic [1:0]          p_md_state;
  logic [63:0]         p_etb, p_esize;
  assign {p_shared, p_group, p_active, p_addr, p_size, p_md_state, p_etb, p_esize} = prev_q;

  logic [64*Lanes-1:0] r_strip;
  logic [Lanes-1:0]    r_match, r_fault;
  logic                r_valid;
  logic [4:0]          r_lane;
  logic [2:0]          r_kind;
  logic [63:0]         r_addr;
  ga_check #(
    .TagBits (TagBits), .Lanes (Lanes), .EndForm (EndForm), .RegStages (0)
  ) ref_check (
    .clk_i         (clk_i),
    .shared_i      (p_shared),
    .group_i       (p_group),
    .active_i      (p_active),
    .addr_i        (p_addr),
    .size_i        (p_size),
    .md_state_i    (p_md_state),
    .etb_i         (p_etb),
    .esize_i       (p_esize),
    .strip_o       (r_strip),
    .match_o       (r_match),
    .fault_o       (r_fault),
    .first_valid_o (r_valid),
    .first_lane_o  (r_lane),
    .first_kind_o  (r_kind),
    .first_addr_o  (r_addr)
  );

  always_comb begin
    if (32'(held_q) >= Lat) begin
      PipeEqual_A: assert (d_match == r_match && d_fault == r_fault && d_valid == r_valid &&
                           d_lane == r_lane && d_kind == r_kind && d_addr == r_addr);
    end
  end

  // The wrapper's own sanity: the premise is reachable with a failing lane (not vacuous).
  always_comb begin
    PipeFault_C: cover (32'(held_q) >= Lat && d_valid && d_lane != 5'd0);
  end

endmodule : ga_check_pipe_fv
