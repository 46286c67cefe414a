#!/usr/bin/env bash
# Line / branch / toggle coverage of rtl/ (Verilator --coverage) from a shortened random run of
# every configuration and layout plus the trace files, merged.
#   coverage.sh --build DIR --ops N [--ops-wide N] --jobs N CFG...
# Output in BUILD/coverage/: one .dat per run, merged.dat (verilator_coverage --write),
# annotated/ (verilator_coverage --annotate, sources with per-line counts), summary.txt,
# uncovered.txt (line and branch points never hit, file:line), uncovered_toggle.txt.
set -u
build=build ops=30000 ops_wide="" jobs=2
cfgs=()
while [ $# -gt 0 ]; do
    case "$1" in
        --build) build=$2; shift 2 ;;
        --ops) ops=$2; shift 2 ;;
        --ops-wide) ops_wide=$2; shift 2 ;;
        --jobs) jobs=$2; shift 2 ;;
        *) cfgs+=("$1"); shift ;;
    esac
done
[ -n "$ops_wide" ] || ops_wide=$((ops / 8))
root=$(cd "$(dirname "$0")/../.." && pwd)
out="$build/coverage"
rm -rf "$out"
mkdir -p "$out"
list="$out/jobs.txt"
: >"$list"
i=0
for c in "${cfgs[@]}"; do
    n=$ops
    [ "${c##*_l}" != 1 ] && n=$ops_wide
    for l in $(bash "$root/scripts/layouts.sh" --rtl); do
        echo "$c $l $((700 + i)) $n" >>"$list"
        i=$((i + 1))
    done
done
cov_one() {
    local c=$1 l=$2 s=$3 n=$4 rc=0
    # random stimulus; --no-assert: coverage is about stimulus, assertions are checked by make cosim
    "$BUILD/cosim/$c-cov/ga_cosim" --seed "$s" --layout "$l" --ops "$n" --quiet --no-assert \
        --coverage "$OUT/${c}_${l}.dat" >"$OUT/${c}_${l}.log" 2>&1 || rc=$?
    local k=0
    for t in "$ROOT"/tb/traces/*.trace; do
        "$BUILD/cosim/$c-cov/ga_cosim" --trace "$t" --layout "$l" --quiet --no-assert \
            --coverage "$OUT/${c}_${l}_t$k.dat" >>"$OUT/${c}_${l}.log" 2>&1
        k=$((k + 1))
    done
    [ $rc -eq 0 ] || echo "coverage: $c $l: the run reported mismatches (see $OUT/${c}_${l}.log)"
}
export -f cov_one
export OUT="$out" BUILD="$build" ROOT="$root"
t0=$(date +%s)
xargs -P "$jobs" -L 1 bash -c 'cov_one "$@"' _ <"$list"
t1=$(date +%s)
dats=$(ls "$out"/*.dat)
# shellcheck disable=SC2086
verilator_coverage --write "$out/merged.dat" $dats >/dev/null
verilator_coverage --annotate "$out/annotated" --annotate-min 1 "$out/merged.dat" >"$out/annotate.log" 2>&1
# shellcheck disable=SC2086
python3 "$root/tb/scripts/covsum.py" "$out" $dats
echo "coverage: $i runs in $((t1 - t0)) s; uncovered points: $out/uncovered.txt; annotated sources: $out/annotated/"
