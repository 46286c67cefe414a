/*
 * gr_opts.h — the options of gpuarmor-run, parsed by the launcher (from its command line) and by
 * libcudart.so.13 (from the environment variable GPUARMOR_ARGS) with the same code, so that both
 * accept exactly the same values (docs/emulator.md §3.6).
 *
 * The launcher validates everything before the program starts, then hands the library a canonical
 * form: every option the user gave, as "--name" and its value as separate items, joined by the byte
 * 0x1f (ASCII unit separator; refused inside any value, so the split is exact). The library parses
 * that with gr_opts_parse in GR_OPTS_LIBRARY mode. Pure functions: no globals, no I/O.
 */
#ifndef GR_OPTS_H
#define GR_OPTS_H

#include "emu.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define GR_VERSION "0.1"
#define GR_ARGS_SEP '\x1f'
#define GR_ARGS_ENV "GPUARMOR_ARGS"
#define GR_STATUS_ENV "GPUARMOR_STATUS"
#define GR_LIB_ENV "GPUARMOR_LIB"

/* Every option; the order is the order of --help and of the canonical form. */
typedef enum {
    GR_OPT_MODE,
    GR_OPT_LAYOUT,
    GR_OPT_MLB,
    GR_OPT_TAG_BITS,
    GR_OPT_POLICY,
    GR_OPT_SEED,
    GR_OPT_SMS,
    GR_OPT_STEP_LIMIT,
    GR_OPT_MAX_INSNS,
    GR_OPT_STACK_SIZE,
    GR_OPT_TAG_NEIGHBOUR,
    GR_OPT_TAG_QUARANTINE,
    GR_OPT_RTL,
    GR_OPT_TRACE_OUT,
    GR_OPT_ERROR_EXITCODE,
    GR_OPT_LOG_FILE,
    GR_OPT_PRINT_LIMIT,
    GR_OPT_JSON,
    GR_OPT_PTX_DUMP,
    GR_OPT_QUIET,
    GR_OPT_HELP,
    GR_OPT_VERSION,
    GR_OPT_COUNT
} gr_opt_id_t;

typedef struct {
    const char *name;    /* "--mlb" */
    const char *metavar; /* "N"; NULL for a flag */
    const char *help;    /* one line for --help */
} gr_opt_info_t;

/* The table entry of an option; NULL for an id outside [0, GR_OPT_COUNT). */
const gr_opt_info_t *gr_opt_info(gr_opt_id_t id);

typedef struct {
    emu_cfg_t cfg;           /* initialised by the caller (emu_default_cfg); options overwrite fields.
                                String fields point into the parsed argv. cfg.log is never set here:
                                the library opens log_file. */
    const char *log_file;    /* --log-file FILE, NULL if not given ("%p" is the process id) */
    unsigned error_exitcode; /* --error-exitcode N (1..255); 0 if not given */
    bool help, version;      /* --help, --version (launcher only) */
    uint32_t set;            /* bit (1 << id) for every option given */
    int prog;                /* GR_OPTS_LAUNCHER: argv index of the program (after the options and
                                an optional "--"); argc when none was given */
} gr_opts_t;

typedef enum {
    GR_OPTS_LAUNCHER, /* options until the first argument that is not one, or "--" */
    GR_OPTS_LIBRARY   /* every item is an option; --help / --version are refused */
} gr_opts_mode_t;

/* Parse argv[first .. argc). Each option is "--name value", "--name=value" or, for a flag, "--name"
 * (a flag given "=value" is refused). A later occurrence overrides an earlier one. Values:
 *   --mode compiler|hwonly|off        --layout list|bst|table|index --policy report|terminate
 *   --mlb 1..64   --tag-bits 7|16     --sms 1..GA_SYSTEM_MAX_SMS   --seed 0..2^64-1
 *   --step-limit 1..2^32-1            --max-instructions 0..2^64-1 (0: unlimited)
 *   --stack-size 16..2^32-1 bytes, optionally with a K or M suffix (x 1024, x 1024^2)
 *   --tag-quarantine 0..GA_RT_QUARANTINE_MAX   --print-limit 0..2^32-1 (0: unlimited)
 *   --error-exitcode 1..255           --trace-out / --log-file / --json / --ptx-dump: non-empty
 *   --tag-neighbour-distinct, --rtl, --quiet, --help, --version: flags
 * Integers are decimal or 0x-hexadecimal, without sign, spaces or trailing characters. A value
 * containing the byte 0x1f is refused (it separates the items of GPUARMOR_ARGS).
 * Returns 0, or 2 (a usage error) with msg[cap] = one line naming the option, what was expected and
 * what was given ("--mlb: expected an integer in 1..64, got '65'"); on error *o keeps what was parsed
 * before the bad item and must not be used. o->cfg must be initialised before the call. In launcher
 * mode a missing program is not an error here (o->prog == argc): the launcher decides. */
int gr_opts_parse(gr_opts_t *o, int argc, char *const argv[], int first, gr_opts_mode_t mode, char *msg,
                  size_t cap);

/* The canonical form of the options set in o (bit in o->set), except --help and --version: items
 * "--name" and value joined by GR_ARGS_SEP, in gr_opt_id_t order, values printed from o (integers in
 * decimal, so parsing the result gives the same o->cfg). Writes at most cap bytes including the NUL;
 * returns the length the full string needs (as snprintf), or -1 if a string value contains
 * GR_ARGS_SEP. */
int gr_opts_encode(const gr_opts_t *o, char *buf, size_t cap);

/* Split s at GR_ARGS_SEP into at most max items, written to argv as pointers into buf (a copy of s
 * of bufcap bytes). Returns the item count, or -1 if buf is too small or there are more than max
 * items. The empty string gives 0 items. */
int gr_opts_split(const char *s, char *buf, size_t bufcap, char **argv, int max);

#endif /* GR_OPTS_H */
