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

/* The layouts of ga_layouts.def, indexed by their code. */
typedef struct {
    const char *name, *title;
    bool rtl;
} layout_row_t;
static const layout_row_t ga_layout_rows[] = {
#define GA_LAYOUT(id, code, name, rtl, title) [code] = {#name, title, rtl != 0},
#include "ga_layouts.def"
#undef GA_LAYOUT
};
_Static_assert(sizeof ga_layout_rows / sizeof ga_layout_rows[0] == (size_t)GA_LAYOUTS,
               "ga_layouts.def: codes must be dense, 0 .. count - 1");
_Static_assert((size_t)GA_LAYOUTS <= (size_t)1 << GA_LAYOUT_BITS, "GA_LAYOUT_BITS too narrow");

/* ga_layout_valid: code is 0 .. GA_LAYOUTS - 1. */
bool ga_layout_valid(unsigned code) { return code < (unsigned)GA_LAYOUTS; }

/* ga_layout_name: the --layout spelling of ga_layouts.def; "?" for a code that names no layout. */
const char *ga_layout_name(ga_layout_t layout)
{
    return ga_layout_valid((unsigned)layout) ? ga_layout_rows[layout].name : "?";
}

/* ga_layout_title: the legend text of ga_layouts.def; "?" for a code that names no layout. */
const char *ga_layout_title(ga_layout_t layout)
{
    return ga_layout_valid((unsigned)layout) ? ga_layout_rows[layout].title : "?";
}

/* ga_layout_in_rtl: the rtl column of ga_layouts.def; false for a code that names no layout. */
bool ga_layout_in_rtl(ga_layout_t layout)
{
    return ga_layout_valid((unsigned)layout) && ga_layout_rows[layout].rtl;
}

/* ga_layout_parse: exact match against every name; NULL and unknown names are false. */
bool ga_layout_parse(const char *name, ga_layout_t *out)
{
    if (name == NULL) return false;
    for (unsigned i = 0; i < (unsigned)GA_LAYOUTS; i++) {
        const char *a = ga_layout_rows[i].name, *b = name;
        while (*a != '\0' && *a == *b) {
            a++;
            b++;
        }
        if (*a == '\0' && *b == '\0') {
            if (out != NULL) *out = (ga_layout_t)i;
            return true;
        }
    }
    return false;
}

/* Append s to buf[cap] at *len, keeping the NUL and counting what did not fit (snprintf's rule). */
static void put_str(char *buf, size_t cap, size_t *len, const char *s)
{
    for (; *s != '\0'; s++, (*len)++)
        if (*len + 1u < cap) buf[*len] = *s;
    if (cap > 0u) buf[*len < cap ? *len : cap - 1u] = '\0';
}

/* ga_layout_list: the names (all, or the RTL's) joined by sep, the last pair by last. */
size_t ga_layout_list(char *buf, size_t cap, const char *sep, const char *last, bool rtl_only)
{
    size_t len = 0, n = 0, total = 0;
    if (cap > 0u) buf[0] = '\0';
    for (unsigned i = 0; i < (unsigned)GA_LAYOUTS; i++)
        if (!rtl_only || ga_layout_rows[i].rtl) total++;
    for (unsigned i = 0; i < (unsigned)GA_LAYOUTS; i++) {
        if (rtl_only && !ga_layout_rows[i].rtl) continue;
        if (n > 0u) put_str(buf, cap, &len, n + 1u == total ? last : sep);
        put_str(buf, cap, &len, ga_layout_rows[i].name);
        n++;
    }
    return len;
}
