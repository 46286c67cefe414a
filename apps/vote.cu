// vote — warp vote functions on 10 001 ints in blocks of 160 threads (5 warps): for each warp the
// count of elements above a threshold (__popc of __ballot_sync), whether any / all are (__any_sync,
// __all_sync), and a stable per-warp compaction of those elements using each lane's rank in the
// ballot. Every lane takes part in every vote (lanes past the end vote false) so the full mask is
// always right. Integers: compared exactly.
#define APP_NAME "vote"
#include "app.h"

#include <vector>

#define FULL_MASK 0xffffffffu

__global__ void warp_votes(const int *in, int n, int threshold, int *count, int *any, int *all, int *packed)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x & 31, warp = i >> 5;
    int v = i < n ? in[i] : 0;
    bool above = i < n && v > threshold;
    unsigned ballot = __ballot_sync(FULL_MASK, above);
    int some = __any_sync(FULL_MASK, above);
    int every = __all_sync(FULL_MASK, above || i >= n);
    if (above)
        packed[warp * 32 + __popc(ballot & ((1u << lane) - 1u))] = v;
    if (lane == 0) {
        count[warp] = __popc(ballot);
        any[warp] = some;
        all[warp] = every;
    }
}

int main(int argc, char **argv)
{
    app_args(argc, argv);
    const int n = 10001, threads = 160, blocks = (n + threads - 1) / threads;
    const int warps = blocks * threads / 32, threshold = 500;
    AppRng rng = app_rng(17);
    std::vector<int> in(n);
    for (int i = 0; i < n; ++i) {
        int w = i / 32;
        // Some warps entirely above, some entirely below, the rest mixed: every vote outcome occurs.
        in[i] = w % 7 == 0 ? 600 + (int)app_below(&rng, 100)
              : w % 7 == 1 ? (int)app_below(&rng, 400)
                           : (int)app_below(&rng, 1000);
    }
    int *d_in = nullptr, *d_count = nullptr, *d_any = nullptr, *d_all = nullptr, *d_packed = nullptr;
    CK(cudaMalloc(&d_in, n * sizeof(int)));
    CK(cudaMalloc(&d_count, warps * sizeof(int)));
    CK(cudaMalloc(&d_any, warps * sizeof(int)));
    CK(cudaMalloc(&d_all, warps * sizeof(int)));
    CK(cudaMalloc(&d_packed, warps * 32 * sizeof(int)));
    CK(cudaMemcpy(d_in, in.data(), n * sizeof(int), cudaMemcpyHostToDevice));
    CK(cudaMemset(d_packed, 0, warps * 32 * sizeof(int)));
    warp_votes<<<blocks, threads>>>(d_in, n, threshold, d_count, d_any, d_all, d_packed);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    std::vector<int> count(warps), any(warps), all(warps), packed(warps * 32);
    CK(cudaMemcpy(count.data(), d_count, warps * sizeof(int), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(any.data(), d_any, warps * sizeof(int), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(all.data(), d_all, warps * sizeof(int), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(packed.data(), d_packed, warps * 32 * sizeof(int), cudaMemcpyDeviceToHost));
    for (int w = 0; w < warps; ++w) {
        int c = 0;
        bool every = true;
        for (int i = 32 * w; i < 32 * w + 32; ++i) {
            bool above = i < n && in[i] > threshold;
            if (above) {
                if (packed[32 * w + c] != in[i])
                    app_fail("warp %d: packed[%d] = %d, host %d", w, c, packed[32 * w + c], in[i]);
                ++c;
            }
            every = every && (above || i >= n);
        }
        for (int k = c; k < 32; ++k)
            if (packed[32 * w + k] != 0)
                app_fail("warp %d: packed[%d] = %d past the %d packed values", w, k, packed[32 * w + k], c);
        if (count[w] != c || (any[w] != 0) != (c > 0) || (all[w] != 0) != every)
            app_fail("warp %d: count %d any %d all %d, host %d %d %d", w, count[w], any[w], all[w], c,
                     c > 0, (int)every);
    }
    CK(cudaFree(d_in));
    CK(cudaFree(d_count));
    CK(cudaFree(d_any));
    CK(cudaFree(d_all));
    CK(cudaFree(d_packed));
    app_pass();
}
