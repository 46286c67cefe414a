// Copyright GPUArmor contributors.
//
// ga_check_fv -- formal proof wrapper of ga_check (spec §3.1, §4.2, §4.3, §4.4). Issue 6.
//
// ga_check is pure combinational, so one solver step over free inputs is a proof for all inputs.
// The wrapper instantiates the DUT and recomputes, for one lane chosen by a free index k_i (any lane
// 0..Lanes-1), the spec's answer with a plain reference written here from spec.md, independently of
// the RTL's wrap-free arithmetic: the bounds of rule G6 are evaluated on exact integers (66-bit
// words hold every sum without wrapping), the G1..G7 table is re-read top to bottom.
//
//   k_i, inputs --> ga_check (DUT) --> strip / match / fault / first_* of lane k
//              \--> reference (exact integers) -------------^  equal? (assert, _A)
//
// Parameters: TagBits 7 or 16, Lanes 1..32, EndForm 0 or 1 (see mk/formal.mk for the proved set).
// No clock: the properties are immediate assertions in an always_comb block (yosys-smtbmc checks
// them in every step; step 0 already covers every input).

`default_nettype none

module ga_check_fv #(
  parameter int TagBits = 7,
  parameter int Lanes   = 32,
  parameter int EndForm = 0      // ga_check's EndForm (both forms must meet the same reference)
) (
  input  wire                     shared_i,
  input  wire                     group_i,
  input  wire [Lanes-1:0]         active_i,
  input  wire [64*Lanes-1:0]      addr_i,
  input  wire [2:0]               size_i,
  input  wire [1:0]               md_state_i,
  input  wire [63:0]              etb_i,
  input  wire [63:0]              esize_i,
  input  wire [4:0]               k_i          // the lane under proof (symbolic)
);

  localparam int V = 64 - TagBits;

  logic [64*Lanes-1:0] strip;
  logic [Lanes-1:0]    match, fault;
  logic                first_valid;
  logic [4:0]          first_lane;
  logic [2:0]          first_kind;
  logic [63:0]         first_addr;

  ga_check #(
    .TagBits (TagBits),
    .Lanes   (Lanes),
    .EndForm (EndForm)
  ) dut (
    .clk_i         (1'b0),          // RegStages 0: combinational, no clock
    .shared_i      (shared_i),
    .group_i       (group_i),
    .active_i      (active_i),
    .addr_i        (addr_i),
    .size_i        (size_i),
    .md_state_i    (md_state_i),
    .etb_i         (etb_i),
    .esize_i       (esize_i),
    .strip_o       (strip),
    .match_o       (match),
    .fault_o       (fault),
    .first_valid_o (first_valid),
    .first_lane_o  (first_lane),
    .first_kind_o  (first_kind),
    .first_addr_o  (first_addr)
  );

  // ---------------------------------------------------------------------------------------------
  // Reference, lane k (spec wording in the comments)
  // ---------------------------------------------------------------------------------------------
  logic [63:0] a;              // the lane's tagged address Ra
  logic        act_k, match_k, fault_k, lower_fault;
  logic [63:0] strip_k;
  always_comb begin
    a = '0; act_k = 1'b0; match_k = 1'b0; fault_k = 1'b0; strip_k = '0;
    for (int l = 0; l < Lanes; l++) begin
      if (k_i == 5'(l)) begin
        a       = addr_i[64*l +: 64];
        act_k   = active_i[l];
        match_k = match[l];
        fault_k = fault[l];
        strip_k = strip[64*l +: 64];
      end
    end
    lower_fault = 1'b0;                   // some lane below k failed
    for (int l = 0; l < Lanes; l++) begin
      if (5'(l) < k_i && fault[l]) lower_fault = 1'b1;
    end
  end

  // spec §1.1: tag(p) = p >> V, va(p) = p mod 2^V; F = 2^T - 1
  logic [63:0] t, va, etag, ebase, f_tag;
  assign t     = a >> V;
  assign va    = a - (t << V);
  assign etag  = etb_i >> V;
  assign ebase = etb_i - (etag << V);
  assign f_tag = (64'd1 << TagBits) - 64'd1;

  // Exact integers: 66 bits hold va + S, ebase + size and 2^V without wrapping.
  logic [65:0] x_va, x_s, x_base, x_end, x_lim;
  assign x_va   = {2'b00, va};
  assign x_s    = 66'd1 << size_i;                       // S = 2^size_i (5..7 reserved: same rule)
  assign x_base = {2'b00, ebase};
  assign x_end  = {2'b00, ebase} + {2'b00, esize_i};     // one past the entry's last byte
  assign x_lim  = 66'd1 << V;                            // 2^V

  logic r_covers, r_match, r_inb;
  assign r_covers = (x_base <= x_va) && (x_va < x_end);                           // M3
  assign r_match  = (t != 64'd0) && (t != f_tag) && (t == etag) && r_covers;      // M1, M2, M3
  assign r_inb    = (x_base <= x_va) && (x_va + x_s <= x_end) && (x_va + x_s <= x_lim);  // G6

  // MEMCHECK.S (spec §4.3): 32-bit a, b, s; exact integers in 34 bits
  logic [33:0] s_a, s_b, s_s, s_sz;
  logic        r_sh_ok;
  assign s_a     = {2'b00, a[31:0]};
  assign s_b     = {2'b00, etb_i[31:0]};
  assign s_s     = {2'b00, esize_i[31:0]};
  assign s_sz    = 34'd1 << size_i;
  assign r_sh_ok = (s_b <= s_a) && (s_a + s_sz <= s_b + s_s) && (s_a + s_sz <= 34'h1_0000_0000);

  // MEMCHECK.G, spec §4.2 table: the first rule that applies decides.
  logic [2:0] r_kind;
  always_comb begin
    if (shared_i)                             r_kind = r_sh_ok ? ga_pkg::EXC_NONE
                                                               : ga_pkg::EXC_SHARED_OUT_OF_BOUNDS;
    else if (t == 64'd0)                      r_kind = ga_pkg::EXC_NONE;              // G1
    else if (md_state_i == ga_pkg::MD_NONE)   r_kind = ga_pkg::EXC_NO_METADATA;       // G2
    else if (md_state_i != ga_pkg::MD_OK)     r_kind = ga_pkg::EXC_METADATA_FAULT;    // G3
    else if (etag == f_tag)                   r_kind = ga_pkg::EXC_USE_AFTER_FREE;    // G4
    else if (t != etag)                       r_kind = ga_pkg::EXC_TAG_MISMATCH;      // G5
    else if (!r_inb)                          r_kind = ga_pkg::EXC_OUT_OF_BOUNDS;     // G6
    else                                      r_kind = ga_pkg::EXC_NONE;              // G7
  end

  // The issue's plain statement of a global pass (MEMCHECK.G, entry obtained): tag 0, or the tag
  // equals the entry's (a live one: not F) and the whole access lies inside [base, base+size) and
  // inside the VA space.
  logic r_pass_plain;
  assign r_pass_plain = (t == 64'd0) ||
                        (md_state_i == ga_pkg::MD_OK && etag != f_tag && t == etag && r_inb);

  logic r_checked;
  assign r_checked = act_k && (!group_i || r_match);

  // ---------------------------------------------------------------------------------------------
  // Properties
  // ---------------------------------------------------------------------------------------------
  always_comb begin
    if (32'(k_i) < Lanes) begin
      // Strip (Table 3: "address with tag cleared"), every lane, active or not.
      StripIsVa_A:    assert (strip_k == va && strip_k == (a & ((64'd1 << V) - 64'd1)));
      // The match rule M1..M3, independent of active_i.
      MatchRule_A:    assert (match_k == r_match);
      // A checked lane fails exactly when its rule's kind is not NONE.
      FaultExact_A:   assert (fault_k == (r_checked && r_kind != ga_pkg::EXC_NONE));
      // The issue's plain statement, MEMCHECK.G without grouping.
      PassPlain_A:    assert (shared_i || group_i || !act_k || (fault_k == !r_pass_plain));
      // Lowest failing lane (spec §4.4): when k fails and no lower lane does, k is reported with
      // its own kind and its address as given (zero-extended for shared).
      if (fault_k && !lower_fault) begin
        FirstLane_A:  assert (first_valid && first_lane == k_i && first_kind == r_kind &&
                              first_addr == (shared_i ? {32'd0, a[31:0]} : a));
      end
      if (fault_k) begin
        FirstNotAbove_A: assert (first_valid && first_lane <= k_i);
      end
    end
    FirstValid_A: assert (first_valid == (fault != '0));
    if (!first_valid) begin
      NoRecord_A:  assert (first_lane == '0 && first_kind == ga_pkg::EXC_NONE && first_addr == '0);
    end
  end

  // ---------------------------------------------------------------------------------------------
  // Environment: the lane index names a lane
  // ---------------------------------------------------------------------------------------------
  always_comb begin
    LaneInRange_M: assume (32'(k_i) < Lanes);
`ifdef FIXSIZE
    FixSize_M: assume (size_i == `FIXSIZE);
`endif
`ifdef NOSHARED
    NoShared_M: assume (!shared_i);
`endif
`ifdef ONLYSHARED
    OnlyShared_M: assume (shared_i);
`endif
  end

  // ---------------------------------------------------------------------------------------------
  // Covers: each kind and the edges of the VA space are reachable through lane k
  // ---------------------------------------------------------------------------------------------
  always_comb begin
    if (32'(k_i) == Lanes - 1 && act_k && !group_i && !shared_i) begin
      PassTopOfVa_C:  cover (t != 0 && !fault_k && x_va + x_s == x_lim);   // ends on the last VA byte
      OobPastVa_C:    cover (fault_k && r_kind == ga_pkg::EXC_OUT_OF_BOUNDS && x_va + x_s > x_lim
                             && x_va + x_s <= x_end);                        // inside entry, past 2^V
      PassLastByte_C: cover (t != 0 && !fault_k && x_va + x_s == x_end && size_i == 3'd4);
      Oob_C:          cover (fault_k && r_kind == ga_pkg::EXC_OUT_OF_BOUNDS && r_match);
      Uaf_C:          cover (fault_k && first_kind == ga_pkg::EXC_USE_AFTER_FREE && t == f_tag);
      TagMismatch_C:  cover (fault_k && first_kind == ga_pkg::EXC_TAG_MISMATCH);
      NoMetadata_C:   cover (fault_k && first_kind == ga_pkg::EXC_NO_METADATA);
      MdFault_C:      cover (fault_k && first_kind == ga_pkg::EXC_METADATA_FAULT);
      Untagged_C:     cover (t == 0 && !fault_k && md_state_i != ga_pkg::MD_OK);
    end
    if (32'(k_i) == Lanes - 1 && act_k && shared_i) begin
      SharedTop_C:    cover (!fault_k && s_a + s_sz == 34'h1_0000_0000);
      SharedOob_C:    cover (fault_k && first_kind == ga_pkg::EXC_SHARED_OUT_OF_BOUNDS);
    end
    if (group_i && Lanes > 1) begin
      GroupSkips_C:   cover (act_k && !match_k && !fault_k && t != 0 && r_kind != ga_pkg::EXC_NONE);
    end
  end

endmodule : ga_check_fv

`default_nettype wire
