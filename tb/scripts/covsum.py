#!/usr/bin/env python3
"""Summarise Verilator coverage data of rtl/ over several configurations.

    covsum.py OUTDIR FILE.dat...

Each configuration elaborates the modules with other parameters, so Verilator names the same source
point differently per configuration (the page carries the parameters, the hierarchy differs). Here a
point is identified by its source position instead: (kind, file, line, column, what) for lines and
branches, (kind, file, signal bit) for toggles, and it counts as covered when any configuration
covered it. Writes OUTDIR/summary.txt and OUTDIR/uncovered.txt and prints the summary.
"""
import collections
import os
import re
import sys

KINDS = ("line", "branch", "toggle", "user")


def parse(path):
    """Yield (fields, count) for every point of a Verilator coverage file."""
    with open(path, "rb") as f:
        for raw in f:
            if not raw.startswith(b"C '"):
                continue
            body, _, count = raw.rstrip(b"\n").rpartition(b"' ")
            fields = {}
            for item in body[3:].split(b"\x01"):
                if b"\x02" in item:
                    k, _, v = item.partition(b"\x02")
                    fields[k.decode()] = v.decode(errors="replace")
            yield fields, int(count)


def main():
    if len(sys.argv) < 3:
        sys.stderr.write(__doc__)
        return 2
    out = sys.argv[1]
    root = os.getcwd()
    points = collections.defaultdict(int)   # key -> hits summed over configurations
    where = {}
    for path in sys.argv[2:]:
        for f, n in parse(path):
            page = f.get("page", "")
            kind = page.split("/")[0][2:] if page.startswith("v_") else "user"
            src = os.path.relpath(f.get("f", "?"), root)
            if not src.startswith("rtl/"):
                continue
            what = f.get("o", "")
            if kind == "toggle":
                key = (kind, src, f.get("l", "0"), what)
            else:
                key = (kind, src, f.get("l", "0"), f.get("n", "0"), what)
            points[key] += n
            where.setdefault(key, (src, int(f.get("l", "0")), what, f.get("S", "")))
    total = collections.Counter()
    hit = collections.Counter()
    per_file = collections.defaultdict(lambda: collections.Counter())
    for key, n in points.items():
        kind = key[0]
        total[kind] += 1
        per_file[(key[1], kind)]["total"] += 1
        if n > 0:
            hit[kind] += 1
            per_file[(key[1], kind)]["hit"] += 1
    lines = []
    lines.append("Coverage of rtl/ over %d runs (a point counts as covered if any configuration covered it)"
                 % (len(sys.argv) - 2))
    for kind in KINDS:
        if total[kind]:
            lines.append("  %-7s %6d / %6d  %6.2f %%" % (kind, hit[kind], total[kind], 100.0 * hit[kind] / total[kind]))
    lines.append("  per file (line, branch):")
    for src in sorted({k[0] for k in per_file}):
        cells = []
        for kind in ("line", "branch", "toggle"):
            c = per_file.get((src, kind))
            if c:
                cells.append("%s %d/%d" % (kind, c["hit"], c["total"]))
        lines.append("    %-22s %s" % (src, ", ".join(cells)))
    summary = "\n".join(lines) + "\n"
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "summary.txt"), "w") as f:
        f.write(summary)
    with open(os.path.join(out, "uncovered.txt"), "w") as f:
        f.write("# Uncovered line and branch points of rtl/ (file:line kind what); toggles in uncovered_toggle.txt\n")
        for key in sorted((k for k, n in points.items() if n == 0 and k[0] in ("line", "branch")),
                          key=lambda k: (k[1], int(k[2]))):
            src, line, what, span = where[key]
            f.write("%s:%d %s %s%s\n" % (src, line, key[0], what, (" (lines %s)" % span) if span else ""))
    with open(os.path.join(out, "uncovered_toggle.txt"), "w") as f:
        for key in sorted(k for k, n in points.items() if n == 0 and k[0] == "toggle"):
            f.write("%s:%s %s\n" % (key[1], key[2], key[3]))
    sys.stdout.write(summary)
    return 0


if __name__ == "__main__":
    sys.exit(main())
