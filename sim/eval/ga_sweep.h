/*
 * ga_sweep.h — one captured trace (a corpus program's run written by `gpuarmor-run --trace-out`)
 * replayed through the model with one layout and MLB size, for the Fig 9, 10, 11 and 13 analogues
 * measured on real programs (docs/eval.md, "The corpus traces"; gasweep is the command line).
 *
 * The replay is the trace library's (sim/trace/ga_replay.h, docs/traces.md §6), so a replay with the
 * configuration of the capture gives exactly the counters the interpreter reported. Two things are
 * added around it, through a backend that wraps the model's: "no MLB" (mlb = 0), modelled as in the
 * stand-ins' runs (ga_perf.h): an 8-entry MLB flushed before every LOADMETA, MEMCHECK.G and plain
 * access, so nothing is ever found in it; and the allocation working set of the paper's Fig 4, counted
 * as the stand-ins count it: the most distinct allocations one warp (trace SM, warp) touched in one
 * kernel, each checked or plain global access's active lanes looked up in the runtime by address
 * (tags ignored).
 */
#ifndef GA_SWEEP_H
#define GA_SWEEP_H

#include "ga_replay.h"

typedef struct {
    ga_mode_t mode;
    ga_layout_t layout;
    unsigned mlb;          /* 1 .. 64, or 0: no MLB (8 entries flushed before every lookup) */
    uint64_t seed;         /* the runtime's tag seed: the capture's, for a faithful replay */
    unsigned tag_bits;     /* 7 or 16, or 0: the trace header's */
    bool neighbour_distinct;
    uint32_t quarantine;
} ga_sweep_cfg_t;

/* Defaults: compiler mode, BST, 8 entries, seed 1, the header's tag width, no tag extension. */
void ga_sweep_default_cfg(ga_sweep_cfg_t *cfg);

typedef struct {
    ga_replay_stats_t st;  /* the replay's figures (docs/traces.md §6) */
    uint32_t ws_max;       /* the allocation working set (see above) */
    uint64_t kernels;      /* kernel records */
} ga_sweep_res_t;

/* Replay the trace at path (gatrace, plain or gzip) with cfg into *res. Returns 0, or -1 with a
 * message ("path:LINE: ..." for a malformed trace, or the replay's refusal) in msg[cap]. */
int ga_sweep_run(const char *path, const ga_sweep_cfg_t *cfg, ga_sweep_res_t *res, char *msg, size_t cap);

#endif /* GA_SWEEP_H */
