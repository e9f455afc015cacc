#!/bin/sh
# Regenerates results/racks.csv (the sweep of racks.ini) and
# results/racks-summary.txt: per point the racks (with their uplinks'
# oversubscription: 8 nodes to 8, 2 or 1 uplinks), algorithm, mapping,
# simulated time and the megabytes between racks and between nodes
# (level_bytes, inter_node_bytes). About 20 s on 2 cores.
# usage: experiments/what-if/racks.sh [path/to/simcoll]
# SPDX-License-Identifier: GPL-2.0-or-later
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
simcoll=${1:-$top/build/simcoll}
[ -x "$simcoll" ] || { echo "racks.sh: build simcoll first (./setup.sh)" >&2; exit 2; }
results=$here/results
mkdir -p "$results"
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
cd "$here"
"$simcoll" sweep racks.ini -j 2 -o "$scratch/racks.csv"
# The generated platforms' paths are the scratch directory's: keep their names only.
sed "s|$scratch/racks.csv.platforms/||g" "$scratch/racks.csv" > "$results/racks.csv"

# The key column is quoted (its topology values hold commas): read it whole,
# then split the rest of the row, whose columns come one place earlier.
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i - 1; next }
    {
        key = $0; sub(/^"/, "", key); sub(/",.*/, "", key)
        rest = $0; sub(/^"[^"]*",/, "", rest)
        split(rest, f, ",")
        if (f[col["status"]] != "ok") next
        topo = key; sub(/.*topology=/, "", topo); sub(/;algo=.*/, "", topo)
        split(topo, part, ";")   # fat-tree:2;8,8;1,U;1,1: U uplinks a rack
        up = part[3]; sub(/^1,/, "", up)
        racks = part[1] == "fat-tree:2" ? "8 racks " 8 / up ":1" : "one switch"
        split(f[col["level_bytes"]], lb, ";")
        printf "%s,%s,%s,%.4g,%.4g,%.4g\n", racks, f[col["algo"]], f[col["mapping"]],
               f[col["sim_time_s"]] * 1e3, (lb[3] + 0) / 1e6, f[col["inter_node_bytes"]] / 1e6
    }' "$results/racks.csv" | sort -t, -k2,2 -k3,3 -k1,1 |
    { echo "# racks,algo,mapping,sim_time_ms,MB_between_racks,MB_between_nodes"; cat; } \
    > "$results/racks-summary.txt"
cat "$results/racks-summary.txt"
