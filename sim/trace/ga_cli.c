/*
 * ga_cli.c — gasim (replay a trace, report figures and findings) and gaconv (convert a trace to
 * canonical gatrace, plain or gzip). docs/traces.md §9–§10 describe both; ga_cli.h the conventions.
 *
 * Command lines are checked whole before any input is opened: an unknown, repeated or malformed option
 * is a usage error (exit 2) whatever else is wrong. Reports follow Compute Sanitizer's conventions
 * where it has one (an ERROR SUMMARY line last, "N bytes after the nearest allocation at 0x... of size
 * M", --error-exitcode, --print-limit, --log-file with %p / %q{ENV}, suppressions).
 */
#include "ga_cli.h"

#include "ga_accelsim.h"
#include "ga_replay.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>

/* ---------------------------------------------------------------------------------------------------
 * Option parsing. */

#define ARGS_SEEN_MAX 64u
#define ARGS_NAME_MAX 40u

typedef struct {
    int argc;
    char **argv;
    int i;
    const char *opt;   /* current option name, "--x" */
    const char *inl;   /* value given as --x=value, or NULL */
    FILE *errf;
    const char *prog;
    char name[ARGS_NAME_MAX];
    char seen[ARGS_SEEN_MAX][ARGS_NAME_MAX]; /* options given so far (each may be given once) */
    unsigned nseen;
} args_t;

/* The value of the current option (inline or next argument); NULL after printing an error. */
static const char *arg_value(args_t *a)
{
    if (a->inl) return a->inl;
    if (a->i + 1 >= a->argc) {
        fprintf(a->errf, "%s: option %s needs a value (see %s --help)\n", a->prog, a->opt, a->prog);
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

/* Split argv[i] into option name and inline value. Returns false for a non-option argument ("-" and
 * anything not starting with "--", except -h). */
static bool arg_next(args_t *a)
{
    const char *s = a->argv[a->i];
    if ((strncmp(s, "--", 2) != 0 || s[2] == '\0') && strcmp(s, "-h") != 0) return false;
    const char *eq = strchr(s, '=');
    size_t n = eq ? (size_t)(eq - s) : strlen(s);
    if (n >= sizeof a->name) n = sizeof a->name - 1u;
    memcpy(a->name, s, n);
    a->name[n] = '\0';
    if (strcmp(a->name, "-h") == 0) strcpy(a->name, "--help");
    a->opt = a->name;
    a->inl = eq ? eq + 1 : NULL;
    return true;
}

/* Every option may be given once, except those in repeatable (NULL-terminated): a second --trace is
 * refused rather than silently winning. -1 after printing an error. */
static int arg_once(args_t *a, const char *const *repeatable)
{
    for (unsigned k = 0; repeatable && repeatable[k]; k++)
        if (strcmp(a->name, repeatable[k]) == 0) return 0;
    for (unsigned k = 0; k < a->nseen; k++)
        if (strcmp(a->seen[k], a->name) == 0) {
            fprintf(a->errf, "%s: option %s given twice (it takes one value; see %s --help)\n", a->prog, a->name,
                    a->prog);
            return -1;
        }
    if (a->nseen < ARGS_SEEN_MAX) strcpy(a->seen[a->nseen++], a->name);
    return 0;
}

/* A flag must not carry a value. -1 after printing an error. */
static int arg_flag(args_t *a)
{
    if (a->inl == NULL) return 0;
    fprintf(a->errf, "%s: option %s takes no value\n", a->prog, a->opt);
    return -1;
}

/* ---------------------------------------------------------------------------------------------------
 * Files. */

/* True when a and b name the same existing file (any path, link or name: device and inode). */
static bool same_file(const char *a, const char *b)
{
    struct stat sa, sb;
    if (strcmp(a, "-") == 0 || strcmp(b, "-") == 0) return false;
    if (stat(a, &sa) != 0 || stat(b, &sb) != 0) return false;
    return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

/* An output name with Compute Sanitizer's escapes expanded (%p the process id, %q{VAR} the value of
 * environment variable VAR, %% a %) and ours (%m the mode, %l the layout), malloc'd; NULL after
 * printing a usage error (an unknown escape, an unset variable). */
static char *expand_name(const char *pat, const char *mode, const char *layout, const char *opt, FILE *errf,
                         const char *prog)
{
    size_t cap = strlen(pat) + 64u, n = 0;
    char *o = malloc(cap);
    if (o == NULL) {
        fprintf(errf, "%s: out of memory\n", prog);
        return NULL;
    }
    for (const char *p = pat; *p; p++) {
        char num[32];
        const char *add = NULL;
        size_t addn = 1;
        if (*p != '%') {
            add = p;
        } else if (p[1] == '%') {
            add = p++;
        } else if (p[1] == 'p') {
            snprintf(num, sizeof num, "%ld", (long)getpid());
            add = num;
            addn = strlen(num);
            p++;
        } else if (p[1] == 'm' || p[1] == 'l') {
            add = p[1] == 'm' ? mode : layout;
            addn = strlen(add);
            p++;
        } else if (p[1] == 'q' && p[2] == '{' && strchr(p + 3, '}')) {
            const char *e = strchr(p + 3, '}');
            char var[128];
            size_t vn = (size_t)(e - (p + 3));
            if (vn == 0 || vn >= sizeof var) goto bad;
            memcpy(var, p + 3, vn);
            var[vn] = '\0';
            add = getenv(var);
            if (add == NULL) {
                fprintf(errf, "%s: %s '%s': environment variable %s is not set\n", prog, opt, pat, var);
                free(o);
                return NULL;
            }
            addn = strlen(add);
            p = e;
        } else {
            goto bad;
        }
        if (n + addn + 1u > cap) {
            cap = 2u * (n + addn + 1u);
            char *no = realloc(o, cap);
            if (no == NULL) {
                free(o);
                fprintf(errf, "%s: out of memory\n", prog);
                return NULL;
            }
            o = no;
        }
        memcpy(o + n, add, addn);
        n += addn;
    }
    o[n] = '\0';
    return o;
bad:
    fprintf(errf, "%s: %s '%s': unknown escape (allowed: %%p, %%q{VAR}, %%m, %%l, %%%%)\n", prog, opt, pat);
    free(o);
    return NULL;
}

/* Output files: written to a temporary file next to the target, renamed at the end. */
typedef struct {
    char *path;  /* target, NULL for the stream */
    char *tmp;   /* temporary name */
    FILE *f;
} outfile_t;

/* Open an output: "-" is stream; otherwise a new temporary file next to path, created with mode 0666
 * less the umask (what the target would get from a plain fopen), renamed by out_close. 0, or -1 after
 * printing an error (a directory, no room for the temporary file) with nothing left to free. */
static int out_open(outfile_t *o, const char *path, FILE *stream, FILE *errf, const char *prog)
{
    memset(o, 0, sizeof *o);
    if (strcmp(path, "-") == 0) {
        o->f = stream;
        return 0;
    }
    struct stat st;
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
        fprintf(errf, "%s: %s: is a directory (an output file was expected)\n", prog, path);
        return -1;
    }
    size_t n = strlen(path);
    o->path = strdup(path);
    o->tmp = malloc(n + 48u);
    if (o->path == NULL || o->tmp == NULL) {
        fprintf(errf, "%s: out of memory\n", prog);
        free(o->path);
        free(o->tmp);
        memset(o, 0, sizeof *o);
        return -1;
    }
    int fd = -1;
    for (unsigned k = 0; k < 1000u && fd < 0; k++) {
        snprintf(o->tmp, n + 48u, "%s.tmp.%ld.%u", path, (long)getpid(), k);
        fd = open(o->tmp, O_WRONLY | O_CREAT | O_EXCL, 0666);
        if (fd < 0 && errno != EEXIST) break;
    }
    if (fd < 0) {
        fprintf(errf, "%s: %s: cannot create a temporary file next to it: %s\n", prog, path, strerror(errno));
        free(o->path);
        free(o->tmp);
        memset(o, 0, sizeof *o);
        return -1;
    }
    o->f = fdopen(fd, "w");
    if (o->f == NULL) {
        close(fd);
        unlink(o->tmp);
        fprintf(errf, "%s: %s: %s\n", prog, path, strerror(errno));
        free(o->path);
        free(o->tmp);
        memset(o, 0, sizeof *o);
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

/* Length of the valid UTF-8 sequence of 2 to 4 bytes at s (no overlong form, no surrogate, at most
 * U+10FFFF), or 0. */
static size_t utf8_len(const unsigned char *s)
{
    unsigned n = s[0] >= 0xf0 && s[0] <= 0xf4 ? 4u : s[0] >= 0xe0 ? 3u : s[0] >= 0xc2 && s[0] < 0xe0 ? 2u : 0u;
    if (n == 0 || s[0] > 0xf4) return 0;
    for (unsigned i = 1; i < n; i++)
        if ((s[i] & 0xc0u) != 0x80u) return 0;
    if (n == 3 && ((s[0] == 0xe0 && s[1] < 0xa0) || (s[0] == 0xed && s[1] >= 0xa0))) return 0;
    if (n == 4 && ((s[0] == 0xf0 && s[1] < 0x90) || (s[0] == 0xf4 && s[1] >= 0x90))) return 0;
    return n;
}

/* JSON string: UTF-8 sequences as they are (JSON text is UTF-8), control characters and any byte that
 * is not part of valid UTF-8 escaped (a file name need not be UTF-8; the JSON must stay valid). */
static void json_str(FILE *f, const char *s)
{
    fputc('"', f);
    for (const unsigned char *p = (const unsigned char *)s; *p;) {
        size_t n;
        if (*p == '"' || *p == '\\') fprintf(f, "\\%c", *p);
        else if (*p < 0x20 || *p == 0x7f) fprintf(f, "\\u%04x", *p);
        else if (*p < 0x80) fputc(*p, f);
        else if ((n = utf8_len(p)) != 0) {
            fwrite(p, 1, n, f);
            p += n;
            continue;
        } else fprintf(f, "\\u%04x", *p);
        p++;
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
 * Notes and warnings collected during a run, printed in the report (text and JSON). */

#define NOTES_MAX 16u

typedef struct {
    char *msg[NOTES_MAX];
    unsigned n;
} notes_t;

static void note_add(notes_t *n, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Append a formatted note (dropped silently past NOTES_MAX or when out of memory: notes are advice). */
static void note_add(notes_t *n, const char *fmt, ...)
{
    if (n->n >= NOTES_MAX) return;
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    char *c = strdup(buf);
    if (c) n->msg[n->n++] = c;
}

/* The importer's warning hook (ga_accelsim_opts_t.warn). */
static void note_cb(void *ctx, const char *msg) { note_add(ctx, "%s", msg); }

/* Free the collected notes. */
static void notes_free(notes_t *n)
{
    for (unsigned i = 0; i < n->n; i++) free(n->msg[i]);
    n->n = 0;
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
 * once the run has lasted two seconds. The replay calls it during long walks too, so the record count
 * and the clock keep moving even while the fraction of the input does not. */
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
        fprintf(p->f, "\rgasim: [%.*s%*s] %5.1f%%  %.3f M records  %.0f s ", w, "##############################",
                30 - w, "", 100.0 * fr, (double)records / 1e6, t - p->start);
    } else {
        fprintf(p->f, "\rgasim: %.3f M records  %.0f s ", (double)records / 1e6, t - p->start);
    }
    fflush(p->f);
}

/* Erase the bar if one was drawn. */
static void progress_end(progress_t *p)
{
    if (p->shown) {
        fprintf(p->f, "\r%75s\r", "");
        fflush(p->f);
    }
}

/* Open the reader for a trace given the format choice (0 auto, 1 gatrace, 2 accelsim). */
static int open_trace(ga_trace_reader_t **r, const char *path, int format, const ga_accelsim_opts_t *ao,
                      ga_trace_err_t *err)
{
    bool accel = format == 2 || (format == 0 && ga_accelsim_is_kernelslist(path));
    *r = NULL;
    if (!accel) return ga_trace_open(r, path, err);
    ga_line_src_t src;
    if (ga_accelsim_src(&src, path, ao, err) != 0) return -1;
    return ga_trace_open_src(r, &src, err);
}

static const char *const mode_names[] = {"compiler", "hwonly", NULL};
/* The layouts of cmodel/ga_layouts.def, by code. */
static const char *const layout_names[] = {
#define GA_LAYOUT(id, code, name, rtl, title) [code] = #name,
#include "ga_layouts.def"
#undef GA_LAYOUT
    [GA_LAYOUTS] = NULL};
static const char *const format_names[] = {"auto", "gatrace", "accelsim", NULL};
static const char *const rebase_names[] = {"memcpy", NULL};

/* a / b, 0 when b is 0. */
static double ratio(uint64_t a, uint64_t b) { return b ? (double)a / (double)b : 0.0; }

/* ---------------------------------------------------------------------------------------------------
 * gasim. */

/* gasim --help text. */
static void gasim_usage(FILE *f)
{
    char layouts[128];
    (void)ga_layout_list(layouts, sizeof layouts, ", ", " or ", false);
    fprintf(f,
            "usage: gasim --trace FILE [options]      (docs/traces.md §10)\n"
            "input\n"
            "  --trace FILE          gatrace file (plain or .gz; '-' stdin) or Accel-Sim kernelslist.g\n"
            "  --format F            auto (default: kernelslist.g -> accelsim), gatrace, accelsim\n"
            "  --allocs FILE         Accel-Sim import: allocation list ('BASE SIZE' lines)\n"
            "  --allocs-shift D      Accel-Sim import: add D (signed) to every base of the list\n"
            "  --allocs-rebase memcpy  Accel-Sim import: shift the list onto the MemcpyHtoD ranges\n"
            "model\n"
            "  --mode M              compiler (default) or hwonly\n"
            "  --layout L            %s (default bst)\n"
            "  --mlb N               MLB entries, 1..64 (default 8)\n"
            "  --tag-bits N          7 or 16 (default: the trace header's tag_bits, else 7)\n"
            "  --seed N              runtime tag seed (default 1)\n"
            "  --sms N               model SMs, 1..128 (default: the trace header's sms, else 4)\n"
            "  --md-base ADDR        metadata region base (default 0x600000000000)\n"
            "  --md-capacity N       metadata nodes / table slots (default 1048576)\n"
            "  --step-limit N        walk bound in node reads (default 65536)\n"
            "  --tag-neighbour-distinct  runtime: a new tag differs from its neighbours' (spec 7.6.1)\n"
            "  --tag-quarantine W    runtime: never reuse the tag of one of the W latest frees (7.6.2)\n"
            "  --l1-lines N          metadata L1 lines of 32 B per SM, direct-mapped (default 128)\n"
            "  --l1-hit C            cycles of a metadata read that hits the L1 (default 28)\n"
            "  --l1-miss C           cycles of one that misses (default 300)\n"
            "  --mlb-cycles C        cycles of the MLB lookup of a LOADMETA (default 1)\n"
            "  --rtl                 also run every MLU operation on the Verilated RTL, in lockstep (runs\n"
            "                        build/cosim/<cfg>/gasim-rtl, built by 'make gasim-rtl RTL_CFG=<cfg>')\n"
            "  --wave FROM:TO        with --rtl: FST waveform of the records on trace lines FROM..TO (runs\n"
            "                        build/cosim/<cfg>-fst/gasim-rtl, built by 'make gasim-rtl-wave RTL_CFG=<cfg>')\n"
            "  --wave-file FILE      where --wave writes SM 0 (default wave.fst; SM s: FILE with .sm<s> before\n"
            "                        its extension)\n"
            "report\n"
            "  --json FILE           the report as JSON ('-': stdout, replaces the text report)\n"
            "  --csv FILE            the summary as one CSV row with a header ('-': stdout)\n"
            "  --log-file FILE       the text report to FILE instead of stdout\n"
            "                        (output names expand %%p pid, %%q{VAR}, %%m mode, %%l layout, %%%%)\n"
            "  --print-limit N       findings printed in the text report (default 100, 0: all)\n"
            "  --max-detections N    findings kept for the reports (default 100000, 0: all); all are counted\n"
            "  --suppress RULE       do not report findings matching RULE: kernel=GLOB,kind=KIND,alloc=aID\n"
            "                        (any of the three; repeatable)\n"
            "  --suppressions FILE   one RULE per line ('#' comments)\n"
            "  --error-exitcode N    exit with N (5..255) when a program error was found\n"
            "  --quiet               no text report\n"
            "  --dry-run             check the command line only and exit (0 when it is valid)\n"
            "exit: 0 done; N of --error-exitcode on a program error; 4 with --error-exitcode when the only\n"
            "findings are incomplete checks (walks cut short); 3 the RTL disagreed with the model;\n"
            "1 bad input or replay error; 2 bad command line\n", layouts);
}

typedef struct {
    const char *trace, *allocs, *json, *csv, *log, *supp_file, *wave_file;
    int format;
    bool quiet, dry_run, rebase, wave;
    uint64_t allocs_shift;
    uint64_t error_exitcode;
    uint64_t print_limit;
    ga_suppression_t *supp;
    size_t nsupp, capsupp;
    char **bufs;            /* strings the suppressions point into */
    size_t nbufs, capbufs;
    ga_replay_cfg_t cfg;
} gasim_opts_t;

static const char *const free_kinds[] = {"DOUBLE_FREE", "FREE_INTERIOR_POINTER", "FREE_TAG_MISMATCH",
                                         "FREE_UNKNOWN_POINTER", "BAD_FREE", NULL};

/* True when k names a finding kind (an exception kind or a bad free). */
static bool kind_known(const char *k)
{
    for (int i = 1; i < GA_EXC_KINDS; i++)
        if (strcmp(k, ga_exc_name((ga_exc_kind_t)i)) == 0) return true;
    for (int i = 0; free_kinds[i]; i++)
        if (strcmp(k, free_kinds[i]) == 0) return true;
    return false;
}

/* Parse one suppression rule "kernel=GLOB,kind=KIND,alloc=aID" (any subset, at least one) from a
 * private copy (kept in o->bufs). 0, or -1 with msg set. */
static int supp_parse(gasim_opts_t *o, const char *rule, char *msg, size_t cap)
{
    char *c = strdup(rule);
    if (c == NULL) {
        free(c);
        snprintf(msg, cap, "out of memory");
        return -1;
    }
    if (o->nbufs == o->capbufs) {
        size_t nc = o->capbufs ? 2u * o->capbufs : 8u;
        char **nb = realloc(o->bufs, nc * sizeof *nb);
        if (nb == NULL) {
            free(c);
            snprintf(msg, cap, "out of memory");
            return -1;
        }
        o->bufs = nb;
        o->capbufs = nc;
    }
    o->bufs[o->nbufs++] = c;
    ga_suppression_t s;
    memset(&s, 0, sizeof s);
    bool any = false;
    for (char *save = NULL, *f = strtok_r(c, ",", &save); f; f = strtok_r(NULL, ",", &save)) {
        char *eq = strchr(f, '=');
        if (eq == NULL || eq[1] == '\0') {
            snprintf(msg, cap, "expected kernel=GLOB, kind=KIND or alloc=aID, got '%s'", f);
            return -1;
        }
        *eq = '\0';
        const char *v = eq + 1;
        bool dup = false;
        if (strcmp(f, "kernel") == 0) {
            dup = s.kernel != NULL;
            s.kernel = v;
        } else if (strcmp(f, "kind") == 0) {
            dup = s.kind != NULL;
            if (!kind_known(v)) {
                snprintf(msg, cap, "unknown kind '%s' (an exception kind such as OUT_OF_BOUNDS, USE_AFTER_FREE, "
                         "TAG_MISMATCH, NO_METADATA, SHARED_OUT_OF_BOUNDS, METADATA_FAULT, or DOUBLE_FREE, "
                         "FREE_INTERIOR_POINTER, FREE_TAG_MISMATCH, FREE_UNKNOWN_POINTER)", v);
                return -1;
            }
            s.kind = v;
        } else if (strcmp(f, "alloc") == 0) {
            dup = s.has_alloc;
            if (v[0] != 'a' || ga_parse_uint(v + 1, strlen(v + 1), UINT64_MAX, &s.alloc_id) != 0 ||
                (v[1] == '0' && (v[2] == 'x' || v[2] == 'X'))) {
                snprintf(msg, cap, "expected alloc=aID (a decimal trace ID such as a3), got '%s'", v);
                return -1;
            }
            s.has_alloc = true;
        } else {
            snprintf(msg, cap, "unknown field '%s' (expected kernel, kind or alloc)", f);
            return -1;
        }
        if (dup) {
            snprintf(msg, cap, "field '%s' given twice in one rule", f);
            return -1;
        }
        any = true;
    }
    if (!any) {
        snprintf(msg, cap, "an empty rule (expected kernel=GLOB, kind=KIND and/or alloc=aID)");
        return -1;
    }
    if (o->nsupp == o->capsupp) {
        size_t nc = o->capsupp ? 2u * o->capsupp : 8u;
        ga_suppression_t *ns = realloc(o->supp, nc * sizeof *ns);
        if (ns == NULL) {
            snprintf(msg, cap, "out of memory");
            return -1;
        }
        o->supp = ns;
        o->capsupp = nc;
    }
    o->supp[o->nsupp++] = s;
    return 0;
}

/* Read a suppressions file: one rule per line, '#' comments, blank lines ignored. 0, or -1 after
 * printing "FILE:LINE: ..." (bad input). */
static int supp_file(gasim_opts_t *o, const char *path, FILE *errf)
{
    FILE *f = fopen(path, "r");
    if (f == NULL) {
        fprintf(errf, "gasim: %s: cannot open the suppressions file: %s\n", path, strerror(errno));
        return -1;
    }
    char line[1024], msg[512];
    unsigned long ln = 0;
    int rc = 0;
    while (fgets(line, sizeof line, f) != NULL) {
        ln++;
        if (strchr(line, '\n') == NULL && !feof(f)) {
            fprintf(errf, "gasim: %s:%lu: line longer than %zu bytes\n", path, ln, sizeof line - 2u);
            rc = -1;
            break;
        }
        char *h = strchr(line, '#');
        if (h) *h = '\0';
        char *b = line;
        while (*b == ' ' || *b == '\t') b++;
        char *e = b + strlen(b);
        while (e > b && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\n' || e[-1] == '\r')) *--e = '\0';
        if (*b == '\0') continue;
        if (supp_parse(o, b, msg, sizeof msg) != 0) {
            fprintf(errf, "gasim: %s:%lu: %s\n", path, ln, msg);
            rc = -1;
            break;
        }
    }
    if (rc == 0 && ferror(f)) {
        fprintf(errf, "gasim: %s: read error\n", path);
        rc = -1;
    }
    fclose(f);
    return rc;
}

/* Free what parsing the options allocated (the suppressions and the strings they point into). */
static void gasim_opts_free(gasim_opts_t *o)
{
    for (size_t i = 0; i < o->nbufs; i++) free(o->bufs[i]);
    free(o->bufs);
    free(o->supp);
}

/* The effective step limit of a replay. */
static uint32_t step_limit_of(const ga_replay_cfg_t *c) { return c->step_limit ? c->step_limit : GA_STEP_LIMIT_RESET; }

/* "KIND n, KIND n" of the non-zero counts (names from ga_exc_name), or nothing. */
static void kinds_list(FILE *f, const uint64_t *by, const char *open, const char *close)
{
    const char *sep = open;
    for (int k = 1; k < GA_EXC_KINDS; k++)
        if (by[k]) {
            fprintf(f, "%s%s %" PRIu64, sep, ga_exc_name((ga_exc_kind_t)k), by[k]);
            sep = ", ";
        }
    if (sep != open) fputs(close, f);
}

/* The text report of docs/traces.md §10: figures, findings (print_limit of them), notes, and the
 * ERROR SUMMARY line last. */
static void print_text(FILE *f, const char *name, const ga_replay_t *rp, uint64_t print_limit, const notes_t *notes)
{
    const ga_replay_stats_t *s = ga_replay_stats(rp);
    const ga_replay_cfg_t *c = ga_replay_cfg(rp);
    const ga_mlu_stats_t *m = &s->mlu;
    uint64_t lookups = m->loadmeta - m->loadmeta_unchecked;
    uint64_t recs = 0;
    for (int k = 0; k < (int)GA_TEV_KINDS; k++) recs += s->records[k];
    fprintf(f, "gasim: %s: %s mode, %s layout, %u-entry MLB, %u-bit tags, %u SM%s, seed %" PRIu64 ", step limit %" PRIu32,
            name, c->mode == GA_MODE_HWONLY ? "HWOnly" : "compiler", ga_layout_name(c->layout), c->mlb_entries,
            c->tag_bits, c->sms, c->sms == 1 ? "" : "s", c->seed, step_limit_of(c));
    if (c->tag_neighbour_distinct) fprintf(f, ", neighbour-distinct tags");
    if (c->tag_quarantine) fprintf(f, ", tag quarantine %" PRIu32, c->tag_quarantine);
    fprintf(f, "\n  records            %" PRIu64 ":", recs);
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
    fprintf(f, "  MLB fills          %" PRIu64 " (%" PRIu64 " dropped); invalidations: %" PRIu64
               " locations, %" PRIu64 " requests (one per location per SM)\n",
            m->fills, m->fills_dropped, s->invalidated_locations, m->invalidates);
    fprintf(f, "  detections         %" PRIu64, s->detections);
    if (s->detections) {
        kinds_list(f, s->detections_by_kind, " (", ")");
        fprintf(f, ", %" PRIu64 " failing lanes", s->faulting_lanes);
        if (s->detections_walk) {
            fprintf(f, "; %" PRIu64 " of them incomplete checks", s->detections_walk);
            kinds_list(f, s->detections_walk_by_kind, " (", ")");
        }
    }
    fprintf(f, "\n  bad frees          %" PRIu64, s->bad_frees);
    const char *sep = " (";
    for (int e = 0; e < (int)GA_ERR_CODES; e++)
        if (s->bad_frees_by_code[e]) {
            ga_detection_t tmp;
            memset(&tmp, 0, sizeof tmp);
            tmp.free_err = (ga_err_t)e;
            fprintf(f, "%s%s %" PRIu64, sep, ga_replay_finding_kind(&tmp), s->bad_frees_by_code[e]);
            sep = ", ";
        }
    if (sep[0] == ',') fputc(')', f);
    if (c->nsuppressions) fprintf(f, "\n  suppressed         %" PRIu64 " findings", s->suppressed);
    fputc('\n', f);
    const ga_detection_t *d;
    size_t nd = ga_replay_detections(rp, &d);
    size_t show = print_limit && print_limit < nd ? (size_t)print_limit : nd;
    char line[1400];
    for (size_t i = 0; i < show; i++) {
        ga_replay_format_detection(rp, name, &d[i], line, sizeof line);
        fprintf(f, "    %s\n", line);
    }
    uint64_t total = s->detections + s->bad_frees;
    if (total > show)
        fprintf(f, "    ... and %" PRIu64 " more finding%s not printed (--print-limit; %zu are kept for --json, "
                "--max-detections)\n", total - show, total - show == 1 ? "" : "s", nd);
    for (unsigned i = 0; notes && i < notes->n; i++) fprintf(f, "  %s\n", notes->msg[i]);
    fprintf(f, "ERROR SUMMARY: %" PRIu64 " error%s", s->errors, s->errors == 1 ? "" : "s");
    if (s->detections_walk)
        fprintf(f, "; %" PRIu64 " incomplete check%s (walks cut short: not counted as errors)", s->detections_walk,
                s->detections_walk == 1 ? "" : "s");
    if (s->suppressed) fprintf(f, "; %" PRIu64 " suppressed", s->suppressed);
    fputc('\n', f);
}

/* One metadata entry as a JSON member ", KEY: {id, base, size, tag}" (tags in hexadecimal, as in
 * every report). */
static void json_entry(FILE *f, const char *key, bool named, uint64_t id, ga_entry_t e, unsigned tb)
{
    fprintf(f, ", \"%s\": {", key);
    if (named) fprintf(f, "\"id\": \"a%" PRIu64 "\", ", id);
    fprintf(f, "\"base\": \"0x%" PRIx64 "\", \"size\": %" PRIu64 ", \"tag\": \"0x%" PRIx64 "\"}", ga_va_of(e.tb, tb),
            e.size, ga_tag_of(e.tb, tb));
}

/* "KIND": n members of every exception kind (1 ..). */
static void json_kinds(FILE *f, const uint64_t *by)
{
    for (int k = 1; k < GA_EXC_KINDS; k++)
        fprintf(f, "%s\"%s\": %" PRIu64, k > 1 ? ", " : "", ga_exc_name((ga_exc_kind_t)k), by[k]);
}

/* --rtl: the replay runs on the "rtl" backend. */
static bool is_rtl(const ga_replay_cfg_t *c) { return c->backend != NULL && strcmp(c->backend, "rtl") == 0; }

/* The JSON report (schema: docs/traces.md §10.2): every figure of the text report and every kept
 * finding. */
static void print_json(FILE *f, const char *name, const ga_replay_t *rp, unsigned trace_version, bool complete,
                       const notes_t *notes)
{
    const ga_replay_stats_t *s = ga_replay_stats(rp);
    const ga_replay_cfg_t *c = ga_replay_cfg(rp);
    const ga_mlu_stats_t *m = &s->mlu;
    uint64_t lookups = m->loadmeta - m->loadmeta_unchecked;
    fprintf(f, "{\n  \"schema\": \"gasim-report\", \"schema_version\": 2, \"tool\": \"gasim\",\n  \"trace\": ");
    json_str(f, name);
    fprintf(f, ", \"trace_version\": %u, \"trace_complete\": %s,\n", trace_version, complete ? "true" : "false");
    fprintf(f, "  \"config\": {\"mode\": \"%s\", \"layout\": \"%s\", \"mlb_entries\": %u, \"tag_bits\": %u, "
               "\"sms\": %u, \"seed\": %" PRIu64 ", \"step_limit\": %" PRIu32 ", \"md_base\": \"0x%" PRIx64 "\", "
               "\"md_capacity\": %" PRIu32 ", \"tag_neighbour_distinct\": %s, \"tag_quarantine\": %" PRIu32 ", "
               "\"l1_lines\": %" PRIu32 ", \"l1_hit\": %" PRIu32 ", \"l1_miss\": %" PRIu32 ", \"mlb_cycles\": %" PRIu32
               ", \"check_cycles\": %" PRIu32 ", \"rtl\": %s},\n",
            mode_names[c->mode], layout_names[c->layout], c->mlb_entries, c->tag_bits, c->sms, c->seed,
            step_limit_of(c), ga_rt_cfg(ga_replay_system(rp)->rt)->md_base, ga_rt_cfg(ga_replay_system(rp)->rt)->md_capacity,
            c->tag_neighbour_distinct ? "true" : "false", c->tag_quarantine, c->l1_lines, c->l1_hit, c->l1_miss,
            c->mlb_cycles, c->check_cycles, is_rtl(c) ? "true" : "false");
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
               PRIu64 ", \"invalidates\": %" PRIu64 ", \"invalidated_locations\": %" PRIu64 "},\n",
            lookups, m->loadmeta_hits, ratio(m->loadmeta_hits, lookups), m->fetches, m->fetch_hits, m->fills,
            m->fills_dropped, m->invalidates, s->invalidated_locations);
    fprintf(f, "  \"metadata_reads\": {\"reads\": %" PRIu64 ", \"bytes\": %" PRIu64 ", \"per_loadmeta\": %.6f, "
               "\"per_1000_global_accesses\": %.6f},\n",
            m->md_reads, m->md_read_bytes, ratio(m->walk_steps, m->loadmeta),
            1000.0 * ratio(m->md_reads, s->global_accesses));
    fprintf(f, "  \"walks\": {\"count\": %" PRIu64 ", \"steps\": %" PRIu64 ", \"mean\": %.6f, \"max\": %" PRIu32
               ", \"found\": %" PRIu64 ", \"range_only\": %" PRIu64 ", \"not_found\": %" PRIu64 ", \"step_limit\": %"
               PRIu64 ", \"fault\": %" PRIu64 "},\n",
            m->walks, m->walk_steps, ratio(m->walk_steps, m->walks), m->walk_max, m->walk_end[GA_WALK_FOUND],
            m->walk_end[GA_WALK_RANGE_ONLY], m->walk_end[GA_WALK_NOT_FOUND], m->walk_end[GA_WALK_STEP_LIMIT],
            m->walk_end[GA_WALK_FAULT]);
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
    json_kinds(f, s->detections_by_kind);
    fprintf(f, "}, \"incomplete\": %" PRIu64 ", \"incomplete_by_kind\": {", s->detections_walk);
    json_kinds(f, s->detections_walk_by_kind);
    fprintf(f, "}, \"walk_lanes\": %" PRIu64 "},\n  \"bad_frees\": {\"count\": %" PRIu64 ", \"by_kind\": {",
            s->walk_lanes, s->bad_frees);
    for (int k = 0; free_kinds[k]; k++) {
        uint64_t n = 0;
        for (int e = 0; e < (int)GA_ERR_CODES; e++) {
            ga_detection_t tmp;
            memset(&tmp, 0, sizeof tmp);
            tmp.free_err = (ga_err_t)e;
            if (e != GA_OK && strcmp(ga_replay_finding_kind(&tmp), free_kinds[k]) == 0) n += s->bad_frees_by_code[e];
        }
        fprintf(f, "%s\"%s\": %" PRIu64, k ? ", " : "", free_kinds[k], n);
    }
    const ga_detection_t *d;
    size_t nd = ga_replay_detections(rp, &d);
    fprintf(f, "}},\n  \"findings\": {\"errors\": %" PRIu64 ", \"incomplete_checks\": %" PRIu64 ", \"suppressed\": %" PRIu64
               ", \"kept\": %zu, \"list\": [",
            s->errors, s->detections_walk, s->suppressed, nd);
    unsigned tb = c->tag_bits;
    for (size_t i = 0; i < nd; i++) {
        const ga_detection_t *x = &d[i];
        fprintf(f, "%s\n    {\"file\": ", i ? "," : "");
        json_str(f, ga_replay_file_name(rp, x->file));
        fprintf(f, ", \"line\": %" PRIu64 ", \"kernel\": ", x->line);
        if (x->kernel < ga_replay_kernels(rp)) json_str(f, ga_replay_kernel_name(rp, x->kernel));
        else fputs("null", f);
        fprintf(f, ", \"kind\": \"%s\", \"class\": \"%s\", \"op\": \"%s\"", ga_replay_finding_kind(x),
                x->free_err != GA_OK ? "error" : x->walk_limited ? "incomplete" : "error", ga_tev_name(x->op));
        if (x->free_err != GA_OK) {
            fprintf(f, ", \"pointer\": \"0x%016" PRIx64 "\", \"tag\": \"0x%" PRIx64 "\", \"runtime_error\": ",
                    x->free_ptr, ga_tag_of(x->free_ptr, tb));
            json_str(f, ga_strerror(x->free_err));
            if (x->free_named) fprintf(f, ", \"alloc\": \"a%" PRIu64 "\"", x->free_id);
        } else {
            fprintf(f, ", \"sm\": %u, \"warp\": %u, \"lane\": %u, \"addr\": \"0x%016" PRIx64 "\", \"size\": %" PRIu32
                       ", \"fault_mask\": \"0x%08" PRIx32 "\", \"md\": \"0x%" PRIx64 "\", \"walk_lanes\": %" PRIu32,
                    (unsigned)x->trace_sm, (unsigned)x->rec.warp, (unsigned)x->rec.lane, x->rec.addr, x->rec.size,
                    x->fault_mask, x->rec.md, x->walk_lanes);
        }
        if (x->op == GA_TEV_LDS || x->op == GA_TEV_STS) {
            fprintf(f, ", \"shared\": {\"base\": %" PRIu64 ", \"size\": %" PRIu64 "}", x->rec.entry.tb,
                    x->rec.entry.size);
        } else {
            if (x->free_err == GA_OK && (x->rec.entry.size || x->rec.entry.tb))
                json_entry(f, "checked_against", x->checked_named, x->checked_id, x->rec.entry, tb);
            if (x->in_entry) {
                json_entry(f, "inside", x->entry_named, x->entry_id, x->entry, tb);
                fprintf(f, ", \"inside_freed\": %s", x->entry_freed ? "true" : "false");
            }
            if (x->near_found) {
                json_entry(f, "nearest_live", x->near_named, x->near_id, x->near, tb);
                fprintf(f, ", \"nearest_distance\": %" PRIu64 ", \"nearest_side\": \"%s\"", x->near_dist,
                        x->near_after ? "after" : "before");
            }
        }
        fputc('}', f);
    }
    fprintf(f, "%s]},\n  \"notes\": [", nd ? "\n  " : "");
    for (unsigned i = 0; notes && i < notes->n; i++) {
        fputs(i ? ", " : "", f);
        json_str(f, notes->msg[i]);
    }
    fprintf(f, "]\n}\n");
}

/* The CSV summary: a header row and one row of figures. Columns after "METADATA_FAULT" were added
 * after the first release (append-only, so that older readers keep their positions). */
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
    fprintf(f, ",errors,incomplete_checks,bad_frees,suppressed,walks_step_limit,walks_fault,step_limit,md_base,"
               "md_capacity,invalidated_locations\n");
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
    fprintf(f, ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu32 ",0x%" PRIx64 ",%" PRIu32
               ",%" PRIu64 "\n",
            s->errors, s->detections_walk, s->bad_frees, s->suppressed, m->walk_end[GA_WALK_STEP_LIMIT],
            m->walk_end[GA_WALK_FAULT], step_limit_of(c), ga_rt_cfg(ga_replay_system(rp)->rt)->md_base,
            ga_rt_cfg(ga_replay_system(rp)->rt)->md_capacity, s->invalidated_locations);
}

/* Parse gasim's command line into o. Returns -1 to go on, or an exit status (0 for --help). */
static int gasim_parse(int argc, char **argv, gasim_opts_t *o, FILE *out, FILE *errf)
{
    static const char prog[] = "gasim";
    static const char *const repeatable[] = {"--suppress", NULL};
    args_t a;
    memset(&a, 0, sizeof a);
    a.argc = argc;
    a.argv = argv;
    a.errf = errf;
    a.prog = prog;
    for (a.i = 1; a.i < argc; a.i++) {
        if (!arg_next(&a)) {
            fprintf(errf, "%s: unexpected argument '%s' (the trace is given with --trace FILE; see gasim --help)\n", prog,
                    argv[a.i]);
            return GA_EXIT_USAGE;
        }
        const char *name = a.name;
        if (arg_once(&a, repeatable) != 0) return GA_EXIT_USAGE;
        uint64_t v;
        int ch;
        const char *s;
        bool flag = false, bad = false;
        if (!strcmp(name, "--help")) {
            if (arg_flag(&a)) return GA_EXIT_USAGE;
            gasim_usage(out);
            return GA_EXIT_OK;
        } else if (!strcmp(name, "--trace")) {
            bad = (o->trace = arg_value(&a)) == NULL;
        } else if (!strcmp(name, "--format")) {
            bad = arg_choice(&a, format_names, &o->format) != 0;
        } else if (!strcmp(name, "--allocs")) {
            bad = (o->allocs = arg_value(&a)) == NULL;
        } else if (!strcmp(name, "--allocs-shift")) {
            int64_t d;
            bad = (s = arg_value(&a)) == NULL;
            if (!bad && ga_parse_sint(s, strlen(s), &d) != 0) {
                fprintf(errf, "%s: --allocs-shift: expected a signed integer (e.g. -0x1000), got '%s'\n", prog, s);
                bad = true;
            }
            if (!bad) o->allocs_shift = (uint64_t)d;
        } else if (!strcmp(name, "--allocs-rebase")) {
            bad = arg_choice(&a, rebase_names, &ch) != 0;
            o->rebase = !bad;
        } else if (!strcmp(name, "--mode")) {
            bad = arg_choice(&a, mode_names, &ch) != 0;
            if (!bad) o->cfg.mode = (ga_mode_t)ch;
        } else if (!strcmp(name, "--layout")) {
            bad = arg_choice(&a, layout_names, &ch) != 0;
            if (!bad) o->cfg.layout = (ga_layout_t)ch;
        } else if (!strcmp(name, "--mlb")) {
            bad = arg_uint(&a, 1, GA_MLB_MAX, &v) != 0;
            if (!bad) o->cfg.mlb_entries = (unsigned)v;
        } else if (!strcmp(name, "--tag-bits")) {
            bad = arg_uint(&a, 7, 16, &v) != 0;
            if (!bad && v != 7 && v != 16) {
                fprintf(errf, "%s: --tag-bits: expected 7 or 16, got %" PRIu64 "\n", prog, v);
                bad = true;
            }
            if (!bad) o->cfg.tag_bits = (unsigned)v;
        } else if (!strcmp(name, "--seed")) {
            bad = arg_uint(&a, 0, UINT64_MAX, &v) != 0;
            if (!bad) o->cfg.seed = v;
        } else if (!strcmp(name, "--sms")) {
            bad = arg_uint(&a, 1, GA_SYSTEM_MAX_SMS, &v) != 0;
            if (!bad) o->cfg.sms = (unsigned)v;
        } else if (!strcmp(name, "--md-base")) {
            /* the runtime's rule (ga_rt_create): a non-zero multiple of 32 */
            bad = arg_uint(&a, 32, UINT64_MAX, &v) != 0;
            if (!bad && v % 32u != 0) {
                fprintf(errf, "%s: --md-base: expected a non-zero multiple of 32, got 0x%" PRIx64 "\n", prog, v);
                bad = true;
            }
            if (!bad) o->cfg.md_base = v;
        } else if (!strcmp(name, "--md-capacity")) {
            bad = arg_uint(&a, 1, UINT32_MAX, &v) != 0;
            if (!bad) o->cfg.md_capacity = (uint32_t)v;
        } else if (!strcmp(name, "--step-limit")) {
            bad = arg_uint(&a, 1, UINT32_MAX, &v) != 0;
            if (!bad) o->cfg.step_limit = (uint32_t)v;
        } else if (!strcmp(name, "--tag-neighbour-distinct")) {
            flag = true;
            o->cfg.tag_neighbour_distinct = true;
        } else if (!strcmp(name, "--tag-quarantine")) {
            bad = arg_uint(&a, 1, GA_RT_QUARANTINE_MAX, &v) != 0;
            if (!bad) o->cfg.tag_quarantine = (uint32_t)v;
        } else if (!strcmp(name, "--l1-lines")) {
            bad = arg_uint(&a, 1, 65536, &v) != 0;
            if (!bad) o->cfg.l1_lines = (uint32_t)v;
        } else if (!strcmp(name, "--l1-hit")) {
            bad = arg_uint(&a, 0, 1000000, &v) != 0;
            if (!bad) o->cfg.l1_hit = (uint32_t)v;
        } else if (!strcmp(name, "--l1-miss")) {
            bad = arg_uint(&a, 0, 1000000, &v) != 0;
            if (!bad) o->cfg.l1_miss = (uint32_t)v;
        } else if (!strcmp(name, "--mlb-cycles")) {
            bad = arg_uint(&a, 0, 1000000, &v) != 0;
            if (!bad) o->cfg.mlb_cycles = (uint32_t)v;
        } else if (!strcmp(name, "--json")) {
            bad = (o->json = arg_value(&a)) == NULL;
        } else if (!strcmp(name, "--csv")) {
            bad = (o->csv = arg_value(&a)) == NULL;
        } else if (!strcmp(name, "--log-file")) {
            bad = (o->log = arg_value(&a)) == NULL;
        } else if (!strcmp(name, "--print-limit")) {
            bad = arg_uint(&a, 0, UINT64_MAX, &o->print_limit) != 0;
        } else if (!strcmp(name, "--error-exitcode")) {
            bad = arg_uint(&a, 1, 255, &v) != 0;
            if (!bad && v < GA_EXIT_FIRST_USER) {
                fprintf(errf, "%s: --error-exitcode: %" PRIu64 " is reserved (1 bad input, 2 usage, 3 RTL mismatch, "
                        "4 incomplete checks): choose %d..255\n", prog, v, GA_EXIT_FIRST_USER);
                bad = true;
            }
            o->error_exitcode = v;
        } else if (!strcmp(name, "--max-detections")) {
            bad = arg_uint(&a, 0, SIZE_MAX, &v) != 0;
            if (!bad) o->cfg.max_detections = (size_t)v;
        } else if (!strcmp(name, "--suppress")) {
            char msg[512];
            bad = (s = arg_value(&a)) == NULL;
            if (!bad && supp_parse(o, s, msg, sizeof msg) != 0) {
                fprintf(errf, "%s: --suppress '%s': %s\n", prog, s, msg);
                bad = true;
            }
        } else if (!strcmp(name, "--suppressions")) {
            bad = (o->supp_file = arg_value(&a)) == NULL;
        } else if (!strcmp(name, "--wave")) {
            uint64_t w0, w1;
            bad = (s = arg_value(&a)) == NULL;
            const char *colon = s ? strchr(s, ':') : NULL;
            if (!bad && (colon == NULL || ga_parse_uint(s, (size_t)(colon - s), UINT64_MAX, &w0) != 0 ||
                         ga_parse_uint(colon + 1, strlen(colon + 1), UINT64_MAX, &w1) != 0 || w0 > w1)) {
                fprintf(errf, "%s: --wave: expected FROM:TO, two trace line numbers with FROM <= TO, got '%s'\n", prog, s);
                bad = true;
            }
            if (!bad) {
                o->wave = true;
                o->cfg.wave_from = w0;
                o->cfg.wave_to = w1;
            }
        } else if (!strcmp(name, "--wave-file")) {
            bad = (o->wave_file = arg_value(&a)) == NULL;
        } else if (!strcmp(name, "--quiet")) {
            flag = true;
            o->quiet = true;
        } else if (!strcmp(name, "--rtl")) {
            flag = true;
            o->cfg.backend = "rtl";
        } else if (!strcmp(name, "--dry-run")) {
            flag = true;
            o->dry_run = true;
        } else {
            fprintf(errf, "%s: unknown option '%s' (see gasim --help)\n", prog, name);
            return GA_EXIT_USAGE;
        }
        if (bad || (flag && arg_flag(&a) != 0)) return GA_EXIT_USAGE;
    }
    if (o->trace == NULL) {
        fprintf(errf, "%s: no trace given: use --trace FILE (see gasim --help)\n", prog);
        return GA_EXIT_USAGE;
    }
    bool accel = o->format == 2 || (o->format == 0 && ga_accelsim_is_kernelslist(o->trace));
    if ((o->allocs || o->allocs_shift || o->rebase) && !accel) {
        fprintf(errf, "%s: --allocs, --allocs-shift and --allocs-rebase apply to Accel-Sim traces only (--format "
                "accelsim or a kernelslist.g)\n", prog);
        return GA_EXIT_USAGE;
    }
    if ((o->allocs_shift || o->rebase) && o->allocs == NULL) {
        fprintf(errf, "%s: --allocs-shift and --allocs-rebase shift the list given with --allocs: give it\n", prog);
        return GA_EXIT_USAGE;
    }
    if (o->allocs_shift && o->rebase) {
        fprintf(errf, "%s: --allocs-shift and --allocs-rebase both choose the shift: give one\n", prog);
        return GA_EXIT_USAGE;
    }
    if ((o->wave || o->wave_file) && !is_rtl(&o->cfg)) {
        fprintf(errf, "%s: --wave and --wave-file need --rtl (the waveform is the Verilated RTL's)\n", prog);
        return GA_EXIT_USAGE;
    }
    if (o->wave_file && !o->wave) {
        fprintf(errf, "%s: --wave-file needs --wave FROM:TO (which trace lines to dump)\n", prog);
        return GA_EXIT_USAGE;
    }
    int std = (o->json && !strcmp(o->json, "-")) + (o->csv && !strcmp(o->csv, "-")) + (o->log && !strcmp(o->log, "-"));
    if (std > 1) {
        fprintf(errf, "%s: only one of --json -, --csv - and --log-file - can write to stdout\n", prog);
        return GA_EXIT_USAGE;
    }
    if (is_rtl(&o->cfg) && (o->cfg.mlb_entries != 8u && o->cfg.mlb_entries != 16u)) {
        fprintf(errf, "%s: --rtl: no Verilated configuration has a %u-entry MLB (mk/tb.mk builds 8 and 16)\n", prog,
                o->cfg.mlb_entries);
        return GA_EXIT_USAGE;
    }
    return -1;
}

/* The tag width a replay will use: --tag-bits, else the trace header's tag_bits (read from a gatrace
 * file's first lines, not from stdin or an import), else 7. */
static unsigned peek_tag_bits(const gasim_opts_t *o)
{
    if (o->cfg.tag_bits) return o->cfg.tag_bits;
    bool accel = o->format == 2 || (o->format == 0 && ga_accelsim_is_kernelslist(o->trace));
    if (accel || strcmp(o->trace, "-") == 0) return 7u;
    ga_trace_reader_t *r;
    ga_trace_err_t e;
    ga_tev_t ev;
    unsigned tb = 7u;
    if (ga_trace_open(&r, o->trace, &e) == 0) {
        if (ga_trace_next(r, &ev, &e) >= 0 && ga_trace_header(r)->tag_bits) tb = ga_trace_header(r)->tag_bits;
        ga_trace_close(r);
    }
    return tb;
}

/* --rtl in a program without the RTL backend (plain gasim): start the gasim-rtl of the configuration
 * the run needs when it has been built (build/cosim/<cfg>/gasim-rtl beside this build/rel/sim/gasim;
 * with --wave the FST-traced one, build/cosim/<cfg>-fst/gasim-rtl), else say exactly which target
 * builds it. Returns an exit status (execv does not return on success). */
static int rtl_elsewhere(const gasim_opts_t *o, char **argv, FILE *out, FILE *errf)
{
    unsigned tb = peek_tag_bits(o), mlb = o->cfg.mlb_entries;
    char cfgname[32], self[PATH_MAX], cand[PATH_MAX + 64];
    snprintf(cfgname, sizeof cfgname, "t%u_m%u_l32%s", tb, mlb, o->wave ? "-fst" : "");
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1u);
    const char *base = NULL;
    if (n > 0) {
        self[n] = '\0';
        char *slash = strrchr(self, '/');
        base = slash ? slash + 1 : self;
        if (slash) *slash = '\0';
    }
    /* only the gasim tool execs: a test binary that calls ga_gasim_main in-process never does */
    if (base && strcmp(base, "gasim") == 0) {
        snprintf(cand, sizeof cand, "%s/../../cosim/%s/gasim-rtl", self, cfgname);
        if (access(cand, X_OK) == 0) {
            fflush(out);
            fflush(errf);
            char *av0 = argv[0];
            argv[0] = cand;
            execv(cand, argv);
            argv[0] = av0;
            fprintf(errf, "gasim: --rtl: cannot start %s: %s\n", cand, strerror(errno));
            return GA_EXIT_ERROR;
        }
    }
    if (o->wave)
        fprintf(errf, "gasim: --rtl --wave: the traced RTL replay of this run (TagBits %u, %u-entry MLB) is the "
                "program build/cosim/%s/gasim-rtl, which is not built: run 'make gasim-rtl-wave RTL_CFG=t%u_m%u_l32' "
                "(one Verilator build with FST tracing), then this command again\n", tb, mlb, cfgname, tb, mlb);
    else
        fprintf(errf, "gasim: --rtl: the RTL replay of this run (TagBits %u, %u-entry MLB) is the program "
                "build/cosim/%s/gasim-rtl, which is not built: run 'make gasim-rtl RTL_CFG=%s' (one Verilator build, "
                "about 1.5 min cold), then this command again\n", tb, mlb, cfgname, cfgname);
    return GA_EXIT_ERROR;
}

/* --wave's file: 0 when it can be written (its directory exists and is writable, and the file, if it
 * exists, is writable), else -1 after a one-line message. Checked before the replay, so that a
 * long replay does not fail only when it reaches the window; the file itself is created then. */
static int wave_writable(const char *path, FILE *errf, const char *prog)
{
    size_t n = strlen(path);
    char *dir = malloc(n + 2u);
    if (dir == NULL) {
        fprintf(errf, "%s: out of memory\n", prog);
        return -1;
    }
    memcpy(dir, path, n + 1u);
    char *slash = strrchr(dir, '/');
    if (slash == NULL) strcpy(dir, ".");
    else if (slash == dir) dir[1] = '\0'; /* a file in / */
    else *slash = '\0';
    int rc = 0;
    if (access(dir, W_OK | X_OK) != 0) {
        fprintf(errf, "%s: --wave-file %s: cannot write in the directory %s: %s\n", prog, path, dir, strerror(errno));
        rc = -1;
    } else if (access(path, F_OK) == 0 && access(path, W_OK) != 0) {
        fprintf(errf, "%s: --wave-file %s: cannot overwrite it: %s\n", prog, path, strerror(errno));
        rc = -1;
    }
    free(dir);
    return rc;
}

/* See ga_cli.h. */
int ga_gasim_main(int argc, char **argv, FILE *out, FILE *errf)
{
    return ga_gasim_main_with(argc, argv, out, errf, ga_backends_model);
}

/* See ga_cli.h and docs/traces.md §10. */
int ga_gasim_main_with(int argc, char **argv, FILE *out, FILE *errf, const ga_backend_def_t *const *backends)
{
    static const char prog[] = "gasim";
    gasim_opts_t o;
    memset(&o, 0, sizeof o);
    ga_replay_default_cfg(&o.cfg);
    o.cfg.backends = backends;
    o.cfg.tag_bits = 0; /* the header's, else 7 (ga_replay_create) */
    o.print_limit = 100;
    int rc = gasim_parse(argc, argv, &o, out, errf);
    if (rc >= 0) {
        gasim_opts_free(&o);
        return rc;
    }
    /* Output names: expanded now, so that --dry-run checks them too. */
    const char *mname = mode_names[o.cfg.mode], *lname = layout_names[o.cfg.layout];
    char *json = NULL, *csv = NULL, *log = NULL, *wave = NULL;
    int status = GA_EXIT_OK;
    if ((o.json && (json = expand_name(o.json, mname, lname, "--json", errf, prog)) == NULL) ||
        (o.csv && (csv = expand_name(o.csv, mname, lname, "--csv", errf, prog)) == NULL) ||
        (o.log && (log = expand_name(o.log, mname, lname, "--log-file", errf, prog)) == NULL) ||
        (o.wave && (wave = expand_name(o.wave_file ? o.wave_file : "wave.fst", mname, lname, "--wave-file", errf,
                                       prog)) == NULL)) {
        status = GA_EXIT_USAGE;
        goto done;
    }
    /* No output may be an input or another output: the replay would read what it overwrites. */
    const char *outs[4] = {json, csv, log, wave}, *outn[4] = {"--json", "--csv", "--log-file", "--wave-file"};
    const char *ins[3] = {o.trace, o.allocs, o.supp_file}, *inn[3] = {"--trace", "--allocs", "--suppressions"};
    for (int i = 0; i < 4 && status == 0; i++) {
        if (outs[i] == NULL || strcmp(outs[i], "-") == 0) continue;
        struct stat ost;
        if (stat(outs[i], &ost) == 0 && S_ISDIR(ost.st_mode)) {
            fprintf(errf, "%s: %s %s is a directory (an output file was expected)\n", prog, outn[i], outs[i]);
            status = GA_EXIT_USAGE;
            break;
        }
        for (int j = 0; j < 3 && status == 0; j++)
            if (ins[j] && (strcmp(outs[i], ins[j]) == 0 || same_file(outs[i], ins[j]))) {
                fprintf(errf, "%s: %s %s is also the %s input: refusing to overwrite it\n", prog, outn[i], outs[i],
                        inn[j]);
                status = GA_EXIT_USAGE;
            }
        for (int j = i + 1; j < 4 && status == 0; j++)
            if (outs[j] && (strcmp(outs[i], outs[j]) == 0 || same_file(outs[i], outs[j]))) {
                fprintf(errf, "%s: %s and %s name the same file %s\n", prog, outn[i], outn[j], outs[i]);
                status = GA_EXIT_USAGE;
            }
    }
    if (status != 0) goto done;
    if (o.dry_run) {
        fprintf(out, "gasim: dry run: the command line is valid\n");
        goto done;
    }
    if (o.supp_file && supp_file(&o, o.supp_file, errf) != 0) {
        status = GA_EXIT_ERROR;
        goto done;
    }
    o.cfg.suppressions = o.supp;
    o.cfg.nsuppressions = o.nsupp;
    o.cfg.wave_path = wave;
    if (wave && wave_writable(wave, errf, prog) != 0) {
        status = GA_EXIT_ERROR;
        goto done;
    }
    if (is_rtl(&o.cfg) && !ga_layout_in_rtl(o.cfg.layout)) {
        char rl[64];
        (void)ga_layout_list(rl, sizeof rl, ", ", " or ", true);
        fprintf(errf, "gasim: --rtl --layout %s: the RTL does not implement this layout yet (cmodel/ga_layouts.def): "
                "replay it with %s, or without --rtl\n", ga_layout_name(o.cfg.layout), rl);
        status = GA_EXIT_ERROR;
        goto done;
    }
    if (is_rtl(&o.cfg) && ga_backend_find(o.cfg.backends, "rtl") == NULL) {
        status = rtl_elsewhere(&o, argv, out, errf);
        goto done;
    }
    /* the text report goes to --log-file, else to stdout unless --json - or --csv - took it */
    bool text = !o.quiet && ((log && strcmp(log, "-") != 0) || (!(json && !strcmp(json, "-")) && !(csv && !strcmp(csv, "-"))));

    notes_t notes;
    memset(&notes, 0, sizeof notes);
    ga_accelsim_opts_t ao;
    ga_accelsim_default_opts(&ao);
    if (o.cfg.sms) ao.sms = o.cfg.sms;
    ao.allocs_path = o.allocs;
    ao.allocs_shift = o.allocs_shift;
    ao.allocs_rebase = o.rebase;
    ao.warn = note_cb;
    ao.warn_ctx = &notes;
    ga_trace_err_t err;
    ga_trace_reader_t *r = NULL;
    if (open_trace(&r, o.trace, o.format, &ao, &err) != 0) {
        fprintf(errf, "%s: %s\n", prog, err.msg);
        status = GA_EXIT_ERROR;
        goto done;
    }
    /* The replay loop of ga_replay_run, written out so that a failed final check (the RTL backend's
     * verdict) can be told from bad input. */
    progress_t pg = {errf, isatty(fileno(errf)) != 0, now_s(), 0.0, false};
    ga_replay_t *rp = NULL;
    ga_tev_t ev;
    int trc = ga_trace_next(r, &ev, &err);
    bool cfg_bad = false; /* the options do not fit this trace: a usage error, not bad input */
    if (trc >= 0 && ga_replay_create(&rp, &o.cfg, ga_trace_header(r), &err) != 0) {
        trc = -1;
        cfg_bad = strstr(err.msg, "out of memory") == NULL;
    }
    uint64_t nrec = 0, reads_seen = 0;
    while (trc > 0) {
        if (ga_replay_event(rp, r, &ev, &err) != 0) {
            trc = -1;
            break;
        }
        nrec++;
        const ga_replay_stats_t *st = ga_replay_stats(rp);
        uint64_t reads = st->l1_hits + st->l1_misses;
        if ((nrec & 0xfffu) == 0 || reads - reads_seen >= (UINT64_C(1) << 18)) { /* long walks too */
            uint64_t done, total;
            reads_seen = reads;
            ga_trace_progress(r, &done, &total);
            progress_cb(&pg, nrec, done, total);
        }
        trc = ga_trace_next(r, &ev, &err);
    }
    progress_end(&pg);
    if (trc < 0) {
        fprintf(errf, "%s: %s\n", prog, err.msg);
        status = cfg_bad ? GA_EXIT_USAGE : GA_EXIT_ERROR;
    } else if (ga_replay_finish(rp, &err) != 0) {
        fprintf(errf, "%s: %s\n", prog, err.msg);
        /* a waveform that could not be written or a window with no record is not an RTL mismatch */
        status = is_rtl(&o.cfg) && strncmp(err.msg, "--wave", 6) != 0 ? GA_EXIT_MISMATCH : GA_EXIT_ERROR;
    }
    if (status != 0) {
        ga_replay_destroy(rp);
        ga_trace_close(r);
        notes_free(&notes);
        goto done;
    }
    const ga_replay_stats_t *st = ga_replay_stats(rp);
    const ga_replay_cfg_t *ec = ga_replay_cfg(rp);
    unsigned tversion = ga_trace_header(r)->version;
    bool complete = ga_trace_ended(r);
    if (st->detections_walk || st->walk_lanes) {
        const ga_mlu_stats_t *m = &st->mlu;
        note_add(&notes, "note: %" PRIu64 " detection%s %s, not %s: the LOADMETA walks that should have found their "
                 "metadata were cut short (%" PRIu64 " walk%s ended at the step limit of %" PRIu32 " node reads, %" PRIu64
                 " at a metadata read fault); the fail-closed rule of spec section 3.3 reports them. To check these accesses, "
                 "raise the limit (--step-limit %" PRIu64 ") or use a layout with shorter walks (--layout %s)",
                 st->detections_walk, st->detections_walk == 1 ? "" : "s",
                 st->detections_walk == 1 ? "is an incomplete check" : "are incomplete checks",
                 st->detections_walk == 1 ? "a program error" : "program errors", m->walk_end[GA_WALK_STEP_LIMIT],
                 m->walk_end[GA_WALK_STEP_LIMIT] == 1 ? "" : "s", step_limit_of(ec),
                 m->walk_end[GA_WALK_FAULT], (uint64_t)step_limit_of(ec) * 16u > UINT32_MAX ? UINT32_MAX
                                                                                            : (uint64_t)step_limit_of(ec) * 16u,
                 ec->layout == GA_LAYOUT_LIST ? "bst, index or table" : ec->layout == GA_LAYOUT_BST ? "index or table" : "bst");
    }
    if (st->tag_width_suspects)
        note_add(&notes, "warning: %" PRIu64 " raw pointer%s (the first on line %" PRIu64 ") look%s written for %u-bit "
                 "tags while this replay uses %u-bit tags, and would be read as another address and tag; replay with "
                 "--tag-bits %u, or declare tag_bits= in a version-2 header",
                 st->tag_width_suspects, st->tag_width_suspects == 1 ? "" : "s", st->tag_width_suspect_line,
                 st->tag_width_suspects == 1 ? "s" : "", ec->tag_bits == 7u ? 16u : 7u, ec->tag_bits,
                 ec->tag_bits == 7u ? 16u : 7u);
    if (tversion < 2u)
        note_add(&notes, "note: %s is a version-1 trace, which has no end-of-trace record: a file cut between two "
                 "records would have replayed as a shorter trace ('gaconv IN OUT' rewrites it as version 2)",
                 ga_trace_name(r));
    const char *tname = ga_trace_name(r);
    outfile_t jf, cf, lf;
    memset(&jf, 0, sizeof jf);
    memset(&cf, 0, sizeof cf);
    memset(&lf, 0, sizeof lf);
    if (json && out_open(&jf, json, out, errf, prog) != 0) status = GA_EXIT_ERROR;
    if (status == 0 && csv && out_open(&cf, csv, out, errf, prog) != 0) status = GA_EXIT_ERROR;
    if (status == 0 && log && text && out_open(&lf, log, out, errf, prog) != 0) status = GA_EXIT_ERROR;
    if (status == 0) {
        if (text) print_text(lf.f ? lf.f : out, tname, rp, o.print_limit, &notes);
        if (jf.f) print_json(jf.f, tname, rp, tversion, complete, &notes);
        if (cf.f) print_csv(cf.f, tname, rp);
    }
    if (json && out_close(&jf, status == 0, errf, prog) != 0) status = GA_EXIT_ERROR;
    if (csv && out_close(&cf, status == 0, errf, prog) != 0) status = GA_EXIT_ERROR;
    if (out_close(&lf, status == 0, errf, prog) != 0) status = GA_EXIT_ERROR;
    if (status == 0 && fflush(out) != 0) status = GA_EXIT_ERROR;
    if (status == 0 && o.error_exitcode) {
        if (st->errors) status = (int)o.error_exitcode;
        else if (st->detections_walk) status = GA_EXIT_INCOMPLETE;
    }
    ga_replay_destroy(rp);
    ga_trace_close(r);
    notes_free(&notes);
done:
    free(json);
    free(csv);
    free(log);
    free(wave);
    gasim_opts_free(&o);
    return status;
}

/* ---------------------------------------------------------------------------------------------------
 * gaconv. */

/* gaconv --help text. */
static void gaconv_usage(FILE *f)
{
    fprintf(f,
            "usage: gaconv [options] IN OUT      (docs/traces.md §9)\n"
            "  Reads IN (gatrace, plain or .gz, version 1 or 2; or an Accel-Sim kernelslist.g) and writes it as\n"
            "  canonical gatrace to OUT ('-': stdout; a name ending in .gz is written gzip-compressed), version 2\n"
            "  with its end-of-trace record unless --out-version 1. OUT is written only when the whole input\n"
            "  was read without error, and never over IN.\n"
            "  --format F           auto (default), gatrace, accelsim\n"
            "  --allocs FILE        Accel-Sim import: allocation list ('BASE SIZE' lines)\n"
            "  --allocs-shift D     Accel-Sim import: add D (signed) to every base of the list\n"
            "  --allocs-rebase memcpy  Accel-Sim import: shift the list onto the MemcpyHtoD ranges\n"
            "  --sms N              Accel-Sim import: SMs thread blocks are spread over (default 4)\n"
            "  --out-version V      2 (default) or 1 (for old readers; refused if the trace needs 2)\n"
            "  --dry-run            check the command line only and exit (0 when it is valid)\n"
            "exit: 0 done; 1 bad input or write error; 2 bad command line\n");
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
    int format = 0, ch;
    uint64_t sms = 0, outv = GA_TRACE_VERSION, shift = 0;
    bool rebase = false, dry = false;
    args_t a;
    memset(&a, 0, sizeof a);
    a.argc = argc;
    a.argv = argv;
    a.errf = errf;
    a.prog = prog;
    for (a.i = 1; a.i < argc; a.i++) {
        if (!arg_next(&a)) {
            if (in == NULL) in = argv[a.i];
            else if (outp == NULL) outp = argv[a.i];
            else {
                fprintf(errf, "%s: unexpected argument '%s' (expected IN and OUT; see gaconv --help)\n", prog, argv[a.i]);
                return GA_EXIT_USAGE;
            }
            continue;
        }
        if (arg_once(&a, NULL) != 0) return GA_EXIT_USAGE;
        const char *s;
        bool bad = false;
        if (!strcmp(a.name, "--help")) {
            if (arg_flag(&a)) return GA_EXIT_USAGE;
            gaconv_usage(out);
            return GA_EXIT_OK;
        } else if (!strcmp(a.name, "--format")) {
            bad = arg_choice(&a, format_names, &format) != 0;
        } else if (!strcmp(a.name, "--allocs")) {
            bad = (allocs = arg_value(&a)) == NULL;
        } else if (!strcmp(a.name, "--allocs-shift")) {
            int64_t d;
            bad = (s = arg_value(&a)) == NULL;
            if (!bad && ga_parse_sint(s, strlen(s), &d) != 0) {
                fprintf(errf, "%s: --allocs-shift: expected a signed integer (e.g. -0x1000), got '%s'\n", prog, s);
                bad = true;
            }
            if (!bad) shift = (uint64_t)d;
        } else if (!strcmp(a.name, "--allocs-rebase")) {
            bad = arg_choice(&a, rebase_names, &ch) != 0;
            rebase = !bad;
        } else if (!strcmp(a.name, "--sms")) {
            bad = arg_uint(&a, 1, 65536, &sms) != 0;
        } else if (!strcmp(a.name, "--out-version")) {
            bad = arg_uint(&a, GA_TRACE_VERSION_MIN, GA_TRACE_VERSION, &outv) != 0;
        } else if (!strcmp(a.name, "--dry-run")) {
            dry = true;
            bad = arg_flag(&a) != 0;
        } else {
            fprintf(errf, "%s: unknown option '%s' (see gaconv --help)\n", prog, a.name);
            return GA_EXIT_USAGE;
        }
        if (bad) return GA_EXIT_USAGE;
    }
    if (in == NULL || outp == NULL) {
        fprintf(errf, "%s: expected IN and OUT (see gaconv --help)\n", prog);
        return GA_EXIT_USAGE;
    }
    bool accel = format == 2 || (format == 0 && ga_accelsim_is_kernelslist(in));
    if ((allocs || shift || rebase || sms) && !accel) {
        fprintf(errf, "%s: --allocs, --allocs-shift, --allocs-rebase and --sms apply to Accel-Sim traces only\n", prog);
        return GA_EXIT_USAGE;
    }
    if ((shift || rebase) && (allocs == NULL || (shift && rebase))) {
        fprintf(errf, "%s: --allocs-shift or --allocs-rebase (one of them) shifts the list given with --allocs\n", prog);
        return GA_EXIT_USAGE;
    }
    struct stat ost;
    if (strcmp(outp, "-") != 0 && stat(outp, &ost) == 0 && S_ISDIR(ost.st_mode)) {
        fprintf(errf, "%s: OUT %s is a directory (an output file was expected)\n", prog, outp);
        return GA_EXIT_USAGE;
    }
    /* Converting a file onto itself would truncate it before it is read (comments lost, mode reset). */
    if (strcmp(outp, "-") != 0 &&
        ((strcmp(in, "-") != 0 && (strcmp(in, outp) == 0 || same_file(in, outp))) ||
         (allocs && (strcmp(allocs, outp) == 0 || same_file(allocs, outp))))) {
        fprintf(errf, "%s: OUT %s is also an input: refusing to overwrite it (write elsewhere, then rename)\n", prog,
                outp);
        return GA_EXIT_USAGE;
    }
    if (dry) {
        fprintf(out, "gaconv: dry run: the command line is valid\n");
        return GA_EXIT_OK;
    }
    notes_t notes;
    memset(&notes, 0, sizeof notes);
    ga_accelsim_opts_t ao;
    ga_accelsim_default_opts(&ao);
    if (sms) ao.sms = (unsigned)sms;
    ao.allocs_path = allocs;
    ao.allocs_shift = shift;
    ao.allocs_rebase = rebase;
    ao.warn = note_cb;
    ao.warn_ctx = &notes;
    ga_trace_err_t err;
    ga_trace_reader_t *r = NULL;
    if (open_trace(&r, in, format, &ao, &err) != 0) {
        fprintf(errf, "%s: %s\n", prog, err.msg);
        notes_free(&notes);
        return GA_EXIT_ERROR;
    }
    /* Standard output gets the text only after a complete conversion: collect it in a temporary
     * file first. */
    bool to_stdout = strcmp(outp, "-") == 0;
    FILE *spool = to_stdout ? tmpfile() : NULL;
    if (to_stdout && spool == NULL) {
        fprintf(errf, "%s: cannot create a temporary file: %s\n", prog, strerror(errno));
        ga_trace_close(r);
        notes_free(&notes);
        return GA_EXIT_ERROR;
    }
    outfile_t of;
    if (out_open(&of, outp, to_stdout ? spool : out, errf, prog) != 0) {
        ga_trace_close(r);
        if (spool) fclose(spool);
        notes_free(&notes);
        return GA_EXIT_ERROR;
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
            notes_free(&notes);
            return GA_EXIT_ERROR;
        }
    }
    int status = GA_EXIT_OK;
    bool werr = false;
    ga_tev_t ev;
    int rc = ga_trace_next(r, &ev, &err);
    char buf[GA_TRACE_LINE_MAX];
    if (rc >= 0) {
        ga_trace_header_t h = *ga_trace_header(r);
        h.version = (unsigned)outv;
        if (outv < 2u) h.tag_bits = 0; /* checked below: a version-1 writer cannot say it */
        int n = ga_trace_format_header(&h, buf, sizeof buf);
        if (ga_trace_header(r)->tag_bits && outv < 2u) {
            fprintf(errf, "%s: %s declares tag_bits=%u, which version 1 cannot express: use --out-version 2\n", prog,
                    in, ga_trace_header(r)->tag_bits);
            status = GA_EXIT_ERROR;
        } else if (n < 0 || sink_line(&sk, buf, (size_t)n) != 0) {
            werr = true;
        }
    }
    while (rc > 0 && status == 0 && !werr) {
        if (outv < 2u && (ev.kind == GA_TEV_FREEP || (ev.kind == GA_TEV_FREE && ev.again))) {
            fprintf(errf, "%s: %s:%" PRIu64 ": a '%s' of a %s needs format version 2: use --out-version 2\n", prog,
                    ga_trace_name(r), ev.line, ga_tev_name(ev.kind), ev.kind == GA_TEV_FREEP ? "raw pointer" : "freed ID");
            status = GA_EXIT_ERROR;
            break;
        }
        int n = ga_trace_format_event(&ev, buf, sizeof buf);
        if (n < 0 || sink_line(&sk, buf, (size_t)n) != 0) werr = true;
        else rc = ga_trace_next(r, &ev, &err);
    }
    if (rc == 0 && status == 0 && !werr && outv >= 2u) {
        int n = ga_trace_format_end(buf, sizeof buf);
        if (n < 0 || sink_line(&sk, buf, (size_t)n) != 0) werr = true;
    }
    if (rc < 0) {
        fprintf(errf, "%s: %s\n", prog, err.msg);
        status = GA_EXIT_ERROR;
    } else if (werr) {
        fprintf(errf, "%s: %s: write failed\n", prog, outp);
        status = GA_EXIT_ERROR;
    }
    if (sk.gz && gzclose(sk.gz) != Z_OK && status == 0) {
        fprintf(errf, "%s: %s: gzip write failed\n", prog, outp);
        status = GA_EXIT_ERROR;
    }
    if (out_close(&of, status == 0, errf, prog) != 0) status = GA_EXIT_ERROR;
    if (spool) {
        if (status == 0) {
            rewind(spool);
            size_t n;
            while ((n = fread(buf, 1, sizeof buf, spool)) > 0)
                if (fwrite(buf, 1, n, out) != n) status = GA_EXIT_ERROR;
            if (ferror(spool) || fflush(out) != 0) status = GA_EXIT_ERROR;
            if (status) fprintf(errf, "%s: writing standard output failed\n", prog);
        }
        fclose(spool);
    }
    for (unsigned i = 0; i < notes.n; i++) fprintf(errf, "%s: %s\n", prog, notes.msg[i]);
    notes_free(&notes);
    ga_trace_close(r);
    return status;
}
