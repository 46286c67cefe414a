#!/usr/bin/env python3
"""Let a co-simulation shim skip the input-combinational region of the clock-edge evaluation.

    vl_skip_ico.py MDIR PREFIX

Run by mk/tb.mk between Verilator's C++ generation and its compilation, on the models built with the
pinned VL_SIM (Verilator 5.048, mk/rtl.mk) only. A shim drives one cycle as two evaluations: the
inputs change with the clock low (eval 1), then only clk_i rises (eval 2). Verilator runs the 'ico'
region (every block fed by a top-level input) at the start of every eval(), so eval 2 recomputed the
whole input logic from the inputs eval 1 had already settled: about a third of a 32-lane model's
instructions (tb/README.md, "Which Verilator").

The patch makes the first 'ico' pass of PREFIX's _eval() conditional on a flag the shim defines,
`bool <PREFIX>_ico_skip`, which the shim sets only for eval 2 and only when no input changed since
eval 1. That is exact when clk_i feeds no block of the 'ico' region (it only triggers the clocked
blocks): checked here, as is the generated code's shape. Anything unexpected fails the build with the
file and the reason; nothing is written then.
"""
import glob
import os
import re
import sys


def fail(msg):
    sys.stderr.write("vl_skip_ico.py: %s\n" % msg)
    sys.exit(1)


def functions(text):
    """(name, body) of every top-level function definition in generated Verilator C++."""
    out = []
    for m in re.finditer(r"^(?:VL_ATTR_COLD )?(?:void|bool) (\w+)\([^)]*\) \{$(.*?)^\}$", text, re.M | re.S):
        out.append((m.group(1), m.group(2)))
    return out


GOOD = """// Verilated -*- C++ -*-
#include "Vx__pch.h"

void Vx___024root___eval_triggers_vec__ico(Vx___024root* vlSelf) {
    vlSelfRef.__VicoTriggered[0U] = (IData)(vlSelfRef.__VicoFirstIteration);
}

void Vx___024root___eval(Vx___024root* vlSelf) {
    __VicoIterCount = 0U;
    vlSelfRef.__VicoFirstIteration = 1U;
    do {
    } while (vlSelfRef.__VicoPhaseResult);
}
"""


def selftest():
    """The patch on a small imitation of the generated code, and each refusal (make cosim-traces)."""
    import subprocess
    import tempfile

    def run(files):
        with tempfile.TemporaryDirectory() as d:
            for name, text in files.items():
                with open(os.path.join(d, name), "w") as fh:
                    fh.write(text)
            r = subprocess.run([sys.executable, __file__, d, "Vx"], capture_output=True, text=True)
            out = open(os.path.join(d, "Vx___024root__0.cpp")).read() if "Vx___024root__0.cpp" in files else ""
            return r.returncode, r.stderr, out

    rc, err, out = run({"Vx___024root__0.cpp": GOOD})
    assert rc == 0, err
    assert "extern bool Vx_ico_skip;" in out and "__VicoFirstIteration = !Vx_ico_skip;" in out, out
    cases = {
        "already patched": GOOD.replace("= 1U;", "= !Vx_ico_skip;"),
        "does not set __VicoFirstIteration = 1U once": GOOD.replace("FirstIteration = 1U;", "FirstIteration = 2U;"),
        "reads clk_i": GOOD.replace("(IData)(vlSelfRef.__VicoFirstIteration)", "(IData)(vlSelfRef.clk_i)"),
        "no Vx___024root___eval()": GOOD.replace("___eval(", "___evil("),
    }
    for why, text in cases.items():
        rc, err, out = run({"Vx___024root__0.cpp": text})
        assert rc == 1 and why in err and out == text, (why, rc, err)
    rc, err, _ = run({})
    assert rc == 1 and "no Vx___024root__*.cpp" in err, err
    print("vl_skip_ico.py: self-test passed (1 patch, 5 refusals)")
    return 0


def main(argv):
    if argv[1:] == ["--selftest"]:
        return selftest()
    if len(argv) != 3:
        fail("usage: vl_skip_ico.py MDIR PREFIX | --selftest")
    mdir, prefix = argv[1], argv[2]
    if not re.fullmatch(r"[A-Za-z_]\w*", prefix):
        fail("PREFIX '%s' is not a C++ identifier" % prefix)
    files = sorted(f for f in glob.glob(os.path.join(mdir, prefix + "___024root__*.cpp"))
                   if "__Slow" not in f and "__DepSet" not in f)
    if not files:
        fail("%s: no %s___024root__*.cpp (was the model generated?)" % (mdir, prefix))
    first = "    vlSelfRef.__VicoFirstIteration = 1U;\n"
    flag = prefix + "_ico_skip"
    eval_name = prefix + "___024root___eval"
    target, ico_funcs = None, 0
    for f in files:
        text = open(f).read()
        if flag in text:
            fail("%s: already patched" % f)
        for name, body in functions(text):
            if "_ico" in name:
                ico_funcs += 1
                if re.search(r"\bclk_i\b", body):
                    fail("%s: %s reads clk_i: the input region depends on the clock, skipping it "
                         "at the clock edge would not be exact" % (f, name))
            if name == eval_name:
                if target is not None:
                    fail("%s: a second %s()" % (f, eval_name))
                if body.count(first.strip()) != 1:
                    fail("%s: %s() does not set __VicoFirstIteration = 1U once (a Verilator other "
                         "than the pinned 5.048?)" % (f, eval_name))
                target = f
    if target is None:
        fail("%s: no %s() in %s" % (mdir, eval_name, ", ".join(files)))
    if ico_funcs == 0:
        fail("%s: no input-region function (*_ico*) found: unexpected generated code" % mdir)
    text = open(target).read()
    inc = '#include "%s__pch.h"\n' % prefix
    if text.count(inc) != 1 or text.count(first) != 1:
        fail("%s: expected one '%s' and one '%s'" % (target, inc.strip(), first.strip()))
    text = text.replace(inc, inc + "// vl_skip_ico.py: defined by the shim (tb/shim/*_shim.cpp)\n"
                        "extern bool %s;\n" % flag)
    text = text.replace(first, "    vlSelfRef.__VicoFirstIteration = !%s;\n" % flag)
    tmp = target + ".tmp"
    with open(tmp, "w") as fh:
        fh.write(text)
    os.replace(tmp, target)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
