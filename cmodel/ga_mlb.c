/*
 * ga_mlb.c — the Metadata Lookaside Buffer of spec §6 (RTL rtl/ga_mlb.sv).
 *
 * The state is exactly the hardware's: per entry a valid bit, the 16-byte entry and its 8-byte
 * location, the age permutation (true LRU) and the generation counter of spec §6.5. Every search
 * scans from index 0 upwards and stops at the first hit, as the RTL's priority encoder does
 * (lowest index wins). Every function keeps these invariants, which the tests check after each step:
 *   - age[0 .. n-1] is a permutation of 0 .. n-1;
 *   - no location is held by two valid entries (fill overwrites an existing holder, spec §6.3);
 * A caller that writes the struct directly can break them; the functions stay memory-safe anyway.
 */
#include "ga_mlb.h"

#include <string.h>

/* ga_mlb_init — reset state of spec §6.1: every entry invalid (contents zero), age_i = i, gen = 0.
 * GA_ERR_BAD_PARAM (mlb untouched) for a NULL mlb, n outside 1..GA_MLB_MAX or tag_bits not 7/16. */
ga_err_t ga_mlb_init(ga_mlb_t *mlb, unsigned n, unsigned tag_bits)
{
    if (mlb == NULL || n < 1u || n > GA_MLB_MAX || !ga_tag_bits_ok(tag_bits)) return GA_ERR_BAD_PARAM;
    memset(mlb, 0, sizeof *mlb);
    mlb->n = n;
    mlb->tag_bits = tag_bits;
    for (unsigned i = 0; i < n; i++) mlb->age[i] = (uint8_t)i;
    return GA_OK;
}

/* ga_mlb_touch — make entry i the most recently used (spec §6.2): every entry j (valid or not) with
 * age_j < age_i ages by one, then age_i = 0. Entries older than i keep their age, so the ages stay a
 * permutation. Touching the MRU entry changes nothing. i >= n is ignored. */
void ga_mlb_touch(ga_mlb_t *mlb, unsigned i)
{
    if (i >= mlb->n) return;
    uint8_t ai = mlb->age[i];
    for (unsigned j = 0; j < mlb->n; j++)
        if (mlb->age[j] < ai) mlb->age[j]++;
    mlb->age[i] = 0;
}

/* ga_mlb_lookup_range — range lookup of spec §6.2: the lowest valid i whose entry matches tagged
 * pointer p by M1..M3 of spec §3.1. On a hit i is touched and returned; on a miss -1, no change.
 * A pointer with tag 0 or the freed tag never hits (M1). Entries are not assumed disjoint: when two
 * valid entries match, the lower index wins. */
int ga_mlb_lookup_range(ga_mlb_t *mlb, uint64_t p)
{
    unsigned tb = mlb->tag_bits;
    uint64_t t = ga_tag_of(p, tb);
    if (!ga_tag_is_valid(t, tb)) return -1; /* M1: no entry can match */
    uint64_t a = ga_va_of(p, tb);
    for (unsigned i = 0; i < mlb->n; i++) {
        if (!mlb->valid[i]) continue;
        uint64_t etb = mlb->e[i].tb;
        if (ga_tag_of(etb, tb) != t) continue;               /* M2 */
        uint64_t eb = ga_va_of(etb, tb);
        if (a >= eb && a - eb < mlb->e[i].size) {           /* M3 */
            ga_mlb_touch(mlb, i);
            return (int)i;
        }
    }
    return -1;
}

/* ga_mlb_lookup_loc — location lookup of spec §6.2: the lowest valid i with loc_i == loc; touched
 * and returned on a hit, -1 and no change on a miss. loc 0 is compared like any other value (the
 * MLU never looks up 0, and no fill ever stores it from a correct walk). */
int ga_mlb_lookup_loc(ga_mlb_t *mlb, uint64_t loc)
{
    for (unsigned i = 0; i < mlb->n; i++) {
        if (mlb->valid[i] && mlb->loc[i] == loc) {
            ga_mlb_touch(mlb, i);
            return (int)i;
        }
    }
    return -1;
}

/* ga_mlb_victim — the index fill(e, loc) would write now (spec §6.3), without changing anything:
 *   1. the lowest valid entry whose location is loc, else
 *   2. the lowest invalid entry, else
 *   3. the entry with age n - 1 (least recently used).
 * If the ages are not a permutation (only possible after a direct write of the struct) and no entry
 * has age n - 1, the entry with the largest age is chosen, the lowest index on a tie. */
unsigned ga_mlb_victim(const ga_mlb_t *mlb, uint64_t loc)
{
    unsigned first_invalid = GA_MLB_MAX;
    unsigned lru = 0;
    for (unsigned i = 0; i < mlb->n; i++) {
        if (mlb->valid[i]) {
            if (mlb->loc[i] == loc) return i;
        } else if (first_invalid == GA_MLB_MAX) {
            first_invalid = i;
        }
        if (mlb->age[i] > mlb->age[lru]) lru = i;
    }
    return first_invalid != GA_MLB_MAX ? first_invalid : lru;
}

/* ga_mlb_fill — fill (spec §6.3) of entry e at location loc, unless an invalidation or flush
 * committed since the read that produced e began (spec §6.5): the caller passes the gen it recorded
 * when it committed the miss that started that read, and if mlb->gen differs the fill is dropped
 * (returns -1, nothing changes). Otherwise the victim of ga_mlb_victim() gets valid = 1, (e, loc) and
 * is touched; its index is returned. The entry is stored as given (the MLU only fills entries that
 * succeeded: a FOUND walk or a fetched entry with a valid tag). */
int ga_mlb_fill(ga_mlb_t *mlb, ga_entry_t e, uint64_t loc, uint64_t gen_at_start)
{
    if (mlb->gen != gen_at_start) return -1;
    unsigned i = ga_mlb_victim(mlb, loc);
    mlb->valid[i] = true;
    mlb->e[i] = e;
    mlb->loc[i] = loc;
    ga_mlb_touch(mlb, i);
    return (int)i;
}

/* ga_mlb_invalidate — invalidate(loc) of spec §6.4: every valid entry with location loc becomes
 * invalid (its contents stay, as in the hardware, but are never looked at again until a fill
 * overwrites them); ages are unchanged; gen is incremented whether or not an entry was hit. Returns
 * the number of entries invalidated (0 or 1 while the "no location twice" invariant holds). */
unsigned ga_mlb_invalidate(ga_mlb_t *mlb, uint64_t loc)
{
    unsigned hits = 0;
    for (unsigned i = 0; i < mlb->n; i++) {
        if (mlb->valid[i] && mlb->loc[i] == loc) {
            mlb->valid[i] = false;
            hits++;
        }
    }
    mlb->gen++;
    return hits;
}

/* ga_mlb_flush — flush of spec §6.4: every entry invalid, age_i = i, gen incremented. */
void ga_mlb_flush(ga_mlb_t *mlb)
{
    for (unsigned i = 0; i < mlb->n; i++) {
        mlb->valid[i] = false;
        mlb->age[i] = (uint8_t)i;
    }
    mlb->gen++;
}
