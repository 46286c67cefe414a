#!/usr/bin/env bash
# tests/cudart/run.sh — integration test of the replacement CUDA runtime and gpuarmor-run
# (docs/emulator.md §3), run by `make test-cudart`:
#
#   bash tests/cudart/run.sh BUILD_CUDART_DIR      (e.g. build/cudart)
#
# Builds the CUDA programs of tests/cudart/*.cu with nvcc (the flags the runtime needs, and without
# them), then runs them under BUILD_CUDART_DIR/gpuarmor-run against the library linked with the emu
# fake (BUILD_CUDART_DIR/fake/libcudart.so.13; tests/emu_fake.c fails kernels on purpose by name)
# and checks exit statuses and messages: registration, memory and symbol paths, error codes and
# sticky errors, the unsupported-call stop, the option plumbing (log, JSON and trace files reach the
# library), the launcher's own errors, the refusal of programs built without the flags, signals;
# then some of the programs again against BUILD_CUDART_DIR/san/fake/libcudart.so.13 (the runtime
# built with ASan + UBSan; the sanitizer runtimes are preloaded, CC says whose).
# With CUDART_EMU=real it also runs the programs that compute for real against the real emulator
# (BUILD_CUDART_DIR/libcudart.so.13). Prints one line per case and "cudart integration: N passed,
# M failed"; exits 1 if any failed.
set -u
dir=${1:?usage: run.sh BUILD_CUDART_DIR}
dir=$(cd "$dir" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
nvcc=${NVCC:-nvcc}
run=$dir/gpuarmor-run
fake=$dir/fake/libcudart.so.13
out=$dir/tests
mkdir -p "$out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
flags=(-cudart shared -no-compress -gencode arch=compute_80,code=compute_80)
pass=0
fail=0

# Build: name, source, nvcc flags... (the output is replaced only when nvcc succeeds).
build() {
    local name=$1 src=$2
    shift 2
    if [ "$out/$name" -nt "$src" ] && [ "$out/$name" -nt "$0" ]; then return 0; fi
    if ! "$nvcc" "$@" "$src" -o "$out/$name.tmp" > "$tmp/nvcc.log" 2>&1; then
        cat "$tmp/nvcc.log"
        echo "FAIL: nvcc could not build $name"
        exit 1
    fi
    mv "$out/$name.tmp" "$out/$name"
}
for p in basic sticky managed managed_var unloadable threads; do
    build "$p" "$here/$p.cu" "${flags[@]}"
done
build basic_default "$here/basic.cu"                    # nvcc's defaults: static runtime, compressed
build basic_compressed "$here/basic.cu" -cudart shared  # shared runtime, compressed, SASS + PTX
# DT_RPATH (searched before LD_LIBRARY_PATH) naming the toolkit's own libcudart.so.13.
nvcc_lib=$(cd "$(dirname "$(command -v "$nvcc")")/../lib64" 2>/dev/null && pwd)
if [ -n "$nvcc_lib" ] && [ -r "$nvcc_lib/libcudart.so.13" ]; then
    build basic_rpath "$here/basic.cu" "${flags[@]}" -Xlinker --disable-new-dtags -Xlinker -rpath -Xlinker "$nvcc_lib"
fi
printf 'not a program\n' > "$out/not_executable"
chmod -x "$out/not_executable"

# expect NAME STATUS 'pattern|pattern...' -- command...: the exit status must be STATUS and the
# combined output must contain every pattern (fixed strings separated by |; '' for none).
expect() {
    local name=$1 want=$2 pats=$3
    shift 4
    "$@" > "$tmp/out" 2>&1
    local rc=$? ok=1 missing=""
    [ "$rc" = "$want" ] || ok=0
    if [ -n "$pats" ]; then
        IFS='|' read -r -a list <<< "$pats"
        for p in "${list[@]}"; do
            grep -qF -- "$p" "$tmp/out" || { ok=0; missing="$missing [$p]"; }
        done
    fi
    if [ $ok = 1 ]; then
        pass=$((pass + 1))
        echo "ok   $name"
    else
        fail=$((fail + 1))
        echo "FAIL $name: exit $rc (want $want)${missing:+, missing$missing}"
        sed 's/^/       | /' "$tmp/out" | tail -n 15
    fi
}
# refute NAME 'pattern': the last output must not contain pattern.
refute() {
    if grep -qF -- "$2" "$tmp/out"; then
        fail=$((fail + 1))
        echo "FAIL $1: output contains [$2]"
    else
        pass=$((pass + 1))
        echo "ok   $1"
    fi
}

export GPUARMOR_LIB=$fake
flagmsg="rebuild with nvcc -cudart shared -no-compress -gencode arch=compute_80,code=compute_80"

# --- the library with the fake emulator ------------------------------------------------------------
expect "basic program" 0 "PASS basic|ERROR SUMMARY: 5 errors" -- "$run" "$out/basic"
if [ -x "$out/basic_rpath" ]; then
    expect "a DT_RPATH naming NVIDIA's runtime does not win over ours" 0 "PASS basic|ERROR SUMMARY: 5 errors" -- \
        "$run" "$out/basic_rpath"
fi
expect "basic: --error-exitcode when errors were reported" 7 "PASS basic" -- "$run" --error-exitcode 7 "$out/basic"
expect "basic without the launcher (LD_LIBRARY_PATH)" 0 "PASS basic|ERROR SUMMARY: 5 errors" -- \
    env -u GPUARMOR_LIB LD_LIBRARY_PATH="$dir/fake" "$out/basic"
expect "options reach the library (log, json, trace)" 0 "PASS basic" -- \
    "$run" --log-file "$tmp/run.log" --json "$tmp/run.json" --trace-out "$tmp/run.gatrace" --mlb 16 --seed 5 \
    "$out/basic"
refute "  reports went to the log file, not stderr" "ERROR SUMMARY"
expect "  the log file has the summary" 0 "ERROR SUMMARY: 5 errors|Invalid free" -- cat "$tmp/run.log"
expect "  the JSON report was written" 0 '"errors": 5' -- cat "$tmp/run.json"
expect "  the trace file was created" 0 "trace written by the emu fake" -- cat "$tmp/run.gatrace"
(cd "$tmp" && "$run" --quiet --log-file "rel.%p.log" "$out/basic" > /dev/null 2>&1)
expect "--log-file with %p, relative to the launcher's directory" 0 "ERROR SUMMARY: 5 errors" -- \
    sh -c "cat '$tmp'/rel.[0-9]*.log"
for m in fault trap hang stack assert; do
    expect "sticky error after a failed launch ($m)" 0 "PASS sticky $m|ERROR SUMMARY: 1 error" -- "$run" "$out/sticky" $m
done
expect "sticky fault with --error-exitcode" 9 "PASS sticky fault" -- "$run" --error-exitcode 9 "$out/sticky" fault
expect "emulator limit at a launch stops the program" 125 "unsupported instruction (emu fake); stopping the program" -- \
    "$run" "$out/sticky" unsupported
expect "emulator bug at a launch stops the program" 125 "internal error (emu fake); stopping the program" -- \
    "$run" "$out/sticky" internal
expect "unsupported runtime call stops the program" 125 "gpuarmor: unsupported CUDA runtime call cudaGraphCreate" -- \
    "$run" "$out/sticky" unsupported-call
refute "  and the program did not go on" "FAIL: returned"
expect "a module that does not load: warning, then stop at its launch" 125 \
    "warning: module unloadable:fatbin#0 could not be loaded|host code runs|module unloadable:fatbin#0 cannot run" -- \
    "$run" "$out/unloadable"
expect "host access to managed memory: explained, killed by SIGSEGV" 139 \
    "non-canonical address|killed by SIGSEGV" -- "$run" "$out/managed"
expect "a __managed__ variable is refused at registration" 125 \
    "__managed__ variable 'counter' (4 bytes) is not supported" -- "$run" "$out/managed_var"
refute "  before main ran" "FAIL managed_var"
expect "several host threads" 0 "PASS threads" -- "$run" "$out/threads"
expect "--rtl without the RTL backend" 125 "cannot create the emulated GPU" -- "$run" --rtl "$out/basic"
expect "bad GPUARMOR_ARGS given to the library directly" 2 "GPUARMOR_ARGS: --mlb: expected an integer in 1..64, got '99'" -- \
    env LD_LIBRARY_PATH="$dir/fake" GPUARMOR_ARGS=$'--mlb\x1f99' "$out/basic"

# --- programs built without the flags ----------------------------------------------------------------
expect "nvcc defaults (static runtime): refused before it starts" 126 "links the CUDA runtime statically|$flagmsg" -- \
    "$run" "$out/basic_default"
expect "-cudart shared only (compressed): refused before it starts" 126 "compressed|$flagmsg" -- \
    "$run" "$out/basic_compressed"
expect "-cudart shared only, run directly: the library refuses it" 125 "compressed|$flagmsg" -- \
    env LD_LIBRARY_PATH="$dir/fake" "$out/basic_compressed"

# --- the launcher's own errors ---------------------------------------------------------------------
expect "--help" 0 "usage: gpuarmor-run|--tag-quarantine W|--error-exitcode N" -- "$run" --help
expect "--version" 0 "gpuarmor-run (GPUArmor)" -- "$run" --version
expect "no program" 2 "expected a program to run" -- "$run" --quiet
expect "bad value" 2 "--mlb: expected an integer in 1..64, got '0'" -- "$run" --mlb 0 "$out/basic"
expect "bad word" 2 "--mode: expected one of compiler, hwonly, off, got 'fast'" -- "$run" --mode fast "$out/basic"
expect "unknown option" 2 "unknown option '--fast'" -- "$run" --fast "$out/basic"
expect "missing value" 2 "--seed: expected a value" -- "$run" --seed
expect "log file in a missing directory" 2 "--log-file: the directory" -- "$run" --log-file /nonexistent/dir/x.log "$out/basic"
expect "json output is a directory" 2 "--json: expected a file, got the directory" -- "$run" --json "$tmp" "$out/basic"
expect "missing --ptx-dump directory" 2 "--ptx-dump: expected an existing directory" -- "$run" --ptx-dump "$tmp/none" "$out/basic"
expect "program not found" 127 "program not found" -- "$run" "$tmp/no-such-program"
expect "program not in PATH" 127 "program not found in PATH" -- "$run" no-such-program-gpuarmor
expect "not executable" 126 "not an executable file" -- "$run" "$out/not_executable"
expect "program killed by a signal" 134 "killed by SIGABRT" -- "$run" --quiet sh -c 'kill -ABRT $$'
expect "the program's own exit status" 3 "" -- "$run" --quiet sh -c 'exit 3'
expect "a program without CUDA: a note" 0 "does not load libcudart.so.13" -- "$run" true
expect "missing library" 126 "is missing" -- env GPUARMOR_LIB="$tmp/libcudart.so.13" "$run" "$out/basic"
expect "library of the wrong name" 126 "must be named libcudart.so.13" -- env GPUARMOR_LIB=/bin/true "$run" "$out/basic"

# --- the library's exports -------------------------------------------------------------------------
nm -D --defined-only "$fake" > "$tmp/nm"
expect "implemented calls are strong symbols" 0 " T cudaMalloc@@libcudart.so.13| T __cudaRegisterFatBinary@@libcudart.so.13| T cudaMemcpy_ptds@@libcudart.so.13" -- cat "$tmp/nm"
expect "unsupported calls exist as stubs" 0 " W cudaGraphCreate@@libcudart.so.13| W cudaMemcpy3D@@libcudart.so.13| W cudaGLSetGLDevice@@libcudart.so.13" -- cat "$tmp/nm"
expect "only cuda* and __cuda* are exported" 0 "" -- sh -c "! grep -v ' A libcudart.so.13' '$tmp/nm' | grep -v ' _*cuda'"

# --- the runtime under ASan + UBSan (BUILD_CUDART_DIR/san/fake; sanitizer runtimes preloaded) ------
san=$dir/san/fake/libcudart.so.13
if [ -r "$san" ]; then
    cc=${CC:-cc}
    preload="$("$cc" -print-file-name=libasan.so) $("$cc" -print-file-name=libubsan.so)"
    for t in "basic" "threads" "sticky fault" "sticky hang" "sticky unsupported-call" "unloadable"; do
        want=0
        case $t in *unsupported-call | unloadable) want=125 ;; esac
        # shellcheck disable=SC2086
        expect "ASan+UBSan runtime: $t" $want "" -- env LD_PRELOAD="$preload" LD_LIBRARY_PATH="$dir/san/fake" \
            ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
            "$out/"$t
        refute "  no sanitizer report" "Sanitizer"
        refute "  no UBSan report" "runtime error:"
    done
fi

# --- the real emulator -----------------------------------------------------------------------------
if [ "${CUDART_EMU:-fake}" = real ] && [ -r "$dir/libcudart.so.13" ]; then
    export GPUARMOR_LIB=$dir/libcudart.so.13
    expect "real emulator: basic" 0 "PASS basic|ERROR SUMMARY: 5 errors" -- "$run" "$out/basic"
    expect "real emulator: threads" 0 "PASS threads" -- "$run" "$out/threads"
    expect "real emulator: out-of-bounds write, --policy terminate" 0 "PASS sticky fault|OUT_OF_BOUNDS" -- \
        "$run" --policy terminate "$out/sticky" fault
    expect "real emulator: trap" 0 "PASS sticky trap" -- "$run" "$out/sticky" trap
    expect "real emulator: device assert" 0 "PASS sticky assert" -- "$run" "$out/sticky" assert
    expect "real emulator: recursion deeper than --stack-size" 0 "PASS sticky stack" -- \
        "$run" --stack-size 4K "$out/sticky" stack
    rm -f "$tmp/real.json" "$tmp/real.gatrace"
    expect "real emulator: --json and --trace-out" 0 "PASS basic" -- \
        "$run" --quiet --json "$tmp/real.json" --trace-out "$tmp/real.gatrace" "$out/basic"
    expect "  the JSON report and the trace were written" 0 "" -- test -s "$tmp/real.json" -a -s "$tmp/real.gatrace"
    expect "real emulator: hang stopped by --max-instructions" 0 "PASS sticky hang|--max-instructions" -- \
        "$run" --max-instructions 100000 "$out/sticky" hang
    expect "real emulator: managed memory on the host" 139 "non-canonical address|killed by SIGSEGV" -- "$run" "$out/managed"
fi

echo "cudart integration: $pass passed, $fail failed"
[ $fail -eq 0 ]
