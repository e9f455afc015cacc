#!/bin/sh
# SimGrid simcalls per simulated message: simcoll (actors and --replay)
# against the floors (bench_floor, bench_floor_grouped) on the schedule of
# bench/scale.sh (Bruck allgather, ib4x-like nodes of 8 cores, size only).
# Counted by bench/simcalls.c, loaded with LD_PRELOAD.
#
#   bench/simcalls.sh [BUILD]                 # BUILD defaults to build
#   RANKS=4096 SIZES="16 2048" bench/simcalls.sh
# SPDX-License-Identifier: GPL-2.0-or-later
set -eu
cd "$(dirname "$0")/.."
build=${1:-build}
ranks=${RANKS:-4096}
sizes=${SIZES:-16 2048}
out=bench/out
mkdir -p "$out"
for tool in "$build/simcoll" "$build/bench/bench_floor" "$build/bench/bench_floor_grouped"; do
    [ -x "$tool" ] || { echo "bench/simcalls.sh: $tool is not built (./setup.sh)" >&2; exit 2; }
done
cc -O2 -shared -fPIC -o "$out/simcalls.so" bench/simcalls.c -ldl
platform=$out/ib4x-$((ranks / 8)).xml
"$build/simcoll" platform --like platforms/ib4x.xml --nodes $((ranks / 8)) -o "$platform"

# count NAME COMMAND...: the simcalls of every process COMMAND starts.
count() {
    rm -f "$out/simcalls.txt"
    SIMCALLS_OUT=$out/simcalls.txt LD_PRELOAD=$(pwd)/$out/simcalls.so "$@" > "$out/simcalls.run"
    awk '{ s += $1 } END { print s }' "$out/simcalls.txt"
}

printf '%-6s %-7s %-9s %-14s %-14s %-14s %-14s %s\n' ranks size messages simcoll replay floor \
    grouped "simulations run"
for size in $sizes; do
    simcoll="$build/simcoll --platform $platform --algo bruck --np $ranks --size $size --no-payload --format csv"
    a=$(count $simcoll)
    messages=$(tail -n 1 "$out/simcalls.run" | cut -d, -f14)
    n_actor=$(wc -l < "$out/simcalls.txt")
    r=$(count $simcoll --replay)
    n_replay=$(wc -l < "$out/simcalls.txt")
    f=$(count "$build/bench/bench_floor" "$platform" "$ranks" "$size" 40)
    g=$(count "$build/bench/bench_floor_grouped" "$platform" "$ranks" "$size" 40)
    awk -v r="$ranks" -v s="$size" -v m="$messages" -v a="$a" -v p="$r" -v f="$f" -v g="$g" \
        -v na="$n_actor" -v np="$n_replay" 'BEGIN {
        printf "%-6s %-7s %-9s %-14s %-14s %-14s %-14s %s\n", r, s, m, sprintf("%.1f", a / m),
            sprintf("%.1f", p / m), sprintf("%.1f", f / m), sprintf("%.1f", g / m),
            sprintf("simcoll %d, replay %d (a run short of receives is repeated)", na, np) }'
done
