/*
 * tb_dut.h — the co-simulation harness's view of one ga_mlu instance (docs/microarchitecture.md §1).
 *
 * The harness is C; the device under test is a Verilated model reached through the thin extern "C"
 * shim tb/shim/ga_mlu_shim.cpp (one build per parameter set, the model class named with --prefix),
 * the only implementation of this API today. The API is kept narrow so that another implementation
 * (a behavioural stand-in to test the checker without RTL, once someone writes one) could be linked
 * instead without touching the harness.
 *
 * Every port of the §1 contract appears in tb_dut_in_t (inputs) or tb_dut_out_t (outputs) with the
 * same name minus its _i/_o suffix. Lane vectors are arrays indexed by lane. The 256-bit memory data
 * is 32 bytes, byte k = bits [8k+7:8k] (little-endian, spec §2.1).
 *
 * Clocking, one cycle: tb_dut_set_inputs(); tb_dut_eval() (clock low: outputs settle);
 * tb_dut_get_outputs() (the harness decides which handshakes complete at this edge);
 * tb_dut_tick() (rising edge, then clock low again).
 */
#ifndef TB_DUT_H
#define TB_DUT_H

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define TB_LANES_MAX 32u

typedef struct {
    /* request port (§1.1) */
    uint8_t req_valid;
    uint8_t req_op;       /* 3 bits */
    uint16_t req_id;      /* IdW bits */
    uint16_t req_warp;
    uint32_t req_active;  /* Lanes bits */
    uint64_t req_addr[TB_LANES_MAX];
    uint8_t req_size;     /* log2, 3 bits */
    uint64_t req_md;
    uint8_t req_cfg_addr; /* 3 bits */
    /* response port (§1.2) */
    uint8_t rsp_ready;
    /* metadata memory port (§1.3) */
    uint8_t mem_req_ready;
    uint8_t mem_rsp_valid;
    uint8_t mem_rsp_data[32];
    uint8_t mem_rsp_err;
    /* table oracle port (§1.4) */
    uint8_t orc_req_ready;
    uint8_t orc_rsp_valid;
    uint8_t orc_rsp_found;
    uint64_t orc_rsp_idx;
} tb_dut_in_t;

typedef struct {
    uint8_t req_ready;
    /* response (§1.2); rsp_addr is copied only while rsp_valid is high */
    uint8_t rsp_valid;
    uint16_t rsp_id;
    uint8_t rsp_op, rsp_status;
    uint64_t rsp_rd;
    uint64_t rsp_addr[TB_LANES_MAX];
    uint32_t rsp_fault;
    uint8_t rsp_exc_kind;
    uint64_t rsp_exc_addr, rsp_exc_md, rsp_exc_tb, rsp_exc_esize;
    uint8_t rsp_exc_size;
    uint16_t rsp_exc_sm, rsp_exc_warp;
    uint8_t rsp_exc_lane;
    /* memory (§1.3) */
    uint8_t mem_req_valid;
    uint64_t mem_req_addr;
    uint8_t mem_req_len;
    uint8_t mem_rsp_ready;
    /* oracle (§1.4) */
    uint8_t orc_req_valid;
    uint64_t orc_req_va;
    /* MLB commit log (§1.5) */
    uint8_t ev_valid, ev_kind;
    uint16_t ev_id;
    uint8_t ev_slot, ev_lane;
    /* status (§1.6) */
    uint8_t halted;
    uint8_t cfg_mode, cfg_layout;
    uint64_t cfg_root;
    uint32_t cfg_step_limit;
    uint8_t cfg_policy;
    uint16_t cfg_sm_id;
    uint8_t cfg_tag_bits;
} tb_dut_out_t;

/* Elaboration parameters of the instance and what the build offers. */
typedef struct {
    unsigned tag_bits, mlb_entries, lanes, id_bits;
    bool has_index;   /* built with the walker's INDEX block (ga_mlu HasIndex = 1, the default) */
    bool can_trace;   /* built with FST tracing */
    bool coverage;    /* built with --coverage */
    const char *name; /* configuration name, e.g. "t7_m8_l1" or "fake" */
} tb_dut_info_t;

typedef struct tb_dut tb_dut_t;

/* Create an instance held in reset (rst_ni low, clock low); NULL on failure with a message on
 * stderr. args: whitespace-separated words; the Verilated shim knows init-seed=N (N = 0: registers
 * without a reset start from 0; 1..2^31-1: from random values seeded by N; default 0) and refuses any
 * other word. ga_cosim passes init-seed=N and then the words of its --dut ARGS. */
tb_dut_t *tb_dut_create(const char *args);
/* The init seed a run uses unless --init-seed names one: drawn from the run's seed, 1 .. 2^30. */
static inline uint64_t tb_init_seed_of(uint64_t seed) { return 1u + ((seed * UINT64_C(0x9E3779B97F4A7C15)) >> 34); }
void tb_dut_destroy(tb_dut_t *d); /* closes an open trace; writes coverage data if built with it */
tb_dut_info_t tb_dut_info(const tb_dut_t *d);

void tb_dut_set_reset(tb_dut_t *d, bool rst_n);
void tb_dut_set_inputs(tb_dut_t *d, const tb_dut_in_t *in);
void tb_dut_eval(tb_dut_t *d);
void tb_dut_get_outputs(tb_dut_t *d, tb_dut_out_t *out);
void tb_dut_tick(tb_dut_t *d);

/* FST waveform of what follows (0 on success); only when info.can_trace. */
int tb_dut_trace_open(tb_dut_t *d, const char *path);
void tb_dut_trace_close(tb_dut_t *d);

/* True when the model executed a failing assertion, $error or $stop since the last call (the
 * simulator prints the message; it is not fatal, so the harness reports it as a mismatch and goes
 * on, prints its summary and closes the waveform). */
bool tb_dut_failed(tb_dut_t *d);
/* Switch the RTL's assertions off (debugging only: --no-assert). */
void tb_dut_assert_on(tb_dut_t *d, bool on);

/* Write coverage data (coverage builds only; a no-op otherwise). */
void tb_dut_write_coverage(tb_dut_t *d, const char *path);

#ifdef __cplusplus
}
#endif

#endif /* TB_DUT_H */
