/*
 * test_emu.c — the PTX interpreter (emu/, docs/emulator.md): instruction semantics checked lane by lane
 * against C on boundary inputs, SIMT divergence and reconvergence, calls, barriers, warp-wide
 * operations, memory spaces, GPUArmor in the loop (compiler mode and HWOnly detections, TERMINATE),
 * trace capture, and every bad-input path (unsupported PTX, bad launch shapes, hangs, deep recursion).
 *
 * Kernels are hand-written PTX. An ALU case is one PTX fragment dropped into a template kernel that
 * loads three 64-bit inputs per lane (%rd5, %rd6, %rd7) and stores %rd0; the expected value of every
 * lane comes from a C function of the same inputs.
 */
#include "emu.h"

#include <check.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *HDR = ".version 9.0\n.target sm_80\n.address_size 64\n";

/* A device with output to a scratch file (reports are checked by reading it back). */
typedef struct {
    emu_dev_t *d;
    FILE *log;
    char logbuf[65536];
} dev_t_;

static void dev_open(dev_t_ *D, emu_armor_t armor, ga_policy_t policy)
{
    emu_cfg_t c;
    emu_default_cfg(&c);
    c.armor = armor;
    c.policy = policy;
    c.sms = 2;
    D->log = tmpfile();
    ck_assert_ptr_nonnull(D->log);
    c.log = D->log;
    char msg[256];
    ck_assert_int_eq(emu_create(&c, &D->d, msg, sizeof msg), EMU_OK);
}

static const char *dev_log(dev_t_ *D)
{
    fflush(D->log);
    rewind(D->log);
    size_t n = fread(D->logbuf, 1, sizeof D->logbuf - 1, D->log);
    D->logbuf[n] = 0;
    fseek(D->log, 0, SEEK_END);
    return D->logbuf;
}

static void dev_close(dev_t_ *D)
{
    emu_destroy(D->d);
    fclose(D->log);
}

static emu_module_t *load(dev_t_ *D, const char *body, emu_status_t want, char *msg, size_t cap)
{
    char *txt = malloc(strlen(HDR) + strlen(body) + 1);
    strcpy(txt, HDR);
    strcat(txt, body);
    emu_module_t *m = NULL;
    emu_status_t st = emu_module_load(D->d, "t.ptx", txt, strlen(txt), &m, msg, cap);
    free(txt);
    ck_assert_msg(st == want, "load: %s (%s), wanted %s", emu_status_name(st), msg, emu_status_name(want));
    return m;
}

/* ---------------------------------------------------------------------------------------------------
 * ALU cases. */

typedef uint64_t (*ref_fn)(uint64_t a, uint64_t b, uint64_t c);

static const char *TEMPLATE_A =
    ".visible .entry t(.param .u64 po, .param .u64 pi)\n{\n"
    ".reg .b32 %r<16>; .reg .b64 %rd<16>; .reg .pred %p<8>; .reg .f32 %f<8>; .reg .f64 %fd<8>;\n"
    ".reg .b16 %rs<8>;\n"
    "ld.param.u64 %rd1, [po]; ld.param.u64 %rd2, [pi];\n"
    "mov.u32 %r15, %tid.x; mul.wide.u32 %rd3, %r15, 24; add.s64 %rd4, %rd2, %rd3;\n"
    "ld.global.u64 %rd5, [%rd4]; ld.global.u64 %rd6, [%rd4+8]; ld.global.u64 %rd7, [%rd4+16];\n"
    "mov.u64 %rd0, 0;\n";
static const char *TEMPLATE_B =
    "\nmul.wide.u32 %rd3, %r15, 8; add.s64 %rd4, %rd1, %rd3; st.global.u64 [%rd4], %rd0;\nret;\n}\n";

/* 32 lanes of inputs: boundary values then a fixed pseudo-random tail. */
static void inputs(uint64_t in[32][3], unsigned kind)
{
    static const uint64_t b32[] = {0, 1, 2, 0x7fffffff, 0x80000000, 0xffffffff, 0xfffffffe, 31, 32, 33, 0x12345678,
                                   0x00ff00ff, 0xdeadbeef, 7, 0x80000001, 16};
    static const uint64_t b64[] = {0, 1, UINT64_MAX, (uint64_t)INT64_MAX, (uint64_t)INT64_MIN, 0xffffffff,
                                   0x100000000, 63, 64, 0x123456789abcdef0, 0x8000000000000001, 5};
    uint64_t x = 0x9e3779b97f4a7c15u + kind;
    for (unsigned l = 0; l < 32; l++)
        for (unsigned k = 0; k < 3; k++) {
            x ^= x << 13, x ^= x >> 7, x ^= x << 17;
            uint64_t v;
            if (kind == 64)
                v = (l < 12) ? b64[(l + k * 5) % 12] : x;
            else
                v = (l < 16) ? b32[(l + k * 7) % 16] : (x & 0xffffffffu);
            in[l][k] = v;
        }
}

static void run_alu(const char *frag, unsigned kind, ref_fn ref, uint64_t fixed_b)
{
    dev_t_ D;
    dev_open(&D, EMU_ARMOR_OFF, GA_POLICY_REPORT);
    char body[4096];
    snprintf(body, sizeof body, "%s%s%s", TEMPLATE_A, frag, TEMPLATE_B);
    char msg[512] = "";
    emu_module_t *m = load(&D, body, EMU_OK, msg, sizeof msg);
    uint64_t in[32][3], out[32];
    inputs(in, kind);
    if (fixed_b != UINT64_MAX)
        for (unsigned l = 0; l < 32; l++) in[l][1] = fixed_b;
    uint64_t po, pi;
    ck_assert_int_eq(emu_malloc(D.d, sizeof out, &po), EMU_OK);
    ck_assert_int_eq(emu_malloc(D.d, sizeof in, &pi), EMU_OK);
    ck_assert_int_eq(emu_write(D.d, pi, in, sizeof in), EMU_OK);
    void *args[] = {&po, &pi};
    emu_kernel_t *k = emu_kernel_find(m, "t");
    ck_assert_ptr_nonnull(k);
    emu_status_t st = emu_launch(D.d, k, (emu_dim3_t){1, 1, 1}, (emu_dim3_t){32, 1, 1}, 0, args, msg, sizeof msg);
    ck_assert_msg(st == EMU_OK, "%s: %s", frag, msg);
    ck_assert_int_eq(emu_read(D.d, out, po, sizeof out), EMU_OK);
    for (unsigned l = 0; l < 32; l++) {
        uint64_t want = ref(in[l][0], in[l][1], in[l][2]);
        ck_assert_msg(out[l] == want, "%s lane %u: a=0x%" PRIx64 " b=0x%" PRIx64 " c=0x%" PRIx64 ": got 0x%" PRIx64
                      " want 0x%" PRIx64, frag, l, in[l][0], in[l][1], in[l][2], out[l], want);
    }
    ck_assert_uint_eq(emu_error_count(D.d), 0);
    dev_close(&D);
}

#define LO32(x) ((uint32_t)(x))
#define S32(x) ((int32_t)(uint32_t)(x))

static uint64_t r_add_s32(uint64_t a, uint64_t b, uint64_t c) { (void)c; return (uint32_t)(LO32(a) + LO32(b)); }
static uint64_t r_sub_sat(uint64_t a, uint64_t b, uint64_t c)
{
    (void)c;
    int64_t s = (int64_t)S32(a) - (int64_t)S32(b);
    if (s > INT32_MAX) s = INT32_MAX;
    if (s < INT32_MIN) s = INT32_MIN;
    return (uint32_t)s;
}
static uint64_t r_mul_hi_s32(uint64_t a, uint64_t b, uint64_t c)
{
    (void)c;
    return (uint32_t)(((int64_t)S32(a) * (int64_t)S32(b)) >> 32);
}
static uint64_t r_mul_hi_u64(uint64_t a, uint64_t b, uint64_t c)
{
    (void)c;
    return (uint64_t)(((unsigned __int128)a * b) >> 64);
}
static uint64_t r_mul_wide_s32(uint64_t a, uint64_t b, uint64_t c) { (void)c; return (uint64_t)((int64_t)S32(a) * S32(b)); }
static uint64_t r_mad_lo(uint64_t a, uint64_t b, uint64_t c) { return (uint32_t)(LO32(a) * LO32(b) + LO32(c)); }
static uint64_t r_mad_wide_u32(uint64_t a, uint64_t b, uint64_t c) { return (uint64_t)LO32(a) * LO32(b) + c; }
static uint64_t r_div_u32(uint64_t a, uint64_t b, uint64_t c)
{
    (void)c;
    return LO32(b) ? LO32(a) / LO32(b) : 0xffffffffu;
}
static uint64_t r_rem_s32(uint64_t a, uint64_t b, uint64_t c)
{
    (void)c;
    if (S32(b) == 0) return LO32(a);
    if (S32(a) == INT32_MIN && S32(b) == -1) return 0;
    return (uint32_t)(S32(a) % S32(b));
}
static uint64_t r_shr_s32(uint64_t a, uint64_t b, uint64_t c)
{
    (void)c;
    uint32_t s = LO32(b);
    return (uint32_t)(S32(a) >> (s > 31 ? 31 : s));
}
static uint64_t r_shl_b64(uint64_t a, uint64_t b, uint64_t c)
{
    (void)c;
    uint32_t s = LO32(b);
    return s > 63 ? 0 : a << s;
}
static uint64_t r_bfe_s32(uint64_t a, uint64_t b, uint64_t c)
{
    uint32_t pos = LO32(b) & 0xff, len = LO32(c) & 0xff, x = LO32(a), r = 0;
    uint32_t sbit = len == 0 ? 0 : (pos + len - 1 <= 31 ? (x >> (pos + len - 1)) & 1u : x >> 31);
    for (uint32_t k = 0; k < 32; k++) {
        uint32_t bit = (k < len && pos + k <= 31) ? (x >> (pos + k)) & 1u : sbit;
        r |= bit << k;
    }
    return r;
}
static uint64_t r_bfi(uint64_t a, uint64_t b, uint64_t c)
{
    uint32_t pos = LO32(c) & 0xff, len = 8, r = LO32(b);
    for (uint32_t k = 0; k < len && pos + k <= 31; k++) r = (r & ~(1u << (pos + k))) | (((LO32(a) >> k) & 1u) << (pos + k));
    return r;
}
static uint64_t r_popc(uint64_t a, uint64_t b, uint64_t c) { (void)b, (void)c; return (uint64_t)__builtin_popcountll(a); }
static uint64_t r_clz32(uint64_t a, uint64_t b, uint64_t c) { (void)b, (void)c; return LO32(a) ? (uint64_t)__builtin_clz(LO32(a)) : 32; }
static uint64_t r_brev(uint64_t a, uint64_t b, uint64_t c)
{
    (void)b, (void)c;
    uint32_t x = LO32(a), r = 0;
    for (int k = 0; k < 32; k++) r |= ((x >> k) & 1u) << (31 - k);
    return r;
}
static uint64_t r_bfind_s32(uint64_t a, uint64_t b, uint64_t c)
{
    (void)b, (void)c;
    uint32_t x = LO32(a);
    if (S32(x) < 0) x = ~x;
    return x ? 31u - (uint64_t)__builtin_clz(x) : 0xffffffffu;
}
static uint64_t r_prmt(uint64_t a, uint64_t b, uint64_t c)
{
    uint64_t bytes = ((uint64_t)LO32(b) << 32) | LO32(a);
    uint32_t s = LO32(c), r = 0;
    for (int k = 0; k < 4; k++) {
        uint32_t sel = (s >> (4 * k)) & 7u, byte = (uint32_t)(bytes >> (8 * sel)) & 0xffu;
        if ((s >> (4 * k + 3)) & 1u) byte = (byte & 0x80u) ? 0xffu : 0;
        r |= byte << (8 * k);
    }
    return r;
}
static uint64_t r_shf_l_wrap(uint64_t a, uint64_t b, uint64_t c)
{
    uint32_t n = LO32(c) & 31u;
    uint64_t x = ((uint64_t)LO32(b) << 32) | LO32(a);
    return (uint32_t)((x << n) >> 32);
}
/* 0xb8 = F(0xF0, 0xCC, 0xAA) for F(a, b, c) = b ? c : a (PTX lop3: ta = 0xF0, tb = 0xCC, tc = 0xAA) */
static uint64_t r_lop3(uint64_t a, uint64_t b, uint64_t c) { return LO32((b & c) | (~b & a)); }
static uint64_t r_setp_lt_s32(uint64_t a, uint64_t b, uint64_t c) { (void)c; return S32(a) < S32(b) ? 7 : 9; }
static uint64_t r_setp_hi(uint64_t a, uint64_t b, uint64_t c) { (void)c; return LO32(a) > LO32(b) ? 7 : 9; }
static uint64_t r_min_s64(uint64_t a, uint64_t b, uint64_t c) { (void)c; return (int64_t)a < (int64_t)b ? a : b; }
static uint64_t r_add_cc(uint64_t a, uint64_t b, uint64_t c)
{
    (void)c; /* 64-bit add built from two 32-bit halves with the carry chain */
    return a + b;
}
static uint64_t r_cvt_s8(uint64_t a, uint64_t b, uint64_t c) { (void)b, (void)c; return (uint32_t)(int32_t)(int8_t)a; }
static uint64_t r_cvt_sat_u8_s32(uint64_t a, uint64_t b, uint64_t c)
{
    (void)b, (void)c;
    int32_t x = S32(a);
    return (uint64_t)(x < 0 ? 0 : x > 255 ? 255 : x);
}
static uint64_t r_sad(uint64_t a, uint64_t b, uint64_t c)
{
    uint32_t x = LO32(a), y = LO32(b);
    return (uint32_t)((x > y ? x - y : y - x) + LO32(c));
}
static uint64_t r_dp4a(uint64_t a, uint64_t b, uint64_t c)
{
    int64_t acc = S32(c);
    for (int k = 0; k < 4; k++) acc += (int8_t)(a >> (8 * k)) * (int8_t)(b >> (8 * k));
    return (uint32_t)acc;
}

START_TEST(alu_integer)
{
    const uint64_t ANY = UINT64_MAX;
    run_alu("cvt.u32.u64 %r1, %rd5; cvt.u32.u64 %r2, %rd6; add.s32 %r3, %r1, %r2; cvt.u64.u32 %rd0, %r3;", 32,
            r_add_s32, ANY);
    run_alu("cvt.u32.u64 %r1, %rd5; cvt.u32.u64 %r2, %rd6; sub.sat.s32 %r3, %r1, %r2; cvt.u64.u32 %rd0, %r3;", 32,
            r_sub_sat, ANY);
    run_alu("cvt.u32.u64 %r1, %rd5; cvt.u32.u64 %r2, %rd6; mul.hi.s32 %r3, %r1, %r2; cvt.u64.u32 %rd0, %r3;", 32,
            r_mul_hi_s32, ANY);
    run_alu("mul.hi.u64 %rd0, %rd5, %rd6;", 64, r_mul_hi_u64, ANY);
    run_alu("cvt.u32.u64 %r1, %rd5; cvt.u32.u64 %r2, %rd6; mul.wide.s32 %rd0, %r1, %r2;", 32, r_mul_wide_s32, ANY);
    run_alu("cvt.u32.u64 %r1, %rd5; cvt.u32.u64 %r2, %rd6; cvt.u32.u64 %r3, %rd7; mad.lo.s32 %r4, %r1, %r2, %r3;"
            "cvt.u64.u32 %rd0, %r4;",
            32, r_mad_lo, ANY);
    run_alu("cvt.u32.u64 %r1, %rd5; cvt.u32.u64 %r2, %rd6; mad.wide.u32 %rd0, %r1, %r2, %rd7;", 32, r_mad_wide_u32, ANY);
    run_alu("cvt.u32.u64 %r1, %rd5; cvt.u32.u64 %r2, %rd6; div.u32 %r3, %r1, %r2; cvt.u64.u32 %rd0, %r3;", 32,
            r_div_u32, ANY);
    run_alu("cvt.u32.u64 %r1, %rd5; cvt.u32.u64 %r2, %rd6; rem.s32 %r3, %r1, %r2; cvt.u64.u32 %rd0, %r3;", 32,
            r_rem_s32, ANY);
    run_alu("cvt.u32.u64 %r1, %rd5; cvt.u32.u64 %r2, %rd6; shr.s32 %r3, %r1, %r2; cvt.u64.u32 %rd0, %r3;", 32,
            r_shr_s32, ANY);
    run_alu("cvt.u32.u64 %r2, %rd6; shl.b64 %rd0, %rd5, %r2;", 64, r_shl_b64, ANY);
    run_alu("cvt.u32.u64 %r1, %rd5; cvt.u32.u64 %r2, %rd6; cvt.u32.u64 %r3, %rd7; bfe.s32 %r4, %r1, %r2, %r3;"
            "cvt.u64.u32 %rd0, %r4;",
            32, r_bfe_s32, ANY);
    run_alu("cvt.u32.u64 %r1, %rd5; cvt.u32.u64 %r2, %rd6; cvt.u32.u64 %r3, %rd7; bfi.b32 %r4, %r1, %r2, %r3, 8;"
            "cvt.u64.u32 %rd0, %r4;",
            32, r_bfi, ANY);
    run_alu("popc.b64 %r1, %rd5; cvt.u64.u32 %rd0, %r1;", 64, r_popc, ANY);
    run_alu("cvt.u32.u64 %r1, %rd5; clz.b32 %r2, %r1; cvt.u64.u32 %rd0, %r2;", 32, r_clz32, ANY);
    run_alu("cvt.u32.u64 %r1, %rd5; brev.b32 %r2, %r1; cvt.u64.u32 %rd0, %r2;", 32, r_brev, ANY);
    run_alu("cvt.u32.u64 %r1, %rd5; bfind.s32 %r2, %r1; cvt.u64.u32 %rd0, %r2;", 32, r_bfind_s32, ANY);
    run_alu("cvt.u32.u64 %r1, %rd5; cvt.u32.u64 %r2, %rd6; cvt.u32.u64 %r3, %rd7; prmt.b32 %r4, %r1, %r2, %r3;"
            "cvt.u64.u32 %rd0, %r4;",
            32, r_prmt, ANY);
    run_alu("cvt.u32.u64 %r1, %rd5; cvt.u32.u64 %r2, %rd6; cvt.u32.u64 %r3, %rd7; shf.l.wrap.b32 %r4, %r1, %r2, %r3;"
            "cvt.u64.u32 %rd0, %r4;",
            32, r_shf_l_wrap, ANY);
    run_alu("cvt.u32.u64 %r1, %rd5; cvt.u32.u64 %r2, %rd6; cvt.u32.u64 %r3, %rd7; lop3.b32 %r4, %r1, %r2, %r3, 0xb8;"
            "cvt.u64.u32 %rd0, %r4;",
            32, r_lop3, ANY);
    run_alu("cvt.u32.u64 %r1, %rd5; cvt.u32.u64 %r2, %rd6; setp.lt.s32 %p1, %r1, %r2; selp.u64 %rd0, 7, 9, %p1;", 32,
            r_setp_lt_s32, ANY);
    run_alu("cvt.u32.u64 %r1, %rd5; cvt.u32.u64 %r2, %rd6; setp.hi.u32 %p1, %r1, %r2; selp.u64 %rd0, 7, 9, %p1;", 32,
            r_setp_hi, ANY);
    run_alu("min.s64 %rd0, %rd5, %rd6;", 64, r_min_s64, ANY);
    run_alu("mov.b64 {%r1, %r2}, %rd5; mov.b64 {%r3, %r4}, %rd6; add.cc.u32 %r5, %r1, %r3; addc.u32 %r6, %r2, %r4;"
            "mov.b64 %rd0, {%r5, %r6};",
            64, r_add_cc, ANY);
    run_alu("cvt.u32.u64 %r1, %rd5; cvt.u16.u32 %rs1, %r1; cvt.s32.s8 %r2, %rs1; cvt.u64.u32 %rd0, %r2;", 32, r_cvt_s8,
            ANY);
    run_alu("cvt.u32.u64 %r1, %rd5; cvt.sat.u8.s32 %r2, %r1; cvt.u64.u32 %rd0, %r2;", 32, r_cvt_sat_u8_s32, ANY);
    run_alu("cvt.u32.u64 %r1, %rd5; cvt.u32.u64 %r2, %rd6; cvt.u32.u64 %r3, %rd7; sad.u32 %r4, %r1, %r2, %r3;"
            "cvt.u64.u32 %rd0, %r4;",
            32, r_sad, ANY);
    run_alu("cvt.u32.u64 %r1, %rd5; cvt.u32.u64 %r2, %rd6; cvt.u32.u64 %r3, %rd7; dp4a.s32.s32 %r4, %r1, %r2, %r3;"
            "cvt.u64.u32 %rd0, %r4;",
            32, r_dp4a, ANY);
}
END_TEST

/* Float cases: inputs are f32/f64 bit patterns. */
static uint64_t fbits(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}
static float bitsf(uint64_t v)
{
    uint32_t u = (uint32_t)v;
    float f;
    memcpy(&f, &u, 4);
    return f;
}
static uint64_t dbits(double f)
{
    uint64_t u;
    memcpy(&u, &f, 8);
    return u;
}
static double bitsd(uint64_t v)
{
    double f;
    memcpy(&f, &v, 8);
    return f;
}

static uint64_t r_fma32(uint64_t a, uint64_t b, uint64_t c) { return fbits(fmaf(bitsf(a), bitsf(b), bitsf(c))); }
static uint64_t r_div64(uint64_t a, uint64_t b, uint64_t c) { (void)c; return dbits(bitsd(a) / bitsd(b)); }
static uint64_t r_cvt_rni_s32_f32(uint64_t a, uint64_t b, uint64_t c)
{
    (void)b, (void)c;
    float f = bitsf(a);
    if (isnan(f)) return 0;
    double r = nearbyint(f);
    if (r >= 2147483647.0) return 0x7fffffff;
    if (r <= -2147483648.0) return 0x80000000u;
    return (uint32_t)(int32_t)r;
}
static uint64_t r_cvt_rzi_u32_f32(uint64_t a, uint64_t b, uint64_t c)
{
    (void)b, (void)c;
    float f = bitsf(a);
    if (isnan(f) || f <= 0) return 0;
    double r = trunc(f);
    return r >= 4294967295.0 ? 0xffffffffu : (uint32_t)r;
}
static uint64_t r_setp_ltu(uint64_t a, uint64_t b, uint64_t c)
{
    (void)c;
    float x = bitsf(a), y = bitsf(b);
    return (isnan(x) || isnan(y) || x < y) ? 1 : 0;
}
static uint64_t r_max_f32(uint64_t a, uint64_t b, uint64_t c)
{
    (void)c;
    float x = bitsf(a), y = bitsf(b);
    if (isnan(x) && isnan(y)) return 0x7fffffff;
    if (isnan(x)) return LO32(b);
    if (isnan(y)) return LO32(a);
    if (x == y) return LO32(a) & LO32(b); /* +0 wins over -0 */
    return x > y ? LO32(a) : LO32(b);
}
static uint64_t r_f16_round_trip(uint64_t a, uint64_t b, uint64_t c)
{
    (void)b, (void)c; /* cvt.rn.f16.f32 then back: compare with _Float16 where the compiler has it */
    _Float16 h = (_Float16)bitsf(a);
    return fbits((float)h);
}
static uint64_t r_add_rz(uint64_t a, uint64_t b, uint64_t c)
{
    (void)c;
    /* RN sum and its exact error (Knuth's TwoSum, exact in binary32); RZ steps toward zero when the
     * RN result's magnitude exceeds the exact sum's. */
    volatile float x = bitsf(a), y = bitsf(b);
    volatile float s = x + y;
    if (isnan(s) || isinf(s)) return fbits(s);
    volatile float bb = s - x;
    volatile float err = (x - (s - bb)) + (y - bb);
    if (err != 0.0f && ((s > 0.0f && err < 0.0f) || (s < 0.0f && err > 0.0f))) return fbits(nextafterf(s, 0.0f));
    return fbits(s);
}

static void finputs_check(const char *frag, ref_fn ref, bool dbl)
{
    /* float inputs: special values, then a spread */
    dev_t_ D;
    dev_open(&D, EMU_ARMOR_OFF, GA_POLICY_REPORT);
    char body[4096];
    snprintf(body, sizeof body, "%s%s%s", TEMPLATE_A, frag, TEMPLATE_B);
    char msg[512] = "";
    emu_module_t *m = load(&D, body, EMU_OK, msg, sizeof msg);
    static const float fs[] = {0.0f, -0.0f, 1.0f, -1.5f, 2.5f, 3.5f, 1e30f, -1e30f, 1e-40f, 0.1f, 65504.0f, 65520.0f,
                               16777217.0f, 3e9f, -3e9f, 0.33333334f};
    uint64_t in[32][3], out[32];
    uint64_t x = 12345;
    for (unsigned l = 0; l < 32; l++)
        for (unsigned k = 0; k < 3; k++) {
            x ^= x << 13, x ^= x >> 7, x ^= x << 17;
            float f;
            if (l < 16)
                f = fs[(l + 5 * k) % 16];
            else if (l == 16)
                f = NAN;
            else if (l == 17)
                f = INFINITY;
            else
                f = (float)((double)(int64_t)(x % 2000001) / 1000.0 - 1000.0);
            in[l][k] = dbl ? dbits((double)f * (k == 1 ? 3.0 : 1.0)) : fbits(f);
        }
    uint64_t po, pi;
    emu_malloc(D.d, sizeof out, &po);
    emu_malloc(D.d, sizeof in, &pi);
    emu_write(D.d, pi, in, sizeof in);
    void *args[] = {&po, &pi};
    emu_status_t st = emu_launch(D.d, emu_kernel_find(m, "t"), (emu_dim3_t){1, 1, 1}, (emu_dim3_t){32, 1, 1}, 0, args,
                                 msg, sizeof msg);
    ck_assert_msg(st == EMU_OK, "%s", msg);
    emu_read(D.d, out, po, sizeof out);
    for (unsigned l = 0; l < 32; l++) {
        uint64_t want = ref(in[l][0], in[l][1], in[l][2]);
        bool both_nan = dbl ? (isnan(bitsd(out[l])) && isnan(bitsd(want)))
                            : (isnan(bitsf(out[l])) && isnan(bitsf(want)) && !(want >> 32) && !(out[l] >> 32));
        ck_assert_msg(out[l] == want || both_nan, "%s lane %u: got 0x%" PRIx64 " want 0x%" PRIx64, frag, l, out[l], want);
    }
    dev_close(&D);
}

START_TEST(alu_float)
{
    finputs_check("mov.b64 {%r1,%r2}, %rd5; mov.b32 %f1, %r1; mov.b64 {%r3,%r4}, %rd6; mov.b32 %f2, %r3;"
                  "mov.b64 {%r5,%r6}, %rd7; mov.b32 %f3, %r5; fma.rn.f32 %f4, %f1, %f2, %f3; mov.b32 %r7, %f4;"
                  "cvt.u64.u32 %rd0, %r7;",
                  r_fma32, false);
    finputs_check("mov.b64 %fd1, %rd5; mov.b64 %fd2, %rd6; div.rn.f64 %fd3, %fd1, %fd2; mov.b64 %rd0, %fd3;", r_div64,
                  true);
    finputs_check("mov.b64 {%r1,%r2}, %rd5; mov.b32 %f1, %r1; cvt.rni.s32.f32 %r3, %f1; cvt.u64.u32 %rd0, %r3;",
                  r_cvt_rni_s32_f32, false);
    finputs_check("mov.b64 {%r1,%r2}, %rd5; mov.b32 %f1, %r1; cvt.rzi.u32.f32 %r3, %f1; cvt.u64.u32 %rd0, %r3;",
                  r_cvt_rzi_u32_f32, false);
    finputs_check("mov.b64 {%r1,%r2}, %rd5; mov.b32 %f1, %r1; mov.b64 {%r3,%r4}, %rd6; mov.b32 %f2, %r3;"
                  "setp.ltu.f32 %p1, %f1, %f2; selp.u64 %rd0, 1, 0, %p1;",
                  r_setp_ltu, false);
    finputs_check("mov.b64 {%r1,%r2}, %rd5; mov.b32 %f1, %r1; mov.b64 {%r3,%r4}, %rd6; mov.b32 %f2, %r3;"
                  "max.f32 %f3, %f1, %f2; mov.b32 %r5, %f3; cvt.u64.u32 %rd0, %r5;",
                  r_max_f32, false);
    finputs_check("mov.b64 {%r1,%r2}, %rd5; mov.b32 %f1, %r1; cvt.rn.f16.f32 %rs1, %f1; cvt.f32.f16 %f2, %rs1;"
                  "mov.b32 %r3, %f2; cvt.u64.u32 %rd0, %r3;",
                  r_f16_round_trip, false);
    finputs_check("mov.b64 {%r1,%r2}, %rd5; mov.b32 %f1, %r1; mov.b64 {%r3,%r4}, %rd6; mov.b32 %f2, %r3;"
                  "add.rz.f32 %f3, %f1, %f2; mov.b32 %r5, %f3; cvt.u64.u32 %rd0, %r5;",
                  r_add_rz, false);
}
END_TEST

/* Exact f32 NaN bits and saturation. PTX leaves an f32 NaN result unspecified (PTX ISA, "Floating-Point
 * Instructions": single-precision instructions return an unspecified NaN, f64 ones keep payloads); the
 * interpreter gives the H100's canonical 0x7fffffff (docs/emulator.md §4.4, measured in §12), so these
 * cases compare bits exactly where finputs_check accepts any NaN. Every NaN input below carries a payload
 * or sign that the host would propagate (x86 quiets the first NaN operand; inf - inf gives 0xffc00000), so
 * the host's answer differs from 0x7fffffff in every NaN case. .sat clamps to [+0, 1]: -0 and NaN give +0. */
typedef struct {
    uint64_t a, b, c, want;
} exact_t;

static void exact_check(const char *frag, const exact_t *cs, unsigned n)
{
    dev_t_ D;
    dev_open(&D, EMU_ARMOR_OFF, GA_POLICY_REPORT);
    char body[4096];
    snprintf(body, sizeof body, "%s%s%s", TEMPLATE_A, frag, TEMPLATE_B);
    char msg[512] = "";
    emu_module_t *m = load(&D, body, EMU_OK, msg, sizeof msg);
    uint64_t in[32][3], out[32];
    for (unsigned l = 0; l < 32; l++) { /* lane l runs case l % n: every case in several lanes */
        in[l][0] = cs[l % n].a;
        in[l][1] = cs[l % n].b;
        in[l][2] = cs[l % n].c;
    }
    uint64_t po, pi;
    ck_assert_int_eq(emu_malloc(D.d, sizeof out, &po), EMU_OK);
    ck_assert_int_eq(emu_malloc(D.d, sizeof in, &pi), EMU_OK);
    ck_assert_int_eq(emu_write(D.d, pi, in, sizeof in), EMU_OK);
    void *args[] = {&po, &pi};
    emu_status_t st = emu_launch(D.d, emu_kernel_find(m, "t"), (emu_dim3_t){1, 1, 1}, (emu_dim3_t){32, 1, 1}, 0, args,
                                 msg, sizeof msg);
    ck_assert_msg(st == EMU_OK, "%s: %s", frag, msg);
    ck_assert_int_eq(emu_read(D.d, out, po, sizeof out), EMU_OK);
    for (unsigned l = 0; l < 32; l++)
        ck_assert_msg(out[l] == cs[l % n].want, "%s lane %u: a=0x%" PRIx64 " b=0x%" PRIx64 " c=0x%" PRIx64
                      ": got 0x%" PRIx64 " want 0x%" PRIx64, frag, l, cs[l % n].a, cs[l % n].b, cs[l % n].c, out[l],
                      cs[l % n].want);
    dev_close(&D);
}

/* %f1, %f2, %f3 from the low words of %rd5, %rd6, %rd7; %rd0 from %f4 (zero-extended). */
#define F32_IN                                                                                                  \
    "mov.b64 {%r1,%r2}, %rd5; mov.b32 %f1, %r1; mov.b64 {%r3,%r4}, %rd6; mov.b32 %f2, %r3;"                    \
    "mov.b64 {%r5,%r6}, %rd7; mov.b32 %f3, %r5;"
#define F32_OUT "mov.b32 %r7, %f4; cvt.u64.u32 %rd0, %r7;"

enum {
    QNAN_P = 0x7fc00001u, /* quiet NaN with a payload: x86 propagates it */
    NQNAN = 0xffc00000u,  /* x86's default NaN */
    SNAN_P = 0x7f812345u, /* signalling NaN: x86 quiets it to 0x7fc12345 */
    CANON = 0x7fffffffu,  /* the H100's f32 NaN */
    PINF = 0x7f800000u,
    NINF = 0xff800000u,
    ONE = 0x3f800000u,
    TWO = 0x40000000u,
    HALF = 0x3f000000u,
    NZERO = 0x80000000u,
};

START_TEST(alu_f32_nan_and_sat)
{
    /* binary operations: NaN operand with payload, NaN from non-NaN operands, and a plain value that
     * must stay untouched */
    static const exact_t bin_add[] = {{QNAN_P, ONE, 0, CANON}, {ONE, SNAN_P, 0, CANON}, {PINF, NINF, 0, CANON},
                                      {NQNAN, QNAN_P, 0, CANON}, {ONE, ONE, 0, TWO}};
    exact_check(F32_IN "add.f32 %f4, %f1, %f2;" F32_OUT, bin_add, 5);    /* fast path (.rn, no modifiers) */
    exact_check(F32_IN "add.rz.f32 %f4, %f1, %f2;" F32_OUT, bin_add, 5); /* general path */
    exact_check(F32_IN "add.ftz.f32 %f4, %f1, %f2;" F32_OUT, bin_add, 5);
    static const exact_t bin_sub[] = {{QNAN_P, ONE, 0, CANON}, {PINF, PINF, 0, CANON}, {TWO, ONE, 0, ONE}};
    exact_check(F32_IN "sub.f32 %f4, %f1, %f2;" F32_OUT, bin_sub, 3);
    static const exact_t bin_mul[] = {{QNAN_P, TWO, 0, CANON}, {0, PINF, 0, CANON}, {SNAN_P, NQNAN, 0, CANON},
                                      {TWO, HALF, 0, ONE}};
    exact_check(F32_IN "mul.f32 %f4, %f1, %f2;" F32_OUT, bin_mul, 4);
    exact_check(F32_IN "mul.rp.f32 %f4, %f1, %f2;" F32_OUT, bin_mul, 4);
    static const exact_t bin_div[] = {{QNAN_P, TWO, 0, CANON}, {0, 0, 0, CANON}, {PINF, NINF, 0, CANON},
                                      {ONE, TWO, 0, HALF}};
    exact_check(F32_IN "div.rn.f32 %f4, %f1, %f2;" F32_OUT, bin_div, 4);
    /* fma: a NaN in any operand, and inf * 0 */
    static const exact_t fma3[] = {{QNAN_P, ONE, ONE, CANON}, {ONE, ONE, QNAN_P, CANON}, {PINF, 0, ONE, CANON},
                                   {PINF, ONE, NINF, CANON}, {HALF, TWO, 0, ONE}};
    exact_check(F32_IN "fma.rn.f32 %f4, %f1, %f2, %f3;" F32_OUT, fma3, 5); /* fast path */
    exact_check(F32_IN "fma.rm.f32 %f4, %f1, %f2, %f3;" F32_OUT, fma3, 5);
    /* unary: rcp, sqrt of a negative, cvt.rni/rpi to f32, abs (a NaN's sign is not just cleared) */
    static const exact_t un_rcp[] = {{QNAN_P, 0, 0, CANON}, {NQNAN, 0, 0, CANON}, {TWO, 0, 0, HALF}};
    exact_check(F32_IN "rcp.rn.f32 %f4, %f1;" F32_OUT, un_rcp, 3);
    static const exact_t un_sqrt[] = {{0xbf800000u, 0, 0, CANON}, {QNAN_P, 0, 0, CANON}, {0x40800000u, 0, 0, TWO}};
    exact_check(F32_IN "sqrt.rn.f32 %f4, %f1;" F32_OUT, un_sqrt, 3);
    static const exact_t un_cvt[] = {{QNAN_P, 0, 0, CANON}, {SNAN_P, 0, 0, CANON}, {0xffc00123u, 0, 0, CANON},
                                     {0x3fc00000u, 0, 0, TWO}};
    exact_check(F32_IN "cvt.rni.f32.f32 %f4, %f1;" F32_OUT, un_cvt, 4);
    exact_check(F32_IN "cvt.rpi.f32.f32 %f4, %f1;" F32_OUT, un_cvt, 4);
    static const exact_t un_abs[] = {{0xffc00123u, 0, 0, CANON}, {QNAN_P, 0, 0, CANON}, {NINF, 0, 0, PINF},
                                     {0xbf800000u, 0, 0, ONE}};
    exact_check(F32_IN "abs.f32 %f4, %f1;" F32_OUT, un_abs, 4);

    /* .sat clamps to [+0, 1]: -0 and NaN give +0 (measured on an H100, docs/emulator.md §12) */
    static const exact_t sat1[] = {{NZERO, 0, 0, 0}, {QNAN_P, 0, 0, 0}, {0xbf800000u, 0, 0, 0}, {TWO, 0, 0, ONE},
                                   {HALF, 0, 0, HALF}, {0x00000001u, 0, 0, 0x00000001u}};
    exact_check(F32_IN "cvt.sat.f32.f32 %f4, %f1;" F32_OUT, sat1, 6);
    static const exact_t sat_add[] = {{NZERO, NZERO, 0, 0}, {QNAN_P, ONE, 0, 0}, {PINF, NINF, 0, 0},
                                      {HALF, HALF, 0, ONE}, {0x3e800000u, 0x3e800000u, 0, HALF}};
    exact_check(F32_IN "add.sat.f32 %f4, %f1, %f2;" F32_OUT, sat_add, 5);
    static const exact_t sat_mul[] = {{NZERO, ONE, 0, 0}, {0, PINF, 0, 0}, {TWO, TWO, 0, ONE}};
    exact_check(F32_IN "mul.sat.f32 %f4, %f1, %f2;" F32_OUT, sat_mul, 3);
    static const exact_t sat_fma[] = {{NZERO, ONE, NZERO, 0}, {QNAN_P, ONE, ONE, 0}, {HALF, HALF, 0x3e800000u, HALF}};
    exact_check(F32_IN "fma.rn.sat.f32 %f4, %f1, %f2, %f3;" F32_OUT, sat_fma, 3);

    /* f64 keeps NaN payloads (PTX ISA: "NaN payloads are supported for double-precision instructions") */
    static const exact_t f64_add[] = {{UINT64_C(0x7ff8000000000123), UINT64_C(0x3ff0000000000000), 0,
                                       UINT64_C(0x7ff8000000000123)},
                                      {UINT64_C(0x3ff0000000000000), UINT64_C(0x3ff0000000000000), 0,
                                       UINT64_C(0x4000000000000000)}};
    exact_check("mov.b64 %fd1, %rd5; mov.b64 %fd2, %rd6; add.rn.f64 %fd3, %fd1, %fd2; mov.b64 %rd0, %fd3;", f64_add, 2);
}
END_TEST

/* ---------------------------------------------------------------------------------------------------
 * Whole kernels. */

typedef struct {
    dev_t_ D;
    emu_module_t *m;
    uint64_t out;
    char msg[512];
} kr_t;

/* Run kernel "k" of body with one output buffer of n u32 (zeroed), grid/block as given. */
static emu_status_t run_k(kr_t *K, const char *body, emu_armor_t armor, uint32_t n, emu_dim3_t grid, emu_dim3_t block,
                          uint32_t *res)
{
    dev_open(&K->D, armor, GA_POLICY_REPORT);
    K->m = load(&K->D, body, EMU_OK, K->msg, sizeof K->msg);
    ck_assert_int_eq(emu_malloc(K->D.d, (uint64_t)n * 4, &K->out), EMU_OK);
    ck_assert_int_eq(emu_set(K->D.d, K->out, 0, (uint64_t)n * 4), EMU_OK);
    void *args[] = {&K->out};
    emu_status_t st = emu_launch(K->D.d, emu_kernel_find(K->m, "k"), grid, block, 0, args, K->msg, sizeof K->msg);
    if (res) emu_read(K->D.d, res, K->out, (uint64_t)n * 4);
    return st;
}

/* Divergence: odd lanes take a nested if, a loop runs lane-dependent trip counts with a break, and
 * every lane writes a value that depends on the path it took. Reconvergence is observable through a
 * ballot after the join. */
START_TEST(simt_divergence)
{
    const char *body =
        ".visible .entry k(.param .u64 po)\n{\n"
        ".reg .b32 %r<16>; .reg .b64 %rd<8>; .reg .pred %p<8>;\n"
        "ld.param.u64 %rd1, [po]; cvta.to.global.u64 %rd1, %rd1;\n"
        "mov.u32 %r1, %tid.x; mov.u32 %r2, 0;\n"
        "and.b32 %r3, %r1, 1; setp.eq.s32 %p1, %r3, 0; @%p1 bra EVEN;\n"
        "  add.s32 %r2, %r2, 100; setp.gt.u32 %p2, %r1, 16; @!%p2 bra SKIP; add.s32 %r2, %r2, 1000;\n"
        "SKIP: bra JOIN;\n"
        "EVEN: add.s32 %r2, %r2, 10;\n"
        "JOIN: mov.u32 %r4, 0;\n"
        "LOOP: add.s32 %r4, %r4, 1; setp.ge.u32 %p3, %r4, %r1; @%p3 bra OUT; setp.eq.u32 %p4, %r4, 20; @%p4 bra OUT;"
        "  bra LOOP;\n"
        "OUT: add.s32 %r2, %r2, %r4;\n"
        "vote.sync.ballot.b32 %r5, %p1, -1;\n"
        "setp.eq.u32 %p5, %r5, 0x55555555; selp.u32 %r6, 1, 0, %p5; mad.lo.s32 %r2, %r6, 1000000, %r2;\n"
        "mul.wide.u32 %rd2, %r1, 4; add.s64 %rd3, %rd1, %rd2; st.global.u32 [%rd3], %r2; ret;\n}\n";
    kr_t K;
    uint32_t r[32];
    ck_assert_int_eq(run_k(&K, body, EMU_ARMOR_OFF, 32, (emu_dim3_t){1, 1, 1}, (emu_dim3_t){32, 1, 1}, r), EMU_OK);
    for (uint32_t l = 0; l < 32; l++) {
        uint32_t v = (l & 1) ? 100 + (l > 16 ? 1000 : 0) : 10;
        uint32_t it = 0;
        do it++;
        while (!(it >= l) && it != 20);
        v += it + 1000000; /* the ballot sees every lane: they reconverged */
        ck_assert_msg(r[l] == v, "lane %u: %u want %u", l, r[l], v);
    }
    dev_close(&K.D);
}
END_TEST

/* A .func with an early return in divergent code, called from divergent code, and recursion. */
START_TEST(simt_calls)
{
    const char *body =
        ".func (.param .b32 rv) f(.param .b32 x)\n{\n .reg .b32 %r<8>; .reg .pred %p<4>;\n"
        " ld.param.u32 %r1, [x]; setp.lt.u32 %p1, %r1, 8; @%p1 bra SMALL;\n"
        " mul.lo.s32 %r2, %r1, 3; st.param.b32 [rv], %r2; ret;\n"
        "SMALL: add.s32 %r2, %r1, 1000; st.param.b32 [rv], %r2; ret;\n}\n"
        ".func (.param .b32 rv) fact(.param .b32 n)\n{\n .reg .b32 %r<8>; .reg .pred %p<4>;\n"
        " ld.param.u32 %r1, [n]; setp.le.u32 %p1, %r1, 1; @%p1 bra BASE;\n"
        " sub.s32 %r2, %r1, 1;\n"
        " { .param .b32 a0; .param .b32 r0; st.param.b32 [a0], %r2; call (r0), fact, (a0); ld.param.b32 %r3, [r0]; }\n"
        " mul.lo.s32 %r4, %r3, %r1; st.param.b32 [rv], %r4; ret;\n"
        "BASE: st.param.b32 [rv], 1; ret;\n}\n"
        ".visible .entry k(.param .u64 po)\n{\n .reg .b32 %r<8>; .reg .b64 %rd<8>; .reg .pred %p<4>;\n"
        " ld.param.u64 %rd1, [po]; mov.u32 %r1, %tid.x; mov.u32 %r5, 0;\n"
        " setp.eq.u32 %p1, %r1, 5; @%p1 bra NOCALL;\n"
        " { .param .b32 a0; .param .b32 r0; st.param.b32 [a0], %r1; call (r0), f, (a0); ld.param.b32 %r5, [r0]; }\n"
        "NOCALL: and.b32 %r2, %r1, 7;\n"
        " { .param .b32 a0; .param .b32 r0; st.param.b32 [a0], %r2; call (r0), fact, (a0); ld.param.b32 %r6, [r0]; }\n"
        " add.s32 %r5, %r5, %r6;\n"
        " mul.wide.u32 %rd2, %r1, 4; add.s64 %rd3, %rd1, %rd2; st.global.u32 [%rd3], %r5; ret;\n}\n";
    kr_t K;
    uint32_t r[32];
    ck_assert_int_eq(run_k(&K, body, EMU_ARMOR_OFF, 32, (emu_dim3_t){1, 1, 1}, (emu_dim3_t){32, 1, 1}, r), EMU_OK);
    for (uint32_t l = 0; l < 32; l++) {
        uint32_t v = l == 5 ? 0 : (l < 8 ? l + 1000 : l * 3);
        uint32_t n = l & 7, fct = 1;
        for (uint32_t k = 2; k <= n; k++) fct *= k;
        ck_assert_msg(r[l] == v + fct, "lane %u: %u want %u", l, r[l], v + fct);
    }
    dev_close(&K.D);
}
END_TEST

/* A block-wide shared-memory reduction with barriers across 8 warps (256 threads, 4 blocks on 2 SMs),
 * shfl.down within warps, and atomics into one global counter. */
START_TEST(barriers_shared_atomics)
{
    const char *body =
        ".visible .entry k(.param .u64 po)\n{\n"
        " .reg .b32 %r<16>; .reg .b64 %rd<8>; .reg .pred %p<4>; .shared .align 4 .b8 sm[1024];\n"
        " ld.param.u64 %rd1, [po]; mov.u32 %r1, %tid.x; mov.u32 %r2, %ctaid.x;\n"
        " mad.lo.s32 %r3, %r2, 256, %r1; shl.b32 %r4, %r1, 2; mov.u32 %r5, sm; add.s32 %r6, %r5, %r4;\n"
        " st.shared.u32 [%r6], %r3; bar.sync 0;\n"
        " mov.u32 %r7, 128;\n"
        "L: setp.ge.u32 %p1, %r1, %r7; @%p1 bra S;\n"
        "   shl.b32 %r8, %r7, 2; add.s32 %r9, %r6, %r8; ld.shared.u32 %r10, [%r9]; ld.shared.u32 %r11, [%r6];"
        "   add.s32 %r11, %r11, %r10; st.shared.u32 [%r6], %r11;\n"
        "S: bar.sync 0; shr.u32 %r7, %r7, 1; setp.gt.u32 %p2, %r7, 0; @%p2 bra L;\n"
        " setp.ne.u32 %p3, %r1, 0; @%p3 bra W;\n"
        "   ld.shared.u32 %r12, [sm]; mul.wide.u32 %rd2, %r2, 4; add.s64 %rd3, %rd1, %rd2; st.global.u32 [%rd3], %r12;\n"
        "W: shfl.sync.down.b32 %r13|%p3, %r1, 1, 31, -1; sub.s32 %r14, %r13, %r1;\n"
        "   add.s64 %rd4, %rd1, 16; atom.global.add.u32 %r15, [%rd4], %r14; ret;\n}\n";
    kr_t K;
    uint32_t r[5];
    ck_assert_int_eq(run_k(&K, body, EMU_ARMOR_OFF, 5, (emu_dim3_t){4, 1, 1}, (emu_dim3_t){256, 1, 1}, r), EMU_OK);
    for (uint32_t b = 0; b < 4; b++) {
        uint32_t s = 0;
        for (uint32_t t = 0; t < 256; t++) s += b * 256 + t;
        ck_assert_uint_eq(r[b], s);
    }
    /* shfl.down by 1 within 32 lanes: lane l gets l+1 (lane 31 keeps its own): 31 ones per warp */
    ck_assert_uint_eq(r[4], 4u * 8u * 31u);
    dev_close(&K.D);
}
END_TEST

/* A barrier that not every thread reaches is a deadlock: reported, EMU_ERR_LAUNCH_FAILED. */
START_TEST(barrier_deadlock)
{
    const char *body = ".visible .entry k(.param .u64 po)\n{\n .reg .b32 %r<4>; .reg .pred %p<2>;\n"
                       " mov.u32 %r1, %tid.x; setp.lt.u32 %p1, %r1, 32; @%p1 bra A; bar.sync 1; ret;\n"
                       "A: bar.sync 0; ret;\n}\n";
    kr_t K;
    emu_status_t st = run_k(&K, body, EMU_ARMOR_OFF, 1, (emu_dim3_t){1, 1, 1}, (emu_dim3_t){64, 1, 1}, NULL);
    ck_assert_int_eq(st, EMU_ERR_LAUNCH_FAILED);
    ck_assert_ptr_nonnull(strstr(K.msg, "deadlock"));
    /* sticky: the next launch is refused */
    void *args[] = {&K.out};
    ck_assert_int_eq(emu_launch(K.D.d, emu_kernel_find(K.m, "k"), (emu_dim3_t){1, 1, 1}, (emu_dim3_t){32, 1, 1}, 0,
                                args, K.msg, sizeof K.msg),
                     EMU_ERR_LAUNCH_FAILED);
    emu_clear_sticky(K.D.d);
    ck_assert_int_eq(emu_launch(K.D.d, emu_kernel_find(K.m, "k"), (emu_dim3_t){1, 1, 1}, (emu_dim3_t){32, 1, 1}, 0,
                                args, K.msg, sizeof K.msg),
                     EMU_OK);
    dev_close(&K.D);
}
END_TEST

START_TEST(hang_and_recursion)
{
    const char *spin = ".visible .entry k(.param .u64 po)\n{\nL: bra L;\n}\n";
    dev_t_ D;
    char msg[512];
    emu_module_t *m;
    uint64_t p = 0;
    void *args[] = {&p};
    emu_status_t st;
    emu_cfg_t c;
    emu_default_cfg(&c);
    c.max_instructions = 100000;
    c.log = tmpfile();
    ck_assert_int_eq(emu_create(&c, &D.d, msg, sizeof msg), EMU_OK);
    char txt[512];
    snprintf(txt, sizeof txt, "%s%s", HDR, spin);
    ck_assert_int_eq(emu_module_load(D.d, "spin.ptx", txt, strlen(txt), &m, msg, sizeof msg), EMU_OK);
    st = emu_launch(D.d, emu_kernel_find(m, "k"), (emu_dim3_t){1, 1, 1}, (emu_dim3_t){32, 1, 1}, 0, args, msg, sizeof msg);
    ck_assert_int_eq(st, EMU_ERR_TIMEOUT);
    ck_assert_ptr_nonnull(strstr(msg, "--max-instructions"));
    emu_destroy(D.d);
    fclose(c.log);

    const char *rec = ".func f(.param .b32 x)\n{\n .local .align 8 .b8 buf[256]; .reg .b32 %r<4>;\n"
                      " ld.param.u32 %r1, [x]; add.s32 %r2, %r1, 1;\n"
                      " { .param .b32 a0; st.param.b32 [a0], %r2; call f, (a0); }\n ret;\n}\n"
                      ".visible .entry k(.param .u64 po)\n{\n .reg .b32 %r<2>; mov.u32 %r1, 0;\n"
                      " { .param .b32 a0; st.param.b32 [a0], %r1; call f, (a0); }\n ret;\n}\n";
    emu_default_cfg(&c);
    c.stack_bytes = 4096;
    c.log = tmpfile();
    ck_assert_int_eq(emu_create(&c, &D.d, msg, sizeof msg), EMU_OK);
    snprintf(txt, sizeof txt, "%s%s", HDR, rec);
    ck_assert_int_eq(emu_module_load(D.d, "rec.ptx", txt, strlen(txt), &m, msg, sizeof msg), EMU_OK);
    st = emu_launch(D.d, emu_kernel_find(m, "k"), (emu_dim3_t){1, 1, 1}, (emu_dim3_t){32, 1, 1}, 0, args, msg, sizeof msg);
    ck_assert_int_eq(st, EMU_ERR_STACK_OVERFLOW);
    emu_destroy(D.d);
    fclose(c.log);
}
END_TEST

START_TEST(bad_launches_and_ptx)
{
    dev_t_ D;
    dev_open(&D, EMU_ARMOR_OFF, GA_POLICY_REPORT);
    char msg[512];
    emu_module_t *m = load(&D, ".visible .entry k(.param .u64 po)\n{\n ret;\n}\n", EMU_OK, msg, sizeof msg);
    emu_kernel_t *k = emu_kernel_find(m, "k");
    uint64_t p = 0;
    void *args[] = {&p};
    ck_assert_int_eq(emu_launch(D.d, k, (emu_dim3_t){0, 1, 1}, (emu_dim3_t){32, 1, 1}, 0, args, msg, sizeof msg),
                     EMU_ERR_INVALID_CONFIG);
    ck_assert_int_eq(emu_launch(D.d, k, (emu_dim3_t){0x80000000u, 1, 1}, (emu_dim3_t){32, 1, 1}, 0, args, msg, sizeof msg),
                     EMU_ERR_INVALID_CONFIG);
    ck_assert_int_eq(emu_launch(D.d, k, (emu_dim3_t){1, 1, 1}, (emu_dim3_t){1025, 1, 1}, 0, args, msg, sizeof msg),
                     EMU_ERR_INVALID_CONFIG);
    ck_assert_int_eq(emu_launch(D.d, k, (emu_dim3_t){1, 1, 1}, (emu_dim3_t){32, 1, 1}, 200000, args, msg, sizeof msg),
                     EMU_ERR_INVALID_CONFIG);
    ck_assert_ptr_null(emu_kernel_find(m, "nope"));
    /* unsupported instruction: refused at load with the position */
    load(&D,
         ".visible .entry k2(.param .u64 po)\n{\n .reg .b32 %r<4>; .reg .b64 %rd<2>;\n"
         " tex.1d.v4.s32.s32 {%r0, %r1, %r2, %r3}, [%rd1, {%r0}];\n ret;\n}\n",
         EMU_ERR_INVALID_PTX, msg, sizeof msg);
    /* a call whose argument was never written (no st.param): an uninitialised parameter, stopped */
    emu_module_t *m4 = load(&D,
                            ".func f(.param .b32 x)\n{\n .reg .b32 %r<2>; ld.param.u32 %r1, [x]; ret;\n}\n"
                            ".visible .entry k4(.param .u64 po)\n{\n { .param .b32 a0; call f, (a0); }\n ret;\n}\n",
                            EMU_OK, msg, sizeof msg);
    ck_assert_int_eq(emu_launch(D.d, emu_kernel_find(m4, "k4"), (emu_dim3_t){1, 1, 1}, (emu_dim3_t){32, 1, 1}, 0, args,
                                msg, sizeof msg),
                     EMU_ERR_INVALID_PTX);
    ck_assert_ptr_nonnull(strstr(msg, "uninitialised"));
    /* a kernel named like the calling convention is still an ordinary kernel (fuzzer regression) */
    emu_module_t *m5 = load(&D, ".visible .entry __ga_k(.param .u64 po)\n{\n .reg .b32 %r<4>; mov.u32 %r1, %tid.x;"
                               " add.s32 %r2, %r1, 7; ret;\n}\n", EMU_OK, msg, sizeof msg);
    ck_assert_int_eq(emu_launch(D.d, emu_kernel_find(m5, "__ga_k"), (emu_dim3_t){1, 1, 1}, (emu_dim3_t){64, 1, 1}, 0,
                                args, msg, sizeof msg),
                     EMU_OK);
    /* malformed PTX */
    load(&D, ".visible .entry k3(\n{\n", EMU_ERR_INVALID_PTX, msg, sizeof msg);
    ck_assert_ptr_nonnull(strstr(msg, "t.ptx:"));
    dev_close(&D);
}
END_TEST

/* ---------------------------------------------------------------------------------------------------
 * GPUArmor in the loop. */

/* out[tid] = in[tid + off]: with off = 1 the last thread reads one element past the allocation. */
static const char *OOB_KERNEL =
    ".visible .entry k(.param .u64 po, .param .u64 pi, .param .u32 off, .param .u32 n)\n{\n"
    " .reg .b32 %r<8>; .reg .b64 %rd<8>; .reg .pred %p<2>;\n"
    " ld.param.u64 %rd1, [po]; ld.param.u64 %rd2, [pi]; ld.param.u32 %r1, [off]; ld.param.u32 %r6, [n];\n"
    " cvta.to.global.u64 %rd1, %rd1; cvta.to.global.u64 %rd2, %rd2;\n"
    " mov.u32 %r2, %tid.x; setp.ge.u32 %p1, %r2, %r6; @%p1 bra END; add.s32 %r3, %r2, %r1;\n"
    " mul.wide.u32 %rd3, %r3, 4; add.s64 %rd4, %rd2, %rd3; ld.global.u32 %r4, [%rd4];\n"
    " mul.wide.u32 %rd5, %r2, 4; add.s64 %rd6, %rd1, %rd5; st.global.u32 [%rd6], %r4;\nEND: ret;\n}\n";

static void oob_run(emu_armor_t armor, ga_policy_t pol, uint32_t off, bool free_first, emu_status_t want_st,
                    const char *want_kind, uint64_t want_errors)
{
    dev_t_ D;
    dev_open(&D, armor, pol);
    char msg[512];
    emu_module_t *m = load(&D, OOB_KERNEL, EMU_OK, msg, sizeof msg);
    uint64_t po, pi;
    ck_assert_int_eq(emu_malloc(D.d, 100 * 4, &po), EMU_OK);
    ck_assert_int_eq(emu_malloc(D.d, 100 * 4, &pi), EMU_OK);
    if (free_first) ck_assert_int_eq(emu_free(D.d, pi), EMU_OK);
    uint32_t n = 100;
    void *args[] = {&po, &pi, &off, &n};
    emu_status_t st = emu_launch(D.d, emu_kernel_find(m, "k"), (emu_dim3_t){1, 1, 1}, (emu_dim3_t){128, 1, 1}, 0, args,
                                 msg, sizeof msg);
    ck_assert_msg(st == want_st, "%s: %s", emu_status_name(st), msg);
    const char *log = dev_log(&D);
    if (want_kind) ck_assert_msg(strstr(log, want_kind) != NULL, "no %s in:\n%s", want_kind, log);
    ck_assert_msg(emu_error_count(D.d) == want_errors, "errors %" PRIu64 " want %" PRIu64 "\n%s", emu_error_count(D.d),
                  want_errors, log);
    dev_close(&D);
}

START_TEST(armor_detections)
{
    /* in bounds: clean in every mode */
    oob_run(EMU_ARMOR_COMPILER, GA_POLICY_REPORT, 0, false, EMU_OK, NULL, 0);
    oob_run(EMU_ARMOR_HWONLY, GA_POLICY_REPORT, 0, false, EMU_OK, NULL, 0);
    /* off by one: thread 99 reads element 100 of a 100-element allocation (1 byte past the 400 bytes...
     * the access starts at byte 400: "1 bytes after") */
    oob_run(EMU_ARMOR_COMPILER, GA_POLICY_REPORT, 1, false, EMU_OK, "OUT_OF_BOUNDS", 1);
    oob_run(EMU_ARMOR_COMPILER, GA_POLICY_REPORT, 1, false, EMU_OK, "1 bytes after the allocation at", 1);
    /* HWOnly: the address lies in the 256-byte slack of the block, covered by no entry: NO_METADATA */
    oob_run(EMU_ARMOR_HWONLY, GA_POLICY_REPORT, 1, false, EMU_OK, "NO_METADATA", 1);
    /* use after free: every thread of the warp fails */
    oob_run(EMU_ARMOR_COMPILER, GA_POLICY_REPORT, 0, true, EMU_OK, "NO_METADATA", 100);
    oob_run(EMU_ARMOR_HWONLY, GA_POLICY_REPORT, 0, true, EMU_OK, "USE_AFTER_FREE", 100);
    /* without GPUArmor the off-by-one read lands in the block's slack: nothing is reported */
    oob_run(EMU_ARMOR_OFF, GA_POLICY_REPORT, 1, false, EMU_OK, NULL, 0);
    /* TERMINATE stops the launch at the first error */
    oob_run(EMU_ARMOR_COMPILER, GA_POLICY_TERMINATE, 1, false, EMU_ERR_LAUNCH_FAILED, "TERMINATE", 2);
}
END_TEST

/* A guarded access in compiler mode: the pass guards the MEMCHECK.G call with the access's guard (the
 * call's st.param/ld.param stay unguarded), so lanes whose guard is false read a result they never
 * got: they must run clean (no uninitialised-parameter stop, no report), and the lanes that do access
 * are checked: with 40 threads over a 36-element array, lanes 36..39 fail the bounds. */
START_TEST(guarded_access_compiler)
{
    const char *body = ".visible .entry k(.param .u64 po, .param .u64 pi)\n{\n"
                       " .reg .b32 %r<8>; .reg .b64 %rd<8>; .reg .pred %p<4>;\n"
                       " ld.param.u64 %rd1, [po]; ld.param.u64 %rd2, [pi]; cvta.to.global.u64 %rd2, %rd2;\n"
                       " cvta.to.global.u64 %rd1, %rd1; mov.u32 %r1, %tid.x; mov.u32 %r2, 0;\n"
                       " and.b32 %r3, %r1, 1; setp.eq.u32 %p1, %r3, 0;\n"
                       " mul.wide.u32 %rd3, %r1, 4; add.s64 %rd4, %rd2, %rd3;\n"
                       " @%p1 ld.global.u32 %r2, [%rd4];\n"
                       " add.s64 %rd5, %rd1, %rd3; st.global.u32 [%rd5], %r2; ret;\n}\n";
    dev_t_ D;
    dev_open(&D, EMU_ARMOR_COMPILER, GA_POLICY_REPORT);
    char msg[512];
    emu_module_t *m = load(&D, body, EMU_OK, msg, sizeof msg);
    uint64_t po, pi;
    ck_assert_int_eq(emu_malloc(D.d, 64 * 4, &po), EMU_OK);
    ck_assert_int_eq(emu_malloc(D.d, 36 * 4, &pi), EMU_OK);
    uint32_t in[36];
    for (int i = 0; i < 36; i++) in[i] = 1000u + (uint32_t)i;
    ck_assert_int_eq(emu_write(D.d, pi, in, sizeof in), EMU_OK);
    void *args[] = {&po, &pi};
    emu_status_t st = emu_launch(D.d, emu_kernel_find(m, "k"), (emu_dim3_t){1, 1, 1}, (emu_dim3_t){40, 1, 1}, 0, args,
                                 msg, sizeof msg);
    ck_assert_msg(st == EMU_OK, "%s: %s", emu_status_name(st), msg);
    uint32_t out[40];
    ck_assert_int_eq(emu_read(D.d, out, po, sizeof out), EMU_OK);
    for (uint32_t l = 0; l < 36; l++) ck_assert_uint_eq(out[l], (l & 1) ? 0u : 1000u + l);
    /* even lanes 36 and 38 read past the 144-byte array: one MEMCHECK.G, two failing lanes */
    const char *log = dev_log(&D);
    ck_assert_msg(strstr(log, "OUT_OF_BOUNDS") != NULL, "%s", log);
    ck_assert_uint_eq(emu_error_count(D.d), 2);
    dev_close(&D);
}
END_TEST

START_TEST(shared_oob_compiler)
{
    const char *body = ".visible .entry k(.param .u64 po)\n{\n"
                       " .reg .b32 %r<8>; .reg .b64 %rd<4>; .shared .align 4 .b8 sm[128];\n"
                       " mov.u32 %r1, %tid.x; shl.b32 %r2, %r1, 2; mov.u32 %r3, sm; add.s32 %r4, %r3, %r2;\n"
                       " st.shared.u32 [%r4], %r1; ret;\n}\n";
    kr_t K;
    /* 33 threads write 4 bytes each into 128 bytes: thread 32 overflows */
    ck_assert_int_eq(run_k(&K, body, EMU_ARMOR_COMPILER, 1, (emu_dim3_t){1, 1, 1}, (emu_dim3_t){33, 1, 1}, NULL), EMU_OK);
    const char *log = dev_log(&K.D);
    ck_assert_msg(strstr(log, "SHARED_OUT_OF_BOUNDS") != NULL, "%s", log);
    ck_assert_uint_eq(emu_error_count(K.D.d), 1);
    dev_close(&K.D);
}
END_TEST

START_TEST(trace_capture)
{
    char path[] = "/tmp/test_emu_traceXXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    close(fd);
    emu_cfg_t c;
    emu_default_cfg(&c);
    c.trace_out = path;
    c.log = tmpfile();
    emu_dev_t *d;
    char msg[512];
    ck_assert_int_eq(emu_create(&c, &d, msg, sizeof msg), EMU_OK);
    char txt[4096];
    snprintf(txt, sizeof txt, "%s%s", HDR, OOB_KERNEL);
    emu_module_t *m;
    ck_assert_int_eq(emu_module_load(d, "t.ptx", txt, strlen(txt), &m, msg, sizeof msg), EMU_OK);
    uint64_t po, pi;
    emu_malloc(d, 400, &po);
    emu_malloc(d, 400, &pi);
    uint32_t off = 1, n = 100;
    void *args[] = {&po, &pi, &off, &n};
    ck_assert_int_eq(emu_launch(d, emu_kernel_find(m, "k"), (emu_dim3_t){1, 1, 1}, (emu_dim3_t){128, 1, 1}, 0, args,
                                msg, sizeof msg),
                     EMU_OK);
    emu_free(d, pi);
    emu_destroy(d);
    fclose(c.log);
    FILE *f = fopen(path, "r");
    ck_assert_ptr_nonnull(f);
    char line[4200];
    int nld = 0, nlm = 0, nk = 0, nfree = 0;
    bool hdr = false;
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, "gatrace ", 8) == 0) hdr = true;
        if (strncmp(line, "ld ", 3) == 0) nld++;
        if (strncmp(line, "loadmeta ", 9) == 0) nlm++;
        if (strncmp(line, "kernel ", 7) == 0) nk++;
        if (strncmp(line, "free ", 5) == 0) nfree++;
    }
    fclose(f);
    remove(path);
    ck_assert(hdr);
    ck_assert_int_eq(nk, 1);
    ck_assert_int_eq(nfree, 1);
    ck_assert_int_gt(nld, 0);
    ck_assert_int_gt(nlm, 0);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("emu");
    TCase *t = tcase_create("emu");
    tcase_set_timeout(t, 120);
    tcase_add_test(t, alu_integer);
    tcase_add_test(t, alu_float);
    tcase_add_test(t, alu_f32_nan_and_sat);
    tcase_add_test(t, simt_divergence);
    tcase_add_test(t, simt_calls);
    tcase_add_test(t, barriers_shared_atomics);
    tcase_add_test(t, barrier_deadlock);
    tcase_add_test(t, hang_and_recursion);
    tcase_add_test(t, bad_launches_and_ptx);
    tcase_add_test(t, armor_detections);
    tcase_add_test(t, guarded_access_compiler);
    tcase_add_test(t, shared_oob_compiler);
    tcase_add_test(t, trace_capture);
    suite_add_tcase(s, t);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(suite());
    srunner_run_all(sr, CK_ENV);
    int nf = srunner_ntests_failed(sr);
    srunner_free(sr);
    return nf ? 1 : 0;
}
