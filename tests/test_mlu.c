/*
 * test_mlu.c — one SM's MLU in atomic form (spec §3–§6): LOADMETA, MEMCHECK.G, MEMCHECK.S, plain
 * accesses in COMPILER and HWONLY mode, the policy, racing invalidations and the counters.
 *
 * Metadata is built by hand in a ga_mem; a recording memif logs every read (address, length, order)
 * and can run a hook in the middle of a read (an invalidation committing while a walk or fetch is in
 * flight, spec §6.5). Results are compared with expectations written out by hand and, for random
 * warps from the shared generator, with a lane-by-lane reference composition written here: each lane
 * decided alone from the test's own list of entries with exact-integer bounds.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ga_gen.h"
#include "ga_mlu.h"

/* A check for hot loops: Check's ck_assert_* reports every passing assertion's location to the
 * parent process (a system call each in fork mode), so loops use this plain test instead. */
#define REQUIRE(cond, ...)                                                                           \
    do {                                                                                             \
        if (!(cond)) ck_abort_msg(__VA_ARGS__);                                                      \
    } while (0)

typedef unsigned __int128 u128;

#define LOGMAX 1024
#define MAXENT 64

/* ---- the environment: memory, recording memif, oracle, MLU ---------------------------------------- */

typedef struct {
    ga_mem_t *mem;
    ga_mlu_t u;
    unsigned tb;
    /* read log */
    unsigned n;
    uint64_t addr[LOGMAX];
    uint32_t len[LOGMAX];
    /* hook: after read number hook_at (1-based) is served, invalidate hook_loc (and, if hook_free,
     * first write the freed tag into the entry at hook_loc, as the runtime's free does) */
    unsigned hook_at;
    uint64_t hook_loc;
    bool hook_free;
    /* configuration hook: after read number cfg_at (1-based) is served, write every register to
     * cfg_new (a CFG_WRITE committing while the operation's walk or fetch is in flight, spec §8) */
    unsigned cfg_at;
    ga_mlu_cfg_t cfg_new;
    /* the test's view of the structure: entries, their locations, table slots */
    unsigned ne;
    ga_entry_t e[MAXENT];
    uint64_t loc[MAXENT];
    uint64_t slot[MAXENT];
    /* exception callback log */
    unsigned exc_calls;
    ga_exc_t exc_last;
} env_t;

static void write_tb(env_t *v, uint64_t loc, uint64_t tb)
{
    uint8_t b[8];
    ga_put_le64(b, tb);
    ck_assert_int_eq(ga_mem_write(v->mem, loc, b, 8), GA_OK);
}

static int env_read(void *ctx, uint64_t addr, uint32_t len, uint8_t *buf)
{
    env_t *v = ctx;
    if (v->n < LOGMAX) {
        v->addr[v->n] = addr;
        v->len[v->n] = len;
    }
    v->n++;
    int rc = ga_mem_read(v->mem, addr, buf, len) != GA_MEM_OK;
    if (v->hook_at != 0u && v->n == v->hook_at) {
        if (v->hook_free) {
            uint8_t b[8];
            ck_assert_int_eq(ga_mem_read(v->mem, v->hook_loc, b, 8), GA_MEM_OK);
            write_tb(v, v->hook_loc, ga_make_ptr(ga_tag_freed(v->tb), ga_va_of(ga_le64(b), v->tb), v->tb));
        }
        ga_mlu_invalidate(&v->u, v->hook_loc);
    }
    if (v->cfg_at != 0u && v->n == v->cfg_at) ck_assert_int_eq(ga_mlu_configure(&v->u, &v->cfg_new), GA_OK);
    return rc;
}

/* TABLE oracle over the test's entries: the slot whose range contains va, tags ignored. */
static int env_oracle(void *ctx, uint64_t va, uint64_t *idx)
{
    env_t *v = ctx;
    for (unsigned j = 0; j < v->ne; j++) {
        u128 b = ga_va_of(v->e[j].tb, v->tb);
        if (b <= va && va < b + v->e[j].size) {
            *idx = v->slot[j];
            return 1;
        }
    }
    return 0;
}

static void on_exc(void *ctx, const ga_exc_t *rec)
{
    env_t *v = ctx;
    v->exc_calls++;
    v->exc_last = *rec;
}

static env_t *env_new(unsigned tb, unsigned mlb_n)
{
    env_t *v = calloc(1, sizeof *v);
    ck_assert_ptr_nonnull(v);
    v->tb = tb;
    ck_assert_int_eq(ga_mem_create(&v->mem), GA_OK);
    ga_memif_t mi = { env_read, v, env_oracle, v };
    ck_assert_int_eq(ga_mlu_init(&v->u, tb, mlb_n, &mi), GA_OK);
    v->u.on_exc = on_exc;
    v->u.on_exc_ctx = v;
    return v;
}

static void env_free(env_t *v)
{
    ga_mem_destroy(v->mem);
    free(v);
}

static void set_cfg(env_t *v, ga_mode_t mode, ga_layout_t layout, uint64_t root, ga_policy_t pol)
{
    ga_mlu_cfg_t c = v->u.cfg;
    c.mode = mode;
    c.layout = layout;
    c.root = root;
    c.policy = pol;
    ck_assert_int_eq(ga_mlu_configure(&v->u, &c), GA_OK);
}

static void put_node(env_t *v, uint64_t loc, ga_entry_t e, uint64_t p16, uint64_t p24)
{
    uint8_t b[32];
    ga_put_le64(b, e.tb);
    ga_put_le64(b + 8, e.size);
    ga_put_le64(b + 16, p16);
    ga_put_le64(b + 24, p24);
    ck_assert_int_eq(ga_mem_write(v->mem, loc, b, sizeof b), GA_OK);
}

static void put_entry(env_t *v, uint64_t loc, ga_entry_t e)
{
    uint8_t b[16];
    ga_put_le64(b, e.tb);
    ga_put_le64(b + 8, e.size);
    ck_assert_int_eq(ga_mem_write(v->mem, loc, b, sizeof b), GA_OK);
}

static ga_entry_t mk(env_t *v, uint64_t tag, uint64_t base, uint64_t size)
{
    ga_entry_t e = { ga_make_ptr(tag, base, v->tb), size };
    return e;
}

/* The hand-built list used by most tests: A -> B -> C -> D.
 *   A @0x10000 [0x1000, +0x100) tag 5
 *   B @0x10020 [0x2000, +0x40)  tag 6
 *   C @0x10040 [0x3000, +0x80)  freed
 *   D @0x10060 [0x4000, +0x10)  tag 7                                                           */
#define LA 0x10000u
#define LB 0x10020u
#define LC 0x10040u
#define LD 0x10060u
static void build_list(env_t *v)
{
    v->ne = 4;
    v->e[0] = mk(v, 5, 0x1000, 0x100);
    v->e[1] = mk(v, 6, 0x2000, 0x40);
    v->e[2] = mk(v, ga_tag_freed(v->tb), 0x3000, 0x80);
    v->e[3] = mk(v, 7, 0x4000, 0x10);
    for (unsigned j = 0; j < 4; j++) {
        v->loc[j] = LA + 32u * j;
        put_node(v, v->loc[j], v->e[j], j == 3 ? 0 : LA + 32u * (j + 1u), j == 0 ? 0 : LA + 32u * (j - 1u));
    }
    set_cfg(v, GA_MODE_COMPILER, GA_LAYOUT_LIST, LA, GA_POLICY_REPORT);
}

static void expect_reads(const env_t *v, const uint64_t *locs, unsigned n, uint32_t len)
{
    ck_assert_uint_eq(v->n, n);
    for (unsigned i = 0; i < n; i++) {
        ck_assert_msg(v->addr[i] == locs[i], "read %u at %llx, expected %llx", i, (unsigned long long)v->addr[i],
                      (unsigned long long)locs[i]);
        ck_assert_uint_eq(v->len[i], len);
    }
}

static ga_warp_req_t warp1(uint64_t p, uint32_t size)
{
    ga_warp_req_t q;
    memset(&q, 0, sizeof q);
    q.lanes = 1;
    q.active = 1;
    q.size = size;
    q.addr[0] = p;
    return q;
}

/* A one-lane request as an lvalue-free pointer argument. */
#define W1(p, s) ((const ga_warp_req_t[1]){ warp1((p), (s)) })

static bool cfg_eq(const ga_mlu_cfg_t *a, const ga_mlu_cfg_t *b)
{
    return a->mode == b->mode && a->layout == b->layout && a->root == b->root && a->step_limit == b->step_limit &&
           a->policy == b->policy && a->sm_id == b->sm_id;
}

/* ---- init and configuration ---------------------------------------------------------------------- */

START_TEST(test_init_and_config)
{
    env_t *v = env_new(7, 8);
    ga_memif_t mi = { env_read, v, NULL, NULL }, bad = { NULL, NULL, NULL, NULL };
    ga_mlu_t u;
    ck_assert_int_eq(ga_mlu_init(&u, 8, 8, &mi), GA_ERR_BAD_PARAM);
    ck_assert_int_eq(ga_mlu_init(&u, 7, 0, &mi), GA_ERR_BAD_PARAM);
    ck_assert_int_eq(ga_mlu_init(&u, 7, 65, &mi), GA_ERR_BAD_PARAM);
    ck_assert_int_eq(ga_mlu_init(&u, 7, 8, NULL), GA_ERR_BAD_PARAM);
    ck_assert_int_eq(ga_mlu_init(&u, 7, 8, &bad), GA_ERR_BAD_PARAM);
    ck_assert_int_eq(ga_mlu_init(&u, 16, 64, &mi), GA_OK);
    /* Reset values (spec §5.1). */
    ck_assert_int_eq(u.cfg.mode, GA_MODE_COMPILER);
    ck_assert_int_eq(u.cfg.layout, GA_LAYOUT_BST);
    ck_assert_uint_eq(u.cfg.root, 0);
    ck_assert_uint_eq(u.cfg.step_limit, 65536);
    ck_assert_int_eq(u.cfg.policy, GA_POLICY_REPORT);
    ck_assert_uint_eq(u.cfg.sm_id, 0);
    ck_assert(!u.halted);
    ck_assert_uint_eq(u.mlb.n, 64);
    ck_assert_uint_eq(u.mlb.gen, 0);
    ck_assert_uint_eq(u.st.loadmeta, 0);
    /* Illegal register values are refused and change nothing. */
    ga_mlu_cfg_t c = u.cfg, ok = u.cfg;
    c.mode = (ga_mode_t)2;
    ck_assert_int_eq(ga_mlu_configure(&u, &c), GA_ERR_BAD_PARAM);
    c = ok;
    c.layout = (ga_layout_t)GA_LAYOUTS;
    ck_assert_int_eq(ga_mlu_configure(&u, &c), GA_ERR_BAD_PARAM);
    c = ok;
    c.step_limit = 0;
    ck_assert_int_eq(ga_mlu_configure(&u, &c), GA_ERR_BAD_PARAM);
    c = ok;
    c.policy = (ga_policy_t)2;
    ck_assert_int_eq(ga_mlu_configure(&u, &c), GA_ERR_BAD_PARAM);
    ck_assert_int_eq(ga_mlu_configure(&u, NULL), GA_ERR_BAD_PARAM);
    ck_assert(cfg_eq(&u.cfg, &ok));
    /* Legal extremes. */
    c = ok;
    c.step_limit = UINT32_MAX;
    c.sm_id = 0xFFFF;
    c.layout = GA_LAYOUT_TABLE;
    c.mode = GA_MODE_HWONLY;
    c.policy = GA_POLICY_TERMINATE;
    c.root = UINT64_MAX;
    ck_assert_int_eq(ga_mlu_configure(&u, &c), GA_OK);
    ck_assert_uint_eq(u.cfg.step_limit, UINT32_MAX);
    ga_mlu_set_root(&u, 0x1234);
    ck_assert_uint_eq(u.cfg.root, 0x1234);
    env_free(v);
}
END_TEST

/* ---- LOADMETA ------------------------------------------------------------------------------------ */

START_TEST(test_loadmeta)
{
    unsigned tb = _i == 0 ? 7u : 16u;
    env_t *v = env_new(tb, 8);
    build_list(v);
    uint64_t rd = 99;

    /* Tag 0 and the freed tag: 0 without an MLB access or a read. */
    ga_mlb_t before;
    memcpy(&before, &v->u.mlb, sizeof before);
    ck_assert_int_eq(ga_mlu_loadmeta(&v->u, ga_make_ptr(0, 0x1000, tb), &rd), GA_OK);
    ck_assert_uint_eq(rd, 0);
    rd = 99;
    ck_assert_int_eq(ga_mlu_loadmeta(&v->u, ga_make_ptr(ga_tag_freed(tb), 0x1000, tb), &rd), GA_OK);
    ck_assert_uint_eq(rd, 0);
    ck_assert_uint_eq(v->n, 0);
    ck_assert_mem_eq(&v->u.mlb, &before, sizeof before);
    ck_assert_uint_eq(v->u.st.loadmeta, 2);
    ck_assert_uint_eq(v->u.st.loadmeta_unchecked, 2);
    ck_assert_uint_eq(v->u.st.loadmeta_zero, 2);
    ck_assert_uint_eq(v->u.st.walks, 0);

    /* Miss: walk A, B; fill B at the lowest invalid entry; return LB. */
    ck_assert_int_eq(ga_mlu_loadmeta(&v->u, ga_make_ptr(6, 0x203F, tb), &rd), GA_OK);
    ck_assert_uint_eq(rd, LB);
    expect_reads(v, (const uint64_t[]){ LA, LB }, 2, 32);
    ck_assert(v->u.mlb.valid[0]);
    ck_assert_uint_eq(v->u.mlb.loc[0], LB);
    ck_assert_uint_eq(v->u.mlb.e[0].tb, v->e[1].tb);
    ck_assert_uint_eq(v->u.mlb.e[0].size, 0x40);
    ck_assert_uint_eq(v->u.st.walks, 1);
    ck_assert_uint_eq(v->u.st.walk_steps, 2);
    ck_assert_uint_eq(v->u.st.walk_max, 2);
    ck_assert_uint_eq(v->u.st.walk_end[GA_WALK_FOUND], 1);
    ck_assert_uint_eq(v->u.st.fills, 1);
    ck_assert_uint_eq(v->u.st.md_reads, 2);
    ck_assert_uint_eq(v->u.st.md_read_bytes, 64);

    /* Hit: another address in B, no read. */
    v->n = 0;
    ck_assert_int_eq(ga_mlu_loadmeta(&v->u, ga_make_ptr(6, 0x2000, tb), &rd), GA_OK);
    ck_assert_uint_eq(rd, LB);
    ck_assert_uint_eq(v->n, 0);
    ck_assert_uint_eq(v->u.st.loadmeta_hits, 1);

    /* A second allocation fills the next entry and becomes MRU; a hit on B makes B MRU again. */
    ck_assert_int_eq(ga_mlu_loadmeta(&v->u, ga_make_ptr(7, 0x4000, tb), &rd), GA_OK);
    ck_assert_uint_eq(rd, LD);
    ck_assert_uint_eq(v->u.mlb.age[1], 0);
    ck_assert_uint_eq(v->u.mlb.age[0], 1);
    ck_assert_uint_eq(v->u.st.walk_max, 4);
    ck_assert_int_eq(ga_mlu_loadmeta(&v->u, ga_make_ptr(6, 0x2001, tb), &rd), GA_OK);
    ck_assert_uint_eq(v->u.mlb.age[0], 0);

    /* Failures return 0, never fill, never raise, even under TERMINATE. */
    set_cfg(v, GA_MODE_COMPILER, GA_LAYOUT_LIST, LA, GA_POLICY_TERMINATE);
    uint64_t fills = v->u.st.fills;
    v->n = 0;
    ck_assert_int_eq(ga_mlu_loadmeta(&v->u, ga_make_ptr(6, 0x3000, tb), &rd), GA_OK); /* freed C */
    ck_assert_uint_eq(rd, 0);
    expect_reads(v, (const uint64_t[]){ LA, LB, LC }, 3, 32);
    ck_assert_int_eq(ga_mlu_loadmeta(&v->u, ga_make_ptr(9, 0x1000, tb), &rd), GA_OK); /* tag mismatch */
    ck_assert_uint_eq(rd, 0);
    ck_assert_int_eq(ga_mlu_loadmeta(&v->u, ga_make_ptr(6, 0x9000, tb), &rd), GA_OK); /* nothing */
    ck_assert_uint_eq(rd, 0);
    ga_mlu_set_root(&v->u, LA + 16u); /* misaligned */
    v->n = 0;
    ck_assert_int_eq(ga_mlu_loadmeta(&v->u, ga_make_ptr(5, 0x1000, tb), &rd), GA_OK);
    ck_assert_uint_eq(rd, 0);
    ck_assert_uint_eq(v->n, 0);
    ga_mlu_set_root(&v->u, LA);
    ck_assert_int_eq(ga_mem_poison(v->mem, LA, 1), GA_OK); /* error response */
    ck_assert_int_eq(ga_mlu_loadmeta(&v->u, ga_make_ptr(5, 0x1000, tb), &rd), GA_OK);
    ck_assert_uint_eq(rd, 0);
    ga_mem_unpoison_all(v->mem);
    ga_mlu_cfg_t c = v->u.cfg;
    c.step_limit = 1;
    ck_assert_int_eq(ga_mlu_configure(&v->u, &c), GA_OK);
    v->n = 0;
    ck_assert_int_eq(ga_mlu_loadmeta(&v->u, ga_make_ptr(9, 0x9000, tb), &rd), GA_OK); /* step limit */
    ck_assert_uint_eq(rd, 0);
    ck_assert_uint_eq(v->n, 1);
    ck_assert_uint_eq(v->u.st.fills, fills);
    ck_assert(!v->u.halted);
    ck_assert_uint_eq(v->exc_calls, 0);
    ck_assert_uint_eq(v->u.st.faulting_ops, 0);
    ck_assert_uint_eq(v->u.st.walk_end[GA_WALK_RANGE_ONLY], 2);
    ck_assert_uint_eq(v->u.st.walk_end[GA_WALK_NOT_FOUND], 1);
    ck_assert_uint_eq(v->u.st.walk_end[GA_WALK_FAULT], 2);
    ck_assert_uint_eq(v->u.st.walk_end[GA_WALK_STEP_LIMIT], 1);
    /* The MLB answers hits whatever the structure or limit now says (no read). */
    v->n = 0;
    ck_assert_int_eq(ga_mlu_loadmeta(&v->u, ga_make_ptr(7, 0x400F, tb), &rd), GA_OK);
    ck_assert_uint_eq(rd, LD);
    ck_assert_uint_eq(v->n, 0);
    ck_assert_int_eq(ga_mlu_loadmeta(&v->u, ga_make_ptr(7, 0x4000, tb), NULL), GA_ERR_BAD_PARAM);
    ck_assert_int_eq(ga_mlu_loadmeta(NULL, ga_make_ptr(7, 0x4000, tb), &rd), GA_ERR_BAD_PARAM);
    env_free(v);
}
END_TEST

/* ---- MEMCHECK.G ---------------------------------------------------------------------------------- */

START_TEST(test_memcheck_g_rules)
{
    unsigned tb = _i == 0 ? 7u : 16u;
    env_t *v = env_new(tb, 8);
    build_list(v);
    v->u.cfg.sm_id = 42;
    ga_warp_rsp_t r;
    ga_warp_req_t q;
    memset(&q, 0, sizeof q);
    q.lanes = 8;
    q.size = 4;
    q.warp = 17;

    /* G1: only tag-0 lanes active: no fetch, no read, even with a bad md. */
    for (unsigned l = 0; l < 8; l++) q.addr[l] = ga_make_ptr(0, 0x1000 + 4u * l, tb);
    q.addr[7] = ga_make_ptr(5, 0x1000, tb); /* tagged but inactive */
    q.active = 0x7F;
    ck_assert_int_eq(ga_mlu_memcheck_g(&v->u, &q, LA + 8u, &r), GA_OK);
    ck_assert_uint_eq(r.fault, 0);
    ck_assert_uint_eq(v->n, 0);
    ck_assert_uint_eq(v->u.st.fetches, 0);
    ck_assert_uint_eq(r.addr[7], 0x1000);
    ck_assert_uint_eq(r.addr[3], 0x100C);

    /* G2: md = 0 with tagged lanes: NO_METADATA on each, no read. */
    for (unsigned l = 0; l < 8; l++) q.addr[l] = ga_make_ptr(5, 0x1000 + 4u * l, tb);
    q.addr[0] = ga_make_ptr(0, 0x1000, tb);
    q.active = 0xFF;
    ck_assert_int_eq(ga_mlu_memcheck_g(&v->u, &q, 0, &r), GA_OK);
    ck_assert_uint_eq(r.fault, 0xFE);
    ck_assert_int_eq(r.rec.kind, GA_EXC_NO_METADATA);
    ck_assert_uint_eq(r.rec.lane, 1);
    ck_assert_uint_eq(r.rec.md, 0);
    ck_assert_uint_eq(r.rec.entry.tb, 0);
    ck_assert_uint_eq(r.rec.sm, 42);
    ck_assert_uint_eq(r.rec.warp, 17);
    ck_assert_uint_eq(r.rec.size, 4);
    ck_assert_uint_eq(r.rec.addr, q.addr[1]);
    ck_assert_uint_eq(v->n, 0);

    /* G3: misaligned md: METADATA_FAULT, no read; md recorded, entry zero. */
    ck_assert_int_eq(ga_mlu_memcheck_g(&v->u, &q, LA + 8u, &r), GA_OK);
    ck_assert_uint_eq(r.fault, 0xFE);
    ck_assert_int_eq(r.rec.kind, GA_EXC_METADATA_FAULT);
    ck_assert_uint_eq(r.rec.md, LA + 8u);
    ck_assert_uint_eq(r.rec.entry.tb, 0);
    ck_assert_uint_eq(v->n, 0);
    /* G3: error response: one 16-byte read, then METADATA_FAULT; nothing filled. */
    ck_assert_int_eq(ga_mem_poison(v->mem, LA + 15u, 1), GA_OK);
    ck_assert_int_eq(ga_mlu_memcheck_g(&v->u, &q, LA, &r), GA_OK);
    ck_assert_int_eq(r.rec.kind, GA_EXC_METADATA_FAULT);
    expect_reads(v, (const uint64_t[]){ LA }, 1, 16);
    ck_assert(!v->u.mlb.valid[0]);
    ga_mem_unpoison_all(v->mem);

    /* G7 and fetch once per warp: 32 lanes, one 16-byte read; the valid entry is filled. */
    ga_warp_req_t w;
    memset(&w, 0, sizeof w);
    w.lanes = 32;
    w.active = UINT32_MAX;
    w.size = 8;
    for (unsigned l = 0; l < 32; l++) w.addr[l] = ga_make_ptr(5, 0x1000 + 8u * l, tb);
    v->n = 0;
    ck_assert_int_eq(ga_mlu_memcheck_g(&v->u, &w, LA, &r), GA_OK);
    ck_assert_uint_eq(r.fault, 0);
    ck_assert_int_eq(r.rec.kind, GA_EXC_NONE);
    expect_reads(v, (const uint64_t[]){ LA }, 1, 16);
    ck_assert(v->u.mlb.valid[0]);
    ck_assert_uint_eq(v->u.mlb.loc[0], LA);
    for (unsigned l = 0; l < 32; l++) ck_assert_uint_eq(r.addr[l], 0x1000 + 8u * l);
    /* Again: an MLB location hit, no read. */
    v->n = 0;
    ck_assert_int_eq(ga_mlu_memcheck_g(&v->u, &w, LA, &r), GA_OK);
    ck_assert_uint_eq(v->n, 0);
    ck_assert_uint_eq(v->u.st.fetch_hits, 1);

    /* G5 and G6 in one warp, record of the lowest failing lane; an inactive failing lane below is
     * ignored. */
    w.addr[3] = ga_make_ptr(4, 0x1018, tb);   /* TAG_MISMATCH, inactive */
    w.addr[9] = ga_make_ptr(5, 0x10FC, tb);   /* 8 bytes from the last 4: OUT_OF_BOUNDS */
    w.addr[12] = ga_make_ptr(6, 0x1060, tb);  /* TAG_MISMATCH */
    w.addr[20] = ga_make_ptr(5, 0x0FFF, tb);  /* below the base: OUT_OF_BOUNDS */
    w.addr[21] = ga_make_ptr(0, 0x0FFF, tb);  /* tag 0: passes */
    w.active = UINT32_MAX & ~(1u << 3);
    ck_assert_int_eq(ga_mlu_memcheck_g(&v->u, &w, LA, &r), GA_OK);
    ck_assert_uint_eq(r.fault, (1u << 9) | (1u << 12) | (1u << 20));
    ck_assert_int_eq(r.rec.kind, GA_EXC_OUT_OF_BOUNDS);
    ck_assert_uint_eq(r.rec.lane, 9);
    ck_assert_uint_eq(r.rec.md, LA);
    ck_assert_uint_eq(r.rec.entry.tb, v->e[0].tb);
    ck_assert_uint_eq(r.rec.entry.size, 0x100);
    ck_assert_uint_eq(r.rec.size, 8);
    ck_assert_uint_eq(v->u.st.faulting_lanes[GA_EXC_OUT_OF_BOUNDS], 2);
    ck_assert_uint_eq(v->u.st.faulting_lanes[GA_EXC_TAG_MISMATCH], 1);

    /* G4: the freed C: USE_AFTER_FREE, not filled. */
    v->n = 0;
    unsigned fills = (unsigned)v->u.st.fills;
    ck_assert_int_eq(ga_mlu_memcheck_g(&v->u, W1(ga_make_ptr(9, 0x3000, tb), 1), LC, &r), GA_OK);
    ck_assert_int_eq(r.rec.kind, GA_EXC_USE_AFTER_FREE);
    ck_assert_uint_eq(r.rec.md, LC);
    ck_assert_uint_eq(r.rec.entry.tb, v->e[2].tb);
    ck_assert_uint_eq(v->u.st.fills, fills);
    ck_assert_int_eq(ga_mlu_memcheck_g(&v->u, W1(ga_make_ptr(9, 0x3000, tb), 1), LC, &r), GA_OK);
    expect_reads(v, (const uint64_t[]){ LC, LC }, 2, 16); /* refetched every time */
    /* A forged freed tag on a live entry: TAG_MISMATCH (G5); on the freed one: USE_AFTER_FREE. */
    ck_assert_int_eq(ga_mlu_memcheck_g(&v->u, W1(ga_make_ptr(ga_tag_freed(tb), 0x1000, tb), 1), LA, &r), GA_OK);
    ck_assert_int_eq(r.rec.kind, GA_EXC_TAG_MISMATCH);
    ck_assert_int_eq(ga_mlu_memcheck_g(&v->u, W1(ga_make_ptr(ga_tag_freed(tb), 0x3000, tb), 1), LC, &r), GA_OK);
    ck_assert_int_eq(r.rec.kind, GA_EXC_USE_AFTER_FREE);
    /* A tag-0 entry (never written by the runtime) is not filled and mismatches every tagged lane. */
    put_entry(v, 0x18000, mk(v, 0, 0x8000, 0x10));
    ck_assert_int_eq(ga_mlu_memcheck_g(&v->u, W1(ga_make_ptr(1, 0x8000, tb), 1), 0x18000, &r), GA_OK);
    ck_assert_int_eq(r.rec.kind, GA_EXC_TAG_MISMATCH);
    ck_assert_uint_eq(v->u.st.fills, fills);
    /* A 16-aligned location (a table entry) is fine. */
    put_entry(v, 0x18010, mk(v, 3, 0x9000, 0x10));
    ck_assert_int_eq(ga_mlu_memcheck_g(&v->u, W1(ga_make_ptr(3, 0x900C, tb), 4), 0x18010, &r), GA_OK);
    ck_assert_uint_eq(r.fault, 0);
    ck_assert_uint_eq(v->u.st.fills, fills + 1u);
    env_free(v);
}
END_TEST

/* The tag comes from metadata (MLB or memory), never from a register: a free between LOADMETA and
 * MEMCHECK.G is seen (spec §4.2, paper §7.2). */
START_TEST(test_memcheck_g_sees_free)
{
    env_t *v = env_new(7, 8);
    build_list(v);
    uint64_t p = ga_make_ptr(6, 0x2010, 7), rd;
    ga_warp_rsp_t r;
    ck_assert_int_eq(ga_mlu_loadmeta(&v->u, p, &rd), GA_OK);
    ck_assert_uint_eq(rd, LB);
    ck_assert_int_eq(ga_mlu_memcheck_g(&v->u, W1(p, 4), rd, &r), GA_OK);
    ck_assert_uint_eq(r.fault, 0);
    /* The runtime frees B: freed tag into memory, then invalidation of LB. */
    write_tb(v, LB, ga_make_ptr(ga_tag_freed(7), 0x2000, 7));
    ga_mlu_invalidate(&v->u, LB);
    v->n = 0;
    ck_assert_int_eq(ga_mlu_memcheck_g(&v->u, W1(p, 4), rd, &r), GA_OK);
    ck_assert_int_eq(r.rec.kind, GA_EXC_USE_AFTER_FREE);
    expect_reads(v, (const uint64_t[]){ LB }, 1, 16);
    env_free(v);
}
END_TEST

/* ---- MEMCHECK.S and COMPILER-mode accesses ------------------------------------------------------ */

START_TEST(test_memcheck_s_and_compiler_access)
{
    env_t *v = env_new(7, 8);
    build_list(v);
    v->u.cfg.sm_id = 3;
    ga_warp_req_t q;
    memset(&q, 0, sizeof q);
    q.lanes = 4;
    q.active = 0xE;
    q.size = 4;
    q.warp = 5;
    q.addr[0] = 0x10;         /* out, inactive */
    q.addr[1] = 0x100;
    q.addr[2] = 0x1FD;        /* straddles 0x200 */
    q.addr[3] = 0x1FC;
    ga_warp_rsp_t r;
    ck_assert_int_eq(ga_mlu_memcheck_s(&v->u, &q, 0x100, 0x100, &r), GA_OK);
    ck_assert_uint_eq(r.fault, 1u << 2);
    ck_assert_int_eq(r.rec.kind, GA_EXC_SHARED_OUT_OF_BOUNDS);
    ck_assert_uint_eq(r.rec.lane, 2);
    ck_assert_uint_eq(r.rec.addr, 0x1FD);
    ck_assert_uint_eq(r.rec.sm, 3);
    ck_assert_uint_eq(r.rec.entry.tb, 0x100);
    ck_assert_uint_eq(r.rec.entry.size, 0x100);
    for (unsigned l = 0; l < 32; l++) ck_assert_uint_eq(r.addr[l], 0);
    ck_assert_uint_eq(v->n, 0);
    ck_assert_uint_eq(v->u.st.memcheck_s, 1);
    ck_assert_uint_eq(v->u.st.lanes_checked, 3);
    ck_assert_uint_eq(v->u.st.faulting_lanes[GA_EXC_SHARED_OUT_OF_BOUNDS], 1);
    ck_assert_uint_eq(v->exc_calls, 1);
    ck_assert_int_eq(v->exc_last.kind, GA_EXC_SHARED_OUT_OF_BOUNDS);

    /* COMPILER mode: a plain access only strips the tag, whatever the pointer. */
    q.active = 0xF;
    q.addr[0] = ga_make_ptr(ga_tag_freed(7), 0x123456, 7);
    q.addr[1] = ga_make_ptr(77, 0x9999999, 7);
    q.addr[2] = ga_make_ptr(5, 0x1100, 7);
    q.addr[3] = 0x42;
    ck_assert_int_eq(ga_mlu_access(&v->u, &q, &r), GA_OK);
    ck_assert_uint_eq(r.fault, 0);
    ck_assert_int_eq(r.rec.kind, GA_EXC_NONE);
    ck_assert_uint_eq(r.addr[0], 0x123456);
    ck_assert_uint_eq(r.addr[1], 0x9999999);
    ck_assert_uint_eq(r.addr[2], 0x1100);
    ck_assert_uint_eq(r.addr[3], 0x42);
    ck_assert_uint_eq(v->n, 0);
    ck_assert_uint_eq(v->u.st.access, 1);
    ck_assert_uint_eq(v->u.st.loadmeta, 0);
    env_free(v);
}
END_TEST

/* ---- request validation -------------------------------------------------------------------------- */

START_TEST(test_validation)
{
    env_t *v = env_new(16, 4);
    build_list(v);
    set_cfg(v, GA_MODE_HWONLY, GA_LAYOUT_LIST, LA, GA_POLICY_REPORT);
    static ga_mlu_t before;
    memcpy(&before, &v->u, sizeof before);
    ga_warp_rsp_t r, r0;
    memset(&r, 0x77, sizeof r);
    r0 = r;
    ga_warp_req_t q = warp1(ga_make_ptr(5, 0x1000, 16), 4);
    struct {
        unsigned lanes;
        uint32_t active, size;
        ga_err_t err;
    } cases[] = {
        { 0, 0, 4, GA_ERR_BAD_PARAM },  { 33, 1, 4, GA_ERR_BAD_PARAM }, { 1, 2, 4, GA_ERR_BAD_PARAM },
        { 31, 1u << 31, 4, GA_ERR_BAD_PARAM }, { 1, 1, 0, GA_ERR_BAD_SIZE }, { 1, 1, 3, GA_ERR_BAD_SIZE },
        { 1, 1, 32, GA_ERR_BAD_SIZE },  { 1, 1, 6, GA_ERR_BAD_SIZE },   { 2, 4, 3, GA_ERR_BAD_PARAM },
    };
    for (unsigned i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        q.lanes = cases[i].lanes;
        q.active = cases[i].active;
        q.size = cases[i].size;
        ck_assert_int_eq(ga_mlu_memcheck_g(&v->u, &q, LA, &r), cases[i].err);
        ck_assert_int_eq(ga_mlu_memcheck_s(&v->u, &q, 0, 16, &r), cases[i].err);
        ck_assert_int_eq(ga_mlu_access(&v->u, &q, &r), cases[i].err);
    }
    q = warp1(ga_make_ptr(5, 0x1000, 16), 4);
    ck_assert_int_eq(ga_mlu_memcheck_g(&v->u, NULL, LA, &r), GA_ERR_BAD_PARAM);
    ck_assert_int_eq(ga_mlu_memcheck_g(&v->u, &q, LA, NULL), GA_ERR_BAD_PARAM);
    ck_assert_int_eq(ga_mlu_access(&v->u, NULL, &r), GA_ERR_BAD_PARAM);
    ck_assert_int_eq(ga_mlu_memcheck_s(&v->u, &q, 0, 16, NULL), GA_ERR_BAD_PARAM);
    ck_assert_int_eq(ga_mlu_memcheck_g(NULL, &q, LA, &r), GA_ERR_BAD_PARAM);
    ck_assert_mem_eq(&v->u, &before, sizeof before);
    ck_assert_mem_eq(&r, &r0, sizeof r);
    ck_assert_uint_eq(v->n, 0);
    /* 32 lanes with every bit active is legal. */
    q.lanes = 32;
    q.active = UINT32_MAX;
    ck_assert_int_eq(ga_mlu_memcheck_s(&v->u, &q, 0, 16, &r), GA_OK);
    env_free(v);
}
END_TEST

/* ---- HWOnly -------------------------------------------------------------------------------------- */

/* Lane-by-lane reference (spec §5.4 decided for each lane alone): the unique entry of the test's list
 * that covers the lane's VA decides, with exact-integer bounds. */
typedef struct {
    ga_exc_kind_t kind;
    uint64_t md;
    ga_entry_t e;
} lane_ref_t;

static lane_ref_t ref_lane(const env_t *v, uint64_t p, uint32_t size)
{
    unsigned tb = v->tb;
    lane_ref_t r;
    memset(&r, 0, sizeof r);
    uint64_t t = p >> (64u - tb), fr = (UINT64_C(1) << tb) - 1u;
    u128 a = p & ((UINT64_C(1) << (64u - tb)) - 1u);
    if (t == 0u) return r;
    r.kind = GA_EXC_NO_METADATA;
    if (t == fr) return r;
    for (unsigned j = 0; j < v->ne; j++) {
        u128 b = v->e[j].tb & ((UINT64_C(1) << (64u - tb)) - 1u);
        if (!(b <= a && a < b + v->e[j].size)) continue;
        uint64_t et = v->e[j].tb >> (64u - tb);
        r.md = v->loc[j];
        r.e = v->e[j];
        if (et == fr) r.kind = GA_EXC_USE_AFTER_FREE;
        else if (et != t) r.kind = GA_EXC_TAG_MISMATCH;
        else if (a + size <= b + v->e[j].size && a + size <= ((u128)1 << (64u - tb))) r.kind = GA_EXC_NONE;
        else r.kind = GA_EXC_OUT_OF_BOUNDS;
        return r;
    }
    return r;
}

static void ref_access(const env_t *v, const ga_warp_req_t *q, ga_warp_rsp_t *r)
{
    memset(r, 0, sizeof *r);
    for (unsigned l = 0; l < q->lanes; l++) {
        r->addr[l] = ga_va_of(q->addr[l], v->tb);
        if (!((q->active >> l) & 1u)) continue;
        lane_ref_t x = ref_lane(v, q->addr[l], q->size);
        if (x.kind == GA_EXC_NONE) continue;
        if (r->fault == 0u) {
            r->rec.kind = x.kind;
            r->rec.addr = q->addr[l];
            r->rec.size = q->size;
            r->rec.sm = v->u.cfg.sm_id;
            r->rec.warp = q->warp;
            r->rec.lane = (uint8_t)l;
            r->rec.md = x.md;
            r->rec.entry = x.e;
        }
        r->fault |= UINT32_C(1) << l;
    }
}

static void expect_rsp_eq(const ga_warp_rsp_t *m, const ga_warp_rsp_t *r, const char *ctx, unsigned it)
{
    REQUIRE(m->fault == r->fault, "%s %u: fault %08x vs %08x", ctx, it, m->fault, r->fault);
    REQUIRE(m->rec.kind == r->rec.kind && m->rec.lane == r->rec.lane && m->rec.addr == r->rec.addr &&
                m->rec.md == r->rec.md && m->rec.entry.tb == r->rec.entry.tb &&
                m->rec.entry.size == r->rec.entry.size && m->rec.size == r->rec.size && m->rec.sm == r->rec.sm &&
                m->rec.warp == r->rec.warp,
            "%s %u: record kind %d/%d lane %u/%u md %llx/%llx", ctx, it, m->rec.kind, r->rec.kind, m->rec.lane,
            r->rec.lane, (unsigned long long)m->rec.md, (unsigned long long)r->rec.md);
    for (unsigned l = 0; l < GA_LANES_MAX; l++)
        REQUIRE(m->addr[l] == r->addr[l], "%s %u: addr[%u] %llx vs %llx", ctx, it, l, (unsigned long long)m->addr[l],
                (unsigned long long)r->addr[l]);
}

START_TEST(test_hwonly_grouping)
{
    unsigned tb = _i == 0 ? 7u : 16u;
    env_t *v = env_new(tb, 8);
    build_list(v);
    set_cfg(v, GA_MODE_HWONLY, GA_LAYOUT_LIST, LA, GA_POLICY_REPORT);
    v->u.cfg.sm_id = 9;
    ga_warp_req_t q;
    memset(&q, 0, sizeof q);
    q.lanes = 16;
    q.size = 4;
    q.warp = 0x77;
    q.addr[0] = ga_make_ptr(5, 0x1000, tb);                 /* A */
    q.addr[1] = ga_make_ptr(5, 0x10FC, tb);                 /* A, last 4 bytes */
    q.addr[2] = ga_make_ptr(5, 0x10FE, tb);                 /* A, straddles: OUT_OF_BOUNDS */
    q.addr[3] = ga_make_ptr(5, 0x1080, tb);                 /* A */
    q.addr[4] = ga_make_ptr(6, 0x2000, tb);                 /* B */
    q.addr[5] = ga_make_ptr(6, 0x203C, tb);                 /* B */
    q.addr[6] = ga_make_ptr(6, 0x2040, tb);                 /* one past B: wild, NO_METADATA */
    q.addr[7] = ga_make_ptr(3, 0x3010, tb);                 /* dangling into freed C: USE_AFTER_FREE */
    q.addr[8] = ga_make_ptr(5, 0x7000, tb);                 /* wild: NO_METADATA */
    q.addr[9] = ga_make_ptr(0, 0x7000, tb);                 /* tag 0: passes */
    q.addr[10] = ga_make_ptr(ga_tag_freed(tb), 0x1000, tb); /* forged freed tag: NO_METADATA, no walk */
    q.addr[11] = ga_make_ptr(9, 0x1010, tb);                /* A with another tag: TAG_MISMATCH */
    q.addr[12] = ga_make_ptr(5, 0x9999, tb);                /* inactive */
    q.addr[13] = ga_make_ptr(6, 0x2010, tb);                /* B */
    q.active = 0x3FFFu & ~(1u << 12);
    ga_warp_rsp_t r, ref;
    ck_assert_int_eq(ga_mlu_access(&v->u, &q, &r), GA_OK);
    ref_access(v, &q, &ref);
    expect_rsp_eq(&r, &ref, "hand", 0);
    ck_assert_uint_eq(r.fault, (1u << 2) | (1u << 6) | (1u << 7) | (1u << 8) | (1u << 10) | (1u << 11));
    ck_assert_int_eq(r.rec.kind, GA_EXC_OUT_OF_BOUNDS);
    ck_assert_uint_eq(r.rec.lane, 2);
    ck_assert_uint_eq(r.rec.md, LA);
    /* Leaders and their reads: lane 0 walks to A (fill), 4 to B (fill), 6 misses everything,
     * 7 reaches freed C, 8 misses everything, 10 is forged (no walk), 11 misses the MLB (other tag)
     * and walks to A. Lanes 1-3, 5, 13 ride with their leaders. */
    expect_reads(v,
                 (const uint64_t[]){ LA, LA, LB, LA, LB, LC, LD, LA, LB, LC, LA, LB, LC, LD, LA }, 15, 32);
    ck_assert_uint_eq(v->u.st.loadmeta, 6);
    ck_assert_uint_eq(v->u.st.walks, 6);
    ck_assert_uint_eq(v->u.st.fills, 2);
    ck_assert_uint_eq(v->u.st.lanes_checked, 12);
    ck_assert_uint_eq(v->u.st.faulting_ops, 1);
    ck_assert_uint_eq(v->exc_calls, 1);
    ck_assert_uint_eq(v->u.st.faulting_lanes[GA_EXC_NO_METADATA], 3);
    ck_assert_uint_eq(v->u.st.faulting_lanes[GA_EXC_USE_AFTER_FREE], 1);
    ck_assert_uint_eq(v->u.st.faulting_lanes[GA_EXC_TAG_MISMATCH], 1);
    ck_assert_uint_eq(v->u.st.faulting_lanes[GA_EXC_OUT_OF_BOUNDS], 1);
    /* Again: A and B now hit the MLB; the failing leaders walk again. */
    v->n = 0;
    ck_assert_int_eq(ga_mlu_access(&v->u, &q, &r), GA_OK);
    expect_rsp_eq(&r, &ref, "hand again", 0);
    expect_reads(v, (const uint64_t[]){ LA, LB, LC, LD, LA, LB, LC, LA, LB, LC, LD, LA }, 12, 32);
    ck_assert_uint_eq(v->u.st.loadmeta_hits, 2);

    /* HWOnly failure kinds from the walk's end: STEP_LIMIT and FAULT give METADATA_FAULT, md 0. */
    ga_mlu_cfg_t c = v->u.cfg;
    c.step_limit = 2;
    ck_assert_int_eq(ga_mlu_configure(&v->u, &c), GA_OK);
    ga_mlu_flush(&v->u);
    ck_assert_int_eq(ga_mlu_access(&v->u, W1(ga_make_ptr(7, 0x4000, tb), 1), &r), GA_OK);
    ck_assert_int_eq(r.rec.kind, GA_EXC_METADATA_FAULT);
    ck_assert_uint_eq(r.rec.md, 0);
    ck_assert_uint_eq(r.rec.entry.tb, 0);
    c.step_limit = 100;
    ck_assert_int_eq(ga_mlu_configure(&v->u, &c), GA_OK);
    ck_assert_int_eq(ga_mem_poison(v->mem, LB, 32), GA_OK);
    ck_assert_int_eq(ga_mlu_access(&v->u, W1(ga_make_ptr(7, 0x4000, tb), 1), &r), GA_OK);
    ck_assert_int_eq(r.rec.kind, GA_EXC_METADATA_FAULT);
    ga_mem_unpoison_all(v->mem);
    /* RANGE_ONLY on a live entry: TAG_MISMATCH with md = L and the entry. */
    ck_assert_int_eq(ga_mlu_access(&v->u, W1(ga_make_ptr(8, 0x2004, tb), 1), &r), GA_OK);
    ck_assert_int_eq(r.rec.kind, GA_EXC_TAG_MISMATCH);
    ck_assert_uint_eq(r.rec.md, LB);
    ck_assert_uint_eq(r.rec.entry.tb, v->e[1].tb);
    /* No tagged active lane: nothing happens at all. */
    v->n = 0;
    uint64_t lm = v->u.st.loadmeta;
    ga_warp_req_t z = warp1(ga_make_ptr(0, 0x4000, tb), 1);
    ck_assert_int_eq(ga_mlu_access(&v->u, &z, &r), GA_OK);
    z.addr[0] = ga_make_ptr(7, 0x4000, tb);
    z.active = 0;
    ck_assert_int_eq(ga_mlu_access(&v->u, &z, &r), GA_OK);
    ck_assert_uint_eq(r.fault, 0);
    ck_assert_uint_eq(r.addr[0], 0x4000);
    ck_assert_uint_eq(v->n, 0);
    ck_assert_uint_eq(v->u.st.loadmeta, lm);
    env_free(v);
}
END_TEST

/* Random warps from the shared generator, HWOnly, against the lane-by-lane reference, over the three
 * layouts, with frees (freed tag + invalidation) and flushes in between and a small MLB. Also
 * COMPILER-mode LOADMETA + MEMCHECK.G against the same reference. */

/* Disjoint entries: bases 0x100000 + 0x10000 k (+ a small offset), sizes from the generator. */
static void random_entries(env_t *v, ga_gen_t *g, unsigned n)
{
    v->ne = n;
    for (unsigned j = 0; j < n; j++) {
        uint64_t size = ga_gen_alloc_size(g);
        if (size > 0xF000u) size = 0xF000u;
        uint64_t base = 0x100000u + 0x10000u * j + (j % 3u == 0u ? 0u : 0x100u);
        uint64_t tag = ga_gen_valid_tag(g);
        v->e[j].tb = ga_make_ptr(tag, base, v->tb);
        v->e[j].size = size;
    }
}

/* Balanced BST over entries lo..hi-1 (sorted by base); returns the root location. */
static uint64_t build_bst_rec(env_t *v, unsigned lo, unsigned hi)
{
    if (lo >= hi) return 0;
    unsigned mid = (lo + hi) / 2u;
    uint64_t left = build_bst_rec(v, lo, mid), right = build_bst_rec(v, mid + 1u, hi);
    put_node(v, v->loc[mid], v->e[mid], left, right);
    return v->loc[mid];
}

static uint64_t build_layout(env_t *v, ga_layout_t layout)
{
    const uint64_t md = 0x800000;
    for (unsigned j = 0; j < v->ne; j++) {
        v->slot[j] = (j * 7u + 3u) % 61u; /* a scattered, collision-free slot per entry (ne <= 61) */
        v->loc[j] = layout == GA_LAYOUT_TABLE ? md + 16u * v->slot[j] : md + 32u * ((j * 13u) % v->ne);
    }
    if (layout == GA_LAYOUT_TABLE) {
        for (unsigned j = 0; j < v->ne; j++) put_entry(v, v->loc[j], v->e[j]);
        return md;
    }
    if (layout == GA_LAYOUT_BST) return build_bst_rec(v, 0, v->ne);
    for (unsigned j = 0; j < v->ne; j++) put_node(v, v->loc[j], v->e[j], j + 1u < v->ne ? v->loc[j + 1u] : 0, 0);
    return v->loc[0];
}

START_TEST(test_hwonly_random)
{
    unsigned tb = (_i % 2u) ? 16u : 7u;
    ga_layout_t layout = (ga_layout_t)(_i / 2u);
    env_t *v = env_new(tb, 4);
    ga_gen_t g;
    ck_assert_int_eq(ga_gen_init(&g, 0x5EED0000u + (uint64_t)_i, 1, tb), GA_OK);
    random_entries(v, &g, 24);
    uint64_t root = build_layout(v, layout);
    set_cfg(v, GA_MODE_HWONLY, layout, root, GA_POLICY_REPORT);
    unsigned faults = 0, passes = 0;
    for (unsigned it = 0; it < 3000; it++) {
        uint64_t roll = ga_rng_below(&g.rng, 1000);
        if (roll < 5) { /* free one entry: freed tag into memory, then invalidate its location */
            unsigned j = (unsigned)ga_rng_below(&g.rng, v->ne);
            v->e[j].tb = ga_make_ptr(ga_tag_freed(tb), ga_va_of(v->e[j].tb, tb), tb);
            write_tb(v, v->loc[j], v->e[j].tb);
            ga_mlu_invalidate(&v->u, v->loc[j]);
        } else if (roll < 10) {
            ga_mlu_flush(&v->u);
        }
        ga_warp_req_t q;
        ga_gen_warp(&g, v->e, v->ne, 1u + (unsigned)ga_rng_below(&g.rng, 32), &q);
        ga_warp_rsp_t r, ref;
        REQUIRE(ga_mlu_access(&v->u, &q, &r) == GA_OK, "access %u", it);
        ref_access(v, &q, &ref);
        expect_rsp_eq(&r, &ref, "hwonly", it);
        faults += r.fault != 0u;
        passes += r.fault == 0u && q.active != 0u;
    }
    ck_assert_uint_gt(faults, 300);
    ck_assert_uint_gt(passes, 300);
    ck_assert_uint_gt(v->u.st.loadmeta_hits, 100);
    ck_assert_uint_eq(v->u.st.faulting_ops, faults);
    ck_assert_uint_eq(v->exc_calls, faults);

    /* COMPILER mode on the same structure: LOADMETA of lane 0, then MEMCHECK.G with its result (or,
     * sometimes, another location, 0 or a misaligned one), against the reference. */
    set_cfg(v, GA_MODE_COMPILER, layout, root, GA_POLICY_REPORT);
    for (unsigned it = 0; it < 3000; it++) {
        ga_warp_req_t q;
        ga_gen_warp(&g, v->e, v->ne, 1u + (unsigned)ga_rng_below(&g.rng, 32), &q);
        uint64_t rd = 1;
        REQUIRE(ga_mlu_loadmeta(&v->u, q.addr[0], &rd) == GA_OK, "loadmeta %u", it);
        lane_ref_t x = ref_lane(v, q.addr[0], 1);
        bool match = x.kind == GA_EXC_NONE || x.kind == GA_EXC_OUT_OF_BOUNDS;
        uint64_t t0 = ga_tag_of(q.addr[0], tb);
        REQUIRE(rd == ((t0 != 0u && match) ? x.md : 0u), "loadmeta %u: %llx", it, (unsigned long long)rd);
        uint64_t md = rd;
        int ms = 2;
        unsigned pick = 0;
        uint64_t roll = ga_rng_below(&g.rng, 10);
        if (roll == 0) { md = 0; }
        else if (roll == 1) { md = v->loc[ga_rng_below(&g.rng, v->ne)] + 8u; }
        else if (roll == 2) { pick = (unsigned)ga_rng_below(&g.rng, v->ne); md = v->loc[pick]; }
        if (md == 0u) ms = 0;
        else if (md % 16u != 0u) ms = 1;
        ga_entry_t e = { 0, 0 };
        if (ms == 2) {
            for (unsigned j = 0; j < v->ne; j++)
                if (v->loc[j] == md) e = v->e[j];
        }
        ga_warp_rsp_t r, ref;
        REQUIRE(ga_mlu_memcheck_g(&v->u, &q, md, &r) == GA_OK, "memcheck %u", it);
        memset(&ref, 0, sizeof ref);
        for (unsigned l = 0; l < q.lanes; l++) {
            ref.addr[l] = ga_va_of(q.addr[l], tb);
            if (!((q.active >> l) & 1u)) continue;
            uint64_t p = q.addr[l], t = ga_tag_of(p, tb), et = ga_tag_of(e.tb, tb);
            u128 a = ga_va_of(p, tb), b = ga_va_of(e.tb, tb);
            ga_exc_kind_t k;
            if (t == 0) k = GA_EXC_NONE;
            else if (ms == 0) k = GA_EXC_NO_METADATA;
            else if (ms == 1) k = GA_EXC_METADATA_FAULT;
            else if (et == ga_tag_freed(tb)) k = GA_EXC_USE_AFTER_FREE;
            else if (et != t) k = GA_EXC_TAG_MISMATCH;
            else if (b <= a && a + q.size <= b + e.size && a + q.size <= ((u128)1 << (64u - tb))) k = GA_EXC_NONE;
            else k = GA_EXC_OUT_OF_BOUNDS;
            if (k == GA_EXC_NONE) continue;
            if (ref.fault == 0u) {
                ref.rec.kind = k;
                ref.rec.addr = p;
                ref.rec.size = q.size;
                ref.rec.warp = q.warp;
                ref.rec.lane = (uint8_t)l;
                ref.rec.md = md;
                ref.rec.entry = ms == 2 ? e : (ga_entry_t){ 0, 0 };
            }
            ref.fault |= UINT32_C(1) << l;
        }
        expect_rsp_eq(&r, &ref, "compiler", it);
    }
    env_free(v);
}
END_TEST

/* ---- policy -------------------------------------------------------------------------------------- */

START_TEST(test_policy)
{
    env_t *v = env_new(7, 8);
    build_list(v);
    ga_warp_rsp_t r;
    ga_warp_req_t bad = warp1(ga_make_ptr(5, 0x1100, 7), 1), good = warp1(ga_make_ptr(5, 0x1000, 7), 1);
    /* REPORT: every faulting operation is reported once and execution goes on. */
    ck_assert_int_eq(ga_mlu_memcheck_g(&v->u, &bad, LA, &r), GA_OK);
    ga_exc_t first = r.rec;
    ck_assert_int_eq(ga_mlu_memcheck_g(&v->u, &bad, LA, &r), GA_OK);
    ga_warp_req_t two = bad;
    two.lanes = 2;
    two.active = 3;
    two.addr[1] = ga_make_ptr(5, 0x1101, 7);
    ck_assert_int_eq(ga_mlu_memcheck_g(&v->u, &two, LA, &r), GA_OK); /* two lanes, one callback */
    ck_assert_uint_eq(v->exc_calls, 3);
    ck_assert_uint_eq(v->u.st.faulting_ops, 3);
    ck_assert_uint_eq(v->u.st.faulting_lanes[GA_EXC_OUT_OF_BOUNDS], 4);
    ck_assert(!v->u.halted);
    ck_assert_int_eq(v->u.first_exc.kind, GA_EXC_OUT_OF_BOUNDS);
    ck_assert_uint_eq(v->u.first_exc.addr, bad.addr[0]);
    ck_assert_int_eq(ga_mlu_memcheck_g(&v->u, &good, LA, &r), GA_OK);
    ck_assert_uint_eq(v->exc_calls, 3);
    /* Later faults with other records (kind, address, size, warp, lane) leave the first record as it
     * was: first_exc is the first since reset or clear, not the latest (spec §4.5). */
    ga_warp_req_t other = warp1(ga_make_ptr(6, 0x1008, 7), 4);
    other.lanes = 3;
    other.active = 4;
    other.addr[2] = other.addr[0];
    other.warp = 9;
    ck_assert_int_eq(ga_mlu_memcheck_g(&v->u, &other, LA, &r), GA_OK);
    ck_assert_int_eq(r.rec.kind, GA_EXC_TAG_MISMATCH);
    ck_assert_uint_eq(v->exc_calls, 4);
    ck_assert_mem_eq(&v->u.first_exc, &first, sizeof first);
    v->exc_calls = 3;

    /* TERMINATE: the first faulting operation halts the unit. */
    set_cfg(v, GA_MODE_COMPILER, GA_LAYOUT_LIST, LA, GA_POLICY_TERMINATE);
    ga_mlu_clear_halt(&v->u);
    ck_assert_int_eq(v->u.first_exc.kind, GA_EXC_NONE);
    ck_assert_int_eq(ga_mlu_memcheck_g(&v->u, &good, LA, &r), GA_OK);
    ck_assert(!v->u.halted);
    ga_warp_req_t tm = warp1(ga_make_ptr(6, 0x1000, 7), 2);
    ck_assert_int_eq(ga_mlu_memcheck_g(&v->u, &tm, LA, &r), GA_OK);
    ck_assert(v->u.halted);
    ck_assert_uint_eq(v->exc_calls, 4);
    ck_assert_int_eq(v->u.first_exc.kind, GA_EXC_TAG_MISMATCH);
    ck_assert_uint_eq(v->u.first_exc.size, 2);
    /* Every later operation is refused and changes nothing. */
    static ga_mlu_t before;
    memcpy(&before, &v->u, sizeof before);
    ga_warp_rsp_t r0;
    memset(&r, 0x3C, sizeof r);
    r0 = r;
    uint64_t rd = 77;
    v->n = 0;
    ck_assert_int_eq(ga_mlu_loadmeta(&v->u, ga_make_ptr(6, 0x2000, 7), &rd), GA_ERR_HALTED);
    ck_assert_uint_eq(rd, 77);
    ck_assert_int_eq(ga_mlu_memcheck_g(&v->u, &good, LB, &r), GA_ERR_HALTED);
    ck_assert_int_eq(ga_mlu_memcheck_s(&v->u, &good, 0, 1, &r), GA_ERR_HALTED);
    ck_assert_int_eq(ga_mlu_access(&v->u, &good, &r), GA_ERR_HALTED);
    ck_assert_mem_eq(&v->u, &before, sizeof before);
    ck_assert_mem_eq(&r, &r0, sizeof r);
    ck_assert_uint_eq(v->n, 0);
    /* A malformed request is still reported as such. */
    ga_warp_req_t mal = good;
    mal.size = 3;
    ck_assert_int_eq(ga_mlu_memcheck_g(&v->u, &mal, LA, &r), GA_ERR_BAD_SIZE);
    /* Invalidate, flush and configuration are accepted while halted. */
    ga_mlu_invalidate(&v->u, LA);
    ga_mlu_flush(&v->u);
    ck_assert_uint_eq(v->u.st.invalidates, 1);
    ck_assert_uint_eq(v->u.st.flushes, 1);
    ga_mlu_set_root(&v->u, LA);
    ck_assert(v->u.halted);
    /* Clear: operations work again. */
    ga_mlu_clear_halt(&v->u);
    ck_assert(!v->u.halted);
    ck_assert_int_eq(ga_mlu_loadmeta(&v->u, ga_make_ptr(6, 0x2000, 7), &rd), GA_OK);
    ck_assert_uint_eq(rd, LB);
    /* A shared fault and a HWOnly fault halt too. */
    ck_assert_int_eq(ga_mlu_memcheck_s(&v->u, &good, 0, 1, &r), GA_OK);
    ck_assert(v->u.halted);
    ck_assert_int_eq(v->u.first_exc.kind, GA_EXC_SHARED_OUT_OF_BOUNDS);
    ga_mlu_clear_halt(&v->u);
    set_cfg(v, GA_MODE_HWONLY, GA_LAYOUT_LIST, LA, GA_POLICY_TERMINATE);
    ck_assert_int_eq(ga_mlu_access(&v->u, &bad, &r), GA_OK);
    ck_assert(v->u.halted);
    ck_assert_int_eq(v->u.first_exc.kind, GA_EXC_NO_METADATA); /* 0x1100 is past A: no entry */
    env_free(v);
}
END_TEST

/* ---- invalidation racing a fill (spec §6.5) ------------------------------------------------------ */

START_TEST(test_race)
{
    env_t *v = env_new(7, 8);
    build_list(v);
    uint64_t rd;
    ga_warp_rsp_t r;
    /* The runtime frees B (freed tag into memory, then invalidation of LB) while a walk for B is in
     * flight. (1) The free lands after the read of A is served: the walk reads B already freed and
     * returns 0 (RANGE_ONLY); nothing to fill. */
    v->hook_at = 1;
    v->hook_loc = LB;
    v->hook_free = true;
    ck_assert_int_eq(ga_mlu_loadmeta(&v->u, ga_make_ptr(6, 0x2000, 7), &rd), GA_OK);
    ck_assert_uint_eq(rd, 0);
    ck_assert_uint_eq(v->u.st.fills_dropped, 0);

    /* (2) The free lands after the read of B: the walk saw B live and returns LB, but the fill is
     * dropped because an invalidation committed since the miss (spec §6.5). */
    ga_mlu_flush(&v->u);
    write_tb(v, LB, v->e[1].tb); /* B live again */
    v->n = 0;
    v->hook_at = 2;
    ck_assert_int_eq(ga_mlu_loadmeta(&v->u, ga_make_ptr(6, 0x2000, 7), &rd), GA_OK);
    ck_assert_uint_eq(rd, LB); /* the result is unaffected */
    ck_assert_uint_eq(v->u.st.fills, 0);
    ck_assert_uint_eq(v->u.st.fills_dropped, 1);
    for (unsigned i = 0; i < 8; i++) ck_assert(!v->u.mlb.valid[i]); /* no stale entry */
    /* The later MEMCHECK.G refetches and sees the free. */
    v->hook_at = 0;
    v->n = 0;
    ck_assert_int_eq(ga_mlu_memcheck_g(&v->u, W1(ga_make_ptr(6, 0x2000, 7), 4), rd, &r), GA_OK);
    ck_assert_int_eq(r.rec.kind, GA_EXC_USE_AFTER_FREE);
    expect_reads(v, (const uint64_t[]){ LB }, 1, 16);

    /* An unrelated invalidation during a MEMCHECK.G fetch also drops its fill (conservative); the
     * check itself uses the fetched entry. */
    v->n = 0;
    v->hook_at = 1;
    v->hook_loc = 0xABC0;
    v->hook_free = false;
    ck_assert_int_eq(ga_mlu_memcheck_g(&v->u, W1(ga_make_ptr(5, 0x1000, 7), 4), LA, &r), GA_OK);
    ck_assert_uint_eq(r.fault, 0);
    ck_assert_uint_eq(v->u.st.fills_dropped, 2);
    ck_assert_int_eq(ga_mlb_lookup_loc(&v->u.mlb, LA), -1);
    /* Without a race the same fetch fills. */
    v->hook_at = 0;
    ck_assert_int_eq(ga_mlu_memcheck_g(&v->u, W1(ga_make_ptr(5, 0x1000, 7), 4), LA, &r), GA_OK);
    ck_assert_uint_eq(v->u.st.fills, 1);
    ck_assert_int_ge(ga_mlb_lookup_loc(&v->u.mlb, LA), 0);
    ck_assert_uint_eq(v->u.st.invalidates, 3);
    env_free(v);
}
END_TEST

/* ---- configuration captured at acceptance (spec §8) ---------------------------------------------- */

/* A configuration write that commits while an operation's read is in flight changes only later
 * operations: the operation keeps SM_ID, POLICY, MODE, LAYOUT, ROOT and STEP_LIMIT as of its start.
 * Each step would fail if the model read the live registers: the record's SM_ID, the halt, the second
 * leader's walk (LAYOUT / ROOT / STEP_LIMIT), and the MODE decision all change with them. */
START_TEST(test_cfg_at_acceptance)
{
    env_t *v = env_new(7, 8);
    build_list(v);
    ga_mlu_cfg_t c0 = v->u.cfg;
    c0.sm_id = 3;
    c0.policy = GA_POLICY_REPORT;
    ck_assert_int_eq(ga_mlu_configure(&v->u, &c0), GA_OK);
    /* every register different: TABLE at a bogus ROOT, STEP_LIMIT 1, TERMINATE, another SM_ID, HWONLY */
    ga_mlu_cfg_t c1 = { GA_MODE_HWONLY, GA_LAYOUT_TABLE, 0xDEAD0, 1, GA_POLICY_TERMINATE, 0x4242 };
    ga_warp_rsp_t r;

    /* MEMCHECK.G fetch of A with a tag mismatch; the write commits during the fetch. */
    v->n = 0;
    v->cfg_at = 1;
    v->cfg_new = c1;
    ck_assert_int_eq(ga_mlu_memcheck_g(&v->u, W1(ga_make_ptr(6, 0x1000, 7), 4), LA, &r), GA_OK);
    ck_assert_uint_eq(v->n, 1);
    ck_assert_uint_eq(r.fault, 1);
    ck_assert_int_eq(r.rec.kind, GA_EXC_TAG_MISMATCH);
    ck_assert_uint_eq(r.rec.sm, 3);             /* SM_ID at acceptance, not 0x4242 */
    ck_assert(!v->u.halted);                    /* accepted under REPORT */
    ck_assert_uint_eq(v->u.first_exc.sm, 3);
    ck_assert_uint_eq(v->exc_last.sm, 3);
    ck_assert(cfg_eq(&v->u.cfg, &c1));          /* the write itself took effect */

    /* The converse: accepted under TERMINATE, REPORT written during the fetch: the unit halts, and
     * the record carries the old SM_ID. */
    ga_mlu_cfg_t c2 = c0;
    c2.policy = GA_POLICY_TERMINATE;
    c2.sm_id = 11;
    ck_assert_int_eq(ga_mlu_configure(&v->u, &c2), GA_OK);
    ga_mlu_flush(&v->u);
    v->n = 0;
    v->cfg_new = c0;
    ck_assert_int_eq(ga_mlu_memcheck_g(&v->u, W1(ga_make_ptr(6, 0x1000, 7), 4), LA, &r), GA_OK);
    ck_assert_uint_eq(r.rec.sm, 11);
    ck_assert(v->u.halted);
    ck_assert_int_eq(v->u.cfg.policy, GA_POLICY_REPORT);
    ga_mlu_clear_halt(&v->u);

    /* HWOnly access with two leaders (A in lane 0, D in lane 1, a wild pointer in lane 2): the write
     * commits during the first leader's walk; the second leader's walk still runs the LIST from LA
     * with STEP_LIMIT 65 536 (4 reads, finds D), and the wild lane's record carries SM_ID 3. */
    c0.mode = GA_MODE_HWONLY;
    ck_assert_int_eq(ga_mlu_configure(&v->u, &c0), GA_OK);
    ga_mlu_flush(&v->u);
    ga_mlu_cfg_t c3 = c1;
    c3.mode = GA_MODE_COMPILER;
    c3.policy = GA_POLICY_TERMINATE;
    v->n = 0;
    v->cfg_at = 1;
    v->cfg_new = c3;
    ga_warp_req_t q = warp1(ga_make_ptr(5, 0x1000, 7), 4);
    q.lanes = 3;
    q.active = 7;
    q.addr[1] = ga_make_ptr(7, 0x4000, 7);
    q.addr[2] = ga_make_ptr(5, 0x7000, 7);
    ck_assert_int_eq(ga_mlu_access(&v->u, &q, &r), GA_OK);
    expect_reads(v, (const uint64_t[]){ LA, LA, LB, LC, LD, LA, LB, LC, LD }, 9, 32);
    ck_assert_uint_eq(r.fault, 4);
    ck_assert_int_eq(r.rec.kind, GA_EXC_NO_METADATA);
    ck_assert_uint_eq(r.rec.lane, 2);
    ck_assert_uint_eq(r.rec.sm, 3);
    ck_assert(!v->u.halted);                    /* accepted under REPORT */
    ck_assert_int_ge(ga_mlb_lookup_loc(&v->u.mlb, LD), 0);

    /* The next operation sees the new registers: COMPILER mode, no check, no read. */
    v->n = 0;
    v->cfg_at = 0;
    ck_assert_int_eq(ga_mlu_access(&v->u, &q, &r), GA_OK);
    ck_assert_uint_eq(r.fault, 0);
    ck_assert_uint_eq(v->n, 0);
    env_free(v);
}
END_TEST

/* ---- TABLE and BST through the unit; counters ----------------------------------------------------- */

START_TEST(test_table_and_stats)
{
    env_t *v = env_new(16, 2);
    ga_gen_t g;
    ck_assert_int_eq(ga_gen_init(&g, 99, 1, 16), GA_OK);
    random_entries(v, &g, 8);
    uint64_t root = build_layout(v, GA_LAYOUT_TABLE);
    set_cfg(v, GA_MODE_COMPILER, GA_LAYOUT_TABLE, root, GA_POLICY_REPORT);
    uint64_t rd;
    for (unsigned j = 0; j < 3; j++) {
        v->n = 0;
        ck_assert_int_eq(ga_mlu_loadmeta(&v->u, v->e[j].tb, &rd), GA_OK);
        ck_assert_uint_eq(rd, v->loc[j]);
        expect_reads(v, (const uint64_t[]){ v->loc[j] }, 1, 16);
    }
    /* MLB of 2: entry 0 was evicted by entry 2. */
    ck_assert_uint_eq(v->u.mlb.loc[0], v->loc[2]);
    ck_assert_uint_eq(v->u.st.md_read_bytes, 48);
    ck_assert_uint_eq(v->u.st.walk_max, 1);
    /* The oracle says none: 0, no read. */
    v->n = 0;
    ck_assert_int_eq(ga_mlu_loadmeta(&v->u, ga_make_ptr(3, 0x10, 16), &rd), GA_OK);
    ck_assert_uint_eq(rd, 0);
    ck_assert_uint_eq(v->n, 0);
    ck_assert_uint_eq(v->u.st.walks, 4);
    ck_assert_uint_eq(v->u.st.walk_end[GA_WALK_NOT_FOUND], 1);
    ck_assert_uint_eq(v->u.st.walk_steps, 3);
    ck_assert_uint_eq(v->u.st.md_reads, 3);
    ck_assert_uint_eq(v->u.st.loadmeta, 4);
    ck_assert_uint_eq(v->u.st.loadmeta_zero, 1);
    ck_assert_uint_eq(v->u.st.fills, 3);
    /* MEMCHECK.G counters. */
    ga_warp_rsp_t r;
    ck_assert_int_eq(ga_mlu_memcheck_g(&v->u, W1(v->e[2].tb, 1), v->loc[2], &r), GA_OK);
    ck_assert_uint_eq(v->u.st.fetches, 1);
    ck_assert_uint_eq(v->u.st.fetch_hits, 1);
    ck_assert_int_eq(ga_mlu_memcheck_g(&v->u, W1(v->e[5].tb, 1), v->loc[5], &r), GA_OK);
    ck_assert_uint_eq(v->u.st.fetches, 2);
    ck_assert_uint_eq(v->u.st.fetch_hits, 1);
    ck_assert_uint_eq(v->u.st.md_reads, 4);
    ck_assert_uint_eq(v->u.st.md_read_bytes, 64);
    ck_assert_uint_eq(v->u.st.memcheck_g, 2);
    ck_assert_uint_eq(v->u.st.lanes_checked, 2);
    ck_assert_uint_eq(v->u.st.faulting_ops, 0);
    env_free(v);
}
END_TEST

static Suite *mlu_suite(void)
{
    Suite *s = suite_create("mlu");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_init_and_config);
    tcase_add_loop_test(tc, test_loadmeta, 0, 2);
    tcase_add_loop_test(tc, test_memcheck_g_rules, 0, 2);
    tcase_add_test(tc, test_memcheck_g_sees_free);
    tcase_add_test(tc, test_memcheck_s_and_compiler_access);
    tcase_add_test(tc, test_validation);
    tcase_add_loop_test(tc, test_hwonly_grouping, 0, 2);
    tcase_add_loop_test(tc, test_hwonly_random, 0, 6);
    tcase_add_test(tc, test_policy);
    tcase_add_test(tc, test_race);
    tcase_add_test(tc, test_cfg_at_acceptance);
    tcase_add_test(tc, test_table_and_stats);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(mlu_suite());
    srunner_run_all(sr, CK_ENV);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
