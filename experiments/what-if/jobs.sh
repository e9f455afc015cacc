#!/bin/sh
# Regenerates results/jobs.csv, the sweep of jobs.ini: two applications
# side by side (simcoll run --jobs) in racks of their own or spread over
# both, under uplinks of two speeds. About 15 s.
# usage: experiments/what-if/jobs.sh [path/to/simcoll]
# SPDX-License-Identifier: GPL-2.0-or-later
set -eu
. "$(dirname "$0")/../common.sh"
simcoll=${1:-$top/build/simcoll}
need_simcoll "$simcoll"
sweep_study jobs.csv jobs.ini
# uplinks, jobs file and each job's slowdown (quoted fields hold no figure
# read here: the key, the topology, the platform's name)
sed 's/"[^"]*"/-/g' "$results/jobs.csv" |
    awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
             { printf "%-22s %-18s slowdown %s\n", $c["set"], $c["jobs"], $c["slowdown"] }'
