/*
 * ga_rtl_stub.c — the RTL lockstep backend's placeholder (ga_replay.h: ga_backend_rtl).
 *
 * This file is its own archive member of libgatrace.a and defines nothing else, so a program that
 * links an object defining ga_backend_rtl (the Verilator replay library of tb/, once it exists) before
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
             "--rtl: the RTL replay backend is not built yet (this program has no Verilator model "
             "linked in): run 'make verilate' and link the co-simulation's replay backend "
             "(docs/traces.md §10); replay without --rtl uses the C golden model");
    return -1;
}
