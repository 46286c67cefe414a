// ptr_select — accesses whose address has several root pointers, merged by the control flow:
//   - pick: p = (i % 3 == 0) ? a : b, then one load through p (a select of two parameters);
//   - route: an if/else assigns hi or lo to dst and each arm has its own side effect (a different
//     atomic), so the two arms cannot be folded into a select; the store through dst after the join
//     has both parameters as roots;
//   - pingpong: one block of 250 threads runs 6 smoothing steps between two buffers, swapping the
//     source and destination pointers in the loop, so the loads and stores in the loop body have
//     both buffers as roots through the loop's back edge.
// All values are small binary fractions: results are exact and compared exactly.
#define APP_NAME "ptr_select"
#include "app.h"

#include <utility>
#include <vector>

__global__ void pick(const float *a, const float *b, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    const float *src = (i % 3 == 0) ? a : b;
    out[i] = 2.0f * src[i];
}

__global__ void route(const float *in, float *hi, float *lo, int *n_hi, int *lo_max, float t, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float v = in[i];
    float *dst;
    if (v >= t) {
        dst = hi;
        atomicAdd(n_hi, 1);
    } else {
        dst = lo;
        atomicMax(lo_max, i);
    }
    dst[i] = v + 1.0f;
}

// Smooths a[0..n) for `steps` steps, alternating between a and b; the result is in a after an even
// number of steps and in b after an odd one. Runs as one block of n threads (the barrier must cover
// every reader of the buffer that is written next).
__global__ void pingpong(float *a, float *b, int n, int steps)
{
    int i = threadIdx.x;
    float *src = a, *dst = b;
#pragma unroll 1 // unrolled, the swap would vanish into fixed pointers per copy of the body
    for (int s = 0; s < steps; ++s) {
        float left = src[i > 0 ? i - 1 : i], right = src[i + 1 < n ? i + 1 : i];
        dst[i] = 0.5f * src[i] + 0.25f * (left + right);
        __syncthreads(); // every thread has written dst before it becomes the source
        float *t = src;
        src = dst;
        dst = t;
    }
}

int main(int argc, char **argv)
{
    app_args(argc, argv);
    const int n = 20011, threads = 256;
    AppRng rng = app_rng(12);
    std::vector<float> a(n), b(n), out(n);
    for (int i = 0; i < n; ++i) {
        a[i] = (float)((int)app_below(&rng, 2049) - 1024) / 8.0f;
        b[i] = (float)((int)app_below(&rng, 2049) - 1024) / 8.0f;
    }
    const size_t bytes = n * sizeof(float);
    float *d_a = nullptr, *d_b = nullptr, *d_out = nullptr, *d_hi = nullptr, *d_lo = nullptr;
    int *d_counts = nullptr;
    CK(cudaMalloc(&d_a, bytes));
    CK(cudaMalloc(&d_b, bytes));
    CK(cudaMalloc(&d_out, bytes));
    CK(cudaMalloc(&d_hi, bytes));
    CK(cudaMalloc(&d_lo, bytes));
    CK(cudaMalloc(&d_counts, 2 * sizeof(int)));
    CK(cudaMemcpy(d_a, a.data(), bytes, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(d_b, b.data(), bytes, cudaMemcpyHostToDevice));
    CK(cudaMemset(d_hi, 0, bytes));
    CK(cudaMemset(d_lo, 0, bytes));
    const int init_counts[2] = {0, -1};
    CK(cudaMemcpy(d_counts, init_counts, sizeof init_counts, cudaMemcpyHostToDevice));

    const int blocks = (n + threads - 1) / threads;
    pick<<<blocks, threads>>>(d_a, d_b, d_out, n);
    CK(cudaGetLastError());
    const float t = 3.0f;
    route<<<blocks, threads>>>(d_a, d_hi, d_lo, d_counts, d_counts + 1, t, n);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());

    CK(cudaMemcpy(out.data(), d_out, bytes, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; ++i) {
        float want = 2.0f * (i % 3 == 0 ? a[i] : b[i]);
        if (out[i] != want)
            app_fail("pick out[%d] = %.9g, host %.9g", i, (double)out[i], (double)want);
    }
    std::vector<float> hi(n), lo(n);
    int counts[2];
    CK(cudaMemcpy(hi.data(), d_hi, bytes, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(lo.data(), d_lo, bytes, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(counts, d_counts, sizeof counts, cudaMemcpyDeviceToHost));
    int want_hi = 0, want_lo_max = -1;
    for (int i = 0; i < n; ++i) {
        bool up = a[i] >= t;
        want_hi += up;
        if (!up)
            want_lo_max = i;
        float want_h = up ? a[i] + 1.0f : 0.0f, want_l = up ? 0.0f : a[i] + 1.0f;
        if (hi[i] != want_h || lo[i] != want_l)
            app_fail("route [%d]: hi %.9g lo %.9g, host %.9g %.9g", i, (double)hi[i], (double)lo[i],
                     (double)want_h, (double)want_l);
    }
    if (counts[0] != want_hi || counts[1] != want_lo_max)
        app_fail("route counts %d %d, host %d %d", counts[0], counts[1], want_hi, want_lo_max);

    // pingpong over the first m elements of a (as the first source) and out (as the first target).
    const int m = 250, steps = 6;
    pingpong<<<1, m>>>(d_a, d_out, m, steps);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    std::vector<float> src(a.begin(), a.begin() + m), dst(m), got(m);
    for (int s = 0; s < steps; ++s) {
        for (int i = 0; i < m; ++i) {
            float left = src[i > 0 ? i - 1 : i], right = src[i + 1 < m ? i + 1 : i];
            dst[i] = 0.5f * src[i] + 0.25f * (left + right);
        }
        std::swap(src, dst);
    }
    // After an even number of steps the last result is in a (the first source).
    CK(cudaMemcpy(got.data(), steps % 2 == 0 ? d_a : d_out, m * sizeof(float), cudaMemcpyDeviceToHost));
    for (int i = 0; i < m; ++i)
        if (got[i] != src[i])
            app_fail("pingpong [%d] = %.9g, host %.9g", i, (double)got[i], (double)src[i]);

    CK(cudaFree(d_a));
    CK(cudaFree(d_b));
    CK(cudaFree(d_out));
    CK(cudaFree(d_hi));
    CK(cudaFree(d_lo));
    CK(cudaFree(d_counts));
    app_pass();
}
