// Copyright GPUArmor contributors.
//
// ga_mlu_rsp -- the MLU's output stage: the response register (microarchitecture §1.2) and the
// commit-log register (§1.5). One per ga_mlu.
//
//   set_i + payload (the cycle's staged response) --> response register --> rsp_*_o (valid/ready)
//   ev_set_i + event (the cycle's staged MLB event) --> commit-log register --> ev_*_o (one cycle)
//
// Owns: the response register and its hold (a response stays, payload unchanged, while valid &&
// !ready), the commit-log register, and the two things that follow from them: whether a new response
// can be taken this cycle (slot_free_o) and whether the staged response halts the unit (halt_o).
//
// Ports:
//   rsp_ready_i  the LSU takes the response (rsp_valid_o && rsp_ready_i)
//   slot_free_o  the register can take a response this cycle: empty, or being taken
//                (!rsp_valid_o || rsp_ready_i); the producers stage a response only then
//   set_i        a response is staged this cycle; id_i .. lane_i its payload, registered as is
//   policy_i     the POLICY its request was accepted under (spec §8)
//   halt_o       the staged response has a fault and its POLICY is TERMINATE (spec §4.5): the
//                configuration block sets the halt at this edge (combinational from set_i,
//                fault_i and policy_i)
//   ev_set_i     an MLB event is staged this cycle; ev_kind_i .. ev_lane_i its fields
//   rsp_*_o, ev_*_o  the registers, exactly ga_mlu's response and commit-log ports
//
//   lane_load_i, lane_addr_i  LaneLoad 1 only: the lanes' address field (Lanes x 64 bits, the widest
//                of the register) loads lane_addr_i whenever lane_load_i is high, instead of addr_i
//                with set_i. The producer raises lane_load_i in every cycle it may stage a response
//                into a free slot (so the field can change while rsp_valid_o is low, never while a
//                response is held), from a shallow condition, so that the field's enable does not
//                wait for set_i's decode (ga_mlu RegCheck, docs/fpga.md §11.3); asserted: set_i
//                implies lane_load_i and lane_addr_i == addr_i.
//
// Parameters: IdW 1 .. 16 and Lanes 1 .. 32, as ga_mlu's; LaneLoad 0 (default) or 1 (above).
//
// Timing: a response or event staged in a cycle is on the outputs in the next (one register, no
// bypass); ev_valid_o is high for exactly one cycle per event. Every output but slot_free_o and
// halt_o is a register.

`ifndef GA_ALWAYS_COMB
`ifdef __ICARUS__
`define GA_ALWAYS_COMB always @*
`else
`define GA_ALWAYS_COMB always_comb
`endif
`endif

module ga_mlu_rsp #(
  parameter int IdW      = 4,
  parameter int Lanes    = 32,
  parameter int LaneLoad = 0
) (
  input  logic                 clk_i,
  input  logic                 rst_ni,

  // Staged response
  input  logic                 rsp_ready_i,
  output logic                 slot_free_o,
  input  logic                 set_i,
  input  logic [IdW-1:0]       id_i,
  input  logic [2:0]           op_i,
  input  logic [1:0]           status_i,
  input  logic [63:0]          rd_i,
  input  logic [64*Lanes-1:0]  addr_i,
  input  logic [Lanes-1:0]     fault_i,
  input  logic [2:0]           kind_i,
  input  logic [63:0]          eaddr_i,
  input  logic [63:0]          md_i,
  input  logic [63:0]          tb_i,
  input  logic [63:0]          esize_i,
  input  logic [2:0]           size_i,
  input  logic [15:0]          sm_i,
  input  logic [15:0]          warp_i,
  input  logic [4:0]           lane_i,
  input  logic                 policy_i,
  output logic                 halt_o,
  /* verilator lint_off UNUSEDSIGNAL */
  input  logic                 lane_load_i,      // LaneLoad 1 only
  input  logic [64*Lanes-1:0]  lane_addr_i,
  /* verilator lint_on UNUSEDSIGNAL */

  // Staged MLB event
  input  logic                 ev_set_i,
  input  logic [2:0]           ev_kind_i,
  input  logic [IdW-1:0]       ev_id_i,
  input  logic [5:0]           ev_slot_i,
  input  logic [4:0]           ev_lane_i,

  // Response port (MLU -> LSU), microarchitecture §1.2
  output logic                 rsp_valid_o,
  output logic [IdW-1:0]       rsp_id_o,
  output logic [2:0]           rsp_op_o,
  output logic [1:0]           rsp_status_o,
  output logic [63:0]          rsp_rd_o,
  output logic [64*Lanes-1:0]  rsp_addr_o,
  output logic [Lanes-1:0]     rsp_fault_o,
  output logic [2:0]           rsp_exc_kind_o,
  output logic [63:0]          rsp_exc_addr_o,
  output logic [63:0]          rsp_exc_md_o,
  output logic [63:0]          rsp_exc_tb_o,
  output logic [63:0]          rsp_exc_esize_o,
  output logic [2:0]           rsp_exc_size_o,
  output logic [15:0]          rsp_exc_sm_o,
  output logic [15:0]          rsp_exc_warp_o,
  output logic [4:0]           rsp_exc_lane_o,

  // MLB commit log, §1.5
  output logic                 ev_valid_o,
  output logic [2:0]           ev_kind_o,
  output logic [IdW-1:0]       ev_id_o,
  output logic [5:0]           ev_slot_o,
  output logic [4:0]           ev_lane_o
);

  // Elaboration-time parameter checks (Icarus 11: at time 0, see ga_mlb)
  localparam bit ParamsBad = (IdW < 1) || (IdW > 16) || (Lanes < 1) || (Lanes > 32) ||
                             (LaneLoad != 0 && LaneLoad != 1);
`ifdef __ICARUS__
  initial begin
    if (ParamsBad) $fatal(1, "ga_mlu_rsp: IdW 1..16, Lanes 1..32, LaneLoad 0 or 1");
  end
`else
  if (ParamsBad) begin : gen_bad_params
    $error("ga_mlu_rsp: IdW 1..16, Lanes 1..32, LaneLoad 0 or 1");
  end
`endif

  localparam int AW = 64 * Lanes;

  // Response register
  logic                 rsp_valid_q, rsp_valid_d;
  logic [IdW-1:0]       rsp_id_q, rsp_id_d;
  logic [2:0]           rsp_op_q, rsp_op_d;
  logic [1:0]           rsp_status_q, rsp_status_d;
  logic [63:0]          rsp_rd_q, rsp_rd_d;
  logic [AW-1:0]        rsp_addr_q, rsp_addr_d;
  logic [Lanes-1:0]     rsp_fault_q, rsp_fault_d;
  logic [2:0]           rsp_kind_q, rsp_kind_d;
  logic [63:0]          rsp_eaddr_q, rsp_eaddr_d;
  logic [63:0]          rsp_md_q, rsp_md_d;
  logic [63:0]          rsp_tb_q, rsp_tb_d;
  logic [63:0]          rsp_esize_q, rsp_esize_d;
  logic [2:0]           rsp_size_q, rsp_size_d;
  logic [15:0]          rsp_sm_q, rsp_sm_d;
  logic [15:0]          rsp_warp_q, rsp_warp_d;
  logic [4:0]           rsp_lane_q, rsp_lane_d;

  // Commit-log register (loaded every cycle: an event is valid for one cycle)
  logic                 ev_valid_q;
  logic [2:0]           ev_kind_q;
  logic [IdW-1:0]       ev_id_q;
  logic [5:0]           ev_slot_q;
  logic [4:0]           ev_lane_q;

  assign slot_free_o = !rsp_valid_q || rsp_ready_i;
  assign halt_o      = set_i && fault_i != '0 && policy_i == ga_pkg::POLICY_TERMINATE;

  `GA_ALWAYS_COMB begin
    // Hold while not taken; a staged response replaces it.
    rsp_valid_d  = rsp_valid_q && !rsp_ready_i;
    rsp_id_d     = rsp_id_q;
    rsp_op_d     = rsp_op_q;
    rsp_status_d = rsp_status_q;
    rsp_rd_d     = rsp_rd_q;
    rsp_addr_d   = rsp_addr_q;
    rsp_fault_d  = rsp_fault_q;
    rsp_kind_d   = rsp_kind_q;
    rsp_eaddr_d  = rsp_eaddr_q;
    rsp_md_d     = rsp_md_q;
    rsp_tb_d     = rsp_tb_q;
    rsp_esize_d  = rsp_esize_q;
    rsp_size_d   = rsp_size_q;
    rsp_sm_d     = rsp_sm_q;
    rsp_warp_d   = rsp_warp_q;
    rsp_lane_d   = rsp_lane_q;
    if (LaneLoad != 0 && lane_load_i) begin
      rsp_addr_d   = lane_addr_i;
    end
    if (set_i) begin
      rsp_valid_d  = 1'b1;
      rsp_id_d     = id_i;
      rsp_op_d     = op_i;
      rsp_status_d = status_i;
      rsp_rd_d     = rd_i;
      if (LaneLoad == 0) begin
        rsp_addr_d = addr_i;
      end
      rsp_fault_d  = fault_i;
      rsp_kind_d   = kind_i;
      rsp_eaddr_d  = eaddr_i;
      rsp_md_d     = md_i;
      rsp_tb_d     = tb_i;
      rsp_esize_d  = esize_i;
      rsp_size_d   = size_i;
      rsp_sm_d     = sm_i;
      rsp_warp_d   = warp_i;
      rsp_lane_d   = lane_i;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rsp_valid_q  <= 1'b0;
      rsp_id_q     <= '0;
      rsp_op_q     <= '0;
      rsp_status_q <= ga_pkg::RSP_OK;
      rsp_rd_q     <= '0;
      rsp_addr_q   <= '0;
      rsp_fault_q  <= '0;
      rsp_kind_q   <= ga_pkg::EXC_NONE;
      rsp_eaddr_q  <= '0;
      rsp_md_q     <= '0;
      rsp_tb_q     <= '0;
      rsp_esize_q  <= '0;
      rsp_size_q   <= '0;
      rsp_sm_q     <= '0;
      rsp_warp_q   <= '0;
      rsp_lane_q   <= '0;
      ev_valid_q   <= 1'b0;
      ev_kind_q    <= '0;
      ev_id_q      <= '0;
      ev_slot_q    <= '0;
      ev_lane_q    <= '0;
    end else begin
      rsp_valid_q  <= rsp_valid_d;
      rsp_id_q     <= rsp_id_d;
      rsp_op_q     <= rsp_op_d;
      rsp_status_q <= rsp_status_d;
      rsp_rd_q     <= rsp_rd_d;
      rsp_addr_q   <= rsp_addr_d;
      rsp_fault_q  <= rsp_fault_d;
      rsp_kind_q   <= rsp_kind_d;
      rsp_eaddr_q  <= rsp_eaddr_d;
      rsp_md_q     <= rsp_md_d;
      rsp_tb_q     <= rsp_tb_d;
      rsp_esize_q  <= rsp_esize_d;
      rsp_size_q   <= rsp_size_d;
      rsp_sm_q     <= rsp_sm_d;
      rsp_warp_q   <= rsp_warp_d;
      rsp_lane_q   <= rsp_lane_d;
      ev_valid_q   <= ev_set_i;
      ev_kind_q    <= ev_kind_i;
      ev_id_q      <= ev_id_i;
      ev_slot_q    <= ev_slot_i;
      ev_lane_q    <= ev_lane_i;
    end
  end

  assign rsp_valid_o      = rsp_valid_q;
  assign rsp_id_o         = rsp_id_q;
  assign rsp_op_o         = rsp_op_q;
  assign rsp_status_o     = rsp_status_q;
  assign rsp_rd_o         = rsp_rd_q;
  assign rsp_addr_o       = rsp_addr_q;
  assign rsp_fault_o      = rsp_fault_q;
  assign rsp_exc_kind_o   = rsp_kind_q;
  assign rsp_exc_addr_o   = rsp_eaddr_q;
  assign rsp_exc_md_o     = rsp_md_q;
  assign rsp_exc_tb_o     = rsp_tb_q;
  assign rsp_exc_esize_o  = rsp_esize_q;
  assign rsp_exc_size_o   = rsp_size_q;
  assign rsp_exc_sm_o     = rsp_sm_q;
  assign rsp_exc_warp_o   = rsp_warp_q;
  assign rsp_exc_lane_o   = rsp_lane_q;
  assign ev_valid_o       = ev_valid_q;
  assign ev_kind_o        = ev_kind_q;
  assign ev_id_o          = ev_id_q;
  assign ev_slot_o        = ev_slot_q;
  assign ev_lane_o        = ev_lane_q;

  // ---------------------------------------------------------------------------------------------
  // Assertions (simulation)
  // ---------------------------------------------------------------------------------------------
`ifndef SYNTHESIS
  // Previous-cycle copies for the stability check ($past is kept for formal runs).
  logic          rsp_hold_q;
  logic [IdW+3+2+64+AW+Lanes+3+64*4+3+16+16+5-1:0] rsp_pay_q, rsp_pay;
  assign rsp_pay = {rsp_id_o, rsp_op_o, rsp_status_o, rsp_rd_o, rsp_addr_o, rsp_fault_o,
                    rsp_exc_kind_o, rsp_exc_addr_o, rsp_exc_md_o, rsp_exc_tb_o, rsp_exc_esize_o,
                    rsp_exc_size_o, rsp_exc_sm_o, rsp_exc_warp_o, rsp_exc_lane_o};
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rsp_hold_q <= 1'b0;
      rsp_pay_q  <= '0;
    end else begin
      rsp_hold_q <= rsp_valid_o && !rsp_ready_i;
      rsp_pay_q  <= rsp_pay;
    end
  end

  always @(posedge clk_i or negedge rst_ni) begin
    if (rst_ni) begin
      begin : RspStable_A
        assert (!rsp_hold_q || (rsp_valid_o && rsp_pay == rsp_pay_q))
          else $error("RspStable_A: response changed while valid && !ready");
      end
      // A response is only staged into a free slot.
      begin : RspIntoFreeSlot_A
        assert (!set_i || slot_free_o)
          else $error("RspIntoFreeSlot_A: response with the slot occupied");
      end
      // LaneLoad: the lanes' field loads with every staged response, and what set_i would have loaded.
      if (LaneLoad != 0) begin
        begin : LaneLoadCovers_A
          assert (!set_i || (lane_load_i && lane_addr_i == addr_i))
            else $error("LaneLoadCovers_A: staged response without its lane load, or another address");
        end
        begin : LaneLoadFree_A
          assert (!lane_load_i || slot_free_o)
            else $error("LaneLoadFree_A: the lanes' field loads while a response is held");
        end
      end
    end
  end
`endif

endmodule : ga_mlu_rsp
