// basic.cu — integration test of the GPUArmor CUDA runtime (tests/cudart/run.sh): registration,
// device queries, memory, symbols, events, streams, launches and the error semantics a program sees.
// It prints one "ok ..." or "FAIL ..." line per check and "PASS basic" at the end (exit 0), or exits 1.
// The kernel really computes p[i] = v + i (table[0] is 1, coef[0] is 0.5), so the program passes on
// the emulator; the emu fake (tests/emu_fake.c) computes the same for kernels named fake_fill.
// Build: nvcc -cudart shared -no-compress -gencode arch=compute_80,code=compute_80 basic.cu
#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>

__device__ int table[4] = {1, 2, 3, 4};
__constant__ float coef[2] = {0.5f, 2.0f};

__global__ void fake_fill(int *p, int v, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        p[i] = v + i + (table[0] - 1) + (int)(coef[0] * 0.0f);
}

__global__ void fake_nothing(void) {}

static int failures = 0;

static void check(bool ok, const char *what)
{
    printf("%s %s\n", ok ? "ok" : "FAIL", what);
    if (!ok)
        failures++;
}

static void check_err(cudaError_t got, cudaError_t want, const char *what)
{
    char line[256];
    snprintf(line, sizeof line, "%s: %s (want %s)", what, cudaGetErrorName(got), cudaGetErrorName(want));
    check(got == want, line);
}

static void host_callback(void *data) { *(int *)data += 1; }
static void CUDART_CB stream_callback(cudaStream_t, cudaError_t status, void *data)
{
    *(int *)data += status == cudaSuccess ? 10 : 1000;
}

int main(void)
{
    // Device queries.
    int count = -1, dev = -1, version = 0;
    check_err(cudaGetDeviceCount(&count), cudaSuccess, "cudaGetDeviceCount");
    check(count == 1, "one device");
    check_err(cudaSetDevice(0), cudaSuccess, "cudaSetDevice(0)");
    check_err(cudaSetDevice(1), cudaErrorInvalidDevice, "cudaSetDevice(1)");
    check_err(cudaGetLastError(), cudaErrorInvalidDevice, "cudaGetLastError returns it");
    check_err(cudaGetLastError(), cudaSuccess, "and clears it");
    check_err(cudaGetDevice(&dev), cudaSuccess, "cudaGetDevice");
    check(dev == 0, "device 0");
    cudaDeviceProp prop;
    check_err(cudaGetDeviceProperties(&prop, 0), cudaSuccess, "cudaGetDeviceProperties");
    check(strcmp(prop.name, "GPUArmor emulated GPU (sm_80)") == 0, "device name");
    check(prop.major == 8 && prop.minor == 0 && prop.warpSize == 32, "sm_80, warp 32");
    check(prop.maxThreadsPerBlock == 1024 && prop.multiProcessorCount >= 1, "limits");
    int attr = 0;
    check_err(cudaDeviceGetAttribute(&attr, cudaDevAttrComputeCapabilityMajor, 0), cudaSuccess, "attribute major");
    check(attr == 8, "major 8");
    check_err(cudaDeviceGetAttribute(&attr, cudaDevAttrMultiProcessorCount, 0), cudaSuccess, "attribute SMs");
    check(attr == prop.multiProcessorCount, "SM count matches properties");
    check_err(cudaRuntimeGetVersion(&version), cudaSuccess, "cudaRuntimeGetVersion");
    check(version == CUDART_VERSION, "runtime version");
    check(strcmp(cudaGetErrorString(cudaErrorInvalidValue), "invalid argument") == 0, "error string");
    check(strcmp(cudaGetErrorName(cudaErrorIllegalAddress), "cudaErrorIllegalAddress") == 0, "error name");

    // Memory: malloc, memset, copies both ways, cudaMemcpyDefault, device-to-device.
    const int n = 1000;
    int *d = nullptr, *d2 = nullptr, h[n];
    check_err(cudaMalloc((void **)&d, n * sizeof(int)), cudaSuccess, "cudaMalloc");
    check_err(cudaMalloc((void **)&d2, n * sizeof(int)), cudaSuccess, "cudaMalloc second");
    check(d != nullptr && d2 != nullptr && d != d2, "distinct device pointers");
    check_err(cudaMemset(d, 0x7f, n * sizeof(int)), cudaSuccess, "cudaMemset");
    memset(h, 0, sizeof h);
    check_err(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost), cudaSuccess, "cudaMemcpy D2H");
    check(h[0] == 0x7f7f7f7f && h[n - 1] == 0x7f7f7f7f, "memset pattern");
    for (int i = 0; i < n; i++)
        h[i] = 3 * i;
    check_err(cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice), cudaSuccess, "cudaMemcpy H2D");
    check_err(cudaMemcpy(d2, d, sizeof h, cudaMemcpyDeviceToDevice), cudaSuccess, "cudaMemcpy D2D");
    memset(h, 0, sizeof h);
    check_err(cudaMemcpy(h, d2, sizeof h, cudaMemcpyDefault), cudaSuccess, "cudaMemcpy Default");
    check(h[0] == 0 && h[500] == 1500 && h[n - 1] == 3 * (n - 1), "data survives the round trip");
    check_err(cudaMemcpy(h, d, sizeof h, (cudaMemcpyKind)42), cudaErrorInvalidMemcpyDirection, "bad kind");
    check_err(cudaMemcpy(h, d, 2 * sizeof h, cudaMemcpyDeviceToHost), cudaErrorInvalidValue,
              "copy past the end of an allocation");
    size_t freeb = 0, total = 0;
    check_err(cudaMemGetInfo(&freeb, &total), cudaSuccess, "cudaMemGetInfo");
    check(total > 0 && freeb <= total, "free <= total");
    void *big = nullptr;
    check_err(cudaMalloc(&big, total + 1), cudaErrorMemoryAllocation, "cudaMalloc beyond the heap");
    check_err(cudaGetLastError(), cudaErrorMemoryAllocation, "which is the last error");
    void *zero = (void *)1;
    check_err(cudaMalloc(&zero, 0), cudaSuccess, "cudaMalloc(0)");
    check(zero == nullptr, "gives NULL");

    // Host memory and pointer attributes.
    int *pinned = nullptr;
    check_err(cudaMallocHost((void **)&pinned, 64 * sizeof(int)), cudaSuccess, "cudaMallocHost");
    pinned[63] = 42;
    check_err(cudaMemcpy(d, pinned, 64 * sizeof(int), cudaMemcpyHostToDevice), cudaSuccess, "copy from pinned");
    cudaPointerAttributes pa;
    check_err(cudaPointerGetAttributes(&pa, d + 10), cudaSuccess, "cudaPointerGetAttributes device");
    check(pa.type == cudaMemoryTypeDevice, "device type");
    check_err(cudaPointerGetAttributes(&pa, pinned + 3), cudaSuccess, "cudaPointerGetAttributes host");
    check(pa.type == cudaMemoryTypeHost, "host type");
    check_err(cudaPointerGetAttributes(&pa, h), cudaSuccess, "cudaPointerGetAttributes unregistered");
    check(pa.type == cudaMemoryTypeUnregistered, "unregistered type");
    check_err(cudaFreeHost(pinned), cudaSuccess, "cudaFreeHost");
    check_err(cudaFreeHost(h), cudaErrorInvalidValue, "cudaFreeHost of a stack array");

    // Symbols.
    int t[4] = {0, 0, 0, 0};
    size_t symsize = 0;
    check_err(cudaMemcpyFromSymbol(t, table, sizeof t), cudaSuccess, "cudaMemcpyFromSymbol");
    check(t[0] == 1 && t[3] == 4, "initialised __device__ array");
    float c[2] = {0, 0};
    check_err(cudaMemcpyFromSymbol(c, coef, sizeof c), cudaSuccess, "cudaMemcpyFromSymbol __constant__");
    check(c[0] == 0.5f && c[1] == 2.0f, "initialised __constant__ array");
    int nine = 9;
    check_err(cudaMemcpyToSymbol(table, &nine, sizeof nine, 2 * sizeof(int)), cudaSuccess, "cudaMemcpyToSymbol offset");
    check_err(cudaMemcpyFromSymbol(t, table, sizeof t), cudaSuccess, "read back");
    check(t[0] == 1 && t[2] == 9, "offset write landed");
    check_err(cudaMemcpyToSymbol(table, t, sizeof t, 4), cudaErrorInvalidValue, "symbol copy past its end");
    check_err(cudaMemcpyToSymbol(&nine, t, 4), cudaErrorInvalidSymbol, "unknown symbol");
    check_err(cudaGetSymbolSize(&symsize, table), cudaSuccess, "cudaGetSymbolSize");
    check(symsize == sizeof t, "symbol size 16");
    void *symaddr = nullptr;
    check_err(cudaGetSymbolAddress(&symaddr, table), cudaSuccess, "cudaGetSymbolAddress");
    check_err(cudaMemcpy(t, symaddr, sizeof t, cudaMemcpyDefault), cudaSuccess, "copy through the symbol address");
    check(t[2] == 9, "same memory");

    // Launches.
    check_err(cudaGetLastError(), cudaErrorInvalidSymbol, "the last error is the unknown symbol's");
    fake_fill<<<(n + 127) / 128, 128>>>(d, 100, n);
    check_err(cudaGetLastError(), cudaSuccess, "launch");
    check_err(cudaDeviceSynchronize(), cudaSuccess, "cudaDeviceSynchronize");
    check_err(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost), cudaSuccess, "result back");
    check(h[0] == 100 && h[1] == 101 && h[n - 1] == 100 + n - 1, "kernel result");
    void *args[] = {&d2, &nine, (void *)&n};
    check_err(cudaLaunchKernel((const void *)fake_fill, dim3(8), dim3(128), args, 0, 0), cudaSuccess,
              "cudaLaunchKernel");
    check_err(cudaMemcpy(h, d2, sizeof h, cudaMemcpyDeviceToHost), cudaSuccess, "result back");
    check(h[0] == 9 && h[999] == 1008, "cudaLaunchKernel result");
    fake_nothing<<<0, 1>>>();
    check_err(cudaGetLastError(), cudaErrorInvalidConfiguration, "grid of 0 blocks");
    fake_nothing<<<1, 2048>>>();
    check_err(cudaGetLastError(), cudaErrorInvalidConfiguration, "block of 2048 threads");
    check_err(cudaLaunchKernel((const void *)main, dim3(1), dim3(1), nullptr, 0, 0), cudaErrorInvalidDeviceFunction,
              "cudaLaunchKernel of a host function");
    fake_nothing<<<1, 1, 64 * 1024>>>();
    check_err(cudaGetLastError(), cudaErrorInvalidValue, "64 KiB dynamic shared memory without opt-in");
    check_err(cudaFuncSetAttribute((const void *)fake_nothing, cudaFuncAttributeMaxDynamicSharedMemorySize, 64 * 1024),
              cudaSuccess, "opt in to 64 KiB");
    fake_nothing<<<1, 1, 64 * 1024>>>();
    check_err(cudaGetLastError(), cudaSuccess, "64 KiB dynamic shared memory after opt-in");
    cudaFuncAttributes fa;
    check_err(cudaFuncGetAttributes(&fa, (const void *)fake_fill), cudaSuccess, "cudaFuncGetAttributes");
    check(fa.maxThreadsPerBlock == 1024 && fa.binaryVersion == 80, "function attributes");
    int blocks = 0;
    check_err(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, fake_fill, 256, 0), cudaSuccess, "occupancy");
    check(blocks == 8, "8 blocks of 256 threads per SM");

    // Events and streams.
    cudaEvent_t e0, e1;
    cudaStream_t s;
    float ms = -1;
    check_err(cudaEventCreate(&e0), cudaSuccess, "cudaEventCreate");
    check_err(cudaEventCreate(&e1), cudaSuccess, "cudaEventCreate");
    check_err(cudaEventElapsedTime(&ms, e0, e1), cudaErrorInvalidResourceHandle, "elapsed time before recording");
    check_err(cudaStreamCreate(&s), cudaSuccess, "cudaStreamCreate");
    check_err(cudaEventRecord(e0, s), cudaSuccess, "cudaEventRecord");
    fake_fill<<<1, 32, 0, s>>>(d, 1, 32);
    check_err(cudaMemcpyAsync(h, d, 32 * sizeof(int), cudaMemcpyDeviceToHost, s), cudaSuccess, "cudaMemcpyAsync");
    check_err(cudaEventRecord(e1, s), cudaSuccess, "cudaEventRecord");
    check_err(cudaStreamWaitEvent(s, e1, 0), cudaSuccess, "cudaStreamWaitEvent");
    check_err(cudaStreamSynchronize(s), cudaSuccess, "cudaStreamSynchronize");
    check_err(cudaStreamQuery(s), cudaSuccess, "cudaStreamQuery");
    check_err(cudaEventSynchronize(e1), cudaSuccess, "cudaEventSynchronize");
    check_err(cudaEventElapsedTime(&ms, e0, e1), cudaSuccess, "cudaEventElapsedTime");
    check(ms >= 0.0f, "elapsed time >= 0");
    check(h[31] == 32, "stream work done");
    int calls = 0;
    check_err(cudaLaunchHostFunc(s, host_callback, &calls), cudaSuccess, "cudaLaunchHostFunc");
    check_err(cudaStreamAddCallback(s, stream_callback, &calls, 0), cudaSuccess, "cudaStreamAddCallback");
    check(calls == 11, "both host functions ran");
    check_err(cudaStreamDestroy(s), cudaSuccess, "cudaStreamDestroy");
    check_err(cudaStreamSynchronize(s), cudaErrorInvalidResourceHandle, "a destroyed stream");
    check_err(cudaEventDestroy(e0), cudaSuccess, "cudaEventDestroy");
    check_err(cudaEventDestroy(e1), cudaSuccess, "cudaEventDestroy");
    check_err(cudaEventDestroy(e1), cudaErrorInvalidResourceHandle, "a destroyed event");

    // Managed memory is device memory here: copies work.
    int *m = nullptr;
    check_err(cudaMallocManaged((void **)&m, 16 * sizeof(int)), cudaSuccess, "cudaMallocManaged");
    check_err(cudaMemcpy(m, h, 16 * sizeof(int), cudaMemcpyDefault), cudaSuccess, "copy into managed memory");
    check_err(cudaPointerGetAttributes(&pa, m), cudaSuccess, "managed attributes");
    check(pa.type == cudaMemoryTypeManaged, "managed type");
    check_err(cudaFree(m), cudaSuccess, "cudaFree managed");

    // Bad frees: reported by GPUArmor's runtime, cudaErrorInvalidValue, not sticky.
    check_err(cudaFree(d + 1), cudaErrorInvalidValue, "cudaFree of an interior pointer");
    check_err(cudaFree(d2), cudaSuccess, "cudaFree");
    check_err(cudaFree(d2), cudaErrorInvalidValue, "double cudaFree");
    check_err(cudaGetLastError(), cudaErrorInvalidValue, "last error");
    check_err(cudaMalloc((void **)&d2, 64), cudaSuccess, "not sticky: cudaMalloc works");

    // cudaDeviceReset frees everything and reloads the module: symbols are initial again.
    check_err(cudaDeviceReset(), cudaSuccess, "cudaDeviceReset");
    check_err(cudaMemcpyFromSymbol(t, table, sizeof t), cudaSuccess, "symbol after reset");
    check(t[2] == 3, "initial value after reset");
    check_err(cudaMalloc((void **)&d, n * sizeof(int)), cudaSuccess, "cudaMalloc after reset");
    fake_fill<<<8, 128>>>(d, 5, n);
    check_err(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost), cudaSuccess, "launch after reset");
    check(h[999] == 1004, "kernel result after reset");
    check_err(cudaFree(d), cudaSuccess, "cudaFree");

    if (failures) {
        printf("FAIL basic: %d checks failed\n", failures);
        return 1;
    }
    printf("PASS basic\n");
    return 0;
}
