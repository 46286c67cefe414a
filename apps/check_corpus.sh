#!/usr/bin/env bash
# check_corpus.sh — the corpus' own consistency checks, run by `make apps` after building (and by
# `make apps-check`). Usage: bash apps/check_corpus.sh BUILD_DIR (the directory holding <name> and
# <name>.ptx for every apps/<name>.cu). Run from the repository root.
#
# Checks, each failure reported as one line naming the file and line:
#   1. apps/manifest.tsv: the header; 7 tab-separated fields per line; names unique and of the form
#      [a-z0-9_]+; kind ok|bug, with bug exactly for names starting bug_; a class from the list for bug
#      programs and - for correct ones; correct programs expect clean in both modes; every expectation
#      is clean, or kinds joined by | with an optional trailing ?; args and notes not empty;
#   2. the manifest and apps/*.cu name the same programs; each program's APP_NAME is its name; each
#      bug program's header comment names its class;
#   3. apps/ptx_expect.tsv: every regex matches a line of BUILD_DIR/<name>.ptx (the construct the
#      program exists for is in the code nvcc emits);
#   4. the PTX embedded in BUILD_DIR/<name> equals BUILD_DIR/<name>.ptx line for line once comments
#      and white space are dropped (so the analysis input is the code that runs, and PTX line numbers
#      in reports point into the .ptx file).
# Exit 0 when all pass, 1 when any fails (every failure is listed), 2 on a usage error.
set -u

if [ $# -ne 1 ] || [ ! -d "$1" ]; then
    echo "usage: bash apps/check_corpus.sh BUILD_DIR (a directory with the built programs and .ptx files)" >&2
    exit 2
fi
dir=$1
manifest=apps/manifest.tsv
expect=apps/ptx_expect.tsv
errors=0
fail() {
    echo "$*"
    errors=$((errors + 1))
}

for f in "$manifest" "$expect"; do
    [ -r "$f" ] || { echo "$f: missing"; exit 1; }
done

# ---- 1. the manifest
header=$'name\tkind\tclass\texpect_compiler\texpect_hwonly\targs\tnotes'
kinds='OUT_OF_BOUNDS|USE_AFTER_FREE|TAG_MISMATCH|NO_METADATA|SHARED_OUT_OF_BOUNDS|METADATA_FAULT|BAD_FREE'
classes='adjacent_oob|nonadjacent_oob|intra_oob|uaf|delayed_uaf|double_free|interior_free|shared_oob|wild'
declare -A listed=() class_of=()
seen_header=0
lineno=0
while IFS= read -r line || [ -n "$line" ]; do
    lineno=$((lineno + 1))
    case "$line" in '#'* | '') continue ;; esac
    where="$manifest:$lineno"
    if [ $seen_header -eq 0 ]; then
        [ "$line" = "$header" ] || fail "$where: expected the header '${header//$'\t'/<TAB>}', got '$line'"
        seen_header=1
        continue
    fi
    IFS=$'\t' read -r -a f <<<"$line"
    if [ "${#f[@]}" -ne 7 ]; then
        fail "$where: expected 7 tab-separated fields, got ${#f[@]}: '$line'"
        continue
    fi
    name=${f[0]} kind=${f[1]} class=${f[2]} ec=${f[3]} eh=${f[4]} args=${f[5]} notes=${f[6]}
    [[ $name =~ ^[a-z0-9_]+$ ]] || fail "$where: name must match [a-z0-9_]+, got '$name'"
    [ -z "${listed[$name]+x}" ] || fail "$where: '$name' is listed twice"
    listed[$name]=$lineno
    class_of[$name]=$class
    case "$kind" in
    ok)
        [[ $name != bug_* ]] || fail "$where: '$name' is named bug_* but its kind is ok"
        [ "$class" = - ] || fail "$where: a correct program's class is -, got '$class'"
        [ "$ec" = clean ] && [ "$eh" = clean ] || fail "$where: a correct program expects clean in both modes, got '$ec' / '$eh'"
        ;;
    bug)
        [[ $name == bug_* ]] || fail "$where: a bug program's name starts with bug_, got '$name'"
        [[ $class =~ ^($classes)$ ]] || fail "$where: class must be one of ${classes//|/ }, got '$class'"
        ;;
    *) fail "$where: kind must be ok or bug, got '$kind'" ;;
    esac
    for e in "$ec" "$eh"; do
        [[ $e =~ ^(clean|($kinds)(\|($kinds))*\??)$ ]] ||
            fail "$where: expectation must be clean or KIND[|KIND...][?] with KIND in ${kinds//|/ }, got '$e'"
    done
    [ -n "$args" ] || fail "$where: args is empty (write - for none)"
    [ -n "$notes" ] || fail "$where: notes are empty"
done <"$manifest"
[ $seen_header -eq 1 ] || fail "$manifest: no header line"

# ---- 2. manifest <-> sources
for src in apps/*.cu; do
    name=$(basename "$src" .cu)
    if [ -z "${listed[$name]+x}" ]; then
        fail "$src: not listed in $manifest"
        continue
    fi
    grep -q "^#define APP_NAME \"$name\"\$" "$src" || fail "$src: does not #define APP_NAME \"$name\""
    if [[ $name == bug_* ]]; then
        head -n 3 "$src" | grep -q "class ${class_of[$name]}\b" ||
            fail "$src: its header comment does not name its class '${class_of[$name]}'"
    fi
done
for name in "${!listed[@]}"; do
    [ -e "apps/$name.cu" ] || fail "$manifest:${listed[$name]}: '$name' has no apps/$name.cu"
done

# ---- 3. PTX expectations
lineno=0
while IFS= read -r line || [ -n "$line" ]; do
    lineno=$((lineno + 1))
    case "$line" in '#'* | '' | $'name\tregex\twhy') continue ;; esac
    IFS=$'\t' read -r name regex why <<<"$line"
    where="$expect:$lineno"
    if [ -z "${regex:-}" ] || [ -z "${why:-}" ]; then
        fail "$where: expected name<TAB>regex<TAB>why, got '$line'"
        continue
    fi
    [ -n "${listed[$name]+x}" ] || { fail "$where: '$name' is not in $manifest"; continue; }
    ptx="$dir/$name.ptx"
    [ -r "$ptx" ] || { fail "$where: $ptx is missing (run make apps)"; continue; }
    grep -E -q -- "$regex" "$ptx" || fail "$ptx: no line matches /$regex/ ($why; $where)"
done <"$expect"

# ---- 4. embedded PTX = the .ptx file
for name in "${!listed[@]}"; do
    bin="$dir/$name" ptx="$dir/$name.ptx"
    [ -r "$bin" ] && [ -r "$ptx" ] || { fail "$bin or $ptx is missing (run make apps)"; continue; }
    # The embedded text starts at the blank lines that replace the .ptx file's leading comment and
    # ends at the NUL after it; compare line by line without comments and white space.
    msg=$(perl -e '
        sub norm { my @l = split /\n/, $_[0], -1;
                   for (@l) { s{//.*}{}; s/\s+/ /g; s/^ //; s/ $//; } return @l; }
        local $/; open my $b, "<:raw", $ARGV[0] or die "cannot read $ARGV[0]\n"; my $bin = <$b>;
        open my $p, "<", $ARGV[1] or die "cannot read $ARGV[1]\n"; my $ptx = <$p>;
        my @hits = ($bin =~ /\n\.version \d/g);
        die "the executable holds " . scalar(@hits) . " PTX texts, expected 1\n" if @hits != 1;
        $bin =~ /(\n*\.version \d[^\0]*)/ or die "no PTX text in the executable\n";
        my @e = norm($1); my @f = norm($ptx);
        pop @e while @e && $e[-1] eq ""; pop @f while @f && $f[-1] eq "";
        for my $i (0 .. ($#e > $#f ? $#e : $#f)) {
            my ($x, $y) = ($e[$i] // "<end>", $f[$i] // "<end>");
            die "line " . ($i + 1) . ": the executable has \"$x\", the .ptx \"$y\"\n" if $x ne $y;
        }' "$bin" "$ptx" 2>&1) || fail "$bin: its PTX differs from $ptx: $msg"
done

if [ $errors -ne 0 ]; then
    echo "check_corpus: $errors problem(s)"
    exit 1
fi
echo "check_corpus: ${#listed[@]} programs, manifest, PTX expectations and embedded PTX consistent"
