/*
 * ga_rng.h — the project's one seeded random number generator: xoshiro256** (Blackman and Vigna,
 * 2018), its state seeded by four outputs of splitmix64 from one 64-bit seed. Deterministic on every
 * platform; the state lives in the caller's struct (no hidden globals).
 */
#ifndef GA_RNG_H
#define GA_RNG_H

#include <stdint.h>

typedef struct {
    uint64_t s[4];
} ga_rng_t;

static inline uint64_t ga_splitmix64(uint64_t *x)
{
    uint64_t z = (*x += UINT64_C(0x9E3779B97F4A7C15));
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

static inline void ga_rng_seed(ga_rng_t *r, uint64_t seed)
{
    for (int i = 0; i < 4; i++) r->s[i] = ga_splitmix64(&seed);
}

static inline uint64_t ga_rotl64(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

static inline uint64_t ga_rng_next(ga_rng_t *r)
{
    uint64_t *s = r->s;
    uint64_t result = ga_rotl64(s[1] * 5u, 7) * 9u;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = ga_rotl64(s[3], 45);
    return result;
}

/* Uniform integer in [0, n) for n >= 1, by rejection (no modulo bias). n = 0 returns 0. */
static inline uint64_t ga_rng_below(ga_rng_t *r, uint64_t n)
{
    if (n == 0u) return 0u;
    uint64_t limit = UINT64_MAX - (UINT64_MAX % n); /* values >= limit would bias the result */
    uint64_t v;
    do {
        v = ga_rng_next(r);
    } while (v >= limit);
    return v % n;
}

#endif /* GA_RNG_H */
