#!/bin/sh
# Regenerates the numbers of this lab's answer key (answers.md, between the
# "generated" markers); tests/cli/labs.sh checks the key still says them.
# The teacher's solution.c, the handout's skeleton.c with the edits of
# solution.patch, is loaded and checked like a student's.
# usage: answers.sh [path/to/simcoll]
# SPDX-License-Identifier: GPL-2.0-or-later
set -eu
. "$(dirname "$0")/../lib.sh"
patch -s -o "$scratch/solution.c" "$lab/skeleton.c" "$here/solution.patch"

echo "Step 1: simcoll map --algo bruck --np 64"
echo
"$simcoll" map --platform "$gige" --algo bruck --np 64 -o "$scratch/pi.txt" 2>&1 |
    sed 's/; [0-9.e-]* s to partition//; s/^/    /'
echo
echo "Steps 2 to 4: np 64, 2 KiB blocks"
echo
echo "| algo | file | mapping | simulated (us) | between nodes (KiB) | valid |"
echo "|---|---|---|---|---|---|"
# row ALGO FILE MAPPING: one run, with FILE loaded unless it is "-".
row() {
    case $2 in
    -) load="" ;;
    skeleton.c) load="--load $lab/$2" ;; # the student's starting file, in the handout
    *) load="--load $scratch/$2" ;;     # the teacher's, made from solution.patch
    esac
    map=$3
    [ "$map" = pi.txt ] && map=$scratch/pi.txt
    "$simcoll" --platform "$gige" $load --algo "$1" --np 64 --size 2K --mapping "$map" \
        --format csv | awk -F, -v a="$1" -v f="$2" -v m="$3" '
        NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
        { printf "| %s | %s | %s | %.1f | %.0f | %s |\n", a, f, m, $col["sim_time_s"] * 1e6,
                 $col["inter_node_bytes"] / 1024, $col["valid"] }'
}
row bruck - block
row bruck - pi.txt
row bruck-exch - pi.txt
row bruck-reorder - pi.txt
row my_bruck_reorder skeleton.c pi.txt
row my_bruck_reorder solution.c pi.txt
