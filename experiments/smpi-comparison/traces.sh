#!/bin/sh
# simcoll against SMPI on whole applications: each shipped trace and
# program that SMPI's time-independent format can hold is run by simcoll,
# which also writes it as SMPI time-independent traces (simcoll run
# --export-ti), and SMPI's replay (smpirun -replay ... smpireplaymain) runs
# those on the same platform, with the same collective algorithms where
# both have them. Writes results/traces.csv and prints it.
# Needs a built simcoll (./setup.sh) and SMPI (smpirun: Debian's
# libsimgrid-dev); a few seconds. RESULTS=DIR writes traces.csv there.
# usage: experiments/smpi-comparison/traces.sh [path/to/simcoll]
# SPDX-License-Identifier: GPL-2.0-or-later
set -eu
. "$(dirname "$0")/../common.sh"
simcoll=${1:-$top/build/simcoll}
need_simcoll "$simcoll"
command -v smpirun >/dev/null || { echo "traces.sh: needs smpirun (apt-get install libsimgrid-dev)" >&2; exit 2; }
replayer=$(dirname "$(readlink -f "$(command -v smpirun)")")/../lib/$(gcc -print-multiarch 2>/dev/null || echo x86_64-linux-gnu)/simgrid/smpireplaymain
[ -x "$replayer" ] || replayer=$(find /usr/lib -name smpireplaymain -type f 2>/dev/null | head -n 1)
[ -x "$replayer" ] || { echo "traces.sh: SMPI's smpireplaymain not found (libsimgrid-dev)" >&2; exit 2; }
results=${RESULTS:-$results}

# The platform of run.sh (ib4x.xml's nodes, 8 of 8 cores, without what SMPI
# models otherwise: software overheads, header bytes, two eager limits,
# computing's and combining's time).
"$simcoll" platform --like "$top/platforms/ib4x.xml" --nodes 8 -o "$scratch/ib4x.xml"
sed -e 's#"simcoll/\(intra\|inter\)/\(send\|recv\)-overhead" value="[^"]*"#"simcoll/\1/\2-overhead" value="0:0us"#' \
    -e 's#"simcoll/\(intra\|inter\)/eager-limit" value="[^"]*"#"simcoll/\1/eager-limit" value="65536"#' \
    -e 's#"simcoll/header-bytes" value="[^"]*"#"simcoll/header-bytes" value="0"#' \
    -e 's#speed="[^"]*"#speed="1e15f"#' "$scratch/ib4x.xml" |
    sed 's#\(_membus" bandwidth="\)[^"]*"#\11e15Bps"#' > "$scratch/platform.xml"
awk 'BEGIN { for (n = 0; n < 8; n++) for (c = 0; c < 8; c++) print "node-" n }' > "$scratch/hosts"

# The same algorithm in both (run.sh's pairs); the collectives simcoll has
# no choice of (alltoall, alltoallv, gather) run as MPICH's exchanges in
# simcoll (algorithms/irregular/) and as SMPI's of the same shape.
algos=barrier=barrier,bcast=bcast-binomial,allreduce=allreduce-rd,reduce=reduce-mst
smpi_algos="--cfg=smpi/barrier:ompi_bruck --cfg=smpi/bcast:binomial_tree --cfg=smpi/allreduce:rdb
 --cfg=smpi/reduce:binomial --cfg=smpi/alltoall:basic_linear --cfg=smpi/alltoallv:ompi_basic_linear
 --cfg=smpi/gather:ompi_binomial"

# input, --np for programs (traces have their own)
inputs="third_party/traces/sst-dumpi-testtrace-4/testtrace.meta -
third_party/traces/pipit-pingpong-otf2-2/traces.otf2 -
third_party/traces/sst-macro-dumpi-bgp-7/testbgp.meta -
third_party/traces/simgrid-ti-32/smpi_replay.txt -
experiments/packing/halo.prog 16
experiments/packing/cg.prog 64
experiments/what-if/stencil.prog 64"

csv=$results/traces.csv
echo "input,ranks,simcoll_s,smpi_s,difference_pct" > "$csv"
echo "$inputs" | while read -r input np; do
    out=$scratch/ti-$(echo "$input" | tr / _)
    set -- --platform "$scratch/platform.xml" --algos "$algos" --format csv --export-ti "$out"
    [ "$np" = - ] || set -- "$@" --np "$np" --no-payload
    line=$("$simcoll" run "$@" "$top/$input" 2>/dev/null | sed -n 2p)
    # sim_time_s is column 9 of a trace's row, 7 of a program's
    if [ "$np" = - ]; then
        mine=$(echo "$line" | cut -d, -f9)
        ranks=$(echo "$line" | cut -d, -f3)
    else
        mine=$(echo "$line" | cut -d, -f7)
        ranks=$np
    fi
    # SMPI sends eagerly below its threshold (smpi_request.cpp: size <
    # async_small_thresh), simcoll up to its eager limit: 65537 is both's
    # 64 KiB. shellcheck disable=SC2086 # the settings are words
    other=$(cd "$out" && smpirun -np "$ranks" -platform "$scratch/platform.xml" \
        -hostfile "$scratch/hosts" -replay index.txt $smpi_algos \
        --cfg=network/model:CM02 --cfg=network/crosstraffic:0 --cfg=surf/precision:1e-12 \
        --cfg=smpi/bw-factor:1 --cfg=smpi/lat-factor:1 --cfg=smpi/async-small-thresh:65537 \
        --cfg=smpi/send-is-detached-thresh:65537 --log=root.thresh:error \
        --log=smpi_replay.thresh:info "$replayer" 2>&1 |
        sed -n 's/.*Simulation time \([0-9.e+-]*\).*/\1/p' | tail -n 1)
    awk -v i="$input" -v n="$ranks" -v x="$mine" -v y="$other" \
        'BEGIN { printf "%s,%d,%.9g,%.9g,%.2f\n", i, n, x, y, 100 * (x - y) / y }' >> "$csv"
done
cat "$csv"
