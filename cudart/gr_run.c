/*
 * gr_run.c — gpuarmor-run: run an unmodified CUDA program on the emulated GPU with GPUArmor
 * (docs/emulator.md §3.6).
 *
 *   gpuarmor-run [options] [--] program [args...]
 *
 * Validates every option (the same parser as the library, gr_opts.c) and the program (found,
 * executable, and, for an ELF file, built with nvcc -cudart shared and with device code the
 * emulator can run) before anything starts; then runs the program with libcudart.so.13 from next to
 * this launcher (or $GPUARMOR_LIB) first on LD_LIBRARY_PATH, the options in GPUARMOR_ARGS and a
 * status file in GPUARMOR_STATUS, waits for it, and exits with:
 *   --error-exitcode N  when the library reported errors (the status file's counts are not 0);
 *   128 + n             when the program was killed by signal n (named on stderr);
 *   the program's own exit status otherwise (125: the runtime stopped the program);
 *   2 usage error, 126 the program cannot be run under GPUArmor, 127 program not found.
 */
#include "gr_elf.h"
#include "gr_opts.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#define EXIT_USAGE 2
#define EXIT_CANNOT_RUN 126
#define EXIT_NOT_FOUND 127

static void usage_line(FILE *f) { fputs("usage: gpuarmor-run [options] [--] program [args...]\n", f); }

static void help(void)
{
    usage_line(stdout);
    fputs("Run a CUDA program built with\n"
          "  nvcc " GR_NVCC_FLAGS " [-lineinfo]\n"
          "on an emulated sm_80 GPU with GPUArmor memory safety checks.\n\nOptions:\n",
          stdout);
    for (int i = 0; i < GR_OPT_COUNT; i++) {
        const gr_opt_info_t *o = gr_opt_info((gr_opt_id_t)i);
        char left[64];
        snprintf(left, sizeof left, "%s%s%s", o->name, o->metavar ? " " : "", o->metavar ? o->metavar : "");
        printf("  %-34s %s\n", left, o->help);
    }
    fputs("\nExit status: the program's, or --error-exitcode N when errors were reported; 128+n when the\n"
          "program was killed by signal n; 125 when the runtime stopped it (unsupported call, unusable\n"
          "device code); 2 usage error; 126 the program cannot run under GPUArmor; 127 not found.\n"
          "Environment: GPUARMOR_LIB=path of libcudart.so.13 (default: next to gpuarmor-run).\n",
          stdout);
}

static _Noreturn void die(int code, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static _Noreturn void die(int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("gpuarmor-run: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    exit(code);
}

/* An absolute form of path (relative paths are taken from the current directory), so that the
 * library opens the same file even if the program changes directory. Caller frees. */
static char *absolute(const char *path)
{
    if (path[0] == '/')
        return strdup(path);
    char cwd[PATH_MAX];
    if (!getcwd(cwd, sizeof cwd))
        return NULL;
    size_t n = strlen(cwd) + strlen(path) + 2;
    char *s = malloc(n);
    if (s)
        snprintf(s, n, "%s/%s", cwd, path);
    return s;
}

/* An output file must be creatable: its directory exists and is writable, and the file, if it
 * exists, is a writable regular file. Nothing is created here. */
static void check_out_file(const char *opt, const char *path)
{
    struct stat st;
    if (stat(path, &st) == 0) {
        if (S_ISDIR(st.st_mode))
            die(EXIT_USAGE, "%s: expected a file, got the directory '%s'", opt, path);
        if (access(path, W_OK) != 0)
            die(EXIT_USAGE, "%s: '%s' is not writable: %s", opt, path, strerror(errno));
        return;
    }
    char *dir = strdup(path);
    if (!dir)
        die(EXIT_USAGE, "out of memory");
    char *slash = strrchr(dir, '/');
    const char *d = ".";
    if (slash == dir)
        d = "/";
    else if (slash) {
        *slash = '\0';
        d = dir;
    }
    if (stat(d, &st) != 0 || !S_ISDIR(st.st_mode))
        die(EXIT_USAGE, "%s: the directory '%s' of '%s' does not exist", opt, d, path);
    if (access(d, W_OK) != 0)
        die(EXIT_USAGE, "%s: cannot create '%s': the directory '%s' is not writable", opt, path, d);
    free(dir);
}

static void check_out_dir(const char *opt, const char *path)
{
    struct stat st;
    if (stat(path, &st) != 0 || !S_ISDIR(st.st_mode))
        die(EXIT_USAGE, "%s: expected an existing directory, got '%s'", opt, path);
    if (access(path, W_OK) != 0)
        die(EXIT_USAGE, "%s: the directory '%s' is not writable", opt, path);
}

/* The program's path as execv needs it: as given when it contains a slash, else searched in PATH
 * (as execvp does). NULL when not found. Caller frees. */
static char *find_program(const char *name)
{
    if (strchr(name, '/'))
        return strdup(name);
    const char *path = getenv("PATH");
    if (!path || !*path)
        path = "/usr/local/bin:/usr/bin:/bin";
    size_t nlen = strlen(name);
    for (const char *p = path;;) {
        const char *colon = strchr(p, ':');
        size_t dlen = colon ? (size_t)(colon - p) : strlen(p);
        char *cand = malloc(dlen + nlen + 3);
        if (!cand)
            return NULL;
        if (dlen == 0)
            snprintf(cand, dlen + nlen + 3, "./%s", name);
        else
            snprintf(cand, dlen + nlen + 3, "%.*s/%s", (int)dlen, p, name);
        struct stat st;
        if (stat(cand, &st) == 0 && S_ISREG(st.st_mode) && access(cand, X_OK) == 0)
            return cand;
        free(cand);
        if (!colon)
            return NULL;
        p = colon + 1;
    }
}

/* The library: $GPUARMOR_LIB (the file, or a directory holding libcudart.so.13), else next to this
 * launcher, or with --rtl in the rtl/ directory next to it (the RTL build, `make cudart-rtl`). Returns
 * its directory and sets *file; both malloc'd. */
static char *find_library(char **file, bool rtl)
{
    const char *env = getenv(GR_LIB_ENV);
    char buf[PATH_MAX];
    char *lib;
    if (env && *env) {
        struct stat st;
        if (stat(env, &st) == 0 && S_ISDIR(st.st_mode)) {
            snprintf(buf, sizeof buf, "%s/libcudart.so.13", env);
            lib = absolute(buf);
        } else {
            const char *base = strrchr(env, '/');
            if (strcmp(base ? base + 1 : env, "libcudart.so.13") != 0)
                die(EXIT_CANNOT_RUN, GR_LIB_ENV "=%s: the library must be named libcudart.so.13 (the name programs "
                    "load)", env);
            lib = absolute(env);
        }
    } else {
        ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
        if (n <= 0)
            die(EXIT_CANNOT_RUN, "cannot find where gpuarmor-run is (/proc/self/exe): set " GR_LIB_ENV);
        buf[n] = '\0';
        char *slash = strrchr(buf, '/');
        if (slash)
            *slash = '\0';
        size_t l = strlen(buf) + 32;
        lib = malloc(l);
        if (lib)
            snprintf(lib, l, rtl ? "%s/rtl/libcudart.so.13" : "%s/libcudart.so.13", buf);
        if (lib && rtl && access(lib, R_OK) != 0)
            die(EXIT_CANNOT_RUN, "--rtl: the RTL build of the runtime %s is missing: build it with 'make cudart-rtl' "
                "(it links one Verilated MLU per simulated SM; docs/emulator.md §8)", lib);
    }
    if (!lib)
        die(EXIT_CANNOT_RUN, "out of memory");
    if (access(lib, R_OK) != 0)
        die(EXIT_CANNOT_RUN, "the GPUArmor runtime %s is missing (build it with 'make cudart', or set " GR_LIB_ENV ")",
            lib);
    char *dir = strdup(lib);
    if (!dir)
        die(EXIT_CANNOT_RUN, "out of memory");
    *strrchr(dir, '/') = '\0';
    *file = lib;
    return dir;
}

/* Prepend value to the colon-separated environment variable name. */
static void prepend_env(const char *name, const char *value)
{
    const char *old = getenv(name);
    size_t n = strlen(value) + (old ? strlen(old) : 0) + 2;
    char *s = malloc(n);
    if (!s)
        die(EXIT_CANNOT_RUN, "out of memory");
    if (old && *old)
        snprintf(s, n, "%s:%s", value, old);
    else
        snprintf(s, n, "%s", value);
    if (setenv(name, s, 1) != 0)
        die(EXIT_CANNOT_RUN, "cannot set %s", name);
    free(s);
}

static const char *signame(int sig)
{
    switch (sig) {
    case SIGSEGV: return "SIGSEGV";
    case SIGBUS: return "SIGBUS";
    case SIGABRT: return "SIGABRT";
    case SIGFPE: return "SIGFPE";
    case SIGILL: return "SIGILL";
    case SIGKILL: return "SIGKILL";
    case SIGTERM: return "SIGTERM";
    case SIGINT: return "SIGINT";
    case SIGQUIT: return "SIGQUIT";
    case SIGHUP: return "SIGHUP";
    case SIGPIPE: return "SIGPIPE";
    case SIGTRAP: return "SIGTRAP";
    case SIGALRM: return "SIGALRM";
    case SIGXCPU: return "SIGXCPU";
    default: return "signal";
    }
}

/* The errors the library processes wrote: the sum of every "errors N" line. */
static unsigned long long read_status(const char *path, bool *any)
{
    unsigned long long sum = 0, n;
    *any = false;
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    char line[128];
    while (fgets(line, sizeof line, f))
        if (sscanf(line, "errors %llu", &n) == 1) {
            sum += n;
            *any = true;
        }
    fclose(f);
    return sum;
}

int main(int argc, char **argv)
{
    gr_opts_t o;
    char msg[512];
    memset(&o, 0, sizeof o);
    if (gr_opts_parse(&o, argc, argv, 1, GR_OPTS_LAUNCHER, msg, sizeof msg) != 0) {
        fprintf(stderr, "gpuarmor-run: %s\n", msg);
        usage_line(stderr);
        return EXIT_USAGE;
    }
    if (o.help) {
        help();
        return 0;
    }
    if (o.version) {
        printf("gpuarmor-run (GPUArmor) " GR_VERSION ", replacement CUDA runtime libcudart.so.13 (CUDA 13.0 API)\n");
        return 0;
    }
    if (o.prog >= argc) {
        fputs("gpuarmor-run: expected a program to run, got none\n", stderr);
        usage_line(stderr);
        return EXIT_USAGE;
    }

    /* Output paths: checked, then made absolute for the library. */
    char *abs[4] = {NULL, NULL, NULL, NULL};
    if (o.cfg.trace_out) {
        check_out_file("--trace-out", o.cfg.trace_out);
        o.cfg.trace_out = abs[0] = absolute(o.cfg.trace_out);
    }
    if (o.cfg.json_out) {
        check_out_file("--json", o.cfg.json_out);
        o.cfg.json_out = abs[1] = absolute(o.cfg.json_out);
    }
    if (o.log_file) {
        /* "%p" becomes the process id in the library: check the name with a number in its place. */
        char probe[PATH_MAX];
        size_t k = 0;
        for (const char *p = o.log_file; *p && k + 2 < sizeof probe; p++) {
            if (p[0] == '%' && p[1] == 'p') {
                probe[k++] = '1';
                p++;
            } else {
                probe[k++] = *p;
            }
        }
        probe[k] = '\0';
        check_out_file("--log-file", probe);
        o.log_file = abs[2] = absolute(o.log_file);
    }
    if (o.cfg.ptx_dump_dir) {
        check_out_dir("--ptx-dump", o.cfg.ptx_dump_dir);
        o.cfg.ptx_dump_dir = abs[3] = absolute(o.cfg.ptx_dump_dir);
    }
    if ((o.cfg.trace_out && !abs[0]) || (o.cfg.json_out && !abs[1]) || (o.log_file && !abs[2]) ||
        (o.cfg.ptx_dump_dir && !abs[3]))
        die(EXIT_USAGE, "cannot make the output paths absolute (getcwd failed)");

    /* The program. */
    const char *name = argv[o.prog];
    char *prog = find_program(name);
    struct stat st;
    if (!prog || stat(prog, &st) != 0)
        die(EXIT_NOT_FOUND, "%s: program not found%s", name, strchr(name, '/') ? "" : " in PATH");
    if (!S_ISREG(st.st_mode) || access(prog, X_OK) != 0)
        die(EXIT_CANNOT_RUN, "%s: not an executable file", prog);
    gr_elf_info_t elf;
    if (!gr_elf_scan(prog, &elf))
        die(EXIT_CANNOT_RUN, "%s: cannot read: %s", prog, strerror(errno));
    if (elf.elf) {
        if (elf.has_fatbin && !elf.needs_cudart)
            die(EXIT_CANNOT_RUN, "%s: has device code but does not load libcudart.so.13 (%s); rebuild with nvcc "
                GR_NVCC_FLAGS, prog, elf.needs_cudart_other ? "it loads another CUDA runtime version"
                                                            : "it links the CUDA runtime statically, nvcc's default");
        if (elf.has_fatbin && elf.fb != GR_FB_OK)
            die(EXIT_CANNOT_RUN, "%s: %s", prog, elf.fb_msg);
        if (!elf.needs_cudart && !o.cfg.quiet)
            fprintf(stderr, "gpuarmor-run: note: %s does not load libcudart.so.13: nothing it runs itself will use "
                            "the emulated GPU\n", prog);
    }

    /* The environment of the program. */
    char *libfile = NULL;
    char *libdir = find_library(&libfile, o.cfg.rtl);
    prepend_env("LD_LIBRARY_PATH", libdir);
    if (elf.has_rpath)
        prepend_env("LD_PRELOAD", libfile); /* DT_RPATH is searched before LD_LIBRARY_PATH */
    int need = gr_opts_encode(&o, NULL, 0);
    if (need < 0)
        die(EXIT_USAGE, "an option value contains the byte 0x1f");
    char *args = malloc((size_t)need + 1);
    if (!args)
        die(EXIT_CANNOT_RUN, "out of memory");
    gr_opts_encode(&o, args, (size_t)need + 1);
    const char *tmpdir = getenv("TMPDIR");
    char status[PATH_MAX];
    snprintf(status, sizeof status, "%s/gpuarmor-status.XXXXXX", tmpdir && *tmpdir ? tmpdir : "/tmp");
    int sfd = mkstemp(status);
    if (sfd < 0)
        die(EXIT_CANNOT_RUN, "cannot create the status file %s: %s", status, strerror(errno));
    close(sfd);
    if (setenv(GR_ARGS_ENV, args, 1) != 0 || setenv(GR_STATUS_ENV, status, 1) != 0)
        die(EXIT_CANNOT_RUN, "cannot set the environment");

    /* Run it, ignoring the terminal's SIGINT / SIGQUIT meanwhile (they reach the program, which is in
     * our process group; we report how it ended), as system(3) does. */
    struct sigaction ign, old_int, old_quit;
    memset(&ign, 0, sizeof ign);
    ign.sa_handler = SIG_IGN;
    sigemptyset(&ign.sa_mask);
    sigaction(SIGINT, &ign, &old_int);
    sigaction(SIGQUIT, &ign, &old_quit);
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        unlink(status);
        die(EXIT_CANNOT_RUN, "fork: %s", strerror(errno));
    }
    if (pid == 0) {
        sigaction(SIGINT, &old_int, NULL);
        sigaction(SIGQUIT, &old_quit, NULL);
        execv(prog, argv + o.prog);
        fprintf(stderr, "gpuarmor-run: %s: cannot execute: %s\n", prog, strerror(errno));
        _exit(errno == ENOENT ? EXIT_NOT_FOUND : EXIT_CANNOT_RUN);
    }
    int ws = 0;
    while (waitpid(pid, &ws, 0) < 0)
        if (errno != EINTR) {
            unlink(status);
            die(EXIT_CANNOT_RUN, "waitpid: %s", strerror(errno));
        }
    bool any = false;
    unsigned long long errors = read_status(status, &any);
    unlink(status);
    int rc;
    if (WIFSIGNALED(ws)) {
        int sig = WTERMSIG(ws);
        fprintf(stderr, "gpuarmor-run: %s was killed by %s (signal %d: %s)\n", prog, signame(sig), sig, strsignal(sig));
        rc = 128 + sig;
    } else {
        rc = WIFEXITED(ws) ? WEXITSTATUS(ws) : EXIT_CANNOT_RUN;
    }
    if (!any && elf.has_fatbin && WIFEXITED(ws) && !o.cfg.quiet)
        fprintf(stderr, "gpuarmor-run: note: %s ended without the runtime's final report (_exit, or a crash "
                        "inside it?): its errors are not counted\n", prog);
    if (errors > 0 && o.error_exitcode)
        rc = (int)o.error_exitcode;
    free(args);
    free(libdir);
    free(libfile);
    free(prog);
    for (int i = 0; i < 4; i++)
        free(abs[i]);
    return rc;
}
