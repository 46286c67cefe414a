#!/usr/bin/env python3
"""corpus_native_check.py — compare the interpreter with a real GPU, without a GPU (docs/emulator.md,
"Against a real GPU").

The reference is a native run of the corpus recorded by scripts/corpus-native.sh (apps/native/h100.tsv:
every apps/ program built as compute_80 PTX JIT-compiled by the driver and as sm_90 SASS, run plainly and
under compute-sanitizer). This script runs the same programs under gpuarmor-run and checks:

  correct programs  the interpreter without checks (--mode off) prints exactly what both native builds
                    printed, and exits as they did; memcheck found no error in them natively; and the
                    program's probe build (apps/native/probe.h pre-included: every device-to-host copy
                    recorded) copies back exactly the bytes the GPU copied back (sha256 per copy);
  bug programs      the interpreter without checks but with --policy terminate (a fault stops the kernel
                    and poisons the context, as on a GPU) prints what the native builds printed; GPUArmor
                    (compiler and HWOnly mode, bst layout, seed 1) reports what apps/manifest.tsv expects;
                    and it prints the agreement table of GPUArmor against compute-sanitizer's memcheck.

A difference is a failure unless the native TSV explains it: a line `# known<TAB>program<TAB>reason`
for a stdout difference, `# known-d2h<TAB>program<TAB>copies<TAB>reason` for copies (comma-separated
indices) whose bytes differ (each known difference with its reason; one that no longer occurs is a
failure too, so the list stays true). A row whose src_sha differs from the current apps/<program>.cu + apps/*.h was measured on
other source: it is reported as STALE, not compared as a failure (rerun corpus-native.sh on a GPU).

Exit: 0 everything agrees or is explained, 1 an unexplained difference, 2 usage error or a missing file.
"""
import argparse
import glob
import hashlib
import json
import os
import re
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import corpus  # noqa: E402  (the corpus runner's manifest reader and verdicts: one definition of each)


def unesc(s):
    """Inverse of corpus-native.sh's escaping (\\n, \\t, \\\\)."""
    return re.sub(r"\\(.)", lambda m: {"n": "\n", "t": "\t", "\\": "\\"}.get(m.group(1), m.group(0)), s)


def read_native(path):
    """(header dict, known: program -> reason, known_d2h: program -> (copy indices, reason),
    rows: (program, build) -> row dict)."""
    head, known, known_d2h, rows, cols = {}, {}, {}, {}, None
    with open(path) as f:
        for ln, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if line.startswith("# known\t"):
                parts = line.split("\t")
                if len(parts) != 3 or not parts[2].strip():
                    raise ValueError("%s:%d: expected '# known<TAB>program<TAB>reason', got '%s'" % (path, ln, line))
                known[parts[1]] = parts[2]
                continue
            if line.startswith("# known-d2h\t"):
                parts = line.split("\t")
                if len(parts) != 4 or not parts[3].strip() or not re.fullmatch(r"\d+(,\d+)*", parts[2]):
                    raise ValueError("%s:%d: expected '# known-d2h<TAB>program<TAB>copies<TAB>reason' with copies"
                                     " like 0,2, got '%s'" % (path, ln, line))
                known_d2h[parts[1]] = (set(int(c) for c in parts[2].split(",")), parts[3])
                continue
            if line.startswith("#"):
                k, sep, v = line[1:].strip().partition(": ")
                if sep:
                    head.setdefault(k, v)
                continue
            if not line:
                continue
            vals = line.split("\t")
            if cols is None:
                cols = vals
                for need in ("program", "kind", "src_sha", "build", "exit", "stdout", "memcheck_errors",
                             "memcheck_first", "memcheck_detail", "mempad_errors", "mempad_first", "d2h"):
                    if need not in cols:
                        raise ValueError("%s:%d: header has no column '%s'" % (path, ln, need))
                continue
            if len(vals) != len(cols):
                raise ValueError("%s:%d: expected %d tab-separated columns, got %d" % (path, ln, len(cols), len(vals)))
            r = dict(zip(cols, vals))
            rows[(r["program"], r["build"])] = r
    if cols is None:
        raise ValueError("%s: no header line" % path)
    return head, known, known_d2h, rows


def parse_d2h(cell):
    """'i:bytes:sha i:bytes:sha ...' -> {i: (bytes, sha)}; None for '-' (no probe run)."""
    if cell == "-":
        return None
    if cell == "none":
        return {}
    out = {}
    for part in cell.split():
        i, n, h = part.split(":")
        out[int(i)] = (int(n), h)
    return out


def dump_d2h(d):
    """The copies a probe run wrote into directory d, in parse_d2h's form."""
    out = {}
    for f in os.listdir(d):
        if f.endswith(".bin") and f[:-4].isdigit():
            with open(os.path.join(d, f), "rb") as fh:
                data = fh.read()
            out[int(f[:-4])] = (len(data), hashlib.sha256(data).hexdigest()[:16])
    return out


def src_sha(apps_src, name):
    """sha256 (16 hex digits) of apps/<name>.cu then every apps/*.h: corpus-native.sh's src_sha."""
    h = hashlib.sha256()
    for f in [os.path.join(apps_src, name + ".cu")] + sorted(glob.glob(os.path.join(apps_src, "*.h"))):
        with open(f, "rb") as fh:
            h.update(fh.read())
    return h.hexdigest()[:16]


def run(runner, prog_path, args, opts, timeout, probe=False):
    """stdout, exit status, GPUArmor's reports (the --json report) and, with probe, the copies recorded
    by a probe build (apps/native/probe.h) of one gpuarmor-run."""
    with tempfile.TemporaryDirectory() as tmp:
        js = os.path.join(tmp, "r.json")
        cmd = [runner, "--quiet", "--json", js] + opts + [prog_path] + args
        env = dict(os.environ)
        env.pop("PROBE_DIR", None)
        if probe:
            env["PROBE_DIR"] = os.path.join(tmp, "d2h")
            os.mkdir(env["PROBE_DIR"])
        try:
            p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=timeout, text=True,
                               env=env)
        except subprocess.TimeoutExpired:
            return {"out": "", "rc": "timeout", "reports": [], "errors": -1, "d2h": {}}
        rep = {}
        try:
            with open(js) as f:
                rep = json.load(f)
        except (OSError, ValueError):
            pass
        return {"out": p.stdout, "rc": p.returncode, "reports": rep.get("reports", []),
                "errors": rep.get("errors", -1), "stderr": p.stderr,
                "d2h": dump_d2h(env["PROBE_DIR"]) if probe else None}


def last_line(s):
    """The last line of a program's stdout (its verdict line), for the tables."""
    return (s.strip().splitlines() or ["(nothing)"])[-1]


def sanitizer_cell(errors, first, detail):
    """A short description of a sanitizer run's first report."""
    if errors in ("-", ""):
        return "not run"
    if first in ("-", "") and errors == "0":
        return "nothing"
    m = re.match(r"Invalid __(\w+)__ (read|write|atomic)", first)
    if m:
        cell = "invalid %s %s" % (m.group(1), m.group(2))
        d = re.search(r"and is ([\d,]+) bytes (after|before) the nearest allocation at \S+ of size ([\d,]+) bytes",
                      detail)
        if d:
            cell += " (%s B %s a %s B allocation)" % (d.group(1), d.group(2), d.group(3))
        return cell
    m = re.match(r"Program hit (\w+) .* on CUDA API call to (\w+)", first)
    if m:
        return "%s returned %s" % (m.group(2), m.group(1))
    return first[:60]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--native", default="apps/native/h100.tsv")
    ap.add_argument("--runner", default="build/cudart/gpuarmor-run")
    ap.add_argument("--apps", default="build/apps", help="the built corpus (make apps)")
    ap.add_argument("--probe", default="build/native/probe", help="the probe builds (make corpus-native-check)")
    ap.add_argument("--manifest", default="apps/manifest.tsv")
    ap.add_argument("--out", default="", help="also write the tables to OUT/table.md")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--timeout", type=int, default=300)
    a = ap.parse_args()
    for p in (a.native, a.runner, a.manifest):
        if not os.path.exists(p):
            print("corpus-native-check: %s not found (make cudart apps)" % p, file=sys.stderr)
            return 2
    try:
        head, known, known_d2h, native = read_native(a.native)
    except (OSError, ValueError) as e:
        print("corpus-native-check: %s" % e, file=sys.stderr)
        return 2
    progs = corpus.read_manifest(a.manifest)
    names = [p["name"] for p in progs]
    apps_src = os.path.dirname(os.path.abspath(a.manifest))
    bad = []
    for (n, b) in native:
        if n not in names:
            bad.append("%s: row for %s, which apps/manifest.tsv does not list" % (a.native, n))
    for n in list(known) + list(known_d2h):
        if n not in names:
            bad.append("%s: '# known' line for %s, which apps/manifest.tsv does not list" % (a.native, n))
    for p in progs:
        if not os.path.exists(os.path.join(a.apps, p["name"])):
            print("corpus-native-check: %s not built (make apps)" % os.path.join(a.apps, p["name"]), file=sys.stderr)
            return 2
        if p["kind"] == "ok" and not os.path.exists(os.path.join(a.probe, p["name"])):
            print("corpus-native-check: %s not built (make corpus-native-check builds it)"
                  % os.path.join(a.probe, p["name"]), file=sys.stderr)
            return 2

    # The interpreter's runs: every program without checks; bug programs also in both GPUArmor modes.
    jobs = []
    for p in progs:
        args = p["args"].split() if p.get("args", "-") not in ("-", "") else []
        if p["kind"] == "ok":
            jobs.append((p["name"], "off", args, ["--mode", "off"]))
            jobs.append((p["name"], "probe", args, ["--mode", "off"]))
        else:
            jobs.append((p["name"], "off", args, ["--mode", "off", "--policy", "terminate"]))
            for m in corpus.MODES:
                jobs.append((p["name"], m, args, ["--mode", m, "--layout", "bst", "--seed", "1"]))
    with ThreadPoolExecutor(max_workers=max(1, a.jobs)) as ex:
        res = list(ex.map(lambda j: run(a.runner, os.path.join(a.probe if j[1] == "probe" else a.apps, j[0]), j[2],
                                        j[3], a.timeout, probe=j[1] == "probe"), jobs))
    emu = {(j[0], j[1]): r for j, r in zip(jobs, res)}

    lines_ok = ["| program | native compute_80 PTX (JIT) | native sm_90 | interpreter (--mode off) | stdout |"
                " copies back, bytes equal to the GPU's |", "|---|---|---|---|---|---|"]
    d2h_counts = {"same": 0, "known": 0, "differ": 0, "bytes": 0}
    lines_bug = ["| program | class | GPUArmor compiler | GPUArmor HWOnly | memcheck, PTX JIT | memcheck, sm_90 | "
                 "memcheck --padding 1 MiB | who detects |", "|---|---|---|---|---|---|---|---|"]
    stdout_bug = []
    counts = {"agree": 0, "known": 0, "stale": 0, "differ": 0}
    agreement = {}
    for p in progs:
        n = p["name"]
        rp, rs = native.get((n, "ptx")), native.get((n, "sass"))
        if rp is None or rs is None:
            bad.append("%s: no native row for %s (%s build)" % (a.native, n, "ptx" if rp is None else "sass"))
            continue
        stale = rp["src_sha"] != src_sha(apps_src, n) or rs["src_sha"] != rp["src_sha"]
        e = emu[(n, "off")]
        nout_p, nout_s = unesc(rp["stdout"]), unesc(rs["stdout"])
        same = (e["out"] == nout_p == nout_s and str(e["rc"]) == rp["exit"] == rs["exit"])
        if same:
            verdict = "same"
            counts["agree"] += 1
            if n in known:
                bad.append("%s: the known difference of %s no longer occurs: remove its '# known' line" % (a.native, n))
        elif stale:
            verdict = "STALE (apps/%s.cu or apps/*.h changed since the native run)" % n
            counts["stale"] += 1
        elif n in known:
            verdict = "known difference: " + known[n]
            counts["known"] += 1
        else:
            verdict = "DIFFERENT"
            counts["differ"] += 1
            bad.append("%s: interpreter stdout %r exit %s; native (PTX JIT) %r exit %s; native (sm_90) %r exit %s"
                       % (n, e["out"], e["rc"], nout_p, rp["exit"], nout_s, rs["exit"]))
        if p["kind"] == "ok":
            if not stale and (rp["memcheck_errors"] != "0" or rs["memcheck_errors"] != "0"):
                bad.append("%s: memcheck reported %s / %s errors natively in a correct program"
                           % (n, rp["memcheck_errors"], rs["memcheck_errors"]))
            dp, ds, de = parse_d2h(rp["d2h"]), parse_d2h(rs["d2h"]), emu[(n, "probe")]["d2h"]
            if dp is None or ds is None:
                bad.append("%s: no d2h record for %s (rerun corpus-native.sh)" % (a.native, n))
                continue
            kd, kreason = known_d2h.get(n, (set(), ""))
            diff = sorted(i for i in set(dp) | set(de) if dp.get(i) != de.get(i))
            gpu_diff = sorted(i for i in set(dp) | set(ds) if dp.get(i) != ds.get(i))
            if not stale:  # a stale row's copies are not compared, so they count nowhere
                d2h_counts["bytes"] += sum(v[0] for i, v in dp.items() if i not in diff)
            if stale:
                cell = "STALE"
            elif not diff:
                cell = "all %d" % len(dp)
                d2h_counts["same"] += len(dp)
            else:
                unexplained = [i for i in diff if i not in kd]
                cell = "%d of %d; differ: %s" % (len(dp) - len(diff), len(dp), ", ".join(map(str, diff)))
                d2h_counts["differ"] += len(unexplained)
                d2h_counts["known"] += len(diff) - len(unexplained)
                d2h_counts["same"] += len(dp) - len(diff)
                if unexplained:
                    bad.append("%s: copies %s differ from the GPU's (bytes, sha256: GPU %s, interpreter %s)" % (
                        n, ",".join(map(str, unexplained)), [dp.get(i) for i in unexplained],
                        [de.get(i) for i in unexplained]))
                else:
                    cell += " (known: %s)" % kreason
            if not stale and kd - set(diff):
                bad.append("%s: known copy differences %s no longer occur: update its '# known-d2h' line" % (
                    n, ",".join(map(str, sorted(kd - set(diff))))))
            if gpu_diff:
                cell += "; the GPU's two builds differ in copies %s" % ", ".join(map(str, gpu_diff))
            lines_ok.append("| %s | %s | %s | %s | %s | %s |" % (n, last_line(nout_p), last_line(nout_s), last_line(e["out"]),
                                                                  verdict, cell))
            continue
        kinds = {}
        for m in corpus.MODES:
            r = emu[(n, m)]
            ok, text = corpus.verdict(p, m, {"rc": r["rc"], "line": "", "reports": r["reports"],
                                             "errors": r["errors"]})
            kinds[m] = corpus.first_armor_kind(r["reports"])
            if not ok:
                bad.append("%s %s: GPUArmor %s (apps/manifest.tsv expects %s)" % (n, m, text, p["expect_" + m]))
        mc_p = sanitizer_cell(rp["memcheck_errors"], rp["memcheck_first"], rp["memcheck_detail"])
        mc_s = sanitizer_cell(rs["memcheck_errors"], rs["memcheck_first"], rs["memcheck_detail"])
        mc_pad = sanitizer_cell(rs["mempad_errors"], rs["mempad_first"], rs.get("mempad_detail", ""))
        ga = kinds["compiler"] is not None or kinds["hwonly"] is not None
        mc = rp["memcheck_errors"] not in ("0", "-") or rs["memcheck_errors"] not in ("0", "-")
        who = {(True, True): "both", (True, False): "GPUArmor only", (False, True): "memcheck only",
               (False, False): "neither"}[(ga, mc)]
        if not mc and rs["mempad_errors"] not in ("0", "-", ""):
            who += " (memcheck with padding)"
        agreement[who.split(" (")[0]] = agreement.get(who.split(" (")[0], 0) + 1
        lines_bug.append("| %s | %s | %s | %s | %s | %s | %s | %s |" % (
            n, p["class"], kinds["compiler"] or "clean", kinds["hwonly"] or "clean", mc_p, mc_s, mc_pad, who))
        stdout_bug.append("- %s: %s" % (n, verdict))
    text = ["Native reference: %s (%s, driver %s, %s, compute-sanitizer %s)" % (
                a.native, head.get("gpu", "?"), head.get("driver", "?"), head.get("nvcc", "?"),
                head.get("compute_sanitizer", "?")), "", "Correct programs:", ""] + lines_ok + \
           ["", "Bug programs: GPUArmor against compute-sanitizer memcheck:", ""] + lines_bug + \
           ["", "Bug programs, stdout of the interpreter (--mode off --policy terminate) against native:"] + stdout_bug
    print("\n".join(text))
    if a.out:
        os.makedirs(a.out, exist_ok=True)
        with open(os.path.join(a.out, "table.md"), "w") as f:
            f.write("\n".join(text) + "\n")
    print("")
    print("corpus-native-check: %d programs: stdout %d same as native, %d known differences, %d stale, %d different;"
          " copies back: %d bit-identical (%d bytes), %d known differences, %d different;"
          " bug programs detected by %s" % (len(progs), counts["agree"], counts["known"], counts["stale"],
                                             counts["differ"], d2h_counts["same"], d2h_counts["bytes"],
                                             d2h_counts["known"], d2h_counts["differ"],
                                             ", ".join("%s %d" % kv for kv in sorted(agreement.items()))))
    for b in bad:
        print("corpus-native-check: FAIL %s" % b)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
