#!/bin/sh
# Wall time and peak memory of large size-only simulations: Bruck allgather of
# 2048-byte blocks on ib4x-like clusters of 128 and 512 nodes (1024 and 4096
# ranks), measured with GNU time. Run from a built tree: bench/scale.sh [BUILD]
# SPDX-License-Identifier: GPL-2.0-or-later
set -eu
cd "$(dirname "$0")/.."
simcoll=${1:-build}/simcoll
out=bench/out
[ -x "$simcoll" ] || { echo "bench/scale.sh: build simcoll first (./setup.sh)" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "bench/scale.sh: needs GNU time (apt-get install time)" >&2; exit 2; }
mkdir -p "$out"

printf '%-6s %-6s %-14s %-12s %-10s %-12s\n' ranks nodes platform "simulated" "wall (s)" "peak (MiB)"
for nodes in 128 512; do
    ranks=$((nodes * 8))
    platform=$out/ib4x-$nodes.xml
    "$simcoll" platform --like platforms/ib4x.xml --nodes "$nodes" -o "$platform"
    /usr/bin/time -f '%e %M' -o "$out/time.txt" \
        "$simcoll" --platform "$platform" --algo bruck --np "$ranks" --size 2048 \
        --no-payload --format csv > "$out/bruck-$ranks.csv"
    read -r wall rss_kib < "$out/time.txt"
    sim=$(tail -n 1 "$out/bruck-$ranks.csv" | cut -d, -f8)
    printf '%-6s %-6s %-14s %-12s %-10s %-12s\n' "$ranks" "$nodes" "ib4x-$nodes" "${sim} s" \
        "$wall" "$((rss_kib / 1024))"
done
