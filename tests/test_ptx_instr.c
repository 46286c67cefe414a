/*
 * test_ptx_instr.c — the instrumentation pass and its inverse (ptx_instr.h, docs/compiler.md §4–§5)
 * on the fixtures of tests/ptx/roots/: the calling convention's exact shape, the info encoding, the
 * Figure 1 MOVs, re-parsing of the printed output (a fixed point), the strip equivalence
 * print(strip(instrument(P))) == print(P) (on the pass's own IR and on a re-parse of its text), that
 * the equivalence fails when the pass changes anything else, refusal of reserved names, and ptxas
 * acceptance of every instrumented fixture and of the software bodies (skipped, saying so, when
 * ptxas is not installed).
 */
#include "ptx_fixture.h"
#include "ptx_instr.h"
#include "ptx_root.h"

#include <check.h>

static bool starts(const char *s, const char *p) { return strncmp(s, p, strlen(p)) == 0; }

static ptx_module_t *instrumented(const char *path, ptx_instr_result_t *res)
{
    ptx_module_t *m = fx_parse(path);
    ck_assert_ptr_nonnull(m);
    ptx_err_t e;
    ck_assert_msg(ptx_instrument(m, res, &e) == 0, "%s: %s", path, e.msg);
    return m;
}

static const char *callee(const ptx_module_t *m, const ptx_insn_t *in)
{
    if (in->opc != PTX_OPC_CALL || in->nops < 2 || in->ops[1].kind != PTX_OPK_SYM) return "";
    return ptx_sym_name(m, in->ops[1].sym);
}

/* ------------------------------------------------------------------------------------------------ */

/* instrument -> print -> parse -> print is a fixed point; strip restores the input exactly, from the
 * pass's IR and from the re-parsed text. */
START_TEST(t_roundtrip)
{
    size_t n;
    char **v = fx_list(1, &n);
    ck_assert_uint_ge(n, 10);
    for (size_t k = 0; k < n; k++) {
        ptx_module_t *m = fx_parse(v[k]);
        ck_assert_ptr_nonnull(m);
        char *p0 = fx_print(m);
        ptx_err_t e;
        ck_assert_msg(ptx_instrument(m, NULL, &e) == 0, "%s", e.msg);
        char *p1 = fx_print(m);
        ck_assert_msg(strcmp(p0, p1) != 0, "%s: nothing was instrumented", v[k]);
        ptx_module_t *r = ptx_parse("reparsed.ptx", p1, strlen(p1), &e);
        ck_assert_msg(r != NULL, "%s: the instrumented text does not parse: %s", v[k], e.msg);
        char *p2 = fx_print(r);
        ck_assert_msg(strcmp(p1, p2) == 0, "%s: printing the re-parsed output differs", v[k]);
        ck_assert_msg(ptx_strip(m, &e) == 0, "%s: %s", v[k], e.msg);
        char *p3 = fx_print(m);
        ck_assert_msg(strcmp(p0, p3) == 0, "%s: strip(instrument(P)) differs from P", v[k]);
        ck_assert_msg(ptx_strip(r, &e) == 0, "%s: %s", v[k], e.msg);
        char *p4 = fx_print(r);
        ck_assert_msg(strcmp(p0, p4) == 0, "%s: strip(parse(print(instrument(P)))) differs from P", v[k]);
        /* Stripped modules no longer name the convention. */
        ck_assert_int_lt(ptx_find_func(m, "__ga_loadmeta"), 0);
        ck_assert_uint_eq(ptx_find_global(r, "__ga_cfg"), PTX_NOSYM);
        free(p0), free(p1), free(p2), free(p3), free(p4);
        ptx_module_free(m);
        ptx_module_free(r);
    }
    fx_free_list(v, n);
}
END_TEST

/* The convention (docs/compiler.md §4.1): the four items once, before the first original function;
 * every call in its own scope of exactly .param declarations, st.param of each argument, a plain
 * call, ld.param of the result into %ga_md / %ga_a; added instructions flagged; the original
 * instructions all there, in order. */
START_TEST(t_convention)
{
    size_t n;
    char **v = fx_list(1, &n);
    for (size_t k = 0; k < n; k++) {
        ptx_module_t *o = fx_parse(v[k]);
        ptx_instr_result_t res;
        ptx_module_t *m = instrumented(v[k], &res);
        /* Items. */
        int seen[4] = {0, 0, 0, 0};
        bool orig_func_seen = false;
        const char *names[4] = {"__ga_cfg", "__ga_loadmeta", "__ga_memcheck_g", "__ga_memcheck_s"};
        for (uint32_t i = 0; i < m->nitems; i++) {
            const ptx_item_t *it = &m->items[i];
            const char *nm = it->kind == PTX_ITEM_VAR ? ptx_sym_name(m, it->index)
                           : it->kind == PTX_ITEM_FUNC ? ptx_sym_name(m, m->funcs[it->index].sym) : "";
            bool ours = false;
            for (int j = 0; j < 4; j++)
                if (strcmp(nm, names[j]) == 0) seen[j]++, ours = true;
            if (ours) ck_assert_msg(!orig_func_seen, "%s: %s comes after an original function", v[k], nm);
            if (it->kind == PTX_ITEM_FUNC && !ours) orig_func_seen = true;
        }
        for (int j = 0; j < 4; j++) ck_assert_msg(seen[j] == 1, "%s: %s appears %d times", v[k], names[j], seen[j]);
        uint32_t cfg = ptx_find_global(m, "__ga_cfg");
        ck_assert_uint_eq(m->syms[cfg].size, 64);
        ck_assert_uint_eq(m->syms[cfg].space, PTX_SPACE_GLOBAL);
        ck_assert_uint_eq(m->syms[cfg].link, PTX_LINK_VISIBLE);
        ck_assert_uint_eq(m->syms[cfg].align, 8);
        /* Functions. */
        uint32_t calls[3] = {0, 0, 0};
        for (uint32_t fi = 0; fi < o->nfuncs; fi++) {
            const ptx_func_t *f = &m->funcs[fi], *g = &o->funcs[fi];
            if (!g->defined) continue;
            /* Original instructions, in order, untouched but for rewritten address operands. */
            uint32_t gi = 0;
            for (uint32_t s = 0; s < f->nstmts; s++) {
                if (f->stmts[s].kind != PTX_ST_INSN) continue;
                const ptx_insn_t *in = &f->insns[f->stmts[s].index];
                if (in->flags & PTX_IF_ADDED) continue;
                while (gi < g->nstmts && g->stmts[gi].kind != PTX_ST_INSN) gi++;
                ck_assert_uint_lt(gi, g->nstmts);
                const ptx_insn_t *gin = &g->insns[g->stmts[gi++].index];
                ck_assert_int_eq(in->opc, gin->opc);
                ck_assert_int_eq(memcmp(in->mods, gin->mods, sizeof in->mods), 0);
                ck_assert_uint_eq(in->guard, gin->guard);
            }
            while (gi < g->nstmts && g->stmts[gi].kind != PTX_ST_INSN) gi++;
            ck_assert_uint_eq(gi, g->nstmts);
            /* Scopes of calls. */
            for (uint32_t s = 0; s < f->nstmts; s++) {
                if (f->stmts[s].kind != PTX_ST_INSN) continue;
                const ptx_insn_t *in = &f->insns[f->stmts[s].index];
                const char *cn = callee(m, in);
                if (!starts(cn, "__ga_")) continue;
                ck_assert_uint_eq(in->nmods, 0); /* plain call: no .uni */
                ck_assert(in->flags & PTX_IF_ADDED);
                int body = strcmp(cn, "__ga_loadmeta") == 0 ? 0 : strcmp(cn, "__ga_memcheck_g") == 0 ? 1 : 2;
                calls[body]++;
                uint32_t nargs = body == 0 ? 1 : body == 1 ? 3 : 4;
                bool ret = body != 2;
                ck_assert_uint_eq(in->ops[2].count, nargs);
                ck_assert_uint_eq(in->ops[0].count, ret ? 1u : 0u);
                /* Walk back to the scope start and forward to its end. */
                uint32_t b = s;
                while (b > 0 && f->stmts[b].kind != PTX_ST_SCOPE_BEGIN) b--;
                ck_assert_uint_eq(f->stmts[b].kind, PTX_ST_SCOPE_BEGIN);
                uint32_t want_decl = nargs + (ret ? 1 : 0);
                for (uint32_t j = 0; j < want_decl; j++) {
                    const ptx_stmt_t *d = &f->stmts[b + 1 + j];
                    ck_assert_uint_eq(d->kind, PTX_ST_VARDECL);
                    char want[16];
                    if (j < nargs) snprintf(want, sizeof want, "__ga_p%u", j);
                    else snprintf(want, sizeof want, "__ga_r");
                    ck_assert_str_eq(ptx_sym_name(m, d->index), want);
                    ck_assert_uint_eq(m->syms[d->index].space, PTX_SPACE_PARAM);
                }
                for (uint32_t j = 0; j < nargs; j++) {
                    const ptx_stmt_t *d = &f->stmts[b + 1 + want_decl + j];
                    ck_assert_uint_eq(d->kind, PTX_ST_INSN);
                    const ptx_insn_t *st = &f->insns[d->index];
                    ck_assert_int_eq(st->opc, PTX_OPC_ST);
                    ck_assert_uint_eq(ptx_insn_space(st), PTX_SPACE_PARAM);
                    ck_assert_uint_eq(st->guard, PTX_NOREG); /* ptxas refuses guarded st.param */
                    bool b32 = body == 2 || (body == 1 && j == 2);
                    ck_assert(ptx_insn_has(st, b32 ? PTX_MOD_B32 : PTX_MOD_B64));
                }
                ck_assert_uint_eq(b + 1 + want_decl + nargs, s);
                uint32_t e = s + 1;
                if (ret) {
                    const ptx_insn_t *ld = &f->insns[f->stmts[e].index];
                    ck_assert_int_eq(ld->opc, PTX_OPC_LD);
                    const char *rn = ptx_reg_name(m, f, ld->ops[0].reg);
                    ck_assert_msg(starts(rn, body == 0 ? "%ga_md" : "%ga_a"), "%s: result in %s", v[k], rn);
                    e++;
                }
                ck_assert_uint_eq(f->stmts[e].kind, PTX_ST_SCOPE_END);
            }
            /* Added registers: the three groups, .b64, each declared once. */
            for (uint32_t r = 0; r < f->nregs; r++) {
                const char *rn = ptx_reg_name(m, f, r);
                if (!starts(rn, "%ga_")) continue;
                ck_assert(starts(rn, "%ga_md") || starts(rn, "%ga_a") || starts(rn, "%ga_t"));
                ck_assert_uint_eq(f->regs[r].type, PTX_T_B64);
            }
        }
        ck_assert_uint_eq(calls[0], res.total.loadmeta);
        ck_assert_uint_eq(calls[1], res.total.memcheck_g);
        ck_assert_uint_eq(calls[2], res.total.memcheck_s);
        ck_assert_uint_eq(res.total.insns_after - res.total.insns_before,
                          res.total.loadmeta + res.total.memcheck_g + res.total.memcheck_s + res.total.md_movs +
                              res.total.overhead);
        ptx_instr_result_free(&res);
        ptx_module_free(m);
        ptx_module_free(o);
    }
    fx_free_list(v, n);
}
END_TEST

/* The info argument of MEMCHECK.G of the access at PTX line `line`, and its md argument's name. */
static int64_t info_at(const ptx_module_t *m, const char *fname, uint32_t line, char *md, size_t cap)
{
    int fi = ptx_find_func(m, fname);
    ck_assert_int_ge(fi, 0);
    const ptx_func_t *f = &m->funcs[fi];
    for (uint32_t s = 0; s < f->nstmts; s++) {
        if (f->stmts[s].kind != PTX_ST_INSN) continue;
        const ptx_insn_t *in = &f->insns[f->stmts[s].index];
        if (in->pos.line != line) continue;
        /* The scope before the access: p1 = md, p2 = info. */
        uint32_t c = s;
        while (c > 0 && !(f->stmts[c].kind == PTX_ST_INSN && strcmp(callee(m, &f->insns[f->stmts[c].index]), "__ga_memcheck_g") == 0)) c--;
        const ptx_insn_t *st_md = &f->insns[f->stmts[c - 2].index];
        const ptx_insn_t *st_info = &f->insns[f->stmts[c - 1].index];
        ck_assert_int_eq(st_info->ops[1].kind, PTX_OPK_IMM);
        snprintf(md, cap, "%s", ptx_reg_name(m, f, st_md->ops[1].reg));
        return st_info->ops[1].imm;
    }
    ck_abort_msg("no instruction at line %u", line);
    return -1;
}

/* __ga_info = size | class << 8 | store << 10, and the md argument: the root's own location (direct)
 * or the address register's shadow. */
START_TEST(t_info)
{
    char md[64];
    ptx_module_t *m = instrumented(FIXTURE_DIR "/basic.ptx", NULL);
    ck_assert_int_eq(info_at(m, "vadd", 36, md, sizeof md), 4);
    ck_assert_int_eq(info_at(m, "vadd", 43, md, sizeof md), 4 | 1 << 10);
    ck_assert_int_eq(info_at(m, "structp", 72, md, sizeof md), 16);
    ck_assert_int_eq(info_at(m, "structp", 80, md, sizeof md), 4 | 1 << 10);
    ptx_module_free(m);
    m = instrumented(FIXTURE_DIR "/inter.ptx", NULL);
    ck_assert_int_eq(info_at(m, "inter", 27, md, sizeof md), 4 | 2 << 8);
    ck_assert_int_eq(info_at(m, "inter", 29, md, sizeof md), 4 | 1 << 8);
    ptx_module_free(m);
    m = instrumented(FIXTURE_DIR "/undef.ptx", NULL);
    ck_assert_int_eq(info_at(m, "guarded", 55, md, sizeof md), 4 | 2 << 8 | 1 << 10);
    ptx_module_free(m);
    /* MEMCHECK.S: its size word has the store bit too; base and size per resolution (R8). */
    m = instrumented(FIXTURE_DIR "/shared.ptx", NULL);
    const ptx_func_t *f = &m->funcs[ptx_find_func(m, "sh")];
    int64_t want_sz[] = {4 | 1 << 10, 4, 4, 4 | 1 << 10, 4};
    int64_t want_ssize[] = {1024, 1024, 512, -1, -2}; /* -1: %dynamic_smem_size, -2: %total_smem_size */
    uint32_t k = 0;
    for (uint32_t s = 0; s < f->nstmts && k < 5; s++) {
        if (f->stmts[s].kind != PTX_ST_INSN || strcmp(callee(m, &f->insns[f->stmts[s].index]), "__ga_memcheck_s") != 0)
            continue;
        const ptx_insn_t *st_size = &f->insns[f->stmts[s - 2].index];
        const ptx_insn_t *st_word = &f->insns[f->stmts[s - 1].index];
        ck_assert_int_eq(st_word->ops[1].imm, want_sz[k]);
        if (want_ssize[k] > 0) {
            ck_assert_int_eq(st_size->ops[1].kind, PTX_OPK_IMM);
            ck_assert_int_eq(st_size->ops[1].imm, want_ssize[k]);
        } else {
            /* the size comes from cvt.u64.u32 %ga_tN, %dynamic_smem_size / %total_smem_size */
            const ptx_insn_t *cv = NULL;
            for (uint32_t j = 0; j < f->ninsns; j++)
                if (f->insns[j].opc == PTX_OPC_CVT && f->insns[j].ops[0].kind == PTX_OPK_REG &&
                    f->insns[j].ops[0].reg == st_size->ops[1].reg)
                    cv = &f->insns[j];
            ck_assert_ptr_nonnull(cv);
            ck_assert_int_eq(cv->ops[1].kind, PTX_OPK_SREG);
            ck_assert_int_eq(cv->ops[1].sreg, want_ssize[k] == -1 ? PTX_SREG_DYNAMIC_SMEM_SIZE : PTX_SREG_TOTAL_SMEM_SIZE);
        }
        k++;
    }
    ck_assert_uint_eq(k, 5);
    ptx_module_free(m);
}
END_TEST

/* Figure 1: a metadata MOV right after each arm's pointer arithmetic, the check uses the shadow. */
START_TEST(t_figure1)
{
    ptx_module_t *m = instrumented(FIXTURE_DIR "/merge.ptx", NULL);
    int fi = ptx_find_func(m, "fig1");
    const ptx_func_t *f = &m->funcs[fi];
    uint32_t arms = 0;
    for (uint32_t s = 0; s + 1 < f->nstmts; s++) {
        if (f->stmts[s].kind != PTX_ST_INSN) continue;
        const ptx_insn_t *in = &f->insns[f->stmts[s].index];
        if (in->opc != PTX_OPC_ADD || (in->flags & PTX_IF_ADDED)) continue;
        const ptx_insn_t *nx = &f->insns[f->stmts[s + 1].index];
        ck_assert_uint_eq(f->stmts[s + 1].kind, PTX_ST_INSN);
        ck_assert_int_eq(nx->opc, PTX_OPC_MOV);
        ck_assert(nx->flags & PTX_IF_ADDED);
        ck_assert(starts(ptx_reg_name(m, f, nx->ops[0].reg), "%ga_md"));
        ck_assert(starts(ptx_reg_name(m, f, nx->ops[1].reg), "%ga_md"));
        arms++;
    }
    ck_assert_uint_eq(arms, 2);
    /* The selp kernel carries the two locations with a selp on the same predicate. */
    fi = ptx_find_func(m, "selk");
    f = &m->funcs[fi];
    uint32_t selps = 0;
    for (uint32_t s = 0; s + 1 < f->nstmts; s++) {
        if (f->stmts[s].kind != PTX_ST_INSN) continue;
        const ptx_insn_t *in = &f->insns[f->stmts[s].index];
        if (in->opc != PTX_OPC_SELP || (in->flags & PTX_IF_ADDED)) continue;
        const ptx_insn_t *nx = &f->insns[f->stmts[s + 1].index];
        ck_assert_int_eq(nx->opc, PTX_OPC_SELP);
        ck_assert_uint_eq(nx->ops[3].reg, in->ops[3].reg);
        selps++;
    }
    ck_assert_uint_eq(selps, 1);
    ptx_module_free(m);
}
END_TEST

/* The equivalence test can fail: a change to an original instruction survives strip, and an address
 * whose check was removed cannot be restored. */
START_TEST(t_strip_detects)
{
    ptx_module_t *o = fx_parse(FIXTURE_DIR "/merge.ptx");
    char *p0 = fx_print(o);
    ptx_module_t *m = instrumented(FIXTURE_DIR "/merge.ptx", NULL);
    ptx_func_t *f = &m->funcs[ptx_find_func(m, "fig1")];
    bool changed = false;
    for (uint32_t s = 0; s < f->nstmts && !changed; s++) {
        ptx_insn_t *in = &f->insns[f->stmts[s].index];
        if (f->stmts[s].kind == PTX_ST_INSN && in->opc == PTX_OPC_ADD && !(in->flags & PTX_IF_ADDED)) {
            in->ops[2].imm++;
            changed = true;
        }
    }
    ck_assert(changed);
    ptx_err_t e;
    ck_assert(ptx_strip(m, &e) == 0);
    char *p1 = fx_print(m);
    ck_assert_str_ne(p0, p1);
    free(p1);
    ptx_module_free(m);

    /* Drop the ld.param that defines %ga_a0: the access can no longer be traced. */
    m = instrumented(FIXTURE_DIR "/merge.ptx", NULL);
    f = &m->funcs[ptx_find_func(m, "fig1")];
    bool dropped = false;
    for (uint32_t s = 0; s < f->nstmts && !dropped; s++) {
        const ptx_insn_t *in = &f->insns[f->stmts[s].index];
        if (f->stmts[s].kind == PTX_ST_INSN && in->opc == PTX_OPC_LD && in->ops[0].kind == PTX_OPK_REG &&
            strcmp(ptx_reg_name(m, f, in->ops[0].reg), "%ga_a0") == 0) {
            memmove(&f->stmts[s], &f->stmts[s + 1], (f->nstmts - s - 1) * sizeof *f->stmts);
            f->nstmts--;
            dropped = true;
        }
    }
    ck_assert(dropped);
    char *before = fx_print(m);
    ck_assert(ptx_strip(m, &e) != 0);
    ck_assert_msg(strstr(e.msg, "cannot strip") != NULL, "%s", e.msg);
    char *after = fx_print(m);
    ck_assert_str_eq(before, after); /* a refused strip changes nothing */
    free(before), free(after), free(p0);
    ptx_module_free(m);
    ptx_module_free(o);
}
END_TEST

/* Reserved names: an instrumented module is refused (unchanged), and so is a register or symbol
 * that would collide; a module without accesses is left as it is. */
START_TEST(t_refusals)
{
    ptx_module_t *m = instrumented(FIXTURE_DIR "/loops.ptx", NULL);
    char *p = fx_print(m);
    ptx_err_t e;
    ck_assert(ptx_instrument(m, NULL, &e) != 0);
    ck_assert_msg(strstr(e.msg, "instrumented already") != NULL, "%s", e.msg);
    char *q = fx_print(m);
    ck_assert_str_eq(p, q);
    free(p), free(q);
    ptx_module_free(m);

    static const char REG[] = ".version 9.0\n.target sm_80\n.address_size 64\n"
                              ".visible .entry k(.param .u64 k_p)\n{\n.reg .b64 %ga_t<2>;\n"
                              "ld.param.u64 %ga_t0, [k_p];\nst.global.u64 [%ga_t0], %ga_t0;\nret;\n}\n";
    m = ptx_parse("reg.ptx", REG, sizeof REG - 1, &e);
    ck_assert_ptr_nonnull(m);
    ck_assert(ptx_instrument(m, NULL, &e) != 0);
    ck_assert_msg(strstr(e.msg, "reg.ptx:6:") == e.msg && strstr(e.msg, "%ga_t0") != NULL, "%s", e.msg);
    ptx_module_free(m);

    static const char NONE[] = ".version 9.0\n.target sm_80\n.address_size 64\n"
                               ".visible .entry k(.param .u32 k_p)\n{\n.reg .b32 %r<3>;\n"
                               "ld.param.u32 %r1, [k_p];\nadd.s32 %r2, %r1, 1;\nret;\n}\n";
    m = ptx_parse("none.ptx", NONE, sizeof NONE - 1, &e);
    ck_assert_ptr_nonnull(m);
    p = fx_print(m);
    ptx_instr_result_t res;
    ck_assert(ptx_instrument(m, &res, &e) == 0);
    q = fx_print(m);
    ck_assert_str_eq(p, q);
    ck_assert_uint_eq(ptx_find_global(m, "__ga_cfg"), PTX_NOSYM);
    ck_assert_uint_eq(res.total.insns_after, res.total.insns_before);
    ck_assert_uint_eq(res.body_insns, 0);
    ptx_instr_result_free(&res);
    free(p), free(q);
    ptx_module_free(m);
}
END_TEST

/* The software bodies: the text parses, declares exactly the convention's signatures. */
START_TEST(t_bodies)
{
    size_t len;
    const char *text = ptx_garuntime_text(&len);
    ck_assert_uint_eq(strlen(text), len);
    ptx_err_t e;
    ptx_module_t *m = ptx_parse("<ga_runtime>", text, len, &e);
    ck_assert_msg(m != NULL, "%s", e.msg);
    uint32_t cfg = ptx_find_global(m, "__ga_cfg");
    ck_assert_uint_ne(cfg, PTX_NOSYM);
    ck_assert_uint_eq(m->syms[cfg].size, 64);
    struct {
        const char *name, *ret;
        const char *params[4];
        ptx_type_t types[4];
        uint32_t n;
    } sig[3] = {
        {"__ga_loadmeta", "__ga_ret", {"__ga_root"}, {PTX_T_B64}, 1},
        {"__ga_memcheck_g", "__ga_ret", {"__ga_addr", "__ga_md", "__ga_info"}, {PTX_T_B64, PTX_T_B64, PTX_T_B32}, 3},
        {"__ga_memcheck_s", NULL, {"__ga_saddr", "__ga_sbase", "__ga_ssize", "__ga_size"},
         {PTX_T_B32, PTX_T_B32, PTX_T_B32, PTX_T_B32}, 4},
    };
    for (int k = 0; k < 3; k++) {
        int fi = ptx_find_func(m, sig[k].name);
        ck_assert_int_ge(fi, 0);
        const ptx_func_t *f = &m->funcs[fi];
        ck_assert(!f->is_entry && f->defined);
        ck_assert_uint_eq(f->nparams, sig[k].n);
        for (uint32_t j = 0; j < sig[k].n; j++) {
            ck_assert_str_eq(ptx_sym_name(m, f->params[j]), sig[k].params[j]);
            ck_assert_uint_eq(m->syms[f->params[j]].type, sig[k].types[j]);
        }
        ck_assert_uint_eq(f->nrets, sig[k].ret ? 1u : 0u);
        if (sig[k].ret) {
            ck_assert_str_eq(ptx_sym_name(m, f->rets[0]), sig[k].ret);
            ck_assert_uint_eq(m->syms[f->rets[0]].type, PTX_T_B64);
        }
        /* The bodies never use call.uni or call each other: the interpreter intercepts the calls. */
        for (uint32_t i = 0; i < f->ninsns; i++) ck_assert_int_ne(f->insns[i].opc, PTX_OPC_CALL);
    }
    ptx_module_free(m);
}
END_TEST

/* ptxas accepts every instrumented fixture and the bodies on their own. */
START_TEST(t_ptxas)
{
    if (!fx_have_ptxas()) {
        fprintf(stderr, "test_ptx_instr: SKIPPED ptxas acceptance: ptxas is not on the PATH "
                        "(it comes with the CUDA toolkit; docs/compiler.md §9)\n");
        return;
    }
    char *log;
    ck_assert_msg(fx_ptxas(ptx_garuntime_text(NULL), &log) == 0, "bodies: %s", log ? log : "");
    free(log);
    size_t n;
    char **v = fx_list(3, &n);
    for (size_t k = 0; k < n; k++) {
        ptx_module_t *m = instrumented(v[k], NULL);
        char *p = fx_print(m);
        ck_assert_msg(fx_ptxas(p, &log) == 0, "%s: ptxas refuses the instrumented module:\n%s", v[k], log ? log : "");
        free(log);
        free(p);
        ptx_module_free(m);
    }
    fx_free_list(v, n);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("ptx_instr");
    TCase *tc = tcase_create("instrument");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, t_roundtrip);
    tcase_add_test(tc, t_convention);
    tcase_add_test(tc, t_info);
    tcase_add_test(tc, t_figure1);
    tcase_add_test(tc, t_strip_detects);
    tcase_add_test(tc, t_refusals);
    tcase_add_test(tc, t_bodies);
    tcase_add_test(tc, t_ptxas);
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
