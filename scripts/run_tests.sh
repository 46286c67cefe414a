#!/usr/bin/env bash
# Run each Check test binary given on the command line, TEST_JOBS at a time (default 2); print each
# one's closing lines in the order given; fail if any fails. Check's own closing line ("100%: Checks: N,
# Failures: 0, Errors: 0") is printed per binary, and a total line in the plain form "N passed, N
# failed" at the end. Tests that run side by side must not share files: the tests make their temporary
# files with mkstemp/mkdtemp.
set -u
jobs=${TEST_JOBS:-2}
case $jobs in ''|*[!0-9]*|0) echo "run_tests.sh: TEST_JOBS must be a whole number >= 1, got '$jobs'" >&2; exit 2 ;; esac
tmp=$(mktemp -d "${TMPDIR:-/tmp}/run_tests.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT

# Start every binary (at most $jobs at once); each one's output and exit status go to $tmp/<index>.
i=0
for t in "$@"; do
    while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n || true; done
    ( CK_VERBOSITY="${CK_VERBOSITY:-normal}" "$t" >"$tmp/$i.out" 2>&1; echo $? >"$tmp/$i.rc" ) &
    i=$((i + 1))
done
wait

pass=0
fail=0
failed_bins=()
i=0
for t in "$@"; do
    out=$(cat "$tmp/$i.out" 2>/dev/null)
    rc=$(cat "$tmp/$i.rc" 2>/dev/null || echo 99)
    i=$((i + 1))
    printf '%s\n' "$out" | grep -v '^Running suite' | sed "s|^|[$(basename "$t")] |" | tail -n 40
    checks=$(printf '%s\n' "$out" | sed -n 's/.*Checks: \([0-9]*\), Failures: \([0-9]*\), Errors: \([0-9]*\).*/\1 \2 \3/p' | tail -n 1)
    if [ -n "$checks" ]; then
        read -r n f e <<<"$checks"
        pass=$((pass + n - f - e))
        fail=$((fail + f + e))
    fi
    if [ "$rc" -ne 0 ]; then
        failed_bins+=("$t (exit $rc)")
        [ -z "$checks" ] && fail=$((fail + 1))
    fi
done
echo "Tests: $pass passed, $fail failed"
if [ ${#failed_bins[@]} -ne 0 ] || [ $fail -ne 0 ]; then
    printf 'FAILED: %s\n' "${failed_bins[@]}"
    exit 1
fi
