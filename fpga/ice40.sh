#!/usr/bin/env bash
# One iCE40 build (docs/fpga.md §5): PLL, synthesis, place and route, bitstream, report.
#
#   ice40.sh NAME BOARD MHZ "CHPARAMS" OUTDIR
#     BOARD     hx8k (iCE40-HX8K breakout, hx8k-ct256) or icebreaker (iCE40UP5K-SG48)
#     MHZ       the clock to build for: icepll makes the PLL (its achieved frequency is what the core
#               is told and what nextpnr is asked to meet); 12 runs on the oscillator, no PLL
#     CHPARAMS  chparam arguments for the board top (TagBits, MlbEntries, VaKeep, MdKeep, ...)
#   writes OUTDIR/NAME/{ga_pll.v, synth.log, synth.stat, NAME.json, pnr.log, report.json, NAME.asc,
#   NAME.bin} and OUTDIR/NAME/result.txt (key=value: LCs, BRAMs, Fmax, pass/fail, critical path).
#
# Synthesis is Yosys 0.23 synth_ice40 (without -abc9: ABC's &dc2 asserts on ga_mlu in Yosys 0.23's
# berkeley-abc, "Dar_ManRefactor: Assertion ... failed"), with three rounds of `opt_dff -sat` between
# flattening and the coarse stage: they find the flops a narrow build holds at 0 (docs/fpga.md §6)
# before wreduce and alumacc size the arithmetic, so the adders and comparators shrink with them.
set -u
name=$1 board=$2 mhz=$3 params=$4 out=$5
YOSYS=${YOSYS:-yosys}
NEXTPNR=${NEXTPNR:-nextpnr-ice40}
SEED=${FPGA_SEED:-1}                  # nextpnr placer seed (recorded in result.txt)
PNR_OPTS=${FPGA_PNR_OPTS:-}           # extra nextpnr options (recorded in result.txt)
# FPGA_ROUTE_MIN > 0 stops nextpnr after that many minutes (a build that fits at 99.9 % can route for
# far longer than it places). result.txt's routed= then says where it stopped; fmax_mhz is nextpnr's
# estimate after placement if placement had ended, timing is empty, and no bitstream is written.
ROUTE_MIN=${FPGA_ROUTE_MIN:-0}
case "$ROUTE_MIN" in ''|*[!0-9]*) echo "ice40.sh: FPGA_ROUTE_MIN=$ROUTE_MIN: a whole number of minutes" >&2; exit 2 ;; esac
dir="$out/$name"
mkdir -p "$dir"
root=$(cd "$(dirname "$0")/.." && pwd)
case "$board" in
    hx8k) top=ga_board_hx8k; dev="--hx8k --package ct256"; pcf="$root/constraints/hx8k_breakout.pcf"; pllflag="" ;;
    icebreaker) top=ga_board_icebreaker; dev="--up5k --package sg48"; pcf="$root/constraints/icebreaker.pcf"; pllflag="-p" ;;
    *) echo "ice40.sh: unknown board $board" >&2; exit 2 ;;
esac
rtl=""
# rtl/ga_mlu.f (ga_pkg.sv includes ga_isa.svh, which Yosys finds next to it), then the board's files
for f in $(cat "$root/rtl/ga_mlu.f") fpga/rtl/ga_uart_rx.sv \
         fpga/rtl/ga_uart_tx.sv fpga/rtl/ga_board_mem.sv fpga/rtl/ga_board_core.sv fpga/rtl/ga_board_$board.sv; do
    rtl="$rtl $root/$f"
done

# PLL (or none at 12 MHz).
if [ "$mhz" = 12 ]; then
    khz=12000 usepll=0
    echo "// no PLL: the 12 MHz oscillator clocks the design" > "$dir/ga_pll.v"
else
    icepll -i 12 -o "$mhz" $pllflag -m -n ga_pll -f "$dir/ga_pll.v" > "$dir/icepll.log" 2>&1 \
        || { cat "$dir/icepll.log"; exit 1; }
    ach=$(sed -n 's/.*F_PLLOUT: *\([0-9.]*\) MHz (achieved).*/\1/p' "$dir/icepll.log")
    khz=$(awk -v f="$ach" 'BEGIN {printf "%d", f * 1000 + 0.5}')
    usepll=1
fi
fmhz=$(awk -v k="$khz" 'BEGIN {printf "%.3f", k / 1000}')

t0=$(date +%s)
cat > "$dir/synth.ys" <<YS
read_verilog -sv $rtl
read_verilog $dir/ga_pll.v
chparam $params -set ClkKhz $khz -set UsePll $usepll $top
synth_ice40 -top $top -run begin:coarse
proc
opt_expr
opt_clean
opt_dff -sat
opt -full
opt_dff -sat
opt -full
opt_dff -sat
opt -full
synth_ice40 -top $top -run coarse:
tee -q -o $dir/synth.stat stat
write_json $dir/$name.json
YS
# FPGA_REUSE_SYNTH=1: keep an existing netlist (another nextpnr seed, or a rerun of place and route).
if [ "${FPGA_REUSE_SYNTH:-0}" = 1 ] && [ -s "$dir/$name.json" ] && [ -s "$dir/synth.stat" ]; then
    echo "ice40.sh: $name: reusing $dir/$name.json"
elif ! "$YOSYS" -q -l "$dir/synth.log" "$dir/synth.ys" >/dev/null 2>&1; then
    echo "ice40.sh: $name: synthesis failed (log: $dir/synth.log)"; tail -5 "$dir/synth.log"; exit 1
fi
t1=$(date +%s)
luts=$(awk '$1 == "SB_LUT4" {print $2}' "$dir/synth.stat")
ffs=$(awk '$1 ~ /^SB_DFF/ {s += $2} END {print s+0}' "$dir/synth.stat")
brams=$(awk '$1 == "SB_RAM40_4K" {print $2}' "$dir/synth.stat")
carries=$(awk '$1 == "SB_CARRY" {print $2}' "$dir/synth.stat")

# Place and route at the build's clock.
if [ "$ROUTE_MIN" -gt 0 ]; then to=(timeout "${ROUTE_MIN}m"); else to=(); fi
"${to[@]}" "$NEXTPNR" $dev --pcf "$pcf" --json "$dir/$name.json" --asc "$dir/$name.asc" --freq "$fmhz" \
    --timing-allow-fail --report "$dir/report.json" --seed "$SEED" $PNR_OPTS > "$dir/pnr.log" 2>&1
prc=$?
t2=$(date +%s)
lc=$(grep -E 'ICESTORM_LC:' "$dir/pnr.log" | tail -1 | sed 's/^.*ICESTORM_LC: *//')
ram=$(grep -E 'ICESTORM_RAM:' "$dir/pnr.log" | tail -1 | sed 's/^.*ICESTORM_RAM: *//')
fmax=$(grep -E "Max frequency for clock" "$dir/pnr.log" | tail -1 | sed 's/.*: *\([0-9.]*\) MHz.*/\1/')
verdict=$(grep -E "Max frequency for clock" "$dir/pnr.log" | tail -1 | grep -o 'PASS\|FAIL')
# The post-route critical path: its start and end registers and the blocks it crosses (cell names
# cut at their first '_SB_' / '$'), from nextpnr's report.
crit=$(awk '/Critical path report for clock/{f=1; next} /Critical path report for cross-domain/{f=0} f' "$dir/pnr.log" \
       | sed -n 's/^Info: *[0-9.]* *[0-9.]* *\(Source\|Setup\) \([^ ]*\).*/\2/p' \
       | sed 's/_SB_.*//; s/\$.*//; s/_DFFLC.*//; s/_LC\..*//; s/\.[A-Z0-9]*$//' | awk 'NF && $0 != last {printf "%s%s", sep, $0; sep=" > "; last=$0}')
fits=yes
routed=yes
if [ $prc -eq 124 ] && [ ${#to[@]} -gt 0 ]; then
    # nextpnr prints its first Fmax (the estimate after placement) when placement ends
    if grep -q "Max frequency for clock" "$dir/pnr.log"; then routed="stopped after $ROUTE_MIN min"
    else routed="stopped in placement after $ROUTE_MIN min"; fits=unknown; fi
    verdict=""
elif [ $prc -ne 0 ]; then
    fits=no
    grep -E "ERROR|Unable to place|too many" "$dir/pnr.log" | head -3
fi
if [ "$fits" = yes ] && [ "$routed" = yes ]; then
    icepack "$dir/$name.asc" "$dir/$name.bin" || { echo "ice40.sh: icepack failed"; exit 1; }
fi
{
    echo "name=$name"
    echo "board=$board"
    echo "params=$params"
    echo "clock_mhz=$fmhz"
    echo "luts=$luts"
    echo "ffs=$ffs"
    echo "carries=$carries"
    echo "brams=${brams:-0}"
    echo "fits=$fits"
    echo "routed=$routed"
    echo "lc=$lc"
    echo "ram=$ram"
    echo "fmax_mhz=${fmax:-}"
    echo "timing=${verdict:-}"
    echo "seed=$SEED"
    echo "pnr_opts=$PNR_OPTS"
    echo "critical_path=${crit:-}"
    echo "critical_split=$(awk '/Critical path report for clock/{f=1} f && /ns logic, .* ns routing/{print; exit}' "$dir/pnr.log" | sed 's/^Info: *//')"
    echo "synth_s=$((t1 - t0))"
    echo "pnr_s=$((t2 - t1))"
    echo "yosys=$("$YOSYS" -V | head -1)"
    echo "nextpnr=$("$NEXTPNR" --version 2>&1 | head -1)"
} > "$dir/result.txt"
if [ "$routed" = yes ]; then fdesc="Fmax ${fmax:-?} MHz ${verdict:-}"
else fdesc="${fmax:+placement estimate $fmax MHz, }not routed (nextpnr $routed)"; fi
echo "fpga   $name ($board, $fmhz MHz): LUT4 $luts, FF $ffs, BRAM ${brams:-0}; fits: $fits; LC ${lc:-?}; $fdesc"
