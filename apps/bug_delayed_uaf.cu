// bug_delayed_uaf — BUG, class delayed_uaf (paper Table 4 "Delayed Use-after-free"): a dangling pointer
// used after its memory has been handed to a new allocation.
//
// a (16 KiB) and b (16 KiB) are allocated, a is filled and used; a is freed and c is allocated with
// a's size, so a first-fit allocator (docs/spec.md §7.1) gives c exactly a's range (the program
// prints whether the address bits, the low 48, are equal). c is filled and then read_both reads
// c[i] (correct) and the stale a[i] (the bug) in one warp of 32 threads: one dangling read per
// thread of one warp. The program prints RAN.
//
// Expected: compiler mode NO_METADATA with probability 125/126 (the LOADMETA of the root a finds c's
// entry by address, but a's tag is not c's, so it returns 0 and MEMCHECK.G reports NO_METADATA; if
// the random tags are equal the stale pointer passes as a pointer into c); HWOnly TAG_MISMATCH with
// probability 125/126 (the lookup by address finds c's live entry with another tag). Deterministic
// with tag_quarantine (spec §7.6.2), which keeps c from drawing a's old tag.
//
// Parameters for the evaluation's variants (apps/bug_args.h, apps/variants.tsv; the defaults are the
// run above): n (floats in a, b and c), threads (block size of fill), readers (threads of the one
// block of read_both, each making one dangling read) and churn: that many allocate-and-free cycles
// of another buffer, too big for a's hole, between the free of a and the allocation of c (the
// program's other allocation traffic; c still gets a's range, which the NOTE line confirms).
#define APP_NAME "bug_delayed_uaf"
#include "app.h"
#include "bug_args.h"

#include <vector>

__global__ void fill(float *p, float v, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        p[i] = v + (float)i;
}

__global__ void read_both(const float *fresh, const float *stale, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = fresh[i] + stale[i]; // BUG: stale was freed and its memory now belongs to fresh
}

int main(int argc, char **argv)
{
    long long n = 4096, threads = 256, readers = 32, churn = 0;
    BugParam ps[] = {{"n", &n, 1, 1 << 22, "floats in a, b and c"},
                     {"threads", &threads, 32, 1024, "threads per block of fill"},
                     {"readers", &readers, 1, 1024, "threads of read_both, each one dangling read (<= n)"},
                     {"churn", &churn, 0, 1000, "allocate/free cycles of another buffer between free(a) and malloc(c)"}};
    bug_params(argc, argv, ps, 4);
    if (readers > n)
        bug_usage_error("readers=%lld > n=%lld: read_both would leave the arrays", readers, n);
    const size_t bytes = (size_t)n * sizeof(float);
    std::vector<float> out(n);
    float *a = nullptr, *b = nullptr, *c = nullptr;
    CK(cudaMalloc(&a, bytes));
    CK(cudaMalloc(&b, bytes));
    const unsigned grid = (unsigned)((n + threads - 1) / threads);
    fill<<<grid, (unsigned)threads>>>(a, 1.0f, (int)n);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    CK(cudaFree(a));
    for (long long k = 0; k < churn; ++k) { // never fits a's hole: 2 x bytes + 256
        float *x = nullptr;
        CK(cudaMalloc(&x, 2 * bytes + 256));
        CK(cudaFree(x));
    }
    CK(cudaMalloc(&c, bytes));
    // Only the address bits: the upper bits may carry a tag (GPUArmor) that differs by design.
    const uint64_t va_mask = (1ull << 48) - 1;
    std::printf("NOTE %s: the new allocation %s the freed one's address\n", APP_NAME,
                ((uintptr_t)a & va_mask) == ((uintptr_t)c & va_mask) ? "reuses" : "does not reuse");
    fill<<<grid, (unsigned)threads>>>(c, 2.0f, (int)n);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());

    read_both<<<1, (unsigned)readers>>>(c, a, b, (int)readers); // BUG: a is dangling
    CK_BUG(cudaGetLastError());
    CK_BUG(cudaDeviceSynchronize());
    CK_BUG(cudaMemcpy(out.data(), b, bytes, cudaMemcpyDeviceToHost));
    CK_BUG(cudaFree(b));
    CK_BUG(cudaFree(c));
    app_ran();
}
