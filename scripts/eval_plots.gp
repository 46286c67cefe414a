# eval_plots.gp — the PNG plots of an evaluation run, drawn from its CSV files (docs/eval.md).
# Usage: gnuplot -e "dir='build/eval/smoke'" scripts/eval_plots.gp
# Writes dir/fig9.png, dir/fig10.png, dir/fig11.png, dir/fig13.png. Every value comes from the CSVs.

if (!exists("dir")) dir = "build/eval/smoke"
set datafile separator ","
set terminal pngcairo size 1400,520 font "DejaVu Sans,10" noenhanced
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.85 border -1
set boxwidth 0.9
set xtics rotate by -50 scale 0 font ",9"
set grid ytics
set key top left
set logscale y
set ylabel "mean added cycles per LOADMETA (log)"

# Fig 9 analogue: no MLB. Columns 8..10 of fig9_10.csv: lat_{list,bst,table}_none.
set output dir."/fig9.png"
set title "Fig 9 analogue: added LOADMETA latency without an MLB (compiler mode; synthetic stand-ins)"
plot dir."/fig9_10.csv" using 8:xtic(1) title "list", '' using 9 title "BST", '' using 10 title "table"

# Fig 10 analogue: 8-entry MLB. Columns 11..13: lat_{list,bst,table}_8.
set output dir."/fig10.png"
set title "Fig 10 analogue: added LOADMETA latency with an 8-entry MLB"
plot dir."/fig9_10.csv" using 11:xtic(1) title "list", '' using 12 title "BST", '' using 13 title "table"

# Fig 11 analogue: min / geomean / max against MLB size, per layout.
set output dir."/fig11.png"
set terminal pngcairo size 900,560 font "DejaVu Sans,10" noenhanced
set style data linespoints
unset xtics
set xtics (1, 2, 4, 8, 16, 32, 64) rotate by 0 font ",10"
set logscale x 2
set xrange [0.9:72]
set xlabel "MLB entries"
set key top right
set title "Fig 11 analogue: LOADMETA latency vs MLB size (min, geomean, max over 28 stand-ins)"
plot dir."/fig11.csv" using 1:2:4 with filledcurves lc rgb "#c8d8f0" title "list min..max", \
     '' using 1:3 with linespoints lw 2 lc rgb "#1f4e9a" title "list geomean", \
     '' using 1:6:8 with filledcurves lc rgb "#f4d2c4" fs transparent solid 0.6 title "BST min..max", \
     '' using 1:7 with linespoints lw 2 lc rgb "#b03a10" title "BST geomean", \
     '' using 1:11 with linespoints lw 2 lc rgb "#2c7a2c" title "table geomean"

# Fig 13 analogue: HWOnly, BST, 8 vs 16 entries, every workload. Columns 7 and 10 of fig13.csv.
set output dir."/fig13.png"
set terminal pngcairo size 1500,520 font "DejaVu Sans,10" noenhanced
unset logscale x
set autoscale x
unset xlabel
set style data histograms
set style histogram clustered gap 1
set xtics rotate by -50 scale 0 font ",9"
set key top left
set title "Fig 12/13 analogue: HWOnly added latency per LOADMETA, 8- vs 16-entry MLB (BST)"
plot dir."/fig13.csv" using 7:xtic(1) title "8 entries", '' using 10 title "16 entries"
