// Copyright GPUArmor contributors.
//
// ga_smoke_tb -- Icarus smoke test of ga_mlu (portability check of rtl/, not the regression: the
// co-simulation under Verilator in tb/ is). Self-checking against hand-computed values for a tiny BST,
// a table, and a cyclic list in a behavioural memory:
//
//   node 0x1000  A  tag 0x11  base 0x10000  size 0x100   left 0x1020  right 0x1040   (BST root)
//   node 0x1020  B  tag 0x22  base 0x08000  size 0x040
//   node 0x1040  C  tag 0x33  base 0x20000  size 0x200   (freed during the test)
//   table 0x1800, slot 2: tag 0x44 base 0x40000 size 0x80 (oracle answers from the table)
//   list  0x1100 <-> 0x1120 (a cycle), for the step limit
//   reads at or above 0x1F00 return an error response
//
// The memory answers 3 cycles after a request and refuses requests on some cycles, so request
// stability and hit-under-miss are exercised. Prints PASS, or FAIL and exits through $fatal.
// RTL assertion failures print "ERROR:"; the make target fails on them as well.


module ga_smoke_tb;

  localparam int TagBits = 7;
  localparam int Lanes   = 4;
  localparam int Mlb     = 4;
  localparam int IdW     = 4;
  localparam int V       = 64 - TagBits;
  localparam int MemLat  = 3;
  localparam int MemSize = 8192;

  // Op codes, status, kinds, events (ga_pkg)
  localparam logic [2:0] LM = 3'd0, MG = 3'd1, MS = 3'd2, AC = 3'd3, INV = 3'd4, FL = 3'd5,
                         CFG = 3'd6, CLR = 3'd7;
  localparam logic [1:0] OK = 2'd0, HALTED = 2'd1, CFGERR = 2'd2;
  localparam logic [2:0] K_NONE = 3'd0, K_OOB = 3'd1, K_UAF = 3'd2, K_TM = 3'd3, K_NOMD = 3'd4,
                         K_SOOB = 3'd5, K_MDF = 3'd6;
  localparam logic [2:0] E_RHIT = 3'd0, E_RMISS = 3'd1, E_LHIT = 3'd2, E_LMISS = 3'd3,
                         E_FILL = 3'd4, E_DROP = 3'd5, E_INV = 3'd6, E_FLUSH = 3'd7;

  logic clk = 1'b0;
  logic rst_n = 1'b0;
  always #5 clk = ~clk;

  // DUT ports
  logic                 req_valid = 1'b0, req_ready;
  logic [2:0]           req_op = '0;
  logic [IdW-1:0]       req_id = '0;
  logic [15:0]          req_warp = '0;
  logic [Lanes-1:0]     req_active = '0;
  logic [64*Lanes-1:0]  req_addr = '0;
  logic [2:0]           req_size = '0;
  logic [63:0]          req_md = '0;
  logic [2:0]           req_cfg_addr = '0;
  logic                 rsp_valid, rsp_ready = 1'b1;
  logic [IdW-1:0]       rsp_id;
  logic [2:0]           rsp_op;
  logic [1:0]           rsp_status;
  logic [63:0]          rsp_rd;
  logic [64*Lanes-1:0]  rsp_addr;
  logic [Lanes-1:0]     rsp_fault;
  logic [2:0]           rsp_kind;
  logic [63:0]          rsp_eaddr, rsp_md, rsp_tb, rsp_esize;
  logic [2:0]           rsp_esz;
  logic [15:0]          rsp_sm, rsp_warp;
  logic [4:0]           rsp_lane;
  logic                 mem_req_valid, mem_req_ready;
  logic [63:0]          mem_req_addr;
  logic [1:0]           mem_req_len;
  logic                 mem_rsp_valid = 1'b0, mem_rsp_ready;
  logic [255:0]         mem_rsp_data = '0;
  logic                 mem_rsp_err = 1'b0;
  logic                 orc_req_valid, orc_req_ready;
  logic [63:0]          orc_req_va;
  logic                 orc_rsp_valid = 1'b0, orc_rsp_found = 1'b0;
  logic [63:0]          orc_rsp_idx = '0;
  logic                 ev_valid;
  logic [2:0]           ev_kind;
  logic [IdW-1:0]       ev_id;
  logic [5:0]           ev_slot;
  logic [4:0]           ev_lane;
  logic                 halted;
  logic                 cfg_mode, cfg_policy;
  logic [ga_pkg::LayoutW-1:0] cfg_layout;
  logic [63:0]          cfg_root;
  logic [31:0]          cfg_limit;
  logic [15:0]          cfg_sm;
  logic [4:0]           cfg_tag_bits;

  ga_mlu #(
    .TagBits    (TagBits),
    .MlbEntries (Mlb),
    .Lanes      (Lanes),
    .IdW        (IdW),
    .HasIndex   (0)       // the board builds' unit: LAYOUT 3 (INDEX) is refused (CFG_ERROR)
  ) dut (
    .clk_i            (clk),
    .rst_ni           (rst_n),
    .req_valid_i      (req_valid),
    .req_ready_o      (req_ready),
    .req_op_i         (req_op),
    .req_id_i         (req_id),
    .req_warp_i       (req_warp),
    .req_active_i     (req_active),
    .req_addr_i       (req_addr),
    .req_size_i       (req_size),
    .req_md_i         (req_md),
    .req_cfg_addr_i   (req_cfg_addr),
    .rsp_valid_o      (rsp_valid),
    .rsp_ready_i      (rsp_ready),
    .rsp_id_o         (rsp_id),
    .rsp_op_o         (rsp_op),
    .rsp_status_o     (rsp_status),
    .rsp_rd_o         (rsp_rd),
    .rsp_addr_o       (rsp_addr),
    .rsp_fault_o      (rsp_fault),
    .rsp_exc_kind_o   (rsp_kind),
    .rsp_exc_addr_o   (rsp_eaddr),
    .rsp_exc_md_o     (rsp_md),
    .rsp_exc_tb_o     (rsp_tb),
    .rsp_exc_esize_o  (rsp_esize),
    .rsp_exc_size_o   (rsp_esz),
    .rsp_exc_sm_o     (rsp_sm),
    .rsp_exc_warp_o   (rsp_warp),
    .rsp_exc_lane_o   (rsp_lane),
    .mem_req_valid_o  (mem_req_valid),
    .mem_req_ready_i  (mem_req_ready),
    .mem_req_addr_o   (mem_req_addr),
    .mem_req_len_o    (mem_req_len),
    .mem_rsp_valid_i  (mem_rsp_valid),
    .mem_rsp_ready_o  (mem_rsp_ready),
    .mem_rsp_data_i   (mem_rsp_data),
    .mem_rsp_err_i    (mem_rsp_err),
    .orc_req_valid_o  (orc_req_valid),
    .orc_req_ready_i  (orc_req_ready),
    .orc_req_va_o     (orc_req_va),
    .orc_rsp_valid_i  (orc_rsp_valid),
    .orc_rsp_found_i  (orc_rsp_found),
    .orc_rsp_idx_i    (orc_rsp_idx),
    .ev_valid_o       (ev_valid),
    .ev_kind_o        (ev_kind),
    .ev_id_o          (ev_id),
    .ev_slot_o        (ev_slot),
    .ev_lane_o        (ev_lane),
    .halted_o         (halted),
    .cfg_mode_o       (cfg_mode),
    .cfg_layout_o     (cfg_layout),
    .cfg_root_o       (cfg_root),
    .cfg_step_limit_o (cfg_limit),
    .cfg_policy_o     (cfg_policy),
    .cfg_sm_id_o      (cfg_sm),
    .cfg_tag_bits_o   (cfg_tag_bits)
  );

  integer errors = 0;
  integer cycle = 0;
  always @(posedge clk) cycle <= cycle + 1;

  // ---------------------------------------------------------------------------------------------
  // Behavioural memory: bytes [0, MemSize), little-endian; error at or above 0x1F00.
  // ---------------------------------------------------------------------------------------------
  logic [7:0] mem [0:MemSize-1];
  logic       mbusy = 1'b0;
  logic [63:0] maddr = '0;
  logic [1:0] mlen = 2'd0;
  integer     mwait = 0;
  integer     nreads = 0;
  logic [63:0] rd_addr_log [0:255];
  logic [1:0]  rd_len_log  [0:255];

  task automatic wr64(input logic [63:0] a, input logic [63:0] v);
    for (int k = 0; k < 8; k++) mem[a + k] = v[8*k +: 8];
  endtask

  function automatic logic [63:0] rd64(input logic [63:0] a);
    logic [63:0] v;
    for (int k = 0; k < 8; k++) v[8*k +: 8] = mem[a + k];
    return v;
  endfunction

  function automatic logic [63:0] ptr(input logic [6:0] tag, input logic [63:0] va);
    return {tag, va[V-1:0]};
  endfunction

  assign mem_req_ready = !mbusy && (cycle % 4 != 1);   // refuse now and then

  always @(posedge clk) begin
    if (mem_rsp_valid && mem_rsp_ready) begin
      mem_rsp_valid <= 1'b0;
      mbusy         <= 1'b0;
    end
    if (mem_req_valid && mem_req_ready) begin
      mbusy <= 1'b1;
      maddr <= mem_req_addr;
      mlen  <= mem_req_len;
      mwait <= MemLat;
      rd_addr_log[nreads] <= mem_req_addr;
      rd_len_log[nreads]  <= mem_req_len;
      nreads <= nreads + 1;
    end else if (mbusy && !mem_rsp_valid) begin
      if (mwait > 1) begin
        mwait <= mwait - 1;
      end else begin
        // Data is taken when the read is served (frees may race it, spec §8).
        mem_rsp_valid <= 1'b1;
        mem_rsp_err   <= (maddr >= 64'h1F00);
        for (int k = 0; k < 32; k++) begin
          mem_rsp_data[8*k +: 8] <= (k < ((mlen == 2'd1) ? 32 : 16) && maddr + k < MemSize) ?
                                    mem[maddr + k] : 8'h00;
        end
      end
    end
  end

  // Table oracle: the slot of 8 at ROOT whose range contains va (tags ignored), next cycle.
  function automatic logic orc_covers(input logic [63:0] slot, input logic [63:0] va);
    logic [63:0] tb, sz, base;
    tb   = rd64(slot);
    sz   = rd64(slot + 8);
    base = {7'd0, tb[V-1:0]};
    return va >= base && va - base < sz;
  endfunction

  assign orc_req_ready = 1'b1;
  always @(posedge clk) begin
    orc_rsp_valid <= 1'b0;
    if (orc_req_valid && orc_req_ready) begin
      orc_rsp_valid <= 1'b1;
      orc_rsp_found <= 1'b0;
      orc_rsp_idx   <= '0;
      for (int i = 7; i >= 0; i--) begin
        if (orc_covers(cfg_root + 16 * i, orc_req_va)) begin
          orc_rsp_found <= 1'b1;
          orc_rsp_idx   <= i;
        end
      end
    end
  end

  // ---------------------------------------------------------------------------------------------
  // Monitors: acceptance, responses by id, commit log
  // ---------------------------------------------------------------------------------------------
  integer acc_cnt = 0;
  integer acc_cycle [0:15];
  integer rsp_cycle [0:15];
  integer rsp_seq   [0:15];
  integer rsp_cnt = 0;
  logic   got       [0:15];
  logic [1:0]          g_status [0:15];
  logic [2:0]          g_op     [0:15];
  logic [63:0]         g_rd     [0:15];
  logic [64*Lanes-1:0] g_addr   [0:15];
  logic [Lanes-1:0]    g_fault  [0:15];
  logic [2:0]          g_kind   [0:15];
  logic [63:0]         g_eaddr  [0:15], g_md [0:15], g_tb [0:15], g_esize [0:15];
  logic [2:0]          g_esz    [0:15];
  logic [15:0]         g_warp   [0:15];
  logic [4:0]          g_lane   [0:15];
  integer ev_cnt = 0;
  integer ev_rd  = 0;
  logic [2:0] ev_k_log [0:255];
  logic [3:0] ev_i_log [0:255];
  logic [5:0] ev_s_log [0:255];
  logic [4:0] ev_l_log [0:255];
  integer rd_rd = 0;

  initial begin
    for (int i = 0; i < 16; i++) got[i] = 1'b0;
  end

  always @(posedge clk) begin
    if (req_valid && req_ready) begin
      acc_cnt <= acc_cnt + 1;
      acc_cycle[req_id] <= cycle;
    end
    if (rsp_valid && rsp_ready) begin
      if (got[rsp_id]) begin
        $display("FAIL: second response for id %0d before the first was consumed", rsp_id);
        errors = errors + 1;
      end
      got[rsp_id]       <= 1'b1;
      rsp_cycle[rsp_id] <= cycle;
      rsp_seq[rsp_id]   <= rsp_cnt;
      rsp_cnt           <= rsp_cnt + 1;
      g_status[rsp_id]  <= rsp_status;
      g_op[rsp_id]      <= rsp_op;
      g_rd[rsp_id]      <= rsp_rd;
      g_addr[rsp_id]    <= rsp_addr;
      g_fault[rsp_id]   <= rsp_fault;
      g_kind[rsp_id]    <= rsp_kind;
      g_eaddr[rsp_id]   <= rsp_eaddr;
      g_md[rsp_id]      <= rsp_md;
      g_tb[rsp_id]      <= rsp_tb;
      g_esize[rsp_id]   <= rsp_esize;
      g_esz[rsp_id]     <= rsp_esz;
      g_warp[rsp_id]    <= rsp_warp;
      g_lane[rsp_id]    <= rsp_lane;
    end
    if (ev_valid) begin
      ev_k_log[ev_cnt] <= ev_kind;
      ev_i_log[ev_cnt] <= ev_id;
      ev_s_log[ev_cnt] <= ev_slot;
      ev_l_log[ev_cnt] <= ev_lane;
      ev_cnt <= ev_cnt + 1;
    end
    if (cycle > 20000) begin
      $display("FAIL: timeout");
      $fatal(1, "ga_smoke_tb: timeout");
    end
  end

  // ---------------------------------------------------------------------------------------------
  // Driver and checkers
  // ---------------------------------------------------------------------------------------------
  // Present a request at a falling edge and hold it until accepted (valid/ready).
  task automatic send(input logic [2:0] op, input logic [3:0] id, input logic [Lanes-1:0] act,
                      input logic [64*Lanes-1:0] addr, input logic [2:0] size,
                      input logic [63:0] md, input logic [2:0] cfga);
    integer n0;
    n0           = acc_cnt;
    req_valid    = 1'b1;
    req_op       = op;
    req_id       = id;
    req_warp     = 16'h0100 + 16'(id);
    req_active   = act;
    req_addr     = addr;
    req_size     = size;
    req_md       = md;
    req_cfg_addr = cfga;
    do @(negedge clk); while (acc_cnt == n0);
    req_valid    = 1'b0;
  endtask

  task automatic wait_rsp(input logic [3:0] id);
    while (!got[id]) @(negedge clk);
    got[id] = 1'b0;
  endtask

  task automatic chk(input string what, input logic [63:0] g, input logic [63:0] e);
    if (g !== e) begin
      $display("FAIL: %s: got %h expected %h", what, g, e);
      errors = errors + 1;
    end
  endtask

  task automatic chk_rsp(input logic [3:0] id, input logic [1:0] st, input logic [63:0] rd,
                         input logic [Lanes-1:0] fault, input logic [2:0] kind,
                         input logic [63:0] eaddr, input logic [63:0] md, input logic [63:0] tb,
                         input logic [63:0] esize, input logic [4:0] lane);
    wait_rsp(id);
    chk($sformatf("id %0d status", id), 64'(g_status[id]), 64'(st));
    chk($sformatf("id %0d rd", id), g_rd[id], rd);
    chk($sformatf("id %0d fault", id), 64'(g_fault[id]), 64'(fault));
    chk($sformatf("id %0d kind", id), 64'(g_kind[id]), 64'(kind));
    chk($sformatf("id %0d exc addr", id), g_eaddr[id], eaddr);
    chk($sformatf("id %0d exc md", id), g_md[id], md);
    chk($sformatf("id %0d exc tb", id), g_tb[id], tb);
    chk($sformatf("id %0d exc esize", id), g_esize[id], esize);
    chk($sformatf("id %0d exc lane", id), 64'(g_lane[id]), 64'(lane));
  endtask

  task automatic chk_ev(input logic [2:0] kind, input logic [3:0] id, input logic [5:0] slot,
                        input logic [4:0] lane);
    while (ev_rd >= ev_cnt) @(negedge clk);
    chk($sformatf("event %0d kind", ev_rd), 64'(ev_k_log[ev_rd]), 64'(kind));
    chk($sformatf("event %0d id", ev_rd), 64'(ev_i_log[ev_rd]), 64'(id));
    chk($sformatf("event %0d slot", ev_rd), 64'(ev_s_log[ev_rd]), 64'(slot));
    chk($sformatf("event %0d lane", ev_rd), 64'(ev_l_log[ev_rd]), 64'(lane));
    ev_rd = ev_rd + 1;
  endtask

  task automatic chk_rd(input logic [63:0] a, input logic [1:0] len);
    chk($sformatf("read %0d addr", rd_rd), rd_addr_log[rd_rd], a);
    chk($sformatf("read %0d len", rd_rd), 64'(rd_len_log[rd_rd]), 64'(len));
    rd_rd = rd_rd + 1;
  endtask

  task automatic chk_no_more_events;
    repeat (2) @(negedge clk);
    chk("events pending", 64'(ev_cnt), 64'(ev_rd));
  endtask

  task automatic chk_no_more_reads;
    chk("reads issued", 64'(nreads), 64'(rd_rd));
  endtask

  task automatic cfg_write(input logic [3:0] id, input logic [2:0] a, input logic [63:0] v,
                           input logic [1:0] st);
    send(CFG, id, '0, '0, 3'd0, v, a);
    wait_rsp(id);
    chk($sformatf("cfg %0d <= %h status", a, v), 64'(g_status[id]), 64'(st));
  endtask

  function automatic logic [64*Lanes-1:0] L4(input logic [63:0] a0, input logic [63:0] a1,
                                             input logic [63:0] a2, input logic [63:0] a3);
    return {a3, a2, a1, a0};
  endfunction

  // Tagged base words
  logic [63:0] tbA, tbB, tbC, pA, pB, pC, pT;

  initial begin
    for (int i = 0; i < MemSize; i++) mem[i] = 8'h00;
    tbA = ptr(7'h11, 64'h10000);
    tbB = ptr(7'h22, 64'h08000);
    tbC = ptr(7'h33, 64'h20000);
    pA = tbA; pB = tbB; pC = tbC;
    // BST
    wr64(64'h1000, tbA); wr64(64'h1008, 64'h100); wr64(64'h1010, 64'h1020); wr64(64'h1018, 64'h1040);
    wr64(64'h1020, tbB); wr64(64'h1028, 64'h040); wr64(64'h1030, 64'h0);    wr64(64'h1038, 64'h0);
    wr64(64'h1040, tbC); wr64(64'h1048, 64'h200); wr64(64'h1050, 64'h0);    wr64(64'h1058, 64'h0);
    // Table slot 2
    pT = ptr(7'h44, 64'h40000);
    wr64(64'h1820, pT); wr64(64'h1828, 64'h80);
    // Cyclic list
    wr64(64'h1100, ptr(7'h55, 64'h60000)); wr64(64'h1108, 64'h10); wr64(64'h1110, 64'h1120);
    wr64(64'h1120, ptr(7'h56, 64'h61000)); wr64(64'h1128, 64'h10); wr64(64'h1130, 64'h1100);

    repeat (3) @(negedge clk);
    rst_n = 1'b1;
    @(negedge clk);

    // ---- reset values ----
    chk("reset layout", 64'(cfg_layout), 64'd1);
    chk("reset step limit", 64'(cfg_limit), 64'd65536);
    chk("tag bits", 64'(cfg_tag_bits), 64'd7);

    // ---- configuration, illegal values refused ----
    cfg_write(0, 3'd2, 64'h1000, OK);                  // ROOT
    cfg_write(1, 3'd1, 64'd3, CFGERR);                 // LAYOUT 3 (INDEX, not in a HasIndex 0 unit)
    cfg_write(2, 3'd3, 64'd0, CFGERR);                 // STEP_LIMIT 0
    cfg_write(3, 3'd7, 64'd0, CFGERR);                 // no such register
    cfg_write(4, 3'd5, 64'h1_0000, CFGERR);            // SM_ID too wide
    cfg_write(5, 3'd5, 64'h0042, OK);                  // SM_ID
    chk("layout unchanged", 64'(cfg_layout), 64'd1);
    chk("root", cfg_root, 64'h1000);

    // ---- LOADMETA miss: BST walk root -> left (B) ----
    send(LM, 1, 4'b0001, L4(pB + 8, 0, 0, 0), 0, 0, 0);
    chk_rsp(1, OK, 64'h1020, 0, K_NONE, 0, 0, 0, 0, 0);
    chk_rd(64'h1000, 2'd1);
    chk_rd(64'h1020, 2'd1);
    chk_ev(E_RMISS, 1, 0, 0);
    chk_ev(E_FILL, 1, 0, 0);

    // ---- LOADMETA hit: response the cycle after acceptance ----
    send(LM, 2, 4'b0001, L4(pB + 16, 0, 0, 0), 0, 0, 0);
    chk_rsp(2, OK, 64'h1020, 0, K_NONE, 0, 0, 0, 0, 0);
    chk("LOADMETA hit latency", 64'(rsp_cycle[2] - acc_cycle[2]), 64'd1);
    chk_ev(E_RHIT, 2, 0, 0);

    // ---- MEMCHECK.G hit: lane 1 runs 4 bytes past B; lane 2 untagged; lane 3 inactive ----
    send(MG, 3, 4'b0111, L4(pB, pB + 64'h3C, 64'h8000, 64'hdead), 3'd3, 64'h1020, 0);
    chk_rsp(3, OK, 0, 4'b0010, K_OOB, pB + 64'h3C, 64'h1020, tbB, 64'h40, 5'd1);
    chk("MEMCHECK.G hit latency", 64'(rsp_cycle[3] - acc_cycle[3]), 64'd1);
    chk("strip lane 1", g_addr[3][127:64], 64'h803C);
    chk("strip lane 3 (inactive)", g_addr[3][255:192], 64'hdead);
    chk("record size", 64'(g_esz[3]), 64'd3);
    chk("record warp", 64'(g_warp[3]), 64'h0103);
    chk_ev(E_LHIT, 3, 0, 0);

    // ---- MEMCHECK.G miss: fetch C's entry, fill ----
    send(MG, 4, 4'b0001, L4(pC + 64'h1F8, 0, 0, 0), 3'd3, 64'h1040, 0);
    chk_rsp(4, OK, 0, 0, K_NONE, 0, 0, 0, 0, 0);
    chk_rd(64'h1040, 2'd0);
    chk_ev(E_LMISS, 4, 0, 0);
    chk_ev(E_FILL, 4, 1, 0);

    // ---- free C: the runtime writes F, then invalidates; the refetch sees the freed tag ----
    wr64(64'h1040, ptr(7'h7F, 64'h20000));
    send(INV, 5, 0, 0, 0, 64'h1040, 0);
    chk_rsp(5, OK, 0, 0, K_NONE, 0, 0, 0, 0, 0);
    chk_ev(E_INV, 5, 0, 0);
    send(MG, 6, 4'b0001, L4(pC, 0, 0, 0), 3'd2, 64'h1040, 0);
    chk_rsp(6, OK, 0, 4'b0001, K_UAF, pC, 64'h1040, ptr(7'h7F, 64'h20000), 64'h200, 5'd0);
    chk_rd(64'h1040, 2'd0);
    chk_ev(E_LMISS, 6, 0, 0);                          // freed entry: no fill, no event

    // ---- metadata read error: fail closed ----
    send(MG, 7, 4'b0001, L4(pA, 0, 0, 0), 3'd0, 64'h1F00, 0);
    chk_rsp(7, OK, 0, 4'b0001, K_MDF, pA, 64'h1F00, 0, 0, 5'd0);
    chk_rd(64'h1F00, 1'b0);
    chk_ev(E_LMISS, 7, 0, 0);
    // Rb = 0 and misaligned Rb: no lookup, no read
    send(MG, 8, 4'b0011, L4(64'h1234, pA, 0, 0), 3'd0, 64'h0, 0);
    chk_rsp(8, OK, 0, 4'b0010, K_NOMD, pA, 0, 0, 0, 5'd1);
    send(MG, 9, 4'b0001, L4(pA, 0, 0, 0), 3'd0, 64'h1008, 0);
    chk_rsp(9, OK, 0, 4'b0001, K_MDF, pA, 64'h1008, 0, 0, 5'd0);

    // ---- LOADMETA: tag 0 (no lookup); wild pointer walks root -> right (C) -> null ----
    send(LM, 10, 4'b0001, L4(64'h10000, 0, 0, 0), 0, 0, 0);
    chk_rsp(10, OK, 0, 0, K_NONE, 0, 0, 0, 0, 0);
    send(LM, 11, 4'b0001, L4(ptr(7'h11, 64'h50000), 0, 0, 0), 0, 0, 0);
    chk_rsp(11, OK, 0, 0, K_NONE, 0, 0, 0, 0, 0);
    chk_rd(64'h1000, 2'd1);
    chk_rd(64'h1040, 2'd1);
    chk_ev(E_RMISS, 11, 0, 0);

    // ---- MEMCHECK.S: lane 1 runs 2 bytes past [0x100, 0x140) ----
    send(MS, 12, 4'b0011, L4(64'h100, 64'h13E, 0, 0), 3'd2, {32'h40, 32'h100}, 0);
    chk_rsp(12, OK, 0, 4'b0010, K_SOOB, 64'h13E, 0, 64'h100, 64'h40, 5'd1);
    chk("MEMCHECK.S returns no address", 64'(|g_addr[12]), 0);
    chk_no_more_events();
    chk_no_more_reads();

    // ---- hit-under-miss: A misses and walks, B hits and answers first ----
    send(LM, 13, 4'b0001, L4(pA + 4, 0, 0, 0), 0, 0, 0);
    send(LM, 14, 4'b0001, L4(pB + 4, 0, 0, 0), 0, 0, 0);
    chk_rsp(14, OK, 64'h1020, 0, K_NONE, 0, 0, 0, 0, 0);
    chk_rsp(13, OK, 64'h1000, 0, K_NONE, 0, 0, 0, 0, 0);
    chk("hit answered under the miss", 64'(rsp_seq[14] < rsp_seq[13]), 64'd1);
    chk("hit accepted the cycle after the miss", 64'(acc_cycle[14] - acc_cycle[13]), 64'd1);
    chk_rd(64'h1000, 2'd1);
    chk_ev(E_RMISS, 13, 0, 0);
    chk_ev(E_RHIT, 14, 0, 0);
    chk_ev(E_FILL, 13, 1, 0);                          // lowest invalid entry (C's, invalidated)

    // ---- one op per cycle while they hit; then back-pressure on the response port ----
    send(LM, 1, 4'b0001, L4(pB, 0, 0, 0), 0, 0, 0);
    send(LM, 2, 4'b0001, L4(pA, 0, 0, 0), 0, 0, 0);
    send(MG, 3, 4'b0001, L4(pA + 1, 0, 0, 0), 3'd0, 64'h1000, 0);
    chk_rsp(1, OK, 64'h1020, 0, K_NONE, 0, 0, 0, 0, 0);
    chk_rsp(2, OK, 64'h1000, 0, K_NONE, 0, 0, 0, 0, 0);
    chk_rsp(3, OK, 0, 0, K_NONE, 0, 0, 0, 0, 0);
    chk("back-to-back accept 1-2", 64'(acc_cycle[2] - acc_cycle[1]), 64'd1);
    chk("back-to-back accept 2-3", 64'(acc_cycle[3] - acc_cycle[2]), 64'd1);
    chk("back-to-back response 1-2", 64'(rsp_cycle[2] - rsp_cycle[1]), 64'd1);
    chk("back-to-back response 2-3", 64'(rsp_cycle[3] - rsp_cycle[2]), 64'd1);
    rsp_ready = 1'b0;
    send(LM, 4, 4'b0001, L4(pB + 1, 0, 0, 0), 0, 0, 0);
    repeat (3) @(negedge clk);
    rsp_ready = 1'b1;
    send(LM, 5, 4'b0001, L4(pA + 2, 0, 0, 0), 0, 0, 0);
    chk_rsp(4, OK, 64'h1020, 0, K_NONE, 0, 0, 0, 0, 0);
    chk_rsp(5, OK, 64'h1000, 0, K_NONE, 0, 0, 0, 0, 0);
    chk_ev(E_RHIT, 1, 0, 0);
    chk_ev(E_RHIT, 2, 1, 0);
    chk_ev(E_LHIT, 3, 1, 0);
    chk_ev(E_RHIT, 4, 0, 0);
    chk_ev(E_RHIT, 5, 1, 0);
    chk_no_more_reads();

    // ---- an invalidation racing a walk drops the fill; the response is unaffected ----
    send(FL, 5, 0, 0, 0, 0, 0);
    chk_rsp(5, OK, 0, 0, K_NONE, 0, 0, 0, 0, 0);
    chk_ev(E_FLUSH, 5, 0, 0);
    send(LM, 6, 4'b0001, L4(pA + 8, 0, 0, 0), 0, 0, 0);
    send(INV, 7, 0, 0, 0, 64'h9990, 0);
    chk_rsp(7, OK, 0, 0, K_NONE, 0, 0, 0, 0, 0);
    chk_rsp(6, OK, 64'h1000, 0, K_NONE, 0, 0, 0, 0, 0);
    chk_rd(64'h1000, 2'd1);
    chk_ev(E_RMISS, 6, 0, 0);
    chk_ev(E_INV, 7, 0, 0);
    chk_ev(E_DROP, 6, 0, 0);
    send(LM, 8, 4'b0001, L4(pA + 8, 0, 0, 0), 0, 0, 0);   // not filled: walks again, fills
    chk_rsp(8, OK, 64'h1000, 0, K_NONE, 0, 0, 0, 0, 0);
    chk_rd(64'h1000, 2'd1);
    chk_ev(E_RMISS, 8, 0, 0);
    chk_ev(E_FILL, 8, 0, 0);

    // ---- a second miss parks; the port stalls until the walker frees ----
    send(LM, 9, 4'b0001, L4(pB + 8, 0, 0, 0), 0, 0, 0);              // miss (flushed)
    send(MG, 10, 4'b0001, L4(pC, 0, 0, 0), 3'd0, 64'h1040, 0);       // miss, parked
    send(LM, 11, 4'b0001, L4(pA, 0, 0, 0), 0, 0, 0);                 // hit, after the stall
    chk_rsp(9, OK, 64'h1020, 0, K_NONE, 0, 0, 0, 0, 0);
    chk_rsp(10, OK, 0, 4'b0001, K_UAF, pC, 64'h1040, ptr(7'h7F, 64'h20000), 64'h200, 5'd0);
    chk_rsp(11, OK, 64'h1000, 0, K_NONE, 0, 0, 0, 0, 0);
    chk_rd(64'h1000, 2'd1);
    chk_rd(64'h1020, 2'd1);
    chk_rd(64'h1040, 2'd0);
    chk_ev(E_RMISS, 9, 0, 0);
    chk_ev(E_LMISS, 10, 0, 0);
    chk_ev(E_FILL, 9, 1, 0);
    chk_ev(E_RHIT, 11, 0, 0);

    // ---- HWOnly access: lanes 0 and 2 in B (one walk), lane 1 past A's end, lane 3 forged ----
    cfg_write(12, 3'd0, 64'd1, OK);
    send(FL, 13, 0, 0, 0, 0, 0);
    chk_rsp(13, OK, 0, 0, K_NONE, 0, 0, 0, 0, 0);
    chk_ev(E_FLUSH, 13, 0, 0);
    send(LM, 14, 4'b0001, L4(pA, 0, 0, 0), 0, 0, 0);                 // A into the MLB
    chk_rsp(14, OK, 64'h1000, 0, K_NONE, 0, 0, 0, 0, 0);
    chk_rd(64'h1000, 2'd1);
    chk_ev(E_RMISS, 14, 0, 0);
    chk_ev(E_FILL, 14, 0, 0);
    send(AC, 15, 4'b1111, L4(pB, pA + 64'hFC, pB + 64'h38, ptr(7'h7F, 64'h123)), 3'd3, 0, 0);
    chk_rsp(15, OK, 0, 4'b1010, K_OOB, pA + 64'hFC, 64'h1000, tbA, 64'h100, 5'd1);
    chk("HWOnly strip lane 3", g_addr[15][255:192], 64'h123);
    chk_rd(64'h1000, 2'd1);
    chk_rd(64'h1020, 2'd1);
    chk_ev(E_RMISS, 15, 0, 0);
    chk_ev(E_FILL, 15, 1, 0);
    chk_ev(E_RHIT, 15, 0, 1);
    // HWOnly: a wild lane decided alone after a NOT_FOUND walk; lane 1 joins lane 0's group
    send(AC, 0, 4'b0011, L4(ptr(7'h11, 64'h50000), pB, 0, 0), 3'd0, 0, 0);
    chk_rsp(0, OK, 0, 4'b0001, K_NOMD, ptr(7'h11, 64'h50000), 0, 0, 0, 5'd0);
    chk_rd(64'h1000, 2'd1);
    chk_rd(64'h1040, 2'd1);
    chk_ev(E_RMISS, 0, 0, 0);
    chk_ev(E_RHIT, 0, 1, 1);
    cfg_write(1, 3'd0, 64'd0, OK);

    // ---- TERMINATE: the first fault halts; LSU ops are refused; invalidate still works ----
    cfg_write(2, 3'd4, 64'd1, OK);
    send(MG, 3, 4'b0001, L4(pA + 64'h100, 0, 0, 0), 3'd0, 64'h1000, 0);
    chk_rsp(3, OK, 0, 4'b0001, K_OOB, pA + 64'h100, 64'h1000, tbA, 64'h100, 5'd0);
    chk("halted", 64'(halted), 64'd1);
    chk_ev(E_LHIT, 3, 0, 0);
    send(LM, 4, 4'b0001, L4(pA, 0, 0, 0), 0, 0, 0);
    chk_rsp(4, HALTED, 0, 0, K_NONE, 0, 0, 0, 0, 0);
    send(INV, 5, 0, 0, 0, 64'h5550, 0);
    chk_rsp(5, OK, 0, 0, K_NONE, 0, 0, 0, 0, 0);
    chk_ev(E_INV, 5, 0, 0);
    send(CLR, 6, 0, 0, 0, 0, 0);
    chk_rsp(6, OK, 0, 0, K_NONE, 0, 0, 0, 0, 0);
    chk("halt cleared", 64'(halted), 64'd0);
    cfg_write(7, 3'd4, 64'd0, OK);

    // ---- TABLE layout through the oracle ----
    cfg_write(8, 3'd1, 64'd2, OK);
    cfg_write(9, 3'd2, 64'h1800, OK);
    send(LM, 10, 4'b0001, L4(pT + 64'h10, 0, 0, 0), 0, 0, 0);
    chk_rsp(10, OK, 64'h1820, 0, K_NONE, 0, 0, 0, 0, 0);
    chk_rd(64'h1820, 2'd0);
    chk_ev(E_RMISS, 10, 0, 0);
    chk_ev(E_FILL, 10, 2, 0);
    send(LM, 11, 4'b0001, L4(ptr(7'h45, 64'h40010), 0, 0, 0), 0, 0, 0);   // RANGE_ONLY
    chk_rsp(11, OK, 0, 0, K_NONE, 0, 0, 0, 0, 0);
    chk_rd(64'h1820, 2'd0);
    chk_ev(E_RMISS, 11, 0, 0);
    send(LM, 12, 4'b0001, L4(ptr(7'h45, 64'h90000), 0, 0, 0), 0, 0, 0);   // oracle: none
    chk_rsp(12, OK, 0, 0, K_NONE, 0, 0, 0, 0, 0);
    chk_ev(E_RMISS, 12, 0, 0);

    // ---- LIST with a cycle: the step limit ends the walk; a misaligned ROOT faults ----
    cfg_write(13, 3'd1, 64'd0, OK);
    cfg_write(14, 3'd2, 64'h1100, OK);
    cfg_write(15, 3'd3, 64'd3, OK);
    send(LM, 0, 4'b0001, L4(ptr(7'h57, 64'h70000), 0, 0, 0), 0, 0, 0);
    chk_rsp(0, OK, 0, 0, K_NONE, 0, 0, 0, 0, 0);
    chk_rd(64'h1100, 2'd1);
    chk_rd(64'h1120, 2'd1);
    chk_rd(64'h1100, 2'd1);
    chk_ev(E_RMISS, 0, 0, 0);
    cfg_write(1, 3'd0, 64'd1, OK);                      // HWOnly: STEP_LIMIT -> METADATA_FAULT
    send(AC, 2, 4'b0001, L4(ptr(7'h57, 64'h70000), 0, 0, 0), 3'd0, 0, 0);
    chk_rsp(2, OK, 0, 4'b0001, K_MDF, ptr(7'h57, 64'h70000), 0, 0, 0, 5'd0);
    chk_rd(64'h1100, 2'd1);
    chk_rd(64'h1120, 2'd1);
    chk_rd(64'h1100, 2'd1);
    chk_ev(E_RMISS, 2, 0, 0);
    cfg_write(3, 3'd2, 64'h1108, OK);
    send(LM, 4, 4'b0001, L4(ptr(7'h57, 64'h70000), 0, 0, 0), 0, 0, 0);
    chk_rsp(4, OK, 0, 0, K_NONE, 0, 0, 0, 0, 0);
    chk_ev(E_RMISS, 4, 0, 0);
    chk_no_more_events();
    chk_no_more_reads();

    repeat (5) @(negedge clk);
    if (errors != 0) begin
      $display("FAIL: %0d mismatches", errors);
      $fatal(1, "ga_smoke_tb failed");
    end
    $display("PASS: ga_smoke_tb (%0d responses, %0d events, %0d metadata reads, %0d cycles)",
             rsp_cnt, ev_cnt, nreads, cycle);
    $finish;
  end

endmodule : ga_smoke_tb
