/*
 * test_exec.c — the one execution path (cmodel/ga_exec.h, cmodel/ga_backend.h): the compiler-mode
 * dispatch against a recording set of operations (which MLU operations a global, shared or LOADMETA
 * request becomes in each mode, the kernel's metadata registers, lane grouping, cut-short walks,
 * error propagation), and the backend registry (the model backend runs exactly the ga_mlu_*
 * operations; names a program does not hold are refused by name).
 *
 * The expectations are written out by hand from the rules in ga_exec.h, not computed by the code
 * under test.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ga_backend.h"
#include "ga_exec.h"

/* ---- a recording set of operations ------------------------------------------------------------- */

#define LOGMAX 64

typedef struct {
    char kind;        /* 'L' LOADMETA, 'G' MEMCHECK.G, 'S' MEMCHECK.S, 'A' access */
    unsigned sm;
    uint16_t warp;
    uint64_t root;    /* L: the root; G: the location */
    uint32_t active;  /* G, S, A: the request's active lanes */
    uint32_t cut;     /* G: the cut-short mask */
} rec_t;

typedef struct {
    rec_t log[LOGMAX];
    unsigned n;
    uint64_t next_md;  /* the location the next LOADMETA returns (then + 0x20) */
    uint64_t cut_root; /* a LOADMETA of this root reports a walk cut short */
    int fail_at;       /* the operation (1-based) that fails with 7; 0: none */
} ops_ctx_t;

static int note(ops_ctx_t *c, rec_t r)
{
    ck_assert_uint_lt(c->n, LOGMAX);
    c->log[c->n++] = r;
    return c->fail_at != 0 && (int)c->n == c->fail_at ? 7 : 0;
}

static int r_loadmeta(void *ctx, unsigned sm, uint16_t warp, uint64_t root, uint64_t *md, bool *cut)
{
    ops_ctx_t *c = ctx;
    *md = c->next_md;
    c->next_md += 0x20u;
    *cut = root == c->cut_root;
    return note(c, (rec_t){'L', sm, warp, root, 0, 0});
}

static int r_memcheck_g(void *ctx, unsigned sm, const ga_warp_req_t *q, uint64_t md, uint32_t cut_mask)
{
    return note(ctx, (rec_t){'G', sm, q->warp, md, q->active, cut_mask});
}

static int r_memcheck_s(void *ctx, unsigned sm, const ga_warp_req_t *q, uint32_t base, uint32_t ssize)
{
    (void)base;
    (void)ssize;
    return note(ctx, (rec_t){'S', sm, q->warp, 0, q->active, 0});
}

static int r_access(void *ctx, unsigned sm, const ga_warp_req_t *q)
{
    return note(ctx, (rec_t){'A', sm, q->warp, 0, q->active, 0});
}

static const ga_exec_ops_t rec_ops = {r_loadmeta, r_memcheck_g, r_memcheck_s, r_access};

static ga_warp_req_t req(uint16_t warp, uint32_t active, const uint64_t *addr)
{
    ga_warp_req_t q;
    memset(&q, 0, sizeof q);
    q.lanes = 32;
    q.active = active;
    q.warp = warp;
    q.size = 4;
    for (unsigned l = 0; l < 32u; l++) q.addr[l] = addr ? addr[l] : 0x1000u + 4u * l;
    return q;
}

static void expect(const ops_ctx_t *c, unsigned i, char kind, uint64_t root_or_md, uint32_t active)
{
    ck_assert_uint_lt(i, c->n);
    ck_assert_msg(c->log[i].kind == kind, "op %u is %c, expected %c", i, c->log[i].kind, kind);
    if (kind == 'L' || kind == 'G') ck_assert_uint_eq(c->log[i].root, root_or_md);
    if (kind != 'L') ck_assert_uint_eq(c->log[i].active, active);
}

/* ---- the dispatch ----------------------------------------------------------------------------- */

START_TEST(test_hwonly)
{
    ops_ctx_t c = {.next_md = 0x100};
    ga_exec_t x;
    ga_exec_init(&x, GA_MODE_HWONLY, &rec_ops, &c);
    ga_warp_req_t q = req(3, 0xf, NULL);
    ck_assert_int_eq(ga_exec_loadmeta(&x, 0, 3, 0x1000, NULL, NULL), GA_EXEC_SKIPPED);
    ck_assert_int_eq(ga_exec_global(&x, 0, &q, GA_EXEC_ROOT_PTR, 0x1000), 0);
    ck_assert_int_eq(ga_exec_global(&x, 1, &q, GA_EXEC_ROOT_LANE, 0), 0);
    ck_assert_int_eq(ga_exec_shared(&x, 0, &q, 0, 64), GA_EXEC_SKIPPED);
    /* every global access is one plain access; nothing else runs */
    ck_assert_uint_eq(c.n, 2);
    expect(&c, 0, 'A', 0, 0xf);
    expect(&c, 1, 'A', 0, 0xf);
    ck_assert_uint_eq(c.log[1].sm, 1);
    ga_exec_fini(&x);
}
END_TEST

START_TEST(test_compiler_registers)
{
    ops_ctx_t c = {.next_md = 0x100};
    ga_exec_t x;
    ga_exec_init(&x, GA_MODE_COMPILER, &rec_ops, &c);
    ga_warp_req_t q = req(2, 0x3, NULL);
    /* no root: a plain access */
    ck_assert_int_eq(ga_exec_global(&x, 0, &q, GA_EXEC_ROOT_NONE, 0), 0);
    /* a root without a register: LOADMETA, then MEMCHECK.G with its location */
    ck_assert_int_eq(ga_exec_global(&x, 0, &q, GA_EXEC_ROOT_PTR, 0x5000), 0);
    /* the same (SM, warp, root): the register, no LOADMETA */
    ck_assert_int_eq(ga_exec_global(&x, 0, &q, GA_EXEC_ROOT_PTR, 0x5000), 0);
    /* another warp, another SM: their own registers */
    ga_warp_req_t q9 = req(9, 0x1, NULL);
    ck_assert_int_eq(ga_exec_global(&x, 0, &q9, GA_EXEC_ROOT_PTR, 0x5000), 0);
    ck_assert_int_eq(ga_exec_global(&x, 1, &q, GA_EXEC_ROOT_PTR, 0x5000), 0);
    /* an explicit LOADMETA always runs and overwrites the register */
    uint64_t md = 0;
    ck_assert_int_eq(ga_exec_loadmeta(&x, 0, 2, 0x5000, &md, NULL), 0);
    ck_assert_uint_eq(md, 0x160);
    ck_assert_int_eq(ga_exec_global(&x, 0, &q, GA_EXEC_ROOT_PTR, 0x5000), 0);
    /* a kernel start empties the registers */
    ga_exec_kernel(&x);
    ck_assert_int_eq(ga_exec_global(&x, 0, &q, GA_EXEC_ROOT_PTR, 0x5000), 0);
    /* a shared access is one MEMCHECK.S */
    ck_assert_int_eq(ga_exec_shared(&x, 0, &q, 0, 64), 0);

    ck_assert_uint_eq(c.n, 13);
    expect(&c, 0, 'A', 0, 0x3);
    expect(&c, 1, 'L', 0x5000, 0);
    expect(&c, 2, 'G', 0x100, 0x3);
    expect(&c, 3, 'G', 0x100, 0x3);
    expect(&c, 4, 'L', 0x5000, 0);
    expect(&c, 5, 'G', 0x120, 0x1);
    ck_assert_uint_eq(c.log[5].warp, 9);
    expect(&c, 6, 'L', 0x5000, 0);
    expect(&c, 7, 'G', 0x140, 0x3);
    ck_assert_uint_eq(c.log[7].sm, 1);
    expect(&c, 8, 'L', 0x5000, 0);
    expect(&c, 9, 'G', 0x160, 0x3);
    expect(&c, 10, 'L', 0x5000, 0);
    expect(&c, 11, 'G', 0x180, 0x3);
    expect(&c, 12, 'S', 0, 0x3);
    ga_exec_fini(&x);
}
END_TEST

START_TEST(test_root_per_lane)
{
    ops_ctx_t c = {.next_md = 0x100, .cut_root = 0x9000};
    ga_exec_t x;
    ga_exec_init(&x, GA_MODE_COMPILER, &rec_ops, &c);
    /* lanes 0, 2 share root A; lane 1 has B; lane 3 has the cut-short root C; lane 4 inactive */
    uint64_t a[32];
    for (unsigned l = 0; l < 32u; l++) a[l] = 0x7000u;
    a[1] = 0x8000;
    a[3] = 0x9000;
    a[4] = 0xa000;
    ga_warp_req_t q = req(1, 0xf, a);
    ck_assert_int_eq(ga_exec_global(&x, 0, &q, GA_EXEC_ROOT_LANE, 0), 0);
    /* one LOADMETA per distinct root in lane order, then one MEMCHECK.G per location, lowest lane first */
    ck_assert_uint_eq(c.n, 6);
    expect(&c, 0, 'L', 0x7000, 0);
    expect(&c, 1, 'L', 0x8000, 0);
    expect(&c, 2, 'L', 0x9000, 0);
    expect(&c, 3, 'G', 0x100, 0x5);
    expect(&c, 4, 'G', 0x120, 0x2);
    expect(&c, 5, 'G', 0x140, 0x8);
    ck_assert_uint_eq(c.log[3].cut, 0);
    ck_assert_uint_eq(c.log[5].cut, 0x8);
    /* the registers remember the cut: a root-pointer access with root C gets every lane cut */
    ga_warp_req_t q2 = req(1, 0x30, NULL);
    ck_assert_int_eq(ga_exec_global(&x, 0, &q2, GA_EXEC_ROOT_PTR, 0x9000), 0);
    ck_assert_uint_eq(c.n, 7);
    expect(&c, 6, 'G', 0x140, 0x30);
    ck_assert_uint_eq(c.log[6].cut, 0x30);
    ga_exec_fini(&x);
}
END_TEST

START_TEST(test_errors_stop)
{
    ops_ctx_t c = {.next_md = 0x100, .fail_at = 2};
    ga_exec_t x;
    ga_exec_init(&x, GA_MODE_COMPILER, &rec_ops, &c);
    uint64_t a[32];
    for (unsigned l = 0; l < 32u; l++) a[l] = 0x1000u * (l + 1u);
    ga_warp_req_t q = req(0, 0xff, a);
    /* the second LOADMETA fails: its code comes back and nothing more runs */
    ck_assert_int_eq(ga_exec_global(&x, 0, &q, GA_EXEC_ROOT_LANE, 0), 7);
    ck_assert_uint_eq(c.n, 2);
    ga_exec_fini(&x);
}
END_TEST

START_TEST(test_many_registers)
{
    /* more registers than the table's first size (1024 entries at half load): it grows and keeps them */
    ops_ctx_t c = {.next_md = 0x100};
    ga_exec_t x;
    ga_exec_init(&x, GA_MODE_COMPILER, &rec_ops, &c);
    for (unsigned i = 0; i < 3000u; i++) {
        ck_assert_int_eq(ga_exec_loadmeta(&x, i % 7u, (uint16_t)(i % 5u), 0x100000u + 64u * i, NULL, NULL), 0);
        c.n = 0;
    }
    for (unsigned i = 0; i < 3000u; i++) {
        ga_warp_req_t q = req((uint16_t)(i % 5u), 1, NULL);
        ck_assert_int_eq(ga_exec_global(&x, i % 7u, &q, GA_EXEC_ROOT_PTR, 0x100000u + 64u * i), 0);
        ck_assert_uint_eq(c.n, 1);
        ck_assert_uint_eq(c.log[0].root, 0x100u + 0x20u * i);
        c.n = 0;
    }
    ga_exec_fini(&x);
}
END_TEST

/* ---- the registry ----------------------------------------------------------------------------- */

static int failing_open(ga_backend_t *b, ga_system_t *sys, void *arg, char *msg, size_t cap)
{
    (void)b;
    (void)sys;
    snprintf(msg, cap, "refused: %s", (const char *)arg);
    return -1;
}

START_TEST(test_registry)
{
    ga_system_t s;
    ga_system_cfg_t cfg;
    ga_system_default_cfg(&cfg, GA_LAYOUT_BST, 7, 1);
    cfg.sms = 2;
    ck_assert_int_eq(ga_system_init(&s, &cfg), GA_OK);
    ga_backend_t b;
    char msg[512];
    /* every program holds the model; NULL names it and NULL is its registry */
    ck_assert_int_eq(ga_backend_open(NULL, NULL, &s, NULL, &b, msg, sizeof msg), GA_BACKEND_OK);
    ck_assert_str_eq(b.name, "model");
    ck_assert(b.loadmeta && b.memcheck_g && b.memcheck_s && b.access && b.flush && b.runtime_changed && b.check &&
              b.destroy && b.wave == NULL);
    /* the model backend runs the unit of the SM asked for */
    uint64_t p, md = 0;
    ck_assert_int_eq(ga_backend_malloc(&s, &b, 256, &p), GA_OK);
    ck_assert_int_eq(b.loadmeta(b.ctx, 1, p, &md), GA_OK);
    ck_assert_uint_ne(md, 0);
    ck_assert_uint_eq(s.sm[1].st.loadmeta, 1);
    ck_assert_uint_eq(s.sm[0].st.loadmeta, 0);
    b.flush(b.ctx, 1);
    ck_assert_uint_eq(s.sm[1].st.flushes, 1);
    ck_assert_int_eq(b.check(b.ctx, msg, sizeof msg), 0);
    ck_assert_int_eq(ga_backend_free(&s, &b, p), GA_OK);
    ga_backend_close(&b);
    ck_assert_ptr_null(b.ctx);
    /* the hardware backends of the project, refused by name where they are not built in */
    ck_assert_int_eq(ga_backend_open(NULL, "rtl", &s, NULL, &b, msg, sizeof msg), GA_BACKEND_NOT_BUILT);
    ck_assert_msg(strstr(msg, "backend 'rtl' is not built into this program") && strstr(msg, "make gasim-rtl"),
                  "%s", msg);
    ck_assert_int_eq(ga_backend_open(ga_backends_model, "board", &s, NULL, &b, msg, sizeof msg), GA_BACKEND_NOT_BUILT);
    ck_assert_msg(strstr(msg, "backend 'board' is not built into this program") && strstr(msg, "gaprobe"), "%s", msg);
    ck_assert_int_eq(ga_backend_open(NULL, "fpga", &s, NULL, &b, msg, sizeof msg), GA_BACKEND_UNKNOWN);
    ck_assert_str_eq(msg, "unknown backend 'fpga' (model, rtl or board)");
    /* a program's own registry: its entries only, its argument handed to the open */
    const ga_backend_def_t mine = {"rtl", "a stand-in that refuses", failing_open};
    const ga_backend_def_t *const reg[] = {&mine, NULL};
    ck_assert_ptr_eq(ga_backend_find(reg, "rtl"), &mine);
    ck_assert_ptr_null(ga_backend_find(reg, "model"));
    ck_assert_ptr_eq(ga_backend_find(NULL, "model"), &ga_backend_model_def);
    ck_assert_int_eq(ga_backend_open(reg, "rtl", &s, (void *)"no board", &b, msg, sizeof msg), GA_BACKEND_FAILED);
    ck_assert_str_eq(msg, "refused: no board");
    ck_assert_int_eq(ga_backend_open(reg, "model", &s, NULL, &b, msg, sizeof msg), GA_BACKEND_NOT_BUILT);
    ga_system_fini(&s);
}
END_TEST

int main(void)
{
    Suite *su = suite_create("exec");
    TCase *tc = tcase_create("dispatch");
    tcase_add_test(tc, test_hwonly);
    tcase_add_test(tc, test_compiler_registers);
    tcase_add_test(tc, test_root_per_lane);
    tcase_add_test(tc, test_errors_stop);
    tcase_add_test(tc, test_many_registers);
    suite_add_tcase(su, tc);
    TCase *tr = tcase_create("registry");
    tcase_add_test(tr, test_registry);
    suite_add_tcase(su, tr);
    SRunner *sr = srunner_create(su);
    srunner_run_all(sr, CK_ENV);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
