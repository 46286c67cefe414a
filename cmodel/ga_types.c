/*
 * ga_types.c — names and one-line descriptions of the shared enumerations of ga_types.h.
 *
 * Every function here is total: a value outside its enumeration (for instance a corrupt integer cast
 * to the enum type) gives a fixed fallback string instead of indexing out of bounds. The returned
 * strings are static and must not be freed.
 */
#include "ga_types.h"

/* One line per ga_err_t code, indexed by the code. The order must follow the enumeration; the static
 * assertion below catches a code added without a description. */
static const char *const ga_err_text[] = {
    "success",
    "argument or configuration value outside its legal range",
    "access size is not 1, 2, 4, 8 or 16 bytes",
    "the unit halted after an exception (TERMINATE policy)",
    "allocation of zero bytes",
    "request larger than the heap or the VA space",
    "no fitting free block in the heap",
    "metadata region or table is full",
    "bad base address (0, or a range crossing the top of the VA space)",
    "range overlaps a live allocation",
    "call not allowed in this runtime's address mode",
    "double free: the allocation was already freed",
    "free of an interior pointer of a live allocation",
    "free of a live allocation's base with another tag",
    "free of a pointer that names no allocation",
    "the host ran out of memory",
};
_Static_assert(sizeof ga_err_text / sizeof ga_err_text[0] == (size_t)GA_ERR_CODES,
               "ga_err_text must have one line per ga_err_t code");

/* ga_strerror: the description of err; "unknown error" for a value outside 0 .. GA_ERR_CODES-1. */
const char *ga_strerror(ga_err_t err)
{
    unsigned idx = (unsigned)err;
    if (idx >= (unsigned)GA_ERR_CODES) return "unknown error";
    return ga_err_text[idx];
}

/* Exception kind names as spelled in spec §4.5, indexed by the RTL code. */
static const char *const ga_exc_text[] = {
    "NONE",         "OUT_OF_BOUNDS",        "USE_AFTER_FREE", "TAG_MISMATCH",
    "NO_METADATA",  "SHARED_OUT_OF_BOUNDS", "METADATA_FAULT",
};
_Static_assert(sizeof ga_exc_text / sizeof ga_exc_text[0] == (size_t)GA_EXC_KINDS,
               "ga_exc_text must name every exception kind");

/* ga_exc_name: the spec's name of kind ("NONE", "OUT_OF_BOUNDS", ...); "?" outside 0 .. 6. */
const char *ga_exc_name(ga_exc_kind_t kind)
{
    unsigned idx = (unsigned)kind;
    if (idx >= (unsigned)GA_EXC_KINDS) return "?";
    return ga_exc_text[idx];
}

/* ga_layout_name: "list", "bst" or "table"; "?" for any other value (3 is the illegal encoding). */
const char *ga_layout_name(ga_layout_t layout)
{
    switch (layout) {
    case GA_LAYOUT_LIST: return "list";
    case GA_LAYOUT_BST: return "bst";
    case GA_LAYOUT_TABLE: return "table";
    }
    return "?";
}
