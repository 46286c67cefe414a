/*
 * gr_backends.c — the backends this runtime library holds (cmodel/ga_backend.h), chosen at compile
 * time: the plain library (mk/cudart.mk) has the model only (NULL: the emulator's default registry);
 * compiled with -DGA_WITH_RTL for the RTL library (mk/emu.mk: make cudart-rtl), which also links the
 * Verilator lockstep backend tb/replay/tb_backend.c, it has "rtl" too, so gpuarmor-run --rtl works
 * there and is refused by name everywhere else. Exactly one of the two objects is linked into each
 * library.
 */
#include "gr_rt.h"

#ifdef GA_WITH_RTL
static const ga_backend_def_t *const backends[] = {&ga_backend_model_def, &ga_backend_rtl_def, NULL};
const ga_backend_def_t *const *gr_backends(void) { return backends; }
#else
const ga_backend_def_t *const *gr_backends(void) { return NULL; }
#endif
