/*
 * tb_common.h — encodings of the ga_mlu ports (docs/microarchitecture.md §1) as the C harness sees
 * them, and the request / response records the driver, the checker and the trace parser share.
 */
#ifndef TB_COMMON_H
#define TB_COMMON_H

#include <stdbool.h>
#include <stdint.h>

#include "ga_types.h"
#include "tb_dut.h"

/* req_op_i (§1.1) */
enum {
    TB_OP_LOADMETA = 0,
    TB_OP_MEMCHECK_G = 1,
    TB_OP_MEMCHECK_S = 2,
    TB_OP_ACCESS = 3,
    TB_OP_INVALIDATE = 4,
    TB_OP_FLUSH = 5,
    TB_OP_CFG_WRITE = 6,
    TB_OP_CLEAR_HALT = 7,
    TB_OPS = 8
};

/* rsp_status_o (§1.2) */
enum { TB_ST_OK = 0, TB_ST_HALTED = 1, TB_ST_CFG_ERROR = 2 };

/* ev_kind_o (§1.5) */
enum {
    TB_EV_RANGE_HIT = 0,
    TB_EV_RANGE_MISS = 1,
    TB_EV_LOC_HIT = 2,
    TB_EV_LOC_MISS = 3,
    TB_EV_FILL = 4,
    TB_EV_FILL_DROP = 5,
    TB_EV_INVAL = 6,
    TB_EV_FLUSH = 7
};

/* req_cfg_addr_i (§1.1) */
enum { TB_CFG_MODE = 0, TB_CFG_LAYOUT = 1, TB_CFG_ROOT = 2, TB_CFG_STEP_LIMIT = 3, TB_CFG_POLICY = 4, TB_CFG_SM_ID = 5 };

/* Driver flags of a request (not sent to the DUT). */
enum {
    TB_RF_SEQ = 1u << 0,        /* issue only with nothing in flight, and wait for its response */
    TB_RF_FREE_INVAL = 1u << 1, /* an invalidation the runtime asked for after a free */
};

/* One request as presented on the request port. */
typedef struct {
    uint8_t op;
    uint16_t id;
    uint16_t warp;
    uint32_t active;
    uint64_t addr[TB_LANES_MAX];
    uint8_t size_log2;
    uint64_t md;
    uint8_t cfg_addr;
    /* harness bookkeeping */
    uint32_t flags;
    uint64_t opidx;   /* 0-based index of the request in the run */
    const char *file; /* trace source, NULL for random stimulus */
    uint32_t line;
} tb_req_t;

/* One response as observed on the response port. */
typedef struct {
    uint16_t id;
    uint8_t op, status;
    uint64_t rd;
    uint64_t addr[TB_LANES_MAX];
    uint32_t fault;
    uint8_t kind, size_log2, lane;
    uint64_t exc_addr, md, tb, esize;
    uint16_t sm, warp;
} tb_rsp_t;

const char *tb_op_name(unsigned op);
const char *tb_ev_name(unsigned ev);
const char *tb_status_name(unsigned st);

#endif /* TB_COMMON_H */
