#!/bin/sh
# Regenerates results/allgather.csv and the plots of this experiment:
# recursive doubling and Bruck allgather with MPI's block placement, and
# their exch and reorder variants on the partition-derived mapping pi,
# for blocks of 1 B to 1 MiB, on 2 to 64 nodes of 8 cores like gige.xml
# and ib4x.xml. Needs a built simcoll (./setup.sh) and gnuplot.
# usage: experiments/hierarchical-allgather/run.sh [--replot] [path/to/simcoll]
#   --replot: only remake the speedup tables and plots from results/allgather.csv
# SPDX-License-Identifier: GPL-2.0-or-later
set -eu
. "$(dirname "$0")/../common.sh"
replot_start allgather.csv "$@"

algos=rd,rd-exch,rd-reorder,bruck,bruck-exch,bruck-reorder
sizes=1,16,256,4K,64K,1M
csv=$scratch/allgather.csv
[ $replot = 1 ] || for platform in gige ib4x; do
    for nodes in 2 4 8 16 32 64; do
        "$simcoll" platform --like "$top/platforms/$platform.xml" --nodes "$nodes" \
            -o "$scratch/$platform-$nodes.xml"
        # Size-only runs: 512 ranks with 1 MiB blocks would need 256 GiB of
        # data. Every algorithm's output is checked by the test suite.
        "$simcoll" --platform "$scratch/$platform-$nodes.xml" --compare "$algos" \
            --size "$sizes" --no-payload --format csv |
            sed "1!s/^[^,]*,/$platform,/" > "$scratch/part.csv"
        if [ ! -s "$csv" ]; then head -n 1 "$scratch/part.csv" > "$csv"; fi
        tail -n +2 "$scratch/part.csv" >> "$csv"
        echo "$platform, $nodes nodes: done" >&2
    done
done
[ $replot = 1 ] || mv "$csv" "$results/allgather.csv"

# speedup.dat per platform and family: nodes, size, time of the plain
# algorithm on block placement / time of each variant.
for platform in gige ib4x; do
    for family in rd bruck; do
        awk -F, -v p="$platform" -v f="$family" '
            NR > 1 && $1 == p && ($2 == f || $2 == f "-exch" || $2 == f "-reorder") {
                key = $4 " " $6; t[key, $2] = $8; keys[key] = 1 }
            END { for (k in keys)
                      print k, t[k, f] / t[k, f "-exch"], t[k, f] / t[k, f "-reorder"] }' \
            "$results/allgather.csv" | sort -n -k1,1 -k2,2 > "$scratch/$platform-$family.dat"
        # pngcairo: the plain png terminal draws dashed lines solid.
        gnuplot <<GP
set terminal pngcairo size 900,560 font ",11"
set output "$results/$platform-$family.png"
set title "$family allgather on $platform-like clusters of 8-core nodes"
set xlabel "block per rank (bytes)"
set ylabel "speedup over MPI's block placement"
set logscale x 2
set xtics ("1" 1, "16" 16, "256" 256, "4K" 4096, "64K" 65536, "1M" 1048576)
set yrange [0:*]
set key outside right top
set grid
ranks = "16 32 64 128 256 512"
data(n) = "< awk '\$1 == " . n . "' $scratch/$platform-$family.dat"
plot for [i=1:6] data(word(ranks, i)) using 2:4 with linespoints lc i pt 7 \
         title word(ranks, i) . " ranks, reorder", \
     for [i=1:6] data(word(ranks, i)) using 2:3 with lines lc i dt 2 \
         title word(ranks, i) . " ranks, exch", \
     1 with lines lc rgb "black" dt 3 lw 1 title "no speedup"
GP
        cp "$scratch/$platform-$family.dat" "$results/$platform-$family-speedup.txt"
    done
done
echo "wrote $results" >&2
