# Copyright GPUArmor contributors.
"""What fpga/ecp5/congestion.py, fpga/ecp5/placed_paths.py and fpga/ecp5/anchor.py read from a
nextpnr-ecp5 netlist (`--write`, placed or routed; anchor.py a Yosys one too): its modules, a cell's
tile and a cell's source line."""
import json
import re

BEL_RE = re.compile(r'^X(\d+)/Y(\d+)/')


def cell_tile(cell):
    """The tile (x, y) of a placed cell (its NEXTPNR_BEL attribute), or None where it has none."""
    m = BEL_RE.match(str(cell.get('attributes', {}).get('NEXTPNR_BEL', '')))
    return (int(m.group(1)), int(m.group(2))) if m else None


class InputError(Exception):
    """A missing or malformed input: the message names the file and the cause."""


def src_line(src):
    """'rtl/ga_mlb.sv:360.3-374.6|/share/...' -> 'rtl/ga_mlb.sv:360'; None without a design line."""
    for part in src.split('|'):
        if part.startswith('/') or ':' not in part:
            continue                      # the synthesis library's own files, or no position
        name, pos = part.split(':', 1)
        line = pos.split('.', 1)[0]
        if line.isdigit():
            return f"{name}:{line}"
    return None


def load_modules(path):
    """The netlist's modules (a dict, not empty)."""
    try:
        with open(path) as f:
            net = json.load(f)
    except OSError as e:
        raise InputError(f"{path}: {e.strerror}")
    except json.JSONDecodeError as e:
        raise InputError(f"{path}: not JSON ({e.msg} at line {e.lineno})")
    mods = net.get('modules') if isinstance(net, dict) else None
    if not isinstance(mods, dict) or not mods:
        raise InputError(f"{path}: no modules (not a nextpnr --write netlist?)")
    return mods
