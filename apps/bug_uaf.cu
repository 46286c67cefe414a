// bug_uaf — BUG, class uaf (paper Table 4 "Immediate Use-after-free"): a kernel launched with a
// pointer that was already freed, before anything reused its memory.
//
// a and b are allocated and a is filled; copy_scaled(a → b) runs correctly; then a is freed and the
// same kernel is launched again with a as its source, as one warp of 32 threads: each thread reads
// one float of freed memory (once per thread of one warp). No allocation is made after the free,
// so a's range is still freed, not reused. The program prints RAN.
//
// Expected: compiler mode NO_METADATA (the LOADMETA of the root a, at kernel entry, finds a's entry
// holding the freed tag, which does not match a's tag, and returns 0; MEMCHECK.G of a tagged
// address with no metadata reports NO_METADATA — docs/spec.md §4.5); HWOnly USE_AFTER_FREE (the
// lookup by address finds the entry covering it and sees the freed tag, §5.4). Both deterministic
// (the freed entry is kept: the runtime reclaims only past 1 024 freed entries, §7.4).
//
// Parameters for the evaluation's variants (apps/bug_args.h, apps/variants.tsv; the defaults are the
// run above): n (floats in a and b), threads (block size of the correct launch) and the shape of the
// buggy launch, bug_blocks x bug_threads, each thread reading one freed float (at most n).
#define APP_NAME "bug_uaf"
#include "app.h"
#include "bug_args.h"

#include <vector>

__global__ void copy_scaled(const float *src, float *dst, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        dst[i] = 2.0f * src[i];
}

int main(int argc, char **argv)
{
    long long n = 1024, threads = 128, bug_blocks = 1, bug_threads = 32;
    BugParam ps[] = {{"n", &n, 1, 1 << 22, "floats in a and b"},
                     {"threads", &threads, 32, 1024, "threads per block of the correct launch"},
                     {"bug_blocks", &bug_blocks, 1, 4096, "blocks of the launch on the freed pointer"},
                     {"bug_threads", &bug_threads, 1, 1024, "threads per block of that launch"}};
    bug_params(argc, argv, ps, 4);
    if (bug_blocks * bug_threads > n)
        bug_usage_error("bug_blocks x bug_threads = %lld threads would read past a's %lld floats",
                        bug_blocks * bug_threads, n);
    std::vector<float> h(n), out(n);
    for (long long i = 0; i < n; ++i)
        h[i] = (float)i;
    float *a = nullptr, *b = nullptr;
    CK(cudaMalloc(&a, n * sizeof(float)));
    CK(cudaMalloc(&b, n * sizeof(float)));
    CK(cudaMemcpy(a, h.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    copy_scaled<<<(unsigned)((n + threads - 1) / threads), (unsigned)threads>>>(a, b, (int)n);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    CK(cudaFree(a));

    copy_scaled<<<(unsigned)bug_blocks, (unsigned)bug_threads>>>(a, b, (int)(bug_blocks * bug_threads)); // BUG: a was freed
    CK_BUG(cudaGetLastError());
    CK_BUG(cudaDeviceSynchronize());
    CK_BUG(cudaMemcpy(out.data(), b, n * sizeof(float), cudaMemcpyDeviceToHost));
    CK_BUG(cudaFree(b));
    app_ran();
}
