#!/bin/sh
# A real MPI application traced on this machine and replayed on a platform
# of the same machine (issue 44, parts 2 and 3): experiments/traces/miniapp/
# README.md says what and why. For each configuration (MPI library,
# transport, ranks) and problem size: a platform calibrated from
# simcoll-probe's point-to-point measurements only, then RUNS times the
# application untraced, the same traced, and simcoll run of its trace; the
# error is the replay's time against the trace's own span. Also the
# tracer's cost per call (tracer-overhead with and without it).
# Writes results/runs.csv, results/summary.txt, results/overhead.txt and
# the probes' files and platforms under results/platforms/.
# usage: run.sh [BUILD_DIR] [RUNS]   (default build/ and 5 runs; ~4 minutes)
# MPICH is run where mpicc.mpich and mpirun.mpich are (apt-get install
# mpich libmpich-dev), its tracer, probe and application built here.
# SPDX-License-Identifier: GPL-2.0-or-later
set -u
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../../.." && pwd)
build=$(cd "${1:-$src/build}" && pwd)
runs=${2:-5}
simcoll=$build/simcoll
results=$here/results
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$results/platforms"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
die() {
    echo "run.sh: $*" >&2
    exit 1
}
for f in simcoll simcoll-probe libsimcoll-trace.so jacobi2d tracer-overhead; do
    [ -e "$build/$f" ] || die "$build/$f missing: build with MPI and libotf2 found"
done
command -v otf2-print >/dev/null || die "no otf2-print (apt-get install otf2-tools)"

# The problem sizes: jacobi2d's arguments. "compute": each iteration's
# stencil on 256x256 points a rank dominates; "messages": small blocks,
# many iterations, most of the time in MPI.
sizes="compute:-n=512:-i=200:-m=20000:-c=100 messages:-n=64:-i=2000:-m=500:-c=1000"

# ---- MPICH's builds, where it is installed ----
mpich=
if command -v mpicc.mpich >/dev/null && command -v mpirun.mpich >/dev/null; then
    mkdir -p "$work/mpich"
    # (gcc's -Wstringop-overflow takes MPICH's MPI_STATUSES_IGNORE for a
    # zero-length array: quieted)
    flags="-O2 -Wno-stringop-overflow"
    # shellcheck disable=SC2046 # pkg-config's flags are a list
    mpicc.mpich $flags -fPIC -shared -D_GNU_SOURCE -o "$work/mpich/libsimcoll-trace.so" \
        "$src/sim/tracer/tracer.c" "$src/sim/tracer/spool_write.c" "$src/sim/tracer/convert.c" \
        "$src/sim/tracer/spool_read.c" "$src/sim/tracer/cut.c" "$src/sim/tracer/otf2_write.c" \
        "$src/sim/trace/otf2_error.c" $(pkg-config --cflags --libs otf2) -lm &&
        mpicc.mpich $flags -o "$work/mpich/jacobi2d" "$src/experiments/traces/miniapp/jacobi2d.c" -lm &&
        mpicc.mpich $flags -o "$work/mpich/simcoll-probe" "$src/sim/probe/simcoll_probe.c" \
            "$src/sim/probe/collectives.c" "$src/sim/probe/call_costs.c" \
            "$src/sim/probe/switches.c" -lm &&
        mpich=$work/mpich || echo "run.sh: MPICH's builds failed: MPICH not run" >&2
else
    echo "run.sh: no mpicc.mpich and mpirun.mpich: MPICH not run" >&2
fi

# mpi LIBRARY NP TRANSPORT TRACE_DIR PROGRAM ARGS...: run under the
# library's mpirun (TRANSPORT tcp: Open MPI's TCP BTL; TRACE_DIR "": not
# traced). Open MPI binds each rank to a core where they fit; MPICH is
# told to.
mpi() {
    lib=$1 np=$2 transport=$3 dir=$4
    shift 4
    if [ "$lib" = openmpi ]; then
        btl=
        [ "$transport" = tcp ] && btl="--mca btl tcp,self"
        if [ -n "$dir" ]; then
            # shellcheck disable=SC2086 # btl is a list
            SIMCOLL_TRACE_DIR=$dir mpirun -np "$np" --oversubscribe $btl -x SIMCOLL_TRACE_DIR \
                -x LD_PRELOAD="$build/libsimcoll-trace.so" "$@"
        else
            # shellcheck disable=SC2086
            mpirun -np "$np" --oversubscribe $btl "$@"
        fi
    else
        if [ -n "$dir" ]; then
            mpirun.mpich -bind-to core -np "$np" -genv SIMCOLL_TRACE_DIR "$dir" \
                -genv LD_PRELOAD "$mpich/libsimcoll-trace.so" "$@"
        else
            mpirun.mpich -bind-to core -np "$np" "$@"
        fi
    fi
}

# ---- Platforms: point-to-point measurements of this machine only ----
gige=$src/platforms/gige.xml
probe_args="--reps 50 --max-size 1048576"
platform() { # platform NAME: results/platforms/NAME.xml from a probe of its own
    name=$1
    out=$results/platforms
    case $name in
    openmpi-shm)
        mpirun -np 2 "$build/simcoll-probe" $probe_args -o "$out/$name.txt" >/dev/null 2>&1 &&
            "$simcoll" calibrate --probe "$out/$name.txt" --level intra --like "$gige" \
                -o "$out/$name.xml" >"$out/$name-fit.txt" 2>&1 ;;
    openmpi-shm4) # the same parameters, a node of 4 cores for 4 ranks
        "$simcoll" platform --like "$out/openmpi-shm.xml" --nodes 1 --cores 4 \
            -o "$out/$name.xml" >/dev/null 2>&1 ;;
    openmpi-tcp) # each rank a node over TCP loopback: the network level
        mpirun -np 2 --mca btl tcp,self "$build/simcoll-probe" $probe_args --each-rank-a-node \
            -o "$out/$name.txt" >/dev/null 2>&1 &&
            "$simcoll" calibrate --probe "$out/$name.txt" --like "$out/openmpi-shm.xml" \
                -o "$out/$name.xml" >"$out/$name-fit.txt" 2>&1 ;;
    mpich-shm)
        mpirun.mpich -bind-to core -np 2 "$mpich/simcoll-probe" $probe_args \
            -o "$out/$name.txt" >/dev/null 2>&1 &&
            "$simcoll" calibrate --probe "$out/$name.txt" --level intra --like "$gige" \
                -o "$out/$name.xml" >"$out/$name-fit.txt" 2>&1 ;;
    esac || die "the platform $name: $(cat "$out/$name-fit.txt" 2>/dev/null)"
}

# configuration: name, library, ranks, transport, platform, mapping,
# simcoll's profile of the library
configs="openmpi-shm:openmpi:2:shm:openmpi-shm:block:openmpi-4.1
openmpi-shm-4:openmpi:4:shm:openmpi-shm4:block:openmpi-4.1
openmpi-tcp:openmpi:2:tcp:openmpi-tcp:cyclic:openmpi-4.1"
[ -n "$mpich" ] && configs="$configs
mpich-shm:mpich:2:shm:mpich-shm:block:mpich-3.2"
for p in openmpi-shm openmpi-shm4 openmpi-tcp; do platform $p; done
[ -n "$mpich" ] && platform mpich-shm

# ---- The runs ----
csv=$results/runs.csv
echo "config,library,ranks,size,run,untraced_s,traced_s,recorded_s,predicted_s,error,computing_s,recorded_mpi_s,replay_mpi_s,stalls,stall_s" >"$csv"
said() { sed -n "s/.* $1 \\([^ ]*\\).*/\\1/p" "$2"; }
field() { sed -n "s/.*\"$1\": \\([^,}]*\\).*/\\1/p" "$2" | head -n 1; }
cd "$work" || exit 1
for config in $configs; do
    IFS=: read -r name lib np transport plat mapping profile <<EOF
$config
EOF
    app=$build/jacobi2d
    [ "$lib" = mpich ] && app=$mpich/jacobi2d
    for size in $sizes; do
        label=${size%%:*}
        args=$(echo "${size#*:}" | tr ':=' '  ')
        r=1
        while [ "$r" -le "$runs" ]; do
            rm -rf trace trace.*
            # shellcheck disable=SC2086 # args is a list
            mpi "$lib" "$np" "$transport" "" "$app" $args >plain.out 2>plain.err ||
                die "$name $label untraced: $(cat plain.err)"
            # shellcheck disable=SC2086
            mpi "$lib" "$np" "$transport" trace "$app" $args >traced.out 2>traced.err ||
                die "$name $label traced: $(cat traced.err)"
            "$simcoll" run --platform "$results/platforms/$plat.xml" --mapping "$mapping" \
                --mpi "$profile" trace/traces.otf2 --format json >replay.json 2>replay.err ||
                die "$name $label: simcoll run: $(cat replay.err)"
            # the calls that took more than 1 ms (a rank or its peer off its
            # core: the scheduler's time slices), all ranks' but MPI_Init's
            # and MPI_Finalize's, and their time a rank, as otf2-print reads
            # the trace
            stalls=$(otf2-print trace/traces.otf2 2>/dev/null | awk -v np="$np" '
                /"MPI_(Init|Init_thread|Finalize)"/ { next }
                $1 == "ENTER" { t[$2] = $3 }
                $1 == "LEAVE" && $3 - t[$2] > 1e6 { n++; s += $3 - t[$2] }
                END { printf "%d %.6f", n, s / 1e9 / np }')
            # a rank's computing (the trace's, replayed as it was), and its
            # time in MPI recorded and replayed: the rest of each span
            awk -v c="$name" -v stalls="$stalls" -v l="$lib" -v np="$np" -v s="$label" -v r="$r" \
                -v u="$(said time_s plain.out)" -v t="$(said time_s traced.out)" \
                -v rec="$(field recorded_time_s replay.json)" -v p="$(field sim_time_s replay.json)" \
                -v comp="$(field compute_s replay.json)" \
                'BEGIN { k = comp / np; split(stalls, st, " ")
                         printf "%s,%s,%d,%s,%d,%.6f,%.6f,%.6f,%.6f,%.4f,%.6f,%.6f,%.6f,%d,%.6f\n",
                         c, l, np, s, r, u, t, rec, p, (p - rec) / rec, k, rec - k, p - k,
                         st[1], st[2] }' >>"$csv"
            r=$((r + 1))
        done
        echo "run.sh: $name, $label: $runs runs" >&2
    done
done

# ---- Summary: the error of each configuration, as the collectives' ----
awk -F, -v load="$(cut -d' ' -f1-3 /proc/loadavg)" -v cores="$(nproc)" '
    function median(a, n,    i, j, t) {
        for (i = 2; i <= n; i++) for (j = i; j > 1 && a[j - 1] > a[j]; j--) {
            t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
        return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
    }
    NR == 1 { next }
    {
        k = $1 " " $4; if (!(k in n)) order[++keys] = k
        i = ++n[k]; rec[k, i] = $8; pred[k, i] = $9; err[k, i] = $10
        ae[k, i] = $10 < 0 ? -$10 : $10; slow[k, i] = $7 / $6
        comp[k, i] = $11; rmpi[k, i] = $12; pmpi[k, i] = $13; nst[k, i] = $14; sst[k, i] = $15
        if (!(k in big) || ae[k, i] > (big[k] < 0 ? -big[k] : big[k])) big[k] = $10
    }
    END {
        printf "# jacobi2d on this machine (%d cores, load average %s when run): the replay on a platform\n", cores, load
        printf "# calibrated from simcoll-probe alone, against the trace'"'"'s own span; medians over runs\n"
        printf "%-14s %-9s %4s %10s %11s %14s %14s %11s %14s %13s %12s %6s %8s\n", "config", "size", "runs",
            "recorded_s", "predicted_s", "median|error|", "largest_error", "computing_s",
            "recorded_mpi_s", "replay_mpi_s", "traced/plain", "stalls", "stall_s"
        for (o = 1; o <= keys; o++) {
            k = order[o]; m = n[k]; split(k, w, " ")
            for (i = 1; i <= m; i++) { a1[i] = rec[k, i]; a2[i] = pred[k, i]; a3[i] = ae[k, i]
                a4[i] = slow[k, i]; a5[i] = comp[k, i]; a6[i] = rmpi[k, i]; a7[i] = pmpi[k, i]
                a8[i] = nst[k, i]; a9[i] = sst[k, i] }
            printf "%-14s %-9s %4d %10.4f %11.4f %13.1f%% %+13.1f%% %11.4f %14.4f %13.4f %12.2f %6d %8.4f\n",
                w[1], w[2], m, median(a1, m), median(a2, m), 100 * median(a3, m), 100 * big[k],
                median(a5, m), median(a6, m), median(a7, m), median(a4, m), median(a8, m),
                median(a9, m)
            all[++total] = median(a3, m)
        }
        printf "all %d configurations and sizes: median of their median |error| %.1f%%\n", total,
            100 * median(all, total)
    }' "$csv" >"$results/summary.txt"
cat "$results/summary.txt"

# ---- The tracer's own cost per call ----
ov=$results/overhead.txt
for r in 1 2 3 4 5; do
    mpirun -np 1 "$build/tracer-overhead" >>"$work/plain-ov.txt" 2>/dev/null
    rm -rf ovt ovt.*
    SIMCOLL_TRACE_DIR=ovt mpirun -np 1 -x SIMCOLL_TRACE_DIR -x LD_PRELOAD="$build/libsimcoll-trace.so" \
        "$build/tracer-overhead" >>"$work/traced-ov.txt" 2>/dev/null
done
awk '
    function median(a, n,    i, j, t) {
        for (i = 2; i <= n; i++) for (j = i; j > 1 && a[j - 1] > a[j]; j--) {
            t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
        return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
    }
    FNR == 1 { f++ }
    {
        for (i = 1; i <= NF; i++) if ($i ~ /^(barrier|allreduce|isend-irecv-waitall|test)$/) {
            k = $i; v = $(i + 1); if (f == 1) p[k, ++np[k]] = v; else t[k, ++nt[k]] = v }
        if (f == 1) { w = $NF; sub(/\)/, "", w); wt[++nw] = w }
    }
    END {
        print "# ns a call, medians of 5 runs of tracer-overhead (200000 calls of each kind, one rank,"
        print "# MPI_COMM_SELF): without the tracer, with it, and the difference, its cost"
        printf "%-22s %10s %10s %10s\n", "call", "plain", "traced", "tracer"
        split("barrier allreduce isend-irecv-waitall test", ks, " ")
        for (j = 1; j <= 4; j++) { k = ks[j]
            for (i = 1; i <= np[k]; i++) a[i] = p[k, i]; x = median(a, np[k])
            for (i = 1; i <= nt[k]; i++) b[i] = t[k, i]; y = median(b, nt[k])
            printf "%-22s %10.1f %10.1f %10.1f\n", k, x, y, y - x }
        printf "MPI_Wtime alone: %.1f ns (the tracer reads it twice a call)\n", median(wt, nw)
    }' "$work/plain-ov.txt" "$work/traced-ov.txt" >"$ov"
cat "$ov"
