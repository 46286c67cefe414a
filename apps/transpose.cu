// transpose — out = inᵀ for a 333 × 257 float matrix on a 2-D grid of 32×8-thread blocks, each moving
// a 32×32 tile through shared memory (4 rows per thread). The tile is padded to 33 columns so that
// the column-wise reads of the write phase fall in 32 different banks. A pure data movement: the
// result is compared exactly.
#define APP_NAME "transpose"
#include "app.h"

#include <vector>

#define TD 32   // tile edge
#define ROWS 8  // block rows: each thread moves TD / ROWS elements

__global__ void transpose(const float *in, float *out, int rows, int cols)
{
    __shared__ float tile[TD][TD + 1];
    int x = blockIdx.x * TD + threadIdx.x, y = blockIdx.y * TD + threadIdx.y;
    for (int j = 0; j < TD; j += ROWS)
        if (x < cols && y + j < rows)
            tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * cols + x];
    __syncthreads();
    x = blockIdx.y * TD + threadIdx.x;
    y = blockIdx.x * TD + threadIdx.y;
    for (int j = 0; j < TD; j += ROWS)
        if (x < rows && y + j < cols)
            out[(y + j) * rows + x] = tile[threadIdx.x][threadIdx.y + j];
}

int main(int argc, char **argv)
{
    app_args(argc, argv);
    const int rows = 333, cols = 257;
    const size_t bytes = (size_t)rows * cols * sizeof(float);
    std::vector<float> in(rows * cols), out(rows * cols);
    for (int i = 0; i < rows * cols; ++i)
        in[i] = (float)i; // every element distinct: a misplaced one cannot go unnoticed
    float *d_in = nullptr, *d_out = nullptr;
    CK(cudaMalloc(&d_in, bytes));
    CK(cudaMalloc(&d_out, bytes));
    CK(cudaMemcpy(d_in, in.data(), bytes, cudaMemcpyHostToDevice));
    dim3 block(TD, ROWS), grid((cols + TD - 1) / TD, (rows + TD - 1) / TD);
    transpose<<<grid, block>>>(d_in, d_out, rows, cols);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(out.data(), d_out, bytes, cudaMemcpyDeviceToHost));
    for (int r = 0; r < rows; ++r)
        for (int c = 0; c < cols; ++c)
            if (out[c * rows + r] != in[r * cols + c])
                app_fail("out[%d][%d] = %.9g, host %.9g", c, r, (double)out[c * rows + r],
                         (double)in[r * cols + c]);
    CK(cudaFree(d_in));
    CK(cudaFree(d_out));
    app_pass();
}
