// Copyright GPUArmor contributors.
//
// ga_check -- the memory-safety check logic (paper §5.2 "Memory Safety Check Logic", Figure 6;
// spec §3.1, §4.2, §4.3, §4.4, §5.4). Combinational (RegStages 0, the default; else pipelined, see
// RegStages): Lanes lane checks in parallel against one metadata entry (CheckLanes: fewer lane
// checks, serving the lanes in beats).
//
//   addr_i[l] --+--> strip: va(addr)                                   --> strip_o[l]
//               +--> match rule M1..M3 vs (etb_i, esize_i)              --> match_o[l]
//               +--> G1..G7 (MEMCHECK.G) or shared bounds (MEMCHECK.S)  --> kind[l]
//   checked[l] = active_i[l] && (!group_i || match_o[l])
//   fault_o[l] = checked[l] && kind[l] != NONE;  lowest failing lane --> first_*_o
//
// MEMCHECK.G (shared_i = 0), per lane with t = tag(a), va = va(a), first rule that applies (§4.2):
//   G1 t = 0 -> pass; G2 md_state MD_NONE -> NO_METADATA; G3 md_state not MD_OK -> METADATA_FAULT;
//   G4 etag = F -> USE_AFTER_FREE; G5 t != etag -> TAG_MISMATCH;
//   G6 !(va >= ebase && off < esize && S <= esize - off && S <= 2^V - va), off = va - ebase
//      -> OUT_OF_BOUNDS (64-bit, wrap-free exactly as the spec writes it); G7 pass.
// MEMCHECK.S (shared_i = 1), a = addr[31:0], b = etb_i[31:0], s = esize_i[31:0] (§4.3):
//   pass iff a >= b && off < s && S <= s - off && S <= 2^32 - a (33-bit for the last term).
// S = 2^size_i bytes; size_i 5..7 are reserved (the MLU asserts they never arrive) and give
// S = 32..128 through the same formula.
//
// group_i (HWOnly lane grouping, §5.4): only lanes whose start address the entry matches are checked;
// for them G1..G5 pass by construction, so each is decided by G6 alone.
//
// Parameters:
//   TagBits  7 or 16   tag width (spec §1.1)
//   Lanes    1 .. 32   lanes per warp operation (spec §4.4)
//   EndForm  0 or 1    how M3 and G6 are computed (same function, proved equal: docs/fpga.md §5.4).
//                      0 (default): as the spec writes them, off = va - ebase, esize - off, 2^V - va
//                      (three 64-bit carry chains in series). 1: against the end bound
//                      end = ebase + esize (65 bits) and va + S, with every operand zero-extended:
//                        M3  va >= ebase && va < end
//                        G6  va >= ebase && va + S <= end && va + S <= 2^V
//                      (exact integers; off < esize && S <= esize - off <=> off + S <= esize as S >= 1).
//                      Two chains in series, and with narrow operands (high bits held at 0, the FPGA
//                      narrow builds) every chain is as narrow as the operands.
//   RegStages 0 .. 3   register stages (the FPGA builds' accept path, docs/fpga.md §11.3). 0 (default):
//                      pure combinational, outputs follow inputs in the same cycle, clk_i unused.
//                      1: the inputs are registered (the entry operands once per group of GrpLanes
//                      lanes, kept apart so that each copy can sit next to its lanes; with EndForm 1
//                      also the entry's end bound, computed once before the register). 2: and every
//                      lane's verdict (kind, match, fault). 3: and the outputs (fault_o, match_o,
//                      first_*). Contract: with the inputs held the same in cycles t-RegStages ..
//                      t-1, every output but strip_o in cycle t is the function of those inputs that
//                      RegStages 0 computes (job check_pipe*, rtl/formal/ga_check_pipe_fv.sv);
//                      strip_o is always combinational from addr_i. The registers have no reset:
//                      until the inputs have been held that long the outputs mean nothing.
//   CheckLanes 0, or   lanes checked per cycle. 0 (default): every lane in every cycle (Lanes lane
//              P >= 1  checks). P: P lane checks, serving lanes b*P .. b*P+P-1 in beat b of a
//                      free-running beat counter (Beats = Lanes / P beats, a power of two >= 2, so
//                      every value of the counter is a beat and it needs no reset); needs RegStages
//                      >= 2 (each lane's verdict register is written in its beat). Stage 1 registers
//                      the beat's P addresses (chosen from addr_i by the counter) instead of all
//                      Lanes. The contract becomes: with the inputs held in cycles t-L .. t-1, L =
//                      RegStages + Beats - 1, the outputs in cycle t are RegStages 0's (in any L
//                      consecutive cycles every beat is checked once, after its input register
//                      holds the held inputs). The 32-lane FPGA unit's lane compares and the
//                      entry's fan-out shrink by Beats (docs/fpga.md §11.3); ga_mlu's CheckLanes.
//                      With RegStages 3 the lowest failing lane's address is taken from addr_i in
//                      the cycle before the output register (still held), so stage 1 keeps no
//                      copy of all Lanes addresses; with RegStages 2 it keeps one for that address.
// No handshake.

// Icarus 11 can spin forever at one time step on chains of always_comb blocks that assign a default
// and then override it (reproduced on a 3-block example); `always @*` is correct there. Verilator and
// Yosys get always_comb. Every function called from these blocks takes what it reads as arguments,
// so the two sensitivity rules agree.
`ifndef GA_ALWAYS_COMB
`ifdef __ICARUS__
`define GA_ALWAYS_COMB always @*
`else
`define GA_ALWAYS_COMB always_comb
`endif
`endif

module ga_check #(
  parameter int TagBits = 7,
  parameter int Lanes   = 32,
  parameter int EndForm = 0,
  parameter int RegStages = 0,
  parameter int CheckLanes = 0
) (
  /* verilator lint_off UNUSEDSIGNAL */
  input  logic                          clk_i,        // used only with RegStages > 0
  /* verilator lint_on UNUSEDSIGNAL */
  input  logic                          shared_i,     // 1: MEMCHECK.S rules, 0: MEMCHECK.G rules
  input  logic                          group_i,      // check only lanes the entry matches (§5.4)
  input  logic [Lanes-1:0]              active_i,     // lanes to check
  input  logic [64*Lanes-1:0]           addr_i,       // lane l at [64l +: 64]
  input  logic [ga_pkg::SizeW-1:0]      size_i,       // log2 of the access size in bytes
  input  logic [ga_pkg::MdStW-1:0]      md_state_i,   // MEMCHECK.G: how the entry was obtained
  input  logic [63:0]                   etb_i,        // entry tagged base (S: shared base, low 32)
  input  logic [63:0]                   esize_i,      // entry size (S: shared size, low 32)
  output logic [64*Lanes-1:0]           strip_o,      // va(addr) of every lane, active or not
  output logic [Lanes-1:0]              match_o,      // entry matches the lane's address (§3.1)
  output logic [Lanes-1:0]              fault_o,      // checked lanes that failed
  output logic                          first_valid_o,// some lane failed
  output logic [ga_pkg::LaneW-1:0]      first_lane_o, // lowest failing lane (0 if none)
  output logic [ga_pkg::ExcW-1:0]       first_kind_o, // its kind (EXC_NONE if none)
  output logic [63:0]                   first_addr_o  // its address as given (S: zero-extended)
);

  localparam int V = 64 - TagBits;
  // F = 2^T - 1, written as a replication: Yosys 0.23 elaborates a '1 localparam initialiser as
  // the one-bit value 1 (F was 0x01 in every Yosys netlist; found by the formal proof of ga_check).
  localparam logic [TagBits-1:0] TagFreed = {TagBits{1'b1}};
  localparam logic [63:0] VaTop = 64'd1 << V;          // 2^V

  // Elaboration-time parameter checks (Icarus 11: at time 0, see ga_mlb).
  // CheckLanes: the lane checks (Units) and the beats that serve every lane with them.
  localparam int Units = (CheckLanes > 0) ? CheckLanes : Lanes;
  localparam int Beats = (CheckLanes > 0) ? Lanes / CheckLanes : 1;
  localparam int BeatW = (Beats > 1) ? $clog2(Beats) : 1;
  localparam bit SerialBad = (CheckLanes < 0) ||
                             (CheckLanes > 0 && (Lanes % CheckLanes != 0 || Beats < 2 ||
                                                 (Beats & (Beats - 1)) != 0 || RegStages < 2));
  localparam bit ParamsBad = (TagBits != 7 && TagBits != 16) || (Lanes < 1) || (Lanes > 32) ||
                             (RegStages < 0) || (RegStages > 3) ||
                             (EndForm != 0 && EndForm != 1) || SerialBad;
`ifdef __ICARUS__
  initial begin
    if (ParamsBad) $fatal(1, "ga_check: TagBits must be 7 or 16, Lanes 1..32, EndForm 0 or 1, RegStages 0..3, CheckLanes 0 or a divisor of Lanes with Lanes / CheckLanes a power of two >= 2 and RegStages >= 2");
  end
`else
  if (ParamsBad) begin : gen_bad_params
    $error("ga_check: TagBits must be 7 or 16, Lanes 1..32, EndForm 0 or 1, RegStages 0..3, CheckLanes 0 or a divisor of Lanes with Lanes / CheckLanes a power of two >= 2 and RegStages >= 2");
  end
`endif

  // ---------------------------------------------------------------------------------------------
  // Stage 1: what the lane checks see. RegStages 0: the inputs. >= 1: registers, the entry operands
  // once per group of GrpLanes lane checks (each copy drives GrpLanes checks' carry chains, not all
  // of them). CheckLanes: the beat's addresses, below.
  // ---------------------------------------------------------------------------------------------
  localparam int GrpLanes = 4;
  localparam int Groups   = (Units + GrpLanes - 1) / GrpLanes;

  logic [64:0] in_end;            // EndForm 1: ebase + esize, the same for every lane
  logic [32:0] in_send;           // EndForm 1: the shared bound b + s
  assign in_end  = {1'b0, {TagBits{1'b0}}, etb_i[V-1:0]} + {1'b0, esize_i};
  assign in_send = {1'b0, etb_i[31:0]} + {1'b0, esize_i[31:0]};

  logic [Groups*64-1:0]            q_etb, q_esize;
  /* verilator lint_off UNUSEDSIGNAL */              // the end bounds: EndForm 1 only
  logic [Groups*65-1:0]            q_end;
  logic [Groups*33-1:0]            q_send;
  /* verilator lint_on UNUSEDSIGNAL */
  logic [Groups*ga_pkg::MdStW-1:0] q_md_state;
  logic [Groups*ga_pkg::SizeW-1:0] q_size;
  logic [Groups-1:0]               q_shared, q_group;
  logic [64*Lanes-1:0]             q_addr;     // every lane's (the first failing lane's address;
                                               // CheckLanes with RegStages 3: addr_i itself)
  /* verilator lint_off UNUSEDSIGNAL */              // CheckLanes: the beat's active bits instead
  logic [Lanes-1:0]                q_active;
  /* verilator lint_on UNUSEDSIGNAL */
  logic [64*Units-1:0]             u_addr;     // what lane check u sees: lane u, or (CheckLanes)
  logic [Units-1:0]                u_active;   // lane b*Units + u in beat b

  if (RegStages == 0) begin : gen_in_comb
    assign q_etb      = {Groups{etb_i}};
    assign q_esize    = {Groups{esize_i}};
    assign q_end      = {Groups{in_end}};
    assign q_send     = {Groups{in_send}};
    assign q_md_state = {Groups{md_state_i}};
    assign q_size     = {Groups{size_i}};
    assign q_shared   = {Groups{shared_i}};
    assign q_group    = {Groups{group_i}};
    assign q_addr     = addr_i;
    assign q_active   = active_i;
  end else begin : gen_in_reg
    for (genvar g = 0; g < Groups; g++) begin : gen_grp
      // keep: the copies have the same inputs, and Yosys would otherwise merge them into one.
      (* keep *) always_ff @(posedge clk_i) begin
        q_etb[64*g +: 64]                          <= etb_i;
        q_esize[64*g +: 64]                        <= esize_i;
        q_end[65*g +: 65]                          <= in_end;
        q_send[33*g +: 33]                         <= in_send;
        q_md_state[ga_pkg::MdStW*g +: ga_pkg::MdStW] <= md_state_i;
        q_size[ga_pkg::SizeW*g +: ga_pkg::SizeW]   <= size_i;
        q_shared[g]                                <= shared_i;
        q_group[g]                                 <= group_i;
      end
    end
    if (CheckLanes != 0 && RegStages == 3) begin : gen_in_addr_wire
      // CheckLanes with RegStages 3: the lane checks read the beat's slot registers, and the
      // lowest failing lane's address is selected in the cycle before the output register, when
      // the inputs are still held: addr_i itself serves, and the Lanes x 64 flip-flops go.
      assign q_addr   = addr_i;
      assign q_active = active_i;
    end else begin : gen_in_addr_reg
      always_ff @(posedge clk_i) begin
        q_addr   <= addr_i;
        q_active <= active_i;
      end
    end
  end

  // The beat counter and the beat's addresses (CheckLanes): b_q is the beat whose lanes' addresses
  // stage 1 registers in this cycle, sb_q the beat whose addresses the lane checks see (its
  // verdicts are written at the end of the cycle). Free-running: every value is a beat.
  /* verilator lint_off UNUSEDSIGNAL */              // read only with CheckLanes
  logic [BeatW-1:0] sb_q;
  /* verilator lint_on UNUSEDSIGNAL */
  if (CheckLanes == 0) begin : gen_units_all
    assign u_addr   = q_addr;
    assign u_active = q_active;
    assign sb_q     = '0;
  end else begin : gen_units_beat
    logic [BeatW-1:0]    b_q;
    logic [64*Units-1:0] b_addr, s_addr_q;
    logic [Units-1:0]    b_active, s_active_q;
    `GA_ALWAYS_COMB begin
      b_addr   = '0;
      b_active = '0;
      for (int b = 0; b < Beats; b++) begin
        b_addr   = b_addr   | ({64*Units{b_q == BeatW'(b)}} & addr_i[64*Units*b +: 64*Units]);
        b_active = b_active | ({Units{b_q == BeatW'(b)}} & active_i[Units*b +: Units]);
      end
    end
    always_ff @(posedge clk_i) begin
      b_q        <= b_q + BeatW'(1);                   // wraps at Beats, a power of two
      sb_q       <= b_q;
      s_addr_q   <= b_addr;
      s_active_q <= b_active;
    end
    assign u_addr   = s_addr_q;
    assign u_active = s_active_q;
  end

  logic [Units*ga_pkg::ExcW-1:0] kind;    // per-check result, check u at [3u +: 3]
  logic [Units-1:0]              checked;
  logic [Units-1:0]              l_match, l_fault;   // the checks' verdicts (stage 2 input)

  for (genvar l = 0; l < Units; l++) begin : gen_lane
    logic [63:0]        a;
    logic [TagBits-1:0] t;
    logic [63:0]        va;
    logic               g_ge, g_lt, g_inb;
    logic [31:0]        s_a;
    logic               s_ge, s_inb;
    logic [ga_pkg::ExcW-1:0] g_kind;

    // The lane's copy of the entry operands (its group's)
    localparam int G = l / GrpLanes;
    logic [63:0]              etb_l;
    /* verilator lint_off UNUSEDSIGNAL */
    logic [63:0]              esize_l;                  // EndForm 0 (EndForm 1 uses the end bound)
    /* verilator lint_on UNUSEDSIGNAL */
    logic [TagBits-1:0]       etag;
    logic [63:0]              ebase, acc_bytes;         // S
    logic                     g_entry_ok, e_freed;      // G2, G3 passed; G4
    logic [ga_pkg::MdStW-1:0] md_state_l;
    assign etb_l      = q_etb[64*G +: 64];
    assign esize_l    = q_esize[64*G +: 64];
    assign md_state_l = q_md_state[ga_pkg::MdStW*G +: ga_pkg::MdStW];
    assign etag       = etb_l[63:V];
    assign ebase      = {{TagBits{1'b0}}, etb_l[V-1:0]};
    assign acc_bytes  = 64'd1 << q_size[ga_pkg::SizeW*G +: ga_pkg::SizeW];
    assign g_entry_ok = (md_state_l == ga_pkg::MD_OK);
    assign e_freed    = (etag == TagFreed);

    assign a  = u_addr[64*l +: 64];
    assign t  = a[63:V];
    assign va = {{TagBits{1'b0}}, a[V-1:0]};

    // Global: match rule and G6 (wrap-free form of spec §4.2)
    assign g_ge  = (va >= ebase);
    if (EndForm == 0) begin : gen_g_spec
      logic [63:0] g_off;
      assign g_off = va - ebase;
      assign g_lt  = (g_off < esize_l);
      assign g_inb = g_ge && g_lt && (acc_bytes <= esize_l - g_off) && (acc_bytes <= VaTop - va);
    end else begin : gen_g_end
      logic [64:0] g_end, g_vas;
      assign g_end = q_end[65*G +: 65];               // {1'b0, ebase} + {1'b0, esize}
      assign g_vas = {1'b0, va} + {1'b0, acc_bytes};
      assign g_lt  = ({1'b0, va} < g_end);
      assign g_inb = g_ge && (g_vas <= g_end) && (g_vas <= {1'b0, VaTop});
    end
    assign l_match[l] = (t != '0) && (t != TagFreed) && (t == etag) && g_ge && g_lt;

    `GA_ALWAYS_COMB begin
      if (t == '0) begin
        g_kind = ga_pkg::EXC_NONE;                     // G1 unchecked pointer
      end else if (md_state_l == ga_pkg::MD_NONE) begin
        g_kind = ga_pkg::EXC_NO_METADATA;              // G2 Rb = 0
      end else if (!g_entry_ok) begin
        g_kind = ga_pkg::EXC_METADATA_FAULT;           // G3 fetch failed
      end else if (e_freed) begin
        g_kind = ga_pkg::EXC_USE_AFTER_FREE;           // G4
      end else if (t != etag) begin
        g_kind = ga_pkg::EXC_TAG_MISMATCH;             // G5
      end else if (!g_inb) begin
        g_kind = ga_pkg::EXC_OUT_OF_BOUNDS;            // G6
      end else begin
        g_kind = ga_pkg::EXC_NONE;                     // G7
      end
    end

    // Shared (spec §4.3), 32-bit; the last term in 33 bits so that 2^32 - a never wraps
    assign s_a   = a[31:0];
    assign s_ge  = (s_a >= etb_l[31:0]);
    if (EndForm == 0) begin : gen_s_spec
      logic [31:0] s_off;
      logic        s_lt;
      assign s_off = s_a - etb_l[31:0];
      assign s_lt  = (s_off < esize_l[31:0]);
      assign s_inb = s_ge && s_lt && (acc_bytes[32:0] <= {1'b0, esize_l[31:0] - s_off})
                     && (acc_bytes[32:0] <= (33'h1_0000_0000 - {1'b0, s_a}));
    end else begin : gen_s_end
      logic [32:0] s_end, s_as;
      assign s_end = q_send[33*G +: 33];              // {1'b0, b} + {1'b0, s}
      assign s_as  = {1'b0, s_a} + acc_bytes[32:0];
      assign s_inb = s_ge && (s_as <= s_end) && (s_as <= 33'h1_0000_0000);
    end

    assign kind[ga_pkg::ExcW*l +: ga_pkg::ExcW] =
        q_shared[G] ? (s_inb ? ga_pkg::EXC_NONE : ga_pkg::EXC_SHARED_OUT_OF_BOUNDS) : g_kind;

    assign checked[l] = u_active[l] && (!q_group[G] || l_match[l]);
    assign l_fault[l] = checked[l] && (kind[ga_pkg::ExcW*l +: ga_pkg::ExcW] != ga_pkg::EXC_NONE);
  end

  // strip: always from the input itself (the MLU's response takes it in the same cycle)
  for (genvar l = 0; l < Lanes; l++) begin : gen_strip
    assign strip_o[64*l +: 64] = {{TagBits{1'b0}}, addr_i[64*l +: V]};
  end

  // ---------------------------------------------------------------------------------------------
  // Stage 2: the lanes' verdicts, registered with RegStages >= 2 (CheckLanes: beat sb_q's lanes'
  // in each cycle).
  // ---------------------------------------------------------------------------------------------
  logic [Lanes*ga_pkg::ExcW-1:0] v_kind;
  logic [Lanes-1:0]              v_match, v_fault;
  if (RegStages < 2) begin : gen_v_comb
    assign v_kind  = kind;
    assign v_match = l_match;
    assign v_fault = l_fault;
  end else if (CheckLanes == 0) begin : gen_v_reg
    always_ff @(posedge clk_i) begin
      v_kind  <= kind;
      v_match <= l_match;
      v_fault <= l_fault;
    end
  end else begin : gen_v_beat
    for (genvar b = 0; b < Beats; b++) begin : gen_beat
      always_ff @(posedge clk_i) begin
        if (sb_q == BeatW'(b)) begin
          v_kind[ga_pkg::ExcW*Units*b +: ga_pkg::ExcW*Units] <= kind;
          v_match[Units*b +: Units]                          <= l_match;
          v_fault[Units*b +: Units]                          <= l_fault;
        end
      end
    end
  end

  // Lowest failing lane (spec §4.4). The lowest set bit of the fault word is isolated as a one-hot
  // word by ga_first_one (lane l fails and no lower lane does), and lane, kind and address are its
  // AND-OR multiplexers: OR trees of depth log2(Lanes) instead of a Lanes-deep chain of priority
  // multiplexers (the 32-lane unit's accept path, docs/fpga.md §11.3). The ECP5 flow keeps
  // ga_first_one apart from these multiplexers (a 32-way 64-bit select: 1 417 LUT4 instead of
  // 5 379). No lane fails: first_oh is
  // zero and so are the outputs (EXC_NONE is 0). The address is the lane's as given (stage 1).
  logic [Lanes-1:0]         first_oh;
  logic                     o_valid;
  logic [ga_pkg::LaneW-1:0] o_lane;
  logic [ga_pkg::ExcW-1:0]  o_kind;
  logic [63:0]              o_addr;
  ga_first_one #(.N(Lanes)) u_first (.m_i(v_fault), .oh_o(first_oh));
  `GA_ALWAYS_COMB begin
    o_lane = '0;
    o_kind = ga_pkg::EXC_NONE;
    o_addr = '0;
    for (int l = 0; l < Lanes; l++) begin
      o_lane = o_lane | ({ga_pkg::LaneW{first_oh[l]}} & ga_pkg::LaneW'(l));
      o_kind = o_kind | ({ga_pkg::ExcW{first_oh[l]}} & v_kind[ga_pkg::ExcW*l +: ga_pkg::ExcW]);
      o_addr = o_addr | ({64{first_oh[l]}} &
                         (q_shared[0] ? {32'd0, q_addr[64*l +: 32]} : q_addr[64*l +: 64]));
    end
  end
  assign o_valid = |v_fault;

  // ---------------------------------------------------------------------------------------------
  // Stage 3: the outputs, registered with RegStages 3.
  // ---------------------------------------------------------------------------------------------
  if (RegStages < 3) begin : gen_out_comb
    assign match_o       = v_match;
    assign fault_o       = v_fault;
    assign first_valid_o = o_valid;
    assign first_lane_o  = o_lane;
    assign first_kind_o  = o_kind;
    assign first_addr_o  = o_addr;
  end else begin : gen_out_reg
    always_ff @(posedge clk_i) begin
      match_o       <= v_match;
      fault_o       <= v_fault;
      first_valid_o <= o_valid;
      first_lane_o  <= o_lane;
      first_kind_o  <= o_kind;
      first_addr_o  <= o_addr;
    end
  end

  // ---------------------------------------------------------------------------------------------
  // Assertions: none clocked (the registers are a pipeline with no state of its own). The reserved
  // access sizes are asserted by ga_mlu where a request is accepted; the per-lane rules are checked
  // against the C model by the co-simulation (tb/).
  // ---------------------------------------------------------------------------------------------

endmodule : ga_check
