// arith.cu — plain arithmetic, global loads/stores and a grid-stride loop (a parser fixture).
#include <cstdint>

__global__ void saxpy(int n, float a, const float *__restrict__ x, float *__restrict__ y)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        y[i] = a * x[i] + y[i];
}

__global__ void mix(int64_t *out, const int32_t *in, uint32_t n, double d)
{
    uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int32_t v = in[i];
    int64_t w = (int64_t)v * 3 - 7;
    w ^= (w >> 5);
    w += (int64_t)(d * v);
    if (v < 0) w = -w;
    out[i] = w + (uint64_t)(v % 13) + (v / 7u) + min(v, 100) + max(v, -100);
}

__global__ void divs(float *f, double *g, unsigned *u, int n)
{
    int i = threadIdx.x;
    if (i < n) {
        f[i] = f[i] / (f[i + 1] + 1.5f);
        g[i] = g[i] / (g[i + 1] - 2.0);
        u[i] = u[i] / (u[i + 1] | 1u) + (u[i] << 3) + (u[i] >> (i & 7));
    }
}
