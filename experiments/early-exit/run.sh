#!/bin/sh
# Regenerates results/early.csv, results/summary.txt and the plots of this
# experiment: the early-exit allreduce (reference 003) against the recursive
# doubling it cuts short (allreduce-rd) and against what MPICH runs for the
# vector (allreduce-rabenseifner for long vectors, allreduce-rd for short),
# for LAND of one int (4 bytes) and BOR of 16384 ints (64 KiB), on clusters
# like gige.xml and ib4x.xml: 8 nodes of 8 cores for np = 64 (the shipped
# platforms) and 128 nodes of 8 cores for np up to 1024.
#   sweep "who": np 64 and 1024, deciders none, first, middle, last and
#                fractions 0.001 .. 1 of the ranks;
#   sweep "np":  np 8 .. 1024, deciders none, middle and 0.01.
# Size-only runs: the results are checked by tests/unit/test_early.c, and a
# size-only run takes the same simulated time as one with data (also tested).
#   speculation:  MAX (allreduce-spec, verified speculation) over a loop of
#                40 calls as the extreme moves with probability 0 .. 1.
# Needs a built simcoll (./setup.sh) and gnuplot; about 10 minutes on 2 cores.
# usage: experiments/early-exit/run.sh [--replot] [path/to/simcoll]
# SPDX-License-Identifier: GPL-2.0-or-later
set -eu
. "$(dirname "$0")/../common.sh"
replot_start early.csv "$@"
csv=$scratch/early.csv

# run SWEEP CLUSTER PLATFORM DECIDER NPS: one line per algorithm, np and
# size, with the sweep, the cluster and the decider in front.
run() {
    sweep=$1 cluster=$2 platform=$3 who=$4 nps=$5
    for case in "land 4" "bor 64K"; do
        set -- $case
        "$simcoll" --platform "$platform" --compare allreduce-rd,allreduce-rabenseifner,allreduce-early \
            --op "$1" --type int --np "$nps" --size "$2" --data "decider=$who" --no-payload \
            --format csv > "$scratch/part.csv"
        if [ ! -s "$csv" ]; then
            printf 'sweep,cluster,decider,' > "$csv"
            head -n 1 "$scratch/part.csv" >> "$csv"
        fi
        tail -n +2 "$scratch/part.csv" | sed "s/^/$sweep,$cluster,$who,/" >> "$csv"
    done
}

if [ $replot = 0 ]; then
    for cluster in gige ib4x; do
        big=$scratch/$cluster-128.xml
        "$simcoll" platform --like "$top/platforms/$cluster.xml" --nodes 128 -o "$big"
        for who in none first middle last 0.001 0.01 0.05 0.1 0.25 0.5 1.0; do
            run who "$cluster" "$top/platforms/$cluster.xml" "$who" 64
            run who "$cluster" "$big" "$who" 1024
        done
        for who in none middle 0.01; do
            run np "$cluster" "$big" "$who" 8,12,16,24,32,48,64,96,128,192,256,384,512,768,1024
        done
    done
    cp "$csv" "$results/early.csv"

    # Speculative MAX (allreduce-spec) against recursive doubling and
    # Rabenseifner over a loop of 40 calls, as the extreme moves more often.
    spec=$scratch/speculation.csv
    for cluster in gige ib4x; do
        for np in 64 1024; do
            platform=$top/platforms/$cluster.xml
            if [ $np = 1024 ]; then
                platform=$scratch/$cluster-128.xml
                "$simcoll" platform --like "$top/platforms/$cluster.xml" --nodes 128 -o "$platform"
            fi
            for size in 4 65536; do
                for algo in allreduce-spec allreduce-rd allreduce-rabenseifner; do
                    printf 'loop 40\n  allreduce %s algo=%s op=max type=int\nend\n' "$size" "$algo" \
                        > "$scratch/$algo.prog"
                    for move in 0 0.02 0.05 0.1 0.2 0.5 1; do
                        # The baselines do not depend on where the extreme is.
                        [ $algo = allreduce-spec ] || [ $move = 0 ] || continue
                        "$simcoll" run --platform "$platform" --np $np --no-payload \
                            --data "extreme=first/$move" --format csv "$scratch/$algo.prog" \
                            > "$scratch/part.csv"
                        if [ ! -s "$spec" ]; then
                            printf 'cluster,algo,size_bytes,move,' > "$spec"
                            head -n 1 "$scratch/part.csv" >> "$spec"
                        fi
                        tail -n +2 "$scratch/part.csv" | sed "s/^/$cluster,$algo,$size,$move,/" >> "$spec"
                    done
                done
            done
        done
    done
    cp "$spec" "$results/speculation.csv"
fi
data=$results/early.csv

# summary.txt: time of the early exit / time of allreduce-rd and of
# allreduce-rabenseifner, per cluster, np, size and decider (sweep "who").
awk -F, 'NR > 1 && $1 == "who" {
        key = $2 "," $7 "," $9; t[key, $3, $5] = $11; k[key] = 1; d[$3] = 1 }
    END {
        print "# cluster,np,size_bytes,decider,early_s,rd_s,rabenseifner_s,early/rd,early/rabenseifner"
        n = split("none first middle last 0.001 0.01 0.05 0.1 0.25 0.5 1.0", order, " ")
        for (key in k)
            for (i = 1; i <= n; i++) {
                w = order[i]
                e = t[key, w, "allreduce-early"]; r = t[key, w, "allreduce-rd"]
                b = t[key, w, "allreduce-rabenseifner"]
                if (e != "")
                    printf "%s,%s,%.4g,%.4g,%.4g,%.3f,%.3f\n", key, w, e, r, b, e / r, e / b
            }
    }' "$data" | sort -t, -k1,1 -k2,2n -k3,3n -s > "$results/summary.txt"

# Plot: time against who decides, one panel per cluster and size, np 64
# and 1024; and time against np.
for cluster in gige ib4x; do
    for case in "4 land" "65536 bor"; do
        set -- $case
        gnuplot <<EOF
set terminal pngcairo size 900,520 font ",11"
set output "$results/who-$cluster-$1.png"
set title "allreduce, $2 of $1 bytes on $cluster-like clusters (8-core nodes): who decides"
set datafile separator ","
set logscale y
set ylabel "simulated time (us)"
set xlabel "ranks whose input decides the result"
set key outside right top
set grid ytics
set xtics rotate by -30
set style data linespoints
labels = "none first middle last 0.001 0.01 0.05 0.1 0.25 0.5 1.0"
data(np, a) = "< awk -F, '\$1 == \"who\" && \$2 == \"$cluster\" && \$9 == $1 && \$7 == " . np . " && \$5 == \"" . a . "\"' $data"
plot for [np in "64 1024"] data(np, "allreduce-early") using 0:(\$11*1e6):xtic(3) lw 2 title "early exit, np ".np, \
     for [np in "64 1024"] data(np, "allreduce-rd") using 0:(\$11*1e6) lw 1 dt 2 title "recursive doubling, np ".np, \
     for [np in "64 1024"] data(np, "allreduce-rabenseifner") using 0:(\$11*1e6) lw 1 dt 3 title "Rabenseifner, np ".np
EOF
        gnuplot <<EOF
set terminal pngcairo size 900,520 font ",11"
set output "$results/np-$cluster-$1.png"
set title "allreduce, $2 of $1 bytes on a $cluster-like cluster of 128 nodes x 8 cores"
set datafile separator ","
set logscale xy
set xlabel "processes"
set ylabel "simulated time (us)"
set xrange [6:1400]
set key outside right top
set grid
set style data linespoints
data(w, a) = "< awk -F, '\$1 == \"np\" && \$2 == \"$cluster\" && \$9 == $1 && \$3 == \"" . w . "\" && \$5 == \"" . a . "\"' $data"
plot for [w in "none middle 0.01"] data(w, "allreduce-early") using 7:(\$11*1e6) lw 2 title "early exit, decider ".w, \
     data("none", "allreduce-rd") using 7:(\$11*1e6) lw 1 dt 2 title "recursive doubling", \
     data("none", "allreduce-rabenseifner") using 7:(\$11*1e6) lw 1 dt 3 title "Rabenseifner"
EOF
    done
done
# speculation.txt: time per call of the speculative MAX against recursive
# doubling and Rabenseifner (whose times do not depend on the data), and
# its bets, per cluster, np, size and how often the extreme moves.
awk -F, 'NR > 1 {
        key = $1 "," $7 "," $3
        if ($2 == "allreduce-spec") {
            t[key "," $4] = $11; b[key "," $4] = $20; w[key "," $4] = $21; k[key] = 1
        } else {
            base[key "," $2] = $11
        }
    }
    END {
        print "# cluster,np,size_bytes,move,spec_s_per_call,rd_s_per_call,rabenseifner_s_per_call,spec/rd,spec/rabenseifner,bets,wrong_bets"
        n = split("0 0.02 0.05 0.1 0.2 0.5 1", order, " ")
        for (key in k)
            for (i = 1; i <= n; i++) {
                mv = order[i]; s = t[key "," mv]
                r = base[key ",allreduce-rd"]; q = base[key ",allreduce-rabenseifner"]
                if (s != "")
                    printf "%s,%s,%.4g,%.4g,%.4g,%.3f,%.3f,%d,%d\n", key, mv, s / 40, r / 40,
                           q / 40, s / r, s / q, b[key "," mv], w[key "," mv]
            }
    }' "$results/speculation.csv" | sort -t, -k1,1 -k2,2n -k3,3n -k4,4g > "$results/speculation.txt"

for cluster in gige ib4x; do
    for size in 4 65536; do
        gnuplot <<EOF
set terminal pngcairo size 900,520 font ",11"
set output "$results/speculation-$cluster-$size.png"
set title "MAX of $size bytes on $cluster-like clusters, 40 calls: how often the extreme moves"
set datafile separator ","
set xlabel "probability that the extreme moves to another rank between calls"
set ylabel "simulated time per call (us)"
set logscale y
set key outside right top
set grid ytics
set style data linespoints
data(np) = "< awk -F, '\$1 == \"$cluster\" && \$2 == " . np . " && \$3 == $size' $results/speculation.txt"
plot for [np in "64 1024"] data(np) using 4:(\$5*1e6) lw 2 title "speculative, np ".np, \
     for [np in "64 1024"] data(np) using 4:(\$6*1e6) lw 1 dt 2 title "recursive doubling, np ".np, \
     for [np in "64 1024"] data(np) using 4:(\$7*1e6) lw 1 dt 3 title "Rabenseifner, np ".np
EOF
    done
done
echo "results in $results"
