#!/usr/bin/env python3
"""eval_corpus.py — the evaluation on real programs (docs/eval.md, "The corpus"): the project's CUDA
corpus (apps/) run by the PTX interpreter with GPUArmor in the loop (build/cudart/gpuarmor-run).

Campaigns (each a list of independent units; any one can be split into shards with --shard I/N, each
shard writing its own CSV file, resumed when it exists, merged with `gaeval merge`; docs/eval.md,
"Shards"):

  dyn    every corpus program (apps/manifest.tsv) in compiler and HWOnly mode, BST, 8-entry MLB, seed 1,
         with its trace captured into --traces DIR (the Fig 7 and Fig 8 analogues, and the traces gasweep
         sweeps), and in every other layout of cmodel/ga_layouts.def (the cross-check that a captured
         trace replays as the program runs in every layout)
  bugs   every bug variant (apps/variants.tsv) x compiler / HWOnly x 7 / 16-bit tags x no extension,
         neighbour-distinct, quarantine W=64, both x trials 1 .. --seeds (trial s of a variant runs with
         a tag seed derived from the variant and s): the Table 4 analogue from real bugs
  rtl    the same runs for trials 1 .. --seeds, each captured and replayed through the Verilated RTL of
         its tag width in lockstep with the model (build/cosim/t7_m8_l32/gasim-rtl,
         build/cosim/t16_m8_l32/gasim-rtl); with --correct also the correct programs

Then:

  report   turn the merged campaign files of a directory (dyn.csv, bugs.csv, rtl.csv, sweep.csv,
           gaptx reports) into fig7.csv, fig8.csv, table4_real*.csv and the corpus sections of
           results.md (the placeholders gaeval run leaves), and fail when a result breaks what the
           corpus promises (a correct program reported, a bug class missed where it is certain, the RTL
           disagreeing)
  all      everything at --scale smoke|full into --out, in order: dyn, gasweep, bugs, rtl, each run as
           --jobs shards in parallel and merged, and the shard check (a subset of every campaign run as
           1 and as 3 shards must merge to the same bytes); `make eval` runs it

Rows hold only what the runs determine (no times, no paths), so a campaign's merged file is the same
whatever the split and the machine. Exit status: 0 done and as expected, 1 a run or a check failed (every
failure listed), 2 usage or a missing tool.
"""
import argparse
import concurrent.futures
import csv
import hashlib
import io
import json
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

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
EXTS = ["none", "nd", "q64", "both"]  # runtime extensions of spec 7.6
TAGS = [7, 16]
QUARANTINE = 64
ARMOR_CHECKS = ("MEMCHECK.G", "MEMCHECK.S", "HWOnly check")
PAPER_ROWS = ["adjacent_oob", "nonadj_intra_oob", "nonadj_inter_oob", "subobject_oob", "immediate_uaf",
              "delayed_uaf"]
OTHER_ROWS = ["double_free", "interior_free", "shared_oob", "wild", "wild_untagged"]
ROW_NAME = {"adjacent_oob": "Adjacent OOB", "nonadj_intra_oob": "Non-adj. Intra-scope OOB",
            "nonadj_inter_oob": "Non-adj. Inter-scope OOB", "subobject_oob": "Sub-object OOB",
            "immediate_uaf": "Immediate Use-after-free", "delayed_uaf": "Delayed Use-after-free",
            "double_free": "Double free", "interior_free": "Free of an interior pointer",
            "shared_oob": "Shared-memory OOB", "wild": "Wild pointer, garbage tag",
            "wild_untagged": "Wild pointer, tag 0 (null)"}
PAPER_T4 = {  # paper Table 4: GPUArmor, GPUArmor-HWOnly
    "adjacent_oob": ("100%", "100%"), "nonadj_intra_oob": ("100%", "99.2%"),
    "nonadj_inter_oob": ("99.2%", "99.2%"), "subobject_oob": ("0%", "0%"),
    "immediate_uaf": ("100%", "100%"), "delayed_uaf": ("99.2%", "99.2%")}
EXT_NAME = {"none": "", "nd": " + neighbour-distinct", "q64": " + quarantine W=64", "both": " + both"}


def die(msg, code=2):
    print("eval_corpus: " + msg, file=sys.stderr)
    sys.exit(code)


# ------------------------------------------------------------------------------------------------------
# Shard files: the same format as sim/eval/ga_shard.h, so `gaeval merge` merges them.

def fnv1a(data, h=0xcbf29ce484222325):
    for b in data:
        h ^= b
        h = (h * 0x100000001b3) & 0xFFFFFFFFFFFFFFFF
    return h


class ShardFile:
    """A shard file of campaign `campaign`: created, or resumed (complete rows kept, a torn last line
    cut), rows appended and flushed one at a time."""

    def __init__(self, path, campaign, units, spec, columns):
        self.path = path
        self.units = units
        self.ncells = len(columns)
        h1 = "# gaeval-shard 1 campaign=%s units=%d spec=%016x\n" % (campaign, units, spec)
        h2 = "unit," + ",".join(columns) + "\n"
        head = (h1 + h2).encode()
        self.done = set()
        fresh = True
        if os.path.exists(path):
            with open(path, "rb") as f:
                data = f.read()
            if not head.startswith(data[:len(head)]):
                die("%s: written by another campaign or with other parameters (its first lines are not %r "
                    "and %r): remove it or write elsewhere" % (path, h1.strip(), h2.strip()), 1)
            if len(data) >= len(head):
                fresh = False
                good = len(head)
                lines = data[len(head):].split(b"\n")
                for ln, line in enumerate(lines[:-1], start=3):  # the last piece is torn or empty
                    cells = line.decode().split(",")
                    if len(cells) != self.ncells + 1 or not cells[0].isdigit():
                        die("%s:%d: not a row of this campaign" % (path, ln), 1)
                    u = int(cells[0])
                    if u >= units or u in self.done:
                        die("%s:%d: unit %d out of range or twice" % (path, ln, u), 1)
                    self.done.add(u)
                    good += len(line) + 1
                if good != len(data):
                    with open(path, "r+b") as f:
                        f.truncate(good)
        self.kept = len(self.done)
        self.f = open(path, "wb" if fresh else "ab")
        if fresh:
            self.f.write(head)
            self.f.flush()

    def row(self, unit, cells):
        cells = [str(c) for c in cells]
        if unit in self.done or unit >= self.units or len(cells) != self.ncells:
            die("%s: unit %d written twice, out of range or with %d cells" % (self.path, unit, len(cells)), 1)
        for c in cells:
            if "," in c or "\n" in c:
                die("%s: unit %d: a cell holds a comma or newline: %r" % (self.path, unit, c), 1)
        self.f.write(("%d,%s\n" % (unit, ",".join(cells))).encode())
        self.f.flush()
        self.done.add(unit)

    def close(self):
        self.f.close()


def read_merged(path):
    """Rows of a merged (or single-run) shard file as dicts, in file order; [] if it does not exist."""
    if not os.path.exists(path):
        return []
    with open(path) as f:
        first = f.readline()
        if not first.startswith("# gaeval-shard 1 "):
            die("%s: not a shard file" % path, 1)
        return list(csv.DictReader(f))


def parse_shard(s):
    m = re.fullmatch(r"(\d+)/(\d+)", s or "")
    if not m or int(m.group(2)) < 1 or int(m.group(1)) >= int(m.group(2)) or int(m.group(2)) > 1000000:
        die("--shard: expected I/N with 0 <= I < N <= 1000000 (e.g. 0/4), got %r" % s)
    return int(m.group(1)), int(m.group(2))


def sha(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for b in iter(lambda: f.read(1 << 20), b""):
            h.update(b)
    return h.hexdigest()


# ------------------------------------------------------------------------------------------------------
# Inputs

def read_tsv(path):
    rows, header = [], None
    with open(path) as f:
        for line in f:
            line = line.rstrip("\n")
            if not line or line.startswith("#"):
                continue
            cols = line.split("\t")
            if header is None:
                header = cols
                continue
            if len(cols) != len(header):
                die("%s: %r: expected %d tab-separated fields" % (path, line, len(header)), 1)
            rows.append(dict(zip(header, cols)))
    return rows


class Env:
    def __init__(self, a):
        self.root = os.getcwd()
        self.build = a.build
        self.runner = os.path.join(a.build, "cudart", "gpuarmor-run")
        self.apps = os.path.join(a.build, "apps")
        self.manifest = read_tsv("apps/manifest.tsv")
        self.variants = read_tsv("apps/variants.tsv")
        self.jobs = max(1, a.jobs)
        self.timeout = a.timeout
        names = {p["name"] for p in self.manifest}
        for v in self.variants:
            if v["program"] not in names or not v["program"].startswith("bug_"):
                die("apps/variants.tsv: variant %s names %s, not a bug program of the manifest"
                    % (v["variant"], v["program"]), 1)
        if len({v["variant"] for v in self.variants}) != len(self.variants):
            die("apps/variants.tsv: a variant name is used twice", 1)

    def need(self, *paths):
        for p in paths:
            if not os.path.exists(p):
                die("%s not found (make cudart apps)" % p)

    def binhash(self, progs):
        """What the rows depend on besides the parameters: the runtime and the programs."""
        lib = os.path.join(self.build, "cudart", "libcudart.so.13")
        parts = [sha(self.runner), sha(lib)] + [sha(os.path.join(self.apps, p)) for p in sorted(set(progs))]
        return hashlib.sha256("|".join(parts).encode()).hexdigest()


def spec_of(*parts):
    return fnv1a("|".join(str(p) for p in parts).encode())


def run_emu(env, prog, args, mode, layout="bst", mlb=8, tag_bits=7, ext="none", seed=1, trace=None):
    """One gpuarmor-run; returns a dict with the JSON report's counters and reports, the exit status
    and the program's verdict word (PASS, FAIL, RAN or '')."""
    with tempfile.TemporaryDirectory() as tmp:
        js = os.path.join(tmp, "r.json")
        cmd = [env.runner, "--mode", mode, "--layout", layout, "--mlb", str(mlb), "--tag-bits", str(tag_bits),
               "--seed", str(seed), "--quiet", "--print-limit", "1", "--json", js]
        if ext in ("nd", "both"):
            cmd.append("--tag-neighbour-distinct")
        if ext in ("q64", "both"):
            cmd += ["--tag-quarantine", str(QUARANTINE)]
        if trace:
            cmd += ["--trace-out", trace]
        cmd.append(os.path.join(env.apps, prog))
        if args and args != "-":
            cmd += args.split()
        try:
            p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=env.timeout, text=True)
            rc, out, err = p.returncode, p.stdout, p.stderr
        except subprocess.TimeoutExpired:
            return {"rc": "timeout", "line": "", "rep": {}, "stderr": "timeout", "cmd": cmd}
        rep = {}
        try:
            with open(js) as f:
                rep = json.load(f)
        except (OSError, ValueError):
            pass
        word = ""
        for l in out.splitlines():
            if l.startswith(("PASS ", "FAIL ", "RAN ")):
                word = l.split()[0]
                break
        return {"rc": rc, "line": word, "rep": rep, "stderr": err, "cmd": cmd}


def armor_reports(rep):
    """GPUArmor's reports of a run: MLU detections and runtime-refused frees (not the interpreter's
    own illegal-address reports, nor the runtime's copy-range checks)."""
    out = []
    for r in rep.get("reports", []):
        if r.get("check") in ARMOR_CHECKS or (r.get("check") == "runtime" and r.get("kind") == "BAD_FREE"):
            out.append(r.get("kind", "?"))
    return out


def run_units(env, shard_file, units, shard, fn, label):
    """Run fn(unit) for the units this shard owns and the file lacks, --jobs at a time; rows appended as
    they finish. Returns the number run now."""
    idx, n = shard
    todo = [u for u in range(len(units)) if u % n == idx and u not in shard_file.done]
    mine = sum(1 for u in range(len(units)) if u % n == idx)
    t0 = time.time()
    with concurrent.futures.ThreadPoolExecutor(max_workers=env.jobs) as ex:
        futs = {ex.submit(fn, units[u]): u for u in todo}
        for fut in concurrent.futures.as_completed(futs):
            shard_file.row(futs[fut], fut.result())
    print("eval_corpus: %s, shard %d/%d: %d of %d units are this shard's; %d run now, %d kept from an earlier "
          "run (%.0f s, %d jobs)" % (label, idx, n, mine, len(units), len(todo), shard_file.kept,
                                      time.time() - t0, env.jobs), file=sys.stderr)
    return len(todo)


# ------------------------------------------------------------------------------------------------------
# dyn: Fig 7 / Fig 8 runs and trace capture

DYN_COLS = ["program", "kind", "mode", "layout", "mlb", "exit", "line", "thread_insns", "warp_insns", "ga_insns",
            "ga_overhead", "loadmeta", "memcheck_g", "memcheck_g_full", "memcheck_g_partial",
            "memcheck_g_tagging", "memcheck_s", "hw_checks", "detections", "illegal_accesses", "bad_frees",
            "armor_reports", "first_armor", "mlu_loadmeta", "mlu_loadmeta_hits", "mlu_walks", "mlu_walk_steps",
            "mlu_memcheck_g", "mlu_fetches", "mlu_fetch_hits", "mlu_md_reads", "mlu_access", "traced"]


def dyn_units(env, only):
    units = []
    for p in env.manifest:
        if only and p["name"] not in only:
            continue
        for m in MODES:
            for lay in ["bst"] + [x for x in LAYOUTS if x != "bst"]:  # bst first: it captures the traces
                units.append((p["name"], p["kind"], m, lay))
    return units


def dyn_row(env, traces, u):
    prog, kind, mode, lay = u
    trace = os.path.join(traces, "%s.%s.gatrace.gz" % (prog, mode)) if lay == "bst" and traces else None
    if trace:
        tmp = trace + ".part"  # renamed when complete: a killed run leaves no half trace under the name
        r = run_emu(env, prog, "-", mode, layout=lay, trace=tmp)
        if os.path.exists(tmp):
            os.replace(tmp, trace)
    else:
        r = run_emu(env, prog, "-", mode, layout=lay)
    c = r["rep"].get("counters", {})
    m = r["rep"].get("mlu", {})
    ar = armor_reports(r["rep"])
    return [prog, kind, mode, lay, 8, r["rc"], r["line"] or "-"] + \
           [c.get(k, "") for k in ("thread_insns", "warp_insns", "ga_insns", "ga_overhead", "loadmeta",
                                   "memcheck_g", "memcheck_g_full", "memcheck_g_partial", "memcheck_g_tagging",
                                   "memcheck_s", "hw_checks", "detections", "illegal_accesses", "bad_frees")] + \
           [len(ar), ar[0] if ar else "-"] + \
           [m.get(k, "") for k in ("loadmeta", "loadmeta_hits", "walks", "walk_steps", "memcheck_g", "fetches",
                                   "fetch_hits", "md_reads", "access")] + [1 if trace else 0]


def cmd_dyn(env, a):
    env.need(env.runner)
    units = dyn_units(env, set(a.only.split(",")) if a.only else None)
    if a.traces:
        os.makedirs(a.traces, exist_ok=True)
    spec = spec_of("dyn v1", units, env.binhash([u[0] for u in units]))
    sf = ShardFile(a.o, "dyn", len(units), spec, DYN_COLS)
    run_units(env, sf, units, parse_shard(a.shard), lambda u: dyn_row(env, a.traces, u), "dyn")
    sf.close()
    return 0


# ------------------------------------------------------------------------------------------------------
# bugs: Table 4 from real bugs

BUG_COLS = ["variant", "program", "table4", "mode", "tag_bits", "ext", "seed", "run_seed", "exit", "line", "detected",
            "first_kind", "armor_reports", "detections", "bad_frees", "expected", "verdict"]


def run_seed(variant, seed):
    """The runtime's seed for trial `seed` of a variant. Derived from both, because the runtime draws the
    tags of a program's allocations in order from its seed: variants of one program with the same seed
    would get the same tags, and their trials would not be independent draws."""
    return fnv1a(("%s/%d" % (variant, seed)).encode()) % 4294967291 + 1


def bug_units(env, seeds, only):
    units = []
    for v in env.variants:
        if only and v["variant"] not in only:
            continue
        for m in MODES:
            for t in TAGS:
                for e in EXTS:
                    for s in range(1, seeds + 1):
                        units.append((v["variant"], m, t, e, s))
    return units


def verdict(v, mode, tag_bits, ext, first):
    """(detected, verdict) of one run against the variant's expectation for its mode: ok, miss-allowed
    (a ? expectation missed: two random tags were equal), or WRONG."""
    want = v["expect_" + mode]
    prob = want.endswith("?")
    alts = want.rstrip("?").split("|")
    sure = v["sure_with"] != "-" and (ext == "both" or ext == v["sure_with"] or
                                      (v["sure_with"] == "q" and ext == "q64"))
    if alts == ["clean"]:
        return 0, "ok" if first is None else "WRONG"
    if first is None:
        return 0, "miss-allowed" if prob and not sure else "WRONG"
    return 1, "ok" if first in alts else "WRONG"


def bug_row(env, variants, u):
    name, mode, tag_bits, ext, seed = u
    v = variants[name]
    rs = run_seed(name, seed)
    r = run_emu(env, v["program"], v["args"], mode, tag_bits=tag_bits, ext=ext, seed=rs)
    ar = armor_reports(r["rep"])
    first = ar[0] if ar else None
    det, verd = verdict(v, mode, tag_bits, ext, first)
    if r["rc"] != 0 or r["line"] != "RAN":
        verd = "WRONG"  # the program must finish and print RAN whatever GPUArmor reported
    c = r["rep"].get("counters", {})
    return [name, v["program"], v["table4"], mode, tag_bits, ext, seed, rs, r["rc"], r["line"] or "-", det,
            first or "-", len(ar), c.get("detections", ""), c.get("bad_frees", ""), v["expect_" + mode], verd]


def cmd_bugs(env, a):
    env.need(env.runner)
    units = bug_units(env, a.seeds, set(a.only.split(",")) if a.only else None)
    variants = {v["variant"]: v for v in env.variants}
    with open("apps/variants.tsv", "rb") as f:
        vhash = hashlib.sha256(f.read()).hexdigest()
    spec = spec_of("bugs v2", a.seeds, units, vhash, env.binhash([variants[u[0]]["program"] for u in units]))
    sf = ShardFile(a.o, "bugs", len(units), spec, BUG_COLS)
    run_units(env, sf, units, parse_shard(a.shard), lambda u: bug_row(env, variants, u), "bugs")
    sf.close()
    return 0


# ------------------------------------------------------------------------------------------------------
# rtl: the runs captured and replayed through the Verilated RTL in lockstep

RTL_COLS = ["what", "mode", "tag_bits", "ext", "seed", "run_seed", "live_detections", "live_bad_frees", "live_first",
            "rtl_detections", "rtl_bad_frees", "rtl_first", "rtl_requests", "rtl_mismatches", "agree"]
RTL_CFG = {7: "t7_m8_l32", 16: "t16_m8_l32"}


def rtl_units(env, seeds, only, correct):
    units = []
    for v in env.variants:
        if only and v["variant"] not in only:
            continue
        for m in MODES:
            for t in TAGS:
                for e in EXTS:
                    for s in range(1, seeds + 1):
                        units.append(("variant", v["variant"], m, t, e, s))
    if correct:
        for p in env.manifest:
            if p["kind"] == "ok" and (not only or p["name"] in only):
                for m in MODES:
                    for t in TAGS:
                        units.append(("program", p["name"], m, t, "none", 1))
    return units


def rtl_row(env, variants, u):
    what, name, mode, tag_bits, ext, seed = u
    if what == "variant":
        prog, args = variants[name]["program"], variants[name]["args"]
        seed = run_seed(name, seed)  # the run of the bugs campaign with this variant and seed
    else:
        prog, args = name, "-"
    gasim = os.path.join(env.build, "cosim", RTL_CFG[tag_bits], "gasim-rtl")
    with tempfile.TemporaryDirectory() as tmp:
        tr = os.path.join(tmp, "t.gatrace.gz")
        r = run_emu(env, prog, args, mode, tag_bits=tag_bits, ext=ext, seed=seed, trace=tr)
        c = r["rep"].get("counters", {})
        ar = armor_reports(r["rep"])
        live = [c.get("detections", ""), c.get("bad_frees", ""), ar[0] if ar else "-"]
        js = os.path.join(tmp, "g.json")
        cmd = [gasim, "--rtl", "--trace", tr, "--mode", mode, "--seed", str(seed), "--json", js]
        if ext in ("nd", "both"):
            cmd.append("--tag-neighbour-distinct")
        if ext in ("q64", "both"):
            cmd += ["--tag-quarantine", str(QUARANTINE)]
        try:
            p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=env.timeout, text=True)
            out = p.stdout
        except subprocess.TimeoutExpired:
            out = "timeout"
        m = re.search(r"^rtl: RTL \(\S+\) and model agree: (\d+) requests .* (\d+) mismatches", out, re.M)
        g = {}
        try:
            with open(js) as f:
                g = json.load(f)
        except (OSError, ValueError):
            pass
        det = g.get("detections", {}).get("count", "")
        bf = g.get("bad_frees", {}).get("count", "")
        fl = g.get("findings", {}).get("list", [])
        gfirst = fl[0]["kind"] if fl else "-"
        if gfirst.startswith(("DOUBLE_FREE", "FREE_")) or gfirst == "BAD_FREE":
            gfirst = "BAD_FREE"
        rtl = [det, bf, gfirst, m.group(1) if m else "", m.group(2) if m else ""]
        agree = int(m is not None and m.group(2) == "0" and [str(x) for x in live] == [str(x) for x in rtl[:3]])
        return [what + ":" + name, mode, tag_bits, ext, u[5], seed] + live + rtl + [agree]


def cmd_rtl(env, a):
    env.need(env.runner)
    for t in TAGS:
        env.need(os.path.join(env.build, "cosim", RTL_CFG[t], "gasim-rtl"))
    units = rtl_units(env, a.seeds, set(a.only.split(",")) if a.only else None, a.correct)
    variants = {v["variant"]: v for v in env.variants}
    with open("apps/variants.tsv", "rb") as f:
        vhash = hashlib.sha256(f.read()).hexdigest()
    progs = [variants[u[1]]["program"] if u[0] == "variant" else u[1] for u in units]
    rtlh = [sha(os.path.join(env.build, "cosim", RTL_CFG[t], "gasim-rtl")) for t in TAGS]
    spec = spec_of("rtl v2", a.seeds, units, vhash, env.binhash(progs), rtlh)
    sf = ShardFile(a.o, "rtl", len(units), spec, RTL_COLS)
    run_units(env, sf, units, parse_shard(a.shard), lambda u: rtl_row(env, variants, u), "rtl")
    sf.close()
    return 0


# ------------------------------------------------------------------------------------------------------
# report

def wilson(k, n, z=1.96):
    """95 % Wilson score interval of k successes in n trials (sim/eval/ga_campaign.h's formula)."""
    if n == 0:
        return 0.0, 1.0
    p = k / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return max(0.0, c - h), min(1.0, c + h)


def pct(k, n):
    lo, hi = wilson(k, n)
    return "%.2f%% [%.2f, %.2f] (n = %d)" % (100.0 * k / n if n else 0.0, 100 * lo, 100 * hi, n)


def write_csv(path, header, rows):
    with open(path, "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(header)
        for r in rows:
            w.writerow(r)


def num(x):
    try:
        return int(x)
    except (TypeError, ValueError):
        return 0


def gmean(v):
    v = [x for x in v if x > 0]
    return math.exp(sum(math.log(x) for x in v) / len(v)) if v else 0.0


class Report:
    def __init__(self, env, corpus_dir, out_dir, gaptx):
        self.env, self.cd, self.od, self.gaptx = env, corpus_dir, out_dir, gaptx
        self.fail = []  # every broken promise, one line each
        self.notes = []  # what is worth a look but breaks no promise
        self.dyn = read_merged(os.path.join(corpus_dir, "dyn.csv"))
        self.bugs = read_merged(os.path.join(corpus_dir, "bugs.csv"))
        self.rtl = read_merged(os.path.join(corpus_dir, "rtl.csv"))
        self.sweep = read_merged(os.path.join(corpus_dir, "sweep.csv"))
        meta = os.path.join(corpus_dir, "meta.json")
        self.meta = json.load(open(meta)) if os.path.exists(meta) else {}
        self.d = {(r["program"], r["mode"], r["layout"]): r for r in self.dyn}
        self.kind = {p["name"]: p for p in env.manifest}

    def static(self, prog):
        """gaptx report --json of the program's PTX (the compiler pass's static counts)."""
        path = os.path.join(self.cd, "static", prog + ".json")
        if not os.path.exists(path):
            os.makedirs(os.path.dirname(path), exist_ok=True)
            src = os.path.join(self.env.apps, prog + ".ptx")
            p = subprocess.run([self.gaptx, "report", src, "--json", "-o", path], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True)
            if p.returncode != 0:
                self.fail.append("gaptx report %s failed: %s" % (src, p.stderr.strip()[:200]))
                return None
        with open(path) as f:
            return json.load(f)["totals"]

    # ---- the corpus' own promises (apps/README.md) and the cross-checks
    def check_dyn(self):
        for p in self.env.manifest:
            for m in MODES:
                for lay in LAYOUTS:
                    r = self.d.get((p["name"], m, lay))
                    if r is None:
                        self.fail.append("dyn: no run of %s %s %s" % (p["name"], m, lay))
                        continue
                    if p["kind"] == "ok":
                        if r["line"] != "PASS" or r["exit"] != "0" or r["armor_reports"] != "0":
                            self.fail.append("dyn: %s %s %s: %s, exit %s, %s GPUArmor reports (a correct program "
                                             "must pass with none)" % (p["name"], m, lay, r["line"], r["exit"],
                                                                       r["armor_reports"]))
                    else:
                        want = p["expect_" + m].rstrip("?").split("|")
                        got = r["first_armor"]
                        okk = (want == ["clean"] and got == "-") or got in want or \
                              (got == "-" and p["expect_" + m].endswith("?"))
                        if not okk or r["line"] != "RAN":
                            self.fail.append("dyn: %s %s %s: first report %s, expected %s" % (
                                p["name"], m, lay, got, p["expect_" + m]))
                # the interpreter's accounting: instrumented = original + GPUArmor's + calling convention
            rc, rh = self.d.get((p["name"], "compiler", "bst")), self.d.get((p["name"], "hwonly", "bst"))
            if rc and rh and num(rc["thread_insns"]) != num(rh["thread_insns"]) + num(rc["ga_insns"]) + \
                    num(rc["ga_overhead"]):
                self.notes.append("dyn: %s: compiler-mode thread instructions %s != original %s + GPUArmor %s + "
                                 "calling convention %s: the instrumented and the original run interleave their "
                                 "warps differently (the scheduler's quanta count instructions, docs/emulator.md "
                                 "§5.1), so a loop whose trip count depends on the interleaving (an atomicCAS "
                                 "retry loop) runs a different number of times; the JSON report's per-launch "
                                 "counters (`launches`) show which kernel" % (
                                     p["name"], rc["thread_insns"], rh["thread_insns"], rc["ga_insns"],
                                     rc["ga_overhead"]))

    def check_replay(self):
        """Each captured trace replays (gasweep) with the counters the interpreter reported, in every
        layout: the premise of the corpus rows of Fig 9-13."""
        sw = {(r["program"], r["mode"], r["layout"], r["mlb"]): r for r in self.sweep}
        pairs = [("mlu_loadmeta", "loadmeta"), ("mlu_loadmeta_hits", "loadmeta_hits"), ("mlu_walks", "walks"),
                 ("mlu_walk_steps", "walk_steps"), ("mlu_memcheck_g", "memcheck_g"), ("mlu_fetches", "fetches"),
                 ("mlu_fetch_hits", "fetch_hits"), ("mlu_md_reads", "md_reads"), ("mlu_access", "access")]
        n = 0
        for (prog, mode, lay), r in sorted(self.d.items()):
            s = sw.get((prog, mode, lay, "8"))
            if s is None:
                continue
            n += 1
            bad = [(a, r[a], s[b]) for a, b in pairs if num(r[a]) != num(s[b])]
            if bad:
                self.fail.append("replay: %s %s %s: the interpreter and gasweep's replay differ: %s" % (
                    prog, mode, lay, ", ".join("%s %s vs %s" % x for x in bad)))
        self.replay_checked = n

    # ---- Fig 7 and Fig 8
    def fig7_8(self):
        rows7, rows8 = [], []
        for p in self.env.manifest:
            rc, rh = self.d.get((p["name"], "compiler", "bst")), self.d.get((p["name"], "hwonly", "bst"))
            st = self.static(p["name"])
            if rc is None or rh is None or st is None:
                continue
            base, wbase = num(rh["thread_insns"]), num(rh["warp_insns"])
            ga, conv = num(rc["ga_insns"]), num(rc["ga_overhead"])
            sga = st["loadmeta"] + st["memcheck_g"] + st["memcheck_s"] + st["md_movs"]
            rows7.append([p["name"], p["kind"], base, num(rc["thread_insns"]), ga, conv,
                          "%.4f" % (100.0 * ga / base if base else 0), "%.4f" % (100.0 * conv / base if base else 0),
                          wbase, "%.4f" % (1000.0 * num(rc["loadmeta"]) / wbase if wbase else 0),
                          "%.4f" % (1000.0 * num(rc["memcheck_g"]) / wbase if wbase else 0),
                          "%.4f" % (1000.0 * num(rc["memcheck_s"]) / wbase if wbase else 0),
                          st["insns_before"], st["insns_after"], sga, st["overhead"],
                          "%.4f" % (100.0 * sga / st["insns_before"] if st["insns_before"] else 0),
                          "%.4f" % (100.0 * st["overhead"] / st["insns_before"] if st["insns_before"] else 0),
                          "%.4f" % (100.0 * num(rh["hw_checks"]) / wbase if wbase else 0)])
            dn = [num(rc["memcheck_g_full"]), num(rc["memcheck_g_partial"]), num(rc["memcheck_g_tagging"])]
            sn = [st["memcheck_g_full"], st["memcheck_g_partial"], st["memcheck_g_tagging"]]
            rows8.append([p["name"], p["kind"]] + dn + ["%.4f" % (100.0 * x / sum(dn)) if sum(dn) else "" for x in dn] +
                         sn + ["%.4f" % (100.0 * x / sum(sn)) if sum(sn) else "" for x in sn])
        write_csv(os.path.join(self.od, "fig7.csv"),
                  ["program", "kind", "base_thread_insns", "instrumented_thread_insns", "ga_insns", "ga_overhead",
                   "bloat_pct", "callconv_pct", "base_warp_insns", "loadmeta_per_kwarp", "memcheck_g_per_kwarp",
                   "memcheck_s_per_kwarp", "static_insns_before", "static_insns_after", "static_ga_insns",
                   "static_callconv", "static_bloat_pct", "static_callconv_pct", "global_access_pct"], rows7)
        write_csv(os.path.join(self.od, "fig8.csv"),
                  ["program", "kind", "dyn_full", "dyn_partial", "dyn_tagging", "dyn_full_pct", "dyn_partial_pct",
                   "dyn_tagging_pct", "static_full", "static_partial", "static_tagging", "static_full_pct",
                   "static_partial_pct", "static_tagging_pct"], rows8)
        self.rows7, self.rows8 = rows7, rows8

    def md_fig7(self):
        r7 = self.rows7
        ok = [r for r in r7 if r[1] == "ok"]
        out = io.StringIO()
        w = out.write
        w("## 1. Instruction bloat of the instrumentation on real programs (Fig 7 analogue)\n\n")
        w("Every corpus program (apps/manifest.tsv) run once in compiler mode (the instrumented PTX) and once "
          "in HWOnly mode (the original PTX), BST layout, 8-entry MLB, seed 1. *Bloat* = the thread "
          "instructions the instrumentation added (LOADMETA, MEMCHECK.G, MEMCHECK.S and the MOVs that carry "
          "metadata locations; the paper's Fig 7) / the original program's thread instructions. Our "
          "instrumentation calls device functions (issue 10's calling convention: the PTX must assemble with "
          "ptxas), so the `st.param` / `ld.param` around each call are counted apart (*call conv.*): a "
          "hardware GPUArmor has no such cost. The accounting is cross-checked: the instrumented run's thread "
          "instructions should equal the original's plus both (a program where they do not is named in "
          "§10's notes). *Static*: the same ratio over the PTX text, from `gaptx report --json`. *per 1 000 warp "
          "insns*: the MLU requests the run issued per 1 000 original warp instructions. CSV: "
          "[fig7.csv](results/fig7.csv).\n\n![Fig 7 analogue](results/fig7.png)\n\n")
        w("| program | original thread insns | bloat (dynamic) | call conv. (dynamic) | LOADMETA / MEMCHECK.G / "
          "MEMCHECK.S per 1 000 warp insns | bloat (static) | call conv. (static) |\n|---|---|---|---|---|---|---|\n")
        for r in r7:
            w("| %s%s | %d | %.2f %% | %.2f %% | %.1f / %.1f / %.1f | %.2f %% | %.2f %% |\n" % (
                r[0], "" if r[1] == "ok" else " (bug)", r[2], float(r[6]), float(r[7]), float(r[9]), float(r[10]),
                float(r[11]), float(r[16]), float(r[17])))
        bl = [float(r[6]) for r in ok]
        sb = [float(r[16]) for r in ok]
        if bl:
            w("| **mean of the %d correct programs** | | %.2f %% | %.2f %% | | %.2f %% | %.2f %% |\n" % (
                len(ok), sum(bl) / len(bl), sum(float(r[7]) for r in ok) / len(ok), sum(sb) / len(sb),
                sum(float(r[17]) for r in ok) / len(ok)))
            mx = max(ok, key=lambda r: float(r[6]))
            mn = min(ok, key=lambda r: float(r[6]))
            gs = sorted(float(r[18]) for r in ok)
            w("\nOver the %d correct programs the dynamic bloat ranges from %.2f %% (%s) to %.2f %% (%s), "
              "median %.2f %%. The paper shows Fig 7 only as a plot (§6.2: \"Figure 7 shows the total dynamic "
              "instruction bloat due to adding our new instructions\"); its text gives no number to set "
              "beside ours. What drives the bloat is the share of global accesses, each of which needs a "
              "MEMCHECK.G: in our programs %.1f %% of the original warp instructions are global accesses "
              "(median; %.1f .. %.1f %%, counted as HWOnly checks), against about 6 %% in the paper's "
              "applications (§3.2, Fig 2), so their bloat is an upper-end figure.\n\n" % (
                  len(ok), float(mn[6]), mn[0], float(mx[6]), mx[0], sorted(bl)[len(bl) // 2],
                  gs[len(gs) // 2], gs[0], gs[-1]))
        return out.getvalue()

    def md_fig8(self):
        r8 = self.rows8
        out = io.StringIO()
        w = out.write
        w("## 2. Root-pointer coverage of MEMCHECK.G on real programs (Fig 8 analogue)\n\n")
        w("Each executed MEMCHECK.G request (a warp's check of one metadata location) classed by its "
          "LOADMETA root, as the paper's Fig 8 does: *full* (a true allocation base: a parameter, a loaded "
          "pointer, a global's address), *partial* (an address inside the object that differs from the "
          "access address), *tagging* (the access address itself, as HWOnly). *Dynamic*: counted by the "
          "interpreter in the compiler-mode run; *static*: the MEMCHECK.Gs in the PTX, from `gaptx report`. "
          "Programs without global accesses have no row in the averages. CSV: [fig8.csv](results/fig8.csv).\n\n"
          "![Fig 8 analogue](results/fig8.png)\n\n")
        w("| program | dynamic MEMCHECK.G | full / partial / tagging (dynamic) | static MEMCHECK.G | full / partial "
          "/ tagging (static) |\n|---|---|---|---|---|\n")
        dsh, ssh, dpool, spool = [], [], [0, 0, 0], [0, 0, 0]
        for r in r8:
            dn, sn = [int(x) for x in r[2:5]], [int(x) for x in r[8:11]]
            w("| %s%s | %d | %s | %d | %s |\n" % (
                r[0], "" if r[1] == "ok" else " (bug)", sum(dn),
                " / ".join("%.1f %%" % float(x) for x in r[5:8]) if sum(dn) else "—", sum(sn),
                " / ".join("%.1f %%" % float(x) for x in r[11:14]) if sum(sn) else "—"))
            if sum(dn):
                dsh.append([100.0 * x / sum(dn) for x in dn])
                dpool = [a + b for a, b in zip(dpool, dn)]
            if sum(sn):
                ssh.append([100.0 * x / sum(sn) for x in sn])
                spool = [a + b for a, b in zip(spool, sn)]

        def avg(v):
            return [sum(x[i] for x in v) / len(v) for i in range(3)] if v else [0, 0, 0]
        da, sa = avg(dsh), avg(ssh)
        w("| **mean of the programs' shares** | | %s | | %s |\n" % (" / ".join("%.1f %%" % x for x in da),
                                                                  " / ".join("%.1f %%" % x for x in sa)))
        w("| **all requests pooled** | %d | %s | %d | %s |\n" % (
            sum(dpool), " / ".join("%.1f %%" % (100.0 * x / sum(dpool)) for x in dpool) if sum(dpool) else "—",
            sum(spool), " / ".join("%.1f %%" % (100.0 * x / sum(spool)) for x in spool) if sum(spool) else "—"))
        w("| **paper (§7.2, Fig 8, average)** | | 55.5 % / 36 % / 8.5 % | | |\n\n")
        notfull = [r[0] for r in r8 if (int(r[3]) + int(r[4])) > 0]
        if not notfull and sum(dpool):
            w("Every MEMCHECK.G the corpus executed (%d requests) and every one in its PTX (%d) has a *full* "
              "root: the paper's 55.5 / 36 / 8.5 %% is not reproduced, and the reason is the code, not the "
              "counting. The corpus' pointers are kernel parameters, struct fields of parameters, pointers "
              "loaded from memory and `__device__` variables, and nvcc keeps the base visible in the PTX, so "
              "the slice (docs/compiler.md §3.3, R5) reaches a true root for every access; *partial* and "
              "*tagging* need intermediate roots (a pointer through a shuffle or an integer, an aligned-down "
              "pointer), which the analysis' own fixtures produce and these programs do not. Note what "
              "*full* means (R6, after the paper): a pointer loaded from memory counts as a true allocation "
              "base although the analysis cannot know it is one, so bug_interscope_oob's stray view is a "
              "*full* root that only its tag "
              "catches (§8).\n\n" % (sum(dpool), sum(spool)))
        else:
            w("Programs with a *partial* or *tagging* MEMCHECK.G: %s. The rest of the corpus indexes parameter "
              "arrays or walks loaded pointers, both *full* roots (docs/compiler.md; a loaded pointer counts as "
              "a true base although the analysis cannot know it is one). The paper's applications are large, "
              "with arithmetic the intra-procedural analysis cannot see through; our programs exercise each "
              "root kind once, they do not reproduce its proportions.\n\n" % ", ".join(notfull))
        self.fig8_avg = (da, sa)
        return out.getvalue()

    # ---- Table 4 from real bugs
    def table4(self):
        agg = {}
        var = {}
        wrong = []
        for r in self.bugs:
            k = (r["table4"], r["mode"], int(r["tag_bits"]), r["ext"])
            a = agg.setdefault(k, {"n": 0, "det": 0, "miss_ok": 0, "wrong": 0, "kinds": {}})
            a["n"] += 1
            a["det"] += int(r["detected"])
            a["miss_ok"] += r["verdict"] == "miss-allowed"
            a["wrong"] += r["verdict"] == "WRONG"
            a["kinds"][r["first_kind"]] = a["kinds"].get(r["first_kind"], 0) + 1
            vk = (r["variant"], r["mode"], int(r["tag_bits"]), r["ext"])
            v = var.setdefault(vk, {"n": 0, "det": 0, "wrong": 0, "kinds": {}})
            v["n"] += 1
            v["det"] += int(r["detected"])
            v["wrong"] += r["verdict"] == "WRONG"
            v["kinds"][r["first_kind"]] = v["kinds"].get(r["first_kind"], 0) + 1
            if r["verdict"] == "WRONG":
                wrong.append(r)
        for r in wrong[:20]:
            self.fail.append("bugs: %s %s %d-bit %s seed %s: exit %s %s, first report %s, expected %s" % (
                r["variant"], r["mode"], int(r["tag_bits"]), r["ext"], r["seed"], r["exit"], r["line"],
                r["first_kind"], r["expected"]))
        if len(wrong) > 20:
            self.fail.append("bugs: ... and %d more unexpected runs" % (len(wrong) - 20))
        rows = []
        for (t4, m, t, e), a in sorted(agg.items(), key=lambda kv: (
                (PAPER_ROWS + OTHER_ROWS).index(kv[0][0]), MODES.index(kv[0][1]), kv[0][2], EXTS.index(kv[0][3]))):
            lo, hi = wilson(a["det"], a["n"])
            rows.append([t4, m, t, e, a["n"], a["det"], "%.6f" % (a["det"] / a["n"]), "%.6f" % lo, "%.6f" % hi,
                         a["miss_ok"], a["wrong"], " ".join("%s:%d" % kv for kv in sorted(a["kinds"].items()))])
        write_csv(os.path.join(self.od, "table4_real.csv"),
                  ["class", "mode", "tag_bits", "ext", "runs", "detected", "rate", "wilson_lo", "wilson_hi",
                   "probabilistic_misses", "unexpected", "first_kinds"], rows)
        vrows = []
        order = {v["variant"]: i for i, v in enumerate(self.env.variants)}
        for (vn, m, t, e), v in sorted(var.items(), key=lambda kv: (order.get(kv[0][0], 0), MODES.index(kv[0][1]),
                                                                    kv[0][2], EXTS.index(kv[0][3]))):
            vrows.append([vn, m, t, e, v["n"], v["det"], v["wrong"],
                          " ".join("%s:%d" % kv for kv in sorted(v["kinds"].items()))])
        write_csv(os.path.join(self.od, "table4_real_variants.csv"),
                  ["variant", "mode", "tag_bits", "ext", "runs", "detected", "unexpected", "first_kinds"], vrows)
        self.agg, self.var = agg, var

    def md_table4(self):
        agg = self.agg
        out = io.StringIO()
        w = out.write
        seeds = max([int(r["seed"]) for r in self.bugs] or [0])
        nvar = len({r["variant"] for r in self.bugs})
        w("## 8. Table 4 from real bugs\n\n")
        w("The corpus' bug programs (apps/, one memory-safety error per run, written for this project) in %d "
          "variants (apps/variants.tsv: sizes, offsets, launch shapes; the manifest's run is the first "
          "variant of each program), each run by the interpreter %d times with different tag seeds (trial s "
          "of a variant runs with a seed derived from the variant's name and s: the runtime draws every tag "
          "from its seed, and variants of one program would otherwise share their tags), in compiler mode and HWOnly, with 7-bit tags (57-bit VA, as the "
          "paper's Table 4) and 16-bit tags (48-bit VA), and with the runtime's neighbour-distinct and "
          "quarantine (W = %d) extensions (spec §7.6): %d runs. A run *detects* the bug when GPUArmor "
          "reports it (an MLU exception, or a `cudaFree` the runtime refuses); every run is also checked "
          "against its variant's expected kind. Rates with 95 %% Wilson intervals over all runs of the "
          "class's variants; n = runs. CSV: [table4_real.csv](results/table4_real.csv), per variant: "
          "[table4_real_variants.csv](results/table4_real_variants.csv).\n\n" % (
              nvar, seeds, QUARANTINE, len(self.bugs)))

        def cell(t4, m, t, e):
            a = agg.get((t4, m, t, e))
            return pct(a["det"], a["n"]) if a else "—"
        w("| class | GPUArmor (paper) | GPUArmor 7-bit | HWOnly (paper) | HWOnly 7-bit | GPUArmor 16-bit | "
          "HWOnly 16-bit |\n|---|---|---|---|---|---|---|\n")
        for t4 in PAPER_ROWS:
            w("| %s | %s | %s | %s | %s | %s | %s |\n" % (ROW_NAME[t4], PAPER_T4[t4][0], cell(t4, "compiler", 7, "none"),
                                                        PAPER_T4[t4][1], cell(t4, "hwonly", 7, "none"),
                                                        cell(t4, "compiler", 16, "none"), cell(t4, "hwonly", 16, "none")))
        for t4 in OTHER_ROWS:
            w("| %s (not in the paper's table) | — | %s | — | %s | %s | %s |\n" % (
                ROW_NAME[t4], cell(t4, "compiler", 7, "none"), cell(t4, "hwonly", 7, "none"),
                cell(t4, "compiler", 16, "none"), cell(t4, "hwonly", 16, "none")))
        w("\nWith the runtime's extensions, 7-bit tags:\n\n| class | GPUArmor + neighbour-distinct | GPUArmor + "
          "quarantine | GPUArmor + both | HWOnly + neighbour-distinct | HWOnly + quarantine | HWOnly + both |\n"
          "|---|---|---|---|---|---|---|\n")
        for t4 in PAPER_ROWS + OTHER_ROWS:
            w("| %s | %s |\n" % (ROW_NAME[t4], " | ".join(cell(t4, m, 7, e) for m in MODES for e in ("nd", "q64",
                                                                                                  "both"))))
        miss = sum(a["miss_ok"] for a in agg.values())
        variants = {v["variant"]: v for v in self.env.variants}
        open7, expect = 0, 0.0
        prob_runs = 0
        for r in self.bugs:
            if not r["expected"].endswith("?"):
                continue
            prob_runs += 1
            sw = variants[r["variant"]]["sure_with"] if r["variant"] in variants else "-"
            if sw != "-" and (r["ext"] == "both" or (sw == "nd" and r["ext"] == "nd") or (sw == "q" and r["ext"] == "q64")):
                continue
            open7 += r["tag_bits"] == "7"
            expect += 1.0 / 126 if r["tag_bits"] == "7" else 1.0 / 65534
        wrong = sum(a["wrong"] for a in agg.values())
        w("\n16-bit tags with the extensions are in the CSV. Every run was as its variant predicts, except "
          "%d unexpected run(s) (listed in §10 if any). %d runs have a probabilistic expectation (a `?`: "
          "missed when two random tags are equal); %d of them missed, against %.1f expected: 1/126 per run "
          "with 7-bit tags where the extension that makes it certain is off (%d such runs), 1/65 534 with "
          "16-bit tags (1/256 for wild_into, whose forged 16-bit tag keeps in's low byte; counted as 1/65 534 "
          "here). How to read the classes: compiler mode checks "
          "an intra-scope overflow against the bounds of its root (OUT_OF_BOUNDS whatever the tags), HWOnly "
          "and inter-scope accesses are looked up by address and caught by the tag unless the tags collide; "
          "an overflow into padding or outside the heap finds no entry (NO_METADATA, certain); sub-object "
          "overflows and tag-0 (null) pointers are never caught, by design (spec §1.1); shared-memory "
          "overflows are caught only with the compiler's MEMCHECK.S.\n\n" % (
              wrong, prob_runs, miss, expect, open7))
        return out.getvalue()

    # ---- the RTL and how the run was made
    def md_runs(self):
        out = io.StringIO()
        w = out.write
        w("## 10. The RTL, the cross-checks and the shards of this run\n\n")
        rt = self.rtl
        if rt:
            for t in TAGS:
                sub = [r for r in rt if r["tag_bits"] == str(t)]
                if not sub:
                    continue
                ag = sum(int(r["agree"]) for r in sub)
                req = sum(num(r["rtl_requests"]) for r in sub)
                mm = sum(num(r["rtl_mismatches"]) for r in sub)
                nv = len({r["what"] for r in sub if r["what"].startswith("variant:")})
                nb = sum(1 for r in sub if r["what"].startswith("variant:"))
                npg = len({r["what"] for r in sub if r["what"].startswith("program:")})
                w("- **The corpus on the RTL, %d-bit tags** (`%s`): %d runs (%d runs of the %d bug variants: every "
                  "mode and extension, the `bugs` campaign's first %d trial(s) with their seeds%s), each "
                  "captured (`gpuarmor-run --trace-out`) and replayed through the Verilated MLU in lockstep "
                  "with the model (`build/cosim/%s/gasim-rtl --rtl`): %d requests, %d mismatches; %d of %d "
                  "replays report exactly the live run's detections, refused frees and first kind.\n" % (
                      t, RTL_CFG[t], len(sub), nb, nv, max([int(r["seed"]) for r in sub] or [0]),
                      "; %d runs of the %d correct programs, both modes, seed 1" % (len(sub) - nb, npg) if npg else "",
                      RTL_CFG[t], req, mm, ag, len(sub)))
                for r in sub:
                    if r["agree"] != "1":
                        self.fail.append("rtl: %s %s %s-bit %s seed %s: live %s/%s/%s, RTL replay %s/%s/%s, "
                                         "%s mismatches" % (r["what"], r["mode"], r["tag_bits"], r["ext"], r["seed"],
                                                            r["live_detections"], r["live_bad_frees"],
                                                            r["live_first"], r["rtl_detections"],
                                                            r["rtl_bad_frees"], r["rtl_first"], r["rtl_mismatches"]))
        else:
            w("- **Real bugs on the RTL**: not run (the Verilated configurations were not built: `make "
              "gasim-rtl RTL_CFG=t7_m8_l32` and `RTL_CFG=t16_m8_l32`).\n")
        for t in ("7", "16"):
            x = self.meta.get("t4rtl", {}).get(t)
            if x:
                w("- **Injected Table 4 on the RTL, %s-bit tags**: the GPUArmor schemes of that width (%d rows of "
                  "table4.csv, %d injections per class) through `build/cosim/%s/gaeval-rtl table4 --tag-bits %s "
                  "--backend rtl`: %s (%.0f s).\n" % (t, x["rows"], x["trials"], RTL_CFG[int(t)], t,
                                                     "exit 0 (no lockstep mismatch) and rows byte-identical to "
                                                     "the model's" if x["identical"] else "**differs from the "
                                                                                           "model**", x["seconds"]))
                if not x["identical"]:
                    self.fail.append("t4rtl: %s-bit: the RTL's table4.csv differs from the model's" % t)
        w("- **Replays match the live runs**: %d (program, mode, layout) runs of the interpreter with an "
          "8-entry MLB compared with gasweep's replay of the captured trace in the same layout: every MLU "
          "counter equal%s.\n" % (getattr(self, "replay_checked", 0),
                                  "" if not [f for f in self.fail if f.startswith("replay")] else
                                  " **except the ones listed below**"))
        sc = self.meta.get("shardcheck", {})
        if sc:
            w("- **Shards**: each campaign run on a subset as one shard and as 3 shards, the shards merged "
              "with `gaeval merge`: %s.\n" % "; ".join("%s %d units %s" % (
                  k, v["units"], "byte-identical" if v["identical"] else "**DIFFERENT**") for k, v in sorted(sc.items())))
            for k, v in sc.items():
                if not v["identical"]:
                    self.fail.append("shards: %s: 3 shards merged differ from one run" % k)
        tm = self.meta.get("seconds", {})
        if tm:
            w("- **Wall times** of this run (%s, %d jobs): %s.\n" % (
                self.meta.get("scale", "?"), self.meta.get("jobs", 0),
                ", ".join("%s %.0f s" % kv for kv in sorted(tm.items()))))
        w("\n")
        if self.notes:
            w("**Notes** (no promise broken, but worth a look):\n\n")
            for n in self.notes:
                w("- %s\n" % n)
            w("\n")
        if self.fail:
            w("**Problems found by this run** (each one fails `make eval`):\n\n")
            for f in self.fail:
                w("- %s\n" % f)
            w("\n")
        return out.getvalue()

    def fill(self, results):
        """Fill results.md's corpus sections. gaeval run's text (with the placeholders) is kept as
        results.md.in beside it, so the report can be made again from new campaign files."""
        with open(results) as f:
            text = f.read()
        if "<!-- eval_corpus:" in text:
            with open(results + ".in", "w") as f:
                f.write(text)
        elif os.path.exists(results + ".in"):
            with open(results + ".in") as f:
                text = f.read()
        parts = {"<!-- eval_corpus: fig7 fig8 -->": self.md_fig7() + self.md_fig8(),
                 "<!-- eval_corpus: table4 -->": self.md_table4()}
        runs = self.md_runs()  # last: it lists the problems every other part found
        parts["<!-- eval_corpus: runs -->"] = runs
        for k, v in parts.items():
            if k not in text:
                die("%s: no placeholder %s (run gaeval run first)" % (results, k), 1)
            text = text.replace(k + "\n", v.rstrip("\n") + "\n")
        with open(results + ".tmp", "w") as f:
            f.write(text)
        os.replace(results + ".tmp", results)


def cmd_report(env, a):
    if a.skipped:
        # the corpus was not run: say so where its sections go, so results.md is complete either way
        path = os.path.join(a.out, "results.md")
        with open(path) as f:
            text = f.read()
        note = ("*The corpus part of this evaluation was not run: %s. Sections 1, 2, 8 and 10 and the "
                "corpus rows of §4–§6 need nvcc and the CUDA runtime build (docs/eval.md, \"The corpus\").*\n"
                % a.skipped)
        heads = {"fig7 fig8": "## 1–2. Instruction bloat and coverage on real programs (Fig 7, Fig 8 analogues)",
                 "table4": "## 8. Table 4 from real bugs", "runs": "## 10. The RTL, the cross-checks and the shards"}
        for k, h in heads.items():
            text = text.replace("<!-- eval_corpus: %s -->\n" % k, "%s\n\n%s" % (h, note))
        with open(path + ".tmp", "w") as f:
            f.write(text)
        os.replace(path + ".tmp", path)
        return 0
    if not a.corpus:
        die("report: --corpus DIR (or --skipped REASON) is required")
    rep = Report(env, a.corpus, a.out, a.gaptx)
    if not rep.dyn:
        die("%s/dyn.csv: missing or empty (run the dyn campaign)" % a.corpus, 1)
    rep.check_dyn()
    rep.check_replay()
    rep.fig7_8()
    rep.table4()
    rep.fill(os.path.join(a.out, "results.md"))
    for f in rep.notes:
        print("eval_corpus: note: " + f, file=sys.stderr)
    for f in rep.fail:
        print("eval_corpus: " + f, file=sys.stderr)
    print("eval_corpus: report: %d dyn rows, %d bug runs, %d RTL replays, %d sweep rows: %s" % (
        len(rep.dyn), len(rep.bugs), len(rep.rtl), len(rep.sweep),
        "as expected" if not rep.fail else "%d problem(s)" % len(rep.fail)), file=sys.stderr)
    return 1 if rep.fail else 0


# ------------------------------------------------------------------------------------------------------
# all: every campaign at a scale, merged, with the shard check

SCALES = {"smoke": {"seeds": 1, "rtl_seeds": 1, "rtl_correct": False, "t4_trials": 500},
          "full": {"seeds": 40, "rtl_seeds": 3, "rtl_correct": True, "t4_trials": 20000}}


class Args:
    def __init__(self, **kw):
        self.__dict__.update(kw)


def sh(cmd, what):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if p.returncode != 0:
        die("%s failed (exit %d): %s\n%s" % (what, p.returncode, " ".join(cmd), p.stdout[-3000:]), 1)
    return p.stdout


def merge(gaeval, out, parts):
    sh([gaeval, "merge", "-o", out] + parts, "gaeval merge")


def campaign(env, kind, out, extra, shard="0/1"):
    a = Args(o=out, shard=shard, only=extra.get("only", ""), traces=extra.get("traces"),
             seeds=extra.get("seeds", 1), correct=extra.get("correct", False))
    {"dyn": cmd_dyn, "bugs": cmd_bugs, "rtl": cmd_rtl}[kind](env, a)


def gasweep_shards(tool, gaeval, traces, out, n, tmpdir):
    """gasweep as n shard processes in parallel, merged into out."""
    parts = [os.path.join(tmpdir, "%s.%d-of-%d.csv" % (os.path.basename(out), i, n)) for i in range(n)]
    procs = [subprocess.Popen([tool, "-o", parts[i], "--shard", "%d/%d" % (i, n)] + traces, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True) for i in range(n)]
    for p in procs:
        o, _ = p.communicate()
        sys.stderr.write(o)
        if p.returncode != 0:
            die("gasweep failed (exit %d)" % p.returncode, 1)
    merge(gaeval, out, parts)


def identical(a, b):
    with open(a, "rb") as f, open(b, "rb") as g:
        return f.read() == g.read()


def cmd_all(env, a):
    sc = dict(SCALES[a.scale])
    for k in ("seeds", "rtl_seeds"):
        if getattr(a, k) is not None:
            sc[k] = getattr(a, k)
    gaeval = os.path.join(env.build, "rel", "eval", "gaeval")
    gasweep = os.path.join(env.build, "rel", "eval", "gasweep")
    env.need(env.runner, gaeval, gasweep)
    out = a.out
    if os.path.isdir(out) and not a.resume:
        shutil.rmtree(out)
    os.makedirs(out, exist_ok=True)
    raw = os.path.join(out, "shards")
    traces = os.path.join(out, "traces")
    os.makedirs(raw, exist_ok=True)
    meta = {"scale": a.scale, "jobs": env.jobs, "seconds": {}, "shardcheck": {}, "t4rtl": {}}
    have_rtl = all(os.path.exists(os.path.join(env.build, "cosim", RTL_CFG[t], "gasim-rtl")) for t in TAGS)

    def timed(name, fn):
        t0 = time.time()
        fn()
        meta["seconds"][name] = time.time() - t0

    def one(kind, extra):
        part = os.path.join(raw, kind + ".0-of-1.csv")
        campaign(env, kind, part, extra)
        merge(gaeval, os.path.join(out, kind + ".csv"), [part])

    timed("dyn", lambda: one("dyn", {"traces": traces}))
    ok = [p["name"] for p in env.manifest if p["kind"] == "ok"]
    tr = sorted(os.path.join(traces, "%s.%s.gatrace.gz" % (p, m)) for p in ok for m in MODES)
    timed("gasweep", lambda: gasweep_shards(gasweep, gaeval, tr, os.path.join(out, "sweep.csv"), env.jobs, raw))
    timed("bugs", lambda: one("bugs", {"seeds": sc["seeds"]}))
    if have_rtl:
        timed("rtl", lambda: one("rtl", {"seeds": sc["rtl_seeds"], "correct": sc["rtl_correct"]}))
        for t in TAGS:
            rtl_eval = os.path.join(env.build, "cosim", RTL_CFG[t], "gaeval-rtl")
            if not os.path.exists(rtl_eval):
                continue
            t0 = time.time()
            d_r, d_m = os.path.join(out, "t4rtl", str(t)), os.path.join(out, "t4model", str(t))
            sh([rtl_eval, "table4", "--tag-bits", str(t), "--backend", "rtl", "--trials", str(sc["t4_trials"]),
                "--out", d_r], "gaeval-rtl table4 (%d-bit)" % t)
            sh([gaeval, "table4", "--tag-bits", str(t), "--backend", "model", "--trials", str(sc["t4_trials"]),
                "--out", d_m], "gaeval table4 (%d-bit)" % t)
            fr, fm = os.path.join(d_r, "table4.csv"), os.path.join(d_m, "table4.csv")
            meta["t4rtl"][str(t)] = {"trials": sc["t4_trials"], "identical": identical(fr, fm),
                                     "rows": sum(1 for _ in open(fm)) - 1, "seconds": time.time() - t0}
    else:
        print("eval_corpus: the RTL replays are skipped: build/cosim/t7_m8_l32/gasim-rtl and "
              "build/cosim/t16_m8_l32/gasim-rtl are needed (make gasim-rtl gaeval-rtl RTL_CFG=t7_m8_l32, then "
              "RTL_CFG=t16_m8_l32)", file=sys.stderr)

    # the shard check: a subset of every campaign as 1 and as 3 shards, merged: the same bytes
    def check(name, run1, runs3):
        d = os.path.join(out, "shardcheck", name)
        os.makedirs(d, exist_ok=True)
        one_part = run1(d)
        merge(gaeval, os.path.join(d, "one.csv"), [one_part])
        merge(gaeval, os.path.join(d, "three.csv"), runs3(d))
        with open(os.path.join(d, "one.csv")) as f:
            units = sum(1 for _ in f) - 2
        meta["shardcheck"][name] = {"units": units, "identical": identical(os.path.join(d, "one.csv"),
                                                                            os.path.join(d, "three.csv"))}

    def py_check(kind, extra):
        def r1(d):
            p = os.path.join(d, "1.csv")
            campaign(env, kind, p, extra)
            return p

        def r3(d):
            ps = [os.path.join(d, "3-%d.csv" % i) for i in range(3)]
            for i, p in enumerate(ps):
                campaign(env, kind, p, extra, "%d/3" % i)
            return ps
        return r1, r3

    t0 = time.time()
    check("dyn", *py_check("dyn", {"only": "vector_add,ptr_select,bug_uaf", "traces": None}))
    check("bugs", *py_check("bugs", {"only": "adj256,inter,duaf", "seeds": 1}))
    if have_rtl:
        check("rtl", *py_check("rtl", {"only": "gap,uaf", "seeds": 1}))
    sw_tr = [t for t in tr if os.path.basename(t).startswith(("vector_add.", "saxpy."))]

    def sw1(d):
        p = os.path.join(d, "1.csv")
        sh([gasweep, "-o", p] + sw_tr, "gasweep")
        return p

    def sw3(d):
        ps = [os.path.join(d, "3-%d.csv" % i) for i in range(3)]
        for i, p in enumerate(ps):
            sh([gasweep, "-o", p, "--shard", "%d/3" % i] + sw_tr, "gasweep")
        return ps
    check("gasweep", sw1, sw3)

    def t1(d):
        p = os.path.join(d, "1.csv")
        sh([gaeval, "campaign", "-o", p, "--trials", "1500"], "gaeval campaign")
        return p

    def t3(d):
        ps = [os.path.join(d, "3-%d.csv" % i) for i in range(3)]
        for i, p in enumerate(ps):
            sh([gaeval, "campaign", "-o", p, "--trials", "1500", "--shard", "%d/3" % i], "gaeval campaign")
        return ps
    check("table4", t1, t3)
    meta["seconds"]["shardcheck"] = time.time() - t0
    with open(os.path.join(out, "meta.json"), "w") as f:
        json.dump(meta, f, indent=1, sort_keys=True)
    bad = [k for k, v in meta["shardcheck"].items() if not v["identical"]]
    print("eval_corpus: all (%s) in %s: %s; shard check %s" % (
        a.scale, out, ", ".join("%s %.0f s" % kv for kv in sorted(meta["seconds"].items())),
        "byte-identical for " + ", ".join(sorted(meta["shardcheck"])) if not bad else "FAILED for " + ", ".join(bad)),
        file=sys.stderr)
    return 1 if bad else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default="build", help="the build directory (default build)")
    ap.add_argument("--jobs", type=int, default=2, help="runs at a time (default 2)")
    ap.add_argument("--timeout", type=int, default=600, help="seconds per run before it counts as hung")
    sub = ap.add_subparsers(dest="cmd")
    for name, hlp in (("dyn", "Fig 7/8 runs and trace capture"), ("bugs", "Table 4 from real bugs"),
                      ("rtl", "bug runs replayed through the RTL")):
        p = sub.add_parser(name, help=hlp)
        p.add_argument("-o", required=True, help="the shard file (resumed when it exists)")
        p.add_argument("--shard", default="0/1", help="I/N: run the units u with u mod N == I")
        p.add_argument("--only", default="", help="comma-separated programs (dyn) or variants (bugs, rtl)")
        if name == "dyn":
            p.add_argument("--traces", default=None, help="directory for the captured traces")
        else:
            p.add_argument("--seeds", type=int, default=1, help="seeds 1 .. N per configuration")
        if name == "rtl":
            p.add_argument("--correct", action="store_true", help="also the correct programs (seed 1)")
    p = sub.add_parser("report", help="merged campaign files -> figures, tables and results.md sections")
    p.add_argument("--corpus", help="directory holding dyn.csv, bugs.csv, rtl.csv, sweep.csv")
    p.add_argument("--skipped", help="the corpus was not run, for this reason: fill its sections with a note")
    p.add_argument("--out", required=True, help="the evaluation directory holding gaeval's results.md")
    p.add_argument("--gaptx", default="build/rel/ptx/gaptx")
    p = sub.add_parser("all", help="every campaign at a scale, merged, and the shard check")
    p.add_argument("--scale", choices=sorted(SCALES), default="smoke")
    p.add_argument("--out", required=True)
    p.add_argument("--seeds", type=int, default=None, help="bug runs per configuration (smoke 1, full 40)")
    p.add_argument("--rtl-seeds", dest="rtl_seeds", type=int, default=None, help="RTL replays per configuration")
    p.add_argument("--resume", action="store_true", help="keep the rows of an interrupted run")
    a = ap.parse_args()
    if a.cmd is None:
        ap.print_usage(sys.stderr)
        die("expected a command: dyn, bugs, rtl, report or all")
    if getattr(a, "seeds", 1) is not None and getattr(a, "seeds", 1) < 1:
        die("--seeds must be at least 1")
    if a.jobs < 1:
        die("--jobs must be at least 1")
    for f in ("apps/manifest.tsv", "apps/variants.tsv"):
        if not os.path.exists(f):
            die("%s not found: run from the repository root" % f)
    env = Env(a)
    return {"dyn": cmd_dyn, "bugs": cmd_bugs, "rtl": cmd_rtl, "report": cmd_report, "all": cmd_all}[a.cmd](env, a)


if __name__ == "__main__":
    sys.exit(main())
