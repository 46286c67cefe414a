#!/usr/bin/env python3
# Copyright GPUArmor contributors.
"""The critical paths of an ECP5 placement that was never routed (docs/fpga.md §11.3).

    placed_paths.py SDF [--placed PLACED_JSON] [--paths N] [--mhz F] [--groups N] [--match RE]
    placed_paths.py --self-test

nextpnr-ecp5 prints a critical path only once routing has finished, and a run stopped in routing
(ECP5_ROUTE_MIN) leaves only the Fmax it estimated after placement. The estimate comes from the
delays nextpnr predicts for nets that are not routed yet, and those are what it writes into an SDF
file of a placed netlist: `nextpnr-ecp5 ... --no-route --sdf SDF --write PLACED_JSON` (the same
netlist, seed and placer as the routed run). This script reads that file and does the static timing
analysis nextpnr did not print: every register-to-register path of the one clock, launched at a
clocked output (IOPATH from CLK, CLKA, CLKB or WCK: clock to output) and captured at a data input
with a setup check (SETUPHOLD ... (posedge CLK)), arrival = clock to output + the cells' IOPATH
delays + the INTERCONNECT (net) delays, required = arrival + setup. Delays are the SDF's maximum
(the third of min:typ:max), the corner nextpnr's setup analysis uses, so the worst path reproduces
the Fmax of nextpnr's log to rounding (the self-test checks the arithmetic; docs/fpga.md the
agreement on real builds). Paths from or to I/O pads are not counted (nextpnr reports those apart,
as <async>).

It prints the worst period and its Fmax, the N worst endpoints each with its path (cell by cell:
the delay of the cell and of the net into the next, and, where PLACED_JSON gives them, the tile the
cell is placed in and its source line), and how the endpoints that miss --mhz split between the registers they start
and end at (the flip-flops' source lines from PLACED_JSON, else the instance names' leading u_* /
gen_* components: which blocks the failing paths cross).

Exit status: 0, or 2 with a message naming the file and the cause for a missing or malformed input.
"""
import argparse
import collections
import io
import json
import os
import re
import sys
import tempfile

from nextpnr_json import InputError, cell_tile, load_modules, src_line

CLOCK_PORTS = {'CLK', 'CLKA', 'CLKB', 'WCK'}
TRIPLE = r'\(([-\d.]*):([-\d.]*):([-\d.]*)\)'
INST_RE = re.compile(r'^\s*\(INSTANCE\s*(.*?)\)\s*$')
IOPATH_RE = re.compile(r'^\s*\(IOPATH\s+(?:\((?:posedge|negedge)\s+)?(\S+?)\)?\s+(\S+)\s+' + TRIPLE)
SETUP_RE = re.compile(r'^\s*\(SETUPHOLD\s+\((?:posedge|negedge)\s+(\S+)\)\s+\((posedge|negedge)\s+(\S+)\)\s+'
                      + TRIPLE)
ICONN_RE = re.compile(r'^\s*\(INTERCONNECT\s+(\S+)\s+(\S+)\s+' + TRIPLE)
TIMESCALE_RE = re.compile(r'^\s*\(TIMESCALE\s+1\s*(ps|ns)\)')
HIER_RE = re.compile(r'^(u_[a-z0-9_]+|gen_[a-z0-9_]+(\[\d+\])?)$')


def unescape(name):
    """SDF escapes every non-identifier character with a backslash: the netlist's own name."""
    return re.sub(r'\\(.)', r'\1', name)


def split_pin(text, path, n):
    pin = unescape(text)
    if '/' not in pin:
        raise InputError(f"{path}:{n}: '{text}' is not INSTANCE/PORT")
    inst, port = pin.rsplit('/', 1)
    return inst, port


def worst(triple, path, n):
    """The maximum of min:typ:max (empty fields: 0, as SDF allows)."""
    try:
        return max(float(v) if v not in ('', '-') else 0.0 for v in triple)
    except ValueError:
        raise InputError(f"{path}:{n}: '{':'.join(triple)}' is not a delay triple")


def read_sdf(path):
    """Arcs of the timing graph: (cells, nets, launch, setup, scale_ns)."""
    cell_arcs = collections.defaultdict(list)   # (inst, in) -> [(out, delay)]
    net_arcs = collections.defaultdict(list)    # (inst, out) -> [((inst, in), delay)]
    launch = {}                                 # (inst, out) -> clock to output
    setup = {}                                  # (inst, in) -> setup
    scale = None
    inst = None
    seen_delayfile = False
    try:
        f = open(path)
    except OSError as e:
        raise InputError(f"{path}: {e.strerror}")
    with f:
        for n, line in enumerate(f, 1):
            if not seen_delayfile:
                if line.strip() == '':
                    continue
                if not line.lstrip().startswith('(DELAYFILE'):
                    raise InputError(f"{path}:{n}: not an SDF file (no DELAYFILE)")
                seen_delayfile = True
                continue
            m = TIMESCALE_RE.match(line)
            if m:
                scale = 1e-3 if m.group(1) == 'ps' else 1.0
                continue
            m = INST_RE.match(line)
            if m:
                inst = unescape(m.group(1).strip())
                continue
            m = ICONN_RE.match(line)
            if m:
                src = split_pin(m.group(1), path, n)
                dst = split_pin(m.group(2), path, n)
                if dst[1] not in CLOCK_PORTS:
                    net_arcs[src].append((dst, worst(m.group(3, 4, 5), path, n)))
                continue
            m = IOPATH_RE.match(line)
            if m:
                if inst is None:
                    raise InputError(f"{path}:{n}: IOPATH outside a CELL")
                a, b = m.group(1), m.group(2)
                d = worst(m.group(3, 4, 5), path, n)
                if a in CLOCK_PORTS:
                    launch[(inst, b)] = max(d, launch.get((inst, b), 0.0))
                else:
                    cell_arcs[(inst, a)].append(((inst, b), d))
                continue
            m = SETUP_RE.match(line)
            if m:
                if inst is None:
                    raise InputError(f"{path}:{n}: SETUPHOLD outside a CELL")
                data, edge, clk = m.group(1), m.group(2), m.group(3)
                if edge == 'posedge' and clk in CLOCK_PORTS and data not in CLOCK_PORTS:
                    key = (inst, data)
                    setup[key] = max(worst(m.group(4, 5, 6), path, n), setup.get(key, 0.0))
                continue
            for kw in ('(INTERCONNECT', '(IOPATH', '(SETUPHOLD'):
                if kw in line:
                    raise InputError(f"{path}:{n}: a {kw[1:]} this script cannot read: {line.strip()[:80]}")
    if not seen_delayfile:
        raise InputError(f"{path}: empty (not an SDF file)")
    if scale is None:
        raise InputError(f"{path}: no TIMESCALE of 1 ps or 1 ns")
    if not launch or not setup:
        raise InputError(f"{path}: no clocked outputs or no setup checks (not a placed ECP5 netlist?)")
    return cell_arcs, net_arcs, launch, setup, scale


def analyse(cell_arcs, net_arcs, launch, setup, path):
    """Latest arrival at every node reached from a launch point, with the arc it came by."""
    succ = collections.defaultdict(list)        # node -> [(node, delay, kind)]
    for src, outs in net_arcs.items():
        for dst, d in outs:
            succ[src].append((dst, d, 'net'))
    for src, outs in cell_arcs.items():
        for dst, d in outs:
            succ[src].append((dst, d, 'cell'))
    # Nodes reachable from the launch points, then Kahn's order over that subgraph.
    reach = set(launch)
    stack = list(launch)
    while stack:
        u = stack.pop()
        for v, _, _ in succ.get(u, ()):
            if v not in reach:
                reach.add(v)
                stack.append(v)
    indeg = collections.Counter()
    for u in reach:
        for v, _, _ in succ.get(u, ()):
            indeg[v] += 1
    arr = {}
    pred = {}
    for u, d in launch.items():
        arr[u] = d
        pred[u] = None
    # In name order (smallest popped first), so that of two paths with equal arrival the one from
    # the smaller launch point is kept whatever the hash seed: an unordered start made the reported
    # path and its group differ between runs on the same file.
    ready = sorted((u for u in reach if indeg[u] == 0), reverse=True)
    done = 0
    while ready:
        u = ready.pop()
        done += 1
        for v, d, kind in succ.get(u, ()):
            t = arr.get(u, 0.0) + d
            if v not in arr or t > arr[v]:
                arr[v] = t
                pred[v] = (u, d, kind)
            indeg[v] -= 1
            if indeg[v] == 0:
                ready.append(v)
    if done != len(reach):
        raise InputError(f"{path}: a combinational loop among {len(reach) - done} pins")
    ends = [(arr[e] + s, e) for e, s in setup.items() if e in arr]
    if not ends:
        raise InputError(f"{path}: no register-to-register path")
    ends.sort(reverse=True)
    return arr, pred, ends


def trace(pred, end):
    """The path to END as [(node, arc delay into it, kind)], launch point first."""
    out = []
    node = end
    while node is not None:
        p = pred[node]
        if p is None:
            out.append((node, None, 'launch'))
            break
        out.append((node, p[1], p[2]))
        node = p[0]
    out.reverse()
    return out


def hier(inst):
    parts = []
    for comp in re.split(r'\.(?![^\[]*\])', inst):
        if not HIER_RE.match(comp):
            break
        parts.append(comp)
    return '.'.join(parts) or '(top)'


def where(inst, src):
    """A register's source line (from PLACED_JSON), else its name's hierarchy: Yosys names the
    flattened cells after nets, so a name's prefix may belong to a neighbouring block, while a
    flip-flop's src is the always_ff it implements."""
    return src.get(inst) or hier(inst)


def read_src(placed):
    """Each cell's source line and tile, where the netlist gives them."""
    src, loc = {}, {}
    try:
        for mod in load_modules(placed).values():
            for name, c in mod.get('cells', {}).items():
                attrs = c.get('attributes', {})
                s = src_line(str(attrs.get('src', '')))
                if s:
                    src[name] = s
                t = cell_tile(c)
                if t:
                    loc[name] = f"X{t[0]}/Y{t[1]}"
    except (AttributeError, TypeError):
        raise InputError(f"{placed}: not a nextpnr netlist (modules / cells)")
    return src, loc


def report(sdf, placed, npaths, mhz, ngroups, out, match=None):
    cell_arcs, net_arcs, launch, setup, scale = read_sdf(sdf)
    _, pred, ends = analyse(cell_arcs, net_arcs, launch, setup, sdf)
    src, loc = read_src(placed) if placed else ({}, {})
    period = ends[0][0] * scale
    out.write(f"{sdf}: {len(launch)} launch points, {len(setup)} setup checks, "
              f"{len(ends)} endpoints reached\n")
    out.write(f"worst register-to-register path: {period:.2f} ns, Fmax {1000.0 / period:.2f} MHz "
              f"(the SDF's delays: as routed, or nextpnr's estimate where a net is not)\n")
    target = 1000.0 / mhz if mhz else None
    if target:
        fail = [e for e in ends if e[0] * scale > target]
        out.write(f"endpoints missing {mhz:g} MHz ({target:.2f} ns): {len(fail)} of {len(ends)}\n")
    shown = ends
    if match:
        rx = re.compile(match)
        shown = [e for e in ends
                 if rx.search(f"{where(trace(pred, e[1])[0][0][0], src)} -> {where(e[1][0], src)}")]
        out.write(f"endpoints whose 'start -> end' matches '{match}': {len(shown)}\n")
    for i, (req, end) in enumerate(shown[:npaths]):
        p = trace(pred, end)
        net = sum(d for _, d, k in p if k == 'net') * scale
        cell = req * scale - net
        out.write(f"\npath {i + 1}: {req * scale:.2f} ns ({len(p)} pins; cells and setup {cell:.2f}, "
                  f"nets {net:.2f}): {where(p[0][0][0], src)} -> {where(end[0], src)}\n")
        t = 0.0
        for (inst, port), d, kind in p:
            if kind == 'launch':
                d = launch[(inst, port)]
            t += d
            s = ' '.join(v for v in (loc.get(inst, ''), src.get(inst, '')) if v)
            out.write(f"  {t * scale:7.2f} {'+' + format(d * scale, '.2f'):>6} {kind:6} {inst}/{port}"
                      f"{'  ' + s if s else ''}\n")
        out.write(f"  {req * scale:7.2f} {'+' + format(setup[end] * scale, '.2f'):>6} setup\n")
    if target:
        groups = collections.Counter()
        worst_of = {}
        for req, end in ends:
            if req * scale <= target:
                break
            start = trace(pred, end)[0][0][0]
            key = (where(start, src), where(end[0], src))
            groups[key] += 1
            worst_of.setdefault(key, req * scale)
        if groups:
            out.write(f"\nfailing endpoints by start -> end register (source line, else name prefix; count, worst ns):\n")
            for key, cnt in sorted(groups.items(), key=lambda kv: -worst_of[kv[0]])[:ngroups]:
                out.write(f"  {cnt:6d} {worst_of[key]:7.2f}  {key[0]} -> {key[1]}\n")
    return period, ends


SELF_TEST_SDF = r"""(DELAYFILE
  (SDFVERSION "3.0")
  (DESIGN "top")
  (TIMESCALE 1ps)
  (CELL
    (CELLTYPE "top")
    (INSTANCE )
    (DELAY
      (ABSOLUTE
        (INTERCONNECT \$gbuf\$clk/CLKO u_a.q_TRELLIS_FF_Q/CLK (0:0:0) (0:0:0))
        (INTERCONNECT u_a.q_TRELLIS_FF_Q/Q u_b.gen_x\[1\].lut1/A (100:150:200) (100:150:200))
        (INTERCONNECT u_a.q_TRELLIS_FF_Q/Q u_b.lut2/B (50:50:50) (50:50:50))
        (INTERCONNECT u_b.gen_x\[1\].lut1/F u_b.lut2/C (300:300:300) (300:300:300))
        (INTERCONNECT u_b.lut2/F u_c.r_TRELLIS_FF_Q/DI (400:450:500) (400:450:500))
        (INTERCONNECT u_c.r_TRELLIS_FF_Q/Q u_a.q_TRELLIS_FF_Q/DI (10:10:10) (10:10:10))
        (INTERCONNECT pad/O u_c.r_TRELLIS_FF_Q/CE (9000:9000:9000) (9000:9000:9000))
      )
    )
  )
  (CELL
    (CELLTYPE "TRELLIS_FF")
    (INSTANCE u_a.q_TRELLIS_FF_Q)
    (DELAY (ABSOLUTE
        (IOPATH CLK Q (430:477:525) (430:477:525))
    ))
    (TIMINGCHECK
      (SETUPHOLD (posedge DI) (posedge CLK) (0:0:0) (267:285:303))
    )
  )
  (CELL
    (CELLTYPE "TRELLIS_COMB")
    (INSTANCE u_b.gen_x\[1\].lut1)
    (DELAY (ABSOLUTE
        (IOPATH A F (200:218:236) (200:218:236))
    ))
  )
  (CELL
    (CELLTYPE "TRELLIS_COMB")
    (INSTANCE u_b.lut2)
    (DELAY (ABSOLUTE
        (IOPATH B F (200:218:236) (200:218:236))
        (IOPATH C F (200:218:236) (200:218:236))
    ))
  )
  (CELL
    (CELLTYPE "TRELLIS_FF")
    (INSTANCE u_c.r_TRELLIS_FF_Q)
    (DELAY (ABSOLUTE
        (IOPATH CLK Q (430:477:525) (430:477:525))
    ))
    (TIMINGCHECK
      (SETUPHOLD (posedge DI) (posedge CLK) (100:200:300) (267:285:303))
      (SETUPHOLD (posedge CE) (posedge CLK) (0:0:0) (144:147:151))
    )
  )
)
"""


TIE_SDF = r"""(DELAYFILE
  (TIMESCALE 1ps)
  (CELL
    (CELLTYPE "top")
    (INSTANCE )
    (DELAY
      (ABSOLUTE
        (INTERCONNECT u_z.q_TRELLIS_FF_Q/Q u_m.lut/A (20:20:20) (20:20:20))
        (INTERCONNECT u_a.q_TRELLIS_FF_Q/Q u_m.lut/B (20:20:20) (20:20:20))
        (INTERCONNECT u_m.lut/F u_c.r_TRELLIS_FF_Q/DI (30:30:30) (30:30:30))
      )
    )
  )
  (CELL
    (CELLTYPE "TRELLIS_FF")
    (INSTANCE u_z.q_TRELLIS_FF_Q)
    (DELAY (ABSOLUTE
        (IOPATH CLK Q (100:100:100) (100:100:100))
    ))
  )
  (CELL
    (CELLTYPE "TRELLIS_FF")
    (INSTANCE u_a.q_TRELLIS_FF_Q)
    (DELAY (ABSOLUTE
        (IOPATH CLK Q (100:100:100) (100:100:100))
    ))
  )
  (CELL
    (CELLTYPE "TRELLIS_COMB")
    (INSTANCE u_m.lut)
    (DELAY (ABSOLUTE
        (IOPATH A F (50:50:50) (50:50:50))
        (IOPATH B F (50:50:50) (50:50:50))
    ))
  )
  (CELL
    (CELLTYPE "TRELLIS_FF")
    (INSTANCE u_c.r_TRELLIS_FF_Q)
    (TIMINGCHECK
      (SETUPHOLD (posedge DI) (posedge CLK) (10:10:10) (0:0:0))
    )
  )
)
"""


def self_test():
    """A two-register loop: q -> lut1 -> lut2 -> r (the long way, 525 + 200 + 236 + 300 + 236 + 500
    + setup 300 = 2 297 ps) beside the short arc q -> lut2 and the return r -> q (525 + 10, setup 0);
    a pad's 9 ns into r's CE must not count (no launch point), nor the clock net. The worst path
    must be the long one, through both LUTs, with its net and cell shares, and the failing endpoint
    at 500 MHz must be grouped u_a -> u_c."""
    with tempfile.TemporaryDirectory() as d:
        sdf = os.path.join(d, 't.sdf')
        with open(sdf, 'w') as f:
            f.write(SELF_TEST_SDF)
        placed = os.path.join(d, 'p.json')
        with open(placed, 'w') as f:
            json.dump({'modules': {'top': {'cells': {
                'u_c.r_TRELLIS_FF_Q': {'attributes': {'src': 'rtl/c.sv:12.3-14.6|cells.v:1',
                                                      'NEXTPNR_BEL': 'X7/Y9/SLICEA.FF0'}}}}}}, f)
        buf = io.StringIO()
        period, ends = report(sdf, placed, 2, 500.0, 5, buf)
        text = buf.getvalue()
        ok = (abs(period - 2.297) < 1e-9 and len(ends) == 2
              and abs(ends[1][0] * 1e-3 - 0.535) < 1e-9
              and 'Fmax 435.35 MHz' in text
              and 'cells and setup 1.30, nets 1.00' in text
              and 'u_b.gen_x[1].lut1/A' in text and 'X7/Y9 rtl/c.sv:12\n' in text
              and 'endpoints missing 500 MHz (2.00 ns): 1 of 2' in text
              and re.search(r'\n +1 +2\.30 +u_a -> rtl/c\.sv:12\n', text) is not None)
        bad = []
        # two launch points with equal arrival at one endpoint: the smaller name is reported
        tie = os.path.join(d, 'tie.sdf')
        with open(tie, 'w') as f:
            f.write(TIE_SDF)
        tbuf = io.StringIO()
        report(tie, None, 1, 500.0, 5, tbuf)
        if 'launch u_a.q_TRELLIS_FF_Q/Q' not in tbuf.getvalue():
            bad.append('tie: the path from u_z, not u_a, was reported:\n' + tbuf.getvalue())
        for name, body, want in (
                ('notsdf', 'hello\n', 'no DELAYFILE'),
                ('noscale', '(DELAYFILE\n (CELL (INSTANCE x)\n', 'TIMESCALE'),
                ('badpin', '(DELAYFILE\n(TIMESCALE 1ps)\n(INTERCONNECT ab cd (1:2:3) (1:2:3))\n',
                 "'ab' is not INSTANCE/PORT"),
                ('baddelay', '(DELAYFILE\n(TIMESCALE 1ps)\n(INTERCONNECT a/Q b/D (1:x:3) (1:2:3))\n',
                 'INTERCONNECT this script cannot read'),
                ('loop', SELF_TEST_SDF.replace('(INSTANCE u_b.lut2)', '(INSTANCE u_b.lut2)\n'
                 '    (DELAY (ABSOLUTE\n        (IOPATH F C (1:1:1) (1:1:1))\n    ))'), 'combinational loop')):
            p = os.path.join(d, name)
            with open(p, 'w') as f:
                f.write(body)
            try:
                report(p, None, 1, None, 1, io.StringIO())
                bad.append(f"{name}: accepted")
            except InputError as e:
                if want not in str(e):
                    bad.append(f"{name}: {e}")
        try:
            report(os.path.join(d, 'missing.sdf'), None, 1, None, 1, io.StringIO())
            bad.append('missing: accepted')
        except InputError as e:
            if 'missing.sdf' not in str(e):
                bad.append(f"missing: {e}")
    if not ok or bad:
        sys.stderr.write("placed_paths.py: self-test FAILED\n" + text + '\n'.join(bad) + '\n')
        return 1
    print("placed_paths.py: self-test passed")
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('sdf', nargs='?')
    ap.add_argument('--placed', help='the placed netlist (nextpnr --write), for source lines')
    ap.add_argument('--paths', type=int, default=3, help='worst endpoints to print with their paths')
    ap.add_argument('--mhz', type=float, help='target clock: count and group the endpoints missing it')
    ap.add_argument('--groups', type=int, default=12, help='start -> end register groups to print')
    ap.add_argument('--match', help="print only the paths whose 'start -> end' (as grouped) matches "
                    "this regular expression")
    ap.add_argument('--self-test', action='store_true')
    a = ap.parse_args()
    if a.self_test:
        return self_test()
    if not a.sdf:
        ap.error('SDF required (or --self-test)')
    if a.paths < 0 or a.groups < 0 or (a.mhz is not None and a.mhz <= 0):
        ap.error('--paths and --groups are counts, --mhz a positive frequency')
    if a.match is not None:
        try:
            re.compile(a.match)
        except re.error as e:
            ap.error(f"--match '{a.match}': {e}")
    try:
        report(a.sdf, a.placed, a.paths, a.mhz, a.groups, sys.stdout, a.match)
    except InputError as e:
        sys.stderr.write(f"placed_paths.py: {e}\n")
        return 2
    return 0


if __name__ == '__main__':
    sys.exit(main())
