/*
 * ga_backend_rtl_stub.c — the placeholder of the evaluation's RTL backend (ga_backend.h:
 * ga_eval_backend_rtl). Its own archive member of libgaeval.a: gaeval-rtl links the Verilator
 * lockstep backend (tb/replay/tb_backend.c) before the library and gets that one instead.
 */
#include "ga_backend.h"

#include <stdio.h>
#include <string.h>

int ga_eval_backend_rtl(ga_system_t *sys, ga_eval_backend_t *b, char *msg, size_t cap)
{
    (void)sys;
    memset(b, 0, sizeof *b);
    snprintf(msg, cap, "the RTL backend is not linked into this program: build and run gaeval-rtl "
                       "(make eval-rtl; docs/eval.md, \"Running Table 4 on the RTL\")");
    return -1;
}
