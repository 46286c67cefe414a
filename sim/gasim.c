/*
 * gasim — replay a gatrace (or an Accel-Sim trace) through the GPUArmor golden model and report MLB,
 * walk, latency and storage figures and every detection. docs/traces.md §10; the work is in
 * sim/trace/ga_cli.c (ga_gasim_main), shared with the tests.
 */
#include "trace/ga_cli.h"

#include <stdio.h>

int main(int argc, char **argv) { return ga_gasim_main(argc, argv, stdout, stderr); }
