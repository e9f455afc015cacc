#!/bin/sh
# Traces replayed (simcoll run TRACE): each reader's counts of messages,
# bytes and collectives against an independent reading of the shipped
# traces (otf2-print for OTF2, the TI text, dumpi2ascii's text and the
# footers' counts for DUMPI); a ping-pong trace against the same sends as a
# program and its cost model; a collective in a trace against simcoll
# --algo; a program and the same calls written as a trace; the outputs.
# usage: trace_run.sh SIMCOLL SOURCE_DIR
# SPDX-License-Identifier: GPL-2.0-or-later
set -u
simcoll=$1 src=$2
. "$(dirname "$0")/lib.sh"
from_source
# Two times equal to the digits the outputs print (9 or 10).
equal() { awk -v a="$1" -v b="$2" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= 1e-8 * (a > b ? a : b)) }'; }

# A JSON field of the run's summary, e.g. field p2p_messages.
field() { grep -o "\"$1\": [0-9.e+-]*" json | head -1 | sed 's/.*: //'; }
# A collective's calls and rank-calls: "calls rank_calls".
collective() { grep -o "\"$1\": {\"calls\": [0-9]*, \"rank_calls\": [0-9]*}" json |
    sed 's/.*calls": \([0-9]*\), "rank_calls": \([0-9]*\)}/\1 \2/'; }
same() { [ "$1" = "$2" ] || fail "$3: simcoll $1, expected $2"; }

# ---- OTF2: against otf2-print, where otf2-tools is installed ----
if command -v otf2-print >/dev/null 2>&1; then
    for t in sst-macro-otf2-10 pipit-pingpong-otf2-2; do
        anchor=$traces/$t/traces.otf2
        "$simcoll" run --platform gige.xml "$anchor" --format json > json 2>/dev/null ||
            fail "$t: exit $?"
        otf2-print "$anchor" > print.txt 2>/dev/null || fail "otf2-print $t: exit $?"
        # every send, blocking or not, and its bytes
        sends=$(awk '$1 == "MPI_SEND" || $1 == "MPI_ISEND"' print.txt | wc -l)
        bytes=$(awk '$1 == "MPI_SEND" || $1 == "MPI_ISEND" {
                         for (i = 1; i <= NF; i++) if ($i == "Length:") { sub(",", "", $(i + 1)); s += $(i + 1) } }
                     END { printf "%.0f", s }' print.txt)
        same "$(field p2p_messages)" "$sends" "$t: messages"
        same "$(field p2p_bytes)" "$bytes" "$t: bytes"
        # each collective's ends, every rank's
        for op in BCAST REDUCE ALLREDUCE GATHER SCATTER ALLGATHER ALLTOALL BARRIER; do
            n=$(grep -c "^MPI_COLLECTIVE_END .*Operation: $op," print.txt)
            name=$(echo $op | tr A-Z a-z)
            got=$(collective $name | cut -d' ' -f2)
            same "${got:-0}" "$n" "$t: $name's rank-calls"
        done
    done
else
    echo "trace_run.sh: otf2-print is not installed (otf2-tools): OTF2 counts not checked"
fi

# ---- DUMPI: dumpi2ascii's text of rank 0 and the footers' counts ----
"$simcoll" run --platform gige.xml "$traces/sst-dumpi-testtrace-4/testtrace.meta" \
    --format json > json 2>/dev/null || fail "testtrace: exit $?"
# rank 0 makes one Isend of one MPI_INT (testtrace-0000.txt), as each rank does
grep -q "^MPI_Isend entering" "$traces/sst-dumpi-testtrace-4/testtrace-0000.txt" || fail "no Isend"
same "$(field p2p_messages)" 4 "testtrace: messages"
same "$(field p2p_bytes)" 16 "testtrace: bytes"
same "$(collective barrier)" "1 4" "testtrace: barrier"
same "$(collective allreduce)" "1 4" "testtrace: allreduce"
"$simcoll" run --platform gige.xml "$traces/sst-macro-dumpi-bgp-7/testbgp.meta" \
    --format json > json 2>/dev/null || fail "testbgp: exit $?"
# the footers: 84 Isend a rank, 7 Alltoall and 3 Barrier on the communicator
# Comm_create made of all 7 ranks
same "$(field p2p_messages)" 588 "testbgp: messages"
same "$(collective alltoall)" "7 49" "testbgp: alltoall"
same "$(collective barrier)" "3 21" "testbgp: barrier"

# ---- TI: the action files' own lines ----
"$simcoll" run --platform gige.xml "$traces/simgrid-ti-32/smpi_replay.txt" \
    --format json > json 2>/dev/null || fail "simgrid-ti-32: exit $?"
files=$traces/simgrid-ti-32/ti_traces_32_1/ti_trace*.txt
same "$(field computes)" "$(cat $files | awk '$2 == "compute"' | wc -l)" "simgrid-ti-32: computes"
flops=$(cat $files | awk '$2 == "compute" { s += $3 } END { printf "%.6e", s }')
same "$(printf '%.6e' "$(field compute_flops)")" "$flops" "simgrid-ti-32: flops"
for action in bcast allreduce alltoall alltoallv gather barrier; do
    n=$(cat $files | awk -v a=$action '$2 == a' | wc -l)
    same "$(collective $action)" "$((n / 32)) $n" "simgrid-ti-32: $action"
done

# ---- A ping-pong: the trace, the same sends as a program, and the model ----
for mapping in block cyclic; do
    cat > pingpong.txt <<EOF
0 send 1 0 1048576 2
0 recv 1 0 1048576 2
1 recv 0 0 1048576 2
1 send 0 0 1048576 2
EOF
    printf 'send 1M from=0 to=1\nsend 1M from=1 to=0\n' > pingpong.prog
    "$simcoll" run --platform gige.xml --mapping $mapping pingpong.txt --format csv \
        > trace.csv 2>/dev/null || fail "pingpong trace ($mapping): exit $?"
    "$simcoll" run --platform gige.xml --np 2 --no-payload --mapping $mapping pingpong.prog \
        --format csv > prog.csv 2>/dev/null || fail "pingpong program ($mapping): exit $?"
    # sim_time_s: the trace's column 9, the program's 7; the model's 8
    t=$(awk -F, 'NR == 2 { print $9 }' trace.csv)
    p=$(awk -F, 'NR == 2 { print $7 }' prog.csv)
    m=$(awk -F, 'NR == 2 { print $8 }' prog.csv)
    equal "$t" "$p" && equal "$t" "$m" ||
        fail "ping-pong ($mapping): trace $t s, program $p s, cost model $m s"
done

# ---- A collective in a trace: simcoll --algo's time ----
for r in 0 1 2 3 4 5 6 7 8 9 10 11; do
    echo "$r allreduce 65536 0 0"
done > allreduce.txt
for algo in allreduce-rd allreduce-rabenseifner allreduce-ring; do
    "$simcoll" run --platform ib4x.xml --algos allreduce=$algo allreduce.txt --format csv \
        > trace.csv 2>/dev/null || fail "allreduce trace $algo: exit $?"
    "$simcoll" --platform ib4x.xml --algo $algo --np 12 --size 512K --no-payload \
        --format csv > coll.csv 2>/dev/null || fail "--algo $algo: exit $?"
    t=$(awk -F, 'NR == 2 { print $9 }' trace.csv)
    c=$(awk -F, 'NR == 2 { print $8 }' coll.csv)
    equal "$t" "$c" ||
        fail "allreduce by $algo: trace $t s, simcoll --algo $c s"
done

# ---- A program and the same calls as a trace ----
cat > steps.prog <<'EOF'
compute 2ms
allreduce 8K
bcast 64K root=2
compute 500us
send 256K from=1 to=4
barrier
EOF
for r in 0 1 2 3 4 5; do
    echo "$r sleep 0.002"
    echo "$r allreduce 1024 0 0"
    echo "$r bcast 65536 2 6"
    echo "$r sleep 0.0005"
    [ $r = 1 ] && echo "1 send 4 0 262144 6"
    [ $r = 4 ] && echo "4 recv 1 0 262144 6"
    echo "$r barrier"
done > steps.txt
# steps_on PLATFORM: the program's simulated and model times and the
# trace's simulated time, into p, m and t.
steps_on() {
    "$simcoll" run --platform "$1" --np 6 --no-payload --mpi openmpi-4.1 steps.prog \
        --format csv > prog.csv 2>/dev/null || fail "steps.prog on $1: exit $?"
    "$simcoll" run --platform "$1" --mpi openmpi-4.1 steps.txt --format csv > trace.csv \
        2>/dev/null || fail "steps.txt on $1: exit $?"
    t=$(awk -F, 'NR == 2 { print $9 }' trace.csv)
    p=$(awk -F, 'NR == 2 { print $7 }' prog.csv)
    m=$(awk -F, 'NR == 2 { print $8 }' prog.csv)
}
steps_on gige.xml
equal "$t" "$p" ||
    fail "a program and the same calls as a trace: trace $t s, program $p s"
# Each rank enters each of its three collective calls o_call later: the
# cost model ends three o_calls later; the simulations as long as each
# other, later, and by at most that (a call's last messages, still on their
# way when a rank enters the next call, then share less with its messages).
t0=$t m0=$m
"$simcoll" platform --like gige.xml --set intra.call-overhead=20us -o call.xml 2>/dev/null ||
    fail "platform --set intra.call-overhead: exit $?"
steps_on call.xml
equal "$m" "$(awk -v m="$m0" 'BEGIN { printf "%.10g", m + 3 * 20e-6 }')" ||
    fail "three calls' entries of 20 us: cost model $m s, without them $m0 s"
equal "$t" "$p" && awk -v a="$t0" -v b="$t" 'BEGIN { exit !(b > a && b <= a + 3 * 20e-6 * (1 + 1e-8)) }' ||
    fail "three calls' entries of 20 us: trace $t s, program $p s, without them $t0 s"

# ---- Outputs ----
"$simcoll" run --platform gige.xml "$traces/sst-macro-otf2-10/traces.otf2" > table.txt \
    2>stderr.txt || fail "table: exit $?"
grep -q "^simulated   " table.txt || fail "no simulated time: $(cat table.txt)"
grep -q "^the calls that cost most" table.txt || fail "no costliest calls: $(cat table.txt)"
grep -q "360 MPI_Iallreduce calls not replayed" stderr.txt || fail "skips not named: $(cat stderr.txt)"
"$simcoll" run --platform gige.xml "$traces/sst-dumpi-testtrace-4/testtrace.meta" \
    --timeline tl.svg --trace tl.json > /dev/null 2>&1 || fail "--timeline: exit $?"
[ -s tl.svg ] && [ -s tl.json ] || fail "--timeline or --trace wrote nothing"
# ---- The three engines: actors, an actor per node, the driver ----
# The same simulated times where no NIC's gap orders messages of one instant
# (the engines may serve those in another order: docs/traces.md); the driver
# only where this SimGrid has it.
engines="--replay"
"$simcoll" run --platform gige.xml "$traces/sst-dumpi-testtrace-4/testtrace.meta" \
    --replay=maestro > /dev/null 2>&1 && engines="$engines --replay=maestro"
for t in sst-dumpi-testtrace-4/testtrace.meta sst-macro-dumpi-bgp-7/testbgp.meta \
         simgrid-ti-32/smpi_replay.txt@nocontention-102 sst-macro-otf2-10/traces.otf2; do
    platform=gige.xml
    case $t in *@*) platform=$src/tests/platforms/${t#*@}.xml; t=${t%@*} ;; esac
    [ -e "$traces/$t" ] || continue
    case $t in *.otf2) command -v otf2-print >/dev/null 2>&1 || continue ;; esac
    "$simcoll" run --platform "$platform" "$traces/$t" --format csv > actors.csv 2>/dev/null ||
        fail "$t with actors: exit $?"
    a=$(awk -F, 'NR == 2 { print $9 }' actors.csv)
    for engine in $engines; do
        "$simcoll" run --platform "$platform" "$traces/$t" $engine --format csv > replay.csv \
            2>/dev/null || fail "$t $engine: exit $?"
        r=$(awk -F, 'NR == 2 { print $9 }' replay.csv)
        [ "$a" = "$r" ] || fail "$t on $platform: actors $a s, $engine $r s"
    done
done

# ---- Mapping, map TRACE and a study of traces ----
otf2=$traces/sst-macro-otf2-10/traces.otf2
"$simcoll" map --platform gige.xml "$otf2" -o pi.txt --rankfile ranks.txt > /dev/null 2>&1 ||
    fail "map TRACE: exit $?"
[ "$(grep -vc "^#" pi.txt)" = 10 ] || fail "map TRACE: pi has not 10 lines: $(cat pi.txt)"
grep -q "^rank 9=node-[01] slot=" ranks.txt || fail "map TRACE: no rankfile: $(cat ranks.txt)"
for m in block pi.txt; do
    "$simcoll" run --platform gige.xml --mapping $m "$otf2" --format csv > $m.csv 2>/dev/null ||
        fail "run --mapping $m: exit $?"
done
# inter_node_bytes (column 20): the partition's cut is below block placement's
b=$(awk -F, 'NR == 2 { print $20 }' block.csv) m=$(awk -F, 'NR == 2 { print $20 }' pi.txt.csv)
[ "$m" -lt "$b" ] || fail "the partition sends $m bytes between nodes, block placement $b"
cat > study.ini <<EOF
trace = $otf2
platform = gige.xml, ib4x.xml
mapping = block, pi.txt
algos = allreduce=allreduce-rd, allreduce=allreduce-ring
EOF
"$simcoll" sweep study.ini -o study.csv 2>/dev/null || fail "sweep of a trace: exit $?"
[ "$(grep -c ',ok,' study.csv)" = 8 ] || fail "sweep of a trace: not 8 points ok: $(cat study.csv)"
head -1 study.csv | grep -q "^key,status,trace,template,mapping,algos,format,ranks,.*,events,platform_nodes," ||
    fail "sweep of a trace: header $(head -1 study.csv)"
echo "trace_run.sh: ok"
