#!/bin/sh
# How long simcoll map takes on large graphs, and the memory it needs: a
# program (ten steps of a 2-D halo exchange of 4 KiB faces) and a traffic
# matrix (the same stencil's bytes as CSV, four neighbours a rank), which
# make the same graph, at the process counts of RANKS (default 65536
# 1048576), on ib4x-like clusters of 8-core nodes made by simcoll
# platform. Prints ranks, what was mapped, the graph's edges, wall
# seconds in all and in the partitioner, peak resident memory, and the cut
# against block placement's (the same for both inputs). Needs GNU time.
# usage: bench/map_scale.sh [path/to/simcoll]
# SPDX-License-Identifier: GPL-2.0-or-later
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
simcoll=${1:-$top/build/simcoll}
ranks=${RANKS:-65536 1048576}
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
export SIMCOLL_PLATFORM_PATH="$top/platforms"
cat > "$scratch/stencil.prog" <<'PROG'
loop 10
  halo 4K dims=2
  compute 100us
end
PROG
printf '%-8s %-8s %10s %9s %9s %9s  %s\n' ranks input edges seconds partition "peak MiB" \
    "cut (block)"
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
        /usr/bin/time -f '%e %M' -o "$scratch/time" \
            "$simcoll" map --platform "$scratch/p.xml" --np "$n" -o "$scratch/pi.txt" "$@" \
            2> "$scratch/err"
        cut=$(sed -n 's/.*cut weight \([0-9]*\) of [0-9]* bytes (block placement \([0-9]*\),.*/\1 (\2)/p' \
            "$scratch/err")
        partition=$(sed -n 's/.*; \([0-9.e+-]*\) s to partition.*/\1/p' "$scratch/err")
        read -r seconds kib < "$scratch/time"
        printf '%-8s %-8s %10s %9s %9s %9d  %s\n' "$n" $input $edges "$seconds" "$partition" \
            $((kib / 1024)) "$cut"
    done
done
