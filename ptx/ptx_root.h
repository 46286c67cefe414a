/*
 * ptx_root.h — GPUArmor's root-pointer analysis on one PTX function (paper §6.2, adopted from cuCatch;
 * the exact rules are docs/compiler.md §3, numbered R1–R9 there and cited below).
 *
 * For every checked memory access the analysis finds:
 *   - global and generic accesses (MEMCHECK.G): the root pointers whose metadata the check uses, by a
 *     backward slice from the address register through reaching definitions (ptx_reach.h) and pointer
 *     arithmetic, and the access's coverage class (paper Figure 8: full, partial, tagging);
 *   - shared accesses (MEMCHECK.S): the shared variable the address is derived from, which gives the
 *     compile-time base and size, or "unresolved" (the whole CTA window).
 * It also decides where the metadata locations live: one LOADMETA per root, and for accesses with
 * several roots (or one root redefined in a loop) a shadow register per pointer register of the
 * slice, kept in step by metadata operations placed after each definition (Figure 1's MOVs).
 *
 * The analysis only reads the module. It is intra-procedural: a .func's parameters are roots like a
 * kernel's, and a call's result is a root (docs/compiler.md §6 lists what escapes).
 */
#ifndef PTX_ROOT_H
#define PTX_ROOT_H

#include "ptx_ir.h"

#include <stdbool.h>
#include <stdint.h>

#define PTX_ROOT_NONE UINT32_MAX

/* Root kinds (docs/compiler.md §3.3). The first four get their LOADMETA at function entry, the last
 * three right after their defining instruction. */
typedef enum {
    PTX_ROOT_PARAM = 0, /* ld.param of a 64-bit value from a parameter of this function: (sym, offset) */
    PTX_ROOT_VAR,       /* the address of a variable (mov/cvta of a symbol): sym */
    PTX_ROOT_UNDEF,     /* a register read on a path where nothing defined it: reg */
    PTX_ROOT_CONST,     /* an absolute address `[imm]`: value */
    PTX_ROOT_LOAD,      /* a 64-bit value loaded from memory (ld, ldu, atom): (insn, reg) */
    PTX_ROOT_CALL,      /* a call's 64-bit result (ld.param of the call's return parameter): (insn, reg) */
    PTX_ROOT_INTER      /* an intermediate value the slice cannot look through: (insn, reg) */
} ptx_rootkind_t;

/* Coverage classes, in the encoding of __ga_info bits 8..9 (docs/compiler.md §4.2); a larger value is
 * a weaker class. */
typedef enum { PTX_CLASS_FULL = 0, PTX_CLASS_PARTIAL = 1, PTX_CLASS_TAGGING = 2 } ptx_class_t;

typedef enum { PTX_CHECK_G = 0, PTX_CHECK_S = 1 } ptx_checkkind_t;

/* How a shared access's base and size were found (R8). */
typedef enum {
    PTX_SHARED_STATIC = 0,  /* a sized .shared variable: its address and declared size */
    PTX_SHARED_DYNAMIC,     /* an unsized (extern) .shared array: its address and %dynamic_smem_size */
    PTX_SHARED_UNRESOLVED   /* anything else: base 0, size %total_smem_size */
} ptx_sres_t;

typedef struct {
    uint8_t kind;      /* ptx_rootkind_t */
    bool in_cycle;     /* LOAD/CALL/INTER: the defining instruction's block lies on a CFG cycle */
    bool guarded;      /* LOAD/CALL/INTER: the defining instruction is guarded (@%p) */
    bool direct;       /* some access uses this root's LOADMETA result directly (R7) */
    bool shadowed;     /* some shadowed access reaches it (its register's shadow takes its location) */
    uint32_t insn;     /* LOAD/CALL/INTER: defining instruction id; else PTX_ROOT_NONE */
    uint32_t reg;      /* LOAD/CALL/INTER/UNDEF: the register; else PTX_NOREG */
    uint32_t sym;      /* PARAM: the parameter; VAR: the variable; CALL: the callee (PTX_NOSYM: unknown,
                          e.g. an indirect call); else PTX_NOSYM */
    int64_t value;     /* PARAM: byte offset into the parameter; CONST: the address */
} ptx_root_t;

typedef struct {
    uint32_t insn;      /* the memory instruction */
    uint8_t check;      /* ptx_checkkind_t */
    uint8_t opidx;      /* its address operand (ops[opidx].kind == PTX_OPK_ADDR) */
    uint8_t space;      /* ptx_space_t as written: GLOBAL, NONE (generic) or SHARED */
    uint8_t size;       /* bytes accessed: 1, 2, 4, 8 or 16 */
    bool store;         /* st, atom, red, and cp.async's shared destination (__ga_info bit 10) */
    uint8_t cls;        /* G: ptx_class_t, the weakest over its roots */
    bool shadowed;      /* G: the metadata location comes from the address register's shadow (R7) */
    uint32_t root_first;/* G: its roots are roots[acc_roots[root_first .. root_first + nroots)] */
    uint32_t nroots;
    uint8_t sres;       /* S: ptx_sres_t */
    uint32_t svar;      /* S, STATIC or DYNAMIC: the shared variable; else PTX_NOSYM */
} ptx_access_t;

/* Metadata operations placed right after an instruction (R7), in the order given. Each writes the
 * shadow of dst and carries the instruction's guard. */
typedef enum {
    PTX_MD_ROOT = 0,    /* mov.b64 shadow(dst), location of root */
    PTX_MD_COPY,        /* mov.b64 shadow(dst), shadow(a) */
    PTX_MD_SELECT,      /* selp.b64 shadow(dst), shadow(a), shadow(b), pred */
    PTX_MD_MAX          /* max.u64 shadow(dst), shadow(a), shadow(b) */
} ptx_mdkind_t;

typedef struct {
    uint32_t insn;      /* after this instruction; PTX_ROOT_NONE: at function entry (UNDEF roots) */
    uint32_t dst;       /* register whose shadow is written */
    uint8_t kind;       /* ptx_mdkind_t */
    uint32_t root;      /* ROOT: root id */
    uint32_t a, b;      /* COPY: a; SELECT, MAX: a, b (registers whose shadows are read) */
    uint32_t pred;      /* SELECT: the predicate register of the selp */
} ptx_mdop_t;

/* Memory instructions left unchecked, by reason (for reports). */
typedef enum {
    PTX_UNCHK_LOCAL = 0, PTX_UNCHK_PARAM, PTX_UNCHK_CONST, PTX_UNCHK_PREFETCH, PTX_UNCHK_OTHER,
    PTX_UNCHK_COUNT
} ptx_unchk_t;

typedef struct {
    const ptx_module_t *m;
    const ptx_func_t *f;
    uint32_t fidx;
    ptx_access_t *acc;    uint32_t nacc;      /* in statement order; cp.async gives G then S */
    ptx_root_t *roots;    uint32_t nroots;    /* entry roots first (PARAM, VAR, UNDEF, CONST), then
                                                 instruction roots in statement order */
    uint32_t *acc_roots;  uint8_t *acc_root_cls; uint32_t nacc_roots; /* per access-root pair: root id
                                                 and that root's class for that access */
    uint32_t *shadow;     /* per register: shadow number (0..nshadows-1) or PTX_ROOT_NONE */
    uint32_t nshadows;
    ptx_mdop_t *mdops;    uint32_t nmdops;    /* entry ones first, then by instruction statement order */
    uint32_t unchecked[PTX_UNCHK_COUNT];
} ptx_root_func_t;

/* Analyse function fidx of m (which must be defined). Returns 0 and fills *out, or -1 with err set:
 * "file:line:col: what" for an access the analysis cannot handle (an access size other than 1, 2, 4,
 * 8, 16 bytes; a global access through a 32-bit register; a construct ptx_cfg_build refuses) or when
 * out of memory. *out needs ptx_root_func_free afterwards only on success. */
int ptx_root_analyze(const ptx_module_t *m, uint32_t fidx, ptx_root_func_t *out, ptx_err_t *err);
void ptx_root_func_free(ptx_root_func_t *a); /* NULL and a zeroed struct are no-ops */

/* R7: true when root r's LOADMETA writes the shadow of its register itself (no location of its own
 * and no MOV): r is used by no access directly and is an UNDEF root, or a LOAD/CALL/INTER root whose
 * defining instruction is unguarded. Every other root has its own %ga_md register. */
bool ptx_root_writes_shadow(const ptx_root_t *r);

/* Names for reports. */
const char *ptx_root_kind_name(ptx_rootkind_t k); /* "param", "variable", "undefined", "constant",
                                                     "loaded", "call", "intermediate" */
const char *ptx_class_name(ptx_class_t c);        /* "full", "partial", "tagging" */
const char *ptx_sres_name(ptx_sres_t s);          /* "static", "dynamic", "unresolved" */
const char *ptx_unchk_name(ptx_unchk_t u);        /* "local", "param", "const", "prefetch", "other" */

/* One line describing root r in PTX terms, e.g. "param _Z3fooPf_param_0+0", "loaded pointer
 * (ld.global.u64 at line 40)", "variable gvar", "intermediate (and.b64 at line 52)" into buf[cap]. */
void ptx_root_describe(const ptx_root_func_t *a, uint32_t r, char *buf, size_t cap);

#endif /* PTX_ROOT_H */
