/*
 * gabench — speed of the golden model and the walk cost of each metadata layout.
 *
 * 1. Throughput: HWOnly mode (paper §6.2: every global access runs LOADMETA + check), 8-entry MLB,
 *    1 000 live allocations in the BST, accesses that cycle through a working set of 6 allocations
 *    (paper Fig 4: working sets under eight) and swap one working-set member every 4 096 accesses so
 *    some lookups miss and walk. Reported as checked accesses per second (one access = one lane) for
 *    one-lane requests and for 32-lane warps, per second of this thread's CPU time
 *    (CLOCK_THREAD_CPUTIME_ID), so that other jobs on the machine do not distort the figure.
 * 2. Walk cost: LIST, BST and TABLE holding 10, 100, 1 000 and 10 000 live allocations; 4 096 walks
 *    for random live pointers (random offsets inside the allocation): mean and max node reads per
 *    walk (the paper's O(N), O(log N), O(1), §4.2 / §9.1) and nanoseconds per walk.
 *
 * Nothing here is asserted: the figures go to README.md / docs with how they were measured.
 */
#include "ga_system.h"
#include "ga_rng.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* This thread's CPU time: the benchmark measures the model's cost, not the machine's load. */
static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void die(const char *what, ga_err_t err)
{
    fprintf(stderr, "gabench: %s: %s\n", what, ga_strerror(err));
    exit(1);
}

/* Build a system with n live allocations; returns their pointers and sizes. */
static void build(ga_system_t *s, ga_layout_t layout, ga_mode_t mode, unsigned n, uint64_t seed,
                  uint64_t *ptr, uint64_t *size)
{
    ga_system_cfg_t cfg;
    ga_system_default_cfg(&cfg, layout, 7, seed);
    cfg.mode = mode;
    cfg.mlb_entries = 8;
    cfg.rt.md_capacity = n + 16u;
    ga_err_t err = ga_system_init(s, &cfg);
    if (err != GA_OK) die("system", err);
    ga_rng_t rng;
    ga_rng_seed(&rng, seed);
    for (unsigned i = 0; i < n; i++) {
        size[i] = 256u + 256u * ga_rng_below(&rng, 64);
        err = ga_system_malloc(s, size[i], &ptr[i]);
        if (err != GA_OK) die("malloc", err);
    }
}

static void throughput(unsigned lanes)
{
    enum { LIVE = 1000, WS = 6 };
    static uint64_t ptr[LIVE], size[LIVE];
    ga_system_t s;
    build(&s, GA_LAYOUT_BST, GA_MODE_HWONLY, LIVE, 42, ptr, size);
    ga_mlu_t *u = &s.sm[0];
    ga_rng_t rng;
    ga_rng_seed(&rng, 7);
    unsigned ws[WS];
    for (int i = 0; i < WS; i++) ws[i] = (unsigned)ga_rng_below(&rng, LIVE);

    ga_warp_req_t q;
    ga_warp_rsp_t rsp;
    memset(&q, 0, sizeof q);
    q.lanes = lanes;
    q.active = lanes == 32u ? UINT32_MAX : (UINT32_C(1) << lanes) - 1u;
    q.size = 4;
    uint64_t ops = 0, faults = 0;
    double t0 = now_s(), t1;
    do {
        for (int rep = 0; rep < 4096; rep++) {
            unsigned b = ws[rep % WS];
            uint64_t elems = size[b] / 4u;
            uint64_t first = ((uint64_t)rep * 32u) % (elems - lanes + 1u);
            for (unsigned l = 0; l < lanes; l++) q.addr[l] = ptr[b] + (first + l) * 4u;
            if (ga_mlu_access(u, &q, &rsp) != GA_OK) die("access", GA_ERR_BAD_PARAM);
            faults += rsp.fault != 0u;
        }
        ops += 4096;
        ws[ga_rng_below(&rng, WS)] = (unsigned)ga_rng_below(&rng, LIVE);
        t1 = now_s();
    } while (t1 - t0 < 1.0);
    double secs = t1 - t0;
    ga_mlu_stats_t st = ga_system_stats(&s);
    printf("  %2u lane%s  %12.2f M checked accesses/s  %10.2f M requests/s  MLB hit %.2f%%  "
           "(%.2f s CPU, %" PRIu64 " faults)\n",
           lanes, lanes == 1 ? " " : "s", (double)(ops * lanes) / secs / 1e6, (double)ops / secs / 1e6,
           100.0 * (double)st.loadmeta_hits / (double)(st.loadmeta - st.loadmeta_unchecked), secs, faults);
    ga_system_fini(&s);
}

static void walk_cost(ga_layout_t layout, unsigned n)
{
    uint64_t *ptr = malloc(n * sizeof *ptr), *size = malloc(n * sizeof *size);
    if (ptr == NULL || size == NULL) die("host", GA_ERR_NO_MEMORY);
    ga_system_t s;
    build(&s, layout, GA_MODE_COMPILER, n, 99, ptr, size);
    ga_walk_cfg_t wc = {.layout = layout, .root = ga_rt_root(s.rt), .step_limit = UINT32_MAX, .tag_bits = 7};
    ga_rng_t rng;
    ga_rng_seed(&rng, 3);
    enum { WALKS = 4096 };
    uint64_t steps = 0, found = 0;
    uint32_t max = 0;
    double t0 = now_s();
    for (int i = 0; i < WALKS; i++) {
        unsigned k = (unsigned)ga_rng_below(&rng, n);
        uint64_t p = ptr[k] + ga_rng_below(&rng, size[k]);
        ga_walk_result_t r = ga_walk(&wc, &s.sm[0].mem, p);
        steps += r.steps;
        found += r.status == GA_WALK_FOUND;
        if (r.steps > max) max = r.steps;
    }
    double ns = (now_s() - t0) * 1e9 / WALKS;
    printf("  %-6s %6u  %10.2f %8" PRIu32 " %10.1f %9s\n", ga_layout_name(layout), n,
           (double)steps / WALKS, max, ns, found == WALKS ? "all" : "SOME MISSED");
    ga_system_fini(&s);
    free(ptr);
    free(size);
}

int main(int argc, char **argv)
{
    (void)argv;
    if (argc > 1) {
        fprintf(stderr, "usage: gabench (no options)\n");
        return 2;
    }
    printf("GPUArmor golden model benchmark (one thread; times are this thread's CPU time)\n\n");
    printf("Throughput: HWOnly, 8-entry MLB, 1000 live allocations in the BST, working set 6\n");
    throughput(1);
    throughput(32);
    printf("\nWalk cost: node reads per LOADMETA walk for random live pointers (4096 walks)\n");
    printf("  %-6s %6s  %10s %8s %10s %9s\n", "layout", "live", "mean reads", "max", "CPU ns/walk", "found");
    const unsigned ns[] = {10, 100, 1000, 10000};
    for (int l = 0; l < 3; l++)
        for (int i = 0; i < 4; i++) walk_cost((ga_layout_t)l, ns[i]);
    return 0;
}
