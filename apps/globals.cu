// globals — module-scope variables: a __device__ counter and table, __constant__ coefficients and a
// threshold. The host sets them with cudaMemcpyToSymbol (once with an offset) and reads them back
// with cudaMemcpyFromSymbol; the kernels read the constants, read and update the table and count
// with atomicAdd on the __device__ counter. One device printf (a single line from one thread) is
// the corpus's only use of printf. 30 011 elements, blocks of 96 threads.
#define APP_NAME "globals"
#include "app.h"

#include <vector>

#define TABLE 64

__device__ int g_table[TABLE];
__device__ unsigned int g_count;
__constant__ float c_coef[4];
__constant__ int c_threshold;

// out[i] = poly(in[i]) + table[i % TABLE]; counts the elements whose integer part exceeds the threshold.
__global__ void apply(const float *in, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float v = in[i];
    float poly = c_coef[0] + v * (c_coef[1] + v * (c_coef[2] + v * c_coef[3]));
    out[i] = poly + (float)g_table[i % TABLE];
    if ((int)v > c_threshold)
        atomicAdd(&g_count, 1u);
}

__global__ void bump_table(int delta)
{
    int t = threadIdx.x;
    if (t < TABLE)
        g_table[t] += delta * t;
    if (t == 0)
        printf("globals: bump_table(%d)\n", delta);
}

// The host's version of apply for one element and table.
static float host_apply(float v, const float *coef, int table_entry)
{
    float poly = coef[0] + v * (coef[1] + v * (coef[2] + v * coef[3]));
    return poly + (float)table_entry;
}

int main(int argc, char **argv)
{
    app_args(argc, argv);
    const int n = 30011, threads = 96;
    AppRng rng = app_rng(13);
    // Inputs are multiples of 1/4 in [0, 8) and the coefficients multiples of 1/8, so the polynomial
    // is exact in float however the compiler contracts it.
    const float coef[4] = {1.0f, -0.5f, 0.25f, 0.125f};
    const int threshold = 5;
    std::vector<float> in(n), out(n);
    for (auto &v : in)
        v = (float)app_below(&rng, 32) / 4.0f;
    int table[TABLE];
    for (int k = 0; k < TABLE; ++k)
        table[k] = 1000 - 3 * k;
    const unsigned zero = 0;
    CK(cudaMemcpyToSymbol(c_coef, coef, sizeof coef));
    CK(cudaMemcpyToSymbol(c_threshold, &threshold, sizeof threshold));
    CK(cudaMemcpyToSymbol(g_table, table, TABLE / 2 * sizeof(int)));
    CK(cudaMemcpyToSymbol(g_table, table + TABLE / 2, TABLE / 2 * sizeof(int), TABLE / 2 * sizeof(int)));
    CK(cudaMemcpyToSymbol(g_count, &zero, sizeof zero));

    float *d_in = nullptr, *d_out = nullptr;
    CK(cudaMalloc(&d_in, n * sizeof(float)));
    CK(cudaMalloc(&d_out, n * sizeof(float)));
    CK(cudaMemcpy(d_in, in.data(), n * sizeof(float), cudaMemcpyHostToDevice));

    const int blocks = (n + threads - 1) / threads;
    unsigned want_count = 0;
    for (int round = 0; round < 2; ++round) {
        if (round == 1) {
            bump_table<<<1, TABLE>>>(3);
            CK(cudaGetLastError());
            for (int k = 0; k < TABLE; ++k)
                table[k] += 3 * k;
        }
        apply<<<blocks, threads>>>(d_in, d_out, n);
        CK(cudaGetLastError());
        CK(cudaDeviceSynchronize());
        CK(cudaMemcpy(out.data(), d_out, n * sizeof(float), cudaMemcpyDeviceToHost));
        for (int i = 0; i < n; ++i) {
            float want = host_apply(in[i], coef, table[i % TABLE]);
            if (out[i] != want)
                app_fail("round %d: out[%d] = %.9g, host %.9g", round, i, (double)out[i], (double)want);
            want_count += (int)in[i] > threshold;
        }
    }
    unsigned got_count = 0;
    int got_table[TABLE];
    CK(cudaMemcpyFromSymbol(&got_count, g_count, sizeof got_count));
    CK(cudaMemcpyFromSymbol(got_table, g_table, sizeof got_table));
    if (got_count != want_count)
        app_fail("g_count = %u, host %u", got_count, want_count);
    for (int k = 0; k < TABLE; ++k)
        if (got_table[k] != table[k])
            app_fail("g_table[%d] = %d, host %d", k, got_table[k], table[k]);
    CK(cudaFree(d_in));
    CK(cudaFree(d_out));
    app_pass();
}
