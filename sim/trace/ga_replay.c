/*
 * ga_replay.c — replay of gatrace records through the golden model (docs/traces.md §6; ga_replay.h).
 *
 * The replay wraps every SM's metadata read callback to time reads with the per-SM direct-mapped
 * metadata L1 of docs/traces.md §6.6; the data still comes from the model's memory, so the wrapper
 * changes no result. The records' memory operations become MLU operations through the one
 * compiler-mode dispatch (ga_exec.h), whose operations (op_*) time them and record their findings.
 *
 * Whether a detection is an incomplete check (ga_replay.h) is read from the model unit's counters
 * around each operation: every backend runs the model unit sys->sm[sm] (the RTL and board backends
 * run it beside the hardware), so its walk-end and per-kind lane counters say how the operation's
 * walks ended and how many lanes failed which way, without a change to the model's interface.
 */
#include "ga_replay.h"

#include "ga_exec.h"
#include "ga_layout.h"

#include <fnmatch.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

typedef struct ga_replay ga_replay_t;

/* One SM's read wrapper. */
typedef struct {
    ga_replay_t *rp;
    unsigned sm;
    ga_memif_t orig;
} rd_ctx_t;

struct ga_replay {
    ga_replay_cfg_t cfg;
    ga_trace_header_t hdr;
    ga_system_t sys;
    bool sys_ok;
    ga_backend_t be;
    bool be_ok;
    ga_exec_t ex;        /* the compiler-mode dispatch and its metadata registers */
    /* The record being dispatched, for the operations' messages and findings. */
    const ga_trace_reader_t *cur_r;
    const ga_tev_t *cur_ev;
    ga_trace_err_t *cur_err;
    rd_ctx_t *rd;
    uint64_t *l1;        /* sms * l1_lines line tags (line + 1; 0 = invalid) */
    uint64_t cur_cycles; /* read latency accumulated by the operation in progress */
    uint64_t *ptrs;      /* runtime pointer per allocation slot */
    uint64_t *ids;       /* trace ID per slot */
    uint32_t nptrs, capptrs;
    uint64_t *bkey;      /* base VA -> slot (newest allocation with that base) */
    uint32_t *bval;      /* slot + 1, 0 empty */
    size_t bcap, bcount;
    char **knames;
    uint32_t nk, capk;
    char **files;       /* origins of detections, interned */
    uint32_t nfiles, capfiles;
    uint32_t cur_kernel;
    bool in_kernel;
    bool wave_on;        /* the backend is writing a waveform (cfg.wave_path) */
    bool wave_seen;      /* a record of the window has arrived */
    uint64_t line_first, line_last; /* lines of the first and last record (for a window that missed) */
    ga_detection_t *det;
    size_t ndet, capdet;
    ga_replay_stats_t st;
};

/* ---------------------------------------------------------------------------------------------------
 * Helpers. */

static void eprintf(ga_trace_err_t *err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* snprintf into err->msg (no file position). */
static void eprintf(ga_trace_err_t *err, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    va_end(ap);
}

static int lerr(ga_trace_err_t *err, const ga_trace_reader_t *r, const ga_tev_t *ev, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* An error at the record: "FILE:LINE: message", FILE:LINE being the record's origin (ga_trace_origin:
 * the trace, or the Accel-Sim file it was imported from). Returns -1. */
static int lerr(ga_trace_err_t *err, const ga_trace_reader_t *r, const ga_tev_t *ev, const char *fmt, ...)
{
    const char *file = "trace";
    uint64_t line = ev->line;
    if (r) ga_trace_origin(r, &file, &line);
    int k = snprintf(err->msg, sizeof err->msg, "%s:%" PRIu64 ": ", file, line);
    if (k >= 0 && (size_t)k < sizeof err->msg) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err->msg + k, sizeof err->msg - (size_t)k, fmt, ap);
        va_end(ap);
    }
    return -1;
}

/* Number of set bits of m. */
static unsigned popcount32(uint32_t m)
{
    unsigned c = 0;
    for (; m; m &= m - 1u) c++;
    return c;
}

/* ---------------------------------------------------------------------------------------------------
 * Configuration. */

void ga_replay_default_cfg(ga_replay_cfg_t *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->mode = GA_MODE_COMPILER;
    cfg->layout = GA_LAYOUT_BST;
    cfg->tag_bits = 7;
    cfg->mlb_entries = 8;
    cfg->sms = 0;
    cfg->seed = 1;
    cfg->l1_lines = 128;
    cfg->l1_hit = 28;
    cfg->l1_miss = 300;
    cfg->mlb_cycles = 1;
    cfg->check_cycles = 3;
    cfg->max_detections = 100000;
}

/* The read wrapper: the model's read, then the metadata L1 lookup for its latency (docs/traces.md
 * §6.6). A read is one request; it touches every 32-byte sector of [addr, addr + len) (one for a node
 * or entry, four for a 128-byte index node). It hits, and costs l1_hit cycles, when every sector it
 * touches is in the L1; otherwise it costs l1_miss (the missing sectors are fetched together) and
 * brings them all in. */
static int timed_read(void *ctx, uint64_t addr, uint32_t len, uint8_t *buf)
{
    rd_ctx_t *c = ctx;
    ga_replay_t *rp = c->rp;
    int rc = c->orig.read(c->orig.read_ctx, addr, len, buf);
    uint64_t first = addr >> 5, last = len > 0u ? (addr + (len - 1u)) >> 5 : first;
    bool hit = true;
    for (uint64_t line = first; line <= last; line++) {
        uint64_t *tag = &rp->l1[(size_t)c->sm * rp->cfg.l1_lines + (size_t)(line % rp->cfg.l1_lines)];
        if (*tag != line + 1u) {
            hit = false;
            *tag = line + 1u;
        }
        if (line == UINT64_MAX) break;
    }
    if (hit) {
        rp->st.l1_hits++;
        rp->cur_cycles += rp->cfg.l1_hit;
    } else {
        rp->st.l1_misses++;
        rp->cur_cycles += rp->cfg.l1_miss;
    }
    return rc;
}

/* The dispatch's operations (ga_exec.h), defined with the findings below. */
static const ga_exec_ops_t replay_ops;

/* See ga_replay.h. Wraps every SM's metadata read with timed_read. */
int ga_replay_create(ga_replay_t **out, const ga_replay_cfg_t *cfg, const ga_trace_header_t *hdr,
                     ga_trace_err_t *err)
{
    *out = NULL;
    unsigned tag_bits = cfg->tag_bits ? cfg->tag_bits : (hdr->tag_bits ? hdr->tag_bits : 7u);
    if (tag_bits != 7u && tag_bits != 16u) {
        eprintf(err, "tag bits must be 7 or 16, not %u", tag_bits);
        return -1;
    }
    if (hdr->tag_bits && tag_bits != hdr->tag_bits) {
        eprintf(err, "the trace declares tag_bits=%u in its header (its raw pointers carry %u-bit tags): replay it "
                "with --tag-bits %u, or leave --tag-bits out", hdr->tag_bits, hdr->tag_bits, hdr->tag_bits);
        return -1;
    }
    if (cfg->tag_quarantine > GA_RT_QUARANTINE_MAX) {
        eprintf(err, "tag quarantine must be 0..%" PRIu32 ", not %" PRIu32, (uint32_t)GA_RT_QUARANTINE_MAX,
                cfg->tag_quarantine);
        return -1;
    }
    if (cfg->mlb_entries < 1u || cfg->mlb_entries > GA_MLB_MAX) {
        eprintf(err, "MLB entries must be 1..%u, not %u", GA_MLB_MAX, cfg->mlb_entries);
        return -1;
    }
    if (cfg->sms > GA_SYSTEM_MAX_SMS) {
        eprintf(err, "SMs must be 1..%u, not %u", GA_SYSTEM_MAX_SMS, cfg->sms);
        return -1;
    }
    if (cfg->l1_lines < 1u || cfg->l1_lines > 65536u) {
        eprintf(err, "metadata L1 lines must be 1..65536, not %" PRIu32, cfg->l1_lines);
        return -1;
    }
    if (!ga_layout_valid((unsigned)cfg->layout) || (unsigned)cfg->mode > GA_MODE_HWONLY) {
        eprintf(err, "bad layout or mode");
        return -1;
    }
    if (cfg->backend && strcmp(cfg->backend, "rtl") == 0 && !ga_layout_in_rtl(cfg->layout)) {
        char rl[64];
        (void)ga_layout_list(rl, sizeof rl, ", ", " or ", true);
        eprintf(err, "--rtl --layout %s: the RTL does not implement this layout yet (cmodel/ga_layouts.def): replay "
                "it with %s, or without --rtl", ga_layout_name(cfg->layout), rl);
        return -1;
    }
    ga_replay_t *rp = calloc(1, sizeof *rp);
    if (rp == NULL) goto oom;
    rp->cfg = *cfg;
    rp->cfg.tag_bits = tag_bits;
    rp->hdr = *hdr;
    if (rp->cfg.sms == 0)
        rp->cfg.sms = hdr->sms == 0 ? 4u : (hdr->sms > GA_SYSTEM_MAX_SMS ? GA_SYSTEM_MAX_SMS : hdr->sms);
    rp->st.sms = rp->cfg.sms;

    ga_system_cfg_t sc;
    ga_system_default_cfg(&sc, cfg->layout, tag_bits, cfg->seed);
    sc.sms = rp->cfg.sms;
    sc.mlb_entries = cfg->mlb_entries;
    sc.mode = cfg->mode;
    sc.policy = GA_POLICY_REPORT;
    if (cfg->step_limit) sc.step_limit = cfg->step_limit;
    sc.rt.fixed_addresses = hdr->fixed;
    sc.rt.tag_neighbour_distinct = cfg->tag_neighbour_distinct;
    sc.rt.tag_quarantine = cfg->tag_quarantine;
    if (cfg->md_base) sc.rt.md_base = cfg->md_base;
    if (cfg->md_capacity) sc.rt.md_capacity = cfg->md_capacity;
    /* The runtime's rules for the metadata region (ga_rt_create), checked here to name the one broken. */
    uint64_t vtop = UINT64_C(1) << (64u - tag_bits);
    uint64_t mdbytes = ga_rt_md_bytes(&sc.rt);
    uint32_t mdalign = ga_layout_md_align(cfg->layout);
    const char *why = NULL;
    char whybuf[96];
    if (sc.rt.md_base == 0 || sc.rt.md_base % mdalign != 0) {
        snprintf(whybuf, sizeof whybuf, "its base must be a non-zero multiple of %" PRIu32 " (layout %s)", mdalign,
                 ga_layout_name(cfg->layout));
        why = whybuf;
    } else if (mdbytes == 0) {
        why = "the index's 32-bit references cannot address that many slots (at most 64 GiB of region)";
    } else if (sc.rt.md_base >= vtop || mdbytes > vtop - sc.rt.md_base) {
        why = "it must end inside the VA space";
    } else if (!hdr->fixed && sc.rt.md_base < sc.rt.heap_base + sc.rt.heap_size &&
             sc.rt.heap_base < sc.rt.md_base + mdbytes) {
        why = "it must not overlap the heap of automatic allocations";
    }
    if (why) {
        free(rp);
        eprintf(err, "the metadata region [0x%" PRIx64 ", +%" PRIu64 ") (--md-base, --md-capacity) is not usable: %s "
                "(%u-bit tags: VA below 0x%" PRIx64 "; heap [0x%" PRIx64 ", +%" PRIu64 ") when the trace does not fix "
                "addresses)", sc.rt.md_base, mdbytes, why, tag_bits, vtop, sc.rt.heap_base, sc.rt.heap_size);
        return -1;
    }
    ga_err_t e = ga_system_init(&rp->sys, &sc);
    if (e != GA_OK) {
        free(rp);
        eprintf(err, "cannot build the model: %s (check the metadata region: --md-base, --md-capacity)",
                ga_strerror(e));
        return -1;
    }
    rp->sys_ok = true;
    rp->rd = calloc(rp->cfg.sms, sizeof *rp->rd);
    rp->l1 = calloc((size_t)rp->cfg.sms * rp->cfg.l1_lines, sizeof *rp->l1);
    if (rp->rd == NULL || rp->l1 == NULL) goto oom;
    for (unsigned i = 0; i < rp->cfg.sms; i++) {
        rp->rd[i] = (rd_ctx_t){rp, i, rp->sys.sm[i].mem};
        rp->sys.sm[i].mem.read = timed_read;
        rp->sys.sm[i].mem.read_ctx = &rp->rd[i];
    }
    int brc = ga_backend_open(cfg->backends, cfg->backend, &rp->sys, cfg->backend_arg, &rp->be, err->msg,
                              sizeof err->msg);
    if (brc == GA_BACKEND_NOT_BUILT && strcmp(cfg->backend, "rtl") == 0) /* the configuration this run needs */
        eprintf(err, "no RTL backend is built into this program: the Verilator lockstep backend "
                "(tb/replay/tb_backend.c) is built into build/cosim/t%u_m%u_l32/gasim-rtl, which 'make gasim-rtl "
                "RTL_CFG=t%u_m%u_l32' builds (docs/traces.md §10.4); without the RTL the C golden model runs",
                tag_bits, cfg->mlb_entries, tag_bits, cfg->mlb_entries);
    if (brc != GA_BACKEND_OK) {
        ga_replay_destroy(rp);
        return -1;
    }
    rp->be_ok = true;
    ga_exec_init(&rp->ex, cfg->mode, &replay_ops, rp);
    if (cfg->wave_path && rp->be.wave == NULL) {
        if (rp->be.name && strcmp(rp->be.name, "rtl") == 0) /* gasim-rtl on a model built without tracing */
            eprintf(err, "--wave: this program's Verilated model is built without waveform tracing: the traced "
                    "replay is build/cosim/t%u_m%u_l32-fst/gasim-rtl, which 'make gasim-rtl-wave RTL_CFG=t%u_m%u_l32' "
                    "builds (plain gasim --rtl --wave starts it by itself once built; docs/traces.md §10)",
                    rp->sys.cfg.rt.tag_bits, rp->sys.cfg.mlb_entries, rp->sys.cfg.rt.tag_bits,
                    rp->sys.cfg.mlb_entries);
        else
            eprintf(err, "--wave: the %s backend cannot write waveforms (only an RTL backend with a wave hook can: "
                    "docs/traces.md §10)", rp->be.name ? rp->be.name : "replay");
        ga_replay_destroy(rp);
        return -1;
    }
    *out = rp;
    return 0;
oom:
    ga_replay_destroy(rp);
    eprintf(err, "out of memory");
    return -1;
}

/* See ga_replay.h. */
void ga_replay_destroy(ga_replay_t *rp)
{
    if (rp == NULL) return;
    if (rp->be_ok && rp->wave_on && rp->be.wave) {
        char m[256];
        (void)rp->be.wave(rp->be.ctx, NULL, m, sizeof m);
    }
    if (rp->be_ok) ga_backend_close(&rp->be);
    ga_exec_fini(&rp->ex);
    if (rp->sys_ok) ga_system_fini(&rp->sys);
    free(rp->rd);
    free(rp->l1);
    free(rp->ptrs);
    free(rp->ids);
    free(rp->bkey);
    free(rp->bval);
    for (uint32_t i = 0; i < rp->nk; i++) free(rp->knames[i]);
    free(rp->knames);
    for (uint32_t i = 0; i < rp->nfiles; i++) free(rp->files[i]);
    free(rp->files);
    free(rp->det);
    free(rp);
}

/* ---------------------------------------------------------------------------------------------------
 * Allocation bookkeeping. */

static bool base_put(ga_replay_t *rp, uint64_t base, uint32_t slot)
{
    if ((rp->bcount + 1u) * 2u > rp->bcap) {
        size_t nc = rp->bcap ? 2u * rp->bcap : 256u;
        uint64_t *nk = calloc(nc, sizeof *nk);
        uint32_t *nv = calloc(nc, sizeof *nv);
        if (nk == NULL || nv == NULL) {
            free(nk);
            free(nv);
            return false;
        }
        for (size_t i = 0; i < rp->bcap; i++) {
            if (rp->bval[i] == 0) continue;
            size_t h = (size_t)ga_mix64(rp->bkey[i]) & (nc - 1u);
            while (nv[h]) h = (h + 1u) & (nc - 1u);
            nk[h] = rp->bkey[i];
            nv[h] = rp->bval[i];
        }
        free(rp->bkey);
        free(rp->bval);
        rp->bkey = nk;
        rp->bval = nv;
        rp->bcap = nc;
    }
    size_t h = (size_t)ga_mix64(base) & (rp->bcap - 1u);
    while (rp->bval[h] && rp->bkey[h] != base) h = (h + 1u) & (rp->bcap - 1u);
    if (rp->bval[h] == 0) rp->bcount++;
    rp->bkey[h] = base;
    rp->bval[h] = slot + 1u;
    return true;
}

/* Slot of the newest allocation with base VA base, or UINT32_MAX. */
static uint32_t base_get(const ga_replay_t *rp, uint64_t base)
{
    if (rp->bcap == 0) return UINT32_MAX;
    for (size_t h = (size_t)ga_mix64(base) & (rp->bcap - 1u);; h = (h + 1u) & (rp->bcap - 1u)) {
        if (rp->bval[h] == 0) return UINT32_MAX;
        if (rp->bkey[h] == base) return rp->bval[h] - 1u;
    }
}

/* After a successful runtime call: tell the backend, update storage figures. */
static void runtime_changed(ga_replay_t *rp)
{
    rp->st.invalidated_locations += ga_backend_forward(&rp->sys, &rp->be);
    ga_rt_stats_t rs = ga_rt_stats(rp->sys.rt);
    if (rs.metadata_bytes > rp->st.md_bytes_peak) rp->st.md_bytes_peak = rs.metadata_bytes;
    if (rs.live > rp->st.live_peak) rp->st.live_peak = rs.live;
}

/* alloc record: malloc (auto or fixed) and bind the pointer to the slot; runtime refusals are errors. */
/* Why the runtime refused an allocation, named (the runtime's BAD_ADDRESS covers several causes).
 * The checks follow ga_rt_malloc / ga_rt_malloc_at (cmodel/ga_runtime.h) in their order of
 * precedence; a refusal they do not explain gets ga_strerror's text. */
static void alloc_cause(const ga_replay_t *rp, const ga_tev_t *ev, ga_err_t e, char *buf, size_t cap)
{
    const ga_rt_cfg_t *rc = ga_rt_cfg(rp->sys.rt);
    unsigned tb = rc->tag_bits, vb = 64u - tb;
    uint64_t vtop = UINT64_C(1) << vb; /* 2^V: the VA space of this tag width (spec §1) */
    uint64_t mdend = rc->md_base + ga_rt_md_bytes(rc);
    switch (e) {
    case GA_ERR_TOO_LARGE:
        if (ev->fixed)
            snprintf(buf, cap, "size %" PRIu64 " is larger than the %u-bit VA space of %u-bit tags (2^%u bytes)",
                     ev->bytes, vb, tb, vb);
        else
            snprintf(buf, cap, "size %" PRIu64 " is larger than the whole heap (%" PRIu64 " bytes at 0x%" PRIx64 ")",
                     ev->bytes, rc->heap_size, rc->heap_base);
        return;
    case GA_ERR_BAD_ADDRESS:
        if (ev->at >= vtop) {
            snprintf(buf, cap, "base 0x%" PRIx64 " lies above the %u-bit VA space of %u-bit tags (addresses below 0x%"
                     PRIx64 ")", ev->at, vb, tb, vtop);
        } else if (ev->bytes > vtop - ev->at) {
            snprintf(buf, cap, "[0x%" PRIx64 ", +%" PRIu64 ") crosses the top of the %u-bit VA space of %u-bit tags (0x%"
                     PRIx64 ")", ev->at, ev->bytes, vb, tb, vtop);
        } else if (ev->at < mdend && rc->md_base < ev->at + ev->bytes) { /* no overflow: at + bytes <= 2^V */
            snprintf(buf, cap, "[0x%" PRIx64 ", +%" PRIu64 ") overlaps the metadata region [0x%" PRIx64 ", 0x%" PRIx64
                     "), which is reserved address space (move it with --md-base, size it with --md-capacity)",
                     ev->at, ev->bytes, rc->md_base, mdend);
        } else {
            snprintf(buf, cap, "%s", ga_strerror(e));
        }
        return;
    case GA_ERR_OVERLAP: {
        ga_entry_t le;
        uint64_t dist;
        if (ga_rt_nearest_live(rp->sys.rt, ev->at, &le, &dist)) {
            uint64_t lb = ga_va_of(le.tb, tb);
            uint32_t s = base_get(rp, lb);
            if (s != UINT32_MAX)
                snprintf(buf, cap, "[0x%" PRIx64 ", +%" PRIu64 ") overlaps live allocation a%" PRIu64 " [0x%" PRIx64
                         ", +%" PRIu64 ")", ev->at, ev->bytes, rp->ids[s], lb, le.size);
            else
                snprintf(buf, cap, "[0x%" PRIx64 ", +%" PRIu64 ") overlaps a live allocation", ev->at, ev->bytes);
            return;
        }
        snprintf(buf, cap, "%s", ga_strerror(e));
        return;
    }
    case GA_ERR_NO_SPACE:
        snprintf(buf, cap, "no free block of %" PRIu64 " bytes is left in the heap (%" PRIu64 " bytes at 0x%" PRIx64 ")",
                 ev->bytes, rc->heap_size, rc->heap_base);
        return;
    case GA_ERR_NO_METADATA_SPACE:
        snprintf(buf, cap, "the metadata region is full (%" PRIu32 " %s; raise --md-capacity)", rc->md_capacity,
                 rc->layout == GA_LAYOUT_TABLE || rc->layout == GA_LAYOUT_INDEX ? "slots" : "nodes");
        return;
    default: snprintf(buf, cap, "%s", ga_strerror(e)); return;
    }
}

/* alloc record: malloc (auto or fixed) and bind the pointer to the slot; a refusal stops the replay
 * (the records after it name the allocation) with its cause. */
static int do_alloc(ga_replay_t *rp, const ga_trace_reader_t *r, const ga_tev_t *ev, ga_trace_err_t *err)
{
    if (ev->slot != rp->nptrs) return lerr(err, r, ev, "internal error: allocation slots out of order");
    if (rp->nptrs == rp->capptrs) {
        uint32_t nc = rp->capptrs ? 2u * rp->capptrs : 256u;
        uint64_t *np = realloc(rp->ptrs, (size_t)nc * sizeof *np);
        if (np) rp->ptrs = np;
        uint64_t *ni = realloc(rp->ids, (size_t)nc * sizeof *ni);
        if (ni) rp->ids = ni;
        if (np == NULL || ni == NULL) return lerr(err, r, ev, "out of memory");
        rp->capptrs = nc;
    }
    uint64_t p;
    ga_err_t e = ev->fixed ? ga_system_malloc_at(&rp->sys, ev->at, ev->bytes, &p)
                           : ga_system_malloc(&rp->sys, ev->bytes, &p);
    if (e != GA_OK) {
        char cause[300];
        alloc_cause(rp, ev, e, cause, sizeof cause);
        return lerr(err, r, ev, "alloc a%" PRIu64 ": the runtime refused it: %s", ev->id, cause);
    }
    rp->ptrs[rp->nptrs] = p;
    rp->ids[rp->nptrs] = ev->id;
    rp->nptrs++;
    if (!base_put(rp, ga_va_of(p, rp->cfg.tag_bits), ev->slot)) return lerr(err, r, ev, "out of memory");
    runtime_changed(rp);
    return 0;
}

/* kernel record: record the name, start a new LOADMETA cache generation, invalidate the L1s. */
static int do_kernel(ga_replay_t *rp, const ga_trace_reader_t *r, const ga_tev_t *ev, ga_trace_err_t *err)
{
    if (rp->nk == rp->capk) {
        uint32_t nc = rp->capk ? 2u * rp->capk : 16u;
        char **nn = realloc(rp->knames, (size_t)nc * sizeof *nn);
        if (nn == NULL) return lerr(err, r, ev, "out of memory");
        rp->knames = nn;
        rp->capk = nc;
    }
    char *name = strdup(ev->name);
    if (name == NULL) return lerr(err, r, ev, "out of memory");
    rp->knames[rp->nk] = name;
    rp->cur_kernel = rp->nk++;
    rp->in_kernel = true;
    /* Registers do not survive a kernel. */
    ga_exec_kernel(&rp->ex);
    /* GPU L1s are invalidated at kernel launch (docs/traces.md §6.6). */
    memset(rp->l1, 0, (size_t)rp->cfg.sms * rp->cfg.l1_lines * sizeof *rp->l1);
    return 0;
}

/* ---------------------------------------------------------------------------------------------------
 * MLU operations with timing. */

static unsigned model_sm(const ga_replay_t *rp, uint16_t trace_sm) { return trace_sm % rp->cfg.sms; }

/* An error for a backend operation that did not return GA_OK. */
static int be_fail(ga_trace_err_t *err, const ga_trace_reader_t *r, const ga_tev_t *ev, const ga_replay_t *rp,
                   const char *op, ga_err_t e)
{
    return lerr(err, r, ev, "%s: the %s backend failed: %s", op, rp->be.name, ga_strerror(e));
}

/* Walks of a model unit that were cut short (spec §3.3: STEP_LIMIT or FAULT). */
static uint64_t walks_cut(const ga_mlu_stats_t *ms)
{
    return ms->walk_end[GA_WALK_STEP_LIMIT] + ms->walk_end[GA_WALK_FAULT];
}

/* The dispatch's LOADMETA (ga_exec_ops_t) of root on the record's SM. Charged mlb_cycles only when it
 * looked the MLB up: a root with tag 0 or the freed tag makes no MLB access (spec §3.2 step 1). *cut:
 * its walk ended STEP_LIMIT or FAULT. */
static int op_loadmeta(void *ctx, unsigned tsm, uint16_t warp, uint64_t root, uint64_t *md, bool *cut)
{
    ga_replay_t *rp = ctx;
    (void)warp;
    unsigned sm = model_sm(rp, (uint16_t)tsm);
    const ga_mlu_stats_t *ms = &rp->sys.sm[sm].st;
    uint64_t look0 = ms->loadmeta - ms->loadmeta_unchecked, cut0 = walks_cut(ms);
    rp->cur_cycles = 0;
    ga_err_t e = rp->be.loadmeta(rp->be.ctx, sm, root, md);
    if (e != GA_OK) return be_fail(rp->cur_err, rp->cur_r, rp->cur_ev, rp, "LOADMETA", e);
    uint64_t looked = ms->loadmeta - ms->loadmeta_unchecked - look0;
    *cut = *md == 0 && walks_cut(ms) != cut0;
    uint64_t c = rp->cfg.mlb_cycles * looked + rp->cur_cycles;
    rp->st.loadmeta_cycles += c;
    if (c > rp->st.loadmeta_cycles_max) rp->st.loadmeta_cycles_max = c;
    return 0;
}

/* A raw pointer that looks written for the other tag width (docs/traces.md §4): with 7-bit tags, bits
 * 48..56 set on an address no entry covers (a 16-bit tag's low bits read as VA); with 16-bit tags, a
 * tag whose low 9 bits are zero (a 7-bit tag in bits 57..63; a drawn 16-bit tag looks so 1 time in
 * 512, hence a warning, not an error). Not checked when the header declares tag_bits. */
static void tag_width_check(ga_replay_t *rp, const ga_tev_t *ev, const ga_tptr_t *p, uint64_t v)
{
    if (p->is_alloc || p->set_tag || rp->hdr.tag_bits) return;
    uint64_t top = v >> 48;
    bool suspect = rp->cfg.tag_bits == 7u ? (top & 0x1ffu) != 0u && !ga_rt_find(rp->sys.rt, v, NULL, NULL)
                                          : top != 0u && (top & 0x1ffu) == 0u;
    if (!suspect) return;
    if (rp->st.tag_width_suspects++ == 0) rp->st.tag_width_suspect_line = ev->line;
}

/* Evaluate a pointer expression; a tag override wider than the tag bits is an error. */
static int eval_ptr(ga_replay_t *rp, const ga_trace_reader_t *r, const ga_tev_t *ev, const ga_tptr_t *p,
                    uint64_t *v, ga_trace_err_t *err)
{
    if (ga_tptr_eval(p, rp->ptrs, rp->nptrs, rp->cfg.tag_bits, v)) {
        tag_width_check(rp, ev, p, *v);
        return 0;
    }
    if (p->set_tag && ((uint64_t)p->tag >> rp->cfg.tag_bits))
        return lerr(err, r, ev, "tag override :t0x%x does not fit %u tag bits", (unsigned)p->tag, rp->cfg.tag_bits);
    return lerr(err, r, ev, "internal error: pointer to an unknown allocation slot");
}

/* Index of file name f in the interned table (added when new); UINT32_MAX when out of memory. Files
 * come in runs (one trace, or one kernel file after another), so the last entry is tried first. */
static uint32_t intern_file(ga_replay_t *rp, const char *f)
{
    for (uint32_t i = rp->nfiles; i-- > 0;)
        if (strcmp(rp->files[i], f) == 0) return i;
    if (rp->nfiles == rp->capfiles) {
        uint32_t nc = rp->capfiles ? 2u * rp->capfiles : 8u;
        char **nf = realloc(rp->files, (size_t)nc * sizeof *nf);
        if (nf == NULL) return UINT32_MAX;
        rp->files = nf;
        rp->capfiles = nc;
    }
    char *c = strdup(f);
    if (c == NULL) return UINT32_MAX;
    rp->files[rp->nfiles] = c;
    return rp->nfiles++;
}

/* ---------------------------------------------------------------------------------------------------
 * Findings. */

/* Names of the runtime's refusals of a free (ga_replay_finding_kind). */
static const char *free_kind(ga_err_t e)
{
    switch (e) {
    case GA_ERR_DOUBLE_FREE: return "DOUBLE_FREE";
    case GA_ERR_INTERIOR_POINTER: return "FREE_INTERIOR_POINTER";
    case GA_ERR_TAG_MISMATCH: return "FREE_TAG_MISMATCH";
    case GA_ERR_UNKNOWN_POINTER: return "FREE_UNKNOWN_POINTER";
    default: return "BAD_FREE";
    }
}

/* See ga_replay.h. */
const char *ga_replay_finding_kind(const ga_detection_t *d)
{
    return d->free_err != GA_OK ? free_kind(d->free_err) : ga_exc_name(d->rec.kind);
}

/* See ga_replay.h. */
bool ga_replay_finding_alloc(const ga_detection_t *d, uint64_t *id)
{
    if (d->free_named) *id = d->free_id;
    else if (d->entry_named) *id = d->entry_id;
    else if (d->checked_named) *id = d->checked_id;
    else if (d->near_named) *id = d->near_id;
    else return false;
    return true;
}

/* The trace ID of the newest allocation whose base is the base of entry e, if any. */
static bool name_entry(const ga_replay_t *rp, ga_entry_t e, uint64_t *id)
{
    uint32_t s = base_get(rp, ga_va_of(e.tb, rp->cfg.tag_bits));
    if (s == UINT32_MAX) return false;
    *id = rp->ids[s];
    return true;
}

/* Where addr lies (tags ignored): the entry containing it and, when none or a freed one, the nearest
 * live allocation with its distance and side. */
static void locate(const ga_replay_t *rp, ga_detection_t *d, uint64_t addr)
{
    unsigned tb = rp->cfg.tag_bits;
    uint64_t va = ga_va_of(addr, tb);
    ga_entry_t e;
    if (ga_rt_find(rp->sys.rt, va, &e, NULL)) {
        d->in_entry = true;
        d->entry = e;
        d->entry_freed = ga_tag_of(e.tb, tb) == ga_tag_freed(tb);
        d->entry_named = name_entry(rp, e, &d->entry_id);
    }
    if (!d->in_entry || d->entry_freed) {
        ga_entry_t ne;
        uint64_t dist;
        if (ga_rt_nearest_live(rp->sys.rt, va, &ne, &dist)) {
            d->near_found = true;
            d->near = ne;
            d->near_dist = dist;
            d->near_after = va > ga_va_of(ne.tb, tb);
            d->near_named = name_entry(rp, ne, &d->near_id);
        }
    }
}

/* True when a suppression of the configuration matches finding d. */
static bool suppressed(const ga_replay_t *rp, const ga_detection_t *d)
{
    const char *kname = d->kernel < rp->nk ? rp->knames[d->kernel] : "";
    for (size_t i = 0; i < rp->cfg.nsuppressions; i++) {
        const ga_suppression_t *s = &rp->cfg.suppressions[i];
        if (s->kernel && fnmatch(s->kernel, kname, 0) != 0) continue;
        if (s->kind && strcmp(s->kind, ga_replay_finding_kind(d)) != 0) continue;
        uint64_t id;
        if (s->has_alloc && (!ga_replay_finding_alloc(d, &id) || id != s->alloc_id)) continue;
        return true;
    }
    return false;
}

/* Count finding d (unless suppressed) and keep it while there is room. The record's origin, kernel,
 * op and SM are filled in here. 0, or -1 with err (out of memory). */
static int add_finding(ga_replay_t *rp, const ga_trace_reader_t *r, const ga_tev_t *ev, ga_detection_t *d,
                       ga_trace_err_t *err)
{
    d->kernel = rp->in_kernel ? rp->cur_kernel : UINT32_MAX;
    d->op = ev->kind;
    d->trace_sm = ev->sm;
    if (suppressed(rp, d)) {
        rp->st.suppressed++;
        return 0;
    }
    if (d->free_err != GA_OK) {
        rp->st.bad_frees++;
        if ((unsigned)d->free_err < GA_ERR_CODES) rp->st.bad_frees_by_code[d->free_err]++;
        rp->st.errors++;
    } else {
        unsigned k = (unsigned)d->rec.kind < GA_EXC_KINDS ? (unsigned)d->rec.kind : 0u;
        rp->st.detections++;
        rp->st.detections_by_kind[k]++;
        rp->st.faulting_lanes += popcount32(d->fault_mask);
        rp->st.walk_lanes += d->walk_lanes;
        if (d->walk_limited) {
            rp->st.detections_walk++;
            rp->st.detections_walk_by_kind[k]++;
        } else {
            rp->st.errors++;
        }
    }
    if (rp->cfg.max_detections && rp->ndet >= rp->cfg.max_detections) return 0;
    if (rp->ndet == rp->capdet) {
        size_t nc = rp->capdet ? 2u * rp->capdet : 64u;
        ga_detection_t *nd = realloc(rp->det, nc * sizeof *nd);
        if (nd == NULL) return lerr(err, r, ev, "out of memory");
        rp->det = nd;
        rp->capdet = nc;
    }
    const char *file = NULL;
    d->line = ev->line;
    if (r) ga_trace_origin(r, &file, &d->line);
    d->file = file ? intern_file(rp, file) : UINT32_MAX;
    if (file && d->file == UINT32_MAX) return lerr(err, r, ev, "out of memory");
    rp->det[rp->ndet++] = *d;
    return 0;
}

/* An MLU detection (rsp->fault non-zero). walk_mask: the lanes whose metadata came from a walk cut
 * short (compiler mode); walk_count: their number when only a count is known (HWOnly), else
 * UINT32_MAX. */
static int detection(ga_replay_t *rp, const ga_trace_reader_t *r, const ga_tev_t *ev, const ga_warp_rsp_t *rsp,
                     uint32_t walk_mask, uint32_t walk_count, ga_trace_err_t *err)
{
    if (rsp->fault == 0) return 0;
    ga_detection_t d;
    memset(&d, 0, sizeof d);
    d.free_err = GA_OK;
    d.rec = rsp->rec;
    d.fault_mask = rsp->fault;
    unsigned nf = popcount32(rsp->fault);
    d.walk_lanes = walk_count != UINT32_MAX ? walk_count : popcount32(rsp->fault & walk_mask);
    if (d.walk_lanes > nf) d.walk_lanes = nf;
    d.walk_limited = d.walk_lanes == nf;
    if (ev->kind != GA_TEV_LDS && ev->kind != GA_TEV_STS) {
        locate(rp, &d, d.rec.addr);
        if (d.rec.entry.size != 0 || d.rec.entry.tb != 0) d.checked_named = name_entry(rp, d.rec.entry, &d.checked_id);
    }
    return add_finding(rp, r, ev, &d, err);
}

/* free / freep record: free the pointer; a refusal is the program's error (a finding), not the
 * trace's, except a host failure. */
static int do_free(ga_replay_t *rp, const ga_trace_reader_t *r, const ga_tev_t *ev, ga_trace_err_t *err)
{
    uint64_t p;
    if (ev->kind == GA_TEV_FREE) {
        if (ev->slot >= rp->nptrs) return lerr(err, r, ev, "internal error: free of an unknown slot");
        p = rp->ptrs[ev->slot];
    } else if (eval_ptr(rp, r, ev, &ev->root, &p, err) != 0) {
        return -1;
    }
    ga_err_t e = ga_system_free(&rp->sys, p);
    if (e == GA_OK) {
        runtime_changed(rp);
        return 0;
    }
    if (e == GA_ERR_NO_MEMORY || e == GA_ERR_BAD_PARAM)
        return lerr(err, r, ev, "%s: the runtime failed: %s", ga_tev_name(ev->kind), ga_strerror(e));
    ga_detection_t d;
    memset(&d, 0, sizeof d);
    d.free_err = e;
    d.free_ptr = p;
    d.free_named = ev->kind == GA_TEV_FREE;
    d.free_id = ev->id;
    locate(rp, &d, p);
    return add_finding(rp, r, ev, &d, err);
}

/* The lanes of a global access, evaluated. */
static int lane_addrs(ga_replay_t *rp, const ga_trace_reader_t *r, const ga_tev_t *ev, ga_warp_req_t *q,
                      ga_trace_err_t *err)
{
    memset(q, 0, sizeof *q);
    q->lanes = GA_TRACE_LANES;
    q->active = ev->mask;
    q->warp = ev->warp;
    q->size = ev->size;
    uint64_t base = 0;
    if (ev->strided && eval_ptr(rp, r, ev, &ev->lane[0], &base, err)) return -1;
    for (unsigned l = 0; l < GA_TRACE_LANES; l++) {
        if (!(ev->mask >> l & 1u)) continue;
        if (ev->strided) q->addr[l] = base + (uint64_t)ev->stride * l; /* modulo 2^64 */
        else if (eval_ptr(rp, r, ev, &ev->lane[l], &q->addr[l], err)) return -1;
    }
    return 0;
}

/* The dispatch's MEMCHECK.G (ga_exec_ops_t), timed (check cycles + fetch latency), its detection
 * recorded; cut_mask: the lanes whose location came from a walk cut short. */
static int op_memcheck_g(void *ctx, unsigned tsm, const ga_warp_req_t *q, uint64_t md, uint32_t cut_mask)
{
    ga_replay_t *rp = ctx;
    ga_warp_rsp_t rsp;
    rp->cur_cycles = 0;
    ga_err_t e = rp->be.memcheck_g(rp->be.ctx, model_sm(rp, (uint16_t)tsm), q, md, &rsp);
    if (e != GA_OK) return be_fail(rp->cur_err, rp->cur_r, rp->cur_ev, rp, "MEMCHECK.G", e);
    uint64_t c = rp->cfg.check_cycles + rp->cur_cycles;
    rp->st.memcheck_g_cycles += c;
    if (c > rp->st.memcheck_g_cycles_max) rp->st.memcheck_g_cycles_max = c;
    return detection(rp, rp->cur_r, rp->cur_ev, &rsp, cut_mask, UINT32_MAX, rp->cur_err);
}

/* The dispatch's plain access; in HWOnly its LOADMETAs are timed (docs/traces.md §6.6) and its lanes
 * that failed METADATA_FAULT are the ones whose walk was cut short (spec §5.4 gives that kind to
 * nothing else). */
static int op_access(void *ctx, unsigned tsm, const ga_warp_req_t *q)
{
    ga_replay_t *rp = ctx;
    ga_warp_rsp_t rsp;
    unsigned sm = model_sm(rp, (uint16_t)tsm);
    const ga_mlu_stats_t *ms = &rp->sys.sm[sm].st;
    uint64_t lm0 = ms->loadmeta, look0 = ms->loadmeta - ms->loadmeta_unchecked, cut0 = walks_cut(ms);
    uint64_t mf0 = ms->faulting_lanes[GA_EXC_METADATA_FAULT];
    rp->cur_cycles = 0;
    ga_err_t e = rp->be.access(rp->be.ctx, sm, q, &rsp);
    if (e != GA_OK) return be_fail(rp->cur_err, rp->cur_r, rp->cur_ev, rp, "ACCESS", e);
    if (ms->loadmeta != lm0) { /* HWOnly: the access's LOADMETAs (docs/traces.md §6.6) */
        uint64_t c = rp->cfg.mlb_cycles * (ms->loadmeta - ms->loadmeta_unchecked - look0) + rp->cur_cycles;
        rp->st.loadmeta_cycles += c;
        if (c > rp->st.loadmeta_cycles_max) rp->st.loadmeta_cycles_max = c;
    }
    uint64_t wl = walks_cut(ms) != cut0 ? ms->faulting_lanes[GA_EXC_METADATA_FAULT] - mf0 : 0u;
    return detection(rp, rp->cur_r, rp->cur_ev, &rsp, 0, (uint32_t)(wl > 32u ? 32u : wl), rp->cur_err);
}

/* The dispatch's MEMCHECK.S, its detection recorded. */
static int op_memcheck_s(void *ctx, unsigned tsm, const ga_warp_req_t *q, uint32_t base, uint32_t ssize)
{
    ga_replay_t *rp = ctx;
    ga_warp_rsp_t rsp;
    ga_err_t e = rp->be.memcheck_s(rp->be.ctx, model_sm(rp, (uint16_t)tsm), q, base, ssize, &rsp);
    if (e != GA_OK) return be_fail(rp->cur_err, rp->cur_r, rp->cur_ev, rp, "MEMCHECK.S", e);
    return detection(rp, rp->cur_r, rp->cur_ev, &rsp, 0, UINT32_MAX, rp->cur_err);
}

static const ga_exec_ops_t replay_ops = {op_loadmeta, op_memcheck_g, op_memcheck_s, op_access};

/* A dispatch result: 0 (or GA_EXEC_SKIPPED) is success; an operation's -1 has set err already. */
static int exec_rc(ga_replay_t *rp, int rc)
{
    if (rc == GA_EXEC_NO_MEMORY) return lerr(rp->cur_err, rp->cur_r, rp->cur_ev, "out of memory");
    return rc < 0 ? -1 : 0;
}

/* ld / st record through the dispatch (docs/traces.md §6.3, §6.4). */
static int do_global(ga_replay_t *rp, const ga_trace_reader_t *r, const ga_tev_t *ev, ga_trace_err_t *err)
{
    ga_warp_req_t q;
    rp->st.global_accesses++;
    rp->st.global_lanes += popcount32(ev->mask);
    if (lane_addrs(rp, r, ev, &q, err)) return -1;
    uint64_t root = 0;
    ga_exec_root_t kind = ev->root_kind == GA_ROOT_NONE  ? GA_EXEC_ROOT_NONE
                          : ev->root_kind == GA_ROOT_PTR ? GA_EXEC_ROOT_PTR
                                                         : GA_EXEC_ROOT_LANE;
    if (rp->cfg.mode != GA_MODE_HWONLY) {
        if (kind == GA_EXEC_ROOT_NONE) rp->st.unchecked_accesses++;
        if (kind == GA_EXEC_ROOT_PTR && eval_ptr(rp, r, ev, &ev->root, &root, err)) return -1;
    }
    return exec_rc(rp, ga_exec_global(&rp->ex, ev->sm, &q, kind, root));
}

/* lds / sts record: MEMCHECK.S in compiler mode, counted only in HWOnly. */
static int do_shared(ga_replay_t *rp, const ga_tev_t *ev)
{
    rp->st.shared_accesses++;
    rp->st.shared_lanes += popcount32(ev->mask);
    ga_warp_req_t q;
    memset(&q, 0, sizeof q);
    q.lanes = GA_TRACE_LANES;
    q.active = ev->mask;
    q.warp = ev->warp;
    q.size = ev->size;
    for (unsigned l = 0; l < GA_TRACE_LANES; l++) {
        if (!(ev->mask >> l & 1u)) continue;
        /* the parser guarantees every active lane's address fits 32 bits */
        q.addr[l] = ev->strided ? ev->lane[0].off + (uint64_t)ev->stride * l : ev->lane[l].off;
        q.addr[l] &= UINT32_MAX;
    }
    int rc = ga_exec_shared(&rp->ex, ev->sm, &q, ev->sbase, ev->ssize);
    if (rc == GA_EXEC_SKIPPED) rp->st.shared_unchecked++;
    return exec_rc(rp, rc);
}

/* Open or close the backend's waveform as the record enters or leaves the window of cfg.wave_*. */
static int wave_window(ga_replay_t *rp, const ga_trace_reader_t *r, const ga_tev_t *ev, ga_trace_err_t *err)
{
    bool in = ev->line >= rp->cfg.wave_from && ev->line <= rp->cfg.wave_to;
    if (rp->line_first == 0u) rp->line_first = ev->line;
    rp->line_last = ev->line;
    if (in) rp->wave_seen = true;
    if (in == rp->wave_on) return 0;
    char m[sizeof err->msg - 64];
    if (rp->be.wave(rp->be.ctx, in ? rp->cfg.wave_path : NULL, m, sizeof m) != 0)
        return lerr(err, r, ev, "--wave: %s", m);
    rp->wave_on = in;
    return 0;
}

/* See ga_replay.h. */
int ga_replay_event(ga_replay_t *rp, const ga_trace_reader_t *r, const ga_tev_t *ev, ga_trace_err_t *err)
{
    if ((unsigned)ev->kind >= GA_TEV_KINDS) return lerr(err, r, ev, "internal error: bad record kind");
    if (rp->cfg.wave_path && wave_window(rp, r, ev, err) != 0) return -1;
    rp->st.records[ev->kind]++;
    rp->cur_r = r;
    rp->cur_ev = ev;
    rp->cur_err = err;
    switch (ev->kind) {
    case GA_TEV_ALLOC: return do_alloc(rp, r, ev, err);
    case GA_TEV_FREE:
    case GA_TEV_FREEP: return do_free(rp, r, ev, err);
    case GA_TEV_KERNEL: return do_kernel(rp, r, ev, err);
    case GA_TEV_END: rp->in_kernel = false; return 0;
    case GA_TEV_LOADMETA: {
        if (rp->cfg.mode == GA_MODE_HWONLY) return 0; /* HWOnly binaries have no LOADMETA: nothing to evaluate */
        uint64_t root;
        if (eval_ptr(rp, r, ev, &ev->root, &root, err)) return -1;
        return exec_rc(rp, ga_exec_loadmeta(&rp->ex, ev->sm, ev->warp, root, NULL, NULL));
    }
    case GA_TEV_LD:
    case GA_TEV_ST: return do_global(rp, r, ev, err);
    case GA_TEV_LDS:
    case GA_TEV_STS: return do_shared(rp, ev);
    default: return lerr(err, r, ev, "internal error: bad record kind");
    }
}

/* See ga_replay.h. */
int ga_replay_finish(ga_replay_t *rp, ga_trace_err_t *err)
{
    if (rp->wave_on) {
        char m[sizeof err->msg - 16];
        rp->wave_on = false;
        if (rp->be.wave(rp->be.ctx, NULL, m, sizeof m) != 0) {
            eprintf(err, "--wave: %s", m);
            return -1;
        }
    }
    if (rp->be.check && rp->be.check(rp->be.ctx, err->msg, sizeof err->msg) != 0) return -1;
    if (rp->cfg.wave_path && !rp->wave_seen) { /* nothing was dumped: say so rather than leave no file silently */
        if (rp->line_first == 0u)
            eprintf(err, "--wave %" PRIu64 ":%" PRIu64 ": the trace has no records, so no waveform was written",
                    rp->cfg.wave_from, rp->cfg.wave_to);
        else
            eprintf(err, "--wave %" PRIu64 ":%" PRIu64 ": no record of the trace is on those lines (its records are "
                    "on lines %" PRIu64 "..%" PRIu64 "), so no waveform was written", rp->cfg.wave_from,
                    rp->cfg.wave_to, rp->line_first, rp->line_last);
        return -1;
    }
    rp->st.mlu = ga_system_stats(&rp->sys);
    ga_rt_stats_t rs = ga_rt_stats(rp->sys.rt);
    rp->st.md_bytes_end = rs.metadata_bytes;
    rp->st.live_end = rs.live;
    if (rs.metadata_bytes > rp->st.md_bytes_peak) rp->st.md_bytes_peak = rs.metadata_bytes;
    return 0;
}

/* See ga_replay.h. */
int ga_replay_run(ga_replay_t **out, const ga_replay_cfg_t *cfg, ga_trace_reader_t *r,
                  ga_replay_progress_fn progress, void *progress_ctx, ga_trace_err_t *err)
{
    *out = NULL;
    ga_replay_t *rp = NULL;
    ga_tev_t ev;
    int rc = ga_trace_next(r, &ev, err);
    if (rc < 0) return -1;
    if (ga_replay_create(&rp, cfg, ga_trace_header(r), err) != 0) return -1;
    uint64_t n = 0, reads_seen = 0;
    while (rc > 0) {
        if (ga_replay_event(rp, r, &ev, err) != 0) goto fail;
        n++;
        /* every 4096 records, and every 2^18 metadata reads: long walks keep the progress moving */
        uint64_t reads = rp->st.l1_hits + rp->st.l1_misses;
        if (progress && ((n & 0xfffu) == 0 || reads - reads_seen >= (UINT64_C(1) << 18))) {
            uint64_t done, total;
            reads_seen = reads;
            ga_trace_progress(r, &done, &total);
            progress(progress_ctx, n, done, total);
        }
        rc = ga_trace_next(r, &ev, err);
    }
    if (rc < 0 || ga_replay_finish(rp, err) != 0) goto fail;
    *out = rp;
    return 0;
fail:
    ga_replay_destroy(rp);
    return -1;
}

/* See ga_replay.h. */
const ga_replay_stats_t *ga_replay_stats(const ga_replay_t *rp) { return &rp->st; }

/* See ga_replay.h. */
size_t ga_replay_detections(const ga_replay_t *rp, const ga_detection_t **d)
{
    *d = rp->det;
    return rp->ndet;
}

/* See ga_replay.h. */
const char *ga_replay_file_name(const ga_replay_t *rp, uint32_t index)
{
    return index < rp->nfiles ? rp->files[index] : "";
}

/* See ga_replay.h. */
const char *ga_replay_kernel_name(const ga_replay_t *rp, uint32_t index)
{
    return index < rp->nk ? rp->knames[index] : "";
}
/* See ga_replay.h. */
uint32_t ga_replay_kernels(const ga_replay_t *rp) { return rp->nk; }
/* See ga_replay.h. */
const ga_replay_cfg_t *ga_replay_cfg(const ga_replay_t *rp) { return &rp->cfg; }
/* See ga_replay.h. */
const ga_system_t *ga_replay_system(const ga_replay_t *rp) { return &rp->sys; }


/* ---------------------------------------------------------------------------------------------------
 * Report lines. */

typedef struct {
    char *b;
    size_t cap, n;
} lb_t;

static void lb_printf(lb_t *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* printf into a report line, truncating at the buffer's end. */
static void lb_printf(lb_t *s, const char *fmt, ...)
{
    if (s->n + 1u >= s->cap) return;
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(s->b + s->n, s->cap - s->n, fmt, ap);
    va_end(ap);
    if (k < 0) return;
    s->n = (size_t)k >= s->cap - s->n ? s->cap - 1u : s->n + (size_t)k;
}

/* "aID [0xbase, +size)" (the ID only when known). */
static void lb_alloc(lb_t *s, bool named, uint64_t id, ga_entry_t e, unsigned tb)
{
    if (named) lb_printf(s, "a%" PRIu64 " ", id);
    lb_printf(s, "[0x%" PRIx64 ", +%" PRIu64 ")", ga_va_of(e.tb, tb), e.size);
}

/* Where the address lies: inside an entry, and/or "N bytes after|before the nearest allocation aID at
 * 0x... of size M" (Compute Sanitizer's wording; N is ga_detection_t's near_dist). */
static void lb_where(lb_t *s, const ga_detection_t *d, unsigned tb, const char *what)
{
    if (d->in_entry) {
        lb_printf(s, "; %s is inside %s", what, d->entry_freed ? "freed " : "");
        lb_alloc(s, d->entry_named, d->entry_id, d->entry, tb);
    } else {
        lb_printf(s, "; no allocation covers %s", what);
    }
    if (d->near_found) {
        lb_printf(s, "%s %" PRIu64 " byte%s %s the nearest %sallocation ", d->in_entry ? ";" : ":", d->near_dist,
                  d->near_dist == 1 ? "" : "s", d->near_after ? "after" : "before", d->in_entry ? "live " : "");
        if (d->near_named) lb_printf(s, "a%" PRIu64 " ", d->near_id);
        lb_printf(s, "at 0x%" PRIx64 " of size %" PRIu64, ga_va_of(d->near.tb, tb), d->near.size);
    } else if (!d->in_entry || d->entry_freed) {
        lb_printf(s, "; no live allocation exists");
    }
}

/* See ga_replay.h. */
int ga_replay_format_detection(const ga_replay_t *rp, const char *trace_name, const ga_detection_t *d, char *buf,
                               size_t cap)
{
    if (cap == 0) return 0;
    lb_t s = {buf, cap, 0};
    buf[0] = '\0';
    unsigned tb = rp->cfg.tag_bits;
    const char *file = d->file < rp->nfiles ? rp->files[d->file] : (trace_name ? trace_name : "trace");
    lb_printf(&s, "%s:%" PRIu64 ": ", file, d->line);
    if (d->kernel < rp->nk) lb_printf(&s, "kernel %s: ", rp->knames[d->kernel]);
    else lb_printf(&s, "host: ");
    if (d->free_err != GA_OK) {
        lb_printf(&s, "%s %s", ga_replay_finding_kind(d), ga_tev_name(d->op));
        if (d->free_named) lb_printf(&s, " a%" PRIu64, d->free_id);
        lb_printf(&s, " (pointer 0x%016" PRIx64 ", tag 0x%" PRIx64 "): the runtime refused it: %s", d->free_ptr,
                  ga_tag_of(d->free_ptr, tb), ga_strerror(d->free_err));
        lb_where(&s, d, tb, "the pointer");
        return (int)s.n;
    }
    unsigned nf = popcount32(d->fault_mask);
    lb_printf(&s, "%s %s sm %u warp %u lane %u addr 0x%016" PRIx64 " size %" PRIu32 " (%u failing lane%s, mask 0x%08"
              PRIx32 ")",
              ga_exc_name(d->rec.kind), ga_tev_name(d->op), (unsigned)d->trace_sm, (unsigned)d->rec.warp,
              (unsigned)d->rec.lane, d->rec.addr, d->rec.size, nf, nf == 1 ? "" : "s", d->fault_mask);
    if (d->op == GA_TEV_LDS || d->op == GA_TEV_STS) {
        lb_printf(&s, ": shared allocation [0x%" PRIx64 ", +%" PRIu64 ")", d->rec.entry.tb, d->rec.entry.size);
        return (int)s.n;
    }
    if (d->rec.entry.size != 0 || d->rec.entry.tb != 0) {
        bool freed = ga_tag_of(d->rec.entry.tb, tb) == ga_tag_freed(tb);
        lb_printf(&s, ": checked against %s", freed ? "freed " : "");
        lb_alloc(&s, d->checked_named, d->checked_id, d->rec.entry, tb);
        lb_printf(&s, " tag 0x%" PRIx64, ga_tag_of(d->rec.entry.tb, tb));
    } else {
        lb_printf(&s, ": no metadata");
    }
    lb_where(&s, d, tb, "the address");
    if (d->walk_limited)
        lb_printf(&s, "; INCOMPLETE CHECK, not a program error: the LOADMETA walk was cut short (step limit %" PRIu32
                  " node reads, or a metadata read fault)", rp->sys.cfg.step_limit);
    else if (d->walk_lanes)
        lb_printf(&s, "; %" PRIu32 " of the failing lanes had their walk cut short (step limit)", d->walk_lanes);
    return (int)s.n;
}
