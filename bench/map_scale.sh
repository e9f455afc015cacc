#!/bin/sh
# How long simcoll map takes on large graphs, and the memory it needs: a
# program (ten steps of a 2-D halo exchange of 4 KiB faces) and a traffic
# matrix (the same stencil's bytes as CSV, four neighbours a rank), which
# make the same graph, at the process counts of RANKS (default 65536
# 1048576), on ib4x-like clusters of 8-core nodes made by simcoll
# platform. Each is mapped by each partitioner of PARTITIONERS (default
# multilevel, and scotch and metis where the build has them) in turn, one
# after another for each input, so that the machine's load falls on all
# alike. Prints ranks, what was mapped, the partitioner, the graph's edges,
# wall seconds in all and in the partitioner, peak resident memory, the cut
# against block placement's (the same for both inputs), and the
# partitioner's seconds and cut as ratios to the first partitioner's.
# Needs GNU time.
# usage: bench/map_scale.sh [path/to/simcoll]
# SPDX-License-Identifier: GPL-2.0-or-later
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
simcoll=${1:-$top/build/simcoll}
ranks=${RANKS:-65536 1048576}
partitioners=${PARTITIONERS:-}
if [ -z "$partitioners" ]; then
    partitioners=multilevel
    for p in scotch metis; do
        "$simcoll" map --platform "$top/platforms/gige.xml" --algo bruck --np 8 --partitioner $p \
            >/dev/null 2>&1 && partitioners="$partitioners $p"
    done
fi
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
export SIMCOLL_PLATFORM_PATH="$top/platforms"
cat > "$scratch/stencil.prog" <<'PROG'
loop 10
  halo 4K dims=2
  compute 100us
end
PROG
printf '%-8s %-8s %-10s %10s %9s %9s %9s  %-25s %s\n' ranks input partitioner edges seconds \
    partition "peak MiB" "cut (block)" "partition, cut / first's"
for n in $ranks; do
    "$simcoll" platform --like ib4x.xml --nodes $((n / 8)) -o "$scratch/p.xml"
    # the grid MPI_Dims_create makes of n: the most balanced a x b
    a=$(awk -v n="$n" 'BEGIN { a = int(sqrt(n)); while (n % a) a--; print a }')
    b=$((n / a))
    awk -v a="$a" -v b="$b" 'BEGIN {
        print "src,dst,bytes"
        for (r = 0; r < a * b; r++) {
            i = int(r / b); j = r % b
            if (i > 0) print r "," r - b ",40960"
            if (i < a - 1) print r "," r + b ",40960"
            if (j > 0) print r "," r - 1 ",40960"
            if (j < b - 1) print r "," r + 1 ",40960"
        }
    }' > "$scratch/stencil.csv"
    edges=$((($(wc -l < "$scratch/stencil.csv") - 1) / 2)) # each both ways in the file
    for input in program matrix; do
        if [ $input = program ]; then
            set -- "$scratch/stencil.prog"
        else
            set -- --matrix "$scratch/stencil.csv"
        fi
        first_partition= first_cut=
        for partitioner in $partitioners; do
            /usr/bin/time -f '%e %M' -o "$scratch/time" \
                "$simcoll" map --platform "$scratch/p.xml" --np "$n" --partitioner $partitioner \
                -o "$scratch/pi.txt" "$@" 2> "$scratch/err"
            cut=$(sed -n 's/.*cut weight \([0-9]*\) of [0-9]* bytes (block placement \([0-9]*\),.*/\1 (\2)/p' \
                "$scratch/err")
            partition=$(sed -n 's/.*; \([0-9.e+-]*\) s to partition.*/\1/p' "$scratch/err")
            read -r seconds kib < "$scratch/time"
            [ -n "$first_partition" ] || { first_partition=$partition; first_cut=${cut%% *}; }
            ratios=$(awk -v p="$partition" -v fp="$first_partition" -v c="${cut%% *}" -v fc="$first_cut" \
                'BEGIN { printf "%.2f, %.3f", p / fp, c / fc }')
            printf '%-8s %-8s %-10s %10s %9s %9s %9d  %-25s %s\n' "$n" $input $partitioner $edges \
                "$seconds" "$partition" $((kib / 1024)) "$cut" "$ratios"
        done
    done
done
