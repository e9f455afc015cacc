#!/bin/sh
# Predictions of simcoll against the collectives that D. De Sensi et al.
# measured for "Noise in the Clouds" (POMACS 6(3), 2022) on Piz Daint, Alps,
# DEEP-EST, Google Cloud and Azure: github.com/DanieleDeSensi/cloud_noise_data
# (commit 8ecb821, data only) and github.com/DanieleDeSensi/cloud_noise
# (commit 49563ff, MIT licence: the benchmarks that produced it). Nothing is
# copied from either; this script reads a checkout (or bare clone) of each.
#
# Per system, from point-to-point data only (Netgauge 2.4.6 on two nodes):
#   - LogP overheads o_s and o_r: netgauge's LogGP run (ng_loggp.out), its
#     smallest message (1 byte), written as SimGrid calibration CSVs;
#   - latency and per-size bandwidth: the raw ping-pong samples between the
#     two nodes (ng_one_one_mpi_stripe1.out, 1000 a size, 1 B to 16 MiB),
#     written as a SimGrid calibration PingPong CSV; simcoll calibrate fits
#     them (medians per size) with the overheads above, eager limit 8 KiB;
#   - gap g = 0: netgauge's stream of ten 1-byte messages takes per message
#     what the slower overhead takes (its g at 1 byte is no NIC limit);
#   - the NICs' limit both ways B_bi: netgauge's MPI_Sendrecv of a message
#     each way at once (ng_one_one_mpi_bidirect_mpi_stripe1.out, medians
#     per size), written as osu_bibw's bytes/s both ways (2 s / time);
#     simcoll calibrate sets it where the largest size carried more than 5%
#     less than twice the bandwidth (the nodes then sit on one switch that
#     simcoll builds, simcoll/topology racks:N,1).
# "Before": the same fit without the exchange, as this script fitted every
# platform until B_bi came (commit b3e7334); every point is predicted on it
# too (the before columns; the same as after where no B_bi was fitted).
# The platform is checked against the ping-pong medians (calibrate --report)
# and against netgauge's concurrent ping-pongs of 2 to 16 pairs between the
# same two nodes, simulated as a program of sends. Never against the
# collectives. Nodes and shared memory are ib4x-edr.xml's, placeholders that
# no prediction here uses (one rank a node): the platforms stay in results/.
#
# Collectives (code: simulations/schedgen + simulations/goal2mpi of
# cloud_noise): GOAL schedules turned into explicit MPI_Irecv/MPI_Send code,
# one rank a node, 4 to 32 nodes, 16 B, 16 KiB, 16 MiB. Every iteration
# (after 10 warm-up ones) each rank does usleep(1), MPI_Barrier, starts its
# clock, runs its schedule and stops its clock; the file holds every rank's
# time of every iteration. The paper's measure, used here, is the slowest
# rank's time per iteration (its plots/plot_sim.py); its median over the
# iterations is compared with simcoll's sim_time_s (the slowest rank's time
# from a common start), p10 and p90 give the spread. Each schedule and the
# simcoll algorithm that sends the same messages (cloud-noise.awk, predict):
#   binomialtreebcast   bcast-binomial: blocking sends to the largest subtree
#                       first; for 2^k ranks the same tree up to relabelling
#   binarytreebcast     bcast-ompi-bintree: the same tree for 2^k ranks, but
#                       simcoll isends to both children where the benchmark
#                       sends one blocking MPI_Send after the other
#   nwaydissemination*  (n = 1) at 16 B: barrier, the dissemination barrier
#                       (0-byte messages for 16-byte ones); the plain variant
#                       busy-waits 16 ns a round (GOAL calc), the others not
#   pipelinedring*      p segments of m/p bytes to the right neighbour, each
#                       sent once the previous one arrived from the left: p
#                       steps. simcoll's ring allgather on p+1 ranks, blocks
#                       of m/p: the same p steps a rank (on one switch a
#                       rank's step does not depend on the ring's length).
# Not compared: linear_alltoall (simcoll has no alltoall), dissemination of
# 16 KiB and 16 MiB (no simcoll algorithm sends data that way), pipelinedring
# of 16 B on 32 nodes (a segment of 0 bytes: the generated program is empty).
#
# Needs a built simcoll, git, xz, tar and gnuplot; about a minute (57 to 60 s measured).
# usage: experiments/validation/cloud-noise.sh DATA_CHECKOUT [CODE_CHECKOUT|-] [simcoll]
# SPDX-License-Identifier: GPL-2.0-or-later
set -eu
. "$(dirname "$0")/../common.sh"
[ $# -ge 1 ] || { echo "usage: $0 DATA_CHECKOUT [CODE_CHECKOUT|-] [simcoll]" >&2; exit 2; }
data=$1
code=${2:--}
simcoll=${3:-$top/build/simcoll}
data_commit=8ecb8213d86cec9fc238487c56f1e69198718487
code_commit=49563ff63dfc28a4e38d1604c667d02f9b79c184
need_simcoll "$simcoll"
for tool in git xz tar gnuplot; do
    command -v $tool >/dev/null || { echo "cloud-noise.sh: needs $tool" >&2; exit 2; }
done
need_clone "$data" "$data_commit" description.csv github.com/DanieleDeSensi/cloud_noise_data

# The benchmark code, when given: the facts this script relies on, checked in
# the code that generated the benchmarks (each grep must find its line).
if [ "$code" != - ]; then
    need_clone "$code" "$code_commit" simulations/goal2mpi/goal2mpi.py \
        github.com/DanieleDeSensi/cloud_noise
    check() { # FILE TEXT WHAT
        git -C "$code" show "$code_commit:$1" | grep -qF -e "$2" ||
            { echo "cloud-noise.sh: $1 no longer says '$2' ($3)" >&2; exit 1; }
    }
    check simulations/goal2mpi/goal2mpi.py 'MPI_Barrier(MPI_COMM_WORLD);\n' "barrier before each iteration"
    check simulations/goal2mpi/goal2mpi.py 'double start_time = MPI_Wtime();' "each rank's own clock"
    check simulations/goal2mpi/goal2mpi.py "default=10)" "10 warm-up iterations"
    check simulations/schedgen/schedgen.cpp 'goal.Requires(send.at(r), recv.at(r-1));' \
        "pipelined ring: segment r sent after segment r-1 arrived"
    # shellcheck disable=SC2016 # the shell text itself is looked for
    check simulations/goal2mpi/convert_all.sh '--segmentsize "$((MESSAGE_SIZE / NODES))' \
        "pipelined ring: p segments of m/p"
    check plots/plot_sim.py '.max(axis=1)' "the paper's measure: the slowest rank"
    echo "benchmark code checked at $code_commit"
fi

# What the data commit holds: every file whose content is absent from the
# clone (GitHub keeps the large ones out of some clones), and, for the runs
# the data set's own index (description.csv) names, whether each is there.
inventory=$results/cloud-noise-inventory.txt
{
    echo "# github.com/DanieleDeSensi/cloud_noise_data at $data_commit"
    echo "# files listed by the commit whose content this clone lacks:"
    git -C "$data" ls-tree -r "$data_commit" | while read -r _mode _type blob path; do
        git -C "$data" cat-file -e "$blob" 2>/dev/null || echo "missing $path"
    done
    echo "# runs named by description.csv (provider, instance, placement, time, run):"
    git -C "$data" show "$data_commit:description.csv" | tr -d '\r' | while IFS= read -r line; do
        run=${line##*,}
        run=${run#../data/}
        case $run in *gemm_*) continue ;; esac
        if git -C "$data" cat-file -e "$data_commit:$run.tar.xz" 2>/dev/null; then
            echo "present $line"
        else
            echo "missing $line"
        fi
    done
} > "$inventory"
echo "inventory: $inventory ($(grep -c '^missing' "$inventory") missing entries)"

# A run of the data set, unpacked once: prints the directory of its files.
unpack() {
    dir=$scratch/x/$1
    if [ ! -d "$dir" ]; then
        git -C "$data" cat-file -e "$data_commit:$1.tar.xz" 2>/dev/null || {
            echo "cloud-noise.sh: $1.tar.xz is missing from this clone" >&2
            return 1
        }
        mkdir -p "$dir"
        git -C "$data" show "$data_commit:$1.tar.xz" | xz -dc | tar xf - -C "$dir"
    fi
    # each archive holds one directory named by the run's time stamp
    echo "$dir/${1##*/}"
}

# The systems: name | point-to-point run | collective runs | what it is.
# The point-to-point run is the one description.csv names for the system
# with "Different Racks, Day" (the placement the paper's own validation
# simulated), else "Same Rack, Day", else (DEEP-EST, both absent) the only
# run of the system with netgauge's files. The collective runs are every run
# of the commit holding collective timings of that system: those the index
# names for Daint, Alps, DEEP-EST and Azure (2022_05_15_20_01_25,
# 2022_05_12_20_08_36, 2022_05_13_15_49_46, azure_hcs_collectives_2022_05_19)
# are missing from the clone; Oracle's collectives have no point-to-point
# run (oracle-hpc/2022_07_13_13_09_16 is missing).
# The last field but one: the directories of the system's other runs, whose
# ping-pongs are listed for comparison (results/cloud-noise-SYSTEM-p2p-runs.txt).
systems() {
    cat <<'EOF'
daint|daint/2022_05_19_13_03_39|daint__collectives/2022_03_30_00_54_29 daint__collectives/2022_03_30_16_28_06 daint/2022_05_06_19_04_02 daint/2022_05_09_15_03_50 daint/2022_05_10_19_07_46 daint/2022_05_10_21_34_00 daint/2022_05_11_11_46_33|daint daint_mc_*|Piz Daint (Cray XC, mc nodes, Aries, Cray MPICH 7.7.18)
alps|alps/2022_07_14_12_59_18|alps/2022_05_06_18_18_22 alps/2022_05_06_18_59_47 alps/2022_05_09_16_16_05|alps|Alps (HPE Cray EX, mc nodes, Cray MPICH 8.1.12)
deep-est|deep-est/2022_05_05_17_00_11|deep-est/2022_05_06_16_58_14 deep-est/2022_05_09_16_17_34 deep-est/2022_05_11_12_19_01|deep-est|DEEP-EST (cluster module, Open MPI 4.1.3)
gcp|gcp/2022_06_08_17_01_09|gcp/2022_07_09_19_55_51|gcp gcp_c2-standard-60_*|Google Cloud c2-standard-60 (100 Gb/s TIER_1, gVNIC, Intel MPI 2018)
azure|azure_hpc44rs_azure_rush_same_rack/2022_03_18_22_04_11|azure_hc44rs_collectives/2022_04_01_11_12_04|azure_hpc44rs_*|Azure HC44rs (HPC-X 2.8.3)
EOF
}

# The ping-pongs of every run of a system that has them ($1: directory
# patterns): the spread between runs, days and placements.
p2p_runs() {
    echo "# run: ping-pong one-way medians (us) at 16 B, 16 KiB, 16 MiB; p10 and p90"
    echo "# at 16 B; both ways at once (one MPI_Sendrecv) at 4 MiB, median"
    git -C "$data" ls-tree -r --name-only "$data_commit" | grep '\.tar\.xz$' | while read -r t; do
        r=${t%.tar.xz}
        d=${r%/*}
        hit=
        for pat in $1; do
            # shellcheck disable=SC2254 # the patterns are globs on purpose
            case $d in $pat) hit=1 ;; esac
        done
        [ -n "$hit" ] || continue
        git -C "$data" cat-file -e "$data_commit:$t" 2>/dev/null || { echo "$r: missing"; continue; }
        dir=$(unpack "$r")
        [ -s "$dir/ng_one_one_mpi_stripe1.out" ] || { echo "$r: no ng_one_one_mpi_stripe1.out"; continue; }
        one=$(awk '!/^#/ && NF >= 2 && ($1 == 16 || $1 == 16384 || $1 == 16777216) { print $1, $2 }' \
                  "$dir/ng_one_one_mpi_stripe1.out" | sort -k1,1n -k2,2g |
              awk '{ n[$1]++; v[$1, n[$1]] = $2 }
                   END { for (s = 16; s <= 16777216; s *= 1024) {
                             k = n[s]; printf "%.4g ", k % 2 ? v[s, (k + 1) / 2] : (v[s, k / 2] + v[s, k / 2 + 1]) / 2 }
                         k = n[16]; a = int(0.1 * k); b = int(0.9 * k)
                         printf "p10 %.4g p90 %.4g", v[16, a < 0.1 * k ? a + 1 : a], v[16, b < 0.9 * k ? b + 1 : b] }')
        both=-
        if [ -s "$dir/ng_one_one_mpi_bidirect_mpi_stripe1.out" ]; then
            both=$(awk '!/^#/ && $1 == 4194304 { print $2 }' "$dir/ng_one_one_mpi_bidirect_mpi_stripe1.out" |
                   sort -g | awk '{ v[NR] = $1 } END { if (NR) printf "%.4g", NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }')
        fi
        echo "$r: $one both-ways-4MiB ${both:--}"
    done
}

# ------------------------------------------------------------------------
# Platform of a system: $1 name, $2 point-to-point directory, $3 its run.
# Calibration runs where the converted files are, so that the reports name
# them, not a temporary directory.
fit_platform() {
    name=$1 p2p=$2 run=$3
    work=$scratch/fit-$name
    mkdir -p "$work"
    # netgauge LogGP rows: size n PRTT(1,0,s) PRTT(n,0,s) PRTT(n,d,s) L o_s o_r g G lsq,
    # microseconds; the first row is the 1-byte message.
    awk -v dir="$work" '!/^#/ && NF >= 11 {
        print "Op,Size,Start,Duration" > (dir "/netgauge-os.csv")
        printf "MPI_Isend,%d,0,%.9g\n", $1, $7 * 1e-6 >> (dir "/netgauge-os.csv")
        print "Op,Size,Start,Duration" > (dir "/netgauge-or.csv")
        printf "MPI_Recv,%d,0,%.9g\n", $1, $8 * 1e-6 >> (dir "/netgauge-or.csv")
        printf "%s %s %s %s %s %s\n", $1, $6, $7, $8, ($4 - $3) / ($2 - 1), $9 > (dir "/loggp1.txt")
        exit }' "$p2p/ng_loggp.out"
    # netgauge's last row: G of its last protocol range, for the notes
    awk '!/^#/ && NF >= 11 { s = $1; G = $10; g = $9 } END { print s, g, G }' \
        "$p2p/ng_loggp.out" > "$work/loggp-last.txt"
    # ping-pong samples: size, RTT/2 in microseconds (ptrn_one_one.cpp). A
    # PingPong CSV's one-way time is (MPI_Send + MPI_Recv) / 2: each is h.
    awk 'BEGIN { print "Op,Size,Start,Duration" }
         !/^#/ && NF >= 2 { h = $2 * 1e-6; printf "MPI_Send,%d,0,%.9g\nMPI_Recv,%d,0,%.9g\n", $1, h, $1, h }' \
        "$p2p/ng_one_one_mpi_stripe1.out" > "$work/netgauge-pingpong.csv"
    # and their medians per size, for the residuals
    awk '!/^#/ && NF >= 2 { print $1, $2 }' "$p2p/ng_one_one_mpi_stripe1.out" |
        sort -k1,1n -k2,2g | awk -v mode=medians -f "$here/cloud-noise.awk" |
        awk 'BEGIN { print "Op,Size,Start,Duration" }
             { h = $2 * 1e-6; printf "MPI_Send,%d,0,%.9g\nMPI_Recv,%d,0,%.9g\n", $1, h, $1, h }' \
        > "$work/netgauge-pingpong-medians.csv"
    # Both ways at once: each size's median exchange time t of s bytes each
    # way, as osu_bibw prints it (its header, so that calibrate reads it as
    # osu_bibw's; no OSU version: netgauge measured it), MB/s = 2 s / t (t
    # in us).
    bibw=
    if [ -s "$p2p/ng_one_one_mpi_bidirect_mpi_stripe1.out" ]; then
        awk '!/^#/ && NF >= 2 { print $1, $2 }' "$p2p/ng_one_one_mpi_bidirect_mpi_stripe1.out" |
            sort -k1,1n -k2,2g | awk -v mode=medians -f "$here/cloud-noise.awk" |
            awk 'BEGIN { print "# OSU MPI Bi-Directional Bandwidth Test"
                         print "# Size      Bandwidth (MB/s)" }
                 $1 > 0 && $2 > 0 { printf "%d %.6f\n", $1, 2 * $1 / $2 }' > "$work/netgauge-bibw.txt"
        bibw="--osu-bibw netgauge-bibw.txt"
    fi
    # Nodes and shared memory: placeholders (one rank a node uses neither);
    # 33 nodes for the ring on p + 1 ranks, 16 cores for 16 pairs.
    "$simcoll" platform --like "$top/platforms/ib4x-edr.xml" --nodes 33 --cores 16 \
        --set inter.gap=0s -o "$work/template.xml"
    # shellcheck disable=SC2086 # $bibw is one option and its value, or nothing
    (cd "$work" && "$simcoll" calibrate --smpi-csv netgauge-os.csv --smpi-csv netgauge-or.csv \
        --smpi-csv netgauge-pingpong.csv $bibw --like template.xml \
        --breakpoints 8192,65536 --eager-limit 8192 -o fitted.xml) > "$results/cloud-noise-$name-fit.txt"
    # Before the NIC's limit both ways: the same fit without the exchange.
    (cd "$work" && "$simcoll" calibrate --smpi-csv netgauge-os.csv --smpi-csv netgauge-or.csv \
        --smpi-csv netgauge-pingpong.csv --like template.xml \
        --breakpoints 8192,65536 --eager-limit 8192 -o before.xml) > /dev/null
    # The platform file: the fit, with a comment citing its numbers.
    plat=$results/cloud-noise-$name.xml
    read -r _ L1 os1 or1 t1 _ < "$work/loggp1.txt"
    read -r last g_last G_last < "$work/loggp-last.txt"
    {
        sed -n '1,2p' "$work/fitted.xml"
        cat <<EOF
<!-- cloud-noise-$name: written by experiments/validation/cloud-noise.sh. Its network
  level comes from point-to-point measurements only, of github.com/DanieleDeSensi/
  cloud_noise_data at commit $data_commit, run $run.tar.xz
  (Netgauge 2.4.6, two nodes, one rank each):
    o_s = $os1 us and o_r = $or1 us, constant: ng_loggp.out, its 1-byte row (netgauge
      times MPI_Send with a delay between sends, and the MPI_Recv of a message that has
      arrived). Its o_s and o_r of larger messages are not used: a blocking MPI_Send of a
      rendezvous message includes the transfer, and simcoll would extend the per-byte cost
      of the eager sizes to all larger ones.
    g = 0: ng_loggp.out's stream of 10 one-byte messages takes $t1 us a message, what the
      slower overhead allows (netgauge's g, the intercept of g + G s fitted up to $last bytes,
      is $g_last us, G $G_last us a byte).
    latency, bandwidth and the bandwidth factor per size (netgauge's L, half the 1-byte
      round trip of its LogGP run, is $L1 us): fitted by simcoll calibrate to
      the medians per size of the 1000 ping-pong samples per size of
      ng_one_one_mpi_stripe1.out (1 B to 16 MiB; netgauge's one-way time, RTT/2),
      breakpoints 8192 and 65536 bytes. The fit and its residuals:
      experiments/validation/results/cloud-noise-$name-fit.txt and -residuals.txt.
    bidirectional bandwidth (simcoll/inter/bidirectional-bandwidth, when present): what
      each node's NIC carries both ways together, the median exchange of the largest size
      of ng_one_one_mpi_bidirect_mpi_stripe1.out (one MPI_Sendrecv each way at once), as
      2 x size / time; absent where that is within 5% of twice the bandwidth (the
      directions do not share). The nodes then sit on one switch simcoll builds.
    eager limit 8192 bytes: Cray MPICH's default on Aries (MPICH_GNI_MAX_EAGER_MSG_SIZE),
      where Daint's ping-pong steps; on the others no step shows and the libraries'
      rendezvous thresholds were not recorded.
  Nodes, cores and the shared-memory level are platforms/ib4x-edr.xml's, placeholders:
  nothing of these nodes was measured, and no prediction of cloud-noise.sh uses them (one
  rank a node). Header 40 bytes, as ib4x-edr.xml's. -->
EOF
        sed -n '3,$p' "$work/fitted.xml"
    } > "$plat"
    # Residuals: the ping-pong medians, then the concurrent ping-pongs.
    res=$results/cloud-noise-$name-residuals.txt
    (cd "$work" && "$simcoll" calibrate --report --platform "$plat" \
        --smpi-csv netgauge-pingpong-medians.csv) > "$res"
    "$simcoll" platform --like "$plat" --nodes 2 --cores 16 -o "$work/two.xml"
    {
        echo
        echo "# concurrent ping-pongs: N pairs between the two nodes at once (netgauge"
        echo "# ng_one_one_mpi_concN.out: half the time from the first start to the last end,"
        echo "# median of 1000 samples), against a simcoll program of the same sends on"
        echo "# two.xml (this platform, 2 nodes) with ranks 2i and 2i+1 on the two nodes"
        echo "pairs bytes_per_pair measured_us predicted_us error"
        for pairs in 2 4 8 16; do
            f=$p2p/ng_one_one_mpi_conc$pairs.out
            [ -s "$f" ] || continue
            awk '!/^#/ && NF >= 2 { print $1, $2 }' "$f" | sort -k1,1n -k2,2g |
                awk -v mode=medians -f "$here/cloud-noise.awk" | while read -r total med; do
                    m=$((total / pairs))
                    [ "$m" -ge 1 ] || continue
                    i=0
                    while [ $i -lt $pairs ]; do
                        echo "send $m from=$((2 * i)) to=$((2 * i + 1))"
                        echo "send $m from=$((2 * i + 1)) to=$((2 * i))"
                        i=$((i + 1))
                    done > "$work/pairs.prog"
                    t=$("$simcoll" run --platform "$work/two.xml" --np $((2 * pairs)) \
                        --mapping cyclic --no-payload --format csv "$work/pairs.prog" |
                        awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
                                 { print $(c["sim_time_s"]) }')
                    awk -v p=$pairs -v m=$m -v meas="$med" -v t="$t" 'BEGIN {
                        pred = t / 2 * 1e6
                        printf "%d %d %.4g %.4g %+.1f%%\n", p, m, meas, pred, 100 * (pred - meas) / meas }'
                done
        done
    } > "$work/conc.txt"
    # Both ways at once: netgauge's MPI_Sendrecv of s bytes each way between
    # the two nodes (ng_one_one_mpi_bidirect_mpi_stripe1.out: two of them,
    # timed together, halved), against simcoll's ring allgather on the two
    # nodes, which is one MPI_Sendrecv of a block each way.
    awk '!/^#/ && NF >= 2 { print $1, $2 }' "$p2p/ng_one_one_mpi_bidirect_mpi_stripe1.out" |
        sort -k1,1n -k2,2g | awk -v mode=medians -f "$here/cloud-noise.awk" > "$work/bidir.med"
    awk '!/^#/ && NF >= 2 { print $1, $2 }' "$p2p/ng_one_one_mpi_stripe1.out" |
        sort -k1,1n -k2,2g | awk -v mode=medians -f "$here/cloud-noise.awk" > "$work/oneway.med"
    "$simcoll" platform --like "$work/before.xml" --nodes 2 --cores 16 -o "$work/two-before.xml"
    for p in two two-before; do
        "$simcoll" --platform "$work/$p.xml" --algo ring --np 2 \
            --size "$(cut -d' ' -f1 "$work/bidir.med" | paste -sd, -)" --mapping cyclic \
            --no-payload --format csv |
            awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
                     { print $(c["size_bytes"]), $(c["sim_time_s"]) }' > "$work/bidir-$p.pred"
        awk 'FILENAME == ARGV[1] { one[$1] = $2; next }
             FILENAME == ARGV[2] { pred[$1] = $2 * 1e6; next }
             ($1 in pred) { printf "%d %.4g %.4g %+.1f%% %.4g\n", $1, $2, pred[$1],
                            100 * (pred[$1] - $2) / $2, one[$1] }' \
            "$work/oneway.med" "$work/bidir-$p.pred" "$work/bidir.med" > "$work/bidir-$p.txt"
    done
    mv "$work/bidir-two.txt" "$work/bidir.txt"
    # median |error| of such a table on stdin: "WHAT: median |error| M over N sizes"
    bidir_median() {
        awk -v what="$1" '{ e = $4; sub("%", "", e); e += 0; n++; v[n] = e < 0 ? -e : e }
             END { for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++)
                       if (v[j] < v[i]) { t = v[i]; v[i] = v[j]; v[j] = t }
                   printf "# %s: median |error| %.1f%% over %d sizes\n", what,
                       n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2, n }'
    }
    {
        cat "$work/conc.txt"
        # per pair count: all sizes, then from 256 KiB a pair (key p + 1000)
        awk 'function med(p,    k, i, j, t) {
                 k = n[p]
                 for (i = 1; i <= k; i++) for (j = i + 1; j <= k; j++)
                     if (v[p, j] < v[p, i]) { t = v[p, i]; v[p, i] = v[p, j]; v[p, j] = t }
                 return k % 2 ? v[p, (k + 1) / 2] : (v[p, k / 2] + v[p, k / 2 + 1]) / 2 }
             $1 ~ /^[0-9]+$/ { e = $5; sub("%", "", e); e += 0; e = e < 0 ? -e : e
                 n[$1]++; v[$1, n[$1]] = e
                 if ($2 >= 262144) { n[$1 + 1000]++; v[$1 + 1000, n[$1 + 1000]] = e } }
             END { printf "# median |error| per pair count, all sizes:"
                   for (p = 2; p <= 16; p *= 2) if (n[p]) printf " %d pairs %.1f%%", p, med(p)
                   printf "; from 256 KiB a pair:"
                   for (p = 2; p <= 16; p *= 2) if (n[p + 1000]) printf " %d pairs %.1f%%", p, med(p + 1000)
                   print "" }' "$work/conc.txt"
        echo
        echo "# both ways at once: one MPI_Sendrecv of the size each way (netgauge"
        echo "# ng_one_one_mpi_bidirect_mpi_stripe1.out, median of 1000), against simcoll's"
        echo "# ring allgather on 2 ranks of two.xml (one exchange of a block); last, the"
        echo "# one-way ping-pong median of the same size"
        echo "bytes measured_us predicted_us error one_way_us"
        cat "$work/bidir.txt"
        bidir_median "both ways at once" < "$work/bidir.txt"
        bidir_median "both ways at once, before B_bi (the same fit without the exchange)" \
            < "$work/bidir-two-before.txt"
    } >> "$res"
}

# ------------------------------------------------------------------------
# Measurements of a system's collective runs: one line per file compared,
#   run operation nodes bytes algo np size iterations median p10 p90 mean_median
# times in seconds (the slowest rank per iteration; mean: over ranks).
measure() {
    for run in $1; do
        dir=$(unpack "$run")
        for f in "$dir"/*.csv; do
            base=${f##*/}
            base=${base%.csv}
            bytes=${base##*_}
            rest=${base%_*}
            nodes=${rest##*_}
            op=${rest%_*}
            sim=$(awk -v mode=predict -v op="$op" -v p="$nodes" -v m="$bytes" -f "$here/cloud-noise.awk" /dev/null)
            [ -n "$sim" ] || continue
            stats=$(awk '!/^#/ && NF >= 2 { max = 0; sum = 0
                         for (i = 2; i <= NF; i++) { sum += $i; if ($i > max) max = $i }
                         printf "%.9g %.9g\n", max * 1e-6, sum / (NF - 1) * 1e-6 }' "$f" |
                    awk -v mode=stats -f "$here/cloud-noise.awk")
            [ -n "$stats" ] || continue
            echo "$run $op $nodes $bytes $sim $stats"
        done
    done
}

# Predictions: "algo np size" lines in, "algo np size sim_time_s mean_rank_time_s" out.
predict() {
    sort -u | while read -r algo np size; do
        # a barrier carries no data: simcoll refuses a --size it would ignore
        sizes="--size $size"
        [ "$algo" = barrier ] && sizes=
        # shellcheck disable=SC2086 # $sizes is one option and its value, or nothing
        "$simcoll" --platform "$1" --algo "$algo" --np "$np" $sizes --mapping cyclic \
            --no-payload --format csv |
            awk -F, -v a="$algo" -v n="$np" -v s="$size" '
                NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
                { if ($(c["nodes"]) != n) { print "cloud-noise.sh: not one rank a node" > "/dev/stderr"; exit 1 }
                  print a, n, s, $(c["sim_time_s"]), $(c["mean_rank_time_s"]) }'
    done
}

all=$scratch/all.csv
echo "system,run,operation,nodes,size_bytes,algo,sim_np,sim_size,iterations,measured_median_s,measured_p10_s,measured_p90_s,predicted_s,error,measured_mean_median_s,predicted_mean_s,error_mean,predicted_before_s,error_before,predicted_mean_before_s,error_mean_before" > "$all"
systems | while IFS='|' read -r name p2prun collruns others what; do
    echo "== $name: $what"
    p2p=$(unpack "$p2prun")
    fit_platform "$name" "$p2p" "$p2prun"
    plat=$results/cloud-noise-$name.xml
    echo "platform $plat; fit and residuals in $results/cloud-noise-$name-{fit,residuals}.txt"
    grep -E '^(latency|bandwidth|factor|o_s \[0|o_r \[0)' "$results/cloud-noise-$name-fit.txt" | sed 's/^/  /'
    tail -n 1 "$results/cloud-noise-$name-residuals.txt" | sed 's/^/  /'
    p2p_runs "$others" > "$results/cloud-noise-$name-p2p-runs.txt"
    measure "$collruns" > "$scratch/$name.meas"
    awk '{ print $5, $6, $7 }' "$scratch/$name.meas" | predict "$plat" > "$scratch/$name.pred"
    awk '{ print $5, $6, $7 }' "$scratch/$name.meas" | predict "$scratch/fit-$name/before.xml" \
        > "$scratch/$name.pred-before"
    out=$results/cloud-noise-$name.csv
    {
        head -n 1 "$all"
        awk -v sys="$name" 'FILENAME == ARGV[1] { p[$1 " " $2 " " $3] = $4 " " $5; next }
            FILENAME == ARGV[2] { b[$1 " " $2 " " $3] = $4 " " $5; next }
            { split(p[$5 " " $6 " " $7], q, " "); split(b[$5 " " $6 " " $7], r, " ")
              e = (q[1] - $9) / $9; em = (q[2] - $12) / $12
              printf "%s,%s,%s,%d,%d,%s,%d,%d,%d,%.6g,%.6g,%.6g,%.6g,%.4f,%.6g,%.6g,%.4f,%.6g,%.4f,%.6g,%.4f\n",
                  sys, $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, q[1], e, $12, q[2], em,
                  r[1], (r[1] - $9) / $9, r[2], (r[2] - $12) / $12 }' \
            "$scratch/$name.pred" "$scratch/$name.pred-before" "$scratch/$name.meas" |
            sort -t, -k3,3 -k5,5n -k4,4n -k2,2
    } > "$out"
    tail -n +2 "$out" >> "$all"
    awk -F, -v mode=summary -f "$here/cloud-noise.awk" "$out" > "$results/cloud-noise-$name-summary.txt"
    awk -F, -v mode=ranking -f "$here/cloud-noise.awk" "$out" >> "$results/cloud-noise-$name-summary.txt"
    awk -F, -v mode=ranking -v before=1 -f "$here/cloud-noise.awk" "$out" \
        >> "$results/cloud-noise-$name-summary.txt"
    cat "$results/cloud-noise-$name-summary.txt"

    # Predicted against measured, one point per file, by operation.
    awk -F, -v dir="$scratch" -v sys="$name" 'NR > 1 {
        print $10, $13, $11, $12 > (dir "/" sys "-" $3 ".dat") }' "$out"
    plots=""
    for d in "$scratch/$name"-*.dat; do
        op=${d##*/"$name"-}
        op=${op%.dat}
        plots="$plots${plots:+, }'$d' using 1:2:3:4 with xerrorbars pointsize 1.2 title '$op'"
    done
    gnuplot <<PLOT
set terminal pngcairo noenhanced size 900,700 font ',11'
set output '$results/cloud-noise-$name.png'
set title "cloud-noise $name: simcoll against the measured median (bars: p10 to p90 of the iterations)"
set logscale xy
set format x '%.0e'
set format y '%.0e'
set xlabel 'measured: median over iterations of the slowest rank (s)'
set ylabel 'predicted: simcoll sim_time_s (s)'
set grid
set key top left
plot $plots, x title 'predicted = measured' lt -1 dt 2, 2*x title 'x2' lt 0, 0.5*x title '/2' lt 0
PLOT
done
cp "$all" "$scratch/all-final.csv"
echo "results: $results/cloud-noise-{inventory.txt,SYSTEM.csv,SYSTEM-summary.txt,SYSTEM.png,SYSTEM.xml,SYSTEM-fit.txt,SYSTEM-residuals.txt}"
