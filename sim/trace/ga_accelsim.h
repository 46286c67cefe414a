/*
 * ga_accelsim.h — importer of Accel-Sim / NVBit traces (kernelslist.g + kernel-N.traceg) into gatrace
 * records (docs/traces.md §9).
 *
 * The importer is a ga_line_src_t: it produces gatrace text lines one at a time, which a
 * ga_trace_reader_t then parses with the same strict rules as a file (so an imported trace and a
 * converted file replay identically). Errors in the Accel-Sim files are reported as "FILE:LINE:
 * message" for the file at fault. Memory: the allocation list plus one instruction line; kernel trace
 * files are streamed.
 */
#ifndef GA_ACCELSIM_H
#define GA_ACCELSIM_H

#include "ga_trace.h"

typedef struct {
    unsigned sms;            /* SMs thread blocks are spread over (1 .. 65 536); default 4 */
    const char *allocs_path; /* allocation list file ("BASE SIZE" lines), or NULL: infer from memcpy */
    /* Fields below were added after the first release; ga_accelsim_default_opts sets them all. */
    uint64_t allocs_shift;   /* added (mod 2^64) to every base of the allocation list; 0: none */
    bool allocs_rebase;      /* shift the allocation list by the constant that puts the most MemcpyHtoD
                                ranges of kernelslist.g inside allocations (docs/traces.md §9); needs
                                allocs_path and at least one MemcpyHtoD line */
    /* Called (may be NULL) with one-line warnings and notes ("FILE: ..."): the list covers few of the
     * accessed addresses, the shift chosen by allocs_rebase. Called while the source is read. */
    void (*warn)(void *ctx, const char *msg);
    void *warn_ctx;
} ga_accelsim_opts_t;

/* Defaults: 4 SMs, allocations inferred from the memcpy lines, no shift, no rebase, no warnings. */
void ga_accelsim_default_opts(ga_accelsim_opts_t *o);

/* A line source producing the gatrace text (version 2, ending with eof) of the Accel-Sim trace whose
 * kernelslist.g is at kernelslist_path. The allocation list (given, then shifted, or inferred from
 * every MemcpyHtoD line) is read when the source is created; kernel files are opened as the stream
 * reaches them. Returns 0, or -1 with err set (the allocation list or kernelslist.g cannot be read or
 * is malformed, a shift moves an allocation past 2^64, allocs_rebase finds no MemcpyHtoD line or no
 * shift that puts one inside an allocation). The source's name is kernelslist_path; errors inside a
 * kernel file name that file. At the end of the stream, when more than half of the global memory
 * instructions touch no allocation (a given list that may come from another run, or memcpy ranges
 * that miss most buffers), opts->warn gets a warning that says so and what to do. */
int ga_accelsim_src(ga_line_src_t *src, const char *kernelslist_path, const ga_accelsim_opts_t *opts,
                    ga_trace_err_t *err);

/* True when path's last component is "kernelslist.g" (how gasim picks the importer by default). */
bool ga_accelsim_is_kernelslist(const char *path);

#endif /* GA_ACCELSIM_H */
