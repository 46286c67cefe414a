/*
 * ptx_parse.c — recursive-descent parser from PTX text to the IR of ptx_ir.h (ptx_parse,
 * ptx_parse_file). It accepts what `nvcc -O3 -arch=sm_80 -ptx` (with or without -lineinfo) emits
 * and resolves every name as it goes: registers and variables by lexical scope, module symbols by
 * declaration before use (as ptxas requires), labels per function with forward references checked
 * at the closing '}'.
 *
 * Errors. The first error stops the parse: its message says where ("name:line:col:"), what was
 * expected and what was found, it is written to the caller's ptx_err_t, and control returns to
 * ptx_parse through longjmp, which frees everything built so far. The lexer (ptx_lex.c) reports its
 * errors the same way.
 *
 * Bounds (each an error, never a crash): names of at most PTX_MAX_NAME bytes, PTX_MAX_MODS
 * modifiers, PTX_MAX_OPS operands, vectors of at most 8 elements, 64 nested scopes in a body, 4
 * array dimensions, and a register budget of 65536 plus 8 per input byte, so that a short input
 * cannot declare millions of registers (`.reg .b32 %r<99999999>;`) and memory stays proportional to
 * the input. Nothing recurses deeper than the initializer nesting (at most 5 levels).
 */
#include "ptx_lex.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_SCOPE_DEPTH 64
#define MAX_VEC 8
#define MAX_DIMS 4
#define REG_BUDGET_BASE 65536u
#define REG_BUDGET_PER_BYTE 8u
#define VOCAB_SLOTS 1024u /* > 2x the opcodes and the modifiers each, a power of two */

/* A name bound in a scope: registers and variables share one namespace per scope (PTX ISA §5.1:
 * identifiers in a block shadow those of enclosing blocks). */
enum { BIND_REG, BIND_SYM };
typedef struct {
    uint32_t name;  /* string id */
    uint32_t id;    /* register id (of the current function) or symbol id */
    uint32_t depth; /* 0: module, 1: parameters, 2: body, 3..: nested { } */
    uint32_t prev;  /* the binding it shadows: 1 + index, 0 none */
    uint8_t kind;
} binding_t;

/* Expected operand counts and operand rules of the common opcodes (PTX ISA 9.0 chapter 9). */
typedef struct {
    uint8_t known;    /* the entry is filled in */
    uint8_t min, max; /* operand count */
    uint8_t mem;      /* memory operands `[...]` allowed */
    int8_t addr;      /* index of the operand that must be a memory operand, -1 none */
    uint8_t dst;      /* ops[0] must be a register destination (register, pair or vector) */
} opinfo_t;

typedef struct {
    ptx_lexer_t lx;
    jmp_buf jb;
    ptx_module_t *m;
    /* name resolution */
    binding_t *binds;
    uint32_t nbinds, cap_binds;
    uint32_t *head; /* per string id: 1 + index of its innermost binding, 0 none */
    uint32_t cap_head;
    uint32_t depth;
    uint32_t nest;                            /* nested { } inside the current body */
    uint32_t scope_stmt[MAX_SCOPE_DEPTH + 1]; /* statement of each open scope (0: the body) */
    /* labels of the current function: per string id, 1 + label id, 0 none */
    uint32_t *label_of;
    uint32_t cap_label_of;
    /* scratch lists */
    ptx_operand_t *list;
    uint32_t nlist, cap_list;
    uint32_t *ids;
    uint32_t nids, cap_ids;
    char *text; /* canonical text of a prototype directive */
    size_t ntext, cap_text;
    /* vocabulary hashed by spelling (open addressing; 0 is an empty slot) */
    uint16_t opc_hash[VOCAB_SLOTS];
    uint16_t mod_hash[VOCAB_SLOTS];
    uint64_t regs_left;
    uint64_t inits_left; /* initializer elements (padding included) still allowed, same budget */
    uint32_t *file_set;  /* open-addressing set of declared .file numbers (0: empty slot) */
    uint32_t cap_file_set;
    ptx_loc_t cur_loc;
    uint32_t cur_func; /* function being parsed */
    bool ok;
} parser_t;

/* ---------------------------------------------------------------------------------------------------
 * Errors and tokens.
 */

__attribute__((format(printf, 3, 4))) static _Noreturn void fail(parser_t *p, ptx_pos_t pos, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    ptx_lex_vfail(&p->lx, pos, fmt, ap);
}

static const ptx_tok_t *peek(parser_t *p, unsigned k) { return ptx_lex_peek(&p->lx, k); }
static ptx_tok_t next(parser_t *p) { return ptx_lex_next(&p->lx); }
static const char *tok_text(const parser_t *p, const ptx_tok_t *t) { return p->lx.src + t->off; }

/* "expected WHAT, got 'token'" at the token. */
static _Noreturn void fail_expected(parser_t *p, const ptx_tok_t *t, const char *what)
{
    char d[200];
    ptx_lex_describe(&p->lx, t, d, sizeof d);
    fail(p, t->pos, "expected %s, got %s", what, d);
}

static bool tok_is_word(const parser_t *p, const ptx_tok_t *t, ptx_tkind_t kind, const char *s)
{
    size_t n = strlen(s);
    return t->kind == kind && t->len == n && memcmp(tok_text(p, t), s, n) == 0;
}
static bool is_dir(const parser_t *p, const ptx_tok_t *t, const char *s) { return tok_is_word(p, t, PTX_TK_DIR, s); }
static bool is_ident(const parser_t *p, const ptx_tok_t *t, const char *s) { return tok_is_word(p, t, PTX_TK_IDENT, s); }

static ptx_tok_t expect_punct(parser_t *p, char c, const char *what)
{
    const ptx_tok_t *t = peek(p, 0);
    if (!ptx_tok_is(t, c)) fail_expected(p, t, what);
    return next(p);
}

static bool accept_punct(parser_t *p, char c)
{
    if (ptx_tok_is(peek(p, 0), c)) {
        next(p);
        return true;
    }
    return false;
}

static ptx_tok_t expect_kind(parser_t *p, ptx_tkind_t k, const char *what)
{
    const ptx_tok_t *t = peek(p, 0);
    if (t->kind != k) fail_expected(p, t, what);
    return next(p);
}

/* An unsigned integer that fits in 32 bits (counts, sizes, line numbers). */
static uint32_t expect_u32(parser_t *p, const char *what)
{
    ptx_tok_t t = expect_kind(p, PTX_TK_INT, what);
    if (t.ival > UINT32_MAX) fail(p, t.pos, "%s: %llu does not fit in 32 bits", what, (unsigned long long)t.ival);
    return (uint32_t)t.ival;
}

static void oom(parser_t *p) { fail(p, peek(p, 0)->pos, "out of memory"); }

/* Make room for one more element in a scratch array. */
static void pgrow(parser_t *p, void **arr, uint32_t n, uint32_t *cap, size_t elem)
{
    if (n < *cap) return;
    if (*cap >= UINT32_MAX / 2) oom(p);
    uint32_t nc = *cap ? *cap * 2 : 16;
    void *q = realloc(*arr, (size_t)nc * elem);
    if (q == NULL) oom(p);
    *arr = q;
    *cap = nc;
}

static uint32_t intern(parser_t *p, const char *s, size_t n)
{
    uint32_t id = ptx_intern(p->m, s, n);
    if (id == UINT32_MAX) oom(p);
    return id;
}

static uint32_t intern_tok(parser_t *p, const ptx_tok_t *t) { return intern(p, tok_text(p, t), t->len); }

static int64_t u2i(uint64_t v)
{
    int64_t r;
    memcpy(&r, &v, sizeof r);
    return r;
}

/* ---------------------------------------------------------------------------------------------------
 * Vocabulary lookup.
 */

/* Compare a NUL-terminated name with s[0..n): 0 when equal. */
static int cmp_text(const char *name, const char *s, size_t n)
{
    int c = strncmp(name, s, n);
    if (c != 0) return c;
    return name[n] != '\0';
}

static uint32_t vocab_hash(const char *s, size_t n)
{
    uint32_t h = 2166136261u; /* FNV-1a, as in ptx_ir.c */
    for (size_t i = 0; i < n; i++) h = (h ^ (uint8_t)s[i]) * 16777619u;
    return h & (VOCAB_SLOTS - 1);
}

static void vocab_insert(uint16_t *table, uint16_t id, const char *name)
{
    uint32_t k = vocab_hash(name, strlen(name));
    while (table[k] != 0) k = (k + 1) & (VOCAB_SLOTS - 1);
    table[k] = id;
}

/* Hash tables of the opcode and modifier spellings (built per parse: no global state). */
static void build_vocab(parser_t *p)
{
    _Static_assert(PTX_OPC_COUNT * 2 < VOCAB_SLOTS && PTX_MOD_COUNT * 2 < VOCAB_SLOTS, "VOCAB_SLOTS too small");
    for (unsigned i = 1; i < PTX_OPC_COUNT; i++) vocab_insert(p->opc_hash, (uint16_t)i, ptx_opcode_name((ptx_opcode_t)i));
    for (unsigned i = 1; i < PTX_MOD_COUNT; i++) vocab_insert(p->mod_hash, (uint16_t)i, ptx_mod_name((ptx_mod_t)i));
}

static ptx_opcode_t find_opcode(const parser_t *p, const char *s, size_t n)
{
    for (uint32_t k = vocab_hash(s, n); p->opc_hash[k] != 0; k = (k + 1) & (VOCAB_SLOTS - 1))
        if (cmp_text(ptx_opcode_name((ptx_opcode_t)p->opc_hash[k]), s, n) == 0) return (ptx_opcode_t)p->opc_hash[k];
    return PTX_OPC_NONE;
}

/* A modifier by its spelling without the dot. */
static ptx_mod_t find_mod(const parser_t *p, const char *s, size_t n)
{
    for (uint32_t k = vocab_hash(s, n); p->mod_hash[k] != 0; k = (k + 1) & (VOCAB_SLOTS - 1))
        if (cmp_text(ptx_mod_name((ptx_mod_t)p->mod_hash[k]), s, n) == 0) return (ptx_mod_t)p->mod_hash[k];
    return PTX_MOD_NONE;
}

/* The modifier of a directive token (`.u32`), PTX_MOD_NONE if it is not one. */
static ptx_mod_t tok_mod(const parser_t *p, const ptx_tok_t *t)
{
    if (t->kind != PTX_TK_DIR) return PTX_MOD_NONE;
    return find_mod(p, tok_text(p, t) + 1, t->len - 1);
}

static ptx_type_t tok_type(const parser_t *p, const ptx_tok_t *t) { return ptx_mod_type(tok_mod(p, t)); }

/* A special register by name: sets *comp for %envregN / %pmN / %pmN_64. PTX_SREG_NONE otherwise. */
static ptx_sreg_t find_sreg(const char *s, size_t n, unsigned *index)
{
    *index = 0;
    if (n < 2 || s[0] != '%') return PTX_SREG_NONE;
    for (unsigned r = 1; r < PTX_SREG_COUNT; r++) {
        const char *name = ptx_sreg_name((ptx_sreg_t)r);
        if (r == PTX_SREG_ENVREG || r == PTX_SREG_PM || r == PTX_SREG_PM64) continue;
        if (cmp_text(name, s, n) == 0) return (ptx_sreg_t)r;
    }
    /* %envreg0..31, %pm0..7, %pm0_64..%pm7_64 (PTX ISA §10.29, §10.31) */
    if (n > 7 && memcmp(s, "%envreg", 7) == 0) {
        unsigned v = 0;
        size_t i = 7;
        for (; i < n && s[i] >= '0' && s[i] <= '9' && v < 100; i++) v = v * 10 + (unsigned)(s[i] - '0');
        if (i == n && v < 32 && !(n > 8 && s[7] == '0')) {
            *index = v;
            return PTX_SREG_ENVREG;
        }
    }
    if (n >= 4 && memcmp(s, "%pm", 3) == 0 && s[3] >= '0' && s[3] <= '7') {
        *index = (unsigned)(s[3] - '0');
        if (n == 4) return PTX_SREG_PM;
        if (n == 7 && memcmp(s + 4, "_64", 3) == 0) return PTX_SREG_PM64;
    }
    return PTX_SREG_NONE;
}

/* Whether name is the prefix s[0..n) followed by one or more decimal digits. */
static bool prefix_then_digits(const char *name, const char *s, size_t n)
{
    if (strncmp(name, s, n) != 0 || name[n] == '\0') return false;
    for (const char *c = name + n; *c; c++)
        if (*c < '0' || *c > '9') return false;
    return true;
}

/* Whether a register family `s<N>` (names s0, s1, ...) could spell a special register: some
 * special register's spelling is s[0..n) followed by digits (%clock64, %envreg0..31, %pm0..7,
 * %pm0_64..%pm7_64). Only then are the family's names checked one by one. */
static bool family_may_be_sreg(const char *s, size_t n)
{
    for (unsigned r = 1; r < PTX_SREG_COUNT; r++)
        if (prefix_then_digits(ptx_sreg_name((ptx_sreg_t)r), s, n)) return true;
    /* the indexed ones: %envreg + digits, %pm + digits, %pm<d>_ + "64" */
    size_t d = n;
    while (d > 0 && s[d - 1] >= '0' && s[d - 1] <= '9') d--;
    if ((d == 7 && memcmp(s, "%envreg", 7) == 0) || (d == 3 && memcmp(s, "%pm", 3) == 0)) return true;
    if (n >= 5 && memcmp(s, "%pm", 3) == 0 && s[3] >= '0' && s[3] <= '7' && s[4] == '_' &&
        (n == 5 || (n == 6 && s[5] == '6')))
        return true;
    return false;
}

/* Decimal digits of v into buf (no NUL); returns their count (at most 20). */
static size_t put_decimal(char *buf, uint64_t v)
{
    char tmp[20];
    size_t k = 0;
    do {
        tmp[k++] = (char)('0' + v % 10);
        v /= 10;
    } while (v != 0);
    for (size_t i = 0; i < k; i++) buf[i] = tmp[k - 1 - i];
    return k;
}

/* ---------------------------------------------------------------------------------------------------
 * Scopes.
 */

static void ensure_head(parser_t *p)
{
    uint32_t need = p->m->nstrs;
    if (need <= p->cap_head) return;
    uint32_t nc = p->cap_head ? p->cap_head : 1024;
    while (nc < need) {
        if (nc >= UINT32_MAX / 2) oom(p);
        nc *= 2;
    }
    uint32_t *h = realloc(p->head, (size_t)nc * sizeof *h);
    if (h == NULL) oom(p);
    memset(h + p->cap_head, 0, (size_t)(nc - p->cap_head) * sizeof *h);
    p->head = h;
    p->cap_head = nc;
}

static const binding_t *lookup(const parser_t *p, uint32_t name)
{
    if (name >= p->cap_head || p->head[name] == 0) return NULL;
    return &p->binds[p->head[name] - 1];
}

/* Bind name in the current scope; an error when the scope already binds it. what: "register",
 * "variable", ... for the message. */
static void bind(parser_t *p, uint32_t name, uint8_t kind, uint32_t id, ptx_pos_t pos, const char *what)
{
    ensure_head(p);
    const binding_t *old = lookup(p, name);
    if (old != NULL && old->depth == p->depth) {
        ptx_pos_t at = old->kind == BIND_REG ? p->m->funcs[p->cur_func].regs[old->id].pos : p->m->syms[old->id].pos;
        fail(p, pos, "%s '%s' is already declared in this scope (at %u:%u)", what, ptx_str(p->m, name), at.line,
             at.col);
    }
    pgrow(p, (void **)&p->binds, p->nbinds, &p->cap_binds, sizeof *p->binds);
    binding_t *b = &p->binds[p->nbinds];
    b->name = name;
    b->kind = kind;
    b->id = id;
    b->depth = p->depth;
    b->prev = p->head[name];
    p->head[name] = ++p->nbinds;
}

static void push_scope(parser_t *p) { p->depth++; }

static void pop_scope(parser_t *p)
{
    while (p->nbinds > 0 && p->binds[p->nbinds - 1].depth == p->depth) {
        binding_t *b = &p->binds[--p->nbinds];
        p->head[b->name] = b->prev;
    }
    p->depth--;
}

/* ---------------------------------------------------------------------------------------------------
 * Labels of the current function.
 */

static uint32_t label_ref(parser_t *p, ptx_func_t *f, uint32_t name, ptx_pos_t pos)
{
    if (name >= p->cap_label_of) {
        uint32_t nc = p->cap_label_of ? p->cap_label_of : 1024;
        while (nc <= name) {
            if (nc >= UINT32_MAX / 2) oom(p);
            nc *= 2;
        }
        uint32_t *q = realloc(p->label_of, (size_t)nc * sizeof *q);
        if (q == NULL) oom(p);
        memset(q + p->cap_label_of, 0, (size_t)(nc - p->cap_label_of) * sizeof *q);
        p->label_of = q;
        p->cap_label_of = nc;
    }
    if (p->label_of[name]) return p->label_of[name] - 1;
    uint32_t id = ptx_func_add_label(f, name);
    if (id == UINT32_MAX) oom(p);
    f->labels[id].pos = pos;
    p->label_of[name] = id + 1;
    return id;
}

/* ---------------------------------------------------------------------------------------------------
 * Module header: .version, .target, .address_size, .file, .section.
 */

static void add_item(parser_t *p, uint8_t kind, uint32_t index, uint64_t a, uint64_t b, ptx_pos_t pos)
{
    ptx_item_t it;
    memset(&it, 0, sizeof it);
    it.kind = kind;
    it.index = index;
    it.a = a;
    it.b = b;
    it.pos = pos;
    if (ptx_module_add_item(p->m, &it) == UINT32_MAX) oom(p);
}

static void parse_header(parser_t *p)
{
    ptx_module_t *m = p->m;
    ptx_tok_t t = next(p);
    if (!is_dir(p, &t, ".version")) fail_expected(p, &t, "'.version' at the start of the module");
    ptx_tok_t v = next(p);
    /* `9.0` lexes as a decimal float: split its text at the dot. */
    const char *s = tok_text(p, &v);
    uint64_t maj = 0, min = 0;
    size_t i = 0;
    bool ok = v.kind == PTX_TK_FLOAT && v.decimal;
    while (ok && i < v.len && s[i] >= '0' && s[i] <= '9' && maj <= UINT32_MAX) maj = maj * 10 + (uint64_t)(s[i++] - '0');
    ok = ok && i > 0 && i < v.len && s[i] == '.';
    size_t j = ++i;
    while (ok && i < v.len && s[i] >= '0' && s[i] <= '9' && min <= UINT32_MAX) min = min * 10 + (uint64_t)(s[i++] - '0');
    if (!ok || i != v.len || i == j || maj > UINT32_MAX || min > UINT32_MAX)
        fail_expected(p, &v, "a PTX version 'major.minor' after '.version'");
    m->version_major = (uint32_t)maj;
    m->version_minor = (uint32_t)min;
    add_item(p, PTX_ITEM_VERSION, 0, maj, min, t.pos);

    t = next(p);
    if (!is_dir(p, &t, ".target")) fail_expected(p, &t, "'.target' after '.version'");
    ptx_pos_t tpos = t.pos;
    p->ntext = 0;
    for (;;) {
        ptx_tok_t n = expect_kind(p, PTX_TK_IDENT, "a target name (sm_80, ...)");
        if (p->ntext == 0) m->target = intern_tok(p, &n);
        size_t need = p->ntext + n.len + 3;
        if (need > p->cap_text) {
            size_t nc = p->cap_text ? p->cap_text * 2 : 256;
            while (nc < need) nc *= 2;
            char *q = realloc(p->text, nc);
            if (q == NULL) oom(p);
            p->text = q;
            p->cap_text = nc;
        }
        if (p->ntext) {
            memcpy(p->text + p->ntext, ", ", 2);
            p->ntext += 2;
        }
        memcpy(p->text + p->ntext, tok_text(p, &n), n.len);
        p->ntext += n.len;
        if (!accept_punct(p, ',')) break;
    }
    add_item(p, PTX_ITEM_TARGET, intern(p, p->text, p->ntext), 0, 0, tpos);

    t = next(p);
    if (!is_dir(p, &t, ".address_size"))
        fail_expected(p, &t, "'.address_size 64' after '.target' (PTX defaults to 32-bit addresses, which are not supported)");
    ptx_tok_t a = expect_kind(p, PTX_TK_INT, "an address size (64)");
    if (a.ival == 32) fail(p, a.pos, "'.address_size 32' is not supported: only 64-bit addressing is (docs/compiler.md §1)");
    if (a.ival != 64) fail(p, a.pos, "expected an address size of 64, got %llu", (unsigned long long)a.ival);
    m->address_size = 64;
    add_item(p, PTX_ITEM_ADDRESS_SIZE, 0, 64, 0, t.pos);
}

/* Add a .file number to the set; false when it is already there. Keeps duplicate detection linear
 * in the number of .file directives. */
static bool file_set_add(parser_t *p, uint32_t v)
{
    if ((uint64_t)(p->m->nfiles + 1) * 2 > p->cap_file_set) {
        uint32_t nc = p->cap_file_set ? p->cap_file_set * 2 : 64;
        uint32_t *q = calloc(nc, sizeof *q);
        if (q == NULL) oom(p);
        for (uint32_t i = 0; i < p->cap_file_set; i++) {
            uint32_t x = p->file_set[i];
            if (x == 0) continue;
            uint32_t k = (x * 2654435761u) & (nc - 1); /* Knuth's multiplicative hash */
            while (q[k] != 0) k = (k + 1) & (nc - 1);
            q[k] = x;
        }
        free(p->file_set);
        p->file_set = q;
        p->cap_file_set = nc;
    }
    uint32_t k = (v * 2654435761u) & (p->cap_file_set - 1);
    while (p->file_set[k] != 0) {
        if (p->file_set[k] == v) return false;
        k = (k + 1) & (p->cap_file_set - 1);
    }
    p->file_set[k] = v;
    return true;
}

static void parse_file_dir(parser_t *p, ptx_pos_t pos)
{
    ptx_module_t *m = p->m;
    ptx_tok_t nt = expect_kind(p, PTX_TK_INT, "a file number after '.file'");
    if (nt.ival == 0 || nt.ival > UINT32_MAX) fail(p, nt.pos, "expected a file number from 1 to 4294967295");
    if (!file_set_add(p, (uint32_t)nt.ival))
        fail(p, nt.pos, "file number %llu is already declared", (unsigned long long)nt.ival);
    ptx_tok_t s = expect_kind(p, PTX_TK_STRING, "a quoted file name");
    ptx_file_t f;
    memset(&f, 0, sizeof f);
    f.index = (uint32_t)nt.ival;
    f.name = intern(p, tok_text(p, &s) + 1, s.len - 2);
    if (accept_punct(p, ',')) {
        f.timestamp = expect_kind(p, PTX_TK_INT, "a timestamp").ival;
        expect_punct(p, ',', "',' and a file size after the timestamp");
        f.size = expect_kind(p, PTX_TK_INT, "a file size").ival;
        f.has_extra = true;
    }
    if (m->nfiles == m->cap_files) pgrow(p, (void **)&m->files, m->nfiles, &m->cap_files, sizeof *m->files);
    m->files[m->nfiles] = f;
    add_item(p, PTX_ITEM_FILE, m->nfiles++, 0, 0, pos);
}

static void parse_section(parser_t *p, const ptx_tok_t *kw)
{
    ptx_tok_t name = next(p);
    if (name.kind != PTX_TK_DIR && name.kind != PTX_TK_IDENT) fail_expected(p, &name, "a section name (.debug_str, ...)");
    ptx_tok_t open = expect_punct(p, '{', "'{' after the section name");
    size_t end = ptx_lex_raw_block(&p->lx, open.pos);
    add_item(p, PTX_ITEM_SECTION, intern(p, p->lx.src + kw->off, end - kw->off), 0, 0, kw->pos);
}

/* ---------------------------------------------------------------------------------------------------
 * Variables (module scope, function scope, parameters) and initializers.
 */

static void add_init(parser_t *p, const ptx_init_t *e)
{
    ptx_module_t *m = p->m;
    if (p->inits_left == 0)
        fail(p, peek(p, 0)->pos, "initializer too large for the size of this input (budget of 65536 + 8 per input byte)");
    p->inits_left--;
    pgrow(p, (void **)&m->inits, m->ninits, &m->cap_inits, sizeof *m->inits);
    m->inits[m->ninits++] = *e;
}

/* One scalar initializer: an integer, a float, `sym[+off]` or `generic(sym)[+off]`. */
static void parse_init_elem(parser_t *p)
{
    ptx_init_t e;
    memset(&e, 0, sizeof e);
    const ptx_tok_t *t = peek(p, 0);
    bool neg = false;
    if (ptx_tok_is(t, '-')) {
        next(p);
        neg = true;
        t = peek(p, 0);
        if (t->kind != PTX_TK_INT && t->kind != PTX_TK_FLOAT) fail_expected(p, t, "a number after '-'");
    }
    if (t->kind == PTX_TK_INT) {
        e.kind = PTX_INIT_INT;
        e.ival = u2i(neg ? (uint64_t)0 - t->ival : t->ival);
        next(p);
    } else if (t->kind == PTX_TK_FLOAT) {
        e.kind = PTX_INIT_FLOAT;
        e.fwidth = t->fwidth;
        e.fbits = t->ival;
        if (neg) e.fbits ^= (t->fwidth == 32) ? 0x80000000ull : 0x8000000000000000ull;
        next(p);
    } else if (t->kind == PTX_TK_IDENT) {
        ptx_tok_t n = next(p);
        bool generic = false;
        if (is_ident(p, &n, "generic") && ptx_tok_is(peek(p, 0), '(')) {
            next(p);
            n = expect_kind(p, PTX_TK_IDENT, "a variable name inside generic( )");
            expect_punct(p, ')', "')' after the name in generic( )");
            generic = true;
        }
        const binding_t *b = lookup(p, intern_tok(p, &n));
        if (b == NULL || b->kind != BIND_SYM || p->m->syms[b->id].func >= 0) {
            char d[200];
            ptx_lex_describe(&p->lx, &n, d, sizeof d);
            fail(p, n.pos, "unknown symbol %s in an initializer (symbols must be declared before use)", d);
        }
        e.kind = generic ? PTX_INIT_GENERIC : PTX_INIT_SYM;
        e.sym = b->id;
        if (ptx_tok_is(peek(p, 0), '+') || ptx_tok_is(peek(p, 0), '-')) {
            bool minus = next(p).punct == '-';
            if (accept_punct(p, '-')) minus = !minus;
            ptx_tok_t o = expect_kind(p, PTX_TK_INT, "an offset after the symbol");
            e.ival = u2i(minus ? (uint64_t)0 - o.ival : o.ival);
        }
    } else {
        fail_expected(p, t, "an initializer value");
    }
    add_init(p, &e);
}

/* A brace group at level lvl of the effective dimensions dims[0..nd): returns the number of
 * elements it added. Inner groups are padded with zeros to their full size, so a multi-dimensional
 * initializer is stored as complete rows (a printed module then reads back identically). */
static uint64_t parse_init_group(parser_t *p, const uint64_t *dims, unsigned nd, unsigned lvl, ptx_init_t zero)
{
    ptx_tok_t open = expect_punct(p, '{', "'{' to start an initializer list");
    uint64_t count = 0, added = 0;
    uint64_t inner = 1;
    for (unsigned i = lvl + 1; i < nd; i++) inner *= dims[i];
    if (!ptx_tok_is(peek(p, 0), '}')) {
        for (;;) {
            if (lvl + 1 < nd) added += parse_init_group(p, dims, nd, lvl + 1, zero);
            else {
                parse_init_elem(p);
                added++;
            }
            count++;
            if (dims[lvl] != 0 && count > dims[lvl])
                fail(p, open.pos, "too many initializers: this list holds at most %llu elements",
                     (unsigned long long)dims[lvl]);
            if (!accept_punct(p, ',')) break;
        }
    }
    expect_punct(p, '}', "',' or '}' in an initializer list");
    if (lvl > 0) {
        for (; count < dims[lvl]; count++)
            for (uint64_t k = 0; k < inner; k++) {
                add_init(p, &zero);
                added++;
            }
    }
    return added;
}

typedef struct {
    ptx_space_t space;
    uint8_t link;
    int32_t func;       /* -1: module scope */
    bool is_param;      /* a parameter of an .entry / .func */
    bool entry_param;   /* may carry .ptr */
    bool nobind;        /* return parameters: bound later, after the function name */
} varctx_t;

/* Attributes before the type: `.align N`, `.v2/.v4/.v8`; then the type. */
static void parse_var_type(parser_t *p, ptx_sym_t *s)
{
    for (;;) {
        const ptx_tok_t *t = peek(p, 0);
        if (is_dir(p, t, ".align")) {
            next(p);
            ptx_tok_t a = expect_kind(p, PTX_TK_INT, "an alignment after '.align'");
            if (a.ival == 0 || a.ival > (1u << 30) || (a.ival & (a.ival - 1)) != 0)
                fail(p, a.pos, "expected a power-of-two alignment, got %llu", (unsigned long long)a.ival);
            s->align = (uint32_t)a.ival;
            continue;
        }
        ptx_mod_t mod = tok_mod(p, t);
        if (mod == PTX_MOD_V2 || mod == PTX_MOD_V4 || mod == PTX_MOD_V8) {
            next(p);
            s->vec = mod == PTX_MOD_V2 ? 2 : mod == PTX_MOD_V4 ? 4 : 8;
            continue;
        }
        break;
    }
    ptx_tok_t t = next(p);
    ptx_type_t ty = tok_type(p, &t);
    if (ty == PTX_T_NONE) fail_expected(p, &t, "a type (.u32, .b8, .f64, ...)");
    if (ptx_type_bytes(ty) == 0) {
        char d[200];
        ptx_lex_describe(&p->lx, &t, d, sizeof d);
        fail(p, t.pos, "type %s cannot be used for a variable (it has no byte size)", d);
    }
    s->type = (uint8_t)ty;
}

/* `.ptr [.space] [.align N]` after a kernel parameter's type (PTX ISA §5.1.6.4 "Kernel Parameter
 * Attribute: .ptr"). */
static void parse_ptr_attr(parser_t *p, ptx_sym_t *s, bool allowed)
{
    ptx_tok_t t = next(p);
    if (!allowed) fail(p, t.pos, "the '.ptr' attribute is only allowed on .entry parameters");
    s->has_ptr = 1;
    ptx_space_t sp = ptx_mod_space(tok_mod(p, peek(p, 0)));
    if (sp == PTX_SPACE_GLOBAL || sp == PTX_SPACE_SHARED || sp == PTX_SPACE_CONST || sp == PTX_SPACE_LOCAL) {
        next(p);
        s->ptr_space = (uint8_t)sp;
    }
    if (is_dir(p, peek(p, 0), ".align")) {
        next(p);
        ptx_tok_t a = expect_kind(p, PTX_TK_INT, "an alignment after '.align'");
        if (a.ival == 0 || a.ival > (1u << 30) || (a.ival & (a.ival - 1)) != 0)
            fail(p, a.pos, "expected a power-of-two alignment, got %llu", (unsigned long long)a.ival);
        s->ptr_align = (uint32_t)a.ival;
    }
}

/* One declarator: name, dimensions, initializer. Returns the new symbol id (bound in the current
 * scope). base holds the attributes and type shared by the declarators of one declaration. */
static uint32_t parse_declarator(parser_t *p, const varctx_t *vc, const ptx_sym_t *base)
{
    ptx_sym_t s = *base;
    ptx_tok_t n = next(p);
    if (n.kind != PTX_TK_IDENT) fail_expected(p, &n, "a variable name");
    s.name = intern_tok(p, &n);
    s.pos = n.pos;
    while (ptx_tok_is(peek(p, 0), '[')) {
        ptx_tok_t open = next(p);
        if (s.ndims == MAX_DIMS) fail(p, open.pos, "an array has at most %d dimensions", MAX_DIMS);
        if (ptx_tok_is(peek(p, 0), ']')) {
            if (s.ndims != 0) fail(p, open.pos, "only the first dimension of an array may be left empty ('[]')");
            s.unsized = 1;
            s.dims[s.ndims++] = 0;
        } else {
            ptx_tok_t d = expect_kind(p, PTX_TK_INT, "an array size or ']'");
            if (d.ival == 0) fail(p, d.pos, "an array dimension must be at least 1");
            s.dims[s.ndims++] = d.ival;
        }
        expect_punct(p, ']', "']' after the array size");
    }
    /* size = element bytes x vector x product of the dimensions, without overflow */
    uint64_t size = (uint64_t)ptx_type_bytes((ptx_type_t)s.type) * s.vec;
    for (unsigned i = 0; i < s.ndims; i++) {
        uint64_t d = s.dims[i];
        if (d == 0) continue;
        if (size > ((uint64_t)1 << 48) / d) fail(p, n.pos, "array '%s' is too large", ptx_str(p->m, s.name));
        size *= d;
    }
    s.size = s.unsized ? 0 : size;
    if (accept_punct(p, '=')) {
        ptx_pos_t at = peek(p, 0)->pos;
        if (vc->is_param || (vc->space != PTX_SPACE_GLOBAL && vc->space != PTX_SPACE_CONST))
            fail(p, at, "only .global and .const variables can have an initializer");
        if (s.link == PTX_LINK_EXTERN) fail(p, at, "an .extern variable cannot have an initializer");
        /* effective dimensions: the array's, then the vector width */
        uint64_t dims[MAX_DIMS + 1];
        unsigned nd = 0;
        for (unsigned i = 0; i < s.ndims; i++) dims[nd++] = s.dims[i];
        if (s.vec > 1) dims[nd++] = s.vec;
        ptx_init_t zero;
        memset(&zero, 0, sizeof zero);
        if (ptx_type_is_float((ptx_type_t)s.type) && (s.type == PTX_T_F32 || s.type == PTX_T_F64)) {
            zero.kind = PTX_INIT_FLOAT;
            zero.fwidth = s.type == PTX_T_F32 ? 32 : 64;
        }
        s.first_init = p->m->ninits;
        if (nd == 0) {
            parse_init_elem(p);
            s.ninit = 1;
        } else {
            uint64_t k = parse_init_group(p, dims, nd, 0, zero);
            if (k > UINT32_MAX) fail(p, at, "initializer too large");
            s.ninit = (uint32_t)k;
            if (s.unsized) {
                uint64_t row = (uint64_t)ptx_type_bytes((ptx_type_t)s.type) * s.vec;
                for (unsigned i = 1; i < s.ndims; i++) row *= s.dims[i];
                uint64_t per = 1;
                for (unsigned i = 1; i < nd; i++) per *= dims[i];
                s.size = (k + per - 1) / per * row;
            }
        }
    }
    uint32_t id = ptx_module_add_sym(p->m, &s);
    if (id == UINT32_MAX) oom(p);
    if (!vc->nobind) bind(p, s.name, BIND_SYM, id, n.pos, vc->is_param ? "parameter" : "variable");
    return id;
}

/* A parameter: `.param [.align N] .type [.ptr ...] name[N]`. */
static uint32_t parse_param(parser_t *p, uint32_t fi, bool entry, bool bind_it)
{
    ptx_tok_t t = next(p);
    if (!is_dir(p, &t, ".param")) {
        if (is_dir(p, &t, ".reg")) fail(p, t.pos, "'.reg' parameters are not supported: expected '.param'");
        fail_expected(p, &t, "'.param'");
    }
    ptx_sym_t s;
    memset(&s, 0, sizeof s);
    s.kind = PTX_SYM_PARAM;
    s.space = PTX_SPACE_PARAM;
    s.vec = 1;
    s.func = (int32_t)fi;
    parse_var_type(p, &s);
    if (is_dir(p, peek(p, 0), ".ptr")) parse_ptr_attr(p, &s, entry);
    varctx_t vc = {PTX_SPACE_PARAM, PTX_LINK_NONE, (int32_t)fi, true, entry, !bind_it};
    return parse_declarator(p, &vc, &s);
}

/* A variable declaration after its space directive, at module or function scope. */
static void parse_var_decl(parser_t *p, const varctx_t *vc, ptx_pos_t pos, ptx_func_t *f)
{
    ptx_sym_t s;
    memset(&s, 0, sizeof s);
    s.kind = PTX_SYM_VAR;
    s.space = (uint8_t)vc->space;
    s.link = vc->link;
    s.vec = 1;
    s.func = vc->func;
    parse_var_type(p, &s);
    for (;;) {
        uint32_t id = parse_declarator(p, vc, &s);
        if (f == NULL) {
            add_item(p, PTX_ITEM_VAR, id, 0, 0, pos);
        } else {
            ptx_stmt_t st;
            memset(&st, 0, sizeof st);
            st.kind = PTX_ST_VARDECL;
            st.index = id;
            st.pos = pos;
            if (ptx_func_add_stmt(f, &st) == UINT32_MAX) oom(p);
        }
        if (!accept_punct(p, ',')) break;
    }
    expect_punct(p, ';', "';' after the variable declaration");
}

/* ---------------------------------------------------------------------------------------------------
 * Instructions.
 */

/* Operand rules of the common opcodes: {min, max, memory operands allowed, required address operand
 * index, ops[0] is a register destination}. Unlisted opcodes are checked only against the limits. */
#define OI(mn, mx, mem, addr, dst) {1, mn, mx, mem, addr, dst}
static const opinfo_t opinfo[PTX_OPC_COUNT] = {
    [PTX_OPC_ABS] = OI(2, 2, 0, -1, 1),     [PTX_OPC_ACTIVEMASK] = OI(1, 1, 0, -1, 1),
    [PTX_OPC_ADD] = OI(3, 3, 0, -1, 1),     [PTX_OPC_ADDC] = OI(3, 3, 0, -1, 1),
    [PTX_OPC_AND] = OI(3, 3, 0, -1, 1),     [PTX_OPC_ATOM] = OI(3, 5, 1, 1, 1),
    [PTX_OPC_BAR] = OI(1, 4, 0, -1, 0),     [PTX_OPC_BARRIER] = OI(0, 4, 0, -1, 0),
    [PTX_OPC_BFE] = OI(4, 4, 0, -1, 1),     [PTX_OPC_BFI] = OI(5, 5, 0, -1, 1),
    [PTX_OPC_BFIND] = OI(2, 2, 0, -1, 1),   [PTX_OPC_BMSK] = OI(3, 3, 0, -1, 1),
    [PTX_OPC_BRA] = OI(1, 1, 0, -1, 0),     [PTX_OPC_BREV] = OI(2, 2, 0, -1, 1),
    [PTX_OPC_BRKPT] = OI(0, 0, 0, -1, 0),   [PTX_OPC_BRX] = OI(2, 2, 0, -1, 0),
    [PTX_OPC_CLZ] = OI(2, 2, 0, -1, 1),     [PTX_OPC_CNOT] = OI(2, 2, 0, -1, 1),
    [PTX_OPC_COPYSIGN] = OI(3, 3, 0, -1, 1),[PTX_OPC_COS] = OI(2, 2, 0, -1, 1),
    [PTX_OPC_CP] = OI(0, 6, 1, -1, 0),      [PTX_OPC_CVT] = OI(2, 3, 0, -1, 1),
    [PTX_OPC_CVTA] = OI(2, 2, 0, -1, 1),    [PTX_OPC_DISCARD] = OI(2, 2, 1, 0, 0),
    [PTX_OPC_DIV] = OI(3, 3, 0, -1, 1),     [PTX_OPC_DP2A] = OI(4, 4, 0, -1, 1),
    [PTX_OPC_DP4A] = OI(4, 4, 0, -1, 1),    [PTX_OPC_EX2] = OI(2, 2, 0, -1, 1),
    [PTX_OPC_EXIT] = OI(0, 0, 0, -1, 0),    [PTX_OPC_FENCE] = OI(0, 2, 1, -1, 0),
    [PTX_OPC_FMA] = OI(4, 4, 0, -1, 1),     [PTX_OPC_FNS] = OI(4, 4, 0, -1, 1),
    [PTX_OPC_ISSPACEP] = OI(2, 2, 0, -1, 1),[PTX_OPC_LD] = OI(2, 3, 1, 1, 1),
    [PTX_OPC_LDU] = OI(2, 2, 1, 1, 1),      [PTX_OPC_LG2] = OI(2, 2, 0, -1, 1),
    [PTX_OPC_LOP3] = OI(5, 5, 0, -1, 1),    [PTX_OPC_MAD] = OI(4, 4, 0, -1, 1),
    [PTX_OPC_MAD24] = OI(4, 4, 0, -1, 1),   [PTX_OPC_MADC] = OI(4, 4, 0, -1, 1),
    [PTX_OPC_MATCH] = OI(3, 4, 0, -1, 1),   [PTX_OPC_MAX] = OI(3, 4, 0, -1, 1),
    [PTX_OPC_MBARRIER] = OI(1, 4, 1, -1, 0),[PTX_OPC_MEMBAR] = OI(0, 0, 0, -1, 0),
    [PTX_OPC_MIN] = OI(3, 4, 0, -1, 1),     [PTX_OPC_MOV] = OI(2, 2, 0, -1, 1),
    [PTX_OPC_MUL] = OI(3, 3, 0, -1, 1),     [PTX_OPC_MUL24] = OI(3, 3, 0, -1, 1),
    [PTX_OPC_NANOSLEEP] = OI(1, 1, 0, -1, 0), [PTX_OPC_NEG] = OI(2, 2, 0, -1, 1),
    [PTX_OPC_NOT] = OI(2, 2, 0, -1, 1),     [PTX_OPC_OR] = OI(3, 3, 0, -1, 1),
    [PTX_OPC_POPC] = OI(2, 2, 0, -1, 1),    [PTX_OPC_PREFETCH] = OI(1, 1, 1, 0, 0),
    [PTX_OPC_PREFETCHU] = OI(1, 1, 1, 0, 0),[PTX_OPC_PRMT] = OI(4, 4, 0, -1, 1),
    [PTX_OPC_RCP] = OI(2, 2, 0, -1, 1),     [PTX_OPC_RED] = OI(2, 3, 1, 0, 0),
    [PTX_OPC_REDUX] = OI(3, 3, 0, -1, 1),   [PTX_OPC_REM] = OI(3, 3, 0, -1, 1),
    [PTX_OPC_RET] = OI(0, 0, 0, -1, 0),     [PTX_OPC_RSQRT] = OI(2, 2, 0, -1, 1),
    [PTX_OPC_SAD] = OI(4, 4, 0, -1, 1),     [PTX_OPC_SELP] = OI(4, 4, 0, -1, 1),
    [PTX_OPC_SET] = OI(3, 4, 0, -1, 1),     [PTX_OPC_SETP] = OI(3, 4, 0, -1, 1),
    [PTX_OPC_SHF] = OI(4, 4, 0, -1, 1),     [PTX_OPC_SHFL] = OI(4, 5, 0, -1, 1),
    [PTX_OPC_SHL] = OI(3, 3, 0, -1, 1),     [PTX_OPC_SHR] = OI(3, 3, 0, -1, 1),
    [PTX_OPC_SIN] = OI(2, 2, 0, -1, 1),     [PTX_OPC_SLCT] = OI(4, 4, 0, -1, 1),
    [PTX_OPC_SQRT] = OI(2, 2, 0, -1, 1),    [PTX_OPC_ST] = OI(2, 3, 1, 0, 0),
    [PTX_OPC_SUB] = OI(3, 3, 0, -1, 1),     [PTX_OPC_SUBC] = OI(3, 3, 0, -1, 1),
    [PTX_OPC_SZEXT] = OI(3, 3, 0, -1, 1),   [PTX_OPC_TANH] = OI(2, 2, 0, -1, 1),
    [PTX_OPC_TESTP] = OI(2, 2, 0, -1, 1),   [PTX_OPC_TRAP] = OI(0, 0, 0, -1, 0),
    [PTX_OPC_VOTE] = OI(2, 3, 0, -1, 1),    [PTX_OPC_XOR] = OI(3, 3, 0, -1, 1),
    [PTX_OPC_LDMATRIX] = OI(2, 2, 1, 1, 1), [PTX_OPC_ELECT] = OI(1, 2, 0, -1, 1),
    [PTX_OPC_CREATEPOLICY] = OI(2, 4, 0, -1, 1), [PTX_OPC_PMEVENT] = OI(1, 1, 0, -1, 0),
};

static bool is_unsupported_opcode(ptx_opcode_t o)
{
    switch (o) {
    case PTX_OPC_TEX: case PTX_OPC_TLD4: case PTX_OPC_TXQ: case PTX_OPC_SULD: case PTX_OPC_SUST:
    case PTX_OPC_SURED: case PTX_OPC_SUQ: case PTX_OPC_MMA: case PTX_OPC_WMMA:
        return true;
    default:
        return false;
    }
}

static uint32_t pool_add(parser_t *p, ptx_func_t *f, const ptx_operand_t *ops, uint32_t n)
{
    uint32_t first = ptx_func_add_pool(f, ops, n);
    if (first == UINT32_MAX) oom(p);
    return first;
}

static const binding_t *lookup_tok(parser_t *p, const ptx_tok_t *t) { return lookup(p, intern_tok(p, t)); }

/* A register operand (IDENT token already read): an error unless it names a register. */
static uint32_t expect_reg(parser_t *p, const ptx_tok_t *t, const char *what)
{
    if (t->kind != PTX_TK_IDENT) fail_expected(p, t, what);
    const binding_t *b = lookup_tok(p, t);
    if (b == NULL || b->kind != BIND_REG) {
        char d[200];
        ptx_lex_describe(&p->lx, t, d, sizeof d);
        fail(p, t->pos, "%s %s", b == NULL ? "undeclared register" : "expected a register, got the variable", d);
    }
    return b->id;
}

static void expect_pred(parser_t *p, const ptx_func_t *f, uint32_t r, ptx_pos_t pos)
{
    if (f->regs[r].type != PTX_T_PRED)
        fail(p, pos, "'%s' is not a predicate register (declared .%s)", ptx_str(p->m, f->regs[r].name),
             ptx_type_name((ptx_type_t)f->regs[r].type));
}

/* An optional `+N`, `+-N` or `-N` offset. */
static int64_t parse_offset(parser_t *p)
{
    const ptx_tok_t *t = peek(p, 0);
    if (!ptx_tok_is(t, '+') && !ptx_tok_is(t, '-')) return 0;
    bool minus = next(p).punct == '-';
    if (accept_punct(p, '-')) minus = !minus;
    ptx_tok_t o = expect_kind(p, PTX_TK_INT, "an integer offset");
    return u2i(minus ? (uint64_t)0 - o.ival : o.ival);
}

/* A number operand, after an optional '-' (already consumed when neg). */
static void number_operand(parser_t *p, ptx_operand_t *o, bool neg)
{
    ptx_tok_t t = next(p);
    if (t.kind == PTX_TK_INT) {
        o->kind = PTX_OPK_IMM;
        o->imm = u2i(neg ? (uint64_t)0 - t.ival : t.ival);
    } else if (t.kind == PTX_TK_FLOAT) {
        o->kind = PTX_OPK_FIMM;
        o->fwidth = t.fwidth;
        o->fbits = t.ival;
        if (neg) o->fbits ^= (t.fwidth == 32) ? 0x80000000ull : 0x8000000000000000ull;
    } else {
        fail_expected(p, &t, "a number after '-'");
    }
}

/* `[reg]`, `[reg+off]`, `[sym+off]`, `[imm]`. */
static void parse_address(parser_t *p, ptx_operand_t *o)
{
    next(p); /* '[' */
    o->kind = PTX_OPK_ADDR;
    const ptx_tok_t *t = peek(p, 0);
    if (t->kind == PTX_TK_IDENT) {
        ptx_tok_t n = next(p);
        const binding_t *b = lookup_tok(p, &n);
        if (b == NULL) {
            char d[200];
            ptx_lex_describe(&p->lx, &n, d, sizeof d);
            unsigned idx;
            if (find_sreg(tok_text(p, &n), n.len, &idx) != PTX_SREG_NONE)
                fail(p, n.pos, "a special register cannot be an address base: %s", d);
            fail(p, n.pos, "%s %s", n.len && tok_text(p, &n)[0] == '%' ? "undeclared register" : "unknown symbol", d);
        }
        if (b->kind == BIND_REG) {
            o->base = PTX_BASE_REG;
            o->reg = b->id;
        } else {
            o->base = PTX_BASE_SYM;
            o->sym = b->id;
        }
        o->imm = parse_offset(p);
    } else if (t->kind == PTX_TK_INT || ptx_tok_is(t, '-')) {
        bool neg = accept_punct(p, '-');
        ptx_tok_t v = expect_kind(p, PTX_TK_INT, "an address");
        o->base = PTX_BASE_NONE;
        uint64_t a = neg ? (uint64_t)0 - v.ival : v.ival;
        a += (uint64_t)parse_offset(p);
        o->imm = u2i(a);
    } else {
        fail_expected(p, t, "a register, a variable or an address inside '[ ]'");
    }
    expect_punct(p, ']', "']' to close the address");
}

/* `{a, b, _, 0f00000000}` */
static void parse_vector(parser_t *p, ptx_func_t *f, ptx_operand_t *o)
{
    ptx_tok_t open = next(p); /* '{' */
    ptx_operand_t el[MAX_VEC];
    uint32_t n = 0;
    for (;;) {
        if (n == MAX_VEC) fail(p, open.pos, "a vector operand has at most %d elements", MAX_VEC);
        ptx_operand_t *e = &el[n];
        memset(e, 0, sizeof *e);
        const ptx_tok_t *t = peek(p, 0);
        if (t->kind == PTX_TK_SINK) {
            next(p);
            e->kind = PTX_OPK_SINK;
        } else if (t->kind == PTX_TK_INT || t->kind == PTX_TK_FLOAT) {
            number_operand(p, e, false);
        } else if (ptx_tok_is(t, '-')) {
            next(p);
            number_operand(p, e, true);
        } else if (t->kind == PTX_TK_IDENT) {
            ptx_tok_t r = next(p);
            e->kind = PTX_OPK_REG;
            e->reg = expect_reg(p, &r, "a register");
        } else {
            fail_expected(p, t, "a register, '_' or a number in a vector");
        }
        n++;
        if (!accept_punct(p, ',')) break;
    }
    expect_punct(p, '}', "',' or '}' in a vector operand");
    o->kind = PTX_OPK_VEC;
    o->count = n;
    o->first = pool_add(p, f, el, n);
}

/* One operand of an ordinary instruction (call has its own parser). idx: its position. */
static void parse_operand(parser_t *p, ptx_func_t *f, ptx_opcode_t opc, unsigned idx, ptx_operand_t *o)
{
    memset(o, 0, sizeof *o);
    const ptx_tok_t *t = peek(p, 0);
    if (ptx_tok_is(t, '[')) {
        parse_address(p, o);
        return;
    }
    if (ptx_tok_is(t, '{')) {
        parse_vector(p, f, o);
        return;
    }
    if (ptx_tok_is(t, '-')) {
        next(p);
        number_operand(p, o, true);
        return;
    }
    if (t->kind == PTX_TK_INT || t->kind == PTX_TK_FLOAT) {
        number_operand(p, o, false);
        return;
    }
    if (t->kind == PTX_TK_SINK) {
        next(p);
        o->kind = PTX_OPK_SINK;
        return;
    }
    if (ptx_tok_is(t, '!')) {
        next(p);
        ptx_tok_t r = next(p);
        o->kind = PTX_OPK_REG;
        o->reg = expect_reg(p, &r, "a predicate register after '!'");
        o->neg = 1;
        expect_pred(p, f, o->reg, r.pos);
        return;
    }
    if (t->kind != PTX_TK_IDENT) fail_expected(p, t, "an operand");
    ptx_tok_t n = next(p);
    /* branch targets: bra's operand and brx.idx's target list are labels (forward references) */
    if ((opc == PTX_OPC_BRA && idx == 0) || (opc == PTX_OPC_BRX && idx == 1)) {
        o->kind = PTX_OPK_LABEL;
        o->label = label_ref(p, f, intern_tok(p, &n), n.pos);
        return;
    }
    const binding_t *b = lookup_tok(p, &n);
    if (b != NULL && b->kind == BIND_REG) {
        o->kind = PTX_OPK_REG;
        o->reg = b->id;
        if (is_dir(p, peek(p, 0), ".x") || is_dir(p, peek(p, 0), ".y") || is_dir(p, peek(p, 0), ".z") ||
            is_dir(p, peek(p, 0), ".w"))
            fail(p, peek(p, 0)->pos, "components of vector registers ('%s.x') are not supported",
                 ptx_str(p->m, f->regs[b->id].name));
        if (accept_punct(p, '|')) {
            ptx_tok_t q = next(p);
            o->kind = PTX_OPK_PAIR;
            o->reg2 = expect_reg(p, &q, "a predicate register after '|'");
            expect_pred(p, f, o->reg2, q.pos);
        }
        return;
    }
    if (b != NULL) {
        o->kind = PTX_OPK_SYM;
        o->sym = b->id;
        o->imm = parse_offset(p);
        return;
    }
    unsigned index;
    ptx_sreg_t s = find_sreg(tok_text(p, &n), n.len, &index);
    if (s != PTX_SREG_NONE) {
        o->kind = PTX_OPK_SREG;
        o->sreg = (uint8_t)s;
        o->sreg_comp = (uint8_t)index;
        bool vec = s == PTX_SREG_TID || s == PTX_SREG_NTID || s == PTX_SREG_CTAID || s == PTX_SREG_NCTAID ||
                   s == PTX_SREG_CLUSTERID || s == PTX_SREG_NCLUSTERID || s == PTX_SREG_CLUSTER_CTAID ||
                   s == PTX_SREG_CLUSTER_NCTAID;
        if (vec) {
            const ptx_tok_t *c = peek(p, 0);
            if (is_dir(p, c, ".x")) o->sreg_comp = 0;
            else if (is_dir(p, c, ".y")) o->sreg_comp = 1;
            else if (is_dir(p, c, ".z")) o->sreg_comp = 2;
            else fail_expected(p, c, "a component '.x', '.y' or '.z' after the special register");
            next(p);
        }
        return;
    }
    char d[200];
    ptx_lex_describe(&p->lx, &n, d, sizeof d);
    fail(p, n.pos, "%s %s", tok_text(p, &n)[0] == '%' ? "undeclared register" : "unknown symbol", d);
}

/* `(a, b, ...)` of a call: parameters (.param variables) or registers. */
static void parse_call_list(parser_t *p, ptx_func_t *f, ptx_operand_t *o)
{
    next(p); /* '(' */
    p->nlist = 0;
    if (!ptx_tok_is(peek(p, 0), ')')) {
        for (;;) {
            ptx_tok_t n = next(p);
            if (n.kind != PTX_TK_IDENT) fail_expected(p, &n, "a parameter name or a register");
            const binding_t *b = lookup_tok(p, &n);
            if (b == NULL) {
                char d[200];
                ptx_lex_describe(&p->lx, &n, d, sizeof d);
                fail(p, n.pos, "%s %s", tok_text(p, &n)[0] == '%' ? "undeclared register" : "unknown parameter", d);
            }
            pgrow(p, (void **)&p->list, p->nlist, &p->cap_list, sizeof *p->list);
            ptx_operand_t *e = &p->list[p->nlist++];
            memset(e, 0, sizeof *e);
            if (b->kind == BIND_REG) {
                e->kind = PTX_OPK_REG;
                e->reg = b->id;
            } else {
                e->kind = PTX_OPK_SYM;
                e->sym = b->id;
            }
            if (!accept_punct(p, ',')) break;
        }
    }
    expect_punct(p, ')', "',' or ')' in the call's parameter list");
    o->kind = PTX_OPK_LIST;
    o->count = p->nlist;
    o->first = pool_add(p, f, p->list, p->nlist);
}

/* call{.uni} [(rets),] target [, (args)] [, prototype]; in the fixed operand order of ptx_ir.h. */
static void parse_call(parser_t *p, ptx_func_t *f, ptx_insn_t *in)
{
    in->nops = 4;
    memset(in->ops, 0, sizeof in->ops);
    in->ops[0].kind = PTX_OPK_LIST;
    in->ops[0].first = f->npool;
    in->ops[2].kind = PTX_OPK_LIST;
    in->ops[2].first = f->npool;
    if (ptx_tok_is(peek(p, 0), '(')) {
        parse_call_list(p, f, &in->ops[0]);
        expect_punct(p, ',', "',' after the call's return list");
    }
    ptx_tok_t t = next(p);
    if (t.kind != PTX_TK_IDENT) fail_expected(p, &t, "a function name or a register to call");
    const binding_t *b = lookup_tok(p, &t);
    bool indirect = false;
    if (b != NULL && b->kind == BIND_REG) {
        indirect = true;
        in->ops[1].kind = PTX_OPK_REG;
        in->ops[1].reg = b->id;
    } else if (b != NULL && p->m->syms[b->id].kind == PTX_SYM_FUNC) {
        in->ops[1].kind = PTX_OPK_SYM;
        in->ops[1].sym = b->id;
    } else {
        char d[200];
        ptx_lex_describe(&p->lx, &t, d, sizeof d);
        fail(p, t.pos, "%s %s (functions must be declared before they are called)",
             b == NULL ? "unknown function" : "expected a function to call, got the variable", d);
    }
    in->ops[2].first = f->npool;
    if (accept_punct(p, ',')) {
        if (!ptx_tok_is(peek(p, 0), '(')) fail_expected(p, peek(p, 0), "'(' to start the call's argument list");
        parse_call_list(p, f, &in->ops[2]);
        if (accept_punct(p, ',')) {
            ptx_tok_t l = next(p);
            if (l.kind != PTX_TK_IDENT) fail_expected(p, &l, "a prototype label after the argument list");
            if (!indirect) fail(p, l.pos, "a direct call takes no prototype");
            in->ops[3].kind = PTX_OPK_LABEL;
            in->ops[3].label = label_ref(p, f, intern_tok(p, &l), l.pos);
        }
    }
    if (indirect && in->ops[3].kind != PTX_OPK_LABEL)
        fail(p, t.pos, "an indirect call needs a prototype: expected ', (args), prototype_label'");
    if (!indirect) {
        /* a direct call passes exactly the callee's parameters (PTX ISA §9.7.12.2, `call`) */
        const ptx_func_t *callee = &p->m->funcs[p->m->syms[in->ops[1].sym].fn_index];
        if (in->ops[2].count != callee->nparams || in->ops[0].count > callee->nrets)
            fail(p, t.pos, "'%s' takes %u parameter%s and returns %u value%s; this call passes %u and receives %u",
                 ptx_sym_name(p->m, in->ops[1].sym), callee->nparams, callee->nparams == 1 ? "" : "s", callee->nrets,
                 callee->nrets == 1 ? "" : "s", in->ops[2].count, in->ops[0].count);
    }
}

static void parse_insn(parser_t *p, ptx_func_t *f)
{
    ptx_insn_t in;
    memset(&in, 0, sizeof in);
    in.guard = PTX_NOREG;
    in.pos = peek(p, 0)->pos;
    in.loc = p->cur_loc;
    if (accept_punct(p, '@')) {
        if (accept_punct(p, '!')) in.guard_neg = 1;
        ptx_tok_t g = next(p);
        in.guard = expect_reg(p, &g, "a predicate register after '@'");
        expect_pred(p, f, in.guard, g.pos);
    }
    ptx_tok_t op = next(p);
    if (op.kind != PTX_TK_IDENT) fail_expected(p, &op, "an instruction");
    in.opc = find_opcode(p, tok_text(p, &op), op.len);
    if (in.opc == PTX_OPC_NONE) {
        char d[200];
        ptx_lex_describe(&p->lx, &op, d, sizeof d);
        fail(p, op.pos, "unknown opcode %s", d);
    }
    if (is_unsupported_opcode(in.opc))
        fail(p, op.pos, "'%s' is not supported (texture, surface and tensor-core instructions are outside the "
             "subset of docs/compiler.md §1)", ptx_opcode_name(in.opc));
    while (peek(p, 0)->kind == PTX_TK_DIR) {
        ptx_tok_t mt = next(p);
        ptx_mod_t mod = tok_mod(p, &mt);
        char d[200];
        if (mod == PTX_MOD_NONE) {
            ptx_lex_describe(&p->lx, &mt, d, sizeof d);
            fail(p, mt.pos, "unknown modifier %s for '%s'", d, ptx_opcode_name(in.opc));
        }
        if (in.nmods == PTX_MAX_MODS) fail(p, mt.pos, "too many modifiers (at most %d)", PTX_MAX_MODS);
        in.mods[in.nmods++] = (uint16_t)mod;
    }
    if (in.opc == PTX_OPC_CALL) {
        parse_call(p, f, &in);
    } else if (!ptx_tok_is(peek(p, 0), ';')) {
        for (;;) {
            ptx_pos_t at = peek(p, 0)->pos;
            if (in.nops == PTX_MAX_OPS) fail(p, at, "too many operands (at most %d)", PTX_MAX_OPS);
            parse_operand(p, f, in.opc, in.nops, &in.ops[in.nops]);
            in.nops++;
            if (!accept_punct(p, ',')) break;
        }
    }
    expect_punct(p, ';', "',' or ';' after an operand");
    const opinfo_t *oi = &opinfo[in.opc];
    if (oi->known) {
        if (in.nops < oi->min || in.nops > oi->max) {
            if (oi->min == oi->max)
                fail(p, in.pos, "'%s' takes %u operand%s, got %u", ptx_opcode_name(in.opc), oi->min,
                     oi->min == 1 ? "" : "s", in.nops);
            fail(p, in.pos, "'%s' takes %u to %u operands, got %u", ptx_opcode_name(in.opc), oi->min, oi->max, in.nops);
        }
        for (unsigned i = 0; i < in.nops; i++)
            if (in.ops[i].kind == PTX_OPK_ADDR && !oi->mem)
                fail(p, in.pos, "'%s' takes no memory operand (operand %u)", ptx_opcode_name(in.opc), i + 1);
        if (oi->addr >= 0 && in.ops[oi->addr].kind != PTX_OPK_ADDR)
            fail(p, in.pos, "'%s' expects a memory operand '[...]' as operand %d", ptx_opcode_name(in.opc), oi->addr + 1);
        if (oi->dst && in.nops > 0) {
            uint8_t k = in.ops[0].kind;
            if (k != PTX_OPK_REG && k != PTX_OPK_PAIR && k != PTX_OPK_VEC)
                fail(p, in.pos, "'%s' expects a destination register as operand 1", ptx_opcode_name(in.opc));
            if (k == PTX_OPK_REG && in.ops[0].neg)
                fail(p, in.pos, "a negated predicate '!%s' cannot be a destination",
                     ptx_str(p->m, f->regs[in.ops[0].reg].name));
        }
    }
    ptx_stmt_t st;
    memset(&st, 0, sizeof st);
    st.kind = PTX_ST_INSN;
    st.pos = in.pos;
    st.index = ptx_func_add_insn(f, &in);
    if (st.index == UINT32_MAX || ptx_func_add_stmt(f, &st) == UINT32_MAX) oom(p);
}

/* ---------------------------------------------------------------------------------------------------
 * Function bodies.
 */

static uint32_t add_stmt(parser_t *p, ptx_func_t *f, const ptx_stmt_t *st)
{
    uint32_t i = ptx_func_add_stmt(f, st);
    if (i == UINT32_MAX) oom(p);
    return i;
}

/* `.reg [.vN] .type name[<N>] {, name[<N>]};` — one REGDECL statement per name. */
static void parse_reg_decl(parser_t *p, ptx_func_t *f, ptx_pos_t pos)
{
    uint8_t vec = 1;
    ptx_mod_t vm = tok_mod(p, peek(p, 0));
    if (vm == PTX_MOD_V2 || vm == PTX_MOD_V4 || vm == PTX_MOD_V8) {
        next(p);
        vec = vm == PTX_MOD_V2 ? 2 : vm == PTX_MOD_V4 ? 4 : 8;
    }
    ptx_tok_t tt = next(p);
    ptx_type_t ty = tok_type(p, &tt);
    if (ty == PTX_T_NONE) fail_expected(p, &tt, "a register type (.b32, .pred, ...)");
    uint32_t scope = p->scope_stmt[p->nest];
    for (;;) {
        ptx_tok_t n = next(p);
        if (n.kind != PTX_TK_IDENT) fail_expected(p, &n, "a register name");
        const char *name = tok_text(p, &n);
        unsigned idx;
        ptx_stmt_t st;
        memset(&st, 0, sizeof st);
        st.kind = PTX_ST_REGDECL;
        st.pos = pos;
        st.index = f->nregs;
        if (ptx_tok_is(peek(p, 0), '<')) {
            next(p);
            ptx_tok_t c = expect_kind(p, PTX_TK_INT, "a register count after '<'");
            expect_punct(p, '>', "'>' after the register count");
            if (c.ival == 0) fail(p, c.pos, "a register count must be at least 1");
            if (c.ival > p->regs_left)
                fail(p, c.pos, "'%.*s<%llu>' declares more registers than this input may (%llu left of a budget of "
                     "65536 + 8 per input byte)", (int)n.len, name, (unsigned long long)c.ival,
                     (unsigned long long)p->regs_left);
            p->regs_left -= c.ival;
            bool check_sreg = family_may_be_sreg(name, n.len);
            char buf[PTX_MAX_NAME + 24];
            memcpy(buf, name, n.len);
            for (uint64_t i = 0; i < c.ival; i++) {
                size_t len = n.len + put_decimal(buf + n.len, i);
                /* special registers end in at most two digits (%clock64, %envreg31, %pm7_64) */
                if (check_sreg && i < 100 && find_sreg(buf, len, &idx) != PTX_SREG_NONE)
                    fail(p, n.pos, "'%.*s<%llu>' would declare the special register '%.*s'", (int)n.len, name,
                         (unsigned long long)c.ival, (int)len, buf);
                uint32_t sid = intern(p, buf, len);
                uint32_t r = ptx_func_add_reg(f, sid, ty, scope);
                if (r == UINT32_MAX) oom(p);
                f->regs[r].vec = vec;
                f->regs[r].pos = n.pos;
                bind(p, sid, BIND_REG, r, n.pos, "register");
            }
            st.count = (uint32_t)c.ival;
            st.aux = (uint32_t)c.ival;
        } else {
            if (find_sreg(name, n.len, &idx) != PTX_SREG_NONE) {
                char d[200];
                ptx_lex_describe(&p->lx, &n, d, sizeof d);
                fail(p, n.pos, "%s is a special register and cannot be declared", d);
            }
            if (p->regs_left == 0) fail(p, n.pos, "too many registers for the size of this input");
            p->regs_left--;
            uint32_t sid = intern_tok(p, &n);
            uint32_t r = ptx_func_add_reg(f, sid, ty, scope);
            if (r == UINT32_MAX) oom(p);
            f->regs[r].vec = vec;
            f->regs[r].pos = n.pos;
            bind(p, sid, BIND_REG, r, n.pos, "register");
            st.count = 1;
        }
        add_stmt(p, f, &st);
        if (!accept_punct(p, ',')) break;
    }
    expect_punct(p, ';', "',' or ';' after the register declaration");
}

/* `.loc F L C [, function_name LABEL] [, inlined_at F L C]` */
static void parse_loc(parser_t *p, ptx_func_t *f, ptx_pos_t pos)
{
    ptx_loc_t l;
    memset(&l, 0, sizeof l);
    l.file = expect_u32(p, "a file number after '.loc'");
    l.line = expect_u32(p, "a line number");
    l.col = expect_u32(p, "a column number");
    bool fn = false, inl = false;
    while (accept_punct(p, ',')) {
        ptx_tok_t k = next(p);
        if (is_ident(p, &k, "function_name") && !fn) {
            ptx_tok_t n = expect_kind(p, PTX_TK_IDENT, "a label after 'function_name'");
            l.fn_name = intern_tok(p, &n);
            fn = true;
        } else if (is_ident(p, &k, "inlined_at") && !inl) {
            l.in_file = expect_u32(p, "a file number after 'inlined_at'");
            l.in_line = expect_u32(p, "a line number");
            l.in_col = expect_u32(p, "a column number");
            inl = true;
        } else {
            fail_expected(p, &k, fn || inl ? "'function_name' or 'inlined_at' (each at most once)"
                                           : "'function_name' or 'inlined_at'");
        }
    }
    ptx_stmt_t st;
    memset(&st, 0, sizeof st);
    st.kind = PTX_ST_LOC;
    st.loc = l;
    st.pos = pos;
    add_stmt(p, f, &st);
    p->cur_loc = l;
}

/* The text of a prototype-like directive up to its ';' (not included), tokens separated by one space
 * where the source had any gap. Labels in `.branchtargets` and functions in `.calltargets` are
 * resolved. */
static uint32_t parse_proto_text(parser_t *p, ptx_func_t *f, const ptx_tok_t *kw)
{
    bool branchtargets = is_dir(p, kw, ".branchtargets");
    bool calltargets = is_dir(p, kw, ".calltargets");
    p->ntext = 0;
    ptx_tok_t prev = *kw;
    ptx_tok_t t = *kw;
    for (;;) {
        size_t need = p->ntext + t.len + 2;
        if (need > p->cap_text) {
            size_t nc = p->cap_text ? p->cap_text * 2 : 256;
            while (nc < need) nc *= 2;
            char *q = realloc(p->text, nc);
            if (q == NULL) oom(p);
            p->text = q;
            p->cap_text = nc;
        }
        if (p->ntext && t.off != prev.off + prev.len) p->text[p->ntext++] = ' ';
        memcpy(p->text + p->ntext, tok_text(p, &t), t.len);
        p->ntext += t.len;
        prev = t;
        const ptx_tok_t *nt = peek(p, 0);
        if (ptx_tok_is(nt, ';')) break;
        if (nt->kind == PTX_TK_EOF || ptx_tok_is(nt, '{') || ptx_tok_is(nt, '}'))
            fail_expected(p, nt, "';' to end the directive");
        t = next(p);
        if (t.kind == PTX_TK_IDENT && branchtargets) label_ref(p, f, intern_tok(p, &t), t.pos);
        if (t.kind == PTX_TK_IDENT && calltargets) {
            const binding_t *b = lookup_tok(p, &t);
            if (b == NULL || b->kind != BIND_SYM || p->m->syms[b->id].kind != PTX_SYM_FUNC) {
                char d[200];
                ptx_lex_describe(&p->lx, &t, d, sizeof d);
                fail(p, t.pos, "unknown function %s in .calltargets", d);
            }
        }
    }
    next(p); /* ';' */
    return intern(p, p->text, p->ntext);
}

static void define_label(parser_t *p, ptx_func_t *f, const ptx_tok_t *n)
{
    uint32_t l = label_ref(p, f, intern_tok(p, n), n->pos);
    if (f->labels[l].stmt != UINT32_MAX)
        fail(p, n->pos, "label '%s' is already defined (at %u:%u)", ptx_str(p->m, f->labels[l].name),
             f->labels[l].pos.line, f->labels[l].pos.col);
    ptx_stmt_t st;
    memset(&st, 0, sizeof st);
    st.pos = n->pos;
    st.index = l;
    const ptx_tok_t *d = peek(p, 0);
    if (is_dir(p, d, ".callprototype") || is_dir(p, d, ".branchtargets") || is_dir(p, d, ".calltargets")) {
        ptx_tok_t kw = next(p);
        st.kind = PTX_ST_PROTOTYPE;
        st.count = parse_proto_text(p, f, &kw);
    } else {
        st.kind = PTX_ST_LABEL;
    }
    f->labels[l].stmt = add_stmt(p, f, &st);
    f->labels[l].pos = n->pos;
}

/* After the closing '}': every label used is defined, branches go to labels and indirect calls to
 * prototypes. */
static void check_labels(parser_t *p, ptx_func_t *f)
{
    const char *fname = ptx_sym_name(p->m, f->sym);
    for (uint32_t l = 0; l < f->nlabels; l++)
        if (f->labels[l].stmt == UINT32_MAX)
            fail(p, f->labels[l].pos, "label '%s' is used but never defined in '%s'", ptx_str(p->m, f->labels[l].name),
                 fname);
    for (uint32_t i = 0; i < f->ninsns; i++) {
        const ptx_insn_t *in = &f->insns[i];
        for (unsigned k = 0; k < in->nops; k++) {
            if (in->ops[k].kind != PTX_OPK_LABEL) continue;
            const ptx_label_t *lb = &f->labels[in->ops[k].label];
            const ptx_stmt_t *st = &f->stmts[lb->stmt];
            const char *text = st->kind == PTX_ST_PROTOTYPE ? ptx_str(p->m, st->count) : "";
            bool want_proto = in->opc == PTX_OPC_CALL || in->opc == PTX_OPC_BRX;
            if (!want_proto && st->kind != PTX_ST_LABEL)
                fail(p, in->pos, "'%s' is a directive label, not a branch target", ptx_str(p->m, lb->name));
            if (in->opc == PTX_OPC_CALL && strncmp(text, ".callprototype", 14) != 0 && strncmp(text, ".calltargets", 12) != 0)
                fail(p, in->pos, "'%s' is not a .callprototype or .calltargets label", ptx_str(p->m, lb->name));
            if (in->opc == PTX_OPC_BRX && strncmp(text, ".branchtargets", 14) != 0)
                fail(p, in->pos, "'%s' is not a .branchtargets label", ptx_str(p->m, lb->name));
        }
    }
    for (uint32_t l = 0; l < f->nlabels; l++) p->label_of[f->labels[l].name] = 0;
}

static void parse_body(parser_t *p, ptx_func_t *f)
{
    ptx_tok_t open = next(p); /* '{' */
    push_scope(p);           /* depth 2: the body */
    p->nest = 0;
    p->scope_stmt[0] = 0;
    memset(&p->cur_loc, 0, sizeof p->cur_loc);
    ptx_pos_t opens[MAX_SCOPE_DEPTH + 1];
    opens[0] = open.pos;
    for (;;) {
        const ptx_tok_t *t = peek(p, 0);
        ptx_stmt_t st;
        memset(&st, 0, sizeof st);
        st.pos = t->pos;
        if (ptx_tok_is(t, '}')) {
            ptx_tok_t c = next(p);
            if (p->nest == 0) {
                f->end_pos = c.pos;
                break;
            }
            st.kind = PTX_ST_SCOPE_END;
            add_stmt(p, f, &st);
            pop_scope(p);
            p->nest--;
        } else if (ptx_tok_is(t, '{')) {
            ptx_tok_t o = next(p);
            if (p->nest == MAX_SCOPE_DEPTH) fail(p, o.pos, "scopes are nested more than %d deep", MAX_SCOPE_DEPTH);
            st.kind = PTX_ST_SCOPE_BEGIN;
            uint32_t i = add_stmt(p, f, &st);
            p->scope_stmt[++p->nest] = i;
            opens[p->nest] = o.pos;
            push_scope(p);
        } else if (t->kind == PTX_TK_DIR) {
            ptx_tok_t d = next(p);
            if (is_dir(p, &d, ".reg")) {
                parse_reg_decl(p, f, d.pos);
            } else if (is_dir(p, &d, ".local") || is_dir(p, &d, ".shared") || is_dir(p, &d, ".param")) {
                varctx_t vc = {ptx_mod_space(tok_mod(p, &d)), PTX_LINK_NONE, (int32_t)p->cur_func, false, false, false};
                parse_var_decl(p, &vc, d.pos, f);
            } else if (is_dir(p, &d, ".loc")) {
                parse_loc(p, f, d.pos);
            } else if (is_dir(p, &d, ".pragma")) {
                ptx_tok_t s = expect_kind(p, PTX_TK_STRING, "a quoted pragma after '.pragma'");
                expect_punct(p, ';', "';' after the pragma");
                st.kind = PTX_ST_PRAGMA;
                st.index = intern(p, tok_text(p, &s) + 1, s.len - 2);
                add_stmt(p, f, &st);
            } else {
                char dd[200];
                ptx_lex_describe(&p->lx, &d, dd, sizeof dd);
                fail(p, d.pos, "unexpected directive %s in a function body (expected .reg, .local, .shared, .param, "
                     ".loc, .pragma or an instruction)", dd);
            }
        } else if (t->kind == PTX_TK_IDENT && ptx_tok_is(peek(p, 1), ':')) {
            ptx_tok_t n = next(p);
            next(p);
            define_label(p, f, &n);
        } else if (t->kind == PTX_TK_IDENT || ptx_tok_is(t, '@')) {
            parse_insn(p, f);
        } else if (t->kind == PTX_TK_EOF) {
            fail(p, t->pos, "expected '}' to close the scope opened at %u:%u, got end of input", opens[p->nest].line,
                 opens[p->nest].col);
        } else {
            fail_expected(p, t, "an instruction, a label, a declaration or '}'");
        }
    }
    pop_scope(p);
    check_labels(p, f);
}

/* ---------------------------------------------------------------------------------------------------
 * Functions.
 */

static uint32_t *copy_ids(parser_t *p, const uint32_t *ids, uint32_t n)
{
    if (n == 0) return NULL;
    uint32_t *q = malloc((size_t)n * sizeof *q);
    if (q == NULL) oom(p);
    memcpy(q, ids, (size_t)n * sizeof *q);
    return q;
}

/* `( .param ..., .param ... )`: symbols into p->ids (cleared first). */
static void parse_param_list(parser_t *p, uint32_t fi, bool entry, bool bind_it)
{
    next(p); /* '(' */
    p->nids = 0;
    if (!ptx_tok_is(peek(p, 0), ')')) {
        for (;;) {
            uint32_t id = parse_param(p, fi, entry, bind_it);
            pgrow(p, (void **)&p->ids, p->nids, &p->cap_ids, sizeof *p->ids);
            p->ids[p->nids++] = id;
            if (!accept_punct(p, ',')) break;
        }
    }
    expect_punct(p, ')', "',' or ')' in the parameter list");
}

static uint32_t expect_positive(parser_t *p, const char *what)
{
    ptx_tok_t t = expect_kind(p, PTX_TK_INT, what);
    if (t.ival == 0 || t.ival > UINT32_MAX) fail(p, t.pos, "%s: expected a value from 1 to 4294967295", what);
    return (uint32_t)t.ival;
}

/* A function after its keyword kw (.entry or .func), with its linkage. */
static void parse_function(parser_t *p, uint8_t link, ptx_pos_t item_pos, const ptx_tok_t *kwp)
{
    ptx_module_t *m = p->m;
    ptx_tok_t kw = *kwp;
    bool entry = is_dir(p, &kw, ".entry");
    uint32_t fi = ptx_module_add_func(m);
    if (fi == UINT32_MAX) oom(p);
    p->cur_func = fi;
    ptx_func_t *f = &m->funcs[fi]; /* stable: no function is added until this one is done */
    f->is_entry = entry;
    f->link = link;
    f->pos = kw.pos;
    /* return parameters come before the name: parse them unbound, bind them with the others */
    uint32_t *rets = NULL;
    uint32_t nrets = 0;
    if (ptx_tok_is(peek(p, 0), '(')) {
        if (entry) fail(p, peek(p, 0)->pos, "an .entry has no return parameters: expected the kernel name");
        parse_param_list(p, fi, false, false);
        nrets = p->nids;
        rets = copy_ids(p, p->ids, nrets);
        f->rets = rets;
        f->nrets = nrets;
    }
    ptx_tok_t n = next(p);
    if (n.kind != PTX_TK_IDENT) fail_expected(p, &n, entry ? "a kernel name after '.entry'" : "a function name");
    uint32_t name = intern_tok(p, &n);
    ensure_head(p);
    const binding_t *b = lookup(p, name);
    uint32_t sym;
    int32_t prev_fn = -1;
    if (b != NULL) {
        const ptx_sym_t *s = &m->syms[b->id];
        if (s->kind != PTX_SYM_FUNC)
            fail(p, n.pos, "'%s' is already declared as a variable (at %u:%u)", ptx_str(m, name), s->pos.line, s->pos.col);
        const ptx_func_t *pf = &m->funcs[s->fn_index];
        if (pf->is_entry != entry)
            fail(p, n.pos, "'%s' was declared as %s at %u:%u", ptx_str(m, name), pf->is_entry ? ".entry" : ".func",
                 s->pos.line, s->pos.col);
        sym = b->id;
        prev_fn = (int32_t)s->fn_index;
    } else {
        ptx_sym_t s;
        memset(&s, 0, sizeof s);
        s.name = name;
        s.kind = PTX_SYM_FUNC;
        s.link = link;
        s.func = -1;
        s.vec = 1;
        s.fn_index = fi;
        s.pos = n.pos;
        sym = ptx_module_add_sym(m, &s);
        if (sym == UINT32_MAX) oom(p);
        bind(p, name, BIND_SYM, sym, n.pos, "function");
    }
    f->sym = sym;
    push_scope(p); /* depth 1: parameters */
    for (uint32_t i = 0; i < nrets; i++)
        bind(p, m->syms[rets[i]].name, BIND_SYM, rets[i], m->syms[rets[i]].pos, "parameter");
    if (ptx_tok_is(peek(p, 0), '(')) {
        parse_param_list(p, fi, entry, true);
        f->params = copy_ids(p, p->ids, p->nids);
        f->nparams = p->nids;
    }
    /* performance-tuning directives and .noreturn (PTX ISA §11.4) */
    for (;;) {
        const ptx_tok_t *t = peek(p, 0);
        if (t->kind != PTX_TK_DIR) break;
        ptx_tok_t d = next(p);
        uint32_t *dst = NULL;
        if (is_dir(p, &d, ".maxntid")) dst = f->maxntid;
        else if (is_dir(p, &d, ".reqntid")) dst = f->reqntid;
        if (dst != NULL) {
            if (dst[0]) fail(p, d.pos, "duplicate %.*s", (int)d.len, tok_text(p, &d));
            for (unsigned k = 0; k < 3; k++) {
                dst[k] = expect_positive(p, "a thread count");
                if (!accept_punct(p, ',')) break;
                if (k == 2) fail(p, peek(p, 0)->pos, "at most 3 thread counts");
            }
            continue;
        }
        uint32_t *one = NULL;
        if (is_dir(p, &d, ".minnctapersm")) one = &f->minnctapersm;
        else if (is_dir(p, &d, ".maxnreg")) one = &f->maxnreg;
        else if (is_dir(p, &d, ".maxnctapersm")) one = &f->maxnctapersm;
        if (one != NULL) {
            if (*one) fail(p, d.pos, "duplicate %.*s", (int)d.len, tok_text(p, &d));
            *one = expect_positive(p, "a count");
            continue;
        }
        if (is_dir(p, &d, ".noreturn")) {
            if (entry) fail(p, d.pos, "'.noreturn' applies only to .func");
            if (f->noreturn) fail(p, d.pos, "duplicate .noreturn");
            f->noreturn = true;
            continue;
        }
        char dd[200];
        ptx_lex_describe(&p->lx, &d, dd, sizeof dd);
        fail(p, d.pos, "unsupported directive %s before the function body (expected .maxntid, .reqntid, "
             ".minnctapersm, .maxnctapersm, .maxnreg, .noreturn, '{' or ';')", dd);
    }
    if (prev_fn >= 0) {
        const ptx_func_t *pf = &m->funcs[prev_fn];
        ptx_pos_t at = m->syms[sym].pos;
        if (pf->nparams != f->nparams || pf->nrets != f->nrets)
            fail(p, n.pos, "'%s' has %u parameter%s and %u return value%s here but %u and %u where first declared (at %u:%u)",
                 ptx_str(m, name), f->nparams, f->nparams == 1 ? "" : "s", f->nrets, f->nrets == 1 ? "" : "s",
                 pf->nparams, pf->nrets, at.line, at.col);
    }
    if (ptx_tok_is(peek(p, 0), '{')) {
        if (link == PTX_LINK_EXTERN) fail(p, peek(p, 0)->pos, "an .extern function cannot have a body");
        if (prev_fn >= 0 && m->funcs[m->syms[sym].fn_index].defined)
            fail(p, n.pos, "'%s' is already defined (at %u:%u)", ptx_str(m, name),
                 m->funcs[m->syms[sym].fn_index].pos.line, m->funcs[m->syms[sym].fn_index].pos.col);
        f->defined = true;
        m->syms[sym].fn_index = fi;
        m->syms[sym].link = link;
        parse_body(p, f);
    } else {
        expect_punct(p, ';', "'{' to start the body or ';' to end the declaration");
    }
    pop_scope(p); /* parameters */
    add_item(p, PTX_ITEM_FUNC, fi, 0, 0, item_pos);
}

/* ---------------------------------------------------------------------------------------------------
 * The module.
 */

static void parse_module(parser_t *p)
{
    intern(p, "", 0);
    parse_header(p);
    for (;;) {
        const ptx_tok_t *t = peek(p, 0);
        if (t->kind == PTX_TK_EOF) break;
        if (t->kind != PTX_TK_DIR) fail_expected(p, t, "a directive (.entry, .func, .global, .file, ...)");
        ptx_tok_t d = next(p);
        ptx_pos_t pos = d.pos;
        if (is_dir(p, &d, ".file")) {
            parse_file_dir(p, pos);
            continue;
        }
        if (is_dir(p, &d, ".section")) {
            parse_section(p, &d);
            continue;
        }
        if (is_dir(p, &d, ".version") || is_dir(p, &d, ".target") || is_dir(p, &d, ".address_size"))
            fail(p, pos, "%.*s may appear only once, at the start of the module", (int)d.len, tok_text(p, &d));
        uint8_t link = PTX_LINK_NONE;
        if (is_dir(p, &d, ".visible")) link = PTX_LINK_VISIBLE;
        else if (is_dir(p, &d, ".extern")) link = PTX_LINK_EXTERN;
        else if (is_dir(p, &d, ".weak")) link = PTX_LINK_WEAK;
        else if (is_dir(p, &d, ".common")) link = PTX_LINK_COMMON;
        if (link != PTX_LINK_NONE) {
            const ptx_tok_t *e = peek(p, 0);
            if (is_dir(p, e, ".entry") || is_dir(p, e, ".func")) {
                ptx_tok_t kw = next(p);
                parse_function(p, link, pos, &kw);
                continue;
            }
            d = next(p);
        } else if (is_dir(p, &d, ".entry") || is_dir(p, &d, ".func")) {
            parse_function(p, PTX_LINK_NONE, pos, &d);
            continue;
        }
        ptx_space_t sp = ptx_mod_space(tok_mod(p, &d));
        if (sp == PTX_SPACE_GLOBAL || sp == PTX_SPACE_CONST || sp == PTX_SPACE_SHARED || sp == PTX_SPACE_LOCAL) {
            varctx_t vc = {sp, link, -1, false, false, false};
            parse_var_decl(p, &vc, pos, NULL);
            continue;
        }
        char dd[200];
        ptx_lex_describe(&p->lx, &d, dd, sizeof dd);
        if (link != PTX_LINK_NONE) fail(p, d.pos, "expected .entry, .func or a state space (.global, ...) after the linkage, got %s", dd);
        if (sp == PTX_SPACE_PARAM || sp == PTX_SPACE_REG)
            fail(p, d.pos, "%s variables are only allowed inside functions", dd);
        fail(p, d.pos, "unsupported directive %s at module scope (expected .entry, .func, .global, .const, .shared, "
             ".local, .file, .section or a linkage)", dd);
    }
}

ptx_module_t *ptx_parse(const char *name, const char *text, size_t len, ptx_err_t *err)
{
    if (err != NULL) {
        err->msg[0] = '\0';
        err->pos.line = err->pos.col = 0;
    }
    if (name == NULL) name = "<ptx>";
    parser_t *p = calloc(1, sizeof *p);
    ptx_module_t *m = calloc(1, sizeof *m);
    char *mname = strdup(name);
    if (p == NULL || m == NULL || mname == NULL) {
        free(p);
        free(m);
        free(mname);
        if (err != NULL) snprintf(err->msg, sizeof err->msg, "%s: out of memory", name);
        return NULL;
    }
    m->name = mname;
    p->m = m;
    p->regs_left = REG_BUDGET_BASE + (uint64_t)len * REG_BUDGET_PER_BYTE;
    p->inits_left = p->regs_left;
    build_vocab(p);
    ptx_lex_init(&p->lx, m->name, text ? text : "", text ? len : 0, err, &p->jb);
    if (setjmp(p->jb) == 0) {
        parse_module(p);
        p->ok = true;
    }
    ptx_module_t *result = p->ok ? p->m : NULL;
    if (!p->ok) ptx_module_free(p->m);
    free(p->binds);
    free(p->head);
    free(p->label_of);
    free(p->list);
    free(p->ids);
    free(p->text);
    free(p->file_set);
    free(p);
    return result;
}

ptx_module_t *ptx_parse_file(const char *path, ptx_err_t *err)
{
    bool is_stdin = strcmp(path, "-") == 0;
    FILE *fp = is_stdin ? stdin : fopen(path, "rb");
    const char *name = is_stdin ? "<stdin>" : path;
    if (fp == NULL) {
        if (err != NULL) {
            snprintf(err->msg, sizeof err->msg, "%s: cannot open: %s", path, strerror(errno));
            err->pos.line = err->pos.col = 0;
        }
        return NULL;
    }
    size_t cap = 1 << 16, len = 0;
    char *buf = malloc(cap);
    bool failed = buf == NULL;
    while (!failed) {
        if (len == cap) {
            char *q = cap <= SIZE_MAX / 2 ? realloc(buf, cap * 2) : NULL;
            if (q == NULL) {
                failed = true;
                break;
            }
            buf = q;
            cap *= 2;
        }
        size_t k = fread(buf + len, 1, cap - len, fp);
        len += k;
        if (k == 0) break;
    }
    bool ioerr = ferror(fp) != 0;
    if (!is_stdin) fclose(fp);
    if (failed || ioerr) {
        free(buf);
        if (err != NULL) {
            snprintf(err->msg, sizeof err->msg, "%s: %s", name, failed ? "out of memory" : "read error");
            err->pos.line = err->pos.col = 0;
        }
        return NULL;
    }
    ptx_module_t *m = ptx_parse(name, buf, len, err);
    free(buf);
    return m;
}
