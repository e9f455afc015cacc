#!/bin/sh
# --partitioner scotch or metis (optional libraries): where the build has
# it, simcoll map on an algorithm, a program and a traffic matrix gives a
# permutation that cuts no more than block placement, named in the files and
# the report; where it has not, every command that names it is refused with
# exit 2, the value and what the build offers, and nothing written.
# usage: map_external.sh SIMCOLL SOURCE_DIR scotch|metis ON|OFF
# SPDX-License-Identifier: GPL-2.0-or-later
set -eu
simcoll=$1
src=$2
name=$3
have=$4
. "$(dirname "$0")/lib.sh"
test_name="map_external $name"
cd "$work"
halo=$src/experiments/packing/halo.prog
matrix=$src/tests/matrices/ring16.csv

if [ "$have" != ON ]; then
    for args in "map --platform gige.xml --algo bruck --np 24" \
        "map --platform gige.xml --np 64 $halo" \
        "map --platform gige.xml --np 16 --matrix $matrix" \
        "--platform gige.xml --algo bruck-reorder --np 24 --mapping partition"; do
        set +e
        # shellcheck disable=SC2086 # one argument a word
        "$simcoll" $args --partitioner "$name" -o pi.txt >out.stdout 2>out.err
        code=$?
        set -e
        [ "$code" = 2 ] || fail "exit $code, expected 2: $args"
        grep -q -- "--partitioner: '$name' is not in this build .*this build offers multilevel, greedy" \
            out.err || fail "message: $(cat out.err)"
        [ ! -s out.stdout ] && [ ! -e pi.txt ] || fail "wrote output though refused: $args"
    done
    echo "map_external $name: refused, as this build has no lib$name-dev"
    exit 0
fi

# pi.txt is a permutation of 0..n-1 whose header names the partitioner,
# and the cut it prints is no more than block placement's.
check() { # N ERRFILE
    [ "$(grep -v '^#' pi.txt | sort -n | tr '\n' ' ')" = "$(seq 0 $(($1 - 1)) | tr '\n' ' ')" ] ||
        fail "pi.txt is not a permutation of 0..$(($1 - 1))"
    grep -q "^# simcoll map .*partitioner $name\$" pi.txt || fail "pi.txt's header: $(head -1 pi.txt)"
    cut=$(sed -nE 's/.*cut weight ([0-9.e+]+) of .*block placement ([0-9.e+]+),.*/\1 \2/p' "$2")
    [ -n "$cut" ] || fail "no cut in: $(cat "$2")"
    echo "$cut" | awk '{ exit !($1 <= $2) }' || fail "cut above block placement's: $cut"
}

# An algorithm on partly filled nodes (24 ranks on 8 nodes of 8), and the run
# that partitions by it: its report names the partitioner as the mapping.
"$simcoll" map --platform gige.xml --algo bruck --np 24 --partitioner "$name" -o pi.txt 2>algo.err
check 24 algo.err
"$simcoll" --platform gige.xml --algo bruck-reorder --np 24 --mapping partition \
    --partitioner "$name" --format csv >run.csv
grep -q "^gige,bruck-reorder,allgather,24,3,2048,$name,.*,yes," run.csv ||
    fail "run with --partitioner $name: $(cat run.csv)"

# A program, then run with its pi: the bytes between nodes are the cut.
"$simcoll" map --platform gige.xml --np 64 --partitioner "$name" -o pi.txt "$halo" 2>prog.err
check 64 prog.err
cut=$(sed -nE 's/.*cut weight ([0-9]+) of .*/\1/p' prog.err)
inter=$("$simcoll" run --platform gige.xml --np 64 --mapping pi.txt --no-payload --format csv \
    "$halo" | awk -F, 'NR == 2 { print $10 }')
[ "$inter" = "$cut" ] || fail "halo.prog: $inter bytes between nodes, the map's cut $cut"

# A traffic matrix: a ring of 16 on nodes of 8 is cut at its two ends.
"$simcoll" map --platform gige.xml --np 16 --matrix "$matrix" --partitioner "$name" \
    -o pi.txt 2>matrix.err
check 16 matrix.err
grep -q 'cut weight 2000000 of 16000000 bytes' matrix.err || fail "ring16.csv: $(cat matrix.err)"

# On a fat tree (racks, then nodes) level by level, through the same option.
"$simcoll" map --platform "$src/tests/platforms/fat-tree.xml" --algo bruck --np 16 \
    --partitioner "$name" -o pi.txt 2>racks.err
check 16 racks.err
echo "map_external $name: algorithm, program, matrix and racks mapped"
