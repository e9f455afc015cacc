#!/bin/sh
# Installs what simcoll needs on Debian 12, builds and installs it, and runs
# the main job on a shipped platform.
# Extra arguments go to cmake (e.g. -DSIMCOLL_WERROR=ON). simcoll runs on
# SimGrid 4.1, built from third_party/simgrid once into
# SIMCOLL_SIMGRID_CACHE (~/.cache/simcoll) and reused (cmake/simgrid.cmake);
# with -DSIMCOLL_SIMGRID=system (or SIMCOLL_SIMGRID=system in the
# environment), on Debian's SimGrid 3.32 instead.
# SPDX-License-Identifier: GPL-2.0-or-later
set -eu
cd "$(dirname "$0")"

# libscotch-dev and libmetis-dev are optional (--partitioner scotch|metis),
# libopen-trace-format2-dev too (OTF2 traces; otf2-tools' otf2-print is the
# tests' independent reading of them). patch applies simcoll's fix to the
# bundled SimGrid and lab 2's solution to its handout (the labs' test).
packages="gcc g++ make cmake pkg-config libigraph-dev libcunit1-dev libxml2-dev libjemalloc-dev help2man gnuplot-nox pajeng perl patch openmpi-bin libopenmpi-dev libscotch-dev libmetis-dev libopen-trace-format2-dev otf2-tools"
simgrid=${SIMCOLL_SIMGRID:-bundled}
for arg in "$@"; do
    case $arg in -DSIMCOLL_SIMGRID=*) simgrid=${arg#-DSIMCOLL_SIMGRID=} ;; esac
done
# SimGrid's own build needs Boost's headers; Debian's SimGrid is a package.
case $simgrid in
    bundled) packages="$packages libboost-dev" ;;
    system) packages="$packages libsimgrid-dev" ;;
esac
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

# Installed under PREFIX (default /usr/local as root, ~/.local otherwise):
# simcoll in PREFIX/bin, the shipped platforms where it finds them by name.
if [ "$(id -u)" -eq 0 ]; then prefix=${PREFIX:-/usr/local}; else prefix=${PREFIX:-$HOME/.local}; fi
cmake -S . -B build -DCMAKE_INSTALL_PREFIX="$prefix" -DSIMCOLL_SIMGRID="$simgrid" "$@"
cmake --build build -j "$(nproc)"
cmake --install build >/dev/null
echo "installed $prefix/bin/simcoll"

# The main job, as from any directory once installed:
cd /tmp && "$prefix/bin/simcoll" --platform ib4x.xml --algo bruck-reorder
