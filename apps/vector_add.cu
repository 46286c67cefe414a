// vector_add — c = a + b over 100 003 floats, one thread per element. 100 003 is a multiple of neither
// 32 nor 256, so the last block and its last warp are partly idle. Starts with the device queries a
// real program makes first (count, properties, set device).
#define APP_NAME "vector_add"
#include "app.h"

#include <vector>

__global__ void vector_add(const float *a, const float *b, float *c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        c[i] = a[i] + b[i];
}

int main(int argc, char **argv)
{
    app_args(argc, argv);
    int count = 0;
    CK(cudaGetDeviceCount(&count));
    if (count < 1)
        app_fail("cudaGetDeviceCount reported %d devices", count);
    cudaDeviceProp prop;
    CK(cudaGetDeviceProperties(&prop, 0));
    const int threads = 256;
    if (prop.maxThreadsPerBlock < threads || prop.warpSize != 32)
        app_fail("device 0 reports maxThreadsPerBlock %d, warpSize %d", prop.maxThreadsPerBlock,
                 prop.warpSize);
    CK(cudaSetDevice(0));

    const int n = 100003;
    AppRng rng = app_rng(1);
    std::vector<float> a(n), b(n), c(n);
    for (int i = 0; i < n; ++i) {
        a[i] = (float)app_below(&rng, 1u << 20) / 1024.0f;
        b[i] = (float)app_below(&rng, 1u << 20) / 2048.0f - 256.0f;
    }
    const size_t bytes = (size_t)n * sizeof(float);
    float *d_a = nullptr, *d_b = nullptr, *d_c = nullptr;
    CK(cudaMalloc(&d_a, bytes));
    CK(cudaMalloc(&d_b, bytes));
    CK(cudaMalloc(&d_c, bytes));
    CK(cudaMemcpy(d_a, a.data(), bytes, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(d_b, b.data(), bytes, cudaMemcpyHostToDevice));

    vector_add<<<(n + threads - 1) / threads, threads>>>(d_a, d_b, d_c, n);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(c.data(), d_c, bytes, cudaMemcpyDeviceToHost));

    // One IEEE single addition on both sides: the results are bit-identical.
    for (int i = 0; i < n; ++i)
        if (c[i] != a[i] + b[i])
            app_fail("c[%d] = %.9g, host %.9g", i, (double)c[i], (double)(a[i] + b[i]));
    CK(cudaFree(d_a));
    CK(cudaFree(d_b));
    CK(cudaFree(d_c));
    app_pass();
}
