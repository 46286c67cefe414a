// managed.cu — integration test (tests/cudart/run.sh): cudaMallocManaged memory is device memory
// under the GPUArmor runtime, so the host cannot dereference it. Copies work; a host access is a
// SIGSEGV that the runtime explains on stderr before the program dies of it.
#include <cstdio>
#include <cuda_runtime.h>

int main(void)
{
    int *m = nullptr, h[4] = {1, 2, 3, 4};
    if (cudaMallocManaged((void **)&m, sizeof h) != cudaSuccess ||
        cudaMemcpy(m, h, sizeof h, cudaMemcpyHostToDevice) != cudaSuccess) {
        printf("FAIL managed: allocation or copy\n");
        return 1;
    }
    printf("copied into managed memory at %p\n", (void *)m);
    fflush(stdout);
    volatile int *vm = m;
    vm[1] = 5; // the host touches device memory: SIGSEGV here
    printf("FAIL managed: the host write did not fault\n");
    return 1;
}
