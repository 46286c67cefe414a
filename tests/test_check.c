/*
 * test_check.c — the check logic (spec §3.1, §4) in TestFloat's manner: the generator's boundary
 * tables interleaved with seeded random cases, for every access size and both tag widths, against an
 * independent reference written here with exact 128-bit arithmetic (the statement on exact integers,
 * not the model's wrap-free formula). Also: every tag pair at 7 bits, MEMCHECK.S around 2^32, the
 * warp composition (lowest failing lane, inactive lanes), and the name functions of ga_types.c.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ga_check.h"
#include "ga_gen.h"

/* A check for hot loops: Check's ck_assert_* reports every passing assertion's location to the
 * parent process (a system call each in fork mode), so loops use this plain test instead. */
#define REQUIRE(cond, ...)                                                                           \
    do {                                                                                             \
        if (!(cond)) ck_abort_msg(__VA_ARGS__);                                                      \
    } while (0)

typedef unsigned __int128 u128;

#define SEED UINT64_C(0x6A09E667F3BCC908)

/* ---- the independent reference (spec text, exact integers) ------------------------------------ */

typedef struct {
    unsigned t_bits, v_bits;
    uint64_t freed;
} fmt_t;

static fmt_t fmt(unsigned tag_bits)
{
    fmt_t f;
    f.t_bits = tag_bits;
    f.v_bits = 64u - tag_bits;
    f.freed = (UINT64_C(1) << tag_bits) - 1u;
    return f;
}
static uint64_t r_tag(fmt_t f, uint64_t p) { return p >> f.v_bits; }
static uint64_t r_va(fmt_t f, uint64_t p) { return (uint64_t)(((u128)p) % ((u128)1 << f.v_bits)); }

/* M3: ebase <= a < ebase + size. */
static bool r_covers(fmt_t f, ga_entry_t e, uint64_t p)
{
    u128 a = r_va(f, p), b = r_va(f, e.tb);
    return b <= a && a < b + (u128)e.size;
}
/* M1..M3. */
static bool r_matches(fmt_t f, ga_entry_t e, uint64_t p)
{
    uint64_t t = r_tag(f, p);
    return t != 0u && t != f.freed && t == r_tag(f, e.tb) && r_covers(f, e, p);
}
/* not G6: ebase <= a, a + S <= ebase + size, a + S <= 2^V. */
static bool r_inb(fmt_t f, ga_entry_t e, uint64_t p, uint32_t s)
{
    u128 a = r_va(f, p), b = r_va(f, e.tb);
    return b <= a && a + s <= b + (u128)e.size && a + s <= ((u128)1 << f.v_bits);
}
/* G1..G7. md: 0 none, 1 fault, 2 ok. */
static ga_exc_kind_t r_g_lane(fmt_t f, uint64_t p, uint32_t s, int md, ga_entry_t e)
{
    uint64_t t = r_tag(f, p);
    if (t == 0u) return GA_EXC_NONE;
    if (md == 0) return GA_EXC_NO_METADATA;
    if (md == 1) return GA_EXC_METADATA_FAULT;
    if (r_tag(f, e.tb) == f.freed) return GA_EXC_USE_AFTER_FREE;
    if (t != r_tag(f, e.tb)) return GA_EXC_TAG_MISMATCH;
    return r_inb(f, e, p, s) ? GA_EXC_NONE : GA_EXC_OUT_OF_BOUNDS;
}
/* MEMCHECK.S on exact integers. */
static ga_exc_kind_t r_s_lane(uint32_t a, uint32_t s, uint32_t base, uint32_t ssize)
{
    u128 A = a, B = base;
    bool ok = B <= A && A + s <= B + ssize && A + s <= ((u128)1 << 32);
    return ok ? GA_EXC_NONE : GA_EXC_SHARED_OUT_OF_BOUNDS;
}

static const ga_md_state_t md_states[3] = { GA_MD_NONE, GA_MD_FAULT, GA_MD_OK };

/* Compare every model function with the reference on one case; returns the number of mismatches
 * and prints the first few (with the generator's reasons). */
static unsigned check_one(fmt_t f, ga_entry_t e, uint64_t p, uint32_t s, const char *why1, const char *why2,
                          unsigned *printed)
{
    unsigned bad = 0;
    unsigned tb = f.t_bits;
    bool c = ga_entry_covers(e, p, tb), m = ga_entry_matches(e, p, tb), ib = ga_access_in_bounds(e, p, s, tb);
    if (c != r_covers(f, e, p)) bad++;
    if (m != r_matches(f, e, p)) bad++;
    if (ib != r_inb(f, e, p, s)) bad++;
    for (int k = 0; k < 3; k++)
        if (ga_check_g_lane(p, s, md_states[k], e, tb) != r_g_lane(f, p, s, k, e)) bad++;
    if (bad != 0u && *printed < 8u) {
        (*printed)++;
        fprintf(stderr,
                "T=%u e.tb=%016llx e.size=%016llx p=%016llx S=%u: covers %d/%d matches %d/%d inb %d/%d "
                "g %d/%d [%s | %s]\n",
                tb, (unsigned long long)e.tb, (unsigned long long)e.size, (unsigned long long)p, s, c,
                r_covers(f, e, p), m, r_matches(f, e, p), ib, r_inb(f, e, p, s),
                ga_check_g_lane(p, s, GA_MD_OK, e, tb), r_g_lane(f, p, s, 2, e), why1 ? why1 : "random",
                why2 ? why2 : "random");
    }
    return bad;
}

/* ---- boundary tables x sizes x tag widths ----------------------------------------------------- */

START_TEST(test_tables_vs_reference)
{
    static const unsigned widths[2] = { 7u, 16u };
    unsigned tb = widths[_i];
    fmt_t f = fmt(tb);
    ga_gen_t g;
    ck_assert_int_eq(ga_gen_init(&g, SEED + tb, 1u, tb), GA_OK);
    ga_gen_check_t c;
    uint64_t n = 0, nrand = 0, kinds[GA_EXC_KINDS] = { 0 }, sizes[17] = { 0 };
    unsigned bad = 0, printed = 0;
    while (ga_gen_next_check(&g, &c)) {
        n++;
        nrand += c.random;
        sizes[c.size]++;
        kinds[r_g_lane(f, c.p, c.size, 2, c.e)]++;
        bad += check_one(f, c.e, c.p, c.size, c.e_why, c.p_why, &printed);
    }
    ck_assert_uint_eq(bad, 0);
    /* Level 1: one random case after every boundary case. */
    ck_assert_uint_eq(n, 2u * ga_gen_check_boundary_count(&g));
    ck_assert_uint_eq(nrand, ga_gen_check_boundary_count(&g));
    /* The tables must reach every outcome of the check, and every access size. */
    ck_assert_uint_gt(kinds[GA_EXC_NONE], 1000);
    ck_assert_uint_gt(kinds[GA_EXC_OUT_OF_BOUNDS], 1000);
    ck_assert_uint_gt(kinds[GA_EXC_USE_AFTER_FREE], 1000);
    ck_assert_uint_gt(kinds[GA_EXC_TAG_MISMATCH], 1000);
    for (unsigned s = 1; s <= 16; s *= 2) ck_assert_uint_gt(sizes[s], 1000);
}
END_TEST

/* Heavier random coverage at level 2 on a different seed (level 2: eight randoms per table case);
 * only the random half is compared, the tables were covered above. */
START_TEST(test_random_level2)
{
    unsigned tb = _i == 0 ? 7u : 16u;
    fmt_t f = fmt(tb);
    ga_gen_t g;
    ck_assert_int_eq(ga_gen_init(&g, SEED ^ 0xABCDEFu, 2u, tb), GA_OK);
    ga_gen_check_t c;
    unsigned bad = 0, printed = 0;
    uint64_t n = 0;
    while (ga_gen_next_check(&g, &c) && n < 400000u) {
        if (!c.random) continue;
        n++;
        bad += check_one(f, c.e, c.p, c.size, NULL, NULL, &printed);
    }
    ck_assert_uint_eq(bad, 0);
    ck_assert_uint_eq(n, 400000u);
}
END_TEST

/* ---- every tag ---------------------------------------------------------------------------------- */

/* Every (entry tag, pointer tag) pair at 7 bits — all 128 x 128, valid, 0 and F — and the generator's
 * tag sample at 16 bits, at positions inside, straddling the end and outside. */
START_TEST(test_every_tag)
{
    unsigned tb = _i == 0 ? 7u : 16u;
    fmt_t f = fmt(tb);
    ga_gen_t g;
    ck_assert_int_eq(ga_gen_init(&g, SEED, 1u, tb), GA_OK);
    uint64_t tags[2048];
    size_t nt = ga_gen_tags(&g, tags, 2048);
    ck_assert_uint_le(nt, 2048);
    if (tb == 7u) {
        ck_assert_uint_eq(nt, 128);
        for (size_t i = 0; i < nt; i++) REQUIRE(tags[i] == i, "tag %zu", i);
    } else {
        ck_assert_uint_eq(nt, 12u + 64u);
        ck_assert_uint_eq(tags[0], 0);
        ck_assert_uint_eq(tags[11], 0xFFFFu);
        for (size_t i = 12; i < nt; i++) REQUIRE(tags[i] >= 1u && tags[i] <= 0xFFFEu, "sample tag");
    }
    const uint64_t base = 0x4000, size = 100;
    const uint64_t offs[4] = { 0, 96, 97, 100 }; /* inside; S=4 ends at end; S=4 straddles; outside */
    unsigned bad = 0, printed = 0, passes = 0;
    for (size_t i = 0; i < nt; i++) {
        for (size_t j = 0; j < nt; j++) {
            ga_entry_t e = { ga_make_ptr(tags[i], base, tb), size };
            for (size_t k = 0; k < 4; k++) {
                uint64_t p = ga_make_ptr(tags[j], base + offs[k], tb);
                bad += check_one(f, e, p, 4u, "every tag", "every tag", &printed);
                if (ga_check_g_lane(p, 4u, GA_MD_OK, e, tb) == GA_EXC_NONE && tags[j] != 0u) passes++;
            }
        }
    }
    ck_assert_uint_eq(bad, 0);
    /* A tagged lane passes exactly for a valid equal tag at the two in-bounds positions. */
    unsigned valid = 0;
    for (size_t i = 0; i < nt; i++) valid += ga_tag_is_valid(tags[i], tb);
    if (tb == 7u) ck_assert_uint_eq(valid, 126);
    ck_assert_uint_eq(passes, 2u * valid);
}
END_TEST

/* ---- hand-written G6 edges (explicit, independent of the generator) ------------------------------ */

START_TEST(test_g6_edges)
{
    unsigned tb = _i == 0 ? 7u : 16u;
    uint64_t top = UINT64_C(1) << (64u - tb);
    uint64_t t = 5;
    /* Entry ending exactly at 2^V. */
    ga_entry_t e = { ga_make_ptr(t, top - 64u, tb), 64 };
    ck_assert(ga_access_in_bounds(e, ga_make_ptr(t, top - 1u, tb), 1, tb));
    ck_assert(!ga_access_in_bounds(e, ga_make_ptr(t, top - 1u, tb), 2, tb));
    ck_assert(ga_access_in_bounds(e, ga_make_ptr(t, top - 16u, tb), 16, tb));
    ck_assert(!ga_access_in_bounds(e, ga_make_ptr(t, top - 15u, tb), 16, tb));
    ck_assert(ga_access_in_bounds(e, ga_make_ptr(t, top - 64u, tb), 16, tb));
    ck_assert(!ga_access_in_bounds(e, ga_make_ptr(t, top - 65u, tb), 1, tb));
    /* Corrupt entry running past 2^V: the 2^V term alone stops the access. */
    ga_entry_t c = { ga_make_ptr(t, top - 8u, tb), 1000 };
    ck_assert(ga_entry_covers(c, ga_make_ptr(t, top - 1u, tb), tb));
    ck_assert(ga_access_in_bounds(c, ga_make_ptr(t, top - 2u, tb), 2, tb));
    ck_assert(!ga_access_in_bounds(c, ga_make_ptr(t, top - 1u, tb), 2, tb));
    ck_assert_int_eq(ga_check_g_lane(ga_make_ptr(t, top - 1u, tb), 2, GA_MD_OK, c, tb), GA_EXC_OUT_OF_BOUNDS);
    /* Corrupt entry with ebase + size = 2^64 exactly (a 64-bit sum would be 0). */
    ga_entry_t w = { ga_make_ptr(t, top - 8u, tb), 0u - (top - 8u) };
    ck_assert(ga_access_in_bounds(w, ga_make_ptr(t, top - 8u, tb), 8, tb));
    ck_assert(!ga_access_in_bounds(w, ga_make_ptr(t, top - 8u, tb), 16, tb));
    /* Size 0 and size 2^64 - 1. */
    ga_entry_t z = { ga_make_ptr(t, 0x1000, tb), 0 };
    ck_assert(!ga_entry_covers(z, ga_make_ptr(t, 0x1000, tb), tb));
    ck_assert(!ga_access_in_bounds(z, ga_make_ptr(t, 0x1000, tb), 1, tb));
    ga_entry_t m = { ga_make_ptr(t, 0x1000, tb), UINT64_MAX };
    ck_assert(ga_access_in_bounds(m, ga_make_ptr(t, top - 16u, tb), 16, tb));
    ck_assert(!ga_access_in_bounds(m, ga_make_ptr(t, 0xFFF, tb), 1, tb));
    /* Base 0: base - 1 is 2^V - 1 as a VA, far outside. */
    ga_entry_t b0 = { ga_make_ptr(t, 0, tb), 64 };
    ck_assert(!ga_entry_covers(b0, ga_make_ptr(t, top - 1u, tb), tb));
    /* Forged freed tag: live entry -> TAG_MISMATCH (G5), freed entry -> USE_AFTER_FREE (G4). */
    uint64_t fr = ga_tag_freed(tb);
    ck_assert_int_eq(ga_check_g_lane(ga_make_ptr(fr, top - 64u, tb), 1, GA_MD_OK, e, tb), GA_EXC_TAG_MISMATCH);
    ga_entry_t ef = { ga_make_ptr(fr, top - 64u, tb), 64 };
    ck_assert_int_eq(ga_check_g_lane(ga_make_ptr(fr, top - 64u, tb), 1, GA_MD_OK, ef, tb), GA_EXC_USE_AFTER_FREE);
    ck_assert(!ga_entry_matches(ef, ga_make_ptr(fr, top - 64u, tb), tb));
    /* Tag 0 passes whatever the metadata state. */
    for (int k = 0; k < 3; k++)
        ck_assert_int_eq(ga_check_g_lane(ga_make_ptr(0, top - 1u, tb), 16, md_states[k], ef, tb), GA_EXC_NONE);
    /* Tag-0 entry never matches. */
    ga_entry_t e0 = { ga_make_ptr(0, 0x1000, tb), 64 };
    ck_assert(!ga_entry_matches(e0, ga_make_ptr(0, 0x1000, tb), tb));
}
END_TEST

/* ---- MEMCHECK.S --------------------------------------------------------------------------------- */

START_TEST(test_shared_tables)
{
    ga_gen_t g;
    ck_assert_int_eq(ga_gen_init(&g, SEED, 2u, 7u), GA_OK);
    ga_gen_shared_t c;
    uint64_t n = 0, pass = 0;
    unsigned bad = 0;
    while (ga_gen_next_shared(&g, &c)) {
        n++;
        ga_exc_kind_t m = ga_check_s_lane(c.a, c.size, c.base, c.ssize);
        ga_exc_kind_t r = r_s_lane(c.a, c.size, c.base, c.ssize);
        pass += r == GA_EXC_NONE;
        if (m != r) {
            if (bad < 8u)
                fprintf(stderr, "S: a=%08x S=%u base=%08x size=%08x model %d ref %d [%s]\n", c.a, c.size, c.base,
                        c.ssize, m, r, c.why ? c.why : "random");
            bad++;
        }
    }
    ck_assert_uint_eq(bad, 0);
    ck_assert_uint_eq(n, 9u * ga_gen_shared_boundary_count(&g));
    ck_assert_uint_gt(pass, 1000);
    ck_assert_uint_gt(n - pass, 1000);
}
END_TEST

START_TEST(test_shared_2_32)
{
    /* Ends exactly at 2^32: the last 16 bytes are one legal access. */
    ck_assert_int_eq(ga_check_s_lane(0xFFFFFFF0u, 16, 0xFFFFFFF0u, 16), GA_EXC_NONE);
    ck_assert_int_eq(ga_check_s_lane(0xFFFFFFF1u, 16, 0xFFFFFFF0u, 16), GA_EXC_SHARED_OUT_OF_BOUNDS);
    ck_assert_int_eq(ga_check_s_lane(0xFFFFFFFFu, 1, 0xFFFFFFF0u, 16), GA_EXC_NONE);
    ck_assert_int_eq(ga_check_s_lane(0xFFFFFFFFu, 2, 0xFFFFFFF0u, 16), GA_EXC_SHARED_OUT_OF_BOUNDS);
    /* Corrupt range running past 2^32: 2^32 itself bounds. */
    ck_assert_int_eq(ga_check_s_lane(0xFFFFFFFFu, 1, 0xFFFFFF00u, 0x200u), GA_EXC_NONE);
    ck_assert_int_eq(ga_check_s_lane(0xFFFFFFFEu, 2, 0xFFFFFF00u, 0x200u), GA_EXC_NONE);
    ck_assert_int_eq(ga_check_s_lane(0xFFFFFFFFu, 2, 0xFFFFFF00u, 0x200u), GA_EXC_SHARED_OUT_OF_BOUNDS);
    ck_assert_int_eq(ga_check_s_lane(0xFFFFFFF8u, 16, 0xFFFFFF00u, 0x200u), GA_EXC_SHARED_OUT_OF_BOUNDS);
    /* Size 0; below the base; base + size wrapping 32 bits. */
    ck_assert_int_eq(ga_check_s_lane(0, 1, 0, 0), GA_EXC_SHARED_OUT_OF_BOUNDS);
    ck_assert_int_eq(ga_check_s_lane(0xFFF, 1, 0x1000, 16), GA_EXC_SHARED_OUT_OF_BOUNDS);
    ck_assert_int_eq(ga_check_s_lane(0xFFFFFFF0u, 16, 0x1000, 0xFFFFFFFFu), GA_EXC_NONE);
    ck_assert_int_eq(ga_check_s_lane(0x10u, 1, 0x1000, 0xFFFFFFFFu), GA_EXC_SHARED_OUT_OF_BOUNDS);
}
END_TEST

/* ---- warps --------------------------------------------------------------------------------------- */

/* Lane-by-lane reference composition of a MEMCHECK.G response. */
static void r_check_g(fmt_t f, const ga_warp_req_t *q, uint64_t md, int ms, ga_entry_t e, uint16_t sm,
                      ga_warp_rsp_t *r)
{
    memset(r, 0, sizeof *r);
    for (unsigned l = 0; l < q->lanes; l++) {
        r->addr[l] = r_va(f, q->addr[l]);
        if (!(q->active & (UINT32_C(1) << l))) continue;
        ga_exc_kind_t k = r_g_lane(f, q->addr[l], q->size, ms, e);
        if (k == GA_EXC_NONE) continue;
        if (r->fault == 0u) {
            r->rec.kind = k;
            r->rec.addr = q->addr[l];
            r->rec.size = q->size;
            r->rec.sm = sm;
            r->rec.warp = q->warp;
            r->rec.lane = (uint8_t)l;
            r->rec.md = md;
            if (ms == 2) r->rec.entry = e;
        }
        r->fault |= UINT32_C(1) << l;
    }
}

static bool rec_eq(const ga_exc_t *a, const ga_exc_t *b)
{
    return a->kind == b->kind && a->addr == b->addr && a->size == b->size && a->sm == b->sm && a->warp == b->warp &&
           a->lane == b->lane && a->md == b->md && a->entry.tb == b->entry.tb && a->entry.size == b->entry.size;
}

static bool rsp_eq(const ga_warp_rsp_t *a, const ga_warp_rsp_t *b)
{
    if (a->fault != b->fault || !rec_eq(&a->rec, &b->rec)) return false;
    for (unsigned l = 0; l < GA_LANES_MAX; l++)
        if (a->addr[l] != b->addr[l]) return false;
    return true;
}

START_TEST(test_warp_hand)
{
    unsigned tb = 7;
    ga_entry_t e = { ga_make_ptr(9, 0x1000, tb), 64 };
    ga_warp_req_t q;
    memset(&q, 0, sizeof q);
    q.lanes = 8;
    q.size = 4;
    q.warp = 0x1234;
    for (unsigned l = 0; l < 8; l++) q.addr[l] = ga_make_ptr(9, 0x1000 + 8u * l, tb);
    q.addr[2] = ga_make_ptr(9, 0x1040, tb);  /* OUT_OF_BOUNDS, but inactive */
    q.addr[5] = ga_make_ptr(9, 0x103E, tb);  /* OUT_OF_BOUNDS: straddles the end */
    q.addr[6] = ga_make_ptr(3, 0x1010, tb);  /* TAG_MISMATCH */
    q.addr[7] = ga_make_ptr(0, 0x99999, tb); /* tag 0: passes */
    q.active = 0xFFu & ~(1u << 2);
    ga_warp_rsp_t r;
    memset(&r, 0xA5, sizeof r);
    ga_check_g(&q, 0x5000, GA_MD_OK, e, 77, tb, &r);
    ck_assert_uint_eq(r.fault, (1u << 5) | (1u << 6));
    ck_assert_int_eq(r.rec.kind, GA_EXC_OUT_OF_BOUNDS);
    ck_assert_uint_eq(r.rec.lane, 5);
    ck_assert_uint_eq(r.rec.addr, q.addr[5]);
    ck_assert_uint_eq(r.rec.size, 4);
    ck_assert_uint_eq(r.rec.sm, 77);
    ck_assert_uint_eq(r.rec.warp, 0x1234);
    ck_assert_uint_eq(r.rec.md, 0x5000);
    ck_assert_uint_eq(r.rec.entry.tb, e.tb);
    ck_assert_uint_eq(r.rec.entry.size, 64);
    for (unsigned l = 0; l < 8; l++) ck_assert_uint_eq(r.addr[l], ga_va_of(q.addr[l], tb));
    for (unsigned l = 8; l < 32; l++) ck_assert_uint_eq(r.addr[l], 0);
    /* No entry (Rb = 0): every tagged active lane NO_METADATA, record md 0, entry zero. */
    ga_check_g(&q, 0, GA_MD_NONE, e, 1, tb, &r);
    ck_assert_uint_eq(r.fault, 0x7Bu & ~(1u << 7));
    ck_assert_int_eq(r.rec.kind, GA_EXC_NO_METADATA);
    ck_assert_uint_eq(r.rec.lane, 0);
    ck_assert_uint_eq(r.rec.md, 0);
    ck_assert_uint_eq(r.rec.entry.tb, 0);
    ck_assert_uint_eq(r.rec.entry.size, 0);
    /* Failed fetch: METADATA_FAULT, md = the Rb tried, entry zero. */
    ga_check_g(&q, 0x5008, GA_MD_FAULT, e, 1, tb, &r);
    ck_assert_int_eq(r.rec.kind, GA_EXC_METADATA_FAULT);
    ck_assert_uint_eq(r.rec.md, 0x5008);
    ck_assert_uint_eq(r.rec.entry.tb, 0);
    /* No active lane: nothing fails, record zero. */
    q.active = 0;
    ga_check_g(&q, 0, GA_MD_NONE, e, 1, tb, &r);
    ck_assert_uint_eq(r.fault, 0);
    ck_assert_int_eq(r.rec.kind, GA_EXC_NONE);
    ck_assert_uint_eq(r.rec.lane, 0);
    ck_assert_uint_eq(r.rec.sm, 0);
    ck_assert_uint_eq(r.addr[3], 0x1018);
}
END_TEST

START_TEST(test_warp_random)
{
    unsigned tb = _i == 0 ? 7u : 16u;
    fmt_t f = fmt(tb);
    ga_gen_t g;
    ck_assert_int_eq(ga_gen_init(&g, SEED * 3u + tb, 1u, tb), GA_OK);
    ga_entry_t tgt[4] = {
        { ga_make_ptr(3, 0x10000, tb), 256 },
        { ga_make_ptr(ga_tag_freed(tb), 0x20000, tb), 100 },
        { ga_make_ptr(ga_tag_freed(tb) - 1u, ga_va_mask(tb) - 63u, tb), 64 },
        { ga_make_ptr(1, 0x30000, tb), 1 },
    };
    unsigned bad = 0;
    for (unsigned it = 0; it < 20000; it++) {
        ga_warp_req_t q;
        ga_gen_warp(&g, tgt, 4, 1u + (unsigned)(it % 32u), &q);
        REQUIRE(q.lanes == 1u + it % 32u, "lanes");
        REQUIRE(q.lanes == 32u || (q.active >> q.lanes) == 0u, "active beyond lanes");
        int ms = (int)(it % 3u);
        ga_entry_t e = tgt[it % 4u];
        uint64_t md = ms == 0 ? 0u : 0x8000u + 16u * (it % 4u);
        ga_warp_rsp_t m, r;
        ga_check_g(&q, md, md_states[ms], e, (uint16_t)it, tb, &m);
        r_check_g(f, &q, md, ms, e, (uint16_t)it, &r);
        bad += !rsp_eq(&m, &r);
    }
    ck_assert_uint_eq(bad, 0);
}
END_TEST

START_TEST(test_shared_warp)
{
    ga_warp_req_t q;
    memset(&q, 0, sizeof q);
    q.lanes = 32;
    q.active = 0xFFFFFFFFu & ~1u;
    q.size = 8;
    q.warp = 3;
    for (unsigned l = 0; l < 32; l++) q.addr[l] = 0x100u + 8u * l;
    q.addr[0] = 0x50;                               /* out, but inactive */
    q.addr[4] = UINT64_C(0xABCD000000000050);       /* high bits ignored: 0x50 is out */
    q.addr[31] = 0x1FC;                             /* straddles the end 0x200 */
    ga_warp_rsp_t r;
    memset(&r, 0xFF, sizeof r);
    ga_check_s(&q, 0x100, 0x100, 9, &r);
    ck_assert_uint_eq(r.fault, (1u << 4) | (1u << 31));
    ck_assert_int_eq(r.rec.kind, GA_EXC_SHARED_OUT_OF_BOUNDS);
    ck_assert_uint_eq(r.rec.lane, 4);
    ck_assert_uint_eq(r.rec.addr, 0x50); /* zero-extended low 32 bits */
    ck_assert_uint_eq(r.rec.size, 8);
    ck_assert_uint_eq(r.rec.sm, 9);
    ck_assert_uint_eq(r.rec.warp, 3);
    ck_assert_uint_eq(r.rec.md, 0);
    ck_assert_uint_eq(r.rec.entry.tb, 0x100);
    ck_assert_uint_eq(r.rec.entry.size, 0x100);
    for (unsigned l = 0; l < 32; l++) ck_assert_uint_eq(r.addr[l], 0);
}
END_TEST

/* ---- the generator itself: deterministic, level 0 independent of the seed ---------------------- */

START_TEST(test_generator_determinism)
{
    ga_gen_t a, b, c;
    ck_assert_int_eq(ga_gen_init(&a, 1, 1, 16), GA_OK);
    ck_assert_int_eq(ga_gen_init(&b, 1, 1, 16), GA_OK);
    ck_assert_int_eq(ga_gen_init(&c, 2, 1, 16), GA_OK);
    ga_gen_check_t x, y, z;
    unsigned differ = 0;
    for (int i = 0; i < 5000; i++) {
        REQUIRE(ga_gen_next_check(&a, &x) && ga_gen_next_check(&b, &y) && ga_gen_next_check(&c, &z), "end");
        REQUIRE(x.e.tb == y.e.tb && x.e.size == y.e.size && x.p == y.p && x.size == y.size, "same seed differs");
        differ += x.p != z.p || x.e.tb != z.e.tb || x.e.size != z.e.size;
    }
    ck_assert_uint_gt(differ, 100);
    ga_gen_rewind(&a);
    ga_gen_rewind(&b);
    ck_assert(ga_gen_next_check(&a, &x));
    ck_assert(!x.random);
    ck_assert_ptr_nonnull(x.e_why);
    /* Level 0 is the bare tables: the same for every seed, no random case. */
    ga_gen_t l0a, l0b;
    ck_assert_int_eq(ga_gen_init(&l0a, 11, 0, 7), GA_OK);
    ck_assert_int_eq(ga_gen_init(&l0b, 12, 0, 7), GA_OK);
    uint64_t n = 0;
    while (ga_gen_next_check(&l0a, &x)) {
        REQUIRE(ga_gen_next_check(&l0b, &y), "end");
        REQUIRE(!x.random, "random case at level 0");
        REQUIRE(x.p == y.p && x.e.tb == y.e.tb && x.e.size == y.e.size && x.size == y.size, "level 0 differs");
        n++;
    }
    ck_assert(!ga_gen_next_check(&l0b, &y));
    ck_assert_uint_eq(n, ga_gen_check_boundary_count(&l0a));
    /* Parameters. */
    ck_assert_int_eq(ga_gen_init(&a, 1, 3, 7), GA_ERR_BAD_PARAM);
    ck_assert_int_eq(ga_gen_init(&a, 1, 0, 8), GA_ERR_BAD_PARAM);
    ck_assert_int_eq(ga_gen_init(NULL, 1, 0, 7), GA_ERR_BAD_PARAM);
    /* Sizes it hands out. */
    for (int i = 0; i < 2000; i++) {
        uint32_t s = ga_gen_access_size(&c);
        REQUIRE(s == 1 || s == 2 || s == 4 || s == 8 || s == 16, "access size %u", s);
        REQUIRE(ga_gen_alloc_size(&c) != 0, "alloc size 0");
        uint64_t t = ga_gen_valid_tag(&c);
        REQUIRE(t >= 1 && t <= 0xFFFE, "tag");
    }
}
END_TEST

/* ---- names -------------------------------------------------------------------------------------- */

START_TEST(test_names)
{
    ck_assert_str_eq(ga_exc_name(GA_EXC_NONE), "NONE");
    ck_assert_str_eq(ga_exc_name(GA_EXC_OUT_OF_BOUNDS), "OUT_OF_BOUNDS");
    ck_assert_str_eq(ga_exc_name(GA_EXC_USE_AFTER_FREE), "USE_AFTER_FREE");
    ck_assert_str_eq(ga_exc_name(GA_EXC_TAG_MISMATCH), "TAG_MISMATCH");
    ck_assert_str_eq(ga_exc_name(GA_EXC_NO_METADATA), "NO_METADATA");
    ck_assert_str_eq(ga_exc_name(GA_EXC_SHARED_OUT_OF_BOUNDS), "SHARED_OUT_OF_BOUNDS");
    ck_assert_str_eq(ga_exc_name(GA_EXC_METADATA_FAULT), "METADATA_FAULT");
    ck_assert_str_eq(ga_exc_name(GA_EXC_KINDS), "?");
    ck_assert_str_eq(ga_exc_name((ga_exc_kind_t)-1), "?");
    ck_assert_str_eq(ga_layout_name(GA_LAYOUT_LIST), "list");
    ck_assert_str_eq(ga_layout_name(GA_LAYOUT_BST), "bst");
    ck_assert_str_eq(ga_layout_name(GA_LAYOUT_TABLE), "table");
    ck_assert_str_eq(ga_layout_name(GA_LAYOUT_INDEX), "index");
    ck_assert_str_eq(ga_layout_name((ga_layout_t)GA_LAYOUTS), "?");
    ck_assert_str_eq(ga_layout_name((ga_layout_t)-1), "?");
    ck_assert_str_eq(ga_strerror(GA_OK), "success");
    for (int e = 0; e < GA_ERR_CODES; e++) {
        ck_assert_ptr_nonnull(ga_strerror((ga_err_t)e));
        ck_assert_uint_gt(strlen(ga_strerror((ga_err_t)e)), 3);
        for (int e2 = 0; e2 < e; e2++) ck_assert_str_ne(ga_strerror((ga_err_t)e), ga_strerror((ga_err_t)e2));
    }
    ck_assert_str_eq(ga_strerror(GA_ERR_CODES), "unknown error");
    ck_assert_str_eq(ga_strerror((ga_err_t)-5), "unknown error");
}
END_TEST

static Suite *check_suite(void)
{
    Suite *s = suite_create("check");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_loop_test(tc, test_tables_vs_reference, 0, 2);
    tcase_add_loop_test(tc, test_random_level2, 0, 2);
    tcase_add_loop_test(tc, test_every_tag, 0, 2);
    tcase_add_loop_test(tc, test_g6_edges, 0, 2);
    tcase_add_test(tc, test_shared_tables);
    tcase_add_test(tc, test_shared_2_32);
    tcase_add_test(tc, test_warp_hand);
    tcase_add_loop_test(tc, test_warp_random, 0, 2);
    tcase_add_test(tc, test_shared_warp);
    tcase_add_test(tc, test_generator_determinism);
    tcase_add_test(tc, test_names);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(check_suite());
    srunner_run_all(sr, CK_ENV);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
