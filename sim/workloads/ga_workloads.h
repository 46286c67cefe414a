/*
 * ga_workloads.h — seeded synthetic stand-ins for the GPUArmor paper's workloads (docs/workloads.md).
 *
 * These are NOT the paper's applications. Each stand-in is built from the statistics the paper
 * publishes about one workload (Table 2: instructions, allocations, footprint; §3.2: global accesses
 * about 6 % of instructions, median allocation sizes 256 B .. 236 MB with about a quarter under 4 KiB,
 * up to 1 184 live allocations, allocation working sets under 8) plus our own documented choices where
 * the paper gives a range or a figure without per-workload numbers. A second group stands in for the
 * "broader set" of §9.2 / Fig 13, including working sets above 8 like the paper's sp and sssp; its
 * parameters are our invention within the ranges the paper states.
 *
 * A workload is produced as an event stream through a callback (ga_wl_sink_fn): allocations, frees,
 * kernels, the compiler's LOADMETAs, warp-wide global accesses annotated with the allocation they are
 * derived from and the compiler's root pointer, and warp-wide shared-memory accesses. Pointers are
 * expressed as (allocation, offset): the consumer binds each allocation to the runtime's tagged
 * pointer. The stream is a pure function of (spec, options): the same seed gives the same events.
 * No globals; the generator holds its state in a context it frees before returning.
 */
#ifndef GA_WORKLOADS_H
#define GA_WORKLOADS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The paper's largest object, 1.7 GB (§3.2), as our cap on one allocation: 1 700 MiB. */
#define GA_WL_MAX_OBJECT (UINT64_C(1700) << 20)
/* Smallest allocation we generate: 256 B, CUDA's allocation granule (§3.2). */
#define GA_WL_MIN_OBJECT 256u
/* Global accesses per warp (our choice; the warp's LOADMETAs are amortised over them). */
#define GA_WL_ACCESSES_PER_WARP 32u
/* Warps per thread block (our choice: 256-thread blocks); a block's warps run on one SM and share
 * their allocations. */
#define GA_WL_WARPS_PER_BLOCK 8u

typedef enum {
    GA_WL_TABLE2 = 0, /* one of the 28 workloads of Table 2 */
    GA_WL_BROADER = 1 /* a stand-in for Fig 13's broader set (parameters invented within its ranges) */
} ga_wl_group_t;

/* One workload's targets. The first four fields are the paper's (Table 2) for the TABLE2 group. */
typedef struct {
    const char *name;
    ga_wl_group_t group;
    double instr_m;        /* dynamic warp instructions, millions (Table 2) */
    uint32_t allocs;       /* allocations over the whole run (Table 2) */
    double footprint_mib;  /* sum of the allocation sizes, MiB (Table 2, read as MiB) */
    uint64_t median;       /* median allocation size, bytes (our per-workload reading of Fig 3);
                              for one allocation it equals the footprint */
    uint32_t temps;        /* allocations that live for one kernel only (the rest live for the whole
                              run); live allocations peak at allocs - temps + (temps > 0) */
    uint32_t ws;           /* allocation working set: distinct allocations one warp touches (Fig 4) */
    uint32_t kernels;      /* kernel launches (>= temps + 1) */
    uint32_t esize;        /* bytes per lane access: 4 or 8 */
    double global_frac;    /* global memory instructions / all instructions (§3.2: 6 % on average) */
    double shared_frac;    /* shared memory instructions / all instructions (§3.2: about 6 %) */
} ga_wl_spec_t;

/* The built-in workloads: the 28 of Table 2 in its order, then the broader group. */
const ga_wl_spec_t *ga_wl_specs(size_t *count);
/* The spec named name (exact match), or NULL. */
const ga_wl_spec_t *ga_wl_find(const char *name);

/* The compiler's root pointer for an access (paper §6.2, Fig 8). */
typedef enum {
    GA_WL_ROOT_BASE = 0,     /* the allocation's base: full base-and-bounds (Fig 8: 55.5 %) */
    GA_WL_ROOT_INTERIOR = 1, /* a fixed non-base address inside the allocation (Fig 8: 36 %) */
    GA_WL_ROOT_ADDRESS = 2   /* the accessed address itself: memory-tagging detection (Fig 8: 8.5 %);
                                the LSU coalesces the warp's LOADMETA (§5.2), so one LOADMETA of the
                                lowest active lane's address precedes each such access */
} ga_wl_root_t;

typedef enum {
    GA_WEV_ALLOC = 0, /* alloc: id, bytes */
    GA_WEV_FREE,      /* free: id */
    GA_WEV_KERNEL,    /* a kernel begins: kernel, name */
    GA_WEV_END,       /* the kernel ends: kernel, instr */
    GA_WEV_LOADMETA,  /* the compiler's LOADMETA of root (id, root_off) in (sm, warp) */
    GA_WEV_GLOBAL,    /* a warp-wide global access */
    GA_WEV_SHARED,    /* a warp-wide shared access */
    GA_WEV_KINDS
} ga_wev_kind_t;

/* One event. Fields not listed for a kind are zero. */
typedef struct {
    ga_wev_kind_t kind;
    uint32_t id;           /* ALLOC, FREE: allocation id (0 .. allocs-1, each allocated once);
                              LOADMETA, GLOBAL: the allocation the pointer is derived from */
    uint64_t bytes;        /* ALLOC: size */
    uint32_t kernel;       /* KERNEL, END and every in-kernel event: kernel index */
    const char *name;      /* KERNEL: "<workload>_k<index>" (valid during the callback only) */
    uint64_t instr;        /* END: warp instructions the kernel executed, memory ones included
                              (LOADMETAs, which are instrumentation, are not counted) */
    uint16_t sm, warp;     /* in-kernel events: SM (0 .. sms-1) and warp within the SM */
    ga_wl_root_t root;     /* LOADMETA, GLOBAL */
    uint64_t root_off;     /* LOADMETA, GLOBAL with BASE/INTERIOR root: root = ptr(id) + root_off */
    bool store;            /* GLOBAL, SHARED */
    uint32_t size;         /* GLOBAL, SHARED: bytes per lane (esize) */
    uint32_t mask;         /* GLOBAL, SHARED: active lanes (bit l = lane l) */
    uint64_t off;          /* GLOBAL: lane l's address is ptr(id) + off + l * size (in bounds) */
    uint32_t sbase, ssize; /* SHARED: the shared allocation (MEMCHECK.S Rb, Rc) */
    uint32_t saddr;        /* SHARED: lane l's address is saddr + l * size (in bounds) */
} ga_wev_t;

/* Receives every event in order; a non-zero return stops the generator, which returns that value. */
typedef int (*ga_wl_sink_fn)(void *ctx, const ga_wev_t *ev);

typedef struct {
    double scale;   /* simulated instructions = instr_m * 1e6 * scale (docs/workloads.md) */
    uint64_t seed;  /* the stream's seed */
    unsigned sms;   /* SMs the warps are spread over, 1 .. 65 535 */
} ga_wl_opts_t;

/* What the stream contained (filled by ga_wl_generate whatever the sink did). */
typedef struct {
    uint32_t allocs, frees, kernels;
    uint64_t footprint;        /* sum of allocation sizes, bytes */
    uint64_t median, max_size; /* lower median (element (n-1)/2 of the sorted sizes) and maximum */
    uint32_t small_allocs;     /* allocations under 4 KiB */
    uint32_t live_max;         /* most allocations live at once */
    uint64_t live_bytes_max;   /* most bytes live at once */
    uint32_t ws_max;           /* most distinct allocations one warp accessed */
    uint64_t instr;            /* sum of END instr */
    uint64_t global, shared;   /* global and shared access events */
    uint64_t loadmeta;         /* LOADMETA events (BASE and INTERIOR roots, one per warp per root) */
    uint64_t root_kind[3];     /* global accesses by ga_wl_root_t */
    uint64_t warps;            /* warps launched over all kernels */
} ga_wl_summary_t;

/* Generate the stream of spec with options o, calling sink for every event (sink may be NULL: only the
 * summary is computed). Returns 0, the sink's non-zero value, or -1 for a bad argument (NULL spec or
 * o, scale <= 0 or > 1, sms 0, an inconsistent spec: allocs 0, kernels <= temps, ws 0, esize not 4/8,
 * a median that the footprint cannot carry) or host memory exhaustion. *sum (may be NULL) is filled
 * in every case with what was generated up to the stop. */
int ga_wl_generate(const ga_wl_spec_t *spec, const ga_wl_opts_t *o, ga_wl_sink_fn sink, void *ctx,
                   ga_wl_summary_t *sum);

/* The allocation sizes a spec gets with a seed (the same as ga_wl_generate's ALLOC events, by id),
 * written to sizes[0 .. spec->allocs). Returns 0 or -1 (bad spec). */
int ga_wl_sizes(const ga_wl_spec_t *spec, uint64_t seed, uint64_t *sizes);

#endif /* GA_WORKLOADS_H */
