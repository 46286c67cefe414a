// sticky.cu — integration test of how the GPUArmor CUDA runtime reports a failed launch
// (tests/cudart/run.sh, with the emu fake: the fake fails kernels by name, tests/emu_fake.c).
//   sticky fault   a launch that fails with an illegal address: cudaErrorIllegalAddress is returned,
//                  stays (sticky) through later calls and cudaGetLastError, until cudaDeviceReset;
//   sticky trap    the same with cudaErrorLaunchFailure; hang: cudaErrorLaunchTimeout; assert: cudaErrorAssert;
//                  stack (recursion deeper than the stack): cudaErrorHardwareStackError;
//   sticky unsupported / internal: the runtime stops the program (exit 125) at the launch;
//   sticky unsupported-call: an unimplemented runtime call stops the program (exit 125).
// Prints "PASS sticky <mode>" and exits 0 when every check holds (the stopping modes never get there).
#include <cassert>
#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>

__global__ void fake_fault(int *p) { p[1 << 28] = 1; }
__global__ void fake_trap(int *p) { if (p) __trap(); }
__global__ void fake_hang(int *p) { while (*p == 0) { } }
__device__ __noinline__ int depth(int n, volatile int *sink)
{
    int local[16];
    for (int i = 0; i < 16; i++)
        local[i] = sink[i] + n;
    return n == 0 ? local[3] : depth(n - 1, sink) + local[n % 16];
}
__global__ void fake_stack(int *p) { p[0] = depth(1 << 20, p); }
__global__ void fake_assert(int *p) { assert(p == nullptr); }
__global__ void fake_unsupported(int *p) { *p = 1; }
__global__ void fake_internal(int *p) { *p = 2; }

static int failures = 0;

static void check_err(cudaError_t got, cudaError_t want, const char *what)
{
    printf("%s %s: %s (want %s)\n", got == want ? "ok" : "FAIL", what, cudaGetErrorName(got), cudaGetErrorName(want));
    if (got != want)
        failures++;
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "fault";
    int *d = nullptr;
    check_err(cudaMalloc((void **)&d, 256), cudaSuccess, "cudaMalloc");
    if (strcmp(mode, "unsupported-call") == 0) {
        cudaGraph_t g;
        cudaGraphCreate(&g, 0);
        printf("FAIL: returned from an unsupported call\n");
        return 1;
    }
    cudaError_t want = cudaErrorIllegalAddress;
    if (strcmp(mode, "fault") == 0)
        fake_fault<<<1, 1>>>(d);
    else if (strcmp(mode, "trap") == 0)
        fake_trap<<<1, 1>>>(d), want = cudaErrorLaunchFailure;
    else if (strcmp(mode, "hang") == 0)
        fake_hang<<<1, 1>>>(d), want = cudaErrorLaunchTimeout;
    else if (strcmp(mode, "stack") == 0)
        fake_stack<<<1, 1>>>(d), want = cudaErrorHardwareStackError;
    else if (strcmp(mode, "assert") == 0)
        fake_assert<<<1, 1>>>(d), want = cudaErrorAssert;
    else if (strcmp(mode, "unsupported") == 0)
        fake_unsupported<<<1, 1>>>(d);
    else if (strcmp(mode, "internal") == 0)
        fake_internal<<<1, 1>>>(d);
    else {
        printf("FAIL: unknown mode %s\n", mode);
        return 1;
    }
    check_err(cudaDeviceSynchronize(), want, "cudaDeviceSynchronize after the failed launch");
    check_err(cudaGetLastError(), want, "cudaGetLastError");
    check_err(cudaGetLastError(), want, "cudaGetLastError again: sticky");
    int *d2 = nullptr;
    check_err(cudaMalloc((void **)&d2, 256), want, "cudaMalloc while sticky");
    int h = 0;
    check_err(cudaMemcpy(&h, d, 4, cudaMemcpyDeviceToHost), want, "cudaMemcpy while sticky");
    check_err(cudaDeviceReset(), cudaSuccess, "cudaDeviceReset");
    check_err(cudaGetLastError(), cudaSuccess, "cleared by the reset");
    check_err(cudaMalloc((void **)&d2, 256), cudaSuccess, "cudaMalloc after the reset");
    check_err(cudaFree(d2), cudaSuccess, "cudaFree");
    if (failures) {
        printf("FAIL sticky %s: %d checks failed\n", mode, failures);
        return 1;
    }
    printf("PASS sticky %s\n", mode);
    return 0;
}
