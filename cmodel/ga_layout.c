/*
 * ga_layout.c — the layout registry: code -> operations table, built from ga_layouts.def.
 */
#include "ga_layout.h"

static const ga_layout_ops_t *const ga_layout_table[] = {
#define GA_LAYOUT(id, code, name, rtl, title) [code] = &ga_layout_##name##_ops,
#include "ga_layouts.def"
#undef GA_LAYOUT
};
_Static_assert(sizeof ga_layout_table / sizeof ga_layout_table[0] == (size_t)GA_LAYOUTS,
               "every layout of ga_layouts.def has a table");

const ga_layout_ops_t *ga_layout_ops(ga_layout_t l)
{
    return ga_layout_valid((unsigned)l) ? ga_layout_table[l] : NULL;
}

uint64_t ga_layout_md_bytes(ga_layout_t l, uint32_t capacity)
{
    const ga_layout_ops_t *o = ga_layout_ops(l);
    return o == NULL ? 0u : o->md_bytes(capacity);
}

uint32_t ga_layout_md_align(ga_layout_t l)
{
    const ga_layout_ops_t *o = ga_layout_ops(l);
    return o == NULL ? 0u : o->md_align;
}
