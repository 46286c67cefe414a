/*
 * gr_opts.c — the option table, parser, canonical encoder and splitter of gr_opts.h, shared by
 * gpuarmor-run and libcudart.so.13.
 */
#include "gr_opts.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* The layouts of cmodel/ga_layouts.def by code, and "list|bst|table|index" (each name after a '|'; the
 * option table points past the first one). Local tables, not ga_layout_name(): this file is also
 * linked without the model library (tests/test_cudart.c). */
static const char *const layout_words[] = {
#define GA_LAYOUT(id, code, name, rtl, title) [code] = #name,
#include "ga_layouts.def"
#undef GA_LAYOUT
};
static const char layout_metavar[] = ""
#define GA_LAYOUT(id, code, name, rtl, title) "|" #name
#include "ga_layouts.def"
#undef GA_LAYOUT
    ;

static const gr_opt_info_t opt_table[GR_OPT_COUNT] = {
    [GR_OPT_MODE] = {"--mode", "compiler|hwonly|off",
                     "GPUArmor mode: instrumented PTX, hardware-only checks, or none (default compiler)"},
    [GR_OPT_LAYOUT] = {"--layout", layout_metavar + 1, "metadata layout (default bst)"},
    [GR_OPT_MLB] = {"--mlb", "N", "MLB entries per SM, 1..64 (default 8)"},
    [GR_OPT_TAG_BITS] = {"--tag-bits", "7|16", "pointer tag width (default 7)"},
    [GR_OPT_POLICY] = {"--policy", "report|terminate", "on a detection: report and resume, or stop the kernel "
                                                       "(default report)"},
    [GR_OPT_SEED] = {"--seed", "N", "tag generator seed (default 1)"},
    [GR_OPT_SMS] = {"--sms", "N", "simulated SMs, 1..128 (default 4)"},
    [GR_OPT_STEP_LIMIT] = {"--step-limit", "N", "metadata walk bound, 1..2^32-1 (default 65536)"},
    [GR_OPT_MAX_INSNS] = {"--max-instructions", "N", "warp instructions per launch before it is stopped as "
                                                     "hung, 0 = unlimited (default 2^32)"},
    [GR_OPT_STACK_SIZE] = {"--stack-size", "BYTES", "per-thread local memory, K/M suffix allowed (default 64K)"},
    [GR_OPT_TAG_NEIGHBOUR] = {"--tag-neighbour-distinct", NULL, "new tags differ from the neighbours' "
                                                                "(spec 7.6.1)"},
    [GR_OPT_TAG_QUARANTINE] = {"--tag-quarantine", "W", "no tag reuse among the W most recent overlapping frees "
                                                        "(spec 7.6.2; default 0 = off)"},
    [GR_OPT_RTL] = {"--rtl", NULL, "run every MLU operation on the Verilated RTL too, in lockstep"},
    [GR_OPT_TRACE_OUT] = {"--trace-out", "FILE", "write a gatrace of the run (.gz: gzip)"},
    [GR_OPT_ERROR_EXITCODE] = {"--error-exitcode", "N", "exit with N (5..255) when errors were reported"},
    [GR_OPT_LOG_FILE] = {"--log-file", "FILE", "write reports to FILE instead of stderr (%p: process id)"},
    [GR_OPT_PRINT_LIMIT] = {"--print-limit", "N", "detections printed in full, 0 = all (default 100)"},
    [GR_OPT_JSON] = {"--json", "FILE", "write a JSON report of the run at the end"},
    [GR_OPT_PTX_DUMP] = {"--ptx-dump", "DIR", "write each module's PTX as loaded and as executed into DIR"},
    [GR_OPT_QUIET] = {"--quiet", NULL, "no banner or summary when nothing was detected"},
    [GR_OPT_HELP] = {"--help", NULL, "print this help and exit"},
    [GR_OPT_VERSION] = {"--version", NULL, "print the version and exit"},
};

const gr_opt_info_t *gr_opt_info(gr_opt_id_t id)
{
    if ((int)id < 0 || id >= GR_OPT_COUNT)
        return NULL;
    return &opt_table[id];
}

static int usage(char *msg, size_t cap, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int usage(char *msg, size_t cap, const char *fmt, ...)
{
    if (msg && cap) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(msg, cap, fmt, ap);
        va_end(ap);
    }
    return 2;
}

/* Strict unsigned integer: decimal or 0x-hex, at least one digit, nothing else. */
static bool parse_u64(const char *s, uint64_t *out)
{
    unsigned base = 10;
    if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        base = 16;
        s += 2;
    }
    if (*s == '\0')
        return false;
    uint64_t v = 0;
    for (; *s; s++) {
        unsigned d;
        if (*s >= '0' && *s <= '9')
            d = (unsigned)(*s - '0');
        else if (base == 16 && *s >= 'a' && *s <= 'f')
            d = (unsigned)(*s - 'a') + 10u;
        else if (base == 16 && *s >= 'A' && *s <= 'F')
            d = (unsigned)(*s - 'A') + 10u;
        else
            return false;
        if (v > (UINT64_MAX - d) / base)
            return false;
        v = v * base + d;
    }
    *out = v;
    return true;
}

static int want_u64(const char *opt, const char *val, uint64_t lo, uint64_t hi, uint64_t *out, char *msg,
                    size_t cap)
{
    uint64_t v;
    if (!parse_u64(val, &v) || v < lo || v > hi)
        return usage(msg, cap, "%s: expected an integer in %" PRIu64 "..%" PRIu64 ", got '%s'", opt, lo, hi, val);
    *out = v;
    return 0;
}

static int want_size(const char *opt, const char *val, uint64_t lo, uint64_t hi, uint64_t *out, char *msg,
                     size_t cap)
{
    char digits[32];
    size_t n = strlen(val);
    uint64_t mult = 1;
    if (n > 0 && n < sizeof digits && (val[n - 1] == 'K' || val[n - 1] == 'k' || val[n - 1] == 'M' ||
                                       val[n - 1] == 'm')) {
        mult = (val[n - 1] == 'K' || val[n - 1] == 'k') ? 1024u : 1024u * 1024u;
        memcpy(digits, val, n - 1);
        digits[n - 1] = '\0';
    } else if (n < sizeof digits) {
        memcpy(digits, val, n + 1);
    } else {
        digits[0] = '\0';
    }
    uint64_t v;
    if (!parse_u64(digits, &v) || v > hi / mult || v * mult < lo || v * mult > hi)
        return usage(msg, cap, "%s: expected a size in %" PRIu64 "..%" PRIu64 " bytes (K or M suffix allowed), "
                     "got '%s'", opt, lo, hi, val);
    *out = v * mult;
    return 0;
}

static int want_word(const char *opt, const char *val, const char *const *words, unsigned nwords,
                     unsigned *out, char *msg, size_t cap)
{
    for (unsigned i = 0; i < nwords; i++)
        if (strcmp(val, words[i]) == 0) {
            *out = i;
            return 0;
        }
    char list[96] = "";
    for (unsigned i = 0; i < nwords; i++) {
        size_t l = strlen(list);
        snprintf(list + l, sizeof list - l, "%s%s", i ? ", " : "", words[i]);
    }
    return usage(msg, cap, "%s: expected one of %s, got '%s'", opt, list, val);
}

static gr_opt_id_t lookup(const char *arg, size_t len)
{
    for (int i = 0; i < GR_OPT_COUNT; i++)
        if (strlen(opt_table[i].name) == len && strncmp(opt_table[i].name, arg, len) == 0)
            return (gr_opt_id_t)i;
    return GR_OPT_COUNT;
}

static int apply(gr_opts_t *o, gr_opt_id_t id, const char *val, char *msg, size_t cap)
{
    const char *name = opt_table[id].name;
    uint64_t v = 0;
    unsigned w = 0;
    int rc = 0;
    if (val && strchr(val, GR_ARGS_SEP))
        return usage(msg, cap, "%s: the value contains the byte 0x1f, which " GR_ARGS_ENV " uses as separator",
                     name);
    switch (id) {
    case GR_OPT_MODE: {
        static const char *const words[] = {"compiler", "hwonly", "off"};
        static const emu_armor_t armor[] = {EMU_ARMOR_COMPILER, EMU_ARMOR_HWONLY, EMU_ARMOR_OFF};
        if ((rc = want_word(name, val, words, 3, &w, msg, cap)) == 0)
            o->cfg.armor = armor[w];
        break;
    }
    case GR_OPT_LAYOUT: {
        if ((rc = want_word(name, val, layout_words, (unsigned)GA_LAYOUTS, &w, msg, cap)) == 0)
            o->cfg.layout = (ga_layout_t)w; /* the codes are the list's positions */
        break;
    }
    case GR_OPT_POLICY: {
        static const char *const words[] = {"report", "terminate"};
        if ((rc = want_word(name, val, words, 2, &w, msg, cap)) == 0)
            o->cfg.policy = w ? GA_POLICY_TERMINATE : GA_POLICY_REPORT;
        break;
    }
    case GR_OPT_TAG_BITS: {
        static const char *const words[] = {"7", "16"};
        if ((rc = want_word(name, val, words, 2, &w, msg, cap)) == 0)
            o->cfg.tag_bits = w ? 16u : 7u;
        break;
    }
    case GR_OPT_MLB:
        if ((rc = want_u64(name, val, 1, GA_MLB_MAX, &v, msg, cap)) == 0)
            o->cfg.mlb_entries = (unsigned)v;
        break;
    case GR_OPT_SEED:
        if ((rc = want_u64(name, val, 0, UINT64_MAX, &v, msg, cap)) == 0)
            o->cfg.seed = v;
        break;
    case GR_OPT_SMS:
        if ((rc = want_u64(name, val, 1, GA_SYSTEM_MAX_SMS, &v, msg, cap)) == 0)
            o->cfg.sms = (unsigned)v;
        break;
    case GR_OPT_STEP_LIMIT:
        if ((rc = want_u64(name, val, 1, UINT32_MAX, &v, msg, cap)) == 0)
            o->cfg.step_limit = (uint32_t)v;
        break;
    case GR_OPT_MAX_INSNS:
        if ((rc = want_u64(name, val, 0, UINT64_MAX, &v, msg, cap)) == 0)
            o->cfg.max_instructions = v;
        break;
    case GR_OPT_STACK_SIZE:
        /* 16: one aligned call frame slot; the interpreter may ask for more (emu_create says so). */
        if ((rc = want_size(name, val, 16, UINT32_MAX, &v, msg, cap)) == 0)
            o->cfg.stack_bytes = (uint32_t)v;
        break;
    case GR_OPT_TAG_QUARANTINE:
        if ((rc = want_u64(name, val, 0, GA_RT_QUARANTINE_MAX, &v, msg, cap)) == 0)
            o->cfg.tag_quarantine = (uint32_t)v;
        break;
    case GR_OPT_PRINT_LIMIT:
        if ((rc = want_u64(name, val, 0, UINT32_MAX, &v, msg, cap)) == 0)
            o->cfg.print_limit = (uint32_t)v;
        break;
    case GR_OPT_ERROR_EXITCODE:
        if ((rc = want_u64(name, val, 5, 255, &v, msg, cap)) == 0)
            o->error_exitcode = (unsigned)v;
        break;
    case GR_OPT_TRACE_OUT:
    case GR_OPT_LOG_FILE:
    case GR_OPT_JSON:
    case GR_OPT_PTX_DUMP:
        if (val[0] == '\0')
            return usage(msg, cap, "%s: expected a %s name, got ''", name,
                         id == GR_OPT_PTX_DUMP ? "directory" : "file");
        if (id == GR_OPT_TRACE_OUT)
            o->cfg.trace_out = val;
        else if (id == GR_OPT_LOG_FILE)
            o->log_file = val;
        else if (id == GR_OPT_JSON)
            o->cfg.json_out = val;
        else
            o->cfg.ptx_dump_dir = val;
        break;
    case GR_OPT_TAG_NEIGHBOUR: o->cfg.tag_neighbour_distinct = true; break;
    case GR_OPT_RTL: o->cfg.rtl = true; break;
    case GR_OPT_QUIET: o->cfg.quiet = true; break;
    case GR_OPT_HELP: o->help = true; break;
    case GR_OPT_VERSION: o->version = true; break;
    case GR_OPT_COUNT: break;
    }
    if (rc == 0)
        o->set |= UINT32_C(1) << id;
    return rc;
}

int gr_opts_parse(gr_opts_t *o, int argc, char *const argv[], int first, gr_opts_mode_t mode, char *msg,
                  size_t cap)
{
    if (msg && cap)
        msg[0] = '\0';
    o->prog = argc;
    int i = first;
    while (i < argc) {
        const char *a = argv[i];
        if (mode == GR_OPTS_LAUNCHER) {
            if (strcmp(a, "--") == 0) {
                o->prog = i + 1;
                return 0;
            }
            if (a[0] != '-') {
                o->prog = i;
                return 0;
            }
        }
        if (a[0] != '-' || a[1] != '-')
            return usage(msg, cap, "expected an option (--name), got '%s'", a);
        const char *eq = strchr(a, '=');
        size_t len = eq ? (size_t)(eq - a) : strlen(a);
        gr_opt_id_t id = lookup(a, len);
        if (id == GR_OPT_COUNT)
            return usage(msg, cap, "unknown option '%.*s' (--help lists them)", (int)len, a);
        if (mode == GR_OPTS_LIBRARY && (id == GR_OPT_HELP || id == GR_OPT_VERSION))
            return usage(msg, cap, "%s is an option of gpuarmor-run only, got it in " GR_ARGS_ENV,
                         opt_table[id].name);
        const char *val = NULL;
        if (opt_table[id].metavar) {
            if (eq) {
                val = eq + 1;
            } else if (i + 1 < argc) {
                val = argv[++i];
            } else {
                return usage(msg, cap, "%s: expected a value (%s), got nothing", opt_table[id].name,
                             opt_table[id].metavar);
            }
        } else if (eq) {
            return usage(msg, cap, "%s takes no value, got '%s'", opt_table[id].name, a);
        }
        int rc = apply(o, id, val, msg, cap);
        if (rc)
            return rc;
        i++;
    }
    return 0;
}

/* Append "item" (preceded by the separator unless first) to buf if it fits with the NUL; *len tracks
 * the full length. Once one item does not fit, *len >= cap and nothing later is written. */
static void put(char *buf, size_t cap, size_t *len, const char *item)
{
    size_t n = strlen(item), sep = *len > 0 ? 1u : 0u;
    if (*len + sep + n < cap) {
        if (sep)
            buf[*len] = GR_ARGS_SEP;
        memcpy(buf + *len + sep, item, n);
        buf[*len + sep + n] = '\0';
    }
    *len += sep + n;
}

int gr_opts_encode(const gr_opts_t *o, char *buf, size_t cap)
{
    size_t len = 0;
    if (cap)
        buf[0] = '\0';
    for (int i = 0; i < GR_OPT_COUNT; i++) {
        if (!(o->set & (UINT32_C(1) << i)) || i == GR_OPT_HELP || i == GR_OPT_VERSION)
            continue;
        char num[32];
        const char *val = NULL;
        switch ((gr_opt_id_t)i) {
        case GR_OPT_MODE:
            val = o->cfg.armor == EMU_ARMOR_OFF ? "off" : o->cfg.armor == EMU_ARMOR_HWONLY ? "hwonly" : "compiler";
            break;
        case GR_OPT_LAYOUT:
            val = (unsigned)o->cfg.layout < (unsigned)GA_LAYOUTS ? layout_words[o->cfg.layout] : "bst";
            break;
        case GR_OPT_POLICY: val = o->cfg.policy == GA_POLICY_TERMINATE ? "terminate" : "report"; break;
        case GR_OPT_TAG_BITS: val = o->cfg.tag_bits == 16 ? "16" : "7"; break;
        case GR_OPT_MLB: snprintf(num, sizeof num, "%u", o->cfg.mlb_entries); val = num; break;
        case GR_OPT_SEED: snprintf(num, sizeof num, "%" PRIu64, o->cfg.seed); val = num; break;
        case GR_OPT_SMS: snprintf(num, sizeof num, "%u", o->cfg.sms); val = num; break;
        case GR_OPT_STEP_LIMIT: snprintf(num, sizeof num, "%" PRIu32, o->cfg.step_limit); val = num; break;
        case GR_OPT_MAX_INSNS: snprintf(num, sizeof num, "%" PRIu64, o->cfg.max_instructions); val = num; break;
        case GR_OPT_STACK_SIZE: snprintf(num, sizeof num, "%" PRIu32, o->cfg.stack_bytes); val = num; break;
        case GR_OPT_TAG_QUARANTINE: snprintf(num, sizeof num, "%" PRIu32, o->cfg.tag_quarantine); val = num; break;
        case GR_OPT_PRINT_LIMIT: snprintf(num, sizeof num, "%" PRIu32, o->cfg.print_limit); val = num; break;
        case GR_OPT_ERROR_EXITCODE: snprintf(num, sizeof num, "%u", o->error_exitcode); val = num; break;
        case GR_OPT_TRACE_OUT: val = o->cfg.trace_out; break;
        case GR_OPT_LOG_FILE: val = o->log_file; break;
        case GR_OPT_JSON: val = o->cfg.json_out; break;
        case GR_OPT_PTX_DUMP: val = o->cfg.ptx_dump_dir; break;
        case GR_OPT_TAG_NEIGHBOUR:
        case GR_OPT_RTL:
        case GR_OPT_QUIET:
        case GR_OPT_HELP:
        case GR_OPT_VERSION:
        case GR_OPT_COUNT: break;
        }
        if (opt_table[i].metavar && (!val || strchr(val, GR_ARGS_SEP)))
            return -1;
        put(buf, cap, &len, opt_table[i].name);
        if (opt_table[i].metavar)
            put(buf, cap, &len, val);
    }
    return len > (size_t)INT32_MAX ? -1 : (int)len;
}

int gr_opts_split(const char *s, char *buf, size_t bufcap, char **argv, int max)
{
    size_t n = strlen(s);
    if (n + 1 > bufcap)
        return -1;
    memcpy(buf, s, n + 1);
    if (n == 0)
        return 0;
    int count = 0;
    char *p = buf;
    for (;;) {
        if (count >= max)
            return -1;
        argv[count++] = p;
        char *sep = strchr(p, GR_ARGS_SEP);
        if (!sep)
            break;
        *sep = '\0';
        p = sep + 1;
    }
    return count;
}
