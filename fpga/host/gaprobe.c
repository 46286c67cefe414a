/*
 * gaprobe — host tool for the GPUArmor FPGA board (docs/fpga.md §7): speaks the board's binary
 * protocol over a serial device, runs single commands or a command file, replays a gatrace through the
 * board, and runs a random lockstep test; every response of a session is compared with the C golden
 * model (cmodel/) running beside it.
 *
 * The whole command line (options, the command and its arguments, every line of a command file) is
 * checked before the port is opened, so a typo is a usage error (exit 2) whether or not a board is
 * attached. Exit statuses are ga_exit.h's.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ga_exit.h"
#include "gab_link.h"
#include "gab_sess.h"

static void usage(FILE *f)
{
    fputs("usage: gaprobe [options] COMMAND [ARGS...]\n"
          "options:\n"
          "  -p, --port DEV      serial device (default $GAPROBE_PORT, else /dev/ttyUSB1: the HX8K breakout's\n"
          "                      UART is the FT2232H's second interface)\n"
          "  -b, --baud N        baud rate (default 115200; must match the bitstream, see 'info')\n"
          "  -t, --timeout MS    response timeout per frame (default 2000)\n"
          "  -r, --retries N     resend a frame after a timeout or CRC error, with a break first (default 2)\n"
          "  --dump FILE         write a copy of every byte sent to FILE\n"
          "  --no-check          do not compare responses with the golden model\n"
          "  --keep-memory       run/selftest/replay: do not zero the board's metadata memory first\n"
          "  -v, --verbose       print every command's response (twice: more)\n"
          "  -q, --quiet         print only the summary and errors\n"
          "  --dry-run           check the command line (and a command file) only, open nothing, exit\n"
          "  --seed S, --ops N, --phases N, --gen N     selftest parameters\n"
          "  --mode compiler|hwonly, --layout list|bst|table, --step-limit N   replay parameters\n"
          "  --sm N|rr           system boards (protocol 2): the SM of operations that name none (default 0;\n"
          "                      rr: round robin); INVALIDATE, FLUSH, CLEAR_HALT, CFG_WRITE (but SM_ID) go\n"
          "                      to every SM unless an 'sm' command names one; a replay follows the trace's SMs\n"
          "commands (the single commands print the response; they are not checked):\n"
          "  info [SM] | reset | flush | clear-halt | counters [clear]\n"
          "  sm N|all|auto       the SM of the following operations (system boards; auto: --sm's rule)\n"
          "  cfg mode|layout|root|steplimit|policy|smid|N VALUE\n"
          "  loadmeta PTR\n"
          "  memcheck-g MD SIZE PTR[,PTR...] [active=MASK] [warp=W]\n"
          "  memcheck-s BASE SSIZE SIZE ADDR[,ADDR...] [active=MASK] [warp=W]\n"
          "  access SIZE PTR[,PTR...] [active=MASK] [warp=W]\n"
          "  invalidate LOC | oracle IDX|none\n"
          "  node LINE TB SIZE P0 P1 | entry LOC TB SIZE | line LINE HEX(64 digits)\n"
          "  frame CMD [HEX]     one raw frame, for the protocol's error statuses ('=> BAD_LEN'); frames that\n"
          "                      would run INFO, MLU_OP, MEM_WRITE, COUNTERS or RESET are refused\n"
          "  run FILE            a command file (one command above per line, '=> EXPECT' allowed;\n"
          "                      'require hwonly' skips the file on a compiler-mode-only build, 'require\n"
          "                      sms N' on a board of fewer than N SMs, 'require lanes MIN[..MAX]' on a\n"
          "                      board whose Lanes is outside MIN..MAX)\n"
          "  selftest            random operations in lockstep with the golden model\n"
          "  replay TRACE        a gatrace (docs/traces.md) through the board, checked against the model\n"
          "PTR: a number, or T:VA (tag T at address VA; F:VA is the freed tag). Numbers: decimal or 0x hex.\n"
          "SIZE: bytes (1, 2, 4, 8, 16).\n"
          "Exit status: 0 all matched; 3 a mismatch or failed expectation; 1 a link or board error, or an\n"
          "unreadable file; 2 bad command line.\n",
          f);
}

/* ---------------------------------------------------------------------------------------------- */
/* Parsing */

static bool parse_u64(const char *s, uint64_t *v)
{
    if (s == NULL || *s == '\0' || *s == '-' || *s == '+') return false;
    char *end;
    errno = 0;
    unsigned long long x = strtoull(s, &end, 0);
    if (errno != 0 || *end != '\0') return false;
    *v = (uint64_t)x;
    return true;
}

static bool parse_ptr(const gab_sess_t *s, const char *tok, uint64_t *v)
{
    const char *c = strchr(tok, ':');
    if (c == NULL) return parse_u64(tok, v);
    char t[32];
    size_t n = (size_t)(c - tok);
    if (n == 0 || n >= sizeof t) return false;
    memcpy(t, tok, n);
    t[n] = '\0';
    uint64_t tag, va;
    if (s->info.tag_bits == 0u) { /* no board yet (--dry-run, checks before the port opens): either width */
        if (strcmp(t, "F") != 0 && (!parse_u64(t, &tag) || tag > 0xffffu)) return false;
        if (!parse_u64(c + 1, &va) || (va >> 57) != 0u) return false;
        *v = 0;
        return true;
    }
    unsigned tb = s->info.tag_bits;
    if (strcmp(t, "F") == 0) tag = (UINT64_C(1) << tb) - 1u; /* the freed tag of this build */
    else if (!parse_u64(t, &tag)) return false;
    if (!parse_u64(c + 1, &va) || tag >= (UINT64_C(1) << tb) ||
        (va >> (64u - tb)) != 0u)
        return false;
    *v = (tag << (64u - tb)) | va;
    return true;
}

static bool parse_size(const char *tok, uint8_t *lg)
{
    uint64_t v;
    if (!parse_u64(tok, &v)) return false;
    for (uint8_t k = 0; k <= 4; k++)
        if (v == (UINT64_C(1) << k)) {
            *lg = k;
            return true;
        }
    return false;
}

static int cfg_reg(const char *name)
{
    static const char *const n[6] = {"mode", "layout", "root", "steplimit", "policy", "smid"};
    for (int i = 0; i < 6; i++)
        if (strcmp(name, n[i]) == 0) return i;
    uint64_t v;
    if (parse_u64(name, &v) && v < 8u) return (int)v;
    return -1;
}

static bool parse_cfg_value(int reg, const char *tok, uint64_t *v)
{
    if (reg == GAB_CFG_MODE) {
        if (strcmp(tok, "compiler") == 0) { *v = 0; return true; }
        if (strcmp(tok, "hwonly") == 0) { *v = 1; return true; }
    }
    if (reg == GAB_CFG_LAYOUT) {
        if (strcmp(tok, "list") == 0) { *v = 0; return true; }
        if (strcmp(tok, "bst") == 0) { *v = 1; return true; }
        if (strcmp(tok, "table") == 0) { *v = 2; return true; }
    }
    if (reg == GAB_CFG_POLICY) {
        if (strcmp(tok, "report") == 0) { *v = 0; return true; }
        if (strcmp(tok, "terminate") == 0) { *v = 1; return true; }
    }
    return parse_u64(tok, v);
}

static int exc_code(const char *name)
{
    static const char *const n[7] = {"ok", "OUT_OF_BOUNDS", "USE_AFTER_FREE", "TAG_MISMATCH", "NO_METADATA",
                                     "SHARED_OUT_OF_BOUNDS", "METADATA_FAULT"};
    for (int i = 0; i < 7; i++)
        if (strcmp(name, n[i]) == 0) return i;
    return -1;
}

/* ---------------------------------------------------------------------------------------------- */
/* Commands */

typedef struct {
    gab_sess_t *s;
    bool orc_found;
    uint16_t orc_idx;
    const char *where;  /* "file:line" for messages, or "command line" */
    unsigned expect_fail;
    bool skipped;       /* a command file's "require" was not met */
    bool dry;           /* check the syntax only: no session (the port is not open) */
    bool sm_set;        /* an 'sm' command named the SM of the following operations */
    uint8_t sm;         /* ... 0 .. 7 or GAB_SM_ALL */
} cmdctx_t;

#define FAIL_USAGE (-2)
#define FAIL_LINK (-3)
#define FAIL_INPUT (-4) /* a file that cannot be read */

static int usage_err(cmdctx_t *c, const char *msg, const char *tok)
{
    fprintf(stderr, "gaprobe: %s: %s%s%s\n", c->where, msg, tok ? ": " : "", tok ? tok : "");
    return FAIL_USAGE;
}

static int link_err(cmdctx_t *c)
{
    fprintf(stderr, "gaprobe: %s: %s\n", c->where, c->s->err);
    return FAIL_LINK;
}

/* Lane list "a,b,c" into r->addr, active mask of the listed lanes unless given. */
static int parse_lanes(cmdctx_t *c, const char *tok, gab_req_t *r, bool shared)
{
    char buf[2048];
    if (strlen(tok) >= sizeof buf) return usage_err(c, "lane list too long", NULL);
    strcpy(buf, tok);
    unsigned n = 0;
    unsigned lanes = c->dry ? 32u : c->s->lanes; /* the board's width is known once it answers */
    for (char *save = NULL, *p = strtok_r(buf, ",", &save); p != NULL; p = strtok_r(NULL, ",", &save)) {
        if (n >= lanes) return usage_err(c, "more lanes than the board has", tok);
        uint64_t v;
        if (!(shared ? parse_u64(p, &v) : parse_ptr(c->s, p, &v))) return usage_err(c, "bad address", p);
        r->addr[n++] = v;
    }
    if (n == 0) return usage_err(c, "no lane address", NULL);
    r->active = n >= 32u ? UINT32_MAX : (UINT32_C(1) << n) - 1u;
    return 0;
}

static int parse_opts(cmdctx_t *c, char **tok, int ntok, gab_req_t *r)
{
    for (int i = 0; i < ntok; i++) {
        uint64_t v;
        if (strncmp(tok[i], "active=", 7) == 0 && parse_u64(tok[i] + 7, &v) && v <= UINT32_MAX)
            r->active = (uint32_t)v;
        else if (strncmp(tok[i], "warp=", 5) == 0 && parse_u64(tok[i] + 5, &v) && v <= UINT16_MAX)
            r->warp = (uint16_t)v;
        else
            return usage_err(c, "unknown option", tok[i]);
    }
    return 0;
}

/* Hex digits, two per byte, into out (at most max bytes); *n the byte count. False on an odd count,
 * too many digits or a character that is not a hex digit (a sign or a space included). */
static bool parse_hex(const char *t, uint8_t *out, size_t max, size_t *n)
{
    size_t hl = strlen(t);
    if (hl % 2u != 0u || hl > 2u * max) return false;
    for (size_t i = 0; i < hl; i++)
        if (!isxdigit((unsigned char)t[i])) return false;
    for (*n = 0; *n < hl / 2u; (*n)++) {
        char h[3] = {t[2 * *n], t[2 * *n + 1], 0};
        out[*n] = (uint8_t)strtoul(h, NULL, 16);
    }
    return true;
}

/* A board status by name (gab_status_name), or -1. */
static int status_code(const char *name)
{
    for (unsigned k = 0; k < GAB_ST_CODES; k++)
        if (strcmp(gab_status_name(k), name) == 0) return (int)k;
    return -1;
}

/* frame CMD [HEX]: one raw frame (a correct CRC), for the protocol's error paths (docs/fpga.md §3.6,
 * §8); "=> STATUS" checks the board status. A frame that would run a command (INFO, MLU_OP, MEM_WRITE
 * inside the memory, COUNTERS, RESET at their lengths) is refused: the model mirror must see those, so
 * they go through their own commands. LANES_HI is allowed: every operation resends the upper lanes. */
static int frame_cmd(cmdctx_t *c, char **tok, int ntok, const char *expect)
{
    gab_sess_t *s = c->s;
    uint64_t cmd;
    uint8_t req[255];
    size_t n = 0;
    if (!parse_u64(tok[1], &cmd) || cmd > 0xFFu) return usage_err(c, "frame CMD [HEX]: CMD is 0..255", tok[1]);
    if (ntok == 3 && !parse_hex(tok[2], req, sizeof req, &n))
        return usage_err(c, "frame payload: hex digits, two per byte, at most 255 bytes", tok[2]);
    if (expect != NULL && status_code(expect) < 0)
        return usage_err(c, "bad expectation for frame (a board status: OK, BAD_LEN, BAD_CMD, MEM_RANGE, BAD_SM)",
                         expect);
    if (c->dry) return 0;
    unsigned v2 = s->info.version >= 2u ? 1u : 0u;
    size_t op_len = 20u + 8u * gab_block_lanes(s->lanes) + v2;
    bool sm_bad = v2 && n == op_len &&
                  (req[n - 1] == GAB_SM_ALL ? (req[0] & 4u) == 0u : req[n - 1] >= s->info.num_sms);
    bool runs = (cmd == GAB_CMD_INFO && (n == 0u || (v2 && n == 1u && req[0] < s->info.num_sms))) ||
                (cmd == GAB_CMD_MLU_OP && n == op_len && !sm_bad) ||
                (cmd == GAB_CMD_MEM_WRITE && n == 34u && ((unsigned)req[0] | ((unsigned)req[1] << 8)) <
                                                              (1u << s->info.mem_lines_log2)) ||
                (cmd == GAB_CMD_COUNTERS && n == 1u) || (cmd == GAB_CMD_RESET && n == 0u);
    if (runs)
        return usage_err(c, "frame: the board would run this frame; use the command itself (the model mirror "
                            "must see it)", tok[1]);
    uint8_t pay[256], len;
    if (gab_sess_xfer(s, (uint8_t)cmd, req, (uint8_t)n, pay, &len) != 0) return link_err(c);
    if (expect == NULL || s->verbose > 1)
        fprintf(s->out, "frame 0x%02x (%zu bytes): %s, %u-byte response\n", (unsigned)cmd, n, gab_status_name(pay[0]),
                len);
    if (expect != NULL && pay[0] != (unsigned)status_code(expect)) {
        c->expect_fail++;
        fprintf(s->out, "EXPECT FAILED %s: '=> %s': the board answered %s\n", c->where, expect,
                gab_status_name(pay[0]));
        return 1;
    }
    return 0;
}

/* Execute one command (tokens). expect: the text after "=>" or NULL. Returns 0, 1 (expectation or
 * comparison failed), FAIL_USAGE or FAIL_LINK. */
static int exec_cmd(cmdctx_t *c, char **tok, int ntok, const char *expect)
{
    gab_sess_t *s = c->s;
    const char *cmd = tok[0];
    gab_req_t r;
    memset(&r, 0, sizeof r);
    gab_rsp_t rsp;
    uint64_t a, b, d, e, f;
    bool is_op = true;
    uint64_t mm0 = s->mismatches;

    if (strcmp(cmd, "frame") == 0 && (ntok == 2 || ntok == 3)) return frame_cmd(c, tok, ntok, expect);
    if (c->dry && expect != NULL && strcmp(expect, "HALTED") != 0 && strcmp(expect, "CFG_ERROR") != 0 &&
        strcmp(expect, "OK") != 0 && exc_code(expect) < 0 && !parse_u64(expect, &a))
        return usage_err(c, "bad expectation (a kind, ok, OK, HALTED, CFG_ERROR, or a LOADMETA value)", expect);
    if (strcmp(cmd, "info") == 0 && (ntok == 1 || ntok == 2)) {
        if (ntok == 2 && (!parse_u64(tok[1], &a) || a >= GAB_SMS_MAX))
            return usage_err(c, "info SM: an SM number 0..7", tok[1]);
        if (c->dry) return 0;
        if (ntok == 2 && (s->info.version < 2u || a >= s->info.num_sms)) {
            fprintf(stderr, "gaprobe: %s: info %s: the board has %u SM%s\n", c->where, tok[1], s->info.num_sms,
                    s->info.num_sms == 1u ? "" : "s");
            return FAIL_LINK;
        }
        gab_info_t i;
        if (gab_sess_info_sm(s, ntok == 2 ? (int)a : -1, &i) != 0) return link_err(c);
        if (i.version >= 2u)
            fprintf(s->out, "board: protocol version %u, %u SMs (registers below: SM %s)\n", i.version, i.num_sms,
                    ntok == 2 ? tok[1] : "last selected");
        fprintf(s->out, "board: TagBits %u, MLB %u entries, Lanes %u, memory %u lines (%u bytes), counters %u bits, "
                "clock %.3f MHz, %u clocks/bit (%.0f baud), VA bits kept %u, md bits kept %u, HWOnly mode %s\n",
                i.tag_bits, i.mlb_entries, i.lanes, 1u << i.mem_lines_log2, 32u << i.mem_lines_log2, i.cnt_bits,
                i.clk_khz / 1000.0, i.clks_per_bit, i.clks_per_bit ? i.clk_khz * 1000.0 / i.clks_per_bit : 0.0,
                i.va_keep, i.md_keep, i.hwonly ? "yes" : "no (compiler mode only)");
        fprintf(s->out, "registers: MODE %s, LAYOUT %s, ROOT 0x%" PRIx64 ", STEP_LIMIT %" PRIu32 ", POLICY %s, SM_ID %u, "
                "TAG_BITS %u\n", i.mode ? "hwonly" : "compiler",
                i.layout == 0 ? "list" : i.layout == 1 ? "bst" : i.layout == 2 ? "table" : "?", i.root, i.step_limit,
                i.policy ? "terminate" : "report", i.sm_id, i.cfg_tag_bits);
        if (s->mirror_ok && s->check) {
            char msg[1024];
            if (gab_mirror_compare_info(&s->mirror, &i, msg, sizeof msg) != 0) gab_sess_mismatch(s, "registers", msg);
        }
        return s->mismatches != mm0;
    }
    if (strcmp(cmd, "reset") == 0 && ntok == 1) {
        if (c->dry) return 0;
        if (gab_sess_reset(s) != 0) return link_err(c);
        return 0;
    }
    if (strcmp(cmd, "counters") == 0 && (ntok == 1 || (ntok == 2 && strcmp(tok[1], "clear") == 0))) {
        if (c->dry) return 0;
        uint32_t cnt[GAB_NCNT];
        if (gab_sess_counters(s, ntok == 2, cnt) != 0) return link_err(c);
        if (s->verbose > 0 || !s->mirror_ok) {
            fprintf(s->out, "counters:");
            for (unsigned k = 0; k < GAB_NCNT; k++) fprintf(s->out, " %s=%" PRIu32, gab_counter_names[k], cnt[k]);
            fprintf(s->out, "\n");
        }
        return s->mismatches != mm0;
    }
    if (strcmp(cmd, "sm") == 0 && ntok == 2) {
        if (strcmp(tok[1], "auto") == 0) {
            c->sm_set = false;
        } else if (strcmp(tok[1], "all") == 0) {
            c->sm_set = true;
            c->sm = GAB_SM_ALL;
        } else if (parse_u64(tok[1], &a) && a < GAB_SMS_MAX) {
            c->sm_set = true;
            c->sm = (uint8_t)a;
        } else {
            return usage_err(c, "sm N (0..7), all or auto", tok[1]);
        }
        return 0;
    }
    if (strcmp(cmd, "oracle") == 0 && ntok == 2) {
        if (strcmp(tok[1], "none") == 0) {
            c->orc_found = false;
            c->orc_idx = 0;
        } else if (parse_u64(tok[1], &a) && a <= UINT16_MAX) {
            c->orc_found = true;
            c->orc_idx = (uint16_t)a;
        } else {
            return usage_err(c, "oracle IDX (0..65535) or none", tok[1]);
        }
        return 0;
    }
    if (strcmp(cmd, "node") == 0 && ntok == 6) {
        if (!parse_u64(tok[1], &a) || !parse_ptr(s, tok[2], &b) || !parse_u64(tok[3], &d) || !parse_u64(tok[4], &e) ||
            !parse_u64(tok[5], &f))
            return usage_err(c, "node LINE TB SIZE P0 P1", NULL);
        if (c->dry) return 0;
        uint8_t line[32];
        ga_put_le64(line, b);
        ga_put_le64(line + 8, d);
        ga_put_le64(line + 16, e);
        ga_put_le64(line + 24, f);
        if (gab_sess_mem_write(s, (unsigned)a, line) != 0) return link_err(c);
        return 0;
    }
    if (strcmp(cmd, "entry") == 0 && ntok == 4) {
        if (!parse_u64(tok[1], &a) || !parse_ptr(s, tok[2], &b) || !parse_u64(tok[3], &d) || a % 16u != 0u ||
            (!c->dry && a >= s->mirror.win))
            return usage_err(c, "entry LOC TB SIZE (LOC 16-aligned inside the board's memory)", NULL);
        if (c->dry) return 0;
        uint8_t line[32];
        (void)ga_mem_read(s->mirror.mem, a & ~UINT64_C(31), line, 32);
        ga_put_le64(line + (a & 16u), b);
        ga_put_le64(line + (a & 16u) + 8, d);
        if (gab_sess_mem_write(s, (unsigned)(a / 32u), line) != 0) return link_err(c);
        return 0;
    }
    if (strcmp(cmd, "line") == 0 && ntok == 3) {
        uint8_t line[32];
        size_t nb = 0;
        if (!parse_u64(tok[1], &a) || !parse_hex(tok[2], line, sizeof line, &nb) || nb != sizeof line)
            return usage_err(c, "line LINE HEX (64 hex digits)", tok[2]);
        if (c->dry) return 0;
        if (gab_sess_mem_write(s, (unsigned)a, line) != 0) return link_err(c);
        return 0;
    }

    /* MLU operations */
    r.orc_found = c->orc_found;
    r.orc_idx = c->orc_idx;
    int rc = 0;
    if (strcmp(cmd, "cfg") == 0 && ntok == 3) {
        int reg = cfg_reg(tok[1]);
        if (reg < 0) return usage_err(c, "cfg register: mode|layout|root|steplimit|policy|smid|0..7", tok[1]);
        if (!parse_cfg_value(reg, tok[2], &r.md)) return usage_err(c, "bad value", tok[2]);
        r.op = GAB_OP_CFG_WRITE;
        r.cfg_addr = (uint8_t)reg;
    } else if (strcmp(cmd, "loadmeta") == 0 && ntok == 2) {
        if (!parse_ptr(s, tok[1], &r.addr[0])) return usage_err(c, "bad pointer", tok[1]);
        r.op = GAB_OP_LOADMETA;
        r.active = 1;
    } else if (strcmp(cmd, "memcheck-g") == 0 && ntok >= 4) {
        if (!parse_u64(tok[1], &r.md)) return usage_err(c, "bad md", tok[1]);
        if (!parse_size(tok[2], &r.size_log2)) return usage_err(c, "size must be 1, 2, 4, 8 or 16", tok[2]);
        if ((rc = parse_lanes(c, tok[3], &r, false)) != 0) return rc;
        if ((rc = parse_opts(c, tok + 4, ntok - 4, &r)) != 0) return rc;
        r.op = GAB_OP_MEMCHECK_G;
    } else if (strcmp(cmd, "memcheck-s") == 0 && ntok >= 5) {
        if (!parse_u64(tok[1], &a) || !parse_u64(tok[2], &b) || a > UINT32_MAX || b > UINT32_MAX)
            return usage_err(c, "memcheck-s BASE SSIZE: 32-bit values", NULL);
        if (!parse_size(tok[3], &r.size_log2)) return usage_err(c, "size must be 1, 2, 4, 8 or 16", tok[3]);
        if ((rc = parse_lanes(c, tok[4], &r, true)) != 0) return rc;
        if ((rc = parse_opts(c, tok + 5, ntok - 5, &r)) != 0) return rc;
        r.md = (b << 32) | a;
        r.op = GAB_OP_MEMCHECK_S;
    } else if (strcmp(cmd, "access") == 0 && ntok >= 3) {
        if (!parse_size(tok[1], &r.size_log2)) return usage_err(c, "size must be 1, 2, 4, 8 or 16", tok[1]);
        if ((rc = parse_lanes(c, tok[2], &r, false)) != 0) return rc;
        if ((rc = parse_opts(c, tok + 3, ntok - 3, &r)) != 0) return rc;
        r.op = GAB_OP_ACCESS;
    } else if (strcmp(cmd, "invalidate") == 0 && ntok == 2) {
        if (!parse_u64(tok[1], &r.md)) return usage_err(c, "bad location", tok[1]);
        r.op = GAB_OP_INVALIDATE;
    } else if (strcmp(cmd, "flush") == 0 && ntok == 1) {
        r.op = GAB_OP_FLUSH;
    } else if (strcmp(cmd, "clear-halt") == 0 && ntok == 1) {
        r.op = GAB_OP_CLEAR_HALT;
    } else {
        is_op = false;
    }
    if (!is_op) return usage_err(c, "unknown command or wrong number of arguments", cmd);
    r.sm_set = c->sm_set;
    r.sm = c->sm;
    if (c->dry) return 0;
    if (gab_sess_op(s, &r, &rsp) != 0) return link_err(c);
    if (!s->mirror_ok) gab_print_rsp(s->out, &rsp, s->lanes);
    if (expect != NULL) {
        bool ok;
        if (strcmp(expect, "HALTED") == 0) ok = rsp.rsp_status == GAB_RSP_HALTED;
        else if (strcmp(expect, "CFG_ERROR") == 0) ok = rsp.rsp_status == GAB_RSP_CFG_ERROR;
        else if (strcmp(expect, "OK") == 0) ok = rsp.rsp_status == GAB_RSP_OK;
        else if (r.op == GAB_OP_LOADMETA && parse_u64(expect, &a)) ok = rsp.rsp_status == GAB_RSP_OK && rsp.rd == a;
        else if (exc_code(expect) >= 0)
            ok = rsp.rsp_status == GAB_RSP_OK && rsp.kind == (unsigned)exc_code(expect) &&
                 ((rsp.fault != 0u) == (exc_code(expect) != 0));
        else return usage_err(c, "bad expectation (a kind, ok, OK, HALTED, CFG_ERROR, or a LOADMETA value)", expect);
        if (!ok) {
            c->expect_fail++;
            fprintf(s->out, "EXPECT FAILED %s: '=> %s': ", c->where, expect);
            gab_print_rsp(s->out, &rsp, s->lanes);
            return 1;
        }
    }
    return s->mismatches != mm0;
}

static int split(char *line, char **tok, int max)
{
    int n = 0;
    for (char *save = NULL, *p = strtok_r(line, " \t\r\n", &save); p != NULL; p = strtok_r(NULL, " \t\r\n", &save)) {
        if (n == max) return -1;
        tok[n++] = p;
    }
    return n;
}

static int run_file(cmdctx_t *c, const char *path)
{
    FILE *f = fopen(path, "r");
    if (f == NULL) {
        fprintf(stderr, "gaprobe: cannot open %s: %s\n", path, strerror(errno));
        return FAIL_INPUT;
    }
    char line[4096], where[512];
    unsigned long ln = 0;
    int worst = 0;
    while (fgets(line, sizeof line, f) != NULL) {
        ln++;
        char *h = strchr(line, '#');
        if (h != NULL) *h = '\0';
        char *expect = NULL;
        char *arrow = strstr(line, "=>");
        if (arrow != NULL) {
            *arrow = '\0';
            expect = arrow + 2;
            while (*expect == ' ' || *expect == '\t') expect++;
            char *end = expect + strcspn(expect, " \t\r\n");
            *end = '\0';
        }
        char *tok[64];
        int n = split(line, tok, 64);
        if (n == 0) continue;
        snprintf(where, sizeof where, "%s:%lu", path, ln);
        c->where = where;
        if (n < 0) {
            worst = usage_err(c, "too many tokens", NULL);
            break;
        }
        if (strcmp(tok[0], "require") == 0 && n == 3 && strcmp(tok[1], "sms") == 0) {
            uint64_t k;
            if (!parse_u64(tok[2], &k) || k < 1u || k > GAB_SMS_MAX) {
                worst = usage_err(c, "require sms N: 1..8", tok[2]);
                break;
            }
            if (!c->dry && c->s->info.num_sms < k) {
                fprintf(c->s->out, "%s: SKIP: this build has %u SM%s, the file needs %" PRIu64 "\n", where,
                        c->s->info.num_sms, c->s->info.num_sms == 1u ? "" : "s", k);
                c->skipped = true;
                break;
            }
            continue;
        }
        if (strcmp(tok[0], "require") == 0 && n == 3 && strcmp(tok[1], "lanes") == 0) {
            uint64_t lo = 0, hi = GAB_LANES_MAX;   /* MIN alone: MIN .. 32 */
            char *dots = strstr(tok[2], "..");
            if (dots != NULL) *dots = '\0';
            if (!parse_u64(tok[2], &lo) || (dots != NULL && !parse_u64(dots + 2, &hi)) || lo < 1u ||
                hi > GAB_LANES_MAX || lo > hi) {
                worst = usage_err(c, "require lanes MIN[..MAX]: 1 <= MIN <= MAX <= 32", NULL);
                break;
            }
            if (!c->dry && (c->s->lanes < lo || c->s->lanes > hi)) {
                fprintf(c->s->out, "%s: SKIP: this build has %u lanes, the file needs %" PRIu64 "..%" PRIu64 "\n", where,
                        c->s->lanes, lo, hi);
                c->skipped = true;
                break;
            }
            continue;
        }
        if (strcmp(tok[0], "require") == 0 && n == 2) {
            if (strcmp(tok[1], "hwonly") != 0) {
                worst = usage_err(c, "require: 'hwonly', 'sms N' or 'lanes MIN[..MAX]'", tok[1]);
                break;
            }
            if (!c->dry && !c->s->info.hwonly) {
                fprintf(c->s->out, "%s: SKIP: this build has no HWOnly mode\n", where);
                c->skipped = true;
                break;
            }
            continue;
        }
        int rc = exec_cmd(c, tok, n, expect);
        if (rc < 0) {
            worst = rc;
            break;
        }
        if (rc > worst) worst = rc;
    }
    fclose(f);
    return worst;
}

/* ---------------------------------------------------------------------------------------------- */

/* Check the command and its arguments (and a command file's lines) without a session: 0, or an exit
 * status. */
static int check_command(cmdctx_t *c, int argc, char **argv, int i)
{
    const char *cmd = argv[i];
    int rc = 0;
    c->dry = true;
    if (strcmp(cmd, "run") == 0) {
        if (i + 2 != argc) {
            fprintf(stderr, "gaprobe: run takes one command file (see gaprobe --help)\n");
            return GA_EXIT_USAGE;
        }
        rc = run_file(c, argv[i + 1]);
    } else if (strcmp(cmd, "selftest") == 0) {
        if (i + 1 != argc) {
            fprintf(stderr, "gaprobe: selftest takes no argument (see gaprobe --help)\n");
            return GA_EXIT_USAGE;
        }
    } else if (strcmp(cmd, "replay") == 0) {
        if (i + 2 != argc) {
            fprintf(stderr, "gaprobe: replay takes one trace (see gaprobe --help)\n");
            return GA_EXIT_USAGE;
        }
    } else {
        rc = exec_cmd(c, argv + i, argc - i, NULL);
    }
    c->dry = false;
    c->where = "command line";
    if (rc == FAIL_USAGE) return GA_EXIT_USAGE;
    if (rc == FAIL_INPUT) return GA_EXIT_ERROR;
    return 0;
}

int main(int argc, char **argv)
{
    const char *port = getenv("GAPROBE_PORT");
    if (port == NULL) port = "/dev/ttyUSB1";
    uint64_t baud = 115200, timeout = 2000, retries = 2;
    const char *dump = NULL;
    bool check = true, keep_mem = false, dry = false;
    int verbose = 1, sm_opt = 0;
    gab_selftest_opts_t st = {.ops = 20000, .seed = 1, .phases = 6, .gen_cases = 400};
    gab_replay_opts_t ro = {.trace = NULL, .mode = 0, .layout = 1, .seed = 1, .step_limit = 0};

    int i = 1;
    for (; i < argc && argv[i][0] == '-'; i++) {
        const char *o = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        uint64_t x;
        /* every option may be given once (-v may repeat): a second one would silently win */
        for (int j = 1; j < i; j++)
            if (strcmp(argv[j], o) == 0 && strcmp(o, "-v") != 0 && strcmp(o, "--verbose") != 0) {
                fprintf(stderr, "gaprobe: option %s given twice\n", o);
                return GA_EXIT_USAGE;
            }
#define NEEDV                                                                                             \
    do {                                                                                                  \
        if (v == NULL) {                                                                                  \
            fprintf(stderr, "gaprobe: %s needs a value\n", o);                                            \
            return GA_EXIT_USAGE;                                                                         \
        }                                                                                                 \
        i++;                                                                                              \
    } while (0)
        if (strcmp(o, "-p") == 0 || strcmp(o, "--port") == 0) { NEEDV; port = v; }
        else if (strcmp(o, "-b") == 0 || strcmp(o, "--baud") == 0) {
            NEEDV;
            if (!parse_u64(v, &baud) || baud > UINT32_MAX || !gab_link_baud_ok((unsigned)baud)) {
                fprintf(stderr, "gaprobe: %s: %s is not one of the rates 9600, 19200, 38400, 57600, 115200, 230400, "
                        "460800, 500000, 921600, 1000000, 1500000, 2000000, 3000000, 4000000\n", o, v);
                return GA_EXIT_USAGE;
            }
        }
        else if (strcmp(o, "-t") == 0 || strcmp(o, "--timeout") == 0) {
            NEEDV;
            if (!parse_u64(v, &timeout) || timeout == 0 || timeout > 600000) goto bad;
        }
        else if (strcmp(o, "-r") == 0 || strcmp(o, "--retries") == 0) {
            NEEDV;
            if (!parse_u64(v, &retries) || retries > 100) goto bad;
        }
        else if (strcmp(o, "--dump") == 0) { NEEDV; dump = v; }
        else if (strcmp(o, "--sm") == 0) {
            NEEDV;
            if (strcmp(v, "rr") == 0) sm_opt = GAB_SESS_SM_RR;
            else if (parse_u64(v, &x) && x < GAB_SMS_MAX) sm_opt = (int)x;
            else goto bad;
        }
        else if (strcmp(o, "--no-check") == 0) check = false;
        else if (strcmp(o, "--keep-memory") == 0) keep_mem = true;
        else if (strcmp(o, "--dry-run") == 0) dry = true;
        else if (strcmp(o, "-v") == 0 || strcmp(o, "--verbose") == 0) verbose++;
        else if (strcmp(o, "-q") == 0 || strcmp(o, "--quiet") == 0) verbose = 0;
        else if (strcmp(o, "--seed") == 0) { NEEDV; if (!parse_u64(v, &st.seed)) goto bad; ro.seed = st.seed; }
        else if (strcmp(o, "--ops") == 0) { NEEDV; if (!parse_u64(v, &st.ops)) goto bad; }
        else if (strcmp(o, "--phases") == 0) {
            NEEDV;
            if (!parse_u64(v, &x) || x == 0 || x > 1000) goto bad;
            st.phases = (unsigned)x;
        }
        else if (strcmp(o, "--gen") == 0) {
            NEEDV;
            if (!parse_u64(v, &x) || x > 1000000) goto bad;
            st.gen_cases = (unsigned)x;
        }
        else if (strcmp(o, "--mode") == 0) {
            NEEDV;
            if (strcmp(v, "compiler") == 0) ro.mode = 0;
            else if (strcmp(v, "hwonly") == 0) ro.mode = 1;
            else goto bad;
        }
        else if (strcmp(o, "--layout") == 0) {
            NEEDV;
            if (strcmp(v, "list") == 0) ro.layout = 0;
            else if (strcmp(v, "bst") == 0) ro.layout = 1;
            else if (strcmp(v, "table") == 0) ro.layout = 2;
            else goto bad;
        }
        else if (strcmp(o, "--step-limit") == 0) {
            NEEDV;
            if (!parse_u64(v, &x) || x == 0 || x > UINT32_MAX) goto bad;
            ro.step_limit = (uint32_t)x;
        }
        else if (strcmp(o, "-h") == 0 || strcmp(o, "--help") == 0) { usage(stdout); return GA_EXIT_OK; }
        else { fprintf(stderr, "gaprobe: unknown option %s (see gaprobe --help)\n", o); return GA_EXIT_USAGE; }
        continue;
    bad:
        fprintf(stderr, "gaprobe: bad value for %s: %s (see gaprobe --help)\n", o, v ? v : "");
        return GA_EXIT_USAGE;
#undef NEEDV
    }
    if (i >= argc) {
        fprintf(stderr, "gaprobe: no command given (see gaprobe --help)\n");
        return GA_EXIT_USAGE;
    }

    gab_sess_t s;
    memset(&s, 0, sizeof s);
    s.out = stdout;
    s.check = check;
    s.timeout_ms = (unsigned)timeout;
    s.retries = (unsigned)retries;
    s.verbose = verbose;
    s.mismatch_print = 20;
    s.sm = sm_opt;
    cmdctx_t c = {.s = &s, .where = "command line"};
    /* everything is checked before the port is opened */
    int rc = check_command(&c, argc, argv, i);
    if (rc != 0) return rc;
    if (dry) {
        printf("gaprobe: dry run: the command line is valid\n");
        return GA_EXIT_OK;
    }
    if (gab_sess_open(&s, port, (unsigned)baud, dump) != 0) {
        fprintf(stderr, "gaprobe: %s: %s\n", port, s.err);
        gab_sess_close(&s);
        return GA_EXIT_ERROR;
    }
    const char *cmd = argv[i];
    if (strcmp(cmd, "run") == 0) {
        if (gab_sess_begin(&s, !keep_mem) != 0) {
            fprintf(stderr, "gaprobe: %s\n", s.err);
            rc = FAIL_LINK;
        } else {
            rc = run_file(&c, argv[i + 1]);
            if (rc >= 0) {
                uint32_t cnt[GAB_NCNT];
                if (gab_sess_counters(&s, false, cnt) != 0 || gab_sess_check_regs(&s) != 0) rc = FAIL_LINK;
            }
        }
    } else if (strcmp(cmd, "selftest") == 0) {
        rc = gab_selftest(&s, &st);
    } else if (strcmp(cmd, "replay") == 0) {
        ro.trace = argv[i + 1];
        if (gab_sess_begin(&s, !keep_mem) != 0) {
            fprintf(stderr, "gaprobe: %s\n", s.err);
            rc = FAIL_LINK;
        } else {
            rc = gab_replay(&s, &ro);
        }
    } else {
        s.check = false;
        rc = exec_cmd(&c, argv + i, argc - i, NULL);
    }
    uint64_t tx, rx;
    gab_link_counts(s.link, &tx, &rx);
    bool session = strcmp(cmd, "run") == 0 || strcmp(cmd, "selftest") == 0 || strcmp(cmd, "replay") == 0;
    if (session && verbose > 0)
        fprintf(s.out, "gaprobe: %" PRIu64 " frames (%" PRIu64 " resent), %" PRIu64 " MLU ops, %" PRIu64 " bytes sent, %"
                PRIu64 " received, %" PRIu64 " mismatches, %u failed expectations\n",
                s.frames, s.resent, s.ops, tx, rx, s.mismatches, c.expect_fail);
    gab_sess_close(&s);
    if (rc == FAIL_USAGE) return GA_EXIT_USAGE;
    if (rc == FAIL_LINK || rc == FAIL_INPUT || rc < 0) return GA_EXIT_ERROR;
    if (session) {
        bool pass = s.mismatches == 0 && c.expect_fail == 0 && rc == 0;
        fprintf(s.out, "RESULT %s\n", c.skipped ? "SKIP" : pass ? "PASS" : "FAIL");
        return pass ? GA_EXIT_OK : GA_EXIT_MISMATCH;
    }
    return rc == 0 ? GA_EXIT_OK : GA_EXIT_MISMATCH;
}
