/*
 * emu_printf.c — device-side printf (CUDA's vprintf(format, args)) and string reads for assert
 * messages (emu_internal.h).
 *
 * nvcc passes printf arguments in a local buffer with every argument at its natural alignment after the
 * default promotions of a variadic call: int-sized integers (%d %i %u %x %X %o %c, with h and hh too)
 * take 4 bytes, l/ll/z/j/t integers and pointers (%p %s) 8 bytes, floating-point values (%f %e %g %a,
 * float promoted to double) 8 bytes.
 */
#include "emu_internal.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

void emu_read_cstr(emu_reader_fn rd, void *ctx, uint64_t addr, char *buf, size_t cap)
{
    if (cap == 0) return;
    size_t k = 0;
    for (; k + 1 < cap; k++) {
        char c;
        if (!rd(ctx, addr + k, &c, 1)) {
            if (k == 0) {
                snprintf(buf, cap, "<unreadable>");
                return;
            }
            break;
        }
        if (c == 0) break;
        buf[k] = c;
    }
    buf[k] = 0;
}

/* Append to out. */
typedef struct {
    char *out;
    size_t cap, len;
} sbuf_t;

static void put(sbuf_t *b, const char *s, size_t n)
{
    for (size_t i = 0; i < n && b->len + 1 < b->cap; i++) b->out[b->len++] = s[i];
    if (b->cap) b->out[b->len < b->cap ? b->len : b->cap - 1] = 0;
}

int emu_format_printf(emu_reader_fn rd, void *ctx, uint64_t fmt, uint64_t args, char *out, size_t cap)
{
    char f[4096];
    size_t flen = 0;
    for (; flen + 1 < sizeof f; flen++) {
        char c;
        if (!rd(ctx, fmt + flen, &c, 1)) {
            if (flen == 0) return -1;
            break;
        }
        if (c == 0) break;
        f[flen] = c;
    }
    f[flen] = 0;
    sbuf_t b = {out, cap, 0};
    if (cap) out[0] = 0;
    uint64_t off = 0;
    for (size_t i = 0; i < flen;) {
        if (f[i] != '%') {
            size_t j = i;
            while (j < flen && f[j] != '%') j++;
            put(&b, f + i, j - i);
            i = j;
            continue;
        }
        if (i + 1 < flen && f[i + 1] == '%') {
            put(&b, "%", 1);
            i += 2;
            continue;
        }
        /* %[flags][width][.prec][length]conv */
        size_t j = i + 1;
        while (j < flen && strchr("-+ #0", f[j])) j++;
        while (j < flen && f[j] >= '0' && f[j] <= '9') j++;
        if (j < flen && f[j] == '.') {
            j++;
            while (j < flen && f[j] >= '0' && f[j] <= '9') j++;
        }
        int lng = 0; /* 0 int, 1 long, -1 short */
        size_t lstart = j;
        while (j < flen && strchr("hlLqjzt", f[j])) {
            if (f[j] == 'l' || f[j] == 'L' || f[j] == 'q' || f[j] == 'j' || f[j] == 'z' || f[j] == 't') lng = 1;
            j++;
        }
        if (j >= flen) {
            put(&b, f + i, flen - i);
            break;
        }
        char conv = f[j];
        /* the spec without its length modifier, for the host's snprintf */
        char spec[64];
        size_t sl = lstart - i;
        if (sl > sizeof spec - 8) sl = sizeof spec - 8;
        memcpy(spec, f + i, sl);
        char tmp[512];
        int n = 0;
        switch (conv) {
        case 'd':
        case 'i':
        case 'u':
        case 'x':
        case 'X':
        case 'o':
        case 'c': {
            unsigned sz = lng > 0 ? 8 : 4;
            off = (off + sz - 1) / sz * sz;
            uint64_t v = 0;
            if (!rd(ctx, args + off, &v, sz)) {
                put(&b, "<bad>", 5);
                off += sz;
                break;
            }
            off += sz;
            bool sgn = conv == 'd' || conv == 'i';
            if (conv == 'c') {
                memcpy(spec + sl, "c", 2);
                n = snprintf(tmp, sizeof tmp, spec, (int)(int32_t)v);
            } else if (sgn) {
                memcpy(spec + sl, PRId64, strlen(PRId64) + 1);
                int64_t sv = sz == 8 ? (int64_t)v : (int64_t)(int32_t)v;
                n = snprintf(tmp, sizeof tmp, spec, sv);
            } else {
                const char *p = conv == 'u' ? PRIu64 : conv == 'x' ? PRIx64 : conv == 'X' ? PRIX64 : PRIo64;
                memcpy(spec + sl, p, strlen(p) + 1);
                uint64_t uv = sz == 8 ? v : (uint32_t)v;
                n = snprintf(tmp, sizeof tmp, spec, uv);
            }
            break;
        }
        case 'f':
        case 'F':
        case 'e':
        case 'E':
        case 'g':
        case 'G':
        case 'a':
        case 'A': {
            off = (off + 7u) & ~UINT64_C(7);
            double v = 0;
            if (!rd(ctx, args + off, &v, 8)) {
                put(&b, "<bad>", 5);
                off += 8;
                break;
            }
            off += 8;
            spec[sl] = conv;
            spec[sl + 1] = 0;
            n = snprintf(tmp, sizeof tmp, spec, v);
            break;
        }
        case 'p': {
            off = (off + 7u) & ~UINT64_C(7);
            uint64_t v = 0;
            bool ok = rd(ctx, args + off, &v, 8);
            off += 8;
            n = ok ? snprintf(tmp, sizeof tmp, "0x%" PRIx64, v) : snprintf(tmp, sizeof tmp, "<bad>");
            break;
        }
        case 's': {
            off = (off + 7u) & ~UINT64_C(7);
            uint64_t v = 0;
            bool ok = rd(ctx, args + off, &v, 8);
            off += 8;
            char str[256];
            if (ok)
                emu_read_cstr(rd, ctx, v, str, sizeof str);
            else
                snprintf(str, sizeof str, "<bad>");
            spec[sl] = 's';
            spec[sl + 1] = 0;
            n = snprintf(tmp, sizeof tmp, spec, str);
            break;
        }
        default: /* unknown conversion: print it as written */
            put(&b, f + i, j + 1 - i);
            break;
        }
        if (n > 0) put(&b, tmp, (size_t)n < sizeof tmp ? (size_t)n : sizeof tmp - 1);
        i = j + 1;
    }
    return (int)b.len;
}
