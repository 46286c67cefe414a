/*
 * ga_gen.h — the project's one case generator (STYLE.md item 7), in the manner of TestFloat's
 * genCases: commented boundary tables interleaved with seeded random values, with a level knob. It
 * feeds the Check unit tests (tests/test_*.c) and the Verilator bench (tb/) alike. It only generates;
 * checking is the caller's business (against an independent reference, never against this file).
 *
 * Everything is deterministic for a given (seed, level, tag_bits): the random stream is the project's
 * xoshiro256** (ga_rng.h), kept in the context, with no globals. Two contexts never interfere.
 *
 * Levels:
 *   0  boundary tables only (no random cases; the sequence does not depend on the seed);
 *   1  every boundary case followed by one seeded random case; 16-bit tag sample of 64 extra tags;
 *   2  every boundary case followed by eight random cases; 16-bit tag sample of 1024 extra tags.
 */
#ifndef GA_GEN_H
#define GA_GEN_H

#include "ga_check.h"
#include "ga_rng.h"

#ifdef __cplusplus
extern "C" {
#endif

#define GA_GEN_LEVEL_MAX 2u

typedef struct {
    uint64_t seed;
    unsigned level;    /* 0 .. GA_GEN_LEVEL_MAX */
    unsigned tag_bits; /* 7 or 16 */
    ga_rng_t rng;      /* the one random stream of this context */
    /* Sequence state of ga_gen_next_check / ga_gen_next_shared. */
    uint64_t check_idx, shared_idx; /* next boundary case */
    uint32_t check_rand, shared_rand; /* random cases still due before the next boundary case */
} ga_gen_t;

/* Start a context. GA_ERR_BAD_PARAM for NULL g, level above GA_GEN_LEVEL_MAX or tag_bits not 7/16. */
ga_err_t ga_gen_init(ga_gen_t *g, uint64_t seed, unsigned level, unsigned tag_bits);

/* Restart both sequences and the random stream from the seed (the next calls repeat the same cases). */
void ga_gen_rewind(ga_gen_t *g);

/* ------------------------------------------------------------------------------------------------
 * (a) Check cases: one entry, one tagged pointer, one access size.
 * The boundary part is the cross product, outermost first, of
 *   the entry table (base and size rows of ga_gen.c, each commented with why it is there),
 *   the pointer table (offsets relative to the entry's base and end, and absolute VAs),
 *   the entry tag set {1, F-1, F, 0, r} (r: a random valid tag at level >= 1, 2^(T-1) at level 0),
 *   the pointer tag set {etag, 0, F, 1, F-1, etag ^ 1, etag ^ 2^(T-1)},
 *   every access size 1, 2, 4, 8, 16,
 * with random cases interleaved per the level. Pointer VAs are taken modulo 2^V (a pointer holds V
 * bits), so "base - 1" of an entry at base 0 is 2^V - 1.
 */
typedef struct {
    ga_entry_t e;
    uint64_t p;           /* tagged pointer */
    uint32_t size;        /* access size S */
    bool random;          /* a seeded random case (false: from the tables) */
    const char *e_why;    /* boundary cases: why this entry row (NULL for random cases) */
    const char *p_why;    /* boundary cases: why this pointer row (NULL for random cases) */
} ga_gen_check_t;

/* The next check case into *c; false (c untouched) when the sequence is over. */
bool ga_gen_next_check(ga_gen_t *g, ga_gen_check_t *c);

/* Number of boundary cases of the check sequence (random cases not counted). */
uint64_t ga_gen_check_boundary_count(const ga_gen_t *g);

/* ------------------------------------------------------------------------------------------------
 * MEMCHECK.S cases: shared base, size, lane address and access size. Boundary part: (base, size)
 * rows x address rows x the five access sizes, addresses modulo 2^32, random cases interleaved.
 */
typedef struct {
    uint32_t a, size, base, ssize;
    bool random;
    const char *why; /* boundary cases: why this (base, size) row; NULL for random cases */
} ga_gen_shared_t;

bool ga_gen_next_shared(ga_gen_t *g, ga_gen_shared_t *c);
uint64_t ga_gen_shared_boundary_count(const ga_gen_t *g);

/* ------------------------------------------------------------------------------------------------
 * Tags. The tag table: at 7 bits every value 0 .. 127 (the 126 valid tags, 0 and F); at 16 bits the
 * fixed sample {0, 1, 2, 0x7F, 0x80, 0xFF, 0x100, 0x7FFF, 0x8000, 0xFFFD, 0xFFFE (F-1), 0xFFFF (F)}
 * followed by 64 (level 1) or 1024 (level 2) random valid tags. Writes min(count, cap) tags to out
 * (out may be NULL when cap is 0) and returns the full count. Uses the random stream.
 */
size_t ga_gen_tags(ga_gen_t *g, uint64_t *out, size_t cap);

/* A uniformly random valid tag 1 .. 2^T - 2. */
uint64_t ga_gen_valid_tag(ga_gen_t *g);

/* ------------------------------------------------------------------------------------------------
 * (b) Warp requests and pointers for MLU-level tests and the bench.
 */

/* An access size from {1, 2, 4, 8, 16}, uniformly. */
uint32_t ga_gen_access_size(ga_gen_t *g);

/* An allocation size, boundary-biased: 1, 2, 15, 16, 17, 255, 256, 257, 4095, 4096, 4097, a random
 * power of two up to 2^20 plus -1/0/+1, or uniform in 1 .. 2^16. Never 0. */
uint64_t ga_gen_alloc_size(ga_gen_t *g);

/* A VA near the edges of entry e for an access of S bytes (modulo 2^V): one of base - S, base - 1,
 * base, base + 1, a random S-aligned offset inside, end - S, end - S + 1, end - 1, end, end + 1, with
 * end = base + size. Tags are not set (the result is a VA). */
uint64_t ga_gen_boundary_va(ga_gen_t *g, ga_entry_t e, uint32_t size);

/*
 * One tagged lane address for an access of S bytes, given the entries the caller knows about
 * (targets[0 .. n-1], live or freed, as written in metadata; n may be 0). Kinds, by probability:
 *   45 %  in or near a target (ga_gen_boundary_va) with the target's tag when that tag is valid,
 *         else (a freed target) a random valid tag: a dangling pointer;
 *   10 %  a target's VA with tag 0 (unchecked code);
 *   10 %  a target's VA with another valid tag (stale pointer to reused memory, or a stray pointer);
 *    5 %  a target's VA with the forged freed tag F;
 *   30 %  wild: a random VA (near 0, near 2^V, near 2^32 or uniform) with a random valid tag.
 * With n = 0 every choice that needs a target is wild instead.
 */
uint64_t ga_gen_pointer(ga_gen_t *g, const ga_entry_t *targets, size_t n, uint32_t size);

/*
 * A random warp request of `lanes` lanes (1 .. 32): size from ga_gen_access_size, warp id random,
 * active mask all lanes (50 %), random (20 %), one lane (10 %), none (5 %), the lower half (10 %),
 * all but lane 0 (5 %); addresses coalesced (40 %: lane l = p0 + l*S, p0 from ga_gen_pointer),
 * coalesced with strays (30 %: as coalesced, each lane replaced by ga_gen_pointer with probability
 * 1/8) or independent (30 %: every lane from ga_gen_pointer). Lanes at or above `lanes` are 0.
 * lanes outside 1 .. 32 is clamped into it.
 */
void ga_gen_warp(ga_gen_t *g, const ga_entry_t *targets, size_t n, unsigned lanes, ga_warp_req_t *req);

#ifdef __cplusplus
}
#endif

#endif /* GA_GEN_H */
