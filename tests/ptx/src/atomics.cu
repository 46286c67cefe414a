// atomics.cu — atomics, warp shuffles, votes and vector loads (a parser fixture).
__global__ void histo(const unsigned char *in, unsigned *bins, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) atomicAdd(&bins[in[i]], 1u);
}

__global__ void atoms(int *p, unsigned long long *q, float *f)
{
    int old = atomicCAS(p, 0, threadIdx.x);
    atomicMax(p + 1, old);
    atomicMin(p + 2, old);
    atomicExch(p + 3, old);
    atomicAnd(p + 4, 0xff);
    atomicOr(p + 5, 1);
    atomicXor(p + 6, 3);
    atomicAdd(q, 1ull);
    atomicAdd(f, 1.0f);
    atomicInc((unsigned *)p + 7, 100u);
}

__global__ void warp_reduce(const float *in, float *out)
{
    float v = in[blockIdx.x * blockDim.x + threadIdx.x];
    for (int o = 16; o > 0; o /= 2) v += __shfl_down_sync(0xffffffffu, v, o);
    float w = __shfl_xor_sync(0xffffffffu, v, 1);
    unsigned b = __ballot_sync(0xffffffffu, v > 0.0f);
    if (__all_sync(0xffffffffu, w > v) || __any_sync(b, w < 0.0f)) v = w;
    if ((threadIdx.x & 31) == 0) out[blockIdx.x * 32 + threadIdx.x / 32] = v + (float)__popc(b);
}

__global__ void vec4(const float4 *in, float4 *out, const double2 *d, double2 *e)
{
    int i = threadIdx.x;
    float4 v = in[i];
    v.x += v.w; v.y *= v.z;
    out[i] = v;
    double2 x = d[i];
    x.y -= x.x;
    e[i] = x;
}
