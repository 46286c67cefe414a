/*
 * test_garuntime.c — the software bodies of `gaptx instrument` (ptx/ptx_garuntime.c, docs/compiler.md §5)
 * executed by the interpreter (emu_cfg_t.ga_software) and compared with the golden model, call by call.
 *
 * For each layout the model's runtime (cmodel/ga_runtime.h) builds a metadata structure from random
 * mallocs and frees into a region whose address is a device allocation of the interpreter; the region's
 * bytes are copied into device memory, __ga_cfg is filled as a host program would (the table layout's
 * oracle array of {base, size, slot} records sorted by base included), and then:
 *   - __ga_loadmeta on a few thousand tagged pointers (bases, ends, one past, interiors, retagged, freed,
 *     tag 0, the freed tag, random) must return the location ga_walk() finds (FOUND) or 0, for several
 *     step limits, so a body that walks one node too far or too short fails;
 *   - __ga_memcheck_g on pointers with the right, a wrong, no and a misaligned metadata location must
 *     return the untagged address and leave exactly the error record ga_check_g_lane() predicts;
 *   - __ga_memcheck_s on boundary triples must agree with ga_check_s_lane();
 *   - under policy 1 (terminate) a failing check stops the launch.
 * The two sides share no code: the bodies are PTX text, the model is C.
 */
#include "emu.h"
#include "ga_check.h"
#include "ga_runtime.h"
#include "ga_walker.h"
#include "ptx_instr.h"

#include <check.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Test kernels, appended to the bodies' module (its header comes with the bodies' text). */
static const char *KERNELS =
    ".visible .entry k_loadmeta(.param .u64 pin, .param .u64 pout, .param .u32 n)\n{\n"
    ".reg .b32 %r<8>; .reg .b64 %rd<12>; .reg .pred %p<2>;\n"
    "ld.param.u64 %rd1, [pin]; ld.param.u64 %rd2, [pout]; ld.param.u32 %r1, [n];\n"
    "mov.u32 %r2, %ctaid.x; mov.u32 %r3, %ntid.x; mov.u32 %r4, %tid.x; mad.lo.s32 %r5, %r2, %r3, %r4;\n"
    "setp.ge.u32 %p1, %r5, %r1; @%p1 bra $L_end;\n"
    "mul.wide.u32 %rd3, %r5, 8; add.s64 %rd4, %rd1, %rd3; ld.global.u64 %rd5, [%rd4];\n"
    "{\n.param .b64 a0;\n.param .b64 r0;\nst.param.b64 [a0], %rd5;\n"
    "call.uni (r0), __ga_loadmeta, (a0);\nld.param.b64 %rd6, [r0];\n}\n"
    "add.s64 %rd7, %rd2, %rd3; st.global.u64 [%rd7], %rd6;\n"
    "$L_end:\nret;\n}\n"
    ".visible .entry k_memcheck_g(.param .u64 pa, .param .u64 pmd, .param .u32 info, .param .u64 pout)\n{\n"
    ".reg .b32 %r<4>; .reg .b64 %rd<8>;\n"
    "ld.param.u64 %rd1, [pa]; ld.param.u64 %rd2, [pmd]; ld.param.u32 %r1, [info]; ld.param.u64 %rd3, [pout];\n"
    "{\n.param .b64 a0;\n.param .b64 a1;\n.param .b32 a2;\n.param .b64 r0;\n"
    "st.param.b64 [a0], %rd1;\nst.param.b64 [a1], %rd2;\nst.param.b32 [a2], %r1;\n"
    "call.uni (r0), __ga_memcheck_g, (a0, a1, a2);\nld.param.b64 %rd4, [r0];\n}\n"
    "st.global.u64 [%rd3], %rd4;\nret;\n}\n"
    ".visible .entry k_memcheck_s(.param .u32 a, .param .u32 b, .param .u32 s, .param .u32 z)\n{\n"
    ".reg .b32 %r<6>;\n"
    "ld.param.u32 %r1, [a]; ld.param.u32 %r2, [b]; ld.param.u32 %r3, [s]; ld.param.u32 %r4, [z];\n"
    "{\n.param .b32 a0;\n.param .b32 a1;\n.param .b32 a2;\n.param .b32 a3;\n"
    "st.param.b32 [a0], %r1;\nst.param.b32 [a1], %r2;\nst.param.b32 [a2], %r3;\nst.param.b32 [a3], %r4;\n"
    "call.uni __ga_memcheck_s, (a0, a1, a2, a3);\n}\n"
    "ret;\n}\n";

/* __ga_cfg offsets (docs/compiler.md §5.1). */
enum { CFG_LAYOUT = 0, CFG_TAG_BITS = 4, CFG_ROOT = 8, CFG_STEP_LIMIT = 16, CFG_POLICY = 20, CFG_ORACLE = 24,
       CFG_ORACLE_N = 32, CFG_ERRORS = 40, CFG_FIRST_ADDR = 48, CFG_FIRST_KIND = 56, CFG_FIRST_INFO = 60 };

typedef struct {
    emu_dev_t *d;
    emu_module_t *m;
    emu_kernel_t *k_lm, *k_g, *k_s;
    uint64_t cfg; /* __ga_cfg's device address */
} sw_t;

static uint64_t rng_next(uint64_t *s)
{
    *s ^= *s << 13, *s ^= *s >> 7, *s ^= *s << 17;
    return *s;
}

static void sw_open(sw_t *S, unsigned tag_bits)
{
    emu_cfg_t c;
    emu_default_cfg(&c);
    c.armor = EMU_ARMOR_OFF;
    c.ga_software = true;
    c.tag_bits = tag_bits;
    c.sms = 1;
    c.max_instructions = 20000000; /* a body that loops (a broken step limit) fails fast, not in hours */
    c.log = tmpfile();
    ck_assert_ptr_nonnull(c.log);
    char msg[512] = "";
    ck_assert_int_eq(emu_create(&c, &S->d, msg, sizeof msg), EMU_OK);
    size_t blen = 0;
    const char *bodies = ptx_garuntime_text(&blen);
    size_t klen = strlen(KERNELS);
    char *txt = malloc(blen + klen + 1);
    ck_assert_ptr_nonnull(txt);
    memcpy(txt, bodies, blen);
    memcpy(txt + blen, KERNELS, klen + 1);
    emu_status_t st = emu_module_load(S->d, "garuntime.ptx", txt, blen + klen, &S->m, msg, sizeof msg);
    free(txt);
    ck_assert_msg(st == EMU_OK, "load: %s (%s)", emu_status_name(st), msg);
    S->k_lm = emu_kernel_find(S->m, "k_loadmeta");
    S->k_g = emu_kernel_find(S->m, "k_memcheck_g");
    S->k_s = emu_kernel_find(S->m, "k_memcheck_s");
    ck_assert_ptr_nonnull(S->k_lm);
    ck_assert_ptr_nonnull(S->k_g);
    ck_assert_ptr_nonnull(S->k_s);
    uint64_t size = 0;
    ck_assert_int_eq(emu_var_find(S->m, "__ga_cfg", &S->cfg, &size), EMU_OK);
    ck_assert_uint_eq(size, 64);
}

static void sw_close(sw_t *S)
{
    emu_destroy(S->d);
}

static void put32(sw_t *S, unsigned off, uint32_t v)
{
    ck_assert_int_eq(emu_write(S->d, S->cfg + off, &v, 4), EMU_OK);
}

static void put64(sw_t *S, unsigned off, uint64_t v)
{
    ck_assert_int_eq(emu_write(S->d, S->cfg + off, &v, 8), EMU_OK);
}

static uint32_t get32(sw_t *S, unsigned off)
{
    uint32_t v = 0;
    ck_assert_int_eq(emu_read(S->d, &v, S->cfg + off, 4), EMU_OK);
    return v;
}

static uint64_t get64(sw_t *S, unsigned off)
{
    uint64_t v = 0;
    ck_assert_int_eq(emu_read(S->d, &v, S->cfg + off, 8), EMU_OK);
    return v;
}

static void clear_record(sw_t *S)
{
    static const uint8_t zero[24];
    ck_assert_int_eq(emu_write(S->d, S->cfg + CFG_ERRORS, zero, sizeof zero), EMU_OK);
}

/* One allocation of the random history. */
typedef struct {
    uint64_t p, size;
    uint64_t loc; /* its entry's location while it was live */
    bool freed;
} alloc_t;

typedef struct {
    ga_mem_t *mem;
    ga_rt_t *rt;
    uint64_t md_base, md_bytes;
    alloc_t a[600];
    unsigned n;
} world_t;

/* Build the model's structure at a device allocation of S and copy it into device memory. */
static void world_build(world_t *W, sw_t *S, ga_layout_t layout, unsigned tag_bits, uint64_t seed, unsigned ops)
{
    memset(W, 0, sizeof *W);
    ck_assert_int_eq(ga_mem_create(&W->mem), GA_OK);
    ga_rt_cfg_t rc;
    ga_rt_default_cfg(&rc, layout, tag_bits, seed);
    rc.heap_base = 0x100000000000ull; /* the pointers' addresses: never dereferenced here */
    rc.heap_size = 1ull << 30;
    rc.md_capacity = 512;
    uint64_t bytes = ga_rt_md_bytes(&rc);
    ck_assert_uint_gt(bytes, 0);
    uint64_t dev = 0;
    ck_assert_int_eq(emu_malloc(S->d, bytes + 256, &dev), EMU_OK);
    dev &= (1ull << (64 - tag_bits)) - 1; /* the device's own tag: the memory system strips it */
    rc.md_base = (dev + 255) & ~255ull;
    W->md_base = rc.md_base;
    W->md_bytes = bytes;
    ga_err_t ce = ga_rt_create(&rc, W->mem, &W->rt);
    ck_assert_msg(ce == GA_OK, "ga_rt_create: %d (md_base 0x%" PRIx64 ", %" PRIu64 " bytes)", ce, rc.md_base, bytes);
    uint64_t s = seed * 0x9e3779b97f4a7c15ull + 1;
    for (unsigned i = 0; i < ops && W->n < sizeof W->a / sizeof W->a[0]; i++) {
        uint64_t r = rng_next(&s);
        if (W->n > 0 && r % 3 == 0) { /* free a random live one */
            alloc_t *x = &W->a[rng_next(&s) % W->n];
            ga_entry_t e;
            if (!x->freed && ga_rt_find(W->rt, x->p, &e, &x->loc) && ga_rt_free(W->rt, x->p) == GA_OK)
                x->freed = true;
            continue;
        }
        uint64_t size = 1 + rng_next(&s) % 5000;
        uint64_t p = 0;
        if (ga_rt_malloc(W->rt, size, &p) != GA_OK) break;
        W->a[W->n++] = (alloc_t){p, size, 0, false};
    }
    ck_assert_uint_gt(W->n, 100);
    /* Copy the region: the nodes hold absolute addresses inside it, valid in device memory too. */
    /* 16 bytes at a time: a read touching a page the runtime never wrote returns zeros for all of it */
    uint8_t *buf = calloc(1, bytes);
    ck_assert_ptr_nonnull(buf);
    for (uint64_t off = 0; off < bytes; off += 16) ga_mem_read(W->mem, W->md_base + off, buf + off, 16);
    ck_assert_int_eq(emu_write(S->d, W->md_base, buf, bytes), EMU_OK);
    free(buf);
}

static void world_free(world_t *W)
{
    ga_rt_destroy(W->rt);
    ga_mem_destroy(W->mem);
}

typedef struct {
    uint64_t base, size, slot;
} pair_t;

static int pair_cmp(const void *x, const void *y)
{
    const pair_t *a = x, *b = y;
    return a->base < b->base ? -1 : a->base > b->base;
}

/* Fill __ga_cfg for W's structure; the table layout also gets the oracle array a host would build
 * from its own allocation list: {base, size, slot} of every occupied slot (live or freed entry), sorted
 * by base. */
static unsigned cfg_fill(sw_t *S, world_t *W, ga_layout_t layout, unsigned tag_bits, uint32_t step_limit,
                         uint32_t policy)
{
    put32(S, CFG_LAYOUT, (uint32_t)layout);
    put32(S, CFG_TAG_BITS, tag_bits);
    put64(S, CFG_ROOT, ga_rt_root(W->rt));
    put32(S, CFG_STEP_LIMIT, step_limit);
    put32(S, CFG_POLICY, policy);
    clear_record(S);
    unsigned npairs = 0;
    if (layout == GA_LAYOUT_TABLE) {
        unsigned cap = (unsigned)(W->md_bytes / 16);
        pair_t *pr = calloc(cap, sizeof *pr);
        ck_assert_ptr_nonnull(pr);
        uint64_t mask = (1ull << (64 - tag_bits)) - 1;
        for (unsigned i = 0; i < cap; i++) {
            ga_entry_t e = {0, 0};
            ga_mem_read(W->mem, W->md_base + 16ull * i, &e, sizeof e);
            if (e.size != 0) pr[npairs++] = (pair_t){e.tb & mask, e.size, i};
        }
        qsort(pr, npairs, sizeof *pr, pair_cmp);
        uint64_t dev = 0;
        ck_assert_int_eq(emu_malloc(S->d, sizeof *pr * (npairs + 1), &dev), EMU_OK);
        ck_assert_int_eq(emu_write(S->d, dev, pr, sizeof *pr * npairs), EMU_OK);
        put64(S, CFG_ORACLE, dev);
        put64(S, CFG_ORACLE_N, npairs);
        free(pr);
        ck_assert_uint_gt(npairs, 50);
    }
    return npairs;
}

/* The pointers LOADMETA and MEMCHECK.G are tried on. */
static unsigned make_pointers(const world_t *W, unsigned tag_bits, uint64_t seed, uint64_t *ps, unsigned cap)
{
    unsigned V = 64 - tag_bits, n = 0;
    uint64_t mask = (1ull << V) - 1, F = (1ull << tag_bits) - 1, s = seed | 1;
#define PUSH(x)                   \
    do {                          \
        if (n < cap) ps[n++] = (x); \
    } while (0)
    for (unsigned i = 0; i < W->n; i++) {
        uint64_t p = W->a[i].p, sz = W->a[i].size, t = p >> V, a = p & mask;
        PUSH(p);
        PUSH(p + sz - 1);
        PUSH(p + sz);
        PUSH(p + rng_next(&s) % sz);
        PUSH((p - 1) & mask ? p - 1 : p);
        PUSH(a | ((1 + (t + rng_next(&s) % (F - 2)) % (F - 1)) << V)); /* another live tag */
        PUSH(a);                                                       /* tag 0 */
        PUSH(a | (F << V));                                            /* the freed tag */
    }
    for (unsigned i = 0; i < 200; i++)
        PUSH((0x100000000000ull + rng_next(&s) % (1ull << 30)) | ((1 + rng_next(&s) % (F - 1)) << V));
#undef PUSH
    return n;
}

static uint64_t model_loadmeta(world_t *W, ga_layout_t layout, unsigned tag_bits, uint32_t step_limit, uint64_t p,
                               unsigned *found)
{
    unsigned V = 64 - tag_bits;
    uint64_t t = p >> V, F = (1ull << tag_bits) - 1;
    if (t == 0 || t == F) return 0; /* spec §3.2 step 1: no walk */
    ga_walk_cfg_t wc = {layout, ga_rt_root(W->rt), step_limit, tag_bits};
    ga_memif_t mi = ga_mem_memif(W->mem);
    mi.oracle = ga_rt_oracle;
    mi.oracle_ctx = W->rt;
    ga_walk_result_t r = ga_walk(&wc, &mi, p);
    if (r.status != GA_WALK_FOUND) return 0;
    (*found)++;
    return r.loc;
}

/* Corrupt ncorrupt 8-byte words of the region, the same in the model's memory and the device's, with
 * values that keep every pointer the bodies follow inside the region (a real GPU would fault on a wild
 * one; the model reads it as an error response): LIST/BST words become 0 or another node's location,
 * 32-aligned or not; INDEX words become small headers and refs (count 0..13, kind 0..2, reserved bits,
 * refs inside the region); TABLE words anything (slots are only compared; its oracle array was built
 * before). The walks' fail-closed rules and step limit then decide, on both sides. */
static void corrupt(world_t *W, sw_t *S, ga_layout_t layout, uint64_t seed, unsigned ncorrupt)
{
    uint64_t s = seed * 31 + 7, words = W->md_bytes / 8, refs = W->md_bytes / 16;
    /* INDEX: the tree's nodes (breadth first from ROOT, spec §2.3 node format), so that half of the
     * corruptions hit a header or a ref that walks really read */
    uint64_t nodes[256];
    unsigned nn = 0;
    if (layout == GA_LAYOUT_INDEX) {
        uint64_t root = ga_rt_root(W->rt);
        nodes[nn++] = root;
        for (unsigned q = 0; q < nn; q++) {
            uint32_t h = 0;
            ga_mem_read(W->mem, nodes[q], &h, 4);
            if (((h >> 8) & 255) != 1) continue; /* a leaf: its refs name slots */
            for (unsigned j = 0; j < (h & 255) && nn < 256; j++) {
                uint32_t ref = 0;
                ga_mem_read(W->mem, nodes[q] + 4 + 4 * j, &ref, 4);
                nodes[nn++] = root + 16ull * ref;
            }
        }
    }
    for (unsigned k = 0; k < ncorrupt; k++) {
        uint64_t off = 8 * (rng_next(&s) % words), r = rng_next(&s), v;
        switch (layout) {
        case GA_LAYOUT_LIST:
        case GA_LAYOUT_BST:
            v = (r & 3) == 0 ? 0 : W->md_base + 32 * (r % (W->md_bytes / 32)) + 8 * ((r >> 40) % 4 == 0) * (1 + (r >> 50) % 2);
            break;
        case GA_LAYOUT_INDEX: {
            if (nn > 0 && (r & 1)) { /* a node of the tree: header or ref, 4 bytes */
                uint64_t n = nodes[(r >> 1) % nn];
                uint32_t h = 0, c, ref;
                ga_mem_read(W->mem, n, &h, 4);
                c = h & 255;
                unsigned j = c ? (unsigned)((r >> 9) % c) : 0, what = (unsigned)((r >> 5) % 5);
                uint64_t at = n;
                ga_mem_read(W->mem, n + 4 + 4 * j, &ref, 4);
                uint32_t v4 = what == 0 ? (h & ~255u) | (12 + (uint32_t)((r >> 13) & 1))  /* count 12, 13 */
                            : what == 1 ? (h & ~0xff00u) | 2u << 8                          /* kind 2 */
                            : what == 2 ? h | 1u << (16 + (r >> 13) % 16)                   /* reserved */
                                        : (at = n + 4 + 4 * j, ref + (what == 3 ? 4u : 1u)); /* 64- or 16-aligned */
                ck_assert_int_eq(ga_mem_write(W->mem, at, &v4, 4), GA_OK);
                ck_assert_int_eq(emu_write(S->d, at, &v4, 4), EMU_OK);
                continue;
            }
            uint32_t lo = (uint32_t)(r % 14) | (uint32_t)((r >> 8) % 3) << 8 | ((r >> 12) % 5 == 0 ? 1u << 20 : 0);
            uint32_t hi = (uint32_t)((r >> 20) % refs);
            v = (r >> 60) < 4 ? (uint64_t)hi << 32 | (uint32_t)((r >> 32) % refs) : (uint64_t)hi << 32 | lo;
            break;
        }
        default: v = r; break;
        }
        ck_assert_int_eq(ga_mem_write(W->mem, W->md_base + off, &v, 8), GA_OK);
        ck_assert_int_eq(emu_write(S->d, W->md_base + off, &v, 8), EMU_OK);
    }
}

static void check_loadmeta(ga_layout_t layout, unsigned tag_bits, uint64_t seed, unsigned ncorrupt)
{
    sw_t S;
    sw_open(&S, tag_bits);
    world_t W;
    world_build(&W, &S, layout, tag_bits, seed, 700);
    cfg_fill(&S, &W, layout, tag_bits, 65536, 0);
    if (ncorrupt) corrupt(&W, &S, layout, seed, ncorrupt);
    static uint64_t ps[6000], got[6000];
    unsigned n = make_pointers(&W, tag_bits, seed, ps, 6000);
    uint64_t din = 0, dout = 0;
    ck_assert_int_eq(emu_malloc(S.d, 8ull * n, &din), EMU_OK);
    ck_assert_int_eq(emu_malloc(S.d, 8ull * n, &dout), EMU_OK);
    ck_assert_int_eq(emu_write(S.d, din, ps, 8ull * n), EMU_OK);
    static const uint32_t limits[] = {65536, 1, 2, 3, 4, 6};
    for (unsigned li = 0; li < sizeof limits / sizeof limits[0]; li++) {
        put32(&S, CFG_STEP_LIMIT, limits[li]);
        uint32_t nn = n;
        void *args[] = {&din, &dout, &nn};
        char msg[512] = "";
        emu_dim3_t grid = {(n + 127) / 128, 1, 1}, block = {128, 1, 1};
        ck_assert_msg(emu_launch(S.d, S.k_lm, grid, block, 0, args, msg, sizeof msg) == EMU_OK, "launch: %s", msg);
        ck_assert_int_eq(emu_read(S.d, got, dout, 8ull * n), EMU_OK);
        unsigned found = 0;
        for (unsigned i = 0; i < n; i++) {
            uint64_t want = model_loadmeta(&W, layout, tag_bits, limits[li], ps[i], &found);
            ck_assert_msg(got[i] == want,
                          "%s T=%u limit %u: LOADMETA(0x%016" PRIx64 ") = 0x%" PRIx64 ", the model says 0x%" PRIx64,
                          ga_layout_name(layout), tag_bits, limits[li], ps[i], got[i], want);
        }
        /* The comparison means something only if both outcomes occur. */
        if (limits[li] == 65536 && !ncorrupt) ck_assert_uint_gt(found, W.n / 3);
        ck_assert_uint_eq(get32(&S, CFG_ERRORS), 0); /* LOADMETA never records an error */
    }
    world_free(&W);
    sw_close(&S);
}

START_TEST(t_loadmeta_list) { check_loadmeta(GA_LAYOUT_LIST, 7, 11, 0); }
END_TEST
START_TEST(t_loadmeta_bst) { check_loadmeta(GA_LAYOUT_BST, 7, 12, 0); check_loadmeta(GA_LAYOUT_BST, 16, 13, 0); }
END_TEST
START_TEST(t_loadmeta_table) { check_loadmeta(GA_LAYOUT_TABLE, 7, 14, 0); check_loadmeta(GA_LAYOUT_TABLE, 16, 15, 0); }
END_TEST
START_TEST(t_loadmeta_index) { check_loadmeta(GA_LAYOUT_INDEX, 7, 16, 0); check_loadmeta(GA_LAYOUT_INDEX, 16, 17, 0); }
END_TEST

/* Corrupt structures: fail-closed rules, cycles and the step limit, on both sides. */
START_TEST(t_loadmeta_corrupt)
{
    for (uint64_t seed = 40; seed < 46; seed++) {
        check_loadmeta(GA_LAYOUT_LIST, 7, seed, 30);
        check_loadmeta(GA_LAYOUT_BST, 7, seed, 30);
        check_loadmeta(GA_LAYOUT_TABLE, 16, seed, 60);
        check_loadmeta(GA_LAYOUT_INDEX, 7, seed, 30);
    }
}
END_TEST

/* A code that names no layout fails closed: every LOADMETA returns 0. */
START_TEST(t_loadmeta_bad_layout)
{
    sw_t S;
    sw_open(&S, 7);
    world_t W;
    world_build(&W, &S, GA_LAYOUT_BST, 7, 21, 300);
    cfg_fill(&S, &W, GA_LAYOUT_BST, 7, 65536, 0);
    uint64_t din = 0, dout = 0, p = 0, got = 1;
    for (unsigned i = 0; i < W.n && p == 0; i++)
        if (!W.a[i].freed) p = W.a[i].p;
    ck_assert_int_eq(emu_malloc(S.d, 8, &din), EMU_OK);
    ck_assert_int_eq(emu_malloc(S.d, 8, &dout), EMU_OK);
    ck_assert_int_eq(emu_write(S.d, din, &p, 8), EMU_OK);
    uint32_t nn = 1;
    void *args[] = {&din, &dout, &nn};
    char msg[512] = "";
    emu_dim3_t one = {1, 1, 1};
    ck_assert_int_eq(emu_launch(S.d, S.k_lm, one, one, 0, args, msg, sizeof msg), EMU_OK);
    ck_assert_int_eq(emu_read(S.d, &got, dout, 8), EMU_OK);
    ck_assert_uint_ne(got, 0); /* a live base is found with the right code ... */
    for (uint32_t code = 4; code < 300; code += 37) {
        put32(&S, CFG_LAYOUT, code);
        got = 1;
        ck_assert_int_eq(emu_launch(S.d, S.k_lm, one, one, 0, args, msg, sizeof msg), EMU_OK);
        ck_assert_int_eq(emu_read(S.d, &got, dout, 8), EMU_OK);
        ck_assert_uint_eq(got, 0); /* ... and not with one that names no layout */
    }
    world_free(&W);
    sw_close(&S);
}
END_TEST

static void check_memcheck_g(ga_layout_t layout, unsigned tag_bits, uint64_t seed)
{
    sw_t S;
    sw_open(&S, tag_bits);
    world_t W;
    world_build(&W, &S, layout, tag_bits, seed, 400);
    cfg_fill(&S, &W, layout, tag_bits, 65536, 0);
    static uint64_t ps[4000];
    unsigned n = make_pointers(&W, tag_bits, seed, ps, 4000), V = 64 - tag_bits, kinds[8] = {0};
    uint64_t mask = (1ull << V) - 1, s = seed, dout = 0;
    ck_assert_int_eq(emu_malloc(S.d, 8, &dout), EMU_OK);
    ga_memif_t mi = ga_mem_memif(W.mem);
    for (unsigned i = 0; i < n; i += 3) {
        uint64_t p = ps[i], md = 0;
        /* the metadata location: LOADMETA's answer for this pointer or a neighbour's, 0, or misaligned */
        unsigned found = 0;
        uint64_t other = ps[rng_next(&s) % n];
        switch (rng_next(&s) % 7) {
        case 0: case 1: case 2: md = model_loadmeta(&W, layout, tag_bits, 65536, p, &found); break;
        case 3: md = model_loadmeta(&W, layout, tag_bits, 65536, other, &found); break;
        case 4: md = 0; break;
        case 5: md = model_loadmeta(&W, layout, tag_bits, 65536, other, &found); md = md ? md + 8 : 4; break;
        default: { /* a freed allocation's pointer with the location its entry had (use after free) */
            const alloc_t *x = &W.a[rng_next(&s) % W.n];
            if (x->freed) p = x->p + rng_next(&s) % x->size, md = x->loc;
            break;
        }
        }
        static const uint32_t sizes[] = {1, 2, 4, 8, 16, 3};
        uint32_t size = sizes[rng_next(&s) % 6];
        uint32_t info = size | (uint32_t)(rng_next(&s) % 3) << 8 | (uint32_t)(rng_next(&s) % 2) << 10;
        ga_md_state_t mst = md == 0 ? GA_MD_NONE : (md & 15) ? GA_MD_FAULT : GA_MD_OK;
        ga_entry_t e = {0, 0};
        uint32_t reads = 0;
        if (mst == GA_MD_OK) mst = ga_fetch_entry(&mi, md, &e, &reads);
        ga_exc_kind_t want = ga_check_g_lane(p, size, mst, e, tag_bits);
        kinds[want]++;
        clear_record(&S);
        uint64_t got = ~0ull;
        void *args[] = {&p, &md, &info, &dout};
        char msg[512] = "";
        emu_dim3_t one = {1, 1, 1};
        ck_assert_msg(emu_launch(S.d, S.k_g, one, one, 0, args, msg, sizeof msg) == EMU_OK, "launch: %s", msg);
        ck_assert_int_eq(emu_read(S.d, &got, dout, 8), EMU_OK);
        ck_assert_uint_eq(got, p & mask);
        uint32_t errs = get32(&S, CFG_ERRORS);
        ck_assert_msg(errs == (want != GA_EXC_NONE),
                      "%s: MEMCHECK.G(0x%016" PRIx64 ", md 0x%" PRIx64 ", S %u): %u errors, the model says %s",
                      ga_layout_name(layout), p, md, size, errs, ga_exc_name(want));
        if (want != GA_EXC_NONE) {
            ck_assert_uint_eq(get64(&S, CFG_FIRST_ADDR), p);
            ck_assert_msg(get32(&S, CFG_FIRST_KIND) == (uint32_t)want, "%s: MEMCHECK.G(0x%016" PRIx64
                          ", md 0x%" PRIx64 "): kind %u, the model says %s", ga_layout_name(layout), p, md,
                          get32(&S, CFG_FIRST_KIND), ga_exc_name(want));
            ck_assert_uint_eq(get32(&S, CFG_FIRST_INFO), info);
        }
    }
    /* every outcome of G1..G7 occurred at least once */
    for (unsigned k = GA_EXC_NONE; k <= GA_EXC_METADATA_FAULT; k++)
        if (k != GA_EXC_SHARED_OUT_OF_BOUNDS)
            ck_assert_msg(kinds[k] > 0, "%s: no case of %s", ga_layout_name(layout), ga_exc_name(k));
    world_free(&W);
    sw_close(&S);
}

START_TEST(t_memcheck_g_bst) { check_memcheck_g(GA_LAYOUT_BST, 7, 31); }
END_TEST
START_TEST(t_memcheck_g_index) { check_memcheck_g(GA_LAYOUT_INDEX, 16, 32); }
END_TEST

START_TEST(t_memcheck_s)
{
    sw_t S;
    sw_open(&S, 7);
    put32(&S, CFG_POLICY, 0);
    static const uint32_t vals[] = {0, 1, 4, 15, 16, 17, 0x7ff0, 0xbff8, 0xc000, 0xfffffff0u, 0xfffffffcu, 0xffffffffu};
    const unsigned nv = sizeof vals / sizeof vals[0];
    unsigned errs_seen = 0, total = 0;
    uint64_t s = 77;
    for (unsigned i = 0; i < 900; i++) {
        uint32_t a = vals[rng_next(&s) % nv], b = vals[rng_next(&s) % nv], sz = vals[rng_next(&s) % nv];
        if (rng_next(&s) % 2) a = b + (uint32_t)(rng_next(&s) % 40) - 8;
        static const uint32_t sizes[] = {1, 2, 4, 8, 16};
        uint32_t S_ = sizes[rng_next(&s) % 5], enc = S_ | (uint32_t)(rng_next(&s) % 2) << 10;
        ga_exc_kind_t want = ga_check_s_lane(a, S_, b, sz);
        clear_record(&S);
        void *args[] = {&a, &b, &sz, &enc};
        char msg[512] = "";
        emu_dim3_t one = {1, 1, 1};
        ck_assert_int_eq(emu_launch(S.d, S.k_s, one, one, 0, args, msg, sizeof msg), EMU_OK);
        uint32_t e = get32(&S, CFG_ERRORS);
        ck_assert_msg(e == (want != GA_EXC_NONE), "MEMCHECK.S(a 0x%x, base 0x%x, size 0x%x, S %u): %u errors, the "
                      "model says %s", a, b, sz, S_, e, ga_exc_name(want));
        if (e) {
            ck_assert_uint_eq(get64(&S, CFG_FIRST_ADDR), a);
            ck_assert_uint_eq(get32(&S, CFG_FIRST_KIND), GA_EXC_SHARED_OUT_OF_BOUNDS);
            ck_assert_uint_eq(get32(&S, CFG_FIRST_INFO), enc);
        }
        errs_seen += e;
        total++;
    }
    ck_assert_uint_gt(errs_seen, total / 10);
    ck_assert_uint_lt(errs_seen, total - total / 10);
    sw_close(&S);
}
END_TEST

/* Errors count; only the first leaves its record; policy 1 traps (the launch fails). */
START_TEST(t_record_and_terminate)
{
    sw_t S;
    sw_open(&S, 7);
    clear_record(&S);
    uint32_t a1 = 100, a2 = 200, b = 0, sz = 64, enc = 4;
    char msg[512] = "";
    emu_dim3_t one = {1, 1, 1};
    void *args1[] = {&a1, &b, &sz, &enc};
    void *args2[] = {&a2, &b, &sz, &enc};
    ck_assert_int_eq(emu_launch(S.d, S.k_s, one, one, 0, args1, msg, sizeof msg), EMU_OK);
    ck_assert_int_eq(emu_launch(S.d, S.k_s, one, one, 0, args2, msg, sizeof msg), EMU_OK);
    ck_assert_uint_eq(get32(&S, CFG_ERRORS), 2);
    ck_assert_uint_eq(get64(&S, CFG_FIRST_ADDR), 100);
    put32(&S, CFG_POLICY, 1);
    ck_assert_int_eq(emu_launch(S.d, S.k_s, one, one, 0, args2, msg, sizeof msg), EMU_ERR_LAUNCH_FAILED);
    sw_close(&S);
    /* a passing check under terminate does not stop anything */
    sw_open(&S, 7);
    put32(&S, CFG_POLICY, 1);
    uint32_t ok = 8;
    void *args3[] = {&ok, &b, &sz, &enc};
    ck_assert_int_eq(emu_launch(S.d, S.k_s, one, one, 0, args3, msg, sizeof msg), EMU_OK);
    ck_assert_uint_eq(get32(&S, CFG_ERRORS), 0);
    sw_close(&S);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("garuntime");
    TCase *tc = tcase_create("bodies");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, t_loadmeta_list);
    tcase_add_test(tc, t_loadmeta_bst);
    tcase_add_test(tc, t_loadmeta_table);
    tcase_add_test(tc, t_loadmeta_index);
    tcase_add_test(tc, t_loadmeta_corrupt);
    tcase_add_test(tc, t_loadmeta_bad_layout);
    tcase_add_test(tc, t_memcheck_g_bst);
    tcase_add_test(tc, t_memcheck_g_index);
    tcase_add_test(tc, t_memcheck_s);
    tcase_add_test(tc, t_record_and_terminate);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
