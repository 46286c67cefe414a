#!/usr/bin/env bash
# rtl_replay.sh BUILD CFG "LAYOUTS" TRACE... — replay gatrace files through the RTL lockstep backend
# (build/cosim/CFG/gasim-rtl --rtl) in both modes and every layout given; also records garun's
# default workload (garun --write-trace) and replays it. Every run must end with 0 mismatches.
# Used by `make test-rtl-replay` and `make run`. Exit status: 0 when RTL and model agree everywhere.
set -u
build=$1 cfg=$2 layouts=$3
shift 3
gasim=$build/cosim/$cfg/gasim-rtl
garun=$build/rel/sim/garun
out=$build/rtl-replay
mkdir -p "$out"
"$garun" --write-trace "$out/garun.gatrace" >"$out/garun.out" 2>&1 || { cat "$out/garun.out"; echo "rtl-replay: garun failed"; exit 1; }
fail=0 runs=0
for t in "$@" "$out/garun.gatrace"; do
  for m in compiler hwonly; do
    for l in $layouts; do
      log=$out/$(basename "$t" .gatrace)-$m-$l.log
      start=$(date +%s.%N)
      if "$gasim" --rtl --trace "$t" --mode "$m" --layout "$l" >"$log" 2>&1; then
        s=$(grep -o '[0-9]* requests on [0-9]* Verilated MLU(s), [0-9]* cycles, 0 mismatches' "$log")
        printf '  RTL = model  %-22s %-8s %-5s %s (%.1f s)\n' "$(basename "$t")" "$m" "$l" "$s" \
          "$(echo "$(date +%s.%N) - $start" | bc)"
      else
        fail=$((fail + 1))
        printf '  MISMATCH     %-22s %-8s %-5s (log: %s)\n' "$(basename "$t")" "$m" "$l" "$log"
        grep -m 5 'MISMATCH\|DISAGREE\|^rtl:\|gasim:' "$log" | sed 's/^/      /'
      fi
      runs=$((runs + 1))
    done
  done
done
if [ "$fail" -ne 0 ]; then
  echo "rtl-replay: RTL ($cfg) and model DISAGREE in $fail of $runs replays"
  exit 1
fi
echo "rtl-replay: RTL ($cfg) and model agree on every request of $runs replays (0 mismatches)"
