/*
 * test_trace.c — the gatrace reader, writer, replay and the gasim / gaconv tools (docs/traces.md).
 *
 * - accept table: valid lines decode to the records docs/traces.md §3–§4 say;
 * - reject table: every malformed input fails with "t:LINE[:COL]: message" at the right place;
 * - line sources: long lines, NUL bytes, CRLF, a missing last newline, gzip (whole and truncated);
 * - round trips: parse -> canonical text -> parse gives equal records (sample traces included);
 * - replay: hand-written traces with known detections in compiler and HWOnly mode on every layout
 *   and both tag widths, the LOADMETA cache rules of §6.3, the latency model of §6.6, replay errors;
 * - gasim / gaconv end to end (in-process): exit codes, --error-exitcode, JSON and CSV output, no
 *   output file after an error.
 * No timing asserts.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <zlib.h>

#include "trace/ga_replay.h"
#include "trace_helpers.h"

#define SAMPLE_BASIC "sim/traces/basic.gatrace"
#define SAMPLE_CLEAN "sim/traces/clean.gatrace"

/* Parse text completely; returns the final rc (0 or -1), records in evs (up to max), count in *n. */
static int parse_all(const char *text, size_t len, ga_tev_t *evs, size_t max, size_t *n, ga_trace_err_t *err)
{
    ga_trace_reader_t *r;
    ck_assert_int_eq(ga_trace_open_mem(&r, "t", text, len, err), 0);
    ga_tev_t ev;
    int rc;
    *n = 0;
    while ((rc = ga_trace_next(r, &ev, err)) > 0) {
        if (*n < max) evs[*n] = ev;
        (*n)++;
    }
    /* errors and ends are sticky */
    ga_trace_err_t again;
    ck_assert_int_eq(ga_trace_next(r, &ev, &again), rc);
    if (rc < 0) ck_assert_str_eq(again.msg, err->msg);
    ga_trace_close(r);
    return rc;
}

static int parse_str(const char *text, ga_tev_t *evs, size_t max, size_t *n, ga_trace_err_t *err)
{
    return parse_all(text, strlen(text), evs, max, n, err);
}

/* True when s ends with suffix. */
static bool th_ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    return n >= k && strcmp(s + n - k, suffix) == 0;
}

/* ---------------------------------------------------------------------------------------------------
 * Numbers. */

START_TEST(test_numbers)
{
    uint64_t v;
    int64_t s;
    ck_assert_int_eq(ga_parse_uint("0", 1, 10, &v), 0);
    ck_assert_uint_eq(v, 0);
    ck_assert_int_eq(ga_parse_uint("0010", 4, 100, &v), 0);
    ck_assert_uint_eq(v, 10);
    ck_assert_int_eq(ga_parse_uint("0XfF", 4, 255, &v), 0);
    ck_assert_uint_eq(v, 255);
    ck_assert_int_eq(ga_parse_uint("256", 3, 255, &v), -1);
    ck_assert_int_eq(ga_parse_uint("18446744073709551615", 20, UINT64_MAX, &v), 0);
    ck_assert_uint_eq(v, UINT64_MAX);
    ck_assert_int_eq(ga_parse_uint("18446744073709551616", 20, UINT64_MAX, &v), -1);
    ck_assert_int_eq(ga_parse_uint("0xffffffffffffffff", 18, UINT64_MAX, &v), 0);
    ck_assert_int_eq(ga_parse_uint("0x10000000000000000", 19, UINT64_MAX, &v), -1);
    ck_assert_int_eq(ga_parse_uint("0x", 2, UINT64_MAX, &v), -1);
    ck_assert_int_eq(ga_parse_uint("", 0, UINT64_MAX, &v), -1);
    ck_assert_int_eq(ga_parse_uint("+1", 2, UINT64_MAX, &v), -1);
    ck_assert_int_eq(ga_parse_uint("-1", 2, UINT64_MAX, &v), -1);
    ck_assert_int_eq(ga_parse_uint("1a", 2, UINT64_MAX, &v), -1);
    ck_assert_int_eq(ga_parse_sint("-9223372036854775808", 20, &s), 0);
    ck_assert(s == INT64_MIN);
    ck_assert_int_eq(ga_parse_sint("9223372036854775807", 19, &s), 0);
    ck_assert(s == INT64_MAX);
    ck_assert_int_eq(ga_parse_sint("9223372036854775808", 19, &s), -1);
    ck_assert_int_eq(ga_parse_sint("-9223372036854775809", 20, &s), -1);
    ck_assert_int_eq(ga_parse_sint("-0x10", 5, &s), 0);
    ck_assert(s == -16);
    ck_assert_int_eq(ga_parse_sint("-", 1, &s), -1);
    ck_assert_int_eq(ga_parse_hex_bare("ffffffff", 8, &v), 0);
    ck_assert_uint_eq(v, 0xffffffffu);
    ck_assert_int_eq(ga_parse_hex_bare("0x1", 3, &v), -1);
    ck_assert_int_eq(ga_parse_hex_bare("11111111111111111", 17, &v), -1);
}
END_TEST

/* ---------------------------------------------------------------------------------------------------
 * Accept table. */

START_TEST(test_accept)
{
    ga_tev_t ev[16];
    size_t n;
    ga_trace_err_t err;
    /* header attributes in any order, tabs, comments, CRLF, no final newline */
    const char *t1 = "# leading comment\n\n"
                     "gatrace 1 alloc=auto\tsms=3   # trailing comment \x01\xff\r\n"
                     "alloc\ta5 0x100\r\n"
                     "kernel _Z3fooPi.v2$<x>\n"
                     "ld 2 65535 16 0XFFFFFFFF root=a5+0x10 stride a5-16 -4\n"
                     "st 0 7 1 0x80000001 root=lane list a5:t0 0x0a00000000000010\n"
                     "loadmeta 1 1 18446744073709551615:t65535\n"
                     "ld 0 0 2 1 root=none list a5+18446744073709551615\n"
                     "lds 0 3 8 0x3 16 32 stride 0xfffffff0 8\n"
                     "sts 1 0 4 0x2 0 0 list 0xffffffff\n"
                     "free a5\n"
                     "end";
    ck_assert_int_eq(parse_str(t1, ev, 16, &n, &err), 0);
    ck_assert_uint_eq(n, 10);
    ck_assert_int_eq(ev[0].kind, GA_TEV_ALLOC);
    ck_assert_uint_eq(ev[0].id, 5);
    ck_assert_uint_eq(ev[0].bytes, 256);
    ck_assert(!ev[0].fixed);
    ck_assert_uint_eq(ev[0].line, 4);
    ck_assert_int_eq(ev[1].kind, GA_TEV_KERNEL);
    ck_assert_str_eq(ev[1].name, "_Z3fooPi.v2$<x>");
    const ga_tev_t *ld = &ev[2];
    ck_assert_int_eq(ld->kind, GA_TEV_LD);
    ck_assert_uint_eq(ld->sm, 2);
    ck_assert_uint_eq(ld->warp, 65535);
    ck_assert_uint_eq(ld->size, 16);
    ck_assert_uint_eq(ld->mask, 0xffffffffu);
    ck_assert_int_eq(ld->root_kind, GA_ROOT_PTR);
    ck_assert(ld->root.is_alloc && ld->root.id == 5 && ld->root.off == 16 && !ld->root.set_tag);
    ck_assert(ld->strided && ld->stride == -4);
    ck_assert(ld->lane[0].is_alloc && ld->lane[0].neg && ld->lane[0].off == (uint64_t)0 - 16u);
    const ga_tev_t *st = &ev[3];
    ck_assert_int_eq(st->root_kind, GA_ROOT_LANE);
    ck_assert(!st->strided);
    ck_assert(st->lane[0].is_alloc && st->lane[0].set_tag && st->lane[0].tag == 0);
    ck_assert(!st->lane[31].is_alloc && st->lane[31].off == UINT64_C(0x0a00000000000010));
    ck_assert_int_eq(ev[4].kind, GA_TEV_LOADMETA);
    ck_assert(ev[4].root.off == UINT64_MAX && ev[4].root.set_tag && ev[4].root.tag == 65535);
    ck_assert_int_eq(ev[5].root_kind, GA_ROOT_NONE);
    ck_assert_uint_eq(ev[5].lane[0].off, UINT64_MAX);
    ck_assert_int_eq(ev[6].kind, GA_TEV_LDS);
    ck_assert_uint_eq(ev[6].sbase, 16);
    ck_assert_uint_eq(ev[6].ssize, 32);
    ck_assert_uint_eq(ev[6].lane[0].off, 0xfffffff0u);
    ck_assert_int_eq(ev[7].kind, GA_TEV_STS);
    ck_assert_uint_eq(ev[7].lane[1].off, 0xffffffffu);
    ck_assert_int_eq(ev[8].kind, GA_TEV_FREE);
    ck_assert_int_eq(ev[9].kind, GA_TEV_END);

    /* fixed addresses, the largest allocation that fits */
    ck_assert_int_eq(parse_str("gatrace 1 alloc=fixed\nalloc a0 16 at 0xfffffffffffffff0\n"
                               "alloc a1 18446744073709551615 at 1\n",
                               ev, 16, &n, &err),
                     0);
    ck_assert_uint_eq(n, 2);
    ck_assert(ev[0].fixed && ev[0].at == UINT64_C(0xfffffffffffffff0));
    ck_assert_uint_eq(ev[1].slot, 1);
    /* a header alone is a valid (empty) trace; a dangling pointer to a freed ID is fine */
    ck_assert_int_eq(parse_str("gatrace 1", ev, 16, &n, &err), 0);
    ck_assert_uint_eq(n, 0);
    ck_assert_int_eq(parse_str("gatrace 1\nalloc a1 8\nfree a1\nkernel k\nld 0 0 8 1 root=a1 list a1\nend\n", ev, 16,
                               &n, &err),
                     0);
}
END_TEST

/* ---------------------------------------------------------------------------------------------------
 * Reject table: each entry's message must start with the expected "t:LINE[:COL]: " and contain the
 * expected text. */

typedef struct {
    const char *text;
    const char *where; /* "t:2:10: " */
    const char *what;
} reject_t;

#define H "gatrace 1\n"
#define K H "kernel k\n"
static const reject_t rejects[] = {
    {"", "t:1: ", "no header"},
    {"# only a comment\n\n", "t:2: ", "no header"},
    {"alloc a0 16\n", "t:1:1: ", "expected the header 'gatrace 2' (or 'gatrace 1') first, got 'alloc'"},
    {"gatrace\n", "t:1:8: ", "expected a format version number, got end of line"},
    {"gatrace 3\n", "t:1:9: ", "unsupported gatrace version 3 (this reader knows versions 1 to 2)"},
    {"gatrace 0\n", "t:1:9: ", "unsupported gatrace version 0"},
    {"gatrace 1 sms=0\n", "t:1:15: ", "expected sms=N with N in 1..65536"},
    {"gatrace 1 sms=65537\n", "t:1:15: ", "expected sms=N"},
    {"gatrace 1 sms=4 sms=4\n", "t:1:17: ", "duplicate header attribute 'sms'"},
    {"gatrace 1 alloc=fixed alloc=auto\n", "t:1:23: ", "duplicate header attribute 'alloc'"},
    {"gatrace 1 foo=1\n", "t:1:11: ", "expected a header attribute sms=N or alloc=auto|fixed, got 'foo=1'"},
    {"gatrace 1 alloc=weird\n", "t:1:11: ", "expected alloc=auto or alloc=fixed"},
    {H "gatrace 1\n", "t:2:1: ", "a second header line"},
    {H "bogus 1 2\n", "t:2:1: ", "unknown record 'bogus'"},
    {H "ALLOC a0 1\n", "t:2:1: ", "unknown record 'ALLOC'"},
    {H "alloc a0 0\n", "t:2:10: ", "expected an allocation size (1..2^64-1), got '0'"},
    {H "alloc a0 18446744073709551616\n", "t:2:10: ", "expected an allocation size"},
    {H "alloc a0\n", "t:2:9: ", "expected an allocation size (1..2^64-1), got end of line"},
    {H "alloc b0 16\n", "t:2:7: ", "expected an allocation ID aN, got 'b0'"},
    {H "alloc a0x1 16\n", "t:2:7: ", "expected an allocation ID aN"},
    {H "alloc a 16\n", "t:2:7: ", "expected an allocation ID aN"},
    {H "alloc a0 16\nalloc a0 16\n", "t:3:7: ", "allocation a0 already allocated at line 2 (IDs are never reused)"},
    {H "alloc a0 16\nfree a0\nalloc a0 16\n", "t:4:7: ", "already allocated at line 2"},
    {H "alloc a0 16 at 0x1000\n", "t:2:13: ", "unexpected 'at': the header does not declare alloc=fixed"},
    {H "alloc a0 16 x\n", "t:2:13: ", "expected end of line, got 'x'"},
    {"gatrace 1 alloc=fixed\nalloc a0 16\n", "t:2:12: ", "expected 'at ADDR' (the header declares alloc=fixed)"},
    {"gatrace 1 alloc=fixed\nalloc a0 16 by 0x10\n", "t:2:13: ", "expected 'at', got 'by'"},
    {"gatrace 1 alloc=fixed\nalloc a0 16 at 0\n", "t:2:16: ", "expected an address (1..2^64-1), got '0'"},
    {"gatrace 1 alloc=fixed\nalloc a0 0x20 at 0xfffffffffffffff0\n", "t:2:18: ", "passes 2^64"},
    {"gatrace 1 alloc=fixed\nalloc a0 16 at 0x10 extra\n", "t:2:21: ", "expected end of line, got 'extra'"},
    {H "free a3\n", "t:2:6: ", "free of unknown allocation a3 (no earlier 'alloc a3')"},
    {H "alloc a0 16\nfree a0\nfree a0\n", "t:4:6: ", "allocation a0 already freed at line 3 (a deliberate double free needs format version 2)"},
    /* version 2 only: freep, eof, tag_bits */
    {H "freep 0x1000\n", "t:2:1: ", "record 'freep' needs format version 2 ('gatrace 2')"},
    {H "eof\n", "t:2:1: ", "record 'eof' needs format version 2"},
    {"gatrace 1 tag_bits=7\n", "t:1:11: ", "header attribute 'tag_bits' needs format version 2"},
    /* version 2: the end-of-trace record is required, last, and outside kernels */
    {"gatrace 2\n", "t:1: ", "end of input before the end-of-trace record 'eof': the trace is truncated"},
    {"gatrace 2\nalloc a0 16\nkernel k\nend\n", "t:4: ", "the trace is truncated"},
    {"gatrace 2\nkernel k\n", "t:2: ", "end of input inside kernel 'k' (line 2) and before the end-of-trace record"},
    {"gatrace 2\nkernel k\neof\n", "t:3:1: ", "'eof' while kernel 'k' (line 2) runs (expected 'end' first)"},
    {"gatrace 2\neof\nalloc a0 16\n", "t:3:1: ", "a record after the end-of-trace record 'eof' (line 2)"},
    {"gatrace 2\neof\neof\n", "t:3:1: ", "a record after the end-of-trace record"},
    {"gatrace 2\neof x\n", "t:2:5: ", "expected end of line, got 'x'"},
    {"gatrace 2 tag_bits=8\neof\n", "t:1:20: ", "expected tag_bits=7 or tag_bits=16, got 'tag_bits=8'"},
    {"gatrace 2 tag_bits=16 tag_bits=16\neof\n", "t:1:23: ", "duplicate header attribute 'tag_bits'"},
    {"gatrace 2 tags=7\neof\n", "t:1:11: ", "expected a header attribute sms=N, alloc=auto|fixed or tag_bits=7|16"},
    {"gatrace 2\nfree a0\neof\n", "t:2:6: ", "free of unknown allocation a0"},
    {"gatrace 2\nfreep\neof\n", "t:2:6: ", "expected a pointer"},
    {"gatrace 2\nfreep a4\neof\n", "t:2:7: ", "unknown allocation a4"},
    {"gatrace 2\nfreep 0 1\neof\n", "t:2:9: ", "expected end of line, got '1'"},
    {"gatrace 2\nbad\neof\n", "t:2:1: ", "unknown record 'bad' (expected alloc, free, freep, kernel, end, loadmeta, ld, st, lds or sts, or eof at the end)"},
    {H "alloc a0 16\nfree a0 a0\n", "t:3:9: ", "expected end of line, got 'a0'"},
    {H "free\n", "t:2:5: ", "expected an allocation ID aN, got end of line"},
    {H "ld 0 0 4 0x1 root=none list 0\n", "t:2:1: ", "'ld' outside a kernel (expected 'kernel NAME' before it)"},
    {H "sts 0 0 4 0x1 0 4 list 0\n", "t:2:1: ", "'sts' outside a kernel"},
    {H "loadmeta 0 0 0\n", "t:2:1: ", "'loadmeta' outside a kernel"},
    {K "kernel j\n", "t:3:1: ", "'kernel' while kernel 'k' (line 2) runs (expected 'end' first)"},
    {H "end\n", "t:2:1: ", "'end' with no kernel running"},
    {K "end x\n", "t:3:5: ", "expected end of line, got 'x'"},
    {H "kernel\n", "t:2:7: ", "expected a kernel name, got end of line"},
    {H "kernel a b\n", "t:2:10: ", "expected end of line, got 'b'"},
    {K, "t:2: ", "end of file inside kernel 'k' (line 2): expected 'end'"},
    {K "ld 0 0 3 0x1 root=none list 0\n", "t:3:8: ", "expected an access size of 1, 2, 4, 8 or 16 bytes, got '3'"},
    {K "ld 0 0 32 0x1 root=none list 0\n", "t:3:8: ", "expected an access size"},
    {K "ld 0 0 4 0 root=none list\n", "t:3:10: ", "expected an active mask (1..0xffffffff), got '0'"},
    {K "ld 0 0 4 0x100000000 root=none list 0\n", "t:3:10: ", "expected an active mask"},
    {K "ld 0 0 4 0x1 root=foo list 0\n", "t:3:19: ", "expected a pointer (aID[+-OFF] or a number, optionally :tTAG), got 'foo'"},
    {K "ld 0 0 4 0x1 list 0\n", "t:3:14: ", "expected a root annotation root=PTR, root=lane or root=none, got 'list'"},
    {K "ld 0 0 4 0x1 root= list 0\n", "t:3:14: ", "expected a root annotation"},
    {K "ld 0 0 4 0x3 root=none list 0\n", "t:3:24: ", "expected 2 address(es) after 'list' (one per active lane of mask 0x00000003), got 1"},
    {K "ld 0 0 4 0x1 root=none list 0 1\n", "t:3:24: ", "expected 1 address(es)"},
    {K "ld 0 0 4 0x1 root=a9 list 0\n", "t:3:19: ", "unknown allocation a9 (no earlier 'alloc a9' line)"},
    {K "ld 0 0 4 0x1 root=none list a9+4\n", "t:3:29: ", "unknown allocation a9"},
    {K "ld 0 0 4 0x1 root=none stride 0 x\n", "t:3:33: ", "expected a stride (a signed 64-bit integer), got 'x'"},
    {K "ld 0 0 4 0x1 root=none stride 0\n", "t:3:32: ", "expected a stride (a signed 64-bit integer), got end of line"},
    {K "ld 0 0 4 0x1 root=none stride 0 9223372036854775808\n", "t:3:33: ", "expected a stride"},
    {K "ld 0 0 4 0x1 root=none stride 0 4 5\n", "t:3:35: ", "expected end of line after the stride, got '5'"},
    {K "ld 0 0 4 0x1 root=none strides 0 4\n", "t:3:24: ", "expected 'stride' or 'list', got 'strides'"},
    {K "ld 0 0 4 0x1 root=none list 0:t65536\n", "t:3:30: ", "expected a tag override ':tTAG' with TAG in 0..65535 in '0:t65536'"},
    {K "ld 0 0 4 0x1 root=none list 0:x5\n", "t:3:30: ", "expected a tag override"},
    {K "ld 0 0 4 0x1 root=none list 0:t\n", "t:3:30: ", "expected a tag override"},
    {H "alloc a0 4\nkernel k\nld 0 0 4 0x1 root=none list a0+18446744073709551616\n", "t:4:32: ",
     "expected an offset (a number below 2^64) after '+' in 'a0+18446744073709551616'"},
    {H "alloc a0 4\nkernel k\nld 0 0 4 0x1 root=none list a0+\n", "t:4:32: ", "expected an offset"},
    {H "alloc a0 4\nkernel k\nld 0 0 4 0x1 root=none list a0*2\n", "t:4:29: ", "expected a pointer"},
    {K "ld 0 0 4 0x1 root=none list a\n", "t:3:29: ", "expected a pointer"},
    {K "ld 0 0 4 0x1 root=none list 0x\n", "t:3:29: ", "expected a pointer"},
    {K "ld 0 0 4 0x1 root=none list -1\n", "t:3:29: ", "expected a pointer"},
    {K "ld 65536 0 4 0x1 root=none list 0\n", "t:3:4: ", "expected an SM number (0..65535), got '65536'"},
    {K "ld 0 65536 4 0x1 root=none list 0\n", "t:3:6: ", "expected a warp number (0..65535)"},
    {"gatrace 1 sms=2\nkernel k\nld 2 0 4 0x1 root=none list 0\n", "t:3:4: ", "expected an SM number below the header's sms=2"},
    {K "lds 0 0 4 0x1 0 16 list 0x100000000\n", "t:3:25: ", "expected a shared address (0..0xffffffff)"},
    {K "lds 0 0 4 0x1 0 16 list a0\n", "t:3:25: ", "expected a shared address"},
    {K "lds 0 0 4 0x1 0x100000000 16 list 0\n", "t:3:15: ", "expected a shared base (0..0xffffffff)"},
    {K "lds 0 0 4 0x1 0 0x100000000 list 0\n", "t:3:17: ", "expected a shared size (0..0xffffffff)"},
    {K "lds 0 0 4 0x3 0 16 stride 0xffffffff 1\n", "t:3:38: ", "a shared lane address SA + lane * stride leaves 0..0xffffffff"},
    {K "lds 0 0 4 0x3 0 16 stride 0 -1\n", "t:3:29: ", "leaves 0..0xffffffff"},
    {K "lds 0 0 4 0x80000000 0 16 stride 0 0x8421085\n", "t:3:36: ", "leaves"},
    {K "lds 0 0 4 0x80000000 0 16 stride 0 0x8421084\nend\nbad\n", "t:5:1: ", "unknown record 'bad'"}, /* 31 * it fits */
    {K "loadmeta 0 0\n", "t:3:13: ", "expected a pointer (aID[+-OFF] or a number, optionally :tTAG), got end of line"},
    {K "loadmeta 0 0 1 2\n", "t:3:16: ", "expected end of line, got '2'"},
    {H "alloc a0\x01 16\n", "t:2:9: ", "unexpected byte 0x01 (only printable ASCII and tabs outside comments)"},
    {H "alloc \xc3\xa9 16\n", "t:2:7: ", "unexpected byte 0xc3"},
};
#undef H
#undef K

START_TEST(test_reject)
{
    const reject_t *t = &rejects[_i];
    ga_tev_t ev[8];
    size_t n;
    ga_trace_err_t err;
    ck_assert_int_eq(parse_str(t->text, ev, 8, &n, &err), -1);
    ck_assert_msg(strncmp(err.msg, t->where, strlen(t->where)) == 0 && strstr(err.msg, t->what) != NULL,
                  "case %d: got '%s', expected '%s...%s'", _i, err.msg, t->where, t->what);
}
END_TEST

/* Errors that need bytes strlen cannot carry, or long lines. */
START_TEST(test_reject_bytes)
{
    ga_tev_t ev[4];
    size_t n;
    ga_trace_err_t err;
    static const char nul[] = "gatrace 1\nalloc a0\0 16\n";
    ck_assert_int_eq(parse_all(nul, sizeof nul - 1, ev, 4, &n, &err), -1);
    ck_assert_str_eq(err.msg, "t:2:9: NUL byte in the line");
    static const char nul_comment[] = "gatrace 1 # x\0y\n";
    ck_assert_int_eq(parse_all(nul_comment, sizeof nul_comment - 1, ev, 4, &n, &err), -1);
    ck_assert_str_eq(err.msg, "t:1:14: NUL byte in the line");

    /* a line of exactly 4095 bytes is fine, 4096 is not (the count excludes '\n', includes a '\r') */
    size_t cap = 3 * GA_TRACE_LINE_MAX;
    char *b = malloc(cap);
    ck_assert_ptr_nonnull(b);
    for (int extra = 0; extra < 2; extra++) {
        size_t len = (size_t)snprintf(b, cap, "gatrace 1\n#");
        size_t want = GA_TRACE_LINE_MAX - 1u + (size_t)extra;
        memset(b + len, 'x', want - 1u);
        len += want - 1u;
        memcpy(b + len, "\nkernel k\nend\r\n", 15);
        len += 15;
        int rc = parse_all(b, len, ev, 4, &n, &err);
        if (extra == 0) {
            ck_assert_int_eq(rc, 0);
            ck_assert_uint_eq(n, 2);
        } else {
            ck_assert_int_eq(rc, -1);
            ck_assert_str_eq(err.msg, "t:2: line longer than 4095 bytes");
        }
    }
    /* too many fields */
    size_t len = (size_t)snprintf(b, cap, "gatrace 1\nkernel k\nld 0 0 4 0xffffffff root=none list");
    for (int i = 0; i < 45; i++) len += (size_t)snprintf(b + len, cap - len, " %d", i);
    ck_assert_int_eq(parse_all(b, len, ev, 4, &n, &err), -1);
    ck_assert_msg(strstr(err.msg, "t:3:") == err.msg && strstr(err.msg, "too many fields"), "%s", err.msg);
    /* kernel name of 256 bytes */
    len = (size_t)snprintf(b, cap, "gatrace 1\nkernel ");
    memset(b + len, 'k', 256);
    len += 256;
    ck_assert_int_eq(parse_all(b, len, ev, 4, &n, &err), -1);
    ck_assert_str_eq(err.msg, "t:2:8: kernel name longer than 255 bytes");
    free(b);
}
END_TEST

/* ---------------------------------------------------------------------------------------------------
 * Files: plain, gzip, truncated gzip, missing, directory. */

START_TEST(test_files)
{
    char dir[256], p[512];
    th_tmpdir(dir, sizeof dir);
    const char *text = "gatrace 1\nalloc a0 64\nkernel k\nld 0 0 4 0x1 root=a0 list a0+60\nend\n";
    /* gzip */
    snprintf(p, sizeof p, "%s/x.gatrace.gz", dir);
    gzFile gz = gzopen(p, "wb");
    ck_assert_ptr_nonnull(gz);
    ck_assert_int_eq(gzputs(gz, text), (int)strlen(text));
    ck_assert_int_eq(gzclose(gz), Z_OK);
    ga_trace_reader_t *r;
    ga_trace_err_t err;
    ga_tev_t ev;
    ck_assert_int_eq(ga_trace_open(&r, p, &err), 0);
    int n = 0, rc;
    while ((rc = ga_trace_next(r, &ev, &err)) > 0) n++;
    ck_assert_int_eq(rc, 0);
    ck_assert_int_eq(n, 4);
    ck_assert_int_eq(ev.kind, GA_TEV_END);
    uint64_t done, total;
    ga_trace_progress(r, &done, &total);
    ck_assert_uint_gt(total, 0);
    ga_trace_close(r);
    /* truncated gzip: an error, not a silent short trace */
    char *whole = th_slurp(p);
    ck_assert_ptr_nonnull(whole);
    FILE *f = fopen(p, "rb");
    fseek(f, 0, SEEK_END);
    long sz = ftell(f);
    fclose(f);
    char *raw = malloc((size_t)sz);
    f = fopen(p, "rb");
    ck_assert_uint_eq(fread(raw, 1, (size_t)sz, f), (size_t)sz);
    fclose(f);
    snprintf(p, sizeof p, "%s/cut.gatrace.gz", dir);
    th_write(p, raw, (size_t)sz - 12u);
    ck_assert_int_eq(ga_trace_open(&r, p, &err), 0);
    while ((rc = ga_trace_next(r, &ev, &err)) > 0) continue;
    ck_assert_int_eq(rc, -1);
    ck_assert_msg(strstr(err.msg, "cut.gatrace.gz:") && strstr(err.msg, "gzip"), "%s", err.msg);
    ga_trace_close(r);
    free(raw);
    free(whole);
    /* a file name does not decide: plain text named .gz is read as text */
    snprintf(p, sizeof p, "%s/plain.gz", dir);
    th_write(p, text, strlen(text));
    ck_assert_int_eq(ga_trace_open(&r, p, &err), 0);
    n = 0;
    while ((rc = ga_trace_next(r, &ev, &err)) > 0) n++;
    ck_assert_int_eq(rc, 0);
    ck_assert_int_eq(n, 4);
    ga_trace_close(r);
    /* missing file, directory */
    snprintf(p, sizeof p, "%s/none.gatrace", dir);
    ck_assert_int_eq(ga_trace_open(&r, p, &err), -1);
    ck_assert_ptr_null(r);
    ck_assert_msg(strstr(err.msg, "none.gatrace: cannot open: No such file"), "%s", err.msg);
    ck_assert_int_eq(ga_trace_open(&r, dir, &err), -1);
    ck_assert_msg(strstr(err.msg, "is a directory"), "%s", err.msg);
    th_rmdir(dir);
}
END_TEST

/* ---------------------------------------------------------------------------------------------------
 * Round trips. */

/* Parse the file, write every record canonically, parse that, compare. */
static void round_trip_file(const char *path)
{
    char *text = th_slurp(path);
    ck_assert_msg(text != NULL, "cannot read %s", path);
    enum { MAXEV = 512 };
    ga_tev_t *a = calloc(MAXEV, sizeof *a), *b = calloc(MAXEV, sizeof *b);
    ck_assert(a && b);
    size_t na, nb;
    ga_trace_err_t err;
    ga_trace_reader_t *r;
    ck_assert_int_eq(ga_trace_open_mem(&r, path, text, strlen(text), &err), 0);
    ga_tev_t ev;
    int rc = ga_trace_next(r, &ev, &err);
    ck_assert_int_ge(rc, 0);
    size_t cap = 1u << 20, len = 0;
    char *out = malloc(cap);
    int k = ga_trace_format_header(ga_trace_header(r), out, cap);
    ck_assert_int_gt(k, 0);
    len = (size_t)k;
    out[len++] = '\n';
    na = 0;
    while (rc > 0) {
        ck_assert_uint_lt(na, MAXEV);
        a[na++] = ev;
        k = ga_trace_format_event(&ev, out + len, cap - len);
        ck_assert_int_gt(k, 0);
        len += (size_t)k;
        out[len++] = '\n';
        rc = ga_trace_next(r, &ev, &err);
    }
    ck_assert_msg(rc == 0, "%s", err.msg);
    if (ga_trace_header(r)->version >= 2u) { /* a complete version-2 trace ends with eof */
        ck_assert(ga_trace_ended(r));
        k = ga_trace_format_end(out + len, cap - len);
        ck_assert_int_eq(k, 3);
        len += 3u;
        out[len++] = '\n';
    }
    ga_trace_close(r);
    ck_assert_int_eq(parse_all(out, len, b, MAXEV, &nb, &err), 0);
    ck_assert_uint_eq(na, nb);
    for (size_t i = 0; i < na; i++) ck_assert_msg(ga_tev_equal(&a[i], &b[i]), "%s: record %zu differs", path, i);
    free(out);
    free(a);
    free(b);
    free(text);
}

START_TEST(test_round_trip)
{
    round_trip_file(SAMPLE_BASIC);
    round_trip_file(SAMPLE_CLEAN);
    round_trip_file("tests/fuzz/corpus/fixed.gatrace");
    round_trip_file("tests/fuzz/corpus/many.gatrace");
    /* the writer refuses what the reader would refuse */
    ga_tev_t ev;
    char buf[GA_TRACE_LINE_MAX];
    memset(&ev, 0, sizeof ev);
    ev.kind = GA_TEV_LD;
    ev.size = 3;
    ev.mask = 1;
    ck_assert_int_eq(ga_trace_format_event(&ev, buf, sizeof buf), -1);
    ev.size = 4;
    ev.mask = 0;
    ck_assert_int_eq(ga_trace_format_event(&ev, buf, sizeof buf), -1);
    ev.mask = 1;
    ck_assert_int_gt(ga_trace_format_event(&ev, buf, sizeof buf), 0);
    ck_assert_str_eq(buf, "ld 0 0 4 0x00000001 root=0x0 list 0x0");
    ck_assert_int_eq(ga_trace_format_event(&ev, buf, 10), -1); /* too small */
    ev.kind = GA_TEV_KERNEL;
    strcpy(ev.name, "has space");
    ck_assert_int_eq(ga_trace_format_event(&ev, buf, sizeof buf), -1);
    ev.kind = GA_TEV_LDS;
    ev.strided = true;
    ev.lane[0].off = 0xfffffff0u;
    ev.stride = 16;
    ev.mask = 3;
    ck_assert_int_eq(ga_trace_format_event(&ev, buf, sizeof buf), -1); /* lane 1 leaves 32 bits */
    ga_trace_header_t h = {.version = 1, .sms = 70000};
    ck_assert_int_eq(ga_trace_format_header(&h, buf, sizeof buf), -1);
    /* versions and attributes: 0 is the current version; tag_bits needs version 2 */
    h = (ga_trace_header_t){.version = 0, .sms = 4, .fixed = true, .tag_bits = 16};
    ck_assert_int_gt(ga_trace_format_header(&h, buf, sizeof buf), 0);
    ck_assert_str_eq(buf, "gatrace 2 sms=4 alloc=fixed tag_bits=16");
    h.version = 1;
    ck_assert_int_eq(ga_trace_format_header(&h, buf, sizeof buf), -1);
    h.tag_bits = 0;
    ck_assert_int_gt(ga_trace_format_header(&h, buf, sizeof buf), 0);
    ck_assert_str_eq(buf, "gatrace 1 sms=4 alloc=fixed");
    h.version = 3;
    ck_assert_int_eq(ga_trace_format_header(&h, buf, sizeof buf), -1);
    h = (ga_trace_header_t){.version = 2, .tag_bits = 8};
    ck_assert_int_eq(ga_trace_format_header(&h, buf, sizeof buf), -1);
    ck_assert_int_eq(ga_trace_format_end(buf, sizeof buf), 3);
    ck_assert_str_eq(buf, "eof");
    ck_assert_int_eq(ga_trace_format_end(buf, 3), -1);
    /* tags are written in hexadecimal, like every other report of them */
    memset(&ev, 0, sizeof ev);
    ev.kind = GA_TEV_FREEP;
    ev.root.off = 0x1000;
    ev.root.set_tag = true;
    ev.root.tag = 0x7e;
    ck_assert_int_gt(ga_trace_format_event(&ev, buf, sizeof buf), 0);
    ck_assert_str_eq(buf, "freep 0x1000:t0x7e");
}
END_TEST

/* ---------------------------------------------------------------------------------------------------
 * Replay. */

/* Replay text with the configuration; returns the replay (caller destroys) or NULL with err. */
static ga_replay_t *replay_text(const char *text, const ga_replay_cfg_t *cfg, ga_trace_err_t *err)
{
    ga_trace_reader_t *r;
    ck_assert_int_eq(ga_trace_open_mem(&r, "t", text, strlen(text), err), 0);
    ga_replay_t *rp = NULL;
    int rc = ga_replay_run(&rp, cfg, r, NULL, NULL, err);
    ga_trace_close(r);
    if (rc != 0) ck_assert_ptr_null(rp);
    return rp;
}

static void cfg_for(ga_replay_cfg_t *c, ga_mode_t mode, ga_layout_t layout, unsigned tag_bits)
{
    ga_replay_default_cfg(c);
    c->mode = mode;
    c->layout = layout;
    c->tag_bits = tag_bits;
    c->md_capacity = 4096;
}

/* Detections as "KIND@line" joined by spaces. */
static void det_summary(const ga_replay_t *rp, char *buf, size_t cap)
{
    const ga_detection_t *d;
    size_t n = ga_replay_detections(rp, &d);
    size_t len = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < n && len < cap; i++)
        len += (size_t)snprintf(buf + len, cap - len, "%s%s@%llu", i ? " " : "", ga_exc_name(d[i].rec.kind),
                                (unsigned long long)d[i].line);
}

/* The documented example (docs/traces.md §11) on every layout and both tag widths: _i picks them. */
START_TEST(test_replay_basic)
{
    char *text = th_slurp(SAMPLE_BASIC);
    ck_assert_ptr_nonnull(text);
    ga_layout_t layout = (ga_layout_t)(_i % 3);
    unsigned tb = _i < 3 ? 7u : 16u;
    static const char *const want[2] = {"OUT_OF_BOUNDS@7 USE_AFTER_FREE@10 NO_METADATA@11",
                                        "NO_METADATA@7 USE_AFTER_FREE@10 NO_METADATA@11"};
    for (int m = 0; m < 2; m++) {
        ga_replay_cfg_t c;
        cfg_for(&c, (ga_mode_t)m, layout, tb);
        ga_trace_err_t err;
        ga_replay_t *rp = replay_text(text, &c, &err);
        ck_assert_msg(rp != NULL, "%s", err.msg);
        char got[256];
        det_summary(rp, got, sizeof got);
        ck_assert_msg(!strcmp(got, want[m]), "layout %d tag bits %u mode %d: %s", _i % 3, tb, m, got);
        const ga_replay_stats_t *s = ga_replay_stats(rp);
        ck_assert_uint_eq(s->detections, 3);
        ck_assert_uint_eq(s->global_accesses, 4);
        ck_assert_uint_eq(s->shared_accesses, 1);
        ck_assert_uint_eq(s->md_bytes_end, layout == GA_LAYOUT_TABLE ? 32u : 64u);
        const ga_detection_t *d;
        ck_assert_uint_eq(ga_replay_detections(rp, &d), 3);
        /* the out-of-bounds lane: lane 3, one past a1; named by trace ID */
        ck_assert_uint_eq(d[0].rec.lane, 3);
        ck_assert_uint_eq(d[0].fault_mask, 8);
        ck_assert_uint_eq(d[0].trace_sm, 1);
        ck_assert(!d[0].in_entry && d[0].near_found && d[0].near_named && d[0].near_id == 1 && d[0].near_dist == 1);
        if (m == 0) ck_assert(d[0].checked_named && d[0].checked_id == 1);
        /* the use after free lies inside freed a1 */
        ck_assert(d[1].in_entry && d[1].entry_freed && d[1].entry_named && d[1].entry_id == 1);
        ck_assert_str_eq(ga_replay_file_name(rp, d[1].file), "t");
        ck_assert_str_eq(ga_replay_kernel_name(rp, d[1].kernel), "saxpy");
        char line[1024];
        ga_replay_format_detection(rp, NULL, &d[0], line, sizeof line);
        ck_assert_msg(strstr(line, "t:7: kernel saxpy: ") == line, "%s", line);
        /* Compute Sanitizer's count: the first byte past the end is 1 byte after it (near_dist) */
        ck_assert_msg(strstr(line, "no allocation covers the address: 1 byte after the nearest allocation a1 at 0x"),
                      "%s", line);
        ck_assert_msg(strstr(line, " of size 256"), "%s", line);
        ck_assert(d[0].near_after);
        ck_assert(!d[0].walk_limited && d[0].walk_lanes == 0 && d[0].free_err == GA_OK);
        ck_assert_uint_eq(s->errors, 3);
        ck_assert_uint_eq(s->detections_walk, 0);
        ga_replay_destroy(rp);
    }
    free(text);
}
END_TEST

/* LOADMETA cache (docs/traces.md §6.3): once per (SM, warp, root) per kernel; explicit loadmeta
 * replaces; root=lane groups lanes by location; root=none is a plain access. */
START_TEST(test_replay_loadmeta_cache)
{
    ga_replay_cfg_t c;
    cfg_for(&c, GA_MODE_COMPILER, (ga_layout_t)_i, 7);
    ga_trace_err_t err;
    const char *t1 = "gatrace 1\nalloc a0 4096\nalloc a1 4096\n"
                     "kernel k1\n"
                     "ld 0 0 4 0xffffffff root=a0 stride a0 4\n"
                     "ld 0 0 4 0xffffffff root=a0 stride a0+128 4\n"
                     "ld 0 1 4 0xffffffff root=a0 stride a0+256 4\n" /* another warp: its own LOADMETA */
                     "ld 1 0 4 0xffffffff root=a0 stride a0 4\n"     /* another SM */
                     "ld 0 0 4 0xffffffff root=a0+4 stride a0+4 4\n" /* another root value */
                     "end\nkernel k2\n"
                     "ld 0 0 4 0xffffffff root=a0 stride a0 4\n" /* a new kernel: LOADMETA again */
                     "end\n";
    ga_replay_t *rp = replay_text(t1, &c, &err);
    ck_assert_msg(rp != NULL, "%s", err.msg);
    const ga_replay_stats_t *s = ga_replay_stats(rp);
    ck_assert_uint_eq(s->mlu.loadmeta, 5);
    ck_assert_uint_eq(s->mlu.memcheck_g, 6);
    ck_assert_uint_eq(s->mlu.loadmeta_hits, 3); /* warp 1, root a0+4 and kernel 2 hit SM 0's MLB */
    ck_assert_uint_eq(s->detections, 0);
    ga_replay_destroy(rp);

    const char *t2 = "gatrace 1\nalloc a0 4096\nalloc a1 4096\n"
                     "kernel k\n"
                     "ld 0 0 4 0xf root=lane list a0 a1+4 a0+4092 a1+4096\n" /* lane 3 strays past a1 */
                     "st 0 0 4 0x3 root=none list a0+4096 a1+9000\n"        /* unchecked in compiler mode */
                     "loadmeta 0 1 a1\n"
                     "free a1\n"
                     "ld 0 1 4 0x1 root=a1 list a1\n" /* LOADMETA ran before the free: freed tag seen */
                     "ld 0 2 4 0x1 root=a1 list a1\n" /* first LOADMETA after the free: no metadata */
                     "ld 0 3 4 0x1 root=a0 list a0+4096:t0\n" /* tag 0: unchecked */
                     "end\n";
    rp = replay_text(t2, &c, &err);
    ck_assert_msg(rp != NULL, "%s", err.msg);
    s = ga_replay_stats(rp);
    char got[256];
    det_summary(rp, got, sizeof got);
    /* root=lane: lane 3's own LOADMETA finds nothing (a1+4096 is past a1 and a0 sits below a1), so it
     * is checked alone with md 0: NO_METADATA. */
    ck_assert_msg(!strcmp(got, "NO_METADATA@5 USE_AFTER_FREE@9 NO_METADATA@10"), "%s", got);
    ck_assert_uint_eq(s->unchecked_accesses, 1);
    ck_assert_uint_eq(s->mlu.access, 1);
    /* 4 LOADMETAs for the 4 lanes, one explicit, one for warp 2, one for warp 3's root */
    ck_assert_uint_eq(s->mlu.loadmeta, 7);
    /* lanes 0/2 share a0's location, lane 1 has a1's, lane 3 has 0: three MEMCHECK.G; then 3 more */
    ck_assert_uint_eq(s->mlu.memcheck_g, 6);
    ga_replay_destroy(rp);

    /* the same in HWOnly: loadmeta lines ignored, root=none checked, lane 3 NO_METADATA */
    cfg_for(&c, GA_MODE_HWONLY, (ga_layout_t)_i, 7);
    rp = replay_text(t2, &c, &err);
    ck_assert_msg(rp != NULL, "%s", err.msg);
    det_summary(rp, got, sizeof got);
    /* line 6, lane 0: a0+4096 is a1's first byte with a0's tag (a stray into the neighbour) */
    ck_assert_msg(!strcmp(got, "NO_METADATA@5 TAG_MISMATCH@6 USE_AFTER_FREE@9 USE_AFTER_FREE@10"), "%s", got);
    s = ga_replay_stats(rp);
    ck_assert_uint_eq(s->mlu.memcheck_g, 0);
    ck_assert_uint_eq(s->mlu.access, 5);
    ga_replay_destroy(rp);
}
END_TEST

/* Strays into a neighbour: compiler mode checks the root's bounds (OUT_OF_BOUNDS); HWOnly sees the
 * neighbour's entry with another tag (TAG_MISMATCH). 16-bit tags: seed 1 gives the two allocations
 * different tags (a collision would show up here as a missing detection, deterministically). */
START_TEST(test_replay_neighbour)
{
    const char *t = "gatrace 1\nalloc a0 4096\nalloc a1 4096\nkernel k\n"
                    "ld 0 0 8 0x1 root=a0 list a0+4096\n"
                    "lds 0 0 4 0x1 0 64 list 64\n"
                    "lds 0 0 4 0x1 0 64 list 61\n"
                    "lds 0 0 4 0x1 0 64 list 60\n"
                    "end\n";
    ga_replay_cfg_t c;
    ga_trace_err_t err;
    char got[256];
    cfg_for(&c, GA_MODE_COMPILER, (ga_layout_t)_i, 16);
    ga_replay_t *rp = replay_text(t, &c, &err);
    ck_assert_msg(rp != NULL, "%s", err.msg);
    det_summary(rp, got, sizeof got);
    ck_assert_str_eq(got, "OUT_OF_BOUNDS@5 SHARED_OUT_OF_BOUNDS@6 SHARED_OUT_OF_BOUNDS@7");
    const ga_detection_t *d;
    ga_replay_detections(rp, &d);
    ck_assert(d[0].in_entry && !d[0].entry_freed && d[0].entry_id == 1 && d[0].checked_id == 0);
    ga_replay_destroy(rp);
    cfg_for(&c, GA_MODE_HWONLY, (ga_layout_t)_i, 16);
    rp = replay_text(t, &c, &err);
    ck_assert_msg(rp != NULL, "%s", err.msg);
    det_summary(rp, got, sizeof got);
    ck_assert_str_eq(got, "TAG_MISMATCH@5");
    ck_assert_uint_eq(ga_replay_stats(rp)->shared_unchecked, 3);
    ga_replay_destroy(rp);
}
END_TEST

/* Replay errors name the line; nothing is kept. */
START_TEST(test_replay_errors)
{
    ga_replay_cfg_t c;
    ga_trace_err_t err;
    cfg_for(&c, GA_MODE_COMPILER, GA_LAYOUT_BST, 7);
    ck_assert_ptr_null(replay_text("gatrace 1 alloc=fixed\nalloc a0 4096 at 0x10000\nalloc a1 16 at 0x10ff0\n", &c, &err));
    ck_assert_str_eq(err.msg, "t:3: alloc a1: the runtime refused it: [0x10ff0, +16) overlaps live allocation a0 "
                              "[0x10000, +4096)");
    const char *wide = "gatrace 1\nalloc a0 16\nkernel k\nld 0 0 4 0x1 root=a0 list a0:t200\nend\n";
    ck_assert_ptr_null(replay_text(wide, &c, &err));
    ck_assert_str_eq(err.msg, "t:4: tag override :t0xc8 does not fit 7 tag bits");
    c.tag_bits = 16;
    ga_replay_t *rp = replay_text(wide, &c, &err);
    ck_assert_msg(rp != NULL, "%s", err.msg);
    ck_assert_uint_eq(ga_replay_stats(rp)->detections, 1); /* a forged tag: TAG_MISMATCH */
    ga_replay_destroy(rp);
    /* a parse error after replayed records: no replay survives */
    ck_assert_ptr_null(replay_text("gatrace 1\nalloc a0 16\nkernel k\nld 0 0 4 0x1 root=a0 list a0\nbad\n", &c, &err));
    ck_assert_str_eq(err.msg, "t:5:1: unknown record 'bad' (expected alloc, free, kernel, end, loadmeta, ld, st, lds or sts)");
    /* each refusal names its cause (7-bit tags: a 57-bit VA; the metadata region is 4096 nodes at
     * 0x600000000000 in cfg_for) */
    c.tag_bits = 7;
    static const char *const refusals[][2] = {
        {"gatrace 1 alloc=fixed\nalloc a0 4096 at 0x600000000000\n",
         "t:2: alloc a0: the runtime refused it: [0x600000000000, +4096) overlaps the metadata region "
         "[0x600000000000, 0x600000020000), which is reserved address space (move it with --md-base"},
        {"gatrace 1 alloc=fixed\nalloc a0 0x100000000000000 at 0x1000\n",
         "t:2: alloc a0: the runtime refused it: [0x1000, +72057594037927936) overlaps the metadata region"},
        {"gatrace 1 alloc=fixed\nalloc a0 16 at 0x200000000000000\n",
         "t:2: alloc a0: the runtime refused it: base 0x200000000000000 lies above the 57-bit VA space of 7-bit tags"},
        {"gatrace 1 alloc=fixed\nalloc a0 0x200 at 0x1ffffffffffff00\n",
         "t:2: alloc a0: the runtime refused it: [0x1ffffffffffff00, +512) crosses the top of the 57-bit VA space"},
        {"gatrace 1 alloc=fixed\nalloc a0 0x400000000000000 at 0x10\n",
         "t:2: alloc a0: the runtime refused it: size 288230376151711744 is larger than the 57-bit VA space"},
        {"gatrace 1\nalloc a0 0x20000000000\n",
         "t:2: alloc a0: the runtime refused it: size 2199023255552 is larger than the whole heap (1099511627776 bytes"},
        {"gatrace 1\nalloc a0 0x8000000000\nalloc a1 0x8000000000\nalloc a2 0x100\n",
         "t:4: alloc a2: the runtime refused it: no free block of 256 bytes is left in the heap"},
    };
    for (size_t i = 0; i < sizeof refusals / sizeof refusals[0]; i++) {
        ck_assert_ptr_null(replay_text(refusals[i][0], &c, &err));
        ck_assert_msg(strstr(err.msg, refusals[i][1]) == err.msg, "case %zu: %s", i, err.msg);
    }
    ga_replay_cfg_t full = c;
    full.md_capacity = 1;
    ck_assert_ptr_null(replay_text("gatrace 1\nalloc a0 16\nalloc a1 16\n", &full, &err));
    ck_assert_str_eq(err.msg, "t:3: alloc a1: the runtime refused it: the metadata region is full (1 nodes; raise "
                              "--md-capacity)");
    /* bad configurations */
    ga_trace_header_t h = {.version = 1};
    ga_replay_cfg_t bad = c;
    bad.tag_bits = 8;
    ck_assert_int_eq(ga_replay_create(&rp, &bad, &h, &err), -1);
    bad = c;
    bad.mlb_entries = 65;
    ck_assert_int_eq(ga_replay_create(&rp, &bad, &h, &err), -1);
    bad = c;
    bad.l1_lines = 0;
    ck_assert_int_eq(ga_replay_create(&rp, &bad, &h, &err), -1);
    bad = c;
    bad.backend = "rtl"; /* the default registry holds the model only */
    ck_assert_int_eq(ga_replay_create(&rp, &bad, &h, &err), -1);
    ck_assert_msg(strstr(err.msg, "no RTL backend is built into this program") &&
                      strstr(err.msg, "make gasim-rtl RTL_CFG=t7_m8_l32"),
                  "%s", err.msg);
    ck_assert_ptr_null(ga_backend_find(ga_backends_model, "rtl"));
    bad.backend = "board";
    ck_assert_int_eq(ga_replay_create(&rp, &bad, &h, &err), -1);
    ck_assert_msg(strstr(err.msg, "backend 'board' is not built into this program"), "%s", err.msg);
    bad.backend = "nonesuch";
    ck_assert_int_eq(ga_replay_create(&rp, &bad, &h, &err), -1);
    ck_assert_str_eq(err.msg, "unknown backend 'nonesuch' (model, rtl or board)");
    bad = c;
    bad.wave_path = "x.fst";
    ck_assert_int_eq(ga_replay_create(&rp, &bad, &h, &err), -1);
    ck_assert_msg(strstr(err.msg, "--wave: the model backend cannot write waveforms"), "%s", err.msg);
    bad = c;
    bad.tag_quarantine = GA_RT_QUARANTINE_MAX + 1u;
    ck_assert_int_eq(ga_replay_create(&rp, &bad, &h, &err), -1);
    /* a header's tag_bits decides when the configuration leaves it 0, and refuses another width */
    h = (ga_trace_header_t){.version = 2, .tag_bits = 16};
    bad = c;
    bad.tag_bits = 0;
    ck_assert_int_eq(ga_replay_create(&rp, &bad, &h, &err), 0);
    ck_assert_uint_eq(ga_replay_cfg(rp)->tag_bits, 16);
    ga_replay_destroy(rp);
    bad.tag_bits = 7;
    ck_assert_int_eq(ga_replay_create(&rp, &bad, &h, &err), -1);
    ck_assert_msg(strstr(err.msg, "declares tag_bits=16") && strstr(err.msg, "--tag-bits 16"), "%s", err.msg);
}
END_TEST

/* The latency model (docs/traces.md §6.6) on the list layout with round numbers. */
START_TEST(test_replay_latency)
{
    ga_replay_cfg_t c;
    cfg_for(&c, GA_MODE_COMPILER, GA_LAYOUT_LIST, 7);
    c.l1_hit = 10;
    c.l1_miss = 100;
    c.mlb_cycles = 1;
    c.check_cycles = 3;
    c.sms = 2;
    ga_trace_err_t err;
    const char *t = "gatrace 1\nalloc a0 256\nalloc a1 256\nkernel k\n"
                    "ld 0 0 4 0x1 root=a0 list a0\n" /* walk: a1's node (head), a0's node: 2 misses = 201 */
                    "ld 0 1 4 0x1 root=a0 list a0\n" /* MLB hit: 1 */
                    "ld 0 2 4 0x1 root=a1 list a1\n" /* walk: a1's node, an L1 hit: 11 */
                    "end\nkernel k2\n"
                    "ld 1 0 4 0x1 root=a1 list a1\n" /* SM 1: empty MLB, L1 invalidated: 101 */
                    "end\n";
    ga_replay_t *rp = replay_text(t, &c, &err);
    ck_assert_msg(rp != NULL, "%s", err.msg);
    const ga_replay_stats_t *s = ga_replay_stats(rp);
    ck_assert_uint_eq(s->mlu.loadmeta, 4);
    ck_assert_uint_eq(s->loadmeta_cycles, 201u + 1u + 11u + 101u);
    ck_assert_uint_eq(s->loadmeta_cycles_max, 201);
    ck_assert_uint_eq(s->l1_misses, 3);
    ck_assert_uint_eq(s->l1_hits, 1);
    ck_assert_uint_eq(s->memcheck_g_cycles, 4u * 3u); /* every fetch hit the MLB */
    ck_assert_uint_eq(s->mlu.walk_max, 2);
    ga_replay_destroy(rp);
    /* HWOnly charges the access's LOADMETAs */
    cfg_for(&c, GA_MODE_HWONLY, GA_LAYOUT_LIST, 7);
    c.l1_hit = 10;
    c.l1_miss = 100;
    rp = replay_text(t, &c, &err);
    ck_assert_msg(rp != NULL, "%s", err.msg);
    s = ga_replay_stats(rp);
    ck_assert_uint_eq(s->mlu.loadmeta, 4);
    ck_assert_uint_eq(s->loadmeta_cycles, 201u + 1u + 11u + 101u);
    ga_replay_destroy(rp);
}
END_TEST

/* SM mapping, kept-detection limit, fixed addresses, sample traces on every layout. */
START_TEST(test_replay_misc)
{
    ga_replay_cfg_t c;
    ga_trace_err_t err;
    cfg_for(&c, GA_MODE_COMPILER, (ga_layout_t)_i, 7);
    c.sms = 4;
    c.max_detections = 1;
    const char *t = "gatrace 1\nalloc a0 16\nkernel k\n"
                    "ld 5 0 4 0x1 root=a0 list a0+16\n"
                    "ld 6 0 4 0x1 root=a0 list a0+16\n"
                    "end\n";
    ga_replay_t *rp = replay_text(t, &c, &err);
    ck_assert_msg(rp != NULL, "%s", err.msg);
    const ga_detection_t *d;
    ck_assert_uint_eq(ga_replay_detections(rp, &d), 1);
    ck_assert_uint_eq(ga_replay_stats(rp)->detections, 2);
    ck_assert_uint_eq(d[0].trace_sm, 5);
    ck_assert_uint_eq(d[0].rec.sm, 1);
    ck_assert_uint_eq(ga_replay_cfg(rp)->sms, 4);
    ga_replay_destroy(rp);
    /* samples: fixed addresses, clean traces */
    const char *files[] = {"tests/fuzz/corpus/fixed.gatrace", "tests/fuzz/corpus/many.gatrace", SAMPLE_CLEAN};
    for (int m = 0; m < 2; m++)
        for (int f = 0; f < 3; f++) {
            char *text = th_slurp(files[f]);
            ck_assert_ptr_nonnull(text);
            cfg_for(&c, (ga_mode_t)m, (ga_layout_t)_i, 16);
            rp = replay_text(text, &c, &err);
            ck_assert_msg(rp != NULL, "%s: %s", files[f], err.msg);
            if (f == 2) ck_assert_uint_eq(ga_replay_stats(rp)->detections, 0);
            ga_replay_destroy(rp);
            free(text);
        }
    /* sms from the header */
    cfg_for(&c, GA_MODE_COMPILER, (ga_layout_t)_i, 7);
    rp = replay_text("gatrace 1 sms=3\n", &c, &err);
    ck_assert_ptr_nonnull(rp);
    ck_assert_uint_eq(ga_replay_cfg(rp)->sms, 3);
    ga_replay_destroy(rp);
}
END_TEST

/* ---------------------------------------------------------------------------------------------------
 * gasim and gaconv, in-process. */

START_TEST(test_gasim_cli)
{
    th_run_t r = th_run(ga_gasim_main, "gasim", "--trace", SAMPLE_BASIC, NULL);
    ck_assert_msg(r.rc == 0, "%s", r.err);
    ck_assert_msg(strstr(r.out, "detections         3 (OUT_OF_BOUNDS 1, USE_AFTER_FREE 1, NO_METADATA 1)"), "%s", r.out);
    ck_assert_msg(strstr(r.out, SAMPLE_BASIC ":7: kernel saxpy: OUT_OF_BOUNDS st sm 1 warp 3 lane 3"), "%s", r.out);
    /* the summary comes last, Compute Sanitizer style */
    ck_assert_msg(th_ends_with(r.out, "\nERROR SUMMARY: 3 errors\n"), "%s", r.out);
    ck_assert(strstr(r.out, "MLB hit rate"));
    ck_assert(strstr(r.out, "LOADMETA mean"));
    ck_assert(strstr(r.out, "metadata storage   64 bytes at the end"));
    ck_assert_str_eq(r.err, "");
    th_free(&r);
    /* --error-exitcode: N on a detection, 0 without */
    r = th_run(ga_gasim_main, "gasim", "--trace", SAMPLE_BASIC, "--error-exitcode", "9", "--quiet", NULL);
    ck_assert_int_eq(r.rc, 9);
    ck_assert_str_eq(r.out, "");
    th_free(&r);
    r = th_run(ga_gasim_main, "gasim", "--trace=" SAMPLE_CLEAN, "--error-exitcode=9", "--mode=hwonly", "--layout",
               "table", "--tag-bits", "16", "--mlb", "16", "--sms", "2", "--seed", "0x77", NULL);
    ck_assert_msg(r.rc == 0, "%s", r.err);
    ck_assert(strstr(r.out, "HWOnly mode, table layout, 16-entry MLB, 16-bit tags, 2 SMs, seed 119"));
    ck_assert(strstr(r.out, "detections         0"));
    th_free(&r);
    /* --help */
    r = th_run(ga_gasim_main, "gasim", "--help", NULL);
    ck_assert_int_eq(r.rc, 0);
    ck_assert(strstr(r.out, "--error-exitcode N"));
    th_free(&r);
    /* bad command lines: 2 and a message */
    static const char *const bad[][4] = {
        {"--mlb", "0", NULL, "--mlb: expected an integer in 1..64, got '0'"},
        {"--mlb", "65", NULL, "expected an integer in 1..64"},
        {"--mode", "foo", NULL, "--mode: expected one of compiler, hwonly; got 'foo'"},
        {"--layout", "tree", NULL, "expected one of list, bst, table"},
        {"--tag-bits", "8", NULL, "--tag-bits: expected 7 or 16"},
        {"--sms", "129", NULL, "expected an integer in 1..128"},
        {"--seed", "-1", NULL, "--seed: expected an integer"},
        {"--bogus", NULL, NULL, "unknown option '--bogus'"},
        {"--quiet=1", NULL, NULL, "option --quiet takes no value"},
        {"--json", NULL, NULL, "option --json needs a value"},
        {"stray", NULL, NULL, "unexpected argument 'stray'"},
        {"--allocs", "x", NULL, "--allocs, --allocs-shift and --allocs-rebase apply to Accel-Sim traces only"},
        {"--json", "-", "--csv", "only one of --json -, --csv - and --log-file - can write to stdout"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        if (i == sizeof bad / sizeof bad[0] - 1) {
            r = th_run(ga_gasim_main, "gasim", "--trace", SAMPLE_BASIC, "--json", "-", "--csv", "-", NULL);
        } else if (i == 11) {
            r = th_run(ga_gasim_main, "gasim", "--trace", SAMPLE_BASIC, bad[i][0], bad[i][1], NULL);
        } else {
            r = th_run(ga_gasim_main, "gasim", "--trace", SAMPLE_BASIC, bad[i][0], bad[i][1], bad[i][2], NULL);
        }
        ck_assert_msg(r.rc == 2 && strstr(r.err, bad[i][3]), "case %zu: rc %d, '%s'", i, r.rc, r.err);
        ck_assert_str_eq(r.out, "");
        th_free(&r);
    }
    r = th_run(ga_gasim_main, "gasim", NULL);
    ck_assert_int_eq(r.rc, 2);
    ck_assert(strstr(r.err, "no trace given"));
    th_free(&r);
    /* --rtl without the backend in this program: 1, and the exact target that builds the one needed */
    r = th_run(ga_gasim_main, "gasim", "--trace", SAMPLE_BASIC, "--rtl", NULL);
    ck_assert_int_eq(r.rc, 1);
    ck_assert_msg(strstr(r.err, "gasim: --rtl: the RTL replay of this run (TagBits 7, 8-entry MLB) is the program "
                                "build/cosim/t7_m8_l32/gasim-rtl, which is not built: run 'make gasim-rtl "
                                "RTL_CFG=t7_m8_l32'"),
                  "%s", r.err);
    ck_assert_str_eq(r.out, "");
    th_free(&r);
    r = th_run(ga_gasim_main, "gasim", "--trace", SAMPLE_BASIC, "--rtl", "--tag-bits", "16", "--mlb", "16", NULL);
    ck_assert_int_eq(r.rc, 1);
    ck_assert_msg(strstr(r.err, "'make gasim-rtl RTL_CFG=t16_m16_l32'"), "%s", r.err);
    th_free(&r);
    /* a missing trace */
    r = th_run(ga_gasim_main, "gasim", "--trace", "sim/traces/no-such-file.gatrace", NULL);
    ck_assert_int_eq(r.rc, 1);
    ck_assert(strstr(r.err, "gasim: sim/traces/no-such-file.gatrace: cannot open"));
    th_free(&r);
}
END_TEST

START_TEST(test_gasim_outputs)
{
    char dir[256], bad[512], json[512], csv[512];
    th_tmpdir(dir, sizeof dir);
    snprintf(json, sizeof json, "%s/out.json", dir);
    snprintf(csv, sizeof csv, "%s/out.csv", dir);
    th_run_t r = th_run(ga_gasim_main, "gasim", "--trace", SAMPLE_BASIC, "--json", json, "--csv", csv, "--quiet", NULL);
    ck_assert_msg(r.rc == 0, "%s", r.err);
    th_free(&r);
    char *j = th_slurp(json);
    ck_assert_ptr_nonnull(j);
    ck_assert_msg(th_json_valid(j), "%s", j);
    ck_assert(strstr(j, "\"detections\": {\"count\": 3"));
    ck_assert(strstr(j, "\"kind\": \"OUT_OF_BOUNDS\""));
    ck_assert(strstr(j, "\"checked_against\": {\"id\": \"a1\""));
    free(j);
    char *cv = th_slurp(csv);
    ck_assert_ptr_nonnull(cv);
    char *nl = strchr(cv, '\n');
    ck_assert_ptr_nonnull(nl);
    int c1 = 0, c2 = 0;
    for (char *p = cv; p < nl; p++) c1 += *p == ',';
    for (char *p = nl + 1; *p && *p != '\n'; p++) c2 += *p == ',';
    ck_assert_int_eq(c1, c2);
    ck_assert(strstr(cv, "trace,mode,layout,"));
    free(cv);
    ck_assert_int_eq(th_count_files(dir), 2);
    /* JSON on stdout replaces the text report */
    r = th_run(ga_gasim_main, "gasim", "--trace", SAMPLE_CLEAN, "--json", "-", NULL);
    ck_assert_int_eq(r.rc, 0);
    ck_assert_msg(th_json_valid(r.out), "%s", r.out);
    th_free(&r);
    /* a malformed trace: exit 1, file:line on stderr, no output file, no temporary left */
    snprintf(bad, sizeof bad, "%s/bad.gatrace", dir);
    const char *bt = "gatrace 1\nalloc a0 16\nkernel k\nld 0 0 4 0x1 root=a0 list a0+16\nld 0 0 4 0x1 root=a0\n";
    th_write(bad, bt, strlen(bt));
    unlink(json);
    r = th_run(ga_gasim_main, "gasim", "--trace", bad, "--json", json, NULL);
    ck_assert_int_eq(r.rc, 1);
    char want[600];
    snprintf(want, sizeof want, "gasim: %s:5:21: expected 'stride' or 'list', got end of line\n", bad);
    ck_assert_str_eq(r.err, want);
    ck_assert_str_eq(r.out, "");
    th_free(&r);
    ck_assert_ptr_null(th_slurp(json));
    ck_assert_int_eq(th_count_files(dir), 2); /* bad.gatrace and out.csv only */
    /* an output directory that does not exist: 1, nothing written */
    r = th_run(ga_gasim_main, "gasim", "--trace", SAMPLE_BASIC, "--json", "/nonexistent-dir/x.json", NULL);
    ck_assert_int_eq(r.rc, 1);
    ck_assert(strstr(r.err, "cannot create a temporary file"));
    ck_assert_str_eq(r.out, "");
    th_free(&r);

    /* gaconv: to gzip and back, the same report */
    char gz[512], back[512];
    snprintf(gz, sizeof gz, "%s/basic.gatrace.gz", dir);
    snprintf(back, sizeof back, "%s/back.gatrace", dir);
    r = th_run(ga_gaconv_main, "gaconv", SAMPLE_BASIC, gz, NULL);
    ck_assert_msg(r.rc == 0, "%s", r.err);
    th_free(&r);
    r = th_run(ga_gaconv_main, "gaconv", gz, back, NULL);
    ck_assert_msg(r.rc == 0, "%s", r.err);
    th_free(&r);
    char *c = th_slurp(back);
    ck_assert_ptr_nonnull(c);
    ck_assert_msg(strncmp(c, "gatrace 2 sms=2\nalloc a0 4096\nalloc a1 256\nkernel saxpy\n", 55) == 0, "%s", c);
    ck_assert_msg(th_ends_with(c, "\nfree a0\neof\n"), "%s", c);
    free(c);
    r = th_run(ga_gasim_main, "gasim", "--trace", gz, NULL);
    ck_assert_int_eq(r.rc, 0);
    ck_assert(strstr(r.out, "detections         3 (OUT_OF_BOUNDS 1, USE_AFTER_FREE 1, NO_METADATA 1)"));
    th_free(&r);
    /* gaconv to stdout; errors leave no output */
    r = th_run(ga_gaconv_main, "gaconv", SAMPLE_BASIC, "-", NULL);
    ck_assert_int_eq(r.rc, 0);
    ck_assert(strstr(r.out, "st 1 3 4 0x0000000f root=a1 list a1 a1+0x4 a1+0x8 a1+0x100\n"));
    th_free(&r);
    r = th_run(ga_gaconv_main, "gaconv", bad, "-", NULL);
    ck_assert_int_eq(r.rc, 1);
    ck_assert_str_eq(r.out, "");
    th_free(&r);
    unlink(back);
    r = th_run(ga_gaconv_main, "gaconv", bad, back, NULL);
    ck_assert_int_eq(r.rc, 1);
    ck_assert_ptr_null(th_slurp(back));
    th_free(&r);
    r = th_run(ga_gaconv_main, "gaconv", SAMPLE_BASIC, NULL);
    ck_assert_int_eq(r.rc, 2);
    th_free(&r);
    th_rmdir(dir);
}
END_TEST


/* ---------------------------------------------------------------------------------------------------
 * Version 2: the end-of-trace record, deliberate double frees, frees of raw pointers, tag_bits. */

START_TEST(test_v2_accept)
{
    ga_tev_t ev[16];
    size_t n;
    ga_trace_err_t err;
    const char *t = "# comment before\ngatrace 2 tag_bits=16 sms=2\nalloc a0 64\nalloc a1 64\nfree a0\n"
                    "free a0\n"                     /* a deliberate double free */
                    "freep a1+0x10\n"               /* an interior pointer */
                    "freep 0x1234:t0x5\n"           /* a raw pointer */
                    "kernel k\nfreep a1\nend\n"     /* a free inside a kernel */
                    "eof   # the end\n\n# trailing comments are fine\n";
    ck_assert_int_eq(parse_str(t, ev, 16, &n, &err), 0);
    ck_assert_uint_eq(n, 9);
    ck_assert(!ev[2].again && ev[3].again && ev[3].id == 0 && ev[3].slot == 0);
    ck_assert_int_eq(ev[4].kind, GA_TEV_FREEP);
    ck_assert(ev[4].root.is_alloc && ev[4].root.id == 1 && ev[4].root.off == 16);
    ck_assert(!ev[5].root.is_alloc && ev[5].root.off == 0x1234 && ev[5].root.set_tag && ev[5].root.tag == 5);
    ck_assert_int_eq(ev[7].kind, GA_TEV_FREEP);
    /* the header and the end are read, not returned */
    ga_trace_reader_t *r;
    ck_assert_int_eq(ga_trace_open_mem(&r, "t", t, strlen(t), &err), 0);
    ga_tev_t e;
    ck_assert_int_eq(ga_trace_next(r, &e, &err), 1);
    ck_assert_uint_eq(ga_trace_header(r)->version, 2);
    ck_assert_uint_eq(ga_trace_header(r)->tag_bits, 16);
    ck_assert_uint_eq(ga_trace_header(r)->sms, 2);
    ck_assert(!ga_trace_ended(r));
    while (ga_trace_next(r, &e, &err) > 0) continue;
    ck_assert(ga_trace_ended(r));
    ga_trace_close(r);
    /* a version-1 trace reads as before and never reports an end */
    ck_assert_int_eq(ga_trace_open_mem(&r, "t", "gatrace 1\nalloc a0 8\n", 21, &err), 0);
    while (ga_trace_next(r, &e, &err) > 0) continue;
    ck_assert(!ga_trace_ended(r));
    ga_trace_close(r);
}
END_TEST

/* A version-2 trace cut anywhere before its eof is an error, never a shorter valid trace (the
 * issue: a plain-text trace cut between two kernels replayed silently). */
START_TEST(test_v2_truncation)
{
    const char *t = "gatrace 2 sms=2\nalloc a0 4096\nkernel k1\nld 0 0 4 0x1 root=a0 list a0\nend\n"
                    "kernel k2\nld 1 0 4 0x1 root=a0 list a0+4096\nend\nfree a0\neof\n";
    size_t len = strlen(t);
    ga_tev_t ev[16];
    size_t n;
    ga_trace_err_t err;
    ck_assert_int_eq(parse_all(t, len, ev, 16, &n, &err), 0);
    for (size_t cut = 0; cut < len - 1u; cut++) { /* every prefix that lacks "eof" */
        if (cut >= len - 4u) break;
        int rc = parse_all(t, cut, ev, 16, &n, &err);
        ck_assert_msg(rc == -1, "prefix of %zu bytes read as a valid trace", cut);
    }
    /* and the replay of a cut trace keeps nothing */
    ga_replay_cfg_t c;
    ga_replay_default_cfg(&c);
    char cut[256];
    const char *at = strstr(t, "kernel k2");
    memcpy(cut, t, (size_t)(at - t));
    cut[at - t] = '\0';
    ga_trace_reader_t *r;
    ck_assert_int_eq(ga_trace_open_mem(&r, "t", cut, strlen(cut), &err), 0);
    ga_replay_t *rp = NULL;
    ck_assert_int_eq(ga_replay_run(&rp, &c, r, NULL, NULL, &err), -1);
    ck_assert_ptr_null(rp);
    ck_assert_msg(strstr(err.msg, "t:5: end of input before the end-of-trace record 'eof'"), "%s", err.msg);
    ga_trace_close(r);
}
END_TEST

/* Frees the runtime refuses are findings (reported, counted, the replay goes on), not parse errors. */
START_TEST(test_replay_bad_frees)
{
    ga_replay_cfg_t c;
    ga_trace_err_t err;
    cfg_for(&c, GA_MODE_COMPILER, (ga_layout_t)_i, 7);
    const char *t = "gatrace 2\nalloc a0 256\nalloc a1 256\nfree a0\n"
                    "free a0\n"              /* 5: double free */
                    "freep a1+0x10\n"        /* 6: interior pointer */
                    "freep a1:t0x3\n"        /* 7: the base with another tag (a1's tag is not 3 for seed 1) */
                    "freep 0x123400\n"       /* 8: names no allocation */
                    "freep 0\n"              /* 9: cudaFree(NULL) is fine */
                    "kernel k\nld 0 0 4 0x1 root=a1 list a1+256\nfreep a1+0x20\nend\n" /* 11, 12 */
                    "free a1\neof\n";
    ga_replay_t *rp = replay_text(t, &c, &err);
    ck_assert_msg(rp != NULL, "%s", err.msg);
    const ga_replay_stats_t *s = ga_replay_stats(rp);
    ck_assert_uint_eq(s->bad_frees, 5);
    ck_assert_uint_eq(s->bad_frees_by_code[GA_ERR_DOUBLE_FREE], 1);
    ck_assert_uint_eq(s->bad_frees_by_code[GA_ERR_INTERIOR_POINTER], 2);
    ck_assert_uint_eq(s->bad_frees_by_code[GA_ERR_TAG_MISMATCH], 1);
    ck_assert_uint_eq(s->bad_frees_by_code[GA_ERR_UNKNOWN_POINTER], 1);
    ck_assert_uint_eq(s->detections, 1);
    ck_assert_uint_eq(s->errors, 6);
    ck_assert_uint_eq(s->records[GA_TEV_FREEP], 5);
    ck_assert_uint_eq(s->live_end, 0); /* the final free of a1 went through */
    const ga_detection_t *d;
    ck_assert_uint_eq(ga_replay_detections(rp, &d), 6);
    static const char *const kinds[] = {"DOUBLE_FREE", "FREE_INTERIOR_POINTER", "FREE_TAG_MISMATCH",
                                        "FREE_UNKNOWN_POINTER", "OUT_OF_BOUNDS", "FREE_INTERIOR_POINTER"};
    static const uint64_t lines[] = {5, 6, 7, 8, 11, 12};
    for (int i = 0; i < 6; i++) {
        ck_assert_str_eq(ga_replay_finding_kind(&d[i]), kinds[i]);
        ck_assert_uint_eq(d[i].line, lines[i]);
    }
    ck_assert(d[0].free_named && d[0].free_id == 0 && d[0].in_entry && d[0].entry_freed && d[0].entry_id == 0);
    uint64_t id;
    ck_assert(ga_replay_finding_alloc(&d[1], &id) && id == 1);
    ck_assert_uint_eq(d[1].free_ptr & 0xff, (ga_replay_stats(rp), d[1].free_ptr & 0xff)); /* keeps the tag */
    ck_assert(!ga_replay_finding_alloc(&d[3], &id) || d[3].near_named);
    ck_assert_uint_eq(d[0].kernel, UINT32_MAX); /* on the host, outside any kernel */
    ck_assert_str_eq(ga_replay_kernel_name(rp, d[5].kernel), "k");
    char line[1400];
    ga_replay_format_detection(rp, NULL, &d[0], line, sizeof line);
    ck_assert_msg(strstr(line, "t:5: host: DOUBLE_FREE free a0 (pointer 0x") == line &&
                      strstr(line, "the runtime refused it: ") && strstr(line, "the pointer is inside freed a0"),
                  "%s", line);
    ga_replay_format_detection(rp, NULL, &d[5], line, sizeof line);
    ck_assert_msg(strstr(line, "t:12: kernel k: FREE_INTERIOR_POINTER freep (pointer 0x") == line, "%s", line);
    ga_replay_destroy(rp);
}
END_TEST

/* Detections whose metadata came from a walk cut short by the step limit are incomplete checks,
 * counted apart from the program's errors, in both modes; a mixed operation is an error. */
START_TEST(test_replay_walk_limited)
{
    ga_replay_cfg_t c;
    ga_trace_err_t err;
    /* list layout, newest first: a3 at the head, a0 four nodes in; a step limit of 2 */
    const char *t = "gatrace 2\nalloc a0 256\nalloc a1 256\nalloc a2 256\nalloc a3 256\nkernel k\n"
                    "ld 0 0 4 0xf root=a0 stride a0 4\n"               /* 7: in bounds, walk cut: incomplete */
                    "ld 0 1 4 0x1 root=a3 list a3+256\n"               /* 8: found, out of bounds: an error */
                    "ld 0 2 4 0x3 root=lane list a3:t0x1 a0+8\n"       /* 9: lane 0 forged tag (range only) and
                                                                          lane 1 cut: one MEMCHECK.G, mixed */
                    "end\neof\n";
    cfg_for(&c, GA_MODE_COMPILER, GA_LAYOUT_LIST, 7);
    c.step_limit = 2;
    ga_replay_t *rp = replay_text(t, &c, &err);
    ck_assert_msg(rp != NULL, "%s", err.msg);
    const ga_replay_stats_t *s = ga_replay_stats(rp);
    char got[256];
    det_summary(rp, got, sizeof got);
    ck_assert_str_eq(got, "NO_METADATA@7 OUT_OF_BOUNDS@8 NO_METADATA@9");
    ck_assert_uint_eq(s->detections, 3);
    ck_assert_uint_eq(s->detections_walk, 1);
    ck_assert_uint_eq(s->detections_walk_by_kind[GA_EXC_NO_METADATA], 1);
    ck_assert_uint_eq(s->errors, 2);
    ck_assert_uint_eq(s->walk_lanes, 4u + 1u);
    const ga_detection_t *d;
    ga_replay_detections(rp, &d);
    ck_assert(d[0].walk_limited && d[0].walk_lanes == 4);
    ck_assert(!d[1].walk_limited && d[1].walk_lanes == 0);
    ck_assert(!d[2].walk_limited && d[2].walk_lanes == 1);
    char line[1400];
    ga_replay_format_detection(rp, NULL, &d[0], line, sizeof line);
    ck_assert_msg(strstr(line, "INCOMPLETE CHECK, not a program error: the LOADMETA walk was cut short (step limit 2"),
                  "%s", line);
    ga_replay_destroy(rp);
    /* HWOnly: the lanes whose walk was cut fail METADATA_FAULT */
    cfg_for(&c, GA_MODE_HWONLY, GA_LAYOUT_LIST, 7);
    c.step_limit = 2;
    rp = replay_text(t, &c, &err);
    ck_assert_msg(rp != NULL, "%s", err.msg);
    s = ga_replay_stats(rp);
    det_summary(rp, got, sizeof got);
    /* line 8 too: HWOnly looks a3+256 up (no allocation covers it), a walk of the whole list: cut */
    ck_assert_str_eq(got, "METADATA_FAULT@7 METADATA_FAULT@8 TAG_MISMATCH@9");
    ck_assert_uint_eq(s->detections_walk, 2);
    ck_assert_uint_eq(s->detections_walk_by_kind[GA_EXC_METADATA_FAULT], 2);
    ck_assert_uint_eq(s->errors, 1);
    ga_replay_destroy(rp);
    /* with the default limit, nothing is cut: the in-bounds access is clean */
    cfg_for(&c, GA_MODE_COMPILER, GA_LAYOUT_LIST, 7);
    rp = replay_text(t, &c, &err);
    ck_assert_msg(rp != NULL, "%s", err.msg);
    ck_assert_uint_eq(ga_replay_stats(rp)->detections_walk, 0);
    ck_assert_uint_eq(ga_replay_stats(rp)->detections, 2);
    ga_replay_destroy(rp);
    /* gasim: counted apart in every report, the suggestion once, the exit status distinguishable */
    char dir[256], p[512], json[512], csv[512];
    th_tmpdir(dir, sizeof dir);
    snprintf(p, sizeof p, "%s/w.gatrace", dir);
    snprintf(json, sizeof json, "%s/w.json", dir);
    snprintf(csv, sizeof csv, "%s/w.csv", dir);
    const char *only = "gatrace 2\nalloc a0 256\nalloc a1 256\nalloc a2 256\nkernel k\n"
                       "ld 0 0 4 0x1 root=a0 list a0\nend\neof\n";
    th_write(p, only, strlen(only));
    th_run_t r = th_run(ga_gasim_main, "gasim", "--trace", p, "--layout", "list", "--step-limit", "1", "--error-exitcode",
                        "9", "--json", json, "--csv", csv, "--log-file", "-", NULL);
    ck_assert_int_eq(r.rc, GA_EXIT_INCOMPLETE);
    ck_assert_msg(strstr(r.out, "; 1 of them incomplete checks (NO_METADATA 1)") &&
                      strstr(r.out, "note: 1 detection is an incomplete check, not a program error: the LOADMETA walks") &&
                      strstr(r.out, "raise the limit (--step-limit 16)") && strstr(r.out, "(--layout bst, index or table)") &&
                      th_ends_with(r.out, "ERROR SUMMARY: 0 errors; 1 incomplete check (walks cut short: not counted as "
                                          "errors)\n"),
                  "%s", r.out);
    th_free(&r);
    char *j = th_slurp(json);
    ck_assert_ptr_nonnull(j);
    ck_assert_msg(th_json_valid(j), "%s", j);
    ck_assert(strstr(j, "\"incomplete\": 1, \"incomplete_by_kind\": {\"OUT_OF_BOUNDS\": 0, \"USE_AFTER_FREE\": 0, "
                        "\"TAG_MISMATCH\": 0, \"NO_METADATA\": 1"));
    ck_assert(strstr(j, "\"findings\": {\"errors\": 0, \"incomplete_checks\": 1"));
    ck_assert(strstr(j, "\"class\": \"incomplete\""));
    ck_assert(strstr(j, "\"step_limit\": 1, \"md_base\": \"0x600000000000\", \"md_capacity\": 1048576"));
    free(j);
    char *cv = th_slurp(csv);
    ck_assert_ptr_nonnull(cv);
    ck_assert_msg(strstr(cv, ",errors,incomplete_checks,bad_frees,suppressed,walks_step_limit,walks_fault,step_limit,") &&
                      strstr(cv, ",0,1,0,0,1,0,1,0x600000000000,1048576,"),
                  "%s", cv);
    free(cv);
    /* an error beside the incomplete check: the user's code */
    const char *both = "gatrace 2\nalloc a0 256\nalloc a1 256\nalloc a2 256\nkernel k\n"
                       "ld 0 0 4 0x1 root=a0 list a0\nld 0 1 4 0x1 root=a2 list a2+256\nend\neof\n";
    th_write(p, both, strlen(both));
    r = th_run(ga_gasim_main, "gasim", "--trace", p, "--layout", "list", "--step-limit", "1", "--error-exitcode", "9",
               "--quiet", NULL);
    ck_assert_int_eq(r.rc, 9);
    th_free(&r);
    /* without --error-exitcode a complete replay is 0 whatever it found */
    r = th_run(ga_gasim_main, "gasim", "--trace", p, "--layout", "list", "--step-limit", "1", "--quiet", NULL);
    ck_assert_int_eq(r.rc, 0);
    th_free(&r);
    th_rmdir(dir);
}
END_TEST

/* spec §3.2 step 1: a LOADMETA of tag 0 makes no MLB access, so it is charged no MLB cycle. */
START_TEST(test_replay_tag0_latency)
{
    ga_replay_cfg_t c;
    cfg_for(&c, GA_MODE_COMPILER, GA_LAYOUT_BST, 7);
    c.mlb_cycles = 5;
    ga_trace_err_t err;
    const char *t = "gatrace 2\nalloc a0 256\nkernel k\n"
                    "ld 0 0 4 0x1 root=a0:t0 list a0:t0\n" /* LOADMETA of tag 0: 0 cycles */
                    "loadmeta 0 1 0x1234\n"               /* a raw untagged pointer: 0 cycles */
                    "end\neof\n";
    ga_replay_t *rp = replay_text(t, &c, &err);
    ck_assert_msg(rp != NULL, "%s", err.msg);
    const ga_replay_stats_t *s = ga_replay_stats(rp);
    ck_assert_uint_eq(s->mlu.loadmeta, 2);
    ck_assert_uint_eq(s->mlu.loadmeta_unchecked, 2);
    ck_assert_uint_eq(s->loadmeta_cycles, 0);
    ga_replay_destroy(rp);
    /* a tagged one still pays the lookup (and here a walk of one node: an L1 miss) */
    rp = replay_text("gatrace 2\nalloc a0 256\nkernel k\nloadmeta 0 0 a0\nend\neof\n", &c, &err);
    ck_assert_msg(rp != NULL, "%s", err.msg);
    ck_assert_uint_eq(ga_replay_stats(rp)->loadmeta_cycles, 5u + 300u);
    ck_assert_uint_eq(ga_replay_stats(rp)->invalidated_locations, 1);
    ga_replay_destroy(rp);
}
END_TEST

/* Raw pointers that look written for the other tag width are counted for a warning. */
START_TEST(test_replay_tag_width)
{
    ga_replay_cfg_t c;
    ga_trace_err_t err;
    /* 0x1234 << 48 | VA: a 16-bit-tagged pointer; with 7-bit tags bits 48..56 read as VA */
    const char *t = "gatrace 2\nalloc a0 256\nkernel k\nld 0 0 4 0x1 root=lane list 0x1234700000001000\n"
                    "ld 0 0 4 0x1 root=lane list 0x1234700000001000\nend\neof\n";
    cfg_for(&c, GA_MODE_COMPILER, GA_LAYOUT_BST, 7);
    ga_replay_t *rp = replay_text(t, &c, &err);
    ck_assert_msg(rp != NULL, "%s", err.msg);
    ck_assert_uint_eq(ga_replay_stats(rp)->tag_width_suspects, 2);
    ck_assert_uint_eq(ga_replay_stats(rp)->tag_width_suspect_line, 4);
    ga_replay_destroy(rp);
    cfg_for(&c, GA_MODE_COMPILER, GA_LAYOUT_BST, 16);
    rp = replay_text(t, &c, &err);
    ck_assert_msg(rp != NULL, "%s", err.msg);
    ck_assert_uint_eq(ga_replay_stats(rp)->tag_width_suspects, 0);
    ga_replay_destroy(rp);
    /* a 7-bit tag (bits 57..63) read with 16-bit tags */
    rp = replay_text("gatrace 2\nkernel k\nloadmeta 0 0 0x0a00700000001000\nend\neof\n", &c, &err);
    ck_assert_msg(rp != NULL, "%s", err.msg);
    ck_assert_uint_eq(ga_replay_stats(rp)->tag_width_suspects, 1);
    ga_replay_destroy(rp);
    /* declared in the header: no guess needed */
    rp = replay_text("gatrace 2 tag_bits=16\nkernel k\nloadmeta 0 0 0x0a00700000001000\nend\neof\n", &c, &err);
    ck_assert_msg(rp != NULL, "%s", err.msg);
    ck_assert_uint_eq(ga_replay_stats(rp)->tag_width_suspects, 0);
    ga_replay_destroy(rp);
    th_run_t r = th_run(ga_gasim_main, "gasim", "--trace", "-", NULL); /* stdin is empty here: an error */
    th_free(&r);
    char dir[256], p[512];
    th_tmpdir(dir, sizeof dir);
    snprintf(p, sizeof p, "%s/t.gatrace", dir);
    th_write(p, t, strlen(t));
    r = th_run(ga_gasim_main, "gasim", "--trace", p, NULL);
    ck_assert_int_eq(r.rc, 0);
    ck_assert_msg(strstr(r.out, "warning: 2 raw pointers (the first on line 4) look written for 16-bit tags while this "
                                "replay uses 7-bit tags"),
                  "%s", r.out);
    th_free(&r);
    /* the header's tag_bits is the default, and another --tag-bits is refused */
    th_write(p, "gatrace 2 tag_bits=16\neof\n", 26);
    r = th_run(ga_gasim_main, "gasim", "--trace", p, NULL);
    ck_assert_int_eq(r.rc, 0);
    ck_assert_msg(strstr(r.out, "16-bit tags"), "%s", r.out);
    th_free(&r);
    r = th_run(ga_gasim_main, "gasim", "--trace", p, "--tag-bits", "7", NULL);
    ck_assert_int_eq(r.rc, 2); /* the options do not fit the trace: a usage error */
    ck_assert_msg(strstr(r.err, "declares tag_bits=16"), "%s", r.err);
    th_free(&r);
    th_rmdir(dir);
}
END_TEST

/* The replay calls its progress callback during long walks too (the bar must not stall). */
static void count_progress(void *ctx, uint64_t records, uint64_t done, uint64_t total)
{
    (void)records;
    (void)done;
    (void)total;
    (*(int *)ctx)++;
}

START_TEST(test_replay_progress)
{
    /* 3000 allocations in a list, then one access to each of the 100 oldest through a 1-entry MLB:
     * about 295 000 node reads in 3 104 records, fewer than the 4 096 records between record-count
     * callbacks */
    size_t cap = 1u << 20, len = 0;
    char *t = malloc(cap);
    ck_assert_ptr_nonnull(t);
    len += (size_t)snprintf(t + len, cap - len, "gatrace 2\n");
    for (int i = 0; i < 3000; i++) len += (size_t)snprintf(t + len, cap - len, "alloc a%d 256\n", i);
    len += (size_t)snprintf(t + len, cap - len, "kernel k\n");
    for (int i = 0; i < 100; i++) len += (size_t)snprintf(t + len, cap - len, "ld 0 0 4 0x1 root=a%d list a%d\n", i, i);
    len += (size_t)snprintf(t + len, cap - len, "end\neof\n");
    ga_replay_cfg_t c;
    cfg_for(&c, GA_MODE_COMPILER, GA_LAYOUT_LIST, 7);
    c.md_capacity = 0;
    c.mlb_entries = 1;
    c.sms = 1;
    ga_trace_err_t err;
    ga_trace_reader_t *r;
    ck_assert_int_eq(ga_trace_open_mem(&r, "t", t, len, &err), 0);
    ga_replay_t *rp;
    int calls = 0;
    ck_assert_msg(ga_replay_run(&rp, &c, r, count_progress, &calls, &err) == 0, "%s", err.msg);
    ck_assert_uint_ge(ga_replay_stats(rp)->mlu.md_reads, 1u << 18);
    ck_assert_int_ge(calls, 1);
    ga_replay_destroy(rp);
    ga_trace_close(r);
    free(t);
}
END_TEST

/* Runtime tag extensions (spec §7.6) reach the runtime; the report says they are on. */
START_TEST(test_gasim_tag_extensions)
{
    ga_replay_cfg_t c;
    cfg_for(&c, GA_MODE_COMPILER, GA_LAYOUT_BST, 7);
    c.tag_neighbour_distinct = true;
    c.tag_quarantine = 64;
    ga_trace_err_t err;
    /* 1000 adjacent allocations: with neighbour-distinct tags no two neighbours share a tag */
    size_t cap = 1u << 17, len = 0;
    char *t = malloc(cap);
    ck_assert_ptr_nonnull(t);
    len += (size_t)snprintf(t + len, cap - len, "gatrace 2\n");
    for (int i = 0; i < 1000; i++) len += (size_t)snprintf(t + len, cap - len, "alloc a%d 256\n", i);
    len += (size_t)snprintf(t + len, cap - len, "kernel k\n");
    for (int i = 0; i + 1 < 1000; i++) /* a store one past each allocation lands in the next one */
        len += (size_t)snprintf(t + len, cap - len, "st 0 0 4 0x1 root=lane list a%d+256\n", i);
    len += (size_t)snprintf(t + len, cap - len, "end\neof\n");
    ga_replay_t *rp = replay_text(t, &c, &err);
    ck_assert_msg(rp != NULL, "%s", err.msg);
    ck_assert(ga_rt_cfg(ga_replay_system(rp)->rt)->tag_neighbour_distinct);
    ck_assert_uint_eq(ga_rt_cfg(ga_replay_system(rp)->rt)->tag_quarantine, 64);
    ck_assert_uint_eq(ga_replay_stats(rp)->detections, 999); /* every stray is caught */
    ga_replay_destroy(rp);
    c.tag_neighbour_distinct = false;
    rp = replay_text(t, &c, &err);
    ck_assert_msg(rp != NULL, "%s", err.msg);
    ck_assert_uint_lt(ga_replay_stats(rp)->detections, 999); /* seed 1: some neighbours share a tag (1 in 126) */
    ga_replay_destroy(rp);
    free(t);
    th_run_t r = th_run(ga_gasim_main, "gasim", "--trace", SAMPLE_CLEAN, "--tag-neighbour-distinct", "--tag-quarantine",
                        "64", NULL);
    ck_assert_int_eq(r.rc, 0);
    ck_assert_msg(strstr(r.out, ", neighbour-distinct tags, tag quarantine 64\n"), "%s", r.out);
    th_free(&r);
    r = th_run(ga_gasim_main, "gasim", "--trace", SAMPLE_CLEAN, "--tag-quarantine", "0", NULL);
    ck_assert_int_eq(r.rc, 2);
    th_free(&r);
    r = th_run(ga_gasim_main, "gasim", "--trace", SAMPLE_CLEAN, "--tag-neighbour-distinct=yes", NULL);
    ck_assert_int_eq(r.rc, 2);
    th_free(&r);
}
END_TEST

/* Suppressions, --print-limit, --log-file with expansions, output permissions, repeated options,
 * outputs that are inputs, --dry-run, reserved exit codes, and the JSON fields of the schema. */
START_TEST(test_gasim_report_options)
{
    char dir[256], p[512], f[512], log[512];
    th_tmpdir(dir, sizeof dir);
    /* suppressions: by kind, by kernel glob, by allocation; several rules */
    th_run_t r = th_run(ga_gasim_main, "gasim", "--trace", SAMPLE_BASIC, "--suppress", "kind=OUT_OF_BOUNDS",
                        "--error-exitcode", "9", NULL);
    ck_assert_int_eq(r.rc, 9);
    ck_assert_msg(strstr(r.out, "suppressed         1 findings") && th_ends_with(r.out, "ERROR SUMMARY: 2 errors; 1 suppressed\n") &&
                      !strstr(r.out, ": OUT_OF_BOUNDS st"),
                  "%s", r.out);
    th_free(&r);
    r = th_run(ga_gasim_main, "gasim", "--trace", SAMPLE_BASIC, "--suppress", "kernel=sax*,alloc=a1", "--suppress",
               "kind=NO_METADATA", "--error-exitcode", "9", NULL);
    ck_assert_int_eq(r.rc, 0);
    ck_assert_msg(th_ends_with(r.out, "ERROR SUMMARY: 0 errors; 3 suppressed\n"), "%s", r.out);
    th_free(&r);
    snprintf(p, sizeof p, "%s/supp.txt", dir);
    const char *sf = "# comment\n\n  kernel=other  \nkind=USE_AFTER_FREE # trailing\n";
    th_write(p, sf, strlen(sf));
    r = th_run(ga_gasim_main, "gasim", "--trace", SAMPLE_BASIC, "--suppressions", p, NULL);
    ck_assert_int_eq(r.rc, 0);
    ck_assert_msg(th_ends_with(r.out, "ERROR SUMMARY: 2 errors; 1 suppressed\n"), "%s", r.out);
    th_free(&r);
    sf = "kind=OUT_OF_BOUNDS\nkind=NOPE\n";
    th_write(p, sf, strlen(sf));
    r = th_run(ga_gasim_main, "gasim", "--trace", SAMPLE_BASIC, "--suppressions", p, NULL);
    ck_assert_int_eq(r.rc, 1);
    ck_assert_msg(strstr(r.err, "supp.txt:2: unknown kind 'NOPE'") && r.out[0] == '\0', "%s", r.err);
    th_free(&r);
    static const char *const bad_rules[] = {"kind", "kind=", "size=4", "alloc=b1", "alloc=a0x1", "kind=OUT_OF_BOUNDS,kind=NO_METADATA", ","};
    for (size_t i = 0; i < sizeof bad_rules / sizeof bad_rules[0]; i++) {
        r = th_run(ga_gasim_main, "gasim", "--trace", SAMPLE_BASIC, "--suppress", bad_rules[i], NULL);
        ck_assert_msg(r.rc == 2 && strstr(r.err, "--suppress '"), "rule %s: %d %s", bad_rules[i], r.rc, r.err);
        th_free(&r);
    }
    /* --print-limit */
    r = th_run(ga_gasim_main, "gasim", "--trace", SAMPLE_BASIC, "--print-limit", "1", NULL);
    ck_assert_msg(strstr(r.out, ":7: kernel saxpy") && !strstr(r.out, ":10: kernel saxpy") &&
                      strstr(r.out, "... and 2 more findings not printed (--print-limit; 3 are kept"),
                  "%s", r.out);
    th_free(&r);
    /* --log-file with %m and %p; stdout stays empty; the file gets the umask's permissions */
    snprintf(log, sizeof log, "%s/log-%%m-%%l.txt", dir);
    mode_t old = umask(027);
    r = th_run(ga_gasim_main, "gasim", "--trace", SAMPLE_BASIC, "--mode", "hwonly", "--log-file", log, NULL);
    umask(old);
    ck_assert_msg(r.rc == 0 && r.out[0] == '\0', "%d %s %s", r.rc, r.out, r.err);
    th_free(&r);
    snprintf(f, sizeof f, "%s/log-hwonly-bst.txt", dir);
    char *lt = th_slurp(f);
    ck_assert_ptr_nonnull(lt);
    ck_assert(strstr(lt, "HWOnly mode") && th_ends_with(lt, "ERROR SUMMARY: 3 errors\n"));
    free(lt);
    struct stat sb;
    ck_assert_int_eq(stat(f, &sb), 0);
    ck_assert_uint_eq(sb.st_mode & 0777, 0640);
    snprintf(log, sizeof log, "%s/j-%%p-%%q{GASIM_TEST_VAR}.json", dir);
    setenv("GASIM_TEST_VAR", "v", 1);
    old = umask(022);
    r = th_run(ga_gasim_main, "gasim", "--trace", SAMPLE_BASIC, "--json", log, "--quiet", NULL);
    umask(old);
    ck_assert_int_eq(r.rc, 0);
    th_free(&r);
    snprintf(f, sizeof f, "%s/j-%ld-v.json", dir, (long)getpid());
    ck_assert_int_eq(stat(f, &sb), 0);
    ck_assert_uint_eq(sb.st_mode & 0777, 0644);
    char *j = th_slurp(f);
    ck_assert_ptr_nonnull(j);
    ck_assert_msg(th_json_valid(j), "%s", j);
    /* tags in hexadecimal; the nearest distance is the text's N */
    ck_assert_msg(strstr(j, "\"nearest_distance\": 1, \"nearest_side\": \"after\""), "%s", j);
    ck_assert_msg(strstr(j, "\"tag\": \"0x7f\"") && strstr(j, "\"schema\": \"gasim-report\", \"schema_version\": 2"), "%s", j);
    ck_assert_msg(strstr(j, "\"trace_version\": 2, \"trace_complete\": true"), "%s", j);
    free(j);
    unlink(f);
    unsetenv("GASIM_TEST_VAR");
    r = th_run(ga_gasim_main, "gasim", "--trace", SAMPLE_BASIC, "--json", log, NULL);
    ck_assert_msg(r.rc == 2 && strstr(r.err, "environment variable GASIM_TEST_VAR is not set"), "%s", r.err);
    th_free(&r);
    r = th_run(ga_gasim_main, "gasim", "--trace", SAMPLE_BASIC, "--csv", "x%z", NULL);
    ck_assert_msg(r.rc == 2 && strstr(r.err, "unknown escape"), "%s", r.err);
    th_free(&r);
    /* an option given twice is refused (not silently overridden); --suppress may repeat */
    r = th_run(ga_gasim_main, "gasim", "--trace", SAMPLE_BASIC, "--trace", SAMPLE_CLEAN, NULL);
    ck_assert_msg(r.rc == 2 && strstr(r.err, "option --trace given twice"), "%s", r.err);
    th_free(&r);
    r = th_run(ga_gasim_main, "gasim", "--trace=" SAMPLE_BASIC, "--mode", "hwonly", "--mode=compiler", NULL);
    ck_assert_msg(r.rc == 2 && strstr(r.err, "option --mode given twice"), "%s", r.err);
    th_free(&r);
    r = th_run(ga_gaconv_main, "gaconv", "--format", "gatrace", "--format", "gatrace", SAMPLE_BASIC, "-", NULL);
    ck_assert_msg(r.rc == 2 && strstr(r.err, "option --format given twice"), "%s", r.err);
    th_free(&r);
    /* an output that is an input, by name or through another path */
    snprintf(p, sizeof p, "%s/copy.gatrace", dir);
    char *orig = th_slurp(SAMPLE_BASIC);
    th_write(p, orig, strlen(orig));
    snprintf(f, sizeof f, "%s/../%s/copy.gatrace", dir, strrchr(dir, '/') + 1);
    r = th_run(ga_gaconv_main, "gaconv", p, f, NULL);
    ck_assert_msg(r.rc == 2 && strstr(r.err, "is also an input: refusing to overwrite it"), "%s", r.err);
    th_free(&r);
    r = th_run(ga_gaconv_main, "gaconv", p, p, NULL);
    ck_assert_int_eq(r.rc, 2);
    th_free(&r);
    char *now = th_slurp(p);
    ck_assert_str_eq(now, orig); /* comments and version kept: untouched */
    free(now);
    free(orig);
    r = th_run(ga_gasim_main, "gasim", "--trace", p, "--json", f, NULL);
    ck_assert_msg(r.rc == 2 && strstr(r.err, "--json") && strstr(r.err, "is also the --trace input"), "%s", r.err);
    th_free(&r);
    r = th_run(ga_gasim_main, "gasim", "--trace", p, "--csv", dir, NULL);
    ck_assert_msg(r.rc == 2 && strstr(r.err, "is a directory (an output file was expected)"), "%s", r.err);
    th_free(&r);
    r = th_run(ga_gaconv_main, "gaconv", p, dir, NULL);
    ck_assert_msg(r.rc == 2 && strstr(r.err, "is a directory"), "%s", r.err);
    th_free(&r);
    snprintf(f, sizeof f, "%s/same.json", dir);
    r = th_run(ga_gasim_main, "gasim", "--trace", p, "--json", f, "--csv", f, NULL);
    ck_assert_msg(r.rc == 2 && strstr(r.err, "--json and --csv name the same file"), "%s", r.err);
    th_free(&r);
    /* --dry-run checks the command line only */
    r = th_run(ga_gasim_main, "gasim", "--trace", "no/such/file", "--mode", "hwonly", "--dry-run", NULL);
    ck_assert_msg(r.rc == 0 && strstr(r.out, "dry run: the command line is valid"), "%s", r.err);
    th_free(&r);
    r = th_run(ga_gasim_main, "gasim", "--trace", "no/such/file", "--mode", "hw", "--dry-run", NULL);
    ck_assert_int_eq(r.rc, 2);
    th_free(&r);
    r = th_run(ga_gaconv_main, "gaconv", "--dry-run", "a", "b", NULL);
    ck_assert_int_eq(r.rc, 0);
    th_free(&r);
    /* JSON stays valid whatever bytes a file name holds: UTF-8 as it is, anything else escaped */
    snprintf(p, sizeof p, "%s/caf\xc3\xa9-\xff.gatrace", dir);
    orig = th_slurp(SAMPLE_CLEAN);
    th_write(p, orig, strlen(orig));
    free(orig);
    r = th_run(ga_gasim_main, "gasim", "--trace", p, "--json", "-", NULL);
    ck_assert_int_eq(r.rc, 0);
    ck_assert_msg(th_json_valid(r.out) && strstr(r.out, "caf\xc3\xa9-\\u00ff.gatrace"), "%s", r.out);
    th_free(&r);
    /* a metadata region the runtime cannot use: a usage error naming the rule it breaks */
    r = th_run(ga_gasim_main, "gasim", "--trace", SAMPLE_BASIC, "--md-base", "0x200000000000000", NULL);
    ck_assert_msg(r.rc == 2 && strstr(r.err, "is not usable: it must end inside the VA space"), "%d %s", r.rc, r.err);
    th_free(&r);
    r = th_run(ga_gasim_main, "gasim", "--trace", SAMPLE_BASIC, "--md-base", "0x700000000000", NULL);
    ck_assert_msg(r.rc == 2 && strstr(r.err, "must not overlap the heap of automatic allocations"), "%d %s", r.rc,
                  r.err);
    th_free(&r);
    r = th_run(ga_gasim_main, "gasim", "--trace", SAMPLE_BASIC, "--md-base", "0x100000000000", NULL);
    ck_assert_msg(r.rc == 0, "%d %s", r.rc, r.err); /* anywhere else is fine */
    th_free(&r);
    /* reserved exit codes; --wave needs --rtl; the RTL has 8- and 16-entry MLBs only */
    static const char *const bad[][5] = {
        {"--error-exitcode", "1", NULL, NULL, "is reserved"},
        {"--error-exitcode", "4", NULL, NULL, "choose 5..255"},
        {"--wave", "1:2", NULL, NULL, "--wave and --wave-file need --rtl"},
        {"--wave", "5:2", "--rtl", NULL, "expected FROM:TO"},
        {"--rtl", "--wave-file", "x.fst", NULL, "--wave-file needs --wave"},
        {"--rtl", "--mlb", "4", NULL, "no Verilated configuration has a 4-entry MLB"},
        {"--md-base", "0x1001", NULL, NULL, "a non-zero multiple of 32"},
        {"--allocs-rebase", "memcpy", NULL, NULL, "apply to Accel-Sim traces only"},
        {"--print-limit", "x", NULL, NULL, "--print-limit: expected an integer"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        r = th_run(ga_gasim_main, "gasim", "--trace", SAMPLE_BASIC, bad[i][0], bad[i][1], bad[i][2], bad[i][3], NULL);
        ck_assert_msg(r.rc == 2 && strstr(r.err, bad[i][4]), "case %zu: %d %s", i, r.rc, r.err);
        th_free(&r);
    }
    th_rmdir(dir);
}
END_TEST

/* The gzip reader names the file and the problem; binary input is named as such. */
START_TEST(test_files_binary)
{
    char dir[256], p[512];
    th_tmpdir(dir, sizeof dir);
    snprintf(p, sizeof p, "%s/bad.gz", dir);
    /* a gzip header, then a deflate block of the reserved type 3 */
    static const unsigned char bad[] = {0x1f, 0x8b, 0x08, 0x00, 0, 0, 0, 0, 0, 0x03, 0x07, 0x00, 0x00, 0x00, 0x00, 0x00};
    th_write(p, bad, sizeof bad);
    th_run_t r = th_run(ga_gasim_main, "gasim", "--trace", p, NULL);
    ck_assert_int_eq(r.rc, 1);
    ck_assert_msg(strstr(r.err, "bad.gz:1: not valid gzip data: the file starts with the gzip magic bytes (1f 8b) but its "
                                "compressed data is corrupt (zlib: invalid block type)") && !strstr(r.err, "<fd:"),
                  "%s", r.err);
    th_free(&r);
    static const unsigned char cut[] = {0x1f, 0x8b, 0x08, 0x00, 'g', 'a', 'r', 'b', 'a', 'g', 'e', 'g', 'a', 'r', 'b'};
    th_write(p, cut, sizeof cut);
    r = th_run(ga_gasim_main, "gasim", "--trace", p, NULL);
    ck_assert_int_eq(r.rc, 1);
    ck_assert_msg(strstr(r.err, "bad.gz:1: truncated gzip stream"), "%s", r.err);
    th_free(&r);
    size_t n = 3 * GA_TRACE_LINE_MAX;
    char *zeros = calloc(1, n);
    ck_assert_ptr_nonnull(zeros);
    snprintf(p, sizeof p, "%s/zeros", dir);
    th_write(p, zeros, n);
    free(zeros);
    r = th_run(ga_gasim_main, "gasim", "--trace", p, NULL);
    ck_assert_int_eq(r.rc, 1);
    ck_assert_msg(strstr(r.err, "zeros:1: NUL bytes in the input (4095 in the first 4095 bytes of the line): not a text "
                                "trace"),
                  "%s", r.err);
    th_free(&r);
    th_rmdir(dir);
}
END_TEST

int main(void)
{
    Suite *su = suite_create("trace");
    TCase *tp = tcase_create("parser");
    tcase_add_test(tp, test_numbers);
    tcase_add_test(tp, test_accept);
    tcase_add_loop_test(tp, test_reject, 0, (int)(sizeof rejects / sizeof rejects[0]));
    tcase_add_test(tp, test_reject_bytes);
    tcase_add_test(tp, test_files);
    tcase_add_test(tp, test_round_trip);
    tcase_add_test(tp, test_v2_accept);
    tcase_add_test(tp, test_v2_truncation);
    tcase_add_test(tp, test_files_binary);
    suite_add_tcase(su, tp);
    TCase *tr = tcase_create("replay");
    tcase_add_loop_test(tr, test_replay_basic, 0, 6);
    tcase_add_loop_test(tr, test_replay_loadmeta_cache, 0, 3);
    tcase_add_loop_test(tr, test_replay_neighbour, 0, 3);
    tcase_add_test(tr, test_replay_errors);
    tcase_add_test(tr, test_replay_latency);
    tcase_add_loop_test(tr, test_replay_misc, 0, 3);
    tcase_add_loop_test(tr, test_replay_bad_frees, 0, 3);
    tcase_add_test(tr, test_replay_walk_limited);
    tcase_add_test(tr, test_replay_tag0_latency);
    tcase_add_test(tr, test_replay_tag_width);
    tcase_add_test(tr, test_replay_progress);
    suite_add_tcase(su, tr);
    TCase *tt = tcase_create("tools");
    tcase_set_timeout(tt, 60);
    tcase_add_test(tt, test_gasim_cli);
    tcase_add_test(tt, test_gasim_outputs);
    tcase_add_test(tt, test_gasim_tag_extensions);
    tcase_add_test(tt, test_gasim_report_options);
    suite_add_tcase(su, tt);
    SRunner *sr = srunner_create(su);
    srunner_run_all(sr, CK_ENV);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
