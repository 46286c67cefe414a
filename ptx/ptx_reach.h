/*
 * ptx_reach.h — reaching definitions of one PTX function's registers over its control-flow graph
 * (ptx_cfg.h), the backbone of the root-pointer analysis (docs/compiler.md §3.1, paper §6.2: "a
 * recursive search through reaching definitions").
 *
 * Definitions. A definition site of register r is an instruction that writes r (ptx_insn_defs: the
 * destinations; for a call, the values come from the ld.param that follows, not from the call). The
 * function entry is a pseudo-definition of every register (PTX_REACH_ENTRY: the value is undefined on
 * that path). An unguarded definition kills every other definition of r; a guarded one (`@%p ...`)
 * kills nothing, because it may not execute.
 *
 * Solution. The classic forward "may" problem: IN(entry) contains ENTRY, IN(b) = union of OUT(p) over
 * the predecessors p of b, OUT(b) = the block's definitions applied in order to IN(b), iterated in
 * reverse postorder until nothing changes. Blocks that are unreachable from the entry have
 * IN = {ENTRY} (nothing defined reaches them; treating their values as undefined keeps every use
 * answered). The problem is solved per register, lazily, the first time a register is asked about
 * (sparse: the analysis asks about the few dozen pointer registers of a kernel, not all of them);
 * the answer for a register is then kept until ptx_reach_free.
 *
 * All state is in the ptx_reach_t; it borrows the CFG (and through it the function), which must
 * outlive it and must not change while it is used.
 */
#ifndef PTX_REACH_H
#define PTX_REACH_H

#include "ptx_cfg.h"

/* The pseudo-definition "function entry" in a definition list. */
#define PTX_REACH_ENTRY UINT32_MAX

typedef struct ptx_reach ptx_reach_t;

/* Prepare reaching definitions for g's function. NULL with err set when out of memory. */
ptx_reach_t *ptx_reach_build(const ptx_cfg_t *g, ptx_err_t *err);
void ptx_reach_free(ptx_reach_t *rd); /* NULL is a no-op */

/* The definitions of register reg that reach the point just before instruction insn executes (so an
 * instruction that reads and writes the same register sees the earlier definitions, never itself
 * unless a path around a loop brings it back). Returns a pointer to *n instruction ids in ascending
 * execution order (ptx_cfg_t.insn_pos), with PTX_REACH_ENTRY last when the entry reaches; the array
 * stays valid until the next call of ptx_reach_defs on the same rd. insn must be an instruction of
 * the function's body (ptx_cfg_t.insn_block not NONE) and reg one of its registers; otherwise the
 * answer is empty. Returns NULL with *n = 0 only when out of memory (ptx_reach_failed is then true). */
const uint32_t *ptx_reach_defs(ptx_reach_t *rd, uint32_t insn, uint32_t reg, uint32_t *n);

/* True once an allocation failed; every later answer is NULL. */
bool ptx_reach_failed(const ptx_reach_t *rd);

/* Every definition site of reg in the body, in execution order (no ENTRY); *n receives the count.
 * The array belongs to rd and stays valid until ptx_reach_free. */
const uint32_t *ptx_reach_all_defs(const ptx_reach_t *rd, uint32_t reg, uint32_t *n);

#endif /* PTX_REACH_H */
