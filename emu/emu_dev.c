/*
 * emu_dev.c — the simulated device: configuration, the GPUArmor system (runtime + one MLU per SM +
 * the backend that runs MLU operations), device memory regions, host-side memory operations and the
 * launch front door (emu.h; docs/emulator.md §4).
 *
 * Memory. Every allocation (cudaMalloc, module variables) is made by the GPUArmor runtime (spec §7:
 * first fit, 256-byte aligned, tagged pointer) and backed by a host buffer of the reserved block (the
 * size rounded up to 256 bytes, zero-filled). Regions are kept sorted by VA; a lookup strips the tag.
 * Freed blocks are unmapped at once: a later access to them reads zero and is reported unless
 * GPUArmor already reported it [decision: docs/emulator.md §4.2].
 */
#include "emu_internal.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

void emu_default_cfg(emu_cfg_t *cfg)
{
    if (cfg == NULL) return;
    memset(cfg, 0, sizeof *cfg);
    cfg->sms = 4;
    cfg->armor = EMU_ARMOR_COMPILER;
    cfg->layout = GA_LAYOUT_BST;
    cfg->mlb_entries = 8;
    cfg->tag_bits = 7;
    cfg->policy = GA_POLICY_REPORT;
    cfg->seed = 1;
    cfg->max_instructions = UINT64_C(1) << 32;
    cfg->stack_bytes = 64u * 1024u;
    cfg->print_limit = 100;
}

const char *emu_status_name(emu_status_t s)
{
    static const char *const names[] = {
        "EMU_OK", "EMU_ERR_INVALID_VALUE", "EMU_ERR_NO_MEMORY", "EMU_ERR_INVALID_POINTER",
        "EMU_ERR_BAD_FREE", "EMU_ERR_INVALID_CONFIG", "EMU_ERR_LAUNCH_FAILED", "EMU_ERR_TIMEOUT",
        "EMU_ERR_UNSUPPORTED", "EMU_ERR_INVALID_PTX", "EMU_ERR_NOT_FOUND", "EMU_ERR_STACK_OVERFLOW",
        "EMU_ERR_INTERNAL", "EMU_ERR_ASSERT"};
    return ((unsigned)s < sizeof names / sizeof names[0]) ? names[s] : "EMU_ERR_?";
}

static void set_msg(char *msg, size_t cap, const char *fmt, ...)
{
    if (msg == NULL || cap == 0) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, cap, fmt, ap);
    va_end(ap);
}

uint64_t emu_strip(const emu_dev_t *d, uint64_t p) { return ga_va_of(p, d->cfg.tag_bits); }

/* ---------------------------------------------------------------------------------------------------
 * Creation. */

emu_status_t emu_create(const emu_cfg_t *cfg, emu_dev_t **out, char *msg, size_t cap)
{
    if (out == NULL) return EMU_ERR_INVALID_VALUE;
    *out = NULL;
    emu_cfg_t c;
    if (cfg)
        c = *cfg;
    else
        emu_default_cfg(&c);
    if (c.sms < 1 || c.sms > GA_SYSTEM_MAX_SMS) {
        set_msg(msg, cap, "--sms %u: expected 1..%u", c.sms, GA_SYSTEM_MAX_SMS);
        return EMU_ERR_INVALID_VALUE;
    }
    if (c.mlb_entries < 1 || c.mlb_entries > GA_MLB_MAX) {
        set_msg(msg, cap, "--mlb %u: expected 1..%u", c.mlb_entries, GA_MLB_MAX);
        return EMU_ERR_INVALID_VALUE;
    }
    if (!ga_tag_bits_ok(c.tag_bits)) {
        set_msg(msg, cap, "--tag-bits %u: expected 7 or 16", c.tag_bits);
        return EMU_ERR_INVALID_VALUE;
    }
    if (!ga_layout_valid((unsigned)c.layout) || (unsigned)c.armor > EMU_ARMOR_HWONLY ||
        (unsigned)c.policy > GA_POLICY_TERMINATE) {
        set_msg(msg, cap, "bad layout, mode or policy value");
        return EMU_ERR_INVALID_VALUE;
    }
    if (c.rtl && !ga_layout_in_rtl(c.layout)) {
        char rl[64];
        (void)ga_layout_list(rl, sizeof rl, ", ", " or ", true);
        set_msg(msg, cap, "--rtl --layout %s: the RTL does not implement this layout (cmodel/ga_layouts.def); "
                "use %s, or run without --rtl", ga_layout_name(c.layout), rl);
        return EMU_ERR_INVALID_VALUE;
    }
    if (c.stack_bytes < 256 || c.stack_bytes > (64u << 20)) {
        set_msg(msg, cap, "--stack-size %u: expected 256 .. 64 MiB", c.stack_bytes);
        return EMU_ERR_INVALID_VALUE;
    }
    if (c.tag_quarantine > GA_RT_QUARANTINE_MAX) {
        set_msg(msg, cap, "--tag-quarantine %u: at most %u", c.tag_quarantine, GA_RT_QUARANTINE_MAX);
        return EMU_ERR_INVALID_VALUE;
    }
    emu_dev_t *d = calloc(1, sizeof *d);
    if (d == NULL) {
        set_msg(msg, cap, "out of memory");
        return EMU_ERR_NO_MEMORY;
    }
    d->cfg = c;
    d->log = c.log ? c.log : stderr;

    ga_system_cfg_t sc;
    ga_system_default_cfg(&sc, c.layout, c.tag_bits, c.seed);
    sc.sms = c.sms;
    sc.mlb_entries = c.mlb_entries;
    sc.mode = (c.armor == EMU_ARMOR_HWONLY) ? GA_MODE_HWONLY : GA_MODE_COMPILER;
    sc.policy = c.policy;
    sc.step_limit = c.step_limit ? c.step_limit : GA_STEP_LIMIT_RESET;
    sc.rt.tag_neighbour_distinct = c.tag_neighbour_distinct;
    sc.rt.tag_quarantine = c.tag_quarantine;
    if (c.md_capacity) sc.rt.md_capacity = c.md_capacity;
    ga_err_t ge = ga_system_init(&d->sys, &sc);
    if (ge != GA_OK) {
        set_msg(msg, cap, "cannot create the GPUArmor system: %s", ga_strerror(ge));
        free(d);
        return ge == GA_ERR_NO_MEMORY ? EMU_ERR_NO_MEMORY : EMU_ERR_INVALID_VALUE;
    }
    {
        char bm[512];
        int brc = ga_backend_open(c.backends, c.rtl ? "rtl" : "model", &d->sys, NULL, &d->be, bm, sizeof bm);
        if (brc != GA_BACKEND_OK) {
            if (brc == GA_BACKEND_NOT_BUILT)
                set_msg(msg, cap, "--rtl: this runtime has no Verilated MLU built in (build the RTL runtime with "
                        "'make cudart-rtl'; gpuarmor-run --rtl uses it): %s", bm);
            else
                set_msg(msg, cap, "%s", bm);
            ga_system_fini(&d->sys);
            free(d);
            return EMU_ERR_UNSUPPORTED;
        }
    }
    d->be_open = true;
    d->sm = calloc(c.sms, sizeof *d->sm);
    if (d->sm == NULL) {
        set_msg(msg, cap, "out of memory");
        emu_destroy(d);
        return EMU_ERR_NO_MEMORY;
    }
    for (unsigned i = 0; i < c.sms; i++) d->sm[i].index = i;
    if (c.trace_out && emu_trace_open(d, c.trace_out, msg, cap) != 0) {
        emu_destroy(d);
        return EMU_ERR_INVALID_VALUE;
    }
    *out = d;
    return EMU_OK;
}

void emu_clear_sticky(emu_dev_t *d)
{
    if (d == NULL) return;
    d->sticky = false;
    for (unsigned i = 0; i < d->cfg.sms; i++) ga_mlu_clear_halt(&d->sys.sm[i]);
}

uint64_t emu_error_count(const emu_dev_t *d) { return d ? d->errors : 0; }

void emu_counters(const emu_dev_t *d, emu_counters_t *total, emu_counters_t *last_launch)
{
    if (total) *total = d->total;
    if (last_launch) *last_launch = d->last;
}

ga_mlu_stats_t emu_mlu_stats(const emu_dev_t *d) { return ga_system_stats(&d->sys); }

void emu_props(const emu_dev_t *d, emu_props_t *p)
{
    memset(p, 0, sizeof *p);
    p->sms = d->cfg.sms;
    p->max_threads_per_block = 1024;
    p->max_block_dim[0] = 1024;
    p->max_block_dim[1] = 1024;
    p->max_block_dim[2] = 64;
    p->max_grid_dim[0] = 0x7fffffffu;
    p->max_grid_dim[1] = 65535;
    p->max_grid_dim[2] = 65535;
    p->shared_per_block = 48u * 1024u;
    p->shared_per_block_optin = 163u * 1024u;
    p->warp_size = 32;
    p->total_global = ga_rt_cfg(d->sys.rt)->heap_size;
    p->major = 8;
    p->minor = 0;
}

/* ---------------------------------------------------------------------------------------------------
 * Regions. */

static uint32_t region_index(const emu_dev_t *d, uint64_t va)
{
    /* The last region with lo <= va, or EMU_NONE. */
    uint32_t lo = 0, hi = d->nregions;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (d->regions[mid].lo <= va)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo ? lo - 1 : EMU_NONE;
}

emu_region_t *emu_region_find(emu_dev_t *d, uint64_t va)
{
    uint32_t i = region_index(d, va);
    if (i == EMU_NONE) return NULL;
    emu_region_t *r = &d->regions[i];
    return (va < r->hi) ? r : NULL;
}

void emu_runtime_changed(emu_dev_t *d)
{
    (void)ga_backend_forward(&d->sys, &d->be);
}

static emu_status_t map_rt_err(ga_err_t e)
{
    switch (e) {
    case GA_OK: return EMU_OK;
    case GA_ERR_NO_MEMORY:
    case GA_ERR_NO_SPACE:
    case GA_ERR_NO_METADATA_SPACE:
    case GA_ERR_TOO_LARGE: return EMU_ERR_NO_MEMORY;
    case GA_ERR_DOUBLE_FREE:
    case GA_ERR_INTERIOR_POINTER:
    case GA_ERR_TAG_MISMATCH:
    case GA_ERR_UNKNOWN_POINTER: return EMU_ERR_BAD_FREE;
    default: return EMU_ERR_INVALID_VALUE;
    }
}

emu_status_t emu_alloc_region(emu_dev_t *d, uint64_t size, uint8_t kind, const char *var_name, uint64_t *ptr)
{
    if (size == 0) return EMU_ERR_INVALID_VALUE;
    if (d->nregions == d->cap_regions) {
        uint32_t nc = d->cap_regions ? d->cap_regions * 2 : 64;
        emu_region_t *nr = realloc(d->regions, (size_t)nc * sizeof *nr);
        if (nr == NULL) return EMU_ERR_NO_MEMORY;
        d->regions = nr;
        d->cap_regions = nc;
    }
    uint64_t rounded = (size + 255u) & ~UINT64_C(255);
    if (rounded < size) return EMU_ERR_NO_MEMORY;
    if (rounded > (UINT64_C(1) << 36)) return EMU_ERR_NO_MEMORY; /* 64 GiB of host memory per region */
    uint8_t *host = calloc(1, (size_t)rounded);
    if (host == NULL) return EMU_ERR_NO_MEMORY;
    uint64_t p;
    ga_err_t e = ga_system_malloc(&d->sys, size, &p);
    if (e != GA_OK) {
        free(host);
        return map_rt_err(e);
    }
    emu_runtime_changed(d);
    uint64_t va = emu_strip(d, p);
    uint32_t at = region_index(d, va);
    at = (at == EMU_NONE) ? 0 : at + 1;
    memmove(&d->regions[at + 1], &d->regions[at], (size_t)(d->nregions - at) * sizeof *d->regions);
    d->nregions++;
    emu_region_t *r = &d->regions[at];
    r->lo = va;
    r->hi = va + rounded;
    r->size = size;
    r->ptr = p;
    r->host = host;
    r->id = d->next_alloc_id++;
    r->kind = kind;
    r->var_name = var_name;
    emu_trace_alloc(d, r->id, size);
    *ptr = p;
    return EMU_OK;
}

emu_status_t emu_malloc(emu_dev_t *d, uint64_t size, uint64_t *ptr)
{
    if (d == NULL || ptr == NULL) return EMU_ERR_INVALID_VALUE;
    if (size == 0) {
        *ptr = 0; /* cudaMalloc(0) succeeds with a null pointer */
        return EMU_OK;
    }
    return emu_alloc_region(d, size, REG_MALLOC, NULL, ptr);
}

static void region_remove(emu_dev_t *d, emu_region_t *r)
{
    uint32_t i = (uint32_t)(r - d->regions);
    free(r->host);
    memmove(&d->regions[i], &d->regions[i + 1], (size_t)(d->nregions - i - 1) * sizeof *d->regions);
    d->nregions--;
}

/* Free without the module-variable check (used to unload modules). */
static emu_status_t free_region(emu_dev_t *d, uint64_t ptr, bool report)
{
    ga_err_t e = ga_system_free(&d->sys, ptr);
    if (e != GA_OK) {
        if (report) {
            uint64_t va = emu_strip(d, ptr);
            emu_region_t *r = emu_region_find(d, va);
            const char *why = e == GA_ERR_DOUBLE_FREE        ? "double free: the allocation was already freed"
                              : e == GA_ERR_INTERIOR_POINTER ? "the pointer is inside an allocation, not its base"
                              : e == GA_ERR_TAG_MISMATCH
                                  ? "the pointer's tag is not the allocation's (a stale or forged pointer)"
                                  : "no allocation starts at this address";
            const char *sub = e == GA_ERR_DOUBLE_FREE        ? "DOUBLE_FREE"
                              : e == GA_ERR_INTERIOR_POINTER ? "INTERIOR_POINTER"
                              : e == GA_ERR_TAG_MISMATCH     ? "TAG_MISMATCH"
                                                             : "UNKNOWN_POINTER";
            if (r)
                emu_report_host(d, "BAD_FREE",
                                "%s: invalid cudaFree(0x%016" PRIx64 "): %s; it lies %" PRIu64
                                " bytes into the allocation at 0x%016" PRIx64 " of size %" PRIu64,
                                sub, ptr, why, va - r->lo, r->ptr, r->size);
            else
                emu_report_host(d, "BAD_FREE", "%s: invalid cudaFree(0x%016" PRIx64 "): %s", sub, ptr, why);
            d->bad_frees++;
            emu_trace_bad_free(d, ptr);
        }
        return map_rt_err(e);
    }
    emu_runtime_changed(d);
    emu_region_t *r = emu_region_find(d, emu_strip(d, ptr));
    if (r) {
        emu_trace_free(d, r->id);
        region_remove(d, r);
    }
    return EMU_OK;
}

emu_status_t emu_free(emu_dev_t *d, uint64_t ptr)
{
    if (d == NULL) return EMU_ERR_INVALID_VALUE;
    if (ptr == 0) return EMU_OK;
    emu_region_t *r = emu_region_find(d, emu_strip(d, ptr));
    if (r && r->kind == REG_VAR && r->ptr == ptr) {
        emu_report_host(d, "BAD_FREE",
                        "MODULE_VARIABLE: invalid cudaFree(0x%016" PRIx64 "): the address of the __device__ variable '%s' "
                        "was not returned by cudaMalloc",
                        ptr, r->var_name ? r->var_name : "?");
        d->bad_frees++;
        return EMU_ERR_BAD_FREE;
    }
    return free_region(d, ptr, true);
}

/* The host pointer for [p, p + n) when it lies inside one live region's requested size. */
static uint8_t *host_range(emu_dev_t *d, uint64_t p, uint64_t n, emu_region_t **rr)
{
    uint64_t va = emu_strip(d, p);
    emu_region_t *r = emu_region_find(d, va);
    if (r == NULL) return NULL;
    uint64_t off = va - r->lo;
    if (off > r->size || n > r->size - off) return NULL;
    if (rr) *rr = r;
    return r->host + off;
}

static emu_status_t bad_range(emu_dev_t *d, const char *call, uint64_t p, uint64_t n)
{
    uint64_t va = emu_strip(d, p);
    emu_region_t *r = emu_region_find(d, va);
    if (r)
        emu_report_host(d, "INVALID_POINTER",
                        "%s: the range [0x%016" PRIx64 ", +%" PRIu64 ") runs past the end of the allocation "
                        "at 0x%016" PRIx64 " of size %" PRIu64,
                        call, p, n, r->ptr, r->size);
    else
        emu_report_host(d, "INVALID_POINTER",
                        "%s: 0x%016" PRIx64 " is not a device address of any live allocation (freed, "
                        "never allocated, or a host pointer)",
                        call, p);
    return EMU_ERR_INVALID_POINTER;
}

emu_status_t emu_write(emu_dev_t *d, uint64_t dst, const void *src, uint64_t n)
{
    if (d == NULL || (src == NULL && n)) return EMU_ERR_INVALID_VALUE;
    if (n == 0) return EMU_OK;
    uint8_t *h = host_range(d, dst, n, NULL);
    if (h == NULL) return bad_range(d, "cudaMemcpy (host to device)", dst, n);
    memcpy(h, src, (size_t)n);
    return EMU_OK;
}

emu_status_t emu_read(emu_dev_t *d, void *dst, uint64_t src, uint64_t n)
{
    if (d == NULL || (dst == NULL && n)) return EMU_ERR_INVALID_VALUE;
    if (n == 0) return EMU_OK;
    uint8_t *h = host_range(d, src, n, NULL);
    if (h == NULL) return bad_range(d, "cudaMemcpy (device to host)", src, n);
    memcpy(dst, h, (size_t)n);
    return EMU_OK;
}

emu_status_t emu_copy(emu_dev_t *d, uint64_t dst, uint64_t src, uint64_t n)
{
    if (d == NULL) return EMU_ERR_INVALID_VALUE;
    if (n == 0) return EMU_OK;
    uint8_t *s = host_range(d, src, n, NULL);
    if (s == NULL) return bad_range(d, "cudaMemcpy (device to device, source)", src, n);
    uint8_t *t = host_range(d, dst, n, NULL);
    if (t == NULL) return bad_range(d, "cudaMemcpy (device to device, destination)", dst, n);
    memmove(t, s, (size_t)n);
    return EMU_OK;
}

emu_status_t emu_set(emu_dev_t *d, uint64_t dst, uint8_t value, uint64_t n)
{
    if (d == NULL) return EMU_ERR_INVALID_VALUE;
    if (n == 0) return EMU_OK;
    uint8_t *t = host_range(d, dst, n, NULL);
    if (t == NULL) return bad_range(d, "cudaMemset", dst, n);
    memset(t, value, (size_t)n);
    return EMU_OK;
}

void emu_mem_info(const emu_dev_t *d, uint64_t *free_bytes, uint64_t *total_bytes)
{
    uint64_t total = ga_rt_cfg(d->sys.rt)->heap_size;
    uint64_t used = 0;
    for (uint32_t i = 0; i < d->nregions; i++) used += d->regions[i].hi - d->regions[i].lo;
    if (free_bytes) *free_bytes = used < total ? total - used : 0;
    if (total_bytes) *total_bytes = total;
}

bool emu_alloc_find(const emu_dev_t *d, uint64_t ptr, uint64_t *base, uint64_t *size)
{
    emu_region_t *r = emu_region_find((emu_dev_t *)d, emu_strip(d, ptr));
    if (r == NULL || emu_strip(d, ptr) >= r->lo + r->size) return false;
    if (base) *base = r->ptr;
    if (size) *size = r->size;
    return true;
}

/* ---------------------------------------------------------------------------------------------------
 * Launch front door. */

emu_status_t emu_launch(emu_dev_t *d, emu_kernel_t *k, emu_dim3_t grid, emu_dim3_t block, uint64_t shmem,
                        void *const *args, char *msg, size_t cap)
{
    if (d == NULL || k == NULL || !k->mod->loaded) {
        set_msg(msg, cap, "invalid kernel handle");
        return EMU_ERR_INVALID_VALUE;
    }
    if (d->sticky) {
        set_msg(msg, cap, "an earlier launch failed; the device must be reset (cudaDeviceReset)");
        return EMU_ERR_LAUNCH_FAILED;
    }
    emu_props_t pr;
    emu_props(d, &pr);
    const emu_func_t *kf = &k->mod->funcs[k->fn];
    const char *kname = k->name;
    uint64_t threads = (uint64_t)block.x * block.y * block.z;
    if (grid.x == 0 || grid.y == 0 || grid.z == 0 || grid.x > pr.max_grid_dim[0] ||
        grid.y > pr.max_grid_dim[1] || grid.z > pr.max_grid_dim[2]) {
        set_msg(msg, cap, "kernel %s: invalid grid (%u,%u,%u): each dimension must be 1..(%u,%u,%u)", kname,
                grid.x, grid.y, grid.z, pr.max_grid_dim[0], pr.max_grid_dim[1], pr.max_grid_dim[2]);
        emu_report_host(d, "INVALID_CONFIGURATION", "%s", msg);
        return EMU_ERR_INVALID_CONFIG;
    }
    if (block.x == 0 || block.y == 0 || block.z == 0 || block.x > pr.max_block_dim[0] ||
        block.y > pr.max_block_dim[1] || block.z > pr.max_block_dim[2] || threads > pr.max_threads_per_block) {
        set_msg(msg, cap, "kernel %s: invalid block (%u,%u,%u): at most (%u,%u,%u) and %u threads", kname, block.x,
                block.y, block.z, pr.max_block_dim[0], pr.max_block_dim[1], pr.max_block_dim[2],
                pr.max_threads_per_block);
        emu_report_host(d, "INVALID_CONFIGURATION", "%s", msg);
        return EMU_ERR_INVALID_CONFIG;
    }
    if (kf->f->reqntid[0] && (block.x != kf->f->reqntid[0] || block.y != (kf->f->reqntid[1] ? kf->f->reqntid[1] : 1) ||
                              block.z != (kf->f->reqntid[2] ? kf->f->reqntid[2] : 1))) {
        set_msg(msg, cap, "kernel %s: block (%u,%u,%u) differs from its .reqntid", kname, block.x, block.y, block.z);
        emu_report_host(d, "INVALID_CONFIGURATION", "%s", msg);
        return EMU_ERR_INVALID_CONFIG;
    }
    uint64_t shared = (uint64_t)k->mod->shared_static;
    if (shmem) shared = ((shared + 15u) & ~UINT64_C(15)) + shmem;
    if (shared > pr.shared_per_block_optin) {
        set_msg(msg, cap, "kernel %s: %" PRIu64 " bytes of shared memory (static %u + dynamic %" PRIu64
                ") exceed the %u bytes an SM offers",
                kname, shared, k->mod->shared_static, shmem, pr.shared_per_block_optin);
        emu_report_host(d, "INVALID_CONFIGURATION", "%s", msg);
        return EMU_ERR_INVALID_CONFIG;
    }
    emu_launch_t L;
    memset(&L, 0, sizeof L);
    L.dev = d;
    L.mod = k->mod;
    L.kfn = kf;
    L.grid = grid;
    L.block = block;
    L.threads_per_cta = (uint32_t)threads;
    L.warps_per_cta = (uint32_t)((threads + 31u) / 32u);
    L.ncta = (uint64_t)grid.x * grid.y * grid.z;
    L.shared_bytes = (uint32_t)shared;
    L.dyn_shared = (uint32_t)shmem;
    L.gridid = ++d->launches;
    L.kparams = calloc(1, (size_t)kf->kparam_bytes + 16);
    if (L.kparams == NULL) return EMU_ERR_NO_MEMORY;
    for (uint32_t i = 0; i < kf->nparams; i++) {
        if (args == NULL || args[i] == NULL) {
            set_msg(msg, cap, "kernel %s: argument %u is missing (a null pointer in the argument array)", kname, i);
            free(L.kparams);
            emu_report_host(d, "INVALID_VALUE", "%s", msg);
            return EMU_ERR_INVALID_VALUE;
        }
        memcpy(L.kparams + kf->kparam_off[i], args[i], kf->kparam_size[i]);
    }
    memset(&d->last, 0, sizeof d->last);
    d->last.launches = 1;
    d->launch = &L;
    emu_trace_kernel(d, kname);
    emu_status_t st = emu_run_launch(&L);
    emu_trace_end(d);
    d->launch = NULL;
    free(L.kparams);
    d->total.launches++;
    emu_report_launch(d, kname, st, &d->last);
    d->total.warp_insns += d->last.warp_insns;
    d->total.thread_insns += d->last.thread_insns;
    d->total.ga_insns += d->last.ga_insns;
    d->total.ga_overhead += d->last.ga_overhead;
    d->total.loadmeta += d->last.loadmeta;
    d->total.memcheck_g += d->last.memcheck_g;
    d->total.memcheck_s += d->last.memcheck_s;
    d->total.hw_checks += d->last.hw_checks;
    d->total.memcheck_g_full += d->last.memcheck_g_full;
    d->total.memcheck_g_partial += d->last.memcheck_g_partial;
    d->total.memcheck_g_tagging += d->last.memcheck_g_tagging;
    d->total.detections += d->last.detections;
    d->total.illegal_accesses += d->last.illegal_accesses;
    if (st != EMU_OK) {
        set_msg(msg, cap, "%s", L.msg);
        if (st == EMU_ERR_LAUNCH_FAILED || st == EMU_ERR_TIMEOUT || st == EMU_ERR_STACK_OVERFLOW ||
            st == EMU_ERR_UNSUPPORTED || st == EMU_ERR_INTERNAL || st == EMU_ERR_ASSERT)
            d->sticky = true;
    }
    return st;
}

/* ---------------------------------------------------------------------------------------------------
 * Destruction. */

void emu_module_unload(emu_dev_t *d, emu_module_t *m);

uint64_t emu_finish(emu_dev_t *d)
{
    if (d == NULL) return 0;
    if (d->finished) return d->errors;
    d->finished = true;
    if (d->be_open && d->be.check) {
        char cm[512];
        if (d->be.check(d->be.ctx, cm, sizeof cm) != 0) {
            fprintf(d->log, "========= GPUArmor: the RTL lockstep check failed: %s\n", cm);
            d->errors++;
        }
    }
    emu_report_summary(d);
    emu_trace_close(d);
    return d->errors;
}

void emu_destroy(emu_dev_t *d)
{
    if (d == NULL) return;
    emu_finish(d);
    while (d->modules) emu_module_unload(d, d->modules);
    for (uint32_t i = 0; i < d->nregions; i++) free(d->regions[i].host);
    free(d->regions);
    if (d->be_open) ga_backend_close(&d->be);
    ga_system_fini(&d->sys);
    free(d->sm);
    if (d->own_log && d->log) fclose(d->log);
    free(d);
}

/* Used by emu_load.c when a module goes away. */
void emu_free_var_region(emu_dev_t *d, uint64_t ptr);
void emu_free_var_region(emu_dev_t *d, uint64_t ptr) { (void)free_region(d, ptr, false); }
