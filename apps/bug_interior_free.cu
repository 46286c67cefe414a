// bug_interior_free — BUG, class interior_free: cudaFree of a pointer into the middle of an
// allocation (p + 4 floats, 16 bytes past its base).
//
// p is allocated and filled; cudaFree(p + 4) is the bug. The program prints the error it returned
// (cudaSuccess would mean the runtime missed it), clears it, checks that p is still usable (a kernel
// reads it), frees p properly and prints RAN.
//
// Expected in both modes: BAD_FREE — the runtime finds p + 4 inside a live allocation but not at
// its base, INTERIOR_POINTER (docs/spec.md §7.2): nothing changes, it is reported, the call returns
// an error.
//
// Parameters for the evaluation's variants (apps/bug_args.h, apps/variants.tsv; the defaults are the
// run above): n (floats in p), threads (block size) and offset (the freed pointer is p + offset
// floats, 1 .. n - 1).
#define APP_NAME "bug_interior_free"
#include "app.h"
#include "bug_args.h"

#include <vector>

__global__ void add_one(float *p, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        p[i] += 1.0f;
}

int main(int argc, char **argv)
{
    long long n = 2000, threads = 128, offset = 4;
    BugParam ps[] = {{"n", &n, 2, 1 << 22, "floats in p"},
                     {"threads", &threads, 32, 1024, "threads per block"},
                     {"offset", &offset, 1, (1 << 22) - 1, "cudaFree(p + offset), offset in floats (< n)"}};
    bug_params(argc, argv, ps, 3);
    if (offset >= n)
        bug_usage_error("offset=%lld is not inside p's %lld floats", offset, n);
    std::vector<float> h(n, 1.0f), got(n);
    float *p = nullptr;
    CK(cudaMalloc(&p, n * sizeof(float)));
    CK(cudaMemcpy(p, h.data(), n * sizeof(float), cudaMemcpyHostToDevice));

    cudaError_t e = cudaFree(p + offset); // BUG: not the pointer cudaMalloc returned
    std::printf("NOTE %s: cudaFree(p + %lld) returned %s\n", APP_NAME, offset, cudaGetErrorName(e));
    (void)cudaGetLastError();

    add_one<<<(unsigned)((n + threads - 1) / threads), (unsigned)threads>>>(p, (int)n);
    CK_BUG(cudaGetLastError());
    CK_BUG(cudaDeviceSynchronize());
    CK_BUG(cudaMemcpy(got.data(), p, n * sizeof(float), cudaMemcpyDeviceToHost));
    CK_BUG(cudaFree(p));
    app_ran();
}
