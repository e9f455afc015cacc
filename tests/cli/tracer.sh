#!/bin/sh
# libsimcoll-trace.so end to end with a real MPI library on this machine
# (issue 44): experiments/traces/miniapp's jacobi2d run with and without
# the tracer, a platform of this machine from simcoll-probe and simcoll
# calibrate, the trace replayed on it: every rank's events read, the
# trace's messages and collectives those the application counted, its
# recorded time the application's own, and the prediction against the
# measurement reported (not judged: a shared 2-core machine). Then every
# call the tracer records (tests/mpi/tracer_calls.c, 4 ranks), a C++
# application, runs killed part way (a rank's crash, mpirun's SIGTERM) and
# what simcoll-trace-recover refuses. Open MPI's mpirun, oversubscribed,
# as root where CI is (OMPI_ALLOW_RUN_AS_ROOT); exit 77 where it cannot
# run. Its last line is what .ci/run looks for.
# usage: tracer.sh BUILD_DIR SIMCOLL SOURCE_DIR
# SPDX-License-Identifier: GPL-2.0-or-later
build=$1 simcoll=$2 src=$3
lib=$build/libsimcoll-trace.so recover=$build/simcoll-trace-recover app=$build/jacobi2d
. "$(dirname "$0")/lib.sh"
cd "$work" || exit 1
count_failures
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
run() { # run NP DIR PROGRAM ARGS...: traced into DIR (none: not traced)
    np=$1 dir=$2
    shift 2
    if [ -n "$dir" ]; then
        SIMCOLL_TRACE_DIR=$dir mpirun -np "$np" --oversubscribe -x SIMCOLL_TRACE_DIR \
            -x LD_PRELOAD="$lib" "$@"
    else
        mpirun -np "$np" --oversubscribe "$@"
    fi
}
# A field of simcoll run's JSON: "name": value.
field() { sed -n "s/.*\"$1\": \\([^,}]*\\).*/\\1/p" "$2" | head -n 1; }
# A collective's calls in simcoll run's JSON.
calls() { sed -n "s/.*\"$1\": {\"calls\": \\([0-9]*\\), \"rank_calls\": \\([0-9]*\\).*/\\$2/p" "$3"; }
# A value after its name on the application's line.
said() { sed -n "s/.* $1 \\([^ ]*\\).*/\\1/p" "$2"; }

if ! run 1 "" "$app" -n 8 -i 1 -m 10 -c 1 >out 2>&1; then
    echo "tracer.sh: mpirun cannot run an MPI program here: $(cat out)"
    exit 77
fi

# ---- The mini-application, measured, traced, replayed on this machine ----
run 2 "" "$app" >plain.out 2>plain.err || fail "jacobi2d untraced: $(cat plain.err)"
run 2 app "$app" >app.out 2>app.err || fail "jacobi2d traced: $(cat app.err)"
grep -q '^simcoll-trace: app/traces.otf2: 2 ranks, ' app.err ||
    fail "the tracer did not say it wrote app/traces.otf2: $(cat app.err)"
[ -e app/spool ] && fail "the spools are left after MPI_Finalize"
head -c 8 app/traces.otf2 | grep -q OTF2 || fail "app/traces.otf2 is no OTF2 anchor"
if command -v otf2-print >/dev/null; then
    # libotf2's own reader takes the archive, and every call has its end
    otf2-print app/traces.otf2 >print.txt 2>print.err || fail "otf2-print: $(cat print.err)"
    enters=$(grep -c '^ENTER ' print.txt) leaves=$(grep -c '^LEAVE ' print.txt)
    [ "$enters" -gt 0 ] && [ "$enters" = "$leaves" ] ||
        fail "otf2-print: $enters ENTER and $leaves LEAVE records"
fi
# a platform of this machine, from point-to-point measurements only
mpirun -np 2 --oversubscribe "$build/simcoll-probe" --reps 10 --warmup 2 --max-size 1048576 \
    -o shm.txt >probe.out 2>&1 || fail "simcoll-probe: $(cat probe.out)"
"$simcoll" calibrate --probe shm.txt --level intra --like "$src/platforms/gige.xml" \
    -o here.xml >fit.txt 2>fit.err || fail "calibrate: $(cat fit.err)"
cores=$(sed -n 's/.*<host id="node-0" .*core="\([0-9]*\)".*/\1/p' here.xml)
if [ "${cores:-0}" -lt 2 ]; then # one core: the same parameters on a node of two
    "$simcoll" platform --like here.xml --nodes 1 --cores 2 -o here.xml >/dev/null 2>fit.err ||
        fail "platform --cores 2: $(cat fit.err)"
fi
"$simcoll" run --platform here.xml --mpi openmpi-4.1 app/traces.otf2 --format json \
    >replay.json 2>replay.err || fail "simcoll run: $(cat replay.err)"
[ "$(field ranks replay.json)" = 2 ] || fail "the replay has not 2 ranks: $(cat replay.json)"
[ "$(grep -c '{"rank": [0-9]*, .*"end_s": [0-9.]*e[-+][0-9]*, "mpi_s": [0-9.]*e[-+]' replay.json)" = 2 ] ||
    fail "not every rank's events were replayed: $(grep '"rank"' replay.json)"
grep -q '"end_s": 0.000000000e+00' replay.json && fail "a rank replayed nothing"
[ "$(field p2p_messages replay.json)" = "$(said messages app.out)" ] ||
    fail "messages: the replay has $(field p2p_messages replay.json), jacobi2d sent $(said messages app.out)"
for c in allreduce reduce bcast gather barrier; do
    [ "$(calls $c 1 replay.json)" = "$(said $c app.out)" ] ||
        fail "$c: the replay has $(calls $c 1 replay.json) calls, jacobi2d made $(said $c app.out)"
done
grep -q '"skipped": \[\]' replay.json || fail "calls skipped: $(grep skipped replay.json)"
measured=$(said time_s plain.out) traced=$(said time_s app.out)
recorded=$(field recorded_time_s replay.json) predicted=$(field sim_time_s replay.json)
# the trace's times are the application's: jacobi2d measures rank 0's
# span (MPI_Init's return to its last barrier), which lies inside the
# trace's (the first rank's leaving MPI_Init to the last rank's leaving that
# barrier; one host's clocks put together exactly), to a little rounding.
# The trace's is longer by how far apart the ranks left those two calls:
# microseconds, or a scheduler slice (milliseconds) at each end where the
# two ranks and the other tests outnumber this machine's cores.
spans_agree() { # spans_agree RECORDED TRACED PREDICTED
    awk -v r="$1" -v t="$2" -v p="$3" 'BEGIN {
        d = r - t; e = 0.01 * t + 0.001
        exit !(r > 0 && p > 0 && d >= -e && d <= e + 0.025) }'
}
spans_agree "$recorded" "$traced" "$predicted" ||
    fail "recorded time $recorded s against jacobi2d's own $traced s (or a time not positive)"
# rank 0 put aside 0.3 s as it leaves the barrier where the clocks are put
# together (tests/mpi/late_barrier.c): on one host, no matter
SIMCOLL_TRACE_DIR=late mpirun -np 2 --oversubscribe -x SIMCOLL_TRACE_DIR \
    -x LD_PRELOAD="$build/liblate-barrier.so:$lib" "$app" >late.out 2>late.err ||
    fail "jacobi2d with a late barrier: $(cat late.err)"
"$simcoll" run --platform here.xml late/traces.otf2 --format json >late.json 2>late.err ||
    fail "simcoll run of the late barrier's trace: $(cat late.err)"
late=$(field recorded_time_s late.json)
spans_agree "$late" "$(said time_s late.out)" "$(field sim_time_s late.json)" ||
    fail "a late barrier at MPI_Init: recorded time $late s against jacobi2d's own $(said time_s late.out) s"
report=$(awk -v m="$measured" -v t="$traced" -v r="$recorded" -v p="$predicted" 'BEGIN {
    printf "measured %.4f s untraced, %.4f s traced (its trace: %.4f s); predicted %.4f s (%+.1f%% of the traced run)",
        m, t, r, p, 100 * (p - r) / r }')

# ---- Every call the tracer records, on 4 ranks ----
run 4 calls "$build/tracer-calls" >calls.out 2>calls.err || fail "tracer-calls: $(cat calls.err)"
"$simcoll" run --platform "$src/platforms/gige.xml" calls/traces.otf2 --format json \
    >calls.json 2>calls.jerr || fail "simcoll run of tracer-calls: $(cat calls.jerr)"
[ "$(field p2p_messages calls.json)" = "$(said messages calls.out)" ] ||
    fail "tracer-calls' messages: $(field p2p_messages calls.json) replayed, $(said messages calls.out) sent"
for c in barrier bcast reduce allreduce gather gatherv scatter scatterv allgather allgatherv \
    alltoall alltoallv reduce_scatter scan exscan; do
    [ "$(calls $c 2 calls.json)" = "$(said $c calls.out)" ] ||
        fail "tracer-calls' $c: $(calls $c 2 calls.json) rank-calls replayed, $(said $c calls.out) made"
done
grep -q '"skipped": \[\]' calls.json || fail "tracer-calls: calls skipped: $(grep skipped calls.json)"

# ---- A C++ application ----
if [ -x "$build/tracer-ring" ]; then
    run 3 ring "$build/tracer-ring" >ring.out 2>ring.err || fail "tracer-ring: $(cat ring.err)"
    "$simcoll" run --platform "$src/platforms/gige.xml" ring/traces.otf2 --format json \
        >ring.json 2>&1 || fail "simcoll run of tracer-ring: $(cat ring.json)"
    [ "$(field p2p_messages ring.json)" = 30 ] && [ "$(calls allreduce 1 ring.json)" = 1 ] ||
        fail "tracer-ring: $(cat ring.json)"
    # the same folder again: the first trace is kept, the second goes beside
    run 3 ring "$build/tracer-ring" >ring.out 2>ring.err
    grep -q '^simcoll-trace: ring.1/traces.otf2: 3 ranks' ring.err ||
        fail "a second run into ring/: $(cat ring.err)"
else
    fail "no tracer-ring: the build found no C++ MPI"
fi

# ---- Runs killed part way ----
# a rank crashes (SIGKILL) 1.2 s in: mpirun ends the other with SIGTERM
run 2 crash "$app" -n 256 -i 100000000 --crash-after 1.2 >crash.out 2>&1 &&
    fail "jacobi2d --crash-after ended well"
"$simcoll" run --platform here.xml crash/traces.otf2 >crash.run 2>crash.err
[ $? -eq 2 ] && grep -q "trace 'crash/traces.otf2': no trace yet: the run writing it has not reached MPI_Finalize.*simcoll-trace-recover crash" crash.err ||
    fail "simcoll run of a killed run's trace: $(cat crash.err)"
[ -s crash.run ] && fail "simcoll run wrote to stdout for a trace it refused"
"$recover" crash >recover.out 2>recover.err || fail "simcoll-trace-recover: $(cat recover.err)"
grep -q '^simcoll-trace: rank 1: [0-9]* whole calls recorded (the run did not reach MPI_Finalize), [0-9]* kept' recover.err ||
    fail "recover says nothing of rank 1: $(cat recover.err)"
"$simcoll" run --platform here.xml crash/traces.otf2 --format json >crash.json 2>crash.err ||
    fail "simcoll run of the recovered trace: $(cat crash.err)"
[ "$(field ranks crash.json)" = 2 ] && [ "$(field events crash.json)" -gt 100 ] ||
    fail "the recovered trace: $(cat crash.json)"
# mpirun ended by SIGTERM (a batch system's time limit): every rank writes
# what it holds before it dies
SIMCOLL_TRACE_DIR=term timeout -s TERM 3 mpirun -np 2 --oversubscribe -x SIMCOLL_TRACE_DIR \
    -x LD_PRELOAD="$lib" "$app" -n 256 -i 100000000 >term.out 2>&1
"$recover" term >recover.out 2>recover.err || fail "simcoll-trace-recover term: $(cat recover.err)"
for r in 0 1; do
    n=$(sed -n "s/^simcoll-trace: rank $r: \\([0-9]*\\) whole calls.*/\\1/p" recover.err)
    [ "${n:-0}" -gt 100 ] || fail "rank $r wrote ${n:-no} calls before SIGTERM: $(cat recover.err)"
done
"$simcoll" run --platform here.xml term/traces.otf2 >/dev/null 2>term.err ||
    fail "simcoll run of the SIGTERM'd trace: $(cat term.err)"

# ---- What simcoll-trace-recover refuses: exit 2, the file named ----
refused() { # refused WHAT DIR PATTERN
    "$recover" "$2" >/dev/null 2>recover.err
    [ $? -eq 2 ] && grep -q "$3" recover.err || fail "recover, $1: $(cat recover.err)"
}
refused "a folder without spools" app "app holds no spool"
mkdir -p half/spool bad/spool
printf 'SCSPOOL2' >half/spool/rank-000001.spool
refused "a rank's spool missing" half "rank-000000.spool: .*the spool of rank 0 of 2 is missing"
printf 'garbage, not a spool' >bad/spool/rank-000000.spool
refused "a file that is not a spool" bad "rank-000000.spool is not a spool of simcoll-trace's"
# one rank's spool by hand (spool.h): its header and host, MPI_Init's
# call, then a call of an item no spool has
mkdir -p cut/spool
printf 'SCSPOOL2\020\000\001\002\000\001\001\000\000\000\000\000\000\000\000' \
    >cut/spool/rank-000000.spool
printf '\002\001h\004\000\003\000\000\000\003\000\356\000\000' >>cut/spool/rank-000000.spool
refused "a damaged spool" cut "cut/spool/rank-000000.spool, call 1: an unknown kind of item"
[ $failures -eq 0 ] || exit 1
echo "tracer.sh: jacobi2d on 2 ranks under $(mpirun --version 2>&1 | head -n 1): $report"
