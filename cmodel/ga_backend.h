/*
 * ga_backend.h — who executes the MLU operations of a tool: one interface, one registry
 * (docs/traces.md §10.4).
 *
 * Every tool that drives a ga_system_t (gasim and gasim-rtl, garun, gaeval and gaeval-rtl, gaprobe's
 * board replay, the emulator behind gpuarmor-run) runs host operations (malloc, free) in the C runtime
 * and every MLU operation (LOADMETA, MEMCHECK.G, MEMCHECK.S, plain access, MLB flush) through a
 * ga_backend_t. A backend is made by name from a *registry*: a NULL-terminated array of
 * ga_backend_def_t that the program passes in explicitly. The model backend is in every registry; the
 * Verilator lockstep backend "rtl" (tb/replay/tb_backend.c) is in the registry of the programs built
 * with it (gasim-rtl, gaeval-rtl, the RTL runtime library: their main or registration object is
 * compiled with -DGA_WITH_RTL); the board backend "board" is in gaprobe's replay registry
 * (fpga/host/gab_replay.c). Nothing is chosen by link order: a program without a backend in its
 * registry says so by name when asked for it.
 *
 * The hardware backends run every operation on the model unit sys->sm[sm] too and return the model's
 * answer after checking that the hardware agreed, so every figure a tool prints is the model's and a
 * disagreement is reported by check().
 */
#ifndef GA_BACKEND_H
#define GA_BACKEND_H

#include "ga_system.h"

#include <stdbool.h>
#include <stddef.h>

/* The operations of one backend over one system. `sm` is the model SM index (0 .. sms-1); every
 * operation has the semantics and return codes of the ga_mlu_* function of the same name on unit
 * sm. Every member is set by every backend except wave (NULL: no waveforms). */
typedef struct {
    const char *name; /* the registry name: "model", "rtl", "board", ... */
    void *ctx;
    ga_err_t (*loadmeta)(void *ctx, unsigned sm, uint64_t p, uint64_t *rd);
    ga_err_t (*memcheck_g)(void *ctx, unsigned sm, const ga_warp_req_t *req, uint64_t md, ga_warp_rsp_t *rsp);
    ga_err_t (*memcheck_s)(void *ctx, unsigned sm, const ga_warp_req_t *req, uint32_t base, uint32_t ssize,
                           ga_warp_rsp_t *rsp);
    ga_err_t (*access)(void *ctx, unsigned sm, const ga_warp_req_t *req, ga_warp_rsp_t *rsp);
    void (*flush)(void *ctx, unsigned sm); /* MLB flush (spec §6.4) */
    /* After every successful runtime call: the locations it invalidated and the new ROOT (the model's
     * SMs were already updated by ga_system); a hardware backend forwards them. */
    void (*runtime_changed)(void *ctx, const uint64_t *locs, size_t n, uint64_t root);
    /* End of a run: 0, or -1 with msg[cap] set when the backend saw a disagreement. */
    int (*check)(void *ctx, char *msg, size_t cap);
    /* Optional: with a path, start writing a waveform of the operations that follow to that file; with
     * NULL, stop and close it. 0, or -1 with msg[cap] set. */
    int (*wave)(void *ctx, const char *path, char *msg, size_t cap);
    void (*destroy)(void *ctx); /* frees ctx */
} ga_backend_t;

/* One entry of a registry: a backend's name, a one-line description and its constructor. open fills
 * b for sys (borrowed: it outlives the backend) with the program's argument arg (the board session;
 * NULL for the others); 0, or -1 with msg[cap] set. */
typedef struct {
    const char *name;
    const char *what;
    int (*open)(ga_backend_t *b, ga_system_t *sys, void *arg, char *msg, size_t cap);
} ga_backend_def_t;

/* The model backend: every operation is the ga_mlu_* function on sys->sm[sm]. */
extern const ga_backend_def_t ga_backend_model_def;

/* The Verilator lockstep backend, defined only in tb/replay/tb_backend.c: only a program linked with it
 * (compiled with -DGA_WITH_RTL) names it in its registry. */
extern const ga_backend_def_t ga_backend_rtl_def;

/* The registry of a program built without hardware backends: { &ga_backend_model_def, NULL }. */
extern const ga_backend_def_t *const ga_backends_model[];

/* ga_backend_open's results. */
enum {
    GA_BACKEND_OK = 0,
    GA_BACKEND_FAILED = -1,    /* the backend exists here but refused (msg says why) */
    GA_BACKEND_NOT_BUILT = -2, /* a backend of the project ("rtl", "board") this program does not hold */
    GA_BACKEND_UNKNOWN = -3,   /* no backend of that name exists at all */
};

/* The entry named name in reg (NULL: ga_backends_model), or NULL. */
const ga_backend_def_t *ga_backend_find(const ga_backend_def_t *const *reg, const char *name);

/* Open backend name (NULL: "model") from registry reg (NULL: ga_backends_model) over sys. Returns
 * GA_BACKEND_OK with *b filled, or one of the codes above with msg[cap] set: "backend 'rtl' is not
 * built into this program: ..." naming what builds it, "unknown backend 'x' (model, rtl or board)",
 * or the backend's own refusal. */
int ga_backend_open(const ga_backend_def_t *const *reg, const char *name, ga_system_t *sys, void *arg,
                    ga_backend_t *b, char *msg, size_t cap);

/* Close a backend (destroy its context); b is zeroed. */
void ga_backend_close(ga_backend_t *b);

/* After a successful runtime call on sys: hand its invalidated locations and ROOT to b
 * (runtime_changed). Returns the number of locations. */
size_t ga_backend_forward(ga_system_t *sys, const ga_backend_t *b);

/* malloc / free through the runtime of sys, then ga_backend_forward on success. */
ga_err_t ga_backend_malloc(ga_system_t *sys, const ga_backend_t *b, uint64_t size, uint64_t *ptr);
ga_err_t ga_backend_malloc_at(ga_system_t *sys, const ga_backend_t *b, uint64_t base, uint64_t size,
                              uint64_t *ptr);
ga_err_t ga_backend_free(ga_system_t *sys, const ga_backend_t *b, uint64_t ptr);

#endif /* GA_BACKEND_H */
