// multi_kernel — a pipeline of three kernels with frees and new allocations between the launches, so
// that later buffers reuse memory earlier ones held (each new allocation gets a fresh tag under
// GPUArmor: a correct program must stay free of reports while memory is recycled):
//   a → square → b; free a; alloc c (twice a's size); b → interleave → c; free b;
//   alloc d (a's size: a first-fit allocator puts it where a was); c → fold → d; free c;
//   alloc e (a's size again: where b was); d → square → e; check e; free d and e.
// 40 009 elements of small integers: exact, compared exactly.
#define APP_NAME "multi_kernel"
#include "app.h"

#include <vector>

__global__ void square(const float *in, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = in[i] * in[i];
}

// out[2i] = in[i], out[2i+1] = -in[i] / 2.
__global__ void interleave(const float *in, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        out[2 * i] = in[i];
        out[2 * i + 1] = -0.5f * in[i];
    }
}

// out[i] = in[2i] + in[2i+1] + i % 4.
__global__ void fold(const float *in, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = in[2 * i] + in[2 * i + 1] + (float)(i % 4);
}

int main(int argc, char **argv)
{
    app_args(argc, argv);
    const int n = 40009, threads = 224, blocks = (n + threads - 1) / threads;
    const size_t bytes = n * sizeof(float);
    AppRng rng = app_rng(14);
    std::vector<float> h(n), got(n);
    for (auto &v : h)
        v = (float)((int)app_below(&rng, 201) - 100);

    float *a = nullptr, *b = nullptr, *c = nullptr, *d = nullptr, *e = nullptr;
    CK(cudaMalloc(&a, bytes));
    CK(cudaMalloc(&b, bytes));
    CK(cudaMemcpy(a, h.data(), bytes, cudaMemcpyHostToDevice));
    square<<<blocks, threads>>>(a, b, n);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    CK(cudaFree(a));

    CK(cudaMalloc(&c, 2 * bytes));
    interleave<<<blocks, threads>>>(b, c, n);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    CK(cudaFree(b));

    CK(cudaMalloc(&d, bytes));
    fold<<<blocks, threads>>>(c, d, n);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    CK(cudaFree(c));

    CK(cudaMalloc(&e, bytes));
    square<<<blocks, threads>>>(d, e, n);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(got.data(), e, bytes, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; ++i) {
        float sq = h[i] * h[i];
        float f = sq + -0.5f * sq + (float)(i % 4);
        if (got[i] != f * f)
            app_fail("e[%d] = %.9g, host %.9g", i, (double)got[i], (double)(f * f));
    }
    CK(cudaFree(d));
    CK(cudaFree(e));
    app_pass();
}
