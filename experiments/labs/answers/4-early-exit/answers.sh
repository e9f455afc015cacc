#!/bin/sh
# Regenerates the numbers of this lab's answer key (answers.md, between the
# "generated" markers); tests/cli/labs.sh checks the key still says them.
# usage: answers.sh [path/to/simcoll]
# SPDX-License-Identifier: GPL-2.0-or-later
set -eu
. "$(dirname "$0")/../lib.sh"

# runs CSV: algo, decider, simulated time (us), messages.
runs() {
    awk -F, -v who="$2" 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
        { printf "| %s | %s | %.1f | %s |\n", $col["algo"], who, $col["sim_time_s"] * 1e6,
                 $col["messages"] }' "$1"
}

for case in "bor 64K" "land 4"; do
    set -- $case
    echo "Steps 1 and 2: $1 of $2 bytes of int, np 64, gige.xml"
    echo
    echo "| algo | decider | simulated (us) | messages |"
    echo "|---|---|---|---|"
    for who in none first 0.25; do
        "$simcoll" --platform "$gige" --compare allreduce-rd,allreduce-early --op "$1" \
            --type int --np 64 --size "$2" --data "decider=$who" --format csv > "$scratch/r.csv"
        runs "$scratch/r.csv" "$who"
    done
    echo
done

echo "Step 3: the solver loop at np 64 on gige.xml, four endings"
echo
echo "| ending | simulated (ms) |"
echo "|---|---|"
for ending in "algo=allreduce-rd" "algo=allreduce-if" "algo=allreduce-rd predict" \
    "algo=allreduce-if predict"; do
    sed "s/^until .*/until 1e-6 max=1000 error=1 rate=0.5 $ending/" "$lab/solver.prog" \
        > "$scratch/s.prog"
    "$simcoll" run --platform "$gige" --np 64 --format csv "$scratch/s.prog" > "$scratch/s.csv"
    awk -F, -v e="$ending" 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
        { printf "| %s | %.3f |\n", e, $col["sim_time_s"] * 1e3 }' "$scratch/s.csv"
done
echo
echo "Step 3: the sum alone, np 64, gige.xml"
echo
"$simcoll" --platform "$gige" --algo allreduce-rd --np 64 --size 8 --format csv |
    awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
        { printf "allreduce-rd of one double: %.1f us\n", $col["sim_time_s"] * 1e6 }'
