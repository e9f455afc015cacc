#!/bin/sh
# Refuses a dependency that points up the layers (ARCHITECTURE.md): an
# #include of a higher layer's header, or a call of a function a higher
# layer defines. Static libraries alone would not catch the call: an object
# of a higher layer already linked in satisfies it.
# usage: layers.sh SOURCE_DIR BUILD_DIR
# SPDX-License-Identifier: GPL-2.0-or-later
set -eu
export LC_ALL=C
src=$1
build=$2

# Each layer and the layers it may use, lowest first. sim/protocol,
# sim/io and sim/trace are siblings: none uses another; sim/program's cost
# model evaluates its statements' schedules (sim/replay). sim/tracer is no
# layer (libsimcoll-trace.so links none) but compiles in sim/trace's
# otf2_error.c, libotf2's complaints as messages.
ALLOWED='common: common
models: models common
algorithms: algorithms models common
protocol: protocol algorithms models common
io: io models common
program: program replay protocol trace algorithms models common
trace: trace common
replay: replay protocol trace algorithms models common
simgrid: simgrid replay io trace protocol algorithms models common
engine: engine simgrid replay program io trace protocol algorithms models common
analysis: analysis engine simgrid replay program io trace protocol algorithms models common
cli: cli analysis engine simgrid replay program io trace protocol algorithms models common
tracer: tracer trace common'
# For awk: may[LAYER] is " LAYER and those it may use ", from $ALLOWED.
READ_ALLOWED='
    function read_allowed(    n, rows, i, w) {
        n = split(allowed, rows, "\n")
        for (i = 1; i <= n; i++) {
            split(rows[i], w, " ")
            may[substr(w[1], 1, length(w[1]) - 1)] = rows[i] " "
        }
    }'
LAYERS="common models algorithms protocol io program trace replay simgrid engine analysis cli"

cd "$src"
files=$(find common models algorithms sim -name '*.[ch]' -o -name '*.cpp' -o -name '*.hpp')
# Every quoted #include: relative to the file's folder when such a file
# exists, else to the tree; its layer against the file's.
upward=$(grep -H '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' $files |
    awk -v list="$files" -v allowed="$ALLOWED" "$READ_ALLOWED"'
        BEGIN {
            n = split(list, f, "\n"); for (i = 1; i <= n; i++) exists[f[i]] = 1
            read_allowed()
        }
        function layer(path) {
            if (path ~ /^sim\//) { split(path, p, "/"); return p[2] == "protocol" || p[2] == "io" ||
                                    p[2] == "program" || p[2] == "trace" || p[2] == "replay" ||
                                    p[2] == "simgrid" || p[2] == "engine" || p[2] == "analysis" ||
                                    p[2] == "cli" || p[2] == "tracer" ? p[2] : "" }
            if (path ~ /^(common|models|algorithms)\//) { split(path, p, "/"); return p[1] }
            return ""
        }
        function normal(path,    parts, n, i, out, k) {
            n = split(path, parts, "/"); k = 0
            for (i = 1; i <= n; i++)
                if (parts[i] == "..") k--; else if (parts[i] != ".") out[++k] = parts[i]
            path = out[1]
            for (i = 2; i <= k; i++) path = path "/" out[i]
            return path
        }
        {
            file = substr($0, 1, index($0, ":") - 1)
            inc = $0; sub(/^[^"]*"/, "", inc); sub(/".*/, "", inc)
            dir = file; sub(/\/[^\/]*$/, "", dir)
            target = normal(dir "/" inc)
            if (!(target in exists)) target = inc
            from = layer(file); to = layer(target)
            if (to != "" && index(may[from], " " to " ") == 0)
                printf "layers: %s (%s) includes %s (%s), a layer above it\n", file, from, target, to
        }')
bad=0
if [ -n "$upward" ]; then
    echo "$upward"
    bad=1
fi

# Calls: each layer's library may leave undefined only what it or a layer
# it may use defines (or what no layer defines: the C library, SimGrid...).
for layer in $LAYERS; do
    if [ ! -e "$build/libsc_$layer.a" ]; then
        echo "layers: $build/libsc_$layer.a is missing (build first)"
        exit 1
    fi
done
defined=$(mktemp)
trap 'rm -f "$defined"' EXIT
for layer in $LAYERS; do
    nm --defined-only -g "$build/libsc_$layer.a" 2>/dev/null |
        awk -v l="$layer" 'NF == 3 { print $3, l }'
done | sort -u >"$defined"
calls=$(for layer in $LAYERS; do
    nm -u "$build/libsc_$layer.a" 2>/dev/null | awk '$1 == "U" { print $2 }' | sort -u |
        join - "$defined" | sed "s/^/$layer /"
done | awk -v allowed="$ALLOWED" "$READ_ALLOWED"'
    BEGIN {
        read_allowed()
    }
    index(may[$1], " " $3 " ") == 0 {
        printf "layers: %s calls %s, which %s defines, a layer above it\n", $1, $2, $3
    }')
if [ -n "$calls" ]; then
    echo "$calls"
    bad=1
fi
# only_in HEADER FOLDERS WHAT WHERE: a file that includes <HEADER...> (a
# grep pattern) outside FOLDERS (a grep pattern of paths) is refused, the
# message naming WHAT it includes and WHERE it may.
only_in() {
    outside=$(grep -l "^[[:space:]]*#[[:space:]]*include[[:space:]]*<$1" $files | grep -v "$2" ||
        true)
    for file in $outside; do
        echo "layers: $file includes $3, which only $4 may use"
        bad=1
    done
}
# igraph, Scotch and METIS are algorithms/mapping's alone (ARCHITECTURE.md):
# no other file includes their headers, and no other object calls them.
only_in '\(igraph\|scotch\|metis\)[.]h>' '^algorithms/mapping/' "igraph, Scotch or METIS" \
    algorithms/mapping
# SimGrid is sim/simgrid's and the runs' (sim/engine, whose ranks are its
# actors): the schedules' players and evaluator below them are plain C.
only_in '\(simgrid\|xbt\)[/.]' '^sim/simgrid/\|^sim/engine/' SimGrid "sim/simgrid and sim/engine"
# The platform file is read once, by sim/io's check, which also describes
# the zone that sim/simgrid/topology.cpp builds (plat->zone).
only_in 'libxml/' '^sim/io/' libxml2 "sim/io (the platform is read once)"
for layer in $LAYERS; do
    nm -A -u "$build/libsc_$layer.a" 2>/dev/null |
        awk -v l="$layer" '$NF ~ /^(igraph_|SCOTCH_|METIS_)/ { n = split($1, p, ":"); print l, p[n - 1], $NF }'
done | sort -u | while read -r layer object symbol; do
    [ "$layer" = algorithms ] && [ -e "algorithms/mapping/${object%.o}" ] ||
        echo "layers: $object ($layer) calls $symbol, which only algorithms/mapping may call"
done > "$defined.libs"
if [ -s "$defined.libs" ]; then
    cat "$defined.libs"
    bad=1
fi
rm -f "$defined.libs"
[ $bad = 0 ] || exit 1
echo "layers: every dependency points down"
