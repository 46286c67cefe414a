/*
 * ga_mlu.h — one SM's Metadata Loading Unit, atomic form (spec §3–§6; RTL rtl/ga_mlu.sv).
 *
 * Each operation runs to completion before the next (spec §8, atomic use). Co-simulation composes the
 * same pieces (ga_mlb_*, ga_walk, ga_fetch_entry, ga_check_*) in the order the RTL commits them.
 * All state is in ga_mlu_t; there are no globals.
 *
 * Every operation validates its arguments first (GA_ERR_BAD_PARAM, then GA_ERR_BAD_SIZE), then refuses
 * with GA_ERR_HALTED when halted; either way nothing changes. Configuration writes, invalidate, flush
 * and clear-halt are accepted while halted [decision: they have no memory effect, and the runtime
 * must keep invalidating on frees]. The memif read callback may call ga_mlu_invalidate / ga_mlu_flush
 * on the same unit (an invalidation committing while a read is in flight, spec §6.5): the fill that
 * read feeds is then dropped. It may also call ga_mlu_configure / ga_mlu_set_root (a CFG_WRITE
 * committing while a read is in flight): the operation in flight keeps the registers of its start
 * (spec §8, configuration captured at acceptance) and only later operations see the new values.
 * No other re-entry is allowed.
 */
#ifndef GA_MLU_H
#define GA_MLU_H

#include "ga_check.h"
#include "ga_mlb.h"
#include "ga_walker.h"

/* Configuration registers (spec §5.1). */
typedef struct {
    ga_mode_t mode;
    ga_layout_t layout;
    uint64_t root;
    uint32_t step_limit; /* 1 .. 2^32-1 */
    ga_policy_t policy;
    uint16_t sm_id;
} ga_mlu_cfg_t;

#define GA_STEP_LIMIT_RESET 65536u

/* Counters. "md reads" are metadata memory reads issued by this unit. */
typedef struct {
    uint64_t loadmeta;          /* LOADMETA operations, including the ones HWOnly runs */
    uint64_t loadmeta_unchecked;/* ... of which had tag 0 or the freed tag (no lookup) */
    uint64_t loadmeta_hits;     /* ... of which hit the MLB */
    uint64_t loadmeta_zero;     /* ... of which returned 0 */
    uint64_t walks;             /* walks started */
    uint64_t walk_steps;        /* node reads by walks */
    uint32_t walk_max;          /* longest walk, in node reads */
    uint64_t walk_end[GA_WALK_ENDS]; /* walks by ga_walk_status_t */
    uint64_t memcheck_g, memcheck_s, access; /* warp operations */
    uint64_t lanes_checked;     /* active lanes with a non-zero tag (global) or active (shared) */
    uint64_t fetches, fetch_hits; /* MEMCHECK.G entry fetches and their MLB hits */
    uint64_t md_reads, md_read_bytes;
    uint64_t fills, fills_dropped, invalidates, flushes;
    uint64_t faulting_ops;       /* operations with a non-zero fault mask */
    uint64_t faulting_lanes[GA_EXC_KINDS]; /* failing lanes by kind */
} ga_mlu_stats_t;

typedef struct ga_mlu ga_mlu_t;
/* Called once per faulting operation with its record (REPORT and TERMINATE alike), after the unit has
 * recorded it (first_exc) and, under TERMINATE, halted. */
typedef void (*ga_exc_fn)(void *ctx, const ga_exc_t *rec);

struct ga_mlu {
    unsigned tag_bits;
    ga_mlu_cfg_t cfg;
    ga_mlb_t mlb;
    ga_memif_t mem;
    bool halted;        /* TERMINATE policy after an exception */
    ga_exc_t first_exc; /* the first exception record since reset / clear */
    ga_mlu_stats_t st;
    ga_exc_fn on_exc;
    void *on_exc_ctx;
};

/* Reset state: registers at their reset values (spec §5.1), MLB reset, counters zero.
 * GA_ERR_BAD_PARAM for tag_bits not 7/16, mlb_entries outside 1..64, or mem->read NULL. */
ga_err_t ga_mlu_init(ga_mlu_t *u, unsigned tag_bits, unsigned mlb_entries, const ga_memif_t *mem);

/* Write all registers at once; GA_ERR_BAD_PARAM (nothing changes) for an illegal value (spec §5.1). */
ga_err_t ga_mlu_configure(ga_mlu_t *u, const ga_mlu_cfg_t *cfg);
void ga_mlu_set_root(ga_mlu_t *u, uint64_t root);

/* LOADMETA (spec §3.2). *rd gets the location or 0. GA_ERR_HALTED when halted (nothing changes). */
ga_err_t ga_mlu_loadmeta(ga_mlu_t *u, uint64_t p, uint64_t *rd);

/* MEMCHECK.G (spec §4.2) for the warp with metadata location md. GA_ERR_BAD_SIZE / GA_ERR_BAD_PARAM
 * for a malformed request, GA_ERR_HALTED when halted: nothing changes, rsp untouched. */
ga_err_t ga_mlu_memcheck_g(ga_mlu_t *u, const ga_warp_req_t *req, uint64_t md, ga_warp_rsp_t *rsp);

/* MEMCHECK.S (spec §4.3): req->addr[l] low 32 bits are the shared addresses. */
ga_err_t ga_mlu_memcheck_s(ga_mlu_t *u, const ga_warp_req_t *req, uint32_t base, uint32_t ssize,
                           ga_warp_rsp_t *rsp);

/* A plain global access (spec §5.3, §5.4): COMPILER mode strips tags and checks nothing; HWONLY mode
 * runs the lane-grouped LOADMETA + check of spec §5.4. */
ga_err_t ga_mlu_access(ga_mlu_t *u, const ga_warp_req_t *req, ga_warp_rsp_t *rsp);

/* MLB invalidation by location and flush (spec §6.4). Allowed while halted. */
void ga_mlu_invalidate(ga_mlu_t *u, uint64_t loc);
void ga_mlu_flush(ga_mlu_t *u);

/* Leave the halted state (spec §4.5); first_exc is cleared. */
void ga_mlu_clear_halt(ga_mlu_t *u);

#endif /* GA_MLU_H */
