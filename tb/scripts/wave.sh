#!/usr/bin/env bash
# Open GTKWave on the last co-simulation waveform with the saved view tb/waves/ga_mlu.gtkw.
#   wave.sh BUILD [FILE.fst]
# Without a display: if xvfb-run is installed, load the view headless (GTKWAVE_HEADLESS=1 or no
# $DISPLAY) to check that every signal of the view resolves, and print the command to use on a
# machine with a display; otherwise print that command only.
set -u
build=${1:-build}
root=$(cd "$(dirname "$0")/../.." && pwd)
fst=${2:-$build/cosim/last.fst}
view="$root/tb/waves/ga_mlu.gtkw"
if [ ! -f "$fst" ]; then
    echo "wave: no waveform at $fst; make one with: make cosim-wave CFG=t7_m8_l32 SEED=1 OPS=200"
    echo "      (a failing make cosim writes $build/cosim/mismatch_<seed>_<op>.fst and last.fst)"
    exit 1
fi
# Fit the view to the waveform's configuration (the saved view names t7_m8_l32's vector ranges).
side="$fst.cfg"
if [ -f "$side" ]; then
    lanes=$(sed -n 's/.*lanes=\([0-9]*\).*/\1/p' "$side")
    mlb=$(sed -n 's/.*mlb=\([0-9]*\).*/\1/p' "$side")
    if [ -n "$lanes" ] && [ -n "$mlb" ] && { [ "$lanes" != 32 ] || [ "$mlb" != 8 ]; }; then
        idx=1
        while [ $((1 << idx)) -lt "$mlb" ]; do idx=$((idx + 1)); done
        fitted=$(mktemp "${TMPDIR:-/tmp}/ga_mlu.XXXXXX.gtkw")
        rng() { [ "$1" -le 1 ] && echo "" || echo "[$(($1 - 1)):0]"; }
        sed -e "s/\(req_active_i\|rsp_fault_o\|hw_pend_q\|u_check\.fault_o\)\[31:0\]/\1$(rng "$lanes")/" \
            -e "s/\(req_addr_i\|rsp_addr_o\)\[2047:0\]/\1[$((64 * lanes - 1)):0]/" \
            -e "s/u_mlb\.valid_q\[7:0\]/u_mlb.valid_q$(rng "$mlb")/" \
            -e "s/u_mlb\.age_q\[23:0\]/u_mlb.age_q[$((mlb * idx - 1)):0]/" \
            -e "s/u_mlb\.loc_q\[511:0\]/u_mlb.loc_q[$((64 * mlb - 1)):0]/" "$view" >"$fitted"
        view=$fitted
    fi
fi
cmd="gtkwave $fst $view"
if [ -n "${DISPLAY:-}" ] && [ "${GTKWAVE_HEADLESS:-0}" != 1 ]; then
    exec gtkwave "$fst" "$view"
fi
if ! command -v xvfb-run >/dev/null 2>&1; then
    echo "wave: no display (and no xvfb-run for a headless check). On a machine with a display run:"
    echo "  $cmd"
    exit 0
fi
tcl=$(mktemp "${TMPDIR:-/tmp}/gawave.XXXXXX.tcl")
trap 'rm -f "$tcl"' EXIT   # a fitted view is kept: the printed command uses it
cat >"$tcl" <<'TCL'
set n [gtkwave::getDisplayedSignals]
puts "wave: view loaded headless, [llength $n] traces displayed"
gtkwave::/File/Quit
TCL
out=$(timeout 60 xvfb-run -a gtkwave -S "$tcl" "$fst" "$view" 2>&1)
printf '%s\n' "$out" | grep -E '^wave:|No symbol|not found' | head -20
echo "wave: on a machine with a display run:"
echo "  $cmd"
