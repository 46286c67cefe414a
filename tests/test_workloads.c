/*
 * test_workloads.c — the synthetic workload generator (sim/workloads/, docs/workloads.md): every
 * workload's stream meets its targets within the stated tolerances, the streams are well formed
 * (every access in bounds of a live allocation, kernels delimited, every allocation freed once), the
 * Table 2 group reproduces the paper's §3 statistics, and a seed fixes the stream.
 *
 * Tolerances (docs/workloads.md): allocation count, footprint (bytes) and median exact; largest size
 * <= 1 700 MiB; smallest >= 256 B; live allocations exactly allocs - temps (+1 with temporaries);
 * working set <= its target (< 8 for Table 2, > 8 for sp and sssp); instructions within one per kernel
 * of instr x scale; global and shared accesses within one of instructions x their fraction.
 */
#include "ga_workloads.h"

#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define SCALE 1e-4

typedef struct {
    const ga_wl_spec_t *s;
    uint64_t *size;   /* by id, from ALLOC events */
    uint8_t *state;   /* 0 never allocated, 1 live, 2 freed */
    int in_kernel;
    uint64_t bad;     /* malformed events */
    uint64_t events, hash;
    uint64_t min_size;
} chk_t;

static uint64_t mix(uint64_t h, uint64_t v)
{
    h = (h ^ v) * UINT64_C(0x100000001b3);
    return h ^ (h >> 29);
}

/* Checks one event against the stream rules of ga_workloads.h and hashes it. */
static int sink(void *ctx, const ga_wev_t *ev)
{
    chk_t *c = ctx;
    c->events++;
    c->hash = mix(c->hash, (uint64_t)ev->kind);
    c->hash = mix(c->hash, ev->id);
    c->hash = mix(c->hash, ev->bytes ^ ev->off ^ ((uint64_t)ev->sm << 32) ^ ev->warp);
    c->hash = mix(c->hash, ev->root_off ^ ((uint64_t)ev->saddr << 20) ^ ev->root);
    bool in_id = ev->id < c->s->allocs;
    switch (ev->kind) {
    case GA_WEV_ALLOC:
        if (!in_id || c->state[ev->id] != 0u || ev->bytes == 0u) c->bad++;
        else {
            c->state[ev->id] = 1;
            c->size[ev->id] = ev->bytes;
            if (ev->bytes < c->min_size) c->min_size = ev->bytes;
        }
        break;
    case GA_WEV_FREE:
        if (!in_id || c->state[ev->id] != 1u) c->bad++;
        else c->state[ev->id] = 2;
        break;
    case GA_WEV_KERNEL:
        if (c->in_kernel || ev->name == NULL) c->bad++;
        c->in_kernel = 1;
        break;
    case GA_WEV_END:
        if (!c->in_kernel) c->bad++;
        c->in_kernel = 0;
        break;
    case GA_WEV_LOADMETA:
        if (!c->in_kernel || !in_id || c->state[ev->id] != 1u || ev->root == GA_WL_ROOT_ADDRESS ||
            ev->root_off >= c->size[ev->id])
            c->bad++;
        break;
    case GA_WEV_GLOBAL:
        if (!c->in_kernel || !in_id || c->state[ev->id] != 1u || ev->mask != UINT32_MAX ||
            (ev->size != 4u && ev->size != 8u) || ev->off + 32u * ev->size > c->size[ev->id] ||
            ev->off % ev->size != 0u || (ev->root != GA_WL_ROOT_ADDRESS && ev->root_off >= c->size[ev->id]))
            c->bad++;
        break;
    case GA_WEV_SHARED:
        if (!c->in_kernel || ev->ssize == 0u || (uint64_t)ev->saddr + 32u * ev->size > (uint64_t)ev->sbase + ev->ssize)
            c->bad++;
        break;
    default:
        c->bad++;
    }
    return 0;
}

static void run_checked(const ga_wl_spec_t *s, uint64_t seed, chk_t *c, ga_wl_summary_t *m)
{
    memset(c, 0, sizeof *c);
    c->s = s;
    c->size = calloc(s->allocs, sizeof *c->size);
    c->state = calloc(s->allocs, sizeof *c->state);
    c->min_size = UINT64_MAX;
    ck_assert_ptr_nonnull(c->size);
    ck_assert_ptr_nonnull(c->state);
    ga_wl_opts_t o = {SCALE, seed, 8};
    ck_assert_int_eq(ga_wl_generate(s, &o, sink, c, m), 0);
    for (uint32_t i = 0; i < s->allocs; i++)
        ck_assert_msg(c->state[i] == 2u, "%s: allocation %u not allocated and freed once", s->name, i);
    free(c->size);
    free(c->state);
}

START_TEST(test_targets)
{
    size_t n;
    const ga_wl_spec_t *s = &ga_wl_specs(&n)[_i];
    chk_t c;
    ga_wl_summary_t m;
    run_checked(s, 1, &c, &m);
    ck_assert_msg(c.bad == 0, "%s: %llu malformed events", s->name, (unsigned long long)c.bad);
    ck_assert(!c.in_kernel);
    ck_assert_uint_eq(m.allocs, s->allocs);
    ck_assert_uint_eq(m.frees, s->allocs);
    ck_assert_uint_eq(m.kernels, s->kernels);
    ck_assert_uint_eq(m.footprint, (uint64_t)llround(s->footprint_mib * 1048576.0));
    ck_assert_uint_eq(m.median, s->median);
    ck_assert_uint_le(m.max_size, GA_WL_MAX_OBJECT);
    ck_assert_uint_ge(c.min_size, GA_WL_MIN_OBJECT);
    ck_assert_uint_eq(m.live_max, s->allocs - s->temps + (s->temps > 0u ? 1u : 0u));
    ck_assert_uint_le(m.ws_max, s->ws);
    ck_assert_uint_ge(m.ws_max, 1);
    if (s->group == GA_WL_TABLE2) ck_assert_uint_lt(m.ws_max, 8); /* Fig 4 */
    double instr = s->instr_m * 1e6 * SCALE;
    ck_assert(fabs((double)m.instr - instr) <= (double)s->kernels);
    ck_assert(fabs((double)m.global - instr * s->global_frac) <= 1.0);
    ck_assert(fabs((double)m.shared - instr * s->shared_frac) <= 1.0);
    ck_assert_uint_eq(m.root_kind[0] + m.root_kind[1] + m.root_kind[2], m.global);
}
END_TEST

START_TEST(test_paper_statistics)
{
    /* The Table 2 group against §3.2: medians 256 B .. 236 MB with about a quarter under 4 KiB, at
     * most 1 184 live allocations with three workloads over 1 000, global accesses 6 % overall; and
     * the broader group has working sets above 8 (sp, sssp) and up to 3 008 live allocations. */
    size_t n;
    const ga_wl_spec_t *s = ga_wl_specs(&n);
    ck_assert_uint_eq(n, 36);
    uint64_t med_min = UINT64_MAX, med_max = 0, g = 0, in = 0;
    unsigned small = 0, over1000 = 0, t2 = 0, live_max = 0, big_ws = 0, broad_live = 0;
    for (size_t i = 0; i < n; i++) {
        ga_wl_opts_t o = {1e-3, 1, 8};
        ga_wl_summary_t m;
        ck_assert_int_eq(ga_wl_generate(&s[i], &o, NULL, NULL, &m), 0);
        if (s[i].group != GA_WL_TABLE2) {
            if (m.ws_max > 8u) big_ws++;
            if (m.live_max > broad_live) broad_live = m.live_max;
            continue;
        }
        t2++;
        if (m.median < med_min) med_min = m.median;
        if (m.median > med_max) med_max = m.median;
        small += m.median < 4096u;
        over1000 += m.live_max > 1000u;
        if (m.live_max > live_max) live_max = m.live_max;
        g += m.global;
        in += m.instr;
    }
    ck_assert_uint_eq(t2, 28);
    ck_assert_uint_eq(med_min, 256);
    ck_assert_uint_eq(med_max, UINT64_C(236) << 20);
    ck_assert_uint_eq(small, 7); /* 25 % of 28 */
    ck_assert_uint_eq(live_max, 1184);
    ck_assert_uint_eq(over1000, 3);
    ck_assert(fabs((double)g / (double)in - 0.06) < 1e-4);
    ck_assert_uint_eq(big_ws, 2);
    ck_assert_uint_eq(broad_live, 3008);
    ck_assert_ptr_nonnull(ga_wl_find("sp"));
    ck_assert_uint_gt(ga_wl_find("sp")->ws, 8);
    ck_assert_uint_gt(ga_wl_find("sssp")->ws, 8);
    ck_assert_ptr_null(ga_wl_find("nonexistent"));
}
END_TEST

START_TEST(test_determinism)
{
    const ga_wl_spec_t *s = ga_wl_find(_i == 0 ? "namd_2" : "lammps_1");
    chk_t a, b, c;
    ga_wl_summary_t m;
    run_checked(s, 7, &a, &m);
    run_checked(s, 7, &b, &m);
    run_checked(s, 8, &c, &m);
    ck_assert_uint_eq(a.events, b.events);
    ck_assert_uint_eq(a.hash, b.hash);
    ck_assert_uint_ne(a.hash, c.hash);
    /* sizes: ga_wl_sizes equals the ALLOC events, and depends on the seed */
    uint64_t *z1 = calloc(s->allocs, sizeof *z1), *z2 = calloc(s->allocs, sizeof *z2);
    ck_assert_int_eq(ga_wl_sizes(s, 7, z1), 0);
    ck_assert_int_eq(ga_wl_sizes(s, 7, z2), 0);
    ck_assert_mem_eq(z1, z2, s->allocs * sizeof *z1);
    ck_assert_int_eq(ga_wl_sizes(s, 8, z2), 0);
    ck_assert(memcmp(z1, z2, s->allocs * sizeof *z1) != 0);
    free(z1);
    free(z2);
}
END_TEST

static int stop_at_kernel(void *ctx, const ga_wev_t *ev)
{
    (void)ctx;
    return ev->kind == GA_WEV_KERNEL ? 42 : 0;
}

START_TEST(test_bad_arguments)
{
    ga_wl_spec_t s = *ga_wl_find("RTM_1");
    ga_wl_opts_t o = {SCALE, 1, 8};
    ga_wl_summary_t m;
    ck_assert_int_eq(ga_wl_generate(NULL, &o, NULL, NULL, &m), -1);
    ck_assert_int_eq(ga_wl_generate(&s, NULL, NULL, NULL, &m), -1);
    o.scale = 0.0;
    ck_assert_int_eq(ga_wl_generate(&s, &o, NULL, NULL, &m), -1);
    o.scale = SCALE;
    o.sms = 0;
    ck_assert_int_eq(ga_wl_generate(&s, &o, NULL, NULL, &m), -1);
    o.sms = 8;
    ga_wl_spec_t t = s;
    t.median = UINT64_C(1) << 30; /* 7 x 1 GiB cannot fit 1 675 MiB */
    ck_assert_int_eq(ga_wl_generate(&t, &o, NULL, NULL, &m), -1);
    t = s;
    t.kernels = t.temps; /* no room for the temporaries */
    ck_assert_int_eq(ga_wl_generate(&t, &o, NULL, NULL, &m), -1);
    t = s;
    t.esize = 2;
    ck_assert_int_eq(ga_wl_generate(&t, &o, NULL, NULL, &m), -1);
    /* a sink's non-zero return stops the stream and is returned */
    ck_assert_int_eq(ga_wl_generate(&s, &o, stop_at_kernel, NULL, &m), 42);
    ck_assert_uint_eq(m.kernels, 1);
}
END_TEST

static Suite *wl_suite(void)
{
    Suite *s = suite_create("workloads");
    TCase *tc = tcase_create("workloads");
    size_t n;
    (void)ga_wl_specs(&n);
    tcase_set_timeout(tc, 120);
    tcase_add_loop_test(tc, test_targets, 0, (int)n);
    tcase_add_test(tc, test_paper_statistics);
    tcase_add_loop_test(tc, test_determinism, 0, 2);
    tcase_add_test(tc, test_bad_arguments);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(wl_suite());
    srunner_run_all(sr, CK_ENV);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
