/*
 * ga_rtl_stub.c — the RTL lockstep backend's placeholder (ga_replay.h: ga_backend_rtl).
 *
 * This file is its own archive member of libgatrace.a and defines nothing else, so a program that
 * links an object defining ga_backend_rtl (tb/replay/tb_backend.c, in gasim-rtl: mk/tb.mk) before
 * libgatrace.a gets that one, and every other program gets this one, which refuses with a message that
 * says what to build.
 */
#include "ga_replay.h"

#include <stdio.h>
#include <string.h>

/* The placeholder: always -1 with the "not built yet" message (ga_replay.h). */
int ga_backend_rtl(ga_backend_t *b, ga_system_t *sys, ga_trace_err_t *err)
{
    (void)sys;
    memset(b, 0, sizeof *b);
    snprintf(err->msg, sizeof err->msg,
             "--rtl: the RTL replay backend is not built yet into this program (no Verilator model "
             "linked in): run 'make verilate' or 'make gasim-rtl' and use build/cosim/t7_m8_l32/gasim-rtl "
             "(docs/traces.md §10); replay without --rtl uses the C golden model");
    return -1;
}
