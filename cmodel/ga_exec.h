/*
 * ga_exec.h — the one compiler-mode dispatch (docs/traces.md §10.4): how
 * the memory operations of a program (a trace record, a workload event, a synthetic kernel) become MLU
 * operations in the unit's mode, the way the paper's compiler pass and hardware do it (§6.2).
 *
 *   HWOnly        every global access is one plain access (the MLU does its own LOADMETAs); explicit
 *                 LOADMETAs and shared accesses are not instrumented (skipped, GA_EXEC_SKIPPED).
 *   compiler      a global access with no root is a plain access (unchecked); with a root pointer it
 *                 is one MEMCHECK.G with the location LOADMETA returned for that root; with one root
 *                 per lane ("root = lane address") every lane gets its root's location and lanes
 *                 with the same location share one MEMCHECK.G (lowest lane first); a shared access is
 *                 one MEMCHECK.S.
 *
 * The locations live in the kernel's *metadata registers*: (SM, warp, root value) -> location,
 * filled by every LOADMETA (an explicit one, or the one a global access needs when its root has no
 * register yet) and emptied at every kernel start (registers do not survive a kernel). The registers
 * also remember whether the LOADMETA's walk was cut short (its caller says so), so that MEMCHECK.G
 * learns which lanes' metadata came from such a walk.
 *
 * The operations themselves are the caller's (ga_exec_ops_t): each tool runs them on its backend
 * (ga_backend.h) with its own timing and bookkeeping around them. gasim's replay (sim/trace/
 * ga_replay.c), gaeval's performance runs (sim/eval/ga_perf.c) and garun (sim/garun.c) all dispatch
 * here. The SM number is the caller's key (the replay's trace SM, the others' model SM) and is passed
 * through to the operations unchanged.
 */
#ifndef GA_EXEC_H
#define GA_EXEC_H

#include "ga_mlu.h"

#include <stdbool.h>
#include <stddef.h>

/* How a global access names its root pointer. */
typedef enum {
    GA_EXEC_ROOT_NONE, /* no root: a plain access (unchecked in compiler mode) */
    GA_EXEC_ROOT_PTR,  /* one root pointer for the whole warp */
    GA_EXEC_ROOT_LANE, /* every lane's own address is its root */
} ga_exec_root_t;

/* The caller's operations. Each returns 0, or non-zero to stop the dispatch (returned as is). */
typedef struct {
    /* LOADMETA of root on (sm, warp): *md the location, *cut whether its walk was cut short. */
    int (*loadmeta)(void *ctx, unsigned sm, uint16_t warp, uint64_t root, uint64_t *md, bool *cut);
    /* MEMCHECK.G of q against location md; cut_mask: the lanes of q whose location came from a walk
     * that was cut short. */
    int (*memcheck_g)(void *ctx, unsigned sm, const ga_warp_req_t *q, uint64_t md, uint32_t cut_mask);
    int (*memcheck_s)(void *ctx, unsigned sm, const ga_warp_req_t *q, uint32_t base, uint32_t ssize);
    int (*access)(void *ctx, unsigned sm, const ga_warp_req_t *q);
} ga_exec_ops_t;

/* A register: (sm, warp, root) -> md, valid while gen is the current kernel's. */
typedef struct {
    uint64_t root;
    uint64_t md;
    uint32_t gen;
    uint16_t sm, warp;
    bool cut;
} ga_exec_reg_t;

typedef struct {
    ga_mode_t mode;
    const ga_exec_ops_t *ops;
    void *ctx;
    ga_exec_reg_t *reg; /* open addressing, a power of two entries */
    size_t cap, count;
    uint32_t gen;
} ga_exec_t;

enum {
    GA_EXEC_SKIPPED = 1,    /* nothing to run in this mode */
    GA_EXEC_NO_MEMORY = -2, /* the registers could not grow (the operation that needed them ran) */
};

/* Start a dispatch in mode with the caller's operations (borrowed) and context. */
void ga_exec_init(ga_exec_t *x, ga_mode_t mode, const ga_exec_ops_t *ops, void *ctx);
void ga_exec_fini(ga_exec_t *x);

/* A kernel starts: every register is emptied (O(1)). */
void ga_exec_kernel(ga_exec_t *x);

/* An explicit LOADMETA of root (compiler mode; HWOnly: GA_EXEC_SKIPPED): runs it and sets the
 * register. 0 with *md and *cut (either may be NULL), or the operation's code. */
int ga_exec_loadmeta(ga_exec_t *x, unsigned sm, uint16_t warp, uint64_t root, uint64_t *md, bool *cut);

/* A global access q of warp q->warp on sm (see the top of this file). root is the root pointer of
 * GA_EXEC_ROOT_PTR (unused otherwise). 0, or the first non-zero code of an operation. */
int ga_exec_global(ga_exec_t *x, unsigned sm, const ga_warp_req_t *q, ga_exec_root_t kind, uint64_t root);

/* A shared access q with the shared allocation [base, +ssize): MEMCHECK.S in compiler mode;
 * GA_EXEC_SKIPPED in HWOnly. */
int ga_exec_shared(ga_exec_t *x, unsigned sm, const ga_warp_req_t *q, uint32_t base, uint32_t ssize);

#endif /* GA_EXEC_H */
