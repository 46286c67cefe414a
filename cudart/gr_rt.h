/*
 * gr_rt.h — the state of the replacement CUDA runtime (libcudart.so.13) and the helpers its
 * entry points share (docs/emulator.md §3). Internal to cudart/: of what it declares, the library
 * exports only the CUDA entry points at the end (the version script hides the rest).
 *
 * One process has one runtime: the CUDA runtime API has no context argument, so its state is one
 * file-scope object in gr_rt.c (the only one in the library), reached through gr_enter(), which
 * takes the runtime's single mutex (every exported entry point runs under it: the emulator is not
 * thread-safe) and initialises the runtime on first use: options from GPUARMOR_ARGS (or the
 * emulator's defaults), the log file, the device (emu_create).
 *
 * Semantics shared by every call (docs/emulator.md §3.3): synchronous (a launch or copy is finished
 * when the call returns); a failing call records its error as the last error, which
 * cudaGetLastError returns and clears; a sticky error (a failed launch) makes every later call
 * return it until cudaDeviceReset; after the library's destructor has run, calls return
 * cudaErrorCudartUnloading.
 */
#ifndef GR_RT_H
#define GR_RT_H

#include "emu.h"
#include "gr_errors.h"
#include "gr_fatbin.h"
#include "gr_map.h"
#include "gr_opts.h"

#include <cuda_profiler_api.h>
#include <cuda_runtime_api.h>

#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

/* Exit status of a program the runtime stops (unsupported call, unusable fatbinary, a module that
 * does not load, an emulator limit or bug): 125, which no shell convention uses (126/127 are "not
 * executable" / "not found", above 128 are signals). */
#define GR_EXIT_STOP 125

/* Managed allocations listed by the host SIGSEGV message (the rest are counted). */
#define GR_MANAGED_SHOWN 8

/* Value flags of rt->dev_allocs. */
#define GR_ALLOC_MANAGED UINT64_C(1)

struct gr_module;

typedef struct gr_kernel {
    struct gr_module *mod;
    const void *host_fun; /* the host stub __cudaRegisterFunction named */
    char *name;           /* the PTX (mangled) name */
    emu_kernel_t *k;      /* NULL while the module is not loaded, or when the PTX lacks it */
    int max_dyn_shmem;    /* cudaFuncAttributeMaxDynamicSharedMemorySize */
    int carveout;         /* cudaFuncAttributePreferredSharedMemoryCarveout, -1 = default */
} gr_kernel_t;

typedef struct gr_var {
    struct gr_module *mod;
    const void *host_var; /* the host shadow the program passes as `symbol` */
    char *name;
    size_t size;
    bool constant;
} gr_var_t;

typedef struct gr_module {
    unsigned index;          /* registration order: the n of "prog:fatbin#n" */
    gr_ptx_t ptx;            /* the PTX entry chosen from the fatbinary */
    char name[96];
    emu_module_t *em;        /* NULL when not loaded */
    emu_status_t load_status;/* of the last load attempt (EMU_OK: loaded, or not tried yet) */
    char load_msg[1024];
    bool ended;              /* __cudaRegisterFatBinaryEnd seen */
    bool unregistered;       /* __cudaUnregisterFatBinary seen */
    gr_kernel_t **kernels;
    size_t nkernels, kcap;
    gr_var_t **vars;
    size_t nvars, vcap;
} gr_module_t;

typedef struct {
    dim3 grid, block;
    size_t shmem;
    cudaStream_t stream;
    pthread_t thread; /* each host thread pops its own pushes */
} gr_callcfg_t;

typedef struct {
    unsigned flags;
    bool recorded;
    struct timespec when; /* CLOCK_MONOTONIC at the last record: launches are synchronous, so the
                             host time between two records is the time of the work between them */
} gr_event_t;

typedef struct {
    unsigned flags;
    int priority;
} gr_stream_t;

typedef struct {
    pthread_mutex_t lock;
    bool inited, finished;
    gr_opts_t opts;
    char *args_buf;         /* the split copy of GPUARMOR_ARGS that opts' strings point into */
    char **args_argv;
    char *log_path;         /* --log-file with %p expanded */
    FILE *log;              /* the opened log file, or NULL (stderr) */
    char *status_path;      /* GPUARMOR_STATUS, or NULL */
    char prog[64];          /* the program's file name, for messages (truncated) */
    emu_dev_t *dev;
    emu_props_t props;
    cudaError_t last_error; /* the last error of a failed call (not cleared by later successes) */
    cudaError_t sticky;     /* cudaSuccess, or the error every call returns until a reset */
    gr_module_t **mods;
    size_t nmods, mcap;
    gr_map_t kernels;       /* gr_kernel_t * -> 1: the valid cudaKernel_t handles */
    gr_map_t by_host_fun;   /* host stub -> gr_kernel_t * */
    gr_map_t by_host_var;   /* host shadow -> gr_var_t * */
    gr_map_t dev_allocs;    /* device pointer from cudaMalloc* -> GR_ALLOC_* flags */
    gr_map_t host_allocs;   /* pointer from cudaMallocHost / cudaHostAlloc -> size */
    gr_map_t events;        /* gr_event_t * -> 1 */
    gr_map_t streams;       /* gr_stream_t * -> 1 */
    gr_callcfg_t *cfgs;     /* the launch configuration stack (__cudaPushCallConfiguration) */
    size_t ncfgs, cfgcap;
    unsigned device_flags;  /* cudaSetDeviceFlags */
    int cache_config;       /* cudaDeviceSetCacheConfig (a hint: recorded, not used) */
    size_t limit_stack;     /* cudaLimitStackSize as set (at most the configured --stack-size) */
    size_t limit_printf_fifo, limit_malloc_heap; /* cudaDeviceSetLimit values (capacities the
                                                    interpreter does not have: recorded) */
    /* Read by the SIGSEGV handler, so written only whole and before the count is raised. */
    struct {
        uint64_t ptr, size;
    } managed[GR_MANAGED_SHOWN];
    volatile sig_atomic_t nmanaged;
    bool segv_installed;
} gr_rt_t;

/* Lock the runtime, initialise it on first use, return it. Never returns NULL: a failed
 * initialisation stops the program (exit 2 for a bad GPUARMOR_ARGS, GR_EXIT_STOP otherwise). */
gr_rt_t *gr_enter(void);
void gr_leave(gr_rt_t *rt);

/* cudaErrorCudartUnloading after the destructor, the sticky error if any, else cudaSuccess. */
cudaError_t gr_gate(const gr_rt_t *rt);

/* Record e as the last error when it is not cudaSuccess; returns e. */
cudaError_t gr_err(gr_rt_t *rt, cudaError_t e);

/* Unlock and return e after recording it (the common tail of an entry point). */
cudaError_t gr_ret(gr_rt_t *rt, cudaError_t e);

/* "gpuarmor: " + message + newline, to the log (the --log-file, else stderr). */
void gr_msg(gr_rt_t *rt, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Stop the program: the message (also on stderr when the log is a file), then exit(code) with the
 * lock released, so the program's atexit handlers and the library's destructor (ERROR SUMMARY, the
 * status file) still run. Must be called with the lock held. */
_Noreturn void gr_stop(gr_rt_t *rt, int code, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* The unsupported-call stop: "gpuarmor: unsupported CUDA runtime call NAME ..." and exit
 * GR_EXIT_STOP. Takes the lock itself (called by the generated stubs). */
_Noreturn void gr_unsupported_call(const char *name);

/* Apply a mapped emulator result: a sticky error is remembered, a stop stops the program with what
 * (the emulator's message); returns m.err. */
cudaError_t gr_apply(gr_rt_t *rt, gr_mapped_t m, const char *what);

/* The backend registry of this library (cudart/gr_backends.c: NULL, the model only, in the plain
 * library; model and "rtl" in the RTL library). */
const ga_backend_def_t *const *gr_backends(void);

/* Host pointer sanity (docs/emulator.md §3.5): p .. p+n-1 must be an address the host can
 * dereference: not NULL (unless n is 0), no wrap, canonical user space (below 2^47 on x86-64, 2^48
 * elsewhere; GPUArmor's tagged device pointers are above). */
bool gr_host_range_ok(const void *p, size_t n);

/* Whether p lies inside a live device allocation or module variable (emu_alloc_find). */
bool gr_is_device(gr_rt_t *rt, const void *p);

/* The valid stream handles: 0, cudaStreamLegacy, cudaStreamPerThread and ours. */
bool gr_stream_ok(const gr_rt_t *rt, cudaStream_t s);

/* Find a kernel by host stub or by cudaKernel_t handle; NULL if neither. */
gr_kernel_t *gr_kernel_of(gr_rt_t *rt, const void *func);

/* Make sure m is loaded (again, after a reset); stops the program if it cannot be (the module's
 * PTX failed to load). false when the module was unregistered. */
bool gr_module_ready(gr_rt_t *rt, gr_module_t *m);

/* cudaDeviceReset's device part: unload every module (they load again on next use). */
void gr_modules_reset(gr_rt_t *rt);

/* The device address of [offset, offset + count) of the module variable whose host shadow is sym:
 * cudaErrorInvalidSymbol for an unknown symbol, cudaErrorInvalidValue when the range is not inside
 * the variable (gr_reg.c; used by the symbol copies). */
cudaError_t gr_symbol_range(gr_rt_t *rt, const void *sym, size_t count, size_t offset, uint64_t *addr);

/* Remember / forget a managed allocation for the SIGSEGV message; installs the handler on first use
 * when the program has none. */
void gr_managed_add(gr_rt_t *rt, uint64_t ptr, uint64_t size);
void gr_managed_del(gr_rt_t *rt, uint64_t ptr);

/* Free everything registration made (the destructor). */
void gr_modules_free(gr_rt_t *rt);

/* The registration and launch entry points (gr_reg.c) as the compiler-generated code calls them;
 * NVIDIA declares them only for C++ (crt/host_runtime.h, crt/device_functions.h). */
void **__cudaRegisterFatBinary(void *fatCubin);
void __cudaRegisterFatBinaryEnd(void **fatCubinHandle);
void __cudaUnregisterFatBinary(void **fatCubinHandle);
void __cudaRegisterVar(void **fatCubinHandle, char *hostVar, char *deviceAddress, const char *deviceName, int ext,
                       size_t size, int constant, int global);
void __cudaRegisterManagedVar(void **fatCubinHandle, void **hostVarPtrAddress, char *deviceAddress,
                              const char *deviceName, int ext, size_t size, int constant, int global);
char __cudaInitModule(void **fatCubinHandle);
void __cudaRegisterFunction(void **fatCubinHandle, const char *hostFun, char *deviceFun, const char *deviceName,
                            int thread_limit, uint3 *tid, uint3 *bid, dim3 *bDim, dim3 *gDim, int *wSize);
unsigned __cudaPushCallConfiguration(dim3 gridDim, dim3 blockDim, size_t sharedMem, struct CUstream_st *stream);
cudaError_t __cudaPopCallConfiguration(dim3 *gridDim, dim3 *blockDim, size_t *sharedMem, void *stream);
cudaError_t __cudaGetKernel(cudaKernel_t *kernel, const void *hostFun);
cudaError_t __cudaLaunchKernel(cudaKernel_t kernel, dim3 gridDim, dim3 blockDim, void **args, size_t sharedMem,
                               cudaStream_t stream);
cudaError_t __cudaLaunchKernel_ptsz(cudaKernel_t kernel, dim3 gridDim, dim3 blockDim, void **args,
                                    size_t sharedMem, cudaStream_t stream);
/* Exported by NVIDIA's libcudart.so.13 but declared in no header: unsupported stops here. */
void __cudaRegisterHostVar(void);
void __cudaRegisterUnifiedTable(void);
void __cudaGetProcAddress(void);

#endif /* GR_RT_H */
