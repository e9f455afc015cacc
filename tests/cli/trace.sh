#!/bin/sh
# --timeline, --trace and --paje: every message of the run in each, the JSON
# well formed (json_pp, Perl's), the Paje file read by pajeng's pj_dump, the
# pictures drawn; one lane per node above 64 ranks; several runs, or a
# picture of an unknown kind, refused with nothing written.
# usage: trace.sh SIMCOLL PLATFORM_DIR
# SPDX-License-Identifier: GPL-2.0-or-later
set -u
simcoll=$1 platforms=$2
. "$(dirname "$0")/lib.sh"
cd "$work" || exit 1
command -v json_pp >/dev/null || fail "needs json_pp (Debian package perl)"
command -v pj_dump >/dev/null || fail "needs pj_dump (Debian package pajeng)"

"$simcoll" --platform "$platforms/gige.xml" --algo bruck --np 24 --size 2048 --format csv \
    --timeline t.svg --trace t.json --paje t.paje > run.csv || fail "the traced run failed"
# The messages column of the run's row: what every file must hold.
col=$(head -n 1 run.csv | tr ',' '\n' | grep -n '^messages$' | cut -d: -f1)
messages=$(tail -n 1 run.csv | cut -d, -f"$col")
[ "$messages" -gt 0 ] || fail "no messages in the run's row"
json_pp < t.json > pretty.json || fail "t.json is not JSON"
[ "$(grep -c '"name" : "send"' pretty.json)" -eq "$messages" ] ||
    fail "$(grep -c '"name" : "send"' pretty.json) send events, $messages messages"
[ "$(grep -c '"name" : "recv"' pretty.json)" -eq "$messages" ] || fail "recv events"
[ "$(grep -c '"name" : "thread_name"' pretty.json)" -eq 24 ] || fail "not one thread per rank"
pj_dump t.paje > dump.txt 2> dump.err || fail "pj_dump: $(head -n 3 dump.err)"
[ "$(grep -c '^Link' dump.txt)" -eq "$messages" ] ||
    fail "$(grep -c '^Link' dump.txt) Paje links, $messages messages"
[ "$(grep -c '^Container.*RANK' dump.txt)" -eq 24 ] || fail "not one Paje container per rank"
grep -q '<svg' t.svg || fail "t.svg is not an SVG picture"
[ "$(grep -c 'inter-node message' t.svg)" -ge 1 ] || fail "no legend in the timeline"

# Step labels sit mid-arrow, not at the tails, where the first steps' piled
# up at t = 0: Bruck's fourth step on gige (posted from 21 us, its arrows
# ending from 1 ms on) is labelled past a tenth of the run's 1.45 ms.
"$simcoll" --platform "$platforms/gige.xml" --algo bruck --np 16 --timeline t.gp > /dev/null ||
    fail "the timeline's script"
sed -n '/^\$steps << EOD/,/^EOD/p' t.gp | awk '$3 == 4 { n++; if ($1 < 0.145) bad++ }
    END { exit !(n >= 1 && !bad) }' || fail "step 4's labels at the start: $(sed -n '/steps << EOD/,/EOD/p' t.gp)"

# Above 64 ranks, a lane per node, and PNG.
"$simcoll" platform --like "$platforms/gige.xml" --nodes 16 -o big.xml 2>/dev/null ||
    fail "platform"
"$simcoll" --platform big.xml --algo ring --np 128 --size 64 --no-payload --timeline big.png \
    > /dev/null || fail "the 128-rank timeline failed"
[ "$(head -c 4 big.png | tail -c 3)" = PNG ] || fail "big.png is not a PNG picture"

# A program's messages, every statement's.
printf 'loop 2\n  allreduce 4K algo=allreduce-rd\n  halo 1K dims=2\nend\n' > p.prog
"$simcoll" run --platform "$platforms/ib4x.xml" --np 12 --format csv --trace p.json \
    --paje p.paje p.prog > prun.csv || fail "the traced program failed"
col=$(head -n 1 prun.csv | tr ',' '\n' | grep -n '^messages$' | cut -d: -f1)
messages=$(tail -n 1 prun.csv | cut -d, -f"$col")
[ "$(json_pp < p.json | grep -c '"name" : "send"')" -eq "$messages" ] ||
    fail "program: send events are not the $messages messages"
[ "$(pj_dump p.paje | grep -c '^Link')" -eq "$messages" ] || fail "program: Paje links"
"$simcoll" run --platform "$platforms/ib4x.xml" --np 8,12 --timeline x.svg p.prog 2> err.txt
[ $? -eq 2 ] && grep -q "timeline writes one run; give one --np, not 8,12" err.txt ||
    fail "run, two process counts: $(cat err.txt)"

# Refused before anything runs, nothing written.
"$simcoll" --platform "$platforms/gige.xml" --algo bruck --np 8,16 --trace x.json 2> err.txt
[ $? -eq 2 ] && grep -q "show one run, and this command makes 2" err.txt ||
    fail "two runs: $(cat err.txt)"
"$simcoll" --platform "$platforms/gige.xml" --algo bruck --np 8 --timeline x.jpg 2> err.txt
[ $? -eq 2 ] && grep -q "end it in .png or .svg (or .gp for gnuplot's script)" err.txt || fail "x.jpg: $(cat err.txt)"
[ ! -e x.json ] && [ ! -e x.jpg ] && [ ! -e x.svg ] || fail "a refused command wrote a file"
echo "trace.sh: ok"
