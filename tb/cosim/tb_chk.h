/*
 * tb_chk.h — the lockstep checker of the co-simulation (spec §8, the transaction-level contract).
 *
 * The checker owns the golden model's state: the MLB (ga_mlb_t), the configuration registers and the
 * halted flag. It is told, cycle by cycle and in this order within a cycle, what crossed the DUT's
 * ports: accepted requests, metadata read requests and responses, oracle queries and answers, MLB
 * commit-log events and responses. It replays the MLB events in commit order on its own MLB,
 * predicting each one (hit or miss and the slot of a lookup, the victim of a fill, a dropped fill),
 * and predicts every response.
 *
 * Configuration (spec §8): a CFG_WRITE or CLEAR_HALT takes effect on the checker's registers when it
 * is accepted; every request is predicted from the registers as they were at its own acceptance
 * (walk LAYOUT / ROOT / STEP_LIMIT, record SM_ID, halt POLICY, MODE), never from the live ones.
 *
 * Metadata reads. Walks and MEMCHECK.G fetches are "jobs", queued in the order of the miss events
 * that start them; the reads on the memory port belong to the jobs in that order (spec §8: the model
 * predicts every read, in order, from the event order). A job is replayed with the model's own
 * ga_walk / ga_fetch_entry through a memif whose read callback pops the next observed read, checks
 * its address and length, and hands the model the data memory actually returned (so frees racing a
 * walk are seen exactly as the hardware saw them). A job is replayed when its result is first needed:
 * at the next event or at the response of its request; all earlier jobs are replayed first.
 *
 * Every mismatch is printed (up to a cap) with the seed, the operation index, the field and both
 * values, and counted; the run goes on.
 */
#ifndef TB_CHK_H
#define TB_CHK_H

#include "ga_mem.h"
#include "ga_mlu.h"
#include "ga_runtime.h"
#include "tb_common.h"

typedef struct {
    unsigned tag_bits, mlb_entries, lanes, id_bits;
    uint64_t seed;
    unsigned max_print;      /* mismatches printed in full; later ones are only counted */
    bool halt_refuses_maint; /* true: INVALIDATE/FLUSH/CFG_WRITE are refused while halted too */
    bool verbose;            /* print every transfer (debug) */
    bool no_index;           /* the DUT is built without the INDEX walker (HasIndex 0): LAYOUT = 3 is
                                CFG_ERROR; false (the default) for a DUT that has every layout */
} tb_chk_cfg_t;

typedef struct {
    uint64_t req[TB_OPS], rsp[TB_OPS];
    uint64_t range_hits, range_misses, loc_hits, loc_misses;
    uint64_t fills, fill_drops, invals, flushes;
    uint64_t walks, fetches, reads, read_errors, oracle_queries;
    /* INDEX walks (LAYOUT = INDEX as of acceptance) by result (GA_WALK_*), and 128-byte node reads
     * (four beats each) with those that got an error on some beat */
    uint64_t index_walks[5], node128_reads, node128_errors;
    uint64_t index_freed_walks[5]; /* of index_walks: those that read the freed index's root */
    uint64_t faults_by_kind[GA_EXC_KINDS]; /* responses by record kind */
    uint64_t halted_rsps, cfg_errors;
    uint64_t ref_checks, ref_skipped;
    /* configuration under load (spec §8): CFG_WRITE / CLEAR_HALT accepted with other requests in
     * flight, and predictions in which the registers of acceptance differ from the live ones (a
     * checker or DUT that read the live register would disagree there): records (SM_ID), halt
     * decisions (POLICY), walks started (LAYOUT, ROOT or STEP_LIMIT) */
    uint64_t cfg_under_load, stale_sm, stale_policy, stale_walk;
    uint64_t mismatches;
} tb_chk_stats_t;

typedef struct tb_chk tb_chk_t;

/* Called for every mismatch (after it is counted), e.g. to remember where to start a waveform. */
typedef void (*tb_chk_mismatch_fn)(void *ctx, uint64_t opidx, uint64_t cycle);

tb_chk_t *tb_chk_create(const tb_chk_cfg_t *cfg);
void tb_chk_destroy(tb_chk_t *c);
void tb_chk_on_mismatch(tb_chk_t *c, tb_chk_mismatch_fn fn, void *ctx);

/* The third opinion (ga_ref_search) reads this memory and runtime. Without it, no third opinion. */
void tb_chk_set_world(tb_chk_t *c, ga_mem_t *mem, ga_rt_t *rt, uint64_t table_slots);
/* false while the harness has made memory disagree with the runtime on purpose (corrupt structures,
 * a wrong LAYOUT register, poisoned nodes): LOADMETA results are then not compared with the search. */
void tb_chk_set_ref_enabled(tb_chk_t *c, bool on);
/* A free just rewrote n entries in memory; their invalidations (requests flagged TB_RF_FREE_INVAL)
 * follow. Until they commit, the MLB may legitimately disagree with memory. */
void tb_chk_note_free(tb_chk_t *c, unsigned n_invals);

void tb_chk_cycle(tb_chk_t *c, uint64_t cycle); /* the cycle of the transfers that follow */
void tb_chk_req(tb_chk_t *c, const tb_req_t *r);
/* len_code: mem_req_len_o (0: 16 bytes, 1: 32, 2: 128 in four beats; microarchitecture §1.3). */
void tb_chk_mem_req(tb_chk_t *c, uint64_t addr, unsigned len_code);
/* One response beat (32 bytes) taken by the DUT: the beats of a 128-byte read are gathered, in order,
 * into one observed read (its error: any beat's). */
void tb_chk_mem_rsp(tb_chk_t *c, const uint8_t *data, bool err, bool injected);
void tb_chk_orc_req(tb_chk_t *c, uint64_t va);
void tb_chk_orc_rsp(tb_chk_t *c, bool found, uint64_t idx, bool lie);
void tb_chk_event(tb_chk_t *c, unsigned kind, unsigned id, unsigned slot, unsigned lane);
void tb_chk_rsp(tb_chk_t *c, const tb_rsp_t *r);
/* Nothing in flight: every observed read must have been used, and halted_o / cfg_*_o must equal the
 * model's registers. */
void tb_chk_drained(tb_chk_t *c, const tb_dut_out_t *o);
/* A protocol violation or other failure found by the driver, reported like a mismatch. */
void tb_chk_fail(tb_chk_t *c, uint64_t opidx, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

unsigned tb_chk_in_flight(const tb_chk_t *c);
bool tb_chk_halted(const tb_chk_t *c);
const ga_mlu_cfg_t *tb_chk_regs(const tb_chk_t *c); /* as of the latest acceptance */
const ga_mlb_t *tb_chk_mlb(const tb_chk_t *c);
tb_chk_stats_t tb_chk_stats(const tb_chk_t *c);
/* Oldest request still in flight (for timeout messages); false if none. */
bool tb_chk_oldest(const tb_chk_t *c, tb_req_t *r, uint64_t *accept_cycle);

#endif /* TB_CHK_H */
