// Copyright GPUArmor contributors.
//
// ga_mlb -- Metadata Lookaside Buffer (paper §5.2 "Metadata Lookaside Buffer", Figure 6; spec §6).
//
// Entries fully associative entries, each: valid, the 16-byte metadata entry (tagged base tb, size)
// and its 8-byte location (24 bytes per entry, paper §9.3). Two independent lookups, each answered
// combinationally in the cycle it is asked, lowest index wins (spec §6.2):
//
//   range lookup   (LOADMETA, HWOnly leader): valid && entry matches rng_ptr_i (spec §3.1 M1..M3)
//   location lookup (MEMCHECK.G):            valid && loc == loc_i
//
// and one state update per cycle, chosen by the top (upd_op_i): TOUCH (a hit), FILL (spec §6.3),
// INVAL (spec §6.4), FLUSH (spec §6.4). A lookup itself changes nothing: the top turns a hit into a
// TOUCH in the same cycle, so the hit and its LRU update commit at the same edge.
//
//            rng_ptr_i                    loc_i               inv_loc_i         upd_loc_i
//                |                          |                      |                 |
//      +---------v---------+      +---------v--------+    +-------v------+  +-------v------+
//      | N x match (M1-M3) |      | N x (loc == loc_i)|    | N x (== inv) |  | N x (== upd) |
//      +---------+---------+      +---------+--------+    +-------+------+  +-------+------+
//        lowest-index first         lowest-index first        inval mask      fill victim: same
//                |                          |                      |         loc, else lowest
//        rng_hit/idx/tb/size/loc    loc_hit/idx/tb/size            |         invalid, else age N-1
//                                                                  v                 v
//                                   valid / tb / size / loc / age registers (q <= d)
//
// (FillPort 0, the default: no inv_loc_i compares; an INVAL uses the FILL's, on upd_loc_i. FillPort 2:
// the FILL's compares are registered, from the cycle before, so the victim starts at flip-flops.
// FillPort 3: as 2, and an INVAL names its entry by index (upd_idx_i, inv_hit_i): no inv_loc_i
// compares either, two sets of location compares in all. FillPort 4: as 3, and the whole victim is
// registered a cycle early, so a FILL's write starts at flip-flops.)
//
// Replacement is true LRU kept as an age permutation age_0..age_{N-1} of 0..N-1 (0 = most recently
// used). Touch i: every j with age_j < age_i ages by one, age_i <- 0. Flush: age_i <- i. Invalidate
// leaves ages alone. The state is stored as flat packed vectors (entry i at [i*W +: W]): Yosys 0.23
// mis-elaborates arrays of structs and memories with reset (TOOLCHAIN.md).
//
// Parameters:
//   TagBits  7 or 16   pointer tag width (spec §1.1); V = 64 - TagBits VA bits
//   Entries  1 .. 64   MLB entries (paper: 8, §5.2; 16 studied in §9)
//   EndForm  0 | 1 | 2 how M3 is computed (same function, proved equal: docs/fpga.md §5.4).
//                      0 (default): off = va - base, off < size (64-bit, the high bits of off are the
//                      borrow, so the compare stays 64 bits wide). 1: va < base + size in 65 bits with
//                      zero-extended operands, so that narrow operands (the FPGA narrow builds) give
//                      narrow carry chains. 2: as 1, but each entry stores its end bound base + size
//                      (65 bits, end_q), computed once by one adder when the entry is filled, so a
//                      lookup compares without adding (Entries adders fewer on the lookup path,
//                      65 flip-flops more per entry).
//   AgeForm  0 | 1     how the LRU touch is computed (same function; the mlb*_next proofs run for both).
//                      0 (default): by index (a FILL's victim encoded, then decoded to select its age,
//                      then every age compared with it). 1: by one-hot (the victim's one-hot vector for
//                      a FILL, upd_idx_i decoded for a TOUCH) against a pairwise order of the ages
//                      computed from the registers alone, so that a FILL's age update waits for the
//                      victim by two gate levels instead of an encoder, a multiplexer and a compare
//                      (the FPGA builds, docs/fpga.md §5.4).
//   ReadForm 0 .. 2    how a hit's fields are returned (same function: the invariant RamCopy_A and
//                      the lookups, proved by the formal jobs mlb4_inv_e2 and mlb4_lookup_e2).
//                      0 (default): one-hot AND-OR multiplexers over the entry registers. 1: from
//                      copies of the fields in small memories written by every FILL alongside the
//                      registers and read by the hit's index (asynchronous reads, so distributed RAM
//                      on the ECP5: TRELLIS_DPR16X4), one copy per read port (range: tb, size, loc;
//                      location: tb, size); the hits' indexes come straight from the match
//                      words (the range's by a priority encoder, the location's encoded as it is:
//                      one-hot by OneLoc_A), with no one-hot word in between. The registers stay
//                      the architectural state
//                      and feed the comparators; with EndForm 2 nothing but the copies reads size_q,
//                      so synthesis drops it. Invariant: every valid entry's copies equal its
//                      registers (a FILL writes both; invalid entries' copies are never returned).
//                      For the 16-entry full-width ECP5 builds, whose routing the entry registers'
//                      16-to-1 multiplexers congest (docs/fpga.md §11.3).
//                      2: as 1, but the location lookup returns its hit and index only, and
//                      loc_tb_o / loc_size_o are the copies of entry loc_rd_idx_i, whatever it is
//                      (no hit gate): the top reads the fields of an entry a lookup hit in an earlier
//                      cycle by registering loc_idx_o and presenting it here, so the read starts at a
//                      register instead of behind the compares. They are that entry's fields as long
//                      as the entry is valid and no FILL came since the lookup (the copies change
//                      only at a FILL; RamCopy_A); the top keeps that (ga_mlu ReadForm 2). For the
//                      4-SM ECP5 board, whose critical path ran from the request register through the
//                      location compares to the copies' read port (docs/fpga.md §11.3).
//   FillPort 0 .. 4    where an INVAL's location comes from and how a FILL's is compared. 0
//                      (default): an INVAL's is upd_loc_i, as a FILL's (one set of comparators
//                      serves both; inv_loc_i is not read). 1: inv_loc_i, with
//                      comparators of its own (Entries 64-bit compares more), so that the top can
//                      drive the FILL port from the walker's location register directly instead of
//                      through a select between the two (ga_mlu FillPort 1, docs/fpga.md §11.3).
//                      2: as 1, and the FILL's same-location compares (N x loc == upd_loc_i) are
//                      registered every cycle (fm_q), so a FILL's victim and the LRU update that
//                      follows it start at flip-flops instead of behind N 64-bit compares. It needs
//                      the top to keep a contract (FillPre, port properties in ga_mlb_props.svh): a
//                      FILL comes in a cycle after one with reset high, no FILL and the same
//                      upd_loc_i, so the registered compares equal this cycle's (locations change
//                      only at a FILL). ga_mlu FillPort 2 keeps it by taking a walker result only in
//                      its second cycle (docs/fpga.md §11.3). The assertion FillPre_A checks the
//                      compares at every FILL.
//                      3: as 2 for a FILL, and an INVAL names its entry instead of its location: it
//                      clears entry upd_idx_i if inv_hit_i (nothing if not), so the INVAL has no
//                      compares of its own (Entries 64-bit compares fewer than 1 and 2). Its contract
//                      (InvPre, port property in ga_mlb_props.svh, assertion InvPre_A): at an INVAL,
//                      inv_hit_i and upd_idx_i name exactly the valid entries that hold inv_loc_i
//                      (at most one: OneEntryPerLocation), which inv_loc_i then serves only to
//                      state. ga_mlu FillPort 3 keeps it with the location lookup of the
//                      INVALIDATE's md made at its acceptance (the lookup MEMCHECK.G makes).
//                      4: as 3 for an INVAL, and the FILL's whole victim is registered a cycle
//                      early (vic_q: this cycle's compares, valid bits and ages), so a FILL's
//                      state update and copy write start at flip-flops. Its contract (VicPre, the
//                      port property FillPre_P with FillPort 4, assertion VicPre_A) is FillPre's
//                      with no command at all in the cycle before the FILL (not only no FILL), so
//                      that the valid bits and ages the victim was chosen from are still there.
//                      ga_mlu FillPort 4 keeps it by settling a walker result only over a cycle
//                      with no MLB command (docs/fpga.md §11.3).
//
// Interfaces: lookups are combinational and have no handshake. The update port is a command that
// takes effect at the next rising edge, one command per cycle by construction; the top issues TOUCH
// only for the index a lookup hit in the same cycle (an assertion checks it is valid). Any 64-bit
// location is stored as given. fill_idx_o is the entry a FILL with upd_loc_i writes at the next edge;
// the top logs it as the FILL event's slot.

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

module ga_mlb #(
  parameter int TagBits = 7,
  parameter int Entries = 8,
  parameter int EndForm = 0,
  parameter int AgeForm = 0,
  parameter int ReadForm = 0,
  parameter int FillPort = 0,
  localparam int IdxW = (Entries > 1) ? $clog2(Entries) : 1
) (
  input  logic                          clk_i,
  input  logic                          rst_ni,

  // Range lookup (combinational)
  input  logic [63:0]                   rng_ptr_i,   // tagged pointer
  output logic                          rng_hit_o,
  output logic [IdxW-1:0]               rng_idx_o,   // lowest matching entry; 0 on a miss
  output logic [63:0]                   rng_tb_o,    // its entry and location; 0 on a miss
  output logic [63:0]                   rng_size_o,
  output logic [63:0]                   rng_loc_o,

  // Location lookup (combinational)
  input  logic [63:0]                   loc_i,
  output logic                          loc_hit_o,
  output logic [IdxW-1:0]               loc_idx_o,
  output logic [63:0]                   loc_tb_o,
  output logic [63:0]                   loc_size_o,
  /* verilator lint_off UNUSEDSIGNAL */               // ReadForm 2 only
  input  logic [IdxW-1:0]               loc_rd_idx_i, // ReadForm 2: the entry loc_tb_o/loc_size_o read
  /* verilator lint_on UNUSEDSIGNAL */

  // State update: one command per cycle, applied at the next edge
  input  logic [ga_pkg::MlbOpW-1:0]     upd_op_i,
  input  logic [IdxW-1:0]               upd_idx_i,   // TOUCH (FillPort 3, 4: and INVAL)
  input  logic [63:0]                   upd_tb_i,    // FILL
  input  logic [63:0]                   upd_size_i,  // FILL
  input  logic [63:0]                   upd_loc_i,   // FILL (FillPort 0: and INVAL)
  /* verilator lint_off UNUSEDSIGNAL */               // inv_loc_i: FillPort 1..4; inv_hit_i: 3, 4
  input  logic [63:0]                   inv_loc_i,   // INVAL (FillPort 1, 2; 3, 4: the contract only)
  input  logic                          inv_hit_i,   // INVAL (FillPort 3, 4): clear entry upd_idx_i
  /* verilator lint_on UNUSEDSIGNAL */
  output logic [IdxW-1:0]               fill_idx_o   // the entry a FILL at upd_loc_i writes
);

  localparam int V = 64 - TagBits;                 // VA bits (spec §1.1)
  // F = 2^T - 1, written as a replication: Yosys 0.23 elaborates a '1 localparam initialiser as
  // the one-bit value 1 (F was 0x01 in every Yosys netlist; found by the formal proof of ga_check).
  localparam logic [TagBits-1:0] TagFreed = {TagBits{1'b1}};

  // ---------------------------------------------------------------------------------------------
  // Elaboration-time parameter checks
  // ---------------------------------------------------------------------------------------------
  // Elaboration stops here in Verilator and Yosys; Icarus 11 has no elaboration-time $error in generate
  // blocks, so it stops at time 0 instead.
  localparam bit ParamsBad = (TagBits != 7 && TagBits != 16) || (Entries < 1) || (Entries > 64) ||
                             (EndForm < 0) || (EndForm > 2) || (AgeForm != 0 && AgeForm != 1) ||
                             (ReadForm < 0) || (ReadForm > 2) || (FillPort < 0) || (FillPort > 4);
`ifdef __ICARUS__
  initial begin
    if (ParamsBad) $fatal(1, "ga_mlb: TagBits must be 7 or 16, Entries 1..64, EndForm 0..2, ReadForm 0..2, FillPort 0..4, AgeForm 0 or 1");
  end
`else
  if (ParamsBad) begin : gen_bad_params
    $error("ga_mlb: TagBits must be 7 or 16, Entries 1..64, EndForm 0..2, ReadForm 0..2, FillPort 0..4, AgeForm 0 or 1");
  end
`endif

  // ---------------------------------------------------------------------------------------------
  // State
  // ---------------------------------------------------------------------------------------------
  logic [Entries-1:0]      valid_q, valid_d;
  logic [Entries*64-1:0]   tb_q, tb_d;
  logic [Entries*64-1:0]   size_q, size_d;
  logic [Entries*64-1:0]   loc_q, loc_d;
  logic [Entries*IdxW-1:0] age_q, age_d;
  // EndForm 2: entry i's end bound {0, ebase} + {0, size} (65 bits), written with the entry at FILL
  // (gen_end_reg below); all zero otherwise. Invariant: end_q holds that sum for every valid entry (a
  // FILL writes the three together and sets valid; nothing else writes tb or size; an invalid entry's
  // fields are not reset and are read by nothing that matters, every match being gated by valid).
  /* verilator lint_off UNUSEDSIGNAL */                   // read by M3 only with EndForm 2
  logic [Entries*65-1:0]   end_q;
  /* verilator lint_on UNUSEDSIGNAL */
  // ReadForm 1: the copies of the fields a hit returns (gen_read_ram below), entry i at word i;
  // neither written nor read with ReadForm 0. Declared here so that the formal properties see them.
  /* verilator lint_off UNUSEDSIGNAL */
  /* verilator lint_off UNDRIVEN */
  logic [63:0] ram_tb   [Entries];
  logic [63:0] ram_size [Entries];
  logic [63:0] ram_loc  [Entries];
  /* verilator lint_on UNDRIVEN */
  /* verilator lint_on UNUSEDSIGNAL */

  // ---------------------------------------------------------------------------------------------
  // Comparators, one set per entry
  // ---------------------------------------------------------------------------------------------
  logic [TagBits-1:0] rng_tag;
  logic [63:0]        rng_va;
  logic               rng_tag_ok;   // M1: tag is neither 0 nor F

  assign rng_tag    = rng_ptr_i[63:V];
  assign rng_va     = {{TagBits{1'b0}}, rng_ptr_i[V-1:0]};
  assign rng_tag_ok = (rng_tag != '0) && (rng_tag != TagFreed);

  // An entry's end bound, base + size in 65 bits, from the tb field's VA bits and the size (EndForm 1:
  // computed at the compare; EndForm 2: computed once at the FILL and stored). The assertion
  // EndStored_A and the formal properties restate the sum on their own rather than call this.
  function automatic logic [64:0] end_bound(input logic [V-1:0] base, input logic [63:0] size);
    end_bound = {1'b0, {TagBits{1'b0}}, base} + {1'b0, size};
  endfunction

  logic [Entries-1:0] rng_match;    // valid and matches rng_ptr_i
  logic [Entries-1:0] loc_match;    // valid and loc == loc_i
  logic [Entries-1:0] upd_match;    // valid and loc == upd_loc_i (the FILL's location)
  logic [Entries-1:0] upd_cmp;      // loc == upd_loc_i, this cycle's compares (FillPort 2, 3: in fm_q
                                    // the cycle after)
  logic [Entries-1:0] fm_q;         // FillPort 2, 3: upd_cmp of the cycle before (else unused, 0)
  logic [Entries-1:0] inv_match;    // valid and holds the INVAL's location (FillPort 0: upd_match;
                                    // 3: the valid entry the INVAL names)
  logic [Entries-1:0] is_oldest;    // age == Entries - 1

  for (genvar i = 0; i < Entries; i++) begin : gen_cmp
    logic [63:0] ebase;
    logic        covers;
    assign ebase  = {{TagBits{1'b0}}, tb_q[i*64 +: V]};
    if (EndForm == 0) begin : gen_m3_spec
      logic [63:0] off;
      assign off    = rng_va - ebase;                        // used only when rng_va >= ebase
      assign covers = (rng_va >= ebase) && (off < size_q[i*64 +: 64]);         // M3
    end else if (EndForm == 1) begin : gen_m3_end
      assign covers = (rng_va >= ebase) &&                                      // M3
                      ({1'b0, rng_va} < end_bound(tb_q[i*64 +: V], size_q[i*64 +: 64]));
    end else begin : gen_m3_stored_end
      assign covers = (rng_va >= ebase) && ({1'b0, rng_va} < end_q[i*65 +: 65]);  // M3
    end
    assign rng_match[i] = valid_q[i] && rng_tag_ok                              // M1
                          && (tb_q[i*64 + V +: TagBits] == rng_tag) && covers;  // M2, M3
    assign loc_match[i] = valid_q[i] && (loc_q[i*64 +: 64] == loc_i);
    assign upd_cmp[i]   = (loc_q[i*64 +: 64] == upd_loc_i);
    assign upd_match[i] = valid_q[i] && ((FillPort == 2 || FillPort == 3) ? fm_q[i] : upd_cmp[i]);
    if (FillPort >= 3) begin : gen_inv_idx
      assign inv_match[i] = valid_q[i] && inv_hit_i && (upd_idx_i == IdxW'(i));
    end else if (FillPort != 0) begin : gen_inv_cmp
      assign inv_match[i] = valid_q[i] && (loc_q[i*64 +: 64] == inv_loc_i);
    end else begin : gen_inv_shared
      assign inv_match[i] = upd_match[i];
    end
    assign is_oldest[i] = (age_q[i*IdxW +: IdxW] == IdxW'(Entries - 1));
  end

  // FillPort 2, 3: the FILL's compares a cycle early (the FillPre contract makes them this cycle's).
  if (FillPort == 2 || FillPort == 3) begin : gen_fill_pre
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        fm_q <= '0;
      end else begin
        fm_q <= upd_cmp;
      end
    end
  end else begin : gen_no_fill_pre
    assign fm_q = '0;
  end

  // Index of a one-hot vector (0 for an empty one).
  function automatic logic [IdxW-1:0] onehot_idx(input logic [Entries-1:0] oh);
    logic [IdxW-1:0] idx;
    idx = '0;
    for (int i = 0; i < Entries; i++) begin
      idx = idx | ({IdxW{oh[i]}} & IdxW'(i));
    end
    onehot_idx = idx;
  endfunction

  // Index of the lowest set bit (0 for an empty word): the highest set bit is taken first and every
  // lower one overrides it.
  function automatic logic [IdxW-1:0] lowest_idx(input logic [Entries-1:0] m);
    logic [IdxW-1:0] idx;
    idx = '0;
    for (int i = Entries - 1; i >= 0; i--) begin
      if (m[i]) idx = IdxW'(i);
    end
    lowest_idx = idx;
  endfunction

  // AND-OR multiplexer of a 64-bit field with a one-hot select.
  function automatic logic [63:0] onehot_mux64(input logic [Entries-1:0] oh,
                                               input logic [Entries*64-1:0] vec);
    logic [63:0] r;
    r = '0;
    for (int i = 0; i < Entries; i++) begin
      r = r | ({64{oh[i]}} & vec[i*64 +: 64]);
    end
    onehot_mux64 = r;
  endfunction

  // Lowest index wins everywhere (spec §6.2, §6.3). The one-hot words of the fill victim (below) and,
  // with ReadForm 0, of the hits come from ga_first_one, which the ECP5 flow keeps as a module of its
  // own (flattened into the multiplexers and write enables they drive, a 16-entry MLB costs 14 368
  // LUT4 instead of 8 673 there: rtl/ga_first_one.sv, docs/fpga.md §11.3).
  assign rng_hit_o  = |rng_match;
  assign loc_hit_o  = |loc_match;

  if (ReadForm == 0) begin : gen_read_mux
    logic [Entries-1:0] rng_first, loc_first;
    ga_first_one #(.N(Entries)) u_rng_first (.m_i(rng_match), .oh_o(rng_first));
    ga_first_one #(.N(Entries)) u_loc_first (.m_i(loc_match), .oh_o(loc_first));
    assign rng_idx_o  = onehot_idx(rng_first);
    assign loc_idx_o  = onehot_idx(loc_first);
    assign rng_tb_o   = onehot_mux64(rng_first, tb_q);
    assign rng_size_o = onehot_mux64(rng_first, size_q);
    assign rng_loc_o  = onehot_mux64(rng_first, loc_q);
    assign loc_tb_o   = onehot_mux64(loc_first, tb_q);
    assign loc_size_o = onehot_mux64(loc_first, size_q);
  end else begin : gen_read_ram
    // ReadForm 1 needs the hits' indexes only (the copies' read addresses), so no one-hot word is
    // made: the range hit's index is a priority encoder of the match word, one function that
    // synthesis maps whole; the location hit needs no priority at all, since at most one valid
    // entry holds any location (OneLoc_A, spec §6.3 rule 1; the simulation assertion
    // OneEntryPerLocation_A below), so its match word is one-hot and is encoded as it is. Both
    // shorten the path from the compares to the copies' read address, the 4-SM ECP5 board's
    // critical path (docs/fpga.md §11.3); ReadForm 0 keeps the selects its figures were taken with.
    assign rng_idx_o  = lowest_idx(rng_match);
    assign loc_idx_o  = onehot_idx(loc_match);
    // The copies (declared above): written by a FILL at the edge that writes the victim's
    // registers, never reset (an invalid entry's copy is never returned: a miss returns zeros). One
    // memory per field; synthesis gives each read port its own copy of the memory.
    always_ff @(posedge clk_i) begin
      if (upd_op_i == ga_pkg::MLB_FILL) begin
        ram_tb[fill_idx_o]   <= upd_tb_i;
        ram_size[fill_idx_o] <= upd_size_i;
        ram_loc[fill_idx_o]  <= upd_loc_i;
      end
    end
    assign rng_tb_o   = {64{rng_hit_o}} & ram_tb[rng_idx_o];
    assign rng_size_o = {64{rng_hit_o}} & ram_size[rng_idx_o];
    assign rng_loc_o  = {64{rng_hit_o}} & ram_loc[rng_idx_o];
    if (ReadForm == 1) begin : gen_loc_now
      assign loc_tb_o   = {64{loc_hit_o}} & ram_tb[loc_idx_o];
      assign loc_size_o = {64{loc_hit_o}} & ram_size[loc_idx_o];
    end else begin : gen_loc_late
      assign loc_tb_o   = ram_tb[loc_rd_idx_i];   // ReadForm 2: the entry the top names (no gate)
      assign loc_size_o = ram_size[loc_rd_idx_i];
    end
  end

  // Fill victim (spec §6.3): the lowest valid entry already at this location, else the lowest
  // invalid entry, else the least recently used one (age N-1). victim_now: from this cycle's state
  // and same-location word upd_match (FillPort 2, 3: the compares of the cycle before, fm_q; 4:
  // this cycle's, whose victim vic_q holds for the next cycle).
  logic [Entries-1:0] victim_oh, victim_now, vic_same, vic_free, vic_old;
  ga_first_one #(.N(Entries)) u_vic_same (.m_i(upd_match), .oh_o(vic_same));
  ga_first_one #(.N(Entries)) u_vic_free (.m_i(~valid_q), .oh_o(vic_free));
  ga_first_one #(.N(Entries)) u_vic_old (.m_i(is_oldest), .oh_o(vic_old));
  `GA_ALWAYS_COMB begin
    if (|upd_match) begin
      victim_now = vic_same;
    end else if (!(&valid_q)) begin
      victim_now = vic_free;
    end else begin
      victim_now = vic_old;
    end
  end
  if (FillPort == 4) begin : gen_vic_reg
    // FillPort 4: the victim itself is registered, computed a cycle before the FILL (VicPre contract:
    // that cycle has reset high, no command and the same upd_loc_i, so nothing the victim depends
    // on changes at the edge between); a FILL then writes and touches an entry named by flip-flops.
    // No reset: the contract keeps a FILL out of the cycle after a reset.
    logic [Entries-1:0] vic_q;
    always_ff @(posedge clk_i) begin
      vic_q <= victim_now;
    end
    assign victim_oh = vic_q;
  end else begin : gen_vic_now
    assign victim_oh = victim_now;
  end
  assign fill_idx_o = onehot_idx(victim_oh);

  // ---------------------------------------------------------------------------------------------
  // Next state
  // ---------------------------------------------------------------------------------------------
  logic [IdxW-1:0] touch_idx;   // entry made most recently used this cycle
  logic            do_touch;
  logic [IdxW-1:0] touch_age;   // its age before the touch

  // AgeForm 1: the touched entry as a one-hot vector and the entries younger than it (age_lt[i] bit
  // j: age_i < age_j, from the registers; bits i and j of touch_oh select the row's answer).
  logic [Entries-1:0] touch_oh, touch_younger;
  if (AgeForm != 0) begin : gen_age_oh
    logic [Entries*Entries-1:0] age_lt;
    for (genvar i = 0; i < Entries; i++) begin : gen_row
      for (genvar j = 0; j < Entries; j++) begin : gen_col
        assign age_lt[i*Entries + j] = (age_q[i*IdxW +: IdxW] < age_q[j*IdxW +: IdxW]);
      end
      assign touch_oh[i]      = (upd_op_i == ga_pkg::MLB_FILL) ? victim_oh[i] :
                                (upd_idx_i == IdxW'(i));
      assign touch_younger[i] = |(touch_oh & age_lt[i*Entries +: Entries]);
    end
  end else begin : gen_age_idx
    assign touch_oh      = '0;                     // (not used: the touch goes by index)
    assign touch_younger = '0;
  end

  `GA_ALWAYS_COMB begin
    valid_d = valid_q;
    tb_d    = tb_q;
    size_d  = size_q;
    loc_d   = loc_q;
    age_d   = age_q;

    do_touch  = 1'b0;
    touch_idx = upd_idx_i;

    case (upd_op_i)
      ga_pkg::MLB_TOUCH: begin
        do_touch = 1'b1;
      end
      ga_pkg::MLB_FILL: begin
        touch_idx = fill_idx_o;
        do_touch  = 1'b1;
        for (int i = 0; i < Entries; i++) begin
          if (victim_oh[i]) begin
            valid_d[i]          = 1'b1;
            tb_d[i*64 +: 64]    = upd_tb_i;
            size_d[i*64 +: 64]  = upd_size_i;
            loc_d[i*64 +: 64]   = upd_loc_i;
          end
        end
      end
      ga_pkg::MLB_INVAL: begin
        valid_d = valid_q & ~inv_match;
      end
      ga_pkg::MLB_FLUSH: begin
        valid_d = '0;
        for (int i = 0; i < Entries; i++) begin
          age_d[i*IdxW +: IdxW] = IdxW'(i);
        end
      end
      default: begin
        // MLB_NONE: nothing changes
      end
    endcase

    // Touch (spec §6.2): entries younger than the touched one age by one; it becomes age 0.
    touch_age = '0;
    for (int i = 0; i < Entries; i++) begin
      if (touch_idx == IdxW'(i)) begin
        touch_age = age_q[i*IdxW +: IdxW];
      end
    end
    if (do_touch && AgeForm == 0) begin
      for (int i = 0; i < Entries; i++) begin
        if (touch_idx == IdxW'(i)) begin
          age_d[i*IdxW +: IdxW] = '0;
        end else if (age_q[i*IdxW +: IdxW] < touch_age) begin
          age_d[i*IdxW +: IdxW] = age_q[i*IdxW +: IdxW] + 1'b1;
        end
      end
    end
    if (do_touch && AgeForm != 0) begin
      for (int i = 0; i < Entries; i++) begin
        if (touch_oh[i]) begin
          age_d[i*IdxW +: IdxW] = '0;
        end else if (touch_younger[i]) begin
          age_d[i*IdxW +: IdxW] = age_q[i*IdxW +: IdxW] + 1'b1;
        end
      end
    end
  end

  // EndForm 2: the end bounds, one adder on the fill data; a FILL writes the victim's bound at the
  // edge that writes its tb and size.
  if (EndForm == 2) begin : gen_end_reg
    logic [64:0]           upd_end;
    logic [Entries*65-1:0] end_d;
    assign upd_end = end_bound(upd_tb_i[V-1:0], upd_size_i);
    `GA_ALWAYS_COMB begin
      end_d = end_q;
      if (upd_op_i == ga_pkg::MLB_FILL) begin
        for (int i = 0; i < Entries; i++) begin
          if (victim_oh[i]) begin
            end_d[i*65 +: 65] = upd_end;
          end
        end
      end
    end
    always_ff @(posedge clk_i) begin
      end_q <= end_d;
    end
  end else begin : gen_no_end_reg
    assign end_q = '0;
  end

  // Reset (spec §6.1): every entry invalid, age_i = i. The entries' fields (tb, size, loc and the
  // stored end) have no reset: a FILL writes them when it sets valid, and every use is gated by the
  // entry's valid bit (a match, the one-hot selects; with ReadForm 1 the copies in RAM have none
  // either). Dropping their reset took 12 288 loads off the 4-SM board's reset net (20 709) and
  // about 800 LUT4 (docs/fpga.md §11.3); the co-simulation starts these registers from random values
  // (ga_cosim --init-seed) and the proofs from any value.
  logic [Entries*IdxW-1:0] age_reset;
  for (genvar i = 0; i < Entries; i++) begin : gen_age_reset
    assign age_reset[i*IdxW +: IdxW] = IdxW'(i);
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      valid_q <= '0;
      age_q   <= age_reset;
    end else begin
      valid_q <= valid_d;
      age_q   <= age_d;
    end
  end
  always_ff @(posedge clk_i) begin
    tb_q    <= tb_d;
    size_q  <= size_d;
    loc_q   <= loc_d;
  end

  // ---------------------------------------------------------------------------------------------
  // Assertions (simulation; Verilator --assert, Icarus). Yosys defines SYNTHESIS and skips them.
  // ---------------------------------------------------------------------------------------------
`ifndef SYNTHESIS
  always @(posedge clk_i or negedge rst_ni) begin
    if (rst_ni) begin
      // The ages are a permutation of 0..N-1 (spec §6.1).
      for (int i = 0; i < Entries; i++) begin
        begin : AgeInRange_A
          assert (32'(age_q[i*IdxW +: IdxW]) < Entries)
            else $error("AgeInRange_A: entry %0d age %0d", i, age_q[i*IdxW +: IdxW]);
        end
        for (int j = i + 1; j < Entries; j++) begin
          begin : AgePermutation_A
            assert (age_q[i*IdxW +: IdxW] != age_q[j*IdxW +: IdxW])
              else $error("AgePermutation_A: entries %0d and %0d share age %0d", i, j,
                          age_q[i*IdxW +: IdxW]);
          end
          // No location is ever held twice (spec §6.3 rule 1).
          begin : OneEntryPerLocation_A
            assert (!(valid_q[i] && valid_q[j] && loc_q[i*64 +: 64] == loc_q[j*64 +: 64]))
              else $error("OneEntryPerLocation_A: entries %0d and %0d hold location %h", i, j,
                          loc_q[i*64 +: 64]);
          end
        end
      end
      // EndForm 2: every valid entry's stored end bound is its base + size (the invariant above end_q).
      if (EndForm == 2) begin
        for (int i = 0; i < Entries; i++) begin
          begin : EndStored_A
            assert (!valid_q[i] || end_q[i*65 +: 65] == {1'b0, {TagBits{1'b0}}, tb_q[i*64 +: V]} + {1'b0, size_q[i*64 +: 64]})
              else $error("EndStored_A: entry %0d end %h", i, end_q[i*65 +: 65]);
          end
        end
      end
      // ReadForm 1: every valid entry's copies are its fields (the invariant above the copies).
      if (ReadForm != 0) begin
        for (int i = 0; i < Entries; i++) begin
          begin : RamCopy_A
            assert (!valid_q[i] || (ram_tb[i] == tb_q[i*64 +: 64] && ram_size[i] == size_q[i*64 +: 64] &&
                                    ram_loc[i] == loc_q[i*64 +: 64]))
              else $error("RamCopy_A: entry %0d copy tb %h size %h loc %h", i, ram_tb[i], ram_size[i],
                          ram_loc[i]);
          end
        end
      end
      // FillPort 2, 3: at a FILL the registered compares are this cycle's, on every valid entry
      // (what the top's FillPre contract guarantees; the victim depends on nothing else of them).
      if ((FillPort == 2 || FillPort == 3) && upd_op_i == ga_pkg::MLB_FILL) begin
        begin : FillPre_A
          assert ((valid_q & fm_q) == (valid_q & upd_cmp))
            else $error("FillPre_A: registered compares %h, this cycle's %h (valid %h)", fm_q, upd_cmp,
                        valid_q);
        end
      end
      // FillPort 4: at a FILL the registered victim is this cycle's (the top's VicPre contract).
      if (FillPort == 4 && upd_op_i == ga_pkg::MLB_FILL) begin
        begin : VicPre_A
          assert (victim_oh == victim_now)
            else $error("VicPre_A: registered victim %h, this cycle's %h", victim_oh, victim_now);
        end
      end
      // FillPort 3, 4: an INVAL names exactly the valid entries that hold its location (the top's
      // InvPre contract), so clearing them is the INVAL of spec §6.4.
      if (FillPort >= 3 && upd_op_i == ga_pkg::MLB_INVAL) begin
        for (int i = 0; i < Entries; i++) begin
          begin : InvPre_A
            assert ((valid_q[i] && loc_q[i*64 +: 64] == inv_loc_i) ==
                    (inv_hit_i && upd_idx_i == IdxW'(i)))
              else $error("InvPre_A: entry %0d (valid %b, location %h), INVAL of %h names entry %0d (hit %b)",
                          i, valid_q[i], loc_q[i*64 +: 64], inv_loc_i, upd_idx_i, inv_hit_i);
          end
        end
      end
      // Commands are legal; a touch names a valid entry (it follows a hit).
      begin : UpdOpLegal_A
        assert (upd_op_i <= ga_pkg::MLB_FLUSH)
          else $error("UpdOpLegal_A: upd_op_i %0d", upd_op_i);
      end
      if (upd_op_i == ga_pkg::MLB_TOUCH) begin
        begin : TouchValid_A
          assert (32'(upd_idx_i) < Entries && valid_q[upd_idx_i])
            else $error("TouchValid_A: touch of entry %0d", upd_idx_i);
        end
      end
      // A range hit really matches: M1..M3 of the chosen entry (cross-check of the one-hot mux).
      if (rng_hit_o) begin
        begin : RangeHitMatches_A
          assert (rng_match[rng_idx_o] && (rng_match & ((Entries'(1) << rng_idx_o) - 1'b1)) == '0)
            else $error("RangeHitMatches_A: idx %0d", rng_idx_o);
        end
      end
    end
  end
`endif

  // ---------------------------------------------------------------------------------------------
  // Formal properties (yosys read_verilog -formal defines FORMAL): rtl/formal/ga_mlb_props.svh,
  // docs/verification.md.
  // ---------------------------------------------------------------------------------------------
`ifdef FORMAL
`include "formal/ga_mlb_props.svh"
`endif

endmodule : ga_mlb
