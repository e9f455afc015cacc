#!/bin/sh
# simcoll run --job: applications side by side on their own nodes. A job
# alone takes what it takes run by itself; jobs on nodes of one switch,
# whose links are their own, do not slow each other, and name no shared
# link; jobs spread over racks whose uplinks they share do, and name those
# uplinks; a job file and a sweep of where the jobs go give the same rows;
# bad jobs are refused with exit 2, naming the job, nothing on stdout.
# usage: jobs.sh SIMCOLL SOURCE_DIR
# SPDX-License-Identifier: GPL-2.0-or-later
set -u
simcoll=$1 src=$2
. "$(dirname "$0")/lib.sh"
from_source
cp "$src/experiments/packing/halo.prog" "$src/experiments/packing/cg.prog" .
trace=$traces/sst-macro-dumpi-bgp-7/testbgp.meta
# 2 racks of 4 nodes of 8 cores, uplinks 4:1 oversubscribed
"$simcoll" platform --like gige.xml --nodes 8 --topology racks:4,2 \
    --set rack.bandwidth=0.25x -o racks.xml >/dev/null || fail "platform"

column() { # CSV-ROW-FILE NAME: the named column of the row (not a quoted one)
    sed 's/"[^"]*"/quoted/g' "$1" |
        awk -F, -v name="$2" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == name) c = i }
                              NR == 2 { print $c }'
}
same() { awk -v a="$1" -v b="$2" 'BEGIN { d = (a - b) / b; exit !(d < 1e-9 && d > -1e-9) }'; }

# Alone is the program's own run on the same nodes (block: nodes 0-1).
"$simcoll" run --platform racks.xml --np 16 --no-payload --format csv halo.prog > halo.csv ||
    fail "halo.prog alone"
"$simcoll" run --platform racks.xml --job halo.prog@0-1 --job cg.prog@2-3 --format csv \
    > packed.csv || fail "packed"
alone=$(column packed.csv alone_s | cut -d';' -f1)
same "$alone" "$(column halo.csv sim_time_s)" ||
    fail "halo.prog's job alone $alone s, its run $(column halo.csv sim_time_s) s"
# ... and a trace's is its replay's.
"$simcoll" run --platform racks.xml --format csv "$trace" > trace.csv || fail "trace alone"

# In one rack (its switch, the nodes' own links): no slowdown, no shared link.
[ "$(column packed.csv slowdown_max)" = 1.000000 ] ||
    fail "jobs in one rack slowed: $(column packed.csv slowdown)"
"$simcoll" run --platform racks.xml --job halo.prog@0-1 --job cg.prog@2-3 > packed.txt ||
    fail "packed, table"
grep -q '^# the jobs share no link' packed.txt || fail "packed: $(cat packed.txt)"

# Spread over the racks, both cross both uplinks: a slowdown, the uplinks named.
"$simcoll" run --platform racks.xml --job halo.prog@0,4 --job cg.prog@1,5 \
    --job "$trace@2" > spread.txt || fail "spread: $(cat spread.txt)"
awk '$1 == 2 && $NF + 0 > 1.001 { found = 1 } END { exit !found }' spread.txt ||
    fail "cg.prog spread over the racks is not slowed: $(cat spread.txt)"
grep -Eq '^#   .*rack-0_uplink.*: job 1 [0-9.]+ KiB, job 2 [0-9.]+ KiB' spread.txt ||
    fail "the shared uplink is not named: $(cat spread.txt)"
awk '$1 == 3 { t = $6 } END { exit !(t != "") }' spread.txt || fail "no row of the trace's job"
"$simcoll" run --platform racks.xml --job "$trace@2" --format csv > trace-job.csv
same "$(column trace-job.csv alone_s)" "$(column trace.csv sim_time_s)" ||
    fail "the trace's job alone $(column trace-job.csv alone_s) s, its replay $(column trace.csv sim_time_s) s"

# A job file, and a sweep of where the jobs go, give the same rows.
printf '# packed in one rack\nhalo.prog@0-1\ncg.prog@2-3  # its nodes\n' > packed.jobs
printf 'halo.prog@0,4\ncg.prog@1,5\n' > spread.jobs
"$simcoll" run --platform racks.xml --jobs packed.jobs --format csv > file.csv || fail "--jobs"
[ "$(column file.csv together_s)" = "$(column packed.csv together_s)" ] ||
    fail "--jobs gives $(column file.csv together_s), --job $(column packed.csv together_s)"
printf 'platform = racks.xml\njobs = packed.jobs, spread.jobs\n' > where.ini
"$simcoll" sweep where.ini -o where.csv 2>/dev/null || fail "sweep"
[ "$(grep -c ',ok,' where.csv)" = 2 ] || fail "sweep: $(cat where.csv)"
grep -E '^key,|jobs=spread.jobs' where.csv > spread-row.csv
awk -v s="$(column spread-row.csv slowdown_max)" 'BEGIN { exit !(s > 1.001) }' ||
    fail "sweep: the spread point is not slowed: $(cat where.csv)"

# refused REGEX ARGS...: exit 2, the message, nothing on stdout.
refused() {
    regex=$1
    shift
    "$simcoll" run --platform racks.xml "$@" > out.txt 2> err.txt
    code=$?
    [ $code = 2 ] || fail "$*: exit $code, expected 2: $(cat err.txt)"
    grep -Eq -- "$regex" err.txt || fail "$*: message does not match '$regex': $(cat err.txt)"
    [ ! -s out.txt ] || fail "$*: wrote to stdout"
}
refused "--job 'halo.prog@0-1' and --job 'cg.prog@1-2' both run on node 1" \
    --job halo.prog@0-1 --job cg.prog@1-2
refused "--job 'halo.prog@0:9': 9 ranks need more cores than its 1 nodes have \\(8\\)" \
    --job halo.prog@0:9
refused "--job 'halo.prog@6-9': node 9 is outside platform 'racks.xml' \\(nodes 0 to 7\\)" \
    --job halo.prog@6-9
refused "--job '.*testbgp.meta@2:8': the trace has 7 ranks, not 8" --job "$trace@2:8"
refused "--job 'halo.prog': a job is FILE@NODES" --job halo.prog
refused "a node range goes up" --job halo.prog@3-1
refused "--np .*: not with jobs side by side" --job halo.prog@0 --np 8
printf 'halo.prog@0\ncg.prog@nodes\n' > bad.jobs
refused "bad.jobs:2: --job 'cg.prog@nodes': the nodes are a range" --jobs bad.jobs
echo "jobs.sh: all cases passed"
