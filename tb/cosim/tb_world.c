/*
 * tb_world.c — the runtime's allocations as the stimulus sources see them (see tb_stim.h).
 */
#include <stdlib.h>
#include <string.h>

#include "tb_stim.h"

int tb_world_init(tb_world_t *w, const ga_rt_cfg_t *rtc, unsigned lanes)
{
    memset(w, 0, sizeof *w);
    w->rtc = *rtc;
    w->tag_bits = rtc->tag_bits;
    w->lanes = lanes;
    if (ga_mem_create(&w->mem) != GA_OK) return -1;
    if (ga_rt_create(rtc, w->mem, &w->rt) != GA_OK) {
        ga_mem_destroy(w->mem);
        return -1;
    }
    return 0;
}

void tb_world_fini(tb_world_t *w)
{
    ga_rt_destroy(w->rt);
    ga_mem_destroy(w->mem);
    free(w->live);
    for (size_t i = 0; i < w->nnames; i++) free(w->names[i]);
    free(w->names);
    free(w->named);
    memset(w, 0, sizeof *w);
}

ga_err_t tb_world_alloc(tb_world_t *w, uint64_t size, int name, uint64_t *ptr)
{
    if (w->nlive == w->caplive) {
        size_t nc = w->caplive ? w->caplive * 2u : 64u;
        tb_alloc_t *n = realloc(w->live, nc * sizeof *n);
        if (n == NULL) return GA_ERR_NO_MEMORY;
        w->live = n;
        w->caplive = nc;
    }
    ga_err_t err = ga_rt_malloc(w->rt, size, ptr);
    if (err != GA_OK) return err;
    tb_alloc_t *a = &w->live[w->nlive++];
    a->ptr = *ptr;
    a->size = size;
    a->name = name;
    ga_entry_t e;
    a->loc = 0;
    (void)ga_rt_find(w->rt, ga_va_of(*ptr, w->tag_bits), &e, &a->loc);
    if (name >= 0 && (size_t)name < w->nnames) w->named[name] = *a;
    return GA_OK;
}

ga_err_t tb_world_free(tb_world_t *w, uint64_t ptr)
{
    ga_err_t err = ga_rt_free(w->rt, ptr);
    if (err != GA_OK) return err;
    for (size_t i = 0; i < w->nlive; i++) {
        if (w->live[i].ptr != ptr) continue;
        tb_alloc_t a = w->live[i];
        w->live[i] = w->live[--w->nlive];
        size_t slot = (w->freed_head + w->nfreed) % TB_FREED_KEEP;
        if (w->nfreed == TB_FREED_KEEP) {
            slot = w->freed_head;
            w->freed_head = (w->freed_head + 1u) % TB_FREED_KEEP;
        } else {
            w->nfreed++;
        }
        w->freed[slot] = a;
        break;
    }
    return GA_OK;
}

int tb_world_name(tb_world_t *w, const char *name, size_t len)
{
    for (size_t i = 0; i < w->nnames; i++)
        if (strlen(w->names[i]) == len && memcmp(w->names[i], name, len) == 0) return (int)i;
    if (w->nnames == w->capnames) {
        size_t nc = w->capnames ? w->capnames * 2u : 16u;
        char **nn = realloc(w->names, nc * sizeof *nn);
        if (nn == NULL) return -1;
        w->names = nn;
        tb_alloc_t *na = realloc(w->named, nc * sizeof *na);
        if (na == NULL) return -1;
        w->named = na;
        w->capnames = nc;
    }
    char *s = malloc(len + 1u);
    if (s == NULL) return -1;
    memcpy(s, name, len);
    s[len] = '\0';
    w->names[w->nnames] = s;
    memset(&w->named[w->nnames], 0, sizeof w->named[0]);
    w->named[w->nnames].name = -1;
    return (int)w->nnames++;
}

ga_entry_t tb_world_entry(const tb_world_t *w, const tb_alloc_t *a, bool freed)
{
    ga_entry_t e;
    uint64_t va = ga_va_of(a->ptr, w->tag_bits);
    e.tb = freed ? ga_make_ptr(ga_tag_freed(w->tag_bits), va, w->tag_bits) : a->ptr;
    e.size = a->size;
    return e;
}

/* One 32-byte node (spec §2.3): entry, then the two pointers. */
static void put_node(tb_world_t *w, uint64_t at, uint64_t tb, uint64_t size, uint64_t p0, uint64_t p1)
{
    uint8_t b[32];
    ga_put_le64(b, tb);
    ga_put_le64(b + 8, size);
    ga_put_le64(b + 16, p0);
    ga_put_le64(b + 24, p1);
    (void)ga_mem_write(w->mem, at, b, sizeof b);
}

static void add_scrub(tb_world_t *w, unsigned i, uint64_t addr, uint64_t len)
{
    w->scrub_addr[i] = addr;
    w->scrub_len[i] = len;
}

/*
 * Corrupt structures (the hardware must terminate and fail closed on them, spec §2.2, §3.3):
 * LIST / BST
 *   0  a cycle of three nodes whose entries cover nothing near ptr (walks end STEP_LIMIT)
 *   1  a node whose next / left / right pointer is misaligned (FAULT after one read)
 *   2  a node pointing into unmapped memory (error response: FAULT)
 *   3  an entry with ptr's tag and base and a size running past 2^V and 2^64, above a freed entry
 *   4  variant 3 with a misaligned ROOT (FAULT, no read)
 *   5  ROOT 0 (empty structure)
 *   6  a node whose entry starts exactly at B = va(ptr) - 0x1000 with size 0 (it covers nothing, so
 *      a walk for a pointer at B must turn), its left child an entry [B, B + 0x1000), its right
 *      child one far above, both with null children: a pointer at B is FOUND only by a walk that
 *      goes left on equality, NOT_FOUND by the spec's rule (right on va >= base, spec §3.3). The
 *      left child covers nothing below B, so a correct walk never fills it into the MLB (a fill
 *      would hide the next walk for B). Every other variant has left == right, so this is the one
 *      that tells the two turns apart (issue 13). LIST follows the first pointer (left).
 * TABLE
 *   0  ROOT misaligned by 8 (FAULT)
 *   1, 4, 5  a copy of the table with random damage: freed tags, zero sizes, huge sizes, kept slots
 *   2  ROOT near 2^64: slot addresses wrap (error responses)
 *   3  the table mirrored at address 0 with ROOT 0, so slot 0 is at location 0
 * INDEX (spec §2.3, §3.3; nodes at base, base + 128, base + 256 = refs 0, 8, 16; slots from ref 24;
 *   the freed index's root at base - 128, one of three by a random bit pair: unmapped or left as the
 *   last scrub left it (a walk that misses the live index then faults or finds nothing), an empty
 *   leaf, or a leaf whose one slot (ref 29) holds an entry [va, va + 0x1000), freed or (corrupt:
 *   the runtime never puts a live entry there) with ptr's tag, so a miss in the live index (variant
 *   6 misses there) ends RANGE_ONLY or FOUND in the freed index after its root and slot reads)
 *   0  a cycle: two inner nodes that name each other, or one that names itself (STEP_LIMIT)
 *   1  a malformed root: count > 11, kind > 1, a reserved byte not 0, or an inner node whose child
 *      is not 128-byte aligned (FAULT)
 *   2  a root whose child is a good leaf with one beat (of four) poisoned, so the error comes on
 *      beat 0, 1, 2 or 3 (FAULT after the last beat), or a child far away in unmapped memory
 *   3  a root leaf whose slot holds ptr's tag and base with a size running past 2^V and 2^64, next
 *      to a freed entry
 *   4  variant 3 with ROOT misaligned by 16 .. 112 (FAULT, no read)
 *   5  ROOT 0
 *   6  equal and out-of-order keys around B = va(ptr) - 0x1000: an inner root with key[1] = B (a
 *      walk for B goes right), its right leaf with keys B + 0x2000, B, B: the rule "largest i with
 *      key[i] <= a" picks the last slot, [B, B + 0x1000) with ptr's tag; the others hold a freed
 *      entry at B and one far above, and the left leaf an entry ending at B
 */
/* One 128-byte index node (spec §2.3): count, kind, reserved, refs, keys (key[i] at keys[i - 1]). */
static void put_inode(tb_world_t *w, uint64_t at, unsigned count, unsigned kind, unsigned res,
                      const uint32_t *refs, unsigned nrefs, const uint64_t *keys, unsigned nkeys)
{
    uint8_t b[128];
    memset(b, 0, sizeof b);
    b[0] = (uint8_t)count;
    b[1] = (uint8_t)kind;
    b[2] = (uint8_t)res;
    b[3] = (uint8_t)(res >> 8);
    for (unsigned j = 0; j < nrefs && j < 11u; j++) {
        b[4u + 4u * j] = (uint8_t)refs[j];
        b[5u + 4u * j] = (uint8_t)(refs[j] >> 8);
        b[6u + 4u * j] = (uint8_t)(refs[j] >> 16);
        b[7u + 4u * j] = (uint8_t)(refs[j] >> 24);
    }
    for (unsigned i = 0; i < nkeys && i < 10u; i++) ga_put_le64(b + 48u + 8u * i, keys[i]);
    (void)ga_mem_write(w->mem, at, b, sizeof b);
}

static void put_slot(tb_world_t *w, uint64_t at, uint64_t tb, uint64_t size)
{
    uint8_t b[16];
    ga_put_le64(b, tb);
    ga_put_le64(b + 8, size);
    (void)ga_mem_write(w->mem, at, b, sizeof b);
}

static uint64_t corrupt_index(tb_world_t *w, unsigned variant, uint64_t base, uint64_t ptr, uint64_t rnd)
{
    unsigned tb = w->tag_bits;
    uint64_t tag = ga_tag_of(ptr, tb), va = ga_va_of(ptr, tb), m = ga_va_mask(tb);
    uint64_t F = ga_tag_freed(tb);
    uint64_t b = (va - 0x1000u) & m;
    add_scrub(w, 0, base - 128u, 1152);
    switch ((rnd >> 20) & 3u) {
    case 0: break;
    case 1: put_inode(w, base - 128u, 0, 0, 0, NULL, 0, NULL, 0); break;
    default: {
        uint32_t fr[1] = { 29 };
        put_inode(w, base - 128u, 1, 0, 0, fr, 1, NULL, 0);
        put_slot(w, base + 464u, ga_make_ptr((rnd >> 20) & 1u ? tag : F, va, tb), 0x1000);
        break;
    }
    }
    switch (variant) {
    case 0: {
        uint32_t r[2] = { 8, 8 };
        uint64_t k[1] = { 0 };
        if (rnd & 1u) { /* a node that names itself */
            r[0] = r[1] = 0;
            put_inode(w, base, 2, 1, 0, r, 2, k, 1);
        } else {
            put_inode(w, base, 2, 1, 0, r, 2, k, 1);
            r[0] = r[1] = 0;
            put_inode(w, base + 128u, 2, 1, 0, r, 2, k, 1);
        }
        return base;
    }
    case 1: {
        uint32_t r[2] = { 8, 8 };
        uint64_t k[1] = { 0 };
        put_inode(w, base + 128u, 0, 0, 0, NULL, 0, NULL, 0);
        switch (rnd & 3u) {
        case 0: put_inode(w, base, 12u + (unsigned)((rnd >> 8) % 244u), 1, 0, r, 2, k, 1); break;
        case 1: put_inode(w, base, 2, 2u + (unsigned)((rnd >> 8) % 254u), 0, r, 2, k, 1); break;
        case 2: put_inode(w, base, 2, 1, (rnd >> 8) & 1u ? 0x0100u : 0x0001u, r, 2, k, 1); break;
        default: r[1] = 9u + (unsigned)((rnd >> 8) % 7u); put_inode(w, base, 2, 1, 0, r, 2, k, 1); break;
        }
        return base;
    }
    case 2: {
        uint32_t r[1] = { 8 }, s[1] = { 24 };
        if (rnd & 1u) {
            r[0] = 0x10000000u; /* ROOT + 4 GiB: unmapped */
            put_inode(w, base, 1, 1, 0, r, 1, NULL, 0);
            return base;
        }
        put_inode(w, base, 1, 1, 0, r, 1, NULL, 0);
        put_inode(w, base + 128u, 1, 0, 0, s, 1, NULL, 0);
        put_slot(w, base + 384u, ptr, 0x1000);
        (void)ga_mem_poison(w->mem, base + 128u + 32u * ((rnd >> 1) & 3u), 32);
        w->poisoned = true;
        return base;
    }
    case 3:
    case 4: {
        uint32_t r[2] = { 24, 25 };
        uint64_t k[1] = { va };
        put_inode(w, base, 2, 0, 0, r, 2, k, 1);
        put_slot(w, base + 384u, ga_make_ptr(F, b, tb), 0x1000);
        put_slot(w, base + 400u, ptr, UINT64_MAX - (rnd & 0xFFFFu));
        return variant == 3u ? base : base + 16u * (1u + (rnd & 7u) % 7u);
    }
    case 6: {
        uint32_t r0[2] = { 8, 16 }, r1[1] = { 24 }, r2[4] = { 25, 26, 27, 28 };
        uint64_t k0[1] = { b }, k2[3] = { (b + 0x2000u) & m, b, b };
        put_inode(w, base, 2, 1, 0, r0, 2, k0, 1);
        put_inode(w, base + 128u, 1, 0, 0, r1, 1, NULL, 0);
        put_inode(w, base + 256u, 4, 0, 0, r2, 4, k2, 3);
        put_slot(w, base + 384u, ga_make_ptr(tag, (b - 0x1000u) & m, tb), 0x1000);  /* ends at B */
        put_slot(w, base + 400u, ga_make_ptr(F, b, tb), 0x1000);                     /* freed at B */
        put_slot(w, base + 416u, ga_make_ptr(tag, (b + 0x100000u) & m, tb), 8);      /* far above */
        put_slot(w, base + 432u, ga_make_ptr(tag, (b + 0x2000u) & m, tb), 0x10);     /* key[1]'s */
        put_slot(w, base + 448u, ga_make_ptr(tag, b, tb), 0x1000);                   /* the match */
        return base;
    }
    default: return 0;
    }
}

uint64_t tb_world_corrupt(tb_world_t *w, unsigned variant, uint64_t base, uint64_t ptr, uint64_t rnd)
{
    unsigned tb = w->tag_bits;
    uint64_t tag = ga_tag_of(ptr, tb), va = ga_va_of(ptr, tb);
    uint64_t F = ga_tag_freed(tb);
    add_scrub(w, 0, 0, 0);
    add_scrub(w, 1, 0, 0);
    if (w->rtc.layout == GA_LAYOUT_INDEX) return corrupt_index(w, variant, base, ptr, rnd);
    if (w->rtc.layout != GA_LAYOUT_TABLE) {
        add_scrub(w, 0, base, 128);
        switch (variant) {
        case 0:
            for (unsigned i = 0; i < 3u; i++) {
                uint64_t nx = base + 32u * ((i + 1u) % 3u);
                put_node(w, base + 32u * i, ga_make_ptr(tag, va + 0x100000u + 64u * i, tb), 8, nx, nx);
            }
            return base;
        case 1:
            put_node(w, base, ga_make_ptr(tag, va + 0x100000u, tb), 8, base + 72u, base + 72u);
            return base;
        case 2:
            put_node(w, base, ga_make_ptr(tag, va + 0x100000u, tb), 8, UINT64_C(0x1000000000), UINT64_C(0x1000000000));
            return base;
        case 3:
        case 4:
            put_node(w, base, ptr, UINT64_MAX - (rnd & 0xFFFFu), base + 32u, base + 32u);
            put_node(w, base + 32u, ga_make_ptr(F, (va - 0x1000u) & ga_va_mask(tb), tb), 0x1000, 0, 0);
            return variant == 3u ? base : base + 16u;
        case 6: {
            uint64_t b = (va - 0x1000u) & ga_va_mask(tb);
            put_node(w, base, ga_make_ptr(tag, b, tb), 0, base + 32u, base + 64u);
            put_node(w, base + 32u, ga_make_ptr(tag, b, tb), 0x1000, 0, 0);
            put_node(w, base + 64u, ga_make_ptr(tag, (b + 0x100000u) & ga_va_mask(tb), tb), 8, 0, 0);
            return base;
        }
        default: return 0;
        }
    }
    uint64_t root = ga_rt_root(w->rt);
    uint64_t slots = w->rtc.md_capacity;
    switch (variant) {
    case 0: return root + 8u;
    case 2: return (uint64_t)0 - 16u * (1u + (rnd & 7u));
    default: break;
    }
    uint64_t dst = variant == 3u ? 0u : base;
    add_scrub(w, 0, dst, 16u * slots);
    uint8_t e[16];
    for (uint64_t i = 0; i < slots; i++) {
        if (ga_mem_read(w->mem, root + 16u * i, e, sizeof e) != GA_MEM_OK) memset(e, 0, sizeof e);
        uint64_t r = (rnd >> ((i * 3u) % 60u)) ^ (i * UINT64_C(0x9E3779B97F4A7C15));
        if (variant != 3u) {
            switch (r & 7u) {
            case 0: ga_put_le64(e, ga_make_ptr(F, ga_va_of(ga_le64(e), tb), tb)); break;
            case 1: ga_put_le64(e + 8, 0); break;
            case 2: ga_put_le64(e + 8, UINT64_MAX - (r >> 40)); break;
            default: break;
            }
        }
        (void)ga_mem_write(w->mem, dst + 16u * i, e, sizeof e);
    }
    return dst;
}

void tb_world_scrub(tb_world_t *w)
{
    if (w->poisoned) { /* an INDEX corrupt variant poisoned one beat of its node */
        ga_mem_unpoison_all(w->mem);
        w->poisoned = false;
    }
    static const uint8_t zero[256];
    for (unsigned i = 0; i < 2u; i++) {
        for (uint64_t a = 0; a < w->scrub_len[i]; a += sizeof zero) {
            uint64_t n = w->scrub_len[i] - a < sizeof zero ? w->scrub_len[i] - a : sizeof zero;
            (void)ga_mem_write(w->mem, w->scrub_addr[i] + a, zero, (size_t)n);
        }
        w->scrub_len[i] = 0;
    }
}
