/*
 * gaeval — the evaluation behind docs/results.md (method: docs/eval.md).
 *
 *   gaeval run      [--scale smoke|full|X] [--trials N] [--out DIR] [--seed N] [--sms N]
 *                   [--backend model|rtl] [--l1 C] [--corpus SWEEP.csv]
 *   gaeval campaign -o FILE [--trials N] [--seed N] [--backend model|rtl] [--tag-bits 7|16|all]
 *                   [--gpuarmor-only] [--shard I/N]
 *   gaeval table4   [--trials N] [--out DIR] [--seed N] [--backend model|rtl] [--tag-bits 7|16]
 *                   [--from FILE]
 *   gaeval merge    -o OUT [--partial] FILE...
 *   gaeval check    DIR
 *
 * `run` measures everything on the synthetic workload stand-ins (sim/workloads/) and the golden model,
 * adds the corpus programs' trace sweeps when --corpus names gasweep's merged CSV, and writes into
 * DIR one CSV per table or figure and results.md (every number in it comes from this run; the paper's
 * numbers stand beside ours with their section; scripts/eval_corpus.py fills in the sections measured
 * on real programs). `campaign` runs the Table 4 fault-injection campaign as units of 1 000
 * injections, one shard of it with --shard (docs/eval.md, "Shards"); `merge` joins shard files into
 * the canonical one; `table4` runs the GPUArmor rows of one tag width (what one RTL configuration can
 * run) or aggregates a merged campaign file (--from) into table4.csv. `check` re-reads DIR's CSVs and
 * fails when a result breaks an invariant the design guarantees (docs/eval.md, "Sanity checks").
 * Plots are drawn from the CSVs by scripts/eval_plots.gp. Exit statuses are ga_exit.h's: 0 done, 1 a
 * runtime error, 2 a bad command line, 3 a check failed (`check`, or the RTL backend disagreed).
 */
#include "../ga_exit.h"
#include "ga_campaign.h"
#include "ga_perf.h"
#include "ga_shard.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* The backends this program holds, chosen here at compile time (cmodel/ga_backend.h): the model;
 * compiled with -DGA_WITH_RTL (mk/tb.mk's gaeval-rtl, linked with tb/replay/tb_backend.c) also the
 * Verilator lockstep backend "rtl". */
#ifdef GA_WITH_RTL
static const ga_backend_def_t *const k_backends[] = {&ga_backend_model_def, &ga_backend_rtl_def, NULL};
#else
static const ga_backend_def_t *const *const k_backends = ga_backends_model;
#endif

/* Every layout of cmodel/ga_layouts.def, in code order (list, BST, table, index). */
static const ga_layout_t k_layouts[] = {
#define GA_LAYOUT(id, code, name, rtl, title) GA_LAYOUT_##id,
#include "ga_layouts.def"
#undef GA_LAYOUT
};
#define NL ((int)(sizeof k_layouts / sizeof k_layouts[0]))
#define NM 8
static const unsigned k_mlbs[NM] = {0, 1, 2, 4, 8, 16, 32, 64}; /* 0 = no MLB */

typedef struct {
    const char *scale_name;
    double scale;
    unsigned trials;
    const char *out;
    uint64_t seed;
    unsigned sms;
    const char *backend;
    uint32_t l1;
    const char *corpus;   /* gasweep's merged CSV of the corpus traces, or NULL */
    const ga_backend_def_t *const *backends; /* this program's registry (below) */
} opts_t;

/* Print "gaeval: " fmt (one %s of a) and exit with status code. */
static void die_code(int code, const char *fmt, const char *a)
{
    fprintf(stderr, "gaeval: ");
    fprintf(stderr, fmt, a);
    fprintf(stderr, "\n");
    exit(code);
}

/* A runtime error: exit 1. */
static void die(const char *fmt, const char *a) { die_code(GA_EXIT_ERROR, fmt, a); }

static FILE *open_out(const opts_t *o, const char *name)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", o->out, name);
    FILE *f = fopen(path, "w");
    if (f == NULL) die("cannot write %s", path);
    return f;
}

static void close_out(FILE *f)
{
    if (ferror(f) || fclose(f) != 0) die("%s", "write error");
}

/* ------------------------------------------------------------------------------------------------ */
/* Measurements                                                                                     */

typedef struct {
    const ga_wl_spec_t *spec;
    ga_perf_res_t cc[NL][NM]; /* compiler mode, by layout and MLB size index */
    ga_perf_res_t hw[2];      /* HWOnly, BST, 8 and 16 entries */
    ga_perf_res_t hwx[2];     /* HWOnly, index, 8 and 16 entries (Fig 13 with the index beside the BST) */
    uint64_t *sizes;
} wl_res_t;

static void perf_one(const opts_t *o, const ga_wl_spec_t *s, ga_mode_t mode, ga_layout_t l, unsigned mlb,
                     ga_perf_res_t *r)
{
    ga_perf_cfg_t c;
    ga_perf_default_cfg(&c);
    c.mode = mode;
    c.layout = l;
    c.mlb = mlb;
    c.sms = o->sms;
    c.seed = o->seed;
    c.scale = o->scale;
    c.backend = o->backend;
    c.backends = o->backends;
    c.l1_cycles = o->l1;
    char msg[512];
    if (ga_perf_run(s, &c, r, msg, sizeof msg) != 0) die("%s", msg);
}

static double geomean(const double *v, size_t n)
{
    double s = 0.0;
    for (size_t i = 0; i < n; i++) s += log(v[i]);
    return n ? exp(s / (double)n) : 0.0;
}

/* ------------------------------------------------------------------------------------------------ */
/* Table 4 campaign, in units (docs/eval.md, "Table 4" and "Shards")                                */

#define NS 11
#define T4_BLOCK 1000u /* injections per unit: a fresh environment each, seeded from the unit alone */

typedef struct {
    ga_scheme_t s;
    uint64_t n[GA_CLS_N], det[GA_CLS_N], land[GA_CLS_N][GA_LAND_N], kind[GA_CLS_N][GA_EXC_KINDS];
} camp_res_t;

static const char *const k_paper_t4[GA_CLS_N][3] = {
    /* GPUArmor, GPUShield, GPUArmor-HWOnly (paper Table 4) */
    {"100%", "100%", "100%"},   {"100%", "99.2%", "99.2%"}, {"99.2%", "99.2%", "99.2%"},
    {"0%", "0%", "0%"},         {"100%", "0%", "100%"},     {"99.2%", "0%", "99.2%"},
};

/* The schemes, in a fixed order: a scheme's index is part of its units' seeds, so a run of some of
 * them (gaeval table4 --tag-bits 16) gives the same rows as a run of all. */
static void schemes(const opts_t *o, ga_scheme_t sch[NS])
{
    const unsigned pop = 96; /* < 127: every buffer gets a GPUShield id (paper §3.2 Obs. 5) */
    const ga_scheme_t all[NS] = {
        {"GPUArmor", GA_SCHEME_GPUARMOR, GA_MODE_COMPILER, false, 0, pop, 7, GA_LAYOUT_BST, o->backend, o->backends},
        {"GPUShield-like", GA_SCHEME_GPUSHIELD, GA_MODE_COMPILER, false, 0, pop, 7, GA_LAYOUT_BST, "model", o->backends},
        {"GPUArmor-HWOnly", GA_SCHEME_GPUARMOR, GA_MODE_HWONLY, false, 0, pop, 7, GA_LAYOUT_BST, o->backend, o->backends},
        {"HWOnly + neighbour-distinct", GA_SCHEME_GPUARMOR, GA_MODE_HWONLY, true, 0, pop, 7, GA_LAYOUT_BST, o->backend, o->backends},
        {"HWOnly + quarantine W=64", GA_SCHEME_GPUARMOR, GA_MODE_HWONLY, false, 64, pop, 7, GA_LAYOUT_BST, o->backend, o->backends},
        {"HWOnly + both", GA_SCHEME_GPUARMOR, GA_MODE_HWONLY, true, 64, pop, 7, GA_LAYOUT_BST, o->backend, o->backends},
        {"GPUArmor + both", GA_SCHEME_GPUARMOR, GA_MODE_COMPILER, true, 64, pop, 7, GA_LAYOUT_BST, o->backend, o->backends},
        {"GPUArmor-HWOnly 16-bit tags", GA_SCHEME_GPUARMOR, GA_MODE_HWONLY, false, 0, pop, 16, GA_LAYOUT_BST, o->backend, o->backends},
        {"GPUShield-like 1024 live", GA_SCHEME_GPUSHIELD, GA_MODE_COMPILER, false, 0, 1024, 7, GA_LAYOUT_BST, "model", o->backends},
        {"GPUArmor 16-bit tags", GA_SCHEME_GPUARMOR, GA_MODE_COMPILER, false, 0, pop, 16, GA_LAYOUT_BST, o->backend, o->backends},
        {"HWOnly 16-bit + both", GA_SCHEME_GPUARMOR, GA_MODE_HWONLY, true, 64, pop, 16, GA_LAYOUT_BST, o->backend, o->backends},
    };
    memcpy(sch, all, sizeof all);
}

typedef struct {
    unsigned k, c, b, trials; /* scheme, class, block, injections */
} t4_unit_t;

/* The campaign's units: for every selected scheme (tag_bits 0 = any width; ga_only: GPUArmor
 * schemes only) and class, ceil(trials / T4_BLOCK) blocks. Returns the count, *out malloc'ed. */
static size_t t4_units(const opts_t *o, unsigned tag_bits, bool ga_only, t4_unit_t **out)
{
    ga_scheme_t sch[NS];
    schemes(o, sch);
    unsigned nb = (o->trials + T4_BLOCK - 1u) / T4_BLOCK;
    t4_unit_t *u = calloc((size_t)NS * GA_CLS_N * nb, sizeof *u);
    if (u == NULL) die("%s", "out of memory");
    size_t n = 0;
    for (unsigned k = 0; k < NS; k++) {
        if (ga_only && sch[k].kind != GA_SCHEME_GPUARMOR) continue;
        if (tag_bits != 0u && (sch[k].kind != GA_SCHEME_GPUARMOR || sch[k].tag_bits != tag_bits)) continue;
        for (unsigned c = 0; c < GA_CLS_N; c++)
            for (unsigned b = 0; b < nb; b++) {
                unsigned left = o->trials - b * T4_BLOCK;
                u[n++] = (t4_unit_t){k, c, b, left < T4_BLOCK ? left : T4_BLOCK};
            }
    }
    *out = u;
    return n;
}

/* What determines the rows: seed, trials, block size and the units (schemes by label). The backend is
 * not in it: the RTL must give the model's rows, byte for byte. */
static uint64_t t4_spec(const opts_t *o, const t4_unit_t *u, size_t n)
{
    ga_scheme_t sch[NS];
    schemes(o, sch);
    char buf[256];
    int len = snprintf(buf, sizeof buf, "table4 v1 seed=%" PRIu64 " trials=%u block=%u", o->seed, o->trials, T4_BLOCK);
    uint64_t h = ga_shard_hash(GA_SHARD_HASH0, buf, (size_t)len);
    for (size_t i = 0; i < n; i++) {
        len = snprintf(buf, sizeof buf, "|%s/%u/%u/%u", sch[u[i].k].label, u[i].c, u[i].b, u[i].trials);
        h = ga_shard_hash(h, buf, (size_t)len);
    }
    return h;
}

static const char k_t4_cols[] = "scheme,class,block,trials,detected,land_same,land_live,land_freed,land_gap,"
                                "kind_OUT_OF_BOUNDS,kind_USE_AFTER_FREE,kind_TAG_MISMATCH,kind_NO_METADATA,"
                                "kind_SHARED_OUT_OF_BOUNDS,kind_METADATA_FAULT";

/* One unit: a fresh environment seeded from (seed, scheme, class, block) alone, its injections counted
 * into r (r->s set). A backend disagreement (RTL) exits 3. */
static void t4_run_unit(const opts_t *o, const t4_unit_t *u, camp_res_t *r)
{
    ga_scheme_t sch[NS];
    schemes(o, sch);
    memset(r, 0, sizeof *r);
    r->s = sch[u->k];
    uint64_t key[4] = {o->seed, u->k, u->c, u->b};
    uint64_t seed = ga_shard_hash(GA_SHARD_HASH0, key, sizeof key);
    char msg[512];
    ga_camp_t *env;
    if (ga_camp_create(&env, &sch[u->k], seed, msg, sizeof msg) != 0) die("%s", msg);
    for (unsigned i = 0; i < u->trials; i++) {
        ga_trial_t t;
        if (ga_camp_trial(env, (ga_cls_t)u->c, &t, msg, sizeof msg) != 0) die("%s", msg);
        r->n[u->c]++;
        r->det[u->c] += (uint64_t)t.detected;
        r->land[u->c][t.land]++;
        r->kind[u->c][t.kind]++;
    }
    /* the backend's final check: the RTL disagreed with the model */
    if (ga_camp_check(env, msg, sizeof msg) != 0) die_code(GA_EXIT_MISMATCH, "%s", msg);
    ga_camp_destroy(env);
}

/* Add unit result r (class c) into the per-scheme totals cr[k]. */
static void t4_add(camp_res_t *cr, unsigned k, unsigned c, const camp_res_t *r)
{
    cr[k].n[c] += r->n[c];
    cr[k].det[c] += r->det[c];
    for (int d = 0; d < GA_LAND_N; d++) cr[k].land[c][d] += r->land[c][d];
    for (int x = 0; x < GA_EXC_KINDS; x++) cr[k].kind[c][x] += r->kind[c][x];
}

/* The row cells of unit u's result r (without the unit number). */
static void t4_cells(const t4_unit_t *u, const camp_res_t *r, char *buf, size_t cap)
{
    int len = snprintf(buf, cap, "%s,%s,%u,%" PRIu64 ",%" PRIu64, r->s.label, ga_cls_id((ga_cls_t)u->c), u->b,
                       r->n[u->c], r->det[u->c]);
    for (int d = 0; d < GA_LAND_N && len > 0 && (size_t)len < cap; d++)
        len += snprintf(buf + len, cap - (size_t)len, ",%" PRIu64, r->land[u->c][d]);
    for (int x = 1; x < GA_EXC_KINDS && len > 0 && (size_t)len < cap; x++)
        len += snprintf(buf + len, cap - (size_t)len, ",%" PRIu64, r->kind[u->c][x]);
}

/* Run every unit of the selection in this process and total them per scheme (cr[k].n all zero for a
 * scheme not selected). */
static void run_campaigns(const opts_t *o, camp_res_t *cr, unsigned tag_bits, bool ga_only)
{
    ga_scheme_t sch[NS];
    schemes(o, sch);
    for (int k = 0; k < NS; k++) {
        memset(&cr[k], 0, sizeof cr[k]);
        cr[k].s = sch[k];
    }
    t4_unit_t *u;
    size_t n = t4_units(o, tag_bits, ga_only, &u);
    unsigned last = NS;
    for (size_t i = 0; i < n; i++) {
        if (u[i].k != last && ga_only) fprintf(stderr, "gaeval: %s on the %s backend\n", sch[u[i].k].label, o->backend);
        last = u[i].k;
        camp_res_t r;
        t4_run_unit(o, &u[i], &r);
        t4_add(cr, u[i].k, u[i].c, &r);
    }
    free(u);
}

/* ------------------------------------------------------------------------------------------------ */
/* Table 5: storage                                                                                 */

typedef struct {
    double fp;                  /* footprint, bytes */
    double ga_node, ga_table;   /* GPUArmor measured peak (BST nodes), table entries: % */
    double ga_index;            /* ... index slots and nodes: % */
    double entry16, cucatch, lak4, lak8, gmod;
} store_t;

static store_t storage(const wl_res_t *w)
{
    store_t s;
    memset(&s, 0, sizeof s);
    const ga_wl_spec_t *sp = w->spec;
    double cu = 0.0, l4 = 0.0, l8 = 0.0;
    for (uint32_t i = 0; i < sp->allocs; i++) {
        double z = (double)w->sizes[i];
        s.fp += z;
        cu += ceil(z / 32.0) * 4.0; /* cuCatch: 32 bits per 32-byte region (Table 1) */
        l4 += ceil(z / 16.0) * 0.5; /* LAK per Table 1: 4 bits per 16-byte region */
        l8 += ceil(z / 16.0) * 1.0; /* LAK per §2.3 / §9.2: 8-bit tags per 16 bytes */
    }
    double n = (double)sp->allocs;
    s.ga_node = 100.0 * (double)w->cc[1][4].md_bytes_peak / s.fp;  /* BST, measured at its peak */
    s.ga_table = 100.0 * (double)w->cc[2][4].md_bytes_peak / s.fp; /* table, measured */
    s.ga_index = 100.0 * (double)w->cc[GA_LAYOUT_INDEX][4].md_bytes_peak / s.fp; /* index, measured */
    s.entry16 = 100.0 * 16.0 * n / s.fp;                           /* "2 words per object" */
    s.cucatch = 100.0 * cu / s.fp;
    s.lak4 = 100.0 * l4 / s.fp;
    s.lak8 = 100.0 * l8 / s.fp;
    s.gmod = 100.0 * 8.0 * n / s.fp; /* an 8-byte canary per object */
    return s;
}

static size_t split(char *line, char **cells, size_t max);
static int col_of(char **hdr, size_t n, const char *name);
static const char *lname(ga_layout_t l);

/* ------------------------------------------------------------------------------------------------ */
/* The corpus programs' captured traces through the same sweeps (gasweep's merged CSV)               */

#define NCORP 512

typedef struct {
    char name[64];
    bool cc_have[NL][NM], hw_have[2], hwx_have[2];
    ga_perf_res_t cc[NL][NM]; /* compiler mode, by layout and MLB size index (0 = none) */
    ga_perf_res_t hw[2];      /* HWOnly, BST, 8 and 16 entries */
    ga_perf_res_t hwx[2];     /* HWOnly, index, 8 and 16 entries */
    uint32_t walk_max;        /* longest walk of the compiler-mode BST replay without an MLB */
    uint64_t kernels, global;
} corp_t;

/* Fill r from one gasweep row's counters, with the stand-ins' latency model (ga_perf.c). */
static void corp_res(const opts_t *o, unsigned mlb, const double *v, ga_perf_res_t *r)
{
    /* v: loadmeta, loadmeta_unchecked, loadmeta_hits, walk_steps, memcheck_g, access, fetches, fetch_hits,
     * md_reads, live_peak, md_bytes_peak, ws_max, detections */
    memset(r, 0, sizeof *r);
    r->loadmeta = (uint64_t)v[0];
    r->loadmeta_hits = (uint64_t)v[2];
    r->walk_reads = (uint64_t)v[3];
    r->memcheck_g = (uint64_t)v[4];
    r->accesses = (uint64_t)v[5];
    r->fetches = (uint64_t)v[6];
    r->fetch_hits = (uint64_t)v[7];
    r->fetch_reads = (uint64_t)v[8] - r->walk_reads;
    r->wl.live_max = (uint32_t)v[9];
    r->md_bytes_peak = (uint64_t)v[10];
    r->wl.ws_max = (uint32_t)v[11];
    r->faults = (uint64_t)v[12];
    uint32_t mlbc = mlb == 0u ? 0u : 1u;
    double looked = v[0] - v[1];
    double lm = looked * mlbc + (double)r->walk_reads * o->l1;
    r->reads_per_loadmeta = r->loadmeta ? (double)r->walk_reads / (double)r->loadmeta : 0.0;
    r->lat_loadmeta = r->loadmeta ? lm / (double)r->loadmeta : 0.0;
    double mc = (double)r->memcheck_g * 3.0 + (double)r->fetches * mlbc + (double)r->fetch_reads * o->l1;
    r->lat_memcheck = r->memcheck_g ? mc / (double)r->memcheck_g : 0.0;
}

/* Read gasweep's merged CSV into cp[0 .. *n). Exits 1 with "file:line: ..." on a malformed file. */
static void read_corpus(const opts_t *o, corp_t *cp, size_t *n)
{
    static const char *const need[] = {"program", "mode", "layout", "mlb", "loadmeta", "loadmeta_unchecked",
                                       "loadmeta_hits", "walk_steps", "memcheck_g", "access", "fetches",
                                       "fetch_hits", "md_reads", "live_peak", "md_bytes_peak", "ws_max",
                                       "detections", "walk_max", "kernels", "global_accesses"};
    enum { NNEED = sizeof need / sizeof need[0] };
    *n = 0;
    FILE *f = fopen(o->corpus, "r");
    if (f == NULL) die("cannot read --corpus %s", o->corpus);
    char line[4096], where[1200];
    char *hdr[64], *c[64], hbuf[4096];
    int col[NNEED];
    unsigned long ln = 0;
    size_t nh = 0;
    while (fgets(line, sizeof line, f) != NULL) {
        ln++;
        snprintf(where, sizeof where, "%s:%lu", o->corpus, ln);
        if (ln == 1) {
            if (strncmp(line, "# gaeval-shard 1 campaign=gasweep ", 34) != 0)
                die("%s: not a merged gasweep file (expected '# gaeval-shard 1 campaign=gasweep ...')", where);
            continue;
        }
        if (ln == 2) {
            snprintf(hbuf, sizeof hbuf, "%s", line);
            nh = split(hbuf, hdr, 64);
            for (int i = 0; i < NNEED; i++)
                if ((col[i] = col_of(hdr, nh, need[i])) < 0) die("%s: no column for this gaeval", where);
            continue;
        }
        size_t nc = split(line, c, 64);
        if (nc != nh) die("%s: wrong number of cells", where);
        const char *prog = c[col[0]], *mode = c[col[1]], *lay = c[col[2]];
        unsigned mlb = (unsigned)strtoul(c[col[3]], NULL, 10);
        size_t i = 0;
        while (i < *n && strcmp(cp[i].name, prog) != 0) i++;
        if (i == *n) {
            if (*n == NCORP) die("%s: more than 512 programs", where);
            memset(&cp[i], 0, sizeof cp[i]);
            snprintf(cp[i].name, sizeof cp[i].name, "%s", prog);
            (*n)++;
        }
        double v[13];
        for (int j = 0; j < 13; j++) v[j] = strtod(c[col[4 + j]], NULL);
        if (strcmp(mode, "compiler") == 0) {
            int l = -1, m = -1;
            for (int x = 0; x < NL; x++)
                if (strcmp(lay, lname(k_layouts[x])) == 0) l = x;
            for (int x = 0; x < NM; x++)
                if (k_mlbs[x] == mlb) m = x;
            if (l < 0 || m < 0) die("%s: unknown layout or MLB size", where);
            corp_res(o, mlb, v, &cp[i].cc[l][m]);
            cp[i].cc_have[l][m] = true;
            if (l == 1 && m == 0) cp[i].walk_max = (uint32_t)strtoul(c[col[17]], NULL, 10);
            cp[i].kernels = strtoull(c[col[18]], NULL, 10);
            cp[i].global = strtoull(c[col[19]], NULL, 10);
        } else if (strcmp(mode, "hwonly") == 0 && strcmp(lay, "bst") == 0 && (mlb == 8u || mlb == 16u)) {
            corp_res(o, mlb, v, &cp[i].hw[mlb == 16u]);
            cp[i].hw_have[mlb == 16u] = true;
        } else if (strcmp(mode, "hwonly") == 0 && strcmp(lay, "index") == 0 && (mlb == 8u || mlb == 16u)) {
            corp_res(o, mlb, v, &cp[i].hwx[mlb == 16u]);
            cp[i].hwx_have[mlb == 16u] = true;
        }
    }
    fclose(f);
    if (ln < 3) die("%s: no rows", o->corpus);
}

/* True when program p has every compiler-mode layout x MLB result (the figures need all of them). */
static bool corp_full(const corp_t *p)
{
    for (int l = 0; l < NL; l++)
        for (int m = 0; m < NM; m++)
            if (!p->cc_have[l][m]) return false;
    return true;
}

/* ------------------------------------------------------------------------------------------------ */
/* The report                                                                                       */

static const char *lname(ga_layout_t l) { return ga_layout_name(l); }
/* A layout as the report's tables spell it: "BST" in capitals, the others by name. */
static const char *lshow(ga_layout_t l) { return l == GA_LAYOUT_BST ? "BST" : ga_layout_name(l); }

/* One markdown separator row of n columns. */
static void md_rule(FILE *f, int n)
{
    fprintf(f, "|");
    for (int i = 0; i < n; i++) fprintf(f, "---|");
    fprintf(f, "\n");
}

/* The fig9_10 CSV header: reads and latencies, no MLB and 8 entries, per layout. */
static void fig9_10_header(FILE *f)
{
    fprintf(f, "workload");
    static const char *const what[2] = {"reads", "lat"};
    for (int k = 0; k < 2; k++)
        for (int m = 0; m < 2; m++)
            for (int l = 0; l < NL; l++) fprintf(f, ",%s_%s_%s", what[k], lname(k_layouts[l]), m ? "8" : "none");
    fprintf(f, "\n");
}

static void pct_cell(FILE *f, uint64_t k, uint64_t n)
{
    double lo, hi;
    ga_wilson(k, n, &lo, &hi);
    fprintf(f, " %.2f%% [%.2f, %.2f]", n ? 100.0 * (double)k / (double)n : 0.0, 100.0 * lo, 100.0 * hi);
}

static void write_table4(const opts_t *o, const camp_res_t *cr)
{
    FILE *f = open_out(o, "table4.csv");
    fprintf(f, "scheme,class,trials,detected,rate,wilson_lo,wilson_hi,land_same,land_live,land_freed,land_gap");
    for (int k = 1; k < GA_EXC_KINDS; k++) fprintf(f, ",kind_%s", ga_exc_name((ga_exc_kind_t)k));
    fprintf(f, "\n");
    for (int k = 0; k < NS; k++)
        for (int c = 0; c < GA_CLS_N; c++) {
            if (cr[k].n[c] == 0u) continue; /* not run (gaeval table4 on the RTL) */
            double lo, hi;
            ga_wilson(cr[k].det[c], cr[k].n[c], &lo, &hi);
            fprintf(f, "%s,%s,%llu,%llu,%.6f,%.6f,%.6f", cr[k].s.label, ga_cls_id((ga_cls_t)c),
                    (unsigned long long)cr[k].n[c], (unsigned long long)cr[k].det[c],
                    cr[k].n[c] ? (double)cr[k].det[c] / (double)cr[k].n[c] : 0.0, lo, hi);
            for (int d = 0; d < GA_LAND_N; d++) fprintf(f, ",%llu", (unsigned long long)cr[k].land[c][d]);
            for (int x = 1; x < GA_EXC_KINDS; x++) fprintf(f, ",%llu", (unsigned long long)cr[k].kind[c][x]);
            fprintf(f, "\n");
        }
    close_out(f);
}

static int cmp_d(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Median, minimum and maximum of v[0 .. n) (sorted in place); all 0 for n = 0. */
static void stats3(double *v, size_t n, double *med, double *mn, double *mx)
{
    *med = *mn = *mx = 0.0;
    if (n == 0) return;
    qsort(v, n, sizeof *v, cmp_d);
    *med = n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
    *mn = v[0];
    *mx = v[n - 1];
}

/* One row of the stand-ins-against-corpus table: statistic `what` of every stand-in (a) and every
 * corpus program (b), as median (min .. max). */
static void cmp_row(FILE *f, const char *what, double *a, size_t na, double *b, size_t nb, const char *fmt)
{
    double m, lo, hi;
    char x[3][32];
    fprintf(f, "| %s |", what);
    stats3(a, na, &m, &lo, &hi);
    snprintf(x[0], sizeof x[0], fmt, m);
    snprintf(x[1], sizeof x[1], fmt, lo);
    snprintf(x[2], sizeof x[2], fmt, hi);
    fprintf(f, " %s (%s .. %s) |", x[0], x[1], x[2]);
    stats3(b, nb, &m, &lo, &hi);
    snprintf(x[0], sizeof x[0], fmt, m);
    snprintf(x[1], sizeof x[1], fmt, lo);
    snprintf(x[2], sizeof x[2], fmt, hi);
    fprintf(f, " %s (%s .. %s) |\n", x[0], x[1], x[2]);
}

/* "Where the stand-ins and the real programs agree": the statistics the stand-ins were built from, and
 * the figures' inputs, side by side for the 28 Table 2 stand-ins and the corpus programs. */
static void compare_section(FILE *f, const wl_res_t *w, size_t n2, const corp_t *cp, size_t ncp)
{
    size_t cap = (n2 > ncp ? n2 : ncp) + 1;
    double *a = calloc(cap, sizeof *a), *b = calloc(cap, sizeof *b);
    if (a == NULL || b == NULL) die("%s", "out of memory");
    size_t na, nb;
    fprintf(f, "### Where the stand-ins and the real programs agree, and where they do not\n\n"
               "Median (minimum .. maximum) over the 28 Table 2 stand-ins and over the corpus programs "
               "whose sweeps are complete; every value from the runs above.\n\n"
               "| statistic | stand-ins | corpus programs ‡ |\n|---|---|---|\n");
#define FILL(expr_a, expr_b, okb)                                                                           \
    do {                                                                                                   \
        na = nb = 0;                                                                                       \
        for (size_t i = 0; i < n2; i++) a[na++] = (expr_a);                                                \
        for (size_t i = 0; i < ncp; i++)                                                                   \
            if (okb) b[nb++] = (expr_b);                                                                   \
    } while (0)
    FILL((double)w[i].hw[0].wl.live_max, (double)cp[i].hw[0].wl.live_max, cp[i].hw_have[0]);
    cmp_row(f, "most live allocations (Fig 4; paper: up to 1 184)", a, na, b, nb, "%.0f");
    FILL((double)w[i].hw[0].wl.ws_max, (double)cp[i].hw[0].wl.ws_max, cp[i].hw_have[0]);
    cmp_row(f, "allocation working set: most allocations one warp touches in a kernel (Fig 4: < 8)", a, na, b, nb,
            "%.0f");
    FILL(w[i].cc[1][0].reads_per_loadmeta, cp[i].cc[1][0].reads_per_loadmeta, corp_full(&cp[i]));
    cmp_row(f, "BST node reads per LOADMETA, no MLB (walk length)", a, na, b, nb, "%.2f");
    FILL(w[i].cc[0][0].reads_per_loadmeta, cp[i].cc[0][0].reads_per_loadmeta, corp_full(&cp[i]));
    cmp_row(f, "list node reads per LOADMETA, no MLB", a, na, b, nb, "%.2f");
    FILL(w[i].cc[1][4].loadmeta ? (double)w[i].cc[1][4].loadmeta_hits / (double)w[i].cc[1][4].loadmeta : 0.0,
         cp[i].cc[1][4].loadmeta ? (double)cp[i].cc[1][4].loadmeta_hits / (double)cp[i].cc[1][4].loadmeta : 0.0,
         corp_full(&cp[i]) && cp[i].cc[1][4].loadmeta > 0u);
    cmp_row(f, "LOADMETA MLB hit rate, compiler mode, BST, 8 entries", a, na, b, nb, "%.3f");
    FILL(w[i].cc[1][4].fetches ? (double)w[i].cc[1][4].fetch_hits / (double)w[i].cc[1][4].fetches : 0.0,
         cp[i].cc[1][4].fetches ? (double)cp[i].cc[1][4].fetch_hits / (double)cp[i].cc[1][4].fetches : 0.0,
         corp_full(&cp[i]) && cp[i].cc[1][4].fetches > 0u);
    cmp_row(f, "MEMCHECK.G fetch MLB hit rate, compiler mode, BST, 8 entries", a, na, b, nb, "%.3f");
    FILL(w[i].hw[0].loadmeta ? (double)w[i].hw[0].loadmeta_hits / (double)w[i].hw[0].loadmeta : 0.0,
         cp[i].hw[0].loadmeta ? (double)cp[i].hw[0].loadmeta_hits / (double)cp[i].hw[0].loadmeta : 0.0,
         cp[i].hw_have[0] && cp[i].hw[0].loadmeta > 0u);
    cmp_row(f, "HWOnly LOADMETA MLB hit rate, BST, 8 entries", a, na, b, nb, "%.3f");
    FILL(w[i].cc[1][4].lat_loadmeta, cp[i].cc[1][4].lat_loadmeta, corp_full(&cp[i]));
    cmp_row(f, "added cycles per LOADMETA, compiler mode, BST, 8 entries", a, na, b, nb, "%.2f");
    /* The prose, from the same numbers. */
    double sm, sl, sh, cm, cl, ch, sb, cb, slst, clst;
    FILL((double)w[i].hw[0].wl.live_max, (double)cp[i].hw[0].wl.live_max, cp[i].hw_have[0]);
    stats3(a, na, &sm, &sl, &sh);
    stats3(b, nb, &cm, &cl, &ch);
    FILL(w[i].cc[1][0].reads_per_loadmeta, cp[i].cc[1][0].reads_per_loadmeta, corp_full(&cp[i]));
    stats3(a, na, &sb, &sl, &sl);
    stats3(b, nb, &cb, &cl, &cl);
    FILL(w[i].cc[0][0].reads_per_loadmeta, cp[i].cc[0][0].reads_per_loadmeta, corp_full(&cp[i]));
    stats3(a, na, &slst, &sl, &sl);
    stats3(b, nb, &clst, &cl, &cl);
#undef FILL
    fprintf(f, "\nThe stand-ins keep as many live allocations as the paper's applications (median %.0f, up to "
               "%.0f); the corpus programs keep a handful (median %.0f, at most %.0f). That is where they "
               "differ: the corpus' walks are short in every layout (median %.2f BST node reads per LOADMETA "
               "without an MLB against the stand-ins' %.2f; list %.2f against %.2f), so real code here cannot "
               "show the list layout's cost, and the stand-ins, not the corpus, carry the paper's Fig 9 "
               "claim. ",
            sm, sh, cm, ch, cb, sb, clst, slst);
    uint32_t wsmax = 0;
    bool any = false;
    for (size_t i = 0; i < ncp; i++) {
        if (!cp[i].hw_have[0] || !cp[i].hw_have[1]) continue;
        if (cp[i].hw[0].wl.ws_max > wsmax) wsmax = cp[i].hw[0].wl.ws_max;
        if (cp[i].hw[0].wl.ws_max < 8u) continue;
        const ga_perf_res_t *h8 = &cp[i].hw[0], *h16 = &cp[i].hw[1];
        fprintf(f, "%s%s touches %u allocations from one warp in one kernel, more than 8: its HWOnly MLB hit "
                   "rate goes from %.3f with 8 entries to %.3f with 16",
                any ? "; " : "Where they agree is the working set, including its exception: ", cp[i].name,
                h8->wl.ws_max, h8->loadmeta ? (double)h8->loadmeta_hits / (double)h8->loadmeta : 0.0,
                h16->loadmeta ? (double)h16->loadmeta_hits / (double)h16->loadmeta : 0.0);
        any = true;
    }
    if (any)
        fprintf(f, ", which is the paper's sp and sssp case (working sets above 8 need a 16-entry MLB, §9.2, "
                   "Fig 13); every other corpus program stays under 8, as Observation 6 says of the paper's "
                   "applications.\n\n");
    else
        fprintf(f, "Where they agree is the working set: no corpus program touches 8 or more allocations from "
                   "one warp in one kernel (at most %u), as Observation 6 says of the paper's applications, and "
                   "an 8-entry MLB serves them.\n\n", wsmax);
    free(a);
    free(b);
}

static void write_all(const opts_t *o, wl_res_t *w, size_t nw, camp_res_t *cr, const corp_t *cp, size_t ncp)
{
    size_t n2 = 0; /* Table 2 workloads come first */
    while (n2 < nw && w[n2].spec->group == GA_WL_TABLE2) n2++;

    /* workloads.csv */
    FILE *f = open_out(o, "workloads.csv");
    fprintf(f, "workload,group,instr_M,scale,allocs_target,allocs,footprint_MiB_target,footprint_MiB,"
               "median_target,median,max_size,allocs_under_4KiB,live_max,live_bytes_max,ws_target,ws_max,"
               "instr,global,shared,global_frac,shared_frac,loadmeta_events,root_base,root_interior,root_address,warps\n");
    for (size_t i = 0; i < nw; i++) {
        const ga_wl_spec_t *s = w[i].spec;
        const ga_wl_summary_t *m = &w[i].cc[1][4].wl;
        fprintf(f, "%s,%s,%.0f,%g,%u,%u,%.1f,%.3f,%llu,%llu,%llu,%u,%u,%llu,%u,%u,%llu,%llu,%llu,%.5f,%.5f,%llu,%llu,%llu,%llu,%llu\n",
                s->name, s->group == GA_WL_TABLE2 ? "table2" : "broader", s->instr_m, o->scale, s->allocs, m->allocs,
                s->footprint_mib, (double)m->footprint / 1048576.0, (unsigned long long)s->median,
                (unsigned long long)m->median, (unsigned long long)m->max_size, m->small_allocs, m->live_max,
                (unsigned long long)m->live_bytes_max, s->ws, m->ws_max, (unsigned long long)m->instr,
                (unsigned long long)m->global, (unsigned long long)m->shared,
                m->instr ? (double)m->global / (double)m->instr : 0.0, m->instr ? (double)m->shared / (double)m->instr : 0.0,
                (unsigned long long)m->loadmeta, (unsigned long long)m->root_kind[0], (unsigned long long)m->root_kind[1],
                (unsigned long long)m->root_kind[2], (unsigned long long)m->warps);
    }
    close_out(f);

    /* perf.csv: every compiler-mode run */
    f = open_out(o, "perf.csv");
    fprintf(f, "workload,group,mode,layout,mlb,loadmeta,loadmeta_mlb_hit_rate,walk_reads,reads_per_loadmeta,"
               "lat_loadmeta_cycles,memcheck_g,fetch_mlb_hit_rate,fetch_reads,lat_memcheck_cycles,"
               "md_cycles_per_kinstr,faults,md_bytes_peak\n");
    for (size_t i = 0; i < nw; i++)
        for (int l = 0; l < NL; l++)
            for (int m = 0; m < NM; m++) {
                const ga_perf_res_t *r = &w[i].cc[l][m];
                if (r->wl.kernels == 0u) continue;
                fprintf(f, "%s,%s,compiler,%s,%u,%llu,%.6f,%llu,%.6f,%.4f,%llu,%.6f,%llu,%.4f,%.3f,%llu,%llu\n",
                        w[i].spec->name, w[i].spec->group == GA_WL_TABLE2 ? "table2" : "broader", lname(k_layouts[l]),
                        k_mlbs[m], (unsigned long long)r->loadmeta,
                        r->loadmeta ? (double)r->loadmeta_hits / (double)r->loadmeta : 0.0,
                        (unsigned long long)r->walk_reads, r->reads_per_loadmeta, r->lat_loadmeta,
                        (unsigned long long)r->memcheck_g, r->fetches ? (double)r->fetch_hits / (double)r->fetches : 0.0,
                        (unsigned long long)r->fetch_reads, r->lat_memcheck, r->md_cycles_per_kinstr,
                        (unsigned long long)r->faults, (unsigned long long)r->md_bytes_peak);
            }
    for (size_t i = 0; i < nw; i++)
        for (int h = 0; h < 2; h++) {
            const ga_perf_res_t *r = &w[i].hw[h];
            fprintf(f, "%s,%s,hwonly,bst,%u,%llu,%.6f,%llu,%.6f,%.4f,0,0,0,0,%.3f,%llu,%llu\n", w[i].spec->name,
                    w[i].spec->group == GA_WL_TABLE2 ? "table2" : "broader", h ? 16u : 8u,
                    (unsigned long long)r->loadmeta, r->loadmeta ? (double)r->loadmeta_hits / (double)r->loadmeta : 0.0,
                    (unsigned long long)r->walk_reads, r->reads_per_loadmeta, r->lat_loadmeta, r->md_cycles_per_kinstr,
                    (unsigned long long)r->faults, (unsigned long long)r->md_bytes_peak);
        }
    /* the corpus programs' traces (group corpus; md_cycles_per_kinstr is not defined for them: 0) */
    for (size_t i = 0; i < ncp; i++) {
        for (int l = 0; l < NL; l++)
            for (int m = 0; m < NM; m++) {
                const ga_perf_res_t *r = &cp[i].cc[l][m];
                if (!cp[i].cc_have[l][m]) continue;
                fprintf(f, "%s,corpus,compiler,%s,%u,%llu,%.6f,%llu,%.6f,%.4f,%llu,%.6f,%llu,%.4f,0,%llu,%llu\n",
                        cp[i].name, lname(k_layouts[l]), k_mlbs[m], (unsigned long long)r->loadmeta,
                        r->loadmeta ? (double)r->loadmeta_hits / (double)r->loadmeta : 0.0,
                        (unsigned long long)r->walk_reads, r->reads_per_loadmeta, r->lat_loadmeta,
                        (unsigned long long)r->memcheck_g, r->fetches ? (double)r->fetch_hits / (double)r->fetches : 0.0,
                        (unsigned long long)r->fetch_reads, r->lat_memcheck, (unsigned long long)r->faults,
                        (unsigned long long)r->md_bytes_peak);
            }
        for (int h = 0; h < 2; h++) {
            const ga_perf_res_t *r = &cp[i].hw[h];
            if (!cp[i].hw_have[h]) continue;
            fprintf(f, "%s,corpus,hwonly,bst,%u,%llu,%.6f,%llu,%.6f,%.4f,0,0,0,0,0,%llu,%llu\n", cp[i].name, h ? 16u : 8u,
                    (unsigned long long)r->loadmeta, r->loadmeta ? (double)r->loadmeta_hits / (double)r->loadmeta : 0.0,
                    (unsigned long long)r->walk_reads, r->reads_per_loadmeta, r->lat_loadmeta,
                    (unsigned long long)r->faults, (unsigned long long)r->md_bytes_peak);
        }
    }
    close_out(f);

    /* fig9_10.csv: per Table 2 workload, no MLB and 8 entries, per layout */
    f = open_out(o, "fig9_10.csv");
    fig9_10_header(f);
    for (size_t i = 0; i < n2; i++) {
        fprintf(f, "%s", w[i].spec->name);
        for (int m = 0; m < 2; m++)
            for (int l = 0; l < NL; l++) fprintf(f, ",%.6f", w[i].cc[l][m ? 4 : 0].reads_per_loadmeta);
        for (int m = 0; m < 2; m++)
            for (int l = 0; l < NL; l++) fprintf(f, ",%.4f", w[i].cc[l][m ? 4 : 0].lat_loadmeta);
        fprintf(f, "\n");
    }
    close_out(f);
    /* the same for the corpus programs whose sweep is complete */
    size_t nfull = 0;
    for (size_t i = 0; i < ncp; i++) nfull += corp_full(&cp[i]);
    if (ncp) {
        f = open_out(o, "fig9_10_corpus.csv");
        fig9_10_header(f);
        for (size_t i = 0; i < ncp; i++) {
            if (!corp_full(&cp[i])) continue;
            fprintf(f, "%s", cp[i].name);
            for (int m = 0; m < 2; m++)
                for (int l = 0; l < NL; l++) fprintf(f, ",%.6f", cp[i].cc[l][m ? 4 : 0].reads_per_loadmeta);
            for (int m = 0; m < 2; m++)
                for (int l = 0; l < NL; l++) fprintf(f, ",%.4f", cp[i].cc[l][m ? 4 : 0].lat_loadmeta);
            fprintf(f, "\n");
        }
        close_out(f);
    }

    /* fig11.csv: min / geomean / max over Table 2 workloads of the mean added LOADMETA latency */
    double fig11[NL][NM][3], mean_reads[NL][NM];
    double *v = malloc(n2 * sizeof *v);
    if (v == NULL) die("%s", "out of memory");
    for (int l = 0; l < NL; l++)
        for (int m = 0; m < NM; m++) {
            double mn = INFINITY, mx = 0.0, rs = 0.0;
            for (size_t i = 0; i < n2; i++) {
                v[i] = w[i].cc[l][m].lat_loadmeta;
                if (v[i] < mn) mn = v[i];
                if (v[i] > mx) mx = v[i];
                rs += w[i].cc[l][m].reads_per_loadmeta;
            }
            fig11[l][m][0] = mn;
            fig11[l][m][1] = geomean(v, n2);
            fig11[l][m][2] = mx;
            mean_reads[l][m] = n2 ? rs / (double)n2 : 0.0;
        }
    free(v);
    f = open_out(o, "fig11.csv");
    fprintf(f, "mlb");
    for (int l = 0; l < NL; l++) fprintf(f, ",%s_min,%s_geomean,%s_max,%s_mean_reads", lname(k_layouts[l]),
                                         lname(k_layouts[l]), lname(k_layouts[l]), lname(k_layouts[l]));
    fprintf(f, "\n");
    for (int m = 1; m < NM; m++) {
        fprintf(f, "%u", k_mlbs[m]);
        for (int l = 0; l < NL; l++)
            fprintf(f, ",%.4f,%.4f,%.4f,%.6f", fig11[l][m][0], fig11[l][m][1], fig11[l][m][2], mean_reads[l][m]);
        fprintf(f, "\n");
    }
    close_out(f);
    /* The same over the corpus programs (their LOADMETAs can all hit: a latency of 0 is possible with a
     * program whose every LOADMETA is of tag 0; the geomean uses max(lat, 1e-3) so it stays defined). */
    double c11[NL][NM][3];
    memset(c11, 0, sizeof c11);
    if (nfull) {
        double *cv = malloc(nfull * sizeof *cv);
        if (cv == NULL) die("%s", "out of memory");
        for (int l = 0; l < NL; l++)
            for (int m = 0; m < NM; m++) {
                double mn = INFINITY, mx = 0.0;
                size_t k = 0;
                for (size_t i = 0; i < ncp; i++) {
                    if (!corp_full(&cp[i])) continue;
                    double x = cp[i].cc[l][m].lat_loadmeta;
                    if (x < mn) mn = x;
                    if (x > mx) mx = x;
                    cv[k++] = x > 1e-3 ? x : 1e-3;
                }
                c11[l][m][0] = mn;
                c11[l][m][1] = geomean(cv, k);
                c11[l][m][2] = mx;
            }
        free(cv);
        f = open_out(o, "fig11_corpus.csv");
        fprintf(f, "mlb");
        for (int l = 0; l < NL; l++)
            fprintf(f, ",%s_min,%s_geomean,%s_max", lname(k_layouts[l]), lname(k_layouts[l]), lname(k_layouts[l]));
        fprintf(f, "\n");
        for (int m = 1; m < NM; m++) {
            fprintf(f, "%u", k_mlbs[m]);
            for (int l = 0; l < NL; l++) fprintf(f, ",%.4f,%.4f,%.4f", c11[l][m][0], c11[l][m][1], c11[l][m][2]);
            fprintf(f, "\n");
        }
        close_out(f);
    }
    /* Saturation, two readings (docs/eval.md): strict = the smallest MLB whose geomean is within 5 %
     * of the 64-entry geomean; knee = the smallest MLB from which every further doubling lowers the
     * geomean by less than 25 %. */
    unsigned sat[NL], knee[NL];
    for (int l = 0; l < NL; l++) {
        sat[l] = 64;
        for (int m = 1; m < NM; m++)
            if (fig11[l][m][1] <= 1.05 * fig11[l][NM - 1][1]) {
                sat[l] = k_mlbs[m];
                break;
            }
        knee[l] = 64;
        for (int m = NM - 2; m >= 1; m--) {
            if (fig11[l][m + 1][1] < 0.75 * fig11[l][m][1]) break;
            knee[l] = k_mlbs[m];
        }
    }

    /* fig13.csv: HWOnly with 8 and 16 entries, every workload */
    f = open_out(o, "fig13.csv");
    fprintf(f, "workload,group,ws_max,live_max,hit_8,reads_per_access_8,lat_8,hit_16,reads_per_access_16,lat_16,"
               "index_hit_8,index_reads_per_access_8,index_lat_8,index_hit_16,index_reads_per_access_16,"
               "index_lat_16\n");
    for (size_t i = 0; i < nw; i++) {
        const ga_perf_res_t *a = &w[i].hw[0], *b = &w[i].hw[1], *x = &w[i].hwx[0], *y = &w[i].hwx[1];
        fprintf(f, "%s,%s,%u,%u,%.6f,%.6f,%.4f,%.6f,%.6f,%.4f,%.6f,%.6f,%.4f,%.6f,%.6f,%.4f\n", w[i].spec->name,
                w[i].spec->group == GA_WL_TABLE2 ? "table2" : "broader", a->wl.ws_max, a->wl.live_max,
                a->loadmeta ? (double)a->loadmeta_hits / (double)a->loadmeta : 0.0,
                a->accesses ? (double)a->walk_reads / (double)a->accesses : 0.0, a->lat_loadmeta,
                b->loadmeta ? (double)b->loadmeta_hits / (double)b->loadmeta : 0.0,
                b->accesses ? (double)b->walk_reads / (double)b->accesses : 0.0, b->lat_loadmeta,
                x->loadmeta ? (double)x->loadmeta_hits / (double)x->loadmeta : 0.0,
                x->accesses ? (double)x->walk_reads / (double)x->accesses : 0.0, x->lat_loadmeta,
                y->loadmeta ? (double)y->loadmeta_hits / (double)y->loadmeta : 0.0,
                y->accesses ? (double)y->walk_reads / (double)y->accesses : 0.0, y->lat_loadmeta);
    }
    close_out(f);
    if (ncp) {
        f = open_out(o, "fig13_corpus.csv");
        fprintf(f, "workload,group,ws_max,live_max,hit_8,reads_per_access_8,lat_8,hit_16,reads_per_access_16,lat_16,"
                   "index_hit_8,index_reads_per_access_8,index_lat_8,index_hit_16,index_reads_per_access_16,"
                   "index_lat_16\n");
        for (size_t i = 0; i < ncp; i++) {
            const ga_perf_res_t *a = &cp[i].hw[0], *b = &cp[i].hw[1], *x = &cp[i].hwx[0], *y = &cp[i].hwx[1];
            if (!cp[i].hw_have[0] || !cp[i].hw_have[1] || !cp[i].hwx_have[0] || !cp[i].hwx_have[1]) continue;
            fprintf(f, "%s,corpus,%u,%u,%.6f,%.6f,%.4f,%.6f,%.6f,%.4f,%.6f,%.6f,%.4f,%.6f,%.6f,%.4f\n", cp[i].name,
                    a->wl.ws_max, a->wl.live_max, a->loadmeta ? (double)a->loadmeta_hits / (double)a->loadmeta : 0.0,
                    a->accesses ? (double)a->walk_reads / (double)a->accesses : 0.0, a->lat_loadmeta,
                    b->loadmeta ? (double)b->loadmeta_hits / (double)b->loadmeta : 0.0,
                    b->accesses ? (double)b->walk_reads / (double)b->accesses : 0.0, b->lat_loadmeta,
                    x->loadmeta ? (double)x->loadmeta_hits / (double)x->loadmeta : 0.0,
                    x->accesses ? (double)x->walk_reads / (double)x->accesses : 0.0, x->lat_loadmeta,
                    y->loadmeta ? (double)y->loadmeta_hits / (double)y->loadmeta : 0.0,
                    y->accesses ? (double)y->walk_reads / (double)y->accesses : 0.0, y->lat_loadmeta);
        }
        close_out(f);
    }

    /* table5.csv */
    store_t *st = calloc(n2, sizeof *st), avg;
    if (st == NULL) die("%s", "out of memory");
    memset(&avg, 0, sizeof avg);
    f = open_out(o, "table5.csv");
    fprintf(f, "workload,footprint_bytes,allocs,gpuarmor_bst_measured_pct,gpuarmor_table_measured_pct,"
               "two_words_per_object_pct,cucatch_pct,lak_4bit_pct,lak_8bit_pct,gmod_canary_pct,imt_pct,"
               "gpuarmor_index_measured_pct\n");
    for (size_t i = 0; i < n2; i++) {
        st[i] = storage(&w[i]);
        fprintf(f, "%s,%.0f,%u,%.7f,%.7f,%.7f,%.4f,%.4f,%.4f,%.7f,0,%.7f\n", w[i].spec->name, st[i].fp,
                w[i].spec->allocs, st[i].ga_node, st[i].ga_table, st[i].entry16, st[i].cucatch, st[i].lak4, st[i].lak8,
                st[i].gmod, st[i].ga_index);
        avg.ga_node += st[i].ga_node / (double)n2;
        avg.ga_table += st[i].ga_table / (double)n2;
        avg.ga_index += st[i].ga_index / (double)n2;
        avg.entry16 += st[i].entry16 / (double)n2;
        avg.cucatch += st[i].cucatch / (double)n2;
        avg.lak4 += st[i].lak4 / (double)n2;
        avg.lak8 += st[i].lak8 / (double)n2;
        avg.gmod += st[i].gmod / (double)n2;
    }
    fprintf(f, "average,,,%.7f,%.7f,%.7f,%.4f,%.4f,%.4f,%.7f,0,%.7f\n", avg.ga_node, avg.ga_table, avg.entry16,
            avg.cucatch, avg.lak4, avg.lak8, avg.gmod, avg.ga_index);
    close_out(f);
    free(st);

    write_table4(o, cr);

    /* ---------------------------------------------------------------------------------------------- */
    /* results.md                                                                                      */
    f = open_out(o, "results.md");
    fprintf(f, "# Evaluation results\n\n");
    fprintf(f, "Generated by `make eval EVAL_SCALE=%s` (`gaeval run --scale %s`: instruction scale %g, %u "
               "injections per class and scheme, seed %llu, %u SMs, %s backend). Do not edit: every number "
               "below is measured by that run; the paper's numbers stand beside ours with the section or "
               "figure they come from. Method, definitions and the latency model: [eval.md](eval.md); the "
               "workloads: [workloads.md](workloads.md). CSV files and plots: [results/](results/).\n\n",
            o->scale_name, o->scale_name, o->scale, o->trials, (unsigned long long)o->seed, o->sms, o->backend);
    fprintf(f, "**Read this first.** Two kinds of input, kept apart everywhere. (1) **Real programs**: the "
               "project's CUDA corpus (`apps/`: small correct programs and bug programs with variants, "
               "written for this project, not the paper's applications), compiled by nvcc, instrumented by "
               "our compiler pass and run on the CPU by our PTX interpreter with the golden model's MLUs in "
               "the loop (`gpuarmor-run`, [emulator.md](emulator.md)): §1, §2, §8 and the *corpus* rows of "
               "§4–§6, whose traces were captured from those runs. (2) **Synthetic stand-ins** generated "
               "from the paper's published statistics (Table 2, §3, Fig 3, Fig 4, Fig 8): §3–§7 and §9. "
               "We have no timing simulator: the paper measures run-time overhead on NVIDIA's NVAS; we "
               "measure what the model counts exactly (instructions, LOADMETAs, MLB hits, metadata reads) "
               "and turn reads into cycles with a stated latency model (%u cycles per metadata read, an L1 "
               "hit; 1 cycle per MLB lookup; 3 cycles of check logic, paper §8). Those are added latencies "
               "of the metadata path, *not* run-time overheads: a GPU hides most of them behind other warps "
               "(paper §3.2, Observation 2). Compare shapes and orderings, not magnitudes.\n\n",
            o->l1);
    /* scripts/eval_corpus.py replaces these lines with the sections measured on the corpus */
    fprintf(f, "<!-- eval_corpus: fig7 fig8 -->\n\n");

    /* §3 */
    fprintf(f, "## 3. The stand-ins against the paper's statistics (§3, Table 2, Fig 2–4)\n\n");
    uint32_t live_max = 0, ws_max2 = 0, small = 0;
    uint64_t med_min = UINT64_MAX, med_max = 0, gsum = 0, isum = 0;
    for (size_t i = 0; i < n2; i++) {
        const ga_wl_summary_t *m = &w[i].cc[1][4].wl;
        if (m->live_max > live_max) live_max = m->live_max;
        if (m->ws_max > ws_max2) ws_max2 = m->ws_max;
        if (m->median < med_min) med_min = m->median;
        if (m->median > med_max) med_max = m->median;
        small += m->median < 4096u;
        gsum += m->global;
        isum += m->instr;
    }
    fprintf(f, "| statistic | paper | ours (28 Table 2 stand-ins) |\n|---|---|---|\n");
    fprintf(f, "| global accesses / instructions | ≈ 6 %% on average (§3.2, Fig 2) | %.2f %% |\n",
            isum ? 100.0 * (double)gsum / (double)isum : 0.0);
    fprintf(f, "| median allocation size | 256 B … 236 MB (§3.2, Fig 3) | %llu B … %.0f MiB |\n",
            (unsigned long long)med_min, (double)med_max / 1048576.0);
    fprintf(f, "| workloads with median < 4 KB | around 25 %% (§3.2) | %u of %zu (%.0f %%) |\n", small, n2,
            100.0 * small / (double)n2);
    fprintf(f, "| most live allocations | 1 184; three kernels over 1 000 (§3.2, Fig 4) | %u |\n", live_max);
    fprintf(f, "| allocation working set | < 8 for every workload (§3.2, Fig 4) | at most %u |\n\n", ws_max2);
    fprintf(f, "Instructions are scaled by %g (Table 2's counts × %g are simulated); allocation counts and "
               "sizes are not scaled. Per-workload targets against what the generator produced: "
               "[workloads.csv](results/workloads.csv).\n\n",
            o->scale, o->scale);

    /* Fig 9 / 10 */
    fprintf(f, "## 4. Metadata structure without and with an 8-entry MLB (Fig 9, Fig 10 analogues)\n\n");
    fprintf(f, "Compiler mode. *reads* = metadata node reads per LOADMETA; *lat* = mean added cycles per "
               "LOADMETA (reads × %u + 1 per MLB lookup). \"No MLB\" is an 8-entry MLB flushed before every "
               "LOADMETA and MEMCHECK.G, so it never hits and no lookup is charged. "
               "CSV: [fig9_10.csv](results/fig9_10.csv), all runs: [perf.csv](results/perf.csv).\n\n", o->l1);
    fprintf(f, "![Fig 9 analogue](results/fig9.png)\n![Fig 10 analogue](results/fig10.png)\n\n");
    fprintf(f, "| workload |");
    for (int m = 0; m < 2; m++)
        for (int l = 0; l < NL; l++) fprintf(f, " %s %s |", lshow(k_layouts[l]), m ? "8" : "none");
    fprintf(f, "\n");
    md_rule(f, 1 + 2 * NL);
    for (size_t i = 0; i < n2; i++) {
        fprintf(f, "| %s", w[i].spec->name);
        for (int m = 0; m < 2; m++)
            for (int l = 0; l < NL; l++)
                fprintf(f, " | %.2f / %.1f", w[i].cc[l][m ? 4 : 0].reads_per_loadmeta, w[i].cc[l][m ? 4 : 0].lat_loadmeta);
        fprintf(f, " |\n");
    }
    fprintf(f, "| **geomean of lat** |");
    for (int m = 0; m < 2; m++)
        for (int l = 0; l < NL; l++) fprintf(f, " %.1f |", fig11[l][m ? 4 : 0][1]);
    if (nfull) {
        fprintf(f, "\n| ***corpus programs*** (captured traces, ‡) |");
        for (int k = 0; k < 2 * NL; k++) fprintf(f, " |");
        fprintf(f, "\n");
        for (size_t i = 0; i < ncp; i++) {
            if (!corp_full(&cp[i])) continue;
            fprintf(f, "| %s ‡", cp[i].name);
            for (int m = 0; m < 2; m++)
                for (int l = 0; l < NL; l++)
                    fprintf(f, " | %.2f / %.1f", cp[i].cc[l][m ? 4 : 0].reads_per_loadmeta, cp[i].cc[l][m ? 4 : 0].lat_loadmeta);
            fprintf(f, " |\n");
        }
        fprintf(f, "| **geomean of lat, corpus** |");
        for (int m = 0; m < 2; m++)
            for (int l = 0; l < NL; l++) fprintf(f, " %.1f |", c11[l][m ? 4 : 0][1]);
    }
    fprintf(f, "\n\n‡ a corpus program: its compiler-mode run captured by `gpuarmor-run --trace-out` (the "
               "interpreter's 4 SMs, seed 1) and replayed by `gasweep` through every layout and MLB size "
               "(CSV: [fig9_10_corpus.csv](results/fig9_10_corpus.csv)). Cells are *reads / lat*. The paper (§9.1, Fig 9, run-time overhead, no MLB): list 2× on "
               "average (up to 22×), BST 10 %% (up to 80 %%), SoL table 1.4 %%; with an 8-entry MLB (Fig 10) "
               "the majority of workloads hide the traversal, while namd and amber18 keep non-negligible "
               "list overheads from compulsory misses (over 1 000 objects, short runs). Our ordering by "
               "layout and the namd/amber18 outliers can be compared with those statements; our numbers "
               "are latencies per LOADMETA, not slowdowns.\n\n");
    /* The index's goal (issue 13): at most 3 + 1 reads per MLB miss at the paper's 1 184 live
     * allocations; "no MLB" makes every LOADMETA a miss, so reads per LOADMETA there is reads per miss. */
    {
        size_t big = 0;
        for (size_t i = 1; i < n2; i++)
            if (w[i].cc[1][4].wl.live_max > w[big].cc[1][4].wl.live_max) big = i;
        if (n2 > 0u) {
            const ga_perf_res_t *xi = &w[big].cc[GA_LAYOUT_INDEX][0], *xb = &w[big].cc[GA_LAYOUT_BST][0];
            fprintf(f, "**The index** (spec §2.3; not in the paper): at the stand-in with the most live "
                       "allocations, %s (%u live), a LOADMETA without an MLB costs %.2f metadata reads on "
                       "the index (node levels + the slot; goal of issue 13: at most 3 + 1 at 1 184 live "
                       "allocations: %s) against %.2f on the BST; its 128-byte node reads count as one read "
                       "each, like the BST's 32-byte ones (docs/eval.md, \"The latency model\"). The 10 000-"
                       "allocation goal (4 + 1) is measured by `make bench`.\n\n",
                    w[big].spec->name, w[big].cc[1][4].wl.live_max, xi->reads_per_loadmeta,
                    xi->reads_per_loadmeta <= 4.0 ? "met" : "MISSED", xb->reads_per_loadmeta);
        }
    }

    /* Fig 11 */
    fprintf(f, "## 5. MLB size sensitivity (Fig 11 analogue)\n\n");
    fprintf(f, "Mean added cycles per LOADMETA over the 28 Table 2 stand-ins, compiler mode: minimum, "
               "geometric mean and maximum. CSV: [fig11.csv](results/fig11.csv).\n\n![Fig 11 analogue](results/fig11.png)\n\n");
    fprintf(f, "| MLB entries |");
    for (int l = 0; l < NL; l++) fprintf(f, " %s min / geomean / max |", lname(k_layouts[l]));
    fprintf(f, "\n");
    md_rule(f, 1 + NL);
    for (int m = 1; m < NM; m++) {
        fprintf(f, "| %u |", k_mlbs[m]);
        for (int l = 0; l < NL; l++) fprintf(f, " %.1f / %.2f / %.1f |", fig11[l][m][0], fig11[l][m][1], fig11[l][m][2]);
        fprintf(f, "\n");
    }
    fprintf(f, "\nWhere it saturates, two readings. *Knee* (every further doubling lowers the geomean by "
               "less than 25 %%):");
    for (int l = 0; l < NL; l++) fprintf(f, "%s %s %u", l ? "," : "", lshow(k_layouts[l]), knee[l]);
    fprintf(f, " entries. *Strict* (geomean within 5 %% of the 64-entry one):");
    for (int l = 0; l < NL; l++) fprintf(f, "%s %s %u", l ? "," : "", lshow(k_layouts[l]), sat[l]);
    fprintf(f, " entries. From 8 to 64 entries the BST geomean goes "
               "from %.2f to %.2f cycles per LOADMETA, against %.2f at 4 entries. The paper (§9.1, Fig 11): "
               "\"GPUArmor overheads saturate for an 8-entry MLB and beyond\", which it ties to working sets "
               "under 8 (Fig 4). Our working sets are under 8 by construction; what larger MLBs still remove "
               "are misses on allocations shared by successive thread blocks of an SM (compulsory and "
               "capacity misses, inflated by the instruction scale), a cycle or two per LOADMETA that a "
               "run-time measurement would hardly see.\n\n",
            fig11[1][4][1], fig11[1][NM - 1][1], fig11[1][3][1]);
    if (nfull) {
        fprintf(f, "The same over the %zu corpus programs' captured traces (‡; CSV: "
                   "[fig11_corpus.csv](results/fig11_corpus.csv)); a program whose LOADMETAs all hit has a "
                   "latency of 1 (the lookup), and one with no LOADMETA at all counts as 0.001 in the "
                   "geomean:\n\n| MLB entries |", nfull);
        for (int l = 0; l < NL; l++) fprintf(f, " %s min / geomean / max ‡ |", lname(k_layouts[l]));
        fprintf(f, "\n");
        md_rule(f, 1 + NL);
        for (int m = 1; m < NM; m++) {
            fprintf(f, "| %u |", k_mlbs[m]);
            for (int l = 0; l < NL; l++) fprintf(f, " %.1f / %.2f / %.1f |", c11[l][m][0], c11[l][m][1], c11[l][m][2]);
            fprintf(f, "\n");
        }
        fprintf(f, "\n");
    }

    /* Fig 12/13 */
    fprintf(f, "## 6. HWOnly with 8 and 16 MLB entries (Fig 12 / Fig 13 analogues)\n\n");
    fprintf(f, "Every global access runs LOADMETA (spec §5.4); BST layout, and the index beside it (spec "
               "§2.3; its *reads* count 128-byte node reads and the 16-byte slot read alike). *hit* = "
               "LOADMETA MLB hit rate, *reads* = metadata reads per global access, *lat* = mean added cycles "
               "per LOADMETA. CSV: [fig13.csv](results/fig13.csv).\n\n![Fig 13 analogue](results/fig13.png)\n\n");
    fprintf(f, "| workload | WS | live | hit 8 | reads 8 | lat 8 | hit 16 | reads 16 | lat 16 | index reads 8 | "
               "index lat 8 | index lat 16 |\n|---|---|---|---|---|---|---|---|---|---|---|---|\n");
    for (size_t i = 0; i < nw; i++) {
        const ga_perf_res_t *a = &w[i].hw[0], *b = &w[i].hw[1], *x = &w[i].hwx[0], *y = &w[i].hwx[1];
        fprintf(f, "| %s%s | %u | %u | %.3f | %.3f | %.1f | %.3f | %.3f | %.1f | %.3f | %.1f | %.1f |\n", w[i].spec->name,
                w[i].spec->group == GA_WL_TABLE2 ? "" : " †", a->wl.ws_max, a->wl.live_max,
                a->loadmeta ? (double)a->loadmeta_hits / (double)a->loadmeta : 0.0,
                a->accesses ? (double)a->walk_reads / (double)a->accesses : 0.0, a->lat_loadmeta,
                b->loadmeta ? (double)b->loadmeta_hits / (double)b->loadmeta : 0.0,
                b->accesses ? (double)b->walk_reads / (double)b->accesses : 0.0, b->lat_loadmeta,
                x->accesses ? (double)x->walk_reads / (double)x->accesses : 0.0, x->lat_loadmeta, y->lat_loadmeta);
    }
    fprintf(f, "\n† the broader set (Fig 13 stand-ins, parameters invented within the paper's ranges). The "
               "paper (§9.2): HWOnly costs 2.2 %% on average against LAK's 10 %% (Fig 12); on the broader "
               "set an 8-entry MLB costs 6 %% on average and sp and sssp, whose working sets exceed 8, need "
               "16 entries (under 4 %% on average with 16, Fig 13). We do not model LAK's tag traffic.\n\n");
    if (ncp) {
        fprintf(f, "The corpus programs (‡), their HWOnly runs captured and replayed the same way (CSV: "
                   "[fig13_corpus.csv](results/fig13_corpus.csv)); *WS* is the most distinct allocations "
                   "one warp accessed in one kernel, *live* the most live allocations:\n\n");
        fprintf(f, "| program | WS | live | hit 8 | reads 8 | lat 8 | hit 16 | reads 16 | lat 16 | index reads 8 | "
                   "index lat 8 | index lat 16 |\n|---|---|---|---|---|---|---|---|---|---|---|---|\n");
        for (size_t i = 0; i < ncp; i++) {
            const ga_perf_res_t *a = &cp[i].hw[0], *b = &cp[i].hw[1], *x = &cp[i].hwx[0], *y = &cp[i].hwx[1];
            if (!cp[i].hw_have[0] || !cp[i].hw_have[1] || !cp[i].hwx_have[0] || !cp[i].hwx_have[1]) continue;
            fprintf(f, "| %s ‡ | %u | %u | %.3f | %.3f | %.1f | %.3f | %.3f | %.1f | %.3f | %.1f | %.1f |\n", cp[i].name,
                    a->wl.ws_max, a->wl.live_max, a->loadmeta ? (double)a->loadmeta_hits / (double)a->loadmeta : 0.0,
                    a->accesses ? (double)a->walk_reads / (double)a->accesses : 0.0, a->lat_loadmeta,
                    b->loadmeta ? (double)b->loadmeta_hits / (double)b->loadmeta : 0.0,
                    b->accesses ? (double)b->walk_reads / (double)b->accesses : 0.0, b->lat_loadmeta,
                    x->accesses ? (double)x->walk_reads / (double)x->accesses : 0.0, x->lat_loadmeta, y->lat_loadmeta);
        }
        fprintf(f, "\n");
        compare_section(f, w, n2, cp, ncp);
    }

    /* Table 5 */
    fprintf(f, "## 7. Metadata storage (Table 5 analogue)\n\n");
    fprintf(f, "Average over the 28 Table 2 stand-ins of (metadata bytes / footprint). GPUArmor is measured "
               "(the runtime's metadata bytes at their peak: 32-byte BST nodes, 16-byte table entries, or "
               "the index's 16-byte slots and 128-byte nodes, freed entries included); the others are computed from their published rules over the same "
               "allocation sizes. CSV: [table5.csv](results/table5.csv).\n\n");
    fprintf(f, "| scheme | rule | paper (Table 5) | ours |\n|---|---|---|---|\n");
    fprintf(f, "| cuCatch | 32 bits per 32 B region (Table 1) | 12.5 %% | %.4f %% |\n", avg.cucatch);
    fprintf(f, "| LAK | 4 bits per 16 B region (Table 1) | 3.125 %% | %.4f %% |\n", avg.lak4);
    fprintf(f, "| LAK, as §2.3 / §9.2 describe it | 8-bit tags per 16 B | (3.25 %% in §9.2) | %.4f %% |\n", avg.lak8);
    fprintf(f, "| GPUArmor, BST (measured) | 32-byte node per entry | 0.0005 %% | %.6f %% |\n", avg.ga_node);
    fprintf(f, "| GPUArmor, table (measured) | 16-byte entry per allocation | — | %.6f %% |\n", avg.ga_table);
    fprintf(f, "| GPUArmor, index (measured) | 16-byte slot per entry + 128-byte nodes of up to 11 | — | %.6f %% |\n",
            avg.ga_index);
    fprintf(f, "| Compute Sanitizer / GPUShield | 2 words per object (Table 1) | 0.0005 %% | %.6f %% |\n", avg.entry16);
    fprintf(f, "| GMOD / clArmor | 8 B canary per object (Table 1) | 0.00026 %% | %.6f %% |\n", avg.gmod);
    fprintf(f, "| IMT | embedded in ECC | 0 %% | 0 %% |\n\n");
    fprintf(f, "The paper is inconsistent about LAK: Table 1 says 4 bits per 16 B (3.125 %%, the figure "
               "Table 5 uses), §2.3 and §9.2 say 8-bit tags per 16 B (6.25 %%), and §9.2 quotes 3.25 %%. We "
               "show both rules. Per-object schemes depend on our size choices (Fig 3 medians): a workload "
               "with many small allocations (namd_2: 1 184 objects, median 256 B) dominates the average.\n\n");

    /* Table 4 */
    fprintf(f, "<!-- eval_corpus: table4 -->\n\n");
    fprintf(f, "## 9. Fault injection (Table 4 analogue, injected errors)\n\n");
    fprintf(f, "%u injections per class and scheme, 95 %% Wilson intervals in brackets. 7-bit tags "
               "(57-bit VA, as Table 4 assumes, §7.2), BST layout, %u live allocations in a packed arena "
               "(fewer than GPUShield's 127 ids). Class definitions, the GPUShield-like model and the "
               "classifier: [eval.md](eval.md#table-4). CSV with where each address landed and which "
               "exception fired: [table4.csv](results/table4.csv). Backend: %s.\n\n",
            o->trials, 96u, o->backend);
    fprintf(f, "| class | GPUArmor (paper) | GPUArmor (ours) | GPUShield (paper) | GPUShield-like (ours) | "
               "HWOnly (paper) | HWOnly (ours) |\n|---|---|---|---|---|---|---|\n");
    const int main_cols[3] = {0, 1, 2};
    for (int c = 0; c < GA_CLS_N; c++) {
        fprintf(f, "| %s |", ga_cls_name((ga_cls_t)c));
        for (int j = 0; j < 3; j++) {
            fprintf(f, " %s |", k_paper_t4[c][j]);
            pct_cell(f, cr[main_cols[j]].det[c], cr[main_cols[j]].n[c]);
            fprintf(f, " |");
        }
        fprintf(f, "\n");
    }
    fprintf(f, "\nExtensions beyond the paper (spec §7.6) and other variants, same campaigns:\n\n| class |");
    for (int k = 3; k < NS; k++) fprintf(f, " %s |", cr[k].s.label);
    fprintf(f, "\n|---|");
    for (int k = 3; k < NS; k++) fprintf(f, "---|");
    fprintf(f, "\n");
    for (int c = 0; c < GA_CLS_N; c++) {
        fprintf(f, "| %s |", ga_cls_name((ga_cls_t)c));
        for (int k = 3; k < NS; k++) {
            pct_cell(f, cr[k].det[c], cr[k].n[c]);
            fprintf(f, " |");
        }
        fprintf(f, "\n");
    }
    uint64_t adj_live = cr[2].land[GA_CLS_ADJ_OOB][GA_LAND_LIVE], adj_n = cr[2].n[GA_CLS_ADJ_OOB];
    fprintf(f, "\nReading the table. Adjacent OOB in HWOnly lands in a live neighbour in %.1f %% of the "
               "injections (the rest in padding or freed metadata, always detected), so plain HWOnly misses "
               "about 1/126 of those; the paper's 100 %% assumes adjacent objects get different tags "
               "(§7.2, Scudo), which is exactly the neighbour-distinct extension. Our GPUShield-like model "
               "keeps the buffer id in the pointer, so a non-adjacent overflow is checked against the "
               "victim's bounds whatever the scope; the paper gives 99.2 %% for GPUShield there without "
               "saying why. Delayed UAF in the quarantine columns is deterministic because every "
               "re-allocation in the campaign happens within 16 frees of the free (W = 64). With 1 024 "
               "live allocations the GPUShield-like model leaves buffers past id 127 unprotected (§3.2, "
               "Observation 5).\n\n",
            adj_n ? 100.0 * (double)adj_live / (double)adj_n : 0.0);
    fprintf(f, "**RTL.** The columns above ran on the %s backend. The GPUArmor schemes of each tag width "
               "re-run on the Verilated RTL of that width in lockstep with the model "
               "(`build/cosim/t7_m8_l32/gaeval-rtl table4 --tag-bits 7 --backend rtl` and "
               "`build/cosim/t16_m8_l32/gaeval-rtl table4 --tag-bits 16 --backend rtl`), which must write "
               "the model's table4.csv rows byte for byte; §10 gives that run's result when `make eval` "
               "could build both RTL configurations.\n\n",
            o->backend);

    /* differences */
    fprintf(f, "<!-- eval_corpus: runs -->\n\n");
    fprintf(f, "## 11. What differs from the paper, and why\n\n");
    fprintf(f, "- **Workloads.** Synthetic stand-ins from published statistics; per-workload choices (medians, "
               "working sets, kernel counts, temporaries) are ours ([workloads.md](workloads.md)). Real "
               "access patterns, allocation sizes and kernel structure are not reproduced.\n");
    fprintf(f, "- **Scale.** Instructions are scaled by %g while allocation counts are not, so compulsory "
               "MLB misses weigh more per LOADMETA than in a full run; a kernel's warps touch fewer of its "
               "allocations than the real kernel's would.\n", o->scale);
    fprintf(f, "- **No timing.** Run-time overheads (Fig 9–14) need a GPU timing model (the paper uses "
               "NVAS). We report metadata reads and an added-latency model instead; GPU latency hiding, "
               "L1 misses, bandwidth (the paper's LAK and adi/jacobi effects) and occupancy are not "
               "modelled.\n");
    fprintf(f, "- **Warps run one after another** on each of %u SMs (8 warps per thread block share their "
               "allocations); the GPU interleaves up to 64 warps per SM.\n", o->sms);
    fprintf(f, "- **Table 4** uses our precise class definitions (docs/eval.md); the paper does not define "
               "its injections. Its GPUShield column is a small model of ours, not GPUShield.\n");
    fprintf(f, "- **The corpus** is the project's own small CUDA programs (tens of thousands to a few million "
               "thread instructions, a handful of allocations), run by an interpreter with 4 SMs whose "
               "warps run one after another, not the paper's applications on a GA100; its bug programs "
               "commit bugs we wrote on purpose, one per run, in variants we chose (apps/variants.tsv).\n");
    close_out(f);
}

/* ------------------------------------------------------------------------------------------------ */
/* check: re-read the CSVs                                                                          */

/* Split line (modified in place) at commas into at most max cells; returns the count. */
static size_t split(char *line, char **cells, size_t max)
{
    size_t n = 0;
    char *p = line;
    line[strcspn(line, "\r\n")] = '\0';
    while (n < max) {
        cells[n++] = p;
        char *c = strchr(p, ',');
        if (c == NULL) break;
        *c = '\0';
        p = c + 1;
    }
    return n;
}

static int col_of(char **hdr, size_t n, const char *name)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(hdr[i], name) == 0) return (int)i;
    return -1;
}

/* Report one problem and count it in *fails. */
static void bad(int *fails, const char *file, unsigned long line, const char *what)
{
    fprintf(stderr, "gaeval check: %s:%lu: %s\n", file, line, what);
    (*fails)++;
}

typedef void (*row_fn)(int *fails, const char *file, unsigned long line, char **hdr, size_t nh, char **c, size_t n);

static void each_row(int *fails, const char *dir, const char *name, row_fn fn)
{
    char path[1024], buf[4096], hbuf[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "r");
    if (f == NULL) {
        bad(fails, path, 0, "missing");
        return;
    }
    char *hdr[64], *c[64];
    if (fgets(hbuf, sizeof hbuf, f) == NULL) {
        bad(fails, path, 1, "empty");
        fclose(f);
        return;
    }
    size_t nh = split(hbuf, hdr, 64);
    unsigned long ln = 1, rows = 0;
    while (fgets(buf, sizeof buf, f) != NULL) {
        ln++;
        size_t n = split(buf, c, 64);
        if (n != nh) {
            bad(fails, path, ln, "wrong number of cells");
            continue;
        }
        rows++;
        if (fn != NULL) fn(fails, path, ln, hdr, nh, c, n);
    }
    if (rows == 0u) bad(fails, path, ln, "no data rows");
    fclose(f);
}

static double cell_d(char **hdr, size_t nh, char **c, const char *name)
{
    int i = col_of(hdr, nh, name);
    return i < 0 ? NAN : strtod(c[i], NULL);
}

static const char *cell_s(char **hdr, size_t nh, char **c, const char *name)
{
    int i = col_of(hdr, nh, name);
    return i < 0 ? "" : c[i];
}

static void chk_perf(int *fails, const char *file, unsigned long ln, char **h, size_t nh, char **c, size_t n)
{
    (void)n;
    if (cell_d(h, nh, c, "faults") != 0.0) bad(fails, file, ln, "a clean workload raised an exception (false positive)");
    double r = cell_d(h, nh, c, "reads_per_loadmeta"), hit = cell_d(h, nh, c, "loadmeta_mlb_hit_rate");
    if (!(r >= 0.0)) bad(fails, file, ln, "reads per LOADMETA missing or negative");
    if (strcmp(cell_s(h, nh, c, "layout"), "table") == 0 && r > 1.0) bad(fails, file, ln, "table layout: more than one read per LOADMETA");
    if (!(hit >= 0.0 && hit <= 1.0)) bad(fails, file, ln, "hit rate outside [0, 1]");
    if (strcmp(cell_s(h, nh, c, "mlb"), "0") == 0 && hit != 0.0) bad(fails, file, ln, "no-MLB run with MLB hits");
}

static void chk_t4(int *fails, const char *file, unsigned long ln, char **h, size_t nh, char **c, size_t n)
{
    (void)n;
    double r = cell_d(h, nh, c, "rate"), lo = cell_d(h, nh, c, "wilson_lo"), hi = cell_d(h, nh, c, "wilson_hi");
    double trials = cell_d(h, nh, c, "trials");
    const char *s = cell_s(h, nh, c, "scheme"), *k = cell_s(h, nh, c, "class");
    if (!(r >= 0.0 && r <= 1.0 && lo <= r && r <= hi && lo >= 0.0 && hi <= 1.0)) bad(fails, file, ln, "rate or interval outside [0, 1]");
    if (!(trials >= 1.0)) bad(fails, file, ln, "no trials");
    /* guarantees of the design (docs/eval.md, "Sanity checks") */
    bool ga = strncmp(s, "GPUArmor", 8) == 0 || strncmp(s, "HWOnly", 6) == 0;
    if (strcmp(k, "subobject_oob") == 0 && r != 0.0) bad(fails, file, ln, "a sub-object overflow was detected");
    if (ga && strcmp(k, "immediate_uaf") == 0 && r != 1.0) bad(fails, file, ln, "GPUArmor missed an immediate UAF");
    if (strcmp(s, "GPUArmor") == 0 && (strcmp(k, "adjacent_oob") == 0 || strcmp(k, "nonadj_intra_oob") == 0) && r != 1.0)
        bad(fails, file, ln, "compiler mode missed an intra-scope overflow");
    if (strstr(s, "neighbour") != NULL && strcmp(k, "adjacent_oob") == 0 && r != 1.0) bad(fails, file, ln, "neighbour-distinct missed an adjacent overflow");
    if (strstr(s, "both") != NULL && (strcmp(k, "adjacent_oob") == 0 || strcmp(k, "delayed_uaf") == 0) && r != 1.0)
        bad(fails, file, ln, "extensions missed a deterministic detection");
    if (strstr(s, "quarantine") != NULL && strcmp(k, "delayed_uaf") == 0 && r != 1.0) bad(fails, file, ln, "quarantine missed a delayed UAF within its window");
}

static void chk_wl(int *fails, const char *file, unsigned long ln, char **h, size_t nh, char **c, size_t n)
{
    (void)n;
    if (cell_d(h, nh, c, "allocs") != cell_d(h, nh, c, "allocs_target")) bad(fails, file, ln, "allocation count differs from its target");
    if (fabs(cell_d(h, nh, c, "footprint_MiB") - cell_d(h, nh, c, "footprint_MiB_target")) > 0.01) bad(fails, file, ln, "footprint differs from its target");
    if (cell_d(h, nh, c, "median") != cell_d(h, nh, c, "median_target")) bad(fails, file, ln, "median differs from its target");
    if (strcmp(cell_s(h, nh, c, "group"), "table2") == 0 && cell_d(h, nh, c, "ws_max") >= 8.0) bad(fails, file, ln, "working set of 8 or more (Fig 4: under 8)");
}

static void chk_range(int *fails, const char *file, unsigned long ln, char **h, size_t nh, char **c, size_t n)
{
    (void)h;
    (void)nh;
    for (size_t i = 1; i < n; i++) {
        /* labels (workload names, groups) and empty cells are not values */
        if (c[i][0] == '\0' || (c[i][0] >= 'a' && c[i][0] <= 'z') || (c[i][0] >= 'A' && c[i][0] <= 'Z')) continue;
        char *end;
        double v = strtod(c[i], &end);
        if (end == c[i] || !(v >= 0.0) || isinf(v)) bad(fails, file, ln, "a value is missing, negative or not finite");
    }
}

/* table4_real.csv (scripts/eval_corpus.py): the corpus' guarantees. */
static void chk_t4real(int *fails, const char *file, unsigned long ln, char **h, size_t nh, char **c, size_t n)
{
    (void)n;
    double r = cell_d(h, nh, c, "rate"), lo = cell_d(h, nh, c, "wilson_lo"), hi = cell_d(h, nh, c, "wilson_hi");
    const char *k = cell_s(h, nh, c, "class"), *m = cell_s(h, nh, c, "mode");
    if (!(r >= 0.0 && r <= 1.0 && lo <= r && r <= hi && lo >= 0.0 && hi <= 1.0)) bad(fails, file, ln, "rate or interval outside [0, 1]");
    if (cell_d(h, nh, c, "unexpected") != 0.0) bad(fails, file, ln, "a bug run reported other than its variant predicts");
    if ((strcmp(k, "subobject_oob") == 0 || strcmp(k, "wild_untagged") == 0) && r != 0.0)
        bad(fails, file, ln, "a sub-object or tag-0 access was reported (never, by design)");
    if (strcmp(k, "immediate_uaf") == 0 && r != 1.0) bad(fails, file, ln, "an immediate use after free was missed");
    if (strcmp(m, "compiler") == 0 && (strcmp(k, "adjacent_oob") == 0 || strcmp(k, "nonadj_intra_oob") == 0 ||
                                       strcmp(k, "shared_oob") == 0) && r != 1.0)
        bad(fails, file, ln, "compiler mode missed an intra-scope or shared overflow");
    if (strcmp(m, "hwonly") == 0 && strcmp(k, "shared_oob") == 0 && r != 0.0)
        bad(fails, file, ln, "HWOnly reported a shared access (it has no shared checks)");
}

static int check(const char *dir)
{
    int nfail = 0, *fails = &nfail;
    each_row(fails, dir, "workloads.csv", chk_wl);
    each_row(fails, dir, "perf.csv", chk_perf);
    each_row(fails, dir, "fig9_10.csv", chk_range);
    each_row(fails, dir, "fig11.csv", chk_range);
    each_row(fails, dir, "fig13.csv", chk_range);
    each_row(fails, dir, "table5.csv", chk_range);
    each_row(fails, dir, "table4.csv", chk_t4);
    char path[1024];
    struct stat sb;
    /* the corpus' files, when the corpus was run (scripts/eval_corpus.py) */
    snprintf(path, sizeof path, "%s/fig7.csv", dir);
    if (stat(path, &sb) == 0) {
        each_row(fails, dir, "fig7.csv", chk_range);
        each_row(fails, dir, "fig8.csv", chk_range);
        each_row(fails, dir, "fig9_10_corpus.csv", chk_range);
        each_row(fails, dir, "fig11_corpus.csv", chk_range);
        each_row(fails, dir, "fig13_corpus.csv", chk_range);
        each_row(fails, dir, "table4_real.csv", chk_t4real);
    }
    snprintf(path, sizeof path, "%s/results.md", dir);
    if (stat(path, &sb) != 0 || sb.st_size < 1000) bad(fails, path, 0, "missing or too short");
    FILE *rf = fopen(path, "r");
    if (rf != NULL) {
        char line[4096];
        unsigned long ln = 0;
        while (fgets(line, sizeof line, rf) != NULL) {
            ln++;
            if (strncmp(line, "<!-- eval_corpus:", 17) == 0)
                bad(fails, path, ln, "a section scripts/eval_corpus.py report fills in is missing");
        }
        fclose(rf);
    }
    if (nfail) {
        fprintf(stderr, "gaeval check: %d problem(s) in %s\n", nfail, dir);
        return GA_EXIT_MISMATCH;
    }
    printf("gaeval check: %s: every output present and sane\n", dir);
    return 0;
}

/* ------------------------------------------------------------------------------------------------ */

/* mkdir -p: every missing directory of path (existing ones are fine; errors show at the first write). */
static void mkdir_p(const char *path)
{
    char buf[1024];
    snprintf(buf, sizeof buf, "%s", path);
    for (char *p = buf + 1; *p != '\0'; p++)
        if (*p == '/') {
            *p = '\0';
            mkdir(buf, 0777);
            *p = '/';
        }
    mkdir(buf, 0777);
}

/* Run the units of the selection that shard sh owns and the file at path does not hold yet, appending
 * a row for each (docs/eval.md, "Shards"). */
static void campaign_run(const opts_t *o, unsigned tag_bits, bool ga_only, const ga_shard_t *sh, const char *path)
{
    t4_unit_t *u;
    size_t n = t4_units(o, tag_bits, ga_only, &u);
    char msg[1024], cells[1024];
    ga_shard_out_t *out;
    if (n == 0) die("%s", "the selection holds no scheme");
    if (ga_shard_open(&out, path, "table4", n, t4_spec(o, u, n), k_t4_cols, msg, sizeof msg) != 0) die("%s", msg);
    uint64_t ran = 0, mine = 0;
    for (size_t i = 0; i < n; i++) {
        if (!ga_shard_owns(sh, i)) continue;
        mine++;
        if (ga_shard_done(out, i)) continue;
        camp_res_t r;
        t4_run_unit(o, &u[i], &r);
        t4_cells(&u[i], &r, cells, sizeof cells);
        if (ga_shard_row(out, i, cells, msg, sizeof msg) != 0) die("%s", msg);
        ran++;
    }
    uint64_t kept = ga_shard_kept(out);
    if (ga_shard_close(out, msg, sizeof msg) != 0) die("%s", msg);
    fprintf(stderr, "gaeval: campaign table4, shard %u/%u: %" PRIu64 " of %zu units are this shard's; %" PRIu64
                    " run now, %" PRIu64 " kept from an earlier run (%s)\n",
            sh->index, sh->count, mine, n, ran, kept, path);
    free(u);
}

/* Total a complete campaign file (gaeval merge's output, or one run's) per scheme into cr. */
static void t4_from_file(const opts_t *o, const char *path, camp_res_t *cr)
{
    ga_scheme_t sch[NS];
    schemes(o, sch);
    for (int k = 0; k < NS; k++) {
        memset(&cr[k], 0, sizeof cr[k]);
        cr[k].s = sch[k];
    }
    FILE *f = fopen(path, "r");
    if (f == NULL) die("cannot read %s", path);
    char line[2048], where[1200], want[1024];
    snprintf(want, sizeof want, "unit,%s\n", k_t4_cols);
    unsigned long ln = 0;
    unsigned long long units = 0, rows = 0;
    while (fgets(line, sizeof line, f) != NULL) {
        ln++;
        snprintf(where, sizeof where, "%s:%lu", path, ln);
        if (ln == 1) {
            const char *p = strstr(line, " units=");
            if (strncmp(line, "# gaeval-shard 1 campaign=table4 ", 33) != 0 || p == NULL ||
                sscanf(p, " units=%llu", &units) != 1)
                die("%s: not a table4 campaign file (expected '# gaeval-shard 1 campaign=table4 ...')", where);
            continue;
        }
        if (ln == 2) {
            if (strcmp(line, want) != 0) die("%s: not this gaeval's columns", where);
            continue;
        }
        char *c[32];
        size_t n = split(line, c, 32);
        if (n != 16) die("%s: expected 16 cells", where);
        int k = -1, cl = -1;
        for (int x = 0; x < NS; x++)
            if (strcmp(c[1], sch[x].label) == 0) k = x;
        for (int x = 0; x < GA_CLS_N; x++)
            if (strcmp(c[2], ga_cls_id((ga_cls_t)x)) == 0) cl = x;
        if (k < 0 || cl < 0) die("%s: unknown scheme or class", where);
        camp_res_t r;
        memset(&r, 0, sizeof r);
        r.n[cl] = strtoull(c[4], NULL, 10);
        r.det[cl] = strtoull(c[5], NULL, 10);
        for (int d = 0; d < GA_LAND_N; d++) r.land[cl][d] = strtoull(c[6 + d], NULL, 10);
        for (int x = 1; x < GA_EXC_KINDS; x++) r.kind[cl][x] = strtoull(c[9 + x], NULL, 10);
        t4_add(cr, (unsigned)k, (unsigned)cl, &r);
        rows++;
    }
    fclose(f);
    if (rows != units)
        die("%s: incomplete campaign (merge its shards with gaeval merge, which checks that every unit is "
            "there)", path);
}

static void usage(FILE *f)
{
    fprintf(f, "usage: gaeval run [--scale smoke|full|X] [--trials N] [--out DIR] [--seed N] [--sms N]\n"
               "                  [--backend model|rtl] [--l1 CYCLES] [--corpus SWEEP.csv] [--dry-run]\n"
               "         everything on the stand-ins (+ the corpus sweeps of gasweep) -> DIR/*.csv, results.md\n"
               "       gaeval campaign -o FILE [--trials N] [--seed N] [--backend model|rtl]\n"
               "                  [--tag-bits 7|16|all] [--gpuarmor-only] [--shard I/N] [--dry-run]\n"
               "         the Table 4 injection campaign (units of 1 000 injections), or shard I of N of it;\n"
               "         resumes FILE when it exists\n"
               "       gaeval table4 [--trials N (500)] [--out DIR] [--seed N] [--backend model|rtl]\n"
               "                  [--tag-bits 7|16] [--from FILE] [--dry-run]\n"
               "         the GPUArmor rows of one tag width (default 7) -> DIR/table4.csv; with --from, every\n"
               "         row of a complete campaign FILE instead\n"
               "       gaeval merge -o OUT [--partial] FILE...\n"
               "         shard files of one campaign -> OUT, rows in unit order (every unit, unless --partial)\n"
               "       gaeval check DIR\n"
               "  smoke: instruction scale 1e-4, 2 000 injections per class; full: 3e-3, 20 000.\n"
               "  --dry-run: check the command line only and exit (0 when it is valid)\n"
               "exit: 0 done; 3 a check failed (check, or the RTL backend disagreed with the model);\n"
               "1 a runtime error; 2 bad command line\n");
}

static unsigned long long num(const char *s, const char *what, unsigned long long lo, unsigned long long hi)
{
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 0);
    if (errno || end == s || *end != '\0' || s[0] == '-' || v < lo || v > hi)
        die_code(GA_EXIT_USAGE, "bad value for %s (see gaeval --help)", what);
    return v;
}

/* gaeval merge -o OUT [--partial] FILE... */
static int merge_main(int argc, char **argv)
{
    const char *out = NULL;
    bool partial = false, dry = false;
    const char **in = calloc((size_t)argc, sizeof *in);
    size_t n = 0;
    if (in == NULL) die("%s", "out of memory");
    for (int i = 2; i < argc; i++) {
        if (strcmp(argv[i], "-o") == 0 || strcmp(argv[i], "--out") == 0) {
            if (out != NULL || i + 1 >= argc) die_code(GA_EXIT_USAGE, "%s", "merge: one -o OUT (see gaeval --help)");
            out = argv[++i];
        } else if (strcmp(argv[i], "--partial") == 0) {
            partial = true;
        } else if (strcmp(argv[i], "--dry-run") == 0) {
            dry = true;
        } else if (argv[i][0] == '-' && argv[i][1] != '\0') {
            die_code(GA_EXIT_USAGE, "merge: unknown option '%s' (see gaeval --help)", argv[i]);
        } else {
            in[n++] = argv[i];
        }
    }
    if (out == NULL || n == 0) die_code(GA_EXIT_USAGE, "%s", "merge: expected -o OUT and at least one shard file");
    for (size_t i = 0; i < n; i++)
        if (strcmp(in[i], out) == 0) die_code(GA_EXIT_USAGE, "merge: the output %s is also an input", out);
    if (dry) {
        printf("gaeval: dry run: the command line is valid\n");
        free(in);
        return GA_EXIT_OK;
    }
    char msg[1400];
    uint64_t rows;
    if (ga_shard_merge(out, in, n, partial, &rows, msg, sizeof msg) != 0) die("%s", msg);
    fprintf(stderr, "gaeval: merged %zu file(s) into %s: %" PRIu64 " rows\n", n, out, rows);
    free(in);
    return GA_EXIT_OK;
}

int main(int argc, char **argv)
{
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            usage(stdout);
            return GA_EXIT_OK;
        }
    if (argc >= 2 && strcmp(argv[1], "check") == 0) {
        if (argc != 3) {
            fprintf(stderr, "gaeval: check takes one directory (see gaeval --help)\n");
            return GA_EXIT_USAGE;
        }
        return check(argv[2]);
    }
    if (argc >= 2 && strcmp(argv[1], "merge") == 0) return merge_main(argc, argv);
    bool t4 = argc >= 2 && strcmp(argv[1], "table4") == 0;
    bool camp = argc >= 2 && strcmp(argv[1], "campaign") == 0;
    if (argc < 2 || (strcmp(argv[1], "run") != 0 && !t4 && !camp)) {
        fprintf(stderr, "gaeval: expected a command: run, campaign, table4, merge or check (see gaeval --help)\n");
        return GA_EXIT_USAGE;
    }
    opts_t o = {"smoke", 1e-4, 2000, "build/eval", 1, 8, "model", 28, NULL, k_backends};
    bool trials_set = false, dry = false, ga_only = false;
    const char *outfile = NULL, *from = NULL;
    unsigned tag_bits = t4 ? 7u : 0u;
    ga_shard_t sh = {0, 1};
    for (int i = 2; i < argc; i++) {
        for (int j = 2; j < i; j++) /* every option may be given once: a second one would silently win */
            if (argv[j][0] == '-' && strcmp(argv[j], argv[i]) == 0) {
                fprintf(stderr, "gaeval: option %s given twice\n", argv[i]);
                return GA_EXIT_USAGE;
            }
        if (strcmp(argv[i], "--dry-run") == 0) {
            dry = true;
            continue;
        }
        if (camp && strcmp(argv[i], "--gpuarmor-only") == 0) {
            ga_only = true;
            continue;
        }
        if (i + 1 >= argc || argv[i][0] != '-') {
            fprintf(stderr, "gaeval: %s '%s' (see gaeval --help)\n",
                    argv[i][0] == '-' ? "missing value for" : "unexpected argument", argv[i]);
            return GA_EXIT_USAGE;
        }
        const char *a = argv[i], *v = argv[++i];
        if (strcmp(a, "--scale") == 0 && !t4 && !camp) {
            o.scale_name = v;
            if (strcmp(v, "smoke") == 0)
                o.scale = 1e-4;
            else if (strcmp(v, "full") == 0)
                o.scale = 3e-3;
            else {
                char *end;
                o.scale = strtod(v, &end);
                if (*end != '\0' || !(o.scale > 0.0) || o.scale > 1.0)
                    die_code(GA_EXIT_USAGE, "bad --scale %s (smoke, full, or a number in (0, 1])", v);
            }
        } else if (strcmp(a, "--trials") == 0) {
            o.trials = (unsigned)num(v, a, 1, 100000000);
            trials_set = true;
        } else if (strcmp(a, "--out") == 0 && !camp) {
            o.out = v;
        } else if (strcmp(a, "-o") == 0 && camp) {
            outfile = v;
        } else if (strcmp(a, "--seed") == 0) {
            o.seed = num(v, a, 0, UINT64_MAX);
        } else if (strcmp(a, "--sms") == 0 && !t4 && !camp) {
            o.sms = (unsigned)num(v, a, 1, GA_SYSTEM_MAX_SMS);
        } else if (strcmp(a, "--backend") == 0) {
            if (strcmp(v, "model") != 0 && strcmp(v, "rtl") != 0)
                die_code(GA_EXIT_USAGE, "bad --backend %s (model or rtl)", v);
            o.backend = v;
        } else if (strcmp(a, "--l1") == 0 && !t4 && !camp) {
            o.l1 = (uint32_t)num(v, a, 1, 100000);
        } else if (strcmp(a, "--corpus") == 0 && !t4 && !camp) {
            o.corpus = v;
        } else if (strcmp(a, "--tag-bits") == 0 && (t4 || camp)) {
            if (strcmp(v, "7") == 0 || strcmp(v, "16") == 0)
                tag_bits = (unsigned)atoi(v);
            else if (camp && strcmp(v, "all") == 0)
                tag_bits = 0;
            else
                die_code(GA_EXIT_USAGE, "bad --tag-bits %s (7 or 16; campaign: also all)", v);
        } else if (strcmp(a, "--shard") == 0 && camp) {
            char msg[256];
            if (ga_shard_parse(v, &sh, msg, sizeof msg) != 0) die_code(GA_EXIT_USAGE, "%s", msg);
        } else if (strcmp(a, "--from") == 0 && t4) {
            from = v;
        } else {
            fprintf(stderr, "gaeval: unknown option '%s' for %s (see gaeval --help)\n", a, argv[1]);
            return GA_EXIT_USAGE;
        }
    }
    if (camp && outfile == NULL) die_code(GA_EXIT_USAGE, "%s", "campaign: -o FILE is required (see gaeval --help)");
    if (!trials_set) o.trials = t4 ? 500u : strcmp(o.scale_name, "full") == 0 ? 20000u : 2000u;
    if (dry) {
        printf("gaeval: dry run: the command line is valid\n");
        return GA_EXIT_OK;
    }
    if (camp) {
        campaign_run(&o, tag_bits, ga_only, &sh, outfile);
        return GA_EXIT_OK;
    }
    mkdir_p(o.out);
    if (t4) {
        camp_res_t cr4[NS];
        if (from != NULL) {
            t4_from_file(&o, from, cr4);
        } else { /* only the GPUArmor rows of one tag width (what one RTL configuration runs) */
            fprintf(stderr, "gaeval: Table 4 GPUArmor rows with %u-bit tags, %u injections per class, %s backend\n",
                    tag_bits, o.trials, o.backend);
            run_campaigns(&o, cr4, tag_bits, true);
        }
        write_table4(&o, cr4);
        fprintf(stderr, "gaeval: %s/table4.csv written\n", o.out);
        return 0;
    }

    corp_t *cp = NULL;
    size_t ncp = 0;
    if (o.corpus != NULL) {
        cp = calloc(NCORP, sizeof *cp);
        if (cp == NULL) die("%s", "out of memory");
        read_corpus(&o, cp, &ncp);
        fprintf(stderr, "gaeval: %zu corpus programs from %s\n", ncp, o.corpus);
    }
    size_t nw;
    const ga_wl_spec_t *specs = ga_wl_specs(&nw);
    wl_res_t *w = calloc(nw, sizeof *w);
    if (w == NULL) die("%s", "out of memory");
    for (size_t i = 0; i < nw; i++) {
        const ga_wl_spec_t *s = &specs[i];
        w[i].spec = s;
        fprintf(stderr, "gaeval: %-13s", s->name);
        if (s->group == GA_WL_TABLE2) {
            for (int l = 0; l < NL; l++)
                for (int m = 0; m < NM; m++) perf_one(&o, s, GA_MODE_COMPILER, k_layouts[l], k_mlbs[m], &w[i].cc[l][m]);
        } else {
            perf_one(&o, s, GA_MODE_COMPILER, GA_LAYOUT_BST, 8, &w[i].cc[1][4]);
        }
        perf_one(&o, s, GA_MODE_HWONLY, GA_LAYOUT_BST, 8, &w[i].hw[0]);
        perf_one(&o, s, GA_MODE_HWONLY, GA_LAYOUT_BST, 16, &w[i].hw[1]);
        perf_one(&o, s, GA_MODE_HWONLY, GA_LAYOUT_INDEX, 8, &w[i].hwx[0]);
        perf_one(&o, s, GA_MODE_HWONLY, GA_LAYOUT_INDEX, 16, &w[i].hwx[1]);
        w[i].sizes = malloc(s->allocs * sizeof *w[i].sizes);
        if (w[i].sizes == NULL || ga_wl_sizes(s, o.seed, w[i].sizes) != 0) die("sizes of %s", s->name);
        fprintf(stderr, " done\n");
    }
    fprintf(stderr, "gaeval: fault-injection campaigns (%u per class and scheme)\n", o.trials);
    /* through the campaign file, the same path as sharded runs (docs/eval.md, "Shards") */
    char path[1024];
    snprintf(path, sizeof path, "%s/table4_units.csv", o.out);
    remove(path);
    const ga_shard_t whole = {0, 1};
    campaign_run(&o, 0, false, &whole, path);
    camp_res_t cr[NS];
    t4_from_file(&o, path, cr);
    write_all(&o, w, nw, cr, cp, ncp);
    for (size_t i = 0; i < nw; i++) free(w[i].sizes);
    free(w);
    free(cp);
    fprintf(stderr, "gaeval: results in %s\n", o.out);
    return 0;
}
