/*
 * ga_linesrc.c — line sources for the gatrace reader (ga_trace.h): a file (plain or gzip, read through
 * zlib) and a memory buffer. Both split lines the same way (docs/traces.md §2): '\n' ends a line, one
 * '\r' before it is dropped, the last line may lack its '\n', and a line longer than the caller's
 * buffer is an error, never truncated (one full of NUL bytes is reported as binary data, which is what
 * it almost always is). zlib's own messages are never shown bare: a corrupt or truncated gzip stream
 * is named as such, with the file.
 */
#include "ga_trace.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#define FSRC_CHUNK 65536u

/* snprintf into err->msg; never overflows. */
static void set_err(ga_trace_err_t *err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* snprintf into err->msg; never overflows. */
static void set_err(ga_trace_err_t *err, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    va_end(ap);
}

/* The splitter both sources share: a window buf[pos..end) of input and the line being assembled. */
typedef struct {
    const char *name;
    uint64_t line;   /* lines returned so far */
    bool started;    /* some byte of the current line was consumed */
} split_t;

/* Append src[0..n) to the line out[*len..]. Returns false when the line would exceed cap - 1 bytes. */
static bool line_append(char *out, size_t cap, size_t *len, const char *src, size_t n)
{
    if (n > cap - 1u - *len) return false;
    memcpy(out + *len, src, n);
    *len += n;
    return true;
}

/* Finish a line: drop one trailing '\r'. */
static void line_done(split_t *s, char *out, size_t *len)
{
    (void)out;
    if (*len > 0 && out[*len - 1u] == '\r') (*len)--;
    s->line++;
    s->started = false;
}

/* Consume from win[*pos..end) up to and including a '\n'. Returns 1 when a line is complete, 0 when
 * the window ran out first, -1 when the line is too long. */
static int split_step(split_t *s, const char *win, size_t *pos, size_t end, char *out, size_t cap, size_t *len,
                      ga_trace_err_t *err)
{
    const char *start = win + *pos;
    size_t avail = end - *pos;
    const char *nl = memchr(start, '\n', avail);
    size_t take = nl ? (size_t)(nl - start) : avail;
    if (take > 0 || nl) s->started = true;
    if (!line_append(out, cap, len, start, take)) {
        size_t nul = 0;
        for (size_t i = 0; i < *len; i++) nul += out[i] == '\0';
        for (size_t i = 0; i < take && *len + i < cap - 1u; i++) nul += start[i] == '\0';
        if (nul)
            set_err(err, "%s:%llu: NUL bytes in the input (%zu in the first %zu bytes of the line): not a text trace "
                    "(binary data?)", s->name, (unsigned long long)(s->line + 1u), nul, cap - 1u);
        else
            set_err(err, "%s:%llu: line longer than %zu bytes", s->name, (unsigned long long)(s->line + 1u), cap - 1u);
        return -1;
    }
    *pos += take;
    if (nl) {
        (*pos)++;
        line_done(s, out, len);
        return 1;
    }
    return 0;
}

/* ---------------------------------------------------------------------------------------------------
 * Memory source. */

typedef struct {
    split_t sp;
    const char *buf;
    size_t pos, len;
} msrc_t;

/* Memory source next(): see ga_line_src_t. */
static int msrc_next(void *ctx, char *out, size_t cap, size_t *len, ga_trace_err_t *err)
{
    msrc_t *m = ctx;
    *len = 0;
    if (m->pos >= m->len) return 0;
    int rc = split_step(&m->sp, m->buf, &m->pos, m->len, out, cap, len, err);
    if (rc != 0) return rc;
    line_done(&m->sp, out, len); /* last line without '\n' */
    return 1;
}

/* Bytes consumed of the buffer and its length. */
static void msrc_progress(void *ctx, uint64_t *done, uint64_t *total)
{
    const msrc_t *m = ctx;
    *done = m->pos;
    *total = m->len;
}

/* Free the memory source (the buffer is the caller's). */
static void msrc_close(void *ctx) { free(ctx); }

/* See ga_trace.h. Out of memory leaves next NULL, which ga_trace_open_src reports. */
void ga_line_src_mem(ga_line_src_t *src, const char *name, const void *buf, size_t len)
{
    msrc_t *m = calloc(1, sizeof *m);
    memset(src, 0, sizeof *src);
    src->name = name;
    if (m == NULL) {
        /* Out of memory: a source that is empty would hide the failure; report it on first use. */
        src->next = NULL;
        return;
    }
    m->sp.name = name;
    m->buf = buf;
    m->len = len;
    src->ctx = m;
    src->next = msrc_next;
    src->close = msrc_close;
    src->progress = msrc_progress;
}

/* ---------------------------------------------------------------------------------------------------
 * File source (zlib reads gzip and passes anything else through unchanged). */

typedef struct {
    split_t sp;
    gzFile gz;
    char *name;
    char *win;
    size_t pos, end;
    bool eof;
    uint64_t total;  /* file size for a regular file, else 0 */
    uint64_t delivered; /* decompressed bytes zlib has handed over (window refills) */
} fsrc_t;

/* Refill the window. Returns 0 (data or end of input), -1 with err for a read or gzip error. */
static int fsrc_fill(fsrc_t *f, ga_trace_err_t *err)
{
    int n = gzread(f->gz, f->win, FSRC_CHUNK);
    int zerr = Z_OK;
    const char *zmsg = gzerror(f->gz, &zerr);
    if (n < 0 || (zerr != Z_OK && zerr != Z_BUF_ERROR)) {
        if (zerr == Z_ERRNO) {
            set_err(err, "%s:%llu: read error: %s", f->name, (unsigned long long)(f->sp.line + 1u), strerror(errno));
        } else {
            /* zlib prefixes "<fd:N>: "; keep only its reason, after saying what is wrong */
            const char *why = zmsg ? strstr(zmsg, ">: ") : NULL;
            why = why ? why + 3 : (zmsg ? zmsg : "");
            set_err(err, "%s:%llu: not valid gzip data: the file starts with the gzip magic bytes (1f 8b) but its "
                    "compressed data is corrupt (zlib: %s)", f->name, (unsigned long long)(f->sp.line + 1u), why);
        }
        return -1;
    }
    if (n == 0 && zerr == Z_BUF_ERROR) {
        set_err(err, "%s:%llu: truncated gzip stream (the compressed data ends before the gzip trailer)", f->name,
                (unsigned long long)(f->sp.line + 1u));
        return -1;
    }
    f->pos = 0;
    f->end = (size_t)n;
    f->delivered += (uint64_t)n;
    if (n == 0) f->eof = true;
    return 0;
}

/* File source next(): see ga_line_src_t. */
static int fsrc_next(void *ctx, char *out, size_t cap, size_t *len, ga_trace_err_t *err)
{
    fsrc_t *f = ctx;
    *len = 0;
    for (;;) {
        if (f->pos == f->end) {
            if (!f->eof && fsrc_fill(f, err) != 0) return -1;
            if (f->eof) {
                if (!f->sp.started) return 0;
                line_done(&f->sp, out, len);
                return 1;
            }
        }
        int rc = split_step(&f->sp, f->win, &f->pos, f->end, out, cap, len, err);
        if (rc != 0) return rc;
    }
}

/* Input bytes consumed and the file size (0 when not a regular file). zlib reads ahead (up to 128 KiB
 * of file, plus our 64 KiB window), so its file offset runs ahead of the lines handed out; the offset
 * is scaled by the share of decompressed bytes already split into lines, which is exact for a plain
 * file and proportional for gzip. */
static void fsrc_progress(void *ctx, uint64_t *done, uint64_t *total)
{
    fsrc_t *f = ctx;
    z_off_t off = gzoffset(f->gz);
    uint64_t o = off < 0 ? 0u : (uint64_t)off;
    uint64_t used = f->delivered - (uint64_t)(f->end - f->pos); /* decompressed bytes split so far */
    *done = f->delivered ? (uint64_t)((double)o * ((double)used / (double)f->delivered)) : o;
    *total = f->total;
}

/* Close the zlib stream and free the source. */
static void fsrc_close(void *ctx)
{
    fsrc_t *f = ctx;
    if (f == NULL) return;
    if (f->gz) gzclose(f->gz);
    free(f->win);
    free(f->name);
    free(f);
}

/* See ga_trace.h. */
int ga_line_src_file(ga_line_src_t *src, const char *path, ga_trace_err_t *err)
{
    memset(src, 0, sizeof *src);
    bool is_stdin = strcmp(path, "-") == 0;
    int fd = is_stdin ? dup(STDIN_FILENO) : open(path, O_RDONLY);
    if (fd < 0) {
        set_err(err, "%s: cannot open: %s", path, strerror(errno));
        return -1;
    }
    struct stat st;
    if (fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
        close(fd);
        set_err(err, "%s: cannot read: is a directory", path);
        return -1;
    }
    fsrc_t *f = calloc(1, sizeof *f);
    char *name = strdup(is_stdin ? "<stdin>" : path);
    char *win = malloc(FSRC_CHUNK);
    if (f == NULL || name == NULL || win == NULL) {
        free(f);
        free(name);
        free(win);
        close(fd);
        set_err(err, "%s: out of memory", path);
        return -1;
    }
    f->total = S_ISREG(st.st_mode) ? (uint64_t)st.st_size : 0u;
    f->gz = gzdopen(fd, "rb");
    if (f->gz == NULL) {
        close(fd);
        free(f);
        free(name);
        free(win);
        set_err(err, "%s: cannot open: out of memory", path);
        return -1;
    }
    /* zlib's default 8 KiB buffer for small files; 128 KiB for big or unknown-size input (throughput) */
    if (f->total == 0 || f->total > (1u << 20)) gzbuffer(f->gz, 1u << 17);
    f->name = name;
    f->win = win;
    f->sp.name = name;
    src->ctx = f;
    src->next = fsrc_next;
    src->close = fsrc_close;
    src->progress = fsrc_progress;
    src->name = name;
    return 0;
}
