#!/bin/sh
# What a small collective pays beside its messages (issue 45): simcoll-probe
# --call-costs on 2 ranks of this machine (cores 0 and 1), with Open MPI and
# with MPICH (Debian's openmpi-bin/libopenmpi-dev and mpich/libmpich-dev),
# RUNS runs each, `uptime` before every run; then summary.md, the table of
# the README, from the files. Each library builds the probe with its own
# compiler wrapper, both at -O2.
# Then one whole probe a library (point to point too, LIB-full.txt), unless
# FULL=0 keeps the ones already in results/ (models/calibrate.c's sender
# share cites them).
# usage: experiments/small-messages/run.sh [RUNS]   (default 5; REPS, WARMUP, FULL)
# SPDX-License-Identifier: GPL-2.0-or-later
set -eu
here=$(cd "$(dirname "$0")" && pwd)
src=$here/../..
runs=${1:-5} reps=${REPS:-2000} warmup=${WARMUP:-200}
out=$here/results
bin=$(mktemp -d)
trap 'rm -rf "$bin"' EXIT
mkdir -p "$out"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
for lib in openmpi mpich; do
    mpicc.$lib -O2 -std=c11 -o "$bin/probe-$lib" "$src/sim/probe/simcoll_probe.c" \
        "$src/sim/probe/collectives.c" "$src/sim/probe/call_costs.c" \
        "$src/sim/probe/switches.c" -lm 2>"$bin/cc-$lib.log" ||
        { cat "$bin/cc-$lib.log"; exit 1; }
done
# The call costs, and OSU's timing of the same collectives on the 2 ranks
# (--collectives: each rank's mean time in the call after a barrier).
args="--call-costs --skip-point-to-point --collectives barrier,bcast,allreduce --np 2
      --sizes 4,64,1024,4096 --reps $reps --warmup $warmup"
# The machine is shared: before each run, wait up to 20 s for the 1-minute
# load average to fall below QUIET (default 1.0); the load is recorded
# whatever it is.
quiet() {
    n=0
    while [ $n -lt 4 ] && awk -v q="${QUIET:-1.0}" '{ exit !($1 >= q) }' /proc/loadavg; do
        sleep 5
        n=$((n + 1))
    done
}
full=${FULL:-1}
# The load before the whole probes kept, if they are.
kept=$(if [ "$full" = 0 ]; then grep ' full: ' "$out/uptime.txt" || :; fi)
: >"$out/uptime.txt"
for i in $(seq 1 "$runs"); do
    for lib in openmpi mpich; do
        quiet
        echo "$lib run $i: $(uptime)" >>"$out/uptime.txt"
        if [ $lib = openmpi ]; then
            mpirun.openmpi -np 2 --bind-to core --map-by core "$bin/probe-$lib" $args \
                -o "$out/$lib-$i.txt"
        else
            mpirun.mpich -np 2 -bind-to core "$bin/probe-$lib" $args -o "$out/$lib-$i.txt"
        fi
    done
done
# One whole probe a library (point to point at the default 100 repetitions,
# then the call costs): calibrate --probe fits such a file, skipping the
# call-cost rows.
[ "$full" = 0 ] && [ -n "$kept" ] && echo "$kept" >>"$out/uptime.txt"
for lib in openmpi mpich; do
    [ "$full" = 0 ] && continue
    quiet
    echo "$lib full: $(uptime)" >>"$out/uptime.txt"
    if [ $lib = openmpi ]; then
        mpirun.openmpi -np 2 --bind-to core --map-by core "$bin/probe-$lib" --call-costs \
            -o "$out/$lib-full.txt"
    else
        mpirun.mpich -np 2 -bind-to core "$bin/probe-$lib" --call-costs -o "$out/$lib-full.txt"
    fi
done
"$here/summarize.sh" "$out" >"$here/summary.md"
cat "$here/summary.md"
