/*
 * test_accelsim.c — the Accel-Sim / NVBit importer (docs/traces.md §9) on the hand-written sample in
 * sim/traces/accelsim/ and on malformed inputs: the gatrace it produces (against reviewed expected
 * files and field by field), the detections its replay gives in both modes with and without an
 * allocation list, "FILE:LINE: message" errors for each kind of malformed input, and an allocation
 * list from another run: the warning that says so, --allocs-shift and --allocs-rebase memcpy.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "trace/ga_accelsim.h"
#include "trace/ga_replay.h"
#include "trace_helpers.h"

#define DIR "sim/traces/accelsim"

/* All lines the importer produces, joined with '\n' (caller frees); NULL with err on failure. */
static char *import_text(const char *list, const char *allocs, unsigned sms, ga_trace_err_t *err)
{
    ga_accelsim_opts_t o;
    ga_accelsim_default_opts(&o);
    o.allocs_path = allocs;
    if (sms) o.sms = sms;
    ga_line_src_t src;
    if (ga_accelsim_src(&src, list, &o, err) != 0) return NULL;
    size_t cap = 1u << 16, len = 0;
    char *out = malloc(cap);
    ck_assert_ptr_nonnull(out);
    char line[GA_TRACE_LINE_MAX];
    size_t n;
    int rc;
    while ((rc = src.next(src.ctx, line, sizeof line, &n, err)) > 0) {
        if (cap - len < n + 2u) {
            cap = 2u * cap + n;
            out = realloc(out, cap);
            ck_assert_ptr_nonnull(out);
        }
        memcpy(out + len, line, n);
        len += n;
        out[len++] = '\n';
    }
    out[len] = '\0';
    src.close(src.ctx);
    if (rc < 0) {
        free(out);
        return NULL;
    }
    return out;
}

/* The importer's text without comment lines equals the reviewed expected file. */
static void check_expected(const char *allocs, const char *expected_path)
{
    ga_trace_err_t err;
    char *got = import_text(DIR "/kernelslist.g", allocs, 0, &err);
    ck_assert_msg(got != NULL, "%s", err.msg);
    /* drop comment lines */
    char *w = got;
    for (char *p = got; *p;) {
        char *nl = strchr(p, '\n');
        size_t n = nl ? (size_t)(nl - p) + 1u : strlen(p);
        if (*p != '#') {
            memmove(w, p, n);
            w += n;
        }
        p += n;
    }
    *w = '\0';
    char *want = th_slurp(expected_path);
    ck_assert_ptr_nonnull(want);
    ck_assert_str_eq(got, want);
    free(want);
    free(got);
}

START_TEST(test_import_sample)
{
    check_expected(DIR "/allocs.txt", DIR "/expected-allocs.gatrace");
    check_expected(NULL, DIR "/expected-inferred.gatrace");

    ga_trace_err_t err;
    char *t = import_text(DIR "/kernelslist.g", DIR "/allocs.txt", 0, &err);
    ck_assert_msg(t != NULL, "%s", err.msg);
    /* header, allocations in address order with fixed addresses */
    const char *head = "gatrace 2 sms=4 alloc=fixed\nalloc a0 4096 at 0x7f0000000000\n"
                       "alloc a1 4096 at 0x7f0000001000\nalloc a2 256 at 0x7f0000010000\n"
                       "kernel _Z6vecAddPKfS0_Pfi\n";
    ck_assert(strncmp(t, head, strlen(head)) == 0);
    /* mode 1 (a), mode 0 (b, a list of a contiguous stride: written as a stride), mode 2 (c) */
    ck_assert(strstr(t, "\nld 0 0 4 0xffffffff root=a0 stride a0 4\nld 0 0 4 0xffffffff root=a1 stride a1 4\n"
                        "st 0 0 4 0xffffffff root=a2 stride a2 4\n"));
    /* block 1 runs on SM 1; its second warp has a partial mask; c's overflow is relative to a2 */
    ck_assert(strstr(t, "\nst 1 1 4 0x0000ffff root=a2 stride a2+0x180 4\n"));
    /* kernel 2: b's last lane one past its end; shared through STS (mode 1), LDS (mode 2, negative
     * deltas) and generic LD in the shared window; the atomic to c; the local load skipped */
    ck_assert(strstr(t, "\nld 0 0 4 0xffffffff root=a1 stride a1+0xf84 4\n"));
    ck_assert(strstr(t, "\nlds 0 0 4 0xffffffff 0 128 list 0x7c 0x78 0x74 "));
    ck_assert(strstr(t, "\nlds 0 0 4 0x00000001 0 128 list 0x40\nsts 0 0 4 0x00000001 0 128 list 0x80\n"
                        "st 0 0 4 0x00000001 root=a2 list a2\nend\n"));
    ck_assert(strstr(t, "# accelsim import: 2 kernels, 38 instructions; replayed ld 9, st 5, lds 2, sts 2; "
                        "0 global outside every allocation (unchecked); 1 other memory instructions skipped"));
    free(t);
    /* --sms spreads thread blocks: with one SM block 1 is SM 0, warps 2 and 3 */
    t = import_text(DIR "/kernelslist.g", NULL, 1, &err);
    ck_assert_msg(t != NULL, "%s", err.msg);
    ck_assert(strncmp(t, "gatrace 2 sms=1 alloc=fixed\n", 28) == 0);
    ck_assert(strstr(t, "\nld 0 3 4 0x0000ffff root=a0 stride a0+0x180 4\n"));
    ck_assert(strstr(t, "; 5 global outside every allocation (unchecked);"));
    free(t);
    ck_assert(ga_accelsim_is_kernelslist("x/y/kernelslist.g"));
    ck_assert(ga_accelsim_is_kernelslist("kernelslist.g"));
    ck_assert(!ga_accelsim_is_kernelslist("kernelslist.g.bak"));
}
END_TEST

static unsigned popcount32(uint32_t m)
{
    unsigned c = 0;
    for (; m; m &= m - 1u) c++;
    return c;
}

/* Replay of the imported sample (sim/traces/accelsim/README.md gives the expected detections). */
static void replay_import(const char *allocs, ga_mode_t mode, ga_layout_t layout, char *got, size_t cap)
{
    ga_accelsim_opts_t o;
    ga_accelsim_default_opts(&o);
    o.allocs_path = allocs;
    ga_line_src_t src;
    ga_trace_err_t err;
    ck_assert_msg(ga_accelsim_src(&src, DIR "/kernelslist.g", &o, &err) == 0, "%s", err.msg);
    ga_trace_reader_t *r;
    ck_assert_int_eq(ga_trace_open_src(&r, &src, &err), 0);
    ga_replay_cfg_t c;
    ga_replay_default_cfg(&c);
    c.mode = mode;
    c.layout = layout;
    ga_replay_t *rp;
    ck_assert_msg(ga_replay_run(&rp, &c, r, NULL, NULL, &err) == 0, "%s", err.msg);
    const ga_detection_t *d;
    size_t n = ga_replay_detections(rp, &d), len = 0;
    got[0] = '\0';
    for (size_t i = 0; i < n; i++) {
        const char *f = ga_replay_file_name(rp, d[i].file);
        const char *slash = strrchr(f, '/');
        len += (size_t)snprintf(got + len, cap - len, "%s%s@%s:%llu/%u", i ? " " : "", ga_exc_name(d[i].rec.kind),
                                slash ? slash + 1 : f, (unsigned long long)d[i].line,
                                (unsigned)popcount32(d[i].fault_mask));
    }
    ga_replay_destroy(rp);
    ga_trace_close(r);
}

START_TEST(test_import_replay)
{
    char got[1024];
    ga_layout_t layout = (ga_layout_t)_i;
    replay_import(DIR "/allocs.txt", GA_MODE_COMPILER, layout, got, sizeof got);
    ck_assert_str_eq(got, "OUT_OF_BOUNDS@kernel-1.traceg:53/32 OUT_OF_BOUNDS@kernel-1.traceg:63/16 "
                          "OUT_OF_BOUNDS@kernel-2.traceg:23/1 SHARED_OUT_OF_BOUNDS@kernel-2.traceg:28/1");
    replay_import(DIR "/allocs.txt", GA_MODE_HWONLY, layout, got, sizeof got);
    ck_assert_str_eq(got, "NO_METADATA@kernel-1.traceg:53/32 NO_METADATA@kernel-1.traceg:63/16 "
                          "NO_METADATA@kernel-2.traceg:23/1");
    replay_import(NULL, GA_MODE_COMPILER, layout, got, sizeof got);
    ck_assert_str_eq(got, "OUT_OF_BOUNDS@kernel-2.traceg:23/1 SHARED_OUT_OF_BOUNDS@kernel-2.traceg:28/1");
    replay_import(NULL, GA_MODE_HWONLY, layout, got, sizeof got);
    ck_assert_str_eq(got, "NO_METADATA@kernel-2.traceg:23/1");
}
END_TEST

/* gasim on the sample: the importer is picked by the file name; detections cite the Accel-Sim files. */
START_TEST(test_import_gasim)
{
    th_run_t r = th_run(ga_gasim_main, "gasim", "--trace", DIR "/kernelslist.g", "--allocs", DIR "/allocs.txt",
                        "--error-exitcode", "7", NULL);
    ck_assert_int_eq(r.rc, 7);
    ck_assert_msg(strstr(r.out, "detections         4 (OUT_OF_BOUNDS 3, SHARED_OUT_OF_BOUNDS 1), 50 failing lanes"),
                  "%s", r.out);
    ck_assert(strstr(r.out, "    " DIR "/kernel-1.traceg:53: kernel _Z6vecAddPKfS0_Pfi: OUT_OF_BOUNDS st sm 1 warp 0"));
    th_free(&r);
    r = th_run(ga_gaconv_main, "gaconv", "--format", "accelsim", DIR "/kernelslist.g", "-", NULL);
    ck_assert_int_eq(r.rc, 0);
    char *want = th_slurp(DIR "/expected-inferred.gatrace");
    ck_assert_str_eq(r.out, want);
    free(want);
    th_free(&r);
}
END_TEST

/* ---------------------------------------------------------------------------------------------------
 * Malformed inputs. */

typedef struct {
    const char *list;   /* kernelslist.g */
    const char *kernel; /* kernel-1.traceg (NULL: none written) */
    const char *allocs; /* allocs.txt (NULL: not used) */
    const char *where;  /* "kernel-1.traceg:7: " (after the directory) */
    const char *what;
} bad_t;

#define KH "-kernel name = k\n-block dim = (64,1,1)\n-shmem = 0\n\nthread block = 0,0,0\nwarp = 0\n"
#define LIST "MemcpyHtoD,0x1000,4096\nkernel-1.traceg\n"
static const bad_t bads[] = {
    {"Bogus line\n", NULL, NULL, "kernelslist.g:1: ",
     "expected MemcpyHtoD,0xADDR,BYTES or a kernel trace file name (kernel-N.traceg)"},
    {"MemcpyHtoD,1000,16\n", NULL, NULL, "kernelslist.g:1: ", "expected MemcpyHtoD,0xADDR,BYTES"},
    {"MemcpyHtoD,0x1000,0x10\n", NULL, NULL, "kernelslist.g:1: ", "expected MemcpyHtoD,0xADDR,BYTES"},
    {"MemcpyHtoD,0x1000\n", NULL, NULL, "kernelslist.g:1: ", "expected MemcpyHtoD,0xADDR,BYTES"},
    {"MemcpyHtoD,0xffffffffffffffff,16\n", NULL, NULL, "kernelslist.g:1: ", "is not a valid allocation"},
    {"\nkernel-9.traceg\n", NULL, NULL, "kernelslist.g:2: ", "kernel trace: "},
    {LIST, "0000 ffffffff 0 EXIT 0 0\n", NULL, "kernel-1.traceg:1: ",
     "instruction line before 'thread block = ...' and 'warp = N'"},
    {LIST, "thread block = 0,0,0\n", NULL, "kernel-1.traceg:1: ", "thread block before the '-block dim = (x,y,z)' header line"},
    {LIST, "-block dim = (0,1,1)\n", NULL, "kernel-1.traceg:1: ", "expected '-block dim = (x,y,z)'"},
    {LIST, "-shmem = lots\n", NULL, "kernel-1.traceg:1: ", "expected '-shmem = BYTES'"},
    {LIST, "-shmem base_addr = 1234\n", NULL, "kernel-1.traceg:1: ", "expected '-shmem base_addr = 0xADDR'"},
    {LIST, "-no equals sign\n", NULL, "kernel-1.traceg:1: ", "expected '-key = value'"},
    {LIST, "-block dim=(64,1,1) =\n", NULL, "kernel-1.traceg:1: ", "expected '-block dim = (x,y,z)'"},
    {LIST, "-shmem=\n", NULL, "kernel-1.traceg:1: ", "expected '-shmem = BYTES'"},
    {LIST, KH "insts = 1\n0000 ffffffff 0 EXIT 0 0\n-shmem = 4\n", NULL, "kernel-1.traceg:9: ",
     "header line '-...' after the first thread block"},
    {LIST, KH "warp = 2\n", NULL, "kernel-1.traceg:7: ", "warp 2 but a block of the '-block dim' has 2 warp(s)"},
    {LIST, KH "insts = 2\n0000 ffffffff 0 EXIT 0 0\n", NULL, "kernel-1.traceg:8: ",
     "end of file while 1 instruction line(s) of the warp are missing"},
    {LIST, KH "insts = 1\n0000 ffffffff 0 EXIT 0 0\n0010 ffffffff 0 EXIT 0 0\n", NULL, "kernel-1.traceg:9: ",
     "more instruction lines than the warp's 'insts = N' announced"},
    {LIST, KH "insts = 2\n0000 ffffffff 0 EXIT 0 0\nwarp = 1\n", NULL, "kernel-1.traceg:9: ",
     "new warp while 1 instruction line(s) are missing"},
    {LIST, KH "insts = 1\nzz ffffffff 0 EXIT 0 0\n", NULL, "kernel-1.traceg:8: ", "expected a PC (hexadecimal without 0x)"},
    {LIST, KH "insts = 1\n0000 1ffffffff 0 EXIT 0 0\n", NULL, "kernel-1.traceg:8: ", "expected an active mask"},
    {LIST, KH "insts = 1\n0000 ffffffff 2 R1\n", NULL, "kernel-1.traceg:8: ", "expected 2 destination register(s) and an opcode"},
    {LIST, KH "insts = 1\n0000 ffffffff 0 EXIT\n", NULL, "kernel-1.traceg:8: ", "expected the number of source registers"},
    {LIST, KH "insts = 1\n0000 ffffffff 0 EXIT 1 R1\n", NULL, "kernel-1.traceg:8: ", "and the memory width"},
    {LIST, KH "insts = 1\n0000 ffffffff 0 EXIT 0 0 7\n", NULL, "kernel-1.traceg:8: ", "unexpected fields after memory width 0"},
    {LIST, KH "insts = 1\n0000 ffffffff 0 LDG.E 0 4 3 0x1000\n", NULL, "kernel-1.traceg:8: ",
     "expected an address compression mode 0, 1 or 2"},
    {LIST, KH "insts = 1\n0000 00000003 0 LDG.E 0 4 0 0x1000\n", NULL, "kernel-1.traceg:8: ",
     "expected 2 address(es) (one per active lane) in mode 0, got 1"},
    {LIST, KH "insts = 1\n0000 00000001 0 LDG.E 0 4 0 1000\n", NULL, "kernel-1.traceg:8: ",
     "expected a 0x-prefixed hexadecimal address for lane 0"},
    {LIST, KH "insts = 1\n0000 00000005 0 LDG.E 0 4 1 0x1000 4\n", NULL, "kernel-1.traceg:8: ",
     "mode 1 (base + stride) needs contiguous active lanes, mask is 0x00000005"},
    {LIST, KH "insts = 1\n0000 00000003 0 LDG.E 0 4 1 0x1000\n", NULL, "kernel-1.traceg:8: ",
     "expected a decimal stride after the base (mode 1)"},
    {LIST, KH "insts = 1\n0000 00000003 0 LDG.E 0 4 1 0x1000 4 4\n", NULL, "kernel-1.traceg:8: ",
     "unexpected fields after the stride (mode 1)"},
    {LIST, KH "insts = 1\n0000 00000007 0 LDG.E 0 4 2 0x1000 4\n", NULL, "kernel-1.traceg:8: ",
     "expected 2 delta(s) after the base (mode 2: one per further active lane), got 1"},
    {LIST, KH "insts = 1\n0000 00000003 0 LDG.E 0 4 2 0x1000 x\n", NULL, "kernel-1.traceg:8: ",
     "expected a signed decimal delta for lane 1 (mode 2)"},
    {LIST, KH "insts = 1\n0000 00000001 0 LDG.E 0 3 0 0x1000\n", NULL, "kernel-1.traceg:8: ",
     "memory width 3 of LDG.E is not 1, 2, 4, 8 or 16 bytes"},
    {LIST, KH "insts = 1\n0000 00000001 0 STS 0 4 0 0x100000000\n", NULL, "kernel-1.traceg:8: ",
     "shared address 0x100000000 of lane 0 is neither in the shared window nor below 2^32"},
    {LIST, "#BEGIN_TB\n#BEGIN_TB\n", NULL, "kernel-1.traceg:2: ", "#BEGIN_TB inside a thread block (missing #END_TB)"},
    {LIST, KH "insts = 2\n0000 ffffffff 0 EXIT 0 0\n#END_TB\n", NULL, "kernel-1.traceg:9: ",
     "#END_TB while 1 instruction line(s) of the warp are missing"},
    {LIST, "-block dim = (32,1,1)\nwarp = 0\n", NULL, "kernel-1.traceg:2: ", "'warp = N' before 'thread block = x,y,z'"},
    {LIST, "-block dim = (32,1,1)\nthread block = 0,0,0\ninsts = 1\n", NULL, "kernel-1.traceg:3: ", "'insts = N' before 'warp = N'"},
    {LIST, "-block dim = (32,1,1)\nthread block = 0,0\n", NULL, "kernel-1.traceg:2: ", "expected 'thread block = x,y,z'"},
    {LIST, NULL, "0x1000 16\nbogus\n", "allocs.txt:2: ", "expected 'BASE SIZE' (two numbers, decimal or 0x hexadecimal)"},
    {LIST, NULL, "0x1000 0\n", "allocs.txt:1: ", "expected a base >= 1 and a size >= 1"},
    {LIST, NULL, "# two overlapping\n0x1000 0x100\n0x10f0 16\n", "allocs.txt:3: ",
     "allocation [0x10f0, +16) overlaps [0x1000, +256) (line 2)"},
};
#undef KH
#undef LIST

START_TEST(test_import_errors)
{
    const bad_t *b = &bads[_i];
    char dir[256], p[512], allocs[512];
    th_tmpdir(dir, sizeof dir);
    snprintf(p, sizeof p, "%s/kernelslist.g", dir);
    th_write(p, b->list, strlen(b->list));
    if (b->kernel) {
        char k[512];
        snprintf(k, sizeof k, "%s/kernel-1.traceg", dir);
        th_write(k, b->kernel, strlen(b->kernel));
    }
    if (b->allocs) {
        snprintf(allocs, sizeof allocs, "%s/allocs.txt", dir);
        th_write(allocs, b->allocs, strlen(b->allocs));
    }
    ga_trace_err_t err;
    char *t = import_text(p, b->allocs ? allocs : NULL, 0, &err);
    ck_assert_msg(t == NULL, "case %d: no error; got:\n%s", _i, t ? t : "");
    char where[600];
    snprintf(where, sizeof where, "%s/%s", dir, b->where);
    ck_assert_msg(strncmp(err.msg, where, strlen(where)) == 0 && strstr(err.msg, b->what),
                  "case %d: got '%s', expected '%s...%s'", _i, err.msg, where, b->what);
    /* gasim says the same and exits 1 */
    th_run_t r = b->allocs ? th_run(ga_gasim_main, "gasim", "--trace", p, "--allocs", allocs, NULL)
                           : th_run(ga_gasim_main, "gasim", "--trace", p, NULL);
    ck_assert_int_eq(r.rc, 1);
    ck_assert_msg(strstr(r.err, b->what), "case %d: %s", _i, r.err);
    ck_assert_str_eq(r.out, "");
    th_free(&r);
    th_rmdir(dir);
}
END_TEST

/* Warnings and notes of the importer, collected. */
typedef struct {
    char msg[4][GA_TRACE_ERR_MAX];
    int n;
} warns_t;

static void warn_cb(void *ctx, const char *m)
{
    warns_t *w = ctx;
    if (w->n < 4) snprintf(w->msg[w->n++], sizeof w->msg[0], "%s", m);
}

/* Detections of a compiler-mode replay of the sample with the importer options o, as in
 * replay_import; the warnings in *w. */
static void replay_opts(ga_accelsim_opts_t *o, warns_t *w, char *got, size_t cap)
{
    memset(w, 0, sizeof *w);
    o->warn = warn_cb;
    o->warn_ctx = w;
    ga_line_src_t src;
    ga_trace_err_t err;
    ck_assert_msg(ga_accelsim_src(&src, DIR "/kernelslist.g", o, &err) == 0, "%s", err.msg);
    ga_trace_reader_t *r;
    ck_assert_int_eq(ga_trace_open_src(&r, &src, &err), 0);
    ga_replay_cfg_t c;
    ga_replay_default_cfg(&c);
    ga_replay_t *rp;
    ck_assert_msg(ga_replay_run(&rp, &c, r, NULL, NULL, &err) == 0, "%s", err.msg);
    const ga_detection_t *d;
    size_t n = ga_replay_detections(rp, &d), len = 0;
    got[0] = '\0';
    for (size_t i = 0; i < n; i++)
        len += (size_t)snprintf(got + len, cap - len, "%s%s@%llu", i ? " " : "", ga_exc_name(d[i].rec.kind),
                                (unsigned long long)d[i].line);
    ga_replay_destroy(rp);
    ga_trace_close(r);
}

/* An allocation list from another run (every base 0x10000000 lower): most accesses touch no
 * allocation, which the importer says; --allocs-rebase memcpy finds the shift back from the
 * MemcpyHtoD lines, --allocs-shift applies a given one; both give the faithful replay's detections. */
START_TEST(test_import_rebase)
{
    char dir[256], al[512], got[1024], want[1024];
    th_tmpdir(dir, sizeof dir);
    snprintf(al, sizeof al, "%s/allocs.txt", dir);
    th_write(al, "0x7efff0000000 4096\n0x7efff0001000 4096\n0x7efff0010000 256\n", 59);
    ga_accelsim_opts_t o;
    warns_t w;
    ga_accelsim_default_opts(&o);
    o.allocs_path = DIR "/allocs.txt";
    replay_opts(&o, &w, want, sizeof want);
    ck_assert_int_eq(w.n, 0); /* the faithful list: no warning */
    ga_accelsim_default_opts(&o);
    o.allocs_path = al;
    replay_opts(&o, &w, got, sizeof got);
    ck_assert_int_eq(w.n, 1);
    ck_assert_msg(strstr(w.msg[0], "warning: " DIR "/kernelslist.g: 14 of 14 global memory instructions (100.0 %) "
                                    "touch no allocation of the list") && strstr(w.msg[0], "--allocs-rebase memcpy"),
                  "%s", w.msg[0]);
    ck_assert_str_ne(got, want);
    ga_accelsim_default_opts(&o);
    o.allocs_path = al;
    o.allocs_rebase = true;
    replay_opts(&o, &w, got, sizeof got);
    ck_assert_str_eq(got, want);
    ck_assert_int_eq(w.n, 1);
    ck_assert_msg(strstr(w.msg[0], "shifted by +0x10000000 (3 of 3 MemcpyHtoD ranges now lie inside allocations)"), "%s",
                  w.msg[0]);
    ga_accelsim_default_opts(&o);
    o.allocs_path = al;
    o.allocs_shift = UINT64_C(0x10000000);
    replay_opts(&o, &w, got, sizeof got);
    ck_assert_str_eq(got, want);
    ck_assert_int_eq(w.n, 0);
    /* a shift past 2^64, a rebase with nothing to rebase onto, shift without a list */
    ga_line_src_t src;
    ga_trace_err_t err;
    ga_accelsim_default_opts(&o);
    o.allocs_path = al;
    o.allocs_shift = (uint64_t)0 - UINT64_C(0x7efff0000000);
    ck_assert_int_eq(ga_accelsim_src(&src, DIR "/kernelslist.g", &o, &err), -1);
    ck_assert_msg(strstr(err.msg, "allocs.txt:1: shifted by") && strstr(err.msg, "lands at 0 or past 2^64"), "%s", err.msg);
    ga_accelsim_default_opts(&o);
    o.allocs_shift = 16;
    ck_assert_int_eq(ga_accelsim_src(&src, DIR "/kernelslist.g", &o, &err), -1);
    ck_assert_msg(strstr(err.msg, "apply to an allocation list given with --allocs"), "%s", err.msg);
    char p[512];
    snprintf(p, sizeof p, "%s/kernelslist.g", dir);
    th_write(p, "# nothing\n", 10);
    ga_accelsim_default_opts(&o);
    o.allocs_path = al;
    o.allocs_rebase = true;
    ck_assert_int_eq(ga_accelsim_src(&src, p, &o, &err), -1);
    ck_assert_msg(strstr(err.msg, "no MemcpyHtoD line to rebase onto"), "%s", err.msg);
    /* gasim: the warning is in the report, the option reaches the importer, bad combinations are usage errors */
    th_run_t r = th_run(ga_gasim_main, "gasim", "--trace", DIR "/kernelslist.g", "--allocs", al, NULL);
    ck_assert_int_eq(r.rc, 0);
    ck_assert_msg(strstr(r.out, "  warning: " DIR "/kernelslist.g: 14 of 14 global"), "%s", r.out);
    th_free(&r);
    r = th_run(ga_gasim_main, "gasim", "--trace", DIR "/kernelslist.g", "--allocs", al, "--allocs-rebase", "memcpy",
               "--error-exitcode", "9", NULL);
    ck_assert_int_eq(r.rc, 9);
    ck_assert_msg(strstr(r.out, "ERROR SUMMARY: 4 errors\n") && strstr(r.out, "shifted by +0x10000000"), "%s", r.out);
    th_free(&r);
    r = th_run(ga_gasim_main, "gasim", "--trace", DIR "/kernelslist.g", "--allocs-shift", "16", NULL);
    ck_assert_int_eq(r.rc, 2);
    ck_assert_msg(strstr(r.err, "shift the list given with --allocs"), "%s", r.err);
    th_free(&r);
    r = th_run(ga_gasim_main, "gasim", "--trace", DIR "/kernelslist.g", "--allocs", al, "--allocs-shift", "x", NULL);
    ck_assert_int_eq(r.rc, 2);
    th_free(&r);
    r = th_run(ga_gaconv_main, "gaconv", "--allocs", al, "--allocs-shift", "0x10000000", DIR "/kernelslist.g", "-", NULL);
    ck_assert_int_eq(r.rc, 0);
    char *exp = th_slurp(DIR "/expected-allocs.gatrace");
    ck_assert_str_eq(r.out, exp);
    free(exp);
    th_free(&r);
    th_rmdir(dir);
}
END_TEST

/* Odd but legal: blank and comment lines, MemcpyDtoH, a kernel with no thread block, mask 0, a
 * zero-byte memcpy, an allocation list that is authoritative for strays. */
START_TEST(test_import_edges)
{
    char dir[256], p[512], k[512], al[512];
    th_tmpdir(dir, sizeof dir);
    snprintf(p, sizeof p, "%s/kernelslist.g", dir);
    snprintf(k, sizeof k, "%s/kernel-1.traceg", dir);
    snprintf(al, sizeof al, "%s/allocs.txt", dir);
    const char *list = "\n# comment\n  MemcpyHtoD,0x1000,0  \nMemcpyDtoH,0x5000,16\nkernel-1.traceg\nkernel-1.traceg\n";
    const char *kern = "-kernel name = a name with spaces#and a hash\n-block dim=(33,1,1)\n-nregs=\n"
                       "-accelsim tracer version = 3\n#traces format = whatever\n\n#BEGIN_TB\nthread block = 0,0,0\n"
                       "warp = 1\ninsts = 3\n"
                       "0000 00000000 0 LDG.E 0 4 1 0x1000 4\n"  /* mask 0: nothing */
                       "0010 00000003 0 STG.E 0 8 1 0x3000 -8\n" /* outside every allocation */
                       "0020 00000001 0 LDG.E 0 4 0 0x900\n"     /* below every allocation */
                       "#END_TB\n";
    th_write(p, list, strlen(list));
    th_write(k, kern, strlen(kern));
    th_write(al, "0x2000 0x100\n", 13);
    ga_trace_err_t err;
    char *t = import_text(p, NULL, 0, &err);
    ck_assert_msg(t != NULL, "%s", err.msg);
    ck_assert_msg(strstr(t, "gatrace 2 sms=4 alloc=fixed\nkernel a_name_with_spaces_and_a_hash\n"
                            "st 0 1 8 0x00000003 root=none list 0x3000 0x2ff8\n"
                            "ld 0 1 4 0x00000001 root=none list 0x900\nend\nkernel "),
                  "%s", t);
    free(t);
    t = import_text(p, al, 0, &err);
    ck_assert_msg(t != NULL, "%s", err.msg);
    /* authoritative list: strays take the allocation below, else the lowest */
    ck_assert_msg(strstr(t, "\nst 0 1 8 0x00000003 root=a0 stride a0+0x1000 -8\n"
                            "ld 0 1 4 0x00000001 root=a0 list a0-0x1700\n"),
                  "%s", t);
    free(t);
    /* a kernel file with no thread block still makes a kernel */
    th_write(k, "-kernel name = empty\n", 21);
    t = import_text(p, NULL, 0, &err);
    ck_assert_msg(t != NULL, "%s", err.msg);
    ck_assert_msg(strstr(t, "kernel empty\nend\nkernel empty\nend\n"), "%s", t);
    free(t);
    th_rmdir(dir);
}
END_TEST

int main(void)
{
    Suite *su = suite_create("accelsim");
    TCase *tc = tcase_create("import");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_import_sample);
    tcase_add_loop_test(tc, test_import_replay, 0, 3);
    tcase_add_test(tc, test_import_gasim);
    tcase_add_loop_test(tc, test_import_errors, 0, (int)(sizeof bads / sizeof bads[0]));
    tcase_add_test(tc, test_import_edges);
    tcase_add_test(tc, test_import_rebase);
    suite_add_tcase(su, tc);
    SRunner *sr = srunner_create(su);
    srunner_run_all(sr, CK_ENV);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
