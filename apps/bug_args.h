// bug_args.h — the optional NAME=VALUE parameters of the bug programs (sizes, offsets, launch shapes),
// so that the evaluation can run several variants of each bug (apps/variants.tsv; docs/eval.md,
// "Table 4 from real bugs"). Correct programs take no arguments (app.h's app_args); a bug program run
// without arguments behaves exactly as its manifest row describes, because every parameter's default
// is the value the program had before it took parameters.
//
// A parameter is written NAME=VALUE with VALUE a C integer literal (decimal, 0x hex, or 0 octal,
// optionally negative). `-h` or `--help` prints the program's parameters and exits 0; an unknown name,
// a malformed or out-of-range value, or a name given twice prints one line saying which and exits 2,
// like every usage error of the project. A program may reject a combination of values that would no
// longer commit its bug (e.g. an overflow that no longer leaves the array) the same way, with
// bug_usage_error().
#ifndef GA_APPS_BUG_ARGS_H
#define GA_APPS_BUG_ARGS_H

#include <cerrno>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#ifndef APP_NAME
#error "define APP_NAME before including bug_args.h"
#endif

// One parameter: its name, where its value goes (holding the default on entry), the inclusive range of
// legal values and one line saying what it sets (printed by --help).
struct BugParam {
    const char *name;
    long long *value;
    long long lo, hi;
    const char *what;
};

// Prints the parameter list (name, default, range, meaning) to f.
static inline void bug_print_params(FILE *f, const BugParam *ps, int n)
{
    std::fprintf(f, "usage: %s [NAME=VALUE ...]   (no argument: the manifest's default run)\n", APP_NAME);
    for (int i = 0; i < n; ++i)
        std::fprintf(f, "  %-12s default %lld, %lld .. %lld: %s\n", ps[i].name, *ps[i].value, ps[i].lo, ps[i].hi,
                     ps[i].what);
}

// A usage error found after parsing (a combination of values that no longer commits the bug): prints
// "<name>: <message>" on stderr and exits 2.
[[noreturn]] static inline void bug_usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
[[noreturn]] static inline void bug_usage_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    std::fprintf(stderr, "%s: ", APP_NAME);
    std::vfprintf(stderr, fmt, ap);
    std::fprintf(stderr, " (--help lists the parameters)\n");
    va_end(ap);
    std::exit(2);
}

// Parses argv[1..argc) as NAME=VALUE pairs into ps[0..n) (see the file comment for the rules).
static inline void bug_params(int argc, char **argv, BugParam *ps, int n)
{
    bool seen[32] = {false};
    if (n > 32)
        bug_usage_error("internal: more than 32 parameters");
    for (int a = 1; a < argc; ++a) {
        const char *arg = argv[a];
        if (std::strcmp(arg, "-h") == 0 || std::strcmp(arg, "--help") == 0) {
            bug_print_params(stdout, ps, n);
            std::exit(0);
        }
        const char *eq = std::strchr(arg, '=');
        if (eq == nullptr || eq == arg)
            bug_usage_error("expected NAME=VALUE, got '%s'", arg);
        int k = -1;
        for (int i = 0; i < n; ++i)
            if (std::strlen(ps[i].name) == (size_t)(eq - arg) && std::strncmp(ps[i].name, arg, eq - arg) == 0)
                k = i;
        if (k < 0)
            bug_usage_error("unknown parameter '%.*s'", (int)(eq - arg), arg);
        if (seen[k])
            bug_usage_error("parameter '%s' given twice", ps[k].name);
        seen[k] = true;
        char *end = nullptr;
        errno = 0;
        long long v = std::strtoll(eq + 1, &end, 0);
        if (errno != 0 || end == eq + 1 || *end != '\0')
            bug_usage_error("%s: expected an integer, got '%s'", ps[k].name, eq + 1);
        if (v < ps[k].lo || v > ps[k].hi)
            bug_usage_error("%s=%lld is outside %lld .. %lld", ps[k].name, v, ps[k].lo, ps[k].hi);
        *ps[k].value = v;
    }
}

// The low 48 address bits of a device pointer: the upper bits may carry a GPUArmor tag (7 or 16
// bits, docs/spec.md §1), which differs between allocations by design; 48 bits hold every address of
// the runtime's heap (docs/spec.md §7.1) under both tag widths.
static inline unsigned long long bug_va(const void *p)
{
    return (unsigned long long)(uintptr_t)p & ((1ull << 48) - 1);
}

#endif // GA_APPS_BUG_ARGS_H
