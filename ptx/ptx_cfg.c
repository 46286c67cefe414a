/*
 * ptx_cfg.c — basic blocks, edges, dominator and post-dominator trees, loop depth (ptx_cfg.h).
 *
 * Construction is linear in the body; the trees use the iterative algorithm of Cooper, Harvey and
 * Kennedy, "A Simple, Fast Dominance Algorithm" (2001): intersect predecessors' dominators in reverse
 * postorder until nothing changes. Post-dominators run the same algorithm on the reversed graph rooted
 * at the virtual EXIT node.
 */
#include "ptx_cfg.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

static void cfg_err(const ptx_module_t *m, ptx_pos_t pos, ptx_err_t *err, const char *fmt, ...)
{
    if (err == NULL) return;
    char body[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(body, sizeof body, fmt, ap);
    va_end(ap);
    const char *name = (m && m->name) ? m->name : "<ptx>";
    if (pos.line)
        snprintf(err->msg, sizeof err->msg, "%s:%u:%u: %s", name, pos.line, pos.col, body);
    else
        snprintf(err->msg, sizeof err->msg, "%s: %s", name, body);
    err->pos = pos;
}

/* A growable list of uint32 (edges). */
typedef struct {
    uint32_t *v;
    uint32_t n, cap;
} u32vec_t;

static int vec_push(u32vec_t *a, uint32_t x)
{
    if (a->n == a->cap) {
        uint32_t nc = a->cap ? a->cap * 2 : 4;
        uint32_t *nv = realloc(a->v, (size_t)nc * sizeof *nv);
        if (nv == NULL) return -1;
        a->v = nv;
        a->cap = nc;
    }
    a->v[a->n++] = x;
    return 0;
}

static bool is_branch(const ptx_insn_t *in) { return in->opc == PTX_OPC_BRA; }
static bool is_exit(const ptx_insn_t *in)
{
    return in->opc == PTX_OPC_RET || in->opc == PTX_OPC_EXIT || in->opc == PTX_OPC_TRAP;
}

void ptx_cfg_free(ptx_cfg_t *g)
{
    if (g == NULL) return;
    for (uint32_t b = 0; b < g->nblocks; b++) {
        free(g->blocks[b].insns);
        free(g->blocks[b].succ);
        free(g->blocks[b].pred);
    }
    free(g->blocks);
    free(g->insn_block);
    free(g->insn_pos);
    free(g->order);
    free(g->label_block);
    free(g);
}

/* Intersection step of Cooper-Harvey-Kennedy over "number" (postorder index, larger = closer to root). */
static uint32_t intersect(const uint32_t *dom, const uint32_t *num, uint32_t a, uint32_t b)
{
    while (a != b) {
        while (num[a] < num[b]) a = dom[a];
        while (num[b] < num[a]) b = dom[b];
    }
    return a;
}

/* Dominators of a graph with nodes 0..n-1, root r, edges given as predecessor lists in[] and successor
 * lists out[] (for the DFS). dom[] receives the immediate dominator (root: itself; unreachable: NONE);
 * rpo_num[] the reverse-postorder number (NONE when unreachable). Returns 0, -1 out of memory. */
static int dominators(uint32_t n, uint32_t r, u32vec_t *out, u32vec_t *in, uint32_t *dom, uint32_t *rpo_num)
{
    uint32_t *post = malloc((size_t)n * sizeof *post);   /* nodes in postorder */
    uint32_t *num = malloc((size_t)n * sizeof *num);     /* postorder number */
    uint32_t *stack = malloc((size_t)n * sizeof *stack);
    uint32_t *it = malloc((size_t)n * sizeof *it);
    bool *seen = calloc(n, sizeof *seen);
    if (!post || !num || !stack || !it || !seen) {
        free(post), free(num), free(stack), free(it), free(seen);
        return -1;
    }
    /* Iterative DFS for postorder. */
    uint32_t np = 0, sp = 0;
    stack[sp] = r;
    it[sp++] = 0;
    seen[r] = true;
    while (sp) {
        uint32_t v = stack[sp - 1];
        if (it[sp - 1] < out[v].n) {
            uint32_t w = out[v].v[it[sp - 1]++];
            if (w >= n) continue; /* the forward graph's edges to EXIT leave the node set */
            if (!seen[w]) {
                seen[w] = true;
                stack[sp] = w;
                it[sp++] = 0;
            }
        } else {
            num[v] = np;
            post[np++] = v;
            sp--;
        }
    }
    for (uint32_t v = 0; v < n; v++) {
        dom[v] = PTX_CFG_NONE;
        rpo_num[v] = seen[v] ? np - 1 - num[v] : PTX_CFG_NONE;
    }
    dom[r] = r;
    bool changed = true;
    while (changed) {
        changed = false;
        for (uint32_t k = np; k-- > 0;) { /* reverse postorder */
            uint32_t v = post[k];
            if (v == r) continue;
            uint32_t nd = PTX_CFG_NONE;
            for (uint32_t j = 0; j < in[v].n; j++) {
                uint32_t p = in[v].v[j];
                if (p >= n || !seen[p] || dom[p] == PTX_CFG_NONE) continue;
                nd = (nd == PTX_CFG_NONE) ? p : intersect(dom, num, p, nd);
            }
            if (nd != dom[v]) {
                dom[v] = nd;
                changed = true;
            }
        }
    }
    free(post), free(num), free(stack), free(it), free(seen);
    return 0;
}

ptx_cfg_t *ptx_cfg_build(const ptx_module_t *m, const ptx_func_t *f, ptx_err_t *err)
{
    ptx_cfg_t *g = calloc(1, sizeof *g);
    if (g == NULL) goto oom;
    g->m = m;
    g->f = f;
    uint32_t ni = f->ninsns;
    g->insn_block = malloc(((size_t)ni + 1) * sizeof *g->insn_block);
    g->insn_pos = malloc(((size_t)ni + 1) * sizeof *g->insn_pos);
    g->order = malloc(((size_t)ni + 1) * sizeof *g->order);
    g->label_block = malloc(((size_t)f->nlabels + 1) * sizeof *g->label_block);
    if (!g->insn_block || !g->insn_pos || !g->order || !g->label_block) goto oom;
    for (uint32_t i = 0; i < ni; i++) g->insn_block[i] = g->insn_pos[i] = PTX_CFG_NONE;
    for (uint32_t l = 0; l < f->nlabels; l++) g->label_block[l] = PTX_CFG_NONE;

    /* Which labels are branch targets. */
    bool *target = calloc((size_t)f->nlabels + 1, sizeof *target);
    if (target == NULL) goto oom;
    for (uint32_t s = 0; s < f->nstmts; s++) {
        if (f->stmts[s].kind != PTX_ST_INSN) continue;
        const ptx_insn_t *in = &f->insns[f->stmts[s].index];
        if (in->opc == PTX_OPC_BRX) {
            cfg_err(m, in->pos, err, "brx.idx (an indirect branch) is not supported by the analysis");
            free(target);
            ptx_cfg_free(g);
            return NULL;
        }
        if (!is_branch(in)) continue;
        if (in->nops < 1 || in->ops[in->nops - 1].kind != PTX_OPK_LABEL) {
            cfg_err(m, in->pos, err, "expected a label as the branch target");
            free(target);
            ptx_cfg_free(g);
            return NULL;
        }
        uint32_t l = in->ops[in->nops - 1].label;
        if (l >= f->nlabels || f->labels[l].stmt == UINT32_MAX) {
            cfg_err(m, in->pos, err, "branch to a label that is not defined in this function");
            free(target);
            ptx_cfg_free(g);
            return NULL;
        }
        target[l] = true;
    }

    /* Cut blocks in statement order. pending_labels: labels seen since the last instruction. */
    u32vec_t blocks_first = {0}; /* start index into g->order per block */
    u32vec_t pend = {0};
    bool cut = true; /* the next instruction starts a block */
    uint32_t no = 0;
    for (uint32_t s = 0; s < f->nstmts; s++) {
        const ptx_stmt_t *st = &f->stmts[s];
        if (st->kind == PTX_ST_LABEL) {
            if (st->index < f->nlabels && target[st->index]) cut = true;
            if (vec_push(&pend, st->index)) goto oom2;
            continue;
        }
        if (st->kind != PTX_ST_INSN) continue;
        uint32_t id = st->index;
        if (id >= ni || g->insn_pos[id] != PTX_CFG_NONE) {
            cfg_err(m, st->pos, err, "internal: instruction statement out of range or repeated");
            free(target), free(blocks_first.v), free(pend.v);
            ptx_cfg_free(g);
            return NULL;
        }
        if (cut || blocks_first.n == 0) {
            if (vec_push(&blocks_first, no)) goto oom2;
            cut = false;
        }
        uint32_t b = blocks_first.n - 1;
        for (uint32_t k = 0; k < pend.n; k++) g->label_block[pend.v[k]] = b;
        pend.n = 0;
        g->order[no] = id;
        g->insn_pos[id] = no;
        g->insn_block[id] = b;
        no++;
        const ptx_insn_t *in = &f->insns[id];
        if (is_branch(in) || is_exit(in)) cut = true;
    }
    if (blocks_first.n == 0 && vec_push(&blocks_first, 0)) goto oom2;
    /* Labels after the last instruction: they belong to no block; a branch to them goes to EXIT. */
    g->ninsns_body = no;
    uint32_t nb = blocks_first.n;
    g->nblocks = nb;
    g->blocks = calloc(nb, sizeof *g->blocks);
    if (g->blocks == NULL) goto oom2;
    uint32_t exit_id = nb;

    /* Successor and predecessor lists (EXIT kept out of pred lists). */
    u32vec_t *succ = calloc((size_t)nb + 1, sizeof *succ);
    u32vec_t *pred = calloc((size_t)nb + 1, sizeof *pred);
    if (!succ || !pred) {
        free(succ), free(pred);
        goto oom2;
    }
    for (uint32_t b = 0; b < nb; b++) {
        uint32_t lo = blocks_first.v[b];
        uint32_t hi = (b + 1 < nb) ? blocks_first.v[b + 1] : no;
        ptx_block_t *bl = &g->blocks[b];
        bl->ninsns = hi - lo;
        bl->insns = malloc(((size_t)bl->ninsns + 1) * sizeof *bl->insns);
        if (bl->insns == NULL) goto oom3;
        memcpy(bl->insns, g->order + lo, (size_t)bl->ninsns * sizeof *bl->insns);
        bool falls = true;
        if (bl->ninsns) {
            const ptx_insn_t *last = &f->insns[bl->insns[bl->ninsns - 1]];
            bool guarded = last->guard != PTX_NOREG;
            if (is_branch(last)) {
                uint32_t l = last->ops[last->nops - 1].label;
                uint32_t t = g->label_block[l];
                if (t == PTX_CFG_NONE) t = exit_id;
                if (vec_push(&succ[b], t)) goto oom3;
                falls = guarded;
            } else if (is_exit(last)) {
                if (vec_push(&succ[b], exit_id)) goto oom3;
                falls = guarded;
            }
        }
        if (falls) {
            uint32_t t = (b + 1 < nb) ? b + 1 : exit_id;
            bool dup = false;
            for (uint32_t k = 0; k < succ[b].n; k++) dup |= succ[b].v[k] == t;
            if (!dup && vec_push(&succ[b], t)) goto oom3;
        }
    }
    /* Reverse edges for the post-dominator computation, with EXIT as node nb. */
    u32vec_t *rsucc = calloc((size_t)nb + 1, sizeof *rsucc); /* reversed graph: successors = preds */
    u32vec_t *rpred = calloc((size_t)nb + 1, sizeof *rpred);
    if (!rsucc || !rpred) {
        free(rsucc), free(rpred);
        goto oom3;
    }
    for (uint32_t b = 0; b < nb; b++)
        for (uint32_t k = 0; k < succ[b].n; k++) {
            uint32_t t = succ[b].v[k];
            if (t != exit_id && vec_push(&pred[t], b)) goto oom4;
            if (vec_push(&rsucc[t], b)) goto oom4;
            if (vec_push(&rpred[b], t)) goto oom4;
        }

    /* Dominators from the entry over nb nodes (EXIT excluded). */
    uint32_t *dom = malloc(((size_t)nb + 1) * sizeof *dom);
    uint32_t *rpo = malloc(((size_t)nb + 1) * sizeof *rpo);
    uint32_t *pdom = malloc(((size_t)nb + 1) * sizeof *pdom);
    uint32_t *prpo = malloc(((size_t)nb + 1) * sizeof *prpo);
    if (!dom || !rpo || !pdom || !prpo) goto oom5;
    if (dominators(nb, 0, succ, pred, dom, rpo)) goto oom5;
    /* Post-dominators: blocks that cannot reach EXIT get an artificial edge to it. Found by a reverse
     * search from EXIT; repeat until every block is reached (adding the edge to the block that comes
     * last in statement order among the unreached, so that an infinite loop's exit is its bottom). */
    for (;;) {
        if (dominators(nb + 1, exit_id, rsucc, rpred, pdom, prpo)) goto oom5;
        uint32_t miss = PTX_CFG_NONE;
        for (uint32_t b = nb; b-- > 0;)
            if (prpo[b] == PTX_CFG_NONE) {
                miss = b;
                break;
            }
        if (miss == PTX_CFG_NONE) break;
        g->blocks[miss].exit_edge_added = true;
        if (vec_push(&rsucc[exit_id], miss) || vec_push(&rpred[miss], exit_id)) goto oom5;
    }
    for (uint32_t b = 0; b < nb; b++) {
        ptx_block_t *bl = &g->blocks[b];
        bl->idom = dom[b];
        bl->rpo = rpo[b];
        bl->ipdom = pdom[b];
        bl->succ = succ[b].v, bl->nsucc = succ[b].n, succ[b].v = NULL;
        bl->pred = pred[b].v, bl->npred = pred[b].n, pred[b].v = NULL;
    }
    /* Loop depth: for every back edge t -> h with h dominating t, the natural loop's blocks (reverse
     * search from t that stops at h) each get one more level. */
    for (uint32_t t = 0; t < nb; t++) {
        ptx_block_t *bt = &g->blocks[t];
        for (uint32_t k = 0; k < bt->nsucc; k++) {
            uint32_t h = bt->succ[k];
            if (h == exit_id || !ptx_cfg_dominates(g, h, t)) continue;
            bool *in_loop = calloc(nb, sizeof *in_loop);
            uint32_t *work = malloc(((size_t)nb + 1) * sizeof *work);
            if (!in_loop || !work) {
                free(in_loop), free(work);
                goto oom5;
            }
            uint32_t wn = 0;
            in_loop[h] = true;
            if (!in_loop[t]) in_loop[t] = true, work[wn++] = t;
            while (wn) {
                uint32_t v = work[--wn];
                for (uint32_t j = 0; j < g->blocks[v].npred; j++) {
                    uint32_t p = g->blocks[v].pred[j];
                    if (!in_loop[p]) in_loop[p] = true, work[wn++] = p;
                }
            }
            for (uint32_t v = 0; v < nb; v++) g->blocks[v].loop_depth += in_loop[v];
            free(in_loop), free(work);
        }
    }
    free(dom), free(rpo), free(pdom), free(prpo);
    for (uint32_t b = 0; b <= nb; b++) free(succ[b].v), free(pred[b].v), free(rsucc[b].v), free(rpred[b].v);
    free(succ), free(pred), free(rsucc), free(rpred);
    free(target), free(blocks_first.v), free(pend.v);
    return g;

oom5:
    free(dom), free(rpo), free(pdom), free(prpo);
oom4:
    for (uint32_t b = 0; b <= nb; b++) free(rsucc[b].v), free(rpred[b].v);
    free(rsucc), free(rpred);
oom3:
    for (uint32_t b = 0; b <= nb; b++) free(succ[b].v), free(pred[b].v);
    free(succ), free(pred);
oom2:
    free(target), free(blocks_first.v), free(pend.v);
oom:
    cfg_err(m, (ptx_pos_t){0, 0}, err, "out of memory building the control-flow graph");
    ptx_cfg_free(g);
    return NULL;
}

bool ptx_cfg_dominates(const ptx_cfg_t *g, uint32_t a, uint32_t b)
{
    if (a >= g->nblocks || b >= g->nblocks) return false;
    if (g->blocks[a].rpo == PTX_CFG_NONE || g->blocks[b].rpo == PTX_CFG_NONE) return false;
    for (;;) {
        if (a == b) return true;
        uint32_t d = g->blocks[b].idom;
        if (d == b || d == PTX_CFG_NONE) return false;
        b = d;
    }
}

bool ptx_cfg_postdominates(const ptx_cfg_t *g, uint32_t a, uint32_t b)
{
    if (a == g->nblocks) return true;
    if (a > g->nblocks || b >= g->nblocks) return false;
    for (;;) {
        if (a == b) return true;
        if (b == g->nblocks) return false;
        b = g->blocks[b].ipdom;
    }
}

bool ptx_cfg_in_cycle(const ptx_cfg_t *g, uint32_t b)
{
    if (b >= g->nblocks) return false;
    /* Search forward from b's successors for b. */
    bool *seen = calloc(g->nblocks, sizeof *seen);
    uint32_t *work = malloc(((size_t)g->nblocks + 1) * sizeof *work);
    bool found = false;
    if (seen && work) {
        uint32_t wn = 0;
        for (uint32_t k = 0; k < g->blocks[b].nsucc; k++) {
            uint32_t s = g->blocks[b].succ[k];
            if (s < g->nblocks && !seen[s]) seen[s] = true, work[wn++] = s;
        }
        while (wn && !found) {
            uint32_t v = work[--wn];
            if (v == b) found = true;
            for (uint32_t k = 0; k < g->blocks[v].nsucc; k++) {
                uint32_t s = g->blocks[v].succ[k];
                if (s < g->nblocks && !seen[s]) seen[s] = true, work[wn++] = s;
            }
        }
    } else {
        found = true; /* out of memory: the conservative answer (LOADMETA stays after each definition) */
    }
    free(seen), free(work);
    return found;
}

int ptx_cfg_dot(const ptx_cfg_t *g, FILE *out)
{
    const ptx_module_t *m = g->m;
    const ptx_func_t *f = g->f;
    fprintf(out, "digraph \"%s\" {\n  node [shape=box, fontname=monospace];\n", ptx_sym_name(m, f->sym));
    char buf[512];
    for (uint32_t b = 0; b < g->nblocks; b++) {
        const ptx_block_t *bl = &g->blocks[b];
        fprintf(out, "  b%u [label=\"B%u (depth %u)\\l", b, b, bl->loop_depth);
        for (uint32_t k = 0; k < bl->ninsns; k++) {
            ptx_format_insn(m, f, &f->insns[bl->insns[k]], buf, sizeof buf);
            for (const char *c = buf; *c; c++) {
                if (*c == '"' || *c == '\\' || *c == '{' || *c == '}' || *c == '<' || *c == '>' || *c == '|')
                    fputc('\\', out);
                fputc(*c, out);
            }
            fputs("\\l", out);
        }
        fputs("\"];\n", out);
        for (uint32_t k = 0; k < bl->nsucc; k++) {
            if (bl->succ[k] == g->nblocks)
                fprintf(out, "  b%u -> exit;\n", b);
            else
                fprintf(out, "  b%u -> b%u;\n", b, bl->succ[k]);
        }
        if (bl->idom != PTX_CFG_NONE && bl->idom != b)
            fprintf(out, "  b%u -> b%u [style=dashed, color=blue, constraint=false];\n", bl->idom, b);
        if (bl->ipdom == g->nblocks)
            fprintf(out, "  b%u -> exit [style=dotted, color=red, constraint=false];\n", b);
        else
            fprintf(out, "  b%u -> b%u [style=dotted, color=red, constraint=false];\n", b, bl->ipdom);
    }
    fputs("  exit [label=\"EXIT\", shape=ellipse];\n}\n", out);
    return ferror(out) ? -1 : 0;
}
