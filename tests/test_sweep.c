/*
 * test_sweep.c — a captured trace through one layout x MLB point (sim/eval/ga_sweep.h, docs/eval.md
 * "The corpus traces"): with an MLB the counters are exactly the trace library's replay; without one
 * nothing hits and walks repeat; the allocation working set is per warp (SM and warp) and per kernel;
 * malformed traces and bad configurations are refused with a message naming the place.
 */
#include "ga_sweep.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char msg[2048];
static char file[256];

/* Two kernels on 2 SMs. Kernel k1: warp (0,0) reads a1 and a2, warp (0,1) a1, warp (1,0) a3: a working
 * set of 2 (3 if warps of different SMs were mixed up). Kernel k2: warp (0,0) reads a3 only and warp
 * (0,1) reads a1 and a2: still 2 (3 if the sets were not cleared between kernels). Each root is
 * loaded twice by its warp, so an MLB has something to hit. */
static const char k_trace[] = "gatrace 2 sms=2 tag_bits=7\n"
                              "alloc a1 4096\n"
                              "alloc a2 4096\n"
                              "alloc a3 4096\n"
                              "kernel k1\n"
                              "ld 0 0 4 0xffffffff root=a1 stride a1 4\n"
                              "ld 0 0 4 0xffffffff root=a2 stride a2 4\n"
                              "ld 0 0 4 0xffffffff root=a1 stride a1+0x80 4\n"
                              "ld 0 1 4 0xffffffff root=a1 stride a1+0x100 4\n"
                              "ld 1 0 4 0x1 root=a3 stride a3 4\n"
                              "end\n"
                              "kernel k2\n"
                              "ld 0 0 4 0xffffffff root=a3 stride a3 4\n"
                              "ld 0 0 4 0xffffffff root=a3 stride a3+0x80 4\n"
                              "st 0 1 4 0xffffffff root=a1 stride a1 4\n"
                              "st 0 1 4 0xffffffff root=a2 stride a2 4\n"
                              "end\n"
                              "free a1\n"
                              "free a2\n"
                              "free a3\n"
                              "eof\n";

static void write_file(const char *text)
{
    const char *t = getenv("TMPDIR");
    snprintf(file, sizeof file, "%s/test_sweep.XXXXXX", t && *t ? t : "/tmp");
    int fd = mkstemp(file);
    ck_assert_int_ge(fd, 0);
    FILE *f = fdopen(fd, "w");
    fputs(text, f);
    fclose(f);
}

static void setup(void) { write_file(k_trace); }
static void teardown(void) { remove(file); }

static ga_sweep_res_t sweep(ga_mode_t mode, ga_layout_t layout, unsigned mlb)
{
    ga_sweep_cfg_t c;
    ga_sweep_default_cfg(&c);
    c.mode = mode;
    c.layout = layout;
    c.mlb = mlb;
    ga_sweep_res_t r;
    ck_assert_msg(ga_sweep_run(file, &c, &r, msg, sizeof msg) == 0, "%s", msg);
    return r;
}

START_TEST(test_same_as_replay)
{
    /* with an MLB, the sweep is the trace library's replay: every MLU counter equal */
    for (int l = 0; l < 3; l++)
        for (int m = 0; m < 2; m++) {
            ga_mode_t mode = m ? GA_MODE_HWONLY : GA_MODE_COMPILER;
            ga_sweep_res_t s = sweep(mode, (ga_layout_t)l, 8);
            ga_replay_cfg_t rc;
            ga_replay_default_cfg(&rc);
            rc.mode = mode;
            rc.layout = (ga_layout_t)l;
            ga_trace_reader_t *r;
            ga_trace_err_t err;
            ck_assert_int_eq(ga_trace_open(&r, file, &err), 0);
            ga_replay_t *rp;
            ck_assert_msg(ga_replay_run(&rp, &rc, r, NULL, NULL, &err) == 0, "%s", err.msg);
            const ga_mlu_stats_t *a = &s.st.mlu, *b = &ga_replay_stats(rp)->mlu;
            ck_assert_uint_eq(a->loadmeta, b->loadmeta);
            ck_assert_uint_eq(a->loadmeta_hits, b->loadmeta_hits);
            ck_assert_uint_eq(a->walks, b->walks);
            ck_assert_uint_eq(a->walk_steps, b->walk_steps);
            ck_assert_uint_eq(a->memcheck_g, b->memcheck_g);
            ck_assert_uint_eq(a->access, b->access);
            ck_assert_uint_eq(a->fetches, b->fetches);
            ck_assert_uint_eq(a->fetch_hits, b->fetch_hits);
            ck_assert_uint_eq(a->md_reads, b->md_reads);
            ck_assert_uint_eq(s.st.detections, 0);
            ck_assert_uint_eq(s.kernels, 2);
            ga_replay_destroy(rp);
            ga_trace_close(r);
        }
    /* compiler mode: one LOADMETA per root and warp per kernel, and the second use of a root hits */
    ga_sweep_res_t s = sweep(GA_MODE_COMPILER, GA_LAYOUT_BST, 8);
    ck_assert_uint_eq(s.st.mlu.loadmeta, 7);
    ck_assert_uint_eq(s.st.mlu.memcheck_g, 9);
    ck_assert_uint_gt(s.st.mlu.fetch_hits, 0);
}
END_TEST

START_TEST(test_no_mlb)
{
    ga_sweep_res_t with = sweep(GA_MODE_COMPILER, GA_LAYOUT_LIST, 8);
    ga_sweep_res_t none = sweep(GA_MODE_COMPILER, GA_LAYOUT_LIST, 0);
    ck_assert_uint_gt(with.st.mlu.loadmeta_hits, 0);
    ck_assert_uint_eq(none.st.mlu.loadmeta_hits, 0);
    ck_assert_uint_eq(none.st.mlu.fetch_hits, 0);
    ck_assert_uint_eq(none.st.mlu.loadmeta, with.st.mlu.loadmeta);
    /* every LOADMETA walks, every MEMCHECK.G reads its entry */
    ck_assert_uint_eq(none.st.mlu.walks, none.st.mlu.loadmeta);
    ck_assert_uint_eq(none.st.mlu.md_reads - none.st.mlu.walk_steps, none.st.mlu.memcheck_g);
    ck_assert_uint_gt(none.st.mlu.walk_steps, with.st.mlu.walk_steps);
    /* the table layout: one read per walk, with or without an MLB */
    ga_sweep_res_t t = sweep(GA_MODE_COMPILER, GA_LAYOUT_TABLE, 0);
    ck_assert_uint_eq(t.st.mlu.walk_steps, t.st.mlu.walks);
    ga_sweep_res_t h = sweep(GA_MODE_HWONLY, GA_LAYOUT_BST, 0);
    ck_assert_uint_eq(h.st.mlu.loadmeta_hits, 0);
}
END_TEST

START_TEST(test_working_set)
{
    for (int m = 0; m < 2; m++)
        for (unsigned mlb = 0; mlb <= 16; mlb += 8) {
            ga_sweep_res_t s = sweep(m ? GA_MODE_HWONLY : GA_MODE_COMPILER, GA_LAYOUT_BST, mlb);
            ck_assert_uint_eq(s.ws_max, 2);
            ck_assert_uint_eq(s.st.live_peak, 3);
        }
}
END_TEST

START_TEST(test_refusals)
{
    ga_sweep_cfg_t c;
    ga_sweep_default_cfg(&c);
    ga_sweep_res_t r;
    c.mlb = 65;
    ck_assert_int_eq(ga_sweep_run(file, &c, &r, msg, sizeof msg), -1);
    ga_sweep_default_cfg(&c);
    c.tag_bits = 9;
    ck_assert_int_eq(ga_sweep_run(file, &c, &r, msg, sizeof msg), -1);
    ga_sweep_default_cfg(&c);
    ck_assert_int_eq(ga_sweep_run("/nonexistent/x.gatrace", &c, &r, msg, sizeof msg), -1);
    ck_assert_ptr_nonnull(strstr(msg, "/nonexistent/x.gatrace"));
    /* a malformed record: the message names the file and line */
    remove(file);
    write_file("gatrace 2 sms=2 tag_bits=7\nalloc a1 4096\nkernel k\nld 0 0 4 0x1 root=a9 stride a9 4\nend\neof\n");
    ck_assert_int_eq(ga_sweep_run(file, &c, &r, msg, sizeof msg), -1);
    char where[300];
    snprintf(where, sizeof where, "%s:4", file);
    ck_assert_msg(strstr(msg, where) != NULL, "no position in: %s", msg);
    /* a truncated trace (no eof record) */
    remove(file);
    write_file("gatrace 2 sms=2 tag_bits=7\nalloc a1 4096\n");
    ck_assert_int_eq(ga_sweep_run(file, &c, &r, msg, sizeof msg), -1);
}
END_TEST

static Suite *sweep_suite(void)
{
    Suite *s = suite_create("sweep");
    TCase *tc = tcase_create("core");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_same_as_replay);
    tcase_add_test(tc, test_no_mlb);
    tcase_add_test(tc, test_working_set);
    tcase_add_test(tc, test_refusals);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(sweep_suite());
    srunner_run_all(sr, CK_ENV);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
