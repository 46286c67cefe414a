/*
 * ga_campaign.c — fault-injection environments and trials (see ga_campaign.h, docs/eval.md).
 */
#include "ga_campaign.h"

#include "ga_rng.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ARENA UINT64_C(0x100000000) /* the population's first slot */
#define ACC 4u                      /* bytes per injected access */
#define GS_IDS 128u                 /* GPUShield-like: 7 id bits, id 0 = unprotected */

static const char *const k_cls_name[GA_CLS_N] = {
    "Adjacent OOB", "Non-adj. Intra-scope OOB", "Non-adj. Inter-scope OOB",
    "Sub-object OOB", "Immediate Use-after-free", "Delayed Use-after-free",
};
static const char *const k_cls_id[GA_CLS_N] = {
    "adjacent_oob", "nonadj_intra_oob", "nonadj_inter_oob", "subobject_oob", "immediate_uaf", "delayed_uaf",
};

const char *ga_cls_name(ga_cls_t c) { return (unsigned)c < GA_CLS_N ? k_cls_name[c] : "?"; }
const char *ga_cls_id(ga_cls_t c) { return (unsigned)c < GA_CLS_N ? k_cls_id[c] : "?"; }

struct ga_camp {
    ga_scheme_t s;
    ga_system_t sys;
    ga_backend_t be;
    bool be_open;
    ga_rng_t g;
    unsigned n, tb;
    uint64_t *base, *cap, *size, *ptr; /* per slot; ptr 0 while the slot is empty */
    /* GPUShield-like state */
    uint8_t *id;                       /* per slot */
    bool id_used[GS_IDS];
    unsigned id_owner[GS_IDS];
    bool snap_valid[GS_IDS];
    uint64_t snap_base[GS_IDS], snap_size[GS_IDS];
};

static int err_msg(char *msg, size_t cap, const char *what, ga_err_t err)
{
    snprintf(msg, cap, "%s: %s", what, ga_strerror(err));
    return -1;
}

/* A fresh size for slot i: its whole capacity (abutting the next slot) or, half of the time, up to
 * 255 bytes less (a padding gap behind it); never under 256 B (caps are >= 512 B). */
static uint64_t rand_size(ga_camp_t *c, unsigned i)
{
    if (ga_rng_below(&c->g, 2) == 0u) return c->cap[i];
    return c->cap[i] - 1u - ga_rng_below(&c->g, 255);
}

/* Allocate slot i with size bytes at its base; GPUShield-like also takes the lowest free id. */
static int slot_alloc(ga_camp_t *c, unsigned i, uint64_t size, char *msg, size_t cap)
{
    uint64_t p;
    ga_err_t err = ga_backend_malloc_at(&c->sys, &c->be, c->base[i], size, &p);
    if (err != GA_OK) return err_msg(msg, cap, "malloc", err);
    c->size[i] = size;
    if (c->s.kind == GA_SCHEME_GPUSHIELD) {
        /* Ids name buffer roles (a kernel argument position): slot i is always id i + 1; slots past
         * the 127 ids are unprotected (id 0), the scalability limit of paper §3.2 Observation 5. */
        unsigned id = i + 1u < GS_IDS ? i + 1u : 0u;
        if (id != 0u) {
            c->id_used[id] = true;
            c->id_owner[id] = i;
        }
        c->id[i] = (uint8_t)id;
        p = ga_make_ptr(id, c->base[i], 7);
    }
    c->ptr[i] = p;
    return 0;
}

static int slot_free(ga_camp_t *c, unsigned i, char *msg, size_t cap)
{
    uint64_t p = c->ptr[i];
    if (c->s.kind == GA_SCHEME_GPUSHIELD) {
        if (c->id[i] != 0u) c->id_used[c->id[i]] = false;
        c->id[i] = 0;
        /* the runtime knows the allocation by its GPUArmor pointer: find it by address */
        ga_entry_t e;
        if (!ga_rt_find(c->sys.rt, c->base[i], &e, NULL)) return err_msg(msg, cap, "free", GA_ERR_UNKNOWN_POINTER);
        p = e.tb;
    }
    ga_err_t err = ga_backend_free(&c->sys, &c->be, p);
    if (err != GA_OK) return err_msg(msg, cap, "free", err);
    c->ptr[i] = 0;
    return 0;
}

int ga_camp_realloc(ga_camp_t *c, unsigned slot, uint64_t size, char *msg, size_t cap)
{
    if (slot >= c->n || size == 0u || size > c->cap[slot]) {
        snprintf(msg, cap, "bad slot %u or size", slot);
        return -1;
    }
    if (c->ptr[slot] != 0u && slot_free(c, slot, msg, cap) != 0) return -1;
    return slot_alloc(c, slot, size, msg, cap);
}

int ga_camp_create(ga_camp_t **out, const ga_scheme_t *s, uint64_t seed, char *msg, size_t cap)
{
    *out = NULL;
    if (cap > 0u) msg[0] = '\0';
    if (s == NULL || s->population < 3u || s->population > 65536u ||
        (s->kind == GA_SCHEME_GPUARMOR && !ga_tag_bits_ok(s->tag_bits))) {
        snprintf(msg, cap, "bad scheme");
        return -1;
    }
    ga_camp_t *c = calloc(1, sizeof *c);
    if (c == NULL) return err_msg(msg, cap, "host", GA_ERR_NO_MEMORY);
    c->s = *s;
    c->n = s->population;
    c->tb = s->kind == GA_SCHEME_GPUSHIELD ? 7u : s->tag_bits;
    ga_rng_seed(&c->g, seed);
    ga_system_cfg_t sc;
    ga_system_default_cfg(&sc, s->kind == GA_SCHEME_GPUSHIELD ? GA_LAYOUT_BST : s->layout, c->tb,
                          seed * UINT64_C(0x9E3779B97F4A7C15) + 1u);
    sc.mode = s->kind == GA_SCHEME_GPUSHIELD ? GA_MODE_COMPILER : s->mode;
    sc.rt.fixed_addresses = true;
    sc.rt.md_capacity = 4u * c->n + 4096u;
    sc.rt.tag_neighbour_distinct = s->neighbour_distinct;
    sc.rt.tag_quarantine = s->quarantine;
    c->base = calloc(c->n, sizeof *c->base);
    c->cap = calloc(c->n, sizeof *c->cap);
    c->size = calloc(c->n, sizeof *c->size);
    c->ptr = calloc(c->n, sizeof *c->ptr);
    c->id = calloc(c->n, sizeof *c->id);
    ga_err_t err = GA_ERR_NO_MEMORY;
    if (c->base == NULL || c->cap == NULL || c->size == NULL || c->ptr == NULL || c->id == NULL ||
        (err = ga_system_init(&c->sys, &sc)) != GA_OK) {
        err_msg(msg, cap, "system", err);
        free(c->base);
        free(c->cap);
        free(c->size);
        free(c->ptr);
        free(c->id);
        free(c);
        return -1;
    }
    if (ga_backend_open(s->backends, s->kind == GA_SCHEME_GPUSHIELD ? "model" : s->backend, &c->sys, NULL, &c->be, msg,
                        cap) != GA_BACKEND_OK) {
        ga_camp_destroy(c);
        return -1;
    }
    c->be_open = true;
    uint64_t at = ARENA;
    for (unsigned i = 0; i < c->n; i++) {
        c->base[i] = at;
        c->cap[i] = 256u * (2u + ga_rng_below(&c->g, 63)); /* 512 B .. 16 KiB */
        at += c->cap[i];
    }
    for (unsigned i = 0; i < c->n; i++)
        if (slot_alloc(c, i, rand_size(c, i), msg, cap) != 0) {
            ga_camp_destroy(c);
            return -1;
        }
    *out = c;
    return 0;
}

int ga_camp_check(ga_camp_t *c, char *msg, size_t cap)
{
    return c->be.check != NULL ? c->be.check(c->be.ctx, msg, cap) : 0;
}

void ga_camp_destroy(ga_camp_t *c)
{
    if (c == NULL) return;
    if (c->be_open) ga_backend_close(&c->be);
    ga_system_fini(&c->sys);
    free(c->base);
    free(c->cap);
    free(c->size);
    free(c->ptr);
    free(c->id);
    free(c);
}

unsigned ga_camp_slots(const ga_camp_t *c) { return c->n; }
uint64_t ga_camp_ptr(const ga_camp_t *c, unsigned slot) { return slot < c->n ? c->ptr[slot] : 0u; }
uint64_t ga_camp_size(const ga_camp_t *c, unsigned slot) { return slot < c->n ? c->size[slot] : 0u; }
uint64_t ga_camp_slot_cap(const ga_camp_t *c, unsigned slot) { return slot < c->n ? c->cap[slot] : 0u; }

/* GPUShield-like kernel launch: the bounds table becomes a snapshot of the ids held now. */
static void gs_launch(ga_camp_t *c)
{
    for (unsigned k = 0; k < GS_IDS; k++) {
        c->snap_valid[k] = c->id_used[k];
        if (c->id_used[k]) {
            c->snap_base[k] = c->base[c->id_owner[k]];
            c->snap_size[k] = c->size[c->id_owner[k]];
        }
    }
}

/* GPUShield-like check of one ACC-byte access: id 0 or an id with no snapshot entry passes (no
 * protection); otherwise the access must lie inside the id's bounds. */
static void gs_check(const ga_camp_t *c, uint64_t addr, ga_trial_t *t)
{
    uint64_t id = ga_tag_of(addr, 7), a = ga_va_of(addr, 7);
    t->detected = 0;
    t->kind = GA_EXC_NONE;
    if (id == 0u || !c->snap_valid[id]) return;
    bool in = a >= c->snap_base[id] && a - c->snap_base[id] < c->snap_size[id] &&
              ACC <= c->snap_size[id] - (a - c->snap_base[id]);
    if (!in) {
        t->detected = 1;
        t->kind = GA_EXC_OUT_OF_BOUNDS;
    }
}

/* Where addr lies now (tags ignored), relative to the victim slot v (its current allocation). */
static ga_landing_t landing(const ga_camp_t *c, uint64_t addr, unsigned v, bool victim_live)
{
    ga_entry_t e;
    if (!ga_rt_find(c->sys.rt, ga_va_of(addr, c->tb), &e, NULL)) return GA_LAND_GAP;
    if (ga_tag_of(e.tb, c->tb) == ga_tag_freed(c->tb)) return GA_LAND_FREED;
    if (victim_live && ga_va_of(e.tb, c->tb) == c->base[v]) return GA_LAND_SAME;
    return GA_LAND_LIVE;
}

/* GPUArmor check of one ACC-byte access at addr. COMPILER: MEMCHECK.G with md (the LOADMETA of root
 * is run first unless have_md); HWONLY: a plain access (LOADMETA + check of spec §5.4). */
static int ga_check_one(ga_camp_t *c, uint64_t root, bool have_md, uint64_t md, uint64_t addr, ga_trial_t *t,
                        char *msg, size_t cap)
{
    ga_warp_req_t q;
    ga_warp_rsp_t rsp;
    memset(&q, 0, sizeof q);
    q.lanes = 1;
    q.active = 1;
    q.size = ACC;
    q.addr[0] = addr;
    ga_err_t err;
    if (c->s.mode == GA_MODE_HWONLY) {
        err = c->be.access(c->be.ctx, 0, &q, &rsp);
    } else {
        if (!have_md && (err = c->be.loadmeta(c->be.ctx, 0, root, &md)) != GA_OK) return err_msg(msg, cap, "LOADMETA", err);
        err = c->be.memcheck_g(c->be.ctx, 0, &q, md, &rsp);
    }
    if (err != GA_OK) return err_msg(msg, cap, "check", err);
    t->detected = (rsp.fault & 1u) != 0u;
    t->kind = t->detected ? rsp.rec.kind : GA_EXC_NONE;
    return 0;
}

static int check_now(ga_camp_t *c, uint64_t root, uint64_t addr, ga_trial_t *t, char *msg, size_t cap)
{
    if (c->s.kind == GA_SCHEME_GPUSHIELD) {
        gs_launch(c);
        gs_check(c, addr, t);
        return 0;
    }
    return ga_check_one(c, root, false, 0, addr, t, msg, cap);
}

static uint64_t elem(ga_camp_t *c, uint64_t size, bool random)
{
    return random ? ACC * ga_rng_below(&c->g, size / ACC) : 0u;
}

static int trial(ga_camp_t *c, ga_cls_t cls, unsigned v, unsigned w, unsigned variant, bool random,
                 ga_trial_t *t, char *msg, size_t cap)
{
    memset(t, 0, sizeof *t);
    uint64_t pv = c->ptr[v], sv = c->size[v];
    uint64_t addr = 0, root = pv;
    switch (cls) {
    case GA_CLS_ADJ_OOB:
        addr = variant == 0u ? pv + sv : pv - ACC;
        t->land = landing(c, addr, v, true);
        if (check_now(c, root, addr, t, msg, cap) != 0) return -1;
        break;
    case GA_CLS_NONADJ_INTRA:
    case GA_CLS_NONADJ_INTER:
        /* pointer arithmetic on v's pointer (its tag or id stays) reaching an element of w */
        addr = pv + (c->base[w] - c->base[v]) + elem(c, c->size[w], random);
        if (cls == GA_CLS_NONADJ_INTER)
            root = addr;
        else if (variant == 1u)
            root = pv + ACC * (1u + (random ? ga_rng_below(&c->g, sv / ACC - 1u) : 0u));
        t->land = landing(c, addr, v, true);
        if (check_now(c, root, addr, t, msg, cap) != 0) return -1;
        break;
    case GA_CLS_SUBOBJ:
        /* struct { int a[4]; ... }: a[4 + k] is the next field, still inside the allocation */
        addr = pv + 16u + ACC * (random ? ga_rng_below(&c->g, 4) : 0u);
        t->land = landing(c, addr, v, true);
        if (check_now(c, root, addr, t, msg, cap) != 0) return -1;
        break;
    case GA_CLS_IMM_UAF: {
        addr = pv + elem(c, sv, random);
        if (c->s.kind == GA_SCHEME_GPUSHIELD) {
            if (variant == 0u) gs_launch(c); /* the kernel runs; the host frees during it */
            if (slot_free(c, v, msg, cap) != 0) return -1;
            if (variant != 0u) gs_launch(c);
            gs_check(c, addr, t);
        } else {
            uint64_t md = 0;
            bool early = variant == 0u && c->s.mode == GA_MODE_COMPILER;
            ga_err_t err;
            if (early && (err = c->be.loadmeta(c->be.ctx, 0, pv, &md)) != GA_OK) return err_msg(msg, cap, "LOADMETA", err);
            if (slot_free(c, v, msg, cap) != 0) return -1;
            if (ga_check_one(c, pv, early, md, addr, t, msg, cap) != 0) return -1;
        }
        t->land = landing(c, addr, v, false);
        return slot_alloc(c, v, rand_size(c, v), msg, cap); /* the slot is refilled */
    }
    case GA_CLS_DELAYED_UAF: {
        if (slot_free(c, v, msg, cap) != 0) return -1;
        for (unsigned k = 0; k < variant; k++) { /* other frees (each refilled) in between */
            unsigned u = (unsigned)ga_rng_below(&c->g, c->n - 1u);
            if (u >= v) u++;
            if (ga_camp_realloc(c, u, rand_size(c, u), msg, cap) != 0) return -1;
        }
        if (slot_alloc(c, v, rand_size(c, v), msg, cap) != 0) return -1;
        uint64_t span = sv < c->size[v] ? sv : c->size[v]; /* the old and the new range overlap here */
        addr = pv + elem(c, span, random);
        t->land = landing(c, addr, v, false);
        return check_now(c, pv, addr, t, msg, cap); /* the dangling base is the root, a later kernel */
    }
    default:
        snprintf(msg, cap, "bad class %d", (int)cls);
        return -1;
    }
    /* A fresh victim (new tag, new id, new size) for the next trial. */
    return ga_camp_realloc(c, v, rand_size(c, v), msg, cap);
}

int ga_camp_trial_on(ga_camp_t *c, ga_cls_t cls, unsigned victim, unsigned target, unsigned variant,
                     ga_trial_t *t, char *msg, size_t cap)
{
    if (cap > 0u) msg[0] = '\0';
    bool nonadj = cls == GA_CLS_NONADJ_INTRA || cls == GA_CLS_NONADJ_INTER;
    if (victim >= c->n || (unsigned)cls >= GA_CLS_N ||
        (nonadj && (target >= c->n || target + 1u == victim || target == victim || target == victim + 1u))) {
        snprintf(msg, cap, "bad victim %u or target %u", victim, target);
        return -1;
    }
    return trial(c, cls, victim, target, variant, false, t, msg, cap);
}

int ga_camp_trial(ga_camp_t *c, ga_cls_t cls, ga_trial_t *t, char *msg, size_t cap)
{
    if (cap > 0u) msg[0] = '\0';
    unsigned v = (unsigned)ga_rng_below(&c->g, c->n), w = 0, variant = 0;
    switch (cls) {
    case GA_CLS_ADJ_OOB:
        variant = (unsigned)ga_rng_below(&c->g, 2);
        break;
    case GA_CLS_NONADJ_INTRA:
    case GA_CLS_NONADJ_INTER:
        do
            w = (unsigned)ga_rng_below(&c->g, c->n);
        while (w == v || w + 1u == v || w == v + 1u);
        /* Fig 8: of the roots derived from the object, 55.5 : 36 are its base : an interior address */
        variant = ga_rng_below(&c->g, 915) < 555u ? 0u : 1u;
        break;
    case GA_CLS_IMM_UAF:
        variant = (unsigned)ga_rng_below(&c->g, 2);
        break;
    case GA_CLS_DELAYED_UAF:
        variant = (unsigned)ga_rng_below(&c->g, 16); /* 0 .. 15 other frees in between */
        break;
    default:
        break;
    }
    return trial(c, cls, v, w, variant, true, t, msg, cap);
}

void ga_wilson(uint64_t k, uint64_t n, double *lo, double *hi)
{
    if (n == 0u) {
        *lo = 0.0;
        *hi = 1.0;
        return;
    }
    const double z = 1.959963984540054;
    double nn = (double)n, p = (double)k / nn, z2 = z * z;
    double den = 1.0 + z2 / nn;
    double mid = (p + z2 / (2.0 * nn)) / den;
    double half = z * sqrt(p * (1.0 - p) / nn + z2 / (4.0 * nn * nn)) / den;
    *lo = mid - half < 0.0 ? 0.0 : mid - half;
    *hi = mid + half > 1.0 ? 1.0 : mid + half;
}
