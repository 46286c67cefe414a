#!/usr/bin/env bash
# Run each Check test binary given on the command line; print each one's closing line; fail if any
# fails. Check's own closing line ("100%: Checks: N, Failures: 0, Errors: 0") is printed per binary, and
# a total line in the plain form "N passed, N failed" at the end.
set -u
pass=0
fail=0
failed_bins=()
for t in "$@"; do
    out=$(CK_VERBOSITY="${CK_VERBOSITY:-normal}" "$t" 2>&1)
    rc=$?
    printf '%s\n' "$out" | grep -v '^Running suite' | sed "s|^|[$(basename "$t")] |" | tail -n 40
    checks=$(printf '%s\n' "$out" | sed -n 's/.*Checks: \([0-9]*\), Failures: \([0-9]*\), Errors: \([0-9]*\).*/\1 \2 \3/p' | tail -n 1)
    if [ -n "$checks" ]; then
        read -r n f e <<<"$checks"
        pass=$((pass + n - f - e))
        fail=$((fail + f + e))
    fi
    if [ $rc -ne 0 ]; then
        failed_bins+=("$t (exit $rc)")
        [ -z "$checks" ] && fail=$((fail + 1))
    fi
done
echo "Tests: $pass passed, $fail failed"
if [ ${#failed_bins[@]} -ne 0 ] || [ $fail -ne 0 ]; then
    printf 'FAILED: %s\n' "${failed_bins[@]}"
    exit 1
fi
