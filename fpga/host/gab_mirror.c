/*
 * gab_mirror.c — the golden model beside the board (gab_mirror.h).
 */
#include "gab_mirror.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

const char *const gab_counter_names[GAB_NCNT] = {
    "ops", "mem_reads", "RANGE_HIT", "RANGE_MISS", "LOC_HIT", "LOC_MISS", "FILL", "FILL_DROP", "INVAL", "FLUSH"};

static int mirror_read(void *ctx, uint64_t addr, uint32_t len, uint8_t *buf)
{
    gab_mirror_t *m = ctx;
    /* The board answers an error outside its window and never reads elsewhere. */
    if (addr >= m->win || len > m->win - addr) {
        memset(buf, 0, len);
        return 1;
    }
    if (ga_mem_read(m->mem, addr, buf, len) != GA_MEM_OK) return 1;
    /* What the MLU sees of it (ga_board_core: narrow builds keep the entry's tag and kept VA bits, the
     * size's kept bits, and the window bits of a node's two pointers; full builds everything). */
    ga_put_le64(buf, ga_le64(buf) & m->keep_addr);
    ga_put_le64(buf + 8, ga_le64(buf + 8) & m->va_mask);
    if (len == 32u) {
        ga_put_le64(buf + 16, ga_le64(buf + 16) & m->keep_ptr);
        ga_put_le64(buf + 24, ga_le64(buf + 24) & m->keep_ptr);
    }
    return 0;
}

static int mirror_oracle(void *ctx, uint64_t va, uint64_t *idx)
{
    const gab_mirror_t *m = ctx;
    (void)va;
    *idx = m->orc_idx;
    return m->orc_found ? 1 : 0;
}

static uint64_t low_mask(unsigned bits) { return bits >= 64u ? ~UINT64_C(0) : (UINT64_C(1) << bits) - 1u; }

int gab_mirror_init(gab_mirror_t *m, const gab_info_t *info, char *err, size_t errlen)
{
    memset(m, 0, sizeof *m);
    m->info = *info;
    if (info->tag_bits != 7u && info->tag_bits != 16u) {
        snprintf(err, errlen, "board reports TagBits %u (expected 7 or 16)", info->tag_bits);
        return -1;
    }
    if (info->lanes < 1u || info->lanes > GAB_LANES_MAX || info->mlb_entries < 1u || info->mlb_entries > 64u ||
        info->mem_lines_log2 < 4u || info->mem_lines_log2 > 11u || info->num_sms < 1u ||
        info->num_sms > GAB_SMS_MAX) {
        snprintf(err, errlen, "board reports an unexpected build (Lanes %u, MLB %u, memory lines 2^%u, SMs %u)",
                 info->lanes, info->mlb_entries, info->mem_lines_log2, info->num_sms);
        return -1;
    }
    m->win = UINT64_C(32) << info->mem_lines_log2;
    if (ga_mem_create(&m->mem) != GA_OK) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    /* The board's block RAM starts at zero: map the window as zeros, so that reading any of it
     * succeeds in the model as on the board. */
    uint8_t z[256];
    memset(z, 0, sizeof z);
    for (uint64_t a = 0; a < m->win; a += sizeof z) (void)ga_mem_write(m->mem, a, z, sizeof z);
    unsigned v = 64u - info->tag_bits;
    bool narrow = info->va_keep < v;
    m->va_mask = low_mask(info->va_keep);
    m->keep_addr = m->va_mask | ~low_mask(v);
    m->keep_ptr = narrow ? low_mask(info->mem_lines_log2 + 5u) : ~UINT64_C(0);
    uint64_t md32 = low_mask(info->md_keep >= 32u ? 32u : info->md_keep);
    m->keep_md = narrow ? md32 : ~UINT64_C(0);
    m->keep_mds = narrow ? (md32 | (md32 << 32)) : ~UINT64_C(0);
    gab_mirror_reset(m);
    return 0;
}

void gab_mirror_free(gab_mirror_t *m)
{
    ga_mem_destroy(m->mem);
    m->mem = NULL;
}

void gab_mirror_reset(gab_mirror_t *m)
{
    ga_memif_t mi = {.read = mirror_read, .read_ctx = m, .oracle = mirror_oracle, .oracle_ctx = m};
    for (unsigned s = 0; s < m->info.num_sms; s++) (void)ga_mlu_init(&m->sm[s], m->info.tag_bits, m->info.mlb_entries, &mi);
    memset(m->cnt, 0, sizeof m->cnt);
}

void gab_mirror_clear_counters(gab_mirror_t *m) { memset(m->cnt, 0, sizeof m->cnt); }

void gab_mirror_select(gab_mirror_t *m, unsigned sm)
{
    if (sm < m->info.num_sms) m->cur = sm;
}

void gab_mirror_mem_write(gab_mirror_t *m, unsigned line, const uint8_t data[32])
{
    (void)ga_mem_write(m->mem, (uint64_t)line * 32u, data, 32);
}

bool gab_mirror_req_fits(const gab_mirror_t *m, const gab_req_t *r, char *why, size_t n)
{
    uint64_t km = r->op == GAB_OP_MEMCHECK_S ? m->keep_mds : m->keep_md;
    if ((r->md & ~km) != 0u) {
        snprintf(why, n, "md 0x%" PRIx64 " has bits this build drops (it keeps %u bits of md%s)", r->md,
                 m->info.md_keep, r->op == GAB_OP_MEMCHECK_S ? " in each half" : "");
        return false;
    }
    for (unsigned l = 0; l < m->info.lanes; l++)
        if ((r->addr[l] & ~m->keep_addr) != 0u) {
            snprintf(why, n, "lane %u address 0x%" PRIx64 " has VA bits this build drops (it keeps %u)", l,
                     r->addr[l], m->info.va_keep);
            return false;
        }
    if (r->size_log2 > 4u) {
        snprintf(why, n, "access size 2^%u is reserved (spec §4.1)", r->size_log2);
        return false;
    }
    return true;
}

static uint64_t le64(const uint8_t *p) { return ga_le64(p); }

bool gab_mirror_line_fits(const gab_mirror_t *m, const uint8_t data[32], char *why, size_t n)
{
    /* Bytes 0..15 are an entry; bytes 16..31 are an entry (a TABLE slot, read alone) or a node's two
     * pointers (read with the entry): they must fit one of the two ways the board can read them. */
    uint64_t w[4] = {le64(data), le64(data + 8), le64(data + 16), le64(data + 24)};
    if ((w[0] & ~m->keep_addr) != 0u || (w[1] & ~m->va_mask) != 0u) {
        snprintf(why, n, "entry (0x%" PRIx64 ", 0x%" PRIx64 ") needs more than the %u VA bits this build keeps",
                 w[0], w[1], m->info.va_keep);
        return false;
    }
    bool as_entry = (w[2] & ~m->keep_addr) == 0u && (w[3] & ~m->va_mask) == 0u;
    bool as_ptrs = (w[2] & ~m->keep_ptr) == 0u && (w[3] & ~m->keep_ptr) == 0u;
    if (!as_entry && !as_ptrs) {
        snprintf(why, n, "bytes 16..31 (0x%" PRIx64 ", 0x%" PRIx64 ") fit neither an entry (%u VA bits) nor two "
                 "node pointers (%u window bits)", w[2], w[3], m->info.va_keep, m->info.mem_lines_log2 + 5u);
        return false;
    }
    return true;
}

/* Legal CFG_WRITE (microarchitecture §1.7): apply it and return true; false leaves cfg unchanged. */
static bool cfg_write(ga_mlu_cfg_t *c, unsigned addr, uint64_t v)
{
    switch (addr) {
    case GAB_CFG_MODE:
        if (v > 1u) return false;
        c->mode = (ga_mode_t)v;
        return true;
    case GAB_CFG_LAYOUT:
        /* every board build leaves the INDEX walker out (ga_mlu HasIndex 0, fpga/rtl/ga_board_core.sv):
         * LAYOUT = INDEX (3) is refused there like the codes no build has */
        if (v >= (uint64_t)GA_LAYOUT_INDEX) return false;
        c->layout = (ga_layout_t)v;
        return true;
    case GAB_CFG_ROOT: c->root = v; return true;
    case GAB_CFG_STEP_LIMIT:
        if (v == 0u || v > UINT32_MAX) return false;
        c->step_limit = (uint32_t)v;
        return true;
    case GAB_CFG_POLICY:
        if (v > 1u) return false;
        c->policy = (ga_policy_t)v;
        return true;
    case GAB_CFG_SM_ID:
        if (v > UINT16_MAX) return false;
        c->sm_id = (uint16_t)v;
        return true;
    default: return false;
    }
}

static unsigned log2u(uint32_t s)
{
    unsigned k = 0;
    while ((UINT32_C(1) << k) < s) k++;
    return k;
}

static void fill_rec(gab_rsp_t *e, const ga_warp_rsp_t *w, unsigned lanes, bool with_addr)
{
    for (unsigned l = 0; l < lanes; l++) e->addr[l] = with_addr ? w->addr[l] : 0u;
    e->fault = w->fault;
    if (w->fault == 0u) return;
    e->kind = (uint8_t)w->rec.kind;
    e->exc_addr = w->rec.addr;
    e->exc_size_log2 = (uint8_t)log2u(w->rec.size);
    e->exc_sm = w->rec.sm;
    e->exc_warp = w->rec.warp;
    e->exc_lane = w->rec.lane;
    e->exc_md = w->rec.md;
    e->exc_tb = w->rec.entry.tb;
    e->exc_esize = w->rec.entry.size;
}

static void mirror_op1(gab_mirror_t *m, ga_mlu_t *u, const gab_req_t *r, gab_rsp_t *exp)
{
    unsigned lanes = m->info.lanes;
    memset(exp, 0, sizeof *exp);
    exp->bstatus = GAB_ST_OK;
    exp->rsp_op = r->op & 7u;
    exp->rsp_status = GAB_RSP_OK;
    m->orc_found = r->orc_found != 0u;
    m->orc_idx = r->orc_idx;
    m->cnt[GAB_CNT_OPS]++;

    ga_mlu_stats_t s0 = u->st;
    ga_warp_req_t w;
    memset(&w, 0, sizeof w);
    w.lanes = lanes;
    w.active = r->active & (uint32_t)low_mask(lanes);
    w.warp = r->warp;
    w.size = UINT32_C(1) << (r->size_log2 & 7u);
    for (unsigned l = 0; l < lanes; l++) w.addr[l] = r->addr[l];
    ga_warp_rsp_t wr;
    memset(&wr, 0, sizeof wr);
    ga_err_t err = GA_OK;
    bool misaligned_fetch = false;

    switch (r->op & 7u) {
    case GAB_OP_LOADMETA: {
        uint64_t rd = 0;
        err = ga_mlu_loadmeta(u, r->addr[0], &rd);
        if (err == GA_OK) exp->rd = rd;
        break;
    }
    case GAB_OP_MEMCHECK_G:
        err = ga_mlu_memcheck_g(u, &w, r->md, &wr);
        if (err == GA_OK) fill_rec(exp, &wr, lanes, true);
        misaligned_fetch = r->md != 0u && r->md % 16u != 0u;
        break;
    case GAB_OP_MEMCHECK_S:
        err = ga_mlu_memcheck_s(u, &w, (uint32_t)r->md, (uint32_t)(r->md >> 32), &wr);
        if (err == GA_OK) fill_rec(exp, &wr, lanes, false);
        break;
    case GAB_OP_ACCESS:
        err = ga_mlu_access(u, &w, &wr);
        if (err == GA_OK) fill_rec(exp, &wr, lanes, true);
        break;
    case GAB_OP_INVALIDATE: ga_mlu_invalidate(u, r->md); break;
    case GAB_OP_FLUSH: ga_mlu_flush(u); break;
    case GAB_OP_CFG_WRITE: {
        ga_mlu_cfg_t c = u->cfg;
        uint64_t v = r->md;
        /* A compiler-mode-only build (ga_mlu HwOnly = 0) refuses MODE = 1 like any illegal value:
         * the mirror makes it the illegal 2 (and leaves every other illegal value illegal). */
        if (!m->info.hwonly && (r->cfg_addr & 7u) == GAB_CFG_MODE)
            v = (v & ~UINT64_C(3)) | (((v | (v >> 1)) & 1u) << 1);
        if (cfg_write(&c, r->cfg_addr & 7u, v) && ga_mlu_configure(u, &c) == GA_OK)
            exp->rsp_status = GAB_RSP_OK;
        else
            exp->rsp_status = GAB_RSP_CFG_ERROR;
        break;
    }
    default: ga_mlu_clear_halt(u); break;
    }
    if (err == GA_ERR_HALTED) {
        /* Refused: every other field 0 (microarchitecture §1.7). */
        memset(exp, 0, sizeof *exp);
        exp->rsp_op = r->op & 7u;
        exp->rsp_status = GAB_RSP_HALTED;
    }
    exp->flags = (uint8_t)(GAB_FL_MLU_RSP | (u->halted ? GAB_FL_HALTED : 0u));

    /* Events the RTL logs (microarchitecture §1.5, §1.7), from the model's counters. */
    const ga_mlu_stats_t *s1 = &u->st;
    m->cnt[GAB_CNT_MEM_READS] += s1->md_reads - s0.md_reads;
    m->cnt[GAB_CNT_EV0 + 0] += s1->loadmeta_hits - s0.loadmeta_hits;
    m->cnt[GAB_CNT_EV0 + 1] += s1->walks - s0.walks;
    m->cnt[GAB_CNT_EV0 + 2] += s1->fetch_hits - s0.fetch_hits;
    m->cnt[GAB_CNT_EV0 + 3] += (s1->fetches - s0.fetches) - (s1->fetch_hits - s0.fetch_hits) -
                               ((s1->fetches != s0.fetches && misaligned_fetch) ? 1u : 0u);
    m->cnt[GAB_CNT_EV0 + 4] += s1->fills - s0.fills;
    m->cnt[GAB_CNT_EV0 + 5] += s1->fills_dropped - s0.fills_dropped;
    m->cnt[GAB_CNT_EV0 + 6] += s1->invalidates - s0.invalidates;
    m->cnt[GAB_CNT_EV0 + 7] += s1->flushes - s0.flushes;
}

void gab_mirror_op(gab_mirror_t *m, const gab_req_t *r, gab_rsp_t *exp)
{
    if (m->info.num_sms > 1u && r->sm == GAB_SM_ALL) {
        /* The runtime port: the command reaches every SM (ga_system); the board shows SM 0's response. */
        for (unsigned s = m->info.num_sms; s-- > 0;) mirror_op1(m, &m->sm[s], r, exp);
        m->cur = 0;
        return;
    }
    unsigned s = m->info.num_sms > 1u ? r->sm : 0u;
    if (s >= m->info.num_sms) s = 0; /* gab_sess_op refuses such a request before it is sent */
    m->cur = s;
    mirror_op1(m, &m->sm[s], r, exp);
}

#define CMP(field, fmt)                                                                                   \
    do {                                                                                                  \
        if (exp->field != got->field) {                                                                   \
            if (diffs < 4u && used < n)                                                                   \
                used += (size_t)snprintf(msg + used, n - used, "%s%s expected " fmt " got " fmt,          \
                                         diffs ? "; " : "", #field, exp->field, got->field);              \
            diffs++;                                                                                      \
        }                                                                                                 \
    } while (0)

unsigned gab_mirror_compare(const gab_mirror_t *m, const gab_rsp_t *exp, const gab_rsp_t *got, char *msg, size_t n)
{
    unsigned diffs = 0;
    size_t used = 0;
    if (n > 0) msg[0] = '\0';
    CMP(bstatus, "%u");
    CMP(rsp_status, "%u");
    CMP(rsp_op, "%u");
    CMP(kind, "%u");
    CMP(fault, "0x%" PRIx32);
    CMP(rd, "0x%" PRIx64);
    CMP(exc_addr, "0x%" PRIx64);
    CMP(exc_md, "0x%" PRIx64);
    CMP(exc_tb, "0x%" PRIx64);
    CMP(exc_esize, "0x%" PRIx64);
    CMP(exc_size_log2, "%u");
    CMP(exc_lane, "%u");
    CMP(exc_sm, "%u");
    CMP(exc_warp, "%u");
    for (unsigned l = 0; l < m->info.lanes; l++) CMP(addr[l], "0x%" PRIx64);
    unsigned fl = GAB_FL_HALTED | GAB_FL_MLU_RSP;
    if ((exp->flags & fl) != (got->flags & fl)) {
        if (diffs < 4u && used < n)
            used += (size_t)snprintf(msg + used, n - used, "%sflags (halted, mlu_rsp) expected 0x%x got 0x%x",
                                     diffs ? "; " : "", exp->flags & fl, got->flags & fl);
        diffs++;
    }
    return diffs;
}

unsigned gab_mirror_compare_counters(const gab_mirror_t *m, const uint32_t got[GAB_NCNT], char *msg, size_t n)
{
    unsigned diffs = 0;
    size_t used = 0;
    if (n > 0) msg[0] = '\0';
    uint64_t mask = low_mask(m->info.cnt_bits);
    for (unsigned k = 0; k < GAB_NCNT; k++)
        if ((m->cnt[k] & mask) != got[k]) {
            if (used < n)
                used += (size_t)snprintf(msg + used, n - used, "%s%s expected %" PRIu64 " got %" PRIu32,
                                         diffs ? "; " : "", gab_counter_names[k], m->cnt[k] & mask, got[k]);
            diffs++;
        }
    return diffs;
}

unsigned gab_mirror_compare_info(const gab_mirror_t *m, const gab_info_t *got, char *msg, size_t n)
{
    const ga_mlu_cfg_t *c = &m->sm[m->cur].cfg;
    unsigned diffs = 0;
    size_t used = 0;
    if (n > 0) msg[0] = '\0';
#define CMPI(name, e, g)                                                                                  \
    do {                                                                                                  \
        if ((uint64_t)(e) != (uint64_t)(g)) {                                                             \
            if (used < n)                                                                                 \
                used += (size_t)snprintf(msg + used, n - used, "%s%s expected 0x%" PRIx64 " got 0x%" PRIx64, \
                                         diffs ? "; " : "", name, (uint64_t)(e), (uint64_t)(g));          \
            diffs++;                                                                                      \
        }                                                                                                 \
    } while (0)
    CMPI("MODE", c->mode, got->mode);
    CMPI("LAYOUT", c->layout, got->layout);
    CMPI("ROOT", c->root, got->root);
    CMPI("STEP_LIMIT", c->step_limit, got->step_limit);
    CMPI("POLICY", c->policy, got->policy);
    CMPI("SM_ID", c->sm_id, got->sm_id);
    CMPI("TAG_BITS", m->info.tag_bits, got->cfg_tag_bits);
#undef CMPI
    return diffs;
}
