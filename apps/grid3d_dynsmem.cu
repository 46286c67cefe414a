// grid3d_dynsmem — a 3-D grid over a 37 × 29 × 21 volume of ints with dynamic shared memory sized at
// launch: each block stages its brick of cells in extern __shared__ memory, reduces it to the
// brick's sum with a tree that also handles thread counts that are not powers of two, and writes
// out = 2·in + brick sum for each of its cells. Launched twice with different block shapes and
// dynamic sizes: 8×8×4 (256 threads, 1 KiB) and 6×5×3 (90 threads, 360 bytes). Compared exactly.
#define APP_NAME "grid3d_dynsmem"
#include "app.h"

#include <vector>

__global__ void brick_sums(const int *in, int *out, int *sums, int nx, int ny, int nz)
{
    extern __shared__ int s[];
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    int z = blockIdx.z * blockDim.z + threadIdx.z;
    int t = (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
    int nt = blockDim.x * blockDim.y * blockDim.z;
    bool inside = x < nx && y < ny && z < nz;
    int cell = (z * ny + y) * nx + x;
    int v = inside ? in[cell] : 0;
    s[t] = v;
    // Each round folds the upper half of s[0, width) onto the lower half; with an odd width the middle
    // element has no partner and is carried into the next round unchanged.
    for (int width = nt; width > 1;) {
        int half = (width + 1) / 2;
        __syncthreads();
        if (t < width - half)
            s[t] += s[t + half];
        width = half;
    }
    __syncthreads();
    int total = s[0];
    int b = (blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + blockIdx.x;
    if (t == 0)
        sums[b] = total;
    if (inside)
        out[cell] = 2 * v + total;
}

int main(int argc, char **argv)
{
    app_args(argc, argv);
    const int nx = 37, ny = 29, nz = 21, cells = nx * ny * nz;
    AppRng rng = app_rng(20);
    std::vector<int> in(cells), out(cells);
    for (auto &v : in)
        v = (int)app_below(&rng, 1000) - 500;
    const dim3 shapes[2] = {dim3(8, 8, 4), dim3(6, 5, 3)};
    int *d_in = nullptr, *d_out = nullptr, *d_sums = nullptr;
    CK(cudaMalloc(&d_in, cells * sizeof(int)));
    CK(cudaMalloc(&d_out, cells * sizeof(int)));
    CK(cudaMemcpy(d_in, in.data(), cells * sizeof(int), cudaMemcpyHostToDevice));
    for (const dim3 &block : shapes) {
        dim3 grid((nx + block.x - 1) / block.x, (ny + block.y - 1) / block.y, (nz + block.z - 1) / block.z);
        const int nblocks = grid.x * grid.y * grid.z;
        const size_t shmem = block.x * block.y * block.z * sizeof(int);
        CK(cudaMalloc(&d_sums, nblocks * sizeof(int)));
        brick_sums<<<grid, block, shmem>>>(d_in, d_out, d_sums, nx, ny, nz);
        CK(cudaGetLastError());
        CK(cudaDeviceSynchronize());
        std::vector<int> sums(nblocks), want(nblocks, 0);
        CK(cudaMemcpy(sums.data(), d_sums, nblocks * sizeof(int), cudaMemcpyDeviceToHost));
        CK(cudaMemcpy(out.data(), d_out, cells * sizeof(int), cudaMemcpyDeviceToHost));
        auto brick = [&](int x, int y, int z) {
            return (int)(((z / block.z) * grid.y + y / block.y) * grid.x + x / block.x);
        };
        for (int z = 0; z < nz; ++z)
            for (int y = 0; y < ny; ++y)
                for (int x = 0; x < nx; ++x)
                    want[brick(x, y, z)] += in[(z * ny + y) * nx + x];
        for (int b = 0; b < nblocks; ++b)
            if (sums[b] != want[b])
                app_fail("block %dx%dx%d: brick %d sum %d, host %d", block.x, block.y, block.z, b, sums[b],
                         want[b]);
        for (int z = 0; z < nz; ++z)
            for (int y = 0; y < ny; ++y)
                for (int x = 0; x < nx; ++x) {
                    int c = (z * ny + y) * nx + x, w = 2 * in[c] + want[brick(x, y, z)];
                    if (out[c] != w)
                        app_fail("block %dx%dx%d: out(%d,%d,%d) = %d, host %d", block.x, block.y, block.z, x,
                                 y, z, out[c], w);
                }
        CK(cudaFree(d_sums));
    }
    CK(cudaFree(d_in));
    CK(cudaFree(d_out));
    app_pass();
}
