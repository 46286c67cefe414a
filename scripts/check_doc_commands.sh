#!/usr/bin/env bash
# check_doc_commands.sh [FILE...] — every command shown in the code blocks of the documentation must at
# least parse its options, so that docs cannot drift from the command-line tools again (make test-docs;
# default files: README.md docs/*.md).
#
# What is checked, per fenced code block whose info string is empty, sh, bash, shell or console (a
# ```text block is a synopsis or an output sample and is skipped):
#   - a line is a command after joining '\' continuations, dropping a leading "$ " prompt and a
#     trailing " # comment"; it is split at ;, &&, || and | into simple commands, and leading
#     VAR=value words are skipped;
#   - a command whose program is one of the TOOLS below (by basename, so build/rel/sim/gasim and a bare
#     gasim both count) is run with the tool's check (see TOOLS): it must exit 0. A tool that is not
#     built yet is skipped with a message that says which target builds it;
#   - `make T...`: every T that is not an option or VAR=value must be a target of the Makefile.
# Anything else (cd, iceprog, gtkwave, ...) is not checked.
#
# Exit status: 0 when every checked command passed (skips allowed), 1 when one failed, 2 on bad usage.
set -u

# The tools whose commands are checked. One line each:
#   NAME  BINARY (relative to the repository root; globs and comma-separated alternatives)  CHECK  HOW-TO-BUILD
# CHECK is how the command line is checked without doing the work:
#   dry1  insert --dry-run after the program name; the tool validates the whole line and exits
#   dry2  insert --dry-run after the program's first argument (a subcommand: gaeval run ...)
#   help  run PROGRAM --help (exit 0), and every --option of the command must appear in that text
# To add a tool (gaptx, gpuarmor-run, ...), add its line; prefer dry1 once the tool has --dry-run.
BUILD=${BUILD:-build}
TOOLS="
gasim         $BUILD/rel/sim/gasim               dry1  make gasim
gaconv        $BUILD/rel/sim/gaconv              dry1  make gasim
garun         $BUILD/rel/sim/garun               dry1  make $BUILD/rel/sim/garun
gaeval        $BUILD/rel/eval/gaeval             dry2  make $BUILD/rel/eval/gaeval
gaprobe       $BUILD/rel/fpga/gaprobe            dry1  make gaprobe
gasim-rtl     $BUILD/cosim/*/gasim-rtl           dry1  make gasim-rtl
gaeval-rtl    $BUILD/cosim/*/gaeval-rtl          dry2  make gaeval-rtl
gawl          $BUILD/rel/eval/gawl               help  make $BUILD/rel/eval/gawl
gasweep       $BUILD/rel/eval/gasweep            dry1  make $BUILD/rel/eval/gasweep
emubench      $BUILD/rel/emu/emubench            help  make $BUILD/rel/emu/emubench
gaptx         $BUILD/rel/ptx/gaptx               help  make gaptx
gpuarmor-run  $BUILD/cudart/gpuarmor-run         help  make cudart
"

if [ $# -eq 0 ]; then
    set -- README.md docs/*.md
fi
for f in "$@"; do
    [ -f "$f" ] || { echo "check_doc_commands: $f: no such file" >&2; exit 2; }
done

checked=0 failed=0 skipped=0
make_targets=""

# tool_field NAME COLUMN: a column of NAME's TOOLS line (empty when NAME is not a tool).
tool_field() {
    printf '%s\n' "$TOOLS" | awk -v n="$1" -v c="$2" '$1 == n { s = $c; if (c == 4) for (i = 5; i <= NF; i++) s = s " " $i; print s; exit }'
}

# The binary of a tool: the first match of its glob that is an executable file, or nothing.
tool_binary() {
    local g; g=$(tool_field "$1" 2)
    for b in ${g//,/ }; do
        [ -x "$b" ] && [ -f "$b" ] && { printf '%s\n' "$b"; return; }
    done
}

# Words of a simple command, quotes honoured, nothing expanded (xargs does the splitting).
split_words() {
    printf '%s\n' "$1" | xargs -n1 printf '%s\n' 2>/dev/null
}

# Check one simple command ($1: its text, $2: FILE:LINE for messages).
check_command() {
    local cmd=$1 where=$2
    local -a w=()
    mapfile -t w < <(split_words "$cmd")
    local i=0
    while [ $i -lt ${#w[@]} ] && [[ ${w[$i]} =~ ^[A-Za-z_][A-Za-z0-9_]*= ]]; do i=$((i + 1)); done
    [ $i -lt ${#w[@]} ] || return 0
    local prog=${w[$i]} name
    name=$(basename -- "$prog")
    local -a args=("${w[@]:$((i + 1))}")
    if [ "$name" = make ]; then
        if [ -z "$make_targets" ]; then
            make_targets=$(make -qpR -f Makefile 2>/dev/null | awk -F: '/^[a-zA-Z0-9][^$#\/\t=%]*:([^=]|$)/ { print $1 }' | sort -u)
        fi
        checked=$((checked + 1))
        local a bad=""
        for a in "${args[@]}"; do
            case "$a" in -*|*=*) continue ;; esac
            printf '%s\n' "$make_targets" | grep -qxF -- "$a" || bad="$bad $a"
        done
        if [ -n "$bad" ]; then
            failed=$((failed + 1))
            echo "FAIL $where: $cmd"
            echo "     no such make target:$bad"
        fi
        return 0
    fi
    local how; how=$(tool_field "$name" 3)
    [ -n "$how" ] || return 0
    local bin; bin=$(tool_binary "$name")
    if [ -z "$bin" ]; then
        skipped=$((skipped + 1))
        echo "skip $where: $name is not built yet ($(tool_field "$name" 4) builds it): $cmd"
        return 0
    fi
    checked=$((checked + 1))
    local out rc
    case "$how" in
        dry1) out=$("$bin" --dry-run "${args[@]}" 2>&1 </dev/null); rc=$? ;;
        dry2) out=$("$bin" "${args[@]:0:1}" --dry-run "${args[@]:1}" 2>&1 </dev/null); rc=$? ;;
        help)
            out=$("$bin" --help 2>&1 </dev/null); rc=$?
            if [ $rc -eq 0 ]; then
                local a o
                for a in "${args[@]}"; do
                    case "$a" in --*) o=${a%%=*} ;; *) continue ;; esac
                    if ! printf '%s\n' "$out" | grep -qF -- "$o"; then
                        rc=1
                        out="option $o does not appear in '$name --help'"
                        break
                    fi
                done
            fi ;;
        *) echo "check_doc_commands: TOOLS: unknown check '$how' for $name" >&2; exit 2 ;;
    esac
    if [ $rc -ne 0 ]; then
        failed=$((failed + 1))
        echo "FAIL $where: $cmd"
        printf '%s\n' "$out" | head -n 5 | sed 's/^/     /'
    fi
}

for f in "$@"; do
    n=0 inblock=0 checkblock=0 pending="" start=0
    while IFS= read -r line || [ -n "$line" ]; do
        n=$((n + 1))
        if [[ $line =~ ^[[:space:]]*\`\`\` ]]; then
            if [ $inblock -eq 0 ]; then
                inblock=1
                info=${line#*\`\`\`}
                info=${info%% *}
                case "$info" in ""|sh|bash|shell|console) checkblock=1 ;; *) checkblock=0 ;; esac
            else
                inblock=0 checkblock=0 pending=""
            fi
            continue
        fi
        [ $inblock -eq 1 ] && [ $checkblock -eq 1 ] || continue
        [ -z "$pending" ] && start=$n
        if [[ $line =~ \\[[:space:]]*$ ]]; then
            pending="$pending${line%\\*} "
            continue
        fi
        full="$pending$line"
        pending=""
        full=${full#"${full%%[![:space:]]*}"}     # leading blanks
        full=${full#\$ }                         # a prompt
        full=$(printf '%s\n' "$full" | sed 's/[[:space:]]#.*$//; s/^#.*$//')
        [ -n "${full//[[:space:]]/}" ] || continue
        # simple commands: split at ;, &&, || and |
        while IFS= read -r part; do
            [ -n "${part//[[:space:]]/}" ] && check_command "$part" "$f:$start"
        done < <(printf '%s\n' "$full" | sed 's/&&/\n/g; s/||/\n/g; s/[;|]/\n/g')
    done < "$f"
done

echo "check_doc_commands: $checked commands checked, $failed failed, $skipped skipped (tools not built yet)"
[ $failed -eq 0 ]
