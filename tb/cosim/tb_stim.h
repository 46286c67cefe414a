/*
 * tb_stim.h — what the driver issues: "items" from a seeded random generator or from a text trace,
 * and the "world" they refer to (the runtime's allocations in simulated device memory).
 *
 * An item is a request for the DUT or a host action: allocate, free, drain, idle, poison memory,
 * corrupt / restore a metadata structure, switch the third opinion off / on. Sources are pulled one
 * item at a time, only after the previous item was carried out, so a source can refer to the
 * current world (live allocations, their locations) when it builds a request.
 */
#ifndef TB_STIM_H
#define TB_STIM_H

#include <stdio.h>

#include "ga_gen.h"
#include "ga_mem.h"
#include "ga_runtime.h"
#include "tb_common.h"

typedef struct {
    uint64_t ptr, size, loc;
    int name; /* trace name index, -1 for random stimulus */
} tb_alloc_t;

#define TB_FREED_KEEP 64u

typedef struct {
    ga_mem_t *mem;
    ga_rt_t *rt;
    ga_rt_cfg_t rtc;
    unsigned tag_bits, lanes;
    tb_alloc_t *live;
    size_t nlive, caplive;
    tb_alloc_t freed[TB_FREED_KEEP]; /* the most recent frees (ring): dangling pointers */
    size_t nfreed, freed_head;
    /* trace names: the allocation each name was last bound to (live or freed) */
    char **names;
    tb_alloc_t *named;
    size_t nnames, capnames;
    /* memory written by tb_world_corrupt, zeroed again by tb_world_scrub */
    uint64_t scrub_addr[2], scrub_len[2];
    bool poisoned; /* tb_world_corrupt poisoned memory: tb_world_scrub unpoisons it */
} tb_world_t;

int tb_world_init(tb_world_t *w, const ga_rt_cfg_t *rtc, unsigned lanes);
void tb_world_fini(tb_world_t *w);
/* Runtime malloc; on success records the allocation (with its metadata location). */
ga_err_t tb_world_alloc(tb_world_t *w, uint64_t size, int name, uint64_t *ptr);
/* Runtime free of a live allocation by pointer. */
ga_err_t tb_world_free(tb_world_t *w, uint64_t ptr);
/* Write a corrupt metadata structure (variant 0..6; see tb_world.c) at base around live pointer
 * ptr; returns the ROOT value that makes the walker use it. */
uint64_t tb_world_corrupt(tb_world_t *w, unsigned variant, uint64_t base, uint64_t ptr, uint64_t rnd);
void tb_world_scrub(tb_world_t *w);
int tb_world_name(tb_world_t *w, const char *name, size_t len); /* intern; -1 on out of memory */
/* Entry as written in metadata, for ga_gen targets: live (tag) or freed (F). */
ga_entry_t tb_world_entry(const tb_world_t *w, const tb_alloc_t *a, bool freed);

typedef enum {
    TB_IT_REQ,
    TB_IT_ALLOC,
    TB_IT_FREE,
    TB_IT_DRAIN,
    TB_IT_IDLE,
    TB_IT_POISON,   /* addr, len */
    TB_IT_UNPOISON,
    TB_IT_CORRUPT,  /* write corrupt structure `sub` at addr imitating ptr, then ROOT = it */
    TB_IT_SCRUB,    /* zero what the last corrupt structures wrote */
    TB_IT_REF,      /* third opinion on (sub = 1) or off (sub = 0) */
    TB_IT_MAXOUT,   /* requests in flight at most sub (1 .. 2^IdW) */
} tb_item_kind_t;

/* What a trace line expects of the response (checked on the DUT's response). */
enum { TB_EXP_NONE = 0, TB_EXP_KIND, TB_EXP_STATUS, TB_EXP_RD };

typedef struct {
    tb_item_kind_t kind;
    tb_req_t req;
    uint64_t size, ptr, addr, len;
    unsigned sub;
    int name;
    /* expectation (traces) */
    unsigned exp;
    uint64_t exp_val;
    const char *file;
    uint32_t line;
} tb_item_t;

/* ------------------------------------------------------------------------------------------------ */
/* Random stimulus                                                                                  */

typedef struct tb_gen tb_gen_t;
typedef struct {
    uint64_t seed;
    uint64_t ops;        /* requests to generate */
    unsigned lanes, tag_bits, id_bits;
    ga_layout_t layout;
    bool terminate;      /* directed TERMINATE-policy bursts */
    bool corrupt;        /* corrupt-structure, wrong-layout and poison bursts */
    bool illegal_cfg;    /* illegal configuration writes */
    unsigned rtl_layouts;/* LAYOUT codes the DUT accepts, 0 .. rtl_layouts - 1 (a ga_mlu built with
                            HasIndex = 0 refuses INDEX, 3); 0 means every layout of ga_layouts.def */
    int cfg_live;        /* configuration writes while misses are in flight (spec §8): 1 on, 0 off,
                            -1 drawn from the seed (3 seeds in 4) */
} tb_gen_cfg_t;

tb_gen_t *tb_gen_create(const tb_gen_cfg_t *cfg);
void tb_gen_destroy(tb_gen_t *g);
/* The next item; false at the end. */
bool tb_gen_next(tb_gen_t *g, tb_world_t *w, tb_item_t *it);

/* ------------------------------------------------------------------------------------------------ */
/* Text traces (format: tb/README.md)                                                               */

typedef struct tb_trace tb_trace_t;
/* Parse a whole file; on a malformed line prints "file:line: message" and returns NULL. */
tb_trace_t *tb_trace_load(const char *path, tb_world_t *w);
void tb_trace_destroy(tb_trace_t *t);
bool tb_trace_next(tb_trace_t *t, tb_world_t *w, tb_item_t *it);
/* Most lanes any line of the trace uses (a 1-lane DUT cannot run a trace that needs more). */
unsigned tb_trace_lanes(const tb_trace_t *t);

#endif /* TB_STIM_H */
