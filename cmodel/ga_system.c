/*
 * ga_system.c — glue of memory, runtime and per-SM MLUs (see ga_system.h).
 */
#include "ga_system.h"

#include <stdlib.h>
#include <string.h>

void ga_system_default_cfg(ga_system_cfg_t *cfg, ga_layout_t layout, unsigned tag_bits, uint64_t seed)
{
    memset(cfg, 0, sizeof *cfg);
    ga_rt_default_cfg(&cfg->rt, layout, tag_bits, seed);
    cfg->sms = 1;
    cfg->mlb_entries = 8;
    cfg->mode = GA_MODE_COMPILER;
    cfg->policy = GA_POLICY_REPORT;
    cfg->step_limit = GA_STEP_LIMIT_RESET;
}

ga_err_t ga_system_init(ga_system_t *s, const ga_system_cfg_t *cfg)
{
    memset(s, 0, sizeof *s);
    if (cfg->sms < 1u || cfg->sms > GA_SYSTEM_MAX_SMS) return GA_ERR_BAD_PARAM;
    s->cfg = *cfg;
    ga_err_t err = ga_mem_create(&s->mem);
    if (err != GA_OK) return err;
    err = ga_rt_create(&cfg->rt, s->mem, &s->rt);
    if (err != GA_OK) goto fail;
    s->sm = calloc(cfg->sms, sizeof *s->sm);
    if (s->sm == NULL) {
        err = GA_ERR_NO_MEMORY;
        goto fail;
    }
    ga_memif_t mif = ga_mem_memif(s->mem);
    mif.oracle = ga_rt_oracle;
    mif.oracle_ctx = s->rt;
    for (unsigned i = 0; i < cfg->sms; i++) {
        err = ga_mlu_init(&s->sm[i], cfg->rt.tag_bits, cfg->mlb_entries, &mif);
        if (err != GA_OK) goto fail;
        ga_mlu_cfg_t c = s->sm[i].cfg;
        c.mode = cfg->mode;
        c.layout = cfg->rt.layout;
        c.root = ga_rt_root(s->rt);
        c.step_limit = cfg->step_limit;
        c.policy = cfg->policy;
        c.sm_id = (uint16_t)i;
        err = ga_mlu_configure(&s->sm[i], &c);
        if (err != GA_OK) goto fail;
    }
    return GA_OK;
fail:
    ga_system_fini(s);
    return err;
}

void ga_system_fini(ga_system_t *s)
{
    free(s->sm);
    ga_rt_destroy(s->rt);
    ga_mem_destroy(s->mem);
    memset(s, 0, sizeof *s);
}

/* After a successful runtime call: every SM forgets the changed locations and sees the new ROOT. */
static void propagate(ga_system_t *s)
{
    const uint64_t *locs;
    size_t n = ga_rt_invalidations(s->rt, &locs);
    uint64_t root = ga_rt_root(s->rt);
    for (unsigned i = 0; i < s->cfg.sms; i++) {
        for (size_t k = 0; k < n; k++) ga_mlu_invalidate(&s->sm[i], locs[k]);
        ga_mlu_set_root(&s->sm[i], root);
    }
}

ga_err_t ga_system_malloc(ga_system_t *s, uint64_t size, uint64_t *ptr)
{
    ga_err_t err = ga_rt_malloc(s->rt, size, ptr);
    if (err == GA_OK) propagate(s);
    return err;
}

ga_err_t ga_system_malloc_at(ga_system_t *s, uint64_t base, uint64_t size, uint64_t *ptr)
{
    ga_err_t err = ga_rt_malloc_at(s->rt, base, size, ptr);
    if (err == GA_OK) propagate(s);
    return err;
}

ga_err_t ga_system_free(ga_system_t *s, uint64_t ptr)
{
    ga_err_t err = ga_rt_free(s->rt, ptr);
    if (err == GA_OK) propagate(s);
    return err;
}

ga_mlu_stats_t ga_system_stats(const ga_system_t *s)
{
    ga_mlu_stats_t t;
    memset(&t, 0, sizeof t);
    for (unsigned i = 0; i < s->cfg.sms; i++) {
        const ga_mlu_stats_t *u = &s->sm[i].st;
        t.loadmeta += u->loadmeta;
        t.loadmeta_unchecked += u->loadmeta_unchecked;
        t.loadmeta_hits += u->loadmeta_hits;
        t.loadmeta_zero += u->loadmeta_zero;
        t.walks += u->walks;
        t.walk_steps += u->walk_steps;
        if (u->walk_max > t.walk_max) t.walk_max = u->walk_max;
        for (int k = 0; k < 5; k++) t.walk_end[k] += u->walk_end[k];
        t.memcheck_g += u->memcheck_g;
        t.memcheck_s += u->memcheck_s;
        t.access += u->access;
        t.lanes_checked += u->lanes_checked;
        t.fetches += u->fetches;
        t.fetch_hits += u->fetch_hits;
        t.md_reads += u->md_reads;
        t.md_read_bytes += u->md_read_bytes;
        t.fills += u->fills;
        t.fills_dropped += u->fills_dropped;
        t.invalidates += u->invalidates;
        t.flushes += u->flushes;
        t.faulting_ops += u->faulting_ops;
        for (int k = 0; k < GA_EXC_KINDS; k++) t.faulting_lanes[k] += u->faulting_lanes[k];
    }
    return t;
}
