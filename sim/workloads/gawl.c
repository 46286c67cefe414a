/*
 * gawl — the synthetic workload stand-ins (docs/workloads.md) as tables and as gatrace files.
 *
 *   gawl list                                   one line per workload: its targets
 *   gawl stats  [--scale X] [--seed N] [--sms N]          what each stream contains (CSV on stdout)
 *   gawl trace  NAME|all [--scale X] [--seed N] [--sms N] [--out DIR] [--verify]
 *
 * `trace` writes DIR/NAME.gatrace in the format of docs/traces.md (version 2, auto addresses):
 * ALLOC -> alloc, FREE -> free, KERNEL/END -> kernel/end, LOADMETA -> loadmeta with root aID+off,
 * GLOBAL -> ld/st with root=aID+off (an ADDRESS root is written as the access's lane-0 address, the
 * pointer the coalesced LOADMETA uses) and lanes "stride aID+off SIZE", SHARED -> lds/sts with a
 * strided lane list. Records are formatted by the trace library's writer (ga_trace_write_event).
 * --verify reads every file back with the trace parser and checks that it holds as many records as
 * were written. Exit status 0, 1 on an error, 2 for a bad command line.
 */
#include "ga_workloads.h"
#include "trace/ga_trace.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

typedef struct {
    FILE *f;
    uint64_t records;
} tw_t;

static ga_tptr_t aptr(uint32_t id, uint64_t off)
{
    ga_tptr_t p;
    memset(&p, 0, sizeof p);
    p.is_alloc = true;
    p.slot = id;
    p.id = id;
    p.off = off;
    return p;
}

/* One workload event as one gatrace record. */
static int write_ev(void *ctx, const ga_wev_t *ev)
{
    tw_t *t = ctx;
    ga_tev_t r;
    memset(&r, 0, sizeof r);
    switch (ev->kind) {
    case GA_WEV_ALLOC:
        r.kind = GA_TEV_ALLOC;
        r.id = ev->id;
        r.bytes = ev->bytes;
        break;
    case GA_WEV_FREE:
        r.kind = GA_TEV_FREE;
        r.id = ev->id;
        break;
    case GA_WEV_KERNEL:
        r.kind = GA_TEV_KERNEL;
        snprintf(r.name, sizeof r.name, "%s", ev->name);
        break;
    case GA_WEV_END:
        r.kind = GA_TEV_END;
        break;
    case GA_WEV_LOADMETA:
        r.kind = GA_TEV_LOADMETA;
        r.sm = ev->sm;
        r.warp = ev->warp;
        r.root = aptr(ev->id, ev->root_off);
        break;
    case GA_WEV_GLOBAL:
        r.kind = ev->store ? GA_TEV_ST : GA_TEV_LD;
        r.sm = ev->sm;
        r.warp = ev->warp;
        r.size = ev->size;
        r.mask = ev->mask;
        r.root_kind = GA_ROOT_PTR;
        r.root = aptr(ev->id, ev->root == GA_WL_ROOT_ADDRESS ? ev->off : ev->root_off);
        r.strided = true;
        r.stride = (int64_t)ev->size;
        r.lane[0] = aptr(ev->id, ev->off);
        break;
    case GA_WEV_SHARED:
        r.kind = ev->store ? GA_TEV_STS : GA_TEV_LDS;
        r.sm = ev->sm;
        r.warp = ev->warp;
        r.size = ev->size;
        r.mask = ev->mask;
        r.sbase = ev->sbase;
        r.ssize = ev->ssize;
        r.strided = true;
        r.stride = (int64_t)ev->size;
        r.lane[0].off = ev->saddr;
        break;
    default:
        return 1;
    }
    if (ga_trace_write_event(t->f, &r) != 0) return 1;
    t->records++;
    return 0;
}

static int verify(const char *path, uint64_t expect)
{
    ga_trace_reader_t *r;
    ga_trace_err_t err;
    if (ga_trace_open(&r, path, &err) != 0) {
        fprintf(stderr, "gawl: %s\n", err.msg);
        return -1;
    }
    ga_tev_t ev;
    int rc;
    uint64_t n = 0;
    while ((rc = ga_trace_next(r, &ev, &err)) > 0) n++;
    ga_trace_close(r);
    if (rc < 0) {
        fprintf(stderr, "gawl: %s\n", err.msg);
        return -1;
    }
    if (n != expect) {
        fprintf(stderr, "gawl: %s: %" PRIu64 " records read back, %" PRIu64 " written\n", path, n, expect);
        return -1;
    }
    return 0;
}

static int trace_one(const ga_wl_spec_t *s, const ga_wl_opts_t *o, const char *dir, bool check)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s.gatrace", dir, s->name);
    tw_t t = {fopen(path, "w"), 0};
    if (t.f == NULL) {
        fprintf(stderr, "gawl: cannot write %s: %s\n", path, strerror(errno));
        return -1;
    }
    fprintf(t.f, "# %s: synthetic stand-in built from the GPUArmor paper's published statistics, not the real\n"
                 "# application (docs/workloads.md). gawl, scale %g, seed %" PRIu64 ", %u SMs.\n",
            s->name, o->scale, o->seed, o->sms);
    ga_trace_header_t h = {.version = GA_TRACE_VERSION, .sms = o->sms, .fixed = false};
    int rc = ga_trace_write_header(t.f, &h);
    ga_wl_summary_t sum;
    if (rc == 0) rc = ga_wl_generate(s, o, write_ev, &t, &sum);
    if (rc == 0) rc = ga_trace_write_end(t.f); /* version 2: a complete trace ends with eof */
    if (fclose(t.f) != 0) rc = -1;
    if (rc != 0) {
        fprintf(stderr, "gawl: %s: could not write the trace\n", path);
        return -1;
    }
    printf("%s: %" PRIu64 " records, %" PRIu64 " global and %" PRIu64 " shared accesses\n", path, t.records,
           sum.global, sum.shared);
    return check ? verify(path, t.records) : 0;
}

static void usage(FILE *f)
{
    fprintf(f, "usage: gawl list\n"
               "       gawl stats [--scale X] [--seed N] [--sms N]\n"
               "       gawl trace NAME|all [--scale X] [--seed N] [--sms N] [--out DIR] [--verify]\n"
               "  defaults: scale 1e-4, seed 1, 8 SMs, out build/workloads\n");
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    const char *cmd = argv[1], *name = NULL, *out = "build/workloads";
    ga_wl_opts_t o = {1e-4, 1, 8};
    bool check = false;
    int i = 2;
    if (strcmp(cmd, "trace") == 0) {
        if (argc < 3) {
            usage(stderr);
            return 2;
        }
        name = argv[i++];
    }
    for (; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--verify") == 0) {
            check = true;
            continue;
        }
        if (i + 1 >= argc) {
            usage(stderr);
            return 2;
        }
        const char *v = argv[++i];
        char *end;
        errno = 0;
        if (strcmp(a, "--scale") == 0) {
            o.scale = strtod(v, &end);
            if (*end != '\0' || !(o.scale > 0.0) || o.scale > 1.0) {
                fprintf(stderr, "gawl: bad --scale '%s'\n", v);
                return 2;
            }
        } else if (strcmp(a, "--seed") == 0) {
            o.seed = strtoull(v, &end, 0);
            if (*end != '\0' || errno || v[0] == '-') {
                fprintf(stderr, "gawl: bad --seed '%s'\n", v);
                return 2;
            }
        } else if (strcmp(a, "--sms") == 0) {
            unsigned long n = strtoul(v, &end, 0);
            if (*end != '\0' || errno || n < 1u || n > 65535u) {
                fprintf(stderr, "gawl: bad --sms '%s'\n", v);
                return 2;
            }
            o.sms = (unsigned)n;
        } else if (strcmp(a, "--out") == 0) {
            out = v;
        } else {
            usage(stderr);
            return 2;
        }
    }
    size_t n;
    const ga_wl_spec_t *s = ga_wl_specs(&n);
    if (strcmp(cmd, "list") == 0) {
        printf("%-13s %-8s %8s %7s %11s %11s %5s %3s %7s\n", "workload", "group", "instr_M", "allocs",
               "footprint", "median_B", "temps", "ws", "kernels");
        for (size_t k = 0; k < n; k++)
            printf("%-13s %-8s %8.0f %7u %8.0f MiB %11" PRIu64 " %5u %3u %7u\n", s[k].name,
                   s[k].group == GA_WL_TABLE2 ? "table2" : "broader", s[k].instr_m, s[k].allocs,
                   s[k].footprint_mib, s[k].median, s[k].temps, s[k].ws, s[k].kernels);
        return 0;
    }
    if (strcmp(cmd, "stats") == 0) {
        printf("workload,allocs,footprint,median,max_size,live_max,ws_max,instr,global,shared,loadmeta,warps\n");
        for (size_t k = 0; k < n; k++) {
            ga_wl_summary_t m;
            if (ga_wl_generate(&s[k], &o, NULL, NULL, &m) != 0) return 1;
            printf("%s,%u,%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%u,%u,%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64
                   ",%" PRIu64 "\n",
                   s[k].name, m.allocs, m.footprint, m.median, m.max_size, m.live_max, m.ws_max, m.instr, m.global,
                   m.shared, m.loadmeta, m.warps);
        }
        return 0;
    }
    if (strcmp(cmd, "trace") == 0) {
        mkdir(out, 0777); /* may exist */
        int bad = 0;
        for (size_t k = 0; k < n; k++)
            if (strcmp(name, "all") == 0 || strcmp(name, s[k].name) == 0) {
                if (trace_one(&s[k], &o, out, check) != 0) bad = 1;
                if (strcmp(name, "all") != 0) return bad;
            }
        if (strcmp(name, "all") != 0) {
            fprintf(stderr, "gawl: no workload named '%s' (gawl list)\n", name);
            return 1;
        }
        return bad;
    }
    usage(stderr);
    return 2;
}
