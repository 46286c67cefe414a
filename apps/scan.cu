// scan — exclusive prefix sum of 40 001 ints in three launches of two kernels: scan_blocks scans each
// 512-element block in shared memory (Blelloch's up-sweep and down-sweep, 256 threads, two elements
// each) and writes the block's total; scan_blocks again, as one block, scans the 79 totals in
// place; add_offsets adds each block's scanned total to its elements.
#define APP_NAME "scan"
#include "app.h"

#include <vector>

#define SCAN_T 256
#define SCAN_E (2 * SCAN_T)

// Exclusive scan of in[b·SCAN_E .. (b+1)·SCAN_E) ∩ [0, n) into out (same indices) for block b; the
// block's total goes to sums[b] unless sums is null. in may equal out (all of a block is read into
// shared memory before anything is written). blockDim.x must be SCAN_T.
__global__ void scan_blocks(const int *in, int *out, int *sums, int n)
{
    __shared__ int s[SCAN_E];
    int t = threadIdx.x, base = blockIdx.x * SCAN_E;
    s[2 * t] = base + 2 * t < n ? in[base + 2 * t] : 0;
    s[2 * t + 1] = base + 2 * t + 1 < n ? in[base + 2 * t + 1] : 0;
    int off = 1;
    for (int d = SCAN_E >> 1; d > 0; d >>= 1) {
        __syncthreads();
        if (t < d) {
            int ai = off * (2 * t + 1) - 1, bi = off * (2 * t + 2) - 1;
            s[bi] += s[ai];
        }
        off <<= 1;
    }
    __syncthreads();
    if (t == 0) {
        if (sums)
            sums[blockIdx.x] = s[SCAN_E - 1];
        s[SCAN_E - 1] = 0;
    }
    for (int d = 1; d < SCAN_E; d <<= 1) {
        off >>= 1;
        __syncthreads();
        if (t < d) {
            int ai = off * (2 * t + 1) - 1, bi = off * (2 * t + 2) - 1;
            int tmp = s[ai];
            s[ai] = s[bi];
            s[bi] += tmp;
        }
    }
    __syncthreads();
    if (base + 2 * t < n)
        out[base + 2 * t] = s[2 * t];
    if (base + 2 * t + 1 < n)
        out[base + 2 * t + 1] = s[2 * t + 1];
}

// out[i] += offsets[block of i] for the block's SCAN_E elements.
__global__ void add_offsets(int *out, const int *offsets, int n)
{
    int i = blockIdx.x * SCAN_E + threadIdx.x;
    int add = offsets[blockIdx.x];
    if (i < n)
        out[i] += add;
    if (i + SCAN_T < n)
        out[i + SCAN_T] += add;
}

int main(int argc, char **argv)
{
    app_args(argc, argv);
    const int n = 40001, blocks = (n + SCAN_E - 1) / SCAN_E;
    if (blocks > SCAN_E)
        app_fail("the block totals (%d) must fit one block", blocks);
    AppRng rng = app_rng(7);
    std::vector<int> in(n), got(n);
    for (auto &v : in)
        v = (int)app_below(&rng, 10);
    int *d_in = nullptr, *d_out = nullptr, *d_sums = nullptr;
    CK(cudaMalloc(&d_in, n * sizeof(int)));
    CK(cudaMalloc(&d_out, n * sizeof(int)));
    CK(cudaMalloc(&d_sums, blocks * sizeof(int)));
    CK(cudaMemcpy(d_in, in.data(), n * sizeof(int), cudaMemcpyHostToDevice));

    scan_blocks<<<blocks, SCAN_T>>>(d_in, d_out, d_sums, n);
    CK(cudaGetLastError());
    scan_blocks<<<1, SCAN_T>>>(d_sums, d_sums, nullptr, blocks);
    CK(cudaGetLastError());
    add_offsets<<<blocks, SCAN_T>>>(d_out, d_sums, n);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(got.data(), d_out, n * sizeof(int), cudaMemcpyDeviceToHost));

    int run = 0;
    for (int i = 0; i < n; ++i) {
        if (got[i] != run)
            app_fail("out[%d] = %d, host %d", i, got[i], run);
        run += in[i];
    }
    CK(cudaFree(d_in));
    CK(cudaFree(d_out));
    CK(cudaFree(d_sums));
    app_pass();
}
