// managed_var.cu — integration test (tests/cudart/run.sh): a __managed__ variable needs memory the
// host and the device share, which the GPUArmor runtime does not have; the runtime refuses it when
// the program registers it (before main), naming the variable, and stops the program (exit 125).
#include <cstdio>
#include <cuda_runtime.h>

__managed__ int counter = 0;

__global__ void bump(void) { atomicAdd(&counter, 1); }

int main(void)
{
    bump<<<1, 32>>>();
    cudaDeviceSynchronize();
    printf("FAIL managed_var: counter %d (the runtime should have stopped the program)\n", counter);
    return 1;
}
