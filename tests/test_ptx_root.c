/*
 * test_ptx_root.c — reaching definitions (ptx_reach.h) and the root-pointer analysis (ptx_root.h,
 * docs/compiler.md §3) against hand-written PTX whose expected roots, classes, shared bases and
 * per-function counts are written next to each access (tests/ptx/roots/README.md gives the format).
 * Every checked access of a fixture must carry an expectation, so each fixture is checked exactly;
 * a deliberately wrong expectation must be reported (the checker can fail).
 */
#include "ptx_cfg.h"
#include "ptx_fixture.h"
#include "ptx_instr.h"
#include "ptx_reach.h"
#include "ptx_root.h"

#include <check.h>
#include <ctype.h>
#include <stdarg.h>

/* ------------------------------------------------------------------------------------------------
 * Expectations.
 */

typedef struct {
    uint32_t line;  /* of the instruction it applies to (0: function or error expectation) */
    char text[400]; /* after "//@ " */
} exp_t;

typedef struct {
    exp_t *v;
    size_t n;
} exps_t;

static bool is_insn_line(const char *s, size_t n)
{
    while (n && isspace((unsigned char)*s)) s++, n--;
    while (n && isspace((unsigned char)s[n - 1])) n--;
    if (n == 0) return false;
    if (n >= 2 && s[0] == '/' && s[1] == '/') return false;
    if (s[0] == '.' || s[0] == '{' || s[0] == '}' || s[0] == ')' || s[0] == '(') return false;
    if (s[n - 1] == ':') return false;
    return true;
}

static exps_t collect(const char *text)
{
    exps_t e = {NULL, 0};
    size_t pend_start = 0;
    uint32_t line = 1;
    const char *p = text;
    while (*p) {
        const char *nl = strchr(p, '\n');
        size_t n = nl ? (size_t)(nl - p) : strlen(p);
        const char *s = p;
        size_t k = n;
        while (k && isspace((unsigned char)*s)) s++, k--;
        if (k >= 4 && strncmp(s, "//@ ", 4) == 0) {
            exp_t x;
            memset(&x, 0, sizeof x);
            size_t tl = k - 4 < sizeof x.text - 1 ? k - 4 : sizeof x.text - 1;
            memcpy(x.text, s + 4, tl);
            while (tl && isspace((unsigned char)x.text[tl - 1])) x.text[--tl] = 0;
            exp_t *nv = realloc(e.v, (e.n + 1) * sizeof *nv);
            ck_assert_ptr_nonnull(nv);
            e.v = nv;
            e.v[e.n++] = x;
        } else if (is_insn_line(p, n)) {
            for (size_t j = pend_start; j < e.n; j++)
                if (strncmp(e.v[j].text, "func ", 5) != 0 && strncmp(e.v[j].text, "error ", 6) != 0) e.v[j].line = line;
            pend_start = e.n;
        }
        line++;
        p = nl ? nl + 1 : p + n;
    }
    return e;
}

/* Messages of the checker: the first mismatch of a fixture. */
typedef struct {
    char msg[1024];
    int bad;
} why_t;

static void fail_at(why_t *w, const char *fmt, ...)
{
    if (w->bad++) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(w->msg, sizeof w->msg, fmt, ap);
    va_end(ap);
}

static void root_key(const ptx_root_func_t *a, uint32_t r, char *buf, size_t cap)
{
    const ptx_root_t *x = &a->roots[r];
    const ptx_module_t *m = a->m;
    switch ((ptx_rootkind_t)x->kind) {
    case PTX_ROOT_PARAM: snprintf(buf, cap, "param:%s+%lld", ptx_sym_name(m, x->sym), (long long)x->value); break;
    case PTX_ROOT_VAR: snprintf(buf, cap, "var:%s", ptx_sym_name(m, x->sym)); break;
    case PTX_ROOT_CONST: snprintf(buf, cap, "const:%lld", (long long)x->value); break;
    case PTX_ROOT_UNDEF: snprintf(buf, cap, "undef:%s", ptx_reg_name(m, a->f, x->reg)); break;
    case PTX_ROOT_LOAD: snprintf(buf, cap, "load:%s", ptx_reg_name(m, a->f, x->reg)); break;
    case PTX_ROOT_CALL: snprintf(buf, cap, "call:%s", ptx_reg_name(m, a->f, x->reg)); break;
    case PTX_ROOT_INTER: snprintf(buf, cap, "inter:%s", ptx_reg_name(m, a->f, x->reg)); break;
    }
}

static int class_of(const char *s)
{
    if (strcmp(s, "full") == 0) return PTX_CLASS_FULL;
    if (strcmp(s, "partial") == 0) return PTX_CLASS_PARTIAL;
    if (strcmp(s, "tagging") == 0) return PTX_CLASS_TAGGING;
    return -1;
}

/* One access against one expectation line. */
static void check_access(const ptx_root_func_t *a, const ptx_access_t *x, const char *text, const char *where, why_t *w)
{
    char buf[400];
    snprintf(buf, sizeof buf, "%s", text);
    char *save = NULL;
    char *tok = strtok_r(buf, " ", &save);
    const char *kind = x->check == PTX_CHECK_G ? "G" : "S";
    if (tok == NULL || strcmp(tok, kind) != 0) {
        fail_at(w, "%s: expected '%s', the analysis made a MEMCHECK.%s", where, text, kind);
        return;
    }
    bool used[64];
    memset(used, 0, sizeof used);
    uint32_t nexp = 0;
    int field = 0;
    while ((tok = strtok_r(NULL, " ", &save)) != NULL) {
        if (strncmp(tok, "size=", 5) == 0) {
            if ((unsigned)atoi(tok + 5) != x->size) fail_at(w, "%s: size %u, expected %s", where, x->size, tok + 5);
            continue;
        }
        if (strncmp(tok, "op=", 3) == 0) {
            bool st = strcmp(tok + 3, "store") == 0;
            if (st != x->store) fail_at(w, "%s: %s, expected %s", where, x->store ? "store" : "load", tok + 3);
            continue;
        }
        if (x->check == PTX_CHECK_S) {
            char exp_res[200];
            if (x->sres == PTX_SHARED_UNRESOLVED) snprintf(exp_res, sizeof exp_res, "unresolved");
            else snprintf(exp_res, sizeof exp_res, "%s:%s", ptx_sres_name((ptx_sres_t)x->sres), ptx_sym_name(a->m, x->svar));
            if (strcmp(tok, exp_res) != 0) fail_at(w, "%s: shared base %s, expected %s", where, exp_res, tok);
            continue;
        }
        if (field == 0) {
            if (class_of(tok) != x->cls)
                fail_at(w, "%s: class %s, expected %s", where, ptx_class_name((ptx_class_t)x->cls), tok);
            field++;
            continue;
        }
        if (field == 1) {
            const char *mode = x->shadowed ? "shadowed" : "direct";
            if (strcmp(tok, mode) != 0) fail_at(w, "%s: %s, expected %s", where, mode, tok);
            field++;
            continue;
        }
        /* A root, with an optional =class. */
        nexp++;
        char key[200];
        snprintf(key, sizeof key, "%s", tok);
        char *eq = strchr(key, '=');
        int cls = -1;
        if (eq) {
            *eq = 0;
            cls = class_of(eq + 1);
        }
        bool found = false;
        for (uint32_t k = 0; k < x->nroots && k < 64 && !found; k++) {
            if (used[k]) continue;
            char got[200];
            root_key(a, a->acc_roots[x->root_first + k], got, sizeof got);
            if (strcmp(got, key) != 0) continue;
            used[k] = found = true;
            if (cls >= 0 && cls != a->acc_root_cls[x->root_first + k])
                fail_at(w, "%s: root %s has class %s, expected %s", where, key,
                        ptx_class_name((ptx_class_t)a->acc_root_cls[x->root_first + k]), eq + 1);
        }
        if (!found) {
            char all[400] = "";
            for (uint32_t k = 0; k < x->nroots; k++) {
                char got[200];
                root_key(a, a->acc_roots[x->root_first + k], got, sizeof got);
                strncat(all, " ", sizeof all - strlen(all) - 1);
                strncat(all, got, sizeof all - strlen(all) - 1);
            }
            fail_at(w, "%s: expected root %s, the analysis found:%s", where, key, all);
        }
    }
    if (x->check == PTX_CHECK_G && nexp != x->nroots)
        fail_at(w, "%s: %u roots found, %u expected", where, x->nroots, nexp);
}

/* LOADMETA calls of the instrumented function fi that sit inside a natural loop. */
static uint32_t loadmeta_in_loops(const ptx_module_t *m, uint32_t fi)
{
    ptx_err_t e;
    ptx_cfg_t *g = ptx_cfg_build(m, &m->funcs[fi], &e);
    ck_assert_msg(g != NULL, "%s", e.msg);
    uint32_t n = 0;
    const ptx_func_t *f = &m->funcs[fi];
    for (uint32_t i = 0; i < f->ninsns; i++) {
        const ptx_insn_t *in = &f->insns[i];
        if (in->opc != PTX_OPC_CALL || in->ops[1].kind != PTX_OPK_SYM) continue;
        if (strcmp(ptx_sym_name(m, in->ops[1].sym), "__ga_loadmeta") != 0) continue;
        uint32_t b = g->insn_block[i];
        if (b != PTX_CFG_NONE && g->blocks[b].loop_depth > 0) n++;
    }
    ptx_cfg_free(g);
    return n;
}

/* Check one fixture given as text; returns the number of mismatches (first one in w). */
static int check_fixture_text(const char *name, const char *text, why_t *w)
{
    memset(w, 0, sizeof *w);
    exps_t ex = collect(text);
    ptx_err_t e;
    memset(&e, 0, sizeof e);
    ptx_module_t *m = ptx_parse(name, text, strlen(text), &e);
    ck_assert_msg(m != NULL, "%s", e.msg);
    const char *errexp = NULL;
    for (size_t k = 0; k < ex.n; k++)
        if (strncmp(ex.v[k].text, "error ", 6) == 0) errexp = ex.v[k].text + 6;
    if (errexp) {
        unsigned el = 0, ec = 0;
        int off = 0;
        ck_assert_int_eq(sscanf(errexp, "%u:%u %n", &el, &ec, &off), 2);
        char *before = fx_print(m);
        ptx_instr_result_t res;
        int rc = ptx_instrument(m, &res, &e);
        char *after = fx_print(m);
        if (rc == 0) fail_at(w, "%s: expected the error '%s', the pass succeeded", name, errexp + off);
        else if (e.pos.line != el || e.pos.col != ec || strstr(e.msg, errexp + off) == NULL)
            fail_at(w, "%s: expected an error at %u:%u containing '%s', got '%s'", name, el, ec, errexp + off, e.msg);
        else if (strstr(e.msg, name) != e.msg)
            fail_at(w, "%s: the message '%s' does not start with the file name", name, e.msg);
        if (strcmp(before, after) != 0) fail_at(w, "%s: a refused module was changed", name);
        if (rc == 0) ptx_instr_result_free(&res);
        free(before), free(after);
        ptx_module_free(m);
        free(ex.v);
        return w->bad;
    }
    size_t *matched = calloc(ex.n + 1, sizeof *matched);
    ck_assert_ptr_nonnull(matched);
    ptx_root_func_t *an = calloc(m->nfuncs + 1, sizeof *an);
    ck_assert_ptr_nonnull(an);
    for (uint32_t fi = 0; fi < m->nfuncs; fi++) {
        if (!m->funcs[fi].defined) continue;
        ck_assert_msg(ptx_root_analyze(m, fi, &an[fi], &e) == 0, "%s", e.msg);
        const ptx_root_func_t *a = &an[fi];
        for (uint32_t k = 0; k < a->nacc; k++) {
            const ptx_access_t *x = &a->acc[k];
            uint32_t line = m->funcs[fi].insns[x->insn].pos.line;
            /* The j-th access at a line takes the j-th G/S expectation there. */
            size_t idx = SIZE_MAX;
            size_t seen = 0;
            uint32_t before = 0;
            for (uint32_t j = 0; j < k; j++) before += m->funcs[fi].insns[a->acc[j].insn].pos.line == line;
            for (size_t j = 0; j < ex.n && idx == SIZE_MAX; j++)
                if (ex.v[j].line == line && strcmp(ex.v[j].text, "none") != 0 && seen++ == before) idx = j;
            char where[128];
            snprintf(where, sizeof where, "%s:%u", name, line);
            if (idx == SIZE_MAX) {
                fail_at(w, "%s: a MEMCHECK.%s without an expectation", where, x->check == PTX_CHECK_G ? "G" : "S");
                continue;
            }
            matched[idx]++;
            check_access(a, x, ex.v[idx].text, where, w);
        }
    }
    for (size_t j = 0; j < ex.n; j++) {
        if (ex.v[j].line == 0) continue;
        bool none = strcmp(ex.v[j].text, "none") == 0;
        if (none) {
            for (uint32_t fi = 0; fi < m->nfuncs; fi++)
                for (uint32_t k = 0; k < an[fi].nacc; k++)
                    if (m->funcs[fi].insns[an[fi].acc[k].insn].pos.line == ex.v[j].line)
                        fail_at(w, "%s:%u: expected no check, the analysis made one", name, ex.v[j].line);
        } else if (matched[j] != 1) {
            fail_at(w, "%s:%u: the expectation '%s' matches no access", name, ex.v[j].line, ex.v[j].text);
        }
    }
    /* Per-function counts after instrumentation, and LOADMETA placement for every function: inside
     * loops exactly for the roots defined inside loops (R7). */
    ptx_module_t *mi = ptx_parse(name, text, strlen(text), &e);
    ck_assert_ptr_nonnull(mi);
    ptx_instr_result_t res;
    ck_assert_msg(ptx_instrument(mi, &res, &e) == 0, "%s", e.msg);
    for (uint32_t fi = 0; fi < m->nfuncs; fi++) {
        if (!m->funcs[fi].defined) continue;
        const ptx_root_func_t *a = &an[fi];
        ptx_cfg_t *g = ptx_cfg_build(m, &m->funcs[fi], &e);
        ck_assert_ptr_nonnull(g);
        uint32_t want_loop = 0;
        for (uint32_t r = 0; r < a->nroots; r++)
            if (a->roots[r].kind >= PTX_ROOT_LOAD && g->blocks[g->insn_block[a->roots[r].insn]].loop_depth > 0) want_loop++;
        ptx_cfg_free(g);
        uint32_t got_loop = loadmeta_in_loops(mi, fi);
        const char *fname = ptx_sym_name(m, m->funcs[fi].sym);
        if (got_loop != want_loop)
            fail_at(w, "%s: %s has %u LOADMETA in loops, %u roots are defined in loops", name, fname, got_loop, want_loop);
        const ptx_instr_stats_t *s = &res.func[fi];
        if (s->loadmeta != a->nroots) fail_at(w, "%s: %s: %u LOADMETA for %u roots", name, fname, s->loadmeta, a->nroots);
        for (size_t j = 0; j < ex.n; j++) {
            if (strncmp(ex.v[j].text, "func ", 5) != 0) continue;
            char buf[400];
            snprintf(buf, sizeof buf, "%s", ex.v[j].text + 5);
            char *save = NULL;
            char *tok = strtok_r(buf, " ", &save);
            if (tok == NULL || strcmp(tok, fname) != 0) continue;
            while ((tok = strtok_r(NULL, " ", &save)) != NULL) {
                char *eq = strchr(tok, '=');
                ck_assert_ptr_nonnull(eq);
                *eq = 0;
                unsigned want = (unsigned)atoi(eq + 1), got;
                if (strcmp(tok, "loadmeta") == 0) got = s->loadmeta;
                else if (strcmp(tok, "movs") == 0) got = s->md_movs;
                else if (strcmp(tok, "shadows") == 0) got = s->shadows;
                else if (strcmp(tok, "mcg") == 0) got = s->memcheck_g;
                else if (strcmp(tok, "mcs") == 0) got = s->memcheck_s;
                else if (strcmp(tok, "loop_loadmeta") == 0) got = got_loop;
                else ck_abort_msg("%s: unknown function expectation '%s'", name, tok);
                if (got != want) fail_at(w, "%s: %s: %s = %u, expected %u", name, fname, tok, got, want);
            }
        }
    }
    ptx_instr_result_free(&res);
    ptx_module_free(mi);
    for (uint32_t fi = 0; fi < m->nfuncs; fi++) ptx_root_func_free(&an[fi]);
    free(an), free(matched), free(ex.v);
    ptx_module_free(m);
    return w->bad;
}

/* ------------------------------------------------------------------------------------------------
 * Tests.
 */

START_TEST(t_fixtures)
{
    size_t n;
    char **v = fx_list(0, &n);
    ck_assert_msg(n >= 10, "expected the fixtures of %s (run from the repository root)", FIXTURE_DIR);
    uint32_t accesses = 0;
    for (size_t k = 0; k < n; k++) {
        char *text = fx_read(v[k], NULL);
        ck_assert_ptr_nonnull(text);
        why_t w;
        int bad = check_fixture_text(v[k], text, &w);
        ck_assert_msg(bad == 0, "%s (%d mismatches)", w.msg, bad);
        for (const char *p = text; (p = strstr(p, "//@ ")) != NULL; p += 4) accesses += p[4] == 'G' || p[4] == 'S';
        free(text);
    }
    /* The fixtures cover every root kind, class and shared resolution (they are the spec's examples). */
    ck_assert_uint_ge(accesses, 50);
    fx_free_list(v, n);
}
END_TEST

/* The checker must be able to fail: wrong roots, classes, modes, counts and a missing expectation. */
START_TEST(t_checker_fails)
{
    char *text = fx_read(FIXTURE_DIR "/merge.ptx", NULL);
    ck_assert_ptr_nonnull(text);
    const char *subst[][2] = {
        {"//@ G full shadowed param:fig1_param_0+0 param:fig1_param_1+0", "//@ G full shadowed param:fig1_param_0+0"},
        {"//@ G full shadowed param:fig1_param_0+0 param:fig1_param_1+0", "//@ G partial shadowed param:fig1_param_0+0 param:fig1_param_1+0"},
        {"//@ G full shadowed param:fig1_param_0+0 param:fig1_param_1+0", "//@ G full direct param:fig1_param_0+0 param:fig1_param_1+0"},
        {"//@ G full shadowed param:fig1_param_0+0 param:fig1_param_1+0", "//@ G full shadowed param:fig1_param_0+8 param:fig1_param_1+0"},
        {"//@ G full shadowed param:fig1_param_0+0 param:fig1_param_1+0", "//@ G full shadowed param:fig1_param_0+0=partial param:fig1_param_1+0"},
        {"//@ G full shadowed param:fig1_param_0+0 param:fig1_param_1+0", "// no expectation"},
        {"//@ func fig1 loadmeta=2 movs=5", "//@ func fig1 loadmeta=2 movs=4"},
        {"//@ G full shadowed size=1", "//@ G full shadowed size=2"},
    };
    for (size_t k = 0; k < sizeof subst / sizeof subst[0]; k++) {
        const char *at = strstr(text, subst[k][0]);
        ck_assert_ptr_nonnull(at);
        size_t pre = (size_t)(at - text), ol = strlen(subst[k][0]), nl = strlen(subst[k][1]);
        char *mut = malloc(strlen(text) + nl + 1);
        ck_assert_ptr_nonnull(mut);
        memcpy(mut, text, pre);
        memcpy(mut + pre, subst[k][1], nl);
        strcpy(mut + pre + nl, at + ol);
        why_t w;
        ck_assert_msg(check_fixture_text("mutant.ptx", mut, &w) > 0, "mutation %zu was not detected", k);
        free(mut);
    }
    free(text);
}
END_TEST

static const char REACH_PTX[] =
    ".version 9.0\n.target sm_80\n.address_size 64\n"
    ".visible .entry r(.param .u32 r_param_0)\n{\n"
    ".reg .pred %p<3>;\n.reg .b32 %r<6>;\n"
    "ld.param.u32 %r1, [r_param_0];\n" /* i0 */
    "setp.eq.s32 %p1, %r1, 0;\n"       /* i1 */
    "@%p1 bra $L1;\n"                  /* i2 */
    "mov.u32 %r2, 1;\n"                /* i3 */
    "bra.uni $L2;\n"                   /* i4 */
    "$L1:\n"
    "mov.u32 %r2, 2;\n"                /* i5 */
    "$L2:\n"
    "@%p1 mov.u32 %r3, 7;\n"           /* i6: guarded, kills nothing */
    "add.s32 %r4, %r2, %r3;\n"         /* i7 */
    "mov.u32 %r5, 0;\n"                /* i8 */
    "$L3:\n"
    "add.s32 %r5, %r5, 1;\n"           /* i9 */
    "setp.lt.s32 %p2, %r5, 10;\n"      /* i10 */
    "@%p2 bra $L3;\n"                  /* i11 */
    "add.s32 %r5, %r5, %r4;\n"         /* i12 */
    "ret;\n}\n";

/* The instruction id of the k-th instruction statement and a register by name. */
static uint32_t nth_insn(const ptx_func_t *f, uint32_t k)
{
    for (uint32_t s = 0; s < f->nstmts; s++)
        if (f->stmts[s].kind == PTX_ST_INSN && k-- == 0) return f->stmts[s].index;
    ck_abort_msg("no instruction %u", k);
    return 0;
}

static uint32_t reg_named(const ptx_module_t *m, const ptx_func_t *f, const char *name)
{
    for (uint32_t r = 0; r < f->nregs; r++)
        if (strcmp(ptx_reg_name(m, f, r), name) == 0) return r;
    ck_abort_msg("no register %s", name);
    return 0;
}

static void expect_defs(ptx_reach_t *rd, const ptx_func_t *f, uint32_t at, uint32_t reg, const int *want, uint32_t nwant)
{
    uint32_t n;
    const uint32_t *d = ptx_reach_defs(rd, nth_insn(f, at), reg, &n);
    ck_assert_ptr_nonnull(d);
    ck_assert_uint_eq(n, nwant);
    for (uint32_t k = 0; k < n; k++) {
        uint32_t w = want[k] < 0 ? PTX_REACH_ENTRY : nth_insn(f, (uint32_t)want[k]);
        ck_assert_uint_eq(d[k], w);
    }
}

START_TEST(t_reach)
{
    ptx_err_t e;
    ptx_module_t *m = ptx_parse("reach.ptx", REACH_PTX, sizeof REACH_PTX - 1, &e);
    ck_assert_msg(m != NULL, "%s", e.msg);
    const ptx_func_t *f = &m->funcs[0];
    ptx_cfg_t *g = ptx_cfg_build(m, f, &e);
    ck_assert_msg(g != NULL, "%s", e.msg);
    ptx_reach_t *rd = ptx_reach_build(g, &e);
    ck_assert_ptr_nonnull(rd);
    uint32_t r1 = reg_named(m, f, "%r1"), r2 = reg_named(m, f, "%r2"), r3 = reg_named(m, f, "%r3");
    uint32_t r5 = reg_named(m, f, "%r5");
    expect_defs(rd, f, 0, r1, (const int[]){-1}, 1);      /* before its definition: undefined */
    expect_defs(rd, f, 1, r1, (const int[]){0}, 1);
    expect_defs(rd, f, 7, r2, (const int[]){3, 5}, 2);    /* both branches */
    expect_defs(rd, f, 7, r3, (const int[]){6, -1}, 2);   /* the guarded definition kills nothing */
    expect_defs(rd, f, 9, r5, (const int[]){8, 9}, 2);    /* around the loop */
    expect_defs(rd, f, 12, r5, (const int[]){9}, 1);
    expect_defs(rd, f, 3, r2, (const int[]){-1}, 1);
    uint32_t n;
    const uint32_t *all = ptx_reach_all_defs(rd, r5, &n);
    ck_assert_uint_eq(n, 3);
    ck_assert_uint_eq(all[0], nth_insn(f, 8));
    ck_assert_uint_eq(all[2], nth_insn(f, 12));
    ck_assert(!ptx_reach_failed(rd));
    /* Out-of-range questions get empty answers, not crashes. */
    ck_assert_ptr_nonnull(ptx_reach_defs(rd, nth_insn(f, 1), 9999, &n));
    ck_assert_uint_eq(n, 0);
    ptx_reach_free(rd);
    ptx_cfg_free(g);
    ptx_module_free(m);
}
END_TEST

/* Same input, same answer: two analyses of every fixture agree field by field. */
START_TEST(t_deterministic)
{
    size_t n;
    char **v = fx_list(1, &n);
    for (size_t k = 0; k < n; k++) {
        ptx_module_t *m = fx_parse(v[k]);
        ck_assert_ptr_nonnull(m);
        for (uint32_t fi = 0; fi < m->nfuncs; fi++) {
            if (!m->funcs[fi].defined) continue;
            ptx_root_func_t a, b;
            ptx_err_t e;
            ck_assert(ptx_root_analyze(m, fi, &a, &e) == 0);
            ck_assert(ptx_root_analyze(m, fi, &b, &e) == 0);
            ck_assert_uint_eq(a.nacc, b.nacc);
            ck_assert_uint_eq(a.nroots, b.nroots);
            ck_assert_uint_eq(a.nmdops, b.nmdops);
            ck_assert_uint_eq(a.nshadows, b.nshadows);
            ck_assert(a.nacc == 0 || memcmp(a.acc, b.acc, a.nacc * sizeof *a.acc) == 0);
            ck_assert(a.nroots == 0 || memcmp(a.roots, b.roots, a.nroots * sizeof *a.roots) == 0);
            ck_assert(a.nmdops == 0 || memcmp(a.mdops, b.mdops, a.nmdops * sizeof *a.mdops) == 0);
            ck_assert(a.nacc_roots == 0 || memcmp(a.acc_roots, b.acc_roots, a.nacc_roots * sizeof *a.acc_roots) == 0);
            ptx_root_func_free(&a);
            ptx_root_func_free(&b);
        }
        ptx_module_free(m);
    }
    fx_free_list(v, n);
}
END_TEST

/* Roots of R3 in their documented order: entry roots first, then instruction roots in statement
 * order; metadata operations in statement order. */
START_TEST(t_order)
{
    ptx_module_t *m = fx_parse(FIXTURE_DIR "/undef.ptx");
    ck_assert_ptr_nonnull(m);
    int fi = ptx_find_func(m, "guarded");
    ck_assert_int_ge(fi, 0);
    ptx_root_func_t a;
    ptx_err_t e;
    ck_assert(ptx_root_analyze(m, (uint32_t)fi, &a, &e) == 0);
    ck_assert_uint_eq(a.nroots, 4);
    ck_assert_uint_eq(a.roots[0].kind, PTX_ROOT_PARAM);
    ck_assert_uint_eq(a.roots[1].kind, PTX_ROOT_PARAM);
    ck_assert_str_eq(ptx_sym_name(m, a.roots[0].sym), "guarded_param_0");
    ck_assert_uint_eq(a.roots[2].kind, PTX_ROOT_UNDEF);
    ck_assert_uint_eq(a.roots[3].kind, PTX_ROOT_LOAD);
    ck_assert(a.roots[3].guarded);
    ck_assert(!a.roots[3].in_cycle);
    /* The guarded load keeps its own location (R7) and the undefined value writes the shadow. */
    ck_assert(!ptx_root_writes_shadow(&a.roots[3]));
    ck_assert(ptx_root_writes_shadow(&a.roots[2]));
    ck_assert_uint_eq(a.nmdops, 2);
    ck_assert_uint_eq(a.mdops[0].kind, PTX_MD_ROOT);
    ck_assert_uint_eq(a.mdops[0].root, 3);
    ck_assert_uint_eq(a.mdops[1].kind, PTX_MD_COPY);
    ptx_root_func_free(&a);
    ptx_module_free(m);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("ptx_root");
    TCase *tc = tcase_create("analysis");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, t_reach);
    tcase_add_test(tc, t_fixtures);
    tcase_add_test(tc, t_checker_fails);
    tcase_add_test(tc, t_deterministic);
    tcase_add_test(tc, t_order);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(suite());
    srunner_run_all(sr, CK_ENV);
    int nf = srunner_ntests_failed(sr);
    srunner_free(sr);
    return nf == 0 ? 0 : 1;
}
