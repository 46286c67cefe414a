#!/usr/bin/env bash
# corpus.sh [--update] GAPTX EXPECT WORKDIR PTX... — the compiler pass on every corpus program
# (docs/compiler.md §7): the module totals of `gaptx report --json` must equal the program's row of
# EXPECT; the instrumented module must assemble with ptxas (skipped, saying so, without ptxas);
# stripping it must give the input back (compared with the canonical print, `gaptx strip` of the
# input). Every program needs a row and every row a program. Ends with the corpus totals (the
# Figure 7/8 analogues) and writes the per-program table of docs/compiler.md §7 to WORKDIR/table.md.
# With --update, EXPECT is rewritten from the measured counts (its comment lines kept) instead of
# compared: for when the corpus or nvcc changed; review the diff before committing it.
set -u
update=0
if [ "${1:-}" = "--update" ]; then update=1; shift; fi
g=$1
exp=$2
w=$3
shift 3
rm -rf "$w" && mkdir -p "$w"
have_ptxas=1
command -v ptxas >/dev/null || { have_ptxas=0; echo "test-ptx-corpus: ptxas not on the PATH: SKIPPING ptxas acceptance"; }
fields="loadmeta memcheck_g memcheck_g_full memcheck_g_partial memcheck_g_tagging memcheck_s memcheck_s_static memcheck_s_dynamic memcheck_s_unresolved md_movs shadows insns_before insns_after"
bad=0
seen=" "
declare -A tot
for f in $fields; do tot[$f]=0; done
for p in "$@"; do
    name=$(basename "$p" .ptx)
    seen="$seen$name "
    row=$(awk -F'\t' -v n="$name" '$1 == n' "$exp")
    if [ -z "$row" ] && [ $update = 0 ]; then echo "FAIL $name: no row in $exp"; bad=1; continue; fi
    if ! "$g" report "$p" --json -o "$w/$name.json" 2>"$w/$name.err"; then
        echo "FAIL $name: gaptx report: $(cat "$w/$name.err")"; bad=1; continue
    fi
    tl=$(grep '^  "totals": ' "$w/$name.json")
    got="$name"
    for f in $fields; do
        v=$(printf '%s' "$tl" | sed -n "s/.*\"$f\": \([0-9]*\).*/\1/p")
        got="$got	$v"
        tot[$f]=$(( ${tot[$f]} + v ))
    done
    printf '%s\n' "$got" >>"$w/measured.tsv"
    if [ $update = 0 ] && [ "$got" != "$row" ]; then
        echo "FAIL $name: counts differ"; echo "  expected: $row"; echo "  got:      $got"; bad=1
    fi
    "$g" instrument "$p" -o "$w/$name.i.ptx" 2>"$w/$name.err" || { echo "FAIL $name: instrument: $(cat "$w/$name.err")"; bad=1; continue; }
    if [ $have_ptxas = 1 ] && ! ptxas -arch=sm_80 "$w/$name.i.ptx" -o /dev/null 2>"$w/$name.ptxas"; then
        echo "FAIL $name: ptxas refuses the instrumented module: $(head -5 "$w/$name.ptxas")"; bad=1
    fi
    "$g" strip "$w/$name.i.ptx" -o "$w/$name.s.ptx" && "$g" strip "$p" -o "$w/$name.c.ptx" || { echo "FAIL $name: strip"; bad=1; continue; }
    cmp -s "$w/$name.s.ptx" "$w/$name.c.ptx" || { echo "FAIL $name: strip(instrument(P)) differs from P"; bad=1; }
done
while IFS=$'\t' read -r name _; do
    case "$name" in ''|'#'*) continue ;; esac
    case "$seen" in *" $name "*) ;; *) [ $update = 1 ] || { echo "FAIL $name: a row of $exp without a corpus program"; bad=1; } ;; esac
done <"$exp"
if [ $update = 1 ] && [ $bad = 0 ]; then
    { grep '^#' "$exp"; cat "$w/measured.tsv"; } >"$w/expect.new" && mv "$w/expect.new" "$exp"
    echo "test-ptx-corpus: rewrote $exp from $# programs (review: git diff $exp)"
fi
awk -F'\t' 'BEGIN { print "| program | LOADMETA | MEMCHECK.G (full / partial / tagging) | MEMCHECK.S (static / dynamic / unresolved) | metadata MOVs | shadows | instructions before → after |"
                    print "|---|---:|---|---|---:|---:|---|" }
             { printf "| %s | %d | %d (%d / %d / %d) | %d (%d / %d / %d) | %d | %d | %d → %d |\n", $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14
               for (i = 2; i <= 14; i++) t[i] += $i; n++ }
             END { printf "| **total (%d)** | %d | %d (%d / %d / %d) | %d (%d / %d / %d) | %d | %d | %d → %d |\n", n, t[2], t[3], t[4], t[5], t[6], t[7], t[8], t[9], t[10], t[11], t[12], t[13], t[14] }' \
    "$w/measured.tsv" >"$w/table.md"
# The split of the added instructions (docs/compiler.md §7), counted in the instrumented modules'
# text: the bodies use neither the __ga_p*/__ga_r parameters nor %ga_ registers, so they do not count.
cnt() { cat "$w"/*.i.ptx 2>/dev/null | grep -cP "$1"; }
{
    echo
    echo "| added | count |"
    echo "|---|---:|"
    echo "| calls (LOADMETA, MEMCHECK.G, MEMCHECK.S) | $(cnt '^\t+(@!?%p\d+ )?call\t.*__ga_') |"
    echo "| metadata MOVs | $(cnt '^\t+(@!?%p\d+ )?(mov.b64|selp.b64|max.u64)\t%ga_md') |"
    echo "| st.param of the arguments | $(cnt '^\t+st.param.b(32|64)\t\[__ga_p\d\]') |"
    echo "| ld.param of the results | $(cnt '\[__ga_r\];') |"
    echo "| temporaries: ld.param reloads / mov / add / cvt | $(cnt '^\t+ld.param.u64\t%ga_t') / $(cnt '^\t+mov.u64\t%ga_t') / $(cnt '^\t+add.s64\t%ga_t') / $(cnt '^\t+cvt.u64.u32\t%ga_t') |"
} >>"$w/table.md"
g_all=${tot[memcheck_g]}
pc() { [ "$g_all" -gt 0 ] && awk -v a="$1" -v b="$g_all" 'BEGIN { printf "%.1f", 100 * a / b }' || echo 0; }
echo "corpus: $# programs; LOADMETA ${tot[loadmeta]}, MEMCHECK.G $g_all (full ${tot[memcheck_g_full]} = $(pc ${tot[memcheck_g_full]}) %," \
     "partial ${tot[memcheck_g_partial]} = $(pc ${tot[memcheck_g_partial]}) %, tagging ${tot[memcheck_g_tagging]} = $(pc ${tot[memcheck_g_tagging]}) %)," \
     "MEMCHECK.S ${tot[memcheck_s]} (unresolved ${tot[memcheck_s_unresolved]}), metadata MOVs ${tot[md_movs]}," \
     "instructions ${tot[insns_before]} -> ${tot[insns_after]}"
[ $bad = 0 ] && echo "test-ptx-corpus: all $# programs passed" || { echo "test-ptx-corpus: FAILED"; exit 1; }
