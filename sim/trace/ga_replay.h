/*
 * ga_replay.h — replay of gatrace records through the golden model (docs/traces.md §6), with the
 * figures gasim reports and the metadata latency model of docs/traces.md §6.6.
 *
 * The replay owns one ga_system_t (memory, runtime, one MLU per SM). Host records (alloc, free, freep)
 * go to the runtime; every MLU operation (LOADMETA, MEMCHECK.G, MEMCHECK.S, plain access) goes through
 * a *backend* (ga_backend_t): the default backend runs the model's MLUs; the RTL backend
 * (tb/replay/tb_backend.c, in build/cosim/<cfg>/gasim-rtl) runs the same operation on a Verilated MLU
 * and on the model in lockstep and reports a mismatch as an error. All state is in ga_replay_t: no
 * globals.
 *
 * Findings (docs/traces.md §6.5) are of three sorts, counted apart: program errors found by the MLU
 * (a faulting warp operation), program errors found by the runtime (a free it refused: double free,
 * unknown or interior pointer, wrong tag), and *incomplete checks*: faulting operations every failing
 * lane of which got its metadata from a LOADMETA walk that ended STEP_LIMIT or FAULT (spec §3.3). The
 * spec's fail-closed rule makes those faults, but they say that the walk was cut short (a long list,
 * a corrupt structure), not that the program is wrong.
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

#include "ga_backend.h"
#include "ga_system.h"
#include "ga_trace.h"

/* Backends: every MLU operation of a replay goes through a ga_backend_t (ga_backend.h), opened by
 * name (ga_replay_cfg_t.backend) from the program's registry (ga_replay_cfg_t.backends); the compiler-
 * mode dispatch is ga_exec.h's. The replay calls the backend's runtime_changed after every successful
 * runtime call, check() once at the end (a non-zero return stops the replay with the backend's
 * message), and wave() for --wave. Any op returning a value other than GA_OK or GA_ERR_HALTED stops
 * the replay with that error. */

/* A finding suppressed by kernel, kind and allocation (docs/traces.md §10, "Suppressions"). Every
 * field that is set must match: kernel a fnmatch(3) pattern over the kernel name (a finding outside
 * any kernel has the name ""), kind a finding kind (ga_replay_finding_kind: an exception kind such as
 * "OUT_OF_BOUNDS", or a bad free such as "DOUBLE_FREE"), alloc the trace ID of the allocation the
 * finding is about (ga_replay_finding_alloc). A rule with no field set matches everything. */
typedef struct {
    const char *kernel; /* NULL: any */
    const char *kind;   /* NULL: any */
    bool has_alloc;
    uint64_t alloc_id;
} ga_suppression_t;

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
    /* latency model (docs/traces.md §6.6) */
    uint32_t l1_lines;      /* direct-mapped metadata L1 lines per SM, 1 .. 2^20 (32 B each) */
    uint32_t l1_hit, l1_miss;   /* cycles per metadata read that hits / misses */
    uint32_t mlb_cycles;    /* cycles of an MLB lookup, charged once per LOADMETA */
    uint32_t check_cycles;  /* cycles of MEMCHECK.G's check logic (paper §8: 3) */
    size_t max_detections;  /* detection records kept (all are counted); 0: unlimited */
    /* Fields below were added after the first release; ga_replay_default_cfg sets them all. */
    bool tag_neighbour_distinct; /* runtime extension of spec §7.6.1 */
    uint32_t tag_quarantine;     /* runtime extension of spec §7.6.2: W, 0 off, 1 .. GA_RT_QUARANTINE_MAX */
    const ga_suppression_t *suppressions; /* borrowed; must outlive the replay */
    size_t nsuppressions;
    const char *wave_path;  /* RTL backend with a wave hook: waveform file of the window below */
    uint64_t wave_from, wave_to; /* the window: records on trace lines from .. to (inclusive) */
    /* The backend (ga_backend.h): its registry name (NULL: "model"), the program's registry (NULL:
     * ga_backends_model; gasim-rtl adds "rtl", gaprobe "board", gasweep its timed model) and the
     * argument handed to the backend's open (gaprobe's board session; NULL for the others). */
    const char *backend;
    const ga_backend_def_t *const *backends;
    void *backend_arg;
} ga_replay_cfg_t;

/* Defaults: compiler mode, BST, 7-bit tags, 8-entry MLB, sms 0 (from the header), seed 1, runtime
 * defaults for the metadata region, 128 L1 lines, 28 / 300 cycles, 1 MLB cycle, 3 check cycles,
 * 100 000 detection records kept, no tag extension, no suppression, no waveform. tag_bits 0 is also
 * accepted by ga_replay_create: the header's tag_bits (version 2), else 7. */
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
    uint64_t loadmeta_cycles;       /* total cycles of LOADMETAs (docs/traces.md §6.6); a LOADMETA of
                                       tag 0 or the freed tag makes no MLB access (spec §3.2 step 1) and
                                       is charged nothing */
    uint64_t loadmeta_cycles_max;   /* costliest single LOADMETA (HWOnly: costliest access's) */
    uint64_t memcheck_g_cycles;     /* total cycles of MEMCHECK.Gs */
    uint64_t memcheck_g_cycles_max;
    uint64_t md_bytes_end, md_bytes_peak; /* metadata storage (runtime), bytes */
    uint64_t live_end, live_peak;   /* live allocations */
    uint64_t detections;            /* faulting warp operations (not suppressed), incomplete checks
                                       included */
    uint64_t detections_by_kind[GA_EXC_KINDS]; /* by the kind of their record */
    uint64_t faulting_lanes;        /* failing lanes over all detections */
    unsigned sms;                   /* model SMs used */
    /* Fields below were added after the first release. */
    uint64_t detections_walk;       /* incomplete checks: detections every failing lane of which got its
                                       metadata from a walk that ended STEP_LIMIT or FAULT */
    uint64_t detections_walk_by_kind[GA_EXC_KINDS];
    uint64_t walk_lanes;            /* failing lanes whose metadata came from such a walk (any detection) */
    uint64_t bad_frees;             /* frees the runtime refused (not suppressed) */
    uint64_t bad_frees_by_code[GA_ERR_CODES];
    uint64_t errors;                /* program errors: detections - detections_walk + bad_frees */
    uint64_t suppressed;            /* findings a suppression matched (counted nowhere above) */
    uint64_t invalidated_locations; /* locations the runtime invalidated; each one is one invalidation
                                       request on every SM (mlu.invalidates = this x sms) */
    uint64_t tag_width_suspects;    /* raw pointers that look written for the other tag width */
    uint64_t tag_width_suspect_line;/* ... the first one's line */
} ga_replay_stats_t;

/* One finding (docs/traces.md §6.5): a detection of the MLU (free_err GA_OK) or a free the runtime
 * refused (free_err the runtime's error; rec, fault_mask and the checked_* fields are zero). */
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
    uint64_t near_dist;      /* bytes from the address to the allocation's nearest byte: the first byte
                                past the end is 1 byte after it, the byte below the base 1 byte before
                                (Compute Sanitizer's count); near_after says which side */
    bool checked_named;      /* the record's entry (the bounds it was checked against) is ... */
    uint64_t checked_id;     /*  ... trace allocation checked_id */
    /* Fields below were added after the first release. */
    bool near_after;         /* the address lies above the nearest live allocation */
    bool walk_limited;       /* an incomplete check (every failing lane's walk was cut short) */
    uint32_t walk_lanes;     /* failing lanes whose metadata came from a walk cut short */
    ga_err_t free_err;       /* GA_OK: an MLU detection; else the runtime's refusal of a free */
    uint64_t free_ptr;       /* bad free: the pointer freed (tagged) */
    bool free_named;         /* bad free: a `free ID` record ... */
    uint64_t free_id;        /*  ... of trace allocation free_id */
} ga_detection_t;

/* The kind name of a finding: the exception kind of an MLU detection ("OUT_OF_BOUNDS", ...) or, for a
 * bad free, "DOUBLE_FREE", "FREE_INTERIOR_POINTER", "FREE_TAG_MISMATCH" or "FREE_UNKNOWN_POINTER"
 * ("BAD_FREE" for any other refusal). */
const char *ga_replay_finding_kind(const ga_detection_t *d);

/* The allocation a finding is about: a bad `free ID`'s ID; else the allocation (live or freed) the
 * address lies in; else the one the access was checked against; else the nearest live one. False
 * when none of them has a trace ID. */
bool ga_replay_finding_alloc(const ga_detection_t *d, uint64_t *id);

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

/* Progress callback: called every 4 096 records, and also after every 2^18 metadata reads so that it
 * keeps coming while long walks run, with the records replayed and the source's progress. */
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

/* The effective configuration (sms and tag_bits resolved). */
const ga_replay_cfg_t *ga_replay_cfg(const ga_replay_t *rp);

/* The system the replay runs (its runtime's configuration: metadata region, heap, extensions). */
const ga_system_t *ga_replay_system(const ga_replay_t *rp);

/* One readable line for finding d (no '\n') into buf[cap], e.g.
 * "x.gatrace:7: kernel saxpy: OUT_OF_BOUNDS st sm 1 warp 3 lane 3 addr 0x... size 4 (1 failing lane,
 *  mask 0x00000008): checked against a1 [0x..., +256) tag 0x..; no allocation covers the address:
 *  1 byte after the nearest allocation a1 at 0x... of size 256" (the count of ga_detection_t's
 * near_dist), or for a bad free "x.gatrace:12: host: DOUBLE_FREE free a3 (pointer 0x...): the runtime
 * refused it: ...". An incomplete check ends with "(incomplete check: the LOADMETA walk was cut short
 * ...)". Returns the length (truncated to cap - 1). The file is the finding's origin; trace_name is
 * used only when it has none (may be NULL). */
int ga_replay_format_detection(const ga_replay_t *rp, const char *trace_name, const ga_detection_t *d,
                               char *buf, size_t cap);

void ga_replay_destroy(ga_replay_t *rp); /* NULL is a no-op */

#endif /* GA_REPLAY_H */
