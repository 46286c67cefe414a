/*
 * gab_selftest.c — gaprobe's random lockstep test (docs/fpga.md §8): the board and the golden-model
 * mirror get the same commands; every response, the counters and the registers must agree.
 *
 * Each phase: (1) boundary check cases of the project's case generator (cmodel/ga_gen.h), one entry
 * written into the board's memory per case, checked by MEMCHECK.G at its location and by LOADMETA
 * through a one-slot TABLE walk; (2) a runtime (cmodel/ga_runtime.h) of the phase's layout whose
 * metadata lives in the board's memory window, with random mallocs and frees mirrored to the board
 * (changed lines written, changed locations invalidated, ROOT rewritten: spec §5.2) and random
 * LOADMETA, MEMCHECK.G/S, ACCESS, INVALIDATE, FLUSH, configuration writes (legal and illegal, TERMINATE
 * and CLEAR_HALT included), and short-lived memory corruption.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "ga_gen.h"
#include "ga_rng.h"
#include "ga_runtime.h"
#include "gab_sess.h"

#define MAX_LIVE 192u
#define MAX_FREED 64u

typedef struct {
    uint64_t ptr, size;
} alloc_t;

typedef struct {
    gab_sess_t *s;
    ga_rng_t rng;
    ga_mem_t *mem;   /* the runtime's memory: the board window is a copy of its [0, win) */
    ga_rt_t *rt;
    ga_layout_t layout;
    alloc_t live[MAX_LIVE];
    unsigned nlive;
    alloc_t freed[MAX_FREED];
    unsigned nfreed, freed_next;
    uint64_t root;   /* what the board's ROOT should be for the runtime's structure */
    uint64_t last_rd;
    unsigned tb;
} st_t;

static uint64_t rnd(st_t *t, uint64_t n) { return n == 0u ? 0u : ga_rng_below(&t->rng, n); }

/* The reset STEP_LIMIT, or the largest value a narrow build can express (docs/fpga.md §6). */
static uint64_t step_reset(const st_t *t)
{
    uint64_t m = t->s->mirror.keep_md & UINT32_MAX;
    return m < 65536u ? m : 65536u;
}

/* Send an op; -1 on a link error (message printed). */
static int op(st_t *t, gab_req_t *r)
{
    gab_rsp_t rsp;
    if (gab_sess_op(t->s, r, &rsp) != 0) {
        fprintf(stderr, "gaprobe: selftest: %s\n", t->s->err);
        return -1;
    }
    if (r->op == GAB_OP_LOADMETA && rsp.rd != 0u) t->last_rd = rsp.rd;
    return 0;
}

static int cfg(st_t *t, unsigned reg, uint64_t v)
{
    gab_req_t r;
    memset(&r, 0, sizeof r);
    r.op = GAB_OP_CFG_WRITE;
    r.cfg_addr = (uint8_t)reg;
    r.md = v;
    return op(t, &r);
}

static int inval(st_t *t, uint64_t loc)
{
    gab_req_t r;
    memset(&r, 0, sizeof r);
    r.op = GAB_OP_INVALIDATE;
    r.md = loc;
    return op(t, &r);
}

/* Copy every line of the runtime's memory that differs from the board's. */
static int sync_window(st_t *t)
{
    gab_sess_t *s = t->s;
    for (uint64_t a = 0; a < s->mirror.win; a += 32u) {
        uint8_t want[32], have[32];
        (void)ga_mem_read(t->mem, a, want, 32); /* unmapped: zeros */
        (void)ga_mem_read(s->mirror.mem, a, have, 32);
        if (memcmp(want, have, 32) != 0 && gab_sess_mem_write(s, (unsigned)(a / 32u), want) != 0) {
            fprintf(stderr, "gaprobe: selftest: %s\n", s->err);
            return -1;
        }
    }
    return 0;
}

/* After a successful runtime call: memory, invalidations, ROOT (spec §5.2). */
static int publish(st_t *t)
{
    if (sync_window(t) != 0) return -1;
    const uint64_t *locs;
    size_t n = ga_rt_invalidations(t->rt, &locs);
    for (size_t i = 0; i < n; i++)
        if (inval(t, locs[i]) != 0) return -1;
    uint64_t root = ga_rt_root(t->rt);
    if (root != t->root) {
        t->root = root;
        if (cfg(t, GAB_CFG_ROOT, root) != 0) return -1;
    }
    return 0;
}

static uint64_t tag_of(const st_t *t, uint64_t p) { return p >> (64u - t->tb); }
static uint64_t va_of(const st_t *t, uint64_t p) { return p & ((UINT64_C(1) << (64u - t->tb)) - 1u); }

/* A pointer for a lookup or a check: mostly near a live or freed allocation, with tag variants. */
static uint64_t pick_ptr(st_t *t)
{
    gab_sess_t *s = t->s;
    uint64_t freed_tag = (UINT64_C(1) << t->tb) - 1u;
    uint64_t va, tag;
    unsigned k = (unsigned)rnd(t, 16);
    if (t->nlive > 0u && k < 10u) {
        const alloc_t *a = &t->live[rnd(t, t->nlive)];
        int64_t off = (int64_t)rnd(t, a->size + 48u) - 16;
        va = va_of(t, a->ptr) + (uint64_t)off;
        tag = tag_of(t, a->ptr);
    } else if (t->nfreed > 0u && k < 13u) {
        const alloc_t *a = &t->freed[rnd(t, t->nfreed)];
        va = va_of(t, a->ptr) + rnd(t, a->size + 8u);
        tag = tag_of(t, a->ptr);
    } else {
        va = rnd(t, UINT64_C(1) << 21);
        tag = 1u + rnd(t, freed_tag - 1u);
    }
    unsigned v = (unsigned)rnd(t, 24);
    if (v == 0u) tag = 0;
    else if (v == 1u) tag = freed_tag;
    else if (v == 2u) tag = 1u + rnd(t, freed_tag - 1u);
    va &= s->mirror.va_mask & ((UINT64_C(1) << (64u - t->tb)) - 1u);
    return (tag << (64u - t->tb)) | va;
}

static void set_oracle(st_t *t, gab_req_t *r, uint64_t p)
{
    uint64_t idx = 0;
    r->orc_found = (uint8_t)(ga_rt_oracle(t->rt, va_of(t, p), &idx) != 0 && idx <= UINT16_MAX);
    r->orc_idx = r->orc_found ? (uint16_t)idx : 0u;
}

static uint64_t pick_md(st_t *t, uint64_t p)
{
    ga_entry_t e;
    uint64_t loc = 0;
    unsigned k = (unsigned)rnd(t, 16);
    if (k < 9u && ga_rt_find(t->rt, va_of(t, p), &e, &loc)) return loc;
    if (k < 11u) return t->last_rd;
    if (k == 11u) return 0;
    if (k == 12u) return (loc ? loc : t->last_rd) + 8u;                  /* misaligned */
    if (k == 13u) return t->s->mirror.win + 16u * rnd(t, 64);           /* outside the window */
    return 16u * rnd(t, t->s->mirror.win / 16u);                         /* any slot */
}

static void fill_lanes(st_t *t, gab_req_t *r, uint64_t p0)
{
    unsigned lanes = t->s->lanes;
    r->addr[0] = p0;
    for (unsigned l = 1; l < lanes; l++) r->addr[l] = rnd(t, 4) == 0u ? pick_ptr(t) : p0 + 4u * l;
    for (unsigned l = 0; l < lanes; l++) r->addr[l] &= t->s->mirror.keep_addr;
    r->active = (uint32_t)rnd(t, UINT64_C(1) << lanes);
    if (rnd(t, 4) != 0u) r->active |= 1u;
    r->warp = (uint16_t)rnd(t, 64);
    r->size_log2 = (uint8_t)rnd(t, 5);
}

static int do_malloc(st_t *t)
{
    if (t->nlive >= MAX_LIVE) return 0;
    uint64_t size = rnd(t, 4) == 0u ? 1u + rnd(t, 8192) : 1u + rnd(t, 512), p;
    if (ga_rt_malloc(t->rt, size, &p) != GA_OK) return 0;
    t->live[t->nlive++] = (alloc_t){p, size};
    return publish(t);
}

static int do_free(st_t *t)
{
    if (t->nlive == 0u) return 0;
    unsigned i = (unsigned)rnd(t, t->nlive);
    alloc_t a = t->live[i];
    if (ga_rt_free(t->rt, a.ptr) != GA_OK) return 0;
    t->live[i] = t->live[--t->nlive];
    t->freed[t->freed_next] = a;
    t->freed_next = (t->freed_next + 1u) % MAX_FREED;
    if (t->nfreed < MAX_FREED) t->nfreed++;
    return publish(t);
}

/* One random step. */
static int step(st_t *t)
{
    gab_sess_t *s = t->s;
    gab_req_t r;
    memset(&r, 0, sizeof r);
    unsigned k = (unsigned)rnd(t, 100);
    if (k < 8u) return do_malloc(t);
    if (k < 13u) return do_free(t);
    if (k < 33u) {
        r.op = GAB_OP_LOADMETA;
        r.addr[0] = pick_ptr(t);
        r.active = 1;
        set_oracle(t, &r, r.addr[0]);
        return op(t, &r);
    }
    if (k < 53u) {
        r.op = GAB_OP_MEMCHECK_G;
        fill_lanes(t, &r, pick_ptr(t));
        r.md = pick_md(t, r.addr[0]) & s->mirror.keep_md;
        return op(t, &r);
    }
    if (k < 61u) {
        r.op = GAB_OP_MEMCHECK_S;
        uint64_t m = s->mirror.keep_md & UINT32_MAX;
        uint64_t base = rnd(t, 4) == 0u ? rnd(t, m + 1u) : rnd(t, 0x4000);
        uint64_t ssize = rnd(t, 4) == 0u ? rnd(t, m + 1u) : rnd(t, 0x2000);
        r.md = ((ssize & m) << 32) | (base & m);
        fill_lanes(t, &r, base + rnd(t, ssize + 32u));
        for (unsigned l = 0; l < s->lanes; l++) r.addr[l] &= UINT32_MAX & s->mirror.va_mask;
        return op(t, &r);
    }
    if (k < 76u) {
        r.op = GAB_OP_ACCESS;
        fill_lanes(t, &r, pick_ptr(t));
        set_oracle(t, &r, r.addr[0]);
        return op(t, &r);
    }
    if (k < 79u) return inval(t, rnd(t, 2) ? pick_md(t, pick_ptr(t)) & s->mirror.keep_md : t->last_rd);
    if (k < 80u) {
        r.op = GAB_OP_FLUSH;
        return op(t, &r);
    }
    if (k < 86u) {
        unsigned c = (unsigned)rnd(t, 12);
        switch (c) {
        case 0: return cfg(t, GAB_CFG_MODE, rnd(t, 2));
        case 1: return cfg(t, GAB_CFG_POLICY, rnd(t, 3) == 0u);
        case 2: return cfg(t, GAB_CFG_STEP_LIMIT, rnd(t, 2) ? 1u + rnd(t, 6) : step_reset(t));
        case 3: return cfg(t, GAB_CFG_SM_ID, rnd(t, 1u << 16));
        case 4: return cfg(t, GAB_CFG_MODE, 2u + rnd(t, 5));             /* illegal */
        case 5: /* illegal on a board: INDEX (3; the boards build ga_mlu with HasIndex 0) or 4 .. 7 */
            return cfg(t, GAB_CFG_LAYOUT, (unsigned)GA_LAYOUT_INDEX + (unsigned)rnd(t, 5));
        case 6: return cfg(t, GAB_CFG_STEP_LIMIT, 0u);                   /* illegal */
        case 7: return cfg(t, 6u + (unsigned)rnd(t, 2), rnd(t, 16));     /* no such register */
        case 8: /* a wrong ROOT for a while (restored by the next runtime call or case 9) */
            return cfg(t, GAB_CFG_ROOT, 32u * rnd(t, s->mirror.win / 32u) + (rnd(t, 4) == 0u ? 8u : 0u));
        case 9: return cfg(t, GAB_CFG_ROOT, t->root);
        case 10: return cfg(t, GAB_CFG_POLICY, 2u);                      /* illegal */
        default: return cfg(t, GAB_CFG_SM_ID, (s->mirror.keep_md >> 16) ? (1u << 16) + rnd(t, 8) : 7u);
        }
    }
    if (k < 90u) {
        r.op = GAB_OP_CLEAR_HALT;
        return op(t, &r);
    }
    if (k < 91u) {
        /* Corrupt one line until the next runtime call rewrites it: random pointers (aligned,
         * misaligned, outside the window, cyclic) and entries. */
        uint8_t line[32];
        unsigned ln = 1u + (unsigned)rnd(t, (unsigned)(s->mirror.win / 32u) - 1u);
        (void)ga_mem_read(s->mirror.mem, (uint64_t)ln * 32u, line, 32);
        unsigned w = (unsigned)rnd(t, 4);
        uint64_t v = rnd(t, 3) == 0u ? (uint64_t)ln * 32u : rnd(t, s->mirror.win * 2u) & ~UINT64_C(7);
        if (w < 2u) v = ga_le64(line + 8u * w) ^ (UINT64_C(1) << rnd(t, s->mirror.info.va_keep));
        ga_put_le64(line + 8u * w, v);
        char why[200];
        if (!gab_mirror_line_fits(&s->mirror, line, why, sizeof why)) return 0;
        if (gab_sess_mem_write(s, ln, line) != 0) {
            fprintf(stderr, "gaprobe: selftest: %s\n", s->err);
            return -1;
        }
        return 0;
    }
    if (k < 93u) return cfg(t, GAB_CFG_STEP_LIMIT, step_reset(t));
    r.op = GAB_OP_ACCESS;                                               /* plain accesses, live data */
    fill_lanes(t, &r, t->nlive ? t->live[rnd(t, t->nlive)].ptr : pick_ptr(t));
    set_oracle(t, &r, r.addr[0]);
    return op(t, &r);
}

/* Boundary check cases: one entry per case at a slot of the window. */
static int gen_cases(st_t *t, unsigned n, uint64_t seed)
{
    gab_sess_t *s = t->s;
    ga_gen_t g;
    if (n == 0u) return 0;
    if (ga_gen_init(&g, seed, 1, t->tb) != GA_OK) return -1;
    if (cfg(t, GAB_CFG_LAYOUT, 2) != 0 || cfg(t, GAB_CFG_MODE, rnd(t, 2)) != 0) return -1;
    unsigned slots = (unsigned)(s->mirror.win / 16u) - 16u, done = 0, skipped = 0;
    ga_gen_check_t c;
    while (done < n && ga_gen_next_check(&g, &c)) {
        uint64_t loc = 256u + 16u * (uint64_t)(done % slots);
        uint8_t line[32];
        (void)ga_mem_read(s->mirror.mem, loc & ~UINT64_C(31), line, 32);
        ga_put_le64(line + (loc & 16u), c.e.tb);
        ga_put_le64(line + (loc & 16u) + 8u, c.e.size);
        gab_req_t r;
        memset(&r, 0, sizeof r);
        r.addr[0] = c.p;
        r.active = 1;
        r.size_log2 = (uint8_t)(c.size == 1u ? 0 : c.size == 2u ? 1 : c.size == 4u ? 2 : c.size == 8u ? 3 : 4);
        char why[200];
        r.op = GAB_OP_MEMCHECK_G;
        r.md = loc;
        if (!gab_mirror_line_fits(&s->mirror, line, why, sizeof why) || !gab_mirror_req_fits(&s->mirror, &r, why, sizeof why)) {
            skipped++;
            continue;
        }
        if (gab_sess_mem_write(s, (unsigned)(loc / 32u), line) != 0) {
            fprintf(stderr, "gaprobe: selftest: %s\n", s->err);
            return -1;
        }
        if (inval(t, loc) != 0 || op(t, &r) != 0) return -1;
        /* LOADMETA through a one-slot table at loc: the walker's range match (spec §3.3 TABLE). */
        if (cfg(t, GAB_CFG_ROOT, loc) != 0) return -1;
        r.op = GAB_OP_LOADMETA;
        r.md = 0;
        r.orc_found = 1;
        r.orc_idx = 0;
        if (op(t, &r) != 0) return -1;
        r.op = GAB_OP_ACCESS;                   /* in HWONLY mode: the same entry from the MLB or a walk */
        if (op(t, &r) != 0) return -1;
        done++;
    }
    if (s->verbose > 1) fprintf(s->out, "selftest: %u boundary cases, %u skipped (do not fit)\n", done, skipped);
    return 0;
}

static int phase(st_t *t, unsigned ph, uint64_t ops, const gab_selftest_opts_t *o)
{
    gab_sess_t *s = t->s;
    t->layout = (ga_layout_t)(ph % 3u);
    if (gen_cases(t, o->gen_cases, o->seed * 1000u + ph) != 0) return -1;
    ga_rt_cfg_t rc;
    ga_rt_default_cfg(&rc, t->layout, t->tb, o->seed * 7919u + ph);
    /* Place the heap and the metadata region where the board can hold them: the region inside the
     * board's memory window [0, win), the heap below the build's VA limit (at most 16 MiB), the two
     * disjoint (the runtime requires it). Wide builds: region at 32, heap above the window. Narrow
     * builds whose VA limit is inside the window: heap [256, limit), region from the limit up. */
    uint64_t win = s->mirror.win;
    uint64_t node = t->layout == GA_LAYOUT_TABLE ? 16u : 32u;
    uint64_t top = s->mirror.va_mask < (UINT64_C(1) << 24) ? s->mirror.va_mask + 1u : (UINT64_C(1) << 24);
    if (top >= win + 4096u) {
        rc.md_base = 32;
        rc.heap_base = win;
    } else if (top >= 1024u && top + 16u * node <= win) {
        rc.md_base = (top + 31u) & ~UINT64_C(31);
        rc.heap_base = 256;
    } else {
        fprintf(stderr, "gaprobe: selftest: this build keeps %u VA bits: no room for a heap beside the %" PRIu64
                "-byte metadata window\n", s->info.va_keep, win);
        return -1;
    }
    rc.md_capacity = (uint32_t)((win - rc.md_base) / node);
    rc.heap_size = (top - rc.heap_base) & ~UINT64_C(255);
    if (rc.md_base > rc.heap_base && rc.heap_base + rc.heap_size > rc.md_base)
        rc.heap_size = (rc.md_base - rc.heap_base) & ~UINT64_C(255);
    rc.reclaim_threshold = 8u + (uint32_t)rnd(t, 32);
    rc.tag_neighbour_distinct = rnd(t, 2) != 0u;
    if (ga_mem_create(&t->mem) != GA_OK || ga_rt_create(&rc, t->mem, &t->rt) != GA_OK) {
        fprintf(stderr, "gaprobe: selftest: cannot create the runtime (heap 0x%" PRIx64 "+0x%" PRIx64 ")\n",
                rc.heap_base, rc.heap_size);
        return -1;
    }
    t->nlive = t->nfreed = t->freed_next = 0;
    t->root = ga_rt_root(t->rt);
    t->last_rd = 0;
    int rc2 = 0;
    if (sync_window(t) != 0 || cfg(t, GAB_CFG_LAYOUT, t->layout) != 0 || cfg(t, GAB_CFG_ROOT, t->root) != 0 ||
        cfg(t, GAB_CFG_MODE, ph % 2u) != 0 || cfg(t, GAB_CFG_POLICY, 0) != 0 ||
        cfg(t, GAB_CFG_STEP_LIMIT, step_reset(t)) != 0) {
        rc2 = -1;
    } else {
        gab_req_t r;
        memset(&r, 0, sizeof r);
        r.op = GAB_OP_CLEAR_HALT;
        if (op(t, &r) != 0) rc2 = -1;
        r.op = GAB_OP_FLUSH;
        if (rc2 == 0 && op(t, &r) != 0) rc2 = -1;
        for (unsigned i = 0; i < 24u && rc2 == 0; i++) rc2 = do_malloc(t);
        for (uint64_t i = 0; i < ops && rc2 == 0; i++) {
            rc2 = step(t);
            if (rc2 == 0 && (i + 1u) % 512u == 0u) {
                uint32_t cnt[GAB_NCNT];
                if (gab_sess_counters(s, false, cnt) != 0 || gab_sess_check_regs(s) != 0) {
                    fprintf(stderr, "gaprobe: selftest: %s\n", s->err);
                    rc2 = -1;
                }
            }
        }
    }
    uint32_t cnt[GAB_NCNT];
    if (rc2 == 0 && (gab_sess_counters(s, ph % 2u == 1u, cnt) != 0 || gab_sess_check_regs(s) != 0)) {
        fprintf(stderr, "gaprobe: selftest: %s\n", s->err);
        rc2 = -1;
    }
    if (s->verbose > 0)
        fprintf(s->out, "selftest phase %u (%s): %u live allocations, %" PRIu64 " MLU ops so far, %" PRIu64
                " mismatches\n", ph, ga_layout_name(t->layout), t->nlive, s->ops, s->mismatches);
    ga_rt_destroy(t->rt);
    ga_mem_destroy(t->mem);
    t->rt = NULL;
    t->mem = NULL;
    return rc2;
}

int gab_selftest(gab_sess_t *s, const gab_selftest_opts_t *o)
{
    st_t t;
    memset(&t, 0, sizeof t);
    t.s = s;
    t.tb = s->info.tag_bits;
    ga_rng_seed(&t.rng, o->seed);
    if (gab_sess_begin(s, true) != 0) {
        fprintf(stderr, "gaprobe: selftest: %s\n", s->err);
        return -3;
    }
    if (s->verbose > 0)
        fprintf(s->out, "selftest: seed %" PRIu64 ", %u phases, %" PRIu64 " random ops, %u boundary cases per phase\n",
                o->seed, o->phases, o->ops, o->gen_cases);
    uint64_t per = o->ops / o->phases;
    for (unsigned p = 0; p < o->phases; p++)
        if (phase(&t, p, p + 1u == o->phases ? o->ops - per * p : per, o) != 0) return -3;
    return 0;
}
