#!/usr/bin/env python3
"""vcd_reqs.py FILE.vcd -- what a ga_mlu waveform shows at its request port, read from the VCD text
(fst2vcd of an FST written by gasim --rtl --wave or ga_cosim --fst).

Prints one line:  first=T last=T edges=N reqs=N ops=OP,OP,...
  first, last  the first and last timestamp of the dump (none: the file has no value change);
  edges        rising edges of clk_i inside the dump;
  reqs, ops    the requests the MLU accepted (req_valid_i and req_ready_o both high in the clock-low
               phase before a rising edge, the handshake rule of docs/microarchitecture.md §1.1), and
               the req_op_i of each, in order (0 LOADMETA, 1 MEMCHECK.G, 2 MEMCHECK.S, 3 ACCESS, ...).
Only the signals of the top scope (TOP) are read. Exit status: 0, 1 when the file is not a VCD with
those four signals, 2 on bad usage.
"""
import sys

WANTED = ("clk_i", "req_valid_i", "req_ready_o", "req_op_i")


def parse(path):
    ids = {}          # VCD identifier -> signal name (top scope only)
    depth = 0
    body = False
    vals = {}
    times = []
    prev_clk = None
    low = None        # (valid, ready, op) in the last clock-low phase
    edges = 0
    ops = []

    def num(v):
        v = v.lower()
        return 0 if any(c in v for c in "xz") else int(v, 2)

    def settle():
        nonlocal prev_clk, low, edges
        clk = vals.get("clk_i", 0)
        if clk == 0:
            low = (vals.get("req_valid_i", 0), vals.get("req_ready_o", 0), vals.get("req_op_i", 0))
        elif prev_clk == 0:
            edges += 1
            if low is not None and low[0] and low[1]:
                ops.append(low[2])
        prev_clk = clk

    with open(path, encoding="ascii", errors="replace") as f:
        for line in f:
            tok = line.split()
            if not tok:
                continue
            if not body:
                if tok[0] == "$scope":
                    depth += 1
                elif tok[0] == "$upscope":
                    depth -= 1
                elif tok[0] == "$var" and depth == 1 and len(tok) >= 5 and tok[4] in WANTED:
                    ids.setdefault(tok[3], tok[4])
                elif tok[0] == "$enddefinitions":
                    body = True
                    if sorted(set(ids.values())) != sorted(WANTED):
                        raise ValueError("the top scope lacks %s" % ", ".join(sorted(set(WANTED) - set(ids.values()))))
                continue
            t = tok[0]
            if t[0] == "#":
                if times:
                    settle()
                times.append(int(t[1:]))
            elif t[0] in "bBrR" and len(tok) >= 2:
                if tok[1] in ids and t[0] in "bB":
                    vals[ids[tok[1]]] = num(t[1:])
            elif t[0] in "01xXzZ" and len(t) >= 2:
                if t[1:] in ids:
                    vals[ids[t[1:]]] = num(t[0])
    if not body:
        raise ValueError("no $enddefinitions: not a VCD file")
    if times:
        settle()
    return times, edges, ops


def main(argv):
    if len(argv) != 2 or argv[1].startswith("-"):
        sys.stderr.write("usage: vcd_reqs.py FILE.vcd\n")
        return 2
    try:
        times, edges, ops = parse(argv[1])
    except (OSError, ValueError) as e:
        sys.stderr.write("vcd_reqs: %s: %s\n" % (argv[1], e))
        return 1
    first = str(times[0]) if times else "none"
    last = str(times[-1]) if times else "none"
    print("first=%s last=%s edges=%d reqs=%d ops=%s" % (first, last, edges, len(ops), ",".join(map(str, ops))))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
