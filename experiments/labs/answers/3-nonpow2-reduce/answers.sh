#!/bin/sh
# Regenerates the numbers of this lab's answer key (answers.md, between the
# "generated" markers); tests/cli/labs.sh checks the key still says them.
# usage: answers.sh [path/to/simcoll]
# SPDX-License-Identifier: GPL-2.0-or-later
set -eu
. "$(dirname "$0")/../lib.sh"

# table CSV: algo, np, simulated and model time (us), critical path (KiB).
table() {
    echo "| algo | np | simulated (us) | model (us) | critical path (KiB) |"
    echo "|---|---|---|---|---|"
    awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
        { printf "| %s | %s | %.1f | %s | %.0f |\n", $col["algo"], $col["np"],
                 $col["sim_time_s"] * 1e6,
                 $col["model_time_s"] == "" ? "-" : sprintf("%.1f", $col["model_time_s"] * 1e6),
                 $col["critical_path_bytes"] / 1024 }' "$1"
}
algos=allreduce-mst,allreduce-mpich,allreduce-nonpow2,allreduce-ring

echo "Step 2: ib4x.xml (8 nodes of 8 cores), 1 MiB of doubles"
echo
"$simcoll" --platform "$top/platforms/ib4x.xml" --compare $algos --np 16,24 --size 1M \
    --format csv > "$scratch/a.csv"
table "$scratch/a.csv"
echo
echo "Step 4: one core per node (flat.xml), 1 MiB"
echo
"$simcoll" platform --like "$top/platforms/ib4x.xml" --nodes 32 --cores 1 -o "$scratch/flat.xml" \
    2> /dev/null
"$simcoll" --platform "$scratch/flat.xml" --compare $algos --np 16,24 --size 1M --format csv \
    > "$scratch/b.csv"
table "$scratch/b.csv"
echo
echo "Step 5: ib4x.xml, 4 KiB"
echo
"$simcoll" --platform "$top/platforms/ib4x.xml" --compare $algos --np 24 --size 4K \
    --format csv > "$scratch/c.csv"
table "$scratch/c.csv"
echo
echo "Step 6: --explain of allreduce-nonpow2, np 24, 1 MiB, ib4x.xml (its first six steps)"
echo
"$simcoll" --platform "$top/platforms/ib4x.xml" --algo allreduce-nonpow2 --np 24 --size 1M \
    --explain | awk '/^  step/ { on = 1 } on && NF == 0 { exit } on && n++ < 7 { print "    " $0 }'
