#!/usr/bin/env bash
# Mutation demonstration of the system co-simulation (make cosim-sys-mutant): copy rtl/, apply one
# deliberate bug to ga_system / ga_arb / ga_req_slice / ga_mlu at a time, build a system configuration
# (s4_t7_m16_l1 unless the mutant names another) from the copy and show that the lockstep run (tb/sys/tb_sys.c,
# assertions off) fails on it. rtl/ itself is never touched.
#
#   mutate_sys.sh [BUILD]      (SYS_MUTANTS="name ..." for some of them; MUTANT_APPLY_ONLY=1 only
#                              checks that every substitution still applies). Every build goes into
#                              a temporary directory (TMPDIR), so BUILD, the make target's argument,
#                              is not read.
set -u
ops=${MUTANT_OPS:-4000}
defcfg=s4_t7_m16_l1
root=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ga_sysmut.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# name | file | perl substitution | what it breaks [| system configuration, if not s4_t7_m16_l1]
mutations=(
  "rsp_misrouted|ga_system.sv|s/mem_rsp_valid_i && mem_rsp_sm_i == SmIdxW'\(s\)/mem_rsp_valid_i \&\& mem_rsp_sm_i == SmIdxW'((s + 1) % NumSms)/|a memory response is delivered to the next SM instead of the one that asked"
  "ack_first_answer|ga_system.sv|s/if \(rt_busy_q && \(&rt_done_d\)\)/if (rt_busy_q \&\& (rt_done_d != '0))/|the runtime command is acknowledged when the first SM answers, not the last (spec §6.6)"
  "rt_skips_last_sm|ga_system.sv|s/rt_pend_d = '1;/rt_pend_d = {1'b0, {(NumSms-1){1'b1}}};/;s/rt_done_d = '0;/rt_done_d = {1'b1, {(NumSms-1){1'b0}}};/|the runtime command never reaches the last SM (its MLB keeps freed entries)"
  "show_rt_late|ga_system.sv|s/show_rt_q  <= rt_pend_d & ~lsu_hold_d;/show_rt_q  <= rt_pend_q \& ~lsu_hold_d;/|the port mux's select register is loaded from this cycle's pending set, so the runtime command stays on an SM's port for a cycle after that MLU took it"
  "arb_no_lock|ga_arb.sv|s/if \(lock_q\) begin/if (1'b0) begin/|the arbiter changes its grant while the shared port is stalled (payload not held)"
  "sys_fp2_no_settle|ga_mlu.sv|s/    assign w_settled = w_settle_q;/    assign w_settled = ~(w_settle_q \& ~w_settle_q);/|FillPort 2 in every SM (the ECP5 system builds' options): a walker result is taken in its first cycle, when the MLB's registered fill compares are those of the location before|s4_t7_m16_l4_fp"
  "slice_overwrite|ga_req_slice.sv|s/assign in_ready_o  = !full_q \S+ out_ready_i;/assign in_ready_o  = !full_q \x7c\x7c out_ready_i \x7c\x7c in_valid_i;/|ReqSlice 1: the register stage in front of each MLU takes a new request while its own waits, so the waiting one is lost|s4_t7_m16_l4_fs"
  "sys_fp3_inv_rng|ga_mlu.sv|s/            mlb_idx    = a_loc_idx;   /            mlb_idx    = a_rng_idx;   /|FillPort 3 in every SM (the 4-SM board's options): an INVAL names the entry of the range lookup of the request's address instead of the one the location lookup of its md found|s4_t7_m16_l4_f3"
  "sys_lr_now|ga_mlu.sv|s/      assign loc_rd_idx = lk_loc_idx_q;/      assign loc_rd_idx = loc_idx;/|ReadForm 2 in every SM (the 4-SM board's options): the accept stage reads the location hit's copies at the index of this cycle's lookup (of whatever md is on the closed request port) instead of the one registered at the acceptance|s4_t7_m16_l4_lr"
  "slice_stale|ga_req_slice.sv|s/      pay_q  <= in_pay_i;/      if (!full_q) pay_q <= in_pay_i;/|ReqSlice 1: a request that enters the stage in the cycle the one before it leaves keeps that one's payload|s4_t7_m16_l4_fs"
)
run3() {
    result=MISSED
    for l in $(bash "$root/scripts/layouts.sh" --rtl); do
        if out=$("$1" --seed 5 --layout "$l" --ops "$ops" --max-print 3 --no-assert 2>&1); then
            printf '     %-5s: passed\n' "$l"
        else
            result=CAUGHT
            printf '     %-5s: %s mismatches; first:\n' "$l" "$(printf '%s\n' "$out" | sed -n 's/^  mismatches \([0-9]*\)/\1/p')"
            printf '%s\n' "$out" | grep -m 2 '^MISMATCH' | sed 's/^/       /'
        fi
    done
}
build_one() { # $1 dir, $2 configuration
    make --no-print-directory -s -C "$root" TB_RTL="$1/rtl" BUILD="$1/build" \
        "$1/build/cosim/sys-$2/ga_syscosim" >"$1/build.log" 2>&1
}
# control CFG: the unmutated rtl/ built as CFG must pass first (once per configuration, in $tmp/control)
control="$tmp/control"
controlled=" "
control() {
    [[ "$controlled" == *" $1 "* ]] && return 0
    echo "---- control: unmutated rtl/, $1"
    mkdir -p "$control"
    [ -d "$control/rtl" ] || cp -r "$root/rtl" "$control/rtl"
    build_one "$control" "$1" || { echo "control: BUILD FAILED"; tail -20 "$control/build.log"; exit 1; }
    run3 "$control/build/cosim/sys-$1/ga_syscosim"
    [ "$result" = MISSED ] || { echo "the control fails: the demo needs a passing RTL"; exit 1; }
    controlled="$controlled$1 "
}
caught=0 total=0 bad=0
for m in "${mutations[@]}"; do
    IFS='|' read -r name file subst what cfg <<<"$m"
    cfg=${cfg:-$defcfg}
    # SYS_MUTANTS="a b": only those
    if [ -n "${SYS_MUTANTS:-}" ] && [[ " $SYS_MUTANTS " != *" $name "* ]]; then continue; fi
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
    control "$cfg"
    echo "---- $name ($cfg): $what"
    diff -u "$root/rtl/$file" "$dir/rtl/$file" | sed -n '3,$p' | grep '^[-+]' | head -4 | sed 's/^/     /'
    # the control's model library and harness objects are reused (only rtl/ differs)
    mkdir -p "$dir/build"
    cp -r "$control/build/rel" "$control/build/tb" "$dir/build/" 2>/dev/null
    if ! build_one "$dir" "$cfg"; then
        printf '%-18s BUILD FAILED\n' "$name"; tail -20 "$dir/build.log"; bad=$((bad + 1)); continue
    fi
    run3 "$dir/build/cosim/sys-$cfg/ga_syscosim"
    printf '%-18s %s\n' "$name" "$result"
    [ "$result" = CAUGHT ] && caught=$((caught + 1))
done
if [ -n "${MUTANT_APPLY_ONLY:-}" ]; then
    echo "$(basename "$0"): $((total - bad)) of $total mutants' substitutions apply to the current rtl/ (not run)"
    [ $total -gt 0 ] && [ $bad -eq 0 ]
    exit
fi
echo "system mutation demo: $caught of $total mutants caught by the system co-simulation (rtl/ unchanged)"
[ $caught -eq $total ] && [ $bad -eq 0 ]
