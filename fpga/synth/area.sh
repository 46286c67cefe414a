#!/usr/bin/env bash
# One technology-independent area run (docs/area.md, "Method"): Yosys generic synthesis of one block
# at one parameter set, then a transistor estimate and the longest logic path.
#
#   area.sh NAME TOP "PARAMS" OUTDIR [RTL files...]      (default: the files of rtl/ga_mlu.f)
#     PARAMS  chparam arguments, e.g. "-set TagBits 7 -set MlbEntries 8 -set Lanes 1"
#   writes OUTDIR/NAME.res (key=value lines, read by report.py) and OUTDIR/NAME.log
#
# Flow (Yosys 0.23):
#   synth -flatten -top TOP                    generic cells ($_AND_, $_MUX_, $_DFFE_PN0P_, ...) and flops
#   chtype  async-reset flops -> sync-reset    stat -tech cmos only costs $_DFF_P_/$_DFF_N_ flops; the
#                                               reset becomes a gate on D (costed like the extra gates of
#                                               an asynchronously resettable flop)
#   dfflegalize -cell $_DFF_P_ 01              enables and resets become logic in front of a plain DFF
#   abc -g cmos2                                NAND2 / NOR2 / NOT only
#   stat -tech cmos                             transistors (NAND2 = NOR2 = 4, NOT = 2, DFF = 16)
#   ltp -noff                                   longest register-to-register (or port) path in those gates
set -u
name=$1 top=$2 params=$3 out=$4
shift 4
root=$(cd "$(dirname "$0")/../.." && pwd)
[ $# -gt 0 ] || set -- $(sed "s#^#$root/#" "$root/rtl/ga_mlu.f")
# The generated encodings that ga_pkg.sv includes (Yosys finds them next to it) are part of the RTL a
# run read, so they are part of its hash.
hashed=("$@")
for f in "$@"; do
    [ "$(basename "$f")" = ga_pkg.sv ] && [ -f "$(dirname "$f")/ga_isa.svh" ] && hashed+=("$(dirname "$f")/ga_isa.svh")
done
YOSYS=${YOSYS:-yosys}
mkdir -p "$out"
tmp="$out/$name.tmp"
[ -n "${KEEP_TMP:-}" ] || rm -rf "$tmp"
mkdir -p "$tmp"
cat >"$tmp/area.ys" <<YS
read_verilog -sv $*
chparam $params $top
synth -flatten -top $top
select -assert-none t:*latch* t:*LATCH*
tee -q -o $tmp/gen.stat stat
chtype -map \$_DFF_PN0_ \$_SDFF_PN0_ -map \$_DFF_PN1_ \$_SDFF_PN1_ -map \$_DFFE_PN0P_ \$_SDFFE_PN0P_ -map \$_DFFE_PN1P_ \$_SDFFE_PN1P_
dfflegalize -cell \$_DFF_P_ 01
abc -g cmos2
tee -q -o $tmp/cmos.stat stat -tech cmos
tee -q -o $tmp/ltp.txt ltp -noff
YS
t0=$(date +%s)
if ! "$YOSYS" -q -l "$out/$name.log" "$tmp/area.ys" >/dev/null 2>&1; then
    echo "area.sh: $name: yosys failed (log: $out/$name.log)" >&2
    tail -5 "$out/$name.log" >&2
    exit 1
fi
t1=$(date +%s)
cells=$(awk '/Number of cells:/ {n=$4} END {print n}' "$tmp/gen.stat")
ffs=$(awk '$1 ~ /DFF/ {s += $2} END {print s+0}' "$tmp/gen.stat")
cmos_cells=$(awk '/Number of cells:/ {n=$4} END {print n}' "$tmp/cmos.stat")
trans=$(awk '/Estimated number of transistors:/ {n=$5} END {print n}' "$tmp/cmos.stat")
levels=$(sed -n 's/.*Longest topological path in .* (length=\([0-9]*\)).*/\1/p' "$tmp/ltp.txt" | tail -1)
# Path endpoints: the names on ltp's first and last lines ("0: NAME", "N: NAME (via ...)" or
# "ff: NAME (via ...)"), without ABC's "$abc$<n>$" prefix.
ltp_name() { sed -E 's/^ *([0-9]+|ff): //; s/ \(via .*//; s/^\$abc\$[0-9]+\$//; s/^\\//; s/ \[/[/' ; }
pfrom=$(grep -E '^ *0: ' "$tmp/ltp.txt" | head -1 | ltp_name)
pto=$(grep -E '^ *([0-9]+|ff): ' "$tmp/ltp.txt" | tail -1 | ltp_name)
if ! grep -q "cannot" "$out/$name.log" && [ -n "$trans" ] && [ -n "$levels" ]; then :; else
    echo "area.sh: $name: incomplete results (log: $out/$name.log)" >&2
    exit 1
fi
{
    echo "name=$name"
    echo "top=$top"
    echo "params=$params"
    echo "cells=$cells"
    echo "ffs=$ffs"
    echo "cmos_cells=$cmos_cells"
    echo "transistors=$trans"
    echo "levels=$levels"
    echo "path_from=$pfrom"
    echo "path_to=$pto"
    echo "seconds=$((t1 - t0))"
    echo "yosys=$("$YOSYS" -V | head -1)"
    echo "rtl_sha=$(cat "${hashed[@]}" | sha256sum | cut -c1-12)"
} >"$out/$name.res.new"
mv "$out/$name.res.new" "$out/$name.res"
[ -n "${KEEP_TMP:-}" ] || rm -rf "$tmp"
echo "area   $name: $cells cells, $ffs flops, $trans transistors, $levels levels ($((t1 - t0)) s)"
