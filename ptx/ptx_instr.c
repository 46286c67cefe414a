/*
 * ptx_instr.c — the instrumentation pass and its inverse (ptx_instr.h; docs/compiler.md §4–§5).
 *
 * ptx_instrument: check the reserved names, analyse every function (ptx_root.h), import __ga_cfg and
 * the software bodies from their PTX text (ptx_garuntime.c), then rebuild each function's statement
 * list with the added statements spliced in. Added registers are first written as placeholders
 * (PH_MD/PH_A/PH_T + n) because their counts are known only at the end; the %ga_md, %ga_a and %ga_t
 * groups are then appended to the register table and every placeholder patched, so each group is one
 * parameterized declaration.
 *
 * ptx_strip: trace every rewritten address back through its MEMCHECK.G call first (so a failure
 * changes nothing), then drop the convention's statements, scopes and items.
 */
#include "ptx_instr.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#define PH_T 0x50000000u
#define PH_A 0x60000000u
#define PH_MD 0x70000000u
#define PH_MASK 0x0FFFFFFFu

static const char *const BODY_NAMES[3] = {"__ga_loadmeta", "__ga_memcheck_g", "__ga_memcheck_s"};

static void msg(ptx_err_t *err, const ptx_module_t *m, ptx_pos_t pos, const char *fmt, ...)
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

static bool has_prefix(const char *s, const char *p) { return strncmp(s, p, strlen(p)) == 0; }

void ptx_instr_result_free(ptx_instr_result_t *r)
{
    if (r == NULL) return;
    free(r->func);
    r->func = NULL;
    r->nfuncs = 0;
}

/* ------------------------------------------------------------------------------------------------
 * Operands.
 */

static ptx_operand_t op_reg(uint32_t r)
{
    ptx_operand_t o;
    memset(&o, 0, sizeof o);
    o.kind = PTX_OPK_REG;
    o.reg = r;
    return o;
}

static ptx_operand_t op_imm(int64_t v)
{
    ptx_operand_t o;
    memset(&o, 0, sizeof o);
    o.kind = PTX_OPK_IMM;
    o.imm = v;
    return o;
}

static ptx_operand_t op_sym(uint32_t s, int64_t off)
{
    ptx_operand_t o;
    memset(&o, 0, sizeof o);
    o.kind = PTX_OPK_SYM;
    o.sym = s;
    o.imm = off;
    return o;
}

static ptx_operand_t op_addr_sym(uint32_t s, int64_t off)
{
    ptx_operand_t o;
    memset(&o, 0, sizeof o);
    o.kind = PTX_OPK_ADDR;
    o.base = PTX_BASE_SYM;
    o.sym = s;
    o.imm = off;
    return o;
}

static ptx_operand_t op_addr_reg(uint32_t r, int64_t off)
{
    ptx_operand_t o;
    memset(&o, 0, sizeof o);
    o.kind = PTX_OPK_ADDR;
    o.base = PTX_BASE_REG;
    o.reg = r;
    o.imm = off;
    return o;
}

static ptx_operand_t op_sreg(ptx_sreg_t s)
{
    ptx_operand_t o;
    memset(&o, 0, sizeof o);
    o.kind = PTX_OPK_SREG;
    o.sreg = (uint8_t)s;
    return o;
}

/* ------------------------------------------------------------------------------------------------
 * The emitter: a new statement list for one function.
 */

typedef struct {
    ptx_module_t *m;
    ptx_func_t *f; /* re-fetched after anything that may move m->funcs (nothing here does) */
    uint32_t fidx;
    ptx_stmt_t *ns;
    uint32_t nns, cap;
    uint32_t nmd, na, nt;
    ptx_loc_t loc;
    bool oom;
    uint32_t s_p[4], s_r; /* interned "__ga_p0".."__ga_p3", "__ga_r" */
    uint32_t body_sym[3];
    ptx_instr_stats_t *st;
    uint32_t added;
} em_t;

static void push_stmt(em_t *e, const ptx_stmt_t *s)
{
    if (e->oom) return;
    if (e->nns == e->cap) {
        uint32_t nc = e->cap ? e->cap * 2 : 64;
        ptx_stmt_t *n = realloc(e->ns, (size_t)nc * sizeof *n);
        if (n == NULL) {
            e->oom = true;
            return;
        }
        e->ns = n;
        e->cap = nc;
    }
    e->ns[e->nns++] = *s;
}

static void push_simple(em_t *e, ptx_stkind_t kind, uint32_t index)
{
    ptx_stmt_t s;
    memset(&s, 0, sizeof s);
    s.kind = (uint8_t)kind;
    s.index = index;
    push_stmt(e, &s);
}

/* Emit one added instruction: opcode, modifiers (PTX_MOD_NONE-terminated list), operands, guard. */
static void emit(em_t *e, ptx_opcode_t opc, const ptx_mod_t *mods, unsigned nmods, const ptx_operand_t *ops,
                 unsigned nops, uint32_t guard, bool guard_neg)
{
    if (e->oom) return;
    ptx_insn_t in;
    memset(&in, 0, sizeof in);
    in.opc = opc;
    in.nmods = (uint8_t)nmods;
    for (unsigned k = 0; k < nmods; k++) in.mods[k] = (uint16_t)mods[k];
    in.nops = (uint8_t)nops;
    for (unsigned k = 0; k < nops; k++) in.ops[k] = ops[k];
    in.guard = guard;
    in.guard_neg = guard_neg ? 1 : 0;
    in.flags = PTX_IF_ADDED;
    in.loc = e->loc;
    uint32_t id = ptx_func_add_insn(e->f, &in);
    if (id == UINT32_MAX) {
        e->oom = true;
        return;
    }
    push_simple(e, PTX_ST_INSN, id);
    e->added++;
}

static void emit2(em_t *e, ptx_opcode_t opc, ptx_mod_t m1, ptx_mod_t m2, ptx_operand_t a, ptx_operand_t b,
                  uint32_t guard, bool neg)
{
    ptx_mod_t mods[2] = {m1, m2};
    ptx_operand_t ops[2] = {a, b};
    emit(e, opc, mods, m2 == PTX_MOD_NONE ? 1u : 2u, ops, 2, guard, neg);
}

static uint32_t new_param(em_t *e, uint32_t name, ptx_type_t t)
{
    if (e->oom) return PTX_NOSYM;
    ptx_sym_t s;
    memset(&s, 0, sizeof s);
    s.name = name;
    s.kind = PTX_SYM_VAR;
    s.space = PTX_SPACE_PARAM;
    s.type = (uint8_t)t;
    s.vec = 1;
    s.size = ptx_type_bytes(t);
    s.func = (int32_t)e->fidx;
    uint32_t id = ptx_module_add_sym(e->m, &s);
    if (id == UINT32_MAX) e->oom = true;
    return id;
}

typedef struct {
    ptx_operand_t v; /* REG or IMM */
    bool b32;
} arg_t;

/* One call of a body in its own scope (docs/compiler.md §4.1): `.param` declarations, st.param of the
 * arguments, the call (guarded like the access it checks), ld.param of the result into ret. */
static void emit_call(em_t *e, int body, const arg_t *args, unsigned nargs, uint32_t ret, uint32_t guard,
                      bool neg)
{
    if (e->oom) return;
    push_simple(e, PTX_ST_SCOPE_BEGIN, 0);
    uint32_t ps[4], pr = PTX_NOSYM;
    for (unsigned k = 0; k < nargs; k++) {
        ps[k] = new_param(e, e->s_p[k], args[k].b32 ? PTX_T_B32 : PTX_T_B64);
        push_simple(e, PTX_ST_VARDECL, ps[k]);
    }
    if (ret != PTX_NOREG) {
        pr = new_param(e, e->s_r, PTX_T_B64);
        push_simple(e, PTX_ST_VARDECL, pr);
    }
    for (unsigned k = 0; k < nargs; k++)
        emit2(e, PTX_OPC_ST, PTX_MOD_PARAM, args[k].b32 ? PTX_MOD_B32 : PTX_MOD_B64, op_addr_sym(ps[k], 0), args[k].v,
              PTX_NOREG, false);
    if (e->oom) return;
    ptx_operand_t rl[1], al[4];
    uint32_t nrl = 0;
    if (ret != PTX_NOREG) rl[nrl++] = op_sym(pr, 0);
    for (unsigned k = 0; k < nargs; k++) al[k] = op_sym(ps[k], 0);
    ptx_operand_t ops[4];
    memset(ops, 0, sizeof ops);
    ops[0].kind = PTX_OPK_LIST;
    ops[0].count = nrl;
    if (nrl) {
        ops[0].first = ptx_func_add_pool(e->f, rl, nrl);
        if (ops[0].first == UINT32_MAX) e->oom = true;
    }
    ops[1] = op_sym(e->body_sym[body], 0);
    ops[2].kind = PTX_OPK_LIST;
    ops[2].count = nargs;
    if (nargs) {
        ops[2].first = ptx_func_add_pool(e->f, al, nargs);
        if (ops[2].first == UINT32_MAX) e->oom = true;
    }
    ops[3].kind = PTX_OPK_NONE;
    emit(e, PTX_OPC_CALL, NULL, 0, ops, 4, guard, neg);
    if (ret != PTX_NOREG)
        emit2(e, PTX_OPC_LD, PTX_MOD_PARAM, PTX_MOD_B64, op_reg(ret), op_addr_sym(pr, 0), PTX_NOREG, false);
    push_simple(e, PTX_ST_SCOPE_END, 0);
}

/* ------------------------------------------------------------------------------------------------
 * Rewriting one function.
 */

typedef struct {
    const ptx_root_func_t *a;
    uint32_t *own;   /* per root: its own md number or UINT32_MAX */
    uint32_t nown;
} plan_t;

static uint32_t md_of_shadow(const plan_t *p, uint32_t reg) { return PH_MD + p->nown + p->a->shadow[reg]; }

static uint32_t md_of_root(const plan_t *p, uint32_t root)
{
    const ptx_root_t *r = &p->a->roots[root];
    if (p->own[root] != UINT32_MAX) return PH_MD + p->own[root];
    return md_of_shadow(p, r->reg);
}

static void emit_loadmeta(em_t *e, const plan_t *p, uint32_t root, ptx_operand_t value)
{
    arg_t arg = {value, false};
    emit_call(e, 0, &arg, 1, md_of_root(p, root), PTX_NOREG, false);
    e->st->loadmeta++;
}

static void emit_mdop(em_t *e, const plan_t *p, const ptx_mdop_t *op, uint32_t guard, bool neg)
{
    ptx_operand_t d = op_reg(md_of_shadow(p, op->dst));
    switch ((ptx_mdkind_t)op->kind) {
    case PTX_MD_ROOT:
        emit2(e, PTX_OPC_MOV, PTX_MOD_B64, PTX_MOD_NONE, d, op_reg(md_of_root(p, op->root)), guard, neg);
        break;
    case PTX_MD_COPY:
        emit2(e, PTX_OPC_MOV, PTX_MOD_B64, PTX_MOD_NONE, d, op_reg(md_of_shadow(p, op->a)), guard, neg);
        break;
    case PTX_MD_SELECT: {
        ptx_mod_t mods[1] = {PTX_MOD_B64};
        ptx_operand_t ops[4] = {d, op_reg(md_of_shadow(p, op->a)), op_reg(md_of_shadow(p, op->b)), op_reg(op->pred)};
        emit(e, PTX_OPC_SELP, mods, 1, ops, 4, guard, neg);
        break;
    }
    case PTX_MD_MAX: {
        ptx_mod_t mods[1] = {PTX_MOD_U64};
        ptx_operand_t ops[3] = {d, op_reg(md_of_shadow(p, op->a)), op_reg(md_of_shadow(p, op->b))};
        emit(e, PTX_OPC_MAX, mods, 1, ops, 3, guard, neg);
        break;
    }
    }
    e->st->md_movs++;
}

static uint32_t new_t(em_t *e) { return PH_T + e->nt++; }

/* MEMCHECK.G before the access; returns the %ga_a placeholder that replaces its address. */
static uint32_t emit_check_g(em_t *e, const plan_t *p, const ptx_access_t *acc, const ptx_insn_t *in)
{
    const ptx_operand_t *a = &in->ops[acc->opidx];
    ptx_operand_t addr;
    if (a->base == PTX_BASE_REG && a->imm == 0) {
        addr = op_reg(a->reg);
    } else {
        uint32_t t = new_t(e);
        if (a->base == PTX_BASE_REG) {
            ptx_mod_t mods[1] = {PTX_MOD_S64};
            ptx_operand_t ops[3] = {op_reg(t), op_reg(a->reg), op_imm(a->imm)};
            emit(e, PTX_OPC_ADD, mods, 1, ops, 3, PTX_NOREG, false);
        } else if (a->base == PTX_BASE_SYM) {
            emit2(e, PTX_OPC_MOV, PTX_MOD_U64, PTX_MOD_NONE, op_reg(t), op_sym(a->sym, a->imm), PTX_NOREG, false);
        } else {
            emit2(e, PTX_OPC_MOV, PTX_MOD_U64, PTX_MOD_NONE, op_reg(t), op_imm(a->imm), PTX_NOREG, false);
        }
        addr = op_reg(t);
    }
    uint32_t md = acc->shadowed ? md_of_shadow(p, a->reg) : md_of_root(p, p->a->acc_roots[acc->root_first]);
    int64_t info = (int64_t)acc->size | (int64_t)acc->cls << 8 | (acc->store ? 1 << 10 : 0);
    arg_t args[3] = {{addr, false}, {op_reg(md), false}, {op_imm(info), true}};
    uint32_t res = PH_A + e->na++;
    emit_call(e, 1, args, 3, res, in->guard, in->guard_neg != 0);
    e->st->memcheck_g++;
    e->st->memcheck_g_class[acc->cls]++;
    return res;
}

static void emit_check_s(em_t *e, const ptx_access_t *acc, const ptx_insn_t *in)
{
    const ptx_module_t *m = e->m;
    const ptx_operand_t *a = &in->ops[acc->opidx];
    ptx_operand_t addr, base, size;
    if (a->base == PTX_BASE_REG) {
        bool wide = a->reg < e->f->nregs && ptx_type_bytes((ptx_type_t)e->f->regs[a->reg].type) == 8;
        if (a->imm == 0) {
            addr = op_reg(a->reg);
        } else {
            uint32_t src = a->reg;
            if (!wide) {
                uint32_t t0 = new_t(e);
                emit2(e, PTX_OPC_CVT, PTX_MOD_U64, PTX_MOD_U32, op_reg(t0), op_reg(src), PTX_NOREG, false);
                src = t0;
            }
            uint32_t t = new_t(e);
            ptx_mod_t mods[1] = {PTX_MOD_S64};
            ptx_operand_t ops[3] = {op_reg(t), op_reg(src), op_imm(a->imm)};
            emit(e, PTX_OPC_ADD, mods, 1, ops, 3, PTX_NOREG, false);
            addr = op_reg(t);
        }
    } else if (a->base == PTX_BASE_SYM) {
        uint32_t t = new_t(e);
        emit2(e, PTX_OPC_MOV, PTX_MOD_U64, PTX_MOD_NONE, op_reg(t), op_sym(a->sym, a->imm), PTX_NOREG, false);
        addr = op_reg(t);
    } else {
        addr = op_imm((int64_t)(uint32_t)a->imm);
    }
    switch ((ptx_sres_t)acc->sres) {
    case PTX_SHARED_STATIC:
    case PTX_SHARED_DYNAMIC: {
        uint32_t t = new_t(e);
        emit2(e, PTX_OPC_MOV, PTX_MOD_U64, PTX_MOD_NONE, op_reg(t), op_sym(acc->svar, 0), PTX_NOREG, false);
        base = op_reg(t);
        if (acc->sres == PTX_SHARED_STATIC) {
            size = op_imm((int64_t)(uint32_t)m->syms[acc->svar].size);
        } else {
            uint32_t t2 = new_t(e);
            emit2(e, PTX_OPC_CVT, PTX_MOD_U64, PTX_MOD_U32, op_reg(t2), op_sreg(PTX_SREG_DYNAMIC_SMEM_SIZE), PTX_NOREG,
                  false);
            size = op_reg(t2);
        }
        break;
    }
    default: {
        base = op_imm(0);
        uint32_t t2 = new_t(e);
        emit2(e, PTX_OPC_CVT, PTX_MOD_U64, PTX_MOD_U32, op_reg(t2), op_sreg(PTX_SREG_TOTAL_SMEM_SIZE), PTX_NOREG, false);
        size = op_reg(t2);
        break;
    }
    }
    /* The size word is encoded like __ga_info (size | store << 10) so reports can say read or write. */
    arg_t args[4] = {{addr, true}, {base, true}, {size, true}, {op_imm((int64_t)acc->size | (acc->store ? 1 << 10 : 0)), true}};
    emit_call(e, 2, args, 4, PTX_NOREG, in->guard, in->guard_neg != 0);
    e->st->memcheck_s++;
    e->st->memcheck_s_res[acc->sres]++;
}

static void emit_entry(em_t *e, const plan_t *p)
{
    const ptx_root_func_t *a = p->a;
    for (uint32_t r = 0; r < a->nroots; r++) {
        const ptx_root_t *x = &a->roots[r];
        switch ((ptx_rootkind_t)x->kind) {
        case PTX_ROOT_PARAM: {
            uint32_t t = new_t(e);
            emit2(e, PTX_OPC_LD, PTX_MOD_PARAM, PTX_MOD_U64, op_reg(t), op_addr_sym(x->sym, x->value), PTX_NOREG, false);
            emit_loadmeta(e, p, r, op_reg(t));
            break;
        }
        case PTX_ROOT_VAR: {
            uint32_t t = new_t(e);
            emit2(e, PTX_OPC_MOV, PTX_MOD_U64, PTX_MOD_NONE, op_reg(t), op_sym(x->sym, 0), PTX_NOREG, false);
            emit_loadmeta(e, p, r, op_reg(t));
            break;
        }
        case PTX_ROOT_CONST: {
            uint32_t t = new_t(e);
            emit2(e, PTX_OPC_MOV, PTX_MOD_U64, PTX_MOD_NONE, op_reg(t), op_imm(x->value), PTX_NOREG, false);
            emit_loadmeta(e, p, r, op_reg(t));
            break;
        }
        case PTX_ROOT_UNDEF:
            emit_loadmeta(e, p, r, op_reg(x->reg));
            break;
        default:
            break;
        }
    }
    for (uint32_t k = 0; k < a->nmdops && a->mdops[k].insn == PTX_ROOT_NONE; k++)
        emit_mdop(e, p, &a->mdops[k], PTX_NOREG, false);
}

static bool is_placeholder(uint32_t r) { return r >= PH_T && r != PTX_NOREG; }

static uint32_t patch(uint32_t r, uint32_t md0, uint32_t a0, uint32_t t0)
{
    if (!is_placeholder(r)) return r;
    uint32_t k = r & PH_MASK;
    switch (r & ~PH_MASK) {
    case PH_MD: return md0 + k;
    case PH_A: return a0 + k;
    default: return t0 + k;
    }
}

/* Append registers name0..name{n-1}; returns the first id (UINT32_MAX on failure). */
static uint32_t add_group(ptx_module_t *m, ptx_func_t *f, const char *base, uint32_t n)
{
    uint32_t first = f->nregs;
    for (uint32_t k = 0; k < n; k++) {
        char nm[48];
        int len = snprintf(nm, sizeof nm, "%s%u", base, k);
        uint32_t s = ptx_intern(m, nm, (size_t)len);
        if (s == UINT32_MAX) return UINT32_MAX;
        if (ptx_func_add_reg(f, s, PTX_T_B64, 0) == UINT32_MAX) return UINT32_MAX;
    }
    return first;
}

static uint32_t count_insn_stmts(const ptx_func_t *f)
{
    uint32_t n = 0;
    for (uint32_t s = 0; s < f->nstmts; s++) n += f->stmts[s].kind == PTX_ST_INSN;
    return n;
}

static int rewrite_func(ptx_module_t *m, uint32_t fidx, const ptx_root_func_t *a, const uint32_t body_sym[3],
                        ptx_instr_stats_t *st, ptx_err_t *err)
{
    ptx_func_t *f = &m->funcs[fidx];
    st->insns_before = count_insn_stmts(f);
    memcpy(st->unchecked, a->unchecked, sizeof st->unchecked);
    st->shadows = a->nshadows;
    if (a->nacc == 0) {
        st->insns_after = st->insns_before;
        return 0;
    }
    if (f->nregs >= PH_T) {
        msg(err, m, f->pos, "too many registers in one function");
        return -1;
    }
    em_t e;
    memset(&e, 0, sizeof e);
    e.m = m;
    e.f = f;
    e.fidx = fidx;
    e.st = st;
    memcpy(e.body_sym, body_sym, sizeof e.body_sym);
    for (int k = 0; k < 4; k++) {
        char nm[16];
        int len = snprintf(nm, sizeof nm, "__ga_p%d", k);
        e.s_p[k] = ptx_intern(m, nm, (size_t)len);
    }
    e.s_r = ptx_intern(m, "__ga_r", 6);
    plan_t p;
    p.a = a;
    p.own = malloc(((size_t)a->nroots + 1) * sizeof *p.own);
    uint32_t old_n = f->nstmts;
    uint32_t *map = malloc(((size_t)old_n + 1) * sizeof *map);
    if (!p.own || !map || e.s_r == UINT32_MAX || e.s_p[3] == UINT32_MAX) goto oom;
    p.nown = 0;
    for (uint32_t r = 0; r < a->nroots; r++)
        p.own[r] = ptx_root_writes_shadow(&a->roots[r]) ? UINT32_MAX : p.nown++;
    e.nmd = p.nown + a->nshadows;

    uint32_t p_decl = old_n, p_entry = old_n;
    for (uint32_t s = 0; s < old_n; s++)
        if (f->stmts[s].kind != PTX_ST_REGDECL) {
            p_decl = s;
            break;
        }
    for (uint32_t s = 0; s < old_n; s++) {
        uint8_t k = f->stmts[s].kind;
        if (k == PTX_ST_INSN || k == PTX_ST_LABEL || k == PTX_ST_SCOPE_BEGIN) {
            p_entry = s;
            break;
        }
    }
    ptx_loc_t loc0;
    memset(&loc0, 0, sizeof loc0);
    for (uint32_t s = 0; s < old_n; s++)
        if (f->stmts[s].kind == PTX_ST_INSN) {
            loc0 = f->insns[f->stmts[s].index].loc;
            break;
        }
    uint32_t decl_at = UINT32_MAX;
    uint32_t ai = 0, ri = 0, mi = 0;
    while (mi < a->nmdops && a->mdops[mi].insn == PTX_ROOT_NONE) mi++;
    while (ri < a->nroots && a->roots[ri].kind < PTX_ROOT_LOAD) ri++;
    for (uint32_t s = 0; s < old_n && !e.oom; s++) {
        if (s == p_decl) decl_at = e.nns;
        if (s == p_entry) {
            e.loc = loc0;
            emit_entry(&e, &p);
        }
        ptx_stmt_t stmt = f->stmts[s];
        if (stmt.kind != PTX_ST_INSN) {
            map[s] = e.nns;
            push_stmt(&e, &stmt);
            continue;
        }
        uint32_t id = stmt.index;
        ptx_insn_t orig = f->insns[id]; /* a copy: adding instructions may move the array */
        e.loc = orig.loc;
        while (ai < a->nacc && a->acc[ai].insn == id) {
            const ptx_access_t *acc = &a->acc[ai++];
            if (acc->check == PTX_CHECK_G) {
                uint32_t res = emit_check_g(&e, &p, acc, &orig);
                if (!e.oom) f->insns[id].ops[acc->opidx] = op_addr_reg(res, 0);
            } else {
                emit_check_s(&e, acc, &orig);
            }
        }
        map[s] = e.nns;
        push_stmt(&e, &stmt);
        while (ri < a->nroots && a->roots[ri].insn == id) {
            emit_loadmeta(&e, &p, ri, op_reg(a->roots[ri].reg));
            ri++;
        }
        while (mi < a->nmdops && a->mdops[mi].insn == id) {
            emit_mdop(&e, &p, &a->mdops[mi], orig.guard, orig.guard_neg != 0);
            mi++;
        }
    }
    if (decl_at == UINT32_MAX) decl_at = e.nns;
    if (e.oom) goto oom;
    if (ai != a->nacc || ri != a->nroots || mi != a->nmdops) {
        msg(err, m, f->pos, "internal: the instrumentation plan of '%s' is out of statement order",
            ptx_sym_name(m, f->sym));
        free(p.own), free(map), free(e.ns);
        return -1;
    }

    /* Registers, declarations, placeholders. */
    uint32_t md0 = add_group(m, f, "%ga_md", e.nmd);
    uint32_t a0 = add_group(m, f, "%ga_a", e.na);
    uint32_t t0 = add_group(m, f, "%ga_t", e.nt);
    if (md0 == UINT32_MAX || a0 == UINT32_MAX || t0 == UINT32_MAX) goto oom;
    ptx_stmt_t decls[3];
    uint32_t nd = 0;
    const uint32_t firsts[3] = {md0, a0, t0}, counts[3] = {e.nmd, e.na, e.nt};
    for (int k = 0; k < 3; k++) {
        if (counts[k] == 0) continue;
        memset(&decls[nd], 0, sizeof decls[nd]);
        decls[nd].kind = PTX_ST_REGDECL;
        decls[nd].index = firsts[k];
        decls[nd].count = counts[k];
        decls[nd].aux = counts[k];
        nd++;
    }
    ptx_stmt_t *fin = malloc(((size_t)e.nns + nd + 1) * sizeof *fin);
    if (fin == NULL) goto oom;
    memcpy(fin, e.ns, (size_t)decl_at * sizeof *fin);
    memcpy(fin + decl_at, decls, (size_t)nd * sizeof *fin);
    memcpy(fin + decl_at + nd, e.ns + decl_at, (size_t)(e.nns - decl_at) * sizeof *fin);
    for (uint32_t s = 0; s < old_n; s++)
        if (map[s] >= decl_at) map[s] += nd;
    for (uint32_t i = 0; i < f->ninsns; i++) {
        ptx_insn_t *in = &f->insns[i];
        for (unsigned k = 0; k < in->nops; k++) {
            ptx_operand_t *o = &in->ops[k];
            if (o->kind == PTX_OPK_REG || o->kind == PTX_OPK_PAIR || (o->kind == PTX_OPK_ADDR && o->base == PTX_BASE_REG))
                o->reg = patch(o->reg, md0, a0, t0);
        }
    }
    for (uint32_t l = 0; l < f->nlabels; l++)
        if (f->labels[l].stmt != UINT32_MAX && f->labels[l].stmt < old_n) f->labels[l].stmt = map[f->labels[l].stmt];
    for (uint32_t r = 0; r < f->nregs; r++)
        if (f->regs[r].scope != 0 && f->regs[r].scope < old_n) f->regs[r].scope = map[f->regs[r].scope];
    free(f->stmts);
    f->stmts = fin;
    f->nstmts = e.nns + nd;
    f->cap_stmts = e.nns + nd + 1;
    free(e.ns);
    free(p.own), free(map);
    st->insns_after = count_insn_stmts(f);
    st->overhead = st->insns_after - st->insns_before - st->loadmeta - st->memcheck_g - st->memcheck_s - st->md_movs;
    return 0;
oom:
    free(p.own), free(map), free(e.ns);
    msg(err, m, (ptx_pos_t){0, 0}, "out of memory instrumenting '%s'", ptx_sym_name(m, f->sym));
    return -1;
}

/* ------------------------------------------------------------------------------------------------
 * Importing the software bodies.
 */

typedef struct {
    ptx_module_t *m;
    const ptx_module_t *r;
    uint32_t *symmap;
    bool oom;
} imp_t;

static uint32_t imp_str(imp_t *im, uint32_t id)
{
    if (id == 0) return 0;
    const char *s = ptx_str(im->r, id);
    uint32_t n = ptx_intern(im->m, s, strlen(s));
    if (n == UINT32_MAX) im->oom = true;
    return n == UINT32_MAX ? 0 : n;
}

static uint32_t imp_sym(imp_t *im, uint32_t s, int32_t func, uint32_t fn_index)
{
    if (s >= im->r->nsyms) return s;
    if (im->symmap[s] != UINT32_MAX) return im->symmap[s];
    ptx_sym_t x = im->r->syms[s];
    x.name = imp_str(im, x.name);
    x.func = func;
    x.fn_index = fn_index;
    x.first_init = 0;
    x.ninit = 0; /* the bodies' text declares no initialised variable */
    x.pos = (ptx_pos_t){0, 0};
    uint32_t id = ptx_module_add_sym(im->m, &x);
    if (id == UINT32_MAX) {
        im->oom = true;
        return 0;
    }
    im->symmap[s] = id;
    return id;
}

static void imp_operand(imp_t *im, ptx_operand_t *o)
{
    if (o->kind == PTX_OPK_SYM || (o->kind == PTX_OPK_ADDR && o->base == PTX_BASE_SYM))
        o->sym = imp_sym(im, o->sym, -1, 0);
}

static void *dup_array(const void *src, size_t n, size_t sz, bool *oom)
{
    void *d = malloc(n * sz + 1);
    if (d == NULL) {
        *oom = true;
        return NULL;
    }
    if (n) memcpy(d, src, n * sz);
    return d;
}

static uint32_t imp_func(imp_t *im, uint32_t fi)
{
    const ptx_func_t *src = &im->r->funcs[fi];
    uint32_t nf = ptx_module_add_func(im->m);
    if (nf == UINT32_MAX) {
        im->oom = true;
        return 0;
    }
    /* Function-scope symbols (parameters, call-scope .param) first: they carry the new index. */
    for (uint32_t s = 0; s < im->r->nsyms; s++)
        if (im->r->syms[s].func == (int32_t)fi) imp_sym(im, s, (int32_t)nf, 0);
    uint32_t fsym = imp_sym(im, src->sym, -1, nf);
    ptx_func_t *d = &im->m->funcs[nf];
    d->sym = fsym;
    d->is_entry = src->is_entry;
    d->defined = src->defined;
    d->noreturn = src->noreturn;
    d->link = src->link;
    memcpy(d->maxntid, src->maxntid, sizeof d->maxntid);
    memcpy(d->reqntid, src->reqntid, sizeof d->reqntid);
    d->minnctapersm = src->minnctapersm;
    d->maxnreg = src->maxnreg;
    d->maxnctapersm = src->maxnctapersm;
    d->params = dup_array(src->params, src->nparams, sizeof *d->params, &im->oom);
    d->rets = dup_array(src->rets, src->nrets, sizeof *d->rets, &im->oom);
    d->stmts = dup_array(src->stmts, src->nstmts, sizeof *d->stmts, &im->oom);
    d->insns = dup_array(src->insns, src->ninsns, sizeof *d->insns, &im->oom);
    d->regs = dup_array(src->regs, src->nregs, sizeof *d->regs, &im->oom);
    d->labels = dup_array(src->labels, src->nlabels, sizeof *d->labels, &im->oom);
    d->pool = dup_array(src->pool, src->npool, sizeof *d->pool, &im->oom);
    if (im->oom) return nf;
    d->nparams = src->nparams;
    d->nrets = src->nrets;
    d->nstmts = d->cap_stmts = src->nstmts;
    d->ninsns = d->cap_insns = src->ninsns;
    d->nregs = d->cap_regs = src->nregs;
    d->nlabels = d->cap_labels = src->nlabels;
    d->npool = d->cap_pool = src->npool;
    for (uint32_t k = 0; k < d->nparams; k++) d->params[k] = imp_sym(im, d->params[k], (int32_t)nf, 0);
    for (uint32_t k = 0; k < d->nrets; k++) d->rets[k] = imp_sym(im, d->rets[k], (int32_t)nf, 0);
    for (uint32_t k = 0; k < d->nregs; k++) d->regs[k].name = imp_str(im, d->regs[k].name), d->regs[k].pos = (ptx_pos_t){0, 0};
    for (uint32_t k = 0; k < d->nlabels; k++) d->labels[k].name = imp_str(im, d->labels[k].name), d->labels[k].pos = (ptx_pos_t){0, 0};
    for (uint32_t k = 0; k < d->nstmts; k++) {
        ptx_stmt_t *s = &d->stmts[k];
        s->pos = (ptx_pos_t){0, 0};
        if (s->kind == PTX_ST_VARDECL) s->index = imp_sym(im, s->index, (int32_t)nf, 0);
        else if (s->kind == PTX_ST_PRAGMA) s->index = imp_str(im, s->index);
        else if (s->kind == PTX_ST_PROTOTYPE) s->count = imp_str(im, s->count);
        else if (s->kind == PTX_ST_LOC) s->loc.fn_name = imp_str(im, s->loc.fn_name);
    }
    for (uint32_t k = 0; k < d->ninsns; k++) {
        ptx_insn_t *in = &d->insns[k];
        in->flags |= PTX_IF_ADDED;
        in->pos = (ptx_pos_t){0, 0};
        memset(&in->loc, 0, sizeof in->loc);
        for (unsigned j = 0; j < in->nops; j++) imp_operand(im, &in->ops[j]);
    }
    for (uint32_t k = 0; k < d->npool; k++) imp_operand(im, &d->pool[k]);
    d->pos = d->end_pos = (ptx_pos_t){0, 0};
    return nf;
}

/* Parse the bodies and add them (and __ga_cfg) to m after the leading directives. */
static int import_runtime(ptx_module_t *m, uint32_t body_sym[3], uint32_t *body_insns, ptx_err_t *err)
{
    size_t len;
    const char *text = ptx_garuntime_text(&len);
    ptx_err_t pe;
    memset(&pe, 0, sizeof pe);
    ptx_module_t *r = ptx_parse("<ga_runtime>", text, len, &pe);
    if (r == NULL) {
        msg(err, m, (ptx_pos_t){0, 0}, "internal: the software bodies do not parse: %s", pe.msg);
        return -1;
    }
    imp_t im = {m, r, NULL, false};
    im.symmap = malloc(((size_t)r->nsyms + 1) * sizeof *im.symmap);
    ptx_item_t *items = malloc(((size_t)r->nitems + 1) * sizeof *items);
    uint32_t nitems = 0;
    if (!im.symmap || !items) {
        im.oom = true;
        goto out;
    }
    for (uint32_t s = 0; s < r->nsyms; s++) im.symmap[s] = UINT32_MAX;
    *body_insns = 0;
    for (uint32_t k = 0; k < r->nitems && !im.oom; k++) {
        const ptx_item_t *it = &r->items[k];
        ptx_item_t ni;
        memset(&ni, 0, sizeof ni);
        if (it->kind == PTX_ITEM_VAR) {
            ni.kind = PTX_ITEM_VAR;
            ni.index = imp_sym(&im, it->index, -1, 0);
        } else if (it->kind == PTX_ITEM_FUNC) {
            ni.kind = PTX_ITEM_FUNC;
            ni.index = imp_func(&im, it->index);
            *body_insns += count_insn_stmts(&r->funcs[it->index]);
        } else {
            continue;
        }
        items[nitems++] = ni;
    }
    if (im.oom) goto out;
    for (int b = 0; b < 3; b++) {
        uint32_t s = ptx_find_global(r, BODY_NAMES[b]);
        if (s == PTX_NOSYM || im.symmap[s] == UINT32_MAX) {
            ptx_module_free(r);
            free(im.symmap), free(items);
            msg(err, m, (ptx_pos_t){0, 0}, "internal: the software bodies lack %s", BODY_NAMES[b]);
            return -1;
        }
        body_sym[b] = im.symmap[s];
    }
    /* Splice the items in after .version/.target/.address_size. */
    uint32_t at = 0;
    while (at < m->nitems && (m->items[at].kind == PTX_ITEM_VERSION || m->items[at].kind == PTX_ITEM_TARGET ||
                              m->items[at].kind == PTX_ITEM_ADDRESS_SIZE))
        at++;
    ptx_item_t *all = malloc(((size_t)m->nitems + nitems + 1) * sizeof *all);
    if (all == NULL) {
        im.oom = true;
        goto out;
    }
    memcpy(all, m->items, (size_t)at * sizeof *all);
    memcpy(all + at, items, (size_t)nitems * sizeof *all);
    memcpy(all + at + nitems, m->items + at, (size_t)(m->nitems - at) * sizeof *all);
    free(m->items);
    m->items = all;
    m->nitems += nitems;
    m->cap_items = m->nitems + 1;
out:
    ptx_module_free(r);
    free(im.symmap), free(items);
    if (im.oom) {
        msg(err, m, (ptx_pos_t){0, 0}, "out of memory adding the software bodies");
        return -1;
    }
    return 0;
}

/* ------------------------------------------------------------------------------------------------ */

static int check_reserved(const ptx_module_t *m, ptx_err_t *err)
{
    for (uint32_t s = 0; s < m->nsyms; s++) {
        const char *n = ptx_sym_name(m, s);
        if (has_prefix(n, "__ga_")) {
            msg(err, m, m->syms[s].pos, "the module already declares '%s': names starting '__ga_' belong to "
                "GPUArmor's instrumentation (is the input instrumented already?)", n);
            return -1;
        }
    }
    for (uint32_t fi = 0; fi < m->nfuncs; fi++) {
        const ptx_func_t *f = &m->funcs[fi];
        for (uint32_t r = 0; r < f->nregs; r++) {
            const char *n = ptx_reg_name(m, f, r);
            if (has_prefix(n, "%ga_")) {
                msg(err, m, f->regs[r].pos, "the function '%s' already declares the register '%s': names "
                    "starting '%%ga_' belong to GPUArmor's instrumentation (is the input instrumented already?)",
                    ptx_sym_name(m, f->sym), n);
                return -1;
            }
        }
    }
    return 0;
}

int ptx_instrument(ptx_module_t *m, ptx_instr_result_t *res, ptx_err_t *err)
{
    if (res) memset(res, 0, sizeof *res);
    if (check_reserved(m, err)) return -1;
    uint32_t nf = m->nfuncs;
    ptx_root_func_t *an = calloc((size_t)nf + 1, sizeof *an);
    ptx_instr_stats_t *st = calloc((size_t)nf + 1, sizeof *st);
    if (!an || !st) {
        free(an), free(st);
        msg(err, m, (ptx_pos_t){0, 0}, "out of memory");
        return -1;
    }
    int rc = -1;
    bool any = false;
    for (uint32_t fi = 0; fi < nf; fi++) {
        if (!m->funcs[fi].defined) continue;
        if (ptx_root_analyze(m, fi, &an[fi], err)) goto out;
        any |= an[fi].nacc > 0;
    }
    uint32_t body_sym[3] = {0, 0, 0}, body_insns = 0;
    if (any && import_runtime(m, body_sym, &body_insns, err)) goto out;
    for (uint32_t fi = 0; fi < nf; fi++) {
        if (!m->funcs[fi].defined) continue;
        if (rewrite_func(m, fi, &an[fi], body_sym, &st[fi], err)) goto out;
    }
    if (res) {
        res->nfuncs = nf;
        res->func = st;
        st = NULL;
        res->body_insns = body_insns;
        for (uint32_t fi = 0; fi < nf; fi++) {
            const ptx_instr_stats_t *s = &res->func[fi];
            ptx_instr_stats_t *t = &res->total;
            t->insns_before += s->insns_before, t->insns_after += s->insns_after;
            t->loadmeta += s->loadmeta, t->memcheck_g += s->memcheck_g, t->memcheck_s += s->memcheck_s;
            t->md_movs += s->md_movs, t->overhead += s->overhead, t->shadows += s->shadows;
            for (int k = 0; k < 3; k++)
                t->memcheck_g_class[k] += s->memcheck_g_class[k], t->memcheck_s_res[k] += s->memcheck_s_res[k];
            for (int k = 0; k < PTX_UNCHK_COUNT; k++) t->unchecked[k] += s->unchecked[k];
        }
    }
    rc = 0;
out:
    for (uint32_t fi = 0; fi < nf; fi++) ptx_root_func_free(&an[fi]);
    free(an), free(st);
    return rc;
}

/* ------------------------------------------------------------------------------------------------
 * Strip.
 */

static bool sym_reserved(const ptx_module_t *m, uint32_t s) { return s < m->nsyms && has_prefix(ptx_sym_name(m, s), "__ga_"); }

static bool insn_names_reserved(const ptx_module_t *m, const ptx_func_t *f, const ptx_insn_t *in)
{
    for (unsigned k = 0; k < in->nops; k++) {
        const ptx_operand_t *o = &in->ops[k];
        if ((o->kind == PTX_OPK_SYM || (o->kind == PTX_OPK_ADDR && o->base == PTX_BASE_SYM)) && sym_reserved(m, o->sym))
            return true;
        if (o->kind == PTX_OPK_LIST || o->kind == PTX_OPK_VEC)
            for (uint32_t j = 0; j < o->count && o->first + j < f->npool; j++) {
                const ptx_operand_t *e = &f->pool[o->first + j];
                if (e->kind == PTX_OPK_SYM && sym_reserved(m, e->sym)) return true;
            }
    }
    return false;
}

typedef struct {
    bool *ga_reg;      /* per register */
    uint32_t *writer;  /* per register: statement writing it (the last one), UINT32_MAX */
    uint32_t *encl;    /* per statement: the statement index of the enclosing SCOPE_BEGIN, UINT32_MAX */
    uint32_t *match;   /* per SCOPE_BEGIN statement: its SCOPE_END */
    bool *drop;        /* per statement */
} strip_t;

static void strip_free(strip_t *s) { free(s->ga_reg), free(s->writer), free(s->encl), free(s->match), free(s->drop); }

/* The restored address operand of [%ga_aN] (reg = that register); -1 when it cannot be traced. */
static int trace_addr(const ptx_module_t *m, const ptx_func_t *f, const strip_t *sx, uint32_t reg, ptx_operand_t *out)
{
    uint32_t ws = sx->writer[reg];
    if (ws == UINT32_MAX) return -1;
    uint32_t b = sx->encl[ws];
    if (b == UINT32_MAX) return -1;
    uint32_t end = sx->match[b];
    /* The call of __ga_memcheck_g directly inside that scope, and its first argument. */
    uint32_t p0 = PTX_NOSYM;
    for (uint32_t s = b + 1; s < end; s++) {
        if (f->stmts[s].kind != PTX_ST_INSN || sx->encl[s] != b) continue;
        const ptx_insn_t *in = &f->insns[f->stmts[s].index];
        if (in->opc != PTX_OPC_CALL || in->nops < 3 || in->ops[1].kind != PTX_OPK_SYM) continue;
        if (strcmp(ptx_sym_name(m, in->ops[1].sym), "__ga_memcheck_g") != 0) continue;
        if (in->ops[2].kind != PTX_OPK_LIST || in->ops[2].count < 1 || in->ops[2].first >= f->npool) return -1;
        const ptx_operand_t *e = &f->pool[in->ops[2].first];
        if (e->kind != PTX_OPK_SYM) return -1;
        p0 = e->sym;
    }
    if (p0 == PTX_NOSYM) return -1;
    const ptx_operand_t *val = NULL;
    for (uint32_t s = b + 1; s < end; s++) {
        if (f->stmts[s].kind != PTX_ST_INSN || sx->encl[s] != b) continue;
        const ptx_insn_t *in = &f->insns[f->stmts[s].index];
        if (in->opc == PTX_OPC_ST && in->nops == 2 && in->ops[0].kind == PTX_OPK_ADDR && in->ops[0].base == PTX_BASE_SYM &&
            in->ops[0].sym == p0)
            val = &in->ops[1];
    }
    if (val == NULL || val->kind != PTX_OPK_REG || val->reg >= f->nregs) return -1;
    if (!sx->ga_reg[val->reg]) {
        *out = op_addr_reg(val->reg, 0);
        return 0;
    }
    uint32_t ts = sx->writer[val->reg];
    if (ts == UINT32_MAX) return -1;
    const ptx_insn_t *t = &f->insns[f->stmts[ts].index];
    if (t->opc == PTX_OPC_ADD && t->nops == 3 && t->ops[1].kind == PTX_OPK_REG && t->ops[1].reg < f->nregs &&
        !sx->ga_reg[t->ops[1].reg] && t->ops[2].kind == PTX_OPK_IMM) {
        *out = op_addr_reg(t->ops[1].reg, t->ops[2].imm);
        return 0;
    }
    if (t->opc == PTX_OPC_MOV && t->nops == 2 && t->ops[1].kind == PTX_OPK_SYM) {
        *out = op_addr_sym(t->ops[1].sym, t->ops[1].imm);
        return 0;
    }
    if (t->opc == PTX_OPC_MOV && t->nops == 2 && t->ops[1].kind == PTX_OPK_IMM) {
        memset(out, 0, sizeof *out);
        out->kind = PTX_OPK_ADDR;
        out->base = PTX_BASE_NONE;
        out->imm = t->ops[1].imm;
        return 0;
    }
    return -1;
}

/* Plan the strip of one function: which statements go and the restored operands. */
typedef struct {
    uint32_t insn;
    unsigned op;
    ptx_operand_t v;
} fix_t;

static int strip_plan(const ptx_module_t *m, const ptx_func_t *f, strip_t *sx, fix_t **fixes, uint32_t *nfix,
                      ptx_err_t *err)
{
    uint32_t n = f->nstmts;
    sx->ga_reg = calloc((size_t)f->nregs + 1, sizeof *sx->ga_reg);
    sx->writer = malloc(((size_t)f->nregs + 1) * sizeof *sx->writer);
    sx->encl = malloc(((size_t)n + 1) * sizeof *sx->encl);
    sx->match = malloc(((size_t)n + 1) * sizeof *sx->match);
    sx->drop = calloc((size_t)n + 1, sizeof *sx->drop);
    uint32_t *stack = malloc(((size_t)n + 1) * sizeof *stack);
    if (!sx->ga_reg || !sx->writer || !sx->encl || !sx->match || !sx->drop || !stack) {
        free(stack);
        msg(err, m, (ptx_pos_t){0, 0}, "out of memory");
        return -1;
    }
    for (uint32_t r = 0; r < f->nregs; r++) {
        sx->ga_reg[r] = has_prefix(ptx_reg_name(m, f, r), "%ga_");
        sx->writer[r] = UINT32_MAX;
    }
    uint32_t sp = 0;
    for (uint32_t s = 0; s < n; s++) {
        const ptx_stmt_t *st = &f->stmts[s];
        sx->match[s] = UINT32_MAX;
        if (st->kind == PTX_ST_SCOPE_END) {
            if (sp) sx->match[stack[--sp]] = s;
            sx->encl[s] = sp ? stack[sp - 1] : UINT32_MAX;
            continue;
        }
        sx->encl[s] = sp ? stack[sp - 1] : UINT32_MAX;
        if (st->kind == PTX_ST_SCOPE_BEGIN) stack[sp++] = s;
        if (st->kind == PTX_ST_INSN) {
            const ptx_insn_t *in = &f->insns[st->index];
            uint32_t d[8];
            unsigned nd = ptx_insn_defs(in, f, d, 8);
            bool ga = false;
            for (unsigned k = 0; k < nd; k++)
                if (d[k] < f->nregs && sx->ga_reg[d[k]]) {
                    sx->writer[d[k]] = s;
                    ga = true;
                }
            sx->drop[s] = ga || insn_names_reserved(m, f, in);
        } else if (st->kind == PTX_ST_VARDECL) {
            sx->drop[s] = sym_reserved(m, st->index);
        } else if (st->kind == PTX_ST_REGDECL) {
            sx->drop[s] = st->count > 0 && st->index < f->nregs && sx->ga_reg[st->index];
        }
    }
    while (sp) sx->match[stack[--sp]] = n;
    free(stack);
    /* Scopes: dropped when everything inside is dropped and something was (an empty `{ }` of the
     * original stays). Visiting scope starts from the last one decides inner scopes first. */
    for (uint32_t s = n; s-- > 0;) {
        if (f->stmts[s].kind != PTX_ST_SCOPE_BEGIN) continue;
        uint32_t e = sx->match[s];
        if (e >= n || e == s + 1) continue;
        bool all = true;
        for (uint32_t k = s + 1; k < e && all; k++) all = sx->drop[k];
        if (all) sx->drop[s] = sx->drop[e] = true;
    }
    /* Restored operands of the kept instructions. */
    *fixes = NULL;
    *nfix = 0;
    for (uint32_t s = 0; s < n; s++) {
        if (f->stmts[s].kind != PTX_ST_INSN || sx->drop[s]) continue;
        const ptx_insn_t *in = &f->insns[f->stmts[s].index];
        for (unsigned k = 0; k < in->nops; k++) {
            const ptx_operand_t *o = &in->ops[k];
            bool ga_use = (o->kind == PTX_OPK_REG || o->kind == PTX_OPK_PAIR || (o->kind == PTX_OPK_ADDR && o->base == PTX_BASE_REG)) &&
                          o->reg < f->nregs && sx->ga_reg[o->reg];
            if (!ga_use) continue;
            ptx_operand_t v;
            if (o->kind != PTX_OPK_ADDR || o->imm != 0 || trace_addr(m, f, sx, o->reg, &v)) {
                free(*fixes);
                *fixes = NULL;
                msg(err, m, in->pos, "cannot strip: operand %u of this instruction uses '%s', which is not the "
                    "result of a MEMCHECK.G call of the convention", k, ptx_reg_name(m, f, o->reg));
                return -1;
            }
            fix_t *nfx = realloc(*fixes, ((size_t)*nfix + 1) * sizeof *nfx);
            if (nfx == NULL) {
                free(*fixes);
                *fixes = NULL;
                msg(err, m, (ptx_pos_t){0, 0}, "out of memory");
                return -1;
            }
            *fixes = nfx;
            nfx[*nfix].insn = f->stmts[s].index;
            nfx[*nfix].op = k;
            nfx[*nfix].v = v;
            (*nfix)++;
        }
    }
    return 0;
}

int ptx_strip(ptx_module_t *m, ptx_err_t *err)
{
    uint32_t nf = m->nfuncs;
    strip_t *plans = calloc((size_t)nf + 1, sizeof *plans);
    fix_t **fixes = calloc((size_t)nf + 1, sizeof *fixes);
    uint32_t *nfix = calloc((size_t)nf + 1, sizeof *nfix);
    bool *gone = calloc((size_t)nf + 1, sizeof *gone);
    int rc = -1;
    if (!plans || !fixes || !nfix || !gone) {
        msg(err, m, (ptx_pos_t){0, 0}, "out of memory");
        goto out;
    }
    for (uint32_t fi = 0; fi < nf; fi++) {
        const ptx_func_t *f = &m->funcs[fi];
        gone[fi] = sym_reserved(m, f->sym);
        if (gone[fi] || !f->defined) continue;
        if (strip_plan(m, f, &plans[fi], &fixes[fi], &nfix[fi], err)) goto out;
    }
    /* Nothing can fail from here on except allocation of the new statement arrays, which happen
     * before anything is replaced. */
    ptx_stmt_t **news = calloc((size_t)nf + 1, sizeof *news);
    uint32_t **maps = calloc((size_t)nf + 1, sizeof *maps);
    bool oom = news == NULL || maps == NULL;
    for (uint32_t fi = 0; fi < nf && !oom; fi++) {
        const ptx_func_t *f = &m->funcs[fi];
        if (gone[fi] || !f->defined) continue;
        news[fi] = malloc(((size_t)f->nstmts + 1) * sizeof *news[fi]);
        maps[fi] = malloc(((size_t)f->nstmts + 1) * sizeof *maps[fi]);
        oom |= news[fi] == NULL || maps[fi] == NULL;
    }
    ptx_item_t *items = oom ? NULL : malloc(((size_t)m->nitems + 1) * sizeof *items);
    if (oom || items == NULL) {
        if (news)
            for (uint32_t fi = 0; fi < nf; fi++) free(news[fi]);
        if (maps)
            for (uint32_t fi = 0; fi < nf; fi++) free(maps[fi]);
        free(news), free(maps), free(items);
        msg(err, m, (ptx_pos_t){0, 0}, "out of memory");
        goto out;
    }
    for (uint32_t fi = 0; fi < nf; fi++) {
        ptx_func_t *f = &m->funcs[fi];
        if (gone[fi] || !f->defined) continue;
        const strip_t *sx = &plans[fi];
        uint32_t k = 0;
        for (uint32_t s = 0; s < f->nstmts; s++) {
            maps[fi][s] = k;
            if (!sx->drop[s]) news[fi][k++] = f->stmts[s];
        }
        for (uint32_t j = 0; j < nfix[fi]; j++) f->insns[fixes[fi][j].insn].ops[fixes[fi][j].op] = fixes[fi][j].v;
        for (uint32_t l = 0; l < f->nlabels; l++)
            if (f->labels[l].stmt < f->nstmts) f->labels[l].stmt = maps[fi][f->labels[l].stmt];
        for (uint32_t r = 0; r < f->nregs; r++)
            if (f->regs[r].scope != 0 && f->regs[r].scope < f->nstmts) f->regs[r].scope = maps[fi][f->regs[r].scope];
        free(f->stmts);
        f->stmts = news[fi];
        f->nstmts = k;
        f->cap_stmts = f->nstmts + 1;
        free(maps[fi]);
    }
    free(news), free(maps);
    /* Items, and the names of what they declared (so lookups by name no longer find them). */
    uint32_t ni = 0;
    for (uint32_t k = 0; k < m->nitems; k++) {
        const ptx_item_t *it = &m->items[k];
        bool drop = false;
        if (it->kind == PTX_ITEM_VAR) drop = sym_reserved(m, it->index);
        if (it->kind == PTX_ITEM_FUNC) drop = it->index < nf && gone[it->index];
        if (!drop) items[ni++] = *it;
    }
    free(m->items);
    m->items = items;
    m->nitems = ni;
    m->cap_items = ni + 1;
    for (uint32_t fi = 0; fi < nf; fi++) {
        if (!gone[fi]) continue;
        ptx_func_t *f = &m->funcs[fi];
        free(f->stmts), free(f->insns), free(f->regs), free(f->labels), free(f->pool);
        f->stmts = NULL, f->insns = NULL, f->regs = NULL, f->labels = NULL, f->pool = NULL;
        f->nstmts = f->ninsns = f->nregs = f->nlabels = f->npool = 0;
        f->cap_stmts = f->cap_insns = f->cap_regs = f->cap_labels = f->cap_pool = 0;
        f->defined = false;
    }
    for (uint32_t s = 0; s < m->nsyms; s++)
        if (sym_reserved(m, s)) m->syms[s].name = 0;
    rc = 0;
out:
    if (plans)
        for (uint32_t fi = 0; fi < nf; fi++) strip_free(&plans[fi]);
    if (fixes)
        for (uint32_t fi = 0; fi < nf; fi++) free(fixes[fi]);
    free(plans), free(fixes), free(nfix), free(gone);
    return rc;
}
