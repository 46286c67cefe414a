// bfs — level-synchronous breadth-first search from vertex 0 over a random directed graph of 12 007
// vertices in CSR form (1 to 6 out-edges each, plus the edge v → v+1 for every third vertex). One
// launch per level: each thread takes a frontier vertex, claims unvisited neighbours with atomicCAS
// on their level and appends them to the next frontier with atomicAdd; the host reads the next
// frontier's size after each launch and stops when it is empty. The levels are unique whatever
// the order in which threads claim vertices, so they are compared exactly with a host BFS.
#define APP_NAME "bfs"
#include "app.h"

#include <utility>
#include <vector>

__global__ void bfs_level(const int *row_ptr, const int *adj, int *level, const int *frontier, int size,
                          int *next, int *next_size, int depth)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= size)
        return;
    int u = frontier[i];
    for (int j = row_ptr[u]; j < row_ptr[u + 1]; ++j) {
        int v = adj[j];
        if (atomicCAS(&level[v], -1, depth + 1) == -1)
            next[atomicAdd(next_size, 1)] = v;
    }
}

int main(int argc, char **argv)
{
    app_args(argc, argv);
    const int nv = 12007, threads = 128;
    AppRng rng = app_rng(9);
    std::vector<int> row_ptr(nv + 1), adj;
    for (int u = 0; u < nv; ++u) {
        row_ptr[u] = (int)adj.size();
        int deg = 1 + (int)app_below(&rng, 6);
        for (int k = 0; k < deg; ++k)
            adj.push_back((int)app_below(&rng, nv));
        if (u % 3 == 0 && u + 1 < nv)
            adj.push_back(u + 1);
    }
    row_ptr[nv] = (int)adj.size();
    const int ne = (int)adj.size();

    // Host reference: plain queue-based BFS.
    std::vector<int> want(nv, -1), queue;
    want[0] = 0;
    queue.push_back(0);
    for (size_t q = 0; q < queue.size(); ++q) {
        int u = queue[q];
        for (int j = row_ptr[u]; j < row_ptr[u + 1]; ++j)
            if (want[adj[j]] < 0) {
                want[adj[j]] = want[u] + 1;
                queue.push_back(adj[j]);
            }
    }

    int *d_row_ptr = nullptr, *d_adj = nullptr, *d_level = nullptr, *d_front = nullptr, *d_next = nullptr,
        *d_next_size = nullptr;
    CK(cudaMalloc(&d_row_ptr, (nv + 1) * sizeof(int)));
    CK(cudaMalloc(&d_adj, ne * sizeof(int)));
    CK(cudaMalloc(&d_level, nv * sizeof(int)));
    CK(cudaMalloc(&d_front, nv * sizeof(int)));
    CK(cudaMalloc(&d_next, nv * sizeof(int)));
    CK(cudaMalloc(&d_next_size, sizeof(int)));
    CK(cudaMemcpy(d_row_ptr, row_ptr.data(), (nv + 1) * sizeof(int), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(d_adj, adj.data(), ne * sizeof(int), cudaMemcpyHostToDevice));
    CK(cudaMemset(d_level, 0xff, nv * sizeof(int))); // every byte 0xff: every level -1 (unvisited)
    const int zero = 0;
    CK(cudaMemcpy(d_level, &zero, sizeof(int), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(d_front, &zero, sizeof(int), cudaMemcpyHostToDevice));

    int size = 1, depth = 0;
    while (size > 0) {
        if (depth > nv)
            app_fail("more than %d levels: the frontier never empties", nv);
        CK(cudaMemset(d_next_size, 0, sizeof(int)));
        bfs_level<<<(size + threads - 1) / threads, threads>>>(d_row_ptr, d_adj, d_level, d_front, size,
                                                               d_next, d_next_size, depth);
        CK(cudaGetLastError());
        CK(cudaMemcpy(&size, d_next_size, sizeof(int), cudaMemcpyDeviceToHost));
        if (size < 0 || size > nv)
            app_fail("level %d: next frontier size %d", depth + 1, size);
        std::swap(d_front, d_next);
        ++depth;
    }
    std::vector<int> got(nv);
    CK(cudaMemcpy(got.data(), d_level, nv * sizeof(int), cudaMemcpyDeviceToHost));
    int levels = 0;
    for (int v = 0; v < nv; ++v) {
        if (got[v] != want[v])
            app_fail("level[%d] = %d, host %d", v, got[v], want[v]);
        if (want[v] + 1 > levels)
            levels = want[v] + 1;
    }
    if (depth != levels)
        app_fail("%d launches for %d levels", depth, levels);
    CK(cudaFree(d_row_ptr));
    CK(cudaFree(d_adj));
    CK(cudaFree(d_level));
    CK(cudaFree(d_front));
    CK(cudaFree(d_next));
    CK(cudaFree(d_next_size));
    app_pass();
}
