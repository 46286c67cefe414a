#!/usr/bin/env bash
# layouts.sh — print the metadata layouts of cmodel/ga_layouts.def (the one list: docs/spec.md §5.1),
# space-separated on one line, for makefiles, scripts and plots.
#   scripts/layouts.sh          every layout (list bst table index)
#   scripts/layouts.sh --rtl    only the layouts the RTL walker implements (the def's rtl column = 1)
#   scripts/layouts.sh --count  how many layouts there are
# Exit status: 0; 1 when the list cannot be read or is empty; 2 for a bad command line.
set -u
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
def="$here/cmodel/ga_layouts.def"
mode=all
case "${1:-}" in
    "") ;;
    --rtl) mode=rtl ;;
    --count) mode=count ;;
    -h|--help) sed -n '2,7p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "layouts.sh: unknown option '$1' (--rtl, --count)" >&2; exit 2 ;;
esac
[ $# -le 1 ] || { echo "layouts.sh: one option at most" >&2; exit 2; }
[ -r "$def" ] || { echo "layouts.sh: cannot read $def" >&2; exit 1; }
# GA_LAYOUT(ID, code, name, rtl, "title"): field 3 is the name, field 4 the rtl flag.
names=$(sed -n 's/^GA_LAYOUT([A-Z0-9_]*, *[0-9]*, *\([a-z0-9_]*\), *\([01]\),.*/\1 \2/p' "$def" |
        awk -v m="$mode" 'm != "rtl" || $2 == 1 { printf "%s%s", sep, $1; sep = " " }')
[ -n "$names" ] || { echo "layouts.sh: no layout in $def" >&2; exit 1; }
if [ "$mode" = count ]; then
    set -- $names
    echo $#
else
    echo "$names"
fi
