#!/bin/sh
# Predictions of simcoll against real collective timings of the Jet cluster
# (8 nodes of 2 x Xeon E5420, Gigabit Ethernet, MPICH2 1.2.1), which no
# parameter of platforms/gige.xml was fitted to: MPI_Barrier on 1 to 64
# processes and MPI_Bcast of 1 byte to 1 MiB on 64, measured by mpiperf
# (github.com/mkurnosov/mpiperf, first commit ab593c0, examples/graphs/
# barrier.dat and bcast.dat; BSD-3 licence; not copied into simcoll).
# simcoll runs what MPICH2 1.2.1 runs (--coll ... --mpi mpich2-1.2.1) on
# gige.xml, ranks placed by node as mpiperf's report shows. mpiperf times
# one call from a start synchronized by a global clock and reports the
# slowest process: simcoll's sim_time_s of one call, which this script
# checks is what simcoll validate --measure mpiperf gives at every point.
# "Before" (optional third argument): simcoll as it was before the LogGP
# model, the MPI profiles and the calibrated platform, commit b6f416d, given
# as a tree of that commit with its simcoll built in build/ (git archive
# b6f416d | tar -x -C DIR; cmake -S DIR -B DIR/build; cmake --build
# DIR/build): its own gige.xml and the flat algorithms closest to MPICH2
# 1.2.1's choice, the dissemination barrier and the binomial broadcast below
# 12 KiB (MPICH2's short-message limit), scatter + ring allgather from there.
# Written to validation-before.csv and summary-before.txt, left as they are
# without it. Issue 28 changed nothing here (gige.xml last changed in issue 7).
# Needs a built simcoll and gnuplot; about a second.
# usage: experiments/validation/run.sh MPIPERF_CHECKOUT [path/to/simcoll] [BEFORE_TREE]
# SPDX-License-Identifier: GPL-2.0-or-later
set -eu
. "$(dirname "$0")/../common.sh"
[ $# -ge 1 ] || { echo "usage: $0 MPIPERF_CHECKOUT [simcoll] [BEFORE_TREE]" >&2; exit 2; }
data=$1/examples/graphs
simcoll=${2:-$top/build/simcoll}
before=${3:-}
need_simcoll "$simcoll"
if [ -n "$before" ] && { [ ! -x "$before/build/simcoll" ] || [ ! -s "$before/platforms/gige.xml" ]; }; then
    echo "run.sh: '$before' is no built tree of simcoll at b6f416d (build/simcoll, platforms/gige.xml)" >&2
    exit 2
fi
for f in barrier.dat bcast.dat; do
    [ -s "$data/$f" ] || { echo "run.sh: no $data/$f; give a checkout of github.com/mkurnosov/mpiperf at ab593c0" >&2; exit 2; }
done
need_gnuplot

# mpiperf rows: parameter, runs..., mean (us) in column 5; '#' lines are comments.
measured() { awk '!/^#/ && NF >= 5 { print $1 "," $5 * 1e-6 }' "$data/$1"; }
measured barrier.dat > "$scratch/barrier.meas"
measured bcast.dat > "$scratch/bcast.meas"

nps=$(cut -d, -f1 "$scratch/barrier.meas" | awk '$1 >= 2' | paste -sd,)
sizes=$(cut -d, -f1 "$scratch/bcast.meas" | paste -sd,)
"$simcoll" --platform "$top/platforms/gige.xml" --coll barrier --mpi mpich2-1.2.1 \
    --np "$nps" --no-payload --format csv > "$scratch/barrier.csv"
"$simcoll" --platform "$top/platforms/gige.xml" --coll bcast --mpi mpich2-1.2.1 \
    --np 64 --size "$sizes" --no-payload --format csv > "$scratch/bcast.csv"

# compare SUFFIX: validation$SUFFIX.csv, the measured points beside simcoll's
# barrier$SUFFIX.csv and bcast$SUFFIX.csv (np 4th, size_bytes 6th,
# sim_time_s 8th; b6f416d's columns too): operation, parameter (np or
# bytes), algorithm, measured and predicted seconds, relative error; and
# summary$SUFFIX.txt: per operation, points, median and largest |error|.
compare() {
    {
        echo "operation,parameter,algo,measured_s,predicted_s,error"
        awk -F, 'NR == FNR { m[$1] = $2; next } FNR > 1 && ($4 in m) {
            printf "barrier,%d,%s,%.9g,%.9g,%.4f\n", $4, $2, m[$4], $8, ($8 - m[$4]) / m[$4] }' \
            "$scratch/barrier.meas" "$scratch/barrier$1.csv"
        awk -F, 'NR == FNR { m[$1] = $2; next } FNR > 1 && ($6 in m) {
            printf "bcast,%d,%s,%.9g,%.9g,%.4f\n", $6, $2, m[$6], $8, ($8 - m[$6]) / m[$6] }' \
            "$scratch/bcast.meas" "$scratch/bcast$1.csv"
    } > "$results/validation$1.csv"
    awk -F, -f "$here/summary.awk" "$results/validation$1.csv" | sort > "$results/summary$1.txt"
}
compare ""
# By size class, the broadcast (barriers carry no data): one call's
# sim_time_s is mpiperf's figure, so both columns are the same.
awk -F, '$1 == "bcast" { print $2, $6, $6 }' "$results/validation.csv" |
    awk -v bench=mpiperf -f "$here/classes.awk" >> "$results/summary.txt"
cat "$results/summary.txt"

# mpiperf's own timing, simulated (simcoll validate --measure mpiperf, on
# the points written as simcoll-probe files) must give sim_time_s exactly.
{
    echo "# simcoll-probe 1"
    awk -F, '$1 >= 2 { printf "collective barrier %d 0 %s\n", $1, $2 }' "$scratch/barrier.meas"
    awk -F, '{ printf "collective bcast 64 %d %s\n", $1, $2 }' "$scratch/bcast.meas"
} > "$scratch/mpiperf.probe"
"$simcoll" validate --platform "$top/platforms/gige.xml" --mpi mpich2-1.2.1 --measure mpiperf \
    --format csv "$scratch/mpiperf.probe" 2> /dev/null > "$scratch/mpiperf.csv"
awk -F, 'NR == FNR { if (FNR > 1) p[$1 "," $2] = $5; next }
         FNR > 1 { k = $2 "," ($2 == "barrier" ? $3 : $4); n++
                   if (!(k in p) || p[k] != $7) { print "run.sh: mpiperf at " k ": " $7 > "/dev/stderr"; bad = 1 } }
         END { exit bad || n != want }' want=$(($(wc -l < "$results/validation.csv") - 1)) \
    "$results/validation.csv" "$scratch/mpiperf.csv" ||
    { echo "run.sh: simcoll validate --measure mpiperf does not give sim_time_s" >&2; exit 1; }

# Before: the same points with simcoll at b6f416d.
if [ -n "$before" ]; then
    bsim=$before/build/simcoll
    bplat=$before/platforms/gige.xml
    small=$(cut -d, -f1 "$scratch/bcast.meas" | awk '$1 < 12288' | paste -sd,)
    large=$(cut -d, -f1 "$scratch/bcast.meas" | awk '$1 >= 12288' | paste -sd,)
    "$bsim" --platform "$bplat" --algo barrier --np "$nps" --no-payload --format csv \
        > "$scratch/barrier-before.csv"
    {
        "$bsim" --platform "$bplat" --algo bcast-binomial --np 64 --size "$small" --no-payload \
            --format csv
        "$bsim" --platform "$bplat" --algo bcast-scatter-allgather --np 64 --size "$large" \
            --no-payload --format csv | tail -n +2
    } > "$scratch/bcast-before.csv"
    compare -before
    echo "before (simcoll at b6f416d):"
    cat "$results/summary-before.txt"
fi

# Plots: measured and predicted.
grep '^barrier,' "$results/validation.csv" > "$scratch/b.dat"
grep '^bcast,' "$results/validation.csv" > "$scratch/c.dat"
gnuplot <<PLOT
set datafile separator ","
set terminal pngcairo size 900,560
set key top left
set grid
set output "$results/barrier.png"
set title "MPI_Barrier on Jet (MPICH2 1.2.1, 8 cores a node, Gigabit Ethernet)"
set xlabel "processes"
set ylabel "time (us)"
plot "$scratch/b.dat" using 2:(\$4*1e6) with linespoints title "measured (mpiperf)", \
     "$scratch/b.dat" using 2:(\$5*1e6) with linespoints title "simcoll, --mpi mpich2-1.2.1"
set output "$results/bcast.png"
set title "MPI_Bcast on 64 processes of Jet"
set xlabel "bytes"
set logscale xy
plot "$scratch/c.dat" using 2:(\$4*1e6) with linespoints title "measured (mpiperf)", \
     "$scratch/c.dat" using 2:(\$5*1e6) with linespoints title "simcoll, --mpi mpich2-1.2.1"
PLOT
echo "results in $results" >&2
