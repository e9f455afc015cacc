#!/bin/sh
# Events replayed per second, wall time and peak memory of trace replays
# (simcoll run TRACE), each beside the same job as a program where one
# exists:
#   - the shipped traces of third_party/traces (their events per second);
#   - synthetic SMPI time-independent traces of RANKS ranks (default 4096)
#     of ITERS iterations each (a list: default "25 250"): 200 us of
#     computing, a ring's halo exchange (two sendRecv of 1 KiB, to the right
#     then to the left, as algorithms/p2p/halo.c makes it) and an allreduce
#     of one double an iteration: 4 calls a rank an iteration, 10 events
#     (a sendRecv is an irecv, an isend and a wait), at 4096 ranks and 250
#     iterations 10^7 events. The same job as a program (loop ITERS {
#     compute 200us; halo 1K dims=1 periodic; allreduce 8 }) runs beside it,
#     and both give the same simulated time; so does the trace played by the
#     driver (--replay=maestro, SimGrid 4.1).
#   - one Bruck allgather of 2048-byte blocks on COLL_RANKS ranks (default
#     RANKS) as a trace (an action file a rank, --algos allgather=bruck)
#     and as the call itself (simcoll --algo bruck), both
#     played by the driver: a trace's rate against an algorithm's, counted
#     in messages.
# Memory should stay the ranks' state as the trace grows: the two sizes of
# ITERS show whether it does. Each line is one run (RUNS of each, default 1),
# GNU time's peak resident memory.
#
#   bench/traces.sh [BUILD]
#   RANKS=4096 ITERS="25 250" RUNS=3 bench/traces.sh
#   COLL_RANKS=65536 ITERS= RUNS=3 bench/traces.sh build-dev
# SPDX-License-Identifier: GPL-2.0-or-later
set -eu
cd "$(dirname "$0")/.."
build=${1:-build}
case $build in /*) simcoll=$build/simcoll ;; *) simcoll=$(pwd)/$build/simcoll ;; esac
ranks=${RANKS:-4096}
iters_list=${ITERS-25 250}
coll_ranks=${COLL_RANKS:-$ranks}
runs=${RUNS:-1}
[ -x /usr/bin/time ] || { echo "bench/traces.sh: needs GNU time (apt-get install time)" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export SIMCOLL_PLATFORM_PATH=$(pwd)/platforms

# measure LABEL EVENTS COLUMN COMMAND...: one line of wall time, memory,
# events/s and the simulated time (CSV column COLUMN of the output); what
# is counted is $unit's.
unit=events
measure() {
    label=$1 events=$2 column=$3
    shift 3
    for run in $(seq "$runs"); do
        /usr/bin/time -f "%e %M" -o "$work/time" "$@" > "$work/out" 2> "$work/err" ||
            { echo "$label: failed: $(tail -2 "$work/err")"; continue; }
        read -r wall kib < "$work/time"
        sim=$(awk -F, -v c="$column" 'NR == 2 { print $c }' "$work/out")
        awk -v l="$label" -v e="$events" -v u="$unit" -v w="$wall" -v k="$kib" -v s="$sim" 'BEGIN {
            printf "%-44s %10s %s %9.2f s %8.0f MiB %12.0f %s/s  simulated %s\n",
                   l, e, u, w, k / 1024, e / (w > 0 ? w : 1e-3), u, s }'
    done
}

echo "# simcoll $("$simcoll" --version | head -1), $(nproc) cores, load $(cut -d' ' -f1 /proc/loadavg)"
for t in third_party/traces/sst-macro-otf2-10/traces.otf2 \
         third_party/traces/sst-macro-dumpi-bgp-7/testbgp.meta \
         third_party/traces/simgrid-ti-32/smpi_replay.txt; do
    events=$("$simcoll" run --platform gige.xml "$t" --format json 2>/dev/null |
             grep -o '"events": [0-9]*' | head -1 | sed 's/.*: //')
    measure "$(basename "$(dirname "$t")")" "$events" 9 \
        "$simcoll" run --platform gige.xml "$t" --format csv
done

# A cluster large enough: ib4x-like nodes of 8 cores.
nodes=$(( (ranks + 7) / 8 ))
"$simcoll" platform --like ib4x.xml --nodes $nodes -o "$work/cluster.xml"
for iters in $iters_list; do
    dir=$work/ring-$iters
    mkdir -p "$dir"
    # One action file per rank and an index, as smpirun writes them.
    awk -v p="$ranks" -v n="$iters" -v dir="$dir" 'BEGIN {
        for (r = 0; r < p; r++) {
            f = dir "/rank" r ".txt"; left = (r + p - 1) % p; right = (r + 1) % p
            for (i = 0; i < n; i++) {
                printf "%d sleep 0.0002\n", r > f
                printf "%d sendRecv 1024 %d 1024 %d 6 6\n", r, right, left > f
                printf "%d sendRecv 1024 %d 1024 %d 6 6\n", r, left, right > f
                printf "%d allreduce 1 0 0\n", r > f
            }
            close(f)
            print "rank" r ".txt" > dir "/index.txt"
        }
    }'
    events=$((ranks * iters * 10))
    measure "ring of $ranks ranks, $iters iterations (trace)" $events 9 \
        "$simcoll" run --platform "$work/cluster.xml" "$dir/index.txt" --format csv
    measure "ring of $ranks ranks, $iters iterations (driver)" $events 9 \
        "$simcoll" run --platform "$work/cluster.xml" "$dir/index.txt" --replay=maestro \
        --format csv
    printf 'loop %d\n  compute 200us\n  halo 1K dims=1 periodic\n  allreduce 8\nend\n' \
        "$iters" > "$work/ring.prog"
    measure "ring of $ranks ranks, $iters iterations (program)" $events 7 \
        "$simcoll" run --platform "$work/cluster.xml" --np "$ranks" --no-payload \
        "$work/ring.prog" --format csv
    rm -rf "$dir"
done

# One call as a trace and as itself, both in the driver: Bruck sends
# ceil(log2 p) messages a rank.
unit=messages
nodes=$(( (coll_ranks + 7) / 8 ))
"$simcoll" platform --like ib4x.xml --nodes $nodes -o "$work/coll-cluster.xml"
# One action file per rank and an index, as smpirun writes them (one file
# of every rank's lines is read by every rank: quadratic in the ranks).
mkdir -p "$work/allgather"
awk -v p="$coll_ranks" -v dir="$work/allgather" 'BEGIN {
    for (r = 0; r < p; r++) {
        f = dir "/rank" r ".txt"
        print r, "init" > f
        print r, "allgather 2048 2048 2 2" > f    # type 2: 1 byte
        print r, "finalize" > f
        close(f)
        print "rank" r ".txt" > dir "/index.txt"
    }
}'
messages=$(awk -v p="$coll_ranks" 'BEGIN { s = 0; while (2 ^ s < p) s++; print p * s }')
all_runs=$runs
runs=1    # the two interleaved, run by run
for run in $(seq "$all_runs"); do
    measure "bruck allgather, $coll_ranks ranks (trace, driver)" "$messages" 9 \
        "$simcoll" run --platform "$work/coll-cluster.xml" "$work/allgather/index.txt" \
        --algos allgather=bruck --replay=maestro --format csv
    measure "bruck allgather, $coll_ranks ranks (call, driver)" "$messages" 8 \
        "$simcoll" --platform "$work/coll-cluster.xml" --algo bruck --np "$coll_ranks" \
        --size 2048 --no-payload --replay=maestro --format csv
done
