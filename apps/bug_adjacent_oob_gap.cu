// bug_adjacent_oob_gap — BUG, class adjacent_oob (paper Table 4 "Adjacent OOB"), the variant where the
// overflowed array's size is not a multiple of 256 bytes, so the byte after it is padding that no
// allocation covers.
//
// The same off-by-one as bug_adjacent_oob_256: forward_diff reads in[i + 1] for every i < n, so the
// last thread (i = n - 1) reads in[n], one float past the end. Here in holds 1 000 floats (4 000
// bytes); a 256-byte-aligned allocator (docs/spec.md §7.1) reserves 4 096 bytes for it, so in[n]
// (bytes 4 000..4 003) lies in the 96-byte gap before the next allocation. One read; the kernel
// finishes normally and the program prints RAN.
//
// Expected: compiler mode OUT_OF_BOUNDS (checked against in's bounds through its root, the
// parameter in); HWOnly NO_METADATA (the address itself is looked up and no entry covers the gap).
// Both deterministic.
//
// Parameters for the evaluation's variants (apps/bug_args.h, apps/variants.tsv; the defaults are the
// run above): n (floats in in, w and out; 4n must not be a multiple of 256, so a gap follows in),
// threads (block size) and over (the kernel reads in[i + over]: threads i >= n - over overflow; every
// such read must still lie in the gap, which the program checks).
#define APP_NAME "bug_adjacent_oob_gap"
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
    long long n = 1000, threads = 128, over = 1; // 4 000 bytes: not a multiple of 256
    BugParam ps[] = {{"n", &n, 1, 1 << 22, "floats in in, w and out (4n not a multiple of 256)"},
                     {"threads", &threads, 32, 1024, "threads per block"},
                     {"over", &over, 1, 63, "elements read past the end by the last thread (within the gap)"}};
    bug_params(argc, argv, ps, 3);
    const long long slot = (4 * n + 255) / 256 * 256; // the 256-byte-aligned allocator's reservation
    if (4 * n % 256 == 0)
        bug_usage_error("n=%lld: 4n is a multiple of 256 bytes, so no gap follows in", n);
    if (4 * (n - 1 + over) + 4 > slot)
        bug_usage_error("over=%lld: in[%lld] would leave the %lld-byte gap after in", over, n - 1 + over, slot - 4 * n);
    std::vector<float> h(n), out(n);
    for (long long i = 0; i < n; ++i)
        h[i] = (float)(i % 89);
    float *d_in = nullptr, *d_w = nullptr, *d_out = nullptr;
    CK(cudaMalloc(&d_in, n * sizeof(float)));
    CK(cudaMalloc(&d_w, n * sizeof(float)));
    CK(cudaMalloc(&d_out, n * sizeof(float)));
    CK(cudaMemcpy(d_in, h.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(d_w, h.data(), n * sizeof(float), cudaMemcpyHostToDevice));

    std::printf("NOTE %s: w %s at in's 256-byte reservation end\n", APP_NAME,
                bug_va(d_w) == bug_va(d_in) + (unsigned long long)slot ? "starts" : "does not start");
    const unsigned grid = (unsigned)((n + threads - 1) / threads);
    if (over == 1)
        forward_diff<<<grid, (unsigned)threads>>>(d_in, d_w, d_out, (int)n);
    else
        forward_diff_by<<<grid, (unsigned)threads>>>(d_in, d_w, d_out, (int)n, (int)over);
    CK_BUG(cudaGetLastError());
    CK_BUG(cudaDeviceSynchronize());
    CK_BUG(cudaMemcpy(out.data(), d_out, n * sizeof(float), cudaMemcpyDeviceToHost));
    CK_BUG(cudaFree(d_in));
    CK_BUG(cudaFree(d_w));
    CK_BUG(cudaFree(d_out));
    app_ran();
}
