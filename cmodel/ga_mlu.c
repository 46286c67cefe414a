/*
 * ga_mlu.c — one SM's Metadata Loading Unit in atomic form (spec §3–§6; RTL rtl/ga_mlu.sv).
 *
 * Each operation runs to completion before the next (spec §8, atomic use): LOADMETA (§3.2),
 * MEMCHECK.G (§4.2), MEMCHECK.S (§4.3), a plain global access (§5.3 COMPILER pass-through, §5.4
 * HWOnly lane grouping), invalidate / flush (§6.4), configuration (§5.1) and the policy (§4.5).
 *
 * Every operation first validates its request; a malformed one returns an error and changes nothing
 * (no register, MLB, counter, memory read or callback). Then a halted unit refuses LOADMETA,
 * MEMCHECK.G, MEMCHECK.S and accesses with GA_ERR_HALTED, again changing nothing.
 * [decision] Configuration writes, invalidate, flush and clear-halt are accepted while halted: they
 * have no memory effect, the runtime must keep invalidating on frees, and the driver must be able to
 * reconfigure before it clears the halt (spec §4.5 only says later *operations* are refused).
 *
 * Fills record the MLB generation when the miss that starts the read commits and pass it to
 * ga_mlb_fill, so an invalidation committed during the read (possible here only from inside the
 * memif read callback, which may call ga_mlu_invalidate on this unit) drops the fill (spec §6.5).
 *
 * Configuration is captured at acceptance (spec §8): each operation copies the registers once when it
 * starts and uses only that copy (walk LAYOUT / ROOT / STEP_LIMIT, record SM_ID, the TERMINATE halt,
 * the MODE decision), so a configuration write made from inside the read callback (a CFG_WRITE
 * committing while a walk is in flight) changes only later operations, as in the RTL.
 */
#include "ga_mlu.h"

#include <string.h>

/* Legal register values (spec §5.1; the ranges of cmodel/ga_isa.def, the RTL's CFG_ERROR rule). ROOT
 * and SM_ID take any value of their width. */
static bool cfg_ok(const ga_mlu_cfg_t *c)
{
    return ga_cfg_legal(GA_CFG_MODE, (uint64_t)c->mode) && ga_cfg_legal(GA_CFG_LAYOUT, (uint64_t)c->layout) &&
           ga_layout_valid((unsigned)c->layout) && ga_cfg_legal(GA_CFG_STEP_LIMIT, c->step_limit) &&
           ga_cfg_legal(GA_CFG_POLICY, (uint64_t)c->policy);
}

/* ga_mlu_init — reset state: registers at their reset values (MODE COMPILER, LAYOUT BST, ROOT 0,
 * STEP_LIMIT 65 536, POLICY REPORT, SM_ID 0), MLB reset with mlb_entries entries, not halted, no
 * first exception, counters zero, no exception callback; *mem is copied.
 * GA_ERR_BAD_PARAM (u untouched) for a NULL u or mem, mem->read NULL, tag_bits not 7/16 or
 * mlb_entries outside 1..64. */
ga_err_t ga_mlu_init(ga_mlu_t *u, unsigned tag_bits, unsigned mlb_entries, const ga_memif_t *mem)
{
    if (u == NULL || mem == NULL || mem->read == NULL || !ga_tag_bits_ok(tag_bits) || mlb_entries < 1u ||
        mlb_entries > GA_MLB_MAX)
        return GA_ERR_BAD_PARAM;
    memset(u, 0, sizeof *u);
    u->tag_bits = tag_bits;
    u->cfg.mode = GA_MODE_COMPILER;
    u->cfg.layout = GA_LAYOUT_BST;
    u->cfg.root = 0u;
    u->cfg.step_limit = GA_STEP_LIMIT_RESET;
    u->cfg.policy = GA_POLICY_REPORT;
    u->cfg.sm_id = 0u;
    (void)ga_mlb_init(&u->mlb, mlb_entries, tag_bits); /* arguments checked above */
    u->mem = *mem;
    return GA_OK;
}

/* ga_mlu_configure — write every register at once. GA_ERR_BAD_PARAM and no change for NULL or any
 * illegal value (mode, a LAYOUT code that names no layout, step_limit 0, policy). Changing LAYOUT or
 * ROOT does not touch the MLB [decision: the spec gives no such rule; entries name locations, which stay valid
 * across a ROOT move (spec §2.4), and the runtime invalidates every location whose entry changes]. */
ga_err_t ga_mlu_configure(ga_mlu_t *u, const ga_mlu_cfg_t *cfg)
{
    if (u == NULL || cfg == NULL || !cfg_ok(cfg)) return GA_ERR_BAD_PARAM;
    u->cfg = *cfg;
    return GA_OK;
}

/* ga_mlu_set_root — write the ROOT register (any value is legal). */
void ga_mlu_set_root(ga_mlu_t *u, uint64_t root) { u->cfg.root = root; }

/* A request is well formed when lanes is 1..32, active has no bit at or above lanes, and size is
 * one of 1, 2, 4, 8, 16 (spec §4.1, §4.4). BAD_PARAM is checked before BAD_SIZE. */
static ga_err_t req_check(const ga_warp_req_t *req, const ga_warp_rsp_t *rsp)
{
    if (req == NULL || rsp == NULL || req->lanes < 1u || req->lanes > GA_LANES_MAX) return GA_ERR_BAD_PARAM;
    if (req->lanes < 32u && (req->active >> req->lanes) != 0u) return GA_ERR_BAD_PARAM;
    uint32_t s = req->size;
    if (s != 1u && s != 2u && s != 4u && s != 8u && s != 16u) return GA_ERR_BAD_SIZE;
    return GA_OK;
}

static unsigned popcount32(uint32_t x)
{
    /* SWAR count: __builtin_popcount becomes a libgcc call without -mpopcnt, measured at 5 % of
     * the HWOnly hit path (perf, make bench). */
    x = x - ((x >> 1) & UINT32_C(0x55555555));
    x = (x & UINT32_C(0x33333333)) + ((x >> 2) & UINT32_C(0x33333333));
    x = (x + (x >> 4)) & UINT32_C(0x0F0F0F0F);
    return (unsigned)((x * UINT32_C(0x01010101)) >> 24);
}

static unsigned lowest_bit(uint32_t x) /* x != 0 */
{
#if defined(__GNUC__)
    return (unsigned)__builtin_ctz(x);
#else
    unsigned l = 0;
    while (((x >> l) & 1u) == 0u) l++;
    return l;
#endif
}

/* Mask of the active lanes whose address carries a non-zero tag. */
static uint32_t tagged_lanes(const ga_mlu_t *u, const ga_warp_req_t *req)
{
    uint32_t m = 0;
    for (unsigned l = 0; l < req->lanes; l++)
        if (((req->active >> l) & 1u) != 0u && ga_tag_of(req->addr[l], u->tag_bits) != 0u) m |= UINT32_C(1) << l;
    return m;
}

/* A fill with its counters (spec §6.3, §6.5). */
static void mlu_fill(ga_mlu_t *u, ga_entry_t e, uint64_t loc, uint64_t gen0)
{
    if (ga_mlb_fill(&u->mlb, e, loc, gen0) >= 0)
        u->st.fills++;
    else
        u->st.fills_dropped++;
}

/* The outcome of one LOADMETA as HWOnly needs it: the location returned and, on an MLB hit or a FOUND
 * walk, the matching entry; otherwise the walk result that explains the miss (if a walk ran).
 * matched is kept apart from rd != 0 because a TABLE whose ROOT is 0 has its slot 0 at location 0:
 * spec §5.4 groups on "a match", which such a slot is (see the report on location 0). */
typedef struct {
    uint64_t rd;
    bool matched;       /* MLB hit or FOUND: (rd, e) is a matching entry and its location */
    ga_entry_t e;       /* valid when matched */
    bool walked;        /* a walk ran */
    ga_walk_result_t w; /* valid when walked */
} loadmeta_out_t;

/* LOADMETA steps of spec §3.2 with their counters; never raises an exception. *o is written through
 * a pointer and only its valid fields are set (w only when walked): this is the hot path of every
 * HWOnly access, and clearing or copying the whole struct by value cost about 30 instructions per
 * request (callgrind on gabench --fixed-requests). */
static void loadmeta_core(ga_mlu_t *u, const ga_mlu_cfg_t *cfg, uint64_t p, loadmeta_out_t *o)
{
    o->rd = 0u;
    o->matched = false;
    o->walked = false;
    u->st.loadmeta++;
    if (!ga_tag_is_valid(ga_tag_of(p, u->tag_bits), u->tag_bits)) { /* step 1: tag 0 or F */
        u->st.loadmeta_unchecked++;
        u->st.loadmeta_zero++;
        return;
    }
    int i = ga_mlb_lookup_range(&u->mlb, p); /* step 2 */
    if (i >= 0) {
        u->st.loadmeta_hits++;
        o->matched = true;
        o->rd = u->mlb.loc[i];
        o->e = u->mlb.e[i];
        if (o->rd == 0u) u->st.loadmeta_zero++;
        return;
    }
    uint64_t gen0 = u->mlb.gen; /* step 3: the miss commits, the walk starts */
    ga_walk_cfg_t wc = { cfg->layout, cfg->root, cfg->step_limit, u->tag_bits };
    o->w = ga_walk(&wc, &u->mem, p);
    o->walked = true;
    u->st.walks++;
    u->st.walk_steps += o->w.steps;
    if (o->w.steps > u->st.walk_max) u->st.walk_max = o->w.steps;
    if ((unsigned)o->w.status < (unsigned)GA_WALK_ENDS) u->st.walk_end[o->w.status]++;
    u->st.md_reads += o->w.steps;
    u->st.md_read_bytes += o->w.bytes;
    if (o->w.status == GA_WALK_FOUND) {
        o->matched = true;
        o->rd = o->w.loc;
        o->e = o->w.entry;
        mlu_fill(u, o->w.entry, o->w.loc, gen0);
    }
    if (o->rd == 0u) u->st.loadmeta_zero++;
}

/* The end of a warp operation: per-kind lane counters, and for a faulting operation the counters,
 * the first-exception record, the callback (once) and the halt when the operation was accepted under
 * TERMINATE (policy: POLICY as of acceptance, spec §8). kinds[l] holds each failing lane's kind. */
static void finish_op(ga_mlu_t *u, ga_policy_t policy, const ga_warp_rsp_t *rsp, const ga_exc_kind_t *kinds)
{
    if (rsp->fault == 0u) return;
    for (uint32_t m = rsp->fault; m != 0u; m &= m - 1u) {
        unsigned l = lowest_bit(m);
        if ((unsigned)kinds[l] < (unsigned)GA_EXC_KINDS) u->st.faulting_lanes[kinds[l]]++;
    }
    u->st.faulting_ops++;
    if (u->first_exc.kind == GA_EXC_NONE) u->first_exc = rsp->rec;
    if (policy == GA_POLICY_TERMINATE) u->halted = true;
    if (u->on_exc != NULL) u->on_exc(u->on_exc_ctx, &rsp->rec);
}

/* ga_mlu_loadmeta — LOADMETA (spec §3.2): *rd = the location of the entry matching p, or 0.
 * Tag 0 or F: 0 with no MLB access and no read. MLB range hit: its location (entry touched).
 * Miss: the walk of spec §3.3; FOUND fills (e, L) unless an invalidation intervened (spec §6.5) and
 * returns L; any other end returns 0 without a fill. Never raises an exception.
 * GA_ERR_BAD_PARAM for NULL u or rd; GA_ERR_HALTED when halted; both change nothing. */
ga_err_t ga_mlu_loadmeta(ga_mlu_t *u, uint64_t p, uint64_t *rd)
{
    if (u == NULL || rd == NULL) return GA_ERR_BAD_PARAM;
    if (u->halted) return GA_ERR_HALTED;
    const ga_mlu_cfg_t cfg = u->cfg; /* captured at acceptance (spec §8) */
    loadmeta_out_t o;
    loadmeta_core(u, &cfg, p, &o);
    *rd = o.rd;
    return GA_OK;
}

/* ga_mlu_memcheck_g — MEMCHECK.G (spec §4.2) of the warp with metadata location md.
 * The entry is obtained only when some active lane has a non-zero tag and md != 0, once per warp:
 * md mod 16 != 0 fails with no MLB lookup and no read; else an MLB location hit supplies it (touch);
 * else one 16-byte read at md, an error fails; a read entry with a valid tag is filled (gen captured
 * at the miss), a freed or tag-0 entry is not. Then ga_check_g() decides every lane (G1..G7) and
 * builds the response. A faulting operation is recorded per spec §4.5 (finish_op). */
ga_err_t ga_mlu_memcheck_g(ga_mlu_t *u, const ga_warp_req_t *req, uint64_t md, ga_warp_rsp_t *rsp)
{
    if (u == NULL) return GA_ERR_BAD_PARAM;
    ga_err_t err = req_check(req, rsp);
    if (err != GA_OK) return err;
    if (u->halted) return GA_ERR_HALTED;
    const ga_mlu_cfg_t cfg = u->cfg; /* captured at acceptance (spec §8): the fetch may re-enter */

    u->st.memcheck_g++;
    uint32_t tagged = tagged_lanes(u, req);
    u->st.lanes_checked += popcount32(tagged);

    ga_md_state_t ms = GA_MD_NONE;
    ga_entry_t e = { 0u, 0u };
    if (md != 0u && tagged != 0u) {
        u->st.fetches++;
        ms = GA_MD_FAULT;
        if (md % GA_ENTRY_BYTES == 0u) {
            int i = ga_mlb_lookup_loc(&u->mlb, md);
            if (i >= 0) {
                u->st.fetch_hits++;
                e = u->mlb.e[i];
                ms = GA_MD_OK;
            } else {
                uint64_t gen0 = u->mlb.gen;
                uint32_t reads = 0;
                ms = ga_fetch_entry(&u->mem, md, &e, &reads);
                u->st.md_reads += reads;
                u->st.md_read_bytes += (uint64_t)reads * GA_ENTRY_BYTES;
                if (ms == GA_MD_OK && ga_tag_is_valid(ga_tag_of(e.tb, u->tag_bits), u->tag_bits))
                    mlu_fill(u, e, md, gen0);
            }
        }
    }
    ga_check_g(req, md, ms, e, cfg.sm_id, u->tag_bits, rsp);

    ga_exc_kind_t kinds[GA_LANES_MAX];
    for (unsigned l = 0; l < req->lanes; l++)
        kinds[l] = ((rsp->fault >> l) & 1u) != 0u ? ga_check_g_lane(req->addr[l], req->size, ms, e, u->tag_bits)
                                                   : GA_EXC_NONE;
    for (unsigned l = req->lanes; l < GA_LANES_MAX; l++) kinds[l] = GA_EXC_NONE;
    finish_op(u, cfg.policy, rsp, kinds);
    return GA_OK;
}

/* ga_mlu_memcheck_s — MEMCHECK.S (spec §4.3) with shared base and size; no MLB, no memory. Every
 * active lane counts as checked. rsp->addr is all zero (MEMCHECK.S returns no value). */
ga_err_t ga_mlu_memcheck_s(ga_mlu_t *u, const ga_warp_req_t *req, uint32_t base, uint32_t ssize,
                           ga_warp_rsp_t *rsp)
{
    if (u == NULL) return GA_ERR_BAD_PARAM;
    ga_err_t err = req_check(req, rsp);
    if (err != GA_OK) return err;
    if (u->halted) return GA_ERR_HALTED;

    u->st.memcheck_s++;
    u->st.lanes_checked += popcount32(req->active);
    ga_check_s(req, base, ssize, u->cfg.sm_id, rsp);
    ga_exc_kind_t kinds[GA_LANES_MAX];
    for (unsigned l = 0; l < GA_LANES_MAX; l++) kinds[l] = GA_EXC_SHARED_OUT_OF_BOUNDS;
    finish_op(u, u->cfg.policy, rsp, kinds); /* no memory read: nothing can re-enter */
    return GA_OK;
}

/* Lane l of an HWOnly access fails with kind (md and entry as seen; entry NULL for none). Lanes fail
 * out of order (a group member above a later leader), so the record is replaced whenever a lower lane
 * fails: it ends as the lowest failing lane's (spec §4.4). */
static void lane_fail(uint16_t sm_id, const ga_warp_req_t *req, ga_warp_rsp_t *rsp,
                      ga_exc_kind_t *kinds, unsigned l, ga_exc_kind_t kind, uint64_t md,
                      const ga_entry_t *entry)
{
    kinds[l] = kind;
    if (rsp->fault == 0u || l < rsp->rec.lane) {
        rsp->rec.kind = kind;
        rsp->rec.addr = req->addr[l];
        rsp->rec.size = req->size;
        rsp->rec.sm = sm_id;
        rsp->rec.warp = req->warp;
        rsp->rec.lane = (uint8_t)l;
        rsp->rec.md = md;
        if (entry != NULL)
            rsp->rec.entry = *entry;
        else
            rsp->rec.entry = (ga_entry_t){0, 0};
    }
    rsp->fault |= UINT32_C(1) << l;
}

/* Lane k of an HWOnly access whose LOADMETA found no matching entry (spec §5.4): the walk's end decides
 * the kind (ga_isa.def's GA_WALK_EXC); no walk (LOADMETA refused the pointer) counts as NOT_FOUND; only
 * RANGE_ONLY has an entry and a location to report. Kept out of line: it is the cold path, and inlined
 * into access_hwonly it cost the hit path about 4 % (callgrind, gabench --fixed-requests, 32 lanes). */
#if defined(__GNUC__)
__attribute__((noinline, cold))
#endif
static void lane_walk_fail(const ga_mlu_t *u, uint16_t sm_id, const ga_warp_req_t *req, ga_warp_rsp_t *rsp,
                           ga_exc_kind_t *kinds, unsigned k, const loadmeta_out_t *o)
{
    ga_walk_status_t ws = o->walked ? o->w.status : GA_WALK_NOT_FOUND;
    bool ranged = ws == GA_WALK_RANGE_ONLY;
    bool freed = ranged && ga_tag_of(o->w.entry.tb, u->tag_bits) == ga_tag_freed(u->tag_bits);
    lane_fail(sm_id, req, rsp, kinds, k, ga_walk_exc(ws, freed), ranged ? o->w.loc : 0u, ranged ? &o->w.entry : NULL);
}

/* The HWOnly access of spec §5.4. Lanes are decided in groups: the lowest pending lane k leads;
 * a forged freed tag fails NO_METADATA alone without a LOADMETA; otherwise LOADMETA(Ra_k) runs and,
 * when it yields a matching entry e at L, every pending lane whose pointer e matches (start address
 * and tag, M1..M3) is decided by G6 against e with md = L; when it does not, lane k alone is decided
 * from the walk's end (RANGE_ONLY freed -> USE_AFTER_FREE, RANGE_ONLY live -> TAG_MISMATCH, both with
 * md = L and entry e; NOT_FOUND -> NO_METADATA, FAULT / STEP_LIMIT -> METADATA_FAULT, md 0, entry 0).
 * There is no MLB location lookup. The response and record are built as in ga_check_g. */
static void access_hwonly(ga_mlu_t *u, const ga_mlu_cfg_t *cfg, const ga_warp_req_t *req, ga_warp_rsp_t *rsp)
{
    unsigned tb = u->tag_bits;
    uint64_t freed = ga_tag_freed(tb);
    ga_exc_kind_t kinds[GA_LANES_MAX]; /* written, and read, only for lanes set in rsp->fault */

    uint32_t pending = tagged_lanes(u, req);
    u->st.lanes_checked += popcount32(pending);
    while (pending != 0u) {
        unsigned k = lowest_bit(pending);
        uint64_t pk = req->addr[k];
        if (ga_tag_of(pk, tb) == freed) { /* forged: no walk */
            lane_fail(cfg->sm_id, req, rsp, kinds, k, GA_EXC_NO_METADATA, 0, NULL);
            pending &= ~(UINT32_C(1) << k);
            continue;
        }
        loadmeta_out_t o;
        loadmeta_core(u, cfg, pk, &o);
        if (o.matched) {
            /* Lanes below k are no longer pending, so the group is searched from k up; e matches
             * Ra_k by construction, and k is removed whatever the test says, for robustness. */
            uint32_t group = UINT32_C(1) << k;
            for (uint32_t m = pending; m != 0u; m &= m - 1u) {
                unsigned j = lowest_bit(m);
                if (j != k && !ga_entry_matches(o.e, req->addr[j], tb)) continue;
                group |= UINT32_C(1) << j;
                if (!ga_access_in_bounds(o.e, req->addr[j], req->size, tb))
                    lane_fail(cfg->sm_id, req, rsp, kinds, j, GA_EXC_OUT_OF_BOUNDS, o.rd, &o.e);
            }
            pending &= ~group;
            continue;
        }
        lane_walk_fail(u, cfg->sm_id, req, rsp, kinds, k, &o);
        pending &= ~(UINT32_C(1) << k);
    }
    finish_op(u, cfg->policy, rsp, kinds);
}

/* ga_mlu_access — a plain global access (spec §5.3, §5.4). rsp->addr[l] = strip(addr[l]) for every
 * l < lanes (0 above). COMPILER mode: nothing is checked, fault 0, record zero, no MLB or memory
 * effect. HWONLY mode: access_hwonly(). Validation and halting as for MEMCHECK.G. */
ga_err_t ga_mlu_access(ga_mlu_t *u, const ga_warp_req_t *req, ga_warp_rsp_t *rsp)
{
    if (u == NULL) return GA_ERR_BAD_PARAM;
    ga_err_t err = req_check(req, rsp);
    if (err != GA_OK) return err;
    if (u->halted) return GA_ERR_HALTED;
    const ga_mlu_cfg_t cfg = u->cfg; /* captured at acceptance (spec §8): the walks may re-enter */

    u->st.access++;
    memset(rsp, 0, sizeof *rsp);
    for (unsigned l = 0; l < req->lanes; l++) rsp->addr[l] = ga_va_of(req->addr[l], u->tag_bits);
    if (cfg.mode == GA_MODE_HWONLY) access_hwonly(u, &cfg, req, rsp);
    return GA_OK;
}

/* ga_mlu_invalidate — invalidate(loc) of spec §6.4 on this unit's MLB (gen increments even when no
 * entry holds loc). Accepted while halted. */
void ga_mlu_invalidate(ga_mlu_t *u, uint64_t loc)
{
    u->st.invalidates++;
    (void)ga_mlb_invalidate(&u->mlb, loc);
}

/* ga_mlu_flush — flush of spec §6.4. Accepted while halted. */
void ga_mlu_flush(ga_mlu_t *u)
{
    u->st.flushes++;
    ga_mlb_flush(&u->mlb);
}

/* ga_mlu_clear_halt — leave the halted state and forget the first exception record (spec §4.5). The
 * MLB, registers and counters are unchanged. */
void ga_mlu_clear_halt(ga_mlu_t *u)
{
    u->halted = false;
    memset(&u->first_exc, 0, sizeof u->first_exc);
}
