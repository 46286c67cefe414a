/*
 * tb_sys.c — lockstep co-simulation of ga_system (NumSms MLUs, a shared metadata memory port, one
 * runtime port; docs/microarchitecture.md §10, spec §6.6) against the golden model: one lockstep
 * checker (tb/cosim/tb_chk.c) per SM, exactly as the single-MLU harness uses it, fed with that SM's
 * transfers only. The SMs share one runtime and one simulated device memory, as on a GPU.
 *
 * What the harness does, per cycle:
 *   - each SM's LSU port is driven by its own seeded stimulus generator (tb/cosim/tb_gen.c, without
 *     the corrupt-metadata bursts, which would change memory under the other SMs' third opinion);
 *   - allocations (the metadata structure's shape changes) wait until every SM is drained (spec §8),
 *     then the runtime's invalidations and the new ROOT go to the runtime port, and no SM issues
 *     until they are acknowledged; frees do not wait: the freed tag is written to memory at once and
 *     the invalidations follow on the runtime port while walks of every SM are in flight (the race of
 *     spec §6.5 across SMs);
 *   - the runtime port also carries random FLUSHes, spurious INVALIDATEs, CLEAR_HALTs and illegal
 *     CFG_WRITEs (the acknowledgement's error flag is checked);
 *   - the shared memory port: each SM's reads are served by its own memory model (tb_memsys.c: random
 *     latency, error responses), the port's ready drops at random (arbitration delays), and of the
 *     responses due in a cycle one is chosen at random, so responses of different SMs come back in
 *     any order; the oracle likewise.
 * Each SM's checker is told, in its own order: the requests its MLU accepted (the LSU's, and the
 * runtime command at the cycle rt_acc_o names), its reads and oracle queries (by the SM index on the
 * shared ports), its commit-log events and its responses (the LSU's, and the runtime command's answer
 * at rt_rsp_o). At every acknowledgement of a free's INVALIDATE(L) the harness checks "the free has
 * taken effect" (spec §6.6): every SM has accepted and answered it, and no SM's MLB (the checker's
 * copy, which the lockstep keeps equal to the RTL's) holds a valid entry at L.
 *
 * Exit status: 0 all matched, 1 a mismatch (printed with seed, SM and request), 2 a bad command line.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ga_rng.h"
#include "tb_chk.h"
#include "tb_memsys.h"
#include "tb_stim.h"
#include "tb_sysdut.h"

#define FQ 1024u
#define RTQ 4096u

typedef struct {
    uint64_t seed, ops, max_print, timeout;
    uint64_t init_seed;  /* registers without a reset: 0 from 0, else random from this seed */
    bool init_seed_set;  /* --init-seed given (else drawn from --seed) */
    ga_layout_t layout;
    tb_mem_knobs_t mk;
    unsigned mem_stall_pct, orc_stall_pct, rsp_stall_pct, req_gap_pct;
    uint32_t rt_ppm;
    bool quiet, verbose, no_assert, no_terminate, no_illegal;
} opts_t;

typedef struct {
    uint8_t op; /* TB_OP_INVALIDATE .. TB_OP_CLEAR_HALT */
    uint8_t cfg_addr;
    uint64_t md;
    uint32_t flags;
    bool expect_err;
} rt_cmd_t;

typedef struct {
    tb_gen_t *gen;
    tb_memsys_t ms;
    tb_chk_t *chk;
    bool presenting, shown, seq_wait, src_done;
    uint16_t seq_id;
    tb_item_t cur;
    tb_item_t *fq;
    unsigned fh, fn, idle_left, max_out;
    uint8_t id_busy[1u << 15];
    bool acc_rt, rsp_rt; /* accepted / answered the runtime command in flight */
    bool prev_rsp_stall;
    tb_dut_out_t prev;
    uint64_t reqs;
} sm_t;

typedef struct {
    opts_t o;
    tb_sys_t *dut;
    tb_sys_info_t info;
    tb_world_t w;
    ga_rng_t rng;
    sm_t *sm;
    unsigned nids, sys_id;
    uint64_t cycle, opidx;
    /* runtime port */
    rt_cmd_t *rtq;
    unsigned rth, rtn;
    bool rt_busy; /* a command was accepted and not yet acknowledged */
    rt_cmd_t rt_cur;
    uint64_t rt_opidx;
    bool want_drain;   /* an SM holds an item that needs every SM drained */
    unsigned drain_owner;
    bool barrier;      /* after a shape change: no new LSU request until the runtime port is idle */
    /* protocol */
    bool prev_mem_stall, prev_orc_stall;
    tb_sys_out_t prev;
    /* stats */
    uint64_t allocs, frees, rt_cmds, rt_acks, rt_free_invals, clean_checks, races, fatal, asserts;
    bool any_mm;
    uint64_t first_mm_op;
} run_t;

/* ------------------------------------------------------------------------------------------------ */
/* Options                                                                                          */

static void usage(FILE *f)
{
    fprintf(f, "usage: ga_syscosim [options]\n"
               "  --seed N            random seed (default 1)\n"
               "  --init-seed N       the registers without a reset start from random values seeded by N\n"
               "                      (1..2^31-1), or from 0 (N = 0); default: drawn from --seed\n"
               "  --ops N             random LSU requests in all, shared by the SMs (default 20000)\n"
               "  --layout L          list | bst | table | index (default bst)\n"
               "  --lat A:B           memory latency range in cycles (default 0:3)\n"
               "  --slow P:L          P %% of reads get up to L more cycles (default 5:40)\n"
               "  --mem-stall P       %% of cycles the shared memory port is not ready (default 20)\n"
               "  --orc-stall P       %% of cycles the shared oracle port is not ready (default 20)\n"
               "  --mem-hold P        %% of cycles a due response is held back (default 20)\n"
               "  --rsp-stall P       %% of cycles an LSU does not take a response (default 20)\n"
               "  --req-gap P         %% of bubbles before an LSU shows a request (default 10)\n"
               "  --err-ppm N         injected memory error responses per million reads (default 2000)\n"
               "  --orc-lie-ppm N     oracle lies per million answers (default 5000)\n"
               "  --rt-ppm N          random runtime commands per million cycles (default 2000)\n"
               "  --max-print N       mismatches printed in full (default 20)\n"
               "  --timeout N         cycles before a request without a response fails (default 2000000)\n"
               "  --no-terminate      no TERMINATE-policy bursts\n"
               "  --no-illegal        no illegal configuration writes\n"
               "  --no-assert         RTL assertions off (debugging only)\n"
               "  --quiet | --verbose\n"
               "Exit status: 0 all matched, 1 a mismatch, 2 a bad command line.\n");
}

static int parse_u64(const char *s, uint64_t *v)
{
    if (s == NULL || *s == '\0') return -1;
    char *end = NULL;
    unsigned long long x = strtoull(s, &end, 0);
    if (end == NULL || *end != '\0' || *s == '-') return -1;
    *v = (uint64_t)x;
    return 0;
}

static bool in_range(uint64_t x, uint64_t lo, uint64_t hi) { return x >= lo && x <= hi; }

static int bad_arg(const char *opt, const char *val)
{
    fprintf(stderr, "ga_syscosim: bad value for %s: '%s'\n", opt, val != NULL ? val : "(missing)");
    usage(stderr);
    return 2;
}

static int parse_pair(const char *s, uint64_t *a, uint64_t *b)
{
    const char *c = s != NULL ? strchr(s, ':') : NULL;
    if (c == NULL) return -1;
    char buf[64];
    size_t n = (size_t)(c - s);
    if (n == 0 || n >= sizeof buf) return -1;
    memcpy(buf, s, n);
    buf[n] = '\0';
    return parse_u64(buf, a) != 0 || parse_u64(c + 1, b) != 0 ? -1 : 0;
}

static int parse_opts(int argc, char **argv, opts_t *o)
{
    memset(o, 0, sizeof *o);
    o->seed = 1;
    o->ops = 20000;
    o->layout = GA_LAYOUT_BST;
    o->max_print = 20;
    o->timeout = 2000000;
    o->mk.lat_min = 0;
    o->mk.lat_max = 3;
    o->mk.slow_pct = 5;
    o->mk.slow_lat = 40;
    o->mk.rsp_stall_pct = 20;
    o->mk.err_ppm = 2000;
    o->mk.orc_lat_max = 4;
    o->mk.orc_lie_ppm = 5000;
    o->mem_stall_pct = 20;
    o->orc_stall_pct = 20;
    o->rsp_stall_pct = 20;
    o->req_gap_pct = 10;
    o->rt_ppm = 2000;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        uint64_t x = 0, y = 0;
#define NUM(field, lo, hi)                                                                         \
    do {                                                                                           \
        if (parse_u64(v, &x) != 0 || !in_range(x, lo, hi)) return bad_arg(a, v);                     \
        field = x;                                                                                 \
        i++;                                                                                       \
    } while (0)
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            usage(stdout);
            exit(0);
        } else if (strcmp(a, "--seed") == 0) NUM(o->seed, 0, UINT64_MAX);
        else if (strcmp(a, "--init-seed") == 0) {
            NUM(o->init_seed, 0, INT32_MAX);
            o->init_seed_set = true;
        }
        else if (strcmp(a, "--ops") == 0) NUM(o->ops, 0, UINT64_C(1) << 40);
        else if (strcmp(a, "--max-print") == 0) NUM(o->max_print, 0, 1000000);
        else if (strcmp(a, "--timeout") == 0) NUM(o->timeout, 100, UINT64_MAX);
        else if (strcmp(a, "--mem-stall") == 0) NUM(o->mem_stall_pct, 0, 95);
        else if (strcmp(a, "--orc-stall") == 0) NUM(o->orc_stall_pct, 0, 95);
        else if (strcmp(a, "--mem-hold") == 0) NUM(o->mk.rsp_stall_pct, 0, 95);
        else if (strcmp(a, "--rsp-stall") == 0) NUM(o->rsp_stall_pct, 0, 95);
        else if (strcmp(a, "--req-gap") == 0) NUM(o->req_gap_pct, 0, 95);
        else if (strcmp(a, "--err-ppm") == 0) NUM(o->mk.err_ppm, 0, 1000000);
        else if (strcmp(a, "--orc-lie-ppm") == 0) NUM(o->mk.orc_lie_ppm, 0, 1000000);
        else if (strcmp(a, "--rt-ppm") == 0) NUM(o->rt_ppm, 0, 1000000);
        else if (strcmp(a, "--layout") == 0) {
            if (v == NULL) return bad_arg(a, v);
            if (!ga_layout_parse(v, &o->layout) || !ga_layout_in_rtl(o->layout)) return bad_arg(a, v);
            i++;
        } else if (strcmp(a, "--lat") == 0) {
            if (parse_pair(v, &x, &y) != 0 || x > y || y > 1000) return bad_arg(a, v);
            o->mk.lat_min = (unsigned)x;
            o->mk.lat_max = (unsigned)y;
            i++;
        } else if (strcmp(a, "--slow") == 0) {
            if (parse_pair(v, &x, &y) != 0 || x > 100 || y > 100000) return bad_arg(a, v);
            o->mk.slow_pct = (unsigned)x;
            o->mk.slow_lat = (unsigned)y;
            i++;
        } else if (strcmp(a, "--quiet") == 0) o->quiet = true;
        else if (strcmp(a, "--verbose") == 0) o->verbose = true;
        else if (strcmp(a, "--no-assert") == 0) o->no_assert = true;
        else if (strcmp(a, "--no-terminate") == 0) o->no_terminate = true;
        else if (strcmp(a, "--no-illegal") == 0) o->no_illegal = true;
        else {
            fprintf(stderr, "ga_syscosim: unknown option '%s'\n", a);
            usage(stderr);
            return 2;
        }
#undef NUM
    }
    return 0;
}

/* ------------------------------------------------------------------------------------------------ */
/* Mismatch reporting                                                                               */

static void on_mismatch(void *ctx, uint64_t opidx, uint64_t cycle)
{
    run_t *r = ctx;
    (void)cycle;
    if (!r->any_mm) {
        r->any_mm = true;
        r->first_mm_op = opidx;
    }
}

/* A failure of the system as a whole, reported through SM s's checker (counted as a mismatch). */
#define SYS_FAIL(r, s, ...) tb_chk_fail((r)->sm[(s)].chk, (r)->opidx, __VA_ARGS__)

/* ------------------------------------------------------------------------------------------------ */
/* Runtime port                                                                                     */

static void rt_push(run_t *r, unsigned op, uint64_t md, unsigned cfg_addr, uint32_t flags, bool expect_err)
{
    if (r->rtn == RTQ) {
        SYS_FAIL(r, 0, "runtime command queue overflow");
        return;
    }
    rt_cmd_t *c = &r->rtq[(r->rth + r->rtn) % RTQ];
    c->op = (uint8_t)op;
    c->md = md;
    c->cfg_addr = (uint8_t)cfg_addr;
    c->flags = flags;
    c->expect_err = expect_err;
    r->rtn++;
}

/* After a runtime call: its invalidations, then its ROOT if it moved (spec §5.2), for every SM. */
static void follow_host(run_t *r, bool from_free)
{
    const uint64_t *locs = NULL;
    size_t n = ga_rt_invalidations(r->w.rt, &locs);
    for (size_t i = 0; i < n; i++) rt_push(r, TB_OP_INVALIDATE, locs[i], 0, from_free ? TB_RF_FREE_INVAL : 0u, false);
    if (from_free)
        for (unsigned s = 0; s < r->info.sms; s++) tb_chk_note_free(r->sm[s].chk, (unsigned)n);
    uint64_t root = ga_rt_root(r->w.rt);
    bool moved = false;
    for (unsigned s = 0; s < r->info.sms; s++) moved = moved || tb_chk_regs(r->sm[s].chk)->root != root;
    if (moved) rt_push(r, TB_OP_CFG_WRITE, root, TB_CFG_ROOT, 0, false);
}

static bool rt_idle(const run_t *r) { return !r->rt_busy && r->rtn == 0u; }

/* ------------------------------------------------------------------------------------------------ */
/* Items per SM                                                                                     */

static bool sm_drained(const run_t *r, unsigned s)
{
    return tb_chk_in_flight(r->sm[s].chk) == 0u && !r->sm[s].seq_wait;
}

static bool all_drained(const run_t *r)
{
    if (!rt_idle(r)) return false;
    for (unsigned s = 0; s < r->info.sms; s++)
        if (!sm_drained(r, s) || r->sm[s].presenting) return false;
    return true;
}

static void fq_front(run_t *r, unsigned s, const tb_item_t *it)
{
    sm_t *m = &r->sm[s];
    if (m->fn == FQ) {
        SYS_FAIL(r, s, "item queue overflow");
        return;
    }
    m->fh = (m->fh + FQ - 1u) % FQ;
    m->fq[m->fh] = *it;
    m->fn++;
}

static bool next_item(run_t *r, unsigned s, tb_item_t *it)
{
    sm_t *m = &r->sm[s];
    if (m->fn > 0u) {
        *it = m->fq[m->fh];
        m->fh = (m->fh + 1u) % FQ;
        m->fn--;
        return true;
    }
    if (m->src_done) return false;
    bool ok = tb_gen_next(m->gen, &r->w, it);
    if (!ok) m->src_done = true;
    return ok;
}

/* Items that change the structure's shape need every SM drained (spec §8). */
static bool needs_global_drain(const run_t *r, const tb_item_t *it)
{
    if (it->kind == TB_IT_ALLOC || it->kind == TB_IT_CORRUPT || it->kind == TB_IT_SCRUB) return true;
    if (it->kind == TB_IT_FREE) {
        ga_rt_stats_t st = ga_rt_stats(r->w.rt);
        return st.freed >= r->w.rtc.reclaim_threshold; /* this free reclaims: shape changes */
    }
    return false;
}

static void do_host(run_t *r, unsigned s, const tb_item_t *it)
{
    sm_t *m = &r->sm[s];
    switch (it->kind) {
    case TB_IT_ALLOC: {
        uint64_t p = 0;
        if (tb_world_alloc(&r->w, it->size, -1, &p) == GA_OK) {
            r->allocs++;
            follow_host(r, false);
        }
        break;
    }
    case TB_IT_FREE: {
        uint64_t root0 = ga_rt_root(r->w.rt);
        bool was_drained = all_drained(r);
        /* another SM's stimulus may have freed it since this one picked it: then nothing happens */
        if (tb_world_free(&r->w, it->ptr) == GA_OK) {
            r->frees++;
            if (!was_drained && ga_rt_root(r->w.rt) != root0)
                SYS_FAIL(r, s, "a free moved ROOT while walks were in flight (runtime broke spec §8)");
            for (unsigned k = 0; k < r->info.sms; k++)
                if (tb_chk_in_flight(r->sm[k].chk) != 0u) r->races++;
            follow_host(r, true);
        }
        break;
    }
    case TB_IT_IDLE: m->idle_left = (unsigned)it->len; break;
    case TB_IT_REF: tb_chk_set_ref_enabled(m->chk, it->sub != 0u); break;
    case TB_IT_MAXOUT: {
        unsigned mo = it->sub == 0u ? r->nids : it->sub;
        m->max_out = mo > r->nids ? r->nids : mo;
        break;
    }
    case TB_IT_POISON: (void)ga_mem_poison(r->w.mem, it->addr, it->len); break;
    case TB_IT_UNPOISON: ga_mem_unpoison_all(r->w.mem); break;
    default: break;
    }
}

static int free_id(run_t *r, unsigned s)
{
    sm_t *m = &r->sm[s];
    unsigned busy = tb_chk_in_flight(m->chk);
    if (busy >= m->max_out || busy >= r->nids) return -1;
    unsigned start = (unsigned)ga_rng_below(&r->rng, r->nids);
    for (unsigned k = 0; k < r->nids; k++) {
        unsigned id = (start + k) % r->nids;
        if (!m->id_busy[id]) return (int)id;
    }
    return -1;
}

static void try_present(run_t *r, unsigned s)
{
    sm_t *m = &r->sm[s];
    if (m->presenting || m->seq_wait) return;
    /* after an allocation, nothing new until its invalidations and ROOT are acknowledged */
    if (r->barrier) {
        if (!rt_idle(r)) return;
        r->barrier = false;
    }
    if (r->want_drain && r->drain_owner != s) return;
    if (m->idle_left > 0u) {
        m->idle_left--;
        return;
    }
    for (unsigned guard = 0; guard < 64u; guard++) {
        tb_item_t it;
        if (!next_item(r, s, &it)) return;
        if (needs_global_drain(r, &it)) {
            if (!all_drained(r)) {
                fq_front(r, s, &it);
                r->want_drain = true;
                r->drain_owner = s;
                return;
            }
            r->want_drain = false;
            r->barrier = true;
            do_host(r, s, &it);
            return; /* the runtime commands go first */
        }
        bool seq = it.kind == TB_IT_REQ && (it.req.flags & TB_RF_SEQ) != 0u;
        if ((it.kind == TB_IT_DRAIN || seq) && !sm_drained(r, s)) {
            fq_front(r, s, &it);
            return;
        }
        if (it.kind != TB_IT_REQ) {
            do_host(r, s, &it);
            if (m->idle_left > 0u || !rt_idle(r)) return;
            continue;
        }
        int id = free_id(r, s);
        if (id < 0) {
            fq_front(r, s, &it);
            return;
        }
        it.req.id = (uint16_t)id;
        it.req.opidx = r->opidx++;
        m->cur = it;
        m->presenting = true;
        m->shown = false;
        return;
    }
}

/* A random runtime command now and then (spurious INVALIDATE, FLUSH, CLEAR_HALT, an illegal write). */
static void random_rt(run_t *r)
{
    if (r->o.rt_ppm == 0u || !rt_idle(r) || r->want_drain) return;
    if (ga_rng_below(&r->rng, 1000000) >= r->o.rt_ppm) return;
    unsigned k = (unsigned)ga_rng_below(&r->rng, 100);
    if (k < 50 && r->w.nlive > 0u) {
        const tb_alloc_t *a = &r->w.live[ga_rng_below(&r->rng, r->w.nlive)];
        rt_push(r, TB_OP_INVALIDATE, a->loc, 0, 0, false);
    } else if (k < 75) {
        rt_push(r, TB_OP_FLUSH, ga_rng_next(&r->rng), 0, 0, false);
    } else if (k < 90) {
        rt_push(r, TB_OP_CLEAR_HALT, ga_rng_next(&r->rng), 0, 0, false);
    } else if (!r->o.no_illegal) {
        /* the first LAYOUT code this build lacks (spec §5.1): 4, or 3 (INDEX) without the INDEX walker */
        rt_push(r, TB_OP_CFG_WRITE, r->info.has_index ? GA_LAYOUT_INDEX + 1u : GA_LAYOUT_INDEX, TB_CFG_LAYOUT, 0, true);
    }
}

/* ------------------------------------------------------------------------------------------------ */
/* Responses                                                                                        */

static void to_rsp(const run_t *r, const tb_dut_out_t *o, uint16_t id, tb_rsp_t *x)
{
    memset(x, 0, sizeof *x);
    x->id = id;
    x->op = o->rsp_op;
    x->status = o->rsp_status;
    x->rd = o->rsp_rd;
    for (unsigned l = 0; l < r->info.lanes; l++) x->addr[l] = o->rsp_addr[l];
    x->fault = o->rsp_fault;
    x->kind = o->rsp_exc_kind;
    x->size_log2 = o->rsp_exc_size;
    x->lane = o->rsp_exc_lane;
    x->exc_addr = o->rsp_exc_addr;
    x->md = o->rsp_exc_md;
    x->tb = o->rsp_exc_tb;
    x->esize = o->rsp_exc_esize;
    x->sm = o->rsp_exc_sm;
    x->warp = o->rsp_exc_warp;
}

static bool same_rsp(const run_t *r, const tb_dut_out_t *a, const tb_dut_out_t *b)
{
    return a->rsp_valid && a->rsp_id == b->rsp_id && a->rsp_op == b->rsp_op && a->rsp_status == b->rsp_status &&
           a->rsp_rd == b->rsp_rd && a->rsp_fault == b->rsp_fault && a->rsp_exc_kind == b->rsp_exc_kind &&
           a->rsp_exc_addr == b->rsp_exc_addr && a->rsp_exc_md == b->rsp_exc_md && a->rsp_exc_tb == b->rsp_exc_tb &&
           a->rsp_exc_esize == b->rsp_exc_esize && a->rsp_exc_lane == b->rsp_exc_lane &&
           memcmp(a->rsp_addr, b->rsp_addr, sizeof(uint64_t) * r->info.lanes) == 0;
}

/* "The free has taken effect" (spec §6.6), checked at the acknowledgement of the free's
 * INVALIDATE(L): every SM accepted and answered it, and no SM's MLB holds a valid entry at L. */
static void check_ack(run_t *r, const tb_sys_out_t *o)
{
    for (unsigned s = 0; s < r->info.sms; s++) {
        if (!r->sm[s].acc_rt || !r->sm[s].rsp_rt)
            SYS_FAIL(r, s, "rt_ack_o for %s before SM %u %s it", tb_op_name(r->rt_cur.op), s,
                     r->sm[s].acc_rt ? "answered" : "accepted");
    }
    if ((o->rt_err != 0u) != r->rt_cur.expect_err)
        SYS_FAIL(r, 0, "rt_err_o %u with the acknowledgement of %s (expected %u)", o->rt_err, tb_op_name(r->rt_cur.op),
                 r->rt_cur.expect_err ? 1u : 0u);
    if (r->rt_cur.op == TB_OP_INVALIDATE && (r->rt_cur.flags & TB_RF_FREE_INVAL) != 0u) {
        r->clean_checks++;
        for (unsigned s = 0; s < r->info.sms; s++) {
            const ga_mlb_t *mlb = tb_chk_mlb(r->sm[s].chk);
            for (unsigned i = 0; i < mlb->n; i++)
                if (mlb->valid[i] && mlb->loc[i] == r->rt_cur.md)
                    SYS_FAIL(r, s, "free not in effect: after the acknowledgement of INVALIDATE 0x%" PRIx64
                             ", SM %u's MLB entry %u still holds it", r->rt_cur.md, s, i);
        }
    }
}

/* ------------------------------------------------------------------------------------------------ */

static void print_summary(run_t *r, double secs)
{
    tb_chk_stats_t t;
    memset(&t, 0, sizeof t);
    uint64_t inj = 0, lies = 0;
    for (unsigned s = 0; s < r->info.sms; s++) {
        tb_chk_stats_t u = tb_chk_stats(r->sm[s].chk);
        for (unsigned i = 0; i < TB_OPS; i++) t.req[i] += u.req[i];
        t.range_hits += u.range_hits;
        t.range_misses += u.range_misses;
        t.loc_hits += u.loc_hits;
        t.loc_misses += u.loc_misses;
        t.fills += u.fills;
        t.fill_drops += u.fill_drops;
        t.invals += u.invals;
        t.flushes += u.flushes;
        t.walks += u.walks;
        t.fetches += u.fetches;
        t.reads += u.reads;
        t.read_errors += u.read_errors;
        t.oracle_queries += u.oracle_queries;
        for (unsigned k = 0; k < GA_EXC_KINDS; k++) t.faults_by_kind[k] += u.faults_by_kind[k];
        t.halted_rsps += u.halted_rsps;
        t.cfg_errors += u.cfg_errors;
        t.ref_checks += u.ref_checks;
        t.ref_skipped += u.ref_skipped;
        t.mismatches += u.mismatches;
        inj += r->sm[s].ms.st.injected;
        lies += r->sm[s].ms.st.lies;
    }
    uint64_t reqs = 0;
    for (unsigned i = 0; i < TB_OPS; i++) reqs += t.req[i];
    printf("syscosim %s seed=0x%" PRIx64 " init-seed=%" PRIu64 " layout=%s sms=%u\n", r->info.name, r->o.seed,
           r->o.init_seed, ga_layout_name(r->o.layout),
           r->info.sms);
    printf("  MLU requests %" PRIu64 " (LSU %" PRIu64 ", runtime port %" PRIu64 " x %u SMs):", reqs, r->opidx,
           r->rt_acks, r->info.sms);
    for (unsigned i = 0; i < TB_OPS; i++) printf(" %s %" PRIu64, tb_op_name(i), t.req[i]);
    printf("\n  per SM LSU requests:");
    for (unsigned s = 0; s < r->info.sms; s++) printf(" %" PRIu64, r->sm[s].reqs);
    printf("\n  host: allocs %" PRIu64 " frees %" PRIu64 " (%" PRIu64 " SM-frees raced in-flight requests); runtime "
           "commands %" PRIu64 ", acknowledged %" PRIu64 ", free-in-effect checks %" PRIu64 "\n",
           r->allocs, r->frees, r->races, r->rt_cmds, r->rt_acks, r->clean_checks);
    printf("  MLB: range hit %" PRIu64 " miss %" PRIu64 ", loc hit %" PRIu64 " miss %" PRIu64 ", fills %" PRIu64
           " dropped %" PRIu64 ", invalidations %" PRIu64 ", flushes %" PRIu64 "\n",
           t.range_hits, t.range_misses, t.loc_hits, t.loc_misses, t.fills, t.fill_drops, t.invals, t.flushes);
    printf("  walks %" PRIu64 ", fetches %" PRIu64 ", reads %" PRIu64 " (error responses %" PRIu64 ", injected %" PRIu64
           "), oracle %" PRIu64 " (lies %" PRIu64 ")\n",
           t.walks, t.fetches, t.reads, t.read_errors, inj, t.oracle_queries, lies);
    printf("  faults:");
    for (unsigned k = 1; k < GA_EXC_KINDS; k++) printf(" %s %" PRIu64, ga_exc_name((ga_exc_kind_t)k), t.faults_by_kind[k]);
    printf("; HALTED %" PRIu64 ", CFG_ERROR %" PRIu64 "\n", t.halted_rsps, t.cfg_errors);
    printf("  third opinion: %" PRIu64 " LOADMETA results compared with ga_ref_search (%" PRIu64 " not comparable)\n",
           t.ref_checks, t.ref_skipped);
    printf("  cycles %" PRIu64 ", %.2f s, %.0f requests/s\n", r->cycle, secs, secs > 0 ? (double)reqs / secs : 0.0);
    printf("  RTL assertion failures %" PRIu64 "\n", r->asserts);
    printf("  mismatches %" PRIu64 "\n", t.mismatches + r->fatal);
}

static uint64_t total_mismatches(run_t *r)
{
    uint64_t n = r->fatal;
    for (unsigned s = 0; s < r->info.sms; s++) n += tb_chk_stats(r->sm[s].chk).mismatches;
    return n;
}

int main(int argc, char **argv)
{
    static run_t run;
    run_t *r = &run;
    int rc = parse_opts(argc, argv, &r->o);
    if (rc != 0) return rc;
    /* as ga_cosim: the registers without a reset start from values drawn from the run's seed */
    if (!r->o.init_seed_set) r->o.init_seed = tb_init_seed_of(r->o.seed);
    r->dut = tb_sys_create((uint32_t)r->o.init_seed);
    if (r->dut == NULL) return 1;
    r->info = tb_sys_info(r->dut);
    if (r->o.layout == GA_LAYOUT_INDEX && !r->info.has_index) {
        fprintf(stderr, "ga_syscosim: --layout index: this system (%s) is built without the INDEX walker\n", r->info.name);
        return 2;
    }
    r->nids = 1u << r->info.id_bits;
    r->sys_id = 1u << r->info.id_bits;
    ga_rng_seed(&r->rng, r->o.seed ^ UINT64_C(0x737973));

    ga_rt_cfg_t rtc;
    ga_rt_default_cfg(&rtc, r->o.layout, r->info.tag_bits, r->o.seed);
    rtc.reclaim_threshold = 4u + (uint32_t)(r->o.seed % 29u);
    rtc.md_capacity = r->o.layout == GA_LAYOUT_TABLE ? 256u : 4096u;
    if (tb_world_init(&r->w, &rtc, r->info.lanes) != 0) {
        fprintf(stderr, "ga_syscosim: cannot create the runtime\n");
        return 1;
    }
    r->sm = calloc(r->info.sms, sizeof *r->sm);
    r->rtq = calloc(RTQ, sizeof *r->rtq);
    if (r->sm == NULL || r->rtq == NULL) {
        fprintf(stderr, "ga_syscosim: out of memory\n");
        return 1;
    }
    for (unsigned s = 0; s < r->info.sms; s++) {
        sm_t *m = &r->sm[s];
        uint64_t sseed = r->o.seed * UINT64_C(0x9E3779B97F4A7C15) + s + 1u;
        tb_gen_cfg_t gc;
        memset(&gc, 0, sizeof gc);
        gc.seed = sseed;
        gc.ops = (r->o.ops + r->info.sms - 1u) / r->info.sms;
        gc.lanes = r->info.lanes;
        gc.tag_bits = r->info.tag_bits;
        gc.id_bits = r->info.id_bits;
        gc.layout = r->o.layout;
        gc.rtl_layouts = r->info.has_index ? (unsigned)GA_LAYOUT_INDEX + 1u : (unsigned)GA_LAYOUT_INDEX;
        gc.terminate = !r->o.no_terminate;
        gc.corrupt = false; /* corrupt structures and poison would change memory under the other SMs */
        gc.illegal_cfg = !r->o.no_illegal;
        m->gen = tb_gen_create(&gc);
        tb_memsys_init(&m->ms, &r->o.mk, r->w.mem, r->w.rt, sseed);
        tb_chk_cfg_t cc;
        memset(&cc, 0, sizeof cc);
        cc.tag_bits = r->info.tag_bits;
        cc.mlb_entries = r->info.mlb_entries;
        cc.lanes = r->info.lanes;
        cc.id_bits = r->info.id_bits + 1u;
        cc.seed = r->o.seed;
        cc.max_print = (unsigned)r->o.max_print;
        cc.verbose = r->o.verbose;
        cc.no_index = !r->info.has_index;
        m->chk = tb_chk_create(&cc);
        m->fq = calloc(FQ, sizeof *m->fq);
        if (m->gen == NULL || m->chk == NULL || m->fq == NULL) {
            fprintf(stderr, "ga_syscosim: out of memory\n");
            return 1;
        }
        m->max_out = r->nids;
        tb_chk_on_mismatch(m->chk, on_mismatch, r);
        tb_chk_set_world(m->chk, r->w.mem, r->w.rt, rtc.md_capacity);
        /* each SM's SM_ID is its index (the records name the SM) */
        tb_item_t it;
        memset(&it, 0, sizeof it);
        it.kind = TB_IT_REQ;
        it.name = -1;
        it.req.op = TB_OP_CFG_WRITE;
        it.req.cfg_addr = TB_CFG_SM_ID;
        it.req.md = s;
        it.req.flags = TB_RF_SEQ;
        fq_front(r, s, &it);
    }
    /* LAYOUT resets to BST (spec §5.1): the runtime tells every SM which structure it keeps. */
    if (rtc.layout != GA_LAYOUT_BST) rt_push(r, TB_OP_CFG_WRITE, (uint64_t)rtc.layout, TB_CFG_LAYOUT, 0, false);
    r->barrier = true;

    tb_sys_in_t in;
    tb_sys_out_t out;
    memset(&in, 0, sizeof in);
    memset(&out, 0, sizeof out);
    tb_sys_set_reset(r->dut, false);
    for (unsigned i = 0; i < 4u; i++) {
        tb_sys_set_inputs(r->dut, &in);
        tb_sys_eval(r->dut);
        tb_sys_tick(r->dut);
    }
    tb_sys_set_reset(r->dut, true);
    if (r->o.no_assert) tb_sys_assert_on(r->dut, false);

    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    bool stop = false;
    uint64_t last_progress = 0;
    const unsigned N = r->info.sms;
    while (!stop) {
        for (unsigned s = 0; s < N; s++) try_present(r, s);
        random_rt(r);
        bool done = rt_idle(r);
        for (unsigned s = 0; s < N && done; s++) {
            const sm_t *m = &r->sm[s];
            done = !m->presenting && m->src_done && m->fn == 0u && tb_chk_in_flight(m->chk) == 0u &&
                   tb_memsys_idle(&m->ms) && !m->seq_wait;
        }
        if (done) break;

        /* 1. inputs */
        for (unsigned s = 0; s < N; s++) {
            sm_t *m = &r->sm[s];
            tb_dut_in_t *p = &in.sm[s];
            if (m->presenting && !m->shown)
                m->shown = r->o.req_gap_pct == 0u || ga_rng_below(&r->rng, 100) >= r->o.req_gap_pct;
            if (m->presenting && m->shown) {
                const tb_req_t *q = &m->cur.req;
                p->req_valid = 1;
                p->req_op = q->op;
                p->req_id = q->id;
                p->req_warp = q->warp;
                p->req_active = q->active;
                memcpy(p->req_addr, q->addr, sizeof p->req_addr);
                p->req_size = q->size_log2;
                p->req_md = q->md;
                p->req_cfg_addr = q->cfg_addr;
            } else {
                p->req_valid = 0;
            }
            p->rsp_ready = ga_rng_below(&r->rng, 100) >= r->o.rsp_stall_pct ? 1u : 0u;
        }
        /* shared ports: each SM's memory model says what it has due; one response is shown */
        unsigned cand[TB_SYS_MAX_SMS], nc = 0, ocand[TB_SYS_MAX_SMS], no = 0;
        tb_dut_in_t scr[TB_SYS_MAX_SMS];
        for (unsigned s = 0; s < N; s++) {
            tb_memsys_drive(&r->sm[s].ms, r->cycle, &scr[s]);
            if (scr[s].mem_rsp_valid) cand[nc++] = s;
            if (scr[s].orc_rsp_valid) ocand[no++] = s;
        }
        in.mem_req_ready = ga_rng_below(&r->rng, 100) >= r->o.mem_stall_pct ? 1u : 0u;
        in.orc_req_ready = ga_rng_below(&r->rng, 100) >= r->o.orc_stall_pct ? 1u : 0u;
        in.mem_rsp_valid = 0;
        if (nc > 0u) {
            unsigned s = cand[ga_rng_below(&r->rng, nc)];
            in.mem_rsp_valid = 1;
            in.mem_rsp_sm = (uint8_t)s;
            in.mem_rsp_err = scr[s].mem_rsp_err;
            memcpy(in.mem_rsp_data, scr[s].mem_rsp_data, 32);
        } else {
            in.mem_rsp_sm = (uint8_t)ga_rng_below(&r->rng, N);
            memcpy(in.mem_rsp_data, scr[0].mem_rsp_data, 32);
        }
        in.orc_rsp_valid = 0;
        if (no > 0u) {
            unsigned s = ocand[ga_rng_below(&r->rng, no)];
            in.orc_rsp_valid = 1;
            in.orc_rsp_sm = (uint8_t)s;
            in.orc_rsp_found = scr[s].orc_rsp_found;
            in.orc_rsp_idx = scr[s].orc_rsp_idx;
        } else {
            in.orc_rsp_sm = (uint8_t)ga_rng_below(&r->rng, N);
            in.orc_rsp_found = (uint8_t)ga_rng_below(&r->rng, 2);
            in.orc_rsp_idx = ga_rng_next(&r->rng);
        }
        /* runtime port */
        in.rt_valid = 0;
        if (!r->rt_busy && r->rtn > 0u) {
            const rt_cmd_t *c = &r->rtq[r->rth];
            in.rt_valid = 1;
            in.rt_op = (uint8_t)(c->op - TB_OP_INVALIDATE);
            in.rt_md = c->md;
            in.rt_cfg_addr = c->cfg_addr;
        }

        /* 2. evaluate, sample */
        tb_sys_set_inputs(r->dut, &in);
        tb_sys_eval(r->dut);
        tb_sys_get_outputs(r->dut, &out);
        for (unsigned s = 0; s < N; s++) tb_chk_cycle(r->sm[s].chk, r->cycle);

        /* protocol: payloads held while valid && !ready */
        for (unsigned s = 0; s < N; s++)
            if (r->sm[s].prev_rsp_stall && !same_rsp(r, &out.sm[s], &r->prev.sm[s]))
                SYS_FAIL(r, s, "protocol: SM %u's response (id %u) dropped or changed while rsp_ready_i was low", s,
                         r->prev.sm[s].rsp_id);
        if (r->prev_mem_stall && !(out.mem_req_valid && out.mem_req_addr == r->prev.mem_req_addr &&
                                   out.mem_req_len == r->prev.mem_req_len && out.mem_req_sm == r->prev.mem_req_sm))
            SYS_FAIL(r, r->prev.mem_req_sm, "protocol: shared memory request dropped or changed while not ready");
        if (r->prev_orc_stall &&
            !(out.orc_req_valid && out.orc_req_va == r->prev.orc_req_va && out.orc_req_sm == r->prev.orc_req_sm))
            SYS_FAIL(r, r->prev.orc_req_sm, "protocol: shared oracle query dropped or changed while not ready");
        /* rt_ready_o is high again in the cycle of the acknowledgement */
        if (out.rt_ready != ((r->rt_busy && !out.rt_ack) ? 0u : 1u))
            SYS_FAIL(r, 0, "rt_ready_o %u while a command is %s", out.rt_ready, r->rt_busy ? "in flight" : "not in flight");

        /* 3. transfers, in the checker's order per SM */
        bool progress = false;
        if (in.rt_valid && out.rt_ready) {
            r->rt_cur = r->rtq[r->rth];
            r->rth = (r->rth + 1u) % RTQ;
            r->rtn--;
            r->rt_busy = true;
            r->rt_cmds++;
            r->rt_opidx = r->opidx;
            for (unsigned s = 0; s < N; s++) r->sm[s].acc_rt = r->sm[s].rsp_rt = false;
            progress = true;
        }
        for (unsigned s = 0; s < N; s++) {
            sm_t *m = &r->sm[s];
            bool lsu_acc = in.sm[s].req_valid && out.sm[s].req_ready;
            if (lsu_acc && out.rt_acc[s]) SYS_FAIL(r, s, "SM %u accepted an LSU request and the runtime command at once", s);
            if (lsu_acc) {
                tb_chk_req(m->chk, &m->cur.req);
                m->id_busy[m->cur.req.id] = 1;
                if ((m->cur.req.flags & TB_RF_SEQ) != 0u) {
                    m->seq_wait = true;
                    m->seq_id = m->cur.req.id;
                }
                m->presenting = false;
                m->reqs++;
                progress = true;
            }
            if (out.rt_acc[s]) {
                if (!r->rt_busy || m->acc_rt) {
                    SYS_FAIL(r, s, "rt_acc_o of SM %u with no runtime command due there", s);
                } else {
                    tb_req_t q;
                    memset(&q, 0, sizeof q);
                    q.op = r->rt_cur.op;
                    q.id = (uint16_t)r->sys_id;
                    q.md = r->rt_cur.md;
                    q.cfg_addr = r->rt_cur.cfg_addr;
                    q.flags = r->rt_cur.flags;
                    q.opidx = r->rt_opidx;
                    tb_chk_req(m->chk, &q);
                    m->acc_rt = true;
                }
                progress = true;
            }
        }
        if (out.mem_req_valid && in.mem_req_ready) {
            unsigned s = out.mem_req_sm;
            if (s >= N) {
                SYS_FAIL(r, 0, "memory request names SM %u of %u", s, N);
            } else {
                if (!tb_memsys_accept_read(&r->sm[s].ms, r->cycle, out.mem_req_addr, out.mem_req_len))
                    SYS_FAIL(r, s, "memory model queue overflow");
                if (r->sm[s].ms.qn > 1u)
                    SYS_FAIL(r, s, "protocol: SM %u issued a second metadata read (0x%" PRIx64 ") with one in flight", s,
                             out.mem_req_addr);
                tb_chk_mem_req(r->sm[s].chk, out.mem_req_addr, out.mem_req_len);
            }
            progress = true;
        }
        if (in.mem_rsp_valid) {
            unsigned s = in.mem_rsp_sm;
            if (!out.mem_rsp_ready) {
                SYS_FAIL(r, s, "mem_rsp_ready_o low while SM %u waits for its read", s);
            } else {
                tb_chk_mem_rsp(r->sm[s].chk, in.mem_rsp_data, in.mem_rsp_err != 0u, tb_memsys_rsp_injected(&r->sm[s].ms));
                tb_memsys_rsp_taken(&r->sm[s].ms);
            }
            progress = true;
        }
        if (out.orc_req_valid && in.orc_req_ready) {
            unsigned s = out.orc_req_sm;
            if (s >= N) {
                SYS_FAIL(r, 0, "oracle query names SM %u of %u", s, N);
            } else {
                tb_memsys_accept_oracle(&r->sm[s].ms, r->cycle, out.orc_req_va);
                tb_chk_orc_req(r->sm[s].chk, out.orc_req_va);
            }
            progress = true;
        }
        if (in.orc_rsp_valid) {
            unsigned s = in.orc_rsp_sm;
            tb_chk_orc_rsp(r->sm[s].chk, in.orc_rsp_found != 0u, in.orc_rsp_idx, tb_memsys_orc_lie(&r->sm[s].ms));
            tb_memsys_orc_delivered(&r->sm[s].ms);
            progress = true;
        }
        bool rsp_now[TB_SYS_MAX_SMS];
        for (unsigned s = 0; s < N; s++) {
            sm_t *m = &r->sm[s];
            const tb_dut_out_t *o = &out.sm[s];
            if (o->ev_valid) {
                tb_chk_event(m->chk, o->ev_kind, o->ev_id, o->ev_slot, o->ev_lane);
                progress = true;
            }
            rsp_now[s] = o->rsp_valid && in.sm[s].rsp_ready;
            if (rsp_now[s]) {
                tb_rsp_t x;
                to_rsp(r, o, o->rsp_id, &x);
                tb_chk_rsp(m->chk, &x);
                if (x.id < r->nids) m->id_busy[x.id] = 0;
                if (m->seq_wait && x.id == m->seq_id) m->seq_wait = false;
                progress = true;
            }
            if (out.rt_rsp[s]) {
                if (!m->acc_rt || m->rsp_rt) {
                    SYS_FAIL(r, s, "runtime-command answer from SM %u that it was not due", s);
                } else {
                    tb_rsp_t x;
                    to_rsp(r, o, (uint16_t)r->sys_id, &x);
                    if (x.status != out.rt_rsp_status[s]) SYS_FAIL(r, s, "rt_rsp_status_o differs from rsp_status_o");
                    tb_chk_rsp(m->chk, &x);
                    m->rsp_rt = true;
                    rsp_now[s] = true;
                }
                progress = true;
            }
            m->prev_rsp_stall = o->rsp_valid && !in.sm[s].rsp_ready;
        }
        if (out.rt_ack) {
            if (!r->rt_busy) {
                SYS_FAIL(r, 0, "rt_ack_o with no runtime command in flight");
            } else {
                check_ack(r, &out);
                r->rt_busy = false;
                r->rt_acks++;
            }
            progress = true;
        }
        r->prev = out;
        r->prev_mem_stall = out.mem_req_valid && !in.mem_req_ready;
        r->prev_orc_stall = out.orc_req_valid && !in.orc_req_ready;

        /* 4. clock edge */
        tb_sys_tick(r->dut);
        r->cycle++;
        if (tb_sys_failed(r->dut)) {
            r->asserts++;
            SYS_FAIL(r, 0, "the RTL executed a failing assertion / $error at cycle %" PRIu64 " (its message is on stderr)",
                     r->cycle);
        }
        bool any_drained_check = false;
        for (unsigned s = 0; s < N; s++)
            if (rsp_now[s] && tb_chk_in_flight(r->sm[s].chk) == 0u && tb_memsys_idle(&r->sm[s].ms))
                any_drained_check = true;
        if (any_drained_check) {
            tb_sys_get_outputs(r->dut, &out);
            for (unsigned s = 0; s < N; s++)
                if (rsp_now[s] && tb_chk_in_flight(r->sm[s].chk) == 0u && tb_memsys_idle(&r->sm[s].ms))
                    tb_chk_drained(r->sm[s].chk, &out.sm[s]);
        }

        /* watchdog */
        if (progress) last_progress = r->cycle;
        if ((r->cycle & 1023u) == 0u) {
            for (unsigned s = 0; s < N; s++) {
                tb_req_t old;
                uint64_t acc = 0;
                if (tb_chk_oldest(r->sm[s].chk, &old, &acc) && r->cycle - acc > r->o.timeout) {
                    SYS_FAIL(r, s, "timeout: SM %u request id %u (%s) got no response within %" PRIu64 " cycles", s,
                             old.id, tb_op_name(old.op), r->o.timeout);
                    r->fatal++;
                    stop = true;
                }
            }
        }
        if (r->cycle - last_progress > r->o.timeout) {
            SYS_FAIL(r, 0, "timeout: nothing moved for %" PRIu64 " cycles", r->o.timeout);
            r->fatal++;
            stop = true;
        }
    }
    if (!stop) {
        tb_sys_get_outputs(r->dut, &out);
        for (unsigned s = 0; s < N; s++) tb_chk_drained(r->sm[s].chk, &out.sm[s]);
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double secs = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
    uint64_t bad = total_mismatches(r);
    if (!r->o.quiet || bad != 0u) print_summary(r, secs);
    if (bad != 0u) {
        printf("RESULT FAIL %s seed=0x%" PRIx64 " layout=%s: %" PRIu64 " mismatch(es); first at op %" PRIu64 "\n",
               r->info.name, r->o.seed, ga_layout_name(r->o.layout), bad, r->first_mm_op);
        printf("RERUN %s --seed 0x%" PRIx64 " --init-seed %" PRIu64 " --layout %s --ops %" PRIu64 "\n", r->info.name,
               r->o.seed, r->o.init_seed, ga_layout_name(r->o.layout), r->o.ops);
    } else {
        uint64_t reqs = 0;
        for (unsigned s = 0; s < N; s++) {
            tb_chk_stats_t u = tb_chk_stats(r->sm[s].chk);
            for (unsigned i = 0; i < TB_OPS; i++) reqs += u.req[i];
        }
        printf("RESULT PASS %s %s %" PRIu64 " requests\n", r->info.name, ga_layout_name(r->o.layout), reqs);
    }
    for (unsigned s = 0; s < N; s++) {
        tb_chk_destroy(r->sm[s].chk);
        tb_gen_destroy(r->sm[s].gen);
        free(r->sm[s].fq);
    }
    tb_world_fini(&r->w);
    tb_sys_destroy(r->dut);
    free(r->sm);
    free(r->rtq);
    return bad != 0u ? 1 : 0;
}
