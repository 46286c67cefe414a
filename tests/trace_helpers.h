/*
 * trace_helpers.h — helpers shared by the trace tests (test_trace.c, test_accelsim.c): a scratch
 * directory, in-process runs of the command-line tools with their output captured, a small JSON
 * syntax checker. Static inline so that each test file takes what it uses (and tests that do not
 * include this header do not link the trace library).
 */
#ifndef TRACE_HELPERS_H
#define TRACE_HELPERS_H

#include <check.h>
#include <dirent.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "trace/ga_cli.h"

/* A fresh scratch directory under $TMPDIR (or /tmp), returned in buf. */
static inline void th_tmpdir(char *buf, size_t cap)
{
    const char *t = getenv("TMPDIR");
    snprintf(buf, cap, "%s/gatrace-test-XXXXXX", t && *t ? t : "/tmp");
    ck_assert_ptr_nonnull(mkdtemp(buf));
}

/* Remove a scratch directory and the plain files in it. */
static inline void th_rmdir(const char *dir)
{
    DIR *d = opendir(dir);
    if (d == NULL) return;
    struct dirent *e;
    char p[1024];
    while ((e = readdir(d)) != NULL) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
        snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
        unlink(p);
    }
    closedir(d);
    rmdir(dir);
}

/* Number of entries (files) in dir. */
static inline int th_count_files(const char *dir)
{
    DIR *d = opendir(dir);
    int n = 0;
    struct dirent *e;
    if (d == NULL) return -1;
    while ((e = readdir(d)) != NULL)
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) n++;
    closedir(d);
    return n;
}

static inline void th_write(const char *path, const void *data, size_t n)
{
    FILE *f = fopen(path, "wb");
    ck_assert_ptr_nonnull(f);
    ck_assert_uint_eq(fwrite(data, 1, n, f), n);
    ck_assert_int_eq(fclose(f), 0);
}

/* The whole content of a file, NUL-terminated (caller frees); NULL when it cannot be read. */
static inline char *th_slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL) return NULL;
    size_t cap = 4096, n = 0;
    char *b = malloc(cap);
    size_t k;
    while (b && (k = fread(b + n, 1, cap - n - 1, f)) > 0) {
        n += k;
        if (cap - n - 1 == 0) {
            cap *= 2;
            char *nb = realloc(b, cap);
            if (nb == NULL) free(b);
            b = nb;
        }
    }
    fclose(f);
    if (b) b[n] = '\0';
    return b;
}

/* The result of one in-process tool run. */
typedef struct {
    int rc;
    char *out, *err; /* captured stdout / stderr text (free with th_free) */
} th_run_t;

static inline char *th_read_stream(FILE *f)
{
    rewind(f);
    size_t cap = 4096, n = 0;
    char *b = malloc(cap);
    ck_assert_ptr_nonnull(b);
    size_t k;
    while ((k = fread(b + n, 1, cap - n - 1, f)) > 0) {
        n += k;
        if (cap - n - 1 == 0) {
            cap *= 2;
            b = realloc(b, cap);
            ck_assert_ptr_nonnull(b);
        }
    }
    b[n] = '\0';
    return b;
}

/* Run main_fn with the NULL-terminated argument list, capturing its output. */
static inline th_run_t th_run(int (*main_fn)(int, char **, FILE *, FILE *), const char *arg0, ...)
{
    char *argv[64];
    int argc = 0;
    argv[argc++] = (char *)arg0;
    va_list ap;
    va_start(ap, arg0);
    const char *a;
    while ((a = va_arg(ap, const char *)) != NULL && argc < 63) argv[argc++] = (char *)a;
    va_end(ap);
    argv[argc] = NULL;
    FILE *o = tmpfile(), *e = tmpfile();
    ck_assert_ptr_nonnull(o);
    ck_assert_ptr_nonnull(e);
    th_run_t r;
    r.rc = main_fn(argc, argv, o, e);
    r.out = th_read_stream(o);
    r.err = th_read_stream(e);
    fclose(o);
    fclose(e);
    return r;
}

static inline void th_free(th_run_t *r)
{
    free(r->out);
    free(r->err);
}

/* ---------------------------------------------------------------------------------------------------
 * A JSON syntax checker (RFC 8259 grammar, no semantic checks): enough to know gasim's output parses. */

static inline void th_json_ws(const char **p)
{
    while (**p == ' ' || **p == '\t' || **p == '\n' || **p == '\r') (*p)++;
}

static inline bool th_json_value(const char **p, int depth);

static inline bool th_json_string(const char **p)
{
    if (**p != '"') return false;
    (*p)++;
    while (**p && **p != '"') {
        unsigned char c = (unsigned char)**p;
        if (c < 0x20) return false;
        if (c == '\\') {
            (*p)++;
            if (**p == 'u') {
                for (int i = 1; i <= 4; i++) {
                    char h = (*p)[i];
                    if (!((h >= '0' && h <= '9') || (h >= 'a' && h <= 'f') || (h >= 'A' && h <= 'F'))) return false;
                }
                *p += 4;
            } else if (!strchr("\"\\/bfnrt", **p) || **p == '\0') {
                return false;
            }
        }
        (*p)++;
    }
    if (**p != '"') return false;
    (*p)++;
    return true;
}

static inline bool th_json_number(const char **p)
{
    const char *s = *p;
    if (**p == '-') (*p)++;
    if (**p == '0') (*p)++;
    else if (**p >= '1' && **p <= '9') while (**p >= '0' && **p <= '9') (*p)++;
    else return false;
    if (**p == '.') {
        (*p)++;
        if (!(**p >= '0' && **p <= '9')) return false;
        while (**p >= '0' && **p <= '9') (*p)++;
    }
    if (**p == 'e' || **p == 'E') {
        (*p)++;
        if (**p == '+' || **p == '-') (*p)++;
        if (!(**p >= '0' && **p <= '9')) return false;
        while (**p >= '0' && **p <= '9') (*p)++;
    }
    return *p > s;
}

static inline bool th_json_value(const char **p, int depth)
{
    if (depth > 64) return false;
    th_json_ws(p);
    if (**p == '{' || **p == '[') {
        char close = **p == '{' ? '}' : ']';
        bool obj = **p == '{';
        (*p)++;
        th_json_ws(p);
        if (**p == close) {
            (*p)++;
            return true;
        }
        for (;;) {
            th_json_ws(p);
            if (obj) {
                if (!th_json_string(p)) return false;
                th_json_ws(p);
                if (**p != ':') return false;
                (*p)++;
            }
            if (!th_json_value(p, depth + 1)) return false;
            th_json_ws(p);
            if (**p == ',') {
                (*p)++;
                continue;
            }
            if (**p != close) return false;
            (*p)++;
            return true;
        }
    }
    if (**p == '"') return th_json_string(p);
    if (!strncmp(*p, "true", 4)) return (*p += 4, true);
    if (!strncmp(*p, "false", 5)) return (*p += 5, true);
    if (!strncmp(*p, "null", 4)) return (*p += 4, true);
    return th_json_number(p);
}

/* True when text is exactly one JSON value (surrounding white space allowed). */
static inline bool th_json_valid(const char *text)
{
    const char *p = text;
    if (!th_json_value(&p, 0)) return false;
    th_json_ws(&p);
    return *p == '\0';
}

#endif /* TRACE_HELPERS_H */
