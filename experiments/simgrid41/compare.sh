#!/bin/sh
# Runs the same simulations under two simcoll builds (one on SimGrid 3.32,
# one on 4.1) and reports every printed figure that differs: every
# algorithm of `simcoll list` on every platform (platforms/*.xml, the test
# platforms with topologies or levels inside nodes, and two generated here:
# a dragonfly and racks of nodes with sockets) at 13, 16 and 24 ranks (7,
# 8, 12 or 3, 4, 6 on the smallest) and 8 B, 64 KiB and 1 MiB, with and
# without --replay; and every program shipped (experiments/,
# tests/programs) on the same platforms and process counts.
# usage: compare.sh OLD_SIMCOLL NEW_SIMCOLL [WORKDIR]     (README.md)
# SPDX-License-Identifier: GPL-2.0-or-later
set -eu
[ $# -ge 2 ] || { echo "usage: compare.sh OLD_SIMCOLL NEW_SIMCOLL [WORKDIR]" >&2; exit 2; }
old=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
new=$(cd "$(dirname "$2")" && pwd)/$(basename "$2")
root=$(cd "$(dirname "$0")/../.." && pwd)
work=${3:-$(mktemp -d)}
mkdir -p "$work"
cd "$root"

# Both builds read the same generated files (written by the old build).
"$old" platform --like platforms/ib4x.xml --topology "dragonfly:2,1;2,1;2,1;2" \
    -o "$work/dragonfly.xml"
"$old" platform --like platforms/ib4x.xml --levels core:2,socket:2,node:2,rack:3 \
    -o "$work/racks-sockets.xml"
platforms="$(ls platforms/*.xml) tests/platforms/nocontention-domains.xml
    tests/platforms/nocontention-sockets.xml tests/platforms/nocontention-racks.xml
    tests/platforms/fat-tree.xml tests/platforms/torus.xml tests/platforms/uneven.xml
    $work/dragonfly.xml $work/racks-sockets.xml"
programs=$(ls experiments/*/*.prog experiments/labs/*/*.prog tests/programs/*.prog)

# Process counts: a power of two, another count, and one that leaves the
# last node partly filled (nodes of 2 to 56 cores; uneven.xml's differ),
# as the platform's cores allow.
nps() {
    cores=$(grep -o 'core="[0-9]*"' "$1" | tr -dc '0-9\n' | awk '{ n += $1 } END { print n }')
    if [ "$cores" -ge 24 ]; then
        echo 13,16,24
    elif [ "$cores" -ge 12 ]; then
        echo 7,8,12
    else
        echo 3,4,6
    fi
}

# One simulation command a line, at every process count (compare, below,
# runs it at each alone where one is refused: rd at 13 ...).
cases=$work/cases
: >"$cases"
"$old" list | awk 'NR > 1 && NF { print $1, $2 }' | while read -r algo coll; do
    sizes="--size 8,64K,1M"
    [ "$coll" = barrier ] && sizes=""
    for p in $platforms; do
        echo "--platform $p --algo $algo --np $(nps "$p") $sizes --no-payload --format csv"
        echo "--platform $p --algo $algo --np $(nps "$p") $sizes --no-payload --format csv --replay"
    done
done >>"$cases"
for prog in $programs; do
    for p in $platforms; do
        echo "run --platform $p --np $(nps "$p") --format csv $prog"
    done
done >>"$cases"

# A run's exit code and stderr ($2.err), and its CSV ($2.csv) without what
# is not a simulation's result: the command line and the partitioner's
# wall time. A quoted field's commas become semicolons (a generated
# platform's name is its topology, "ib4x-16x8-dragonfly:2,1;...").
run() {
    # shellcheck disable=SC2086 # the case's words are its arguments
    "$1" $3 </dev/null >"$work/out" 2>"$work/err" && rc=0 || rc=$?
    { echo "exit $rc"; sed "s|$work/||g" "$work/err"; } >"$work/$2.err"
    awk -F, 'function unquote(s,    out, q, i, c) {
                 for (i = 1; i <= length(s); i++) {
                     c = substr(s, i, 1)
                     if (c == "\"")
                         q = !q
                     else
                         out = out (c == "," && q ? ";" : c)
                 }
                 return out
             }
             index($0, "\"") { $0 = unquote($0) }
             NR == 1 { for (i = 1; i <= NF; i++)
                           if ($i == "command" || $i == "partition_wall_time_s") drop[i] = 1 }
             { line = ""
               for (i = 1; i <= NF; i++)
                   if (!(i in drop)) line = line (line == "" ? "" : ",") $i
               print line }' "$work/out" >"$work/$2.csv"
}

# Every differing field a line: the case, its row's first six columns
# (platform, algo, collective or program, np, nodes, size), the column,
# the old and the new value; or the case and what else differs.
report=$work/differences.txt
: >"$report"
runs=0 same_runs=0 refused=0 rows=0 same_rows=0
compare() {
    args=$1
    run "$old" a "$args"
    if [ "$rc" -ne 0 ] && echo "$args" | grep -q -- '--np [0-9]*,'; then
        for np in $(echo "$args" | sed 's/.*--np \([0-9,]*\).*/\1/' | tr , ' '); do
            compare "$(echo "$args" | sed "s/--np [0-9,]*/--np $np/")"
        done
        return
    fi
    [ "$rc" -eq 0 ] || refused=$((refused + 1))
    run "$new" b "$args"
    runs=$((runs + 1))
    n=$(($(wc -l <"$work/a.csv") > 0 ? $(wc -l <"$work/a.csv") - 1 : 0))
    rows=$((rows + n))
    same_err=yes
    if ! cmp -s "$work/a.err" "$work/b.err"; then
        same_err=no
        printf '%s | exit code or stderr: old %s new %s\n' "$args" \
            "$(tr '\n' ' ' <"$work/a.err")" "$(tr '\n' ' ' <"$work/b.err")" >>"$report"
    fi
    if cmp -s "$work/a.csv" "$work/b.csv"; then
        [ $same_err = yes ] && same_runs=$((same_runs + 1))
        same_rows=$((same_rows + n))
        return
    fi
    # (FILENAME, not NR == FNR: the old CSV is empty when that run failed)
    awk -F, -v args="$args" -v report="$report" -v old="$work/a.csv" '
        FILENAME == old { a[FNR] = $0; na = FNR; next }
        { b[FNR] = $0; nb = FNR }
        END {
            if (na != nb || a[1] != b[1]) {
                printf "%s | rows or columns: old %d lines, new %d\n", args, na, nb >>report
                print 0
                exit
            }
            split(a[1], head, ",")
            for (r = 2; r <= na; r++) {
                if (a[r] == b[r]) {
                    same++
                    continue
                }
                nf = split(a[r], x, ","); split(b[r], y, ",")
                for (i = 1; i <= nf; i++)
                    if (x[i] != y[i])
                        printf "%s | %s,%s,%s,%s,%s,%s | %s old %s new %s\n", args, x[1], x[2],
                               x[3], x[4], x[5], x[6], head[i], x[i], y[i] >>report
            }
            print same + 0
        }' "$work/a.csv" "$work/b.csv" >"$work/same"
    same_rows=$((same_rows + $(cat "$work/same")))
}
while read -r args; do
    compare "$args"
done <"$cases"

echo "$runs runs ($same_runs with identical output; $refused refused by the old build)," \
    "$rows rows ($same_rows identical)"
echo "differences: $report ($(wc -l <"$report") lines)"
# Per column: how many rows differ in it.
awk -F' [|] ' 'NF == 3 { split($3, w, " "); n[w[1]]++ }
                NF == 2 { split($2, w, ":"); n[w[1]]++ }
                END { for (c in n) print "  " c ": " n[c] }' "$report" | sort
