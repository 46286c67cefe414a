/*
 * tb_gen.c — seeded constrained-random stimulus for the co-simulation (see tb_stim.h).
 *
 * The run is a sequence of phases of a few hundred to a few thousand requests. Each phase picks a
 * "personality": COMPILER or HWONLY mode, the STEP_LIMIT, how many requests may be in flight, a hot
 * set of allocations (so that the MLB hits, as it does on real workloads [paper Fig 4, §9.2]) and a
 * live-allocation target (INDEX runs: one phase in eight grows to 100 .. 399, for 3-level walks and
 * repacks). Some phases open with a directed burst:
 *   - TERMINATE policy: faulting checks one at a time, operations while halted, CLEAR_HALT;
 *   - corrupt metadata: a cyclic list, a misaligned or unmapped node pointer, entries that run past
 *     2^V, a misaligned ROOT, a table at ROOT 0 (slot 0 at location 0);
 *   - a wrong LAYOUT register; poisoned nodes (error responses); illegal configuration writes;
 *   - configuration under load (cfg_live): CFG_WRITEs of every register (SM_ID, POLICY, MODE, LAYOUT,
 *     ROOT, STEP_LIMIT) and CLEAR_HALTs that do not wait for the unit to drain, among misses, so that
 *     operations in flight must keep the registers of their acceptance (spec §8); outside the
 *     bursts, the same runs write SM_ID now and then without draining.
 * Pointers come from ga_gen_pointer / ga_gen_warp (the shared case generator) and from the hot set
 * with boundary-biased offsets. Allocations go through the runtime (the driver drains first, spec §8);
 * frees race walks (the driver sends the runtime's invalidations as OP_INVALIDATE requests).
 */
#include <stdlib.h>
#include <string.h>

#include "ga_rng.h"
#include "tb_stim.h"

/* Deferred actions: turned into items when popped, so that values such as the runtime's ROOT are
 * read after the items before them were carried out. */
typedef enum {
    A_CFG,       /* CFG_WRITE a0 = register, a1 = value (SEQ) */
    A_CFG_ROOT,  /* CFG_WRITE ROOT = the runtime's root (SEQ) */
    A_CFG_LAYOUT_RT, /* CFG_WRITE LAYOUT = the runtime's layout (SEQ) */
    A_CFG_LIVE,  /* CFG_WRITE a0 = register, a1 = value, not drained */
    A_ROOT_LIVE, /* CFG_WRITE ROOT = the runtime's root + a1 (a2: or 0), not drained */
    A_CLEAR_LIVE, /* CLEAR_HALT, not drained */
    A_OP,        /* a random request of kind a0 (TB_OP_*), SEQ if a1 */
    A_FLUSH,     /* SEQ flush */
    A_CLEAR,     /* SEQ CLEAR_HALT */
    A_ITEM,      /* host item of kind a0 with addr a1, len a2, sub a3 */
} act_kind_t;

typedef struct {
    act_kind_t k;
    uint64_t a0, a1, a2, a3;
} act_t;

#define ACTQ 256u

struct tb_gen {
    tb_gen_cfg_t cfg;
    ga_rng_t rng;
    ga_gen_t gg;
    uint64_t made; /* requests generated */
    /* phase */
    uint64_t phase_left;
    bool hwonly;
    unsigned hot_n;
    uint64_t hot[16];
    size_t max_live;
    bool grow;          /* this phase allocates faster than it frees, up to max_live */
    uint32_t step_limit;
    bool corrupt_active; /* a corrupt burst's ops: pointers around the fake structure */
    uint64_t fake_ptr;   /* corrupt burst: the live pointer the fake entries imitate */
    unsigned fake_variant; /* corrupt burst: tb_world_corrupt's variant */
    act_t q[ACTQ];
    unsigned qh, qn;
    uint64_t fake_base;
    bool ended;
    bool cfg_live; /* configuration writes under load in this run */
    unsigned max_out; /* the phase's cap on requests in flight */
    unsigned nlay;    /* LAYOUT codes the DUT accepts (0 .. nlay - 1); nlay is the first it refuses */
};

static uint64_t rnd(tb_gen_t *g, uint64_t n) { return ga_rng_below(&g->rng, n); }
static bool pct(tb_gen_t *g, unsigned p) { return rnd(g, 100) < p; }

static void push(tb_gen_t *g, act_kind_t k, uint64_t a0, uint64_t a1, uint64_t a2, uint64_t a3)
{
    if (g->qn == ACTQ) return; /* bursts are far smaller than the queue */
    act_t *a = &g->q[(g->qh + g->qn) % ACTQ];
    g->qn++;
    a->k = k;
    a->a0 = a0;
    a->a1 = a1;
    a->a2 = a2;
    a->a3 = a3;
}

tb_gen_t *tb_gen_create(const tb_gen_cfg_t *cfg)
{
    tb_gen_t *g = calloc(1, sizeof *g);
    if (g == NULL) return NULL;
    g->cfg = *cfg;
    ga_rng_seed(&g->rng, cfg->seed);
    if (ga_gen_init(&g->gg, cfg->seed ^ UINT64_C(0x67656e), 2, cfg->tag_bits) != GA_OK) {
        free(g);
        return NULL;
    }
    g->step_limit = 65536u;
    g->nlay = cfg->rtl_layouts != 0u && cfg->rtl_layouts < GA_LAYOUTS ? cfg->rtl_layouts : GA_LAYOUTS;
    g->fake_base = UINT64_C(0x500000000000);
    /* a hash of the seed, not the stimulus generator, so that the draw leaves every stream as it was */
    g->cfg_live = cfg->cfg_live > 0 || (cfg->cfg_live < 0 && ((cfg->seed * UINT64_C(0x9E3779B97F4A7C15)) >> 62) != 0u);
    return g;
}

void tb_gen_destroy(tb_gen_t *g) { free(g); }

/* ------------------------------------------------------------------------------------------------ */
/* Pointers                                                                                         */

static uint64_t vmask(const tb_gen_t *g) { return ga_va_mask(g->cfg.tag_bits); }

static const tb_alloc_t *find_live(const tb_world_t *w, uint64_t ptr)
{
    for (size_t i = 0; i < w->nlive; i++)
        if (w->live[i].ptr == ptr) return &w->live[i];
    return NULL;
}

static const tb_alloc_t *pick_live(tb_gen_t *g, const tb_world_t *w)
{
    if (w->nlive == 0) return NULL;
    if (g->hot_n > 0 && pct(g, 80)) {
        const tb_alloc_t *a = find_live(w, g->hot[rnd(g, g->hot_n)]);
        if (a != NULL) return a;
    }
    return &w->live[rnd(g, w->nlive)];
}

/* An offset from an allocation's base near its edges for an access of S bytes. */
static uint64_t edge_off(tb_gen_t *g, uint64_t size, uint32_t S)
{
    switch (rnd(g, 12)) {
    case 0: return 0;
    case 1: return size >= S ? size - S : 0;
    case 2: return size - 1u;
    case 3: return size;                 /* one past the end */
    case 4: return size - S + 1u;        /* straddles the end */
    case 5: return (uint64_t)0 - 1u;     /* one before the base */
    case 6: return (uint64_t)0 - S;
    case 7: return size + rnd(g, 4096);  /* beyond */
    default: return size > 1u ? (rnd(g, size) & ~(uint64_t)(S - 1u)) : 0u; /* inside, aligned */
    }
}

static uint64_t with_off(const tb_gen_t *g, uint64_t ptr, uint64_t off)
{
    unsigned tb = g->cfg.tag_bits;
    return ga_make_ptr(ga_tag_of(ptr, tb), (ga_va_of(ptr, tb) + off) & vmask(g), tb);
}

/* Targets for ga_gen_pointer: up to 24 live entries and 8 freed ones (as written in metadata). */
static size_t targets(tb_gen_t *g, const tb_world_t *w, ga_entry_t *t)
{
    size_t n = 0;
    for (size_t i = 0; i < w->nlive && n < 24u; i++)
        t[n++] = tb_world_entry(w, &w->live[(i + rnd(g, w->nlive)) % w->nlive], false);
    for (size_t i = 0; i < w->nfreed && n < 32u; i += 8u)
        t[n++] = tb_world_entry(w, &w->freed[(w->freed_head + i) % TB_FREED_KEEP], true);
    return n;
}

/* One tagged pointer for an access of S bytes; *hint gets the metadata location of the allocation it
 * was derived from (0 if none). */
static uint64_t pick_ptr(tb_gen_t *g, const tb_world_t *w, uint32_t S, uint64_t *hint)
{
    unsigned tb = g->cfg.tag_bits;
    *hint = 0;
    unsigned r = (unsigned)rnd(g, 100);
    if (g->corrupt_active && r < 50) {
        uint64_t p = g->fake_ptr;
        /* variant 6: the pointer at the size-0 node's base, whose turn (left or right) decides */
        if (g->fake_variant == 6u && g->cfg.layout != GA_LAYOUT_TABLE && pct(g, 50)) return with_off(g, p, (uint64_t)0 - 0x1000u);
        if (pct(g, 30)) /* at the very top of the VA space, for entries that run past 2^V */
            return ga_make_ptr(ga_tag_of(p, tb), vmask(g) - rnd(g, 24), tb);
        return with_off(g, p, edge_off(g, 0x4000, S) - 0x1000u);
    }
    const tb_alloc_t *a = pick_live(g, w);
    if (a != NULL && r < 62) {
        *hint = a->loc;
        uint64_t off = pct(g, 55) ? (a->size > 1u ? rnd(g, a->size) & ~(uint64_t)(S - 1u) : 0u) : edge_off(g, a->size, S);
        return with_off(g, a->ptr, off);
    }
    if (w->nfreed > 0 && r < 72) {
        const tb_alloc_t *f = &w->freed[(w->freed_head + rnd(g, w->nfreed)) % TB_FREED_KEEP];
        *hint = f->loc;
        return with_off(g, f->ptr, f->size > 1u ? rnd(g, f->size) : 0u);
    }
    ga_entry_t t[32];
    size_t n = targets(g, w, t);
    return ga_gen_pointer(&g->gg, t, n, S);
}

/* The metadata location MEMCHECK.G is given for pointer p (Rb), mostly right, sometimes not. */
static uint64_t pick_md(tb_gen_t *g, const tb_world_t *w, uint64_t p, uint64_t hint)
{
    unsigned tb = g->cfg.tag_bits;
    uint64_t loc = hint;
    if (loc == 0u) {
        ga_entry_t e;
        (void)ga_rt_find(w->rt, ga_va_of(p, tb), &e, &loc);
    }
    unsigned r = (unsigned)rnd(g, 100);
    if (r < 72) return loc;
    if (r < 78) return 0;
    if (r < 84 && w->nfreed > 0) return w->freed[(w->freed_head + rnd(g, w->nfreed)) % TB_FREED_KEEP].loc;
    if (r < 88) {
        static const uint64_t mis[] = { 1, 4, 8, 12 };
        return loc + mis[rnd(g, 4)];
    }
    if (r < 92 && w->nlive > 0) return w->live[rnd(g, w->nlive)].loc;
    if (r < 96) {
        if (pct(g, 50)) return (w->rtc.md_base + 16u * rnd(g, (uint64_t)w->rtc.md_capacity * 2u));
        return (rnd(g, UINT64_C(1) << 40) + 0x1000u) & ~UINT64_C(15); /* unmapped */
    }
    return loc + 16u;
}

static uint8_t size_log2(tb_gen_t *g) { return (uint8_t)rnd(g, 5); }

static uint32_t active_mask(tb_gen_t *g, unsigned lanes)
{
    uint32_t all = lanes >= 32u ? UINT32_MAX : ((UINT32_C(1) << lanes) - 1u);
    switch (rnd(g, 10)) {
    case 0: return 0;
    case 1: return (UINT32_C(1) << rnd(g, lanes)) & all;
    case 2: return (uint32_t)ga_rng_next(&g->rng) & all;
    case 3: return lanes > 1u ? all >> (lanes - lanes / 2u) : all; /* the lower half */
    default: return all;
    }
}

/* A warp for MEMCHECK.G / ACCESS. *p0, *hint: the pointer the warp was built around. */
static void warp_addrs(tb_gen_t *g, const tb_world_t *w, tb_req_t *r, uint64_t *p0, uint64_t *hint)
{
    unsigned lanes = g->cfg.lanes;
    uint32_t S = 1u << r->size_log2;
    *hint = 0;
    if (!g->corrupt_active && pct(g, 35)) {
        ga_entry_t t[32];
        size_t n = targets(g, w, t);
        ga_warp_req_t wr;
        ga_gen_warp(&g->gg, t, n, lanes, &wr);
        r->active = wr.active;
        unsigned k = 0;
        while (k + 1u < lanes && ((wr.active >> k) & 1u) == 0u) k++;
        for (unsigned l = 0; l < lanes; l++) r->addr[l] = wr.addr[l];
        *p0 = wr.addr[k];
        unsigned s = 0;
        while ((1u << s) < wr.size) s++;
        r->size_log2 = (uint8_t)s;
        return;
    }
    uint64_t p = pick_ptr(g, w, S, hint);
    *p0 = p;
    uint64_t stride = pct(g, 80) ? S : (pct(g, 50) ? 0u : rnd(g, 64));
    r->active = active_mask(g, lanes);
    for (unsigned l = 0; l < lanes; l++) {
        if (l > 0 && pct(g, 6)) {
            uint64_t h;
            r->addr[l] = pick_ptr(g, w, S, &h);
        } else {
            r->addr[l] = with_off(g, p, stride * l);
        }
    }
}

/* ------------------------------------------------------------------------------------------------ */
/* Requests                                                                                         */

static void req_init(tb_gen_t *g, tb_item_t *it, unsigned op, bool seq)
{
    memset(it, 0, sizeof *it);
    it->kind = TB_IT_REQ;
    it->name = -1;
    it->req.op = (uint8_t)op;
    it->req.warp = (uint16_t)rnd(g, 65536);
    it->req.flags = seq ? TB_RF_SEQ : 0u;
    /* lanes and fields an op does not use carry noise: the DUT must ignore them */
    for (unsigned l = 0; l < g->cfg.lanes; l++) it->req.addr[l] = ga_rng_next(&g->rng);
    it->req.active = (uint32_t)ga_rng_next(&g->rng) & (g->cfg.lanes >= 32u ? UINT32_MAX : ((UINT32_C(1) << g->cfg.lanes) - 1u));
    it->req.size_log2 = size_log2(g);
    it->req.md = ga_rng_next(&g->rng);
    it->req.cfg_addr = (uint8_t)rnd(g, 8);
}

static void make_op(tb_gen_t *g, tb_world_t *w, unsigned op, bool seq, tb_item_t *it)
{
    req_init(g, it, op, seq);
    tb_req_t *r = &it->req;
    uint64_t hint = 0, p0 = 0;
    switch (op) {
    case TB_OP_LOADMETA:
        r->addr[0] = pick_ptr(g, w, 1u << r->size_log2, &hint);
        break;
    case TB_OP_MEMCHECK_G:
        warp_addrs(g, w, r, &p0, &hint);
        r->md = pick_md(g, w, p0, hint);
        break;
    case TB_OP_ACCESS:
        warp_addrs(g, w, r, &p0, &hint);
        break;
    case TB_OP_MEMCHECK_S: {
        ga_gen_shared_t c;
        if (!ga_gen_next_shared(&g->gg, &c)) {
            ga_gen_rewind(&g->gg);
            (void)ga_gen_next_shared(&g->gg, &c);
        }
        unsigned s = 0;
        while ((1u << s) < c.size) s++;
        r->size_log2 = (uint8_t)s;
        r->active = active_mask(g, g->cfg.lanes);
        for (unsigned l = 0; l < g->cfg.lanes; l++)
            r->addr[l] = pct(g, 90) ? (uint32_t)(c.a + l * c.size) : (uint32_t)ga_rng_next(&g->rng);
        /* the upper 32 bits of a shared lane address are not part of it (§1.1: low 32 bits) */
        for (unsigned l = 0; l < g->cfg.lanes; l++)
            if (pct(g, 10)) r->addr[l] |= ga_rng_next(&g->rng) << 32;
        r->md = ((uint64_t)c.ssize << 32) | c.base;
        break;
    }
    case TB_OP_INVALIDATE:
        if (w->nlive > 0 && pct(g, 50))
            r->md = w->live[rnd(g, w->nlive)].loc;
        else if (pct(g, 50))
            r->md = w->rtc.md_base + 32u * rnd(g, 64);
        else
            r->md = ga_rng_next(&g->rng);
        break;
    default: break;
    }
}

static void make_cfg(tb_gen_t *g, tb_item_t *it, unsigned reg, uint64_t val)
{
    req_init(g, it, TB_OP_CFG_WRITE, true);
    it->req.cfg_addr = (uint8_t)reg;
    it->req.md = val;
}

/* ------------------------------------------------------------------------------------------------ */
/* Bursts                                                                                           */

static void burst_terminate(tb_gen_t *g)
{
    push(g, A_CFG, TB_CFG_POLICY, 1, 0, 0);
    unsigned n = 2u + (unsigned)rnd(g, 6);
    static const unsigned ops[] = { TB_OP_MEMCHECK_G, TB_OP_MEMCHECK_S, TB_OP_ACCESS, TB_OP_LOADMETA,
                                    TB_OP_INVALIDATE, TB_OP_FLUSH };
    for (unsigned i = 0; i < n; i++) push(g, A_OP, ops[rnd(g, 6)], 1, 0, 0);
    if (pct(g, 50)) push(g, A_CFG, TB_CFG_SM_ID, rnd(g, 65536), 0, 0); /* while (maybe) halted */
    push(g, A_CLEAR, 0, 0, 0, 0);
    for (unsigned i = 0; i < 2u; i++) push(g, A_OP, ops[rnd(g, 3)], 1, 0, 0);
    push(g, A_CFG, TB_CFG_POLICY, 0, 0, 0);
    push(g, A_CLEAR, 0, 0, 0, 0);
}

static void burst_illegal_cfg(tb_gen_t *g)
{
    unsigned n = 1u + (unsigned)rnd(g, 4);
    for (unsigned i = 0; i < n; i++) {
        switch (rnd(g, 7)) {
        case 6: push(g, A_CFG, TB_CFG_SM_ID, 65536u + rnd(g, UINT64_C(1) << 48), 0, 0); break; /* > 16 bits */
        case 0: push(g, A_CFG, TB_CFG_LAYOUT, g->nlay, 0, 0); break; /* the first code this DUT lacks */
        case 1: push(g, A_CFG, TB_CFG_STEP_LIMIT, 0, 0, 0); break;
        case 2: push(g, A_CFG, 6u + rnd(g, 2), ga_rng_next(&g->rng), 0, 0); break;
        case 3: push(g, A_CFG, TB_CFG_MODE, 2u + rnd(g, 1000), 0, 0); break;
        case 4: push(g, A_CFG, TB_CFG_POLICY, 2u + rnd(g, 1000), 0, 0); break;
        default: push(g, A_CFG, TB_CFG_LAYOUT, 4u + rnd(g, 1000), 0, 0); break;
        }
    }
}

/* A corrupt structure (tb_world_corrupt's variant v, or a random one of 0..5 for v < 0) at fake_base,
 * then ROOT = it, and requests around it. */
static void burst_corrupt(tb_gen_t *g, tb_world_t *w, int variant)
{
    if (w->nlive == 0) return;
    g->fake_ptr = w->live[rnd(g, w->nlive)].ptr;
    unsigned v = variant < 0 ? (unsigned)rnd(g, 6) : (unsigned)variant;
    g->fake_variant = v;
    push(g, A_ITEM, TB_IT_REF, 0, 0, 0);
    /* the driver writes the structure and then sets ROOT to it (tb_world_corrupt) */
    push(g, A_ITEM, TB_IT_CORRUPT, g->fake_base, 0, v);
    uint32_t sl = 1u + (uint32_t)rnd(g, 12);
    push(g, A_CFG, TB_CFG_STEP_LIMIT, sl, 0, 0);
    unsigned n = 5u + (unsigned)rnd(g, 25);
    static const unsigned ops[] = { TB_OP_LOADMETA, TB_OP_LOADMETA, TB_OP_MEMCHECK_G, TB_OP_ACCESS };
    push(g, A_ITEM, TB_IT_MAXOUT, 0, 0, 1u + rnd(g, 16));
    for (unsigned i = 0; i < n; i++) push(g, A_OP, ops[rnd(g, 4)], 0, 1, 0);
    push(g, A_CFG_ROOT, 0, 0, 0, 0);
    push(g, A_CFG, TB_CFG_STEP_LIMIT, g->step_limit, 0, 0);
    push(g, A_ITEM, TB_IT_SCRUB, 0, 0, 0);
    push(g, A_FLUSH, 0, 0, 0, 0);
    push(g, A_ITEM, TB_IT_REF, 0, 0, 1);
}

/* Configuration under load (spec §8): short patterns of requests that miss, each with a CFG_WRITE
 * (or CLEAR_HALT) right behind it that does not wait for the unit to drain, so that the write is
 * accepted while the miss's fetch or walk is in flight (up to 16 requests in flight):
 *   - a MEMCHECK.G or ACCESS, then SM_ID: the record must carry the SM_ID of its acceptance;
 *   - POLICY flips around a check that misses: the halt is decided by the POLICY of acceptance
 *     (TERMINATE -> REPORT and REPORT -> TERMINATE), a CLEAR_HALT after some requests;
 *   - two misses (the second parks), then LAYOUT, ROOT (another node, 0, misaligned) or STEP_LIMIT:
 *     the parked walk and later HWOnly leaders keep the values of their acceptance;
 *   - an ACCESS, then MODE: checked or not as MODE was at its acceptance.
 * A flush before a pattern makes its lookups miss. ROOT and LAYOUT take wrong values, so walks read
 * other memory: the third opinion is off and the MLB is flushed at the end (fills from a wrong
 * structure are not the runtime's entries). Then every register is put back, drained. */
static void burst_cfg_live(tb_gen_t *g)
{
    push(g, A_ITEM, TB_IT_REF, 0, 0, 0);
    push(g, A_ITEM, TB_IT_MAXOUT, 0, 0, 4u + rnd(g, 13));
    unsigned n = 6u + (unsigned)rnd(g, 20); /* patterns; at most 6 actions each (ACTQ) */
    unsigned pol = 0;                       /* POLICY as the burst leaves it (phases run REPORT) */
    static const unsigned chk[] = { TB_OP_MEMCHECK_G, TB_OP_MEMCHECK_G, TB_OP_ACCESS };
    static const unsigned walk[] = { TB_OP_LOADMETA, TB_OP_ACCESS };
    for (unsigned i = 0; i < n; i++) {
        if (pct(g, 50)) push(g, A_OP, TB_OP_FLUSH, 0, 0, 0);
        switch (rnd(g, 8)) {
        case 0:
        case 1:
            push(g, A_OP, chk[rnd(g, 3)], 0, 0, 0);
            /* now and then an illegal SM_ID (wider than 16 bits): CFG_ERROR, the register keeps its value */
            push(g, A_CFG_LIVE, TB_CFG_SM_ID, pct(g, 10) ? 65536u + rnd(g, UINT64_C(1) << 40) : rnd(g, 65536), 0, 0);
            break;
        case 2:
        case 3:
            push(g, A_OP, chk[rnd(g, 3)], 0, 0, 0);
            pol ^= 1u;
            push(g, A_CFG_LIVE, TB_CFG_POLICY, pol, 0, 0);
            push(g, A_OP, chk[rnd(g, 3)], 0, 0, 0);
            if (pct(g, 50)) push(g, A_CLEAR_LIVE, 0, 0, 0, 0);
            break;
        case 4:
        case 5: {
            push(g, A_OP, walk[rnd(g, 2)], 0, 0, 0);
            push(g, A_OP, walk[rnd(g, 2)], 0, 0, 0);
            static const uint64_t off[] = { 0, 32, 8, 64 };
            switch (rnd(g, 3)) {
            case 0: push(g, A_CFG_LIVE, TB_CFG_LAYOUT, rnd(g, g->nlay), 0, 0); break;
            case 1: push(g, A_ROOT_LIVE, 0, off[rnd(g, 4)], pct(g, 25), 0); break;
            default: push(g, A_CFG_LIVE, TB_CFG_STEP_LIMIT, pct(g, 40) ? 65536u : 1u + rnd(g, 3), 0, 0); break;
            }
            push(g, A_OP, walk[rnd(g, 2)], 0, 0, 0);
            break;
        }
        case 6:
            push(g, A_OP, TB_OP_ACCESS, 0, 0, 0);
            push(g, A_CFG_LIVE, TB_CFG_MODE, rnd(g, 2), 0, 0);
            push(g, A_OP, TB_OP_ACCESS, 0, 0, 0);
            break;
        default:
            push(g, A_OP, TB_OP_MEMCHECK_S, 0, 0, 0);
            push(g, A_CLEAR_LIVE, 0, 0, 0, 0);
            break;
        }
    }
    push(g, A_CFG, TB_CFG_POLICY, 0, 0, 0);
    push(g, A_CLEAR, 0, 0, 0, 0);
    push(g, A_CFG, TB_CFG_MODE, g->hwonly ? 1u : 0u, 0, 0);
    push(g, A_CFG, TB_CFG_STEP_LIMIT, g->step_limit, 0, 0);
    push(g, A_CFG_LAYOUT_RT, 0, 0, 0, 0);
    push(g, A_CFG_ROOT, 0, 0, 0, 0);
    push(g, A_FLUSH, 0, 0, 0, 0);
    push(g, A_ITEM, TB_IT_MAXOUT, 0, 0, g->max_out);
    push(g, A_ITEM, TB_IT_REF, 0, 0, 1);
}

static void burst_wrong_layout(tb_gen_t *g)
{
    unsigned real = (unsigned)g->cfg.layout;
    unsigned other = (real + 1u + (unsigned)rnd(g, g->nlay - 1u)) % g->nlay;
    push(g, A_ITEM, TB_IT_REF, 0, 0, 0);
    push(g, A_CFG, TB_CFG_STEP_LIMIT, 1u + rnd(g, 40), 0, 0);
    push(g, A_CFG, TB_CFG_LAYOUT, other, 0, 0);
    unsigned n = 5u + (unsigned)rnd(g, 20);
    static const unsigned ops[] = { TB_OP_LOADMETA, TB_OP_LOADMETA, TB_OP_MEMCHECK_G, TB_OP_ACCESS };
    for (unsigned i = 0; i < n; i++) push(g, A_OP, ops[rnd(g, 4)], 0, 0, 0);
    push(g, A_CFG_LAYOUT_RT, 0, 0, 0, 0);
    push(g, A_CFG, TB_CFG_STEP_LIMIT, g->step_limit, 0, 0);
    push(g, A_FLUSH, 0, 0, 0, 0);
    push(g, A_ITEM, TB_IT_REF, 0, 0, 1);
}

static void burst_poison(tb_gen_t *g, tb_world_t *w)
{
    if (w->nlive == 0) return;
    const tb_alloc_t *a = &w->live[rnd(g, w->nlive)];
    g->hot_n = 1;
    g->hot[0] = a->ptr;
    push(g, A_ITEM, TB_IT_REF, 0, 0, 0);
    push(g, A_ITEM, TB_IT_POISON, a->loc + (pct(g, 50) ? 0u : 16u), pct(g, 50) ? 16u : 1u, 0);
    unsigned n = 5u + (unsigned)rnd(g, 20);
    static const unsigned ops[] = { TB_OP_LOADMETA, TB_OP_MEMCHECK_G, TB_OP_ACCESS, TB_OP_INVALIDATE };
    for (unsigned i = 0; i < n; i++) push(g, A_OP, ops[rnd(g, 4)], 0, 0, 0);
    push(g, A_ITEM, TB_IT_UNPOISON, 0, 0, 0);
    push(g, A_ITEM, TB_IT_REF, 0, 0, 1);
}

static void new_phase(tb_gen_t *g, tb_world_t *w)
{
    g->phase_left = 200u + rnd(g, 2800);
    bool hw = pct(g, 45);
    if (hw != g->hwonly || pct(g, 5)) push(g, A_CFG, TB_CFG_MODE, hw ? 1u : 0u, 0, 0);
    g->hwonly = hw;
    uint32_t sl = pct(g, 85) ? 65536u : 1u + (uint32_t)rnd(g, 6);
    if (sl != g->step_limit) push(g, A_CFG, TB_CFG_STEP_LIMIT, sl, 0, 0);
    g->step_limit = sl;
    static const unsigned outs[] = { 1, 2, 3, 4, 8, 16, 16, 16, 16, 64 };
    g->max_out = outs[rnd(g, 10)];
    push(g, A_ITEM, TB_IT_MAXOUT, 0, 0, g->max_out);
    g->max_live = 2u + (size_t)rnd(g, g->cfg.layout == GA_LAYOUT_LIST ? 24 : 48);
    /* The index: one phase in eight (a longer one) grows towards 100 .. 399 live allocations, so walks
     * cross 3 node levels and full roots repack (spec §7.7). Only the index draws here: the other
     * layouts' stimulus for a seed is unchanged. */
    g->grow = g->cfg.layout == GA_LAYOUT_INDEX && pct(g, 12);
    if (g->grow) {
        g->max_live = 100u + (size_t)rnd(g, 300);
        g->phase_left = 3000u + rnd(g, 3000);
    }
    g->hot_n = w->nlive == 0 ? 0u : 1u + (unsigned)rnd(g, w->nlive < 12u ? w->nlive : 12u);
    for (unsigned i = 0; i < g->hot_n; i++) g->hot[i] = w->live[rnd(g, w->nlive)].ptr;
    if (pct(g, 4)) push(g, A_CFG, TB_CFG_SM_ID, rnd(g, 65536), 0, 0);
    unsigned b = (unsigned)rnd(g, 100);
    if (g->cfg.terminate && b < 10) burst_terminate(g);
    else if (g->cfg.corrupt && b < 16) burst_corrupt(g, w, -1);
    else if (g->cfg.corrupt && b < 20) burst_wrong_layout(g);
    else if (g->cfg.corrupt && b < 28) burst_poison(g, w);
    else if (g->cfg.illegal_cfg && b < 33) burst_illegal_cfg(g);
    /* LIST / BST: the equal-key turn (variant 6) in a phase of its own now and then; it is the only
     * structure whose left and right children differ where the turn on va == base decides */
    if (g->cfg.corrupt && g->cfg.layout != GA_LAYOUT_TABLE && pct(g, 15)) burst_corrupt(g, w, 6);
    /* TABLE: a misaligned ROOT (variant 0) likewise, so that short runs see it too */
    if (g->cfg.corrupt && g->cfg.layout == GA_LAYOUT_TABLE && pct(g, 10)) burst_corrupt(g, w, 0);
    if (pct(g, 20)) push(g, A_FLUSH, 0, 0, 0, 0);
}

/* ------------------------------------------------------------------------------------------------ */

static bool pop_act(tb_gen_t *g, tb_world_t *w, tb_item_t *it)
{
    while (g->qn > 0u) {
        act_t a = g->q[g->qh];
        g->qh = (g->qh + 1u) % ACTQ;
        g->qn--;
        switch (a.k) {
        case A_CFG: make_cfg(g, it, (unsigned)a.a0, a.a1); g->made++; return true;
        case A_CFG_ROOT: make_cfg(g, it, TB_CFG_ROOT, ga_rt_root(w->rt)); g->made++; return true;
        case A_CFG_LAYOUT_RT: make_cfg(g, it, TB_CFG_LAYOUT, (uint64_t)w->rtc.layout); g->made++; return true;
        case A_CFG_LIVE:
            make_cfg(g, it, (unsigned)a.a0, a.a1);
            it->req.flags = 0u;
            g->made++;
            return true;
        case A_ROOT_LIVE:
            make_cfg(g, it, TB_CFG_ROOT, a.a2 != 0u ? 0u : ga_rt_root(w->rt) + a.a1);
            it->req.flags = 0u;
            g->made++;
            return true;
        case A_CLEAR_LIVE: req_init(g, it, TB_OP_CLEAR_HALT, false); g->made++; return true;
        case A_OP:
            g->corrupt_active = a.a2 != 0u;
            make_op(g, w, (unsigned)a.a0, a.a1 != 0u, it);
            g->corrupt_active = false;
            g->made++;
            return true;
        case A_FLUSH: req_init(g, it, TB_OP_FLUSH, true); g->made++; return true;
        case A_CLEAR: req_init(g, it, TB_OP_CLEAR_HALT, true); g->made++; return true;
        case A_ITEM:
            memset(it, 0, sizeof *it);
            it->name = -1;
            it->kind = (tb_item_kind_t)a.a0;
            it->addr = a.a1;
            it->len = a.a2;
            it->sub = (unsigned)a.a3;
            if (it->kind == TB_IT_CORRUPT) it->ptr = g->fake_ptr;
            return true;
        }
    }
    return false;
}

bool tb_gen_next(tb_gen_t *g, tb_world_t *w, tb_item_t *it)
{
    if (pop_act(g, w, it)) return true;
    if (g->made >= g->cfg.ops) {
        if (g->ended) return false;
        g->ended = true;
        memset(it, 0, sizeof *it);
        it->kind = TB_IT_DRAIN;
        it->name = -1;
        return true;
    }
    if (g->phase_left == 0u) {
        new_phase(g, w);
        if (pop_act(g, w, it)) return true;
    }
    g->phase_left--;

    /* Host actions first: keep the live count near the phase's target. */
    unsigned r = (unsigned)rnd(g, 1000);
    if ((w->nlive < 2u && r < 500) || (w->nlive < g->max_live && r < (g->grow ? 55u : 30u))) {
        memset(it, 0, sizeof *it);
        it->kind = TB_IT_ALLOC;
        it->name = -1;
        it->size = ga_gen_alloc_size(&g->gg);
        if (it->size > (UINT64_C(1) << 16) && pct(g, 75)) it->size = 1u + rnd(g, 4096);
        return true;
    }
    if (w->nlive > 0u && (r < 60 || (w->nlive > g->max_live && r < 200))) {
        memset(it, 0, sizeof *it);
        it->kind = TB_IT_FREE;
        it->name = -1;
        /* a freed hot allocation stays in the hot set: its pointers become dangling ones */
        it->ptr = w->live[rnd(g, w->nlive)].ptr;
        return true;
    }
    if (r < 65) {
        memset(it, 0, sizeof *it);
        it->kind = TB_IT_IDLE;
        it->name = -1;
        it->len = 1u + rnd(g, 20);
        return true;
    }
    /* Configuration under load (spec §8): a burst of patterns about every 500 requests, and SM_ID
     * written without draining in the plain stream (4 in 1 000). In make cosim-quick (seed 1) 2.3 %
     * of all requests were configuration writes accepted with others in flight. */
    if (g->cfg_live) {
        unsigned c = (unsigned)rnd(g, 1000);
        if (c < 2) {
            burst_cfg_live(g);
            if (pop_act(g, w, it)) return true;
        } else if (c < 6) {
            make_cfg(g, it, TB_CFG_SM_ID, rnd(g, 65536));
            it->req.flags = 0u;
            g->made++;
            return true;
        }
    }
    unsigned k = (unsigned)rnd(g, 1000);
    unsigned op;
    if (k < 330) op = TB_OP_LOADMETA;
    else if (k < 600) op = TB_OP_MEMCHECK_G;
    else if (k < 850) op = TB_OP_ACCESS;
    else if (k < 940) op = TB_OP_MEMCHECK_S;
    else if (k < 985) op = TB_OP_INVALIDATE;
    else op = TB_OP_FLUSH;
    make_op(g, w, op, false, it);
    g->made++;
    return true;
}
