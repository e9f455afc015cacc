#!/bin/sh
# Wall time and peak memory of large size-only simulations, side by side
# with SimGrid's floor: Bruck allgather of 2048-byte blocks on ib4x-like
# clusters of 8-core nodes (CORES: another count), run by simcoll and by bench_floor (the same
# schedule as one put/get pair per message on bare SimGrid, bench/floor.c),
# interleaved, RUNS times each, measured with GNU time. The platform is
# generated without its parameters' source marks, so that simcoll runs one
# simulation, as the floor does, and no what-if check of them.
#
#   bench/scale.sh [BUILD]                      # BUILD defaults to build
#   RANKS="1024 4096 16384 65536" RUNS=3 bench/scale.sh
#   SMPI=1 RANKS=1024 bench/scale.sh            # adds SMPI (smpicc, smpirun)
#   GROUPED=1 RANKS=65536 bench/scale.sh        # adds bench_floor_grouped (one
#                                               # actor per node, floor_grouped.c)
#   BLOCKING=1 RANKS=4096 bench/scale.sh        # adds bench_floor_blocking (an actor
#                                               # per rank that blocks once a step,
#                                               # messages from maestro; floor_blocking.cpp,
#                                               # the bundled SimGrid 4.1 only)
#   REPLAY=1 RANKS=65536 bench/scale.sh         # adds simcoll --replay (one actor
#                                               # per node, sim/simgrid/node_replay.c)
#   DRIVER=1 RANKS=65536 bench/scale.sh build41 # adds simcoll --replay=maestro (no
#                                               # actor, sim/simgrid/driver.cpp;
#                                               # a SimGrid 4.1 build)
#   LIVE=1 RANKS=4096 bench/scale.sh build41     # adds simcoll --replay=live (an actor
#                                               # per rank running Bruck's code, its
#                                               # calls played by the driver;
#                                               # sim/simgrid/live.cpp, SimGrid 4.1)
#   BASELINE=/tmp/before/simcoll DRIVER=1 RANKS=65536 bench/scale.sh build41
#                                               # adds "baseline": that simcoll binary
#                                               # (another commit's) with --replay=maestro,
#                                               # interleaved with the driver: before/after
#   ACTORS=0 FLOOR=0 DRIVER=1 LIMIT=1200 RANKS=1048576 RUNS=1 bench/scale.sh build41
#       ACTORS=0, FLOOR=0 leave out simcoll's actors and bench_floor (an actor
#       per rank each: too many at a million); LIMIT stops any run after that
#       many seconds (GNU timeout), and the table says "stopped".
#   LOGGOPSIM=/tmp/loggopsim/build RANKS="4096 65536" bench/scale.sh
#       adds LogGOPSim (github.com/spcl/LogGOPSim, built per its README; the directory
#       holds its LogGOPSim and txt2bin), a peer without contention or SMP nodes, on the
#       same Bruck job with ib4x's LogGOPS parameters (bench/loggopsim_goal.sh):
#       "loggopsim" is its simulation alone (what it is compared on), "lgs-input" the
#       making of its input, timed apart: loggopsim_goal.sh's GOAL text, then txt2bin
#       (the files are removed after each size: 1.8 GB each at a million ranks).
#   CORES=64 ACTORS=0 FLOOR=0 DRIVER=1 RANKS=8388608 RUNS=1 bench/scale.sh build41
#       nodes of 64 cores instead of 8 (RANKS / CORES nodes): eight million
#       ranks on 131,072 nodes. The peak is GNU time's: the largest of the
#       processes (simcoll's parent and its simulating child, one at a time).
# Each column: the simulated time, min/median wall time, peak resident
# memory, and the median's ratio to the floor's when the floor ran.
# SPDX-License-Identifier: GPL-2.0-or-later
set -eu
cd "$(dirname "$0")/.."
build=${1:-build}
simcoll=$build/simcoll
floor=$build/bench/bench_floor
grouped_floor=$build/bench/bench_floor_grouped
blocking_floor=$build/bench/bench_floor_blocking
ranks_list=${RANKS:-1024 4096 16384}
cores=${CORES:-8}
runs=${RUNS:-3}
limit=${LIMIT:-0}
out=bench/out
[ -x /usr/bin/time ] || { echo "bench/scale.sh: needs GNU time (apt-get install time)" >&2; exit 2; }
columns=
[ "${ACTORS:-1}" = 1 ] && columns="$columns simcoll"
[ "${FLOOR:-1}" = 1 ] && columns="$columns floor"
[ "${GROUPED:-0}" = 1 ] && columns="$columns grouped"
[ "${BLOCKING:-0}" = 1 ] && columns="$columns blocking"
[ "${REPLAY:-0}" = 1 ] && columns="$columns replay"
[ "${DRIVER:-0}" = 1 ] && columns="$columns driver"
[ "${LIVE:-0}" = 1 ] && columns="$columns live"
baseline=${BASELINE:-}
[ -n "$baseline" ] && columns="$columns baseline"
[ "${SMPI:-0}" = 1 ] && columns="$columns smpi"
loggopsim=${LOGGOPSIM:-}
[ -n "$loggopsim" ] && columns="$columns lgs-input loggopsim"
[ -n "$columns" ] || { echo "bench/scale.sh: no column left to run" >&2; exit 2; }
tools="$simcoll"
case " $columns " in *" floor "*) tools="$tools $floor" ;; esac
case " $columns " in *" grouped "*) tools="$tools $grouped_floor" ;; esac
case " $columns " in *" blocking "*) tools="$tools $blocking_floor" ;; esac
for tool in $tools; do
    [ -x "$tool" ] || { echo "bench/scale.sh: $tool is not built (./setup.sh)" >&2; exit 2; }
done
case " $columns " in *" smpi "*)
    command -v smpicc >/dev/null && command -v smpirun >/dev/null ||
        { echo "bench/scale.sh: SMPI=1 needs smpicc and smpirun (libsimgrid-dev)" >&2; exit 2; }
    ;;
esac
if [ -n "$loggopsim" ]; then
    for tool in "$loggopsim/LogGOPSim" "$loggopsim/txt2bin"; do
        [ -x "$tool" ] || { echo "bench/scale.sh: LOGGOPSIM=$loggopsim has no $tool" >&2; exit 2; }
    done
fi
case " $columns " in *" driver "*)
    "$simcoll" --help | grep -q -- '--replay\[=nodes|maestro' ||
        { echo "bench/scale.sh: $simcoll has no --replay=maestro" >&2; exit 2; }
    ;;
esac
case " $columns " in *" live "*)
    "$simcoll" --help | grep -q -- '--replay\[=nodes|maestro|live' ||
        { echo "bench/scale.sh: $simcoll has no --replay=live" >&2; exit 2; }
    ;;
esac
if [ -n "$baseline" ]; then
    [ -x "$baseline" ] && "$baseline" --help | grep -q -- '--replay\[=nodes|maestro' ||
        { echo "bench/scale.sh: BASELINE=$baseline is no simcoll with --replay=maestro" >&2; exit 2; }
fi
mkdir -p "$out"

# timed NAME COMMAND...: appends "wall peak_kib" to $out/NAME.times, or
# "stopped" when LIMIT ended it.
timed() {
    name=$1
    shift
    if [ "$limit" -gt 0 ]; then
        set -- timeout "$limit" "$@"
    fi
    status=0
    /usr/bin/time -f '%e %M' -o "$out/time.txt" "$@" > "$out/$name.out" 2> "$out/$name.err" ||
        status=$?
    if [ "$status" = 0 ]; then
        tail -n 1 "$out/time.txt" >> "$out/$name.times"
    elif [ "$limit" -gt 0 ] && [ "$status" = 124 ]; then
        echo stopped >> "$out/$name.times"
    else
        echo "bench/scale.sh: $name failed, see $out/$name.err" >&2
        exit 1
    fi
}

# stats FILE: "min median max_peak_mib" of the walls in FILE, or
# "stopped" if a run was stopped.
stats() {
    if grep -q stopped "$1"; then
        echo "stopped - -"
        return
    fi
    sort -n "$1" | awk '{ w[NR] = $1; if ($2 > m) m = $2 }
        END { printf "%.2f %.2f %d\n", w[1], w[int((NR + 1) / 2)], m / 1024 }'
}

# run_column NAME PLATFORM RANKS NODES: one run of that column.
run_column() {
    case $1 in
    simcoll) timed simcoll "$simcoll" --platform "$2" --algo bruck --np "$3" --size 2048 \
        --no-payload --format csv ;;
    floor) timed floor "$floor" "$2" "$3" 2048 40 ;;
    grouped) timed grouped "$grouped_floor" "$2" "$3" 2048 40 ;;
    blocking) timed blocking "$blocking_floor" "$2" "$3" 2048 40 ;;
    replay) timed replay "$simcoll" --platform "$2" --algo bruck --np "$3" --size 2048 \
        --no-payload --format csv --replay ;;
    driver) timed driver "$simcoll" --platform "$2" --algo bruck --np "$3" --size 2048 \
        --no-payload --format csv --replay=maestro ;;
    live) timed live "$simcoll" --platform "$2" --algo bruck --np "$3" --size 2048 \
        --no-payload --format csv --replay=live ;;
    baseline) timed baseline "$baseline" --platform "$2" --algo bruck --np "$3" --size 2048 \
        --no-payload --format csv --replay=maestro ;;
    smpi) timed smpi smpirun -np "$3" -platform "$2" -hostfile "$out/hosts-$4.txt" \
        --cfg=smpi/allgather:bruck --cfg=smpi/shared-malloc-blocksize:16777216 \
        --cfg=network/model:CM02 \
        --cfg=network/crosstraffic:0 --log=root.thresh:error "$out/smpi_allgather" 2048 ;;
    lgs-input) rm -f "$out/bruck-$3.bin"
        timed lgs-input sh -c 'bench/loggopsim_goal.sh "$1" 2048 > "$2" && "$3" -i "$2" -o "$4"' \
            sh "$3" "$out/bruck-$3.goal" "$loggopsim/txt2bin" "$out/bruck-$3.bin" ;;
    # -b: the latest finishing time alone, at every size (it lists every host up to 16)
    loggopsim)
        if tail -n 1 "$out/lgs-input.times" | grep -q stopped; then
            echo stopped >> "$out/loggopsim.times"    # LIMIT stopped its input
        else
            timed loggopsim "$loggopsim/LogGOPSim" -b -f "$out/bruck-$3.bin" \
                $(bench/loggopsim_goal.sh --params)
        fi ;;
    esac
}

# simulated NAME: the simulated time that column's last run printed.
simulated() {
    if grep -q stopped "$out/$1.times"; then
        echo -
    elif [ "$1" = floor ] || [ "$1" = grouped ] || [ "$1" = blocking ]; then
        sed -n 's/.*simulated_s=//p' "$out/$1.out"
    elif [ "$1" = smpi ] || [ "$1" = lgs-input ]; then
        echo -
    elif [ "$1" = loggopsim ]; then
        # its times are picoseconds (loggopsim_goal.sh): not the "(... s)" it prints
        awk '/^Maximum finishing time/ { t = $7 } END { if (t == "") print "-"
            else printf "%.9g\n", t / 1e12 }' "$out/$1.out"
    else
        tail -n 1 "$out/$1.out" | cut -d, -f8
    fi
}

case " $columns " in *" smpi "*) smpicc -O2 -o "$out/smpi_allgather" bench/smpi_allgather.c ;; esac

printf '%-8s' ranks
for c in $columns; do
    printf ' | %-9s %-13s %-15s %-6s %-7s' "$c" "simulated" "min/med s" "MiB" "/floor"
done
printf '\n'
for ranks in $ranks_list; do
    nodes=$((ranks / cores))
    platform=$out/ib4x-${nodes}x$cores.xml
    "$simcoll" platform --like platforms/ib4x.xml --nodes "$nodes" --cores "$cores" -o "$platform"
    # Without its source marks, simcoll checks no assumed parameter, which
    # below 50,000 messages would run a second simulation (docs/studies.md):
    # each column times one simulation.
    sed -i '/"simcoll\/source\//d' "$platform"
    rm -f "$out"/*.times
    case " $columns " in *" smpi "*)
        awk -v n="$nodes" -v k="$cores" 'BEGIN { for (i = 0; i < n; i++) for (c = 0; c < k; c++) print "node-" i }' \
            > "$out/hosts-$nodes.txt"
        ;;
    esac
    run=0
    while [ "$run" -lt "$runs" ]; do
        for c in $columns; do
            run_column "$c" "$platform" "$ranks" "$nodes"
        done
        run=$((run + 1))
    done
    floor_median=
    case " $columns " in *" floor "*) set -- $(stats "$out/floor.times"); floor_median=$2 ;; esac
    printf '%-8s' "$ranks"
    for c in $columns; do
        set -- $(stats "$out/$c.times")
        ratio=-
        if [ -n "$floor_median" ] && [ "$1" != stopped ] && [ "$floor_median" != - ] &&
            [ "$c" != lgs-input ]; then
            ratio=$(awk -v a="$2" -v b="$floor_median" 'BEGIN { printf "%.2fx", a / b }')
        fi
        if [ "$1" = stopped ]; then
            walls="stopped@${limit}s"
        else
            walls="$1/$2"
        fi
        printf ' | %-9s %-13s %-15s %-6s %-7s' "" "$(simulated "$c")" "$walls" "$3" "$ratio"
    done
    printf '\n'
    rm -f "$out/bruck-$ranks.goal" "$out/bruck-$ranks.bin"   # 1.8 GB each at a million
done
