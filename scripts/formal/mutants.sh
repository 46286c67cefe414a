#!/usr/bin/env bash
# Formal mutation check (make formal-mutants): each mutant is a deliberate bug put into a copy of
# rtl/ with sed; the formal job named for it must FAIL and leave a counterexample VCD. A mutant that
# passes, or a sed that changes nothing (the RTL moved under it), fails this script.
#
#   mutants.sh [NAME ...]      every mutant, or only the NAMEs given
#   MUTANT_APPLY_ONLY=1 mutants.sh   only check that every sed still changes its file and names a job
#                                    (no solver; make mutants-apply, in make test)
#
# Output: $FV_OUT (default build/formal/mutants)/<mutant>/{rtl/,<job>/cex.vcd, ...}.
# Open a counterexample with: gtkwave build/formal/mutants/<mutant>/<job>/cex.vcd
set -u
# The whole script is one block, parsed before it runs: editing this file (its mutant list) while a
# run is going on cannot change that run.
{
here=$(cd "$(dirname "$0")" && pwd)
out=${FV_OUT:-build/formal/mutants}
jobs_file=$here/jobs.txt
want=" $* "

# NAME|FILE|JOB[@DEPTH]|SED SCRIPT|WHAT   (@DEPTH: a deeper BMC than the CI job's, B/K, so that the
# bug shows as a trace from reset instead of only an induction failure)
# (the sed scripts use address ranges so that each touches only the line it is meant for)
mutants() {
cat <<'LIST'
check_lt_le|ga_check.sv|check_t7_l1|s/assign g_lt  = (g_off < esize_l);/assign g_lt  = (g_off <= esize_l);/|G6/M3 bound: off < size becomes off <= size (one byte past the end passes)
check_no_tag|ga_check.sv|check_t7_l1|s/end else if (t != etag) begin/end else if (1'b0) begin/|G5 dropped: the pointer's tag is not compared with the entry's
check_no_vatop|ga_check.sv|check_t16_l1|s/ \&\& (acc_bytes <= VaTop - va);/;/|G6 without its top-of-VA-space term
check_cl_beat|ga_check.sv|check_pipe_cl_t7_l2|s/      sb_q       <= b_q;/      sb_q       <= b_q + BeatW'(1);/|CheckLanes: a beat's verdicts are written into the next beat's lanes
check_cl_hold|ga_check.sv|check_pipe_cl3_t7_l2|s/      b_q        <= b_q + BeatW'(1);/      b_q        <= b_q + BeatW'(b_q == '0);/|CheckLanes: the beat counter stays a cycle longer on beats other than 0 (some lane is not checked within the window)
mlb_lt_le|ga_mlb.sv|mlb8_lookup|s/assign covers = (rng_va >= ebase) \&\& (off < size_q\[i\*64 +: 64\]);/assign covers = (rng_va >= ebase) \&\& (off <= size_q[i*64 +: 64]);/|MLB range match: off < size becomes off <= size
mlb_no_tag|ga_mlb.sv|mlb8_lookup|s/\&\& (tb_q\[i\*64 + V +: TagBits\] == rng_tag) \&\& covers;/\&\& covers;/|MLB range match without the tag compare (M2)
mlb_end2_le|ga_mlb.sv|mlb4_lookup_e2|s/({1'b0, rng_va} < end_q\[i\*65 +: 65\]);/({1'b0, rng_va} <= end_q[i*65 +: 65]);/|EndForm 2: the range match against the stored end bound takes va = base + size (one byte past the end hits)
mlb_end2_store|ga_mlb.sv|mlb4_inv_e2|s/assign upd_end = end_bound(upd_tb_i\[V-1:0\], upd_size_i);/assign upd_end = {1'b0, upd_tb_i} + {1'b0, upd_size_i};/|EndForm 2: the stored end bound is computed from the tagged base (the tag not masked off)
mlb_rd_write_field|ga_mlb.sv|mlb4_inv_e2|s/ram_size\[fill_idx_o\] <= upd_size_i;/ram_size[fill_idx_o] <= upd_tb_i;/|ReadForm 1: a FILL writes the wrong field into the size copy (the range and location hits return a wrong size)
mlb_rd_read_port|ga_mlb.sv|mlb4_lookup_e2|s/assign rng_loc_o  = {64{rng_hit_o}} \& ram_loc\[rng_idx_o\];/assign rng_loc_o  = {64{rng_hit_o}} \& ram_loc[loc_idx_o];/|ReadForm 1: the range hit's location is read at the location lookup's index
mlb_rd_no_gate|ga_mlb.sv|mlb4_lookup_e2|s/assign loc_tb_o   = {64{loc_hit_o}} \& ram_tb\[loc_idx_o\];/assign loc_tb_o   = ram_tb[loc_idx_o];/|ReadForm 1: a location miss returns entry 0's copy instead of zeros
mlb_fp4_stale|ga_mlb.sv|mlb4_fp4|s/      vic_q <= victim_now;/      if (upd_op_i == ga_pkg::MLB_FILL) vic_q <= victim_now;/|FillPort 4: the registered victim is loaded only at a FILL, so the next FILL writes the entry chosen for the last
mlu_fp4_settle|ga_mlu.sv|mlu_safety_fp4@16/4|s/w_done \&\& !w_ack \&\& (FillPort < 4 .*MLB_NONE);/w_done \&\& !w_ack;/|FillPort 4: a walker result settles over a cycle with an MLB command (a TOUCH or INVAL of the accept stage), so the victim registered then is stale at the FILL
mlb_rd2_now|ga_mlb.sv|mlb4_lookup_r2|s/      assign loc_tb_o   = ram_tb\[loc_rd_idx_i\];/      assign loc_tb_o   = ram_tb[loc_idx_o];/|ReadForm 2: the location fields are read at this cycle's hit index instead of the entry the top names
mlb_rd_highest|ga_mlb.sv|mlb4_lookup_e2|s/    for (int i = Entries - 1; i >= 0; i--) begin/    for (int i = 0; i < Entries; i++) begin/|ReadForm 1: the range hit's priority encoder takes the highest matching entry instead of the lowest (spec 6.2)
mlb_lru_skip|ga_mlb.sv|mlb8_next|/ga_pkg::MLB_TOUCH: begin/,/end/s/do_touch = 1'b1;/do_touch = 1'b0;/|LRU update skipped on a hit (TOUCH)
mlb_inval_one|ga_mlb.sv|mlb8_next|s/valid_d = valid_q \& ~inv_match;/valid_d = valid_q \& ~(inv_match \& ~(Entries'(1) << (Entries - 1)));/|INVAL ignores the last entry
mlb_inval_fill_port|ga_mlb.sv|mlb4_next_fp|s/valid_d = valid_q \& ~inv_match;/valid_d = valid_q \& ~upd_match;/|FillPort 1: INVAL takes its location from the FILL port (upd_loc_i) instead of its own (inv_loc_i)
mlb_fill_dup|ga_mlb.sv|mlb8_inv@4/1|s/if (.upd_match) begin/if (1'b0) begin/|fill ignores the same-location rule (a location held twice)
mlb_age_oh_keep|ga_mlb.sv|mlb8_inv_age@4/1|s/end else if (touch_younger\[i\]) begin/end else if (1'b0) begin/|AgeForm 1: a touch or fill does not age the entries younger than the touched one
walker_no_limit|ga_walker.sv|walker_t7@16/4|s/end else if (steps == limit) begin/end else if (1'b0) begin/|walker without its step limit
walker_rsp_err|ga_walker.sv|walker_t7@16/4|/W_MEM_WAIT: begin/,/end else if/s/if (mem_rsp_err_i) begin/if (1'b0) begin/|walker ignores an error response (FOUND on a failed read)
index_count_le|ga_walker.sv|walker_ix_keys@9/2|s/8'(i) < cnt_c/8'(i) <= cnt_c/|an INDEX node's key[c] (beyond count) is compared too: j may name an unused ref (spec 3.3 step 6; the cosim mutant of tb/scripts/mutate.sh; issue 13)
index_key_lt|ga_walker.sv|walker_ix_keys@9/2|s/ +: 64] <= p_va) begin/ +: 64] < p_va) begin/|an INDEX key equal to va(p) does not select its ref (key[i] <= va becomes key[i] < va; spec 3.3 equal keys; issue 13)
index_ref_jq|ga_walker.sv|walker_ix_keys@9/2|s/if (j_d == 4'(j)) ref_sel/if (j_q == 4'(j)) ref_sel/|the INDEX child or slot is taken from j before the last beat's keys (key[7..10] ignored; issue 13)
index_no_freed|ga_walker.sv|walker_t7@10/4|s/assign ix_none_end    = phase_q /assign ix_none_end    = 1'b1 /;s/assign ix_none_status = phase_q ? /assign ix_none_status = 1'b1 ? /|an INDEX walk's miss in the live index (an empty node, a slot that does not cover) ends NOT_FOUND instead of walking the freed index at ROOT - 128 (spec 1.3, 3.3 None)
mlu_inval_race|ga_mlu.sv|mlu_safety@10/2|/ga_pkg::OP_INVALIDATE: begin/,/r_set      = 1'b1;/s/sl_dirty_d = 1'b1;/sl_dirty_d = sl_dirty_q;/|INVALIDATE does not mark the in-flight fill stale (spec 6.5)
mlu_lm_starve|ga_mlu.sv|mlu_live@17/14|/SL_LM: begin/,/w_ack  = 1'b1;/s/if (w_done_g \&\& slot_free) begin/if (1'b0) begin/|a LOADMETA walk result is never taken: the request is held but never answered (liveness only)
mlu_lm_starve_l2|ga_mlu.sv|mlu_live_l2@17/14|/SL_LM: begin/,/w_ack  = 1'b1;/s/if (w_done_g \&\& slot_free) begin/if (1'b0) begin/|the same starvation at Lanes 2, HwOnly 0: mlu_live_l2 is not vacuous there
mlu_rl_inval_race|ga_mlu.sv|mlu_safety_rl@10/4|/ga_pkg::OP_INVALIDATE: begin/,/r_set      = 1'b1;/s/sl_dirty_d = 1'b1;/sl_dirty_d = sl_dirty_q;/|the same bug with the boards' options (RegLookup 1): the proof that closes there is not vacuous
mlu_fp_inv_walker|ga_mlu.sv|mlu_safety_fp@10/4|s/assign mlb_inv_loc  = a_md;/assign mlb_inv_loc  = w_loc;/|FillPort 1: the MLB's INVAL port reads the walker's location instead of the INVALIDATE's md (the wrong entry is invalidated)
mlu_fp_fill_md|ga_mlu.sv|mlu_safety_fp@10/4|s/assign mlb_fill_loc = w_loc;/assign mlb_fill_loc = a_md;/|FillPort 1: the MLB's FILL port reads the accept stage's md instead of the walker's location (an entry filled under a location it was not read from)
arb_no_advance|ga_arb.sv|arb_n4@8/3|s/ptr_d  = (gnt_int == N - 1) ? '0 : IdxW'(gnt_int + 1);/ptr_d  = ptr_q;/|the arbiter's round-robin pointer never moves: a low-index SM can starve the others
mlb_end_le|ga_mlb.sv|mlb2_end_eq|s/({1'b0, rng_va} < end_bound(/({1'b0, rng_va} <= end_bound(/|EndForm 1 range match: va < base + size becomes va <= base + size (issue 13)
mlb_end_le8|ga_mlb.sv|mlb8_lookup_end|s/({1'b0, rng_va} < end_bound(/({1'b0, rng_va} <= end_bound(/|the same EndForm 1 bug against the 8-entry EndForm 1 lookups (mlb8_lookup_end, any-abc: ABC's counterexample in 0.5 s)
first_one_all_mlb|ga_first_one.sv|mlb8_lookup|s/f\[i\] = m\[i\] \&\& !seen;/f[i] = m[i];/|ga_first_one keeps every set bit, not only the lowest: an MLB hit returns the OR of all matching entries (spec 6.2)
first_one_all_check|ga_first_one.sv|check_t7_l2|s/f\[i\] = m\[i\] \&\& !seen;/f[i] = m[i];/|the same bug in the check: the record of two failing lanes is the OR of both (spec 4.4)
mlu_s_rec_lane0|ga_mlu.sv|mlu_lanes@2/2|/ga_pkg::OP_MEMCHECK_S: begin/,/r_lane  = chk_first_lane;/s/r_eaddr = chk_first_addr;/r_eaddr = a_addr[63:0];/|MEMCHECK.S record: the address of lane 0 instead of the lowest failing lane's (spec 4.4; issue 13)
exc_sm_live|ga_mlu.sv|mlu_cfg@6/2|s/r_sm    = sl_q\.sm;/r_sm    = sm_q;/g|the record of a MEMCHECK.G miss or an HWOnly access takes SM_ID from the live register (spec 8; the cosim mutant of tb/scripts/mutate.sh)
halt_policy_live|ga_mlu.sv|mlu_cfg@6/2|s/r_policy = sl_q\.policy;/r_policy = policy_q;/g|the halt of a MEMCHECK.G miss or an HWOnly access is decided by the live POLICY (spec 8; the cosim mutant of tb/scripts/mutate.sh)
mlu_hw_root_live|ga_mlu.sv|mlu_cfg_walk_l2@9/2|/SL_HW_ITER: if (HwOnly != 0) begin/,/sl_state_d = SL_HW_WALK;/s/w_root     = sl_q\.root;/w_root     = root_q;/|an HWOnly leader's walk takes ROOT from the live register (spec 8: only a second leader's walk, at Lanes 2, can see a CFG_WRITE accepted after its access; issue 13)
mlu_hw_dirty_at_accept|ga_mlu.sv|mlu_safety_l2@12/2|/SL_HW_ITER: if (HwOnly != 0) begin/,/sl_state_d = SL_HW_WALK;/s/sl_dirty_d = 1'b0;/sl_dirty_d = sl_dirty_q;/;s/hw_load_pend = a_pend;/hw_load_pend = a_pend; sl_dirty_d = 1'b0;/|an HWOnly access clears the race bit once, at acceptance, instead of at each leader's miss: at Lanes 2 an INVALIDATE accepted during the first leader's walk then drops the second leader's fill (spec 6.5; issue 13)
cfg_halt_never|ga_mlu_cfg.sv|mlu_cfg@6/2|s/assign halted_d = halt_set_i ? 1'b1 : halt_clr_i ? 1'b0 : halted_q;/assign halted_d = halt_clr_i ? 1'b0 : halted_q;/|the configuration block ignores the halt request: a fault under TERMINATE does not halt the unit (spec 4.5)
rsp_not_held|ga_mlu_rsp.sv|mlu_safety@10/2|s/rsp_valid_d  = rsp_valid_q \&\& !rsp_ready_i;/rsp_valid_d  = 1'b0;/|the response register drops a response the LSU has not taken (microarchitecture 1.2)
mlu_fp2_no_settle|ga_mlu.sv|mlu_safety_fp2@12/4|s/    assign w_settled = w_settle_q;/    assign w_settled = ~(w_settle_q \& ~w_settle_q);/|FillPort 2: a walker result is taken in its first cycle, when the MLB's registered fill compares are still those of the location before (ga_mlb's FillPre contract broken)
mlb_fp2_stale|ga_mlb.sv|mlb4_fp2|s/        fm_q <= upd_cmp;/        fm_q <= (upd_op_i == ga_pkg::MLB_FILL) ? upd_cmp : fm_q;/|FillPort 2: the registered fill compares are updated only at a FILL, so the next FILL chooses its victim by the last one's location
mlb_fp3_inv_nohit|ga_mlb.sv|mlb4_fp3|s/assign inv_match\[i\] = valid_q\[i\] \&\& inv_hit_i \&\& /assign inv_match[i] = valid_q[i] \&\& /|FillPort 3: an INVAL clears the entry it names by index even when the lookup found none there (a live entry of another location is lost)
mlu_fp3_inv_rng|ga_mlu.sv|mlu_safety_fp3@16/4|s/            mlb_idx    = a_loc_idx;   /            mlb_idx    = a_rng_idx;   /|FillPort 3: an INVAL names the entry of the range lookup (of the request's address) instead of the location lookup of its md (ga_mlb's InvPre contract broken: the wrong entry is invalidated)
mlu_fp3_inv_miss|ga_mlu.sv|mlu_safety_fp3@10/4|s/  assign mlb_inv_hit = a_loc_hit;/  assign mlb_inv_hit = 1'b1;/|FillPort 3: an INVAL clears the entry of its index even when the location lookup missed (entry 0 of another location is invalidated)
sys_ack_first|ga_system.sv|sys_glue@8/3|s/if (rt_busy_q \&\& (\&rt_done_d)) begin/if (rt_busy_q \&\& (rt_done_d != '0)) begin/|the runtime's command is acknowledged when the first SM answers it instead of the last (spec 6.6: "the free has taken effect" before every MLB applied it)
sys_f3_ack_first|ga_system.sv|sys_glue_f3@8/5|s/if (rt_busy_q \&\& (\&rt_done_d)) begin/if (rt_busy_q \&\& (rt_done_d != '0)) begin/|the same in the 4-SM board's configuration (RegLookup 1: an SM commits the INVAL a cycle after accepting it)
sys_slice_overwrite|ga_req_slice.sv|sys_glue_rs|s/assign in_ready_o  = !full_q .. out_ready_i;/assign in_ready_o  = 1'b1;/|ReqSlice 1: the register stage in front of an MLU takes a new request while its own waits for the MLU (the waiting request is lost, the MLU's held payload changes)
LIST
}

mkdir -p "$out"
t0=$(date +%s)
n=0 bad=0
summary=()
while IFS='|' read -r name file job sedscr what; do
    if [ $# -gt 0 ] && [[ $want != *" $name "* ]]; then continue; fi
    n=$((n + 1))
    dover=""
    if [[ $job == *@* ]]; then dover=${job#*@}; job=${job%@*}; fi
    dir=$out/$name
    rm -rf "$dir"; mkdir -p "$dir"
    cp -r rtl "$dir/rtl"
    sed -i -e "$sedscr" "$dir/rtl/$file"
    if cmp -s "rtl/$file" "$dir/rtl/$file"; then
        echo "$name: ERROR the sed changed nothing in rtl/$file (the RTL moved: update mutants.sh)"
        summary+=("$(printf '%-16s %-13s %-8s %s' "$name" "$job" ERROR "sed did not apply")")
        bad=$((bad + 1)); continue
    fi
    diff -u "rtl/$file" "$dir/rtl/$file" >"$dir/mutant.diff"
    line=$(grep -h "^$job|" "$jobs_file" "$here/jobs-full.txt" | head -1)   # CI jobs first
    [ -n "$line" ] || { echo "$name: no job $job in $jobs_file or jobs-full.txt"; bad=$((bad + 1)); continue; }
    if [ -n "${MUTANT_APPLY_ONLY:-}" ]; then
        summary+=("$(printf '%-16s %-13s %-8s %s' "$name" "$job" APPLIES "rtl/$file")")
        rm -rf "$dir"
        continue
    fi
    IFS='|' read -r _ mode depth top params defines solver <<<"$line"
    [ -n "$dover" ] && depth=$dover
    echo "--- mutant $name ($what): rtl/$file, job $job"
    sed -n 's/^+[^+]/  + &/p' "$dir/mutant.diff" | cut -c5- | sed 's/^/  mutated: /'
    FV_SOLVER=${solver:-z3} nice bash "$here/fv.sh" "$job" "$mode" "$depth" "$top" "$params" "$defines" "$dir/rtl" "$dir"
    rc=$?
    vcd=$(ls "$dir/$job"/cex.vcd "$dir/$job"/induct.vcd 2>/dev/null | head -1)
    if [ $rc -eq 1 ] && [ -s "$dir/$job/cex.vcd" ]; then
        summary+=("$(printf '%-16s %-13s %-8s %s' "$name" "$job" CAUGHT "$dir/$job/cex.vcd")")
    else
        st=$(cut -d'|' -f1 "$dir/$job/status" 2>/dev/null || echo ERROR)
        summary+=("$(printf '%-16s %-13s %-8s %s' "$name" "$job" "MISSED" "job $st, no counterexample ${vcd:-}")")
        bad=$((bad + 1))
    fi
done < <(mutants)

if [ -n "${MUTANT_APPLY_ONLY:-}" ]; then
    echo "formal mutants: $((n - bad)) of $n seds apply to the current rtl/ and name a job (not run)"
    [ $n -gt 0 ] && [ $bad -eq 0 ]
    exit
fi
echo
echo "Formal mutants: each must FAIL with a counterexample (gtkwave <vcd>)"
printf '%-16s %-13s %-8s %s\n' MUTANT JOB RESULT COUNTEREXAMPLE
for s in "${summary[@]}"; do echo "$s"; done
echo "total: $n mutants, $bad not caught, $(( $(date +%s) - t0 )) s wall"
[ $n -gt 0 ] && [ $bad -eq 0 ]
exit
}
