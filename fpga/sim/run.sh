#!/usr/bin/env bash
# make fpga-sim: for each bench configuration, start the Verilated board core behind a pseudo-terminal
# (fpga/sim/gab_bench.cpp) and drive it with gaprobe sessions exactly as a real board would be driven;
# gaprobe compares every response, the counters and the registers with the golden model.
#
#   run.sh --build DIR --ops N --seed S CFG...
#
# Sessions per configuration: the directed command files fpga/tests/*.gacmd, a random selftest of N
# operations, and the replay of sim/traces/basic.gatrace in both modes. The "real" configuration (the
# real bit time) gets one command file; m8 (compiler mode only) no HWOnly replay; the system board tops
# (make fpga-sim-sys) the selftest over every SM and the 4-SM trace fpga/tests/sys4.gatrace too.
# Logs: DIR/fpga-sim/<cfg>/.
set -u
build=build ops=1500 seed=1
cfgs=()
while [ $# -gt 0 ]; do
    case "$1" in
        --build) build=$2; shift 2 ;;
        --ops) ops=$2; shift 2 ;;
        --seed) seed=$2; shift 2 ;;
        -*) echo "run.sh: unknown option $1" >&2; exit 2 ;;
        *) cfgs+=("$1"); shift ;;
    esac
done
gaprobe="$build/rel/fpga/gaprobe"
fail=0
t_all=$(date +%s)
bench_pid=""
cleanup() { [ -n "$bench_pid" ] && kill "$bench_pid" 2>/dev/null; }
trap cleanup EXIT

for cfg in "${cfgs[@]}"; do
    dir="$build/fpga-sim/$cfg"
    rm -f "$dir/pty" "$dir"/*.log
    "$dir/gab_bench" --pty-link "$dir/pty" > "$dir/bench.log" 2>&1 &
    bench_pid=$!
    for _ in $(seq 100); do [ -s "$dir/pty" ] && break; sleep 0.05; done
    if [ ! -s "$dir/pty" ]; then echo "fpga-sim: $cfg: the bench did not start"; cat "$dir/bench.log"; exit 1; fi
    port=$(cat "$dir/pty")
    run() { # name, gaprobe arguments...
        local name=$1; shift
        local t0; t0=$(date +%s)
        "$gaprobe" -p "$port" -t 20000 "$@" > "$dir/$name.log" 2>&1
        local rc=$?
        local res; res=$(grep -E '^RESULT' "$dir/$name.log" | tail -1)
        local sum; sum=$(grep -E '^gaprobe: [0-9]+ frames' "$dir/$name.log" | tail -1 | sed 's/^gaprobe: //')
        printf 'fpga-sim %-6s %-22s %s (%s s) %s\n' "$cfg" "$name" "${res:-RESULT FAIL (exit $rc)}" \
            "$(( $(date +%s) - t0 ))" "$sum"
        if [ $rc -ne 0 ] || { [ "$res" != "RESULT PASS" ] && [ "$res" != "RESULT SKIP" ]; }; then
            fail=1
            grep -E 'MISMATCH|EXPECT FAILED|gaprobe:' "$dir/$name.log" | head -8 | sed 's/^/    /'
        fi
    }
    tests=(fpga/tests/*.gacmd)
    case "$cfg" in
        real)   # the real bit time: 44 times slower to simulate per byte
            run "cmd-basic" run fpga/tests/basic.gacmd ;;
        oc_sys2|ulx3s_sys2_rs|ulx3s_sys4_vr)   # a system board top (make fpga-sim-sys; compiler mode only): every command file
            # (sys.gacmd addresses SMs; the others run on SM 0, hwonly.gacmd skips itself), the selftest
            # round robin over the SMs, the replays with the traces' SMs (sys4.gatrace: 4 SMs)
            for t in "${tests[@]}"; do run "cmd-$(basename "$t" .gacmd)" run "$t"; done
            run "selftest" --sm rr --seed "$seed" --ops "$ops" --phases 3 --gen 60 selftest
            run "replay-compiler" --mode compiler --layout bst replay sim/traces/basic.gatrace
            run "replay-sys4" --mode compiler --layout list replay fpga/tests/sys4.gatrace ;;
        ulx3s_sys4)   # 4 SMs of 16 entries and 4 lanes simulate about 5 times slower (0.14 M cycles/s):
            # the SM-addressing file, a fifth of the selftest round robin, the 4-SM trace
            run "cmd-sys" run fpga/tests/sys.gacmd
            run "selftest" --sm rr --seed "$seed" --ops "$(( ops / 5 ))" --phases 2 --gen 20 selftest
            run "replay-sys4" --mode compiler --layout list replay fpga/tests/sys4.gatrace ;;
        wide32|wide32_rs)   # 32 lanes: three frames per operation (LANES_HI, MLU_OP, LANES_HI read) and a model
            # about 5 times slower per cycle than one lane's: every command file, a fifth of the
            # selftest, the replays in both modes
            for t in "${tests[@]}"; do run "cmd-$(basename "$t" .gacmd)" run "$t"; done
            run "selftest" --seed "$seed" --ops "$(( ops / 5 ))" --phases 2 --gen 20 selftest
            run "replay-compiler" --mode compiler --layout bst replay sim/traces/basic.gatrace
            run "replay-hwonly" --mode hwonly --layout table replay sim/traces/basic.gatrace ;;
        m8)     # compiler mode only (HwOnlyMode 0): hwonly.gacmd skips itself, no HWOnly replay
            for t in "${tests[@]}"; do run "cmd-$(basename "$t" .gacmd)" run "$t"; done
            run "selftest" --seed "$seed" --ops "$ops" --phases 3 --gen 60 selftest
            run "replay-compiler" --mode compiler --layout bst replay sim/traces/basic.gatrace ;;
        *)
            for t in "${tests[@]}"; do run "cmd-$(basename "$t" .gacmd)" run "$t"; done
            run "selftest" --seed "$seed" --ops "$ops" --phases 3 --gen 60 selftest
            run "replay-compiler" --mode compiler --layout bst replay sim/traces/basic.gatrace
            run "replay-hwonly" --mode hwonly --layout table replay sim/traces/basic.gatrace ;;
    esac
    kill "$bench_pid" 2>/dev/null
    wait "$bench_pid" 2>/dev/null
    bench_pid=""
    grep -h '^gab_bench:' "$dir/bench.log" | sed "s/^/fpga-sim $cfg   /"
done
echo "fpga-sim: $(( $(date +%s) - t_all )) s"
if [ $fail -ne 0 ]; then echo "fpga-sim: FAILED"; exit 1; fi
echo "fpga-sim: all sessions passed"
