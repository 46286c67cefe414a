// bug_shared_oob — BUG, class shared_oob: an index one past the end of a __shared__ array.
//
// smooth stages 256 floats in the shared array tile and has each thread average its element with
// its right neighbour, tile[t + 1] — without the guard for the last thread, which reads tile[256],
// one element past the end (the block's other shared array, weights, is declared after it; where
// the compiler places it is its choice, so what the read returns is not defined). One block of 256
// threads: the bug is one read by thread 255. The program prints RAN.
//
// Expected: compiler mode SHARED_OUT_OF_BOUNDS (MEMCHECK.S checks the address against tile's
// compile-time base and size, docs/spec.md §4.3; deterministic); HWOnly clean (HWOnly checks only
// global accesses: shared bounds are compile-time facts only the compiler knows, paper §6.2).
//
// Parameters for the evaluation's variants (apps/bug_args.h, apps/variants.tsv; the defaults are the
// run above): shift (each thread reads tile[t + shift]: with shift > 0 the last shift threads read
// past the end, with shift < 0 the first -shift threads read before the start; 0 is refused, it is
// not a bug) and blocks (every block commits the bug).
#define APP_NAME "bug_shared_oob"
#include "app.h"
#include "bug_args.h"

#include <vector>

#define N 256

__global__ void smooth(const float *in, const float *w, float *out)
{
    __shared__ float tile[N];
    __shared__ float weights[N];
    int t = threadIdx.x;
    tile[t] = in[t];
    weights[t] = w[t];
    __syncthreads();
    out[t] = 0.5f * (tile[t] + tile[t + 1]) * weights[t]; // BUG: t + 1 == N for t = N - 1
}

// The same bug with another shift and one block of N threads per N elements (the variants; the
// default run uses smooth, whose PTX apps/ptx_expect.tsv checks).
__global__ void smooth_by(const float *in, const float *w, float *out, int shift)
{
    __shared__ float tile[N];
    __shared__ float weights[N];
    int t = threadIdx.x, g = blockIdx.x * N + t;
    tile[t] = in[g];
    weights[t] = w[g];
    __syncthreads();
    out[g] = 0.5f * (tile[t] + tile[t + shift]) * weights[t]; // BUG: outside tile for the edge threads
}

int main(int argc, char **argv)
{
    long long shift = 1, blocks = 1;
    BugParam ps[] = {{"shift", &shift, -N, N, "each thread reads tile[t + shift] (not 0)"},
                     {"blocks", &blocks, 1, 4096, "blocks of 256 threads, each committing the bug"}};
    bug_params(argc, argv, ps, 2);
    if (shift == 0)
        bug_usage_error("shift=0 reads tile[t]: no bug");
    const long long total = blocks * N;
    std::vector<float> h(total), out(total);
    for (long long i = 0; i < total; ++i)
        h[i] = (float)(i % 17);
    float *d_in = nullptr, *d_w = nullptr, *d_out = nullptr;
    CK(cudaMalloc(&d_in, total * sizeof(float)));
    CK(cudaMalloc(&d_w, total * sizeof(float)));
    CK(cudaMalloc(&d_out, total * sizeof(float)));
    CK(cudaMemcpy(d_in, h.data(), total * sizeof(float), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(d_w, h.data(), total * sizeof(float), cudaMemcpyHostToDevice));

    if (shift == 1 && blocks == 1)
        smooth<<<1, N>>>(d_in, d_w, d_out);
    else
        smooth_by<<<(unsigned)blocks, N>>>(d_in, d_w, d_out, (int)shift);
    CK_BUG(cudaGetLastError());
    CK_BUG(cudaDeviceSynchronize());
    CK_BUG(cudaMemcpy(out.data(), d_out, total * sizeof(float), cudaMemcpyDeviceToHost));
    CK_BUG(cudaFree(d_in));
    CK_BUG(cudaFree(d_w));
    CK_BUG(cudaFree(d_out));
    app_ran();
}
