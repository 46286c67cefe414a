/*
 * tb_trace.c — the co-simulation's text trace format (tb/README.md has the full grammar).
 *
 * One operation per line; '#' starts a comment. The whole file is parsed before the run starts, so
 * a malformed line stops everything with "file:line: message" and nothing is simulated. Names of
 * allocations are bound when their `alloc` line runs; pointer and location expressions are resolved
 * when their line is issued (so `free a` followed by `loadmeta a+4` gives a dangling pointer).
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tb_stim.h"

enum {
    TL_ALLOC, TL_FREE, TL_LOADMETA, TL_MEMCHECK, TL_ACCESS, TL_SHARED, TL_INVALIDATE, TL_FLUSH,
    TL_CFG, TL_CLEAR, TL_DRAIN, TL_IDLE, TL_POISON, TL_UNPOISON, TL_WINDOW
};

/* A pointer or location expression. */
typedef struct {
    int name;      /* -1: raw value */
    uint64_t val;  /* raw value, or the offset added to the name's pointer / location */
    bool neg;      /* offset is subtracted */
    int tagmode;   /* 0 keep, 1 set tag `tag`, 2 tag 0, 3 the freed tag */
    uint64_t tag;
    bool loc_rt;   /* `root runtime`: the runtime's ROOT */
} texpr_t;

typedef struct {
    unsigned kind;
    uint32_t line;
    texpr_t p[TB_LANES_MAX];
    unsigned np;
    uint8_t size_log2;
    texpr_t md;
    bool has_active;
    uint32_t active;
    uint64_t a, b;
    unsigned exp;
    texpr_t exp_e;
} tline_t;

struct tb_trace {
    char *path;
    tline_t *l;
    size_t n, cap, next;
    unsigned lanes;
    uint8_t *bound; /* per name: an earlier alloc line binds it */
    size_t nbound;
};

static int perr(const char *path, uint32_t line, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Names must be bound by an alloc line before any other line uses them. */
static int check_bound(tb_trace_t *tr, const tb_world_t *w, const texpr_t *e, uint32_t line)
{
    if (e->name < 0) return 0;
    if ((size_t)e->name < tr->nbound && tr->bound[e->name]) return 0;
    return perr(tr->path, line, "'%s' is used before any 'alloc %s' line", w->names[e->name], w->names[e->name]);
}

static int bind_name(tb_trace_t *tr, int name, uint32_t line)
{
    if ((size_t)name >= tr->nbound) {
        size_t nn = (size_t)name + 16u;
        uint8_t *nb = realloc(tr->bound, nn);
        if (nb == NULL) return perr(tr->path, line, "out of memory");
        memset(nb + tr->nbound, 0, nn - tr->nbound);
        tr->bound = nb;
        tr->nbound = nn;
    }
    tr->bound[name] = 1;
    return 0;
}

static int perr(const char *path, uint32_t line, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "%s:%u: ", path, line);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    return -1;
}

static int num(const char *s, uint64_t *v)
{
    if (*s == '\0' || *s == '-' || *s == '+') return -1;
    char *end = NULL;
    errno = 0;
    unsigned long long x = strtoull(s, &end, 0);
    if (errno != 0 || *end != '\0') return -1;
    *v = (uint64_t)x;
    return 0;
}

static bool is_name_start(char c) { return isalpha((unsigned char)c) || c == '_'; }

/* NAME[(+|-)NUM][@tag=N|@tag0|@freed] | NUM[@...] */
static int parse_expr(tb_world_t *w, const char *tok, texpr_t *e, const char *path, uint32_t line, bool allow_tag)
{
    memset(e, 0, sizeof *e);
    e->name = -1;
    char buf[256];
    if (strlen(tok) >= sizeof buf) return perr(path, line, "expression too long: '%s'", tok);
    strcpy(buf, tok);
    char *at = strchr(buf, '@');
    if (at != NULL) {
        if (!allow_tag) return perr(path, line, "a tag suffix is not allowed here: '%s'", tok);
        *at++ = '\0';
        if (strcmp(at, "tag0") == 0) e->tagmode = 2;
        else if (strcmp(at, "freed") == 0) e->tagmode = 3;
        else if (strncmp(at, "tag=", 4) == 0 && num(at + 4, &e->tag) == 0) e->tagmode = 1;
        else return perr(path, line, "bad tag suffix '@%s' (use @tag=N, @tag0 or @freed)", at);
    }
    if (is_name_start(buf[0])) {
        size_t n = 0;
        while (isalnum((unsigned char)buf[n]) || buf[n] == '_') n++;
        e->name = tb_world_name(w, buf, n);
        if (e->name < 0) return perr(path, line, "out of memory");
        if (buf[n] == '\0') return 0;
        if (buf[n] != '+' && buf[n] != '-') return perr(path, line, "bad expression '%s' (NAME, NAME+OFF, NAME-OFF or a number)", tok);
        e->neg = buf[n] == '-';
        if (num(buf + n + 1, &e->val) != 0) return perr(path, line, "bad offset in '%s'", tok);
        return 0;
    }
    if (num(buf, &e->val) != 0) return perr(path, line, "bad number or name '%s'", tok);
    return 0;
}

static int parse_size(const char *tok, uint8_t *lg, const char *path, uint32_t line)
{
    uint64_t v;
    if (num(tok, &v) != 0) return perr(path, line, "bad access size '%s'", tok);
    for (uint8_t k = 0; k <= 4u; k++)
        if (v == (UINT64_C(1) << k)) {
            *lg = k;
            return 0;
        }
    return perr(path, line, "access size must be 1, 2, 4, 8 or 16, not '%s'", tok);
}

static const char *const kind_names[] = { "ok", "OUT_OF_BOUNDS", "USE_AFTER_FREE", "TAG_MISMATCH", "NO_METADATA",
                                          "SHARED_OUT_OF_BOUNDS", "METADATA_FAULT" };

static int parse_expect(tb_world_t *w, tline_t *t, const char *tok, const char *path, uint32_t line)
{
    if (strcmp(tok, "HALTED") == 0 || strcmp(tok, "CFG_ERROR") == 0 || (t->kind == TL_CFG && strcmp(tok, "OK") == 0)) {
        t->exp = TB_EXP_STATUS;
        t->exp_e.name = -1;
        t->exp_e.val = strcmp(tok, "HALTED") == 0 ? TB_ST_HALTED : strcmp(tok, "CFG_ERROR") == 0 ? TB_ST_CFG_ERROR : TB_ST_OK;
        return 0;
    }
    if (t->kind == TL_LOADMETA) {
        t->exp = TB_EXP_RD;
        return parse_expr(w, tok, &t->exp_e, path, line, false);
    }
    if (t->kind == TL_CFG) return perr(path, line, "a cfg line expects OK, CFG_ERROR or HALTED, not '%s'", tok);
    for (unsigned k = 0; k < sizeof kind_names / sizeof kind_names[0]; k++)
        if (strcmp(tok, kind_names[k]) == 0) {
            t->exp = TB_EXP_KIND;
            t->exp_e.name = -1;
            t->exp_e.val = k;
            return 0;
        }
    return perr(path, line, "unknown expectation '%s' (ok, an exception kind, HALTED or CFG_ERROR)", tok);
}

/* Split a comma list into expressions. */
static int parse_list(tb_world_t *w, char *tok, tline_t *t, const char *path, uint32_t line, bool ptrs)
{
    t->np = 0;
    for (char *s = strtok(tok, ","); s != NULL; s = strtok(NULL, ",")) {
        if (t->np == TB_LANES_MAX) return perr(path, line, "more than %u lanes", TB_LANES_MAX);
        if (parse_expr(w, s, &t->p[t->np], path, line, ptrs) != 0) return -1;
        t->np++;
    }
    if (t->np == 0) return perr(path, line, "missing lane address list");
    return 0;
}

static int parse_line(tb_trace_t *tr, tb_world_t *w, char *s, uint32_t line)
{
    const char *path = tr->path;
    char *tok[16];
    unsigned n = 0;
    char *hash = strchr(s, '#');
    if (hash != NULL) *hash = '\0';
    for (char *p = strtok(s, " \t\r\n"); p != NULL; p = strtok(NULL, " \t\r\n")) {
        if (n == 16u) return perr(path, line, "too many fields");
        tok[n++] = p;
    }
    if (n == 0) return 0;
    /* "=> X" at the end */
    const char *expect = NULL;
    if (n >= 2 && strcmp(tok[n - 2], "=>") == 0) {
        expect = tok[n - 1];
        n -= 2;
    }
    if (tr->n == tr->cap) {
        size_t nc = tr->cap ? tr->cap * 2u : 64u;
        tline_t *nl = realloc(tr->l, nc * sizeof *nl);
        if (nl == NULL) return perr(path, line, "out of memory");
        tr->l = nl;
        tr->cap = nc;
    }
    tline_t *t = &tr->l[tr->n];
    memset(t, 0, sizeof *t);
    t->line = line;
    t->md.name = -1;
    t->exp_e.name = -1;
    const char *op = tok[0];
    uint64_t v = 0;

#define NEED(k, usage)                                                                                   \
    do {                                                                                                 \
        if (n != (k)) return perr(path, line, "usage: %s", usage);                                      \
    } while (0)

    if (strcmp(op, "alloc") == 0) {
        NEED(3, "alloc NAME SIZE");
        t->kind = TL_ALLOC;
        if (!is_name_start(tok[1][0])) return perr(path, line, "bad allocation name '%s'", tok[1]);
        if (parse_expr(w, tok[1], &t->md, path, line, false) != 0 || t->md.name < 0 || t->md.val != 0)
            return perr(path, line, "bad allocation name '%s'", tok[1]);
        if (num(tok[2], &t->a) != 0 || t->a == 0) return perr(path, line, "bad allocation size '%s'", tok[2]);
    } else if (strcmp(op, "free") == 0) {
        NEED(2, "free NAME");
        t->kind = TL_FREE;
        if (parse_expr(w, tok[1], &t->md, path, line, false) != 0 || t->md.name < 0 || t->md.val != 0)
            return perr(path, line, "free takes an allocation name, not '%s'", tok[1]);
    } else if (strcmp(op, "loadmeta") == 0) {
        NEED(2, "loadmeta PTR [=> 0|NAME|VALUE]");
        t->kind = TL_LOADMETA;
        if (parse_expr(w, tok[1], &t->p[0], path, line, true) != 0) return -1;
        t->np = 1;
    } else if (strcmp(op, "memcheck") == 0 || strcmp(op, "access") == 0) {
        bool mc = op[0] == 'm';
        if (n < 3) return perr(path, line, "usage: %s", mc ? "memcheck PTR[,PTR..] SIZE [md=MD] [active=MASK] [=> KIND]"
                                                           : "access PTR[,PTR..] SIZE [active=MASK] [=> KIND]");
        t->kind = mc ? TL_MEMCHECK : TL_ACCESS;
        if (parse_list(w, tok[1], t, path, line, true) != 0 || parse_size(tok[2], &t->size_log2, path, line) != 0)
            return -1;
        bool md_given = false;
        for (unsigned i = 3; i < n; i++) {
            if (mc && strncmp(tok[i], "md=", 3) == 0) {
                if (parse_expr(w, tok[i] + 3, &t->md, path, line, false) != 0) return -1;
                md_given = true;
            } else if (strncmp(tok[i], "active=", 7) == 0) {
                if (num(tok[i] + 7, &v) != 0 || v > UINT32_MAX) return perr(path, line, "bad mask '%s'", tok[i]);
                t->has_active = true;
                t->active = (uint32_t)v;
            } else {
                return perr(path, line, "unexpected field '%s'", tok[i]);
            }
        }
        if (mc && !md_given) { /* default: the location of the first lane's allocation */
            if (t->p[0].name < 0) return perr(path, line, "memcheck of a raw address needs md=");
            t->md = t->p[0];
            t->md.val = 0;
            t->md.neg = false;
            t->md.tagmode = 0;
        }
    } else if (strcmp(op, "shared") == 0) {
        if (n < 5) return perr(path, line, "usage: shared ADDR[,ADDR..] SIZE BASE SSIZE [active=MASK] [=> KIND]");
        t->kind = TL_SHARED;
        if (parse_list(w, tok[1], t, path, line, false) != 0 || parse_size(tok[2], &t->size_log2, path, line) != 0)
            return -1;
        for (unsigned i = 0; i < t->np; i++)
            if (t->p[i].name >= 0 || t->p[i].val > UINT32_MAX) return perr(path, line, "shared addresses are 32-bit numbers");
        if (num(tok[3], &t->a) != 0 || t->a > UINT32_MAX) return perr(path, line, "bad shared base '%s'", tok[3]);
        if (num(tok[4], &t->b) != 0 || t->b > UINT32_MAX) return perr(path, line, "bad shared size '%s'", tok[4]);
        for (unsigned i = 5; i < n; i++) {
            if (strncmp(tok[i], "active=", 7) != 0 || num(tok[i] + 7, &v) != 0 || v > UINT32_MAX)
                return perr(path, line, "unexpected field '%s'", tok[i]);
            t->has_active = true;
            t->active = (uint32_t)v;
        }
    } else if (strcmp(op, "invalidate") == 0) {
        NEED(2, "invalidate MD");
        t->kind = TL_INVALIDATE;
        if (parse_expr(w, tok[1], &t->md, path, line, false) != 0) return -1;
    } else if (strcmp(op, "flush") == 0) {
        NEED(1, "flush");
        t->kind = TL_FLUSH;
    } else if (strcmp(op, "clearhalt") == 0) {
        NEED(1, "clearhalt");
        t->kind = TL_CLEAR;
    } else if (strcmp(op, "drain") == 0) {
        NEED(1, "drain");
        t->kind = TL_DRAIN;
    } else if (strcmp(op, "unpoison") == 0) {
        NEED(1, "unpoison");
        t->kind = TL_UNPOISON;
    } else if (strcmp(op, "idle") == 0 || strcmp(op, "window") == 0) {
        NEED(2, op[0] == 'i' ? "idle CYCLES" : "window N");
        t->kind = op[0] == 'i' ? TL_IDLE : TL_WINDOW;
        if (num(tok[1], &t->a) != 0 || t->a > 1000000u || (t->kind == TL_WINDOW && t->a == 0))
            return perr(path, line, "bad count '%s'", tok[1]);
    } else if (strcmp(op, "poison") == 0) {
        NEED(3, "poison MD LEN");
        t->kind = TL_POISON;
        if (parse_expr(w, tok[1], &t->md, path, line, false) != 0) return -1;
        if (num(tok[2], &t->a) != 0 || t->a == 0) return perr(path, line, "bad length '%s'", tok[2]);
    } else if (strcmp(op, "mode") == 0 || strcmp(op, "layout") == 0 || strcmp(op, "policy") == 0 ||
               strcmp(op, "steplimit") == 0 || strcmp(op, "smid") == 0 || strcmp(op, "root") == 0 ||
               strcmp(op, "cfg") == 0) {
        t->kind = TL_CFG;
        const char *arg = n >= 2 ? tok[1] : "";
        if (strcmp(op, "cfg") == 0) {
            NEED(3, "cfg REG VALUE [=> OK|CFG_ERROR|HALTED]");
            if (num(tok[1], &t->a) != 0 || t->a > 7u) return perr(path, line, "register must be 0..7, not '%s'", tok[1]);
            if (num(tok[2], &t->b) != 0) return perr(path, line, "bad value '%s'", tok[2]);
        } else {
            NEED(2, "mode compiler|hwonly, layout list|bst|table, policy report|terminate, steplimit N, smid N, root runtime|VALUE");
            if (strcmp(op, "mode") == 0) {
                t->a = TB_CFG_MODE;
                if (strcmp(arg, "compiler") == 0) t->b = 0;
                else if (strcmp(arg, "hwonly") == 0) t->b = 1;
                else return perr(path, line, "mode is compiler or hwonly, not '%s'", arg);
            } else if (strcmp(op, "layout") == 0) {
                t->a = TB_CFG_LAYOUT;
                if (strcmp(arg, "list") == 0) t->b = 0;
                else if (strcmp(arg, "bst") == 0) t->b = 1;
                else if (strcmp(arg, "table") == 0) t->b = 2;
                else return perr(path, line, "layout is list, bst or table, not '%s'", arg);
            } else if (strcmp(op, "policy") == 0) {
                t->a = TB_CFG_POLICY;
                if (strcmp(arg, "report") == 0) t->b = 0;
                else if (strcmp(arg, "terminate") == 0) t->b = 1;
                else return perr(path, line, "policy is report or terminate, not '%s'", arg);
            } else if (strcmp(op, "root") == 0) {
                t->a = TB_CFG_ROOT;
                if (strcmp(arg, "runtime") == 0) t->md.loc_rt = true;
                else if (num(arg, &t->b) != 0) return perr(path, line, "root is 'runtime' or a number, not '%s'", arg);
            } else {
                t->a = op[0] == 's' && op[1] == 't' ? TB_CFG_STEP_LIMIT : TB_CFG_SM_ID;
                if (num(arg, &t->b) != 0) return perr(path, line, "bad value '%s'", arg);
            }
        }
    } else {
        return perr(path, line, "unknown operation '%s'", op);
    }
#undef NEED
    if (expect != NULL) {
        if (t->kind != TL_LOADMETA && t->kind != TL_MEMCHECK && t->kind != TL_ACCESS && t->kind != TL_SHARED &&
            t->kind != TL_CFG)
            return perr(path, line, "'=>' is only allowed on loadmeta, memcheck, access, shared and cfg lines");
        if (parse_expect(w, t, expect, path, line) != 0) return -1;
    }
    if ((t->kind == TL_MEMCHECK || t->kind == TL_ACCESS || t->kind == TL_SHARED) && t->np > tr->lanes) tr->lanes = t->np;
    if (t->kind == TL_ALLOC) {
        if (bind_name(tr, t->md.name, line) != 0) return -1;
    } else {
        for (unsigned i = 0; i < t->np; i++)
            if (check_bound(tr, w, &t->p[i], line) != 0) return -1;
        if (check_bound(tr, w, &t->md, line) != 0 || check_bound(tr, w, &t->exp_e, line) != 0) return -1;
    }
    tr->n++;
    return 0;
}

tb_trace_t *tb_trace_load(const char *path, tb_world_t *w)
{
    FILE *f = fopen(path, "r");
    if (f == NULL) {
        fprintf(stderr, "%s: cannot open: %s\n", path, strerror(errno));
        return NULL;
    }
    tb_trace_t *tr = calloc(1, sizeof *tr);
    if (tr == NULL) {
        fclose(f);
        return NULL;
    }
    tr->path = malloc(strlen(path) + 1u);
    if (tr->path != NULL) strcpy(tr->path, path);
    tr->lanes = 1;
    char buf[4096];
    uint32_t line = 0;
    int bad = tr->path == NULL ? -1 : 0;
    while (bad == 0 && fgets(buf, sizeof buf, f) != NULL) {
        line++;
        if (strchr(buf, '\n') == NULL && !feof(f)) {
            bad = perr(path, line, "line longer than %zu characters", sizeof buf - 1u);
            break;
        }
        bad = parse_line(tr, w, buf, line);
    }
    fclose(f);
    if (bad != 0) {
        tb_trace_destroy(tr);
        return NULL;
    }
    return tr;
}

void tb_trace_destroy(tb_trace_t *t)
{
    if (t == NULL) return;
    free(t->l);
    free(t->bound);
    free(t->path);
    free(t);
}

unsigned tb_trace_lanes(const tb_trace_t *t) { return t->lanes; }

/* ------------------------------------------------------------------------------------------------ */

static const tb_alloc_t *named(const tb_world_t *w, int name) { return name >= 0 ? &w->named[name] : NULL; }

/* A pointer expression's value now; *ok false if it names an allocation never made. */
static uint64_t eval_ptr(const tb_trace_t *tr, const tb_world_t *w, const texpr_t *e, uint32_t line, bool *ok)
{
    unsigned tb = w->tag_bits;
    uint64_t p = e->val;
    if (e->name >= 0) {
        const tb_alloc_t *a = named(w, e->name);
        if (a->ptr == 0u) {
            fprintf(stderr, "%s:%u: '%s' names no allocation yet\n", tr->path, line, w->names[e->name]);
            *ok = false;
            return 0;
        }
        uint64_t va = ga_va_of(a->ptr, tb);
        va = e->neg ? va - e->val : va + e->val;
        p = ga_make_ptr(ga_tag_of(a->ptr, tb), va & ga_va_mask(tb), tb);
    }
    switch (e->tagmode) {
    case 1: p = ga_make_ptr(e->tag & ga_tag_freed(tb), ga_va_of(p, tb), tb); break;
    case 2: p = ga_va_of(p, tb); break;
    case 3: p = ga_make_ptr(ga_tag_freed(tb), ga_va_of(p, tb), tb); break;
    default: break;
    }
    return p;
}

/* A location expression: NAME is the metadata location of NAME's allocation. */
static uint64_t eval_loc(const tb_trace_t *tr, const tb_world_t *w, const texpr_t *e, uint32_t line, bool *ok)
{
    if (e->name < 0) return e->val;
    const tb_alloc_t *a = named(w, e->name);
    if (a->ptr == 0u) {
        fprintf(stderr, "%s:%u: '%s' names no allocation yet\n", tr->path, line, w->names[e->name]);
        *ok = false;
        return 0;
    }
    return e->neg ? a->loc - e->val : a->loc + e->val;
}

bool tb_trace_next(tb_trace_t *tr, tb_world_t *w, tb_item_t *it)
{
    if (tr->next >= tr->n) return false;
    const tline_t *t = &tr->l[tr->next++];
    memset(it, 0, sizeof *it);
    it->name = -1;
    it->file = tr->path;
    it->line = t->line;
    it->req.file = tr->path;
    it->req.line = t->line;
    bool ok = true;
    tb_req_t *r = &it->req;
    uint32_t all = w->lanes >= 32u ? UINT32_MAX : ((UINT32_C(1) << w->lanes) - 1u);
    switch (t->kind) {
    case TL_ALLOC:
        it->kind = TB_IT_ALLOC;
        it->size = t->a;
        it->name = t->md.name;
        return true;
    case TL_FREE:
        it->kind = TB_IT_FREE;
        it->ptr = eval_ptr(tr, w, &t->md, t->line, &ok);
        break;
    case TL_DRAIN: it->kind = TB_IT_DRAIN; return true;
    case TL_IDLE: it->kind = TB_IT_IDLE; it->len = t->a; return true;
    case TL_UNPOISON: it->kind = TB_IT_UNPOISON; return true;
    case TL_WINDOW: it->kind = TB_IT_MAXOUT; it->sub = (unsigned)t->a; return true;
    case TL_POISON:
        it->kind = TB_IT_POISON;
        it->addr = eval_loc(tr, w, &t->md, t->line, &ok);
        it->len = t->a;
        break;
    default:
        it->kind = TB_IT_REQ;
        r->active = t->has_active ? (t->active & all) : (t->np >= 32u ? UINT32_MAX : ((UINT32_C(1) << t->np) - 1u));
        r->size_log2 = t->size_log2;
        for (unsigned l = 0; l < t->np; l++)
            r->addr[l] = t->kind == TL_SHARED ? t->p[l].val : eval_ptr(tr, w, &t->p[l], t->line, &ok);
        switch (t->kind) {
        case TL_LOADMETA: r->op = TB_OP_LOADMETA; break;
        case TL_MEMCHECK:
            r->op = TB_OP_MEMCHECK_G;
            r->md = eval_loc(tr, w, &t->md, t->line, &ok);
            break;
        case TL_ACCESS: r->op = TB_OP_ACCESS; break;
        case TL_SHARED:
            r->op = TB_OP_MEMCHECK_S;
            r->md = (t->b << 32) | t->a;
            break;
        case TL_INVALIDATE:
            r->op = TB_OP_INVALIDATE;
            r->md = eval_loc(tr, w, &t->md, t->line, &ok);
            break;
        case TL_FLUSH: r->op = TB_OP_FLUSH; break;
        case TL_CLEAR: r->op = TB_OP_CLEAR_HALT; r->flags = TB_RF_SEQ; break;
        case TL_CFG:
            r->op = TB_OP_CFG_WRITE;
            r->cfg_addr = (uint8_t)t->a;
            r->md = t->md.loc_rt ? ga_rt_root(w->rt) : t->b;
            r->flags = TB_RF_SEQ;
            break;
        default: break;
        }
        it->exp = t->exp;
        if (t->exp == TB_EXP_RD)
            it->exp_val = t->exp_e.name >= 0 ? eval_loc(tr, w, &t->exp_e, t->line, &ok) : t->exp_e.val;
        else
            it->exp_val = t->exp_e.val;
        break;
    }
    if (!ok) { /* a name used before its alloc line: a trace error found at run time */
        fprintf(stderr, "%s:%u: trace stopped\n", tr->path, t->line);
        exit(2);
    }
    return true;
}
