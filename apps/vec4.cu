// vec4 — vectorised memory access: y = s·x + 1 over 100 003 floats, the first 100 000 as float4 (one
// 16-byte load and store per thread) and the last 3 by a scalar tail kernel, the usual shape of a
// vectorised benchmark loop. cudaMalloc's alignment (256 bytes) makes the float4 view legal.
// Exact inputs, compared exactly.
#define APP_NAME "vec4"
#include "app.h"

#include <vector>

__global__ void scale4(const float4 *__restrict__ x, float4 *__restrict__ y, int n4, float s)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n4) {
        float4 v = x[i];
        v.x = fmaf(s, v.x, 1.0f);
        v.y = fmaf(s, v.y, 1.0f);
        v.z = fmaf(s, v.z, 1.0f);
        v.w = fmaf(s, v.w, 1.0f);
        y[i] = v;
    }
}

__global__ void scale_tail(const float *x, float *y, int from, int n, float s)
{
    int i = from + blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = fmaf(s, x[i], 1.0f);
}

int main(int argc, char **argv)
{
    app_args(argc, argv);
    const int n = 100003, n4 = n / 4, threads = 256;
    const float s = 2.5f;
    AppRng rng = app_rng(16);
    std::vector<float> x(n), y(n);
    for (auto &v : x)
        v = (float)((int)app_below(&rng, 4097) - 2048) / 32.0f;
    float *d_x = nullptr, *d_y = nullptr;
    CK(cudaMalloc(&d_x, n * sizeof(float)));
    CK(cudaMalloc(&d_y, n * sizeof(float)));
    CK(cudaMemcpy(d_x, x.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    scale4<<<(n4 + threads - 1) / threads, threads>>>(reinterpret_cast<const float4 *>(d_x),
                                                      reinterpret_cast<float4 *>(d_y), n4, s);
    CK(cudaGetLastError());
    scale_tail<<<1, 32>>>(d_x, d_y, 4 * n4, n, s);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(y.data(), d_y, n * sizeof(float), cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; ++i)
        if (y[i] != s * x[i] + 1.0f)
            app_fail("y[%d] = %.9g, host %.9g", i, (double)y[i], (double)(s * x[i] + 1.0f));
    CK(cudaFree(d_x));
    CK(cudaFree(d_y));
    app_pass();
}
