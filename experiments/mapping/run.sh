#!/bin/sh
# Regenerates results/mapping.csv of this experiment: the simulated time of
# each shipped program (experiments/packing/*.prog) and of bruck,
# allreduce-rhrd and bcast-binomial (2 KiB) under MPI's block placement and
# under the mappings of the three objectives (cut, bottleneck, time), on
# gige.xml and ib4x.xml at the process counts of NPS (default 64 512; a
# count beyond a platform's 64 cores runs on the platform grown to as many
# 8-core nodes as it needs, simcoll platform --like). --objective time
# gets BUDGET simulations (default 12). Beside them, the cut's mapping by
# Scotch's and METIS's partitioners (--partitioner scotch|metis: columns
# left empty in a build without one). PLATFORMS, PROGRAMS and ALGOS choose
# fewer of each (the names above). Programs run sizes only (--no-payload):
# the times are the same, and broadcast.prog's buffers at 512 ranks would
# not fit in memory. Rows already in the file for other (platform, np)
# pairs are kept, so that they can be run one at a time; then report.sh
# writes the README's table.
# Takes about 5 minutes at 64 ranks on one core; at 512 a broadcast.prog
# simulation takes minutes.
# usage: experiments/mapping/run.sh [path/to/simcoll]
# SPDX-License-Identifier: GPL-2.0-or-later
set -eu
. "$(dirname "$0")/../common.sh"
simcoll=${1:-$top/build/simcoll}
need_simcoll "$simcoll"
nps=${NPS:-64 512}
budget=${BUDGET:-12}
platforms=${PLATFORMS-gige ib4x}
programs=${PROGRAMS-halo cg cg-pipelined broadcast}
algos=${ALGOS-bruck allreduce-rhrd bcast-binomial}
out=$results/mapping.csv
export SIMCOLL_PLATFORM_PATH="$top/platforms"

# Seconds of the run's row: column `col` of the second CSV line.
field() { awk -F, -v col="$1" 'NR == 2 { print $col }'; }

header=platform,np,case,block_s,cut_s,bottleneck_s,time_s,time_simulations,time_steps,time_wall_s,scotch_s,metis_s
echo "$header" > "$scratch/mapping.csv"
# The external partitioners this build has.
externals=
for p in scotch metis; do
    "$simcoll" map --platform gige.xml --algo bruck --np 8 --partitioner $p >/dev/null 2>&1 &&
        externals="$externals $p"
done
# One column for each of scotch and metis: the seconds the command prints
# with its partitioner, empty without it.
by_external() { # COMMAND...: run with "$p" set
    for p in scotch metis; do
        case " $externals " in
        *" $p "*) printf ',%s' "$("$@")" ;;
        *) printf ',' ;;
        esac
    done
}
for platform in $platforms; do
    for np in $nps; do
        file=$platform.xml
        if [ "$np" -gt 64 ]; then
            file=$scratch/$platform-$np.xml
            "$simcoll" platform --like $platform.xml --nodes $(((np + 7) / 8)) -o "$file"
        fi
        for prog in $programs; do
            run() { "$simcoll" run --platform "$file" --np "$np" --no-payload --format csv "$@" \
                        "$top/experiments/packing/$prog.prog" | field 7; }
            block=$(run --mapping block)
            cut=$(run --mapping partition 2>/dev/null)
            bottleneck=$(run --mapping partition --objective bottleneck 2>/dev/null)
            time=$(run --mapping partition --objective time --budget "$budget" 2>"$scratch/err")
            summary=$(grep -- '--objective time: .* simulations took' "$scratch/err")
            external() {
                "$simcoll" map --platform "$file" --np "$np" --partitioner "$p" \
                    -o "$scratch/external.txt" "$top/experiments/packing/$prog.prog" 2>/dev/null
                run --mapping "$scratch/external.txt"
            }
            echo "$platform,$np,$prog.prog,$block,$cut,$bottleneck,$time,$(echo "$summary" |
                sed -E 's/.*time: ([0-9]+) simulations took ([0-9.e+-]+) s, ([0-9]+) step.*/\1,\3,\2/')$(
                by_external external)" >> "$scratch/mapping.csv"
        done
        for algo in $algos; do
            run() { "$simcoll" --platform "$file" --np "$np" --algo $algo --format csv "$@" | field 8; }
            block=$(run --mapping block)
            cut=$(run --mapping partition)
            "$simcoll" map --platform "$file" --np "$np" --algo $algo --objective bottleneck \
                -o "$scratch/bottleneck.txt" 2>/dev/null
            "$simcoll" map --platform "$file" --np "$np" --algo $algo --objective time \
                --budget "$budget" -o "$scratch/time.txt" 2>"$scratch/err"
            summary=$(grep -- '--objective time: .* simulations took' "$scratch/err")
            external() { run --mapping partition --partitioner "$p"; }
            echo "$platform,$np,$algo,$block,$cut,$(run --mapping "$scratch/bottleneck.txt"),$(run \
                --mapping "$scratch/time.txt"),$(echo "$summary" |
                sed -E 's/.*time: ([0-9]+) simulations took ([0-9.e+-]+) s, ([0-9]+) step.*/\1,\3,\2/')$(
                by_external external)" >> "$scratch/mapping.csv"
        done
    done
done
# Keep the rows of the (platform, np) pairs this run did not measure, if
# the file has this run's columns.
if [ -f "$out" ] && [ "$(head -1 "$out")" = "$header" ]; then
    awk -F, 'NR == FNR { if (FNR > 1) seen[$1 "," $2] = 1; next }
             FNR > 1 && !(($1 "," $2) in seen)' "$scratch/mapping.csv" "$out" > "$scratch/old.csv"
    cat "$scratch/old.csv" >> "$scratch/mapping.csv"
fi
{
    echo "$header"
    tail -n +2 "$scratch/mapping.csv" | sort -t, -k2,2n -k1,1 -s
} > "$out"
column -s, -t "$out"
"$here/report.sh"
