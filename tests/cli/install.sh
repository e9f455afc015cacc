#!/bin/sh
# What `cmake --install` puts in a prefix works from there: one header,
# simcoll.h, found by pkg-config, compiles a plug-in that the installed
# simcoll loads and runs right, and a shipped platform is found by name.
# usage: install.sh BUILD_DIR
# SPDX-License-Identifier: GPL-2.0-or-later
set -u
build=$1
. "$(dirname "$0")/lib.sh"

cmake --install "$build" --prefix "$work/prefix" > /dev/null || fail "cmake --install"
[ "$(ls "$work/prefix/include/simcoll")" = simcoll.h ] ||
    fail "installed headers: $(ls -R "$work/prefix/include/simcoll")"
pc=$(find "$work/prefix" -name simcoll.pc)
[ -n "$pc" ] || fail "no simcoll.pc"
cflags=$(PKG_CONFIG_PATH=$(dirname "$pc") pkg-config --cflags simcoll) || fail "pkg-config"
cd "$work" || exit 1
"$work/prefix/bin/simcoll" new-algo bcast my_bcast -o my_bcast.c > /dev/null || fail "new-algo"
# shellcheck disable=SC2086 # cflags is a list of flags
cc -std=c11 -Wall -Wextra -Wpedantic -Werror -shared -fPIC $cflags my_bcast.c -o my_bcast.so ||
    fail "cc my_bcast.c $cflags"
"$work/prefix/bin/simcoll" --platform gige.xml --load ./my_bcast.so --algo my_bcast --np 9 \
    > out.txt 2> err.txt || fail "the installed simcoll: $(cat err.txt)"
grep -q "my_bcast .* yes" out.txt || fail "my_bcast.so: $(cat out.txt)"
echo "install.sh: the installed tree works"
