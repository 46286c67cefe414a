/*
 * gab_proto.c — frames, CRC-8 and field (de)serialisation of the board protocol (gab_proto.h,
 * docs/fpga.md §3).
 */
#include "gab_proto.h"

#include <string.h>

uint8_t gab_crc8(uint8_t crc, const uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        crc ^= p[i];
        for (int k = 0; k < 8; k++) crc = (uint8_t)((crc & 0x80u) ? (((unsigned)crc << 1) ^ 0x07u) : ((unsigned)crc << 1));
    }
    return crc;
}

size_t gab_frame(uint8_t cmd, const uint8_t *payload, uint8_t len, uint8_t *out)
{
    out[0] = GAB_SYNC_REQ;
    out[1] = cmd;
    out[2] = len;
    if (len > 0u) memcpy(out + 3, payload, len);
    out[3u + len] = gab_crc8(0, out + 1, 2u + (size_t)len);
    return 4u + (size_t)len;
}

static void put_le(uint8_t *p, uint64_t v, unsigned n)
{
    for (unsigned i = 0; i < n; i++) p[i] = (uint8_t)(v >> (8u * i));
}

static uint64_t get_le(const uint8_t *p, unsigned n)
{
    uint64_t v = 0;
    for (unsigned i = n; i-- > 0;) v = (v << 8) | p[i];
    return v;
}

size_t gab_pay_mlu_op(const gab_req_t *r, unsigned lanes, unsigned version, uint8_t *out)
{
    out[0] = r->op & 7u;
    out[1] = r->cfg_addr & 7u;
    out[2] = r->size_log2 & 7u;
    out[3] = r->orc_found ? 1u : 0u;
    put_le(out + 4, r->warp, 2);
    put_le(out + 6, r->active, 4);
    put_le(out + 10, r->orc_idx, 2);
    put_le(out + 12, r->md, 8);
    unsigned n = gab_block_lanes(lanes);
    for (unsigned l = 0; l < n; l++) put_le(out + 20 + 8u * l, r->addr[l], 8);
    if (version < 2u) return 20u + 8u * n;
    out[20u + 8u * n] = r->sm;
    return 21u + 8u * n;
}

size_t gab_pay_lanes_hi(const gab_req_t *r, unsigned lanes, uint8_t *out)
{
    size_t k = 0;
    for (unsigned l = gab_block_lanes(lanes); l < lanes && l < GAB_LANES_MAX; l++, k += 8u) put_le(out + k, r->addr[l], 8);
    return k;
}

size_t gab_pay_mem_write(uint16_t line, const uint8_t data[32], uint8_t *out)
{
    put_le(out, line, 2);
    memcpy(out + 2, data, 32);
    return 34u;
}

void gab_dec_rsp(const uint8_t *p, unsigned lanes, gab_rsp_t *r)
{
    memset(r, 0, sizeof *r);
    r->bstatus = p[0];
    r->flags = p[1];
    r->rsp_status = p[2] & 3u;
    r->rsp_op = (p[2] >> 2) & 7u;
    r->kind = p[3];
    r->fault = (uint32_t)get_le(p + 4, 4);
    r->cycles = (uint16_t)get_le(p + 8, 2);
    r->rd = get_le(p + 10, 8);
    r->exc_addr = get_le(p + 18, 8);
    r->exc_md = get_le(p + 26, 8);
    r->exc_tb = get_le(p + 34, 8);
    r->exc_esize = get_le(p + 42, 8);
    r->exc_size_log2 = p[50];
    r->exc_lane = p[51];
    r->exc_sm = (uint16_t)get_le(p + 52, 2);
    r->exc_warp = (uint16_t)get_le(p + 54, 2);
    for (unsigned l = 0; l < gab_block_lanes(lanes); l++) r->addr[l] = get_le(p + 56 + 8u * l, 8);
}

void gab_dec_lanes_hi(const uint8_t *p, unsigned lanes, gab_rsp_t *r)
{
    unsigned lo = gab_block_lanes(lanes);
    for (unsigned l = lo; l < lanes && l < GAB_LANES_MAX; l++) r->addr[l] = get_le(p + 56 + 8u * (l - lo), 8);
}

void gab_dec_info(const uint8_t *p, gab_info_t *i)
{
    memset(i, 0, sizeof *i);
    i->version = p[2];
    i->tag_bits = p[3];
    i->mlb_entries = p[4];
    i->lanes = p[5];
    i->mem_lines_log2 = p[6];
    i->cnt_bits = p[7];
    i->clk_khz = (uint32_t)get_le(p + 8, 4);
    i->clks_per_bit = (unsigned)get_le(p + 12, 2);
    i->mode = p[14] & 1u;
    i->layout = (p[14] >> 1) & 3u;
    i->policy = (p[14] >> 3) & 1u;
    i->hwonly = ((p[14] >> 4) & 1u) != 0u;
    i->cfg_tag_bits = p[15] & 0x1Fu;
    i->num_sms = i->version >= 2u ? ((unsigned)p[15] >> 5) + 1u : 1u;
    i->root = get_le(p + 16, 8);
    i->step_limit = (uint32_t)get_le(p + 24, 4);
    i->sm_id = (uint16_t)get_le(p + 28, 2);
    i->va_keep = p[30];
    i->md_keep = p[31];
}

void gab_dec_counters(const uint8_t *p, uint32_t cnt[GAB_NCNT])
{
    for (unsigned k = 0; k < GAB_NCNT; k++) cnt[k] = (uint32_t)get_le(p + 4u * k, 4);
}

void gab_parser_init(gab_parser_t *f) { memset(f, 0, sizeof *f); }

int gab_parser_feed(gab_parser_t *f, uint8_t b)
{
    switch (f->state) {
    case 0:
        if (b == GAB_SYNC_RSP) f->state = 1;
        else f->skipped++;
        return 0;
    case 1:
        f->cmd = b;
        f->crc = gab_crc8(0, &b, 1);
        f->state = 2;
        return 0;
    case 2:
        f->len = b;
        f->crc = gab_crc8(f->crc, &b, 1);
        f->got = 0;
        f->state = b == 0u ? 4 : 3;
        return 0;
    case 3:
        f->payload[f->got++] = b;
        f->crc = gab_crc8(f->crc, &b, 1);
        if (f->got == f->len) f->state = 4;
        return 0;
    default:
        f->state = 0;
        return b == f->crc ? 1 : -1;
    }
}

const char *gab_status_name(unsigned st)
{
    static const char *const n[GAB_ST_CODES] = {"OK", "BAD_CRC", "BAD_LEN", "BAD_CMD", "MEM_RANGE",
                                                      "BAD_SM"};
    return st < GAB_ST_CODES ? n[st] : "?";
}

const char *gab_op_name(unsigned op)
{
    static const char *const n[8] = {"LOADMETA", "MEMCHECK.G", "MEMCHECK.S", "ACCESS",
                                     "INVALIDATE", "FLUSH", "CFG_WRITE", "CLEAR_HALT"};
    return op < 8u ? n[op] : "?";
}
