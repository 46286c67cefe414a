/*
 * ga_backend.h — the evaluation's backend: who executes the MLU operations (docs/eval.md, "Backends").
 *
 * The evaluation drives one ga_system_t (memory, runtime, per-SM MLUs). Host operations (malloc, free)
 * always run in the C runtime, as they would on a real system; every MLU operation goes through a
 * ga_eval_backend_t. The model backend runs the golden model's MLUs. An RTL backend runs the same
 * operation on the Verilated MLU (tb/) in lockstep with the model and reports the model's answer
 * after checking that both agree, so every Table 4 campaign and figure can be re-run on the RTL by
 * selecting it (gaeval --backend rtl). The function signatures are those of ga_backend_t in
 * sim/trace/ga_replay.h (docs/traces.md §8) plus flush, so one RTL implementation can serve gasim
 * and gaeval.
 */
#ifndef GA_BACKEND_H
#define GA_BACKEND_H

#include "ga_system.h"

#include <stddef.h>

typedef struct {
    const char *name;
    void *ctx;
    /* The ga_mlu_* operation of the same name on unit `sm` (0 .. sms-1), same semantics and codes. */
    ga_err_t (*loadmeta)(void *ctx, unsigned sm, uint64_t p, uint64_t *rd);
    ga_err_t (*memcheck_g)(void *ctx, unsigned sm, const ga_warp_req_t *req, uint64_t md,
                           ga_warp_rsp_t *rsp);
    ga_err_t (*memcheck_s)(void *ctx, unsigned sm, const ga_warp_req_t *req, uint32_t base,
                           uint32_t ssize, ga_warp_rsp_t *rsp);
    ga_err_t (*access)(void *ctx, unsigned sm, const ga_warp_req_t *req, ga_warp_rsp_t *rsp);
    void (*flush)(void *ctx, unsigned sm); /* MLB flush (spec §6.4) */
    /* After every successful runtime call: the locations it invalidated and the new ROOT (the model
     * SMs were already updated by ga_system). */
    void (*runtime_changed)(void *ctx, const uint64_t *locs, size_t n, uint64_t root);
    /* End of a run: 0, or -1 with a message in msg[cap] when the backend saw a mismatch. */
    int (*check)(void *ctx, char *msg, size_t cap);
    void (*destroy)(void *ctx); /* may be NULL */
} ga_eval_backend_t;

/* Open backend `kind` over sys (borrowed, outlives the backend): "model" always works; "rtl" returns
 * -1 with a message until the Verilator lockstep backend is linked (docs/eval.md, "Running Table 4 on
 * the RTL"). Unknown kinds: -1. Returns 0 on success. */
int ga_eval_backend_open(const char *kind, ga_system_t *sys, ga_eval_backend_t *b, char *msg, size_t cap);

/* The RTL lockstep backend (tb/replay/tb_backend.c, linked before libgaeval.a into gaeval-rtl:
 * mk/tb.mk). Every other program gets the placeholder of ga_backend_rtl_stub.c, which returns -1 with
 * a message saying what to build. Returns 0 on success. */
int ga_eval_backend_rtl(ga_system_t *sys, ga_eval_backend_t *b, char *msg, size_t cap);

/* Close a backend (destroy its context). */
void ga_eval_backend_close(ga_eval_backend_t *b);

/* malloc / free through the runtime of sys and tell the backend what changed (runtime_changed). */
ga_err_t ga_eval_malloc(ga_system_t *sys, ga_eval_backend_t *b, uint64_t size, uint64_t *ptr);
ga_err_t ga_eval_malloc_at(ga_system_t *sys, ga_eval_backend_t *b, uint64_t base, uint64_t size, uint64_t *ptr);
ga_err_t ga_eval_free(ga_system_t *sys, ga_eval_backend_t *b, uint64_t ptr);

#endif /* GA_BACKEND_H */
