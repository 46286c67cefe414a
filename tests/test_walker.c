/*
 * test_walker.c — the walk of spec §3.3 and the MEMCHECK.G fetch of §4.2, as exact read sequences.
 *
 * Structures are built by hand in a ga_mem (ga_mem_write of little-endian nodes); a recording memif
 * wraps ga_mem_read and logs every read's address and length, in order, plus every oracle call.
 * Hand-written cases pin each step of §3.3 (null, alignment, step limit, read, cover, descent) and
 * each end (FOUND, RANGE_ONLY, NOT_FOUND, STEP_LIMIT, FAULT); a randomized part builds corrupt
 * pointer graphs and compares result and read log with a reference walk written here over the
 * test's own arrays (not through memory).
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ga_rng.h"
#include "ga_walker.h"

/* A check for hot loops: Check's ck_assert_* reports every passing assertion's location to the
 * parent process (a system call each in fork mode), so loops use this plain test instead. */
#define REQUIRE(cond, ...)                                                                           \
    do {                                                                                             \
        if (!(cond)) ck_abort_msg(__VA_ARGS__);                                                      \
    } while (0)

#define LOGMAX 4096

typedef struct {
    ga_mem_t *mem;
    unsigned n;
    uint64_t addr[LOGMAX];
    uint32_t len[LOGMAX];
    /* oracle: mode 0 none, 1 answer idx */
    int orc_mode;
    uint64_t orc_idx;
    unsigned orc_calls;
    uint64_t orc_va;
} rec_t;

static int rec_read(void *ctx, uint64_t addr, uint32_t len, uint8_t *buf)
{
    rec_t *r = ctx;
    if (r->n < LOGMAX) {
        r->addr[r->n] = addr;
        r->len[r->n] = len;
    }
    r->n++;
    return ga_mem_read(r->mem, addr, buf, len) != GA_MEM_OK;
}

static int rec_oracle(void *ctx, uint64_t va, uint64_t *idx)
{
    rec_t *r = ctx;
    r->orc_calls++;
    r->orc_va = va;
    if (r->orc_mode == 0) return 0;
    *idx = r->orc_idx;
    return 1;
}

static rec_t *rec_new(void)
{
    rec_t *r = calloc(1, sizeof *r);
    ck_assert_ptr_nonnull(r);
    ck_assert_int_eq(ga_mem_create(&r->mem), GA_OK);
    return r;
}

static void rec_free(rec_t *r)
{
    ga_mem_destroy(r->mem);
    free(r);
}

static ga_memif_t rec_memif(rec_t *r, bool with_oracle)
{
    ga_memif_t m = { rec_read, r, with_oracle ? rec_oracle : NULL, r };
    return m;
}

/* A 32-byte node: entry (tb, size), then the two pointers. */
static void put_node(rec_t *r, uint64_t loc, uint64_t tb, uint64_t size, uint64_t p16, uint64_t p24)
{
    uint8_t b[32];
    ga_put_le64(b, tb);
    ga_put_le64(b + 8, size);
    ga_put_le64(b + 16, p16);
    ga_put_le64(b + 24, p24);
    REQUIRE(ga_mem_write(r->mem, loc, b, sizeof b) == GA_OK, "write");
}

static void put_entry(rec_t *r, uint64_t loc, uint64_t tb, uint64_t size)
{
    uint8_t b[16];
    ga_put_le64(b, tb);
    ga_put_le64(b + 8, size);
    REQUIRE(ga_mem_write(r->mem, loc, b, sizeof b) == GA_OK, "write");
}

/* The logged reads must be exactly locs[0..n-1], each of length len. */
static void expect_reads(const rec_t *r, const uint64_t *locs, unsigned n, uint32_t len)
{
    REQUIRE(r->n == n, "%u reads, expected %u", r->n, n);
    for (unsigned i = 0; i < n; i++) {
        REQUIRE(r->addr[i] == locs[i], "read %u at %llx, expected %llx", i, (unsigned long long)r->addr[i],
                (unsigned long long)locs[i]);
        REQUIRE(r->len[i] == len, "read %u of %u bytes, expected %u", i, r->len[i], len);
    }
}

static ga_walk_cfg_t wcfg(ga_layout_t layout, uint64_t root, uint32_t limit, unsigned tb)
{
    ga_walk_cfg_t c = { layout, root, limit, tb };
    return c;
}


/* ---- LIST ---------------------------------------------------------------------------------------- */

/* A -> B -> C -> 0 at 0x10000, 0x10020, 0x10040. A [0x1000, +0x100) tag 5, B [0x2000, +0x10) tag 6,
 * C [0x3000, +1) tag 7. */
static void build_list(rec_t *r, unsigned tb)
{
    put_node(r, 0x10000, ga_make_ptr(5, 0x1000, tb), 0x100, 0x10020, 0);
    put_node(r, 0x10020, ga_make_ptr(6, 0x2000, tb), 0x10, 0x10040, 0x10000);
    put_node(r, 0x10040, ga_make_ptr(7, 0x3000, tb), 1, 0, 0x10020);
}

START_TEST(test_list)
{
    unsigned tb = _i == 0 ? 7u : 16u;
    rec_t *r = rec_new();
    build_list(r, tb);
    ga_memif_t mi = rec_memif(r, false);
    ga_walk_cfg_t c = wcfg(GA_LAYOUT_LIST, 0x10000, 100, tb);
    static const uint64_t abc[3] = { 0x10000, 0x10020, 0x10040 };

    /* Hit in the last node: all three nodes, 32 bytes each, in list order. */
    ga_walk_result_t w = ga_walk(&c, &mi, ga_make_ptr(7, 0x3000, tb));
    ck_assert_int_eq(w.status, GA_WALK_FOUND);
    ck_assert_uint_eq(w.loc, 0x10040);
    ck_assert_uint_eq(w.entry.tb, ga_make_ptr(7, 0x3000, tb));
    ck_assert_uint_eq(w.entry.size, 1);
    ck_assert_uint_eq(w.steps, 3);
    expect_reads(r, abc, 3, 32);

    /* Hit in the head at its last byte: one read. */
    r->n = 0;
    w = ga_walk(&c, &mi, ga_make_ptr(5, 0x10FF, tb));
    ck_assert_int_eq(w.status, GA_WALK_FOUND);
    ck_assert_uint_eq(w.loc, 0x10000);
    expect_reads(r, abc, 1, 32);

    /* Miss (one past A's end): every node, then the 0 next pointer. */
    r->n = 0;
    w = ga_walk(&c, &mi, ga_make_ptr(5, 0x1100, tb));
    ck_assert_int_eq(w.status, GA_WALK_NOT_FOUND);
    ck_assert_uint_eq(w.loc, 0);
    ck_assert_uint_eq(w.entry.tb, 0);
    ck_assert_uint_eq(w.entry.size, 0);
    ck_assert_uint_eq(w.steps, 3);
    expect_reads(r, abc, 3, 32);

    /* Range covered, tag differs: RANGE_ONLY at B, with B's entry; the walk stops there. */
    r->n = 0;
    w = ga_walk(&c, &mi, ga_make_ptr(9, 0x2008, tb));
    ck_assert_int_eq(w.status, GA_WALK_RANGE_ONLY);
    ck_assert_uint_eq(w.loc, 0x10020);
    ck_assert_uint_eq(w.entry.tb, ga_make_ptr(6, 0x2000, tb));
    ck_assert_uint_eq(w.steps, 2);
    expect_reads(r, abc, 2, 32);

    /* Freed B: RANGE_ONLY for B's old pointer. */
    put_node(r, 0x10020, ga_make_ptr(ga_tag_freed(tb), 0x2000, tb), 0x10, 0x10040, 0x10000);
    r->n = 0;
    w = ga_walk(&c, &mi, ga_make_ptr(6, 0x2000, tb));
    ck_assert_int_eq(w.status, GA_WALK_RANGE_ONLY);
    ck_assert_uint_eq(w.entry.tb, ga_make_ptr(ga_tag_freed(tb), 0x2000, tb));
    expect_reads(r, abc, 2, 32);

    /* A corrupt overlap: B covers with the wrong tag, C would match; the walk stops at B. */
    put_node(r, 0x10040, ga_make_ptr(6, 0x2000, tb), 0x10, 0, 0x10020);
    r->n = 0;
    w = ga_walk(&c, &mi, ga_make_ptr(6, 0x2000, tb));
    ck_assert_int_eq(w.status, GA_WALK_RANGE_ONLY);
    ck_assert_uint_eq(w.loc, 0x10020);

    /* Empty list: no read. */
    r->n = 0;
    c.root = 0;
    w = ga_walk(&c, &mi, ga_make_ptr(5, 0x1000, tb));
    ck_assert_int_eq(w.status, GA_WALK_NOT_FOUND);
    ck_assert_uint_eq(w.steps, 0);
    ck_assert_uint_eq(r->n, 0);
    rec_free(r);
}
END_TEST

START_TEST(test_list_step_limit)
{
    rec_t *r = rec_new();
    unsigned tb = 7;
    /* Four nodes, D last. */
    for (unsigned j = 0; j < 4; j++)
        put_node(r, 0x20000 + 32u * j, ga_make_ptr(1 + j, 0x1000u * (j + 1u), tb), 0x10, j == 3 ? 0 : 0x20020 + 32u * j, 0);
    ga_memif_t mi = rec_memif(r, false);
    static const uint64_t locs[4] = { 0x20000, 0x20020, 0x20040, 0x20060 };
    uint64_t pd = ga_make_ptr(4, 0x4000, tb), miss = ga_make_ptr(4, 0x9000, tb);

    /* Found by the limit-th read: FOUND. */
    ga_walk_cfg_t c = wcfg(GA_LAYOUT_LIST, 0x20000, 4, tb);
    ga_walk_result_t w = ga_walk(&c, &mi, pd);
    ck_assert_int_eq(w.status, GA_WALK_FOUND);
    ck_assert_uint_eq(w.steps, 4);
    expect_reads(r, locs, 4, 32);
    /* A miss that meets the null pointer after exactly limit reads: NOT_FOUND. */
    r->n = 0;
    w = ga_walk(&c, &mi, miss);
    ck_assert_int_eq(w.status, GA_WALK_NOT_FOUND);
    ck_assert_uint_eq(w.steps, 4);
    expect_reads(r, locs, 4, 32);
    /* One less: STEP_LIMIT after exactly 3 reads, no fourth. */
    c.step_limit = 3;
    r->n = 0;
    w = ga_walk(&c, &mi, pd);
    ck_assert_int_eq(w.status, GA_WALK_STEP_LIMIT);
    ck_assert_uint_eq(w.steps, 3);
    ck_assert_uint_eq(w.loc, 0);
    expect_reads(r, locs, 3, 32);
    r->n = 0;
    w = ga_walk(&c, &mi, miss);
    ck_assert_int_eq(w.status, GA_WALK_STEP_LIMIT);
    expect_reads(r, locs, 3, 32);
    /* Limit 1: the head alone. */
    c.step_limit = 1;
    r->n = 0;
    w = ga_walk(&c, &mi, ga_make_ptr(1, 0x1000, tb));
    ck_assert_int_eq(w.status, GA_WALK_FOUND);
    expect_reads(r, locs, 1, 32);

    /* A cycle A -> B -> A: STEP_LIMIT after exactly step_limit reads, alternating. */
    put_node(r, 0x20020, ga_make_ptr(2, 0x2000, tb), 0x10, 0x20000, 0);
    for (uint32_t lim = 1; lim <= 9; lim++) {
        c.step_limit = lim;
        r->n = 0;
        w = ga_walk(&c, &mi, miss);
        ck_assert_int_eq(w.status, GA_WALK_STEP_LIMIT);
        ck_assert_uint_eq(w.steps, lim);
        ck_assert_uint_eq(r->n, lim);
        for (unsigned i = 0; i < lim; i++) ck_assert_uint_eq(r->addr[i], (i % 2u) ? 0x20020 : 0x20000);
    }
    /* The reset limit, 65 536, on the cycle. */
    c.step_limit = 65536;
    r->n = 0;
    w = ga_walk(&c, &mi, miss);
    ck_assert_int_eq(w.status, GA_WALK_STEP_LIMIT);
    ck_assert_uint_eq(w.steps, 65536);
    ck_assert_uint_eq(r->n, 65536);
    rec_free(r);
}
END_TEST

START_TEST(test_list_misaligned_and_errors)
{
    rec_t *r = rec_new();
    unsigned tb = 16;
    build_list(r, tb);
    ga_memif_t mi = rec_memif(r, false);
    uint64_t pc = ga_make_ptr(7, 0x3000, tb);
    static const uint64_t abc[3] = { 0x10000, 0x10020, 0x10040 };

    /* Misaligned root: FAULT without any read (even 16-aligned is not enough for a node). */
    static const uint64_t bad_roots[4] = { 0x10010, 0x10008, 0x10001, 0x1001F };
    for (unsigned i = 0; i < 4; i++) {
        ga_walk_cfg_t c = wcfg(GA_LAYOUT_LIST, bad_roots[i], 100, tb);
        r->n = 0;
        ga_walk_result_t w = ga_walk(&c, &mi, pc);
        ck_assert_int_eq(w.status, GA_WALK_FAULT);
        ck_assert_uint_eq(w.steps, 0);
        ck_assert_uint_eq(r->n, 0);
    }
    /* Misaligned next in A: one read, then FAULT. */
    put_node(r, 0x10000, ga_make_ptr(5, 0x1000, tb), 0x100, 0x10030, 0);
    ga_walk_cfg_t c = wcfg(GA_LAYOUT_LIST, 0x10000, 100, tb);
    r->n = 0;
    ga_walk_result_t w = ga_walk(&c, &mi, pc);
    ck_assert_int_eq(w.status, GA_WALK_FAULT);
    ck_assert_uint_eq(w.steps, 1);
    ck_assert_uint_eq(w.loc, 0);
    expect_reads(r, abc, 1, 32);
    /* The alignment check comes before the step limit: limit 1, misaligned second pointer. */
    c.step_limit = 1;
    r->n = 0;
    w = ga_walk(&c, &mi, pc);
    ck_assert_int_eq(w.status, GA_WALK_FAULT);
    c.step_limit = 100;
    build_list(r, tb);

    /* Error response on B (poisoned): FAULT after the failing read, which counts as a step. */
    ck_assert_int_eq(ga_mem_poison(r->mem, 0x10020 + 24u, 1), GA_OK);
    r->n = 0;
    w = ga_walk(&c, &mi, pc);
    ck_assert_int_eq(w.status, GA_WALK_FAULT);
    ck_assert_uint_eq(w.steps, 2);
    ck_assert_uint_eq(w.entry.tb, 0);
    expect_reads(r, abc, 2, 32);
    /* ... but a pointer found in A never reaches B. */
    r->n = 0;
    w = ga_walk(&c, &mi, ga_make_ptr(5, 0x1000, tb));
    ck_assert_int_eq(w.status, GA_WALK_FOUND);
    ga_mem_unpoison_all(r->mem);
    /* Unmapped memory (a pointer to a page never written). */
    put_node(r, 0x10040, ga_make_ptr(7, 0x3000, tb), 1, 0x7770000, 0);
    r->n = 0;
    w = ga_walk(&c, &mi, ga_make_ptr(7, 0x9999, tb));
    ck_assert_int_eq(w.status, GA_WALK_FAULT);
    ck_assert_uint_eq(w.steps, 4);
    ck_assert_uint_eq(r->addr[3], 0x7770000);
    rec_free(r);
}
END_TEST

/* ---- BST ----------------------------------------------------------------------------------------- */

/*            R [0x8000,+0x100) @0x30000
 *           /                  \
 *   L [0x4000,+0x100) @0x30020   G [0xC000,+0x100) @0x30040
 *    /              \
 * LL [0x2000,+0x10)  LR [0x6000,+0x80)
 *   @0x30060            @0x30080
 */
static void build_bst(rec_t *r, unsigned tb)
{
    put_node(r, 0x30000, ga_make_ptr(1, 0x8000, tb), 0x100, 0x30020, 0x30040);
    put_node(r, 0x30020, ga_make_ptr(2, 0x4000, tb), 0x100, 0x30060, 0x30080);
    put_node(r, 0x30040, ga_make_ptr(3, 0xC000, tb), 0x100, 0, 0);
    put_node(r, 0x30060, ga_make_ptr(4, 0x2000, tb), 0x10, 0, 0);
    put_node(r, 0x30080, ga_make_ptr(5, 0x6000, tb), 0x80, 0, 0);
}

START_TEST(test_bst)
{
    unsigned tb = _i == 0 ? 7u : 16u;
    rec_t *r = rec_new();
    build_bst(r, tb);
    ga_memif_t mi = rec_memif(r, false);
    ga_walk_cfg_t c = wcfg(GA_LAYOUT_BST, 0x30000, 100, tb);
    ga_walk_result_t w;

    /* Hit in LR: R, L, LR. */
    w = ga_walk(&c, &mi, ga_make_ptr(5, 0x607F, tb));
    ck_assert_int_eq(w.status, GA_WALK_FOUND);
    ck_assert_uint_eq(w.loc, 0x30080);
    expect_reads(r, (const uint64_t[]){ 0x30000, 0x30020, 0x30080 }, 3, 32);
    /* Hit in the root. */
    r->n = 0;
    w = ga_walk(&c, &mi, ga_make_ptr(1, 0x8000, tb));
    ck_assert_int_eq(w.status, GA_WALK_FOUND);
    expect_reads(r, (const uint64_t[]){ 0x30000 }, 1, 32);
    /* Miss between L and LR: R, L (0x5000 >= L's base: right), LR (0x5000 < base: left = 0). */
    r->n = 0;
    w = ga_walk(&c, &mi, ga_make_ptr(2, 0x5000, tb));
    ck_assert_int_eq(w.status, GA_WALK_NOT_FOUND);
    ck_assert_uint_eq(w.steps, 3);
    expect_reads(r, (const uint64_t[]){ 0x30000, 0x30020, 0x30080 }, 3, 32);
    /* One past the root's end goes right: R, G, then G.left = 0. */
    r->n = 0;
    w = ga_walk(&c, &mi, ga_make_ptr(1, 0x8100, tb));
    ck_assert_int_eq(w.status, GA_WALK_NOT_FOUND);
    expect_reads(r, (const uint64_t[]){ 0x30000, 0x30040 }, 2, 32);
    /* One below the root's base goes left: R, L, LR (0x7FFF >= 0x6000: right = 0). */
    r->n = 0;
    w = ga_walk(&c, &mi, ga_make_ptr(1, 0x7FFF, tb));
    ck_assert_int_eq(w.status, GA_WALK_NOT_FOUND);
    expect_reads(r, (const uint64_t[]){ 0x30000, 0x30020, 0x30080 }, 3, 32);
    /* Wrong tag in LL's range: RANGE_ONLY at LL. */
    r->n = 0;
    w = ga_walk(&c, &mi, ga_make_ptr(9, 0x200F, tb));
    ck_assert_int_eq(w.status, GA_WALK_RANGE_ONLY);
    ck_assert_uint_eq(w.loc, 0x30060);
    expect_reads(r, (const uint64_t[]){ 0x30000, 0x30020, 0x30060 }, 3, 32);
    /* Misaligned right child of L: R, L, FAULT. */
    put_node(r, 0x30020, ga_make_ptr(2, 0x4000, tb), 0x100, 0x30060, 0x30088);
    r->n = 0;
    w = ga_walk(&c, &mi, ga_make_ptr(5, 0x6000, tb));
    ck_assert_int_eq(w.status, GA_WALK_FAULT);
    ck_assert_uint_eq(w.steps, 2);
    expect_reads(r, (const uint64_t[]){ 0x30000, 0x30020 }, 2, 32);
    /* A corrupt zero-size node covers nothing; a lookup at exactly its base goes right (a >= ebase):
     * G holds [0xC000, +0) with left -> LL and right -> LR, so 0xC000 must reach LR, not LL. */
    put_node(r, 0x30040, ga_make_ptr(3, 0xC000, tb), 0, 0x30060, 0x30080);
    r->n = 0;
    w = ga_walk(&c, &mi, ga_make_ptr(3, 0xC000, tb));
    ck_assert_int_eq(w.status, GA_WALK_NOT_FOUND);
    expect_reads(r, (const uint64_t[]){ 0x30000, 0x30040, 0x30080 }, 3, 32);
    put_node(r, 0x30040, ga_make_ptr(3, 0xC000, tb), 0x100, 0, 0);
    put_node(r, 0x30020, ga_make_ptr(2, 0x4000, tb), 0x100, 0x30060, 0x30080);
    /* Self-pointing node: R.left = R. A lookup below R's base reads R step_limit times. */
    put_node(r, 0x30000, ga_make_ptr(1, 0x8000, tb), 0x100, 0x30000, 0x30040);
    for (uint32_t lim = 1; lim <= 7; lim++) {
        c.step_limit = lim;
        r->n = 0;
        w = ga_walk(&c, &mi, ga_make_ptr(2, 0x10, tb));
        ck_assert_int_eq(w.status, GA_WALK_STEP_LIMIT);
        ck_assert_uint_eq(w.steps, lim);
        ck_assert_uint_eq(r->n, lim);
        for (unsigned i = 0; i < lim; i++) ck_assert_uint_eq(r->addr[i], 0x30000);
    }
    /* Poisoned G: a right descent faults after reading it. */
    c.step_limit = 100;
    ck_assert_int_eq(ga_mem_poison(r->mem, 0x30040, 32), GA_OK);
    r->n = 0;
    w = ga_walk(&c, &mi, ga_make_ptr(3, 0xC000, tb));
    ck_assert_int_eq(w.status, GA_WALK_FAULT);
    expect_reads(r, (const uint64_t[]){ 0x30000, 0x30040 }, 2, 32);
    rec_free(r);
}
END_TEST

/* ---- TABLE --------------------------------------------------------------------------------------- */

START_TEST(test_table)
{
    unsigned tb = _i == 0 ? 7u : 16u;
    rec_t *r = rec_new();
    const uint64_t root = 0x40000;
    put_entry(r, root + 0, ga_make_ptr(3, 0x1000, tb), 0x100);
    put_entry(r, root + 16, 0, 0); /* free slot */
    put_entry(r, root + 32, ga_make_ptr(ga_tag_freed(tb), 0x3000, tb), 0x40);
    put_entry(r, root + 48, ga_make_ptr(4, 0x4000, tb), 0x10);
    ga_memif_t mi = rec_memif(r, true);
    ga_walk_cfg_t c = wcfg(GA_LAYOUT_TABLE, root, 1, tb);
    ga_walk_result_t w;

    /* The oracle's slot: one 16-byte read at ROOT + 16 i; the oracle sees the VA without the tag. */
    r->orc_mode = 1;
    r->orc_idx = 3;
    w = ga_walk(&c, &mi, ga_make_ptr(4, 0x400F, tb));
    ck_assert_int_eq(w.status, GA_WALK_FOUND);
    ck_assert_uint_eq(w.loc, root + 48);
    ck_assert_uint_eq(w.steps, 1);
    ck_assert_uint_eq(w.entry.size, 0x10);
    ck_assert_uint_eq(r->orc_calls, 1);
    ck_assert_uint_eq(r->orc_va, 0x400F);
    expect_reads(r, (const uint64_t[]){ root + 48 }, 1, 16);
    /* Oracle says none: NOT_FOUND, no read. */
    r->orc_mode = 0;
    r->n = 0;
    w = ga_walk(&c, &mi, ga_make_ptr(4, 0x400F, tb));
    ck_assert_int_eq(w.status, GA_WALK_NOT_FOUND);
    ck_assert_uint_eq(w.steps, 0);
    ck_assert_uint_eq(r->n, 0);
    /* No oracle at all: NOT_FOUND, no read, nothing called. */
    ga_memif_t no = rec_memif(r, false);
    r->orc_calls = 0;
    w = ga_walk(&c, &no, ga_make_ptr(4, 0x400F, tb));
    ck_assert_int_eq(w.status, GA_WALK_NOT_FOUND);
    ck_assert_uint_eq(r->orc_calls, 0);
    ck_assert_uint_eq(r->n, 0);
    /* A wrong slot (another live entry): the read happens, the entry does not cover: NOT_FOUND. */
    r->orc_mode = 1;
    r->orc_idx = 0;
    w = ga_walk(&c, &mi, ga_make_ptr(4, 0x4000, tb));
    ck_assert_int_eq(w.status, GA_WALK_NOT_FOUND);
    ck_assert_uint_eq(w.steps, 1);
    ck_assert_uint_eq(w.loc, 0);
    expect_reads(r, (const uint64_t[]){ root }, 1, 16);
    /* A free slot: NOT_FOUND. */
    r->orc_idx = 1;
    r->n = 0;
    w = ga_walk(&c, &mi, ga_make_ptr(4, 0x4000, tb));
    ck_assert_int_eq(w.status, GA_WALK_NOT_FOUND);
    /* A freed slot: RANGE_ONLY with the freed entry. */
    r->orc_idx = 2;
    r->n = 0;
    w = ga_walk(&c, &mi, ga_make_ptr(3, 0x3000, tb));
    ck_assert_int_eq(w.status, GA_WALK_RANGE_ONLY);
    ck_assert_uint_eq(w.loc, root + 32);
    ck_assert_uint_eq(w.entry.tb, ga_make_ptr(ga_tag_freed(tb), 0x3000, tb));
    /* Tag mismatch on a live slot: RANGE_ONLY. */
    r->orc_idx = 0;
    w = ga_walk(&c, &mi, ga_make_ptr(4, 0x1000, tb));
    ck_assert_int_eq(w.status, GA_WALK_RANGE_ONLY);
    /* Slot index arithmetic is modulo 2^64: 16 * 2^60 = 2^64 = 0, so slot 2^60 + 3 is slot 3. */
    r->orc_idx = (UINT64_C(1) << 60) + 3u;
    r->n = 0;
    w = ga_walk(&c, &mi, ga_make_ptr(4, 0x4000, tb));
    ck_assert_int_eq(w.status, GA_WALK_FOUND);
    expect_reads(r, (const uint64_t[]){ root + 48 }, 1, 16);
    /* Misaligned ROOT: FAULT without a read, but only after the oracle answered a slot. */
    c.root = root + 8;
    r->orc_calls = 0;
    r->n = 0;
    w = ga_walk(&c, &mi, ga_make_ptr(4, 0x4000, tb));
    ck_assert_int_eq(w.status, GA_WALK_FAULT);
    ck_assert_uint_eq(w.steps, 0);
    ck_assert_uint_eq(r->n, 0);
    ck_assert_uint_eq(r->orc_calls, 1);
    r->orc_mode = 0;
    w = ga_walk(&c, &mi, ga_make_ptr(4, 0x4000, tb));
    ck_assert_int_eq(w.status, GA_WALK_NOT_FOUND);
    /* A 16-aligned (not 32-aligned) ROOT is fine for a table. */
    put_entry(r, 0x50010, ga_make_ptr(6, 0x6000, tb), 8);
    c.root = 0x50010;
    r->orc_mode = 1;
    r->orc_idx = 0;
    w = ga_walk(&c, &mi, ga_make_ptr(6, 0x6007, tb));
    ck_assert_int_eq(w.status, GA_WALK_FOUND);
    /* Error response: FAULT after one read. */
    ck_assert_int_eq(ga_mem_poison(r->mem, 0x50010, 16), GA_OK);
    r->n = 0;
    w = ga_walk(&c, &mi, ga_make_ptr(6, 0x6007, tb));
    ck_assert_int_eq(w.status, GA_WALK_FAULT);
    ck_assert_uint_eq(w.steps, 1);
    expect_reads(r, (const uint64_t[]){ 0x50010 }, 1, 16);
    rec_free(r);
}
END_TEST

/* ---- fetch, names, illegal layout -------------------------------------------------------------- */

START_TEST(test_fetch_entry)
{
    rec_t *r = rec_new();
    put_entry(r, 0x60000, ga_make_ptr(3, 0x1000, 7), 0x100);
    ga_memif_t mi = rec_memif(r, false);
    ga_entry_t e = { 1, 1 };
    uint32_t reads = 99;
    ck_assert_int_eq(ga_fetch_entry(&mi, 0x60000, &e, &reads), GA_MD_OK);
    ck_assert_uint_eq(reads, 1);
    ck_assert_uint_eq(e.tb, ga_make_ptr(3, 0x1000, 7));
    ck_assert_uint_eq(e.size, 0x100);
    expect_reads(r, (const uint64_t[]){ 0x60000 }, 1, 16);
    /* Misaligned: no read, entry zero. */
    static const uint64_t bad[3] = { 0x60008, 0x60001, 0x6000F };
    for (unsigned i = 0; i < 3; i++) {
        r->n = 0;
        e.tb = 7;
        ck_assert_int_eq(ga_fetch_entry(&mi, bad[i], &e, &reads), GA_MD_FAULT);
        ck_assert_uint_eq(reads, 0);
        ck_assert_uint_eq(r->n, 0);
        ck_assert_uint_eq(e.tb, 0);
    }
    /* 16-aligned but not 32-aligned is fine (table entries). */
    put_entry(r, 0x60010, ga_make_ptr(4, 0x2000, 7), 8);
    r->n = 0;
    ck_assert_int_eq(ga_fetch_entry(&mi, 0x60010, &e, NULL), GA_MD_OK);
    expect_reads(r, (const uint64_t[]){ 0x60010 }, 1, 16);
    /* Error response and unmapped memory: FAULT after one read. */
    ck_assert_int_eq(ga_mem_poison(r->mem, 0x6001F, 1), GA_OK);
    r->n = 0;
    ck_assert_int_eq(ga_fetch_entry(&mi, 0x60010, &e, &reads), GA_MD_FAULT);
    ck_assert_uint_eq(reads, 1);
    ck_assert_uint_eq(e.tb, 0);
    ck_assert_uint_eq(e.size, 0);
    ck_assert_int_eq(ga_fetch_entry(&mi, 0x990000, &e, &reads), GA_MD_FAULT);
    ck_assert_uint_eq(reads, 1);
    rec_free(r);
}
END_TEST

START_TEST(test_names_and_illegal_layout)
{
    ck_assert_str_eq(ga_walk_status_name(GA_WALK_FOUND), "FOUND");
    ck_assert_str_eq(ga_walk_status_name(GA_WALK_RANGE_ONLY), "RANGE_ONLY");
    ck_assert_str_eq(ga_walk_status_name(GA_WALK_NOT_FOUND), "NOT_FOUND");
    ck_assert_str_eq(ga_walk_status_name(GA_WALK_STEP_LIMIT), "STEP_LIMIT");
    ck_assert_str_eq(ga_walk_status_name(GA_WALK_FAULT), "FAULT");
    ck_assert_str_eq(ga_walk_status_name((ga_walk_status_t)5), "?");
    rec_t *r = rec_new();
    build_list(r, 7);
    ga_memif_t mi = rec_memif(r, true);
    ga_walk_cfg_t c = wcfg((ga_layout_t)GA_LAYOUTS, 0x10000, 100, 7);
    ga_walk_result_t w = ga_walk(&c, &mi, ga_make_ptr(5, 0x1000, 7));
    ck_assert_int_eq(w.status, GA_WALK_FAULT);
    ck_assert_uint_eq(r->n, 0);
    ck_assert_uint_eq(r->orc_calls, 0);
    /* A tag-0 pointer on a tag-0 entry is never FOUND (the MLU never walks for it). */
    put_node(r, 0x10000, ga_make_ptr(0, 0x1000, 7), 0x100, 0, 0);
    c.layout = GA_LAYOUT_LIST;
    w = ga_walk(&c, &mi, ga_make_ptr(0, 0x1000, 7));
    ck_assert_int_eq(w.status, GA_WALK_RANGE_ONLY);
    rec_free(r);
}
END_TEST

/* ---- randomized: corrupt pointer graphs vs a reference walk over the test's own arrays ---------- */

#define GN 24

typedef struct {
    uint64_t loc[GN];
    uint64_t tb[GN], size[GN], p16[GN], p24[GN];
    bool poisoned[GN];
} graph_t;

/* Reference: the §3.3 loop over the graph arrays. Reads are appended to *log. */
static ga_walk_status_t ref_walk(const graph_t *gr, ga_layout_t layout, uint64_t root, uint32_t limit,
                                 unsigned tb, uint64_t p, uint64_t *log, unsigned *nlog, uint64_t *loc)
{
    uint64_t vmask = ga_va_mask(tb), a = p & vmask, t = p >> (64u - tb);
    uint64_t n = root;
    uint32_t steps = 0;
    *nlog = 0;
    *loc = 0;
    for (;;) {
        if (n == 0) return GA_WALK_NOT_FOUND;
        if ((n & 31u) != 0) return GA_WALK_FAULT;
        if (steps == limit) return GA_WALK_STEP_LIMIT;
        steps++;
        log[(*nlog)++] = n;
        int j = -1;
        for (int k = 0; k < GN; k++)
            if (gr->loc[k] == n) j = k;
        if (j < 0 || gr->poisoned[j]) return GA_WALK_FAULT; /* unmapped or poisoned */
        uint64_t eb = gr->tb[j] & vmask;
        if (a >= eb && (unsigned __int128)a < (unsigned __int128)eb + gr->size[j]) {
            *loc = n;
            uint64_t et = gr->tb[j] >> (64u - tb);
            return (t == et && t != 0 && t != ga_tag_freed(tb)) ? GA_WALK_FOUND : GA_WALK_RANGE_ONLY;
        }
        n = (layout == GA_LAYOUT_BST && a >= eb) ? gr->p24[j] : gr->p16[j];
    }
}

START_TEST(test_random_graphs)
{
    unsigned tb = _i == 0 ? 7u : 16u;
    ga_rng_t rng;
    ga_rng_seed(&rng, 0xC0FFEEu + tb);
    uint64_t log[70];
    unsigned ends[5] = { 0 };
    for (unsigned it = 0; it < 600; it++) {
        rec_t *r = rec_new();
        graph_t gr;
        memset(&gr, 0, sizeof gr);
        uint64_t region = 0x100000u + 0x10000u * (it % 16u);
        for (int k = 0; k < GN; k++) gr.loc[k] = region + 32u * (uint64_t)k;
        for (int k = 0; k < GN; k++) {
            uint64_t tag = ga_rng_below(&rng, 6) == 0 ? ga_tag_freed(tb) : 1u + ga_rng_below(&rng, 3);
            gr.tb[k] = ga_make_ptr(tag, 0x1000u * ga_rng_below(&rng, 40), tb);
            gr.size[k] = ga_rng_below(&rng, 10) == 0 ? 0 : 1u + ga_rng_below(&rng, 0x1800);
            for (int f = 0; f < 2; f++) {
                uint64_t v, roll = ga_rng_below(&rng, 20);
                if (roll < 5) v = 0;                                      /* end */
                else if (roll < 15) v = gr.loc[ga_rng_below(&rng, GN)];   /* any node: cycles too */
                else if (roll < 17) v = gr.loc[k];                        /* self */
                else if (roll < 18) v = gr.loc[ga_rng_below(&rng, GN)] + 16u; /* misaligned */
                else if (roll < 19) v = region + 0x8000u;                 /* unmapped */
                else v = gr.loc[ga_rng_below(&rng, GN)] + 1u;             /* misaligned */
                if (f == 0) gr.p16[k] = v; else gr.p24[k] = v;
            }
            gr.poisoned[k] = ga_rng_below(&rng, 25) == 0;
            put_node(r, gr.loc[k], gr.tb[k], gr.size[k], gr.p16[k], gr.p24[k]);
            if (gr.poisoned[k])
                REQUIRE(ga_mem_poison(r->mem, gr.loc[k] + 8u * ga_rng_below(&rng, 4), 1) == GA_OK, "poison");
        }
        ga_memif_t mi = rec_memif(r, false);
        for (unsigned q = 0; q < 40; q++) {
            ga_layout_t layout = (q & 1u) ? GA_LAYOUT_BST : GA_LAYOUT_LIST;
            uint64_t root = ga_rng_below(&rng, 12) == 0 ? 0 : gr.loc[ga_rng_below(&rng, GN)];
            uint32_t limit = 1u + (uint32_t)ga_rng_below(&rng, 64);
            uint64_t tag = ga_rng_below(&rng, 8) == 0 ? ga_tag_freed(tb) : 1u + ga_rng_below(&rng, 3);
            /* Addresses: uniform, or at the edges of a node's range (base, base - 1, end - 1, end),
             * where the descent direction and the cover test are decided by one comparison. */
            uint64_t va = ga_rng_below(&rng, 0x29000);
            if (ga_rng_below(&rng, 2) == 0) {
                unsigned k = (unsigned)ga_rng_below(&rng, GN);
                uint64_t eb = ga_va_of(gr.tb[k], tb);
                switch (ga_rng_below(&rng, 4)) {
                case 0: va = eb; break;
                case 1: va = eb - 1u; break;
                case 2: va = eb + gr.size[k] - 1u; break;
                default: va = eb + gr.size[k]; break;
                }
                va &= ga_va_mask(tb);
            }
            uint64_t p = ga_make_ptr(tag, va, tb);
            unsigned nlog = 0;
            uint64_t rloc = 0;
            ga_walk_status_t rs = ref_walk(&gr, layout, root, limit, tb, p, log, &nlog, &rloc);
            ga_walk_cfg_t c = wcfg(layout, root, limit, tb);
            r->n = 0;
            ga_walk_result_t w = ga_walk(&c, &mi, p);
            ends[rs]++;
            REQUIRE(w.status == rs, "it %u q %u: status %d vs %d", it, q, w.status, rs);
            REQUIRE(w.loc == rloc, "it %u q %u: loc", it, q);
            REQUIRE(w.steps == nlog, "it %u q %u: steps", it, q);
            expect_reads(r, log, nlog, 32);
        }
        rec_free(r);
    }
    for (int s = 0; s < 5; s++) ck_assert_msg(ends[s] > 100, "end %d reached only %u times", s, ends[s]);
}
END_TEST

static Suite *walker_suite(void)
{
    Suite *s = suite_create("walker");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_loop_test(tc, test_list, 0, 2);
    tcase_add_test(tc, test_list_step_limit);
    tcase_add_test(tc, test_list_misaligned_and_errors);
    tcase_add_loop_test(tc, test_bst, 0, 2);
    tcase_add_loop_test(tc, test_table, 0, 2);
    tcase_add_test(tc, test_fetch_entry);
    tcase_add_test(tc, test_names_and_illegal_layout);
    tcase_add_loop_test(tc, test_random_graphs, 0, 2);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(walker_suite());
    srunner_run_all(sr, CK_ENV);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
