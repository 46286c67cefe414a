// Copyright GPUArmor contributors.
//
// ga_arb -- round-robin arbiter with a locked grant: N requesters share one valid/ready port whose
// payload must stay stable while it is valid and not ready (the metadata memory port and the table
// oracle port of ga_system; docs/microarchitecture.md §10.2).
//
//   req_valid_i[s] --+                        +--> out_valid_o, out_pay_o, out_id_o
//   req_pay_i[s]   --+--> grant (lock_q ?     |
//                    |    gnt_q : first valid |<-- out_ready_i
//   req_ready_o[s] <-+    at or after ptr_q)  +    ptr_q <- grant + 1 on a transfer
//
// Parameters:
//   N     1 .. 8     requesters (ga_system's SMs)
//   PayW  >= 1       payload bits per requester (requester s at [s*PayW +: PayW])
//
// Rules:
//   - A requester keeps valid and payload stable until its transfer (the ga_walker ports do:
//     microarchitecture §3.3); this is assumed (formal) and asserted (simulation) here.
//   - out_valid_o, out_pay_o and out_id_o depend on the requesters' valid/payload and on state only,
//     never on out_ready_i, and they are stable while out_valid_o && !out_ready_i: a grant shown and not
//     taken is locked (lock_q) until it transfers.
//   - Fairness: the requester after the last winner has the highest priority (round robin), so a
//     requester that holds valid is granted after at most N - 1 transfers of the others
//     (rtl/formal/ga_system_props.svh, ArbFair_A).
//   - req_ready_o[s] = out_ready_i for the granted requester only.

`ifndef GA_ALWAYS_COMB
`ifdef __ICARUS__
`define GA_ALWAYS_COMB always @*
`else
`define GA_ALWAYS_COMB always_comb
`endif
`endif

module ga_arb #(
  parameter int N    = 2,
  parameter int PayW = 1
) (
  input  logic                 clk_i,
  input  logic                 rst_ni,

  input  logic [N-1:0]         req_valid_i,
  output logic [N-1:0]         req_ready_o,
  input  logic [N*PayW-1:0]    req_pay_i,

  output logic                 out_valid_o,
  input  logic                 out_ready_i,
  output logic [PayW-1:0]      out_pay_o,
  output logic [IdxW-1:0]      out_id_o
`ifdef FORMAL
  ,
  // Formal only: the property file's count of others' transfers while each requester waits
  // (f_skip), so that the system proof's fairness and induction see the arbiter's own count.
  output logic [N*4-1:0]       fv_skip_o
`endif
);

  localparam int IdxW = (N > 1) ? $clog2(N) : 1;

  localparam bit ParamsBad = (N < 1) || (N > 8) || (PayW < 1);
`ifdef __ICARUS__
  initial begin
    if (ParamsBad) $fatal(1, "ga_arb: N 1..8, PayW >= 1");
  end
`else
  if (ParamsBad) begin : gen_bad_params
    $error("ga_arb: N 1..8, PayW >= 1");
  end
`endif

  logic [IdxW-1:0] ptr_q, ptr_d;     // the requester with the highest priority
  logic            lock_q, lock_d;   // a grant was shown and not taken: keep it
  logic [IdxW-1:0] gnt_q, gnt_d;     // the locked grant
  logic [IdxW-1:0] gnt;              // this cycle's grant
  logic            any;
  int              ptr_int, gnt_int;
  assign ptr_int = 32'(ptr_q);
  assign gnt_int = 32'(gnt);

  // Lowest index at or after ptr_q, cyclically (the round-robin choice).
  `GA_ALWAYS_COMB begin
    gnt = '0;
    any = 1'b0;
    for (int k = N - 1; k >= 0; k--) begin
      // Scanning from the far end down to ptr_q leaves the nearest valid requester at or after the
      // pointer (cyclic distance k) as the last write.
      for (int s = 0; s < N; s++) begin
        if (req_valid_i[s] && (s == ptr_int + k || s == ptr_int + k - N)) begin
          gnt = IdxW'(s);
          any = 1'b1;
        end
      end
    end
    if (lock_q) begin
      gnt = gnt_q;
      any = 1'b1;
    end
  end

  assign out_valid_o = any && req_valid_i[gnt];
  assign out_id_o    = gnt;
  assign out_pay_o   = req_pay_i[gnt_int * PayW +: PayW];

  `GA_ALWAYS_COMB begin
    for (int s = 0; s < N; s++) req_ready_o[s] = out_valid_o && out_ready_i && (s == gnt_int);
  end

  `GA_ALWAYS_COMB begin
    ptr_d  = ptr_q;
    lock_d = lock_q;
    gnt_d  = gnt_q;
    if (out_valid_o && out_ready_i) begin
      ptr_d  = (gnt_int == N - 1) ? '0 : IdxW'(gnt_int + 1);
      lock_d = 1'b0;
    end else if (out_valid_o) begin
      lock_d = 1'b1;
      gnt_d  = gnt;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      ptr_q  <= '0;
      lock_q <= 1'b0;
      gnt_q  <= '0;
    end else begin
      ptr_q  <= ptr_d;
      lock_q <= lock_d;
      gnt_q  <= gnt_d;
    end
  end

  // -----------------------------------------------------------------------------------------------
  // Assertions (simulation; the formal properties are in rtl/formal/ga_system_props.svh)
  // -----------------------------------------------------------------------------------------------
`ifndef SYNTHESIS
  logic [N-1:0]      prev_valid_q;
  logic [N*PayW-1:0] prev_pay_q;
  logic              prev_stall_q;
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      prev_valid_q <= '0;
      prev_pay_q   <= '0;
      prev_stall_q <= 1'b0;
    end else begin
      prev_valid_q <= req_valid_i & ~req_ready_o;
      prev_pay_q   <= req_pay_i;
      prev_stall_q <= out_valid_o && !out_ready_i;
    end
  end
  always @(posedge clk_i or negedge rst_ni) begin
    if (rst_ni) begin
      for (int s = 0; s < N; s++) begin
        // A requester that was not served keeps its request (the ga_walker rule).
        if (prev_valid_q[s] && !(req_valid_i[s] &&
                                 req_pay_i[s*PayW +: PayW] == prev_pay_q[s*PayW +: PayW]))
          $error("ga_arb: ReqHeld_A: requester %0d dropped or changed a request", s);
      end
      if (prev_stall_q && !(out_valid_o && out_id_o == gnt_q))
        $error("ga_arb: OutStable_A: the shown grant changed before its transfer");
      if (!$onehot0(req_ready_o)) $error("ga_arb: OneReady_A: more than one requester served");
    end
  end
`endif

`ifdef FORMAL
`include "formal/ga_arb_props.svh"
`endif

endmodule : ga_arb
