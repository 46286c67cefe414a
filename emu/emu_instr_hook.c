/*
 * emu_instr_hook.c — compiler mode's instrumentation of a loaded module (emu_instr_hook.h): the pass of
 * ptx/ptx_instr.h, run in place on the parsed module, as if the program had been compiled with it.
 */
#include "emu_instr_hook.h"

#include "ptx_instr.h"

#include <stdio.h>
#include <string.h>

int emu_instrument_module(ptx_module_t *m, char *msg, size_t cap)
{
    ptx_err_t err;
    memset(&err, 0, sizeof err);
    if (ptx_instrument(m, NULL, &err) != 0) {
        if (msg && cap) snprintf(msg, cap, "%s", err.msg);
        return -1;
    }
    return 0;
}
