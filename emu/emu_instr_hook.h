/*
 * emu_instr_hook.h — the one place where the emulator calls the compiler pass (ptx/ptx_instr.h):
 * instrument a parsed module in place for compiler mode (docs/compiler.md, docs/emulator.md §4.1).
 */
#ifndef EMU_INSTR_HOOK_H
#define EMU_INSTR_HOOK_H

#include "ptx_ir.h"

#include <stddef.h>

/* Instrument m in place (LOADMETA / MEMCHECK.G / MEMCHECK.S as calls of the __ga_* functions).
 * Returns 0, or -1 with msg[cap] = "file:line:col: why". */
int emu_instrument_module(ptx_module_t *m, char *msg, size_t cap);

#endif /* EMU_INSTR_HOOK_H */
