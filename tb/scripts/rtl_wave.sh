#!/usr/bin/env bash
# rtl_wave.sh BUILD CFG — checks of `gasim --rtl --wave FROM:TO` (make test-rtl-wave): sim/traces/basic.gatrace
# (2 SMs, records on lines 3..13) is replayed through build/cosim/CFG-fst/gasim-rtl with windows whose
# contents are known from the trace, each FST is read back (fst2vcd, then tb/scripts/vcd_reqs.py counts the
# requests the MLU accepted), and the windows the tool must refuse are tried:
#   - 6:6, hwonly, started through plain gasim (which must pick the -fst binary): line 6 is one ld on SM 0,
#     so SM 0's file holds exactly 1 accepted request, an ACCESS (op 3), starts after SM 0's reset and
#     configuration (time > 0), and SM 1's file does not exist (SM 1 has no instance before line 7);
#   - 7:9, compiler: SM 1's instance is created at line 7, so its file starts at time 0 with 6 CFG_WRITEs;
#     the MLU operations of lines 7..9 are LOADMETA + MEMCHECK.G (st on SM 1) and MEMCHECK.S (lds on SM 0);
#   - 3:20, compiler: the MLU operations (LOADMETA, MEMCHECK.G/S, ACCESS) in the two files add up to the
#     report's "operations ... (total N)", the report is byte-identical to a run without --wave, and
#     every file's request count and time range are the ones the backend printed;
#   - a window whose only record (line 5, kernel) clocks no MLU: exit 0, no file, and a line that says why;
#   - refused: a window with no record (100:200 past the end, 1:2 on the header), --wave on the
#     untraced gasim-rtl and plain gasim --wave for a configuration whose traced program is not built
#     (both must name make gasim-rtl-wave), an unwritable --wave-file, FROM > TO, --wave
#     without --rtl: each a non-zero exit, its message, and no file written.
# Exit status: 0 when every check passed, 1 otherwise.
set -u
build=$1 cfg=$2
root=$(cd "$(dirname "$0")/../.." && pwd)
fstbin=$build/cosim/$cfg-fst/gasim-rtl
plainbin=$build/cosim/$cfg/gasim-rtl
gasim=$build/rel/sim/gasim
trace=$root/sim/traces/basic.gatrace
vcdreqs=$root/tb/scripts/vcd_reqs.py
out=$build/rtl-wave
for p in "$fstbin" "$plainbin" "$gasim"; do
    [ -x "$p" ] || { echo "rtl-wave: $p is not built (make test-rtl-wave builds it)"; exit 1; }
done
command -v fst2vcd >/dev/null || { echo "rtl-wave: fst2vcd (gtkwave) not found: run 'make deps'"; exit 1; }
command -v python3 >/dev/null || { echo "rtl-wave: python3 not found: run 'make deps'"; exit 1; }
# the configuration's tag width and MLB size, so that the replays fit the linked model (32 lanes: basic.gatrace has
# 32-lane warps)
tb=$(printf '%s\n' "$cfg" | sed -n 's/^t\([0-9]*\)_m[0-9]*_l32$/\1/p')
mlb=$(printf '%s\n' "$cfg" | sed -n 's/^t[0-9]*_m\([0-9]*\)_l32$/\1/p')
[ -n "$tb" ] && [ -n "$mlb" ] || { echo "rtl-wave: CFG must be a 32-lane configuration t<T>_m<M>_l32, got '$cfg'"; exit 1; }
rm -rf "$out"
mkdir -p "$out"
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "  FAIL $*"; }

# reqs FILE.fst: vcd_reqs.py's line for it (empty when it cannot be read)
reqs() { fst2vcd "$1" >"$1.vcd" 2>/dev/null && python3 "$vcdreqs" "$1.vcd"; }
field() { printf '%s\n' "$1" | sed -n "s/.*$2=\([^ ]*\).*/\1/p"; }
# mlu_ops OPS: how many of the comma-separated ops are MLU operations (0..3)
mlu_ops() { printf '%s\n' "$1" | tr ',' '\n' | grep -c '^[0-3]$'; }
# printed LOG FILE: "times A..B" and the request count the backend printed for FILE ("A B N")
printed() {
    sed -n "s|^rtl: waveform of SM [0-9]*: $2, times \([0-9]*\)\.\.\([0-9]*\) ([0-9]* cycles, \([0-9]*\) request.*|\1 \2 \3|p" "$1"
}
# agree FILE LOG: the FST's first/last time and accepted requests are what the backend printed
agree() {
    local r p
    r=$(reqs "$1")
    p=$(printed "$2" "$1")
    if [ -n "$r" ] && [ -n "$p" ] && [ "$(field "$r" first) $(field "$r" last) $(field "$r" reqs)" = "$p" ]; then ok
    else bad "$1: the FST shows '$r', the backend printed '$p'"; fi
}

# --- 6:6, hwonly, through plain gasim -------------------------------------------------------------
w=$out/w66.fst
"$gasim" --rtl --tag-bits "$tb" --mlb "$mlb" --trace "$trace" --mode hwonly --wave 6:6 --wave-file "$w" --quiet 2>"$out/w66.log"
rc=$?
[ $rc -eq 0 ] && ok || bad "6:6: exit $rc (expected 0): $(head -3 "$out/w66.log")"
[ -s "$w" ] && ok || bad "6:6: $w missing or empty"
[ ! -e "$out/w66.sm1.fst" ] && ok || bad "6:6: SM 1 has no instance in the window, yet w66.sm1.fst exists"
r=$(reqs "$w")
[ "$(field "$r" reqs) $(field "$r" ops)" = "1 3" ] && ok || bad "6:6: expected 1 request, an ACCESS (op 3); the FST shows '$r'"
f=$(field "$r" first)
[ -n "$f" ] && [ "$f" != none ] && [ "$f" -gt 0 ] && ok || bad "6:6: the dump should start after SM 0's reset and configuration, starts at '$f'"
agree "$w" "$out/w66.log"

# --- 7:9, compiler -----------------------------------------------------------------------------------
w=$out/w79.fst
"$fstbin" --rtl --tag-bits "$tb" --mlb "$mlb" --trace "$trace" --wave 7:9 --wave-file "$w" --quiet 2>"$out/w79.log"
rc=$?
[ $rc -eq 0 ] && ok || bad "7:9: exit $rc (expected 0): $(head -3 "$out/w79.log")"
r0=$(reqs "$w")
r1=$(reqs "$out/w79.sm1.fst")
o1=$(field "$r1" ops)
[ "$(field "$r1" first)" = 0 ] && [ "${o1#6,6,6,6,6,6,}" != "$o1" ] && ok ||
    bad "7:9: SM 1 is created at line 7: its dump should start at time 0 with 6 CFG_WRITEs, shows '$r1'"
ops=$(printf '%s,%s\n' "$(field "$r0" ops)" "$o1" | tr ',' '\n' | grep '^[0-3]$' | sort | tr '\n' ' ')
[ "$ops" = "0 1 2 " ] && ok || bad "7:9: expected the MLU operations LOADMETA, MEMCHECK.G, MEMCHECK.S; the FSTs show '$ops'"
agree "$w" "$out/w79.log"
agree "$out/w79.sm1.fst" "$out/w79.log"

# --- 3:20, compiler: the whole trace; the report must not change -------------------------------------
w=$out/w320.fst
"$fstbin" --rtl --tag-bits "$tb" --mlb "$mlb" --trace "$trace" >"$out/nowave.txt" 2>"$out/nowave.log"
"$fstbin" --rtl --tag-bits "$tb" --mlb "$mlb" --trace "$trace" --wave 3:20 --wave-file "$w" >"$out/w320.txt" 2>"$out/w320.log"
rc=$?
[ $rc -eq 0 ] && ok || bad "3:20: exit $rc (expected 0): $(head -3 "$out/w320.log")"
cmp -s "$out/nowave.txt" "$out/w320.txt" && ok || bad "3:20: the report differs from the run without --wave"
total=$(sed -n 's/^  operations .*(total \([0-9]*\)).*/\1/p' "$out/w320.txt")
n=$(( $(mlu_ops "$(field "$(reqs "$w")" ops)") + $(mlu_ops "$(field "$(reqs "$out/w320.sm1.fst")" ops)") ))
[ -n "$total" ] && [ "$n" = "$total" ] && ok || bad "3:20: the FSTs hold $n MLU operations, the report counts '$total'"
agree "$w" "$out/w320.log"
agree "$out/w320.sm1.fst" "$out/w320.log"
grep -q "^cfg=$cfg-fst lanes=[0-9]* mlb=[0-9]* tag=[0-9]* idw=[0-9]* sm=0$" "$w.cfg" && ok || bad "3:20: $w.cfg: '$(cat "$w.cfg" 2>/dev/null)'"

# --- refusals: exit status, message, no file -----------------------------------------------------------
# refuse NAME WANT_RC PATTERN CMD...: CMD exits WANT_RC ("nz": any non-zero) with PATTERN on stderr
# and leaves no $out/r.* file (also used for the idle window, which must exit 0)
refuse() {
    local name=$1 want=$2 pat=$3 rc
    shift 3
    rm -f "$out"/r.*
    "$@" >/dev/null 2>"$out/refuse.log"
    rc=$?
    if { [ "$want" = nz ] && [ $rc -ne 0 ]; } || [ "$rc" = "$want" ]; then ok
    else bad "$name: exit $rc, expected $want"; fi
    grep -q -- "$pat" "$out/refuse.log" && ok || bad "$name: expected '$pat' in: $(head -2 "$out/refuse.log")"
    [ -z "$(ls "$out"/r.* 2>/dev/null)" ] && ok || bad "$name: left $(ls "$out"/r.* | tr '\n' ' ')"
}
refuse "past the end" 1 "no record of the trace is on those lines (its records are on lines 3\.\.13)" \
    "$fstbin" --rtl --tag-bits "$tb" --mlb "$mlb" --trace "$trace" --wave 100:200 --wave-file "$out/r.fst" --quiet
refuse "header lines" 1 "no record of the trace is on those lines" \
    "$fstbin" --rtl --tag-bits "$tb" --mlb "$mlb" --trace "$trace" --wave 1:2 --wave-file "$out/r.fst" --quiet
refuse "untraced gasim-rtl" nz "make gasim-rtl-wave RTL_CFG=$cfg" \
    "$plainbin" --rtl --tag-bits "$tb" --mlb "$mlb" --trace "$trace" --wave 3:20 --wave-file "$out/r.fst" --quiet
refuse "unwritable file" 1 "cannot write in the directory $out/r.none" \
    "$gasim" --rtl --tag-bits "$tb" --mlb "$mlb" --trace "$trace" --wave 3:20 --wave-file "$out/r.none/w.fst" --quiet
# plain gasim, for a configuration whose traced program is not built: names the target (skipped when all are built)
for other in t16_m16_l32 t16_m8_l32 t7_m16_l32 t7_m8_l32; do
    [ "$other" != "$cfg" ] && [ ! -e "$build/cosim/$other-fst/gasim-rtl" ] && break
    other=
done
if [ -n "$other" ]; then
    ot=${other#t}; ot=${ot%%_*}; om=${other#*_m}; om=${om%%_*}
    refuse "traced program not built" 1 "build/cosim/$other-fst/gasim-rtl, which is not built: run 'make gasim-rtl-wave RTL_CFG=$other'" \
        "$gasim" --rtl --tag-bits "$ot" --mlb "$om" --trace "$trace" --wave 3:20 --wave-file "$out/r.fst" --quiet
else
    echo "  (skipped the not-built check: every traced gasim-rtl is built)"
fi
# a window whose records clock no MLU (line 5: a kernel record) writes no file, says so, and is no error
refuse "idle window" 0 "SM 0 was idle in the window (no clock): no waveform written" \
    "$fstbin" --rtl --tag-bits "$tb" --mlb "$mlb" --trace "$trace" --wave 5:5 --wave-file "$out/r.fst" --quiet
refuse "FROM > TO" 2 "expected FROM:TO" "$gasim" --rtl --tag-bits "$tb" --mlb "$mlb" --trace "$trace" --wave 9:3 --wave-file "$out/r.fst"
refuse "no --rtl" 2 "need --rtl" "$gasim" --tag-bits "$tb" --mlb "$mlb" --trace "$trace" --wave 3:9 --wave-file "$out/r.fst"

if [ $fail -ne 0 ]; then
    echo "rtl-wave: $fail of $((pass + fail)) checks FAILED (files: $out)"
    exit 1
fi
echo "rtl-wave: all $pass checks passed: gasim --rtl --wave dumps exactly the window's requests ($cfg-fst), refuses bad windows"
