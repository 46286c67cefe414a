// struct_ptrs — kernels that receive their pointers inside structs passed by value (the kernel's
// parameter is the whole struct, so the pointers are read from the parameter space at offsets):
//   - gather_axpy(Gather g): out[i] = a·x[idx[i]] + y[i] over 50 001 elements;
//   - scale_planes(Planes p): each of three planes, named by a pointer array inside the struct
//     (indexed in an unrolled loop), is scaled in place.
// Inputs are small binary fractions, so the results are exact and compared exactly.
#define APP_NAME "struct_ptrs"
#include "app.h"

#include <cmath>
#include <vector>

struct Gather {
    const float *x;  // values, gathered through idx
    const int *idx;  // which x each output takes
    const float *y;  // added to the scaled value
    float *out;
    int n;
    float a;
};

#define PLANES 3

struct Planes {
    float *plane[PLANES];
    float scale[PLANES];
    int n;
};

__global__ void gather_axpy(Gather g)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < g.n)
        g.out[i] = fmaf(g.a, g.x[g.idx[i]], g.y[i]);
}

__global__ void scale_planes(Planes p)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= p.n)
        return;
#pragma unroll
    for (int k = 0; k < PLANES; ++k)
        p.plane[k][i] *= p.scale[k];
}

int main(int argc, char **argv)
{
    app_args(argc, argv);
    const int n = 50001, nx = 4099, threads = 256;
    AppRng rng = app_rng(11);
    std::vector<float> x(nx), y(n), out(n);
    std::vector<int> idx(n);
    for (auto &v : x)
        v = (float)((int)app_below(&rng, 4097) - 2048) / 64.0f;
    for (int i = 0; i < n; ++i) {
        y[i] = (float)((int)app_below(&rng, 4097) - 2048) / 32.0f;
        idx[i] = (int)app_below(&rng, nx);
    }
    Gather g;
    float *d_x = nullptr, *d_y = nullptr, *d_out = nullptr;
    int *d_idx = nullptr;
    CK(cudaMalloc(&d_x, nx * sizeof(float)));
    CK(cudaMalloc(&d_y, n * sizeof(float)));
    CK(cudaMalloc(&d_out, n * sizeof(float)));
    CK(cudaMalloc(&d_idx, n * sizeof(int)));
    CK(cudaMemcpy(d_x, x.data(), nx * sizeof(float), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(d_y, y.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(d_idx, idx.data(), n * sizeof(int), cudaMemcpyHostToDevice));
    g.x = d_x;
    g.idx = d_idx;
    g.y = d_y;
    g.out = d_out;
    g.n = n;
    g.a = -0.75f;
    gather_axpy<<<(n + threads - 1) / threads, threads>>>(g);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(out.data(), d_out, n * sizeof(float), cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; ++i) {
        float want = std::fma(g.a, x[idx[i]], y[i]);
        if (out[i] != want)
            app_fail("gather out[%d] = %.9g, host %.9g", i, (double)out[i], (double)want);
    }

    // Planes: three separate allocations of different sizes, each holding at least n floats.
    const int m = 30011;
    Planes p;
    std::vector<std::vector<float>> host(PLANES, std::vector<float>(m));
    for (int k = 0; k < PLANES; ++k) {
        CK(cudaMalloc(&p.plane[k], (m + 64 * k) * sizeof(float)));
        for (auto &v : host[k])
            v = (float)((int)app_below(&rng, 1025) - 512) / 16.0f;
        CK(cudaMemcpy(p.plane[k], host[k].data(), m * sizeof(float), cudaMemcpyHostToDevice));
        p.scale[k] = 0.5f + (float)k;
    }
    p.n = m;
    scale_planes<<<(m + threads - 1) / threads, threads>>>(p);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    std::vector<float> got(m);
    for (int k = 0; k < PLANES; ++k) {
        CK(cudaMemcpy(got.data(), p.plane[k], m * sizeof(float), cudaMemcpyDeviceToHost));
        for (int i = 0; i < m; ++i)
            if (got[i] != host[k][i] * p.scale[k])
                app_fail("plane %d [%d] = %.9g, host %.9g", k, i, (double)got[i],
                         (double)(host[k][i] * p.scale[k]));
        CK(cudaFree(p.plane[k]));
    }
    CK(cudaFree(d_x));
    CK(cudaFree(d_y));
    CK(cudaFree(d_out));
    CK(cudaFree(d_idx));
    app_pass();
}
