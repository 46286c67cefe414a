// threads.cu — integration test (tests/cudart/run.sh): several host threads call the runtime at the
// same time (allocations, launches, copies, frees); the runtime serialises them with one lock, and
// each thread's launch configuration stays its own. Prints "PASS threads" (exit 0) or exits 1.
#include <cstdio>
#include <thread>
#include <vector>
#include <cuda_runtime.h>

__global__ void fake_fill(int *p, int v, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        p[i] = v + i;
}

static void worker(int id, int *bad)
{
    const int n = 256;
    std::vector<int> h(n);
    for (int round = 0; round < 20; round++) {
        int *d = nullptr;
        int v = id * 1000 + round;
        if (cudaMalloc((void **)&d, n * sizeof(int)) != cudaSuccess) {
            (*bad)++;
            continue;
        }
        fake_fill<<<n / 64, 64>>>(d, v, n);
        if (cudaMemcpy(h.data(), d, n * sizeof(int), cudaMemcpyDeviceToHost) != cudaSuccess)
            (*bad)++;
        for (int i = 0; i < n; i++)
            if (h[i] != v + i) {
                (*bad)++;
                break;
            }
        if (cudaFree(d) != cudaSuccess)
            (*bad)++;
    }
}

int main(void)
{
    const int nthreads = 4;
    int bad[nthreads] = {0, 0, 0, 0};
    std::vector<std::thread> ts;
    for (int i = 0; i < nthreads; i++)
        ts.emplace_back(worker, i, &bad[i]);
    for (auto &t : ts)
        t.join();
    int total = 0;
    for (int i = 0; i < nthreads; i++)
        total += bad[i];
    if (total) {
        printf("FAIL threads: %d bad results\n", total);
        return 1;
    }
    printf("PASS threads\n");
    return 0;
}
