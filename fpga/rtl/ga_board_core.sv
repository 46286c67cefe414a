// Copyright GPUArmor contributors.
//
// ga_board_core -- the FPGA prototype of one SM's MLU (docs/fpga.md): ga_mlu, its metadata memory in
// block RAM (ga_board_mem), and a UART command engine that turns host frames into MLU operations and
// answers each with the MLU's response and exception record.
//
//   uart_rx_i --> ga_uart_rx --> frame parser (sync, CMD, LEN, payload, CRC-8)
//                                   | MLU_OP payload bytes load req_q (the request's fields;
//                                   |   a wide build's lanes 16.. come from LANES_HI payloads)
//                                   | MEM_WRITE payload goes to the block RAM two bytes at a time
//                                   v
//                               E_EXEC: one MLU request (valid/ready), then E_WAIT for its response
//                                   |                     ga_mlu <--> ga_board_mem (mem_*)
//                                   v                            <--> oracle answer from the request
//                               E_TX: 0x5A, CMD, LEN, the response block (status, the MLU's response
//                                     register, exception record), the command's trailer, CRC-8
//   uart_tx_o <-- ga_uart_tx <------+
//
// One command at a time: the host sends a frame and waits for its response (docs/fpga.md §3). The
// MLU's response register keeps its fields after the handshake (rsp_ready_i is tied high), so the
// response block is read straight from the MLU's outputs while it is sent: no copy is kept here.
//
// Parameters:
//   TagBits, MlbEntries   ga_mlu's (7|16, 1..64)
//   Lanes                 1 .. 32. A frame carries at most 255 payload bytes, so MLU_OP and the response
//                         block carry lanes 0 .. 15; a wide build (Lanes 17 .. 32) takes and returns
//                         lanes 16 .. Lanes-1 with the LANES_HI command (docs/fpga.md §3.7)
//   ClksPerBit            UART clock cycles per bit (f_clk / baud)
//   MemLinesW             4 .. 8: log2 of the 32-byte lines of metadata memory (8: 8 KiB, 16 block RAMs)
//   CntW                  width of each event counter, 8 .. 32
//   ClkKhz                the clock frequency the build was made for, reported by INFO
//   VaKeep                8 .. 64 - TagBits. Narrow builds (docs/fpga.md §6): request lane VAs and memory
//                         entry fields keep their low VaKeep bits (tags and the pointers of the window
//                         are kept); the host never sends a value that needs more. 64 - TagBits: full
//                         width.
//   MdKeep                16 .. 32. Narrow builds: bits kept of the request's md word (of each half for
//                         MEMCHECK.S); ignored by full-width builds
//   HwOnlyMode            0: compiler-mode-only build: ga_mlu's HwOnly = 0, so a CFG_WRITE of MODE = 1
//                         (HWONLY) is refused with CFG_ERROR, MODE stays COMPILER and the HWOnly
//                         sequencer is not built (docs/fpga.md §6)
//   EndForm               ga_mlu's EndForm: 1 (the board's default) computes the MLB's range match and
//                         the bounds check against the end bound base + size: the same functions with
//                         fewer and shorter carry chains (docs/fpga.md §5.4); 2 also stores each MLB
//                         entry's end bound at fill (no adder on the range lookup; docs/fpga.md §11.3)
//   ReadForm              ga_mlu's ReadForm: 0 (default) the MLB returns a hit's fields through
//                         multiplexers; 1 from copies in distributed RAM (ECP5 builds only: the
//                         iCE40 has no asynchronous-read RAM; docs/fpga.md §11.3)
//   FillPort              ga_mlu's FillPort: 0 (default) one select feeds the MLB's FILL and INVAL
//                         locations; 1 each on its own port, so the fill victim's compares start at
//                         the walker's location register; 2 as 1 with those compares registered a
//                         cycle early; 3 as 2, and an INVAL names its entry by the location lookup
//                         made at its acceptance, no compares of its own (ECP5 builds; docs/fpga.md
//                         §11.3)
//   RegLookup             ga_mlu's RegLookup: 1 (the board's default) registers the MLB lookup before the
//                         check; every operation answers one cycle later (docs/fpga.md §5.4)
//   RegCheck              ga_mlu's RegCheck, 0 .. 3 (> 0 needs RegLookup 1): 0 (the default) a
//                         combinational check; 3 the check's three register stages of the 32-lane ECP5
//                         goal unit (docs/fpga.md §11.3): every operation answers three cycles later
//   CheckLanes            ga_mlu's CheckLanes: 0 (the default) every lane checked in one cycle; P (RegCheck
//                         >= 2) P lane checks serve the lanes in Lanes / P beats, each operation
//                         answering Lanes / P - 1 cycles later still (docs/fpga.md §11.3)
//   NumSms                1 .. 8. 1 (the default): one ga_mlu, protocol version 1, exactly the core of
//                         before. 2 .. 8: a system board (docs/fpga.md §12): ga_system with NumSms MLUs
//                         sharing the block RAM through its arbiter, protocol version 2 (an SM byte in
//                         MLU_OP, SM 0xFF = every SM through the runtime port; an SM byte in INFO)
//   ReqSlice              0 (default) | 1: 1 puts a register stage (ga_req_slice) in front of each
//                         MLU's request port, one cycle more per operation: on a system board
//                         ga_system's ReqSlice, between each SM's port mux and its MLU; on the one-MLU
//                         core between the command engine's request register and the MLU, so that
//                         placement can put a copy of the request beside the MLB's compares
//                         (docs/fpga.md §11.3). The one-MLU core with ReqSlice 1 needs
//                         rtl/ga_req_slice.sv (rtl/ga_system.f) among its sources.
//   MemRegOut             0 | 1: ga_board_mem's RegOut. 1 answers each metadata read one cycle later
//                         from flip-flops, so the block RAM's read no longer leads the walker's compare
//                         (docs/fpga.md §4, §11.3)
//
// Ports: clk_i, rst_ni (asynchronous, active low), the two UART pins, status_o for LEDs
//   [0] halted  [1] an MLU operation in flight  [2] toggles on every frame  [3] last frame failed

`ifndef GA_ALWAYS_COMB
`ifdef __ICARUS__
`define GA_ALWAYS_COMB always @*
`else
`define GA_ALWAYS_COMB always_comb
`endif
`endif

module ga_board_core #(
  parameter int TagBits    = 7,
  parameter int MlbEntries = 8,
  parameter int Lanes      = 1,
  parameter int ClksPerBit = 104,
  parameter int MemLinesW  = 8,
  parameter int CntW       = 24,
  parameter int ClkKhz     = 12000,
  parameter int VaKeep     = 64 - TagBits,
  parameter int MdKeep     = 32,
  parameter int HwOnlyMode = 1,
  parameter int EndForm    = 1,
  parameter int ReadForm   = 0,
  parameter int FillPort   = 0,
  parameter int RegLookup  = 1,
  parameter int RegCheck   = 0,
  parameter int CheckLanes = 0,
  parameter int NumSms     = 1,
  parameter int ReqSlice   = 0,
  parameter int MemRegOut  = 0
) (
  input  logic       clk_i,
  input  logic       rst_ni,
  input  logic       uart_rx_i,
  output logic       uart_tx_o,
  output logic [3:0] status_o
);

  localparam int V        = 64 - TagBits;
  localparam bit Sys      = (NumSms > 1);        // a system board (protocol version 2)
  localparam int SmW      = (NumSms > 1) ? $clog2(NumSms) : 1;
  localparam bit Wide     = (Lanes > 16);        // lanes 16.. travel in LANES_HI frames (§3.7)
  localparam int LoLanes  = Wide ? 16 : Lanes;   // lanes in MLU_OP and in the response block
  localparam int HiBytes  = 8 * (Lanes - LoLanes);  // LANES_HI payload: lanes 16 .. Lanes-1
  localparam int SmByte   = 20 + 8 * LoLanes;    // version 2: the MLU_OP payload's SM byte
  localparam int ReqBytes = 20 + 8 * LoLanes + (Sys ? 1 : 0); // MLU_OP payload (docs/fpga.md §3.2)
  localparam int ReqN     = ReqBytes + HiBytes;  // the request register: MLU_OP's payload, then LANES_HI's
  localparam int BlkN     = 56 + 8 * LoLanes;    // the response block as sent (lanes 0 .. LoLanes-1)
  localparam int BaseN    = 56 + 8 * Lanes;      // the response block with every lane (the selector's)
  localparam int InfoN    = 32;                  // INFO trailer
  localparam int NCnt     = 10;                  // counters: ops, mem reads, 8 event kinds
  localparam int CntN     = 4 * NCnt;            // COUNTERS trailer
  localparam int MemWBytes = 34;                 // MEM_WRITE payload: line (2), data (32)
  localparam int SelN     = BaseN + InfoN + CntN;
  localparam int SelW     = $clog2(SelN + 1);
  localparam int PtrW     = MemLinesW + 5;       // byte address bits of the memory window

  localparam bit ParamsBad = (Lanes < 1) || (Lanes > 32) || (CntW < 8) || (CntW > 32) || (MemLinesW < 4) ||
                             (MemLinesW > 8) ||
                             (VaKeep < 8) || (VaKeep > V) || (MdKeep < 16) || (MdKeep > 32) ||
                             (NumSms < 1) || (NumSms > 8) || (MemRegOut < 0) || (MemRegOut > 1) ||
                             (ReqSlice < 0) || (ReqSlice > 1);
`ifdef __ICARUS__
  initial begin
    if (ParamsBad) $fatal(1, "ga_board_core: Lanes 1..32, CntW 8..32, MemLinesW 4..8, VaKeep 8..64-TagBits, MdKeep 16..32, NumSms 1..8, MemRegOut 0..1, ReqSlice 0..1");
  end
`else
  if (ParamsBad) begin : gen_bad_params
    $error("ga_board_core: Lanes 1..32, CntW 8..32, MemLinesW 4..8, VaKeep 8..64-TagBits, MdKeep 16..32, NumSms 1..8, MemRegOut 0..1, ReqSlice 0..1");
  end
`endif

  // Command codes and board status (docs/fpga.md §3)
  localparam logic [7:0] SYNC_REQ = 8'hA5;
  localparam logic [7:0] SYNC_RSP = 8'h5A;
  localparam logic [7:0] CMD_INFO      = 8'h01;
  localparam logic [7:0] CMD_MLU_OP    = 8'h02;
  localparam logic [7:0] CMD_MEM_WRITE = 8'h03;
  localparam logic [7:0] CMD_COUNTERS  = 8'h04;
  localparam logic [7:0] CMD_RESET     = 8'h05;
  localparam logic [7:0] CMD_LANES_HI  = 8'h06;   // wide builds only (Lanes > 16): lanes 16 .. Lanes-1
  localparam logic [7:0] ST_OK        = 8'd0;
  localparam logic [7:0] ST_BAD_CRC   = 8'd1;
  localparam logic [7:0] ST_BAD_LEN   = 8'd2;
  localparam logic [7:0] ST_BAD_CMD   = 8'd3;
  localparam logic [7:0] ST_MEM_RANGE = 8'd4;
  localparam logic [7:0] ST_BAD_SM    = 8'd5;

  // CRC-8, polynomial x^8 + x^2 + x + 1 (0x07), initial value 0, no reflection, no final XOR.
  function automatic logic [7:0] crc8(input logic [7:0] crc, input logic [7:0] b);
    logic [7:0] c;
    c = crc ^ b;
    for (int i = 0; i < 8; i++) begin
      c = c[7] ? ((c << 1) ^ 8'h07) : (c << 1);
    end
    crc8 = c;
  endfunction

  // ---------------------------------------------------------------------------------------------
  // UART
  // ---------------------------------------------------------------------------------------------
  logic       rx_valid, rx_ferr, rx_brk;
  logic [7:0] rx_data;
  logic       tx_valid, tx_ready;
  logic [7:0] tx_data;

  ga_uart_rx #(.ClksPerBit(ClksPerBit)) u_rx (
    .clk_i, .rst_ni, .rx_i(uart_rx_i),
    .valid_o(rx_valid), .data_o(rx_data), .frame_err_o(rx_ferr), .break_o(rx_brk)
  );
  ga_uart_tx #(.ClksPerBit(ClksPerBit)) u_tx (
    .clk_i, .rst_ni, .valid_i(tx_valid), .ready_o(tx_ready), .data_i(tx_data), .tx_o(uart_tx_o)
  );

  // ---------------------------------------------------------------------------------------------
  // Engine state
  // ---------------------------------------------------------------------------------------------
  typedef enum logic [2:0] {
    E_SYNC = 3'd0,  // waiting for the sync byte 0xA5
    E_CMD  = 3'd1,  // command byte
    E_LEN  = 3'd2,  // payload length byte
    E_PAY  = 3'd3,  // payload bytes
    E_CRC  = 3'd4,  // CRC byte; then the frame is judged
    E_EXEC = 3'd5,  // run the command (MLU request until accepted; reset pulse)
    E_WAIT = 3'd6,  // MLU request accepted, waiting for its response
    E_TX   = 3'd7   // sending the response frame
  } eng_state_e;

  typedef enum logic [2:0] {
    T_SYNC = 3'd0,  // 0x5A
    T_CMD  = 3'd1,  // the command, echoed
    T_LEN  = 3'd2,  // payload length
    T_PAY  = 3'd3,  // response block and trailer
    T_CRC  = 3'd4   // CRC-8 over CMD, LEN and payload
  } tx_phase_e;

  eng_state_e              st_q, st_d;
  tx_phase_e               tph_q, tph_d;
  logic [7:0]              cmd_q, cmd_d;
  logic [7:0]              left_q, left_d;      // payload bytes still to receive / send
  logic [7:0]              pidx_q, pidx_d;      // payload byte index (receive)
  logic                    lenok_q, lenok_d;    // LEN is the command's payload length
  logic [7:0]              crc_q, crc_d;
  logic [7:0]              bst_q, bst_d;        // board status of this frame
  logic [8*ReqN-1:0]       req_q, req_d;        // MLU_OP payload, byte 0 at [7:0]; then LANES_HI's
  logic [MemLinesW-1:0]    wline_q, wline_d;    // MEM_WRITE line
  logic                    wbad_q, wbad_d;      // ... outside the memory
  logic [7:0]              wlo_q, wlo_d;        // ... low byte of the column word being received
  logic                    clr_q, clr_d;        // COUNTERS: clear after sending
  logic [15:0]             cyc_q, cyc_d;        // MLU request accepted -> response, saturating
  logic                    mrsp_q, mrsp_d;      // this frame carries a new MLU response
  logic                    ferr_q, ferr_d;      // sticky: framing error since the last response
  logic                    brk_q, brk_d;        // sticky: break since the last response
  logic                    ovr_q, ovr_d;        // sticky: byte dropped while busy
  logic [SelW-1:0]         sel_q, sel_d;        // response byte selector
  logic [1:0]              mrst_q, mrst_d;      // MLU reset pulse (RESET command)
  logic                    tog_q, tog_d;        // toggles per frame (LED)
  logic                    fail_q, fail_d;      // last frame's status was not OK (LED)

  // ---------------------------------------------------------------------------------------------
  // The MLU and its memory
  // ---------------------------------------------------------------------------------------------
  localparam int AW = 64 * Lanes;
  localparam logic [63:0] VaMask   = (VaKeep >= 64) ? '1 : ((64'd1 << VaKeep) - 64'd1);
  localparam logic [63:0] KeepAddr = VaMask | ~((64'd1 << V) - 64'd1);  // tag + kept VA bits
  localparam logic [63:0] KeepPtr  = (64'd1 << PtrW) - 64'd1;           // a window location
  // Full width: every bit kept. Narrow: the request's md keeps its low MdKeep bits (a location, a
  // register value) and, for MEMCHECK.S only, the low MdKeep bits of each half (shared base in [31:0],
  // shared size in [63:32]): no register of the MLU that holds a location or a configuration value
  // can then see a high bit, which lets synthesis drop those flops (docs/fpga.md §6).
  localparam bit Narrow = (VaKeep < V);
  localparam logic [31:0] MdMask = (MdKeep >= 32) ? '1 : ((32'd1 << MdKeep) - 32'd1);
  localparam logic [63:0] KeepMdS = Narrow ? {MdMask, MdMask} : '1;
  localparam logic [63:0] KeepMd  = Narrow ? {32'd0, MdMask} : '1;

  logic                 mlu_rst_n;
  logic                 req_valid, req_ready;
  logic [2:0]           req_op, req_cfg_addr, req_size;
  logic [15:0]          req_warp, orc_idx;
  logic [Lanes-1:0]     req_active;
  logic [63:0]          req_md;
  logic [AW-1:0]        req_addr;
  logic                 orc_found;

  logic                 rsp_valid;
  logic [0:0]           rsp_id;
  logic [2:0]           rsp_op, rsp_exc_kind, rsp_exc_size;
  logic [1:0]           rsp_status;
  logic [63:0]          rsp_rd, rsp_exc_addr, rsp_exc_md, rsp_exc_tb, rsp_exc_esize;
  logic [AW-1:0]        rsp_addr;
  logic [Lanes-1:0]     rsp_fault;
  logic [15:0]          rsp_exc_sm, rsp_exc_warp;
  logic [4:0]           rsp_exc_lane;

  logic                 mreq_valid, mreq_ready, mrsp_valid, mrsp_ready, mrsp_err;
  logic [ga_pkg::MemLenW-1:0] mreq_len;   // 16 or 32 bytes: the board units have no INDEX walker
  logic [63:0]          mreq_addr;
  logic [255:0]         mrsp_data, mrsp_data_kept;
  logic                 orc_req_valid;
  logic [63:0]          orc_req_va;

  logic                 ev_valid;
  logic [2:0]           ev_kind;
  logic [0:0]           ev_id;
  logic [5:0]           ev_slot;
  logic [4:0]           ev_lane;

  logic                 halted, cfg_mode, cfg_policy;
  logic [ga_pkg::LayoutW-1:0] cfg_layout;  // 0 .. 2 (HasIndex 0)
  logic [63:0]          cfg_root;
  logic [31:0]          cfg_step_limit;
  logic [15:0]          cfg_sm_id;
  logic [4:0]           cfg_tag_bits;

  // Request fields (docs/fpga.md §3.2), from the payload register.
  assign req_op       = req_q[0*8 +: 3];
  assign req_cfg_addr = req_q[1*8 +: 3];
  assign req_size     = req_q[2*8 +: 3];
  assign orc_found    = req_q[3*8];
  assign req_warp     = req_q[4*8 +: 16];
  assign req_active   = req_q[6*8 +: Lanes];
  assign orc_idx      = req_q[10*8 +: 16];
  logic [63:0] md_kept;
  assign md_kept = req_q[12*8 +: 64] & ((req_op == ga_pkg::OP_MEMCHECK_S) ? KeepMdS : KeepMd);
  assign req_md = md_kept;
  for (genvar l = 0; l < Lanes; l++) begin : gen_lane
    if (l < LoLanes) begin : gen_lo    // MLU_OP's payload
      assign req_addr[64*l +: 64] = req_q[(20 + 8*l)*8 +: 64] & KeepAddr;
    end else begin : gen_hi            // LANES_HI's, after MLU_OP's in the register
      assign req_addr[64*l +: 64] = req_q[(ReqBytes + 8*(l - LoLanes))*8 +: 64] & KeepAddr;
    end
  end

  // Narrow builds keep only the entry's tag and kept VA bits, the size's kept bits and the window
  // bits of the two node pointers; full builds pass the memory data through.
  localparam logic [63:0] KeepP = Narrow ? KeepPtr : '1;
  assign mrsp_data_kept = {mrsp_data[255:192] & KeepP, mrsp_data[191:128] & KeepP,
                           mrsp_data[127:64] & VaMask, mrsp_data[63:0] & KeepAddr};

  assign req_valid = (st_q == E_EXEC) && (cmd_q == CMD_MLU_OP) && (bst_q == ST_OK);

  logic sm_bad;             // version 2: the frame names no SM of the build (ST_BAD_SM)

  // The one-MLU core's MLU (NumSms = 1), at the module's top level and not inside the generate
  // block below, so that NumSms = 1 elaborates as the core always did (Yosys 0.23 maps the same
  // instance inside a generate block to a different netlist: docs/fpga.md §12). A system build
  // never requests it and leaves its outputs unused: synthesis removes it.
  logic                        u1_req_valid, u1_mrsp_valid, u1_orc_rsp_valid;
  logic [2:0]                        u1_req_op, u1_req_cfg_addr, u1_req_size;   // the MLU's request
  logic [15:0]                       u1_req_warp;                               // (ReqSlice: the
  logic [Lanes-1:0]                  u1_req_active;                             // stage's output)
  logic [63:0]                       u1_req_md;
  logic [AW-1:0]                     u1_req_addr;
  logic                              u1_req_ready;
  logic                              u1_rsp_valid;
  logic [0:0]                        u1_rsp_id;
  logic [2:0]                        u1_rsp_op;
  logic [1:0]                        u1_rsp_status;
  logic [63:0]                       u1_rsp_rd;
  logic [AW-1:0]                     u1_rsp_addr;
  logic [Lanes-1:0]                  u1_rsp_fault;
  logic [2:0]                        u1_rsp_exc_kind;
  logic [63:0]                       u1_rsp_exc_addr;
  logic [63:0]                       u1_rsp_exc_md;
  logic [63:0]                       u1_rsp_exc_tb;
  logic [63:0]                       u1_rsp_exc_esize;
  logic [2:0]                        u1_rsp_exc_size;
  logic [15:0]                       u1_rsp_exc_sm;
  logic [15:0]                       u1_rsp_exc_warp;
  logic [4:0]                        u1_rsp_exc_lane;
  logic                              u1_mreq_valid;
  logic [63:0]                       u1_mreq_addr;
  logic [ga_pkg::MemLenW-1:0]        u1_mreq_len;
  logic                              u1_mrsp_ready;
  logic                              u1_orc_req_valid;
  logic [63:0]                       u1_orc_req_va;
  logic                              u1_ev_valid;
  logic [2:0]                        u1_ev_kind;
  logic [0:0]                        u1_ev_id;
  logic [5:0]                        u1_ev_slot;
  logic [4:0]                        u1_ev_lane;
  logic                              u1_halted;
  logic                              u1_cfg_mode;
  logic [ga_pkg::LayoutW-1:0]        u1_cfg_layout;
  logic [63:0]                       u1_cfg_root;
  logic [31:0]                       u1_cfg_step_limit;
  logic                              u1_cfg_policy;
  logic [15:0]                       u1_cfg_sm_id;
  logic [4:0]                        u1_cfg_tag_bits;

  ga_mlu #(
    .TagBits    (TagBits),
    .MlbEntries (MlbEntries),
    .Lanes      (Lanes),
    .IdW        (1),
    .EndForm    (EndForm),
    .ReadForm   (ReadForm),
    .FillPort   (FillPort),
    .HwOnly     ((HwOnlyMode != 0) ? 1 : 0),
    .HasIndex   (0),      // no INDEX walker on the boards: LAYOUT = 3 is CFG_ERROR (docs/fpga.md)
    .RegLookup  (RegLookup),
    .RegCheck   (RegCheck),
    .CheckLanes (CheckLanes)
  ) u_mlu (
    .clk_i,
    .rst_ni           (mlu_rst_n),
    .req_valid_i      (u1_req_valid),
    .req_ready_o      (u1_req_ready),
    .req_op_i         (u1_req_op),
    .req_id_i         (1'b0),
    .req_warp_i       (u1_req_warp),
    .req_active_i     (u1_req_active),
    .req_addr_i       (u1_req_addr),
    .req_size_i       (u1_req_size),
    .req_md_i         (u1_req_md),
    .req_cfg_addr_i   (u1_req_cfg_addr),
    .rsp_valid_o      (u1_rsp_valid),
    .rsp_ready_i      (1'b1),
    .rsp_id_o         (u1_rsp_id),
    .rsp_op_o         (u1_rsp_op),
    .rsp_status_o     (u1_rsp_status),
    .rsp_rd_o         (u1_rsp_rd),
    .rsp_addr_o       (u1_rsp_addr),
    .rsp_fault_o      (u1_rsp_fault),
    .rsp_exc_kind_o   (u1_rsp_exc_kind),
    .rsp_exc_addr_o   (u1_rsp_exc_addr),
    .rsp_exc_md_o     (u1_rsp_exc_md),
    .rsp_exc_tb_o     (u1_rsp_exc_tb),
    .rsp_exc_esize_o  (u1_rsp_exc_esize),
    .rsp_exc_size_o   (u1_rsp_exc_size),
    .rsp_exc_sm_o     (u1_rsp_exc_sm),
    .rsp_exc_warp_o   (u1_rsp_exc_warp),
    .rsp_exc_lane_o   (u1_rsp_exc_lane),
    .mem_req_valid_o  (u1_mreq_valid),
    .mem_req_ready_i  (mreq_ready),
    .mem_req_addr_o   (u1_mreq_addr),
    .mem_req_len_o    (u1_mreq_len),
    .mem_rsp_valid_i  (u1_mrsp_valid),
    .mem_rsp_ready_o  (u1_mrsp_ready),
    .mem_rsp_data_i   (mrsp_data_kept),
    .mem_rsp_err_i    (mrsp_err),
    .orc_req_valid_o  (u1_orc_req_valid),
    .orc_req_ready_i  (1'b1),
    .orc_req_va_o     (u1_orc_req_va),
    .orc_rsp_valid_i  (u1_orc_rsp_valid),       // answered in the request's own cycle (latency 0)
    .orc_rsp_found_i  (orc_found),
    .orc_rsp_idx_i    ({48'd0, orc_idx}),
    .ev_valid_o       (u1_ev_valid),
    .ev_kind_o        (u1_ev_kind),
    .ev_id_o          (u1_ev_id),
    .ev_slot_o        (u1_ev_slot),
    .ev_lane_o        (u1_ev_lane),
    .halted_o         (u1_halted),
    .cfg_mode_o       (u1_cfg_mode),
    .cfg_layout_o     (u1_cfg_layout),
    .cfg_root_o       (u1_cfg_root),
    .cfg_step_limit_o (u1_cfg_step_limit),
    .cfg_policy_o     (u1_cfg_policy),
    .cfg_sm_id_o      (u1_cfg_sm_id),
    .cfg_tag_bits_o   (u1_cfg_tag_bits)
  );

  if (!Sys) begin : gen_one
  assign sm_bad = 1'b0;

  if (ReqSlice != 0) begin : gen_slice
    // The request register stage (ReqSlice 1): the command engine's request (req_q and its few
    // gates) into a copy that placement can put beside the MLU, as ga_system's ReqSlice does for
    // each SM. Reset with the MLU, so that a reset never leaves a request behind for it.
    localparam int PayW = 3 + 3 + 3 + 16 + Lanes + 64 + AW;
    ga_req_slice #(
      .PayW (PayW)
    ) u_req_slice (
      .clk_i,
      .rst_ni      (mlu_rst_n),
      .in_valid_i  (req_valid),
      .in_ready_o  (req_ready),
      .in_pay_i    ({req_op, req_cfg_addr, req_size, req_warp, req_active, req_md, req_addr}),
      .out_valid_o (u1_req_valid),
      .out_ready_i (u1_req_ready),
      .out_pay_o   ({u1_req_op, u1_req_cfg_addr, u1_req_size, u1_req_warp, u1_req_active, u1_req_md,
                     u1_req_addr})
    );
  end else begin : gen_direct
    assign u1_req_valid    = req_valid;
    assign req_ready       = u1_req_ready;
    assign u1_req_op       = req_op;
    assign u1_req_cfg_addr = req_cfg_addr;
    assign u1_req_size     = req_size;
    assign u1_req_warp     = req_warp;
    assign u1_req_active   = req_active;
    assign u1_req_md       = req_md;
    assign u1_req_addr     = req_addr;
  end
  assign u1_mrsp_valid = mrsp_valid;
  assign u1_orc_rsp_valid = orc_req_valid;
  assign rsp_valid = u1_rsp_valid;
  assign rsp_id = u1_rsp_id;
  assign rsp_op = u1_rsp_op;
  assign rsp_status = u1_rsp_status;
  assign rsp_rd = u1_rsp_rd;
  assign rsp_addr = u1_rsp_addr;
  assign rsp_fault = u1_rsp_fault;
  assign rsp_exc_kind = u1_rsp_exc_kind;
  assign rsp_exc_addr = u1_rsp_exc_addr;
  assign rsp_exc_md = u1_rsp_exc_md;
  assign rsp_exc_tb = u1_rsp_exc_tb;
  assign rsp_exc_esize = u1_rsp_exc_esize;
  assign rsp_exc_size = u1_rsp_exc_size;
  assign rsp_exc_sm = u1_rsp_exc_sm;
  assign rsp_exc_warp = u1_rsp_exc_warp;
  assign rsp_exc_lane = u1_rsp_exc_lane;
  assign mreq_valid = u1_mreq_valid;
  assign mreq_addr = u1_mreq_addr;
  assign mreq_len = u1_mreq_len;
  assign mrsp_ready = u1_mrsp_ready;
  assign orc_req_valid = u1_orc_req_valid;
  assign orc_req_va = u1_orc_req_va;
  assign ev_valid = u1_ev_valid;
  assign ev_kind = u1_ev_kind;
  assign ev_id = u1_ev_id;
  assign ev_slot = u1_ev_slot;
  assign ev_lane = u1_ev_lane;
  assign halted = u1_halted;
  assign cfg_mode = u1_cfg_mode;
  assign cfg_layout = u1_cfg_layout;
  assign cfg_root = u1_cfg_root;
  assign cfg_step_limit = u1_cfg_step_limit;
  assign cfg_policy = u1_cfg_policy;
  assign cfg_sm_id = u1_cfg_sm_id;
  assign cfg_tag_bits = u1_cfg_tag_bits;
  end else begin : gen_sys
  // ---------------------------------------------------------------------------------------------
  // System board (NumSms > 1, docs/fpga.md §12): ga_system. MLU_OP's SM byte (req_q byte SmByte)
  // names the SM whose LSU port gets the request, or 0xFF: the runtime port, every SM (INVALIDATE,
  // FLUSH, CFG_WRITE, CLEAR_HALT only). The response block, the halt flag and INFO's registers are
  // those of the selected SM (sm_q): the SM of the last executed MLU_OP (0 for 0xFF) or INFO byte.
  // ---------------------------------------------------------------------------------------------
  localparam int SAW = NumSms * AW;
  logic [7:0]              req_sm;
  logic                    sm_all;
  logic [SmW-1:0]          xsm, sm_q;
  logic [NumSms-1:0]       s_req_valid, s_req_ready, s_rsp_valid, s_halted, s_mode, s_policy;
  logic                    rt_valid, rt_ready, rt_ack, rt_err;
  logic [NumSms*3-1:0]     s_rsp_op, s_exc_kind, s_exc_size;
  logic [NumSms*2-1:0]     s_rsp_status;
  logic [NumSms*ga_pkg::LayoutW-1:0] s_layout;
  logic [NumSms*64-1:0]    s_rd, s_exc_addr, s_exc_md, s_exc_tb, s_exc_esize, s_root;
  logic [SAW-1:0]          s_addr;
  logic [NumSms*Lanes-1:0] s_fault;
  logic [NumSms*16-1:0]    s_exc_sm, s_exc_warp, s_sm_id;
  logic [NumSms*5-1:0]     s_exc_lane, s_ev_lane;
  logic [NumSms*32-1:0]    s_step;
  logic [NumSms-1:0]       s_ev_valid, s_rt_acc, s_rt_rsp;
  logic [NumSms*3-1:0]     s_ev_kind;
  logic [NumSms*2-1:0]     s_ev_id;
  logic [NumSms*6-1:0]     s_ev_slot;
  logic [NumSms*2-1:0]     s_rt_status;
  logic [NumSms*1-1:0]     s_rsp_id;
  logic [SmW-1:0]          mreq_sm, orc_sm;
  logic [SmW-1:0]          msm_q;               // the SM of the outstanding read (one at a time)

  assign req_sm = req_q[8*SmByte +: 8];
  assign sm_all = (req_sm == 8'hFF);
  assign xsm    = req_sm[SmW-1:0];
  // MLU_OP: 0xFF carries a runtime command (op 4..7); else an SM below NumSms. INFO: an SM.
  assign sm_bad = ((cmd_q == CMD_MLU_OP) && (sm_all ? !req_op[2] : ({1'b0, req_sm} >= 9'(NumSms)))) ||
                  ((cmd_q == CMD_INFO) && (pidx_q == 8'd1) && ({1'b0, req_sm} >= 9'(NumSms)));

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      sm_q  <= '0;
      msm_q <= '0;
    end else begin
      if (st_q == E_CRC && rx_valid && bst_d == ST_OK) begin
        if (cmd_q == CMD_MLU_OP)                          sm_q <= sm_all ? '0 : xsm;
        else if (cmd_q == CMD_INFO && pidx_q == 8'd1)     sm_q <= xsm;
      end
      if (mreq_valid && mreq_ready) msm_q <= mreq_sm;
    end
  end

  for (genvar s = 0; s < NumSms; s++) begin : gen_sreq
    assign s_req_valid[s] = req_valid && !sm_all && (xsm == SmW'(s));
  end
  assign rt_valid  = req_valid && sm_all;
  assign req_ready = sm_all ? rt_ready : s_req_ready[xsm];
  assign rsp_valid = sm_all ? rt_ack : s_rsp_valid[xsm];

  ga_system #(
    .TagBits    (TagBits),
    .MlbEntries (MlbEntries),
    .Lanes      (Lanes),
    .IdW        (1),
    .NumSms     (NumSms),
    .HwOnly     ((HwOnlyMode != 0) ? 1 : 0),
    .HasIndex   (0),      // no INDEX walker on the boards: LAYOUT = 3 is CFG_ERROR (docs/fpga.md)
    .EndForm    (EndForm),
    .ReadForm   (ReadForm),
    .FillPort   (FillPort),
    .RegLookup  (RegLookup),
    .RegCheck   (RegCheck),
    .CheckLanes (CheckLanes),
    .ReqSlice   (ReqSlice)
  ) u_sys (
    .clk_i,
    .rst_ni           (mlu_rst_n),
    .req_valid_i      (s_req_valid),
    .req_ready_o      (s_req_ready),
    .req_op_i         ({NumSms{req_op}}),
    .req_id_i         ({NumSms{1'b0}}),
    .req_warp_i       ({NumSms{req_warp}}),
    .req_active_i     ({NumSms{req_active}}),
    .req_addr_i       ({NumSms{req_addr}}),
    .req_size_i       ({NumSms{req_size}}),
    .req_md_i         ({NumSms{req_md}}),
    .req_cfg_addr_i   ({NumSms{req_cfg_addr}}),
    .rsp_valid_o      (s_rsp_valid),
    .rsp_ready_i      ({NumSms{1'b1}}),
    .rsp_id_o         (s_rsp_id),
    .rsp_op_o         (s_rsp_op),
    .rsp_status_o     (s_rsp_status),
    .rsp_rd_o         (s_rd),
    .rsp_addr_o       (s_addr),
    .rsp_fault_o      (s_fault),
    .rsp_exc_kind_o   (s_exc_kind),
    .rsp_exc_addr_o   (s_exc_addr),
    .rsp_exc_md_o     (s_exc_md),
    .rsp_exc_tb_o     (s_exc_tb),
    .rsp_exc_esize_o  (s_exc_esize),
    .rsp_exc_size_o   (s_exc_size),
    .rsp_exc_sm_o     (s_exc_sm),
    .rsp_exc_warp_o   (s_exc_warp),
    .rsp_exc_lane_o   (s_exc_lane),
    .rt_valid_i       (rt_valid),
    .rt_ready_o       (rt_ready),
    .rt_op_i          (req_op[1:0]),
    .rt_md_i          (req_md),
    .rt_cfg_addr_i    (req_cfg_addr),
    .rt_ack_o         (rt_ack),
    .rt_err_o         (rt_err),
    .mem_req_valid_o  (mreq_valid),
    .mem_req_ready_i  (mreq_ready),
    .mem_req_addr_o   (mreq_addr),
    .mem_req_len_o    (mreq_len),
    .mem_req_sm_o     (mreq_sm),
    .mem_rsp_valid_i  (mrsp_valid),
    .mem_rsp_ready_o  (mrsp_ready),
    .mem_rsp_sm_i     (msm_q),
    .mem_rsp_data_i   (mrsp_data_kept),
    .mem_rsp_err_i    (mrsp_err),
    .orc_req_valid_o  (orc_req_valid),
    .orc_req_ready_i  (1'b1),
    .orc_req_va_o     (orc_req_va),
    .orc_req_sm_o     (orc_sm),
    .orc_rsp_valid_i  (orc_req_valid),       // answered in the request's own cycle (latency 0)
    .orc_rsp_sm_i     (orc_sm),
    .orc_rsp_found_i  (orc_found),
    .orc_rsp_idx_i    ({48'd0, orc_idx}),
    .ev_valid_o       (s_ev_valid),
    .ev_kind_o        (s_ev_kind),
    .ev_id_o          (s_ev_id),
    .ev_slot_o        (s_ev_slot),
    .ev_lane_o        (s_ev_lane),
    .rt_acc_o         (s_rt_acc),
    .rt_rsp_o         (s_rt_rsp),
    .rt_rsp_status_o  (s_rt_status),
    .halted_o         (s_halted),
    .cfg_mode_o       (s_mode),
    .cfg_layout_o     (s_layout),
    .cfg_root_o       (s_root),
    .cfg_step_limit_o (s_step),
    .cfg_policy_o     (s_policy),
    .cfg_sm_id_o      (s_sm_id),
    .cfg_tag_bits_o   (cfg_tag_bits)
  );

  // The selected SM's response register, halt flag and configuration registers.
  assign rsp_op        = s_rsp_op[3*sm_q +: 3];
  assign rsp_status    = s_rsp_status[2*sm_q +: 2];
  assign rsp_rd        = s_rd[64*sm_q +: 64];
  assign rsp_addr      = s_addr[AW*sm_q +: AW];
  assign rsp_fault     = s_fault[Lanes*sm_q +: Lanes];
  assign rsp_exc_kind  = s_exc_kind[3*sm_q +: 3];
  assign rsp_exc_addr  = s_exc_addr[64*sm_q +: 64];
  assign rsp_exc_md    = s_exc_md[64*sm_q +: 64];
  assign rsp_exc_tb    = s_exc_tb[64*sm_q +: 64];
  assign rsp_exc_esize = s_exc_esize[64*sm_q +: 64];
  assign rsp_exc_size  = s_exc_size[3*sm_q +: 3];
  assign rsp_exc_sm    = s_exc_sm[16*sm_q +: 16];
  assign rsp_exc_warp  = s_exc_warp[16*sm_q +: 16];
  assign rsp_exc_lane  = s_exc_lane[5*sm_q +: 5];
  assign halted        = s_halted[sm_q];
  assign cfg_mode      = s_mode[sm_q];
  assign cfg_layout    = s_layout[ga_pkg::LayoutW*sm_q +: ga_pkg::LayoutW];
  assign cfg_root      = s_root[64*sm_q +: 64];
  assign cfg_step_limit = s_step[32*sm_q +: 32];
  assign cfg_policy    = s_policy[sm_q];
  assign cfg_sm_id     = s_sm_id[16*sm_q +: 16];
  // Single-MLU signals a system board does not have.
  assign rsp_id   = 1'b0;
  assign ev_valid = 1'b0;
  assign ev_kind  = 3'd0;
  assign ev_id    = 1'b0;
  assign ev_slot  = 6'd0;
  assign ev_lane  = 5'd0;

  // Counters: every SM's MLU requests (the runtime command counts once per SM, as it is one request
  // to each MLU) and events; reads at the shared port.
  logic [3:0] n;
  `GA_ALWAYS_COMB begin
    cnt_d = cnt_q;
    n     = 4'd0;
    if (cnt_clr) begin
      cnt_d = '0;
    end else begin
      for (int s = 0; s < NumSms; s++) n = n + 4'(s_req_valid[s] && s_req_ready[s]) + 4'(s_rt_acc[s]);
      cnt_d[0 +: CntW] = cnt_q[0 +: CntW] + CntW'(n);
      if (mreq_valid && mreq_ready) cnt_d[CntW +: CntW] = cnt_q[CntW +: CntW] + 1'b1;
      for (int k = 0; k < 8; k++) begin
        n = 4'd0;
        for (int s = 0; s < NumSms; s++) n = n + 4'(s_ev_valid[s] && s_ev_kind[3*s +: 3] == 3'(k));
        cnt_d[(2 + k)*CntW +: CntW] = cnt_q[(2 + k)*CntW +: CntW] + CntW'(n);
      end
    end
  end

  logic unused_sys;
  assign u1_req_valid = 1'b0;           // the one-MLU instance is idle in a system build
  assign u1_req_op       = req_op;
  assign u1_req_cfg_addr = req_cfg_addr;
  assign u1_req_size     = req_size;
  assign u1_req_warp     = req_warp;
  assign u1_req_active   = req_active;
  assign u1_req_md       = req_md;
  assign u1_req_addr     = req_addr;
  assign u1_mrsp_valid = 1'b0;
  assign u1_orc_rsp_valid = 1'b0;
  assign unused_sys = ^{u1_req_ready, u1_rsp_valid, u1_rsp_id, u1_rsp_op, u1_rsp_status, u1_rsp_rd, u1_rsp_addr, u1_rsp_fault, u1_rsp_exc_kind, u1_rsp_exc_addr, u1_rsp_exc_md, u1_rsp_exc_tb, u1_rsp_exc_esize, u1_rsp_exc_size, u1_rsp_exc_sm, u1_rsp_exc_warp, u1_rsp_exc_lane, u1_mreq_valid, u1_mreq_addr, u1_mreq_len, u1_mrsp_ready, u1_orc_req_valid, u1_orc_req_va, u1_ev_valid, u1_ev_kind, u1_ev_id, u1_ev_slot, u1_ev_lane, u1_halted, u1_cfg_mode, u1_cfg_layout, u1_cfg_root, u1_cfg_step_limit, u1_cfg_policy, u1_cfg_sm_id, u1_cfg_tag_bits,
                        rt_err, s_rsp_id, s_ev_id, s_ev_slot, s_ev_lane, s_rt_rsp, s_rt_status, ev_valid, ev_kind};
  end

  // MEM_WRITE: the second byte of each column word writes it.
  logic       mw_en;
  logic [3:0] mw_word;
  assign mw_en   = (st_q == E_PAY) && rx_valid && (cmd_q == CMD_MEM_WRITE) && lenok_q && !wbad_q &&
                   (pidx_q >= 8'd2) && pidx_q[0];
  assign mw_word = 4'((pidx_q - 8'd2) >> 1);

  ga_board_mem #(.LinesW(MemLinesW), .RegOut(MemRegOut != 0)) u_mem (
    .clk_i,
    .rst_ni,
    .mem_req_valid_i (mreq_valid),
    .mem_req_ready_o (mreq_ready),
    .mem_req_addr_i  (mreq_addr),
    .mem_req_len_i   (mreq_len),
    .mem_rsp_valid_o (mrsp_valid),
    .mem_rsp_ready_i (mrsp_ready),
    .mem_rsp_data_o  (mrsp_data),
    .mem_rsp_err_o   (mrsp_err),
    .wr_en_i         (mw_en),
    .wr_line_i       (wline_q),
    .wr_word_i       (mw_word),
    .wr_data_i       ({rx_data, wlo_q})
  );

  // ---------------------------------------------------------------------------------------------
  // Counters (docs/fpga.md §3.5): MLU requests accepted, metadata reads, MLB events by kind.
  // Cleared by RESET and, on request, after a COUNTERS response.
  // ---------------------------------------------------------------------------------------------
  logic [NCnt*CntW-1:0] cnt_q, cnt_d;
  logic                 cnt_clr;

  if (!Sys) begin : gen_cnt_one
  `GA_ALWAYS_COMB begin
    cnt_d = cnt_q;
    if (cnt_clr) begin
      cnt_d = '0;
    end else begin
      if (req_valid && req_ready) cnt_d[0 +: CntW] = cnt_q[0 +: CntW] + 1'b1;
      if (mreq_valid && mreq_ready) cnt_d[CntW +: CntW] = cnt_q[CntW +: CntW] + 1'b1;
      for (int k = 0; k < 8; k++) begin
        if (ev_valid && ev_kind == 3'(k)) begin
          cnt_d[(2 + k)*CntW +: CntW] = cnt_q[(2 + k)*CntW +: CntW] + 1'b1;
        end
      end
    end
  end
  end

  // ---------------------------------------------------------------------------------------------
  // Response bytes: one selector over {counters, info, response block} (docs/fpga.md §3.3-§3.5)
  // ---------------------------------------------------------------------------------------------
  logic [8*SelN-1:0] rvec;
  logic [8*BaseN-1:0] base_v;
  logic [8*InfoN-1:0] info_v;
  logic [8*CntN-1:0]  cnt_v;

  assign base_v[0*8 +: 8]   = bst_q;
  assign base_v[1*8 +: 8]   = {3'd0, ovr_q, brk_q, ferr_q, mrsp_q, halted};
  assign base_v[2*8 +: 8]   = {3'd0, rsp_op, rsp_status};
  assign base_v[3*8 +: 8]   = {5'd0, rsp_exc_kind};
  assign base_v[4*8 +: 32]  = 32'(rsp_fault);
  assign base_v[8*8 +: 16]  = cyc_q;
  assign base_v[10*8 +: 64] = rsp_rd;
  assign base_v[18*8 +: 64] = rsp_exc_addr;
  assign base_v[26*8 +: 64] = rsp_exc_md;
  assign base_v[34*8 +: 64] = rsp_exc_tb;
  assign base_v[42*8 +: 64] = rsp_exc_esize;
  assign base_v[50*8 +: 8]  = {5'd0, rsp_exc_size};
  assign base_v[51*8 +: 8]  = {3'd0, rsp_exc_lane};
  assign base_v[52*8 +: 16] = rsp_exc_sm;
  assign base_v[54*8 +: 16] = rsp_exc_warp;
  assign base_v[56*8 +: AW] = rsp_addr;

  assign info_v[0*8 +: 16]  = 16'h4147;                 // "GA"
  assign info_v[2*8 +: 8]   = Sys ? 8'd2 : 8'd1;        // protocol version (2: system board)
  assign info_v[3*8 +: 8]   = 8'(TagBits);
  assign info_v[4*8 +: 8]   = 8'(MlbEntries);
  assign info_v[5*8 +: 8]   = 8'(Lanes);
  assign info_v[6*8 +: 8]   = 8'(MemLinesW);
  assign info_v[7*8 +: 8]   = 8'(CntW);
  assign info_v[8*8 +: 32]  = 32'(ClkKhz);
  assign info_v[12*8 +: 16] = 16'(ClksPerBit);
  assign info_v[14*8 +: 8]  = {3'd0, (HwOnlyMode != 0), cfg_policy, cfg_layout[1:0], cfg_mode};
  assign info_v[15*8 +: 8]  = {3'(NumSms - 1), cfg_tag_bits};   // version 2: NumSms - 1 in bits 7:5
  assign info_v[16*8 +: 64] = cfg_root;
  assign info_v[24*8 +: 32] = cfg_step_limit;
  assign info_v[28*8 +: 16] = cfg_sm_id;
  assign info_v[30*8 +: 8]  = 8'(VaKeep);
  assign info_v[31*8 +: 8]  = Narrow ? 8'(MdKeep) : 8'd64;

  for (genvar k = 0; k < NCnt; k++) begin : gen_cnt_bytes
    assign cnt_v[k*32 +: 32] = 32'(cnt_q[k*CntW +: CntW]);
  end

  assign rvec = {cnt_v, info_v, base_v};

  logic [7:0] pay_byte;
  assign pay_byte = rvec[8*sel_q +: 8];

  // ---------------------------------------------------------------------------------------------
  // Engine
  // ---------------------------------------------------------------------------------------------
  logic [7:0] exp_len;      // payload length the command must have
  logic       cmd_known;
  `GA_ALWAYS_COMB begin
    cmd_known = 1'b1;
    case (cmd_q)
      CMD_INFO:      exp_len = 8'd0;
      CMD_MLU_OP:    exp_len = 8'(ReqBytes);
      CMD_MEM_WRITE: exp_len = 8'(MemWBytes);
      CMD_COUNTERS:  exp_len = 8'd1;
      CMD_RESET:     exp_len = 8'd0;
      default: begin
        exp_len   = 8'd0;
        cmd_known = 1'b0;
      end
    endcase
    // LANES_HI exists on wide builds only (a narrow build's logic is exactly what it was without it)
    if (Wide && cmd_q == CMD_LANES_HI) begin           // or 0: read the upper lanes only
      exp_len   = 8'(HiBytes);
      cmd_known = 1'b1;
    end
  end

  logic [7:0] rsp_len;      // response payload length
  assign rsp_len = (bst_q != ST_OK) ? 8'(BlkN) :
                   (cmd_q == CMD_INFO) ? 8'(BlkN + InfoN) :
                   (cmd_q == CMD_COUNTERS) ? 8'(BlkN + CntN) :
                   (Wide && cmd_q == CMD_LANES_HI) ? 8'(56 + HiBytes) : 8'(BlkN);

  `GA_ALWAYS_COMB begin
    st_d    = st_q;
    tph_d   = tph_q;
    cmd_d   = cmd_q;
    left_d  = left_q;
    pidx_d  = pidx_q;
    lenok_d = lenok_q;
    crc_d   = crc_q;
    bst_d   = bst_q;
    req_d   = req_q;
    wline_d = wline_q;
    wbad_d  = wbad_q;
    wlo_d   = wlo_q;
    clr_d   = clr_q;
    cyc_d   = cyc_q;
    mrsp_d  = mrsp_q;
    ferr_d  = ferr_q || rx_ferr;
    brk_d   = brk_q || rx_brk;
    ovr_d   = ovr_q;
    sel_d   = sel_q;
    mrst_d  = {mrst_q[0], 1'b0};
    tog_d   = tog_q;
    fail_d  = fail_q;
    tx_valid = 1'b0;
    tx_data  = 8'd0;
    cnt_clr  = (mrst_q != 2'b00);

    case (st_q)
      E_SYNC: begin
        if (rx_valid && rx_data == SYNC_REQ) st_d = E_CMD;
      end
      E_CMD: begin
        if (rx_valid) begin
          cmd_d = rx_data;
          crc_d = crc8(8'd0, rx_data);
          st_d  = E_LEN;
        end
      end
      E_LEN: begin
        if (rx_valid) begin
          crc_d   = crc8(crc_q, rx_data);
          left_d  = rx_data;
          pidx_d  = 8'd0;
          lenok_d = cmd_known && ((rx_data == exp_len) || (Sys && cmd_q == CMD_INFO && rx_data == 8'd1) ||
                                  (Wide && cmd_q == CMD_LANES_HI && rx_data == 8'd0));
          wbad_d  = 1'b0;
          clr_d   = 1'b0;
          if (rx_data == 8'd0) st_d = E_CRC;
          else                 st_d = E_PAY;
        end
      end
      E_PAY: begin
        if (rx_valid) begin
          crc_d  = crc8(crc_q, rx_data);
          left_d = left_q - 1'b1;
          pidx_d = pidx_q + 1'b1;
          if (cmd_q == CMD_MLU_OP) begin
            // Each byte loads its own register (not a shift chain), so that a narrow build's unused
            // request bits are constant and synthesis removes their flops.
            for (int k = 0; k < ReqBytes; k++) begin
              if (pidx_q == 8'(k)) req_d[8*k +: 8] = rx_data;
            end
          end
          if (cmd_q == CMD_MEM_WRITE) begin
            if (pidx_q == 8'd0) begin                  // line, low byte
              wline_d = rx_data[MemLinesW-1:0];
              wbad_d  = ((rx_data >> MemLinesW) != 8'd0);
            end else if (pidx_q == 8'd1) begin         // line, high byte
              wbad_d = wbad_q || (rx_data != 8'd0);
            end else if (!pidx_q[0]) begin
              wlo_d = rx_data;
            end
          end
          if (Wide && cmd_q == CMD_LANES_HI && lenok_q) begin  // lanes 16.., after MLU_OP's bytes
            for (int k = 0; k < HiBytes; k++) begin
              if (pidx_q == 8'(k)) req_d[8*(ReqBytes + k) +: 8] = rx_data;
            end
          end
          if (Sys && cmd_q == CMD_INFO && pidx_q == 8'd0) begin
            req_d[8*(ReqBytes-1) +: 8] = rx_data;      // version 2: INFO's SM byte
          end
          if (cmd_q == CMD_COUNTERS && pidx_q == 8'd0) begin
            clr_d = rx_data[0];
          end
          if (left_q == 8'd1) st_d = E_CRC;
        end
      end
      E_CRC: begin
        if (rx_valid) begin
          if (rx_data != crc_q)                        bst_d = ST_BAD_CRC;
          else if (!cmd_known)                         bst_d = ST_BAD_CMD;
          else if (!lenok_q)                           bst_d = ST_BAD_LEN;
          else if (cmd_q == CMD_MEM_WRITE && wbad_q)   bst_d = ST_MEM_RANGE;
          else if (sm_bad)                             bst_d = ST_BAD_SM;
          else                                         bst_d = ST_OK;
          mrsp_d = 1'b0;
          st_d   = E_EXEC;
        end
      end
      E_EXEC: begin
        if (bst_q != ST_OK) begin
          st_d = E_TX;
        end else if (cmd_q == CMD_MLU_OP) begin
          if (req_ready) begin                         // req_valid is high in this state
            cyc_d = 16'd0;
            st_d  = E_WAIT;
          end
        end else if (cmd_q == CMD_RESET) begin
          mrst_d = 2'b11;                              // two cycles of MLU reset, counters cleared
          cyc_d  = 16'd0;
          st_d   = E_TX;
        end else begin
          st_d = E_TX;
        end
      end
      E_WAIT: begin
        cyc_d = (cyc_q == 16'hFFFF) ? cyc_q : cyc_q + 1'b1;
        if (rsp_valid) begin
          mrsp_d = 1'b1;
          st_d   = E_TX;
        end
      end
      E_TX: begin
        tx_valid = (mrst_q == 2'b00);                  // after a reset pulse, the MLU's fields are 0
        case (tph_q)
          T_SYNC: begin
            tx_data = SYNC_RSP;
            if (tx_valid && tx_ready) begin
              crc_d = 8'd0;
              tph_d = T_CMD;
            end
          end
          T_CMD: begin
            tx_data = cmd_q;
            if (tx_valid && tx_ready) begin
              crc_d = crc8(crc_q, tx_data);
              tph_d = T_LEN;
            end
          end
          T_LEN: begin
            tx_data = rsp_len;
            if (tx_valid && tx_ready) begin
              crc_d  = crc8(crc_q, tx_data);
              left_d = rsp_len;
              sel_d  = '0;
              tph_d  = T_PAY;
            end
          end
          T_PAY: begin
            tx_data = pay_byte;
            if (tx_valid && tx_ready) begin
              crc_d  = crc8(crc_q, tx_data);
              left_d = left_q - 1'b1;
              sel_d  = sel_q + 1'b1;
              if (Wide && cmd_q == CMD_LANES_HI && bst_q == ST_OK && sel_q == SelW'(55)) begin
                sel_d = SelW'(BlkN);                   // LANES_HI: lanes 16.. after the record
              end else if (sel_q == SelW'(BlkN - 1) && cmd_q == CMD_COUNTERS) begin
                sel_d = SelW'(BaseN + InfoN);          // skip the upper lanes and the INFO trailer
              end else if (Wide && sel_q == SelW'(BlkN - 1) && cmd_q == CMD_INFO) begin
                sel_d = SelW'(BaseN);                  // skip the upper lanes
              end
              if (left_q == 8'd1) tph_d = T_CRC;
            end
          end
          T_CRC: begin
            tx_data = crc_q;
            if (tx_valid && tx_ready) begin
              tph_d  = T_SYNC;
              st_d   = E_SYNC;
              tog_d  = !tog_q;
              fail_d = (bst_q != ST_OK);
              ferr_d = rx_ferr;
              brk_d  = rx_brk;
              ovr_d  = 1'b0;
              cnt_clr = (bst_q == ST_OK) && (cmd_q == CMD_COUNTERS) && clr_q;
            end
          end
          default: tph_d = T_SYNC;
        endcase
      end
      default: st_d = E_SYNC;
    endcase

    // A byte that arrives while a command runs or its response is sent is dropped (the host waits
    // for each response); a break abandons a half-received frame.
    if (rx_valid && (st_q == E_EXEC || st_q == E_WAIT || st_q == E_TX)) ovr_d = 1'b1;
    if (rx_brk && st_q != E_EXEC && st_q != E_WAIT && st_q != E_TX) st_d = E_SYNC;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      st_q    <= E_SYNC;
      tph_q   <= T_SYNC;
      cmd_q   <= 8'd0;
      left_q  <= 8'd0;
      pidx_q  <= 8'd0;
      lenok_q <= 1'b0;
      crc_q   <= 8'd0;
      bst_q   <= ST_OK;
      req_q   <= '0;
      wline_q <= '0;
      wbad_q  <= 1'b0;
      wlo_q   <= 8'd0;
      clr_q   <= 1'b0;
      cyc_q   <= 16'd0;
      mrsp_q  <= 1'b0;
      ferr_q  <= 1'b0;
      brk_q   <= 1'b0;
      ovr_q   <= 1'b0;
      sel_q   <= '0;
      mrst_q  <= 2'b00;
      tog_q   <= 1'b0;
      fail_q  <= 1'b0;
      cnt_q   <= '0;
    end else begin
      st_q    <= st_d;
      tph_q   <= tph_d;
      cmd_q   <= cmd_d;
      left_q  <= left_d;
      pidx_q  <= pidx_d;
      lenok_q <= lenok_d;
      crc_q   <= crc_d;
      bst_q   <= bst_d;
      req_q   <= req_d;
      wline_q <= wline_d;
      wbad_q  <= wbad_d;
      wlo_q   <= wlo_d;
      clr_q   <= clr_d;
      cyc_q   <= cyc_d;
      mrsp_q  <= mrsp_d;
      ferr_q  <= ferr_d;
      brk_q   <= brk_d;
      ovr_q   <= ovr_d;
      sel_q   <= sel_d;
      mrst_q  <= mrst_d;
      tog_q   <= tog_d;
      fail_q  <= fail_d;
      cnt_q   <= cnt_d;
    end
  end

  // MLU reset: the board reset, or the RESET command's pulse (a register: no glitch on the async
  // reset input).
  logic mrst_n_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) mrst_n_q <= 1'b0;
    else         mrst_n_q <= (mrst_d == 2'b00);
  end
  assign mlu_rst_n = mrst_n_q;

  assign status_o = {fail_q, tog_q, (st_q == E_WAIT), halted};

  // Unused MLU outputs: the id is always 0, the oracle VA and event slot/lane are not reported.
  logic unused;
  assign unused = ^{rsp_id, orc_req_va, ev_id, ev_slot, ev_lane, rsp_valid && 1'b0,
                   cfg_layout[ga_pkg::LayoutW-1:2]};   // LAYOUT <= 2 on the boards (HasIndex 0)

endmodule : ga_board_core
