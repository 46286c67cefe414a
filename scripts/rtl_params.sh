#!/usr/bin/env bash
# rtl_params.sh — every RTL block (rtl/ and the board's fpga/rtl/) refuses illegal parameter values at
# elaboration, in all three tools.
#
# Each block states its legal parameter ranges in a `ParamsBad` check (an elaboration-time $error in a
# generate block for Verilator and Yosys; a $fatal at time 0 under Icarus 11, which has no
# elaboration-time tasks). This script elaborates every block with values just outside each range and
# requires, for each case, that Verilator's lint, Yosys's `hierarchy` and Icarus (compile, then vvp)
# all fail with the message of the block that owns the range. A legal control per block must pass
# all three, so the harness itself can tell a refusal from a broken tool run.
#
# Usage: scripts/rtl_params.sh [--jobs N] [--out DIR] [--list]
#   --list   print the cases and exit
# Tools: VERILATOR, YOSYS, IVERILOG, VVP (default: on the PATH). Exit 0 when every case behaves.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2

jobs=2
out=build/rtl/params
list=0
while [ $# -gt 0 ]; do
    case $1 in
        --jobs) jobs=${2:?--jobs needs a number}; shift 2 ;;
        --out) out=${2:?--out needs a directory}; shift 2 ;;
        --list) list=1; shift ;;
        -h|--help) sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "rtl_params.sh: unknown option '$1' (see --help)" >&2; exit 2 ;;
    esac
done

# The cases: "expect top param=value[,param=value...] owner". expect is "bad" (every tool must
# refuse with the message that starts "owner:") or "ok" (every tool must accept; owner unused).
# The values sit just outside each range a block states (and in a parent, to show the range is
# enforced where the parameter is used); the other parameters of ga_mlu's illegal cases are set small
# (1 lane, 2 MLB entries) so that each case elaborates quickly, and the legal controls keep the
# sizes small too: the large legal corners (64 MLB entries, 32 lanes) take Verilator's lint 40 to
# 50 s and are elaborated by `make lint`'s matrix (RTL_LINT_CFGS, mk/rtl.mk) already; the board
# memory's control is at LinesW 4, since Yosys takes about 30 s over LinesW 11's 2 048 lines.
cases=(
    "ok  ga_mlu       TagBits=16,MlbEntries=2,Lanes=1,IdW=16,RegLookup=1,RegCheck=3,EndForm=2,ReadForm=2,FillPort=4,HwOnly=0,HasIndex=0 -"
    "bad ga_mlu       TagBits=8,Lanes=1,MlbEntries=2 ga_mlu"
    "bad ga_mlu       MlbEntries=0,Lanes=1 ga_mlu"
    "bad ga_mlu       MlbEntries=65,Lanes=1 ga_mlu"
    "bad ga_mlu       Lanes=33,MlbEntries=2 ga_mlu"
    "bad ga_mlu       IdW=17,Lanes=1,MlbEntries=2 ga_mlu"
    "bad ga_mlu       RegCheck=4,RegLookup=1,Lanes=1,MlbEntries=2 ga_mlu"
    "bad ga_mlu       RegCheck=1,RegLookup=0,Lanes=1,MlbEntries=2 ga_mlu"
    "bad ga_mlu       RegLookup=2,Lanes=1,MlbEntries=2 ga_mlu"
    "bad ga_mlu       EndForm=3,Lanes=1,MlbEntries=2 ga_mlu"
    "bad ga_mlu       ReadForm=3,RegLookup=1,Lanes=1,MlbEntries=2 ga_mlu"
    "bad ga_mlu       ReadForm=2,RegLookup=0,Lanes=1,MlbEntries=2 ga_mlu"
    "bad ga_mlu       FillPort=5,Lanes=1,MlbEntries=2 ga_mlu"
    "bad ga_mlu       HwOnly=2,Lanes=1,MlbEntries=2 ga_mlu"
    "bad ga_mlu       HasIndex=2,Lanes=1,MlbEntries=2 ga_mlu"
    "ok  ga_mlu       Lanes=2,MlbEntries=2,RegLookup=1,RegCheck=2,CheckLanes=1 -"
    "bad ga_mlu       Lanes=2,MlbEntries=2,RegLookup=1,RegCheck=1,CheckLanes=1 ga_mlu"
    "bad ga_mlu       Lanes=3,MlbEntries=2,RegLookup=1,RegCheck=2,CheckLanes=1 ga_mlu"
    "bad ga_mlu       Lanes=2,MlbEntries=2,RegLookup=1,RegCheck=2,CheckLanes=2 ga_mlu"
    "ok  ga_mlb       TagBits=16,Entries=2,EndForm=2,AgeForm=1,ReadForm=2,FillPort=4 -"
    "bad ga_mlb       TagBits=15 ga_mlb"
    "bad ga_mlb       Entries=65 ga_mlb"
    "bad ga_mlb       EndForm=3 ga_mlb"
    "bad ga_mlb       AgeForm=2 ga_mlb"
    "bad ga_mlb       ReadForm=3 ga_mlb"
    "bad ga_mlb       FillPort=5 ga_mlb"
    "ok  ga_check     TagBits=16,Lanes=32,EndForm=1,RegStages=3 -"
    "bad ga_check     TagBits=8 ga_check"
    "bad ga_check     Lanes=33 ga_check"
    "bad ga_check     EndForm=2 ga_check"
    "bad ga_check     RegStages=4 ga_check"
    "ok  ga_check     TagBits=7,Lanes=4,RegStages=2,CheckLanes=2 -"
    "bad ga_check     Lanes=4,RegStages=1,CheckLanes=2 ga_check"
    "bad ga_check     Lanes=6,RegStages=2,CheckLanes=4 ga_check"
    "bad ga_check     Lanes=6,RegStages=2,CheckLanes=2 ga_check"
    "ok  ga_walker    TagBits=16,EndForm=1,HasIndex=0 -"
    "bad ga_walker    TagBits=8 ga_walker"
    "bad ga_walker    EndForm=2 ga_walker"
    "bad ga_walker    HasIndex=2 ga_walker"
    "ok  ga_mlu_cfg   HwOnly=0,HasIndex=0 -"
    "bad ga_mlu_cfg   HwOnly=2 ga_mlu_cfg"
    "bad ga_mlu_cfg   HasIndex=2 ga_mlu_cfg"
    "ok  ga_mlu_hwseq TagBits=16,Lanes=32 -"
    "bad ga_mlu_hwseq TagBits=8 ga_mlu_hwseq"
    "bad ga_mlu_hwseq Lanes=33 ga_mlu_hwseq"
    "ok  ga_mlu_rsp   IdW=16,Lanes=32,LaneLoad=1 -"
    "bad ga_mlu_rsp   IdW=17 ga_mlu_rsp"
    "bad ga_mlu_rsp   Lanes=33 ga_mlu_rsp"
    "bad ga_mlu_rsp   LaneLoad=2 ga_mlu_rsp"
    "ok  ga_first_one N=64 -"
    "bad ga_first_one N=0 ga_first_one"
    "ok  ga_arb       N=8,PayW=1 -"
    "bad ga_arb       N=9 ga_arb"
    "bad ga_arb       PayW=0 ga_arb"
    "ok  ga_system    NumSms=8,IdW=15,MlbEntries=2,Lanes=1 -"
    "bad ga_system    NumSms=9,MlbEntries=2,Lanes=1 ga_system"
    "bad ga_system    IdW=16,MlbEntries=2,Lanes=1 ga_system"
    "bad ga_system    ReqSlice=2,MlbEntries=2,Lanes=1 ga_system"
    "ok  ga_req_slice PayW=1 -"
    "bad ga_req_slice PayW=0 ga_req_slice"
    "bad ga_system    MlbEntries=0,Lanes=1 ga_mlu"
    "ok  ga_board_core MlbEntries=2,CntW=32,MemLinesW=4,VaKeep=57,MdKeep=16,MemRegOut=1 -"
    "bad ga_board_core Lanes=33 ga_board_core"
    "bad ga_board_core CntW=7 ga_board_core"
    "bad ga_board_core MemLinesW=9 ga_board_core"
    "bad ga_board_core VaKeep=58 ga_board_core"
    "bad ga_board_core MdKeep=33 ga_board_core"
    "bad ga_board_core NumSms=9 ga_board_core"
    "bad ga_board_core MemRegOut=2 ga_board_core"
    "ok  ga_board_core MlbEntries=2,ReqSlice=1 -"
    "bad ga_board_core ReqSlice=2 ga_board_core"
    "bad ga_board_core MlbEntries=2,HwOnlyMode=0,EndForm=3 ga_mlu"
    "ok  ga_uart_rx   ClksPerBit=4,BreakBits=255 -"
    "bad ga_uart_rx   ClksPerBit=3 ga_uart_rx"
    "bad ga_uart_rx   BreakBits=11 ga_uart_rx"
    "ok  ga_uart_tx   ClksPerBit=65535 -"
    "bad ga_uart_tx   ClksPerBit=65536 ga_uart_tx"
    "ok  ga_board_mem LinesW=4 -"
    "bad ga_board_mem LinesW=3 ga_board_mem"
)

if [ "$list" = 1 ]; then
    printf '%s\n' "${cases[@]}"
    exit 0
fi

VERILATOR=${VERILATOR:-verilator}
YOSYS=${YOSYS:-yosys}
IVERILOG=${IVERILOG:-iverilog}
VVP=${VVP:-vvp}
for t in "$VERILATOR" "$YOSYS" "$IVERILOG" "$VVP"; do
    command -v "$t" >/dev/null || { echo "rtl_params.sh: $t not found (make deps)" >&2; exit 2; }
done
mkdir -p "$out" || exit 2

# The sources a top needs: ga_mlu, ga_system and the board core their file lists, a block the
# package, ga_first_one (which ga_mlb and ga_check instantiate) and its own file, so the small cases
# parse little.
top_src() {
    case $1 in
        ga_mlu) cat rtl/ga_mlu.f ;;
        ga_system) cat rtl/ga_mlu.f rtl/ga_system.f ;;
        ga_board_core) cat rtl/ga_mlu.f rtl/ga_system.f
                       printf 'fpga/rtl/%s.sv\n' ga_uart_rx ga_uart_tx ga_board_mem ga_board_core ;;
        ga_uart_rx|ga_uart_tx|ga_board_mem) printf '%s\n' rtl/ga_pkg.sv "fpga/rtl/$1.sv" ;;
        ga_first_one) printf '%s\n' rtl/ga_pkg.sv rtl/ga_first_one.sv ;;
        *) printf '%s\n' rtl/ga_pkg.sv rtl/ga_first_one.sv "rtl/$1.sv" ;;
    esac
}

# The verdict on one tool's run (Verilator's, Yosys's): $1 tool, $2 its exit status, $3 its log, $4 the
# owner's message as a grep pattern; appends to the caller's why (bash's dynamic scope: run_case's
# locals expect, owner, why).
judge() {
    if [ "$expect" = ok ]; then
        [ "$2" -eq 0 ] || why+=("$1 refused it (exit $2)")
    elif [ "$2" -eq 0 ]; then
        why+=("$1 accepted it")
    elif ! grep -q "$4" "$3"; then
        why+=("$1 failed without '$owner:'s message")
    fi
}

# One case: the three tools' logs under $out/<n>.{vl,ys,iv}.log and a verdict line in $out/<n>.res.
run_case() {
    local n=$1 expect=$2 top=$3 pars=$4 owner=$5
    local gs=() ys="" ps=() p
    for p in ${pars//,/ }; do
        gs+=("-G$p")
        ys="$ys -set ${p%%=*} ${p#*=}"
        ps+=("-P$top.$p")
    done
    local base="$out/$n" why=() rc src
    mapfile -t src < <(top_src "$top")
    "$VERILATOR" --lint-only -Wall --assert -Irtl rtl/verilator_waiver.vlt "${src[@]}" \
        --top-module "$top" "${gs[@]}" >"$base.vl.log" 2>&1
    judge verilator $? "$base.vl.log" "%Warning-USERERROR: .*: $owner: "
    "$YOSYS" -q -p "read_verilog -sv ${src[*]}; chparam$ys $top; hierarchy -check -top $top" \
        >"$base.ys.log" 2>&1
    judge yosys $? "$base.ys.log" "ERROR: $owner: "
    if "$IVERILOG" -g2012 -Irtl -o "$base.vvp" -s "$top" "${ps[@]}" "${src[@]}" >"$base.iv.log" 2>&1; then
        "$VVP" -n "$base.vvp" >>"$base.iv.log" 2>&1
        rc=$?
    else
        rc=$?
        echo "(iverilog failed to compile)" >>"$base.iv.log"
    fi
    # Icarus: a compiled design must stop at time 0 with the owner's $fatal; a width of zero is
    # refused by iverilog itself before that ("... must be greater than zero", naming the parameter
    # expression), which is a refusal too.
    if [ "$expect" = ok ]; then
        [ $rc -eq 0 ] && ! grep -q "FATAL" "$base.iv.log" || why+=("icarus refused it (exit $rc)")
    elif [ $rc -eq 0 ]; then
        why+=("icarus accepted it")
    elif ! grep -q "FATAL: .*: $owner: " "$base.iv.log" &&
         ! { grep -q "^(iverilog failed to compile)" "$base.iv.log" &&
             grep -q "greater than zero" "$base.iv.log"; }; then
        why+=("icarus failed without '$owner:'s message")
    fi
    rm -f "$base.vvp"
    if [ ${#why[@]} -eq 0 ]; then
        if [ "$expect" = ok ]; then
            echo "ok    $top $pars: legal, accepted by verilator, yosys and icarus" >"$base.res"
        else
            if grep -q "^(iverilog failed to compile)" "$base.iv.log"; then
                echo "ok    $top $pars: refused by verilator and yosys with $owner's message, by icarus at compile (a zero width)" >"$base.res"
            else
                echo "ok    $top $pars: refused by verilator, yosys and icarus with $owner's message" >"$base.res"
            fi
        fi
    else
        local all="" w
        for w in "${why[@]}"; do all="${all:+$all; }$w"; done
        echo "FAIL  $top $pars: $all (logs: $base.{vl,ys,iv}.log)" >"$base.res"
    fi
}
export -f run_case top_src judge
export VERILATOR YOSYS IVERILOG VVP out

i=0
for c in "${cases[@]}"; do
    i=$((i + 1))
    echo "$i $c"
done | xargs -P "$jobs" -L 1 bash -c 'run_case "$@"' _

bad=0 n=0
for ((k = 1; k <= ${#cases[@]}; k++)); do
    n=$((n + 1))
    if [ -f "$out/$k.res" ]; then
        cat "$out/$k.res"
        grep -q '^FAIL' "$out/$k.res" && bad=$((bad + 1))
    else
        echo "FAIL  case $k: no verdict (${cases[$((k - 1))]})"
        bad=$((bad + 1))
    fi
done
if [ $bad -ne 0 ]; then
    echo "rtl-params: $bad of $n cases FAILED"
    exit 1
fi
echo "rtl-params: all $n cases behave (every illegal value refused by verilator, yosys and icarus)"
