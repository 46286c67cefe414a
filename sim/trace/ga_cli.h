/*
 * ga_cli.h — the command-line front ends of the trace tools, as library functions so that tests can
 * run them in-process (sim/gasim.c and sim/gaconv.c are one-line mains around them).
 *
 * Each takes its arguments as main() does and writes its report to out and its messages to errf. It
 * writes output files only after the whole trace was read and replayed without error, through a
 * temporary file in the same directory (created with the user's umask) that is renamed at the end.
 * Returns the process exit status of ga_exit.h: 0 success; 1 bad input, a replay or I/O error; 2 a bad
 * command line (also an option given twice, an output that is also an input); 3 the RTL disagreed
 * with the model (gasim --rtl); gasim also returns N of --error-exitcode N when it found at least one
 * program error and 4 (GA_EXIT_INCOMPLETE) when --error-exitcode was given and every detection was
 * an incomplete check (docs/traces.md §10).
 */
#ifndef GA_CLI_H
#define GA_CLI_H

#include <stdio.h>

#include "../ga_exit.h"
#include "ga_backend.h"

/* gasim with the model backend only (ga_backends_model): --rtl starts the gasim-rtl of the run's
 * configuration when it is built (docs/traces.md §10). */
int ga_gasim_main(int argc, char **argv, FILE *out, FILE *errf);
/* gasim with the backends of registry backends (gasim-rtl: model and rtl): --rtl runs in-process when
 * the registry has "rtl". */
int ga_gasim_main_with(int argc, char **argv, FILE *out, FILE *errf, const ga_backend_def_t *const *backends);
int ga_gaconv_main(int argc, char **argv, FILE *out, FILE *errf);

#endif /* GA_CLI_H */
