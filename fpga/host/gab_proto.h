/*
 * gab_proto.h — the binary protocol between a host and the GPUArmor FPGA board (docs/fpga.md §3):
 * frame encoding and decoding, CRC-8, and the fields of every command and response. Pure functions on
 * byte buffers: no I/O, no globals (gab_link.h moves the bytes).
 *
 * Frames, host to board:  0xA5  CMD  LEN  payload[LEN]  CRC      (CRC-8/0x07 over CMD, LEN, payload)
 *         board to host:  0x5A  CMD  LEN  payload[LEN]  CRC
 * Every multi-byte field is little-endian.
 */
#ifndef GAB_PROTO_H
#define GAB_PROTO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define GAB_SYNC_REQ 0xA5u
#define GAB_SYNC_RSP 0x5Au
#define GAB_VERSION 2u        /* the newest protocol gaprobe speaks; it speaks 1 and 2 (docs/fpga.md §12) */
#define GAB_VERSION_MIN 1u
#define GAB_SMS_MAX 8u        /* a version-2 (system) board's most SMs */
#define GAB_SM_ALL 0xFFu      /* version 2: MLU_OP's SM byte for the runtime port (every SM) */
#define GAB_LANES_MAX 32u     /* a board's most lanes */
#define GAB_BLOCK_LANES 16u   /* lanes in MLU_OP and in the response block; a wide board (Lanes > 16)
                               * moves lanes 16.. with LANES_HI (docs/fpga.md §3.7) */
#define GAB_FRAME_MAX (3u + 255u + 1u)

/* Commands (docs/fpga.md §3.1). */
enum {
    GAB_CMD_INFO = 0x01,      /* build parameters and configuration registers */
    GAB_CMD_MLU_OP = 0x02,    /* one MLU request (any ga_mlu op), answered with its response */
    GAB_CMD_MEM_WRITE = 0x03, /* write one 32-byte line of metadata memory */
    GAB_CMD_COUNTERS = 0x04,  /* read (and optionally clear) the event counters */
    GAB_CMD_RESET = 0x05,     /* reset the MLU (registers, MLB, halt) and the counters */
    GAB_CMD_LANES_HI = 0x06   /* wide boards: load (and read back) the addresses of lanes 16 .. Lanes-1 */
};

/* Board status, byte 0 of every response (docs/fpga.md §3.3). */
enum {
    GAB_ST_OK = 0,
    GAB_ST_BAD_CRC = 1,   /* the frame's CRC did not match: nothing was done (MEM_WRITE: see docs) */
    GAB_ST_BAD_LEN = 2,   /* LEN is not the command's payload length */
    GAB_ST_BAD_CMD = 3,   /* unknown command (LANES_HI on a board of 16 lanes or fewer) */
    GAB_ST_MEM_RANGE = 4, /* MEM_WRITE line outside the memory */
    GAB_ST_BAD_SM = 5,    /* version 2: the SM byte names no SM of the build (or 0xFF with op 0..3) */
    GAB_ST_CODES = 6
};

/* Flags, byte 1 of every response. */
enum {
    GAB_FL_HALTED = 1u << 0,   /* the MLU's halted_o */
    GAB_FL_MLU_RSP = 1u << 1,  /* this response carries a new MLU response (MLU_OP done) */
    GAB_FL_FRAMING = 1u << 2,  /* a UART framing error since the previous response */
    GAB_FL_BREAK = 1u << 3,    /* a break since the previous response */
    GAB_FL_OVERRUN = 1u << 4   /* a byte arrived while the board was busy and was dropped */
};

/* MLU op codes and status (microarchitecture §1.1, §1.2). */
enum {
    GAB_OP_LOADMETA = 0, GAB_OP_MEMCHECK_G = 1, GAB_OP_MEMCHECK_S = 2, GAB_OP_ACCESS = 3,
    GAB_OP_INVALIDATE = 4, GAB_OP_FLUSH = 5, GAB_OP_CFG_WRITE = 6, GAB_OP_CLEAR_HALT = 7
};
enum { GAB_RSP_OK = 0, GAB_RSP_HALTED = 1, GAB_RSP_CFG_ERROR = 2 };
/* Configuration register addresses (spec §5.1). */
enum { GAB_CFG_MODE = 0, GAB_CFG_LAYOUT = 1, GAB_CFG_ROOT = 2, GAB_CFG_STEP_LIMIT = 3,
       GAB_CFG_POLICY = 4, GAB_CFG_SM_ID = 5 };

/* Counters in the COUNTERS trailer, in order. */
enum {
    GAB_CNT_OPS = 0,       /* MLU requests accepted */
    GAB_CNT_MEM_READS = 1, /* metadata memory reads */
    GAB_CNT_EV0 = 2,       /* + k: MLB commit-log events of kind k (RANGE_HIT .. FLUSH) */
    GAB_NCNT = 10
};

/* MLU_OP payload (docs/fpga.md §3.2). */
typedef struct {
    uint8_t op;         /* GAB_OP_* */
    uint8_t cfg_addr;   /* CFG_WRITE register */
    uint8_t size_log2;  /* access size, log2 bytes (0..4) */
    uint8_t orc_found;  /* oracle answer for a TABLE walk in this op: found */
    uint16_t warp;
    uint16_t orc_idx;   /* ... and the slot index */
    uint32_t active;    /* lane mask */
    uint64_t md;        /* Rb / location / {Rc, Rb} / register value */
    uint64_t addr[GAB_LANES_MAX];
    /* Version 2 (system boards): the SM byte, 0 .. NumSms-1 or GAB_SM_ALL. sm_set false: the session
     * chooses (gab_sess_op). Ignored by version-1 boards (one SM). */
    bool sm_set;
    uint8_t sm;
} gab_req_t;

/* The response block every response starts with (docs/fpga.md §3.3). */
typedef struct {
    uint8_t bstatus;        /* GAB_ST_* */
    uint8_t flags;          /* GAB_FL_* */
    uint8_t rsp_status;     /* GAB_RSP_* of the last MLU response */
    uint8_t rsp_op;
    uint8_t kind;           /* exception kind, spec §4.5 */
    uint32_t fault;
    uint16_t cycles;        /* MLU request accepted -> response, clock cycles (saturates) */
    uint64_t rd;
    uint64_t exc_addr, exc_md, exc_tb, exc_esize;
    uint8_t exc_size_log2, exc_lane;
    uint16_t exc_sm, exc_warp;
    uint64_t addr[GAB_LANES_MAX];
} gab_rsp_t;

/* INFO trailer. */
typedef struct {
    unsigned version, tag_bits, mlb_entries, lanes, mem_lines_log2, cnt_bits;
    uint32_t clk_khz;
    unsigned clks_per_bit;
    unsigned mode, layout, policy, cfg_tag_bits;
    uint64_t root;
    uint32_t step_limit;
    uint16_t sm_id;
    unsigned va_keep, md_keep;   /* narrow builds: kept VA bits, kept md bits; full: 64 - T, 64 */
    bool hwonly;                 /* the build has HWOnly mode (docs/fpga.md §6) */
    unsigned num_sms;            /* SMs: 1 for version 1; version 2: byte 15 bits 7:5, plus 1 */
} gab_info_t;

/* CRC-8, polynomial 0x07, initial value 0 (the board's). */
uint8_t gab_crc8(uint8_t crc, const uint8_t *p, size_t n);

/* Encode a request frame into out (at least GAB_FRAME_MAX bytes); returns its length. */
size_t gab_frame(uint8_t cmd, const uint8_t *payload, uint8_t len, uint8_t *out);

/* Payload builders. Each returns the payload length. lanes: the board's Lanes (1..32); MLU_OP carries
 * lanes 0 .. 15 and, on a wide board, gab_pay_lanes_hi lanes 16 .. lanes-1 (docs/fpga.md §3.7).
 * version 2 appends the SM byte r->sm (docs/fpga.md §12). */
size_t gab_pay_mlu_op(const gab_req_t *r, unsigned lanes, unsigned version, uint8_t *out);
size_t gab_pay_lanes_hi(const gab_req_t *r, unsigned lanes, uint8_t *out);
size_t gab_pay_mem_write(uint16_t line, const uint8_t data[32], uint8_t *out);

/* Lanes in the response block (and MLU_OP) of a board with `lanes` lanes, and the block's length. */
static inline unsigned gab_block_lanes(unsigned lanes) { return lanes < GAB_BLOCK_LANES ? lanes : GAB_BLOCK_LANES; }
static inline size_t gab_base_len(unsigned lanes) { return 56u + 8u * gab_block_lanes(lanes); }
/* Length of a LANES_HI response: the record part of the block, then lanes 16 .. lanes-1. */
static inline size_t gab_lanes_hi_len(unsigned lanes) { return 56u + 8u * (lanes - gab_block_lanes(lanes)); }
#define GAB_INFO_LEN 32u
#define GAB_CNT_LEN 40u

/* Decoders: p points at the payload. Lanes: the board's (the block has gab_block_lanes of them).
 * gab_dec_lanes_hi fills r->addr[16 ..] from a LANES_HI response and leaves the rest of r alone. */
void gab_dec_rsp(const uint8_t *p, unsigned lanes, gab_rsp_t *r);
void gab_dec_lanes_hi(const uint8_t *p, unsigned lanes, gab_rsp_t *r);
void gab_dec_info(const uint8_t *p, gab_info_t *i);
void gab_dec_counters(const uint8_t *p, uint32_t cnt[GAB_NCNT]);

/* Frame parser for the host side: feed bytes; returns 1 when a whole response frame is in f (cmd,
 * len, payload), 0 while incomplete, -1 on a CRC error (the frame is dropped; msg says so). Bytes
 * before a sync byte are skipped and counted in f->skipped. */
typedef struct {
    int state;
    uint8_t cmd, len, crc;
    unsigned got;
    uint8_t payload[255];
    unsigned long skipped;
} gab_parser_t;
void gab_parser_init(gab_parser_t *f);
int gab_parser_feed(gab_parser_t *f, uint8_t b);

const char *gab_status_name(unsigned st);
const char *gab_op_name(unsigned op);

#endif /* GAB_PROTO_H */
