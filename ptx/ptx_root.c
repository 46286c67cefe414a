/*
 * ptx_root.c — the root-pointer analysis (ptx_root.h; the rules R1–R9 are docs/compiler.md §3).
 *
 * Value nodes. Every (instruction, destination register) pair is a definition node; every register
 * also has an ENTRY node (its undefined value at function entry). Edges run from a node to the
 * reaching definitions of the operands it is derived from. Each definition is decided once per
 * mode (G: global pointers, S: shared addresses) into: a source (a root of R3 / a shared variable),
 * a copy, pointer arithmetic, a select, or a stop. Whether an operand "carries a pointer" (R4) is
 * graph reachability from it to a source, memoised; slices are depth-first searches with a visited
 * stamp per node, so cycles (loop-carried pointers) end and nothing is reset between accesses.
 */
#include "ptx_root.h"

#include "ptx_cfg.h"
#include "ptx_reach.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* Decisions for a definition node (R2-R5). */
enum {
    D_UNKNOWN = 0,
    D_SRC_PARAM,  /* G */
    D_SRC_VAR,    /* G: any variable; S: a shared variable */
    D_SRC_LOAD,   /* G */
    D_SRC_CALL,   /* G */
    D_COPY,       /* follow ops[0], no arithmetic */
    D_ARITH,      /* follow ops[0..n) as pointer arithmetic */
    D_SELECT,     /* follow ops[0], ops[1] (selp values), pred */
    D_STOP        /* the value is opaque: an intermediate root (G) / unresolved (S) */
};

typedef struct {
    uint8_t rkind;  /* D_*: the raw decision (D_ARITH keeps every candidate operand) */
    uint8_t nraw;
    uint8_t raw[2]; /* candidate operand indices (the edges of R4's carry question) */
    bool decided;
    uint8_t kind;   /* D_*: the final decision (D_ARITH narrowed to the followed operands, or D_STOP) */
    uint8_t nops;
    uint8_t ops[2]; /* followed operand indices */
    uint32_t sym;   /* SRC_PARAM, SRC_VAR */
    int64_t val;    /* SRC_PARAM offset */
} dec_t;

typedef struct {
    uint32_t *v;
    uint32_t n, cap;
} vec_t;

typedef struct {
    const ptx_module_t *m;
    const ptx_func_t *f;
    uint32_t fidx;
    ptx_cfg_t *g;
    ptx_reach_t *rd;
    ptx_err_t *err;
    bool oom;

    uint32_t nregs, ndefs, nnodes; /* nodes: defs [0, ndefs), ENTRY of reg r at ndefs + r */
    uint32_t *dbase;               /* per register: first def node */
    uint32_t *node_insn, *node_reg;
    dec_t *dec[2];                 /* per node, per mode (0: G, 1: S) */
    uint8_t *carry[2];             /* per node: 0 unknown, 1 no, 2 yes */
    uint32_t *stamp;               /* slice visits: 2 per node (without / with arithmetic passed) */
    uint32_t cur_stamp;
    uint32_t *cstamp;              /* carry searches (they run inside slices): 1 per node */
    uint32_t cur_cstamp;
    uint8_t *cycle;                /* per block: 0 unknown, 1 no, 2 yes */

    /* Results being built. */
    ptx_root_func_t *out;
    uint32_t cap_acc, cap_roots, cap_ar, cap_md;
    uint32_t *root_of_node;        /* instruction roots and UNDEF roots by node */
    uint8_t *on_multi;             /* per node: lies on a shadowed slice */
} ctx_t;

/* ------------------------------------------------------------------------------------------------ */

static int vpush(vec_t *a, uint32_t x)
{
    if (a->n == a->cap) {
        uint32_t nc = a->cap ? a->cap * 2 : 16;
        uint32_t *nv = realloc(a->v, (size_t)nc * sizeof *nv);
        if (nv == NULL) return -1;
        a->v = nv;
        a->cap = nc;
    }
    a->v[a->n++] = x;
    return 0;
}

static void set_err(ctx_t *c, ptx_pos_t pos, const char *fmt, ...)
{
    if (c->err == NULL) return;
    char body[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(body, sizeof body, fmt, ap);
    va_end(ap);
    const char *name = (c->m && c->m->name) ? c->m->name : "<ptx>";
    if (pos.line)
        snprintf(c->err->msg, sizeof c->err->msg, "%s:%u:%u: %s", name, pos.line, pos.col, body);
    else
        snprintf(c->err->msg, sizeof c->err->msg, "%s: %s", name, body);
    c->err->pos = pos;
}

static void set_oom(ctx_t *c)
{
    if (!c->oom) set_err(c, (ptx_pos_t){0, 0}, "out of memory in the root-pointer analysis");
    c->oom = true;
}

static const ptx_type_t *insn_types(const ptx_insn_t *in, ptx_type_t t[3], unsigned *n)
{
    *n = ptx_insn_types(in, t);
    return t;
}

static bool is_int_type(ptx_type_t t)
{
    switch (t) {
    case PTX_T_B8: case PTX_T_B16: case PTX_T_B32: case PTX_T_B64:
    case PTX_T_U8: case PTX_T_U16: case PTX_T_U32: case PTX_T_U64:
    case PTX_T_S8: case PTX_T_S16: case PTX_T_S32: case PTX_T_S64:
        return true;
    default:
        return false;
    }
}

static bool is_int64(ptx_type_t t) { return is_int_type(t) && ptx_type_bytes(t) == 8; }
static bool is_int32or64(ptx_type_t t)
{
    return is_int_type(t) && (ptx_type_bytes(t) == 4 || ptx_type_bytes(t) == 8);
}

/* The last TYPE modifier: the data type of ld/st/atom/mov/add/... (cvt has two: dst then src). */
static ptx_type_t main_type(const ptx_insn_t *in)
{
    ptx_type_t t[3];
    unsigned n;
    insn_types(in, t, &n);
    return n ? t[n - 1] : PTX_T_NONE;
}

static bool reg_is_64(const ptx_func_t *f, uint32_t r)
{
    if (r >= f->nregs) return false;
    ptx_type_t t = (ptx_type_t)f->regs[r].type;
    return ptx_type_bytes(t) == 8 && t != PTX_T_F64;
}

static bool block_in_cycle(ctx_t *c, uint32_t b)
{
    if (b >= c->g->nblocks) return false;
    if (c->cycle[b] == 0) c->cycle[b] = ptx_cfg_in_cycle(c->g, b) ? 2 : 1;
    return c->cycle[b] == 2;
}

/* The definition node of (reg, insn), or UINT32_MAX. */
static uint32_t def_node(ctx_t *c, uint32_t reg, uint32_t insn)
{
    if (reg >= c->nregs) return UINT32_MAX;
    uint32_t n;
    const uint32_t *d = ptx_reach_all_defs(c->rd, reg, &n);
    uint32_t pos = c->g->insn_pos[insn];
    uint32_t lo = 0, hi = n;
    while (lo < hi) { /* execution order = ascending insn_pos */
        uint32_t mid = lo + (hi - lo) / 2;
        if (c->g->insn_pos[d[mid]] < pos) lo = mid + 1;
        else hi = mid;
    }
    if (lo < n && d[lo] == insn) return c->dbase[reg] + lo;
    return UINT32_MAX;
}

/* Reaching definition nodes of register reg just before insn, appended to out. */
static int reaching_nodes(ctx_t *c, uint32_t insn, uint32_t reg, vec_t *out)
{
    uint32_t n;
    const uint32_t *d = ptx_reach_defs(c->rd, insn, reg, &n);
    if (d == NULL && ptx_reach_failed(c->rd)) {
        set_oom(c);
        return -1;
    }
    for (uint32_t k = 0; k < n; k++) {
        uint32_t node = (d[k] == PTX_REACH_ENTRY) ? c->ndefs + reg : def_node(c, reg, d[k]);
        if (node == UINT32_MAX) continue;
        if (vpush(out, node)) {
            set_oom(c);
            return -1;
        }
    }
    return 0;
}

/* ------------------------------------------------------------------------------------------------
 * Raw decisions (before the carry question), R2 and R3 for G, R8 for S.
 */

static bool sym_is_shared(const ptx_module_t *m, uint32_t s)
{
    if (s >= m->nsyms) return false;
    ptx_space_t sp = (ptx_space_t)m->syms[s].space;
    return sp == PTX_SPACE_SHARED || sp == PTX_SPACE_SHARED_CTA;
}

/* Position of register reg in ld's destination (a VEC gives the element index), else 0. */
static unsigned dest_elem(const ptx_func_t *f, const ptx_insn_t *in, uint32_t reg)
{
    const ptx_operand_t *d = &in->ops[0];
    if (d->kind != PTX_OPK_VEC) return 0;
    for (uint32_t k = 0; k < d->count && d->first + k < f->npool; k++)
        if (f->pool[d->first + k].kind == PTX_OPK_REG && f->pool[d->first + k].reg == reg) return k;
    return 0;
}

static void raw_dec(ctx_t *c, int mode, uint32_t node, dec_t *d)
{
    memset(d, 0, sizeof *d);
    d->rkind = D_STOP;
    const ptx_module_t *m = c->m;
    const ptx_func_t *f = c->f;
    const ptx_insn_t *in = &f->insns[c->node_insn[node]];
    uint32_t reg = c->node_reg[node];
    ptx_type_t t = main_type(in);
    bool want = mode == 0 ? is_int64(t) : is_int32or64(t);
    switch (in->opc) {
    case PTX_OPC_LD:
    case PTX_OPC_LDU: {
        if (mode != 0 || !is_int64(t) || !reg_is_64(f, reg)) return;
        int ai = ptx_insn_addr_op(in);
        const ptx_operand_t *a = ai >= 0 ? &in->ops[ai] : NULL;
        if (in->opc == PTX_OPC_LD && ptx_insn_space(in) == PTX_SPACE_PARAM && a && a->base == PTX_BASE_SYM &&
            a->sym < m->nsyms) {
            const ptx_sym_t *s = &m->syms[a->sym];
            if (s->kind == PTX_SYM_PARAM) {
                d->rkind = D_SRC_PARAM;
                d->sym = a->sym;
                d->val = a->imm + 8 * (int64_t)dest_elem(f, in, reg);
                return;
            }
            if (s->kind == PTX_SYM_VAR && s->func == (int32_t)c->fidx) {
                d->rkind = D_SRC_CALL;
                d->sym = a->sym;
                return;
            }
        }
        d->rkind = D_SRC_LOAD;
        return;
    }
    case PTX_OPC_ATOM:
        if (mode == 0 && is_int64(t) && reg_is_64(f, reg)) d->rkind = D_SRC_LOAD;
        return;
    case PTX_OPC_MOV:
    case PTX_OPC_CVTA:
        if (!want || in->nops < 2) return;
        if (in->ops[1].kind == PTX_OPK_REG) {
            d->rkind = D_COPY, d->nraw = 1, d->raw[0] = 1;
        } else if (in->ops[1].kind == PTX_OPK_SYM && in->ops[1].sym < m->nsyms) {
            if (mode == 0 || sym_is_shared(m, in->ops[1].sym)) {
                d->rkind = D_SRC_VAR;
                d->sym = in->ops[1].sym;
            }
        }
        return;
    case PTX_OPC_CVT: {
        ptx_type_t ty[3];
        unsigned n;
        insn_types(in, ty, &n);
        if (n != 2 || in->nops < 2 || in->ops[1].kind != PTX_OPK_REG) return;
        bool ok = mode == 0 ? (is_int64(ty[0]) && is_int64(ty[1])) : (is_int32or64(ty[0]) && is_int32or64(ty[1]));
        if (ok) d->rkind = D_COPY, d->nraw = 1, d->raw[0] = 1;
        return;
    }
    case PTX_OPC_ADD:
        if (!want || in->nops < 3) return;
        d->rkind = D_ARITH;
        for (uint8_t k = 1; k <= 2; k++)
            if (in->ops[k].kind == PTX_OPK_REG) d->raw[d->nraw++] = k;
        return;
    case PTX_OPC_SUB:
        if (!want || in->nops < 3) return;
        d->rkind = D_ARITH;
        if (in->ops[1].kind == PTX_OPK_REG) d->raw[d->nraw++] = 1;
        return;
    case PTX_OPC_MAD: {
        /* mad.lo on the pointer's width, or mad.wide from 32-bit factors into a 64-bit result. */
        bool wide = ptx_insn_has(in, PTX_MOD_WIDE);
        bool ok = wide ? (mode == 0 ? ptx_type_bytes(t) == 4 && is_int_type(t) : is_int_type(t) && ptx_type_bytes(t) == 2)
                       : (want && ptx_insn_has(in, PTX_MOD_LO));
        if (!ok || in->nops < 4) return;
        d->rkind = D_ARITH;
        if (in->ops[3].kind == PTX_OPK_REG) d->raw[d->nraw++] = 3;
        return;
    }
    case PTX_OPC_SELP:
        if (!want || in->nops < 4) return;
        if (in->ops[1].kind == PTX_OPK_REG && in->ops[2].kind == PTX_OPK_REG && in->ops[3].kind == PTX_OPK_REG) {
            d->rkind = D_SELECT, d->nraw = 2, d->raw[0] = 1, d->raw[1] = 2;
        }
        return;
    default:
        return;
    }
}

static bool is_source(int mode, uint8_t k)
{
    if (mode == 1) return k == D_SRC_VAR;
    return k == D_SRC_PARAM || k == D_SRC_VAR || k == D_SRC_LOAD || k == D_SRC_CALL;
}

/* The raw decision of node, cached in dec[mode]. */
static const dec_t *raw(ctx_t *c, int mode, uint32_t node)
{
    dec_t *d = &c->dec[mode][node];
    if (d->rkind == D_UNKNOWN) raw_dec(c, mode, node, d);
    return d;
}

/* R4: does node reach a source along copy, arithmetic and select edges (all candidate operands)? */
static bool carries(ctx_t *c, int mode, uint32_t start)
{
    if (start >= c->ndefs) return false; /* ENTRY */
    uint8_t *memo = c->carry[mode];
    if (memo[start]) return memo[start] == 2;
    vec_t stack = {0}, seen = {0}, ops = {0};
    uint32_t st = ++c->cur_cstamp;
    bool found = false;
    if (vpush(&stack, start)) goto oom;
    c->cstamp[start] = st;
    while (stack.n && !found) {
        uint32_t v = stack.v[--stack.n];
        if (vpush(&seen, v)) goto oom;
        if (v >= c->ndefs) continue;
        if (memo[v] == 2) {
            found = true;
            break;
        }
        if (memo[v] == 1) continue;
        const dec_t *d = raw(c, mode, v);
        if (is_source(mode, d->rkind)) {
            found = true;
            break;
        }
        if (d->rkind != D_COPY && d->rkind != D_ARITH && d->rkind != D_SELECT) continue;
        const ptx_insn_t *in = &c->f->insns[c->node_insn[v]];
        for (unsigned k = 0; k < d->nraw; k++) {
            ops.n = 0;
            if (reaching_nodes(c, c->node_insn[v], in->ops[d->raw[k]].reg, &ops)) goto fail;
            for (uint32_t j = 0; j < ops.n; j++) {
                uint32_t w = ops.v[j];
                if (c->cstamp[w] == st) continue;
                c->cstamp[w] = st;
                if (vpush(&stack, w)) goto oom;
            }
        }
    }
    if (found) {
        memo[start] = 2;
    } else {
        for (uint32_t k = 0; k < seen.n; k++)
            if (seen.v[k] < c->ndefs) memo[seen.v[k]] = 1;
    }
    free(stack.v), free(seen.v), free(ops.v);
    return found;
oom:
    set_oom(c);
fail:
    free(stack.v), free(seen.v), free(ops.v);
    return false;
}

/* Does any reaching definition of operand register reg at insn carry a pointer? */
static bool operand_carries(ctx_t *c, int mode, uint32_t insn, uint32_t reg)
{
    vec_t ops = {0};
    bool r = false;
    if (reaching_nodes(c, insn, reg, &ops) == 0)
        for (uint32_t k = 0; k < ops.n && !r && !c->oom; k++) r = carries(c, mode, ops.v[k]);
    free(ops.v);
    return r;
}

/* R4's offsets: every reaching definition is a product, a shift, or a widening conversion of a
 * narrower integer (the index idioms nvcc emits). */
static bool operand_is_offset(ctx_t *c, uint32_t insn, uint32_t reg)
{
    vec_t ops = {0};
    bool all = true;
    if (reaching_nodes(c, insn, reg, &ops) != 0) {
        free(ops.v);
        return false;
    }
    for (uint32_t k = 0; k < ops.n && all; k++) {
        uint32_t v = ops.v[k];
        if (v >= c->ndefs) {
            all = false;
            break;
        }
        const ptx_insn_t *in = &c->f->insns[c->node_insn[v]];
        if (in->opc == PTX_OPC_MUL || in->opc == PTX_OPC_SHL) continue;
        if (in->opc == PTX_OPC_CVT) {
            ptx_type_t ty[3];
            unsigned n;
            insn_types(in, ty, &n);
            if (n == 2 && is_int_type(ty[0]) && is_int_type(ty[1]) && ptx_type_bytes(ty[1]) < ptx_type_bytes(ty[0]))
                continue;
        }
        all = false;
    }
    free(ops.v);
    return all && ops.n > 0;
}

/* The final decision of node in mode (R4's choice of followed operands made), cached. */
static const dec_t *decide(ctx_t *c, int mode, uint32_t node)
{
    dec_t *d = &c->dec[mode][node];
    if (d->rkind == D_UNKNOWN) raw_dec(c, mode, node, d);
    if (d->decided) return d;
    d->kind = d->rkind;
    d->nops = d->nraw;
    d->ops[0] = d->raw[0];
    d->ops[1] = d->raw[1];
    if (d->rkind == D_ARITH) {
        uint32_t insn = c->node_insn[node];
        const ptx_insn_t *in = &c->f->insns[insn];
        uint8_t keep[2];
        uint8_t nk = 0;
        for (unsigned k = 0; k < d->nraw; k++)
            if (operand_carries(c, mode, insn, in->ops[d->raw[k]].reg)) keep[nk++] = d->raw[k];
        if (nk == 0 && mode == 0) {
            /* Nothing carries a pointer: follow the one operand that is not an offset, if exactly one. */
            for (unsigned k = 0; k < d->nraw; k++)
                if (!operand_is_offset(c, insn, in->ops[d->raw[k]].reg)) keep[nk++] = d->raw[k];
            if (nk != 1) nk = 0;
        }
        if (c->oom) return d;
        if (nk == 0) {
            d->kind = D_STOP;
            d->nops = 0;
        } else {
            d->nops = nk;
            d->ops[0] = keep[0];
            if (nk > 1) d->ops[1] = keep[1];
        }
    }
    d->decided = true;
    return d;
}

/* ------------------------------------------------------------------------------------------------
 * Results.
 */

static uint32_t add_root(ctx_t *c, const ptx_root_t *r)
{
    ptx_root_func_t *o = c->out;
    if (o->nroots == c->cap_roots) {
        uint32_t nc = c->cap_roots ? c->cap_roots * 2 : 16;
        ptx_root_t *nr = realloc(o->roots, (size_t)nc * sizeof *nr);
        if (nr == NULL) {
            set_oom(c);
            return PTX_ROOT_NONE;
        }
        o->roots = nr;
        c->cap_roots = nc;
    }
    o->roots[o->nroots] = *r;
    return o->nroots++;
}

static uint32_t find_or_add_root(ctx_t *c, const ptx_root_t *r, uint32_t node)
{
    ptx_root_func_t *o = c->out;
    switch (r->kind) {
    case PTX_ROOT_PARAM:
    case PTX_ROOT_VAR:
    case PTX_ROOT_CONST:
        for (uint32_t k = 0; k < o->nroots; k++) {
            const ptx_root_t *q = &o->roots[k];
            if (q->kind == r->kind && q->sym == r->sym && q->value == r->value) return k;
        }
        return add_root(c, r);
    default: {
        uint32_t id = c->root_of_node[node];
        if (id != PTX_ROOT_NONE) return id;
        id = add_root(c, r);
        c->root_of_node[node] = id;
        return id;
    }
    }
}

static int add_acc_root(ctx_t *c, uint32_t root, uint8_t cls)
{
    ptx_root_func_t *o = c->out;
    if (o->nacc_roots == c->cap_ar) {
        uint32_t nc = c->cap_ar ? c->cap_ar * 2 : 32;
        uint32_t *a = realloc(o->acc_roots, (size_t)nc * sizeof *a);
        if (a) o->acc_roots = a;
        uint8_t *b = realloc(o->acc_root_cls, (size_t)nc * sizeof *b);
        if (b) o->acc_root_cls = b;
        if (!a || !b) {
            set_oom(c);
            return -1;
        }
        c->cap_ar = nc;
    }
    o->acc_roots[o->nacc_roots] = root;
    o->acc_root_cls[o->nacc_roots++] = cls;
    return 0;
}

static ptx_access_t *new_access(ctx_t *c)
{
    ptx_root_func_t *o = c->out;
    if (o->nacc == c->cap_acc) {
        uint32_t nc = c->cap_acc ? c->cap_acc * 2 : 16;
        ptx_access_t *na = realloc(o->acc, (size_t)nc * sizeof *na);
        if (na == NULL) {
            set_oom(c);
            return NULL;
        }
        o->acc = na;
        c->cap_acc = nc;
    }
    ptx_access_t *a = &o->acc[o->nacc++];
    memset(a, 0, sizeof *a);
    a->svar = PTX_NOSYM;
    return a;
}

static int add_mdop(ctx_t *c, const ptx_mdop_t *op)
{
    ptx_root_func_t *o = c->out;
    if (o->nmdops == c->cap_md) {
        uint32_t nc = c->cap_md ? c->cap_md * 2 : 16;
        ptx_mdop_t *n = realloc(o->mdops, (size_t)nc * sizeof *n);
        if (n == NULL) {
            set_oom(c);
            return -1;
        }
        o->mdops = n;
        c->cap_md = nc;
    }
    o->mdops[o->nmdops++] = *op;
    return 0;
}

/* The root a source or stop node stands for (G). */
static uint32_t root_for_node(ctx_t *c, uint32_t node, const dec_t *d)
{
    ptx_root_t r;
    memset(&r, 0, sizeof r);
    r.insn = PTX_ROOT_NONE;
    r.reg = PTX_NOREG;
    r.sym = PTX_NOSYM;
    if (node >= c->ndefs) {
        r.kind = PTX_ROOT_UNDEF;
        r.reg = node - c->ndefs;
        return find_or_add_root(c, &r, node);
    }
    uint32_t insn = c->node_insn[node];
    const ptx_insn_t *in = &c->f->insns[insn];
    switch (d->kind) {
    case D_SRC_PARAM:
        r.kind = PTX_ROOT_PARAM, r.sym = d->sym, r.value = d->val;
        return find_or_add_root(c, &r, node);
    case D_SRC_VAR:
        r.kind = PTX_ROOT_VAR, r.sym = d->sym;
        return find_or_add_root(c, &r, node);
    default:
        break;
    }
    r.kind = d->kind == D_SRC_LOAD ? PTX_ROOT_LOAD : d->kind == D_SRC_CALL ? PTX_ROOT_CALL : PTX_ROOT_INTER;
    r.insn = insn;
    r.reg = c->node_reg[node];
    r.guarded = in->guard != PTX_NOREG;
    r.in_cycle = block_in_cycle(c, c->g->insn_block[insn]);
    if (r.kind == PTX_ROOT_CALL) {
        /* The callee: the call in this function whose return list names the parameter read. */
        for (uint32_t s = 0; s < c->f->nstmts && r.sym == PTX_NOSYM; s++) {
            if (c->f->stmts[s].kind != PTX_ST_INSN) continue;
            const ptx_insn_t *ci = &c->f->insns[c->f->stmts[s].index];
            if (ci->opc != PTX_OPC_CALL || ci->nops < 2 || ci->ops[0].kind != PTX_OPK_LIST) continue;
            for (uint32_t k = 0; k < ci->ops[0].count && ci->ops[0].first + k < c->f->npool; k++) {
                const ptx_operand_t *e = &c->f->pool[ci->ops[0].first + k];
                if (e->kind == PTX_OPK_SYM && e->sym == d->sym && ci->ops[1].kind == PTX_OPK_SYM) r.sym = ci->ops[1].sym;
            }
        }
    }
    return find_or_add_root(c, &r, node);
}

/* ------------------------------------------------------------------------------------------------
 * Slices.
 */

typedef struct {
    uint32_t root;
    uint8_t cls;
} rc_t;

/* R5/R6: the G slice of the access at insn with address operand a. Appends (root, class) pairs
 * (unique roots, weakest class) to *rs and the definition nodes visited to *visited. */
static int slice_g(ctx_t *c, uint32_t insn, uint32_t reg, bool arith0, rc_t **rs, uint32_t *nrs, vec_t *visited)
{
    vec_t stack = {0}, ops = {0};
    uint32_t st = ++c->cur_stamp;
    ops.n = 0;
    if (reaching_nodes(c, insn, reg, &ops)) goto fail;
    for (uint32_t k = 0; k < ops.n; k++) {
        uint32_t key = 2 * ops.v[k] + (arith0 ? 1u : 0u);
        if (c->stamp[key] == st) continue;
        c->stamp[key] = st;
        if (vpush(&stack, key)) goto oom;
    }
    while (stack.n) {
        uint32_t key = stack.v[--stack.n];
        uint32_t node = key / 2;
        bool arith = key & 1u;
        if (vpush(visited, node)) goto oom;
        const dec_t *d = NULL;
        uint8_t cls;
        if (node < c->ndefs) {
            d = decide(c, 0, node);
            if (c->oom) goto fail;
        }
        if (d && (d->kind == D_COPY || d->kind == D_ARITH || d->kind == D_SELECT)) {
            const ptx_insn_t *in = &c->f->insns[c->node_insn[node]];
            bool na = arith || d->kind == D_ARITH;
            for (unsigned k = 0; k < d->nops; k++) {
                ops.n = 0;
                if (reaching_nodes(c, c->node_insn[node], in->ops[d->ops[k]].reg, &ops)) goto fail;
                for (uint32_t j = 0; j < ops.n; j++) {
                    uint32_t nk = 2 * ops.v[j] + (na ? 1u : 0u);
                    if (c->stamp[nk] == st) continue;
                    c->stamp[nk] = st;
                    if (vpush(&stack, nk)) goto oom;
                }
            }
            continue;
        }
        if (d && is_source(0, d->kind)) cls = PTX_CLASS_FULL;
        else cls = arith ? PTX_CLASS_PARTIAL : PTX_CLASS_TAGGING;
        uint32_t root = root_for_node(c, node, d);
        if (root == PTX_ROOT_NONE) goto fail;
        bool dup = false;
        for (uint32_t k = 0; k < *nrs; k++)
            if ((*rs)[k].root == root) {
                if (cls > (*rs)[k].cls) (*rs)[k].cls = cls;
                dup = true;
            }
        if (!dup) {
            rc_t *n = realloc(*rs, ((size_t)*nrs + 1) * sizeof *n);
            if (n == NULL) goto oom;
            *rs = n;
            n[*nrs].root = root;
            n[*nrs].cls = cls;
            (*nrs)++;
        }
    }
    free(stack.v), free(ops.v);
    return 0;
oom:
    set_oom(c);
fail:
    free(stack.v), free(ops.v);
    return -1;
}

/* R8: the S slice; returns the shared variable when resolved, PTX_NOSYM otherwise. */
static int slice_s(ctx_t *c, uint32_t insn, uint32_t reg, uint32_t *var)
{
    vec_t stack = {0}, ops = {0};
    uint32_t st = ++c->cur_stamp;
    uint32_t found = PTX_NOSYM;
    bool unresolved = false;
    if (reaching_nodes(c, insn, reg, &ops)) goto fail;
    for (uint32_t k = 0; k < ops.n; k++) {
        if (c->stamp[2 * ops.v[k]] == st) continue;
        c->stamp[2 * ops.v[k]] = st;
        if (vpush(&stack, ops.v[k])) goto oom;
    }
    while (stack.n && !unresolved) {
        uint32_t node = stack.v[--stack.n];
        if (node >= c->ndefs) {
            unresolved = true;
            break;
        }
        const dec_t *d = decide(c, 1, node);
        if (c->oom) goto fail;
        if (d->kind == D_SRC_VAR) {
            if (found != PTX_NOSYM && found != d->sym) unresolved = true;
            found = d->sym;
            continue;
        }
        if (d->kind != D_COPY && d->kind != D_ARITH && d->kind != D_SELECT) {
            unresolved = true;
            break;
        }
        const ptx_insn_t *in = &c->f->insns[c->node_insn[node]];
        for (unsigned k = 0; k < d->nops; k++) {
            ops.n = 0;
            if (reaching_nodes(c, c->node_insn[node], in->ops[d->ops[k]].reg, &ops)) goto fail;
            for (uint32_t j = 0; j < ops.n; j++) {
                if (c->stamp[2 * ops.v[j]] == st) continue;
                c->stamp[2 * ops.v[j]] = st;
                if (vpush(&stack, ops.v[j])) goto oom;
            }
        }
    }
    *var = unresolved ? PTX_NOSYM : found;
    free(stack.v), free(ops.v);
    return 0;
oom:
    set_oom(c);
fail:
    free(stack.v), free(ops.v);
    return -1;
}

/* ------------------------------------------------------------------------------------------------
 * Accesses (R1).
 */

static int check_size(ctx_t *c, const ptx_insn_t *in, unsigned sz)
{
    if (sz == 1 || sz == 2 || sz == 4 || sz == 8 || sz == 16) return 0;
    char buf[160];
    ptx_format_insn(c->m, c->f, in, buf, sizeof buf);
    set_err(c, in->pos, "unsupported access size of %u bytes in '%s' (GPUArmor checks 1, 2, 4, 8 or 16 bytes: "
            "docs/spec.md §4.1)", sz, buf);
    return -1;
}

/* Entry roots are loaded at function entry (R7), so what they name must be visible there: a module
 * symbol, a parameter, or a variable among the body's leading declarations (where nvcc puts its
 * .local depot and demoted .shared variables); a register declared in the body itself, not in a
 * nested scope. 0, or -1 with the error at the access. */
static int entry_visible(ctx_t *c, const ptx_root_t *r, const ptx_insn_t *at)
{
    const ptx_func_t *f = c->f;
    if (r->kind == PTX_ROOT_UNDEF) {
        if (r->reg < f->nregs && f->regs[r->reg].scope == 0) return 0;
        set_err(c, at->pos, "the address register %s is read before any definition on some path and is "
                "declared in a nested scope, where no LOADMETA at function entry can read it",
                ptx_reg_name(c->m, f, r->reg));
        return -1;
    }
    if (r->kind != PTX_ROOT_VAR || r->sym >= c->m->nsyms) return 0;
    const ptx_sym_t *s = &c->m->syms[r->sym];
    if (s->func < 0 || s->kind == PTX_SYM_PARAM) return 0;
    for (uint32_t k = 0; k < f->nstmts; k++) {
        uint8_t kind = f->stmts[k].kind;
        if (kind == PTX_ST_INSN || kind == PTX_ST_LABEL || kind == PTX_ST_SCOPE_BEGIN) break;
        if (kind == PTX_ST_VARDECL && f->stmts[k].index == r->sym) return 0;
    }
    set_err(c, at->pos, "the root of this access is the variable '%s', declared inside the body (after its first "
            "instruction or in a nested scope): its LOADMETA belongs at function entry, where the variable is not "
            "visible (nvcc declares function-scope variables at the top of the body)", ptx_sym_name(c->m, r->sym));
    return -1;
}

static int g_access(ctx_t *c, uint32_t insn, unsigned opidx, ptx_space_t sp, unsigned size, bool store)
{
    const ptx_insn_t *in = &c->f->insns[insn];
    const ptx_operand_t *a = &in->ops[opidx];
    rc_t *rs = NULL;
    uint32_t nrs = 0;
    vec_t visited = {0};
    if (a->base == PTX_BASE_REG) {
        if (!reg_is_64(c->f, a->reg)) {
            char buf[160];
            ptx_format_insn(c->m, c->f, in, buf, sizeof buf);
            set_err(c, in->pos, "a global or generic access needs a 64-bit address register, got '%s' in '%s'",
                    ptx_reg_name(c->m, c->f, a->reg), buf);
            return -1;
        }
        if (slice_g(c, insn, a->reg, a->imm != 0, &rs, &nrs, &visited)) goto fail;
    } else {
        ptx_root_t r;
        memset(&r, 0, sizeof r);
        r.insn = PTX_ROOT_NONE, r.reg = PTX_NOREG, r.sym = PTX_NOSYM;
        uint8_t cls;
        if (a->base == PTX_BASE_SYM) {
            r.kind = PTX_ROOT_VAR, r.sym = a->sym, cls = PTX_CLASS_FULL;
        } else {
            r.kind = PTX_ROOT_CONST, r.value = a->imm, cls = PTX_CLASS_TAGGING;
        }
        uint32_t id = find_or_add_root(c, &r, 0);
        if (id == PTX_ROOT_NONE) goto fail;
        rs = malloc(sizeof *rs);
        if (rs == NULL) goto oom;
        rs[0].root = id, rs[0].cls = cls, nrs = 1;
    }
    for (uint32_t k = 0; k < nrs; k++)
        if (entry_visible(c, &c->out->roots[rs[k].root], in)) goto fail;
    ptx_access_t *acc = new_access(c);
    if (acc == NULL) goto fail;
    acc->insn = insn, acc->check = PTX_CHECK_G, acc->opidx = (uint8_t)opidx, acc->space = (uint8_t)sp;
    acc->size = (uint8_t)size, acc->store = store;
    acc->root_first = c->out->nacc_roots, acc->nroots = nrs;
    acc->cls = PTX_CLASS_FULL;
    for (uint32_t k = 0; k < nrs; k++) {
        if (add_acc_root(c, rs[k].root, rs[k].cls)) goto fail;
        if (rs[k].cls > acc->cls) acc->cls = rs[k].cls;
    }
    /* R7: one root that runs at most once per invocation is used directly; anything else is
     * carried in shadows along the slice. */
    const ptx_root_t *r0 = &c->out->roots[rs[0].root];
    bool instr_root = r0->kind >= PTX_ROOT_LOAD;
    acc->shadowed = nrs > 1 || (instr_root && r0->in_cycle);
    if (!acc->shadowed) {
        c->out->roots[rs[0].root].direct = true;
    } else {
        for (uint32_t k = 0; k < nrs; k++) c->out->roots[rs[k].root].shadowed = true;
        for (uint32_t k = 0; k < visited.n; k++) c->on_multi[visited.v[k]] = 1;
    }
    free(rs), free(visited.v);
    return 0;
oom:
    set_oom(c);
fail:
    free(rs), free(visited.v);
    return -1;
}

static int s_access(ctx_t *c, uint32_t insn, unsigned opidx, unsigned size, bool store)
{
    const ptx_insn_t *in = &c->f->insns[insn];
    const ptx_operand_t *a = &in->ops[opidx];
    uint32_t var = PTX_NOSYM;
    if (a->base == PTX_BASE_SYM) {
        if (sym_is_shared(c->m, a->sym)) var = a->sym;
    } else if (a->base == PTX_BASE_REG) {
        if (slice_s(c, insn, a->reg, &var)) return -1;
    }
    ptx_access_t *acc = new_access(c);
    if (acc == NULL) return -1;
    acc->insn = insn, acc->check = PTX_CHECK_S, acc->opidx = (uint8_t)opidx, acc->space = PTX_SPACE_SHARED;
    acc->size = (uint8_t)size, acc->store = store;
    if (var == PTX_NOSYM) {
        acc->sres = PTX_SHARED_UNRESOLVED;
    } else {
        acc->svar = var;
        acc->sres = (c->m->syms[var].unsized || c->m->syms[var].size == 0) ? PTX_SHARED_DYNAMIC : PTX_SHARED_STATIC;
    }
    return 0;
}

static int scan_insn(ctx_t *c, uint32_t insn)
{
    const ptx_insn_t *in = &c->f->insns[insn];
    ptx_root_func_t *o = c->out;
    switch (in->opc) {
    case PTX_OPC_LD:
    case PTX_OPC_LDU:
    case PTX_OPC_ST:
    case PTX_OPC_ATOM:
    case PTX_OPC_RED: {
        int ai = ptx_insn_addr_op(in);
        if (ai < 0) return 0;
        ptx_space_t sp = ptx_insn_space(in);
        bool store = in->opc == PTX_OPC_ST || in->opc == PTX_OPC_ATOM || in->opc == PTX_OPC_RED;
        switch (sp) {
        case PTX_SPACE_GLOBAL:
        case PTX_SPACE_NONE: {
            unsigned sz = ptx_insn_access_bytes(in);
            if (check_size(c, in, sz)) return -1;
            return g_access(c, insn, (unsigned)ai, sp, sz, store);
        }
        case PTX_SPACE_SHARED:
        case PTX_SPACE_SHARED_CTA: {
            unsigned sz = ptx_insn_access_bytes(in);
            if (check_size(c, in, sz)) return -1;
            return s_access(c, insn, (unsigned)ai, sz, store);
        }
        case PTX_SPACE_LOCAL: o->unchecked[PTX_UNCHK_LOCAL]++; return 0;
        case PTX_SPACE_PARAM: o->unchecked[PTX_UNCHK_PARAM]++; return 0;
        case PTX_SPACE_CONST: o->unchecked[PTX_UNCHK_CONST]++; return 0;
        default: o->unchecked[PTX_UNCHK_OTHER]++; return 0;
        }
    }
    case PTX_OPC_CP: {
        if (!ptx_insn_has(in, PTX_MOD_ASYNC) || ptx_insn_has(in, PTX_MOD_COMMIT_GROUP) ||
            ptx_insn_has(in, PTX_MOD_WAIT_GROUP) || ptx_insn_has(in, PTX_MOD_WAIT_ALL))
            return 0;
        /* cp.async.{ca,cg}.shared.global [dst], [src], cp-size ...: the global source is read, the
         * shared destination written. */
        if (in->nops < 3 || in->ops[0].kind != PTX_OPK_ADDR || in->ops[1].kind != PTX_OPK_ADDR ||
            in->ops[2].kind != PTX_OPK_IMM) {
            set_err(c, in->pos, "expected 'cp.async [shared], [global], size' with an immediate size");
            return -1;
        }
        unsigned sz = in->ops[2].imm > 0 && in->ops[2].imm <= 16 ? (unsigned)in->ops[2].imm : 0;
        if (check_size(c, in, sz)) return -1;
        if (g_access(c, insn, 1, PTX_SPACE_GLOBAL, sz, false)) return -1;
        return s_access(c, insn, 0, sz, true);
    }
    case PTX_OPC_PREFETCH:
    case PTX_OPC_PREFETCHU:
        o->unchecked[PTX_UNCHK_PREFETCH]++;
        return 0;
    case PTX_OPC_LDMATRIX: case PTX_OPC_WMMA: case PTX_OPC_MBARRIER: case PTX_OPC_TEX: case PTX_OPC_TLD4:
    case PTX_OPC_SULD: case PTX_OPC_SUST: case PTX_OPC_SURED:
        o->unchecked[PTX_UNCHK_OTHER]++;
        return 0;
    default:
        return 0;
    }
}

/* ------------------------------------------------------------------------------------------------
 * Ordering, shadows and metadata operations (R7).
 */

static int param_index(const ptx_func_t *f, uint32_t sym)
{
    for (uint32_t k = 0; k < f->nparams; k++)
        if (f->params[k] == sym) return (int)k;
    for (uint32_t k = 0; k < f->nrets; k++)
        if (f->rets[k] == sym) return (int)(f->nparams + k);
    return (int)(f->nparams + f->nrets);
}

static int cmp_roots(const ctx_t *c, const ptx_root_t *a, const ptx_root_t *b)
{
    bool ea = a->kind < PTX_ROOT_LOAD, eb = b->kind < PTX_ROOT_LOAD;
    if (ea != eb) return ea ? -1 : 1;
    if (ea) {
        if (a->kind != b->kind) return a->kind < b->kind ? -1 : 1;
        switch (a->kind) {
        case PTX_ROOT_PARAM: {
            int pa = param_index(c->f, a->sym), pb = param_index(c->f, b->sym);
            if (pa != pb) return pa < pb ? -1 : 1;
            return a->value < b->value ? -1 : a->value > b->value;
        }
        case PTX_ROOT_VAR: return a->sym < b->sym ? -1 : a->sym > b->sym;
        case PTX_ROOT_UNDEF: return a->reg < b->reg ? -1 : a->reg > b->reg;
        default: return a->value < b->value ? -1 : a->value > b->value;
        }
    }
    uint32_t pa = c->g->insn_pos[a->insn], pb = c->g->insn_pos[b->insn];
    if (pa != pb) return pa < pb ? -1 : 1;
    return a->reg < b->reg ? -1 : a->reg > b->reg;
}

/* Sort roots into the documented order and renumber every reference. */
static int order_roots(ctx_t *c)
{
    ptx_root_func_t *o = c->out;
    uint32_t n = o->nroots;
    if (n == 0) return 0;
    uint32_t *perm = malloc(((size_t)n + 1) * sizeof *perm);
    uint32_t *inv = malloc(((size_t)n + 1) * sizeof *inv);
    ptx_root_t *sorted = malloc(((size_t)n + 1) * sizeof *sorted);
    if (!perm || !inv || !sorted) {
        free(perm), free(inv), free(sorted);
        set_oom(c);
        return -1;
    }
    for (uint32_t k = 0; k < n; k++) perm[k] = k;
    /* Insertion sort: a stable, allocation-free order; root counts are small. */
    for (uint32_t i = 1; i < n; i++) {
        uint32_t x = perm[i];
        uint32_t j = i;
        while (j > 0 && cmp_roots(c, &o->roots[perm[j - 1]], &o->roots[x]) > 0) {
            perm[j] = perm[j - 1];
            j--;
        }
        perm[j] = x;
    }
    for (uint32_t k = 0; k < n; k++) {
        sorted[k] = o->roots[perm[k]];
        inv[perm[k]] = k;
    }
    memcpy(o->roots, sorted, (size_t)n * sizeof *sorted);
    for (uint32_t k = 0; k < o->nacc_roots; k++) o->acc_roots[k] = inv[o->acc_roots[k]];
    for (uint32_t k = 0; k < c->nnodes; k++)
        if (c->root_of_node[k] != PTX_ROOT_NONE) c->root_of_node[k] = inv[c->root_of_node[k]];
    /* Within an access, roots in root order (the report lists them so). */
    for (uint32_t a = 0; a < o->nacc; a++) {
        ptx_access_t *acc = &o->acc[a];
        if (acc->check != PTX_CHECK_G) continue;
        for (uint32_t i = 1; i < acc->nroots; i++) {
            uint32_t r = o->acc_roots[acc->root_first + i];
            uint8_t cl = o->acc_root_cls[acc->root_first + i];
            uint32_t j = i;
            while (j > 0 && o->acc_roots[acc->root_first + j - 1] > r) {
                o->acc_roots[acc->root_first + j] = o->acc_roots[acc->root_first + j - 1];
                o->acc_root_cls[acc->root_first + j] = o->acc_root_cls[acc->root_first + j - 1];
                j--;
            }
            o->acc_roots[acc->root_first + j] = r;
            o->acc_root_cls[acc->root_first + j] = cl;
        }
    }
    free(perm), free(inv), free(sorted);
    return 0;
}

bool ptx_root_writes_shadow(const ptx_root_t *r)
{
    if (r->direct) return false;
    if (r->kind == PTX_ROOT_UNDEF) return true;
    return r->kind >= PTX_ROOT_LOAD && !r->guarded;
}

static int build_shadows(ctx_t *c)
{
    ptx_root_func_t *o = c->out;
    o->shadow = malloc(((size_t)c->nregs + 1) * sizeof *o->shadow);
    if (o->shadow == NULL) {
        set_oom(c);
        return -1;
    }
    for (uint32_t r = 0; r < c->nregs; r++) o->shadow[r] = PTX_ROOT_NONE;
    bool *has = calloc((size_t)c->nregs + 1, sizeof *has);
    if (has == NULL) {
        set_oom(c);
        return -1;
    }
    for (uint32_t v = 0; v < c->nnodes; v++)
        if (c->on_multi[v]) has[c->node_reg[v]] = true;
    for (uint32_t r = 0; r < c->nregs; r++)
        if (has[r]) o->shadow[r] = o->nshadows++;
    free(has);

    /* Entry: UNDEF roots on shadowed slices whose LOADMETA has its own location. */
    for (uint32_t r = 0; r < c->nregs; r++) {
        uint32_t v = c->ndefs + r;
        if (!c->on_multi[v]) continue;
        uint32_t root = c->root_of_node[v];
        if (root == PTX_ROOT_NONE || ptx_root_writes_shadow(&o->roots[root])) continue;
        ptx_mdop_t op;
        memset(&op, 0, sizeof op); /* padding too: results compare with memcmp */
        op.insn = PTX_ROOT_NONE, op.dst = r, op.kind = PTX_MD_ROOT, op.root = root;
        op.a = op.b = op.pred = PTX_NOREG;
        if (add_mdop(c, &op)) return -1;
    }
    /* After each definition on a shadowed slice, in statement order then register order. */
    for (uint32_t k = 0; k < c->g->ninsns_body; k++) {
        uint32_t insn = c->g->order[k];
        const ptx_insn_t *in = &c->f->insns[insn];
        uint32_t defs[8];
        unsigned nd = ptx_insn_defs(in, c->f, defs, 8);
        for (unsigned j = 0; j < nd; j++) {
            bool again = false;
            for (unsigned i = 0; i < j; i++) again |= defs[i] == defs[j];
            if (again) continue;
            uint32_t v = def_node(c, defs[j], insn);
            if (v == UINT32_MAX || !c->on_multi[v]) continue;
            const dec_t *d = decide(c, 0, v);
            ptx_mdop_t op;
            memset(&op, 0, sizeof op);
            op.insn = insn, op.dst = defs[j], op.kind = PTX_MD_ROOT, op.root = PTX_ROOT_NONE;
            op.a = op.b = op.pred = PTX_NOREG;
            if (d->kind == D_COPY || (d->kind == D_ARITH && d->nops == 1)) {
                uint32_t s = in->ops[d->ops[0]].reg;
                if (s == defs[j]) continue; /* p = p + 4: the shadow already holds it */
                op.kind = PTX_MD_COPY, op.a = s;
            } else if (d->kind == D_ARITH) {
                op.kind = PTX_MD_MAX, op.a = in->ops[d->ops[0]].reg, op.b = in->ops[d->ops[1]].reg;
            } else if (d->kind == D_SELECT) {
                op.kind = PTX_MD_SELECT, op.a = in->ops[1].reg, op.b = in->ops[2].reg, op.pred = in->ops[3].reg;
                if (in->ops[3].neg) op.a = in->ops[2].reg, op.b = in->ops[1].reg;
            } else {
                uint32_t root = (d->kind == D_SRC_PARAM || d->kind == D_SRC_VAR) ? root_for_node(c, v, d)
                                                                                : c->root_of_node[v];
                if (root == PTX_ROOT_NONE) {
                    set_err(c, in->pos, "internal: a definition on a shadowed slice has no root");
                    return -1;
                }
                if (ptx_root_writes_shadow(&o->roots[root])) continue;
                op.root = root;
            }
            if (add_mdop(c, &op)) return -1;
        }
    }
    return 0;
}

/* ------------------------------------------------------------------------------------------------ */

int ptx_root_analyze(const ptx_module_t *m, uint32_t fidx, ptx_root_func_t *out, ptx_err_t *err)
{
    memset(out, 0, sizeof *out);
    ctx_t c;
    memset(&c, 0, sizeof c);
    c.m = m;
    c.err = err;
    if (fidx >= m->nfuncs || !m->funcs[fidx].defined) {
        set_err(&c, (ptx_pos_t){0, 0}, "internal: function %u is not defined", fidx);
        return -1;
    }
    c.f = &m->funcs[fidx];
    c.fidx = fidx;
    c.out = out;
    out->m = m;
    out->f = c.f;
    out->fidx = fidx;
    int rc = -1;
    c.g = ptx_cfg_build(m, c.f, err);
    if (c.g == NULL) return -1;
    c.rd = ptx_reach_build(c.g, err);
    if (c.rd == NULL) goto done;
    c.nregs = c.f->nregs;
    c.dbase = malloc(((size_t)c.nregs + 1) * sizeof *c.dbase);
    if (c.dbase == NULL) goto oom;
    uint32_t nd = 0;
    for (uint32_t r = 0; r < c.nregs; r++) {
        uint32_t n;
        ptx_reach_all_defs(c.rd, r, &n);
        c.dbase[r] = nd;
        nd += n;
    }
    c.ndefs = nd;
    c.nnodes = nd + c.nregs;
    size_t nn = (size_t)c.nnodes + 1;
    c.node_insn = malloc(nn * sizeof *c.node_insn);
    c.node_reg = malloc(nn * sizeof *c.node_reg);
    c.dec[0] = calloc(nn, sizeof *c.dec[0]);
    c.dec[1] = calloc(nn, sizeof *c.dec[1]);
    c.carry[0] = calloc(nn, 1);
    c.carry[1] = calloc(nn, 1);
    c.stamp = calloc(2 * nn, sizeof *c.stamp);
    c.cstamp = calloc(nn, sizeof *c.cstamp);
    c.cycle = calloc((size_t)c.g->nblocks + 1, 1);
    c.root_of_node = malloc(nn * sizeof *c.root_of_node);
    c.on_multi = calloc(nn, 1);
    if (!c.node_insn || !c.node_reg || !c.dec[0] || !c.dec[1] || !c.carry[0] || !c.carry[1] || !c.stamp || !c.cstamp ||
        !c.cycle || !c.root_of_node || !c.on_multi)
        goto oom;
    for (uint32_t r = 0; r < c.nregs; r++) {
        uint32_t n;
        const uint32_t *d = ptx_reach_all_defs(c.rd, r, &n);
        for (uint32_t k = 0; k < n; k++) {
            c.node_insn[c.dbase[r] + k] = d[k];
            c.node_reg[c.dbase[r] + k] = r;
        }
        c.node_insn[c.ndefs + r] = PTX_ROOT_NONE;
        c.node_reg[c.ndefs + r] = r;
    }
    for (uint32_t v = 0; v < c.nnodes; v++) c.root_of_node[v] = PTX_ROOT_NONE;

    for (uint32_t s = 0; s < c.f->nstmts; s++) {
        if (c.f->stmts[s].kind != PTX_ST_INSN) continue;
        uint32_t insn = c.f->stmts[s].index;
        if (insn >= c.f->ninsns || c.g->insn_block[insn] == PTX_CFG_NONE) continue;
        if (scan_insn(&c, insn)) goto done;
        if (c.oom) goto done;
    }
    if (order_roots(&c)) goto done;
    if (build_shadows(&c)) goto done;
    rc = 0;
    goto done;
oom:
    set_oom(&c);
done:
    free(c.dbase);
    free(c.node_insn), free(c.node_reg);
    free(c.dec[0]), free(c.dec[1]);
    free(c.carry[0]), free(c.carry[1]);
    free(c.stamp), free(c.cstamp), free(c.cycle), free(c.root_of_node), free(c.on_multi);
    ptx_reach_free(c.rd);
    ptx_cfg_free(c.g);
    if (rc != 0) {
        ptx_root_func_free(out);
        memset(out, 0, sizeof *out);
    }
    return rc;
}

void ptx_root_func_free(ptx_root_func_t *a)
{
    if (a == NULL) return;
    free(a->acc);
    free(a->roots);
    free(a->acc_roots);
    free(a->acc_root_cls);
    free(a->shadow);
    free(a->mdops);
    a->acc = NULL, a->roots = NULL, a->acc_roots = NULL, a->acc_root_cls = NULL, a->shadow = NULL, a->mdops = NULL;
    a->nacc = a->nroots = a->nacc_roots = a->nshadows = a->nmdops = 0;
}

const char *ptx_root_kind_name(ptx_rootkind_t k)
{
    static const char *const n[] = {"param", "variable", "undefined", "constant", "loaded", "call", "intermediate"};
    return (unsigned)k < sizeof n / sizeof n[0] ? n[k] : "?";
}

const char *ptx_class_name(ptx_class_t c)
{
    static const char *const n[] = {"full", "partial", "tagging"};
    return (unsigned)c < 3 ? n[c] : "?";
}

const char *ptx_sres_name(ptx_sres_t s)
{
    static const char *const n[] = {"static", "dynamic", "unresolved"};
    return (unsigned)s < 3 ? n[s] : "?";
}

const char *ptx_unchk_name(ptx_unchk_t u)
{
    static const char *const n[] = {"local", "param", "const", "prefetch", "other"};
    return (unsigned)u < PTX_UNCHK_COUNT ? n[u] : "?";
}

void ptx_root_describe(const ptx_root_func_t *a, uint32_t r, char *buf, size_t cap)
{
    if (cap == 0) return;
    buf[0] = 0;
    if (a == NULL || r >= a->nroots) {
        snprintf(buf, cap, "?");
        return;
    }
    const ptx_root_t *x = &a->roots[r];
    const ptx_module_t *m = a->m;
    char ins[200];
    ins[0] = 0;
    uint32_t line = 0;
    if (x->insn != PTX_ROOT_NONE && x->insn < a->f->ninsns) {
        ptx_format_insn(m, a->f, &a->f->insns[x->insn], ins, sizeof ins);
        for (char *t = ins; *t; t++)
            if (*t == '\t') *t = ' ';
        line = a->f->insns[x->insn].pos.line;
    }
    switch ((ptx_rootkind_t)x->kind) {
    case PTX_ROOT_PARAM:
        snprintf(buf, cap, "param %s+%lld", ptx_sym_name(m, x->sym), (long long)x->value);
        break;
    case PTX_ROOT_VAR:
        snprintf(buf, cap, "variable %s (.%s)", ptx_sym_name(m, x->sym),
                 ptx_space_name((ptx_space_t)(x->sym < m->nsyms ? m->syms[x->sym].space : 0)));
        break;
    case PTX_ROOT_UNDEF:
        snprintf(buf, cap, "undefined register %s", ptx_reg_name(m, a->f, x->reg));
        break;
    case PTX_ROOT_CONST:
        snprintf(buf, cap, "constant address %lld", (long long)x->value);
        break;
    case PTX_ROOT_LOAD:
        snprintf(buf, cap, "loaded pointer %s (%s at line %u)", ptx_reg_name(m, a->f, x->reg), ins, line);
        break;
    case PTX_ROOT_CALL:
        snprintf(buf, cap, "call result %s of %s (line %u)", ptx_reg_name(m, a->f, x->reg),
                 x->sym == PTX_NOSYM ? "an indirect call" : ptx_sym_name(m, x->sym), line);
        break;
    case PTX_ROOT_INTER:
        snprintf(buf, cap, "intermediate %s (%s at line %u)", ptx_reg_name(m, a->f, x->reg), ins, line);
        break;
    }
}
