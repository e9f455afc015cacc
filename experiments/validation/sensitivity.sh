#!/bin/sh
# Which parameter each validated prediction depends on (issue 28): simcoll
# --sensitivity on the shipped platforms at points of the Jet, alaska,
# cclake and ORFEO validations (run.sh, excalibur.sh, orfeo.sh), each
# collective as the library ran it, and on the platforms cloud-noise.sh
# fitted (results/) at points of its validation. Writes, per point, the parameters whose
# elasticity is at least 0.05 in size (the time's relative change over the
# parameter's, from runs 1% above and below) to results/sensitivity.txt.
# Needs only simcoll and the shipped platforms; about a minute.
# usage: experiments/validation/sensitivity.sh [path/to/simcoll]
# SPDX-License-Identifier: GPL-2.0-or-later
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
simcoll=${1:-$top/build/simcoll}
[ -x "$simcoll" ] || { echo "sensitivity.sh: build simcoll first (./setup.sh)" >&2; exit 2; }
out=$top/experiments/validation/results/sensitivity.txt
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT

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

# cloud_noise SYSTEM ARGS...: a point of cloud-noise.sh, one rank a node on
# the platform it fitted (results/cloud-noise-SYSTEM.xml), the algorithm
# that sends the benchmark's messages.
cloud_noise() {
    name=$1
    plat=$top/experiments/validation/results/cloud-noise-$name.xml
    shift
    echo "== cloud-noise-$name.xml $*"
    "$simcoll" --platform "$plat" --mapping cyclic "$@" --no-payload --sensitivity | significant
}

{
    point gige.xml mpich2-1.2.1 --coll barrier --np 16
    point gige.xml mpich2-1.2.1 --coll barrier --np 64
    for size in 1 2K 64K 1M; do
        point gige.xml mpich2-1.2.1 --coll bcast --np 64 --size $size
    done
    for plat in ib4x-edr.xml ib-hdr100.xml; do
        for size in 4 64K 1M; do
            point $plat openmpi-4.0 --coll allreduce --np 64 --op sum --type int --size $size
        done
        for size in 1 64K 1M; do
            point $plat openmpi-4.0 --coll allgather --np 64 --size $size
        done
    done
    point orfeo-genoa.xml openmpi-4.1 --coll bcast --np 2 --size 1K
    point orfeo-genoa.xml openmpi-4.1 --coll bcast --np 64 --size 128K
    # dissemination of 16 B on 4 nodes; pipelined ring of 16 MiB on 4 nodes
    # (4 segments of 4 MiB) and on 32 (512 KiB)
    for system in daint deep-est gcp; do
        cloud_noise $system --algo barrier --np 4
    done
    cloud_noise daint --algo ring --np 5 --size 4M
    cloud_noise gcp --algo ring --np 5 --size 4M
    cloud_noise alps --algo ring --np 33 --size 512K
} > "$tmp"
mv "$tmp" "$out"
trap - EXIT
echo "sensitivity.sh: wrote $out"
