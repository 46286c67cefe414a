// Copyright GPUArmor contributors.
//
// ga_mlu_hwseq -- the MLU's HWOnly sequencer state (spec §5.4, the leader loop; spec §4.4, the record
// of the lowest failing lane). One per ga_mlu; it serves the HWOnly ACCESS held in ga_mlu's slow-op
// register, whose states SL_HW_ITER (iter_i) and SL_HW_WALK (walk_i) ga_mlu keeps.
//
//   pend_q --> lowest pending lane k --> leader (k while iterating, lead_q while walking)
//          --> lead_addr_o (the MLB range lookup, the walk's pointer)
//   this cycle's leader outcome:  freed tag F     -> the leader alone fails (NO_METADATA)
//                                 MLB range hit   -> its group (pending lanes the entry matches,
//                                                    checked by G6 in ga_check) is decided
//                                 MLB range miss  -> ga_mlu walks for it (lead_q = k)
//                                 walk done       -> FOUND: the group as on a hit; else the leader
//                                                    alone, kind from spec §5.4's mapping
//   decided lanes --> pend_q &= ~done, fault_q |= fault, record kept for the lowest failing lane
//
// Owns: the pending lanes (pend_q), the failed lanes (fault_q), the record of the lowest failing
// lane so far (kind, lane, address, entry md/tb/size) and the leader of the walk in flight (lead_q).
// ga_mlu owns what acts on the outside: the MLB touch, the commit-log events, the walker's start and
// acknowledgement, the slow-op state and the response.
//
// Ports:
//   iter_i, walk_i   ga_mlu's slow-op register is in SL_HW_ITER / SL_HW_WALK (never both; both low
//                    in a unit built without HwOnly)
//   addr_i           the lanes' addresses of the operation held (the slow-op register's)
//   rng_*_i          the MLB range lookup of lead_addr_o (made while iterating)
//   w_done_i         the walker hands back its result this cycle (as ga_mlu takes it); w_status_i,
//                    w_loc_i, w_tb_i, w_size_i that result
//   chk_*_i          ga_check on the group: pending lanes, the leader's entry (hit or FOUND walk)
//   load_i           a new HWOnly operation takes the sequencer at this edge: pend = load_pend_i,
//                    no failed lane, empty record (wins over this cycle's decisions)
//   lead_lane_o      the leader: the lowest pending lane while iterating, lead_q while walking
//   lead_addr_o      its address (lane lead_lane_o of addr_i)
//   lead_hit_o, lead_miss_o  while iterating with a lane pending and the leader's tag not F: its
//                    range lookup hits / misses (then ga_mlu starts the walk); both low else (a
//                    leader with tag F fails alone, NO_METADATA, without a lookup)
//   done_o           nothing is left pending after this cycle's decisions, in a cycle where the
//                    operation may end (iterating without a leader walk to start, or a walk done):
//                    ga_mlu answers when the response slot is free
//   fault_m_o .. esize_m_o  the failed lanes and record after this cycle's decisions (the response)
//   pend_o, fault_o, lane_o, eaddr_o, lead_o  the registers (the check's lanes; formal properties)
//
// Parameters: TagBits 7 | 16 and Lanes 1 .. 32, as ga_mlu's.
//
// Timing: the decisions of a cycle are combinational from the registers and this cycle's lookup,
// walker result and check (none of which depends on ga_mlu's next-state logic); they commit at the
// edge that ends the cycle, as does load_i. No output depends on load_i.

`ifndef GA_ALWAYS_COMB
`ifdef __ICARUS__
`define GA_ALWAYS_COMB always @*
`else
`define GA_ALWAYS_COMB always_comb
`endif
`endif

module ga_mlu_hwseq #(
  parameter int TagBits = 7,
  parameter int Lanes   = 32
) (
  input  logic                  clk_i,
  input  logic                  rst_ni,

  // The slow-op register's HWOnly states and the operation's lanes
  input  logic                  iter_i,
  input  logic                  walk_i,
  input  logic [64*Lanes-1:0]   addr_i,

  // This cycle's MLB range lookup (of lead_addr_o), walker result and group check
  input  logic                  rng_hit_i,
  input  logic [63:0]           rng_loc_i,
  input  logic [63:0]           rng_tb_i,
  input  logic [63:0]           rng_size_i,
  input  logic                  w_done_i,
  input  logic [2:0]            w_status_i,
  input  logic [63:0]           w_loc_i,
  input  logic [63:0]           w_tb_i,
  input  logic [63:0]           w_size_i,
  input  logic [Lanes-1:0]      chk_match_i,
  input  logic [Lanes-1:0]      chk_fault_i,
  input  logic [4:0]            chk_first_lane_i,
  input  logic [2:0]            chk_first_kind_i,
  input  logic [63:0]           chk_first_addr_i,

  // A new operation
  input  logic                  load_i,
  input  logic [Lanes-1:0]      load_pend_i,

  // The leader and its outcome this cycle
  output logic [4:0]            lead_lane_o,
  output logic [63:0]           lead_addr_o,
  output logic                  lead_hit_o,
  output logic                  lead_miss_o,

  // The operation's state after this cycle's decisions
  output logic                  done_o,
  output logic [Lanes-1:0]      fault_m_o,
  output logic [2:0]            kind_m_o,
  output logic [4:0]            lane_m_o,
  output logic [63:0]           eaddr_m_o,
  output logic [63:0]           md_m_o,
  output logic [63:0]           tb_m_o,
  output logic [63:0]           esize_m_o,

  // Registers
  output logic [Lanes-1:0]      pend_o,
  output logic [Lanes-1:0]      fault_o,
  output logic [4:0]            lane_o,
  output logic [63:0]           eaddr_o,
  output logic [4:0]            lead_o
);

  // Elaboration-time parameter checks (Icarus 11: at time 0, see ga_mlb)
  localparam bit ParamsBad = (TagBits != 7 && TagBits != 16) || (Lanes < 1) || (Lanes > 32);
`ifdef __ICARUS__
  initial begin
    if (ParamsBad) $fatal(1, "ga_mlu_hwseq: TagBits 7 or 16, Lanes 1..32");
  end
`else
  if (ParamsBad) begin : gen_bad_params
    $error("ga_mlu_hwseq: TagBits 7 or 16, Lanes 1..32");
  end
`endif

  localparam int V = 64 - TagBits;
  localparam logic [TagBits-1:0] TagFreed = {TagBits{1'b1}};   // (see ga_mlu: no '1 initialiser)

  logic [Lanes-1:0]     pend_q, pend_d;       // lanes still to decide
  logic [Lanes-1:0]     fault_q, fault_d;     // lanes that failed
  logic [2:0]           kind_q, kind_d;       // record of the lowest failing lane so far
  logic [4:0]           lane_q, lane_d;
  logic [63:0]          eaddr_q, eaddr_d;
  logic [63:0]          md_q, md_d;
  logic [63:0]          tb_q, tb_d;
  logic [63:0]          esize_q, esize_d;
  logic [4:0]           lead_q, lead_d;       // leader lane of the walk in flight

  // ---------------------------------------------------------------------------------------------
  // Leader (spec §5.4): the lowest pending lane
  // ---------------------------------------------------------------------------------------------
  logic [4:0]           k;                    // lowest lane of pend_q
  logic [4:0]           lead_sel;             // k while iterating, lead_q while walking
  logic [63:0]          lead_addr;
  logic [TagBits-1:0]   lead_tag;
  logic [Lanes-1:0]     lead_oh;
  logic                 lead_freed;           // iterating, a lane pending, the leader's tag is F

  `GA_ALWAYS_COMB begin
    k = '0;
    for (int l = Lanes - 1; l >= 0; l--) begin
      if (pend_q[l]) begin
        k = 5'(l);
      end
    end
  end
  assign lead_sel = walk_i ? lead_q : k;
  `GA_ALWAYS_COMB begin
    lead_addr = '0;
    for (int l = 0; l < Lanes; l++) begin
      if (lead_sel == 5'(l)) begin
        lead_addr = addr_i[64*l +: 64];
      end
    end
  end
  assign lead_tag = lead_addr[63:V];
  assign lead_oh  = Lanes'(1) << lead_sel;

  assign lead_freed   = iter_i && pend_q != '0 && lead_tag == TagFreed;
  assign lead_hit_o   = iter_i && pend_q != '0 && lead_tag != TagFreed && rng_hit_i;
  assign lead_miss_o  = iter_i && pend_q != '0 && lead_tag != TagFreed && !rng_hit_i;

  // ---------------------------------------------------------------------------------------------
  // This cycle's decided lanes (c_*): the candidate merged into the registers
  // ---------------------------------------------------------------------------------------------
  logic                 c_set;                // a lane or group of lanes was decided
  logic [Lanes-1:0]     c_fault;              // ... these of them failed
  logic [Lanes-1:0]     c_done;               // ... these were decided
  logic [4:0]           c_lane;               // lowest failing lane of the candidate
  logic [2:0]           c_kind;
  logic [63:0]          c_eaddr, c_md, c_tb, c_esize;
  logic                 try_end;              // the operation may end this cycle if nothing is left

  `GA_ALWAYS_COMB begin
    c_set = 1'b0;  c_fault = '0;  c_done = '0;  c_lane = '0;  c_kind = ga_pkg::EXC_NONE;
    c_eaddr = '0;  c_md = '0;  c_tb = '0;  c_esize = '0;
    try_end = 1'b0;
    if (iter_i) begin
      // One leader per cycle. With nothing pending, the operation ends.
      try_end = !lead_miss_o;
      if (lead_freed) begin
        // Forged freed tag: NO_METADATA alone, no LOADMETA.
        c_set   = 1'b1;
        c_done  = lead_oh;
        c_fault = lead_oh;
        c_lane  = k;
        c_kind  = ga_pkg::EXC_NO_METADATA;
        c_eaddr = lead_addr;
      end else if (lead_hit_o) begin
        // LOADMETA hit: the group of pending lanes the entry matches is decided by G6.
        c_set   = 1'b1;
        c_done  = (pend_q & chk_match_i) | lead_oh;
        c_fault = chk_fault_i;
        c_lane  = chk_first_lane_i;
        c_kind  = chk_first_kind_i;
        c_eaddr = chk_first_addr_i;
        c_md    = rng_loc_i;
        c_tb    = rng_tb_i;
        c_esize = rng_size_i;
      end
    end else if (walk_i && w_done_i) begin
      try_end = 1'b1;
      c_set   = 1'b1;
      if (w_status_i == ga_pkg::WALK_FOUND) begin
        // FOUND: decide the leader's group as on a hit.
        c_done  = (pend_q & chk_match_i) | lead_oh;
        c_fault = chk_fault_i;
        c_lane  = chk_first_lane_i;
        c_kind  = chk_first_kind_i;
        c_eaddr = chk_first_addr_i;
        c_md    = w_loc_i;
        c_tb    = w_tb_i;
        c_esize = w_size_i;
      end else begin
        // Any other end decides the leader alone.
        c_done  = lead_oh;
        c_fault = lead_oh;
        c_lane  = lead_q;
        c_eaddr = lead_addr;
        // spec §5.4's mapping, generated from cmodel/ga_isa.def (GA_WALK_EXC)
        c_kind = ga_pkg::walk_exc(w_status_i, w_tb_i[63:V] == TagFreed);
        if (w_status_i == ga_pkg::WALK_RANGE_ONLY) begin
          c_md    = w_loc_i;
          c_tb    = w_tb_i;
          c_esize = w_size_i;
        end
      end
    end
  end

  // Merge the decided lanes and keep the record of the lowest failing lane (spec §4.4): the m_*
  // values, what a response of this cycle reports.
  logic [Lanes-1:0]     pend_m, fault_m;
  logic [2:0]           kind_m;
  logic [4:0]           lane_m;
  logic [63:0]          eaddr_m, md_m, tb_m, esize_m;
  `GA_ALWAYS_COMB begin
    pend_m  = pend_q;
    fault_m = fault_q;
    kind_m  = kind_q;
    lane_m  = lane_q;
    eaddr_m = eaddr_q;
    md_m    = md_q;
    tb_m    = tb_q;
    esize_m = esize_q;
    if (c_set) begin
      pend_m  = pend_q & ~c_done;
      fault_m = fault_q | c_fault;
      if (c_fault != '0 && (fault_q == '0 || c_lane < lane_q)) begin
        kind_m  = c_kind;
        lane_m  = c_lane;
        eaddr_m = c_eaddr;
        md_m    = c_md;
        tb_m    = c_tb;
        esize_m = c_esize;
      end
    end
  end
  assign done_o = try_end && pend_m == '0;

  // Next state: a new operation, or the merged state (the walking leader is captured on a miss).
  assign pend_d  = load_i ? load_pend_i : pend_m;
  assign fault_d = load_i ? '0 : fault_m;
  assign kind_d  = load_i ? ga_pkg::EXC_NONE : kind_m;
  assign lane_d  = load_i ? '0 : lane_m;
  assign eaddr_d = load_i ? '0 : eaddr_m;
  assign md_d    = load_i ? '0 : md_m;
  assign tb_d    = load_i ? '0 : tb_m;
  assign esize_d = load_i ? '0 : esize_m;
  assign lead_d  = lead_miss_o ? k : lead_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      pend_q  <= '0;
      fault_q <= '0;
      kind_q  <= ga_pkg::EXC_NONE;
      lane_q  <= '0;
      eaddr_q <= '0;
      md_q    <= '0;
      tb_q    <= '0;
      esize_q <= '0;
      lead_q  <= '0;
    end else begin
      pend_q  <= pend_d;
      fault_q <= fault_d;
      kind_q  <= kind_d;
      lane_q  <= lane_d;
      eaddr_q <= eaddr_d;
      md_q    <= md_d;
      tb_q    <= tb_d;
      esize_q <= esize_d;
      lead_q  <= lead_d;
    end
  end

  assign lead_lane_o = lead_sel;
  assign lead_addr_o = lead_addr;
  assign fault_m_o   = fault_m;
  assign kind_m_o    = kind_m;
  assign lane_m_o    = lane_m;
  assign eaddr_m_o   = eaddr_m;
  assign md_m_o      = md_m;
  assign tb_m_o      = tb_m;
  assign esize_m_o   = esize_m;
  assign pend_o      = pend_q;
  assign fault_o     = fault_q;
  assign lane_o      = lane_q;
  assign eaddr_o     = eaddr_q;
  assign lead_o      = lead_q;

endmodule : ga_mlu_hwseq
