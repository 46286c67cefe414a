// reduction — the sum of 300 007 ints and the maximum of 300 007 floats in two passes: 61 blocks of 256
// threads each reduce a grid-stride share (warp shuffles __shfl_down_sync for the sum and
// __shfl_xor_sync for the maximum, then one partial per warp through shared memory), and one block
// of 64 threads reduces the 61 partials with the same kernel. Integer sums and float maxima do not
// depend on the order of operations, so the results are compared exactly.
#define APP_NAME "reduction"
#include "app.h"

#include <cmath>
#include <vector>

#define FULL_MASK 0xffffffffu

__device__ __forceinline__ int warp_sum(int v)
{
    for (int off = 16; off > 0; off >>= 1)
        v += __shfl_down_sync(FULL_MASK, v, off);
    return v; // complete in lane 0 only
}

__device__ __forceinline__ float warp_max(float v)
{
    for (int off = 16; off > 0; off >>= 1)
        v = fmaxf(v, __shfl_xor_sync(FULL_MASK, v, off));
    return v; // complete in every lane (butterfly)
}

// Reduces vals[0..n) and fvals[0..n) to one partial per block in sums[blockIdx.x] and
// maxes[blockIdx.x]. blockDim.x must be a multiple of 32 (the shuffles name all 32 lanes).
__global__ void reduce(const int *vals, const float *fvals, int n, int *sums, float *maxes)
{
    __shared__ int s_sum[32];
    __shared__ float s_max[32];
    int sum = 0;
    float mx = -INFINITY;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        sum += vals[i];
        mx = fmaxf(mx, fvals[i]);
    }
    sum = warp_sum(sum);
    mx = warp_max(mx);
    int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    if (lane == 0) {
        s_sum[warp] = sum;
        s_max[warp] = mx;
    }
    __syncthreads();
    if (warp == 0) {
        int warps = blockDim.x >> 5;
        sum = lane < warps ? s_sum[lane] : 0;
        mx = lane < warps ? s_max[lane] : -INFINITY;
        sum = warp_sum(sum);
        mx = warp_max(mx);
        if (lane == 0) {
            sums[blockIdx.x] = sum;
            maxes[blockIdx.x] = mx;
        }
    }
}

int main(int argc, char **argv)
{
    app_args(argc, argv);
    const int n = 300007, blocks = 61, threads = 256, threads2 = 64;
    AppRng rng = app_rng(3);
    std::vector<int> v(n);
    std::vector<float> f(n);
    long long want_sum = 0;
    float want_max = -INFINITY;
    for (int i = 0; i < n; ++i) {
        v[i] = (int)app_below(&rng, 2001) - 1000;
        f[i] = (float)((int)app_below(&rng, 1u << 24) - (1 << 23)) * 0.5f;
        want_sum += v[i];
        want_max = std::fmax(want_max, f[i]);
    }
    int *d_v = nullptr, *d_sums = nullptr, *d_total = nullptr;
    float *d_f = nullptr, *d_maxes = nullptr, *d_max = nullptr;
    CK(cudaMalloc(&d_v, n * sizeof(int)));
    CK(cudaMalloc(&d_f, n * sizeof(float)));
    CK(cudaMalloc(&d_sums, blocks * sizeof(int)));
    CK(cudaMalloc(&d_maxes, blocks * sizeof(float)));
    CK(cudaMalloc(&d_total, sizeof(int)));
    CK(cudaMalloc(&d_max, sizeof(float)));
    CK(cudaMemcpy(d_v, v.data(), n * sizeof(int), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(d_f, f.data(), n * sizeof(float), cudaMemcpyHostToDevice));

    reduce<<<blocks, threads>>>(d_v, d_f, n, d_sums, d_maxes);
    CK(cudaGetLastError());
    reduce<<<1, threads2>>>(d_sums, d_maxes, blocks, d_total, d_max);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    int got_sum = 0;
    float got_max = 0.0f;
    CK(cudaMemcpy(&got_sum, d_total, sizeof(int), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(&got_max, d_max, sizeof(float), cudaMemcpyDeviceToHost));
    if (got_sum != want_sum)
        app_fail("sum %d, host %lld", got_sum, want_sum);
    if (got_max != want_max)
        app_fail("max %.9g, host %.9g", (double)got_max, (double)want_max);
    CK(cudaFree(d_v));
    CK(cudaFree(d_f));
    CK(cudaFree(d_sums));
    CK(cudaFree(d_maxes));
    CK(cudaFree(d_total));
    CK(cudaFree(d_max));
    app_pass();
}
