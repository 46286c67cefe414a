/*
 * gr_sync.c — events, streams and host callbacks (docs/emulator.md §3.2). Every operation of this
 * runtime has finished when its call returns, so a stream is only a validated handle with its
 * flags, waits are immediate, a query answers cudaSuccess, and an event holds the host time at
 * which it was recorded (cudaEventElapsedTime is the host time between two records, which includes
 * the emulation of the work between them: it measures the emulator, not a GPU).
 */
#include "gr_rt.h"

#include <stdlib.h>
#include <string.h>

static gr_event_t *event_of(const gr_rt_t *rt, cudaEvent_t e)
{
    return e && gr_map_get(&rt->events, (uint64_t)(uintptr_t)e, NULL) ? (gr_event_t *)e : NULL;
}

static gr_stream_t *stream_of(const gr_rt_t *rt, cudaStream_t s)
{
    return s && gr_map_get(&rt->streams, (uint64_t)(uintptr_t)s, NULL) ? (gr_stream_t *)s : NULL;
}

cudaError_t cudaEventCreateWithFlags(cudaEvent_t *event, unsigned int flags)
{
    gr_rt_t *rt = gr_enter();
    cudaError_t e = gr_gate(rt);
    const unsigned known = cudaEventBlockingSync | cudaEventDisableTiming | cudaEventInterprocess;
    if (e == cudaSuccess && (!event || (flags & ~known) ||
                             ((flags & cudaEventInterprocess) && !(flags & cudaEventDisableTiming))))
        e = cudaErrorInvalidValue;
    if (e == cudaSuccess) {
        gr_event_t *ev = calloc(1, sizeof *ev);
        if (!ev || !gr_map_put(&rt->events, (uint64_t)(uintptr_t)ev, 1)) {
            free(ev);
            e = cudaErrorMemoryAllocation;
        } else {
            ev->flags = flags;
            *event = (cudaEvent_t)ev;
        }
    }
    return gr_ret(rt, e);
}

cudaError_t cudaEventCreate(cudaEvent_t *event) { return cudaEventCreateWithFlags(event, 0); }

cudaError_t cudaEventDestroy(cudaEvent_t event)
{
    gr_rt_t *rt = gr_enter();
    cudaError_t e = gr_gate(rt);
    gr_event_t *ev = event_of(rt, event);
    if (e == cudaSuccess && !ev)
        e = cudaErrorInvalidResourceHandle;
    if (e == cudaSuccess) {
        gr_map_del(&rt->events, (uint64_t)(uintptr_t)ev);
        free(ev);
    }
    return gr_ret(rt, e);
}

cudaError_t cudaEventRecordWithFlags(cudaEvent_t event, cudaStream_t stream, unsigned int flags)
{
    gr_rt_t *rt = gr_enter();
    cudaError_t e = gr_gate(rt);
    gr_event_t *ev = event_of(rt, event);
    if (e == cudaSuccess && (!ev || !gr_stream_ok(rt, stream)))
        e = cudaErrorInvalidResourceHandle;
    if (e == cudaSuccess && (flags & ~(unsigned)cudaEventRecordExternal))
        e = cudaErrorInvalidValue;
    if (e == cudaSuccess) {
        clock_gettime(CLOCK_MONOTONIC, &ev->when);
        ev->recorded = true;
    }
    return gr_ret(rt, e);
}

cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream)
{
    return cudaEventRecordWithFlags(event, stream, 0);
}

cudaError_t cudaEventQuery(cudaEvent_t event)
{
    gr_rt_t *rt = gr_enter();
    cudaError_t e = gr_gate(rt);
    if (e == cudaSuccess && !event_of(rt, event))
        e = cudaErrorInvalidResourceHandle;
    return gr_ret(rt, e); /* the work before a record has always finished */
}

cudaError_t cudaEventSynchronize(cudaEvent_t event) { return cudaEventQuery(event); }

cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t start, cudaEvent_t end)
{
    gr_rt_t *rt = gr_enter();
    cudaError_t e = gr_gate(rt);
    gr_event_t *a = event_of(rt, start), *b = event_of(rt, end);
    if (e == cudaSuccess && !ms)
        e = cudaErrorInvalidValue;
    /* As NVIDIA's runtime: an event never recorded or created with cudaEventDisableTiming has no time. */
    if (e == cudaSuccess && (!a || !b || !a->recorded || !b->recorded || (a->flags & cudaEventDisableTiming) ||
                             (b->flags & cudaEventDisableTiming)))
        e = cudaErrorInvalidResourceHandle;
    if (e == cudaSuccess) {
        double d = (double)(b->when.tv_sec - a->when.tv_sec) * 1e3 + (double)(b->when.tv_nsec - a->when.tv_nsec) / 1e6;
        *ms = (float)d;
    }
    return gr_ret(rt, e);
}

cudaError_t cudaStreamCreateWithPriority(cudaStream_t *pStream, unsigned int flags, int priority)
{
    gr_rt_t *rt = gr_enter();
    cudaError_t e = gr_gate(rt);
    if (e == cudaSuccess && (!pStream || (flags & ~(unsigned)cudaStreamNonBlocking)))
        e = cudaErrorInvalidValue;
    if (e == cudaSuccess) {
        gr_stream_t *s = calloc(1, sizeof *s);
        if (!s || !gr_map_put(&rt->streams, (uint64_t)(uintptr_t)s, 1)) {
            free(s);
            e = cudaErrorMemoryAllocation;
        } else {
            s->flags = flags;
            s->priority = 0; /* one priority level (cudaDeviceGetStreamPriorityRange: 0, 0): clamped */
            (void)priority;
            *pStream = (cudaStream_t)s;
        }
    }
    return gr_ret(rt, e);
}

cudaError_t cudaStreamCreateWithFlags(cudaStream_t *pStream, unsigned int flags)
{
    return cudaStreamCreateWithPriority(pStream, flags, 0);
}

cudaError_t cudaStreamCreate(cudaStream_t *pStream) { return cudaStreamCreateWithPriority(pStream, 0, 0); }

cudaError_t cudaStreamDestroy(cudaStream_t stream)
{
    gr_rt_t *rt = gr_enter();
    cudaError_t e = gr_gate(rt);
    gr_stream_t *s = stream_of(rt, stream);
    if (e == cudaSuccess && !s)
        e = cudaErrorInvalidResourceHandle;
    if (e == cudaSuccess) {
        gr_map_del(&rt->streams, (uint64_t)(uintptr_t)s);
        free(s);
    }
    return gr_ret(rt, e);
}

cudaError_t cudaStreamQuery(cudaStream_t stream)
{
    gr_rt_t *rt = gr_enter();
    cudaError_t e = gr_gate(rt);
    if (e == cudaSuccess && !gr_stream_ok(rt, stream))
        e = cudaErrorInvalidResourceHandle;
    return gr_ret(rt, e);
}

cudaError_t cudaStreamSynchronize(cudaStream_t stream) { return cudaStreamQuery(stream); }

cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned int flags)
{
    gr_rt_t *rt = gr_enter();
    cudaError_t e = gr_gate(rt);
    if (e == cudaSuccess && (!gr_stream_ok(rt, stream) || !event_of(rt, event)))
        e = cudaErrorInvalidResourceHandle;
    if (e == cudaSuccess && (flags & ~(unsigned)cudaEventWaitExternal))
        e = cudaErrorInvalidValue;
    return gr_ret(rt, e);
}

cudaError_t cudaStreamGetFlags(cudaStream_t hStream, unsigned int *flags)
{
    gr_rt_t *rt = gr_enter();
    cudaError_t e = gr_gate(rt);
    if (e == cudaSuccess && !flags)
        e = cudaErrorInvalidValue;
    if (e == cudaSuccess && !gr_stream_ok(rt, hStream))
        e = cudaErrorInvalidResourceHandle;
    if (e == cudaSuccess) {
        gr_stream_t *s = stream_of(rt, hStream);
        *flags = s ? s->flags : 0;
    }
    return gr_ret(rt, e);
}

cudaError_t cudaStreamGetPriority(cudaStream_t hStream, int *priority)
{
    gr_rt_t *rt = gr_enter();
    cudaError_t e = gr_gate(rt);
    if (e == cudaSuccess && !priority)
        e = cudaErrorInvalidValue;
    if (e == cudaSuccess && !gr_stream_ok(rt, hStream))
        e = cudaErrorInvalidResourceHandle;
    if (e == cudaSuccess)
        *priority = 0;
    return gr_ret(rt, e);
}

/* Host functions run at once, in the calling thread, without the runtime's lock: the stream's
 * earlier work has finished. (CUDA forbids CUDA calls inside them; if one is made anyway it works.) */
cudaError_t cudaStreamAddCallback(cudaStream_t stream, cudaStreamCallback_t callback, void *userData,
                                  unsigned int flags)
{
    gr_rt_t *rt = gr_enter();
    cudaError_t e = gr_gate(rt);
    if (e == cudaSuccess && (!callback || flags != 0))
        e = cudaErrorInvalidValue;
    if (e == cudaSuccess && !gr_stream_ok(rt, stream))
        e = cudaErrorInvalidResourceHandle;
    gr_leave(rt);
    if (e == cudaSuccess)
        callback(stream, cudaSuccess, userData);
    rt = gr_enter();
    return gr_ret(rt, e);
}

cudaError_t cudaLaunchHostFunc(cudaStream_t stream, cudaHostFn_t fn, void *userData)
{
    gr_rt_t *rt = gr_enter();
    cudaError_t e = gr_gate(rt);
    if (e == cudaSuccess && !fn)
        e = cudaErrorInvalidValue;
    if (e == cudaSuccess && !gr_stream_ok(rt, stream))
        e = cudaErrorInvalidResourceHandle;
    gr_leave(rt);
    if (e == cudaSuccess)
        fn(userData);
    rt = gr_enter();
    return gr_ret(rt, e);
}
