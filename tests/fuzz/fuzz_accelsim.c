/*
 * fuzz_accelsim.c — libFuzzer target for the Accel-Sim importer (docs/traces.md §9).
 *
 * Each input is the content of a kernel trace file (kernel-1.traceg) next to a fixed kernelslist.g
 * with two MemcpyHtoD ranges; the importer's output goes through the gatrace reader and a replay,
 * alternately with an allocation list and with inferred allocations. The importer must either fail
 * with a message or produce a trace the reader accepts: a reader error on the importer's output is an
 * importer bug and aborts. The files live in a scratch directory made once per process (the only
 * state kept between inputs).
 */
#include "trace/ga_accelsim.h"
#include "trace/ga_replay.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char dir[256]; /* scratch directory of this fuzzing process */

/* Remove the scratch directory and its three files (atexit: libFuzzer ends runs with exit()). */
static void cleanup(void)
{
    static const char *const names[] = {"kernelslist.g", "allocs.txt", "kernel-1.traceg"};
    char p[512];
    for (int i = 0; i < 3; i++) {
        snprintf(p, sizeof p, "%s/%s", dir, names[i]);
        unlink(p);
    }
    rmdir(dir);
}

/* Write n bytes at d to the scratch file name; aborts on failure. */
static void put(const char *name, const void *d, size_t n)
{
    char p[512];
    snprintf(p, sizeof p, "%s/%s", dir, name);
    FILE *f = fopen(p, "wb");
    if (f == NULL || fwrite(d, 1, n, f) != n || fclose(f) != 0) abort();
}

/* libFuzzer entry point: see the file comment. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (dir[0] == '\0') {
        const char *t = getenv("TMPDIR");
        snprintf(dir, sizeof dir, "%s/gafuzz-accelsim-XXXXXX", t && *t ? t : "/tmp");
        if (mkdtemp(dir) == NULL) abort();
        atexit(cleanup);
        static const char list[] = "MemcpyHtoD,0x7f0000000000,4096\nMemcpyHtoD,0x7f0000001000,4096\n"
                                   "kernel-1.traceg\n";
        static const char allocs[] = "0x7f0000000000 4096\n0x7f0000001000 4096\n0x7f0000010000 256\n";
        put("kernelslist.g", list, sizeof list - 1);
        put("allocs.txt", allocs, sizeof allocs - 1);
    }
    put("kernel-1.traceg", data, size);
    char lp[512], ap[512];
    snprintf(lp, sizeof lp, "%s/kernelslist.g", dir);
    snprintf(ap, sizeof ap, "%s/allocs.txt", dir);
    ga_accelsim_opts_t o;
    ga_accelsim_default_opts(&o);
    o.allocs_path = (size & 1u) ? ap : NULL;
    o.sms = 1u + (unsigned)(size % 5u);
    ga_line_src_t src;
    ga_trace_err_t err;
    if (ga_accelsim_src(&src, lp, &o, &err) != 0) abort(); /* the fixed files are valid */
    ga_trace_reader_t *r;
    if (ga_trace_open_src(&r, &src, &err) != 0) abort();
    ga_tev_t ev;
    int rc = ga_trace_next(r, &ev, &err);
    if (rc < 0) abort(); /* the header and allocations come from the fixed files */
    ga_replay_cfg_t cfg;
    ga_replay_default_cfg(&cfg);
    cfg.mode = (size & 2u) ? GA_MODE_HWONLY : GA_MODE_COMPILER;
    cfg.md_capacity = 256;
    cfg.l1_lines = 16;
    cfg.max_detections = 16;
    ga_replay_t *rp;
    if (ga_replay_create(&rp, &cfg, ga_trace_header(r), &err) != 0) abort();
    unsigned n = 0;
    while (rc > 0 && n++ < 20000u) {
        if (ga_replay_event(rp, r, &ev, &err) != 0) abort(); /* imported records always replay */
        rc = ga_trace_next(r, &ev, &err);
    }
    /* A failure must be the importer's own message about kernel-1.traceg, never the reader rejecting
     * a line the importer generated. */
    if (rc < 0 && strstr(err.msg, "kernel-1.traceg:") == NULL) {
        fprintf(stderr, "importer produced an invalid trace: %s\n", err.msg);
        abort();
    }
    ga_replay_destroy(rp);
    ga_trace_close(r);
    return 0;
}
