/*
 * ga_cli.c — gasim (replay a trace, report figures and detections) and gaconv (convert a trace to
 * canonical gatrace, plain or gzip). docs/traces.md §9–§10 describe both; ga_cli.h the conventions.
 */
#include "ga_cli.h"

#include "ga_accelsim.h"
#include "ga_replay.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>

/* ---------------------------------------------------------------------------------------------------
 * Option parsing. */

typedef struct {
    int argc;
    char **argv;
    int i;
    const char *opt;   /* current option name, "--x" */
    const char *inl;   /* value given as --x=value, or NULL */
    FILE *errf;
    const char *prog;
} args_t;

/* The value of the current option (inline or next argument); NULL after printing an error. */
static const char *arg_value(args_t *a)
{
    if (a->inl) return a->inl;
    if (a->i + 1 >= a->argc) {
        fprintf(a->errf, "%s: option %s needs a value\n", a->prog, a->opt);
        return NULL;
    }
    return a->argv[++a->i];
}

/* The current option's value as an integer in lo..hi; -1 after printing an error. */
static int arg_uint(args_t *a, uint64_t lo, uint64_t hi, uint64_t *out)
{
    const char *v = arg_value(a);
    if (v == NULL) return -1;
    uint64_t x;
    if (ga_parse_uint(v, strlen(v), UINT64_MAX, &x) != 0 || x < lo || x > hi) {
        fprintf(a->errf, "%s: %s: expected an integer in %" PRIu64 "..%" PRIu64 ", got '%s'\n", a->prog, a->opt, lo, hi,
                v);
        return -1;
    }
    *out = x;
    return 0;
}

/* One of the words of choices (NULL-terminated); index into *out. */
static int arg_choice(args_t *a, const char *const *choices, int *out)
{
    const char *v = arg_value(a);
    if (v == NULL) return -1;
    for (int k = 0; choices[k]; k++)
        if (strcmp(v, choices[k]) == 0) {
            *out = k;
            return 0;
        }
    fprintf(a->errf, "%s: %s: expected one of", a->prog, a->opt);
    for (int k = 0; choices[k]; k++) fprintf(a->errf, "%s %s", k ? "," : "", choices[k]);
    fprintf(a->errf, "; got '%s'\n", v);
    return -1;
}

/* Split argv[i] into option name and inline value. Returns false for a non-option argument. */
static bool arg_next(args_t *a, char *namebuf, size_t cap)
{
    const char *s = a->argv[a->i];
    if (strncmp(s, "--", 2) != 0 && strcmp(s, "-h") != 0) return false;
    const char *eq = strchr(s, '=');
    size_t n = eq ? (size_t)(eq - s) : strlen(s);
    if (n >= cap) n = cap - 1u;
    memcpy(namebuf, s, n);
    namebuf[n] = '\0';
    a->opt = namebuf;
    a->inl = eq ? eq + 1 : NULL;
    return true;
}

/* ---------------------------------------------------------------------------------------------------
 * Output files: written to a temporary file next to the target, renamed at the end. */

typedef struct {
    char *path;  /* target, "-" for the stream */
    char *tmp;   /* temporary name */
    FILE *f;
} outfile_t;

/* Open an output: "-" is stream; otherwise a temporary file next to path (mkstemp), renamed by
 * out_close. 0, or -1 after printing an error. */
static int out_open(outfile_t *o, const char *path, FILE *stream, FILE *errf, const char *prog)
{
    memset(o, 0, sizeof *o);
    if (strcmp(path, "-") == 0) {
        o->f = stream;
        return 0;
    }
    size_t n = strlen(path);
    o->path = strdup(path);
    o->tmp = malloc(n + 16u);
    if (o->path == NULL || o->tmp == NULL) {
        fprintf(errf, "%s: out of memory\n", prog);
        return -1;
    }
    snprintf(o->tmp, n + 16u, "%s.tmp.XXXXXX", path);
    int fd = mkstemp(o->tmp);
    if (fd < 0) {
        fprintf(errf, "%s: %s: cannot create a temporary file next to it: %s\n", prog, path, strerror(errno));
        free(o->tmp);
        o->tmp = NULL;
        return -1;
    }
    o->f = fdopen(fd, "w");
    if (o->f == NULL) {
        close(fd);
        unlink(o->tmp);
        fprintf(errf, "%s: %s: %s\n", prog, path, strerror(errno));
        return -1;
    }
    return 0;
}

/* Close and rename (commit) or remove (abort). Returns 0, or -1 after printing an error. */
static int out_close(outfile_t *o, bool commit, FILE *errf, const char *prog)
{
    int rc = 0;
    if (o->path == NULL) { /* the stream */
        if (o->f && commit && fflush(o->f) != 0) rc = -1;
    } else if (o->f) {
        bool bad = ferror(o->f) != 0;
        if (fclose(o->f) != 0) bad = true;
        if (commit && !bad && rename(o->tmp, o->path) != 0) bad = true;
        if (!commit || bad) unlink(o->tmp);
        if (commit && bad) {
            fprintf(errf, "%s: %s: write failed: %s\n", prog, o->path, strerror(errno));
            rc = -1;
        }
    }
    free(o->path);
    free(o->tmp);
    memset(o, 0, sizeof *o);
    return rc;
}

/* JSON string. */
static void json_str(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\') fprintf(f, "\\%c", c);
        else if (c < 0x20 || c >= 0x7f) fprintf(f, "\\u%04x", c);
        else fputc(c, f);
    }
    fputc('"', f);
}

/* CSV field (quoted when needed). */
static void csv_str(FILE *f, const char *s)
{
    if (strpbrk(s, ",\"\n\r") == NULL) {
        fputs(s, f);
        return;
    }
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"') fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
}

/* ---------------------------------------------------------------------------------------------------
 * Progress on a terminal. */

typedef struct {
    FILE *f;
    bool tty;
    double start, last;
    bool shown;
} progress_t;

/* Monotonic time in seconds. */
static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* ga_replay progress callback: redraws the bar on a terminal, at most five times a second, and only
 * once the run has lasted two seconds. */
static void progress_cb(void *ctx, uint64_t records, uint64_t done, uint64_t total)
{
    progress_t *p = ctx;
    if (!p->tty) return;
    double t = now_s();
    if (t - p->start < 2.0 || t - p->last < 0.2) return; /* only for runs longer than a few seconds */
    p->last = t;
    p->shown = true;
    if (total) {
        double fr = done >= total ? 1.0 : (double)done / (double)total;
        int w = (int)(fr * 30.0 + 0.5);
        fprintf(p->f, "\rgasim: [%.*s%*s] %5.1f%%  %.2f M records  %.0f s", w, "##############################",
                30 - w, "", 100.0 * fr, (double)records / 1e6, t - p->start);
    } else {
        fprintf(p->f, "\rgasim: %.2f M records  %.0f s", (double)records / 1e6, t - p->start);
    }
    fflush(p->f);
}

/* Erase the bar if one was drawn. */
static void progress_end(progress_t *p)
{
    if (p->shown) {
        fprintf(p->f, "\r%70s\r", "");
        fflush(p->f);
    }
}

/* ---------------------------------------------------------------------------------------------------
 * gasim. */

static const char *const mode_names[] = {"compiler", "hwonly", NULL};
static const char *const layout_names[] = {"list", "bst", "table", NULL};
static const char *const format_names[] = {"auto", "gatrace", "accelsim", NULL};

/* gasim --help text. */
static void gasim_usage(FILE *f)
{
    fprintf(f,
            "usage: gasim --trace FILE [options]      (docs/traces.md)\n"
            "  --trace FILE          gatrace file (plain or .gz; '-' stdin) or Accel-Sim kernelslist.g\n"
            "  --format F            auto (default: kernelslist.g -> accelsim), gatrace, accelsim\n"
            "  --allocs FILE         Accel-Sim import: allocation list ('BASE SIZE' lines)\n"
            "  --mode M              compiler (default) or hwonly\n"
            "  --layout L            list, bst (default) or table\n"
            "  --mlb N               MLB entries, 1..64 (default 8)\n"
            "  --tag-bits N          7 (default) or 16\n"
            "  --seed N              runtime tag seed (default 1)\n"
            "  --sms N               model SMs, 1..128 (default: the trace header's sms, else 4)\n"
            "  --md-base ADDR        metadata region base (default 0x600000000000)\n"
            "  --md-capacity N       metadata nodes / table slots (default 1048576)\n"
            "  --step-limit N        walk bound in node reads (default 65536)\n"
            "  --l1-lines N          metadata L1 lines of 32 B per SM, direct-mapped (default 128)\n"
            "  --l1-hit C            cycles of a metadata read that hits the L1 (default 28)\n"
            "  --l1-miss C           cycles of one that misses (default 300)\n"
            "  --mlb-cycles C        cycles of the MLB lookup of a LOADMETA (default 1)\n"
            "  --json FILE           write the report as JSON ('-': stdout, replaces the text report)\n"
            "  --csv FILE            write the summary as one CSV row with a header ('-': stdout)\n"
            "  --error-exitcode N    exit with N (1..255) when anything was detected\n"
            "  --max-detections N    detection records kept and reported (default 100000, 0: all)\n"
            "  --quiet               no text report\n"
            "  --rtl                 replay through the Verilator RTL in lockstep (needs make verilate)\n"
            "exit: 0 done; N of --error-exitcode on a detection; 1 bad trace or replay error; 2 bad options\n");
}

typedef struct {
    const char *trace, *allocs, *json, *csv;
    int format;
    bool quiet;
    bool sms_given;
    uint64_t error_exitcode;
    ga_replay_cfg_t cfg;
} gasim_opts_t;

/* a / b, 0 when b is 0. */
static double ratio(uint64_t a, uint64_t b) { return b ? (double)a / (double)b : 0.0; }

/* The text report of docs/traces.md §10. */
static void print_text(FILE *f, const char *name, const ga_replay_t *rp)
{
    const ga_replay_stats_t *s = ga_replay_stats(rp);
    const ga_replay_cfg_t *c = ga_replay_cfg(rp);
    const ga_mlu_stats_t *m = &s->mlu;
    uint64_t lookups = m->loadmeta - m->loadmeta_unchecked;
    uint64_t recs = 0;
    for (int k = 0; k < (int)GA_TEV_KINDS; k++) recs += s->records[k];
    fprintf(f, "gasim: %s: %s mode, %s layout, %u-entry MLB, %u-bit tags, %u SM%s, seed %" PRIu64 "\n", name,
            c->mode == GA_MODE_HWONLY ? "HWOnly" : "compiler", ga_layout_name(c->layout), c->mlb_entries, c->tag_bits,
            c->sms, c->sms == 1 ? "" : "s", c->seed);
    fprintf(f, "  records            %" PRIu64 ":", recs);
    for (int k = 0; k < (int)GA_TEV_KINDS; k++)
        fprintf(f, " %s %" PRIu64, ga_tev_name((ga_tev_kind_t)k), s->records[k]);
    fprintf(f, "\n  accesses           global %" PRIu64 " (%" PRIu64 " lanes), shared %" PRIu64 " (%" PRIu64 " lanes)",
            s->global_accesses, s->global_lanes, s->shared_accesses, s->shared_lanes);
    if (s->unchecked_accesses) fprintf(f, ", %" PRIu64 " global uninstrumented (root=none)", s->unchecked_accesses);
    if (s->shared_unchecked) fprintf(f, ", %" PRIu64 " shared unchecked (HWOnly)", s->shared_unchecked);
    fprintf(f, "\n  operations         LOADMETA %" PRIu64 ", MEMCHECK.G %" PRIu64 ", MEMCHECK.S %" PRIu64
               ", plain accesses %" PRIu64 " (total %" PRIu64 ")\n",
            m->loadmeta, m->memcheck_g, m->memcheck_s, m->access,
            m->loadmeta + m->memcheck_g + m->memcheck_s + m->access);
    fprintf(f, "  LOADMETA           %" PRIu64 " looked up (%" PRIu64 " tag 0 / freed tag: no lookup), %" PRIu64
               " returned no metadata\n",
            lookups, m->loadmeta_unchecked, m->loadmeta_zero);
    fprintf(f, "  MLB hit rate       %.2f %% of LOADMETA lookups (%" PRIu64 "/%" PRIu64 "); MEMCHECK.G fetches %"
               PRIu64 ", %.2f %% MLB hits\n",
            100.0 * ratio(m->loadmeta_hits, lookups), m->loadmeta_hits, lookups, m->fetches,
            100.0 * ratio(m->fetch_hits, m->fetches));
    fprintf(f, "  metadata reads     %" PRIu64 " (%" PRIu64 " bytes): %.3f node reads per LOADMETA, %.1f reads per 1000"
               " global accesses\n",
            m->md_reads, m->md_read_bytes, ratio(m->walk_steps, m->loadmeta), 1000.0 * ratio(m->md_reads, s->global_accesses));
    fprintf(f, "  walks              %" PRIu64 ": length mean %.2f, max %" PRIu32 " node reads; ends: found %" PRIu64
               ", range only %" PRIu64 ", not found %" PRIu64 ", step limit %" PRIu64 ", fault %" PRIu64 "\n",
            m->walks, ratio(m->walk_steps, m->walks), m->walk_max, m->walk_end[GA_WALK_FOUND],
            m->walk_end[GA_WALK_RANGE_ONLY], m->walk_end[GA_WALK_NOT_FOUND], m->walk_end[GA_WALK_STEP_LIMIT],
            m->walk_end[GA_WALK_FAULT]);
    fprintf(f, "  latency (cycles)   LOADMETA mean %.1f, max %" PRIu64 "; MEMCHECK.G mean %.1f, max %" PRIu64
               "; metadata L1 %" PRIu64 " hits, %" PRIu64 " misses (%.2f %% hits; %u lines, %u/%u cycles)\n",
            ratio(s->loadmeta_cycles, m->loadmeta), s->loadmeta_cycles_max, ratio(s->memcheck_g_cycles, m->memcheck_g),
            s->memcheck_g_cycles_max, s->l1_hits, s->l1_misses, 100.0 * ratio(s->l1_hits, s->l1_hits + s->l1_misses),
            c->l1_lines, c->l1_hit, c->l1_miss);
    fprintf(f, "  metadata storage   %" PRIu64 " bytes at the end, %" PRIu64 " peak; live allocations %" PRIu64
               " at the end, %" PRIu64 " peak\n",
            s->md_bytes_end, s->md_bytes_peak, s->live_end, s->live_peak);
    fprintf(f, "  MLB fills          %" PRIu64 " (%" PRIu64 " dropped), invalidations %" PRIu64 "\n", m->fills,
            m->fills_dropped, m->invalidates);
    fprintf(f, "  detections         %" PRIu64, s->detections);
    if (s->detections) {
        const char *sep = " (";
        for (int k = 1; k < GA_EXC_KINDS; k++)
            if (s->detections_by_kind[k]) {
                fprintf(f, "%s%s %" PRIu64, sep, ga_exc_name((ga_exc_kind_t)k), s->detections_by_kind[k]);
                sep = ", ";
            }
        fprintf(f, "), %" PRIu64 " failing lanes", s->faulting_lanes);
    }
    fputc('\n', f);
    const ga_detection_t *d;
    size_t nd = ga_replay_detections(rp, &d);
    char line[1024];
    for (size_t i = 0; i < nd; i++) {
        ga_replay_format_detection(rp, name, &d[i], line, sizeof line);
        fprintf(f, "    %s\n", line);
    }
    if (nd < s->detections)
        fprintf(f, "    ... and %" PRIu64 " more (raise --max-detections)\n", s->detections - (uint64_t)nd);
}

/* One metadata entry as a JSON member ", KEY: {id, base, size, tag}". */
static void json_entry(FILE *f, const char *key, bool named, uint64_t id, ga_entry_t e, unsigned tb)
{
    fprintf(f, ", \"%s\": {", key);
    if (named) fprintf(f, "\"id\": \"a%" PRIu64 "\", ", id);
    fprintf(f, "\"base\": \"0x%" PRIx64 "\", \"size\": %" PRIu64 ", \"tag\": %" PRIu64 "}", ga_va_of(e.tb, tb), e.size,
            ga_tag_of(e.tb, tb));
}

/* The JSON report: every figure of the text report and every kept detection. */
static void print_json(FILE *f, const char *name, const ga_replay_t *rp)
{
    const ga_replay_stats_t *s = ga_replay_stats(rp);
    const ga_replay_cfg_t *c = ga_replay_cfg(rp);
    const ga_mlu_stats_t *m = &s->mlu;
    uint64_t lookups = m->loadmeta - m->loadmeta_unchecked;
    fprintf(f, "{\n  \"tool\": \"gasim\", \"format_version\": %u,\n  \"trace\": ", GA_TRACE_VERSION);
    json_str(f, name);
    fprintf(f, ",\n  \"config\": {\"mode\": \"%s\", \"layout\": \"%s\", \"mlb_entries\": %u, \"tag_bits\": %u, "
               "\"sms\": %u, \"seed\": %" PRIu64 ", \"l1_lines\": %" PRIu32 ", \"l1_hit\": %" PRIu32
               ", \"l1_miss\": %" PRIu32 ", \"mlb_cycles\": %" PRIu32 ", \"check_cycles\": %" PRIu32 "},\n",
            mode_names[c->mode], layout_names[c->layout], c->mlb_entries, c->tag_bits, c->sms, c->seed, c->l1_lines,
            c->l1_hit, c->l1_miss, c->mlb_cycles, c->check_cycles);
    fprintf(f, "  \"records\": {");
    for (int k = 0; k < (int)GA_TEV_KINDS; k++)
        fprintf(f, "%s\"%s\": %" PRIu64, k ? ", " : "", ga_tev_name((ga_tev_kind_t)k), s->records[k]);
    fprintf(f, "},\n  \"accesses\": {\"global\": %" PRIu64 ", \"global_lanes\": %" PRIu64 ", \"shared\": %" PRIu64
               ", \"shared_lanes\": %" PRIu64 ", \"global_uninstrumented\": %" PRIu64 ", \"shared_unchecked\": %"
               PRIu64 "},\n",
            s->global_accesses, s->global_lanes, s->shared_accesses, s->shared_lanes, s->unchecked_accesses,
            s->shared_unchecked);
    fprintf(f, "  \"operations\": {\"loadmeta\": %" PRIu64 ", \"loadmeta_no_lookup\": %" PRIu64 ", \"loadmeta_zero\": %"
               PRIu64 ", \"memcheck_g\": %" PRIu64 ", \"memcheck_s\": %" PRIu64 ", \"access\": %" PRIu64 "},\n",
            m->loadmeta, m->loadmeta_unchecked, m->loadmeta_zero, m->memcheck_g, m->memcheck_s, m->access);
    fprintf(f, "  \"mlb\": {\"loadmeta_lookups\": %" PRIu64 ", \"loadmeta_hits\": %" PRIu64 ", \"hit_rate\": %.6f, "
               "\"fetches\": %" PRIu64 ", \"fetch_hits\": %" PRIu64 ", \"fills\": %" PRIu64 ", \"fills_dropped\": %"
               PRIu64 ", \"invalidates\": %" PRIu64 "},\n",
            lookups, m->loadmeta_hits, ratio(m->loadmeta_hits, lookups), m->fetches, m->fetch_hits, m->fills,
            m->fills_dropped, m->invalidates);
    fprintf(f, "  \"metadata_reads\": {\"reads\": %" PRIu64 ", \"bytes\": %" PRIu64 ", \"per_loadmeta\": %.6f, "
               "\"per_1000_global_accesses\": %.6f},\n",
            m->md_reads, m->md_read_bytes, ratio(m->walk_steps, m->loadmeta),
            1000.0 * ratio(m->md_reads, s->global_accesses));
    fprintf(f, "  \"walks\": {\"count\": %" PRIu64 ", \"steps\": %" PRIu64 ", \"mean\": %.6f, \"max\": %" PRIu32
               ", \"found\": %" PRIu64 ", \"range_only\": %" PRIu64 ", \"not_found\": %" PRIu64 ", \"step_limit\": %"
               PRIu64 ", \"fault\": %" PRIu64 "},\n",
            m->walks, m->walk_steps, ratio(m->walk_steps, m->walks), m->walk_max, m->walk_end[0], m->walk_end[1],
            m->walk_end[2], m->walk_end[3], m->walk_end[4]);
    fprintf(f, "  \"latency\": {\"loadmeta_mean\": %.6f, \"loadmeta_max\": %" PRIu64 ", \"loadmeta_total\": %" PRIu64
               ", \"memcheck_g_mean\": %.6f, \"memcheck_g_max\": %" PRIu64 ", \"l1_hits\": %" PRIu64 ", \"l1_misses\": %"
               PRIu64 "},\n",
            ratio(s->loadmeta_cycles, m->loadmeta), s->loadmeta_cycles_max, s->loadmeta_cycles,
            ratio(s->memcheck_g_cycles, m->memcheck_g), s->memcheck_g_cycles_max, s->l1_hits, s->l1_misses);
    fprintf(f, "  \"metadata_bytes\": {\"end\": %" PRIu64 ", \"peak\": %" PRIu64 "},\n  \"live_allocations\": {\"end\": %"
               PRIu64 ", \"peak\": %" PRIu64 "},\n",
            s->md_bytes_end, s->md_bytes_peak, s->live_end, s->live_peak);
    fprintf(f, "  \"detections\": {\"count\": %" PRIu64 ", \"failing_lanes\": %" PRIu64 ", \"by_kind\": {",
            s->detections, s->faulting_lanes);
    for (int k = 1; k < GA_EXC_KINDS; k++)
        fprintf(f, "%s\"%s\": %" PRIu64, k > 1 ? ", " : "", ga_exc_name((ga_exc_kind_t)k), s->detections_by_kind[k]);
    fprintf(f, "},\n    \"list\": [");
    const ga_detection_t *d;
    size_t nd = ga_replay_detections(rp, &d);
    unsigned tb = c->tag_bits;
    for (size_t i = 0; i < nd; i++) {
        const ga_detection_t *x = &d[i];
        fprintf(f, "%s\n      {\"file\": ", i ? "," : "");
        json_str(f, ga_replay_file_name(rp, x->file));
        fprintf(f, ", \"line\": %" PRIu64 ", \"kernel\": ", x->line);
        json_str(f, ga_replay_kernel_name(rp, x->kernel));
        fprintf(f, ", \"kind\": \"%s\", \"op\": \"%s\", \"sm\": %u, \"warp\": %u, \"lane\": %u, \"addr\": \"0x%016"
                   PRIx64 "\", \"size\": %" PRIu32 ", \"fault_mask\": \"0x%08" PRIx32 "\", \"md\": \"0x%" PRIx64 "\"",
                ga_exc_name(x->rec.kind), ga_tev_name(x->op), (unsigned)x->trace_sm, (unsigned)x->rec.warp,
                (unsigned)x->rec.lane, x->rec.addr, x->rec.size, x->fault_mask, x->rec.md);
        if (x->op == GA_TEV_LDS || x->op == GA_TEV_STS) {
            fprintf(f, ", \"shared\": {\"base\": %" PRIu64 ", \"size\": %" PRIu64 "}", x->rec.entry.tb,
                    x->rec.entry.size);
        } else {
            if (x->rec.entry.size || x->rec.entry.tb)
                json_entry(f, "checked_against", x->checked_named, x->checked_id, x->rec.entry, tb);
            if (x->in_entry) {
                json_entry(f, "inside", x->entry_named, x->entry_id, x->entry, tb);
                fprintf(f, ", \"inside_freed\": %s", x->entry_freed ? "true" : "false");
            }
            if (x->near_found) {
                json_entry(f, "nearest_live", x->near_named, x->near_id, x->near, tb);
                fprintf(f, ", \"nearest_distance\": %" PRIu64, x->near_dist);
            }
        }
        fputc('}', f);
    }
    fprintf(f, "%s]}\n}\n", nd ? "\n    " : "");
}

/* The CSV summary: a header row and one row of figures. */
static void print_csv(FILE *f, const char *name, const ga_replay_t *rp)
{
    const ga_replay_stats_t *s = ga_replay_stats(rp);
    const ga_replay_cfg_t *c = ga_replay_cfg(rp);
    const ga_mlu_stats_t *m = &s->mlu;
    uint64_t lookups = m->loadmeta - m->loadmeta_unchecked;
    fprintf(f, "trace,mode,layout,mlb_entries,tag_bits,sms,seed,global_accesses,shared_accesses,loadmeta,"
               "loadmeta_lookups,loadmeta_mlb_hits,mlb_hit_rate,memcheck_g,memcheck_s,plain_accesses,md_reads,"
               "md_reads_per_loadmeta,md_reads_per_1000_global,walks,walk_mean,walk_max,loadmeta_cycles_mean,"
               "loadmeta_cycles_max,memcheck_g_cycles_mean,l1_hits,l1_misses,md_bytes_end,md_bytes_peak,detections");
    for (int k = 1; k < GA_EXC_KINDS; k++) fprintf(f, ",%s", ga_exc_name((ga_exc_kind_t)k));
    fputc('\n', f);
    csv_str(f, name);
    fprintf(f, ",%s,%s,%u,%u,%u,%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%.6f,%" PRIu64
               ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%.6f,%.6f,%" PRIu64 ",%.6f,%" PRIu32 ",%.6f,%" PRIu64 ",%.6f,%"
               PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64,
            mode_names[c->mode], layout_names[c->layout], c->mlb_entries, c->tag_bits, c->sms, c->seed,
            s->global_accesses, s->shared_accesses, m->loadmeta, lookups, m->loadmeta_hits,
            ratio(m->loadmeta_hits, lookups), m->memcheck_g, m->memcheck_s, m->access, m->md_reads,
            ratio(m->walk_steps, m->loadmeta), 1000.0 * ratio(m->md_reads, s->global_accesses), m->walks,
            ratio(m->walk_steps, m->walks), m->walk_max, ratio(s->loadmeta_cycles, m->loadmeta), s->loadmeta_cycles_max,
            ratio(s->memcheck_g_cycles, m->memcheck_g), s->l1_hits, s->l1_misses, s->md_bytes_end, s->md_bytes_peak,
            s->detections);
    for (int k = 1; k < GA_EXC_KINDS; k++) fprintf(f, ",%" PRIu64, s->detections_by_kind[k]);
    fputc('\n', f);
}

/* Open the reader for a trace given the format choice (0 auto, 1 gatrace, 2 accelsim). */
static int open_trace(ga_trace_reader_t **r, const char *path, int format, const char *allocs, unsigned sms,
                      ga_trace_err_t *err)
{
    bool accel = format == 2 || (format == 0 && ga_accelsim_is_kernelslist(path));
    if (!accel) return ga_trace_open(r, path, err);
    ga_accelsim_opts_t ao;
    ga_accelsim_default_opts(&ao);
    if (sms) ao.sms = sms;
    ao.allocs_path = allocs;
    ga_line_src_t src;
    *r = NULL;
    if (ga_accelsim_src(&src, path, &ao, err) != 0) return -1;
    return ga_trace_open_src(r, &src, err);
}

/* See ga_cli.h and docs/traces.md §10. */
int ga_gasim_main(int argc, char **argv, FILE *out, FILE *errf)
{
    static const char prog[] = "gasim";
    gasim_opts_t o;
    memset(&o, 0, sizeof o);
    ga_replay_default_cfg(&o.cfg);
    args_t a = {argc, argv, 1, NULL, NULL, errf, prog};
    char name[64];
    for (; a.i < argc; a.i++) {
        if (!arg_next(&a, name, sizeof name)) {
            fprintf(errf, "%s: unexpected argument '%s' (the trace is given with --trace FILE)\n", prog, argv[a.i]);
            return 2;
        }
        uint64_t v;
        int ch;
        const char *s;
        bool flag = false;
        if (!strcmp(name, "--help") || !strcmp(name, "-h")) {
            gasim_usage(out);
            return 0;
        } else if (!strcmp(name, "--trace")) {
            if ((s = arg_value(&a)) == NULL) return 2;
            o.trace = s;
        } else if (!strcmp(name, "--format")) {
            if (arg_choice(&a, format_names, &o.format)) return 2;
        } else if (!strcmp(name, "--allocs")) {
            if ((s = arg_value(&a)) == NULL) return 2;
            o.allocs = s;
        } else if (!strcmp(name, "--mode")) {
            if (arg_choice(&a, mode_names, &ch)) return 2;
            o.cfg.mode = (ga_mode_t)ch;
        } else if (!strcmp(name, "--layout")) {
            if (arg_choice(&a, layout_names, &ch)) return 2;
            o.cfg.layout = (ga_layout_t)ch;
        } else if (!strcmp(name, "--mlb")) {
            if (arg_uint(&a, 1, GA_MLB_MAX, &v)) return 2;
            o.cfg.mlb_entries = (unsigned)v;
        } else if (!strcmp(name, "--tag-bits")) {
            if (arg_uint(&a, 7, 16, &v)) return 2;
            if (v != 7 && v != 16) {
                fprintf(errf, "%s: --tag-bits: expected 7 or 16, got %" PRIu64 "\n", prog, v);
                return 2;
            }
            o.cfg.tag_bits = (unsigned)v;
        } else if (!strcmp(name, "--seed")) {
            if (arg_uint(&a, 0, UINT64_MAX, &v)) return 2;
            o.cfg.seed = v;
        } else if (!strcmp(name, "--sms")) {
            if (arg_uint(&a, 1, GA_SYSTEM_MAX_SMS, &v)) return 2;
            o.cfg.sms = (unsigned)v;
        } else if (!strcmp(name, "--md-base")) {
            if (arg_uint(&a, 32, UINT64_MAX, &v)) return 2;
            o.cfg.md_base = v;
        } else if (!strcmp(name, "--md-capacity")) {
            if (arg_uint(&a, 1, UINT32_MAX, &v)) return 2;
            o.cfg.md_capacity = (uint32_t)v;
        } else if (!strcmp(name, "--step-limit")) {
            if (arg_uint(&a, 1, UINT32_MAX, &v)) return 2;
            o.cfg.step_limit = (uint32_t)v;
        } else if (!strcmp(name, "--l1-lines")) {
            if (arg_uint(&a, 1, 65536, &v)) return 2;
            o.cfg.l1_lines = (uint32_t)v;
        } else if (!strcmp(name, "--l1-hit")) {
            if (arg_uint(&a, 0, 1000000, &v)) return 2;
            o.cfg.l1_hit = (uint32_t)v;
        } else if (!strcmp(name, "--l1-miss")) {
            if (arg_uint(&a, 0, 1000000, &v)) return 2;
            o.cfg.l1_miss = (uint32_t)v;
        } else if (!strcmp(name, "--mlb-cycles")) {
            if (arg_uint(&a, 0, 1000000, &v)) return 2;
            o.cfg.mlb_cycles = (uint32_t)v;
        } else if (!strcmp(name, "--json")) {
            if ((s = arg_value(&a)) == NULL) return 2;
            o.json = s;
        } else if (!strcmp(name, "--csv")) {
            if ((s = arg_value(&a)) == NULL) return 2;
            o.csv = s;
        } else if (!strcmp(name, "--error-exitcode")) {
            if (arg_uint(&a, 1, 255, &v)) return 2;
            o.error_exitcode = v;
        } else if (!strcmp(name, "--max-detections")) {
            if (arg_uint(&a, 0, SIZE_MAX, &v)) return 2;
            o.cfg.max_detections = (size_t)v;
        } else if (!strcmp(name, "--quiet")) {
            flag = true;
            o.quiet = true;
        } else if (!strcmp(name, "--rtl")) {
            flag = true;
            o.cfg.rtl = true;
        } else {
            fprintf(errf, "%s: unknown option '%s' (see gasim --help)\n", prog, name);
            return 2;
        }
        if (flag && a.inl) {
            fprintf(errf, "%s: option %s takes no value\n", prog, name);
            return 2;
        }
    }
    if (o.trace == NULL) {
        fprintf(errf, "%s: no trace given: use --trace FILE (see gasim --help)\n", prog);
        return 2;
    }
    bool accel = o.format == 2 || (o.format == 0 && ga_accelsim_is_kernelslist(o.trace));
    if (o.allocs && !accel) {
        fprintf(errf, "%s: --allocs applies to Accel-Sim traces only (--format accelsim or a kernelslist.g)\n", prog);
        return 2;
    }
    if (o.json && o.csv && !strcmp(o.json, "-") && !strcmp(o.csv, "-")) {
        fprintf(errf, "%s: --json - and --csv - cannot both write to stdout\n", prog);
        return 2;
    }
    bool text = !o.quiet && !(o.json && !strcmp(o.json, "-")) && !(o.csv && !strcmp(o.csv, "-"));

    ga_trace_err_t err;
    ga_trace_reader_t *r = NULL;
    if (open_trace(&r, o.trace, o.format, o.allocs, o.cfg.sms, &err) != 0) {
        fprintf(errf, "%s: %s\n", prog, err.msg);
        return 1;
    }
    progress_t pg = {errf, isatty(fileno(errf)) != 0, now_s(), 0.0, false};
    ga_replay_t *rp = NULL;
    int rc = ga_replay_run(&rp, &o.cfg, r, progress_cb, &pg, &err);
    progress_end(&pg);
    if (rc != 0) {
        fprintf(errf, "%s: %s\n", prog, err.msg);
        ga_trace_close(r);
        return 1;
    }
    const char *tname = ga_trace_name(r);
    int status = 0;
    outfile_t jf, cf;
    memset(&jf, 0, sizeof jf);
    memset(&cf, 0, sizeof cf);
    if (o.json && out_open(&jf, o.json, out, errf, prog) != 0) status = 1;
    if (status == 0 && o.csv && out_open(&cf, o.csv, out, errf, prog) != 0) status = 1;
    if (status == 0) {
        if (text) print_text(out, tname, rp);
        if (jf.f) print_json(jf.f, tname, rp);
        if (cf.f) print_csv(cf.f, tname, rp);
    }
    if (o.json && out_close(&jf, status == 0, errf, prog) != 0) status = 1;
    if (o.csv && out_close(&cf, status == 0, errf, prog) != 0) status = 1;
    if (status == 0 && fflush(out) != 0) status = 1;
    if (status == 0 && o.error_exitcode && ga_replay_stats(rp)->detections) status = (int)o.error_exitcode;
    ga_replay_destroy(rp);
    ga_trace_close(r);
    return status;
}

/* ---------------------------------------------------------------------------------------------------
 * gaconv. */

static void gaconv_usage(FILE *f)
{
    fprintf(f,
            "usage: gaconv [options] IN OUT      (docs/traces.md §9)\n"
            "  Reads IN (gatrace, plain or .gz; or an Accel-Sim kernelslist.g) and writes it as canonical\n"
            "  gatrace to OUT ('-': stdout; a name ending in .gz is written gzip-compressed). OUT is written\n"
            "  only when the whole input was read without error.\n"
            "  --format F      auto (default), gatrace, accelsim\n"
            "  --allocs FILE   Accel-Sim import: allocation list ('BASE SIZE' lines)\n"
            "  --sms N         Accel-Sim import: SMs thread blocks are spread over (default 4)\n");
}

/* Writes lines to a FILE or a gzip stream. */
typedef struct {
    FILE *f;
    gzFile gz;
} sink_t;

/* Write one line and its newline to the plain or gzip sink; 0 or -1. */
static int sink_line(sink_t *s, const char *buf, size_t n)
{
    if (s->gz) {
        if (n && gzwrite(s->gz, buf, (unsigned)n) != (int)n) return -1;
        return gzputc(s->gz, '\n') == '\n' ? 0 : -1;
    }
    if (fwrite(buf, 1, n, s->f) != n) return -1;
    return fputc('\n', s->f) == '\n' ? 0 : -1;
}

/* See ga_cli.h and docs/traces.md §10 (gaconv). */
int ga_gaconv_main(int argc, char **argv, FILE *out, FILE *errf)
{
    static const char prog[] = "gaconv";
    const char *in = NULL, *outp = NULL, *allocs = NULL;
    int format = 0;
    uint64_t sms = 0;
    args_t a = {argc, argv, 1, NULL, NULL, errf, prog};
    char name[64];
    for (; a.i < argc; a.i++) {
        if (!arg_next(&a, name, sizeof name) || !strcmp(argv[a.i], "-")) {
            if (in == NULL) in = argv[a.i];
            else if (outp == NULL) outp = argv[a.i];
            else {
                fprintf(errf, "%s: unexpected argument '%s'\n", prog, argv[a.i]);
                return 2;
            }
            continue;
        }
        if (!strcmp(name, "--help") || !strcmp(name, "-h")) {
            gaconv_usage(out);
            return 0;
        } else if (!strcmp(name, "--format")) {
            if (arg_choice(&a, format_names, &format)) return 2;
        } else if (!strcmp(name, "--allocs")) {
            if ((allocs = arg_value(&a)) == NULL) return 2;
        } else if (!strcmp(name, "--sms")) {
            if (arg_uint(&a, 1, 65536, &sms)) return 2;
        } else {
            fprintf(errf, "%s: unknown option '%s' (see gaconv --help)\n", prog, name);
            return 2;
        }
    }
    if (in == NULL || outp == NULL) {
        fprintf(errf, "%s: expected IN and OUT (see gaconv --help)\n", prog);
        return 2;
    }
    ga_trace_err_t err;
    ga_trace_reader_t *r = NULL;
    if (open_trace(&r, in, format, allocs, (unsigned)sms, &err) != 0) {
        fprintf(errf, "%s: %s\n", prog, err.msg);
        return 1;
    }
    /* Standard output gets the text only after a complete conversion: collect it in a temporary
     * file first. */
    bool to_stdout = strcmp(outp, "-") == 0;
    FILE *spool = to_stdout ? tmpfile() : NULL;
    if (to_stdout && spool == NULL) {
        fprintf(errf, "%s: cannot create a temporary file: %s\n", prog, strerror(errno));
        ga_trace_close(r);
        return 1;
    }
    outfile_t of;
    if (out_open(&of, outp, to_stdout ? spool : out, errf, prog) != 0) {
        ga_trace_close(r);
        return 1;
    }
    sink_t sk = {of.f, NULL};
    size_t ol = strlen(outp);
    if (of.path && ol > 3 && !strcmp(outp + ol - 3, ".gz")) {
        fflush(of.f);
        int fd = dup(fileno(of.f));
        sk.gz = fd >= 0 ? gzdopen(fd, "wb6") : NULL;
        if (sk.gz == NULL) {
            if (fd >= 0) close(fd);
            fprintf(errf, "%s: %s: cannot start gzip output\n", prog, outp);
            out_close(&of, false, errf, prog);
            ga_trace_close(r);
            return 1;
        }
    }
    int status = 0;
    ga_tev_t ev;
    int rc = ga_trace_next(r, &ev, &err);
    char buf[GA_TRACE_LINE_MAX];
    if (rc >= 0) {
        int n = ga_trace_format_header(ga_trace_header(r), buf, sizeof buf);
        if (n < 0 || sink_line(&sk, buf, (size_t)n) != 0) status = 1;
    }
    while (rc > 0 && status == 0) {
        int n = ga_trace_format_event(&ev, buf, sizeof buf);
        if (n < 0 || sink_line(&sk, buf, (size_t)n) != 0) status = 1;
        else rc = ga_trace_next(r, &ev, &err);
    }
    if (rc < 0) {
        fprintf(errf, "%s: %s\n", prog, err.msg);
        status = 1;
    } else if (status) {
        fprintf(errf, "%s: %s: write failed\n", prog, outp);
    }
    if (sk.gz && gzclose(sk.gz) != Z_OK && status == 0) {
        fprintf(errf, "%s: %s: gzip write failed\n", prog, outp);
        status = 1;
    }
    if (out_close(&of, status == 0, errf, prog) != 0) status = 1;
    if (spool) {
        if (status == 0) {
            rewind(spool);
            size_t n;
            while ((n = fread(buf, 1, sizeof buf, spool)) > 0)
                if (fwrite(buf, 1, n, out) != n) status = 1;
            if (ferror(spool) || fflush(out) != 0) status = 1;
            if (status) fprintf(errf, "%s: writing standard output failed\n", prog);
        }
        fclose(spool);
    }
    ga_trace_close(r);
    return status;
}
