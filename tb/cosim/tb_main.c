/*
 * tb_main.c — the co-simulation driver: ga_cosim [options].
 *
 * Builds the world (simulated memory + runtime), a stimulus source (random or a trace), the memory
 * and oracle port models and the lockstep checker, then runs the DUT cycle by cycle:
 *
 *   1. choose this cycle's inputs: the request being presented (held until accepted), rsp_ready,
 *      and the memory / oracle inputs;
 *   2. eval with the clock low, read the outputs, decide which handshakes complete at this edge;
 *   3. tell the checker, in this order: request accepted, memory request, memory response, oracle
 *      query, oracle answer, MLB event, response;
 *   4. rising edge.
 *
 * Host actions (malloc, free, corrupting metadata) happen between cycles. An allocation, a free
 * that reclaims, a corrupt structure and every configuration write wait until nothing is in flight
 * (spec §8: the structure's shape changes only while no walk is in flight). A plain free does not
 * wait: it rewrites the entry's tag and the runtime's invalidations follow as OP_INVALIDATE
 * requests, racing the walks in flight.
 *
 * Exit status: 0 when every check passed, 1 on any mismatch or failure, 2 on bad arguments or a
 * malformed trace.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ga_rng.h"
#include "tb_chk.h"
#include "tb_memsys.h"
#include "tb_stim.h"

typedef struct {
    uint64_t seed, ops;
    ga_layout_t layout;
    const char *trace;
    const char *dut_args;
    uint64_t init_seed;  /* registers without a reset: 0 from 0, else random from this seed */
    bool init_seed_set;  /* --init-seed given (else drawn from --seed) */
    unsigned max_print;
    uint64_t timeout;
    const char *fst;
    uint64_t fst_from, fst_to;
    tb_mem_knobs_t mk;
    unsigned rsp_stall_pct; /* rsp_ready_i low */
    unsigned req_gap_pct;   /* cycles without a request although one is waiting */
    unsigned max_out;       /* cap on requests in flight (0: 2^IdW) */
    bool quiet, verbose, halt_refuses_maint;
    bool no_terminate, no_corrupt, no_illegal;
    int cfg_live;        /* -1: drawn from the seed; 0 / 1: --no-cfg-live / --cfg-live */
    const char *cov_out;
    const char *label;
    uint64_t stop_after; /* stop issuing after this many requests (re-runs) */
    bool top_heap;       /* heap ending at 2^V */
    bool no_assert;      /* RTL assertions off (debugging) */
} opts_t;

/* ------------------------------------------------------------------------------------------------ */

static void usage(FILE *f)
{
    fprintf(f,
            "usage: ga_cosim [options]\n"
            "  --seed N            random seed (decimal or 0x hex; default 1)\n"
            "  --init-seed N       the DUT's registers without a reset start from random values seeded by N\n"
            "                      (1..2^31-1), or from 0 (N = 0); default: drawn from --seed\n"
            "  --ops N             random requests to issue (default 10000)\n"
            "  --layout L          list | bst | table | index (default bst)\n"
            "  --trace FILE        replay a text trace instead of random stimulus (tb/README.md)\n"
            "  --max-print N       mismatches printed in full (default 20)\n"
            "  --timeout N         cycles a request may wait for its response (default 2000000)\n"
            "  --lat MIN:MAX       memory latency in cycles (default 0:3)\n"
            "  --slow PCT:LAT      PCT %% of reads get up to LAT extra cycles (default 5:40)\n"
            "  --mem-stall PCT     %% cycles mem_req_ready_i is low (default 20)\n"
            "  --mem-hold PCT      %% cycles a due memory response is held back (default 20)\n"
            "  --rsp-stall PCT     %% cycles rsp_ready_i is low (default 20)\n"
            "  --req-gap PCT       %% cycles no request is presented (default 10)\n"
            "  --orc-stall PCT     %% cycles orc_req_ready_i is low (default 20)\n"
            "  --orc-lat N         oracle latency up to N cycles (default 4)\n"
            "  --err-ppm N         injected memory error responses per million reads (default 2000)\n"
            "  --orc-lie-ppm N     wrong oracle answers per million (default 5000)\n"
            "  --max-out N         requests in flight at most (default: all ids)\n"
            "  --top-heap          place the heap so that it ends at 2^V\n"
            "  --no-terminate | --no-corrupt | --no-illegal   leave out those directed bursts\n"
            "  --cfg-live | --no-cfg-live   configuration writes while misses are in flight: always / never\n"
            "                      (default: in 3 of 4 seeds)\n"
            "  --no-assert         switch the RTL's assertions off (debugging only)\n"
            "  --halt-refuses-maint  expect INVALIDATE/FLUSH/CFG_WRITE to be refused while halted\n"
            "  --fst FILE          write an FST waveform (traced builds only)\n"
            "  --fst-window A:B    ... only from request A to request B\n"
            "  --stop-after N      issue no request after the N-th\n"
            "  --coverage FILE     coverage data file (coverage builds)\n"
            "  --dut ARGS          more arguments for the DUT (the Verilated shim knows only init-seed=N)\n"
            "  --label TEXT        name printed in the summary\n"
            "  --quiet | --verbose\n");
}

static int parse_u64(const char *s, uint64_t *v)
{
    if (s == NULL || *s == '\0' || *s == '-') return -1;
    char *end = NULL;
    errno = 0;
    unsigned long long x = strtoull(s, &end, 0);
    if (errno != 0 || end == s || *end != '\0') return -1;
    *v = (uint64_t)x;
    return 0;
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
    if (parse_u64(buf, a) != 0 || parse_u64(c + 1, b) != 0) return -1;
    return 0;
}

static bool in_range(uint64_t x, uint64_t lo, uint64_t hi) { return x >= lo && x <= hi; }

static int bad_arg(const char *opt, const char *val)
{
    fprintf(stderr, "ga_cosim: bad value for %s: '%s'\n", opt, val != NULL ? val : "(missing)");
    usage(stderr);
    return 2;
}

static int parse_opts(int argc, char **argv, opts_t *o)
{
    memset(o, 0, sizeof *o);
    o->seed = 1;
    o->ops = 10000;
    o->layout = GA_LAYOUT_BST;
    o->max_print = 20;
    o->cfg_live = -1;
    o->timeout = 2000000;
    o->mk.lat_min = 0;
    o->mk.lat_max = 3;
    o->mk.slow_pct = 5;
    o->mk.slow_lat = 40;
    o->mk.req_stall_pct = 20;
    o->mk.rsp_stall_pct = 20;
    o->mk.err_ppm = 2000;
    o->mk.orc_stall_pct = 20;
    o->mk.orc_lat_max = 4;
    o->mk.orc_lie_ppm = 5000;
    o->rsp_stall_pct = 20;
    o->req_gap_pct = 10;
    o->fst_to = UINT64_MAX;
    o->stop_after = UINT64_MAX;
    o->init_seed = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        uint64_t x = 0, y = 0;
#define NEXT_U64(field, lo, hi)                                                                   \
    do {                                                                                          \
        if (parse_u64(v, &x) != 0 || !in_range(x, lo, hi)) return bad_arg(a, v);                  \
        field = x;                                                                                \
        i++;                                                                                      \
    } while (0)
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            usage(stdout);
            exit(0);
        } else if (strcmp(a, "--seed") == 0) NEXT_U64(o->seed, 0, UINT64_MAX);
        else if (strcmp(a, "--init-seed") == 0) {
            NEXT_U64(o->init_seed, 0, INT32_MAX);
            o->init_seed_set = true;
        }
        else if (strcmp(a, "--ops") == 0) NEXT_U64(o->ops, 0, UINT64_MAX);
        else if (strcmp(a, "--max-print") == 0) NEXT_U64(o->max_print, 0, 1000000);
        else if (strcmp(a, "--timeout") == 0) NEXT_U64(o->timeout, 100, UINT64_MAX);
        else if (strcmp(a, "--mem-stall") == 0) NEXT_U64(o->mk.req_stall_pct, 0, 95);
        else if (strcmp(a, "--mem-hold") == 0) NEXT_U64(o->mk.rsp_stall_pct, 0, 95);
        else if (strcmp(a, "--rsp-stall") == 0) NEXT_U64(o->rsp_stall_pct, 0, 95);
        else if (strcmp(a, "--req-gap") == 0) NEXT_U64(o->req_gap_pct, 0, 95);
        else if (strcmp(a, "--orc-stall") == 0) NEXT_U64(o->mk.orc_stall_pct, 0, 95);
        else if (strcmp(a, "--orc-lat") == 0) NEXT_U64(o->mk.orc_lat_max, 0, 1000);
        else if (strcmp(a, "--err-ppm") == 0) NEXT_U64(o->mk.err_ppm, 0, 1000000);
        else if (strcmp(a, "--orc-lie-ppm") == 0) NEXT_U64(o->mk.orc_lie_ppm, 0, 1000000);
        else if (strcmp(a, "--max-out") == 0) NEXT_U64(o->max_out, 1, 65536);
        else if (strcmp(a, "--stop-after") == 0) NEXT_U64(o->stop_after, 0, UINT64_MAX);
        else if (strcmp(a, "--layout") == 0) {
            if (v == NULL) return bad_arg(a, v);
            if (!ga_layout_parse(v, &o->layout) || !ga_layout_in_rtl(o->layout)) return bad_arg(a, v);
            i++;
        } else if (strcmp(a, "--lat") == 0 || strcmp(a, "--slow") == 0 || strcmp(a, "--fst-window") == 0) {
            if (parse_pair(v, &x, &y) != 0) return bad_arg(a, v);
            if (strcmp(a, "--lat") == 0) {
                if (x > y || y > 1000) return bad_arg(a, v);
                o->mk.lat_min = (unsigned)x;
                o->mk.lat_max = (unsigned)y;
            } else if (strcmp(a, "--slow") == 0) {
                if (x > 100 || y > 100000) return bad_arg(a, v);
                o->mk.slow_pct = (unsigned)x;
                o->mk.slow_lat = (unsigned)y;
            } else {
                if (x > y) return bad_arg(a, v);
                o->fst_from = x;
                o->fst_to = y;
            }
            i++;
        } else if (strcmp(a, "--trace") == 0 || strcmp(a, "--fst") == 0 || strcmp(a, "--dut") == 0 ||
                   strcmp(a, "--coverage") == 0 || strcmp(a, "--label") == 0) {
            if (v == NULL) return bad_arg(a, v);
            if (strcmp(a, "--trace") == 0) o->trace = v;
            else if (strcmp(a, "--fst") == 0) o->fst = v;
            else if (strcmp(a, "--dut") == 0) o->dut_args = v;
            else if (strcmp(a, "--coverage") == 0) o->cov_out = v;
            else o->label = v;
            i++;
        } else if (strcmp(a, "--quiet") == 0) o->quiet = true;
        else if (strcmp(a, "--verbose") == 0) o->verbose = true;
        else if (strcmp(a, "--top-heap") == 0) o->top_heap = true;
        else if (strcmp(a, "--no-assert") == 0) o->no_assert = true;
        else if (strcmp(a, "--no-terminate") == 0) o->no_terminate = true;
        else if (strcmp(a, "--no-corrupt") == 0) o->no_corrupt = true;
        else if (strcmp(a, "--no-illegal") == 0) o->no_illegal = true;
        else if (strcmp(a, "--cfg-live") == 0) o->cfg_live = 1;
        else if (strcmp(a, "--no-cfg-live") == 0) o->cfg_live = 0;
        else if (strcmp(a, "--halt-refuses-maint") == 0) o->halt_refuses_maint = true;
        else {
            fprintf(stderr, "ga_cosim: unknown option '%s'\n", a);
            usage(stderr);
            return 2;
        }
#undef NEXT_U64
    }
    return 0;
}

/* ------------------------------------------------------------------------------------------------ */

#define FOLLOW_Q 4096u

typedef struct {
    opts_t o;
    tb_dut_t *dut;
    tb_dut_info_t info;
    tb_world_t w;
    tb_gen_t *gen;
    tb_trace_t *tr;
    tb_memsys_t ms;
    tb_chk_t *chk;
    ga_rng_t rng;
    uint64_t cycle, opidx;
    /* the request on the port */
    bool presenting, shown;
    tb_item_t cur;
    bool seq_wait; /* a SEQ request was accepted: wait for its response */
    uint16_t seq_id;
    /* follow-up items (invalidations and ROOT writes after host actions, and items put back
     * because they must wait) come before the source's next item */
    tb_item_t *fq;
    unsigned fh, fn;
    unsigned idle_left;
    unsigned max_out;
    bool src_done;
    /* ids */
    uint8_t *id_busy;
    unsigned nids;
    /* per-id expectation from a trace line */
    unsigned *id_exp;
    uint64_t *id_exp_val;
    tb_req_t *id_req;
    /* protocol checks: last cycle's outputs */
    tb_dut_out_t prev;
    bool prev_rsp_stall, prev_mem_stall, prev_orc_stall;
    /* waveform */
    bool fst_open, fst_done;
    /* stats */
    uint64_t allocs, alloc_fail, frees, bursts_corrupt, poisons, fatal, asserts;
    uint32_t max_height;    /* the structure's largest height after a host operation */
    uint64_t first_mm_op;
    bool any_mm;
} run_t;

static void on_mismatch(void *ctx, uint64_t opidx, uint64_t cycle)
{
    run_t *r = ctx;
    (void)cycle;
    if (!r->any_mm) {
        r->any_mm = true;
        r->first_mm_op = opidx;
    }
}

/* Open the waveform and write "<path>.cfg" beside it: the parameters tb/scripts/wave.sh needs to fit
 * the saved GTKWave view (tb/waves/ga_mlu.gtkw) to this configuration's vector widths. */
static int wave_open(run_t *r, const char *path)
{
    if (tb_dut_trace_open(r->dut, path) != 0) return -1;
    size_t n = strlen(path) + 5u;
    char *side = malloc(n);
    if (side != NULL) {
        snprintf(side, n, "%s.cfg", path);
        FILE *f = fopen(side, "w");
        if (f != NULL) {
            fprintf(f, "cfg=%s lanes=%u mlb=%u tag=%u idw=%u\n", r->info.name, r->info.lanes, r->info.mlb_entries,
                    r->info.tag_bits, r->info.id_bits);
            fclose(f);
        }
        free(side);
    }
    return 0;
}

static void fq_push(run_t *r, const tb_item_t *it)
{
    if (r->fn == FOLLOW_Q) {
        tb_chk_fail(r->chk, r->opidx, "follow-up queue overflow");
        return;
    }
    r->fq[(r->fh + r->fn) % FOLLOW_Q] = *it;
    r->fn++;
}

static void follow_req(run_t *r, unsigned op, uint64_t md, unsigned cfg_addr, uint32_t flags)
{
    tb_item_t it;
    memset(&it, 0, sizeof it);
    it.kind = TB_IT_REQ;
    it.name = -1;
    it.req.op = (uint8_t)op;
    it.req.md = md;
    it.req.cfg_addr = (uint8_t)cfg_addr;
    it.req.flags = flags;
    it.req.warp = (uint16_t)ga_rng_next(&r->rng);
    it.req.active = (uint32_t)ga_rng_next(&r->rng);
    for (unsigned l = 0; l < TB_LANES_MAX; l++) it.req.addr[l] = ga_rng_next(&r->rng);
    fq_push(r, &it);
}

/* After a host action: send the runtime's invalidations, then its ROOT if it moved. */
static void follow_host(run_t *r, bool from_free)
{
    const uint64_t *locs = NULL;
    size_t n = ga_rt_invalidations(r->w.rt, &locs);
    uint32_t h = ga_rt_stats(r->w.rt).height;
    if (h > r->max_height) r->max_height = h;
    for (size_t i = 0; i < n; i++) follow_req(r, TB_OP_INVALIDATE, locs[i], 0, from_free ? TB_RF_FREE_INVAL : 0u);
    if (from_free) tb_chk_note_free(r->chk, (unsigned)n);
    uint64_t root = ga_rt_root(r->w.rt);
    if (root != tb_chk_regs(r->chk)->root) follow_req(r, TB_OP_CFG_WRITE, root, TB_CFG_ROOT, TB_RF_SEQ);
}

static bool needs_drain(const run_t *r, const tb_item_t *it)
{
    switch (it->kind) {
    case TB_IT_ALLOC:
    case TB_IT_DRAIN:
    case TB_IT_CORRUPT:
    case TB_IT_SCRUB: return true;
    case TB_IT_FREE: {
        ga_rt_stats_t s = ga_rt_stats(r->w.rt);
        return s.freed >= r->w.rtc.reclaim_threshold; /* this free reclaims: shape changes */
    }
    case TB_IT_REQ: return (it->req.flags & TB_RF_SEQ) != 0u;
    default: return false;
    }
}

static bool drained(const run_t *r) { return tb_chk_in_flight(r->chk) == 0u && !r->seq_wait; }

/* Carry out a host item; true if it was consumed. */
static void do_host(run_t *r, tb_item_t *it)
{
    switch (it->kind) {
    case TB_IT_ALLOC: {
        uint64_t p = 0;
        ga_err_t e = tb_world_alloc(&r->w, it->size, it->name, &p);
        if (e == GA_OK) {
            r->allocs++;
            follow_host(r, false);
        } else {
            r->alloc_fail++;
            if (it->file != NULL) {
                fprintf(stderr, "%s:%u: alloc of %" PRIu64 " bytes failed: %s\n", it->file, it->line, it->size,
                        ga_strerror(e));
                r->fatal++;
            }
        }
        break;
    }
    case TB_IT_FREE: {
        uint64_t root0 = ga_rt_root(r->w.rt);
        bool was_drained = drained(r);
        ga_err_t e = tb_world_free(&r->w, it->ptr);
        if (e == GA_OK) {
            r->frees++;
            if (!was_drained && ga_rt_root(r->w.rt) != root0)
                tb_chk_fail(r->chk, r->opidx, "a free moved ROOT while walks were in flight (runtime broke spec §8)");
            follow_host(r, true);
        } else if (it->file != NULL) {
            fprintf(stderr, "%s:%u: free failed: %s\n", it->file, it->line, ga_strerror(e));
            r->fatal++;
        }
        break;
    }
    case TB_IT_IDLE: r->idle_left = (unsigned)it->len; break;
    case TB_IT_POISON:
        (void)ga_mem_poison(r->w.mem, it->addr, it->len);
        r->poisons++;
        break;
    case TB_IT_UNPOISON: ga_mem_unpoison_all(r->w.mem); break;
    case TB_IT_CORRUPT: {
        uint64_t root = tb_world_corrupt(&r->w, it->sub, it->addr, it->ptr, ga_rng_next(&r->rng));
        follow_req(r, TB_OP_CFG_WRITE, root, TB_CFG_ROOT, TB_RF_SEQ);
        r->bursts_corrupt++;
        break;
    }
    case TB_IT_SCRUB: tb_world_scrub(&r->w); break;
    case TB_IT_REF: tb_chk_set_ref_enabled(r->chk, it->sub != 0u); break;
    case TB_IT_MAXOUT: {
        unsigned m = it->sub == 0u ? r->nids : it->sub;
        if (m > r->nids) m = r->nids;
        if (r->o.max_out != 0u && m > r->o.max_out) m = r->o.max_out;
        r->max_out = m;
        break;
    }
    default: break;
    }
}

static bool next_item(run_t *r, tb_item_t *it)
{
    if (r->fn > 0u) {
        *it = r->fq[r->fh];
        r->fh = (r->fh + 1u) % FOLLOW_Q;
        r->fn--;
        return true;
    }
    if (r->src_done) return false;
    bool ok = r->tr != NULL ? tb_trace_next(r->tr, &r->w, it) : tb_gen_next(r->gen, &r->w, it);
    if (!ok) r->src_done = true;
    return ok;
}

/* Put an item that cannot be issued yet back at the front of the queue. */
static void push_back(run_t *r, const tb_item_t *it)
{
    if (r->fn == FOLLOW_Q) {
        tb_chk_fail(r->chk, r->opidx, "follow-up queue overflow");
        return;
    }
    r->fh = (r->fh + FOLLOW_Q - 1u) % FOLLOW_Q;
    r->fq[r->fh] = *it;
    r->fn++;
}

static int free_id(run_t *r)
{
    unsigned busy = tb_chk_in_flight(r->chk);
    if (busy >= r->max_out || busy >= r->nids) return -1;
    unsigned start = (unsigned)ga_rng_below(&r->rng, r->nids);
    for (unsigned k = 0; k < r->nids; k++) {
        unsigned id = (start + k) % r->nids;
        if (!r->id_busy[id]) return (int)id;
    }
    return -1;
}

/* Fill the request port if possible: host items are carried out on the way. */
static void try_present(run_t *r)
{
    if (r->presenting || r->seq_wait || r->opidx >= r->o.stop_after) return;
    if (r->idle_left > 0u) {
        r->idle_left--;
        return;
    }
    for (unsigned guard = 0; guard < 64u; guard++) {
        tb_item_t it;
        if (!next_item(r, &it)) return;
        if (needs_drain(r, &it) && !drained(r)) {
            push_back(r, &it);
            return;
        }
        if (it.kind != TB_IT_REQ) {
            do_host(r, &it);
            if (r->idle_left > 0u) return;
            continue;
        }
        int id = free_id(r);
        if (id < 0) {
            push_back(r, &it);
            return;
        }
        it.req.id = (uint16_t)id;
        it.req.opidx = r->opidx;
        if (it.file != NULL) {
            it.req.file = it.file;
            it.req.line = it.line;
        }
        r->cur = it;
        r->presenting = true;
        r->shown = false;
        return;
    }
}

/* ------------------------------------------------------------------------------------------------ */

static void to_rsp(const run_t *r, const tb_dut_out_t *o, tb_rsp_t *x)
{
    memset(x, 0, sizeof *x);
    x->id = o->rsp_id;
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

/* A trace line's expectation, checked on the DUT's response. */
static void check_expect(run_t *r, const tb_rsp_t *x)
{
    unsigned e = r->id_exp[x->id];
    if (e == TB_EXP_NONE) return;
    uint64_t want = r->id_exp_val[x->id];
    const tb_req_t *q = &r->id_req[x->id];
    bool ok = true;
    uint64_t got = 0;
    if (e == TB_EXP_STATUS) ok = (got = x->status) == want;
    else if (e == TB_EXP_KIND) ok = x->status == TB_ST_OK && (got = x->kind) == want;
    else if (e == TB_EXP_RD) ok = (got = x->rd) == want;
    if (!ok)
        tb_chk_fail(r->chk, q->opidx, "%s:%u: trace expects %s %" PRIu64 " (0x%" PRIx64 "), DUT gave %" PRIu64
                    " (0x%" PRIx64 ")", q->file != NULL ? q->file : "?", q->line,
                    e == TB_EXP_STATUS ? "status" : e == TB_EXP_KIND ? "exception kind" : "rd", want, want, got, got);
}

static bool protocol_checks(run_t *r, const tb_dut_out_t *o)
{
    bool ok = true;
    if (r->prev_rsp_stall) {
        const tb_dut_out_t *p = &r->prev;
        bool same = o->rsp_valid && o->rsp_id == p->rsp_id && o->rsp_op == p->rsp_op && o->rsp_status == p->rsp_status &&
                    o->rsp_rd == p->rsp_rd && o->rsp_fault == p->rsp_fault && o->rsp_exc_kind == p->rsp_exc_kind &&
                    o->rsp_exc_addr == p->rsp_exc_addr && o->rsp_exc_md == p->rsp_exc_md &&
                    o->rsp_exc_tb == p->rsp_exc_tb && o->rsp_exc_esize == p->rsp_exc_esize &&
                    o->rsp_exc_lane == p->rsp_exc_lane &&
                    memcmp(o->rsp_addr, p->rsp_addr, sizeof(uint64_t) * r->info.lanes) == 0;
        if (!same) {
            tb_chk_fail(r->chk, UINT64_MAX, "protocol: response (id %u) dropped or changed while rsp_ready_i was low",
                        p->rsp_id);
            ok = false;
        }
    }
    if (r->prev_mem_stall &&
        !(o->mem_req_valid && o->mem_req_addr == r->prev.mem_req_addr && o->mem_req_len == r->prev.mem_req_len)) {
        tb_chk_fail(r->chk, UINT64_MAX, "protocol: memory request 0x%" PRIx64 " dropped or changed while not ready",
                    r->prev.mem_req_addr);
        ok = false;
    }
    if (r->prev_orc_stall && !(o->orc_req_valid && o->orc_req_va == r->prev.orc_req_va)) {
        tb_chk_fail(r->chk, UINT64_MAX, "protocol: oracle query dropped or changed while not ready");
        ok = false;
    }
    return ok;
}

static void print_summary(run_t *r, double secs)
{
    tb_chk_stats_t s = tb_chk_stats(r->chk);
    uint64_t reqs = 0;
    for (unsigned i = 0; i < TB_OPS; i++) reqs += s.req[i];
    printf("cosim %s%s%s seed=0x%" PRIx64 " init-seed=%" PRIu64 " layout=%s%s%s\n", r->info.name,
           r->o.label ? " " : "", r->o.label ? r->o.label : "", r->o.seed, r->o.init_seed,
           ga_layout_name(r->o.layout), r->o.trace ? " trace=" : "", r->o.trace ? r->o.trace : "");
    printf("  ops %" PRIu64 ":", reqs);
    for (unsigned i = 0; i < TB_OPS; i++) printf(" %s %" PRIu64, tb_op_name(i), s.req[i]);
    printf("\n  host: allocs %" PRIu64 " (failed %" PRIu64 ") frees %" PRIu64 " corrupt %" PRIu64 " poison %" PRIu64 "\n",
           r->allocs, r->alloc_fail, r->frees, r->bursts_corrupt, r->poisons);
    printf("  MLB: range hit %" PRIu64 " miss %" PRIu64 ", loc hit %" PRIu64 " miss %" PRIu64 ", fills %" PRIu64
           " dropped %" PRIu64 ", invalidations %" PRIu64 ", flushes %" PRIu64 "\n",
           s.range_hits, s.range_misses, s.loc_hits, s.loc_misses, s.fills, s.fill_drops, s.invals, s.flushes);
    printf("  walks %" PRIu64 ", fetches %" PRIu64 ", reads %" PRIu64 " (error responses %" PRIu64 ", injected %" PRIu64
           "), oracle %" PRIu64 " (lies %" PRIu64 ")\n",
           s.walks, s.fetches, s.reads, s.read_errors, r->ms.st.injected, s.oracle_queries, r->ms.st.lies);
    if (r->o.layout == GA_LAYOUT_INDEX) {
        ga_rt_stats_t rs = ga_rt_stats(r->w.rt);
        printf("  index walks: FOUND %" PRIu64 " RANGE_ONLY %" PRIu64 " NOT_FOUND %" PRIu64 " STEP_LIMIT %" PRIu64
               " FAULT %" PRIu64 "; 128-byte node reads %" PRIu64 " (4 beats each; %" PRIu64 " with an error beat)\n",
               s.index_walks[GA_WALK_FOUND], s.index_walks[GA_WALK_RANGE_ONLY], s.index_walks[GA_WALK_NOT_FOUND],
               s.index_walks[GA_WALK_STEP_LIMIT], s.index_walks[GA_WALK_FAULT], s.node128_reads, s.node128_errors);
        printf("  of them into the freed index (ROOT - 128, spec 3.3): FOUND %" PRIu64 " RANGE_ONLY %" PRIu64
               " NOT_FOUND %" PRIu64 " STEP_LIMIT %" PRIu64 " FAULT %" PRIu64 "\n",
               s.index_freed_walks[GA_WALK_FOUND], s.index_freed_walks[GA_WALK_RANGE_ONLY],
               s.index_freed_walks[GA_WALK_NOT_FOUND], s.index_freed_walks[GA_WALK_STEP_LIMIT],
               s.index_freed_walks[GA_WALK_FAULT]);
        printf("  index: at most %" PRIu32 " node levels; repacks (spec 7.7) %" PRIu64 "; at the end %" PRIu32
               " levels, %" PRIu64 " entries\n",
               r->max_height, rs.index_repacks, rs.height, rs.nodes);
    }
    printf("  faults:");
    for (unsigned k = 1; k < GA_EXC_KINDS; k++) printf(" %s %" PRIu64, ga_exc_name((ga_exc_kind_t)k), s.faults_by_kind[k]);
    printf("; HALTED %" PRIu64 ", CFG_ERROR %" PRIu64 "\n", s.halted_rsps, s.cfg_errors);
    printf("  third opinion: %" PRIu64 " LOADMETA results compared with ga_ref_search (%" PRIu64 " not comparable)\n",
           s.ref_checks, s.ref_skipped);
    printf("  configuration under load: %" PRIu64 " writes with requests in flight; registers of acceptance != live"
           " ones in %" PRIu64 " records (SM_ID), %" PRIu64 " halt decisions (POLICY), %" PRIu64 " walks\n",
           s.cfg_under_load, s.stale_sm, s.stale_policy, s.stale_walk);
    printf("  cycles %" PRIu64 ", %.2f s, %.0f ops/s, %.2f Mcycles/s\n", r->cycle, secs, secs > 0 ? (double)reqs / secs : 0.0,
           secs > 0 ? (double)r->cycle / secs / 1e6 : 0.0);
    printf("  RTL assertion failures %" PRIu64 "\n", r->asserts);
    printf("  mismatches %" PRIu64 "\n", s.mismatches + r->fatal);
}

int main(int argc, char **argv)
{
    static run_t run;
    run_t *r = &run;
    int rc = parse_opts(argc, argv, &r->o);
    if (rc != 0) return rc;

    /* The DUT's registers without a reset (the MLB entries' fields, the check's stages, the copies
     * in RAM) start from values drawn from the run's seed unless --init-seed says otherwise, so that
     * a design that read one before writing it shows as a mismatch or an assertion (tb/README.md). */
    if (!r->o.init_seed_set) r->o.init_seed = tb_init_seed_of(r->o.seed);
    char dut_args[512];
    int n = snprintf(dut_args, sizeof dut_args, "init-seed=%" PRIu64 "%s%s", r->o.init_seed,
                     r->o.dut_args != NULL ? " " : "", r->o.dut_args != NULL ? r->o.dut_args : "");
    if (n < 0 || (size_t)n >= sizeof dut_args) {
        /* the longest prefix is "init-seed=2147483647 ", 21 characters */
        fprintf(stderr, "ga_cosim: --dut: the arguments are too long (at most %zu characters)\n", sizeof dut_args - 22);
        return 2;
    }
    r->dut = tb_dut_create(dut_args);
    if (r->dut == NULL) return 2;
    r->info = tb_dut_info(r->dut);
    if (r->o.layout == GA_LAYOUT_INDEX && !r->info.has_index) {
        fprintf(stderr, "ga_cosim: --layout index: this DUT (%s) is built without the INDEX walker (HasIndex 0)\n",
                r->info.name);
        return 2;
    }
    r->nids = 1u << r->info.id_bits;
    r->max_out = r->o.max_out ? (r->o.max_out < r->nids ? r->o.max_out : r->nids) : r->nids;
    ga_rng_seed(&r->rng, r->o.seed ^ UINT64_C(0x647276));

    ga_rt_cfg_t rtc;
    ga_rt_default_cfg(&rtc, r->o.layout, r->info.tag_bits, r->o.seed);
    rtc.reclaim_threshold = 4u + (uint32_t)(r->o.seed % 29u);
    rtc.md_capacity = r->o.layout == GA_LAYOUT_TABLE ? 256u : 4096u;
    if (r->o.top_heap) {
        rtc.heap_size = UINT64_C(1) << 24;
        rtc.heap_base = ga_va_mask(r->info.tag_bits) + 1u - rtc.heap_size;
    }
    if (tb_world_init(&r->w, &rtc, r->info.lanes) != 0) {
        fprintf(stderr, "ga_cosim: cannot create the runtime\n");
        return 2;
    }
    if (r->o.trace != NULL) {
        r->tr = tb_trace_load(r->o.trace, &r->w);
        if (r->tr == NULL) return 2;
        if (tb_trace_lanes(r->tr) > r->info.lanes) {
            fprintf(stderr, "%s: needs %u lanes; this DUT has %u\n", r->o.trace, tb_trace_lanes(r->tr), r->info.lanes);
            return 2;
        }
    } else {
        tb_gen_cfg_t gc;
        memset(&gc, 0, sizeof gc);
        gc.seed = r->o.seed;
        gc.ops = r->o.ops;
        gc.lanes = r->info.lanes;
        gc.tag_bits = r->info.tag_bits;
        gc.id_bits = r->info.id_bits;
        gc.layout = r->o.layout;
        gc.terminate = !r->o.no_terminate;
        gc.corrupt = !r->o.no_corrupt;
        gc.illegal_cfg = !r->o.no_illegal;
        gc.rtl_layouts = r->info.has_index ? (unsigned)GA_LAYOUT_INDEX + 1u : (unsigned)GA_LAYOUT_INDEX;
        gc.cfg_live = r->o.cfg_live;
        r->gen = tb_gen_create(&gc);
        if (r->gen == NULL) return 2;
    }
    tb_memsys_init(&r->ms, &r->o.mk, r->w.mem, r->w.rt, r->o.seed);
    tb_chk_cfg_t cc;
    memset(&cc, 0, sizeof cc);
    cc.tag_bits = r->info.tag_bits;
    cc.mlb_entries = r->info.mlb_entries;
    cc.lanes = r->info.lanes;
    cc.id_bits = r->info.id_bits;
    cc.seed = r->o.seed;
    cc.max_print = r->o.max_print;
    cc.halt_refuses_maint = r->o.halt_refuses_maint;
    cc.verbose = r->o.verbose;
    cc.no_index = !r->info.has_index;
    r->chk = tb_chk_create(&cc);
    r->fq = calloc(FOLLOW_Q, sizeof *r->fq);
    r->id_busy = calloc(r->nids, 1);
    r->id_exp = calloc(r->nids, sizeof *r->id_exp);
    r->id_exp_val = calloc(r->nids, sizeof *r->id_exp_val);
    r->id_req = calloc(r->nids, sizeof *r->id_req);
    if (r->chk == NULL || r->fq == NULL || r->id_busy == NULL || r->id_exp == NULL || r->id_exp_val == NULL ||
        r->id_req == NULL) {
        fprintf(stderr, "ga_cosim: out of memory\n");
        return 2;
    }
    tb_chk_on_mismatch(r->chk, on_mismatch, r);
    tb_chk_set_world(r->chk, r->w.mem, r->w.rt, rtc.md_capacity);
    if (r->o.fst != NULL && !r->info.can_trace) {
        fprintf(stderr, "ga_cosim: --fst needs a build with tracing (make cosim-wave)\n");
        return 2;
    }

    /* The ROOT register starts at 0 and the runtime's structure is empty: they agree. Reset. */
    tb_dut_in_t in;
    tb_dut_out_t out;
    memset(&in, 0, sizeof in);
    memset(&out, 0, sizeof out);
    if (r->o.fst != NULL && r->o.fst_from == 0u) {
        if (wave_open(r, r->o.fst) != 0) {
            fprintf(stderr, "ga_cosim: cannot open %s\n", r->o.fst);
            return 2;
        }
        r->fst_open = true;
    }
    tb_dut_set_reset(r->dut, false);
    for (unsigned i = 0; i < 4u; i++) {
        tb_dut_set_inputs(r->dut, &in);
        tb_dut_eval(r->dut);
        tb_dut_tick(r->dut);
    }
    tb_dut_set_reset(r->dut, true);
    if (r->o.no_assert) tb_dut_assert_on(r->dut, false);

    /* LAYOUT resets to BST (spec §5.1): tell the unit which structure the runtime keeps. */
    if (rtc.layout != GA_LAYOUT_BST) follow_req(r, TB_OP_CFG_WRITE, (uint64_t)rtc.layout, TB_CFG_LAYOUT, TB_RF_SEQ);

    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    bool stop = false;
    uint64_t last_progress = 0;
    while (!stop) {
        try_present(r);
        if (!r->presenting && r->src_done && r->fn == 0u && tb_chk_in_flight(r->chk) == 0u &&
            tb_memsys_idle(&r->ms))
            break;
        if (!r->presenting && r->opidx >= r->o.stop_after && tb_chk_in_flight(r->chk) == 0u) break;

        /* waveform window (by request index) */
        if (r->o.fst != NULL && !r->fst_open && !r->fst_done && r->opidx >= r->o.fst_from) {
            if (wave_open(r, r->o.fst) == 0) r->fst_open = true;
        }
        if (r->fst_open && r->opidx > r->o.fst_to && tb_chk_in_flight(r->chk) == 0u) {
            tb_dut_trace_close(r->dut);
            r->fst_open = false;
            r->fst_done = true;
        }

        /* 1. inputs */
        /* a bubble only before a request is first shown: valid never drops before the transfer */
        if (r->presenting && !r->shown)
            r->shown = r->o.req_gap_pct == 0u || ga_rng_below(&r->rng, 100) >= r->o.req_gap_pct;
        if (r->presenting && r->shown) {
            const tb_req_t *q = &r->cur.req;
            in.req_valid = 1;
            in.req_op = q->op;
            in.req_id = q->id;
            in.req_warp = q->warp;
            in.req_active = q->active;
            memcpy(in.req_addr, q->addr, sizeof in.req_addr);
            in.req_size = q->size_log2;
            in.req_md = q->md;
            in.req_cfg_addr = q->cfg_addr;
        } else {
            in.req_valid = 0;
        }
        in.rsp_ready = (r->o.rsp_stall_pct == 0u || ga_rng_below(&r->rng, 100) >= r->o.rsp_stall_pct) ? 1u : 0u;
        tb_memsys_drive(&r->ms, r->cycle, &in);

        /* 2. evaluate, sample */
        tb_dut_set_inputs(r->dut, &in);
        tb_dut_eval(r->dut);
        tb_dut_get_outputs(r->dut, &out);
        tb_chk_cycle(r->chk, r->cycle);
        protocol_checks(r, &out);

        /* 3. transfers, in a fixed order */
        bool progress = false;
        if (in.req_valid && out.req_ready) {
            tb_chk_req(r->chk, &r->cur.req);
            uint16_t id = r->cur.req.id;
            r->id_busy[id] = 1;
            r->id_exp[id] = r->cur.exp;
            r->id_exp_val[id] = r->cur.exp_val;
            r->id_req[id] = r->cur.req;
            if ((r->cur.req.flags & TB_RF_SEQ) != 0u) {
                r->seq_wait = true;
                r->seq_id = id;
            }
            r->presenting = false;
            r->opidx++;
            progress = true;
        }
        if (out.mem_req_valid && in.mem_req_ready) {
            if (!tb_memsys_accept_read(&r->ms, r->cycle, out.mem_req_addr, out.mem_req_len))
                tb_chk_fail(r->chk, UINT64_MAX, "memory model queue overflow");
            if (r->ms.qn > 1u) /* §1.3: one read in flight at a time */
                tb_chk_fail(r->chk, UINT64_MAX, "protocol: a second metadata read (0x%" PRIx64
                            ") issued while one is in flight", out.mem_req_addr);
            tb_chk_mem_req(r->chk, out.mem_req_addr, out.mem_req_len);
            progress = true;
        }
        if (in.mem_rsp_valid && out.mem_rsp_ready) {
            tb_chk_mem_rsp(r->chk, in.mem_rsp_data, in.mem_rsp_err != 0u, tb_memsys_rsp_injected(&r->ms));
            tb_memsys_rsp_taken(&r->ms);
            progress = true;
        }
        if (out.orc_req_valid && in.orc_req_ready) {
            tb_memsys_accept_oracle(&r->ms, r->cycle, out.orc_req_va);
            tb_chk_orc_req(r->chk, out.orc_req_va);
            progress = true;
        }
        if (in.orc_rsp_valid) {
            tb_chk_orc_rsp(r->chk, in.orc_rsp_found != 0u, in.orc_rsp_idx, tb_memsys_orc_lie(&r->ms));
            tb_memsys_orc_delivered(&r->ms);
            progress = true;
        }
        if (out.ev_valid) {
            tb_chk_event(r->chk, out.ev_kind, out.ev_id, out.ev_slot, out.ev_lane);
            progress = true;
        }
        bool rsp_now = out.rsp_valid && in.rsp_ready;
        if (rsp_now) {
            tb_rsp_t x;
            to_rsp(r, &out, &x);
            if (x.id < r->nids && r->id_busy[x.id]) check_expect(r, &x);
            tb_chk_rsp(r->chk, &x);
            if (x.id < r->nids) r->id_busy[x.id] = 0;
            if (r->seq_wait && x.id == r->seq_id) r->seq_wait = false;
            progress = true;
        }
        r->prev = out;
        r->prev_rsp_stall = out.rsp_valid && !in.rsp_ready;
        r->prev_mem_stall = out.mem_req_valid && !in.mem_req_ready;
        r->prev_orc_stall = out.orc_req_valid && !in.orc_req_ready;

        /* 4. clock edge */
        tb_dut_tick(r->dut);
        r->cycle++;
        if (tb_dut_failed(r->dut)) {
            r->asserts++;
            tb_chk_fail(r->chk, r->opidx, "the RTL executed a failing assertion / $error / $stop at cycle %" PRIu64
                        " (its message is on stderr)", r->cycle);
        }
        if (rsp_now && tb_chk_in_flight(r->chk) == 0u && tb_memsys_idle(&r->ms)) {
            tb_dut_get_outputs(r->dut, &out);
            tb_chk_drained(r->chk, &out);
        }

        /* watchdog: no hang goes unreported */
        if (progress) last_progress = r->cycle;
        tb_req_t old;
        uint64_t acc = 0;
        if ((r->cycle & 1023u) == 0u && tb_chk_oldest(r->chk, &old, &acc) && r->cycle - acc > r->o.timeout) {
            tb_chk_fail(r->chk, old.opidx, "timeout: request id %u (%s) got no response within %" PRIu64
                        " cycles (accepted at cycle %" PRIu64 ")", old.id, tb_op_name(old.op), r->o.timeout, acc);
            r->fatal++;
            stop = true;
        }
        if (r->presenting && r->cycle - last_progress > r->o.timeout) {
            tb_chk_fail(r->chk, r->opidx, "timeout: request %s not accepted within %" PRIu64 " cycles",
                        tb_op_name(r->cur.req.op), r->o.timeout);
            r->fatal++;
            stop = true;
        }
    }
    if (!stop) {
        tb_dut_get_outputs(r->dut, &out);
        tb_chk_drained(r->chk, &out);
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double secs = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
    if (r->fst_open) tb_dut_trace_close(r->dut);
    if (r->o.cov_out != NULL) tb_dut_write_coverage(r->dut, r->o.cov_out);

    tb_chk_stats_t s = tb_chk_stats(r->chk);
    uint64_t bad = s.mismatches + r->fatal;
    if (!r->o.quiet || bad != 0u) print_summary(r, secs);
    if (bad != 0u) {
        printf("RESULT FAIL %s seed=0x%" PRIx64 " layout=%s: %" PRIu64 " mismatch(es); first at op %" PRIu64 "\n",
               r->info.name, r->o.seed, ga_layout_name(r->o.layout), bad, r->first_mm_op);
        if (r->o.trace != NULL)
            printf("RERUN %s --trace %s --layout %s --seed 0x%" PRIx64 " --init-seed %" PRIu64 "\n", r->info.name,
                   r->o.trace, ga_layout_name(r->o.layout), r->o.seed, r->o.init_seed);
        else
            printf("RERUN %s --seed 0x%" PRIx64 " --init-seed %" PRIu64 " --layout %s --ops %" PRIu64
                   "%s (port options: see the run's label)\n",
                   r->info.name, r->o.seed, r->o.init_seed, ga_layout_name(r->o.layout), r->o.ops,
                   r->o.top_heap ? " --top-heap" : "");
    } else if (!r->o.quiet) {
        printf("RESULT PASS %s\n", r->info.name);
    }
    tb_chk_destroy(r->chk);
    tb_gen_destroy(r->gen);
    tb_trace_destroy(r->tr);
    tb_world_fini(&r->w);
    tb_dut_destroy(r->dut);
    free(r->fq);
    free(r->id_busy);
    free(r->id_exp);
    free(r->id_exp_val);
    free(r->id_req);
    return bad != 0u ? 1 : 0;
}
