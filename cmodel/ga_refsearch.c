/*
 * ga_refsearch.c — the plain reference search (see ga_refsearch.h).
 *
 * Deliberately written without the walker, the check logic or the pointer helpers of ga_types.h: every
 * mask and the match rule are computed here from first principles, so a shared mistake cannot hide.
 */
#include "ga_refsearch.h"

/* Little-endian 64-bit word at b (spec §2.1). */
static uint64_t ref_load64(const uint8_t *b)
{
    uint64_t v = 0;
    for (unsigned i = 0; i < 8u; i++) v |= (uint64_t)b[i] << (8u * i);
    return v;
}

uint64_t ga_ref_search(ga_mem_t *mem, ga_layout_t layout, uint64_t root, uint64_t slots,
                       unsigned tag_bits, uint64_t p, uint64_t max_nodes, ga_entry_t *e_out, bool *ok)
{
    ga_entry_t none = {0, 0};
    if (e_out != NULL) *e_out = none;
    if (ok != NULL) *ok = false;
    if (mem == NULL || (tag_bits != 7u && tag_bits != 16u)) return 0;
    if (layout != GA_LAYOUT_LIST && layout != GA_LAYOUT_BST && layout != GA_LAYOUT_TABLE) return 0;

    const unsigned vbits = 64u - tag_bits;               /* 57 or 48 */
    const uint64_t va_mask = UINT64_MAX >> tag_bits;     /* low vbits bits set */
    const uint64_t freed_tag = UINT64_MAX >> vbits;      /* tag_bits ones */
    const uint64_t a = p & va_mask;
    const uint64_t t = p >> vbits;

    uint8_t node[32];
    uint64_t tb = 0, size = 0, loc = 0;
    bool hit = false;

    if (layout == GA_LAYOUT_TABLE) {
        if (root % 16u != 0u) return 0;
        for (uint64_t i = 0; i < slots; i++) {
            if (i == max_nodes) return 0;
            loc = root + 16u * i;
            if (ga_mem_read(mem, loc, node, 16) != GA_MEM_OK) return 0;
            tb = ref_load64(node);
            size = ref_load64(node + 8);
            uint64_t ebase = tb & va_mask;
            if (a >= ebase && a - ebase < size) {
                hit = true;
                break;
            }
        }
    } else {
        uint64_t n = root;
        uint64_t count = 0;
        while (n != 0u) {
            if (n % 32u != 0u) return 0;
            if (count == max_nodes) return 0;
            if (ga_mem_read(mem, n, node, 32) != GA_MEM_OK) return 0;
            count++;
            tb = ref_load64(node);
            size = ref_load64(node + 8);
            uint64_t ebase = tb & va_mask;
            if (a >= ebase && a - ebase < size) {
                hit = true;
                loc = n;
                break;
            }
            if (layout == GA_LAYOUT_LIST)
                n = ref_load64(node + 16);
            else
                n = a < ebase ? ref_load64(node + 16) : ref_load64(node + 24);
        }
    }

    if (ok != NULL) *ok = true;
    if (!hit) return 0;
    if (e_out != NULL) {
        e_out->tb = tb;
        e_out->size = size;
    }
    uint64_t etag = tb >> vbits;
    if (t == etag && t != 0u && t != freed_tag) return loc;
    return 0;
}
