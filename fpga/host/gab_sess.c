/*
 * gab_sess.c — gaprobe sessions: framing with retries, the board commands and their comparison with
 * the golden-model mirror (gab_sess.h, docs/fpga.md §3).
 */
#include "gab_sess.h"

#include <inttypes.h>
#include <string.h>

static const char *exc_name(unsigned k)
{
    static const char *const n[7] = {"ok", "OUT_OF_BOUNDS", "USE_AFTER_FREE", "TAG_MISMATCH", "NO_METADATA",
                                     "SHARED_OUT_OF_BOUNDS", "METADATA_FAULT"};
    return k < 7u ? n[k] : "?";
}

void gab_print_rsp(FILE *f, const gab_rsp_t *r, unsigned lanes)
{
    static const char *const st[4] = {"OK", "HALTED", "CFG_ERROR", "?"};
    fprintf(f, "%s status=%s", gab_op_name(r->rsp_op), st[r->rsp_status & 3u]);
    if (r->rsp_op == GAB_OP_LOADMETA) fprintf(f, " rd=0x%" PRIx64, r->rd);
    if (r->rsp_op == GAB_OP_MEMCHECK_G || r->rsp_op == GAB_OP_ACCESS) {
        fprintf(f, " addr=");
        for (unsigned l = 0; l < lanes; l++) fprintf(f, "%s0x%" PRIx64, l ? "," : "", r->addr[l]);
    }
    if (r->fault != 0u)
        fprintf(f, " fault=0x%" PRIx32 " kind=%s rec{addr=0x%" PRIx64 " size=%u sm=%u warp=%u lane=%u md=0x%" PRIx64
                " entry=(0x%" PRIx64 ",0x%" PRIx64 ")}", r->fault, exc_name(r->kind), r->exc_addr,
                1u << (r->exc_size_log2 & 7u), r->exc_sm, r->exc_warp, r->exc_lane, r->exc_md, r->exc_tb, r->exc_esize);
    fprintf(f, " cycles=%u%s\n", r->cycles, (r->flags & GAB_FL_HALTED) ? " [halted]" : "");
}

void gab_sess_mismatch(gab_sess_t *s, const char *what, const char *detail)
{
    s->mismatches++;
    if (s->mismatches <= s->mismatch_print)
        fprintf(s->out, "MISMATCH %s: %s\n", what, detail);
    else if (s->mismatches == s->mismatch_print + 1u)
        fprintf(s->out, "MISMATCH ... (further mismatches counted, not printed)\n");
}

int gab_sess_xfer(gab_sess_t *s, uint8_t cmd, const uint8_t *payload, uint8_t len, uint8_t *pay, uint8_t *plen)
{
    uint8_t frame[GAB_FRAME_MAX];
    size_t n = gab_frame(cmd, payload, len, frame);
    for (unsigned attempt = 0;; attempt++) {
        if (attempt > s->retries) return -1;
        if (attempt > 0) {
            s->resent++;
            s->breaks++;
            char e2[256];
            (void)gab_link_break(s->link, e2, sizeof e2); /* best effort: see gab_link_break */
            if (s->verbose > 0) fprintf(s->out, "note: resending command 0x%02x after: %s\n", cmd, s->err);
        }
        if (gab_link_write(s->link, frame, n, s->timeout_ms, s->err, sizeof s->err) != 0) return -1;
        s->frames++;
        gab_parser_t p;
        gab_parser_init(&p);
        int got = 0;
        while (got == 0) {
            uint8_t buf[512];
            long r = gab_link_read(s->link, buf, sizeof buf, s->timeout_ms, s->err, sizeof s->err);
            if (r < 0) return -1;
            if (r == 0) {
                snprintf(s->err, sizeof s->err,
                         "timeout: no response to command 0x%02x within %u ms (check the port, the baud rate "
                         "and that the board is configured with the GPUArmor bitstream)", cmd, s->timeout_ms);
                got = -2;
                break;
            }
            for (long i = 0; i < r && got == 0; i++) got = gab_parser_feed(&p, buf[i]);
        }
        if (got == -2) continue;
        if (got < 0) {
            snprintf(s->err, sizeof s->err, "response to command 0x%02x failed its CRC", cmd);
            continue;
        }
        if (p.cmd != cmd) {
            snprintf(s->err, sizeof s->err, "response is for command 0x%02x, not 0x%02x (out of step)", p.cmd, cmd);
            continue;
        }
        if (p.len < gab_base_len(s->lanes ? s->lanes : 1u) && p.len < 56u) {
            snprintf(s->err, sizeof s->err, "response of %u bytes is shorter than the response block", p.len);
            continue;
        }
        if (p.payload[0] == GAB_ST_BAD_CRC) {
            snprintf(s->err, sizeof s->err, "the board saw a CRC error in command 0x%02x", cmd);
            continue;
        }
        if ((p.payload[1] & GAB_FL_OVERRUN) && s->verbose > 0)
            fprintf(s->out, "note: the board dropped bytes that arrived while it was busy\n");
        memcpy(pay, p.payload, p.len);
        *plen = p.len;
        return 0;
    }
}

static int board_status(gab_sess_t *s, const uint8_t *pay, const char *what)
{
    if (pay[0] == GAB_ST_OK) return 0;
    s->board_errors++;
    snprintf(s->err, sizeof s->err, "%s: the board answered %s", what, gab_status_name(pay[0]));
    return -1;
}

int gab_sess_info(gab_sess_t *s, gab_info_t *info) { return gab_sess_info_sm(s, -1, info); }

int gab_sess_info_sm(gab_sess_t *s, int sm, gab_info_t *info)
{
    uint8_t pay[256], len, sel = (uint8_t)(sm < 0 ? 0 : sm);
    if (gab_sess_xfer(s, GAB_CMD_INFO, &sel, sm < 0 ? 0u : 1u, pay, &len) != 0) return -1;
    if (board_status(s, pay, "INFO") != 0) return -1;
    if (len < 56u + 8u + GAB_INFO_LEN || (len - 56u - GAB_INFO_LEN) % 8u != 0u) {
        snprintf(s->err, sizeof s->err, "INFO response has %u bytes: not a GPUArmor board of protocol %u?", len,
                 GAB_VERSION);
        return -1;
    }
    unsigned blk = (len - 56u - GAB_INFO_LEN) / 8u;   /* lanes in the block: Lanes, at most 16 */
    const uint8_t *t = pay + 56u + 8u * blk;
    if (t[0] != 'G' || t[1] != 'A') {
        snprintf(s->err, sizeof s->err, "INFO magic is 0x%02x%02x, not \"GA\": wrong bitstream?", t[0], t[1]);
        return -1;
    }
    gab_dec_info(t, info);
    if (info->version < GAB_VERSION_MIN || info->version > GAB_VERSION || info->lanes < 1u ||
        info->lanes > GAB_LANES_MAX || gab_block_lanes(info->lanes) != blk) {
        snprintf(s->err, sizeof s->err, "board protocol version %u (Lanes %u), gaprobe speaks versions %u to %u",
                 info->version, info->lanes, GAB_VERSION_MIN, GAB_VERSION);
        return -1;
    }
    if (sm >= 0 && s->mirror.mem != NULL) gab_mirror_select(&s->mirror, (unsigned)sm);
    return 0;
}

int gab_sess_open(gab_sess_t *s, const char *port, unsigned baud, const char *dump)
{
    if (gab_link_open(&s->link, port, baud, dump, s->err, sizeof s->err) != 0) return -1;
    char e2[256];
    if (gab_link_break(s->link, e2, sizeof e2) != 0 && s->verbose > 1)
        fprintf(s->out, "note: %s (ignored: a pseudo-terminal has no break)\n", e2);
    s->lanes = 0;
    if (gab_sess_info(s, &s->info) != 0) return -1;
    s->lanes = s->info.lanes;
    if (gab_mirror_init(&s->mirror, &s->info, s->err, sizeof s->err) != 0) return -1;
    s->mirror_ok = false;
    return 0;
}

void gab_sess_close(gab_sess_t *s)
{
    if (s->mirror.mem != NULL) gab_mirror_free(&s->mirror);
    gab_link_close(s->link);
    s->link = NULL;
}

int gab_sess_reset(gab_sess_t *s)
{
    uint8_t pay[256], len;
    if (gab_sess_xfer(s, GAB_CMD_RESET, NULL, 0, pay, &len) != 0) return -1;
    if (board_status(s, pay, "RESET") != 0) return -1;
    gab_mirror_reset(&s->mirror);
    return 0;
}

int gab_sess_mem_write(gab_sess_t *s, unsigned line, const uint8_t data[32])
{
    uint8_t req[64], pay[256], len;
    if (line >= (1u << s->info.mem_lines_log2)) {
        snprintf(s->err, sizeof s->err, "memory line %u is outside the board's %u lines", line,
                 1u << s->info.mem_lines_log2);
        return -1;
    }
    char why[200];
    if (!gab_mirror_line_fits(&s->mirror, data, why, sizeof why)) {
        snprintf(s->err, sizeof s->err, "line %u: %s (docs/fpga.md §6)", line, why);
        return -1;
    }
    size_t n = gab_pay_mem_write((uint16_t)line, data, req);
    if (gab_sess_xfer(s, GAB_CMD_MEM_WRITE, req, (uint8_t)n, pay, &len) != 0) return -1;
    if (board_status(s, pay, "MEM_WRITE") != 0) return -1;
    gab_mirror_mem_write(&s->mirror, line, data);
    return 0;
}

int gab_sess_begin(gab_sess_t *s, bool clear_mem)
{
    if (gab_sess_reset(s) != 0) return -1;
    if (clear_mem) {
        uint8_t z[32];
        memset(z, 0, sizeof z);
        for (unsigned l = 0; l < (1u << s->info.mem_lines_log2); l++)
            if (gab_sess_mem_write(s, l, z) != 0) return -1;
    }
    s->mirror_ok = true;
    return 0;
}

/* The SM an operation goes to (docs/fpga.md §12): the one it names, else INVALIDATE, FLUSH,
 * CLEAR_HALT and CFG_WRITE (but of SM_ID) reach every SM, as the runtime's commands do, and the
 * rest go to the session's SM (--sm) or round robin. */
static int pick_sm(gab_sess_t *s, const gab_req_t *r, gab_req_t *out)
{
    unsigned n = s->info.num_sms, op = r->op & 7u;
    *out = *r;
    if (!r->sm_set) {
        if (op >= GAB_OP_INVALIDATE && !(op == GAB_OP_CFG_WRITE && (r->cfg_addr & 7u) == GAB_CFG_SM_ID))
            out->sm = GAB_SM_ALL;
        else if (s->sm >= 0)
            out->sm = (uint8_t)s->sm;
        else
            out->sm = (uint8_t)(s->rr++ % n);
    }
    if (out->sm == GAB_SM_ALL && op < GAB_OP_INVALIDATE) {
        snprintf(s->err, sizeof s->err, "%s cannot go to every SM (only INVALIDATE, FLUSH, CFG_WRITE, CLEAR_HALT)",
                 gab_op_name(op));
        return -1;
    }
    if (out->sm != GAB_SM_ALL && out->sm >= n) {
        snprintf(s->err, sizeof s->err, "SM %u: the board has %u SM%s", out->sm, n, n == 1u ? "" : "s");
        return -1;
    }
    if (n == 1u) out->sm = 0;
    return 0;
}

int gab_sess_op(gab_sess_t *s, const gab_req_t *r0, gab_rsp_t *rsp)
{
    uint8_t req[256], pay[256], len;
    char why[256];
    gab_req_t rq;
    const gab_req_t *r = &rq;
    if (pick_sm(s, r0, &rq) != 0) return -1;
    if (!gab_mirror_req_fits(&s->mirror, r, why, sizeof why)) {
        snprintf(s->err, sizeof s->err, "%s: %s (docs/fpga.md §6)", gab_op_name(r->op), why);
        return -1;
    }
    /* A wide board (docs/fpga.md §3.7): lanes 16.. go first, in LANES_HI, and their stripped addresses
     * are read back after the operation with an empty LANES_HI. */
    bool wide = s->lanes > GAB_BLOCK_LANES;
    size_t n;
    if (wide) {
        n = gab_pay_lanes_hi(r, s->lanes, req);
        if (gab_sess_xfer(s, GAB_CMD_LANES_HI, req, (uint8_t)n, pay, &len) != 0) return -1;
        if (board_status(s, pay, "LANES_HI") != 0) return -1;
    }
    n = gab_pay_mlu_op(r, s->lanes, s->info.version, req);
    if (gab_sess_xfer(s, GAB_CMD_MLU_OP, req, (uint8_t)n, pay, &len) != 0) return -1;
    if (board_status(s, pay, gab_op_name(r->op)) != 0) return -1;
    if (len != gab_base_len(s->lanes)) {
        snprintf(s->err, sizeof s->err, "%s response has %u bytes, not %zu", gab_op_name(r->op), len,
                 gab_base_len(s->lanes));
        return -1;
    }
    gab_dec_rsp(pay, s->lanes, rsp);
    if (wide) {
        uint8_t hi[256], hlen;
        if (gab_sess_xfer(s, GAB_CMD_LANES_HI, NULL, 0, hi, &hlen) != 0) return -1;
        if (board_status(s, hi, "LANES_HI") != 0) return -1;
        if (hlen != gab_lanes_hi_len(s->lanes)) {
            snprintf(s->err, sizeof s->err, "LANES_HI response has %u bytes, not %zu", hlen,
                     gab_lanes_hi_len(s->lanes));
            return -1;
        }
        gab_dec_lanes_hi(hi, s->lanes, rsp);
    }
    s->ops++;
    if (s->verbose > 1) gab_print_rsp(s->out, rsp, s->lanes);
    if (s->mirror_ok) {
        gab_rsp_t exp;
        gab_mirror_op(&s->mirror, r, &exp);
        if (s->check) {
            char msg[1024];
            if (gab_mirror_compare(&s->mirror, &exp, rsp, msg, sizeof msg) != 0) {
                char d[1400];
                char smn[16] = "";
                if (s->info.num_sms > 1u) {
                    if (r->sm == GAB_SM_ALL) snprintf(smn, sizeof smn, " SM all");
                    else snprintf(smn, sizeof smn, " SM %u", r->sm);
                }
                snprintf(d, sizeof d, "op %" PRIu64 "%s %s addr0=0x%" PRIx64 " md=0x%" PRIx64 ": %s", s->ops, smn,
                         gab_op_name(r->op), r->addr[0], r->md, msg);
                gab_sess_mismatch(s, "response", d);
            }
        }
    }
    return 0;
}

int gab_sess_counters(gab_sess_t *s, bool clear, uint32_t cnt[GAB_NCNT])
{
    uint8_t req[1] = {clear ? 1u : 0u}, pay[256], len;
    if (gab_sess_xfer(s, GAB_CMD_COUNTERS, req, 1, pay, &len) != 0) return -1;
    if (board_status(s, pay, "COUNTERS") != 0) return -1;
    if (len != gab_base_len(s->lanes) + GAB_CNT_LEN) {
        snprintf(s->err, sizeof s->err, "COUNTERS response has %u bytes", len);
        return -1;
    }
    gab_dec_counters(pay + gab_base_len(s->lanes), cnt);
    if (s->mirror_ok && s->check) {
        char msg[1024];
        if (gab_mirror_compare_counters(&s->mirror, cnt, msg, sizeof msg) != 0) gab_sess_mismatch(s, "counters", msg);
    }
    if (clear) gab_mirror_clear_counters(&s->mirror);
    return 0;
}

int gab_sess_check_regs(gab_sess_t *s)
{
    unsigned n = s->info.version >= 2u ? s->info.num_sms : 1u;
    for (unsigned sm = 0; sm < n; sm++) {
        gab_info_t i;
        if (gab_sess_info_sm(s, s->info.version >= 2u ? (int)sm : -1, &i) != 0) return -1;
        if (s->mirror_ok && s->check) {
            char msg[1024];
            if (gab_mirror_compare_info(&s->mirror, &i, msg, sizeof msg) != 0) {
                char d[1100];
                snprintf(d, sizeof d, "SM %u: %s", sm, msg);
                gab_sess_mismatch(s, "registers", n > 1u ? d : msg);
            }
        }
    }
    return 0;
}
