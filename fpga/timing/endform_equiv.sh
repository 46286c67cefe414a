#!/usr/bin/env bash
# make fpga-equiv (docs/fpga.md §5.4): prove that EndForm = 1 computes the same functions as EndForm = 0.
#   ga_check: a miter of the two forms (every output, Lanes 2), SAT proof for TagBits 7 and 16.
#   ga_mlb, ga_walker: equivalence of the two forms as sequential circuits (equiv_make /
#             equiv_simple / equiv_induct over the matched registers; ga_mlb with Entries 4),
#             TagBits 7 and 16.
# Each proof is followed by a mutant of EndForm = 1 (<= turned into <) that must be caught.
# MUTANT_APPLY_ONLY=1: only check that the three mutants' substitutions still change their files
# (make mutants-apply, in rtl-check), no proof.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:-$root/build/fpga/equiv}
mkdir -p "$out"
YOSYS=${YOSYS:-yosys}
fail=0
# The package and ga_first_one.sv (used by ga_check and ga_mlb): the first two files of rtl/ga_mlu.f
# (ga_pkg.sv includes the generated ga_isa.svh, found next to it); each proof reads them with the one
# block it compares.
pkg="$(head -n 2 "$root/rtl/ga_mlu.f" | sed "s#^#$root/#" | tr '\n' ' ')"

cat > "$out/eqc.sv" <<'SV'
module eqc #(parameter int TagBits = 7, parameter int Lanes = 2) (
  input logic shared_i, group_i, input logic [Lanes-1:0] active_i, input logic [64*Lanes-1:0] addr_i,
  input logic [2:0] size_i, input logic [1:0] md_state_i, input logic [63:0] etb_i, esize_i, output logic ok);
  logic [64*Lanes-1:0] s0, s1; logic [Lanes-1:0] m0, m1, f0, f1; logic v0, v1; logic [4:0] l0, l1;
  logic [2:0] k0, k1; logic [63:0] a0, a1;
  ga_check #(.TagBits(TagBits), .Lanes(Lanes), .EndForm(0)) u0 (.shared_i, .group_i, .active_i, .addr_i,
    .size_i, .md_state_i, .etb_i, .esize_i, .strip_o(s0), .match_o(m0), .fault_o(f0), .first_valid_o(v0),
    .first_lane_o(l0), .first_kind_o(k0), .first_addr_o(a0));
  ga_check #(.TagBits(TagBits), .Lanes(Lanes), .EndForm(1)) u1 (.shared_i, .group_i, .active_i, .addr_i,
    .size_i, .md_state_i, .etb_i, .esize_i, .strip_o(s1), .match_o(m1), .fault_o(f1), .first_valid_o(v1),
    .first_lane_o(l1), .first_kind_o(k1), .first_addr_o(a1));
  assign ok = (s0 == s1) && (m0 == m1) && (f0 == f1) && (v0 == v1) && (l0 == l1) && (k0 == k1) && (a0 == a1);
endmodule
SV

check_proof() { # name, check file, mlb file, walker file, expect (pass|fail)
    local name=$1 chk=$2 mlb=$3 wlk=$4 expect=$5 t rc res m
    for t in 7 16; do
        "$YOSYS" -q -l "$out/$name-check-t$t.log" -p "read_verilog -sv $pkg $chk $out/eqc.sv;
            chparam -set TagBits $t -set Lanes 2 eqc; prep -flatten -top eqc; sat -prove ok 1 -verify" >/dev/null 2>&1
        rc=$?; res=$([ $rc -eq 0 ] && echo pass || echo fail)
        printf 'equiv  %-7s %-9s TagBits %-2s: %s\n' "$name" ga_check "$t" "$([ $res = pass ] && echo proved || echo 'not proved')"
        [ "$res" = "$expect" ] || fail=1
        for m in mlb walker; do
            local src=$mlb par="-set Entries 4"
            [ $m = walker ] && { src=$wlk; par=""; }
            cat > "$out/$name-$m-t$t.ys" <<YS
read_verilog -sv $pkg $root/rtl/ga_$m.sv
chparam $par -set TagBits $t -set EndForm 0 ga_$m
prep -flatten -top ga_$m
rename ga_$m gold
design -stash gold
read_verilog -sv $pkg $src
chparam $par -set TagBits $t -set EndForm 1 ga_$m
prep -flatten -top ga_$m
rename ga_$m gate
design -stash gate
design -copy-from gold -as gold gold
design -copy-from gate -as gate gate
async2sync
equiv_make gold gate equiv
hierarchy -top equiv
equiv_simple -undef
equiv_induct -undef
equiv_status -assert
YS
            "$YOSYS" -q -l "$out/$name-$m-t$t.log" "$out/$name-$m-t$t.ys" >/dev/null 2>&1
            rc=$?; res=$([ $rc -eq 0 ] && echo pass || echo fail)
            printf 'equiv  %-7s %-9s TagBits %-2s: %s\n' "$name" "ga_$m" "$t" "$([ $res = pass ] && echo proved || echo 'not proved')"
            [ "$res" = "$expect" ] || fail=1
        done
    done
}

sed 's/(g_vas <= g_end)/(g_vas < g_end)/' "$root/rtl/ga_check.sv" > "$out/mut_check.sv"
sed 's/({1.b0, rng_va} < end_bound(/({1'"'"'b0, rng_va} <= end_bound(/' "$root/rtl/ga_mlb.sv" > "$out/mut_mlb.sv"
sed 's/({1.b0, p_va} < ({1.b0, rsp_ebase}/({1'"'"'b0, p_va} <= ({1'"'"'b0, rsp_ebase}/' "$root/rtl/ga_walker.sv" > "$out/mut_walker.sv"
applied=1
for m in check mlb walker; do
    if cmp -s "$out/mut_$m.sv" "$root/rtl/ga_$m.sv"; then
        echo "fpga-equiv: the mutant of ga_$m.sv did not apply (its text moved: update the sed above)"; applied=0
    fi
done
if [ -n "${MUTANT_APPLY_ONLY:-}" ]; then
    [ $applied -eq 1 ] && echo "fpga-equiv: 3 of 3 mutants' substitutions apply to the current rtl/ (not run)"
    [ $applied -eq 1 ]; exit
fi
check_proof endform "$root/rtl/ga_check.sv" "$root/rtl/ga_mlb.sv" "$root/rtl/ga_walker.sv" pass
if [ $applied -eq 0 ]; then
    fail=1
else
    check_proof mutant "$out/mut_check.sv" "$out/mut_mlb.sv" "$out/mut_walker.sv" fail
fi
[ $fail -eq 0 ] && echo "fpga-equiv: EndForm 1 = EndForm 0 (ga_check, ga_mlb, ga_walker); mutants caught" || { echo "fpga-equiv: FAILED"; exit 1; }
