/*
 * ptx_cfg.h — control-flow graph of one PTX function, with dominator and post-dominator trees
 * (docs/compiler.md §2). Used by the root-pointer analysis (reaching definitions, loop placement of
 * LOADMETA) and by the interpreter (SIMT reconvergence at immediate post-dominators).
 *
 * Blocks. The function's instruction statements, in statement order, are cut into basic blocks at
 * every label that is a branch target or follows a terminator, after every terminator (bra, brx, ret,
 * exit, trap) and after every guarded branch. Labels that nothing branches to do not start blocks
 * unless an instruction before them ends one. Block 0 is the entry (the first instruction statement).
 * A function without instructions has one empty entry block.
 *
 * Edges. `bra L` (guarded or not, .uni or not) → the block of L; a guarded bra also falls through; an
 * unguarded one does not. `ret`, `exit` and `trap` (guarded: also the fallthrough) → the virtual EXIT
 * node. `brx.idx` is refused (ptx_cfg_build fails with a message naming it). `call` is not an edge.
 * The last block falls through to EXIT when its last instruction is not a terminator (PTX allows a
 * body to end without ret; it behaves as ret).
 *
 * Trees. idom is computed over the graph from the entry, ipdom over the reverse graph from EXIT by the
 * iterative algorithm of Cooper, Harvey and Kennedy ("A Simple, Fast Dominance Algorithm", 2001).
 * Blocks that cannot reach EXIT (an infinite loop) get an artificial edge to EXIT, so every block has
 * an ipdom; unreachable blocks have idom PTX_CFG_NONE and rpo PTX_CFG_NONE.
 */
#ifndef PTX_CFG_H
#define PTX_CFG_H

#include "ptx_ir.h"

#define PTX_CFG_NONE UINT32_MAX

typedef struct {
    uint32_t *insns;   /* instruction ids (indices into f->insns) in execution order */
    uint32_t ninsns;
    uint32_t *succ;    /* successor block ids; EXIT is cfg->nblocks */
    uint32_t nsucc;
    uint32_t *pred;    /* predecessor block ids (EXIT never appears) */
    uint32_t npred;
    uint32_t idom;     /* immediate dominator; the entry's is itself; PTX_CFG_NONE when unreachable */
    uint32_t ipdom;    /* immediate post-dominator: a block id or EXIT (cfg->nblocks) */
    uint32_t rpo;      /* reverse-postorder number from the entry (PTX_CFG_NONE when unreachable) */
    uint32_t loop_depth; /* number of natural loops (back edge to a dominator) containing the block */
    bool exit_edge_added; /* the artificial edge to EXIT of a block that cannot reach it */
} ptx_block_t;

typedef struct {
    const ptx_module_t *m;
    const ptx_func_t *f;
    ptx_block_t *blocks;
    uint32_t nblocks;    /* EXIT is the id nblocks */
    uint32_t *insn_block;/* per instruction id: its block, PTX_CFG_NONE for ids not in the body */
    uint32_t *insn_pos;  /* per instruction id: its index in execution order over the whole body */
    uint32_t *order;     /* instruction ids in statement order (ninsns_body of them) */
    uint32_t ninsns_body;
    uint32_t *label_block; /* per label id: the block that starts at it, PTX_CFG_NONE otherwise */
} ptx_cfg_t;

/* Build the CFG and both trees. NULL with err set ("name:line:col: ...") for an unsupported
 * construct (brx.idx, a branch to a label that is not defined, a branch operand that is not a label)
 * or when out of memory. */
ptx_cfg_t *ptx_cfg_build(const ptx_module_t *m, const ptx_func_t *f, ptx_err_t *err);
void ptx_cfg_free(ptx_cfg_t *g); /* NULL is a no-op */

/* a dominates b (reflexive); false when either is unreachable. EXIT is dominated by nothing here. */
bool ptx_cfg_dominates(const ptx_cfg_t *g, uint32_t a, uint32_t b);
/* a post-dominates b (reflexive); EXIT post-dominates every block. */
bool ptx_cfg_postdominates(const ptx_cfg_t *g, uint32_t a, uint32_t b);

/* The block is inside a cycle of the CFG (some path leads from it back to itself), natural loop or
 * not. */
bool ptx_cfg_in_cycle(const ptx_cfg_t *g, uint32_t b);

/* Write the CFG in Graphviz dot form (blocks with their instructions, dominator and post-dominator
 * edges dashed) for `gaptx cfg`. Returns 0 or -1 on a write error. */
int ptx_cfg_dot(const ptx_cfg_t *g, FILE *out);

#endif /* PTX_CFG_H */
