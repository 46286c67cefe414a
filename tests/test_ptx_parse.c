/*
 * test_ptx_parse.c — Check tests of the PTX front end: lexer, parser, printer and IR helpers
 * (ptx/ptx_lex.c, ptx_parse.c, ptx_print.c, ptx_ir.c).
 *
 *   accept     one table row per construct: the text parses, passes ptx_module_validate, and its
 *              printed form contains the canonical spelling the row names
 *   ir         what the parser stores (operand kinds, values, ids, scopes, call order, loc, ...)
 *   reject     one table row per error: the exact message with its line and column
 *   roundtrip  print -> parse -> print is a fixed point on every .ptx fixture in tests/ptx/, and
 *              ptxas accepts the printed fixtures (skipped, with a message, without ptxas)
 *   helpers    defs / uses / space / access size of every opcode class; vocabulary tables
 *   nvcc       the CUDA sources in tests/ptx/src/ compiled by nvcc at test time (with and without
 *              -lineinfo): the PTX parses, round-trips, and ptxas accepts the printed form (skipped
 *              without nvcc)
 *   scale      a generated PTX file of more than 1 MB parses in linear time
 *
 * Run from the repository root (fixtures are read from tests/ptx/, or from $PTX_TEST_DIR).
 */
#include "ptx_ir.h"

#include <check.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define HDR ".version 9.0\n.target sm_80\n.address_size 64\n"
/* A kernel around a body: the body starts on line 10 of the text. */
#define WRAP_HEAD                                                                                          \
    HDR ".visible .entry k(.param .u64 k_p)\n{\n.reg .b32 %r<10>;\n.reg .b64 %rd<10>;\n.reg .pred "      \
        "%p<4>;\n.reg .f32 %f<4>;\n"
#define WRAP_TAIL "\n}\n"

static const char *fixture_dir(void)
{
    const char *d = getenv("PTX_TEST_DIR");
    return d ? d : "tests/ptx";
}

static ptx_module_t *parse_str(const char *text, ptx_err_t *err)
{
    return ptx_parse("t.ptx", text, strlen(text), err);
}

/* Parse (must succeed and validate). */
static ptx_module_t *must_parse(const char *text)
{
    ptx_err_t err;
    ptx_module_t *m = parse_str(text, &err);
    ck_assert_msg(m != NULL, "parse failed: %s\n--- input:\n%s", err.msg, text);
    ck_assert_msg(ptx_module_validate(m, &err) == 0, "validate: %s", err.msg);
    return m;
}

static char *wrap(const char *body)
{
    size_t n = strlen(WRAP_HEAD) + strlen(body) + strlen(WRAP_TAIL) + 1;
    char *s = malloc(n);
    ck_assert_ptr_nonnull(s);
    snprintf(s, n, "%s%s%s", WRAP_HEAD, body, WRAP_TAIL);
    return s;
}

/* print(m), parse it back, print again: must be identical. Returns the first print (caller frees). */
static char *check_fixed_point(const ptx_module_t *m, const char *what)
{
    size_t n1, n2;
    char *s1 = ptx_print_str(m, &n1);
    ck_assert_ptr_nonnull(s1);
    ck_assert_uint_eq(strlen(s1), n1);
    ptx_err_t err;
    ptx_module_t *m2 = ptx_parse("printed.ptx", s1, n1, &err);
    ck_assert_msg(m2 != NULL, "%s: the printed form does not parse: %s\n--- printed:\n%s", what, err.msg, s1);
    ck_assert_msg(ptx_module_validate(m2, &err) == 0, "%s: %s", what, err.msg);
    char *s2 = ptx_print_str(m2, &n2);
    ck_assert_ptr_nonnull(s2);
    if (n1 != n2 || memcmp(s1, s2, n1) != 0) {
        size_t i = 0;
        while (i < n1 && i < n2 && s1[i] == s2[i]) i++;
        ck_abort_msg("%s: print is not a fixed point; first difference at byte %zu:\n--- first:\n%.200s\n--- second:\n%.200s",
                     what, i, s1 + (i > 60 ? i - 60 : 0), s2 + (i > 60 ? i - 60 : 0));
    }
    ck_assert_uint_eq(m2->nitems, m->nitems);
    ck_assert_uint_eq(m2->nfuncs, m->nfuncs);
    for (uint32_t f = 0; f < m->nfuncs; f++) {
        ck_assert_uint_eq(m2->funcs[f].ninsns, m->funcs[f].ninsns);
        ck_assert_uint_eq(m2->funcs[f].nregs, m->funcs[f].nregs);
    }
    free(s2);
    ptx_module_free(m2);
    return s1;
}

static char *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL) return NULL;
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap + 1);
    size_t k;
    while (buf != NULL && (k = fread(buf + n, 1, cap - n, f)) > 0) {
        n += k;
        if (n == cap) {
            cap *= 2;
            char *q = realloc(buf, cap + 1);
            if (q == NULL) free(buf);
            buf = q;
        }
    }
    fclose(f);
    if (buf == NULL) return NULL;
    buf[n] = '\0';
    if (len) *len = n;
    return buf;
}

static bool write_file(const char *path, const char *s, size_t n)
{
    FILE *f = fopen(path, "wb");
    if (f == NULL) return false;
    bool ok = fwrite(s, 1, n, f) == n;
    return fclose(f) == 0 && ok;
}

/* Whether a program is on the PATH. */
static bool have_tool(const char *name)
{
    const char *path = getenv("PATH");
    if (path == NULL) return false;
    char *copy = strdup(path);
    bool found = false;
    for (char *save = NULL, *dir = strtok_r(copy, ":", &save); dir && !found; dir = strtok_r(NULL, ":", &save)) {
        char full[4096];
        snprintf(full, sizeof full, "%s/%s", *dir ? dir : ".", name);
        found = access(full, X_OK) == 0;
    }
    free(copy);
    return found;
}

/* Run a shell command; its output goes to log. Returns the exit status (-1 if it did not exit). */
static int run_cmd(const char *cmd)
{
    int st = system(cmd);
    if (st == -1 || !WIFEXITED(st)) return -1;
    return WEXITSTATUS(st);
}

static char *make_tmpdir(void)
{
    const char *t = getenv("TMPDIR");
    char tmpl[1024];
    snprintf(tmpl, sizeof tmpl, "%s/ptxtest.XXXXXX", t && *t ? t : "/tmp");
    char *d = mkdtemp(tmpl);
    return d ? strdup(d) : NULL;
}

/* ptxas -c on text; returns its exit status, its messages in log[]. */
static int ptxas_check(const char *dir, const char *name, const char *text, size_t n, char *log, size_t cap)
{
    char path[2048], logp[2048], cmd[8192];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    snprintf(logp, sizeof logp, "%s/%s.ptxas.log", dir, name);
    ck_assert_msg(write_file(path, text, n), "cannot write %s", path);
    snprintf(cmd, sizeof cmd, "ptxas -c -arch=sm_80 '%s' -o '%s.o' > '%s' 2>&1", path, path, logp);
    int rc = run_cmd(cmd);
    size_t ln = 0;
    char *l = read_file(logp, &ln);
    snprintf(log, cap, "%s", l ? l : "");
    free(l);
    return rc;
}

static void rm_rf(const char *dir)
{
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    (void)run_cmd(cmd);
}

/* ---------------------------------------------------------------------------------------------------
 * accept: each construct parses and prints in its canonical form.
 */

typedef struct {
    const char *name;
    const char *text; /* a body for the kernel wrapper, or a whole module (is_module) */
    const char *want; /* a line (or part of one) the printed module must contain */
} accept_case_t;

static const accept_case_t accept_cases[] = {
    {"decimal literal", "mov.u32 %r1, 42;", "mov.u32\t%r1, 42;"},
    {"hex literal", "mov.u32 %r1, 0x10;", "mov.u32\t%r1, 16;"},
    {"hex literal U", "mov.u32 %r1, 0xFFFFFFFFU;", "mov.u32\t%r1, 4294967295;"},
    {"octal literal", "mov.u32 %r1, 017;", "mov.u32\t%r1, 15;"},
    {"binary literal", "mov.u32 %r1, 0b101;", "mov.u32\t%r1, 5;"},
    {"negative literal", "add.s32 %r1, %r2, -7;", "add.s32\t%r1, %r2, -7;"},
    {"u64 max", "mov.u64 %rd1, 18446744073709551615;", "mov.u64\t%rd1, -1;"},
    {"s64 min", "mov.u64 %rd1, -9223372036854775808;", "mov.u64\t%rd1, -9223372036854775808;"},
    {"f32 hex", "mov.f32 %f1, 0f3F800000;", "mov.f32\t%f1, 0f3F800000;"},
    {"f32 hex lower", "mov.f32 %f1, 0f3f800000;", "mov.f32\t%f1, 0f3F800000;"},
    {"f64 hex", "mov.b64 %rd1, 0d3FF0000000000000;", "mov.b64\t%rd1, 0d3FF0000000000000;"},
    {"decimal float", "add.f32 %f1, %f2, 1.5;", "add.f32\t%f1, %f2, 0d3FF8000000000000;"},
    {"exponent float", "add.f32 %f1, %f2, 2e3;", "add.f32\t%f1, %f2, 0d409F400000000000;"},
    {"negative float", "add.f32 %f1, %f2, -0f3F800000;", "add.f32\t%f1, %f2, 0fBF800000;"},
    {"tid.x", "mov.u32 %r1, %tid.x;", "mov.u32\t%r1, %tid.x;"},
    {"ctaid.z", "mov.u32 %r1, %ctaid.z;", "mov.u32\t%r1, %ctaid.z;"},
    {"laneid", "mov.u32 %r1, %laneid;", "mov.u32\t%r1, %laneid;"},
    {"clock64", "mov.u64 %rd1, %clock64;", "mov.u64\t%rd1, %clock64;"},
    {"envreg", "mov.u32 %r1, %envreg31;", "mov.u32\t%r1, %envreg31;"},
    {"pm64", "mov.u64 %rd1, %pm3_64;", "mov.u64\t%rd1, %pm3_64;"},
    {"address reg", "ld.global.u32 %r1, [%rd1];", "ld.global.u32\t%r1, [%rd1];"},
    {"address reg+off", "ld.global.u32 %r1, [%rd1+16];", "ld.global.u32\t%r1, [%rd1+16];"},
    {"address reg+-off", "ld.global.u32 %r1, [%rd1+-4];", "ld.global.u32\t%r1, [%rd1+-4];"},
    {"address reg-off", "ld.global.u32 %r1, [%rd1-4];", "ld.global.u32\t%r1, [%rd1+-4];"},
    {"address reg+0", "ld.global.u32 %r1, [%rd1+0];", "ld.global.u32\t%r1, [%rd1];"},
    {"address param", "ld.param.u64 %rd1, [k_p];", "ld.param.u64\t%rd1, [k_p];"},
    {"address param+0", "ld.param.u64 %rd1, [k_p+0];", "ld.param.u64\t%rd1, [k_p];"},
    {"address absolute", "ld.global.u32 %r1, [0x100];", "ld.global.u32\t%r1, [256];"},
    {"vector load", "ld.global.v4.f32 {%f0, %f1, %f2, %f3}, [%rd1];", "ld.global.v4.f32\t{%f0, %f1, %f2, %f3}, [%rd1];"},
    {"vector store with sink and imm", "st.global.v4.f32 [%rd1], {%f0, _, %f2, 0f00000000};",
     "st.global.v4.f32\t[%rd1], {%f0, _, %f2, 0f00000000};"},
    {"vector pack", "mov.b64 %rd1, {%r1, %r2};", "mov.b64\t%rd1, {%r1, %r2};"},
    {"guard", "@%p1 add.s32 %r1, %r1, 1;", "@%p1 add.s32\t%r1, %r1, 1;"},
    {"negated guard", "@!%p1 add.s32 %r1, %r1, 1;", "@!%p1 add.s32\t%r1, %r1, 1;"},
    {"negated predicate operand", "selp.b32 %r1, 1, 0, %p1;\nor.pred %p1, !%p2, %p3;", "or.pred\t%p1, !%p2, %p3;"},
    {"setp pair", "setp.lt.and.s32 %p1|%p2, %r1, %r2, %p3;", "setp.lt.and.s32\t%p1|%p2, %r1, %r2, %p3;"},
    {"shfl pair", "shfl.sync.bfly.b32 %r1|%p1, %r2, 1, 31, -1;", "shfl.sync.bfly.b32\t%r1|%p1, %r2, 1, 31, -1;"},
    {"modifier with ::", "ld.global.L1::no_allocate.u32 %r1, [%rd1];", "ld.global.L1::no_allocate.u32\t%r1, [%rd1];"},
    {"shared::cta", "ld.shared::cta.u32 %r1, [%rd1];", "ld.shared::cta.u32\t%r1, [%rd1];"},
    {"label and branch", "bra.uni L1;\nL1:\nret;", "bra.uni\tL1;"},
    {"branch back", "L1:\n@%p1 bra L1;", "@%p1 bra\tL1;"},
    {"brx.idx with branchtargets", "ts: .branchtargets L1, L2;\nbrx.idx %r1, ts;\nL1:\nret;\nL2:\nret;",
     "\tts: .branchtargets L1, L2;\n\tbrx.idx\t%r1, ts;\n"},
    {"packed cvt", "cvt.rn.f16x2.f32 %r1, %f1, %f2;", "cvt.rn.f16x2.f32\t%r1, %f1, %f2;"},
    {"symbol operand", "mov.u64 %rd1, k_p;", "mov.u64\t%rd1, k_p;"},
    {"register list decl", ".reg .b32 a, b;\nmov.b32 a, b;", ".reg .b32 b;"},
    {"vector register decl", ".reg .v4 .b32 %v<2>;", ".reg .v4 .b32 %v<2>;"},
    {"family near special names", ".reg .b32 %clock<64>;\n.reg .b32 %pm3_<64>;\n.reg .b32 %res<2>;", ".reg .b32 %clock<64>;"},
    {"nested scope", "{\n.reg .b32 %r<2>;\nmov.u32 %r1, 1;\n}", "\t\tmov.u32\t%r1, 1;"},
    {"pragma", ".pragma \"nounroll\";", ".pragma \"nounroll\";"},
    {"loc", ".loc 1 2 3\nret;", ".loc\t1 2 3"},
    {"loc inlined", ".loc 1 9 9\n.loc 2 107 3, function_name $L__info_string0, inlined_at 1 9 9",
     ".loc\t2 107 3, function_name $L__info_string0, inlined_at 1 9 9"},
    {"local variable", ".local .align 8 .b8 depot[16];\nmov.u64 %rd1, depot;", ".local .align 8 .b8 depot[16];"},
    {"shared variable in body", ".shared .align 4 .b8 buf[64];\nld.shared.u32 %r1, [buf+4];", "ld.shared.u32\t%r1, [buf+4];"},
    {"comments", "/* a */ mov.u32 /* b */ %r1, // c\n 1;", "mov.u32\t%r1, 1;"},
    {"atom cas", "atom.global.cas.b32 %r1, [%rd1], %r2, %r3;", "atom.global.cas.b32\t%r1, [%rd1], %r2, %r3;"},
    {"red", "red.global.add.u32 [%rd1], 1;", "red.global.add.u32\t[%rd1], 1;"},
    {"bar", "bar.sync 0;", "bar.sync\t0;"},
    {"ret", "ret;", "\tret;"},
    {"module var init list", HDR ".global .align 4 .b32 w[4] = {1, 0x10, 017, 0b101};", ".global .align 4 .b32 w[4] = {1, 16, 15, 5};"},
    {"module var scalar init", HDR ".global .s32 n = -5;", ".global .s32 n = -5;"},
    {"module var float init", HDR ".global .f32 x = 0f3F800000;", ".global .f32 x = 0f3F800000;"},
    {"module var decimal init", HDR ".global .f64 x = 1.5;", ".global .f64 x = 0d3FF8000000000000;"},
    {"generic init", HDR ".global .u32 g;\n.global .u64 p = generic(g);", ".global .u64 p = generic(g);"},
    {"generic init offset", HDR ".global .u32 g;\n.global .u64 p = generic(g)+4;", ".global .u64 p = generic(g)+4;"},
    {"sym+off init", HDR ".global .u32 g[4];\n.global .u64 p = g+8;", ".global .u64 p = g+8;"},
    {"function address init", HDR ".func f();\n.global .u64 t[2] = {f, f};", ".global .u64 t[2] = {f, f};"},
    {"2-d init padded", HDR ".global .u32 a[2][3] = {{1, 2, 3}, {4}};", ".global .u32 a[2][3] = {{1, 2, 3}, {4, 0, 0}};"},
    {"2-d init short", HDR ".global .u32 a[3][2] = {{1}};", ".global .u32 a[3][2] = {{1, 0}};"},
    {"vector var init", HDR ".global .v2 .u32 v = {7, 8};", ".global .v2 .u32 v = {7, 8};"},
    {"partial 1-d init", HDR ".global .u16 a[8] = {1, 2};", ".global .u16 a[8] = {1, 2};"},
    {"extern shared", HDR ".extern .shared .align 16 .b8 dyn[];", ".extern .shared .align 16 .b8 dyn[];"},
    {"unsized with init", HDR ".const .b8 s[] = {1, 2, 3};", ".const .b8 s[] = {1, 2, 3};"},
    {"multi declarators", HDR ".global .u32 a, b = 3;", ".global .u32 b = 3;"},
    {"target list", ".version 9.0\n.target sm_80, texmode_independent\n.address_size 64\n",
     ".target sm_80, texmode_independent"},
    {"version 7.8", ".version 7.8\n.target sm_80\n.address_size 64\n", ".version 7.8"},
    {"func decl", HDR ".func (.param .b32 func_retval0) f(.param .b32 x);",
     ".func (.param .b32 func_retval0) f(\n\t.param .b32 x\n)\n;"},
    {"extern func", HDR ".extern .func g(.param .b64 a);", ".extern .func g(\n\t.param .b64 a\n)\n;"},
    {"aggregate param", HDR ".entry k(.param .align 8 .b8 s[16]) { ret; }", "\t.param .align 8 .b8 s[16]\n"},
    {"ptr param", HDR ".entry k(.param .u64 .ptr.global.align 8 p) { ret; }", "\t.param .u64 .ptr.global.align 8 p\n"},
    {"ptr generic param", HDR ".entry k(.param .u64 .ptr.align 16 p) { ret; }", "\t.param .u64 .ptr.align 16 p\n"},
    {"ptr shared param", HDR ".entry k(.param .u64 .ptr.shared p) { ret; }", "\t.param .u64 .ptr.shared p\n"},
    {"maxntid", HDR ".entry k() .maxntid 256, 1, 1 .minnctapersm 2 { ret; }", ".maxntid 256, 1, 1\n.minnctapersm 2\n{"},
    {"reqntid maxnreg", HDR ".entry k() .reqntid 64 .maxnreg 32 { ret; }", ".reqntid 64\n.maxnreg 32\n{"},
    {"noreturn", HDR ".func f() .noreturn { trap; }", ".func f()\n.noreturn\n{"},
    {"weak func", HDR ".weak .func f() { ret; }", ".weak .func f()"},
    {"entry without params", HDR ".entry k { ret; }", ".entry k()\n{"},
    {"call forms", HDR ".func f();\n.entry k() {\ncall f;\ncall.uni f, ();\ncall f, ( );\n}",
     "\tcall\tf, ();\n\tcall.uni\tf, ();\n\tcall\tf, ();\n"},
    {"call with params", HDR ".func (.param .b32 r) g(.param .b32 a, .param .b32 b);\n.entry k() {\n{\n.param .b32 p0;\n"
     ".param .b32 p1;\n.param .b32 rv;\ncall.uni (rv), \ng, \n(\np0, \np1\n);\n}\n}",
     "\t\tcall.uni\t(rv), g, (p0, p1);\n"},
    {"indirect call", HDR ".func (.param .b32 r) g(.param .b32 a);\n.entry k() {\n.reg .b64 %rd<2>;\nmov.u64 %rd1, g;\n{\n"
     ".param .b32 p0;\n.param .b32 rv;\nproto : .callprototype (.param .b32 _) _ (.param .b32 _);\n"
     "call (rv), %rd1, (p0), proto;\n}\n}",
     "\t\tproto: .callprototype (.param .b32 _) _ (.param .b32 _);\n\t\tcall\t(rv), %rd1, (p0), proto;\n"},
    {"file", HDR ".file 1 \"a/b.cu\"\n.file 2 \"c.h\", 1700000000, 99", ".file\t2 \"c.h\", 1700000000, 99\n"},
    {"section", HDR ".section .debug_str\n{\n$L__info_string0:\n.b8 65,0 // }\n}\n",
     ".section .debug_str\n{\n$L__info_string0:\n.b8 65,0 // }\n}\n"},
};

/* Whole modules in the tables start with their .version (or, to test its absence, .target); anything
 * else is a body for the kernel wrapper. */
static bool is_module(const char *t)
{
    return t[0] == '\0' || strncmp(t, ".version", 8) == 0 || strncmp(t, ".target", 7) == 0;
}

static void accept_one(const accept_case_t *c)
{
    char *text = is_module(c->text) ? strdup(c->text) : wrap(c->text);
    ptx_err_t err;
    ptx_module_t *m = parse_str(text, &err);
    ck_assert_msg(m != NULL, "[%s] parse failed: %s", c->name, err.msg);
    ck_assert_msg(ptx_module_validate(m, &err) == 0, "[%s] %s", c->name, err.msg);
    char *out = check_fixed_point(m, c->name);
    ck_assert_msg(strstr(out, c->want) != NULL, "[%s] printed form lacks \"%s\":\n%s", c->name, c->want, out);
    free(out);
    free(text);
    ptx_module_free(m);
}

START_TEST(test_accept)
{
    accept_one(&accept_cases[_i]);
}
END_TEST

/* ---------------------------------------------------------------------------------------------------
 * ir: what is stored.
 */

/* The first instruction of the wrapped kernel. */
static const ptx_insn_t *first_insn(const ptx_module_t *m)
{
    ck_assert_uint_ge(m->nfuncs, 1);
    const ptx_func_t *f = &m->funcs[m->nfuncs - 1];
    ck_assert_uint_ge(f->ninsns, 1);
    return &f->insns[0];
}

START_TEST(test_ir_operands)
{
    char *t = wrap("@!%p1 ld.global.nc.v2.u32 {%r1, _}, [%rd2+-8];");
    ptx_module_t *m = must_parse(t);
    const ptx_func_t *f = &m->funcs[0];
    const ptx_insn_t *in = first_insn(m);
    ck_assert_int_eq(in->opc, PTX_OPC_LD);
    ck_assert_uint_eq(in->nmods, 4);
    ck_assert_int_eq(in->mods[0], PTX_MOD_GLOBAL);
    ck_assert_int_eq(in->mods[1], PTX_MOD_NC);
    ck_assert_int_eq(in->mods[2], PTX_MOD_V2);
    ck_assert_int_eq(in->mods[3], PTX_MOD_U32);
    ck_assert_str_eq(ptx_reg_name(m, f, in->guard), "%p1");
    ck_assert_uint_eq(in->guard_neg, 1);
    ck_assert_uint_eq(in->pos.line, 10);
    ck_assert_uint_eq(in->pos.col, 1);
    ck_assert_uint_eq(in->nops, 2);
    ck_assert_int_eq(in->ops[0].kind, PTX_OPK_VEC);
    ck_assert_uint_eq(in->ops[0].count, 2);
    ck_assert_int_eq(f->pool[in->ops[0].first].kind, PTX_OPK_REG);
    ck_assert_str_eq(ptx_reg_name(m, f, f->pool[in->ops[0].first].reg), "%r1");
    ck_assert_int_eq(f->pool[in->ops[0].first + 1].kind, PTX_OPK_SINK);
    ck_assert_int_eq(in->ops[1].kind, PTX_OPK_ADDR);
    ck_assert_int_eq(in->ops[1].base, PTX_BASE_REG);
    ck_assert_str_eq(ptx_reg_name(m, f, in->ops[1].reg), "%rd2");
    ck_assert_int_eq(in->ops[1].imm, -8);
    ptx_module_free(m);
    free(t);

    t = wrap("mov.u32 %r1, %ctaid.y;\nmov.f32 %f1, 0fBF800000;\nadd.f64 %f2, %f2, 0d4000000000000000;\n"
             "mov.u64 %rd1, k_p+4;\nmov.u32 %r2, -1;\nmov.u32 %r3, %envreg7;");
    m = must_parse(t);
    f = &m->funcs[0];
    ck_assert_int_eq(f->insns[0].ops[1].kind, PTX_OPK_SREG);
    ck_assert_int_eq(f->insns[0].ops[1].sreg, PTX_SREG_CTAID);
    ck_assert_int_eq(f->insns[0].ops[1].sreg_comp, 1);
    ck_assert_int_eq(f->insns[1].ops[1].kind, PTX_OPK_FIMM);
    ck_assert_int_eq(f->insns[1].ops[1].fwidth, 32);
    ck_assert_uint_eq(f->insns[1].ops[1].fbits, 0xBF800000u);
    ck_assert_int_eq(f->insns[2].ops[2].fwidth, 64);
    ck_assert_uint_eq(f->insns[2].ops[2].fbits, 0x4000000000000000ull);
    ck_assert_int_eq(f->insns[3].ops[1].kind, PTX_OPK_SYM);
    ck_assert_str_eq(ptx_sym_name(m, f->insns[3].ops[1].sym), "k_p");
    ck_assert_int_eq(f->insns[3].ops[1].imm, 4);
    ck_assert_int_eq(f->insns[4].ops[1].kind, PTX_OPK_IMM);
    ck_assert_int_eq(f->insns[4].ops[1].imm, -1);
    ck_assert_int_eq(f->insns[5].ops[1].sreg, PTX_SREG_ENVREG);
    ck_assert_int_eq(f->insns[5].ops[1].sreg_comp, 7);
    ptx_module_free(m);
    free(t);
}
END_TEST

START_TEST(test_ir_scopes)
{
    /* every `{ }` declares its own param0 and temp_param_reg; lookups follow the lexical scope */
    const char *text = HDR ".func (.param .b32 rv0) g(.param .b32 a);\n"
                           ".visible .entry k()\n{\n.reg .b32 %r<4>;\n"
                           "{\n.reg .b32 temp_param_reg;\n.param .b32 param0;\nst.param.b32 [param0], %r1;\n"
                           ".param .b32 retval0;\ncall.uni (retval0), g, (param0);\nld.param.b32 %r2, [retval0];\n}\n"
                           "{\n.reg .b32 temp_param_reg;\n.param .b32 param0;\nst.param.b32 [param0], %r2;\n"
                           "{\n.reg .b32 %r<2>;\nmov.u32 %r1, temp_param_reg;\n}\nmov.u32 %r1, temp_param_reg;\n}\n}\n";
    ptx_module_t *m = must_parse(text);
    ck_assert_uint_eq(m->nfuncs, 2);
    const ptx_func_t *f = &m->funcs[1];
    ck_assert(!m->funcs[0].defined);
    ck_assert(f->defined && f->is_entry);
    /* registers: %r0..%r3, temp_param_reg, temp_param_reg, inner %r0, %r1 */
    ck_assert_uint_eq(f->nregs, 8);
    ck_assert_str_eq(ptx_reg_name(m, f, 4), "temp_param_reg");
    ck_assert_str_eq(ptx_reg_name(m, f, 5), "temp_param_reg");
    ck_assert_uint_ne(f->regs[4].scope, f->regs[5].scope);
    ck_assert_uint_eq(f->regs[0].scope, 0);
    ck_assert_int_eq(f->stmts[f->regs[4].scope].kind, PTX_ST_SCOPE_BEGIN);
    /* two different param0 symbols, each used by the st.param of its own scope */
    const ptx_insn_t *st0 = &f->insns[0];
    const ptx_insn_t *st1 = &f->insns[3];
    ck_assert_int_eq(st0->opc, PTX_OPC_ST);
    ck_assert_int_eq(st1->opc, PTX_OPC_ST);
    ck_assert_uint_ne(st0->ops[0].sym, st1->ops[0].sym);
    ck_assert_str_eq(ptx_sym_name(m, st0->ops[0].sym), "param0");
    ck_assert_int_eq(m->syms[st0->ops[0].sym].func, 1);
    /* the call in its fixed operand order */
    const ptx_insn_t *call = &f->insns[1];
    ck_assert_int_eq(call->opc, PTX_OPC_CALL);
    ck_assert_uint_eq(call->nops, 4);
    ck_assert_int_eq(call->ops[0].kind, PTX_OPK_LIST);
    ck_assert_uint_eq(call->ops[0].count, 1);
    ck_assert_int_eq(call->ops[1].kind, PTX_OPK_SYM);
    ck_assert_str_eq(ptx_sym_name(m, call->ops[1].sym), "g");
    ck_assert_int_eq(call->ops[2].kind, PTX_OPK_LIST);
    ck_assert_uint_eq(call->ops[2].count, 1);
    ck_assert_uint_eq(f->pool[call->ops[2].first].sym, st0->ops[0].sym);
    ck_assert_int_eq(call->ops[3].kind, PTX_OPK_NONE);
    /* inner scope: %r1 is the inner register, temp_param_reg the second scope's */
    const ptx_insn_t *mv_inner = &f->insns[4];
    const ptx_insn_t *mv_outer = &f->insns[5];
    ck_assert_uint_eq(mv_inner->ops[0].reg, 7);
    ck_assert_uint_eq(mv_inner->ops[1].reg, 5);
    ck_assert_uint_eq(mv_outer->ops[0].reg, 1);
    ck_assert_uint_eq(mv_outer->ops[1].reg, 5);
    /* statements in order: regdecl, {, regdecl, vardecl, insn, vardecl, insn, insn, }, ... */
    ck_assert_int_eq(f->stmts[0].kind, PTX_ST_REGDECL);
    ck_assert_uint_eq(f->stmts[0].count, 4);
    ck_assert_uint_eq(f->stmts[0].aux, 4);
    ck_assert_int_eq(f->stmts[1].kind, PTX_ST_SCOPE_BEGIN);
    ck_assert_int_eq(f->stmts[2].kind, PTX_ST_REGDECL);
    ck_assert_uint_eq(f->stmts[2].aux, 0);
    ck_assert_int_eq(f->stmts[3].kind, PTX_ST_VARDECL);
    ck_assert_int_eq(f->stmts[4].kind, PTX_ST_INSN);
    ck_assert_int_eq(f->stmts[8].kind, PTX_ST_SCOPE_END);
    ck_assert_uint_eq(f->stmts[f->nstmts - 1].kind, PTX_ST_SCOPE_END);
    free(check_fixed_point(m, "scopes"));
    ptx_module_free(m);
}
END_TEST

START_TEST(test_ir_calls_indirect)
{
    const char *text = HDR ".func (.param .b32 r) g(.param .b32 a);\n.func h();\n"
                           ".entry k() {\n.reg .b64 %rd<2>;\nmov.u64 %rd1, g;\n{\n.param .b32 p0;\n.param .b32 rv;\n"
                           "proto: .callprototype (.param .b32 _) _ (.param .b32 _);\n"
                           "call (rv), %rd1, (p0), proto;\n}\ncall h;\n}\n";
    ptx_module_t *m = must_parse(text);
    const ptx_func_t *f = &m->funcs[2];
    const ptx_insn_t *c = &f->insns[1];
    ck_assert_int_eq(c->opc, PTX_OPC_CALL);
    ck_assert_int_eq(c->ops[1].kind, PTX_OPK_REG);
    ck_assert_str_eq(ptx_reg_name(m, f, c->ops[1].reg), "%rd1");
    ck_assert_int_eq(c->ops[3].kind, PTX_OPK_LABEL);
    const ptx_label_t *pl = &f->labels[c->ops[3].label];
    ck_assert_str_eq(ptx_str(m, pl->name), "proto");
    ck_assert_int_eq(f->stmts[pl->stmt].kind, PTX_ST_PROTOTYPE);
    ck_assert_str_eq(ptx_str(m, f->stmts[pl->stmt].count), ".callprototype (.param .b32 _) _ (.param .b32 _)");
    const ptx_insn_t *c2 = &f->insns[2];
    ck_assert_uint_eq(c2->nops, 4);
    ck_assert_uint_eq(c2->ops[0].count, 0);
    ck_assert_uint_eq(c2->ops[2].count, 0);
    ck_assert_int_eq(c2->ops[1].kind, PTX_OPK_SYM);
    ck_assert_int_eq(ptx_find_func(m, "h"), 1);
    ck_assert_int_eq(ptx_find_func(m, "k"), 2);
    ck_assert_int_eq(ptx_find_func(m, "nope"), -1);
    ptx_module_free(m);
}
END_TEST

START_TEST(test_ir_module)
{
    const char *text = ".version 9.0\n.target sm_80\n.address_size 64\n"
                       ".global .align 4 .u32 g;\n.global .u64 p = generic(g)+4;\n"
                       ".global .s32 a[2][2] = {{1, -2}, {3}};\n.const .b8 s[] = {1, 2, 3};\n"
                       ".extern .shared .align 16 .b8 dyn[];\n"
                       ".func f(.param .b32 x);\n.func f(.param .b32 y) { ret; }\n"
                       ".visible .entry k(.param .u64 .ptr.global.align 8 q) .maxntid 128, 2 { ret; }\n"
                       ".file 1 \"a.cu\"\n";
    ptx_module_t *m = must_parse(text);
    ck_assert_uint_eq(m->version_major, 9);
    ck_assert_uint_eq(m->version_minor, 0);
    ck_assert_str_eq(ptx_str(m, m->target), "sm_80");
    ck_assert_uint_eq(m->address_size, 64);
    ck_assert_uint_eq(m->nitems, 12);
    ck_assert_int_eq(m->items[3].kind, PTX_ITEM_VAR);
    uint32_t g = ptx_find_global(m, "g");
    ck_assert_uint_ne(g, PTX_NOSYM);
    ck_assert_uint_eq(m->syms[g].align, 4);
    ck_assert_uint_eq(m->syms[g].size, 4);
    ck_assert_int_eq(m->syms[g].space, PTX_SPACE_GLOBAL);
    uint32_t p = ptx_find_global(m, "p");
    ck_assert_uint_eq(m->syms[p].ninit, 1);
    ck_assert_int_eq(m->inits[m->syms[p].first_init].kind, PTX_INIT_GENERIC);
    ck_assert_uint_eq(m->inits[m->syms[p].first_init].sym, g);
    ck_assert_int_eq(m->inits[m->syms[p].first_init].ival, 4);
    uint32_t a = ptx_find_global(m, "a");
    ck_assert_uint_eq(m->syms[a].ndims, 2);
    ck_assert_uint_eq(m->syms[a].size, 16);
    ck_assert_uint_eq(m->syms[a].ninit, 4); /* {{1,-2},{3,0}}: inner rows padded */
    ck_assert_int_eq(m->inits[m->syms[a].first_init + 1].ival, -2);
    ck_assert_int_eq(m->inits[m->syms[a].first_init + 3].ival, 0);
    uint32_t s = ptx_find_global(m, "s");
    ck_assert_uint_eq(m->syms[s].unsized, 1);
    ck_assert_uint_eq(m->syms[s].size, 3);
    uint32_t d = ptx_find_global(m, "dyn");
    ck_assert_int_eq(m->syms[d].link, PTX_LINK_EXTERN);
    ck_assert_uint_eq(m->syms[d].size, 0);
    ck_assert_int_eq(m->syms[d].space, PTX_SPACE_SHARED);
    /* f declared then defined: two functions, one symbol pointing at the definition */
    ck_assert_uint_eq(m->nfuncs, 3);
    ck_assert_uint_eq(m->funcs[0].sym, m->funcs[1].sym);
    ck_assert(!m->funcs[0].defined);
    ck_assert(m->funcs[1].defined);
    ck_assert_int_eq(ptx_find_func(m, "f"), 1);
    ck_assert_str_eq(ptx_sym_name(m, m->funcs[1].params[0]), "y");
    const ptx_func_t *k = &m->funcs[2];
    ck_assert(k->is_entry);
    ck_assert_int_eq(k->link, PTX_LINK_VISIBLE);
    ck_assert_uint_eq(k->maxntid[0], 128);
    ck_assert_uint_eq(k->maxntid[1], 2);
    ck_assert_uint_eq(k->maxntid[2], 0);
    const ptx_sym_t *q = &m->syms[k->params[0]];
    ck_assert_int_eq(q->kind, PTX_SYM_PARAM);
    ck_assert_uint_eq(q->has_ptr, 1);
    ck_assert_int_eq(q->ptr_space, PTX_SPACE_GLOBAL);
    ck_assert_uint_eq(q->ptr_align, 8);
    ck_assert_int_eq(q->type, PTX_T_U64);
    ck_assert_uint_eq(m->nfiles, 1);
    ck_assert_str_eq(ptx_str(m, m->files[0].name), "a.cu");
    ck_assert_ptr_eq(ptx_find_file(m, 1), &m->files[0]);
    ck_assert_ptr_null(ptx_find_file(m, 2));
    ck_assert_ptr_null(ptx_find_file(m, 0));
    ptx_module_free(m);
}
END_TEST

START_TEST(test_ir_loc)
{
    char *t = wrap(".loc 1 5 2\nmov.u32 %r1, 1;\n.loc 1 7 3, inlined_at 1 5 2\nmov.u32 %r2, 2;\n");
    ptx_module_t *m = must_parse(t);
    const ptx_func_t *f = &m->funcs[0];
    ck_assert_uint_eq(f->insns[0].loc.line, 5);
    ck_assert_uint_eq(f->insns[0].loc.col, 2);
    ck_assert_uint_eq(f->insns[1].loc.line, 7);
    ck_assert_uint_eq(f->insns[1].loc.in_line, 5);
    ck_assert_uint_eq(f->insns[1].loc.in_file, 1);
    ck_assert_uint_eq(f->insns[1].loc.fn_name, 0);
    ptx_module_free(m);
    free(t);
}
END_TEST

START_TEST(test_ir_regdecl)
{
    char *t = wrap(".reg .b32 %q<3>, x, %s<2>;\nmov.u32 %q2, x;\nmov.u32 %s1, %q0;");
    ptx_module_t *m = must_parse(t);
    const ptx_func_t *f = &m->funcs[0];
    /* wrapper: %r<10> %rd<10> %p<4> %f<4> = 28 registers, then %q0..2, x, %s0..1 */
    ck_assert_uint_eq(f->nregs, 34);
    ck_assert_str_eq(ptx_reg_name(m, f, 28), "%q0");
    ck_assert_str_eq(ptx_reg_name(m, f, 31), "x");
    ck_assert_str_eq(ptx_reg_name(m, f, 33), "%s1");
    ck_assert_int_eq(f->regs[28].type, PTX_T_B32);
    ck_assert_int_eq(f->regs[29].vec, 1);
    ck_assert_int_eq(f->stmts[4].kind, PTX_ST_REGDECL);
    ck_assert_uint_eq(f->stmts[4].count, 3);
    ck_assert_uint_eq(f->stmts[4].aux, 3);
    ck_assert_uint_eq(f->stmts[5].count, 1);
    ck_assert_uint_eq(f->stmts[5].aux, 0);
    ck_assert_uint_eq(f->stmts[6].index, 32);
    ck_assert_uint_eq(f->insns[0].ops[0].reg, 30);
    ck_assert_uint_eq(f->insns[1].ops[1].reg, 28);
    char *out = check_fixed_point(m, "regdecl");
    ck_assert_ptr_nonnull(strstr(out, "\t.reg .b32 %q<3>;\n\t.reg .b32 x;\n\t.reg .b32 %s<2>;\n"));
    free(out);
    ptx_module_free(m);
    free(t);
}
END_TEST

START_TEST(test_ir_labels)
{
    char *t = wrap("bra L2;\nL1:\n@%p1 bra L1;\nL2:\nret;");
    ptx_module_t *m = must_parse(t);
    const ptx_func_t *f = &m->funcs[0];
    ck_assert_uint_eq(f->nlabels, 2);
    ck_assert_str_eq(ptx_str(m, f->labels[0].name), "L2");
    ck_assert_int_eq(f->stmts[f->labels[0].stmt].kind, PTX_ST_LABEL);
    ck_assert_uint_eq(f->labels[0].pos.line, 13);
    ck_assert_int_eq(f->insns[0].ops[0].kind, PTX_OPK_LABEL);
    ck_assert_uint_eq(f->insns[0].ops[0].label, 0);
    ck_assert_uint_eq(f->insns[1].ops[0].label, 1);
    ck_assert_uint_lt(f->labels[1].stmt, f->labels[0].stmt);
    ptx_module_free(m);
    free(t);
}
END_TEST

/* ---------------------------------------------------------------------------------------------------
 * reject: each error, with its exact message and position.
 */

typedef struct {
    const char *name;
    const char *text; /* a body for the wrapper (line 10 on), or a whole module (is_module) */
    size_t len;       /* 0: strlen(text) */
    const char *msg;
} reject_case_t;

static const reject_case_t reject_cases[] = {
    /* lexical */
    {"bad character", "mov.u32 %r1, #1;", 0, "t.ptx:10:14: unexpected character '#'"},
    {"non-ascii", "mov.u32 %r1, \xc3\xa9;", 0, "t.ptx:10:14: unexpected character '\\xc3'"},
    {"NUL byte", "mov.u32 %r1, 1;\0", 17, "t.ptx:10:16: unexpected character '\\x00'"},
    {"unterminated comment", "ret; /* no end", 0, "t.ptx:10:6: unterminated comment: expected '*/' before the end of input"},
    {"unterminated string", ".pragma \"nounroll;\n", 0,
     "t.ptx:10:9: unterminated string: expected '\"' before the end of the line"},
    {"short f32 literal", "mov.f32 %f1, 0f3F80;", 0,
     "t.ptx:10:14: malformed floating-point literal: expected exactly 8 hex digits after '0f'"},
    {"long f64 literal", "mov.f64 %f1, 0d3FF00000000000000;", 0,
     "t.ptx:10:14: malformed floating-point literal: expected exactly 16 hex digits after '0d'"},
    {"integer overflow", "mov.u64 %rd1, 0x10000000000000000;", 0, "t.ptx:10:15: integer literal does not fit in 64 bits"},
    {"decimal overflow", "mov.u64 %rd1, 18446744073709551616;", 0, "t.ptx:10:15: integer literal does not fit in 64 bits"},
    {"bad octal digit", "mov.u32 %r1, 09;", 0, "t.ptx:10:14: malformed number: '9' is not a octal digit"},
    {"bad binary digit", "mov.u32 %r1, 0b102;", 0, "t.ptx:10:14: malformed number: '2' is not a binary digit"},
    {"empty hex", "mov.u32 %r1, 0x;", 0, "t.ptx:10:14: malformed number: expected hex digits after '0x'"},
    {"letters after number", "mov.u32 %r1, 12ab;", 0, "t.ptx:10:14: malformed number: unexpected 'a' in an integer literal"},
    {"lone percent", "mov.u32 %, 1;", 0, "t.ptx:10:9: expected a name after '%'"},
    {"lone dot", "mov. %r1, 1;", 0, "t.ptx:10:4: expected a directive or modifier name after '.'"},
    /* module structure */
    {"no version", ".target sm_80\n", 0, "t.ptx:1:1: expected '.version' at the start of the module, got '.target'"},
    {"bad version", ".version 9\n", 0, "t.ptx:1:10: expected a PTX version 'major.minor' after '.version', got '9'"},
    {"no target", ".version 9.0\n.address_size 64\n", 0, "t.ptx:2:1: expected '.target' after '.version', got '.address_size'"},
    {"address_size 32", ".version 9.0\n.target sm_80\n.address_size 32\n", 0,
     "t.ptx:3:15: '.address_size 32' is not supported: only 64-bit addressing is (docs/compiler.md §1)"},
    {"address_size 16", ".version 9.0\n.target sm_80\n.address_size 16\n", 0,
     "t.ptx:3:15: expected an address size of 64, got 16"},
    {"no address_size", ".version 9.0\n.target sm_80\n.entry k() { ret; }\n", 0,
     "t.ptx:3:1: expected '.address_size 64' after '.target' (PTX defaults to 32-bit addresses, which are not supported), got '.entry'"},
    {"empty input", "", 0, "t.ptx:1:1: expected '.version' at the start of the module, got end of input"},
    {"second version", HDR ".version 9.0\n", 0, "t.ptx:4:1: .version may appear only once, at the start of the module"},
    {"unknown module directive", HDR ".alias a, b;\n", 0,
     "t.ptx:4:1: unsupported directive '.alias' at module scope (expected .entry, .func, .global, .const, .shared, .local, .file, .section or a linkage)"},
    {"module .param", HDR ".param .u32 x;\n", 0, "t.ptx:4:1: '.param' variables are only allowed inside functions"},
    {"module instruction", HDR "mov.u32 %r1, 1;\n", 0,
     "t.ptx:4:1: expected a directive (.entry, .func, .global, .file, ...), got 'mov'"},
    {"duplicate file", HDR ".file 1 \"a\"\n.file 1 \"b\"\n", 0, "t.ptx:5:7: file number 1 is already declared"},
    {"file zero", HDR ".file 0 \"a\"\n", 0, "t.ptx:4:7: expected a file number from 1 to 4294967295"},
    {"NUL in a section comment", HDR ".section .debug_str\n{\n// a\0b\n}\n", 75,
     "t.ptx:6:5: unexpected NUL byte in a section"},
    {"NUL in a section", HDR ".section .debug_str\n{\n.b8 1\0\n}\n", 75, "t.ptx:6:6: unexpected NUL byte in a section"},
    {"unterminated section", HDR ".section .debug_str\n{\n.b8 1\n", 0,
     "t.ptx:5:1: unterminated section: expected '}' to close the '{' opened here before the end of input"},
    /* variables */
    {"too many initializers", HDR ".global .u32 a[2] = {1, 2, 3};\n", 0,
     "t.ptx:4:21: too many initializers: this list holds at most 2 elements"},
    {"extern initializer", HDR ".extern .global .u32 a = 1;\n", 0, "t.ptx:4:26: an .extern variable cannot have an initializer"},
    {"shared initializer", HDR ".shared .u32 a = 1;\n", 0, "t.ptx:4:18: only .global and .const variables can have an initializer"},
    {"unknown init symbol", HDR ".global .u64 p = q;\n", 0,
     "t.ptx:4:18: unknown symbol 'q' in an initializer (symbols must be declared before use)"},
    {"pred variable", HDR ".global .pred x;\n", 0, "t.ptx:4:9: type '.pred' cannot be used for a variable (it has no byte size)"},
    {"too many dims", HDR ".global .u8 x[1][1][1][1][1];\n", 0, "t.ptx:4:26: an array has at most 4 dimensions"},
    {"inner unsized dim", HDR ".global .u8 x[2][];\n", 0,
     "t.ptx:4:17: only the first dimension of an array may be left empty ('[]')"},
    {"zero dim", HDR ".global .u8 x[0];\n", 0, "t.ptx:4:15: an array dimension must be at least 1"},
    {"bad align", HDR ".global .align 3 .u8 x;\n", 0, "t.ptx:4:16: expected a power-of-two alignment, got 3"},
    {"duplicate global", HDR ".global .u32 x;\n.global .u32 x;\n", 0, "t.ptx:5:14: variable 'x' is already declared in this scope (at 4:14)"},
    {"no type", HDR ".global x;\n", 0, "t.ptx:4:9: expected a type (.u32, .b8, .f64, ...), got 'x'"},
    /* functions */
    {"function defined twice", HDR ".func f() { ret; }\n.func f() { ret; }\n", 0, "t.ptx:5:7: 'f' is already defined (at 4:1)"},
    {"function vs variable", HDR ".global .u32 f;\n.func f() { ret; }\n", 0,
     "t.ptx:5:7: 'f' is already declared as a variable (at 4:14)"},
    {"entry vs func", HDR ".func f();\n.entry f() { ret; }\n", 0, "t.ptx:5:8: 'f' was declared as .func at 4:7"},
    {"signature mismatch", HDR ".func f(.param .b32 a);\n.func f() { ret; }\n", 0,
     "t.ptx:5:7: 'f' has 0 parameters and 0 return values here but 1 and 0 where first declared (at 4:7)"},
    {"extern with body", HDR ".extern .func f() { ret; }\n", 0, "t.ptx:4:19: an .extern function cannot have a body"},
    {"reg parameter", HDR ".func f(.reg .b32 a) { ret; }\n", 0, "t.ptx:4:9: '.reg' parameters are not supported: expected '.param'"},
    {"ptr on func param", HDR ".func f(.param .u64 .ptr.global a) { ret; }\n", 0,
     "t.ptx:4:21: the '.ptr' attribute is only allowed on .entry parameters"},
    {"duplicate parameter", HDR ".entry k(.param .u32 a, .param .u32 a) { ret; }\n", 0,
     "t.ptx:4:37: parameter 'a' is already declared in this scope (at 4:22)"},
    {"entry return", HDR ".entry (.param .b32 r) k() { ret; }\n", 0,
     "t.ptx:4:8: an .entry has no return parameters: expected the kernel name"},
    {"unknown perf directive", HDR ".entry k() .explicitcluster { ret; }\n", 0,
     "t.ptx:4:12: unsupported directive '.explicitcluster' before the function body (expected .maxntid, .reqntid, .minnctapersm, .maxnctapersm, .maxnreg, .noreturn, '{' or ';')"},
    {"zero maxntid", HDR ".entry k() .maxntid 0 { ret; }\n", 0, "t.ptx:4:21: a thread count: expected a value from 1 to 4294967295"},
    {"noreturn entry", HDR ".entry k() .noreturn { ret; }\n", 0, "t.ptx:4:12: '.noreturn' applies only to .func"},
    {"missing close", HDR ".entry k() {\nret;\n", 0, "t.ptx:6:1: expected '}' to close the scope opened at 4:12, got end of input"},
    {"missing body close after scope", HDR ".entry k() {\n{\nret;\n}\n", 0,
     "t.ptx:8:1: expected '}' to close the scope opened at 4:12, got end of input"},
    {"missing close of nested scope", HDR ".entry k() {\n{\n{\nret;\n}\n", 0,
     "t.ptx:9:1: expected '}' to close the scope opened at 5:1, got end of input"},
    /* registers and names */
    {"undeclared register", "mov.u32 %r1, %q1;", 0, "t.ptx:10:14: undeclared register '%q1'"},
    {"unknown symbol", "mov.u64 %rd1, nothing;", 0, "t.ptx:10:15: unknown symbol 'nothing'"},
    {"unknown address symbol", "ld.global.u32 %r1, [nothing+4];", 0, "t.ptx:10:21: unknown symbol 'nothing'"},
    {"sreg as base", "ld.global.u32 %r1, [%tid];", 0, "t.ptx:10:21: a special register cannot be an address base: '%tid'"},
    {"register twice", ".reg .b32 x;\n.reg .b32 x;", 0, "t.ptx:11:11: register 'x' is already declared in this scope (at 10:11)"},
    {"register twice by family", ".reg .b32 %r<3>;", 0, "t.ptx:10:11: register '%r0' is already declared in this scope (at 6:11)"},
    {"special register declared", ".reg .b32 %laneid;", 0, "t.ptx:10:11: '%laneid' is a special register and cannot be declared"},
    {"family makes special register", ".reg .b32 %envreg<2>;", 0,
     "t.ptx:10:11: '%envreg<2>' would declare the special register '%envreg0'"},
    {"family makes %clock64", ".reg .b32 %clock<65>;", 0, "t.ptx:10:11: '%clock<65>' would declare the special register '%clock64'"},
    {"family makes %pm3_64", ".reg .b32 %pm3_<65>;", 0, "t.ptx:10:11: '%pm3_<65>' would declare the special register '%pm3_64'"},
    {"family makes %pm1", ".reg .b32 %pm<2>;", 0, "t.ptx:10:11: '%pm<2>' would declare the special register '%pm0'"},
    {"register count zero", ".reg .b32 %z<0>;", 0, "t.ptx:10:14: a register count must be at least 1"},
    {"register budget", ".reg .b32 %z<100000000>;", 0,
     "t.ptx:10:14: '%z<100000000>' declares more registers than this input may (66948 left of a budget of 65536 + 8 per input byte)"},
    {"missing component", "mov.u32 %r1, %tid;", 0,
     "t.ptx:10:18: expected a component '.x', '.y' or '.z' after the special register, got ';'"},
    {"vector register component", ".reg .v4 .b32 %v;\nmov.b32 %r1, %v.x;", 0,
     "t.ptx:11:16: components of vector registers ('%v.x') are not supported"},
    {"guard not predicate", "@%r1 bra L;\nL:", 0, "t.ptx:10:2: '%r1' is not a predicate register (declared .b32)"},
    {"negation not predicate", "or.pred %p1, !%r1, %p2;", 0, "t.ptx:10:15: '%r1' is not a predicate register (declared .b32)"},
    {"pair not predicate", "setp.eq.s32 %p1|%r2, %r1, 0;", 0, "t.ptx:10:17: '%r2' is not a predicate register (declared .b32)"},
    /* labels */
    {"label never defined", "bra L9;", 0, "t.ptx:10:5: label 'L9' is used but never defined in 'k'"},
    {"label defined twice", "L1:\nL1:", 0, "t.ptx:11:1: label 'L1' is already defined (at 10:1)"},
    {"branch to prototype", "p: .callprototype _ ();\nbra p;", 0, "t.ptx:11:1: 'p' is a directive label, not a branch target"},
    {"brx to plain label", "L:\nbrx.idx %r1, L;", 0, "t.ptx:11:1: 'L' is not a .branchtargets label"},
    {"branchtargets undefined label", "ts: .branchtargets L7;\nbrx.idx %r1, ts;", 0,
     "t.ptx:10:20: label 'L7' is used but never defined in 'k'"},
    /* instructions */
    {"unknown opcode", "frob.u32 %r1, %r2;", 0, "t.ptx:10:1: unknown opcode 'frob'"},
    {"unknown modifier", "add.s33 %r1, %r2, %r3;", 0, "t.ptx:10:4: unknown modifier '.s33' for 'add'"},
    {"too many modifiers", "add.sat.sat.sat.sat.sat.sat.sat.sat.sat.sat.sat.sat.s32 %r1, %r2, %r3;", 0,
     "t.ptx:10:52: too many modifiers (at most 12)"},
    {"too many operands", "prmt.b32 %r1, %r2, %r3, %r4, %r5, %r6, %r7, %r8, %r9;", 0, "t.ptx:10:50: too many operands (at most 8)"},
    {"add operand count", "add.s32 %r1, %r2;", 0, "t.ptx:10:1: 'add' takes 3 operands, got 2"},
    {"ld operand count", "ld.global.u32 %r1;", 0, "t.ptx:10:1: 'ld' takes 2 to 3 operands, got 1"},
    {"ret operand", "ret %r1;", 0, "t.ptx:10:1: 'ret' takes 0 operands, got 1"},
    {"bra operand count", "bra;", 0, "t.ptx:10:1: 'bra' takes 1 operand, got 0"},
    {"mov operand count", "mov.u32 %r1;", 0, "t.ptx:10:1: 'mov' takes 2 operands, got 1"},
    {"setp operand count", "setp.eq.s32 %p1, %r1;", 0, "t.ptx:10:1: 'setp' takes 3 to 4 operands, got 2"},
    {"selp operand count", "selp.b32 %r1, %r2, %r3;", 0, "t.ptx:10:1: 'selp' takes 4 operands, got 3"},
    {"st without address", "st.global.u32 %r1, %r2;", 0, "t.ptx:10:1: 'st' expects a memory operand '[...]' as operand 1"},
    {"ld without address", "ld.global.u32 %r1, %rd1;", 0, "t.ptx:10:1: 'ld' expects a memory operand '[...]' as operand 2"},
    {"memory operand on add", "add.s32 %r1, [%rd1], 1;", 0, "t.ptx:10:1: 'add' takes no memory operand (operand 2)"},
    {"immediate destination", "add.s32 5, %r1, 1;", 0, "t.ptx:10:1: 'add' expects a destination register as operand 1"},
    {"negated destination", "not.pred !%p1, %p2;", 0, "t.ptx:10:1: a negated predicate '!%p1' cannot be a destination"},
    {"vector too wide", "mov.b64 %rd1, {%r1, %r1, %r1, %r1, %r1, %r1, %r1, %r1, %r1};", 0,
     "t.ptx:10:15: a vector operand has at most 8 elements"},
    {"missing semicolon", "mov.u32 %r1, 1\nret;", 0, "t.ptx:11:1: expected ',' or ';' after an operand, got 'ret'"},
    {"missing semicolon no operands", "ret\n}", 0, "t.ptx:11:1: expected an operand, got '}'"},
    {"texture unsupported", "tex.2d.v4.f32.f32 {%f0, %f1, %f2, %f3}, [t, {%f0, %f1}];", 0,
     "t.ptx:10:1: 'tex' is not supported (texture, surface and tensor-core instructions are outside the subset of docs/compiler.md §1)"},
    {"parenthesis operand", "mov.u32 %r1, (%r2);", 0, "t.ptx:10:14: expected an operand, got '('"},
    {"unknown body directive", ".maxnreg 3;", 0,
     "t.ptx:10:1: unexpected directive '.maxnreg' in a function body (expected .reg, .local, .shared, .param, .loc, .pragma or an instruction)"},
    {"bad address", "ld.global.u32 %r1, [+4];", 0,
     "t.ptx:10:21: expected a register, a variable or an address inside '[ ]', got '+'"},
    {"unclosed address", "ld.global.u32 %r1, [%rd1+4;", 0, "t.ptx:10:27: expected ']' to close the address, got ';'"},
    {"loc keyword", ".loc 1 2 3, inline_at 1 2 3", 0, "t.ptx:10:13: expected 'function_name' or 'inlined_at', got 'inline_at'"},
    /* calls */
    {"call unknown function", "call nothing;", 0,
     "t.ptx:10:6: unknown function 'nothing' (functions must be declared before they are called)"},
    {"call a variable", "call k_p;", 0,
     "t.ptx:10:6: expected a function to call, got the variable 'k_p' (functions must be declared before they are called)"},
    {"indirect without prototype", "call %rd1, ();", 0,
     "t.ptx:10:6: an indirect call needs a prototype: expected ', (args), prototype_label'"},
    {"call bad list", "call (%r1, 5), %rd1;", 0, "t.ptx:10:12: expected a parameter name or a register, got '5'"},
    {"call arity", ".version 9.0\n.target sm_80\n.address_size 64\n.func f(.param .b32 a);\n.entry k() {\n"
     ".param .b32 p0;\ncall f, (p0, p0);\n}\n", 0,
     "t.ptx:7:6: 'f' takes 1 parameter and returns 0 values; this call passes 2 and receives 0"},
    {"call receives too much", ".version 9.0\n.target sm_80\n.address_size 64\n.func f();\n.entry k() {\n"
     ".param .b32 r;\ncall (r), f;\n}\n", 0,
     "t.ptx:7:11: 'f' takes 0 parameters and returns 0 values; this call passes 0 and receives 1"},
    {"call list no paren", "call %rd1, p0;", 0, "t.ptx:10:12: expected '(' to start the call's argument list, got 'p0'"},
    {"prototype not defined", "call %rd1, (), proto;", 0, "t.ptx:10:16: label 'proto' is used but never defined in 'k'"},
    {"prototype is a plain label", "L:\ncall %rd1, (), L;", 0, "t.ptx:11:1: 'L' is not a .callprototype or .calltargets label"},
    {"unterminated prototype", "p: .callprototype _ ()\n}", 0, "t.ptx:11:1: expected ';' to end the directive, got '}'"},
    /* scopes */
    {"scope too deep",
     "{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{"
     "}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}",
     0, "t.ptx:10:65: scopes are nested more than 64 deep"},
};

START_TEST(test_reject)
{
    const reject_case_t *c = &reject_cases[_i];
    char *text;
    size_t len;
    if (is_module(c->text)) {
        len = c->len ? c->len : strlen(c->text);
        text = malloc(len + 1);
        memcpy(text, c->text, len);
    } else {
        size_t bl = c->len ? c->len : strlen(c->text);
        len = strlen(WRAP_HEAD) + bl + strlen(WRAP_TAIL);
        text = malloc(len + 1);
        memcpy(text, WRAP_HEAD, strlen(WRAP_HEAD));
        memcpy(text + strlen(WRAP_HEAD), c->text, bl);
        memcpy(text + strlen(WRAP_HEAD) + bl, WRAP_TAIL, strlen(WRAP_TAIL));
    }
    ptx_err_t err;
    memset(&err, 0x55, sizeof err);
    ptx_module_t *m = ptx_parse("t.ptx", text, len, &err);
    ck_assert_msg(m == NULL, "[%s] parsed but should have failed", c->name);
    ck_assert_msg(strcmp(err.msg, c->msg) == 0, "[%s]\n got: %s\nwant: %s", c->name, err.msg, c->msg);
    ck_assert_ptr_null(strchr(err.msg, '\n'));
    /* the position in the record agrees with the message */
    char pos[64];
    snprintf(pos, sizeof pos, "t.ptx:%u:%u: ", err.pos.line, err.pos.col);
    ck_assert_msg(strncmp(err.msg, pos, strlen(pos)) == 0, "[%s] err.pos %u:%u vs %s", c->name, err.pos.line,
                  err.pos.col, err.msg);
    free(text);
}
END_TEST

START_TEST(test_reject_name_limit)
{
    /* a 1025-byte name is refused; 1024 bytes is accepted */
    char name[1100];
    memset(name, 'a', sizeof name);
    char text[2400];
    name[1024] = '\0';
    snprintf(text, sizeof text, HDR ".global .u32 %s;\n", name);
    ptx_module_t *m = must_parse(text);
    ptx_module_free(m);
    name[1024] = 'a';
    name[1025] = '\0';
    snprintf(text, sizeof text, HDR ".global .u32 %s;\n", name);
    ptx_err_t err;
    ck_assert_ptr_null(parse_str(text, &err));
    ck_assert_str_eq(err.msg, "t.ptx:4:14: name longer than 1024 characters");
}
END_TEST

START_TEST(test_reject_io)
{
    ptx_err_t err;
    ck_assert_ptr_null(ptx_parse_file("tests/ptx/does-not-exist.ptx", &err));
    ck_assert_str_eq(err.msg, "tests/ptx/does-not-exist.ptx: cannot open: No such file or directory");
    ck_assert_uint_eq(err.pos.line, 0);
    /* NULL text and NULL error record are tolerated */
    ck_assert_ptr_null(ptx_parse("x", NULL, 0, NULL));
}
END_TEST

/* Every prefix of a valid module fails cleanly or parses; none crashes (ASan run). */
START_TEST(test_reject_prefixes)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/constructs.ptx", fixture_dir());
    size_t n;
    char *s = read_file(path, &n);
    ck_assert_msg(s != NULL, "cannot read %s", path);
    unsigned ok = 0, failed = 0;
    for (size_t k = 0; k < n; k += 7) {
        ptx_err_t err;
        ptx_module_t *m = ptx_parse("prefix.ptx", s, k, &err);
        if (m) {
            ok++;
            ck_assert_int_eq(ptx_module_validate(m, &err), 0);
            ptx_module_free(m);
        } else {
            failed++;
            ck_assert_msg(strncmp(err.msg, "prefix.ptx:", 11) == 0, "%s", err.msg);
        }
    }
    ck_assert_uint_gt(failed, 100);
    free(s);
}
END_TEST

/* ---------------------------------------------------------------------------------------------------
 * round trips on the fixtures, and ptxas on their printed form.
 */

START_TEST(test_roundtrip_fixtures)
{
    DIR *d = opendir(fixture_dir());
    ck_assert_msg(d != NULL, "cannot open %s (run from the repository root or set PTX_TEST_DIR)", fixture_dir());
    bool ptxas = have_tool("ptxas");
    char *tmp = ptxas ? make_tmpdir() : NULL;
    if (!ptxas) fprintf(stderr, "test_ptx_parse: SKIP ptxas acceptance of printed fixtures: ptxas not on the PATH\n");
    unsigned count = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        size_t l = strlen(e->d_name);
        if (l < 5 || strcmp(e->d_name + l - 4, ".ptx") != 0) continue;
        char path[2048];
        snprintf(path, sizeof path, "%s/%s", fixture_dir(), e->d_name);
        ptx_err_t err;
        ptx_module_t *m = ptx_parse_file(path, &err);
        ck_assert_msg(m != NULL, "%s", err.msg);
        ck_assert_msg(ptx_module_validate(m, &err) == 0, "%s", err.msg);
        char *out = check_fixed_point(m, path);
        if (tmp != NULL) {
            char log[4096];
            int rc = ptxas_check(tmp, e->d_name, out, strlen(out), log, sizeof log);
            ck_assert_msg(rc == 0, "ptxas rejects the printed form of %s (exit %d):\n%s", path, rc, log);
        }
        free(out);
        ptx_module_free(m);
        count++;
    }
    closedir(d);
    if (tmp) {
        rm_rf(tmp);
        free(tmp);
    }
    ck_assert_uint_ge(count, 5);
}
END_TEST

/* The hand-written fixture keeps every statement kind and every item kind. */
START_TEST(test_roundtrip_constructs_content)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/constructs.ptx", fixture_dir());
    ptx_err_t err;
    ptx_module_t *m = ptx_parse_file(path, &err);
    ck_assert_msg(m != NULL, "%s", err.msg);
    unsigned items[8] = {0}, stmts[16] = {0}, opk[16] = {0};
    for (uint32_t i = 0; i < m->nitems; i++) items[m->items[i].kind]++;
    for (uint32_t fi = 0; fi < m->nfuncs; fi++) {
        const ptx_func_t *f = &m->funcs[fi];
        for (uint32_t s = 0; s < f->nstmts; s++) stmts[f->stmts[s].kind]++;
        for (uint32_t i = 0; i < f->ninsns; i++)
            for (unsigned k = 0; k < f->insns[i].nops; k++) opk[f->insns[i].ops[k].kind]++;
    }
    for (int k = PTX_ITEM_VERSION; k <= PTX_ITEM_SECTION; k++) ck_assert_msg(items[k] > 0, "no item of kind %d", k);
    for (int k = PTX_ST_INSN; k <= PTX_ST_PROTOTYPE; k++) ck_assert_msg(stmts[k] > 0, "no statement of kind %d", k);
    for (int k = PTX_OPK_REG; k <= PTX_OPK_SINK; k++) ck_assert_msg(opk[k] > 0 || k == PTX_OPK_SINK, "no operand of kind %d", k);
    char *out = check_fixed_point(m, "constructs");
    ck_assert_ptr_nonnull(strstr(out, "$L__info_string0:\n.b8 104,101,108,112,101,114,0\n"));
    ck_assert_ptr_nonnull(strstr(out, "\t.loc\t2 107 3, function_name $L__info_string0, inlined_at 1 21 43\n"));
    free(out);
    ptx_module_free(m);
}
END_TEST

/* ---------------------------------------------------------------------------------------------------
 * helpers: defs and uses of every opcode class, and the other instruction helpers.
 */

typedef struct {
    const char *insn;
    const char *defs; /* space-separated register names, in order */
    const char *uses;
} defuse_case_t;

static const defuse_case_t defuse_cases[] = {
    {"add.s32 %r1, %r2, %r3;", "%r1", "%r2 %r3"},
    {"add.s32 %r1, %r1, %r1;", "%r1", "%r1"},
    {"mad.lo.s32 %r1, %r2, 7, %r3;", "%r1", "%r2 %r3"},
    {"mov.u32 %r1, %tid.x;", "%r1", ""},
    {"mov.u64 %rd1, k_p;", "%rd1", ""},
    {"ld.global.u32 %r1, [%rd2+4];", "%r1", "%rd2"},
    {"ld.param.u64 %rd1, [k_p];", "%rd1", ""},
    {"ld.global.v4.f32 {%f0, %f1, %f2, %f3}, [%rd1];", "%f0 %f1 %f2 %f3", "%rd1"},
    {"ld.global.v2.u32 {%r1, _}, [%rd1];", "%r1", "%rd1"},
    {"st.global.u32 [%rd1+8], %r2;", "", "%rd1 %r2"},
    {"st.global.v2.f32 [%rd1], {%f1, %f2};", "", "%rd1 %f1 %f2"},
    {"atom.global.add.u32 %r1, [%rd1], %r2;", "%r1", "%rd1 %r2"},
    {"atom.global.cas.b32 %r1, [%rd1], %r2, %r3;", "%r1", "%rd1 %r2 %r3"},
    {"red.global.add.u32 [%rd1], %r2;", "", "%rd1 %r2"},
    {"setp.lt.s32 %p1, %r1, %r2;", "%p1", "%r1 %r2"},
    {"setp.lt.and.s32 %p1|%p2, %r1, %r2, %p3;", "%p1 %p2", "%r1 %r2 %p3"},
    {"shfl.sync.down.b32 %r1|%p1, %r2, 16, 31, %r3;", "%r1 %p1", "%r2 %r3"},
    {"selp.b32 %r1, %r2, %r3, %p1;", "%r1", "%r2 %r3 %p1"},
    {"@%p1 bra L;", "", "%p1"},
    {"@!%p2 add.s32 %r1, %r1, 1;", "%r1", "%p2 %r1"},
    {"or.pred %p1, !%p2, %p3;", "%p1", "%p2 %p3"},
    {"mov.b64 {%r1, %r2}, %rd1;", "%r1 %r2", "%rd1"},
    {"mov.b64 %rd1, {%r1, %r2};", "%rd1", "%r1 %r2"},
    {"cvt.rn.f32.s32 %f1, %r1;", "%f1", "%r1"},
    {"cvta.to.global.u64 %rd1, %rd2;", "%rd1", "%rd2"},
    {"vote.sync.ballot.b32 %r1, %p1, %r2;", "%r1", "%p1 %r2"},
    {"bar.sync 0;", "", ""},
    {"bar.sync %r1, %r2;", "", "%r1 %r2"},
    {"bar.red.popc.u32 %r1, 0, %p1;", "%r1", "%p1"},
    {"membar.gl;", "", ""},
    {"ret;", "", ""},
    {"@%p1 ret;", "", "%p1"},
    {"mbarrier.init.shared.b64 [%rd1], %r1;", "", "%rd1 %r1"},
    {"prefetch.global.L2 [%rd1];", "", "%rd1"},
    {"nanosleep.u32 %r1;", "", "%r1"},
    {"activemask.b32 %r1;", "%r1", ""},
};

/* The names of regs[0..n) joined by spaces. */
static void names(const ptx_module_t *m, const ptx_func_t *f, const uint32_t *regs, unsigned n, char *buf, size_t cap)
{
    buf[0] = '\0';
    for (unsigned i = 0; i < n; i++) {
        size_t l = strlen(buf);
        snprintf(buf + l, cap - l, "%s%s", i ? " " : "", ptx_reg_name(m, f, regs[i]));
    }
}

START_TEST(test_helpers_defuse)
{
    const defuse_case_t *c = &defuse_cases[_i];
    char body[512];
    snprintf(body, sizeof body, "%s\nL:", c->insn);
    char *t = wrap(body);
    ptx_module_t *m = must_parse(t);
    const ptx_func_t *f = &m->funcs[0];
    const ptx_insn_t *in = &f->insns[0];
    uint32_t r[16];
    char got[256];
    unsigned n = ptx_insn_defs(in, f, r, 16);
    names(m, f, r, n, got, sizeof got);
    ck_assert_msg(strcmp(got, c->defs) == 0, "[%s] defs: got \"%s\", want \"%s\"", c->insn, got, c->defs);
    for (unsigned i = 0; i < n; i++) ck_assert(ptx_insn_writes(in, f, r[i]));
    for (uint32_t reg = 0; reg < f->nregs; reg++) {
        bool in_defs = false;
        for (unsigned i = 0; i < n; i++) in_defs |= r[i] == reg;
        ck_assert_int_eq(ptx_insn_writes(in, f, reg), in_defs);
    }
    n = ptx_insn_uses(in, f, r, 16);
    names(m, f, r, n, got, sizeof got);
    ck_assert_msg(strcmp(got, c->uses) == 0, "[%s] uses: got \"%s\", want \"%s\"", c->insn, got, c->uses);
    ptx_module_free(m);
    free(t);
}
END_TEST

START_TEST(test_helpers_call_defuse)
{
    const char *text = HDR ".func (.param .b32 r) g(.param .b32 a);\n"
                           ".entry k() {\n.reg .b64 %rd<2>;\n.reg .b32 %r<3>;\n{\n.param .b32 p0;\n.param .b32 rv;\n"
                           "proto: .callprototype (.param .b32 _) _ (.param .b32 _);\n"
                           "call.uni (rv), g, (p0);\ncall (rv), %rd1, (p0), proto;\ncall (%r1), g, (%r2);\n}\n}\n";
    ptx_module_t *m = must_parse(text);
    const ptx_func_t *f = &m->funcs[1];
    uint32_t r[16];
    char got[128];
    /* ABI call: nothing written (the following ld.param writes), nothing read */
    ck_assert_uint_eq(ptx_insn_defs(&f->insns[0], f, r, 16), 0);
    ck_assert_uint_eq(ptx_insn_uses(&f->insns[0], f, r, 16), 0);
    /* indirect: reads the target register */
    ck_assert_uint_eq(ptx_insn_defs(&f->insns[1], f, r, 16), 0);
    unsigned n = ptx_insn_uses(&f->insns[1], f, r, 16);
    names(m, f, r, n, got, sizeof got);
    ck_assert_str_eq(got, "%rd1");
    /* registers in the lists: the return register is written, the argument register read */
    n = ptx_insn_defs(&f->insns[2], f, r, 16);
    names(m, f, r, n, got, sizeof got);
    ck_assert_str_eq(got, "%r1");
    n = ptx_insn_uses(&f->insns[2], f, r, 16);
    names(m, f, r, n, got, sizeof got);
    ck_assert_str_eq(got, "%r2");
    /* cap: only what fits is written */
    ck_assert_uint_eq(ptx_insn_uses(&f->insns[2], f, r, 0), 0);
    ptx_module_free(m);
}
END_TEST

START_TEST(test_helpers_insn)
{
    char *t = wrap("ld.global.nc.v4.f32 {%f0, %f1, %f2, %f3}, [%rd1];\n"   /* 0 */
                   "st.shared::cta.u16 [%rd1], %r1;\n"                      /* 1 */
                   "atom.global.add.u64 %rd2, [%rd1], 1;\n"                 /* 2 */
                   "red.shared.add.f32 [%rd1], %f1;\n"                      /* 3 */
                   "ld.param::entry.u32 %r1, [k_p];\n"                      /* 4 */
                   "ld.u8 %r1, [%rd1];\n"                                   /* 5 */
                   "cvt.rn.f32.s32 %f1, %r1;\n"                             /* 6 */
                   "@%p1 bra L;\n"                                          /* 7 */
                   "L:\nexit;\n"                                            /* 8 */
                   "trap;\n"                                                /* 9 */
                   "ld.global.v2.b64 {%rd1, %rd2}, [%rd3];\n"               /* 10 */
                   "cvta.to.global.u64 %rd1, %rd2;\n");                     /* 11 */
    ptx_module_t *m = must_parse(t);
    const ptx_func_t *f = &m->funcs[0];
    const ptx_insn_t *in = f->insns;
    ck_assert_int_eq(ptx_insn_space(&in[0]), PTX_SPACE_GLOBAL);
    ck_assert_uint_eq(ptx_insn_vec(&in[0]), 4);
    ck_assert_uint_eq(ptx_insn_access_bytes(&in[0]), 16);
    ck_assert_int_eq(ptx_insn_addr_op(&in[0]), 1);
    ck_assert(ptx_insn_has(&in[0], PTX_MOD_NC));
    ck_assert(!ptx_insn_has(&in[0], PTX_MOD_CA));
    ck_assert_int_eq(ptx_insn_space(&in[1]), PTX_SPACE_SHARED); /* shared::cta folds into shared */
    ck_assert_uint_eq(ptx_insn_access_bytes(&in[1]), 2);
    ck_assert_int_eq(ptx_insn_addr_op(&in[1]), 0);
    ck_assert_uint_eq(ptx_insn_access_bytes(&in[2]), 8);
    ck_assert_int_eq(ptx_insn_mod_of_class(&in[2], PTX_MC_OTHER), PTX_MOD_ADD);
    ck_assert_uint_eq(ptx_insn_access_bytes(&in[3]), 4);
    ck_assert_int_eq(ptx_insn_space(&in[3]), PTX_SPACE_SHARED);
    ck_assert_int_eq(ptx_insn_space(&in[4]), PTX_SPACE_PARAM); /* param::entry folds into param */
    ck_assert_int_eq(ptx_insn_space(&in[5]), PTX_SPACE_NONE);  /* generic */
    ck_assert_uint_eq(ptx_insn_access_bytes(&in[5]), 1);
    ptx_type_t ty[3];
    ck_assert_uint_eq(ptx_insn_types(&in[6], ty), 2);
    ck_assert_int_eq(ty[0], PTX_T_F32);
    ck_assert_int_eq(ty[1], PTX_T_S32);
    ck_assert_int_eq(ptx_insn_mod_of_class(&in[6], PTX_MC_ROUND), PTX_MOD_RN);
    ck_assert_int_eq(ptx_insn_mod_of_class(&in[6], PTX_MC_CMP), PTX_MOD_NONE);
    ck_assert_uint_eq(ptx_insn_access_bytes(&in[6]), 0);
    ck_assert_int_eq(ptx_insn_addr_op(&in[6]), -1);
    ck_assert(ptx_insn_is_terminator(&in[7]));
    ck_assert(ptx_insn_is_terminator(&in[8]));
    ck_assert(ptx_insn_is_terminator(&in[9]));
    ck_assert(!ptx_insn_is_terminator(&in[6]));
    ck_assert_uint_eq(ptx_insn_access_bytes(&in[10]), 16);
    ck_assert_uint_eq(ptx_insn_access_bytes(&in[11]), 0);
    ck_assert_int_eq(ptx_insn_space(&in[11]), PTX_SPACE_GLOBAL);
    ck_assert_uint_eq(ptx_insn_vec(&in[11]), 1);
    /* ptx_format_insn: canonical text, snprintf-like truncation */
    char buf[64];
    int n = ptx_format_insn(m, f, &in[0], buf, sizeof buf);
    ck_assert_str_eq(buf, "ld.global.nc.v4.f32\t{%f0, %f1, %f2, %f3}, [%rd1]");
    ck_assert_int_eq(n, (int)strlen(buf));
    n = ptx_format_insn(m, f, &in[7], buf, 6);
    ck_assert_int_eq(n, (int)strlen("@%p1 bra\tL"));
    ck_assert_str_eq(buf, "@%p1 ");
    ck_assert_int_eq(ptx_format_insn(m, f, &in[7], NULL, 0), n);
    ptx_module_free(m);
    free(t);
}
END_TEST

START_TEST(test_helpers_vocab)
{
    for (int o = 1; o < PTX_OPC_COUNT; o++) {
        const char *s = ptx_opcode_name((ptx_opcode_t)o);
        ck_assert_str_ne(s, "?");
        for (int p = 1; p < o; p++) ck_assert_str_ne(s, ptx_opcode_name((ptx_opcode_t)p));
    }
    ck_assert_str_eq(ptx_opcode_name(PTX_OPC_COUNT), "?");
    ck_assert_str_eq(ptx_opcode_name(PTX_OPC_LD), "ld");
    for (int md = 1; md < PTX_MOD_COUNT; md++) {
        const char *s = ptx_mod_name((ptx_mod_t)md);
        for (int p = 1; p < md; p++) ck_assert_str_ne(s, ptx_mod_name((ptx_mod_t)p));
        ptx_type_t t = ptx_mod_type((ptx_mod_t)md);
        ptx_space_t sp = ptx_mod_space((ptx_mod_t)md);
        ck_assert_int_eq(t != PTX_T_NONE, ptx_mod_class((ptx_mod_t)md) == PTX_MC_TYPE);
        ck_assert_int_eq(sp != PTX_SPACE_NONE, ptx_mod_class((ptx_mod_t)md) == PTX_MC_SPACE);
        if (t != PTX_T_NONE) {
            ck_assert_int_eq(ptx_mod_from_type(t), md);
            ck_assert_str_eq(ptx_type_name(t), s);
        }
        if (sp != PTX_SPACE_NONE) {
            ck_assert_int_eq(ptx_mod_from_space(sp), md);
            ck_assert_str_eq(ptx_space_name(sp), s);
        }
    }
    ck_assert_str_eq(ptx_mod_name(PTX_MOD_L1_NO_ALLOCATE), "L1::no_allocate");
    ck_assert_str_eq(ptx_mod_name(PTX_MOD_NAN_MINMAX), "NaN");
    ck_assert_int_eq(ptx_mod_class(PTX_MOD_RN), PTX_MC_ROUND);
    ck_assert_int_eq(ptx_mod_class(PTX_MOD_GEU), PTX_MC_CMP);
    ck_assert_int_eq(ptx_mod_class(PTX_MOD_XOR), PTX_MC_BOOL);
    ck_assert_int_eq(ptx_mod_class(PTX_MOD_V4), PTX_MC_VEC);
    ck_assert_int_eq(ptx_mod_class(PTX_MOD_SAT), PTX_MC_OTHER);
    ck_assert_int_eq(ptx_mod_type(PTX_MOD_U32), PTX_T_U32);
    ck_assert_int_eq(ptx_mod_space(PTX_MOD_SHARED_CTA), PTX_SPACE_SHARED_CTA);
    ck_assert_uint_eq(ptx_type_bytes(PTX_T_B8), 1);
    ck_assert_uint_eq(ptx_type_bytes(PTX_T_F16), 2);
    ck_assert_uint_eq(ptx_type_bytes(PTX_T_BF16X2), 4);
    ck_assert_uint_eq(ptx_type_bytes(PTX_T_TF32), 4);
    ck_assert_uint_eq(ptx_type_bytes(PTX_T_S64), 8);
    ck_assert_uint_eq(ptx_type_bytes(PTX_T_B128), 16);
    ck_assert_uint_eq(ptx_type_bytes(PTX_T_PRED), 0);
    ck_assert_uint_eq(ptx_type_bytes(PTX_T_U4), 0);
    ck_assert(ptx_type_is_float(PTX_T_F16X2));
    ck_assert(ptx_type_is_float(PTX_T_F64));
    ck_assert(!ptx_type_is_float(PTX_T_B32));
    ck_assert(ptx_type_is_signed(PTX_T_S8));
    ck_assert(!ptx_type_is_signed(PTX_T_U8));
    ck_assert(!ptx_type_is_signed(PTX_T_F32));
    ck_assert_str_eq(ptx_sreg_name(PTX_SREG_TID), "%tid");
    ck_assert_str_eq(ptx_sreg_name(PTX_SREG_CLOCK64), "%clock64");
    ck_assert_str_eq(ptx_sreg_name(PTX_SREG_COUNT), "?");
    ck_assert_str_eq(ptx_space_name(PTX_SPACE_NONE), "?");
}
END_TEST

START_TEST(test_helpers_strings_growth)
{
    ptx_module_t *m = calloc(1, sizeof *m);
    ck_assert_ptr_nonnull(m);
    uint32_t a = ptx_intern(m, "abc", 3);
    uint32_t b = ptx_intern(m, "abcd", 3);
    ck_assert_uint_eq(a, b);
    ck_assert_uint_ne(a, 0);
    ck_assert_str_eq(ptx_str(m, 0), "");
    ck_assert_str_eq(ptx_str(m, a), "abc");
    ck_assert_str_eq(ptx_str(m, 999999), "");
    /* many strings: ids stay stable through rehashing */
    char buf[32];
    for (int i = 0; i < 5000; i++) {
        snprintf(buf, sizeof buf, "s%d", i);
        uint32_t id = ptx_intern(m, buf, strlen(buf));
        ck_assert_str_eq(ptx_str(m, id), buf);
    }
    ck_assert_uint_eq(ptx_intern(m, "abc", 3), a);
    ck_assert_uint_eq(ptx_intern(m, "s4321", 5), ptx_intern(m, "s4321", 5));
    /* growth helpers */
    uint32_t fi = ptx_module_add_func(m);
    ck_assert_uint_eq(fi, 0);
    ptx_func_t *f = &m->funcs[fi];
    for (uint32_t i = 0; i < 100; i++) {
        ck_assert_uint_eq(ptx_func_add_reg(f, a, PTX_T_B32, 0), i);
        ck_assert_uint_eq(ptx_func_add_label(f, a), i);
    }
    ck_assert_uint_eq(f->labels[5].stmt, UINT32_MAX);
    ck_assert_uint_eq(f->regs[7].vec, 1);
    ptx_operand_t ops[3];
    memset(ops, 0, sizeof ops);
    ops[1].kind = PTX_OPK_IMM;
    ops[1].imm = 42;
    ck_assert_uint_eq(ptx_func_add_pool(f, ops, 3), 0);
    ck_assert_uint_eq(ptx_func_add_pool(f, ops, 3), 3);
    ck_assert_int_eq(f->pool[4].imm, 42);
    ptx_insn_t in;
    memset(&in, 0, sizeof in);
    in.opc = PTX_OPC_RET;
    in.guard = PTX_NOREG;
    ck_assert_uint_eq(ptx_func_add_insn(f, &in), 0);
    ptx_stmt_t st;
    memset(&st, 0, sizeof st);
    ck_assert_uint_eq(ptx_func_add_stmt(f, &st), 0);
    ptx_sym_t s;
    memset(&s, 0, sizeof s);
    s.kind = PTX_SYM_FUNC;
    s.name = a;
    s.func = -1;
    ck_assert_uint_eq(ptx_module_add_sym(m, &s), 0);
    f->sym = 0;
    ptx_item_t it;
    memset(&it, 0, sizeof it);
    it.kind = PTX_ITEM_FUNC;
    ck_assert_uint_eq(ptx_module_add_item(m, &it), 0);
    ck_assert_uint_eq(ptx_find_global(m, "abc"), 0);
    ck_assert_uint_eq(ptx_find_global(m, "zzz"), PTX_NOSYM);
    ptx_err_t err;
    ck_assert_int_eq(ptx_module_validate(m, &err), 0);
    f->insns[0].guard = 1000;
    ck_assert_int_eq(ptx_module_validate(m, &err), -1);
    ck_assert_ptr_nonnull(strstr(err.msg, "guard register out of range"));
    ptx_module_free(m);
    ptx_module_free(NULL);
}
END_TEST

/* ---------------------------------------------------------------------------------------------------
 * nvcc at test time.
 */

START_TEST(test_nvcc_roundtrip)
{
    if (!have_tool("nvcc") || !have_tool("ptxas")) {
        fprintf(stderr, "test_ptx_parse: SKIP nvcc round trips: nvcc or ptxas not on the PATH\n");
        return;
    }
    char srcdir[1024];
    snprintf(srcdir, sizeof srcdir, "%s/src", fixture_dir());
    DIR *d = opendir(srcdir);
    ck_assert_msg(d != NULL, "cannot open %s", srcdir);
    char *tmp = make_tmpdir();
    ck_assert_ptr_nonnull(tmp);
    unsigned count = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        size_t l = strlen(e->d_name);
        if (l < 4 || strcmp(e->d_name + l - 3, ".cu") != 0) continue;
        for (int lineinfo = 0; lineinfo < 2; lineinfo++) {
            char out[2048], cmd[8192], log[4096];
            snprintf(out, sizeof out, "%s/%.*s%s.ptx", tmp, (int)(l - 3), e->d_name, lineinfo ? ".lineinfo" : "");
            snprintf(cmd, sizeof cmd, "nvcc -O3 -arch=sm_80 -ptx %s '%s/%s' -o '%s' > '%s.log' 2>&1",
                     lineinfo ? "-lineinfo" : "", srcdir, e->d_name, out, out);
            int rc = run_cmd(cmd);
            ck_assert_msg(rc == 0, "nvcc failed (exit %d): %s", rc, cmd);
            ptx_err_t err;
            ptx_module_t *m = ptx_parse_file(out, &err);
            ck_assert_msg(m != NULL, "nvcc output does not parse: %s", err.msg);
            ck_assert_msg(ptx_module_validate(m, &err) == 0, "%s", err.msg);
            char *printed = check_fixed_point(m, out);
            char name[1100];
            snprintf(name, sizeof name, "%.*s%s.printed.ptx", (int)(l - 3), e->d_name, lineinfo ? ".lineinfo" : "");
            rc = ptxas_check(tmp, name, printed, strlen(printed), log, sizeof log);
            ck_assert_msg(rc == 0, "ptxas rejects the printed form of %s (exit %d):\n%s", out, rc, log);
            if (lineinfo) {
                bool has_loc = false;
                for (uint32_t fi = 0; fi < m->nfuncs && !has_loc; fi++)
                    for (uint32_t s = 0; s < m->funcs[fi].nstmts && !has_loc; s++)
                        has_loc = m->funcs[fi].stmts[s].kind == PTX_ST_LOC;
                ck_assert_msg(has_loc && m->nfiles > 0, "%s: -lineinfo output without .loc/.file", out);
            }
            free(printed);
            ptx_module_free(m);
            count++;
        }
    }
    closedir(d);
    rm_rf(tmp);
    free(tmp);
    ck_assert_uint_ge(count, 8);
}
END_TEST

/* ---------------------------------------------------------------------------------------------------
 * scale: a generated file over 1 MB; parsing must stay linear.
 */

static char *gen_big(unsigned kernels, size_t *len)
{
    size_t cap = (size_t)kernels * 2048 + 256, n = 0;
    char *s = malloc(cap);
    ck_assert_ptr_nonnull(s);
    n += (size_t)snprintf(s + n, cap - n, HDR ".global .align 4 .u32 g[16];\n");
    for (unsigned k = 0; k < kernels; k++) {
        n += (size_t)snprintf(s + n, cap - n,
                              ".visible .entry k%u(.param .u64 p, .param .u32 n)\n{\n.reg .pred %%p<3>;\n"
                              ".reg .b32 %%r<12>;\n.reg .b64 %%rd<8>;\n.reg .f32 %%f<6>;\n"
                              "ld.param.u64 %%rd1, [p];\nld.param.u32 %%r1, [n];\ncvta.to.global.u64 %%rd2, %%rd1;\n"
                              "mov.u32 %%r2, %%ctaid.x;\nmov.u32 %%r3, %%ntid.x;\nmov.u32 %%r4, %%tid.x;\n"
                              "mad.lo.s32 %%r5, %%r2, %%r3, %%r4;\nsetp.ge.s32 %%p1, %%r5, %%r1;\n@%%p1 bra $L__BB%u_2;\n"
                              "$L__BB%u_1:\nmul.wide.s32 %%rd3, %%r5, 4;\nadd.s64 %%rd4, %%rd2, %%rd3;\n"
                              "ld.global.f32 %%f1, [%%rd4];\nfma.rn.f32 %%f2, %%f1, 0f3F800000, 0f40000000;\n"
                              "st.global.f32 [%%rd4+4], %%f2;\nld.global.u32 %%r6, [g+8];\n"
                              "atom.global.add.u32 %%r7, [%%rd4], %%r6;\nadd.s32 %%r5, %%r5, %%r3;\n"
                              "setp.lt.s32 %%p2, %%r5, %%r1;\n@%%p2 bra $L__BB%u_1;\n$L__BB%u_2:\nret;\n}\n",
                              k, k, k, k, k);
        ck_assert_uint_lt(n, cap);
    }
    *len = n;
    return s;
}

/* Pathological shapes, each n times: many .file lines, many forward labels, many scopes, many
 * initialized variables. */
static char *gen_shape(int shape, unsigned n, size_t *len)
{
    size_t cap = (size_t)n * 96 + 4096, k = 0;
    char *s = malloc(cap);
    ck_assert_ptr_nonnull(s);
    k += (size_t)snprintf(s + k, cap - k, HDR);
    if (shape == 1 || shape == 2) k += (size_t)snprintf(s + k, cap - k, ".entry k()\n{\n.reg .pred %%p<2>;\n");
    for (unsigned i = 0; i < n; i++) {
        switch (shape) {
        case 0: k += (size_t)snprintf(s + k, cap - k, ".file %u \"src/f%u.cu\"\n", i + 1, i); break;
        case 1: k += (size_t)snprintf(s + k, cap - k, "@%%p1 bra L%u;\n", (i * 7919u) % n); break;
        case 2: k += (size_t)snprintf(s + k, cap - k, "{\n.reg .b32 t<2>;\n.param .b32 q;\nmov.u32 t1, t0;\n}\n"); break;
        default: k += (size_t)snprintf(s + k, cap - k, ".global .u32 v%u[2] = {%u, 7};\n", i, i); break;
        }
        ck_assert_uint_lt(k, cap);
    }
    if (shape == 1)
        for (unsigned i = 0; i < n; i++) k += (size_t)snprintf(s + k, cap - k, "L%u:\n", i);
    if (shape == 1 || shape == 2) k += (size_t)snprintf(s + k, cap - k, "ret;\n}\n");
    ck_assert_uint_lt(k, cap);
    *len = k;
    return s;
}

static double parse_seconds(const char *s, size_t n)
{
    struct timespec a, b;
    clock_gettime(CLOCK_MONOTONIC, &a);
    ptx_err_t err;
    ptx_module_t *m = ptx_parse("big.ptx", s, n, &err);
    clock_gettime(CLOCK_MONOTONIC, &b);
    ck_assert_msg(m != NULL, "%s", err.msg);
    ptx_module_free(m);
    return (double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) * 1e-9;
}

START_TEST(test_scale_linear)
{
    size_t n1, n2;
    char *small = gen_big(400, &n1);
    char *big = gen_big(1600, &n2);
    ck_assert_uint_gt(n2, 1000000);
    double t1 = parse_seconds(small, n1);
    double t2 = parse_seconds(big, n2);
    fprintf(stderr, "test_ptx_parse: parsed %zu bytes in %.3f s, %zu bytes in %.3f s\n", n1, t1, n2, t2);
    /* 4x the input must not take 16x the time (quadratic); generous slack for noisy machines */
    ck_assert_msg(t2 < 10.0 * t1 + 0.05, "not linear: %.3f s for %zu bytes vs %.3f s for %zu", t2, n2, t1, n1);
    ck_assert_msg(t2 < 20.0, "1 MB took %.3f s", t2);
    free(small);
    free(big);
    for (int shape = 0; shape < 4; shape++) {
        char *a = gen_shape(shape, 5000, &n1);
        char *b = gen_shape(shape, 20000, &n2);
        t1 = parse_seconds(a, n1);
        t2 = parse_seconds(b, n2);
        ck_assert_msg(t2 < 10.0 * t1 + 0.05, "shape %d not linear: %.3f s for %zu bytes vs %.3f s for %zu", shape, t2, n2,
                      t1, n1);
        free(a);
        free(b);
    }
}
END_TEST

static Suite *ptx_suite(void)
{
    Suite *s = suite_create("ptx_parse");
    TCase *tc = tcase_create("accept");
    tcase_add_loop_test(tc, test_accept, 0, (int)(sizeof accept_cases / sizeof accept_cases[0]));
    suite_add_tcase(s, tc);
    tc = tcase_create("ir");
    tcase_add_test(tc, test_ir_operands);
    tcase_add_test(tc, test_ir_scopes);
    tcase_add_test(tc, test_ir_calls_indirect);
    tcase_add_test(tc, test_ir_module);
    tcase_add_test(tc, test_ir_loc);
    tcase_add_test(tc, test_ir_regdecl);
    tcase_add_test(tc, test_ir_labels);
    suite_add_tcase(s, tc);
    tc = tcase_create("reject");
    tcase_add_loop_test(tc, test_reject, 0, (int)(sizeof reject_cases / sizeof reject_cases[0]));
    tcase_add_test(tc, test_reject_name_limit);
    tcase_add_test(tc, test_reject_io);
    tcase_add_test(tc, test_reject_prefixes);
    tcase_set_timeout(tc, 60);
    suite_add_tcase(s, tc);
    tc = tcase_create("roundtrip");
    tcase_add_test(tc, test_roundtrip_fixtures);
    tcase_add_test(tc, test_roundtrip_constructs_content);
    tcase_set_timeout(tc, 300);
    suite_add_tcase(s, tc);
    tc = tcase_create("helpers");
    tcase_add_loop_test(tc, test_helpers_defuse, 0, (int)(sizeof defuse_cases / sizeof defuse_cases[0]));
    tcase_add_test(tc, test_helpers_call_defuse);
    tcase_add_test(tc, test_helpers_insn);
    tcase_add_test(tc, test_helpers_vocab);
    tcase_add_test(tc, test_helpers_strings_growth);
    suite_add_tcase(s, tc);
    tc = tcase_create("nvcc");
    tcase_add_test(tc, test_nvcc_roundtrip);
    tcase_set_timeout(tc, 900);
    suite_add_tcase(s, tc);
    tc = tcase_create("scale");
    tcase_add_test(tc, test_scale_linear);
    tcase_set_timeout(tc, 300);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(ptx_suite());
    srunner_run_all(sr, CK_ENV);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
