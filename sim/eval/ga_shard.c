/*
 * ga_shard.c — shard files of a campaign: create or resume one, append rows, merge many into the
 * canonical file (ga_shard.h states the format and the rules).
 */
#include "ga_shard.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

struct ga_shard_out {
    FILE *f;
    char *path;
    uint64_t units, kept;
    size_t commas; /* commas of a row: those of "unit," + columns */
    uint8_t *done; /* one bit per unit */
};

static void say(char *msg, size_t cap, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void say(char *msg, size_t cap, const char *fmt, ...)
{
    if (msg == NULL || cap == 0) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, cap, fmt, ap);
    va_end(ap);
}

/* See ga_shard.h. */
int ga_shard_parse(const char *s, ga_shard_t *sh, char *msg, size_t cap)
{
    const char *slash = s ? strchr(s, '/') : NULL;
    char *end;
    unsigned long long i, n;
    if (slash == NULL || slash == s || s[0] < '0' || s[0] > '9' || slash[1] < '0' || slash[1] > '9') goto bad;
    errno = 0;
    i = strtoull(s, &end, 10);
    if (errno || end != slash) goto bad;
    n = strtoull(slash + 1, &end, 10);
    if (errno || *end != '\0' || n < 1 || n > 1000000 || i >= n) goto bad;
    sh->index = (uint32_t)i;
    sh->count = (uint32_t)n;
    return 0;
bad:
    say(msg, cap, "--shard: expected I/N with 0 <= I < N <= 1000000 (e.g. 0/4), got '%s'", s ? s : "");
    return -1;
}

/* See ga_shard.h. */
bool ga_shard_owns(const ga_shard_t *sh, uint64_t u) { return u % sh->count == sh->index; }

/* See ga_shard.h. */
uint64_t ga_shard_hash(uint64_t h, const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++) {
        h ^= b[i];
        h *= UINT64_C(0x100000001b3); /* the 64-bit FNV prime */
    }
    return h;
}

static bool bit(const uint8_t *v, uint64_t u) { return (v[u >> 3] >> (u & 7u)) & 1u; }
static void set_bit(uint8_t *v, uint64_t u) { v[u >> 3] |= (uint8_t)(1u << (u & 7u)); }

static size_t count_commas(const char *s, size_t n)
{
    size_t c = 0;
    for (size_t i = 0; i < n; i++) c += s[i] == ',';
    return c;
}

/* The unit number at the start of a row ("U,..."): true with *u set when the row starts with decimal
 * digits and a comma. */
static bool row_unit(const char *line, uint64_t *u)
{
    if (line[0] < '0' || line[0] > '9') return false;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(line, &end, 10);
    if (errno || *end != ',') return false;
    *u = v;
    return true;
}

/* Both header lines for a campaign, each with its '\n'. */
static int headers(char **h1, char **h2, const char *campaign, uint64_t units, uint64_t spec, const char *columns)
{
    size_t n1 = strlen(campaign) + 96, n2 = strlen(columns) + 8;
    *h1 = malloc(n1);
    *h2 = malloc(n2);
    if (*h1 == NULL || *h2 == NULL) return -1;
    snprintf(*h1, n1, "# gaeval-shard 1 campaign=%s units=%" PRIu64 " spec=%016" PRIx64 "\n", campaign, units, spec);
    snprintf(*h2, n2, "unit,%s\n", columns);
    return 0;
}

/* See ga_shard.h. */
int ga_shard_open(ga_shard_out_t **out, const char *path, const char *campaign, uint64_t units, uint64_t spec,
                  const char *columns, char *msg, size_t cap)
{
    *out = NULL;
    if (campaign == NULL || campaign[0] == '\0' || strspn(campaign, "abcdefghijklmnopqrstuvwxyz"
                                                                    "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-") !=
                                                         strlen(campaign)) {
        say(msg, cap, "%s: bad campaign name", path);
        return -1;
    }
    if (units < 1 || units > GA_SHARD_MAX_UNITS || columns == NULL || columns[0] == '\0' ||
        strchr(columns, '\n') != NULL) {
        say(msg, cap, "%s: bad campaign shape (units 1 .. %" PRIu64 ", one line of columns)", path,
            GA_SHARD_MAX_UNITS);
        return -1;
    }
    ga_shard_out_t *o = calloc(1, sizeof *o);
    char *h1 = NULL, *h2 = NULL, *line = NULL;
    size_t lcap = 0;
    FILE *in = NULL;
    if (o == NULL || headers(&h1, &h2, campaign, units, spec, columns) != 0) goto oom;
    o->path = strdup(path);
    o->done = calloc((size_t)((units + 7) / 8), 1);
    if (o->path == NULL || o->done == NULL) goto oom;
    o->units = units;
    o->commas = 1 + count_commas(columns, strlen(columns));

    in = fopen(path, "r");
    bool fresh = true;
    if (in != NULL) {
        /* An existing file: a prefix of the header lines (killed while writing them) starts afresh;
         * otherwise it must hold exactly this campaign's headers, then rows. */
        size_t l1 = strlen(h1), l2 = strlen(h2);
        char *want = malloc(l1 + l2 + 1);
        if (want == NULL) goto oom;
        memcpy(want, h1, l1);
        memcpy(want + l1, h2, l2 + 1);
        char *got = malloc(l1 + l2 + 1);
        if (got == NULL) {
            free(want);
            goto oom;
        }
        size_t n = fread(got, 1, l1 + l2, in);
        bool prefix = memcmp(got, want, n) == 0;
        free(got);
        free(want);
        if (!prefix) {
            say(msg, cap, "%s: written by another campaign or with other parameters (its first lines are not "
                          "'%.*s' and '%.*s'): remove it or write elsewhere", path, (int)(l1 - 1), h1,
                (int)(l2 - 1), h2);
            goto fail;
        }
        if (n == l1 + l2) {
            fresh = false;
            off_t good = (off_t)n;
            uint64_t ln = 2;
            ssize_t len;
            while ((len = getline(&line, &lcap, in)) > 0) {
                ln++;
                if (line[len - 1] != '\n') break; /* a torn last line: cut below */
                uint64_t u;
                if (!row_unit(line, &u) || count_commas(line, (size_t)len) != o->commas) {
                    say(msg, cap, "%s:%" PRIu64 ": not a row of this campaign (expected U, then %zu cells)", path, ln,
                        o->commas);
                    goto fail;
                }
                if (u >= units) {
                    say(msg, cap, "%s:%" PRIu64 ": unit %" PRIu64 " is outside 0 .. %" PRIu64, path, ln, u, units - 1);
                    goto fail;
                }
                if (bit(o->done, u)) {
                    say(msg, cap, "%s:%" PRIu64 ": unit %" PRIu64 " appears twice", path, ln, u);
                    goto fail;
                }
                set_bit(o->done, u);
                o->kept++;
                good += (off_t)len;
            }
            if (ferror(in)) {
                say(msg, cap, "%s: read error: %s", path, strerror(errno));
                goto fail;
            }
            fclose(in);
            in = NULL;
            struct stat sb;
            if (stat(path, &sb) == 0 && sb.st_size != good && truncate(path, good) != 0) {
                say(msg, cap, "%s: cannot cut its torn last line: %s", path, strerror(errno));
                goto fail;
            }
        }
        if (in != NULL) {
            fclose(in);
            in = NULL;
        }
    }
    o->f = fopen(path, fresh ? "w" : "a");
    if (o->f == NULL) {
        say(msg, cap, "%s: cannot write: %s", path, strerror(errno));
        goto fail;
    }
    if (fresh && (fputs(h1, o->f) == EOF || fputs(h2, o->f) == EOF || fflush(o->f) != 0)) {
        say(msg, cap, "%s: write error: %s", path, strerror(errno));
        goto fail;
    }
    free(h1);
    free(h2);
    free(line);
    *out = o;
    return 0;
oom:
    say(msg, cap, "%s: out of memory", path);
fail:
    if (in != NULL) fclose(in);
    free(h1);
    free(h2);
    free(line);
    if (o != NULL) {
        if (o->f != NULL) fclose(o->f);
        free(o->path);
        free(o->done);
        free(o);
    }
    return -1;
}

/* See ga_shard.h. */
bool ga_shard_done(const ga_shard_out_t *o, uint64_t u) { return u < o->units && bit(o->done, u); }

/* See ga_shard.h. */
uint64_t ga_shard_kept(const ga_shard_out_t *o) { return o->kept; }

/* See ga_shard.h. */
int ga_shard_row(ga_shard_out_t *o, uint64_t u, const char *cells, char *msg, size_t cap)
{
    if (u >= o->units || bit(o->done, u)) {
        say(msg, cap, "%s: unit %" PRIu64 " %s", o->path, u, u >= o->units ? "out of range" : "written twice");
        return -1;
    }
    if (strchr(cells, '\n') != NULL || count_commas(cells, strlen(cells)) + 1 != o->commas) {
        say(msg, cap, "%s: unit %" PRIu64 ": a row must hold %zu cells and no newline", o->path, u, o->commas);
        return -1;
    }
    if (fprintf(o->f, "%" PRIu64 ",%s\n", u, cells) < 0 || fflush(o->f) != 0) {
        say(msg, cap, "%s: write error: %s", o->path, strerror(errno));
        return -1;
    }
    set_bit(o->done, u);
    return 0;
}

/* See ga_shard.h. */
int ga_shard_close(ga_shard_out_t *o, char *msg, size_t cap)
{
    if (o == NULL) return 0;
    int rc = 0;
    if (ferror(o->f) || fclose(o->f) != 0) {
        say(msg, cap, "%s: write error", o->path);
        rc = -1;
    }
    free(o->path);
    free(o->done);
    free(o);
    return rc;
}

/* ------------------------------------------------------------------------------------------------ */
/* Merge                                                                                            */

typedef struct {
    char *text;   /* the row with its '\n' */
    uint32_t src; /* input index */
    uint64_t line;
} mrow_t;

/* See ga_shard.h. */
int ga_shard_merge(const char *out, const char *const *in, size_t n, bool partial, uint64_t *rows_out, char *msg,
                   size_t cap)
{
    if (rows_out) *rows_out = 0;
    if (n == 0) {
        say(msg, cap, "merge: no input files");
        return -1;
    }
    struct stat so;
    bool out_exists = stat(out, &so) == 0;
    for (size_t i = 0; i < n; i++) {
        struct stat si;
        if (strcmp(in[i], out) == 0 ||
            (out_exists && stat(in[i], &si) == 0 && si.st_dev == so.st_dev && si.st_ino == so.st_ino)) {
            say(msg, cap, "merge: the output %s is also an input", out);
            return -1;
        }
    }
    char *h1 = NULL, *h2 = NULL, *line = NULL, *tmp = NULL;
    size_t lcap = 0;
    mrow_t *rows = NULL;
    uint64_t units = 0, got = 0;
    size_t commas = 0;
    FILE *f = NULL;
    int rc = -1;
    for (size_t i = 0; i < n; i++) {
        f = fopen(in[i], "r");
        if (f == NULL) {
            say(msg, cap, "%s: cannot open: %s", in[i], strerror(errno));
            goto out;
        }
        ssize_t len;
        uint64_t ln = 0;
        while ((len = getline(&line, &lcap, f)) > 0) {
            ln++;
            if (line[len - 1] != '\n') {
                say(msg, cap, "%s:%" PRIu64 ": a torn last line: the shard was interrupted (run it again to "
                              "finish it, then merge)", in[i], ln);
                goto out;
            }
            if (ln <= 2) {
                char **h = ln == 1 ? &h1 : &h2;
                if (i == 0) {
                    *h = strdup(line);
                    if (*h == NULL) goto oom;
                    if (ln == 1) {
                        const char *p = strstr(line, " units=");
                        if (strncmp(line, "# gaeval-shard 1 campaign=", 26) != 0 || p == NULL ||
                            sscanf(p, " units=%" SCNu64, &units) != 1 || units < 1 || units > GA_SHARD_MAX_UNITS) {
                            say(msg, cap, "%s:1: expected '# gaeval-shard 1 campaign=NAME units=N spec=H'", in[i]);
                            goto out;
                        }
                        rows = calloc((size_t)units, sizeof *rows);
                        if (rows == NULL) goto oom;
                    } else {
                        commas = count_commas(line, (size_t)len);
                    }
                } else if (strcmp(*h, line) != 0) {
                    say(msg, cap, "%s:%" PRIu64 ": differs from %s:%" PRIu64 " (another campaign or other "
                                  "parameters): '%.*s'", in[i], ln, in[0], ln, (int)(len - 1), line);
                    goto out;
                }
                continue;
            }
            uint64_t u;
            if (!row_unit(line, &u) || count_commas(line, (size_t)len) != commas) {
                say(msg, cap, "%s:%" PRIu64 ": not a row of this campaign (expected U, then %zu cells)", in[i], ln,
                    commas);
                goto out;
            }
            if (u >= units) {
                say(msg, cap, "%s:%" PRIu64 ": unit %" PRIu64 " is outside 0 .. %" PRIu64, in[i], ln, u, units - 1);
                goto out;
            }
            if (rows[u].text != NULL) {
                say(msg, cap, "%s:%" PRIu64 ": unit %" PRIu64 " is also in %s:%" PRIu64 " (a shard merged twice, "
                              "or two runs of one shard)", in[i], ln, u, in[rows[u].src], rows[u].line);
                goto out;
            }
            rows[u].text = strdup(line);
            if (rows[u].text == NULL) goto oom;
            rows[u].src = (uint32_t)i;
            rows[u].line = ln;
            got++;
        }
        if (ferror(f)) {
            say(msg, cap, "%s: read error: %s", in[i], strerror(errno));
            goto out;
        }
        if (ln < 2) {
            say(msg, cap, "%s: no shard header (expected two header lines)", in[i]);
            goto out;
        }
        fclose(f);
        f = NULL;
    }
    if (!partial && got != units) {
        uint64_t first = 0;
        while (first < units && rows[first].text != NULL) first++;
        say(msg, cap, "merge: %" PRIu64 " of %" PRIu64 " units have no row (the first: unit %" PRIu64 "): a shard "
                      "is missing or unfinished (--partial merges what there is)", units - got, units, first);
        goto out;
    }
    size_t tl = strlen(out) + 5;
    tmp = malloc(tl);
    if (tmp == NULL) goto oom;
    snprintf(tmp, tl, "%s.tmp", out);
    f = fopen(tmp, "w");
    if (f == NULL) {
        say(msg, cap, "%s: cannot write: %s", tmp, strerror(errno));
        goto out;
    }
    fputs(h1, f);
    fputs(h2, f);
    for (uint64_t u = 0; u < units; u++)
        if (rows[u].text != NULL) fputs(rows[u].text, f);
    if (ferror(f) || fclose(f) != 0) {
        f = NULL;
        say(msg, cap, "%s: write error", tmp);
        remove(tmp);
        goto out;
    }
    f = NULL;
    if (rename(tmp, out) != 0) {
        say(msg, cap, "%s: cannot rename to %s: %s", tmp, out, strerror(errno));
        remove(tmp);
        goto out;
    }
    if (rows_out) *rows_out = got;
    rc = 0;
    goto out;
oom:
    say(msg, cap, "merge: out of memory");
out:
    if (f != NULL) fclose(f);
    if (rows != NULL)
        for (uint64_t u = 0; u < units; u++) free(rows[u].text);
    free(rows);
    free(h1);
    free(h2);
    free(line);
    free(tmp);
    return rc;
}
