/*
 * test_mem.c — unit tests of the sparse device memory (cmodel/ga_mem.h).
 */
#include "ga_mem.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>

static ga_mem_t *new_mem(void)
{
    ga_mem_t *m = NULL;
    ck_assert_int_eq(ga_mem_create(&m), GA_OK);
    ck_assert_ptr_nonnull(m);
    return m;
}

START_TEST(test_empty)
{
    ga_mem_t *m = new_mem();
    ga_mem_stats_t s = ga_mem_stats(m);
    ck_assert_uint_eq(s.reads, 0);
    ck_assert_uint_eq(s.writes, 0);
    ck_assert_uint_eq(s.pages, 0);
    uint8_t buf[16];
    memset(buf, 0xAA, sizeof buf);
    ck_assert_int_eq(ga_mem_read(m, 0x1000, buf, sizeof buf), GA_MEM_UNMAPPED);
    for (size_t i = 0; i < sizeof buf; i++) ck_assert_uint_eq(buf[i], 0);
    ck_assert_int_eq(ga_mem_create(NULL), GA_ERR_BAD_PARAM);
    ga_mem_destroy(m);
    ga_mem_destroy(NULL);
}
END_TEST

START_TEST(test_round_trip_page_boundaries)
{
    ga_mem_t *m = new_mem();
    /* Writes straddling one and several page boundaries, at odd offsets. */
    static const uint64_t addrs[] = {0x0, 0xFF9, 0x1FFF, 0x12345FFA, UINT64_C(0x7000000000000) - 5};
    static const size_t lens[] = {1, 7, 2, 9000, 13};
    for (size_t k = 0; k < sizeof addrs / sizeof addrs[0]; k++) {
        uint8_t *w = malloc(lens[k]), *r = malloc(lens[k]);
        ck_assert_ptr_nonnull(w);
        ck_assert_ptr_nonnull(r);
        for (size_t i = 0; i < lens[k]; i++) w[i] = (uint8_t)(i * 31u + k * 7u + 1u);
        ck_assert_int_eq(ga_mem_write(m, addrs[k], w, lens[k]), GA_OK);
        ck_assert_int_eq(ga_mem_read(m, addrs[k], r, lens[k]), GA_MEM_OK);
        ck_assert_mem_eq(w, r, lens[k]);
        /* Single bytes read back individually (exercises the one-page path at each byte). */
        for (size_t i = 0; i < lens[k]; i += 97) {
            uint8_t b = 0;
            ck_assert_int_eq(ga_mem_read(m, addrs[k] + i, &b, 1), GA_MEM_OK);
            ck_assert_uint_eq(b, w[i]);
        }
        free(w);
        free(r);
    }
    /* The rest of a mapped page reads as zeros. */
    uint8_t z[8];
    ck_assert_int_eq(ga_mem_read(m, 0x1000 + 100, z, sizeof z), GA_MEM_OK); /* page 1 mapped by 0x1FFF */
    for (size_t i = 0; i < sizeof z; i++) ck_assert_uint_eq(z[i], 0);
    /* Overwrite part of an existing range. */
    uint8_t v = 0x5C;
    ck_assert_int_eq(ga_mem_write(m, 0xFFC, &v, 1), GA_OK);
    uint8_t r7[7];
    ck_assert_int_eq(ga_mem_read(m, 0xFF9, r7, 7), GA_MEM_OK);
    ck_assert_uint_eq(r7[3], 0x5C);
    ck_assert_uint_eq(r7[2], (uint8_t)(2u * 31u + 1u * 7u + 1u));
    ga_mem_destroy(m);
}
END_TEST

START_TEST(test_many_pages_rehash)
{
    ga_mem_t *m = new_mem();
    /* Enough scattered pages to force several rehashes; every page keeps its own content. */
    const uint64_t n = 5000;
    for (uint64_t i = 0; i < n; i++) {
        uint64_t a = (i * UINT64_C(0x9E3779B97F4A7C15)) & ~UINT64_C(0xFFF);
        uint64_t val = i ^ UINT64_C(0xA5A5A5A5A5A5A5A5);
        uint8_t b[8];
        for (int k = 0; k < 8; k++) b[k] = (uint8_t)(val >> (8 * k));
        ck_assert_int_eq(ga_mem_write(m, a + 8, b, 8), GA_OK);
    }
    ck_assert_uint_eq(ga_mem_stats(m).pages, n);
    for (uint64_t i = 0; i < n; i++) {
        uint64_t a = (i * UINT64_C(0x9E3779B97F4A7C15)) & ~UINT64_C(0xFFF);
        uint8_t b[8];
        ck_assert_int_eq(ga_mem_read(m, a + 8, b, 8), GA_MEM_OK);
        uint64_t val = 0;
        for (int k = 7; k >= 0; k--) val = (val << 8) | b[k];
        ck_assert_uint_eq(val, i ^ UINT64_C(0xA5A5A5A5A5A5A5A5));
    }
    ga_mem_destroy(m);
}
END_TEST

START_TEST(test_little_endian)
{
    ga_mem_t *m = new_mem();
    uint8_t b[8];
    const uint64_t v = UINT64_C(0x0123456789ABCDEF);
    ga_put_le64(b, v);
    ck_assert_int_eq(ga_mem_write(m, 0x2000, b, 8), GA_OK);
    uint8_t r[8];
    ck_assert_int_eq(ga_mem_read(m, 0x2000, r, 8), GA_MEM_OK);
    ck_assert_uint_eq(r[0], 0xEF); /* least significant byte at the lowest address */
    ck_assert_uint_eq(r[7], 0x01);
    uint8_t one;
    ck_assert_int_eq(ga_mem_read(m, 0x2001, &one, 1), GA_MEM_OK);
    ck_assert_uint_eq(one, 0xCD);
    ck_assert_uint_eq(ga_le64(r), v);
    ga_mem_destroy(m);
}
END_TEST

START_TEST(test_unmapped)
{
    ga_mem_t *m = new_mem();
    uint8_t w[16];
    memset(w, 0x11, sizeof w);
    ck_assert_int_eq(ga_mem_write(m, 0x5000, w, 16), GA_OK);
    uint8_t r[32];
    /* Half mapped, half in a never-written page: error, whole buffer zero. */
    memset(r, 0xEE, sizeof r);
    ck_assert_int_eq(ga_mem_read(m, 0x5000 - 16, r, 32), GA_MEM_UNMAPPED);
    for (size_t i = 0; i < sizeof r; i++) ck_assert_uint_eq(r[i], 0);
    memset(r, 0xEE, sizeof r);
    ck_assert_int_eq(ga_mem_read(m, 0x5FF0, r, 32), GA_MEM_UNMAPPED);
    for (size_t i = 0; i < sizeof r; i++) ck_assert_uint_eq(r[i], 0);
    /* Entirely inside the written page: fine. */
    ck_assert_int_eq(ga_mem_read(m, 0x5FE0, r, 32), GA_MEM_OK);
    /* A write of zeros maps a page too. */
    uint8_t z[4] = {0};
    ck_assert_int_eq(ga_mem_write(m, 0x9000, z, 4), GA_OK);
    ck_assert_int_eq(ga_mem_read(m, 0x9FF0, r, 16), GA_MEM_OK);
    ga_mem_destroy(m);
}
END_TEST

START_TEST(test_poison)
{
    ga_mem_t *m = new_mem();
    uint8_t w[64];
    for (size_t i = 0; i < sizeof w; i++) w[i] = (uint8_t)(i + 1u);
    ck_assert_int_eq(ga_mem_write(m, 0x3000, w, 64), GA_OK);
    ck_assert_int_eq(ga_mem_poison(m, 0x3010, 16), GA_OK); /* [0x3010, 0x3020) */
    uint8_t r[16];
    ck_assert_int_eq(ga_mem_read(m, 0x3000, r, 16), GA_MEM_OK);  /* ends just below */
    ck_assert_int_eq(ga_mem_read(m, 0x3020, r, 16), GA_MEM_OK);  /* starts just above */
    memset(r, 0xEE, sizeof r);
    ck_assert_int_eq(ga_mem_read(m, 0x3001, r, 16), GA_MEM_POISONED); /* last byte inside */
    for (size_t i = 0; i < sizeof r; i++) ck_assert_uint_eq(r[i], 0);
    ck_assert_int_eq(ga_mem_read(m, 0x301F, r, 1), GA_MEM_POISONED); /* last poisoned byte */
    /* Ranges add up; poison beats unmapped. */
    ck_assert_int_eq(ga_mem_poison(m, 0x100000, 1), GA_OK);
    ck_assert_int_eq(ga_mem_read(m, 0x100000, r, 1), GA_MEM_POISONED);
    ck_assert_int_eq(ga_mem_read(m, 0x3018, r, 1), GA_MEM_POISONED);
    ck_assert_int_eq(ga_mem_read(m, 0x100001, r, 1), GA_MEM_UNMAPPED);
    /* Writes are not affected by poison; contents survive unpoisoning. */
    uint8_t v = 0x77;
    ck_assert_int_eq(ga_mem_write(m, 0x3015, &v, 1), GA_OK);
    ck_assert_int_eq(ga_mem_poison(m, 5, 0), GA_OK); /* len 0: nothing */
    ck_assert_int_eq(ga_mem_poison(m, UINT64_MAX, 2), GA_ERR_BAD_PARAM);
    ck_assert_int_eq(ga_mem_poison(m, UINT64_MAX, 1), GA_OK); /* ends exactly at 2^64 */
    ga_mem_unpoison_all(m);
    ck_assert_int_eq(ga_mem_read(m, 0x3010, r, 16), GA_MEM_OK);
    ck_assert_uint_eq(r[5], 0x77);
    ck_assert_uint_eq(r[4], 0x15);
    ck_assert_int_eq(ga_mem_read(m, 0x100000, r, 1), GA_MEM_UNMAPPED);
    ga_mem_destroy(m);
}
END_TEST

START_TEST(test_wrap)
{
    ga_mem_t *m = new_mem();
    uint8_t w[16];
    memset(w, 0x42, sizeof w);
    /* A write ending exactly at 2^64 is legal; one byte more is refused and writes nothing. */
    ck_assert_int_eq(ga_mem_write(m, UINT64_MAX - 15u, w, 16), GA_OK);
    ck_assert_int_eq(ga_mem_write(m, UINT64_MAX - 14u, w, 16), GA_ERR_BAD_PARAM);
    ck_assert_int_eq(ga_mem_write(m, 0, w, 0), GA_OK);
    ck_assert_int_eq(ga_mem_write(m, 0x10, NULL, 4), GA_ERR_BAD_PARAM);
    ck_assert_uint_eq(ga_mem_stats(m).pages, 1);
    uint8_t r[16];
    ck_assert_int_eq(ga_mem_read(m, UINT64_MAX - 15u, r, 16), GA_MEM_OK);
    ck_assert_mem_eq(r, w, 16);
    ck_assert_int_eq(ga_mem_read(m, UINT64_MAX, r, 1), GA_MEM_OK);
    memset(r, 0xEE, sizeof r);
    ck_assert_int_eq(ga_mem_read(m, UINT64_MAX, r, 2), GA_MEM_WRAP);
    ck_assert_uint_eq(r[0], 0);
    ck_assert_uint_eq(r[1], 0);
    ck_assert_int_eq(ga_mem_read(m, UINT64_MAX - 7u, r, 16), GA_MEM_WRAP);
    /* Page 0 was never written: the refused write above must not have wrapped into it. */
    ck_assert_int_eq(ga_mem_read(m, 0, r, 1), GA_MEM_UNMAPPED);
    /* Wrap beats poison. */
    ck_assert_int_eq(ga_mem_poison(m, UINT64_MAX - 3u, 4), GA_OK);
    ck_assert_int_eq(ga_mem_read(m, UINT64_MAX - 3u, r, 8), GA_MEM_WRAP);
    ck_assert_int_eq(ga_mem_read(m, UINT64_MAX - 3u, r, 4), GA_MEM_POISONED);
    ga_mem_destroy(m);
}
END_TEST

START_TEST(test_counters)
{
    ga_mem_t *m = new_mem();
    uint8_t b[40] = {0};
    ck_assert_int_eq(ga_mem_write(m, 0x1000, b, 40), GA_OK);
    ck_assert_int_eq(ga_mem_write(m, 0x1FF0, b, 32), GA_OK);                 /* maps page 2 */
    ck_assert_int_eq(ga_mem_write(m, UINT64_MAX, b, 2), GA_ERR_BAD_PARAM);  /* failed: counted */
    ck_assert_int_eq(ga_mem_read(m, 0x1000, b, 16), GA_MEM_OK);
    ck_assert_int_eq(ga_mem_read(m, 0x8000, b, 32), GA_MEM_UNMAPPED);         /* failed: counted */
    ck_assert_int_eq(ga_mem_read(m, 0x1000, b, 0), GA_MEM_OK);
    ga_mem_stats_t s = ga_mem_stats(m);
    ck_assert_uint_eq(s.writes, 3);
    ck_assert_uint_eq(s.bytes_written, 72);
    ck_assert_uint_eq(s.reads, 3);
    ck_assert_uint_eq(s.bytes_read, 48);
    ck_assert_uint_eq(s.pages, 2);
    /* The memif reads through ga_mem_read: same data, counted in the same stats. */
    ga_memif_t mi = ga_mem_memif(m);
    ck_assert_ptr_null(mi.oracle);
    uint8_t w[32];
    for (size_t i = 0; i < sizeof w; i++) w[i] = (uint8_t)(0xC0u + i);
    ck_assert_int_eq(ga_mem_write(m, 0x1020, w, 32), GA_OK);
    uint8_t r[32];
    ck_assert_int_eq(mi.read(mi.read_ctx, 0x1020, 32, r), 0);
    ck_assert_mem_eq(r, w, 32);
    ck_assert_int_ne(mi.read(mi.read_ctx, 0x7000, 16, r), 0);
    ck_assert_int_ne(mi.read(mi.read_ctx, UINT64_MAX - 8u, 16, r), 0);
    s = ga_mem_stats(m);
    ck_assert_uint_eq(s.reads, 6);
    ck_assert_uint_eq(s.bytes_read, 48 + 64);
    ga_mem_destroy(m);
}
END_TEST

START_TEST(test_large_write_all_or_nothing)
{
    ga_mem_t *m = new_mem();
    /* A multi-page write lands completely (16 pages, the way a table region is cleared). */
    size_t len = 16u * 4096u;
    uint8_t *w = malloc(len), *r = malloc(len);
    ck_assert_ptr_nonnull(w);
    ck_assert_ptr_nonnull(r);
    for (size_t i = 0; i < len; i++) w[i] = (uint8_t)(i * 13u);
    ck_assert_int_eq(ga_mem_write(m, 0x40000 + 100u, w, len), GA_OK);
    ck_assert_uint_eq(ga_mem_stats(m).pages, 17);
    ck_assert_int_eq(ga_mem_read(m, 0x40000 + 100u, r, len), GA_MEM_OK);
    ck_assert_mem_eq(r, w, len);
    free(w);
    free(r);
    ga_mem_destroy(m);
}
END_TEST

static Suite *mem_suite(void)
{
    Suite *s = suite_create("ga_mem");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_empty);
    tcase_add_test(tc, test_round_trip_page_boundaries);
    tcase_add_test(tc, test_many_pages_rehash);
    tcase_add_test(tc, test_little_endian);
    tcase_add_test(tc, test_unmapped);
    tcase_add_test(tc, test_poison);
    tcase_add_test(tc, test_wrap);
    tcase_add_test(tc, test_counters);
    tcase_add_test(tc, test_large_write_all_or_nothing);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(mem_suite());
    srunner_run_all(sr, CK_ENV);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
