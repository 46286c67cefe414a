/*
 * ga_layout_table.c — the speed-of-light table (spec §2.3 "Speed-of-light table", §3.3, §7.5)
 * [paper §4.2: "a hypothetical (and unrealizable) speed-of-light (SoL) table"].
 *
 * Device format: an array of 16-byte entries, entry `slot` at md_base + 16 * slot; a free slot is all
 * zero. ROOT = md_base. An oracle (a callback in the model, a request/response port in the RTL)
 * names the slot whose range contains the VA, and the walk reads that one entry, so a wrong or stale
 * oracle answer can only miss. The writer zero-fills the whole array at create, so every slot of the
 * region is readable. A new entry takes the lowest free slot.
 */
#include "ga_layout.h"

#include <stdlib.h>
#include <string.h>

/* --- geometry ------------------------------------------------------------------------------------- */

static uint64_t table_md_bytes(uint32_t capacity) { return (uint64_t)capacity * GA_ENTRY_BYTES; }
static uint64_t table_slot_offset(uint32_t capacity, uint32_t slot)
{
    (void)capacity;
    return (uint64_t)slot * GA_ENTRY_BYTES;
}

/* --- the walk ------------------------------------------------------------------------------------- */

/*
 * Spec §3.3, TABLE:
 *   1. no oracle (mem->oracle NULL) or oracle(a) says none -> NOT_FOUND, no read
 *   2. root mod 16 != 0                                     -> FAULT, no read
 *   3. L = root + 16 i (modulo 2^64; L stays 16-aligned, so the read never passes 2^64)
 *   4. read 16 bytes at L, steps = 1; error response        -> FAULT
 *   5. covers a -> FOUND / RANGE_ONLY, else NOT_FOUND (a wrong or stale oracle answer only misses).
 * The step limit does not apply to the single table read (the register is at least 1).
 */
static ga_walk_result_t table_walk(const ga_walk_cfg_t *cfg, const ga_memif_t *mem, uint64_t p)
{
    unsigned tb = cfg->tag_bits;
    uint64_t a = ga_va_of(p, tb);
    uint8_t buf[GA_ENTRY_BYTES];
    uint64_t idx = 0;
    if (mem->oracle == NULL || mem->oracle(mem->oracle_ctx, a, &idx) == 0)
        return ga_walk_end_empty(GA_WALK_NOT_FOUND, 0, 0);
    if (cfg->root % GA_ENTRY_BYTES != 0u) return ga_walk_end_empty(GA_WALK_FAULT, 0, 0);
    uint64_t loc = cfg->root + GA_ENTRY_BYTES * idx; /* unsigned: modulo 2^64 */
    if (mem->read(mem->read_ctx, loc, GA_ENTRY_BYTES, buf) != 0)
        return ga_walk_end_empty(GA_WALK_FAULT, 1, GA_ENTRY_BYTES);
    ga_entry_t e = { ga_le64(buf), ga_le64(buf + 8) };
    if (!ga_entry_covers(e, p, tb)) return ga_walk_end_empty(GA_WALK_NOT_FOUND, 1, GA_ENTRY_BYTES);
    return ga_walk_end_covered(loc, e, p, 1, GA_ENTRY_BYTES, tb);
}

/* --- the reference search (no code shared with the walk; see ga_refsearch.h) ---------------------- */

static uint64_t ref_le64(const uint8_t *b)
{
    uint64_t v = 0;
    for (unsigned i = 0; i < 8u; i++) v |= (uint64_t)b[i] << (8u * i);
    return v;
}

/* Scan slots 0 .. slots - 1 in order, no oracle. */
static uint64_t table_ref_search(ga_mem_t *mem, uint64_t root, uint64_t slots, unsigned tag_bits, uint64_t p,
                                 uint64_t max_nodes, ga_entry_t *e_out, bool *ok)
{
    const unsigned vbits = 64u - tag_bits;
    const uint64_t va_mask = UINT64_MAX >> tag_bits;
    const uint64_t a = p & va_mask, t = p >> vbits;
    uint8_t node[16];
    if (root % 16u != 0u) return 0;
    for (uint64_t i = 0; i < slots; i++) {
        if (i == max_nodes) return 0;
        uint64_t loc = root + 16u * i;
        if (ga_mem_read(mem, loc, node, 16) != GA_MEM_OK) return 0;
        uint64_t tb = ref_le64(node), size = ref_le64(node + 8), ebase = tb & va_mask;
        if (a >= ebase && a - ebase < size) {
            *ok = true;
            e_out->tb = tb;
            e_out->size = size;
            uint64_t etag = tb >> vbits;
            return t == etag && t != 0u && t != (UINT64_MAX >> vbits) ? loc : 0u;
        }
    }
    *ok = true;
    return 0;
}

/* --- the runtime writer: no links; the entries are the runtime's ------------------------------------ */

typedef struct {
    ga_lw_env_t env;
} table_w_t;

/* Every slot of [md_base, md_base + 16 * capacity) exists and is free: all zero (spec §2.3). */
static ga_err_t tw_create(void **st, const ga_lw_env_t *env)
{
    static const uint8_t zero[4096]; /* constant zeros (no state) */
    table_w_t *w = calloc(1, sizeof *w);
    *st = w;
    if (w == NULL) return GA_ERR_NO_MEMORY;
    w->env = *env;
    uint64_t len = (uint64_t)env->md_capacity * GA_ENTRY_BYTES;
    for (uint64_t off = 0; off < len; off += sizeof zero) {
        uint64_t chunk = len - off < sizeof zero ? len - off : sizeof zero;
        ga_err_t err = ga_mem_write(env->mem, env->md_base + off, zero, (size_t)chunk);
        if (err != GA_OK) {
            free(w);
            *st = NULL;
            return err;
        }
    }
    return GA_OK;
}

static void tw_destroy(void *st) { free(st); }

static ga_err_t tw_reserve(void *st, uint32_t rec_cap, uint32_t inserts)
{
    (void)st;
    (void)rec_cap;
    (void)inserts;
    return GA_OK;
}

static void tw_insert(void *st, const ga_rec_t *rec, uint32_t id)
{
    (void)st;
    (void)rec;
    (void)id;
}

static void tw_flush(void *st, const ga_rec_t *rec)
{
    (void)st;
    (void)rec;
}

static uint64_t tw_root(const void *st, const ga_rec_t *rec)
{
    (void)rec;
    return ((const table_w_t *)st)->env.md_base;
}

static void tw_stats(const void *st, ga_lw_stats_t *out)
{
    (void)st;
    memset(out, 0, sizeof *out);
}

const ga_layout_ops_t ga_layout_table_ops = {
    .code = GA_LAYOUT_TABLE,
    .md_align = GA_NODE_BYTES,
    .slot_bytes = GA_ENTRY_BYTES,
    .lowest_slot = true,
    .zero_filled = true,
    .md_bytes = table_md_bytes,
    .slot_offset = table_slot_offset,
    .walk = table_walk,
    .ref_search = table_ref_search,
    .w_create = tw_create,
    .w_destroy = tw_destroy,
    .w_reserve = tw_reserve,
    .w_insert = tw_insert,
    .w_remove = tw_insert,
    .w_flush = tw_flush,
    .w_root = tw_root,
    .w_stats = tw_stats,
};
