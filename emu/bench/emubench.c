/*
 * emubench.c — speed of the PTX interpreter (make bench-emu; docs/emulator.md §10).
 *
 * Four kernels of the corpus (the PTX nvcc made of apps/vector_add.cu, saxpy.cu, gemm.cu,
 * stencil2d.cu: build/apps/<name>.ptx) run on the emulator directly (emu.h, no CUDA runtime in
 * between) with inputs larger than the corpus programs use, in each GPUArmor mode, and the same
 * computations run as plain C on the same core. For each run: thread instructions (active lanes summed
 * over issued instructions, emu_counters), the launch's CPU time (CLOCK_THREAD_CPUTIME_ID, so other
 * jobs on a shared machine do not inflate it), thread instructions per CPU second, and the slowdown
 * against the C build. Results are checked against C (exactly: the inputs are chosen so every
 * operation is exact in float), so a fast but wrong interpreter cannot report a figure.
 *
 * Usage: emubench [--ptx-dir DIR] [--reps N] [--only NAME] [--modes off,compiler,hwonly] [--small]
 * Exit: 0, 1 a result differs from C or a kernel cannot run, 2 usage.
 */
#include "emu.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double cpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static char *slurp(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL) return NULL;
    if (fseek(f, 0, SEEK_END) != 0) {
        fclose(f);
        return NULL;
    }
    long sz = ftell(f);
    if (sz < 0) {
        fclose(f);
        return NULL;
    }
    rewind(f);
    char *b = malloc((size_t)sz + 1);
    if (b && fread(b, 1, (size_t)sz, f) != (size_t)sz) {
        free(b);
        b = NULL;
    }
    fclose(f);
    *n = (size_t)sz;
    return b;
}

typedef struct {
    const char *name;     /* apps/<name>.cu */
    const char *kernel;   /* mangled entry */
    int size;             /* problem size knob */
} bench_t;

/* Deterministic inputs: multiples of 1/8 in [-1, 1] (exact products and sums). */
static float val(uint64_t *s)
{
    *s = *s * 6364136223846793005u + 1442695040888963407u;
    return (float)((int)((*s >> 33) % 17) - 8) / 8.0f;
}

typedef struct {
    double secs;
    uint64_t thread_insns;
    int ok;
} res_t;

/* Run one benchmark in one mode; out_c is the C result to compare with (NULL: compute it). */
static res_t run_emu(const char *ptxdir, const bench_t *b, emu_armor_t mode, int reps, float **cref, double *csecs)
{
    res_t r = {0, 0, 0};
    char path[4096];
    snprintf(path, sizeof path, "%s/%s.ptx", ptxdir, b->name);
    size_t n;
    char *ptx = slurp(path, &n);
    if (ptx == NULL) {
        fprintf(stderr, "emubench: cannot read %s (make apps)\n", path);
        return r;
    }
    emu_cfg_t c;
    emu_default_cfg(&c);
    c.armor = mode;
    c.quiet = true;
    c.log = fopen("/dev/null", "w");
    emu_dev_t *d;
    char msg[512];
    if (emu_create(&c, &d, msg, sizeof msg) != EMU_OK) {
        fprintf(stderr, "emubench: %s\n", msg);
        free(ptx);
        return r;
    }
    emu_module_t *m;
    if (emu_module_load(d, b->name, ptx, n, &m, msg, sizeof msg) != EMU_OK) {
        fprintf(stderr, "emubench: %s\n", msg);
        emu_destroy(d);
        free(ptx);
        return r;
    }
    emu_kernel_t *k = emu_kernel_find(m, b->kernel);
    uint64_t seed = 7;
    int N = b->size;
    float *A = NULL, *B = NULL, *C = NULL;
    size_t na = 0, nb = 0, nc = 0;
    emu_dim3_t grid = {1, 1, 1}, block = {1, 1, 1};
    int M = N, K = N, w = N, h = N;
    if (strcmp(b->name, "gemm") == 0) {
        na = (size_t)M * K, nb = (size_t)K * N, nc = (size_t)M * N;
        block = (emu_dim3_t){16, 16, 1};
        grid = (emu_dim3_t){(uint32_t)(N + 15) / 16, (uint32_t)(M + 15) / 16, 1};
    } else if (strcmp(b->name, "stencil2d") == 0) {
        na = (size_t)w * h, nb = 0, nc = na;
        block = (emu_dim3_t){16, 16, 1};
        grid = (emu_dim3_t){(uint32_t)(w + 15) / 16, (uint32_t)(h + 15) / 16, 1};
    } else {
        na = nb = nc = (size_t)N;
        block = (emu_dim3_t){256, 1, 1};
        grid = (emu_dim3_t){(uint32_t)(N + 255) / 256, 1, 1};
    }
    A = malloc(na * 4);
    B = malloc((nb ? nb : 1) * 4);
    C = calloc(nc, 4);
    for (size_t i = 0; i < na; i++) A[i] = val(&seed);
    for (size_t i = 0; i < nb; i++) B[i] = val(&seed);
    if (strcmp(b->name, "saxpy") == 0)
        for (size_t i = 0; i < nc; i++) C[i] = val(&seed);
    uint64_t dA, dB = 0, dC;
    emu_malloc(d, na * 4, &dA);
    if (nb) emu_malloc(d, nb * 4, &dB);
    emu_malloc(d, nc * 4, &dC);
    emu_write(d, dA, A, na * 4);
    if (nb) emu_write(d, dB, B, nb * 4);
    /* C reference, timed */
    if (*cref == NULL) {
        float *ref = malloc(nc * 4);
        double t0 = cpu_now();
        for (int rep = 0; rep < reps; rep++) {
            if (strcmp(b->name, "vector_add") == 0) {
                for (int i = 0; i < N; i++) ref[i] = A[i] + B[i];
            } else if (strcmp(b->name, "saxpy") == 0) {
                for (int i = 0; i < N; i++) ref[i] = 2.5f * A[i] + C[i];
            } else if (strcmp(b->name, "gemm") == 0) {
                for (int rr = 0; rr < M; rr++)
                    for (int cc = 0; cc < N; cc++) {
                        float acc = 0.0f;
                        for (int kk = 0; kk < K; kk++) acc += A[rr * K + kk] * B[kk * N + cc];
                        ref[rr * N + cc] = acc;
                    }
            } else {
                for (int y = 0; y < h; y++)
                    for (int x = 0; x < w; x++) {
                        float cv = A[y * w + x];
                        ref[y * w + x] = (x == 0 || y == 0 || x == w - 1 || y == h - 1)
                                             ? cv
                                             : 0.5f * cv + 0.125f * ((A[(y - 1) * w + x] + A[(y + 1) * w + x]) +
                                                                    (A[y * w + x - 1] + A[y * w + x + 1]));
                    }
            }
        }
        *csecs = (cpu_now() - t0) / reps;
        *cref = ref;
    }
    float a = 2.5f;
    int n32 = N, M32 = M, N32 = N, K32 = K, w32 = w, h32 = h;
    void *args_va[] = {&dA, &dB, &dC, &n32};
    void *args_sx[] = {&n32, &a, &dA, &dC};
    void *args_gm[] = {&dA, &dB, &dC, &M32, &N32, &K32};
    void *args_st[] = {&dA, &dC, &w32, &h32};
    void *const *args = strcmp(b->name, "vector_add") == 0 ? args_va
                        : strcmp(b->name, "saxpy") == 0    ? args_sx
                        : strcmp(b->name, "gemm") == 0     ? args_gm
                                                           : args_st;
    double best = 1e30;
    uint64_t ti = 0;
    int ok = 1;
    for (int rep = 0; rep < reps && ok; rep++) {
        if (strcmp(b->name, "saxpy") == 0) emu_write(d, dC, C, nc * 4);
        double t0 = cpu_now();
        emu_status_t st = emu_launch(d, k, grid, block, 0, args, msg, sizeof msg);
        double t = cpu_now() - t0;
        if (st != EMU_OK) {
            fprintf(stderr, "emubench: %s: %s\n", b->name, msg);
            ok = 0;
            break;
        }
        if (t < best) best = t;
        emu_counters_t last;
        emu_counters(d, NULL, &last);
        ti = last.thread_insns;
    }
    float *got = malloc(nc * 4);
    emu_read(d, got, dC, nc * 4);
    if (ok && memcmp(got, *cref, nc * 4) != 0) {
        fprintf(stderr, "emubench: %s: the emulator's result differs from C\n", b->name);
        ok = 0;
    }
    emu_destroy(d);
    fclose(c.log);
    free(got), free(A), free(B), free(C), free(ptx);
    r.secs = best;
    r.thread_insns = ti;
    r.ok = ok;
    return r;
}

int main(int argc, char **argv)
{
    const char *ptxdir = "build/apps", *only = NULL, *modes = "off,compiler,hwonly";
    int reps = 3;
    bool small = false;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--ptx-dir") == 0 && i + 1 < argc)
            ptxdir = argv[++i];
        else if (strcmp(argv[i], "--reps") == 0 && i + 1 < argc)
            reps = atoi(argv[++i]);
        else if (strcmp(argv[i], "--only") == 0 && i + 1 < argc)
            only = argv[++i];
        else if (strcmp(argv[i], "--modes") == 0 && i + 1 < argc)
            modes = argv[++i];
        else if (strcmp(argv[i], "--small") == 0)
            small = true;
        else {
            fprintf(stderr, "usage: emubench [--ptx-dir DIR] [--reps N] [--only NAME] [--modes off,compiler,hwonly] "
                            "[--small]\n");
            return 2;
        }
    }
    if (reps < 1) reps = 1;
    bench_t bs[] = {
        {"vector_add", "_Z10vector_addPKfS0_Pfi", small ? 1 << 16 : 1 << 22},
        {"saxpy", "_Z5saxpyifPKfPf", small ? 1 << 16 : 1 << 22},
        {"gemm", "_Z4gemmPKfS0_Pfiii", small ? 64 : 256},
        {"stencil2d", "_Z8stencil5PKfPfii", small ? 256 : 2048},
    };
    printf("%-11s %-9s %14s %10s %12s %10s\n", "kernel", "mode", "thread insns", "CPU s", "M thr-ins/s",
           "vs C");
    int rc = 0;
    for (size_t i = 0; i < sizeof bs / sizeof bs[0]; i++) {
        if (only && strcmp(only, bs[i].name) != 0) continue;
        float *cref = NULL;
        double csecs = 0;
        const char *names[] = {"off", "compiler", "hwonly"};
        for (int mi = 0; mi < 3; mi++) {
            if (strstr(modes, names[mi]) == NULL) continue;
            res_t r = run_emu(ptxdir, &bs[i], (emu_armor_t)mi, reps, &cref, &csecs);
            if (!r.ok) {
                rc = 1;
                continue;
            }
            printf("%-11s %-9s %14" PRIu64 " %10.3f %12.1f %9.0fx\n", bs[i].name, names[mi], r.thread_insns, r.secs,
                   (double)r.thread_insns / r.secs / 1e6, csecs > 0 ? r.secs / csecs : 0.0);
        }
        printf("%-11s %-9s %14s %10.4f\n", bs[i].name, "plain C", "-", csecs);
        free(cref);
    }
    return rc;
}
