/*
 * ga_rtl_stub.c — the RTL lockstep backend's placeholder (ga_replay.h: ga_backend_rtl).
 *
 * This file is its own archive member of libgatrace.a, so a program that links an object defining
 * ga_backend_rtl (tb/replay/tb_backend.c in gasim-rtl, mk/tb.mk; fpga/host/gab_replay.c in gaprobe)
 * before libgatrace.a gets that one, and every other program gets this one, which refuses with a
 * message naming the make target that builds the real one. ga_rtl_stub_marker lives here too: the
 * replay references it weakly (ga_backend_rtl_is_stub), which tells a program which one it holds
 * without pulling this member in.
 */
#include "ga_replay.h"

#include <stdio.h>
#include <string.h>

/* See ga_replay.h. */
void ga_rtl_stub_marker(void) {}

/* The placeholder: always -1 with the "not built into this program" message (ga_replay.h). The
 * configuration named is the one the run needs (gasim --rtl starts the right binary by itself when
 * it has been built: docs/traces.md §10). */
int ga_backend_rtl(ga_backend_t *b, ga_system_t *sys, ga_trace_err_t *err)
{
    unsigned tb = sys ? sys->cfg.rt.tag_bits : 7u, mlb = sys ? sys->cfg.mlb_entries : 8u;
    memset(b, 0, sizeof *b);
    snprintf(err->msg, sizeof err->msg,
             "no RTL backend is linked into this program: the Verilator lockstep backend "
             "(tb/replay/tb_backend.c) is linked into build/cosim/t%u_m%u_l32/gasim-rtl, which 'make gasim-rtl "
             "RTL_CFG=t%u_m%u_l32' builds (docs/traces.md §10.4); without the RTL the C golden model runs",
             tb, mlb, tb, mlb);
    return -1;
}
