#!/usr/bin/env bash
# Run a libFuzzer target for a given time and report executions and crashes.
#   run_fuzz.sh BINARY SEED_CORPUS WORK_DIR SECONDS JOBS
# The seed corpus (in the repository) is read, never written: new inputs go to WORK_DIR/corpus.
# Crashing inputs are saved as WORK_DIR/artifacts/crash-* (libFuzzer's names). Exit status 0 when the
# run found nothing, 1 otherwise. Prints one summary line:
#   fuzz: <target>: <N> executions in <S> s (<R>/s), <C> crashes, corpus <K> inputs
set -u
bin=$1 seeds=$2 work=$3 secs=$4 jobs=${5:-1}
name=$(basename "$bin")
here=$(cd "$(dirname "$0")" && pwd)
case "$name" in
    fuzz_trace) dict=$here/gatrace.dict ;;
    fuzz_ptx | fuzz_emu) dict=$here/ptx.dict ;;
    *) dict=$here/accelsim.dict ;;
esac
# FUZZ_MAX_LEN: longest input tried (bytes); 8192 unless the caller says otherwise (mk/ptx.mk does).
max_len=${FUZZ_MAX_LEN:-8192}
mkdir -p "$work/corpus-$name" "$work/artifacts"
# absolute paths: the multi-job run works inside $work
work=$(cd "$work" && pwd)
bin=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")
seeds=$(cd "$seeds" && pwd)
# fuzz_accelsim writes its input to a scratch file per execution: on a RAM file system when there is one.
if [ -z "${TMPDIR:-}" ] && [ -d /dev/shm ] && [ -w /dev/shm ]; then export TMPDIR=/dev/shm; fi
log="$work/$name.log"
rm -f "$work"/$name.job*.log
if [ "$jobs" -gt 1 ]; then
    # Independent workers on a shared corpus; each writes fuzz-<n>.log in the current directory.
    (cd "$work" && "$bin" -jobs="$jobs" -workers="$jobs" -max_total_time="$secs" -max_len="$max_len" \
        -dict="$dict" -print_final_stats=1 -artifact_prefix=artifacts/ \
        "corpus-$name" "$seeds" >"$log" 2>&1)
    rc=$?
    cat "$work"/fuzz-*.log >>"$log" 2>/dev/null
    rm -f "$work"/fuzz-*.log
else
    "$bin" -max_total_time="$secs" -max_len="$max_len" -dict="$dict" -print_final_stats=1 \
        -artifact_prefix="$work/artifacts/" "$work/corpus-$name" "$seeds" >"$log" 2>&1
    rc=$?
fi
execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | awk '{s += $1} END {print s + 0}')
rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | awk '{s += $1} END {print s + 0}')
crashes=$(grep -c 'Test unit written to' "$log")
units=$(ls "$work/corpus-$name" | wc -l)
echo "fuzz: $name: $execs executions in $secs s ($rate/s), $crashes crashes, corpus $units inputs (log: $log)"
if [ $rc -ne 0 ] || [ "$crashes" -ne 0 ]; then
    grep -E 'ERROR|SUMMARY|Test unit written|deadly' "$log" | head -20
    echo "fuzz: FAILED (exit $rc); reproduce with: $bin <artifact>"
    exit 1
fi
