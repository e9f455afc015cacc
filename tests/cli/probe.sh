#!/bin/sh
# simcoll-probe with a real MPI library on this machine, then simcoll
# calibrate on what it wrote: 2 ranks over shared memory (the intra level)
# and 2 ranks over TCP loopback, counted as two nodes (the inter level).
# Functional: the file is complete and calibrate fits it; the timings of a
# shared 2-core machine are not judged. Open MPI's mpirun (as CI, maybe
# root: OMPI_ALLOW_RUN_AS_ROOT).
# usage: probe.sh SIMCOLL_PROBE SIMCOLL SOURCE_DIR
# SPDX-License-Identifier: GPL-2.0-or-later
probe=$1 simcoll=$2 src=$3
. "$(dirname "$0")/lib.sh"
count_failures
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# Few repetitions: a test, not a measurement (sizes to 1 MiB, so that the
# time grows with the size whatever the noise of a loaded machine).
quick="--reps 10 --warmup 2 --max-size 1048576"
mpirun -np 2 --oversubscribe "$probe" $quick -o "$work/shm.txt" >"$work/out" 2>&1 ||
    fail "simcoll-probe over shared memory: $(cat "$work/out")"
mpirun -np 2 --oversubscribe --mca btl tcp,self "$probe" $quick --each-rank-a-node \
    -o "$work/tcp.txt" >"$work/out" 2>&1 ||
    fail "simcoll-probe over TCP: $(cat "$work/out")"
# Each file: the cluster's description, then every kind of row for its
# placement: 21 sizes (1 B to 1 MiB) of each ping-pong and overhead.
for f in shm:intra tcp:inter; do
    file=$work/${f%:*}.txt placement=${f#*:}
    head -n 1 "$file" | grep -q '^# simcoll-probe 1' || fail "$file: no version line"
    for line in '^# mpi: ' '^# command: ' '^# rank 1: host ' "^# pair $placement: ranks 0 and 1"; do
        grep -q "$line" "$file" || fail "$file lacks '$line'"
    done
    for kind in latency send-overhead recv-overhead; do
        n=$(grep -c "^$kind  *$placement  *1 " "$file")
        [ "$n" -ge 21 ] || fail "$file: $n $kind rows of $placement, expected 21 or more"
    done
    grep -q "^bandwidth  *$placement  *1  *1048576 " "$file" ||
        fail "$file: no bandwidth of one pair at 1 MiB"
done
# Each host's cores, and the protocol switches: Open MPI's shared memory
# sends up to 4 KiB eagerly, and past that MPI_Recv fetches the data, its
# time jumping (a copy by the kernel), which the probe names as the eager
# limit and calibrate then takes without --eager-limit.
grep -q '^# host [^:]*: [0-9]* cores, [0-9]* socket' "$work/shm.txt" ||
    fail "shm.txt: no '# host' line"
grep -q '^# switch intra [0-9]* eager-limit: the receive overhead grows' "$work/shm.txt" ||
    fail "shm.txt: no eager limit found: $(grep '^# switch' "$work/shm.txt")"
"$simcoll" calibrate --probe "$work/shm.txt" --level intra --like "$src/platforms/gige.xml" \
    -o "$work/shm.xml" >/dev/null 2>"$work/err" || fail "calibrate, intra: $(cat "$work/err")"
grep -q "note: --probe .*: --eager-limit [0-9]*.*where simcoll-probe found" "$work/err" ||
    fail "calibrate did not take the probe's eager limit: $(cat "$work/err")"
# More ranks than cores: every time measured holds another rank's turns,
# which the probe and calibrate say, with how to pin.
ranks=$(($(nproc) + 1))
mpirun -np $ranks --oversubscribe "$probe" $quick -o "$work/over.txt" >"$work/out" 2>&1 ||
    fail "simcoll-probe on $ranks ranks: $(cat "$work/out")"
grep -q "^# warning: .*$ranks ranks on .*--bind-to core" "$work/over.txt" ||
    fail "no warning of $ranks ranks on $(nproc) cores in the file"
grep -q "simcoll-probe: warning: .*$ranks ranks on" "$work/out" ||
    fail "no warning of $ranks ranks on $(nproc) cores: $(cat "$work/out")"
"$simcoll" calibrate --probe "$work/over.txt" --level intra --like "$src/platforms/gige.xml" \
    >/dev/null 2>"$work/err"
grep -q "warning: --probe .*$ranks ranks on .*--bind-to core" "$work/err" ||
    fail "calibrate did not warn of shared cores: $(cat "$work/err")"
# calibrate reads what the probe wrote: the residuals of a shipped platform
# on each file's level (a fit of such noisy numbers may fail honestly).
"$simcoll" calibrate --report --platform "$src/platforms/gige.xml" --probe "$work/shm.txt" \
    --level intra >"$work/report" 2>"$work/err" || fail "calibrate --report, intra: $(cat "$work/err")"
grep -q "shm.txt .*latency" "$work/report" || fail "no latency residuals, intra: $(cat "$work/report")"
"$simcoll" calibrate --report --platform "$src/platforms/gige.xml" --probe "$work/tcp.txt" \
    >"$work/report" 2>"$work/err" || fail "calibrate --report, inter: $(cat "$work/err")"
grep -q "tcp.txt .*latency" "$work/report" || fail "no latency residuals, inter: $(cat "$work/report")"
# Fits from the probe's files of this machine kept in tests/measurements/,
# each level from its placement's rows, at the switch the probe found; the
# platform runs.
m=$src/tests/measurements
switch=$(sed -n 's/^# inter: the one-way time grows most between \([0-9]*\) and .*/\1/p' \
    "$m/probe-tcp.txt")
"$simcoll" calibrate --probe "$m/probe-shm.txt" --level intra --like "$src/platforms/gige.xml" \
    -o "$work/intra.xml" >"$work/fit-intra.txt" 2>"$work/err" ||
    fail "calibrate --level intra: $(cat "$work/err")"
"$simcoll" calibrate --probe "$m/probe-tcp.txt" --eager-limit "$switch" --like "$work/intra.xml" \
    -o "$work/both.xml" >"$work/fit-inter.txt" 2>"$work/err" ||
    fail "calibrate --level inter: $(cat "$work/err")"
grep -q 'simcoll/intra/flow-factor' "$work/both.xml" || fail "no intra flow factor fitted"
"$simcoll" --platform "$work/both.xml" --algo bruck --np 16 >/dev/null 2>"$work/err" ||
    fail "the fitted platform does not run: $(cat "$work/err")"
# A level whose placement the file lacks is refused, naming it.
"$simcoll" calibrate --probe "$work/shm.txt" --like "$src/platforms/gige.xml" \
    -o "$work/none.xml" >/dev/null 2>"$work/err"
[ $? -eq 2 ] && grep -q 'no series between ranks of placement inter.*--level intra.*--each-rank-a-node' "$work/err" ||
    fail "--level inter on a shared-memory probe: $(cat "$work/err")"
[ -e "$work/none.xml" ] && fail "a refused fit wrote its platform"
# Collectives, as the library chooses and with Open MPI's basic linear
# broadcast forced (coll_tuned_bcast_algorithm 1, which needs dynamic
# rules): the environment is recorded, and simcoll validate predicts both
# files and ranks the two algorithms at each size. The sizes are ones where
# the library's own choice on two ranks is not the linear broadcast (at 1
# KiB it is: one algorithm run twice ranks nothing).
mpirun -np 2 --oversubscribe "$probe" --collectives bcast,allreduce --sizes 4,512 \
    --skip-point-to-point --reps 10 -o "$work/coll.txt" >"$work/out" 2>&1 ||
    fail "simcoll-probe --collectives: $(cat "$work/out")"
OMPI_MCA_coll_tuned_use_dynamic_rules=1 OMPI_MCA_coll_tuned_bcast_algorithm=1 \
    mpirun -np 2 --oversubscribe "$probe" --collectives bcast --sizes 4,512 \
    --skip-point-to-point --reps 10 -o "$work/linear.txt" >"$work/out" 2>&1 ||
    fail "simcoll-probe --collectives, forced: $(cat "$work/out")"
grep -q '^# environment: OMPI_MCA_coll_tuned_bcast_algorithm=1$' "$work/linear.txt" ||
    fail "the forced algorithm is not recorded"
[ "$(grep -c '^collective ' "$work/coll.txt")" -eq 4 ] || fail "coll.txt: not 4 collective rows"
grep -q '^latency' "$work/coll.txt" && fail "--skip-point-to-point measured point to point"
"$simcoll" validate --platform "$work/both.xml" --mpi openmpi-4.1 "$work/coll.txt" \
    "$work/linear.txt@bcast-ompi-linear" >"$work/valid" 2>"$work/err" ||
    fail "validate: $(cat "$work/err")"
grep -q 'rankings: at 2 points measured with several algorithms' "$work/valid" ||
    fail "validate ranks no algorithms: $(cat "$work/valid")"
# --call-costs (issue 45): its rows beside the point-to-point ones, which
# calibrate still fits (skipping them); a file of nothing else is refused,
# saying so.
mpirun -np 2 --oversubscribe "$probe" --call-costs --sizes 4,64 --reps 10 --warmup 2 \
    --max-size 65536 -o "$work/costs.txt" >"$work/out" 2>&1 ||
    fail "simcoll-probe --call-costs: $(cat "$work/out")"
for line in '^call-bcast  *self  *1  *4 ' '^call-bcast-min  *intra  *1  *64 ' \
    '^call-pingpong  *intra  *1  *0 ' '^pingpong-barrier  *intra  *1  *4 ' \
    '^pingpong-requests  *intra  *1  *4 ' '^fan-in  *intra  *1  *64 ' \
    '^relay-min  *intra  *1  *64 ' '^barrier-skew  *intra  *1  *0 ' \
    '^barrier-skew-bcast  *intra  *1  *4 '; do
    grep -q "$line" "$work/costs.txt" || fail "costs.txt lacks '$line'"
done
"$simcoll" calibrate --probe "$work/costs.txt" --level intra --like "$src/platforms/gige.xml" \
    -o "$work/costs.xml" >/dev/null 2>"$work/err" || fail "calibrate, call costs: $(cat "$work/err")"
mpirun -np 2 --oversubscribe "$probe" --call-costs --skip-point-to-point --sizes 4 --reps 10 \
    -o "$work/only.txt" >"$work/out" 2>&1 || fail "simcoll-probe --call-costs only: $(cat "$work/out")"
"$simcoll" calibrate --probe "$work/only.txt" --level intra --like "$src/platforms/gige.xml" \
    >/dev/null 2>"$work/err"
[ $? -eq 2 ] && grep -q 'only the [0-9]* rows of simcoll-probe --call-costs' "$work/err" ||
    fail "calibrate on call costs alone: $(cat "$work/err")"
# Bad options: exit 2 and the value named.
mpirun -np 2 --oversubscribe "$probe" --reps many >"$work/out" 2>&1
grep -q "reps: 'many' is not an integer" "$work/out" || fail "--reps many: $(cat "$work/out")"
mpirun -np 2 --oversubscribe "$probe" --collectives gather >"$work/out" 2>&1
grep -q "unknown collective 'gather'" "$work/out" || fail "--collectives gather: $(cat "$work/out")"
passed "probe: all checks passed"
