/*
 * test_shard.c — campaign shards (sim/eval/ga_shard.h, docs/eval.md "Shards"): shard specifications,
 * which units a shard owns, shard files created, appended to, resumed after a torn write and refused
 * when another campaign wrote them, and merges that give the same bytes whatever the split, refusing
 * missing, duplicated, torn or foreign rows.
 */
#include "ga_shard.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char msg[2048];
static char dir[256];

/* A fresh temporary directory for each test (removed with its files at the end). */
static void setup(void)
{
    const char *t = getenv("TMPDIR");
    snprintf(dir, sizeof dir, "%s/test_shard.XXXXXX", t && *t ? t : "/tmp");
    ck_assert_ptr_nonnull(mkdtemp(dir));
}

static void teardown(void)
{
    char cmd[512];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    ck_assert_int_eq(system(cmd), 0);
}

static const char *path(const char *name)
{
    static char p[4][512];
    static int k;
    k = (k + 1) % 4;
    snprintf(p[k], sizeof p[k], "%s/%s", dir, name);
    return p[k];
}

/* The whole content of a file (malloc'ed, NUL-terminated); NULL if it cannot be read. */
static char *slurp(const char *p)
{
    FILE *f = fopen(p, "rb");
    if (f == NULL) return NULL;
    char *b = calloc(1, 1 << 16);
    size_t n = fread(b, 1, (1 << 16) - 1, f);
    b[n] = '\0';
    fclose(f);
    return b;
}

static void spit(const char *p, const char *text)
{
    FILE *f = fopen(p, "wb");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    fclose(f);
}

#define UNITS 10u
#define SPEC UINT64_C(0x1234)

/* Write the rows of shard sh of a 10-unit campaign into name, each row's cells derived from its unit. */
static void write_shard(const char *name, ga_shard_t sh)
{
    ga_shard_out_t *o;
    ck_assert_msg(ga_shard_open(&o, path(name), "demo", UNITS, SPEC, "a,b", msg, sizeof msg) == 0, "%s", msg);
    /* in reverse order, as parallel workers might finish them */
    for (uint64_t u = UNITS; u-- > 0;) {
        if (!ga_shard_owns(&sh, u)) continue;
        char cells[64];
        snprintf(cells, sizeof cells, "x%llu,%llu", (unsigned long long)u, (unsigned long long)(u * u));
        ck_assert_msg(ga_shard_row(o, u, cells, msg, sizeof msg) == 0, "%s", msg);
    }
    ck_assert_int_eq(ga_shard_close(o, msg, sizeof msg), 0);
}

START_TEST(test_parse_and_own)
{
    ga_shard_t sh;
    ck_assert_int_eq(ga_shard_parse("0/1", &sh, msg, sizeof msg), 0);
    ck_assert_uint_eq(sh.index, 0);
    ck_assert_uint_eq(sh.count, 1);
    ck_assert_int_eq(ga_shard_parse("3/4", &sh, msg, sizeof msg), 0);
    ck_assert_uint_eq(sh.index, 3);
    ck_assert_uint_eq(sh.count, 4);
    const char *bad[] = {"4/4", "1/0", "a/b", "1/2x", "-1/2", "", "1/", "/2", "999999/1000001", "0/2/3", " 0/2"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        msg[0] = '\0';
        ck_assert_msg(ga_shard_parse(bad[i], &sh, msg, sizeof msg) == -1, "accepted '%s'", bad[i]);
        ck_assert_msg(strstr(msg, "I/N") != NULL, "no clear message for '%s': %s", bad[i], msg);
    }
    /* every unit belongs to exactly one shard of a split */
    for (uint32_t n = 1; n <= 7; n++)
        for (uint64_t u = 0; u < 100; u++) {
            int owners = 0;
            for (uint32_t i = 0; i < n; i++) owners += ga_shard_owns(&(ga_shard_t){i, n}, u);
            ck_assert_int_eq(owners, 1);
        }
    /* the 64-bit FNV-1a of "a" (the published test vector) */
    ck_assert_uint_eq(ga_shard_hash(GA_SHARD_HASH0, "a", 1), UINT64_C(0xaf63dc4c8601ec8c));
}
END_TEST

START_TEST(test_rows_and_resume)
{
    ga_shard_out_t *o;
    const char *p = path("s.csv");
    ck_assert_int_eq(ga_shard_open(&o, p, "demo", UNITS, SPEC, "a,b", msg, sizeof msg), 0);
    ck_assert_uint_eq(ga_shard_kept(o), 0);
    ck_assert_int_eq(ga_shard_row(o, 0, "x,1", msg, sizeof msg), 0);
    ck_assert_int_eq(ga_shard_row(o, 3, "y,2", msg, sizeof msg), 0);
    ck_assert_int_eq(ga_shard_row(o, 3, "y,2", msg, sizeof msg), -1); /* twice */
    ck_assert_int_eq(ga_shard_row(o, 10, "z,3", msg, sizeof msg), -1); /* out of range */
    ck_assert_int_eq(ga_shard_row(o, 4, "only-one-cell", msg, sizeof msg), -1);
    ck_assert_int_eq(ga_shard_row(o, 4, "a,b\nc", msg, sizeof msg), -1);
    ck_assert_int_eq(ga_shard_close(o, msg, sizeof msg), 0);
    char *t = slurp(p);
    ck_assert_str_eq(t, "# gaeval-shard 1 campaign=demo units=10 spec=0000000000001234\nunit,a,b\n0,x,1\n3,y,2\n");
    free(t);

    /* a killed writer leaves a torn line: resuming keeps the complete rows and cuts it */
    FILE *f = fopen(p, "ab");
    fputs("5,torn", f);
    fclose(f);
    ck_assert_int_eq(ga_shard_open(&o, p, "demo", UNITS, SPEC, "a,b", msg, sizeof msg), 0);
    ck_assert_uint_eq(ga_shard_kept(o), 2);
    ck_assert(ga_shard_done(o, 0) && ga_shard_done(o, 3));
    ck_assert(!ga_shard_done(o, 5) && !ga_shard_done(o, 1));
    ck_assert_int_eq(ga_shard_row(o, 0, "x,1", msg, sizeof msg), -1); /* kept rows are not run again */
    ck_assert_int_eq(ga_shard_row(o, 5, "w,5", msg, sizeof msg), 0);
    ck_assert_int_eq(ga_shard_close(o, msg, sizeof msg), 0);
    t = slurp(p);
    ck_assert_str_eq(t, "# gaeval-shard 1 campaign=demo units=10 spec=0000000000001234\nunit,a,b\n0,x,1\n3,y,2\n"
                        "5,w,5\n");
    free(t);

    /* another campaign, other parameters, other columns: refused, the file untouched */
    ck_assert_int_eq(ga_shard_open(&o, p, "demo", UNITS, SPEC + 1, "a,b", msg, sizeof msg), -1);
    ck_assert_ptr_nonnull(strstr(msg, "another campaign"));
    ck_assert_int_eq(ga_shard_open(&o, p, "other", UNITS, SPEC, "a,b", msg, sizeof msg), -1);
    ck_assert_int_eq(ga_shard_open(&o, p, "demo", UNITS + 1, SPEC, "a,b", msg, sizeof msg), -1);
    ck_assert_int_eq(ga_shard_open(&o, p, "demo", UNITS, SPEC, "a,c", msg, sizeof msg), -1);
    t = slurp(p);
    ck_assert_ptr_nonnull(strstr(t, "5,w,5\n"));
    free(t);

    /* a bad row inside the file, and a unit twice: refused with the line */
    spit(p, "# gaeval-shard 1 campaign=demo units=10 spec=0000000000001234\nunit,a,b\n0,x,1\nnot a row\n");
    ck_assert_int_eq(ga_shard_open(&o, p, "demo", UNITS, SPEC, "a,b", msg, sizeof msg), -1);
    ck_assert_ptr_nonnull(strstr(msg, ":4:"));
    spit(p, "# gaeval-shard 1 campaign=demo units=10 spec=0000000000001234\nunit,a,b\n2,x,1\n2,x,1\n");
    ck_assert_int_eq(ga_shard_open(&o, p, "demo", UNITS, SPEC, "a,b", msg, sizeof msg), -1);
    ck_assert_ptr_nonnull(strstr(msg, "twice"));

    /* a file cut inside its header (killed at once) starts afresh */
    spit(p, "# gaeval-shard 1 camp");
    ck_assert_int_eq(ga_shard_open(&o, p, "demo", UNITS, SPEC, "a,b", msg, sizeof msg), 0);
    ck_assert_uint_eq(ga_shard_kept(o), 0);
    ck_assert_int_eq(ga_shard_close(o, msg, sizeof msg), 0);

    /* bad campaign names and shapes */
    ck_assert_int_eq(ga_shard_open(&o, path("n.csv"), "bad name", UNITS, SPEC, "a", msg, sizeof msg), -1);
    ck_assert_int_eq(ga_shard_open(&o, path("n.csv"), "demo", 0, SPEC, "a", msg, sizeof msg), -1);
    ck_assert_int_eq(ga_shard_open(&o, path("n.csv"), "demo", UNITS, SPEC, "", msg, sizeof msg), -1);
}
END_TEST

START_TEST(test_merge_is_split_independent)
{
    write_shard("one.csv", (ga_shard_t){0, 1});
    const char *one[] = {path("one.csv")};
    ck_assert_msg(ga_shard_merge(path("m1.csv"), one, 1, false, NULL, msg, sizeof msg) == 0, "%s", msg);
    char *ref = slurp(path("m1.csv"));
    ck_assert_ptr_nonnull(strstr(ref, "unit,a,b\n0,x0,0\n1,x1,1\n2,x2,4\n"));
    for (uint32_t n = 2; n <= 4; n++) {
        const char *in[4];
        char name[4][32];
        for (uint32_t i = 0; i < n; i++) {
            snprintf(name[i], sizeof name[i], "s%u_%u.csv", i, n);
            write_shard(name[i], (ga_shard_t){i, n});
            in[i] = strdup(path(name[i]));
        }
        uint64_t rows = 0;
        ck_assert_msg(ga_shard_merge(path("mn.csv"), in, n, false, &rows, msg, sizeof msg) == 0, "%s", msg);
        ck_assert_uint_eq(rows, UNITS);
        char *got = slurp(path("mn.csv"));
        ck_assert_str_eq(got, ref);
        free(got);
        /* one shard missing: refused, and nothing written */
        remove(path("mx.csv"));
        ck_assert_int_eq(ga_shard_merge(path("mx.csv"), in, n - 1, false, NULL, msg, sizeof msg), -1);
        ck_assert_ptr_nonnull(strstr(msg, "no row"));
        struct stat sb;
        ck_assert_int_ne(stat(path("mx.csv"), &sb), 0);
        /* ... unless a partial merge is asked for */
        ck_assert_int_eq(ga_shard_merge(path("mx.csv"), in, n - 1, true, &rows, msg, sizeof msg), 0);
        ck_assert_uint_lt(rows, UNITS);
        for (uint32_t i = 0; i < n; i++) free((void *)in[i]);
    }
    free(ref);
}
END_TEST

START_TEST(test_merge_refusals)
{
    write_shard("a.csv", (ga_shard_t){0, 2});
    write_shard("b.csv", (ga_shard_t){1, 2});
    const char *dup[] = {path("a.csv"), path("b.csv"), path("a.csv")};
    ck_assert_int_eq(ga_shard_merge(path("m.csv"), dup, 3, false, NULL, msg, sizeof msg), -1);
    ck_assert_ptr_nonnull(strstr(msg, "also in"));
    /* the output may not be an input */
    const char *ab[] = {path("a.csv"), path("b.csv")};
    ck_assert_int_eq(ga_shard_merge(path("a.csv"), ab, 2, false, NULL, msg, sizeof msg), -1);
    /* another campaign's header */
    spit(path("c.csv"), "# gaeval-shard 1 campaign=demo units=10 spec=0000000000009999\nunit,a,b\n");
    const char *mixed[] = {path("a.csv"), path("c.csv")};
    ck_assert_int_eq(ga_shard_merge(path("m.csv"), mixed, 2, true, NULL, msg, sizeof msg), -1);
    ck_assert_ptr_nonnull(strstr(msg, "differs"));
    /* a torn last line: the shard is unfinished */
    char *t = slurp(path("b.csv"));
    t[strlen(t) - 1] = '\0';
    spit(path("d.csv"), t);
    free(t);
    const char *torn[] = {path("a.csv"), path("d.csv")};
    ck_assert_int_eq(ga_shard_merge(path("m.csv"), torn, 2, false, NULL, msg, sizeof msg), -1);
    ck_assert_ptr_nonnull(strstr(msg, "torn"));
    /* not a shard file at all, and a missing file */
    spit(path("e.csv"), "hello\nworld\n");
    const char *junk[] = {path("e.csv")};
    ck_assert_int_eq(ga_shard_merge(path("m.csv"), junk, 1, true, NULL, msg, sizeof msg), -1);
    const char *none[] = {path("nope.csv")};
    ck_assert_int_eq(ga_shard_merge(path("m.csv"), none, 1, true, NULL, msg, sizeof msg), -1);
    struct stat sb;
    ck_assert_int_ne(stat(path("m.csv"), &sb), 0); /* no failed merge left an output */
}
END_TEST

static Suite *shard_suite(void)
{
    Suite *s = suite_create("shard");
    TCase *tc = tcase_create("core");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_parse_and_own);
    tcase_add_test(tc, test_rows_and_resume);
    tcase_add_test(tc, test_merge_is_split_independent);
    tcase_add_test(tc, test_merge_refusals);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(shard_suite());
    srunner_run_all(sr, CK_ENV);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
