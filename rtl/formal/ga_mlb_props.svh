// Copyright GPUArmor contributors.
//
// ga_mlb_props.svh -- formal properties of ga_mlb (spec §6; issue 6), included at the bottom of
// rtl/ga_mlb.sv under `ifdef FORMAL, so they see the MLB's state (valid_q, tb_q, size_q, loc_q,
// age_q) the way a bound property module would. Names end in _A (assert), _M (assume), _C (cover).
//
// Port contract (TOUCH names a valid entry, legal command) is written with `GA_MLB_PORT: an
// assumption when ga_mlb is the top of the proof (define GA_FV_MLB_TOP), an assertion when the MLB
// sits inside ga_mlu's proof, where ga_mlu must keep it.
//
// Reset: when ga_mlb is the top, rst_ni is low in the first step and free afterwards (a reset may
// come at any time). Every property is checked in cycles with rst_ni high; the one-step
// properties ($past) also need rst_ni high in the previous cycle.
//
// What is proved (by induction when ga_mlb is the top; see docs/verification.md):
//   AgePerm_A       ages are a permutation of 0..N-1 (spec §6.1); AgeOnto_A every age is held
//   OneLoc_A        at most one valid entry holds any location (spec §6.3 rule 1)
//   EndStored_A     EndForm 2: every entry's stored end bound is its base + size
//   RamCopy_A       ReadForm 1, 2: every valid entry's copies (ram_tb, ram_size, ram_loc) equal its
//                   registers, so the lookups below return the registers' fields
//   LocLookup_A     the location lookup hits exactly when a valid entry holds loc_i, and returns it
//                   (ReadForm 2: its index; LateRead_A: the entry loc_rd_idx_i names, if valid, is
//                   returned whole)
//   RngLookup_A     the range lookup hits exactly when a valid entry matches (M1..M3), returns the
//                   lowest one; RngHitCovers_A: what it returns covers the address on exact integers
//                   and carries the pointer's tag (the LOADMETA hit of the issue)
//   FillVictim_A    the fill victim of spec §6.3 (same location, else lowest invalid, else age N-1);
//                   FillPort 2..4: in a FILL's cycle
//   Next*_A         the exact next state of NONE, TOUCH, FILL, INVAL (no valid entry holds L
//                   afterwards) and FLUSH (no valid entry, ages i), spec §6.2-§6.4
//   FillPre_P       FillPort 2, 3: the port contract that makes the registered fill compares exact;
//                   4: the stronger one (VicPre: no command before a FILL) that makes the
//                   registered victim exact
//   InvPre_P        FillPort 3, 4: the port contract that makes an INVAL by index the INVAL of its
//                   location (the index names exactly the valid entries holding inv_loc_i)

`ifdef GA_FV_MLB_TOP
`define GA_MLB_PORT assume
`else
`define GA_MLB_PORT assert
`endif

  logic f_past_valid = 1'b0;
  always @(posedge clk_i) f_past_valid <= 1'b1;

`ifdef GA_FV_MLB_TOP
`ifdef GA_FV_MLB_ANYSTATE
  // Any-state check: step 0 is any state that satisfies the invariants (assumed below; they are
  // proved by induction in their own job), out of reset.
  always @(*) begin
    AnyStateRun_M: assume (rst_ni);
  end
`else
  always @(*) begin
    if (!f_past_valid) begin
      ResetFirst_M: assume (!rst_ni);
    end
  end
`endif
`endif

  // ---------------------------------------------------------------------------------------------
  // Port contract
  // ---------------------------------------------------------------------------------------------
  always @(*) begin
    if (f_past_valid && rst_ni) begin
      UpdOpLegal_P: `GA_MLB_PORT (upd_op_i <= ga_pkg::MLB_FLUSH);
      if (upd_op_i == ga_pkg::MLB_TOUCH) begin
        TouchValid_P: `GA_MLB_PORT (32'(upd_idx_i) < Entries && valid_q[upd_idx_i]);
      end
    end
  end

  // Property groups (bit mask, default 1): 1 state invariants, 2 lookups, 4 fill victim,
  // 8 next state, 16 covers. A proof job picks its groups with -DGA_FV_MLB_GROUPS=n so that z3
  // gets one small question per job (all groups in one job take several times longer).
`ifndef GA_FV_MLB_GROUPS
`define GA_FV_MLB_GROUPS 1
`endif
  localparam int FvGroups = `GA_FV_MLB_GROUPS;

  // ---------------------------------------------------------------------------------------------
  // Helpers: entry fields as the spec names them
  // ---------------------------------------------------------------------------------------------
  function automatic logic [IdxW-1:0] f_age(input logic [Entries*IdxW-1:0] ages, input int i);
    f_age = ages[i*IdxW +: IdxW];
  endfunction

  localparam logic [63:0] FvVaMask = (64'd1 << V) - 64'd1;

  logic [TagBits-1:0] f_ptag;                 // tag(p), va(p) of the range lookup's pointer
  logic [63:0]        f_pva;
  assign f_ptag = rng_ptr_i[63:V];
  assign f_pva  = rng_ptr_i & FvVaMask;

  // spec §3.1: entry (tb, size) matches p: M1 t != 0, F; M2 t = etag; M3 a >= ebase and
  // a - ebase < size (the spec's own wrap-free words; ga_check's proof ties them to exact integers)
  function automatic logic f_matches(input logic [63:0] tb, input logic [63:0] size);
    f_matches = f_ptag != '0 && f_ptag != {TagBits{1'b1}} && f_ptag == tb[63:V] &&
                f_pva >= (tb & FvVaMask) && f_pva - (tb & FvVaMask) < size;
  endfunction

  logic [Entries-1:0] f_u;                    // valid entries holding upd_loc_i (a FILL's)
  logic [Entries-1:0] f_iv;                   // valid entries holding an INVAL's location
  logic [63:0]        f_inv_in;               // an INVAL's location: FillPort 1 its own port
  assign f_inv_in = (FillPort != 0) ? inv_loc_i : upd_loc_i;
  always @(*) begin
    for (int i = 0; i < Entries; i++) begin
      f_u[i]  = valid_q[i] && loc_q[i*64 +: 64] == upd_loc_i;
      f_iv[i] = valid_q[i] && loc_q[i*64 +: 64] == f_inv_in;
    end
  end

  // ---------------------------------------------------------------------------------------------
  // State invariants (group 1; always on: inductive strengthening for every other group)
  // ---------------------------------------------------------------------------------------------
  // Per entry / per pair facts, folded into one named assertion each (Yosys 0.23 gives a label
  // inside a loop no per-iteration name).
  logic f_age_range_ok, f_age_perm_ok, f_age_onto_ok, f_one_loc_ok, f_end_ok, f_ram_ok;
  logic [Entries-1:0] f_age_held;             // f_age_held[v]: some entry has age v
  always @(*) begin
    f_end_ok       = 1'b1;                    // EndForm 2: a valid entry's stored end is base + size
    for (int i = 0; i < Entries; i++) begin
      if (EndForm == 2 && valid_q[i] && end_q[i*65 +: 65] !=
          {1'b0, tb_q[i*64 +: 64] & FvVaMask} + {1'b0, size_q[i*64 +: 64]}) f_end_ok = 1'b0;
    end
    f_ram_ok       = 1'b1;                    // ReadForm 1: a valid entry's copies are its fields
    for (int i = 0; i < Entries; i++) begin
      if (ReadForm != 0 && valid_q[i] &&
          (ram_tb[i] != tb_q[i*64 +: 64] || ram_size[i] != size_q[i*64 +: 64] ||
           ram_loc[i] != loc_q[i*64 +: 64])) f_ram_ok = 1'b0;
    end
    f_age_range_ok = 1'b1;
    f_age_perm_ok  = 1'b1;
    f_one_loc_ok   = 1'b1;
    for (int v = 0; v < Entries; v++) begin
      f_age_held[v] = 1'b0;
      for (int i = 0; i < Entries; i++) begin
        if (32'(f_age(age_q, i)) == v) f_age_held[v] = 1'b1;
      end
    end
    f_age_onto_ok = (f_age_held == {Entries{1'b1}});
    for (int i = 0; i < Entries; i++) begin
      if (!(32'(f_age(age_q, i)) < Entries)) f_age_range_ok = 1'b0;
      for (int j = i + 1; j < Entries; j++) begin
        if (f_age(age_q, i) == f_age(age_q, j)) f_age_perm_ok = 1'b0;
        if (valid_q[i] && valid_q[j] && loc_q[i*64 +: 64] == loc_q[j*64 +: 64]) f_one_loc_ok = 1'b0;
      end
    end
  end

`ifdef GA_FV_MLB_ANYSTATE
`define GA_MLB_INV assume
`else
`define GA_MLB_INV assert
`endif
  always @(*) begin
    if (rst_ni) begin
      AgeRange_A: `GA_MLB_INV (f_age_range_ok);   // every age in 0..N-1
      AgePerm_A:  `GA_MLB_INV (f_age_perm_ok);    // pairwise distinct: a permutation (spec §6.1)
      // Every age value is held (implied by the two above, but only through a pigeonhole argument
      // that z3 cannot make at 16 entries; stated on its own it is inductive without one, and it
      // gives FillVictimLru_A its age N-1 entry directly).
      AgeOnto_A:  `GA_MLB_INV (f_age_onto_ok);
      OneLoc_A:   `GA_MLB_INV (f_one_loc_ok);     // no location held twice (spec §6.3)
      EndStored_A: `GA_MLB_INV (f_end_ok);        // EndForm 2: end_q = base + size, every entry
      RamCopy_A:   `GA_MLB_INV (f_ram_ok);        // ReadForm 1: valid entries' copies = registers
    end
  end
`undef GA_MLB_INV

  // ---------------------------------------------------------------------------------------------
  // Lookups (group 2): combinational, every cycle, lowest index wins (spec §6.2)
  // ---------------------------------------------------------------------------------------------
  // Exact-integer M3 of what the range lookup returns (66 bits: no wrap).
  logic [65:0] f_rbase, f_rend;
  assign f_rbase = {2'b00, rng_tb_o & FvVaMask};
  assign f_rend  = f_rbase + {2'b00, rng_size_o};

  // Per entry, folded below: f_m matches the pointer, f_l holds loc_i, f_lower_m a lower entry
  // matches too (so the returned one is the lowest).
  logic [Entries-1:0] f_m, f_l;
  always @(*) begin
    for (int i = 0; i < Entries; i++) begin
      f_m[i] = valid_q[i] && f_matches(tb_q[i*64 +: 64], size_q[i*64 +: 64]);
      f_l[i] = valid_q[i] && loc_q[i*64 +: 64] == loc_i;
    end
  end
  logic f_rng_ok, f_loc_ok;                   // the hit entry is returned whole, or all zero
  always @(*) begin
    f_rng_ok = 1'b1;
    f_loc_ok = 1'b1;
    for (int i = 0; i < Entries; i++) begin
      if (rng_hit_o && rng_idx_o == IdxW'(i)) begin
        f_rng_ok = f_m[i] && (f_m & ((Entries'(1) << i) - 1'b1)) == '0 &&
                   rng_tb_o == tb_q[i*64 +: 64] && rng_size_o == size_q[i*64 +: 64] &&
                   rng_loc_o == loc_q[i*64 +: 64];
      end
      if (loc_hit_o && loc_idx_o == IdxW'(i)) begin
        f_loc_ok = f_l[i] && (ReadForm == 2 ||        // ReadForm 2: the fields come late (LateRead_A)
                              (loc_tb_o == tb_q[i*64 +: 64] && loc_size_o == size_q[i*64 +: 64]));
      end
    end
  end

  if ((FvGroups & 2) != 0) begin : g_fv_lookup
    always @(*) begin
      if (rst_ni) begin
        RngHit_A:       assert (rng_hit_o == (f_m != '0));          // hit iff some entry matches
        RngHitEntry_A:  assert (f_rng_ok && 32'(rng_idx_o) < Entries);  // the lowest, whole
        if (rng_hit_o) begin
          // The LOADMETA hit of the issue: the returned entry covers the address on exact
          // integers and carries the pointer's (live) tag.
          RngHitCovers_A: assert (rng_tb_o[63:V] == f_ptag && f_ptag != '0 &&
                                  f_ptag != {TagBits{1'b1}} &&
                                  f_rbase <= {2'b00, f_pva} && {2'b00, f_pva} < f_rend);
        end else begin
          RngMissZero_A:  assert (rng_idx_o == '0 && rng_tb_o == '0 && rng_size_o == '0 &&
                                  rng_loc_o == '0);
        end
        LocHit_A:       assert (loc_hit_o == (f_l != '0));
        LocHitEntry_A:  assert (f_loc_ok && 32'(loc_idx_o) < Entries);
        if (!loc_hit_o) begin
          LocMissZero_A:  assert (loc_idx_o == '0 && (ReadForm == 2 || (loc_tb_o == '0 && loc_size_o == '0)));
        end
        if (ReadForm == 2 && 32'(loc_rd_idx_i) < Entries && valid_q[loc_rd_idx_i]) begin
          // ReadForm 2: the entry the top names is returned whole if it is valid (the top names
          // one a lookup hit and keeps it from a FILL in between: ga_mlu's LateNoFill_A).
          LateRead_A:     assert (loc_tb_o == tb_q[loc_rd_idx_i*64 +: 64] &&
                                  loc_size_o == size_q[loc_rd_idx_i*64 +: 64]);
        end
      end
    end
  end

  // ---------------------------------------------------------------------------------------------
  // Fill victim (group 4): spec §6.3, same location, else the lowest invalid entry, else the least
  // recently used one
  // ---------------------------------------------------------------------------------------------
  // FillPort 2..4: fill_idx_o is the victim only in a FILL's cycle (its compares are the last
  // cycle's, which the FillPre contract makes this cycle's only then); FillPort 0, 1 in every cycle.
  if ((FvGroups & 4) != 0) begin : g_fv_victim
    always @(*) begin
      if (rst_ni && (FillPort < 2 || upd_op_i == ga_pkg::MLB_FILL)) begin
        FillVictimRange_A: assert (32'(fill_idx_o) < Entries);
        if (f_u != '0) begin
          FillVictimSame_A: assert (f_u[fill_idx_o]);
        end else if (valid_q != {Entries{1'b1}}) begin
          FillVictimFree_A: assert (!valid_q[fill_idx_o] &&
                                    (~valid_q & ((Entries'(1) << fill_idx_o) - 1'b1)) == '0);
        end else begin
          FillVictimLru_A: assert (32'(f_age(age_q, 32'(fill_idx_o))) == Entries - 1);
        end
      end
    end
  end

  // ---------------------------------------------------------------------------------------------
  // Next state (group 8): spec §6.2-§6.4 exactly, for entry f_j (so for every entry)
  // ---------------------------------------------------------------------------------------------
  logic [Entries-1:0]        f_valid_p;
  logic [Entries*64-1:0]     f_tb_p, f_size_p, f_loc_p;
  logic [Entries*IdxW-1:0]   f_age_p;
  logic [ga_pkg::MlbOpW-1:0] f_op_p;
  logic [IdxW-1:0]           f_idx_p, f_fill_p;
  logic [63:0]               f_utb_p, f_usize_p, f_uloc_p, f_iloc_p;
  logic [Entries-1:0]        f_iv_p;
  logic                      f_rst_p;
  always @(posedge clk_i) begin
    f_valid_p <= valid_q;   f_tb_p <= tb_q;   f_size_p <= size_q;   f_loc_p <= loc_q;
    f_age_p   <= age_q;     f_op_p <= upd_op_i;  f_idx_p <= upd_idx_i;  f_fill_p <= fill_idx_o;
    f_utb_p   <= upd_tb_i;  f_usize_p <= upd_size_i;  f_uloc_p <= upd_loc_i;
    f_iloc_p  <= f_inv_in;  f_iv_p <= f_iv;
    f_rst_p   <= rst_ni;
  end

  // FillPort 2, 3 port contract (FillPre, see ga_mlb's header): a FILL comes in a cycle after one with
  // reset high, no FILL and the same upd_loc_i, so fm_q (last cycle's compares) is this cycle's. A
  // port property (assumed with ga_mlb on top, asserted inside ga_mlu, which keeps it by w_settled);
  // with it the victim and next-state properties below hold unchanged. f_past_valid: an any-state
  // proof has no cycle before its first, so a FILL cannot come there.
  // FillPort 4 (VicPre): the same with no command at all in the cycle before, so the registered
  // victim (chosen then from the valid bits, ages and compares) is this cycle's.
  always @(*) begin
    if (FillPort >= 2 && rst_ni && upd_op_i == ga_pkg::MLB_FILL) begin
      FillPre_P: `GA_MLB_PORT (f_past_valid && f_rst_p && f_op_p != ga_pkg::MLB_FILL &&
                               (FillPort < 4 || f_op_p == ga_pkg::MLB_NONE) &&
                               f_uloc_p == upd_loc_i);
    end
  end

  // FillPort 3 port contract (InvPre, see ga_mlb's header): an INVAL names by index (upd_idx_i,
  // inv_hit_i) exactly the valid entries that hold its location inv_loc_i (assumed with ga_mlb on
  // top, asserted inside ga_mlu, which names the entry its location lookup found at the
  // INVALIDATE's acceptance); with it NextInval*_A below hold unchanged, stated on inv_loc_i.
  logic [Entries-1:0] f_inv_named;
  always @(*) begin
    for (int i = 0; i < Entries; i++) begin
      f_inv_named[i] = inv_hit_i && upd_idx_i == IdxW'(i);
    end
    if (FillPort >= 3 && rst_ni && upd_op_i == ga_pkg::MLB_INVAL) begin
      InvPre_P: `GA_MLB_PORT (f_inv_named == f_iv);
    end
  end

  // The touched entry of the previous step (TOUCH: upd_idx, FILL: the victim) and its old age.
  logic [IdxW-1:0] f_t, f_tage;
  assign f_t    = (f_op_p == ga_pkg::MLB_FILL) ? f_fill_p : f_idx_p;
  assign f_tage = f_age(f_age_p, 32'(f_t));

  // Per entry, folded below.
  logic [Entries-1:0] f_nx_mru, f_nx_age, f_nx_fill, f_nx_keep, f_nx_igone, f_nx_ikeep, f_nx_flush,
                      f_nx_same, f_nx_agesame;
  always @(*) begin
    for (int i = 0; i < Entries; i++) begin
      f_nx_same[i]    = valid_q[i] == f_valid_p[i] && tb_q[i*64 +: 64] == f_tb_p[i*64 +: 64] &&
                        size_q[i*64 +: 64] == f_size_p[i*64 +: 64] &&
                        loc_q[i*64 +: 64] == f_loc_p[i*64 +: 64];
      f_nx_agesame[i] = f_age(age_q, i) == f_age(f_age_p, i);
      // TOUCH / FILL: the touched entry becomes age 0, every younger one ages by one (spec §6.2)
      f_nx_mru[i]     = (f_t != IdxW'(i)) || f_age(age_q, i) == '0;
      f_nx_age[i]     = (f_t == IdxW'(i)) ||
                        f_age(age_q, i) == f_age(f_age_p, i) + IdxW'(f_age(f_age_p, i) < f_tage);
      // FILL writes (tb, size, L) into its victim, valid (spec §6.3); every other entry is kept
      f_nx_fill[i]    = !(f_op_p == ga_pkg::MLB_FILL && f_t == IdxW'(i)) ||
                        (valid_q[i] && tb_q[i*64 +: 64] == f_utb_p &&
                         size_q[i*64 +: 64] == f_usize_p && loc_q[i*64 +: 64] == f_uloc_p);
      f_nx_keep[i]    = (f_op_p == ga_pkg::MLB_FILL && f_t == IdxW'(i)) || f_nx_same[i];
      // INVAL(L): no valid entry holds L afterwards; nothing else changes (spec §6.4)
      f_nx_igone[i]   = !(valid_q[i] && loc_q[i*64 +: 64] == f_iloc_p);
      f_nx_ikeep[i]   = valid_q[i] == (f_valid_p[i] && !f_iv_p[i]) && f_nx_agesame[i] &&
                        tb_q[i*64 +: 64] == f_tb_p[i*64 +: 64] &&
                        size_q[i*64 +: 64] == f_size_p[i*64 +: 64] &&
                        loc_q[i*64 +: 64] == f_loc_p[i*64 +: 64];
      // FLUSH: nothing valid, age_i = i (spec §6.4)
      f_nx_flush[i]   = !valid_q[i] && 32'(f_age(age_q, i)) == i;
    end
  end

  if ((FvGroups & 8) != 0) begin : g_fv_next
    always @(*) begin
      if (f_past_valid && f_rst_p && rst_ni) begin
        case (f_op_p)
          ga_pkg::MLB_TOUCH, ga_pkg::MLB_FILL: begin
            NextTouchMru_A:  assert (&f_nx_mru);
            NextTouchAge_A:  assert (&f_nx_age);
            NextFillEntry_A: assert (&f_nx_fill);
            NextKeepEntry_A: assert (&f_nx_keep);
          end
          ga_pkg::MLB_INVAL: begin
            NextInvalGone_A: assert (&f_nx_igone);
            NextInvalKeep_A: assert (&f_nx_ikeep);
          end
          ga_pkg::MLB_FLUSH: begin
            NextFlush_A:     assert (&f_nx_flush);
          end
          default: begin
            NextNone_A:      assert (&f_nx_same && &f_nx_agesame);
          end
        endcase
      end
    end
  end

  // ---------------------------------------------------------------------------------------------
  // Covers (group 16): the interesting states are reachable
  // ---------------------------------------------------------------------------------------------
  if ((FvGroups & 16) != 0) begin : g_fv_cover
    always @(*) begin
      if (f_past_valid && rst_ni) begin
        Full_C:          cover (valid_q == {Entries{1'b1}});
        FillEvictsLru_C: cover (valid_q == {Entries{1'b1}} && upd_op_i == ga_pkg::MLB_FILL &&
                                f_u == '0);
        FillSameLoc_C:   cover (upd_op_i == ga_pkg::MLB_FILL && f_u != '0 &&
                                valid_q == {Entries{1'b1}});
        TwoRangeHits_C:  cover ($countones(f_m) >= 2);          // the lowest index must win
        RangeHitLast_C:  cover (rng_hit_o && rng_idx_o == IdxW'(Entries - 1));
        LocHitLast_C:    cover (loc_hit_o && loc_idx_o == IdxW'(Entries - 1));
        InvalHit_C:      cover (upd_op_i == ga_pkg::MLB_INVAL && f_iv != '0 &&
                                valid_q == {Entries{1'b1}});
        TouchOldest_C:   cover (upd_op_i == ga_pkg::MLB_TOUCH &&
                                32'(f_age(age_q, 32'(upd_idx_i))) == Entries - 1);
        FlushFull_C:     cover (upd_op_i == ga_pkg::MLB_FLUSH && valid_q == {Entries{1'b1}});
      end
    end
  end

`undef GA_MLB_PORT
`undef GA_FV_MLB_GROUPS
