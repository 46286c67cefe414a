// Copyright GPUArmor contributors.
//
// ga_arb_props.svh -- formal properties of ga_arb (docs/microarchitecture.md §10.2), included at
// the bottom of rtl/ga_arb.sv under `ifdef FORMAL. Top of its own proof with GA_FV_ARB_TOP (the
// requesters' rule assumed); inside ga_system's proof the same properties are asserted per
// instance. Names end in _A (assert), _M (assume), _C (cover).
//
// Environment (GA_FV_ARB_TOP): ReqHold_M, a requester keeps valid and payload until its transfer.
// Properties:
//   OutStable_A   the shared port's payload and id are stable while valid && !ready
//   OutIsReq_A    the shared port shows exactly the granted requester's request
//   OneReady_A    at most one requester is served, and only with a transfer
//   Fair_A        while requester s waits, at most N - 1 transfers of others happen (round robin)
//   Skip_C, AllWait_C covers: the bound is reached; every requester waits at once

  logic f_arb_past = 1'b0;
  always @(posedge clk_i) f_arb_past <= 1'b1;

  logic [N-1:0]       f_wait;          // requester s showed valid and was not served last cycle
  logic [N*PayW-1:0]  f_pay_p;
  logic               f_out_hold;
  logic [PayW+IdxW-1:0] f_out_p;
  logic [N*4-1:0]     f_skip;          // transfers of others while requester s waits
  assign fv_skip_o = f_skip;           // the port for the system proof (ga_system_props.svh)

  always @(posedge clk_i) begin
    if (!rst_ni) begin
      f_wait     <= '0;
      f_out_hold <= 1'b0;
      f_skip     <= '0;
    end else begin
      f_wait     <= req_valid_i & ~req_ready_o;
      f_out_hold <= out_valid_o && !out_ready_i;
      for (int s = 0; s < N; s++) begin
        if (!req_valid_i[s] || req_ready_o[s]) f_skip[s*4 +: 4] <= '0;
        else if (out_valid_o && out_ready_i) f_skip[s*4 +: 4] <= f_skip[s*4 +: 4] + 4'd1;
      end
    end
    f_pay_p <= req_pay_i;
    f_out_p <= {out_pay_o, out_id_o};
  end

`ifdef GA_FV_ARB_TOP
  always @(*) begin
    if (!f_arb_past) begin
      ResetFirst_M: assume (!rst_ni);
    end else begin
      ResetOnce_M: assume (rst_ni);
    end
  end
  for (genvar s = 0; s < N; s++) begin : gen_fv_env
    always @(*) begin
      if (f_arb_past && rst_ni && f_wait[s]) begin
        assume (req_valid_i[s] && req_pay_i[s*PayW +: PayW] == f_pay_p[s*PayW +: PayW]);
      end
    end
  end
`endif

  // Fair_A and the lock, per requester (unlabelled: Yosys 0.23 names a procedural assertion by its
  // label alone, so labels inside a generate loop collide; a failure is reported by its line).
  for (genvar s = 0; s < N; s++) begin : gen_fv_req
    always @(*) begin
      if (f_arb_past && rst_ni) begin
        assert (32'(f_skip[s*4 +: 4]) <= N - 1);                               // Fair_A
        // Strengthening for the induction: every transfer of another requester brings the round-robin
        // pointer (or, while locked, the locked grant) at least one step closer to s.
        if (f_wait[s] && (!lock_q || gnt_q == IdxW'(s))) begin
          assert (32'(f_skip[s*4 +: 4]) + ((s >= 32'(ptr_q)) ? s - 32'(ptr_q) : s + N - 32'(ptr_q)) <= N - 1);
        end
        if (f_wait[s] && lock_q && gnt_q != IdxW'(s)) begin
          assert (32'(f_skip[s*4 +: 4]) + ((s >= 32'(gnt_q)) ? s - 32'(gnt_q) : s + N - 32'(gnt_q)) <= N - 1);
        end
        if (!f_wait[s]) assert (f_skip[s*4 +: 4] == '0);
      end
    end
  end

  always @(*) begin
    if (f_arb_past && rst_ni) begin
      if (f_out_hold) begin
        OutStable_A: assert (out_valid_o && {out_pay_o, out_id_o} == f_out_p);
      end
      OutIsReq_A: assert (out_valid_o == (|req_valid_i) &&
                          (!out_valid_o || (req_valid_i[out_id_o] &&
                                            out_pay_o == req_pay_i[gnt_int * PayW +: PayW])));
      OneReady_A: assert ($onehot0(req_ready_o) && (req_ready_o == '0 || (out_valid_o && out_ready_i)));
      IdInRange_A: assert (32'(out_id_o) < N && 32'(ptr_q) < N && 32'(gnt_q) < N);
      if (lock_q) begin
        LockValid_A: assert (req_valid_i[gnt_q] && f_wait[gnt_q]);
      end
      Skip_C:    cover (32'(f_skip[(N-1)*4 +: 4]) == N - 1);
      AllWait_C: cover (&req_valid_i && !out_ready_i);
    end
  end
