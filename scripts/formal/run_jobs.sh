#!/usr/bin/env bash
# Runs formal jobs, FV_PAR of them at a time (default 1: one solver at a time), and prints a summary
# table. Used by `make formal` / `make formal-full` (mk/formal.mk). Each job writes only its own
# directory FV_OUT/<job>, so jobs in parallel do not interfere; the table is read from their status
# files after the last one ends.
#
#   run_jobs.sh JOBS_FILE [NAME ...]     every job of JOBS_FILE, or only the NAMEs given
#
# Job format: scripts/formal/jobs.txt (field 7, the SMT solver, goes to fv.sh as FV_SOLVER; empty:
# z3). Environment: FV_RTL (default rtl), FV_OUT (default build/formal), FV_PAR (default 1, a whole
# number >= 1), FV_SOLVER_PATH (fv.sh). Exit status 0 when every job PASSed, 1 otherwise (FAIL,
# UNKNOWN or ERROR); 2 for a bad command line or FV_PAR.
set -u
# One block, parsed whole before it runs: editing this script during a run cannot change that run.
{
here=$(cd "$(dirname "$0")" && pwd)
jobs_file=$1; shift
rtl=${FV_RTL:-rtl}
out=${FV_OUT:-build/formal}
want=" $* "
par=${FV_PAR:-1}
case $par in ''|*[!0-9]*|0) echo "run_jobs.sh: FV_PAR must be a whole number >= 1, got '$par'" >&2; exit 2 ;; esac
mkdir -p "$out"
t0=$(date +%s)
names=()
# The job file is read whole before the first job starts, so that editing it during a run neither
# re-runs nor skips a job.
mapfile -t job_lines <"$jobs_file" || { echo "run_jobs.sh: cannot read $jobs_file" >&2; exit 2; }
for line in "${job_lines[@]}"; do
    IFS='|' read -r name mode depth top params defines solver <<<"$line"
    case $name in ''|'#'*) continue ;; esac
    if [ $# -gt 0 ] && [[ $want != *" $name "* ]]; then continue; fi
    names+=("$name")
    # a job's own status file is the verdict: stale ones must not survive a job that dies early
    rm -f "$out/$name/status"
    FV_SOLVER=${solver:-z3} nice bash "$here/fv.sh" "$name" "$mode" "$depth" "$top" "$params" "$defines" "$rtl" "$out" \
        </dev/null &
    while [ "$(jobs -rp | wc -l)" -ge "$par" ]; do wait -n || true; done
done
wait
[ ${#names[@]} -gt 0 ] || { echo "run_jobs.sh: no job selected" >&2; exit 2; }

echo
echo "Formal summary ($(yosys -V | awk '{print $1, $2}'), yosys-smtbmc + z3 or yices, ABC; $(nproc) cores)"
printf '%-18s %-8s %-62s %-6s %8s\n' JOB STATUS RESULT BY TIME
bad=0
for n in "${names[@]}"; do
    if [ -f "$out/$n/status" ]; then
        IFS='|' read -r st txt dt by <"$out/$n/status"
    else
        st=ERROR txt="no status file" dt=0 by=-
    fi
    [ "$st" = PASS ] || bad=$((bad + 1))
    printf '%-18s %-8s %-62s %-6s %6s s\n' "$n" "$st" "${txt:0:62}" "${by:--}" "$dt"
done
echo "total: ${#names[@]} jobs, $bad not passed, $(( $(date +%s) - t0 )) s wall"
[ $bad -eq 0 ]
exit
}
