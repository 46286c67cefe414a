/*
 * ga_accelsim.c — Accel-Sim / NVBit trace importer (docs/traces.md §9; ga_accelsim.h).
 *
 * Written from the format's description (kernelslist.g commands; kernel-N.traceg header lines,
 * thread-block / warp / insts lines and instruction lines with three address-compression modes). The
 * importer is a line source: each call produces the next gatrace line, so the reader applies its
 * usual checks to the result. Kernel trace files are read through ga_line_src_file (plain or gzip).
 */
#include "ga_accelsim.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#define AS_LINE_MAX 65536u      /* bytes of an Accel-Sim input line */
#define AS_TOK_MAX 160u         /* tokens of an instruction line: 32 addresses, registers, fields */
#define AS_SHARED_DEFAULT 49152u /* static shared memory per block when -shmem is 0 or absent */

typedef struct {
    uint64_t base, size;
    uint64_t line; /* where it came from (allocs file or kernelslist.g) */
} as_alloc_t;

typedef struct {
    char *file;    /* kernel trace path (resolved against kernelslist.g's directory) */
    uint64_t line; /* line in kernelslist.g */
} as_kernel_t;

typedef struct {
    uint64_t addr, bytes;
} as_copy_t;

typedef enum { PH_HEADER, PH_ALLOCS, PH_CMDS, PH_KERNEL, PH_EOF, PH_DONE } as_phase_t;

typedef struct {
    char *list_path;
    unsigned sms;
    bool allocs_given;
    char *allocs_path;
    as_alloc_t *allocs;
    size_t nallocs;
    as_copy_t *copies;         /* MemcpyHtoD ranges (for allocs_rebase) */
    size_t ncopies;
    void (*warn)(void *ctx, const char *msg);
    void *warn_ctx;
    as_kernel_t *kernels;
    size_t nkernels;
    as_phase_t phase;
    size_t next_alloc, next_kernel;
    char out[GA_TRACE_LINE_MAX * 2]; /* the pending output line */
    size_t outlen;
    bool have_out;
    /* the open kernel file */
    ga_line_src_t ksrc;
    bool kopen;
    char *kpath;
    uint64_t kline;
    char *in;                  /* input line buffer, AS_LINE_MAX bytes */
    char kname[GA_TRACE_NAME_MAX + 1];
    bool kernel_emitted;
    uint64_t block_x, block_y, block_z, warps_per_block;
    bool have_block;
    uint64_t shmem, shmem_base;
    bool have_shmem_base;
    uint64_t tb_index;         /* thread blocks seen in this kernel */
    bool in_tb;
    bool have_warp;
    uint64_t warp;
    uint64_t insts_left;
    const char *o_file; /* origin of the pending / last output line */
    uint64_t o_line;
    /* summary */
    uint64_t n_kernels, n_insts, n_kept[4], n_unattributed, n_skipped_mem;
    uint64_t n_stray;          /* global instructions with no active lane inside any allocation */
} as_t;

static void aerr(ga_trace_err_t *err, const char *file, uint64_t line, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* Format "file:line: message" into err (truncated to the buffer). */
static void aerr(ga_trace_err_t *err, const char *file, uint64_t line, const char *fmt, ...)
{
    int k = snprintf(err->msg, sizeof err->msg, "%s:%" PRIu64 ": ", file, line);
    if (k >= 0 && (size_t)k < sizeof err->msg) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err->msg + k, sizeof err->msg - (size_t)k, fmt, ap);
        va_end(ap);
    }
}

/* See ga_accelsim.h. */
void ga_accelsim_default_opts(ga_accelsim_opts_t *o)
{
    memset(o, 0, sizeof *o);
    o->sms = 4;
}

static void awarn(as_t *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A warning or note through the caller's hook (nothing when it has none). */
static void awarn(as_t *a, const char *fmt, ...)
{
    if (a->warn == NULL) return;
    char m[GA_TRACE_ERR_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(m, sizeof m, fmt, ap);
    va_end(ap);
    a->warn(a->warn_ctx, m);
}

/* True when the last path component is "kernelslist.g" (ga_accelsim.h). */
bool ga_accelsim_is_kernelslist(const char *path)
{
    const char *slash = strrchr(path, '/');
    const char *base = slash ? slash + 1 : path;
    return strcmp(base, "kernelslist.g") == 0;
}

/* Tokens of a line split at spaces, tabs and the given extra separators. */
typedef struct {
    const char *s;
    size_t n;
} atok_t;

/* Split line[0..len) at the bytes of seps (NUL bytes never separate) into at most max tokens; *overflow
 * when more tokens were there. Returns the token count. */
static size_t split(char *line, size_t len, const char *seps, atok_t *tok, size_t max, bool *overflow)
{
    size_t n = 0, i = 0;
    *overflow = false;
    while (i < len) {
        while (i < len && strchr(seps, line[i]) != NULL && line[i] != '\0') i++;
        if (i >= len) break;
        size_t s = i;
        while (i < len && (line[i] == '\0' || strchr(seps, line[i]) == NULL)) i++;
        if (n == max) {
            *overflow = true;
            return n;
        }
        tok[n++] = (atok_t){line + s, i - s};
    }
    return n;
}

/* True when s[0..n) holds a NUL byte. */
static bool has_nul(const char *s, size_t n) { return memchr(s, '\0', n) != NULL; }

/* True when token t is exactly the string s. */
static bool tok_eq(const atok_t *t, const char *s) { return t->n == strlen(s) && memcmp(t->s, s, t->n) == 0; }

/* "0x"-prefixed hexadecimal. */
static int parse_hex0x(const atok_t *t, uint64_t *v)
{
    if (t->n < 3 || t->s[0] != '0' || (t->s[1] != 'x' && t->s[1] != 'X')) return -1;
    return ga_parse_hex_bare(t->s + 2, t->n - 2, v);
}

/* A decimal UINT (no 0x prefix) in 0..max; 0 or -1. */
static int parse_dec(const atok_t *t, uint64_t max, uint64_t *v)
{
    if (t->n >= 2 && t->s[0] == '0' && (t->s[1] == 'x' || t->s[1] == 'X')) return -1;
    return ga_parse_uint(t->s, t->n, max, v);
}

/* Signed decimal. */
static int parse_sdec(const atok_t *t, int64_t *v)
{
    size_t k = t->n > 0 && t->s[0] == '-' ? 1 : 0;
    if (t->n > k + 1 && t->s[k] == '0' && (t->s[k + 1] == 'x' || t->s[k + 1] == 'X')) return -1;
    return ga_parse_sint(t->s, t->n, v);
}

/* ---------------------------------------------------------------------------------------------------
 * Reading the small files (kernelslist.g, the allocation list) line by line. */

typedef int (*line_fn)(as_t *a, const char *path, uint64_t line, char *s, size_t n, ga_trace_err_t *err);

/* Call fn on every line of path (plain or gzip); stops at the first error. 0 or -1 with err. */
static int for_each_line(as_t *a, const char *path, line_fn fn, ga_trace_err_t *err)
{
    ga_line_src_t src;
    if (ga_line_src_file(&src, path, err) != 0) return -1;
    char *buf = malloc(AS_LINE_MAX);
    if (buf == NULL) {
        src.close(src.ctx);
        aerr(err, path, 0, "out of memory");
        return -1;
    }
    uint64_t line = 0;
    int rc;
    size_t len;
    while ((rc = src.next(src.ctx, buf, AS_LINE_MAX, &len, err)) > 0) {
        line++;
        if (has_nul(buf, len)) {
            aerr(err, path, line, "NUL byte in the line");
            rc = -1;
            break;
        }
        if (fn(a, path, line, buf, len, err) != 0) {
            rc = -1;
            break;
        }
    }
    free(buf);
    src.close(src.ctx);
    return rc < 0 ? -1 : 0;
}

/* Append an allocation; -1 when out of memory. */
static int push_alloc(as_t *a, uint64_t base, uint64_t size, uint64_t line)
{
    if (a->nallocs % 64u == 0) {
        as_alloc_t *n = realloc(a->allocs, (a->nallocs + 64u) * sizeof *n);
        if (n == NULL) return -1;
        a->allocs = n;
    }
    a->allocs[a->nallocs++] = (as_alloc_t){base, size, line};
    return 0;
}

/* One line of the allocation list: "BASE SIZE", '#' comments. */
static int allocs_line(as_t *a, const char *path, uint64_t line, char *s, size_t n, ga_trace_err_t *err)
{
    char *hash = memchr(s, '#', n);
    if (hash) n = (size_t)(hash - s);
    atok_t t[3];
    bool over;
    size_t k = split(s, n, " \t\r", t, 3, &over);
    if (k == 0) return 0;
    uint64_t base, size;
    if (k != 2 || over || ga_parse_uint(t[0].s, t[0].n, UINT64_MAX, &base) != 0 ||
        ga_parse_uint(t[1].s, t[1].n, UINT64_MAX, &size) != 0) {
        aerr(err, path, line, "expected 'BASE SIZE' (two numbers, decimal or 0x hexadecimal)");
        return -1;
    }
    if (base == 0 || size == 0 || size - 1u > UINT64_MAX - base) {
        aerr(err, path, line, "expected a base >= 1 and a size >= 1 with base + size <= 2^64");
        return -1;
    }
    if (push_alloc(a, base, size, line) != 0) {
        aerr(err, path, line, "out of memory");
        return -1;
    }
    return 0;
}

/* One line of kernelslist.g. */
static int list_line(as_t *a, const char *path, uint64_t line, char *s, size_t n, ga_trace_err_t *err)
{
    while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t')) n--;
    size_t i = 0;
    while (i < n && (s[i] == ' ' || s[i] == '\t')) i++;
    s += i;
    n -= i;
    if (n == 0 || s[0] == '#') return 0;
    if (n > 7 && memcmp(s, "Memcpy", 6) == 0) {
        atok_t t[4];
        bool over;
        size_t k = split(s, n, ",", t, 4, &over);
        bool htod = k >= 1 && tok_eq(&t[0], "MemcpyHtoD");
        bool dtoh = k >= 1 && tok_eq(&t[0], "MemcpyDtoH");
        uint64_t addr, bytes;
        if ((!htod && !dtoh) || k != 3 || over || parse_hex0x(&t[1], &addr) != 0 || parse_dec(&t[2], UINT64_MAX, &bytes) != 0) {
            aerr(err, path, line, "expected MemcpyHtoD,0xADDR,BYTES (or MemcpyDtoH,0xADDR,BYTES)");
            return -1;
        }
        if (htod && bytes > 0 && addr != 0 && bytes - 1u <= UINT64_MAX - addr) { /* kept for allocs_rebase */
            if (a->ncopies % 64u == 0) {
                as_copy_t *nc = realloc(a->copies, (a->ncopies + 64u) * sizeof *nc);
                if (nc == NULL) goto oom;
                a->copies = nc;
            }
            a->copies[a->ncopies++] = (as_copy_t){addr, bytes};
        }
        if (htod && a->allocs_given) return 0; /* the allocation list decides */
        if (htod && bytes > 0) {
            if (addr == 0 || bytes - 1u > UINT64_MAX - addr) {
                aerr(err, path, line, "memcpy range [0x%" PRIx64 ", +%" PRIu64 ") is not a valid allocation", addr,
                     bytes);
                return -1;
            }
            if (push_alloc(a, addr, bytes, line) != 0) {
                aerr(err, path, line, "out of memory");
                return -1;
            }
        }
        return 0;
    }
    bool ok = (n > 7 && memcmp(s + n - 7, ".traceg", 7) == 0) || (n > 10 && memcmp(s + n - 10, ".traceg.gz", 10) == 0);
    if (!ok || memchr(s, ' ', n) || memchr(s, '\t', n)) {
        aerr(err, path, line, "expected MemcpyHtoD,0xADDR,BYTES or a kernel trace file name (kernel-N.traceg)");
        return -1;
    }
    if (a->nkernels % 16u == 0) {
        as_kernel_t *nk = realloc(a->kernels, (a->nkernels + 16u) * sizeof *nk);
        if (nk == NULL) goto oom;
        a->kernels = nk;
    }
    const char *slash = strrchr(path, '/');
    size_t dl = (s[0] == '/' || slash == NULL) ? 0 : (size_t)(slash - path) + 1u;
    char *f = malloc(dl + n + 1u);
    if (f == NULL) goto oom;
    memcpy(f, path, dl);
    memcpy(f + dl, s, n);
    f[dl + n] = '\0';
    a->kernels[a->nkernels++] = (as_kernel_t){f, line};
    return 0;
oom:
    aerr(err, path, line, "out of memory");
    return -1;
}

/* Sort allocations by base (insertion sort on a small list would be quadratic for big lists: use
 * qsort) and either merge overlaps (inferred) or refuse them (given). */
static int cmp_alloc(const void *x, const void *y)
{
    const as_alloc_t *a = x, *b = y;
    if (a->base != b->base) return a->base < b->base ? -1 : 1;
    if (a->size != b->size) return a->size < b->size ? -1 : 1;
    return a->line < b->line ? -1 : (a->line > b->line ? 1 : 0);
}

/* Sort the allocations by base; merge overlaps of inferred ones, refuse overlaps of a given list
 * (error at the later line). 0 or -1 with err. */
static int settle_allocs(as_t *a, const char *path, ga_trace_err_t *err)
{
    if (a->nallocs == 0) return 0;
    qsort(a->allocs, a->nallocs, sizeof *a->allocs, cmp_alloc);
    size_t w = 0;
    for (size_t i = 1; i < a->nallocs; i++) {
        as_alloc_t *p = &a->allocs[w], *c = &a->allocs[i];
        uint64_t pend_m1 = p->base + (p->size - 1u); /* last byte, no overflow (checked on input) */
        if (c->base <= pend_m1) {
            if (a->allocs_given) {
                aerr(err, path, c->line > p->line ? c->line : p->line,
                     "allocation [0x%" PRIx64 ", +%" PRIu64 ") overlaps [0x%" PRIx64 ", +%" PRIu64 ") (line %" PRIu64 ")",
                     c->base, c->size, p->base, p->size, c->line > p->line ? p->line : c->line);
                return -1;
            }
            uint64_t cend_m1 = c->base + (c->size - 1u);
            if (cend_m1 > pend_m1) p->size = cend_m1 - p->base + 1u;
            continue;
        }
        a->allocs[++w] = *c;
    }
    a->nallocs = w + 1u;
    return 0;
}

/* Add delta (mod 2^64) to every base of the (sorted, disjoint) allocation list. A base that becomes 0
 * or a range that passes 2^64 is an error naming the allocation's line. A constant shift keeps the
 * list sorted unless it wraps, and then the wrap is that error. 0 or -1 with err. */
static int shift_allocs(as_t *a, uint64_t delta, ga_trace_err_t *err)
{
    for (size_t i = 0; i < a->nallocs; i++) {
        as_alloc_t *c = &a->allocs[i];
        uint64_t nb = c->base + delta; /* mod 2^64 */
        if (nb == 0 || c->size - 1u > UINT64_MAX - nb || (i > 0 && nb <= a->allocs[i - 1].base)) {
            aerr(err, a->allocs_path, c->line, "shifted by 0x%" PRIx64 ", allocation [0x%" PRIx64 ", +%" PRIu64
                 ") lands at 0 or past 2^64", delta, c->base, c->size);
            return -1;
        }
        c->base = nb;
    }
    return 0;
}

/* Index of the allocation containing va, or -1 (forward declaration for the rebase). */
static long find_alloc(const as_t *a, uint64_t va);

/* MemcpyHtoD ranges that lie wholly inside an allocation once the list is shifted by delta. */
static size_t copies_inside(const as_t *a, uint64_t delta)
{
    size_t n = 0;
    for (size_t i = 0; i < a->ncopies; i++) {
        long k = find_alloc(a, a->copies[i].addr - delta); /* the list unshifted: look up the copy moved back */
        if (k >= 0 && a->copies[i].bytes - 1u <= a->allocs[k].base + (a->allocs[k].size - 1u) - (a->copies[i].addr - delta))
            n++;
    }
    return n;
}

/* allocs_rebase: the shift that puts the most MemcpyHtoD ranges inside allocations. A copy usually
 * starts at its buffer's base, so the candidates are (copy address - allocation base) for the four
 * largest copies (the most selective) against every allocation at least as large; ties go to the
 * smallest shift in magnitude. Then the list is shifted and a note says by how much. 0 or -1. */
static int rebase_allocs(as_t *a, ga_trace_err_t *err)
{
    if (a->ncopies == 0 || a->nallocs == 0) {
        snprintf(err->msg, sizeof err->msg, "%s: --allocs-rebase memcpy: %s", a->list_path,
                 a->ncopies == 0 ? "kernelslist.g has no MemcpyHtoD line to rebase onto" : "the allocation list is empty");
        return -1;
    }
    size_t pick[4];
    size_t npick = 0;
    for (size_t i = 0; i < a->ncopies; i++) { /* the four largest copies, by insertion */
        size_t j = npick < 4 ? npick++ : 4;
        while (j > 0 && a->copies[pick[j - 1]].bytes < a->copies[i].bytes) {
            if (j < 4) pick[j] = pick[j - 1];
            j--;
        }
        if (j < 4) pick[j] = i;
    }
    uint64_t best = 0;
    size_t best_n = 0;
    for (size_t p = 0; p < npick; p++) {
        const as_copy_t *c = &a->copies[pick[p]];
        for (size_t k = 0; k < a->nallocs; k++) {
            if (a->allocs[k].size < c->bytes) continue;
            uint64_t d = c->addr - a->allocs[k].base; /* mod 2^64: a negative shift wraps */
            size_t n = copies_inside(a, d);
            uint64_t mag = d >> 63 ? (uint64_t)0 - d : d, bmag = best >> 63 ? (uint64_t)0 - best : best;
            if (n > best_n || (n == best_n && n > 0 && mag < bmag)) {
                best = d;
                best_n = n;
            }
        }
    }
    if (best_n == 0) {
        snprintf(err->msg, sizeof err->msg, "%s: --allocs-rebase memcpy: no constant shift puts any of the %zu "
                 "MemcpyHtoD ranges inside an allocation of %s", a->list_path, a->ncopies, a->allocs_path);
        return -1;
    }
    if (shift_allocs(a, best, err) != 0) return -1;
    if (best >> 63)
        awarn(a, "note: %s: --allocs-rebase memcpy: the allocation list %s was shifted by -0x%" PRIx64 " (%zu of %zu "
              "MemcpyHtoD ranges now lie inside allocations)", a->list_path, a->allocs_path, (uint64_t)0 - best,
              best_n, a->ncopies);
    else
        awarn(a, "note: %s: --allocs-rebase memcpy: the allocation list %s was shifted by +0x%" PRIx64 " (%zu of %zu "
              "MemcpyHtoD ranges now lie inside allocations)", a->list_path, a->allocs_path, best, best_n, a->ncopies);
    return 0;
}

/* Index of the allocation containing va, or -1. */
static long find_alloc(const as_t *a, uint64_t va)
{
    size_t lo = 0, hi = a->nallocs;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2u;
        if (a->allocs[mid].base <= va) lo = mid + 1u;
        else hi = mid;
    }
    if (lo == 0) return -1;
    const as_alloc_t *c = &a->allocs[lo - 1u];
    return va - c->base < c->size ? (long)(lo - 1u) : -1;
}

/* Index of the allocation with the greatest base <= va, or -1. */
static long find_below(const as_t *a, uint64_t va)
{
    size_t lo = 0, hi = a->nallocs;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2u;
        if (a->allocs[mid].base <= va) lo = mid + 1u;
        else hi = mid;
    }
    return lo == 0 ? -1 : (long)(lo - 1u);
}

/* ---------------------------------------------------------------------------------------------------
 * Output. */

typedef struct {
    char *b;
    size_t cap, n;
    bool over;
} ob_t;

static void ob_printf(ob_t *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* printf into the output line; marks it overflowed instead of truncating. */
static void ob_printf(ob_t *o, const char *fmt, ...)
{
    if (o->over) return;
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(o->b + o->n, o->cap - o->n, fmt, ap);
    va_end(ap);
    if (k < 0 || (size_t)k >= o->cap - o->n) o->over = true;
    else o->n += (size_t)k;
}

/* Start a new output line in a->out. */
static void emit_begin(as_t *a, ob_t *o)
{
    o->b = a->out;
    o->cap = sizeof a->out;
    o->n = 0;
    o->over = false;
}

/* Set the origin of the line being produced. */
static void origin_at(as_t *a, const char *file, uint64_t line)
{
    a->o_file = file;
    a->o_line = line;
}

/* Finish the output line (it becomes the pending line); -1 with err if it overflowed. */
static int emit_end(as_t *a, ob_t *o, ga_trace_err_t *err)
{
    if (o->over) {
        aerr(err, a->kpath ? a->kpath : a->list_path, a->kline, "internal error: generated line too long");
        return -1;
    }
    a->outlen = o->n;
    a->have_out = true;
    return 0;
}

/* aK+0xOFF or aK-0xOFF for address va in allocation k. */
static void ob_rel(ob_t *o, const as_t *a, long k, uint64_t va)
{
    uint64_t off = va - a->allocs[k].base;
    if (off == 0) ob_printf(o, " a%ld", k);
    else if (off < (UINT64_C(1) << 63)) ob_printf(o, " a%ld+0x%" PRIx64, k, off);
    else ob_printf(o, " a%ld-0x%" PRIx64, k, (uint64_t)0 - off);
}

/* The "kernel NAME" line of the open kernel file. */
static void kernel_line(as_t *a, ob_t *o)
{
    emit_begin(a, o);
    ob_printf(o, "kernel %s", a->kname);
    a->kernel_emitted = true;
    a->n_kernels++;
}

/* ---------------------------------------------------------------------------------------------------
 * Kernel trace files. */

static void set_kname(as_t *a, const char *s, size_t n)
{
    if (n > GA_TRACE_NAME_MAX) n = GA_TRACE_NAME_MAX;
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        a->kname[i] = (c <= 0x20 || c > 0x7e || c == '#') ? '_' : c;
    }
    a->kname[n] = '\0';
}

/* Open the next kernel trace file of the list and reset the per-kernel state. 0 or -1 with err
 * (cited at the kernelslist.g line that names the file). */
static int kernel_open(as_t *a, ga_trace_err_t *err)
{
    const as_kernel_t *k = &a->kernels[a->next_kernel];
    if (ga_line_src_file(&a->ksrc, k->file, err) != 0) {
        char m[GA_TRACE_ERR_MAX];
        snprintf(m, sizeof m, "%s", err->msg);
        aerr(err, a->list_path, k->line, "kernel trace: %s", m);
        return -1;
    }
    a->kopen = true;
    a->kpath = k->file;
    a->kline = 0;
    const char *slash = strrchr(k->file, '/');
    const char *bn = slash ? slash + 1 : k->file;
    size_t bl = strlen(bn);
    if (bl > 7 && strcmp(bn + bl - 7, ".traceg") == 0) bl -= 7;
    set_kname(a, bn, bl);
    a->kernel_emitted = false;
    a->have_block = false;
    a->shmem = 0;
    a->have_shmem_base = false;
    a->shmem_base = 0;
    a->tb_index = 0;
    a->in_tb = false;
    a->have_warp = false;
    a->insts_left = 0;
    return 0;
}

/* Close the open kernel file, if any. */
static void kernel_close(as_t *a)
{
    if (a->kopen && a->ksrc.close) a->ksrc.close(a->ksrc.ctx);
    a->kopen = false;
    a->kpath = NULL;
}

/* "-key = value" header line. */
static int header_line(as_t *a, char *s, size_t n, ga_trace_err_t *err)
{
    if (a->kernel_emitted) {
        aerr(err, a->kpath, a->kline, "header line '-...' after the first thread block");
        return -1;
    }
    char *eq = memchr(s, '=', n);
    if (eq == NULL) {
        aerr(err, a->kpath, a->kline, "expected '-key = value'");
        return -1;
    }
    size_t kb = 1, ke = (size_t)(eq - s);
    while (ke > kb && (s[ke - 1] == ' ' || s[ke - 1] == '\t')) ke--;
    size_t vb = (size_t)(eq - s) + 1u; /* the value starts after the first '=' (at most n) */
    while (vb < n && (s[vb] == ' ' || s[vb] == '\t')) vb++;
    size_t ve = n;
    while (ve > vb && (s[ve - 1] == ' ' || s[ve - 1] == '\t')) ve--;
    atok_t key = {s + kb, ke - kb}, val = {s + vb, ve - vb};
    if (tok_eq(&key, "kernel name")) {
        if (val.n > 0) set_kname(a, val.s, val.n);
    } else if (tok_eq(&key, "block dim")) {
        atok_t t[4];
        bool over;
        size_t k = split(s + vb, ve - vb, "(), \t", t, 4, &over);
        uint64_t d[3];
        if (k != 3 || over || parse_dec(&t[0], 1u << 20, &d[0]) || parse_dec(&t[1], 1u << 20, &d[1]) ||
            parse_dec(&t[2], 1u << 20, &d[2]) || d[0] == 0 || d[1] == 0 || d[2] == 0) {
            aerr(err, a->kpath, a->kline, "expected '-block dim = (x,y,z)' with x, y, z in 1..1048576");
            return -1;
        }
        a->block_x = d[0];
        a->block_y = d[1];
        a->block_z = d[2];
        a->warps_per_block = (d[0] * d[1] * d[2] + 31u) / 32u;
        a->have_block = true;
    } else if (tok_eq(&key, "shmem")) {
        if (parse_dec(&val, UINT32_MAX, &a->shmem) != 0) {
            aerr(err, a->kpath, a->kline, "expected '-shmem = BYTES' (decimal, below 2^32)");
            return -1;
        }
    } else if (tok_eq(&key, "shmem base_addr")) {
        if (parse_hex0x(&val, &a->shmem_base) != 0) {
            aerr(err, a->kpath, a->kline, "expected '-shmem base_addr = 0xADDR'");
            return -1;
        }
        a->have_shmem_base = a->shmem_base != 0;
    }
    return 0;
}

typedef enum { C_SKIP, C_LD, C_ST, C_LDS, C_STS, C_GEN_LD, C_GEN_ST } as_class_t;

/* What the opcode (its part before the first dot) becomes: docs/traces.md §9 "Instructions". */
static as_class_t classify(const atok_t *op)
{
    size_t n = 0;
    while (n < op->n && op->s[n] != '.') n++;
    atok_t b = {op->s, n};
    if (tok_eq(&b, "LDG") || tok_eq(&b, "LDGSTS")) return C_LD;
    if (tok_eq(&b, "STG") || tok_eq(&b, "ATOMG") || tok_eq(&b, "RED") || tok_eq(&b, "REDG")) return C_ST;
    if (tok_eq(&b, "LDS") || tok_eq(&b, "LDSM")) return C_LDS;
    if (tok_eq(&b, "STS") || tok_eq(&b, "ATOMS")) return C_STS;
    if (tok_eq(&b, "LD")) return C_GEN_LD;
    if (tok_eq(&b, "ST") || tok_eq(&b, "ATOM")) return C_GEN_ST;
    return C_SKIP;
}

/* An instruction line. May set a->have_out. */
static int inst_line(as_t *a, char *s, size_t n, ga_trace_err_t *err)
{
    const char *kp = a->kpath;
    uint64_t ln = a->kline;
    if (!a->have_warp) {
        aerr(err, kp, ln, "instruction line before 'thread block = ...' and 'warp = N'");
        return -1;
    }
    if (a->insts_left == 0) {
        aerr(err, kp, ln, "more instruction lines than the warp's 'insts = N' announced");
        return -1;
    }
    a->insts_left--;
    a->n_insts++;
    atok_t t[AS_TOK_MAX];
    bool over;
    size_t k = split(s, n, " \t", t, AS_TOK_MAX, &over);
    if (over) {
        aerr(err, kp, ln, "too many fields in an instruction line");
        return -1;
    }
    size_t i = 0;
    uint64_t pc, mask64, nd, ns, width;
    if (k < 1 || ga_parse_hex_bare(t[0].s, t[0].n, &pc) != 0) {
        aerr(err, kp, ln, "expected a PC (hexadecimal without 0x) at the start of an instruction line");
        return -1;
    }
    if (k < 2 || t[1].n > 8 || ga_parse_hex_bare(t[1].s, t[1].n, &mask64) != 0) {
        aerr(err, kp, ln, "expected an active mask (1 to 8 hexadecimal digits) after the PC");
        return -1;
    }
    i = 2;
    if (i >= k || parse_dec(&t[i], 32, &nd) != 0) {
        aerr(err, kp, ln, "expected the number of destination registers (0..32) as field %zu", i + 1);
        return -1;
    }
    i += 1 + (size_t)nd;
    if (i >= k) {
        aerr(err, kp, ln, "expected %" PRIu64 " destination register(s) and an opcode", nd);
        return -1;
    }
    const atok_t *op = &t[i++];
    if (i >= k || parse_dec(&t[i], 32, &ns) != 0) {
        aerr(err, kp, ln, "expected the number of source registers (0..32) after the opcode");
        return -1;
    }
    i += 1 + (size_t)ns;
    if (i >= k || parse_dec(&t[i], 1u << 20, &width) != 0) {
        aerr(err, kp, ln, "expected %" PRIu64 " source register(s) and the memory width (decimal bytes)", ns);
        return -1;
    }
    i++;
    uint32_t mask = (uint32_t)mask64;
    if (width == 0) {
        if (i != k) {
            aerr(err, kp, ln, "unexpected fields after memory width 0");
            return -1;
        }
        return 0;
    }
    uint64_t mode;
    if (i >= k || parse_dec(&t[i], 2, &mode) != 0) {
        aerr(err, kp, ln, "expected an address compression mode 0, 1 or 2 after the memory width");
        return -1;
    }
    i++;
    uint64_t addr[32] = {0};
    unsigned act = 0, first = 32;
    for (unsigned l = 0; l < 32; l++)
        if (mask >> l & 1u) {
            act++;
            if (first == 32) first = l;
        }
    if (mode == 0) {
        if (k - i != act) {
            aerr(err, kp, ln, "expected %u address(es) (one per active lane) in mode 0, got %zu", act, k - i);
            return -1;
        }
        for (unsigned l = 0; l < 32; l++) {
            if (!(mask >> l & 1u)) continue;
            if (parse_hex0x(&t[i], &addr[l]) != 0) {
                aerr(err, kp, ln, "expected a 0x-prefixed hexadecimal address for lane %u", l);
                return -1;
            }
            i++;
        }
    } else {
        uint64_t base;
        if (i >= k || parse_hex0x(&t[i], &base) != 0) {
            aerr(err, kp, ln, "expected a 0x-prefixed base address in mode %" PRIu64, mode);
            return -1;
        }
        i++;
        if (mode == 1) {
            int64_t stride;
            if (i >= k || parse_sdec(&t[i], &stride) != 0) {
                aerr(err, kp, ln, "expected a decimal stride after the base (mode 1)");
                return -1;
            }
            i++;
            if (i != k) {
                aerr(err, kp, ln, "unexpected fields after the stride (mode 1)");
                return -1;
            }
            if (act > 0) {
                uint32_t run = mask >> first;
                if ((run & (run + 1u)) != 0) {
                    aerr(err, kp, ln, "mode 1 (base + stride) needs contiguous active lanes, mask is 0x%08" PRIx32, mask);
                    return -1;
                }
                for (unsigned l = first; l < 32 && (mask >> l & 1u); l++)
                    addr[l] = base + (uint64_t)stride * (l - first);
            }
        } else {
            if (act == 0 ? i != k : k - i != act - 1u) {
                aerr(err, kp, ln, "expected %u delta(s) after the base (mode 2: one per further active lane), got %zu",
                     act ? act - 1u : 0u, k - i);
                return -1;
            }
            uint64_t cur = base;
            for (unsigned l = 0; l < 32; l++) {
                if (!(mask >> l & 1u)) continue;
                if (l != first) {
                    int64_t d;
                    if (parse_sdec(&t[i], &d) != 0) {
                        aerr(err, kp, ln, "expected a signed decimal delta for lane %u (mode 2)", l);
                        return -1;
                    }
                    i++;
                    cur += (uint64_t)d;
                }
                addr[l] = cur;
            }
        }
    }
    as_class_t c = classify(op);
    if (act == 0) return 0;
    if (c == C_SKIP) {
        a->n_skipped_mem++;
        return 0;
    }
    if (width != 1 && width != 2 && width != 4 && width != 8 && width != 16) {
        aerr(err, kp, ln, "memory width %" PRIu64 " of %.*s is not 1, 2, 4, 8 or 16 bytes", width, (int)op->n, op->s);
        return -1;
    }
    if (c == C_GEN_LD || c == C_GEN_ST) {
        bool sh = a->have_shmem_base && addr[first] >= a->shmem_base && addr[first] - a->shmem_base <= UINT32_MAX;
        c = sh ? (c == C_GEN_LD ? C_LDS : C_STS) : (c == C_GEN_LD ? C_LD : C_ST);
    }
    uint64_t wpb = a->warps_per_block;
    uint64_t tb = a->tb_index - 1u;
    unsigned sm = (unsigned)(tb % a->sms);
    unsigned warp = (unsigned)(((tb / a->sms % 65536u) * (wpb % 65536u) + a->warp) % 65536u);
    ob_t o;
    emit_begin(a, &o);
    if (c == C_LDS || c == C_STS) {
        uint32_t ssize = a->shmem ? (uint32_t)a->shmem : AS_SHARED_DEFAULT;
        ob_printf(&o, "%s %u %u %u 0x%08" PRIx32 " 0 %" PRIu32 " list", c == C_LDS ? "lds" : "sts", sm, warp,
                  (unsigned)width, mask, ssize);
        for (unsigned l = 0; l < 32; l++) {
            if (!(mask >> l & 1u)) continue;
            uint64_t sa = addr[l];
            if (a->have_shmem_base && sa >= a->shmem_base && sa - a->shmem_base <= UINT32_MAX) sa -= a->shmem_base;
            else if (sa > UINT32_MAX) {
                aerr(err, kp, ln, "shared address 0x%" PRIx64 " of lane %u is neither in the shared window nor below 2^32",
                     addr[l], l);
                return -1;
            }
            ob_printf(&o, " 0x%" PRIx64, sa);
        }
        a->n_kept[c == C_LDS ? 2 : 3]++;
        return emit_end(a, &o, err);
    }
    long root = -1;
    for (unsigned l = first; l < 32 && root < 0; l++)
        if (mask >> l & 1u) root = find_alloc(a, addr[l]);
    if (root < 0) a->n_stray++;
    if (root < 0 && a->allocs_given && a->nallocs > 0) {
        /* An authoritative list: a stray access was derived from some allocation; take the one below
         * the first active lane (a run past an end is the common case), else the lowest. */
        root = find_below(a, addr[first]);
        if (root < 0) root = 0;
    }
    const char *kw = c == C_LD ? "ld" : "st";
    a->n_kept[c == C_LD ? 0 : 1]++;
    if (root < 0) {
        a->n_unattributed++;
        ob_printf(&o, "%s %u %u %u 0x%08" PRIx32 " root=none list", kw, sm, warp, (unsigned)width, mask);
        for (unsigned l = 0; l < 32; l++)
            if (mask >> l & 1u) ob_printf(&o, " 0x%" PRIx64, addr[l]);
        return emit_end(a, &o, err);
    }
    ob_printf(&o, "%s %u %u %u 0x%08" PRIx32 " root=a%ld", kw, sm, warp, (unsigned)width, mask, root);
    /* The stride form when every active lane l sits at addr[first] + (l - first) * s. */
    bool strided = false;
    int64_t step = 0;
    if (act >= 2) {
        unsigned second = first + 1u;
        while (!(mask >> second & 1u)) second++;
        int64_t diff = (int64_t)(addr[second] - addr[first]);
        int64_t span = (int64_t)(second - first);
        if (diff % span == 0) {
            step = diff / span;
            strided = true;
            for (unsigned l = first; l < 32 && strided; l++)
                if ((mask >> l & 1u) && addr[l] != addr[first] + (uint64_t)step * (l - first)) strided = false;
        }
    }
    if (strided) {
        ob_printf(&o, " stride");
        ob_rel(&o, a, root, addr[first] - (uint64_t)step * first);
        ob_printf(&o, " %" PRId64, step);
    } else {
        ob_printf(&o, " list");
        for (unsigned l = 0; l < 32; l++)
            if (mask >> l & 1u) ob_rel(&o, a, root, addr[l]);
    }
    return emit_end(a, &o, err);
}

/* One line of the open kernel file. */
static int kernel_input(as_t *a, char *s, size_t n, ga_trace_err_t *err)
{
    while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t')) n--;
    size_t b = 0;
    while (b < n && (s[b] == ' ' || s[b] == '\t')) b++;
    s += b;
    n -= b;
    if (n == 0) return 0;
    if (has_nul(s, n)) {
        aerr(err, a->kpath, a->kline, "NUL byte in the line");
        return -1;
    }
    if (s[0] == '-') return header_line(a, s, n, err);
    if (s[0] == '#') {
        if (n >= 9 && memcmp(s, "#BEGIN_TB", 9) == 0) {
            if (a->in_tb) {
                aerr(err, a->kpath, a->kline, "#BEGIN_TB inside a thread block (missing #END_TB)");
                return -1;
            }
            a->in_tb = true;
        } else if (n >= 7 && memcmp(s, "#END_TB", 7) == 0) {
            if (a->insts_left) {
                aerr(err, a->kpath, a->kline, "#END_TB while %" PRIu64 " instruction line(s) of the warp are missing",
                     a->insts_left);
                return -1;
            }
            a->in_tb = false;
            a->have_warp = false;
        }
        return 0;
    }
    atok_t t[8];
    bool over;
    size_t k = split(s, n, " \t=,", t, 8, &over);
    if (k >= 2 && tok_eq(&t[0], "thread") && tok_eq(&t[1], "block")) {
        uint64_t d[3];
        if (k != 5 || over || parse_dec(&t[2], UINT32_MAX, &d[0]) || parse_dec(&t[3], UINT32_MAX, &d[1]) ||
            parse_dec(&t[4], UINT32_MAX, &d[2])) {
            aerr(err, a->kpath, a->kline, "expected 'thread block = x,y,z'");
            return -1;
        }
        if (a->insts_left) {
            aerr(err, a->kpath, a->kline, "new thread block while %" PRIu64 " instruction line(s) are missing",
                 a->insts_left);
            return -1;
        }
        if (!a->have_block) {
            aerr(err, a->kpath, a->kline, "thread block before the '-block dim = (x,y,z)' header line");
            return -1;
        }
        a->tb_index++;
        a->have_warp = false;
        if (!a->kernel_emitted) {
            ob_t o;
            kernel_line(a, &o);
            return emit_end(a, &o, err);
        }
        return 0;
    }
    if (k >= 1 && tok_eq(&t[0], "warp")) {
        uint64_t w;
        if (k != 2 || over || parse_dec(&t[1], UINT32_MAX, &w) != 0) {
            aerr(err, a->kpath, a->kline, "expected 'warp = N'");
            return -1;
        }
        if (a->tb_index == 0) {
            aerr(err, a->kpath, a->kline, "'warp = N' before 'thread block = x,y,z'");
            return -1;
        }
        if (a->insts_left) {
            aerr(err, a->kpath, a->kline, "new warp while %" PRIu64 " instruction line(s) are missing", a->insts_left);
            return -1;
        }
        if (w >= a->warps_per_block) {
            aerr(err, a->kpath, a->kline, "warp %" PRIu64 " but a block of the '-block dim' has %" PRIu64 " warp(s)", w,
                 a->warps_per_block);
            return -1;
        }
        a->warp = w;
        a->have_warp = true;
        return 0;
    }
    if (k >= 1 && tok_eq(&t[0], "insts")) {
        uint64_t c;
        if (k != 2 || over || parse_dec(&t[1], UINT64_MAX, &c) != 0) {
            aerr(err, a->kpath, a->kline, "expected 'insts = N'");
            return -1;
        }
        if (!a->have_warp) {
            aerr(err, a->kpath, a->kline, "'insts = N' before 'warp = N'");
            return -1;
        }
        if (a->insts_left) {
            aerr(err, a->kpath, a->kline, "'insts = N' while %" PRIu64 " instruction line(s) are missing", a->insts_left);
            return -1;
        }
        a->insts_left = c;
        return 0;
    }
    return inst_line(a, s, n, err);
}

/* ---------------------------------------------------------------------------------------------------
 * The line source. */

/* At the end of the stream: warn when most global instructions touch no allocation (a list from
 * another run, shifted by a constant, is the usual cause with real NVBit captures). */
static void stray_warning(as_t *a)
{
    uint64_t total = a->n_kept[0] + a->n_kept[1];
    if (total == 0 || a->n_stray * 2u <= total) return;
    double pct = 100.0 * (double)a->n_stray / (double)total;
    if (a->allocs_given)
        awarn(a, "warning: %s: %" PRIu64 " of %" PRIu64 " global memory instructions (%.1f %%) touch no allocation of "
              "the list %s, so they are checked against a neighbouring allocation and reported as errors; the "
              "list may come from another run (addresses shifted by a constant): try --allocs-rebase memcpy (shift "
              "it onto the MemcpyHtoD ranges of kernelslist.g) or --allocs-shift D",
              a->list_path, a->n_stray, total, pct, a->allocs_path);
    else
        awarn(a, "warning: %s: %" PRIu64 " of %" PRIu64 " global memory instructions (%.1f %%) touch no MemcpyHtoD "
              "range, so they are replayed unchecked (root=none); give the program's allocation list with --allocs",
              a->list_path, a->n_stray, total, pct);
}

/* Produce the next output line into a->out (have_out), or finish (phase DONE). */
static int produce(as_t *a, ga_trace_err_t *err)
{
    ob_t o;
    switch (a->phase) {
    case PH_HEADER:
        emit_begin(a, &o);
        origin_at(a, a->list_path, 1);
        ob_printf(&o, "gatrace 2 sms=%u alloc=fixed", a->sms);
        a->phase = PH_ALLOCS;
        return emit_end(a, &o, err);
    case PH_ALLOCS:
        if (a->next_alloc < a->nallocs) {
            const as_alloc_t *c = &a->allocs[a->next_alloc];
            emit_begin(a, &o);
            origin_at(a, a->allocs_given ? a->allocs_path : a->list_path, c->line);
            ob_printf(&o, "alloc a%zu %" PRIu64 " at 0x%" PRIx64, a->next_alloc, c->size, c->base);
            a->next_alloc++;
            return emit_end(a, &o, err);
        }
        a->phase = PH_CMDS;
        return 0;
    case PH_CMDS:
        if (a->next_kernel < a->nkernels) {
            if (kernel_open(a, err) != 0) return -1;
            a->phase = PH_KERNEL;
            return 0;
        }
        emit_begin(a, &o);
        origin_at(a, a->list_path, 0);
        ob_printf(&o, "# accelsim import: %" PRIu64 " kernels, %" PRIu64 " instructions; replayed ld %" PRIu64
                  ", st %" PRIu64 ", lds %" PRIu64 ", sts %" PRIu64 "; %" PRIu64 " global outside every allocation "
                  "(unchecked); %" PRIu64 " other memory instructions skipped",
                  a->n_kernels, a->n_insts, a->n_kept[0], a->n_kept[1], a->n_kept[2], a->n_kept[3], a->n_unattributed,
                  a->n_skipped_mem);
        stray_warning(a);
        a->phase = PH_EOF;
        return emit_end(a, &o, err);
    case PH_EOF:
        emit_begin(a, &o);
        origin_at(a, a->list_path, 0);
        ob_printf(&o, "eof");
        a->phase = PH_DONE;
        return emit_end(a, &o, err);
    case PH_KERNEL: {
        size_t len;
        int rc = a->ksrc.next(a->ksrc.ctx, a->in, AS_LINE_MAX, &len, err);
        if (rc < 0) return -1;
        if (rc > 0) {
            a->kline++;
            origin_at(a, a->kpath, a->kline);
            return kernel_input(a, a->in, len, err);
        }
        /* end of the kernel file */
        origin_at(a, a->kpath, a->kline);
        if (a->insts_left) {
            aerr(err, a->kpath, a->kline, "end of file while %" PRIu64 " instruction line(s) of the warp are missing",
                 a->insts_left);
            return -1;
        }
        if (!a->kernel_emitted) {
            kernel_line(a, &o);
            return emit_end(a, &o, err); /* 'end' comes on the next call: the file is at its end */
        }
        const char *kp = a->kpath;
        kernel_close(a);
        origin_at(a, kp, a->kline);
        a->next_kernel++;
        a->phase = PH_CMDS;
        emit_begin(a, &o);
        ob_printf(&o, "end");
        return emit_end(a, &o, err);
    }
    case PH_DONE: return 0;
    }
    return 0;
}

/* The line source's next(): the next generated gatrace line, 0 at the end, -1 with err. */
static int as_next(void *ctx, char *buf, size_t cap, size_t *len, ga_trace_err_t *err)
{
    as_t *a = ctx;
    *len = 0;
    while (!a->have_out) {
        if (a->phase == PH_DONE) return 0;
        if (produce(a, err) != 0) {
            a->phase = PH_DONE;
            return -1;
        }
    }
    if (a->outlen > cap - 1u) {
        aerr(err, a->list_path, 0, "internal error: generated line longer than %zu bytes", cap - 1u);
        return -1;
    }
    memcpy(buf, a->out, a->outlen);
    *len = a->outlen;
    a->have_out = false;
    return 1;
}

/* Progress in millionths of kernel files: finished files plus the open one's read fraction. */
static void as_progress(void *ctx, uint64_t *done, uint64_t *total)
{
    as_t *a = ctx;
    *total = (uint64_t)a->nkernels * 1000000u;
    uint64_t frac = 0;
    if (a->kopen && a->ksrc.progress) {
        uint64_t d, t;
        a->ksrc.progress(a->ksrc.ctx, &d, &t);
        if (t) frac = d >= t ? 1000000u : d * 1000000u / t;
    }
    *done = (uint64_t)a->next_kernel * 1000000u + frac;
}

/* The Accel-Sim file and line the last generated line came from. */
static bool as_origin(void *ctx, const char **file, uint64_t *line)
{
    const as_t *a = ctx;
    if (a->o_file == NULL) return false;
    *file = a->o_file;
    *line = a->o_line;
    return true;
}

/* Free the importer and close its open kernel file. */
static void as_close(void *ctx)
{
    as_t *a = ctx;
    if (a == NULL) return;
    kernel_close(a);
    for (size_t i = 0; i < a->nkernels; i++) free(a->kernels[i].file);
    free(a->kernels);
    free(a->allocs);
    free(a->copies);
    free(a->in);
    free(a->list_path);
    free(a->allocs_path);
    free(a);
}

/* See ga_accelsim.h: read the allocation list (given or inferred) and kernelslist.g, then stream. */
int ga_accelsim_src(ga_line_src_t *src, const char *kernelslist_path, const ga_accelsim_opts_t *opts,
                    ga_trace_err_t *err)
{
    memset(src, 0, sizeof *src);
    if (opts->sms < 1u || opts->sms > 65536u) {
        snprintf(err->msg, sizeof err->msg, "accelsim import: SMs must be 1..65536, not %u", opts->sms);
        return -1;
    }
    as_t *a = calloc(1, sizeof *a);
    if (a == NULL || (a->list_path = strdup(kernelslist_path)) == NULL || (a->in = malloc(AS_LINE_MAX)) == NULL) {
        as_close(a);
        snprintf(err->msg, sizeof err->msg, "%s: out of memory", kernelslist_path);
        return -1;
    }
    a->sms = opts->sms;
    a->warn = opts->warn;
    a->warn_ctx = opts->warn_ctx;
    a->allocs_given = opts->allocs_path != NULL;
    if (a->allocs_given && (a->allocs_path = strdup(opts->allocs_path)) == NULL) {
        as_close(a);
        snprintf(err->msg, sizeof err->msg, "%s: out of memory", kernelslist_path);
        return -1;
    }
    if (a->allocs_given && for_each_line(a, opts->allocs_path, allocs_line, err) != 0) goto fail;
    if (for_each_line(a, kernelslist_path, list_line, err) != 0) goto fail;
    if (settle_allocs(a, a->allocs_given ? opts->allocs_path : kernelslist_path, err) != 0) goto fail;
    if ((opts->allocs_shift || opts->allocs_rebase) && !a->allocs_given) {
        snprintf(err->msg, sizeof err->msg, "%s: --allocs-shift and --allocs-rebase apply to an allocation list "
                 "given with --allocs", kernelslist_path);
        goto fail;
    }
    if (opts->allocs_shift && shift_allocs(a, opts->allocs_shift, err) != 0) goto fail;
    if (opts->allocs_rebase && rebase_allocs(a, err) != 0) goto fail;
    a->phase = PH_HEADER;
    src->ctx = a;
    src->next = as_next;
    src->close = as_close;
    src->progress = as_progress;
    src->origin = as_origin;
    src->name = a->list_path;
    return 0;
fail:
    as_close(a);
    return -1;
}
