// managed_streams — the runtime calls of a typical timed benchmark, used synchronously: buffers from
// cudaMallocManaged (touched only through copies and kernels, i.e. as device memory), a created
// stream carrying cudaMemcpyAsync, a kernel launch and the copies back, events recorded around the
// kernel with cudaEventElapsedTime read after cudaEventSynchronize, then everything destroyed.
// y = x·x − 1 over 77 777 ints: compared exactly.
#define APP_NAME "managed_streams"
#include "app.h"

#include <vector>

__global__ void square_minus_one(const int *x, int *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = x[i] * x[i] - 1;
}

int main(int argc, char **argv)
{
    app_args(argc, argv);
    const int n = 77777, threads = 256;
    const size_t bytes = n * sizeof(int);
    AppRng rng = app_rng(19);
    std::vector<int> x(n), y(n);
    for (auto &v : x)
        v = (int)app_below(&rng, 40001) - 20000;
    int *d_x = nullptr, *d_y = nullptr;
    CK(cudaMallocManaged(&d_x, bytes));
    CK(cudaMallocManaged(&d_y, bytes));
    cudaStream_t stream;
    cudaEvent_t start, stop;
    CK(cudaStreamCreate(&stream));
    CK(cudaEventCreate(&start));
    CK(cudaEventCreate(&stop));

    CK(cudaMemcpyAsync(d_x, x.data(), bytes, cudaMemcpyHostToDevice, stream));
    CK(cudaEventRecord(start, stream));
    square_minus_one<<<(n + threads - 1) / threads, threads, 0, stream>>>(d_x, d_y, n);
    CK(cudaGetLastError());
    CK(cudaEventRecord(stop, stream));
    CK(cudaMemcpyAsync(y.data(), d_y, bytes, cudaMemcpyDeviceToHost, stream));
    CK(cudaStreamSynchronize(stream));
    CK(cudaEventSynchronize(stop));
    float ms = -1.0f;
    CK(cudaEventElapsedTime(&ms, start, stop));
    if (!(ms >= 0.0f))
        app_fail("cudaEventElapsedTime gave %g ms", (double)ms);

    for (int i = 0; i < n; ++i)
        if (y[i] != x[i] * x[i] - 1)
            app_fail("y[%d] = %d, host %d", i, y[i], x[i] * x[i] - 1);
    CK(cudaEventDestroy(start));
    CK(cudaEventDestroy(stop));
    CK(cudaStreamDestroy(stream));
    CK(cudaFree(d_x));
    CK(cudaFree(d_y));
    app_pass();
}
