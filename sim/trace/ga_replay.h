/*
 * ga_replay.h — replay of gatrace records through the golden model (docs/traces.md §6), with the
 * figures gasim reports and the metadata latency model of docs/traces.md §6.6.
 *
 * The replay owns one ga_system_t (memory, runtime, one MLU per SM). Host records (alloc, free) go to
 * the runtime; every MLU operation (LOADMETA, MEMCHECK.G, MEMCHECK.S, plain access) goes through a
 * *backend* (ga_backend_t): the default backend runs the model's MLUs; an RTL backend (the Verilator
 * co-simulation, when it exists) runs the same operation on the Verilated MLU and on the model in
 * lockstep and reports a mismatch as an error. All state is in ga_replay_t: no globals.
 *
 * Typical use:
 *     ga_replay_cfg_t cfg; ga_replay_default_cfg(&cfg);  cfg.mode = GA_MODE_HWONLY; ...
 *     ga_replay_t *rp;   ga_replay_create(&rp, &cfg, hdr, &err);   (after the reader's header)
 *     while ((rc = ga_trace_next(r, &ev, &err)) > 0) if (ga_replay_event(rp, r, &ev, &err)) break;
 *     ... ga_replay_stats(rp), ga_replay_detections(rp, &d) ...
 *     ga_replay_destroy(rp);
 * or ga_replay_run(), which does the loop and the header.
 */
#ifndef GA_REPLAY_H
#define GA_REPLAY_H

#include "ga_system.h"
#include "ga_trace.h"

/* ---------------------------------------------------------------------------------------------------
 * Backends. */

/* The MLU operations of one replay. `sm` is the model SM index (0 .. sms-1). Each function has the
 * semantics and return codes of the ga_mlu_* function of the same name on unit `sm`. runtime_changed
 * is called after every successful runtime call with the locations the runtime invalidated in the
 * model SMs and the new ROOT (the model's SMs have already been updated by ga_system); a backend that
 * drives other hardware forwards them. check() is called once at the end of a replay and returns 0, or
 * -1 with err set when the backend saw a mismatch (RTL lockstep). Any op returning a value other than
 * GA_OK or GA_ERR_HALTED stops the replay with that error. destroy frees ctx (may be NULL). */
typedef struct {
    const char *name;
    void *ctx;
    ga_err_t (*loadmeta)(void *ctx, unsigned sm, uint64_t p, uint64_t *rd);
    ga_err_t (*memcheck_g)(void *ctx, unsigned sm, const ga_warp_req_t *req, uint64_t md, ga_warp_rsp_t *rsp);
    ga_err_t (*memcheck_s)(void *ctx, unsigned sm, const ga_warp_req_t *req, uint32_t base, uint32_t ssize,
                           ga_warp_rsp_t *rsp);
    ga_err_t (*access)(void *ctx, unsigned sm, const ga_warp_req_t *req, ga_warp_rsp_t *rsp);
    void (*runtime_changed)(void *ctx, const uint64_t *locs, size_t n, uint64_t root);
    int (*check)(void *ctx, ga_trace_err_t *err);
    void (*destroy)(void *ctx);
} ga_backend_t;

/* The model backend over sys (borrowed): every op is the ga_mlu_* function on sys->sm[sm]. */
void ga_backend_model(ga_backend_t *b, ga_system_t *sys);

/* The RTL lockstep backend over sys: tb/replay/tb_backend.c, linked before libgatrace.a into
 * build/cosim/<cfg>/gasim-rtl (mk/tb.mk). In every other program this is the placeholder of
 * ga_rtl_stub.c: -1 with err saying that it is not built (docs/traces.md §10). Returns 0 on success. */
int ga_backend_rtl(ga_backend_t *b, ga_system_t *sys, ga_trace_err_t *err);

/* ---------------------------------------------------------------------------------------------------
 * Configuration. */

typedef struct {
    ga_mode_t mode;
    ga_layout_t layout;
    unsigned tag_bits;      /* 7 or 16 */
    unsigned mlb_entries;   /* 1 .. 64 */
    unsigned sms;           /* model SMs, 1 .. GA_SYSTEM_MAX_SMS; 0: the header's sms, else 4 */
    uint64_t seed;          /* the runtime's tag seed */
    uint64_t md_base;       /* metadata region; 0: the runtime default (0x6000_0000_0000) */
    uint32_t md_capacity;   /* metadata nodes / table slots; 0: the runtime default (1 Mi) */
    uint32_t step_limit;    /* walk bound; 0: the reset value 65 536 */
    bool rtl;               /* use ga_backend_rtl instead of the model backend */
    /* latency model (docs/traces.md §6.6) */
    uint32_t l1_lines;      /* direct-mapped metadata L1 lines per SM, 1 .. 2^20 (32 B each) */
    uint32_t l1_hit, l1_miss;   /* cycles per metadata read that hits / misses */
    uint32_t mlb_cycles;    /* cycles of an MLB lookup, charged once per LOADMETA */
    uint32_t check_cycles;  /* cycles of MEMCHECK.G's check logic (paper §8: 3) */
    size_t max_detections;  /* detection records kept (all are counted); 0: unlimited */
} ga_replay_cfg_t;

/* Defaults: compiler mode, BST, 7-bit tags, 8-entry MLB, sms 0 (from the header), seed 1, runtime
 * defaults for the metadata region, 128 L1 lines, 28 / 300 cycles, 1 MLB cycle, 3 check cycles,
 * 100 000 detection records kept. */
void ga_replay_default_cfg(ga_replay_cfg_t *cfg);

/* ---------------------------------------------------------------------------------------------------
 * Results. */

typedef struct {
    uint64_t records[GA_TEV_KINDS]; /* records replayed, by kind */
    uint64_t global_accesses;       /* ld + st records */
    uint64_t shared_accesses;       /* lds + sts records */
    uint64_t global_lanes, shared_lanes; /* active lanes of them */
    uint64_t shared_unchecked;      /* HWOnly: shared records not checked */
    uint64_t unchecked_accesses;    /* compiler mode: root=none records (plain accesses) */
    ga_mlu_stats_t mlu;             /* the model MLUs' counters, summed over SMs */
    uint64_t l1_hits, l1_misses;    /* metadata L1 */
    uint64_t loadmeta_cycles;       /* total cycles of LOADMETAs (docs/traces.md §6.6) */
    uint64_t loadmeta_cycles_max;   /* costliest single LOADMETA (HWOnly: costliest access's) */
    uint64_t memcheck_g_cycles;     /* total cycles of MEMCHECK.Gs */
    uint64_t memcheck_g_cycles_max;
    uint64_t md_bytes_end, md_bytes_peak; /* metadata storage (runtime), bytes */
    uint64_t live_end, live_peak;   /* live allocations */
    uint64_t detections;            /* faulting warp operations */
    uint64_t detections_by_kind[GA_EXC_KINDS]; /* by the kind of their record */
    uint64_t faulting_lanes;        /* failing lanes over all detections */
    unsigned sms;                   /* model SMs used */
} ga_replay_stats_t;

/* One detection (docs/traces.md §6.5). */
typedef struct {
    ga_exc_t rec;            /* the lowest failing lane's record */
    uint32_t fault_mask;     /* failing lanes (of this MEMCHECK.G, MEMCHECK.S or access) */
    uint32_t file;           /* the file the record came from: ga_replay_file_name(rp, file) (the trace, or
                                for an imported trace the Accel-Sim file: ga_trace_origin) */
    uint64_t line;           /* ... and its line there */
    uint32_t kernel;         /* index into ga_replay_kernel_name() */
    ga_tev_kind_t op;        /* GA_TEV_LD, ST, LDS or STS */
    uint16_t trace_sm;       /* SM as written in the trace (rec.sm is the model SM) */
    /* Where the address lies (global only; tags ignored): */
    bool in_entry;           /* inside an entry (live or freed) */
    bool entry_freed;        /*  ... a freed one */
    bool entry_named;        /*  ... which is (the lower piece of) trace allocation entry_id */
    uint64_t entry_id;
    ga_entry_t entry;        /*  ... the entry */
    bool near_found;         /* not inside a live allocation: the nearest live one */
    bool near_named;
    uint64_t near_id;
    ga_entry_t near;
    uint64_t near_dist;      /* bytes from the address to its nearest byte */
    bool checked_named;      /* the record's entry (the bounds it was checked against) is ... */
    uint64_t checked_id;     /*  ... trace allocation checked_id */
} ga_detection_t;

typedef struct ga_replay ga_replay_t; /* opaque */

/* Build the system and backend for a trace with header hdr (fixed or auto addresses, declared SMs).
 * Returns 0, or -1 with err set ("gasim: ..." style messages without a file position: a bad
 * configuration, the RTL backend missing, out of memory). */
int ga_replay_create(ga_replay_t **out, const ga_replay_cfg_t *cfg, const ga_trace_header_t *hdr,
                     ga_trace_err_t *err);

/* Replay one record read by r (r gives the names for messages). Returns 0, or -1 with err set to
 * "FILE:LINE: message" (runtime refusal, tag override too wide, backend error). */
int ga_replay_event(ga_replay_t *rp, const ga_trace_reader_t *r, const ga_tev_t *ev, ga_trace_err_t *err);

/* End of trace: the backend's final check and the end-of-run figures. Returns 0 or -1 with err. */
int ga_replay_finish(ga_replay_t *rp, ga_trace_err_t *err);

/* Progress callback: called about every 65 536 records with the source's progress. */
typedef void (*ga_replay_progress_fn)(void *ctx, uint64_t records, uint64_t done, uint64_t total);

/* The whole loop: reads r to its end, creating the replay after the header, replaying every record,
 * then ga_replay_finish. Returns 0 with *out set, or -1 with err set and *out NULL (nothing of the
 * partial replay is kept). progress may be NULL. */
int ga_replay_run(ga_replay_t **out, const ga_replay_cfg_t *cfg, ga_trace_reader_t *r,
                  ga_replay_progress_fn progress, void *progress_ctx, ga_trace_err_t *err);

const ga_replay_stats_t *ga_replay_stats(const ga_replay_t *rp);

/* Detection records kept (the first cfg.max_detections); the count is returned, *d set. */
size_t ga_replay_detections(const ga_replay_t *rp, const ga_detection_t **d);

/* File name of a detection's origin by index; "" for an index out of range. */
const char *ga_replay_file_name(const ga_replay_t *rp, uint32_t index);

/* Kernel name by index (order of the kernel records); "" for an index out of range. */
const char *ga_replay_kernel_name(const ga_replay_t *rp, uint32_t index);
uint32_t ga_replay_kernels(const ga_replay_t *rp);

/* The effective configuration (sms resolved). */
const ga_replay_cfg_t *ga_replay_cfg(const ga_replay_t *rp);

/* One readable line for detection d (no '\n') into buf[cap], e.g.
 * "x.gatrace:7: kernel saxpy: OUT_OF_BOUNDS st sm 1 warp 3 lane 3 addr 0x... size 4 (1 failing lane,
 *  mask 0x00000008): checked against a1 [0x..., +256) tag 0x..; no allocation covers the address;
 *  nearest live allocation a1 [0x..., +256), right after its end"; returns the length (truncated to
 * cap - 1). The file is the detection's origin; trace_name is used only when it has none (may be NULL). */
int ga_replay_format_detection(const ga_replay_t *rp, const char *trace_name, const ga_detection_t *d,
                               char *buf, size_t cap);

void ga_replay_destroy(ga_replay_t *rp); /* NULL is a no-op */

#endif /* GA_REPLAY_H */
