/*
 * gr_pt.c — the per-thread default stream names (_ptds, _ptsz) of the implemented calls. A program
 * built with `nvcc --default-stream per-thread` imports these instead of the plain names; here every
 * call is synchronous and the default streams are one, so each forwards to its plain form. The
 * prototypes are those cuda_runtime_api.h declares under CUDA_API_PER_THREAD_DEFAULT_STREAM (the
 * generated gr_stubs_pt.c is compiled against that form, so a mismatch would not link silently:
 * its weak stubs carry NVIDIA's exact prototypes and these strong definitions replace them).
 */
#include "gr_rt.h"

cudaError_t cudaMemcpy_ptds(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind);
cudaError_t cudaMemcpy2D_ptds(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width, size_t height,
                              enum cudaMemcpyKind kind);
cudaError_t cudaMemcpyToSymbol_ptds(const void *symbol, const void *src, size_t count, size_t offset,
                                    enum cudaMemcpyKind kind);
cudaError_t cudaMemcpyFromSymbol_ptds(void *dst, const void *symbol, size_t count, size_t offset,
                                      enum cudaMemcpyKind kind);
cudaError_t cudaMemset_ptds(void *devPtr, int value, size_t count);
cudaError_t cudaMemset2D_ptds(void *devPtr, size_t pitch, int value, size_t width, size_t height);
cudaError_t cudaMemcpyAsync_ptsz(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind,
                                 cudaStream_t stream);
cudaError_t cudaMemcpy2DAsync_ptsz(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
                                   size_t height, enum cudaMemcpyKind kind, cudaStream_t stream);
cudaError_t cudaMemcpyToSymbolAsync_ptsz(const void *symbol, const void *src, size_t count, size_t offset,
                                         enum cudaMemcpyKind kind, cudaStream_t stream);
cudaError_t cudaMemcpyFromSymbolAsync_ptsz(void *dst, const void *symbol, size_t count, size_t offset,
                                           enum cudaMemcpyKind kind, cudaStream_t stream);
cudaError_t cudaMemsetAsync_ptsz(void *devPtr, int value, size_t count, cudaStream_t stream);
cudaError_t cudaMemPrefetchAsync_ptsz(const void *devPtr, size_t count, struct cudaMemLocation location,
                                      unsigned int flags, cudaStream_t stream);
cudaError_t cudaStreamGetPriority_ptsz(cudaStream_t hStream, int *priority);
cudaError_t cudaStreamGetFlags_ptsz(cudaStream_t hStream, unsigned int *flags);
cudaError_t cudaStreamWaitEvent_ptsz(cudaStream_t stream, cudaEvent_t event, unsigned int flags);
cudaError_t cudaStreamAddCallback_ptsz(cudaStream_t stream, cudaStreamCallback_t callback, void *userData,
                                       unsigned int flags);
cudaError_t cudaStreamSynchronize_ptsz(cudaStream_t stream);
cudaError_t cudaStreamQuery_ptsz(cudaStream_t stream);
cudaError_t cudaEventRecord_ptsz(cudaEvent_t event, cudaStream_t stream);
cudaError_t cudaEventRecordWithFlags_ptsz(cudaEvent_t event, cudaStream_t stream, unsigned int flags);
cudaError_t cudaLaunchKernel_ptsz(const void *func, dim3 gridDim, dim3 blockDim, void **args, size_t sharedMem,
                                  cudaStream_t stream);
cudaError_t cudaLaunchHostFunc_ptsz(cudaStream_t stream, cudaHostFn_t fn, void *userData);

cudaError_t cudaMemcpy_ptds(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind)
{
    return cudaMemcpy(dst, src, count, kind);
}
cudaError_t cudaMemcpy2D_ptds(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width, size_t height,
                              enum cudaMemcpyKind kind)
{
    return cudaMemcpy2D(dst, dpitch, src, spitch, width, height, kind);
}
cudaError_t cudaMemcpyToSymbol_ptds(const void *symbol, const void *src, size_t count, size_t offset,
                                    enum cudaMemcpyKind kind)
{
    return cudaMemcpyToSymbol(symbol, src, count, offset, kind);
}
cudaError_t cudaMemcpyFromSymbol_ptds(void *dst, const void *symbol, size_t count, size_t offset,
                                      enum cudaMemcpyKind kind)
{
    return cudaMemcpyFromSymbol(dst, symbol, count, offset, kind);
}
cudaError_t cudaMemset_ptds(void *devPtr, int value, size_t count) { return cudaMemset(devPtr, value, count); }
cudaError_t cudaMemset2D_ptds(void *devPtr, size_t pitch, int value, size_t width, size_t height)
{
    return cudaMemset2D(devPtr, pitch, value, width, height);
}
cudaError_t cudaMemcpyAsync_ptsz(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind,
                                 cudaStream_t stream)
{
    return cudaMemcpyAsync(dst, src, count, kind, stream);
}
cudaError_t cudaMemcpy2DAsync_ptsz(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
                                   size_t height, enum cudaMemcpyKind kind, cudaStream_t stream)
{
    return cudaMemcpy2DAsync(dst, dpitch, src, spitch, width, height, kind, stream);
}
cudaError_t cudaMemcpyToSymbolAsync_ptsz(const void *symbol, const void *src, size_t count, size_t offset,
                                         enum cudaMemcpyKind kind, cudaStream_t stream)
{
    return cudaMemcpyToSymbolAsync(symbol, src, count, offset, kind, stream);
}
cudaError_t cudaMemcpyFromSymbolAsync_ptsz(void *dst, const void *symbol, size_t count, size_t offset,
                                           enum cudaMemcpyKind kind, cudaStream_t stream)
{
    return cudaMemcpyFromSymbolAsync(dst, symbol, count, offset, kind, stream);
}
cudaError_t cudaMemsetAsync_ptsz(void *devPtr, int value, size_t count, cudaStream_t stream)
{
    return cudaMemsetAsync(devPtr, value, count, stream);
}
cudaError_t cudaMemPrefetchAsync_ptsz(const void *devPtr, size_t count, struct cudaMemLocation location,
                                      unsigned int flags, cudaStream_t stream)
{
    return cudaMemPrefetchAsync(devPtr, count, location, flags, stream);
}
cudaError_t cudaStreamGetPriority_ptsz(cudaStream_t hStream, int *priority)
{
    return cudaStreamGetPriority(hStream, priority);
}
cudaError_t cudaStreamGetFlags_ptsz(cudaStream_t hStream, unsigned int *flags)
{
    return cudaStreamGetFlags(hStream, flags);
}
cudaError_t cudaStreamWaitEvent_ptsz(cudaStream_t stream, cudaEvent_t event, unsigned int flags)
{
    return cudaStreamWaitEvent(stream, event, flags);
}
cudaError_t cudaStreamAddCallback_ptsz(cudaStream_t stream, cudaStreamCallback_t callback, void *userData,
                                       unsigned int flags)
{
    return cudaStreamAddCallback(stream, callback, userData, flags);
}
cudaError_t cudaStreamSynchronize_ptsz(cudaStream_t stream) { return cudaStreamSynchronize(stream); }
cudaError_t cudaStreamQuery_ptsz(cudaStream_t stream) { return cudaStreamQuery(stream); }
cudaError_t cudaEventRecord_ptsz(cudaEvent_t event, cudaStream_t stream) { return cudaEventRecord(event, stream); }
cudaError_t cudaEventRecordWithFlags_ptsz(cudaEvent_t event, cudaStream_t stream, unsigned int flags)
{
    return cudaEventRecordWithFlags(event, stream, flags);
}
cudaError_t cudaLaunchKernel_ptsz(const void *func, dim3 gridDim, dim3 blockDim, void **args, size_t sharedMem,
                                  cudaStream_t stream)
{
    return cudaLaunchKernel(func, gridDim, blockDim, args, sharedMem, stream);
}
cudaError_t cudaLaunchHostFunc_ptsz(cudaStream_t stream, cudaHostFn_t fn, void *userData)
{
    return cudaLaunchHostFunc(stream, fn, userData);
}
