#!/usr/bin/env python3
"""Table of the iCE40 builds (fpga/ice40.sh results) for docs/fpga.md.

  report.py --dir build/fpga [--write docs/fpga.md] BUILD...

Prints the table; with --write, replaces the part of docs/fpga.md between <!-- fpga:builds:begin -->
and <!-- fpga:builds:end -->. A build whose run is missing is an error.
"""
import argparse
import os
import sys


def load(d, name):
    p = os.path.join(d, name, 'result.txt')
    if not os.path.exists(p):
        sys.exit('report.py: %s missing: run `make fpga`' % p)
    r = {}
    with open(p) as f:
        for line in f:
            k, _, v = line.rstrip('\n').partition('=')
            r[k] = v
    return r


def par(r, key):
    toks = r['params'].split()
    for i, t in enumerate(toks):
        if t == key and i + 1 < len(toks):
            return toks[i + 1]
    return None


def routed(r):
    """'yes', or where fpga/ice40.sh's FPGA_ROUTE_MIN stopped nextpnr (results before it: 'yes')."""
    return r.get('routed', 'yes') or 'yes'


def lc_cell(lc, fits):
    if fits == 'unknown':  # FPGA_ROUTE_MIN stopped nextpnr before placement ended
        return 'placement not finished'
    return lc.replace('/', ' / ') if fits == 'yes' else 'does not fit (%s)' % lc.replace('/', ' / ')


def fmax_cell(r, fmax, seed, fits):
    if routed(r) != 'yes':
        est = ('%s MHz estimated after placement (seed %s); ' % (fmax, seed)) if fmax else ''
        return '%snextpnr %s' % (est, routed(r))
    return ('%s MHz (seed %s)' % (fmax, seed)) if fmax and fits == 'yes' else '-'


def timing_cell(r, fits):
    if routed(r) != 'yes':
        return 'not routed'
    return r.get('timing', '') if fits == 'yes' else '-'


def table(runs):
    out = ['| build | board | TagBits | MLB | VA bits kept | md bits kept | HWOnly | clock | SB_LUT4 | flip-flops '
           '| block RAM | logic cells (placed) | fits | Fmax (post-route, seed) | at the clock |',
           '|---|---|---|---|---|---|---|---:|---:|---:|---:|---:|---|---:|---|']
    for r in runs:
        t = par(r, 'TagBits') or '7'
        va = par(r, 'VaKeep') or str(64 - int(t))
        md = par(r, 'MdKeep') or '64'
        lc = r.get('lc', '') or 'n/a'
        fits = r.get('fits', '')
        fmax = r.get('fmax_mhz', '')
        hw = 'no' if par(r, 'HwOnlyMode') == '0' else 'yes'
        seed = r.get('seed', '1')
        out.append('| `%s` | %s | %s | %s | %s | %s | %s | %s MHz | %s | %s | %s | %s | %s | %s | %s |' % (
            r['name'], 'iCE40-HX8K breakout' if r['board'] == 'hx8k' else 'iCEBreaker (UP5K)', t,
            par(r, 'MlbEntries') or '8', va, md, hw, r['clock_mhz'], r['luts'], r['ffs'], r['brams'],
            lc_cell(lc, fits),
            fits, fmax_cell(r, fmax, seed, fits), timing_cell(r, fits)))
    out.append('')
    out.append('Critical paths (nextpnr post-route report; cells named after the RTL signal they drive):')
    out.append('')
    for r in runs:
        if r.get('fits') == 'yes' and routed(r) == 'yes' and r.get('critical_path'):
            out.append('- `%s`: %s (%s)' % (r['name'], r['critical_path'].replace(' > ', ' → '),
                                            r.get('critical_split', '')))
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--dir', required=True)
    ap.add_argument('--write')
    ap.add_argument('builds', nargs='+')
    a = ap.parse_args()
    runs = [load(a.dir, b) for b in a.builds]
    lines = table(runs)
    print('\n'.join(lines))
    if a.write:
        with open(a.write) as f:
            t = f.read()
        b, e = '<!-- fpga:builds:begin -->', '<!-- fpga:builds:end -->'
        i, j = t.find(b), t.find(e)
        if i < 0 or j < i:
            sys.exit('report.py: %s has no %s ... %s markers' % (a.write, b, e))
        tools = sorted(set('%s; %s' % (r.get('yosys', ''), r.get('nextpnr', '')) for r in runs))
        t = t[:i + len(b)] + '\n' + '\n'.join(lines) + '\n\nTools: ' + ' / '.join(tools) + '.\n' + t[j:]
        with open(a.write, 'w') as f:
            f.write(t)
        print('fpga: %s regenerated' % a.write)


if __name__ == '__main__':
    main()
