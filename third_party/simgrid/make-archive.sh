#!/bin/sh
# Makes simgrid-4.1.tar.xz, the SimGrid sources the bundled build compiles
# (SIMCOLL_SIMGRID=bundled, cmake/simgrid.cmake), from a clone of SimGrid's
# repository: the files of manifest.txt (a line ending in / is a whole
# folder) at tag v4.1, under simgrid-4.1/. Only what configuring and building
# the library needs is kept: the rest of the tree (docs, the examples' and
# tests' data, the Java and Python bindings) is what no build of ours reads
# (README.md: how the manifest was found, and the sizes).
# Usage: make-archive.sh SIMGRID_GIT_DIR
# SPDX-License-Identifier: GPL-2.0-or-later
set -eu
[ $# -eq 1 ] || { echo "usage: $0 SIMGRID_GIT_DIR" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
tag=v4.1
# git archive dates every file with the tag's commit, so the same tag makes
# the same archive byte for byte (xz single-threaded likewise).
git --git-dir="$1" archive --format=tar --prefix=simgrid-4.1/ "$tag" \
    -- $(cat "$here/manifest.txt") | xz -9e -T1 > "$here/simgrid-4.1.tar.xz.new"
mv "$here/simgrid-4.1.tar.xz.new" "$here/simgrid-4.1.tar.xz"
sha256sum "$here/simgrid-4.1.tar.xz"
