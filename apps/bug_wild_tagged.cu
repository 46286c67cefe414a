// bug_wild_tagged — BUG, class wild: a kernel dereferences a forged address, an integer cast to a
// pointer whose bits are garbage (0x5A5A5A5A5A5A5A40: the 0x5A fill pattern of uninitialised memory,
// 64-byte aligned so that only the address, not its alignment, is wrong). Its upper bits are not 0,
// so GPUArmor treats it as a tagged pointer (tag 0x2D with 7-bit tags, 0x5A5A with 16-bit tags),
// and its address bits lie outside every allocation and the metadata region of the runtime
// (docs/spec.md §7; the default heap is at 0x7000_0000_0000). Thread 0 reads one float through it,
// the other threads do correct work; the program prints RAN.
//
// Expected in both modes: NO_METADATA, deterministic (compiler mode: the LOADMETA of the forged root
// finds no entry and returns 0, then MEMCHECK.G has no metadata; HWOnly: the walk ends NOT_FOUND).
//
// Parameters for the evaluation's variants (apps/bug_args.h, apps/variants.tsv; the defaults are the
// run above): wild (the forged address, a non-negative 64-bit integer below 2^63), thread (the thread
// that dereferences it, < n), n (threads doing correct work) and into. With into=1 the forged address
// keeps wild's upper byte but takes its low 56 bits from in + 64 bytes: it lands inside a live
// allocation with a garbage tag (0x2D with 7-bit tags; with 16-bit tags 0x5A in the high byte and in's
// own tag in the low byte, since bits 48-55 come from in; spec §1), so it is caught unless that tag
// equals in's random one: compiler mode NO_METADATA (the LOADMETA of the forged root finds in's entry
// with another tag and returns 0), HWOnly TAG_MISMATCH, each with probability 125/126 with 7-bit tags
// and about 255/256 with 16-bit tags.
#define APP_NAME "bug_wild_tagged"
#include "app.h"
#include "bug_args.h"

#include <vector>

__global__ void add_wild(const float *in, float *out, unsigned long long wild, int n, int culprit)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float v = in[i];
    if (i == culprit)
        v += *reinterpret_cast<const float *>(wild); // BUG: a forged address
    out[i] = v;
}

int main(int argc, char **argv)
{
    long long n = 500, threads = 128, wild_arg = 0x5A5A5A5A5A5A5A40ll, culprit = 0, into = 0;
    BugParam ps[] = {{"wild", &wild_arg, 0, 0x7FFFFFFFFFFFFFFFll, "the forged address (4-byte aligned)"},
                     {"thread", &culprit, 0, (1 << 22) - 1, "the thread that dereferences it (< n)"},
                     {"n", &n, 1, 1 << 22, "threads (and floats of in and out)"},
                     {"threads", &threads, 32, 1024, "threads per block"},
                     {"into", &into, 0, 1, "1: keep wild's top byte, take the rest from in + 64 bytes"}};
    bug_params(argc, argv, ps, 5);
    if (culprit >= n)
        bug_usage_error("thread=%lld is not below n=%lld", culprit, n);
    if (wild_arg % 4 != 0)
        bug_usage_error("wild=0x%llx is not 4-byte aligned (a misaligned access is another error)",
                        (unsigned long long)wild_arg);
    if (into && n < 17)
        bug_usage_error("into=1 needs n >= 17: in + 64 bytes must lie inside in");
    unsigned long long wild = (unsigned long long)wild_arg;
    std::vector<float> h(n, 1.0f), out(n);
    float *d_in = nullptr, *d_out = nullptr;
    CK(cudaMalloc(&d_in, n * sizeof(float)));
    CK(cudaMalloc(&d_out, n * sizeof(float)));
    CK(cudaMemcpy(d_in, h.data(), n * sizeof(float), cudaMemcpyHostToDevice));

    if (into)
        wild = (wild & 0xFF00000000000000ull) | (((unsigned long long)(uintptr_t)d_in + 64) & 0x00FFFFFFFFFFFFFFull);
    std::printf("NOTE %s: thread %lld reads through 0x%016llx\n", APP_NAME, culprit, wild);
    add_wild<<<(unsigned)((n + threads - 1) / threads), (unsigned)threads>>>(d_in, d_out, wild, (int)n, (int)culprit);
    CK_BUG(cudaGetLastError());
    CK_BUG(cudaDeviceSynchronize());
    CK_BUG(cudaMemcpy(out.data(), d_out, n * sizeof(float), cudaMemcpyDeviceToHost));
    CK_BUG(cudaFree(d_in));
    CK_BUG(cudaFree(d_out));
    app_ran();
}
