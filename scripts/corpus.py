#!/usr/bin/env python3
"""corpus.py — run the CUDA corpus (apps/) under gpuarmor-run and check every result against
apps/manifest.tsv (docs/emulator.md §9).

Every program runs in each mode (compiler, hwonly) and each metadata layout (cmodel/ga_layouts.def) with a
JSON report. A correct program must print PASS, exit 0, and get no report at all (no GPUArmor
detection, no illegal address, no bad free). A bug program must be reported with the manifest's kind:
the first GPUArmor report of the run (an MLU detection, or BAD_FREE for a runtime-refused cudaFree)
must be one of the expected alternatives; `clean` expects no GPUArmor report (the interpreter's own
illegal-address reports do not count: they are not GPUArmor's). An expectation ending in `?` is
probabilistic (random tags): a miss is then recorded as "missed (p = 1/126)" and is not a failure.
Compiler-mode expectations without `?` must hold; HWOnly ones are checked the same way (the manifest
marks the probabilistic ones).

Outputs (in --out): results.csv (one row per run), table.md (program x mode x layout), and a summary on
stdout. Exit status: 0 all as expected, 1 a run disagreed, 2 usage or a missing tool/program.
"""
import argparse
import csv
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor

MODES = ["compiler", "hwonly"]


def read_layouts(rtl_only=False):
    """The metadata layouts, from the one list cmodel/ga_layouts.def (lines `GA_LAYOUT(ID, code, name,
    rtl, "title")`, in code order); rtl_only keeps those the RTL implements."""
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "cmodel", "ga_layouts.def")
    pat = re.compile(r"^GA_LAYOUT\(\s*[A-Z0-9_]+\s*,\s*\d+\s*,\s*([a-z0-9_]+)\s*,\s*([01])\s*,")
    with open(path) as f:
        names = [m.group(1) for m in map(pat.match, f) if m and (not rtl_only or m.group(2) == "1")]
    if not names:
        raise SystemExit("no layout in %s" % path)
    return names


LAYOUTS = read_layouts()


def read_manifest(path):
    rows = []
    with open(path) as f:
        header = None
        for line in f:
            line = line.rstrip("\n")
            if not line or line.startswith("#"):
                continue
            cols = line.split("\t")
            if header is None:
                header = cols
                continue
            rows.append(dict(zip(header, cols)))
    return rows


def run_one(runner, apps, prog, mode, layout, extra, timeout):
    with tempfile.TemporaryDirectory() as tmp:
        js = os.path.join(tmp, "r.json")
        cmd = [runner, "--mode", mode, "--layout", layout, "--json", js, "--print-limit", "3"] + extra
        cmd += [os.path.join(apps, prog["name"])]
        if prog.get("args", "-") not in ("-", ""):
            cmd += prog["args"].split()
        t0 = time.time()
        try:
            p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=timeout, text=True)
            rc, out, err = p.returncode, p.stdout, p.stderr
        except subprocess.TimeoutExpired:
            return {"rc": "timeout", "line": "", "reports": [], "counters": {}, "errors": -1, "secs": timeout,
                    "stderr": ""}
        secs = time.time() - t0
        rep = {}
        try:
            with open(js) as f:
                rep = json.load(f)
        except (OSError, ValueError):
            pass
        line = ""
        for l in out.splitlines():
            if l.startswith(("PASS ", "FAIL ", "RAN ")):
                line = l
                break
        return {"rc": rc, "line": line, "reports": rep.get("reports", []), "counters": rep.get("counters", {}),
                "errors": rep.get("errors", -1), "secs": secs, "stderr": err}


def first_armor_kind(reports):
    """The first GPUArmor report: an MLU detection or a runtime-refused free (not the interpreter's own
    illegal-address or launch reports)."""
    for r in reports:
        chk = r.get("check", "")
        if chk in ("MEMCHECK.G", "MEMCHECK.S", "HWOnly check"):
            return r.get("kind", "?")
        if chk == "runtime" and r.get("kind") == "BAD_FREE":
            return "BAD_FREE"
    return None


def verdict(prog, mode, res):
    """(ok, cell text) for one run."""
    if res["rc"] == "timeout":
        return False, "TIMEOUT"
    kind = first_armor_kind(res["reports"])
    if prog["kind"] == "ok":
        ok = res["line"].startswith("PASS") and res["rc"] == 0 and res["errors"] == 0
        return ok, ("PASS, 0 reports" if ok else "%s rc=%s errors=%s first=%s" % (res["line"] or "no PASS line",
                                                                                   res["rc"], res["errors"], kind))
    want = prog["expect_" + mode]
    prob = want.endswith("?")
    alts = want.rstrip("?").split("|")
    if not res["line"].startswith("RAN") and want != "clean":
        # the program must still finish; the report is what matters
        pass
    if alts == ["clean"]:
        return kind is None, ("not reported (as expected)" if kind is None else "unexpected " + kind)
    if kind in alts:
        return True, kind
    if kind is None and prob:
        return True, "missed (probabilistic, p = 1/126)"
    return False, "got %s, expected %s" % (kind or "nothing", want)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runner", default="build/cudart/gpuarmor-run")
    ap.add_argument("--apps", default="build/apps")
    ap.add_argument("--manifest", default="apps/manifest.tsv")
    ap.add_argument("--out", default="build/corpus")
    ap.add_argument("--modes", default=",".join(MODES))
    ap.add_argument("--layouts", default=",".join(LAYOUTS))
    ap.add_argument("--only", default="", help="comma-separated program names")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--timeout", type=int, default=300)
    ap.add_argument("--extra", default="", help="more gpuarmor-run options, e.g. '--rtl' or '--tag-bits 16'")
    a = ap.parse_args()
    for p in (a.runner, a.manifest):
        if not os.path.exists(p):
            print("corpus: %s not found (make cudart apps)" % p, file=sys.stderr)
            return 2
    progs = read_manifest(a.manifest)
    if a.only:
        keep = set(a.only.split(","))
        progs = [p for p in progs if p["name"] in keep]
    modes = a.modes.split(",")
    layouts = a.layouts.split(",")
    for m in modes:
        if m not in MODES:
            print("corpus: --modes: unknown mode %s" % m, file=sys.stderr)
            return 2
    for p in progs:
        if not os.path.exists(os.path.join(a.apps, p["name"])):
            print("corpus: %s not built (make apps)" % os.path.join(a.apps, p["name"]), file=sys.stderr)
            return 2
    os.makedirs(a.out, exist_ok=True)
    jobs = [(p, m, l) for p in progs for m in modes for l in layouts]
    extra = a.extra.split() if a.extra else []
    t0 = time.time()
    with ThreadPoolExecutor(max_workers=max(1, a.jobs)) as ex:
        results = list(ex.map(lambda j: run_one(a.runner, a.apps, j[0], j[1], j[2], extra, a.timeout), jobs))
    wall = time.time() - t0
    bad = 0
    cells = {}
    with open(os.path.join(a.out, "results.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["program", "kind", "class", "mode", "layout", "expected", "ok", "result", "program_line",
                    "exit", "errors", "first_report", "thread_insns", "ga_insns", "loadmeta", "memcheck_g",
                    "memcheck_g_full", "memcheck_g_partial", "memcheck_g_tagging", "memcheck_s", "hw_checks",
                    "seconds"])
        for (p, m, l), r in zip(jobs, results):
            ok, text = verdict(p, m, r)
            if not ok:
                bad += 1
                print("corpus: MISMATCH %s %s %s: %s" % (p["name"], m, l, text))
                if r.get("stderr"):
                    print("  " + "\n  ".join(r["stderr"].splitlines()[:12]))
            cells[(p["name"], m, l)] = text if ok else "**" + text + "**"
            c = r["counters"]
            w.writerow([p["name"], p["kind"], p["class"], m, l, p["expect_" + m], int(ok), text, r["line"], r["rc"],
                        r["errors"], first_armor_kind(r["reports"]) or "", c.get("thread_insns", ""),
                        c.get("ga_insns", ""), c.get("loadmeta", ""), c.get("memcheck_g", ""),
                        c.get("memcheck_g_full", ""), c.get("memcheck_g_partial", ""),
                        c.get("memcheck_g_tagging", ""), c.get("memcheck_s", ""), c.get("hw_checks", ""),
                        "%.2f" % r["secs"]])
    with open(os.path.join(a.out, "table.md"), "w") as f:
        cols = [(m, l) for m in modes for l in layouts]
        f.write("| program | class | " + " | ".join("%s %s" % c for c in cols) + " |\n")
        f.write("|---|---|" + "---|" * len(cols) + "\n")
        for p in progs:
            f.write("| %s | %s | " % (p["name"], p["class"]) +
                    " | ".join(cells[(p["name"], m, l)] for (m, l) in cols) + " |\n")
    print("corpus: %d programs x %d modes x %d layouts = %d runs in %.0f s (%d jobs): %d as expected, %d not"
          % (len(progs), len(modes), len(layouts), len(jobs), wall, a.jobs, len(jobs) - bad, bad))
    print("corpus: %s/results.csv, %s/table.md" % (a.out, a.out))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
