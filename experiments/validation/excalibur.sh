#!/bin/sh
# Predictions of simcoll against real collective timings of two clusters, each
# on two networks, published by ukri-excalibur/excalibur-tests (Apache-2.0) at
# commit f7d6480: osu_allreduce and osu_allgather of OSU micro-benchmarks on
# 64 ranks, 32 a node, 4 B (1 B) to 1 MiB, on
#   alaska       StackHPC's 2 x Xeon E5-2683 v4 nodes, ConnectX-4, Open MPI
#                4.0.3 + UCX, on InfiniBand 4x EDR (platforms/ib4x-edr.xml);
#   alaska-roce  the same nodes on the ConnectX-4's 25 Gb/s Ethernet port,
#                RoCE (platforms/roce-25g.xml);
#   cclake       Cambridge CSD3's 2 x Xeon Platinum 8276 nodes, ConnectX-6,
#                Open MPI 3.1.6 + UCX, on InfiniBand HDR100
#                (platforms/ib-hdr100.xml);
#   cclake-roce  the same nodes on the ConnectX-6's 50 Gb/s Ethernet port,
#                RoCE (platforms/roce-50g.xml).
# Each platform's network level was fitted by simcoll calibrate to that
# system's own point-to-point runs of the same commit; this script fits it
# again from them and checks the shipped numbers. Never fitted to the
# collectives. simcoll runs what Open MPI's coll/tuned runs (--mpi
# openmpi-4.0, Open MPI 3.1.0 to 4.0.7), block placement as srun's, and
# times it as OSU does (simcoll validate --measure osu: warm-up, a barrier
# after every call, each rank's mean, their average); the "call" columns
# are one call's mean over ranks (mean_rank_time_s), as predicted until
# issue 45. The "before" columns: one call with the same network level and
# the shared memory as shipped before it was fitted to the IMB streams
# (below). Needs a built simcoll and git; seconds.
# usage: experiments/validation/excalibur.sh EXCALIBUR_CHECKOUT [SYSTEM] [simcoll]
# SPDX-License-Identifier: GPL-2.0-or-later
set -eu
. "$(dirname "$0")/../common.sh"
systems="alaska, alaska-roce, cclake or cclake-roce"
[ $# -ge 1 ] || { echo "usage: $0 EXCALIBUR_CHECKOUT [SYSTEM: $systems] [simcoll]" >&2; exit 2; }
repo=$1
system=${2:-alaska}
simcoll=${3:-$top/build/simcoll}
profile=openmpi-4.0
commit=f7d6480fce93df87f4ebaadcd854c7b7f7b1565a
# omb: the OSU runs; imb: the IMB streams inside a node that the cluster's
# shared memory is fitted to, its InfiniBand run's for both networks (the
# same nodes).
alaska_imb=output/alaska/ib-gcc9-openmpi4-ucx/imb
cclake_imb=output/csd3/cclake-ib-gcc9-ompi3-ucx/imb
# dram: the memory's peak, the shared memory's bandwidth before the IMB fit
# (alaska: 2 sockets x 4 DDR4-2400 channels x 8 B; cclake: 2 x 6 DDR4-2933).
alaska_dram=153.6GBps
cclake_dram=281.6GBps
case $system in
alaska) omb=output/alaska/ib-gcc9-openmpi4-ucx/omb imb=$alaska_imb platform=ib4x-edr.xml
    dram=$alaska_dram what="alaska, 64 ranks (2 nodes x 32), EDR, Open MPI 4.0.3" ;;
alaska-roce) omb=output/alaska/roce-gcc9-openmpi4-ucx/omb imb=$alaska_imb platform=roce-25g.xml
    dram=$alaska_dram what="alaska, 64 ranks (2 nodes x 32), 25 Gb/s RoCE, Open MPI 4.0.3" ;;
cclake) omb=output/csd3/cclake-ib-gcc9-ompi3-ucx/omb imb=$cclake_imb platform=ib-hdr100.xml
    dram=$cclake_dram what="cclake, 64 ranks (2 nodes x 32), HDR100, Open MPI 3.1.6" ;;
cclake-roce) omb=output/csd3/cclake-roce-gcc9-ompi3-ucx/omb imb=$cclake_imb platform=roce-50g.xml
    dram=$cclake_dram what="cclake, 64 ranks (2 nodes x 32), 50 Gb/s RoCE, Open MPI 3.1.6" ;;
*) echo "excalibur.sh: unknown system '$system'; use $systems" >&2; exit 2 ;;
esac
need_simcoll "$simcoll"
need_clone "$repo" "$commit" "$omb/Osu_latency/rfm_Osu_latency_job.out" \
    github.com/ukri-excalibur/excalibur-tests
out=$results/excalibur-$system
for t in Osu_latency Osu_bw Osu_mbw_mr__1 Osu_mbw_mr__32 Osu_allreduce Osu_allgather; do
    git -C "$repo" show "$commit:$omb/$t/rfm_${t}_job.out" > "$scratch/$t.txt"
done
for t in IMB_Uniband_1_0 IMB_Biband_1_0; do
    git -C "$repo" show "$commit:$imb/$t/rfm_${t}_job.out" > "$scratch/$t.txt"
done
plat=$top/platforms/$platform
# The point-to-point files and how the platform's levels were fitted to them
# (platforms/README.md): the network to OSU's runs between two nodes, the
# shared memory to IMB's Uniband and Biband sections of 2 to 32 processes,
# which ran inside node 0 (32 or 56 ranks a node). Calibration runs where the
# files are, so that its reports name them, not a temporary directory.
inter="--osu-latency Osu_latency.txt --osu-bw Osu_bw.txt
       --osu-mbw-mr Osu_mbw_mr__1.txt --osu-mbw-mr Osu_mbw_mr__32.txt
       --breakpoints 256 --eager-limit 8192"
intra="--level intra --imb IMB_Uniband_1_0.txt --imb IMB_Biband_1_0.txt --processes 2-32
       --breakpoints 128 --eager-limit 8192"

# Each level again, from the point-to-point runs only, on the platform; the
# platform's residuals on them; and a check that the platform's numbers are
# the fit's (rounded to 4 digits): their median residuals agree within 0.2
# points. Per series: its label and what it measures, then the median.
medians() {
    awk '$NF ~ /%$/ && $(NF-1) ~ /%$/ {
        m = $(NF-1); sub("%", "", m); $NF = ""; $(NF-1) = ""; gsub(/ +/, "_"); print $0, m }' "$1"
}
for level in inter intra; do
    eval "opts=\$$level"
    case $level in inter) suffix= ;; intra) suffix=-intra ;; esac
    # shellcheck disable=SC2086 # the option lists are split on purpose
    (cd "$scratch" && "$simcoll" calibrate $opts --like "$plat" -o refit.xml) \
        > "$out$suffix-fit.txt"
    report=$(echo "$opts" | sed 's/--breakpoints [^ ]*//; s/--eager-limit [^ ]*//')
    # shellcheck disable=SC2086
    (cd "$scratch" && "$simcoll" calibrate --report --platform "$plat" $report) \
        > "$out$suffix-residuals.txt"
    # shellcheck disable=SC2086
    (cd "$scratch" && "$simcoll" calibrate --report --platform refit.xml $report) \
        > "$scratch/refit.txt"
    echo "$level fit: $out$suffix-fit.txt; the platform's residuals:"
    sed -n '/^# residuals per series/,$p' "$out$suffix-residuals.txt" | tail -n +3
    medians "$out$suffix-residuals.txt" | sort > "$scratch/shipped.med"
    medians "$scratch/refit.txt" | sort > "$scratch/refit.med"
    join "$scratch/shipped.med" "$scratch/refit.med" | awk '
        { d = $2 - $3; if (d < 0) d = -d; if (d > 0.2) { bad = 1; print "differs: " $0 } }
        END { if (bad || NR == 0) exit 1 }' || {
        echo "excalibur.sh: $plat's $level level is not what the point-to-point files give" >&2
        exit 1
    }
done

# "Before": the platform as shipped until its shared memory was fitted to
# the IMB streams (commit 26faabf; the files of commit 4b917fb), whose
# network level is the one above and whose shared memory was no measurement
# of these nodes: the memory's peak as the memory bus's bandwidth, the same
# latency, and gige.xml's 0.24 us send overhead (TACC Stampede's
# shared-memory ping-pong, MVAPICH2 2.1), no receive overhead. The shipped
# platform with those shared-memory numbers set is that file.
nodes=$(grep -c '<host ' "$plat")
"$simcoll" platform --like "$plat" --nodes "$nodes" --set "intra.bandwidth=$dram" \
    --set intra.send-overhead=0.24us --set intra.recv-overhead=0s -o "$scratch/before.xml"

# Predictions: 64 ranks on two nodes, on the platform and before. OSU's
# allreduce is of floats: simcoll's int has their size.
sizes() { awk '!/^#/ && NF == 2 { print $1 }' "$scratch/$1.txt" | paste -sd,; }
for p in shipped before; do
    case $p in shipped) pf=$plat ;; *) pf=$scratch/before.xml ;; esac
    "$simcoll" --platform "$pf" --coll allreduce --mpi "$profile" --np 64 --op sum --type int \
        --size "$(sizes Osu_allreduce)" --no-payload --format csv > "$scratch/allreduce-$p.csv"
    "$simcoll" --platform "$pf" --coll allgather --mpi "$profile" --np 64 \
        --size "$(sizes Osu_allgather)" --no-payload --format csv > "$scratch/allgather-$p.csv"
done

# OSU's loop on the shipped platform, what osu_allreduce and osu_allgather
# print: simcoll validate --measure osu on the same files (its barriers as
# the profile chooses them).
"$simcoll" validate --platform "$plat" --mpi "$profile" --np 64 --measure osu --format csv \
    "$scratch/Osu_allreduce.txt" "$scratch/Osu_allgather.txt" > "$scratch/osu.csv" \
    2> "$scratch/osu.err" || { cat "$scratch/osu.err" >&2; exit 1; }

# excalibur-SYSTEM.csv: operation, bytes, algorithm, measured and predicted
# mean seconds (OSU's loop), relative error, the slowest rank's time in one
# call, the prediction and error before the shared memory was fitted (one
# call), and one call's prediction and error on the shipped platform.
{
    echo "operation,size_bytes,algo,measured_s,predicted_s,error,predicted_slowest_s,before_s,before_error,call_s,call_error"
    for op in allreduce allgather; do
        awk -F, -v op=$op '
            FILENAME == ARGV[1] { if ($0 !~ /^#/ && NF) { split($0, f, " "); m[f[1]] = f[2] * 1e-6 }; next }
            FILENAME == ARGV[2] { if (FNR > 1 && $2 == op) { o[$4] = $7; oa[$4] = $5 }; next }
            FNR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
            FILENAME == ARGV[3] { b[$(col["size_bytes"])] = $(col["mean_rank_time_s"]); next }
            ($(col["size_bytes"]) in m) {
                s = $(col["size_bytes"]); c = $(col["mean_rank_time_s"]); r = b[s]; p = o[s]
                if (!(s in o) || oa[s] != $(col["algo"])) {
                    print "excalibur.sh: validate --measure osu ran another algorithm at " s > "/dev/stderr"
                    exit 1
                }
                printf "%s,%d,%s,%.9g,%.9g,%.6f,%.9g,%.9g,%.6f,%.9g,%.6f\n", op, s, $(col["algo"]),
                       m[s], p, (p - m[s]) / m[s], $(col["sim_time_s"]), r, (r - m[s]) / m[s],
                       c, (c - m[s]) / m[s] }' \
            "$scratch/Osu_$op.txt" "$scratch/osu.csv" "$scratch/$op-before.csv" \
            "$scratch/$op-shipped.csv"
    done
} > "$out.csv"

# Per operation: points, median and largest |error| (OSU's loop); then one
# call; then one call before; then by size class, one call against OSU's loop.
{
    awk -F, -f "$here/summary.awk" "$out.csv" | sort
    echo "# one call (mean_rank_time_s), as predicted until issue 45:"
    awk -F, 'BEGIN { OFS = "," } { print $1, $2, $3, $4, $10, $11 }' "$out.csv" |
        awk -F, -f "$here/summary.awk" | sort | sed '/^#/d; s/^/call /'
    echo "# before the shared memory was fitted (one call; memory bus $dram, o_s 0.24 us, o_r 0):"
    awk -F, 'BEGIN { OFS = "," } { print $1, $2, $3, $4, $8, $9 }' "$out.csv" |
        awk -F, -f "$here/summary.awk" | sort | sed '/^#/d; s/^/before /'
    awk -F, 'NR > 1 { print $2, $11, $6 }' "$out.csv" | awk -v bench=osu -f "$here/classes.awk"
} > "$out-summary.txt"
cat "$out-summary.txt"
# simcoll validate on the same OSU files, one call (its default), must give
# the call table: the collective command and validate predict alike.
"$simcoll" validate --platform "$plat" --mpi "$profile" --np 64 "$scratch/Osu_allreduce.txt" \
    "$scratch/Osu_allgather.txt" 2>/dev/null |
    awk '$1 ~ /^(allreduce|allgather)$/ && NF == 4 {
             sub(/%/, "", $3); sub(/%/, "", $4); sub(/^[-+]/, "", $4)
             printf "%s %d %.1f%% %.1f%%\n", $1, $2, $3, $4 }' | sort > "$scratch/validate.txt"
if ! sed -n 's/^call //p' "$out-summary.txt" | cmp -s - "$scratch/validate.txt"; then
    echo "excalibur.sh: simcoll validate does not give this table:" >&2
    cat "$scratch/validate.txt" >&2
    exit 1
fi

# Plots through simcoll plot: measured and predicted, one line each.
osu=$(sed -n 's/^# OSU MPI Allreduce Latency Test \(v[0-9.]*\).*/\1/p' "$scratch/Osu_allreduce.txt")
awk -F, 'NR > 1 { print $1 "," $2 ",measured (OSU '"$osu"')," $4
                  print $1 "," $2 ",simcoll --mpi '"$profile"' (OSU loop)," $5
                  print $1 "," $2 ",simcoll --mpi '"$profile"' (one call)," $10 }
         NR == 1 { print "operation,size_bytes,source,time_s" }' \
    "$out.csv" > "$scratch/long.csv"
for op in allreduce allgather; do
    "$simcoll" plot "$scratch/long.csv" -x size_bytes -y time_s --by source \
        --where operation=$op --logx --logy \
        --title "MPI_$op on $what" \
        -o "$out-$op.png"
done
echo "results: $out.csv, $out-summary.txt, $out-{allreduce,allgather}.png"
