/*
 * ptx_print.c — writes a module back as PTX text (ptx_print, ptx_print_str, ptx_format_insn).
 *
 * The output is canonical, so printing is a fixed point after one round: parse(print(m)) prints
 * exactly as m does. Integers are written in decimal, floats as 0f/0d hex bits, memory operands
 * without a zero offset, each register declaration and each variable declarator on a line of its
 * own, multi-dimensional initializers as complete nested rows, and every call with its argument list
 * (`call f, ();`). Layout follows nvcc (tabs, labels in column 0) so the text stays readable and
 * ptxas accepts it. Raw `.section` text and .loc directives are re-emitted as they were parsed.
 */
#include "ptx_ir.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* A growing output buffer; after an allocation failure it only counts. */
typedef struct {
    char *buf;
    size_t len, cap;
    bool oom;
} sbuf_t;

static void put(sbuf_t *b, const char *s, size_t n)
{
    if (b->oom) return;
    if (b->len + n + 1 > b->cap) {
        size_t nc = b->cap ? b->cap : 4096;
        while (nc < b->len + n + 1) {
            if (nc > SIZE_MAX / 2) {
                b->oom = true;
                return;
            }
            nc *= 2;
        }
        char *q = realloc(b->buf, nc);
        if (q == NULL) {
            b->oom = true;
            return;
        }
        b->buf = q;
        b->cap = nc;
    }
    memcpy(b->buf + b->len, s, n);
    b->len += n;
    b->buf[b->len] = '\0';
}

static void puts_(sbuf_t *b, const char *s) { put(b, s, strlen(s)); }

__attribute__((format(printf, 2, 3))) static void putf(sbuf_t *b, const char *fmt, ...)
{
    char tmp[128];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    if (n < 0) {
        b->oom = true;
        return;
    }
    if ((size_t)n < sizeof tmp) {
        put(b, tmp, (size_t)n);
        return;
    }
    char *big = malloc((size_t)n + 1);
    if (big == NULL) {
        b->oom = true;
        return;
    }
    va_start(ap, fmt);
    vsnprintf(big, (size_t)n + 1, fmt, ap);
    va_end(ap);
    put(b, big, (size_t)n);
    free(big);
}

static void put_fimm(sbuf_t *b, uint8_t fwidth, uint64_t bits)
{
    if (fwidth == 32) putf(b, "0f%08X", (unsigned)(bits & 0xffffffffu));
    else putf(b, "0d%016llX", (unsigned long long)bits);
}

/* `+N` / `+-N` after a symbol or an address base; nothing for 0. */
static void put_offset(sbuf_t *b, int64_t off)
{
    if (off != 0) putf(b, "+%lld", (long long)off);
}

static const char *reg_name(const ptx_module_t *m, const ptx_func_t *f, uint32_t r)
{
    const char *s = ptx_reg_name(m, f, r);
    return *s ? s : "%<bad-register>";
}

static void put_sreg(sbuf_t *b, const ptx_operand_t *o)
{
    switch (o->sreg) {
    case PTX_SREG_ENVREG: putf(b, "%%envreg%u", o->sreg_comp); return;
    case PTX_SREG_PM: putf(b, "%%pm%u", o->sreg_comp); return;
    case PTX_SREG_PM64: putf(b, "%%pm%u_64", o->sreg_comp); return;
    case PTX_SREG_TID: case PTX_SREG_NTID: case PTX_SREG_CTAID: case PTX_SREG_NCTAID:
    case PTX_SREG_CLUSTERID: case PTX_SREG_NCLUSTERID: case PTX_SREG_CLUSTER_CTAID:
    case PTX_SREG_CLUSTER_NCTAID:
        puts_(b, ptx_sreg_name((ptx_sreg_t)o->sreg));
        putf(b, ".%c", o->sreg_comp < 3 ? "xyz"[o->sreg_comp] : '?');
        return;
    default:
        puts_(b, ptx_sreg_name((ptx_sreg_t)o->sreg));
        return;
    }
}

static void put_operand(sbuf_t *b, const ptx_module_t *m, const ptx_func_t *f, const ptx_operand_t *o);

/* The elements of a VEC or LIST operand, comma-separated. */
static void put_slice(sbuf_t *b, const ptx_module_t *m, const ptx_func_t *f, const ptx_operand_t *o)
{
    for (uint32_t i = 0; i < o->count; i++) {
        uint64_t k = (uint64_t)o->first + i;
        if (i) puts_(b, ", ");
        if (f == NULL || k >= f->npool) {
            puts_(b, "<bad-pool-index>");
            continue;
        }
        put_operand(b, m, f, &f->pool[k]);
    }
}

static void put_operand(sbuf_t *b, const ptx_module_t *m, const ptx_func_t *f, const ptx_operand_t *o)
{
    switch (o->kind) {
    case PTX_OPK_REG:
        if (o->neg) puts_(b, "!");
        puts_(b, reg_name(m, f, o->reg));
        break;
    case PTX_OPK_PAIR:
        puts_(b, reg_name(m, f, o->reg));
        puts_(b, "|");
        puts_(b, reg_name(m, f, o->reg2));
        break;
    case PTX_OPK_IMM:
        putf(b, "%lld", (long long)o->imm);
        break;
    case PTX_OPK_FIMM:
        put_fimm(b, o->fwidth, o->fbits);
        break;
    case PTX_OPK_SREG:
        put_sreg(b, o);
        break;
    case PTX_OPK_SYM:
        puts_(b, ptx_sym_name(m, o->sym));
        put_offset(b, o->imm);
        break;
    case PTX_OPK_ADDR:
        puts_(b, "[");
        if (o->base == PTX_BASE_REG) {
            puts_(b, reg_name(m, f, o->reg));
            put_offset(b, o->imm);
        } else if (o->base == PTX_BASE_SYM) {
            puts_(b, ptx_sym_name(m, o->sym));
            put_offset(b, o->imm);
        } else {
            putf(b, "%lld", (long long)o->imm);
        }
        puts_(b, "]");
        break;
    case PTX_OPK_LABEL:
        puts_(b, (f != NULL && o->label < f->nlabels) ? ptx_str(m, f->labels[o->label].name) : "<bad-label>");
        break;
    case PTX_OPK_VEC:
        puts_(b, "{");
        put_slice(b, m, f, o);
        puts_(b, "}");
        break;
    case PTX_OPK_LIST:
        puts_(b, "(");
        put_slice(b, m, f, o);
        puts_(b, ")");
        break;
    case PTX_OPK_SINK:
        puts_(b, "_");
        break;
    default:
        puts_(b, "<none>");
        break;
    }
}

static void put_insn(sbuf_t *b, const ptx_module_t *m, const ptx_func_t *f, const ptx_insn_t *in)
{
    if (in->guard != PTX_NOREG) {
        puts_(b, in->guard_neg ? "@!" : "@");
        puts_(b, reg_name(m, f, in->guard));
        puts_(b, " ");
    }
    puts_(b, ptx_opcode_name(in->opc));
    for (unsigned i = 0; i < in->nmods && i < PTX_MAX_MODS; i++) {
        puts_(b, ".");
        puts_(b, ptx_mod_name((ptx_mod_t)in->mods[i]));
    }
    if (in->opc == PTX_OPC_CALL && in->nops == 4) {
        /* fixed order: ops[0] returns, ops[1] target, ops[2] arguments, ops[3] prototype */
        puts_(b, "\t");
        if (in->ops[0].kind == PTX_OPK_LIST && in->ops[0].count > 0) {
            put_operand(b, m, f, &in->ops[0]);
            puts_(b, ", ");
        }
        put_operand(b, m, f, &in->ops[1]);
        puts_(b, ", ");
        if (in->ops[2].kind == PTX_OPK_LIST) put_operand(b, m, f, &in->ops[2]);
        else puts_(b, "()");
        if (in->ops[3].kind != PTX_OPK_NONE) {
            puts_(b, ", ");
            put_operand(b, m, f, &in->ops[3]);
        }
        return;
    }
    for (unsigned i = 0; i < in->nops && i < PTX_MAX_OPS; i++) {
        puts_(b, i == 0 ? "\t" : ", ");
        put_operand(b, m, f, &in->ops[i]);
    }
}

int ptx_format_insn(const ptx_module_t *m, const ptx_func_t *f, const ptx_insn_t *in, char *buf, size_t cap)
{
    sbuf_t b = {NULL, 0, 0, false};
    put_insn(&b, m, f, in);
    if (b.oom) {
        free(b.buf);
        if (cap) buf[0] = '\0';
        return -1;
    }
    if (cap) {
        size_t n = b.len < cap - 1 ? b.len : cap - 1;
        if (n) memcpy(buf, b.buf, n);
        buf[n] = '\0';
    }
    int len = b.len > (size_t)INT32_MAX ? INT32_MAX : (int)b.len;
    free(b.buf);
    return len;
}

/* ---------------------------------------------------------------------------------------------------
 * Variables and initializers.
 */

static void put_init_elem(sbuf_t *b, const ptx_module_t *m, const ptx_init_t *e)
{
    switch (e->kind) {
    case PTX_INIT_INT:
        putf(b, "%lld", (long long)e->ival);
        break;
    case PTX_INIT_FLOAT:
        put_fimm(b, e->fwidth, e->fbits);
        break;
    case PTX_INIT_SYM:
        puts_(b, ptx_sym_name(m, e->sym));
        put_offset(b, e->ival);
        break;
    case PTX_INIT_GENERIC:
        puts_(b, "generic(");
        puts_(b, ptx_sym_name(m, e->sym));
        puts_(b, ")");
        put_offset(b, e->ival);
        break;
    default:
        puts_(b, "0");
        break;
    }
}

/* Elements [first, first + n) of the initializer as nested groups from level lvl of dims[0..nd). */
static void put_init_group(sbuf_t *b, const ptx_module_t *m, const uint64_t *dims, unsigned nd, unsigned lvl,
                           uint64_t first, uint64_t n)
{
    puts_(b, "{");
    if (lvl + 1 >= nd) {
        for (uint64_t i = 0; i < n; i++) {
            if (i) puts_(b, ", ");
            uint64_t k = first + i;
            if (k < m->ninits) put_init_elem(b, m, &m->inits[k]);
        }
    } else {
        uint64_t sub = 1;
        for (unsigned i = lvl + 1; i < nd; i++) sub *= dims[i] ? dims[i] : 1;
        for (uint64_t k = 0; k < n; k += sub) {
            if (k) puts_(b, ", ");
            put_init_group(b, m, dims, nd, lvl + 1, first + k, (n - k < sub) ? n - k : sub);
        }
    }
    puts_(b, "}");
}

static void put_init(sbuf_t *b, const ptx_module_t *m, const ptx_sym_t *s)
{
    uint64_t dims[5];
    unsigned nd = 0;
    for (unsigned i = 0; i < s->ndims && i < 4; i++) dims[nd++] = s->dims[i];
    if (s->vec > 1) dims[nd++] = s->vec;
    puts_(b, " = ");
    if (nd == 0) {
        if (s->first_init < m->ninits) put_init_elem(b, m, &m->inits[s->first_init]);
        return;
    }
    put_init_group(b, m, dims, nd, 0, s->first_init, s->ninit);
}

static const char *link_name(uint8_t link)
{
    switch (link) {
    case PTX_LINK_VISIBLE: return ".visible ";
    case PTX_LINK_EXTERN: return ".extern ";
    case PTX_LINK_WEAK: return ".weak ";
    case PTX_LINK_COMMON: return ".common ";
    default: return "";
    }
}

/* `.space [.align N] [.vN] .type name[dims] [= init]` (no ';'): variables and parameters. */
static void put_decl(sbuf_t *b, const ptx_module_t *m, const ptx_sym_t *s)
{
    puts_(b, link_name(s->link));
    puts_(b, ".");
    puts_(b, ptx_space_name((ptx_space_t)s->space));
    if (s->align) putf(b, " .align %u", s->align);
    if (s->vec > 1) putf(b, " .v%u", s->vec);
    putf(b, " .%s", ptx_type_name((ptx_type_t)s->type));
    if (s->has_ptr) {
        puts_(b, " .ptr");
        if (s->ptr_space) {
            puts_(b, ".");
            puts_(b, ptx_space_name((ptx_space_t)s->ptr_space));
        }
        if (s->ptr_align) putf(b, ".align %u", s->ptr_align);
    }
    puts_(b, " ");
    puts_(b, ptx_str(m, s->name));
    for (unsigned i = 0; i < s->ndims && i < 4; i++) {
        if (s->dims[i] == 0) puts_(b, "[]");
        else putf(b, "[%llu]", (unsigned long long)s->dims[i]);
    }
    if (s->ninit > 0) put_init(b, m, s);
}

static void put_sym_decl(sbuf_t *b, const ptx_module_t *m, uint32_t sym)
{
    if (sym >= m->nsyms) {
        puts_(b, "<bad-symbol>");
        return;
    }
    put_decl(b, m, &m->syms[sym]);
}

/* ---------------------------------------------------------------------------------------------------
 * Functions.
 */

static void indent(sbuf_t *b, unsigned depth)
{
    for (unsigned i = 0; i < depth; i++) puts_(b, "\t");
}

static void put_regdecl(sbuf_t *b, const ptx_module_t *m, const ptx_func_t *f, const ptx_stmt_t *st)
{
    if (st->count == 0 || st->index >= f->nregs || (uint64_t)st->index + st->count > f->nregs) {
        puts_(b, "// <bad register declaration>");
        return;
    }
    const ptx_reg_t *r0 = &f->regs[st->index];
    puts_(b, ".reg ");
    if (r0->vec > 1) putf(b, ".v%u ", r0->vec);
    putf(b, ".%s ", ptx_type_name((ptx_type_t)r0->type));
    const char *n0 = ptx_str(m, r0->name);
    size_t l0 = strlen(n0);
    /* `%r<6>` names %r0..%r5: the prefix is the first name without its final "0" */
    if (st->aux != 0 && st->aux == st->count && l0 > 1 && n0[l0 - 1] == '0') {
        put(b, n0, l0 - 1);
        putf(b, "<%u>", st->aux);
    } else {
        for (uint32_t i = 0; i < st->count; i++) {
            if (i) puts_(b, ", ");
            puts_(b, ptx_str(m, f->regs[st->index + i].name));
        }
    }
    puts_(b, ";");
}

static void put_loc(sbuf_t *b, const ptx_module_t *m, const ptx_loc_t *l)
{
    putf(b, ".loc\t%u %u %u", l->file, l->line, l->col);
    if (l->fn_name) {
        puts_(b, ", function_name ");
        puts_(b, ptx_str(m, l->fn_name));
    }
    if (l->in_file || l->in_line || l->in_col) putf(b, ", inlined_at %u %u %u", l->in_file, l->in_line, l->in_col);
}

static void put_body(sbuf_t *b, const ptx_module_t *m, const ptx_func_t *f)
{
    unsigned depth = 1;
    for (uint32_t i = 0; i < f->nstmts; i++) {
        const ptx_stmt_t *st = &f->stmts[i];
        switch (st->kind) {
        case PTX_ST_INSN:
            indent(b, depth);
            if (st->index < f->ninsns) put_insn(b, m, f, &f->insns[st->index]);
            else puts_(b, "// <bad instruction>");
            puts_(b, ";\n");
            break;
        case PTX_ST_LABEL:
            puts_(b, st->index < f->nlabels ? ptx_str(m, f->labels[st->index].name) : "<bad-label>");
            puts_(b, ":\n");
            break;
        case PTX_ST_SCOPE_BEGIN:
            indent(b, depth++);
            puts_(b, "{\n");
            break;
        case PTX_ST_SCOPE_END:
            if (depth > 1) depth--;
            indent(b, depth);
            puts_(b, "}\n");
            break;
        case PTX_ST_REGDECL:
            indent(b, depth);
            put_regdecl(b, m, f, st);
            puts_(b, "\n");
            break;
        case PTX_ST_VARDECL:
            indent(b, depth);
            put_sym_decl(b, m, st->index);
            puts_(b, ";\n");
            break;
        case PTX_ST_LOC:
            indent(b, depth);
            put_loc(b, m, &st->loc);
            puts_(b, "\n");
            break;
        case PTX_ST_PRAGMA:
            indent(b, depth);
            puts_(b, ".pragma \"");
            puts_(b, ptx_str(m, st->index));
            puts_(b, "\";\n");
            break;
        case PTX_ST_PROTOTYPE:
            indent(b, depth);
            puts_(b, st->index < f->nlabels ? ptx_str(m, f->labels[st->index].name) : "<bad-label>");
            puts_(b, ": ");
            puts_(b, ptx_str(m, st->count));
            puts_(b, ";\n");
            break;
        default:
            break;
        }
    }
}

static void put_threads(sbuf_t *b, const char *name, const uint32_t v[3])
{
    if (v[0] == 0) return;
    putf(b, "%s %u", name, v[0]);
    for (unsigned k = 1; k < 3 && v[k]; k++) putf(b, ", %u", v[k]);
    puts_(b, "\n");
}

static void put_func(sbuf_t *b, const ptx_module_t *m, const ptx_func_t *f)
{
    puts_(b, link_name(f->link));
    puts_(b, f->is_entry ? ".entry " : ".func ");
    if (f->nrets > 0) {
        puts_(b, "(");
        for (uint32_t i = 0; i < f->nrets; i++) {
            if (i) puts_(b, ", ");
            put_sym_decl(b, m, f->rets[i]);
        }
        puts_(b, ") ");
    }
    puts_(b, ptx_sym_name(m, f->sym));
    if (f->nparams == 0) {
        puts_(b, "()\n");
    } else {
        puts_(b, "(\n");
        for (uint32_t i = 0; i < f->nparams; i++) {
            puts_(b, "\t");
            put_sym_decl(b, m, f->params[i]);
            puts_(b, i + 1 < f->nparams ? ",\n" : "\n");
        }
        puts_(b, ")\n");
    }
    put_threads(b, ".maxntid", f->maxntid);
    put_threads(b, ".reqntid", f->reqntid);
    if (f->minnctapersm) putf(b, ".minnctapersm %u\n", f->minnctapersm);
    if (f->maxnctapersm) putf(b, ".maxnctapersm %u\n", f->maxnctapersm);
    if (f->maxnreg) putf(b, ".maxnreg %u\n", f->maxnreg);
    if (f->noreturn) puts_(b, ".noreturn\n");
    if (!f->defined) {
        puts_(b, ";\n");
        return;
    }
    puts_(b, "{\n");
    put_body(b, m, f);
    puts_(b, "}\n");
}

/* ---------------------------------------------------------------------------------------------------
 * The module.
 */

static void put_module(sbuf_t *b, const ptx_module_t *m)
{
    for (uint32_t i = 0; i < m->nitems; i++) {
        const ptx_item_t *it = &m->items[i];
        switch (it->kind) {
        case PTX_ITEM_VERSION:
            putf(b, ".version %llu.%llu\n", (unsigned long long)it->a, (unsigned long long)it->b);
            break;
        case PTX_ITEM_TARGET:
            puts_(b, ".target ");
            puts_(b, ptx_str(m, it->index));
            puts_(b, "\n");
            break;
        case PTX_ITEM_ADDRESS_SIZE:
            putf(b, ".address_size %llu\n\n", (unsigned long long)it->a);
            break;
        case PTX_ITEM_VAR:
            put_sym_decl(b, m, it->index);
            puts_(b, ";\n");
            break;
        case PTX_ITEM_FUNC:
            if (it->index < m->nfuncs) put_func(b, m, &m->funcs[it->index]);
            puts_(b, "\n");
            break;
        case PTX_ITEM_FILE:
            if (it->index < m->nfiles) {
                const ptx_file_t *fl = &m->files[it->index];
                putf(b, ".file\t%u \"", fl->index);
                puts_(b, ptx_str(m, fl->name));
                puts_(b, "\"");
                if (fl->has_extra)
                    putf(b, ", %llu, %llu", (unsigned long long)fl->timestamp, (unsigned long long)fl->size);
                puts_(b, "\n");
            }
            break;
        case PTX_ITEM_SECTION:
            puts_(b, ptx_str(m, it->index));
            puts_(b, "\n");
            break;
        default:
            break;
        }
    }
}

char *ptx_print_str(const ptx_module_t *m, size_t *len)
{
    sbuf_t b = {NULL, 0, 0, false};
    put(&b, "", 0);
    put_module(&b, m);
    if (b.oom) {
        free(b.buf);
        if (len) *len = 0;
        return NULL;
    }
    if (len) *len = b.len;
    return b.buf;
}

int ptx_print(const ptx_module_t *m, FILE *out)
{
    size_t n;
    char *s = ptx_print_str(m, &n);
    if (s == NULL) return -1;
    size_t w = fwrite(s, 1, n, out);
    free(s);
    if (w != n || fflush(out) != 0 || ferror(out)) return -1;
    return 0;
}
