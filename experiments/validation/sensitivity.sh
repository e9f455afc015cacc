#!/bin/sh
# Which parameter each validated prediction depends on (issue 28), and what
# the unmeasured ones could make of it.
#
# 1. simcoll --sensitivity on the shipped platforms at points of the Jet,
#    alaska, cclake, their RoCE twins and ORFEO validations (run.sh,
#    excalibur.sh, orfeo.sh: broadcasts and scatters), each collective as the
#    library ran it, and on the platforms cloud-noise.sh fitted (results/) at
#    points of its validation; for the rankings it missed, the two algorithms'
#    elasticities side by side and their ratio's. Writes, per point, the
#    parameters whose elasticity is at least 0.05 in size (the time's
#    relative change over the parameter's, from runs 1% above and below) to
#    results/sensitivity.txt.
# 2. The parameters the validation README and the platforms' comments call
#    assumed, borrowed or a bound, given as ranges from the bounds cited in
#    the copies' comments: properties as simcoll's ranges (LO..HI, the run
#    reports the time over every corner), link latencies and bandwidths,
#    which cannot be ranges yet, as one copy of the platform at each end.
#    The copies go to results/sensitivity-ranged/ (the shipped and committed
#    platforms are not changed); the predicted intervals, against the
#    measurements of the validations' own result files, to
#    results/sensitivity-ranges.txt.
# Needs only simcoll, the shipped platforms and the committed results; about a
# minute.
# usage: experiments/validation/sensitivity.sh [path/to/simcoll]
# SPDX-License-Identifier: GPL-2.0-or-later
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
simcoll=${1:-$top/build/simcoll}
[ -x "$simcoll" ] || { echo "sensitivity.sh: build simcoll first (./setup.sh)" >&2; exit 2; }
results=$top/experiments/validation/results
out=$results/sensitivity.txt
rout=$results/sensitivity-ranges.txt
copies=$results/sensitivity-ranged
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The parameters of a --sensitivity run whose elasticity matters.
significant() {
    awk '/^sensitivity/ { print; next }
         /^parameter/ { on = 1; print; next }
         /^(what|\()/ { on = 0 }
         on && ($(NF - 1) >= 0.05 || $(NF - 1) <= -0.05 || $NF >= 0.05 || $NF <= -0.05)'
}

# point PLATFORM PROFILE ARGS...: one point's parameters that matter.
point() {
    plat=$1 profile=$2
    shift 2
    echo "== $plat --mpi $profile $*"
    "$simcoll" --platform "$plat" --mpi "$profile" "$@" --no-payload --sensitivity | significant
}

# algo PLATFORM ARGS...: the same, for a forced algorithm (ORFEO's
# coll_tuned_*_algorithm runs, and coll/han's at 128 ranks).
algo() {
    plat=$1
    shift
    echo "== $plat $*"
    "$simcoll" --platform "$plat" "$@" --no-payload --sensitivity | significant
}

# cloud_noise SYSTEM ARGS...: a point of cloud-noise.sh, one rank a node on
# the platform it fitted (results/cloud-noise-SYSTEM.xml), the algorithm
# that sends the benchmark's messages.
cloud_noise() {
    name=$1
    plat=$results/cloud-noise-$name.xml
    shift
    echo "== cloud-noise-$name.xml $*"
    "$simcoll" --platform "$plat" --mapping cyclic "$@" --no-payload --sensitivity | significant
}

# ranking SYSTEM NP "ALGO [--size S]" "ALGO [--size S]": for a ranking the
# validation missed, both algorithms' elasticities of sim_time_s (the
# slowest rank's, what cloud-noise.sh ranks) side by side, and their
# ratio's, B's time over A's: e(B) - e(A). A parameter flips the predicted
# order when its change, times the ratio's elasticity, passes ln(B / A).
ranking() {
    name=$1 np=$2 a=$3 b=$4
    plat=$results/cloud-noise-$name.xml
    echo "== ranking cloud-noise-$name.xml --np $np: A = $a, B = $b"
    # shellcheck disable=SC2086 # each algorithm is its options, one a word
    "$simcoll" --platform "$plat" --mapping cyclic --np "$np" --algo $a --no-payload \
        --sensitivity > "$work/a.txt"
    # shellcheck disable=SC2086
    "$simcoll" --platform "$plat" --mapping cyclic --np "$np" --algo $b --no-payload \
        --sensitivity > "$work/b.txt"
    awk 'function secs(v, u) { return v * (u == "s" ? 1 : u == "ms" ? 1e-3 : u == "us" ? 1e-6 : 1e-9) }
         /^sensitivity of/ { t = $0; sub(/.*time \(/, "", t); split(t, f, /[ )]/); T[FILENAME == ARGV[1]] = secs(f[1], f[2]) }
         /^parameter/ { on = 1; next }
         /^(what|\()/ { on = 0 }
         on { e[FILENAME == ARGV[1], $1] = $(NF - 1); v[$1] = $2; if (!($1 in seen)) { seen[$1] = 1; order[++n] = $1 } }
         END {
             printf "simulated time: A %.4g us, B %.4g us, B / A %.4f (ln %.4f)\n", T[1] * 1e6, T[0] * 1e6, T[0] / T[1], log(T[0] / T[1])
             printf "%-30s %-14s %8s %8s %8s\n", "parameter", "value", "e(A)", "e(B)", "e(B/A)"
             for (i = 1; i <= n; i++) {
                 p = order[i]; x = e[1, p] + 0; y = e[0, p] + 0
                 if (x >= 0.05 || x <= -0.05 || y >= 0.05 || y <= -0.05 || y - x >= 0.01 || y - x <= -0.01)
                     printf "%-30s %-14s %8.3f %8.3f %8.3f\n", p, v[p], x, y, y - x
             }
         }' "$work/a.txt" "$work/b.txt"
}

{
    point gige.xml mpich2-1.2.1 --coll barrier --np 16
    point gige.xml mpich2-1.2.1 --coll barrier --np 64
    for size in 1 2K 64K 1M; do
        point gige.xml mpich2-1.2.1 --coll bcast --np 64 --size $size
    done
    for plat in ib4x-edr.xml ib-hdr100.xml; do
        for size in 4 64K 1M; do
            point "$plat" openmpi-4.0 --coll allreduce --np 64 --op sum --type int --size $size
        done
        for size in 1 64K 1M; do
            point "$plat" openmpi-4.0 --coll allgather --np 64 --size $size
        done
    done
    # the RoCE twins (excalibur.sh alaska-roce, cclake-roce): their small and
    # large messages' worst
    point roce-25g.xml openmpi-4.0 --coll allreduce --np 64 --op sum --type int --size 4
    point roce-25g.xml openmpi-4.0 --coll allgather --np 64 --size 64K
    point roce-50g.xml openmpi-4.0 --coll allreduce --np 64 --op sum --type int --size 4
    point roce-50g.xml openmpi-4.0 --coll allreduce --np 64 --op sum --type int --size 1M
    point roce-50g.xml openmpi-4.0 --coll allgather --np 64 --size 64K
    point orfeo-genoa.xml openmpi-4.1 --coll bcast --np 2 --size 1K
    point orfeo-genoa.xml openmpi-4.1 --coll bcast --np 64 --size 128K
    # ORFEO's forced broadcasts (coll_tuned_bcast_algorithm 3 and 1, segment
    # size 0): the pipeline of 4 B and of 256 KiB, basic linear of 4 B
    algo orfeo-genoa.xml --algo bcast-ompi-chain --np 64 --size 4
    algo orfeo-genoa.xml --algo bcast-ompi-chain --np 64 --size 256K
    algo orfeo-genoa.xml --algo bcast-ompi-linear --np 64 --size 4
    # ORFEO's scatters: the default (linear_nb by the fixed rules) of 1 KiB,
    # binomial of 2 KiB and 16 KiB (its 128 KiB messages at the eager limit),
    # linear_nb of 256 KiB on one node, and han's default of 16 KiB on two
    point orfeo-genoa.xml openmpi-4.1 --coll scatter --np 64 --size 1K
    algo orfeo-genoa.xml --algo scatter-ompi-binomial --np 64 --size 2K
    algo orfeo-genoa.xml --algo scatter-ompi-binomial --np 64 --size 16K
    algo orfeo-genoa.xml --algo scatter-ompi-linear-nb --np 64 --size 256K
    algo orfeo-genoa.xml --algo scatter-ompi-han --np 128 --size 16K
    # dissemination of 16 B on 4 nodes; pipelined ring of 16 MiB on 4 nodes
    # (4 segments of 4 MiB) and on 32 (512 KiB)
    for system in daint deep-est gcp; do
        cloud_noise $system --algo barrier --np 4
    done
    cloud_noise daint --algo ring --np 5 --size 4M
    cloud_noise gcp --algo ring --np 5 --size 4M
    cloud_noise alps --algo ring --np 33 --size 512K
    # Daint's broadcasts (the two March runs): binomial of 16 KiB on 8 nodes,
    # binomial and binary tree of 16 MiB on 16
    cloud_noise daint --algo bcast-binomial --np 8 --size 16K
    cloud_noise daint --algo bcast-binomial --np 16 --size 16M
    cloud_noise daint --algo bcast-ompi-bintree --np 16 --size 16M
    # the rankings missed: Daint's 16 B (a broadcast measured fastest,
    # dissemination predicted) and 16 KiB (binomial against binary tree),
    # Azure's 16 B on 8 and 16 nodes (binary tree measured fastest)
    ranking daint 8 "barrier" "bcast-ompi-bintree --size 16"
    ranking daint 8 "bcast-binomial --size 16K" "bcast-ompi-bintree --size 16K"
    ranking azure 8 "barrier" "bcast-ompi-bintree --size 16"
    ranking azure 16 "barrier" "bcast-ompi-bintree --size 16"
} > "$work/sensitivity.txt"

# --- Ranges ----------------------------------------------------------------

# copy SOURCE NAME COMMENT [SED...]: results/sensitivity-ranged/NAME, the
# platform SOURCE with the sed expressions applied and COMMENT after its
# DOCTYPE line; fails unless every expression changed a line (so that a
# platform whose value moved is not silently left as it was).
copy() {
    src=$1 name=$2 comment=$3
    shift 3
    cp "$src" "$work/$name"
    for expr in "$@"; do
        sed "$expr" "$work/$name" > "$work/$name.new"
        cmp -s "$work/$name" "$work/$name.new" &&
            { echo "sensitivity.sh: '$expr' changes nothing in $src" >&2; exit 1; }
        mv "$work/$name.new" "$work/$name"
    done
    awk -v c="$comment" '{ print } /^<!DOCTYPE/ { print "<!-- " c " -->" }' "$work/$name" \
        > "$work/ranged/$name"
}

# seconds "3.684 us": the seconds of one of simcoll's durations.
seconds() {
    awk -v v="$1" -v u="$2" 'BEGIN { printf "%.6g\n", v * (u == "s" ? 1 : u == "ms" ? 1e-3 : u == "us" ? 1e-6 : 1e-9) }'
}

# interval "LABEL" "MEASURED_S..." FIELD PLATFORM... -- ARGS...: the point ARGS
# on each platform (the ends of the link ranges; each may hold property
# ranges, whose corners simcoll runs), the least and most predicted time
# (FIELD sim_time_s or mean_rank_time_s: the measurement's kind) over all
# of them, and whether each measured time falls inside.
interval() {
    label=$1 measured=$2 field=$3
    shift 3
    plats=
    while [ "$1" != -- ]; do plats="$plats $1"; shift; done
    shift
    : > "$work/times"
    for p in $plats; do
        "$simcoll" --platform "$work/ranged/$p" "$@" --no-payload --format csv \
            > "$work/run.csv" 2> "$work/run.err"
        awk -F, -v f="$field" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } { print $(c[f]) }' \
            "$work/run.csv" >> "$work/times"
        # "..., the simulated time is A u to B u (M u at their midpoints), the
        # mean rank time C u to D u"
        sed -n 's/.*the simulated time is \([0-9.e+-]*\) \([a-z]*\) to \([0-9.e+-]*\) \([a-z]*\) (.*mean rank time \([0-9.e+-]*\) \([a-z]*\) to \([0-9.e+-]*\) \([a-z]*\)$/\1 \2 \3 \4 \5 \6 \7 \8/p' \
            "$work/run.err" > "$work/corners"
        if [ -s "$work/corners" ]; then
            read -r a au b bu c cu d du < "$work/corners"
            if [ "$field" = sim_time_s ]; then
                seconds "$a" "$au"; seconds "$b" "$bu"
            else
                seconds "$c" "$cu"; seconds "$d" "$du"
            fi >> "$work/times"
        fi
    done
    echo "$label" | sed 's/^/== /'
    echo "   on$plats: $*"
    sort -g "$work/times" | awk -v m="$measured" -v f="$field" '
        function t(x) { return x >= 1e-3 ? sprintf("%.4g ms", x * 1e3) : sprintf("%.4g us", x * 1e6) }
        NR == 1 { lo = $1 } { hi = $1 }
        END {
            printf "   predicted %s %s to %s;", f, t(lo), t(hi)
            n = split(m, v, " ")
            for (i = 1; i <= n; i++) {
                if (v[i] < lo) where = sprintf("below, %.2f x the least", v[i] / lo)
                else if (v[i] > hi) where = sprintf("above, %.2f x the most", v[i] / hi)
                else where = "inside"
                printf " measured %s (%s)%s", t(v[i]), where, i < n ? ";" : ""
            }
            printf "\n"
        }'
}

# Measured times, from the validations' own result files.
jet() { awk -F, -v o="$1" -v p="$2" '$1 == o && $2 == p { print $4; exit }' "$results/validation.csv"; }
excalibur() { awk -F, -v o="$2" -v s="$3" '$1 == o && $2 == s { print $4; exit }' "$results/excalibur-$1.csv"; }
orfeo() { # FILE SERIES OMPI_ALGORITHM NP SIZE
    awk -F, -v s="$2" -v a="$3" -v n="$4" -v b="$5" '$1 == s && $2 == a && $4 == n && $5 == b { print $7; exit }' "$results/$1"
}
daint() { # OPERATION NODES BYTES: every run's median
    awk -F, -v o="$1" -v n="$2" -v b="$3" '$3 == o && $4 == n && $5 == b { printf "%s ", $10 }' "$results/cloud-noise-daint.csv"
}

mkdir -p "$work/ranged"

# orfeo_interval "LABEL" "MEASURED_S" ARGS...: an ORFEO point's mean rank time
# over the network overhead's range, the eager limit's, and both.
orfeo_interval() {
    olabel=$1 omeasured=$2
    shift 2
    interval "$olabel: network send overhead" "$omeasured" mean_rank_time_s orfeo-genoa-overheads.xml -- "$@"
    interval "$olabel: eager limit" "$omeasured" mean_rank_time_s orfeo-genoa-eager.xml -- "$@"
    interval "$olabel: both" "$omeasured" mean_rank_time_s orfeo-genoa-ranged.xml -- "$@"
}

# Jet: the network level is graphene's (platforms/gige.xml): the one-way
# latency of a small message there is 34.2 us (L = 17.94 us of it, 8.97 us
# on each NIC link). Jet's own NIC and driver are not recorded. Bounds: below,
# graphene's (Nehalem against Jet's older Harpertown cores); above, 62.5 us
# one way, E. Jones's 125 us round trip of one byte over TCP with the e1000
# driver's default interrupt throttling ("Gigabit Ethernet Latency with
# Intel's 1000/Pro Adapters (e1000)", evanjones.ca, 2008-11-07; J. Loncaric,
# beowulf.org list, 2005-02-04: e1000's dynamic throttling delays an
# interrupt by up to about 130 us): L = 17.94 + (62.5 - 34.2) = 46.24 us.
gige=$top/platforms/gige.xml
copy "$gige" gige-latency-lo.xml "sensitivity.sh: platforms/gige.xml as shipped (its network latency, graphene's 17.94 us one way, the low end of Jet's)"
copy "$gige" gige-latency-hi.xml "sensitivity.sh: platforms/gige.xml with the network latency 46.24 us one way (23.12 us on each NIC link) instead of 17.94: a small message 62.5 us one way, the e1000 default interrupt throttling's (sensitivity.sh cites the bounds)" \
    's/_nic" bandwidth="115.73MBps" latency="8.97us"/_nic" bandwidth="115.73MBps" latency="23.12us"/'

# alaska, cclake and their RoCE twins: shared memory's latency is the DRAM's
# tRCD + CL (28 ns; 28.64 ns on cclake), a lower bound: no ping-pong inside
# these nodes was published. Above: 452.1 ns, the latency simcoll calibrate
# fitted to ORFEO's ping-pong between two sockets (results/orfeo-fit-socket.txt),
# the one MPI ping-pong across a node's sockets in these data sets (another
# CPU: a plausible bound for a message to the other socket, as half of each
# rank's on-node partners are).
for plat in ib4x-edr ib-hdr100 roce-25g roce-50g; do
    case $plat in ib4x-edr | roce-25g) dram=28ns ;; *) dram=28.64ns ;; esac
    copy "$top/platforms/$plat.xml" $plat-intra-latency-lo.xml "sensitivity.sh: platforms/$plat.xml as shipped (shared memory's latency $dram, the DRAM's, the low end)"
    copy "$top/platforms/$plat.xml" $plat-intra-latency-hi.xml "sensitivity.sh: platforms/$plat.xml with shared memory's latency 452.1 ns (ORFEO's fitted latency between two sockets) instead of the DRAM's $dram" \
        "s/_membus\" \\(bandwidth=\"[^\"]*\"\\) latency=\"$dram\"/_membus\" \\1 latency=\"452.1ns\"/"
done

# ORFEO: the network's o_s = o_r = 50 ns is an assumption (half the fastest
# one-way time, 0.10 us inside a CCX), and so is shared memory's o_s (half of
# each placement's one-way time, per size: no range, as it is no constant);
# the eager limit inside a node, 128 KiB, is where the ping-pong flattens,
# which the scatters contradict (the validation README); the gap is another
# adapter's. As ranges (o_r has no constant form, so stays 50 ns):
#   inter o_s 78.889 ns .. 583 ns: netgauge's 1-byte o_s of two Open MPI
#     libraries over UCX and InfiniBand in the cloud_noise data (Azure's HPC-X
#     2.8.3, DEEP-EST's Open MPI 4.1.3: results/cloud-noise-{azure,deep-est}.xml).
#   intra eager limit 4 KiB .. 128 KiB: Open MPI 5's btl/sm default
#     (btl_eager_limit = 4 * 1024 in opal/mca/btl/sm/btl_sm_component.c, 32
#     KiB with a single-copy component that can map) to the platform's.
# Three copies: the overhead's range alone, the eager limit's alone, both,
# so that an interval says which assumption reaches the measurement.
orfeo_os2='s|<prop id="simcoll/inter/send-overhead" value="0:50ns:0s"/>|<prop id="simcoll/inter/overhead" value="78.889ns..583ns"/>|'
orfeo_eager='s|<prop id="simcoll/intra/eager-limit" value="131072"/>|<prop id="simcoll/intra/eager-limit" value="4096..131072"/>|'
copy "$top/platforms/orfeo-genoa.xml" orfeo-genoa-overheads.xml "sensitivity.sh: platforms/orfeo-genoa.xml with the network's assumed send overhead as a range, 78.889..583 ns (o_r stays 50 ns); sensitivity.sh cites the bounds" \
    "$orfeo_os2"
copy "$top/platforms/orfeo-genoa.xml" orfeo-genoa-eager.xml "sensitivity.sh: platforms/orfeo-genoa.xml with shared memory's eager limit a range, 4 KiB (Open MPI 5's btl/sm) .. 128 KiB (the platform's); sensitivity.sh cites the bounds" \
    "$orfeo_eager"
copy "$top/platforms/orfeo-genoa.xml" orfeo-genoa-ranged.xml "sensitivity.sh: platforms/orfeo-genoa.xml with two assumed parameters as ranges: the network's o_s 78.889..583 ns (o_r stays 50 ns), shared memory's eager limit 4 KiB..128 KiB; sensitivity.sh cites the bounds" \
    "$orfeo_os2" "$orfeo_eager"

# Piz Daint: the platform is one May point-to-point run within a rack
# (daint/2022_05_19_13_03_39: 16 MiB one way in 1798 us, an exchange of 4 MiB
# in 642.7 us); the March broadcasts ran over five cabinets, and the March
# runs between racks took 2191 and 2864 us one way at 16 MiB, 1046 and 1317
# us for the exchange (results/cloud-noise-daint-p2p-runs.txt). Bandwidth
# 9.36 GB/s x 1798 / 2864 = 5.876 GB/s at the low end (the link: a copy),
# B_bi 2 x 4 MiB / 1317 us = 6.370 GB/s .. the platform's 13.81 (a range).
daint_bw='s|<link id="network" bandwidth="9.360304357GBps"|<link id="network" bandwidth="5.876GBps"|'
daint_bi='s|<prop id="simcoll/inter/bidirectional-bandwidth" value="13.80522678GBps"/>|<prop id="simcoll/inter/bidirectional-bandwidth" value="6.370GBps..13.80522678GBps"/>|'
copy "$results/cloud-noise-daint.xml" daint-bandwidth-lo.xml "sensitivity.sh: results/cloud-noise-daint.xml with the network bandwidth 5.876 GB/s (the March runs between racks: 16 MiB one way in 2864 us) and B_bi a range 6.370 GB/s .. 13.81 GB/s" \
    "$daint_bw" "$daint_bi"
copy "$results/cloud-noise-daint.xml" daint-bandwidth-hi.xml "sensitivity.sh: results/cloud-noise-daint.xml (its network bandwidth, 9.36 GB/s) with B_bi a range 6.370 GB/s .. 13.81 GB/s" \
    "$daint_bi"

# shellcheck disable=SC2086 # $jl, $il, $dl: lists of platforms, one a word
{
    echo "# Predicted intervals over the ranges of assumed parameters (sensitivity.sh cites"
    echo "# the bounds; the copies are in results/sensitivity-ranged/), against the measured"
    echo "# times of the validations' result files; OSU's average is the mean rank time,"
    echo "# mpiperf's and cloud_noise's the slowest rank's (sim_time_s)."
    jl="gige-latency-lo.xml gige-latency-hi.xml"
    interval "Jet barrier, 16 ranks (validation.csv)" "$(jet barrier 16)" sim_time_s $jl -- \
        --coll barrier --mpi mpich2-1.2.1 --np 16
    interval "Jet barrier, 64 ranks" "$(jet barrier 64)" sim_time_s $jl -- \
        --coll barrier --mpi mpich2-1.2.1 --np 64
    interval "Jet bcast 1 B, 64 ranks" "$(jet bcast 1)" sim_time_s $jl -- \
        --coll bcast --mpi mpich2-1.2.1 --np 64 --size 1
    for s in alaska:ib4x-edr cclake:ib-hdr100 alaska-roce:roce-25g cclake-roce:roce-50g; do
        sys=${s%%:*} plat=${s#*:}
        il="$plat-intra-latency-lo.xml $plat-intra-latency-hi.xml"
        interval "$sys allreduce 4 B, 64 ranks (excalibur-$sys.csv)" "$(excalibur "$sys" allreduce 4)" \
            mean_rank_time_s $il -- --coll allreduce --mpi openmpi-4.0 --np 64 --op sum --type int --size 4
        interval "$sys allgather 1 B, 64 ranks" "$(excalibur "$sys" allgather 1)" mean_rank_time_s $il -- \
            --coll allgather --mpi openmpi-4.0 --np 64 --size 1
    done
    # The ORFEO points: LABEL|FILE SERIES ALGORITHM NP BYTES of the measurement
    # (orfeo above)|simcoll's algorithm|its --size, on NP ranks.
    while IFS='|' read -r label measured algo size; do
        # shellcheck disable=SC2086 # the measurement's five words
        set -- $measured
        orfeo_interval "$label" "$(orfeo "$@")" --algo "$algo" --np "$4" --size "$size" </dev/null
    done <<'POINTS'
ORFEO bcast basic linear 4 B, 64 ranks (orfeo.csv, fixed)|orfeo.csv fixed 1 64 4|bcast-ompi-linear|4
ORFEO bcast basic linear 4 B, 96 ranks (two nodes)|orfeo.csv fixed 1 96 4|bcast-ompi-linear|4
ORFEO bcast pipeline 4 B, 64 ranks|orfeo.csv fixed 3 64 4|bcast-ompi-chain|4
ORFEO bcast binary tree 64 KiB, 64 ranks (varied)|orfeo.csv varied 5 64 65536|bcast-ompi-bintree|64K
ORFEO bcast pipeline 256 KiB, 64 ranks (varied)|orfeo.csv varied 3 64 262144|bcast-ompi-chain|256K
ORFEO scatter basic linear 4 B, 64 ranks (orfeo-osu-scatter.csv, varied)|orfeo-osu-scatter.csv varied 1 64 4|scatter-ompi-linear|4
ORFEO scatter basic linear 16 KiB, 64 ranks|orfeo-osu-scatter.csv varied 1 64 16384|scatter-ompi-linear|16K
ORFEO scatter binomial 2 KiB, 64 ranks|orfeo-osu-scatter.csv varied 2 64 2048|scatter-ompi-binomial|2K
ORFEO scatter linear_nb 256 KiB, 64 ranks|orfeo-osu-scatter.csv varied 3 64 262144|scatter-ompi-linear-nb|256K
ORFEO scatter default (han) 16 KiB, 128 ranks|orfeo-osu-scatter.csv varied 0 128 16384|scatter-ompi-han|16K
POINTS
    dl="daint-bandwidth-lo.xml daint-bandwidth-hi.xml"
    interval "Daint binomial bcast 16 MiB, 16 nodes (cloud-noise-daint.csv, both March runs)" \
        "$(daint binomialtreebcast 16 16777216)" sim_time_s $dl -- \
        --algo bcast-binomial --np 16 --size 16M --mapping cyclic
    interval "Daint binary tree bcast 16 MiB, 16 nodes" "$(daint binarytreebcast 16 16777216)" \
        sim_time_s $dl -- --algo bcast-ompi-bintree --np 16 --size 16M --mapping cyclic
    interval "Daint binomial bcast 16 KiB, 8 nodes" "$(daint binomialtreebcast 8 16384)" \
        sim_time_s $dl -- --algo bcast-binomial --np 8 --size 16K --mapping cyclic
    interval "Daint pipelined ring 16 MiB, 4 nodes (every run)" "$(daint pipelinedring 4 16777216)" \
        sim_time_s $dl -- --algo ring --np 5 --size 4M --mapping cyclic
} > "$work/ranges.txt"

mv "$work/sensitivity.txt" "$out"
mv "$work/ranges.txt" "$rout"
rm -rf "$copies"
mv "$work/ranged" "$copies"
echo "sensitivity.sh: wrote $out, $rout and $copies/"
