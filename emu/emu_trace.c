/*
 * emu_trace.c — capture of a run as a gatrace (docs/traces.md; docs/emulator.md §7), written with the
 * trace library's canonical formatter so that gasim and the RTL replay (gasim-rtl) read exactly the
 * MLU operations the interpreter issued, in the order it issued them.
 *
 * What is written: every allocation and free the runtime performed (module variables included), in
 * order, with the runtime's allocation ids; `kernel`/`end` around each launch; in compiler mode one
 * `loadmeta SM WARP PTR` per LOADMETA request (so the replay's LOADMETA cache holds what the warp's
 * registers held) and one `ld`/`st` record per MEMCHECK.G request with `root=` the pointer whose
 * LOADMETA produced the metadata location it used; in HWOnly mode one `ld`/`st ... root=lane` per
 * checked access; `lds`/`sts` per MEMCHECK.S. A pointer that lies inside a live allocation with that
 * allocation's tag is written `aID+off`; any other value is written raw, so a replay with the capture's
 * seed and tag width reproduces the run bit for bit. The file is written to FILE.tmp and renamed when
 * the device is destroyed.
 */
#include "emu_internal.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

typedef struct {
    gzFile gz;
    char *path, *tmp;
    bool failed;
    uint64_t records;
} emu_trace_t;

static void tline(emu_dev_t *d, const char *s)
{
    emu_trace_t *t = d->trace;
    if (t == NULL || t->failed) return;
    if (gzputs(t->gz, s) < 0 || gzputc(t->gz, '\n') < 0) t->failed = true;
    t->records++;
}

int emu_trace_open(emu_dev_t *d, const char *path, char *msg, size_t cap)
{
    emu_trace_t *t = calloc(1, sizeof *t);
    if (t == NULL) return -1;
    size_t n = strlen(path);
    t->path = strdup(path);
    t->tmp = malloc(n + 5);
    if (t->path == NULL || t->tmp == NULL) {
        free(t->path), free(t->tmp), free(t);
        return -1;
    }
    memcpy(t->tmp, path, n);
    memcpy(t->tmp + n, ".tmp", 5);
    bool gzip = n > 3 && strcmp(path + n - 3, ".gz") == 0;
    t->gz = gzopen(t->tmp, gzip ? "wb6" : "wbT");
    if (t->gz == NULL) {
        if (msg) snprintf(msg, cap, "--trace-out %s: cannot create %s", path, t->tmp);
        free(t->path), free(t->tmp), free(t);
        return -1;
    }
    d->trace = t;
    ga_trace_header_t h;
    memset(&h, 0, sizeof h);
    h.version = 0; /* the current version (2: ends with the eof record) */
    h.sms = d->cfg.sms;
    h.tag_bits = d->cfg.tag_bits;
    char buf[GA_TRACE_LINE_MAX];
    if (ga_trace_format_header(&h, buf, sizeof buf) >= 0) tline(d, buf);
    snprintf(buf, sizeof buf,
             "# captured by gpuarmor-run: mode %s, layout %s, %u-entry MLB, tag bits %u, seed %" PRIu64
             ", %u SMs; replay with the same --seed and --tag-bits (docs/emulator.md §7)",
             d->cfg.armor == EMU_ARMOR_COMPILER ? "compiler" : d->cfg.armor == EMU_ARMOR_HWONLY ? "hwonly" : "off",
             ga_layout_name(d->cfg.layout), d->cfg.mlb_entries, d->cfg.tag_bits, d->cfg.seed, d->cfg.sms);
    tline(d, buf);
    return 0;
}

void emu_trace_close(emu_dev_t *d)
{
    emu_trace_t *t = d->trace;
    if (t == NULL) return;
    char end[32];
    if (ga_trace_format_end(end, sizeof end) >= 0) tline(d, end);
    int rc = gzclose(t->gz);
    if (rc != Z_OK || t->failed) {
        fprintf(d->log, "========= GPUArmor: writing the trace %s failed; it was not written\n", t->path);
        remove(t->tmp);
    } else if (rename(t->tmp, t->path) != 0) {
        fprintf(d->log, "========= GPUArmor: cannot rename %s to %s\n", t->tmp, t->path);
        remove(t->tmp);
    }
    free(t->path);
    free(t->tmp);
    free(t);
    d->trace = NULL;
}

static void put_event(emu_dev_t *d, const ga_tev_t *ev)
{
    char buf[GA_TRACE_LINE_MAX];
    int n = ga_trace_format_event(ev, buf, sizeof buf);
    if (n < 0) {
        char c[128];
        snprintf(c, sizeof c, "# (a %s record could not be formatted)", ga_tev_name(ev->kind));
        tline(d, c);
        return;
    }
    tline(d, buf);
}

void emu_trace_comment(emu_dev_t *d, const char *fmt, ...)
{
    if (d->trace == NULL) return;
    char buf[GA_TRACE_LINE_MAX];
    buf[0] = '#';
    buf[1] = ' ';
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf + 2, sizeof buf - 2, fmt, ap);
    va_end(ap);
    for (char *c = buf + 2; *c; c++)
        if (*c == '\n') *c = ' ';
    tline(d, buf);
}

void emu_trace_alloc(emu_dev_t *d, uint64_t id, uint64_t size)
{
    if (d->trace == NULL) return;
    ga_tev_t ev;
    memset(&ev, 0, sizeof ev);
    ev.kind = GA_TEV_ALLOC;
    ev.id = id;
    ev.bytes = size;
    put_event(d, &ev);
}

void emu_trace_free(emu_dev_t *d, uint64_t id)
{
    if (d->trace == NULL) return;
    ga_tev_t ev;
    memset(&ev, 0, sizeof ev);
    ev.kind = GA_TEV_FREE;
    ev.id = id;
    put_event(d, &ev);
}

void emu_trace_bad_free(emu_dev_t *d, uint64_t ptr)
{
    if (d->trace == NULL) return;
    ga_tev_t ev;
    memset(&ev, 0, sizeof ev);
    ev.kind = GA_TEV_FREEP;
    ev.root.off = ptr; /* raw: the runtime refused it, so the replay's runtime refuses it too */
    put_event(d, &ev);
}

void emu_trace_kernel(emu_dev_t *d, const char *name)
{
    if (d->trace == NULL) return;
    ga_tev_t ev;
    memset(&ev, 0, sizeof ev);
    ev.kind = GA_TEV_KERNEL;
    size_t k = 0;
    for (const char *c = name; *c && k < GA_TRACE_NAME_MAX; c++)
        ev.name[k++] = (*c > ' ' && *c < 127 && *c != '#') ? *c : '_';
    if (k == 0) ev.name[k++] = '?';
    ev.name[k] = 0;
    put_event(d, &ev);
}

void emu_trace_end(emu_dev_t *d)
{
    if (d->trace == NULL) return;
    ga_tev_t ev;
    memset(&ev, 0, sizeof ev);
    ev.kind = GA_TEV_END;
    put_event(d, &ev);
}

/* A pointer value as a trace expression: aID+off inside a live allocation with its tag, else raw. */
static ga_tptr_t tptr(emu_dev_t *d, uint64_t v)
{
    ga_tptr_t p;
    memset(&p, 0, sizeof p);
    emu_region_t *r = emu_region_find(d, emu_strip(d, v));
    unsigned tb = d->cfg.tag_bits;
    if (r && ga_tag_of(v, tb) == ga_tag_of(r->ptr, tb)) {
        p.is_alloc = true;
        p.id = r->id;
        p.off = v - r->ptr;
        return p;
    }
    p.off = v;
    return p;
}

static void lanes(emu_dev_t *d, ga_tev_t *ev, const ga_warp_req_t *req, bool shared)
{
    uint32_t m = req->active;
    unsigned l1 = (unsigned)__builtin_ctz(m);
    uint32_t rest = m & (m - 1);
    bool strided = false;
    int64_t stride = 0;
    if (rest) {
        unsigned l2 = (unsigned)__builtin_ctz(rest);
        uint64_t diff = req->addr[l2] - req->addr[l1];
        int64_t sd = (int64_t)diff;
        if (sd % (int64_t)(l2 - l1) == 0) {
            stride = sd / (int64_t)(l2 - l1);
            strided = true;
            for (uint32_t mm = m; mm; mm &= mm - 1) {
                unsigned l = (unsigned)__builtin_ctz(mm);
                if (req->addr[l1] + (uint64_t)((int64_t)(l - l1) * stride) != req->addr[l]) {
                    strided = false;
                    break;
                }
            }
            if (shared && strided) { /* every computed shared lane address must fit 32 bits */
                int64_t base = (int64_t)req->addr[l1] - (int64_t)l1 * stride;
                if (base < 0 || base + 31 * stride < 0 || base > INT64_C(0xffffffff) || base + 31 * stride > INT64_C(0xffffffff))
                    strided = false;
            }
        }
    }
    if (strided) {
        ev->strided = true;
        ev->stride = stride;
        uint64_t base = req->addr[l1] - (uint64_t)((int64_t)l1 * stride);
        if (shared) {
            memset(&ev->lane[0], 0, sizeof ev->lane[0]);
            ev->lane[0].off = base;
        } else {
            ev->lane[0] = tptr(d, base);
        }
    } else {
        ev->strided = false;
        for (uint32_t mm = m; mm; mm &= mm - 1) {
            unsigned l = (unsigned)__builtin_ctz(mm);
            if (shared) {
                memset(&ev->lane[l], 0, sizeof ev->lane[l]);
                ev->lane[l].off = req->addr[l] & 0xffffffffu;
            } else {
                ev->lane[l] = tptr(d, req->addr[l]);
            }
        }
    }
}

void emu_trace_loadmeta(emu_dev_t *d, unsigned sm, unsigned warp, uint64_t root)
{
    if (d->trace == NULL) return;
    ga_tev_t ev;
    memset(&ev, 0, sizeof ev);
    ev.kind = GA_TEV_LOADMETA;
    ev.sm = (uint16_t)sm;
    ev.warp = (uint16_t)warp;
    ev.root = tptr(d, root);
    put_event(d, &ev);
}

void emu_trace_global(emu_dev_t *d, bool store, unsigned sm, unsigned warp, const ga_warp_req_t *req,
                      int root_kind, uint64_t root)
{
    if (d->trace == NULL || req->active == 0) return;
    ga_tev_t ev;
    memset(&ev, 0, sizeof ev);
    ev.kind = store ? GA_TEV_ST : GA_TEV_LD;
    ev.sm = (uint16_t)sm;
    ev.warp = (uint16_t)warp;
    ev.size = req->size;
    ev.mask = req->active;
    if (root_kind == GA_ROOT_PTR) {
        ev.root_kind = GA_ROOT_PTR;
        ev.root = tptr(d, root);
    } else if (root_kind == GA_ROOT_LANE) {
        ev.root_kind = GA_ROOT_LANE;
    } else {
        emu_trace_comment(d, "warning: metadata location 0x%" PRIx64 " has no LOADMETA of this warp: written root=lane",
                          root);
        ev.root_kind = GA_ROOT_LANE;
    }
    lanes(d, &ev, req, false);
    put_event(d, &ev);
}

void emu_trace_shared(emu_dev_t *d, bool store, unsigned sm, unsigned warp, const ga_warp_req_t *req, uint32_t base,
                      uint32_t ssize)
{
    if (d->trace == NULL || req->active == 0) return;
    ga_tev_t ev;
    memset(&ev, 0, sizeof ev);
    ev.kind = store ? GA_TEV_STS : GA_TEV_LDS;
    ev.sm = (uint16_t)sm;
    ev.warp = (uint16_t)warp;
    ev.size = req->size;
    ev.mask = req->active;
    ev.sbase = base;
    ev.ssize = ssize;
    lanes(d, &ev, req, true);
    put_event(d, &ev);
}
