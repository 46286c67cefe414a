/*
 * emu_fp.c — directed rounding, half/bfloat16 conversions and saturating float-to-integer conversion
 * (emu_fp.h). Compiled with -frounding-math so the compiler keeps every operation inside the
 * fesetround() bracket that asks for it.
 */
#include "emu_fp.h"

#include <fenv.h>
#include <math.h>
#include <string.h>

static int c_mode(int r)
{
    switch (r) {
    case 2: return FE_TOWARDZERO; /* ER_RZ */
    case 3: return FE_DOWNWARD;   /* ER_RM */
    case 4: return FE_UPWARD;     /* ER_RP */
    case 6: return FE_TOWARDZERO; /* ER_RZI */
    case 7: return FE_DOWNWARD;   /* ER_RMI */
    case 8: return FE_UPWARD;     /* ER_RPI */
    default: return FE_TONEAREST;
    }
}

/* Run EXPR with the rounding mode of r, restoring the previous mode. */
#define WITH_MODE(r, type, expr)                                                                         \
    do {                                                                                                 \
        int m_ = c_mode(r);                                                                              \
        if (m_ == FE_TONEAREST) return (expr);                                                           \
        int old_ = fegetround();                                                                         \
        fesetround(m_);                                                                                  \
        volatile type v_ = (expr);                                                                       \
        fesetround(old_);                                                                                \
        return v_;                                                                                       \
    } while (0)

float emu_f32_add(float a, float b, int r) { WITH_MODE(r, float, a + b); }
float emu_f32_sub(float a, float b, int r) { WITH_MODE(r, float, a - b); }
float emu_f32_mul(float a, float b, int r) { WITH_MODE(r, float, a * b); }
float emu_f32_div(float a, float b, int r) { WITH_MODE(r, float, a / b); }
float emu_f32_fma(float a, float b, float c, int r) { WITH_MODE(r, float, fmaf(a, b, c)); }
float emu_f32_sqrt(float a, int r) { WITH_MODE(r, float, sqrtf(a)); }
double emu_f64_add(double a, double b, int r) { WITH_MODE(r, double, a + b); }
double emu_f64_sub(double a, double b, int r) { WITH_MODE(r, double, a - b); }
double emu_f64_mul(double a, double b, int r) { WITH_MODE(r, double, a * b); }
double emu_f64_div(double a, double b, int r) { WITH_MODE(r, double, a / b); }
double emu_f64_fma(double a, double b, double c, int r) { WITH_MODE(r, double, fma(a, b, c)); }
double emu_f64_sqrt(double a, int r) { WITH_MODE(r, double, sqrt(a)); }
float emu_f64_to_f32(double a, int r) { WITH_MODE(r, float, (float)a); }
float emu_i64_to_f32(int64_t a, int r) { WITH_MODE(r, float, (float)a); }
float emu_u64_to_f32(uint64_t a, int r) { WITH_MODE(r, float, (float)a); }
double emu_i64_to_f64(int64_t a, int r) { WITH_MODE(r, double, (double)a); }
double emu_u64_to_f64(uint64_t a, int r) { WITH_MODE(r, double, (double)a); }

double emu_round_integral(double a, int r)
{
    switch (r) {
    case 5: /* ER_RNI: nearest, ties to even */
    case 1: return nearbyint(a); /* default environment is RN */
    case 7: return floor(a);
    case 8: return ceil(a);
    case 9: return round(a); /* RNA: ties away */
    default: return trunc(a);
    }
}

int64_t emu_f64_to_i64_sat(double a, int r, int64_t lo, int64_t hi)
{
    if (isnan(a)) return 0;
    double t = emu_round_integral(a, r);
    if (t <= (double)lo) return lo;
    if (t >= (double)hi) return hi; /* (double)INT64_MAX rounds up to 2^63: >= catches it */
    return (int64_t)t;
}

uint64_t emu_f64_to_u64_sat(double a, int r, uint64_t hi)
{
    if (isnan(a)) return 0;
    double t = emu_round_integral(a, r);
    if (t <= 0.0) return 0;
    if (t >= (double)hi) return hi;
    return (uint64_t)t;
}

/* ---------------------------------------------------------------------------------------------------
 * binary16 / bfloat16. Conversions from f32 round the 32-bit pattern directly (RN ties to even, or
 * truncation toward zero / toward an infinity for RZ / RM / RP), so no double rounding occurs. */

static uint32_t f32u(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}
static float u32f(uint32_t u)
{
    float f;
    memcpy(&f, &u, 4);
    return f;
}

/* Round the magnitude m (an integer scaled so that the kept part is m >> shift) in mode r for sign s. */
static uint32_t round_shift(uint32_t m, unsigned shift, int r, uint32_t s)
{
    if (shift == 0) return m;
    if (shift > 31) return (r == 4 && !s && m) || (r == 3 && s && m) ? 1u : 0u;
    uint32_t kept = m >> shift;
    uint32_t rest = m & ((1u << shift) - 1u);
    uint32_t half = 1u << (shift - 1);
    switch (r) {
    case 2: return kept;                             /* RZ */
    case 3: return kept + (s && rest ? 1u : 0u);     /* RM: toward -inf */
    case 4: return kept + (!s && rest ? 1u : 0u);    /* RP: toward +inf */
    default: return kept + ((rest > half || (rest == half && (kept & 1u))) ? 1u : 0u);
    }
}

uint16_t emu_f32_to_f16(float a, int r)
{
    uint32_t u = f32u(a);
    uint32_t s = u >> 31;
    uint32_t e = (u >> 23) & 0xffu;
    uint32_t m = u & 0x7fffffu;
    uint16_t sign = (uint16_t)(s << 15);
    if (e == 0xffu && m) return 0x7fffu; /* NaN: PTX's canonical binary16 NaN */
    if (e == 0xffu) return (uint16_t)(sign | 0x7c00u); /* infinity */
    if (e == 0 && m == 0) return sign;
    int32_t exp = (int32_t)e - 127; /* unbiased */
    uint32_t mant = (e ? (m | 0x800000u) : m); /* 24-bit significand (subnormal f32: no hidden bit) */
    if (e == 0) exp = -126;
    /* value = mant * 2^(exp - 23); f16 normal: 1.m * 2^E, E in -14..15, 10 fraction bits */
    if (exp >= -14) {
        uint32_t h = round_shift(mant, 13, r, s); /* 11-bit significand (may carry to 12 bits) */
        int32_t he = exp + 15;
        if (h >= 0x800u) {
            h >>= 1;
            he++;
        }
        if (he >= 31) { /* overflow: inf for RN and toward the sign's infinity; max finite otherwise */
            if (r == 2 || (r == 3 && !s) || (r == 4 && s)) return (uint16_t)(sign | 0x7bffu);
            return (uint16_t)(sign | 0x7c00u);
        }
        return (uint16_t)(sign | ((uint32_t)he << 10) | (h & 0x3ffu));
    }
    /* subnormal f16: value / 2^-24 = mant * 2^(exp - 23 + 24) */
    int32_t shift = 13 + (-14 - exp);
    uint32_t h = round_shift(mant, (unsigned)shift, r, s);
    return (uint16_t)(sign | h); /* h == 0x400 rounds up into the smallest normal: the bits are right */
}

float emu_f16_to_f32(uint16_t h)
{
    uint32_t s = (uint32_t)(h >> 15) << 31;
    uint32_t e = (h >> 10) & 0x1fu;
    uint32_t m = h & 0x3ffu;
    if (e == 0x1fu) return u32f(s | 0x7f800000u | (m << 13));
    if (e == 0) {
        if (m == 0) return u32f(s);
        /* subnormal: normalise */
        int32_t ex = -14;
        while (!(m & 0x400u)) {
            m <<= 1;
            ex--;
        }
        m &= 0x3ffu;
        return u32f(s | ((uint32_t)(ex + 127) << 23) | (m << 13));
    }
    return u32f(s | ((e - 15 + 127) << 23) | (m << 13));
}

uint16_t emu_f32_to_bf16(float a, int r)
{
    uint32_t u = f32u(a);
    if ((u & 0x7fffffffu) > 0x7f800000u) return 0x7fffu; /* NaN: the canonical bfloat16 NaN */
    uint32_t s = u >> 31;
    uint32_t mag = u & 0x7fffffffu;
    uint32_t k = round_shift(mag, 16, r, s);
    return (uint16_t)((s << 15) | k);
}

float emu_bf16_to_f32(uint16_t h) { return u32f((uint32_t)h << 16); }

uint16_t emu_f64_to_f16(double a, int r)
{
    /* Round to odd at binary32 (truncate, then set the last bit when inexact), then round to binary16:
     * 24 >= 11 + 2 significand bits, so the second rounding is correct in every mode. */
    if (isnan(a) || isinf(a)) return emu_f32_to_f16((float)a, r);
    float f = emu_f64_to_f32(a, 2 /* ER_RZ */);
    if ((double)f != a) {
        uint32_t u = f32u(f) | 1u;
        f = u32f(u);
    }
    return emu_f32_to_f16(f, r);
}

float emu_ftz32(float a)
{
    uint32_t u = f32u(a);
    if ((u & 0x7f800000u) == 0) u &= 0x80000000u;
    return u32f(u);
}
