#!/usr/bin/env bash
# cli.sh GAPTX WORKDIR — checks of gaptx's command line (docs/compiler.md §8): exit status 0 / 1 / 2,
# file:line:col messages, refusal to overwrite the input, no half-written outputs, and that every
# command produces what it should on a fixture. Prints one line per check; fails on the first error.
set -u
g=$1
w=$2
rm -rf "$w" && mkdir -p "$w"
here=tests/ptx/roots
n=0
fail() { echo "gaptx CLI: FAILED: $*"; exit 1; }
ok() { n=$((n + 1)); }
expect_rc() { # expect_rc RC DESCRIPTION -- command...
    local want=$1 what=$2
    shift 3
    "$@" >"$w/out" 2>"$w/err"
    local rc=$?
    [ $rc -eq "$want" ] || fail "$what: exit $rc, expected $want (stderr: $(head -c 300 "$w/err"))"
    ok
}

expect_rc 2 "no command" -- "$g"
expect_rc 2 "unknown command" -- "$g" frobnicate "$here/basic.ptx"
grep -q "unknown command 'frobnicate'" "$w/err" || fail "unknown command: no message"
expect_rc 2 "unknown option" -- "$g" report "$here/basic.ptx" --bogus
expect_rc 2 "instrument without -o" -- "$g" instrument "$here/basic.ptx"
expect_rc 2 "two inputs" -- "$g" report "$here/basic.ptx" "$here/merge.ptx"
expect_rc 2 "cfg without --func" -- "$g" cfg "$here/basic.ptx"
expect_rc 2 "--json on instrument" -- "$g" instrument "$here/basic.ptx" --json -o "$w/x.ptx"
expect_rc 0 "--help" -- "$g" --help
for c in report instrument strip cfg --json --func; do grep -q -- "$c" "$w/out" || fail "--help does not list $c"; done
ok

expect_rc 1 "missing input" -- "$g" report "$w/does-not-exist.ptx"
printf '.version 9.0\n.target sm_80\n.address_size 64\n.visible .entry k()\n{\n\tfrob.u32 %%r1;\n}\n' >"$w/bad.ptx"
expect_rc 1 "malformed PTX" -- "$g" instrument "$w/bad.ptx" -o "$w/bad.out.ptx"
grep -q "bad.ptx:6:[0-9]*:" "$w/err" || fail "malformed PTX: no file:line:col in '$(cat "$w/err")'"
[ ! -e "$w/bad.out.ptx" ] || fail "malformed PTX: an output was written"
expect_rc 1 "unsupported access size" -- "$g" report "$here/err_size.ptx"
grep -q "err_size.ptx:16:2: unsupported access size of 32 bytes" "$w/err" || fail "size error message: $(cat "$w/err")"

cp "$here/basic.ptx" "$w/in.ptx"
expect_rc 1 "output over input" -- "$g" instrument "$w/in.ptx" -o "$w/in.ptx"
cmp -s "$here/basic.ptx" "$w/in.ptx" || fail "output over input: the input changed"
ln -s in.ptx "$w/link.ptx"
expect_rc 1 "output over input through a link" -- "$g" instrument "$w/in.ptx" -o "$w/link.ptx"
cmp -s "$here/basic.ptx" "$w/in.ptx" || fail "output over input (link): the input changed"
expect_rc 1 "unwritable output" -- "$g" instrument "$w/in.ptx" -o "$w/no/such/dir/out.ptx"

expect_rc 0 "instrument" -- "$g" instrument "$w/in.ptx" -o "$w/i.ptx"
grep -q "call	(__ga_r), __ga_loadmeta" "$w/i.ptx" || fail "instrument: no LOADMETA call in the output"
expect_rc 1 "instrument twice" -- "$g" instrument "$w/i.ptx" -o "$w/ii.ptx"
grep -q "instrumented already" "$w/err" || fail "instrument twice: message"
[ ! -e "$w/ii.ptx" ] || fail "instrument twice: an output was written"
expect_rc 0 "strip" -- "$g" strip "$w/i.ptx" -o "$w/s.ptx"
expect_rc 0 "strip of the input (canonical print)" -- "$g" strip "$w/in.ptx" -o "$w/c.ptx"
cmp -s "$w/s.ptx" "$w/c.ptx" || fail "strip(instrument(P)) differs from P"
ok
expect_rc 0 "instrument to stdout" -- "$g" instrument "$w/in.ptx" -o -
cmp -s "$w/out" "$w/i.ptx" || fail "instrument -o - differs from the file output"
ls "$w" | grep -q 'tmp' && fail "a temporary file was left behind: $(ls "$w")"
ok

expect_rc 0 "report" -- "$g" report "$here/merge.ptx"
grep -q "kernel fig1" "$w/out" || fail "report: no kernel line"
grep -q "MEMCHECK.G full    roots: param fig1_param_0+0 \[full\]; param fig1_param_1+0 \[full\]" "$w/out" || fail "report: roots of fig1"
grep -q "LOADMETA 2, MEMCHECK.G 1 (full 1, partial 0, tagging 0)" "$w/out" || fail "report: totals of fig1"
expect_rc 0 "report --json" -- "$g" report "$here/merge.ptx" --json -o "$w/r.json"
if command -v python3 >/dev/null; then
    python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["totals"]["loadmeta"]==5, d["totals"]; assert d["functions"][0]["accesses"][0]["roots"][1]["name"]=="fig1_param_1"' "$w/r.json" \
        || fail "report --json: not the expected JSON"
    ok
fi
expect_rc 0 "cfg" -- "$g" cfg "$here/loops.ptx" --func walk -o "$w/walk.dot"
grep -q "^digraph" "$w/walk.dot" || fail "cfg: not a dot graph"
expect_rc 1 "cfg of an unknown function" -- "$g" cfg "$here/loops.ptx" --func nosuch
grep -q "no function named 'nosuch'" "$w/err" || fail "cfg unknown function: message"
echo "gaptx CLI: $n checks passed"
