/*
 * ga_gen.c — the case generator of ga_gen.h: boundary tables, each row commented with why it is
 * there, interleaved with seeded random cases.
 *
 * Values that depend on the configuration are written symbolically (relative to 0, 2^V, 2^(V-1),
 * 2^32, an entry's base or end) and resolved for the context's tag width, so one table serves
 * TagBits 7 (V = 57) and 16 (V = 48). All arithmetic is unsigned and modulo 2^64 unless a comment
 * says otherwise; VAs are reduced modulo 2^V at the end, as a pointer holds only V bits of VA.
 */
#include "ga_gen.h"

#include <string.h>

/* Reference points of the symbolic tables. */
enum {
    REF_ZERO = 0, /* 0 */
    REF_TOP,      /* 2^V: one past the last VA */
    REF_HALF,     /* 2^(V-1): the top VA bit */
    REF_2_32,     /* 2^32: where 32-bit truncation would bite */
    REF_BASE,     /* pointer rows: the entry's base */
    REF_END,      /* pointer rows: the entry's base + size (modulo 2^64) */
    REF_MID       /* pointer rows: base + size / 2 */
};

/* Size rules of the entry table. */
enum {
    SZ_ABS = 0, /* size = soff */
    SZ_TO_TOP,  /* size = 2^V - base + soff: the range ends soff bytes past 2^V */
    SZ_TO_2_64  /* size = 2^64 - base + soff (modulo 2^64): base + size passes 2^64 exactly by soff */
};

typedef struct {
    uint8_t bref;
    int64_t boff;
    uint8_t sref;
    uint64_t soff;
    const char *why;
} entry_row_t;

/* The entry table. Each row is a (base, size) pair; tags are crossed in separately. Rows marked
 * "corrupt" describe metadata the runtime never writes (spec §2.2: ranges lie inside [0, 2^V)); the
 * check must still fail closed on them. */
static const entry_row_t entry_rows[] = {
    { REF_ZERO, 0x1000, SZ_ABS, 1, "one byte: every access wider than 1 straddles the end" },
    { REF_ZERO, 0x1000, SZ_ABS, 2, "two bytes: only S = 1, 2 fit, and only at the base for S = 2" },
    { REF_ZERO, 0x1000, SZ_ABS, 15, "one less than the widest access: S = 16 never fits" },
    { REF_ZERO, 0x1000, SZ_ABS, 16, "exactly the widest access: S = 16 fits at the base only" },
    { REF_ZERO, 0x1000, SZ_ABS, 17, "one more than the widest access: S = 16 fits at base and base+1" },
    { REF_ZERO, 0x2000, SZ_ABS, 255, "not a multiple of 2: the last aligned access of every S > 1 straddles" },
    { REF_ZERO, 0x2000, SZ_ABS, 256, "CUDA's 256-byte granule (paper §3.2), the common allocation" },
    { REF_ZERO, 0x2003, SZ_ABS, 29, "odd base and odd size: nothing may assume alignment" },
    { REF_ZERO, 0, SZ_ABS, 64, "base 0: base - 1 wraps to 2^V - 1, which must not be inside" },
    { REF_ZERO, 0x3000, SZ_ABS, 0, "size 0 covers nothing (an empty table slot is all zero)" },
    { REF_ZERO, 0x3000, SZ_ABS, UINT64_MAX, "corrupt size 2^64 - 1: base + size wraps 64 bits" },
    { REF_ZERO, 0, SZ_ABS, UINT64_MAX, "corrupt: covers [0, 2^64), only the a + S <= 2^V term bounds" },
    { REF_ZERO, 0, SZ_TO_TOP, 0, "exactly the whole VA space [0, 2^V)" },
    { REF_ZERO, 0x10000, SZ_ABS, UINT64_C(1) << 32, "4 GiB: a size above 32 bits catches truncation" },
    { REF_2_32, -8, SZ_ABS, 16, "straddles 2^32 in VA: catches 32-bit address truncation" },
    { REF_HALF, 0, SZ_ABS, 4096, "VA bit V-1 set: catches sign or width errors at the top VA bit" },
    { REF_HALF, -8, SZ_ABS, 16, "straddles 2^(V-1)" },
    { REF_TOP, -64, SZ_TO_TOP, 0, "ends exactly at 2^V: the last byte is 2^V - 1, a + S = 2^V is legal" },
    { REF_TOP, -1, SZ_ABS, 1, "the last byte of the VA space" },
    { REF_TOP, -16, SZ_ABS, 16, "the last 16 bytes of the VA space: S = 16 fits at its base only" },
    { REF_TOP, -0x20000, SZ_ABS, 0x10000, "a high allocation well clear of the top" },
    { REF_ZERO, 0x1000, SZ_TO_TOP, 1, "corrupt: ends one byte past 2^V" },
    { REF_TOP, -100, SZ_ABS, 1000, "corrupt: runs 900 bytes past 2^V; only a + S <= 2^V stops the top" },
    { REF_TOP, -8, SZ_TO_2_64, 0, "corrupt: base + size = 2^64 exactly (wraps to 0 in 64 bits)" },
    { REF_TOP, -8, SZ_TO_2_64, 1, "corrupt: base + size = 2^64 + 1 (wraps to 1 in 64 bits)" },
};
#define N_ENTRY_ROWS (sizeof entry_rows / sizeof entry_rows[0])

typedef struct {
    uint8_t ref;
    int64_t off;
    const char *why;
} ptr_row_t;

/* The pointer table, relative to the entry (REF_BASE, REF_END, REF_MID) or absolute. */
static const ptr_row_t ptr_rows[] = {
    { REF_BASE, -16, "16 below the base: an access of 16 would end exactly at the base" },
    { REF_BASE, -1, "one byte below the base (base 0: wraps to 2^V - 1)" },
    { REF_BASE, 0, "the base: passes exactly when S <= size" },
    { REF_BASE, 1, "one past the base: S = size no longer fits" },
    { REF_END, -16, "end - 16: every S fits when size >= 16" },
    { REF_END, -15, "end - 15: S = 16 straddles the end by one byte" },
    { REF_END, -14, "end - 14: S fits when S <= 14" },
    { REF_END, -13, "end - 13: S fits when S <= 13" },
    { REF_END, -12, "end - 12: S fits when S <= 12" },
    { REF_END, -11, "end - 11: S fits when S <= 11" },
    { REF_END, -10, "end - 10: S fits when S <= 10" },
    { REF_END, -9, "end - 9: S = 16 straddles, S <= 8 fits" },
    { REF_END, -8, "end - 8: S = 8 ends exactly at the end" },
    { REF_END, -7, "end - 7: S = 8 straddles by one byte" },
    { REF_END, -6, "end - 6: S fits when S <= 6" },
    { REF_END, -5, "end - 5: S = 8 straddles, S <= 4 fits" },
    { REF_END, -4, "end - 4: S = 4 ends exactly at the end" },
    { REF_END, -3, "end - 3: S = 4 straddles by one byte" },
    { REF_END, -2, "end - 2: S = 2 ends exactly at the end" },
    { REF_END, -1, "the last byte: only S = 1 fits" },
    { REF_END, 0, "one past the last byte: always out" },
    { REF_END, 1, "two past the last byte" },
    { REF_END, 15, "far enough past the end that no access reaches back" },
    { REF_MID, 0, "the middle of the range" },
    { REF_ZERO, 0, "VA 0" },
    { REF_ZERO, 1, "VA 1" },
    { REF_TOP, -1, "the last VA byte: only S = 1 stays below 2^V" },
    { REF_TOP, -8, "S = 8 ends exactly at 2^V, S = 16 runs past it" },
    { REF_TOP, -16, "a 16-byte access ending exactly at 2^V" },
    { REF_HALF, -1, "just below VA bit V-1" },
    { REF_HALF, 0, "VA bit V-1 alone" },
    { REF_2_32, -1, "just below 2^32" },
    { REF_2_32, 0, "2^32: its low 32 bits are 0" },
};
#define N_PTR_ROWS (sizeof ptr_rows / sizeof ptr_rows[0])

#define N_ETAGS 5u /* {1, F-1, F, 0, r} */
#define N_PTAGS 7u /* {etag, 0, F, 1, F-1, etag ^ 1, etag ^ 2^(T-1)} */
#define N_SIZES 5u
static const uint32_t access_sizes[N_SIZES] = { 1u, 2u, 4u, 8u, 16u };

typedef struct {
    uint32_t base, ssize;
    const char *why;
} shared_row_t;

/* MEMCHECK.S (base, size) rows. Shared addresses are 32-bit; the interesting edge is 2^32. */
static const shared_row_t shared_rows[] = {
    { 0u, 0u, "size 0: every access fails" },
    { 0u, 1u, "one byte at address 0: base - 1 wraps to 2^32 - 1" },
    { 0u, 16u, "exactly the widest access" },
    { 0x100u, 0x100u, "a typical shared array" },
    { 0x103u, 0x11u, "odd base and odd size: nothing may assume alignment" },
    { 0xFFFFFFF0u, 16u, "ends exactly at 2^32: a + S = 2^32 is legal" },
    { 0xFFFFFFFFu, 1u, "the last shared byte" },
    { 0xFFFFFF00u, 0x200u, "corrupt: runs 256 bytes past 2^32; only a + S <= 2^32 stops the top" },
    { 0u, 0xFFFFFFFFu, "the largest size: only the last byte of 2^32 is outside" },
    { 0x1000u, 0xFFFFFFFFu, "base + size wraps 32 bits" },
    { 0x80000000u, 0x80000000u, "the top half, ending exactly at 2^32" },
    { 0x7FFFFFF8u, 16u, "straddles 2^31 (the signed 32-bit boundary)" },
};
#define N_SHARED_ROWS (sizeof shared_rows / sizeof shared_rows[0])

/* Shared address rows relative to the (base, size) row (REF_BASE, REF_END) or absolute (REF_ZERO:
 * the 32-bit value off). */
static const ptr_row_t shared_addr_rows[] = {
    { REF_BASE, -16, "16 below the base" },
    { REF_BASE, -1, "one below the base (base 0: wraps to 2^32 - 1)" },
    { REF_BASE, 0, "the base" },
    { REF_BASE, 1, "one past the base" },
    { REF_END, -16, "end - 16" }, { REF_END, -15, "end - 15" }, { REF_END, -14, "end - 14" },
    { REF_END, -13, "end - 13" }, { REF_END, -12, "end - 12" }, { REF_END, -11, "end - 11" },
    { REF_END, -10, "end - 10" }, { REF_END, -9, "end - 9" },   { REF_END, -8, "end - 8" },
    { REF_END, -7, "end - 7" },   { REF_END, -6, "end - 6" },   { REF_END, -5, "end - 5" },
    { REF_END, -4, "end - 4" },   { REF_END, -3, "end - 3" },   { REF_END, -2, "end - 2" },
    { REF_END, -1, "the last byte" },
    { REF_END, 0, "one past the end" },
    { REF_END, 1, "two past the end" },
    { REF_ZERO, 0, "address 0" },
    { REF_ZERO, 0x7FFFFFFF, "2^31 - 1" },
    { REF_ZERO, 0x80000000, "2^31" },
    { REF_ZERO, 0xFFFFFFF0, "a 16-byte access ending exactly at 2^32" },
    { REF_ZERO, 0xFFFFFFFF, "the last 32-bit address" },
};
#define N_SHARED_ADDR_ROWS (sizeof shared_addr_rows / sizeof shared_addr_rows[0])

/* ---------------------------------------------------------------------------------------------- */

static uint32_t randoms_per_case(unsigned level) { return level == 0u ? 0u : (level == 1u ? 1u : 8u); }

ga_err_t ga_gen_init(ga_gen_t *g, uint64_t seed, unsigned level, unsigned tag_bits)
{
    if (g == NULL || level > GA_GEN_LEVEL_MAX || !ga_tag_bits_ok(tag_bits)) return GA_ERR_BAD_PARAM;
    memset(g, 0, sizeof *g);
    g->seed = seed;
    g->level = level;
    g->tag_bits = tag_bits;
    ga_gen_rewind(g);
    return GA_OK;
}

void ga_gen_rewind(ga_gen_t *g)
{
    ga_rng_seed(&g->rng, g->seed);
    g->check_idx = 0u;
    g->shared_idx = 0u;
    g->check_rand = 0u;
    g->shared_rand = 0u;
}

static uint64_t rnd(ga_gen_t *g) { return ga_rng_next(&g->rng); }
static uint64_t below(ga_gen_t *g, uint64_t n) { return ga_rng_below(&g->rng, n); }

/* A point of reference, for the context's V. */
static uint64_t ref_value(const ga_gen_t *g, unsigned ref)
{
    unsigned v = ga_va_bits(g->tag_bits);
    switch (ref) {
    case REF_TOP: return UINT64_C(1) << v;
    case REF_HALF: return UINT64_C(1) << (v - 1u);
    case REF_2_32: return UINT64_C(1) << 32;
    default: return 0u;
    }
}

uint64_t ga_gen_valid_tag(ga_gen_t *g)
{
    /* 1 .. F-1, F = 2^T - 1: 2^T - 2 values. */
    return 1u + below(g, ga_tag_freed(g->tag_bits) - 1u);
}

uint32_t ga_gen_access_size(ga_gen_t *g) { return access_sizes[below(g, N_SIZES)]; }

/* The boundary entry of table row r (without its tag). */
static void entry_of_row(const ga_gen_t *g, size_t r, uint64_t *base, uint64_t *size)
{
    const entry_row_t *row = &entry_rows[r];
    uint64_t b = ref_value(g, row->bref) + (uint64_t)row->boff;
    uint64_t s = row->soff;
    if (row->sref == SZ_TO_TOP) s = ref_value(g, REF_TOP) - b + row->soff;
    if (row->sref == SZ_TO_2_64) s = (UINT64_C(0) - b) + row->soff;
    *base = b & ga_va_mask(g->tag_bits);
    *size = s;
}

/* The VA of pointer row r for an entry (base, size), modulo 2^V. */
static uint64_t va_of_row(const ga_gen_t *g, const ptr_row_t *row, uint64_t base, uint64_t size)
{
    uint64_t ref;
    switch (row->ref) {
    case REF_BASE: ref = base; break;
    case REF_END: ref = base + size; break;
    case REF_MID: ref = base + size / 2u; break;
    default: ref = ref_value(g, row->ref); break;
    }
    return (ref + (uint64_t)row->off) & ga_va_mask(g->tag_bits);
}

/* A VA biased towards the places where arithmetic goes wrong. */
static uint64_t rand_va(ga_gen_t *g)
{
    uint64_t mask = ga_va_mask(g->tag_bits);
    uint64_t small = below(g, 0x10000u);
    switch (below(g, 6)) {
    case 0: return rnd(g) & mask;                                  /* uniform */
    case 1: return small;                                          /* near 0 */
    case 2: return mask - small;                                   /* near 2^V */
    case 3: return ((UINT64_C(1) << 32) + small - 0x8000u) & mask; /* around 2^32 */
    case 4: return (ref_value(g, REF_HALF) + small - 0x8000u) & mask; /* around 2^(V-1) */
    default: return rnd(g) & mask & ~UINT64_C(0xFF);               /* 256-aligned, like the heap */
    }
}

/* A size biased to the edges, for a range starting at base; may be corrupt (past 2^V, 2^64). */
static uint64_t rand_entry_size(ga_gen_t *g, uint64_t base)
{
    switch (below(g, 8)) {
    case 0: return 0u;
    case 1: return 1u + below(g, 32);
    case 2: return (UINT64_C(1) << below(g, 64)) + below(g, 3) - 1u; /* 2^k - 1, 2^k, 2^k + 1 */
    case 3: return below(g, UINT64_C(1) << 40);
    case 4: return UINT64_MAX - below(g, 4);
    case 5: return ref_value(g, REF_TOP) - base + below(g, 5) - 2u; /* ends within 2 bytes of 2^V */
    case 6: return (UINT64_C(0) - base) + below(g, 3);              /* base + size ~ 2^64 */
    default: return 1u + below(g, 0x10000u);
    }
}

/* The pointer tag set of a check case, index i of N_PTAGS, for entry tag et. */
static uint64_t ptag_of(const ga_gen_t *g, unsigned i, uint64_t et)
{
    uint64_t f = ga_tag_freed(g->tag_bits);
    switch (i) {
    case 0: return et;                                   /* equal: G5 passes, the bounds decide */
    case 1: return 0u;                                   /* unchecked pointer (G1) */
    case 2: return f;                                    /* forged freed tag */
    case 3: return 1u;                                   /* lowest valid tag */
    case 4: return f - 1u;                               /* highest valid tag */
    case 5: return et ^ 1u;                              /* differs in the lowest bit */
    default: return et ^ (UINT64_C(1) << (g->tag_bits - 1u)); /* differs in the highest bit */
    }
}

uint64_t ga_gen_check_boundary_count(const ga_gen_t *g)
{
    (void)g;
    return (uint64_t)N_ENTRY_ROWS * N_PTR_ROWS * N_ETAGS * N_PTAGS * N_SIZES;
}

static void random_check(ga_gen_t *g, ga_gen_check_t *c)
{
    unsigned tb = g->tag_bits;
    uint64_t f = ga_tag_freed(tb);
    uint64_t base = rand_va(g);
    uint64_t size = rand_entry_size(g, base);
    uint64_t et;
    switch (below(g, 10)) {
    case 0: et = f; break;
    case 1: et = 0u; break;
    case 2: et = below(g, 2) != 0u ? 1u : f - 1u; break;
    default: et = ga_gen_valid_tag(g); break;
    }
    uint64_t pt;
    switch (below(g, 10)) {
    case 0: pt = 0u; break;
    case 1: pt = f; break;
    case 2: pt = ga_gen_valid_tag(g); break;
    case 3: pt = et ^ 1u; break;
    default: pt = et; break;
    }
    uint32_t s = ga_gen_access_size(g);
    ga_entry_t e = { ga_make_ptr(et, base, tb), size };
    uint64_t va;
    switch (below(g, 5)) {
    case 0: va = rnd(g) & ga_va_mask(tb); break;
    case 1: va = rand_va(g); break;
    default: va = ga_gen_boundary_va(g, e, s); break;
    }
    memset(c, 0, sizeof *c);
    c->e = e;
    c->p = ga_make_ptr(pt, va, tb);
    c->size = s;
    c->random = true;
}

bool ga_gen_next_check(ga_gen_t *g, ga_gen_check_t *c)
{
    if (g->check_rand > 0u) {
        g->check_rand--;
        random_check(g, c);
        return true;
    }
    uint64_t idx = g->check_idx;
    if (idx >= ga_gen_check_boundary_count(g)) return false;
    g->check_idx++;
    g->check_rand = randoms_per_case(g->level);

    unsigned tb = g->tag_bits;
    uint64_t f = ga_tag_freed(tb);
    unsigned si = (unsigned)(idx % N_SIZES);
    idx /= N_SIZES;
    unsigned pti = (unsigned)(idx % N_PTAGS);
    idx /= N_PTAGS;
    unsigned eti = (unsigned)(idx % N_ETAGS);
    idx /= N_ETAGS;
    size_t pr = (size_t)(idx % N_PTR_ROWS);
    size_t er = (size_t)(idx / N_PTR_ROWS);

    uint64_t base, size;
    entry_of_row(g, er, &base, &size);
    uint64_t et;
    switch (eti) {
    case 0: et = 1u; break;                       /* lowest valid tag */
    case 1: et = f - 1u; break;                   /* highest valid tag */
    case 2: et = f; break;                        /* freed entry (G4) */
    case 3: et = 0u; break;                       /* tag-0 entry: never written by the runtime */
    default: et = g->level == 0u ? UINT64_C(1) << (tb - 1u) : ga_gen_valid_tag(g); break;
    }
    memset(c, 0, sizeof *c);
    c->e.tb = ga_make_ptr(et, base, tb);
    c->e.size = size;
    c->p = ga_make_ptr(ptag_of(g, pti, et), va_of_row(g, &ptr_rows[pr], base, size), tb);
    c->size = access_sizes[si];
    c->random = false;
    c->e_why = entry_rows[er].why;
    c->p_why = ptr_rows[pr].why;
    return true;
}

/* ---------------------------------------------------------------------------------------------- */

uint64_t ga_gen_shared_boundary_count(const ga_gen_t *g)
{
    (void)g;
    return (uint64_t)N_SHARED_ROWS * N_SHARED_ADDR_ROWS * N_SIZES;
}

static uint32_t rand_u32_edge(ga_gen_t *g)
{
    uint32_t small = (uint32_t)below(g, 0x100u);
    switch (below(g, 5)) {
    case 0: return (uint32_t)rnd(g);
    case 1: return small;
    case 2: return 0xFFFFFFFFu - small;
    case 3: return 0x80000000u + small - 0x80u;
    default: return (uint32_t)below(g, 0x10000u);
    }
}

static void random_shared(ga_gen_t *g, ga_gen_shared_t *c)
{
    memset(c, 0, sizeof *c);
    c->base = rand_u32_edge(g);
    switch (below(g, 4)) {
    case 0: c->ssize = (uint32_t)below(g, 33); break;
    case 1: c->ssize = 0u - c->base + (uint32_t)below(g, 5) - 2u; break; /* ends near 2^32 */
    case 2: c->ssize = rand_u32_edge(g); break;
    default: c->ssize = (uint32_t)below(g, 0x10000u); break;
    }
    c->size = ga_gen_access_size(g);
    uint32_t end = c->base + c->ssize;
    switch (below(g, 6)) {
    case 0: c->a = c->base + (uint32_t)below(g, 33) - 16u; break;
    case 1: c->a = end + (uint32_t)below(g, 33) - 16u; break;
    case 2: c->a = end - c->size + (uint32_t)below(g, 3) - 1u; break;
    case 3: c->a = rand_u32_edge(g); break;
    case 4: c->a = (uint32_t)rnd(g); break;
    default: c->a = c->base + (c->ssize == 0u ? 0u : (uint32_t)below(g, c->ssize)); break;
    }
    c->random = true;
}

bool ga_gen_next_shared(ga_gen_t *g, ga_gen_shared_t *c)
{
    if (g->shared_rand > 0u) {
        g->shared_rand--;
        random_shared(g, c);
        return true;
    }
    uint64_t idx = g->shared_idx;
    if (idx >= ga_gen_shared_boundary_count(g)) return false;
    g->shared_idx++;
    g->shared_rand = randoms_per_case(g->level);

    unsigned si = (unsigned)(idx % N_SIZES);
    idx /= N_SIZES;
    size_t ar = (size_t)(idx % N_SHARED_ADDR_ROWS);
    size_t br = (size_t)(idx / N_SHARED_ADDR_ROWS);
    const shared_row_t *row = &shared_rows[br];
    const ptr_row_t *arow = &shared_addr_rows[ar];
    uint32_t ref = arow->ref == REF_BASE ? row->base : arow->ref == REF_END ? row->base + row->ssize : 0u;
    memset(c, 0, sizeof *c);
    c->base = row->base;
    c->ssize = row->ssize;
    c->a = ref + (uint32_t)(uint64_t)arow->off; /* modulo 2^32 */
    c->size = access_sizes[si];
    c->random = false;
    c->why = row->why;
    return true;
}

/* ---------------------------------------------------------------------------------------------- */

size_t ga_gen_tags(ga_gen_t *g, uint64_t *out, size_t cap)
{
    static const uint64_t fixed16[] = { 0u,      1u,      2u,      0x7Fu,   0x80u,   0xFFu,
                                        0x100u,  0x7FFFu, 0x8000u, 0xFFFDu, 0xFFFEu, 0xFFFFu };
    size_t n = 0;
    if (g->tag_bits == 7u) {
        for (uint64_t t = 0; t <= ga_tag_freed(7u); t++, n++)
            if (n < cap) out[n] = t;
        return n;
    }
    for (size_t i = 0; i < sizeof fixed16 / sizeof fixed16[0]; i++, n++)
        if (n < cap) out[n] = fixed16[i];
    size_t extra = g->level == 0u ? 0u : (g->level == 1u ? 64u : 1024u);
    for (size_t i = 0; i < extra; i++, n++) {
        uint64_t t = ga_gen_valid_tag(g);
        if (n < cap) out[n] = t;
    }
    return n;
}

uint64_t ga_gen_alloc_size(ga_gen_t *g)
{
    static const uint64_t edges[] = { 1u, 2u, 15u, 16u, 17u, 255u, 256u, 257u, 4095u, 4096u, 4097u };
    switch (below(g, 4)) {
    case 0: return edges[below(g, sizeof edges / sizeof edges[0])];
    case 1: { /* 2^k - 1, 2^k or 2^k + 1 for k <= 20; 2^0 - 1 = 0 becomes 1 */
        uint64_t v = (UINT64_C(1) << below(g, 21)) + below(g, 3) - 1u;
        return v == 0u ? 1u : v;
    }
    default: return 1u + below(g, 0x10000u);
    }
}

uint64_t ga_gen_boundary_va(ga_gen_t *g, ga_entry_t e, uint32_t size)
{
    unsigned tb = g->tag_bits;
    uint64_t base = ga_va_of(e.tb, tb);
    uint64_t end = base + e.size;
    uint64_t va;
    switch (below(g, 10)) {
    case 0: va = base - size; break;
    case 1: va = base - 1u; break;
    case 2: va = base; break;
    case 3: va = base + 1u; break;
    case 4: va = base + (e.size / size == 0u ? 0u : below(g, e.size / size) * size); break;
    case 5: va = end - size; break;
    case 6: va = end - size + 1u; break;
    case 7: va = end - 1u; break;
    case 8: va = end; break;
    default: va = end + 1u; break;
    }
    return va & ga_va_mask(tb);
}

uint64_t ga_gen_pointer(ga_gen_t *g, const ga_entry_t *targets, size_t n, uint32_t size)
{
    unsigned tb = g->tag_bits;
    uint64_t roll = below(g, 100);
    if (n == 0u || roll >= 70u) return ga_make_ptr(ga_gen_valid_tag(g), rand_va(g), tb); /* wild */
    ga_entry_t e = targets[below(g, n)];
    uint64_t et = ga_tag_of(e.tb, tb);
    uint64_t va = ga_gen_boundary_va(g, e, size);
    if (roll < 45u) {
        uint64_t t = ga_tag_is_valid(et, tb) ? et : ga_gen_valid_tag(g); /* freed target: dangling */
        return ga_make_ptr(t, va, tb);
    }
    if (roll < 55u) return ga_make_ptr(0u, va, tb);
    if (roll < 65u) {
        uint64_t t = ga_gen_valid_tag(g);
        if (t == et) t = t == 1u ? 2u : t - 1u; /* another valid tag (T >= 7, so 2 is valid) */
        return ga_make_ptr(t, va, tb);
    }
    return ga_make_ptr(ga_tag_freed(tb), va, tb);
}

void ga_gen_warp(ga_gen_t *g, const ga_entry_t *targets, size_t n, unsigned lanes, ga_warp_req_t *req)
{
    unsigned tb = g->tag_bits;
    if (lanes < 1u) lanes = 1u;
    if (lanes > GA_LANES_MAX) lanes = GA_LANES_MAX;
    uint32_t all = lanes == 32u ? UINT32_MAX : (UINT32_C(1) << lanes) - 1u;
    memset(req, 0, sizeof *req);
    req->lanes = lanes;
    req->size = ga_gen_access_size(g);
    req->warp = (uint16_t)rnd(g);
    uint64_t roll = below(g, 100);
    if (roll < 50u)
        req->active = all;
    else if (roll < 70u)
        req->active = (uint32_t)rnd(g) & all;
    else if (roll < 80u)
        req->active = UINT32_C(1) << below(g, lanes);
    else if (roll < 85u)
        req->active = 0u;
    else if (roll < 95u)
        req->active = all & ((UINT32_C(1) << ((lanes + 1u) / 2u)) - 1u);
    else
        req->active = all & ~UINT32_C(1);

    roll = below(g, 100);
    if (roll < 70u) {
        uint64_t p0 = ga_gen_pointer(g, targets, n, req->size);
        uint64_t t = ga_tag_of(p0, tb);
        for (unsigned l = 0; l < lanes; l++) {
            req->addr[l] = ga_make_ptr(t, ga_va_of(p0, tb) + (uint64_t)l * req->size, tb);
            if (roll >= 40u && below(g, 8) == 0u) req->addr[l] = ga_gen_pointer(g, targets, n, req->size);
        }
    } else {
        for (unsigned l = 0; l < lanes; l++) req->addr[l] = ga_gen_pointer(g, targets, n, req->size);
    }
}
