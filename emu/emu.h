/*
 * emu.h — a simulated GPU that runs PTX kernels on the CPU with GPUArmor in the loop
 * (docs/emulator.md). This is the interface the replacement CUDA runtime (cudart/, built as
 * libcudart.so.13) calls; everything device-side lives behind it:
 *
 *   - device memory: allocations made through the GPUArmor runtime wrappers (spec §7, paper §6.1), so
 *     the program receives tagged pointers and the metadata lives in the simulated device memory in
 *     the chosen layout; module variables (.global, .const) are allocations of the same runtime;
 *   - modules: PTX text parsed once (ptx/), instrumented in compiler mode (LOADMETA / MEMCHECK.G /
 *     MEMCHECK.S, docs/compiler.md), decoded for the interpreter;
 *   - launches: warps of 32 lanes in SIMT lockstep (reconvergence at immediate post-dominators), CTAs
 *     spread over `sms` simulated SMs, each SM with its own MLU (golden model, or the RTL in lockstep);
 *   - reports in the form NVIDIA Compute Sanitizer users know, an ERROR SUMMARY at the end, and an
 *     optional gatrace capture of the run (docs/traces.md) that gasim and the RTL replay.
 *
 * One emu_dev_t is one device. Not thread-safe: the runtime serialises calls. All state is in the
 * device: no globals.
 */
#ifndef EMU_H
#define EMU_H

#include "ga_backend.h"
#include "ga_system.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef enum {
    EMU_ARMOR_OFF = 0,      /* no GPUArmor: plain PTX, tags still stripped by the memory system */
    EMU_ARMOR_COMPILER = 1, /* instrumented PTX: LOADMETA / MEMCHECK.G / MEMCHECK.S run on the MLUs */
    EMU_ARMOR_HWONLY = 2    /* original PTX, every global access checked by the MLU (spec §5.4) */
} emu_armor_t;

typedef struct {
    unsigned sms;                 /* simulated SMs, 1 .. GA_SYSTEM_MAX_SMS; default 4 */
    emu_armor_t armor;            /* default EMU_ARMOR_COMPILER */
    ga_layout_t layout;           /* default BST */
    unsigned mlb_entries;         /* 1 .. 64, default 8 */
    unsigned tag_bits;            /* 7 or 16, default 7 */
    ga_policy_t policy;           /* default REPORT: report and resume */
    uint64_t seed;                /* the runtime's tag seed, default 1 */
    uint32_t step_limit;          /* walk bound, 0: the reset value (65 536) */
    bool tag_neighbour_distinct;  /* spec §7.6.1, default off */
    uint32_t tag_quarantine;      /* spec §7.6.2, default 0 (off) */
    uint64_t max_instructions;    /* warp instructions per launch before it is stopped as hung;
                                     0: unlimited; default 2^32 */
    uint32_t stack_bytes;         /* per-thread local memory (call frames and .local), default 64 KiB */
    bool rtl;                     /* every MLU operation also on the Verilated RTL, checked in lockstep
                                     (only in the RTL build of the runtime; elsewhere emu_create fails
                                     with a message saying which target builds it) */
    const ga_backend_def_t *const *backends; /* the program's backend registry (cmodel/ga_backend.h);
                                     NULL: the model only. The runtime library sets it from its
                                     registration object (cudart/gr_backends.c) */
    const char *trace_out;        /* write a gatrace of the run here (.gz: gzip); NULL: none */
    FILE *log;                    /* where reports go; NULL: stderr */
    uint32_t print_limit;         /* detections printed in full; 0: unlimited; default 100 (all are
                                     counted in the summary) */
    const char *json_out;         /* a JSON report of the run at the end; NULL: none */
    const char *ptx_dump_dir;     /* write each module's PTX as loaded and as executed (instrumented)
                                     into this directory; NULL: none */
    bool quiet;                   /* no banner or summary when nothing was detected */
    uint32_t md_capacity;         /* metadata nodes / table slots of the runtime; 0: its default (1 Mi;
                                     the table layout zero-fills 16 bytes per slot at creation) */
    bool ga_software;             /* the three functions of the calling convention (__ga_loadmeta,
                                     __ga_memcheck_g, __ga_memcheck_s) run their PTX bodies, the
                                     software-only GPUArmor of `gaptx instrument` (docs/compiler.md
                                     §4.2), instead of being MLU requests; for testing those bodies
                                     (tests/test_garuntime.c); default off */
} emu_cfg_t;

void emu_default_cfg(emu_cfg_t *cfg);

/* Results of device operations. The runtime maps them to cudaError_t (docs/emulator.md §3). */
typedef enum {
    EMU_OK = 0,
    EMU_ERR_INVALID_VALUE,     /* a bad argument: null, size 0 where not allowed, unknown kernel */
    EMU_ERR_NO_MEMORY,         /* the simulated heap or metadata region is full */
    EMU_ERR_INVALID_POINTER,   /* a device pointer that names no allocation (copies, memset) */
    EMU_ERR_BAD_FREE,          /* double free, interior pointer, unknown pointer, wrong tag (reported) */
    EMU_ERR_INVALID_CONFIG,    /* launch shape: zero or too many blocks/threads, too much shared memory */
    EMU_ERR_LAUNCH_FAILED,     /* the kernel was stopped: GPUArmor TERMINATE, trap, illegal address */
    EMU_ERR_TIMEOUT,           /* max_instructions reached (a hang) */
    EMU_ERR_UNSUPPORTED,       /* the PTX uses something the interpreter does not implement (named) */
    EMU_ERR_INVALID_PTX,       /* the module does not parse, or fails the analysis */
    EMU_ERR_NOT_FOUND,         /* no such kernel or variable */
    EMU_ERR_STACK_OVERFLOW,    /* call depth or local memory beyond stack_bytes */
    EMU_ERR_INTERNAL,          /* a bug of ours or of the RTL lockstep (a mismatch) */
    EMU_ERR_ASSERT             /* a device-side assert() failed (cudaErrorAssert) */
} emu_status_t;

const char *emu_status_name(emu_status_t s); /* "EMU_ERR_TIMEOUT" */

typedef struct emu_dev emu_dev_t;
typedef struct emu_module emu_module_t;
typedef struct emu_kernel emu_kernel_t;

/* Create a device. Returns EMU_OK, or an error with msg[cap] saying why (a bad configuration, the RTL
 * backend not built, the trace file not writable). */
emu_status_t emu_create(const emu_cfg_t *cfg, emu_dev_t **out, char *msg, size_t cap);

/* End the run: the RTL backend's final lockstep check (an error when it failed), the ERROR SUMMARY
 * line, the JSON report, the trace's end record (the trace is renamed into place). Returns the final
 * error count. Later calls do nothing and return the same count. */
uint64_t emu_finish(emu_dev_t *d);

/* emu_finish if not done yet, then free everything (modules, their variables, allocations). */
void emu_destroy(emu_dev_t *d);

/* Forget a failed launch (cudaDeviceReset): later launches run again and every SM's MLU leaves the
 * halted state of the TERMINATE policy. Memory and modules are kept. */
void emu_clear_sticky(emu_dev_t *d);

/* Errors reported so far (detections, bad frees, illegal addresses, failed launches). */
uint64_t emu_error_count(const emu_dev_t *d);

/* Load a module from PTX text (need not be NUL-terminated). name names it in messages (e.g.
 * "prog:fatbin#0"). Parsing, instrumentation (compiler mode) and decoding happen here, so every
 * unsupported construct is found before the first launch: EMU_ERR_INVALID_PTX / EMU_ERR_UNSUPPORTED
 * with msg = "name:line:col: ...". Module variables are allocated and initialised now. */
emu_status_t emu_module_load(emu_dev_t *d, const char *name, const char *ptx, size_t len,
                             emu_module_t **out, char *msg, size_t cap);
/* Unload: frees its variables (through the runtime). Kernels of it become invalid. */
void emu_module_unload(emu_dev_t *d, emu_module_t *m);

/* The module's kernels (.entry functions with a body), in the order the PTX defines them. */
unsigned emu_module_nkernels(const emu_module_t *m);
emu_kernel_t *emu_module_kernel(emu_module_t *m, unsigned i); /* NULL for i out of range */

/* A kernel (.entry) by its PTX (mangled) name; NULL when there is none. */
emu_kernel_t *emu_kernel_find(emu_module_t *m, const char *name);
const char *emu_kernel_name(const emu_kernel_t *k);
/* Parameters as the kernel declares them: count, and each one's size and alignment in bytes. */
unsigned emu_kernel_nparams(const emu_kernel_t *k);
void emu_kernel_param(const emu_kernel_t *k, unsigned i, uint32_t *size, uint32_t *align);

/* A module variable (.global or .const) by name: its device address (tagged) and size. */
emu_status_t emu_var_find(emu_module_t *m, const char *name, uint64_t *addr, uint64_t *size);

/* Device memory, host side. Addresses are device pointers as the program holds them (tags are
 * ignored for the lookup). A range that is not wholly inside one live allocation or module variable
 * is EMU_ERR_INVALID_POINTER, reported, and nothing is copied. */
emu_status_t emu_malloc(emu_dev_t *d, uint64_t size, uint64_t *ptr);
emu_status_t emu_free(emu_dev_t *d, uint64_t ptr); /* 0 is a no-op; bad frees are reported */
emu_status_t emu_write(emu_dev_t *d, uint64_t dst, const void *src, uint64_t n);
emu_status_t emu_read(emu_dev_t *d, void *dst, uint64_t src, uint64_t n);
emu_status_t emu_copy(emu_dev_t *d, uint64_t dst, uint64_t src, uint64_t n);
emu_status_t emu_set(emu_dev_t *d, uint64_t dst, uint8_t value, uint64_t n);
/* Simulated heap bytes free and in total. */
void emu_mem_info(const emu_dev_t *d, uint64_t *free_bytes, uint64_t *total_bytes);
/* The allocation containing ptr (tags ignored): its base pointer as returned to the program and its
 * size; false if none. */
bool emu_alloc_find(const emu_dev_t *d, uint64_t ptr, uint64_t *base, uint64_t *size);

typedef struct {
    uint32_t x, y, z;
} emu_dim3_t;

/* Run a kernel to completion (launches are synchronous). args[i] points to the i-th parameter's
 * value (as cudaLaunchKernel passes them); the kernel's parameter sizes say how many bytes to take.
 * shmem is the dynamic shared memory in bytes. Errors are reported (and counted) by the device and
 * returned: EMU_ERR_INVALID_CONFIG (nothing ran), EMU_ERR_LAUNCH_FAILED, EMU_ERR_TIMEOUT,
 * EMU_ERR_UNSUPPORTED, EMU_ERR_STACK_OVERFLOW; msg[cap] has a one-line reason. */
emu_status_t emu_launch(emu_dev_t *d, emu_kernel_t *k, emu_dim3_t grid, emu_dim3_t block, uint64_t shmem,
                        void *const *args, char *msg, size_t cap);

/* Device properties the runtime reports (cudaGetDeviceProperties): what the interpreter enforces. */
typedef struct {
    unsigned sms;
    uint32_t max_threads_per_block;   /* 1024 */
    uint32_t max_block_dim[3];        /* 1024, 1024, 64 */
    uint32_t max_grid_dim[3];         /* 2^31-1, 65535, 65535 */
    uint32_t shared_per_block;        /* 48 KiB static + dynamic without opt-in */
    uint32_t shared_per_block_optin;  /* 163 KiB (GA100: 164 KiB per SM, 1 KiB reserved) */
    uint32_t warp_size;               /* 32 */
    uint64_t total_global;            /* the simulated heap */
    uint32_t major, minor;            /* 8, 0 */
} emu_props_t;
void emu_props(const emu_dev_t *d, emu_props_t *p);

/* Counters of the last launch and of the whole run (docs/emulator.md §5). */
typedef struct {
    uint64_t launches;
    uint64_t warp_insns;      /* warp instructions executed (one per issue, whatever the mask) */
    uint64_t thread_insns;    /* active lanes summed over every issued instruction */
    uint64_t ga_insns;        /* of the thread instructions: the instrumentation's (LOADMETA, MEMCHECK
                                 and the MOVs that carry metadata locations; docs/compiler.md §5) */
    uint64_t ga_overhead;     /* ... and the calling convention around them (st.param, ld.param) */
    uint64_t loadmeta, memcheck_g, memcheck_s, hw_checks; /* MLU requests issued */
    uint64_t memcheck_g_full, memcheck_g_partial, memcheck_g_tagging; /* by the root's class */
    uint64_t detections;      /* faulting MLU operations */
    uint64_t illegal_accesses;/* accesses outside every allocation (not caught by GPUArmor) */
} emu_counters_t;
void emu_counters(const emu_dev_t *d, emu_counters_t *total, emu_counters_t *last_launch);

/* The MLU statistics summed over SMs (MLB hits, walks, reads), for reports. */
ga_mlu_stats_t emu_mlu_stats(const emu_dev_t *d);

#endif /* EMU_H */
