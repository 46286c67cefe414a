// bug_nonadjacent_oob — BUG, class nonadjacent_oob (paper Table 4 "Non-adj. Intra-scope OOB": the
// stray address is computed from the parameter in the same kernel, inside the analysis' scope).
//
// gather reads table[idx[i]]; the index array holds one stale entry, 32 768, in a table of 1 024
// floats: 128 KiB past the table's start, far beyond its 4 KiB. The allocations are made in the
// order table (4 KiB), idx (4 000 bytes), out (4 000 bytes), big (256 KiB), so under a 256-byte-
// aligned first-fit allocator (docs/spec.md §7.1) the stray read lands inside big (at byte 118 784
// of it), skipping two allocations. One thread (i = 517) makes the read; the program prints RAN.
//
// Expected: compiler mode OUT_OF_BOUNDS (root: the parameter table; the access is checked against
// table's bounds); HWOnly TAG_MISMATCH with probability 125/126 (the address lies in big, whose
// random tag differs from table's unless they are equal by chance; tag_neighbour_distinct does not
// help: table and big are not neighbours).
//
// Parameters for the evaluation's variants (apps/bug_args.h, apps/variants.tsv; the defaults are the
// run above): ntable, n and nbig (the sizes of table, idx/out and big, in elements), threads (block
// size), bad_at (the thread with the stale index) and bad_index (its value). The program prints in a
// NOTE line where table[bad_index] lands (inside big, or elsewhere), the fact the prediction rests on.
#define APP_NAME "bug_nonadjacent_oob"
#include "app.h"
#include "bug_args.h"

#include <vector>

__global__ void gather(const float *table, const int *idx, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = table[idx[i]];
}

int main(int argc, char **argv)
{
    long long ntable = 1024, n = 1000, nbig = 65536, threads = 128, bad_at = 517, bad_index = 32768;
    BugParam ps[] = {{"ntable", &ntable, 1, 1 << 22, "floats in table"},
                     {"n", &n, 1, 1 << 22, "gathers (elements of idx and out)"},
                     {"nbig", &nbig, 1, 1 << 24, "floats in big, the allocation the stray read lands in"},
                     {"threads", &threads, 32, 1024, "threads per block"},
                     {"bad_at", &bad_at, 0, (1 << 22) - 1, "the thread whose index is stale (< n)"},
                     {"bad_index", &bad_index, -(1 << 28), 1 << 28, "the stale index (outside 0 .. ntable-1)"}};
    bug_params(argc, argv, ps, 6);
    if (bad_at >= n)
        bug_usage_error("bad_at=%lld is not below n=%lld", bad_at, n);
    if (bad_index >= 0 && bad_index < ntable)
        bug_usage_error("bad_index=%lld lies inside table (0 .. %lld): no overflow", bad_index, ntable - 1);
    std::vector<float> table(ntable), out(n);
    std::vector<int> idx(n);
    for (long long k = 0; k < ntable; ++k)
        table[k] = (float)k;
    for (long long i = 0; i < n; ++i)
        idx[i] = (int)((i * 7) % ntable);
    idx[bad_at] = (int)bad_index; // BUG: a stale index, far outside table
    float *d_table = nullptr, *d_out = nullptr, *d_big = nullptr;
    int *d_idx = nullptr;
    CK(cudaMalloc(&d_table, ntable * sizeof(float)));
    CK(cudaMalloc(&d_idx, n * sizeof(int)));
    CK(cudaMalloc(&d_out, n * sizeof(float)));
    CK(cudaMalloc(&d_big, nbig * sizeof(float)));
    CK(cudaMemcpy(d_table, table.data(), ntable * sizeof(float), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(d_idx, idx.data(), n * sizeof(int), cudaMemcpyHostToDevice));
    CK(cudaMemset(d_big, 0, nbig * sizeof(float)));

    const unsigned long long stray = bug_va(d_table) + (unsigned long long)(4 * bad_index);
    if (stray >= bug_va(d_big) && stray < bug_va(d_big) + 4ull * (unsigned long long)nbig)
        std::printf("NOTE %s: table[%lld] lands inside big, at byte %llu of it\n", APP_NAME, bad_index,
                    stray - bug_va(d_big));
    else
        std::printf("NOTE %s: table[%lld] does not land inside big\n", APP_NAME, bad_index);
    gather<<<(unsigned)((n + threads - 1) / threads), (unsigned)threads>>>(d_table, d_idx, d_out, (int)n);
    CK_BUG(cudaGetLastError());
    CK_BUG(cudaDeviceSynchronize());
    CK_BUG(cudaMemcpy(out.data(), d_out, n * sizeof(float), cudaMemcpyDeviceToHost));
    CK_BUG(cudaFree(d_table));
    CK_BUG(cudaFree(d_idx));
    CK_BUG(cudaFree(d_out));
    CK_BUG(cudaFree(d_big));
    app_ran();
}
