/*
 * gasweep — the corpus programs' captured traces through the layout x MLB sweeps of the Fig 9, 10, 11
 * and 13 analogues, as a campaign of independent units that can be split into shards
 * (docs/eval.md, "The corpus traces" and "Shards").
 *
 *   gasweep -o FILE [--shard I/N] [--seed N] [--dry-run] TRACE...
 *
 * Each TRACE is a gatrace written by `gpuarmor-run --trace-out` and named PROGRAM.MODE.gatrace[.gz]
 * with MODE compiler or hwonly; the mode it was captured in is the mode it is replayed in. Units, in
 * the order of the traces sorted by name: a compiler-mode trace gives 24 (list, BST, table x no MLB,
 * 1, 2, 4, 8, 16, 32, 64 entries), an HWOnly trace 2 (BST x 8 and 16 entries). Each unit is one replay
 * (ga_sweep.h) and one CSV row of its counters; FILE is a shard file of campaign "gasweep" (ga_shard.h):
 * resumed when it exists, merged with `gaeval merge`. The campaign's hash covers the seed and every
 * trace's name and content, so rows of different captures never mix.
 * Exit statuses (sim/ga_exit.h): 0 done, 1 a bad or unreadable trace or an output error, 2 a bad
 * command line.
 */
#include "../ga_exit.h"
#include "ga_shard.h"
#include "ga_sweep.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NMLB 8
/* Every layout of cmodel/ga_layouts.def, in code order. */
static const ga_layout_t k_lay[] = {
#define GA_LAYOUT(id, code, name, rtl, title) GA_LAYOUT_##id,
#include "ga_layouts.def"
#undef GA_LAYOUT
};
#define NLAY ((int)(sizeof k_lay / sizeof k_lay[0]))
static const unsigned k_mlb[NMLB] = {0, 1, 2, 4, 8, 16, 32, 64}; /* 0 = no MLB */

typedef struct {
    const char *path;
    char prog[128];
    ga_mode_t mode;
} trace_t;

typedef struct {
    unsigned t;   /* trace index */
    ga_layout_t layout;
    unsigned mlb;
} unit_t;

static void die(int code, const char *fmt, ...) __attribute__((format(printf, 2, 3), noreturn));
static void die(int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "gasweep: ");
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "\n");
    va_end(ap);
    exit(code);
}

static void usage(FILE *f)
{
    fprintf(f, "usage: gasweep -o FILE [--shard I/N] [--seed N] [--dry-run] TRACE...\n"
               "  Replay each PROGRAM.MODE.gatrace[.gz] (MODE compiler or hwonly, as captured by\n"
               "  gpuarmor-run --trace-out) through the Fig 9/10/11/13 sweeps: compiler traces with list,\n"
               "  BST and table x no MLB, 1, 2, 4, 8, 16, 32, 64 entries; HWOnly traces with BST x 8, 16.\n"
               "  One CSV row per replay into the shard file FILE (resumed when it exists; merge shards\n"
               "  with gaeval merge).\n"
               "  --shard I/N  run only the units u with u mod N == I (default 0/1: all)\n"
               "  --seed N     the runtime's tag seed of the replays: the capture's (default 1)\n"
               "  --dry-run    check the command line and the trace names only\n"
               "exit: 0 done; 1 a bad or unreadable trace, or an output error; 2 bad command line\n");
}

static int cmp_trace(const void *a, const void *b)
{
    return strcmp(((const trace_t *)a)->prog, ((const trace_t *)b)->prog) != 0
               ? strcmp(((const trace_t *)a)->prog, ((const trace_t *)b)->prog)
               : (int)((const trace_t *)a)->mode - (int)((const trace_t *)b)->mode;
}

/* PROGRAM and MODE from path's last component PROGRAM.MODE.gatrace[.gz]; false if it is not so named. */
static bool parse_name(const char *path, trace_t *t)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    const char *ext = strstr(base, ".gatrace");
    if (ext == NULL || (strcmp(ext, ".gatrace") != 0 && strcmp(ext, ".gatrace.gz") != 0)) return false;
    const char *dot = NULL;
    for (const char *p = base; p < ext; p++)
        if (*p == '.') dot = p;
    if (dot == NULL || dot == base || (size_t)(dot - base) >= sizeof t->prog) return false;
    size_t ml = (size_t)(ext - dot - 1);
    if (ml == 8 && strncmp(dot + 1, "compiler", 8) == 0)
        t->mode = GA_MODE_COMPILER;
    else if (ml == 6 && strncmp(dot + 1, "hwonly", 6) == 0)
        t->mode = GA_MODE_HWONLY;
    else
        return false;
    memcpy(t->prog, base, (size_t)(dot - base));
    t->prog[dot - base] = '\0';
    for (const char *p = t->prog; *p; p++)
        if (*p == ',' || *p == ' ') return false; /* a CSV cell */
    t->path = path;
    return true;
}

/* The hash of a file's bytes, continuing h. Exits 1 when it cannot be read. */
static uint64_t hash_file(uint64_t h, const char *path)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL) die(GA_EXIT_ERROR, "%s: cannot open: %s", path, strerror(errno));
    unsigned char buf[65536];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0) h = ga_shard_hash(h, buf, n);
    if (ferror(f)) die(GA_EXIT_ERROR, "%s: read error", path);
    fclose(f);
    return h;
}

static const char k_cols[] = "program,mode,layout,mlb,kernels,global_accesses,loadmeta,loadmeta_unchecked,"
                             "loadmeta_hits,walks,walk_steps,walk_max,memcheck_g,memcheck_s,access,fetches,"
                             "fetch_hits,md_reads,live_peak,md_bytes_peak,ws_max,detections,errors";

int main(int argc, char **argv)
{
    const char *out = NULL;
    ga_shard_t sh = {0, 1};
    uint64_t seed = 1;
    bool dry = false, have_shard = false, have_seed = false;
    trace_t *tr = calloc((size_t)argc, sizeof *tr);
    size_t nt = 0;
    char msg[1400];
    if (tr == NULL) die(GA_EXIT_ERROR, "out of memory");
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            usage(stdout);
            return GA_EXIT_OK;
        }
        if (strcmp(a, "--dry-run") == 0) {
            dry = true;
        } else if (strcmp(a, "-o") == 0 || strcmp(a, "--shard") == 0 || strcmp(a, "--seed") == 0) {
            if (i + 1 >= argc) die(GA_EXIT_USAGE, "missing value for %s (see gasweep --help)", a);
            const char *v = argv[++i];
            if (strcmp(a, "-o") == 0) {
                if (out != NULL) die(GA_EXIT_USAGE, "-o given twice");
                out = v;
            } else if (strcmp(a, "--shard") == 0) {
                if (have_shard) die(GA_EXIT_USAGE, "--shard given twice");
                have_shard = true;
                if (ga_shard_parse(v, &sh, msg, sizeof msg) != 0) die(GA_EXIT_USAGE, "%s", msg);
            } else {
                char *end;
                if (have_seed) die(GA_EXIT_USAGE, "--seed given twice");
                have_seed = true;
                errno = 0;
                seed = strtoull(v, &end, 0);
                if (errno || end == v || *end != '\0' || v[0] == '-') die(GA_EXIT_USAGE, "bad --seed '%s'", v);
            }
        } else if (a[0] == '-' && a[1] != '\0') {
            die(GA_EXIT_USAGE, "unknown option '%s' (see gasweep --help)", a);
        } else {
            if (!parse_name(a, &tr[nt]))
                die(GA_EXIT_USAGE, "%s: expected a trace named PROGRAM.compiler.gatrace[.gz] or "
                                   "PROGRAM.hwonly.gatrace[.gz]", a);
            nt++;
        }
    }
    if (out == NULL || nt == 0) die(GA_EXIT_USAGE, "expected -o FILE and at least one trace (see gasweep --help)");
    for (size_t i = 0; i < nt; i++)
        if (strcmp(tr[i].path, out) == 0) die(GA_EXIT_USAGE, "the output %s is also an input", out);
    qsort(tr, nt, sizeof *tr, cmp_trace);
    for (size_t i = 1; i < nt; i++)
        if (strcmp(tr[i].prog, tr[i - 1].prog) == 0 && tr[i].mode == tr[i - 1].mode)
            die(GA_EXIT_USAGE, "two traces of %s in %s mode: %s and %s", tr[i].prog,
                tr[i].mode == GA_MODE_COMPILER ? "compiler" : "hwonly", tr[i - 1].path, tr[i].path);
    if (dry) {
        printf("gasweep: dry run: the command line is valid (%zu traces)\n", nt);
        return GA_EXIT_OK;
    }

    unit_t *u = calloc(nt * NLAY * NMLB, sizeof *u);
    if (u == NULL) die(GA_EXIT_ERROR, "out of memory");
    size_t nu = 0;
    char buf[512];
    int len = snprintf(buf, sizeof buf, "gasweep v1 seed=%" PRIu64, seed);
    uint64_t spec = ga_shard_hash(GA_SHARD_HASH0, buf, (size_t)len);
    for (unsigned t = 0; t < nt; t++) {
        len = snprintf(buf, sizeof buf, "|%s.%d|", tr[t].prog, (int)tr[t].mode);
        spec = hash_file(ga_shard_hash(spec, buf, (size_t)len), tr[t].path);
        if (tr[t].mode == GA_MODE_COMPILER) {
            for (int l = 0; l < NLAY; l++)
                for (int m = 0; m < NMLB; m++) u[nu++] = (unit_t){t, k_lay[l], k_mlb[m]};
        } else {
            u[nu++] = (unit_t){t, GA_LAYOUT_BST, 8};
            u[nu++] = (unit_t){t, GA_LAYOUT_BST, 16};
            u[nu++] = (unit_t){t, GA_LAYOUT_INDEX, 8};
            u[nu++] = (unit_t){t, GA_LAYOUT_INDEX, 16};
        }
    }
    ga_shard_out_t *so;
    if (ga_shard_open(&so, out, "gasweep", nu, spec, k_cols, msg, sizeof msg) != 0) die(GA_EXIT_ERROR, "%s", msg);
    uint64_t mine = 0, ran = 0;
    for (size_t i = 0; i < nu; i++) {
        if (!ga_shard_owns(&sh, i)) continue;
        mine++;
        if (ga_shard_done(so, i)) continue;
        const trace_t *t = &tr[u[i].t];
        ga_sweep_cfg_t c;
        ga_sweep_default_cfg(&c);
        c.mode = t->mode;
        c.layout = u[i].layout;
        c.mlb = u[i].mlb;
        c.seed = seed;
        ga_sweep_res_t r;
        if (ga_sweep_run(t->path, &c, &r, msg, sizeof msg) != 0) die(GA_EXIT_ERROR, "%s", msg);
        const ga_mlu_stats_t *m = &r.st.mlu;
        char cells[1024];
        snprintf(cells, sizeof cells,
                 "%s,%s,%s,%u,%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64
                 ",%" PRIu32 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64
                 ",%" PRIu64 ",%" PRIu32 ",%" PRIu64 ",%" PRIu64,
                 t->prog, t->mode == GA_MODE_COMPILER ? "compiler" : "hwonly", ga_layout_name(u[i].layout), u[i].mlb,
                 r.kernels, r.st.global_accesses, m->loadmeta, m->loadmeta_unchecked, m->loadmeta_hits, m->walks,
                 m->walk_steps, m->walk_max, m->memcheck_g, m->memcheck_s, m->access, m->fetches, m->fetch_hits,
                 m->md_reads, r.st.live_peak, r.st.md_bytes_peak, r.ws_max, r.st.detections, r.st.errors);
        if (ga_shard_row(so, i, cells, msg, sizeof msg) != 0) die(GA_EXIT_ERROR, "%s", msg);
        ran++;
    }
    uint64_t kept = ga_shard_kept(so);
    if (ga_shard_close(so, msg, sizeof msg) != 0) die(GA_EXIT_ERROR, "%s", msg);
    fprintf(stderr, "gasweep: shard %u/%u: %" PRIu64 " of %zu units are this shard's; %" PRIu64 " run now, %" PRIu64
                    " kept from an earlier run (%s)\n", sh.index, sh.count, mine, nu, ran, kept, out);
    free(u);
    free(tr);
    return GA_EXIT_OK;
}
