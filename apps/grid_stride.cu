// grid_stride — a grid-stride loop (24 blocks of 96 threads cover 123 457 elements, about 54 each) and
// cudaMemset: out is first set to 0xff bytes (every int -1) and the kernel writes only the elements
// whose input is odd, so the check sees both the kernel's values and the memset's. A second buffer
// cleared with cudaMemset(0) receives per-thread element counts. Integers: compared exactly.
#define APP_NAME "grid_stride"
#include "app.h"

#include <vector>

__global__ void odd_triple(const int *in, int *out, int *per_thread, int n)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x, stride = blockDim.x * gridDim.x, seen = 0;
    for (int i = t; i < n; i += stride) {
        int v = in[i];
        if (v & 1)
            out[i] = 3 * v + 1;
        ++seen;
    }
    per_thread[t] += seen;
}

int main(int argc, char **argv)
{
    app_args(argc, argv);
    const int n = 123457, blocks = 24, threads = 96, total = blocks * threads;
    AppRng rng = app_rng(18);
    std::vector<int> in(n), out(n), per(total);
    for (auto &v : in)
        v = (int)app_below(&rng, 1u << 20);
    int *d_in = nullptr, *d_out = nullptr, *d_per = nullptr;
    CK(cudaMalloc(&d_in, n * sizeof(int)));
    CK(cudaMalloc(&d_out, n * sizeof(int)));
    CK(cudaMalloc(&d_per, total * sizeof(int)));
    CK(cudaMemcpy(d_in, in.data(), n * sizeof(int), cudaMemcpyHostToDevice));
    CK(cudaMemset(d_out, 0xff, n * sizeof(int)));
    CK(cudaMemset(d_per, 0, total * sizeof(int)));
    odd_triple<<<blocks, threads>>>(d_in, d_out, d_per, n);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(out.data(), d_out, n * sizeof(int), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(per.data(), d_per, total * sizeof(int), cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; ++i) {
        int want = (in[i] & 1) ? 3 * in[i] + 1 : -1;
        if (out[i] != want)
            app_fail("out[%d] = %d, host %d", i, out[i], want);
    }
    for (int t = 0; t < total; ++t) {
        int want = t < n ? (n - 1 - t) / total + 1 : 0;
        if (per[t] != want)
            app_fail("thread %d saw %d elements, host %d", t, per[t], want);
    }
    CK(cudaFree(d_in));
    CK(cudaFree(d_out));
    CK(cudaFree(d_per));
    app_pass();
}
