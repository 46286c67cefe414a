/*
 * ga_workloads.c — the synthetic workload stand-ins (see ga_workloads.h and docs/workloads.md).
 *
 * Sizes: element (n-1)/2 of the sorted sizes is exactly the median target; the k sizes below it are
 * log-uniform in [256 B, median]; the sizes above it are median + a share of the remaining footprint,
 * the shares log-normally distributed (sigma 1.5) and capped at GA_WL_MAX_OBJECT, the rounding
 * remainder (under one byte per share) added to the first sizes with room, so the sum is the
 * footprint target to the byte. The
 * sizes are then shuffled over the allocation ids.
 *
 * Time line: ids 0 .. P-1 (P = allocs - temps) are allocated before the first kernel and freed after
 * the last; temporary id P + t is allocated before kernel t + 1 and freed after it. Kernel k visits its
 * live allocations in a fresh random order T_k; its thread blocks (8 warps each) slide a window of ws
 * allocations over T_k (block b of nb starts at position floor(b |T_k| / nb)), so one warp touches at
 * most ws allocations
 * while the kernel as a whole touches up to all of them (the compulsory misses of paper §9.1). Each
 * (kernel, allocation) pair gets one compiler root kind, drawn with Fig 8's shares.
 */
#include "ga_workloads.h"

#include "ga_rng.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define KIB (UINT64_C(1) << 10)
#define MIB (UINT64_C(1) << 20)

/* Per-workload targets. Table 2 columns are the paper's; median, temps, ws, kernels, esize and the
 * instruction mix are our choices, documented in docs/workloads.md. Seven Table 2 medians are under
 * 4 KiB ("around 25 %", §3.2); the extremes are 256 B (namd_2) and 236 MiB (AMG_2, one allocation). */
static const ga_wl_spec_t k_specs[] = {
    /* name          group          instr_M allocs footprint median      tmp ws krn es  global shared */
    {"amber18_1", GA_WL_TABLE2, 283, 84, 62, 2 * KIB, 8, 7, 12, 8, 0.06, 0.06},
    {"amber18_2", GA_WL_TABLE2, 60, 1081, 3374, 512, 0, 7, 8, 8, 0.06, 0.06},
    {"amber18_3", GA_WL_TABLE2, 64, 1081, 3374, 512, 0, 7, 8, 8, 0.06, 0.06},
    {"amber18_4", GA_WL_TABLE2, 50, 92, 272, 1 * KIB, 8, 7, 12, 8, 0.06, 0.06},
    {"AMG_1", GA_WL_TABLE2, 112, 2, 473, 120 * MIB, 0, 2, 8, 8, 0.06, 0.02},
    {"AMG_2", GA_WL_TABLE2, 77, 1, 236, 236 * MIB, 0, 1, 8, 8, 0.06, 0.02},
    {"AMG_3", GA_WL_TABLE2, 1642, 5, 957, 64 * MIB, 0, 4, 8, 8, 0.06, 0.02},
    {"AMG_4", GA_WL_TABLE2, 95, 5, 1181, 96 * MIB, 0, 4, 8, 8, 0.06, 0.02},
    {"fun3d", GA_WL_TABLE2, 175, 6, 634, 48 * MIB, 0, 5, 8, 8, 0.06, 0.06},
    {"Laghos_1", GA_WL_TABLE2, 621, 6, 191, 16 * MIB, 2, 5, 8, 8, 0.06, 0.15},
    {"Laghos_2", GA_WL_TABLE2, 406, 6, 191, 16 * MIB, 2, 5, 8, 8, 0.06, 0.15},
    {"lammps_1", GA_WL_TABLE2, 659, 43, 530, 1 * MIB, 2, 6, 8, 8, 0.06, 0.06},
    {"lammps_2", GA_WL_TABLE2, 4905, 45, 530, 1 * MIB, 2, 6, 8, 8, 0.06, 0.06},
    {"lammps_3", GA_WL_TABLE2, 3166, 49, 1179, 2 * MIB, 2, 6, 8, 8, 0.06, 0.06},
    {"lammps_4", GA_WL_TABLE2, 1723, 49, 1179, 2 * MIB, 2, 6, 8, 8, 0.06, 0.06},
    {"lammps_5", GA_WL_TABLE2, 150, 125, 927, 3 * KIB, 2, 6, 8, 8, 0.06, 0.06},
    {"lammps_6", GA_WL_TABLE2, 1180, 128, 1123, 64 * KIB, 2, 6, 8, 8, 0.06, 0.06},
    {"ldpc5Gdecode", GA_WL_TABLE2, 56, 4, 2, 256 * KIB, 0, 3, 8, 4, 0.06, 0.10},
    {"namd_1", GA_WL_TABLE2, 52, 80, 2048, 1 * KIB, 0, 6, 8, 8, 0.06, 0.06},
    {"namd_2", GA_WL_TABLE2, 44, 1184, 291, 256, 0, 6, 8, 8, 0.06, 0.06},
    {"Optix1", GA_WL_TABLE2, 71, 14, 1060, 8 * MIB, 0, 5, 8, 4, 0.06, 0.02},
    {"Optix2", GA_WL_TABLE2, 94, 14, 1060, 8 * MIB, 0, 5, 8, 4, 0.06, 0.02},
    {"Optix3", GA_WL_TABLE2, 4469, 14, 1060, 8 * MIB, 0, 5, 8, 4, 0.06, 0.02},
    {"relion_1", GA_WL_TABLE2, 821, 22, 1288, 24 * MIB, 4, 6, 8, 8, 0.06, 0.06},
    {"RTM_1", GA_WL_TABLE2, 1024, 7, 1675, 200 * MIB, 2, 4, 8, 8, 0.06, 0.06},
    {"RTM_2", GA_WL_TABLE2, 340, 9, 789, 64 * MIB, 2, 5, 8, 8, 0.06, 0.06},
    {"RTM_3", GA_WL_TABLE2, 1632, 13, 1858, 128 * MIB, 2, 6, 8, 8, 0.06, 0.06},
    {"RTM_4", GA_WL_TABLE2, 2347, 12, 1420, 100 * MIB, 2, 6, 8, 8, 0.06, 0.06},
    /* Fig 13's broader set: invented parameters inside the paper's stated ranges (1 .. 3 008 live
     * allocations; sp and sssp need more than 8 MLB entries). */
    {"gemm", GA_WL_BROADER, 100, 3, 192, 64 * MIB, 0, 3, 8, 4, 0.06, 0.06},
    {"ncf", GA_WL_BROADER, 300, 3008, 512, 4 * KIB, 0, 6, 8, 4, 0.06, 0.02},
    {"pagerank", GA_WL_BROADER, 200, 6, 300, 40 * MIB, 0, 5, 8, 4, 0.06, 0.00},
    {"adi", GA_WL_BROADER, 150, 6, 96, 16 * MIB, 0, 4, 8, 8, 0.06, 0.00},
    {"jacobi2d", GA_WL_BROADER, 100, 2, 64, 32 * MIB, 0, 2, 8, 8, 0.06, 0.00},
    {"bfs", GA_WL_BROADER, 150, 8, 120, 12 * MIB, 0, 5, 8, 4, 0.06, 0.00},
    {"sp", GA_WL_BROADER, 250, 16, 200, 8 * MIB, 0, 12, 8, 4, 0.06, 0.00},
    {"sssp", GA_WL_BROADER, 250, 14, 160, 8 * MIB, 0, 10, 8, 4, 0.06, 0.00},
};

const ga_wl_spec_t *ga_wl_specs(size_t *count)
{
    if (count != NULL) *count = sizeof k_specs / sizeof k_specs[0];
    return k_specs;
}

const ga_wl_spec_t *ga_wl_find(const char *name)
{
    if (name == NULL) return NULL;
    for (size_t i = 0; i < sizeof k_specs / sizeof k_specs[0]; i++)
        if (strcmp(k_specs[i].name, name) == 0) return &k_specs[i];
    return NULL;
}

static uint64_t footprint_bytes(const ga_wl_spec_t *s) { return (uint64_t)llround(s->footprint_mib * (double)MIB); }

/* The spec is internally consistent: the footprint can carry n sizes of at least the median each
 * (and at most the cap), kernels leave room for the temporaries, and the working set is >= 1. */
static bool spec_ok(const ga_wl_spec_t *s)
{
    if (s == NULL || s->allocs == 0u || s->ws == 0u || s->kernels == 0u || s->kernels <= s->temps ||
        s->temps >= s->allocs || (s->esize != 4u && s->esize != 8u))
        return false;
    if (!(s->instr_m > 0.0) || !(s->global_frac > 0.0) || s->shared_frac < 0.0 ||
        s->global_frac + s->shared_frac > 1.0)
        return false;
    uint64_t f = footprint_bytes(s);
    if (s->allocs == 1u) return s->median == f && f >= GA_WL_MIN_OBJECT && f <= GA_WL_MAX_OBJECT;
    if (s->median < GA_WL_MIN_OBJECT || s->median > GA_WL_MAX_OBJECT) return false;
    if (f / s->allocs < s->median) return false; /* n sizes >= median */
    uint64_t upper = s->allocs - 1u - (s->allocs - 1u) / 2u; /* sizes above the median */
    return upper * GA_WL_MAX_OBJECT + s->median >= f;
}

/* Standard normal by Box-Muller from two uniforms (deterministic, platform libm). */
static double normal(ga_rng_t *g)
{
    double u1 = ((double)(ga_rng_next(g) >> 11) + 1.0) * 0x1.0p-53; /* (0, 1] */
    double u2 = (double)(ga_rng_next(g) >> 11) * 0x1.0p-53;        /* [0, 1) */
    return sqrt(-2.0 * log(u1)) * cos(6.283185307179586 * u2);
}

/* Uniform double in [0, 1). */
static double unit(ga_rng_t *g) { return (double)(ga_rng_next(g) >> 11) * 0x1.0p-53; }

int ga_wl_sizes(const ga_wl_spec_t *s, uint64_t seed, uint64_t *sizes)
{
    if (!spec_ok(s) || sizes == NULL) return -1;
    uint32_t n = s->allocs;
    uint64_t f = footprint_bytes(s), m = s->median;
    if (n == 1u) {
        sizes[0] = f;
        return 0;
    }
    ga_rng_t g;
    ga_rng_seed(&g, seed ^ UINT64_C(0x51a5e5));
    uint32_t k = (n - 1u) / 2u, u = n - 1u - k;
    uint64_t sum = m;
    /* Lower half: log-uniform in [256, m]. */
    double llo = log((double)GA_WL_MIN_OBJECT), lhi = log((double)m);
    for (uint32_t i = 0; i < k; i++) {
        uint64_t v = (uint64_t)exp(llo + (lhi - llo) * unit(&g));
        if (v < GA_WL_MIN_OBJECT) v = GA_WL_MIN_OBJECT;
        if (v > m) v = m;
        sizes[i] = v;
        sum += v;
    }
    sizes[k] = m;
    /* Upper half: m + share of the excess; the caller's spec_ok guarantees excess >= 0 whatever the
     * lower half drew (each lower size <= m and f >= n m). */
    uint64_t excess = f - sum - (uint64_t)u * m;
    double *w = malloc(u * sizeof *w);
    bool *capped = calloc(u, sizeof *capped);
    if (w == NULL || capped == NULL) {
        free(w);
        free(capped);
        return -1;
    }
    for (uint32_t i = 0; i < u; i++) w[i] = exp(1.5 * normal(&g));
    uint64_t *up = sizes + k + 1u;
    uint64_t left = excess;
    for (int round = 0; round <= (int)u; round++) {
        double wsum = 0.0;
        for (uint32_t i = 0; i < u; i++)
            if (!capped[i]) wsum += w[i];
        bool again = false;
        uint64_t given = 0;
        for (uint32_t i = 0; i < u; i++) {
            if (capped[i]) continue;
            uint64_t add = (uint64_t)((double)left * (w[i] / wsum));
            if (m + add > GA_WL_MAX_OBJECT) {
                up[i] = GA_WL_MAX_OBJECT;
                capped[i] = true;
                left -= GA_WL_MAX_OBJECT - m;
                again = true;
                break; /* recompute the shares of the rest */
            }
            up[i] = m + add;
            given += add;
        }
        if (!again) {
            /* Rounding remainder to the largest uncapped size (room is there: see spec_ok). */
            uint64_t rem = left - given; /* < u: one floor per share */
            for (uint32_t i = 0; i < u && rem > 0u; i++) {
                uint64_t room = GA_WL_MAX_OBJECT - up[i];
                uint64_t add = rem < room ? rem : room;
                up[i] += add;
                rem -= add;
            }
            break;
        }
    }
    free(w);
    free(capped);
    /* Shuffle over ids (Fisher-Yates). */
    for (uint32_t i = n - 1u; i > 0u; i--) {
        uint32_t j = (uint32_t)ga_rng_below(&g, (uint64_t)i + 1u);
        uint64_t t = sizes[i];
        sizes[i] = sizes[j];
        sizes[j] = t;
    }
    return 0;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* The generator's state for one run. */
typedef struct {
    const ga_wl_spec_t *s;
    const ga_wl_opts_t *o;
    ga_wl_sink_fn sink;
    void *ctx;
    ga_wl_summary_t *sum;
    ga_rng_t g;
    uint64_t *size;     /* by id */
    uint32_t *live;     /* live ids */
    uint32_t nlive;
    uint64_t live_bytes;
    uint32_t *touch;    /* T_k */
    uint8_t *rkind;     /* root kind by id, this kernel */
    uint64_t *roff;     /* interior root offset by id, this kernel */
    uint32_t kernel;
    char name[96];
} gen_t;

static int emit(gen_t *st, const ga_wev_t *ev)
{
    return st->sink != NULL ? st->sink(st->ctx, ev) : 0;
}

static int do_alloc(gen_t *st, uint32_t id)
{
    ga_wev_t ev;
    memset(&ev, 0, sizeof ev);
    ev.kind = GA_WEV_ALLOC;
    ev.id = id;
    ev.bytes = st->size[id];
    st->live[st->nlive++] = id;
    st->live_bytes += st->size[id];
    st->sum->allocs++;
    if (st->nlive > st->sum->live_max) st->sum->live_max = st->nlive;
    if (st->live_bytes > st->sum->live_bytes_max) st->sum->live_bytes_max = st->live_bytes;
    return emit(st, &ev);
}

static int do_free(gen_t *st, uint32_t id)
{
    ga_wev_t ev;
    memset(&ev, 0, sizeof ev);
    ev.kind = GA_WEV_FREE;
    ev.id = id;
    for (uint32_t i = 0; i < st->nlive; i++)
        if (st->live[i] == id) {
            memmove(st->live + i, st->live + i + 1, (st->nlive - i - 1u) * sizeof *st->live);
            st->nlive--;
            break;
        }
    st->live_bytes -= st->size[id];
    st->sum->frees++;
    return emit(st, &ev);
}

/* Share i of n of a total: the integers total*(i+1)/n - total*i/n add up to total exactly. */
static uint64_t share(uint64_t total, uint64_t i, uint64_t n)
{
    return (uint64_t)((double)total * (double)(i + 1u) / (double)n) - (uint64_t)((double)total * (double)i / (double)n);
}

/* One warp: its LOADMETAs, then a_cnt global and s_cnt shared accesses in random interleaving.
 * Warp j belongs to thread block b = j / GA_WL_WARPS_PER_BLOCK of nb; block b runs on SM b mod sms
 * (round-robin block dispatch) as warps (b div sms) * GA_WL_WARPS_PER_BLOCK + j mod
 * GA_WL_WARPS_PER_BLOCK; all warps of a block share the block's window of T_k, which starts at
 * position floor(b |T_k| / nb). */
static int do_warp(gen_t *st, uint64_t j, uint64_t nw, uint32_t ntouch, uint64_t a_cnt, uint64_t s_cnt)
{
    const ga_wl_spec_t *s = st->s;
    unsigned sms = st->o->sms;
    uint32_t wsz = s->ws < ntouch ? s->ws : ntouch;
    uint64_t b = j / GA_WL_WARPS_PER_BLOCK, nb = (nw + GA_WL_WARPS_PER_BLOCK - 1u) / GA_WL_WARPS_PER_BLOCK;
    uint32_t start = (uint32_t)((b * ntouch) / nb);
    uint16_t sm = (uint16_t)(b % sms);
    uint16_t warp = (uint16_t)(((b / sms) * GA_WL_WARPS_PER_BLOCK + j % GA_WL_WARPS_PER_BLOCK) & 0xFFFFu);
    uint32_t win[64];
    uint8_t used[64];
    if (wsz > 64u) wsz = 64u;
    for (uint32_t i = 0; i < wsz; i++) {
        win[i] = st->touch[(start + i) % ntouch];
        used[i] = 0;
    }
    ga_wev_t ev;
    memset(&ev, 0, sizeof ev);
    ev.kernel = st->kernel;
    ev.sm = sm;
    ev.warp = warp;
    st->sum->warps++;
    int rc;
    if (a_cnt > 0u)
        for (uint32_t i = 0; i < wsz; i++) { /* the compiler hoists one LOADMETA per root (§6.2) */
            uint32_t id = win[i];
            if (st->rkind[id] == GA_WL_ROOT_ADDRESS) continue;
            ev.kind = GA_WEV_LOADMETA;
            ev.id = id;
            ev.root = (ga_wl_root_t)st->rkind[id];
            ev.root_off = st->roff[id];
            st->sum->loadmeta++;
            if ((rc = emit(st, &ev)) != 0) return rc;
        }
    uint64_t left_a = a_cnt, left_s = s_cnt;
    uint32_t distinct = 0;
    while (left_a + left_s > 0u) {
        bool shared = ga_rng_below(&st->g, left_a + left_s) < left_s;
        memset(&ev, 0, sizeof ev);
        ev.kernel = st->kernel;
        ev.sm = sm;
        ev.warp = warp;
        ev.size = s->esize;
        ev.mask = UINT32_MAX;
        ev.store = ga_rng_below(&st->g, 4) == 0u; /* one access in four is a store (our choice) */
        if (shared) {
            ev.kind = GA_WEV_SHARED;
            ev.sbase = 0;
            ev.ssize = 48u * 1024u; /* the static per-block shared limit */
            ev.saddr = s->esize * (uint32_t)ga_rng_below(&st->g, (ev.ssize - 32u * s->esize) / s->esize + 1u);
            left_s--;
            st->sum->shared++;
        } else {
            uint32_t w = (uint32_t)ga_rng_below(&st->g, wsz);
            uint32_t id = win[w];
            if (!used[w]) {
                used[w] = 1;
                distinct++;
            }
            ev.kind = GA_WEV_GLOBAL;
            ev.id = id;
            ev.root = (ga_wl_root_t)st->rkind[id];
            ev.root_off = st->roff[id];
            /* 32 lanes of esize bytes, in bounds (every size is >= 256 = 32 x 8). */
            uint64_t slots = (st->size[id] - 32u * s->esize) / s->esize + 1u;
            ev.off = s->esize * ga_rng_below(&st->g, slots);
            st->sum->root_kind[ev.root]++;
            left_a--;
            st->sum->global++;
        }
        if ((rc = emit(st, &ev)) != 0) return rc;
    }
    if (distinct > st->sum->ws_max) st->sum->ws_max = distinct;
    return 0;
}

static int do_kernel(gen_t *st, uint64_t g_k, uint64_t s_k, uint64_t i_k)
{
    const ga_wl_spec_t *s = st->s;
    ga_wev_t ev;
    memset(&ev, 0, sizeof ev);
    ev.kind = GA_WEV_KERNEL;
    ev.kernel = st->kernel;
    snprintf(st->name, sizeof st->name, "%s_k%u", s->name, (unsigned)st->kernel);
    ev.name = st->name;
    st->sum->kernels++;
    int rc = emit(st, &ev);
    if (rc != 0) return rc;
    /* T_k: the live allocations in a fresh random order; root kind per allocation with Fig 8's shares
     * (55.5 % base, 36 % interior, 8.5 % the address itself). */
    uint32_t nt = st->nlive;
    memcpy(st->touch, st->live, nt * sizeof *st->touch);
    for (uint32_t i = nt; i > 1u; i--) {
        uint32_t jx = (uint32_t)ga_rng_below(&st->g, i);
        uint32_t t = st->touch[i - 1u];
        st->touch[i - 1u] = st->touch[jx];
        st->touch[jx] = t;
    }
    for (uint32_t i = 0; i < nt; i++) {
        uint32_t id = st->touch[i];
        uint64_t r = ga_rng_below(&st->g, 1000);
        st->rkind[id] = r < 555u ? GA_WL_ROOT_BASE : r < 915u ? GA_WL_ROOT_INTERIOR : GA_WL_ROOT_ADDRESS;
        st->roff[id] = st->rkind[id] == GA_WL_ROOT_INTERIOR
                           ? s->esize * (1u + ga_rng_below(&st->g, st->size[id] / s->esize - 1u))
                           : 0u;
    }
    uint64_t nw = (g_k + GA_WL_ACCESSES_PER_WARP - 1u) / GA_WL_ACCESSES_PER_WARP;
    if (nw == 0u) nw = 1u;
    for (uint64_t j = 0; j < nw && nt > 0u; j++)
        if ((rc = do_warp(st, j, nw, nt, share(g_k, j, nw), share(s_k, j, nw))) != 0) return rc;
    memset(&ev, 0, sizeof ev);
    ev.kind = GA_WEV_END;
    ev.kernel = st->kernel;
    ev.instr = i_k;
    st->sum->instr += i_k;
    return emit(st, &ev);
}

int ga_wl_generate(const ga_wl_spec_t *s, const ga_wl_opts_t *o, ga_wl_sink_fn sink, void *ctx,
                   ga_wl_summary_t *sum)
{
    ga_wl_summary_t local;
    if (sum == NULL) sum = &local;
    memset(sum, 0, sizeof *sum);
    if (!spec_ok(s) || o == NULL || !(o->scale > 0.0) || o->scale > 1.0 || o->sms == 0u || o->sms > 65535u)
        return -1;
    gen_t st;
    memset(&st, 0, sizeof st);
    st.s = s;
    st.o = o;
    st.sink = sink;
    st.ctx = ctx;
    st.sum = sum;
    uint32_t n = s->allocs;
    st.size = malloc(n * sizeof *st.size);
    st.live = malloc(n * sizeof *st.live);
    st.touch = malloc(n * sizeof *st.touch);
    st.rkind = calloc(n, sizeof *st.rkind);
    st.roff = calloc(n, sizeof *st.roff);
    uint64_t *sorted = malloc(n * sizeof *sorted);
    int rc = -1;
    if (st.size == NULL || st.live == NULL || st.touch == NULL || st.rkind == NULL || st.roff == NULL ||
        sorted == NULL || ga_wl_sizes(s, o->seed, st.size) != 0)
        goto out;
    memcpy(sorted, st.size, n * sizeof *sorted);
    qsort(sorted, n, sizeof *sorted, cmp_u64);
    sum->median = sorted[(n - 1u) / 2u];
    sum->max_size = sorted[n - 1u];
    for (uint32_t i = 0; i < n; i++) {
        sum->footprint += st.size[i];
        sum->small_allocs += st.size[i] < 4u * KIB;
    }
    ga_rng_seed(&st.g, o->seed);

    double instr = s->instr_m * 1e6 * o->scale;
    uint64_t i_tot = (uint64_t)llround(instr);
    uint64_t g_tot = (uint64_t)llround(instr * s->global_frac);
    uint64_t s_tot = (uint64_t)llround(instr * s->shared_frac);
    uint32_t p = n - s->temps;
    rc = 0;
    for (uint32_t id = 0; id < p && rc == 0; id++) rc = do_alloc(&st, id);
    for (uint32_t k = 0; k < s->kernels && rc == 0; k++) {
        st.kernel = k;
        bool temp = k >= 1u && k <= s->temps;
        if (temp) rc = do_alloc(&st, p + k - 1u);
        if (rc == 0) rc = do_kernel(&st, share(g_tot, k, s->kernels), share(s_tot, k, s->kernels), share(i_tot, k, s->kernels));
        if (temp && rc == 0) rc = do_free(&st, p + k - 1u);
    }
    for (uint32_t id = 0; id < p && rc == 0; id++) rc = do_free(&st, id);
out:
    free(st.size);
    free(st.live);
    free(st.touch);
    free(st.rkind);
    free(st.roff);
    free(sorted);
    return rc;
}
