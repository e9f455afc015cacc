#!/bin/sh
# Draws results/partitioners.png from results/partitioners.csv and writes
# this experiment's two tables into its README.md (between the markers
# "<!-- begin NAME (report.sh) -->" and "<!-- end NAME -->") from
# results/mapping.csv (run.sh) and results/partitioners.csv
# (partitioners.sh), which both call it at their end.
# usage: experiments/mapping/report.sh
# SPDX-License-Identifier: GPL-2.0-or-later
set -eu
. "$(dirname "$0")/../common.sh"
readme=$here/README.md

# Replaces the lines between the markers of NAME in the README with FILE.
put_table() { # NAME FILE
    awk -v name="$1" -v file="$2" '
        $0 == "<!-- begin " name " (report.sh) -->" { print; while ((getline l < file) > 0) print l; skip = 1; next }
        $0 == "<!-- end " name " -->" { skip = 0 }
        !skip' "$readme" > "$scratch/readme"
    cat "$scratch/readme" > "$readme"
}

# Simulated milliseconds, four significant digits, zeros kept ("" where not run).
MS='function ms(s,    x) { if (s == "") return ""; x = sprintf("%#.4g", s * 1000); sub(/[.]$/, "", x); return x }'

if [ -f "$results/mapping.csv" ]; then
    awk -F, "$MS"'
        NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i
                  print "| platform | np | case | block | cut | bottleneck | time | time'"'"'s steps | scotch | metis |"
                  print "|---|---|---|---|---|---|---|---|---|---|"; next }
        { printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", $1, $2, $3,
                 ms($col["block_s"]), ms($col["cut_s"]), ms($col["bottleneck_s"]), ms($col["time_s"]),
                 $col["time_steps"], ms($col["scotch_s"]), ms($col["metis_s"]) }' \
        "$results/mapping.csv" > "$scratch/mapping.md"
    put_table mapping "$scratch/mapping.md"
fi

[ -f "$results/partitioners.csv" ] || exit 0
csv=$results/partitioners.csv
# cut and bottleneck also as ratios to the multilevel partitioner's.
awk -F, "$MS"'
    NR == FNR { if ($3 == "multilevel") { cut[$1, $2] = $4; load[$1, $2] = $5 } next }
    FNR == 1 { print "| graph | np | partitioner | cut | / multilevel | bottleneck | / multilevel | partitioner s | simulated ms |"
               print "|---|---|---|---|---|---|---|---|---|"; next }
    { printf "| %s | %s | %s | %.0f | %.3f | %.0f | %.3f | %s | %s |\n", $1 == "halo" ? "halo.prog" : $1,
             $2, $3, $4, $4 / cut[$1, $2], $5, $5 / load[$1, $2], $6 == "" ? "" : sprintf("%.3g", $6), ms($7) }' \
    "$csv" "$csv" > "$scratch/partitioners.md"
put_table partitioners "$scratch/partitioners.md"

# Each partitioner's figures against the multilevel partitioner's, and its
# wall time, as the ranks grow: one row of panels for each graph.
awk -F, 'NR == FNR { if ($3 == "multilevel") { c[$1, $2] = $4; l[$1, $2] = $5; s[$1, $2] = $7 } next }
         FNR > 1 { print $1, $2, $3, $4 / c[$1, $2], $5 / l[$1, $2], ($6 == "" ? "NaN" : $6),
                         ($7 == "" || s[$1, $2] == "" ? "NaN" : $7 / s[$1, $2]) }' \
    "$csv" "$csv" > "$scratch/ratios.dat"
command -v gnuplot >/dev/null || { echo "report.sh: no gnuplot, no plot" >&2; exit 0; }
gnuplot <<EOF
set terminal pngcairo size 1400,800 font ",10"
set output "$results/partitioners.png"
set multiplot layout 2,4 title "Partitioners on ib4x-like clusters of 8-core nodes (experiments/mapping/partitioners.sh)"
set logscale x 2
set xrange [48:90000]
set xtics (64, 1024, 65536)
set grid
set key top left
set offsets 0, 0, graph 0.4, graph 0.05
set style data linespoints
data(g, p) = "< awk '\$1 == \"" . g . "\" && \$3 == \"" . p . "\"' $scratch/ratios.dat"
parts = "multilevel greedy scotch metis"
do for [g in "bruck halo"] {
    name = g eq "halo" ? "halo.prog" : "Bruck"
    set title name . ": cut / multilevel's"
    set ylabel "ratio"
    unset logscale y
    plot for [p in parts] data(g, p) using 2:4 lw 2 title p
    set title name . ": bottleneck / multilevel's"
    plot for [p in parts] data(g, p) using 2:5 lw 2 title p
    set title name . ": simulated time / multilevel's"
    plot for [p in parts] data(g, p) using 2:7 lw 2 title p
    set title name . ": partitioner wall time"
    set ylabel "seconds"
    set logscale y
    set format y "%g"
    set offsets 0, 0, 0, 0
    plot for [p in "multilevel greedy scotch metis"] data(g, p) using 2:6 lw 2 title p
    unset logscale y
    set format y "% h"
    set offsets 0, 0, graph 0.4, graph 0.05
}
unset multiplot
EOF
