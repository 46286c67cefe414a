/*
 * tb_memsys.h — the testbench side of the metadata memory port and the table oracle port
 * (docs/microarchitecture.md §1.3, §1.4).
 *
 * A read is served (memory sampled) in the cycle its request transfers, so its data is what memory
 * held then (spec §8); the response is offered after a random latency and held until the DUT takes
 * it. A read's length code (mem_req_len_o, microarchitecture §1.3) is 0 for 16 bytes, 1 for 32 and
 * 2 for 128 (an INDEX node): a 128-byte read is answered by four 32-byte beats in address order,
 * each its own valid/ready handshake, each after its own random delay; the memory always sends all
 * four, and an error (unmapped or poisoned bytes in that beat, or an injected error, drawn per beat)
 * may be flagged on any of them (the walker ends FAULT after the last). Back-pressure: mem_req_ready_i and orc_req_ready_i drop at random; a due response is held back
 * at random. Errors: reads of unmapped or poisoned memory (ga_mem_poison) answer with an error, and
 * any read may get an injected error at a configurable rate. For a 16-byte read the upper 16 bytes
 * of the data carry random garbage, and an error response carries garbage throughout: the DUT must
 * ignore both. The oracle answers from the runtime (ga_rt_oracle) after a random latency with a
 * one-cycle pulse, and may lie (a wrong slot or "none") at a configurable rate: spec §2.3 says a
 * wrong answer can only cause a miss.
 */
#ifndef TB_MEMSYS_H
#define TB_MEMSYS_H

#include "ga_mem.h"
#include "ga_rng.h"
#include "ga_runtime.h"
#include "tb_dut.h"

typedef struct {
    unsigned lat_min, lat_max;  /* cycles from request transfer to response valid, extra to 1 */
    unsigned slow_pct, slow_lat;/* % of reads with a long latency of up to slow_lat cycles */
    unsigned req_stall_pct;     /* % of cycles mem_req_ready_i is low */
    unsigned rsp_stall_pct;     /* % of cycles a due response is held back */
    uint32_t err_ppm;           /* injected error responses per million reads */
    unsigned orc_stall_pct, orc_lat_max;
    uint32_t orc_lie_ppm;
} tb_mem_knobs_t;

typedef struct {
    uint64_t reads, errors, injected, oracle, lies;
} tb_memsys_stats_t;

#define TB_MEMSYS_Q 64u

typedef struct {
    uint64_t addr;
    uint8_t len_code;
    uint8_t beats, beat;        /* beats of the response, beats taken so far */
    bool err[4], inj[4];
    uint8_t data[128];
    uint64_t due;
} tb_mread_t;

typedef struct {
    bool found, lie;
    uint64_t idx, due;
} tb_orc_ans_t;

typedef struct {
    tb_mem_knobs_t k;
    ga_mem_t *mem;
    ga_rt_t *rt;
    ga_rng_t rng;
    tb_mread_t q[TB_MEMSYS_Q];
    unsigned qh, qn;
    bool offered; /* the head response's current beat has been shown to the DUT */
    uint64_t now; /* the cycle of the last tb_memsys_drive */
    tb_orc_ans_t oq[TB_MEMSYS_Q];
    unsigned oh, on;
    tb_memsys_stats_t st;
} tb_memsys_t;

void tb_memsys_init(tb_memsys_t *m, const tb_mem_knobs_t *k, ga_mem_t *mem, ga_rt_t *rt, uint64_t seed);
/* Drive this cycle's memory and oracle inputs of the DUT. */
void tb_memsys_drive(tb_memsys_t *m, uint64_t cycle, tb_dut_in_t *in);
/* Bytes of a read of length code len (0: 16, 1: 32, 2: 128); 0 for the code 3 that is never issued. */
unsigned tb_mem_len_bytes(unsigned len_code);
/* Serve a read request that transfers this cycle. Returns false if the queue is full (harness bug)
 * or the length code is 3 (a DUT bug, reported by the caller's protocol check). */
bool tb_memsys_accept_read(tb_memsys_t *m, uint64_t cycle, uint64_t addr, unsigned len_code);
/* The response beat offered this cycle was taken by the DUT. */
void tb_memsys_rsp_taken(tb_memsys_t *m);
/* The response beat offered this cycle (valid in `in`) as recorded: injected flag. */
bool tb_memsys_rsp_injected(const tb_memsys_t *m);
void tb_memsys_accept_oracle(tb_memsys_t *m, uint64_t cycle, uint64_t va);
/* The oracle answer pulsed this cycle was a lie. */
bool tb_memsys_orc_lie(const tb_memsys_t *m);
void tb_memsys_orc_delivered(tb_memsys_t *m);
bool tb_memsys_idle(const tb_memsys_t *m);

#endif /* TB_MEMSYS_H */
