/*
 * ga_types.h — shared constants, pointer format and error codes of the GPUArmor golden model.
 *
 * Everything here is a direct transcription of docs/spec.md §1–§2 and §4.5. The pointer helpers are
 * static inline so the hot path of the model has no call overhead; they have no undefined behaviour for
 * any input (all shifts are by 7..57 bits on uint64_t).
 */
#ifndef GA_TYPES_H
#define GA_TYPES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ga_isa.h" /* the shared encodings: modes, policy, exception kinds, walk ends, ... */

/* Sizes of the in-memory metadata formats (spec §2). */
#define GA_ENTRY_BYTES 16u /* tagged base + size */
#define GA_NODE_BYTES 32u  /* entry + two pointers (list: next, prev; BST: left, right) */
#define GA_INODE_BYTES 128u /* an INDEX node: one L1 line (spec §2.3) */
#define GA_MLB_MAX 64u     /* largest legal MLB (spec §6.1) */
#define GA_LANES_MAX 32u   /* largest warp (spec §4.4) */

/* Metadata layouts (spec §2.3); the values are the LAYOUT register encoding. The list is
 * cmodel/ga_layouts.def; GA_LAYOUTS is the number of layouts (codes 0 .. GA_LAYOUTS - 1). The LAYOUT
 * register is GA_LAYOUT_BITS wide (spec §5.1): codes GA_LAYOUTS .. 2^GA_LAYOUT_BITS - 1 are illegal. */
typedef enum {
#define GA_LAYOUT(id, code, name, rtl, title) GA_LAYOUT_##id = code,
#include "ga_layouts.def"
#undef GA_LAYOUT
    GA_LAYOUTS
} ga_layout_t;
#define GA_LAYOUT_BITS 3u

/* Modes (ga_mode_t), exception policy (ga_policy_t) and exception kinds (ga_exc_kind_t, spec §4.5):
 * ga_isa.h, from cmodel/ga_isa.def. */

/* Error codes returned by model and runtime functions. 0 is success; every error leaves all state
 * unchanged (spec §7). ga_strerror() gives a one-line description. */
typedef enum {
    GA_OK = 0,
    GA_ERR_BAD_PARAM,         /* an argument or configuration value outside its legal range */
    GA_ERR_BAD_SIZE,          /* access size not 1, 2, 4, 8 or 16 */
    GA_ERR_HALTED,            /* TERMINATE policy: the unit halted after an exception */
    GA_ERR_ZERO_SIZE,         /* malloc(0) */
    GA_ERR_TOO_LARGE,         /* request larger than the heap or the VA space */
    GA_ERR_NO_SPACE,          /* no fit in the heap */
    GA_ERR_NO_METADATA_SPACE, /* metadata region or table full */
    GA_ERR_BAD_ADDRESS,       /* fixed mode: base 0 or range crossing 2^V */
    GA_ERR_OVERLAP,           /* fixed mode: range overlaps a live allocation */
    GA_ERR_WRONG_MODE,        /* malloc in fixed mode or malloc_at in auto mode */
    GA_ERR_DOUBLE_FREE,       /* free of a pointer already freed */
    GA_ERR_INTERIOR_POINTER,  /* free of a pointer inside, not at the base of, a live allocation */
    GA_ERR_TAG_MISMATCH,      /* free of a live allocation's base with another tag */
    GA_ERR_UNKNOWN_POINTER,   /* free of a pointer that names no allocation */
    GA_ERR_NO_MEMORY,         /* the host ran out of memory */
    GA_ERR_CODES
} ga_err_t;

const char *ga_strerror(ga_err_t err);
const char *ga_exc_name(ga_exc_kind_t kind); /* "OUT_OF_BOUNDS", ...; "?" for an unknown value */
/* Layout names (ga_layouts.def). ga_layout_name: "list", "bst", ...; "?" for a code that names no
 * layout. ga_layout_parse: the layout spelled name (exact, lower case); false, *out untouched, for any
 * other string or NULL. ga_layout_valid: code names a layout (0 .. GA_LAYOUTS - 1). ga_layout_in_rtl:
 * the RTL walker implements it (the rtl column of ga_layouts.def); false for an invalid code.
 * ga_layout_title: the legend text ("balanced BST", ...); "?" for an invalid code. */
const char *ga_layout_name(ga_layout_t layout);
const char *ga_layout_title(ga_layout_t layout);
bool ga_layout_parse(const char *name, ga_layout_t *out);
bool ga_layout_valid(unsigned code);
bool ga_layout_in_rtl(ga_layout_t layout);
/* The layout names joined for help texts and messages: sep between names and last before the final
 * one, e.g. ga_layout_list(buf, cap, ", ", " or ", false) = "list, bst, table or index"; rtl_only keeps
 * the layouts the RTL implements. Writes at most cap - 1 characters and a NUL (nothing for cap 0);
 * returns the full length, as snprintf does. */
size_t ga_layout_list(char *buf, size_t cap, const char *sep, const char *last, bool rtl_only);

/* A 16-byte metadata entry (spec §2.2). */
typedef struct {
    uint64_t tb;   /* tagged base: tag << V | base */
    uint64_t size; /* bytes */
} ga_entry_t;

/* Pointer format for one TagBits configuration (spec §1.1). tag_bits must be 7 or 16. */
static inline unsigned ga_va_bits(unsigned tag_bits) { return 64u - tag_bits; }
static inline uint64_t ga_va_mask(unsigned tag_bits) { return (UINT64_C(1) << (64u - tag_bits)) - 1u; }
static inline uint64_t ga_tag_freed(unsigned tag_bits) { return (UINT64_C(1) << tag_bits) - 1u; }
static inline uint64_t ga_tag_of(uint64_t p, unsigned tag_bits) { return p >> (64u - tag_bits); }

/* A 64-bit mixing function (the murmur3 finaliser) for the tools' open-addressing hash tables. */
static inline uint64_t ga_mix64(uint64_t x)
{
    x ^= x >> 33;
    x *= UINT64_C(0xff51afd7ed558ccd);
    x ^= x >> 33;
    x *= UINT64_C(0xc4ceb9fe1a85ec53);
    x ^= x >> 33;
    return x;
}
static inline uint64_t ga_va_of(uint64_t p, unsigned tag_bits) { return p & ga_va_mask(tag_bits); }
static inline uint64_t ga_make_ptr(uint64_t tag, uint64_t va, unsigned tag_bits)
{
    return (tag << (64u - tag_bits)) | (va & ga_va_mask(tag_bits));
}
/* True for 1 .. 2^T - 2 (spec §1.1). */
static inline bool ga_tag_is_valid(uint64_t tag, unsigned tag_bits)
{
    return tag != 0u && tag < ga_tag_freed(tag_bits);
}
static inline bool ga_tag_bits_ok(unsigned tag_bits) { return tag_bits == 7u || tag_bits == 16u; }

/* Little-endian 64-bit load/store on byte buffers (spec §2.1). */
static inline uint64_t ga_le64(const uint8_t *b)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--) v = (v << 8) | b[i];
    return v;
}
static inline void ga_put_le64(uint8_t *b, uint64_t v)
{
    for (int i = 0; i < 8; i++) b[i] = (uint8_t)(v >> (8 * i));
}

/* The exception record (spec §4.5). All fields zero when kind == GA_EXC_NONE. */
typedef struct {
    ga_exc_kind_t kind;
    uint64_t addr;    /* the lane's address as given, tag included (shared: zero-extended) */
    uint32_t size;    /* access size in bytes */
    uint16_t sm;      /* SM_ID register */
    uint16_t warp;    /* warp id from the request */
    uint8_t lane;     /* lowest failing lane */
    uint64_t md;      /* metadata location used, 0 if none */
    ga_entry_t entry; /* entry seen (shared: tb = base, size = size); zero if none */
} ga_exc_t;

#endif /* GA_TYPES_H */
