// unloadable.cu — integration test (tests/cudart/run.sh, emu fake only): a module the emulator cannot
// load (the fake refuses PTX containing the name gr_fake_unloadable) does not stop a program that
// never uses it at start-up (a warning), but its first launch stops the program with the reason.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void gr_fake_unloadable(int *p) { *p = 1; }

int main(void)
{
    int *d = nullptr;
    if (cudaMalloc((void **)&d, 4) != cudaSuccess) {
        printf("FAIL unloadable: cudaMalloc\n");
        return 1;
    }
    printf("host code runs\n");
    fflush(stdout);
    gr_fake_unloadable<<<1, 1>>>(d);
    cudaDeviceSynchronize();
    printf("FAIL unloadable: the launch returned\n");
    return 1;
}
