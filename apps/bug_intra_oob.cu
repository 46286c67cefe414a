// bug_intra_oob — BUG, class intra_oob (paper Table 4 "Non-adj. Intra-scope OOB"): a pointer advanced
// past the end of its array by pointer arithmetic inside the kernel, then dereferenced.
//
// strided_sum walks a pointer p from x + t in steps of the grid's thread count (768) while p < end,
// so p leaves the loop past the end. Thread 0 then "peeks" at *p for a continuation value — the
// bug: its p is x + 1 536, 2 144 bytes past the end of x's 1 000 floats. The allocations are made
// in the order x (4 000 bytes), small (1 KiB), big (64 KiB), so under a 256-byte-aligned
// first-fit allocator (docs/spec.md §7.1) *p lands inside big (at byte 1 024 of it), skipping the
// gap after x and all of small. One read by one thread; the program prints RAN.
//
// Expected: compiler mode OUT_OF_BOUNDS (the analysis slices through the loop-carried p += stride
// back to the parameter x, so MEMCHECK.G checks *p against x's bounds); HWOnly TAG_MISMATCH with
// probability 125/126 (*p is looked up by its own address and falls in big, whose tag differs from
// x's unless the random tags are equal).
//
// Parameters for the evaluation's variants (apps/bug_args.h, apps/variants.tsv; the defaults are the
// run above): n, nsmall and nbig (floats in x, small and big) and the launch shape blocks x threads,
// whose product is the stride; thread 0's p ends at x + ceil(n / stride) * stride. A NOTE line says
// where that is (inside big, or elsewhere): the fact the prediction rests on.
#define APP_NAME "bug_intra_oob"
#include "app.h"
#include "bug_args.h"

#include <vector>

__global__ void strided_sum(const float *x, int n, float *out)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x, stride = blockDim.x * gridDim.x;
    const float *p = x + t;
    const float *end = x + n;
    float s = 0.0f;
    while (p < end) {
        s += *p;
        p += stride;
    }
    if (t == 0)
        s += *p; // BUG: p has passed end; this reads x[1536]
    out[t] = s;
}

int main(int argc, char **argv)
{
    long long n = 1000, nsmall = 256, nbig = 16384, blocks = 3, threads = 256;
    BugParam ps[] = {{"n", &n, 1, 1 << 22, "floats in x, the array walked"},
                     {"nsmall", &nsmall, 1, 1 << 22, "floats in small, allocated between x and big"},
                     {"nbig", &nbig, 1, 1 << 24, "floats in big"},
                     {"blocks", &blocks, 1, 4096, "blocks of the launch"},
                     {"threads", &threads, 32, 1024, "threads per block"}};
    bug_params(argc, argv, ps, 5);
    const long long stride = blocks * threads, end_index = (n + stride - 1) / stride * stride;
    std::vector<float> x(n), out(blocks * threads);
    for (long long i = 0; i < n; ++i)
        x[i] = (float)(i % 13);
    float *d_x = nullptr, *d_small = nullptr, *d_big = nullptr, *d_out = nullptr;
    CK(cudaMalloc(&d_x, n * sizeof(float)));
    CK(cudaMalloc(&d_small, nsmall * sizeof(float)));
    CK(cudaMalloc(&d_big, nbig * sizeof(float)));
    CK(cudaMalloc(&d_out, blocks * threads * sizeof(float)));
    CK(cudaMemcpy(d_x, x.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    CK(cudaMemset(d_small, 0, nsmall * sizeof(float)));
    CK(cudaMemset(d_big, 0, nbig * sizeof(float)));

    const unsigned long long stray = bug_va(d_x) + 4ull * (unsigned long long)end_index;
    if (stray >= bug_va(d_big) && stray < bug_va(d_big) + 4ull * (unsigned long long)nbig)
        std::printf("NOTE %s: thread 0 peeks at x[%lld], inside big at byte %llu of it\n", APP_NAME, end_index,
                    stray - bug_va(d_big));
    else
        std::printf("NOTE %s: thread 0 peeks at x[%lld], not inside big\n", APP_NAME, end_index);
    strided_sum<<<(unsigned)blocks, (unsigned)threads>>>(d_x, (int)n, d_out);
    CK_BUG(cudaGetLastError());
    CK_BUG(cudaDeviceSynchronize());
    CK_BUG(cudaMemcpy(out.data(), d_out, out.size() * sizeof(float), cudaMemcpyDeviceToHost));
    CK_BUG(cudaFree(d_x));
    CK_BUG(cudaFree(d_small));
    CK_BUG(cudaFree(d_big));
    CK_BUG(cudaFree(d_out));
    app_ran();
}
