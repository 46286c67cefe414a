/*
 * emu_report.c — what a user reads (docs/emulator.md §6): one block per error in the form NVIDIA
 * Compute Sanitizer users know ("Invalid __global__ read of size 4 bytes", the kernel, the thread and
 * block, the PTX and CUDA source lines, the address and where it lies relative to the allocations), a
 * banner, an ERROR SUMMARY line at the end, and a JSON report.
 *
 * Counting: every failing thread is one error (as Compute Sanitizer counts); one block is printed per
 * faulting warp operation, naming its lowest failing lane and how many other lanes of the warp failed.
 * --print-limit bounds the blocks printed; the summary counts all errors.
 */
#include "emu_internal.h"

#include <dlfcn.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#define PFX "========= "
#define JSON_MAX 100000u

/* JSON detections kept in memory until the end. */
typedef struct {
    char **items;
    size_t n, cap;
    uint64_t dropped;
} jlist_t;

static jlist_t *jl(emu_dev_t *d)
{
    if (d->json == NULL && d->cfg.json_out) d->json = calloc(1, sizeof(jlist_t));
    return d->json;
}

static void json_str(char *out, size_t cap, const char *s)
{
    size_t k = 0;
    if (cap == 0) return;
    for (; *s && k + 7 < cap; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\') {
            out[k++] = '\\';
            out[k++] = (char)c;
        } else if (c < 0x20) {
            k += (size_t)snprintf(out + k, cap - k, "\\u%04x", c);
        } else {
            out[k++] = (char)c;
        }
    }
    out[k] = 0;
}

static void json_add(emu_dev_t *d, const char *fmt, ...)
{
    jlist_t *j = jl(d);
    if (j == NULL) return;
    if (j->n >= JSON_MAX) {
        j->dropped++;
        return;
    }
    char buf[4096];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    if (j->n == j->cap) {
        size_t nc = j->cap ? j->cap * 2 : 64;
        char **ni = realloc(j->items, nc * sizeof *ni);
        if (ni == NULL) return;
        j->items = ni;
        j->cap = nc;
    }
    j->items[j->n] = strdup(buf);
    if (j->items[j->n]) j->n++;
}

/* A C++ name demangled with the C++ runtime's __cxa_demangle when the process has one (every nvcc
 * program links libstdc++), else the name as it is. */
typedef char *(*demangle_fn)(const char *, char *, size_t *, int *);
static const char *demangle(const char *name, char *buf, size_t cap)
{
    snprintf(buf, cap, "%s", name);
    if (strncmp(name, "_Z", 2) != 0) return buf;
    void *self = dlopen(NULL, RTLD_LAZY);
    if (self == NULL) return buf;
    void *sym = dlsym(self, "__cxa_demangle");
    if (sym) {
        demangle_fn fn;
        memcpy(&fn, &sym, sizeof fn);
        int status = -1;
        char *r = fn(name, NULL, NULL, &status);
        if (r && status == 0) snprintf(buf, cap, "%s", r);
        free(r);
    }
    dlclose(self);
    return buf;
}

/* The module that holds code instruction in (the launch's). */
static const emu_module_t *module_of(const emu_dev_t *d)
{
    return d->launch ? d->launch->mod : NULL;
}

/* Source file name of .loc file number f, "" if unknown. */
static const char *loc_file(const ptx_module_t *ir, uint32_t f)
{
    for (uint32_t k = 0; k < ir->nfiles; k++)
        if (ir->files[k].index == f) return ptx_str(ir, ir->files[k].name);
    return "";
}

/* The IR instruction that best names the place of decoded instruction in: itself when it came from
 * the input, else the next instruction of the function that did (the access a check guards). */
static const ptx_insn_t *place_of(const emu_module_t *m, const emu_insn_t *in)
{
    if (m == NULL || in == NULL || in->ir == EMU_NONE) return NULL;
    const ptx_func_t *f = &m->ir->funcs[in->fn];
    const emu_func_t *ef = &m->funcs[in->fn];
    const ptx_insn_t *pi = &f->insns[in->ir];
    if (pi->pos.line && !(pi->flags & PTX_IF_ADDED)) return pi;
    for (uint32_t pc = (uint32_t)(in - m->code) + 1; pc < ef->end; pc++) {
        const emu_insn_t *e = &m->code[pc];
        if (e->ir == EMU_NONE) break;
        const ptx_insn_t *q = &f->insns[e->ir];
        if (q->pos.line && !(q->flags & PTX_IF_ADDED)) return q;
    }
    return pi;
}

void emu_insn_where(const emu_module_t *m, const emu_insn_t *in, char *buf, size_t cap)
{
    if (m == NULL || in == NULL) {
        snprintf(buf, cap, "(unknown place)");
        return;
    }
    const emu_func_t *ef = &m->funcs[in->fn];
    const ptx_insn_t *pi = place_of(m, in);
    char dn[256];
    size_t k = (size_t)snprintf(buf, cap, "%s", demangle(ef->name, dn, sizeof dn));
    if (pi && pi->pos.line && k < cap) k += (size_t)snprintf(buf + k, cap - k, " (%s:%u)", m->name, pi->pos.line);
    if (pi && pi->loc.file && k < cap) {
        const char *fn = loc_file(m->ir, pi->loc.file);
        if (*fn) k += (size_t)snprintf(buf + k, cap - k, " in %s:%u", fn, pi->loc.line);
        if (pi->loc.in_file && k < cap) {
            const char *ofn = loc_file(m->ir, pi->loc.in_file);
            if (*ofn) snprintf(buf + k, cap - k, " inlined at %s:%u", ofn, pi->loc.in_line);
        }
    }
}

static bool print_ok(emu_dev_t *d)
{
    if (d->cfg.print_limit && d->reports >= d->cfg.print_limit) {
        d->suppressed++;
        return false;
    }
    d->reports++;
    return true;
}

static const char *space_word(const emu_insn_t *in)
{
    if (in == NULL) return "__global__";
    switch (in->space) {
    case PTX_SPACE_SHARED: return "__shared__";
    case PTX_SPACE_LOCAL: return "__local__";
    default: return "__global__";
    }
}

/* "is N bytes after the nearest allocation at X of size M" etc. for a global VA. */
static void where_global(emu_dev_t *d, uint64_t addr, char *buf, size_t cap, uint64_t *dist_out, int *side)
{
    uint64_t va = emu_strip(d, addr);
    ga_entry_t e;
    uint64_t loc;
    *side = 0;
    *dist_out = 0;
    unsigned tb = d->cfg.tag_bits;
    if (ga_rt_find(d->sys.rt, va, &e, &loc)) {
        uint64_t base = ga_va_of(e.tb, tb);
        bool freed = ga_tag_of(e.tb, tb) == ga_tag_freed(tb);
        snprintf(buf, cap, "is %" PRIu64 " bytes inside the %s allocation at 0x%" PRIx64 " of size %" PRIu64 "%s",
                 va - base, freed ? "freed" : "live", base, e.size,
                 freed ? " (freed: a use after free)" : "");
        return;
    }
    uint64_t dist;
    if (ga_rt_nearest_live(d->sys.rt, va, &e, &dist)) {
        uint64_t base = ga_va_of(e.tb, tb);
        *dist_out = dist;
        *side = va < base ? -1 : 1;
        snprintf(buf, cap, "is out of bounds and is %" PRIu64 " bytes %s the nearest allocation at 0x%" PRIx64
                 " of size %" PRIu64 " bytes",
                 dist, va < base ? "before" : "after", ga_make_ptr(ga_tag_of(e.tb, tb), base, tb), e.size);
        return;
    }
    snprintf(buf, cap, "is not in any allocation (no allocation is live)");
}

static void thread_line(emu_dev_t *d, emu_launch_t *L, emu_sm_t *sm, emu_warp_t *w, unsigned lane, uint32_t others,
                        char *buf, size_t cap)
{
    (void)d;
    if (w == NULL || L == NULL || sm == NULL) {
        snprintf(buf, cap, "(no thread)");
        return;
    }
    const emu_cta_t *c = &sm->cta;
    int n = snprintf(buf, cap, "by thread (%u,%u,%u) in block (%u,%u,%u) [warp %u lane %u, SM %u]", w->tid[lane][0],
                     w->tid[lane][1], w->tid[lane][2], c->ctaid[0], c->ctaid[1], c->ctaid[2], w->id, lane, sm->index);
    if (others && n > 0 && (size_t)n < cap)
        snprintf(buf + n, cap - (size_t)n, " and %u more thread%s of this warp", others, others == 1 ? "" : "s");
}

void emu_report_mlu(emu_dev_t *d, emu_launch_t *L, emu_sm_t *sm, emu_warp_t *w, const emu_insn_t *in,
                    const char *what, const ga_warp_req_t *req, const ga_warp_rsp_t *rsp, int root_class)
{
    uint32_t nf = (uint32_t)__builtin_popcount(rsp->fault);
    d->errors += nf;
    const ga_exc_t *r = &rsp->rec;
    unsigned lane = r->lane;
    unsigned tb = d->cfg.tag_bits;
    char where[512], thr[256], addrinfo[640], head[160];
    emu_insn_where(module_of(d), in, where, sizeof where);
    thread_line(d, L, sm, w, lane, nf - 1, thr, sizeof thr);
    bool shared = r->kind == GA_EXC_SHARED_OUT_OF_BOUNDS;
    const char *op = in && (in->op == EOP_GA_MEMCHECK_G) ? "MEMCHECK.G"
                     : in && (in->op == EOP_GA_MEMCHECK_S) ? "MEMCHECK.S"
                     : "HWOnly check";
    uint64_t dist = 0;
    int side = 0;
    switch (r->kind) {
    case GA_EXC_OUT_OF_BOUNDS:
        snprintf(head, sizeof head, "Invalid __global__ %s of size %u bytes", what, r->size);
        break;
    case GA_EXC_USE_AFTER_FREE:
        snprintf(head, sizeof head, "Use after free: __global__ %s of size %u bytes", what, r->size);
        break;
    case GA_EXC_TAG_MISMATCH:
        snprintf(head, sizeof head, "Pointer tag mismatch: __global__ %s of size %u bytes", what, r->size);
        break;
    case GA_EXC_NO_METADATA:
        snprintf(head, sizeof head, "Invalid __global__ %s of size %u bytes through a pointer with no live allocation",
                 what, r->size);
        break;
    case GA_EXC_SHARED_OUT_OF_BOUNDS:
        snprintf(head, sizeof head, "Invalid __shared__ %s of size %u bytes", what, r->size);
        break;
    default:
        snprintf(head, sizeof head, "Unreadable metadata for a __global__ %s of size %u bytes", what, r->size);
        break;
    }
    if (shared) {
        snprintf(addrinfo, sizeof addrinfo, "is out of bounds of the shared array at 0x%" PRIx64 " of size %" PRIu64
                 " bytes", r->entry.tb, r->entry.size);
    } else if (r->kind == GA_EXC_OUT_OF_BOUNDS && r->entry.size) {
        /* bounds known: say where the access lies relative to the allocation it was checked against */
        uint64_t va = emu_strip(d, r->addr), base = ga_va_of(r->entry.tb, tb), end = base + r->entry.size;
        char other[200] = "";
        ga_entry_t e2;
        uint64_t loc2;
        if (ga_rt_find(d->sys.rt, va, &e2, &loc2) && loc2 != r->md) {
            bool fr = ga_tag_of(e2.tb, tb) == ga_tag_freed(tb);
            snprintf(other, sizeof other, ", inside the %s allocation at 0x%" PRIx64 " of size %" PRIu64,
                     fr ? "freed" : "live", ga_va_of(e2.tb, tb), e2.size);
        } else if (!ga_rt_find(d->sys.rt, va, &e2, &loc2)) {
            snprintf(other, sizeof other, ", where no allocation lies");
        }
        if (va >= base) {
            dist = va - (end - 1u);
            side = 1;
        } else {
            dist = base - va;
            side = -1;
        }
        if (va >= base && va < end) /* starts inside, runs past the end */
            snprintf(addrinfo, sizeof addrinfo, "is out of bounds: the %u-byte access starts %" PRIu64
                     " bytes into the allocation at 0x%" PRIx64 " of size %" PRIu64 " bytes and runs past its end",
                     r->size, va - base, ga_make_ptr(ga_tag_of(r->entry.tb, tb), base, tb), r->entry.size);
        else
            snprintf(addrinfo, sizeof addrinfo, "is out of bounds and is %" PRIu64 " bytes %s the allocation at 0x%"
                     PRIx64 " of size %" PRIu64 " bytes it was derived from%s",
                     dist, side < 0 ? "before" : "after", ga_make_ptr(ga_tag_of(r->entry.tb, tb), base, tb),
                     r->entry.size, other);
    } else {
        where_global(d, r->addr, addrinfo, sizeof addrinfo, &dist, &side);
    }
    static const char *const cls[] = {"full", "partial", "tagging"};
    if (print_ok(d)) {
        FILE *f = d->log;
        fprintf(f, PFX "GPUArmor %s: %s\n", ga_exc_name(r->kind), head);
        fprintf(f, PFX "    at %s\n", where);
        fprintf(f, PFX "    %s\n", thr);
        fprintf(f, PFX "    Address 0x%016" PRIx64 " %s\n", r->addr, addrinfo);
        if (!shared) {
            if (r->md || r->entry.size)
                fprintf(f, PFX "    %s against the metadata at 0x%" PRIx64 ": [0x%" PRIx64 ", +%" PRIu64
                        ") tag 0x%" PRIx64 "; the pointer's tag is 0x%" PRIx64 "%s%s%s\n",
                        op, r->md, ga_va_of(r->entry.tb, tb), r->entry.size, ga_tag_of(r->entry.tb, tb),
                        ga_tag_of(r->addr, tb), root_class >= 0 ? " (root pointer class: " : "",
                        root_class >= 0 ? cls[root_class & 3] : "", root_class >= 0 ? ")" : "");
            else
                fprintf(f, PFX "    %s: LOADMETA found no metadata for the pointer (tag 0x%" PRIx64 ")\n", op,
                        ga_tag_of(r->addr, tb));
        }
        fprintf(f, PFX "\n");
    }
    if (d->cfg.json_out) {
        char jwhere[700];
        json_str(jwhere, sizeof jwhere, where);
        json_add(d,
                 "{\"kind\":\"%s\",\"check\":\"%s\",\"access\":\"%s\",\"space\":\"%s\",\"size\":%u,"
                 "\"address\":\"0x%016" PRIx64 "\",\"where\":\"%s\",\"kernel\":\"%s\",\"block\":[%u,%u,%u],"
                 "\"thread\":[%u,%u,%u],\"sm\":%u,\"warp\":%u,\"lane\":%u,\"failing_lanes\":%u,"
                 "\"fault_mask\":\"0x%08x\",\"md\":\"0x%" PRIx64 "\",\"entry_base\":\"0x%" PRIx64 "\","
                 "\"entry_size\":%" PRIu64 ",\"entry_tag\":%" PRIu64 ",\"pointer_tag\":%" PRIu64 ","
                 "\"nearest_side\":\"%s\",\"nearest_distance\":%" PRIu64 ",\"root_class\":\"%s\"}",
                 ga_exc_name(r->kind), op, what, shared ? "shared" : "global", r->size, r->addr, jwhere,
                 L && L->kfn ? L->kfn->name : "", sm ? sm->cta.ctaid[0] : 0, sm ? sm->cta.ctaid[1] : 0,
                 sm ? sm->cta.ctaid[2] : 0, w ? w->tid[lane][0] : 0, w ? w->tid[lane][1] : 0, w ? w->tid[lane][2] : 0,
                 sm ? sm->index : 0, w ? w->id : 0, lane, nf, rsp->fault, r->md,
                 shared ? r->entry.tb : ga_va_of(r->entry.tb, tb), r->entry.size,
                 shared ? 0 : ga_tag_of(r->entry.tb, tb), shared ? 0 : ga_tag_of(r->addr, tb),
                 side < 0 ? "before" : side > 0 ? "after" : "none", dist, root_class >= 0 ? cls[root_class & 3] : "none");
    }
    (void)req;
}

void emu_report_illegal(emu_dev_t *d, emu_launch_t *L, emu_sm_t *sm, emu_warp_t *w, const emu_insn_t *in,
                        unsigned lane, uint64_t addr, unsigned size, bool write, const char *why)
{
    d->errors++;
    char where[512], thr[256], info[300];
    emu_insn_where(module_of(d), in, where, sizeof where);
    thread_line(d, L, sm, w, lane, 0, thr, sizeof thr);
    const char *sp = why ? (strcmp(why, "shared") == 0 ? "__shared__" : "__local__") : space_word(in);
    uint64_t dist = 0;
    int side = 0;
    if (why == NULL)
        where_global(d, addr, info, sizeof info, &dist, &side);
    else if (strcmp(why, "shared") == 0)
        snprintf(info, sizeof info, "is out of bounds of the block's %u bytes of shared memory",
                 sm ? sm->cta.shared_bytes : 0);
    else
        snprintf(info, sizeof info, "is out of bounds of the thread's %u bytes of local memory (--stack-size)",
                 d->cfg.stack_bytes);
    if (print_ok(d)) {
        FILE *f = d->log;
        fprintf(f, PFX "Invalid %s %s of size %u bytes%s\n", sp, write ? "write" : "read", size,
                d->cfg.armor == EMU_ARMOR_OFF ? "" : " (not caught by GPUArmor: memory-system check)");
        fprintf(f, PFX "    at %s\n", where);
        fprintf(f, PFX "    %s\n", thr);
        fprintf(f, PFX "    Address 0x%016" PRIx64 " %s; %s\n", addr, info,
                write ? "the write was dropped" : "the read returned zero");
        fprintf(f, PFX "\n");
    }
    if (d->cfg.json_out) {
        char jwhere[700];
        json_str(jwhere, sizeof jwhere, where);
        json_add(d,
                 "{\"kind\":\"ILLEGAL_ADDRESS\",\"check\":\"memory\",\"access\":\"%s\",\"space\":\"%s\",\"size\":%u,"
                 "\"address\":\"0x%016" PRIx64 "\",\"where\":\"%s\",\"kernel\":\"%s\",\"block\":[%u,%u,%u],"
                 "\"thread\":[%u,%u,%u],\"sm\":%u,\"warp\":%u,\"lane\":%u,\"failing_lanes\":1,"
                 "\"nearest_side\":\"%s\",\"nearest_distance\":%" PRIu64 "}",
                 write ? "write" : "read", why ? why : "global", size, addr, jwhere, L && L->kfn ? L->kfn->name : "",
                 sm ? sm->cta.ctaid[0] : 0, sm ? sm->cta.ctaid[1] : 0, sm ? sm->cta.ctaid[2] : 0,
                 w ? w->tid[lane][0] : 0, w ? w->tid[lane][1] : 0, w ? w->tid[lane][2] : 0, sm ? sm->index : 0,
                 w ? w->id : 0, lane, side < 0 ? "before" : side > 0 ? "after" : "none", dist);
    }
}

void emu_report_host(emu_dev_t *d, const char *kind, const char *fmt, ...)
{
    d->errors++;
    char body[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(body, sizeof body, fmt, ap);
    va_end(ap);
    if (print_ok(d)) {
        fprintf(d->log, PFX "GPUArmor %s: %s\n" PFX "\n", kind, body);
    }
    if (d->cfg.json_out) {
        char jb[1200];
        json_str(jb, sizeof jb, body);
        json_add(d, "{\"kind\":\"%s\",\"check\":\"runtime\",\"message\":\"%s\"}", kind, jb);
    }
}

void emu_report_fatal(emu_dev_t *d, emu_launch_t *L, emu_sm_t *sm, emu_warp_t *w, const emu_insn_t *in,
                      const char *fmt, ...)
{
    d->errors++;
    char body[600], where[512], thr[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(body, sizeof body, fmt, ap);
    va_end(ap);
    emu_insn_where(module_of(d), in, where, sizeof where);
    unsigned lane = 0;
    if (w && w->nsimt) {
        uint32_t am = w->simt[w->nsimt - 1].mask & ~w->exited;
        lane = am ? (unsigned)__builtin_ctz(am) : 0;
    }
    thread_line(d, L, sm, w, lane, 0, thr, sizeof thr);
    /* always printed: it ends the launch */
    fprintf(d->log, PFX "GPUArmor: kernel %s failed: %s\n", L && L->kfn ? L->kfn->name : "?", body);
    if (in) fprintf(d->log, PFX "    at %s\n", where);
    if (w) fprintf(d->log, PFX "    %s\n", thr);
    fprintf(d->log, PFX "\n");
    if (d->cfg.json_out) {
        char jb[700], jw[700];
        json_str(jb, sizeof jb, body);
        json_str(jw, sizeof jw, in ? where : "");
        json_add(d, "{\"kind\":\"LAUNCH_FAILED\",\"check\":\"launch\",\"kernel\":\"%s\",\"message\":\"%s\",\"where\":\"%s\"}",
                 L && L->kfn ? L->kfn->name : "", jb, jw);
    }
}

void emu_report_launch(emu_dev_t *d, const char *kernel, emu_status_t st, const emu_counters_t *c)
{
    if (!d->cfg.json_out) return;
    if (d->json_launches == NULL) d->json_launches = calloc(1, sizeof(jlist_t));
    jlist_t *j = d->json_launches;
    if (j == NULL) return;
    if (j->n >= 10000) {
        j->dropped++;
        return;
    }
    char kn[600];
    json_str(kn, sizeof kn, kernel);
    char buf[1200];
    snprintf(buf, sizeof buf,
             "{\"kernel\": \"%s\", \"status\": \"%s\", \"warp_insns\": %" PRIu64 ", \"thread_insns\": %" PRIu64
             ", \"ga_insns\": %" PRIu64 ", \"ga_overhead\": %" PRIu64 ", \"loadmeta\": %" PRIu64 ", \"memcheck_g\": %" PRIu64
             ", \"memcheck_s\": %" PRIu64 ", \"hw_checks\": %" PRIu64 ", \"detections\": %" PRIu64 "}",
             kn, emu_status_name(st), c->warp_insns, c->thread_insns, c->ga_insns, c->ga_overhead, c->loadmeta,
             c->memcheck_g, c->memcheck_s, c->hw_checks, c->detections);
    if (j->n == j->cap) {
        size_t nc = j->cap ? j->cap * 2 : 16;
        char **ni = realloc(j->items, nc * sizeof *ni);
        if (ni == NULL) return;
        j->items = ni;
        j->cap = nc;
    }
    j->items[j->n] = strdup(buf);
    if (j->items[j->n]) j->n++;
}

void emu_report_summary(emu_dev_t *d)
{
    FILE *f = d->log;
    ga_mlu_stats_t s = ga_system_stats(&d->sys);
    const char *mode = d->cfg.armor == EMU_ARMOR_COMPILER ? "compiler" : d->cfg.armor == EMU_ARMOR_HWONLY ? "hwonly" : "off";
    if (!d->cfg.quiet || d->errors) {
        if (d->suppressed)
            fprintf(f, PFX "%" PRIu64 " more error reports were not printed (--print-limit %u)\n", d->suppressed,
                    d->cfg.print_limit);
        fprintf(f, PFX "GPUArmor %s mode, %s layout, %u-entry MLB, %u-bit tags, %u SMs: %" PRIu64 " launches, %" PRIu64
                " thread instructions (%" PRIu64 " of them GPUArmor's, %" PRIu64 " calling convention), %" PRIu64
                " LOADMETA, %" PRIu64 " MEMCHECK.G, %" PRIu64 " MEMCHECK.S, %" PRIu64 " HWOnly checks; MLB hits %" PRIu64
                "/%" PRIu64 " LOADMETA, %" PRIu64 "/%" PRIu64 " fetches; %" PRIu64 " metadata reads\n",
                mode, ga_layout_name(d->cfg.layout), d->cfg.mlb_entries, d->cfg.tag_bits, d->cfg.sms, d->total.launches,
                d->total.thread_insns, d->total.ga_insns, d->total.ga_overhead, d->total.loadmeta, d->total.memcheck_g,
                d->total.memcheck_s, d->total.hw_checks, s.loadmeta_hits, s.loadmeta - s.loadmeta_unchecked,
                s.fetch_hits, s.fetches, s.md_reads);
        fprintf(f, PFX "ERROR SUMMARY: %" PRIu64 " error%s\n", d->errors, d->errors == 1 ? "" : "s");
    }
    fflush(f);
    jlist_t *j = d->json;
    if (d->cfg.json_out) {
        char tmp[4200];
        snprintf(tmp, sizeof tmp, "%s.tmp", d->cfg.json_out);
        FILE *o = fopen(tmp, "w");
        if (o == NULL) {
            fprintf(f, PFX "GPUArmor: cannot write %s\n", tmp);
        } else {
            fprintf(o, "{\n  \"tool\": \"gpuarmor-run\",\n  \"schema\": 1,\n");
            fprintf(o, "  \"config\": {\"mode\": \"%s\", \"layout\": \"%s\", \"mlb\": %u, \"tag_bits\": %u, \"sms\": %u, "
                       "\"policy\": \"%s\", \"seed\": %" PRIu64 ", \"step_limit\": %u},\n",
                    mode, ga_layout_name(d->cfg.layout), d->cfg.mlb_entries, d->cfg.tag_bits, d->cfg.sms,
                    d->cfg.policy == GA_POLICY_TERMINATE ? "terminate" : "report", d->cfg.seed,
                    d->cfg.step_limit ? d->cfg.step_limit : GA_STEP_LIMIT_RESET);
            fprintf(o, "  \"errors\": %" PRIu64 ",\n  \"reports_dropped\": %" PRIu64 ",\n", d->errors, j ? j->dropped : 0);
            fprintf(o, "  \"counters\": {\"launches\": %" PRIu64 ", \"warp_insns\": %" PRIu64 ", \"thread_insns\": %" PRIu64
                       ", \"ga_insns\": %" PRIu64 ", \"ga_overhead\": %" PRIu64 ", \"loadmeta\": %" PRIu64
                       ", \"memcheck_g\": %" PRIu64 ", \"memcheck_g_full\": %" PRIu64 ", \"memcheck_g_partial\": %" PRIu64
                       ", \"memcheck_g_tagging\": %" PRIu64 ", \"memcheck_s\": %" PRIu64 ", \"hw_checks\": %" PRIu64
                       ", \"detections\": %" PRIu64 ", \"illegal_accesses\": %" PRIu64 ", \"bad_frees\": %" PRIu64
                       ", \"mlb_loadmeta_hits\": %" PRIu64 ", \"walks\": %" PRIu64 ", \"md_reads\": %" PRIu64 "},\n",
                    d->total.launches, d->total.warp_insns, d->total.thread_insns, d->total.ga_insns,
                    d->total.ga_overhead, d->total.loadmeta, d->total.memcheck_g, d->total.memcheck_g_full,
                    d->total.memcheck_g_partial, d->total.memcheck_g_tagging, d->total.memcheck_s, d->total.hw_checks,
                    d->total.detections, d->total.illegal_accesses, d->bad_frees, s.loadmeta_hits, s.walks, s.md_reads);
            fprintf(o, "  \"mlu\": {\"loadmeta\": %" PRIu64 ", \"loadmeta_no_lookup\": %" PRIu64 ", \"loadmeta_hits\": %" PRIu64
                       ", \"loadmeta_zero\": %" PRIu64 ", \"memcheck_g\": %" PRIu64 ", \"memcheck_s\": %" PRIu64
                       ", \"access\": %" PRIu64 ", \"fetches\": %" PRIu64 ", \"fetch_hits\": %" PRIu64 ", \"fills\": %" PRIu64
                       ", \"fills_dropped\": %" PRIu64 ", \"walks\": %" PRIu64 ", \"walk_steps\": %" PRIu64
                       ", \"md_reads\": %" PRIu64 ", \"md_read_bytes\": %" PRIu64 ", \"faulting_ops\": %" PRIu64 "},\n",
                    s.loadmeta, s.loadmeta_unchecked, s.loadmeta_hits, s.loadmeta_zero, s.memcheck_g, s.memcheck_s,
                    s.access, s.fetches, s.fetch_hits, s.fills, s.fills_dropped, s.walks, s.walk_steps, s.md_reads,
                    s.md_read_bytes, s.faulting_ops);
            jlist_t *jl_ = d->json_launches;
            fprintf(o, "  \"launches\": [");
            for (size_t k = 0; jl_ && k < jl_->n; k++) fprintf(o, "%s\n    %s", k ? "," : "", jl_->items[k]);
            fprintf(o, "\n  ],\n");
            fprintf(o, "  \"reports\": [");
            for (size_t k = 0; j && k < j->n; k++) fprintf(o, "%s\n    %s", k ? "," : "", j->items[k]);
            fprintf(o, "\n  ]\n}\n");
            bool bad = ferror(o) != 0;
            if (fclose(o) != 0) bad = true;
            if (bad || rename(tmp, d->cfg.json_out) != 0) {
                fprintf(f, PFX "GPUArmor: cannot write %s\n", d->cfg.json_out);
                remove(tmp);
            }
        }
    }
    if (j) {
        for (size_t k = 0; k < j->n; k++) free(j->items[k]);
        free(j->items);
        free(j);
        d->json = NULL;
    }
    jlist_t *jl2 = d->json_launches;
    if (jl2) {
        for (size_t k = 0; k < jl2->n; k++) free(jl2->items[k]);
        free(jl2->items);
        free(jl2);
        d->json_launches = NULL;
    }
}
