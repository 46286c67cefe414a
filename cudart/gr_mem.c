/*
 * gr_mem.c — memory calls of the runtime (docs/emulator.md §3.5): device allocations through the
 * emulator (cudaMalloc and cudaFree are the paper's runtime wrappers, §6.1: tagged pointers,
 * metadata in device memory, bad frees reported), host allocations (plain host memory), copies,
 * memsets and the symbol copies, all synchronous.
 *
 * Host pointers are checked before the runtime touches them (gr_host_range_ok): a tagged device
 * pointer given where a host pointer is expected gets cudaErrorInvalidValue and a message instead of
 * a crash inside the runtime. Device pointers are checked by the emulator, which reports a range
 * that is not inside one live allocation.
 */
#include "gr_rt.h"

#include <stdlib.h>
#include <string.h>

/* Pinned host memory is page-aligned on NVIDIA's runtime; programs may rely on it. */
#define GR_HOST_ALIGN 4096u
/* cudaMallocPitch's row alignment: cudaDeviceProp.texturePitchAlignment of sm_80 parts is 32, but
 * NVIDIA's runtime pitches rows to 512 bytes on them; 512 keeps every row 256-aligned for us too. */
#define GR_PITCH_ALIGN 512u

static cudaError_t mapped(gr_rt_t *rt, emu_status_t s, const char *what)
{
    return gr_apply(rt, gr_map_status(s, GR_OP_MEMORY, false), what);
}

static cudaError_t not_host(gr_rt_t *rt, const char *call, const char *role, const void *p)
{
    gr_msg(rt, "%s: the %s %p is not a host address the host can access%s; returning cudaErrorInvalidValue", call,
           role, p, gr_is_device(rt, p) ? " (it is device memory: wrong cudaMemcpyKind?)" : " (a device pointer?)");
    return cudaErrorInvalidValue;
}

/* One copy of n bytes (n > 0) of the given kind. */
static cudaError_t copy(gr_rt_t *rt, const char *call, void *dst, const void *src, size_t n, enum cudaMemcpyKind kind)
{
    bool dst_dev, src_dev;
    switch (kind) {
    case cudaMemcpyHostToHost: dst_dev = src_dev = false; break;
    case cudaMemcpyHostToDevice: dst_dev = true; src_dev = false; break;
    case cudaMemcpyDeviceToHost: dst_dev = false; src_dev = true; break;
    case cudaMemcpyDeviceToDevice: dst_dev = src_dev = true; break;
    case cudaMemcpyDefault:
        dst_dev = gr_is_device(rt, dst);
        src_dev = gr_is_device(rt, src);
        break;
    default: return cudaErrorInvalidMemcpyDirection;
    }
    if (!src_dev && !gr_host_range_ok(src, n))
        return not_host(rt, call, "source", src);
    if (!dst_dev && !gr_host_range_ok(dst, n))
        return not_host(rt, call, "destination", dst);
    uint64_t d = (uint64_t)(uintptr_t)dst, s = (uint64_t)(uintptr_t)src;
    emu_status_t st = EMU_OK;
    if (dst_dev && src_dev)
        st = emu_copy(rt->dev, d, s, n);
    else if (dst_dev)
        st = emu_write(rt->dev, d, src, n);
    else if (src_dev)
        st = emu_read(rt->dev, dst, s, n);
    else
        memmove(dst, src, n);
    char what[128];
    snprintf(what, sizeof what, "%s of %zu bytes", call, n);
    return mapped(rt, st, what);
}

static cudaError_t memcpy_common(const char *call, void *dst, const void *src, size_t count,
                                 enum cudaMemcpyKind kind, bool check_stream, cudaStream_t stream)
{
    gr_rt_t *rt = gr_enter();
    cudaError_t e = gr_gate(rt);
    if (e == cudaSuccess && check_stream && !gr_stream_ok(rt, stream))
        e = cudaErrorInvalidResourceHandle;
    if (e == cudaSuccess && count > 0)
        e = copy(rt, call, dst, src, count, kind);
    return gr_ret(rt, e);
}

cudaError_t cudaMemcpy(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind)
{
    return memcpy_common("cudaMemcpy", dst, src, count, kind, false, NULL);
}

cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind, cudaStream_t stream)
{
    return memcpy_common("cudaMemcpyAsync", dst, src, count, kind, true, stream);
}

static cudaError_t memcpy2d_common(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
                                   size_t height, enum cudaMemcpyKind kind, bool check_stream, cudaStream_t stream)
{
    gr_rt_t *rt = gr_enter();
    cudaError_t e = gr_gate(rt);
    if (e == cudaSuccess && check_stream && !gr_stream_ok(rt, stream))
        e = cudaErrorInvalidResourceHandle;
    if (e == cudaSuccess && height > 0 && (width > dpitch || width > spitch))
        e = cudaErrorInvalidPitchValue;
    for (size_t r = 0; e == cudaSuccess && width > 0 && r < height; r++)
        e = copy(rt, "cudaMemcpy2D", (char *)dst + r * dpitch, (const char *)src + r * spitch, width, kind);
    return gr_ret(rt, e);
}

cudaError_t cudaMemcpy2D(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width, size_t height,
                         enum cudaMemcpyKind kind)
{
    return memcpy2d_common(dst, dpitch, src, spitch, width, height, kind, false, NULL);
}

cudaError_t cudaMemcpy2DAsync(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
                              size_t height, enum cudaMemcpyKind kind, cudaStream_t stream)
{
    return memcpy2d_common(dst, dpitch, src, spitch, width, height, kind, true, stream);
}

static cudaError_t memset_common(void *devPtr, int value, size_t count, bool check_stream, cudaStream_t stream)
{
    gr_rt_t *rt = gr_enter();
    cudaError_t e = gr_gate(rt);
    if (e == cudaSuccess && check_stream && !gr_stream_ok(rt, stream))
        e = cudaErrorInvalidResourceHandle;
    if (e == cudaSuccess && count > 0)
        e = mapped(rt, emu_set(rt->dev, (uint64_t)(uintptr_t)devPtr, (uint8_t)value, count), "cudaMemset");
    return gr_ret(rt, e);
}

cudaError_t cudaMemset(void *devPtr, int value, size_t count) { return memset_common(devPtr, value, count, false, NULL); }

cudaError_t cudaMemsetAsync(void *devPtr, int value, size_t count, cudaStream_t stream)
{
    return memset_common(devPtr, value, count, true, stream);
}

cudaError_t cudaMemset2D(void *devPtr, size_t pitch, int value, size_t width, size_t height)
{
    gr_rt_t *rt = gr_enter();
    cudaError_t e = gr_gate(rt);
    if (e == cudaSuccess && height > 0 && width > pitch)
        e = cudaErrorInvalidPitchValue;
    for (size_t r = 0; e == cudaSuccess && width > 0 && r < height; r++)
        e = mapped(rt, emu_set(rt->dev, (uint64_t)(uintptr_t)devPtr + r * pitch, (uint8_t)value, width),
                   "cudaMemset2D");
    return gr_ret(rt, e);
}

static cudaError_t to_symbol(const char *call, const void *sym, const void *src, size_t count, size_t offset,
                             enum cudaMemcpyKind kind, bool check_stream, cudaStream_t stream)
{
    gr_rt_t *rt = gr_enter();
    cudaError_t e = gr_gate(rt);
    uint64_t addr = 0;
    if (e == cudaSuccess && check_stream && !gr_stream_ok(rt, stream))
        e = cudaErrorInvalidResourceHandle;
    if (e == cudaSuccess && kind != cudaMemcpyHostToDevice && kind != cudaMemcpyDeviceToDevice &&
        kind != cudaMemcpyDefault)
        e = cudaErrorInvalidMemcpyDirection;
    if (e == cudaSuccess)
        e = gr_symbol_range(rt, sym, count, offset, &addr);
    if (e == cudaSuccess && count > 0)
        e = copy(rt, call, (void *)(uintptr_t)addr, src, count, kind);
    return gr_ret(rt, e);
}

static cudaError_t from_symbol(const char *call, void *dst, const void *sym, size_t count, size_t offset,
                               enum cudaMemcpyKind kind, bool check_stream, cudaStream_t stream)
{
    gr_rt_t *rt = gr_enter();
    cudaError_t e = gr_gate(rt);
    uint64_t addr = 0;
    if (e == cudaSuccess && check_stream && !gr_stream_ok(rt, stream))
        e = cudaErrorInvalidResourceHandle;
    if (e == cudaSuccess && kind != cudaMemcpyDeviceToHost && kind != cudaMemcpyDeviceToDevice &&
        kind != cudaMemcpyDefault)
        e = cudaErrorInvalidMemcpyDirection;
    if (e == cudaSuccess)
        e = gr_symbol_range(rt, sym, count, offset, &addr);
    if (e == cudaSuccess && count > 0)
        e = copy(rt, call, dst, (const void *)(uintptr_t)addr, count, kind);
    return gr_ret(rt, e);
}

cudaError_t cudaMemcpyToSymbol(const void *symbol, const void *src, size_t count, size_t offset,
                               enum cudaMemcpyKind kind)
{
    return to_symbol("cudaMemcpyToSymbol", symbol, src, count, offset, kind, false, NULL);
}

cudaError_t cudaMemcpyToSymbolAsync(const void *symbol, const void *src, size_t count, size_t offset,
                                    enum cudaMemcpyKind kind, cudaStream_t stream)
{
    return to_symbol("cudaMemcpyToSymbolAsync", symbol, src, count, offset, kind, true, stream);
}

cudaError_t cudaMemcpyFromSymbol(void *dst, const void *symbol, size_t count, size_t offset,
                                 enum cudaMemcpyKind kind)
{
    return from_symbol("cudaMemcpyFromSymbol", dst, symbol, count, offset, kind, false, NULL);
}

cudaError_t cudaMemcpyFromSymbolAsync(void *dst, const void *symbol, size_t count, size_t offset,
                                      enum cudaMemcpyKind kind, cudaStream_t stream)
{
    return from_symbol("cudaMemcpyFromSymbolAsync", dst, symbol, count, offset, kind, true, stream);
}

/* ---- allocation ------------------------------------------------------------------------------- */

static cudaError_t dev_alloc(gr_rt_t *rt, void **devPtr, size_t size, uint64_t flags)
{
    if (!devPtr)
        return cudaErrorInvalidValue;
    if (size == 0) {
        *devPtr = NULL; /* as NVIDIA's runtime: success and a NULL pointer */
        return cudaSuccess;
    }
    uint64_t p = 0;
    emu_status_t s = emu_malloc(rt->dev, size, &p);
    if (s != EMU_OK)
        return mapped(rt, s, "cudaMalloc");
    if (!gr_map_put(&rt->dev_allocs, p, flags))
        gr_stop(rt, GR_EXIT_STOP, "out of host memory");
    if (flags & GR_ALLOC_MANAGED)
        gr_managed_add(rt, p, size);
    *devPtr = (void *)(uintptr_t)p;
    return cudaSuccess;
}

cudaError_t cudaMalloc(void **devPtr, size_t size)
{
    gr_rt_t *rt = gr_enter();
    cudaError_t e = gr_gate(rt);
    return gr_ret(rt, e != cudaSuccess ? e : dev_alloc(rt, devPtr, size, 0));
}

cudaError_t cudaMallocManaged(void **devPtr, size_t size, unsigned int flags)
{
    gr_rt_t *rt = gr_enter();
    cudaError_t e = gr_gate(rt);
    if (e == cudaSuccess && flags != cudaMemAttachGlobal && flags != cudaMemAttachHost)
        e = cudaErrorInvalidValue;
    return gr_ret(rt, e != cudaSuccess ? e : dev_alloc(rt, devPtr, size, GR_ALLOC_MANAGED));
}

cudaError_t cudaMallocPitch(void **devPtr, size_t *pitch, size_t width, size_t height)
{
    gr_rt_t *rt = gr_enter();
    cudaError_t e = gr_gate(rt);
    if (e == cudaSuccess && (!pitch || width > SIZE_MAX - GR_PITCH_ALIGN))
        e = cudaErrorInvalidValue;
    size_t p = 0;
    if (e == cudaSuccess) {
        p = (width + GR_PITCH_ALIGN - 1) / GR_PITCH_ALIGN * GR_PITCH_ALIGN;
        if (height > 0 && p > SIZE_MAX / height)
            e = cudaErrorMemoryAllocation;
    }
    if (e == cudaSuccess)
        e = dev_alloc(rt, devPtr, p * height, 0);
    if (e == cudaSuccess)
        *pitch = p;
    return gr_ret(rt, e);
}

cudaError_t cudaFree(void *devPtr)
{
    gr_rt_t *rt = gr_enter();
    cudaError_t e = gr_gate(rt);
    if (e == cudaSuccess && devPtr) {
        uint64_t p = (uint64_t)(uintptr_t)devPtr, flags = 0;
        bool ours = gr_map_get(&rt->dev_allocs, p, &flags);
        emu_status_t s = emu_free(rt->dev, p);
        if (s == EMU_OK && ours) {
            gr_map_del(&rt->dev_allocs, p);
            if (flags & GR_ALLOC_MANAGED)
                gr_managed_del(rt, p);
        }
        e = mapped(rt, s, "cudaFree");
    }
    return gr_ret(rt, e);
}

static cudaError_t host_alloc(gr_rt_t *rt, void **ptr, size_t size, unsigned flags)
{
    if (!ptr || (flags & ~(unsigned)(cudaHostAllocPortable | cudaHostAllocMapped | cudaHostAllocWriteCombined)))
        return cudaErrorInvalidValue;
    if (size == 0) {
        *ptr = NULL;
        return cudaSuccess;
    }
    void *p = NULL;
    if (posix_memalign(&p, GR_HOST_ALIGN, size) != 0 || !p)
        return cudaErrorMemoryAllocation;
    if (!gr_map_put(&rt->host_allocs, (uint64_t)(uintptr_t)p, size)) {
        free(p);
        return cudaErrorMemoryAllocation;
    }
    *ptr = p;
    return cudaSuccess;
}

cudaError_t cudaMallocHost(void **ptr, size_t size)
{
    gr_rt_t *rt = gr_enter();
    cudaError_t e = gr_gate(rt);
    return gr_ret(rt, e != cudaSuccess ? e : host_alloc(rt, ptr, size, 0));
}

cudaError_t cudaHostAlloc(void **pHost, size_t size, unsigned int flags)
{
    gr_rt_t *rt = gr_enter();
    cudaError_t e = gr_gate(rt);
    return gr_ret(rt, e != cudaSuccess ? e : host_alloc(rt, pHost, size, flags));
}

cudaError_t cudaFreeHost(void *ptr)
{
    gr_rt_t *rt = gr_enter();
    cudaError_t e = gr_gate(rt);
    if (e == cudaSuccess && ptr) {
        if (gr_map_del(&rt->host_allocs, (uint64_t)(uintptr_t)ptr))
            free(ptr);
        else
            e = cudaErrorInvalidValue;
    }
    return gr_ret(rt, e);
}

cudaError_t cudaMemGetInfo(size_t *free_bytes, size_t *total_bytes)
{
    gr_rt_t *rt = gr_enter();
    cudaError_t e = gr_gate(rt);
    if (e == cudaSuccess && (!free_bytes || !total_bytes))
        e = cudaErrorInvalidValue;
    if (e == cudaSuccess) {
        uint64_t f = 0, t = 0;
        emu_mem_info(rt->dev, &f, &t);
        *free_bytes = (size_t)f;
        *total_bytes = (size_t)t;
    }
    return gr_ret(rt, e);
}

/* Hints for managed memory: nothing to do when every access goes to one device memory, but the
 * range must be device memory, as NVIDIA's runtime checks. */
static cudaError_t hint(const void *devPtr, size_t count, bool check_stream, cudaStream_t stream)
{
    gr_rt_t *rt = gr_enter();
    cudaError_t e = gr_gate(rt);
    if (e == cudaSuccess && check_stream && !gr_stream_ok(rt, stream))
        e = cudaErrorInvalidResourceHandle;
    uint64_t base = 0, size = 0, p = (uint64_t)(uintptr_t)devPtr;
    if (e == cudaSuccess && count > 0 && (!devPtr || !emu_alloc_find(rt->dev, p, &base, &size)))
        e = cudaErrorInvalidValue;
    if (e == cudaSuccess && count > 0) {
        /* The whole range must lie in the allocation (tags ignored: compare untagged offsets). */
        uint64_t off = (p - base) & ga_va_mask(rt->opts.cfg.tag_bits);
        if (off > size || count > size - off)
            e = cudaErrorInvalidValue;
    }
    return gr_ret(rt, e);
}

cudaError_t cudaMemPrefetchAsync(const void *devPtr, size_t count, struct cudaMemLocation location,
                                 unsigned int flags, cudaStream_t stream)
{
    (void)location, (void)flags;
    return hint(devPtr, count, true, stream);
}

cudaError_t cudaMemAdvise(const void *devPtr, size_t count, enum cudaMemoryAdvise advice,
                          struct cudaMemLocation location)
{
    (void)advice, (void)location;
    return hint(devPtr, count, false, NULL);
}

cudaError_t cudaPointerGetAttributes(struct cudaPointerAttributes *attributes, const void *ptr)
{
    gr_rt_t *rt = gr_enter();
    cudaError_t e = gr_gate(rt);
    if (e == cudaSuccess && !attributes)
        e = cudaErrorInvalidValue;
    if (e == cudaSuccess) {
        memset(attributes, 0, sizeof *attributes);
        uint64_t base = 0, size = 0, flags = 0, p = (uint64_t)(uintptr_t)ptr;
        if (ptr && emu_alloc_find(rt->dev, p, &base, &size)) {
            gr_map_get(&rt->dev_allocs, base, &flags);
            attributes->type = (flags & GR_ALLOC_MANAGED) ? cudaMemoryTypeManaged : cudaMemoryTypeDevice;
            attributes->device = 0;
            attributes->devicePointer = (void *)ptr;
        } else {
            /* A host allocation of ours contains ptr? (few: a linear scan is enough) */
            size_t pos = 0;
            uint64_t key, len;
            attributes->type = cudaMemoryTypeUnregistered;
            attributes->device = cudaInvalidDeviceId;
            while (ptr && gr_map_next(&rt->host_allocs, &pos, &key, &len))
                if (p >= key && p - key < len) {
                    attributes->type = cudaMemoryTypeHost;
                    attributes->device = 0;
                    attributes->hostPointer = (void *)ptr;
                    break;
                }
        }
    }
    return gr_ret(rt, e);
}
