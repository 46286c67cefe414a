// bug_adjacent_oob_256 — BUG, class adjacent_oob (paper Table 4 "Adjacent OOB"), the variant where the
// overflowed array's size is a multiple of 256 bytes, so the next allocation starts right at its end.
//
// forward_diff computes out[i] = (in[i+1] - in[i]) · w[i] for every i < n, where the loop bound
// should have been n - 1: the last thread (i = n - 1, lane 31 of the last warp) reads in[n], one
// float past the end of in. in holds 4 096 floats (16 KiB) and w was allocated next, so under a
// 256-byte-aligned first-fit allocator (docs/spec.md §7.1) in[n] is w[0], a live allocation.
// The bug is one read; the kernel then finishes normally and the program prints RAN.
//
// Expected (apps/manifest.tsv): compiler mode OUT_OF_BOUNDS (the root of the access is the parameter
// in, so MEMCHECK.G checks in[n] against in's own bounds); HWOnly TAG_MISMATCH with probability
// 125/126 (in[n] is looked up by its own address, finds w's entry, and in's tag differs from w's
// unless the two random 7-bit tags happen to be equal; deterministic with tag_neighbour_distinct).
//
// Parameters for the evaluation's variants (apps/bug_args.h, apps/variants.tsv; the defaults are the
// run above): n (floats in in and w, a multiple of 64 so that in ends on a 256-byte boundary),
// threads (block size), over (the kernel reads in[i + over]: threads i >= n - over overflow, reading
// w[0 .. over - 1]) and sub. With sub=1, in and w are the two fields of one allocation (a struct
// { float in[n]; float w[n]; }), so the same overflow stays inside that allocation: the paper's
// "Sub-object OOB" row, which no scheme of Table 4 detects (expected: clean in both modes).
#define APP_NAME "bug_adjacent_oob_256"
#include "app.h"
#include "bug_args.h"

#include <vector>

__global__ void forward_diff(const float *in, const float *w, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) // BUG: should be i < n - 1 (in[i + 1] is read)
        out[i] = (in[i + 1] - in[i]) * w[i];
}

// The same bug reading over elements ahead (the variants with over > 1; the default run uses
// forward_diff, whose PTX apps/ptx_expect.tsv checks).
__global__ void forward_diff_by(const float *in, const float *w, float *out, int n, int over)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) // BUG: should be i < n - over (in[i + over] is read)
        out[i] = (in[i + over] - in[i]) * w[i];
}

int main(int argc, char **argv)
{
    long long n = 4096, threads = 256, over = 1, sub = 0; // 4 096 floats = 16 KiB, a multiple of 256 bytes
    BugParam ps[] = {{"n", &n, 64, 1 << 22, "floats in in and in w (a multiple of 64: 256 bytes)"},
                     {"threads", &threads, 32, 1024, "threads per block"},
                     {"over", &over, 1, 1 << 22, "elements read past the end by the last thread (<= n)"},
                     {"sub", &sub, 0, 1, "1: in and w are two fields of one allocation (sub-object overflow)"}};
    bug_params(argc, argv, ps, 4);
    if (n % 64 != 0)
        bug_usage_error("n=%lld is not a multiple of 64 floats: in would not end on a 256-byte boundary", n);
    if (over > n)
        bug_usage_error("over=%lld > n=%lld: the overflow would leave w too", over, n);
    std::vector<float> h(n), out(n);
    for (long long i = 0; i < n; ++i)
        h[i] = (float)(i % 97);
    float *d_in = nullptr, *d_w = nullptr, *d_out = nullptr;
    if (sub) {
        CK(cudaMalloc(&d_in, 2 * n * sizeof(float))); // struct { float in[n]; float w[n]; }
        d_w = d_in + n;
    } else {
        CK(cudaMalloc(&d_in, n * sizeof(float)));
        CK(cudaMalloc(&d_w, n * sizeof(float))); // adjacent to d_in: d_in[n] is d_w[0]
        std::printf("NOTE %s: w %s right after in\n", APP_NAME,
                    bug_va(d_w) == bug_va(d_in) + n * sizeof(float) ? "starts" : "does not start");
    }
    CK(cudaMalloc(&d_out, n * sizeof(float)));
    CK(cudaMemcpy(d_in, h.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(d_w, h.data(), n * sizeof(float), cudaMemcpyHostToDevice));

    const unsigned grid = (unsigned)((n + threads - 1) / threads);
    if (over == 1)
        forward_diff<<<grid, (unsigned)threads>>>(d_in, d_w, d_out, (int)n);
    else
        forward_diff_by<<<grid, (unsigned)threads>>>(d_in, d_w, d_out, (int)n, (int)over);
    CK_BUG(cudaGetLastError());
    CK_BUG(cudaDeviceSynchronize());
    CK_BUG(cudaMemcpy(out.data(), d_out, n * sizeof(float), cudaMemcpyDeviceToHost));
    CK_BUG(cudaFree(d_in));
    if (!sub)
        CK_BUG(cudaFree(d_w));
    CK_BUG(cudaFree(d_out));
    app_ran();
}
