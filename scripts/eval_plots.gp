# eval_plots.gp — the PNG plots of an evaluation run, drawn from its CSV files (docs/eval.md).
# Usage: gnuplot -e "dir='build/eval/smoke'" scripts/eval_plots.gp
# Writes dir/fig9.png, dir/fig10.png, dir/fig11.png, dir/fig13.png from the stand-ins' CSVs and, when
# the corpus was run (scripts/eval_corpus.py), dir/fig7.png and dir/fig8.png, and a panel or series of
# the corpus programs in each of the others. Every value comes from the CSVs.
#
# Every layout of cmodel/ga_layouts.def is drawn (scripts/layouts.sh; override with -e "layouts='...'").
# Readability rules these plots follow (each one fixed a plot that misled):
#  - a log axis starts below the smallest value (0.5 cycles: every latency is at least 1), so a bar at
#    1.0 shows as a bar instead of vanishing on the axis floor;
#  - min..max bands are drawn first, then every line on top of every band, so no line is greyed by a
#    band laid over it, and every layout's band is drawn (the table's included);
#  - workloads of the broader set (group "broader" in fig13.csv) carry the dagger that docs/results.md
#    gives them in its tables; corpus programs carry its double dagger, and sit in their own panel or
#    dashed series, never mixed with the stand-ins;
#  - a corpus program that is a bug program says so in its label (its runs are short by design).

if (!exists("dir")) dir = "build/eval/smoke"
has(f) = int(system("test -s '".f."' && echo 1 || echo 0"))
corpus = has(dir."/fig9_10_corpus.csv")
set datafile separator ","
set datafile missing ""
set encoding utf8
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.85 border -1
set boxwidth 0.9
set xtics rotate by -50 scale 0 font ",9"
set grid ytics
set key top left
set logscale y
set yrange [0.5:*]

# The layouts, from the one list (cmodel/ga_layouts.def via scripts/layouts.sh); every series below is
# looked up by its column name (set datafile columnheaders), so a new layout needs no edit here.
if (!exists("layouts")) layouts = system("bash scripts/layouts.sh")
nl = words(layouts)
lay(i) = word(layouts, i)
ltitle(l) = l eq "bst" ? "BST" : l eq "table" ? "table (oracle)" : l
colour(i) = word("#1f4e9a #b03a10 #2c7a2c #7a3c9a #8a6a10 #107a7a #606060", i)
lpt(i) = word("7 5 9 13 11 15 3", i) + 0
set datafile columnheaders

# Fig 9 analogue: no MLB, columns lat_<layout>_none of fig9_10.csv. Fig 10: 8-entry MLB, lat_<layout>_8.
# The corpus programs' captured traces (fig9_10_corpus.csv, same columns) below.
do for [fig in "9 10"] {
    suf = fig eq "9" ? "none" : "8"
    if (corpus) {
        set terminal pngcairo size 1400,980 font "DejaVu Sans,10" noenhanced
    } else {
        set terminal pngcairo size 1400,520 font "DejaVu Sans,10" noenhanced
    }
    set output dir."/fig".fig.".png"
    if (corpus) { set multiplot layout 2,1 }
    set ylabel fig eq "9" ? "mean added cycles per LOADMETA (log; one read is 28)" : \
                            "mean added cycles per LOADMETA (log; 1 = the MLB lookup alone)"
    set title fig eq "9" ? "Fig 9 analogue: added LOADMETA latency without an MLB (compiler mode; synthetic stand-ins)" : \
                           "Fig 10 analogue: added LOADMETA latency with an 8-entry MLB (compiler mode; synthetic stand-ins)"
    set yrange [0.5:*]
    plot for [i=1:nl] dir."/fig9_10.csv" using (column("lat_".lay(i)."_".suf)):xtic(1) title ltitle(lay(i)) lc rgb colour(i)
    if (corpus) {
        set yrange [0.5:GPVAL_Y_MAX]  # the stand-ins' axis: the two panels compare at a glance
        set title "the same for the corpus programs (real code, traces captured by gpuarmor-run, ‡)"
        plot for [i=1:nl] dir."/fig9_10_corpus.csv" using (column("lat_".lay(i)."_".suf)):xtic(stringcolumn(1)." ‡") \
             title ltitle(lay(i)) lc rgb colour(i)
        unset multiplot
    }
}
set yrange [0.5:*]

# Fig 11 analogue: min / geomean / max against MLB size, per layout. fig11.csv columns: mlb, then per
# layout <layout>_min, _geomean, _max, _mean_reads. fig11_corpus.csv: mlb, then per layout _min,
# _geomean, _max: its geomeans are the dashed lines.
set output dir."/fig11.png"
set terminal pngcairo size 1000,620 font "DejaVu Sans,10" noenhanced
set style data linespoints
unset xtics
set xtics (1, 2, 4, 8, 16, 32, 64) rotate by 0 font ",10"
set logscale x 2
set xrange [0.9:72]
set xlabel "MLB entries"
set ylabel "mean added cycles per LOADMETA (log)"
set key top right
set title corpus ? "Fig 11 analogue: LOADMETA latency vs MLB size\nbands and solid lines: min..max and geomean over 28 stand-ins; dashed: geomean over the corpus programs ‡" : \
                   "Fig 11 analogue: LOADMETA latency vs MLB size (min, geomean, max over 28 stand-ins)"
# Bands: a light fill and their edges in the layout's colour (dashed), so that each band's extent reads
# where they overlap; every band first, then every line on top.
if (corpus) {
plot for [i=1:nl] dir."/fig11.csv" using 1:(column(lay(i)."_min")):(column(lay(i)."_max")) with filledcurves \
         lc rgb colour(i) fs transparent solid 0.12 title ltitle(lay(i))." min..max", \
     for [i=1:nl] '' using 1:(column(lay(i)."_min")) with lines dt 3 lw 1 lc rgb colour(i) notitle, \
     for [i=1:nl] '' using 1:(column(lay(i)."_max")) with lines dt 3 lw 1 lc rgb colour(i) notitle, \
     for [i=1:nl] '' using 1:(column(lay(i)."_geomean")) with linespoints lw 2 pt lpt(i) lc rgb colour(i) \
         title ltitle(lay(i))." geomean", \
     for [i=1:nl] dir."/fig11_corpus.csv" using 1:(column(lay(i)."_geomean")) with linespoints dt 2 lw 2 \
         pt (lpt(i) - 1) lc rgb colour(i) title ltitle(lay(i))." geomean, corpus ‡"
} else {
plot for [i=1:nl] dir."/fig11.csv" using 1:(column(lay(i)."_min")):(column(lay(i)."_max")) with filledcurves \
         lc rgb colour(i) fs transparent solid 0.12 title ltitle(lay(i))." min..max", \
     for [i=1:nl] '' using 1:(column(lay(i)."_min")) with lines dt 2 lw 1 lc rgb colour(i) notitle, \
     for [i=1:nl] '' using 1:(column(lay(i)."_max")) with lines dt 2 lw 1 lc rgb colour(i) notitle, \
     for [i=1:nl] '' using 1:(column(lay(i)."_geomean")) with linespoints lw 2 pt lpt(i) lc rgb colour(i) \
         title ltitle(lay(i))." geomean"
}

# Fig 13 analogue: HWOnly, 8 vs 16 entries, every workload: the BST (lat_8, lat_16 of fig13.csv) and
# the index beside it (index_lat_8, index_lat_16). Column group: "broader" marks the Fig 13 stand-ins
# (the † of docs/results.md). The corpus programs (fig13_corpus.csv, same columns) in the panel below.
set output dir."/fig13.png"
if (corpus) {
    set terminal pngcairo size 1500,1000 font "DejaVu Sans,10" noenhanced
} else {
    set terminal pngcairo size 1500,540 font "DejaVu Sans,10" noenhanced
}
unset logscale x
set autoscale x
unset xlabel
set ylabel "mean added cycles per LOADMETA (log)"
set style data histograms
set style histogram clustered gap 1
set xtics rotate by -50 scale 0 font ",9"
set key top left
if (corpus) { set multiplot layout 2,1 }
set title "Fig 12/13 analogue: HWOnly added latency per LOADMETA, 8- vs 16-entry MLB, BST and index; † the broader set (Fig 13 stand-ins)"
label(w, g) = g eq "broader" ? w." †" : g eq "corpus" ? w." ‡" : w
plot dir."/fig13.csv" using (column("lat_8")):xtic(label(strcol(1), strcol(2))) title "BST, 8 entries" lc rgb colour(2), \
     '' using (column("lat_16")) title "BST, 16 entries" lc rgb "#e09070", \
     '' using (column("index_lat_8")) title "index, 8 entries" lc rgb colour(4), \
     '' using (column("index_lat_16")) title "index, 16 entries" lc rgb "#c0a0d8"
if (corpus) {
    set yrange [0.5:GPVAL_Y_MAX]
    set title "the same for the corpus programs (real code, ‡)"
    plot dir."/fig13_corpus.csv" using (column("lat_8")):xtic(label(strcol(1), strcol(2))) title "BST, 8 entries" lc rgb colour(2), \
         '' using (column("lat_16")) title "BST, 16 entries" lc rgb "#e09070", \
         '' using (column("index_lat_8")) title "index, 8 entries" lc rgb colour(4), \
         '' using (column("index_lat_16")) title "index, 16 entries" lc rgb "#c0a0d8"
    unset multiplot
}

set datafile nocolumnheaders  # fig 7 and 8 name their columns by number (and the paper's datablock has no header)
if (!has(dir."/fig7.csv")) { exit }

# Fig 7 analogue: instruction bloat per corpus program (fig7.csv): dynamic bloat (column 7) and static
# bloat (17). The calling convention of the software-call encoding (column 8) is not part of the
# paper's figure: it is in the table and the CSV, not here, where it would dwarf the bars. Linear axis.
set output dir."/fig7.png"
set terminal pngcairo size 1400,560 font "DejaVu Sans,10" noenhanced
set rmargin 8
unset logscale y
set yrange [0:*]
set ylabel "added instructions / original instructions (%)"
set title "Fig 7 analogue: instruction bloat of the instrumentation on the corpus programs (interpreter, compiler mode vs HWOnly)"
set key top right
set style histogram clustered gap 1
blabel(w, k) = k eq "bug" ? w." (bug)" : w
plot dir."/fig7.csv" using 7:xtic(blabel(strcol(1), strcol(2))) title "LOADMETA + MEMCHECK + metadata MOVs, executed (thread instructions)" lc rgb "#1f4e9a", \
     '' using 17 title "the same, static (PTX text)" lc rgb "#8fb0e0"

# Fig 8 analogue: the classes of the executed MEMCHECK.Gs per corpus program (fig8.csv, columns 6..8,
# percent), stacked, and the paper's average (§7.2) as the last bar.
set output dir."/fig8.png"
set terminal pngcairo size 1400,560 font "DejaVu Sans,10" noenhanced
set rmargin 14
set style histogram rowstacked
set boxwidth 0.75
set yrange [0:105]
set ylabel "executed MEMCHECK.G requests (%)"
set title "Fig 8 analogue: root of each executed MEMCHECK.G (corpus programs, dynamic; paper: §7.2 average)"
set key outside right top
$paper << EOD
paper (Fig 8 average),55.5,36,8.5
EOD
plot newhistogram "corpus programs" lt 1, \
     dir."/fig8.csv" using 6:xtic(blabel(strcol(1), strcol(2))) title "full" lc rgb "#2c7a2c", \
     '' using 7 title "partial" lc rgb "#e0a030", '' using 8 title "tagging" lc rgb "#b03a10", \
     newhistogram "paper", $paper using 2:xtic(1) notitle lc rgb "#2c7a2c", '' using 3 notitle lc rgb "#e0a030", \
     '' using 4 notitle lc rgb "#b03a10"
