/*
 * fuzz_trace.c — libFuzzer target for the gatrace reader, writer and replay (docs/traces.md).
 *
 * For every input: parse it; replay each record through a small model (configuration picked from a
 * hash of the input: mode, layout, tag width, MLB size, SMs); and check the writer's round trip: the
 * records that parsed, written back in canonical form and parsed again, must come back equal (an
 * abort() otherwise, which libFuzzer reports as a crash); a whole trace that parsed to its end must
 * also read back to its end (for version 2: with the eof record the writer adds). Sanitizers (ASan +
 * UBSan) catch memory and undefined-behaviour errors. Work per input is bounded (REC_MAX records
 * replayed, RT_MAX compared).
 */
#include "trace/ga_replay.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define REC_MAX 4096u /* records replayed per input */
#define RT_MAX 256u   /* records checked by the round trip */

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* FNV-1a hash of the input (picks the replay configuration). */
static uint64_t hash_bytes(const uint8_t *d, size_t n)
{
    uint64_t h = UINT64_C(1469598103934665603);
    for (size_t i = 0; i < n; i++) h = (h ^ d[i]) * UINT64_C(1099511628211);
    return h;
}

/* Parse text and compare its records with want[0..n). Aborts on any difference, and, when whole is
 * set (the text holds every record of a trace that ended correctly), unless it ends correctly too. */
static void round_trip(const char *text, size_t len, const ga_tev_t *want, size_t n, bool whole)
{
    ga_trace_reader_t *r;
    ga_trace_err_t err;
    if (ga_trace_open_mem(&r, "roundtrip", text, len, &err) != 0) abort();
    ga_tev_t ev;
    size_t i = 0;
    int rc;
    while ((rc = ga_trace_next(r, &ev, &err)) > 0) {
        if (i >= n || !ga_tev_equal(&ev, &want[i])) abort();
        i++;
    }
    /* The canonical text of a prefix may legitimately end inside a kernel (rc < 0): only the records
     * before the end are compared, and all of them must have been read back. */
    if (i != n || (whole && rc != 0)) abort();
    ga_trace_close(r);
}

/* libFuzzer entry point: see the file comment. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    ga_trace_reader_t *r;
    ga_trace_err_t err;
    if (ga_trace_open_mem(&r, "fuzz", data, size, &err) != 0) return 0;
    ga_tev_t ev;
    int rc = ga_trace_next(r, &ev, &err);
    if (rc < 0) {
        if (strlen(err.msg) >= sizeof err.msg) abort();
        ga_trace_close(r);
        return 0;
    }
    uint64_t h = hash_bytes(data, size);
    ga_replay_cfg_t cfg;
    ga_replay_default_cfg(&cfg);
    cfg.mode = (h & 1u) ? GA_MODE_HWONLY : GA_MODE_COMPILER;
    cfg.layout = (ga_layout_t)((h >> 1) % 3u);
    cfg.tag_bits = (h >> 3 & 1u) ? 16u : 7u;
    if (ga_trace_header(r)->tag_bits) cfg.tag_bits = ga_trace_header(r)->tag_bits; /* declared: the replay must use it */
    cfg.mlb_entries = 1u + (unsigned)(h >> 4 & 15u);
    cfg.sms = 1u + (unsigned)(h >> 8 & 3u);
    cfg.md_capacity = 512;
    cfg.l1_lines = 16;
    cfg.max_detections = 64;
    ga_replay_t *rp = NULL;
    if (ga_replay_create(&rp, &cfg, ga_trace_header(r), &err) != 0) abort();

    /* canonical text of the records, for the round trip */
    size_t cap = 1u << 16, len = 0;
    char *text = malloc(cap);
    ga_tev_t *kept = malloc(RT_MAX * sizeof *kept);
    if (text == NULL || kept == NULL) abort();
    int n = ga_trace_format_header(ga_trace_header(r), text, cap);
    if (n < 0) abort();
    len = (size_t)n;
    text[len++] = '\n';
    size_t nkept = 0;
    unsigned recs = 0;
    bool replaying = true;
    while (rc > 0 && recs < REC_MAX) {
        if (replaying && ga_replay_event(rp, r, &ev, &err) != 0) replaying = false; /* a replay error ends it */
        if (nkept < RT_MAX) {
            if (cap - len < GA_TRACE_LINE_MAX + 1u) {
                cap *= 2u;
                char *nt = realloc(text, cap);
                if (nt == NULL) abort();
                text = nt;
            }
            n = ga_trace_format_event(&ev, text + len, GA_TRACE_LINE_MAX);
            if (n < 0) abort(); /* every record the reader accepts must be writable */
            len += (size_t)n;
            text[len++] = '\n';
            kept[nkept++] = ev;
        }
        recs++;
        rc = ga_trace_next(r, &ev, &err);
    }
    if (replaying && rc == 0) {
        ga_replay_finish(rp, &err);
        const ga_detection_t *d;
        size_t nd = ga_replay_detections(rp, &d);
        char line[1024];
        for (size_t i = 0; i < nd; i++) ga_replay_format_detection(rp, "fuzz", &d[i], line, sizeof line);
    }
    bool whole = rc == 0 && nkept == recs;
    if (whole && ga_trace_header(r)->version >= 2u) {
        n = ga_trace_format_end(text + len, cap - len);
        if (n < 0) abort();
        len += (size_t)n;
        text[len++] = '\n';
    }
    round_trip(text, len, kept, nkept, whole);
    free(text);
    free(kept);
    ga_replay_destroy(rp);
    ga_trace_close(r);
    return 0;
}
