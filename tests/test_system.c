/*
 * test_system.c — the glue of ga_system (memory + runtime + one MLU per SM) keeps every SM coherent
 * the way spec §5.2 requires: after a free, no SM's MLB holds the freed node's location; after an
 * allocation every SM walks from the new ROOT; runtime errors change nothing in any SM.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "ga_system.h"

static const ga_layout_t layouts[4] = {GA_LAYOUT_LIST, GA_LAYOUT_BST, GA_LAYOUT_TABLE, GA_LAYOUT_INDEX};

static void make_sys(ga_system_t *s, ga_layout_t layout, unsigned sms)
{
    ga_system_cfg_t cfg;
    ga_system_default_cfg(&cfg, layout, 7, 77);
    cfg.sms = sms;
    cfg.rt.md_capacity = 4096;
    ck_assert_int_eq(ga_system_init(s, &cfg), GA_OK);
}

/* True when some valid entry of the SM's MLB holds location loc. */
static bool mlb_holds(const ga_mlu_t *u, uint64_t loc)
{
    for (unsigned i = 0; i < u->mlb.n; i++)
        if (u->mlb.valid[i] && u->mlb.loc[i] == loc) return true;
    return false;
}

START_TEST(test_free_invalidates_every_sm)
{
    ga_system_t s;
    make_sys(&s, layouts[_i], 3);
    uint64_t p[20], loc[20];
    for (int i = 0; i < 20; i++) ck_assert_int_eq(ga_system_malloc(&s, 1000u + 256u * (unsigned)i, &p[i]), GA_OK);
    for (unsigned sm = 0; sm < 3; sm++)
        for (int i = 0; i < 8; i++) {
            ck_assert_int_eq(ga_mlu_loadmeta(&s.sm[sm], p[i] + 5u, &loc[i]), GA_OK);
            ck_assert_uint_ne(loc[i], 0);
            ck_assert(mlb_holds(&s.sm[sm], loc[i]));
        }
    ck_assert_int_eq(ga_system_free(&s, p[3]), GA_OK);
    for (unsigned sm = 0; sm < 3; sm++) {
        ck_assert(!mlb_holds(&s.sm[sm], loc[3]));
        ck_assert(mlb_holds(&s.sm[sm], loc[4])); /* only the freed location goes */
        /* The dangling pointer: LOADMETA returns 0 (tag F in the entry), and a MEMCHECK.G through the
         * location obtained before the free reports USE_AFTER_FREE (spec §4.2 G4). */
        uint64_t rd = 1;
        ck_assert_int_eq(ga_mlu_loadmeta(&s.sm[sm], p[3], &rd), GA_OK);
        ck_assert_uint_eq(rd, 0);
        ga_warp_req_t q;
        ga_warp_rsp_t r;
        memset(&q, 0, sizeof q);
        q.lanes = 1;
        q.active = 1;
        q.size = 4;
        q.addr[0] = p[3];
        ck_assert_int_eq(ga_mlu_memcheck_g(&s.sm[sm], &q, loc[3], &r), GA_OK);
        ck_assert_uint_eq(r.fault, 1);
        ck_assert_int_eq(r.rec.kind, GA_EXC_USE_AFTER_FREE);
        ck_assert_uint_eq(r.rec.sm, sm);
    }
    ga_system_fini(&s);
}
END_TEST

START_TEST(test_root_follows_runtime)
{
    ga_system_t s;
    make_sys(&s, layouts[_i], 2);
    for (int i = 0; i < 50; i++) {
        uint64_t p;
        ck_assert_int_eq(ga_system_malloc(&s, 4096, &p), GA_OK);
        for (unsigned sm = 0; sm < 2; sm++) ck_assert_uint_eq(s.sm[sm].cfg.root, ga_rt_root(s.rt));
        /* The newest allocation is found by a walk from the new ROOT in every SM. */
        uint64_t rd;
        ck_assert_int_eq(ga_mlu_loadmeta(&s.sm[i % 2], p + 4095u, &rd), GA_OK);
        ck_assert_uint_ne(rd, 0);
    }
    ga_system_fini(&s);
}
END_TEST

START_TEST(test_errors_change_nothing)
{
    ga_system_t s;
    make_sys(&s, layouts[_i], 2);
    uint64_t p, q;
    ck_assert_int_eq(ga_system_malloc(&s, 512, &p), GA_OK);
    ck_assert_int_eq(ga_system_free(&s, p), GA_OK);
    ga_mlb_t before[2] = {s.sm[0].mlb, s.sm[1].mlb};
    uint64_t root = s.sm[0].cfg.root;
    ck_assert_int_eq(ga_system_free(&s, p), GA_ERR_DOUBLE_FREE);
    ck_assert_int_eq(ga_system_malloc(&s, 0, &q), GA_ERR_ZERO_SIZE);
    for (unsigned sm = 0; sm < 2; sm++) {
        ck_assert(memcmp(&before[sm], &s.sm[sm].mlb, sizeof before[sm]) == 0); /* not even gen moved */
        ck_assert_uint_eq(s.sm[sm].cfg.root, root);
    }
    ga_system_fini(&s);
}
END_TEST

START_TEST(test_bad_config)
{
    ga_system_t s;
    ga_system_cfg_t cfg;
    ga_system_default_cfg(&cfg, GA_LAYOUT_BST, 7, 1);
    cfg.sms = 0;
    ck_assert_int_eq(ga_system_init(&s, &cfg), GA_ERR_BAD_PARAM);
    ga_system_default_cfg(&cfg, GA_LAYOUT_BST, 7, 1);
    cfg.mlb_entries = 65;
    ck_assert_int_eq(ga_system_init(&s, &cfg), GA_ERR_BAD_PARAM);
    ga_system_default_cfg(&cfg, GA_LAYOUT_BST, 9, 1);
    ck_assert_int_ne(ga_system_init(&s, &cfg), GA_OK);
    ga_system_default_cfg(&cfg, GA_LAYOUT_BST, 7, 1);
    cfg.step_limit = 0;
    ck_assert_int_eq(ga_system_init(&s, &cfg), GA_ERR_BAD_PARAM);
}
END_TEST

int main(void)
{
    Suite *su = suite_create("system");
    TCase *tc = tcase_create("glue");
    tcase_add_loop_test(tc, test_free_invalidates_every_sm, 0, 4);
    tcase_add_loop_test(tc, test_root_follows_runtime, 0, 4);
    tcase_add_loop_test(tc, test_errors_change_nothing, 0, 4);
    tcase_add_test(tc, test_bad_config);
    suite_add_tcase(su, tc);
    SRunner *sr = srunner_create(su);
    srunner_run_all(sr, CK_ENV);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
