// histogram — a 256-bin histogram of 150 001 bytes (one value in seven is 42, to make the atomics
// contend) plus 16 float "weight" bins. Each block of 192 threads counts its grid-stride share into
// shared bins with atomicAdd on int and on float, then adds them to the global bins with atomicAdd
// (int and float). Weights are multiples of 1/4 and every total stays below 2^22, so the float sums
// are exact in any order and are compared exactly.
#define APP_NAME "histogram"
#include "app.h"

#include <vector>

#define BINS 256
#define WBINS 16

__global__ void histogram(const unsigned char *data, int n, int *hist, float *wsum)
{
    __shared__ int s_hist[BINS];
    __shared__ float s_w[WBINS];
    for (int b = threadIdx.x; b < BINS; b += blockDim.x)
        s_hist[b] = 0;
    if (threadIdx.x < WBINS)
        s_w[threadIdx.x] = 0.0f;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        unsigned v = data[i];
        atomicAdd(&s_hist[v], 1);
        atomicAdd(&s_w[v & (WBINS - 1)], 0.25f * (float)(v >> 6));
    }
    __syncthreads();
    for (int b = threadIdx.x; b < BINS; b += blockDim.x)
        if (s_hist[b] != 0)
            atomicAdd(&hist[b], s_hist[b]);
    if (threadIdx.x < WBINS)
        atomicAdd(&wsum[threadIdx.x], s_w[threadIdx.x]);
}

int main(int argc, char **argv)
{
    app_args(argc, argv);
    const int n = 150001, blocks = 48, threads = 192;
    AppRng rng = app_rng(6);
    std::vector<unsigned char> data(n);
    std::vector<int> want(BINS, 0), got(BINS);
    std::vector<float> wwant(WBINS, 0.0f), wgot(WBINS);
    for (int i = 0; i < n; ++i) {
        data[i] = app_below(&rng, 7) == 0 ? 42 : (unsigned char)app_below(&rng, 256);
        want[data[i]]++;
        wwant[data[i] & (WBINS - 1)] += 0.25f * (float)(data[i] >> 6);
    }
    unsigned char *d_data = nullptr;
    int *d_hist = nullptr;
    float *d_w = nullptr;
    CK(cudaMalloc(&d_data, n));
    CK(cudaMalloc(&d_hist, BINS * sizeof(int)));
    CK(cudaMalloc(&d_w, WBINS * sizeof(float)));
    CK(cudaMemcpy(d_data, data.data(), n, cudaMemcpyHostToDevice));
    CK(cudaMemset(d_hist, 0, BINS * sizeof(int)));
    CK(cudaMemset(d_w, 0, WBINS * sizeof(float)));

    histogram<<<blocks, threads>>>(d_data, n, d_hist, d_w);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(got.data(), d_hist, BINS * sizeof(int), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(wgot.data(), d_w, WBINS * sizeof(float), cudaMemcpyDeviceToHost));

    for (int b = 0; b < BINS; ++b)
        if (got[b] != want[b])
            app_fail("bin %d = %d, host %d", b, got[b], want[b]);
    for (int b = 0; b < WBINS; ++b)
        if (wgot[b] != wwant[b])
            app_fail("weight bin %d = %.9g, host %.9g", b, (double)wgot[b], (double)wwant[b]);
    CK(cudaFree(d_data));
    CK(cudaFree(d_hist));
    CK(cudaFree(d_w));
    app_pass();
}
