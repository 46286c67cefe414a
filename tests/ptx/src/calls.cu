// calls.cu — device functions that are not inlined, struct parameters, function pointers,
// constant and global variables with initializers, and a local array.
struct pair3 { int a; float b; double c; };

__constant__ float coeffs[4] = {1.0f, 0.5f, 0.25f, 0.125f};
__device__ int table2d[2][3] = {{1, 2, 3}, {4, 5, 6}};
__device__ int counter;
__device__ int *ptr_to_counter = &counter;

__device__ __noinline__ float poly(float x)
{
    return coeffs[0] + x * (coeffs[1] + x * (coeffs[2] + x * coeffs[3]));
}

__device__ __noinline__ pair3 make_pair(int a, float b)
{
    pair3 p = {a, b, (double)a * b};
    return p;
}

__device__ __noinline__ void bump(void) { atomicAdd(ptr_to_counter, 1); }

typedef float (*unary_fn)(float);
__device__ __noinline__ float twice(float x) { return 2.0f * x; }
__device__ unary_fn fns[2] = {poly, twice};

__global__ void use_calls(float *out, pair3 in, int which)
{
    int i = threadIdx.x;
    pair3 p = make_pair(in.a + i, in.b);
    out[i] = poly(p.b) + (float)p.c + (float)table2d[i & 1][i % 3] + fns[which & 1](out[i]);
    bump();
}

__global__ void use_local(int *out, int k)
{
    int a[32];
    for (int j = 0; j < 32; j++) a[j] = j * k + threadIdx.x;
    out[threadIdx.x] = a[(threadIdx.x * 7 + k) & 31];
}
