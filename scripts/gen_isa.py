#!/usr/bin/env python3
"""gen_isa.py — the SystemVerilog form of the shared encodings (cmodel/ga_isa.def, cmodel/ga_layouts.def),
and the check that every other copy of them in the tree agrees.

The C model builds its enumerations from the two .def files with the preprocessor (cmodel/ga_isa.h);
this script writes the same values as SystemVerilog for rtl/ga_pkg.sv, which includes the committed
result rtl/ga_isa.svh inside package ga_pkg (so no RTL flow needs Python: Verilator, Yosys, Icarus,
the formal and FPGA scripts read the .svh). `make isa-check` (mk/isa.mk, part of `make test`) runs
--check, --check-copies and --self-test.

  gen_isa.py                 print the generated text on stdout
  gen_isa.py --out FILE      write it to FILE (only when it changed, so make sees no new timestamp)
  gen_isa.py --check FILE    exit 1, naming the first differing line, when FILE is not what would be written
  gen_isa.py --check-copies  exit 1, naming file, name and both values, when a hand-written copy in the
                             tree disagrees (see COPIES), or when rtl/ga_pkg.sv holds an encoding itself
                             instead of including ga_isa.svh
  gen_isa.py --self-test     plant one disagreement of each kind in memory (a changed op code, layout
                             column, walk mapping, register range, C copy, board command, hand-written
                             package value) and exit 1 unless every one is caught

What is written: the widths (`localparam int OpW = 3;` ...), every encoding as `<FAMILY>_<NAME>` sized by
its family's width (OP_, RSP_, EXC_, EV_, MODE_, POLICY_, WALK_, MD_), the register addresses (CFG_*),
their reset values and legal ranges (CFG_<REG>_RESET / _LO / _HI), the LAYOUT_* codes of the layouts whose
rtl column is 1, the function cfg_legal(addr, value) (the .def's ranges; LAYOUT limited to the layouts the
RTL has) and the function walk_exc(status, freed) of spec §5.4. The widths of the 1-bit families (MODE,
POLICY) are 1. LayoutW is the .def's width once every layout is in the RTL; until then it is the width
the RTL's largest layout code needs (2 bits for list, bst, table), which tests/test_isa.c allows, so the
RTL's layout ports do not widen before the RTL has a layout that needs it.
Exit status: 0; 1 a malformed .def, a --check or --check-copies difference, or a self-test mutant not
caught; 2 a bad command line.
"""
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, ".."))
ISA = "cmodel/ga_isa.def"
LAYOUTS = "cmodel/ga_layouts.def"
SVH = "rtl/ga_isa.svh"
PKG = "rtl/ga_pkg.sv"

# family -> the GA_WIDTH entry that sizes it (None: 1 bit)
FAMILY_WIDTH = {"OP": "Op", "RSP": "Status", "EXC": "Exc", "EV": "EvKind", "MODE": None, "POLICY": None,
                "WALK": "WalkSt", "MD": "MdSt"}

# Hand-written copies of .def families elsewhere in the tree: (file, prefix there, family here). "CFG" is
# the register addresses. tests/test_isa.c reads the C copies too (independently of this script).
COPIES = [
    ("tb/cosim/tb_common.h", "TB_OP_", "OP"), ("tb/cosim/tb_common.h", "TB_ST_", "RSP"),
    ("tb/cosim/tb_common.h", "TB_EV_", "EV"), ("tb/cosim/tb_common.h", "TB_CFG_", "CFG"),
    ("fpga/host/gab_proto.h", "GAB_OP_", "OP"), ("fpga/host/gab_proto.h", "GAB_RSP_", "RSP"),
    ("fpga/host/gab_proto.h", "GAB_CFG_", "CFG"),
]

# The board protocol's own codes (docs/fpga.md §3), written twice: in the board's SystemVerilog and in the
# host's header. (SV file, SV prefix, C file, C prefix, C names that are counts rather than codes.)
BOARD = [
    ("fpga/rtl/ga_board_core.sv", "CMD_", "fpga/host/gab_proto.h", "GAB_CMD_", ()),
    ("fpga/rtl/ga_board_core.sv", "ST_", "fpga/host/gab_proto.h", "GAB_ST_", ("CODES",)),
    ("fpga/rtl/ga_board_core.sv", "SYNC_", "fpga/host/gab_proto.h", "GAB_SYNC_", ()),
]

# What rtl/ga_pkg.sv may not define itself: every generated prefix, and the generated widths.
PKG_FORBIDDEN = ["OP_", "RSP_", "EXC_", "EV_", "MODE_", "POLICY_", "WALK_", "MD_", "CFG_", "LAYOUT_"]


class Mismatch(Exception):
    """A disagreement or a malformed input: the message is one line naming the place."""


def die(msg, code=1):
    sys.stderr.write("gen_isa.py: %s\n" % msg)
    sys.exit(code)


def read_text(rel):
    path = os.path.join(ROOT, rel)
    try:
        with open(path) as f:
            return f.read()
    except OSError as e:
        raise Mismatch("%s: cannot read (%s)" % (rel, e.strerror))


def parse_def(isa_text, layouts_text):
    """The two .def files' entries: (widths, encodings, registers, walk mapping, layouts)."""
    widths, encs, regs, walk_exc = {}, [], [], []
    pats = {
        "W": re.compile(r"^GA_WIDTH\((\w+),\s*(\d+)\)\s*$"),
        "E": re.compile(r"^GA_ENC\((\w+),\s*(\w+),\s*(\d+)\)\s*$"),
        "R": re.compile(r"^GA_REG\((\w+),\s*(\d+),\s*(\d+),\s*(\w+),\s*(\w+),\s*(\w+)\)\s*$"),
        "X": re.compile(r"^GA_WALK_EXC\((\w+),\s*(\w+),\s*(\w+)\)\s*$"),
    }
    for n, line in enumerate(isa_text.splitlines(), 1):
        if not line.startswith("GA_"):
            continue
        for k, p in pats.items():
            m = p.match(line)
            if m:
                break
        else:
            raise Mismatch("%s:%d:1: expected GA_WIDTH, GA_ENC, GA_REG or GA_WALK_EXC, got '%s'"
                           % (ISA, n, line.strip()))
        g = m.groups()
        try:
            if k == "W":
                widths[g[0]] = int(g[1])
            elif k == "E":
                encs.append((g[0], g[1], int(g[2])))
            elif k == "R":
                regs.append((g[0], int(g[1]), int(g[2]), int(g[3], 0), int(g[4], 0), int(g[5], 0)))
            else:
                walk_exc.append(g)
        except ValueError:
            raise Mismatch("%s:%d:1: expected numbers, got '%s'" % (ISA, n, line.strip()))
    lays = []
    pat = re.compile(r"^GA_LAYOUT\((\w+),\s*(\d+),\s*(\w+),\s*([01]),")
    for n, line in enumerate(layouts_text.splitlines(), 1):
        if not line.startswith("GA_LAYOUT("):
            continue
        m = pat.match(line)
        if not m:
            raise Mismatch("%s:%d:1: expected GA_LAYOUT(ID, code, name, 0|1, title), got '%s'"
                           % (LAYOUTS, n, line.strip()))
        lays.append((m.group(1), int(m.group(2)), m.group(4) == "1"))
    if not encs or not regs or not lays:
        raise Mismatch("an empty list in %s or %s" % (ISA, LAYOUTS))
    for need in ("CfgAddr", "Layout", "Exc", "WalkSt"):
        if need not in widths:
            raise Mismatch("%s: no GA_WIDTH(%s, ...)" % (ISA, need))
    exc_names = {name for fam, name, _ in encs if fam == "EXC"}
    walk_names = {name for fam, name, _ in encs if fam == "WALK"}
    for walk, live, freed in walk_exc:
        if walk not in walk_names or live not in exc_names or freed not in exc_names:
            raise Mismatch("%s: GA_WALK_EXC(%s, %s, %s) names an unknown WALK or EXC" % (ISA, walk, live, freed))
    return widths, encs, regs, walk_exc, lays


def layout_width(widths, lays):
    """The RTL's layout code width (see the docstring): the .def's once every layout is in the RTL."""
    rtl = [code for _, code, in_rtl in lays if in_rtl]
    if not rtl:
        raise Mismatch("%s: no layout has rtl 1" % LAYOUTS)
    if len(rtl) == len(lays):
        return widths["Layout"]
    return max(1, max(rtl).bit_length())


def generate(isa_text, layouts_text):
    widths, encs, regs, walk_exc, lays = parse_def(isa_text, layouts_text)
    lw = layout_width(widths, lays)
    out = ["// ga_isa.svh -- GENERATED by scripts/gen_isa.py from cmodel/ga_isa.def and cmodel/ga_layouts.def:",
           "// do not edit (change the .def files, then `make isa-gen`; `make isa-check` fails while this file",
           "// differs). Included inside package ga_pkg (rtl/ga_pkg.sv).", ""]
    for name, bits in widths.items():
        if name == "Layout" and lw != bits:
            out.append("  // The RTL's layout code: %d bits hold every layout it has (ga_layouts.def rtl column);"
                       % lw)
            out.append("  // the LAYOUT register is %d bits (CFG_LAYOUT_*), and a code the RTL lacks is refused." % bits)
            bits = lw
        out.append("  localparam int %sW = %d;" % (name, bits))
    out.append("")
    for fam, name, value in encs:
        wname = FAMILY_WIDTH.get(fam, "missing")
        if wname == "missing":
            raise Mismatch("family %s has no width in %s" % (fam, os.path.basename(__file__)))
        if wname is not None and wname not in widths:
            raise Mismatch("%s: no GA_WIDTH(%s, ...) for family %s" % (ISA, wname, fam))
        bits = 1 if wname is None else widths[wname]
        if value >= (1 << bits):
            raise Mismatch("%s: %s_%s = %d does not fit in %d bits" % (ISA, fam, name, value, bits))
        vec = "logic" if bits == 1 else "logic [%sW-1:0]" % wname
        out.append("  localparam %s %s_%s = %d'd%d;" % (vec, fam, name, bits, value))
    out.append("")
    for name, addr, bits, reset, lo, hi in regs:
        out.append("  localparam logic [CfgAddrW-1:0] CFG_%s = %d'd%d;" % (name, widths["CfgAddr"], addr))
        out.append("  localparam logic [%d:0] CFG_%s_RESET = %d'd%d;" % (bits - 1, name, bits, reset))
        out.append("  localparam logic [%d:0] CFG_%s_LO = %d'd%d;" % (bits - 1, name, bits, lo))
        out.append("  localparam logic [%d:0] CFG_%s_HI = %d'd%d;" % (bits - 1, name, bits, hi))
    out.append("")
    rtl_codes = []
    for lid, code, rtl in lays:
        if rtl:
            if code >= (1 << lw):
                raise Mismatch("%s: layout %s code %d does not fit LayoutW %d" % (LAYOUTS, lid, code, lw))
            out.append("  localparam logic [LayoutW-1:0] LAYOUT_%s = %d'd%d;" % (lid, lw, code))
            rtl_codes.append(code)
    out.append("")
    out.append("  // spec §5.1: whether CFG_WRITE of value v to register a is legal in this RTL (else CFG_ERROR,")
    out.append("  // nothing changes): the .def's ranges, LAYOUT only the codes the RTL has; an unknown address is")
    out.append("  // illegal. ga_mlu adds its HwOnly-parameter rule for MODE.")
    out.append("  function automatic logic cfg_legal(input logic [CfgAddrW-1:0] a, input logic [63:0] v);")
    out.append("    cfg_legal = 1'b0;")
    out.append("    case (a)")
    for name, addr, bits, reset, lo, hi in regs:
        terms = []
        if bits < 64:
            terms.append("(v[63:%d] == '0)" % bits)
        field = "v[%d:0]" % (bits - 1)
        if name == "LAYOUT" and len(rtl_codes) != len(lays):
            codes = [c for c in rtl_codes if lo <= c <= hi]
            terms.append("(" + " || ".join("%s == %d'd%d" % (field, bits, c) for c in codes) + ")")
        else:
            if lo > 0:
                terms.append("(%s >= CFG_%s_LO)" % (field, name))
            if hi < (1 << bits) - 1:
                terms.append("(%s <= CFG_%s_HI)" % (field, name))
        out.append("      CFG_%s: cfg_legal = %s;" % (name, " && ".join(terms) if terms else "1'b1"))
    out.append("      default: cfg_legal = 1'b0;")
    out.append("    endcase")
    out.append("  endfunction")
    out.append("")
    out.append("  // spec §5.4: the exception of a HWOnly lane whose walk ended `st` on a freed / live entry")
    out.append("  function automatic logic [ExcW-1:0] walk_exc(input logic [WalkStW-1:0] st, input logic freed);")
    out.append("    walk_exc = EXC_NONE;")
    out.append("    case (st)")
    for walk, live, freed in walk_exc:
        if live == freed:
            out.append("      WALK_%s: walk_exc = EXC_%s;" % (walk, live))
        else:
            out.append("      WALK_%s: walk_exc = freed ? EXC_%s : EXC_%s;" % (walk, freed, live))
    out.append("      default: walk_exc = EXC_NONE;")
    out.append("    endcase")
    out.append("  endfunction")
    return "\n".join(out) + "\n"


def first_difference(path, old, new):
    """One line naming where old (the file) and new (what would be written) first differ."""
    if old is None:
        return "%s: missing" % path
    a, b = old.splitlines(), new.splitlines()
    for i in range(max(len(a), len(b))):
        la = a[i] if i < len(a) else "<end of file>"
        lb = b[i] if i < len(b) else "<end of file>"
        if la != lb:
            return "%s:%d: is '%s', the .def files give '%s'" % (path, i + 1, la.strip(), lb.strip())
    return "%s: differs in line endings" % path


# ----- copies -------------------------------------------------------------------------------------------

NUM = r"(\d+'[sS]?[dDhHbB][0-9a-fA-F_]+|0[xX][0-9a-fA-F]+[uU]?|\d+[uU]?)"


def parse_num(s):
    s = s.replace("_", "").rstrip("uU")
    m = re.match(r"^\d*'[sS]?([dDhHbB])(.+)$", s)
    if m:
        return int(m.group(2), {"d": 10, "h": 16, "b": 2}[m.group(1).lower()])
    return int(s, 0)


def scan(text, prefix):
    """Every `<prefix>NAME = number` and `#define <prefix>NAME number` (the prefix not preceded by an
    identifier character) as a list of (NAME, value, line)."""
    found = []
    pat = re.compile(r"(?<![A-Za-z0-9_])" + re.escape(prefix) + r"([A-Z0-9_]+)(?:\s*=\s*|[ \t]+)" + NUM +
                     r"(?![A-Za-z0-9_'])")
    for m in pat.finditer(text):
        line = text.count("\n", 0, m.start()) + 1
        before = text[text.rfind("\n", 0, m.start()) + 1:m.start()]
        if "=" not in m.group(0) and not before.lstrip().startswith("#define"):
            continue
        found.append((m.group(1), parse_num(m.group(2)), line))
    return found


def def_family(parsed, fam):
    widths, encs, regs, walk_exc, lays = parsed
    if fam == "CFG":
        return {name: addr for name, addr, _, _, _, _ in regs}
    return {name: value for f, name, value in encs if f == fam}


def compare_copy(rel, text, prefix, want):
    """The copy's prefix family must be want (name -> value), name by name, both ways."""
    got = {}
    for name, value, line in scan(text, prefix):
        if name not in want:
            raise Mismatch("%s:%d: %s%s is not in %s" % (rel, line, prefix, name, ISA))
        if want[name] != value:
            raise Mismatch("%s:%d: %s%s = %d, %s says %d" % (rel, line, prefix, name, value, ISA, want[name]))
        got[name] = value
    missing = sorted(set(want) - set(got))
    if missing:
        raise Mismatch("%s: no %s%s (%s has it)" % (rel, prefix, missing[0], ISA))


def check_pkg(text, parsed, rel=PKG):
    """ga_pkg.sv includes the generated file and defines none of its names itself."""
    if not re.search(r'^\s*`include\s+"ga_isa\.svh"', text, re.M):
        raise Mismatch("%s: does not `include \"ga_isa.svh\"" % rel)
    for prefix in PKG_FORBIDDEN:
        hits = scan(text, prefix)
        if hits:
            name, value, line = hits[0]
            raise Mismatch("%s:%d: %s%s = %d is written by hand; it belongs in %s (generated into %s)"
                           % (rel, line, prefix, name, value, ISA, SVH))
    for wname in parsed[0]:
        m = re.search(r"localparam\s+int\s+%sW\s*=" % wname, text)
        if m:
            line = text.count("\n", 0, m.start()) + 1
            raise Mismatch("%s:%d: %sW is written by hand; it comes from %s" % (rel, line, wname, ISA))


def check_board(sv_rel, sv_text, sv_prefix, c_rel, c_text, c_prefix, counts):
    sv = {n: (v, l) for n, v, l in scan(sv_text, sv_prefix)}
    c = {n: (v, l) for n, v, l in scan(c_text, c_prefix) if n not in counts}
    if not sv or not c:
        raise Mismatch("%s / %s: no %s / %s codes found" % (sv_rel, c_rel, sv_prefix, c_prefix))
    for name in sorted(set(sv) | set(c)):
        if name not in c:
            raise Mismatch("%s:%d: %s%s has no %s%s in %s" % (sv_rel, sv[name][1], sv_prefix, name, c_prefix, name,
                                                             c_rel))
        if name not in sv:
            raise Mismatch("%s:%d: %s%s has no %s%s in %s" % (c_rel, c[name][1], c_prefix, name, sv_prefix, name,
                                                             sv_rel))
        if sv[name][0] != c[name][0]:
            raise Mismatch("%s:%d: %s%s = %d, but %s:%d: %s%s = %d" % (sv_rel, sv[name][1], sv_prefix, name,
                                                                      sv[name][0], c_rel, c[name][1], c_prefix, name,
                                                                      c[name][0]))


def check_copies(texts, parsed):
    """Every copy in texts (path -> text) agrees; raises Mismatch at the first disagreement."""
    for rel, prefix, fam in COPIES:
        compare_copy(rel, texts[rel], prefix, def_family(parsed, fam))
    for sv_rel, sv_prefix, c_rel, c_prefix, counts in BOARD:
        check_board(sv_rel, texts[sv_rel], sv_prefix, c_rel, texts[c_rel], c_prefix, counts)
    check_pkg(texts[PKG], parsed)


def tree_texts():
    rels = {ISA, LAYOUTS, SVH, PKG} | {c[0] for c in COPIES} | {b[0] for b in BOARD} | {b[2] for b in BOARD}
    return {rel: read_text(rel) for rel in rels}


# ----- self-test ------------------------------------------------------------------------------------------

def self_test():
    """Each mutant plants one disagreement in memory; every one must be caught. Returns the failures."""
    t = tree_texts()
    parsed = parse_def(t[ISA], t[LAYOUTS])
    good = generate(t[ISA], t[LAYOUTS])
    failures = []
    if good != t[SVH]:
        failures.append("the tree itself: %s" % first_difference(SVH, t[SVH], good))
    try:
        check_copies(t, parsed)
    except Mismatch as e:
        failures.append("the tree itself: %s" % e)

    def sub(text, pattern, repl, what):
        new, n = re.subn(pattern, repl, text, count=1, flags=re.M)
        if n != 1:
            failures.append("self-test cannot plant '%s' (the pattern no longer matches)" % what)
        return new

    # (what, mutated .def texts) -> the generated text must change, so --check fails on the committed file.
    def_mutants = [
        ("op code", sub(t[ISA], r"^GA_ENC\(OP, FLUSH, 5\)", "GA_ENC(OP, FLUSH, 6)", "op code"), t[LAYOUTS]),
        ("walk mapping", sub(t[ISA], r"^GA_WALK_EXC\(RANGE_ONLY, TAG_MISMATCH, USE_AFTER_FREE\)",
                             "GA_WALK_EXC(RANGE_ONLY, USE_AFTER_FREE, TAG_MISMATCH)", "walk mapping"), t[LAYOUTS]),
        ("register range", sub(t[ISA], r"^(GA_REG\(STEP_LIMIT, 3, 32, 65536, )1,", r"\g<1>2,", "register range"),
         t[LAYOUTS]),
        ("layout in the RTL", t[ISA], sub(t[LAYOUTS], r"^(GA_LAYOUT\(TABLE, 2, table, )1,", r"\g<1>0,",
                                          "layout in the RTL")),
    ]
    for what, isa, lay in def_mutants:
        try:
            if generate(isa, lay) == t[SVH]:
                failures.append("a changed %s in the .def leaves %s unchanged" % (what, SVH))
        except Mismatch as e:
            failures.append("a changed %s: %s" % (what, e))

    # Mutated copies: check_copies must raise.
    copy_mutants = [
        ("C copy", "tb/cosim/tb_common.h", r"TB_EV_FILL_DROP = 5", "TB_EV_FILL_DROP = 4"),
        ("C copy, missing name", "fpga/host/gab_proto.h", r"GAB_OP_CLEAR_HALT = 7", "GAB_OP_CLEARHALT = 7"),
        ("board command", "fpga/rtl/ga_board_core.sv", r"CMD_RESET     = 8'h05", "CMD_RESET     = 8'h06"),
        ("board status", "fpga/host/gab_proto.h", r"GAB_ST_MEM_RANGE = 4", "GAB_ST_MEM_RANGE = 6"),
        ("board status of protocol 2", "fpga/rtl/ga_board_core.sv", r"ST_BAD_SM    = 8'd5", "ST_BAD_SM    = 8'd6"),
        ("board sync byte", "fpga/host/gab_proto.h", r"GAB_SYNC_RSP 0x5Au", "GAB_SYNC_RSP 0x5Bu"),
        ("hand-written package value", PKG, r"^endpackage",
         "  localparam logic [2:0] EXC_NONE = 3'd0;\nendpackage"),
        ("hand-written package width", PKG, r"^endpackage", "  localparam int ExcW = 3;\nendpackage"),
        ("package without the include", PKG, r'^\s*`include "ga_isa\.svh"', "  // (include removed)"),
    ]
    for what, rel, pattern, repl in copy_mutants:
        mt = dict(t)
        mt[rel] = sub(t[rel], re.escape(pattern) if not pattern.startswith("^") else pattern, repl, what)
        try:
            check_copies(mt, parsed)
            failures.append("a %s mismatch in %s is not caught" % (what, rel))
        except Mismatch as e:
            if rel not in str(e):
                failures.append("a %s mismatch in %s is reported without naming it: %s" % (what, rel, e))

    # Malformed input is refused with its place.
    try:
        parse_def(t[ISA] + "GA_ENC(OP, BOGUS)\n", t[LAYOUTS])
        failures.append("a malformed .def line is accepted")
    except Mismatch as e:
        if not str(e).startswith(ISA + ":"):
            failures.append("a malformed .def line is refused without its place: %s" % e)
    return failures, len(def_mutants) + len(copy_mutants) + 1


def main(argv):
    if argv and argv[0] in ("-h", "--help"):
        sys.stdout.write(__doc__)
        return 0
    try:
        if len(argv) == 0:
            sys.stdout.write(generate(read_text(ISA), read_text(LAYOUTS)))
            return 0
        if len(argv) == 2 and argv[0] in ("--out", "--check"):
            text = generate(read_text(ISA), read_text(LAYOUTS))
            path = argv[1]
            try:
                old = open(path).read() if os.path.exists(path) else None
                if argv[0] == "--check":
                    if old != text:
                        die("%s; run `make isa-gen` (scripts/gen_isa.py --out %s)"
                            % (first_difference(path, old, text), path))
                    return 0
                if old != text:
                    with open(path + ".tmp", "w") as f:
                        f.write(text)
                    os.replace(path + ".tmp", path)
            except (OSError, UnicodeDecodeError) as e:
                die("%s: %s" % (path, getattr(e, "strerror", None) or e))
            return 0
        if argv == ["--check-copies"]:
            t = tree_texts()
            check_copies(t, parse_def(t[ISA], t[LAYOUTS]))
            return 0
        if argv == ["--self-test"]:
            failures, n = self_test()
            for f in failures:
                sys.stderr.write("gen_isa.py: self-test: %s\n" % f)
            if failures:
                return 1
            sys.stdout.write("gen_isa.py: self-test: %d planted disagreements, all caught\n" % n)
            return 0
    except Mismatch as e:
        die(str(e))
    die("usage: gen_isa.py [--out FILE | --check FILE | --check-copies | --self-test]", 2)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
