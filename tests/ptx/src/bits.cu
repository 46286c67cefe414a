// bits.cu — integer intrinsics, warp-level primitives, read-only and volatile loads and fences,
// for the parser fixtures.
__global__ void bits(const unsigned *__restrict__ in, unsigned *out, unsigned long long *wide)
{
    unsigned t = threadIdx.x;
    unsigned v = __ldg(&in[t]);
    unsigned r = __popc(v) + __clz(v) + __brev(v) + __ffs(v);
    r ^= __byte_perm(v, r, 0x3210);
    r += __funnelshift_l(v, r, 5) + __funnelshift_r(v, r, t & 31);
    r += __umulhi(v, r) + __sad(v, r, 7u) + __usad(v, t, 1u);
    unsigned long long w = (unsigned long long)v * r;
    w += __popcll(w) + __clzll(w) + __brevll(w) + __ffsll(w);
    unsigned peers = __match_any_sync(0xffffffffu, v & 3);
    __syncwarp();
    int lane = __reduce_add_sync(0xffffffffu, (int)(v & 255));
    out[t] = r + peers + (unsigned)lane + __activemask();
    wide[t] = w;
}

__global__ void fences(volatile int *flag, int *data, unsigned long long *clk)
{
    data[threadIdx.x] = threadIdx.x;
    __threadfence();
    if (threadIdx.x == 0) *flag = 1;
    __threadfence_block();
    while (*flag == 0) { }
    __threadfence_system();
    clk[threadIdx.x] = clock64();
    atomicAdd_block(data, 1);
    atomicAdd_system(data + 1, 1);
}
