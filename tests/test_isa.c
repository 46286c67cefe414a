/*
 * test_isa.c — one source of truth for the encodings: cmodel/ga_isa.def and cmodel/ga_layouts.def
 * against every copy in the tree (rtl/ga_pkg.sv, tb/cosim/tb_common.h, fpga/host/gab_proto.h), plus
 * the model's own use of them (register rules, the walk-end -> exception mapping of spec §5.4, the
 * geometry of every layout module).
 *
 * The copies are read as text from the repository (the test runs from its root, as
 * scripts/run_tests.sh does): every `PREFIX_NAME = value` of a family must name an entry of the .def
 * with the same value, and every entry of the .def must be there. A copy that drifts fails here with
 * its file, name and both values.
 */
#include <check.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ga_layout.h"
#include "ga_types.h"

#define REQUIRE(cond, ...)                                                                           \
    do {                                                                                             \
        if (!(cond)) ck_abort_msg(__VA_ARGS__);                                                      \
    } while (0)

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    REQUIRE(f != NULL, "%s: cannot open (run the test from the repository root)", path);
    REQUIRE(fseek(f, 0, SEEK_END) == 0, "%s: seek", path);
    long n = ftell(f);
    REQUIRE(n >= 0 && fseek(f, 0, SEEK_SET) == 0, "%s: size", path);
    char *b = malloc((size_t)n + 1u);
    REQUIRE(b != NULL, "oom");
    REQUIRE(fread(b, 1, (size_t)n, f) == (size_t)n, "%s: read", path);
    b[n] = '\0';
    fclose(f);
    return b;
}

/* A number as C or SystemVerilog writes it: 12, 0x1F, 3'd4, 1'b1, 32'd65536, 8'hFF. */
static bool parse_num(const char *s, uint64_t *v)
{
    const char *q = s;
    while (isdigit((unsigned char)*q)) q++;
    int base = 10;
    if (*q == '\'') {
        char r = (char)tolower((unsigned char)q[1]);
        base = r == 'd' ? 10 : r == 'b' ? 2 : r == 'h' ? 16 : 0;
        if (base == 0) return false;
        s = q + 2;
    } else if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        base = 16;
        s += 2;
    }
    char *end;
    unsigned long long x = strtoull(s, &end, base);
    if (end == s) return false;
    *v = x;
    return true;
}

typedef struct {
    char name[64];
    uint64_t value;
} found_t;

/* Every `<prefix><NAME> = <number>` in text (NAME: [A-Z0-9_]+ right after the prefix, the prefix not
 * preceded by an identifier character). Returns the count (at most cap). */
static size_t scan(const char *text, const char *prefix, found_t *out, size_t cap)
{
    size_t n = 0, pl = strlen(prefix);
    for (const char *p = strstr(text, prefix); p != NULL; p = strstr(p + 1, prefix)) {
        if (p > text && (isalnum((unsigned char)p[-1]) || p[-1] == '_')) continue;
        const char *q = p + pl;
        size_t k = 0;
        char name[64];
        while ((isupper((unsigned char)q[k]) || isdigit((unsigned char)q[k]) || q[k] == '_') && k < sizeof name - 1) {
            name[k] = q[k];
            k++;
        }
        if (k == 0 || isalnum((unsigned char)q[k]) || q[k] == '_') continue;
        name[k] = '\0';
        const char *r = q + k;
        while (*r == ' ' || *r == '\t') r++;
        if (*r != '=') continue;
        r++;
        while (*r == ' ' || *r == '\t') r++;
        uint64_t v;
        if (!parse_num(r, &v)) continue;
        if (n < cap) {
            snprintf(out[n].name, sizeof out[n].name, "%s", name);
            out[n].value = v;
        }
        n++;
    }
    return n;
}

/* The .def's entries of family fam (NULL when the family is the layout list). */
static bool def_value(const char *fam, const char *name, uint64_t *v)
{
    const ga_isa_entry_t *e;
    size_t n = ga_isa_entries(&e);
    for (size_t i = 0; i < n; i++)
        if (strcmp(e[i].family, fam) == 0 && strcmp(e[i].name, name) == 0) {
            *v = e[i].value;
            return true;
        }
    return false;
}

/* Register addresses: family "CFG" is the GA_REG addresses. */
static bool reg_value(const char *name, uint64_t *v)
{
    for (unsigned a = 0; a < (unsigned)GA_CFG_REGS; a++) {
        ga_cfg_reg_t r;
        if (ga_cfg_reg(a, &r) && strcmp(r.name, name) == 0) {
            *v = a;
            return true;
        }
    }
    return false;
}

static unsigned def_count(const char *fam)
{
    if (strcmp(fam, "CFG") == 0) return (unsigned)GA_CFG_REGS;
    const ga_isa_entry_t *e;
    size_t n = ga_isa_entries(&e);
    unsigned c = 0;
    for (size_t i = 0; i < n; i++) c += strcmp(e[i].family, fam) == 0;
    return c;
}

/* The copy's family (prefix in file) must equal the .def's family fam, name by name, both ways. */
static void compare(const char *file, const char *text, const char *prefix, const char *fam)
{
    found_t f[64];
    size_t n = scan(text, prefix, f, 64);
    REQUIRE(n <= 64, "%s: too many %s names", file, prefix);
    unsigned distinct = 0;
    for (size_t i = 0; i < n; i++) {
        uint64_t v;
        bool have = strcmp(fam, "CFG") == 0 ? reg_value(f[i].name, &v) : def_value(fam, f[i].name, &v);
        REQUIRE(have, "%s: %s%s is not in cmodel/ga_isa.def", file, prefix, f[i].name);
        REQUIRE(v == f[i].value, "%s: %s%s = %llu, cmodel/ga_isa.def says %llu", file, prefix, f[i].name,
                (unsigned long long)f[i].value, (unsigned long long)v);
        bool dup = false;
        for (size_t j = 0; j < i; j++) dup |= strcmp(f[j].name, f[i].name) == 0;
        distinct += !dup;
    }
    REQUIRE(distinct == def_count(fam), "%s: %u %s names, cmodel/ga_isa.def has %u", file, distinct, prefix,
            def_count(fam));
}

START_TEST(test_rtl_package)
{
    const char *file = "rtl/ga_pkg.sv";
    char *t = slurp(file);
    static const char *const fams[][2] = {{"OP_", "OP"},     {"RSP_", "RSP"},       {"EXC_", "EXC"},
                                          {"EV_", "EV"},     {"CFG_", "CFG"},       {"MODE_", "MODE"},
                                          {"POLICY_", "POLICY"}, {"WALK_", "WALK"}, {"MD_", "MD"}};
    for (size_t i = 0; i < sizeof fams / sizeof fams[0]; i++) compare(file, t, fams[i][0], fams[i][1]);
    /* Widths: `localparam int <Name>W = bits;`. LAYOUT may be narrower while some layout is not in the
     * RTL yet (ga_layouts.def's rtl column), but must hold every layout the RTL has. */
    const ga_isa_entry_t *e;
    size_t ne = ga_isa_entries(&e);
    bool all_rtl = true;
    unsigned max_rtl = 0;
    for (unsigned l = 0; l < (unsigned)GA_LAYOUTS; l++) {
        all_rtl &= ga_layout_in_rtl((ga_layout_t)l);
        if (ga_layout_in_rtl((ga_layout_t)l)) max_rtl = l;
    }
    for (size_t i = 0; i < ne; i++) {
        if (strcmp(e[i].family, "W") != 0) continue;
        char pat[80];
        snprintf(pat, sizeof pat, "%sW", e[i].name);
        char needle[96];
        snprintf(needle, sizeof needle, "int %s ", pat);
        const char *at = strstr(t, needle);
        REQUIRE(at != NULL, "%s: no localparam int %s", file, pat);
        uint64_t w = 0;
        const char *eq = strchr(at, '=');
        REQUIRE(eq != NULL && parse_num(eq + 1 + strspn(eq + 1, " "), &w), "%s: %s value", file, pat);
        if (strcmp(e[i].name, "Layout") == 0 && !all_rtl)
            REQUIRE((UINT64_C(1) << w) > max_rtl, "%s: LayoutW %llu cannot hold layout %u", file,
                    (unsigned long long)w, max_rtl);
        else
            REQUIRE(w == e[i].value, "%s: %s = %llu, cmodel/ga_isa.def says %llu", file, pat, (unsigned long long)w,
                    (unsigned long long)e[i].value);
    }
    /* Layout codes: every LAYOUT_<NAME> is ga_layouts.def's, and every layout the RTL has is there. */
    found_t f[16];
    size_t n = scan(t, "LAYOUT_", f, 16);
    unsigned seen = 0;
    for (size_t i = 0; i < n && i < 16; i++) {
        char lower[64];
        size_t k = 0;
        for (; f[i].name[k] != '\0'; k++) lower[k] = (char)tolower((unsigned char)f[i].name[k]);
        lower[k] = '\0';
        ga_layout_t l;
        REQUIRE(ga_layout_parse(lower, &l), "%s: LAYOUT_%s is not in cmodel/ga_layouts.def", file, f[i].name);
        REQUIRE((uint64_t)l == f[i].value, "%s: LAYOUT_%s = %llu, ga_layouts.def says %u", file, f[i].name,
                (unsigned long long)f[i].value, (unsigned)l);
        REQUIRE(ga_layout_in_rtl(l), "%s: LAYOUT_%s exists but ga_layouts.def says the RTL lacks it", file, f[i].name);
        seen++;
    }
    unsigned rtl_layouts = 0;
    for (unsigned l = 0; l < (unsigned)GA_LAYOUTS; l++) rtl_layouts += ga_layout_in_rtl((ga_layout_t)l);
    REQUIRE(seen == rtl_layouts, "%s: %u LAYOUT_ codes, ga_layouts.def marks %u as in the RTL", file, seen, rtl_layouts);
    /* Reset value of STEP_LIMIT. */
    ga_cfg_reg_t r;
    REQUIRE(ga_cfg_reg(GA_CFG_STEP_LIMIT, &r), "STEP_LIMIT");
    n = scan(t, "STEP_LIMIT_", f, 16);
    bool reset_seen = false;
    for (size_t i = 0; i < n && i < 16; i++)
        if (strcmp(f[i].name, "RESET") == 0) {
            REQUIRE(f[i].value == r.reset, "%s: STEP_LIMIT_RESET = %llu, cmodel/ga_isa.def says %llu", file,
                    (unsigned long long)f[i].value, (unsigned long long)r.reset);
            reset_seen = true;
        }
    REQUIRE(reset_seen, "%s: no STEP_LIMIT_RESET", file);
    free(t);
}
END_TEST

START_TEST(test_cosim_and_board)
{
    char *t = slurp("tb/cosim/tb_common.h");
    compare("tb/cosim/tb_common.h", t, "TB_OP_", "OP");
    compare("tb/cosim/tb_common.h", t, "TB_ST_", "RSP");
    compare("tb/cosim/tb_common.h", t, "TB_EV_", "EV");
    compare("tb/cosim/tb_common.h", t, "TB_CFG_", "CFG");
    free(t);
    t = slurp("fpga/host/gab_proto.h");
    compare("fpga/host/gab_proto.h", t, "GAB_OP_", "OP");
    compare("fpga/host/gab_proto.h", t, "GAB_RSP_", "RSP");
    compare("fpga/host/gab_proto.h", t, "GAB_CFG_", "CFG");
    free(t);
}
END_TEST

/* The scanner itself can fail: a drifted copy is caught. */
START_TEST(test_scanner_catches_drift)
{
    found_t f[8];
    const char *txt = "localparam logic [2:0] OP_LOADMETA = 3'd1; X_OP_FLUSH = 5; OP_FLUSH=8'h5 OP_ACCESSX\n";
    size_t n = scan(txt, "OP_", f, 8);
    ck_assert_uint_eq(n, 2);
    ck_assert_str_eq(f[0].name, "LOADMETA");
    ck_assert_uint_eq(f[0].value, 1);
    ck_assert_str_eq(f[1].name, "FLUSH");
    ck_assert_uint_eq(f[1].value, 5);
    uint64_t v;
    ck_assert(def_value("OP", "LOADMETA", &v) && v != f[0].value); /* compare() would abort */
}
END_TEST

/* The model uses the .def: register legality, reset values, walk-end mapping. */
START_TEST(test_model_rules)
{
    ga_cfg_reg_t r;
    ck_assert(ga_cfg_reg(GA_CFG_LAYOUT, &r));
    ck_assert_str_eq(r.name, "LAYOUT");
    ck_assert_uint_eq(r.bits, GA_LAYOUT_BITS);
    ck_assert_uint_eq(r.hi, GA_LAYOUTS - 1); /* ga_isa.def agrees with ga_layouts.def */
    ck_assert_uint_eq(r.reset, GA_LAYOUT_BST);
    ck_assert(ga_cfg_legal(GA_CFG_LAYOUT, GA_LAYOUT_INDEX));
    ck_assert(!ga_cfg_legal(GA_CFG_LAYOUT, GA_LAYOUTS));
    ck_assert(!ga_cfg_legal(GA_CFG_STEP_LIMIT, 0));
    ck_assert(ga_cfg_legal(GA_CFG_STEP_LIMIT, UINT32_MAX));
    ck_assert(!ga_cfg_legal(GA_CFG_STEP_LIMIT, UINT64_C(1) << 32));
    ck_assert(ga_cfg_legal(GA_CFG_ROOT, UINT64_MAX));
    ck_assert(!ga_cfg_legal(GA_CFG_MODE, 2));
    ck_assert(!ga_cfg_legal(GA_CFG_REGS, 0));
    ck_assert(!ga_cfg_reg(GA_CFG_REGS, &r));
    ck_assert(ga_cfg_reg(GA_CFG_STEP_LIMIT, &r));
    ck_assert_uint_eq(r.reset, 65536);
    /* spec §5.4 */
    ck_assert_int_eq(ga_walk_exc(GA_WALK_RANGE_ONLY, true), GA_EXC_USE_AFTER_FREE);
    ck_assert_int_eq(ga_walk_exc(GA_WALK_RANGE_ONLY, false), GA_EXC_TAG_MISMATCH);
    ck_assert_int_eq(ga_walk_exc(GA_WALK_NOT_FOUND, false), GA_EXC_NO_METADATA);
    ck_assert_int_eq(ga_walk_exc(GA_WALK_STEP_LIMIT, false), GA_EXC_METADATA_FAULT);
    ck_assert_int_eq(ga_walk_exc(GA_WALK_FAULT, true), GA_EXC_METADATA_FAULT);
    ck_assert_int_eq(ga_walk_exc(GA_WALK_FOUND, false), GA_EXC_NONE);
    ck_assert_int_eq(ga_walk_exc(GA_WALK_ENDS, false), GA_EXC_NONE);
    /* Layout names and the help list come from ga_layouts.def. */
    char buf[64];
    ck_assert_uint_eq(ga_layout_list(buf, sizeof buf, ", ", " or ", false), strlen("list, bst, table or index"));
    ck_assert_str_eq(buf, "list, bst, table or index");
    ga_layout_list(buf, sizeof buf, " ", " ", true);
    ck_assert_str_eq(buf, "list bst table");
    ck_assert_uint_eq(ga_layout_list(buf, 5, " ", " ", false), strlen("list bst table index"));
    ck_assert_str_eq(buf, "list");
    ga_layout_t l = GA_LAYOUT_BST;
    ck_assert(ga_layout_parse("index", &l) && l == GA_LAYOUT_INDEX);
    ck_assert(!ga_layout_parse("Index", &l) && l == GA_LAYOUT_INDEX);
    ck_assert(!ga_layout_parse("inde", &l));
    ck_assert(!ga_layout_parse(NULL, &l));
    ck_assert_str_eq(ga_layout_title(GA_LAYOUT_INDEX), "B+-tree index");
}
END_TEST

/* Every layout module's geometry is consistent (ga_layout.h): slots lie inside the region, aligned to
 * their size, in increasing order, and the region's base alignment keeps them so. */
START_TEST(test_layout_registry)
{
    static const uint32_t caps[] = {1, 2, 5, 64, 1000, 1u << 20};
    for (unsigned l = 0; l < (unsigned)GA_LAYOUTS; l++) {
        const ga_layout_ops_t *o = ga_layout_ops((ga_layout_t)l);
        REQUIRE(o != NULL && o->code == (ga_layout_t)l, "layout %u: no table or a wrong code", l);
        REQUIRE(o->walk && o->ref_search && o->w_create && o->w_destroy && o->w_reserve && o->w_insert &&
                    o->w_remove && o->w_flush && o->w_root && o->w_stats && o->md_bytes && o->slot_offset,
                "layout %s: an operation is missing", ga_layout_name((ga_layout_t)l));
        REQUIRE(o->slot_bytes >= GA_ENTRY_BYTES && o->md_align % o->slot_bytes == 0u && o->md_align % 16u == 0u,
                "layout %s: slot size %u, alignment %u", ga_layout_name((ga_layout_t)l), o->slot_bytes, o->md_align);
        for (size_t k = 0; k < sizeof caps / sizeof caps[0]; k++) {
            uint32_t c = caps[k];
            uint64_t len = o->md_bytes(c), prev = 0;
            REQUIRE(len > 0u, "layout %s: no region for %u slots", ga_layout_name((ga_layout_t)l), c);
            REQUIRE(ga_layout_md_bytes((ga_layout_t)l, c) == len, "ga_layout_md_bytes");
            uint32_t probe[3] = {0, c / 2u, c - 1u};
            for (int j = 0; j < 3; j++) {
                uint64_t off = o->slot_offset(c, probe[j]);
                REQUIRE(off % o->slot_bytes == 0u && off + o->slot_bytes <= len && (j == 0 || off >= prev),
                        "layout %s, %u slots: slot %u at +%llu of %llu", ga_layout_name((ga_layout_t)l), c, probe[j],
                        (unsigned long long)off, (unsigned long long)len);
                prev = off;
            }
        }
    }
    ck_assert_ptr_null(ga_layout_ops((ga_layout_t)GA_LAYOUTS));
    ck_assert_uint_eq(ga_layout_md_bytes((ga_layout_t)GA_LAYOUTS, 8), 0);
    ck_assert_uint_eq(ga_layout_md_align((ga_layout_t)GA_LAYOUTS), 0);
}
END_TEST

static Suite *isa_suite(void)
{
    Suite *s = suite_create("isa");
    TCase *t = tcase_create("copies");
    tcase_add_test(t, test_rtl_package);
    tcase_add_test(t, test_cosim_and_board);
    tcase_add_test(t, test_scanner_catches_drift);
    tcase_add_test(t, test_model_rules);
    tcase_add_test(t, test_layout_registry);
    suite_add_tcase(s, t);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(isa_suite());
    srunner_run_all(sr, CK_ENV);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
