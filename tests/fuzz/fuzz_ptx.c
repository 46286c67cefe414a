/*
 * fuzz_ptx.c — libFuzzer target for the PTX front end (ptx_parse, ptx_print, the IR helpers).
 *
 * For every input: parse it. A rejected input must come with a one-line message that starts with the
 * input's name and a position. An accepted one must pass ptx_module_validate, answer the def/use
 * helpers and ptx_format_insn for every instruction without going out of range, print, parse again
 * and print exactly the same text (the printer's fixed point). Any failure calls abort(), which
 * libFuzzer reports as a crash; ASan and UBSan catch memory and undefined-behaviour errors.
 */
#include "ptx_ir.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The helpers must stay inside the function's tables for every instruction. */
static void check_helpers(const ptx_module_t *m)
{
    char buf[256];
    for (uint32_t fi = 0; fi < m->nfuncs; fi++) {
        const ptx_func_t *f = &m->funcs[fi];
        for (uint32_t i = 0; i < f->ninsns; i++) {
            const ptx_insn_t *in = &f->insns[i];
            uint32_t r[16];
            unsigned n = ptx_insn_defs(in, f, r, 16);
            if (n > 16) abort();
            for (unsigned k = 0; k < n; k++)
                if (r[k] >= f->nregs || !ptx_insn_writes(in, f, r[k])) abort();
            n = ptx_insn_uses(in, f, r, 16);
            if (n > 16) abort();
            for (unsigned k = 0; k < n; k++)
                if (r[k] >= f->nregs) abort();
            int a = ptx_insn_addr_op(in);
            if (a >= 0 && (a >= in->nops || in->ops[a].kind != PTX_OPK_ADDR)) abort();
            (void)ptx_insn_access_bytes(in);
            (void)ptx_insn_space(in);
            ptx_type_t t[3];
            if (ptx_insn_types(in, t) > 3) abort();
            int len = ptx_format_insn(m, f, in, buf, sizeof buf);
            if (len < 0 || strlen(buf) != ((size_t)len < sizeof buf ? (size_t)len : sizeof buf - 1)) abort();
        }
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    ptx_err_t err;
    ptx_module_t *m = ptx_parse("fuzz.ptx", (const char *)data, size, &err);
    if (m == NULL) {
        /* every rejection names the input and says why, on one line */
        if (strncmp(err.msg, "fuzz.ptx:", 9) != 0 || strchr(err.msg, '\n') != NULL || strlen(err.msg) < 12) abort();
        return 0;
    }
    if (ptx_module_validate(m, &err) != 0) abort();
    check_helpers(m);
    size_t n1, n2;
    char *s1 = ptx_print_str(m, &n1);
    if (s1 == NULL) abort();
    ptx_module_t *m2 = ptx_parse("printed.ptx", s1, n1, &err);
    if (m2 == NULL) abort(); /* the printed form of an accepted module must parse */
    if (ptx_module_validate(m2, &err) != 0) abort();
    char *s2 = ptx_print_str(m2, &n2);
    if (s2 == NULL || n1 != n2 || memcmp(s1, s2, n1) != 0) abort(); /* and print identically */
    free(s1);
    free(s2);
    ptx_module_free(m);
    ptx_module_free(m2);
    return 0;
}
