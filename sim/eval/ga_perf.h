/*
 * ga_perf.h — one workload stream through the model: metadata reads and the latency model behind the
 * Fig 9, 10, 11 (compiler mode) and Fig 12, 13 (HWOnly) analogues (docs/eval.md).
 *
 * Events of ga_workloads.h are consumed directly: ALLOC/FREE go to the runtime; in COMPILER mode a
 * LOADMETA event runs LOADMETA and keeps its result per (SM, warp, root value) for the kernel (the
 * register the compiler propagates, paper §6.2); a global access runs MEMCHECK.G with that location
 * (a root not loaded yet is loaded first; an ADDRESS root runs LOADMETA of the lowest active lane's
 * address just before the access); a shared access runs MEMCHECK.S. In HWONLY mode a global access is
 * a plain access (spec §5.4) and shared accesses are not checked. mlb = 0 models "no MLB": an 8-entry
 * MLB flushed before every LOADMETA and MEMCHECK.G, so nothing is ever found in it, and no MLB lookup
 * is charged.
 */
#ifndef GA_PERF_H
#define GA_PERF_H

#include "ga_backend.h"
#include "ga_workloads.h"

typedef struct {
    ga_mode_t mode;
    ga_layout_t layout;
    unsigned mlb;          /* 0 (none) or 1 .. 64 */
    unsigned tag_bits;     /* 7 or 16 */
    unsigned sms;          /* SMs of the stream and the model, 1 .. GA_SYSTEM_MAX_SMS */
    uint64_t seed;         /* stream seed; the runtime's tag seed is derived from it */
    double scale;          /* instruction scale factor (ga_wl_opts_t) */
    const char *backend;   /* "model" (NULL) or "rtl" */
    const ga_backend_def_t *const *backends; /* the program's registry (ga_backend.h; NULL: model only) */
    /* Latency model (docs/eval.md): cycles */
    uint32_t mlb_cycles;   /* one MLB lookup (LOADMETA, MEMCHECK.G fetch), when there is an MLB */
    uint32_t l1_cycles;    /* one metadata read, served by the L1 */
    uint32_t check_cycles; /* MEMCHECK.G check logic (paper §8: 3) */
} ga_perf_cfg_t;

/* Defaults: COMPILER, BST, 8-entry MLB, 7-bit tags, 8 SMs, seed 1, scale 1e-3, model backend,
 * 1 / 28 / 3 cycles. */
void ga_perf_default_cfg(ga_perf_cfg_t *c);

typedef struct {
    ga_wl_summary_t wl;           /* what the stream held */
    uint64_t loadmeta;            /* LOADMETA operations (HWOnly: those the accesses ran) */
    uint64_t loadmeta_hits;       /* ... that hit the MLB */
    uint64_t walk_reads;          /* node / table reads by walks */
    uint64_t memcheck_g, memcheck_s, accesses;
    uint64_t fetches, fetch_hits, fetch_reads; /* MEMCHECK.G entry fetches, MLB hits, memory reads */
    uint64_t faults;              /* warp operations that raised an exception (a clean stream: 0) */
    uint64_t md_bytes_peak;       /* runtime metadata storage at its peak */
    double reads_per_loadmeta;    /* walk_reads / loadmeta */
    double lat_loadmeta;          /* mean added cycles per LOADMETA */
    double lat_memcheck;          /* mean added cycles per MEMCHECK.G (0 if none) */
    double md_cycles_per_kinstr;  /* (all LOADMETA + MEMCHECK.G cycles) per 1 000 warp instructions,
                                     serialised, no latency hiding: NOT a run-time overhead */
} ga_perf_res_t;

/* Run spec through a fresh system configured by c. Returns 0, or -1 with msg (a configuration the
 * model refuses, a runtime error, the backend unavailable or reporting a mismatch). */
int ga_perf_run(const ga_wl_spec_t *spec, const ga_perf_cfg_t *c, ga_perf_res_t *res, char *msg, size_t cap);

#endif /* GA_PERF_H */
