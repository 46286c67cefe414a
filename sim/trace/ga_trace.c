/*
 * ga_trace.c — the strict gatrace reader and the canonical writer (docs/traces.md, ga_trace.h).
 *
 * A line is checked byte by byte (NUL, control bytes), cut at its comment, split into at most
 * TOK_MAX tokens, then parsed by record kind. Every number goes through ga_parse_uint / ga_parse_sint,
 * which detect overflow before it happens. Allocation IDs live in an open-addressing hash table that
 * grows by doubling (the only memory that grows with the input).
 */
#include "ga_trace.h"
#include "ga_types.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#define TOK_MAX 48u /* the longest record, "ld" with a 32-entry list, has 39 tokens */

static const char *const tev_names[GA_TEV_KINDS] = {"alloc", "free", "kernel", "end", "loadmeta",
                                                    "ld", "st", "lds", "sts", "freep"};

/* See ga_trace.h. */
const char *ga_tev_name(ga_tev_kind_t kind)
{
    return (unsigned)kind < GA_TEV_KINDS ? tev_names[kind] : "?";
}

/* ---------------------------------------------------------------------------------------------------
 * Numbers. */

static int hexval(char c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/* Digits s[0..n) in base 10 or 16, at most max. */
static int parse_digits(const char *s, size_t n, unsigned base, uint64_t max, uint64_t *out)
{
    if (n == 0) return -1;
    uint64_t v = 0;
    for (size_t i = 0; i < n; i++) {
        int d = hexval(s[i]);
        if (d < 0 || (unsigned)d >= base) return -1;
        if ((uint64_t)d > max || v > (max - (uint64_t)d) / base) return -1; /* v * base + d > max */
        v = v * base + (uint64_t)d;
    }
    *out = v;
    return 0;
}

/* See ga_trace.h. */
int ga_parse_uint(const char *s, size_t n, uint64_t max, uint64_t *out)
{
    if (n >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) return parse_digits(s + 2, n - 2, 16, max, out);
    return parse_digits(s, n, 10, max, out);
}

/* See ga_trace.h. */
int ga_parse_hex_bare(const char *s, size_t n, uint64_t *out)
{
    if (n == 0 || n > 16) return -1;
    return parse_digits(s, n, 16, UINT64_MAX, out);
}

/* See ga_trace.h. */
int ga_parse_sint(const char *s, size_t n, int64_t *out)
{
    uint64_t m;
    if (n > 0 && s[0] == '-') {
        if (ga_parse_uint(s + 1, n - 1, UINT64_C(1) << 63, &m) != 0) return -1;
        /* -m without overflow: m = 2^63 gives INT64_MIN */
        *out = m == (UINT64_C(1) << 63) ? INT64_MIN : -(int64_t)m;
        return 0;
    }
    if (ga_parse_uint(s, n, (uint64_t)INT64_MAX, &m) != 0) return -1;
    *out = (int64_t)m;
    return 0;
}

/* ---------------------------------------------------------------------------------------------------
 * The reader. */

typedef struct {
    uint64_t id;
    uint64_t line;  /* alloc line */
    uint64_t freed; /* free line, 0 while live */
} slot_t;

typedef struct {
    const char *s; /* into the line buffer */
    size_t n;
    size_t col;    /* 1-based */
} tok_t;

struct ga_trace_reader {
    ga_line_src_t src;
    char line[GA_TRACE_LINE_MAX];
    uint64_t lineno;
    int state; /* 0 running, 1 ended, -1 failed */
    ga_trace_err_t last_err;
    ga_trace_header_t hdr;
    bool have_hdr;
    bool ended;          /* version 2: the eof record was read (only blank and comment lines may follow) */
    uint64_t eof_line;
    bool in_kernel;
    uint64_t kernel_line;
    char kernel_name[GA_TRACE_NAME_MAX + 1];
    slot_t *slots;
    uint32_t nslots, capslots;
    uint32_t *hash; /* slot + 1, 0 empty */
    size_t hcap;    /* power of two */
    tok_t tok[TOK_MAX];
    unsigned ntok;
};

/* Record the reader's first error "name:line[:col]: message" (truncated, never overflowing); the
 * reader fails from now on. */
static void rerr(ga_trace_reader_t *r, ga_trace_err_t *err, size_t col, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* Record the first error: "name:line[:col]: message" (truncated to the buffer, never overflowing). */
static void rerr(ga_trace_reader_t *r, ga_trace_err_t *err, size_t col, const char *fmt, ...)
{
    char *m = r->last_err.msg;
    size_t cap = sizeof r->last_err.msg;
    unsigned long long ln = (unsigned long long)(r->lineno ? r->lineno : 1u);
    int k = col ? snprintf(m, cap, "%s:%llu:%zu: ", r->src.name, ln, col)
                : snprintf(m, cap, "%s:%llu: ", r->src.name, ln);
    if (k >= 0 && (size_t)k < cap) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(m + k, cap - (size_t)k, fmt, ap);
        va_end(ap);
    }
    r->state = -1;
    *err = r->last_err;
}

/* A token quoted for a message: at most 40 bytes, then "...". Tokens hold printable bytes only. */
static const char *tq(const tok_t *t, char buf[48])
{
    size_t n = t->n > 40 ? 40 : t->n;
    memcpy(buf, t->s, n);
    if (t->n > 40) memcpy(buf + n, "...", 4);
    else buf[n] = '\0';
    return buf;
}

/* True when token t is exactly keyword kw. */
static int tok_is(const tok_t *t, const char *kw)
{
    size_t n = strlen(kw);
    return t->n == n && memcmp(t->s, kw, n) == 0;
}

/* "expected WHAT, got 'TOK'" at the token's column. Returns -1. */
static int expected(ga_trace_reader_t *r, ga_trace_err_t *err, unsigned i, const char *what)
{
    char q[48];
    if (i >= r->ntok) {
        size_t col = r->ntok ? r->tok[r->ntok - 1].col + r->tok[r->ntok - 1].n : 1;
        rerr(r, err, col, "expected %s, got end of line", what);
    } else {
        rerr(r, err, r->tok[i].col, "expected %s, got '%s'", what, tq(&r->tok[i], q));
    }
    return -1;
}

/* Slot of trace ID id, or UINT32_MAX. */
static uint32_t find_slot(const ga_trace_reader_t *r, uint64_t id)
{
    if (r->hcap == 0) return UINT32_MAX;
    size_t m = r->hcap - 1u;
    for (size_t h = (size_t)ga_mix64(id) & m;; h = (h + 1u) & m) {
        uint32_t v = r->hash[h];
        if (v == 0) return UINT32_MAX;
        if (r->slots[v - 1u].id == id) return v - 1u;
    }
}

/* Insert slot under id into an open-addressing table of cap (a power of two) entries. */
static void hash_put(uint32_t *tab, size_t cap, uint64_t id, uint32_t slot)
{
    size_t m = cap - 1u;
    size_t h = (size_t)ga_mix64(id) & m;
    while (tab[h] != 0) h = (h + 1u) & m;
    tab[h] = slot + 1u;
}

/* Add a new ID (not present). Returns its slot, or UINT32_MAX when out of memory or out of slots. */
static uint32_t add_slot(ga_trace_reader_t *r, uint64_t id, uint64_t line)
{
    if (r->nslots == UINT32_MAX - 1u) return UINT32_MAX;
    if (r->nslots == r->capslots) {
        uint32_t nc = r->capslots ? (r->capslots > UINT32_MAX / 2u ? UINT32_MAX - 1u : 2u * r->capslots) : 64u;
        slot_t *ns = realloc(r->slots, (size_t)nc * sizeof *ns);
        if (ns == NULL) return UINT32_MAX;
        r->slots = ns;
        r->capslots = nc;
    }
    if ((size_t)(r->nslots + 1u) * 2u > r->hcap) { /* keep the load at most 1/2 */
        size_t nc = r->hcap ? 2u * r->hcap : 128u;
        uint32_t *nh = calloc(nc, sizeof *nh);
        if (nh == NULL) return UINT32_MAX;
        for (uint32_t i = 0; i < r->nslots; i++) hash_put(nh, nc, r->slots[i].id, i);
        free(r->hash);
        r->hash = nh;
        r->hcap = nc;
    }
    uint32_t s = r->nslots++;
    r->slots[s] = (slot_t){id, line, 0};
    hash_put(r->hash, r->hcap, id, s);
    return s;
}

/* Split the line into tokens after checking its bytes. Returns 0 or -1. */
static int tokenize(ga_trace_reader_t *r, size_t len, ga_trace_err_t *err)
{
    r->ntok = 0;
    size_t end = len;
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)r->line[i];
        if (c == 0) {
            rerr(r, err, i + 1u, "NUL byte in the line");
            return -1;
        }
        if (c == '#' && end == len) end = i; /* keep scanning the comment for NUL bytes */
        if (end == len && c != '\t' && (c < 0x20 || c > 0x7e)) {
            rerr(r, err, i + 1u, "unexpected byte 0x%02x (only printable ASCII and tabs outside comments)", c);
            return -1;
        }
    }
    size_t i = 0;
    while (i < end) {
        while (i < end && (r->line[i] == ' ' || r->line[i] == '\t')) i++;
        if (i >= end) break;
        size_t s = i;
        while (i < end && r->line[i] != ' ' && r->line[i] != '\t') i++;
        if (r->ntok == TOK_MAX) {
            rerr(r, err, s + 1u, "too many fields (no record has more than %u)", TOK_MAX - 9u);
            return -1;
        }
        r->tok[r->ntok++] = (tok_t){r->line + s, i - s, s + 1u};
    }
    return 0;
}

/* Token i as a UINT <= max; what names the field for the message. */
static int tok_uint(ga_trace_reader_t *r, ga_trace_err_t *err, unsigned i, uint64_t max, const char *what,
                    uint64_t *out)
{
    if (i >= r->ntok || ga_parse_uint(r->tok[i].s, r->tok[i].n, max, out) != 0) return expected(r, err, i, what);
    return 0;
}

/* An allocation ID token "aN". */
static int parse_id(const tok_t *t, uint64_t *id)
{
    if (t->n < 2 || t->s[0] != 'a') return -1;
    return parse_digits(t->s + 1, t->n - 1, 10, UINT64_MAX, id);
}

/* A PTR token (docs/traces.md §4) into *p; alloc refs must name a known ID. */
static int tok_ptr(ga_trace_reader_t *r, ga_trace_err_t *err, unsigned i, ga_tptr_t *p)
{
    static const char what[] = "a pointer (aID[+-OFF] or a number, optionally :tTAG)";
    memset(p, 0, sizeof *p);
    if (i >= r->ntok) return expected(r, err, i, what);
    const tok_t *t = &r->tok[i];
    size_t n = t->n;
    const char *colon = memchr(t->s, ':', n);
    if (colon) {
        size_t cn = (size_t)(colon - t->s);
        uint64_t tag;
        if (t->n - cn < 3 || colon[1] != 't' || ga_parse_uint(colon + 2, t->n - cn - 2, 65535u, &tag) != 0) {
            char q[48];
            rerr(r, err, t->col + cn, "expected a tag override ':tTAG' with TAG in 0..65535 in '%s'", tq(t, q));
            return -1;
        }
        p->set_tag = true;
        p->tag = (uint16_t)tag;
        n = cn;
    }
    if (n > 0 && t->s[0] == 'a') {
        size_t k = 1;
        while (k < n && t->s[k] >= '0' && t->s[k] <= '9') k++;
        uint64_t id;
        if (parse_digits(t->s + 1, k - 1, 10, UINT64_MAX, &id) != 0) return expected(r, err, i, what);
        if (k < n) {
            if (t->s[k] != '+' && t->s[k] != '-') return expected(r, err, i, what);
            uint64_t off;
            if (ga_parse_uint(t->s + k + 1, n - k - 1, UINT64_MAX, &off) != 0) {
                char q[48];
                rerr(r, err, t->col + k + 1, "expected an offset (a number below 2^64) after '%c' in '%s'", t->s[k],
                     tq(t, q));
                return -1;
            }
            p->neg = t->s[k] == '-';
            p->off = p->neg ? (uint64_t)0 - off : off;
        }
        uint32_t s = find_slot(r, id);
        if (s == UINT32_MAX) {
            rerr(r, err, t->col, "unknown allocation a%" PRIu64 " (no earlier 'alloc a%" PRIu64 "' line)", id, id);
            return -1;
        }
        p->is_alloc = true;
        p->id = id;
        p->slot = s;
        return 0;
    }
    if (ga_parse_uint(t->s, n, UINT64_MAX, &p->off) != 0) return expected(r, err, i, what);
    return 0;
}

/* Number of set bits of m. */
static unsigned popcount32(uint32_t m)
{
    unsigned c = 0;
    for (; m; m &= m - 1u) c++;
    return c;
}

/* Shared lane address SA + l * stride must lie in 0 .. 2^32 - 1 for every active l (exact). */
static bool shared_strided_ok(uint64_t sa, int64_t stride, uint32_t mask)
{
    for (unsigned l = 0; l < GA_TRACE_LANES; l++) {
        if (!(mask >> l & 1u) || l == 0) continue;
        if (stride >= 0) {
            if ((uint64_t)stride > (UINT64_C(0xffffffff) - sa) / l) return false;
        } else {
            uint64_t m = (uint64_t)0 - (uint64_t)stride;
            if (m > sa / l) return false;
        }
    }
    return true;
}

/* The ADDRS / SADDRS part starting at token i. shared: raw numbers < 2^32 only. */
static int parse_addrs(ga_trace_reader_t *r, ga_trace_err_t *err, unsigned i, bool shared, ga_tev_t *ev)
{
    unsigned need = popcount32(ev->mask);
    if (i < r->ntok && tok_is(&r->tok[i], "stride")) {
        ev->strided = true;
        if (shared) {
            uint64_t sa;
            if (tok_uint(r, err, i + 1, UINT32_MAX, "a shared address (0..0xffffffff)", &sa)) return -1;
            ev->lane[0].off = sa;
        } else if (tok_ptr(r, err, i + 1, &ev->lane[0])) {
            return -1;
        }
        if (i + 2 >= r->ntok || ga_parse_sint(r->tok[i + 2].s, r->tok[i + 2].n, &ev->stride) != 0)
            return expected(r, err, i + 2, "a stride (a signed 64-bit integer)");
        if (shared && !shared_strided_ok(ev->lane[0].off, ev->stride, ev->mask)) {
            rerr(r, err, r->tok[i + 2].col, "a shared lane address SA + lane * stride leaves 0..0xffffffff");
            return -1;
        }
        if (i + 3 < r->ntok) return expected(r, err, i + 3, "end of line after the stride");
        return 0;
    }
    if (i < r->ntok && tok_is(&r->tok[i], "list")) {
        ev->strided = false;
        unsigned have = r->ntok - i - 1u;
        if (have != need) {
            size_t col = r->tok[i].col;
            rerr(r, err, col, "expected %u address(es) after 'list' (one per active lane of mask 0x%08" PRIx32
                 "), got %u", need, ev->mask, have);
            return -1;
        }
        unsigned k = i + 1;
        for (unsigned l = 0; l < GA_TRACE_LANES; l++) {
            if (!(ev->mask >> l & 1u)) continue;
            if (shared) {
                uint64_t sa;
                if (tok_uint(r, err, k, UINT32_MAX, "a shared address (0..0xffffffff)", &sa)) return -1;
                ev->lane[l].off = sa;
            } else if (tok_ptr(r, err, k, &ev->lane[l])) {
                return -1;
            }
            k++;
        }
        return 0;
    }
    return expected(r, err, i, "'stride' or 'list'");
}

/* SM and WARP at tokens i, i + 1. */
static int parse_sm_warp(ga_trace_reader_t *r, ga_trace_err_t *err, unsigned i, ga_tev_t *ev)
{
    uint64_t v;
    if (r->hdr.sms) {
        char what[64];
        snprintf(what, sizeof what, "an SM number below the header's sms=%" PRIu32, r->hdr.sms);
        if (tok_uint(r, err, i, r->hdr.sms - 1u, what, &v)) return -1;
    } else if (tok_uint(r, err, i, 65535u, "an SM number (0..65535)", &v)) {
        return -1;
    }
    ev->sm = (uint16_t)v;
    if (tok_uint(r, err, i + 1, 65535u, "a warp number (0..65535)", &v)) return -1;
    ev->warp = (uint16_t)v;
    return 0;
}

/* SIZE and MASK at tokens i, i + 1. */
static int parse_size_mask(ga_trace_reader_t *r, ga_trace_err_t *err, unsigned i, ga_tev_t *ev)
{
    uint64_t v;
    if (i >= r->ntok || ga_parse_uint(r->tok[i].s, r->tok[i].n, 16, &v) != 0 ||
        (v != 1 && v != 2 && v != 4 && v != 8 && v != 16))
        return expected(r, err, i, "an access size of 1, 2, 4, 8 or 16 bytes");
    ev->size = (uint32_t)v;
    if (i + 1 >= r->ntok || ga_parse_uint(r->tok[i + 1].s, r->tok[i + 1].n, UINT32_MAX, &v) != 0 || v == 0)
        return expected(r, err, i + 1, "an active mask (1..0xffffffff)");
    ev->mask = (uint32_t)v;
    return 0;
}

/* An error unless a kernel is running. */
static int need_kernel(ga_trace_reader_t *r, ga_trace_err_t *err, const char *kw)
{
    if (r->in_kernel) return 0;
    rerr(r, err, r->tok[0].col, "'%s' outside a kernel (expected 'kernel NAME' before it)", kw);
    return -1;
}

/* An error unless the line ends before token i. */
static int no_more(ga_trace_reader_t *r, ga_trace_err_t *err, unsigned i)
{
    if (i < r->ntok) return expected(r, err, i, "end of line");
    return 0;
}

/* The header line (docs/traces.md §3). */
static int parse_header(ga_trace_reader_t *r, ga_trace_err_t *err)
{
    if (!tok_is(&r->tok[0], GA_TRACE_FORMAT)) return expected(r, err, 0, "the header 'gatrace 2' (or 'gatrace 1') first");
    uint64_t v;
    if (r->ntok < 2 || ga_parse_uint(r->tok[1].s, r->tok[1].n, UINT64_MAX, &v) != 0)
        return expected(r, err, 1, "a format version number");
    if (v < GA_TRACE_VERSION_MIN || v > GA_TRACE_VERSION) {
        rerr(r, err, r->tok[1].col, "unsupported gatrace version %" PRIu64 " (this reader knows versions %u to %u)",
             v, GA_TRACE_VERSION_MIN, GA_TRACE_VERSION);
        return -1;
    }
    r->hdr.version = (unsigned)v;
    bool seen_sms = false, seen_alloc = false, seen_tb = false;
    for (unsigned i = 2; i < r->ntok; i++) {
        const tok_t *t = &r->tok[i];
        if (t->n > 4 && memcmp(t->s, "sms=", 4) == 0) {
            if (seen_sms) {
                rerr(r, err, t->col, "duplicate header attribute 'sms'");
                return -1;
            }
            seen_sms = true;
            if (ga_parse_uint(t->s + 4, t->n - 4, 65536u, &v) != 0 || v == 0) {
                char q[48];
                rerr(r, err, t->col + 4, "expected sms=N with N in 1..65536, got '%s'", tq(t, q));
                return -1;
            }
            r->hdr.sms = (uint32_t)v;
        } else if (t->n > 6 && memcmp(t->s, "alloc=", 6) == 0) {
            if (seen_alloc) {
                rerr(r, err, t->col, "duplicate header attribute 'alloc'");
                return -1;
            }
            seen_alloc = true;
            if (t->n == 11 && memcmp(t->s + 6, "fixed", 5) == 0) r->hdr.fixed = true;
            else if (t->n == 10 && memcmp(t->s + 6, "auto", 4) == 0) r->hdr.fixed = false;
            else return expected(r, err, i, "alloc=auto or alloc=fixed");
        } else if (t->n > 9 && memcmp(t->s, "tag_bits=", 9) == 0 && r->hdr.version >= 2u) {
            if (seen_tb) {
                rerr(r, err, t->col, "duplicate header attribute 'tag_bits'");
                return -1;
            }
            seen_tb = true;
            if (ga_parse_uint(t->s + 9, t->n - 9, 16u, &v) != 0 || (v != 7u && v != 16u)) {
                char q[48];
                rerr(r, err, t->col + 9, "expected tag_bits=7 or tag_bits=16, got '%s'", tq(t, q));
                return -1;
            }
            r->hdr.tag_bits = (unsigned)v;
        } else if (t->n > 9 && memcmp(t->s, "tag_bits=", 9) == 0) {
            rerr(r, err, t->col, "header attribute 'tag_bits' needs format version 2 ('gatrace 2')");
            return -1;
        } else {
            return expected(r, err, i, r->hdr.version >= 2u ? "a header attribute sms=N, alloc=auto|fixed or tag_bits=7|16"
                                                             : "a header attribute sms=N or alloc=auto|fixed");
        }
    }
    r->have_hdr = true;
    return 0;
}

/* alloc ID SIZE [at ADDR] (docs/traces.md §3, §5 rules 2 and 3). */
static int parse_alloc(ga_trace_reader_t *r, ga_trace_err_t *err, ga_tev_t *ev)
{
    uint64_t id;
    if (r->ntok < 2 || parse_id(&r->tok[1], &id) != 0) return expected(r, err, 1, "an allocation ID aN");
    uint32_t s = find_slot(r, id);
    if (s != UINT32_MAX) {
        rerr(r, err, r->tok[1].col, "allocation a%" PRIu64 " already allocated at line %" PRIu64
             " (IDs are never reused)", id, r->slots[s].line);
        return -1;
    }
    if (tok_uint(r, err, 2, UINT64_MAX, "an allocation size (1..2^64-1)", &ev->bytes)) return -1;
    if (ev->bytes == 0) return expected(r, err, 2, "an allocation size (1..2^64-1)");
    if (r->ntok > 3) {
        if (!tok_is(&r->tok[3], "at")) return expected(r, err, 3, r->hdr.fixed ? "'at'" : "end of line");
        if (!r->hdr.fixed) {
            rerr(r, err, r->tok[3].col, "unexpected 'at': the header does not declare alloc=fixed");
            return -1;
        }
        if (tok_uint(r, err, 4, UINT64_MAX, "an address (1..2^64-1)", &ev->at)) return -1;
        if (ev->at == 0) return expected(r, err, 4, "an address (1..2^64-1)");
        if (ev->bytes - 1u > UINT64_MAX - ev->at) {
            rerr(r, err, r->tok[4].col, "the allocation [address, address + size) passes 2^64");
            return -1;
        }
        ev->fixed = true;
        if (no_more(r, err, 5)) return -1;
    } else if (r->hdr.fixed) {
        return expected(r, err, 3, "'at ADDR' (the header declares alloc=fixed)");
    }
    s = add_slot(r, id, r->lineno);
    if (s == UINT32_MAX) {
        rerr(r, err, r->tok[1].col, "out of memory for allocation IDs");
        return -1;
    }
    ev->id = id;
    ev->slot = s;
    return 0;
}

/* free ID: the ID must be allocated and not freed yet. */
static int parse_free(ga_trace_reader_t *r, ga_trace_err_t *err, ga_tev_t *ev)
{
    uint64_t id;
    if (r->ntok < 2 || parse_id(&r->tok[1], &id) != 0) return expected(r, err, 1, "an allocation ID aN");
    uint32_t s = find_slot(r, id);
    if (s == UINT32_MAX) {
        rerr(r, err, r->tok[1].col, "free of unknown allocation a%" PRIu64 " (no earlier 'alloc a%" PRIu64 "')", id,
             id);
        return -1;
    }
    if (r->slots[s].freed && r->hdr.version < 2u) {
        rerr(r, err, r->tok[1].col, "allocation a%" PRIu64 " already freed at line %" PRIu64
             " (a deliberate double free needs format version 2)", id, r->slots[s].freed);
        return -1;
    }
    if (no_more(r, err, 2)) return -1;
    ev->again = r->slots[s].freed != 0;
    if (!ev->again) r->slots[s].freed = r->lineno;
    ev->id = id;
    ev->slot = s;
    return 0;
}

/* One record line (tokens ready). */
static int parse_record(ga_trace_reader_t *r, ga_trace_err_t *err, ga_tev_t *ev)
{
    const tok_t *k = &r->tok[0];
    int kind = -1;
    for (int i = 0; i < (int)GA_TEV_KINDS; i++)
        if (tok_is(k, tev_names[i])) kind = i;
    bool v2 = r->hdr.version >= 2u;
    if (kind == (int)GA_TEV_FREEP && !v2) {
        rerr(r, err, k->col, "record 'freep' needs format version 2 ('gatrace 2')");
        return -1;
    }
    if (kind < 0) {
        char q[48];
        if (tok_is(k, GA_TRACE_FORMAT)) rerr(r, err, k->col, "a second header line");
        else if (tok_is(k, "eof") && !v2) rerr(r, err, k->col, "record 'eof' needs format version 2 ('gatrace 2')");
        else rerr(r, err, k->col, "unknown record '%s' (expected alloc, free, %skernel, end, loadmeta, ld, st, lds or sts%s)",
                  tq(k, q), v2 ? "freep, " : "", v2 ? ", or eof at the end" : "");
        return -1;
    }
    ev->kind = (ga_tev_kind_t)kind;
    switch (ev->kind) {
    case GA_TEV_ALLOC: return parse_alloc(r, err, ev);
    case GA_TEV_FREE: return parse_free(r, err, ev);
    case GA_TEV_FREEP:
        if (tok_ptr(r, err, 1, &ev->root) || no_more(r, err, 2)) return -1;
        ev->root_kind = GA_ROOT_PTR;
        return 0;
    case GA_TEV_KERNEL:
        if (r->ntok < 2) return expected(r, err, 1, "a kernel name");
        if (r->tok[1].n > GA_TRACE_NAME_MAX) {
            rerr(r, err, r->tok[1].col, "kernel name longer than %u bytes", GA_TRACE_NAME_MAX);
            return -1;
        }
        if (no_more(r, err, 2)) return -1;
        if (r->in_kernel) {
            rerr(r, err, k->col, "'kernel' while kernel '%s' (line %" PRIu64 ") runs (expected 'end' first)",
                 r->kernel_name, r->kernel_line);
            return -1;
        }
        memcpy(ev->name, r->tok[1].s, r->tok[1].n);
        ev->name[r->tok[1].n] = '\0';
        memcpy(r->kernel_name, ev->name, r->tok[1].n + 1u);
        r->in_kernel = true;
        r->kernel_line = r->lineno;
        return 0;
    case GA_TEV_END:
        if (no_more(r, err, 1)) return -1;
        if (!r->in_kernel) {
            rerr(r, err, k->col, "'end' with no kernel running");
            return -1;
        }
        r->in_kernel = false;
        return 0;
    case GA_TEV_LOADMETA:
        if (need_kernel(r, err, "loadmeta") || parse_sm_warp(r, err, 1, ev) || tok_ptr(r, err, 3, &ev->root) ||
            no_more(r, err, 4))
            return -1;
        ev->root_kind = GA_ROOT_PTR;
        return 0;
    case GA_TEV_LD:
    case GA_TEV_ST:
        if (need_kernel(r, err, tev_names[kind]) || parse_sm_warp(r, err, 1, ev) || parse_size_mask(r, err, 3, ev))
            return -1;
        if (r->ntok > 5 && tok_is(&r->tok[5], "root=lane")) {
            ev->root_kind = GA_ROOT_LANE;
        } else if (r->ntok > 5 && tok_is(&r->tok[5], "root=none")) {
            ev->root_kind = GA_ROOT_NONE;
        } else if (r->ntok > 5 && r->tok[5].n > 5 && memcmp(r->tok[5].s, "root=", 5) == 0) {
            /* parse the PTR after "root=" as its own token */
            tok_t save = r->tok[5];
            r->tok[5].s += 5;
            r->tok[5].n -= 5;
            r->tok[5].col += 5;
            int rc = tok_ptr(r, err, 5, &ev->root);
            r->tok[5] = save;
            if (rc) return -1;
            ev->root_kind = GA_ROOT_PTR;
        } else {
            return expected(r, err, 5, "a root annotation root=PTR, root=lane or root=none");
        }
        return parse_addrs(r, err, 6, false, ev);
    case GA_TEV_LDS:
    case GA_TEV_STS: {
        if (need_kernel(r, err, tev_names[kind]) || parse_sm_warp(r, err, 1, ev) || parse_size_mask(r, err, 3, ev))
            return -1;
        uint64_t v;
        if (tok_uint(r, err, 5, UINT32_MAX, "a shared base (0..0xffffffff)", &v)) return -1;
        ev->sbase = (uint32_t)v;
        if (tok_uint(r, err, 6, UINT32_MAX, "a shared size (0..0xffffffff)", &v)) return -1;
        ev->ssize = (uint32_t)v;
        return parse_addrs(r, err, 7, true, ev);
    }
    default: return -1;
    }
}

/* See ga_trace.h. */
int ga_trace_open_src(ga_trace_reader_t **out, const ga_line_src_t *src, ga_trace_err_t *err)
{
    *out = NULL;
    ga_trace_reader_t *r = calloc(1, sizeof *r);
    if (r == NULL || src->next == NULL) {
        snprintf(err->msg, sizeof err->msg, "%s: out of memory", src->name ? src->name : "trace");
        free(r);
        if (src->close) src->close(src->ctx);
        return -1;
    }
    r->src = *src;
    if (r->src.name == NULL) r->src.name = "trace";
    *out = r;
    return 0;
}

/* See ga_trace.h. */
int ga_trace_open(ga_trace_reader_t **out, const char *path, ga_trace_err_t *err)
{
    ga_line_src_t src;
    *out = NULL;
    if (ga_line_src_file(&src, path, err) != 0) return -1;
    return ga_trace_open_src(out, &src, err);
}

/* See ga_trace.h. */
int ga_trace_open_mem(ga_trace_reader_t **out, const char *name, const void *buf, size_t len, ga_trace_err_t *err)
{
    ga_line_src_t src;
    ga_line_src_mem(&src, name, buf, len);
    return ga_trace_open_src(out, &src, err);
}

/* See ga_trace.h. */
int ga_trace_next(ga_trace_reader_t *r, ga_tev_t *ev, ga_trace_err_t *err)
{
    if (r->state < 0) {
        *err = r->last_err;
        return -1;
    }
    if (r->state > 0) return 0;
    for (;;) {
        size_t len = 0;
        int rc = r->src.next(r->src.ctx, r->line, sizeof r->line, &len, &r->last_err);
        if (rc < 0) {
            r->state = -1;
            *err = r->last_err;
            return -1;
        }
        if (rc == 0) {
            if (!r->have_hdr) {
                rerr(r, err, 0, "no header: expected 'gatrace 2' as the first line that is not blank or a comment");
                return -1;
            }
            if (r->hdr.version >= 2u && !r->ended) {
                if (r->in_kernel)
                    rerr(r, err, 0, "end of input inside kernel '%s' (line %" PRIu64 ") and before the end-of-trace "
                         "record 'eof': the trace is truncated", r->kernel_name, r->kernel_line);
                else
                    rerr(r, err, 0, "end of input before the end-of-trace record 'eof': the trace is truncated (a "
                         "version-2 trace ends with 'eof'; writers emit it with ga_trace_write_end)");
                return -1;
            }
            if (r->in_kernel) {
                rerr(r, err, 0, "end of file inside kernel '%s' (line %" PRIu64 "): expected 'end'", r->kernel_name,
                     r->kernel_line);
                return -1;
            }
            r->state = 1;
            return 0;
        }
        r->lineno++;
        if (tokenize(r, len, err) != 0) return -1;
        if (r->ntok == 0) continue;
        if (!r->have_hdr) {
            if (parse_header(r, err) != 0) return -1;
            continue;
        }
        if (r->ended) {
            rerr(r, err, r->tok[0].col, "a record after the end-of-trace record 'eof' (line %" PRIu64 ")", r->eof_line);
            return -1;
        }
        if (r->hdr.version >= 2u && tok_is(&r->tok[0], "eof")) {
            if (no_more(r, err, 1)) return -1;
            if (r->in_kernel) {
                rerr(r, err, r->tok[0].col, "'eof' while kernel '%s' (line %" PRIu64 ") runs (expected 'end' first)",
                     r->kernel_name, r->kernel_line);
                return -1;
            }
            r->ended = true;
            r->eof_line = r->lineno;
            continue; /* lines after it must be blank or comments: read on to the end */
        }
        memset(ev, 0, sizeof *ev);
        ev->line = r->lineno;
        if (parse_record(r, err, ev) != 0) return -1;
        return 1;
    }
}

/* See ga_trace.h. */
const ga_trace_header_t *ga_trace_header(const ga_trace_reader_t *r) { return &r->hdr; }
/* See ga_trace.h. */
bool ga_trace_ended(const ga_trace_reader_t *r) { return r->ended; }
/* See ga_trace.h. */
uint32_t ga_trace_slots(const ga_trace_reader_t *r) { return r->nslots; }
/* See ga_trace.h. */
uint64_t ga_trace_slot_id(const ga_trace_reader_t *r, uint32_t slot)
{
    return slot < r->nslots ? r->slots[slot].id : 0u;
}
/* See ga_trace.h. */
const char *ga_trace_name(const ga_trace_reader_t *r) { return r->src.name; }
/* See ga_trace.h. */
uint64_t ga_trace_lines(const ga_trace_reader_t *r) { return r->lineno; }

/* See ga_trace.h. */
void ga_trace_origin(const ga_trace_reader_t *r, const char **file, uint64_t *line)
{
    if (r->src.origin && r->src.origin(r->src.ctx, file, line)) return;
    *file = r->src.name;
    *line = r->lineno;
}

/* See ga_trace.h. */
void ga_trace_progress(const ga_trace_reader_t *r, uint64_t *done, uint64_t *total)
{
    *done = 0;
    *total = 0;
    if (r->src.progress) r->src.progress(r->src.ctx, done, total);
}

/* See ga_trace.h. */
void ga_trace_close(ga_trace_reader_t *r)
{
    if (r == NULL) return;
    if (r->src.close) r->src.close(r->src.ctx);
    free(r->slots);
    free(r->hash);
    free(r);
}

/* ---------------------------------------------------------------------------------------------------
 * The writer. */

typedef struct {
    char *b;
    size_t cap, n;
    bool over;
} sbuf_t;

static void sb_printf(sbuf_t *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* printf into the writer's buffer; marks it overflowed instead of truncating. */
static void sb_printf(sbuf_t *s, const char *fmt, ...)
{
    if (s->over) return;
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(s->b + s->n, s->cap - s->n, fmt, ap);
    va_end(ap);
    if (k < 0 || (size_t)k >= s->cap - s->n) {
        s->over = true;
        return;
    }
    s->n += (size_t)k;
}

/* A pointer expression as written (with a leading space). */
static void sb_ptr(sbuf_t *s, const ga_tptr_t *p)
{
    if (p->is_alloc) {
        if (p->neg && p->off != 0) sb_printf(s, " a%" PRIu64 "-0x%" PRIx64, p->id, (uint64_t)0 - p->off);
        else if (p->off != 0) sb_printf(s, " a%" PRIu64 "+0x%" PRIx64, p->id, p->off);
        else sb_printf(s, " a%" PRIu64, p->id);
    } else {
        sb_printf(s, " 0x%" PRIx64, p->off);
    }
    if (p->set_tag) sb_printf(s, ":t0x%x", (unsigned)p->tag);
}

/* A stride: decimal when non-negative, -0x... when negative. */
static void sb_stride(sbuf_t *s, int64_t st)
{
    if (st < 0) sb_printf(s, " -0x%" PRIx64, (uint64_t)0 - (uint64_t)st);
    else sb_printf(s, " %" PRId64, st);
}

/* A kernel name the reader accepts: 1..255 printable bytes, no space or #. */
static bool name_ok(const char *n)
{
    size_t len = strnlen(n, GA_TRACE_NAME_MAX + 1u);
    if (len == 0 || len > GA_TRACE_NAME_MAX) return false;
    for (size_t i = 0; i < len; i++)
        if (n[i] <= 0x20 || n[i] > 0x7e || n[i] == '#') return false;
    return true;
}

/* An access size of 1, 2, 4, 8 or 16. */
static bool size_ok(uint32_t s) { return s == 1 || s == 2 || s == 4 || s == 8 || s == 16; }

/* See ga_trace.h. */
int ga_trace_format_event(const ga_tev_t *ev, char *buf, size_t cap)
{
    if (cap == 0) return -1;
    sbuf_t s = {buf, cap, 0, false};
    buf[0] = '\0';
    switch (ev->kind) {
    case GA_TEV_ALLOC:
        if (ev->bytes == 0) return -1;
        sb_printf(&s, "alloc a%" PRIu64 " %" PRIu64, ev->id, ev->bytes);
        if (ev->fixed) {
            if (ev->at == 0 || ev->bytes - 1u > UINT64_MAX - ev->at) return -1;
            sb_printf(&s, " at 0x%" PRIx64, ev->at);
        }
        break;
    case GA_TEV_FREE: sb_printf(&s, "free a%" PRIu64, ev->id); break;
    case GA_TEV_FREEP:
        sb_printf(&s, "freep");
        sb_ptr(&s, &ev->root);
        break;
    case GA_TEV_KERNEL:
        if (!name_ok(ev->name)) return -1;
        sb_printf(&s, "kernel %s", ev->name);
        break;
    case GA_TEV_END: sb_printf(&s, "end"); break;
    case GA_TEV_LOADMETA:
        sb_printf(&s, "loadmeta %u %u", (unsigned)ev->sm, (unsigned)ev->warp);
        sb_ptr(&s, &ev->root);
        break;
    case GA_TEV_LD:
    case GA_TEV_ST:
    case GA_TEV_LDS:
    case GA_TEV_STS: {
        bool shared = ev->kind == GA_TEV_LDS || ev->kind == GA_TEV_STS;
        if (!size_ok(ev->size) || ev->mask == 0) return -1;
        sb_printf(&s, "%s %u %u %u 0x%08" PRIx32, tev_names[ev->kind], (unsigned)ev->sm, (unsigned)ev->warp,
                  (unsigned)ev->size, ev->mask);
        if (shared) {
            sb_printf(&s, " %" PRIu32 " %" PRIu32, ev->sbase, ev->ssize);
        } else if (ev->root_kind == GA_ROOT_LANE) {
            sb_printf(&s, " root=lane");
        } else if (ev->root_kind == GA_ROOT_NONE) {
            sb_printf(&s, " root=none");
        } else if (ev->root_kind == GA_ROOT_PTR) {
            sb_printf(&s, " root=");
            size_t mark = s.n;
            sb_ptr(&s, &ev->root);
            /* sb_ptr writes a leading space: remove it */
            if (!s.over && s.n > mark) {
                memmove(s.b + mark, s.b + mark + 1, s.n - mark);
                s.n--;
            }
        } else {
            return -1;
        }
        if (ev->strided) {
            if (shared) {
                if (ev->lane[0].is_alloc || ev->lane[0].set_tag || ev->lane[0].off > UINT32_MAX ||
                    !shared_strided_ok(ev->lane[0].off, ev->stride, ev->mask))
                    return -1;
                sb_printf(&s, " stride 0x%" PRIx64, ev->lane[0].off);
            } else {
                sb_printf(&s, " stride");
                sb_ptr(&s, &ev->lane[0]);
            }
            sb_stride(&s, ev->stride);
        } else {
            sb_printf(&s, " list");
            for (unsigned l = 0; l < GA_TRACE_LANES; l++) {
                if (!(ev->mask >> l & 1u)) continue;
                if (shared) {
                    if (ev->lane[l].is_alloc || ev->lane[l].set_tag || ev->lane[l].off > UINT32_MAX) return -1;
                    sb_printf(&s, " 0x%" PRIx64, ev->lane[l].off);
                } else {
                    sb_ptr(&s, &ev->lane[l]);
                }
            }
        }
        break;
    }
    default: return -1;
    }
    if (s.over) return -1;
    return (int)s.n;
}

/* See ga_trace.h. */
int ga_trace_format_header(const ga_trace_header_t *h, char *buf, size_t cap)
{
    unsigned v = h->version ? h->version : GA_TRACE_VERSION;
    if (cap == 0 || h->sms > 65536u || v < GA_TRACE_VERSION_MIN || v > GA_TRACE_VERSION) return -1;
    if ((h->tag_bits != 0u && h->tag_bits != 7u && h->tag_bits != 16u) || (h->tag_bits && v < 2u)) return -1;
    sbuf_t s = {buf, cap, 0, false};
    sb_printf(&s, "%s %u", GA_TRACE_FORMAT, v);
    if (h->sms) sb_printf(&s, " sms=%" PRIu32, h->sms);
    if (h->fixed) sb_printf(&s, " alloc=fixed");
    if (h->tag_bits) sb_printf(&s, " tag_bits=%u", h->tag_bits);
    return s.over ? -1 : (int)s.n;
}

/* See ga_trace.h. */
int ga_trace_format_end(char *buf, size_t cap)
{
    if (cap < 4u) return -1;
    memcpy(buf, "eof", 4);
    return 3;
}

/* See ga_trace.h. */
int ga_trace_write_event(FILE *f, const ga_tev_t *ev)
{
    char buf[GA_TRACE_LINE_MAX];
    int n = ga_trace_format_event(ev, buf, sizeof buf);
    if (n < 0) return -1;
    buf[n] = '\n';
    return fwrite(buf, 1, (size_t)n + 1u, f) == (size_t)n + 1u ? 0 : -1;
}

/* See ga_trace.h. */
int ga_trace_write_header(FILE *f, const ga_trace_header_t *h)
{
    char buf[128];
    int n = ga_trace_format_header(h, buf, sizeof buf);
    if (n < 0) return -1;
    return fprintf(f, "%s\n", buf) < 0 ? -1 : 0;
}

/* See ga_trace.h. */
int ga_trace_write_end(FILE *f) { return fputs("eof\n", f) < 0 ? -1 : 0; }

/* Two pointer expressions denote the same value for every binding of allocations. */
static bool ptr_equal(const ga_tptr_t *a, const ga_tptr_t *b)
{
    if (a->is_alloc != b->is_alloc || a->off != b->off || a->set_tag != b->set_tag) return false;
    if (a->set_tag && a->tag != b->tag) return false;
    return !a->is_alloc || a->id == b->id;
}

/* See ga_trace.h. */
bool ga_tev_equal(const ga_tev_t *a, const ga_tev_t *b)
{
    if (a->kind != b->kind) return false;
    switch (a->kind) {
    case GA_TEV_ALLOC:
        return a->id == b->id && a->bytes == b->bytes && a->fixed == b->fixed && (!a->fixed || a->at == b->at);
    case GA_TEV_FREE: return a->id == b->id;
    case GA_TEV_FREEP: return ptr_equal(&a->root, &b->root);
    case GA_TEV_KERNEL: return strncmp(a->name, b->name, sizeof a->name) == 0;
    case GA_TEV_END: return true;
    case GA_TEV_LOADMETA: return a->sm == b->sm && a->warp == b->warp && ptr_equal(&a->root, &b->root);
    case GA_TEV_LD:
    case GA_TEV_ST:
    case GA_TEV_LDS:
    case GA_TEV_STS: {
        bool shared = a->kind == GA_TEV_LDS || a->kind == GA_TEV_STS;
        if (a->sm != b->sm || a->warp != b->warp || a->size != b->size || a->mask != b->mask ||
            a->strided != b->strided)
            return false;
        if (shared) {
            if (a->sbase != b->sbase || a->ssize != b->ssize) return false;
        } else {
            if (a->root_kind != b->root_kind) return false;
            if (a->root_kind == GA_ROOT_PTR && !ptr_equal(&a->root, &b->root)) return false;
        }
        if (a->strided) return a->stride == b->stride && ptr_equal(&a->lane[0], &b->lane[0]);
        for (unsigned l = 0; l < GA_TRACE_LANES; l++)
            if ((a->mask >> l & 1u) && !ptr_equal(&a->lane[l], &b->lane[l])) return false;
        return true;
    }
    default: return false;
    }
}

/* See ga_trace.h. */
bool ga_tptr_eval(const ga_tptr_t *p, const uint64_t *ptrs, uint32_t nslots, unsigned tag_bits, uint64_t *value)
{
    uint64_t v = p->off;
    if (p->is_alloc) {
        if (p->slot >= nslots) return false;
        v += ptrs[p->slot]; /* modulo 2^64 */
    }
    if (p->set_tag) {
        if (tag_bits != 7u && tag_bits != 16u) return false;
        if ((uint64_t)p->tag >> tag_bits) return false;
        uint64_t vmask = (UINT64_C(1) << (64u - tag_bits)) - 1u;
        v = ((uint64_t)p->tag << (64u - tag_bits)) | (v & vmask);
    }
    *value = v;
    return true;
}
