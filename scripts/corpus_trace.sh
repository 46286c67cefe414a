#!/usr/bin/env bash
# corpus_trace.sh — a CUDA program's run, captured by gpuarmor-run as a gatrace, replays exactly
# (docs/emulator.md §7): for each program and mode, the emulator's own MLU counters (its --json report)
# must equal gasim's replay of the captured trace (LOADMETA, MLB hits, MEMCHECK.G fetches and hits, walks,
# metadata reads, fills, detections), and the trace must replay through the Verilated RTL with 0
# mismatches (gasim-rtl). With --live, the programs also run under `gpuarmor-run --rtl` (one Verilated MLU
# per simulated SM, in lockstep) and must report 0 mismatches.
#   corpus_trace.sh BUILD RTL_CFG [--live] PROGRAM...
# Exit: 0 all agree, 3 a disagreement (a check failed), 1 a tool failed.
set -u
build=$1 cfg=$2
shift 2
live=0
if [ "${1:-}" = --live ]; then live=1; shift; fi
run=$build/cudart/gpuarmor-run
gasim=$build/rel/sim/gasim
rtl=$build/cosim/$cfg/gasim-rtl
out=$build/corpus/traces
mkdir -p "$out"
fail=0
for p in "$@"; do
    for m in compiler hwonly; do
        t=$out/$p.$m.gatrace.gz
        if ! "$run" --mode "$m" --quiet --trace-out "$t" --json "$out/$p.$m.emu.json" "$build/apps/$p" \
             >"$out/$p.$m.out" 2>&1; then
            # bug programs exit 0 too; a non-zero status is the runtime's or the program's failure
            echo "corpus-trace: $p $m: gpuarmor-run failed:"; tail -5 "$out/$p.$m.out"; fail=1; continue
        fi
        if ! "$gasim" --trace "$t" --mode "$m" --json "$out/$p.$m.gasim.json" >"$out/$p.$m.gasim.out" 2>&1; then
            echo "corpus-trace: $p $m: gasim refused the trace:"; tail -5 "$out/$p.$m.gasim.out"; fail=1; continue
        fi
        if ! python3 - "$out/$p.$m.emu.json" "$out/$p.$m.gasim.json" "$p $m" <<'PY'
import json, sys
e = json.load(open(sys.argv[1]))["mlu"]
g = json.load(open(sys.argv[2]))
pairs = [("LOADMETA", e["loadmeta"], g["operations"]["loadmeta"]),
         ("LOADMETA MLB hits", e["loadmeta_hits"], g["mlb"]["loadmeta_hits"]),
         ("MEMCHECK.G", e["memcheck_g"], g["operations"]["memcheck_g"]),
         ("MEMCHECK.S", e["memcheck_s"], g["operations"]["memcheck_s"]),
         ("fetches", e["fetches"], g["mlb"]["fetches"]),
         ("fetch MLB hits", e["fetch_hits"], g["mlb"]["fetch_hits"]),
         ("MLB fills", e["fills"], g["mlb"]["fills"]),
         ("walks", e["walks"], g["walks"]["count"]),
         ("walk node reads", e["walk_steps"], g["walks"]["steps"]),
         ("metadata reads", e["md_reads"], g["metadata_reads"]["reads"]),
         ("faulting operations", e["faulting_ops"], g["detections"]["count"])]
bad = [p for p in pairs if p[1] != p[2]]
for name, a, b in bad:
    print("corpus-trace: %s: %s: emulator %d, replay %d" % (sys.argv[3], name, a, b))
print("corpus-trace: %s: emulator and gasim replay agree on %d counters (%d LOADMETA, %d MEMCHECK.G, %d metadata reads, %d detections)"
      % (sys.argv[3], len(pairs) - len(bad), e["loadmeta"], e["memcheck_g"], e["md_reads"], e["faulting_ops"]))
sys.exit(1 if bad else 0)
PY
        then fail=3; fi
        if [ -x "$rtl" ]; then
            if "$rtl" --rtl --trace "$t" --mode "$m" >"$out/$p.$m.rtl.out" 2>&1; then
                grep -h '^rtl:' "$out/$p.$m.rtl.out" | sed "s|^|corpus-trace: $p $m: |"
            else
                echo "corpus-trace: $p $m: RTL replay failed:"; grep -E 'rtl|mismatch|error' "$out/$p.$m.rtl.out" | head -8; fail=3
            fi
        else
            echo "corpus-trace: $rtl not built: RTL replay skipped (make gasim-rtl RTL_CFG=$cfg)"; fail=1
        fi
    done
    if [ $live = 1 ]; then
        if "$run" --rtl --quiet "$build/apps/$p" >"$out/$p.live.out" 2>&1; then
            grep -h '^rtl:' "$out/$p.live.out" | sed "s|^|corpus-trace: $p live --rtl: |"
            grep -q '0 mismatches' "$out/$p.live.out" || { echo "corpus-trace: $p live --rtl: no agreement line"; fail=3; }
        else
            echo "corpus-trace: $p live --rtl failed:"; tail -8 "$out/$p.live.out"; fail=3
        fi
    fi
done
exit $fail
