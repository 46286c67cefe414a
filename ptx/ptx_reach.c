/*
 * ptx_reach.c — reaching definitions per register, solved lazily (ptx_reach.h).
 *
 * For a register r with n definition sites, a definition set is a bit vector of n + 1 bits: bit k is
 * the k-th site in execution order, bit n the entry pseudo-definition. Each block summarises to
 * "kills or not" plus the sites it generates; the iteration runs over reachable blocks in reverse
 * postorder, so a loop-free function settles in one pass and each loop adds a pass per nesting level.
 * Only IN(b) is kept per block; a query replays the block's own definitions up to the instruction.
 */
#include "ptx_reach.h"

#include <stdlib.h>
#include <string.h>

struct ptx_reach {
    const ptx_cfg_t *g;
    const ptx_func_t *f;
    uint32_t nregs, nblocks;
    uint32_t *def_first; /* per register: start in def_list (nregs + 1 entries) */
    uint32_t *def_list;  /* definition sites grouped by register, each group in execution order */
    uint64_t **in;       /* per register: nblocks x words(n + 1) bits, NULL until asked */
    uint32_t *rpo_order; /* reachable blocks in reverse postorder */
    uint32_t nrpo;
    uint32_t *out;       /* answer buffer */
    uint32_t out_cap;
    uint64_t *scratch;   /* one set */
    uint32_t scratch_words;
    bool failed;
};

static uint32_t words_for(uint32_t bits) { return (bits + 63u) / 64u; }

static void err_oom(const ptx_cfg_t *g, ptx_err_t *err)
{
    if (err == NULL) return;
    const char *name = (g && g->m && g->m->name) ? g->m->name : "<ptx>";
    snprintf(err->msg, sizeof err->msg, "%s: out of memory computing reaching definitions", name);
    err->pos = (ptx_pos_t){0, 0};
}

/* The distinct registers an instruction writes. */
static unsigned insn_defs_unique(const ptx_func_t *f, const ptx_insn_t *in, uint32_t out[8])
{
    uint32_t tmp[8];
    unsigned n = ptx_insn_defs(in, f, tmp, 8), k = 0;
    for (unsigned i = 0; i < n; i++) {
        if (tmp[i] >= f->nregs) continue;
        bool dup = false;
        for (unsigned j = 0; j < k; j++) dup |= out[j] == tmp[i];
        if (!dup) out[k++] = tmp[i];
    }
    return k;
}

ptx_reach_t *ptx_reach_build(const ptx_cfg_t *g, ptx_err_t *err)
{
    ptx_reach_t *rd = calloc(1, sizeof *rd);
    if (rd == NULL) {
        err_oom(g, err);
        return NULL;
    }
    rd->g = g;
    rd->f = g->f;
    rd->nregs = g->f->nregs;
    rd->nblocks = g->nblocks;
    const ptx_func_t *f = g->f;
    rd->def_first = calloc((size_t)rd->nregs + 2, sizeof *rd->def_first);
    rd->in = calloc((size_t)rd->nregs + 1, sizeof *rd->in);
    rd->rpo_order = malloc(((size_t)rd->nblocks + 1) * sizeof *rd->rpo_order);
    if (!rd->def_first || !rd->in || !rd->rpo_order) goto oom;

    /* Count, then place, definition sites in execution order. */
    uint32_t total = 0;
    for (uint32_t k = 0; k < g->ninsns_body; k++) {
        uint32_t d[8];
        unsigned nd = insn_defs_unique(f, &f->insns[g->order[k]], d);
        for (unsigned j = 0; j < nd; j++) rd->def_first[d[j] + 1]++;
        total += nd;
    }
    for (uint32_t r = 0; r < rd->nregs; r++) rd->def_first[r + 1] += rd->def_first[r];
    rd->def_list = malloc(((size_t)total + 1) * sizeof *rd->def_list);
    uint32_t *fill = malloc(((size_t)rd->nregs + 1) * sizeof *fill);
    if (!rd->def_list || !fill) {
        free(fill);
        goto oom;
    }
    memcpy(fill, rd->def_first, (size_t)rd->nregs * sizeof *fill);
    for (uint32_t k = 0; k < g->ninsns_body; k++) {
        uint32_t d[8];
        unsigned nd = insn_defs_unique(f, &f->insns[g->order[k]], d);
        for (unsigned j = 0; j < nd; j++) rd->def_list[fill[d[j]]++] = g->order[k];
    }
    free(fill);

    /* Reachable blocks by their reverse-postorder number. */
    for (uint32_t b = 0; b < rd->nblocks; b++) rd->rpo_order[b] = PTX_CFG_NONE;
    for (uint32_t b = 0; b < rd->nblocks; b++) {
        uint32_t r = g->blocks[b].rpo;
        if (r != PTX_CFG_NONE && r < rd->nblocks) rd->rpo_order[r] = b;
    }
    uint32_t k = 0;
    for (uint32_t r = 0; r < rd->nblocks; r++)
        if (rd->rpo_order[r] != PTX_CFG_NONE) rd->rpo_order[k++] = rd->rpo_order[r];
    rd->nrpo = k;
    return rd;
oom:
    err_oom(g, err);
    ptx_reach_free(rd);
    return NULL;
}

void ptx_reach_free(ptx_reach_t *rd)
{
    if (rd == NULL) return;
    if (rd->in)
        for (uint32_t r = 0; r < rd->nregs; r++) free(rd->in[r]);
    free(rd->in);
    free(rd->def_first);
    free(rd->def_list);
    free(rd->rpo_order);
    free(rd->out);
    free(rd->scratch);
    free(rd);
}

bool ptx_reach_failed(const ptx_reach_t *rd) { return rd == NULL || rd->failed; }

const uint32_t *ptx_reach_all_defs(const ptx_reach_t *rd, uint32_t reg, uint32_t *n)
{
    if (rd == NULL || reg >= rd->nregs) {
        *n = 0;
        return rd ? rd->def_list : NULL;
    }
    *n = rd->def_first[reg + 1] - rd->def_first[reg];
    return rd->def_list + rd->def_first[reg];
}

/* Solve the data-flow problem for reg; 0 or -1 out of memory. */
static int solve(ptx_reach_t *rd, uint32_t reg)
{
    const ptx_cfg_t *g = rd->g;
    const ptx_func_t *f = rd->f;
    uint32_t nb = rd->nblocks;
    uint32_t n = rd->def_first[reg + 1] - rd->def_first[reg];
    const uint32_t *D = rd->def_list + rd->def_first[reg];
    uint32_t W = words_for(n + 1);
    size_t cells = (size_t)nb * W + 1;
    uint64_t *in = calloc(cells, sizeof *in);
    uint64_t *out = calloc(cells, sizeof *out);
    uint64_t *gen = calloc(cells, sizeof *gen);
    bool *kill = calloc((size_t)nb + 1, sizeof *kill);
    if (!in || !out || !gen || !kill) {
        free(in), free(out), free(gen), free(kill);
        return -1;
    }
    /* Block summaries: the sites are in execution order, so later sites of a block come later. */
    for (uint32_t k = 0; k < n; k++) {
        uint32_t b = g->insn_block[D[k]];
        if (b >= nb) continue;
        uint64_t *gb = gen + (size_t)b * W;
        if (f->insns[D[k]].guard == PTX_NOREG) {
            kill[b] = true;
            memset(gb, 0, (size_t)W * sizeof *gb);
        }
        gb[k / 64] |= 1ull << (k % 64);
    }
    /* Unreachable blocks: IN = {ENTRY}. */
    for (uint32_t b = 0; b < nb; b++)
        if (g->blocks[b].rpo == PTX_CFG_NONE) in[(size_t)b * W + n / 64] |= 1ull << (n % 64);
    bool changed = true;
    while (changed) {
        changed = false;
        for (uint32_t i = 0; i < rd->nrpo; i++) {
            uint32_t b = rd->rpo_order[i];
            uint64_t *ib = in + (size_t)b * W, *ob = out + (size_t)b * W, *gb = gen + (size_t)b * W;
            if (b == 0) ib[n / 64] |= 1ull << (n % 64);
            const ptx_block_t *bl = &g->blocks[b];
            for (uint32_t p = 0; p < bl->npred; p++) {
                uint32_t pb = bl->pred[p];
                if (pb >= nb || g->blocks[pb].rpo == PTX_CFG_NONE) continue;
                const uint64_t *op = out + (size_t)pb * W;
                for (uint32_t w = 0; w < W; w++) ib[w] |= op[w];
            }
            for (uint32_t w = 0; w < W; w++) {
                uint64_t v = kill[b] ? gb[w] : (ib[w] | gb[w]);
                if (v != ob[w]) {
                    ob[w] = v;
                    changed = true;
                }
            }
        }
    }
    free(out), free(gen), free(kill);
    rd->in[reg] = in;
    return 0;
}

const uint32_t *ptx_reach_defs(ptx_reach_t *rd, uint32_t insn, uint32_t reg, uint32_t *n)
{
    *n = 0;
    if (rd == NULL || rd->failed) return NULL;
    const ptx_cfg_t *g = rd->g;
    if (reg >= rd->nregs || insn >= rd->f->ninsns || g->insn_block[insn] == PTX_CFG_NONE) return rd->def_list;
    if (rd->in[reg] == NULL && solve(rd, reg) != 0) {
        rd->failed = true;
        return NULL;
    }
    uint32_t nd = rd->def_first[reg + 1] - rd->def_first[reg];
    const uint32_t *D = rd->def_list + rd->def_first[reg];
    uint32_t W = words_for(nd + 1);
    if (W > rd->scratch_words) {
        uint64_t *s = realloc(rd->scratch, (size_t)W * sizeof *s);
        if (s == NULL) {
            rd->failed = true;
            return NULL;
        }
        rd->scratch = s;
        rd->scratch_words = W;
    }
    if (nd + 1 > rd->out_cap) {
        uint32_t *o = realloc(rd->out, ((size_t)nd + 1) * sizeof *o);
        if (o == NULL) {
            rd->failed = true;
            return NULL;
        }
        rd->out = o;
        rd->out_cap = nd + 1;
    }
    uint32_t b = g->insn_block[insn];
    uint64_t *set = rd->scratch;
    memcpy(set, rd->in[reg] + (size_t)b * W, (size_t)W * sizeof *set);
    uint32_t pos = g->insn_pos[insn];
    for (uint32_t k = 0; k < nd; k++) {
        if (g->insn_block[D[k]] != b || g->insn_pos[D[k]] >= pos) continue;
        if (rd->f->insns[D[k]].guard == PTX_NOREG) memset(set, 0, (size_t)W * sizeof *set);
        set[k / 64] |= 1ull << (k % 64);
    }
    uint32_t c = 0;
    for (uint32_t k = 0; k < nd; k++)
        if (set[k / 64] >> (k % 64) & 1u) rd->out[c++] = D[k];
    if (set[nd / 64] >> (nd % 64) & 1u) rd->out[c++] = PTX_REACH_ENTRY;
    *n = c;
    return rd->out;
}
