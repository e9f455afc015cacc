#!/bin/sh
# Which parameter each validated prediction depends on (issue 28): simcoll
# --sensitivity on the shipped platforms at points of the Jet, alaska,
# cclake and ORFEO validations (run.sh, excalibur.sh, orfeo.sh), each
# collective as the library ran it. Writes, per point, the parameters whose
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

# point PLATFORM PROFILE ARGS...: one point's parameters that matter.
point() {
    plat=$1 profile=$2
    shift 2
    echo "== $plat --mpi $profile $*"
    "$simcoll" --platform "$plat" --mpi "$profile" "$@" --no-payload --sensitivity |
        awk '/^sensitivity/ { print; next }
             /^parameter/ { on = 1; print; next }
             /^(what|\()/ { on = 0 }
             on && ($(NF - 1) >= 0.05 || $(NF - 1) <= -0.05 || $NF >= 0.05 || $NF <= -0.05)'
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
} > "$tmp"
mv "$tmp" "$out"
trap - EXIT
echo "sensitivity.sh: wrote $out"
