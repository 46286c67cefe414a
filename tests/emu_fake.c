/*
 * emu_fake.c — a stand-in for the emulator (emu/emu.h) that lets the CUDA runtime (cudart/) be
 * built and tested before, and independently of, the real PTX interpreter. Test code only: it is
 * linked into build/cudart/fake/libcudart.so.13 and the unit tests, never into the library users run.
 *
 * What it does, so that tests can tell right from wrong:
 *   - device memory: allocations at 256-aligned addresses from 0x7000_0000_0000 with a tag in the
 *     top tag_bits bits (1, 2, ... cycling, never 0 or the freed tag), backed by host buffers; every
 *     copy, memset and free is checked against the live allocations exactly as emu.h specifies
 *     (invalid ranges and bad frees are reported on the log and counted as errors);
 *   - modules: the PTX text is scanned, not parsed: it must start with ".version"; ".entry NAME(" with
 *     its ".param" list gives the kernels and their parameter sizes; module-scope ".global"/".const"
 *     declarations give the variables (size from type and [count]; "= {a, b, ...}" initialisers of
 *     integer elements are applied); a module containing the word "gr_fake_unloadable" fails to load
 *     with EMU_ERR_UNSUPPORTED;
 *   - launches: the configuration is validated (zero or too large dimensions: EMU_ERR_INVALID_CONFIG);
 *     no PTX runs. A kernel whose name contains "fake_fill" with parameters (int *p, int v, int n)
 *     writes p[i] = v + i for i < n through the checked memory path (so tests see arguments and
 *     results travel); names containing "fake_fault", "fake_trap", "fake_hang", "fake_stack",
 *     "fake_assert", "fake_unsupported", "fake_internal" return EMU_ERR_LAUNCH_FAILED (one illegal
 *     access), EMU_ERR_LAUNCH_FAILED (no access), EMU_ERR_TIMEOUT, EMU_ERR_STACK_OVERFLOW,
 *     EMU_ERR_ASSERT, EMU_ERR_UNSUPPORTED and EMU_ERR_INTERNAL; any other kernel does nothing. After a failed launch every launch fails until
 *     emu_clear_sticky, as the emulator's;
 *   - the end: "========= ERROR SUMMARY: N errors" on the log (not when quiet and N == 0); --trace-out
 *     and --json files are written with one line naming the fake, so tests see the options arrive.
 */
#include "emu.h"

#include <ctype.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#define FAKE_HEAP_BASE UINT64_C(0x700000000000)
#define FAKE_HEAP_BYTES (UINT64_C(1) << 30)
#define FAKE_MAX_PARAMS 64u

typedef struct {
    uint64_t va, size, tag;
    uint8_t *bytes;
    bool live;
} fake_alloc_t;

struct emu_kernel {
    char name[256];
    unsigned nparams;
    uint32_t psize[FAKE_MAX_PARAMS];
};

typedef struct {
    char name[256];
    uint64_t ptr, size;
} fake_var_t;

struct emu_module {
    struct emu_kernel *kernels;
    unsigned nkernels;
    fake_var_t *vars;
    unsigned nvars;
};

struct emu_dev {
    emu_cfg_t cfg;
    FILE *log;
    fake_alloc_t *allocs;
    size_t nallocs, cap;
    uint64_t next_va, used, errors, tagseq;
    emu_counters_t total, last;
    bool sticky; /* a launch failed: later launches fail at once until emu_clear_sticky */
    bool finished; /* emu_finish ran */
};

void emu_default_cfg(emu_cfg_t *cfg)
{
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
    static const char *const names[] = {"EMU_OK", "EMU_ERR_INVALID_VALUE", "EMU_ERR_NO_MEMORY",
                                        "EMU_ERR_INVALID_POINTER", "EMU_ERR_BAD_FREE", "EMU_ERR_INVALID_CONFIG",
                                        "EMU_ERR_LAUNCH_FAILED", "EMU_ERR_TIMEOUT", "EMU_ERR_UNSUPPORTED",
                                        "EMU_ERR_INVALID_PTX", "EMU_ERR_NOT_FOUND", "EMU_ERR_STACK_OVERFLOW",
                                        "EMU_ERR_INTERNAL", "EMU_ERR_ASSERT"};
    return (unsigned)s < sizeof names / sizeof names[0] ? names[s] : "EMU_ERR_?";
}

static void say(char *msg, size_t cap, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void say(char *msg, size_t cap, const char *fmt, ...)
{
    if (!msg || !cap)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, cap, fmt, ap);
    va_end(ap);
}

static void report(emu_dev_t *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void report(emu_dev_t *d, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("========= ", d->log);
    vfprintf(d->log, fmt, ap);
    fputc('\n', d->log);
    va_end(ap);
    d->errors++;
}

static bool touch_file(const char *path, const char *what)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return false;
    fprintf(f, "%s written by the emu fake (tests/emu_fake.c)\n", what);
    return fclose(f) == 0;
}

emu_status_t emu_create(const emu_cfg_t *cfg, emu_dev_t **out, char *msg, size_t cap)
{
    *out = NULL;
    if (cfg->sms < 1 || cfg->sms > GA_SYSTEM_MAX_SMS || cfg->mlb_entries < 1 || cfg->mlb_entries > 64 ||
        (cfg->tag_bits != 7 && cfg->tag_bits != 16)) {
        say(msg, cap, "bad configuration");
        return EMU_ERR_INVALID_VALUE;
    }
    if (cfg->rtl) {
        say(msg, cap, "--rtl: the RTL backend is not built into this runtime (emu fake)");
        return EMU_ERR_UNSUPPORTED;
    }
    if (cfg->trace_out && !touch_file(cfg->trace_out, "trace")) {
        say(msg, cap, "--trace-out %s: cannot write", cfg->trace_out);
        return EMU_ERR_INVALID_VALUE;
    }
    emu_dev_t *d = calloc(1, sizeof *d);
    if (!d) {
        say(msg, cap, "out of memory");
        return EMU_ERR_NO_MEMORY;
    }
    d->cfg = *cfg;
    d->log = cfg->log ? cfg->log : stderr;
    d->next_va = FAKE_HEAP_BASE;
    *out = d;
    return EMU_OK;
}

uint64_t emu_finish(emu_dev_t *d)
{
    if (!d)
        return 0;
    if (d->finished)
        return d->errors;
    d->finished = true;
    if (!d->cfg.quiet || d->errors)
        fprintf(d->log, "========= ERROR SUMMARY: %" PRIu64 " error%s\n", d->errors, d->errors == 1 ? "" : "s");
    fflush(d->log);
    if (d->cfg.json_out) {
        FILE *f = fopen(d->cfg.json_out, "w");
        if (f) {
            fprintf(f, "{\"fake\": true, \"errors\": %" PRIu64 "}\n", d->errors);
            fclose(f);
        }
    }
    return d->errors;
}

void emu_destroy(emu_dev_t *d)
{
    if (!d)
        return;
    emu_finish(d);
    for (size_t i = 0; i < d->nallocs; i++)
        free(d->allocs[i].bytes);
    free(d->allocs);
    free(d);
}

uint64_t emu_error_count(const emu_dev_t *d) { return d->errors; }

void emu_clear_sticky(emu_dev_t *d) { d->sticky = false; }

static uint64_t vamask(const emu_dev_t *d) { return ga_va_mask(d->cfg.tag_bits); }

/* The live allocation wholly containing [va, va + n), or NULL. */
static fake_alloc_t *find_live(const emu_dev_t *d, uint64_t ptr, uint64_t n)
{
    uint64_t va = ptr & vamask(d);
    for (size_t i = 0; i < d->nallocs; i++) {
        fake_alloc_t *a = &d->allocs[i];
        if (a->live && va >= a->va && va - a->va < a->size && n <= a->size - (va - a->va))
            return a;
    }
    return NULL;
}

emu_status_t emu_malloc(emu_dev_t *d, uint64_t size, uint64_t *ptr)
{
    if (size == 0 || !ptr)
        return EMU_ERR_INVALID_VALUE;
    uint64_t rounded = (size + 255u) & ~UINT64_C(255);
    if (size > FAKE_HEAP_BYTES || rounded > FAKE_HEAP_BYTES - (d->next_va - FAKE_HEAP_BASE))
        return EMU_ERR_NO_MEMORY;
    if (d->nallocs == d->cap) {
        size_t c = d->cap ? d->cap * 2 : 16;
        fake_alloc_t *a = realloc(d->allocs, c * sizeof *a);
        if (!a)
            return EMU_ERR_NO_MEMORY;
        d->allocs = a;
        d->cap = c;
    }
    uint8_t *bytes = calloc(1, (size_t)size);
    if (!bytes)
        return EMU_ERR_NO_MEMORY;
    uint64_t freed = ga_tag_freed(d->cfg.tag_bits);
    fake_alloc_t *a = &d->allocs[d->nallocs++];
    a->va = d->next_va;
    a->size = size;
    a->tag = 1 + d->tagseq++ % (freed - 1);
    a->bytes = bytes;
    a->live = true;
    d->next_va += rounded;
    d->used += size;
    *ptr = ga_make_ptr(a->tag, a->va, d->cfg.tag_bits);
    return EMU_OK;
}

emu_status_t emu_free(emu_dev_t *d, uint64_t ptr)
{
    if (ptr == 0)
        return EMU_OK;
    uint64_t va = ptr & vamask(d), tag = ga_tag_of(ptr, d->cfg.tag_bits);
    for (size_t i = 0; i < d->nallocs; i++) {
        fake_alloc_t *a = &d->allocs[i];
        if (a->va != va)
            continue;
        if (a->live && a->tag == tag) {
            a->live = false;
            free(a->bytes);
            a->bytes = NULL;
            d->used -= a->size;
            return EMU_OK;
        }
        if (!a->live && a->tag == tag) {
            report(d, "Invalid free of 0x%" PRIx64 ": double free", ptr);
            return EMU_ERR_BAD_FREE;
        }
    }
    if (find_live(d, ptr, 1))
        report(d, "Invalid free of 0x%" PRIx64 ": interior pointer", ptr);
    else
        report(d, "Invalid free of 0x%" PRIx64 ": not an allocation", ptr);
    return EMU_ERR_BAD_FREE;
}

static uint8_t *range(emu_dev_t *d, uint64_t ptr, uint64_t n, const char *what)
{
    fake_alloc_t *a = find_live(d, ptr, n);
    if (!a) {
        report(d, "Invalid %s of %" PRIu64 " bytes at 0x%" PRIx64 " (host side)", what, n, ptr);
        return NULL;
    }
    return a->bytes + ((ptr & vamask(d)) - a->va);
}

emu_status_t emu_write(emu_dev_t *d, uint64_t dst, const void *src, uint64_t n)
{
    uint8_t *p = range(d, dst, n, "write");
    if (!p)
        return EMU_ERR_INVALID_POINTER;
    memcpy(p, src, (size_t)n);
    return EMU_OK;
}

emu_status_t emu_read(emu_dev_t *d, void *dst, uint64_t src, uint64_t n)
{
    uint8_t *p = range(d, src, n, "read");
    if (!p)
        return EMU_ERR_INVALID_POINTER;
    memcpy(dst, p, (size_t)n);
    return EMU_OK;
}

emu_status_t emu_copy(emu_dev_t *d, uint64_t dst, uint64_t src, uint64_t n)
{
    uint8_t *s = range(d, src, n, "read");
    if (!s)
        return EMU_ERR_INVALID_POINTER;
    uint8_t *p = range(d, dst, n, "write");
    if (!p)
        return EMU_ERR_INVALID_POINTER;
    memmove(p, s, (size_t)n);
    return EMU_OK;
}

emu_status_t emu_set(emu_dev_t *d, uint64_t dst, uint8_t value, uint64_t n)
{
    uint8_t *p = range(d, dst, n, "write");
    if (!p)
        return EMU_ERR_INVALID_POINTER;
    memset(p, value, (size_t)n);
    return EMU_OK;
}

void emu_mem_info(const emu_dev_t *d, uint64_t *free_bytes, uint64_t *total_bytes)
{
    *free_bytes = FAKE_HEAP_BYTES - d->used;
    *total_bytes = FAKE_HEAP_BYTES;
}

bool emu_alloc_find(const emu_dev_t *d, uint64_t ptr, uint64_t *base, uint64_t *size)
{
    fake_alloc_t *a = find_live(d, ptr, 1);
    if (!a)
        return false;
    *base = ga_make_ptr(a->tag, a->va, d->cfg.tag_bits);
    *size = a->size;
    return true;
}

/* ---- the PTX scan ----------------------------------------------------------------------------- */

static const char *skip_ws(const char *p, const char *end)
{
    while (p < end && isspace((unsigned char)*p))
        p++;
    return p;
}

static size_t ident(const char *p, const char *end)
{
    size_t n = 0;
    while (p + n < end && (isalnum((unsigned char)p[n]) || p[n] == '_' || p[n] == '$' || p[n] == '.'))
        n++;
    return n;
}

static uint32_t type_size(const char *t, size_t n)
{
    if (n < 3 || t[0] != '.')
        return 0;
    if (t[1] != 'b' && t[1] != 'u' && t[1] != 's' && t[1] != 'f')
        return 0;
    unsigned bits = (unsigned)strtoul(t + 2, NULL, 10);
    return bits == 8 || bits == 16 || bits == 32 || bits == 64 ? bits / 8u : 0;
}

/* "... .type name[count]" -> element size and count (1 without brackets). */
static bool decl(const char *p, const char *end, uint32_t *esize, uint64_t *count, char *name, size_t cap,
                 const char **after)
{
    *esize = 0;
    for (;;) {
        p = skip_ws(p, end);
        size_t n = ident(p, end);
        if (n == 0)
            return false;
        if (p[0] == '.') {
            uint32_t s = type_size(p, n);
            if (s)
                *esize = s;
            if (n == 6 && strncmp(p, ".align", 6) == 0) {
                p = skip_ws(p + n, end);
                n = ident(p, end);
            }
            p += n;
            continue;
        }
        if (!*esize || n >= cap)
            return false;
        memcpy(name, p, n);
        name[n] = '\0';
        p += n;
        *count = 1;
        if (p < end && *p == '[') {
            *count = strtoull(p + 1, NULL, 10);
            while (p < end && *p != ']')
                p++;
            if (p < end)
                p++;
        }
        *after = p;
        return true;
    }
}

static emu_status_t add_var(emu_dev_t *d, struct emu_module *m, const char *p, const char *end)
{
    uint32_t esize;
    uint64_t count;
    char name[256];
    const char *after;
    if (!decl(p, end, &esize, &count, name, sizeof name, &after) || count == 0)
        return EMU_OK; /* not a variable we understand: ignored */
    fake_var_t *v = realloc(m->vars, (m->nvars + 1) * sizeof *v);
    if (!v)
        return EMU_ERR_NO_MEMORY;
    m->vars = v;
    fake_var_t *fv = &m->vars[m->nvars++];
    snprintf(fv->name, sizeof fv->name, "%s", name);
    fv->size = esize * count;
    emu_status_t s = emu_malloc(d, fv->size, &fv->ptr);
    if (s != EMU_OK)
        return s;
    after = skip_ws(after, end);
    if (after < end && *after == '=') {
        const char *q = skip_ws(after + 1, end);
        if (q < end && *q == '{')
            q++;
        for (uint64_t i = 0; i < count && q < end && *q != ';' && *q != '}'; i++) {
            q = skip_ws(q, end);
            char *stop;
            unsigned long long val = strtoull(q, &stop, 0);
            if (stop == q)
                break;
            emu_write(d, fv->ptr + i * esize, &val, esize); /* little-endian host */
            q = skip_ws(stop, end);
            if (q < end && *q == ',')
                q++;
        }
    }
    return EMU_OK;
}

static emu_status_t add_kernel(struct emu_module *m, const char *p, const char *end)
{
    p = skip_ws(p, end);
    size_t n = ident(p, end);
    if (n == 0 || n >= sizeof m->kernels[0].name)
        return EMU_OK;
    struct emu_kernel *k = realloc(m->kernels, (m->nkernels + 1) * sizeof *k);
    if (!k)
        return EMU_ERR_NO_MEMORY;
    m->kernels = k;
    struct emu_kernel *e = &m->kernels[m->nkernels++];
    memset(e, 0, sizeof *e);
    memcpy(e->name, p, n);
    p = skip_ws(p + n, end);
    if (p >= end || *p != '(')
        return EMU_OK;
    for (p++; p < end && *p != ')';) {
        p = skip_ws(p, end);
        if (end - p > 6 && strncmp(p, ".param", 6) == 0) {
            uint32_t esize;
            uint64_t count;
            char name[256];
            const char *after;
            if (decl(p + 6, end, &esize, &count, name, sizeof name, &after) && e->nparams < FAKE_MAX_PARAMS)
                e->psize[e->nparams++] = (uint32_t)(esize * count);
            p = after > p ? after : p + 6;
        } else {
            p++;
        }
    }
    return EMU_OK;
}

emu_status_t emu_module_load(emu_dev_t *d, const char *name, const char *ptx, size_t len, emu_module_t **out,
                             char *msg, size_t cap)
{
    *out = NULL;
    const char *end = ptx + len, *p = skip_ws(ptx, end);
    while (end - p >= 2 && p[0] == '/' && p[1] == '/') { /* leading comment lines */
        while (p < end && *p != '\n')
            p++;
        p = skip_ws(p, end);
    }
    if ((size_t)(end - p) < 8 || strncmp(p, ".version", 8) != 0) {
        say(msg, cap, "%s:1:1: expected '.version', got '%.8s'", name, p);
        return EMU_ERR_INVALID_PTX;
    }
    for (const char *q = ptx; q + 18 <= end; q++)
        if (memcmp(q, "gr_fake_unloadable", 18) == 0) {
            say(msg, cap, "%s: the emu fake refuses modules containing gr_fake_unloadable", name);
            return EMU_ERR_UNSUPPORTED;
        }
    struct emu_module *m = calloc(1, sizeof *m);
    if (!m)
        return EMU_ERR_NO_MEMORY;
    int depth = 0;
    emu_status_t s = EMU_OK;
    for (const char *q = p; q < end && s == EMU_OK; q++) {
        if (*q == '{')
            depth++;
        else if (*q == '}')
            depth--;
        else if (*q == '/' && q + 1 < end && q[1] == '/') {
            while (q < end && *q != '\n')
                q++;
        } else if (*q == '.' && (q == ptx || isspace((unsigned char)q[-1]))) {
            size_t n = ident(q, end);
            if (n == 6 && strncmp(q, ".entry", 6) == 0)
                s = add_kernel(m, q + 6, end);
            else if (depth == 0 && ((n == 7 && strncmp(q, ".global", 7) == 0) || (n == 6 && strncmp(q, ".const", 6) == 0)))
                s = add_var(d, m, q + n, end);
            q += n - 1;
        }
    }
    if (s != EMU_OK) {
        emu_module_unload(d, m);
        say(msg, cap, "%s: %s", name, emu_status_name(s));
        return s;
    }
    *out = m;
    return EMU_OK;
}

void emu_module_unload(emu_dev_t *d, emu_module_t *m)
{
    if (!m)
        return;
    for (unsigned i = 0; i < m->nvars; i++)
        if (m->vars[i].ptr)
            emu_free(d, m->vars[i].ptr);
    free(m->vars);
    free(m->kernels);
    free(m);
}

emu_kernel_t *emu_kernel_find(emu_module_t *m, const char *name)
{
    for (unsigned i = 0; m && i < m->nkernels; i++)
        if (strcmp(m->kernels[i].name, name) == 0)
            return &m->kernels[i];
    return NULL;
}

const char *emu_kernel_name(const emu_kernel_t *k) { return k->name; }
unsigned emu_kernel_nparams(const emu_kernel_t *k) { return k->nparams; }

void emu_kernel_param(const emu_kernel_t *k, unsigned i, uint32_t *size, uint32_t *align)
{
    *size = i < k->nparams ? k->psize[i] : 0;
    *align = *size >= 8 ? 8 : *size;
}

emu_status_t emu_var_find(emu_module_t *m, const char *name, uint64_t *addr, uint64_t *size)
{
    for (unsigned i = 0; i < m->nvars; i++)
        if (strcmp(m->vars[i].name, name) == 0) {
            *addr = m->vars[i].ptr;
            *size = m->vars[i].size;
            return EMU_OK;
        }
    return EMU_ERR_NOT_FOUND;
}

emu_status_t emu_launch(emu_dev_t *d, emu_kernel_t *k, emu_dim3_t grid, emu_dim3_t block, uint64_t shmem,
                        void *const *args, char *msg, size_t cap)
{
    memset(&d->last, 0, sizeof d->last);
    d->last.launches = 1;
    d->total.launches++;
    if (!k) {
        say(msg, cap, "no kernel");
        return EMU_ERR_INVALID_VALUE;
    }
    uint64_t threads = (uint64_t)block.x * block.y * block.z;
    if (!grid.x || !grid.y || !grid.z || !block.x || !block.y || !block.z || threads > 1024 || block.z > 64 ||
        grid.y > 65535 || grid.z > 65535 || grid.x > INT32_MAX || shmem > 163u * 1024u) {
        report(d, "Invalid launch configuration of %s: grid (%u,%u,%u) block (%u,%u,%u) shared %" PRIu64, k->name,
               grid.x, grid.y, grid.z, block.x, block.y, block.z, shmem);
        say(msg, cap, "invalid configuration");
        return EMU_ERR_INVALID_CONFIG;
    }
    if (d->sticky) {
        say(msg, cap, "an earlier launch failed (emu fake)");
        return EMU_ERR_LAUNCH_FAILED;
    }
    if (k->nparams && !args) {
        say(msg, cap, "no arguments");
        return EMU_ERR_INVALID_VALUE;
    }
    emu_status_t fail = EMU_OK;
    if (strstr(k->name, "fake_assert")) {
        report(d, "Device-side assertion failed in %s (emu fake)", k->name);
        say(msg, cap, "assert (emu fake)");
        fail = EMU_ERR_ASSERT;
    } else if (strstr(k->name, "fake_fault")) {
        report(d, "Invalid __global__ write of size 4 bytes in %s (emu fake)", k->name);
        d->last.illegal_accesses = 1;
        d->total.illegal_accesses++;
        say(msg, cap, "illegal address (emu fake)");
        fail = EMU_ERR_LAUNCH_FAILED;
    } else if (strstr(k->name, "fake_trap")) {
        report(d, "Trap in %s (emu fake)", k->name);
        say(msg, cap, "trap (emu fake)");
        fail = EMU_ERR_LAUNCH_FAILED;
    } else if (strstr(k->name, "fake_stack")) {
        report(d, "%s overflowed its stack (emu fake)", k->name);
        say(msg, cap, "stack overflow (emu fake)");
        fail = EMU_ERR_STACK_OVERFLOW;
    } else if (strstr(k->name, "fake_hang")) {
        report(d, "%s exceeded --max-instructions (emu fake)", k->name);
        say(msg, cap, "timeout (emu fake)");
        fail = EMU_ERR_TIMEOUT;
    } else if (strstr(k->name, "fake_unsupported")) {
        report(d, "%s uses an instruction the emu fake does not implement", k->name);
        say(msg, cap, "%s:1:1: unsupported instruction (emu fake)", k->name);
        return EMU_ERR_UNSUPPORTED;
    } else if (strstr(k->name, "fake_internal")) {
        say(msg, cap, "internal error (emu fake)");
        return EMU_ERR_INTERNAL;
    } else if (strstr(k->name, "fake_fill") && k->nparams == 3 && k->psize[0] == 8 && k->psize[1] == 4 &&
               k->psize[2] == 4) {
        uint64_t p;
        int32_t v, n;
        memcpy(&p, args[0], 8);
        memcpy(&v, args[1], 4);
        memcpy(&n, args[2], 4);
        for (int32_t i = 0; i < n && fail == EMU_OK; i++) {
            int32_t x = (int32_t)((uint32_t)v + (uint32_t)i);
            if (emu_write(d, p + 4u * (uint64_t)i, &x, 4) != EMU_OK) {
                d->last.illegal_accesses = 1;
                d->total.illegal_accesses++;
                say(msg, cap, "illegal address (emu fake fill)");
                fail = EMU_ERR_LAUNCH_FAILED;
            }
        }
    }
    if (fail != EMU_OK)
        d->sticky = true;
    return fail;
}

void emu_props(const emu_dev_t *d, emu_props_t *p)
{
    memset(p, 0, sizeof *p);
    p->sms = d->cfg.sms;
    p->max_threads_per_block = 1024;
    p->max_block_dim[0] = 1024;
    p->max_block_dim[1] = 1024;
    p->max_block_dim[2] = 64;
    p->max_grid_dim[0] = INT32_MAX;
    p->max_grid_dim[1] = 65535;
    p->max_grid_dim[2] = 65535;
    p->shared_per_block = 48u * 1024u;
    p->shared_per_block_optin = 163u * 1024u;
    p->warp_size = 32;
    p->total_global = FAKE_HEAP_BYTES;
    p->major = 8;
    p->minor = 0;
}

void emu_counters(const emu_dev_t *d, emu_counters_t *total, emu_counters_t *last_launch)
{
    if (total)
        *total = d->total;
    if (last_launch)
        *last_launch = d->last;
}

ga_mlu_stats_t emu_mlu_stats(const emu_dev_t *d)
{
    (void)d;
    ga_mlu_stats_t s;
    memset(&s, 0, sizeof s);
    return s;
}
