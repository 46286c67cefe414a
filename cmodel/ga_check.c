/*
 * ga_check.c — the check logic of spec §3.1 and §4 (RTL rtl/ga_check.sv): the match rule, the
 * bounds rule G6, MEMCHECK.G and MEMCHECK.S per lane and per warp.
 *
 * Every function is a pure function of its arguments. All arithmetic is on uint64_t (uint32_t for
 * shared memory) and is arranged so that no intermediate value wraps: each subtraction is guarded by
 * the comparison before it. tag_bits must be 7 or 16 (the pointer helpers of ga_types.h assume it).
 */
#include "ga_check.h"

#include <string.h>

/*
 * ga_entry_covers — M3 of spec §3.1: the entry's range [ebase, ebase + size) contains va(p), that is
 * ebase <= va(p) and va(p) - ebase < size. Tags (of p and of the entry) are ignored.
 * Edge cases: size 0 covers nothing; a corrupt size whose range runs past 2^V or 2^64 still covers
 * every va >= ebase inside it (the difference va - ebase never wraps because va >= ebase is tested
 * first). The pointer's va is at most 2^V - 1, so no va at or above 2^V is ever covered.
 */
bool ga_entry_covers(ga_entry_t e, uint64_t p, unsigned tag_bits)
{
    uint64_t a = ga_va_of(p, tag_bits);
    uint64_t eb = ga_va_of(e.tb, tag_bits);
    return a >= eb && a - eb < e.size;
}

/*
 * ga_entry_matches — M1..M3 of spec §3.1: tag(p) is neither 0 nor the freed tag F, tag(p) equals the
 * entry's tag, and the entry covers va(p). Consequently an entry whose tag is 0 or F never matches any
 * pointer.
 */
bool ga_entry_matches(ga_entry_t e, uint64_t p, unsigned tag_bits)
{
    uint64_t t = ga_tag_of(p, tag_bits);
    return ga_tag_is_valid(t, tag_bits) && t == ga_tag_of(e.tb, tag_bits) && ga_entry_covers(e, p, tag_bits);
}

/*
 * ga_access_in_bounds — rule G6 of spec §4.2 negated: true when the whole access of S = size bytes at
 * a = va(p) lies inside the entry's range and inside the VA space. As a statement on exact integers:
 *
 *     ebase <= a   and   a + S <= ebase + e.size   and   a + S <= 2^V
 *
 * Computed wrap-free in 64 bits, exactly as the spec writes it:
 *     off = a - ebase (only used once a >= ebase is known);
 *     a >= ebase && off < e.size && S <= e.size - off && S <= 2^V - a.
 * off < e.size makes e.size - off >= 1, and a < 2^V makes 2^V - a >= 1, so neither subtraction wraps.
 * For every S >= 1 the two forms agree. Tags are ignored (G4/G5 decide them).
 * Edge cases: e.size 0 is never in bounds; e.size up to 2^64 - 1 (corrupt) is bounded by 2^V.
 * S = 0 is not a legal access size (spec §4.1) and callers reject it; for it this function returns
 * ga_entry_covers(e, p), which is stricter than the exact statement at a = ebase + e.size.
 */
bool ga_access_in_bounds(ga_entry_t e, uint64_t p, uint32_t size, unsigned tag_bits)
{
    uint64_t a = ga_va_of(p, tag_bits);
    uint64_t eb = ga_va_of(e.tb, tag_bits);
    uint64_t top = ga_va_mask(tag_bits) + 1u; /* 2^V; V <= 57 so it fits */
    if (a < eb) return false;
    uint64_t off = a - eb;
    if (off >= e.size) return false;
    return (uint64_t)size <= e.size - off && (uint64_t)size <= top - a;
}

/*
 * ga_check_g_lane — one lane of MEMCHECK.G: the first of rules G1..G7 (spec §4.2) that applies.
 *   G1 tag(p) = 0                        -> GA_EXC_NONE (unchecked pointer; md_state not looked at)
 *   G2 md_state = GA_MD_NONE (Rb = 0)    -> GA_EXC_NO_METADATA
 *   G3 md_state = GA_MD_FAULT            -> GA_EXC_METADATA_FAULT
 *   G4 etag = F                          -> GA_EXC_USE_AFTER_FREE
 *   G5 tag(p) != etag                    -> GA_EXC_TAG_MISMATCH (a forged tag(p) = F lands here
 *                                           for a live entry; an entry with tag 0 always lands here)
 *   G6 !ga_access_in_bounds(entry, p, S) -> GA_EXC_OUT_OF_BOUNDS
 *   G7                                   -> GA_EXC_NONE
 * entry is only looked at when md_state is GA_MD_OK. Any md_state value other than GA_MD_NONE and
 * GA_MD_OK is treated as a failed fetch (fail closed).
 */
ga_exc_kind_t ga_check_g_lane(uint64_t p, uint32_t size, ga_md_state_t md_state, ga_entry_t entry,
                              unsigned tag_bits)
{
    uint64_t t = ga_tag_of(p, tag_bits);
    if (t == 0u) return GA_EXC_NONE;                         /* G1 */
    if (md_state == GA_MD_NONE) return GA_EXC_NO_METADATA;    /* G2 */
    if (md_state != GA_MD_OK) return GA_EXC_METADATA_FAULT;   /* G3 */
    uint64_t et = ga_tag_of(entry.tb, tag_bits);
    if (et == ga_tag_freed(tag_bits)) return GA_EXC_USE_AFTER_FREE; /* G4 */
    if (t != et) return GA_EXC_TAG_MISMATCH;                 /* G5 */
    if (!ga_access_in_bounds(entry, p, size, tag_bits)) return GA_EXC_OUT_OF_BOUNDS; /* G6 */
    return GA_EXC_NONE;                                       /* G7 */
}

/*
 * ga_check_s_lane — one lane of MEMCHECK.S (spec §4.3): GA_EXC_NONE when, on exact integers,
 *     base <= a   and   a + S <= base + ssize   and   a + S <= 2^32,
 * else GA_EXC_SHARED_OUT_OF_BOUNDS. Computed wrap-free as in G6: a >= base && off < ssize &&
 * S <= ssize - off && S <= 2^32 - a (the last in 64 bits, where 2^32 - a >= 1).
 * Edge cases: ssize 0 fails every access; base + ssize past 2^32 is bounded by 2^32.
 */
ga_exc_kind_t ga_check_s_lane(uint32_t a, uint32_t size, uint32_t base, uint32_t ssize)
{
    if (a < base) return GA_EXC_SHARED_OUT_OF_BOUNDS;
    uint32_t off = a - base;
    if (off >= ssize) return GA_EXC_SHARED_OUT_OF_BOUNDS;
    if (size > ssize - off) return GA_EXC_SHARED_OUT_OF_BOUNDS;
    if ((uint64_t)size > (UINT64_C(1) << 32) - a) return GA_EXC_SHARED_OUT_OF_BOUNDS;
    return GA_EXC_NONE;
}

/* The lane count a warp loop may use: req->lanes clamped to GA_LANES_MAX so that a malformed request
 * can never index past the arrays (the MLU rejects such requests before calling in here). */
static unsigned warp_lanes(const ga_warp_req_t *req)
{
    return req->lanes > GA_LANES_MAX ? GA_LANES_MAX : req->lanes;
}

/*
 * ga_check_g — MEMCHECK.G on a whole warp against one already-obtained entry (spec §4.2, §4.4).
 * The response is rewritten completely:
 *   addr[l] = strip(req->addr[l]) for every l < lanes, active or not; 0 for l >= lanes.
 *   fault   = bit l for every active lane whose ga_check_g_lane() is not GA_EXC_NONE.
 *   rec     = the record of the lowest failing lane, all zero if none: kind, addr (as given, tag
 *             included), size = req->size, sm, warp = req->warp, lane, md, and entry = the entry when
 *             md_state is GA_MD_OK, else zero (G2 and G3 saw no entry).
 * md is copied into the record as given: 0 for G2 (Rb = 0); the Rb whose fetch failed for G3
 * [decision: the failing location is the most useful thing to report; spec §4.5 says "the metadata
 * location used" and the fetch used it]; Rb for G4..G6.
 * Inactive lanes are neither checked nor reported. req->lanes must be 1..32 and req->active must have
 * no bit at or above lanes (the MLU validates); bits above are ignored here.
 */
void ga_check_g(const ga_warp_req_t *req, uint64_t md, ga_md_state_t md_state, ga_entry_t entry,
                uint16_t sm, unsigned tag_bits, ga_warp_rsp_t *rsp)
{
    unsigned lanes = warp_lanes(req);
    memset(rsp, 0, sizeof *rsp);
    for (unsigned l = 0; l < lanes; l++) {
        uint64_t p = req->addr[l];
        rsp->addr[l] = ga_va_of(p, tag_bits);
        if (((req->active >> l) & 1u) == 0u) continue;
        ga_exc_kind_t k = ga_check_g_lane(p, req->size, md_state, entry, tag_bits);
        if (k == GA_EXC_NONE) continue;
        if (rsp->fault == 0u) {
            rsp->rec.kind = k;
            rsp->rec.addr = p;
            rsp->rec.size = req->size;
            rsp->rec.sm = sm;
            rsp->rec.warp = req->warp;
            rsp->rec.lane = (uint8_t)l;
            rsp->rec.md = md;
            if (md_state == GA_MD_OK) rsp->rec.entry = entry;
        }
        rsp->fault |= UINT32_C(1) << l;
    }
}

/*
 * ga_check_s — MEMCHECK.S on a whole warp (spec §4.3, §4.4). MEMCHECK.S returns no value, so every
 * rsp->addr[l] is 0. Each active lane l checks a = low 32 bits of req->addr[l]. The record of the
 * lowest failing lane has kind SHARED_OUT_OF_BOUNDS, addr = a zero-extended, size = req->size, sm,
 * warp, lane, md = 0 and entry = { tb = base, size = ssize } (spec §4.5).
 */
void ga_check_s(const ga_warp_req_t *req, uint32_t base, uint32_t ssize, uint16_t sm,
                ga_warp_rsp_t *rsp)
{
    unsigned lanes = warp_lanes(req);
    memset(rsp, 0, sizeof *rsp);
    for (unsigned l = 0; l < lanes; l++) {
        if (((req->active >> l) & 1u) == 0u) continue;
        uint32_t a = (uint32_t)req->addr[l];
        ga_exc_kind_t k = ga_check_s_lane(a, req->size, base, ssize);
        if (k == GA_EXC_NONE) continue;
        if (rsp->fault == 0u) {
            rsp->rec.kind = k;
            rsp->rec.addr = a;
            rsp->rec.size = req->size;
            rsp->rec.sm = sm;
            rsp->rec.warp = req->warp;
            rsp->rec.lane = (uint8_t)l;
            rsp->rec.md = 0u;
            rsp->rec.entry.tb = base;
            rsp->rec.entry.size = ssize;
        }
        rsp->fault |= UINT32_C(1) << l;
    }
}
