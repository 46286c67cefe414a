/*
 * tb_rtlbench.c — cycle measurements of the Verilated ga_mlu (make bench-rtl).
 *
 * Directed stimulus on the §1 ports of one configuration (RTL_CFG, default t7_m8_l1); every number is
 * a count of clock edges taken from the ports: latency = first cycle of rsp_valid_o minus the cycle
 * whose edge accepted the request (docs/microarchitecture.md §6). Metadata is built by the C model's
 * runtime (LIST layout, so a walk's length is chosen by the allocation's depth) in a ga_mem, served by
 * an in-file memory responder with a fixed latency Lm (cycles from the edge that transfers a read to
 * the first cycle its response is valid) and all readies high; a 128-byte read (an INDEX node,
 * mem_req_len_o = 2) is answered by four beats in consecutive cycles after that latency.
 *
 * It is a benchmark: the targets are printed with PASS/MISS for information; the exit status is 0
 * unless the simulation itself fails (watchdog, protocol error, RTL assertion, unexpected response).
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ga_mem.h"
#include "ga_runtime.h"
#include "ga_types.h"
#include "tb_dut.h"

enum { OP_LM = 0, OP_MG = 1, OP_FLUSH = 5, OP_CFG = 6 };
enum { CFG_LAYOUT = 1, CFG_ROOT = 2, CFG_STEP_LIMIT = 3 };
#define NOBJ 24u
#define NID 16u
#define WATCHDOG 200000u

typedef struct {
    tb_dut_t *d;
    tb_dut_info_t info;
    tb_dut_in_t in;
    tb_dut_out_t out;
    uint64_t cyc;
    ga_mem_t *mem;
    /* memory responder: one read in flight (§1.3) */
    unsigned lm;
    bool mbusy;
    uint64_t mdue, reads;
    uint8_t mdata[128];
    bool merr[4];
    unsigned mbeats, mbeat; /* beats of the read in flight, beats delivered */
    /* responses by id */
    bool pend[NID];
    uint64_t acc_cyc[NID], rsp_cyc[NID], rsp_rd[NID];
    uint8_t rsp_op[NID], rsp_status[NID];
    uint16_t rsp_id[NID]; /* rsp_id_o as seen on the port */
    uint32_t rsp_fault[NID];
    uint64_t nrsp, last_rsp;
} bench_t;

static void fail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("tb_rtlbench: FAIL: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    exit(1);
}

/* One clock cycle. Returns true when the request presented in b->in was accepted at its edge. */
static bool step(bench_t *b)
{
    b->in.rsp_ready = 1;
    b->in.orc_req_ready = 1;
    b->in.orc_rsp_valid = 0;
    b->in.mem_req_ready = b->mbusy ? 0u : 1u;
    b->in.mem_rsp_valid = (b->mbusy && b->cyc >= b->mdue) ? 1u : 0u;
    b->in.mem_rsp_err = b->in.mem_rsp_valid ? (uint8_t)b->merr[b->mbeat] : 0u;
    memcpy(b->in.mem_rsp_data, b->mdata + 32u * b->mbeat, 32);
    tb_dut_set_inputs(b->d, &b->in);
    tb_dut_eval(b->d);
    tb_dut_get_outputs(b->d, &b->out);
    const tb_dut_out_t *o = &b->out;
    if (o->rsp_valid) { /* rsp_ready is always high: transfers now */
        unsigned id = o->rsp_id % NID;
        if (!b->pend[id]) fail("cycle %" PRIu64 ": response for id %u with none outstanding", b->cyc, id);
        b->pend[id] = false;
        b->rsp_cyc[id] = b->cyc;
        b->rsp_rd[id] = o->rsp_rd;
        b->rsp_op[id] = o->rsp_op;
        b->rsp_id[id] = o->rsp_id;
        b->rsp_status[id] = o->rsp_status;
        b->rsp_fault[id] = o->rsp_fault;
        b->nrsp++;
        b->last_rsp = b->cyc;
    }
    bool acc = b->in.req_valid && o->req_ready;
    if (acc) {
        unsigned id = b->in.req_id % NID;
        if (b->pend[id]) fail("cycle %" PRIu64 ": id %u reused while outstanding (bench bug)", b->cyc, id);
        b->pend[id] = true;
        b->acc_cyc[id] = b->cyc;
    }
    if (b->in.mem_rsp_valid && o->mem_rsp_ready && ++b->mbeat == b->mbeats) b->mbusy = false;
    if (o->mem_req_valid && b->in.mem_req_ready) {
        static const unsigned lens[4] = { 16u, 32u, 128u, 0u }; /* mem_req_len_o (microarchitecture §1.3) */
        unsigned len = lens[o->mem_req_len & 3u];
        if (len == 0u) fail("cycle %" PRIu64 ": read length code 3 (never issued)", b->cyc);
        memset(b->mdata, 0, sizeof b->mdata);
        b->mbeats = len > 32u ? len / 32u : 1u;
        b->mbeat = 0;
        for (unsigned k = 0; k < b->mbeats; k++)
            b->merr[k] = ga_mem_read(b->mem, o->mem_req_addr + 32u * k, b->mdata + 32u * k, len < 32u ? len : 32u) != GA_MEM_OK;
        b->mbusy = true;
        b->mdue = b->cyc + b->lm;
        b->reads++;
    }
    tb_dut_tick(b->d);
    if (tb_dut_failed(b->d)) fail("cycle %" PRIu64 ": RTL assertion failed", b->cyc);
    b->cyc++;
    return acc;
}

static void present(bench_t *b, unsigned op, unsigned id, uint64_t addr, unsigned size, uint64_t md, unsigned cfg)
{
    b->in.req_valid = 1;
    b->in.req_op = (uint8_t)op;
    b->in.req_id = (uint16_t)id;
    b->in.req_warp = 1;
    b->in.req_active = 1u;
    for (unsigned l = 0; l < TB_LANES_MAX; l++) b->in.req_addr[l] = addr;
    b->in.req_size = (uint8_t)size;
    b->in.req_md = md;
    b->in.req_cfg_addr = (uint8_t)cfg;
}

/* Present one request until accepted; returns the accepting cycle. */
static uint64_t issue(bench_t *b, unsigned op, unsigned id, uint64_t addr, unsigned size, uint64_t md, unsigned cfg)
{
    present(b, op, id, addr, size, md, cfg);
    for (unsigned n = 0; n < WATCHDOG; n++) {
        uint64_t c = b->cyc;
        if (step(b)) {
            b->in.req_valid = 0;
            return c;
        }
    }
    fail("watchdog: op %u id %u never accepted", op, id);
    return 0;
}

static void wait_id(bench_t *b, unsigned id)
{
    for (unsigned n = 0; n < WATCHDOG && b->pend[id]; n++) step(b);
    if (b->pend[id]) fail("watchdog: no response for id %u", id);
}

static void wait_all(bench_t *b)
{
    for (unsigned id = 0; id < NID; id++) wait_id(b, id);
}

/* A request and its response; returns the latency, checks status OK and no fault. */
static uint64_t run1(bench_t *b, unsigned op, unsigned id, uint64_t addr, unsigned size, uint64_t md, unsigned cfg)
{
    issue(b, op, id, addr, size, md, cfg);
    wait_id(b, id);
    if (b->rsp_op[id] != op || b->rsp_status[id] != 0u || b->rsp_fault[id] != 0u)
        fail("op %u id %u: unexpected response op %u status %u fault %#x", op, id, b->rsp_op[id], b->rsp_status[id],
             (unsigned)b->rsp_fault[id]);
    return b->rsp_cyc[id] - b->acc_cyc[id];
}

static const char *pm(bool ok) { return ok ? "PASS" : "MISS"; }

int main(void)
{
    bench_t b;
    memset(&b, 0, sizeof b);
    b.d = tb_dut_create("");
    if (b.d == NULL) return 1;
    b.info = tb_dut_info(b.d);
    unsigned tb = b.info.tag_bits;
    if (ga_mem_create(&b.mem) != GA_OK) fail("ga_mem_create");
    ga_rt_cfg_t rc;
    ga_rt_default_cfg(&rc, GA_LAYOUT_LIST, tb, 1);
    ga_rt_t *rt = NULL;
    if (ga_rt_create(&rc, b.mem, &rt) != GA_OK) fail("ga_rt_create");
    /* LIST inserts at the head: obj[NOBJ-1] is found with 1 node read, obj[0] with NOBJ reads. */
    uint64_t ptr[NOBJ], loc[NOBJ];
    for (unsigned i = 0; i < NOBJ; i++) {
        ga_entry_t e;
        if (ga_rt_malloc(rt, 256, &ptr[i]) != GA_OK || !ga_rt_find(rt, ptr[i], &e, &loc[i])) fail("runtime setup");
    }

    tb_dut_set_reset(b.d, false);
    for (unsigned i = 0; i < 4u; i++) {
        tb_dut_set_inputs(b.d, &b.in);
        tb_dut_eval(b.d);
        tb_dut_tick(b.d);
    }
    tb_dut_set_reset(b.d, true);
    b.lm = 1;
    run1(&b, OP_CFG, 0, 0, 0, GA_LAYOUT_LIST, CFG_LAYOUT);
    run1(&b, OP_CFG, 0, 0, 0, ga_rt_root(rt), CFG_ROOT);
    run1(&b, OP_CFG, 0, 0, 0, 4096, CFG_STEP_LIMIT);

    printf("GPUArmor RTL bench: ga_mlu %s (TagBits %u, MlbEntries %u, Lanes %u), Verilator; LIST layout,\n"
           "fixed memory latency Lm, all readies high; every number is a cycle count from simulation.\n\n",
           b.info.name, tb, b.info.mlb_entries, b.info.lanes);

    /* (4) walks: n node reads at Lm; (6) MEMCHECK.G fetch. */
    static const unsigned lms[] = {1, 4, 20};
    static const unsigned depth[] = {1, 8, NOBJ};
    uint64_t wl[3][3], wn[3][3], fetch[3], fetchn[3];
    double ovh_max = 0;
    for (unsigned li = 0; li < 3; li++) {
        b.lm = lms[li];
        for (unsigned di = 0; di < 3; di++) {
            unsigned k = NOBJ - depth[di];
            run1(&b, OP_FLUSH, 0, 0, 0, 0, 0);
            uint64_t r0 = b.reads;
            wl[li][di] = run1(&b, OP_LM, 1, ptr[k], 0, 0, 0);
            wn[li][di] = b.reads - r0;
            if (b.rsp_rd[1] != loc[k]) fail("walk: LOADMETA returned %#" PRIx64 ", want %#" PRIx64, b.rsp_rd[1], loc[k]);
        }
        run1(&b, OP_FLUSH, 0, 0, 0, 0, 0);
        uint64_t r0 = b.reads;
        fetch[li] = run1(&b, OP_MG, 2, ptr[3], 2, loc[3], 0);
        fetchn[li] = b.reads - r0;
    }

    /* (1), (2): hits (the entry was filled by the fetch above: fill it by a walk too). */
    b.lm = 1;
    run1(&b, OP_LM, 3, ptr[NOBJ - 1], 0, 0, 0);
    uint64_t lm_hit = run1(&b, OP_LM, 3, ptr[NOBJ - 1], 0, 0, 0);
    uint64_t mg_hit = run1(&b, OP_MG, 4, ptr[NOBJ - 1], 2, loc[NOBJ - 1], 0);
    uint64_t r_hits = b.reads;

    /* (3) sustained: 10 000 back-to-back hitting ops, req_valid held high; 4 entries in the MLB. */
    for (unsigned i = 0; i < 4; i++) run1(&b, OP_LM, 0, ptr[NOBJ - 1 - i], 0, 0, 0);
    r_hits = b.reads;
    const unsigned nops = 10000;
    double tput[3];
    static const char *const sname[3] = {"LOADMETA only", "MEMCHECK.G only", "LM/MG alternating"};
    for (unsigned s = 0; s < 3; s++) {
        uint64_t first = 0, n0 = b.nrsp;
        unsigned issued = 0;
        for (uint64_t guard = 0; b.nrsp - n0 < nops; guard++) {
            if (guard > (uint64_t)nops * 20u) fail("watchdog: sustained stream");
            if (issued < nops) {
                unsigned obj = NOBJ - 1 - (issued % 4u);
                unsigned op = s == 0 ? OP_LM : s == 1 ? OP_MG : (issued & 1u) ? OP_MG : OP_LM;
                present(&b, op, issued % NID, ptr[obj], op == OP_MG ? 2u : 0u, op == OP_MG ? loc[obj] : 0u, 0);
            } else {
                b.in.req_valid = 0;
            }
            uint64_t c = b.cyc;
            if (step(&b)) {
                if (issued == 0) first = c;
                issued++;
            }
        }
        b.in.req_valid = 0;
        tput[s] = (double)nops / (double)(b.last_rsp - first);
    }
    if (b.reads != r_hits) fail("sustained stream missed the MLB (%" PRIu64 " reads)", b.reads - r_hits);

    /* (5) hit-under-miss: a walk of NOBJ reads at Lm = 20, then 8 hits issued behind it. */
    b.lm = 20;
    run1(&b, OP_FLUSH, 0, 0, 0, 0, 0);
    run1(&b, OP_LM, 0, ptr[NOBJ - 1], 0, 0, 0);
    run1(&b, OP_LM, 0, ptr[NOBJ - 2], 0, 0, 0);
    uint64_t w_acc = issue(&b, OP_LM, 0, ptr[0], 0, 0, 0);
    uint64_t r_walk = b.reads;
    enum { NHUM = 8 };
    unsigned hop[NHUM];
    for (unsigned i = 0; i < NHUM; i++) {
        unsigned obj = NOBJ - 1 - (i & 1u);
        hop[i] = (i & 2u) ? OP_MG : OP_LM;
        issue(&b, hop[i], 1 + i, ptr[obj], hop[i] == OP_MG ? 2u : 0u, hop[i] == OP_MG ? loc[obj] : 0u, 0);
    }
    wait_all(&b);
    uint64_t w_rsp = b.rsp_cyc[0];
    if (b.rsp_rd[0] != loc[0]) fail("hit-under-miss: walk returned %#" PRIx64, b.rsp_rd[0]);
    bool hum_ok = true;
    for (unsigned i = 0; i < NHUM; i++) {
        unsigned id = 1 + i;
        if (b.rsp_status[id] != 0u || b.rsp_fault[id] != 0u || b.rsp_op[id] != hop[i])
            fail("hit-under-miss: id %u bad response", id);
        if (b.rsp_cyc[id] >= w_rsp) hum_ok = false;
    }

    /* ------------------------------------------------------------------------------------------- */
    printf("%-44s %-22s %-36s %s\n", "measurement", "measured (cycles)", "target", "");
    printf("%-44s %-22s %-36s %s\n", "--------------------------------------------", "----------------------",
           "------------------------------------", "----");
    char m[64];
    snprintf(m, sizeof m, "%" PRIu64 " (%s)", lm_hit, lm_hit == 1 ? "next cycle" : "later");
    printf("%-44s %-22s %-36s %s\n", "(1) LOADMETA hit", m, "next cycle (1)", pm(lm_hit <= 1));
    snprintf(m, sizeof m, "%" PRIu64, mg_hit);
    printf("%-44s %-22s %-36s %s\n", "(2) MEMCHECK.G hit", m, "<= 2 cycles (paper assumes 3)", pm(mg_hit <= 2));
    for (unsigned s = 0; s < 3; s++) {
        char name[64];
        snprintf(name, sizeof name, "(3) sustained, %s", sname[s]);
        snprintf(m, sizeof m, "%.4f op/cycle", tput[s]);
        printf("%-44s %-22s %-36s %s\n", name, m, "1 op/cycle", pm(tput[s] >= 0.999));
    }
    printf("\n(4) LOADMETA miss, LIST walk of n node reads (doc: n*(Lm+1)+2):\n");
    printf("    %-6s %-4s %-14s %-16s %-10s\n", "Lm", "n", "total cycles", "cycles/node-Lm", "doc");
    for (unsigned li = 0; li < 3; li++) {
        for (unsigned di = 0; di < 3; di++) {
            uint64_t n = wn[li][di];
            printf("    %-6u %-4" PRIu64 " %-14" PRIu64 " %-16.3f %-10" PRIu64 "\n", lms[li], n, wl[li][di],
                   (double)wl[li][di] / (double)n - lms[li], n * (lms[li] + 1u) + 2u);
        }
        /* FSM overhead per node: slope between the shortest and longest walk, minus Lm */
        double slope = (double)(wl[li][2] - wl[li][0]) / (double)(wn[li][2] - wn[li][0]) - lms[li];
        if (slope > ovh_max) ovh_max = slope;
        printf("    Lm=%-3u per-node overhead (slope - Lm) = %.3f, fixed part = %.3f cycles\n", lms[li], slope,
               (double)wl[li][0] - (double)wn[li][0] * (slope + lms[li]));
    }
    snprintf(m, sizeof m, "%.3f cycle/node", ovh_max);
    printf("%-44s %-22s %-36s %s\n", "(4) miss FSM overhead (max over Lm)", m, "<= 1 cycle per node", pm(ovh_max <= 1.0));
    printf("\n(5) hit-under-miss: LOADMETA walk of %" PRIu64 " reads at Lm = 20 (id 0) accepted in cycle 0,\n"
           "    8 hits issued behind it (cycles relative to the walk's acceptance):\n",
           b.reads - r_walk);
    for (unsigned i = 0; i < NHUM; i++) {
        unsigned id = 1 + i;
        printf("    id %-2u %-10s accepted %4" PRIu64 "  response %4" PRIu64 "  latency %" PRIu64 "  rsp_id %u\n", id,
               hop[i] == OP_MG ? "MEMCHECK.G" : "LOADMETA", b.acc_cyc[id] - w_acc, b.rsp_cyc[id] - w_acc,
               b.rsp_cyc[id] - b.acc_cyc[id], id);
    }
    printf("    id 0  LOADMETA   accepted    0  response %4" PRIu64 "  latency %" PRIu64 "  rsp_id %u (walk)\n",
           w_rsp - w_acc, w_rsp - w_acc, (unsigned)b.rsp_id[0]);
    printf("%-44s %-22s %-36s %s\n", "(5) hit-under-miss", hum_ok ? "served during walk" : "after walk",
           "served during walk", pm(hum_ok));
    printf("\n(6) MEMCHECK.G miss (fetch, doc: Lm+3):\n");
    for (unsigned li = 0; li < 3; li++)
        printf("    Lm=%-3u %" PRIu64 " cycles (%" PRIu64 " read), doc %u\n", lms[li], fetch[li], fetchn[li], lms[li] + 3u);
    printf("\nPASS/MISS is information only (a benchmark, not a test); %" PRIu64 " cycles simulated.\n", b.cyc);

    tb_dut_destroy(b.d);
    ga_rt_destroy(rt);
    ga_mem_destroy(b.mem);
    return 0;
}
