/*
 * ptx_ir.c — the vocabulary tables of ptx_ir.h (spellings generated from its X-macros), the
 * instruction helpers (what an instruction reads and writes), the interned string table, name
 * lookups, the growth helpers and ptx_module_free.
 *
 * The def/use rules live here, once, so the parser's checks, the analyses and the interpreter agree
 * on them: an instruction writes its first operand unless its opcode has no destination (st, red,
 * bra, call, bar without .red, ...) or that operand is a memory operand (mbarrier.init [a], n).
 */
#include "ptx_ir.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------------------------------------------
 * Vocabulary.
 */

static const char *const opcode_names[PTX_OPC_COUNT] = {
    [PTX_OPC_NONE] = "?",
#define PTX_X_NAME(id, s) [PTX_OPC_##id] = s,
    PTX_OPCODES(PTX_X_NAME)
#undef PTX_X_NAME
};

static const char *const mod_names[PTX_MOD_COUNT] = {
    [PTX_MOD_NONE] = "?",
#define PTX_X_NAME(id, s, c) [PTX_MOD_##id] = s,
    PTX_MODIFIERS(PTX_X_NAME)
#undef PTX_X_NAME
};

static const uint8_t mod_classes[PTX_MOD_COUNT] = {
    [PTX_MOD_NONE] = PTX_MC_OTHER,
#define PTX_X_CLASS(id, s, c) [PTX_MOD_##id] = PTX_MC_##c,
    PTX_MODIFIERS(PTX_X_CLASS)
#undef PTX_X_CLASS
};

static const char *const sreg_names[PTX_SREG_COUNT] = {
    [PTX_SREG_NONE] = "?",
#define PTX_X_NAME(id, s, k) [PTX_SREG_##id] = s,
    PTX_SREGS(PTX_X_NAME)
#undef PTX_X_NAME
};

/* ptx_mod_type and ptx_mod_space map by offset: the TYPE block of PTX_MODIFIERS starts the enum and
 * lists the types in ptx_type_t order, and the SPACE block follows in ptx_space_t order. */
_Static_assert(PTX_MOD_B8 == 1 && (int)PTX_MOD_B1 == (int)PTX_T_B1 && (int)PTX_MOD_F32 == (int)PTX_T_F32 &&
                   (int)PTX_MOD_PRED == (int)PTX_T_PRED,
               "the TYPE modifiers must come first, in ptx_type_t order");
_Static_assert((int)PTX_MOD_REG - (int)PTX_MOD_B1 == 1 &&
                   (int)PTX_MOD_PARAM_FUNC - (int)PTX_MOD_REG + 1 == (int)PTX_SPACE_PARAM_FUNC &&
                   (int)PTX_MOD_SHARED - (int)PTX_MOD_REG + 1 == (int)PTX_SPACE_SHARED,
               "the SPACE modifiers must follow the types, in ptx_space_t order");

const char *ptx_opcode_name(ptx_opcode_t o)
{
    return ((unsigned)o < PTX_OPC_COUNT) ? opcode_names[o] : "?";
}

const char *ptx_mod_name(ptx_mod_t m)
{
    return ((unsigned)m < PTX_MOD_COUNT) ? mod_names[m] : "?";
}

ptx_modclass_t ptx_mod_class(ptx_mod_t m)
{
    return ((unsigned)m < PTX_MOD_COUNT) ? (ptx_modclass_t)mod_classes[m] : PTX_MC_OTHER;
}

ptx_type_t ptx_mod_type(ptx_mod_t m)
{
    if (m >= PTX_MOD_B8 && m <= PTX_MOD_B1) return (ptx_type_t)((int)m - (int)PTX_MOD_B8 + (int)PTX_T_B8);
    return PTX_T_NONE;
}

ptx_space_t ptx_mod_space(ptx_mod_t m)
{
    if (m >= PTX_MOD_REG && m <= PTX_MOD_PARAM_FUNC)
        return (ptx_space_t)((int)m - (int)PTX_MOD_REG + (int)PTX_SPACE_REG);
    return PTX_SPACE_NONE;
}

ptx_mod_t ptx_mod_from_type(ptx_type_t t)
{
    if (t >= PTX_T_B8 && t <= PTX_T_B1) return (ptx_mod_t)((int)t - (int)PTX_T_B8 + (int)PTX_MOD_B8);
    return PTX_MOD_NONE;
}

ptx_mod_t ptx_mod_from_space(ptx_space_t s)
{
    if (s >= PTX_SPACE_REG && s <= PTX_SPACE_PARAM_FUNC)
        return (ptx_mod_t)((int)s - (int)PTX_SPACE_REG + (int)PTX_MOD_REG);
    return PTX_MOD_NONE;
}

const char *ptx_type_name(ptx_type_t t)
{
    ptx_mod_t m = ptx_mod_from_type(t);
    return m == PTX_MOD_NONE ? "?" : mod_names[m];
}

unsigned ptx_type_bytes(ptx_type_t t)
{
    switch (t) {
    case PTX_T_B8: case PTX_T_U8: case PTX_T_S8: case PTX_T_E4M3: case PTX_T_E5M2:
        return 1;
    case PTX_T_B16: case PTX_T_U16: case PTX_T_S16: case PTX_T_F16: case PTX_T_BF16:
    case PTX_T_E4M3X2: case PTX_T_E5M2X2:
        return 2;
    case PTX_T_B32: case PTX_T_U32: case PTX_T_S32: case PTX_T_F32: case PTX_T_F16X2:
    case PTX_T_BF16X2: case PTX_T_TF32:
        return 4;
    case PTX_T_B64: case PTX_T_U64: case PTX_T_S64: case PTX_T_F64:
        return 8;
    case PTX_T_B128:
        return 16;
    default: /* PRED, the sub-byte types S4/U4/B1, NONE */
        return 0;
    }
}

bool ptx_type_is_float(ptx_type_t t)
{
    switch (t) {
    case PTX_T_F16: case PTX_T_F16X2: case PTX_T_BF16: case PTX_T_BF16X2: case PTX_T_TF32:
    case PTX_T_F32: case PTX_T_F64: case PTX_T_E4M3: case PTX_T_E5M2: case PTX_T_E4M3X2:
    case PTX_T_E5M2X2:
        return true;
    default:
        return false;
    }
}

bool ptx_type_is_signed(ptx_type_t t)
{
    return t == PTX_T_S8 || t == PTX_T_S16 || t == PTX_T_S32 || t == PTX_T_S64;
}

const char *ptx_space_name(ptx_space_t s)
{
    ptx_mod_t m = ptx_mod_from_space(s);
    return m == PTX_MOD_NONE ? "?" : mod_names[m];
}

const char *ptx_sreg_name(ptx_sreg_t s)
{
    return ((unsigned)s < PTX_SREG_COUNT) ? sreg_names[s] : "?";
}

/* ---------------------------------------------------------------------------------------------------
 * Instruction helpers.
 */

bool ptx_insn_has(const ptx_insn_t *in, ptx_mod_t m)
{
    for (unsigned i = 0; i < in->nmods && i < PTX_MAX_MODS; i++)
        if (in->mods[i] == m) return true;
    return false;
}

ptx_space_t ptx_insn_space(const ptx_insn_t *in)
{
    for (unsigned i = 0; i < in->nmods && i < PTX_MAX_MODS; i++) {
        ptx_space_t s = ptx_mod_space((ptx_mod_t)in->mods[i]);
        if (s == PTX_SPACE_NONE) continue;
        if (s == PTX_SPACE_SHARED_CTA) return PTX_SPACE_SHARED;
        if (s == PTX_SPACE_PARAM_ENTRY || s == PTX_SPACE_PARAM_FUNC) return PTX_SPACE_PARAM;
        return s;
    }
    return PTX_SPACE_NONE;
}

unsigned ptx_insn_types(const ptx_insn_t *in, ptx_type_t types[3])
{
    unsigned n = 0;
    for (unsigned i = 0; i < in->nmods && i < PTX_MAX_MODS && n < 3; i++) {
        ptx_type_t t = ptx_mod_type((ptx_mod_t)in->mods[i]);
        if (t != PTX_T_NONE) types[n++] = t;
    }
    return n;
}

ptx_mod_t ptx_insn_mod_of_class(const ptx_insn_t *in, ptx_modclass_t c)
{
    for (unsigned i = 0; i < in->nmods && i < PTX_MAX_MODS; i++)
        if (ptx_mod_class((ptx_mod_t)in->mods[i]) == c) return (ptx_mod_t)in->mods[i];
    return PTX_MOD_NONE;
}

unsigned ptx_insn_vec(const ptx_insn_t *in)
{
    if (ptx_insn_has(in, PTX_MOD_V2)) return 2;
    if (ptx_insn_has(in, PTX_MOD_V4)) return 4;
    if (ptx_insn_has(in, PTX_MOD_V8)) return 8;
    return 1;
}

unsigned ptx_insn_access_bytes(const ptx_insn_t *in)
{
    switch (in->opc) {
    case PTX_OPC_LD: case PTX_OPC_LDU: case PTX_OPC_ST: case PTX_OPC_ATOM: case PTX_OPC_RED:
        break;
    default:
        return 0;
    }
    /* The element type is the last TYPE modifier (ld/st/atom/red carry exactly one). */
    ptx_type_t t = PTX_T_NONE;
    for (unsigned i = 0; i < in->nmods && i < PTX_MAX_MODS; i++) {
        ptx_type_t u = ptx_mod_type((ptx_mod_t)in->mods[i]);
        if (u != PTX_T_NONE) t = u;
    }
    return ptx_type_bytes(t) * ptx_insn_vec(in);
}

int ptx_insn_addr_op(const ptx_insn_t *in)
{
    for (unsigned i = 0; i < in->nops && i < PTX_MAX_OPS; i++)
        if (in->ops[i].kind == PTX_OPK_ADDR) return (int)i;
    return -1;
}

bool ptx_insn_is_terminator(const ptx_insn_t *in)
{
    return in->opc == PTX_OPC_BRA || in->opc == PTX_OPC_BRX || in->opc == PTX_OPC_RET ||
           in->opc == PTX_OPC_EXIT || in->opc == PTX_OPC_TRAP;
}

/* Whether ops[0] of in is a destination. Opcodes that only write memory, transfer control or
 * synchronise have none; bar/barrier have one only in their .red form; for the rest, ops[0] is the
 * destination when it is a register, a pair or a vector (mbarrier.init [a], n writes no register). */
static bool has_dest(const ptx_insn_t *in)
{
    if (in->nops == 0) return false;
    switch (in->opc) {
    case PTX_OPC_ST: case PTX_OPC_RED: case PTX_OPC_BRA: case PTX_OPC_BRX: case PTX_OPC_RET:
    case PTX_OPC_EXIT: case PTX_OPC_TRAP: case PTX_OPC_BRKPT: case PTX_OPC_MEMBAR: case PTX_OPC_FENCE:
    case PTX_OPC_CALL: case PTX_OPC_PREFETCH: case PTX_OPC_PREFETCHU: case PTX_OPC_DISCARD:
    case PTX_OPC_PMEVENT: case PTX_OPC_NANOSLEEP: case PTX_OPC_CP: case PTX_OPC_SUST:
    case PTX_OPC_SURED:
        return false;
    case PTX_OPC_BAR: case PTX_OPC_BARRIER:
        if (!ptx_insn_has(in, PTX_MOD_RED)) return false;
        break;
    default:
        break;
    }
    uint8_t k = in->ops[0].kind;
    return k == PTX_OPK_REG || k == PTX_OPK_PAIR || k == PTX_OPK_VEC;
}

/* Append r to out[0..*n) unless present; counts only what fits in cap. */
static void add_reg(uint32_t *out, unsigned cap, unsigned *n, uint32_t r)
{
    for (unsigned i = 0; i < *n; i++)
        if (out[i] == r) return;
    if (*n < cap) out[(*n)++] = r;
}

/* The registers among the pool elements of a VEC or LIST operand. */
static void add_slice_regs(const ptx_func_t *f, const ptx_operand_t *op, uint32_t *out, unsigned cap,
                           unsigned *n)
{
    if (f == NULL || f->pool == NULL) return;
    for (uint32_t i = 0; i < op->count; i++) {
        uint64_t k = (uint64_t)op->first + i;
        if (k >= f->npool) break;
        const ptx_operand_t *e = &f->pool[k];
        if (e->kind == PTX_OPK_REG) add_reg(out, cap, n, e->reg);
        else if (e->kind == PTX_OPK_ADDR && e->base == PTX_BASE_REG) add_reg(out, cap, n, e->reg);
    }
}

unsigned ptx_insn_defs(const ptx_insn_t *in, const ptx_func_t *f, uint32_t *out, unsigned cap)
{
    unsigned n = 0;
    if (in->opc == PTX_OPC_CALL) {
        /* nvcc's ABI returns through .param variables (the following ld.param writes the register);
         * only a register written directly in the return list is a definition of the call. */
        if (in->nops >= 1 && in->ops[0].kind == PTX_OPK_LIST) {
            const ptx_operand_t *l = &in->ops[0];
            for (uint32_t i = 0; f != NULL && f->pool != NULL && i < l->count; i++) {
                uint64_t k = (uint64_t)l->first + i;
                if (k >= f->npool) break;
                if (f->pool[k].kind == PTX_OPK_REG) add_reg(out, cap, &n, f->pool[k].reg);
            }
        }
        return n;
    }
    if (!has_dest(in)) return 0;
    const ptx_operand_t *d = &in->ops[0];
    if (d->kind == PTX_OPK_REG) add_reg(out, cap, &n, d->reg);
    else if (d->kind == PTX_OPK_PAIR) {
        add_reg(out, cap, &n, d->reg);
        add_reg(out, cap, &n, d->reg2);
    } else if (d->kind == PTX_OPK_VEC && f != NULL && f->pool != NULL) {
        for (uint32_t i = 0; i < d->count; i++) {
            uint64_t k = (uint64_t)d->first + i;
            if (k >= f->npool) break;
            if (f->pool[k].kind == PTX_OPK_REG) add_reg(out, cap, &n, f->pool[k].reg);
        }
    }
    return n;
}

bool ptx_insn_writes(const ptx_insn_t *in, const ptx_func_t *f, uint32_t r)
{
    uint32_t defs[16];
    unsigned n = ptx_insn_defs(in, f, defs, 16);
    for (unsigned i = 0; i < n; i++)
        if (defs[i] == r) return true;
    return false;
}

unsigned ptx_insn_uses(const ptx_insn_t *in, const ptx_func_t *f, uint32_t *out, unsigned cap)
{
    unsigned n = 0;
    if (in->guard != PTX_NOREG) add_reg(out, cap, &n, in->guard);
    unsigned first = 0;
    if (in->opc == PTX_OPC_CALL) first = 1; /* ops[0]: the return list, written not read */
    else if (has_dest(in)) first = 1;
    for (unsigned i = first; i < in->nops && i < PTX_MAX_OPS; i++) {
        const ptx_operand_t *o = &in->ops[i];
        switch (o->kind) {
        case PTX_OPK_REG:
            add_reg(out, cap, &n, o->reg);
            break;
        case PTX_OPK_PAIR:
            add_reg(out, cap, &n, o->reg);
            add_reg(out, cap, &n, o->reg2);
            break;
        case PTX_OPK_ADDR:
            if (o->base == PTX_BASE_REG) add_reg(out, cap, &n, o->reg);
            break;
        case PTX_OPK_VEC:
        case PTX_OPK_LIST:
            add_slice_regs(f, o, out, cap, &n);
            break;
        default:
            break;
        }
    }
    return n;
}

/* ---------------------------------------------------------------------------------------------------
 * Growth: every array doubles; indices stay valid, pointers into the arrays do not.
 */

/* Make room for one more element in *arr (n used, *cap allocated, elem bytes each). */
static int grow(void **arr, uint32_t n, uint32_t *cap, size_t elem)
{
    if (n < *cap) return 0;
    if (*cap >= UINT32_MAX / 2) return -1;
    uint32_t nc = *cap ? *cap * 2 : 8;
    if ((size_t)nc > SIZE_MAX / elem) return -1;
    void *p = realloc(*arr, (size_t)nc * elem);
    if (p == NULL) return -1;
    *arr = p;
    *cap = nc;
    return 0;
}

#define GROW(arr, n, cap) grow((void **)&(arr), (n), &(cap), sizeof *(arr))

uint32_t ptx_func_add_insn(ptx_func_t *f, const ptx_insn_t *in)
{
    if (GROW(f->insns, f->ninsns, f->cap_insns)) return UINT32_MAX;
    f->insns[f->ninsns] = *in;
    return f->ninsns++;
}

uint32_t ptx_func_add_stmt(ptx_func_t *f, const ptx_stmt_t *st)
{
    if (GROW(f->stmts, f->nstmts, f->cap_stmts)) return UINT32_MAX;
    f->stmts[f->nstmts] = *st;
    return f->nstmts++;
}

uint32_t ptx_func_add_reg(ptx_func_t *f, uint32_t name, ptx_type_t type, uint32_t scope)
{
    if (GROW(f->regs, f->nregs, f->cap_regs)) return UINT32_MAX;
    ptx_reg_t *r = &f->regs[f->nregs];
    memset(r, 0, sizeof *r);
    r->name = name;
    r->type = (uint8_t)type;
    r->vec = 1;
    r->scope = scope;
    return f->nregs++;
}

uint32_t ptx_func_add_label(ptx_func_t *f, uint32_t name)
{
    if (GROW(f->labels, f->nlabels, f->cap_labels)) return UINT32_MAX;
    ptx_label_t *l = &f->labels[f->nlabels];
    memset(l, 0, sizeof *l);
    l->name = name;
    l->stmt = UINT32_MAX;
    return f->nlabels++;
}

uint32_t ptx_func_add_pool(ptx_func_t *f, const ptx_operand_t *ops, uint32_t n)
{
    if (n > UINT32_MAX - f->npool) return UINT32_MAX;
    uint64_t need = (uint64_t)f->npool + n;
    if (need > f->cap_pool) {
        uint64_t nc = f->cap_pool ? f->cap_pool : 16;
        while (nc < need) nc *= 2;
        if (nc > UINT32_MAX || nc > SIZE_MAX / sizeof *f->pool) return UINT32_MAX;
        ptx_operand_t *p = realloc(f->pool, (size_t)nc * sizeof *p);
        if (p == NULL) return UINT32_MAX;
        f->pool = p;
        f->cap_pool = (uint32_t)nc;
    }
    uint32_t first = f->npool;
    if (n) memcpy(&f->pool[first], ops, (size_t)n * sizeof *ops);
    f->npool += n;
    return first;
}

uint32_t ptx_module_add_sym(ptx_module_t *m, const ptx_sym_t *s)
{
    if (GROW(m->syms, m->nsyms, m->cap_syms)) return UINT32_MAX;
    m->syms[m->nsyms] = *s;
    return m->nsyms++;
}

uint32_t ptx_module_add_func(ptx_module_t *m)
{
    if (GROW(m->funcs, m->nfuncs, m->cap_funcs)) return UINT32_MAX;
    memset(&m->funcs[m->nfuncs], 0, sizeof m->funcs[0]);
    return m->nfuncs++;
}

uint32_t ptx_module_add_item(ptx_module_t *m, const ptx_item_t *it)
{
    if (GROW(m->items, m->nitems, m->cap_items)) return UINT32_MAX;
    m->items[m->nitems] = *it;
    return m->nitems++;
}

/* ---------------------------------------------------------------------------------------------------
 * Strings. Interning keeps one copy of each distinct string, so two names are equal exactly when
 * their ids are (the parser's scope tables rely on it).
 */

static uint32_t hash_bytes(const char *s, size_t n)
{
    /* FNV-1a, 32-bit (Fowler, Noll, Vo; the published offset basis and prime). */
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < n; i++) {
        h ^= (uint8_t)s[i];
        h *= 16777619u;
    }
    return h;
}

static bool str_equals(const ptx_module_t *m, uint32_t id, const char *s, size_t n)
{
    /* strncmp stops at the stored string's NUL, so a shorter stored string is never read past */
    const char *t = m->strtab + m->str_off[id];
    return strncmp(t, s, n) == 0 && t[n] == '\0';
}

/* The slot of s in the hash: the slot holding it, or the empty slot where it would go. */
static uint32_t hash_slot(const ptx_module_t *m, const char *s, size_t n)
{
    uint32_t mask = m->str_hash_cap - 1;
    uint32_t i = hash_bytes(s, n) & mask;
    while (m->str_hash[i] != 0 && !str_equals(m, m->str_hash[i] - 1, s, n)) i = (i + 1) & mask;
    return i;
}

static int rehash(ptx_module_t *m, uint32_t cap)
{
    uint32_t *h = calloc(cap, sizeof *h);
    if (h == NULL) return -1;
    free(m->str_hash);
    m->str_hash = h;
    m->str_hash_cap = cap;
    for (uint32_t id = 0; id < m->nstrs; id++) {
        const char *t = m->strtab + m->str_off[id];
        size_t n = strlen(t);
        uint32_t i = hash_bytes(t, n) & (cap - 1);
        while (h[i] != 0) i = (i + 1) & (cap - 1);
        h[i] = id + 1;
    }
    return 0;
}

/* Add a string without looking for it first (the caller did). */
static uint32_t str_append(ptx_module_t *m, const char *s, size_t n)
{
    if (n > UINT32_MAX - 1 || m->strtab_len > UINT32_MAX - n - 1) return UINT32_MAX;
    if (m->strtab_len + n + 1 > m->strtab_cap) {
        size_t nc = m->strtab_cap ? m->strtab_cap : 256;
        while (nc < m->strtab_len + n + 1) nc *= 2;
        char *t = realloc(m->strtab, nc);
        if (t == NULL) return UINT32_MAX;
        m->strtab = t;
        m->strtab_cap = nc;
    }
    if (GROW(m->str_off, m->nstrs, m->cap_strs)) return UINT32_MAX;
    if (n) memcpy(m->strtab + m->strtab_len, s, n);
    m->strtab[m->strtab_len + n] = '\0';
    m->str_off[m->nstrs] = (uint32_t)m->strtab_len;
    m->strtab_len += n + 1;
    return m->nstrs++;
}

uint32_t ptx_intern(ptx_module_t *m, const char *s, size_t n)
{
    /* Strings are NUL-terminated in the table: an embedded NUL ends the stored string. */
    const char *z = n ? memchr(s, '\0', n) : NULL;
    if (z != NULL) n = (size_t)(z - s);
    if (m->nstrs == 0 && str_append(m, "", 0) == UINT32_MAX) return UINT32_MAX;
    if ((uint64_t)(m->nstrs + 1) * 2 > m->str_hash_cap) {
        uint64_t nc = m->str_hash_cap ? (uint64_t)m->str_hash_cap * 2 : 1024;
        while (nc < (uint64_t)(m->nstrs + 1) * 2) nc *= 2;
        if (nc > UINT32_MAX || rehash(m, (uint32_t)nc)) return UINT32_MAX;
    }
    uint32_t slot = hash_slot(m, s, n);
    if (m->str_hash[slot] != 0) return m->str_hash[slot] - 1;
    uint32_t id = str_append(m, s, n);
    if (id == UINT32_MAX) return UINT32_MAX;
    m->str_hash[slot] = id + 1;
    return id;
}

/* The id of s if it is interned, else UINT32_MAX (nothing is added). */
static uint32_t str_find(const ptx_module_t *m, const char *s, size_t n)
{
    if (m->str_hash_cap == 0 || m->str_hash == NULL) {
        for (uint32_t id = 0; id < m->nstrs; id++)
            if (str_equals(m, id, s, n)) return id;
        return UINT32_MAX;
    }
    uint32_t slot = hash_slot(m, s, n);
    return m->str_hash[slot] ? m->str_hash[slot] - 1 : UINT32_MAX;
}

const char *ptx_str(const ptx_module_t *m, uint32_t id)
{
    if (m == NULL || id >= m->nstrs || m->strtab == NULL) return "";
    return m->strtab + m->str_off[id];
}

const char *ptx_sym_name(const ptx_module_t *m, uint32_t sym)
{
    if (m == NULL || sym >= m->nsyms) return "";
    return ptx_str(m, m->syms[sym].name);
}

const char *ptx_reg_name(const ptx_module_t *m, const ptx_func_t *f, uint32_t reg)
{
    if (f == NULL || reg >= f->nregs) return "";
    return ptx_str(m, f->regs[reg].name);
}

uint32_t ptx_find_global(const ptx_module_t *m, const char *name)
{
    if (m == NULL || name == NULL) return PTX_NOSYM;
    uint32_t id = str_find(m, name, strlen(name));
    if (id == UINT32_MAX) return PTX_NOSYM;
    for (uint32_t s = 0; s < m->nsyms; s++)
        if (m->syms[s].func < 0 && m->syms[s].name == id) return s;
    return PTX_NOSYM;
}

const ptx_file_t *ptx_find_file(const ptx_module_t *m, uint32_t number)
{
    if (m == NULL || number == 0) return NULL;
    for (uint32_t i = 0; i < m->nfiles; i++)
        if (m->files[i].index == number) return &m->files[i];
    return NULL;
}

int ptx_find_func(const ptx_module_t *m, const char *name)
{
    uint32_t s = ptx_find_global(m, name);
    if (s == PTX_NOSYM || m->syms[s].kind != PTX_SYM_FUNC || m->syms[s].fn_index >= m->nfuncs) return -1;
    return (int)m->syms[s].fn_index;
}

/* ---------------------------------------------------------------------------------------------------
 * Freeing.
 */

void ptx_module_free(ptx_module_t *m)
{
    if (m == NULL) return;
    for (uint32_t i = 0; i < m->nfuncs; i++) {
        ptx_func_t *f = &m->funcs[i];
        free(f->params);
        free(f->rets);
        free(f->stmts);
        free(f->insns);
        free(f->regs);
        free(f->labels);
        free(f->pool);
    }
    free(m->items);
    free(m->syms);
    free(m->funcs);
    free(m->inits);
    free(m->files);
    free(m->strtab);
    free(m->str_off);
    free(m->str_hash);
    free(m->name);
    free(m);
}

/* ---------------------------------------------------------------------------------------------------
 * Validation.
 */

__attribute__((format(printf, 3, 4))) static int invalid(const ptx_module_t *m, ptx_err_t *err, const char *fmt, ...)
{
    if (err != NULL) {
        char body[400];
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(body, sizeof body, fmt, ap);
        va_end(ap);
        snprintf(err->msg, sizeof err->msg, "%s: %s", (m && m->name) ? m->name : "<ptx>", body);
        err->pos.line = err->pos.col = 0;
    }
    return -1;
}

static bool slice_ok(const ptx_func_t *f, const ptx_operand_t *o)
{
    return (uint64_t)o->first + o->count <= f->npool;
}

/* One operand; in_pool: an element of a VEC/LIST (which may not nest). */
static const char *operand_problem(const ptx_module_t *m, const ptx_func_t *f, const ptx_operand_t *o, bool in_pool)
{
    switch (o->kind) {
    case PTX_OPK_NONE: case PTX_OPK_IMM: case PTX_OPK_SINK:
        return NULL;
    case PTX_OPK_REG:
        return o->reg < f->nregs ? NULL : "register id out of range";
    case PTX_OPK_PAIR:
        return (o->reg < f->nregs && o->reg2 < f->nregs) ? NULL : "register id out of range in a pair";
    case PTX_OPK_FIMM:
        return (o->fwidth == 32 || o->fwidth == 64) ? NULL : "float immediate width is not 32 or 64";
    case PTX_OPK_SREG:
        return (o->sreg > PTX_SREG_NONE && o->sreg < PTX_SREG_COUNT) ? NULL : "special register out of range";
    case PTX_OPK_SYM:
        return o->sym < m->nsyms ? NULL : "symbol id out of range";
    case PTX_OPK_ADDR:
        if (o->base == PTX_BASE_REG) return o->reg < f->nregs ? NULL : "address register out of range";
        if (o->base == PTX_BASE_SYM) return o->sym < m->nsyms ? NULL : "address symbol out of range";
        return o->base == PTX_BASE_NONE ? NULL : "unknown address base kind";
    case PTX_OPK_LABEL:
        return o->label < f->nlabels ? NULL : "label id out of range";
    case PTX_OPK_VEC: case PTX_OPK_LIST:
        if (in_pool) return "a vector or list inside a vector or list";
        if (!slice_ok(f, o)) return "operand pool slice out of range";
        for (uint32_t i = 0; i < o->count; i++) {
            const char *e = operand_problem(m, f, &f->pool[o->first + i], true);
            if (e != NULL) return e;
        }
        return NULL;
    default:
        return "unknown operand kind";
    }
}

int ptx_module_validate(const ptx_module_t *m, ptx_err_t *err)
{
    if (m == NULL) return invalid(m, err, "no module");
    for (uint32_t i = 0; i < m->nitems; i++) {
        const ptx_item_t *it = &m->items[i];
        switch (it->kind) {
        case PTX_ITEM_VERSION: case PTX_ITEM_ADDRESS_SIZE:
            break;
        case PTX_ITEM_TARGET: case PTX_ITEM_SECTION:
            if (it->index >= m->nstrs) return invalid(m, err, "item %u: string id out of range", i);
            break;
        case PTX_ITEM_VAR:
            if (it->index >= m->nsyms || m->syms[it->index].kind != PTX_SYM_VAR || m->syms[it->index].func >= 0)
                return invalid(m, err, "item %u: not a module-scope variable", i);
            break;
        case PTX_ITEM_FUNC:
            if (it->index >= m->nfuncs) return invalid(m, err, "item %u: function index out of range", i);
            break;
        case PTX_ITEM_FILE:
            if (it->index >= m->nfiles) return invalid(m, err, "item %u: file index out of range", i);
            break;
        default:
            return invalid(m, err, "item %u: unknown kind %u", i, it->kind);
        }
    }
    for (uint32_t i = 0; i < m->nfiles; i++)
        if (m->files[i].name >= m->nstrs) return invalid(m, err, "file %u: name out of range", i);
    for (uint32_t s = 0; s < m->nsyms; s++) {
        const ptx_sym_t *y = &m->syms[s];
        if (y->name >= m->nstrs) return invalid(m, err, "symbol %u: name out of range", s);
        if (y->kind > PTX_SYM_FUNC || y->space >= PTX_SPACE_COUNT || y->type >= PTX_T_COUNT || y->ndims > 4 ||
            y->link > PTX_LINK_COMMON || y->ptr_space >= PTX_SPACE_COUNT)
            return invalid(m, err, "symbol '%s': field out of range", ptx_str(m, y->name));
        if (y->kind == PTX_SYM_FUNC && y->fn_index >= m->nfuncs)
            return invalid(m, err, "symbol '%s': function index out of range", ptx_str(m, y->name));
        if (y->func >= 0 && (uint32_t)y->func >= m->nfuncs)
            return invalid(m, err, "symbol '%s': scope function out of range", ptx_str(m, y->name));
        if ((uint64_t)y->first_init + y->ninit > m->ninits && y->ninit > 0)
            return invalid(m, err, "symbol '%s': initializer slice out of range", ptx_str(m, y->name));
        for (uint32_t k = 0; k < y->ninit; k++) {
            const ptx_init_t *e = &m->inits[y->first_init + k];
            if (e->kind > PTX_INIT_GENERIC) return invalid(m, err, "symbol '%s': unknown initializer kind", ptx_str(m, y->name));
            if ((e->kind == PTX_INIT_SYM || e->kind == PTX_INIT_GENERIC) && e->sym >= m->nsyms)
                return invalid(m, err, "symbol '%s': initializer symbol out of range", ptx_str(m, y->name));
            if (e->kind == PTX_INIT_FLOAT && e->fwidth != 32 && e->fwidth != 64)
                return invalid(m, err, "symbol '%s': initializer float width", ptx_str(m, y->name));
        }
    }
    for (uint32_t fi = 0; fi < m->nfuncs; fi++) {
        const ptx_func_t *f = &m->funcs[fi];
        if (f->sym >= m->nsyms || m->syms[f->sym].kind != PTX_SYM_FUNC)
            return invalid(m, err, "function %u: symbol is not a function", fi);
        const char *fn = ptx_str(m, m->syms[f->sym].name);
        for (uint32_t k = 0; k < f->nparams; k++)
            if (f->params[k] >= m->nsyms) return invalid(m, err, "func '%s': parameter %u out of range", fn, k);
        for (uint32_t k = 0; k < f->nrets; k++)
            if (f->rets[k] >= m->nsyms) return invalid(m, err, "func '%s': return parameter %u out of range", fn, k);
        for (uint32_t r = 0; r < f->nregs; r++)
            if (f->regs[r].name >= m->nstrs || f->regs[r].type >= PTX_T_COUNT ||
                (f->regs[r].scope != 0 && f->regs[r].scope >= f->nstmts))
                return invalid(m, err, "func '%s': register %u: field out of range", fn, r);
        for (uint32_t l = 0; l < f->nlabels; l++) {
            const ptx_label_t *lb = &f->labels[l];
            if (lb->name >= m->nstrs) return invalid(m, err, "func '%s': label %u: name out of range", fn, l);
            if (lb->stmt == UINT32_MAX) continue;
            if (lb->stmt >= f->nstmts ||
                (f->stmts[lb->stmt].kind != PTX_ST_LABEL && f->stmts[lb->stmt].kind != PTX_ST_PROTOTYPE) ||
                f->stmts[lb->stmt].index != l)
                return invalid(m, err, "func '%s': label '%s' does not point at its statement", fn, ptx_str(m, lb->name));
        }
        for (uint32_t k = 0; k < f->npool; k++) {
            const char *e = operand_problem(m, f, &f->pool[k], true);
            if (e != NULL) return invalid(m, err, "func '%s': pool element %u: %s", fn, k, e);
        }
        for (uint32_t k = 0; k < f->nstmts; k++) {
            const ptx_stmt_t *st = &f->stmts[k];
            bool ok;
            switch (st->kind) {
            case PTX_ST_INSN: ok = st->index < f->ninsns; break;
            case PTX_ST_LABEL: ok = st->index < f->nlabels; break;
            case PTX_ST_PROTOTYPE: ok = st->index < f->nlabels && st->count < m->nstrs; break;
            case PTX_ST_SCOPE_BEGIN: case PTX_ST_SCOPE_END: ok = true; break;
            case PTX_ST_REGDECL: ok = (uint64_t)st->index + st->count <= f->nregs; break;
            case PTX_ST_VARDECL: ok = st->index < m->nsyms; break;
            case PTX_ST_LOC: ok = st->loc.fn_name < m->nstrs; break;
            case PTX_ST_PRAGMA: ok = st->index < m->nstrs; break;
            default: ok = false; break;
            }
            if (!ok) return invalid(m, err, "func '%s': statement %u (kind %u): index out of range", fn, k, st->kind);
        }
        for (uint32_t k = 0; k < f->ninsns; k++) {
            const ptx_insn_t *in = &f->insns[k];
            if (in->opc <= PTX_OPC_NONE || in->opc >= PTX_OPC_COUNT)
                return invalid(m, err, "func '%s': insn %u: opcode out of range", fn, k);
            if (in->nmods > PTX_MAX_MODS || in->nops > PTX_MAX_OPS)
                return invalid(m, err, "func '%s': insn %u: too many modifiers or operands", fn, k);
            for (unsigned j = 0; j < in->nmods; j++)
                if (in->mods[j] == PTX_MOD_NONE || in->mods[j] >= PTX_MOD_COUNT)
                    return invalid(m, err, "func '%s': insn %u: modifier out of range", fn, k);
            if (in->guard != PTX_NOREG && in->guard >= f->nregs)
                return invalid(m, err, "func '%s': insn %u: guard register out of range", fn, k);
            for (unsigned j = 0; j < in->nops; j++) {
                const char *e = operand_problem(m, f, &in->ops[j], false);
                if (e != NULL) return invalid(m, err, "func '%s': insn %u: operand %u: %s", fn, k, j + 1, e);
            }
            if (in->opc == PTX_OPC_CALL &&
                (in->nops != 4 || in->ops[0].kind != PTX_OPK_LIST || in->ops[2].kind != PTX_OPK_LIST ||
                 (in->ops[1].kind != PTX_OPK_SYM && in->ops[1].kind != PTX_OPK_REG)))
                return invalid(m, err, "func '%s': insn %u: call operands not in the fixed order", fn, k);
        }
    }
    return 0;
}
