// bug_interscope_oob — BUG, class nonadjacent_oob, the paper's "Non-adj. Inter-scope OOB" row of
// Table 4: the stray pointer is formed in one kernel, stored to memory, and dereferenced in another,
// so the analysis of the second kernel (intra-procedural, paper §6.2) only sees a pointer loaded
// from memory and cannot know the object it was derived from.
//
// make_views stores views[k] = base + offs[k] for 32 views of a 4 096-float buffer; the host's offset
// table holds one wrong entry, 40 000 (160 000 bytes past base, far beyond its 16 KiB). read_views
// then loads each view pointer and reads two floats through it. The allocations are made in the
// order base (16 KiB), offs (128 bytes), views (256 bytes), out (128 bytes), big (256 KiB), so under a
// 256-byte-aligned first-fit allocator (docs/spec.md §7.1) the stray view points inside big (at byte
// 142 848 of it). One lane (k = 21) of one warp reads through it, twice; the program prints RAN.
//
// Expected: compiler mode NO_METADATA with probability 125/126 (the root is the loaded pointer
// itself; its LOADMETA finds big's entry by address but with base's tag, so it matches nothing and
// returns 0, and MEMCHECK.G with no metadata reports NO_METADATA; if the two random tags are equal
// the pointer passes as a pointer into big); HWOnly TAG_MISMATCH with probability 125/126 (the same
// lookup by address, reported as a tag mismatch on big's entry).
//
// Parameters for the evaluation's variants (apps/bug_args.h, apps/variants.tsv; the defaults are the
// run above): nbase and nbig (floats in base and big), bad_view (the view with the wrong offset, 0 ..
// 31: which lane reads through it) and bad_offset (its offset, in floats, outside base). A NOTE line
// says where the stray view points (inside big, or elsewhere).
#define APP_NAME "bug_interscope_oob"
#include "app.h"
#include "bug_args.h"

#include <vector>

#define VIEWS 32

__global__ void make_views(float *base, const int *offs, float **views)
{
    int k = threadIdx.x;
    if (k < VIEWS)
        views[k] = base + offs[k]; // no access here: forming a stray pointer is not an error yet
}

__global__ void read_views(float *const *views, float *out)
{
    int k = threadIdx.x;
    if (k < VIEWS) {
        const float *v = views[k];
        out[k] = v[0] + v[1];
    }
}

int main(int argc, char **argv)
{
    long long nbase = 4096, nbig = 65536, bad_view = 21, bad_offset = 40000;
    BugParam ps[] = {{"nbase", &nbase, VIEWS, 1 << 22, "floats in base (at least 32: one per view)"},
                     {"nbig", &nbig, 1, 1 << 24, "floats in big, where the stray view is meant to point"},
                     {"bad_view", &bad_view, 0, VIEWS - 1, "the view (and lane) with the wrong offset"},
                     {"bad_offset", &bad_offset, -(1 << 28), 1 << 28, "its offset in floats (outside base)"}};
    bug_params(argc, argv, ps, 4);
    if (bad_offset >= -1 && bad_offset < nbase)
        bug_usage_error("bad_offset=%lld: view[0 .. 1] would lie inside base (0 .. %lld)", bad_offset, nbase - 1);
    std::vector<float> base(nbase), out(VIEWS);
    std::vector<int> offs(VIEWS);
    for (long long i = 0; i < nbase; ++i)
        base[i] = (float)(i % 31);
    for (int k = 0; k < VIEWS; ++k)
        offs[k] = k * (int)(nbase / VIEWS);
    offs[bad_view] = (int)bad_offset; // BUG: far outside base
    float *d_base = nullptr, *d_out = nullptr, *d_big = nullptr;
    int *d_offs = nullptr;
    float **d_views = nullptr;
    CK(cudaMalloc(&d_base, nbase * sizeof(float)));
    CK(cudaMalloc(&d_offs, VIEWS * sizeof(int)));
    CK(cudaMalloc(&d_views, VIEWS * sizeof(float *)));
    CK(cudaMalloc(&d_out, VIEWS * sizeof(float)));
    CK(cudaMalloc(&d_big, nbig * sizeof(float)));
    CK(cudaMemcpy(d_base, base.data(), nbase * sizeof(float), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(d_offs, offs.data(), VIEWS * sizeof(int), cudaMemcpyHostToDevice));
    CK(cudaMemset(d_big, 0, nbig * sizeof(float)));
    const unsigned long long stray = bug_va(d_base) + (unsigned long long)(4 * bad_offset);
    if (stray >= bug_va(d_big) && stray + 8 <= bug_va(d_big) + 4ull * (unsigned long long)nbig)
        std::printf("NOTE %s: view %lld points inside big, at byte %llu of it\n", APP_NAME, bad_view,
                    stray - bug_va(d_big));
    else
        std::printf("NOTE %s: view %lld does not point inside big\n", APP_NAME, bad_view);
    make_views<<<1, VIEWS>>>(d_base, d_offs, d_views);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());

    read_views<<<1, VIEWS>>>(d_views, d_out);
    CK_BUG(cudaGetLastError());
    CK_BUG(cudaDeviceSynchronize());
    CK_BUG(cudaMemcpy(out.data(), d_out, VIEWS * sizeof(float), cudaMemcpyDeviceToHost));
    CK_BUG(cudaFree(d_base));
    CK_BUG(cudaFree(d_offs));
    CK_BUG(cudaFree(d_views));
    CK_BUG(cudaFree(d_out));
    CK_BUG(cudaFree(d_big));
    app_ran();
}
