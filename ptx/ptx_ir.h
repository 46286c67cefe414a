/*
 * ptx_ir.h — the in-memory form of a PTX module: what the parser (ptx_parse.c) builds, the printer
 * (ptx_print.c) writes back, the analyses (ptx_cfg.c, ptx_reach.c, ptx_root.c) read, the
 * instrumentation (ptx_instr.c) rewrites and the interpreter (emu/) decodes. docs/compiler.md §1 gives
 * the subset of PTX (ISA 9.x, what `nvcc -arch=sm_80` emits) that it holds.
 *
 * Shape. A module is an ordered list of top-level items (directives, variables, functions, raw debug
 * sections). A function body is an ordered list of *statements*: instructions, labels, nested scopes
 * `{ ... }`, declarations (.reg, .local, .shared, .param inside the body) and .loc / .pragma
 * directives. Statement order is the source order, so printing a parsed module gives the same program.
 * Every name is resolved once, by the parser: a register operand holds a register id (an index into
 * the function's register table), a symbol operand a symbol id (an index into the module's symbol
 * table), a branch target a label id (an index into the function's label table). Nested scopes may
 * declare the same name again (nvcc's call sequences declare `param0` in every `{ }`); each declaration
 * gets its own id and lookups follow the lexical scope.
 *
 * Ownership. Everything a module points to is owned by the module and freed by ptx_module_free().
 * Arrays grow through the helpers at the bottom; ids stay valid when arrays grow (they are indices,
 * not pointers). All state is in the module: no globals.
 */
#ifndef PTX_IR_H
#define PTX_IR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* ---------------------------------------------------------------------------------------------------
 * Vocabulary: opcodes, modifiers, types, state spaces, special registers. Each list is an X-macro so
 * that the enum and the spelling table cannot disagree. The parser accepts exactly these spellings;
 * anything else is an error naming the token.
 */

/* Opcodes (the word before the first '.'), PTX ISA 9.0 chapter 9, the subset nvcc 13 emits for sm_80
 * plus the texture/tensor instructions the parser recognises so it can name them in an error. */
#define PTX_OPCODES(X)                                                                                   \
    X(ABS, "abs") X(ACTIVEMASK, "activemask") X(ADD, "add") X(ADDC, "addc") X(AND, "and")              \
    X(ATOM, "atom") X(BAR, "bar") X(BARRIER, "barrier") X(BFE, "bfe") X(BFI, "bfi") X(BFIND, "bfind")  \
    X(BMSK, "bmsk") X(BRA, "bra") X(BREV, "brev") X(BRKPT, "brkpt") X(BRX, "brx") X(CALL, "call")      \
    X(CLZ, "clz") X(CNOT, "cnot") X(COPYSIGN, "copysign") X(COS, "cos") X(CP, "cp")                    \
    X(CREATEPOLICY, "createpolicy") X(CVT, "cvt") X(CVTA, "cvta") X(DISCARD, "discard") X(DIV, "div")  \
    X(DP2A, "dp2a") X(DP4A, "dp4a") X(ELECT, "elect") X(EX2, "ex2") X(EXIT, "exit") X(FENCE, "fence")  \
    X(FMA, "fma") X(FNS, "fns") X(ISSPACEP, "isspacep") X(LD, "ld") X(LDMATRIX, "ldmatrix")            \
    X(LDU, "ldu") X(LG2, "lg2") X(LOP3, "lop3") X(MAD, "mad") X(MAD24, "mad24") X(MADC, "madc")        \
    X(MATCH, "match") X(MAX, "max") X(MBARRIER, "mbarrier") X(MEMBAR, "membar") X(MIN, "min")          \
    X(MMA, "mma") X(MOV, "mov") X(MUL, "mul") X(MUL24, "mul24") X(NANOSLEEP, "nanosleep")              \
    X(NEG, "neg") X(NOT, "not") X(OR, "or") X(PMEVENT, "pmevent") X(POPC, "popc")                      \
    X(PREFETCH, "prefetch") X(PREFETCHU, "prefetchu") X(PRMT, "prmt") X(RCP, "rcp") X(RED, "red")      \
    X(REDUX, "redux") X(REM, "rem") X(RET, "ret") X(RSQRT, "rsqrt") X(SAD, "sad") X(SELP, "selp")      \
    X(SET, "set") X(SETP, "setp") X(SHF, "shf") X(SHFL, "shfl") X(SHL, "shl") X(SHR, "shr")            \
    X(SIN, "sin") X(SLCT, "slct") X(SQRT, "sqrt") X(ST, "st") X(SUB, "sub") X(SUBC, "subc")            \
    X(SULD, "suld") X(SUQ, "suq") X(SURED, "sured") X(SUST, "sust") X(SZEXT, "szext")                  \
    X(TANH, "tanh") X(TESTP, "testp") X(TEX, "tex") X(TLD4, "tld4") X(TRAP, "trap") X(TXQ, "txq")      \
    X(VOTE, "vote") X(WMMA, "wmma") X(XOR, "xor")

typedef enum {
    PTX_OPC_NONE = 0,
#define PTX_X_ENUM(id, s) PTX_OPC_##id,
    PTX_OPCODES(PTX_X_ENUM)
#undef PTX_X_ENUM
        PTX_OPC_COUNT
} ptx_opcode_t;

/* Instruction modifiers (every `.word` after the opcode), in one flat vocabulary. A modifier's
 * *class* says what it is (a type, a state space, a rounding mode, ...); the parser records the
 * modifiers of an instruction in source order, so `cvt.rn.f32.s32` keeps "destination type, then
 * source type". Spellings with `::` (`.L1::no_allocate`, `.shared::cta`) are single modifiers. */
typedef enum {
    PTX_MC_TYPE,     /* .u32, .f64, .pred, ... (ptx_type_t via ptx_mod_type) */
    PTX_MC_SPACE,    /* .global, .shared, ... (ptx_space_t via ptx_mod_space) */
    PTX_MC_ROUND,    /* .rn .rz .rm .rp .rni .rzi .rmi .rpi .rna .rs */
    PTX_MC_CMP,      /* .eq .ne .lt ... .equ .neu .ltu ... .num .nan (setp, set, slct-free) */
    PTX_MC_BOOL,     /* .and .or .xor (setp/set combining, vote, red/atom operations share these) */
    PTX_MC_VEC,      /* .v2 .v4 .v8 */
    PTX_MC_OTHER     /* everything else: .sat .ftz .approx .wide .lo .hi .cc .uni .sync .aligned ... */
} ptx_modclass_t;

#define PTX_MODIFIERS(X)                                                                                 \
    /* types (keep this block first and in ptx_type_t order) */                                         \
    X(B8, "b8", TYPE) X(B16, "b16", TYPE) X(B32, "b32", TYPE) X(B64, "b64", TYPE)                      \
    X(B128, "b128", TYPE) X(U8, "u8", TYPE) X(U16, "u16", TYPE) X(U32, "u32", TYPE)                    \
    X(U64, "u64", TYPE) X(S8, "s8", TYPE) X(S16, "s16", TYPE) X(S32, "s32", TYPE) X(S64, "s64", TYPE)  \
    X(F16, "f16", TYPE) X(F16X2, "f16x2", TYPE) X(BF16, "bf16", TYPE) X(BF16X2, "bf16x2", TYPE)        \
    X(TF32, "tf32", TYPE) X(F32, "f32", TYPE) X(F64, "f64", TYPE) X(PRED, "pred", TYPE)                \
    X(E4M3, "e4m3", TYPE) X(E5M2, "e5m2", TYPE) X(E4M3X2, "e4m3x2", TYPE) X(E5M2X2, "e5m2x2", TYPE)    \
    X(S4, "s4", TYPE) X(U4, "u4", TYPE) X(B1, "b1", TYPE)                                              \
    /* state spaces (keep in ptx_space_t order) */                                                      \
    X(REG, "reg", SPACE) X(SREG, "sreg", SPACE) X(CONST, "const", SPACE) X(GLOBAL, "global", SPACE)    \
    X(LOCAL, "local", SPACE) X(PARAM, "param", SPACE) X(SHARED, "shared", SPACE) X(TEXSP, "tex", SPACE) \
    X(SHARED_CTA, "shared::cta", SPACE) X(SHARED_CLUSTER, "shared::cluster", SPACE)                    \
    X(PARAM_ENTRY, "param::entry", SPACE) X(PARAM_FUNC, "param::func", SPACE)                          \
    /* rounding */                                                                                      \
    X(RN, "rn", ROUND) X(RZ, "rz", ROUND) X(RM, "rm", ROUND) X(RP, "rp", ROUND) X(RNI, "rni", ROUND)   \
    X(RZI, "rzi", ROUND) X(RMI, "rmi", ROUND) X(RPI, "rpi", ROUND) X(RNA, "rna", ROUND)                \
    X(RS, "rs", ROUND)                                                                                 \
    /* comparisons (LO and HI are also mul.lo / mul.hi: one spelling, one modifier) */                   \
    X(EQ, "eq", CMP) X(NE, "ne", CMP) X(LT, "lt", CMP) X(LE, "le", CMP) X(GT, "gt", CMP)               \
    X(GE, "ge", CMP) X(LO, "lo", CMP) X(LS, "ls", CMP) X(HI, "hi", CMP) X(HS, "hs", CMP)               \
    X(EQU, "equ", CMP) X(NEU, "neu", CMP) X(LTU, "ltu", CMP) X(LEU, "leu", CMP) X(GTU, "gtu", CMP)     \
    X(GEU, "geu", CMP) X(NUM, "num", CMP) X(NAN, "nan", CMP)                                           \
    /* boolean combiners of setp/set, also the atom/red/redux/bar.red operations of the same name */     \
    X(AND, "and", BOOL) X(OR, "or", BOOL) X(XOR, "xor", BOOL)                                          \
    /* vectors */                                                                                       \
    X(V2, "v2", VEC) X(V4, "v4", VEC) X(V8, "v8", VEC)                                                 \
    /* everything else; the opcode gives the meaning */                                                 \
    X(SAT, "sat", OTHER) X(SATFINITE, "satfinite", OTHER) X(FTZ, "ftz", OTHER)                         \
    X(APPROX, "approx", OTHER) X(FULL, "full", OTHER) X(WIDE, "wide", OTHER) X(CC, "cc", OTHER)        \
    X(UNI, "uni", OTHER) X(SYNC, "sync", OTHER) X(ALIGNED, "aligned", OTHER) X(WARP, "warp", OTHER)    \
    X(ARRIVE, "arrive", OTHER) X(RED, "red", OTHER) X(POPC, "popc", OTHER) X(ALL, "all", OTHER)        \
    X(ANY, "any", OTHER) X(BALLOT, "ballot", OTHER) X(UP, "up", OTHER) X(DOWN, "down", OTHER)          \
    X(BFLY, "bfly", OTHER) X(IDX, "idx", OTHER) X(ADD, "add", OTHER) X(INC, "inc", OTHER)              \
    X(DEC, "dec", OTHER) X(MIN, "min", OTHER) X(MAX, "max", OTHER) X(EXCH, "exch", OTHER)              \
    X(CAS, "cas", OTHER) X(CTA, "cta", OTHER) X(GPU, "gpu", OTHER) X(SYS, "sys", OTHER)                \
    X(CLUSTER, "cluster", OTHER) X(GL, "gl", OTHER) X(RELAXED, "relaxed", OTHER)                       \
    X(ACQUIRE, "acquire", OTHER) X(RELEASE, "release", OTHER) X(ACQ_REL, "acq_rel", OTHER)             \
    X(SC, "sc", OTHER) X(WEAK, "weak", OTHER) X(VOLATILE, "volatile", OTHER) X(MMIO, "mmio", OTHER)    \
    X(NC, "nc", OTHER) X(CA, "ca", OTHER) X(CG, "cg", OTHER) X(CS, "cs", OTHER) X(LU, "lu", OTHER)     \
    X(CV, "cv", OTHER) X(WB, "wb", OTHER) X(WT, "wt", OTHER) X(TO, "to", OTHER)                        \
    X(CLAMP, "clamp", OTHER) X(WRAP, "wrap", OTHER) X(L, "l", OTHER) X(R, "r", OTHER)                  \
    X(SHIFTAMT, "shiftamt", OTHER) X(RELU, "relu", OTHER) X(NOFTZ, "noftz", OTHER)                     \
    X(NAN_MINMAX, "NaN", OTHER) X(XORSIGN, "xorsign", OTHER) X(ABS, "abs", OTHER)                      \
    X(F4E, "f4e", OTHER) X(B4E, "b4e", OTHER) X(RC8, "rc8", OTHER) X(ECL, "ecl", OTHER)                \
    X(ECR, "ecr", OTHER) X(RC16, "rc16", OTHER) X(FINITE, "finite", OTHER)                             \
    X(INFINITE, "infinite", OTHER) X(NUMBER, "number", OTHER) X(NOTANUMBER, "notanumber", OTHER)       \
    X(NORMAL, "normal", OTHER) X(SUBNORMAL, "subnormal", OTHER)                                        \
    X(L1_EVICT_NORMAL, "L1::evict_normal", OTHER) X(L1_EVICT_UNCHANGED, "L1::evict_unchanged", OTHER)  \
    X(L1_EVICT_FIRST, "L1::evict_first", OTHER) X(L1_EVICT_LAST, "L1::evict_last", OTHER)              \
    X(L1_NO_ALLOCATE, "L1::no_allocate", OTHER) X(L2_EVICT_NORMAL, "L2::evict_normal", OTHER)          \
    X(L2_EVICT_FIRST, "L2::evict_first", OTHER) X(L2_EVICT_LAST, "L2::evict_last", OTHER)              \
    X(L2_CACHE_HINT, "L2::cache_hint", OTHER) X(L2_64B, "L2::64B", OTHER)                              \
    X(L2_128B, "L2::128B", OTHER) X(L2_256B, "L2::256B", OTHER) X(L1, "L1", OTHER) X(L2, "L2", OTHER)  \
    X(ASYNC, "async", OTHER) X(COMMIT_GROUP, "commit_group", OTHER)                                    \
    X(WAIT_GROUP, "wait_group", OTHER) X(WAIT_ALL, "wait_all", OTHER) X(PROXY, "proxy", OTHER)         \
    X(ALIAS, "alias", OTHER) X(ZERO, "zero", OTHER) X(TRAP, "trap", OTHER) X(M8N8, "m8n8", OTHER)      \
    X(X1, "x1", OTHER) X(X2, "x2", OTHER) X(X4, "x4", OTHER) X(TRANS, "trans", OTHER)                  \
    X(NOINC, "noinc", OTHER) X(INIT, "init", OTHER) X(INVAL, "inval", OTHER)                           \
    X(TEST_WAIT, "test_wait", OTHER) X(TRY_WAIT, "try_wait", OTHER) X(ARRIVE_DROP, "arrive_drop", OTHER) \
    X(PENDING_COUNT, "pending_count", OTHER) X(EXPECT_TX, "expect_tx", OTHER)                          \
    X(COMPLETE_TX, "complete_tx", OTHER) X(PARITY, "parity", OTHER)

typedef enum {
    PTX_MOD_NONE = 0,
#define PTX_X_ENUM(id, s, c) PTX_MOD_##id,
    PTX_MODIFIERS(PTX_X_ENUM)
#undef PTX_X_ENUM
        PTX_MOD_COUNT
} ptx_mod_t;

/* Types, in the order of the TYPE block above (ptx_mod_type maps one to the other). */
typedef enum {
    PTX_T_NONE = 0,
    PTX_T_B8, PTX_T_B16, PTX_T_B32, PTX_T_B64, PTX_T_B128,
    PTX_T_U8, PTX_T_U16, PTX_T_U32, PTX_T_U64,
    PTX_T_S8, PTX_T_S16, PTX_T_S32, PTX_T_S64,
    PTX_T_F16, PTX_T_F16X2, PTX_T_BF16, PTX_T_BF16X2, PTX_T_TF32, PTX_T_F32, PTX_T_F64,
    PTX_T_PRED,
    PTX_T_E4M3, PTX_T_E5M2, PTX_T_E4M3X2, PTX_T_E5M2X2, PTX_T_S4, PTX_T_U4, PTX_T_B1,
    PTX_T_COUNT
} ptx_type_t;

/* State spaces, in the order of the SPACE block above. PTX_SPACE_NONE on a memory instruction means
 * the generic address space (`ld.u32 [%rd]`). SHARED_CTA is folded into SHARED by ptx_insn_space. */
typedef enum {
    PTX_SPACE_NONE = 0,
    PTX_SPACE_REG, PTX_SPACE_SREG, PTX_SPACE_CONST, PTX_SPACE_GLOBAL, PTX_SPACE_LOCAL, PTX_SPACE_PARAM,
    PTX_SPACE_SHARED, PTX_SPACE_TEX, PTX_SPACE_SHARED_CTA, PTX_SPACE_SHARED_CLUSTER,
    PTX_SPACE_PARAM_ENTRY, PTX_SPACE_PARAM_FUNC,
    PTX_SPACE_COUNT
} ptx_space_t;

/* Special registers (PTX ISA chapter 10). Vector ones (%tid, %ntid, %ctaid, %nctaid, %clusterid, ...)
 * take a component .x/.y/.z (ptx_operand_t.sreg_comp 0..2); %envreg<32> and %pm<8> take an index. */
#define PTX_SREGS(X)                                                                                     \
    X(TID, "%tid", 1) X(NTID, "%ntid", 1) X(CTAID, "%ctaid", 1) X(NCTAID, "%nctaid", 1)                \
    X(LANEID, "%laneid", 0) X(WARPID, "%warpid", 0) X(NWARPID, "%nwarpid", 0) X(SMID, "%smid", 0)      \
    X(NSMID, "%nsmid", 0) X(GRIDID, "%gridid", 0) X(LANEMASK_EQ, "%lanemask_eq", 0)                    \
    X(LANEMASK_LE, "%lanemask_le", 0) X(LANEMASK_LT, "%lanemask_lt", 0)                                \
    X(LANEMASK_GE, "%lanemask_ge", 0) X(LANEMASK_GT, "%lanemask_gt", 0) X(CLOCK, "%clock", 0)          \
    X(CLOCK_HI, "%clock_hi", 0) X(CLOCK64, "%clock64", 0) X(GLOBALTIMER, "%globaltimer", 0)            \
    X(GLOBALTIMER_LO, "%globaltimer_lo", 0) X(GLOBALTIMER_HI, "%globaltimer_hi", 0)                    \
    X(TOTAL_SMEM_SIZE, "%total_smem_size", 0) X(DYNAMIC_SMEM_SIZE, "%dynamic_smem_size", 0)            \
    X(AGGR_SMEM_SIZE, "%aggr_smem_size", 0) X(ENVREG, "%envreg", 2) X(PM, "%pm", 2)                    \
    X(PM64, "%pm64", 2) X(CLUSTERID, "%clusterid", 1) X(NCLUSTERID, "%nclusterid", 1)                  \
    X(CLUSTER_CTAID, "%cluster_ctaid", 1) X(CLUSTER_NCTAID, "%cluster_nctaid", 1)                      \
    X(CLUSTER_CTARANK, "%cluster_ctarank", 0) X(CLUSTER_NCTARANK, "%cluster_nctarank", 0)              \
    X(IS_EXPLICIT_CLUSTER, "%is_explicit_cluster", 0) X(RESERVED_SMEM_OFFSET_BEGIN,                    \
    "%reserved_smem_offset_begin", 0) X(RESERVED_SMEM_OFFSET_END, "%reserved_smem_offset_end", 0)      \
    X(RESERVED_SMEM_OFFSET_CAP, "%reserved_smem_offset_cap", 0)

typedef enum {
    PTX_SREG_NONE = 0,
#define PTX_X_ENUM(id, s, k) PTX_SREG_##id,
    PTX_SREGS(PTX_X_ENUM)
#undef PTX_X_ENUM
        PTX_SREG_COUNT
} ptx_sreg_t;

/* ---------------------------------------------------------------------------------------------------
 * Positions.
 */

/* A place in the PTX text: 1-based line and column (bytes). 0/0 for something the tools made. */
typedef struct {
    uint32_t line, col;
} ptx_pos_t;

/* The CUDA source position in force for an instruction (the last `.loc FILE LINE COL` before it in
 * the same function; file 0 when none). `inlined_at` forms keep the outer position too. */
typedef struct {
    uint32_t file, line, col;          /* .loc operands; file indexes ptx_module_t.files (0: none) */
    uint32_t in_file, in_line, in_col; /* `, inlined_at F L C` (0 when absent) */
    uint32_t fn_name;                  /* `, function_name LABEL`: string id of LABEL, 0 when absent */
} ptx_loc_t;

/* ---------------------------------------------------------------------------------------------------
 * Operands.
 */

typedef enum {
    PTX_OPK_NONE = 0,
    PTX_OPK_REG,    /* reg: register id; neg: `!%p` (predicate operands only) */
    PTX_OPK_PAIR,   /* `%r|%p` (setp, shfl destinations): reg and reg2 */
    PTX_OPK_IMM,    /* integer literal: imm (two's complement for negative literals) */
    PTX_OPK_FIMM,   /* float literal: fbits with fwidth 32 (0fXXXXXXXX) or 64 (0dXXXXXXXXXXXXXXXX or a
                       decimal literal, which PTX reads as f64) */
    PTX_OPK_SREG,   /* special register: sreg, sreg_comp */
    PTX_OPK_SYM,    /* the address of a variable or function used as a value (`mov.u64 %rd, g;`), plus
                       imm as an offset for `g+4` */
    PTX_OPK_ADDR,   /* memory operand `[base+imm]`: base is a register (reg), a symbol (sym) or none
                       (`[imm]`, an absolute address); imm is the signed offset (0 when absent) */
    PTX_OPK_LABEL,  /* branch target: label id */
    PTX_OPK_VEC,    /* `{a, b, c, d}`: elements are operands [first, first + count) of the function's
                       operand pool (registers, immediates or sinks) */
    PTX_OPK_LIST,   /* `(a, b)` of a call: elements in the pool like VEC (symbols of .param variables or
                       registers) */
    PTX_OPK_SINK    /* `_` */
} ptx_opkind_t;

typedef enum { PTX_BASE_NONE = 0, PTX_BASE_REG, PTX_BASE_SYM } ptx_basekind_t;

typedef struct {
    uint8_t kind;      /* ptx_opkind_t */
    uint8_t neg;       /* REG: written `!%p` */
    uint8_t base;      /* ADDR: ptx_basekind_t */
    uint8_t fwidth;    /* FIMM: 32 or 64 */
    uint8_t sreg_comp; /* SREG: 0..2 for .x .y .z (1-component registers: 0); ENVREG/PM: the index */
    uint8_t sreg;      /* SREG: ptx_sreg_t */
    uint16_t pad;
    uint32_t reg;      /* REG, PAIR (first), ADDR with base REG */
    uint32_t reg2;     /* PAIR: the predicate */
    uint32_t sym;      /* SYM, ADDR with base SYM: symbol id */
    uint32_t label;    /* LABEL: label id */
    uint32_t first, count; /* VEC, LIST: slice of the function's operand pool */
    int64_t imm;       /* IMM value; SYM and ADDR offset */
    uint64_t fbits;    /* FIMM: IEEE bits (f32 in the low 32 bits) */
} ptx_operand_t;

/* ---------------------------------------------------------------------------------------------------
 * Instructions.
 */

#define PTX_MAX_MODS 12
#define PTX_MAX_OPS 8

typedef struct {
    ptx_opcode_t opc;
    uint8_t nmods;
    uint8_t nops;
    uint8_t guard_neg;          /* `@!%p` */
    uint8_t flags;              /* PTX_IF_* */
    uint32_t guard;             /* guard predicate register id, PTX_NOREG when unguarded */
    uint16_t mods[PTX_MAX_MODS];/* ptx_mod_t in source order */
    ptx_operand_t ops[PTX_MAX_OPS]; /* destination(s) first, as written */
    ptx_pos_t pos;              /* of the opcode (or of the guard when there is one) */
    ptx_loc_t loc;              /* CUDA source position in force */
} ptx_insn_t;

#define PTX_NOREG UINT32_MAX
#define PTX_NOSYM UINT32_MAX

/* Instruction flags. */
enum {
    PTX_IF_ADDED = 1u << 0 /* made by a tool (instrumentation), not parsed */
};

/* Call instructions are stored with a fixed operand order whatever the source spelling:
 *   ops[0] LIST of return parameters (count 0 when the call returns nothing),
 *   ops[1] the target: SYM (a function) or REG (an indirect call),
 *   ops[2] LIST of argument parameters (count 0 when none),
 *   ops[3] for an indirect call: LABEL of the .callprototype (or SYM of a jump table list), else NONE.
 * nops is always 4 for call. */

/* ---------------------------------------------------------------------------------------------------
 * Symbols: variables, parameters, functions.
 */

typedef enum {
    PTX_SYM_VAR,   /* a variable in .global/.const/.shared/.local/.param (module or function scope) */
    PTX_SYM_PARAM, /* a parameter of an .entry or .func (space PARAM) */
    PTX_SYM_FUNC   /* an .entry or .func (declared or defined) */
} ptx_symkind_t;

typedef enum { PTX_LINK_NONE = 0, PTX_LINK_VISIBLE, PTX_LINK_EXTERN, PTX_LINK_WEAK, PTX_LINK_COMMON } ptx_link_t;

/* One element of a variable initializer. */
typedef enum { PTX_INIT_INT, PTX_INIT_FLOAT, PTX_INIT_SYM, PTX_INIT_GENERIC } ptx_initkind_t;
typedef struct {
    uint8_t kind;   /* ptx_initkind_t; SYM: `g+off`, GENERIC: `generic(g)+off` */
    uint8_t fwidth; /* FLOAT: 32 or 64 */
    uint32_t sym;   /* SYM, GENERIC */
    int64_t ival;   /* INT value; SYM/GENERIC offset */
    uint64_t fbits; /* FLOAT bits */
} ptx_init_t;

typedef struct {
    uint32_t name;        /* string id */
    uint8_t kind;         /* ptx_symkind_t */
    uint8_t space;        /* ptx_space_t of a variable or parameter; 0 for functions */
    uint8_t link;         /* ptx_link_t */
    uint8_t type;         /* ptx_type_t of the element (.b8 for byte arrays); functions: 0 */
    uint8_t vec;          /* .v2/.v4 variables: 2 or 4; else 1 */
    uint8_t ptr_space;    /* kernel parameters `.param .u64 .ptr.global.align 8 p`: ptx_space_t, else 0 */
    uint8_t unsized;      /* declared with `[]` (extern shared arrays) */
    uint8_t pad;
    uint32_t align;       /* .align N (0: natural) */
    uint32_t ndims;       /* array dimensions (0 for a scalar) */
    uint64_t dims[4];     /* each dimension (0 for `[]`) */
    uint64_t size;        /* bytes: element size x vec x product of dims (0 when unsized) */
    int32_t func;         /* scope: the function index for function-scope symbols, -1 for module scope */
    uint32_t first_init, ninit; /* initializer elements in ptx_module_t.inits (ninit 0: none) */
    uint32_t fn_index;    /* FUNC: index into ptx_module_t.funcs */
    ptx_pos_t pos;        /* of the declaration */
    /* Added by the parser (additive): the `.ptr` attribute of a kernel parameter. has_ptr is 1 when
     * `.ptr` was written (ptr_space then is its space or PTX_SPACE_NONE for generic `.ptr.align N`);
     * ptr_align is its `.align N`, 0 when absent. */
    uint8_t has_ptr;
    uint32_t ptr_align;
} ptx_sym_t;

/* ---------------------------------------------------------------------------------------------------
 * Functions.
 */

typedef struct {
    uint32_t name;    /* string id, as written: "%r5", "%SP", "temp_param_reg" */
    uint8_t type;     /* ptx_type_t */
    uint8_t vec;      /* .v2/.v4 register vectors: 2 or 4, else 1 */
    uint16_t pad;
    uint32_t scope;   /* statement index of the scope that declares it (0: the body) */
    ptx_pos_t pos;
} ptx_reg_t;

typedef struct {
    uint32_t name; /* string id, without the ':' */
    uint32_t stmt; /* index of its PTX_ST_LABEL statement, UINT32_MAX until defined */
    ptx_pos_t pos; /* of the definition (or of the first use until defined) */
} ptx_label_t;

typedef enum {
    PTX_ST_INSN,       /* insn: index into insns */
    PTX_ST_LABEL,      /* label: label id */
    PTX_ST_SCOPE_BEGIN,/* `{` */
    PTX_ST_SCOPE_END,  /* `}` */
    PTX_ST_REGDECL,    /* `.reg .b32 %r<6>;`: regs [first, first + count) of one declaration; the
                          parser records n (the `<n>` of a parameterized name) in aux, or 0 */
    PTX_ST_VARDECL,    /* a function-scope variable (.local, .shared, .param in a call scope): sym */
    PTX_ST_LOC,        /* `.loc ...` (loc) */
    PTX_ST_PRAGMA,     /* `.pragma "text";` (text: string id of the text without quotes) */
    PTX_ST_PROTOTYPE   /* `name: .callprototype ...;` kept as text (text: string id of the whole
                          directive after the label), label: its label id */
} ptx_stkind_t;

typedef struct {
    uint8_t kind;   /* ptx_stkind_t */
    uint8_t pad[3];
    uint32_t index; /* INSN: insn index; LABEL, PROTOTYPE: label id; VARDECL: sym id; REGDECL: first reg;
                       PRAGMA: string id */
    uint32_t count; /* REGDECL: number of registers; PROTOTYPE: string id of the text */
    uint32_t aux;   /* REGDECL: the <n> of a parameterized declaration (0: a plain list of names) */
    ptx_loc_t loc;  /* LOC */
    ptx_pos_t pos;
} ptx_stmt_t;

typedef struct {
    uint32_t sym;       /* its PTX_SYM_FUNC symbol */
    bool is_entry;      /* .entry (kernel) vs .func */
    bool defined;       /* has a body (false for `.extern .func` / prototypes) */
    bool noreturn;      /* .noreturn */
    uint8_t link;       /* ptx_link_t */
    uint32_t *params;   /* parameter symbol ids, in order */
    uint32_t nparams;
    uint32_t *rets;     /* .func return parameter symbol ids (0 or 1 for nvcc; any number parsed) */
    uint32_t nrets;
    /* performance directives: 0 when absent */
    uint32_t maxntid[3], reqntid[3], minnctapersm, maxnreg, maxnctapersm;
    /* body */
    ptx_stmt_t *stmts;   uint32_t nstmts, cap_stmts;
    ptx_insn_t *insns;   uint32_t ninsns, cap_insns;
    ptx_reg_t *regs;     uint32_t nregs, cap_regs;
    ptx_label_t *labels; uint32_t nlabels, cap_labels;
    ptx_operand_t *pool; uint32_t npool, cap_pool; /* VEC and LIST elements */
    ptx_pos_t pos;       /* of `.entry` / `.func` */
    ptx_pos_t end_pos;   /* of the closing `}` */
} ptx_func_t;

/* ---------------------------------------------------------------------------------------------------
 * The module.
 */

typedef enum {
    PTX_ITEM_VERSION,      /* .version major.minor (a, b) */
    PTX_ITEM_TARGET,       /* .target (text: string id of the comma-separated list as written) */
    PTX_ITEM_ADDRESS_SIZE, /* .address_size a */
    PTX_ITEM_VAR,          /* a module-scope variable: index = sym */
    PTX_ITEM_FUNC,         /* a function declaration or definition: index = function index */
    PTX_ITEM_FILE,         /* .file a "name" [, b, c]: index = file index */
    PTX_ITEM_SECTION       /* .section NAME { ... }: index = string id of the whole text, verbatim */
} ptx_itemkind_t;

typedef struct {
    uint8_t kind;
    uint32_t index;
    uint64_t a, b;
    ptx_pos_t pos;
} ptx_item_t;

typedef struct {
    uint32_t index;       /* the number after .file */
    uint32_t name;        /* string id of the path */
    uint64_t timestamp, size; /* optional, 0 when absent */
    bool has_extra;
} ptx_file_t;

typedef struct {
    uint32_t version_major, version_minor;
    uint32_t target;       /* string id of the first target (e.g. "sm_80") */
    uint32_t address_size; /* 64 (32 is refused: docs/compiler.md §1) */

    ptx_item_t *items;  uint32_t nitems, cap_items;
    ptx_sym_t *syms;    uint32_t nsyms, cap_syms;
    ptx_func_t *funcs;  uint32_t nfuncs, cap_funcs;
    ptx_init_t *inits;  uint32_t ninits, cap_inits;
    ptx_file_t *files;  uint32_t nfiles, cap_files;

    /* String table: strings are NUL-terminated, id 0 is the empty string. */
    char *strtab;       size_t strtab_len, strtab_cap;
    uint32_t *str_off;  uint32_t nstrs, cap_strs;

    char *name;         /* the file name used in messages (owned) */

    /* Added by the parser (additive): open-addressing hash of the string table used by ptx_intern
     * (string id + 1 per slot, 0 empty; str_hash_cap is 0 or a power of two). */
    uint32_t *str_hash; uint32_t str_hash_cap;
} ptx_module_t;

/* ---------------------------------------------------------------------------------------------------
 * Errors.
 */

/* "file:line:col: message" (position omitted when unknown). */
typedef struct {
    char msg[512];
    ptx_pos_t pos;
} ptx_err_t;

/* ---------------------------------------------------------------------------------------------------
 * API: the parser, the printer, and small helpers. Implemented in ptx_parse.c, ptx_print.c, ptx_ir.c.
 */

/* Parse len bytes of PTX text (need not be NUL-terminated). name is used in messages. Returns the
 * module, or NULL with err->msg = "name:line:col: what was expected, got 'token'" and err->pos. Never
 * reads outside text[0..len), never crashes on any input, holds memory proportional to the input. */
ptx_module_t *ptx_parse(const char *name, const char *text, size_t len, ptx_err_t *err);

/* Read a whole file (or "-" for stdin) and parse it. NULL with err set on I/O or parse errors. */
ptx_module_t *ptx_parse_file(const char *path, ptx_err_t *err);

void ptx_module_free(ptx_module_t *m); /* NULL is a no-op */

/* Write the module as PTX text. The output parses back to a module that prints identically (a fixed
 * point after one round), keeps every item and statement in order, spells immediates canonically
 * (integers in decimal, floats as 0f/0d hex) and re-emits .loc directives and raw sections verbatim.
 * Returns 0, or -1 on a write error. */
int ptx_print(const ptx_module_t *m, FILE *out);
/* The same into a malloc'd NUL-terminated buffer (*len without the NUL). NULL when out of memory. */
char *ptx_print_str(const ptx_module_t *m, size_t *len);

/* One instruction in PTX syntax (no trailing ';' or newline) into buf[cap]; returns the length it
 * needed (like snprintf). */
int ptx_format_insn(const ptx_module_t *m, const ptx_func_t *f, const ptx_insn_t *in, char *buf, size_t cap);

/* Vocabulary. */
const char *ptx_opcode_name(ptx_opcode_t o);      /* "add"; "?" out of range */
const char *ptx_mod_name(ptx_mod_t m);            /* "rn", "L1::no_allocate" (without the dot) */
ptx_modclass_t ptx_mod_class(ptx_mod_t m);
ptx_type_t ptx_mod_type(ptx_mod_t m);             /* PTX_T_NONE unless a TYPE modifier */
ptx_space_t ptx_mod_space(ptx_mod_t m);           /* PTX_SPACE_NONE unless a SPACE modifier */
ptx_mod_t ptx_mod_from_type(ptx_type_t t);
ptx_mod_t ptx_mod_from_space(ptx_space_t s);
const char *ptx_type_name(ptx_type_t t);          /* "u32" */
unsigned ptx_type_bytes(ptx_type_t t);            /* 1,2,4,8,16; PRED: 0; sub-byte types: 0 */
bool ptx_type_is_float(ptx_type_t t);
bool ptx_type_is_signed(ptx_type_t t);            /* S8..S64 */
const char *ptx_space_name(ptx_space_t s);        /* "global" */
const char *ptx_sreg_name(ptx_sreg_t s);          /* "%tid" */

/* Instruction helpers (ptx_ir.c). */
bool ptx_insn_has(const ptx_insn_t *in, ptx_mod_t m);
/* The state space of a memory instruction (ld, st, atom, red, ldu, prefetch, cvta, isspacep, cp):
 * the first SPACE modifier, with SHARED_CTA folded into SHARED and PARAM_ENTRY/FUNC into PARAM;
 * PTX_SPACE_NONE (generic) when there is none. */
ptx_space_t ptx_insn_space(const ptx_insn_t *in);
/* The TYPE modifiers in source order into types[0..n); returns n (at most 3). */
unsigned ptx_insn_types(const ptx_insn_t *in, ptx_type_t types[3]);
/* The first modifier of class c, or PTX_MOD_NONE. */
ptx_mod_t ptx_insn_mod_of_class(const ptx_insn_t *in, ptx_modclass_t c);
/* Vector width from .v2/.v4/.v8, else 1. */
unsigned ptx_insn_vec(const ptx_insn_t *in);
/* For memory instructions: bytes accessed per thread (element size x vector width; atom/red: the
 * operand size; 0 for non-memory instructions or unknown types). */
unsigned ptx_insn_access_bytes(const ptx_insn_t *in);
/* Index of the memory operand (PTX_OPK_ADDR) of in, or -1. */
int ptx_insn_addr_op(const ptx_insn_t *in);
/* True when in writes register r (destinations: ops[0] for most instructions, both halves of a PAIR,
 * the elements of a VEC destination of ld/ldu/mov/shfl, nothing for st/red/bra/call-with-no-return…).
 * For call, the returned values are written by the following ld.param, not by the call. */
bool ptx_insn_writes(const ptx_insn_t *in, const ptx_func_t *f, uint32_t r);
/* The registers in writes into out[cap]; returns the count (<= 8). */
unsigned ptx_insn_defs(const ptx_insn_t *in, const ptx_func_t *f, uint32_t *out, unsigned cap);
/* The registers read (sources, address bases, the guard, VEC/LIST elements) into out[cap]; returns the
 * count (<= 16). */
unsigned ptx_insn_uses(const ptx_insn_t *in, const ptx_func_t *f, uint32_t *out, unsigned cap);
/* True for bra, brx, ret, exit, trap (instructions that end a basic block). */
bool ptx_insn_is_terminator(const ptx_insn_t *in);

/* Strings and lookup. */
const char *ptx_str(const ptx_module_t *m, uint32_t id);      /* "" for an id out of range */
uint32_t ptx_intern(ptx_module_t *m, const char *s, size_t n); /* UINT32_MAX when out of memory */
const char *ptx_sym_name(const ptx_module_t *m, uint32_t sym);
const char *ptx_reg_name(const ptx_module_t *m, const ptx_func_t *f, uint32_t reg);
/* A module-scope symbol by name (functions and variables), PTX_NOSYM if none. */
uint32_t ptx_find_global(const ptx_module_t *m, const char *name);
/* A function by name, or -1. */
int ptx_find_func(const ptx_module_t *m, const char *name);

/* Growth helpers for tools that build or rewrite IR (instrumentation). Each returns the index of the
 * new element, or UINT32_MAX when out of memory (the module is unchanged then). */
uint32_t ptx_func_add_insn(ptx_func_t *f, const ptx_insn_t *in);
uint32_t ptx_func_add_stmt(ptx_func_t *f, const ptx_stmt_t *st);
uint32_t ptx_func_add_reg(ptx_func_t *f, uint32_t name, ptx_type_t type, uint32_t scope);
uint32_t ptx_func_add_label(ptx_func_t *f, uint32_t name);
uint32_t ptx_func_add_pool(ptx_func_t *f, const ptx_operand_t *ops, uint32_t n); /* first index */
uint32_t ptx_module_add_sym(ptx_module_t *m, const ptx_sym_t *s);
uint32_t ptx_module_add_func(ptx_module_t *m); /* a zeroed function */
uint32_t ptx_module_add_item(ptx_module_t *m, const ptx_item_t *it);

/* Added with the parser (additive). Check the module's internal consistency: every id (string,
 * symbol, function, register, label, statement, instruction, file, initializer) and every operand
 * pool slice is in range, enums hold known values, counts respect PTX_MAX_MODS/PTX_MAX_OPS, pool
 * elements are not themselves VEC or LIST, and each defined label points at a LABEL or PROTOTYPE
 * statement naming it. A module from ptx_parse always passes; tools that rewrite IR can call it
 * after their edits. Returns 0, or -1 with err->msg naming the first problem ("name: func 'f':
 * insn 12: ...") when err is not NULL. */
int ptx_module_validate(const ptx_module_t *m, ptx_err_t *err);

/* Added with the parser (additive). ptx_loc_t.file and .in_file hold the file number as written in
 * `.loc` (the N of `.file N "path"`, which nvcc emits after the functions); this finds the file with
 * that number, NULL when none was declared (ptxas accepts such a .loc with a warning). */
const ptx_file_t *ptx_find_file(const ptx_module_t *m, uint32_t number);

#endif /* PTX_IR_H */
