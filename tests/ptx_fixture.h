/*
 * ptx_fixture.h — helpers shared by the compiler-pass tests (test_ptx_root.c, test_ptx_instr.c):
 * reading files, listing the fixtures of tests/ptx/roots/ (tests/ptx/roots/README.md), printing a
 * module to a string, and running ptxas when it is installed. Static functions in a header so that
 * no object is added to every test binary (the top Makefile links tests/common_*.c into all tests).
 * Paths are relative to the repository root, where the tests run.
 */
#ifndef PTX_FIXTURE_H
#define PTX_FIXTURE_H

#include "ptx_ir.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define FIXTURE_DIR "tests/ptx/roots"

/* The whole file, NUL-terminated; NULL if unreadable. */
static inline char *fx_read(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL) return NULL;
    size_t cap = 4096, n = 0;
    char *b = malloc(cap);
    while (b) {
        size_t r = fread(b + n, 1, cap - n - 1, f);
        n += r;
        if (r == 0) break;
        if (n + 1 == cap) {
            char *nb = realloc(b, cap * 2);
            if (nb == NULL) {
                free(b);
                b = NULL;
                break;
            }
            b = nb;
            cap *= 2;
        }
    }
    fclose(f);
    if (b) b[n] = 0;
    if (len) *len = n;
    return b;
}

static inline int fx_cmp(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* The fixture paths (sorted) whose names end in ".ptx"; kind: 0 all, 1 those that must succeed,
 * 2 the err_* ones, 3 those ptxas must accept (neither err_* nor noasm_*). Free with fx_free_list. */
static inline char **fx_list(int kind, size_t *n)
{
    *n = 0;
    DIR *d = opendir(FIXTURE_DIR);
    if (d == NULL) return NULL;
    char **v = NULL;
    size_t cap = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        size_t l = strlen(e->d_name);
        if (l < 5 || strcmp(e->d_name + l - 4, ".ptx") != 0) continue;
        bool err = strncmp(e->d_name, "err_", 4) == 0;
        bool noasm = strncmp(e->d_name, "noasm_", 6) == 0;
        if ((kind == 1 && err) || (kind == 2 && !err) || (kind == 3 && (err || noasm))) continue;
        if (*n == cap) {
            cap = cap ? cap * 2 : 16;
            char **nv = realloc(v, cap * sizeof *nv);
            if (nv == NULL) break;
            v = nv;
        }
        size_t pl = strlen(FIXTURE_DIR) + l + 2;
        v[*n] = malloc(pl);
        if (v[*n] == NULL) break;
        snprintf(v[*n], pl, "%s/%s", FIXTURE_DIR, e->d_name);
        (*n)++;
    }
    closedir(d);
    if (v) qsort(v, *n, sizeof *v, fx_cmp);
    return v;
}

static inline void fx_free_list(char **v, size_t n)
{
    for (size_t k = 0; k < n; k++) free(v[k]);
    free(v);
}

static inline ptx_module_t *fx_parse(const char *path)
{
    ptx_err_t e;
    memset(&e, 0, sizeof e);
    ptx_module_t *m = ptx_parse_file(path, &e);
    if (m == NULL) fprintf(stderr, "%s\n", e.msg);
    return m;
}

static inline char *fx_print(const ptx_module_t *m)
{
    size_t n;
    return ptx_print_str(m, &n);
}

/* 1 when ptxas is on the PATH. */
static inline int fx_have_ptxas(void) { return system("command -v ptxas >/dev/null 2>&1") == 0; }

/* Assemble text with ptxas -arch=sm_80; 0 when it accepts. Its messages go to *log (malloc'd). */
static inline int fx_ptxas(const char *text, char **log)
{
    const char *dir = getenv("TMPDIR");
    char src[512];
    snprintf(src, sizeof src, "%s/gaptx_test_XXXXXX", dir && *dir ? dir : "/tmp");
    int fd = mkstemp(src);
    *log = NULL;
    if (fd < 0) return -1;
    size_t n = strlen(text);
    ssize_t w = write(fd, text, n);
    close(fd);
    if (w < 0 || (size_t)w != n) {
        unlink(src);
        return -1;
    }
    char logp[sizeof src + 8];
    snprintf(logp, sizeof logp, "%s.log", src);
    char cmd[1200];
    snprintf(cmd, sizeof cmd, "ptxas -arch=sm_80 %s -o /dev/null >%s 2>&1", src, logp);
    int rc = system(cmd);
    *log = fx_read(logp, NULL);
    unlink(src);
    unlink(logp);
    return rc;
}

#endif /* PTX_FIXTURE_H */
