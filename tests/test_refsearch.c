/*
 * test_refsearch.c — unit tests of the independent reference search (cmodel/ga_refsearch.h).
 *
 * Hand-built structures with known answers (range boundaries, tag 0, the freed tag, corrupt links),
 * then agreement with the runtime's host index (ga_rt_find) on random runtimes of every layout.
 */
#include "ga_refsearch.h"
#include "ga_rng.h"
#include "ga_runtime.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>

/* Failure-only assertions for the loops (Check records every passing ck_assert through a pipe). */
#define T_CMP(a, op, b)                                                                             \
    do {                                                                                            \
        unsigned long long t_a_ = (unsigned long long)(a), t_b_ = (unsigned long long)(b);         \
        if (!(t_a_ op t_b_))                                                                        \
            ck_abort_msg("%s:%d: '%s %s %s' failed: %#llx vs %#llx", __FILE__, __LINE__, #a, #op, #b, \
                         t_a_, t_b_);                                                               \
    } while (0)
#define T_EQ(a, b) T_CMP(a, ==, b)

static unsigned g_tb = 7; /* tag width of the hand-built structures */

static uint64_t ptr(uint64_t tag, uint64_t va) { return (tag << (64u - g_tb)) | va; }
static uint64_t freed_tag(void) { return (UINT64_C(1) << g_tb) - 1u; }

static void put64(uint8_t *b, uint64_t v)
{
    for (int i = 0; i < 8; i++) b[i] = (uint8_t)(v >> (8 * i));
}

static void put_node(ga_mem_t *m, uint64_t loc, uint64_t tb, uint64_t size, uint64_t f1, uint64_t f2)
{
    uint8_t b[32];
    put64(b, tb);
    put64(b + 8, size);
    put64(b + 16, f1);
    put64(b + 24, f2);
    ck_assert_int_eq(ga_mem_write(m, loc, b, 32), GA_OK);
}

static void put_slot(ga_mem_t *m, uint64_t loc, uint64_t tb, uint64_t size)
{
    uint8_t b[16];
    put64(b, tb);
    put64(b + 8, size);
    ck_assert_int_eq(ga_mem_write(m, loc, b, 16), GA_OK);
}

/* One search with its expected result: location, covering entry (tb, size) or zero, ok. */
static void expect(ga_mem_t *m, ga_layout_t l, uint64_t root, uint64_t slots, uint64_t p,
                   uint64_t max_nodes, uint64_t want_loc, uint64_t want_tb, uint64_t want_size,
                   bool want_ok, int line)
{
    ga_entry_t e = {0xBAD, 0xBAD};
    bool ok = !want_ok;
    uint64_t got = ga_ref_search(m, l, root, slots, g_tb, p, max_nodes, &e, &ok);
    ck_assert_msg(got == want_loc && e.tb == want_tb && e.size == want_size && ok == want_ok,
                  "line %d: p=%#llx got loc %#llx e=(%#llx,%llu) ok=%d", line, (unsigned long long)p,
                  (unsigned long long)got, (unsigned long long)e.tb, (unsigned long long)e.size, ok);
}
#define EXPECT(m, l, root, slots, p, maxn, loc, tb, size, ok)                                       \
    expect(m, l, root, slots, p, maxn, loc, tb, size, ok, __LINE__)

/* List: A (0x1000) -> B (0x1040) -> C (0x1020, freed) -> end. */
static void build_list(ga_mem_t *m)
{
    put_node(m, 0x1000, ptr(5, 0x10000), 0x100, 0x1040, 0);
    put_node(m, 0x1040, ptr(9, 0x20000), 1, 0x1020, 0x1000);
    put_node(m, 0x1020, ptr(freed_tag(), 0x30000), 0x10, 0, 0x1040);
}

static void list_cases(unsigned tb)
{
    g_tb = tb;
    const uint64_t F = freed_tag();
    const ga_layout_t L = GA_LAYOUT_LIST;
    ga_mem_t *m;
    ck_assert_int_eq(ga_mem_create(&m), GA_OK);
    build_list(m);
    const uint64_t A = ptr(5, 0x10000), B = ptr(9, 0x20000), C = ptr(F, 0x30000);
    EXPECT(m, L, 0x1000, 0, ptr(5, 0x10000), 100, 0x1000, A, 0x100, true);  /* base */
    EXPECT(m, L, 0x1000, 0, ptr(5, 0x100FF), 100, 0x1000, A, 0x100, true);  /* last byte */
    EXPECT(m, L, 0x1000, 0, ptr(5, 0xFFFF), 100, 0, 0, 0, true);            /* base - 1 */
    EXPECT(m, L, 0x1000, 0, ptr(5, 0x10100), 100, 0, 0, 0, true);           /* base + size */
    EXPECT(m, L, 0x1000, 0, ptr(6, 0x10080), 100, 0, A, 0x100, true);       /* other tag */
    EXPECT(m, L, 0x1000, 0, ptr(0, 0x10080), 100, 0, A, 0x100, true);       /* tag 0 */
    EXPECT(m, L, 0x1000, 0, ptr(F, 0x10080), 100, 0, A, 0x100, true);       /* forged freed tag */
    EXPECT(m, L, 0x1000, 0, ptr(9, 0x20000), 100, 0x1040, B, 1, true);      /* size 1: its byte */
    EXPECT(m, L, 0x1000, 0, ptr(9, 0x20001), 100, 0, 0, 0, true);           /* ... and no more */
    EXPECT(m, L, 0x1000, 0, ptr(F, 0x30000), 100, 0, C, 0x10, true);        /* freed: tag F never matches */
    EXPECT(m, L, 0x1000, 0, ptr(3, 0x3000F), 100, 0, C, 0x10, true);        /* dangling pointer */
    /* max_nodes: C is the third node. */
    EXPECT(m, L, 0x1000, 0, ptr(3, 0x30000), 3, 0, C, 0x10, true);
    EXPECT(m, L, 0x1000, 0, ptr(3, 0x30000), 2, 0, 0, 0, false);
    EXPECT(m, L, 0x1000, 0, ptr(5, 0x10000), 1, 0x1000, A, 0x100, true);
    EXPECT(m, L, 0x1000, 0, ptr(5, 0x10000), 0, 0, 0, 0, false);
    EXPECT(m, L, 0x1000, 0, ptr(5, 0x50000), 3, 0, 0, 0, true);   /* 3 reads, then the end */
    EXPECT(m, L, 0x1000, 0, ptr(5, 0x50000), 2, 0, 0, 0, false);
    EXPECT(m, L, 0, 0, ptr(5, 0x10000), 100, 0, 0, 0, true);      /* empty list */
    EXPECT(m, L, 0, 0, ptr(5, 0x10000), 0, 0, 0, 0, true);
    EXPECT(m, L, 0x1040, 0, ptr(5, 0x10000), 100, 0, 0, 0, true); /* starting past A */
    /* Corruptions: a cycle, a misaligned link, an unmapped node, a poisoned node. */
    put_node(m, 0x1020, C, 0x10, 0x1000, 0x1040); /* C -> A */
    EXPECT(m, L, 0x1000, 0, ptr(5, 0x50000), 1000, 0, 0, 0, false);
    EXPECT(m, L, 0x1000, 0, ptr(3, 0x30000), 1000, 0, C, 0x10, true); /* found before looping */
    put_node(m, 0x1020, C, 0x10, 0x1010, 0x1040); /* C -> misaligned */
    EXPECT(m, L, 0x1000, 0, ptr(5, 0x50000), 1000, 0, 0, 0, false);
    put_node(m, 0x1020, C, 0x10, 0x900000, 0x1040); /* C -> never written */
    EXPECT(m, L, 0x1000, 0, ptr(5, 0x50000), 1000, 0, 0, 0, false);
    put_node(m, 0x1020, C, 0x10, 0, 0x1040);
    ck_assert_int_eq(ga_mem_poison(m, 0x1058, 1), GA_OK); /* B's last word */
    EXPECT(m, L, 0x1000, 0, ptr(9, 0x20000), 1000, 0, 0, 0, false);
    EXPECT(m, L, 0x1000, 0, ptr(5, 0x10000), 1000, 0x1000, A, 0x100, true); /* A is before B */
    ga_mem_unpoison_all(m);
    EXPECT(m, L, 0x1001, 0, ptr(5, 0x10000), 1000, 0, 0, 0, false); /* misaligned root */
    put_node(m, 0x5010, ptr(5, 0x90000), 0x10, 0, 0); /* a readable node at a misaligned place */
    EXPECT(m, L, 0x5010, 0, ptr(5, 0x90000), 1000, 0, 0, 0, false);
    put_node(m, 0x1020, C, 0x10, 0x5010, 0x1040);
    EXPECT(m, L, 0x1000, 0, ptr(5, 0x90000), 1000, 0, 0, 0, false);
    put_node(m, 0x1020, C, 0x10, 0, 0x1040);
    /* Two nodes covering the same address (corrupt): the first one answers. */
    put_node(m, 0x1020, ptr(7, 0x10000), 0x10, 0, 0x1040);
    EXPECT(m, L, 0x1040, 0, ptr(7, 0x10000), 100, 0x1020, ptr(7, 0x10000), 0x10, true);
    EXPECT(m, L, 0x1000, 0, ptr(7, 0x10000), 100, 0, A, 0x100, true);
    /* The search reads exactly 32 bytes per node and nothing else. */
    ga_mem_stats_t s0 = ga_mem_stats(m);
    EXPECT(m, L, 0x1000, 0, ptr(5, 0x70000), 100, 0, 0, 0, true);
    ga_mem_stats_t s1 = ga_mem_stats(m);
    ck_assert_uint_eq(s1.reads - s0.reads, 3);
    ck_assert_uint_eq(s1.bytes_read - s0.bytes_read, 96);
    ck_assert_uint_eq(s1.writes, s0.writes);
    ga_mem_destroy(m);
}

START_TEST(test_list) { list_cases(_i == 0 ? 7u : 16u); }
END_TEST

/*         P (0x2000) [0x50000, +0x100) tag 1
 *        /                        \
 *  Q (0x2020) [0x40000, +0x1000) t2   R (0x2040) [0x60000, +8) t3
 *   /                  \
 * S (0x2060) [0x100,+0x100) t4   T (0x2080) [0x48000, +0x10) freed
 */
static void build_bst(ga_mem_t *m)
{
    put_node(m, 0x2000, ptr(1, 0x50000), 0x100, 0x2020, 0x2040);
    put_node(m, 0x2020, ptr(2, 0x40000), 0x1000, 0x2060, 0x2080);
    put_node(m, 0x2040, ptr(3, 0x60000), 8, 0, 0);
    put_node(m, 0x2060, ptr(4, 0x100), 0x100, 0, 0);
    put_node(m, 0x2080, ptr(freed_tag(), 0x48000), 0x10, 0, 0);
}

static void bst_cases(unsigned tb)
{
    g_tb = tb;
    const uint64_t F = freed_tag();
    const ga_layout_t B = GA_LAYOUT_BST;
    const uint64_t R0 = 0x2000;
    ga_mem_t *m;
    ck_assert_int_eq(ga_mem_create(&m), GA_OK);
    build_bst(m);
    const struct {
        uint64_t loc, tag, base, size;
    } n[5] = {{0x2000, 1, 0x50000, 0x100}, {0x2020, 2, 0x40000, 0x1000}, {0x2040, 3, 0x60000, 8},
              {0x2060, 4, 0x100, 0x100}, {0x2080, F, 0x48000, 0x10}};
    for (int i = 0; i < 5; i++) {
        uint64_t etb = ptr(n[i].tag, n[i].base);
        uint64_t hit = n[i].tag == F ? 0 : n[i].loc;
        EXPECT(m, B, R0, 0, ptr(n[i].tag, n[i].base), 100, hit, etb, n[i].size, true);
        EXPECT(m, B, R0, 0, ptr(n[i].tag, n[i].base + n[i].size - 1), 100, hit, etb, n[i].size, true);
        EXPECT(m, B, R0, 0, ptr(n[i].tag, n[i].base - 1), 100, 0, 0, 0, true);
        EXPECT(m, B, R0, 0, ptr(n[i].tag, n[i].base + n[i].size), 100, 0, 0, 0, true);
        EXPECT(m, B, R0, 0, ptr(0, n[i].base), 100, 0, etb, n[i].size, true);
        EXPECT(m, B, R0, 0, ptr(n[i].tag % (F - 1) + 1, n[i].base), 100, 0, etb, n[i].size, true);
    }
    /* Depth limits: S is the third node read. */
    EXPECT(m, B, R0, 0, ptr(4, 0x150), 3, 0x2060, ptr(4, 0x100), 0x100, true);
    EXPECT(m, B, R0, 0, ptr(4, 0x150), 2, 0, 0, 0, false);
    EXPECT(m, B, R0, 0, ptr(4, 0x10), 3, 0, 0, 0, true); /* S read, then its null left link */
    EXPECT(m, B, R0, 0, ptr(9, 0x60008), 2, 0, 0, 0, true); /* P, R, then R's null right link */
    /* A wrong link is followed faithfully: the search trusts the order (no backtracking). */
    put_node(m, 0x2000, ptr(1, 0x50000), 0x100, 0x2040, 0x2020); /* children swapped */
    EXPECT(m, B, R0, 0, ptr(3, 0x60000), 100, 0, 0, 0, true);
    EXPECT(m, B, R0, 0, ptr(2, 0x40000), 100, 0, 0, 0, true);
    /* A cycle (R's left points back to P). */
    put_node(m, 0x2000, ptr(1, 0x50000), 0x100, 0x2020, 0x2040);
    put_node(m, 0x2040, ptr(3, 0x60000), 8, 0x2000, 0);
    EXPECT(m, B, R0, 0, ptr(3, 0x5FFFF), 50, 0, 0, 0, false);
    put_node(m, 0x2040, ptr(3, 0x60000), 8, 0x2008, 0); /* misaligned */
    EXPECT(m, B, R0, 0, ptr(3, 0x5FFFF), 50, 0, 0, 0, false);
    /* A misaligned link to a readable node that would match: still corrupt, never followed. */
    put_node(m, 0x4008, ptr(3, 0x5F000), 0x1000, 0, 0);
    EXPECT(m, B, R0, 0, ptr(3, 0x5FFFF), 50, 0, 0, 0, false);
    EXPECT(m, B, 0x4008, 0, ptr(3, 0x5F000), 50, 0, 0, 0, false);
    /* A size-0 node covers nothing; the descent from it goes right when va >= its base. */
    put_node(m, 0x2100, ptr(6, 0x70000), 0, 0x2120, 0x2140);
    put_node(m, 0x2120, ptr(6, 0x6F000), 0x2000, 0, 0); /* left: would cover 0x70000 (corrupt) */
    put_node(m, 0x2140, ptr(7, 0x70000), 0x10, 0, 0);
    EXPECT(m, B, 0x2100, 0, ptr(7, 0x70000), 50, 0x2140, ptr(7, 0x70000), 0x10, true);
    EXPECT(m, B, 0x2100, 0, ptr(6, 0x6FFFF), 50, 0x2120, ptr(6, 0x6F000), 0x2000, true);
    ga_mem_destroy(m);
}

START_TEST(test_bst) { bst_cases(_i == 0 ? 7u : 16u); }
END_TEST

static void table_cases(unsigned tb)
{
    g_tb = tb;
    const uint64_t F = freed_tag();
    const ga_layout_t T = GA_LAYOUT_TABLE;
    const uint64_t R0 = 0x3000;
    ga_mem_t *m;
    ck_assert_int_eq(ga_mem_create(&m), GA_OK);
    put_slot(m, 0x3000, 0, 0);                            /* free */
    put_slot(m, 0x3010, ptr(0x11, 0x7000), 0x20);
    put_slot(m, 0x3020, ptr(F, 0x8000), 0x10);            /* freed */
    put_slot(m, 0x3030, ptr(0x22, 0x9000), 1);
    put_slot(m, 0x3040, 0, 0);
    EXPECT(m, T, R0, 5, ptr(0x11, 0x7000), 5, 0x3010, ptr(0x11, 0x7000), 0x20, true);
    EXPECT(m, T, R0, 5, ptr(0x11, 0x701F), 5, 0x3010, ptr(0x11, 0x7000), 0x20, true);
    EXPECT(m, T, R0, 5, ptr(0x11, 0x7020), 5, 0, 0, 0, true);
    EXPECT(m, T, R0, 5, ptr(0x11, 0x6FFF), 5, 0, 0, 0, true);
    EXPECT(m, T, R0, 5, ptr(0, 0x7005), 5, 0, ptr(0x11, 0x7000), 0x20, true);
    EXPECT(m, T, R0, 5, ptr(0x12, 0x7005), 5, 0, ptr(0x11, 0x7000), 0x20, true);
    EXPECT(m, T, R0, 5, ptr(F, 0x8000), 5, 0, ptr(F, 0x8000), 0x10, true);
    EXPECT(m, T, R0, 5, ptr(0x22, 0x9000), 5, 0x3030, ptr(0x22, 0x9000), 1, true);
    EXPECT(m, T, R0, 3, ptr(0x22, 0x9000), 5, 0, 0, 0, true);  /* slot 3 not scanned */
    EXPECT(m, T, R0, 5, ptr(0x22, 0x9000), 4, 0x3030, ptr(0x22, 0x9000), 1, true); /* 4th slot */
    EXPECT(m, T, R0, 5, ptr(0x22, 0x9000), 3, 0, 0, 0, false);
    EXPECT(m, T, R0, 5, ptr(0x22, 0x9001), 5, 0, 0, 0, true);   /* 5 slots, all scanned */
    EXPECT(m, T, R0, 5, ptr(0x22, 0x9001), 4, 0, 0, 0, false);
    EXPECT(m, T, R0, 0, ptr(0x11, 0x7000), 0, 0, 0, 0, true);   /* empty table */
    EXPECT(m, T, R0, 6, ptr(0x22, 0x9001), 10, 0, 0, 0, true);  /* slot 5: mapped page, zero */
    ck_assert_int_eq(ga_mem_poison(m, 0x3050, 16), GA_OK);
    EXPECT(m, T, R0, 6, ptr(0x22, 0x9001), 10, 0, 0, 0, false); /* slot 5 unreadable */
    EXPECT(m, T, R0, 6, ptr(0x22, 0x9000), 10, 0x3030, ptr(0x22, 0x9000), 1, true); /* found before */
    ga_mem_unpoison_all(m);
    EXPECT(m, T, R0 + 0xFF0, 2, ptr(0x22, 0x9001), 10, 0, 0, 0, false); /* slot 1: page never written */
    EXPECT(m, T, R0 + 8, 5, ptr(0x11, 0x7000), 10, 0, 0, 0, false); /* misaligned root */
    EXPECT(m, T, R0 + 16, 4, ptr(0x11, 0x7000), 10, 0x3010, ptr(0x11, 0x7000), 0x20, true);
    ga_mem_stats_t s0 = ga_mem_stats(m);
    EXPECT(m, T, R0, 5, ptr(0x22, 0x9001), 5, 0, 0, 0, true);
    ga_mem_stats_t s1 = ga_mem_stats(m);
    ck_assert_uint_eq(s1.reads - s0.reads, 5);
    ck_assert_uint_eq(s1.bytes_read - s0.bytes_read, 80);
    ga_mem_destroy(m);
}

START_TEST(test_table) { table_cases(_i == 0 ? 7u : 16u); }
END_TEST

START_TEST(test_bad_args)
{
    ga_mem_t *m;
    ck_assert_int_eq(ga_mem_create(&m), GA_OK);
    g_tb = 7;
    build_list(m);
    ga_entry_t e = {1, 1};
    bool ok = true;
    ck_assert_uint_eq(ga_ref_search(m, GA_LAYOUT_LIST, 0x1000, 0, 8, ptr(5, 0x10000), 9, &e, &ok), 0);
    ck_assert(!ok);
    ck_assert_uint_eq(e.tb, 0);
    ok = true;
    ck_assert_uint_eq(ga_ref_search(NULL, GA_LAYOUT_LIST, 0x1000, 0, 7, ptr(5, 0x10000), 9, &e, &ok), 0);
    ck_assert(!ok);
    ok = true;
    ck_assert_uint_eq(ga_ref_search(m, (ga_layout_t)GA_LAYOUTS, 0x1000, 0, 7, ptr(5, 0x10000), 9, &e, &ok), 0);
    ck_assert(!ok);
    /* e_out and ok may be NULL. */
    ck_assert_uint_eq(ga_ref_search(m, GA_LAYOUT_LIST, 0x1000, 0, 7, ptr(5, 0x10000), 9, NULL, NULL), 0x1000);
    /* 16-bit tags read the same bytes differently: a 7-bit tag-5 entry has tag 5 << 9 at 16 bits. */
    ck_assert_uint_eq(ga_ref_search(m, GA_LAYOUT_LIST, 0x1000, 0, 16, (UINT64_C(5) << 57) | 0x10000, 9, &e, &ok),
                      0x1000);
    ck_assert_uint_eq(e.tb, (UINT64_C(5) << 57) | 0x10000);
    ga_mem_destroy(m);
}
END_TEST

/* Agreement with the runtime's host index on random runtimes. */
START_TEST(test_agree_runtime)
{
    const ga_layout_t layouts[4] = {GA_LAYOUT_LIST, GA_LAYOUT_BST, GA_LAYOUT_TABLE, GA_LAYOUT_INDEX};
    ga_layout_t layout = layouts[_i % 4];
    unsigned tb = _i < 4 ? 7u : 16u;
    unsigned vb = 64u - tb;
    uint64_t vm = (UINT64_C(1) << vb) - 1u, F = (UINT64_C(1) << tb) - 1u;
    ga_rt_cfg_t c;
    ga_rt_default_cfg(&c, layout, tb, 99u + (uint64_t)_i);
    c.md_base = UINT64_C(0x40000000);
    c.md_capacity = 1024;
    c.heap_base = UINT64_C(0x100000000);
    c.heap_size = UINT64_C(1) << 24;
    c.reclaim_threshold = 64;
    ga_mem_t *m;
    ga_rt_t *rt;
    ck_assert_int_eq(ga_mem_create(&m), GA_OK);
    ck_assert_int_eq(ga_rt_create(&c, m, &rt), GA_OK);
    ga_rng_t g;
    ga_rng_seed(&g, 4242u + (uint64_t)_i);
    enum { HIST = 4096 };
    uint64_t *hp = calloc(HIST, sizeof *hp), *hs = calloc(HIST, sizeof *hs);
    uint64_t live[600];
    unsigned nlive = 0, nh = 0, found = 0, matched = 0;
    for (int round = 0; round < 10; round++) {
        for (int op = 0; op < 300; op++) {
            if (nlive > 0 && (nlive == 600 || ga_rng_below(&g, 100) < 45)) {
                unsigned k = (unsigned)ga_rng_below(&g, nlive);
                T_EQ(ga_rt_free(rt, live[k]), GA_OK);
                live[k] = live[--nlive];
            } else {
                uint64_t size = ga_rng_below(&g, 4) == 0 ? 1 : 1 + ga_rng_below(&g, 5000), p;
                if (ga_rt_malloc(rt, size, &p) == GA_OK) {
                    live[nlive++] = p;
                    hp[nh % HIST] = p;
                    hs[nh % HIST] = size;
                    nh++;
                }
            }
        }
        uint64_t root = ga_rt_root(rt);
        for (int q = 0; q < 400; q++) {
            unsigned k = (unsigned)ga_rng_below(&g, nh < HIST ? nh : HIST);
            uint64_t base = hp[k] & vm, size = hs[k];
            uint64_t vas[6] = {base - 1, base, base + size - 1, base + size, base + ga_rng_below(&g, size),
                               base + ga_rng_below(&g, 3 * size + 512)};
            uint64_t tags[4] = {hp[k] >> vb, 0, F, 1 + ga_rng_below(&g, F - 1)};
            for (int i = 0; i < 6; i++) {
                for (int j = 0; j < 4; j++) {
                    uint64_t p = (tags[j] << vb) | (vas[i] & vm);
                    ga_entry_t want = {0, 0}, got;
                    uint64_t wloc = 0;
                    bool have = ga_rt_find(rt, p, &want, &wloc);
                    uint64_t etag = want.tb >> vb;
                    uint64_t expect_loc = have && etag == tags[j] && tags[j] != 0 && tags[j] != F ? wloc : 0;
                    bool ok = false;
                    uint64_t r = ga_ref_search(m, layout, root, c.md_capacity, tb, p, c.md_capacity, &got, &ok);
                    T_EQ(ok, 1);
                    T_EQ(r, expect_loc);
                    T_EQ(got.tb, want.tb);
                    T_EQ(got.size, want.size);
                    found += have;
                    matched += r != 0;
                }
            }
        }
    }
    ck_assert_uint_gt(found, 10000); /* the probes did hit entries, live and freed */
    ck_assert_uint_gt(matched, 2000);
    free(hp);
    free(hs);
    ga_rt_destroy(rt);
    ga_mem_destroy(m);
}
END_TEST

static Suite *refsearch_suite(void)
{
    Suite *s = suite_create("ga_refsearch");
    TCase *tc = tcase_create("hand");
    tcase_add_loop_test(tc, test_list, 0, 2);
    tcase_add_loop_test(tc, test_bst, 0, 2);
    tcase_add_loop_test(tc, test_table, 0, 2);
    tcase_add_test(tc, test_bad_args);
    suite_add_tcase(s, tc);
    TCase *tr = tcase_create("agree");
    tcase_set_timeout(tr, 120);
    tcase_add_loop_test(tr, test_agree_runtime, 0, 8);
    suite_add_tcase(s, tr);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(refsearch_suite());
    srunner_run_all(sr, CK_ENV);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
