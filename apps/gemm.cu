// gemm — C = A·B with A 93×61 and B 61×75 (no dimension a multiple of the 16×16 tile), tiled through
// shared memory: each 16×16 block stages one tile of A and one of B per step, with zeros past the
// edges. Elements are multiples of 1/8 in [-1, 1], so every product and partial sum is exact in
// float and the result is compared exactly whatever the order of the additions.
#define APP_NAME "gemm"
#include "app.h"

#include <vector>

#define TILE 16

__global__ void gemm(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
    float acc = 0.0f;
    for (int t = 0; t < K; t += TILE) {
        As[ty][tx] = (row < M && t + tx < K) ? A[row * K + t + tx] : 0.0f;
        Bs[ty][tx] = (t + ty < K && col < N) ? B[(t + ty) * N + col] : 0.0f;
        __syncthreads();
        for (int k = 0; k < TILE; ++k)
            acc = fmaf(As[ty][k], Bs[k][tx], acc);
        __syncthreads(); // the next step overwrites the tiles
    }
    if (row < M && col < N)
        C[row * N + col] = acc;
}

int main(int argc, char **argv)
{
    app_args(argc, argv);
    const int M = 93, N = 75, K = 61;
    AppRng rng = app_rng(4);
    std::vector<float> A(M * K), B(K * N), C(M * N);
    for (auto &x : A)
        x = (float)((int)app_below(&rng, 17) - 8) / 8.0f;
    for (auto &x : B)
        x = (float)((int)app_below(&rng, 17) - 8) / 8.0f;
    float *d_A = nullptr, *d_B = nullptr, *d_C = nullptr;
    CK(cudaMalloc(&d_A, A.size() * sizeof(float)));
    CK(cudaMalloc(&d_B, B.size() * sizeof(float)));
    CK(cudaMalloc(&d_C, C.size() * sizeof(float)));
    CK(cudaMemcpy(d_A, A.data(), A.size() * sizeof(float), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(d_B, B.data(), B.size() * sizeof(float), cudaMemcpyHostToDevice));

    dim3 block(TILE, TILE), grid((N + TILE - 1) / TILE, (M + TILE - 1) / TILE);
    gemm<<<grid, block>>>(d_A, d_B, d_C, M, N, K);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(C.data(), d_C, C.size() * sizeof(float), cudaMemcpyDeviceToHost));

    for (int r = 0; r < M; ++r)
        for (int c = 0; c < N; ++c) {
            double want = 0.0;
            for (int k = 0; k < K; ++k)
                want += (double)A[r * K + k] * (double)B[k * N + c];
            if ((double)C[r * N + c] != want)
                app_fail("C[%d][%d] = %.9g, host %.9g", r, c, (double)C[r * N + c], want);
        }
    CK(cudaFree(d_A));
    CK(cudaFree(d_B));
    CK(cudaFree(d_C));
    app_pass();
}
