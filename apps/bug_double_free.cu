// bug_double_free — BUG, class double_free: the host frees the same device pointer twice.
//
// a is allocated, used by a kernel and freed; the second cudaFree(a) is the bug. The program prints
// the error that call returned (cudaSuccess would mean the runtime missed it), clears it with
// cudaGetLastError, then goes on normally with another allocation and a kernel, and prints RAN.
//
// Expected in both modes: BAD_FREE — a host-side error of the runtime, not a device exception: the
// entry of a is kept with the freed tag, so the second free is recognised as DOUBLE_FREE
// (docs/spec.md §7.2), changes nothing, is reported, and the call returns an error.
//
// Parameters for the evaluation's variants (apps/bug_args.h, apps/variants.tsv; the defaults are the
// run above): n (ints in a and b), threads (block size) and realloc. With realloc=1 a buffer r of a's
// size is allocated between the two frees, so it takes a's range and the second cudaFree(a) names a
// live allocation with a stale tag: the runtime refuses it as FREE_TAG_MISMATCH (a BAD_FREE) unless
// r drew a's old tag (probability 1/126 with 7-bit tags, none with tag_quarantine), in which case it
// frees r: a double free that frees someone else's memory. r is never used or freed afterwards, so
// the program commits that one bug only.
#define APP_NAME "bug_double_free"
#include "app.h"
#include "bug_args.h"

#include <vector>

__global__ void iota(int *p, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        p[i] = i;
}

int main(int argc, char **argv)
{
    long long n = 1000, threads = 128, realloc_between = 0;
    BugParam ps[] = {{"n", &n, 1, 1 << 22, "ints in a and b"},
                     {"threads", &threads, 32, 1024, "threads per block"},
                     {"realloc", &realloc_between, 0, 1, "1: allocate a's size again between the two frees"}};
    bug_params(argc, argv, ps, 3);
    const unsigned grid = (unsigned)((n + threads - 1) / threads);
    int *a = nullptr, *b = nullptr, *r = nullptr;
    CK(cudaMalloc(&a, n * sizeof(int)));
    iota<<<grid, (unsigned)threads>>>(a, (int)n);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    CK(cudaFree(a));
    if (realloc_between) {
        CK(cudaMalloc(&r, n * sizeof(int)));
        std::printf("NOTE %s: the buffer allocated between the frees %s a's address\n", APP_NAME,
                    bug_va(r) == bug_va(a) ? "reuses" : "does not reuse");
    }

    cudaError_t e = cudaFree(a); // BUG: a was already freed
    std::printf("NOTE %s: second cudaFree returned %s\n", APP_NAME, cudaGetErrorName(e));
    (void)cudaGetLastError(); // the error is the point of the program, not a failure of it

    CK_BUG(cudaMalloc(&b, n * sizeof(int)));
    iota<<<grid, (unsigned)threads>>>(b, (int)n);
    CK_BUG(cudaGetLastError());
    CK_BUG(cudaDeviceSynchronize());
    std::vector<int> got(n);
    CK_BUG(cudaMemcpy(got.data(), b, n * sizeof(int), cudaMemcpyDeviceToHost));
    CK_BUG(cudaFree(b));
    app_ran();
}
