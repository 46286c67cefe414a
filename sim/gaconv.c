/*
 * gaconv — convert a trace (gatrace, plain or gzip, or an Accel-Sim kernelslist.g) to canonical gatrace.
 * docs/traces.md §9; the work is in sim/trace/ga_cli.c (ga_gaconv_main), shared with the tests.
 */
#include "trace/ga_cli.h"

#include <stdio.h>

int main(int argc, char **argv) { return ga_gaconv_main(argc, argv, stdout, stderr); }
