/*
 * test_agree.c — every metadata layout (list, BST, table, index) must give the same answers.
 *
 * One runtime per layout (list, BST, table, index) with the same seed receive the same seeded sequence of mallocs
 * and frees (some of them erroneous), each with its own device memory and its own MLU kept coherent
 * the way spec §5.2 says (invalidate every changed location, rewrite ROOT). After every operation a
 * batch of pointers — live ones at boundary offsets, dangling ones, wild ones, tag 0, the forged freed
 * tag — is looked up everywhere. The locations differ between layouts, but the ENTRY that LOADMETA's
 * location holds must agree across the walkers, with the independent plain search
 * (ga_ref_search, which must also find the very same location in each layout's memory), with the
 * runtime's host-side ga_rt_find, and with the test's own list of live allocations. The same batch
 * as one HWOnly warp must fault on the same lanes with the same kinds and entries in every layout.
 * Both tag widths.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ga_gen.h"
#include "ga_mlu.h"
#include "ga_refsearch.h"
#include "ga_runtime.h"

/* Check's ck_assert_* reports every passing assertion to the parent process; loops use this. */
#define REQUIRE(cond, ...)                                                                           \
    do {                                                                                             \
        if (!(cond)) ck_abort_msg(__VA_ARGS__);                                                      \
    } while (0)

#define NL 4          /* layouts: every one of cmodel/ga_layouts.def */
#define MD_CAP 512u   /* nodes / table slots per runtime */
#define MAX_LIVE 96u
#define MAX_FREED 256u
#define BATCH 16u

typedef struct {
    ga_layout_t layout;
    ga_mem_t *mem;
    ga_rt_t *rt;
    ga_mlu_t u;
} lay_t;

typedef struct {
    uint64_t p, size;
} alloc_t;

typedef struct {
    unsigned tb;
    ga_gen_t g;
    lay_t L[NL];
    alloc_t live[MAX_LIVE];
    unsigned nlive;
    alloc_t freed[MAX_FREED]; /* dangling pointers (the most recent MAX_FREED frees) */
    unsigned nfreed, freed_next;
    /* coverage counters */
    unsigned found, zero, range_only_seen, errors_agreed;
} world_t;

static void lay_sync(lay_t *l)
{
    const uint64_t *locs;
    size_t n = ga_rt_invalidations(l->rt, &locs);
    for (size_t i = 0; i < n; i++) ga_mlu_invalidate(&l->u, locs[i]);
    ga_mlu_set_root(&l->u, ga_rt_root(l->rt));
}

static void world_init(world_t *w, unsigned tb, uint64_t seed)
{
    memset(w, 0, sizeof *w);
    w->tb = tb;
    ck_assert_int_eq(ga_gen_init(&w->g, seed, 1, tb), GA_OK);
    static const ga_layout_t layouts[NL] = { GA_LAYOUT_LIST, GA_LAYOUT_BST, GA_LAYOUT_TABLE, GA_LAYOUT_INDEX };
    _Static_assert(NL == GA_LAYOUTS, "every layout");
    for (unsigned k = 0; k < NL; k++) {
        lay_t *l = &w->L[k];
        l->layout = layouts[k];
        ck_assert_int_eq(ga_mem_create(&l->mem), GA_OK);
        ga_rt_cfg_t c;
        ga_rt_default_cfg(&c, l->layout, tb, seed);
        c.md_capacity = MD_CAP;
        c.reclaim_threshold = 24; /* so that reclamation happens */
        ck_assert_int_eq(ga_rt_create(&c, l->mem, &l->rt), GA_OK);
        ga_memif_t mi = ga_mem_memif(l->mem);
        mi.oracle = ga_rt_oracle;
        mi.oracle_ctx = l->rt;
        ck_assert_int_eq(ga_mlu_init(&l->u, tb, 8, &mi), GA_OK);
        ga_mlu_cfg_t mc = l->u.cfg;
        mc.layout = l->layout;
        mc.root = ga_rt_root(l->rt);
        ck_assert_int_eq(ga_mlu_configure(&l->u, &mc), GA_OK);
    }
}

static void world_fini(world_t *w)
{
    for (unsigned k = 0; k < NL; k++) {
        ga_rt_destroy(w->L[k].rt);
        ga_mem_destroy(w->L[k].mem);
    }
}

/* One malloc or free, the same in every layout; the results must agree. */
static void world_op(world_t *w, unsigned opno)
{
    ga_rng_t *rng = &w->g.rng;
    uint64_t roll = ga_rng_below(rng, 100);
    ga_err_t err[NL];
    if (w->nlive < 8u || (roll < 55u && w->nlive < MAX_LIVE)) {
        uint64_t size = ga_gen_alloc_size(&w->g);
        uint64_t p[NL];
        for (unsigned k = 0; k < NL; k++) {
            p[k] = 0;
            err[k] = ga_rt_malloc(w->L[k].rt, size, &p[k]);
            lay_sync(&w->L[k]);
        }
        for (unsigned k = 1; k < NL; k++)
            REQUIRE(err[k] == err[0] && (err[0] != GA_OK || p[k] == p[0]), "op %u malloc(%llu): %s/%s %llx/%llx", opno,
                    (unsigned long long)size, ga_strerror(err[0]), ga_strerror(err[k]), (unsigned long long)p[0],
                    (unsigned long long)p[k]);
        REQUIRE(err[0] == GA_OK, "op %u: malloc failed: %s", opno, ga_strerror(err[0]));
        REQUIRE(ga_tag_is_valid(ga_tag_of(p[0], w->tb), w->tb), "op %u: malloc gave an invalid tag", opno);
        w->live[w->nlive].p = p[0];
        w->live[w->nlive].size = size;
        w->nlive++;
        return;
    }
    uint64_t p;
    unsigned j = (unsigned)ga_rng_below(rng, w->nlive);
    if (roll < 90u) {
        p = w->live[j].p;
    } else if (roll < 94u && w->nfreed > 0u) {
        p = w->freed[ga_rng_below(rng, w->nfreed)].p; /* double free (or of a reclaimed range) */
    } else if (roll < 97u) {
        p = ga_make_ptr(ga_tag_of(w->live[j].p, w->tb), ga_va_of(w->live[j].p, w->tb) + 1u, w->tb); /* interior */
    } else {
        p = ga_make_ptr(ga_gen_valid_tag(&w->g), ga_va_of(w->live[j].p, w->tb), w->tb); /* maybe wrong tag */
    }
    /* The free is legitimate exactly when p is a live allocation's pointer (a stale pointer whose
     * range was reallocated with the same tag by chance is one). */
    bool legit = false;
    for (unsigned i = 0; i < w->nlive; i++)
        if (w->live[i].p == p) {
            legit = true;
            j = i;
        }
    for (unsigned k = 0; k < NL; k++) {
        err[k] = ga_rt_free(w->L[k].rt, p);
        if (err[k] == GA_OK) lay_sync(&w->L[k]);
    }
    for (unsigned k = 1; k < NL; k++)
        REQUIRE(err[k] == err[0], "op %u free(%llx): %s vs %s", opno, (unsigned long long)p, ga_strerror(err[0]),
                ga_strerror(err[k]));
    REQUIRE((err[0] == GA_OK) == legit, "op %u free(%llx): %s", opno, (unsigned long long)p, ga_strerror(err[0]));
    if (err[0] != GA_OK) {
        w->errors_agreed++;
        return;
    }
    w->freed[w->freed_next] = w->live[j];
    w->freed_next = (w->freed_next + 1u) % MAX_FREED;
    if (w->nfreed < MAX_FREED) w->nfreed++;
    w->live[j] = w->live[--w->nlive];
}

/* A pointer to look up: live at a boundary, dangling, wild, tag 0 or forged freed tag. */
static uint64_t pick_pointer(world_t *w, uint32_t size)
{
    ga_rng_t *rng = &w->g.rng;
    unsigned tb = w->tb;
    uint64_t roll = ga_rng_below(rng, 100);
    const alloc_t *a = &w->live[ga_rng_below(rng, w->nlive)];
    if (roll < 20u && w->nfreed > 0u) a = &w->freed[ga_rng_below(rng, w->nfreed)];
    ga_entry_t e = { a->p, a->size };
    uint64_t va = ga_gen_boundary_va(&w->g, e, size);
    uint64_t tag = ga_tag_of(a->p, tb);
    if (roll >= 60u && roll < 70u) tag = 0u;
    else if (roll >= 70u && roll < 75u) tag = ga_tag_freed(tb);
    else if (roll >= 75u && roll < 85u) tag = ga_gen_valid_tag(&w->g);
    else if (roll >= 85u) va = ga_rt_cfg(w->L[0].rt)->heap_base + ga_rng_below(rng, UINT64_C(1) << 26); /* wild */
    return ga_make_ptr(tag, va, tb);
}

static bool entry_eq(ga_entry_t a, ga_entry_t b) { return a.tb == b.tb && a.size == b.size; }

/* Look one pointer up in every way there is and compare. */
static void lookup(world_t *w, uint64_t p, unsigned opno)
{
    unsigned tb = w->tb;
    uint64_t rd[NL];
    ga_entry_t ent[NL];
    for (unsigned k = 0; k < NL; k++) {
        lay_t *l = &w->L[k];
        REQUIRE(ga_mlu_loadmeta(&l->u, p, &rd[k]) == GA_OK, "loadmeta");
        ent[k].tb = ent[k].size = 0;
        if (rd[k] != 0u) {
            uint8_t b[16];
            REQUIRE(ga_mem_read(l->mem, rd[k], b, 16) == GA_MEM_OK, "entry at the returned location unreadable");
            ent[k].tb = ga_le64(b);
            ent[k].size = ga_le64(b + 8);
        }
        /* The independent plain search finds the same location in this layout's memory. */
        ga_entry_t re;
        bool ok = false;
        uint64_t rl = ga_ref_search(l->mem, l->layout, ga_rt_root(l->rt), MD_CAP, tb, p, 1u << 20, &re, &ok);
        REQUIRE(ok, "op %u %s: reference search gave up", opno, ga_layout_name(l->layout));
        REQUIRE(rl == rd[k], "op %u %s p=%llx: LOADMETA %llx, reference %llx", opno, ga_layout_name(l->layout),
                (unsigned long long)p, (unsigned long long)rd[k], (unsigned long long)rl);
        if (rl != 0u) REQUIRE(entry_eq(re, ent[k]), "op %u: reference entry differs", opno);
        if (rl == 0u && re.size != 0u) w->range_only_seen++;
        /* The runtime's host view: the entry covering va. */
        ga_entry_t fe;
        uint64_t floc = 0;
        bool found = ga_rt_find(l->rt, p, &fe, &floc);
        if (rd[k] != 0u) {
            REQUIRE(found && entry_eq(fe, ent[k]) && floc == rd[k], "op %u %s: ga_rt_find disagrees with LOADMETA",
                    opno, ga_layout_name(l->layout));
        } else if (found) {
            uint64_t t = ga_tag_of(p, tb);
            REQUIRE(!ga_tag_is_valid(t, tb) || ga_tag_of(fe.tb, tb) != t,
                    "op %u %s p=%llx: LOADMETA 0 but ga_rt_find has a matching entry", opno,
                    ga_layout_name(l->layout), (unsigned long long)p);
        }
    }
    for (unsigned k = 1; k < NL; k++)
        REQUIRE((rd[k] != 0u) == (rd[0] != 0u) && entry_eq(ent[k], ent[0]),
                "op %u p=%llx: %s gives %llx (%llx,%llx), %s gives %llx (%llx,%llx)", opno, (unsigned long long)p,
                ga_layout_name(w->L[0].layout), (unsigned long long)rd[0], (unsigned long long)ent[0].tb,
                (unsigned long long)ent[0].size, ga_layout_name(w->L[k].layout), (unsigned long long)rd[k],
                (unsigned long long)ent[k].tb, (unsigned long long)ent[k].size);
    /* The test's own truth: a live allocation whose range holds va and whose pointer has p's tag. */
    uint64_t t = ga_tag_of(p, tb), a = ga_va_of(p, tb);
    bool want = false;
    for (unsigned j = 0; j < w->nlive; j++) {
        uint64_t b = ga_va_of(w->live[j].p, tb);
        if (a >= b && a - b < w->live[j].size && ga_tag_of(w->live[j].p, tb) == t && ga_tag_is_valid(t, tb)) {
            want = true;
            REQUIRE(ent[0].tb == w->live[j].p && ent[0].size == w->live[j].size, "op %u: wrong entry", opno);
        }
    }
    REQUIRE(want == (rd[0] != 0u), "op %u p=%llx: LOADMETA %llx but the live list says %d", opno,
            (unsigned long long)p, (unsigned long long)rd[0], want);
    if (want)
        w->found++;
    else
        w->zero++;
}

/* The same pointers as one HWOnly warp: the same lanes fail, with the same kinds and entries. */
static void warp_agree(world_t *w, const uint64_t *ptrs, uint32_t size, unsigned opno)
{
    ga_warp_req_t q;
    memset(&q, 0, sizeof q);
    q.lanes = BATCH;
    q.active = (UINT32_C(1) << BATCH) - 1u;
    q.size = size;
    q.warp = (uint16_t)opno;
    for (unsigned l = 0; l < BATCH; l++) q.addr[l] = ptrs[l];
    ga_warp_rsp_t r[NL];
    for (unsigned k = 0; k < NL; k++) {
        ga_mlu_cfg_t c = w->L[k].u.cfg;
        c.mode = GA_MODE_HWONLY;
        REQUIRE(ga_mlu_configure(&w->L[k].u, &c) == GA_OK, "configure");
        REQUIRE(ga_mlu_access(&w->L[k].u, &q, &r[k]) == GA_OK, "access");
        c.mode = GA_MODE_COMPILER;
        REQUIRE(ga_mlu_configure(&w->L[k].u, &c) == GA_OK, "configure");
    }
    for (unsigned k = 1; k < NL; k++) {
        REQUIRE(r[k].fault == r[0].fault, "op %u: HWOnly fault masks %x vs %x", opno, r[0].fault, r[k].fault);
        REQUIRE(r[k].rec.kind == r[0].rec.kind && r[k].rec.lane == r[0].rec.lane &&
                    entry_eq(r[k].rec.entry, r[0].rec.entry) && (r[k].rec.md != 0u) == (r[0].rec.md != 0u),
                "op %u: HWOnly records differ (%s lane %u vs %s lane %u)", opno, ga_exc_name(r[0].rec.kind),
                r[0].rec.lane, ga_exc_name(r[k].rec.kind), r[k].rec.lane);
    }
}

START_TEST(test_layouts_agree)
{
    unsigned tb = _i == 0 ? 7u : 16u;
    world_t *w = calloc(1, sizeof *w);
    ck_assert_ptr_nonnull(w);
    world_init(w, tb, 0xA11CE5u + tb);
    unsigned faults = 0;
    for (unsigned op = 0; op < 700; op++) {
        world_op(w, op);
        uint32_t size = ga_gen_access_size(&w->g);
        uint64_t ptrs[BATCH];
        for (unsigned i = 0; i < BATCH; i++) {
            ptrs[i] = pick_pointer(w, size);
            lookup(w, ptrs[i], op);
        }
        warp_agree(w, ptrs, size, op);
    }
    for (unsigned k = 0; k < NL; k++) faults += (unsigned)w->L[k].u.st.faulting_ops;
    /* The sequence reached every kind of answer. */
    ck_assert_uint_gt(w->found, 1000);
    ck_assert_uint_gt(w->zero, 1000);
    ck_assert_uint_gt(w->range_only_seen, 100);
    ck_assert_uint_gt(w->errors_agreed, 10);
    ck_assert_uint_gt(faults, 300);
    ga_rt_stats_t s = ga_rt_stats(w->L[1].rt);
    ck_assert_uint_gt(s.frees, 100);
    ck_assert_uint_gt(s.reclaimed, 0);
    for (unsigned k = 0; k < NL; k++) ck_assert_uint_gt(w->L[k].u.st.loadmeta_hits, 100);
    world_fini(w);
    free(w);
}
END_TEST

static Suite *agree_suite(void)
{
    Suite *s = suite_create("agree");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_loop_test(tc, test_layouts_agree, 0, 2);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(agree_suite());
    srunner_run_all(sr, CK_ENV);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
