#!/usr/bin/env bash
# make gatesim: run tb/'s lockstep harness on each synthesized netlist, every layout, and summarise.
#   gatesim.sh --build DIR --ops N --seed S NETLIST...     (NETLIST: <kind>_<cfg>, e.g. ice40_t7_m8_l1)
set -u
build=build ops=2500 seed=1
nets=()
while [ $# -gt 0 ]; do
    case "$1" in
        --build) build=$2; shift 2 ;;
        --ops) ops=$2; shift 2 ;;
        --seed) seed=$2; shift 2 ;;
        -*) echo "gatesim.sh: unknown option $1" >&2; exit 2 ;;
        *) nets+=("$1"); shift ;;
    esac
done
fail=0
for n in "${nets[@]}"; do
    bin="$build/gatesim/$n/ga_cosim"
    cells=$(awk '/Number of cells:/ {c=$4} END {print c}' "$build/gatesim/$n.stat" 2>/dev/null)
    i=0
    for layout in list bst table; do
        i=$((i + 1))
        log="$build/gatesim/$n/$layout.log"
        "$bin" --seed $((seed * 100 + i)) --layout "$layout" --ops "$ops" > "$log" 2>&1
        rc=$?
        res=$(grep -E '^RESULT' "$log" | tail -1)
        mm=$(sed -n 's/^ *mismatches \([0-9]*\).*/\1/p' "$log" | tail -1)
        perf=$(sed -n 's/^ *cycles \([0-9]*\), .* \([0-9.]*\) Mcycles\/s.*/\1 cycles at \2 M cycles\/s/p' "$log" | tail -1)
        printf 'gatesim %-18s %-5s %s ops: %s (%s mismatches; %s; %s cells)\n' "$n" "$layout" "$ops" \
            "${res:-RESULT FAIL (exit $rc)}" "${mm:-?}" "${perf:-?}" "${cells:-?}"
        if [ $rc -ne 0 ] || ! grep -q '^RESULT PASS' "$log"; then
            fail=1
            grep -E 'MISMATCH|mismatch' "$log" | head -5 | sed 's/^/    /'
        fi
    done
done
if [ $fail -ne 0 ]; then echo "gatesim: FAILED"; exit 1; fi
echo "gatesim: every netlist matched the golden model"
