/*
 * fuzz_emu.c — libFuzzer target for the PTX interpreter (docs/emulator.md): arbitrary bytes are loaded
 * as a module (parse, compiler-mode instrumentation or not, decode) and, when the module loads, every
 * kernel is launched once on one block of 32..64 threads with zeroed parameters under a small
 * instruction budget, in a mode picked from a hash of the input. Whatever the input, the interpreter
 * must refuse it with a message or run it to a status (a launch may fail: wild pointers, traps,
 * deadlocks, hangs are all reported conditions), never crash, hang or touch memory it does not own
 * (ASan + UBSan).
 */
#include "emu.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static uint64_t hash_bytes(const uint8_t *d, size_t n)
{
    uint64_t h = UINT64_C(1469598103934665603);
    for (size_t i = 0; i < n; i++) h = (h ^ d[i]) * UINT64_C(1099511628211);
    return h;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static FILE *sink;
    if (sink == NULL) sink = fopen("/dev/null", "w");
    uint64_t h = hash_bytes(data, size);
    emu_cfg_t c;
    emu_default_cfg(&c);
    c.armor = (emu_armor_t)(h % 3);
    c.layout = (ga_layout_t)((h >> 2) % 3);
    c.sms = 1 + (unsigned)((h >> 4) % 2);
    c.max_instructions = 20000;
    c.stack_bytes = 4096;
    c.log = sink;
    c.quiet = true;
    c.md_capacity = 4096; /* a small metadata region: device creation stays cheap per input */
    emu_dev_t *d;
    char msg[512];
    if (emu_create(&c, &d, msg, sizeof msg) != EMU_OK) abort();
    emu_module_t *m;
    if (emu_module_load(d, "fuzz.ptx", (const char *)data, size, &m, msg, sizeof msg) == EMU_OK) {
        /* every kernel (at most 4): parameters of the declared sizes, all zero, then one launch */
        unsigned nk = emu_module_nkernels(m);
        for (unsigned ki = 0; ki < nk && ki < 4; ki++) {
            emu_kernel_t *k = emu_module_kernel(m, ki);
            unsigned np = emu_kernel_nparams(k);
            void **args = calloc(np + 1, sizeof *args);
            uint8_t *zeros = calloc(np + 1, 256);
            bool ok = args && zeros;
            for (unsigned i = 0; ok && i < np; i++) {
                uint32_t sz, al;
                emu_kernel_param(k, i, &sz, &al);
                if (sz > 256) ok = false;
                args[i] = zeros + (size_t)i * 256;
            }
            if (ok) {
                emu_dim3_t grid = {1, 1, 1}, block = {32u + (unsigned)((h >> 8) % 33), 1, 1};
                (void)emu_launch(d, k, grid, block, (h >> 16) % 2 ? 256 : 0, args, msg, sizeof msg);
                emu_clear_sticky(d);
            }
            free(args);
            free(zeros);
        }
    }
    emu_destroy(d);
    return 0;
}
