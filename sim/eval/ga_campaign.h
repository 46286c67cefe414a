/*
 * ga_campaign.h — fault-injection campaigns for the Table 4 analogue (docs/eval.md, "Table 4").
 *
 * A campaign environment keeps a population of live allocations in a packed arena (fixed addresses):
 * slot i owns [base_i, base_i + cap_i) with cap_i a random multiple of 256 B (256 B .. 16 KiB) and the
 * slots abutting, so slot i's allocation (always at base_i) ends exactly where slot i+1's begins when
 * its size equals cap_i (half of the allocations), and leaves a padding gap otherwise. Each trial
 * injects one memory-safety error of one class (ga_cls_t) into one scheme and reports whether it was
 * detected. After a trial the victim slot gets a fresh allocation (a new random tag), so trials are
 * independent draws as the Wilson interval assumes.
 *
 * Schemes: GPUArmor in COMPILER or HWONLY mode (optionally with the runtime extensions of spec §7.6),
 * run through a ga_backend_t (cmodel/ga_backend.h: the model, or the RTL in gaeval-rtl); and a
 * GPUShield-like baseline implemented here (docs/eval.md): a 7-bit buffer id in the pointer naming the
 * buffer's role (a kernel argument position: slot i is id i + 1, slots from 127 on get id 0 =
 * unprotected), a bounds table snapshotted at each kernel launch and immutable during the kernel, a
 * bounds check against the pointer's id, no temporal checks, and an id with no entry in the snapshot
 * unchecked.
 */
#ifndef GA_CAMPAIGN_H
#define GA_CAMPAIGN_H

#include "ga_backend.h"

/* Error classes (paper Table 4 rows); exact definitions in docs/eval.md. S = 4-byte accesses. */
typedef enum {
    GA_CLS_ADJ_OOB = 0,     /* one element past the end (variant 0) or before the base (variant 1) */
    GA_CLS_NONADJ_INTRA,    /* a[i] landing inside another, non-neighbouring live allocation; the
                               root the compiler loads is derived from the victim in the same scope:
                               its base (variant 0) or an interior address (variant 1) */
    GA_CLS_NONADJ_INTER,    /* the same address, but computed in another scope: the root the compiler
                               loads is the out-of-bounds pointer itself */
    GA_CLS_SUBOBJ,          /* overflow of a 16-byte leading field into the next field, same allocation */
    GA_CLS_IMM_UAF,         /* access after free, before any re-allocation: the free runs while the
                               kernel holds the metadata location (variant 0, concurrent) or before the
                               kernel (variant 1) */
    GA_CLS_DELAYED_UAF,     /* access after free and re-allocation of the range, with `variant` other
                               frees (and re-allocations) in between */
    GA_CLS_N
} ga_cls_t;

const char *ga_cls_name(ga_cls_t c);     /* "Adjacent OOB", ... (Table 4's row names) */
const char *ga_cls_id(ga_cls_t c);       /* "adjacent_oob", ... (CSV keys) */

typedef enum { GA_SCHEME_GPUARMOR = 0, GA_SCHEME_GPUSHIELD = 1 } ga_scheme_kind_t;

typedef struct {
    const char *label;        /* column name */
    ga_scheme_kind_t kind;
    ga_mode_t mode;           /* GPUArmor: COMPILER or HWONLY */
    bool neighbour_distinct;  /* GPUArmor: runtime extension spec §7.6.1 */
    uint32_t quarantine;      /* GPUArmor: runtime extension spec §7.6.2, W (0 = off) */
    unsigned population;      /* live allocations, 3 .. 65 536 */
    unsigned tag_bits;        /* GPUArmor: 7 or 16 (the paper's Table 4 assumes 7, §7.2) */
    ga_layout_t layout;       /* GPUArmor metadata layout */
    const char *backend;      /* "model" (NULL) or "rtl" */
    const ga_backend_def_t *const *backends; /* the program's registry (ga_backend.h; NULL: model only) */
} ga_scheme_t;

/* Where an injected address lies, tags ignored, at the moment of the check. */
typedef enum {
    GA_LAND_SAME = 0,  /* inside the victim's own (live) allocation */
    GA_LAND_LIVE,      /* inside another live allocation */
    GA_LAND_FREED,     /* inside a freed entry */
    GA_LAND_GAP,       /* in no entry (padding or unallocated) */
    GA_LAND_N
} ga_landing_t;

typedef struct {
    int detected;        /* 1 detected, 0 missed */
    ga_exc_kind_t kind;  /* the exception raised (GPUShield: OUT_OF_BOUNDS), NONE if missed */
    ga_landing_t land;
} ga_trial_t;

typedef struct ga_camp ga_camp_t; /* opaque */

/* A fresh environment for scheme s with its population allocated, seeded by seed. Returns 0, or -1
 * with msg (bad scheme, backend unavailable, runtime error). */
int ga_camp_create(ga_camp_t **out, const ga_scheme_t *s, uint64_t seed, char *msg, size_t cap);
void ga_camp_destroy(ga_camp_t *c); /* NULL is a no-op */
/* The backend's end-of-run check (RTL lockstep: 0 mismatches); 0, or -1 with msg. */
int ga_camp_check(ga_camp_t *c, char *msg, size_t cap);

/* One trial of class cls with a random victim, target and variant. Returns 0, or -1 with msg. */
int ga_camp_trial(ga_camp_t *c, ga_cls_t cls, ga_trial_t *t, char *msg, size_t cap);

/* One trial with the choices made by the caller (hand-built cases): victim slot, target slot (the
 * non-adjacent classes: must not be the victim or its neighbour slots), variant as in ga_cls_t.
 * Offsets inside allocations are the first element (the target's, the dangling pointer's). Returns 0,
 * or -1 with msg (also for a bad slot or target). */
int ga_camp_trial_on(ga_camp_t *c, ga_cls_t cls, unsigned victim, unsigned target, unsigned variant,
                     ga_trial_t *t, char *msg, size_t cap);

/* The population: slot count, and slot i's current pointer (tagged; GPUShield: id in the tag bits),
 * size, and arena capacity. */
unsigned ga_camp_slots(const ga_camp_t *c);
uint64_t ga_camp_ptr(const ga_camp_t *c, unsigned slot);
uint64_t ga_camp_size(const ga_camp_t *c, unsigned slot);
uint64_t ga_camp_slot_cap(const ga_camp_t *c, unsigned slot);

/* Re-allocate slot `slot` with `size` bytes (1 .. its capacity) at its base: a free, then a malloc.
 * Returns 0 or -1 with msg. For hand-built cases (e.g. make two neighbours abut). */
int ga_camp_realloc(ga_camp_t *c, unsigned slot, uint64_t size, char *msg, size_t cap);

/* Wilson score interval at 95 % (z = 1.96) for k successes in n trials; n = 0 gives [0, 1]. */
void ga_wilson(uint64_t k, uint64_t n, double *lo, double *hi);

#endif /* GA_CAMPAIGN_H */
