/*
 * gasim — replay a gatrace (or an Accel-Sim trace) through the GPUArmor golden model and report MLB,
 * walk, latency and storage figures and every detection. docs/traces.md §10; the work is in
 * sim/trace/ga_cli.c (ga_gasim_main_with), shared with the tests.
 *
 * The backends this program holds are chosen here, at compile time, and nowhere else: plain gasim has
 * the model backend; compiled with -DGA_WITH_RTL (mk/tb.mk's gasim-rtl, linked with the Verilator
 * lockstep backend tb/replay/tb_backend.c) it has "rtl" too (cmodel/ga_backend.h).
 */
#include "trace/ga_cli.h"

#include <stdio.h>

#ifdef GA_WITH_RTL
static const ga_backend_def_t *const backends[] = {&ga_backend_model_def, &ga_backend_rtl_def, NULL};
#else
static const ga_backend_def_t *const *const backends = ga_backends_model;
#endif

int main(int argc, char **argv) { return ga_gasim_main_with(argc, argv, stdout, stderr, backends); }
