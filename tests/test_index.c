/*
 * test_index.c — the index layout (spec §2.3 "Index", §3.3 INDEX, §7.7): its walk as an exact read
 * sequence, its fail-closed ends, the runtime's B+-tree (format, balance, exact separators, stable
 * slots) and the agreement of walk, reference search and the runtime's host view.
 *
 * The walk cases build nodes by hand (little-endian, through ga_mem_write) and log every read; an
 * empty freed index (a zero node at ROOT - 128) is there unless a case writes another. The runtime
 * cases check both device indexes (live at ROOT, freed at ROOT - 128) with a shadow parser written
 * here from the spec, not through the model's code: it decodes every node from memory, checks counts,
 * kinds, key order, separators and depth, and collects the slots the leaves name; the two sets must
 * be disjoint, the freed index must hold only freed entries and the live one every live entry, their
 * union must be exactly the runtime's entries (ga_rt_find), and every walk must agree with
 * ga_ref_search and ga_rt_find.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ga_layout.h"
#include "ga_refsearch.h"
#include "ga_rng.h"
#include "ga_runtime.h"
#include "ga_system.h"

#define REQUIRE(cond, ...)                                                                           \
    do {                                                                                             \
        if (!(cond)) ck_abort_msg(__VA_ARGS__);                                                      \
    } while (0)

#define ROOT UINT64_C(0x600000000000)
#define LOGMAX 256
#define SH_DEPTHS 12

/* --- hand-built nodes and a recording memif ----------------------------------------------------- */

typedef struct {
    ga_mem_t *mem;
    unsigned n;
    uint64_t addr[LOGMAX];
    uint32_t len[LOGMAX];
    uint64_t fail_at; /* a read at this address returns an error (0: none) */
} rec_t;

static int rec_read(void *ctx, uint64_t addr, uint32_t len, uint8_t *buf)
{
    rec_t *r = ctx;
    if (r->n < LOGMAX) {
        r->addr[r->n] = addr;
        r->len[r->n] = len;
    }
    r->n++;
    if (r->fail_at != 0u && addr == r->fail_at) {
        memset(buf, 0, len);
        return 1;
    }
    return ga_mem_read(r->mem, addr, buf, len) != GA_MEM_OK;
}

static rec_t *rec_new(void)
{
    rec_t *r = calloc(1, sizeof *r);
    ck_assert_ptr_nonnull(r);
    ck_assert_int_eq(ga_mem_create(&r->mem), GA_OK);
    static const uint8_t z[128];
    REQUIRE(ga_mem_write(r->mem, ROOT - 128u, z, sizeof z) == GA_OK, "write"); /* empty freed index */
    return r;
}

static void rec_free(rec_t *r)
{
    ga_mem_destroy(r->mem);
    free(r);
}

static ga_memif_t rec_memif(rec_t *r)
{
    ga_memif_t m = { rec_read, r, NULL, NULL };
    return m;
}

/* A node at loc: count c, kind (0 leaf, 1 inner), refs[0..c-1], keys[1..c-1] (keys[0] unused). */
static void put_inode(rec_t *r, uint64_t loc, unsigned c, unsigned kind, const uint32_t *refs, const uint64_t *keys)
{
    uint8_t b[128];
    memset(b, 0, sizeof b);
    b[0] = (uint8_t)c;
    b[1] = (uint8_t)kind;
    for (unsigned j = 0; j < c && j < 11u; j++)
        for (unsigned k = 0; k < 4u; k++) b[4u + 4u * j + k] = (uint8_t)(refs[j] >> (8u * k));
    for (unsigned i = 1; i < c && i < 11u; i++) ga_put_le64(b + 48u + 8u * (i - 1u), keys[i]);
    REQUIRE(ga_mem_write(r->mem, loc, b, sizeof b) == GA_OK, "write");
}

static void put_entry(rec_t *r, uint64_t loc, uint64_t tb, uint64_t size)
{
    uint8_t b[16];
    ga_put_le64(b, tb);
    ga_put_le64(b + 8, size);
    REQUIRE(ga_mem_write(r->mem, loc, b, sizeof b) == GA_OK, "write");
}

static ga_walk_result_t walk(rec_t *r, uint64_t root, uint32_t limit, uint64_t p)
{
    ga_walk_cfg_t c = { GA_LAYOUT_INDEX, root, limit, 7 };
    ga_memif_t mi = rec_memif(r);
    r->n = 0;
    return ga_walk(&c, &mi, p);
}

static void expect_reads(const rec_t *r, const uint64_t *locs, const uint32_t *lens, unsigned n)
{
    REQUIRE(r->n == n, "%u reads, expected %u", r->n, n);
    for (unsigned i = 0; i < n; i++) {
        REQUIRE(r->addr[i] == locs[i], "read %u at %llx, expected %llx", i, (unsigned long long)r->addr[i],
                (unsigned long long)locs[i]);
        REQUIRE(r->len[i] == lens[i], "read %u of %u bytes, expected %u", i, r->len[i], lens[i]);
    }
}

/* The slot with ref k (16-byte units from ROOT). */
#define AT(k) (ROOT + 16u * (uint64_t)(k))

/* A root leaf over three entries [0x1000,+0x100) t5, [0x2000,+0x80) freed, [0x3000,+0x10) t9 in
 * slots with refs 8, 9, 10. */
static void build_leaf(rec_t *r)
{
    uint32_t refs[3] = {8, 9, 10};
    uint64_t keys[3] = {0, 0x2000, 0x3000};
    put_inode(r, ROOT, 3, 0, refs, keys);
    put_entry(r, AT(8), ga_make_ptr(5, 0x1000, 7), 0x100);
    put_entry(r, AT(9), ga_make_ptr(0x7F, 0x2000, 7), 0x80);
    put_entry(r, AT(10), ga_make_ptr(9, 0x3000, 7), 0x10);
}

START_TEST(test_walk_empty_and_leaf)
{
    rec_t *r = rec_new();
    uint8_t z[128] = {0};
    REQUIRE(ga_mem_write(r->mem, ROOT, z, sizeof z) == GA_OK, "write");
    /* Two empty indexes: root leaves of count 0 (all zero), one 128-byte read each, NOT_FOUND. */
    ga_walk_result_t w = walk(r, ROOT, 100, ga_make_ptr(5, 0x1000, 7));
    ck_assert_int_eq(w.status, GA_WALK_NOT_FOUND);
    ck_assert_uint_eq(w.steps, 2);
    ck_assert_uint_eq(w.bytes, 256);
    uint64_t l1[2] = {ROOT, ROOT - 128u};
    uint32_t n1[2] = {128, 128};
    expect_reads(r, l1, n1, 2);

    build_leaf(r);
    /* a equal to key[1]: ref 1 (the entry at that base); freed entry: RANGE_ONLY. */
    w = walk(r, ROOT, 100, ga_make_ptr(5, 0x2000, 7));
    ck_assert_int_eq(w.status, GA_WALK_RANGE_ONLY);
    ck_assert_uint_eq(w.loc, AT(9));
    ck_assert_uint_eq(w.steps, 2);
    ck_assert_uint_eq(w.bytes, 144);
    uint64_t l2[2] = {ROOT, AT(9)};
    uint32_t n2[2] = {128, 16};
    expect_reads(r, l2, n2, 2);
    /* Just below key[1]: ref 0; inside: FOUND with the entry. */
    w = walk(r, ROOT, 100, ga_make_ptr(5, 0x10FF, 7));
    ck_assert_int_eq(w.status, GA_WALK_FOUND);
    ck_assert_uint_eq(w.loc, AT(8));
    ck_assert_uint_eq(w.entry.size, 0x100);
    /* Between entries: ref 0's slot read, does not cover, then the (empty) freed index: NOT_FOUND
     * after 3 reads. */
    w = walk(r, ROOT, 100, ga_make_ptr(5, 0x1FFF, 7));
    ck_assert_int_eq(w.status, GA_WALK_NOT_FOUND);
    ck_assert_uint_eq(w.steps, 3);
    ck_assert_uint_eq(w.bytes, 272);
    uint64_t l3[3] = {ROOT, AT(8), ROOT - 128u};
    uint32_t n3[3] = {128, 16, 128};
    expect_reads(r, l3, n3, 3);
    /* Below every key: ref 0 too (key[0] is not stored). */
    w = walk(r, ROOT, 100, ga_make_ptr(5, 0x10, 7));
    ck_assert_int_eq(w.status, GA_WALK_NOT_FOUND);
    expect_reads(r, l3, n3, 3);
    /* Last ref, tag mismatch: RANGE_ONLY; a tag-0 pointer on a covering entry is never FOUND. */
    w = walk(r, ROOT, 100, ga_make_ptr(8, 0x300F, 7));
    ck_assert_int_eq(w.status, GA_WALK_RANGE_ONLY);
    ck_assert_uint_eq(w.loc, AT(10));
    w = walk(r, ROOT, 100, ga_make_ptr(9, 0x3010, 7));
    ck_assert_int_eq(w.status, GA_WALK_NOT_FOUND);
    w = walk(r, ROOT, 100, ga_make_ptr(0, 0x3000, 7));
    ck_assert_int_eq(w.status, GA_WALK_RANGE_ONLY);
    rec_free(r);
}
END_TEST

START_TEST(test_walk_two_levels)
{
    rec_t *r = rec_new();
    /* root inner -> leaves at refs 64 and 72 (locations ROOT + 1024, + 1152). */
    uint32_t rr[2] = {64, 72};
    uint64_t rk[2] = {0, 0x5000};
    put_inode(r, ROOT, 2, 1, rr, rk);
    uint32_t la[2] = {8, 9}, lb[2] = {10, 11};
    uint64_t ka[2] = {0, 0x2000}, kb[2] = {0, 0x6000};
    put_inode(r, AT(64), 2, 0, la, ka);
    put_inode(r, AT(72), 2, 0, lb, kb);
    put_entry(r, AT(8), ga_make_ptr(1, 0x1000, 7), 0x100);
    put_entry(r, AT(9), ga_make_ptr(2, 0x2000, 7), 0x100);
    put_entry(r, AT(10), ga_make_ptr(3, 0x5000, 7), 0x100);
    put_entry(r, AT(11), ga_make_ptr(4, 0x6000, 7), 0x100);
    uint64_t p[4] = {ga_make_ptr(1, 0x1000, 7), ga_make_ptr(2, 0x20FF, 7), ga_make_ptr(3, 0x5000, 7),
                     ga_make_ptr(4, 0x6080, 7)};
    uint64_t leaf[4] = {AT(64), AT(64), AT(72), AT(72)}, slot[4] = {AT(8), AT(9), AT(10), AT(11)};
    for (int i = 0; i < 4; i++) {
        ga_walk_result_t w = walk(r, ROOT, 100, p[i]);
        ck_assert_int_eq(w.status, GA_WALK_FOUND);
        ck_assert_uint_eq(w.steps, 3);
        ck_assert_uint_eq(w.bytes, 128 + 128 + 16);
        uint64_t l[3] = {ROOT, leaf[i], slot[i]};
        uint32_t n[3] = {128, 128, 16};
        expect_reads(r, l, n, 3);
    }
    /* Step limit: 2 node reads, then the slot read is refused; 3 suffices. */
    ga_walk_result_t w = walk(r, ROOT, 2, p[0]);
    ck_assert_int_eq(w.status, GA_WALK_STEP_LIMIT);
    ck_assert_uint_eq(w.steps, 2);
    ck_assert_uint_eq(w.bytes, 256);
    w = walk(r, ROOT, 1, p[0]);
    ck_assert_int_eq(w.status, GA_WALK_STEP_LIMIT);
    ck_assert_uint_eq(w.steps, 1);
    w = walk(r, ROOT, 3, p[0]);
    ck_assert_int_eq(w.status, GA_WALK_FOUND);
    /* An error on the leaf read or the slot read: FAULT, counted. */
    r->fail_at = AT(64);
    w = walk(r, ROOT, 100, p[0]);
    ck_assert_int_eq(w.status, GA_WALK_FAULT);
    ck_assert_uint_eq(w.steps, 2);
    ck_assert_uint_eq(w.loc, 0);
    r->fail_at = AT(9);
    w = walk(r, ROOT, 100, p[1]);
    ck_assert_int_eq(w.status, GA_WALK_FAULT);
    ck_assert_uint_eq(w.steps, 3);
    ck_assert_uint_eq(w.bytes, 272);
    rec_free(r);
}
END_TEST

/* The freed index (spec §2.3, §3.3 "None"): walked only after the live index ends without a covering
 * entry; refs in it count from ROOT; steps go on counting. */
START_TEST(test_walk_freed_index)
{
    rec_t *r = rec_new();
    build_leaf(r); /* live: 0x1000 t5 (ref 8), 0x2000 freed (ref 9), 0x3000 t9 (ref 10) */
    uint32_t fr[2] = {11, 12};
    uint64_t fk[2] = {0, 0x5000};
    put_inode(r, ROOT - 128u, 2, 0, fr, fk);
    put_entry(r, AT(11), ga_make_ptr(0x7F, 0x4000, 7), 0x200);
    put_entry(r, AT(12), ga_make_ptr(0x7F, 0x5000, 7), 0x100);
    /* A live entry: the live index alone. */
    ga_walk_result_t w = walk(r, ROOT, 100, ga_make_ptr(5, 0x1010, 7));
    ck_assert_int_eq(w.status, GA_WALK_FOUND);
    ck_assert_uint_eq(w.steps, 2);
    /* An entry freed before the last malloc: live root, live slot (0x3000 does not cover 0x4100),
     * freed root, freed slot: RANGE_ONLY there. */
    w = walk(r, ROOT, 100, ga_make_ptr(5, 0x4100, 7));
    ck_assert_int_eq(w.status, GA_WALK_RANGE_ONLY);
    ck_assert_uint_eq(w.loc, AT(11));
    ck_assert_uint_eq(w.steps, 4);
    ck_assert_uint_eq(w.bytes, 288);
    uint64_t l4[4] = {ROOT, AT(10), ROOT - 128u, AT(11)};
    uint32_t n4[4] = {128, 16, 128, 16};
    expect_reads(r, l4, n4, 4);
    /* Covered by neither: NOT_FOUND after both. */
    w = walk(r, ROOT, 100, ga_make_ptr(5, 0x5100, 7));
    ck_assert_int_eq(w.status, GA_WALK_NOT_FOUND);
    ck_assert_uint_eq(w.steps, 4);
    /* A live index that covers ends there, even when the freed one would cover too (corrupt: not
     * disjoint): the live answer wins, the freed index is not read. */
    put_entry(r, AT(12), ga_make_ptr(0x7F, 0x3000, 7), 0x100);
    fk[1] = 0x3000;
    put_inode(r, ROOT - 128u, 2, 0, fr, fk);
    w = walk(r, ROOT, 100, ga_make_ptr(9, 0x3004, 7));
    ck_assert_int_eq(w.status, GA_WALK_FOUND);
    ck_assert_uint_eq(w.loc, AT(10));
    ck_assert_uint_eq(r->n, 2);
    fk[1] = 0x5000;
    put_inode(r, ROOT - 128u, 2, 0, fr, fk);
    put_entry(r, AT(12), ga_make_ptr(0x7F, 0x5000, 7), 0x100);
    /* The step limit spans both phases: 2 reads end before the freed root, 3 before its slot. */
    w = walk(r, ROOT, 2, ga_make_ptr(5, 0x4100, 7));
    ck_assert_int_eq(w.status, GA_WALK_STEP_LIMIT);
    ck_assert_uint_eq(w.steps, 2);
    ck_assert_uint_eq(r->n, 2);
    w = walk(r, ROOT, 3, ga_make_ptr(5, 0x4100, 7));
    ck_assert_int_eq(w.status, GA_WALK_STEP_LIMIT);
    ck_assert_uint_eq(w.steps, 3);
    ck_assert_uint_eq(r->addr[2], ROOT - 128u);
    w = walk(r, ROOT, 4, ga_make_ptr(5, 0x4100, 7));
    ck_assert_int_eq(w.status, GA_WALK_RANGE_ONLY);
    /* An error on the freed root, a malformed freed root: FAULT. */
    r->fail_at = ROOT - 128u;
    w = walk(r, ROOT, 100, ga_make_ptr(5, 0x4100, 7));
    ck_assert_int_eq(w.status, GA_WALK_FAULT);
    ck_assert_uint_eq(w.steps, 3);
    r->fail_at = 0;
    uint8_t b[128];
    REQUIRE(ga_mem_read(r->mem, ROOT - 128u, b, 128) == GA_MEM_OK, "read");
    b[1] = 2;
    REQUIRE(ga_mem_write(r->mem, ROOT - 128u, b, 128) == GA_OK, "write");
    w = walk(r, ROOT, 100, ga_make_ptr(5, 0x4100, 7));
    ck_assert_int_eq(w.status, GA_WALK_FAULT);
    ck_assert_uint_eq(w.steps, 3);
    put_inode(r, ROOT - 128u, 2, 0, fr, fk);
    /* An empty live index goes straight to the freed one. */
    static const uint8_t z[128];
    REQUIRE(ga_mem_write(r->mem, ROOT, z, sizeof z) == GA_OK, "write");
    w = walk(r, ROOT, 100, ga_make_ptr(5, 0x5008, 7));
    ck_assert_int_eq(w.status, GA_WALK_RANGE_ONLY);
    ck_assert_uint_eq(w.loc, AT(12));
    uint64_t l3[3] = {ROOT, ROOT - 128u, AT(12)};
    uint32_t n3[3] = {128, 128, 16};
    expect_reads(r, l3, n3, 3);
    /* The reference search finds it too, and gives up when the freed root is unreadable. */
    ga_entry_t e;
    bool ok = false;
    ck_assert_uint_eq(ga_ref_search(r->mem, GA_LAYOUT_INDEX, ROOT, 0, 7, ga_make_ptr(5, 0x5008, 7), 99, &e, &ok), 0);
    ck_assert(ok);
    ck_assert_uint_eq(e.tb, ga_make_ptr(0x7F, 0x5000, 7));
    /* max_nodes counts reads across both: live root, freed root, 2 slots = 4. */
    ck_assert_uint_eq(ga_ref_search(r->mem, GA_LAYOUT_INDEX, ROOT, 0, 7, ga_make_ptr(5, 0x5008, 7), 3, &e, &ok), 0);
    ck_assert(!ok);
    ck_assert_uint_eq(ga_ref_search(r->mem, GA_LAYOUT_INDEX, ROOT, 0, 7, ga_make_ptr(5, 0x5008, 7), 4, &e, &ok), 0);
    ck_assert(ok);
    ga_mem_destroy(r->mem);
    ck_assert_int_eq(ga_mem_create(&r->mem), GA_OK);
    REQUIRE(ga_mem_write(r->mem, ROOT, z, sizeof z) == GA_OK, "write");
    ck_assert_uint_eq(ga_ref_search(r->mem, GA_LAYOUT_INDEX, ROOT, 0, 7, ga_make_ptr(5, 0x5008, 7), 99, &e, &ok), 0);
    ck_assert(!ok);
    w = walk(r, ROOT, 100, ga_make_ptr(5, 0x5008, 7));
    ck_assert_int_eq(w.status, GA_WALK_FAULT);
    ck_assert_uint_eq(w.steps, 2);
    rec_free(r);
}
END_TEST

START_TEST(test_walk_fail_closed)
{
    rec_t *r = rec_new();
    build_leaf(r);
    uint64_t p = ga_make_ptr(5, 0x1000, 7);
    /* ROOT not 128-aligned: FAULT before any read. */
    ga_walk_result_t w = walk(r, ROOT + 16, 100, p);
    ck_assert_int_eq(w.status, GA_WALK_FAULT);
    ck_assert_uint_eq(w.steps, 0);
    ck_assert_uint_eq(r->n, 0);
    /* Count 12, kind 2, reserved bytes: FAULT after the one read. */
    uint8_t b[128];
    static const struct {
        unsigned off;
        uint8_t val;
    } bad[] = {{0, 12}, {0, 255}, {1, 2}, {1, 0x80}, {2, 1}, {3, 0x40}};
    for (unsigned k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        build_leaf(r);
        REQUIRE(ga_mem_read(r->mem, ROOT, b, 128) == GA_MEM_OK, "read");
        b[bad[k].off] = bad[k].val;
        REQUIRE(ga_mem_write(r->mem, ROOT, b, 128) == GA_OK, "write");
        w = walk(r, ROOT, 100, p);
        REQUIRE(w.status == GA_WALK_FAULT && w.steps == 1 && r->n == 1, "case %u: status %d steps %u", k, w.status,
                w.steps);
    }
    /* Count 11 is legal: eleven refs, ten keys; the last key selects the last ref. */
    uint32_t refs[11];
    uint64_t keys[11];
    for (unsigned j = 0; j < 11; j++) {
        refs[j] = 8u + j;
        keys[j] = 0x10000u * (j + 1u);
        put_entry(r, AT(8u + j), ga_make_ptr(3, 0x10000u * (j + 1u), 7), 0x100);
    }
    put_inode(r, ROOT, 11, 0, refs, keys);
    for (unsigned j = 0; j < 11; j++) {
        w = walk(r, ROOT, 100, ga_make_ptr(3, 0x10000u * (j + 1u) + 0xFF, 7));
        REQUIRE(w.status == GA_WALK_FOUND && w.loc == AT(8u + j), "ref %u: status %d", j, w.status);
    }
    /* An inner node whose child ref is not a multiple of 8 units: FAULT after the one read. */
    uint32_t rr[2] = {64, 73};
    uint64_t rk[2] = {0, 0x5000};
    put_inode(r, ROOT, 2, 1, rr, rk);
    w = walk(r, ROOT, 100, ga_make_ptr(3, 0x5000, 7));
    ck_assert_int_eq(w.status, GA_WALK_FAULT);
    ck_assert_uint_eq(w.steps, 1);
    /* A cycle (an inner node naming itself) ends STEP_LIMIT after exactly step_limit reads. */
    uint32_t self[2] = {0, 0};
    put_inode(r, ROOT, 2, 1, self, rk);
    w = walk(r, ROOT, 37, p);
    ck_assert_int_eq(w.status, GA_WALK_STEP_LIMIT);
    ck_assert_uint_eq(w.steps, 37);
    ck_assert_uint_eq(r->n, 37);
    /* Keys out of order (corrupt): the largest i with key[i] <= a still decides. */
    uint32_t lr[3] = {8, 9, 10};
    uint64_t lk[3] = {0, 0x9000, 0x2000};
    put_inode(r, ROOT, 3, 0, lr, lk);
    put_entry(r, AT(10), ga_make_ptr(3, 0x2000, 7), 0x100);
    w = walk(r, ROOT, 100, ga_make_ptr(3, 0x9000, 7)); /* key[2] <= a: ref 2 */
    ck_assert_uint_eq(r->addr[1], AT(10));
    w = walk(r, ROOT, 100, ga_make_ptr(3, 0x2000, 7)); /* key[2] <= a too */
    ck_assert_int_eq(w.status, GA_WALK_FOUND);
    ck_assert_uint_eq(w.loc, AT(10));
    /* Ref arithmetic wraps modulo 2^64: ROOT near the top, a ref past it. */
    uint64_t top = UINT64_C(0xFFFFFFFFFFFFFF80);
    uint32_t wr[1] = {16};
    uint64_t wk[1] = {0};
    put_inode(r, top, 1, 0, wr, wk);
    put_entry(r, 0x80, ga_make_ptr(3, 0x4000, 7), 0x10); /* top + 256 = 0x80 */
    w = walk(r, top, 100, ga_make_ptr(3, 0x4008, 7));
    ck_assert_int_eq(w.status, GA_WALK_FOUND);
    ck_assert_uint_eq(w.loc, 0x80);
    rec_free(r);
}
END_TEST

/* The reference search ignores keys: a wrong separator sends the walk astray, not the search. */
START_TEST(test_refsearch_index)
{
    rec_t *r = rec_new();
    uint32_t rr[2] = {64, 72};
    uint64_t rk[2] = {0, 0x5000};
    put_inode(r, ROOT, 2, 1, rr, rk);
    uint32_t la[2] = {8, 9}, lb[2] = {10, 11};
    uint64_t ka[2] = {0, 0x2000}, kb[2] = {0, 0x6000};
    put_inode(r, AT(64), 2, 0, la, ka);
    put_inode(r, AT(72), 2, 0, lb, kb);
    put_entry(r, AT(8), ga_make_ptr(1, 0x1000, 7), 0x100);
    put_entry(r, AT(9), ga_make_ptr(2, 0x2000, 7), 0x100);
    put_entry(r, AT(10), ga_make_ptr(3, 0x5000, 7), 0x100);
    put_entry(r, AT(11), ga_make_ptr(4, 0x6000, 7), 0x100);
    ga_entry_t e;
    bool ok = false;
    /* Depth first, in ref order: 2 nodes + 2 slots to reach the 2nd entry; its tag decides. */
    ck_assert_uint_eq(ga_ref_search(r->mem, GA_LAYOUT_INDEX, ROOT, 0, 7, ga_make_ptr(2, 0x2010, 7), 4, &e, &ok), AT(9));
    ck_assert(ok);
    ck_assert_uint_eq(e.size, 0x100);
    ck_assert_uint_eq(ga_ref_search(r->mem, GA_LAYOUT_INDEX, ROOT, 0, 7, ga_make_ptr(2, 0x2010, 7), 3, &e, &ok), 0);
    ck_assert(!ok);
    ck_assert_uint_eq(ga_ref_search(r->mem, GA_LAYOUT_INDEX, ROOT, 0, 7, ga_make_ptr(9, 0x6000, 7), 99, &e, &ok), 0);
    ck_assert(ok);
    ck_assert_uint_eq(e.tb, ga_make_ptr(4, 0x6000, 7));
    ck_assert_uint_eq(ga_ref_search(r->mem, GA_LAYOUT_INDEX, ROOT, 0, 7, ga_make_ptr(9, 0x7000, 7), 99, &e, &ok), 0);
    ck_assert(ok);
    ck_assert_uint_eq(e.size, 0);
    /* A separator that is too high (0x5001): the walk misses the entry at 0x5000, the search not. */
    rk[1] = 0x5001;
    put_inode(r, ROOT, 2, 1, rr, rk);
    ga_walk_result_t w = walk(r, ROOT, 100, ga_make_ptr(3, 0x5000, 7));
    ck_assert_int_eq(w.status, GA_WALK_NOT_FOUND);
    ck_assert_uint_eq(ga_ref_search(r->mem, GA_LAYOUT_INDEX, ROOT, 0, 7, ga_make_ptr(3, 0x5000, 7), 99, &e, &ok), AT(10));
    /* Gives up on what the walk refuses: a bad header, a misaligned child, a misaligned root. */
    uint8_t b[128];
    REQUIRE(ga_mem_read(r->mem, AT(72), b, 128) == GA_MEM_OK, "read");
    b[3] = 1;
    REQUIRE(ga_mem_write(r->mem, AT(72), b, 128) == GA_OK, "write");
    ck_assert_uint_eq(ga_ref_search(r->mem, GA_LAYOUT_INDEX, ROOT, 0, 7, ga_make_ptr(4, 0x6000, 7), 99, &e, &ok), 0);
    ck_assert(!ok);
    rr[1] = 73;
    put_inode(r, ROOT, 2, 1, rr, rk);
    ck_assert_uint_eq(ga_ref_search(r->mem, GA_LAYOUT_INDEX, ROOT, 0, 7, ga_make_ptr(4, 0x6000, 7), 99, &e, &ok), 0);
    ck_assert(!ok);
    ck_assert_uint_eq(ga_ref_search(r->mem, GA_LAYOUT_INDEX, ROOT + 16, 0, 7, ga_make_ptr(1, 0x1000, 7), 99, &e, &ok), 0);
    ck_assert(!ok);
    /* A cycle: bounded by max_nodes (or the depth limit), never a hang. */
    uint32_t self[2] = {0, 0};
    put_inode(r, ROOT, 2, 1, self, rk);
    ck_assert_uint_eq(ga_ref_search(r->mem, GA_LAYOUT_INDEX, ROOT, 0, 7, ga_make_ptr(1, 0x1000, 7), 1000, &e, &ok), 0);
    ck_assert(!ok);
    rec_free(r);
}
END_TEST

/* --- the runtime's index: a shadow parser from the spec --------------------------------------------- */

typedef struct shadow {
    struct shadow *fs; /* the freed index's shadow (the live one's own field; NULL in it) */
    ga_mem_t *mem;
    uint64_t root;
    unsigned tag_bits;
    uint64_t *slots; /* slot locations the leaves name, in key order */
    size_t nslots, cap;
    unsigned depth;  /* levels of nodes (all leaves at the same depth) */
    uint64_t nodes;
    /* Per depth d (1 = the root), the nodes left to right: location and ref count. */
    uint64_t *lv_loc[SH_DEPTHS];
    unsigned *lv_cnt[SH_DEPTHS];
    size_t lv_n[SH_DEPTHS], lv_cap[SH_DEPTHS];
} shadow_t;

static void sh_level_add(shadow_t *s, unsigned d, uint64_t loc, unsigned c)
{
    REQUIRE(d < SH_DEPTHS, "depth %u", d);
    if (s->lv_n[d] == s->lv_cap[d]) {
        s->lv_cap[d] = s->lv_cap[d] ? 2 * s->lv_cap[d] : 16;
        s->lv_loc[d] = realloc(s->lv_loc[d], s->lv_cap[d] * sizeof *s->lv_loc[d]);
        s->lv_cnt[d] = realloc(s->lv_cnt[d], s->lv_cap[d] * sizeof *s->lv_cnt[d]);
        REQUIRE(s->lv_loc[d] != NULL && s->lv_cnt[d] != NULL, "oom");
    }
    s->lv_loc[d][s->lv_n[d]] = loc;
    s->lv_cnt[d][s->lv_n[d]++] = c;
}

static void sh_free(shadow_t *s)
{
    if (s->fs != NULL) {
        sh_free(s->fs);
        free(s->fs);
    }
    free(s->slots);
    for (unsigned d = 0; d < SH_DEPTHS; d++) {
        free(s->lv_loc[d]);
        free(s->lv_cnt[d]);
    }
}

static uint64_t sh_le(const uint8_t *b, unsigned n)
{
    uint64_t v = 0;
    for (unsigned i = 0; i < n; i++) v |= (uint64_t)b[i] << (8u * i);
    return v;
}

/* Check the subtree at loc (depth d): format, counts, key order, exact separators; returns the
 * smallest base in it. Leaves' depth must be the same everywhere. */
static uint64_t sh_node(shadow_t *s, uint64_t loc, unsigned d, bool is_root, uint64_t lo, uint64_t hi)
{
    uint8_t b[128];
    REQUIRE(loc % 128u == 0u, "node %llx misaligned", (unsigned long long)loc);
    REQUIRE(ga_mem_read(s->mem, loc, b, 128) == GA_MEM_OK, "node %llx unreadable", (unsigned long long)loc);
    s->nodes++;
    unsigned c = b[0], kind = b[1];
    REQUIRE(c <= 11u && kind <= 1u && b[2] == 0u && b[3] == 0u, "node %llx header", (unsigned long long)loc);
    sh_level_add(s, d, loc, c);
    REQUIRE(is_root || c >= 6u, "non-root node %llx holds %u refs", (unsigned long long)loc, c);
    REQUIRE(!(is_root && kind == 1u) || c >= 2u, "inner root with %u refs", c);
    for (unsigned j = c; j < 11u; j++) REQUIRE(sh_le(b + 4u + 4u * j, 4) == 0u, "unused ref %u not zero", j);
    for (unsigned i = (c > 0u ? c : 1u); i < 11u; i++)
        REQUIRE(sh_le(b + 48u + 8u * (i - 1u), 8) == 0u, "unused key %u not zero", i);
    uint64_t first = 0;
    for (unsigned j = 0; j < c; j++) {
        uint64_t key = j == 0 ? 0 : sh_le(b + 48u + 8u * (j - 1u), 8);
        uint64_t ref = sh_le(b + 4u + 4u * j, 4);
        uint64_t child = s->root + 16u * ref;
        uint64_t clo = j == 0 ? lo : key;
        uint64_t chi = j + 1u < c ? sh_le(b + 48u + 8u * j, 8) : hi;
        if (j > 1u) REQUIRE(key > sh_le(b + 48u + 8u * (j - 2u), 8), "keys not ascending");
        uint64_t min;
        if (kind == 1u) {
            min = sh_node(s, child, d + 1u, false, clo, chi);
        } else {
            if (s->depth == 0) s->depth = d;
            REQUIRE(s->depth == d, "leaves at depths %u and %u", s->depth, d);
            uint8_t e[16];
            REQUIRE(ga_mem_read(s->mem, child, e, 16) == GA_MEM_OK, "slot unreadable");
            min = sh_le(e, 8) & (UINT64_MAX >> s->tag_bits);
            REQUIRE(sh_le(e + 8, 8) != 0u, "leaf names an empty slot");
            if (s->nslots == s->cap) {
                s->cap = s->cap ? 2 * s->cap : 64;
                s->slots = realloc(s->slots, s->cap * sizeof *s->slots);
                REQUIRE(s->slots != NULL, "oom");
            }
            s->slots[s->nslots++] = child;
        }
        REQUIRE(min >= clo && min < chi, "entry or subtree min %llx outside [%llx, %llx)", (unsigned long long)min,
                (unsigned long long)clo, (unsigned long long)chi);
        if (j > 0) REQUIRE(min == key, "separator %llx is not the subtree's smallest base %llx", (unsigned long long)key,
                           (unsigned long long)min);
        if (j == 0) first = min;
    }
    return first;
}

/* One index whose root node is at top (refs from s->root). */
static void sh_tree(shadow_t *s, uint64_t root, uint64_t top)
{
    s->nslots = 0;
    s->depth = 0;
    s->nodes = 0;
    for (unsigned d = 0; d < SH_DEPTHS; d++) s->lv_n[d] = 0;
    s->root = root;
    (void)sh_node(s, top, 1, true, 0, UINT64_MAX);
}

static uint64_t sh_base(const shadow_t *s, uint64_t slot)
{
    uint8_t e[16];
    REQUIRE(ga_mem_read(s->mem, slot, e, 16) == GA_MEM_OK, "slot");
    return sh_le(e, 8) & (UINT64_MAX >> s->tag_bits);
}

/* Both indexes: the live one into s, the freed one (at ROOT - 128) into s->fs. */
static void shadow_check(shadow_t *s, ga_rt_t *rt)
{
    if (s->fs == NULL) {
        s->fs = calloc(1, sizeof *s->fs);
        REQUIRE(s->fs != NULL, "oom");
        s->fs->mem = s->mem;
        s->fs->tag_bits = s->tag_bits;
    }
    shadow_t *f = s->fs;
    uint64_t root = ga_rt_root(rt);
    sh_tree(s, root, root);
    sh_tree(f, root, root - 128u);
    ga_rt_stats_t st = ga_rt_stats(rt);
    REQUIRE(s->nslots + f->nslots == st.nodes, "leaves name %zu + %zu slots, the runtime holds %llu entries", s->nslots,
            f->nslots, (unsigned long long)st.nodes);
    REQUIRE(st.index_bytes == 128u * (s->nodes + f->nodes), "index bytes %llu for %llu + %llu nodes",
            (unsigned long long)st.index_bytes, (unsigned long long)s->nodes, (unsigned long long)f->nodes);
    REQUIRE(st.height == (s->depth ? s->depth : 1u), "height %u, depth %u", st.height, s->depth);
    /* The freed index holds freed entries only (so every live entry is in the live index). */
    uint64_t ftag = (UINT64_C(1) << s->tag_bits) - 1u;
    for (size_t i = 0; i < f->nslots; i++) {
        uint8_t e[16];
        REQUIRE(ga_mem_read(s->mem, f->slots[i], e, 16) == GA_MEM_OK, "slot");
        REQUIRE(sh_le(e, 8) >> (64u - s->tag_bits) == ftag, "the freed index names a live entry at %llx",
                (unsigned long long)f->slots[i]);
    }
    /* Every named slot (the two indexes merged by base) holds an entry the runtime knows at that
     * location, in ascending base order: the indexes are disjoint and together hold every entry. */
    uint64_t prev_end = 0;
    size_t i = 0, j = 0;
    while (i < s->nslots || j < f->nslots) {
        bool take_live = j == f->nslots || (i < s->nslots && sh_base(s, s->slots[i]) < sh_base(f, f->slots[j]));
        uint64_t slot = take_live ? s->slots[i++] : f->slots[j++];
        uint8_t e[16];
        REQUIRE(ga_mem_read(s->mem, slot, e, 16) == GA_MEM_OK, "slot");
        uint64_t base = sh_le(e, 8) & (UINT64_MAX >> s->tag_bits), size = sh_le(e + 8, 8);
        REQUIRE(base >= prev_end, "entries overlap, are out of order or named twice");
        prev_end = base + size;
        ga_entry_t he;
        uint64_t loc;
        REQUIRE(ga_rt_find(rt, base, &he, &loc) && loc == slot && he.size == size, "slot %llx not the runtime's",
                (unsigned long long)slot);
    }
}

/* Reads of one index's walk that ends in it or passes it: node levels + the slot, 1 when empty. */
static uint32_t sh_cost(const shadow_t *s) { return s->depth ? s->depth + 1u : 1u; }

static bool sh_names(const shadow_t *s, uint64_t slot)
{
    for (size_t i = 0; i < s->nslots; i++)
        if (s->slots[i] == slot) return true;
    return false;
}

static ga_rt_cfg_t ix_cfg(bool fixed, uint32_t cap, uint32_t reclaim)
{
    ga_rt_cfg_t c;
    ga_rt_default_cfg(&c, GA_LAYOUT_INDEX, 7, 11);
    c.fixed_addresses = fixed;
    c.md_capacity = cap;
    c.reclaim_threshold = reclaim;
    return c;
}

/* For address a: the walk (step limit plenty), the reference search and the runtime agree, and the
 * walk costs what the shadow's shapes say (sh: just checked by shadow_check). */
static void agree_at(ga_rt_t *rt, ga_mem_t *m, const shadow_t *sh, uint64_t p)
{
    ga_walk_cfg_t wc = { GA_LAYOUT_INDEX, ga_rt_root(rt), 1000, 7 };
    ga_memif_t mi = ga_mem_memif(m);
    ga_walk_result_t w = ga_walk(&wc, &mi, p);
    ga_entry_t re;
    bool ok;
    uint64_t rl = ga_ref_search(m, GA_LAYOUT_INDEX, ga_rt_root(rt), 0, 7, p, 1u << 22, &re, &ok);
    REQUIRE(ok, "reference search gave up");
    ga_entry_t he;
    uint64_t hl;
    bool found = ga_rt_find(rt, p, &he, &hl);
    uint64_t want = found && ga_entry_matches(he, p, 7) ? hl : 0u;
    uint64_t got = w.status == GA_WALK_FOUND ? w.loc : 0u;
    REQUIRE(got == want && rl == want, "p %llx: walk %llx (%s), reference %llx, runtime %llx", (unsigned long long)p,
            (unsigned long long)got, ga_walk_status_name(w.status), (unsigned long long)rl, (unsigned long long)want);
    if (found) {
        REQUIRE(w.status == GA_WALK_FOUND || w.status == GA_WALK_RANGE_ONLY, "covered but %s", ga_walk_status_name(w.status));
        REQUIRE(w.loc == hl && w.entry.tb == he.tb, "walk found another entry");
    } else {
        REQUIRE(w.status == GA_WALK_NOT_FOUND, "uncovered but %s", ga_walk_status_name(w.status));
    }
    uint32_t cost = found && sh_names(sh, hl) ? sh_cost(sh) : sh_cost(sh) + sh_cost(sh->fs);
    REQUIRE(w.steps == cost, "walk of %u reads, the shapes say %u", w.steps, cost);
}

START_TEST(test_runtime_random)
{
    /* Random mallocs, frees, trims and reclaims in fixed mode (ranges overlap freed ones, so trims
     * happen), the structure checked after every operation. */
    ga_mem_t *m;
    ga_rt_t *rt;
    ck_assert_int_eq(ga_mem_create(&m), GA_OK);
    ga_rt_cfg_t c = ix_cfg(true, 4096, 40);
    ck_assert_int_eq(ga_rt_create(&c, m, &rt), GA_OK);
    shadow_t sh = {.mem = m, .tag_bits = 7};
    shadow_check(&sh, rt);
    ga_rng_t g;
    ga_rng_seed(&g, (uint64_t)_i + 5);
    uint64_t live[600], loc_of[600];
    int n = 0;
    uint64_t trims = 0;
    for (int op = 0; op < 3000; op++) {
        if (n > 0 && (n == 600 || ga_rng_below(&g, 5) < 2)) {
            int i = (int)ga_rng_below(&g, (uint64_t)n);
            REQUIRE(ga_rt_free(rt, live[i]) == GA_OK, "free");
            live[i] = live[n - 1];
            loc_of[i] = loc_of[n - 1];
            n--;
        } else {
            uint64_t p, base = UINT64_C(0x100000) + 64u * ga_rng_below(&g, 40000), size = 1 + ga_rng_below(&g, 3000);
            ga_err_t e = ga_rt_malloc_at(rt, base, size, &p);
            REQUIRE(e == GA_OK || e == GA_ERR_OVERLAP, "malloc_at: %s", ga_strerror(e));
            if (e == GA_OK) {
                /* Invalidations name slots only, never index nodes. */
                const uint64_t *L;
                size_t k = ga_rt_invalidations(rt, &L);
                for (size_t j = 0; j < k; j++)
                    REQUIRE(L[j] >= ROOT + 256u && L[j] < ROOT + 256u + 16u * 4096u, "invalidation of %llx",
                            (unsigned long long)L[j]);
                live[n] = p;
                REQUIRE(ga_rt_find(rt, p, NULL, &loc_of[n]), "find");
                n++;
            }
        }
        shadow_check(&sh, rt);
        /* Slots never move: every live allocation is where it was put. */
        for (int i = 0; i < n; i++) {
            uint64_t l;
            REQUIRE(ga_rt_find(rt, live[i], NULL, &l) && l == loc_of[i], "allocation moved");
        }
        for (int k = 0; k < 8; k++) {
            uint64_t a = n > 0 && k < 4 ? live[ga_rng_below(&g, (uint64_t)n)] + ga_rng_below(&g, 64)
                                        : ga_make_ptr(1 + ga_rng_below(&g, 126), 0x100000 + ga_rng_below(&g, 2600000), 7);
            agree_at(rt, m, &sh, a);
        }
    }
    trims = ga_rt_stats(rt).trimmed;
    REQUIRE(trims > 0 && ga_rt_stats(rt).reclaimed > 0, "no trim or reclaim exercised");
    sh_free(&sh);
    ga_rt_destroy(rt);
    ga_mem_destroy(m);
}
END_TEST

/* Sequential allocation (the first-fit allocator's common case) fills nodes: the issue-13 goals. */
START_TEST(test_heights)
{
    static const struct {
        uint32_t n, max_height;
    } goal[] = {{11, 1}, {12, 2}, {121, 2}, {1184, 3}, {10000, 4}};
    for (unsigned k = 0; k < sizeof goal / sizeof goal[0]; k++) {
        ga_mem_t *m;
        ga_rt_t *rt;
        ck_assert_int_eq(ga_mem_create(&m), GA_OK);
        ga_rt_cfg_t c = ix_cfg(false, 1u << 16, 1024);
        ck_assert_int_eq(ga_rt_create(&c, m, &rt), GA_OK);
        uint64_t p = 0;
        for (uint32_t i = 0; i < goal[k].n; i++) REQUIRE(ga_rt_malloc(rt, 100, &p) == GA_OK, "malloc");
        ga_rt_stats_t st = ga_rt_stats(rt);
        REQUIRE(st.height <= goal[k].max_height, "%u allocations: height %u, goal %u", goal[k].n, st.height,
                goal[k].max_height);
        if (goal[k].n == 12) ck_assert_uint_eq(st.height, 2);
        shadow_t sh = {.mem = m, .tag_bits = 7};
        shadow_check(&sh, rt);
        if (goal[k].n == 1184) {
            /* Churned (issue 13's harder case): n rounds of free one at random + first-fit malloc,
             * freed entries kept up to the default threshold of 1 024. They wait in the freed index,
             * so the live index keeps 3 levels: 3 + 1 reads per miss for every live pointer. */
            static uint64_t live[1184];
            ga_rt_destroy(rt);
            ck_assert_int_eq(ga_rt_create(&c, m, &rt), GA_OK);
            ga_rng_t g;
            ga_rng_seed(&g, 1184);
            for (uint32_t i = 0; i < 1184; i++)
                REQUIRE(ga_rt_malloc(rt, 256u * (1u + ga_rng_below(&g, 64)), &live[i]) == GA_OK, "malloc");
            for (uint32_t r = 0; r < 1184; r++) {
                uint32_t i = (uint32_t)ga_rng_below(&g, 1184);
                REQUIRE(ga_rt_free(rt, live[i]) == GA_OK, "free");
                REQUIRE(ga_rt_malloc(rt, 256u * (1u + ga_rng_below(&g, 64)), &live[i]) == GA_OK, "malloc");
                REQUIRE(ga_rt_stats(rt).height <= 3u, "churn round %u: live height %u", r, ga_rt_stats(rt).height);
            }
            shadow_check(&sh, rt);
            REQUIRE(ga_rt_stats(rt).freed > 500u, "only %llu freed entries", (unsigned long long)ga_rt_stats(rt).freed);
            for (uint32_t i = 0; i < 1184; i += 7) agree_at(rt, m, &sh, live[i]);
        }
        sh_free(&sh);
        ga_rt_destroy(rt);
        ga_mem_destroy(m);
    }
}
END_TEST

/* The least m with m^h >= n^e (spec §7.7's repack level sizes), by counting up; small n and h only. */
static uint64_t least_root(uint64_t n, unsigned h, unsigned e)
{
    uint64_t want = 1;
    for (unsigned k = 0; k < e; k++) want *= n;
    for (uint64_t m = 1;; m++) {
        uint64_t v = 1;
        for (unsigned k = 0; k < h; k++) v *= m;
        if (v >= want) return m;
    }
}

/* Whether the index in s has exactly the shape of a repack of its n entries at its height (spec
 * §7.7): level sizes m_j = least m with m^h >= n^(h - j), run sizes floor((q + 1) L / m) - floor(q L /
 * m). *total gets the plan's non-root nodes. */
static bool repack_shape(const shadow_t *s, uint64_t *total)
{
    unsigned h = s->depth;
    uint64_t n = s->nslots, cnt[SH_DEPTHS];
    if (h < 2u || h >= SH_DEPTHS) return false;
    *total = 0;
    for (unsigned j = 0; j <= h; j++) cnt[j] = least_root(n, h, h - j);
    for (unsigned j = 1; j <= h; j++) {
        unsigned d = h - j + 1u; /* shadow depth: 1 is the root */
        if (s->lv_n[d] != cnt[j]) return false;
        for (uint64_t q = 0; q < cnt[j]; q++)
            if (s->lv_cnt[d][q] != (q + 1u) * cnt[j - 1u] / cnt[j] - q * cnt[j - 1u] / cnt[j]) return false;
        if (j < h) *total += cnt[j];
    }
    return true;
}

/* Random frees and first-fit mallocs, case 0 at 1 100 live allocations and up to 300 freed entries,
 * case 1 at 300 live and up to 1 150 freed: random inserts split nodes, a 3-level root fills (the
 * live index's in case 0, the freed index's in case 1), and that index is repacked (spec §7.7)
 * instead of growing to 4 levels (at most 0.9 * 11^3 = 1 197.9 entries). After every repack the exact shape of
 * the index that repacked is checked from memory (repack_shape) with the node writes it cost, and the
 * pool nodes it reused taken in ascending location order from the leaves up. */
START_TEST(test_repack)
{
    ga_mem_t *m;
    ga_rt_t *rt;
    ck_assert_int_eq(ga_mem_create(&m), GA_OK);
    ga_rt_cfg_t c = ix_cfg(_i == 1, 4096, _i == 0 ? 300 : 1150);
    ck_assert_int_eq(ga_rt_create(&c, m, &rt), GA_OK);
    shadow_t sh = {.mem = m, .tag_bits = 7};
    ga_rng_t g;
    ga_rng_seed(&g, 77);
    enum { LIVE_MAX = 1100 };
    static uint64_t live[LIVE_MAX];
    const int LIVE = _i == 0 ? 1100 : 300;
    /* Case 0: first fit (the allocator's common case). Case 1: fixed addresses spread over 4 GiB, so
     * frees leave holes that new ranges seldom trim and the freed index fills to its threshold. */
#define NEXT(pp)                                                                                     \
    do {                                                                                             \
        uint64_t sz_ = 256u * (1u + ga_rng_below(&g, 64));                                           \
        if (_i == 0) {                                                                               \
            REQUIRE(ga_rt_malloc(rt, sz_, (pp)) == GA_OK, "malloc");                                \
        } else {                                                                                     \
            ga_err_t e_;                                                                             \
            while ((e_ = ga_rt_malloc_at(rt, 0x100000u + 0x4000u * ga_rng_below(&g, 1u << 18), sz_, (pp))) == \
                   GA_ERR_OVERLAP) {}                                                                \
            REQUIRE(e_ == GA_OK, "malloc_at: %s", ga_strerror(e_));                                  \
        }                                                                                            \
    } while (0)
    for (int i = 0; i < 1200 && _i == 1; i++) { /* fill the freed index first */
        uint64_t q;
        NEXT(&q);
        REQUIRE(ga_rt_free(rt, q) == GA_OK, "free");
    }
    for (int i = 0; i < LIVE; i++) NEXT(&live[i]);
    shadow_check(&sh, rt);
    ck_assert_uint_eq(ga_rt_stats(rt).height, 3);
    uint64_t checked = 0, placed = 0, in_freed = 0;
    for (int r = 0; r < 4000; r++) {
        int k = (int)ga_rng_below(&g, (uint64_t)LIVE);
        REQUIRE(ga_rt_free(rt, live[k]) == GA_OK, "free");
        shadow_check(&sh, rt);
        uint64_t pool_before[2] = {sh.nodes - 1u, sh.fs->nodes - 1u};
        ga_rt_stats_t b = ga_rt_stats(rt);
        NEXT(&live[k]);
        shadow_check(&sh, rt);
        ga_rt_stats_t a = ga_rt_stats(rt);
        REQUIRE(a.height <= 3u && a.freed_height <= 3u, "round %d: heights %u and %u", r, a.height, a.freed_height);
        if (a.index_repacks == b.index_repacks) continue;
        REQUIRE(a.index_repacks == b.index_repacks + 1u, "two repacks in one malloc");
        /* The index that repacked has the plan's exact shape (the other one may too, by chance). */
        uint64_t total = 0;
        unsigned t = repack_shape(&sh, &total) ? 0u : 1u;
        const shadow_t *x = t == 0u ? &sh : sh.fs;
        REQUIRE(t == 0u || repack_shape(x, &total), "round %d: a repack, but neither index has the plan's shape", r);
        REQUIRE(a.index_repack_nodes - b.index_repack_nodes == total + 1u, "repack node count");
        in_freed += t;
        if (a.trimmed == b.trimmed && a.reclaimed == b.reclaimed) {
            /* The malloc's move (one remove here, one insert there) may merge or split up to a
             * node per level before the repack, so the first pool_before - 3 reused nodes are
             * checked: their locations ascend in build order (leaves left to right, then up). */
            unsigned h = x->depth;
            uint64_t prev = 0, seen = 0, reused = pool_before[t] > 3u ? pool_before[t] - 3u : 0u;
            for (unsigned d = h; d >= 2u && seen < reused; d--)
                for (size_t q = 0; q < x->lv_n[d] && seen < reused; q++, seen++) {
                    REQUIRE(x->lv_loc[d][q] > prev, "repack: reused nodes not taken in ascending order");
                    prev = x->lv_loc[d][q];
                }
            placed++;
        }
        for (int q = 0; q < 16; q++) agree_at(rt, m, &sh, live[ga_rng_below(&g, (uint64_t)LIVE)] + ga_rng_below(&g, 256));
        checked++;
    }
    REQUIRE(checked >= 2u && placed >= 1u, "only %llu repacks (%llu with the placement checked)",
            (unsigned long long)checked, (unsigned long long)placed);
    REQUIRE(_i == 0 || in_freed >= 2u, "only %llu repacks of the freed index", (unsigned long long)in_freed);
#undef NEXT
    printf("test_repack: %llu repacks checked (%llu in the freed index), %llu with the placement\n",
           (unsigned long long)checked, (unsigned long long)in_freed, (unsigned long long)placed);
    sh_free(&sh);
    ga_rt_destroy(rt);
    ga_mem_destroy(m);
}
END_TEST

START_TEST(test_config_and_space)
{
    ga_mem_t *m;
    ga_rt_t *rt = NULL;
    ck_assert_int_eq(ga_mem_create(&m), GA_OK);
    ga_rt_cfg_t c = ix_cfg(false, 64, 1024);
    c.md_base = ROOT + 32; /* 32-aligned is not enough: nodes are 128-aligned */
    ck_assert_int_eq(ga_rt_create(&c, m, &rt), GA_ERR_BAD_PARAM);
    c = ix_cfg(false, UINT32_MAX, 1024); /* 64 GiB of 16-byte units exceeded */
    ck_assert_int_eq(ga_rt_create(&c, m, &rt), GA_ERR_BAD_PARAM);
    ck_assert_uint_eq(ga_rt_md_bytes(&c), 0);
    c = ix_cfg(false, 5, 1024);
    ck_assert_uint_eq(ga_rt_md_bytes(&c), 128u + 128u + 128u + 128u * 65u);
    ck_assert_int_eq(ga_rt_create(&c, m, &rt), GA_OK);
    ck_assert_uint_eq(ga_rt_root(rt), ROOT + 128u); /* the freed root at md_base, the live one above */
    uint64_t p[6];
    for (int i = 0; i < 5; i++) ck_assert_int_eq(ga_rt_malloc(rt, 300, &p[i]), GA_OK);
    /* Slots full: NO_METADATA_SPACE, and nothing changed. */
    uint8_t before[512], after[512];
    ck_assert_int_eq(ga_mem_read(m, ROOT, before, sizeof before), GA_MEM_OK);
    ck_assert_int_eq(ga_rt_malloc(rt, 300, &p[5]), GA_ERR_NO_METADATA_SPACE);
    ck_assert_int_eq(ga_mem_read(m, ROOT, after, sizeof after), GA_MEM_OK);
    ck_assert_mem_eq(before, after, sizeof before);
    /* Slots are the lowest free ones: free slot 2, the next allocation takes it. */
    uint64_t l2, l;
    ck_assert(ga_rt_find(rt, p[2], NULL, &l2));
    ck_assert_uint_eq(l2, ROOT + 256u + 32u);
    ck_assert_int_eq(ga_rt_free(rt, p[2]), GA_OK);
    ga_rt_destroy(rt);
    c.reclaim_threshold = 0; /* a free reclaims at once, so the slot is free again */
    ck_assert_int_eq(ga_rt_create(&c, m, &rt), GA_OK);
    for (int i = 0; i < 5; i++) ck_assert_int_eq(ga_rt_malloc(rt, 300, &p[i]), GA_OK);
    ck_assert_int_eq(ga_rt_free(rt, p[2]), GA_OK);
    ck_assert_int_eq(ga_rt_malloc(rt, 300, &p[5]), GA_OK);
    ck_assert(ga_rt_find(rt, p[5], NULL, &l));
    ck_assert_uint_eq(l, l2);
    ga_rt_destroy(rt);
    ga_mem_destroy(m);
}
END_TEST

/* Through the MLU: a LOADMETA miss costs height node reads of 128 bytes plus one 16-byte slot read. */
START_TEST(test_mlu_counts)
{
    ga_system_cfg_t sc;
    ga_system_default_cfg(&sc, GA_LAYOUT_INDEX, 7, 3);
    sc.mode = GA_MODE_HWONLY;
    ga_system_t s;
    ck_assert_int_eq(ga_system_init(&s, &sc), GA_OK);
    uint64_t p[100]; /* 100 entries: about 10 full leaves under the root, 2 levels */
    for (int i = 0; i < 100; i++) ck_assert_int_eq(ga_system_malloc(&s, 64, &p[i]), GA_OK);
    ck_assert_int_eq(ga_system_free(&s, p[7]), GA_OK);
    uint32_t h = ga_rt_stats(s.rt).height;
    ck_assert_uint_eq(h, 2);
    ga_mlu_t *u = &s.sm[0];
    uint64_t rd = 0;
    ck_assert_int_eq(ga_mlu_loadmeta(u, p[50] + 8, &rd), GA_OK);
    uint64_t loc;
    ck_assert(ga_rt_find(s.rt, p[50], NULL, &loc));
    ck_assert_uint_eq(rd, loc);
    ck_assert_uint_eq(u->st.md_reads, h + 1u);
    ck_assert_uint_eq(u->st.md_read_bytes, 128u * h + 16u);
    /* A dangling pointer: HWOnly access raises USE_AFTER_FREE with the slot's location. */
    ga_warp_req_t req;
    memset(&req, 0, sizeof req);
    req.lanes = 1;
    req.active = 1;
    req.size = 4;
    req.addr[0] = p[7];
    ga_warp_rsp_t rsp;
    ck_assert_int_eq(ga_mlu_access(u, &req, &rsp), GA_OK);
    ck_assert_int_eq(rsp.rec.kind, GA_EXC_USE_AFTER_FREE);
    ck_assert(ga_rt_find(s.rt, p[7], NULL, &loc));
    ck_assert_uint_eq(rsp.rec.md, loc);
    ga_system_fini(&s);
}
END_TEST

static Suite *index_suite(void)
{
    Suite *s = suite_create("index");
    TCase *t = tcase_create("walk");
    tcase_add_test(t, test_walk_empty_and_leaf);
    tcase_add_test(t, test_walk_two_levels);
    tcase_add_test(t, test_walk_freed_index);
    tcase_add_test(t, test_walk_fail_closed);
    tcase_add_test(t, test_refsearch_index);
    suite_add_tcase(s, t);
    t = tcase_create("runtime");
    tcase_set_timeout(t, 120);
    tcase_add_loop_test(t, test_runtime_random, 0, 3);
    tcase_add_test(t, test_heights);
    tcase_add_loop_test(t, test_repack, 0, 2);
    tcase_add_test(t, test_config_and_space);
    tcase_add_test(t, test_mlu_counts);
    suite_add_tcase(s, t);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(index_suite());
    srunner_run_all(sr, CK_ENV);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
