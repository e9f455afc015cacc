#!/bin/sh
# Runs every case of corpus.txt and compares its whole output with the one
# recorded in expected/ (or, with --record, records it there).
# usage: check.sh SIMCOLL SOURCE_DIR [--record]
# SPDX-License-Identifier: GPL-2.0-or-later
set -eu
simcoll=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
src=$(cd "$2" && pwd)
record=${3:-}
expected=$src/tests/golden/expected
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT INT TERM
[ "$record" = --record ] && mkdir -p "$expected"

# Wall-clock seconds vary from run to run: the partitioner's time (the
# table's note "partitioned in", CSV's partition_wall_time_s, JSON's and map's), and a
# sweep's progress; and the hash of paths that ends a sweep's platform's name.
# The simcoll run is SIMCOLL in outputs (a sweep's jobs name it), whichever
# build it is (build/, build-41/ ...). Runs of spaces are made one, since a table's columns
# are as wide as their widest value.
mask() {
    sed -E -e 's/  +/ /g' \
        -e 's/"partition_wall_time_s": [0-9.e+-]+/"partition_wall_time_s": T/g' \
        -e 's/(partition(ed)? in|took|elapsed|ETA|left) [0-9.]+ ?[mun]?s/\1 T/g' \
        -e 's/[0-9.e-]+ s (elapsed|to partition)/T \1/g' \
        -e 's/: ok \([0-9.]+ s\), [0-9]+s left/: ok (T), T left/' \
        -e 's/([.]platforms\/[^ ,]*)-[0-9a-f]{8}[.]xml/\1-H.xml/g'
}

# CSV: the column partition_wall_time_s, wherever it stands.
mask_csv() {
    awk -F, -v OFS=, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "partition_wall_time_s") c = i }
                      c && NR > 1 && $c != "" { $c = "T" } { print }'
}

grep -v '^#' "$src/tests/golden/corpus.txt" | grep . | while read -r name args; do
    dir=$work/$name
    mkdir "$dir"
    set -f
    # shellcheck disable=SC2086 # one argument a word, as written
    set -- $(printf '%s\n' "$args" | sed "s|\\\$S|$src|g")
    set +f
    code=0
    (cd "$dir" && "$simcoll" "$@" >"$work/stdout" 2>"$work/stderr" </dev/null) || code=$?
    {
        echo "exit $code"
        echo "--- stdout"
        mask_csv <"$work/stdout" | mask
        echo "--- stderr"
        mask <"$work/stderr"
        (cd "$dir" && find . -type f | LC_ALL=C sort) | while read -r f; do
            echo "--- file $f"
            case $f in
            *.csv) mask_csv <"$dir/$f" | mask ;;
            *) mask <"$dir/$f" ;;
            esac
        done
    } | sed "s|$simcoll|SIMCOLL|g; s|$src|SRC|g; s|$work|WORK|g" >"$work/$name.out"
    if [ "$record" = --record ]; then
        cp "$work/$name.out" "$expected/$name.out"
    elif ! cmp -s "$expected/$name.out" "$work/$name.out"; then
        echo "golden: $name differs from tests/golden/expected/$name.out:"
        diff "$expected/$name.out" "$work/$name.out" | head -n 20
        touch "$work/failed"
    fi
done
if [ -e "$work/failed" ]; then
    echo "golden: some outputs changed (record them anew with --record if meant)"
    exit 1
fi
echo "golden: every output as recorded"
