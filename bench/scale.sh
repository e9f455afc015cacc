#!/bin/sh
# Wall time and peak memory of large size-only simulations, side by side
# with SimGrid's floor: Bruck allgather of 2048-byte blocks on ib4x-like
# clusters of 8-core nodes, run by simcoll and by bench_floor (the same
# schedule as one put/get pair per message on bare SimGrid, bench/floor.c),
# interleaved, RUNS times each, measured with GNU time.
#
#   bench/scale.sh [BUILD]                      # BUILD defaults to build
#   RANKS="1024 4096 16384 65536" RUNS=3 bench/scale.sh
#   SMPI=1 RANKS=1024 bench/scale.sh            # adds SMPI (smpicc, smpirun)
#   GROUPED=1 RANKS=65536 bench/scale.sh        # adds bench_floor_grouped (one
#                                               # actor per node, floor_grouped.c)
#   REPLAY=1 RANKS=65536 bench/scale.sh         # adds simcoll --replay (one actor
#                                               # per node, sim/replay/)
# SPDX-License-Identifier: GPL-2.0-or-later
set -eu
cd "$(dirname "$0")/.."
build=${1:-build}
simcoll=$build/simcoll
floor=$build/bench/bench_floor
grouped_floor=$build/bench/bench_floor_grouped
ranks_list=${RANKS:-1024 4096 16384}
runs=${RUNS:-3}
out=bench/out
for tool in "$simcoll" "$floor"; do
    [ -x "$tool" ] || { echo "bench/scale.sh: $tool is not built (./setup.sh)" >&2; exit 2; }
done
[ -x /usr/bin/time ] || { echo "bench/scale.sh: needs GNU time (apt-get install time)" >&2; exit 2; }
smpi=${SMPI:-0}
grouped=${GROUPED:-0}
replay=${REPLAY:-0}
[ "$grouped" = 0 ] || [ -x "$grouped_floor" ] ||
    { echo "bench/scale.sh: $grouped_floor is not built (./setup.sh)" >&2; exit 2; }
if [ "$smpi" = 1 ]; then
    command -v smpicc >/dev/null && command -v smpirun >/dev/null ||
        { echo "bench/scale.sh: SMPI=1 needs smpicc and smpirun (libsimgrid-dev)" >&2; exit 2; }
fi
mkdir -p "$out"

# timed NAME COMMAND...: appends "wall peak_kib" to $out/NAME.times.
timed() {
    name=$1
    shift
    /usr/bin/time -f '%e %M' -o "$out/time.txt" "$@" > "$out/$name.out" 2> "$out/$name.err" ||
        { echo "bench/scale.sh: $name failed, see $out/$name.err" >&2; exit 1; }
    cat "$out/time.txt" >> "$out/$name.times"
}

# stats FILE: "min median max_peak_mib" of the walls in FILE.
stats() {
    sort -n "$1" | awk '{ w[NR] = $1; if ($2 > m) m = $2 }
        END { printf "%.2f %.2f %d\n", w[1], w[int((NR + 1) / 2)], m / 1024 }'
}

if [ "$smpi" = 1 ]; then
    smpicc -O2 -o "$out/smpi_allgather" bench/smpi_allgather.c
fi

printf '%-6s %-11s %-11s %-15s %-15s %-8s %-9s %-9s' ranks "simulated" "floor sim" \
    "simcoll min/med" "floor min/med" "ratio" "simcoll MiB" "floor MiB"
[ "$smpi" = 1 ] && printf ' %-13s %-7s' "SMPI min/med" "SMPI/simcoll"
[ "$grouped" = 1 ] && printf ' %-15s %-12s' "grouped min/med" "grouped MiB"
[ "$replay" = 1 ] && printf ' %-11s %-15s %-10s' "replay sim" "replay min/med" "replay MiB"
printf '\n'
for ranks in $ranks_list; do
    nodes=$((ranks / 8))
    platform=$out/ib4x-$nodes.xml
    "$simcoll" platform --like platforms/ib4x.xml --nodes "$nodes" -o "$platform"
    rm -f "$out"/*.times
    if [ "$smpi" = 1 ]; then
        awk -v n="$nodes" 'BEGIN { for (i = 0; i < n; i++) for (c = 0; c < 8; c++) print "node-" i }' \
            > "$out/hosts-$nodes.txt"
    fi
    run=0
    while [ "$run" -lt "$runs" ]; do
        timed simcoll "$simcoll" --platform "$platform" --algo bruck --np "$ranks" --size 2048 \
            --no-payload --format csv
        timed floor "$floor" "$platform" "$ranks" 2048 40
        if [ "$grouped" = 1 ]; then
            timed grouped "$grouped_floor" "$platform" "$ranks" 2048 40
        fi
        if [ "$replay" = 1 ]; then
            timed replay "$simcoll" --platform "$platform" --algo bruck --np "$ranks" --size 2048 \
                --no-payload --format csv --replay
        fi
        if [ "$smpi" = 1 ]; then
            timed smpi smpirun -np "$ranks" -platform "$platform" -hostfile "$out/hosts-$nodes.txt" \
                --cfg=smpi/allgather:bruck --cfg=smpi/shared-malloc-blocksize:16777216 \
                --cfg=network/model:CM02 \
                --cfg=network/crosstraffic:0 --log=root.thresh:error "$out/smpi_allgather" 2048
        fi
        run=$((run + 1))
    done
    sim=$(tail -n 1 "$out/simcoll.out" | cut -d, -f8)
    floor_sim=$(sed -n 's/.*simulated_s=//p' "$out/floor.out")
    set -- $(stats "$out/simcoll.times") $(stats "$out/floor.times")
    ratio=$(awk -v a="$2" -v b="$5" 'BEGIN { printf "%.1fx", a / b }')
    printf '%-6s %-11s %-11s %-15s %-15s %-8s %-11s %-9s' "$ranks" "$sim" "$floor_sim" "$1/$2 s" \
        "$4/$5 s" "$ratio" "$3" "$6"
    if [ "$smpi" = 1 ]; then
        simcoll_median=$2
        set -- $(stats "$out/smpi.times")
        printf ' %-13s %-7s' "$1/$2 s" "$(awk -v a="$2" -v b="$simcoll_median" 'BEGIN { printf "%.1fx", a / b }')"
    fi
    if [ "$grouped" = 1 ]; then
        set -- $(stats "$out/grouped.times")
        printf ' %-15s %-12s' "$1/$2 s" "$3"
    fi
    if [ "$replay" = 1 ]; then
        replay_sim=$(tail -n 1 "$out/replay.out" | cut -d, -f8)
        set -- $(stats "$out/replay.times")
        printf ' %-11s %-15s %-10s' "$replay_sim" "$1/$2 s" "$3"
    fi
    printf '\n'
done
