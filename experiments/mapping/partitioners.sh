#!/bin/sh
# Regenerates results/partitioners.csv of this experiment: simcoll's
# partitioners (multilevel, greedy) beside Scotch's and METIS's
# (--partitioner scotch|metis) on the same graphs, Bruck's allgather and
# halo.prog (a 2-D stencil of five fields), at the process counts of NPS
# (default 64 1024 65536) on ib4x.xml grown to as many 8-core nodes as they
# need (simcoll platform --like). For each: the cut, the bytes through the
# busiest node's link (bottleneck), the partitioner's wall time (the least
# of REPEATS runs, default 3, one after another) and the simulated time of
# the mapping (2 KiB blocks for Bruck; halo.prog sizes only), and the same
# figures for block placement. Simulations are skipped (left empty) above
# SIM_MAX ranks for halo.prog (default 1024: one takes minutes at 65,536)
# and BRUCK_SIM_MAX for Bruck (default 1024: at 65,536 its five simulations
# take about two minutes each).
# PARTITIONERS and GRAPHS choose fewer. Rows already in the file for other
# (graph, np) pairs are kept, so that sizes can be run one at a time; then
# report.sh redraws the plot and the README's tables.
# Took 3.5 minutes at 64 and 1024 ranks, and 14.5 at 65,536 with Bruck's
# simulations (BRUCK_SIM_MAX=65536; GRAPHS=halo and GRAPHS=bruck split it),
# on one core of a machine shared with other work.
# usage: experiments/mapping/partitioners.sh [path/to/simcoll]
# SPDX-License-Identifier: GPL-2.0-or-later
set -eu
. "$(dirname "$0")/../common.sh"
simcoll=${1:-$top/build/simcoll}
need_simcoll "$simcoll"
nps=${NPS:-64 1024 65536}
repeats=${REPEATS:-3}
sim_max=${SIM_MAX:-1024}
bruck_sim_max=${BRUCK_SIM_MAX:-1024}
partitioners=${PARTITIONERS:-multilevel greedy scotch metis}
graphs=${GRAPHS:-bruck halo}
out=$results/partitioners.csv
export SIMCOLL_PLATFORM_PATH="$top/platforms"
header=graph,np,partitioner,cut,bottleneck,partition_wall_s,sim_time_s

# The simulated seconds of the graph's run placed by MAPPING (block or a file).
simulate() { # GRAPH NP PLATFORM MAPPING
    if [ "$1" = bruck ]; then
        "$simcoll" --platform "$3" --np "$2" --algo bruck --no-payload --mapping "$4" \
            --format csv | awk -F, 'NR == 2 { print $8 }'
    else
        "$simcoll" run --platform "$3" --np "$2" --no-payload --mapping "$4" --format csv \
            "$top/experiments/packing/halo.prog" | awk -F, 'NR == 2 { print $7 }'
    fi
}

echo "$header" > "$scratch/new.csv"
for np in $nps; do
    platform=ib4x.xml
    if [ "$np" -gt 64 ]; then
        platform=$scratch/ib4x-$np.xml
        "$simcoll" platform --like ib4x.xml --nodes $(((np + 7) / 8)) -o "$platform"
    fi
    for graph in $graphs; do
        if [ "$graph" = bruck ]; then
            set -- --algo bruck
            max=$bruck_sim_max
        else
            set -- "$top/experiments/packing/halo.prog"
            max=$sim_max
        fi
        block_done=0
        for partitioner in $partitioners; do
            best=
            for r in $(seq "$repeats"); do
                "$simcoll" map --platform "$platform" --np "$np" --partitioner "$partitioner" \
                    --objective cut -o "$scratch/pi.txt" "$@" 2> "$scratch/err"
                s=$(sed -nE 's/.*; ([0-9.e+-]+) s to partition.*/\1/p' "$scratch/err")
                best=$(awk -v a="$best" -v b="$s" 'BEGIN { print (a == "" || b + 0 < a + 0) ? b : a }')
            done
            # cut weight C of T (block placement B, cyclic Y); ... carries L (block placement K, ...
            cut=$(sed -nE 's/.*cut weight ([0-9.e+]+) of .*/\1/p' "$scratch/err")
            load=$(sed -nE 's/.*busiest node.s link carries ([0-9.e+]+).*/\1/p' "$scratch/err")
            sim=
            [ "$np" -le "$max" ] && sim=$(simulate $graph "$np" "$platform" "$scratch/pi.txt")
            if [ $block_done = 0 ]; then
                block_cut=$(sed -nE 's/.*cut weight .*block placement ([0-9.e+]+),.*/\1/p' "$scratch/err")
                block_load=$(sed -nE 's/.*carries .*block placement ([0-9.e+]+),.*/\1/p' "$scratch/err")
                block_sim=
                [ "$np" -le "$max" ] && block_sim=$(simulate $graph "$np" "$platform" block)
                echo "$graph,$np,block,$block_cut,$block_load,,$block_sim" >> "$scratch/new.csv"
                block_done=1
            fi
            echo "$graph,$np,$partitioner,$cut,$load,$best,$sim" >> "$scratch/new.csv"
            echo "$graph,$np,$partitioner,$cut,$load,$best,$sim" >&2
        done
    done
done

# Keep the rows of the (graph, np) pairs this run did not measure.
if [ -f "$out" ]; then
    awk -F, 'NR == FNR { if (FNR > 1) seen[$1 "," $2] = 1; next }
             FNR > 1 && !(($1 "," $2) in seen)' "$scratch/new.csv" "$out" > "$scratch/old.csv"
    cat "$scratch/old.csv" >> "$scratch/new.csv"
fi
{
    echo "$header"
    tail -n +2 "$scratch/new.csv" | sort -t, -k1,1 -k2,2n -s
} > "$out"
column -s, -t "$out"
"$here/report.sh"
