#!/bin/sh
# Regenerates results/reduce.csv, the summary tables and the plots of this
# experiment: allreduce by binomial tree (MST), by the prior-art extension of
# RHRD (mpich), by the IBM patent's method (nonpow2) and by a ring, plus the
# prior art and the patent's method for reduce, on np = 2 .. 130 ranks and
# vectors of 1 KiB .. 64 MiB, on clusters like gige.xml and ib4x.xml: 17
# nodes of 8 cores, and 130 nodes of 1 core (no shared memory: every message
# crosses the network, as in the patent's cost model).
# Needs a built simcoll (./setup.sh) and gnuplot; about 15 minutes on 2 cores.
# usage: experiments/nonpow2-allreduce/run.sh [--replot] [path/to/simcoll]
#   --replot: only remake the tables and plots from results/reduce.csv
# SPDX-License-Identifier: GPL-2.0-or-later
set -eu
. "$(dirname "$0")/../common.sh"
replot_start reduce.csv "$@"

algos=allreduce-mst,allreduce-mpich,allreduce-nonpow2,allreduce-ring,reduce-mpich,reduce-nonpow2
sizes=1K,4K,64K,1M,16M,64M
nps=$(seq -s, 2 130)
csv=$scratch/reduce.csv
# cluster name, template, nodes, cores per node
[ $replot = 1 ] || for cluster in "gige gige 17 8" "ib4x ib4x 17 8" "gige-flat gige 130 1" "ib4x-flat ib4x 130 1"; do
    set -- $cluster
    "$simcoll" platform --like "$top/platforms/$2.xml" --nodes "$3" --cores "$4" \
        -o "$scratch/$1.xml"
    # Size-only runs (sums of doubles): results are checked by the test
    # suite (tests/unit/test_reduce.c), times do not depend on the data.
    "$simcoll" --platform "$scratch/$1.xml" --compare "$algos" --np "$nps" --size "$sizes" \
        --no-payload --format csv | sed "1!s/^[^,]*,/$1,/" > "$scratch/part.csv"
    if [ ! -s "$csv" ]; then head -n 1 "$scratch/part.csv" > "$csv"; fi
    tail -n +2 "$scratch/part.csv" >> "$csv"
    echo "$1: done" >&2
done
[ $replot = 1 ] || mv "$csv" "$results/reduce.csv"

# ratios.txt: cluster, np, size, time of the patent's method / prior art,
# for allreduce and for reduce.
awk -F, 'NR > 1 { t[$1 "," $4 "," $6, $2] = $8; k[$1 "," $4 "," $6] = 1 }
    END { print "# cluster,np,size_bytes,allreduce_nonpow2/mpich,reduce_nonpow2/mpich"
          for (x in k)
              printf "%s,%.4f,%.4f\n", x, t[x, "allreduce-nonpow2"] / t[x, "allreduce-mpich"],
                     t[x, "reduce-nonpow2"] / t[x, "reduce-mpich"] }' "$results/reduce.csv" |
    sort -t, -k1,1 -k3,3n -k2,2n > "$results/ratios.txt"

# volume.txt: the bytes of each algorithm, in units of the vector L, at the
# process counts of the closing note (the same on every cluster: they depend
# on the schedule only).
awk -F, 'NR > 1 && $1 == "gige" && $6 == 1048576 &&
         ($4 == 12 || $4 == 24 || $4 == 48 || $4 == 96) {
             printf "%s,%d,%.4f,%.4f,%.4f\n", $2, $4, $21 / $6, $22 / $6,
                    ($10 + $11) / $4 / $6 }' "$results/reduce.csv" |
    sort -t, -k1,1 -k2,2n |
    sed '1i # algo,np,max_bytes_sent_by_a_rank/L,critical_path_bytes/L,mean_bytes_sent_per_rank/L' \
    > "$results/volume.txt"

# Plots. Time against np (the power-of-two sawtooth), per cluster.
for cluster in gige ib4x gige-flat ib4x-flat; do
    gnuplot <<GP
set terminal pngcairo size 1500,520 font ",10"
set output "$results/$cluster-time.png"
set multiplot layout 1,3 title "allreduce on $cluster (simulated)"
set datafile separator ","
set logscale y
set format y "%.0s %cs"
set xrange [0:132]
set xlabel "processes"
set ylabel "simulated time"
set grid
set key below
algos = "allreduce-mst allreduce-mpich allreduce-nonpow2 allreduce-ring"
data(a, L) = "< awk -F, '\$1 == \"$cluster\" && \$2 == \"" . a . "\" && \$6 == " . L . "' $results/reduce.csv"
do for [L in "4096 1048576 67108864"] {
    set title (L eq "4096" ? "4 KiB" : L eq "1048576" ? "1 MiB" : "64 MiB")
    plot for [i=1:4] data(word(algos, i), L) using 4:8 with lines lw 2 title word(algos, i)
}
unset multiplot
GP
done
# The ratio patent / prior art against np, every cluster.
for coll in allreduce reduce; do
    col=$([ $coll = allreduce ] && echo 4 || echo 5)
    gnuplot <<GP
set terminal pngcairo size 1200,520 font ",10"
set output "$results/ratio-$coll.png"
set multiplot layout 1,2 title "$coll: time of the patent's method / time of the prior art (below 1: the patent is faster)"
set datafile separator ","
set xlabel "processes"
set grid
set yrange [0.6:1.15]
set key below
clusters = "gige ib4x gige-flat ib4x-flat"
data(c, L) = "< awk -F, '\$1 == \"" . c . "\" && \$3 == " . L . "' $results/ratios.txt"
do for [L in "4096 1048576"] {
    set title (L eq "4096" ? "4 KiB" : "1 MiB")
    plot for [i=1:4] data(word(clusters, i), L) using 2:$col with lines lw 2 title word(clusters, i), \\
         1 with lines lc rgb "black" dt 3 title "equal"
}
unset multiplot
GP
done
# Critical-path bytes / L against np (schedule only, any cluster).
gnuplot <<GP
set terminal pngcairo size 900,520 font ",10"
set output "$results/critical-path.png"
set title "bytes on the critical path, in units of the vector L"
set datafile separator ","
set xlabel "processes"
set ylabel "critical-path bytes / L"
set grid
set key below
set yrange [0:*]
algos = "allreduce-mpich allreduce-nonpow2 allreduce-ring reduce-mpich reduce-nonpow2"
data(a) = "< awk -F, '\$1 == \"gige-flat\" && \$2 == \"" . a . "\" && \$6 == 1048576' $results/reduce.csv"
plot for [i=1:5] data(word(algos, i)) using 4:(\$22 / \$6) with lines lw 2 title word(algos, i)
GP
echo "wrote $results" >&2
