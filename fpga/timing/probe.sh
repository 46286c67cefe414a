#!/usr/bin/env bash
# Timing probe (docs/fpga.md §5.3): place and route one block alone between registers on the HX8K and
# report nextpnr's Fmax and critical path.
#   probe.sh NAME TOP "CHPARAMS" OUTDIR      TOP: ga_tim_mlb or ga_tim_check
set -u
name=$1 top=$2 params=$3 out=$4
root=$(cd "$(dirname "$0")/../.." && pwd)
dir="$out/$name"
mkdir -p "$dir"
printf 'set_io clk_i J3\nset_io out_o B5\n' > "$dir/probe.pcf"
# The files of rtl/ga_mlu.f that the probes use: the package (with its generated ga_isa.svh) and the
# two blocks; ga_walker.sv and the ga_mlu*.sv files are read too, unused by the probe tops.
srcs=$(sed "s#^#$root/#" "$root/rtl/ga_mlu.f" | tr '\n' ' ')
cat > "$dir/synth.ys" <<YS
read_verilog -sv $srcs $root/fpga/timing/$top.sv
chparam $params $top
synth_ice40 -top $top -run begin:coarse
proc
opt_expr
opt_clean
opt_dff -sat
opt -full
synth_ice40 -top $top -run coarse:
tee -q -o $dir/synth.stat stat
write_json $dir/$name.json
YS
${YOSYS:-yosys} -q -l "$dir/synth.log" "$dir/synth.ys" >/dev/null 2>&1 || { echo "probe.sh: $name: synthesis failed"; exit 1; }
${NEXTPNR:-nextpnr-ice40} --hx8k --package ct256 --pcf "$dir/probe.pcf" --json "$dir/$name.json" \
    --freq 40 --timing-allow-fail --seed 1 > "$dir/pnr.log" 2>&1 || { echo "probe.sh: $name: place and route failed"; exit 1; }
fmax=$(grep -E "Max frequency for clock" "$dir/pnr.log" | tail -1 | sed 's/.*: *\([0-9.]*\) MHz.*/\1/')
lc=$(grep -E 'ICESTORM_LC:' "$dir/pnr.log" | tail -1 | sed 's/^.*ICESTORM_LC: *//')
{ echo "name=$name"; echo "top=$top"; echo "params=$params"; echo "fmax_mhz=$fmax"; echo "lc=$lc"; } > "$dir/result.txt"
echo "probe  $name: Fmax $fmax MHz, LC $lc"
