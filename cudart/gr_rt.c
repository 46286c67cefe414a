/*
 * gr_rt.c — the runtime's one state object, its lock, initialisation from GPUARMOR_ARGS, the
 * destructor that ends the run (ERROR SUMMARY through emu_destroy, the error count into the status
 * file of gpuarmor-run), messages, the program stop, and the host SIGSEGV hint for managed memory.
 */
#include "gr_rt.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The single file-scope object of the library (gr_rt.h says why). Everything else takes it as an
 * argument. */
static gr_rt_t gr_the_rt = {.lock = PTHREAD_MUTEX_INITIALIZER};

/* Every cudaError_t the runtime returns by its own GR_E_* name is NVIDIA's value. */
_Static_assert((int)GR_E_INVALID_VALUE == (int)cudaErrorInvalidValue, "cudaError_t");
_Static_assert((int)GR_E_MEMORY_ALLOCATION == (int)cudaErrorMemoryAllocation, "cudaError_t");
_Static_assert((int)GR_E_CUDART_UNLOADING == (int)cudaErrorCudartUnloading, "cudaError_t");
_Static_assert((int)GR_E_INVALID_CONFIGURATION == (int)cudaErrorInvalidConfiguration, "cudaError_t");
_Static_assert((int)GR_E_INVALID_SYMBOL == (int)cudaErrorInvalidSymbol, "cudaError_t");
_Static_assert((int)GR_E_INVALID_MEMCPY_DIRECTION == (int)cudaErrorInvalidMemcpyDirection, "cudaError_t");
_Static_assert((int)GR_E_MISSING_CONFIGURATION == (int)cudaErrorMissingConfiguration, "cudaError_t");
_Static_assert((int)GR_E_INVALID_DEVICE_FUNCTION == (int)cudaErrorInvalidDeviceFunction, "cudaError_t");
_Static_assert((int)GR_E_INVALID_DEVICE == (int)cudaErrorInvalidDevice, "cudaError_t");
_Static_assert((int)GR_E_INVALID_PTX == (int)cudaErrorInvalidPtx, "cudaError_t");
_Static_assert((int)GR_E_INVALID_RESOURCE_HANDLE == (int)cudaErrorInvalidResourceHandle, "cudaError_t");
_Static_assert((int)GR_E_NOT_READY == (int)cudaErrorNotReady, "cudaError_t");
_Static_assert((int)GR_E_ILLEGAL_ADDRESS == (int)cudaErrorIllegalAddress, "cudaError_t");
_Static_assert((int)GR_E_ASSERT == (int)cudaErrorAssert, "cudaError_t");
_Static_assert((int)GR_E_LAUNCH_TIMEOUT == (int)cudaErrorLaunchTimeout, "cudaError_t");
_Static_assert((int)GR_E_HARDWARE_STACK_ERROR == (int)cudaErrorHardwareStackError, "cudaError_t");
_Static_assert((int)GR_E_LAUNCH_FAILURE == (int)cudaErrorLaunchFailure, "cudaError_t");
_Static_assert((int)GR_E_NOT_SUPPORTED == (int)cudaErrorNotSupported, "cudaError_t");
_Static_assert((int)GR_E_UNKNOWN == (int)cudaErrorUnknown, "cudaError_t");

static FILE *log_of(const gr_rt_t *rt) { return rt->log ? rt->log : stderr; }

static void vmsg(FILE *f, const char *fmt, va_list ap)
{
    fputs("gpuarmor: ", f);
    vfprintf(f, fmt, ap);
    fputc('\n', f);
    fflush(f);
}

void gr_msg(gr_rt_t *rt, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vmsg(log_of(rt), fmt, ap);
    va_end(ap);
}

_Noreturn void gr_stop(gr_rt_t *rt, int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vmsg(stderr, fmt, ap);
    va_end(ap);
    if (rt->log) {
        va_start(ap, fmt);
        vmsg(rt->log, fmt, ap);
        va_end(ap);
    }
    pthread_mutex_unlock(&rt->lock);
    exit(code);
}

/* The program's file name (for messages): /proc/self/exe on Linux, else "program". */
static void find_prog(gr_rt_t *rt)
{
    char path[4096];
    ssize_t n = readlink("/proc/self/exe", path, sizeof path - 1);
    const char *base = "program";
    if (n > 0) {
        path[n] = '\0';
        const char *slash = strrchr(path, '/');
        base = slash ? slash + 1 : path;
    }
    size_t n2 = strlen(base);
    if (n2 >= sizeof rt->prog)
        n2 = sizeof rt->prog - 1; /* long names are cut: messages only */
    memcpy(rt->prog, base, n2);
    rt->prog[n2] = '\0';
}

/* --log-file with every "%p" replaced by the process id and "%%" by "%" (as Compute Sanitizer). */
static char *expand_log_path(const char *p)
{
    size_t cap = strlen(p) * 10 + 32, o = 0;
    char *s = malloc(cap);
    if (!s)
        return NULL;
    for (; *p && o + 24 < cap; p++) {
        if (p[0] == '%' && p[1] == 'p') {
            o += (size_t)snprintf(s + o, cap - o, "%ld", (long)getpid());
            p++;
        } else if (p[0] == '%' && p[1] == '%') {
            s[o++] = '%';
            p++;
        } else {
            s[o++] = *p;
        }
    }
    s[o] = '\0';
    return s;
}

static void init(gr_rt_t *rt)
{
    char msg[512];
    find_prog(rt);
    gr_map_init(&rt->kernels);
    gr_map_init(&rt->by_host_fun);
    gr_map_init(&rt->by_host_var);
    gr_map_init(&rt->dev_allocs);
    gr_map_init(&rt->host_allocs);
    gr_map_init(&rt->events);
    gr_map_init(&rt->streams);
    rt->cache_config = cudaFuncCachePreferNone;
    rt->limit_printf_fifo = 1u << 20;  /* CUDA's documented defaults: 1 MiB FIFO, 8 MiB heap */
    rt->limit_malloc_heap = 8u << 20;

    memset(&rt->opts, 0, sizeof rt->opts);
    emu_default_cfg(&rt->opts.cfg);
    const char *args = getenv(GR_ARGS_ENV);
    if (args && *args) {
        size_t len = strlen(args);
        int max = (int)len + 1; /* every byte a separator: len + 1 empty items */
        rt->args_buf = malloc(len + 1);
        rt->args_argv = calloc((size_t)max, sizeof *rt->args_argv);
        if (!rt->args_buf || !rt->args_argv)
            gr_stop(rt, GR_EXIT_STOP, "out of host memory");
        int n = gr_opts_split(args, rt->args_buf, len + 1, rt->args_argv, max);
        if (n < 0 || gr_opts_parse(&rt->opts, n, rt->args_argv, 0, GR_OPTS_LIBRARY, msg, sizeof msg) != 0)
            gr_stop(rt, 2, GR_ARGS_ENV ": %s", n < 0 ? "cannot split" : msg);
    }
    if (rt->opts.log_file) {
        rt->log_path = expand_log_path(rt->opts.log_file);
        rt->log = rt->log_path ? fopen(rt->log_path, "w") : NULL;
        if (!rt->log)
            gr_stop(rt, GR_EXIT_STOP, "--log-file %s: cannot open for writing: %s", rt->opts.log_file,
                    strerror(errno));
    }
    rt->opts.cfg.log = rt->log;
    const char *st = getenv(GR_STATUS_ENV);
    if (st && *st) {
        rt->status_path = strdup(st);
        if (!rt->status_path)
            gr_stop(rt, GR_EXIT_STOP, "out of host memory");
    }
    msg[0] = '\0';
    rt->opts.cfg.backends = gr_backends();
    emu_status_t s = emu_create(&rt->opts.cfg, &rt->dev, msg, sizeof msg);
    if (s != EMU_OK || !rt->dev)
        gr_stop(rt, GR_EXIT_STOP, "cannot create the emulated GPU (%s): %s", emu_status_name(s), msg);
    emu_props(rt->dev, &rt->props);
    rt->limit_stack = rt->opts.cfg.stack_bytes;
    rt->inited = true;
}

gr_rt_t *gr_enter(void)
{
    gr_rt_t *rt = &gr_the_rt;
    pthread_mutex_lock(&rt->lock);
    if (!rt->inited && !rt->finished)
        init(rt);
    return rt;
}

void gr_leave(gr_rt_t *rt) { pthread_mutex_unlock(&rt->lock); }

cudaError_t gr_gate(const gr_rt_t *rt)
{
    if (rt->finished)
        return cudaErrorCudartUnloading;
    return rt->sticky;
}

cudaError_t gr_err(gr_rt_t *rt, cudaError_t e)
{
    if (e != cudaSuccess)
        rt->last_error = e;
    return e;
}

cudaError_t gr_ret(gr_rt_t *rt, cudaError_t e)
{
    gr_err(rt, e);
    gr_leave(rt);
    return e;
}

cudaError_t gr_apply(gr_rt_t *rt, gr_mapped_t m, const char *what)
{
    if (m.stop)
        gr_stop(rt, GR_EXIT_STOP, "%s; stopping the program", what && *what ? what : "emulator error");
    if (m.sticky && rt->sticky == cudaSuccess)
        rt->sticky = (cudaError_t)m.err;
    return (cudaError_t)m.err;
}

_Noreturn void gr_unsupported_call(const char *name)
{
    gr_rt_t *rt = gr_enter();
    gr_stop(rt, GR_EXIT_STOP,
            "unsupported CUDA runtime call %s (the GPUArmor runtime implements the calls listed in "
            "docs/emulator.md section 3); stopping the program", name);
}

bool gr_host_range_ok(const void *p, size_t n)
{
#if defined(__x86_64__)
    const uint64_t top = UINT64_C(1) << 47; /* 4-level paging user space (Linux x86-64) */
#else
    const uint64_t top = UINT64_C(1) << 48;
#endif
    uint64_t a = (uint64_t)(uintptr_t)p;
    if (n == 0)
        return a < top;
    return a != 0 && a < top && (uint64_t)n <= top - a;
}

bool gr_is_device(gr_rt_t *rt, const void *p)
{
    uint64_t base, size;
    return p && rt->dev && emu_alloc_find(rt->dev, (uint64_t)(uintptr_t)p, &base, &size);
}

bool gr_stream_ok(const gr_rt_t *rt, cudaStream_t s)
{
    return s == NULL || s == cudaStreamLegacy || s == cudaStreamPerThread ||
           gr_map_get(&rt->streams, (uint64_t)(uintptr_t)s, NULL);
}

/* ---- the host SIGSEGV hint (managed memory) --------------------------------------------------- */

/* Async-signal-safe output: write(2) only, numbers formatted by hand. */
static void sig_puts(const char *s) { ssize_t r = write(STDERR_FILENO, s, strlen(s)); (void)r; }
static void sig_hex(uint64_t v)
{
    char b[19];
    int i = 18;
    b[i] = '\0';
    do {
        b[--i] = "0123456789abcdef"[v & 15u];
        v >>= 4;
    } while (v && i > 2);
    b[--i] = 'x';
    b[--i] = '0';
    sig_puts(b + i);
}
static void sig_dec(uint64_t v)
{
    char b[21];
    int i = 20;
    b[i] = '\0';
    do {
        b[--i] = (char)('0' + v % 10u);
        v /= 10u;
    } while (v);
    sig_puts(b + i);
}

/* Linux reports a non-canonical address (every tagged device pointer is one) as a general protection
 * fault: SIGSEGV with si_code SI_KERNEL (0x80) and no address. Installed with SA_RESETHAND, so on
 * return the access runs again under the default action and the process dies of SIGSEGV as it would
 * have without us; the handler only explains. */
static void segv_handler(int sig, siginfo_t *si, void *uc)
{
    (void)sig;
    (void)uc;
    const gr_rt_t *rt = &gr_the_rt;
#ifdef SI_KERNEL
    const int gp_fault = SI_KERNEL;
#else
    const int gp_fault = 0x80;
#endif
    if (si->si_code != gp_fault)
        return;
    sig_puts("gpuarmor: the host dereferenced a non-canonical address (SIGSEGV): most likely a device pointer. "
             "Under GPUArmor all device memory, cudaMallocManaged memory included, lives in the emulated GPU and "
             "the host cannot access it: copy it with cudaMemcpy.");
    int n = rt->nmanaged;
    if (n > 0) {
        sig_puts(" Managed allocations:");
        for (int i = 0; i < n && i < GR_MANAGED_SHOWN; i++) {
            sig_puts(" ");
            sig_hex(rt->managed[i].ptr);
            sig_puts(" (");
            sig_dec(rt->managed[i].size);
            sig_puts(" bytes)");
        }
        if (n > GR_MANAGED_SHOWN)
            sig_puts(" ...");
        sig_puts(".");
    }
    sig_puts("\n");
}

void gr_managed_add(gr_rt_t *rt, uint64_t ptr, uint64_t size)
{
    int n = rt->nmanaged;
    if (n < GR_MANAGED_SHOWN) {
        rt->managed[n].ptr = ptr;
        rt->managed[n].size = size;
    }
    atomic_signal_fence(memory_order_seq_cst); /* the entry is complete before the handler can count it */
    rt->nmanaged = n + 1;
    if (rt->segv_installed)
        return;
    rt->segv_installed = true;
    struct sigaction old;
    if (sigaction(SIGSEGV, NULL, &old) != 0 || (old.sa_flags & SA_SIGINFO) || old.sa_handler != SIG_DFL)
        return; /* the program (or a sanitizer) handles SIGSEGV itself: leave it alone */
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = segv_handler;
    sa.sa_flags = SA_SIGINFO | SA_RESETHAND;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGSEGV, &sa, NULL);
}

void gr_managed_del(gr_rt_t *rt, uint64_t ptr)
{
    int n = rt->nmanaged;
    int shown = n < GR_MANAGED_SHOWN ? n : GR_MANAGED_SHOWN;
    for (int i = 0; i < shown; i++)
        if (rt->managed[i].ptr == ptr) {
            /* Move the last shown entry down, then shrink: the handler may read either. */
            rt->managed[i] = rt->managed[shown - 1];
            atomic_signal_fence(memory_order_seq_cst);
            rt->nmanaged = n - 1;
            return;
        }
    if (n > GR_MANAGED_SHOWN)
        rt->nmanaged = n - 1; /* one of the unshown ones */
}

/* ---- the end of the run ---------------------------------------------------------------------- */

static void write_status(const gr_rt_t *rt, uint64_t errors)
{
    if (!rt->status_path)
        return;
    /* Appended, one line per process, so a program that runs several CUDA processes under one
     * launcher is summed (gpuarmor-run reads every line). */
    int fd = open(rt->status_path, O_WRONLY | O_APPEND);
    if (fd < 0)
        return;
    char line[64];
    int n = snprintf(line, sizeof line, "errors %llu\n", (unsigned long long)errors);
    ssize_t w = write(fd, line, (size_t)n);
    (void)w;
    close(fd);
}

static void fini(void) __attribute__((destructor));
static void fini(void)
{
    gr_rt_t *rt = &gr_the_rt;
    pthread_mutex_lock(&rt->lock);
    if (!rt->inited || rt->finished) {
        rt->finished = true;
        pthread_mutex_unlock(&rt->lock);
        return;
    }
    /* emu_finish ends the run (the RTL lockstep check, ERROR SUMMARY, JSON, trace) and gives the final
     * count; emu_destroy then frees the modules' variables and every allocation with the device. */
    uint64_t errors = emu_finish(rt->dev);
    emu_destroy(rt->dev);
    rt->dev = NULL;
    write_status(rt, errors);
    gr_modules_free(rt);
    size_t pos = 0;
    uint64_t key;
    while (gr_map_next(&rt->events, &pos, &key, NULL))
        free((void *)(uintptr_t)key);
    pos = 0;
    while (gr_map_next(&rt->streams, &pos, &key, NULL))
        free((void *)(uintptr_t)key);
    pos = 0;
    while (gr_map_next(&rt->host_allocs, &pos, &key, NULL))
        free((void *)(uintptr_t)key);
    gr_map_free(&rt->kernels);
    gr_map_free(&rt->by_host_fun);
    gr_map_free(&rt->by_host_var);
    gr_map_free(&rt->dev_allocs);
    gr_map_free(&rt->host_allocs);
    gr_map_free(&rt->events);
    gr_map_free(&rt->streams);
    free(rt->cfgs);
    rt->cfgs = NULL;
    rt->ncfgs = rt->cfgcap = 0;
    if (rt->log)
        fclose(rt->log);
    rt->log = NULL;
    free(rt->log_path);
    free(rt->status_path);
    free(rt->args_buf);
    free(rt->args_argv);
    rt->log_path = rt->status_path = rt->args_buf = NULL;
    rt->args_argv = NULL;
    rt->finished = true;
    pthread_mutex_unlock(&rt->lock);
}
