#!/usr/bin/env bash
# Runs formal jobs one after the other (one solver at a time: CI machines have 2 cores) and prints
# a summary table. Used by `make formal` / `make formal-full` (mk/formal.mk).
#
#   run_jobs.sh JOBS_FILE [NAME ...]     every job of JOBS_FILE, or only the NAMEs given
#
# Job format: scripts/formal/jobs.txt. Environment: FV_RTL (default rtl), FV_OUT (default
# build/formal). Exit status 0 when every job PASSed, 1 otherwise (FAIL, UNKNOWN or ERROR).
set -u
here=$(cd "$(dirname "$0")" && pwd)
jobs_file=$1; shift
rtl=${FV_RTL:-rtl}
out=${FV_OUT:-build/formal}
want=" $* "
mkdir -p "$out"
t0=$(date +%s)
names=()
while IFS='|' read -r name mode depth top params defines; do
    case $name in ''|'#'*) continue ;; esac
    if [ $# -gt 0 ] && [[ $want != *" $name "* ]]; then continue; fi
    names+=("$name")
    nice bash "$here/fv.sh" "$name" "$mode" "$depth" "$top" "$params" "$defines" "$rtl" "$out"
done <"$jobs_file"
[ ${#names[@]} -gt 0 ] || { echo "run_jobs.sh: no job selected" >&2; exit 2; }

echo
echo "Formal summary ($(yosys -V | awk '{print $1, $2}'), yosys-smtbmc + z3, ABC; $(nproc) cores)"
printf '%-18s %-8s %-62s %8s\n' JOB STATUS RESULT TIME
bad=0
for n in "${names[@]}"; do
    if [ -f "$out/$n/status" ]; then
        IFS='|' read -r st txt dt <"$out/$n/status"
    else
        st=ERROR txt="no status file" dt=0
    fi
    [ "$st" = PASS ] || bad=$((bad + 1))
    printf '%-18s %-8s %-62s %6s s\n' "$n" "$st" "${txt:0:62}" "$dt"
done
echo "total: ${#names[@]} jobs, $bad not passed, $(( $(date +%s) - t0 )) s wall"
[ $bad -eq 0 ]
