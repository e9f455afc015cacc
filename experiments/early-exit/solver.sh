#!/bin/sh
# Regenerates results/solver.csv, results/solver.txt and results/solver-*.png:
# the solver loop of solver.prog (21 iterations of compute, 20% more on the
# last rank than on the first, a 2 KiB halo exchange on a 2-D grid and a sum
# of errors) ended four ways:
#   blocking       allreduce-rd, then the test (MPICH's choice for 8 bytes)
#   early          allreduce-if: a rank whose own error passes the tolerance
#                  tells everyone at once
#   predict        allreduce-rd, the next iteration's compute run meanwhile
#   early+predict  both
# on clusters like gige.xml and ib4x.xml, np 64 (the shipped 8 x 8 cores)
# for compute of 10us, 100us and 1ms per iteration, and np 1024 (128 x 8,
# made by simcoll platform) for 100us. save= and rollback= are 0: a
# triple-buffered Jacobi keeps the state it may have to return to, so the
# lost bet costs only its stopped computing (tests/unit/test_program_run.c
# shows each cost adds exactly). Size-only runs (the sums are checked by the
# tests with data). About 10 minutes on 2 cores, most of it np 1024.
# usage: experiments/early-exit/solver.sh [--replot] [path/to/simcoll]
# SPDX-License-Identifier: GPL-2.0-or-later
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)

# job CLUSTER PLATFORM NP COMPUTE MODE: one run, its CSV row prefixed with
# the cluster, the compute time and the mode, into $scratch/rows/.
job() {
    case $5 in
    blocking) ending="algo=allreduce-rd" ;;
    early) ending="algo=allreduce-if" ;;
    predict) ending="algo=allreduce-rd predict" ;;
    early+predict) ending="algo=allreduce-if predict" ;;
    esac
    case $4 in 10us) seconds=1e-05 ;; 100us) seconds=0.0001 ;; 1ms) seconds=0.001 ;; esac
    name=$1-$3-$4-$5
    sed -e "s/^until .*/until 1e-6 max=1000 error=1 rate=0.5 $ending/" \
        -e "s/compute 100us/compute $4/" "$here/solver.prog" > "$scratch/$name.prog"
    (cd "$scratch" && "$simcoll" run --platform "$2" --np "$3" --no-payload --format csv \
        "$name.prog" > "$name.csv")
    tail -n +2 "$scratch/$name.csv" | sed "s/^/$1,$seconds,$5,/" > "$scratch/rows/$name"
    head -n 1 "$scratch/$name.csv" > "$scratch/header"
}

# One job per process, two at a time: xargs runs this script with --job.
if [ "${1:-}" = --job ]; then
    shift
    job "$@"
    exit
fi

replot=0
if [ "${1:-}" = --replot ]; then replot=1; shift; fi
simcoll=${1:-$top/build/simcoll}
[ -x "$simcoll" ] || { echo "solver.sh: build simcoll first (./setup.sh)" >&2; exit 2; }
results=$here/results
csv=$results/solver.csv
[ $replot = 0 ] || [ -s "$csv" ] || { echo "solver.sh: no results/solver.csv to replot" >&2; exit 2; }
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
mkdir -p "$results"

if [ $replot = 0 ]; then
    mkdir -p "$scratch/rows"
    : > "$scratch/jobs"
    for cluster in gige ib4x; do
        "$simcoll" platform --like "$top/platforms/$cluster.xml" --nodes 128 \
            -o "$scratch/$cluster-128.xml"
        for mode in blocking early predict early+predict; do
            echo "$cluster $scratch/$cluster-128.xml 1024 100us $mode" >> "$scratch/jobs"
            for compute in 10us 100us 1ms; do
                echo "$cluster $top/platforms/$cluster.xml 64 $compute $mode" >> "$scratch/jobs"
            done
        done
    done
    # The long runs first.
    export simcoll scratch
    sort -k3,3nr "$scratch/jobs" | xargs -P 2 -L 1 "$here/solver.sh" --job
    { printf 'cluster,compute_s,mode,'; cat "$scratch/header"; } > "$scratch/solver.csv"
    cat "$scratch"/rows/* | sort -t, -k1,1 -k6,6n -k2,2g -k3,3 >> "$scratch/solver.csv"
    cp "$scratch/solver.csv" "$csv"
fi

# solver.txt: each mode's total time against the blocking loop's.
awk -F, 'NR > 1 { key = $1 "," $6 "," $2; t[key, $3] = $10; k[key] = 1 }
    END {
        print "# cluster,np,compute_s,mode,total_s,blocking_s,mode/blocking"
        n = split("blocking early predict early+predict", order, " ")
        for (key in k)
            for (i = 1; i <= n; i++)
                printf "%s,%s,%.5g,%.5g,%.3f\n", key, order[i], t[key, order[i]],
                       t[key, "blocking"], t[key, order[i]] / t[key, "blocking"]
    }' "$csv" | sort -t, -k1,1 -k2,2n -k3,3g -s > "$results/solver.txt"

# One plot per cluster at np 64: each mode's time over the blocking loop's.
{
    echo "cluster,np,compute_s,mode,time_vs_blocking"
    grep -v '^#' "$results/solver.txt" | cut -d, -f1-4,7
} > "$scratch/ratio.csv"
for cluster in gige ib4x; do
    "$simcoll" plot "$scratch/ratio.csv" -x compute_s -y time_vs_blocking --by mode \
        --where "cluster=$cluster" --where np=64 --logx --liny \
        --title "solver loop on a $cluster-like cluster, np 64, 21 iterations: time / blocking loop's" \
        -o "$results/solver-$cluster.png"
done
