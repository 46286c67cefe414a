#!/usr/bin/env python3
# Copyright GPUArmor contributors.
"""Where an ECP5 build's routing is congested, and what is placed there (docs/fpga.md §11.3).

    congestion.py HEAT_CSV [--placed PLACED_JSON] [--block N] [--top N]
    congestion.py --self-test

HEAT_CSV is one of the files nextpnr-ecp5's router2 writes with `--router2-heatmap PREFIX`:
PREFIX_congestion_by_coordinate_<iteration>.csv, one row per tile column X, one value per tile row Y
(the overused wires of that tile in that iteration). The script prints the total, the tiles that have
any overuse (their bounding box), a coarse map in blocks of N x N tiles, and the hot region: the
bounding box of the blocks holding at least half of the hottest block's overuse.

PLACED_JSON is a placed netlist (`nextpnr-ecp5 ... --no-route --write PLACED_JSON`, the same netlist,
seed and placer as the routed run). Every placed logic cell (TRELLIS_COMB, TRELLIS_FF) whose `src`
attribute names a source line of the design is counted, inside the hot region and overall, by that
line: abc9 gives the LUTs of a netlist no source, but the flip-flops keep the line of the register
they implement, so the lines name the registers that sit where the routing is congested.

Exit status: 0, or 2 with a message naming the file and the cause for a missing or malformed input.
"""
import argparse
import collections
import csv
import io
import json
import os
import sys
import tempfile

from nextpnr_json import InputError, cell_tile, load_modules, src_line


def read_heat(path):
    """Rows of non-negative integers; row index X, column index Y."""
    try:
        with open(path, newline='') as f:
            rows = []
            for n, row in enumerate(csv.reader(f), 1):
                vals = []
                for cell in row:
                    if cell.strip() == '':
                        continue
                    if not cell.strip().isdigit():
                        raise InputError(f"{path}:{n}: '{cell}' is not a count of overused wires")
                    vals.append(int(cell))
                rows.append(vals)
    except OSError as e:
        raise InputError(f"{path}: {e.strerror}")
    if not rows or not any(rows):
        raise InputError(f"{path}: no tiles (not a router2 congestion_by_coordinate file?)")
    return rows


def cell(rows, x, y):
    return rows[x][y] if x < len(rows) and y < len(rows[x]) else 0


def summarize(rows, block):
    width = max(len(r) for r in rows)
    total = sum(map(sum, rows))
    xs = [x for x, r in enumerate(rows) if any(r)]
    ys = [y for y in range(width) if any(cell(rows, x, y) for x in range(len(rows)))]
    blocks = {}
    for bx in range(0, len(rows), block):
        for by in range(0, width, block):
            blocks[(bx, by)] = sum(cell(rows, x, y) for x in range(bx, bx + block)
                                   for y in range(by, by + block))
    peak = max(blocks.values())
    hot = [k for k, v in blocks.items() if peak and 2 * v >= peak]
    region = (min(k[0] for k in hot), max(k[0] for k in hot) + block - 1,
              min(k[1] for k in hot), max(k[1] for k in hot) + block - 1) if hot else None
    inside = sum(cell(rows, x, y) for x in range(region[0], region[1] + 1)
                 for y in range(region[2], region[3] + 1)) if region else 0
    return {'total': total, 'x': (min(xs), max(xs)) if xs else None,
            'y': (min(ys), max(ys)) if ys else None, 'blocks': blocks, 'width': width,
            'region': region, 'region_sum': inside}


def read_placed(path):
    mods = load_modules(path)
    placed = []
    for mod in mods.values():
        for c in mod.get('cells', {}).values():
            t = cell_tile(c)
            if t and c.get('type') in ('TRELLIS_COMB', 'TRELLIS_FF'):
                placed.append((t[0], t[1], src_line(str(c.get('attributes', {}).get('src', '')))))
    if not placed:
        raise InputError(f"{path}: no placed logic cells (NEXTPNR_BEL): place it with --no-route --write")
    return placed


def report(heat_path, placed_path, block, top, out):
    rows = read_heat(heat_path)
    s = summarize(rows, block)
    out.write(f"{heat_path}: {s['total']} overused wires\n")
    if s['x'] is None:
        out.write("no tile is overused\n")
        return s, None
    out.write(f"overused tiles within X {s['x'][0]}-{s['x'][1]}, Y {s['y'][0]}-{s['y'][1]}\n")
    out.write(f"by blocks of {block} x {block} tiles (rows X, columns Y):\n")
    for bx in range(0, len(rows), block):
        line = [s['blocks'][(bx, by)] for by in range(0, s['width'], block)]
        if any(line):
            out.write(f"  X{bx:4d} " + ''.join(f"{v:7d}" for v in line) + "\n")
    r = s['region']
    out.write(f"hot region: X {r[0]}-{r[1]}, Y {r[2]}-{r[3]} ({s['region_sum']} of {s['total']})\n")
    if placed_path is None:
        return s, None
    placed = read_placed(placed_path)
    inside = collections.Counter()
    overall = collections.Counter()
    nosrc = [0, 0]
    for x, y, line in placed:
        hot = r[0] <= x <= r[1] and r[2] <= y <= r[3]
        if line is None:
            nosrc[hot] += 1
            continue
        overall[line] += 1
        if hot:
            inside[line] += 1
    n_in = sum(inside.values())
    out.write(f"placed logic cells in the hot region: {n_in} with a source line, {nosrc[1]} without\n")
    for line, n in inside.most_common(top):
        out.write(f"  {n:6d} ({100.0 * n / n_in:5.1f} %)  {line}  (of its {overall[line]} cells)\n")
    return s, inside


def self_test():
    """A 24 x 20 tile heatmap with a hot spot at X 8-11, Y 4-7 and a placement whose cells there
    come from one line: the report must find that region and that line first."""
    with tempfile.TemporaryDirectory() as d:
        heat = os.path.join(d, 'heat.csv')
        with open(heat, 'w') as f:
            for x in range(24):
                f.write(','.join(str(9 if 8 <= x < 12 and 4 <= y < 8 else (1 if x == 20 else 0))
                                 for y in range(20)) + ',\n')
        cells = {}
        for i in range(30):
            cells[f"a{i}"] = {'type': 'TRELLIS_FF', 'attributes': {
                'NEXTPNR_BEL': f"X{8 + i % 4}/Y{4 + i % 4}/SLICEA.FF0",
                'src': 'rtl/hot.sv:42.3-44.6|/share/lattice/cells_map_trellis.v:1.1-1.2'}}
        for i in range(10):
            cells[f"b{i}"] = {'type': 'TRELLIS_COMB', 'attributes': {
                'NEXTPNR_BEL': f"X{9}/Y{5}/SLICEB.K0", 'src': 'rtl/warm.sv:7.1-7.9'}}
        for i in range(50):
            cells[f"c{i}"] = {'type': 'TRELLIS_FF', 'attributes': {
                'NEXTPNR_BEL': f"X{20}/Y{i % 20}/SLICEA.FF1", 'src': 'rtl/cold.sv:3.1-3.2'}}
        cells['d'] = {'type': 'TRELLIS_COMB', 'attributes': {'NEXTPNR_BEL': 'X8/Y4/SLICEC.K1'}}
        placed = os.path.join(d, 'placed.json')
        with open(placed, 'w') as f:
            json.dump({'modules': {'top': {'cells': cells}}}, f)
        buf = io.StringIO()
        s, inside = report(heat, placed, 4, 5, buf)
        text = buf.getvalue()
        ok = (s['total'] == 16 * 9 + 20 and s['region'] == (8, 11, 4, 7) and s['region_sum'] == 16 * 9
              and inside.most_common(1)[0] == ('rtl/hot.sv:42', 30) and inside['rtl/warm.sv:7'] == 10
              and 'rtl/cold.sv:3' not in inside and 'with a source line, 1 without' in text)
        bad = os.path.join(d, 'bad.csv')
        with open(bad, 'w') as f:
            f.write('0,1,x\n')
        try:
            read_heat(bad)
            ok = False
        except InputError as e:
            ok = ok and 'bad.csv:1' in str(e)
        if not ok:
            sys.stderr.write("congestion.py: self-test FAILED\n" + text)
            return 1
    print("congestion.py: self-test passed (hot region, source lines, malformed input)")
    return 0


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('heat', nargs='?', help="router2's PREFIX_congestion_by_coordinate_<N>.csv")
    ap.add_argument('--placed', help='the placed netlist (nextpnr --no-route --write)')
    ap.add_argument('--block', type=int, default=8, help='block size in tiles (default 8)')
    ap.add_argument('--top', type=int, default=12, help='source lines listed (default 12)')
    ap.add_argument('--self-test', action='store_true', help='run the built-in test and exit')
    a = ap.parse_args(argv)
    if a.self_test:
        return self_test()
    if a.heat is None:
        ap.error('HEAT_CSV is required (or --self-test)')
    if a.block < 1 or a.top < 1:
        ap.error('--block and --top must be at least 1')
    try:
        report(a.heat, a.placed, a.block, a.top, sys.stdout)
    except InputError as e:
        sys.stderr.write(f"congestion.py: {e}\n")
        return 2
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
