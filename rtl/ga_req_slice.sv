// Copyright GPUArmor contributors.
//
// ga_req_slice -- a one-entry register stage on a valid/ready port (ga_system ReqSlice 1: between each
// SM's port mux and its MLU; docs/microarchitecture.md §10.1, docs/fpga.md §11.3).
//
//   in_valid_i, in_pay_i --> [ full_q, pay_q ] --> out_valid_o, out_pay_o
//   in_ready_o  <-- !full_q || out_ready_i     <-- out_ready_i
//
// The stage takes a transfer whenever it is empty or its own transfer leaves in the same cycle, so
// it adds one cycle of latency and no bubble (a transfer per cycle when the output takes one per
// cycle). Its output is a register: out_valid_o and out_pay_o depend on no input, and they are stable
// while out_valid_o && !out_ready_i (the downstream port's ReqHold rule holds whatever the upstream
// does). Transfers leave in the order they came, each exactly once. in_ready_o is a function of the
// state and out_ready_i only (never of in_valid_i).
//
// The payload register loads in_pay_i whenever the stage can take a transfer (in_ready_o), whether
// or not one is offered: its enable is the stage's own state and out_ready_i, both next to it, and
// in_valid_i reaches full_q alone. With the load qualified by in_valid_i as well, the valid of a
// far-away requester (the board core's state registers on the 4-SM ECP5 board) drove the enable of
// all PayW flip-flops and was that placement's worst path (docs/fpga.md §11.3). What the register
// holds while out_valid_o is low is no transfer: the MLU takes its port's payload only with the valid.
//
// Parameters:
//   PayW  >= 1   payload bits

module ga_req_slice #(
  parameter int PayW = 1
) (
  input  logic            clk_i,
  input  logic            rst_ni,
  input  logic            in_valid_i,
  output logic            in_ready_o,
  input  logic [PayW-1:0] in_pay_i,
  output logic            out_valid_o,
  input  logic            out_ready_i,
  output logic [PayW-1:0] out_pay_o
);

  localparam bit ParamsBad = (PayW < 1);
`ifdef __ICARUS__
  initial begin
    if (ParamsBad) $fatal(1, "ga_req_slice: PayW >= 1");
  end
`else
  if (ParamsBad) begin : gen_bad_params
    $error("ga_req_slice: PayW >= 1");
  end
`endif

  logic            full_q;
  logic [PayW-1:0] pay_q;

  assign in_ready_o  = !full_q || out_ready_i;
  assign out_valid_o = full_q;
  assign out_pay_o   = pay_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      full_q <= 1'b0;
      pay_q  <= '0;
    end else if (in_ready_o) begin
      full_q <= in_valid_i;
      pay_q  <= in_pay_i;
    end
  end

endmodule : ga_req_slice
