/*
 * ptx_lex.c — the PTX tokenizer (ptx_lex.h). Lexical grammar from the PTX ISA 9.0 chapter 4
 * ("Syntax"): identifiers `[a-zA-Z]{followsym}*` or `[_$%]{followsym}+` with followsym
 * `[a-zA-Z0-9_$]`; directives and modifiers are a dot followed by such a word, with `::` parts
 * (`.shared::cta`); integers in decimal, hex `0x`, octal `0` and binary `0b`, with an optional `U`;
 * floats as `0f` + 8 hex digits, `0d` + 16 hex digits, or decimal with a fraction or an exponent;
 * `//` line comments and block comments. Columns count bytes from 1.
 */
#include "ptx_lex.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void ptx_lex_init(ptx_lexer_t *lx, const char *name, const char *src, size_t len, ptx_err_t *err,
                  jmp_buf *jb)
{
    memset(lx, 0, sizeof *lx);
    lx->src = src;
    lx->len = len;
    lx->line = 1;
    lx->col = 1;
    lx->name = name ? name : "<ptx>";
    lx->err = err;
    lx->jb = jb;
}

void ptx_lex_vfail(ptx_lexer_t *lx, ptx_pos_t pos, const char *fmt, va_list ap)
{
    if (lx->err != NULL) {
        char body[400];
        vsnprintf(body, sizeof body, fmt, ap);
        if (pos.line)
            snprintf(lx->err->msg, sizeof lx->err->msg, "%s:%u:%u: %s", lx->name, pos.line, pos.col, body);
        else
            snprintf(lx->err->msg, sizeof lx->err->msg, "%s: %s", lx->name, body);
        lx->err->pos = pos;
    }
    longjmp(*lx->jb, 1);
}

void ptx_lex_fail(ptx_lexer_t *lx, ptx_pos_t pos, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    ptx_lex_vfail(lx, pos, fmt, ap);
}

static int is_followsym(int c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '$';
}

static int is_hex(int c)
{
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

static unsigned hex_val(int c)
{
    if (c >= '0' && c <= '9') return (unsigned)(c - '0');
    if (c >= 'a' && c <= 'f') return (unsigned)(c - 'a' + 10);
    return (unsigned)(c - 'A' + 10);
}

static ptx_pos_t here(const ptx_lexer_t *lx)
{
    ptx_pos_t p = {lx->line, lx->col};
    return p;
}

/* The byte at cur + k, or -1 past the end. */
static int at(const ptx_lexer_t *lx, size_t k)
{
    return (lx->cur + k < lx->len) ? (unsigned char)lx->src[lx->cur + k] : -1;
}

static void advance(ptx_lexer_t *lx, size_t n)
{
    for (size_t i = 0; i < n && lx->cur < lx->len; i++) {
        if (lx->src[lx->cur] == '\n') {
            lx->line++;
            lx->col = 1;
        } else {
            lx->col++;
        }
        lx->cur++;
    }
}

/* Write the character c as it appears in messages. */
static void describe_char(int c, char *buf, size_t cap)
{
    if (c >= 0x20 && c < 0x7f) snprintf(buf, cap, "'%c'", c);
    else snprintf(buf, cap, "'\\x%02x'", (unsigned)c & 0xffu);
}

static void skip_space(ptx_lexer_t *lx)
{
    for (;;) {
        int c = at(lx, 0);
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v') {
            advance(lx, 1);
        } else if (c == '/' && at(lx, 1) == '/') {
            while (lx->cur < lx->len && lx->src[lx->cur] != '\n') advance(lx, 1);
        } else if (c == '/' && at(lx, 1) == '*') {
            ptx_pos_t open = here(lx);
            advance(lx, 2);
            for (;;) {
                if (lx->cur >= lx->len) ptx_lex_fail(lx, open, "unterminated comment: expected '*/' before the end of input");
                if (lx->src[lx->cur] == '*' && at(lx, 1) == '/') {
                    advance(lx, 2);
                    break;
                }
                advance(lx, 1);
            }
        } else {
            return;
        }
    }
}

/* Accumulate a digit in base b into *v; false on overflow of 64 bits. */
static int acc_digit(uint64_t *v, unsigned b, unsigned d)
{
    if (*v > (UINT64_MAX - d) / b) return 0;
    *v = *v * b + d;
    return 1;
}

static void lex_number(ptx_lexer_t *lx, ptx_tok_t *t)
{
    size_t start = lx->cur;
    int c0 = at(lx, 0), c1 = at(lx, 1);
    uint64_t v = 0;
    t->kind = PTX_TK_INT;
    if (c0 == '0' && (c1 == 'f' || c1 == 'F' || c1 == 'd' || c1 == 'D')) {
        unsigned want = (c1 == 'f' || c1 == 'F') ? 8 : 16;
        size_t k = 2;
        while (is_hex(at(lx, k))) {
            v = (v << 4) | hex_val(at(lx, k));
            k++;
            if (k - 2 > want) break;
        }
        if (k - 2 != want || is_followsym(at(lx, k)))
            ptx_lex_fail(lx, t->pos, "malformed floating-point literal: expected exactly %u hex digits after '0%c'",
                         want, (char)c1);
        t->kind = PTX_TK_FLOAT;
        t->fwidth = (uint8_t)(want * 4);
        t->ival = v;
        advance(lx, k);
        t->len = (uint32_t)(lx->cur - start);
        return;
    }
    size_t k = 0;
    unsigned base = 10;
    if (c0 == '0' && (c1 == 'x' || c1 == 'X')) base = 16, k = 2;
    else if (c0 == '0' && (c1 == 'b' || c1 == 'B')) base = 2, k = 2;
    else if (c0 == '0' && c1 >= '0' && c1 <= '9') base = 8, k = 1;
    if (base == 10) {
        /* A decimal float has a fraction (`1.5`) or an exponent (`2e3`). */
        size_t j = 0;
        while (at(lx, j) >= '0' && at(lx, j) <= '9') j++;
        int is_float = 0;
        if (at(lx, j) == '.' && at(lx, j + 1) >= '0' && at(lx, j + 1) <= '9') {
            is_float = 1;
            j++;
            while (at(lx, j) >= '0' && at(lx, j) <= '9') j++;
        }
        if (at(lx, j) == 'e' || at(lx, j) == 'E') {
            size_t e = j + 1;
            if (at(lx, e) == '+' || at(lx, e) == '-') e++;
            if (at(lx, e) >= '0' && at(lx, e) <= '9') {
                is_float = 1;
                j = e;
                while (at(lx, j) >= '0' && at(lx, j) <= '9') j++;
            }
        }
        if (is_float) {
            if (is_followsym(at(lx, j))) {
                char d[16];
                describe_char(at(lx, j), d, sizeof d);
                ptx_lex_fail(lx, t->pos, "malformed number: unexpected %s after a floating-point literal", d);
            }
            char buf[PTX_MAX_NAME + 1];
            if (j > PTX_MAX_NAME) ptx_lex_fail(lx, t->pos, "floating-point literal longer than %d characters", PTX_MAX_NAME);
            memcpy(buf, lx->src + lx->cur, j);
            buf[j] = '\0';
            errno = 0;
            char *end = NULL;
            double d = strtod(buf, &end);
            if (end != buf + j || errno == ERANGE)
                ptx_lex_fail(lx, t->pos, "floating-point literal '%s' is out of the range of an f64", buf);
            uint64_t bits;
            memcpy(&bits, &d, sizeof bits);
            t->kind = PTX_TK_FLOAT;
            t->fwidth = 64;
            t->decimal = 1;
            t->ival = bits;
            advance(lx, j);
            t->len = (uint32_t)(lx->cur - start);
            return;
        }
    }
    size_t digits = 0;
    for (;; k++) {
        int c = at(lx, k);
        unsigned d;
        if (c >= '0' && c <= '9') d = (unsigned)(c - '0');
        else if (base == 16 && is_hex(c)) d = hex_val(c);
        else break;
        if (d >= base) {
            char dc[16];
            describe_char(c, dc, sizeof dc);
            ptx_lex_fail(lx, t->pos, "malformed number: %s is not a %s digit", dc,
                         base == 8 ? "octal" : "binary");
        }
        if (!acc_digit(&v, base, d)) {
            ptx_lex_fail(lx, t->pos, "integer literal does not fit in 64 bits");
        }
        digits++;
    }
    if (base == 8) digits++; /* the leading 0 */
    if (digits == 0)
        ptx_lex_fail(lx, t->pos, "malformed number: expected %s digits after '0%c'", base == 16 ? "hex" : "binary",
                     (char)c1);
    if (at(lx, k) == 'U' || at(lx, k) == 'u') k++;
    if (is_followsym(at(lx, k))) {
        char dc[16];
        describe_char(at(lx, k), dc, sizeof dc);
        ptx_lex_fail(lx, t->pos, "malformed number: unexpected %s in an integer literal", dc);
    }
    t->ival = v;
    advance(lx, k);
    t->len = (uint32_t)(lx->cur - start);
}

static ptx_tok_t lex_one(ptx_lexer_t *lx)
{
    skip_space(lx);
    ptx_tok_t t;
    memset(&t, 0, sizeof t);
    t.pos = here(lx);
    t.off = lx->cur;
    int c = at(lx, 0);
    if (c < 0) {
        t.kind = PTX_TK_EOF;
        return t;
    }
    if (c == '.') {
        size_t k = 1;
        if (!is_followsym(at(lx, 1))) ptx_lex_fail(lx, t.pos, "expected a directive or modifier name after '.'");
        while (is_followsym(at(lx, k))) k++;
        /* `::` parts: .shared::cta, .L1::no_allocate, .L2::64B */
        while (at(lx, k) == ':' && at(lx, k + 1) == ':' && is_followsym(at(lx, k + 2))) {
            k += 2;
            while (is_followsym(at(lx, k))) k++;
        }
        if (k > PTX_MAX_NAME) ptx_lex_fail(lx, t.pos, "name longer than %d characters", PTX_MAX_NAME);
        t.kind = PTX_TK_DIR;
        advance(lx, k);
        t.len = (uint32_t)k;
        return t;
    }
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '$' || c == '%') {
        size_t k = 1;
        while (is_followsym(at(lx, k))) k++;
        if (k == 1 && c == '_') {
            t.kind = PTX_TK_SINK;
            advance(lx, 1);
            t.len = 1;
            return t;
        }
        if (k == 1 && (c == '$' || c == '%'))
            ptx_lex_fail(lx, t.pos, "expected a name after '%c'", (char)c);
        if (k > PTX_MAX_NAME) ptx_lex_fail(lx, t.pos, "name longer than %d characters", PTX_MAX_NAME);
        t.kind = PTX_TK_IDENT;
        advance(lx, k);
        t.len = (uint32_t)k;
        return t;
    }
    if (c >= '0' && c <= '9') {
        lex_number(lx, &t);
        return t;
    }
    if (c == '"') {
        size_t k = 1;
        for (;;) {
            int d = at(lx, k);
            if (d < 0 || d == '\n') ptx_lex_fail(lx, t.pos, "unterminated string: expected '\"' before the end of the line");
            if (d == '\0') ptx_lex_fail(lx, t.pos, "unexpected NUL byte in a string");
            if (d == '"') break;
            if (d == '\\' && at(lx, k + 1) >= 0 && at(lx, k + 1) != '\n' && at(lx, k + 1) != '\0') k++;
            k++;
        }
        k++;
        t.kind = PTX_TK_STRING;
        advance(lx, k);
        t.len = (uint32_t)k;
        return t;
    }
    if (strchr(",;:{}()[]<>+-!@|=", c) != NULL && c != '\0') {
        t.kind = PTX_TK_PUNCT;
        t.punct = (char)c;
        advance(lx, 1);
        t.len = 1;
        return t;
    }
    char dc[16];
    describe_char(c, dc, sizeof dc);
    ptx_lex_fail(lx, t.pos, "unexpected character %s", dc);
}

const ptx_tok_t *ptx_lex_peek(ptx_lexer_t *lx, unsigned k)
{
    while (lx->nla <= k) lx->la[lx->nla++] = lex_one(lx);
    return &lx->la[k];
}

ptx_tok_t ptx_lex_next(ptx_lexer_t *lx)
{
    ptx_lex_peek(lx, 0);
    ptx_tok_t t = lx->la[0];
    memmove(&lx->la[0], &lx->la[1], (lx->nla - 1) * sizeof lx->la[0]);
    lx->nla--;
    return t;
}

size_t ptx_lex_raw_block(ptx_lexer_t *lx, ptx_pos_t open)
{
    unsigned long depth = 1;
    if (lx->nla != 0) ptx_lex_fail(lx, open, "internal error: raw scan with tokens looked ahead");
    while (lx->cur < lx->len) {
        int c = at(lx, 0);
        if (c == '\0') ptx_lex_fail(lx, here(lx), "unexpected NUL byte in a section");
        if (c == '/' && at(lx, 1) == '/') {
            /* the section is kept as text (a C string): a NUL anywhere in it would cut it short */
            while (lx->cur < lx->len && lx->src[lx->cur] != '\n') {
                if (lx->src[lx->cur] == '\0') ptx_lex_fail(lx, here(lx), "unexpected NUL byte in a section");
                advance(lx, 1);
            }
            continue;
        }
        if (c == '/' && at(lx, 1) == '*') {
            ptx_pos_t cpos = here(lx);
            advance(lx, 2);
            while (lx->cur < lx->len && !(lx->src[lx->cur] == '*' && at(lx, 1) == '/')) {
                if (lx->src[lx->cur] == '\0') ptx_lex_fail(lx, here(lx), "unexpected NUL byte in a section");
                advance(lx, 1);
            }
            if (lx->cur >= lx->len) ptx_lex_fail(lx, cpos, "unterminated comment: expected '*/' before the end of input");
            advance(lx, 2);
            continue;
        }
        if (c == '"') {
            ptx_pos_t spos = here(lx);
            advance(lx, 1);
            for (;;) {
                int d = at(lx, 0);
                if (d < 0 || d == '\n') ptx_lex_fail(lx, spos, "unterminated string: expected '\"' before the end of the line");
                if (d == '\0') ptx_lex_fail(lx, here(lx), "unexpected NUL byte in a string");
                advance(lx, 1);
                if (d == '"') break;
                if (d == '\\' && at(lx, 0) >= 0 && at(lx, 0) != '\n' && at(lx, 0) != '\0') advance(lx, 1);
            }
            continue;
        }
        advance(lx, 1);
        if (c == '{') depth++;
        else if (c == '}' && --depth == 0) return lx->cur;
    }
    ptx_lex_fail(lx, open, "unterminated section: expected '}' to close the '{' opened here before the end of input");
}

void ptx_lex_describe(const ptx_lexer_t *lx, const ptx_tok_t *t, char *buf, size_t cap)
{
    if (cap == 0) return;
    if (t->kind == PTX_TK_EOF) {
        snprintf(buf, cap, "end of input");
        return;
    }
    size_t n = 0;
    const size_t limit = 40;
    if (n + 1 < cap) buf[n++] = '\'';
    for (uint32_t i = 0; i < t->len && n + 6 < cap; i++) {
        if (i == limit) {
            if (n + 4 < cap) {
                memcpy(buf + n, "...", 3);
                n += 3;
            }
            break;
        }
        unsigned char ch = (unsigned char)lx->src[t->off + i];
        if (ch >= 0x20 && ch < 0x7f) {
            buf[n++] = (char)ch;
        } else {
            n += (size_t)snprintf(buf + n, cap - n, "\\x%02x", ch);
        }
    }
    if (n + 1 < cap) buf[n++] = '\'';
    buf[n < cap ? n : cap - 1] = '\0';
}
