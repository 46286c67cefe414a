// noinline_call — device functions that stay calls (__noinline__) and take pointers: a matrix-vector
// product out = scale·(M·v) for a 1 000 × 37 matrix, one thread per row, where the row's dot product
// is row_dot(M + r·cols, v, cols) and the store is store_scaled(out + r, ...). Inside the functions
// the pointers are parameters of a .func, the case an intra-procedural root-pointer analysis sees
// without the kernel's context (paper §6.2). Small binary fractions: exact, compared exactly.
#define APP_NAME "noinline_call"
#include "app.h"

#include <vector>

__device__ __noinline__ float row_dot(const float *row, const float *v, int n)
{
    float s = 0.0f;
    for (int k = 0; k < n; ++k)
        s = fmaf(row[k], v[k], s);
    return s;
}

__device__ __noinline__ void store_scaled(float *dst, float value, float scale)
{
    *dst = value * scale;
}

__global__ void matvec(const float *m, const float *v, float *out, int rows, int cols, float scale)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r < rows)
        store_scaled(out + r, row_dot(m + (size_t)r * cols, v, cols), scale);
}

int main(int argc, char **argv)
{
    app_args(argc, argv);
    const int rows = 1000, cols = 37, threads = 128;
    const float scale = 0.75f;
    AppRng rng = app_rng(15);
    std::vector<float> m(rows * cols), v(cols), out(rows);
    for (auto &x : m)
        x = (float)((int)app_below(&rng, 33) - 16) / 16.0f;
    for (auto &x : v)
        x = (float)((int)app_below(&rng, 33) - 16) / 4.0f;
    float *d_m = nullptr, *d_v = nullptr, *d_out = nullptr;
    CK(cudaMalloc(&d_m, m.size() * sizeof(float)));
    CK(cudaMalloc(&d_v, v.size() * sizeof(float)));
    CK(cudaMalloc(&d_out, out.size() * sizeof(float)));
    CK(cudaMemcpy(d_m, m.data(), m.size() * sizeof(float), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(d_v, v.data(), v.size() * sizeof(float), cudaMemcpyHostToDevice));
    matvec<<<(rows + threads - 1) / threads, threads>>>(d_m, d_v, d_out, rows, cols, scale);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(out.data(), d_out, out.size() * sizeof(float), cudaMemcpyDeviceToHost));
    for (int r = 0; r < rows; ++r) {
        float s = 0.0f;
        for (int k = 0; k < cols; ++k)
            s += m[r * cols + k] * v[k];
        if (out[r] != s * scale)
            app_fail("out[%d] = %.9g, host %.9g", r, (double)out[r], (double)(s * scale));
    }
    CK(cudaFree(d_m));
    CK(cudaFree(d_v));
    CK(cudaFree(d_out));
    app_pass();
}
