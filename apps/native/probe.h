// probe.h — included before a corpus program's own code (nvcc -include apps/native/probe.h) to record
// what the device computed: every synchronous device-to-host copy (cudaMemcpy with
// cudaMemcpyDeviceToHost, cudaMemcpyFromSymbol) is also written, once it has succeeded, to
// $PROBE_DIR/<n>.bin, n = 0, 1, ... in program order. scripts/corpus-native.sh records these bytes on a
// GPU and scripts/corpus_native_check.py compares them with the interpreter's (docs/emulator.md,
// "Against a real GPU"): stdout says only PASS, the copies show every bit the kernels produced.
//
// Without PROBE_DIR the program behaves exactly as without this header. Not recorded: copies that fail,
// cudaMemcpyAsync (the data is not there until a later synchronisation), host reads of managed memory,
// and copies of other directions. A dump that cannot be written prints one line on stderr and ends the
// program with exit 3, so a missing dump is never mistaken for an empty one.
#ifndef GA_APPS_NATIVE_PROBE_H
#define GA_APPS_NATIVE_PROBE_H

#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>

// The number of copies recorded so far (one program, one thread: the corpus copies from main only).
static inline int *probe_counter(void)
{
    static int n = 0;
    return &n;
}

// Writes n bytes at p to $PROBE_DIR/<index>.bin; does nothing without PROBE_DIR.
static inline void probe_record(const void *p, size_t n)
{
    const char *dir = std::getenv("PROBE_DIR");
    int i = (*probe_counter())++;
    if (!dir || !*dir)
        return;
    char path[4096];
    std::snprintf(path, sizeof path, "%s/%d.bin", dir, i);
    FILE *f = std::fopen(path, "wb");
    if (!f || std::fwrite(p, 1, n, f) != n || std::fclose(f) != 0) {
        std::fprintf(stderr, "probe.h: cannot write %s\n", path);
        std::exit(3);
    }
}

static inline cudaError_t probe_memcpy(void *dst, const void *src, size_t n, cudaMemcpyKind kind)
{
    cudaError_t e = cudaMemcpy(dst, src, n, kind);
    if (e == cudaSuccess && kind == cudaMemcpyDeviceToHost)
        probe_record(dst, n);
    return e;
}

template <class T>
static inline cudaError_t probe_memcpy_from_symbol(void *dst, const T &symbol, size_t n, size_t offset = 0,
                                                   cudaMemcpyKind kind = cudaMemcpyDeviceToHost)
{
    cudaError_t e = cudaMemcpyFromSymbol(dst, symbol, n, offset, kind);
    if (e == cudaSuccess)
        probe_record(dst, n);
    return e;
}

// Function-like macros: only calls are redirected (cudaMemcpyHostToDevice and friends are other names).
#define cudaMemcpy(...) probe_memcpy(__VA_ARGS__)
#define cudaMemcpyFromSymbol(...) probe_memcpy_from_symbol(__VA_ARGS__)

#endif // GA_APPS_NATIVE_PROBE_H
