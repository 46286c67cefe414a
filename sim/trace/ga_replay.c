/*
 * ga_replay.c — replay of gatrace records through the golden model (docs/traces.md §6; ga_replay.h).
 *
 * The replay wraps every SM's metadata read callback to time reads with the per-SM direct-mapped
 * metadata L1 of docs/traces.md §6.6; the data still comes from the model's memory, so the wrapper
 * changes no result. The compiler-mode LOADMETA cache is an open-addressing table whose entries carry
 * the generation (kernel) they belong to, so a kernel start empties it in O(1).
 */
#include "ga_replay.h"

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

/* A LOADMETA cache entry: (trace SM, warp, root value) -> location, valid while gen is current. */
typedef struct {
    uint64_t root;
    uint64_t md;
    uint32_t gen;
    uint16_t sm, warp;
} lmc_ent_t;

struct ga_replay {
    ga_replay_cfg_t cfg;
    ga_trace_header_t hdr;
    ga_system_t sys;
    bool sys_ok;
    ga_backend_t be;
    bool be_ok;
    rd_ctx_t *rd;
    uint64_t *l1;        /* sms * l1_lines line tags (line + 1; 0 = invalid) */
    uint64_t cur_cycles; /* read latency accumulated by the operation in progress */
    uint64_t *ptrs;      /* runtime pointer per allocation slot */
    uint64_t *ids;       /* trace ID per slot */
    uint32_t nptrs, capptrs;
    uint64_t *bkey;      /* base VA -> slot (newest allocation with that base) */
    uint32_t *bval;      /* slot + 1, 0 empty */
    size_t bcap, bcount;
    lmc_ent_t *lmc;
    size_t lmc_cap, lmc_count;
    uint32_t gen;
    char **knames;
    uint32_t nk, capk;
    char **files;       /* origins of detections, interned */
    uint32_t nfiles, capfiles;
    uint32_t cur_kernel;
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

/* A 64-bit mixing function (murmur3 finaliser) for the hash tables. */
static uint64_t mix64(uint64_t x)
{
    x ^= x >> 33;
    x *= UINT64_C(0xff51afd7ed558ccd);
    x ^= x >> 33;
    x *= UINT64_C(0xc4ceb9fe1a85ec53);
    x ^= x >> 33;
    return x;
}

/* Number of set bits of m. */
static unsigned popcount32(uint32_t m)
{
    unsigned c = 0;
    for (; m; m &= m - 1u) c++;
    return c;
}

/* ---------------------------------------------------------------------------------------------------
 * The model backend. */

static ga_err_t mb_loadmeta(void *ctx, unsigned sm, uint64_t p, uint64_t *rd)
{
    return ga_mlu_loadmeta(&((ga_system_t *)ctx)->sm[sm], p, rd);
}
/* Model backend: ga_mlu_memcheck_g on SM sm. */
static ga_err_t mb_memcheck_g(void *ctx, unsigned sm, const ga_warp_req_t *req, uint64_t md, ga_warp_rsp_t *rsp)
{
    return ga_mlu_memcheck_g(&((ga_system_t *)ctx)->sm[sm], req, md, rsp);
}
/* Model backend: ga_mlu_memcheck_s on SM sm. */
static ga_err_t mb_memcheck_s(void *ctx, unsigned sm, const ga_warp_req_t *req, uint32_t base, uint32_t ssize,
                              ga_warp_rsp_t *rsp)
{
    return ga_mlu_memcheck_s(&((ga_system_t *)ctx)->sm[sm], req, base, ssize, rsp);
}
/* Model backend: ga_mlu_access on SM sm. */
static ga_err_t mb_access(void *ctx, unsigned sm, const ga_warp_req_t *req, ga_warp_rsp_t *rsp)
{
    return ga_mlu_access(&((ga_system_t *)ctx)->sm[sm], req, rsp);
}

/* See ga_replay.h. */
void ga_backend_model(ga_backend_t *b, ga_system_t *sys)
{
    memset(b, 0, sizeof *b);
    b->name = "model";
    b->ctx = sys;
    b->loadmeta = mb_loadmeta;
    b->memcheck_g = mb_memcheck_g;
    b->memcheck_s = mb_memcheck_s;
    b->access = mb_access;
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

/* The read wrapper: the model's read, then the metadata L1 lookup for its latency. */
static int timed_read(void *ctx, uint64_t addr, uint32_t len, uint8_t *buf)
{
    rd_ctx_t *c = ctx;
    ga_replay_t *rp = c->rp;
    int rc = c->orig.read(c->orig.read_ctx, addr, len, buf);
    uint64_t line = addr >> 5;
    uint64_t *tag = &rp->l1[(size_t)c->sm * rp->cfg.l1_lines + (size_t)(line % rp->cfg.l1_lines)];
    if (*tag == line + 1u) {
        rp->st.l1_hits++;
        rp->cur_cycles += rp->cfg.l1_hit;
    } else {
        rp->st.l1_misses++;
        rp->cur_cycles += rp->cfg.l1_miss;
        *tag = line + 1u;
    }
    return rc;
}

/* See ga_replay.h. Wraps every SM's metadata read with timed_read. */
int ga_replay_create(ga_replay_t **out, const ga_replay_cfg_t *cfg, const ga_trace_header_t *hdr,
                     ga_trace_err_t *err)
{
    *out = NULL;
    if (cfg->tag_bits != 7u && cfg->tag_bits != 16u) {
        eprintf(err, "tag bits must be 7 or 16, not %u", cfg->tag_bits);
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
    if ((unsigned)cfg->layout > GA_LAYOUT_TABLE || (unsigned)cfg->mode > GA_MODE_HWONLY) {
        eprintf(err, "bad layout or mode");
        return -1;
    }
    ga_replay_t *rp = calloc(1, sizeof *rp);
    if (rp == NULL) goto oom;
    rp->cfg = *cfg;
    rp->hdr = *hdr;
    rp->gen = 1;
    if (rp->cfg.sms == 0)
        rp->cfg.sms = hdr->sms == 0 ? 4u : (hdr->sms > GA_SYSTEM_MAX_SMS ? GA_SYSTEM_MAX_SMS : hdr->sms);
    rp->st.sms = rp->cfg.sms;

    ga_system_cfg_t sc;
    ga_system_default_cfg(&sc, cfg->layout, cfg->tag_bits, cfg->seed);
    sc.sms = rp->cfg.sms;
    sc.mlb_entries = cfg->mlb_entries;
    sc.mode = cfg->mode;
    sc.policy = GA_POLICY_REPORT;
    if (cfg->step_limit) sc.step_limit = cfg->step_limit;
    sc.rt.fixed_addresses = hdr->fixed;
    if (cfg->md_base) sc.rt.md_base = cfg->md_base;
    if (cfg->md_capacity) sc.rt.md_capacity = cfg->md_capacity;
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
    if (cfg->rtl) {
        if (ga_backend_rtl(&rp->be, &rp->sys, err) != 0) {
            ga_replay_destroy(rp);
            return -1;
        }
    } else {
        ga_backend_model(&rp->be, &rp->sys);
    }
    rp->be_ok = true;
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
    if (rp->be_ok && rp->be.destroy) rp->be.destroy(rp->be.ctx);
    if (rp->sys_ok) ga_system_fini(&rp->sys);
    free(rp->rd);
    free(rp->l1);
    free(rp->ptrs);
    free(rp->ids);
    free(rp->bkey);
    free(rp->bval);
    free(rp->lmc);
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
            size_t h = (size_t)mix64(rp->bkey[i]) & (nc - 1u);
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
    size_t h = (size_t)mix64(base) & (rp->bcap - 1u);
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
    for (size_t h = (size_t)mix64(base) & (rp->bcap - 1u);; h = (h + 1u) & (rp->bcap - 1u)) {
        if (rp->bval[h] == 0) return UINT32_MAX;
        if (rp->bkey[h] == base) return rp->bval[h] - 1u;
    }
}

/* After a successful runtime call: tell the backend, update storage figures. */
static void runtime_changed(ga_replay_t *rp)
{
    if (rp->be.runtime_changed) {
        const uint64_t *locs;
        size_t n = ga_rt_invalidations(rp->sys.rt, &locs);
        rp->be.runtime_changed(rp->be.ctx, locs, n, ga_rt_root(rp->sys.rt));
    }
    ga_rt_stats_t rs = ga_rt_stats(rp->sys.rt);
    if (rs.metadata_bytes > rp->st.md_bytes_peak) rp->st.md_bytes_peak = rs.metadata_bytes;
    if (rs.live > rp->st.live_peak) rp->st.live_peak = rs.live;
}

/* alloc record: malloc (auto or fixed) and bind the pointer to the slot; runtime refusals are errors. */
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
    if (e != GA_OK)
        return lerr(err, r, ev, "alloc a%" PRIu64 ": the runtime refused it: %s", ev->id, ga_strerror(e));
    rp->ptrs[rp->nptrs] = p;
    rp->ids[rp->nptrs] = ev->id;
    rp->nptrs++;
    if (!base_put(rp, ga_va_of(p, rp->cfg.tag_bits), ev->slot)) return lerr(err, r, ev, "out of memory");
    runtime_changed(rp);
    return 0;
}

/* free record: free the slot's pointer. */
static int do_free(ga_replay_t *rp, const ga_trace_reader_t *r, const ga_tev_t *ev, ga_trace_err_t *err)
{
    if (ev->slot >= rp->nptrs) return lerr(err, r, ev, "internal error: free of an unknown slot");
    ga_err_t e = ga_system_free(&rp->sys, rp->ptrs[ev->slot]);
    if (e != GA_OK)
        return lerr(err, r, ev, "free a%" PRIu64 ": the runtime refused it: %s", ev->id, ga_strerror(e));
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
    /* Registers do not survive a kernel: a new LOADMETA cache generation. */
    rp->gen++;
    rp->lmc_count = 0;
    if (rp->gen == 0) { /* wrapped after 2^32 kernels: clear for real */
        if (rp->lmc) memset(rp->lmc, 0, rp->lmc_cap * sizeof *rp->lmc);
        rp->gen = 1;
    }
    /* GPU L1s are invalidated at kernel launch (docs/traces.md §6.6). */
    memset(rp->l1, 0, (size_t)rp->cfg.sms * rp->cfg.l1_lines * sizeof *rp->l1);
    return 0;
}

/* ---------------------------------------------------------------------------------------------------
 * The LOADMETA cache. */

static size_t lmc_hash(uint16_t sm, uint16_t warp, uint64_t root)
{
    return (size_t)mix64(root ^ ((uint64_t)sm << 48) ^ ((uint64_t)warp << 32) ^ UINT64_C(0x9e3779b97f4a7c15));
}

/* Pointer to the current-generation entry for the key, or NULL. */
static lmc_ent_t *lmc_find(ga_replay_t *rp, uint16_t sm, uint16_t warp, uint64_t root)
{
    if (rp->lmc_cap == 0) return NULL;
    for (size_t h = lmc_hash(sm, warp, root) & (rp->lmc_cap - 1u);; h = (h + 1u) & (rp->lmc_cap - 1u)) {
        lmc_ent_t *e = &rp->lmc[h];
        if (e->gen != rp->gen) return NULL;
        if (e->root == root && e->sm == sm && e->warp == warp) return e;
    }
}

/* Insert (key not present). false when out of memory. */
static bool lmc_insert(ga_replay_t *rp, uint16_t sm, uint16_t warp, uint64_t root, uint64_t md)
{
    if ((rp->lmc_count + 1u) * 2u > rp->lmc_cap) {
        size_t nc = rp->lmc_cap ? 2u * rp->lmc_cap : 1024u;
        lmc_ent_t *nt = calloc(nc, sizeof *nt);
        if (nt == NULL) return false;
        for (size_t i = 0; i < rp->lmc_cap; i++) {
            const lmc_ent_t *e = &rp->lmc[i];
            if (e->gen != rp->gen) continue;
            size_t h = lmc_hash(e->sm, e->warp, e->root) & (nc - 1u);
            while (nt[h].gen == rp->gen) h = (h + 1u) & (nc - 1u);
            nt[h] = *e;
        }
        free(rp->lmc);
        rp->lmc = nt;
        rp->lmc_cap = nc;
    }
    size_t h = lmc_hash(sm, warp, root) & (rp->lmc_cap - 1u);
    while (rp->lmc[h].gen == rp->gen) h = (h + 1u) & (rp->lmc_cap - 1u);
    rp->lmc[h] = (lmc_ent_t){root, md, rp->gen, sm, warp};
    rp->lmc_count++;
    return true;
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

/* LOADMETA of root on the record's SM; caches the result. */
static int run_loadmeta(ga_replay_t *rp, const ga_trace_reader_t *r, const ga_tev_t *ev, uint64_t root, uint64_t *md,
                        ga_trace_err_t *err)
{
    rp->cur_cycles = 0;
    ga_err_t e = rp->be.loadmeta(rp->be.ctx, model_sm(rp, ev->sm), root, md);
    if (e != GA_OK) return be_fail(err, r, ev, rp, "LOADMETA", e);
    uint64_t c = rp->cfg.mlb_cycles + rp->cur_cycles;
    rp->st.loadmeta_cycles += c;
    if (c > rp->st.loadmeta_cycles_max) rp->st.loadmeta_cycles_max = c;
    lmc_ent_t *hit = lmc_find(rp, ev->sm, ev->warp, root);
    if (hit) hit->md = *md;
    else if (!lmc_insert(rp, ev->sm, ev->warp, root, *md)) return lerr(err, r, ev, "out of memory");
    return 0;
}

/* The cached location for root, running LOADMETA first when missing. */
static int cached_md(ga_replay_t *rp, const ga_trace_reader_t *r, const ga_tev_t *ev, uint64_t root, uint64_t *md,
                     ga_trace_err_t *err)
{
    const lmc_ent_t *hit = lmc_find(rp, ev->sm, ev->warp, root);
    if (hit) {
        *md = hit->md;
        return 0;
    }
    return run_loadmeta(rp, r, ev, root, md, err);
}

/* Evaluate a pointer expression; a tag override wider than the tag bits is an error. */
static int eval_ptr(ga_replay_t *rp, const ga_trace_reader_t *r, const ga_tev_t *ev, const ga_tptr_t *p,
                    uint64_t *v, ga_trace_err_t *err)
{
    if (ga_tptr_eval(p, rp->ptrs, rp->nptrs, rp->cfg.tag_bits, v)) return 0;
    if (p->set_tag && ((uint64_t)p->tag >> rp->cfg.tag_bits))
        return lerr(err, r, ev, "tag override :t%u does not fit %u tag bits", (unsigned)p->tag, rp->cfg.tag_bits);
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

/* Detections. */
static int detection(ga_replay_t *rp, const ga_trace_reader_t *r, const ga_tev_t *ev, const ga_warp_rsp_t *rsp,
                     ga_trace_err_t *err)
{
    if (rsp->fault == 0) return 0;
    rp->st.detections++;
    if ((unsigned)rsp->rec.kind < GA_EXC_KINDS) rp->st.detections_by_kind[rsp->rec.kind]++;
    rp->st.faulting_lanes += popcount32(rsp->fault);
    if (rp->cfg.max_detections && rp->ndet >= rp->cfg.max_detections) return 0;
    if (rp->ndet == rp->capdet) {
        size_t nc = rp->capdet ? 2u * rp->capdet : 64u;
        ga_detection_t *nd = realloc(rp->det, nc * sizeof *nd);
        if (nd == NULL) return lerr(err, r, ev, "out of memory");
        rp->det = nd;
        rp->capdet = nc;
    }
    ga_detection_t *d = &rp->det[rp->ndet++];
    memset(d, 0, sizeof *d);
    d->rec = rsp->rec;
    d->fault_mask = rsp->fault;
    const char *file = NULL;
    d->line = ev->line;
    if (r) ga_trace_origin(r, &file, &d->line);
    d->file = file ? intern_file(rp, file) : UINT32_MAX;
    if (file && d->file == UINT32_MAX) return lerr(err, r, ev, "out of memory");
    d->kernel = rp->cur_kernel;
    d->op = ev->kind;
    d->trace_sm = ev->sm;
    if (ev->kind == GA_TEV_LDS || ev->kind == GA_TEV_STS) return 0;
    unsigned tb = rp->cfg.tag_bits;
    uint64_t va = ga_va_of(d->rec.addr, tb);
    ga_entry_t e;
    if (ga_rt_find(rp->sys.rt, va, &e, NULL)) {
        d->in_entry = true;
        d->entry = e;
        d->entry_freed = ga_tag_of(e.tb, tb) == ga_tag_freed(tb);
        uint32_t s = base_get(rp, ga_va_of(e.tb, tb));
        if (s != UINT32_MAX) {
            d->entry_named = true;
            d->entry_id = rp->ids[s];
        }
    }
    if (!d->in_entry || d->entry_freed) {
        ga_entry_t ne;
        uint64_t dist;
        if (ga_rt_nearest_live(rp->sys.rt, va, &ne, &dist)) {
            d->near_found = true;
            d->near = ne;
            d->near_dist = dist;
            uint32_t s = base_get(rp, ga_va_of(ne.tb, tb));
            if (s != UINT32_MAX) {
                d->near_named = true;
                d->near_id = rp->ids[s];
            }
        }
    }
    if (d->rec.entry.size != 0 || d->rec.entry.tb != 0) {
        uint32_t s = base_get(rp, ga_va_of(d->rec.entry.tb, tb));
        if (s != UINT32_MAX) {
            d->checked_named = true;
            d->checked_id = rp->ids[s];
        }
    }
    return 0;
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

/* One MEMCHECK.G, timed (check cycles + fetch latency), its detection recorded. */
static int run_memcheck_g(ga_replay_t *rp, const ga_trace_reader_t *r, const ga_tev_t *ev, const ga_warp_req_t *q,
                          uint64_t md, ga_trace_err_t *err)
{
    ga_warp_rsp_t rsp;
    rp->cur_cycles = 0;
    ga_err_t e = rp->be.memcheck_g(rp->be.ctx, model_sm(rp, ev->sm), q, md, &rsp);
    if (e != GA_OK) return be_fail(err, r, ev, rp, "MEMCHECK.G", e);
    uint64_t c = rp->cfg.check_cycles + rp->cur_cycles;
    rp->st.memcheck_g_cycles += c;
    if (c > rp->st.memcheck_g_cycles_max) rp->st.memcheck_g_cycles_max = c;
    return detection(rp, r, ev, &rsp, err);
}

/* One plain access; in HWOnly its LOADMETAs are timed (docs/traces.md §6.6). */
static int run_access(ga_replay_t *rp, const ga_trace_reader_t *r, const ga_tev_t *ev, const ga_warp_req_t *q,
                      ga_trace_err_t *err)
{
    ga_warp_rsp_t rsp;
    unsigned sm = model_sm(rp, ev->sm);
    uint64_t lm0 = rp->sys.sm[sm].st.loadmeta;
    rp->cur_cycles = 0;
    ga_err_t e = rp->be.access(rp->be.ctx, sm, q, &rsp);
    if (e != GA_OK) return be_fail(err, r, ev, rp, "ACCESS", e);
    uint64_t nlm = rp->sys.sm[sm].st.loadmeta - lm0;
    if (nlm) { /* HWOnly: the access's LOADMETAs (docs/traces.md §6.6) */
        uint64_t c = rp->cfg.mlb_cycles * nlm + rp->cur_cycles;
        rp->st.loadmeta_cycles += c;
        if (c > rp->st.loadmeta_cycles_max) rp->st.loadmeta_cycles_max = c;
    }
    return detection(rp, r, ev, &rsp, err);
}

/* ld / st record in the current mode (docs/traces.md §6.3, §6.4). */
static int do_global(ga_replay_t *rp, const ga_trace_reader_t *r, const ga_tev_t *ev, ga_trace_err_t *err)
{
    ga_warp_req_t q;
    rp->st.global_accesses++;
    rp->st.global_lanes += popcount32(ev->mask);
    if (lane_addrs(rp, r, ev, &q, err)) return -1;
    if (rp->cfg.mode == GA_MODE_HWONLY) return run_access(rp, r, ev, &q, err);
    if (ev->root_kind == GA_ROOT_NONE) {
        rp->st.unchecked_accesses++;
        return run_access(rp, r, ev, &q, err);
    }
    if (ev->root_kind == GA_ROOT_PTR) {
        uint64_t root, md;
        if (eval_ptr(rp, r, ev, &ev->root, &root, err) || cached_md(rp, r, ev, root, &md, err)) return -1;
        return run_memcheck_g(rp, r, ev, &q, md, err);
    }
    /* root=lane: a LOADMETA per lane address (cached), one MEMCHECK.G per distinct location. */
    uint64_t md[GA_TRACE_LANES];
    for (unsigned l = 0; l < GA_TRACE_LANES; l++)
        if ((ev->mask >> l & 1u) && cached_md(rp, r, ev, q.addr[l], &md[l], err)) return -1;
    uint32_t left = ev->mask;
    while (left) {
        unsigned k = 0;
        while (!(left >> k & 1u)) k++;
        uint32_t group = 0;
        for (unsigned l = k; l < GA_TRACE_LANES; l++)
            if ((left >> l & 1u) && md[l] == md[k]) group |= UINT32_C(1) << l;
        left &= ~group;
        ga_warp_req_t g = q;
        g.active = group;
        if (run_memcheck_g(rp, r, ev, &g, md[k], err)) return -1;
    }
    return 0;
}

/* lds / sts record: MEMCHECK.S in compiler mode, counted only in HWOnly. */
static int do_shared(ga_replay_t *rp, const ga_trace_reader_t *r, const ga_tev_t *ev, ga_trace_err_t *err)
{
    rp->st.shared_accesses++;
    rp->st.shared_lanes += popcount32(ev->mask);
    if (rp->cfg.mode == GA_MODE_HWONLY) {
        rp->st.shared_unchecked++;
        return 0;
    }
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
    ga_warp_rsp_t rsp;
    ga_err_t e = rp->be.memcheck_s(rp->be.ctx, model_sm(rp, ev->sm), &q, ev->sbase, ev->ssize, &rsp);
    if (e != GA_OK) return be_fail(err, r, ev, rp, "MEMCHECK.S", e);
    return detection(rp, r, ev, &rsp, err);
}

/* See ga_replay.h. */
int ga_replay_event(ga_replay_t *rp, const ga_trace_reader_t *r, const ga_tev_t *ev, ga_trace_err_t *err)
{
    if ((unsigned)ev->kind >= GA_TEV_KINDS) return lerr(err, r, ev, "internal error: bad record kind");
    rp->st.records[ev->kind]++;
    switch (ev->kind) {
    case GA_TEV_ALLOC: return do_alloc(rp, r, ev, err);
    case GA_TEV_FREE: return do_free(rp, r, ev, err);
    case GA_TEV_KERNEL: return do_kernel(rp, r, ev, err);
    case GA_TEV_END: return 0;
    case GA_TEV_LOADMETA: {
        if (rp->cfg.mode == GA_MODE_HWONLY) return 0;
        uint64_t root, md;
        if (eval_ptr(rp, r, ev, &ev->root, &root, err)) return -1;
        return run_loadmeta(rp, r, ev, root, &md, err);
    }
    case GA_TEV_LD:
    case GA_TEV_ST: return do_global(rp, r, ev, err);
    case GA_TEV_LDS:
    case GA_TEV_STS: return do_shared(rp, r, ev, err);
    default: return lerr(err, r, ev, "internal error: bad record kind");
    }
}

/* See ga_replay.h. */
int ga_replay_finish(ga_replay_t *rp, ga_trace_err_t *err)
{
    if (rp->be.check && rp->be.check(rp->be.ctx, err) != 0) return -1;
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
    uint64_t n = 0;
    while (rc > 0) {
        if (ga_replay_event(rp, r, &ev, err) != 0) goto fail;
        if (progress && (++n & 0xffffu) == 0) {
            uint64_t done, total;
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

/* See ga_replay.h. */
int ga_replay_format_detection(const ga_replay_t *rp, const char *trace_name, const ga_detection_t *d, char *buf,
                               size_t cap)
{
    if (cap == 0) return 0;
    lb_t s = {buf, cap, 0};
    buf[0] = '\0';
    unsigned tb = rp->cfg.tag_bits;
    unsigned nf = popcount32(d->fault_mask);
    lb_printf(&s, "%s:%" PRIu64 ": kernel %s: %s %s sm %u warp %u lane %u addr 0x%016" PRIx64 " size %" PRIu32
              " (%u failing lane%s, mask 0x%08" PRIx32 ")",
              d->file < rp->nfiles ? rp->files[d->file] : (trace_name ? trace_name : "trace"), d->line,
              ga_replay_kernel_name(rp, d->kernel), ga_exc_name(d->rec.kind), ga_tev_name(d->op),
              (unsigned)d->trace_sm, (unsigned)d->rec.warp, (unsigned)d->rec.lane, d->rec.addr, d->rec.size, nf,
              nf == 1 ? "" : "s", d->fault_mask);
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
    uint64_t va = ga_va_of(d->rec.addr, tb);
    if (d->in_entry) {
        lb_printf(&s, "; the address is inside %s", d->entry_freed ? "freed " : "");
        lb_alloc(&s, d->entry_named, d->entry_id, d->entry, tb);
    } else {
        lb_printf(&s, "; no allocation covers the address");
    }
    if (d->near_found) {
        uint64_t nb = ga_va_of(d->near.tb, tb);
        lb_printf(&s, "; nearest live allocation ");
        lb_alloc(&s, d->near_named, d->near_id, d->near, tb);
        if (va < nb)
            lb_printf(&s, ", %" PRIu64 " byte%s before its start", d->near_dist, d->near_dist == 1 ? "" : "s");
        else if (d->near_dist == 1)
            lb_printf(&s, ", right after its end");
        else
            lb_printf(&s, ", %" PRIu64 " bytes after its end", d->near_dist - 1u);
    }
    return (int)s.n;
}
