// saxpy — y = a*x + y over 65 539 floats (a prime, so the last block and warp are partial), blocks of
// 128 threads. The device uses fmaf explicitly and the host std::fma, so both round once and the
// results are compared bit for bit.
#define APP_NAME "saxpy"
#include "app.h"

#include <cmath>
#include <vector>

__global__ void saxpy(int n, float a, const float *x, float *y)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = fmaf(a, x[i], y[i]);
}

int main(int argc, char **argv)
{
    app_args(argc, argv);
    const int n = 65539;
    const float a = 1.75f;
    AppRng rng = app_rng(2);
    std::vector<float> x(n), y(n), out(n);
    for (int i = 0; i < n; ++i) {
        x[i] = (float)((int)app_below(&rng, 2000001) - 1000000) / 3.0f;
        y[i] = (float)((int)app_below(&rng, 2000001) - 1000000) / 7.0f;
    }
    const size_t bytes = (size_t)n * sizeof(float);
    float *d_x = nullptr, *d_y = nullptr;
    CK(cudaMalloc(&d_x, bytes));
    CK(cudaMalloc(&d_y, bytes));
    CK(cudaMemcpy(d_x, x.data(), bytes, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(d_y, y.data(), bytes, cudaMemcpyHostToDevice));

    const int threads = 128;
    saxpy<<<(n + threads - 1) / threads, threads>>>(n, a, d_x, d_y);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(out.data(), d_y, bytes, cudaMemcpyDeviceToHost));

    for (int i = 0; i < n; ++i) {
        float want = std::fma(a, x[i], y[i]);
        if (out[i] != want)
            app_fail("y[%d] = %.9g, host %.9g", i, (double)out[i], (double)want);
    }
    CK(cudaFree(d_x));
    CK(cudaFree(d_y));
    app_pass();
}
