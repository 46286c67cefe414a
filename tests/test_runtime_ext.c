/*
 * test_runtime_ext.c — the runtime's two extensions beyond the paper (docs/spec.md §7.6):
 * neighbour-distinct tags (§7.6.1) and the tag quarantine (§7.6.2), and that with both off the runtime
 * is bit-for-bit what it was before they existed.
 *
 * Each property test has a control: the same run with the option off must show the failure the option
 * prevents (an abutting pair with equal tags; a re-allocation that reuses the old tag), so a test
 * passes only because the option works, not because the runs were too small to see a collision.
 */
#include "ga_runtime.h"
#include "ga_rng.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>

/* Fails the test only when the condition is false (Check's ck_assert records every passing check,
 * which is slow in loops of 10^5 checks). */
#define T_MSG(c, ...)                                                                               \
    do {                                                                                            \
        if (!(c)) ck_abort_msg(__VA_ARGS__);                                                        \
    } while (0)

static uint64_t mix(uint64_t h, uint64_t v)
{
    h = (h ^ v) * UINT64_C(0x100000001b3);
    return h ^ (h >> 29);
}

/* A fixed script of 2 000 mallocs and frees (sizes 1..5000, auto or fixed addresses) whose every
 * pointer, error code, invalidation list and ROOT is hashed. The expected hashes were recorded with
 * the runtime as it was before the extensions were added (commit a67ae44), so a default configuration
 * that drifts by one bit fails here. */
static uint64_t script_hash(ga_layout_t layout, unsigned tb, uint64_t seed, bool fixed)
{
    ga_rt_cfg_t c;
    ga_rt_default_cfg(&c, layout, tb, seed);
    c.fixed_addresses = fixed;
    c.md_capacity = 4096;
    c.reclaim_threshold = 64;
    ga_mem_t *m;
    ga_rt_t *rt;
    ck_assert_int_eq(ga_mem_create(&m), GA_OK);
    ck_assert_int_eq(ga_rt_create(&c, m, &rt), GA_OK);
    ga_rng_t g;
    ga_rng_seed(&g, seed ^ 0xABCDu);
    uint64_t live[256];
    int n = 0;
    uint64_t h = UINT64_C(0xcbf29ce484222325);
    for (int op = 0; op < 2000; op++) {
        uint64_t p = 0;
        ga_err_t e;
        if (n > 0 && (n == 256 || ga_rng_below(&g, 5) < 2)) {
            int i = (int)ga_rng_below(&g, (uint64_t)n);
            e = ga_rt_free(rt, live[i]);
            live[i] = live[--n];
            p = 0x1;
        } else {
            uint64_t sz = 1 + ga_rng_below(&g, 5000);
            if (fixed)
                e = ga_rt_malloc_at(rt, UINT64_C(0x100000000) + 256 * ga_rng_below(&g, 20000), sz, &p);
            else
                e = ga_rt_malloc(rt, sz, &p);
            if (e == GA_OK) live[n++] = p;
        }
        h = mix(h, p);
        h = mix(h, (uint64_t)e);
        const uint64_t *L;
        size_t k = ga_rt_invalidations(rt, &L);
        for (size_t j = 0; j < k; j++) h = mix(h, L[j]);
        h = mix(h, ga_rt_root(rt));
    }
    ga_rt_destroy(rt);
    ga_mem_destroy(m);
    return h;
}

START_TEST(test_defaults_unchanged)
{
    /* [fixed][layout][tag width 7, 16], recorded before the extensions existed. */
    static const uint64_t expect[2][3][2] = {
        {{UINT64_C(0xe20b0e43cea7c17a), UINT64_C(0x0b31be7577d09dd0)},
         {UINT64_C(0x30880b9b1878a8c2), UINT64_C(0xb1e7fcbad5e84c32)},
         {UINT64_C(0x75c0f7b1cbbfb260), UINT64_C(0x14bab767512a3c3e)}},
        {{UINT64_C(0x9e46f700e31a9afa), UINT64_C(0xb75037561a683788)},
         {UINT64_C(0x389021506fdf2238), UINT64_C(0xbb99aa62f1a623ee)},
         {UINT64_C(0xb60063b67198e074), UINT64_C(0x6cb8e5fee0c3917f)}},
    };
    ga_rt_cfg_t c;
    ga_rt_default_cfg(&c, GA_LAYOUT_BST, 7, 1);
    ck_assert(!c.tag_neighbour_distinct);
    ck_assert_uint_eq(c.tag_quarantine, 0);
    for (int f = 0; f < 2; f++)
        for (int l = 0; l < 3; l++)
            for (int t = 0; t < 2; t++) {
                uint64_t h = script_hash((ga_layout_t)l, t ? 16u : 7u, 777, f != 0);
                T_MSG(h == expect[f][l][t], "default runtime drifted: fixed %d layout %d tag bits %u: %#llx",
                      f, l, t ? 16u : 7u, (unsigned long long)h);
            }
}
END_TEST

START_TEST(test_bad_quarantine)
{
    ga_rt_cfg_t c;
    ga_rt_default_cfg(&c, GA_LAYOUT_LIST, 7, 1);
    c.md_capacity = 64;
    c.tag_quarantine = GA_RT_QUARANTINE_MAX + 1u;
    ga_mem_t *m;
    ga_rt_t *rt = (ga_rt_t *)&c; /* must be cleared on error */
    ck_assert_int_eq(ga_mem_create(&m), GA_OK);
    ck_assert_int_eq(ga_rt_create(&c, m, &rt), GA_ERR_BAD_PARAM);
    ck_assert_ptr_null(rt);
    c.tag_quarantine = GA_RT_QUARANTINE_MAX;
    ck_assert_int_eq(ga_rt_create(&c, m, &rt), GA_OK);
    ga_rt_destroy(rt);
    ga_mem_destroy(m);
}
END_TEST

typedef struct {
    uint64_t base, size, tag;
} live_t;

static int cmp_live(const void *a, const void *b)
{
    const live_t *x = a, *y = b;
    return x->base < y->base ? -1 : x->base > y->base;
}

/* Random churn of mallocs (sizes mostly multiples of 256, so blocks abut) and frees. Checks after
 * every malloc that the new tag differs from its nearest live neighbours' when `on`, and at the end of
 * every seed counts abutting live pairs and those with equal tags. */
static void neighbour_run(unsigned tb, bool on, uint64_t seeds, uint64_t *pairs, uint64_t *equal)
{
    *pairs = *equal = 0;
    for (uint64_t seed = 0; seed < seeds; seed++) {
        ga_rt_cfg_t c;
        ga_rt_default_cfg(&c, (ga_layout_t)(seed % 3u), tb, seed);
        c.md_capacity = 4096;
        c.tag_neighbour_distinct = on;
        ga_mem_t *m;
        ga_rt_t *rt;
        ck_assert_int_eq(ga_mem_create(&m), GA_OK);
        ck_assert_int_eq(ga_rt_create(&c, m, &rt), GA_OK);
        ga_rng_t g;
        ga_rng_seed(&g, seed * 31u + 5u);
        live_t lv[512];
        size_t n = 0;
        uint64_t vmask = ga_va_mask(tb);
        for (int op = 0; op < 600; op++) {
            if (n > 0 && (n == 512 || ga_rng_below(&g, 3) == 0)) {
                size_t i = (size_t)ga_rng_below(&g, n);
                ck_assert_int_eq(ga_rt_free(rt, ga_make_ptr(lv[i].tag, lv[i].base, tb)), GA_OK);
                lv[i] = lv[--n];
                continue;
            }
            uint64_t sz = 256u * (1u + ga_rng_below(&g, 8));
            if (ga_rng_below(&g, 4) == 0) sz -= ga_rng_below(&g, 200);
            uint64_t p;
            ck_assert_int_eq(ga_rt_malloc(rt, sz, &p), GA_OK);
            live_t x = {p & vmask, sz, ga_tag_of(p, tb)};
            if (on) {
                /* nearest live below and above, by a scan of the shadow */
                const live_t *lo = NULL, *hi = NULL;
                for (size_t i = 0; i < n; i++) {
                    if (lv[i].base < x.base && (lo == NULL || lv[i].base > lo->base)) lo = &lv[i];
                    if (lv[i].base > x.base && (hi == NULL || lv[i].base < hi->base)) hi = &lv[i];
                }
                T_MSG(lo == NULL || lo->tag != x.tag, "seed %llu op %d: tag equals the live one below",
                      (unsigned long long)seed, op);
                T_MSG(hi == NULL || hi->tag != x.tag, "seed %llu op %d: tag equals the live one above",
                      (unsigned long long)seed, op);
            }
            lv[n++] = x;
        }
        qsort(lv, n, sizeof lv[0], cmp_live);
        for (size_t i = 0; i + 1 < n; i++) {
            uint64_t blk = (lv[i].size + 255u) & ~UINT64_C(255);
            if (lv[i].base + blk != lv[i + 1].base) continue; /* a gap: not adjacent blocks */
            (*pairs)++;
            *equal += lv[i].tag == lv[i + 1].tag;
        }
        ga_rt_destroy(rt);
        ga_mem_destroy(m);
    }
}

START_TEST(test_neighbour_distinct)
{
    uint64_t pairs, equal;
    neighbour_run(7, true, 300, &pairs, &equal);
    ck_assert_uint_gt(pairs, 10000); /* enough adjacent pairs to have seen ~1 in 126 collide */
    ck_assert_uint_eq(equal, 0);
    /* Control: without the option the same runs do produce equal adjacent tags. */
    neighbour_run(7, false, 300, &pairs, &equal);
    ck_assert_uint_gt(pairs, 10000);
    ck_assert_uint_gt(equal, 0);
}
END_TEST

/* Fixed-address churn: free a victim, let `gap` other frees (each followed by a malloc) happen, then
 * allocate over the victim's old range; count re-allocations and those that got the old tag. */
static void quarantine_run(uint32_t w, uint32_t gap, bool neighbour, uint64_t rounds, uint64_t seed,
                           uint64_t *reuses, uint64_t *same)
{
    enum { POP = 64 };
    const unsigned tb = 7;
    ga_rt_cfg_t c;
    ga_rt_default_cfg(&c, GA_LAYOUT_BST, tb, seed);
    c.fixed_addresses = true;
    c.md_capacity = 1u << 14;
    c.tag_quarantine = w;
    c.tag_neighbour_distinct = neighbour;
    ga_mem_t *m;
    ga_rt_t *rt;
    ck_assert_int_eq(ga_mem_create(&m), GA_OK);
    ck_assert_int_eq(ga_rt_create(&c, m, &rt), GA_OK);
    ga_rng_t g;
    ga_rng_seed(&g, seed + 99u);
    const uint64_t heap = UINT64_C(0x10000000);
    uint64_t ptr[POP], size[POP];
    for (int i = 0; i < POP; i++) { /* one 4 KiB slot per population member */
        size[i] = 1u + ga_rng_below(&g, 4096);
        ck_assert_int_eq(ga_rt_malloc_at(rt, heap + 4096u * (uint64_t)i, size[i], &ptr[i]), GA_OK);
    }
    *reuses = *same = 0;
    for (uint64_t r = 0; r < rounds; r++) {
        int v = (int)ga_rng_below(&g, POP);
        uint64_t vbase = ga_va_of(ptr[v], tb), vtag = ga_tag_of(ptr[v], tb);
        ck_assert_int_eq(ga_rt_free(rt, ptr[v]), GA_OK);
        for (uint32_t k = 0; k < gap; k++) { /* other frees, each slot refilled at once */
            int o = (int)ga_rng_below(&g, POP - 1);
            if (o >= v) o++;
            uint64_t ob = ga_va_of(ptr[o], tb);
            ck_assert_int_eq(ga_rt_free(rt, ptr[o]), GA_OK);
            size[o] = 1u + ga_rng_below(&g, heap + 4096u * (uint64_t)(o + 1) - ob);
            ck_assert_int_eq(ga_rt_malloc_at(rt, ob, size[o], &ptr[o]), GA_OK);
        }
        /* The new allocation starts inside the old range (so it overlaps it) and stays inside the
         * victim's 4 KiB slot. */
        uint64_t slot_end = heap + 4096u * (uint64_t)(v + 1);
        uint64_t nb = vbase + ga_rng_below(&g, size[v]);
        size[v] = 1u + ga_rng_below(&g, slot_end - nb);
        ck_assert_int_eq(ga_rt_malloc_at(rt, nb, size[v], &ptr[v]), GA_OK);
        (*reuses)++;
        *same += ga_tag_of(ptr[v], tb) == vtag;
    }
    ga_rt_destroy(rt);
    ga_mem_destroy(m);
}

START_TEST(test_quarantine_window)
{
    uint64_t reuses = 0, same = 0, r, s;
    /* Reuse after 0 .. W-1 intervening frees: always a new tag. */
    for (uint32_t gap = 0; gap < 16u; gap += 3u)
        for (uint64_t seed = 0; seed < 8u; seed++) {
            quarantine_run(16, gap, seed % 2u == 0u, 600, seed, &r, &s);
            reuses += r;
            same += s;
        }
    ck_assert_uint_gt(reuses, 20000);
    ck_assert_uint_eq(same, 0);
    /* Control: without the quarantine the old tag comes back about once in 126 reuses. */
    reuses = same = 0;
    for (uint64_t seed = 0; seed < 8u; seed++) {
        quarantine_run(0, 3, false, 3000, seed, &r, &s);
        reuses += r;
        same += s;
    }
    ck_assert_uint_gt(same, 0);
}
END_TEST

START_TEST(test_quarantine_expires)
{
    /* The window is W frees: with W = 1 one intervening free pushes the victim out of the ring, so
     * the old tag can come back (it does, over enough rounds). */
    uint64_t r, s, same = 0;
    for (uint64_t seed = 0; seed < 8u; seed++) {
        quarantine_run(1, 1, false, 2000, seed, &r, &s);
        same += s;
    }
    ck_assert_uint_gt(same, 0);
}
END_TEST

START_TEST(test_tags_still_spread)
{
    /* Both options on: every valid 7-bit tag is still drawn, never 0 or F, and a re-allocation over
     * more freed ranges than there are tags still succeeds (the excluded set is capped at F - 2). */
    ga_rt_cfg_t c;
    ga_rt_default_cfg(&c, GA_LAYOUT_LIST, 7, 3);
    c.md_capacity = 1u << 14;
    c.tag_neighbour_distinct = true;
    c.tag_quarantine = 1024;
    c.reclaim_threshold = UINT32_MAX;
    ga_mem_t *m;
    ga_rt_t *rt;
    ck_assert_int_eq(ga_mem_create(&m), GA_OK);
    ck_assert_int_eq(ga_rt_create(&c, m, &rt), GA_OK);
    unsigned seen[128] = {0};
    uint64_t p[3000];
    for (int i = 0; i < 3000; i++) {
        ck_assert_int_eq(ga_rt_malloc(rt, 256, &p[i]), GA_OK);
        uint64_t t = ga_tag_of(p[i], 7);
        ck_assert(t >= 1u && t <= 126u);
        seen[t]++;
    }
    for (int i = 0; i < 3000; i++) ck_assert_int_eq(ga_rt_free(rt, p[i]), GA_OK);
    uint64_t big;
    ck_assert_int_eq(ga_rt_malloc(rt, 3000u * 256u, &big), GA_OK); /* overlaps 1024 quarantined frees */
    ck_assert(ga_tag_is_valid(ga_tag_of(big, 7), 7));
    for (unsigned t = 1; t <= 126u; t++) T_MSG(seen[t] > 0u, "tag %u never drawn", t);
    ga_rt_destroy(rt);
    ga_mem_destroy(m);
}
END_TEST

static Suite *ext_suite(void)
{
    Suite *s = suite_create("runtime_ext");
    TCase *tc = tcase_create("ext");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, test_defaults_unchanged);
    tcase_add_test(tc, test_bad_quarantine);
    tcase_add_test(tc, test_neighbour_distinct);
    tcase_add_test(tc, test_quarantine_window);
    tcase_add_test(tc, test_quarantine_expires);
    tcase_add_test(tc, test_tags_still_spread);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(ext_suite());
    srunner_run_all(sr, CK_ENV);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
