#!/usr/bin/env bash
# Mutation demonstration: copy rtl/ to a temporary directory, apply one deliberate bug at a time, build
# one configuration from the copy and show that the lockstep co-simulation fails on it. rtl/ itself is
# never touched (every mutation works on its own copy, removed at the end).
#
#   mutate.sh BUILD        (make cosim-mutant; MUTANT_ONLY=REGEX runs the mutants whose name matches;
#                          MUTANT_APPLY_ONLY=1 only checks that every substitution still applies)
#
# Each mutation is a Perl substitution that must match in the named file; one that no longer matches
# (the RTL changed) is reported as "not applicable" and fails the demo, so the list is kept current.
set -u
build=${1:-build}
ops=${MUTANT_OPS:-4000}
root=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ga_mutant.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# name | configuration | file | perl substitution | what it breaks [| requests per layout, default
# MUTANT_OPS: for a bug that only a rare directed burst exposes]
mutations=(
  "bounds_lt_le|t7_m8_l32|ga_check.sv|s/assign g_lt  = \(g_off < esize_l\);/assign g_lt  = (g_off <= esize_l);/|the range compare off < size of M3 / G6 becomes off <= size: a lane one past the end is grouped with the allocation (HWOnly, spec §5.4)"
  "bounds_size|t7_m8_l1|ga_check.sv|s/\(acc_bytes <= esize_l - g_off\)/(acc_bytes < esize_l - g_off)/|G6 S <= size - off becomes S < size - off: an access ending on the last byte fails"
  "lru_touch_skipped|t7_m8_l1|ga_mlb.sv|s/(MLB_TOUCH: begin\s*\n\s*do_touch = )1'b1;/\${1}1'b0;/|an MLB hit no longer makes its entry most recently used (spec §6.2)"
  "dirty_ignored|t16_m16_l1|ga_mlu.sv|s/if \(sl_dirty_q\) begin/if (1'b0) begin/g|a fill racing an invalidation is not dropped (spec §6.5): stale entries stay in the MLB"
  "shared_top|t16_m8_l32|ga_check.sv|s/33'h1_0000_0000 - \{1'b0, s_a\}/33'h0_FFFF_FFFF - {1'b0, s_a}/|MEMCHECK.S a + S <= 2^32 becomes a + S < 2^32: an access ending at the top of shared memory fails"
  "exc_sm_live|t7_m8_l1|ga_mlu.sv|s/r_sm    = sl_q\.sm;/r_sm    = sm_q;/g|the record of a MEMCHECK.G miss or an HWOnly access takes SM_ID from the live register, not the value at acceptance (spec §8; issue 13)"
  "bst_eq_left|t7_m8_l1|ga_walker.sv|s/!\(p_va < rsp_ebase\)\) \? rsp_p1/(p_va > rsp_ebase)) ? rsp_p1/|a BST walk turns left when va(p) equals a non-covering node's base (spec §3.3: right on va >= base); seen only on corrupt BSTs with a size-0 entry and left != right (issue 13)|20000"
  "table_root_unaligned|t16_m16_l1|ga_walker.sv|s/end else if \(root_q\[3:0\] != 4'd0\) begin/end else if (1'b0) begin/|a TABLE walk with a misaligned ROOT reads ROOT + 16 i instead of failing closed (spec §3.3)"
  "halt_policy_live|t7_m8_l32|ga_mlu.sv|s/r_policy = sl_q\.policy;/r_policy = policy_q;/g|the halt of a MEMCHECK.G miss or an HWOnly access is decided by the live POLICY, not the value at acceptance (spec §8; issue 13)"
  "index_count_le|t7_m8_l1|ga_walker.sv|s/8'\(i\) < cnt_c/8'(i) <= cnt_c/|an INDEX node's key[c] (beyond count, zero) is compared too: j may name an unused ref (spec §3.3 step 6)"
  "index_beat_err|t16_m16_l1|ga_walker.sv|s/berr_d = 1'b1;/berr_d = rsp_last;/|an error on beat 0, 1 or 2 of a 128-byte INDEX node read is ignored (only the last beat's counts)"
  "index_kind_unchecked|t7_m8_l1|ga_walker.sv|s/\(mem_rsp_data_i\[15:8\] > 8'd1\)/(1'b0)/|an INDEX node with kind > 1 is not refused (spec §3.3 step 4: FAULT)"
  "hw_freed_kind|t7_m8_l32|ga_mlu_hwseq.sv|s/c_kind  = ga_pkg::EXC_NO_METADATA;/c_kind  = ga_pkg::EXC_METADATA_FAULT;/|an HWOnly leader with the freed tag F fails with METADATA_FAULT instead of NO_METADATA (spec §5.4)"
  "index_slot_no_limit|t7_m8_l1|ga_walker.sv|s/end else if \(steps_q == limit_q\) begin/end else if (kind_in_d \&\& steps_q == limit_q) begin/|an INDEX leaf reads its slot even when STEP_LIMIT reads were made (spec §3.3 step 9)|20000"
  "check_go_early|t7_m8_l1_rc|ga_mlu.sv|s/assign chk_go = \(chk_ph_q == ChkW'\(ChkLat\)\);/assign chk_go = (chk_ph_q == ChkW'(ChkLat - 1));/|RegCheck 3: the check's users act one cycle before its registers hold their inputs' result (a response or a leader step from the previous user's check)"
  "ram_copy_field|t7_m8_l1_rc|ga_mlb.sv|s/ram_loc\[fill_idx_o\]  <= upd_loc_i;/ram_loc[fill_idx_o]  <= upd_tb_i;/|ReadForm 1: a FILL writes the entry's tagged base into the location copy, so a range hit returns a wrong location (the MLB's registers, which the comparators read, stay right)"
  "inv_port_walker|t16_m8_l1_rc1|ga_mlu.sv|s/assign mlb_inv_loc  = a_md;/assign mlb_inv_loc  = w_loc;/|FillPort 1 and 2: the MLB's INVAL port reads the walker's last location instead of the INVALIDATE's md, so a freed entry stays in the MLB (spec §6.4)"
  "fp2_no_settle|t7_m8_l1_fp2|ga_mlu.sv|s/    assign w_settled = w_settle_q;/    assign w_settled = ~(w_settle_q & ~w_settle_q);/|FillPort 2: a walker result is taken in its first cycle, when the MLB's registered fill compares are those of the location before, so a FILL can choose a victim by the wrong location (two entries for one location, or a live entry overwritten)"
  "fp4_settle|t7_m8_l1_fp4|ga_mlu.sv|s/w_done \&\& !w_ack \&\& \(FillPort < 4 .*MLB_NONE\);/w_done \&\& !w_ack;/|FillPort 4: a walker result settles over a cycle in which the accept stage commands the MLB (a TOUCH moves the ages, an INVAL frees an entry), so the FILL writes the victim registered before that command"
  "fp3_inv_rng|t7_m16_l1_fp3|ga_mlu.sv|s/            mlb_idx    = a_loc_idx;   /            mlb_idx    = a_rng_idx;   /|FillPort 3: an INVAL names the entry of the range lookup of the request's address instead of the one the location lookup of its md found, so the freed entry stays in the MLB and another is lost (spec §6.4)"
  "lane_strip_walk|t7_m8_l1_rc|ga_mlu.sv|s/sl_hw_iter \x7c\x7c sl_hw_walk\);/sl_hw_iter);/|RegCheck 3: the response's lane addresses load 0 when an HWOnly access ends with a leader's walk (the shallow lane load of ga_mlu_rsp LaneLoad 1 forgets a case)"
  "cl_lat_short|t7_m8_l4_cl|ga_mlu.sv|s/localparam int ChkLat = RegCheck \+ \(\(CheckLanes > 0\) \? Lanes \/ CheckLanes - 1 : 0\);/localparam int ChkLat = RegCheck;/|CheckLanes: the check's users wait RegCheck cycles only, not for the beats after the first (a verdict of a lane not yet checked with the held inputs is used)"
  "cl_beat_shift|t7_m8_l4_cl|ga_check.sv|s/      sb_q       <= b_q;/      sb_q       <= b_q + BeatW'(1);/|CheckLanes: a beat's verdicts are written into the next beat's lanes"
)

if [ -z "${MUTANT_APPLY_ONLY:-}" ]; then
    printf 'mutation demo: %s random requests per layout and mutant; RTL copies under %s\n' "$ops" "$tmp"
    echo "The runs use --no-assert, so what catches a mutant is the lockstep comparison alone; each"
    echo "configuration is first run unmutated (the control), which must pass."
fi
caught=0 total=0 bad=0
run3() { # $1 binary, $2 requests per layout: runs the three layouts, prints per layout, sets $result
    result=MISSED
    for l in $(bash "$root/scripts/layouts.sh" --rtl); do
        # --cfg-live: configuration writes while misses are in flight, whatever the seed draws
        out=$("$1" --seed 5 --layout "$l" --ops "$2" --max-print 3 --no-assert --cfg-live 2>&1)
        if [ $? -ne 0 ]; then
            result=CAUGHT
            n=$(printf '%s\n' "$out" | sed -n 's/^  mismatches \([0-9]*\)/\1/p')
            printf '     %-5s: %s mismatches; first:\n' "$l" "$n"
            printf '%s\n' "$out" | grep -m 2 '^MISMATCH' | sed 's/^/       /'
        else
            printf '     %-5s: passed\n' "$l"
        fi
    done
}
declare -A control=()
if [ -n "${MUTANT_ONLY:-}" ]; then
    sel=()
    for m in "${mutations[@]}"; do [[ ${m%%|*} =~ $MUTANT_ONLY ]] && sel+=("$m"); done
    mutations=("${sel[@]}")
fi
for m in "${mutations[@]}"; do
    IFS='|' read -r name cfg _ <<<"$m"
    [ -n "${MUTANT_APPLY_ONLY:-}" ] && break
    [ -n "${control[$cfg]:-}" ] && continue
    control[$cfg]=1
    dir="$tmp/control_$cfg"
    mkdir -p "$dir"
    cp -r "$root/rtl" "$dir/rtl"
    if ! make --no-print-directory -s -C "$root" TB_RTL="$dir/rtl" BUILD="$dir/build" \
         "$dir/build/cosim/$cfg/ga_cosim" >"$dir/build.log" 2>&1; then
        echo "control $cfg: BUILD FAILED"; tail -20 "$dir/build.log"; exit 1
    fi
    echo "---- control: unmutated rtl/, $cfg"
    run3 "$dir/build/cosim/$cfg/ga_cosim" "$ops"
    if [ "$result" != MISSED ]; then echo "control $cfg fails: the demo needs a passing RTL"; bad=$((bad + 1)); fi
done
for m in "${mutations[@]}"; do
    IFS='|' read -r name cfg file subst what mops <<<"$m"
    total=$((total + 1))
    dir="$tmp/$name"
    mkdir -p "$dir"
    cp -r "$root/rtl" "$dir/rtl"
    perl -0pi -e "$subst" "$dir/rtl/$file"
    if cmp -s "$root/rtl/$file" "$dir/rtl/$file"; then
        printf '%-18s NOT APPLICABLE: the pattern no longer matches %s\n' "$name" "$file"
        bad=$((bad + 1))
        continue
    fi
    if [ -n "${MUTANT_APPLY_ONLY:-}" ]; then
        rm -rf "$dir"
        continue
    fi
    echo "---- $name: $what"
    diff -u "$root/rtl/$file" "$dir/rtl/$file" | sed -n '3,$p' | grep '^[-+]' | head -4 | sed 's/^/     /'
    if ! make --no-print-directory -s -C "$root" TB_RTL="$dir/rtl" BUILD="$dir/build" \
         "$dir/build/cosim/$cfg/ga_cosim" >"$dir/build.log" 2>&1; then
        printf '%-18s BUILD FAILED (see below)\n' "$name"
        tail -20 "$dir/build.log"
        bad=$((bad + 1))
        continue
    fi
    echo "     (configuration $cfg, ${mops:-$ops} requests per layout)"
    run3 "$dir/build/cosim/$cfg/ga_cosim" "${mops:-$ops}"
    printf '%-18s %s\n' "$name" "$result"
    [ "$result" = CAUGHT ] && caught=$((caught + 1))
done
if [ -n "${MUTANT_APPLY_ONLY:-}" ]; then
    echo "$(basename "$0"): $((total - bad)) of $total mutants' substitutions apply to the current rtl/ (not run)"
    [ $total -gt 0 ] && [ $bad -eq 0 ]
    exit
fi
echo "mutation demo: $caught of $total mutants caught by the co-simulation (rtl/ unchanged)"
[ $caught -eq $total ] && [ $bad -eq 0 ]
