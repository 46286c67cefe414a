/*
 * tb_chk.c — the lockstep checker (see tb_chk.h for the scheme; spec §8 for the contract).
 *
 * Per request in flight the checker keeps a small state machine, "what must the DUT commit next for
 * this request", driven by the DUT's events and its response:
 *
 *   PH_LOOKUP  an MLB lookup (range for LOADMETA and HWOnly leaders, location for MEMCHECK.G)
 *   PH_WALK    a walk / fetch job is queued; its reads are on the memory port
 *   PH_FILL    the job ended with an entry to fill: a FILL or FILL_DROP must commit next
 *   PH_MAINT   an INVAL or FLUSH event must commit (OP_INVALIDATE / OP_FLUSH)
 *   PH_DONE    nothing more may commit; the response may come
 *
 * A request whose events went wrong (wrong kind) is marked desynchronised: its later events and its
 * response fields are no longer predicted (the mismatch has been reported already), so one bug does
 * not drown the log.
 *
 * Configuration is captured at acceptance (spec §8): a CFG_WRITE and a CLEAR_HALT take effect on the
 * checker's registers when they are accepted, not when they answer, and every request keeps a copy of
 * the registers as they were when it was accepted (txn_t.reg). Its walk (LAYOUT, ROOT, STEP_LIMIT),
 * its record's SM_ID, whether it halts the unit (POLICY) and whether an ACCESS is checked (MODE) come
 * from that copy, never from the live registers, so a write accepted while a miss is in flight is
 * predicted exactly. The halt takes effect for requests accepted from the cycle its response is
 * handed over; a request accepted in that same cycle (reported to the checker just before the
 * response) is refused after the fact, and a CLEAR_HALT accepted then clears it (halt_now()).
 */
#include "tb_chk.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ga_check.h"
#include "ga_mlb.h"
#include "ga_refsearch.h"
#include "ga_walker.h"
#include "tb_memsys.h"

enum { PH_LOOKUP, PH_WALK, PH_FILL, PH_MAINT, PH_DONE };
enum { JOB_WALK, JOB_FETCH };

typedef struct {
    bool live, desync;
    tb_req_t req;
    uint64_t cycle; /* accepted */
    uint8_t phase;
    uint8_t exp_status;
    ga_mlu_cfg_t reg; /* the registers as of acceptance (before a CFG_WRITE's own effect) */
    /* the lookup or job under way */
    bool want_loc;  /* PH_LOOKUP: location lookup (else range) */
    uint8_t lane;   /* leader lane */
    uint64_t key;   /* pointer (range, walk) or location (loc, fetch) */
    uint8_t job_kind;
    ga_walk_cfg_t wc;
    uint64_t gen0;  /* MLB generation when the miss committed (spec §6.5) */
    bool starved;   /* the job's replay ran out of observed reads (reported once) */
    bool job_done;  /* the job has been replayed (possibly early, for a later job's sake) */
    bool job_pending; /* a job is queued and not replayed yet */
    bool owner;     /* in the walker-owner queue */
    /* fill candidate (PH_FILL) */
    ga_entry_t fe;
    uint64_t floc;
    /* results */
    uint64_t rd;             /* LOADMETA */
    int walk_status;         /* LOADMETA: -1 no walk (hit or unchecked) */
    ga_md_state_t ms;        /* MEMCHECK.G */
    ga_entry_t e;
    uint32_t pending;        /* HWOnly lanes still to decide */
    uint8_t kinds[TB_LANES_MAX];
    uint64_t mds[TB_LANES_MAX];
    ga_entry_t ents[TB_LANES_MAX];
    /* third opinion */
    bool ref_ok0, tainted;
    uint64_t epoch0;
} txn_t;

typedef struct {
    uint64_t addr;
    uint8_t len;      /* bytes: 16, 32 or 128 */
    uint8_t beats;    /* response beats taken so far: 1 for 16 and 32 bytes, 4 for 128 */
    bool has_rsp, err, inj; /* has_rsp: every beat arrived; err / inj: on any beat */
    uint8_t data[128];
    uint64_t cycle;
} obs_read_t;

typedef struct {
    uint64_t va, idx;
    bool has_rsp, found, lie;
    uint64_t cycle;
} obs_orc_t;

/* A growable ring buffer of fixed-size records. */
typedef struct {
    void *buf;
    size_t esz, cap, head, n;
} ring_t;

static void ring_init(ring_t *r, size_t esz)
{
    r->esz = esz;
    r->cap = 64;
    r->head = 0;
    r->n = 0;
    r->buf = calloc(r->cap, esz);
    if (r->buf == NULL) {
        fprintf(stderr, "tb_chk: out of memory\n");
        exit(2);
    }
}
static void *ring_at(const ring_t *r, size_t i) { return (char *)r->buf + ((r->head + i) % r->cap) * r->esz; }
static void *ring_push(ring_t *r)
{
    if (r->n == r->cap) {
        void *nb = calloc(r->cap * 2u, r->esz);
        if (nb == NULL) {
            fprintf(stderr, "tb_chk: out of memory\n");
            exit(2);
        }
        for (size_t i = 0; i < r->n; i++) memcpy((char *)nb + i * r->esz, ring_at(r, i), r->esz);
        free(r->buf);
        r->buf = nb;
        r->head = 0;
        r->cap *= 2u;
    }
    void *p = ring_at(r, r->n);
    r->n++;
    memset(p, 0, r->esz);
    return p;
}
static void ring_pop(ring_t *r)
{
    r->head = (r->head + 1u) % r->cap;
    r->n--;
}

struct tb_chk {
    tb_chk_cfg_t cfg;
    ga_mlb_t mlb;
    ga_mlu_cfg_t reg;  /* as of the latest acceptance */
    bool halted;
    uint16_t acc_id;   /* the request accepted last, and in which cycle (halt_now()) */
    uint64_t acc_cycle;
    bool acc_any;
    txn_t *txn; /* indexed by id */
    unsigned nids, in_flight;
    ring_t jobs;  /* uint16_t ids: the walker's owners in order (own()) */
    ring_t reads; /* obs_read_t */
    ring_t orcs;  /* obs_orc_t */
    txn_t *rp;    /* the job being replayed */
    bool rp_freed; /* its walk read the freed index's root (INDEX) */
    uint64_t cycle;
    /* third opinion */
    ga_mem_t *mem;
    ga_rt_t *rt;
    uint64_t slots;
    bool ref_on;
    uint64_t free_epoch, unsettled;
    /* reporting */
    tb_chk_stats_t st;
    tb_chk_mismatch_fn on_mm;
    void *on_mm_ctx;
};

static const char *const op_names[TB_OPS] = { "LOADMETA", "MEMCHECK_G", "MEMCHECK_S", "ACCESS",
                                              "INVALIDATE", "FLUSH", "CFG_WRITE", "CLEAR_HALT" };
static const char *const ev_names[8] = { "RANGE_HIT", "RANGE_MISS", "LOC_HIT", "LOC_MISS",
                                         "FILL", "FILL_DROP", "INVAL", "FLUSH" };
const char *tb_op_name(unsigned op) { return op < TB_OPS ? op_names[op] : "?"; }
const char *tb_ev_name(unsigned ev) { return ev < 8u ? ev_names[ev] : "?"; }
const char *tb_status_name(unsigned st)
{
    switch (st) {
    case TB_ST_OK: return "OK";
    case TB_ST_HALTED: return "HALTED";
    case TB_ST_CFG_ERROR: return "CFG_ERROR";
    default: return "?";
    }
}

/* ---------------------------------------------------------------------------------------------- */
/* Reporting                                                                                      */

static void vreport(tb_chk_t *c, const tb_req_t *r, const char *field, const char *fmt, va_list ap)
{
    c->st.mismatches++;
    if (c->st.mismatches <= c->cfg.max_print) {
        fprintf(stdout, "MISMATCH seed=0x%016" PRIx64 " op=%" PRIu64, c->cfg.seed, r != NULL ? r->opidx : UINT64_MAX);
        if (r != NULL && r->op < TB_OPS) {
            fprintf(stdout, " id=%u %s", r->id, tb_op_name(r->op));
            if (r->file != NULL) fprintf(stdout, " (%s:%u)", r->file, r->line);
        }
        fprintf(stdout, " cycle=%" PRIu64 ": %s: ", c->cycle, field);
        vfprintf(stdout, fmt, ap);
        fputc('\n', stdout);
        if (c->st.mismatches == c->cfg.max_print)
            fprintf(stdout, "MISMATCH (further mismatches are counted, not printed)\n");
    }
    if (c->on_mm != NULL) c->on_mm(c->on_mm_ctx, r != NULL ? r->opidx : 0u, c->cycle);
}

/* The model's MLB, one line per entry (printed after MLB mismatches in verbose runs). */
static void dump_mlb(const tb_chk_t *c)
{
    printf("      model MLB (gen %" PRIu64 "):\n", c->mlb.gen);
    for (unsigned i = 0; i < c->mlb.n; i++)
        printf("        [%2u] %c age %2u loc 0x%" PRIx64 " tb 0x%" PRIx64 " size 0x%" PRIx64 "\n", i,
               c->mlb.valid[i] ? 'V' : '-', c->mlb.age[i], c->mlb.loc[i], c->mlb.e[i].tb, c->mlb.e[i].size);
}

static void mm(tb_chk_t *c, const txn_t *t, const char *field, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void mm(tb_chk_t *c, const txn_t *t, const char *field, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vreport(c, t != NULL ? &t->req : NULL, field, fmt, ap);
    va_end(ap);
    if (c->cfg.verbose && strncmp(field, "ev_", 3) == 0) dump_mlb(c);
}

void tb_chk_fail(tb_chk_t *c, uint64_t opidx, const char *fmt, ...)
{
    tb_req_t r;
    memset(&r, 0, sizeof r);
    r.opidx = opidx;
    r.op = TB_OPS;
    va_list ap;
    va_start(ap, fmt);
    vreport(c, opidx == UINT64_MAX ? NULL : &r, "harness", fmt, ap);
    va_end(ap);
}

/* Compare one response field; true when equal. */
static bool cmp(tb_chk_t *c, const txn_t *t, const char *field, uint64_t exp, uint64_t got)
{
    if (exp == got) return true;
    mm(c, t, field, "expected 0x%" PRIx64 " got 0x%" PRIx64, exp, got);
    return false;
}

/* ---------------------------------------------------------------------------------------------- */
/* Life cycle                                                                                      */

tb_chk_t *tb_chk_create(const tb_chk_cfg_t *cfg)
{
    tb_chk_t *c = calloc(1, sizeof *c);
    if (c == NULL) return NULL;
    c->cfg = *cfg;
    if (ga_mlb_init(&c->mlb, cfg->mlb_entries, cfg->tag_bits) != GA_OK || cfg->lanes < 1u ||
        cfg->lanes > TB_LANES_MAX || cfg->id_bits < 1u || cfg->id_bits > 16u) {
        free(c);
        return NULL;
    }
    c->reg.mode = GA_MODE_COMPILER;
    c->reg.layout = GA_LAYOUT_BST;
    c->reg.root = 0;
    c->reg.step_limit = GA_STEP_LIMIT_RESET;
    c->reg.policy = GA_POLICY_REPORT;
    c->reg.sm_id = 0;
    c->nids = 1u << cfg->id_bits;
    c->txn = calloc(c->nids, sizeof *c->txn);
    if (c->txn == NULL) {
        free(c);
        return NULL;
    }
    ring_init(&c->jobs, sizeof(uint16_t));
    ring_init(&c->reads, sizeof(obs_read_t));
    ring_init(&c->orcs, sizeof(obs_orc_t));
    return c;
}

void tb_chk_destroy(tb_chk_t *c)
{
    if (c == NULL) return;
    free(c->jobs.buf);
    free(c->reads.buf);
    free(c->orcs.buf);
    free(c->txn);
    free(c);
}

void tb_chk_on_mismatch(tb_chk_t *c, tb_chk_mismatch_fn fn, void *ctx)
{
    c->on_mm = fn;
    c->on_mm_ctx = ctx;
}

void tb_chk_set_world(tb_chk_t *c, ga_mem_t *mem, ga_rt_t *rt, uint64_t table_slots)
{
    c->mem = mem;
    c->rt = rt;
    c->slots = table_slots;
    c->ref_on = mem != NULL && rt != NULL;
}

void tb_chk_set_ref_enabled(tb_chk_t *c, bool on) { c->ref_on = on && c->mem != NULL && c->rt != NULL; }

void tb_chk_note_free(tb_chk_t *c, unsigned n_invals)
{
    c->free_epoch++;
    c->unsettled += n_invals;
}

void tb_chk_cycle(tb_chk_t *c, uint64_t cycle) { c->cycle = cycle; }
unsigned tb_chk_in_flight(const tb_chk_t *c) { return c->in_flight; }
bool tb_chk_halted(const tb_chk_t *c) { return c->halted; }
const ga_mlu_cfg_t *tb_chk_regs(const tb_chk_t *c) { return &c->reg; }
const ga_mlb_t *tb_chk_mlb(const tb_chk_t *c) { return &c->mlb; }
tb_chk_stats_t tb_chk_stats(const tb_chk_t *c) { return c->st; }

bool tb_chk_oldest(const tb_chk_t *c, tb_req_t *r, uint64_t *accept_cycle)
{
    const txn_t *best = NULL;
    for (unsigned i = 0; i < c->nids; i++)
        if (c->txn[i].live && (best == NULL || c->txn[i].cycle < best->cycle)) best = &c->txn[i];
    if (best == NULL) return false;
    *r = best->req;
    *accept_cycle = best->cycle;
    return true;
}

/* ---------------------------------------------------------------------------------------------- */
/* Job replay                                                                                      */

/* memif read: the next observed read must be the one the model asks for. */
static int rp_read(void *ctx, uint64_t addr, uint32_t len, uint8_t *buf)
{
    tb_chk_t *c = ctx;
    txn_t *t = c->rp;
    memset(buf, 0, len);
    if (t->starved) return 1;
    if (c->reads.n == 0 || !((obs_read_t *)ring_at(&c->reads, 0))->has_rsp) {
        mm(c, t, "mem_req",
           "model expects a %u-byte read at 0x%" PRIx64 " for the %s for lane %u, but the DUT %s", len, addr,
           t->job_kind == JOB_WALK ? "walk" : "fetch", t->lane,
           c->reads.n == 0 ? "issued no further read before this point"
                           : "has not received that read's response yet");
        t->starved = true;
        return 1;
    }
    obs_read_t *o = ring_at(&c->reads, 0);
    if (o->addr != addr || o->len != len)
        mm(c, t, "mem_req", "expected %u-byte read at 0x%" PRIx64 ", DUT read %u bytes at 0x%" PRIx64 " (cycle %" PRIu64 ")",
           len, addr, o->len, o->addr, o->cycle);
    memcpy(buf, o->data, len);
    int err = o->err ? 1 : 0;
    t->tainted = t->tainted || o->inj || o->err;
    c->st.reads++;
    if (o->err) c->st.read_errors++;
    if (o->len == 128u) {
        c->st.node128_reads++;
        if (t->job_kind == JOB_WALK && t->wc.layout == GA_LAYOUT_INDEX && addr == t->wc.root - 128u)
            c->rp_freed = true; /* the walk went on into the freed index (spec §3.3 *None*) */
        if (o->err) c->st.node128_errors++;
    }
    ring_pop(&c->reads);
    return err;
}

static int rp_oracle(void *ctx, uint64_t va, uint64_t *idx)
{
    tb_chk_t *c = ctx;
    txn_t *t = c->rp;
    *idx = 0;
    if (t->starved) return 0;
    if (c->orcs.n == 0 || !((obs_orc_t *)ring_at(&c->orcs, 0))->has_rsp) {
        mm(c, t, "orc_req", "model expects an oracle query for va 0x%" PRIx64 ", but the DUT %s", va,
           c->orcs.n == 0 ? "made none before this point" : "has not received its answer yet");
        t->starved = true;
        return 0;
    }
    obs_orc_t *o = ring_at(&c->orcs, 0);
    if (o->va != va) mm(c, t, "orc_req_va", "expected 0x%" PRIx64 " got 0x%" PRIx64, va, o->va);
    int found = o->found ? 1 : 0;
    *idx = o->idx;
    t->tainted = t->tainted || o->lie;
    c->st.oracle_queries++;
    ring_pop(&c->orcs);
    return found;
}

/* Replay the job of t with the observed reads. */
static void replay(tb_chk_t *c, txn_t *t)
{
    ga_memif_t mi;
    mi.read = rp_read;
    mi.read_ctx = c;
    mi.oracle = rp_oracle;
    mi.oracle_ctx = c;
    c->rp = t;
    if (t->job_kind == JOB_WALK) {
        t->rd = 0;
        c->rp_freed = false;
        ga_walk_result_t w = ga_walk(&t->wc, &mi, t->key);
        c->st.walks++;
        if (t->wc.layout == GA_LAYOUT_INDEX && (unsigned)w.status < 5u) {
            c->st.index_walks[w.status]++;
            if (c->rp_freed) c->st.index_freed_walks[w.status]++;
        }
        t->walk_status = (int)w.status;
        t->fe = w.entry;
        t->floc = w.loc;
    } else {
        ga_entry_t e;
        t->ms = ga_fetch_entry(&mi, t->key, &e, NULL);
        c->st.fetches++;
        t->e = e;
        t->fe = e;
        t->floc = t->key;
    }
    c->rp = NULL;
}

/* The walker's owners, in the order they own it (microarchitecture §1.7, "walker order"): a
 * LOADMETA or MEMCHECK.G from the miss event that makes it wait for the walker, an HWOnly ACCESS from
 * its first leader lookup; an owner keeps the walker for all its walks. */
static void own(tb_chk_t *c, txn_t *t)
{
    if (t->owner) return;
    t->owner = true;
    *(uint16_t *)ring_push(&c->jobs) = t->req.id;
}

/* Replay the pending jobs of the owners before t, then t's own. An owner before t has finished with
 * the walker (t's walk has ended, so every earlier owner's walks ended before it began). */
static void resolve_until(tb_chk_t *c, txn_t *t)
{
    while (c->jobs.n > 0) {
        txn_t *h = &c->txn[*(uint16_t *)ring_at(&c->jobs, 0)];
        if (h->job_pending) {
            replay(c, h);
            h->job_pending = false;
            h->job_done = true; /* applied by settle() when h's own next event or response comes */
        }
        if (h == t) return;
        ring_pop(&c->jobs);
        h->owner = false;
    }
    mm(c, t, "internal", "this request's walk is not in the walker queue");
}

/* t no longer needs the walker (its response): it must be the first owner, unless quiet (a request
 * already reported as out of step, removed wherever it is). */
static void disown(tb_chk_t *c, txn_t *t, bool quiet)
{
    if (!t->owner) return;
    t->owner = false;
    t->job_pending = false;
    for (size_t i = 0; i < c->jobs.n; i++) {
        if (&c->txn[*(uint16_t *)ring_at(&c->jobs, i)] != t) continue;
        if (i != 0 && !quiet) mm(c, t, "internal", "responded while earlier walker owners are still pending");
        for (size_t j = i; j + 1u < c->jobs.n; j++)
            *(uint16_t *)ring_at(&c->jobs, j) = *(uint16_t *)ring_at(&c->jobs, j + 1u);
        c->jobs.n--;
        return;
    }
}

/* ---------------------------------------------------------------------------------------------- */
/* Per-request prediction                                                                         */

static uint64_t tag_of(const tb_chk_t *c, uint64_t p) { return ga_tag_of(p, c->cfg.tag_bits); }

/* Next HWOnly leader (spec §5.4): forged freed tags are decided without a lookup. */
static void next_leader(tb_chk_t *c, txn_t *t)
{
    uint64_t freed = ga_tag_freed(c->cfg.tag_bits);
    while (t->pending != 0u) {
        unsigned k = (unsigned)__builtin_ctz(t->pending);
        if (tag_of(c, t->req.addr[k]) == freed) {
            t->kinds[k] = GA_EXC_NO_METADATA;
            t->pending &= ~(UINT32_C(1) << k);
            continue;
        }
        t->phase = PH_LOOKUP;
        t->want_loc = false;
        t->lane = (uint8_t)k;
        t->key = t->req.addr[k];
        return;
    }
    t->phase = PH_DONE;
}

/* HWOnly: lanes decided by a matching entry e at L (spec §5.4 "G"). */
static void hw_group(tb_chk_t *c, txn_t *t, ga_entry_t e, uint64_t loc)
{
    unsigned tb = c->cfg.tag_bits;
    for (unsigned j = 0; j < c->cfg.lanes; j++) {
        if (((t->pending >> j) & 1u) == 0u) continue;
        if (j != t->lane && !ga_entry_matches(e, t->req.addr[j], tb)) continue;
        t->kinds[j] = ga_access_in_bounds(e, t->req.addr[j], 1u << t->req.size_log2, tb) ? GA_EXC_NONE
                                                                                         : GA_EXC_OUT_OF_BOUNDS;
        t->mds[j] = loc;
        t->ents[j] = e;
        t->pending &= ~(UINT32_C(1) << j);
    }
}

/* The lookup of t hit MLB entry s. */
static void lookup_hit(tb_chk_t *c, txn_t *t, unsigned s)
{
    switch (t->req.op) {
    case TB_OP_LOADMETA:
        t->rd = c->mlb.loc[s];
        t->phase = PH_DONE;
        break;
    case TB_OP_MEMCHECK_G:
        t->ms = GA_MD_OK;
        t->e = c->mlb.e[s];
        t->phase = PH_DONE;
        break;
    default: /* ACCESS, HWOnly */
        hw_group(c, t, c->mlb.e[s], c->mlb.loc[s]);
        next_leader(c, t);
        break;
    }
}

/* The lookup of t missed: queue its job. */
static void lookup_miss(tb_chk_t *c, txn_t *t)
{
    t->gen0 = c->mlb.gen;
    t->job_kind = t->want_loc ? JOB_FETCH : JOB_WALK;
    t->wc.layout = t->reg.layout; /* as of acceptance (spec §8): a parked op or a later HWOnly leader */
    t->wc.root = t->reg.root;     /* walks with what its request was accepted under */
    t->wc.step_limit = t->reg.step_limit;
    t->wc.tag_bits = c->cfg.tag_bits;
    if (t->reg.layout != c->reg.layout || t->reg.root != c->reg.root || t->reg.step_limit != c->reg.step_limit)
        c->st.stale_walk++;
    t->starved = false;
    t->job_done = false;
    t->job_pending = true;
    t->phase = PH_WALK;
    own(c, t);
}

/* The job of t has been replayed: decide what must commit next. */
static void apply_job(tb_chk_t *c, txn_t *t)
{
    unsigned tb = c->cfg.tag_bits;
    if (t->job_kind == JOB_FETCH) {
        bool fill = t->ms == GA_MD_OK && ga_tag_is_valid(ga_tag_of(t->e.tb, tb), tb);
        t->phase = fill ? PH_FILL : PH_DONE;
        return;
    }
    ga_walk_status_t ws = (ga_walk_status_t)t->walk_status;
    if (t->req.op == TB_OP_LOADMETA) {
        t->rd = ws == GA_WALK_FOUND ? t->floc : 0u;
        t->phase = ws == GA_WALK_FOUND ? PH_FILL : PH_DONE;
        return;
    }
    /* HWOnly leader */
    unsigned k = t->lane;
    if (ws == GA_WALK_FOUND) {
        hw_group(c, t, t->fe, t->floc);
        t->phase = PH_FILL;
        return;
    }
    if (ws == GA_WALK_RANGE_ONLY) {
        t->kinds[k] = ga_tag_of(t->fe.tb, tb) == ga_tag_freed(tb) ? GA_EXC_USE_AFTER_FREE : GA_EXC_TAG_MISMATCH;
        t->mds[k] = t->floc;
        t->ents[k] = t->fe;
    } else if (ws == GA_WALK_FAULT || ws == GA_WALK_STEP_LIMIT) {
        t->kinds[k] = GA_EXC_METADATA_FAULT;
    } else {
        t->kinds[k] = GA_EXC_NO_METADATA;
    }
    t->pending &= ~(UINT32_C(1) << k);
    next_leader(c, t);
}

/* If t waits on a job, replay it now (its result is needed). */
static void settle(tb_chk_t *c, txn_t *t)
{
    if (t->phase != PH_WALK) return;
    if (!t->job_done) resolve_until(c, t);
    t->job_done = false;
    apply_job(c, t);
}

/* ---------------------------------------------------------------------------------------------- */
/* Requests                                                                                        */

/* Apply a legal CFG_WRITE to the registers; false (unchanged) for an illegal one (spec §5.1). */
static bool cfg_write(ga_mlu_cfg_t *reg, unsigned addr, uint64_t v, bool no_index)
{
    switch (addr) {
    case TB_CFG_MODE:
        if (v > 1u) return false;
        reg->mode = (ga_mode_t)v;
        return true;
    case TB_CFG_LAYOUT:
        if (v >= (no_index ? (uint64_t)GA_LAYOUT_INDEX : (uint64_t)GA_LAYOUTS)) return false;
        reg->layout = (ga_layout_t)v;
        return true;
    case TB_CFG_ROOT: reg->root = v; return true;
    case TB_CFG_STEP_LIMIT:
        if (v == 0u || v > UINT32_MAX) return false;
        reg->step_limit = (uint32_t)v;
        return true;
    case TB_CFG_POLICY:
        if (v > 1u) return false;
        reg->policy = (ga_policy_t)v;
        return true;
    case TB_CFG_SM_ID:
        if (v > UINT16_MAX) return false;
        reg->sm_id = (uint16_t)v;
        return true;
    default: return false;
    }
}

static bool refused_when_halted(const tb_chk_t *c, unsigned op)
{
    switch (op) {
    case TB_OP_LOADMETA:
    case TB_OP_MEMCHECK_G:
    case TB_OP_MEMCHECK_S:
    case TB_OP_ACCESS: return true;
    case TB_OP_INVALIDATE:
    case TB_OP_FLUSH:
    case TB_OP_CFG_WRITE: return c->cfg.halt_refuses_maint;
    default: return false;
    }
}

void tb_chk_req(tb_chk_t *c, const tb_req_t *r)
{
    if (r->id >= c->nids) {
        tb_chk_fail(c, r->opidx, "request id %u out of range", r->id);
        return;
    }
    txn_t *t = &c->txn[r->id];
    if (t->live) {
        tb_chk_fail(c, r->opidx, "request id %u reused while in flight (op %" PRIu64 ")", r->id, t->req.opidx);
        return;
    }
    memset(t, 0, sizeof *t);
    t->live = true;
    t->req = *r;
    t->cycle = c->cycle;
    t->walk_status = -1;
    t->exp_status = TB_ST_OK;
    t->phase = PH_DONE;
    t->ref_ok0 = c->ref_on && c->unsettled == 0u;
    t->epoch0 = c->free_epoch;
    t->reg = c->reg;
    if ((r->op == TB_OP_CFG_WRITE || r->op == TB_OP_CLEAR_HALT) && c->in_flight > 0u) c->st.cfg_under_load++;
    c->acc_id = r->id;
    c->acc_cycle = c->cycle;
    c->acc_any = true;
    c->in_flight++;
    if (r->op < TB_OPS) c->st.req[r->op]++;
    if (c->cfg.verbose) {
        printf("  [%" PRIu64 "] req id=%u %s op=%" PRIu64 " size=%u active=0x%x md=0x%" PRIx64 " cfg=%u addr", c->cycle,
               r->id, tb_op_name(r->op), r->opidx, 1u << r->size_log2, r->active, r->md, r->cfg_addr);
        for (unsigned l = 0; l < c->cfg.lanes; l++) printf(" %" PRIx64, r->addr[l]);
        printf("\n");
    }

    unsigned tb = c->cfg.tag_bits;
    if (c->halted && refused_when_halted(c, r->op)) {
        t->exp_status = TB_ST_HALTED;
        return;
    }
    uint32_t lanes_mask = c->cfg.lanes >= 32u ? UINT32_MAX : ((UINT32_C(1) << c->cfg.lanes) - 1u);
    uint32_t tagged = 0;
    for (unsigned l = 0; l < c->cfg.lanes; l++)
        if (((r->active >> l) & 1u) != 0u && ga_tag_of(r->addr[l], tb) != 0u) tagged |= UINT32_C(1) << l;
    tagged &= lanes_mask;

    switch (r->op) {
    case TB_OP_LOADMETA:
        if (ga_tag_is_valid(ga_tag_of(r->addr[0], tb), tb)) {
            t->phase = PH_LOOKUP;
            t->want_loc = false;
            t->lane = 0;
            t->key = r->addr[0];
        }
        break;
    case TB_OP_MEMCHECK_G:
        t->ms = GA_MD_NONE;
        if (r->md != 0u && tagged != 0u) {
            if (r->md % GA_ENTRY_BYTES != 0u) {
                t->ms = GA_MD_FAULT;
            } else {
                t->phase = PH_LOOKUP;
                t->want_loc = true;
                t->key = r->md;
            }
        }
        break;
    case TB_OP_ACCESS:
        if (t->reg.mode == GA_MODE_HWONLY) {
            t->pending = tagged;
            next_leader(c, t);
        }
        break;
    case TB_OP_INVALIDATE:
    case TB_OP_FLUSH: t->phase = PH_MAINT; break;
    case TB_OP_CFG_WRITE: /* takes effect at acceptance: the next request is accepted under it */
        t->exp_status = cfg_write(&c->reg, r->cfg_addr, r->md, c->cfg.no_index) ? TB_ST_OK : TB_ST_CFG_ERROR;
        break;
    case TB_OP_CLEAR_HALT: c->halted = false; break;
    default: break;
    }
}

/* A faulting response of an operation accepted under TERMINATE is being handed over: the unit is
 * halted from this cycle on (spec §4.5). The DUT registered the response in an earlier cycle and no
 * request can be accepted while it waits, so only a request accepted in this very cycle (reported
 * before the response) was accepted while halted: it is refused after the fact (nothing of it has
 * committed yet: its events are registered, seen from the next cycle), and a CLEAR_HALT accepted in
 * this cycle clears the halt again. */
static void halt_now(tb_chk_t *c)
{
    if (c->acc_any && c->acc_cycle == c->cycle && c->acc_id < c->nids && c->txn[c->acc_id].live) {
        txn_t *a = &c->txn[c->acc_id];
        if (a->req.op == TB_OP_CLEAR_HALT) return;
        if (a->exp_status != TB_ST_HALTED && refused_when_halted(c, a->req.op)) {
            if (a->req.op == TB_OP_CFG_WRITE) c->reg = a->reg; /* refused: the write did not happen */
            a->exp_status = TB_ST_HALTED;
            a->phase = PH_DONE;
            a->pending = 0;
        }
    }
    c->halted = true;
}

/* ---------------------------------------------------------------------------------------------- */
/* Memory and oracle transfers                                                                     */

void tb_chk_mem_req(tb_chk_t *c, uint64_t addr, unsigned len_code)
{
    obs_read_t *o = ring_push(&c->reads);
    o->addr = addr;
    o->len = (uint8_t)tb_mem_len_bytes(len_code);
    o->beats = 0;
    o->has_rsp = o->err = o->inj = false;
    o->cycle = c->cycle;
    if (c->cfg.verbose) printf("  [%" PRIu64 "] mem_req 0x%" PRIx64 " len %u\n", c->cycle, addr, o->len);
}

void tb_chk_mem_rsp(tb_chk_t *c, const uint8_t *data, bool err, bool injected)
{
    for (size_t i = 0; i < c->reads.n; i++) {
        obs_read_t *o = ring_at(&c->reads, i);
        if (o->has_rsp) continue;
        /* A 128-byte read comes in four 32-byte beats in address order (microarchitecture §1.3). */
        unsigned nbeats = o->len > 32u ? o->len / 32u : 1u;
        memcpy(o->data + 32u * o->beats, data, 32);
        o->err = o->err || err;
        o->inj = o->inj || injected;
        o->beats++;
        o->has_rsp = o->beats >= nbeats;
        if (c->cfg.verbose)
            printf("  [%" PRIu64 "] mem_rsp err=%d data %016" PRIx64 " %016" PRIx64 " %016" PRIx64 " %016" PRIx64 "\n", c->cycle, err,
                   ga_le64(data), ga_le64(data + 8), ga_le64(data + 16), ga_le64(data + 24));
        return;
    }
    /* The memory model only answers reads it accepted; this is a harness bug. */
    tb_chk_fail(c, UINT64_MAX, "memory response without an outstanding read");
}

void tb_chk_orc_req(tb_chk_t *c, uint64_t va)
{
    obs_orc_t *o = ring_push(&c->orcs);
    o->va = va;
    o->cycle = c->cycle;
}

void tb_chk_orc_rsp(tb_chk_t *c, bool found, uint64_t idx, bool lie)
{
    for (size_t i = 0; i < c->orcs.n; i++) {
        obs_orc_t *o = ring_at(&c->orcs, i);
        if (o->has_rsp) continue;
        o->has_rsp = true;
        o->found = found;
        o->idx = idx;
        o->lie = lie;
        return;
    }
    tb_chk_fail(c, UINT64_MAX, "oracle answer without an outstanding query");
}

/* ---------------------------------------------------------------------------------------------- */
/* MLB events                                                                                       */

static const char *phase_want(const txn_t *t)
{
    switch (t->phase) {
    case PH_LOOKUP: return t->want_loc ? "LOC_HIT or LOC_MISS" : "RANGE_HIT or RANGE_MISS";
    case PH_WALK: return "the end of its walk";
    case PH_FILL: return "FILL or FILL_DROP";
    case PH_MAINT: return t->req.op == TB_OP_INVALIDATE ? "INVAL" : "FLUSH";
    default: return "nothing (all its events committed)";
    }
}

void tb_chk_event(tb_chk_t *c, unsigned kind, unsigned id, unsigned slot, unsigned lane)
{
    if (c->cfg.verbose)
        printf("  [%" PRIu64 "] ev %s id=%u slot=%u lane=%u\n", c->cycle, tb_ev_name(kind), id, slot, lane);
    if (id >= c->nids || !c->txn[id].live) {
        mm(c, NULL, "ev_id", "event %s for id %u, which has no request in flight", tb_ev_name(kind), id);
        return;
    }
    txn_t *t = &c->txn[id];
    if (t->desync) return;
    /* §1.7: ev_slot only for hits and fills, ev_lane only for an ACCESS's range lookups and fills */
    if (kind != TB_EV_RANGE_HIT && kind != TB_EV_LOC_HIT && kind != TB_EV_FILL && slot != 0u)
        mm(c, t, "ev_slot", "%s carries slot %u; expected 0", tb_ev_name(kind), slot);
    if ((t->req.op != TB_OP_ACCESS || kind == TB_EV_LOC_HIT || kind == TB_EV_LOC_MISS) && lane != 0u)
        mm(c, t, "ev_lane", "%s of a %s carries lane %u; expected 0", tb_ev_name(kind), tb_op_name(t->req.op), lane);
    settle(c, t);
    unsigned n = c->mlb.n;

    switch (t->phase) {
    case PH_LOOKUP: {
        bool hit_k = kind == (t->want_loc ? TB_EV_LOC_HIT : TB_EV_RANGE_HIT);
        bool miss_k = kind == (t->want_loc ? TB_EV_LOC_MISS : TB_EV_RANGE_MISS);
        if (!hit_k && !miss_k) break;
        if (t->req.op == TB_OP_ACCESS && lane != t->lane)
            mm(c, t, "ev_lane", "lookup for leader lane %u expected, event names lane %u", t->lane, lane);
        if (t->req.op == TB_OP_ACCESS) own(c, t); /* the HWOnly sequencer holds the walker */
        int s = t->want_loc ? ga_mlb_lookup_loc(&c->mlb, t->key) : ga_mlb_lookup_range(&c->mlb, t->key);
        if (t->want_loc) {
            if (s >= 0) c->st.loc_hits++; else c->st.loc_misses++;
        } else {
            if (s >= 0) c->st.range_hits++; else c->st.range_misses++;
        }
        if (c->cfg.verbose && s >= 0)
            printf("      model hit slot %d: tb 0x%" PRIx64 " size 0x%" PRIx64 " loc 0x%" PRIx64 "\n", s, c->mlb.e[s].tb,
                   c->mlb.e[s].size, c->mlb.loc[s]);
        if (s >= 0 && hit_k) {
            if ((unsigned)s != slot)
                mm(c, t, "ev_slot", "%s: expected slot %d, got %u (key 0x%" PRIx64 ")", tb_ev_name(kind), s, slot, t->key);
            lookup_hit(c, t, (unsigned)s);
        } else if (s < 0 && miss_k) {
            lookup_miss(c, t);
        } else if (s >= 0) { /* model hit, DUT missed: follow the DUT so the reads stay aligned */
            mm(c, t, "ev_kind", "expected %s slot %d for key 0x%" PRIx64 ", DUT committed %s",
               t->want_loc ? "LOC_HIT" : "RANGE_HIT", s, t->key, tb_ev_name(kind));
            lookup_miss(c, t);
        } else { /* model missed, DUT hit */
            mm(c, t, "ev_kind", "expected %s for key 0x%" PRIx64 ", DUT committed %s slot %u",
               t->want_loc ? "LOC_MISS" : "RANGE_MISS", t->key, tb_ev_name(kind), slot);
            if (slot < n && c->mlb.valid[slot]) {
                ga_mlb_touch(&c->mlb, slot);
                lookup_hit(c, t, slot);
            } else {
                t->desync = true;
            }
        }
        return;
    }
    case PH_FILL:
        if (kind != TB_EV_FILL && kind != TB_EV_FILL_DROP) break;
        if (c->mlb.gen == t->gen0) {
            unsigned v = ga_mlb_victim(&c->mlb, t->floc);
            if (kind == TB_EV_FILL_DROP)
                mm(c, t, "ev_kind", "expected FILL slot %u of location 0x%" PRIx64 " (no invalidation since the miss), got FILL_DROP",
                   v, t->floc);
            else if (slot != v)
                mm(c, t, "ev_slot", "FILL of location 0x%" PRIx64 ": expected victim slot %u, got %u", t->floc, v, slot);
            (void)ga_mlb_fill(&c->mlb, t->fe, t->floc, t->gen0);
            c->st.fills++;
        } else {
            if (kind == TB_EV_FILL)
                mm(c, t, "ev_kind", "expected FILL_DROP (an invalidation or flush committed since the miss), got FILL slot %u", slot);
            c->st.fill_drops++;
        }
        if (t->req.op == TB_OP_ACCESS)
            next_leader(c, t);
        else
            t->phase = PH_DONE;
        return;
    case PH_MAINT:
        if (t->req.op == TB_OP_INVALIDATE && kind == TB_EV_INVAL) {
            ga_mlb_invalidate(&c->mlb, t->req.md);
            c->st.invals++;
            if ((t->req.flags & TB_RF_FREE_INVAL) != 0u && c->unsettled > 0u) c->unsettled--;
            t->phase = PH_DONE;
            return;
        }
        if (t->req.op == TB_OP_FLUSH && kind == TB_EV_FLUSH) {
            ga_mlb_flush(&c->mlb);
            c->st.flushes++;
            t->phase = PH_DONE;
            return;
        }
        break;
    default: break;
    }
    mm(c, t, "ev_kind", "expected %s, DUT committed %s (slot %u lane %u)", phase_want(t), tb_ev_name(kind), slot, lane);
    t->desync = true;
}

/* ---------------------------------------------------------------------------------------------- */
/* Responses                                                                                        */

static unsigned log2_size(uint32_t s)
{
    unsigned k = 0;
    while ((1u << k) < s) k++;
    return k;
}

static void cmp_rec(tb_chk_t *c, const txn_t *t, const tb_rsp_t *r, const ga_warp_rsp_t *w, bool with_addr)
{
    unsigned lanes = c->cfg.lanes;
    if (with_addr)
        for (unsigned l = 0; l < lanes; l++)
            if (w->addr[l] != r->addr[l]) {
                char f[32];
                snprintf(f, sizeof f, "rsp_addr[%u]", l);
                cmp(c, t, f, w->addr[l], r->addr[l]);
                break;
            }
    if (w->fault != r->fault) {
        unsigned l = (unsigned)__builtin_ctz(w->fault ^ r->fault);
        mm(c, t, "rsp_fault", "expected 0x%x got 0x%x (first differing lane %u, addr 0x%" PRIx64 ": the model says it %s)",
           w->fault, r->fault, l, t->req.addr[l], ((w->fault >> l) & 1u) ? "fails" : "passes");
    }
    const ga_exc_t *e = &w->rec;
    bool none = w->fault == 0u;
    cmp(c, t, "rsp_exc_kind", none ? 0u : (uint64_t)e->kind, r->kind);
    cmp(c, t, "rsp_exc_addr", none ? 0u : e->addr, r->exc_addr);
    cmp(c, t, "rsp_exc_size", none ? 0u : log2_size(e->size), r->size_log2);
    cmp(c, t, "rsp_exc_sm", none ? 0u : e->sm, r->sm);
    cmp(c, t, "rsp_exc_warp", none ? 0u : e->warp, r->warp);
    cmp(c, t, "rsp_exc_lane", none ? 0u : e->lane, r->lane);
    cmp(c, t, "rsp_exc_md", none ? 0u : e->md, r->md);
    cmp(c, t, "rsp_exc_tb", none ? 0u : e->entry.tb, r->tb);
    cmp(c, t, "rsp_exc_esize", none ? 0u : e->entry.size, r->esize);
    if (!none && (unsigned)e->kind < GA_EXC_KINDS) c->st.faults_by_kind[e->kind]++;
}

static void warp_req(const tb_chk_t *c, const txn_t *t, ga_warp_req_t *w)
{
    memset(w, 0, sizeof *w);
    w->lanes = c->cfg.lanes;
    w->active = t->req.active & (c->cfg.lanes >= 32u ? UINT32_MAX : ((UINT32_C(1) << c->cfg.lanes) - 1u));
    w->warp = t->req.warp;
    w->size = 1u << t->req.size_log2;
    for (unsigned l = 0; l < c->cfg.lanes; l++) w->addr[l] = t->req.addr[l];
}

/* The LOADMETA third opinion: an independent search of memory as the runtime wrote it. */
static void third_opinion(tb_chk_t *c, const txn_t *t)
{
    const ga_rt_cfg_t *rc = ga_rt_cfg(c->rt);
    bool eligible = t->ref_ok0 && c->ref_on && t->epoch0 == c->free_epoch && !t->tainted &&
                    t->reg.root == ga_rt_root(c->rt) && t->reg.layout == rc->layout &&
                    (t->walk_status < 0 || t->walk_status == GA_WALK_FOUND || t->walk_status == GA_WALK_RANGE_ONLY ||
                     t->walk_status == GA_WALK_NOT_FOUND);
    if (!eligible) {
        c->st.ref_skipped++;
        return;
    }
    bool ok = false;
    uint64_t maxn = rc->layout == GA_LAYOUT_TABLE ? c->slots : t->reg.step_limit;
    uint64_t ref = ga_ref_search(c->mem, rc->layout, t->reg.root, c->slots, c->cfg.tag_bits, t->req.addr[0], maxn,
                                 NULL, &ok);
    if (!ok) {
        c->st.ref_skipped++;
        return;
    }
    c->st.ref_checks++;
    if (ref != t->rd)
        mm(c, t, "third_opinion", "model and DUT agree on rd 0x%" PRIx64 " but ga_ref_search gives 0x%" PRIx64
           " for pointer 0x%" PRIx64, t->rd, ref, t->req.addr[0]);
}

void tb_chk_rsp(tb_chk_t *c, const tb_rsp_t *r)
{
    if (c->cfg.verbose)
        printf("  [%" PRIu64 "] rsp id=%u %s st=%u rd=0x%" PRIx64 " fault=0x%x kind=%u\n", c->cycle, r->id,
               tb_op_name(r->op), r->status, r->rd, r->fault, r->kind);
    if (r->id >= c->nids || !c->txn[r->id].live) {
        mm(c, NULL, "rsp_id", "response (op %s) for id %u, which has no request in flight", tb_op_name(r->op), r->id);
        return;
    }
    txn_t *t = &c->txn[r->id];
    t->live = false;
    c->in_flight--;
    if (t->req.op < TB_OPS) c->st.rsp[t->req.op]++;
    if (t->desync) {
        disown(c, t, true);
        return;
    }
    settle(c, t);
    disown(c, t, false);
    if (t->phase != PH_DONE) {
        mm(c, t, "rsp_valid", "response before the DUT committed %s", phase_want(t));
        if (t->phase == PH_LOOKUP || t->phase == PH_MAINT) return; /* nothing to compare with */
    }

    cmp(c, t, "rsp_op", t->req.op, r->op);
    uint8_t st = t->exp_status; /* CFG_WRITE: its legality, decided (and applied) at acceptance */
    if (!cmp(c, t, "rsp_status", st, r->status)) return;
    ga_warp_req_t w;
    ga_warp_rsp_t exp;
    memset(&exp, 0, sizeof exp);
    if (st != TB_ST_OK) { /* §1.7: every other field of a refused request is 0 */
        if (st == TB_ST_HALTED) c->st.halted_rsps++;
        else c->st.cfg_errors++;
        cmp(c, t, "rsp_rd", 0, r->rd);
        cmp_rec(c, t, r, &exp, true);
        return;
    }

    warp_req(c, t, &w);
    unsigned tb = c->cfg.tag_bits;
    switch (t->req.op) {
    case TB_OP_LOADMETA:
        cmp(c, t, "rsp_rd", t->rd, r->rd);
        cmp_rec(c, t, r, &exp, true); /* addr is 0 (§1.7) */
        if (c->rt != NULL && t->rd == r->rd) third_opinion(c, t);
        break;
    case TB_OP_MEMCHECK_G:
        ga_check_g(&w, t->req.md, t->ms, t->e, t->reg.sm_id, tb, &exp);
        cmp_rec(c, t, r, &exp, true);
        break;
    case TB_OP_MEMCHECK_S:
        ga_check_s(&w, (uint32_t)t->req.md, (uint32_t)(t->req.md >> 32), t->reg.sm_id, &exp);
        cmp_rec(c, t, r, &exp, true); /* ga_check_s leaves addr 0, as §1.7 says */
        break;
    case TB_OP_ACCESS:
        for (unsigned l = 0; l < c->cfg.lanes; l++) exp.addr[l] = ga_va_of(t->req.addr[l], tb);
        for (unsigned l = 0; l < c->cfg.lanes; l++) {
            if (((w.active >> l) & 1u) == 0u || t->kinds[l] == GA_EXC_NONE) continue;
            if (exp.fault == 0u) {
                exp.rec.kind = (ga_exc_kind_t)t->kinds[l];
                exp.rec.addr = t->req.addr[l];
                exp.rec.size = w.size;
                exp.rec.sm = t->reg.sm_id;
                exp.rec.warp = t->req.warp;
                exp.rec.lane = (uint8_t)l;
                exp.rec.md = t->mds[l];
                exp.rec.entry = t->ents[l];
            }
            exp.fault |= UINT32_C(1) << l;
        }
        cmp_rec(c, t, r, &exp, true);
        break;
    default:
        cmp_rec(c, t, r, &exp, true);
        break;
    }
    if (t->req.op != TB_OP_LOADMETA) cmp(c, t, "rsp_rd", 0, r->rd); /* §1.7: only LOADMETA has rd */
    if (exp.fault != 0u && t->reg.sm_id != c->reg.sm_id) c->st.stale_sm++;
    if (exp.fault != 0u && t->reg.policy != c->reg.policy) c->st.stale_policy++;
    if (exp.fault != 0u && t->reg.policy == GA_POLICY_TERMINATE) halt_now(c);
}

/* ---------------------------------------------------------------------------------------------- */

void tb_chk_drained(tb_chk_t *c, const tb_dut_out_t *o)
{
    if (c->in_flight != 0u) return;
    if (c->jobs.n != 0u) {
        mm(c, NULL, "internal", "%zu walker owners queued with nothing in flight", c->jobs.n);
        c->jobs.n = 0;
    }
    if (c->reads.n != 0u) {
        obs_read_t *r = ring_at(&c->reads, 0);
        mm(c, NULL, "mem_req", "%zu metadata read(s) the model did not predict; first: %u bytes at 0x%" PRIx64
           " (cycle %" PRIu64 ")", c->reads.n, r->len, r->addr, r->cycle);
        c->reads.n = 0;
    }
    if (c->orcs.n != 0u) {
        obs_orc_t *r = ring_at(&c->orcs, 0);
        mm(c, NULL, "orc_req", "%zu oracle query(ies) the model did not predict; first: va 0x%" PRIx64, c->orcs.n, r->va);
        c->orcs.n = 0;
    }
    if (o == NULL) return;
    if (o->halted != (c->halted ? 1u : 0u)) mm(c, NULL, "halted_o", "expected %d got %u", c->halted, o->halted);
    if (o->cfg_mode != (uint8_t)c->reg.mode) mm(c, NULL, "cfg_mode_o", "expected %u got %u", c->reg.mode, o->cfg_mode);
    if (o->cfg_layout != (uint8_t)c->reg.layout)
        mm(c, NULL, "cfg_layout_o", "expected %u got %u", c->reg.layout, o->cfg_layout);
    if (o->cfg_root != c->reg.root)
        mm(c, NULL, "cfg_root_o", "expected 0x%" PRIx64 " got 0x%" PRIx64, c->reg.root, o->cfg_root);
    if (o->cfg_step_limit != c->reg.step_limit)
        mm(c, NULL, "cfg_step_limit_o", "expected %u got %u", c->reg.step_limit, o->cfg_step_limit);
    if (o->cfg_policy != (uint8_t)c->reg.policy)
        mm(c, NULL, "cfg_policy_o", "expected %u got %u", c->reg.policy, o->cfg_policy);
    if (o->cfg_sm_id != c->reg.sm_id) mm(c, NULL, "cfg_sm_id_o", "expected %u got %u", c->reg.sm_id, o->cfg_sm_id);
    if (o->cfg_tag_bits != c->cfg.tag_bits)
        mm(c, NULL, "cfg_tag_bits_o", "expected %u got %u", c->cfg.tag_bits, o->cfg_tag_bits);
}
