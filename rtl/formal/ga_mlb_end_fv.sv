// Copyright GPUArmor contributors.
//
// ga_mlb_end_fv -- formal equivalence wrapper of ga_mlb's two EndForms (spec §3.1 M3, §6.2; issue 13:
// "MLB lookups with EndForm = 1"). Two MLBs, EndForm 0 (off = va - base, off < size) and EndForm 1
// (va < base + size in 65 bits), get the same inputs every cycle; every output of the two must be
// equal in every reachable state, from reset (reset may come again at any time).
//
//   inputs --+--> ga_mlb #(EndForm 0) --> lookups, fill victim --+
//            +--> ga_mlb #(EndForm 1) --> lookups, fill victim --+--> equal? (EndEqual_A)
//
// The proof is ABC's dprove on the sequential miter (fv.sh mode cec): its register correspondence
// finds the two state copies equal (the next-state logic does not depend on EndForm), which leaves
// the range compare of each entry, M3 in the two forms, as a combinational equivalence. With the
// EndForm 0 lookups proved against the spec's words by the mlb*_lookup jobs, this proves the EndForm 1
// lookups too. Each MLB brings its own property file (ga_mlb_props.svh with GA_FV_MLB_TOP): its port
// contract is assumed (TOUCH names a valid entry), its state invariants are proved along.

`default_nettype none

module ga_mlb_end_fv #(
  parameter int TagBits = 7,
  parameter int Entries = 8,
  localparam int IdxW = (Entries > 1) ? $clog2(Entries) : 1
) (
  input  wire                          clk_i,
  input  wire                          rst_ni,
  input  wire [63:0]                   rng_ptr_i,
  input  wire [63:0]                   loc_i,
  input  wire [ga_pkg::MlbOpW-1:0]     upd_op_i,
  input  wire [IdxW-1:0]               upd_idx_i,
  input  wire [63:0]                   upd_tb_i,
  input  wire [63:0]                   upd_size_i,
  input  wire [63:0]                   upd_loc_i
);

  // Everything an MLB drives, in one vector per copy.
  localparam int OutW = 1 + IdxW + 3 * 64 + 1 + IdxW + 2 * 64 + IdxW;
  /* verilator lint_off UNUSEDSIGNAL */   // read only by the assertion (under FORMAL)
  logic [OutW-1:0] o0, o1;
  /* verilator lint_on UNUSEDSIGNAL */

  for (genvar f = 0; f < 2; f++) begin : gen_form
    logic            rng_hit, loc_hit;
    logic [IdxW-1:0] rng_idx, loc_idx, fill_idx;
    logic [63:0]     rng_tb, rng_size, rng_loc, loc_tb, loc_size;
    ga_mlb #(
      .TagBits (TagBits),
      .Entries (Entries),
      .EndForm (f)
    ) u_mlb (
      .clk_i       (clk_i),
      .rst_ni      (rst_ni),
      .rng_ptr_i   (rng_ptr_i),
      .rng_hit_o   (rng_hit),
      .rng_idx_o   (rng_idx),
      .rng_tb_o    (rng_tb),
      .rng_size_o  (rng_size),
      .rng_loc_o   (rng_loc),
      .loc_i       (loc_i),
      .loc_hit_o   (loc_hit),
      .loc_idx_o   (loc_idx),
      .loc_tb_o    (loc_tb),
      .loc_size_o  (loc_size),
      .loc_rd_idx_i(upd_idx_i),                      // (ReadForm 2 only: not read)
      .upd_op_i    (upd_op_i),
      .upd_idx_i   (upd_idx_i),
      .upd_tb_i    (upd_tb_i),
      .upd_size_i  (upd_size_i),
      .upd_loc_i   (upd_loc_i),
      .inv_loc_i   (upd_loc_i),                      // (FillPort 0: not read)
      .inv_hit_i   (1'b0),                           // (FillPort 0: not read)
      .fill_idx_o  (fill_idx)
    );
    logic [OutW-1:0] o;
    if (f == 0) begin : gen_o0
      assign o0 = o;
    end else begin : gen_o1
      assign o1 = o;
    end
    assign o = {rng_hit, rng_idx, rng_tb, rng_size, rng_loc, loc_hit, loc_idx, loc_tb, loc_size,
                fill_idx};
  end

`ifdef FORMAL
  always @(*) begin
    if (rst_ni) begin
      EndEqual_A: assert (o0 == o1);
    end
  end
`endif

endmodule : ga_mlb_end_fv
