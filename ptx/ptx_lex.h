/*
 * ptx_lex.h — the PTX tokenizer shared by the parser (ptx_parse.c); internal to libgaptx.
 *
 * Tokens are produced on demand with up to PTX_LEX_LOOKAHEAD tokens of lookahead, so the parser can
 * switch to raw scanning for `.section { ... }` blocks (ptx_lex_raw_block). A lexical error (a bad
 * character, an unterminated comment or string, a malformed or out-of-range number, an over-long
 * name) formats "name:line:col: message" into the error record and longjmps to the parser's
 * recovery point: no token is ever half-made.
 */
#ifndef PTX_LEX_H
#define PTX_LEX_H

#include <setjmp.h>
#include <stdarg.h>

#include "ptx_ir.h"

/* Longest identifier or directive accepted (the brief's limit; ptxas has none documented). */
#define PTX_MAX_NAME 1024
#define PTX_LEX_LOOKAHEAD 4

typedef enum {
    PTX_TK_EOF = 0,
    PTX_TK_IDENT,  /* `%r1`, `_Z4polyf`, `$L__BB0_2`, `sm_80` (text: the name) */
    PTX_TK_DIR,    /* `.u32`, `.entry`, `.shared::cta`, `.L1::no_allocate` (text: with the dot) */
    PTX_TK_INT,    /* integer literal: ival is its (unsigned 64-bit) value, never negative */
    PTX_TK_FLOAT,  /* 0fXXXXXXXX (fwidth 32), 0dXXXXXXXXXXXXXXXX or decimal (fwidth 64): ival = bits */
    PTX_TK_STRING, /* "..." (text: with the quotes, escapes as written) */
    PTX_TK_SINK,   /* `_` */
    PTX_TK_PUNCT   /* one of , ; : { } ( ) [ ] < > + - ! @ | = (punct) */
} ptx_tkind_t;

typedef struct {
    uint8_t kind;    /* ptx_tkind_t */
    char punct;      /* PUNCT: the character */
    uint8_t fwidth;  /* FLOAT: 32 or 64 */
    uint8_t decimal; /* FLOAT: written as a decimal literal (`1.5`, `2e3`) */
    uint32_t len;    /* bytes of source text */
    size_t off;      /* offset of the text in the source */
    uint64_t ival;   /* INT value, FLOAT bits */
    ptx_pos_t pos;
} ptx_tok_t;

typedef struct {
    const char *src;
    size_t len, cur;
    uint32_t line, col;          /* of src[cur] */
    ptx_tok_t la[PTX_LEX_LOOKAHEAD];
    unsigned nla;
    const char *name;            /* for messages */
    ptx_err_t *err;              /* may be NULL */
    jmp_buf *jb;                 /* where errors go */
} ptx_lexer_t;

void ptx_lex_init(ptx_lexer_t *lx, const char *name, const char *src, size_t len, ptx_err_t *err,
                  jmp_buf *jb);

/* The k-th token ahead (0: the next one), k < PTX_LEX_LOOKAHEAD. */
const ptx_tok_t *ptx_lex_peek(ptx_lexer_t *lx, unsigned k);
/* Consume and return the next token. */
ptx_tok_t ptx_lex_next(ptx_lexer_t *lx);

/* With no token looked ahead, scan raw text from the current position up to and including the '}'
 * that balances an already consumed '{' (nested braces counted; comments and strings skipped).
 * Returns the offset just past that '}'. Errors: end of input first (reported at open), a NUL byte. */
size_t ptx_lex_raw_block(ptx_lexer_t *lx, ptx_pos_t open);

/* Format "name:line:col: message" (pos 0/0: "name: message") into the error record and longjmp. */
_Noreturn void ptx_lex_fail(ptx_lexer_t *lx, ptx_pos_t pos, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
_Noreturn void ptx_lex_vfail(ptx_lexer_t *lx, ptx_pos_t pos, const char *fmt, va_list ap)
    __attribute__((format(printf, 3, 0)));

/* A token as quoted in messages: `'text'` (at most 40 characters, non-printable bytes as \xNN) or
 * `end of input`. */
void ptx_lex_describe(const ptx_lexer_t *lx, const ptx_tok_t *t, char *buf, size_t cap);

/* True when t is the punctuation character c. */
static inline int ptx_tok_is(const ptx_tok_t *t, char c) { return t->kind == PTX_TK_PUNCT && t->punct == c; }

#endif /* PTX_LEX_H */
