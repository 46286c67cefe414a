/*
 * ga_refsearch.h — an independent, plain software search of the metadata structures (the "third
 * opinion" of the design card). It shares no code with the walker, the MLB or the check logic: it
 * reads device memory with ga_mem_read and implements the match rule (spec §3.1) on its own.
 *
 * LIST: follows next pointers from root. BST: ordinary descent by base. TABLE: scans slots
 * 0 .. slots-1 in order (no oracle). INDEX: visits the whole index depth first without reading its
 * keys (every ref of every node, every slot a leaf names). Each stops at the first entry whose range
 * contains the address. Each layout's search is in its module (ga_layout_<name>.c).
 * Returns that entry's location if its tag equals the pointer's (and the tag is not 0 or freed), else 0.
 * Gives up (returns 0, *ok = false) on an unreadable node or after max_nodes nodes.
 */
#ifndef GA_REFSEARCH_H
#define GA_REFSEARCH_H

#include "ga_mem.h"

/* Search the structure of `layout` rooted at `root` for the entry whose range contains va(p).
 *
 * - a = p's low 64 - tag_bits bits, t = p's top tag_bits bits. An entry (tb, size) at location L
 *   range-contains a when a >= ebase and a - ebase < size (ebase, etag: tb split the same way); a size-0
 *   entry contains nothing.
 * - LIST and BST: nodes are 32 bytes (tb, size, next | left, right), one ga_mem_read of 32 bytes each.
 *   The search starts at root and ends at a 0 pointer (not found). LIST goes to next; BST goes to left if
 *   a < ebase, else to right. `slots` is ignored.
 * - TABLE: slot i is the 16 bytes at root + 16*i (modulo 2^64), read for i = 0 .. slots-1 in order, one
 *   ga_mem_read of 16 bytes each; past the last slot: not found.
 * - INDEX: nodes are 128 bytes (spec §2.3), one ga_mem_read of 128 bytes each starting with root; for
 *   each node, refs 0 .. count-1 in order: an inner node's ref is the node at root + 16*ref (visited
 *   depth first), a leaf's the 16-byte slot there (one ga_mem_read of 16 bytes). Keys are never read.
 *   When no entry of that index contains a, the same search of the freed index, whose root node is at
 *   root - 128 (refs still counted from root).
 *   Every node and slot read counts against max_nodes; `slots` is ignored. Gives up also on a node
 *   with count > 11, kind > 1 or bytes 2..3 not zero, a node location not a multiple of 128, or a
 *   depth beyond 32 nodes.
 * - At the first entry that range-contains a: returns L when t = etag, t != 0 and t != 2^tag_bits - 1,
 *   else 0; *e_out gets that entry either way. When none does: returns 0, *e_out zero.
 * - Gives up (returns 0, *e_out zero, *ok false) when a read fails (unmapped, poisoned, wrapping), when
 *   a node pointer (LIST/BST) is not a multiple of 32 or the table root is not a multiple of 16 (corrupt
 *   metadata, spec §2.1), or when it would read a node (or slot) number max_nodes + 1; reading exactly
 *   max_nodes nodes and then meeting a 0 pointer (or the end of the table) is a completed search.
 * - Also gives up for mem NULL, tag_bits not 7 or 16, or a code that names no layout.
 * - Otherwise *ok = true. e_out and ok may be NULL.
 * A tag-0 or freed-tag pointer still searches (so *e_out names the covering entry) but never returns a
 * location. */
uint64_t ga_ref_search(ga_mem_t *mem, ga_layout_t layout, uint64_t root, uint64_t slots,
                       unsigned tag_bits, uint64_t p, uint64_t max_nodes, ga_entry_t *e_out, bool *ok);

#endif /* GA_REFSEARCH_H */
