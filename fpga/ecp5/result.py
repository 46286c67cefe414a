#!/usr/bin/env python3
"""ECP5 build results (docs/fpga.md §11).

  result.py DIR NAME KEY=VALUE...   write DIR/NAME/result.txt from DIR/NAME/pnr.log and report.json
                                    (the KEY=VALUE pairs are the build's parameters and times)
  result.py --table DIR NAME...     print the markdown table of docs/fpga.md §11 for those builds
"""
import json
import os
import re
import sys

UTIL = {"lut4": "TRELLIS_COMB", "ff": "TRELLIS_FF", "ebr": "DP16KD", "dsp": "MULT18X18D"}


def util(log: str, cell: str) -> str:
    m = None
    for m in re.finditer(r"^Info:\s+" + cell + r":\s+(\d+)/\s*(\d+)\s+(\d+)%", log, re.M):
        pass
    return f"{m.group(1)}/{m.group(2)} ({m.group(3)}%)" if m else "-"


def critical(path: str) -> str:
    try:
        with open(path, encoding="utf-8") as f:
            rep = json.load(f)
    except (OSError, ValueError):
        return "-"
    worst = None
    for p in rep.get("critical_paths", []):
        delay = sum(float(s.get("delay", 0.0)) for s in p.get("path", []))
        if worst is None or delay > worst[0]:
            worst = (delay, p)
    if worst is None:
        return "-"
    cells, logic, route = [], 0.0, 0.0
    for seg in worst[1].get("path", []):
        d = float(seg.get("delay", 0.0))
        if seg.get("type") == "routing":
            route += d
        else:
            logic += d
        name = seg.get("to", {}).get("cell", "")
        # nextpnr names packed cells after the signal they drive plus the mapping's suffixes
        # (_LUT4_Z, _CCU2C_..., $CCU2_COMB0, _DOB9 ...): keep the RTL signal part
        name = re.split(r"(_LUT4|_CCU2C|_TRELLIS|_PFUMX|_L6MUX|\$|_DO[AB][0-9]|_DI[AB][0-9])", name)[0]
        if name and (not cells or cells[-1] != name):
            cells.append(name)
    keep = cells if len(cells) <= 12 else cells[:6] + ["..."] + cells[-5:]
    return " -> ".join(keep) + f" ({logic + route:.1f} ns: {logic:.1f} logic, {route:.1f} routing)"


def write(d: str, name: str, pairs: list) -> None:
    base = os.path.join(d, name)
    with open(os.path.join(base, "pnr.log"), encoding="utf-8", errors="replace") as f:
        log = f.read()
    res = dict(p.split("=", 1) for p in pairs)
    for k, cell in UTIL.items():
        res[k] = util(log, cell)
    fm = re.findall(r"Max frequency for clock '([^']*)': ([0-9.]+) MHz \((PASS|FAIL) at ([0-9.]+) MHz\)", log)
    if fm:
        res["clock"], res["fmax_mhz"], res["timing"], res["target_mhz"] = fm[-1]
    else:
        res["fmax_mhz"], res["timing"] = "-", "-"
    # nextpnr prints the figure twice: estimated after placement, then post-route
    res["place_fmax_mhz"] = fm[0][1] if fm else "-"
    if res.get("routed", "yes") != "yes":
        # a routing run that was stopped prints no post-route figure: keep only the placement estimate
        res["fmax_mhz"], res["timing"] = "-", "-"
    res["critical"] = critical(os.path.join(base, "report.json"))
    with open(os.path.join(base, "result.txt"), "w", encoding="utf-8") as f:
        for k, v in res.items():
            f.write(f"{k}={v}\n")
    print(f"ecp5   {name}: fits {res.get('fits')}, LUT4 {res['lut4']}, FF {res['ff']}, EBR {res['ebr']}, "
          f"DSP {res['dsp']}, Fmax {res['fmax_mhz']} MHz ({res['timing']} at {res.get('mhz')}), "
          f"placement estimate {res['place_fmax_mhz']} MHz, routed {res.get('routed')} ({res.get('router')}), "
          f"synth {res.get('synth_s')} s, pnr {res.get('pnr_s')} s")


def table(d: str, names: list) -> None:
    print("| build | top | device | MLU | clock target | LUT4 | FF | EBR | DSP | Fmax (post-route, seed) | "
          "at the target | synth / P&R time |")
    print("|---|---|---|---|---:|---:|---:|---:|---:|---:|---|---|")
    for n in names:
        try:
            with open(os.path.join(d, n, "result.txt"), encoding="utf-8") as f:
                r = dict(l.rstrip("\n").split("=", 1) for l in f if "=" in l)
        except OSError:
            print(f"| `{n}` | not built | | | | | | | | | | |")
            continue
        routed = r.get("routed", "yes")
        if r.get("fits") == "no":
            fmax, at = "does not fit: placement fails", "-"
        elif routed == "yes":
            fmax, at = f"{r.get('fmax_mhz')} MHz (seed {r.get('seed')}, {r.get('router', 'router1')})", r.get("timing")
        elif routed.startswith("stopped in placement"):
            fmax, at = f"no estimate: nextpnr {routed} (seed {r.get('seed')})", "not routed"
        else:
            fmax = (f"{r.get('place_fmax_mhz')} MHz estimated after placement (seed {r.get('seed')}); "
                    f"routing ({r.get('router', 'router1')}) {routed}")
            at = "not routed"
        print(f"| `{n}` | {r.get('top')} | LFE5U-{r.get('device', '').upper()} | {r.get('params')} | "
              f"{r.get('mhz')} MHz | {r.get('lut4')} | {r.get('ff')} | {r.get('ebr')} | {r.get('dsp')} | "
              f"{fmax} | {at} | "
              f"{r.get('synth_s')} s / {r.get('pnr_s')} s |")


def main() -> int:
    if len(sys.argv) >= 3 and sys.argv[1] == "--table":
        table(sys.argv[2], sys.argv[3:])
        return 0
    if len(sys.argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    write(sys.argv[1], sys.argv[2], sys.argv[3:])
    return 0


if __name__ == "__main__":
    sys.exit(main())
