/*
 * test_cudart.c — the pure parts of the replacement CUDA runtime (cudart/): the fatbinary walk
 * (gr_fatbin: every malformed variant gets a status and a message, never a read outside the buffer:
 * each buffer is an exact-size heap copy, so ASan catches an overread), the option parser shared by
 * gpuarmor-run and the library (gr_opts: every option, every bad value, the GPUARMOR_ARGS round
 * trip), the cudaError_t table against the toolkit's enum (gr_errors; the enumerators come from
 * build/cudart/gen/gr_errenum.inc, generated from driver_types.h), the emu_status_t mapping, and the
 * handle map (gr_map).
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gr_errors.h"
#include "gr_fatbin.h"
#include "gr_map.h"
#include "gr_opts.h"

/* ---- building fatbinaries ----------------------------------------------------------------------- */

typedef struct {
    uint8_t *b;
    size_t n, cap;
} buf_t;

static void put8(buf_t *f, uint8_t v)
{
    if (f->n == f->cap) {
        f->cap = f->cap ? 2 * f->cap : 256;
        f->b = realloc(f->b, f->cap);
        ck_assert_ptr_nonnull(f->b);
    }
    f->b[f->n++] = v;
}
static void put16(buf_t *f, uint16_t v) { put8(f, (uint8_t)v), put8(f, (uint8_t)(v >> 8)); }
static void put32(buf_t *f, uint32_t v) { put16(f, (uint16_t)v), put16(f, (uint16_t)(v >> 16)); }
static void put64(buf_t *f, uint64_t v) { put32(f, (uint32_t)v), put32(f, (uint32_t)(v >> 32)); }
static void set32(buf_t *f, size_t at, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        f->b[at + (size_t)i] = (uint8_t)(v >> (8 * i));
}
static void set64(buf_t *f, size_t at, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        f->b[at + (size_t)i] = (uint8_t)(v >> (8 * i));
}

static void fb_begin(buf_t *f)
{
    memset(f, 0, sizeof *f);
    put32(f, GR_FATBIN_MAGIC);
    put16(f, 1);
    put16(f, 16);
    put64(f, 0); /* patched by fb_end */
}

/* One entry as nvcc 13 writes it: an 80-byte PTX header or a 64-byte ELF header, then the payload
 * padded with NULs to a multiple of 8. */
static size_t fb_entry(buf_t *f, uint16_t kind, uint32_t arch, uint64_t flags, uint32_t csize, const char *payload)
{
    size_t at = f->n, len = strlen(payload), padded = (len + 1 + 7) & ~(size_t)7;
    uint32_t hs = kind == GR_ENTRY_KIND_PTX ? 80u : 64u;
    put16(f, kind);
    put16(f, 0x0101);
    put32(f, hs);
    put64(f, padded);
    put32(f, csize);
    put32(f, kind == GR_ENTRY_KIND_PTX ? 0x40u : 0u);
    put16(f, 0);          /* PTX ISA minor */
    put16(f, 9);          /* major */
    put32(f, arch);
    put32(f, 0);
    put32(f, 0);
    put64(f, flags);
    put64(f, 0);
    put64(f, 0);
    while (f->n < at + hs)
        put8(f, 0);
    for (size_t i = 0; i < padded; i++)
        put8(f, i < len ? (uint8_t)payload[i] : 0);
    return at;
}

static void fb_end(buf_t *f) { set64(f, 8, f->n - 16); }

/* An exact-size heap copy of the first n bytes (ASan sees any read past it). */
static uint8_t *exact(const buf_t *f, size_t n)
{
    uint8_t *c = malloc(n ? n : 1);
    ck_assert_ptr_nonnull(c);
    memcpy(c, f->b, n);
    return c;
}

/* Walk an exact-size copy; the copy is freed unless keep is given (ptx->ptx points into it). */
static gr_fb_status_t scan_keep(const buf_t *f, size_t n, gr_ptx_t *ptx, char *msg, size_t cap, uint8_t **keep)
{
    uint8_t *c = exact(f, n);
    gr_fb_status_t s = gr_fatbin_find_ptx(c, n, GR_ARCH_SUPPORTED, ptx, msg, cap);
    if (keep)
        *keep = c;
    else
        free(c);
    return s;
}

static gr_fb_status_t scan(const buf_t *f, size_t n, gr_ptx_t *ptx, char *msg, size_t cap)
{
    return scan_keep(f, n, ptx, msg, cap, NULL);
}

/* Whether the n bytes at p contain word (p need not be NUL-terminated). */
static bool memmem_first(const char *p, size_t n, const char *word)
{
    size_t w = strlen(word);
    for (size_t i = 0; i + w <= n; i++)
        if (memcmp(p + i, word, w) == 0)
            return true;
    return false;
}

#define PTX80 "\n\n.version 9.0\n.target sm_80\n.address_size 64\n"
#define PTX75 "\n.version 9.0\n.target sm_75\n"
#define PTX90 ".version 9.0\n.target sm_90\n"

START_TEST(test_fatbin_valid)
{
    buf_t f;
    gr_ptx_t p;
    char msg[512];
    fb_begin(&f);
    fb_entry(&f, GR_ENTRY_KIND_PTX, 80, 0x11, 0, PTX80);
    fb_end(&f);
    uint8_t *c = exact(&f, f.n);
    ck_assert_int_eq(gr_fatbin_find_ptx(c, f.n, 80, &p, msg, sizeof msg), GR_FB_OK);
    ck_assert_uint_eq(p.arch, 80);
    ck_assert_uint_eq(p.ptx_major, 9);
    ck_assert_uint_eq(p.ptx_minor, 0);
    ck_assert_uint_eq(p.len, strlen(PTX80)); /* up to the first NUL of the padding */
    ck_assert(memcmp(p.ptx, PTX80, p.len) == 0);
    ck_assert_ptr_eq(p.ptx, (const char *)c + 16 + 80);
    ck_assert_uint_eq(p.total, f.n);
    ck_assert_uint_eq(p.entries, 1);
    /* The runtime passes SIZE_MAX: the header's own size bounds the walk. */
    ck_assert_int_eq(gr_fatbin_find_ptx(c, SIZE_MAX, 80, &p, msg, sizeof msg), GR_FB_OK);
    ck_assert_uint_eq(p.total, f.n);
    /* Extra bytes after the fatbinary are not read as entries. */
    free(c);
    free(f.b);
}
END_TEST

START_TEST(test_fatbin_choice)
{
    buf_t f;
    gr_ptx_t p;
    char msg[512];
    /* The highest arch not above 80 wins, whatever the order; SASS entries are skipped. */
    fb_begin(&f);
    fb_entry(&f, GR_ENTRY_KIND_ELF, 80, 0x11, 0, "\x7f" "ELF");
    fb_entry(&f, GR_ENTRY_KIND_PTX, 90, 0x11, 0, PTX90);
    fb_entry(&f, GR_ENTRY_KIND_PTX, 75, 0x11, 0, PTX75);
    fb_entry(&f, GR_ENTRY_KIND_PTX, 80, 0x11, 0, PTX80);
    fb_entry(&f, GR_ENTRY_KIND_PTX, 70, 0x11, 0, ".version 7.0\n");
    fb_end(&f);
    uint8_t *copy;
    ck_assert_int_eq(scan_keep(&f, f.n, &p, msg, sizeof msg, &copy), GR_FB_OK);
    ck_assert_uint_eq(p.arch, 80);
    ck_assert_uint_eq(p.entries, 5);
    ck_assert(memcmp(p.ptx, PTX80, p.len) == 0);
    free(copy);
    free(f.b);
    /* Below 80 only: the best below. */
    fb_begin(&f);
    fb_entry(&f, GR_ENTRY_KIND_PTX, 60, 0x11, 0, ".version 6.0\n");
    fb_entry(&f, GR_ENTRY_KIND_PTX, 75, 0x11, 0, PTX75);
    fb_end(&f);
    ck_assert_int_eq(scan(&f, f.n, &p, msg, sizeof msg), GR_FB_OK);
    ck_assert_uint_eq(p.arch, 75);
    free(f.b);
    /* A compressed 80 is passed over for a plain 75. */
    fb_begin(&f);
    fb_entry(&f, GR_ENTRY_KIND_PTX, 80, 0x8011, 475, "(\xb5/\xfd");
    fb_entry(&f, GR_ENTRY_KIND_PTX, 75, 0x11, 0, PTX75);
    fb_end(&f);
    ck_assert_int_eq(scan(&f, f.n, &p, msg, sizeof msg), GR_FB_OK);
    ck_assert_uint_eq(p.arch, 75);
    free(f.b);
    /* Ties: the first. */
    fb_begin(&f);
    fb_entry(&f, GR_ENTRY_KIND_PTX, 80, 0x11, 0, ".version 9.0\n//first\n");
    fb_entry(&f, GR_ENTRY_KIND_PTX, 80, 0x11, 0, ".version 9.0\n//second\n");
    fb_end(&f);
    ck_assert_int_eq(scan_keep(&f, f.n, &p, msg, sizeof msg, &copy), GR_FB_OK);
    ck_assert(p.len > 0 && memmem_first(p.ptx, p.len, "first"));
    free(copy);
    free(f.b);
}
END_TEST

/* The status, and a message that names the nvcc flags. */
static void expect_flags(buf_t *f, gr_fb_status_t want, const char *word)
{
    gr_ptx_t p;
    char msg[512];
    memset(&p, 0xab, sizeof p);
    ck_assert_int_eq(scan(f, f->n, &p, msg, sizeof msg), want);
    ck_assert_ptr_null(p.ptx); /* zeroed on error */
    ck_assert_uint_eq(p.len, 0);
    ck_assert_msg(strstr(msg, GR_NVCC_FLAGS) != NULL, "no flags in '%s'", msg);
    ck_assert_msg(strstr(msg, word) != NULL, "'%s' not in '%s'", word, msg);
}

START_TEST(test_fatbin_unusable)
{
    buf_t f;
    fb_begin(&f); /* no entries */
    fb_end(&f);
    expect_flags(&f, GR_FB_EMPTY, "empty");
    free(f.b);

    fb_begin(&f); /* nvcc 13's default: zstd */
    fb_entry(&f, GR_ENTRY_KIND_ELF, 75, 0x11, 0, "\x7f" "ELF");
    fb_entry(&f, GR_ENTRY_KIND_PTX, 75, 0x8011, 475, "(\xb5/\xfd");
    fb_end(&f);
    expect_flags(&f, GR_FB_COMPRESSED, "compressed");
    free(f.b);

    fb_begin(&f); /* nvcc <= 12: the 0x2000 flag */
    fb_entry(&f, GR_ENTRY_KIND_PTX, 80, 0x2011, 0, "xx");
    fb_end(&f);
    expect_flags(&f, GR_FB_COMPRESSED, "compressed");
    free(f.b);

    fb_begin(&f); /* a compressed size without a flag */
    fb_entry(&f, GR_ENTRY_KIND_PTX, 80, 0x11, 12, "xx");
    fb_end(&f);
    expect_flags(&f, GR_FB_COMPRESSED, "compressed");
    free(f.b);

    fb_begin(&f);
    fb_entry(&f, GR_ENTRY_KIND_ELF, 80, 0x11, 0, "\x7f" "ELF");
    fb_entry(&f, GR_ENTRY_KIND_ELF, 90, 0x11, 0, "\x7f" "ELF");
    fb_end(&f);
    expect_flags(&f, GR_FB_SASS_ONLY, "sm_80");
    free(f.b);

    fb_begin(&f);
    fb_entry(&f, GR_ENTRY_KIND_PTX, 100, 0x11, 0, PTX90);
    fb_entry(&f, GR_ENTRY_KIND_PTX, 90, 0x11, 0, PTX90);
    fb_end(&f);
    expect_flags(&f, GR_FB_PTX_TOO_NEW, "compute_90");
    free(f.b);
}
END_TEST

static void expect_malformed(buf_t *f, size_t n, const char *word)
{
    gr_ptx_t p;
    char msg[512];
    ck_assert_int_eq(scan(f, n, &p, msg, sizeof msg), GR_FB_MALFORMED);
    ck_assert_ptr_null(p.ptx);
    ck_assert_msg(strstr(msg, word) != NULL, "'%s' not in '%s'", word, msg);
}

START_TEST(test_fatbin_malformed)
{
    buf_t f;
    fb_begin(&f);
    size_t e0 = fb_entry(&f, GR_ENTRY_KIND_PTX, 80, 0x11, 0, PTX80);
    fb_end(&f);
    size_t good = f.n;

    set32(&f, 0, 0xBA55ED51);
    expect_malformed(&f, good, "magic is 0xba55ed51");
    set32(&f, 0, GR_FATBIN_MAGIC);
    f.b[4] = 2;
    expect_malformed(&f, good, "version 2");
    f.b[4] = 1;
    f.b[6] = 8;
    expect_malformed(&f, good, "header size 8");
    f.b[6] = 16;
    expect_malformed(&f, 15, "truncated");
    set64(&f, 8, good); /* entries claim 16 bytes more than there are */
    expect_malformed(&f, good, "truncated");
    set64(&f, 8, UINT64_MAX); /* hsize + fsize overflows */
    expect_malformed(&f, good, "truncated");
    set64(&f, 8, 40); /* room for less than an entry header */
    expect_malformed(&f, good, "entry 0 at offset 16 truncated");
    set64(&f, 8, good - 16);
    set32(&f, e0 + 4, 63);
    expect_malformed(&f, good, "header size 63");
    set32(&f, e0 + 4, 4097);
    expect_malformed(&f, good, "header size 4097");
    set32(&f, e0 + 4, 80);
    set64(&f, e0 + 8, UINT64_MAX); /* payload size overflows */
    expect_malformed(&f, good, "run past the end");
    set64(&f, e0 + 8, good); /* payload past the end */
    expect_malformed(&f, good, "run past the end");
    free(f.b);

    /* A good entry followed by a damaged one: the damage is found, the good entry not returned. */
    fb_begin(&f);
    fb_entry(&f, GR_ENTRY_KIND_PTX, 80, 0x11, 0, PTX80);
    size_t e1 = fb_entry(&f, GR_ENTRY_KIND_PTX, 75, 0x11, 0, PTX75);
    fb_end(&f);
    set32(&f, e1 + 4, 0);
    expect_malformed(&f, f.n, "entry 1");
    free(f.b);
}
END_TEST

/* Every prefix of a valid fatbinary is refused without reading past it (ASan in the san build). */
START_TEST(test_fatbin_every_truncation)
{
    buf_t f;
    fb_begin(&f);
    fb_entry(&f, GR_ENTRY_KIND_ELF, 80, 0x11, 0, "\x7f" "ELF and some more bytes");
    fb_entry(&f, GR_ENTRY_KIND_PTX, 80, 0x11, 0, PTX80);
    fb_end(&f);
    for (size_t n = 1; n < f.n; n++) {
        gr_ptx_t p;
        char msg[256];
        gr_fb_status_t s = scan(&f, n, &p, msg, sizeof msg);
        ck_assert_msg(s == GR_FB_MALFORMED, "prefix %zu: %s", n, gr_fb_status_name(s));
        ck_assert(msg[0] != '\0');
    }
    gr_ptx_t p;
    ck_assert_int_eq(scan(&f, f.n, &p, NULL, 0), GR_FB_OK); /* no message buffer is fine */
    ck_assert_int_eq(gr_fatbin_find_ptx(NULL, 100, 80, &p, NULL, 0), GR_FB_NO_DATA);
    ck_assert_int_eq(gr_fatbin_find_ptx(f.b, 0, 80, &p, NULL, 0), GR_FB_NO_DATA);
    ck_assert_int_eq(gr_fatbin_find_ptx(f.b, f.n, 80, NULL, NULL, 0), GR_FB_OK); /* out may be NULL */
    free(f.b);
}
END_TEST

START_TEST(test_wrapper)
{
    uint8_t w[24];
    const void *fb = (const void *)&fb;
    char msg[512];
    const void *data = (const void *)w; /* any non-NULL pointer */
    memset(w, 0, sizeof w);
    ck_assert_int_eq(gr_wrapper_fatbin(NULL, &fb, msg, sizeof msg), GR_FB_NO_DATA);
    ck_assert_ptr_null(fb);
    w[0] = 0xb1, w[1] = 0x43, w[2] = 0x62, w[3] = 0x46; /* 0x466243b1 */
    w[4] = 1;
    ck_assert_int_eq(gr_wrapper_fatbin(w, &fb, msg, sizeof msg), GR_FB_NO_DATA); /* NULL data */
    ck_assert(strstr(msg, GR_NVCC_FLAGS) != NULL);
    memcpy(w + 8, &data, sizeof data);
    ck_assert_int_eq(gr_wrapper_fatbin(w, &fb, msg, sizeof msg), GR_FB_OK);
    ck_assert_ptr_eq(fb, data);
    w[4] = 2;
    ck_assert_int_eq(gr_wrapper_fatbin(w, &fb, msg, sizeof msg), GR_FB_RDC);
    ck_assert(strstr(msg, "-rdc") != NULL && strstr(msg, GR_NVCC_FLAGS) != NULL);
    w[4] = 3;
    ck_assert_int_eq(gr_wrapper_fatbin(w, &fb, msg, sizeof msg), GR_FB_BAD_WRAPPER);
    ck_assert(strstr(msg, "version 3") != NULL);
    w[4] = 1;
    w[0] = 0;
    ck_assert_int_eq(gr_wrapper_fatbin(w, &fb, msg, sizeof msg), GR_FB_BAD_WRAPPER);
    ck_assert(strstr(msg, "0x466243b1") != NULL);
    ck_assert_str_eq(gr_fb_status_name(GR_FB_SASS_ONLY), "GR_FB_SASS_ONLY");
    ck_assert_str_eq(gr_fb_status_name((gr_fb_status_t)99), "?");
}
END_TEST

/* ---- options ------------------------------------------------------------------------------------ */

static void opts_init(gr_opts_t *o)
{
    memset(o, 0, sizeof *o);
    o->cfg.sms = 4;
    o->cfg.mlb_entries = 8;
    o->cfg.tag_bits = 7;
    o->cfg.seed = 1;
}

/* Parse a NULL-terminated list in library mode. */
static int parse_list(gr_opts_t *o, const char *const *items, char *msg, size_t cap)
{
    int n = 0;
    while (items[n])
        n++;
    return gr_opts_parse(o, n, (char *const *)items, 0, GR_OPTS_LIBRARY, msg, cap);
}

START_TEST(test_opts_every_option)
{
    gr_opts_t o;
    char msg[256];
    opts_init(&o);
    const char *items[] = {"--mode", "hwonly", "--layout=table", "--mlb", "64", "--tag-bits", "16", "--policy",
                           "terminate", "--seed", "0xffffffffffffffff", "--sms", "128", "--step-limit", "4294967295",
                           "--max-instructions", "0", "--stack-size", "2M", "--tag-neighbour-distinct",
                           "--tag-quarantine", "1048576", "--rtl", "--trace-out", "t.gatrace.gz",
                           "--error-exitcode", "255", "--log-file", "log.%p", "--print-limit", "0", "--json",
                           "r.json", "--ptx-dump", "dumps", "--quiet", NULL};
    ck_assert_int_eq(parse_list(&o, items, msg, sizeof msg), 0);
    ck_assert_int_eq(o.cfg.armor, EMU_ARMOR_HWONLY);
    ck_assert_int_eq(o.cfg.layout, GA_LAYOUT_TABLE);
    ck_assert_uint_eq(o.cfg.mlb_entries, 64);
    ck_assert_uint_eq(o.cfg.tag_bits, 16);
    ck_assert_int_eq(o.cfg.policy, GA_POLICY_TERMINATE);
    ck_assert(o.cfg.seed == UINT64_MAX);
    ck_assert_uint_eq(o.cfg.sms, 128);
    ck_assert_uint_eq(o.cfg.step_limit, UINT32_MAX);
    ck_assert(o.cfg.max_instructions == 0);
    ck_assert_uint_eq(o.cfg.stack_bytes, 2u << 20);
    ck_assert(o.cfg.tag_neighbour_distinct && o.cfg.rtl && o.cfg.quiet);
    ck_assert_uint_eq(o.cfg.tag_quarantine, GA_RT_QUARANTINE_MAX);
    ck_assert_str_eq(o.cfg.trace_out, "t.gatrace.gz");
    ck_assert_uint_eq(o.error_exitcode, 255);
    ck_assert_str_eq(o.log_file, "log.%p");
    ck_assert_uint_eq(o.cfg.print_limit, 0);
    ck_assert_str_eq(o.cfg.json_out, "r.json");
    ck_assert_str_eq(o.cfg.ptx_dump_dir, "dumps");
    ck_assert_ptr_null(o.cfg.log); /* the library opens the log */
    ck_assert(!o.help && !o.version);
    for (int i = 0; i < GR_OPT_COUNT; i++)
        if (i != GR_OPT_HELP && i != GR_OPT_VERSION)
            ck_assert_msg(o.set & (1u << i), "%s not marked set", gr_opt_info((gr_opt_id_t)i)->name);
    /* Other words and forms. */
    const char *more[] = {"--mode=compiler", "--layout", "list", "--mode", "off", "--policy=report", "--tag-bits=7",
                          "--stack-size", "64k", "--seed", "12345", NULL};
    opts_init(&o);
    ck_assert_int_eq(parse_list(&o, more, msg, sizeof msg), 0);
    ck_assert_int_eq(o.cfg.armor, EMU_ARMOR_OFF); /* the later one wins */
    ck_assert_int_eq(o.cfg.layout, GA_LAYOUT_LIST);
    ck_assert_int_eq(o.cfg.policy, GA_POLICY_REPORT);
    ck_assert_uint_eq(o.cfg.tag_bits, 7);
    ck_assert_uint_eq(o.cfg.stack_bytes, 65536);
    ck_assert(o.cfg.seed == 12345);
    /* Nothing given: nothing changes. */
    opts_init(&o);
    gr_opts_t before = o;
    ck_assert_int_eq(gr_opts_parse(&o, 0, NULL, 0, GR_OPTS_LIBRARY, msg, sizeof msg), 0);
    ck_assert(memcmp(&o.cfg, &before.cfg, sizeof o.cfg) == 0 && o.set == 0);
}
END_TEST

/* Each bad item: exit status 2 and a message naming the option and echoing the value. */
static const struct {
    const char *opt, *val, *word;
} bad_values[] = {
    {"--mode", "fast", "compiler, hwonly, off"},
    {"--mode", "", "got ''"},
    {"--layout", "tree", "list, bst, table"},
    {"--mlb", "0", "1..64"},
    {"--mlb", "65", "1..64"},
    {"--mlb", "-1", "got '-1'"},
    {"--mlb", "+8", "got '+8'"},
    {"--mlb", "8x", "got '8x'"},
    {"--mlb", " 8", "got ' 8'"},
    {"--mlb", "0x", "got '0x'"},
    {"--tag-bits", "8", "7, 16"},
    {"--policy", "abort", "report, terminate"},
    {"--seed", "18446744073709551616", "got '18446744073709551616'"},
    {"--seed", "0x10000000000000000", "0..18446744073709551615"},
    {"--sms", "0", "1..128"},
    {"--sms", "129", "1..128"},
    {"--step-limit", "0", "1..4294967295"},
    {"--step-limit", "4294967296", "1..4294967295"},
    {"--max-instructions", "-5", "got '-5'"},
    {"--stack-size", "8", "16..4294967295"},
    {"--stack-size", "4G", "got '4G'"},
    {"--stack-size", "4096M", "got '4096M'"},
    {"--stack-size", "K", "got 'K'"},
    {"--tag-quarantine", "1048577", "0..1048576"},
    {"--error-exitcode", "0", "5..255"},
    {"--error-exitcode", "4", "5..255"},
    {"--error-exitcode", "256", "5..255"},
    {"--print-limit", "4294967296", "0..4294967295"},
    {"--trace-out", "", "file name"},
    {"--log-file", "", "file name"},
    {"--json", "", "file name"},
    {"--ptx-dump", "", "directory"},
    {"--trace-out", "a\x1f" "b", "0x1f"},
};

START_TEST(test_opts_bad_values)
{
    for (size_t i = 0; i < sizeof bad_values / sizeof bad_values[0]; i++) {
        gr_opts_t o;
        char msg[256] = "";
        opts_init(&o);
        const char *items[] = {bad_values[i].opt, bad_values[i].val, NULL};
        ck_assert_int_eq(parse_list(&o, items, msg, sizeof msg), 2);
        ck_assert_msg(strstr(msg, bad_values[i].opt) == msg, "%s %s: '%s'", bad_values[i].opt, bad_values[i].val, msg);
        ck_assert_msg(strstr(msg, bad_values[i].word) != NULL, "%s %s: '%s' lacks '%s'", bad_values[i].opt,
                      bad_values[i].val, msg, bad_values[i].word);
        /* The same through the = form. */
        char joined[128];
        snprintf(joined, sizeof joined, "%s=%s", bad_values[i].opt, bad_values[i].val);
        const char *eq[] = {joined, NULL};
        opts_init(&o);
        ck_assert_int_eq(parse_list(&o, eq, msg, sizeof msg), 2);
    }
}
END_TEST

START_TEST(test_opts_bad_forms)
{
    gr_opts_t o;
    char msg[256];
    const char *cases[][3] = {
        {"--bogus", NULL, "unknown option '--bogus'"},
        {"--mlb", NULL, "--mlb: expected a value (N), got nothing"},
        {"--quiet=1", NULL, "--quiet takes no value"},
        {"-q", NULL, "expected an option (--name), got '-q'"},
        {"prog", NULL, "expected an option (--name), got 'prog'"},
        {"--help", NULL, "--help is an option of gpuarmor-run only"},
        {"--version", NULL, "--version is an option of gpuarmor-run only"},
        {"--mlb-entries=3", NULL, "unknown option '--mlb-entries'"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        opts_init(&o);
        msg[0] = '\0';
        ck_assert_int_eq(parse_list(&o, cases[i], msg, sizeof msg), 2);
        ck_assert_msg(strstr(msg, cases[i][2]) != NULL, "'%s' lacks '%s'", msg, cases[i][2]);
    }
}
END_TEST

START_TEST(test_opts_launcher)
{
    gr_opts_t o;
    char msg[256];
    char *a1[] = {"gpuarmor-run", "--mlb", "4", "./prog", "--mlb", "x", NULL};
    opts_init(&o);
    ck_assert_int_eq(gr_opts_parse(&o, 6, a1, 1, GR_OPTS_LAUNCHER, msg, sizeof msg), 0);
    ck_assert_int_eq(o.prog, 3); /* the program's own arguments are not ours */
    ck_assert_uint_eq(o.cfg.mlb_entries, 4);
    char *a2[] = {"gpuarmor-run", "--quiet", "--", "--weird-program-name", NULL};
    opts_init(&o);
    ck_assert_int_eq(gr_opts_parse(&o, 4, a2, 1, GR_OPTS_LAUNCHER, msg, sizeof msg), 0);
    ck_assert_int_eq(o.prog, 3);
    char *a3[] = {"gpuarmor-run", "--quiet", NULL};
    opts_init(&o);
    ck_assert_int_eq(gr_opts_parse(&o, 2, a3, 1, GR_OPTS_LAUNCHER, msg, sizeof msg), 0);
    ck_assert_int_eq(o.prog, 2); /* none: argc */
    char *a4[] = {"gpuarmor-run", "--help", "--version", NULL};
    opts_init(&o);
    ck_assert_int_eq(gr_opts_parse(&o, 3, a4, 1, GR_OPTS_LAUNCHER, msg, sizeof msg), 0);
    ck_assert(o.help && o.version);
    char *a5[] = {"gpuarmor-run", "--sms", "0", "./prog", NULL};
    opts_init(&o);
    ck_assert_int_eq(gr_opts_parse(&o, 4, a5, 1, GR_OPTS_LAUNCHER, msg, sizeof msg), 2);
    char *a6[] = {"gpuarmor-run", "--", NULL};
    opts_init(&o);
    ck_assert_int_eq(gr_opts_parse(&o, 2, a6, 1, GR_OPTS_LAUNCHER, msg, sizeof msg), 0);
    ck_assert_int_eq(o.prog, 2);
}
END_TEST

START_TEST(test_opts_round_trip)
{
    gr_opts_t o, back;
    char msg[256], enc[1024], buf[1024], *argv[64];
    char *a[] = {"gpuarmor-run", "--mode=hwonly", "--layout", "list", "--mlb", "0x10", "--tag-bits", "16",
                 "--policy", "terminate", "--seed", "99", "--sms", "7", "--step-limit", "100",
                 "--max-instructions", "123456789012", "--stack-size", "1K", "--tag-neighbour-distinct",
                 "--tag-quarantine", "5", "--rtl", "--trace-out", "/t/x y.gatrace", "--error-exitcode", "9",
                 "--log-file", "/l/%p.log", "--print-limit", "3", "--json", "/j.json", "--ptx-dump", "/d",
                 "--quiet", "--help", "prog", NULL};
    int argc = (int)(sizeof a / sizeof a[0]) - 1;
    opts_init(&o);
    ck_assert_int_eq(gr_opts_parse(&o, argc, a, 1, GR_OPTS_LAUNCHER, msg, sizeof msg), 0);
    int need = gr_opts_encode(&o, NULL, 0);
    ck_assert_int_gt(need, 0);
    ck_assert_int_eq(gr_opts_encode(&o, enc, sizeof enc), need);
    ck_assert_uint_eq(strlen(enc), (size_t)need);
    ck_assert(strstr(enc, "--help") == NULL); /* launcher-only */
    ck_assert(strstr(enc, "--mlb\x1f" "16") != NULL); /* canonical: decimal */
    int n = gr_opts_split(enc, buf, sizeof buf, argv, 64);
    ck_assert_int_gt(n, 0);
    opts_init(&back);
    ck_assert_int_eq(gr_opts_parse(&back, n, argv, 0, GR_OPTS_LIBRARY, msg, sizeof msg), 0);
    ck_assert_int_eq(back.cfg.armor, o.cfg.armor);
    ck_assert_int_eq(back.cfg.layout, o.cfg.layout);
    ck_assert_uint_eq(back.cfg.mlb_entries, 16);
    ck_assert_uint_eq(back.cfg.tag_bits, 16);
    ck_assert_int_eq(back.cfg.policy, o.cfg.policy);
    ck_assert(back.cfg.seed == 99 && back.cfg.sms == 7 && back.cfg.step_limit == 100);
    ck_assert(back.cfg.max_instructions == UINT64_C(123456789012));
    ck_assert_uint_eq(back.cfg.stack_bytes, 1024);
    ck_assert(back.cfg.tag_neighbour_distinct && back.cfg.rtl && back.cfg.quiet);
    ck_assert_uint_eq(back.cfg.tag_quarantine, 5);
    ck_assert_str_eq(back.cfg.trace_out, "/t/x y.gatrace");
    ck_assert_uint_eq(back.error_exitcode, 9);
    ck_assert_str_eq(back.log_file, "/l/%p.log");
    ck_assert_uint_eq(back.cfg.print_limit, 3);
    ck_assert_str_eq(back.cfg.json_out, "/j.json");
    ck_assert_str_eq(back.cfg.ptx_dump_dir, "/d");
    ck_assert_uint_eq(back.set, o.set & ~((1u << GR_OPT_HELP) | (1u << GR_OPT_VERSION)));
    /* A short buffer: the full length is still returned, the buffer holds whole items only. */
    char small[14];
    ck_assert_int_eq(gr_opts_encode(&o, small, sizeof small), need);
    ck_assert_str_eq(small, "--mode\x1fhwonly"); /* 13 bytes and the NUL */
    ck_assert_int_eq(gr_opts_encode(&o, small, 13), need);
    ck_assert_str_eq(small, "--mode"); /* the value does not fit: left out whole */
    ck_assert_int_eq(gr_opts_encode(&o, buf, (size_t)need + 1), need);
    ck_assert_str_eq(buf, enc);
    /* A value that holds the separator cannot be encoded. */
    o.cfg.json_out = "a\x1f" "b";
    ck_assert_int_eq(gr_opts_encode(&o, enc, sizeof enc), -1);
    /* Nothing set: the empty string, which splits into nothing. */
    opts_init(&o);
    ck_assert_int_eq(gr_opts_encode(&o, enc, sizeof enc), 0);
    ck_assert_str_eq(enc, "");
    ck_assert_int_eq(gr_opts_split("", buf, sizeof buf, argv, 64), 0);
    ck_assert_int_eq(gr_opts_split("a\x1f" "b\x1f" "c", buf, sizeof buf, argv, 2), -1); /* too many items */
    ck_assert_int_eq(gr_opts_split("abcdef", buf, 4, argv, 64), -1);                   /* buffer too small */
    ck_assert_int_eq(gr_opts_split("a\x1f\x1f" "b", buf, sizeof buf, argv, 64), 3);     /* an empty item */
    ck_assert_str_eq(argv[1], "");
    ck_assert_ptr_null(gr_opt_info(GR_OPT_COUNT));
    ck_assert_str_eq(gr_opt_info(GR_OPT_MLB)->name, "--mlb");
}
END_TEST

/* ---- errors ------------------------------------------------------------------------------------- */

START_TEST(test_error_table)
{
    ck_assert_str_eq(gr_error_name(0), "cudaSuccess");
    ck_assert_str_eq(gr_error_string(0), "no error");
    ck_assert_str_eq(gr_error_name(1), "cudaErrorInvalidValue");
    ck_assert_str_eq(gr_error_string(1), "invalid argument");
    ck_assert_str_eq(gr_error_string(2), "out of memory");
    ck_assert_str_eq(gr_error_name(700), "cudaErrorIllegalAddress");
    ck_assert_str_eq(gr_error_string(700), "an illegal memory access was encountered");
    ck_assert_str_eq(gr_error_string(719), "unspecified launch failure");
    ck_assert_str_eq(gr_error_name(999), "cudaErrorUnknown");
    ck_assert_str_eq(gr_error_name(10), "unrecognized error code"); /* a hole in the enum */
    ck_assert_str_eq(gr_error_string(1000), "unrecognized error code");
    ck_assert_str_eq(gr_error_name(-1), "unrecognized error code");
    /* Values are unique, names start with "cuda", every value has a message. */
    size_t n = gr_error_count();
    ck_assert_uint_gt(n, 100);
    for (size_t i = 0; i < n; i++) {
        int v = gr_error_value(i);
        ck_assert(strncmp(gr_error_name(v), "cuda", 4) == 0);
        ck_assert(strcmp(gr_error_string(v), "unrecognized error code") != 0);
        for (size_t j = i + 1; j < n; j++)
            ck_assert_int_ne(v, gr_error_value(j));
    }
    ck_assert_int_eq(gr_error_value(n), -1);
}
END_TEST

/* Every enumerator of the toolkit's enum cudaError (driver_types.h, extracted at build time) is in
 * the table with its own name: the committed table is not behind the toolkit. */
START_TEST(test_error_table_matches_toolkit)
{
    size_t seen = 0;
#define GR_ENUM(v, n)                                                                                 \
    ck_assert_msg(strcmp(gr_error_name(v), #n) == 0, "%d: %s, want %s", v, gr_error_name(v), #n); \
    seen++;
#include "gr_errenum.inc"
#undef GR_ENUM
    if (seen == 0)
        fprintf(stderr, "test_cudart: the CUDA toolkit's driver_types.h was not found at build time: "
                        "the table was not compared with it\n");
    else
        ck_assert_uint_eq(seen, gr_error_count());
}
END_TEST

START_TEST(test_status_mapping)
{
    static const struct {
        emu_status_t s;
        gr_op_t op;
        bool bad;
        int err;
        bool sticky, stop;
    } cases[] = {
        {EMU_OK, GR_OP_LAUNCH, false, GR_E_SUCCESS, false, false},
        {EMU_ERR_INVALID_VALUE, GR_OP_MEMORY, false, GR_E_INVALID_VALUE, false, false},
        {EMU_ERR_NO_MEMORY, GR_OP_MEMORY, false, GR_E_MEMORY_ALLOCATION, false, false},
        {EMU_ERR_INVALID_POINTER, GR_OP_MEMORY, false, GR_E_INVALID_VALUE, false, false},
        {EMU_ERR_BAD_FREE, GR_OP_MEMORY, false, GR_E_INVALID_VALUE, false, false},
        {EMU_ERR_INVALID_CONFIG, GR_OP_LAUNCH, false, GR_E_INVALID_CONFIGURATION, false, false},
        {EMU_ERR_LAUNCH_FAILED, GR_OP_LAUNCH, true, GR_E_ILLEGAL_ADDRESS, true, false},
        {EMU_ERR_LAUNCH_FAILED, GR_OP_LAUNCH, false, GR_E_LAUNCH_FAILURE, true, false},
        {EMU_ERR_TIMEOUT, GR_OP_LAUNCH, false, GR_E_LAUNCH_TIMEOUT, true, false},
        {EMU_ERR_STACK_OVERFLOW, GR_OP_LAUNCH, false, GR_E_HARDWARE_STACK_ERROR, true, false},
        {EMU_ERR_NOT_FOUND, GR_OP_SYMBOL, false, GR_E_INVALID_SYMBOL, false, false},
        {EMU_ERR_NOT_FOUND, GR_OP_LAUNCH, false, GR_E_INVALID_DEVICE_FUNCTION, false, false},
        {EMU_ERR_UNSUPPORTED, GR_OP_LAUNCH, false, GR_E_NOT_SUPPORTED, false, true},
        {EMU_ERR_INVALID_PTX, GR_OP_LAUNCH, false, GR_E_INVALID_PTX, false, true},
        {EMU_ERR_INTERNAL, GR_OP_MEMORY, false, GR_E_UNKNOWN, false, true},
        {(emu_status_t)77, GR_OP_MEMORY, false, GR_E_UNKNOWN, false, true},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        gr_mapped_t m = gr_map_status(cases[i].s, cases[i].op, cases[i].bad);
        ck_assert_msg(m.err == cases[i].err && m.sticky == cases[i].sticky && m.stop == cases[i].stop,
                      "case %zu: %d %d %d", i, m.err, m.sticky, m.stop);
        ck_assert(strcmp(gr_error_name(m.err), "unrecognized error code") != 0);
    }
}
END_TEST

/* ---- the handle map ----------------------------------------------------------------------------- */

START_TEST(test_map)
{
    gr_map_t m;
    gr_map_init(&m);
    uint64_t v = 0;
    ck_assert(!gr_map_get(&m, 5, &v));
    ck_assert(!gr_map_del(&m, 5));
    ck_assert(!gr_map_put(&m, 0, 1));
    ck_assert(!gr_map_put(&m, GR_MAP_DEAD, 1));
    /* Many keys of the shape of aligned pointers, then every other one removed and re-added. */
    const uint64_t n = 5000;
    for (uint64_t i = 1; i <= n; i++)
        ck_assert(gr_map_put(&m, i << 8, i));
    ck_assert_uint_eq(m.live, n);
    for (uint64_t i = 1; i <= n; i++) {
        ck_assert(gr_map_get(&m, i << 8, &v));
        ck_assert(v == i);
    }
    ck_assert(!gr_map_get(&m, (n + 1) << 8, NULL));
    for (uint64_t i = 1; i <= n; i += 2)
        ck_assert(gr_map_del(&m, i << 8));
    ck_assert_uint_eq(m.live, n / 2);
    for (uint64_t i = 1; i <= n; i++)
        ck_assert(gr_map_get(&m, i << 8, NULL) == (i % 2 == 0));
    ck_assert(gr_map_put(&m, 2 << 8, 77)); /* overwrite */
    ck_assert(gr_map_get(&m, 2 << 8, &v) && v == 77);
    ck_assert_uint_eq(m.live, n / 2);
    /* Churn: tombstones never fill the table. */
    for (uint64_t r = 0; r < 20000; r++) {
        ck_assert(gr_map_put(&m, (n + 10 + r) << 8, r));
        ck_assert(gr_map_del(&m, (n + 10 + r) << 8));
    }
    ck_assert_uint_eq(m.live, n / 2);
    size_t pos = 0, count = 0;
    uint64_t k;
    while (gr_map_next(&m, &pos, &k, &v)) {
        ck_assert(k % 512 == 0);
        ck_assert(gr_map_del(&m, k)); /* removal while iterating */
        count++;
    }
    ck_assert_uint_eq(count, n / 2);
    ck_assert_uint_eq(m.live, 0);
    gr_map_put(&m, 9, 9);
    gr_map_clear(&m);
    ck_assert(!gr_map_get(&m, 9, NULL));
    gr_map_free(&m);
    ck_assert(!gr_map_get(&m, 9, NULL));
}
END_TEST

static Suite *cudart_suite(void)
{
    Suite *s = suite_create("cudart");
    TCase *tc = tcase_create("fatbin");
    tcase_add_test(tc, test_fatbin_valid);
    tcase_add_test(tc, test_fatbin_choice);
    tcase_add_test(tc, test_fatbin_unusable);
    tcase_add_test(tc, test_fatbin_malformed);
    tcase_add_test(tc, test_fatbin_every_truncation);
    tcase_add_test(tc, test_wrapper);
    suite_add_tcase(s, tc);
    tc = tcase_create("options");
    tcase_add_test(tc, test_opts_every_option);
    tcase_add_test(tc, test_opts_bad_values);
    tcase_add_test(tc, test_opts_bad_forms);
    tcase_add_test(tc, test_opts_launcher);
    tcase_add_test(tc, test_opts_round_trip);
    suite_add_tcase(s, tc);
    tc = tcase_create("errors");
    tcase_add_test(tc, test_error_table);
    tcase_add_test(tc, test_error_table_matches_toolkit);
    tcase_add_test(tc, test_status_mapping);
    suite_add_tcase(s, tc);
    tc = tcase_create("map");
    tcase_add_test(tc, test_map);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(cudart_suite());
    srunner_run_all(sr, CK_ENV);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
