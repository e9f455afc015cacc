#!/bin/sh
# Regenerates results/ of this experiment: four programs (halo.prog,
# cg.prog, cg-pipelined.prog, broadcast.prog) on the shipped platforms at
# 16, 32 and 64 ranks, run as written, packed by reference 002's method
# with the turning point looked for above 1 MiB as the patent says, and
# packed with it looked for over the whole curve (--turning-from 2; not for
# broadcast.prog, whose 256 KiB allgathers that mode would cut into
# hundreds of chunks of a few hundred bytes); and the bandwidth curves and
# intervals of allreduce and allgather at 64 ranks.
# Needs a built simcoll (./setup.sh) and gnuplot.
# usage: experiments/packing/run.sh [path/to/simcoll]
# SPDX-License-Identifier: GPL-2.0-or-later
set -eu
. "$(dirname "$0")/../common.sh"
simcoll=${1:-$top/build/simcoll}
need_simcoll "$simcoll"
need_gnuplot
export SIMCOLL_PLATFORM_PATH="$top/platforms"

# The intervals of the two collectives the issue asks about, and their curves.
: > "$scratch/intervals.txt"
for platform in gige ib4x; do
    for coll in allreduce allgather; do
        for mode in patent whole; do
            from=1M
            [ $mode = whole ] && from=2
            "$simcoll" tune --platform $platform.xml --np 64 --coll $coll --turning-from $from \
                -o "$scratch/curve.csv" --plot "$results/tune-$platform-$coll-$mode.png" \
                2>> "$scratch/intervals.txt"
        done
        cp "$scratch/curve.csv" "$results/tune-$platform-$coll.csv"
    done
done
sed 's/^simcoll: //' "$scratch/intervals.txt" > "$results/intervals.txt"

# Every program three ways. Results are checked in every run (valid).
csv=$results/runs.csv
echo "program,platform,np,mode,sim_time_s,model_time_s,statements,messages,valid" > "$csv"
for platform in gige ib4x; do
    for np in 16 32 64; do
        for prog in halo cg cg-pipelined broadcast; do
            modes="none patent whole"
            [ $prog = broadcast ] && modes="none patent"
            for mode in $modes; do
                case $mode in
                none) args="--pack none" ;;
                patent) args="--pack auto" ;;
                whole) args="--pack auto --turning-from 2" ;;
                esac
                # A failed run stops the script (set -e) instead of losing its row.
                "$simcoll" run --platform $platform.xml --np $np $args --format csv \
                    "$here/$prog.prog" > "$scratch/run.csv" \
                    2>> "$scratch/packing-$platform-$mode.txt"
                awk -F, -v p=$prog -v m=$mode 'NR == 2 {
                        print p "," $2 "," $3 "," m "," $7 "," $8 "," $9 "," $14 "," $15 }' \
                    "$scratch/run.csv" >> "$csv"
            done
        done
    done
done
# The intervals --pack auto used, by platform and mode.
for platform in gige ib4x; do
    for mode in patent whole; do
        sed "s/^simcoll: --pack auto: /$platform $mode: /" "$scratch/packing-$platform-$mode.txt"
    done
done | sort -u > "$results/packing-intervals.txt"

# The table of the README: time as written, packed both ways, savings.
# Rows come in the order they ran: none, patent, then whole (if any).
awk -F, 'function row(  a, b, c) {
        a = t["none"]; b = t["patent"]; c = t["whole"]
        printf "%-14s %-8s %4s %9.3f ms %9.3f ms %7.1f%%", k1, k2, k3,
               1e3 * a, 1e3 * b, 100 * (a - b) / a
        if (c != "")
            printf " %9.3f ms %7.1f%%", 1e3 * c, 100 * (a - c) / a
        else
            printf " %12s %8s", "-", "-"
        printf "\n"
    }
    BEGIN { printf "%-14s %-8s %4s %12s %12s %8s %12s %8s\n", "program", "platform",
                   "np", "as written", "patent", "saving", "whole curve", "saving" }
    NR > 1 && $4 == "none" { if (k1 != "") row(); delete t; k1 = $1; k2 = $2; k3 = $3 }
    NR > 1 { t[$4] = $5 }
    END { if (k1 != "") row() }' "$csv" > "$results/summary.txt"
cat "$results/summary.txt" "$results/intervals.txt"
echo "wrote $results"
