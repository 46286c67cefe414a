// mathlib — CUDA's math library on the device: 24 single- and double-precision functions (expf, logf,
// sinf, cosf, tanf, powf, atan2f, erff, tanhf, cbrtf, fmodf, log1pf, expm1f, sinpif, the fast
// intrinsics __expf, __logf, __sinf, __fdividef, and exp, log, sin, cos, pow, sqrt in double) over a
// spread of arguments, compared with the host's libm within a tolerance per function: the CUDA
// Programming Guide's maximum ulp error for the full-precision functions (plus one ulp for the host's
// own rounding), an absolute error for the fast intrinsics. nvcc inlines the library's code, so this
// runs the long polynomial and range-reduction sequences real programs run (fma chains, ex2/lg2,
// integer bit manipulation of floats, local-memory tables for large arguments).
#define APP_NAME "mathlib"
#include "app.h"

#include <cmath>
#include <cstring>
#include <vector>

#define NF 24

// pb, pe, pd: the bases and exponents of the pow calls, computed on the host (a device expression like
// fabsf(x) * 0.1f + 0.5f is contracted into one fma by nvcc and rounds differently from the host's).
__global__ void mathk(const float *xs, const float *ys, const double *ds, const float *pb, const float *pe,
                      const double *pd, float *fo, double *dout, int n)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= n)
        return;
    float x = xs[t], y = ys[t];
    double d = ds[t];
    float *o = fo + (size_t)t * NF;
    o[0] = expf(x * 0.05f);
    o[1] = logf(fabsf(x) + 0.5f);
    o[2] = sinf(x);
    o[3] = cosf(x);
    o[4] = tanf(x * 0.3f);
    o[5] = powf(pb[t], pe[t]);
    o[6] = atan2f(y, x);
    o[7] = erff(x * 0.01f);
    o[8] = tanhf(x * 0.02f);
    o[9] = cbrtf(x);
    o[10] = fmodf(x, y + 0.5f);
    o[11] = log1pf(fabsf(x) * 0.01f);
    o[12] = expm1f(x * 0.001f);
    o[13] = sinpif(x * 0.01f);
    o[14] = __expf(x * 0.05f);
    o[15] = __logf(fabsf(x) + 0.5f);
    o[16] = __sinf(x * 0.01f);
    o[17] = __fdividef(x, y + 300.0f);
    double *p = dout + (size_t)t * 6;
    p[0] = exp(d * 0.01);
    p[1] = log(fabs(d) + 0.25);
    p[2] = sin(d);
    p[3] = cos(d);
    p[4] = pow(pd[t], 1.5);
    p[5] = sqrt(fabs(d));
}

// Distance in units in the last place between two floats (or doubles) of the same sign, NaN-aware.
static double ulp_f(float a, float b)
{
    if (std::isnan(a) || std::isnan(b))
        return (std::isnan(a) && std::isnan(b)) ? 0.0 : 1e30;
    if (a == b)
        return 0.0;
    int32_t ia, ib;
    std::memcpy(&ia, &a, 4);
    std::memcpy(&ib, &b, 4);
    if (ia < 0)
        ia = INT32_MIN - ia;
    if (ib < 0)
        ib = INT32_MIN - ib;
    return std::fabs((double)ia - (double)ib);
}
static double ulp_d(double a, double b)
{
    if (std::isnan(a) || std::isnan(b))
        return (std::isnan(a) && std::isnan(b)) ? 0.0 : 1e30;
    if (a == b)
        return 0.0;
    int64_t ia, ib;
    std::memcpy(&ia, &a, 8);
    std::memcpy(&ib, &b, 8);
    if (ia < 0)
        ia = INT64_MIN - ia;
    if (ib < 0)
        ib = INT64_MIN - ib;
    return std::fabs((double)ia - (double)ib);
}

int main(int argc, char **argv)
{
    app_args(argc, argv);
    const int n = 1000;
    std::vector<float> xs(n), ys(n), fo((size_t)n * NF);
    std::vector<double> ds(n), dout((size_t)n * 6), pd(n);
    std::vector<float> pb(n), pe(n);
    AppRng rng = app_rng(21);
    for (int t = 0; t < n; t++) {
        xs[t] = (float)((double)(int)app_below(&rng, 2000001) / 1000.0 - 1000.0); // [-1000, 1000]
        ys[t] = (float)((double)(int)app_below(&rng, 200001) / 1000.0 + 0.5);    // [0.5, 200.5]
        ds[t] = (double)(int)app_below(&rng, 2000001) / 997.0 - 1003.0;
    }
    xs[0] = 0.0f, xs[1] = -0.0f, xs[2] = 1e-30f, xs[3] = 0.5f, xs[4] = 3.14159265f, xs[5] = 100000.0f;
    ds[0] = 0.0, ds[1] = 1e6, ds[2] = -1e-300;
    for (int t = 0; t < n; t++) {
        pb[t] = std::fabs(xs[t]) * 0.1f + 0.5f;
        pe[t] = ys[t] * 0.05f;
        pd[t] = std::fabs(ds[t]) * 0.01 + 1.0;
    }
    float *d_x, *d_y, *d_fo, *d_pb, *d_pe;
    double *d_d, *d_do, *d_pd;
    CK(cudaMalloc(&d_x, n * 4));
    CK(cudaMalloc(&d_y, n * 4));
    CK(cudaMalloc(&d_d, n * 8));
    CK(cudaMalloc(&d_fo, fo.size() * 4));
    CK(cudaMalloc(&d_pb, n * 4));
    CK(cudaMalloc(&d_pe, n * 4));
    CK(cudaMalloc(&d_pd, n * 8));
    CK(cudaMemcpy(d_pb, pb.data(), n * 4, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(d_pe, pe.data(), n * 4, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(d_pd, pd.data(), n * 8, cudaMemcpyHostToDevice));
    CK(cudaMalloc(&d_do, dout.size() * 8));
    CK(cudaMemcpy(d_x, xs.data(), n * 4, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(d_y, ys.data(), n * 4, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(d_d, ds.data(), n * 8, cudaMemcpyHostToDevice));
    mathk<<<(n + 127) / 128, 128>>>(d_x, d_y, d_d, d_pb, d_pe, d_pd, d_fo, d_do, n);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(fo.data(), d_fo, fo.size() * 4, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(dout.data(), d_do, dout.size() * 8, cudaMemcpyDeviceToHost));

    // Maximum ulp errors of the CUDA Programming Guide (Mathematical Functions appendix) + 1 for the
    // host's rounding; the fast intrinsics get absolute tolerances instead (their errors are stated in
    // absolute terms or are large relative to small results).
    static const double tol_ulp[NF] = {3, 2, 3, 3, 5, 9, 4, 3, 3, 2, 1, 3, 2, 2, 0, 0, 0, 0};
    // sinpif is exact at integers (the host reference, sin(pi * x) in double, is not): an absolute error
    // of 1e-6 is accepted there.
    static const double tol_abs[NF] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1e-6, 0, 0, 0, 0};
    for (int t = 0; t < n; t++) {
        float x = xs[t], y = ys[t];
        float want[18] = {std::exp(x * 0.05f), std::log(std::fabs(x) + 0.5f), std::sin(x), std::cos(x),
                          std::tan(x * 0.3f), std::pow(pb[t], pe[t]), std::atan2(y, x),
                          std::erf(x * 0.01f), std::tanh(x * 0.02f), std::cbrt(x), std::fmod(x, y + 0.5f),
                          std::log1p(std::fabs(x) * 0.01f), std::expm1(x * 0.001f),
                          (float)std::sin(3.14159265358979323846 * (double)(x * 0.01f)), std::exp(x * 0.05f),
                          std::log(std::fabs(x) + 0.5f), std::sin(x * 0.01f), x / (y + 300.0f)};
        for (int k = 0; k < 18; k++) {
            float got = fo[(size_t)t * NF + k];
            bool ok;
            if (k == 16 && std::fabs(x * 0.01f) > 3.14159265f) {
                // __sinf's bound holds on [-pi, pi] only; outside it the hardware's own range reduction
                // (sin.approx) is far less accurate: 1223 ulp at 1000 on an H100 (docs/emulator.md,
                // "Against a real GPU"), so only a finite result in [-1, 1] is required there.
                ok = std::fabs(got) <= 1.0f;
            } else if (k >= 14) {
                // __expf: 2 + 1.16 * |x| ulp, relative ~2^-21 here; __logf: 2^-21.41 absolute for
                // arguments in [0.5, 2], relative otherwise; __sinf: 2^-21.41 absolute on [-pi, pi];
                // __fdividef: 2 ulp. Checked as a relative (or, near zero, absolute) error of 2^-18.
                double err = std::fabs((double)got - (double)want[k]);
                ok = got == want[k] || err <= std::ldexp(1.0, -18) * std::fmax(1.0, std::fabs((double)want[k]));
            } else {
                ok = ulp_f(got, want[k]) <= tol_ulp[k] || std::fabs((double)got - (double)want[k]) <= tol_abs[k];
            }
            if (!ok)
                app_fail("function %d at thread %d (x=%.9g y=%.9g): device %.9g, host %.9g (%.0f ulp)", k, t,
                         (double)x, (double)y, (double)got, (double)want[k], ulp_f(got, want[k]));
        }
        double d = ds[t];
        double dwant[6] = {std::exp(d * 0.01), std::log(std::fabs(d) + 0.25), std::sin(d), std::cos(d),
                           std::pow(pd[t], 1.5), std::sqrt(std::fabs(d))};
        static const double dtol[6] = {2, 2, 3, 3, 3, 0};
        for (int k = 0; k < 6; k++) {
            double got = dout[(size_t)t * 6 + k];
            if (ulp_d(got, dwant[k]) > dtol[k])
                app_fail("double function %d at thread %d (d=%.17g): device %.17g, host %.17g (%.0f ulp)", k, t, d,
                         got, dwant[k], ulp_d(got, dwant[k]));
        }
    }
    app_pass();
}
