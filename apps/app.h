// app.h — what every program of the corpus shares: the checked CUDA call, the one-line verdicts and
// their exit codes (apps/README.md, "Conventions"), the argument check, and a seeded generator so
// that every run of a program sees the same inputs.
//
// A correct program ends with `PASS <name>` (exit 0) or `FAIL <name>: <why>` (exit 1). A bug program
// ends with `RAN <name>` (exit 0) once it has committed its bug and finished; before the bug it fails
// like a correct program, since a broken set-up would make its bug meaningless.
#ifndef GA_APPS_APP_H
#define GA_APPS_APP_H

#include <cuda_runtime.h>

#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

#ifndef APP_NAME
#error "define APP_NAME (the program's name in apps/manifest.tsv) before including app.h"
#endif

// Prints `FAIL <name>: <message>` and exits 1. Used for a failed CUDA call of a correct program (or of
// a bug program before its bug) and for a result that differs from the host's.
[[noreturn]] static inline void app_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
[[noreturn]] static inline void app_fail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    std::printf("FAIL %s: ", APP_NAME);
    std::vprintf(fmt, ap);
    std::printf("\n");
    va_end(ap);
    std::fflush(stdout);
    std::exit(1);
}

// Prints `PASS <name>` and exits 0: the device's result equals the host's.
[[noreturn]] static inline void app_pass(void)
{
    std::printf("PASS %s\n", APP_NAME);
    std::fflush(stdout);
    std::exit(0);
}

// Prints `RAN <name>` and exits 0: a bug program committed its bug and finished (its result may be
// wrong; the verdict on the bug is the checker's, not the program's).
[[noreturn]] static inline void app_ran(void)
{
    std::printf("RAN %s\n", APP_NAME);
    std::fflush(stdout);
    std::exit(0);
}

// Every program takes no arguments; anything else is a usage error (exit 2, like every tool of the
// project), so a harness that passes arguments by mistake learns it instead of getting a verdict.
static inline void app_args(int argc, char **argv)
{
    if (argc > 1) {
        std::fprintf(stderr, "usage: %s (takes no arguments; got '%s')\n", argv[0], argv[1]);
        std::exit(2);
    }
}

// CK(call): a CUDA call that must succeed. On failure: `FAIL <name>: file:line: call returned
// cudaErrorX` and exit 1. Kernel launches are checked with CK(cudaGetLastError()) (launch
// configuration errors) and then CK(cudaDeviceSynchronize()) (errors while the kernel ran).
#define CK(call)                                                                                       \
    do {                                                                                               \
        cudaError_t ck_err_ = (call);                                                                  \
        if (ck_err_ != cudaSuccess)                                                                    \
            app_fail("%s:%d: %s returned %s", __FILE__, __LINE__, #call, cudaGetErrorName(ck_err_));    \
    } while (0)

// CK_BUG(call): a CUDA call at or after a bug program's bug. An error here can be the bug's own
// consequence (GPUArmor with the TERMINATE policy stops the kernel; a real GPU turns a wild access
// into cudaErrorIllegalAddress, which poisons the context so that every later call fails too), so
// it is reported as `NOTE <name>: ...` and the program ends at once with RAN, without more device
// work.
#define CK_BUG(call)                                                                                   \
    do {                                                                                               \
        cudaError_t ck_err_ = (call);                                                                  \
        if (ck_err_ != cudaSuccess) {                                                                  \
            std::printf("NOTE %s: %s:%d: %s returned %s after the bug\n", APP_NAME, __FILE__,          \
                        __LINE__, #call, cudaGetErrorName(ck_err_));                                   \
            app_ran();                                                                                 \
        }                                                                                              \
    } while (0)

// A small seeded generator (xorshift64*, Vigna 2016) for inputs: fixed seeds make every run of a
// program identical, which the checker's expectations (and trace captures) rely on.
struct AppRng {
    uint64_t s;
};

static inline AppRng app_rng(uint64_t seed)
{
    AppRng r;
    r.s = seed ? seed : 0x9E3779B97F4A7C15ull; // xorshift's state must not be 0
    return r;
}

// The next 32 pseudo-random bits.
static inline uint32_t app_next(AppRng *r)
{
    r->s ^= r->s >> 12;
    r->s ^= r->s << 25;
    r->s ^= r->s >> 27;
    return (uint32_t)((r->s * 0x2545F4914F6CDD1Dull) >> 32);
}

// Uniform-enough integer in [0, n) for n >= 1 (the modulo bias, below 2^-20 for the n used here,
// does not matter for test inputs).
static inline uint32_t app_below(AppRng *r, uint32_t n)
{
    return app_next(r) % n;
}

#endif // GA_APPS_APP_H
