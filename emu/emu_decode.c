/*
 * emu_decode.c — PTX IR to the interpreter's decoded form (emu_internal.h; docs/emulator.md §4.3).
 *
 * Every function is decoded once, when its module loads: operands become register-file slots
 * (registers, then constants, special registers, local-variable addresses, a sink and the carry flag),
 * memory operands become a base slot or a parameter-area offset plus a displacement, branches get their
 * target pc and their reconvergence pc (the first instruction of the branch block's immediate
 * post-dominator, ptx_cfg.h), calls get the parameter-area offsets of their arguments. Anything the
 * interpreter does not implement is refused here, before the first launch, with the PTX position.
 */
#include "emu_fp.h"
#include "emu_internal.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* Provisional slot tags, resolved when the function is complete. */
#define TAG_MASK 0xf0000000u
#define T_CONST 0x40000000u
#define T_SREG 0x50000000u
#define T_LOCAL 0x60000000u
#define T_SINK 0x70000000u
#define T_CC 0x70000001u

typedef struct {
    emu_module_t *m;
    const ptx_module_t *ir;
    char *msg;
    size_t cap;
    uint8_t *sym_pkind; /* 0 none, 1 kernel parameter buffer, 2 frame parameter area */
    uint32_t *sym_poff;
    uint32_t *sym_local; /* local offset of a .local variable in its function's frame */
    uint32_t npool, cap_pool;
} dec_t;

typedef struct {
    dec_t *D;
    emu_func_t *ef;
    const ptx_func_t *f;
    uint32_t fi;
    ptx_cfg_t *g;
    uint64_t *cv;
    uint32_t ncv, capcv;
    emu_sreg_slot_t *sr;
    uint32_t nsr, capsr;
    emu_local_slot_t *lo;
    uint32_t nlo, caplo;
    uint32_t *label_pc;
} fdec_t;

static int fail(fdec_t *F, const ptx_insn_t *in, const char *fmt, ...)
{
    dec_t *D = F->D;
    char body[384];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(body, sizeof body, fmt, ap);
    va_end(ap);
    if (in)
        snprintf(D->msg, D->cap, "%s:%u:%u: %s", D->m->name, in->pos.line, in->pos.col, body);
    else
        snprintf(D->msg, D->cap, "%s: %s", D->m->name, body);
    return -1;
}

static int grow(void **p, uint32_t *cap, uint32_t need, size_t elem)
{
    if (need <= *cap) return 0;
    uint32_t nc = *cap ? *cap : 16;
    while (nc < need) nc *= 2;
    void *np = realloc(*p, (size_t)nc * elem);
    if (np == NULL) return -1;
    *p = np;
    *cap = nc;
    return 0;
}

static uint32_t const_slot(fdec_t *F, uint64_t v)
{
    for (uint32_t i = 0; i < F->ncv; i++)
        if (F->cv[i] == v) return T_CONST | i;
    if (grow((void **)&F->cv, &F->capcv, F->ncv + 1, sizeof *F->cv)) return EMU_NONE;
    F->cv[F->ncv] = v;
    return T_CONST | F->ncv++;
}

static uint32_t sreg_slot(fdec_t *F, uint8_t sreg, uint8_t comp)
{
    for (uint32_t i = 0; i < F->nsr; i++)
        if (F->sr[i].sreg == sreg && F->sr[i].comp == comp) return T_SREG | i;
    if (grow((void **)&F->sr, &F->capsr, F->nsr + 1, sizeof *F->sr)) return EMU_NONE;
    F->sr[F->nsr].sreg = sreg;
    F->sr[F->nsr].comp = comp;
    F->sr[F->nsr].slot = 0;
    return T_SREG | F->nsr++;
}

static uint32_t local_slot(fdec_t *F, uint32_t off)
{
    for (uint32_t i = 0; i < F->nlo; i++)
        if (F->lo[i].local_off == off) return T_LOCAL | i;
    if (grow((void **)&F->lo, &F->caplo, F->nlo + 1, sizeof *F->lo)) return EMU_NONE;
    F->lo[F->nlo].local_off = off;
    F->lo[F->nlo].slot = 0;
    return T_LOCAL | F->nlo++;
}

static bool is_float_t(ptx_type_t t)
{
    return t == PTX_T_F32 || t == PTX_T_F64 || t == PTX_T_F16 || t == PTX_T_F16X2 || t == PTX_T_BF16 ||
           t == PTX_T_BF16X2;
}

static unsigned reg_width(const ptx_func_t *f, uint32_t r)
{
    if (r >= f->nregs) return 8;
    unsigned b = ptx_type_bytes((ptx_type_t)f->regs[r].type);
    return b ? b : 1;
}

/* A float literal's bits in type t. */
static uint64_t fimm_bits(const ptx_operand_t *o, ptx_type_t t)
{
    double dv;
    float fv;
    if (o->fwidth == 32) {
        fv = emu_as_f32(o->fbits);
        dv = fv;
    } else {
        dv = emu_as_f64(o->fbits);
        fv = (float)dv;
    }
    switch (t) {
    case PTX_T_F64: return emu_f64_bits(dv);
    case PTX_T_F32: return emu_f32_bits(fv);
    case PTX_T_F16: return emu_f32_to_f16(fv, ER_RN);
    case PTX_T_BF16: return emu_f32_to_bf16(fv, ER_RN);
    default: return o->fbits; /* mov.b32 %r, 0f3F800000: the bit pattern */
    }
}

/* The value of a symbol used as an operand, as a slot (constant or frame-local address). */
static int sym_value_slot(fdec_t *F, const ptx_insn_t *in, uint32_t sym, int64_t off, uint32_t *slot)
{
    dec_t *D = F->D;
    const ptx_module_t *ir = D->ir;
    if (sym >= ir->nsyms) return fail(F, in, "internal: symbol out of range");
    const ptx_sym_t *s = &ir->syms[sym];
    if (s->kind == PTX_SYM_VAR && s->space == PTX_SPACE_LOCAL) {
        *slot = local_slot(F, D->sym_local[sym] + (uint32_t)off);
        return *slot == EMU_NONE ? fail(F, in, "out of memory") : 0;
    }
    if (s->kind == PTX_SYM_FUNC) {
        *slot = const_slot(F, UINT64_C(0xF00000000000) + (uint64_t)s->fn_index * 16u + (uint64_t)off);
        return 0;
    }
    if (D->m->sym_has_value[sym]) {
        *slot = const_slot(F, D->m->sym_value[sym] + (uint64_t)off);
        return *slot == EMU_NONE ? fail(F, in, "out of memory") : 0;
    }
    return fail(F, in, "unsupported: the address of '%s' (a %s %s) used as a value", ptx_sym_name(ir, sym),
                ptx_space_name((ptx_space_t)s->space), s->kind == PTX_SYM_PARAM ? "parameter" : "variable");
}

/* A source operand as a slot; t is the type immediates are read as. */
static int d_src(fdec_t *F, const ptx_insn_t *in, const ptx_operand_t *o, ptx_type_t t, uint32_t *slot)
{
    switch (o->kind) {
    case PTX_OPK_REG:
        if (o->reg >= F->f->nregs) return fail(F, in, "internal: register out of range");
        *slot = o->reg;
        return 0;
    case PTX_OPK_IMM:
        if (is_float_t(t)) {
            ptx_operand_t fo = *o;
            fo.fwidth = 64;
            fo.fbits = emu_f64_bits((double)o->imm);
            *slot = const_slot(F, fimm_bits(&fo, t));
        } else {
            *slot = const_slot(F, (uint64_t)o->imm);
        }
        break;
    case PTX_OPK_FIMM: *slot = const_slot(F, fimm_bits(o, t)); break;
    case PTX_OPK_SREG:
        if (o->sreg == PTX_SREG_CLOCK || o->sreg == PTX_SREG_CLOCK64 || o->sreg == PTX_SREG_CLOCK_HI ||
            o->sreg == PTX_SREG_GLOBALTIMER || o->sreg == PTX_SREG_GLOBALTIMER_LO ||
            o->sreg == PTX_SREG_GLOBALTIMER_HI)
            return fail(F, in, "unsupported: %s as an operand of anything but mov", ptx_sreg_name((ptx_sreg_t)o->sreg));
        *slot = sreg_slot(F, o->sreg, o->sreg_comp);
        break;
    case PTX_OPK_SYM: return sym_value_slot(F, in, o->sym, o->imm, slot);
    case PTX_OPK_SINK: *slot = T_SINK; return 0;
    default: return fail(F, in, "unsupported operand form for %s", ptx_opcode_name(in->opc));
    }
    return *slot == EMU_NONE ? fail(F, in, "out of memory") : 0;
}

static int d_dst(fdec_t *F, const ptx_insn_t *in, const ptx_operand_t *o, uint32_t *slot)
{
    if (o->kind == PTX_OPK_SINK) {
        *slot = T_SINK;
        return 0;
    }
    if (o->kind != PTX_OPK_REG) return fail(F, in, "expected a register as the destination of %s", ptx_opcode_name(in->opc));
    if (o->reg >= F->f->nregs) return fail(F, in, "internal: register out of range");
    *slot = o->reg;
    return 0;
}

static int rounding(const ptx_insn_t *in)
{
    switch (ptx_insn_mod_of_class(in, PTX_MC_ROUND)) {
    case PTX_MOD_RN: return ER_RN;
    case PTX_MOD_RZ: return ER_RZ;
    case PTX_MOD_RM: return ER_RM;
    case PTX_MOD_RP: return ER_RP;
    case PTX_MOD_RNI: return ER_RNI;
    case PTX_MOD_RZI: return ER_RZI;
    case PTX_MOD_RMI: return ER_RMI;
    case PTX_MOD_RPI: return ER_RPI;
    case PTX_MOD_RNA: return ER_RNA;
    case PTX_MOD_RS: return ER_RS;
    default: return ER_NONE;
    }
}

/* Memory operand of in (ADDR) in state space sp into e (mbase, a, off). */
static int d_addr(fdec_t *F, const ptx_insn_t *in, const ptx_operand_t *o, ptx_space_t sp, emu_insn_t *e)
{
    dec_t *D = F->D;
    if (o->kind != PTX_OPK_ADDR) return fail(F, in, "expected a memory operand [..]");
    e->off = o->imm;
    if (o->base == PTX_BASE_REG) {
        if (sp == PTX_SPACE_PARAM)
            return fail(F, in, "unsupported: a parameter-space access through a register address");
        e->mbase = MB_SLOT;
        e->a = o->reg;
        return 0;
    }
    if (o->base == PTX_BASE_NONE) {
        e->mbase = MB_SLOT;
        e->a = const_slot(F, 0);
        return 0;
    }
    uint32_t sym = o->sym;
    if (sym >= D->ir->nsyms) return fail(F, in, "internal: symbol out of range");
    if (sp == PTX_SPACE_PARAM) {
        if (D->sym_pkind[sym] == 1) {
            e->mbase = MB_PARAM_KERNEL;
            e->off += D->sym_poff[sym];
            return 0;
        }
        if (D->sym_pkind[sym] == 2) {
            e->mbase = MB_PARAM_FRAME;
            e->off += D->sym_poff[sym];
            return 0;
        }
        return fail(F, in, "'%s' is not a parameter of this function", ptx_sym_name(D->ir, sym));
    }
    e->mbase = MB_SLOT;
    if (sym_value_slot(F, in, sym, 0, &e->a)) return -1;
    return 0;
}

static uint8_t cmp_of(const ptx_insn_t *in)
{
    ptx_mod_t c = ptx_insn_mod_of_class(in, PTX_MC_CMP);
    return (uint8_t)(c ? c - PTX_MOD_EQ + 1 : 0); /* 1 = EQ ... in PTX_MODIFIERS order */
}

static uint8_t bool_of(const ptx_insn_t *in)
{
    ptx_mod_t c = ptx_insn_mod_of_class(in, PTX_MC_BOOL);
    return (uint8_t)(c ? c - PTX_MOD_AND + 1 : 0); /* 1 AND, 2 OR, 3 XOR */
}

static bool starts_with(const char *s, const char *p) { return strncmp(s, p, strlen(p)) == 0; }

/* GPUArmor classification of an instruction by the names the pass uses (docs/compiler.md §5). */
static uint8_t ga_class(fdec_t *F, const ptx_insn_t *in)
{
    const ptx_module_t *ir = F->D->ir;
    if (in->opc == PTX_OPC_CALL && in->ops[1].kind == PTX_OPK_SYM &&
        starts_with(ptx_sym_name(ir, in->ops[1].sym), "__ga_"))
        return GA_INSN;
    for (unsigned k = 0; k < in->nops; k++)
        if (in->ops[k].kind == PTX_OPK_ADDR && in->ops[k].base == PTX_BASE_SYM &&
            starts_with(ptx_sym_name(ir, in->ops[k].sym), "__ga_"))
            return GA_OVERHEAD;
    uint32_t defs[8];
    unsigned nd = ptx_insn_defs(in, F->f, defs, 8);
    for (unsigned k = 0; k < nd; k++) {
        const char *rn = ptx_reg_name(ir, F->f, defs[k]);
        if (starts_with(rn, "%ga_md")) return GA_MOV;
        if (starts_with(rn, "%ga_")) return GA_OVERHEAD;
    }
    return GA_NO;
}

static int push_pool(dec_t *D, uint32_t v)
{
    if (grow((void **)&D->m->pool, &D->cap_pool, D->npool + 1, sizeof *D->m->pool)) return -1;
    D->m->pool[D->npool++] = v;
    D->m->npool = D->npool;
    return 0;
}

/* Decode one instruction into e. pc is its own pc. */
static int decode_insn(fdec_t *F, const ptx_insn_t *in, uint32_t insn_id, uint32_t pc, emu_insn_t *e)
{
    dec_t *D = F->D;
    const ptx_module_t *ir = D->ir;
    memset(e, 0, sizeof *e);
    e->guard = e->d = e->d2 = e->a = e->b = e->c = e->e = EMU_NONE;
    for (int k = 0; k < 8; k++) e->v[k] = EMU_NONE;
    e->ir = insn_id;
    e->fn = F->fi;
    e->vec = 1;
    if (in->guard != PTX_NOREG) {
        e->flags |= EF_GUARD;
        if (in->guard_neg) e->flags |= EF_GUARD_NEG;
        e->guard = in->guard;
    }
    ptx_type_t ts[3] = {PTX_T_NONE, PTX_T_NONE, PTX_T_NONE};
    unsigned nt = ptx_insn_types(in, ts);
    ptx_type_t t = nt ? ts[nt - 1] : PTX_T_NONE;
    e->t = (uint8_t)t;
    e->rnd = (uint8_t)rounding(in);
    if (ptx_insn_has(in, PTX_MOD_SAT)) e->flags |= EF_SAT;
    if (ptx_insn_has(in, PTX_MOD_FTZ)) e->flags |= EF_FTZ;
    if (ptx_insn_has(in, PTX_MOD_CC)) e->flags |= EF_CC;
    if (ptx_insn_has(in, PTX_MOD_APPROX)) e->flags |= EF_APPROX;
    if (ptx_insn_has(in, PTX_MOD_UNI)) e->flags |= EF_UNI;
    e->ga = ga_class(F, in);
    const ptx_operand_t *o = in->ops;
    unsigned n = in->nops;
    bool flt = is_float_t(t);
#define NEED(k)                                                                                          \
    do {                                                                                                 \
        if (n != (k)) return fail(F, in, "%s: expected %u operands, got %u", ptx_opcode_name(in->opc), (unsigned)(k), n); \
    } while (0)
#define SRC(i, slotp, ty)                                                                                \
    do {                                                                                                 \
        if (d_src(F, in, &o[i], (ty), (slotp))) return -1;                                              \
    } while (0)
#define DST(i, slotp)                                                                                    \
    do {                                                                                                 \
        if (d_dst(F, in, &o[i], (slotp))) return -1;                                                    \
    } while (0)
    /* Common shapes. */
#define UNARY(OPC_)                                                                                        \
    do {                                                                                                 \
        NEED(2);                                                                                         \
        e->op = (OPC_);                                                                                  \
        DST(0, &e->d);                                                                                   \
        SRC(1, &e->a, t);                                                                                \
    } while (0)
#define BINARY(OPC_)                                                                                       \
    do {                                                                                                 \
        NEED(3);                                                                                         \
        e->op = (OPC_);                                                                                  \
        DST(0, &e->d);                                                                                   \
        SRC(1, &e->a, t);                                                                                \
        SRC(2, &e->b, t);                                                                                \
    } while (0)
#define TERNARY(OPC_)                                                                                      \
    do {                                                                                                 \
        NEED(4);                                                                                         \
        e->op = (OPC_);                                                                                  \
        DST(0, &e->d);                                                                                   \
        SRC(1, &e->a, t);                                                                                \
        SRC(2, &e->b, t);                                                                                \
        SRC(3, &e->c, t);                                                                                \
    } while (0)

    switch (in->opc) {
    case PTX_OPC_MOV:
        NEED(2);
        if (o[0].kind == PTX_OPK_VEC) { /* unpack */
            if (o[0].count < 2 || o[0].count > 8) return fail(F, in, "mov: bad vector width");
            e->op = EOP_MOV_UNPACK;
            e->vec = (uint8_t)o[0].count;
            for (uint32_t k = 0; k < o[0].count; k++)
                if (d_dst(F, in, &F->f->pool[o[0].first + k], &e->v[k])) return -1;
            SRC(1, &e->a, t);
            e->elem = (uint8_t)(ptx_type_bytes(t) / o[0].count);
            if (e->elem == 0) return fail(F, in, "mov: vector elements narrower than a byte");
            return 0;
        }
        if (o[1].kind == PTX_OPK_VEC) { /* pack */
            if (o[1].count < 2 || o[1].count > 8) return fail(F, in, "mov: bad vector width");
            e->op = EOP_MOV_PACK;
            e->vec = (uint8_t)o[1].count;
            DST(0, &e->d);
            for (uint32_t k = 0; k < o[1].count; k++)
                if (d_src(F, in, &F->f->pool[o[1].first + k], PTX_T_NONE, &e->v[k])) return -1;
            e->elem = (uint8_t)(ptx_type_bytes(t) / o[1].count);
            if (e->elem == 0) return fail(F, in, "mov: vector elements narrower than a byte");
            return 0;
        }
        if (o[1].kind == PTX_OPK_SREG &&
            (o[1].sreg == PTX_SREG_CLOCK || o[1].sreg == PTX_SREG_CLOCK64 || o[1].sreg == PTX_SREG_CLOCK_HI ||
             o[1].sreg == PTX_SREG_GLOBALTIMER || o[1].sreg == PTX_SREG_GLOBALTIMER_LO ||
             o[1].sreg == PTX_SREG_GLOBALTIMER_HI)) {
            e->op = EOP_CLOCK;
            e->sub = o[1].sreg;
            DST(0, &e->d);
            return 0;
        }
        e->op = EOP_MOV;
        DST(0, &e->d);
        SRC(1, &e->a, t);
        e->dwidth = (uint8_t)(o[0].kind == PTX_OPK_REG ? reg_width(F->f, o[0].reg) : 8);
        return 0;
    case PTX_OPC_ADD:
    case PTX_OPC_SUB:
        if (flt) {
            BINARY(in->opc == PTX_OPC_ADD ? EOP_FADD : EOP_FSUB);
        } else {
            BINARY(in->opc == PTX_OPC_ADD ? EOP_ADD : EOP_SUB);
            if (e->flags & EF_CC) e->e = T_CC;
        }
        return 0;
    case PTX_OPC_ADDC:
    case PTX_OPC_SUBC:
        BINARY(in->opc == PTX_OPC_ADDC ? EOP_ADDC : EOP_SUBC);
        e->e = T_CC;
        return 0;
    case PTX_OPC_MUL:
        if (flt) {
            BINARY(EOP_FMUL);
        } else if (ptx_insn_has(in, PTX_MOD_WIDE)) {
            BINARY(EOP_MUL_WIDE);
        } else if (ptx_insn_has(in, PTX_MOD_HI)) {
            BINARY(EOP_MUL_HI);
        } else {
            BINARY(EOP_MUL_LO);
        }
        return 0;
    case PTX_OPC_MUL24:
        BINARY(ptx_insn_has(in, PTX_MOD_HI) ? EOP_MUL24_HI : EOP_MUL24_LO);
        return 0;
    case PTX_OPC_MAD:
        if (flt) {
            TERNARY(EOP_FFMA);
            return 0;
        }
        if (ptx_insn_has(in, PTX_MOD_WIDE)) {
            NEED(4);
            e->op = EOP_MAD_WIDE;
            DST(0, &e->d);
            SRC(1, &e->a, t);
            SRC(2, &e->b, t);
            /* the addend is twice as wide */
            ptx_type_t wt = (t == PTX_T_S32) ? PTX_T_S64 : (t == PTX_T_U32) ? PTX_T_U64 : (t == PTX_T_S16) ? PTX_T_S32 : PTX_T_U32;
            SRC(3, &e->c, wt);
        } else {
            TERNARY(ptx_insn_has(in, PTX_MOD_HI) ? EOP_MAD_HI : EOP_MAD_LO);
        }
        if (e->flags & EF_CC) e->e = T_CC;
        return 0;
    case PTX_OPC_MADC:
        TERNARY(ptx_insn_has(in, PTX_MOD_HI) ? EOP_MADC_HI : EOP_MADC_LO);
        e->e = T_CC;
        return 0;
    case PTX_OPC_MAD24:
        if (ptx_insn_has(in, PTX_MOD_HI)) return fail(F, in, "unsupported: mad24.hi");
        TERNARY(EOP_MAD24_LO);
        return 0;
    case PTX_OPC_SAD: TERNARY(EOP_SAD); return 0;
    case PTX_OPC_FMA: TERNARY(EOP_FFMA); return 0;
    case PTX_OPC_DIV:
        if (flt)
            BINARY(EOP_FDIV);
        else
            BINARY(EOP_DIV);
        return 0;
    case PTX_OPC_REM: BINARY(EOP_REM); return 0;
    case PTX_OPC_ABS:
        if (flt)
            UNARY(EOP_FABS);
        else
            UNARY(EOP_ABS);
        return 0;
    case PTX_OPC_NEG:
        if (flt)
            UNARY(EOP_FNEG);
        else
            UNARY(EOP_NEG);
        return 0;
    case PTX_OPC_MIN:
    case PTX_OPC_MAX:
        if (flt) {
            BINARY(in->opc == PTX_OPC_MIN ? EOP_FMIN : EOP_FMAX);
            if (ptx_insn_has(in, PTX_MOD_NAN_MINMAX)) e->sub |= 1;
            if (ptx_insn_has(in, PTX_MOD_XORSIGN)) return fail(F, in, "unsupported: min/max .xorsign.abs");
        } else {
            BINARY(in->opc == PTX_OPC_MIN ? EOP_MIN : EOP_MAX);
        }
        return 0;
    case PTX_OPC_POPC: UNARY(EOP_POPC); e->dwidth = 4; return 0;
    case PTX_OPC_CLZ: UNARY(EOP_CLZ); return 0;
    case PTX_OPC_BFIND:
        UNARY(EOP_BFIND);
        if (ptx_insn_has(in, PTX_MOD_SHIFTAMT)) e->sub = 1;
        return 0;
    case PTX_OPC_BREV: UNARY(EOP_BREV); return 0;
    case PTX_OPC_BFE:
        NEED(4);
        e->op = EOP_BFE;
        DST(0, &e->d);
        SRC(1, &e->a, t);
        SRC(2, &e->b, PTX_T_U32);
        SRC(3, &e->c, PTX_T_U32);
        return 0;
    case PTX_OPC_BFI:
        NEED(5);
        e->op = EOP_BFI;
        DST(0, &e->d);
        SRC(1, &e->a, t);
        SRC(2, &e->b, t);
        SRC(3, &e->c, PTX_T_U32);
        SRC(4, &e->e, PTX_T_U32);
        return 0;
    case PTX_OPC_FNS:
        NEED(4);
        e->op = EOP_FNS;
        DST(0, &e->d);
        SRC(1, &e->a, PTX_T_U32);
        SRC(2, &e->b, PTX_T_U32);
        SRC(3, &e->c, PTX_T_S32);
        return 0;
    case PTX_OPC_BMSK:
        BINARY(EOP_BMSK);
        if (ptx_insn_has(in, PTX_MOD_WRAP)) e->sub = 1;
        return 0;
    case PTX_OPC_SZEXT:
        BINARY(EOP_SZEXT);
        if (ptx_insn_has(in, PTX_MOD_WRAP)) e->sub = 1;
        return 0;
    case PTX_OPC_AND: BINARY(EOP_AND); return 0;
    case PTX_OPC_OR: BINARY(EOP_OR); return 0;
    case PTX_OPC_XOR: BINARY(EOP_XOR); return 0;
    case PTX_OPC_NOT: UNARY(EOP_NOT); return 0;
    case PTX_OPC_CNOT: UNARY(EOP_CNOT); return 0;
    case PTX_OPC_LOP3:
        NEED(5);
        e->op = EOP_LOP3;
        DST(0, &e->d);
        SRC(1, &e->a, t);
        SRC(2, &e->b, t);
        SRC(3, &e->c, t);
        if (o[4].kind != PTX_OPK_IMM) return fail(F, in, "lop3: the truth table must be an immediate");
        e->sub = (uint8_t)o[4].imm;
        return 0;
    case PTX_OPC_SHL:
    case PTX_OPC_SHR:
        NEED(3);
        e->op = in->opc == PTX_OPC_SHL ? EOP_SHL : EOP_SHR;
        DST(0, &e->d);
        SRC(1, &e->a, t);
        SRC(2, &e->b, PTX_T_U32);
        return 0;
    case PTX_OPC_SHF:
        NEED(4);
        e->op = ptx_insn_has(in, PTX_MOD_L) ? EOP_SHF_L : EOP_SHF_R;
        e->sub = ptx_insn_has(in, PTX_MOD_WRAP) ? 1 : 0;
        DST(0, &e->d);
        SRC(1, &e->a, t);
        SRC(2, &e->b, t);
        SRC(3, &e->c, PTX_T_U32);
        return 0;
    case PTX_OPC_PRMT:
        if (n == 4) {
            TERNARY(EOP_PRMT);
        } else {
            return fail(F, in, "prmt: expected 4 operands");
        }
        e->sub = ptx_insn_has(in, PTX_MOD_F4E)    ? 1
                 : ptx_insn_has(in, PTX_MOD_B4E)  ? 2
                 : ptx_insn_has(in, PTX_MOD_RC8)  ? 3
                 : ptx_insn_has(in, PTX_MOD_ECL)  ? 4
                 : ptx_insn_has(in, PTX_MOD_ECR)  ? 5
                 : ptx_insn_has(in, PTX_MOD_RC16) ? 6
                                                  : 0;
        return 0;
    case PTX_OPC_DP4A:
    case PTX_OPC_DP2A:
        NEED(4);
        e->op = in->opc == PTX_OPC_DP4A ? EOP_DP4A : EOP_DP2A;
        if (nt < 2) return fail(F, in, "dp4a/dp2a: expected two types");
        e->t = (uint8_t)ts[0];
        e->t2 = (uint8_t)ts[1];
        e->sub = ptx_insn_has(in, PTX_MOD_HI) ? 1 : 0;
        DST(0, &e->d);
        SRC(1, &e->a, PTX_T_U32);
        SRC(2, &e->b, PTX_T_U32);
        SRC(3, &e->c, PTX_T_U32);
        return 0;
    case PTX_OPC_RCP: UNARY(EOP_FRCP); return 0;
    case PTX_OPC_SQRT: UNARY(EOP_FSQRT); return 0;
    case PTX_OPC_RSQRT: UNARY(EOP_FRSQRT); return 0;
    case PTX_OPC_SIN: UNARY(EOP_FSIN); return 0;
    case PTX_OPC_COS: UNARY(EOP_FCOS); return 0;
    case PTX_OPC_LG2: UNARY(EOP_FLG2); return 0;
    case PTX_OPC_EX2: UNARY(EOP_FEX2); return 0;
    case PTX_OPC_TANH: UNARY(EOP_FTANH); return 0;
    case PTX_OPC_COPYSIGN: BINARY(EOP_COPYSIGN); return 0;
    case PTX_OPC_TESTP:
        UNARY(EOP_TESTP);
        e->sub = ptx_insn_has(in, PTX_MOD_FINITE)       ? 1
                 : ptx_insn_has(in, PTX_MOD_INFINITE)   ? 2
                 : ptx_insn_has(in, PTX_MOD_NUMBER)     ? 3
                 : ptx_insn_has(in, PTX_MOD_NOTANUMBER) ? 4
                 : ptx_insn_has(in, PTX_MOD_NORMAL)     ? 5
                 : ptx_insn_has(in, PTX_MOD_SUBNORMAL)  ? 6
                                                        : 0;
        if (e->sub == 0) return fail(F, in, "testp: unknown test");
        return 0;
    case PTX_OPC_SETP:
    case PTX_OPC_SET: {
        e->op = in->opc == PTX_OPC_SETP ? EOP_SETP : EOP_SET;
        if (n != 3 && n != 4) return fail(F, in, "%s: expected 3 or 4 operands", ptx_opcode_name(in->opc));
        ptx_type_t st = t;
        if (in->opc == PTX_OPC_SET) {
            if (nt < 2) return fail(F, in, "set: expected a destination and a source type");
            e->t2 = (uint8_t)ts[0]; /* destination type */
            st = ts[1];
            e->t = (uint8_t)st;
        } else if (nt != 1) {
            return fail(F, in, "setp: expected one comparison type");
        }
        /* A comparison of a type with no whole bytes (.u4, .pred, ...) has no PTX meaning: refuse it
         * rather than compare zero-width values (found by fuzz-emu-smoke: setp.ge.s32.u4). */
        if (ptx_type_bytes(st) == 0)
            return fail(F, in, "%s: unsupported comparison type .%s", ptx_opcode_name(in->opc), ptx_type_name(st));
        e->sub = cmp_of(in);
        if (e->sub == 0) return fail(F, in, "%s: missing comparison operator", ptx_opcode_name(in->opc));
        uint8_t bo = bool_of(in);
        e->sub |= (uint8_t)(bo << 5);
        if (o[0].kind == PTX_OPK_PAIR) {
            if (in->opc != PTX_OPC_SETP) return fail(F, in, "set: a predicate pair destination");
            e->d = o[0].reg;
            e->d2 = o[0].reg2;
        } else {
            DST(0, &e->d);
        }
        SRC(1, &e->a, st);
        SRC(2, &e->b, st);
        if (n == 4) {
            if (bo == 0) return fail(F, in, "%s: a fourth operand needs .and/.or/.xor", ptx_opcode_name(in->opc));
            if (o[3].kind != PTX_OPK_REG) return fail(F, in, "%s: expected a predicate register", ptx_opcode_name(in->opc));
            e->c = o[3].reg;
            if (o[3].neg) e->flags |= EF_NEGA;
        } else if (bo) {
            return fail(F, in, "%s: .and/.or/.xor needs a fourth operand", ptx_opcode_name(in->opc));
        }
        return 0;
    }
    case PTX_OPC_SELP:
        NEED(4);
        e->op = EOP_SELP;
        DST(0, &e->d);
        SRC(1, &e->a, t);
        SRC(2, &e->b, t);
        if (o[3].kind != PTX_OPK_REG) return fail(F, in, "selp: expected a predicate register");
        e->c = o[3].reg;
        if (o[3].neg) e->flags |= EF_NEGA;
        return 0;
    case PTX_OPC_SLCT:
        NEED(4);
        if (nt < 2) return fail(F, in, "slct: expected two types");
        e->op = EOP_SLCT;
        e->t = (uint8_t)ts[0];
        e->t2 = (uint8_t)ts[1];
        DST(0, &e->d);
        SRC(1, &e->a, ts[0]);
        SRC(2, &e->b, ts[0]);
        SRC(3, &e->c, ts[1]);
        return 0;
    case PTX_OPC_CVT:
        if (nt < 2) return fail(F, in, "cvt: expected a destination and a source type");
        e->op = EOP_CVT;
        e->t = (uint8_t)ts[0];
        e->t2 = (uint8_t)ts[1];
        if (n == 3) { /* cvt.rn.f16x2.f32 d, a, b (pack) */
            if (ts[0] != PTX_T_F16X2 && ts[0] != PTX_T_BF16X2)
                return fail(F, in, "cvt: three operands only for the f16x2/bf16x2 pack");
            DST(0, &e->d);
            SRC(1, &e->a, ts[1]);
            SRC(2, &e->b, ts[1]);
            e->sub = 1;
            return 0;
        }
        NEED(2);
        DST(0, &e->d);
        SRC(1, &e->a, ts[1]);
        e->dwidth = (uint8_t)(o[0].kind == PTX_OPK_REG ? reg_width(F->f, o[0].reg) : 8);
        return 0;
    case PTX_OPC_CVTA:
        NEED(2);
        e->op = EOP_CVTA;
        e->space = (uint8_t)ptx_insn_space(in);
        e->sub = ptx_insn_has(in, PTX_MOD_TO) ? 1 : 0;
        DST(0, &e->d);
        SRC(1, &e->a, t);
        if (e->space != PTX_SPACE_GLOBAL && e->space != PTX_SPACE_SHARED && e->space != PTX_SPACE_LOCAL &&
            e->space != PTX_SPACE_CONST)
            return fail(F, in, "unsupported: cvta for the %s space", ptx_space_name((ptx_space_t)e->space));
        return 0;
    case PTX_OPC_ISSPACEP:
        NEED(2);
        e->op = EOP_ISSPACEP;
        e->space = (uint8_t)ptx_insn_space(in);
        DST(0, &e->d);
        SRC(1, &e->a, PTX_T_U64);
        return 0;
    case PTX_OPC_LD:
    case PTX_OPC_LDU: {
        if (n < 2 || n > 3) return fail(F, in, "ld: expected 2 operands");
        e->op = EOP_LD;
        e->space = (uint8_t)ptx_insn_space(in);
        if (e->space == PTX_SPACE_TEX || e->space == PTX_SPACE_SHARED_CLUSTER)
            return fail(F, in, "unsupported: ld in the %s space", ptx_space_name((ptx_space_t)e->space));
        e->vec = (uint8_t)ptx_insn_vec(in);
        e->elem = (uint8_t)ptx_type_bytes(t);
        if (e->elem == 0) return fail(F, in, "ld: unsupported type .%s", ptx_type_name(t));
        e->size = (uint8_t)(e->elem * e->vec);
        if (o[0].kind == PTX_OPK_VEC) {
            if (o[0].count != e->vec) return fail(F, in, "ld: the vector has %u elements, the type says %u", o[0].count, e->vec);
            for (uint32_t k = 0; k < o[0].count; k++) {
                const ptx_operand_t *el = &F->f->pool[o[0].first + k];
                if (d_dst(F, in, el, &e->v[k])) return -1;
                if (k == 0) e->dwidth = (uint8_t)(el->kind == PTX_OPK_REG ? reg_width(F->f, el->reg) : 8);
            }
        } else {
            if (e->vec != 1) return fail(F, in, "ld.v%u needs a vector destination", e->vec);
            DST(0, &e->v[0]);
            e->dwidth = (uint8_t)(o[0].kind == PTX_OPK_REG ? reg_width(F->f, o[0].reg) : 8);
        }
        if (d_addr(F, in, &o[1], (ptx_space_t)e->space, e)) return -1;
        return 0;
    }
    case PTX_OPC_ST: {
        if (n < 2 || n > 3) return fail(F, in, "st: expected 2 operands");
        e->op = EOP_ST;
        e->space = (uint8_t)ptx_insn_space(in);
        if (e->space == PTX_SPACE_TEX || e->space == PTX_SPACE_SHARED_CLUSTER || e->space == PTX_SPACE_CONST)
            return fail(F, in, "unsupported: st in the %s space", ptx_space_name((ptx_space_t)e->space));
        e->vec = (uint8_t)ptx_insn_vec(in);
        e->elem = (uint8_t)ptx_type_bytes(t);
        if (e->elem == 0) return fail(F, in, "st: unsupported type .%s", ptx_type_name(t));
        e->size = (uint8_t)(e->elem * e->vec);
        if (d_addr(F, in, &o[0], (ptx_space_t)e->space, e)) return -1;
        if (o[1].kind == PTX_OPK_VEC) {
            if (o[1].count != e->vec) return fail(F, in, "st: the vector has %u elements, the type says %u", o[1].count, e->vec);
            for (uint32_t k = 0; k < o[1].count; k++)
                if (d_src(F, in, &F->f->pool[o[1].first + k], t, &e->v[k])) return -1;
        } else {
            if (e->vec != 1) return fail(F, in, "st.v%u needs a vector source", e->vec);
            SRC(1, &e->v[0], t);
        }
        return 0;
    }
    case PTX_OPC_ATOM:
    case PTX_OPC_RED: {
        bool atom = in->opc == PTX_OPC_ATOM;
        e->op = atom ? EOP_ATOM : EOP_RED;
        e->space = (uint8_t)ptx_insn_space(in);
        if (e->space != PTX_SPACE_NONE && e->space != PTX_SPACE_GLOBAL && e->space != PTX_SPACE_SHARED)
            return fail(F, in, "unsupported: %s in the %s space", ptx_opcode_name(in->opc), ptx_space_name((ptx_space_t)e->space));
        if (ptx_insn_vec(in) != 1) return fail(F, in, "unsupported: vector %s", ptx_opcode_name(in->opc));
        uint8_t aop = ptx_insn_has(in, PTX_MOD_ADD)    ? 1
                      : ptx_insn_has(in, PTX_MOD_MIN)  ? 2
                      : ptx_insn_has(in, PTX_MOD_MAX)  ? 3
                      : ptx_insn_has(in, PTX_MOD_INC)  ? 4
                      : ptx_insn_has(in, PTX_MOD_DEC)  ? 5
                      : ptx_insn_has(in, PTX_MOD_AND)  ? 6
                      : ptx_insn_has(in, PTX_MOD_OR)   ? 7
                      : ptx_insn_has(in, PTX_MOD_XOR)  ? 8
                      : ptx_insn_has(in, PTX_MOD_EXCH) ? 9
                      : ptx_insn_has(in, PTX_MOD_CAS)  ? 10
                                                       : 0;
        if (aop == 0) return fail(F, in, "%s: unknown operation", ptx_opcode_name(in->opc));
        e->sub = aop;
        e->elem = (uint8_t)ptx_type_bytes(t);
        if (e->elem != 4 && e->elem != 8)
            return fail(F, in, "unsupported: %s on .%s", ptx_opcode_name(in->opc), ptx_type_name(t));
        e->size = e->elem;
        unsigned k0 = 0;
        if (atom) {
            if (n != (aop == 10 ? 4u : 3u)) return fail(F, in, "atom: expected %u operands", aop == 10 ? 4u : 3u);
            DST(0, &e->d);
            k0 = 1;
        } else if (n != 2) {
            return fail(F, in, "red: expected 2 operands");
        }
        if (d_addr(F, in, &o[k0], (ptx_space_t)e->space, e)) return -1;
        SRC(k0 + 1, &e->b, t);
        if (aop == 10) SRC(k0 + 2, &e->c, t);
        return 0;
    }
    case PTX_OPC_PREFETCH:
    case PTX_OPC_PREFETCHU:
    case PTX_OPC_MEMBAR:
    case PTX_OPC_FENCE:
    case PTX_OPC_NANOSLEEP:
    case PTX_OPC_PMEVENT:
    case PTX_OPC_DISCARD: e->op = EOP_NOP; return 0;
    case PTX_OPC_BRA: {
        if (n != 1 || o[0].kind != PTX_OPK_LABEL) return fail(F, in, "bra: expected a label");
        e->op = EOP_BRA;
        e->target = F->label_pc[o[0].label];
        uint32_t b = F->g->insn_block[insn_id];
        uint32_t ip = F->g->blocks[b].ipdom;
        e->rpc = (ip >= F->g->nblocks) ? F->ef->end : F->ef->start + F->g->insn_pos[F->g->blocks[ip].insns[0]];
        (void)pc;
        return 0;
    }
    case PTX_OPC_RET: {
        e->op = EOP_RET;
        e->target = F->ef->end;
        uint32_t b = F->g->insn_block[insn_id];
        uint32_t ip = F->g->blocks[b].ipdom;
        e->rpc = (ip >= F->g->nblocks) ? F->ef->end : F->ef->start + F->g->insn_pos[F->g->blocks[ip].insns[0]];
        return 0;
    }
    case PTX_OPC_EXIT: e->op = EOP_EXIT; return 0;
    case PTX_OPC_TRAP:
    case PTX_OPC_BRKPT: e->op = EOP_TRAP; return 0;
    case PTX_OPC_BAR:
    case PTX_OPC_BARRIER: {
        if (ptx_insn_has(in, PTX_MOD_WARP)) {
            NEED(1);
            e->op = EOP_WARPSYNC;
            SRC(0, &e->a, PTX_T_U32);
            return 0;
        }
        if (ptx_insn_has(in, PTX_MOD_RED)) {
            /* bar.red.popc.u32 d, a{, b}, {!}c  /  bar.red.and.pred p, a{, b}, {!}c */
            if (n != 3 && n != 4) return fail(F, in, "bar.red: expected 3 or 4 operands");
            e->op = EOP_BAR_RED;
            e->sub = ptx_insn_has(in, PTX_MOD_POPC) ? 1 : ptx_insn_has(in, PTX_MOD_AND) ? 2 : ptx_insn_has(in, PTX_MOD_OR) ? 3 : 0;
            if (e->sub == 0) return fail(F, in, "bar.red: expected .popc, .and or .or");
            DST(0, &e->d);
            SRC(1, &e->a, PTX_T_U32);
            if (n == 4) SRC(2, &e->b, PTX_T_U32);
            const ptx_operand_t *pc_ = &o[n - 1];
            if (pc_->kind != PTX_OPK_REG) return fail(F, in, "bar.red: expected a predicate");
            e->c = pc_->reg;
            if (pc_->neg) e->flags |= EF_NEGA;
            return 0;
        }
        if (n < 1 || n > 2) return fail(F, in, "bar: expected 1 or 2 operands");
        e->op = ptx_insn_has(in, PTX_MOD_ARRIVE) ? EOP_BAR_ARRIVE : EOP_BAR;
        SRC(0, &e->a, PTX_T_U32);
        if (n == 2) SRC(1, &e->b, PTX_T_U32);
        return 0;
    }
    case PTX_OPC_SHFL: {
        bool sync = ptx_insn_has(in, PTX_MOD_SYNC);
        if (n != (sync ? 5u : 4u)) return fail(F, in, "shfl: expected %u operands", sync ? 5u : 4u);
        e->op = EOP_SHFL;
        e->sub = ptx_insn_has(in, PTX_MOD_UP) ? 1 : ptx_insn_has(in, PTX_MOD_DOWN) ? 2 : ptx_insn_has(in, PTX_MOD_BFLY) ? 3 : ptx_insn_has(in, PTX_MOD_IDX) ? 4 : 0;
        if (e->sub == 0) return fail(F, in, "shfl: expected .up, .down, .bfly or .idx");
        if (o[0].kind == PTX_OPK_PAIR) {
            e->d = o[0].reg;
            e->d2 = o[0].reg2;
        } else {
            DST(0, &e->d);
        }
        SRC(1, &e->a, PTX_T_B32);
        SRC(2, &e->b, PTX_T_U32);
        SRC(3, &e->c, PTX_T_U32);
        if (sync)
            SRC(4, &e->e, PTX_T_U32);
        else
            e->e = const_slot(F, 0xffffffffu);
        return 0;
    }
    case PTX_OPC_VOTE: {
        bool sync = ptx_insn_has(in, PTX_MOD_SYNC);
        if (n != (sync ? 3u : 2u)) return fail(F, in, "vote: expected %u operands", sync ? 3u : 2u);
        e->op = EOP_VOTE;
        e->sub = ptx_insn_has(in, PTX_MOD_ALL) ? 1 : ptx_insn_has(in, PTX_MOD_ANY) ? 2 : ptx_insn_has(in, PTX_MOD_UNI) ? 3 : ptx_insn_has(in, PTX_MOD_BALLOT) ? 4 : 0;
        if (e->sub == 0) return fail(F, in, "vote: expected .all, .any, .uni or .ballot");
        DST(0, &e->d);
        if (o[1].kind != PTX_OPK_REG) return fail(F, in, "vote: expected a predicate");
        e->a = o[1].reg;
        if (o[1].neg) e->flags |= EF_NEGA;
        if (sync)
            SRC(2, &e->b, PTX_T_U32);
        else
            e->b = const_slot(F, 0xffffffffu);
        return 0;
    }
    case PTX_OPC_ACTIVEMASK:
        NEED(1);
        e->op = EOP_ACTIVEMASK;
        DST(0, &e->d);
        return 0;
    case PTX_OPC_MATCH:
        NEED(3);
        e->op = EOP_MATCH;
        e->sub = ptx_insn_has(in, PTX_MOD_ALL) ? 2 : 1;
        if (o[0].kind == PTX_OPK_PAIR) {
            e->d = o[0].reg;
            e->d2 = o[0].reg2;
        } else {
            DST(0, &e->d);
        }
        SRC(1, &e->a, t);
        SRC(2, &e->b, PTX_T_U32);
        return 0;
    case PTX_OPC_REDUX:
        NEED(3);
        e->op = EOP_REDUX;
        e->sub = ptx_insn_has(in, PTX_MOD_ADD)   ? 1
                 : ptx_insn_has(in, PTX_MOD_MIN) ? 2
                 : ptx_insn_has(in, PTX_MOD_MAX) ? 3
                 : ptx_insn_has(in, PTX_MOD_AND) ? 6
                 : ptx_insn_has(in, PTX_MOD_OR)  ? 7
                 : ptx_insn_has(in, PTX_MOD_XOR) ? 8
                                                 : 0;
        if (e->sub == 0) return fail(F, in, "redux: unknown operation");
        DST(0, &e->d);
        SRC(1, &e->a, t);
        SRC(2, &e->b, PTX_T_U32);
        return 0;
    case PTX_OPC_ELECT:
        NEED(2);
        e->op = EOP_ELECT;
        if (o[0].kind == PTX_OPK_PAIR) {
            e->d = o[0].reg;
            e->d2 = o[0].reg2;
        } else {
            DST(0, &e->d);
        }
        SRC(1, &e->a, PTX_T_U32);
        return 0;
    case PTX_OPC_CALL: {
        if (n != 4) return fail(F, in, "internal: call operands");
        if (o[1].kind != PTX_OPK_SYM) return fail(F, in, "unsupported: an indirect call (through a register)");
        uint32_t fsym = o[1].sym;
        const ptx_sym_t *fs = &ir->syms[fsym];
        if (fs->kind != PTX_SYM_FUNC) return fail(F, in, "call: '%s' is not a function", ptx_sym_name(ir, fsym));
        const char *fname = ptx_sym_name(ir, fsym);
        const emu_func_t *callee = &D->m->funcs[fs->fn_index];
        e->op = EOP_CALL;
        e->target = fs->fn_index;
        if (strcmp(fname, "vprintf") == 0)
            e->op = EOP_VPRINTF;
        else if (strcmp(fname, "__assertfail") == 0)
            e->op = EOP_ASSERTFAIL;
        else if (callee->native && strcmp(fname, "__ga_loadmeta") == 0)
            e->op = EOP_GA_LOADMETA;
        else if (callee->native && strcmp(fname, "__ga_memcheck_g") == 0)
            e->op = EOP_GA_MEMCHECK_G;
        else if (callee->native && strcmp(fname, "__ga_memcheck_s") == 0)
            e->op = EOP_GA_MEMCHECK_S;
        else if (strcmp(fname, "malloc") == 0 || strcmp(fname, "free") == 0 || strcmp(fname, "__nv_malloc") == 0)
            return fail(F, in, "unsupported: device-side %s (docs/emulator.md §4.6)", fname);
        else if (!callee->defined)
            return fail(F, in, "unsupported: call of the external function '%s', which this module does not "
                        "define (separate compilation, -rdc, is not supported)", fname);
        uint32_t expect_args = 0, expect_rets = 0;
        switch (e->op) {
        case EOP_VPRINTF: expect_args = 2, expect_rets = 1; break;
        case EOP_ASSERTFAIL: expect_args = 5, expect_rets = 0; break;
        case EOP_GA_LOADMETA: expect_args = 1, expect_rets = 1; break;
        case EOP_GA_MEMCHECK_G: expect_args = 3, expect_rets = 1; break;
        case EOP_GA_MEMCHECK_S: expect_args = 4, expect_rets = 0; break;
        default: expect_args = callee->nparams, expect_rets = callee->nrets; break;
        }
        if (o[2].count != expect_args || o[0].count > expect_rets || (e->op == EOP_CALL && o[0].count != expect_rets))
            return fail(F, in, "call of '%s': %u arguments and %u results, expected %u and %u", fname, o[2].count,
                        o[0].count, expect_args, expect_rets);
        e->arg_first = D->npool;
        e->nargs = o[2].count;
        for (uint32_t k = 0; k < o[2].count; k++) {
            const ptx_operand_t *a = &F->f->pool[o[2].first + k];
            if (a->kind != PTX_OPK_SYM || D->sym_pkind[a->sym] != 2)
                return fail(F, in, "call: argument %u must be a .param variable of this function", k);
            if (push_pool(D, D->sym_poff[a->sym])) return fail(F, in, "out of memory");
        }
        e->ret_first = D->npool;
        e->nrets = o[0].count;
        for (uint32_t k = 0; k < o[0].count; k++) {
            const ptx_operand_t *a = &F->f->pool[o[0].first + k];
            if (a->kind != PTX_OPK_SYM || D->sym_pkind[a->sym] != 2)
                return fail(F, in, "call: result %u must be a .param variable of this function", k);
            if (push_pool(D, D->sym_poff[a->sym])) return fail(F, in, "out of memory");
        }
        return 0;
    }
    default:
        return fail(F, in, "unsupported instruction '%s' (docs/emulator.md §4.6 lists what the interpreter "
                    "implements)", ptx_opcode_name(in->opc));
    }
#undef NEED
#undef SRC
#undef DST
#undef UNARY
#undef BINARY
#undef TERNARY
}

/* Resolve a provisional slot. */
static uint32_t fix(const emu_func_t *ef, uint32_t s)
{
    if (s == EMU_NONE) return s;
    switch (s & TAG_MASK) {
    case T_CONST: return ef->const_first + (s & ~TAG_MASK);
    case T_SREG: return ef->const_first + ef->nconst + (s & ~TAG_MASK);
    case T_LOCAL: return ef->const_first + ef->nconst + ef->nsregs + (s & ~TAG_MASK);
    case 0x70000000u:
        if (s == T_SINK) return ef->nslots - 2;
        if (s == T_CC) return ef->cc_slot;
        return s;
    default: return s;
    }
}

/* Per-function layout of parameters and locals (before any instruction is decoded). */
static int layout_function(dec_t *D, emu_func_t *ef, const ptx_func_t *f, uint32_t fi)
{
    const ptx_module_t *ir = D->ir;
    ef->f = f;
    ef->fn_index = fi;
    ef->is_entry = f->is_entry;
    ef->defined = f->defined;
    ef->name = ptx_sym_name(ir, f->sym);
    ef->nparams = f->nparams;
    ef->nrets = f->nrets;
    uint32_t pbytes = 0;
    if (f->is_entry) {
        ef->kparam_off = calloc((size_t)f->nparams + 1, sizeof(uint32_t));
        ef->kparam_size = calloc((size_t)f->nparams + 1, sizeof(uint32_t));
        ef->kparam_align = calloc((size_t)f->nparams + 1, sizeof(uint32_t));
        if (!ef->kparam_off || !ef->kparam_size || !ef->kparam_align) return -1;
        uint32_t off = 0;
        for (uint32_t k = 0; k < f->nparams; k++) {
            const ptx_sym_t *s = &ir->syms[f->params[k]];
            uint32_t al = s->align ? s->align : ptx_type_bytes((ptx_type_t)s->type);
            if (al == 0) al = 1;
            off = (off + al - 1) / al * al;
            ef->kparam_off[k] = off;
            ef->kparam_size[k] = (uint32_t)s->size;
            ef->kparam_align[k] = al;
            D->sym_pkind[f->params[k]] = 1;
            D->sym_poff[f->params[k]] = off;
            off += (uint32_t)s->size;
        }
        ef->kparam_bytes = off;
    } else {
        ef->param_off = calloc((size_t)f->nparams + 1, sizeof(uint32_t));
        ef->param_size = calloc((size_t)f->nparams + 1, sizeof(uint32_t));
        ef->ret_off = calloc((size_t)f->nrets + 1, sizeof(uint32_t));
        ef->ret_size = calloc((size_t)f->nrets + 1, sizeof(uint32_t));
        if (!ef->param_off || !ef->param_size || !ef->ret_off || !ef->ret_size) return -1;
        for (uint32_t k = 0; k < f->nparams; k++) {
            const ptx_sym_t *s = &ir->syms[f->params[k]];
            pbytes = (pbytes + 7u) & ~7u;
            ef->param_off[k] = pbytes;
            ef->param_size[k] = (uint32_t)s->size;
            D->sym_pkind[f->params[k]] = 2;
            D->sym_poff[f->params[k]] = pbytes;
            pbytes += (uint32_t)(s->size ? s->size : 1);
        }
        for (uint32_t k = 0; k < f->nrets; k++) {
            const ptx_sym_t *s = &ir->syms[f->rets[k]];
            pbytes = (pbytes + 7u) & ~7u;
            ef->ret_off[k] = pbytes;
            ef->ret_size[k] = (uint32_t)s->size;
            D->sym_pkind[f->rets[k]] = 2;
            D->sym_poff[f->rets[k]] = pbytes;
            pbytes += (uint32_t)(s->size ? s->size : 1);
        }
    }
    /* Call-scope .param variables and .local variables declared in the body. */
    uint32_t lbytes = 0, lalign = 8;
    for (uint32_t s = 0; s < ir->nsyms; s++) {
        const ptx_sym_t *sy = &ir->syms[s];
        if (sy->kind != PTX_SYM_VAR || sy->func != (int32_t)fi) continue;
        if (sy->space == PTX_SPACE_PARAM) {
            pbytes = (pbytes + 7u) & ~7u;
            D->sym_pkind[s] = 2;
            D->sym_poff[s] = pbytes;
            pbytes += (uint32_t)(sy->size ? sy->size : 1);
        } else if (sy->space == PTX_SPACE_LOCAL) {
            uint32_t al = sy->align ? sy->align : ptx_type_bytes((ptx_type_t)sy->type);
            if (al == 0) al = 1;
            if (al > lalign) lalign = al;
            lbytes = (lbytes + al - 1) / al * al;
            D->sym_local[s] = lbytes;
            lbytes += (uint32_t)sy->size;
        }
    }
    ef->param_bytes = (pbytes + 7u) & ~7u;
    ef->local_bytes = (lbytes + 15u) & ~15u;
    ef->local_align = lalign;
    return 0;
}

static int decode_function(dec_t *D, emu_func_t *ef, uint32_t fi)
{
    const ptx_func_t *f = &D->ir->funcs[fi];
    fdec_t F;
    memset(&F, 0, sizeof F);
    F.D = D;
    F.ef = ef;
    F.f = f;
    F.fi = fi;
    ptx_err_t ce;
    memset(&ce, 0, sizeof ce);
    F.g = ptx_cfg_build(D->ir, f, &ce);
    if (F.g == NULL) {
        snprintf(D->msg, D->cap, "%s", ce.msg);
        return -1;
    }
    emu_module_t *m = D->m;
    uint32_t nbody = F.g->ninsns_body;
    ef->start = m->ncode;
    ef->end = ef->start + nbody;
    emu_insn_t *nc = realloc(m->code, ((size_t)ef->end + 1) * sizeof *nc);
    if (nc == NULL) goto oom;
    m->code = nc;
    m->ncode = ef->end + 1;
    /* Label -> pc: the first instruction after the label in statement order. */
    F.label_pc = malloc(((size_t)f->nlabels + 1) * sizeof *F.label_pc);
    if (F.label_pc == NULL) goto oom;
    {
        uint32_t pending_from = 0;
        uint32_t *pend = malloc(((size_t)f->nlabels + 1) * sizeof *pend);
        if (pend == NULL) goto oom;
        uint32_t np = 0;
        (void)pending_from;
        for (uint32_t l = 0; l < f->nlabels; l++) F.label_pc[l] = ef->end;
        for (uint32_t s = 0; s < f->nstmts; s++) {
            const ptx_stmt_t *st = &f->stmts[s];
            if (st->kind == PTX_ST_LABEL) {
                if (st->index < f->nlabels) pend[np++] = st->index;
            } else if (st->kind == PTX_ST_INSN) {
                uint32_t pc = ef->start + F.g->insn_pos[st->index];
                for (uint32_t k = 0; k < np; k++) F.label_pc[pend[k]] = pc;
                np = 0;
            }
        }
        free(pend);
    }
    for (uint32_t k = 0; k < nbody; k++) {
        uint32_t id = F.g->order[k];
        if (decode_insn(&F, &f->insns[id], id, ef->start + k, &m->code[ef->start + k])) {
            ptx_cfg_free(F.g);
            free(F.label_pc);
            free(F.cv), free(F.sr), free(F.lo);
            return -1;
        }
    }
    emu_insn_t *sentinel = &m->code[ef->end];
    memset(sentinel, 0, sizeof *sentinel);
    sentinel->op = EOP_FUNC_EXIT;
    sentinel->guard = sentinel->d = sentinel->d2 = sentinel->a = sentinel->b = sentinel->c = sentinel->e = EMU_NONE;
    for (int k = 0; k < 8; k++) sentinel->v[k] = EMU_NONE;
    sentinel->fn = fi;
    sentinel->ir = EMU_NONE;
    /* Slot layout. */
    ef->nregs = f->nregs;
    ef->const_first = f->nregs;
    ef->nconst = F.ncv;
    ef->const_val = F.cv;
    F.cv = NULL;
    ef->nsregs = F.nsr;
    ef->sregs = F.sr;
    F.sr = NULL;
    ef->nlocals = F.nlo;
    ef->locals = F.lo;
    F.lo = NULL;
    ef->nslots = ef->nregs + ef->nconst + ef->nsregs + ef->nlocals + 2; /* + sink + carry */
    ef->cc_slot = ef->nslots - 1;
    for (uint32_t i = 0; i < ef->nsregs; i++) ef->sregs[i].slot = ef->const_first + ef->nconst + i;
    for (uint32_t i = 0; i < ef->nlocals; i++) ef->locals[i].slot = ef->const_first + ef->nconst + ef->nsregs + i;
    for (uint32_t pc = ef->start; pc < ef->end; pc++) {
        emu_insn_t *e = &m->code[pc];
        e->guard = fix(ef, e->guard);
        e->d = fix(ef, e->d);
        e->d2 = fix(ef, e->d2);
        e->a = fix(ef, e->a);
        e->b = fix(ef, e->b);
        e->c = fix(ef, e->c);
        e->e = fix(ef, e->e);
        for (int k = 0; k < 8; k++) e->v[k] = fix(ef, e->v[k]);
    }
    ptx_cfg_free(F.g);
    free(F.label_pc);
    return 0;
oom:
    ptx_cfg_free(F.g);
    free(F.label_pc);
    free(F.cv), free(F.sr), free(F.lo);
    snprintf(D->msg, D->cap, "%s: out of memory decoding", m->name);
    return -1;
}

emu_status_t emu_decode_module(emu_module_t *m, char *msg, size_t cap)
{
    char dummy[8];
    dec_t D;
    memset(&D, 0, sizeof D);
    D.m = m;
    D.ir = m->ir;
    D.msg = msg ? msg : dummy;
    D.cap = msg ? cap : sizeof dummy;
    const ptx_module_t *ir = m->ir;
    if (ir->address_size && ir->address_size != 64) {
        snprintf(D.msg, D.cap, "%s: .address_size %u: only 64-bit PTX is supported", m->name, ir->address_size);
        return EMU_ERR_UNSUPPORTED;
    }
    D.sym_pkind = calloc((size_t)ir->nsyms + 1, 1);
    D.sym_poff = calloc((size_t)ir->nsyms + 1, sizeof *D.sym_poff);
    D.sym_local = calloc((size_t)ir->nsyms + 1, sizeof *D.sym_local);
    m->funcs = calloc((size_t)ir->nfuncs + 1, sizeof *m->funcs);
    emu_status_t st = EMU_ERR_NO_MEMORY;
    if (!D.sym_pkind || !D.sym_poff || !D.sym_local || !m->funcs) goto out;
    m->nfuncs = ir->nfuncs;
    for (uint32_t i = 0; i < ir->nfuncs; i++)
        if (layout_function(&D, &m->funcs[i], &ir->funcs[i], i)) goto out;
    /* The software bodies of the GPUArmor instructions are not run: the calls are MLU requests. Only
     * the three .func of the calling convention are (docs/compiler.md §4.1); any other name, a kernel
     * called __ga_x included, is ordinary code. With ga_software the bodies run. Marked before any
     * call is decoded, since a call may precede its callee. */
    for (uint32_t i = 0; i < ir->nfuncs; i++) {
        const char *fn = ptx_sym_name(ir, ir->funcs[i].sym);
        m->funcs[i].native = ir->funcs[i].defined && !m->dev->cfg.ga_software && !ir->funcs[i].is_entry &&
                             (strcmp(fn, "__ga_loadmeta") == 0 || strcmp(fn, "__ga_memcheck_g") == 0 ||
                              strcmp(fn, "__ga_memcheck_s") == 0);
    }
    for (uint32_t i = 0; i < ir->nfuncs; i++) {
        if (!ir->funcs[i].defined || m->funcs[i].native) continue;
        if (decode_function(&D, &m->funcs[i], i)) {
            st = strstr(D.msg, "unsupported") ? EMU_ERR_UNSUPPORTED : EMU_ERR_INVALID_PTX;
            goto out;
        }
    }
    st = EMU_OK;
out:
    if (st == EMU_ERR_NO_MEMORY) snprintf(D.msg, D.cap, "%s: out of memory decoding", m->name);
    free(D.sym_pkind);
    free(D.sym_poff);
    free(D.sym_local);
    return st;
}
