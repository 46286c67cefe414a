#!/usr/bin/env bash
# Run the lockstep co-simulation over configurations x layouts, TB_JOBS at a time, and summarise.
#
#   cosim.sh --jobs N --ops N [--ops-wide N] --seed S --build DIR --out DIR CFG...
#
# --ops is the number of random requests per run of a 1-lane configuration, --ops-wide per run of a
# multi-lane one (a 32-lane request costs about 15 times the simulation time of a 1-lane one, so the
# split keeps the wall time of `make cosim` near 8 minutes on two cores; the default is --ops).
# Each (configuration, layout) run gets its own seed (derived from S) and one of three port
# profiles (default random back-pressure; back-to-back with no stalls; slow and stalling memory),
# and a quarter of them place the heap at the top of the VA space. Logs: OUT/<cfg>_<layout>.log.
# On a failure the first failing run is re-run with the FST-traced build for a window of requests
# around its first mismatch: BUILD/cosim/mismatch_<seed>_<op>.fst (and BUILD/cosim/last.fst).
set -u
jobs=2 ops=10000 ops_wide="" seed=1 build=build out=""
cfgs=()
while [ $# -gt 0 ]; do
    case "$1" in
        --jobs) jobs=$2; shift 2 ;;
        --ops) ops=$2; shift 2 ;;
        --ops-wide) ops_wide=$2; shift 2 ;;
        --seed) seed=$2; shift 2 ;;
        --build) build=$2; shift 2 ;;
        --out) out=$2; shift 2 ;;
        -*) echo "cosim.sh: unknown option $1" >&2; exit 2 ;;
        *) cfgs+=("$1"); shift ;;
    esac
done
[ ${#cfgs[@]} -gt 0 ] || { echo "cosim.sh: no configurations" >&2; exit 2; }
[ -n "$out" ] || out="$build/cosim/run"
[ -n "$ops_wide" ] || ops_wide=$ops
root=$(cd "$(dirname "$0")/../.." && pwd)
model_sum() { cat "$root"/cmodel/*.c "$root"/cmodel/*.h "$root"/cmodel/*.def "$root"/rtl/*.sv "$root"/rtl/*.svh "$root"/rtl/*.f 2>/dev/null | cksum; }
sum0=$(model_sum)
rm -rf "$out"
mkdir -p "$out"

layouts=($(bash "$root/scripts/layouts.sh" --rtl))
joblist="$out/jobs.txt"
: >"$joblist"
i=0
for c in "${cfgs[@]}"; do
    for l in "${layouts[@]}"; do
        s=$((seed * 1000 + i))
        case $((i % 3)) in
            0) prof="" ;;
            1) prof="--lat 0:0 --slow 0:0 --mem-stall 0 --mem-hold 0 --rsp-stall 0 --req-gap 0 --orc-stall 0 --orc-lat 0" ;;
            2) prof="--lat 1:8 --slow 10:120 --mem-stall 45 --mem-hold 40 --rsp-stall 45 --req-gap 30 --orc-stall 40" ;;
        esac
        [ $((i % 4)) -eq 3 ] && prof="${prof:+$prof }--top-heap"
        n=$ops
        lanes=${c#*_l}; lanes=${lanes%%_*}
        [ "$lanes" != 1 ] && n=$ops_wide
        echo "$c $l $s $n${prof:+ $prof}" >>"$joblist"
        i=$((i + 1))
    done
done

run_one() {
    # $1 cfg, $2 layout, $3 seed, $4 requests, rest: profile options
    local c=$1 l=$2 s=$3 n=$4
    shift 4
    local log="$OUT/${c}_${l}.log"
    # shellcheck disable=SC2086
    "$BUILD/cosim/$c/ga_cosim" --seed "$s" --layout "$l" --ops "$n" --label "$*" "$@" ${COSIM_EXTRA:-} >"$log" 2>&1
    echo $? >"$OUT/${c}_${l}.rc"
}
export -f run_one
export OUT="$out" BUILD="$build"

t0=$(date +%s)
xargs -P "$jobs" -L 1 bash -c 'run_one "$@"' _ <"$joblist"
t1=$(date +%s)

total=0 bad=0 failed=()
printf '%-14s %-6s %10s %10s %9s %8s  %s\n' config layout requests cycles "ops/s" mismatch result
while read -r c l s _ _; do
    log="$out/${c}_${l}.log"
    rc=$(cat "$out/${c}_${l}.rc" 2>/dev/null || echo 99)
    n=$(sed -n 's/^  ops \([0-9]*\):.*/\1/p' "$log" | tail -1)
    cy=$(sed -n 's/^  cycles \([0-9]*\),.*/\1/p' "$log" | tail -1)
    rate=$(sed -n 's/^  cycles [0-9]*, [0-9.]* s, \([0-9]*\) ops\/s.*/\1/p' "$log" | tail -1)
    mm=$(sed -n 's/^  mismatches \([0-9]*\)/\1/p' "$log" | tail -1)
    res=PASS
    [ "$rc" = 0 ] || { res="FAIL(rc=$rc)"; bad=$((bad + 1)); failed+=("$c $l $s"); }
    total=$((total + ${n:-0}))
    printf '%-14s %-6s %10s %10s %9s %8s  %s\n' "$c" "$l" "${n:-?}" "${cy:-?}" "${rate:-?}" "${mm:-?}" "$res"
done <"$joblist"
echo "cosim: $total requests in lockstep over $i runs, $((t1 - t0)) s wall, $jobs parallel jobs; failed runs: $bad"
if [ "$(model_sum)" != "$sum0" ]; then
    echo "cosim: WARNING: cmodel/ or rtl/ changed while the runs were going on; results may mix versions"
fi

if [ $bad -ne 0 ]; then
    for f in "${failed[@]}"; do
        read -r c l s <<<"$f"
        echo "---- $c $l (seed $s): $out/${c}_${l}.log"
        grep -m 3 'Assertion failed' "$out/${c}_${l}.log"
        grep -m 40 '^MISMATCH\|^RESULT\|^RERUN\|%Error\|Assertion' "$out/${c}_${l}.log"
    done
    # A waveform around the first mismatch of the first failing run.
    read -r c l s <<<"${failed[0]}"
    log="$out/${c}_${l}.log"
    op=$(sed -n 's/^RESULT FAIL.*first at op \([0-9]*\).*/\1/p' "$log" | head -1)
    n=$(grep "^$c $l $s " "$joblist" | cut -d' ' -f4)
    prof=$(grep "^$c $l $s " "$joblist" | cut -d' ' -f5-)
    if [ -n "$op" ] && [ "${COSIM_NO_WAVE:-0}" != 1 ]; then
        from=$((op > 40 ? op - 40 : 0)) to=$((op + 5))
        fst="$build/cosim/mismatch_${s}_${op}.fst"
        echo "cosim: re-running $c $l seed $s traced, requests $from..$to -> $fst"
        if make --no-print-directory -s -C "$root" BUILD="$build" "$build/cosim/$c-fst/ga_cosim" >/dev/null; then
            # shellcheck disable=SC2086
            "$build/cosim/$c-fst/ga_cosim" --seed "$s" --layout "$l" --ops "$n" $prof --fst "$fst" \
                --fst-window "$from:$to" --stop-after $((to + 1)) --max-print 5 >"$out/rerun.log" 2>&1
            cp -f "$fst" "$build/cosim/last.fst" 2>/dev/null && echo "cosim: waveform $fst (make wave)"
        fi
    fi
    echo "cosim: FAIL"
    exit 1
fi
echo "cosim: PASS (0 mismatches)"
