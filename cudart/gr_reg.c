/*
 * gr_reg.c — registration of the program's device code and kernel launches (docs/emulator.md §3.2):
 * the calls nvcc's generated host code makes at start-up (__cudaRegisterFatBinary, ...Function,
 * ...Var, ...End) and at every <<<...>>> (__cudaPushCallConfiguration, __cudaPopCallConfiguration,
 * __cudaGetKernel, __cudaLaunchKernel), plus cudaLaunchKernel and cudaGetKernel.
 *
 * Order at start-up, per translation unit with device code: __cudaRegisterFatBinary(wrapper) ->
 * one __cudaRegisterFunction per kernel and __cudaRegisterVar per __device__/__constant__ variable
 * -> __cudaRegisterFatBinaryEnd; at exit __cudaUnregisterFatBinary (an atexit handler of the
 * program). The module is loaded into the emulator at ...End; if that fails the program goes on (it
 * may never launch those kernels) and is stopped at the first use of the module.
 */
#include "gr_rt.h"

#include <stdlib.h>
#include <string.h>

static gr_module_t *module_of(gr_rt_t *rt, void **handle)
{
    for (size_t i = 0; i < rt->nmods; i++)
        if ((void **)rt->mods[i] == handle)
            return rt->mods[i];
    return NULL;
}

static bool push_ptr(void ***arr, size_t *n, size_t *cap, void *p)
{
    if (*n == *cap) {
        size_t c = *cap ? *cap * 2 : 8;
        void **a = realloc(*arr, c * sizeof *a);
        if (!a)
            return false;
        *arr = a;
        *cap = c;
    }
    (*arr)[(*n)++] = p;
    return true;
}

void **__cudaRegisterFatBinary(void *fatCubin)
{
    gr_rt_t *rt = gr_enter();
    char why[512];
    const void *fb = NULL;
    gr_ptx_t ptx;
    if (gr_wrapper_fatbin(fatCubin, &fb, why, sizeof why) != GR_FB_OK ||
        gr_fatbin_find_ptx(fb, SIZE_MAX, GR_ARCH_SUPPORTED, &ptx, why, sizeof why) != GR_FB_OK)
        gr_stop(rt, GR_EXIT_STOP, "%s: fatbinary #%zu: %s", rt->prog, rt->nmods, why);
    gr_module_t *m = calloc(1, sizeof *m);
    if (!m || !push_ptr((void ***)&rt->mods, &rt->nmods, &rt->mcap, m))
        gr_stop(rt, GR_EXIT_STOP, "out of host memory");
    m->index = (unsigned)(rt->nmods - 1);
    m->ptx = ptx;
    snprintf(m->name, sizeof m->name, "%s:fatbin#%u", rt->prog, m->index);
    gr_leave(rt);
    return (void **)m;
}

/* Load m (again) and resolve its kernels. On failure m->load_status/load_msg say why. */
static void load(gr_rt_t *rt, gr_module_t *m)
{
    m->load_msg[0] = '\0';
    m->load_status = emu_module_load(rt->dev, m->name, m->ptx.ptx, m->ptx.len, &m->em, m->load_msg,
                                     sizeof m->load_msg);
    if (m->load_status != EMU_OK) {
        m->em = NULL;
        return;
    }
    for (size_t i = 0; i < m->nkernels; i++)
        m->kernels[i]->k = emu_kernel_find(m->em, m->kernels[i]->name);
}

void __cudaRegisterFatBinaryEnd(void **fatCubinHandle)
{
    gr_rt_t *rt = gr_enter();
    gr_module_t *m = module_of(rt, fatCubinHandle);
    if (!m || m->ended || rt->finished) {
        gr_leave(rt);
        return;
    }
    m->ended = true;
    load(rt, m);
    if (m->load_status != EMU_OK)
        gr_msg(rt, "warning: module %s could not be loaded (%s): %s; the program stops if it uses it", m->name,
               emu_status_name(m->load_status), m->load_msg);
    gr_leave(rt);
}

bool gr_module_ready(gr_rt_t *rt, gr_module_t *m)
{
    if (m->unregistered || !rt->dev)
        return false;
    if (m->em)
        return true;
    if (m->load_status == EMU_OK)
        load(rt, m); /* first use after a cudaDeviceReset */
    if (!m->em)
        gr_stop(rt, GR_EXIT_STOP, "module %s cannot run (%s): %s; stopping the program", m->name,
                emu_status_name(m->load_status), m->load_msg);
    return true;
}

void gr_modules_reset(gr_rt_t *rt)
{
    for (size_t i = 0; i < rt->nmods; i++) {
        gr_module_t *m = rt->mods[i];
        if (m->em) {
            emu_module_unload(rt->dev, m->em);
            m->em = NULL;
        }
        for (size_t k = 0; k < m->nkernels; k++) {
            m->kernels[k]->k = NULL;
            m->kernels[k]->max_dyn_shmem = (int)rt->props.shared_per_block;
            m->kernels[k]->carveout = -1;
        }
    }
}

void __cudaUnregisterFatBinary(void **fatCubinHandle)
{
    gr_rt_t *rt = gr_enter();
    gr_module_t *m = module_of(rt, fatCubinHandle);
    if (m && !m->unregistered && !rt->finished) {
        if (m->em && rt->dev)
            emu_module_unload(rt->dev, m->em);
        m->em = NULL;
        m->unregistered = true;
        for (size_t k = 0; k < m->nkernels; k++)
            m->kernels[k]->k = NULL;
    }
    gr_leave(rt);
}

void gr_modules_free(gr_rt_t *rt)
{
    for (size_t i = 0; i < rt->nmods; i++) {
        gr_module_t *m = rt->mods[i];
        for (size_t k = 0; k < m->nkernels; k++) {
            free(m->kernels[k]->name);
            free(m->kernels[k]);
        }
        for (size_t v = 0; v < m->nvars; v++) {
            free(m->vars[v]->name);
            free(m->vars[v]);
        }
        free(m->kernels);
        free(m->vars);
        free(m);
    }
    free(rt->mods);
    rt->mods = NULL;
    rt->nmods = rt->mcap = 0;
}

void __cudaRegisterFunction(void **fatCubinHandle, const char *hostFun, char *deviceFun, const char *deviceName,
                            int thread_limit, uint3 *tid, uint3 *bid, dim3 *bDim, dim3 *gDim, int *wSize)
{
    (void)deviceFun, (void)thread_limit, (void)tid, (void)bid, (void)bDim, (void)gDim, (void)wSize;
    gr_rt_t *rt = gr_enter();
    gr_module_t *m = module_of(rt, fatCubinHandle);
    if (!m || !hostFun || !deviceName || rt->finished) {
        gr_leave(rt);
        return;
    }
    gr_kernel_t *k = calloc(1, sizeof *k);
    char *name = strdup(deviceName);
    if (!k || !name || !push_ptr((void ***)&m->kernels, &m->nkernels, &m->kcap, k) ||
        !gr_map_put(&rt->kernels, (uint64_t)(uintptr_t)k, 1) ||
        !gr_map_put(&rt->by_host_fun, (uint64_t)(uintptr_t)hostFun, (uint64_t)(uintptr_t)k))
        gr_stop(rt, GR_EXIT_STOP, "out of host memory");
    k->mod = m;
    k->host_fun = hostFun;
    k->name = name;
    k->max_dyn_shmem = (int)rt->props.shared_per_block;
    k->carveout = -1;
    if (m->em) /* registered after ...End: resolve now */
        k->k = emu_kernel_find(m->em, name);
    gr_leave(rt);
}

void __cudaRegisterVar(void **fatCubinHandle, char *hostVar, char *deviceAddress, const char *deviceName, int ext,
                       size_t size, int constant, int global)
{
    (void)deviceAddress, (void)ext, (void)global;
    gr_rt_t *rt = gr_enter();
    gr_module_t *m = module_of(rt, fatCubinHandle);
    if (!m || !hostVar || !deviceName || rt->finished) {
        gr_leave(rt);
        return;
    }
    gr_var_t *v = calloc(1, sizeof *v);
    char *name = strdup(deviceName);
    if (!v || !name || !push_ptr((void ***)&m->vars, &m->nvars, &m->vcap, v) ||
        !gr_map_put(&rt->by_host_var, (uint64_t)(uintptr_t)hostVar, (uint64_t)(uintptr_t)v))
        gr_stop(rt, GR_EXIT_STOP, "out of host memory");
    v->mod = m;
    v->host_var = hostVar;
    v->name = name;
    v->size = size;
    v->constant = constant != 0;
    gr_leave(rt);
}

void __cudaRegisterManagedVar(void **fatCubinHandle, void **hostVarPtrAddress, char *deviceAddress,
                              const char *deviceName, int ext, size_t size, int constant, int global)
{
    (void)fatCubinHandle, (void)hostVarPtrAddress, (void)deviceAddress, (void)ext, (void)constant, (void)global;
    gr_rt_t *rt = gr_enter();
    gr_stop(rt, GR_EXIT_STOP,
            "%s: __managed__ variable '%s' (%zu bytes) is not supported: the host cannot access emulated device "
            "memory; use a __device__ variable with cudaMemcpyToSymbol / cudaMemcpyFromSymbol",
            rt->prog, deviceName ? deviceName : "?", size);
}

char __cudaInitModule(void **fatCubinHandle)
{
    gr_rt_t *rt = gr_enter();
    gr_module_t *m = module_of(rt, fatCubinHandle);
    char ok = (char)(m && !m->unregistered && gr_module_ready(rt, m));
    gr_leave(rt);
    return ok;
}

/* Unsupported internal entry points of NVIDIA's library (exported, declared nowhere). */
void __cudaRegisterHostVar(void) { gr_unsupported_call("__cudaRegisterHostVar"); }
void __cudaRegisterUnifiedTable(void) { gr_unsupported_call("__cudaRegisterUnifiedTable"); }
void __cudaGetProcAddress(void) { gr_unsupported_call("__cudaGetProcAddress"); }

/* ---- launches --------------------------------------------------------------------------------- */

unsigned __cudaPushCallConfiguration(dim3 gridDim, dim3 blockDim, size_t sharedMem, struct CUstream_st *stream)
{
    gr_rt_t *rt = gr_enter();
    if (rt->ncfgs == rt->cfgcap) {
        size_t c = rt->cfgcap ? rt->cfgcap * 2 : 8;
        gr_callcfg_t *a = realloc(rt->cfgs, c * sizeof *a);
        if (!a)
            gr_stop(rt, GR_EXIT_STOP, "out of host memory");
        rt->cfgs = a;
        rt->cfgcap = c;
    }
    gr_callcfg_t *c = &rt->cfgs[rt->ncfgs++];
    c->grid = gridDim;
    c->block = blockDim;
    c->shmem = sharedMem;
    c->stream = stream;
    c->thread = pthread_self();
    gr_leave(rt);
    return 0;
}

cudaError_t __cudaPopCallConfiguration(dim3 *gridDim, dim3 *blockDim, size_t *sharedMem, void *stream)
{
    gr_rt_t *rt = gr_enter();
    pthread_t self = pthread_self();
    for (size_t i = rt->ncfgs; i-- > 0;) {
        if (!pthread_equal(rt->cfgs[i].thread, self))
            continue;
        gr_callcfg_t c = rt->cfgs[i];
        memmove(&rt->cfgs[i], &rt->cfgs[i + 1], (rt->ncfgs - i - 1) * sizeof *rt->cfgs);
        rt->ncfgs--;
        if (gridDim)
            *gridDim = c.grid;
        if (blockDim)
            *blockDim = c.block;
        if (sharedMem)
            *sharedMem = c.shmem;
        if (stream)
            memcpy(stream, &c.stream, sizeof c.stream);
        gr_leave(rt);
        return cudaSuccess;
    }
    return gr_ret(rt, cudaErrorMissingConfiguration);
}

gr_kernel_t *gr_kernel_of(gr_rt_t *rt, const void *func)
{
    uint64_t v;
    if (!func)
        return NULL;
    if (gr_map_get(&rt->by_host_fun, (uint64_t)(uintptr_t)func, &v))
        return (gr_kernel_t *)(uintptr_t)v;
    if (gr_map_get(&rt->kernels, (uint64_t)(uintptr_t)func, NULL))
        return (gr_kernel_t *)(uintptr_t)func; /* a cudaKernel_t passed as a function (CUDA 12+) */
    return NULL;
}

cudaError_t __cudaGetKernel(cudaKernel_t *kernel, const void *hostFun)
{
    gr_rt_t *rt = gr_enter();
    gr_kernel_t *k = gr_kernel_of(rt, hostFun);
    if (kernel)
        *kernel = (cudaKernel_t)k;
    if (!kernel)
        return gr_ret(rt, cudaErrorInvalidValue);
    return gr_ret(rt, k ? cudaSuccess : cudaErrorInvalidDeviceFunction);
}

cudaError_t cudaGetKernel(cudaKernel_t *kernelPtr, const void *entryFuncAddr)
{
    return __cudaGetKernel(kernelPtr, entryFuncAddr);
}

static cudaError_t launch(gr_rt_t *rt, gr_kernel_t *k, dim3 grid, dim3 block, void **args, size_t shmem,
                          cudaStream_t stream)
{
    cudaError_t e = gr_gate(rt);
    if (e != cudaSuccess)
        return e;
    if (!k)
        return cudaErrorInvalidDeviceFunction;
    if (!gr_stream_ok(rt, stream))
        return cudaErrorInvalidResourceHandle;
    if (!gr_module_ready(rt, k->mod))
        return cudaErrorInvalidDeviceFunction; /* its module was unregistered (at exit) */
    if (!k->k)
        gr_stop(rt, GR_EXIT_STOP, "kernel %s was registered by the program but is not in the PTX of %s; "
                "stopping the program", k->name, k->mod->name);
    if (emu_kernel_nparams(k->k) > 0 && !args)
        return cudaErrorInvalidValue;
    /* Dynamic shared memory beyond the default needs cudaFuncSetAttribute first (as on sm_80). */
    if (shmem > (size_t)k->max_dyn_shmem)
        return cudaErrorInvalidValue;
    char msg[1024] = "";
    emu_dim3_t g = {grid.x, grid.y, grid.z}, b = {block.x, block.y, block.z};
    emu_status_t s = emu_launch(rt->dev, k->k, g, b, (uint64_t)shmem, (void *const *)args, msg, sizeof msg);
    emu_counters_t total, last;
    emu_counters(rt->dev, &total, &last);
    bool bad_access = last.illegal_accesses > 0 || (rt->opts.cfg.policy == GA_POLICY_TERMINATE &&
                                                    last.detections > 0);
    char what[1200];
    snprintf(what, sizeof what, "kernel %s: %s", k->name, msg[0] ? msg : emu_status_name(s));
    return gr_apply(rt, gr_map_status(s, GR_OP_LAUNCH, bad_access), what);
}

cudaError_t __cudaLaunchKernel(cudaKernel_t kernel, dim3 gridDim, dim3 blockDim, void **args, size_t sharedMem,
                               cudaStream_t stream)
{
    gr_rt_t *rt = gr_enter();
    gr_kernel_t *k = gr_map_get(&rt->kernels, (uint64_t)(uintptr_t)kernel, NULL) ? (gr_kernel_t *)kernel : NULL;
    return gr_ret(rt, launch(rt, k, gridDim, blockDim, args, sharedMem, stream));
}

cudaError_t __cudaLaunchKernel_ptsz(cudaKernel_t kernel, dim3 gridDim, dim3 blockDim, void **args,
                                    size_t sharedMem, cudaStream_t stream)
{
    return __cudaLaunchKernel(kernel, gridDim, blockDim, args, sharedMem, stream);
}

cudaError_t cudaLaunchKernel(const void *func, dim3 gridDim, dim3 blockDim, void **args, size_t sharedMem,
                             cudaStream_t stream)
{
    gr_rt_t *rt = gr_enter();
    return gr_ret(rt, launch(rt, gr_kernel_of(rt, func), gridDim, blockDim, args, sharedMem, stream));
}

/* ---- module variables ------------------------------------------------------------------------- */

/* The variable a symbol names, with its device address; cudaErrorInvalidSymbol when unknown. */
static cudaError_t symbol(gr_rt_t *rt, const void *sym, gr_var_t **var, uint64_t *addr, uint64_t *size)
{
    uint64_t v;
    if (!sym || !gr_map_get(&rt->by_host_var, (uint64_t)(uintptr_t)sym, &v))
        return cudaErrorInvalidSymbol;
    gr_var_t *gv = (gr_var_t *)(uintptr_t)v;
    if (!gr_module_ready(rt, gv->mod))
        return cudaErrorInvalidSymbol;
    emu_status_t s = emu_var_find(gv->mod->em, gv->name, addr, size);
    if (s != EMU_OK) {
        char what[512];
        snprintf(what, sizeof what, "variable %s of %s: %s", gv->name, gv->mod->name, emu_status_name(s));
        return gr_apply(rt, gr_map_status(s, GR_OP_SYMBOL, false), what);
    }
    if (var)
        *var = gv;
    return cudaSuccess;
}

cudaError_t cudaGetSymbolAddress(void **devPtr, const void *sym)
{
    gr_rt_t *rt = gr_enter();
    cudaError_t e = gr_gate(rt);
    uint64_t addr = 0, size = 0;
    if (e == cudaSuccess && !devPtr)
        e = cudaErrorInvalidValue;
    if (e == cudaSuccess)
        e = symbol(rt, sym, NULL, &addr, &size);
    if (e == cudaSuccess)
        *devPtr = (void *)(uintptr_t)addr;
    return gr_ret(rt, e);
}

cudaError_t cudaGetSymbolSize(size_t *size, const void *sym)
{
    gr_rt_t *rt = gr_enter();
    cudaError_t e = gr_gate(rt);
    uint64_t addr = 0, sz = 0;
    if (e == cudaSuccess && !size)
        e = cudaErrorInvalidValue;
    if (e == cudaSuccess)
        e = symbol(rt, sym, NULL, &addr, &sz);
    if (e == cudaSuccess)
        *size = (size_t)sz;
    return gr_ret(rt, e);
}

cudaError_t gr_symbol_range(gr_rt_t *rt, const void *sym, size_t count, size_t offset, uint64_t *addr)
{
    uint64_t base = 0, size = 0;
    cudaError_t e = symbol(rt, sym, NULL, &base, &size);
    if (e != cudaSuccess)
        return e;
    if (offset > size || count > size - offset)
        return cudaErrorInvalidValue;
    *addr = base + offset;
    return cudaSuccess;
}
