#!/bin/sh
# Regenerates results/jobs.csv, the sweep of jobs.ini: two applications
# side by side (simcoll run --jobs) in racks of their own or spread over
# both, under uplinks of two speeds. About 15 s.
# usage: experiments/what-if/jobs.sh [path/to/simcoll]
# SPDX-License-Identifier: GPL-2.0-or-later
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
simcoll=${1:-$top/build/simcoll}
[ -x "$simcoll" ] || { echo "jobs.sh: build simcoll first (./setup.sh)" >&2; exit 2; }
mkdir -p "$here/results"
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
cd "$here"
"$simcoll" sweep jobs.ini -j 2 -o "$scratch/jobs.csv"
# The generated platforms' paths are the scratch directory's: keep their names only.
sed "s|$scratch/jobs.csv.platforms/||g" "$scratch/jobs.csv" > "$here/results/jobs.csv"
# uplinks, jobs file and each job's slowdown (quoted fields hold no figure
# read here: the key, the topology, the platform's name)
sed 's/"[^"]*"/-/g' "$here/results/jobs.csv" |
    awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
             { printf "%-22s %-18s slowdown %s\n", $c["set"], $c["jobs"], $c["slowdown"] }'
