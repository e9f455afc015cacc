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

# Fields with commas (the key, the topology, the platform named by it) are
# quoted: split each row as CSV, then read the columns by name.
awk 'function fields(line, f,    n, q, i, ch) {
        n = 1; q = 0; f[1] = ""
        for (i = 1; i <= length(line); i++) {
            ch = substr(line, i, 1)
            if (ch == "\"") { if (q && substr(line, i + 1, 1) == "\"") { f[n] = f[n] ch; i++ } else q = !q }
            else if (ch == "," && !q) f[++n] = ""
            else f[n] = f[n] ch
        }
        return n
    }
    NR == 1 { n = fields($0, h); for (i = 1; i <= n; i++) col[h[i]] = i; next }
    {
        fields($0, f)
        if (f[col["status"]] != "ok") next
        split(f[col["topology"]], part, ";")   # fat-tree:2;8,8;1,U;1,1: U uplinks a rack
        up = part[3]; sub(/^1,/, "", up)
        racks = part[1] == "fat-tree:2" ? "8 racks " 8 / up ":1" : "one switch"
        split(f[col["level_bytes"]], lb, ";")
        printf "%s,%s,%s,%.4g,%.4g,%.4g\n", racks, f[col["algo"]], f[col["mapping"]],
               f[col["sim_time_s"]] * 1e3, (lb[3] + 0) / 1e6, f[col["inter_node_bytes"]] / 1e6
    }' "$results/racks.csv" | sort -t, -k2,2 -k3,3 -k1,1 |
    { echo "# racks,algo,mapping,sim_time_ms,MB_between_racks,MB_between_nodes"; cat; } \
    > "$results/racks-summary.txt"
cat "$results/racks-summary.txt"
