// stencil2d — three Jacobi steps of a 5-point stencil, out = 1/2·centre + 1/8·(N + S + E + W), on a
// 181×133 grid (neither a multiple of the 16×16 block) whose border cells are copied unchanged.
// Each block stages its 16×16 cells plus a one-cell halo in shared memory (18×18) and two buffers
// ping-pong between steps. Inputs are multiples of 1/16 in [0, 4), so every step is exact in float
// and the host computes the same values bit for bit.
#define APP_NAME "stencil2d"
#include "app.h"

#include <utility>
#include <vector>

#define BX 16
#define BY 16

__global__ void stencil5(const float *in, float *out, int w, int h)
{
    __shared__ float tile[BY + 2][BX + 2];
    int x = blockIdx.x * BX + threadIdx.x, y = blockIdx.y * BY + threadIdx.y;
    int tx = threadIdx.x + 1, ty = threadIdx.y + 1;
    bool inside = x < w && y < h;
    tile[ty][tx] = inside ? in[y * w + x] : 0.0f;
    // The block's edge threads also fetch the neighbour just outside the block. Cells past the grid
    // are never read: only interior cells apply the stencil.
    if (inside) {
        if (threadIdx.x == 0 && x > 0)
            tile[ty][0] = in[y * w + x - 1];
        if (threadIdx.x == BX - 1 && x + 1 < w)
            tile[ty][BX + 1] = in[y * w + x + 1];
        if (threadIdx.y == 0 && y > 0)
            tile[0][tx] = in[(y - 1) * w + x];
        if (threadIdx.y == BY - 1 && y + 1 < h)
            tile[BY + 1][tx] = in[(y + 1) * w + x];
    }
    __syncthreads();
    if (!inside)
        return;
    float c = tile[ty][tx];
    if (x == 0 || y == 0 || x == w - 1 || y == h - 1)
        out[y * w + x] = c;
    else
        out[y * w + x] = 0.5f * c + 0.125f * ((tile[ty - 1][tx] + tile[ty + 1][tx]) +
                                              (tile[ty][tx - 1] + tile[ty][tx + 1]));
}

int main(int argc, char **argv)
{
    app_args(argc, argv);
    const int w = 181, h = 133, steps = 3;
    AppRng rng = app_rng(5);
    std::vector<float> a(w * h), b(w * h), got(w * h);
    for (auto &v : a)
        v = (float)app_below(&rng, 64) / 16.0f;
    const size_t bytes = a.size() * sizeof(float);
    float *d_a = nullptr, *d_b = nullptr;
    CK(cudaMalloc(&d_a, bytes));
    CK(cudaMalloc(&d_b, bytes));
    CK(cudaMemcpy(d_a, a.data(), bytes, cudaMemcpyHostToDevice));

    dim3 block(BX, BY), grid((w + BX - 1) / BX, (h + BY - 1) / BY);
    float *src = d_a, *dst = d_b;
    for (int s = 0; s < steps; ++s) {
        stencil5<<<grid, block>>>(src, dst, w, h);
        CK(cudaGetLastError());
        std::swap(src, dst);
    }
    CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(got.data(), src, bytes, cudaMemcpyDeviceToHost));

    for (int s = 0; s < steps; ++s) {
        for (int y = 0; y < h; ++y)
            for (int x = 0; x < w; ++x) {
                float c = a[y * w + x];
                b[y * w + x] = (x == 0 || y == 0 || x == w - 1 || y == h - 1)
                                   ? c
                                   : 0.5f * c + 0.125f * ((a[(y - 1) * w + x] + a[(y + 1) * w + x]) +
                                                          (a[y * w + x - 1] + a[y * w + x + 1]));
            }
        std::swap(a, b);
    }
    for (int i = 0; i < w * h; ++i)
        if (got[i] != a[i])
            app_fail("cell (%d, %d) = %.9g, host %.9g", i % w, i / w, (double)got[i], (double)a[i]);
    CK(cudaFree(d_a));
    CK(cudaFree(d_b));
    app_pass();
}
