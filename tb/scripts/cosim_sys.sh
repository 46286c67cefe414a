#!/usr/bin/env bash
# Run the ga_system lockstep co-simulation (tb/sys/tb_sys.c) over configurations x layouts, TB_JOBS at
# a time, and summarise (make cosim-sys, cosim-sys-ci, cosim-sys-quick).
#
#   cosim_sys.sh --jobs N --ops N [--ops-wide N] [--min-lsu N] --seed S --build DIR --out DIR CFG...
#
# --ops is the number of random LSU requests per run of a 1-lane configuration (shared by its SMs),
# --ops-wide per run of a multi-lane one. Each run gets its own seed (derived from S) and one of three
# port profiles: default random back-pressure; no stalls at all (the arbiter and the runtime port at
# full rate); slow, stalling memory and LSUs with frequent runtime commands. Logs: OUT/<cfg>_<layout>.log.
set -u
jobs=2 ops=10000 ops_wide="" min_lsu=0 seed=1 build=build out=""
cfgs=()
while [ $# -gt 0 ]; do
    case "$1" in
        --jobs) jobs=$2; shift 2 ;;
        --ops) ops=$2; shift 2 ;;
        --ops-wide) ops_wide=$2; shift 2 ;;
        --min-lsu) min_lsu=$2; shift 2 ;;
        --seed) seed=$2; shift 2 ;;
        --build) build=$2; shift 2 ;;
        --out) out=$2; shift 2 ;;
        -*) echo "cosim_sys.sh: unknown option $1" >&2; exit 2 ;;
        *) cfgs+=("$1"); shift ;;
    esac
done
[ ${#cfgs[@]} -gt 0 ] || { echo "cosim_sys.sh: no configurations" >&2; exit 2; }
[ -n "$out" ] || out="$build/cosim/sys"
[ -n "$ops_wide" ] || ops_wide=$ops
rm -rf "$out"
mkdir -p "$out"

joblist="$out/jobs.txt"
: >"$joblist"
i=0
layouts=$(bash "$(dirname "$0")/../../scripts/layouts.sh" --rtl)
for c in "${cfgs[@]}"; do
    for l in $layouts; do
        s=$((seed * 1000 + 500 + i))
        case $((i % 3)) in
            0) prof="" ;;
            1) prof="--lat 0:0 --slow 0:0 --mem-stall 0 --mem-hold 0 --rsp-stall 0 --req-gap 0 --orc-stall 0" ;;
            2) prof="--lat 1:8 --slow 10:120 --mem-stall 45 --mem-hold 40 --rsp-stall 45 --req-gap 30 --orc-stall 40 --rt-ppm 20000" ;;
        esac
        n=$ops
        lanes=${c#*_l}; lanes=${lanes%%_*}
        [ "$lanes" != 1 ] && n=$ops_wide
        echo "$c $l $s $n${prof:+ $prof}" >>"$joblist"
        i=$((i + 1))
    done
done

run_one() {
    local c=$1 l=$2 s=$3 n=$4
    shift 4
    # shellcheck disable=SC2086
    "$BUILD/cosim/sys-$c/ga_syscosim" --seed "$s" --layout "$l" --ops "$n" "$@" >"$OUT/${c}_${l}.log" 2>&1
    echo $? >"$OUT/${c}_${l}.rc"
}
export -f run_one
export OUT="$out" BUILD="$build"

t0=$(date +%s)
xargs -P "$jobs" -L 1 bash -c 'run_one "$@"' _ <"$joblist"
t1=$(date +%s)

total=0 lsu_total=0 bad=0
printf '%-18s %-6s %10s %10s %10s %10s %8s  %s\n' config layout requests lsu acks cycles mismatch result
while read -r c l s _; do
    log="$out/${c}_${l}.log"
    rc=$(cat "$out/${c}_${l}.rc" 2>/dev/null || echo 99)
    n=$(sed -n 's/^  MLU requests \([0-9]*\) .*/\1/p' "$log" | tail -1)
    lsu=$(sed -n 's/^  MLU requests [0-9]* (LSU \([0-9]*\),.*/\1/p' "$log" | tail -1)
    ak=$(sed -n 's/.*acknowledged \([0-9]*\),.*/\1/p' "$log" | tail -1)
    cy=$(sed -n 's/^  cycles \([0-9]*\),.*/\1/p' "$log" | tail -1)
    mm=$(sed -n 's/^  mismatches \([0-9]*\)/\1/p' "$log" | tail -1)
    res=PASS
    [ "$rc" = 0 ] || { res="FAIL(rc=$rc)"; bad=$((bad + 1)); }
    total=$((total + ${n:-0}))
    lsu_total=$((lsu_total + ${lsu:-0}))
    printf '%-18s %-6s %10s %10s %10s %10s %8s  %s\n' "$c" "$l" "${n:-?}" "${lsu:-?}" "${ak:-?}" "${cy:-?}" "${mm:-?}" "$res"
    if [ "$rc" != 0 ]; then grep -m 20 '^MISMATCH\|^RESULT\|^RERUN\|%Error' "$log"; fi
done <"$joblist"
echo "cosim-sys: $total MLU requests in lockstep ($lsu_total random LSU requests) over $i runs, $((t1 - t0)) s wall, $jobs parallel jobs; failed runs: $bad"
[ $bad -eq 0 ] || { echo "cosim-sys: FAIL"; exit 1; }
if [ "$lsu_total" -lt "$min_lsu" ]; then
    echo "cosim-sys: FAIL: $lsu_total random LSU requests, fewer than the $min_lsu asked for (--min-lsu)"
    exit 1
fi
echo "cosim-sys: PASS (0 mismatches)"
