/*
 * ga_system.h — a whole GPU as the model sees it: one simulated device memory, one runtime, and one
 * MLU per SM, kept coherent the way spec §5.2 says (after every malloc/free the runtime's changed
 * locations are invalidated in every SM's MLB and ROOT is rewritten in every SM).
 *
 * This is glue for tools and tests (garun, gabench, trace replay); the hardware semantics live in
 * ga_mlu / ga_runtime.
 */
#ifndef GA_SYSTEM_H
#define GA_SYSTEM_H

#include "ga_mlu.h"
#include "ga_runtime.h"

#define GA_SYSTEM_MAX_SMS 128u

typedef struct {
    ga_rt_cfg_t rt;       /* runtime configuration (layout, tag bits, seed, regions) */
    unsigned sms;         /* 1 .. GA_SYSTEM_MAX_SMS */
    unsigned mlb_entries; /* 1 .. 64 */
    ga_mode_t mode;
    ga_policy_t policy;
    uint32_t step_limit;  /* 1 .. 2^32-1 */
} ga_system_cfg_t;

typedef struct {
    ga_system_cfg_t cfg;
    ga_mem_t *mem;
    ga_rt_t *rt;
    ga_mlu_t *sm; /* cfg.sms units */
} ga_system_t;

/* A configuration with the runtime defaults, 1 SM, an 8-entry MLB, COMPILER mode, REPORT policy. */
void ga_system_default_cfg(ga_system_cfg_t *cfg, ga_layout_t layout, unsigned tag_bits, uint64_t seed);

/* Build memory, runtime and SMs. GA_ERR_BAD_PARAM for an illegal configuration, GA_ERR_NO_MEMORY.
 * On error nothing is left allocated. */
ga_err_t ga_system_init(ga_system_t *s, const ga_system_cfg_t *cfg);
void ga_system_fini(ga_system_t *s);

/* malloc / free through the runtime, then invalidate and update ROOT in every SM. Errors are the
 * runtime's and change nothing. */
ga_err_t ga_system_malloc(ga_system_t *s, uint64_t size, uint64_t *ptr);
ga_err_t ga_system_malloc_at(ga_system_t *s, uint64_t base, uint64_t size, uint64_t *ptr);
ga_err_t ga_system_free(ga_system_t *s, uint64_t ptr);

/* Sum of every SM's counters. */
ga_mlu_stats_t ga_system_stats(const ga_system_t *s);

#endif /* GA_SYSTEM_H */
