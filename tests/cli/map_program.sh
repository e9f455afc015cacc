#!/bin/sh
# simcoll map for a program and for a traffic matrix: the files it writes,
# what a run makes of them, and bad matrices refused with nothing written.
# usage: map_program.sh SIMCOLL SOURCE_DIR
# SPDX-License-Identifier: GPL-2.0-or-later
set -eu
simcoll=$1
src=$2
. "$(dirname "$0")/lib.sh"
cd "$work"

# A program: pi, machinefile and rankfile; pi is a permutation of 0..63.
"$simcoll" map --platform gige.xml --np 64 -o pi.txt --machinefile hosts --rankfile ranks \
    "$src/experiments/packing/halo.prog" 2>map.err
grep -q 'cut weight 8192000 of 28672000 bytes (block placement 14336000, cyclic 14336000)' map.err ||
    fail "halo.prog's cut: $(cat map.err)"
[ "$(grep -v '^#' pi.txt | sort -n | tr '\n' ' ')" = "$(seq 0 63 | tr '\n' ' ')" ] ||
    fail "pi.txt is not a permutation of 0..63"
[ "$(grep -vc '^#' hosts)" -eq 64 ] && [ "$(grep -vc '^#' ranks)" -eq 64 ] ||
    fail "machinefile or rankfile short"
# They name simcoll's nodes, which mpirun does not know: said in each and
# on stderr; --hosts names the real ones, a Slurm node list or a file.
grep -q "^# node-0... are simcoll's names for the platform's nodes: replace them" hosts ||
    fail "the machinefile does not say its names are simcoll's: $(head -n 1 hosts)"
grep -q "note: hosts names simcoll's nodes (node-0, ...), not your hosts" map.err ||
    fail "no note of simcoll's names: $(cat map.err)"
"$simcoll" map --platform gige.xml --np 64 --rankfile ranks --hosts 'cn[01-08]' \
    "$src/experiments/packing/halo.prog" >/dev/null 2>map.err || fail "--hosts: $(cat map.err)"
[ "$(grep -c '=cn0[1-8] slot=' ranks)" -eq 64 ] && ! grep -q node- ranks ||
    fail "--hosts cn[01-08]: $(head -n 3 ranks)"
printf 'cn1\ncn2\n' > two-hosts
code=0
"$simcoll" map --platform gige.xml --np 64 --rankfile ranks2 --hosts two-hosts \
    "$src/experiments/packing/halo.prog" >/dev/null 2>map.err || code=$?
[ $code -eq 2 ] && grep -q "names 2 hosts, and the 64 ranks are on 8 nodes" map.err ||
    fail "two hosts for 8 nodes: $(cat map.err)"
[ ! -e ranks2 ] || fail "a rankfile written with too few hosts"

# Run with that file, and with --mapping partition: the same layout, and
# the bytes between nodes are the cut the map printed.
inter() { "$simcoll" run --platform gige.xml --np 64 --format csv "$@" | awk -F, 'NR == 2 {print $10}'; }
from_file=$(inter --mapping pi.txt "$src/experiments/packing/halo.prog")
partition=$(inter --mapping partition "$src/experiments/packing/halo.prog" 2>/dev/null)
[ "$from_file" = 8192000 ] && [ "$partition" = 8192000 ] ||
    fail "inter-node bytes $from_file (pi.txt) and $partition (partition), expected 8192000"

# A matrix on nodes of two cores: 0 and 3 talk the most, then 1 and 2.
"$simcoll" platform --like gige.xml --nodes 2 --cores 2 -o two.xml
"$simcoll" map --platform two.xml --matrix "$src/tests/matrices/pairs4.csv" -o pi4.txt \
    --machinefile hosts4 2>map4.err
grep -q 'cut weight 20 of 14020 bytes (block placement 14000, cyclic 14020)' map4.err ||
    fail "pairs4.csv's cut: $(cat map4.err)"
grep -q 'messages between nodes 2 of 30 (block placement 28, cyclic 30)' map4.err ||
    fail "pairs4.csv's messages: $(cat map4.err)"
[ "$(sed -n 2p hosts4)" = "$(sed -n 5p hosts4)" ] && [ "$(sed -n 3p hosts4)" = "$(sed -n 4p hosts4)" ] ||
    fail "ranks 0 and 3, 1 and 2 not on one node: $(cat hosts4)"

# Bad matrices: exit 2, FILE:LINE, and no file written.
for bad in bad-rank.mtx:4 negative.csv:3 not-number.csv:2 not-square.mtx:2 short.mtx:4 \
           symmetric-mirror.mtx:7 sum-infinite.mtx:5; do
    file=${bad%:*}
    set +e
    "$simcoll" map --platform gige.xml --matrix "$src/tests/matrices/$file" -o out.txt \
        --machinefile out.hosts >out.stdout 2>out.err
    code=$?
    set -e
    [ $code -eq 2 ] || fail "$file: exit code $code, expected 2"
    grep -q "$bad: " out.err || fail "$file: no $bad in: $(cat out.err)"
    [ ! -e out.txt ] && [ ! -e out.hosts ] && [ ! -s out.stdout ] || fail "$file: something written"
done

# --objective time: never slower than the mappings it starts from, and
# the pi it writes runs in the time it reports.
"$simcoll" map --platform gige.xml --algo bruck --np 24 --objective time --budget 12 -o pit.txt \
    2>time.err
seconds() { # "1.27 ms" -> seconds
    awk '{ f = $2 == "s" ? 1 : $2 == "ms" ? 1e-3 : $2 == "us" ? 1e-6 : $2 == "ns" ? 1e-9 : -1
           if (f < 0) exit 1; printf "%.9e\n", $1 * f }'
}
final=$(sed -n 's/.* -> \([0-9.]* [mun]*s\) (.*faster); stopped.*/\1/p' time.err | seconds) ||
    fail "no final time in: $(cat time.err)"
starts=$(sed -n 's/.*--objective time: \(cut .*\); from .*/\1/p' time.err | tr ',' '\n' |
    sed 's/^ *[a-z]* //')
[ "$(printf '%s\n' "$starts" | grep -c .)" -eq 3 ] || fail "not three starts: $(cat time.err)"
printf '%s\n' "$starts" | while read -r start; do
    s=$(echo "$start" | seconds) || fail "start '$start'"
    awk -v s="$s" -v f="$final" 'BEGIN { exit !(f <= s) }' || fail "final $final slower than a start $s"
done
run=$("$simcoll" --platform gige.xml --algo bruck --np 24 --mapping pit.txt --format csv |
    awk -F, 'NR == 2 { print $8 }')
awk -v r="$run" -v f="$final" 'BEGIN { d = r - f; if (d < 0) d = -d; exit !(d <= 1e-3 * f) }' ||
    fail "pit.txt runs in $run s, the search said $final s"
