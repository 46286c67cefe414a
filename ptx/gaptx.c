/*
 * gaptx.c — the command-line face of GPUArmor's compiler pass (docs/compiler.md §8):
 *
 *   gaptx report FILE [--json] [-o OUT]      accesses, roots and classes per function; static counts
 *   gaptx instrument FILE -o OUT             LOADMETA / MEMCHECK.G / MEMCHECK.S inserted
 *   gaptx strip FILE -o OUT                  the inverse of instrument
 *   gaptx cfg FILE --func NAME [-o OUT]      one function's CFG in Graphviz dot
 *
 * Exit status: 0 success, 1 bad input (with "file:line:col: what") or an output that cannot be
 * written, 2 usage. Outputs go to a temporary file in the destination's directory that is renamed
 * over the destination only when complete, so a failure leaves nothing half-written; an output that
 * names the input file is refused.
 */
#include "ptx_cfg.h"
#include "ptx_instr.h"
#include "ptx_root.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char USAGE[] =
    "usage: gaptx COMMAND FILE [options]\n"
    "\n"
    "GPUArmor's compiler pass on PTX (docs/compiler.md). FILE is PTX as nvcc -ptx writes it, or '-'\n"
    "for standard input.\n"
    "\n"
    "commands:\n"
    "  report FILE [--json] [-o OUT]   per function: every checked access (PTX line, CUDA line from\n"
    "                                  .loc, space, size, load/store), its root pointers and coverage\n"
    "                                  class (full / partial / tagging), shared bases (static / dynamic\n"
    "                                  / unresolved); per function and module: LOADMETA, MEMCHECK.G by\n"
    "                                  class, MEMCHECK.S, metadata MOVs, instructions before and after\n"
    "  instrument FILE -o OUT          write the instrumented module (OUT '-': standard output)\n"
    "  strip FILE -o OUT               remove the instrumentation again (the inverse of instrument)\n"
    "  cfg FILE --func NAME [-o OUT]   the control-flow graph of function NAME in Graphviz dot form\n"
    "\n"
    "options:\n"
    "  -o OUT, --output OUT            where to write (report and cfg: standard output by default);\n"
    "                                  never the input file\n"
    "  --json                          report: JSON instead of text\n"
    "  --func NAME                     cfg: the function (its PTX name, e.g. _Z4vaddPKfS0_Pfi)\n"
    "  -h, --help                      this text\n"
    "\n"
    "exit status: 0 success, 1 bad input or an output that cannot be written, 2 usage\n";

static int usage_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "gaptx: ");
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\n(gaptx --help lists the commands and options)\n");
    return 2;
}

/* ------------------------------------------------------------------------------------------------
 * Output files.
 */

typedef struct {
    const char *dest;  /* NULL or "-": stdout */
    char *tmp;
    FILE *f;
} out_t;

/* Open the output; refuses the input itself. 0 or 1 (message printed). */
static int out_open(out_t *o, const char *dest, const char *input)
{
    memset(o, 0, sizeof *o);
    o->dest = dest;
    if (dest == NULL || strcmp(dest, "-") == 0) {
        o->f = stdout;
        return 0;
    }
    if (input && strcmp(input, "-") != 0) {
        struct stat si, so;
        if (strcmp(dest, input) == 0 ||
            (stat(input, &si) == 0 && stat(dest, &so) == 0 && si.st_dev == so.st_dev && si.st_ino == so.st_ino)) {
            fprintf(stderr, "gaptx: refusing to write the output over the input file '%s'\n", input);
            return 1;
        }
    }
    size_t n = strlen(dest) + 16;
    o->tmp = malloc(n);
    if (o->tmp == NULL) {
        fprintf(stderr, "gaptx: out of memory\n");
        return 1;
    }
    snprintf(o->tmp, n, "%s.tmpXXXXXX", dest);
    int fd = mkstemp(o->tmp);
    if (fd < 0) {
        fprintf(stderr, "gaptx: cannot create a temporary file next to '%s': %s\n", dest, strerror(errno));
        free(o->tmp);
        o->tmp = NULL;
        return 1;
    }
    o->f = fdopen(fd, "w");
    if (o->f == NULL) {
        fprintf(stderr, "gaptx: cannot write '%s': %s\n", o->tmp, strerror(errno));
        close(fd);
        unlink(o->tmp);
        free(o->tmp);
        o->tmp = NULL;
        return 1;
    }
    return 0;
}

/* Abandon the output: nothing is left behind. */
static void out_abort(out_t *o)
{
    if (o->tmp) {
        if (o->f) fclose(o->f);
        unlink(o->tmp);
        free(o->tmp);
    }
    memset(o, 0, sizeof *o);
}

/* Finish: flush, close, rename into place. 0 or 1. */
static int out_close(out_t *o)
{
    if (o->f == NULL) return 1;
    int bad = ferror(o->f);
    if (o->tmp == NULL) {
        bad |= fflush(o->f) != 0;
        if (bad) fprintf(stderr, "gaptx: error writing standard output\n");
        return bad ? 1 : 0;
    }
    /* The temporary file is created 0600; give the output the usual permissions. */
    mode_t um = umask(0);
    umask(um);
    bad |= fchmod(fileno(o->f), 0666 & ~um) != 0;
    bad |= fclose(o->f) != 0;
    o->f = NULL;
    if (!bad && rename(o->tmp, o->dest) != 0) bad = 1;
    if (bad) {
        fprintf(stderr, "gaptx: cannot write '%s': %s\n", o->dest, strerror(errno));
        unlink(o->tmp);
    }
    free(o->tmp);
    o->tmp = NULL;
    return bad ? 1 : 0;
}

static ptx_module_t *load(const char *path)
{
    ptx_err_t err;
    memset(&err, 0, sizeof err);
    ptx_module_t *m = ptx_parse_file(path, &err);
    if (m == NULL) fprintf(stderr, "%s\n", err.msg);
    return m;
}

/* ------------------------------------------------------------------------------------------------
 * report
 */

static const char *base_name(const char *p)
{
    const char *s = strrchr(p, '/');
    return s ? s + 1 : p;
}

/* The CUDA file named by a .loc file index ("" when unknown). */
static const char *cuda_file(const ptx_module_t *m, uint32_t idx)
{
    for (uint32_t k = 0; k < m->nfiles; k++)
        if (m->files[k].index == idx) return ptx_str(m, m->files[k].name);
    return "";
}

static void json_str(FILE *o, const char *s)
{
    fputc('"', o);
    for (; *s; s++) {
        unsigned char ch = (unsigned char)*s;
        if (ch == '"' || ch == '\\') fprintf(o, "\\%c", ch);
        else if (ch < 0x20) fprintf(o, "\\u%04x", ch);
        else fputc(ch, o);
    }
    fputc('"', o);
}

static double pct(uint32_t a, uint32_t b) { return b ? 100.0 * a / b : 0.0; }

static void text_totals(FILE *o, const char *indent, const ptx_instr_stats_t *s)
{
    fprintf(o, "%sLOADMETA %u, MEMCHECK.G %u (full %u, partial %u, tagging %u), MEMCHECK.S %u (static %u, "
            "dynamic %u, unresolved %u), metadata MOVs %u, shadow registers %u\n",
            indent, s->loadmeta, s->memcheck_g, s->memcheck_g_class[0], s->memcheck_g_class[1], s->memcheck_g_class[2],
            s->memcheck_s, s->memcheck_s_res[0], s->memcheck_s_res[1], s->memcheck_s_res[2], s->md_movs, s->shadows);
    fprintf(o, "%sinstructions %u -> %u (+%.1f %%: GPUArmor %u, metadata MOVs %u, calling convention and "
            "temporaries %u)\n",
            indent, s->insns_before, s->insns_after, pct(s->insns_after - s->insns_before, s->insns_before),
            s->loadmeta + s->memcheck_g + s->memcheck_s, s->md_movs, s->overhead);
    uint32_t un = 0;
    for (int k = 0; k < PTX_UNCHK_COUNT; k++) un += s->unchecked[k];
    if (un) {
        fprintf(o, "%sunchecked memory instructions %u:", indent, un);
        for (int k = 0; k < PTX_UNCHK_COUNT; k++)
            if (s->unchecked[k]) fprintf(o, " %s %u", ptx_unchk_name((ptx_unchk_t)k), s->unchecked[k]);
        fprintf(o, "\n");
    }
}

static void json_totals(FILE *o, const ptx_instr_stats_t *s)
{
    fprintf(o, "{\"loadmeta\": %u, \"memcheck_g\": %u, \"memcheck_g_full\": %u, \"memcheck_g_partial\": %u, "
            "\"memcheck_g_tagging\": %u, \"memcheck_s\": %u, \"memcheck_s_static\": %u, \"memcheck_s_dynamic\": %u, "
            "\"memcheck_s_unresolved\": %u, \"md_movs\": %u, \"shadows\": %u, \"insns_before\": %u, "
            "\"insns_after\": %u, \"overhead\": %u, \"unchecked\": {",
            s->loadmeta, s->memcheck_g, s->memcheck_g_class[0], s->memcheck_g_class[1], s->memcheck_g_class[2],
            s->memcheck_s, s->memcheck_s_res[0], s->memcheck_s_res[1], s->memcheck_s_res[2], s->md_movs, s->shadows,
            s->insns_before, s->insns_after, s->overhead);
    for (int k = 0; k < PTX_UNCHK_COUNT; k++)
        fprintf(o, "%s\"%s\": %u", k ? ", " : "", ptx_unchk_name((ptx_unchk_t)k), s->unchecked[k]);
    fprintf(o, "}}");
}

static void report_access(FILE *o, bool json, const ptx_root_func_t *a, const ptx_access_t *x, bool first)
{
    const ptx_module_t *m = a->m;
    const ptx_insn_t *in = &a->f->insns[x->insn];
    char txt[256];
    ptx_format_insn(m, a->f, in, txt, sizeof txt);
    for (char *t = txt; *t; t++)
        if (*t == '\t') *t = ' ';
    const char *space = x->space == PTX_SPACE_NONE ? "generic" : ptx_space_name((ptx_space_t)x->space);
    const char *cf = in->loc.file ? cuda_file(m, in->loc.file) : "";
    if (json) {
        fprintf(o, "%s\n        {\"line\": %u, \"col\": %u, \"insn\": ", first ? "" : ",", in->pos.line, in->pos.col);
        json_str(o, txt);
        fprintf(o, ", \"cuda\": ");
        if (in->loc.file) {
            fprintf(o, "{\"file\": ");
            json_str(o, cf);
            fprintf(o, ", \"line\": %u, \"col\": %u}", in->loc.line, in->loc.col);
        } else {
            fprintf(o, "null");
        }
        fprintf(o, ", \"check\": \"%s\", \"space\": \"%s\", \"size\": %u, \"store\": %s", x->check == PTX_CHECK_G ?
                "MEMCHECK.G" : "MEMCHECK.S", space, x->size, x->store ? "true" : "false");
        if (x->check == PTX_CHECK_G) {
            fprintf(o, ", \"class\": \"%s\", \"shadowed\": %s, \"roots\": [", ptx_class_name((ptx_class_t)x->cls),
                    x->shadowed ? "true" : "false");
            for (uint32_t k = 0; k < x->nroots; k++) {
                uint32_t r = a->acc_roots[x->root_first + k];
                const ptx_root_t *rt = &a->roots[r];
                char d[320];
                ptx_root_describe(a, r, d, sizeof d);
                fprintf(o, "%s{\"kind\": \"%s\", \"class\": \"%s\", \"line\": %u, \"name\": ", k ? ", " : "",
                        ptx_root_kind_name((ptx_rootkind_t)rt->kind), ptx_class_name((ptx_class_t)a->acc_root_cls[x->root_first + k]),
                        rt->insn != PTX_ROOT_NONE ? a->f->insns[rt->insn].pos.line : 0);
                json_str(o, rt->sym != PTX_NOSYM ? ptx_sym_name(m, rt->sym) :
                            rt->reg != PTX_NOREG ? ptx_reg_name(m, a->f, rt->reg) : "");
                fprintf(o, ", \"offset\": %lld, \"desc\": ", (long long)rt->value);
                json_str(o, d);
                fprintf(o, "}");
            }
            fprintf(o, "]}");
        } else {
            fprintf(o, ", \"shared\": \"%s\", \"var\": ", ptx_sres_name((ptx_sres_t)x->sres));
            if (x->svar != PTX_NOSYM) json_str(o, ptx_sym_name(m, x->svar));
            else fprintf(o, "null");
            fprintf(o, "}");
        }
        return;
    }
    char where[96];
    if (in->loc.file) snprintf(where, sizeof where, "%s:%u", base_name(cf), in->loc.line);
    else snprintf(where, sizeof where, "-");
    fprintf(o, "  line %-5u %-18s %-40s %-7s %2u B %-5s ", in->pos.line, where, txt, space, x->size,
            x->store ? "store" : "load");
    if (x->check == PTX_CHECK_G) {
        fprintf(o, "MEMCHECK.G %-7s", ptx_class_name((ptx_class_t)x->cls));
        for (uint32_t k = 0; k < x->nroots; k++) {
            char d[320];
            ptx_root_describe(a, a->acc_roots[x->root_first + k], d, sizeof d);
            fprintf(o, "%s%s [%s]", k ? "; " : " roots: ", d, ptx_class_name((ptx_class_t)a->acc_root_cls[x->root_first + k]));
        }
        if (x->shadowed) fprintf(o, " (location carried in shadows)");
        fprintf(o, "\n");
    } else {
        fprintf(o, "MEMCHECK.S %s", ptx_sres_name((ptx_sres_t)x->sres));
        if (x->svar != PTX_NOSYM)
            fprintf(o, " %s (%s)", ptx_sym_name(m, x->svar),
                    x->sres == PTX_SHARED_STATIC ? "declared size" : "%dynamic_smem_size");
        else
            fprintf(o, " (base 0, %%total_smem_size)");
        fprintf(o, "\n");
    }
}

static int cmd_report(const char *path, const char *outp, bool json)
{
    ptx_module_t *m = load(path);
    if (m == NULL) return 1;
    ptx_module_t *mi = load(path);
    if (mi == NULL) {
        ptx_module_free(m);
        return 1;
    }
    ptx_err_t err;
    memset(&err, 0, sizeof err);
    ptx_instr_result_t res;
    if (ptx_instrument(mi, &res, &err)) {
        fprintf(stderr, "%s\n", err.msg);
        ptx_module_free(m), ptx_module_free(mi);
        return 1;
    }
    ptx_root_func_t *an = calloc((size_t)m->nfuncs + 1, sizeof *an);
    if (an == NULL) {
        fprintf(stderr, "gaptx: out of memory\n");
        ptx_instr_result_free(&res);
        ptx_module_free(m), ptx_module_free(mi);
        return 1;
    }
    int rc = 1;
    for (uint32_t fi = 0; fi < m->nfuncs; fi++) {
        if (!m->funcs[fi].defined) continue;
        if (ptx_root_analyze(m, fi, &an[fi], &err)) {
            fprintf(stderr, "%s\n", err.msg);
            goto done;
        }
    }
    out_t o;
    if (out_open(&o, outp, path)) goto done;
    FILE *f = o.f;
    if (json) {
        fprintf(f, "{\n  \"file\": ");
        json_str(f, base_name(path));
        fprintf(f, ",\n  \"functions\": [");
    } else {
        fprintf(f, "gaptx report: %s\n", base_name(path));
    }
    bool firstf = true;
    for (uint32_t fi = 0; fi < m->nfuncs; fi++) {
        const ptx_func_t *fn = &m->funcs[fi];
        if (!fn->defined) continue;
        const ptx_root_func_t *a = &an[fi];
        const ptx_instr_stats_t *s = &res.func[fi];
        if (json) {
            fprintf(f, "%s\n    {\"name\": ", firstf ? "" : ",");
            json_str(f, ptx_sym_name(m, fn->sym));
            fprintf(f, ", \"kind\": \"%s\", \"accesses\": [", fn->is_entry ? "entry" : "func");
            for (uint32_t k = 0; k < a->nacc; k++) report_access(f, true, a, &a->acc[k], k == 0);
            fprintf(f, "%s],\n      \"totals\": ", a->nacc ? "\n      " : "");
            json_totals(f, s);
            fprintf(f, "}");
        } else {
            fprintf(f, "\n%s %s (line %u): %u checked accesses\n", fn->is_entry ? "kernel" : "function",
                    ptx_sym_name(m, fn->sym), fn->pos.line, a->nacc);
            for (uint32_t k = 0; k < a->nacc; k++) report_access(f, false, a, &a->acc[k], k == 0);
            text_totals(f, "  ", s);
        }
        firstf = false;
    }
    const ptx_instr_stats_t *t = &res.total;
    if (json) {
        fprintf(f, "\n  ],\n  \"totals\": ");
        json_totals(f, t);
        fprintf(f, ",\n  \"body_insns\": %u\n}\n", res.body_insns);
    } else {
        fprintf(f, "\nmodule totals\n");
        text_totals(f, "  ", t);
        fprintf(f, "  MEMCHECK.G coverage (paper Figure 8; the paper's average over its workloads: 55.5 %% full, "
                "36 %% partial, 8.5 %% tagging): full %.1f %%, partial %.1f %%, tagging %.1f %%\n",
                pct(t->memcheck_g_class[0], t->memcheck_g), pct(t->memcheck_g_class[1], t->memcheck_g),
                pct(t->memcheck_g_class[2], t->memcheck_g));
        if (res.body_insns)
            fprintf(f, "  the software bodies add %u instructions to the module (not counted above)\n", res.body_insns);
    }
    rc = out_close(&o);
done:
    for (uint32_t fi = 0; fi < m->nfuncs; fi++) ptx_root_func_free(&an[fi]);
    free(an);
    ptx_instr_result_free(&res);
    ptx_module_free(m), ptx_module_free(mi);
    return rc;
}

/* ------------------------------------------------------------------------------------------------
 * instrument, strip, cfg
 */

static int write_module(const ptx_module_t *m, const char *outp, const char *input)
{
    out_t o;
    if (out_open(&o, outp, input)) return 1;
    if (ptx_print(m, o.f) != 0) {
        fprintf(stderr, "gaptx: error writing the module\n");
        out_abort(&o);
        return 1;
    }
    return out_close(&o);
}

static int cmd_transform(const char *path, const char *outp, bool instrument)
{
    ptx_module_t *m = load(path);
    if (m == NULL) return 1;
    ptx_err_t err;
    memset(&err, 0, sizeof err);
    int rc = instrument ? ptx_instrument(m, NULL, &err) : ptx_strip(m, &err);
    if (rc) {
        fprintf(stderr, "%s\n", err.msg);
        ptx_module_free(m);
        return 1;
    }
    rc = write_module(m, outp, path);
    ptx_module_free(m);
    return rc;
}

static int cmd_cfg(const char *path, const char *outp, const char *fname)
{
    ptx_module_t *m = load(path);
    if (m == NULL) return 1;
    int fi = ptx_find_func(m, fname);
    if (fi < 0 || !m->funcs[fi].defined) {
        fprintf(stderr, "%s: no function named '%s' is defined here; defined:", m->name, fname);
        for (uint32_t k = 0; k < m->nfuncs; k++)
            if (m->funcs[k].defined) fprintf(stderr, " %s", ptx_sym_name(m, m->funcs[k].sym));
        fprintf(stderr, "\n");
        ptx_module_free(m);
        return 1;
    }
    ptx_err_t err;
    memset(&err, 0, sizeof err);
    ptx_cfg_t *g = ptx_cfg_build(m, &m->funcs[fi], &err);
    if (g == NULL) {
        fprintf(stderr, "%s\n", err.msg);
        ptx_module_free(m);
        return 1;
    }
    out_t o;
    int rc = out_open(&o, outp, path);
    if (rc == 0) {
        if (ptx_cfg_dot(g, o.f) != 0) {
            fprintf(stderr, "gaptx: error writing the graph\n");
            out_abort(&o);
            rc = 1;
        } else {
            rc = out_close(&o);
        }
    }
    ptx_cfg_free(g);
    ptx_module_free(m);
    return rc;
}

int main(int argc, char **argv)
{
    if (argc < 2) return usage_error("a command is needed: report, instrument, strip or cfg");
    for (int k = 1; k < argc; k++)
        if (strcmp(argv[k], "-h") == 0 || strcmp(argv[k], "--help") == 0) {
            fputs(USAGE, stdout);
            return 0;
        }
    const char *cmd = argv[1];
    enum { C_REPORT, C_INSTR, C_STRIP, C_CFG } c;
    if (strcmp(cmd, "report") == 0) c = C_REPORT;
    else if (strcmp(cmd, "instrument") == 0) c = C_INSTR;
    else if (strcmp(cmd, "strip") == 0) c = C_STRIP;
    else if (strcmp(cmd, "cfg") == 0) c = C_CFG;
    else return usage_error("unknown command '%s' (expected report, instrument, strip or cfg)", cmd);
    const char *file = NULL, *outp = NULL, *func = NULL;
    bool json = false;
    for (int k = 2; k < argc; k++) {
        const char *a = argv[k];
        if (strcmp(a, "-o") == 0 || strcmp(a, "--output") == 0) {
            if (k + 1 >= argc) return usage_error("%s needs a file name", a);
            if (outp) return usage_error("%s given twice", a);
            outp = argv[++k];
        } else if (strcmp(a, "--func") == 0) {
            if (c != C_CFG) return usage_error("--func belongs to the cfg command");
            if (k + 1 >= argc) return usage_error("--func needs a function name");
            func = argv[++k];
        } else if (strcmp(a, "--json") == 0) {
            if (c != C_REPORT) return usage_error("--json belongs to the report command");
            json = true;
        } else if (a[0] == '-' && a[1] != 0) {
            return usage_error("unknown option '%s'", a);
        } else {
            if (file) return usage_error("one input file only (got '%s' and '%s')", file, a);
            file = a;
        }
    }
    if (file == NULL) return usage_error("%s needs an input file", cmd);
    switch (c) {
    case C_REPORT:
        return cmd_report(file, outp, json);
    case C_INSTR:
    case C_STRIP:
        if (outp == NULL) return usage_error("%s needs -o OUT (use -o - for standard output)", cmd);
        return cmd_transform(file, outp, c == C_INSTR);
    case C_CFG:
        if (func == NULL) return usage_error("cfg needs --func NAME");
        return cmd_cfg(file, outp, func);
    }
    return 2;
}
