// isa_ops — the arithmetic nvcc emits for CUDA's intrinsics, checked bit for bit against the host: for
// every thread's pair of inputs (boundary values, then a seeded spread) one kernel computes 40 results
// with integer intrinsics (__umulhi, __mul64hi, __brev, __popc, __clz, __ffs, __byte_perm, funnel
// shifts, __sad, __usad, min/max, division and remainder), float and double
// conversions in every rounding mode (__float2int_r{n,z,u,d}, __float2uint_rz, __int2float_r{d,u},
// __double2float_r{n,z}, __fadd_rz, __fmul_ru, __fmaf_rd, __fdiv_rn, __fsqrt_rn, __frcp_rn,
// __dadd_rz, __saturatef, truncf/rintf/floorf/ceilf), half-precision conversions (__float2half_rn,
// __half2float) and exact float functions (fminf, fmaxf, copysignf, fabsf, fmaf), and a second
// kernel the warp-wide operations (__reduce_add_sync, __reduce_max_sync, __match_any_sync,
// __activemask, __ballot_sync, __shfl_xor_sync) and atomics (atomicMax, atomicMin, atomicInc,
// atomicDec, atomicExch, atomicCAS loop, atomicAnd/Or/Xor, atomicAdd on double). Only functions whose
// results PTX defines exactly are used (no .approx instructions), so the host reproduces every bit.
#define APP_NAME "isa_ops"
#include "app.h"

#include <cmath>
#include <cstring>
#include <cuda_fp16.h>
#include <fenv.h>
#include <vector>

#define NOUT 40
#define NTHREADS 320

__global__ void ops(const unsigned *ia, const unsigned *ib, const float *fa, const float *fb, const double *da,
                    unsigned *out, int n)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= n)
        return;
    unsigned a = ia[t], b = ib[t];
    int sa = (int)a, sb = (int)b;
    float x = fa[t], y = fb[t];
    double d = da[t];
    unsigned long long wa = ((unsigned long long)a << 32) | b, wb = ((unsigned long long)b << 29) ^ a;
    unsigned *o = out + (size_t)t * NOUT;
    o[0] = __umulhi(a, b);
    o[1] = (unsigned)(__umul64hi(wa, wb) >> 7);
    o[2] = __brev(a);
    o[3] = __popc(a) + 100u * __popcll(wa);
    o[4] = __clz(sa) + 100u * __clzll((long long)wb);
    o[5] = __ffs(sa);
    o[6] = __byte_perm(a, b, b & 0x7777u);
    o[7] = __funnelshift_l(a, b, b);
    o[8] = __funnelshift_rc(a, b, b & 63u);
    o[9] = __sad(sa, sb, 7u);
    o[10] = __usad(a, b, 3u);
    o[11] = (unsigned)min(sa, sb) ^ (unsigned)max(a, b);
    o[12] = b ? a / b : 0u;
    o[13] = (sb != 0 && !(sa == INT_MIN && sb == -1)) ? (unsigned)(sa % sb) : 0u;
    o[14] = (unsigned)__float2int_rn(x);
    o[15] = (unsigned)__float2int_rz(x);
    o[16] = (unsigned)__float2int_ru(x);
    o[17] = (unsigned)__float2int_rd(x);
    o[18] = __float2uint_rz(x);
    o[19] = __float_as_uint(__int2float_rd(sa));
    o[20] = __float_as_uint(__int2float_ru(sa));
    o[21] = __float_as_uint(__double2float_rn(d));
    o[22] = __float_as_uint(__double2float_rz(d));
    o[23] = __float_as_uint(__fadd_rz(x, y));
    o[24] = __float_as_uint(__fmul_ru(x, y));
    o[25] = __float_as_uint(__fmaf_rd(x, y, 1.0f));
    o[26] = __float_as_uint(__fdiv_rn(x, y));
    o[27] = __float_as_uint(__fsqrt_rn(fabsf(x)));
    o[28] = __float_as_uint(__frcp_rn(y));
    o[29] = (unsigned)(__double_as_longlong(__dadd_rz(d, (double)x)) >> 11);
    o[30] = __float_as_uint(__saturatef(x));
    o[31] = __float_as_uint(truncf(x)) ^ __float_as_uint(rintf(y));
    o[32] = __float_as_uint(floorf(x)) ^ __float_as_uint(ceilf(y));
    o[33] = (unsigned)__half_as_ushort(__float2half_rn(x)) | ((unsigned)__half_as_ushort(__float2half_rn(y)) << 16);
    o[34] = __float_as_uint(__half2float(__float2half_rn(x * 0.001f)));
    o[35] = __float_as_uint(fminf(x, y)) ^ (__float_as_uint(fmaxf(x, y)) << 1);
    o[36] = __float_as_uint(copysignf(x, y)) ^ __float_as_uint(fabsf(y));
    o[37] = __float_as_uint(fmaf(x, y, -x));
    o[38] = (unsigned)(long long)(d * 3.0) ^ (unsigned)__double2uint_rz(fabs(d));
    o[39] = (unsigned)(x < y) | ((unsigned)(x != x) << 1) | ((unsigned)isinf(y) << 2) | ((unsigned)(d >= x) << 3);
}

__global__ void warps(const unsigned *ia, unsigned *wout, unsigned *acc, double *dacc, int n)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= n)
        return;
    unsigned a = ia[t];
    unsigned key = a & 3u;
    unsigned act = __activemask();
    unsigned *o = wout + (size_t)t * 6;
    o[0] = __reduce_add_sync(act, a & 0xffffu);
    o[1] = __reduce_max_sync(act, a >> 8);
    o[2] = __match_any_sync(act, key);
    o[3] = act;
    o[4] = __ballot_sync(act, a & 1u);
    o[5] = __shfl_xor_sync(act, a, 5);
    atomicMax(&acc[0], a);
    atomicMin(&acc[1], a);
    atomicInc(&acc[2], 100u);
    atomicDec(&acc[3], 7u);
    atomicAnd(&acc[4], a | 0x0f0f0f0fu);
    atomicOr(&acc[5], a & 0x00ff00ffu);
    atomicXor(&acc[6], a);
    atomicExch(&acc[7], 12345u);
    unsigned old = acc[8], assumed;
    do {
        assumed = old;
        old = atomicCAS(&acc[8], assumed, assumed + (a & 15u));
    } while (old != assumed);
    atomicAdd(&dacc[0], (double)(a & 255u) * 0.5);
}

// ---------------------------------------------------------------------------------------------------
// Host references, written from the CUDA Math API's definitions.

static unsigned f2u(float f)
{
    unsigned u;
    std::memcpy(&u, &f, 4);
    return u;
}
// The bits of an f32 result as the GPU delivers them: every NaN an arithmetic instruction, a rounding
// cvt or abs.f32 produces is the canonical NaN 0x7fffffff, whatever the operands' payloads (measured on
// an H100, JIT-compiled PTX and sm_90 SASS alike; docs/emulator.md, "Against a real GPU"), where the
// host propagates a payload or produces its default NaN 0xffc00000.
static unsigned f2u_gpu(float f)
{
    return std::isnan(f) ? 0x7fffffffu : f2u(f);
}
static float u2f(unsigned u)
{
    float f;
    std::memcpy(&f, &u, 4);
    return f;
}
static unsigned long long d2u(double f)
{
    unsigned long long u;
    std::memcpy(&u, &f, 8);
    return u;
}

// Float to int with PTX's saturation (NaN gives 0).
static int f2i_sat(double r)
{
    if (std::isnan(r))
        return 0;
    if (r >= 2147483647.0)
        return INT_MAX;
    if (r <= -2147483648.0)
        return INT_MIN;
    return (int)r;
}

template <typename F> static float with_round(int mode, F f)
{
    int old = fegetround();
    fesetround(mode);
    volatile float r = f();
    fesetround(old);
    return r;
}

static unsigned short h_rn(float x)
{
    __half h = __float2half_rn(x); // host-side conversion of cuda_fp16.h: round to nearest even
    return __half_as_ushort(h);
}

static unsigned clz32(unsigned v) { return v ? (unsigned)__builtin_clz(v) : 32u; }

static void ref(unsigned a, unsigned b, float x, float y, double d, unsigned *o)
{
    int sa = (int)a, sb = (int)b;
    unsigned long long wa = ((unsigned long long)a << 32) | b, wb = ((unsigned long long)b << 29) ^ a;
    o[0] = (unsigned)(((unsigned long long)a * b) >> 32);
    o[1] = (unsigned)((unsigned long long)(((unsigned __int128)wa * wb) >> 64) >> 7);
    unsigned r = 0;
    for (int k = 0; k < 32; k++)
        r |= ((a >> k) & 1u) << (31 - k);
    o[2] = r;
    o[3] = (unsigned)__builtin_popcount(a) + 100u * (unsigned)__builtin_popcountll(wa);
    o[4] = clz32(a) + 100u * (wb ? (unsigned)__builtin_clzll(wb) : 64u);
    o[5] = a ? (unsigned)__builtin_ctz(a) + 1u : 0u;
    {
        unsigned long long bytes = ((unsigned long long)b << 32) | a;
        unsigned s = b & 0x7777u, v = 0;
        for (int k = 0; k < 4; k++)
            v |= (unsigned)((bytes >> (8 * ((s >> (4 * k)) & 7u))) & 0xffu) << (8 * k);
        o[6] = v;
    }
    {
        unsigned long long cat = ((unsigned long long)b << 32) | a;
        o[7] = (unsigned)((cat << (b & 31u)) >> 32);
        unsigned s = (b & 63u) > 32u ? 32u : (b & 63u);
        o[8] = (unsigned)(cat >> s);
    }
    o[9] = (unsigned)((sa > sb ? (long long)sa - sb : (long long)sb - sa) + 7);
    o[10] = (a > b ? a - b : b - a) + 3u;
    o[11] = (unsigned)(sa < sb ? sa : sb) ^ (a > b ? a : b);
    o[12] = b ? a / b : 0u;
    o[13] = (sb != 0 && !(sa == INT_MIN && sb == -1)) ? (unsigned)(sa % sb) : 0u;
    o[14] = (unsigned)f2i_sat(std::nearbyint((double)x));
    o[15] = (unsigned)f2i_sat(std::trunc((double)x));
    o[16] = (unsigned)f2i_sat(std::ceil((double)x));
    o[17] = (unsigned)f2i_sat(std::floor((double)x));
    {
        double t = std::trunc((double)x);
        o[18] = std::isnan(x) || t <= 0 ? 0u : t >= 4294967295.0 ? 0xffffffffu : (unsigned)t;
    }
    // The operands are read through volatile copies inside the rounding-mode bracket, so the host
    // compiler cannot compute them before fesetround (it is not told -frounding-math).
    volatile int vsa = sa;
    volatile double vd = d;
    volatile float vx = x, vy = y;
    o[19] = f2u(with_round(FE_DOWNWARD, [&] { return (float)vsa; }));
    o[20] = f2u(with_round(FE_UPWARD, [&] { return (float)vsa; }));
    o[21] = f2u((float)d);
    o[22] = f2u(with_round(FE_TOWARDZERO, [&] { return (float)vd; }));
    o[23] = f2u_gpu(with_round(FE_TOWARDZERO, [&] { return vx + vy; }));
    o[24] = f2u_gpu(with_round(FE_UPWARD, [&] { return vx * vy; }));
    o[25] = f2u_gpu(with_round(FE_DOWNWARD, [&] { return std::fma((float)vx, (float)vy, 1.0f); }));
    o[26] = f2u_gpu(x / y);
    o[27] = f2u_gpu(std::sqrt(std::fabs(x)));
    o[28] = f2u_gpu(1.0f / y);
    {
        int old = fegetround();
        fesetround(FE_TOWARDZERO);
        volatile double s = vd + (double)vx;
        fesetround(old);
        o[29] = (unsigned)(d2u(s) >> 11);
    }
    // saturation clamps to [+0, 1]: NaN and -0 give +0 (measured on an H100)
    o[30] = f2u(!(x > 0.0f) ? 0.0f : x > 1.0f ? 1.0f : x);
    o[31] = f2u_gpu(std::trunc(x)) ^ f2u_gpu(std::nearbyint(y));
    o[32] = f2u_gpu(std::floor(x)) ^ f2u_gpu(std::ceil(y));
    o[33] = (unsigned)h_rn(x) | ((unsigned)h_rn(y) << 16);
    o[34] = f2u(__half2float(__float2half_rn(x * 0.001f)));
    {
        // fminf/fmaxf: the other operand when one is NaN; -0 < +0
        auto mn = [](float p, float q) {
            if (std::isnan(p))
                return q;
            if (std::isnan(q))
                return p;
            if (p == q)
                return u2f(f2u(p) | f2u(q));
            return p < q ? p : q;
        };
        auto mx = [](float p, float q) {
            if (std::isnan(p))
                return q;
            if (std::isnan(q))
                return p;
            if (p == q)
                return u2f(f2u(p) & f2u(q));
            return p > q ? p : q;
        };
        o[35] = f2u(mn(x, y)) ^ (f2u(mx(x, y)) << 1);
    }
    o[36] = f2u(std::copysign(x, y)) ^ f2u_gpu(std::fabs(y));
    o[37] = f2u_gpu(std::fma(x, y, -x));
    {
        double t3 = d * 3.0;
        long long ll = std::isnan(t3) ? 0 : t3 >= 9.2233720368547758e18 ? LLONG_MAX
                       : t3 <= -9.2233720368547758e18          ? LLONG_MIN
                                                               : (long long)t3;
        double ad = std::trunc(std::fabs(d));
        unsigned u = ad >= 4294967295.0 ? 0xffffffffu : (unsigned)ad;
        o[38] = (unsigned)ll ^ u;
    }
    o[39] = (unsigned)(x < y) | ((unsigned)(x != x) << 1) | ((unsigned)std::isinf(y) << 2) |
            ((unsigned)(d >= (double)x) << 3);
}

int main(int argc, char **argv)
{
    app_args(argc, argv);
    const int n = NTHREADS;
    static const unsigned bu[] = {0u, 1u, 2u, 7u, 31u, 32u, 33u, 0x7fffffffu, 0x80000000u, 0x80000001u, 0xffffffffu,
                                  0xfffffffeu, 0x12345678u, 0xdeadbeefu, 0x00ff00ffu, 65535u};
    static const float bf[] = {0.0f, -0.0f, 1.0f, -1.0f, 0.5f, 1.5f, 2.5f, -2.5f, 3e9f, -3e9f, 1e-40f, 65504.0f,
                               65520.0f, 0.1f, 16777217.0f, 1e30f, -7.75f, 123.456f};
    std::vector<unsigned> ia(n), ib(n);
    std::vector<float> fa(n), fb(n);
    std::vector<double> da(n);
    AppRng rng = app_rng(11);
    for (int t = 0; t < n; t++) {
        if (t < 64) {
            ia[t] = bu[t % 16];
            ib[t] = bu[(t / 16 + t) % 16];
            fa[t] = bf[t % 18];
            fb[t] = bf[(t * 7 + 3) % 18];
        } else {
            ia[t] = (unsigned)app_below(&rng, 0xffffffffu) ^ ((unsigned)app_below(&rng, 65536) << 16);
            ib[t] = (unsigned)app_below(&rng, 0xffffffffu);
            fa[t] = (float)((double)(int)app_below(&rng, 2000001) / 997.0 - 1000.0);
            fb[t] = (float)((double)(int)app_below(&rng, 2000001) / 1009.0 - 1000.0) + 0.25f;
        }
        if (t == 20)
            fb[t] = NAN;
        if (t == 21)
            fa[t] = INFINITY;
        da[t] = (double)fa[t] * 1.0000001 + (double)t * 1e-9;
    }
    unsigned *d_ia, *d_ib, *d_out, *d_wout, *d_acc;
    float *d_fa, *d_fb;
    double *d_da, *d_dacc;
    CK(cudaMalloc(&d_ia, n * 4));
    CK(cudaMalloc(&d_ib, n * 4));
    CK(cudaMalloc(&d_fa, n * 4));
    CK(cudaMalloc(&d_fb, n * 4));
    CK(cudaMalloc(&d_da, n * 8));
    CK(cudaMalloc(&d_out, (size_t)n * NOUT * 4));
    CK(cudaMalloc(&d_wout, (size_t)n * 6 * 4));
    CK(cudaMalloc(&d_acc, 9 * 4));
    CK(cudaMalloc(&d_dacc, 8));
    CK(cudaMemcpy(d_ia, ia.data(), n * 4, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(d_ib, ib.data(), n * 4, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(d_fa, fa.data(), n * 4, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(d_fb, fb.data(), n * 4, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(d_da, da.data(), n * 8, cudaMemcpyHostToDevice));
    unsigned acc0[9] = {0u, 0xffffffffu, 0u, 0u, 0xffffffffu, 0u, 0u, 0u, 0u};
    double dacc0 = 0.0;
    CK(cudaMemcpy(d_acc, acc0, sizeof acc0, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(d_dacc, &dacc0, 8, cudaMemcpyHostToDevice));
    ops<<<(n + 95) / 96, 96>>>(d_ia, d_ib, d_fa, d_fb, d_da, d_out, n);
    CK(cudaGetLastError());
    warps<<<(n + 63) / 64, 64>>>(d_ia, d_wout, d_acc, d_dacc, n - 5); // the last warp is partial
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    std::vector<unsigned> out((size_t)n * NOUT), wout((size_t)n * 6);
    unsigned acc[9];
    double dacc;
    CK(cudaMemcpy(out.data(), d_out, out.size() * 4, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(wout.data(), d_wout, wout.size() * 4, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(acc, d_acc, sizeof acc, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(&dacc, d_dacc, 8, cudaMemcpyDeviceToHost));

    for (int t = 0; t < n; t++) {
        unsigned want[NOUT];
        ref(ia[t], ib[t], fa[t], fb[t], da[t], want);
        for (int k = 0; k < NOUT; k++)
            if (out[(size_t)t * NOUT + k] != want[k])
                app_fail("thread %d result %d: device 0x%08x, host 0x%08x (a=0x%08x b=0x%08x x=%.9g y=%.9g)", t, k,
                         out[(size_t)t * NOUT + k], want[k], ia[t], ib[t], (double)fa[t], (double)fb[t]);
    }
    // warp-wide results, warp by warp (warps of 32 in blocks of 64; n - 5 threads take part)
    const int nw = n - 5;
    for (int w0 = 0; w0 < nw; w0 += 32) {
        int lanes = nw - w0 < 32 ? nw - w0 : 32;
        unsigned act = lanes == 32 ? 0xffffffffu : (1u << lanes) - 1u;
        unsigned sum = 0, mxv = 0, bal = 0;
        for (int l = 0; l < lanes; l++) {
            sum += ia[w0 + l] & 0xffffu;
            unsigned v = ia[w0 + l] >> 8;
            if (v > mxv)
                mxv = v;
            if (ia[w0 + l] & 1u)
                bal |= 1u << l;
        }
        for (int l = 0; l < lanes; l++) {
            const unsigned *o = &wout[(size_t)(w0 + l) * 6];
            unsigned match = 0;
            for (int j = 0; j < lanes; j++)
                if ((ia[w0 + j] & 3u) == (ia[w0 + l] & 3u))
                    match |= 1u << j;
            int src = l ^ 5;
            unsigned shfl = src < lanes ? ia[w0 + src] : ia[w0 + l];
            unsigned want[6] = {sum, mxv, match, act, bal, shfl};
            for (int k = 0; k < 6; k++)
                if (k != 5 || src < lanes) // a source lane outside the mask is undefined
                    if (o[k] != want[k])
                        app_fail("warp op %d of thread %d: device 0x%08x, host 0x%08x", k, w0 + l, o[k], want[k]);
        }
    }
    unsigned wmax = 0, wmin = 0xffffffffu, wand = 0xffffffffu, wor = 0, wxor = 0, cas = 0, inc = 0, dec = 0;
    double dsum = 0.0;
    for (int t = 0; t < nw; t++) {
        unsigned a = ia[t];
        wmax = a > wmax ? a : wmax;
        wmin = a < wmin ? a : wmin;
        wand &= a | 0x0f0f0f0fu;
        wor |= a & 0x00ff00ffu;
        wxor ^= a;
        cas += a & 15u;
        inc = inc >= 100u ? 0u : inc + 1u;
        dec = (dec == 0u || dec > 7u) ? 7u : dec - 1u;
        dsum += (double)(a & 255u) * 0.5; // exact: multiples of 0.5 below 2^53
    }
    unsigned wacc[9] = {wmax, wmin, inc, dec, wand, wor, wxor, 12345u, cas};
    for (int k = 0; k < 9; k++)
        if (acc[k] != wacc[k])
            app_fail("atomic result %d: device 0x%08x, host 0x%08x", k, acc[k], wacc[k]);
    if (dacc != dsum)
        app_fail("double atomicAdd: device %.17g, host %.17g", dacc, dsum);
    app_pass();
}
