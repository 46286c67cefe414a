// bug_wild_null — BUG, class wild, the case GPUArmor by design does not check: a null struct pointer
// dereferenced at a field offset. scale_by_config reads cfg->scale (offset 8) but the host passed
// cfg = nullptr (it forgot to allocate the configuration), so each thread of one warp of 32 reads
// address 0x8. The program prints RAN.
//
// Expected in both modes: clean. The address has tag 0, and tag-0 pointers are unchecked so that
// code which is not GPUArmor-aware keeps working (paper §5.2 "Binary Compatibility", docs/spec.md
// §1.1, rule G1 of §4.2). This program documents that limit: the access lies outside every
// allocation, so the simulator's own memory system reports it (an illegal address, not a GPUArmor
// exception), as a real GPU would fault.
//
// Parameters for the evaluation's variants (apps/bug_args.h, apps/variants.tsv; the defaults are the
// run above): n (threads of the one block, each reading through the null pointer) and offset (bytes
// added to the null pointer before the read, a multiple of 4: which "field" is read; the pointer stays
// untagged whatever it is).
#define APP_NAME "bug_wild_null"
#include "app.h"
#include "bug_args.h"

#include <vector>

struct Config {
    const float *table; // unused here; puts scale at offset 8
    float scale;
};

__global__ void scale_by_config(const Config *cfg, const float *in, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = in[i] * cfg->scale; // BUG: cfg is null
}

// The same read at another byte offset of the null pointer (the variants; the default run uses
// scale_by_config, whose PTX apps/ptx_expect.tsv checks).
__global__ void scale_by_field(const Config *cfg, const float *in, float *out, int n, int offset)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) // BUG: cfg is null
        out[i] = in[i] * *reinterpret_cast<const float *>(reinterpret_cast<const char *>(cfg) + offset);
}

int main(int argc, char **argv)
{
    long long n = 32, offset = 8;
    BugParam ps[] = {{"n", &n, 1, 1024, "threads of the one block, each reading through the null pointer"},
                     {"offset", &offset, 0, 1 << 20, "byte offset read (a multiple of 4; 8 is cfg->scale)"}};
    bug_params(argc, argv, ps, 2);
    if (offset % 4 != 0)
        bug_usage_error("offset=%lld is not a multiple of 4", offset);
    std::vector<float> h(n, 3.0f), out(n);
    float *d_in = nullptr, *d_out = nullptr;
    Config *d_cfg = nullptr; // BUG: never allocated
    CK(cudaMalloc(&d_in, n * sizeof(float)));
    CK(cudaMalloc(&d_out, n * sizeof(float)));
    CK(cudaMemcpy(d_in, h.data(), n * sizeof(float), cudaMemcpyHostToDevice));

    if (offset == 8)
        scale_by_config<<<1, (unsigned)n>>>(d_cfg, d_in, d_out, (int)n);
    else
        scale_by_field<<<1, (unsigned)n>>>(d_cfg, d_in, d_out, (int)n, (int)offset);
    CK_BUG(cudaGetLastError());
    CK_BUG(cudaDeviceSynchronize());
    CK_BUG(cudaMemcpy(out.data(), d_out, n * sizeof(float), cudaMemcpyDeviceToHost));
    CK_BUG(cudaFree(d_in));
    CK_BUG(cudaFree(d_out));
    app_ran();
}
