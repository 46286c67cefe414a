/*
 * ga_refsearch.h — an independent, plain software search of the metadata structures (the "third
 * opinion" of the design card). It shares no code with the walker, the MLB or the check logic: it
 * reads device memory with ga_mem_read and implements the match rule (spec §3.1) on its own.
 *
 * LIST: follows next pointers from root. BST: ordinary descent by base. TABLE: scans slots
 * 0 .. slots-1 in order (no oracle). Each stops at the first entry whose range contains the address.
 * Returns that entry's location if its tag equals the pointer's (and the tag is not 0 or freed), else 0.
 * Gives up (returns 0, *ok = false) on an unreadable node or after max_nodes nodes.
 */
#ifndef GA_REFSEARCH_H
#define GA_REFSEARCH_H

#include "ga_mem.h"

uint64_t ga_ref_search(ga_mem_t *mem, ga_layout_t layout, uint64_t root, uint64_t slots,
                       unsigned tag_bits, uint64_t p, uint64_t max_nodes, ga_entry_t *e_out, bool *ok);

#endif /* GA_REFSEARCH_H */
