#!/bin/sh
# Installs what simcoll needs on Debian 12, builds it, and runs one simulation.
# Extra arguments go to cmake (e.g. -DSIMCOLL_WERROR=ON).
# SPDX-License-Identifier: GPL-2.0-or-later
set -eu
cd "$(dirname "$0")"

packages="gcc make cmake pkg-config libsimgrid-dev libigraph-dev libcunit1-dev libxml2-dev"
sudo=""
[ "$(id -u)" -eq 0 ] || sudo=sudo
missing=""
for p in $packages; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' || missing="$missing $p"
done
if [ -n "$missing" ]; then
    echo "installing: $missing"
    $sudo apt-get update
    $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends $missing
fi

cmake -S . -B build "$@"
cmake --build build -j "$(nproc)"

./build/simcoll --platform platforms/ib4x.xml --algo bruck
