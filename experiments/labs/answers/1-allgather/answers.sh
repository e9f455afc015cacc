#!/bin/sh
# Regenerates the numbers of this lab's answer key (answers.md, between the
# "generated" markers); tests/cli/labs.sh checks the key still says them.
# usage: answers.sh [path/to/simcoll]
# SPDX-License-Identifier: GPL-2.0-or-later
set -eu
. "$(dirname "$0")/../lib.sh"

# table CSV: algo, size, simulated and model time (us), bytes between nodes.
table() {
    awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
        { printf "| %s | %s | %.1f | %s | %.0f | %s |\n", $col["algo"], $col["size_bytes"],
                 $col["sim_time_s"] * 1e6,
                 $col["model_time_s"] == "" ? "-" : sprintf("%.1f", $col["model_time_s"] * 1e6),
                 $col["inter_node_bytes"] / 1024,
                 $col["cut_weight"] == 0 ? "-" : sprintf("%.1f%%", 100 * $col["cut_weight"] / $col["graph_weight"]) }' "$1"
}

echo "Steps 2 and 3: np 64 on gige.xml (8 nodes of 8 cores)"
echo
echo "| algo | block (bytes) | simulated (us) | model (us) | between nodes (KiB) | cut |"
echo "|---|---|---|---|---|---|"
"$simcoll" --platform "$gige" --compare ring,rd,bruck --np 64 --size 2K,64K --format csv \
    > "$scratch/a.csv"
table "$scratch/a.csv"
echo
echo "Step 5: the hierarchy-aware variants, np 64, 2 KiB blocks"
echo
echo "| algo | block (bytes) | simulated (us) | model (us) | between nodes (KiB) | cut |"
echo "|---|---|---|---|---|---|"
"$simcoll" --platform "$gige" --compare ring,ring-reorder,rd,rd-reorder,bruck,bruck-reorder \
    --np 64 --size 2K --format csv > "$scratch/b.csv"
table "$scratch/b.csv"
echo
echo "Step 4: --explain of bruck and bruck-reorder, np 64, 2 KiB (steps, took, waited)"
echo
for algo in bruck bruck-reorder; do
    echo "$algo:"
    echo
    "$simcoll" --platform "$gige" --algo $algo --np 64 --size 2K --explain |
        awk '/^  step/ { on = 1 } on && NF == 0 { exit } on { print "    " $0 }'
    echo
done
