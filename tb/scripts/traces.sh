#!/usr/bin/env bash
# Replay every tb/traces/*.trace on every configuration and layout (a trace that needs more lanes
# than a configuration has is skipped there), then check that every tb/traces/bad/*.trace is refused
# with exit status 2 and the message its "# expect:" line names.
#   traces.sh BUILD CFG...
set -u
build=$1
shift
root=$(cd "$(dirname "$0")/../.." && pwd)
pass=0 fail=0 skip=0
for c in "$@"; do
    for t in "$root"/tb/traces/*.trace; do
        for l in $(bash "$root/scripts/layouts.sh" --rtl); do
            out=$("$build/cosim/$c/ga_cosim" --trace "$t" --layout "$l" --quiet 2>&1)
            rc=$?
            if [ $rc -eq 2 ] && printf '%s' "$out" | grep -q 'needs [0-9]* lanes'; then
                skip=$((skip + 1)); continue
            fi
            if [ $rc -eq 0 ]; then
                pass=$((pass + 1))
            else
                fail=$((fail + 1))
                echo "FAIL $c $l $(basename "$t") (exit $rc):"
                printf '%s\n' "$out" | grep -m 12 'MISMATCH\|:[0-9]*:\|RESULT\|Error'
            fi
        done
    done
done
c=$1
for t in "$root"/tb/traces/bad/*.trace; do
    want=$(sed -n 's/^# expect: //p' "$t" | head -1)
    out=$("$build/cosim/$c/ga_cosim" --trace "$t" 2>&1)
    rc=$?
    if [ $rc -eq 2 ] && printf '%s' "$out" | grep -q "$(basename "$t"):[0-9]*: .*$want"; then
        pass=$((pass + 1))
    else
        fail=$((fail + 1))
        echo "FAIL malformed trace $(basename "$t"): exit $rc, expected 2 and '$want'; got: $out" | head -3
    fi
done
# bad command-line arguments are refused with status 2 as well
for args in "--layout tree" "--ops -5" "--lat 9:2" "--frob" "--seed" "--init-seed -1" "--init-seed 2147483648" \
            "--dut frob" "--dut init-seed=x"; do
    # shellcheck disable=SC2086
    "$build/cosim/$c/ga_cosim" $args >/dev/null 2>&1
    if [ $? -eq 2 ]; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: '$args' not refused with status 2"; fi
done
echo "traces: $pass passed, $fail failed, $skip skipped (trace needs more lanes than the configuration)"
[ $fail -eq 0 ]
