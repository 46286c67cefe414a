#!/usr/bin/env python3
# Copyright GPUArmor contributors.
"""Keep each SM's cells together on an ECP5: anchor a sample of its flip-flops in a region of its own
(docs/fpga.md §11.3, "Anchored placement").

    anchor.py SYNTH_JSON PLACED_JSON OUT_JSON [--group RE] [--frac F] [--fill F]
    anchor.py --self-test

nextpnr's HeAP placer spreads a multi-SM board over the whole die: on the 4-SM ULX3S board every SM's
cells cover most of it (placed, 2026-11-29: the middle 80 % of one SM's cells spans 54 to 78 tiles
across and 58 to 78 down, of the 99 x 92 tiles the placement uses), so an SM's own paths run over
long nets. nextpnr makes placement regions only
through its Python API, which the YoWASP build lacks, but it honours a cell's BEL attribute in every
build: a cell with one is bound there before placement and never moved, and HeAP's equations then
pull the cells connected to it towards it. This script writes such anchors into a synthesised
netlist (SYNTH_JSON, Yosys's write_json) from a placement of the same netlist (PLACED_JSON, nextpnr's
--write, which names the cells as the synthesised netlist does):

- the groups are the flip-flops whose names match RE (default `gen_sm\\[(\\d+)\\]`: one group per
  SM); the rest (board core, arbiter, memory) stay free;
- the die's logic tiles (those where the placement put a slice) are cut into a grid with one cell per
  group (2 groups: 2 x 1, 3-4: 2 x 2, 5-8: 4 x 2), and each group gets the grid cell that keeps the
  sum of the distances its centroid moves least (all assignments tried);
- every round(1/F)-th flip-flop of a group (by name) is an anchor; its position in the placement is
  moved by the affine map that takes the group's middle 90 % (5th to 95th percentile per axis) onto
  FILL of its grid cell, centred, keeping the placement's relative order, and bound to the free
  logic tile nearest to it in that cell (one anchor per tile, in its SLICEA's FF0: the slices of a
  tile share their clocks and resets, two of each, so two anchors with different ones could not
  share a tile; the placer fills the rest of the tile around the anchor). Never a flip-flop that
  nextpnr's packer pairs with the cell driving it (see pairable()): nextpnr refuses a BEL on one.

It prints each group's region, anchors and centroids. Exit status: 0, or 2 with a message naming the
file and the cause for a missing or malformed input (a netlist whose cells the placement does not
name, no flip-flop in any group, fewer logic tiles in a region than its anchors).
"""
import argparse
import collections
import io
import itertools
import json
import math
import os
import re
import sys
import tempfile

from nextpnr_json import BEL_RE, InputError, cell_tile, load_modules


def top_module(mods, path):
    tops = [n for n, m in mods.items() if m.get('attributes', {}).get('top')]
    if len(tops) != 1:
        raise InputError(f"{path}: {len(tops)} top modules, want 1")
    return tops[0]


def placed_positions(mods, path):
    """{cell: (x, y)} of every placed cell, and the set of logic tiles (those holding a slice)."""
    pos, tiles = {}, set()
    for m in mods.values():
        for name, c in m.get('cells', {}).items():
            xy = cell_tile(c)
            if not xy:
                continue
            pos[name] = xy
            if '/SLICE' in c['attributes']['NEXTPNR_BEL']:
                tiles.add(xy)
    if not tiles:
        raise InputError(f"{path}: no placed slices (not a nextpnr --write netlist after placement?)")
    return pos, tiles


def grid_shape(n):
    if n <= 2:
        return n, 1
    if n <= 4:
        return 2, 2
    if n <= 8:
        return 4, 2
    raise InputError(f"{n} groups: at most 8")


def pct(sorted_vals, f):
    return sorted_vals[min(len(sorted_vals) - 1, max(0, int(round(f * (len(sorted_vals) - 1)))))]


def plan(groups, tiles, fill):
    """groups: {key: [(cell, (x, y)), ...]} of the anchors' old positions, plus every member's
    positions for the statistics. Returns {key: (region, [(cell, (x, y)), ...])}: region the grid
    cell (x0, y0, x1, y1), inclusive; the anchors' target points (floats)."""
    xs = [t[0] for t in tiles]
    ys = [t[1] for t in tiles]
    x0, x1, y0, y1 = min(xs), max(xs), min(ys), max(ys)
    keys = sorted(groups)
    cols, rows = grid_shape(len(keys))
    cells = []
    for r in range(rows):
        for c in range(cols):
            cx0 = x0 + (x1 - x0 + 1) * c // cols
            cx1 = x0 + (x1 - x0 + 1) * (c + 1) // cols - 1
            cy0 = y0 + (y1 - y0 + 1) * r // rows
            cy1 = y0 + (y1 - y0 + 1) * (r + 1) // rows - 1
            cells.append((cx0, cy0, cx1, cy1))
    cent = {}
    for k in keys:
        pts = groups[k]['all']
        cent[k] = (sum(p[0] for p in pts) / len(pts), sum(p[1] for p in pts) / len(pts))

    def centre(r):
        return ((r[0] + r[2]) / 2, (r[1] + r[3]) / 2)
    best = None
    for perm in itertools.permutations(range(len(cells)), len(keys)):
        cost = sum(math.dist(cent[k], centre(cells[i])) for k, i in zip(keys, perm))
        if best is None or cost < best[0] - 1e-9:
            best = (cost, perm)
    out = {}
    for k, i in zip(keys, best[1]):
        reg = cells[i]
        pts = groups[k]['all']
        sx = sorted(p[0] for p in pts)
        sy = sorted(p[1] for p in pts)
        lo = (pct(sx, 0.05), pct(sy, 0.05))
        hi = (pct(sx, 0.95), pct(sy, 0.95))
        rw = (reg[2] - reg[0] + 1) * fill
        rh = (reg[3] - reg[1] + 1) * fill
        kx = rw / max(1, hi[0] - lo[0])
        ky = rh / max(1, hi[1] - lo[1])
        mx = (lo[0] + hi[0]) / 2
        my = (lo[1] + hi[1]) / 2
        cx, cy = centre(reg)
        tgt = []
        for name, (x, y) in groups[k]['anchors']:
            tx = min(reg[2], max(reg[0], cx + (x - mx) * kx))
            ty = min(reg[3], max(reg[1], cy + (y - my) * ky))
            tgt.append((name, (tx, ty)))
        out[k] = (reg, tgt)
    return out


def bind(plan_out, tiles):
    """{cell: bel}: each anchor to the free logic tile nearest its target inside its region."""
    used = set()
    bels = {}
    for k in sorted(plan_out):
        reg, tgt = plan_out[k]
        free = sorted(t for t in tiles if reg[0] <= t[0] <= reg[2] and reg[1] <= t[1] <= reg[3])
        if len(free) < len(tgt):
            raise InputError(f"group {k}: {len(tgt)} anchors, {len(free)} logic tiles in its region")
        for name, (tx, ty) in tgt:
            best = None
            for t in free:
                if t in used:
                    continue
                d = (t[0] - tx) ** 2 + (t[1] - ty) ** 2
                if best is None or d < best[0]:
                    best = (d, t)
            t = best[1]
            bels[name] = f"X{t[0]}/Y{t[1]}/SLICEA.FF0"
            used.add(t)
    return bels


PAIRED = {'LUT4', 'PFUMX', 'L6MUX21', 'CCU2C'}


def pairable(cells):
    """The flip-flops nextpnr's packer may pair with the cell driving them (its D input's only sink
    is the flip-flop and the driver a LUT, a LUT-expansion multiplexer or a carry): such a flip-flop
    is placed with that cell, not on its own, and a BEL on it is refused ("not valid for cell")."""
    drv, sinks = {}, collections.Counter()
    for name, c in cells.items():
        dirs = c.get('port_directions', {})
        for port, bits in c.get('connections', {}).items():
            for b in bits:
                if isinstance(b, str):
                    continue
                if dirs.get(port) == 'output':
                    drv[b] = c.get('type')
                else:
                    sinks[b] += 1
    out = set()
    for name, c in cells.items():
        if c.get('type') != 'TRELLIS_FF':
            continue
        di = c.get('connections', {}).get('DI', [])
        if len(di) == 1 and not isinstance(di[0], str) and sinks[di[0]] == 1 and drv.get(di[0]) in PAIRED:
            out.add(name)
    return out


def run(synth_path, placed_path, out_path, group_re, frac, fill, log=sys.stdout):
    if not 0 < frac <= 1:
        raise InputError(f"--frac {frac}: a fraction in (0, 1]")
    if not 0 < fill <= 1:
        raise InputError(f"--fill {fill}: a fraction in (0, 1]")
    try:
        rx = re.compile(group_re)
    except re.error as e:
        raise InputError(f"--group {group_re!r}: {e}")
    smods = load_modules(synth_path)
    top = top_module(smods, synth_path)
    pos, tiles = placed_positions(load_modules(placed_path), placed_path)
    members = collections.defaultdict(list)
    anchorable = collections.defaultdict(list)
    paired = pairable(smods[top].get('cells', {}))
    for name, c in smods[top].get('cells', {}).items():
        if c.get('type') != 'TRELLIS_FF':
            continue
        m = rx.search(name)
        if not m:
            continue
        if name not in pos:
            raise InputError(f"{placed_path}: flip-flop {name} of {synth_path} is not placed there "
                             "(a placement of another netlist?)")
        key = m.group(1) if m.groups() else m.group(0)
        members[key].append(name)
        if name not in paired:
            anchorable[key].append(name)
    if not members:
        raise InputError(f"{synth_path}: no TRELLIS_FF matches --group {group_re!r}")
    step = max(1, round(1 / frac))
    groups = {}
    for k, names in members.items():
        names.sort()
        free = sorted(anchorable[k])
        groups[k] = {'all': [pos[n] for n in names],
                     'anchors': [(n, pos[n]) for n in free[::step]]}
    p = plan(groups, tiles, fill)
    bels = bind(p, tiles)
    cells = smods[top]['cells']
    for name, bel in bels.items():
        cells[name].setdefault('attributes', {})['BEL'] = bel
    with open(out_path, 'w') as f:
        json.dump({'creator': 'fpga/ecp5/anchor.py', 'modules': smods}, f)
    for k in sorted(p, key=lambda s: (len(s), s)):
        reg, tgt = p[k]
        pts = groups[k]['all']
        cx = sum(q[0] for q in pts) / len(pts)
        cy = sum(q[1] for q in pts) / len(pts)
        print(f"group {k}: {len(pts)} flip-flops, {len(tgt)} anchored in X{reg[0]}..{reg[2]} "
              f"Y{reg[1]}..{reg[3]} (placed centroid X{cx:.1f} Y{cy:.1f})", file=log)
    print(f"{out_path}: {len(bels)} anchors", file=log)


def check_toy(out, ordered):
    """The self-test's checks of one anchored toy netlist (see self_test)."""
    assert 'BEL' not in out.get('core_q', {}).get('attributes', {}), 'the core must stay free'
    seen = set()
    regions = collections.defaultdict(set)
    for g in range(4):
        xs = []
        free = [i for i in range(40) if (g, i) != (0, 0)]
        want = set(free[::2])          # every second free flip-flop by name at --frac 0.5
        for i in range(40):
            a = out[f"u.gen_sm[{g}].r_{i:02d}"].get('attributes', {})
            if i not in want:
                assert 'BEL' not in a, f"r_{i} of group {g} anchored at --frac 0.5"
                continue
            m = re.match(r'^X(\d+)/Y(\d+)/SLICEA\.FF0$', a['BEL'])
            assert m, a['BEL']
            slc = (int(m.group(1)), int(m.group(2)))
            assert slc not in seen, f"two anchors in tile {slc}"
            seen.add(slc)
            regions[g].add((slc[0] // 10, slc[1] // 5))
            xs.append(slc[0])
        assert len(regions[g]) == 1, f"group {g} spans grid cells {regions[g]}"
        assert not ordered or xs == sorted(xs), f"group {g}: order along x not kept: {xs}"
    assert len({next(iter(r)) for r in regions.values()}) == 4, 'two groups share a region'


def expect_error(args, msg, log):
    """run(*args) must fail with an InputError whose message contains msg."""
    try:
        run(*args, log=log)
    except InputError as e:
        assert msg in str(e), (msg, str(e))
    else:
        raise AssertionError(f"no error ({msg!r} expected) for {args}")


def self_test():
    """A 4-group toy netlist on a 20 x 10 die: regions, one anchor per tile, inside its region,
    relative order kept, a flip-flop the packer would pair with its LUT left free, and the errors."""
    quiet = io.StringIO()
    tiles = {(x, y) for x in range(20) for y in range(10)}
    synth = {'modules': {'t': {'attributes': {'top': '00000000000000000000000000000001'}, 'cells': {}}}}
    placed = {'modules': {'top': {'cells': {}}}}
    scells = synth['modules']['t']['cells']
    pcells = placed['modules']['top']['cells']
    for t in sorted(tiles):
        pcells[f"lut_{t[0]}_{t[1]}"] = {'attributes': {'NEXTPNR_BEL': f"X{t[0]}/Y{t[1]}/SLICEA.K0"}}
    for g in range(4):
        for i in range(40):
            name = f"u.gen_sm[{g}].r_{i:02d}"
            scells[name] = {'type': 'TRELLIS_FF'}
            # every group spread over the whole die, group g's cells ordered by i along x
            pcells[name] = {'attributes': {'NEXTPNR_BEL': f"X{i // 2}/Y{(i * 7 + g) % 10}/SLICEB.FF1"}}
    # r_00 of group 0 is fed by a LUT4 that feeds nothing else: nextpnr pairs the two, so no anchor
    scells['u.gen_sm[0].r_00']['connections'] = {'DI': [100]}
    scells['lut_pair'] = {'type': 'LUT4', 'port_directions': {'Z': 'output'}, 'connections': {'Z': [100]}}
    scells['core_q'] = {'type': 'TRELLIS_FF'}
    pcells['core_q'] = {'attributes': {'NEXTPNR_BEL': 'X0/Y0/SLICEC.FF0'}}
    with tempfile.TemporaryDirectory() as d:
        sp, pp, op = (os.path.join(d, n) for n in ('s.json', 'p.json', 'o.json'))
        json.dump(synth, open(sp, 'w'))
        json.dump(placed, open(pp, 'w'))
        # fill 0.8: the targets fall on distinct tiles, so the placement's order along x is kept;
        # fill 0.1: they crowd onto a tile or two and must spread to the nearest free ones
        for fill in (0.8, 0.1):
            run(sp, pp, op, r'gen_sm\[(\d+)\]', 0.5, fill, quiet)
            check_toy(json.load(open(op))['modules']['t']['cells'], ordered=fill > 0.5)
        sm = r'gen_sm\[(\d+)\]'
        for args, msg in (((sp, pp, op, r'nomatch', 0.5, 0.8), 'no TRELLIS_FF'),
                          ((sp, pp, op, sm, 0, 0.8), '--frac'),
                          ((sp, pp, op, sm, 0.5, 1.5), '--fill'),
                          ((sp, os.path.join(d, 'none.json'), op, sm, 0.5, 0.8), 'none.json')):
            expect_error(args, msg, quiet)
        # everything placed in rows 0 and 1: 40 tiles, 10 per region, fewer than a group's 20 anchors
        small = {}
        for n, c in pcells.items():
            m = BEL_RE.match(c['attributes']['NEXTPNR_BEL'])
            x, y = int(m.group(1)), int(m.group(2)) % 2
            small[n] = {'attributes': {'NEXTPNR_BEL': f"X{x}/Y{y}/SLICEB.FF1"}}
        json.dump({'modules': {'top': {'cells': small}}}, open(pp, 'w'))
        expect_error((sp, pp, op, sm, 0.5, 0.8), 'logic tiles in its region', quiet)
        del pcells['u.gen_sm[1].r_03']
        json.dump(placed, open(pp, 'w'))   # the full die again, one flip-flop not placed
        expect_error((sp, pp, op, sm, 0.5, 0.8), 'not placed', quiet)
    print('anchor.py self-test: PASS')


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('synth', nargs='?')
    ap.add_argument('placed', nargs='?')
    ap.add_argument('out', nargs='?')
    ap.add_argument('--group', default=r'gen_sm\[(\d+)\]')
    ap.add_argument('--frac', type=float, default=0.1)
    ap.add_argument('--fill', type=float, default=0.8)
    ap.add_argument('--self-test', action='store_true')
    a = ap.parse_args()
    if a.self_test:
        self_test()
        return 0
    if not (a.synth and a.placed and a.out):
        ap.error('SYNTH_JSON PLACED_JSON OUT_JSON, or --self-test')
    try:
        run(a.synth, a.placed, a.out, a.group, a.frac, a.fill)
    except InputError as e:
        print(f"anchor.py: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == '__main__':
    sys.exit(main())
