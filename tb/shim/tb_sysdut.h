/*
 * tb_sysdut.h — the system co-simulation harness's view of one ga_system instance
 * (docs/microarchitecture.md §10): NumSms LSU ports (each the ga_mlu port of §1.1/§1.2, in the
 * single-MLU harness's tb_dut_in_t / tb_dut_out_t, whose memory and oracle fields are unused here),
 * the shared metadata memory and oracle ports with SM indices, the runtime port, and the per-SM
 * verification outputs (commit logs with MLU ids of IdW + 1 bits, runtime-command acceptance and
 * answers). Implemented by tb/shim/ga_system_shim.cpp around one Verilated model.
 */
#ifndef TB_SYSDUT_H
#define TB_SYSDUT_H

#include "tb_dut.h"

#ifdef __cplusplus
extern "C" {
#endif

#define TB_SYS_MAX_SMS 8u

typedef struct {
    tb_dut_in_t sm[TB_SYS_MAX_SMS]; /* req_* and rsp_ready of each SM; its mem_* / orc_* are ignored */
    uint8_t mem_req_ready;
    uint8_t mem_rsp_valid, mem_rsp_sm, mem_rsp_err;
    uint8_t mem_rsp_data[32];
    uint8_t orc_req_ready;
    uint8_t orc_rsp_valid, orc_rsp_sm, orc_rsp_found;
    uint64_t orc_rsp_idx;
    uint8_t rt_valid, rt_op, rt_cfg_addr; /* rt_op: 0 INVALIDATE, 1 FLUSH, 2 CFG_WRITE, 3 CLEAR_HALT */
    uint64_t rt_md;
} tb_sys_in_t;

typedef struct {
    /* per SM: req_ready, the response fields (valid only for LSU responses; the fields are the MLU's
     * and also describe a runtime-command answer, rt_rsp), the commit log (ev_id: IdW + 1 bits) and the
     * status registers; its mem_* / orc_* fields are unused */
    tb_dut_out_t sm[TB_SYS_MAX_SMS];
    uint8_t rt_acc[TB_SYS_MAX_SMS], rt_rsp[TB_SYS_MAX_SMS], rt_rsp_status[TB_SYS_MAX_SMS];
    uint8_t mem_req_valid, mem_req_len, mem_req_sm, mem_rsp_ready;
    uint64_t mem_req_addr;
    uint8_t orc_req_valid, orc_req_sm;
    uint64_t orc_req_va;
    uint8_t rt_ready, rt_ack, rt_err;
} tb_sys_out_t;

typedef struct {
    unsigned sms, tag_bits, mlb_entries, lanes, id_bits; /* id_bits: the LSU's IdW */
    bool has_index; /* built with the walker's INDEX block (HasIndex = 1, the default) */
    const char *name;
} tb_sys_info_t;

typedef struct tb_sys tb_sys_t;

/* An instance held in reset (rst_ni low); NULL on failure with a message on stderr. init_seed: 0,
 * the registers without a reset start from 0; otherwise from random values seeded by it (at most
 * 2^31-1; ga_syscosim --init-seed). */
tb_sys_t *tb_sys_create(uint32_t init_seed);
void tb_sys_destroy(tb_sys_t *d);
tb_sys_info_t tb_sys_info(const tb_sys_t *d);
void tb_sys_set_reset(tb_sys_t *d, bool rst_n);
void tb_sys_set_inputs(tb_sys_t *d, const tb_sys_in_t *in);
void tb_sys_eval(tb_sys_t *d);                               /* clock low, inputs applied */
void tb_sys_get_outputs(tb_sys_t *d, tb_sys_out_t *out);
void tb_sys_tick(tb_sys_t *d);                               /* rising edge */
/* True when the RTL executed a failing assertion or $error since the last call (not fatal). */
bool tb_sys_failed(tb_sys_t *d);
void tb_sys_assert_on(tb_sys_t *d, bool on);

#ifdef __cplusplus
}
#endif

#endif /* TB_SYSDUT_H */
