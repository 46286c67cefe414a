/*
 * ptx_instr.h — GPUArmor's instrumentation pass on the PTX IR (paper §6.2; docs/compiler.md §4–§5):
 * LOADMETA once per root pointer, MEMCHECK.G before every global or generic access, MEMCHECK.S before
 * every shared access, all as calls of device functions the pass adds to the module, plus the inverse
 * ("strip") that the equivalence test uses.
 *
 * The calling convention is fixed (docs/compiler.md §4.1): the interpreter (emu/) recognises these
 * names and executes the calls as MLU requests, and the software bodies make the same module a
 * software-only GPUArmor on a real GPU.
 *
 *   .visible .global .align 8 .b8 __ga_cfg[64];
 *   .func (.param .b64 __ga_ret) __ga_loadmeta(.param .b64 __ga_root)
 *   .func (.param .b64 __ga_ret) __ga_memcheck_g(.param .b64 __ga_addr, .param .b64 __ga_md,
 *                                               .param .b32 __ga_info)
 *   .func __ga_memcheck_s(.param .b32 __ga_saddr, .param .b32 __ga_sbase, .param .b32 __ga_ssize,
 *                         .param .b32 __ga_size)
 *
 * __ga_info = access size (bits 0..7) | class << 8 (ptx_class_t) | 1 << 10 for a store or atomic;
 * __ga_size is encoded the same way (class bits 0).
 *
 * each call in its own `{ }` scope declaring `.param` variables __ga_p0, __ga_p1, ... and __ga_r; the
 * registers the pass adds are %ga_md<N> (metadata locations), %ga_a<N> (checked addresses) and
 * %ga_t<N> (temporaries), all .b64. Every instruction, declaration and scope the pass adds has
 * PTX_IF_ADDED (instructions) and position 0:0.
 */
#ifndef PTX_INSTR_H
#define PTX_INSTR_H

#include "ptx_ir.h"
#include "ptx_root.h"

#include <stddef.h>
#include <stdint.h>

/* Static counts of one function, before and after (Figure 7/8 analogues; docs/compiler.md §7). */
typedef struct {
    uint32_t insns_before;      /* instruction statements of the original body */
    uint32_t insns_after;       /* ... of the instrumented body (everything the pass added included) */
    uint32_t loadmeta;          /* LOADMETA call sites (one per root) */
    uint32_t memcheck_g;        /* MEMCHECK.G call sites */
    uint32_t memcheck_g_class[3]; /* ... by ptx_class_t */
    uint32_t memcheck_s;        /* MEMCHECK.S call sites */
    uint32_t memcheck_s_res[3]; /* ... by ptx_sres_t */
    uint32_t md_movs;           /* metadata operations (mov/selp/max writing %ga_md) */
    uint32_t overhead;          /* other added instructions: st.param/ld.param of the calls, the
                                   temporaries (address + offset, parameter reloads, sizes) */
    uint32_t shadows;           /* shadow registers */
    uint32_t unchecked[PTX_UNCHK_COUNT];
} ptx_instr_stats_t;

typedef struct {
    ptx_instr_stats_t total;    /* over the instrumented functions (the added bodies excluded) */
    uint32_t body_insns;        /* instructions of the three software bodies, 0 when none added */
    uint32_t nfuncs;            /* defined functions of the original module */
    ptx_instr_stats_t *func;    /* per function index of the original module (nfuncs entries; zero for
                                   declarations); malloc'd, free with ptx_instr_result_free */
} ptx_instr_result_t;

void ptx_instr_result_free(ptx_instr_result_t *r); /* NULL is a no-op */

/* Instrument every defined function of m in place. On success returns 0 and, when res is not NULL,
 * fills it. A module without any checked access (and so no root) is left unchanged; otherwise the
 * module gains __ga_cfg and the three bodies (right after the leading .version/.target/.address_size
 * directives) and each function with accesses gains its register declarations, LOADMETAs, metadata
 * operations and checks.
 *
 * Fails with -1 and err = "file:line:col: what" when the module already uses a name of the
 * convention (a symbol starting "__ga_" or a register starting "%ga_": it is instrumented already, or
 * would collide), when the analysis refuses a function (ptx_root_analyze), or when out of memory.
 * Every check that can fail on the input runs before the module is touched, so on those errors the
 * module is unchanged; only running out of memory can leave it half-rewritten (free it then). */
int ptx_instrument(ptx_module_t *m, ptx_instr_result_t *res, ptx_err_t *err);

/* Undo ptx_instrument: remove every item, declaration, scope and instruction of the convention (the
 * __ga_* variable and functions, the %ga_* register declarations, each instruction that writes a
 * %ga_* register or names a __ga_* symbol, each scope left empty by that) and restore each access
 * address operand rewritten to [%ga_aN] from its MEMCHECK.G's address argument ([%rB+imm] from
 * `add.s64 %ga_tK, %rB, imm`, [sym+imm] from `mov.u64 %ga_tK, sym+imm`, [imm] from `mov.u64 %ga_tK,
 * imm`, [%rB] from %rB itself). Works on the pass's own IR and on a re-parse of its printed output
 * (it relies on names, not on PTX_IF_ADDED). Symbols the removed items declared stay in the symbol
 * table but no item or statement refers to them.
 *
 * Fails with -1 and err set (module unchanged) when an [%ga_aN] operand cannot be traced back to
 * its address, or when out of memory. A module without anything of the convention is unchanged. */
int ptx_strip(ptx_module_t *m, ptx_err_t *err);

/* The PTX text of __ga_cfg and the three software bodies (docs/compiler.md §5): a complete module
 * (with its own .version/.target/.address_size) that ptx_instrument parses and imports. */
const char *ptx_garuntime_text(size_t *len);

#endif /* PTX_INSTR_H */
