// spmv_csr — y = A·x for a 6 007 × 5 003 sparse matrix in CSR form generated on the host (0 to 12
// non-zeros per row at random columns, so some rows are empty), one thread per row, read-only
// inputs through __restrict__ (ld.global.nc). Values are multiples of 1/4 and x of 1/8, in [-1, 1],
// so each row's sum is exact in float and the result is compared exactly.
#define APP_NAME "spmv_csr"
#include "app.h"

#include <vector>

__global__ void spmv(int rows, const int *__restrict__ row_ptr, const int *__restrict__ col,
                     const float *__restrict__ val, const float *__restrict__ x, float *__restrict__ y)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= rows)
        return;
    float s = 0.0f;
    for (int j = row_ptr[r]; j < row_ptr[r + 1]; ++j)
        s = fmaf(val[j], x[col[j]], s);
    y[r] = s;
}

int main(int argc, char **argv)
{
    app_args(argc, argv);
    const int rows = 6007, cols = 5003, threads = 128;
    AppRng rng = app_rng(8);
    std::vector<int> row_ptr(rows + 1), col;
    std::vector<float> val, x(cols), y(rows);
    row_ptr[0] = 0;
    for (int r = 0; r < rows; ++r) {
        int nnz = (int)app_below(&rng, 13);
        for (int k = 0; k < nnz; ++k) {
            col.push_back((int)app_below(&rng, cols));
            val.push_back((float)((int)app_below(&rng, 9) - 4) / 4.0f);
        }
        row_ptr[r + 1] = (int)col.size();
    }
    for (auto &v : x)
        v = (float)((int)app_below(&rng, 17) - 8) / 8.0f;
    const int nnz = (int)col.size();
    int *d_row_ptr = nullptr, *d_col = nullptr;
    float *d_val = nullptr, *d_x = nullptr, *d_y = nullptr;
    CK(cudaMalloc(&d_row_ptr, (rows + 1) * sizeof(int)));
    CK(cudaMalloc(&d_col, nnz * sizeof(int)));
    CK(cudaMalloc(&d_val, nnz * sizeof(float)));
    CK(cudaMalloc(&d_x, cols * sizeof(float)));
    CK(cudaMalloc(&d_y, rows * sizeof(float)));
    CK(cudaMemcpy(d_row_ptr, row_ptr.data(), (rows + 1) * sizeof(int), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(d_col, col.data(), nnz * sizeof(int), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(d_val, val.data(), nnz * sizeof(float), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(d_x, x.data(), cols * sizeof(float), cudaMemcpyHostToDevice));

    spmv<<<(rows + threads - 1) / threads, threads>>>(rows, d_row_ptr, d_col, d_val, d_x, d_y);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(y.data(), d_y, rows * sizeof(float), cudaMemcpyDeviceToHost));

    for (int r = 0; r < rows; ++r) {
        float want = 0.0f;
        for (int j = row_ptr[r]; j < row_ptr[r + 1]; ++j)
            want += val[j] * x[col[j]];
        if (y[r] != want)
            app_fail("y[%d] = %.9g, host %.9g", r, (double)y[r], (double)want);
    }
    CK(cudaFree(d_row_ptr));
    CK(cudaFree(d_col));
    CK(cudaFree(d_val));
    CK(cudaFree(d_x));
    CK(cudaFree(d_y));
    app_pass();
}
