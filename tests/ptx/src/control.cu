// control.cu — control flow for the parser fixtures: a switch, nested loops with break/continue,
// recursion through a non-inlined device function, launch bounds and a dynamically indexed local array.
__device__ __noinline__ int fib(int n)
{
    return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

__device__ __noinline__ long long mix64(long long a, long long b)
{
    long long r = a * b + (a >> 7) - (b << 3);
    return r / (b | 1) + r % 97;
}

__global__ void __launch_bounds__(128, 4) classify(const int *in, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int v = in[i], r;
    switch (v & 7) {
    case 0: r = v * 3; break;
    case 1: r = v - 11; break;
    case 2: r = v << 2; break;
    case 3: r = fib(v & 15); break;
    case 4: r = -v; break;
    case 5: r = v ^ 0x5a5a; break;
    case 6: r = (int)mix64(v, i); break;
    default: r = 0; break;
    }
    out[i] = r;
}

__global__ void loops(int *data, int w, int h, int k)
{
    int acc = 0;
    for (int y = 0; y < h; y++) {
        if (y == k) continue;
        for (int x = threadIdx.x; x < w; x += blockDim.x) {
            int v = data[y * w + x];
            if (v < 0) break;
            acc += v;
        }
    }
    int hist[16];
    for (int j = 0; j < 16; j++) hist[j] = 0;
    for (int j = 0; j < w; j++) hist[data[j] & 15] += j;
    data[threadIdx.x] = acc + hist[threadIdx.x & 15];
}
