/*
 * gr_dev.c — the device the runtime shows (one emulated sm_80 GPU: properties, attributes, limits,
 * flags), errors and versions, kernel attributes and occupancy, cudaDeviceSynchronize and
 * cudaDeviceReset (docs/emulator.md §3.2).
 *
 * Properties come from emu_props (what the interpreter enforces: SMs, block and grid limits, shared
 * memory, the heap); the few that only describe hardware the emulator does not model (registers,
 * clocks, L2, bus width) are NVIDIA A100's published values, so programs that size work from them
 * behave as on an sm_80 part. Capabilities the runtime lacks are reported as absent (no host
 * mapping, no concurrent kernels, no cooperative launch, no memory pools).
 */
#include "gr_rt.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#define GR_DEVICE_NAME "GPUArmor emulated GPU (sm_80)"
/* NVIDIA A100 (GA100) figures, from its datasheet and the CUDA C++ Programming Guide's table of
 * compute capability 8.0: not enforced by the emulator, reported for programs that size work. */
#define A100_REGS_PER_SM 65536
#define A100_THREADS_PER_SM 2048
#define A100_BLOCKS_PER_SM 32
#define A100_SHARED_PER_SM (164 * 1024)
#define A100_RESERVED_SHARED_PER_BLOCK 1024
#define A100_CONST_MEM 65536
#define A100_L2_BYTES (40 * 1024 * 1024)
#define A100_BUS_WIDTH 5120
#define A100_CLOCK_KHZ 1410000
#define A100_MEM_CLOCK_KHZ 1215000

static void fill_props(const gr_rt_t *rt, struct cudaDeviceProp *p)
{
    const emu_props_t *e = &rt->props;
    memset(p, 0, sizeof *p);
    snprintf(p->name, sizeof p->name, "%s", GR_DEVICE_NAME);
    p->totalGlobalMem = (size_t)e->total_global;
    p->sharedMemPerBlock = e->shared_per_block;
    p->regsPerBlock = A100_REGS_PER_SM;
    p->warpSize = (int)e->warp_size;
    p->memPitch = INT_MAX;
    p->maxThreadsPerBlock = (int)e->max_threads_per_block;
    for (int i = 0; i < 3; i++) {
        p->maxThreadsDim[i] = (int)e->max_block_dim[i];
        p->maxGridSize[i] = (int)(e->max_grid_dim[i] > INT_MAX ? INT_MAX : e->max_grid_dim[i]);
    }
    p->totalConstMem = A100_CONST_MEM;
    p->major = (int)e->major;
    p->minor = (int)e->minor;
    p->textureAlignment = 512;
    p->texturePitchAlignment = 32;
    p->multiProcessorCount = (int)e->sms;
    p->unifiedAddressing = 1; /* device and host pointers never overlap: cudaMemcpyDefault works */
    p->memoryBusWidth = A100_BUS_WIDTH;
    p->l2CacheSize = A100_L2_BYTES;
    p->maxThreadsPerMultiProcessor = A100_THREADS_PER_SM;
    p->globalL1CacheSupported = 1;
    p->localL1CacheSupported = 1;
    p->sharedMemPerMultiprocessor = A100_SHARED_PER_SM;
    p->regsPerMultiprocessor = A100_REGS_PER_SM;
    p->managedMemory = 1; /* cudaMallocManaged works, as device memory */
    p->sharedMemPerBlockOptin = e->shared_per_block_optin;
    p->maxBlocksPerMultiProcessor = A100_BLOCKS_PER_SM;
    p->reservedSharedMemPerBlock = A100_RESERVED_SHARED_PER_BLOCK;
    p->deviceNumaId = -1;
    p->hostNumaId = -1;
}

static bool attr_value(const gr_rt_t *rt, enum cudaDeviceAttr attr, int *v)
{
    struct cudaDeviceProp p;
    fill_props(rt, &p);
    switch (attr) {
    case cudaDevAttrMaxThreadsPerBlock: *v = p.maxThreadsPerBlock; break;
    case cudaDevAttrMaxBlockDimX: *v = p.maxThreadsDim[0]; break;
    case cudaDevAttrMaxBlockDimY: *v = p.maxThreadsDim[1]; break;
    case cudaDevAttrMaxBlockDimZ: *v = p.maxThreadsDim[2]; break;
    case cudaDevAttrMaxGridDimX: *v = p.maxGridSize[0]; break;
    case cudaDevAttrMaxGridDimY: *v = p.maxGridSize[1]; break;
    case cudaDevAttrMaxGridDimZ: *v = p.maxGridSize[2]; break;
    case cudaDevAttrMaxSharedMemoryPerBlock: *v = (int)p.sharedMemPerBlock; break;
    case cudaDevAttrTotalConstantMemory: *v = (int)p.totalConstMem; break;
    case cudaDevAttrWarpSize: *v = p.warpSize; break;
    case cudaDevAttrMaxPitch: *v = (int)p.memPitch; break;
    case cudaDevAttrMaxRegistersPerBlock: *v = p.regsPerBlock; break;
    case cudaDevAttrClockRate: *v = A100_CLOCK_KHZ; break;
    case cudaDevAttrTextureAlignment: *v = (int)p.textureAlignment; break;
    case cudaDevAttrMultiProcessorCount: *v = p.multiProcessorCount; break;
    case cudaDevAttrMemoryClockRate: *v = A100_MEM_CLOCK_KHZ; break;
    case cudaDevAttrGlobalMemoryBusWidth: *v = p.memoryBusWidth; break;
    case cudaDevAttrL2CacheSize: *v = p.l2CacheSize; break;
    case cudaDevAttrMaxThreadsPerMultiProcessor: *v = p.maxThreadsPerMultiProcessor; break;
    case cudaDevAttrUnifiedAddressing: *v = p.unifiedAddressing; break;
    case cudaDevAttrTexturePitchAlignment: *v = (int)p.texturePitchAlignment; break;
    case cudaDevAttrComputeCapabilityMajor: *v = p.major; break;
    case cudaDevAttrComputeCapabilityMinor: *v = p.minor; break;
    case cudaDevAttrGlobalL1CacheSupported: *v = p.globalL1CacheSupported; break;
    case cudaDevAttrLocalL1CacheSupported: *v = p.localL1CacheSupported; break;
    case cudaDevAttrMaxSharedMemoryPerMultiprocessor: *v = (int)p.sharedMemPerMultiprocessor; break;
    case cudaDevAttrMaxRegistersPerMultiprocessor: *v = p.regsPerMultiprocessor; break;
    case cudaDevAttrManagedMemory: *v = p.managedMemory; break;
    case cudaDevAttrSingleToDoublePrecisionPerfRatio: *v = 2; break; /* A100: 19.5 / 9.7 TFLOPS */
    case cudaDevAttrMaxSharedMemoryPerBlockOptin: *v = (int)p.sharedMemPerBlockOptin; break;
    case cudaDevAttrMaxBlocksPerMultiprocessor: *v = p.maxBlocksPerMultiProcessor; break;
    case cudaDevAttrReservedSharedMemoryPerBlock: *v = (int)p.reservedSharedMemPerBlock; break;
    case cudaDevAttrNumaId:
    case cudaDevAttrHostNumaId: *v = -1; break;
    /* Capabilities this runtime does not have, and hardware features it does not model. */
    case cudaDevAttrGpuOverlap:
    case cudaDevAttrKernelExecTimeout:
    case cudaDevAttrIntegrated:
    case cudaDevAttrCanMapHostMemory:
    case cudaDevAttrComputeMode: /* cudaComputeModeDefault */
    case cudaDevAttrMaxTexture1DWidth:
    case cudaDevAttrMaxTexture2DWidth:
    case cudaDevAttrMaxTexture2DHeight:
    case cudaDevAttrMaxTexture3DWidth:
    case cudaDevAttrMaxTexture3DHeight:
    case cudaDevAttrMaxTexture3DDepth:
    case cudaDevAttrMaxTexture2DLayeredWidth:
    case cudaDevAttrMaxTexture2DLayeredHeight:
    case cudaDevAttrMaxTexture2DLayeredLayers:
    case cudaDevAttrSurfaceAlignment:
    case cudaDevAttrConcurrentKernels:
    case cudaDevAttrEccEnabled:
    case cudaDevAttrPciBusId:
    case cudaDevAttrPciDeviceId:
    case cudaDevAttrTccDriver:
    case cudaDevAttrAsyncEngineCount:
    case cudaDevAttrMaxTexture1DLayeredWidth:
    case cudaDevAttrMaxTexture1DLayeredLayers:
    case cudaDevAttrMaxTexture2DGatherWidth:
    case cudaDevAttrMaxTexture2DGatherHeight:
    case cudaDevAttrMaxTexture3DWidthAlt:
    case cudaDevAttrMaxTexture3DHeightAlt:
    case cudaDevAttrMaxTexture3DDepthAlt:
    case cudaDevAttrPciDomainId:
    case cudaDevAttrMaxTextureCubemapWidth:
    case cudaDevAttrMaxTextureCubemapLayeredWidth:
    case cudaDevAttrMaxTextureCubemapLayeredLayers:
    case cudaDevAttrMaxSurface1DWidth:
    case cudaDevAttrMaxSurface2DWidth:
    case cudaDevAttrMaxSurface2DHeight:
    case cudaDevAttrMaxSurface3DWidth:
    case cudaDevAttrMaxSurface3DHeight:
    case cudaDevAttrMaxSurface3DDepth:
    case cudaDevAttrMaxSurface1DLayeredWidth:
    case cudaDevAttrMaxSurface1DLayeredLayers:
    case cudaDevAttrMaxSurface2DLayeredWidth:
    case cudaDevAttrMaxSurface2DLayeredHeight:
    case cudaDevAttrMaxSurface2DLayeredLayers:
    case cudaDevAttrMaxSurfaceCubemapWidth:
    case cudaDevAttrMaxSurfaceCubemapLayeredWidth:
    case cudaDevAttrMaxSurfaceCubemapLayeredLayers:
    case cudaDevAttrMaxTexture1DLinearWidth:
    case cudaDevAttrMaxTexture2DLinearWidth:
    case cudaDevAttrMaxTexture2DLinearHeight:
    case cudaDevAttrMaxTexture2DLinearPitch:
    case cudaDevAttrMaxTexture2DMipmappedWidth:
    case cudaDevAttrMaxTexture2DMipmappedHeight:
    case cudaDevAttrMaxTexture1DMipmappedWidth:
    case cudaDevAttrStreamPrioritiesSupported:
    case cudaDevAttrIsMultiGpuBoard:
    case cudaDevAttrMultiGpuBoardGroupID:
    case cudaDevAttrHostNativeAtomicSupported:
    case cudaDevAttrPageableMemoryAccess:
    case cudaDevAttrConcurrentManagedAccess:
    case cudaDevAttrComputePreemptionSupported:
    case cudaDevAttrCanUseHostPointerForRegisteredMem:
    case cudaDevAttrCooperativeLaunch:
    case cudaDevAttrCanFlushRemoteWrites:
    case cudaDevAttrHostRegisterSupported:
    case cudaDevAttrPageableMemoryAccessUsesHostPageTables:
    case cudaDevAttrDirectManagedMemAccessFromHost:
    case cudaDevAttrMaxPersistingL2CacheSize:
    case cudaDevAttrMaxAccessPolicyWindowSize:
    case cudaDevAttrSparseCudaArraySupported:
    case cudaDevAttrHostRegisterReadOnlySupported:
    case cudaDevAttrTimelineSemaphoreInteropSupported:
    case cudaDevAttrMemoryPoolsSupported:
    case cudaDevAttrGPUDirectRDMASupported:
    case cudaDevAttrGPUDirectRDMAFlushWritesOptions:
    case cudaDevAttrGPUDirectRDMAWritesOrdering:
    case cudaDevAttrMemoryPoolSupportedHandleTypes:
    case cudaDevAttrClusterLaunch:
    case cudaDevAttrDeferredMappingCudaArraySupported:
    case cudaDevAttrIpcEventSupport:
    case cudaDevAttrMemSyncDomainCount:
    case cudaDevAttrNumaConfig:
    case cudaDevAttrMpsEnabled:
    case cudaDevAttrD3D12CigSupported:
    case cudaDevAttrVulkanCigSupported:
    case cudaDevAttrGpuPciDeviceId:
    case cudaDevAttrGpuPciSubsystemId:
    case cudaDevAttrHostNumaMemoryPoolsSupported:
    case cudaDevAttrHostNumaMultinodeIpcSupported:
    case cudaDevAttrHostMemoryPoolsSupported:
    case cudaDevAttrOnlyPartialHostNativeAtomicSupported: *v = 0; break;
    default: return false;
    }
    return true;
}

/* Entry helper: gate, then device must be 0. */
static cudaError_t dev_check(const gr_rt_t *rt, int device)
{
    cudaError_t e = gr_gate(rt);
    if (e == cudaSuccess && device != 0)
        e = cudaErrorInvalidDevice;
    return e;
}

cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp *prop, int device)
{
    gr_rt_t *rt = gr_enter();
    cudaError_t e = dev_check(rt, device);
    if (e == cudaSuccess && !prop)
        e = cudaErrorInvalidValue;
    if (e == cudaSuccess)
        fill_props(rt, prop);
    return gr_ret(rt, e);
}

cudaError_t cudaDeviceGetAttribute(int *value, enum cudaDeviceAttr attr, int device)
{
    gr_rt_t *rt = gr_enter();
    cudaError_t e = dev_check(rt, device);
    if (e == cudaSuccess && (!value || !attr_value(rt, attr, value)))
        e = cudaErrorInvalidValue;
    return gr_ret(rt, e);
}

cudaError_t cudaGetDeviceCount(int *count)
{
    gr_rt_t *rt = gr_enter();
    cudaError_t e = gr_gate(rt);
    if (e == cudaSuccess && !count)
        e = cudaErrorInvalidValue;
    if (e == cudaSuccess)
        *count = 1;
    return gr_ret(rt, e);
}

cudaError_t cudaGetDevice(int *device)
{
    gr_rt_t *rt = gr_enter();
    cudaError_t e = gr_gate(rt);
    if (e == cudaSuccess && !device)
        e = cudaErrorInvalidValue;
    if (e == cudaSuccess)
        *device = 0;
    return gr_ret(rt, e);
}

cudaError_t cudaSetDevice(int device)
{
    gr_rt_t *rt = gr_enter();
    return gr_ret(rt, dev_check(rt, device));
}

cudaError_t cudaInitDevice(int device, unsigned int deviceFlags, unsigned int flags)
{
    gr_rt_t *rt = gr_enter();
    cudaError_t e = dev_check(rt, device);
    if (e == cudaSuccess && ((deviceFlags & ~(unsigned)cudaDeviceMask) || flags != 0))
        e = cudaErrorInvalidValue;
    if (e == cudaSuccess)
        rt->device_flags = deviceFlags;
    return gr_ret(rt, e);
}

cudaError_t cudaChooseDevice(int *device, const struct cudaDeviceProp *prop)
{
    gr_rt_t *rt = gr_enter();
    cudaError_t e = gr_gate(rt);
    if (e == cudaSuccess && (!device || !prop))
        e = cudaErrorInvalidValue;
    if (e == cudaSuccess)
        *device = 0;
    return gr_ret(rt, e);
}

cudaError_t cudaSetDeviceFlags(unsigned int flags)
{
    gr_rt_t *rt = gr_enter();
    cudaError_t e = gr_gate(rt);
    if (e == cudaSuccess && (flags & ~(unsigned)cudaDeviceMask))
        e = cudaErrorInvalidValue;
    if (e == cudaSuccess)
        rt->device_flags = flags;
    return gr_ret(rt, e);
}

cudaError_t cudaGetDeviceFlags(unsigned int *flags)
{
    gr_rt_t *rt = gr_enter();
    cudaError_t e = gr_gate(rt);
    if (e == cudaSuccess && !flags)
        e = cudaErrorInvalidValue;
    if (e == cudaSuccess)
        *flags = rt->device_flags;
    return gr_ret(rt, e);
}

cudaError_t cudaDeviceGetLimit(size_t *pValue, enum cudaLimit limit)
{
    gr_rt_t *rt = gr_enter();
    cudaError_t e = gr_gate(rt);
    if (e == cudaSuccess && !pValue)
        e = cudaErrorInvalidValue;
    if (e == cudaSuccess) {
        switch (limit) {
        case cudaLimitStackSize: *pValue = rt->limit_stack; break;
        case cudaLimitPrintfFifoSize: *pValue = rt->limit_printf_fifo; break;
        case cudaLimitMallocHeapSize: *pValue = rt->limit_malloc_heap; break;
        default: e = cudaErrorUnsupportedLimit; break;
        }
    }
    return gr_ret(rt, e);
}

cudaError_t cudaDeviceSetLimit(enum cudaLimit limit, size_t value)
{
    gr_rt_t *rt = gr_enter();
    cudaError_t e = gr_gate(rt);
    if (e == cudaSuccess) {
        switch (limit) {
        case cudaLimitStackSize:
            if (value > rt->opts.cfg.stack_bytes)
                gr_stop(rt, GR_EXIT_STOP, "cudaDeviceSetLimit(cudaLimitStackSize, %zu): the emulator gives each "
                        "thread %u bytes of local memory; run with gpuarmor-run --stack-size %zu or more",
                        value, rt->opts.cfg.stack_bytes, value);
            rt->limit_stack = value;
            break;
        case cudaLimitPrintfFifoSize: rt->limit_printf_fifo = value; break;
        case cudaLimitMallocHeapSize: rt->limit_malloc_heap = value; break;
        default: e = cudaErrorUnsupportedLimit; break;
        }
    }
    return gr_ret(rt, e);
}

cudaError_t cudaDeviceGetCacheConfig(enum cudaFuncCache *pCacheConfig)
{
    gr_rt_t *rt = gr_enter();
    cudaError_t e = gr_gate(rt);
    if (e == cudaSuccess && !pCacheConfig)
        e = cudaErrorInvalidValue;
    if (e == cudaSuccess)
        *pCacheConfig = (enum cudaFuncCache)rt->cache_config;
    return gr_ret(rt, e);
}

static bool cache_config_ok(enum cudaFuncCache c)
{
    return c == cudaFuncCachePreferNone || c == cudaFuncCachePreferShared || c == cudaFuncCachePreferL1 ||
           c == cudaFuncCachePreferEqual;
}

cudaError_t cudaDeviceSetCacheConfig(enum cudaFuncCache cacheConfig)
{
    gr_rt_t *rt = gr_enter();
    cudaError_t e = gr_gate(rt);
    if (e == cudaSuccess && !cache_config_ok(cacheConfig))
        e = cudaErrorInvalidValue;
    if (e == cudaSuccess)
        rt->cache_config = (int)cacheConfig;
    return gr_ret(rt, e);
}

cudaError_t cudaFuncSetCacheConfig(const void *func, enum cudaFuncCache cacheConfig)
{
    gr_rt_t *rt = gr_enter();
    cudaError_t e = gr_gate(rt);
    if (e == cudaSuccess && !gr_kernel_of(rt, func))
        e = cudaErrorInvalidDeviceFunction;
    if (e == cudaSuccess && !cache_config_ok(cacheConfig))
        e = cudaErrorInvalidValue;
    return gr_ret(rt, e); /* a hint: the emulator has no L1 to split */
}

cudaError_t cudaDeviceGetStreamPriorityRange(int *leastPriority, int *greatestPriority)
{
    gr_rt_t *rt = gr_enter();
    cudaError_t e = gr_gate(rt);
    if (e == cudaSuccess) {
        /* One priority: streams run in call order anyway. */
        if (leastPriority)
            *leastPriority = 0;
        if (greatestPriority)
            *greatestPriority = 0;
    }
    return gr_ret(rt, e);
}

cudaError_t cudaDeviceSynchronize(void)
{
    gr_rt_t *rt = gr_enter();
    return gr_ret(rt, gr_gate(rt)); /* every call finished inside itself */
}

cudaError_t cudaDeviceReset(void)
{
    gr_rt_t *rt = gr_enter();
    if (rt->finished)
        return gr_ret(rt, cudaErrorCudartUnloading);
    /* What NVIDIA's reset destroys: the context's allocations, modules (reloaded on next use, with
     * their variables initialised again), events, streams, function attributes and the sticky error.
     * Host allocations (cudaMallocHost) are kept: the program may still read them. */
    size_t pos = 0;
    uint64_t key;
    while (gr_map_next(&rt->dev_allocs, &pos, &key, NULL))
        emu_free(rt->dev, key);
    gr_map_clear(&rt->dev_allocs);
    rt->nmanaged = 0;
    gr_modules_reset(rt);
    pos = 0;
    while (gr_map_next(&rt->events, &pos, &key, NULL))
        free((void *)(uintptr_t)key);
    gr_map_clear(&rt->events);
    pos = 0;
    while (gr_map_next(&rt->streams, &pos, &key, NULL))
        free((void *)(uintptr_t)key);
    gr_map_clear(&rt->streams);
    rt->ncfgs = 0;
    rt->device_flags = 0;
    rt->cache_config = cudaFuncCachePreferNone;
    rt->limit_stack = rt->opts.cfg.stack_bytes;
    emu_clear_sticky(rt->dev);
    rt->sticky = cudaSuccess;
    rt->last_error = cudaSuccess;
    gr_leave(rt);
    return cudaSuccess;
}

/* ---- errors and versions ---------------------------------------------------------------------- */

cudaError_t cudaGetLastError(void)
{
    gr_rt_t *rt = gr_enter();
    cudaError_t e = rt->last_error;
    rt->last_error = rt->sticky; /* a sticky error cannot be cleared */
    gr_leave(rt);
    return e;
}

cudaError_t cudaPeekAtLastError(void)
{
    gr_rt_t *rt = gr_enter();
    cudaError_t e = rt->last_error;
    gr_leave(rt);
    return e;
}

const char *cudaGetErrorName(cudaError_t error) { return gr_error_name((int)error); }

const char *cudaGetErrorString(cudaError_t error) { return gr_error_string((int)error); }

cudaError_t cudaDriverGetVersion(int *driverVersion)
{
    if (!driverVersion)
        return cudaErrorInvalidValue;
    *driverVersion = CUDART_VERSION; /* the emulator plays the driver of this runtime */
    return cudaSuccess;
}

cudaError_t cudaRuntimeGetVersion(int *runtimeVersion)
{
    if (!runtimeVersion)
        return cudaErrorInvalidValue;
    *runtimeVersion = CUDART_VERSION;
    return cudaSuccess;
}

cudaError_t cudaProfilerStart(void) { return cudaSuccess; } /* no profiler to start */
cudaError_t cudaProfilerStop(void) { return cudaSuccess; }

/* ---- kernels ---------------------------------------------------------------------------------- */

cudaError_t cudaFuncGetAttributes(struct cudaFuncAttributes *attr, const void *func)
{
    gr_rt_t *rt = gr_enter();
    cudaError_t e = gr_gate(rt);
    gr_kernel_t *k = e == cudaSuccess ? gr_kernel_of(rt, func) : NULL;
    if (e == cudaSuccess && !attr)
        e = cudaErrorInvalidValue;
    if (e == cudaSuccess && !k)
        e = cudaErrorInvalidDeviceFunction;
    if (e == cudaSuccess && !gr_module_ready(rt, k->mod))
        e = cudaErrorInvalidDeviceFunction;
    if (e == cudaSuccess) {
        /* emu.h gives no per-kernel static shared, local or register sizes: reported as 0. */
        memset(attr, 0, sizeof *attr);
        attr->maxThreadsPerBlock = (int)rt->props.max_threads_per_block;
        attr->ptxVersion = (int)(k->mod->ptx.ptx_major * 10 + k->mod->ptx.ptx_minor);
        attr->binaryVersion = (int)k->mod->ptx.arch;
        attr->maxDynamicSharedSizeBytes = k->max_dyn_shmem;
        attr->preferredShmemCarveout = k->carveout;
    }
    return gr_ret(rt, e);
}

cudaError_t cudaFuncSetAttribute(const void *func, enum cudaFuncAttribute attr, int value)
{
    gr_rt_t *rt = gr_enter();
    cudaError_t e = gr_gate(rt);
    gr_kernel_t *k = e == cudaSuccess ? gr_kernel_of(rt, func) : NULL;
    if (e == cudaSuccess && !k)
        e = cudaErrorInvalidDeviceFunction;
    if (e == cudaSuccess) {
        switch (attr) {
        case cudaFuncAttributeMaxDynamicSharedMemorySize:
            if (value < 0 || (uint32_t)value > rt->props.shared_per_block_optin)
                e = cudaErrorInvalidValue;
            else
                k->max_dyn_shmem = value;
            break;
        case cudaFuncAttributePreferredSharedMemoryCarveout:
            if (value < -1 || value > 100)
                e = cudaErrorInvalidValue;
            else
                k->carveout = value; /* a hint */
            break;
        case cudaFuncAttributeClusterDimMustBeSet:
        case cudaFuncAttributeRequiredClusterWidth:
        case cudaFuncAttributeRequiredClusterHeight:
        case cudaFuncAttributeRequiredClusterDepth:
        case cudaFuncAttributeNonPortableClusterSizeAllowed:
        case cudaFuncAttributeClusterSchedulingPolicyPreference:
            gr_stop(rt, GR_EXIT_STOP, "cudaFuncSetAttribute: thread block clusters (attribute %d) are not supported "
                    "by the emulated sm_80 GPU; stopping the program", (int)attr);
        default: e = cudaErrorInvalidValue; break;
        }
    }
    return gr_ret(rt, e);
}

/* Resident blocks of blockSize threads and dyn bytes of dynamic shared memory per SM, from the sm_80
 * limits (threads, blocks, shared memory with its 1 KiB per-block reservation); registers and static
 * shared memory are not known (emu.h) and not counted. */
static int occupancy(const gr_rt_t *rt, const gr_kernel_t *k, int blockSize, size_t dyn)
{
    if ((unsigned)blockSize > rt->props.max_threads_per_block || dyn > (size_t)k->max_dyn_shmem)
        return 0;
    int warps = (blockSize + 31) / 32;
    int by_threads = A100_THREADS_PER_SM / (warps * 32);
    int by_shared = (int)(A100_SHARED_PER_SM / (dyn + A100_RESERVED_SHARED_PER_BLOCK));
    int n = A100_BLOCKS_PER_SM;
    if (by_threads < n)
        n = by_threads;
    if (by_shared < n)
        n = by_shared;
    return n;
}

cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int *numBlocks, const void *func, int blockSize,
                                                                   size_t dynamicSMemSize, unsigned int flags)
{
    gr_rt_t *rt = gr_enter();
    cudaError_t e = gr_gate(rt);
    gr_kernel_t *k = e == cudaSuccess ? gr_kernel_of(rt, func) : NULL;
    if (e == cudaSuccess && !k)
        e = cudaErrorInvalidDeviceFunction;
    if (e == cudaSuccess && (!numBlocks || blockSize <= 0 || (flags & ~(unsigned)cudaOccupancyDisableCachingOverride)))
        e = cudaErrorInvalidValue;
    if (e == cudaSuccess)
        *numBlocks = occupancy(rt, k, blockSize, dynamicSMemSize);
    return gr_ret(rt, e);
}

cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *numBlocks, const void *func, int blockSize,
                                                          size_t dynamicSMemSize)
{
    return cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(numBlocks, func, blockSize, dynamicSMemSize, 0);
}

cudaError_t cudaOccupancyAvailableDynamicSMemPerBlock(size_t *dynamicSmemSize, const void *func, int numBlocks,
                                                      int blockSize)
{
    gr_rt_t *rt = gr_enter();
    cudaError_t e = gr_gate(rt);
    gr_kernel_t *k = e == cudaSuccess ? gr_kernel_of(rt, func) : NULL;
    if (e == cudaSuccess && !k)
        e = cudaErrorInvalidDeviceFunction;
    if (e == cudaSuccess && (!dynamicSmemSize || numBlocks <= 0 || blockSize <= 0))
        e = cudaErrorInvalidValue;
    if (e == cudaSuccess) {
        size_t per = A100_SHARED_PER_SM / (size_t)numBlocks;
        per = per > A100_RESERVED_SHARED_PER_BLOCK ? per - A100_RESERVED_SHARED_PER_BLOCK : 0;
        if (per > (size_t)k->max_dyn_shmem)
            per = (size_t)k->max_dyn_shmem;
        if (occupancy(rt, k, blockSize, 0) < numBlocks)
            per = 0;
        *dynamicSmemSize = per;
    }
    return gr_ret(rt, e);
}
