/*
 * emu_fp.h — floating-point semantics of PTX that C's default environment does not give directly
 * (docs/emulator.md §4.4): the directed rounding modes (.rz .rm .rp), half-precision and bfloat16
 * conversions with round-to-nearest-even, float-to-integer conversions with PTX's saturation (NaN to 0,
 * out of range to the type's limit), and flush-to-zero of subnormals.
 *
 * Round-to-nearest-even operations run natively in the interpreter (x86-64 SSE arithmetic is IEEE 754
 * binary32/binary64 with RN); the functions here change the rounding mode around one operation and
 * restore it, so emu_fp.c is compiled with -frounding-math.
 */
#ifndef EMU_FP_H
#define EMU_FP_H

#include <stdint.h>

/* Rounding modes as decoded (emu_insn_t.rnd). */
enum {
    ER_NONE = 0, /* not given: the instruction's default (RN for arithmetic) */
    ER_RN, ER_RZ, ER_RM, ER_RP, /* floating-point results */
    ER_RNI, ER_RZI, ER_RMI, ER_RPI, /* round to integral value (cvt float->int, cvt.rni.f32.f32) */
    ER_RNA, ER_RS
};

/* Binary operations in rounding mode r (ER_RN/RZ/RM/RP; anything else is RN). */
float emu_f32_add(float a, float b, int r);
float emu_f32_sub(float a, float b, int r);
float emu_f32_mul(float a, float b, int r);
float emu_f32_div(float a, float b, int r);
float emu_f32_fma(float a, float b, float c, int r);
float emu_f32_sqrt(float a, int r);
double emu_f64_add(double a, double b, int r);
double emu_f64_sub(double a, double b, int r);
double emu_f64_mul(double a, double b, int r);
double emu_f64_div(double a, double b, int r);
double emu_f64_fma(double a, double b, double c, int r);
double emu_f64_sqrt(double a, int r);

/* Conversions. */
float emu_f64_to_f32(double a, int r);        /* cvt.rX.f32.f64 */
float emu_i64_to_f32(int64_t a, int r);       /* cvt.rX.f32.s64 (also s32: exact widening first) */
float emu_u64_to_f32(uint64_t a, int r);
double emu_i64_to_f64(int64_t a, int r);
double emu_u64_to_f64(uint64_t a, int r);
/* Round to an integral value in mode r (ER_RNI/RZI/RMI/RPI; ER_NONE = RZI as C casts do). */
double emu_round_integral(double a, int r);
/* Float to integer as PTX cvt does: round to integral in mode r, then saturate to [lo, hi]; NaN -> 0. */
int64_t emu_f64_to_i64_sat(double a, int r, int64_t lo, int64_t hi);
uint64_t emu_f64_to_u64_sat(double a, int r, uint64_t hi);

/* Half precision (binary16) and bfloat16: bits in the low 16 bits. */
uint16_t emu_f32_to_f16(float a, int r); /* RN (ties to even) unless r is RZ/RM/RP */
float emu_f16_to_f32(uint16_t h);
uint16_t emu_f32_to_bf16(float a, int r);
float emu_bf16_to_f32(uint16_t h);
uint16_t emu_f64_to_f16(double a, int r);

/* Flush a subnormal to a zero of the same sign (.ftz). */
float emu_ftz32(float a);

/* Bit views. */
static inline float emu_as_f32(uint64_t v)
{
    union {
        uint32_t u;
        float f;
    } x;
    x.u = (uint32_t)v;
    return x.f;
}
static inline uint64_t emu_f32_bits(float f)
{
    union {
        uint32_t u;
        float f;
    } x;
    x.f = f;
    return x.u;
}
static inline double emu_as_f64(uint64_t v)
{
    union {
        uint64_t u;
        double f;
    } x;
    x.u = v;
    return x.f;
}
static inline uint64_t emu_f64_bits(double f)
{
    union {
        uint64_t u;
        double f;
    } x;
    x.f = f;
    return x.u;
}

#endif /* EMU_FP_H */
