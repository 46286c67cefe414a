#!/usr/bin/env python3
"""Tables of the generic-synthesis runs (fpga/synth/area.sh results) for docs/area.md and README.md.

  report.py --dir build/synth --write docs/area.md README.md RUN...   rewrite the generated tables
  report.py --dir build/synth --compare docs/area.md RUN...           compare fresh runs with the doc

The generated parts sit between marker comments (<!-- area:NAME:begin --> / <!-- area:NAME:end -->);
nothing outside them is touched. --compare prints a warning for every figure that drifted (an RTL
change since docs/area.md was regenerated) and exits 0; a missing run is an error.
"""
import argparse
import os
import re
import sys

# Assumptions of the L1 comparison (docs/area.md states each with its source).
L1_BYTES = 192 * 1024        # GA100: 192 KB combined L1 data cache / shared memory per SM (A100 whitepaper)
SRAM_T_PER_BIT = 6           # 6T SRAM cell
BITCELL_UM2 = 0.027          # TSMC 7 nm high-density 6T bitcell (ISSCC 2017, Chang et al.)
LOGIC_MTR_MM2 = 91.2         # TSMC N7 logic density, million transistors per mm2 (WikiChip)
PAPER_MLB_BYTES = 16 * 24    # paper §9.3: 16 entries x 24 B

NAMES = {'mlu': 'ga_mlu (whole unit)', 'mlb': 'ga_mlb', 'check': 'ga_check', 'walker': 'ga_walker'}


def load(d, name):
    p = os.path.join(d, name + '.res')
    if not os.path.exists(p):
        sys.exit('report.py: %s missing: run `make synth` (or `make %s`)' % (p, p))
    r = {}
    with open(p) as f:
        for line in f:
            k, _, v = line.rstrip('\n').partition('=')
            r[k] = v
    for k in ('cells', 'ffs', 'transistors', 'levels', 'seconds'):
        r[k] = int(r[k])
    parts = name.split('_')
    r['block'] = parts[0]
    r['T'] = r['M'] = r['L'] = ''
    for p_ in parts[1:]:
        if p_[0] in 'tml':
            r[p_[0].upper()] = p_[1:]
    return r


def fmt(n):
    return '{:,}'.format(n).replace(',', '\u202f')


def main_table(runs):
    out = ['| run | block | TagBits | MLB entries | Lanes | generic cells | flip-flops | transistors (est.) '
           '| NAND2-eq. | logic levels | Yosys time | RTL |',
           '|---|---|---|---|---|---:|---:|---:|---:|---:|---:|---|']
    for r in runs:
        out.append('| `%s` | %s | %s | %s | %s | %s | %s | %s | %s | %d | %d s | `%s` |' % (
            r['name'], NAMES[r['block']], r['T'] or '-', r['M'] or '-', r['L'] or '-', fmt(r['cells']),
            fmt(r['ffs']), fmt(r['transistors']), fmt(r['transistors'] // 4), r['levels'], r['seconds'],
            r.get('rtl_sha', '?')))
    return out


def paths_table(runs):
    out = ['| run | logic levels | from | to |', '|---|---:|---|---|']
    for r in runs:
        out.append('| `%s` | %d | `%s` | `%s` |' % (r['name'], r['levels'], r.get('path_from', ''),
                                                  r.get('path_to', '')))
    return out


def l1_table(runs):
    l1_t = L1_BYTES * 8 * SRAM_T_PER_BIT
    l1_um2 = L1_BYTES * 8 * BITCELL_UM2
    out = ['| run | storage flops (bits) | vs paper MLB (%d bits) | transistors (est.) | vs L1 cell transistors '
           '(%s) | logic area at N7 density (um2) | vs L1 bit-cell area (%s um2) |' % (
               PAPER_MLB_BYTES * 8, fmt(l1_t), fmt(int(l1_um2))),
           '|---|---:|---:|---:|---:|---:|---:|']
    for r in runs:
        area = r['transistors'] / (LOGIC_MTR_MM2 * 1e6) * 1e6
        out.append('| `%s` | %s | %.2fx | %s | %.2f %% | %s | %.1f %% |' % (
            r['name'], fmt(r['ffs']), r['ffs'] / (PAPER_MLB_BYTES * 8.0), fmt(r['transistors']),
            100.0 * r['transistors'] / l1_t, fmt(int(area)), 100.0 * area / l1_um2))
    return out


def readme_table(runs):
    out = ['| configuration | generic cells | flip-flops | transistors (est.) | NAND2-eq. | logic levels | RTL |',
           '|---|---:|---:|---:|---:|---:|---|']
    for r in runs:
        if r['block'] != 'mlu':
            continue
        out.append('| ga_mlu TagBits %s, MLB %s, Lanes %s | %s | %s | %s | %s | %d | `%s` |' % (
            r['T'], r['M'], r['L'], fmt(r['cells']), fmt(r['ffs']), fmt(r['transistors']),
            fmt(r['transistors'] // 4), r['levels'], r.get('rtl_sha', '?')))
    return out


def replace(text, tag, lines, path):
    b = '<!-- area:%s:begin -->' % tag
    e = '<!-- area:%s:end -->' % tag
    i, j = text.find(b), text.find(e)
    if i < 0 or j < i:
        sys.exit('report.py: %s has no %s ... %s markers' % (path, b, e))
    return text[:i + len(b)] + '\n' + '\n'.join(lines) + '\n' + text[j:]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--dir', required=True)
    ap.add_argument('--write', nargs=2, metavar=('AREA_MD', 'README'))
    ap.add_argument('--compare', metavar='AREA_MD')
    ap.add_argument('runs', nargs='+')
    a = ap.parse_args()
    runs = [load(a.dir, n) for n in a.runs]
    if a.write:
        area_md, readme = a.write
        with open(area_md) as f:
            t = f.read()
        t = replace(t, 'main', main_table(runs), area_md)
        t = replace(t, 'paths', paths_table(runs), area_md)
        t = replace(t, 'l1', l1_table([r for r in runs if r['block'] in ('mlu', 'mlb')]), area_md)
        yv = sorted(set(r.get('yosys', '') for r in runs))
        sha = sorted(set(r.get('rtl_sha', '') for r in runs))
        per = ', '.join('`%s` (%d runs)' % (h, sum(1 for r in runs if r.get('rtl_sha', '') == h)) for h in sha)
        t = replace(t, 'provenance', ['Generated by `make synth` from %d runs; %s; the RTL each run read is named by '
                                      'the sha256 of its sources (first 12 hex digits of the files of '
                                      '`rtl/ga_mlu.f` concatenated in that order, then `rtl/ga_isa.svh`; '
                                      'column RTL): %s.' % (len(runs), ', '.join(yv), per)], area_md)
        with open(area_md, 'w') as f:
            f.write(t)
        with open(readme) as f:
            t = f.read()
        t = replace(t, 'readme', readme_table(runs), readme)
        with open(readme, 'w') as f:
            f.write(t)
        print('synth: %s and %s regenerated from %d runs' % (area_md, readme, len(runs)))
    if a.compare:
        with open(a.compare) as f:
            doc = f.read()
        drift = 0
        for r in runs:
            m = re.search(r'^\| `%s` \|[^\n]*$' % re.escape(r['name']), doc, re.M)
            if not m:
                print('synth-quick: WARNING: %s is not in %s' % (r['name'], a.compare))
                drift += 1
                continue
            cols = [c.strip().replace('\u202f', '').replace(',', '') for c in m.group(0).split('|')[1:-1]]
            doc_v = {'cells': int(cols[5]), 'ffs': int(cols[6]), 'transistors': int(cols[7]), 'levels': int(cols[9])}
            diffs = ['%s %d -> %d' % (k, doc_v[k], r[k]) for k in doc_v if doc_v[k] != r[k]]
            if diffs:
                drift += 1
                print('synth-quick: WARNING: %s drifted from %s: %s (run `make synth` to regenerate)' % (
                    r['name'], a.compare, ', '.join(diffs)))
            else:
                print('synth-quick: %s: %d cells, %d flops, %d transistors, %d levels (as in %s)' % (
                    r['name'], r['cells'], r['ffs'], r['transistors'], r['levels'], a.compare))
        print('synth-quick: %d run(s) synthesised without latches; %d differ from %s' % (len(runs), drift, a.compare))


if __name__ == '__main__':
    main()
