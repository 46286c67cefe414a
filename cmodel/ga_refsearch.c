/*
 * ga_refsearch.c — the plain reference search (see ga_refsearch.h): the argument checks, then the
 * layout's own search (the `ref_search` of its module, ga_layout_<name>.c).
 *
 * Each layout's search is deliberately written without the walker, the check logic or the pointer
 * helpers of ga_types.h: every mask and the match rule are computed there from first principles, so
 * a shared mistake cannot hide.
 */
#include "ga_refsearch.h"

#include "ga_layout.h"

uint64_t ga_ref_search(ga_mem_t *mem, ga_layout_t layout, uint64_t root, uint64_t slots,
                       unsigned tag_bits, uint64_t p, uint64_t max_nodes, ga_entry_t *e_out, bool *ok)
{
    ga_entry_t e = {0, 0};
    bool done = false;
    uint64_t loc = 0;
    const ga_layout_ops_t *o = ga_layout_ops(layout);
    if (mem != NULL && (tag_bits == 7u || tag_bits == 16u) && o != NULL) {
        loc = o->ref_search(mem, root, slots, tag_bits, p, max_nodes, &e, &done);
        if (!done) {
            loc = 0;
            e.tb = e.size = 0;
        }
    }
    if (e_out != NULL) *e_out = e;
    if (ok != NULL) *ok = done;
    return loc;
}
