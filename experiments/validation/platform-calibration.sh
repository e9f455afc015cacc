#!/bin/sh
# A shipped network level fitted again from the point-to-point timings it
# was fitted to, and checked, for the presets fitted to
# github.com/Ezibenroc/platform-calibration at commit 899f044 (MIT licence):
#   tengige  platforms/tengige.xml: Grid'5000 taurus's Open MPI over TCP
#            (10 Gigabit Ethernet, Intel X520), data/taurus_26_07_2016/
#            calibration/, run taurus-2016-06-09--1;
#   ib-fdr   platforms/ib-fdr.xml: TACC Stampede's MVAPICH2 2.1 over
#            InfiniBand FDR (Mellanox ConnectX-3), data/stampede_17_06_01-
#            17:14/calibration/ (two nodes, one rank each).
# Never fitted to collectives. Prints the fit, the shipped platform's residuals
# per size range (the median over every ping-pong sample of (predicted -
# measured) / measured; also for the same segments without a latency factor),
# and fails unless every fitted number of the network level is the shipped
# one to 4 digits (what the data cannot give, the gap and for ib-fdr o_r, is
# the template's: the shipped file's). Needs a built simcoll and git; seconds.
# usage: experiments/validation/platform-calibration.sh CHECKOUT tengige|ib-fdr [simcoll]
# SPDX-License-Identifier: GPL-2.0-or-later
set -eu
. "$(dirname "$0")/../common.sh"
me=$script
[ $# -ge 2 ] || { echo "usage: $0 CHECKOUT tengige|ib-fdr [simcoll]" >&2; exit 2; }
repo=$1 system=$2
simcoll=${3:-$top/build/simcoll}
commit=899f044
case $system in
tengige)
    dir=data/taurus_26_07_2016/calibration
    run=taurus-2016-06-09--1
    series="Isend Recv PingPong"
    # Segments (platforms/README.md says why): 128 bytes, where the
    # ping-pong leaves its small-message floor; 1420 and 33500, the data
    # set's breakpoints; the eager limit, Open MPI's TCP BTL's 64 KiB.
    fit="--breakpoints 128,1420,33500 --eager-limit 65536"
    # residuals by size range, and by the fit's segments
    edges=64,1420,65537
    segments=128,1420,33500,65537
    ;;
ib-fdr)
    dir=data/stampede_17_06_01-17:14/calibration
    run=testplatform
    # Not Recv: its median at 1 to 150 bytes (2.9 us) is twice the whole
    # one-way time (1.35 us), so it holds waiting, not a receive's overhead
    # (platforms/README.md).
    series="Isend PingPong"
    # The data set's breakpoints (testplatform_breakpoints: 150, 5000, and
    # 17420, its eager threshold in testplatform.xml: the eager limit).
    fit="--breakpoints 150,5000 --eager-limit 17420"
    edges=150,5000,17421
    segments=150,5000,17421
    ;;
*)
    echo "$me: unknown system '$system'; use tengige or ib-fdr" >&2
    exit 2
    ;;
esac
need_simcoll "$simcoll"
need_clone "$repo" "$commit" "$dir/${run}_PingPong.csv" github.com/Ezibenroc/platform-calibration
plat=$top/platforms/$system.xml
out=$results/$system
files=
for t in $series; do
    git -C "$repo" show "$commit:$dir/${run}_$t.csv" > "$scratch/${run}_$t.csv"
    files="$files --smpi-csv ${run}_$t.csv"
done

# The fit, with and without a latency factor; calibration runs where the
# files are, so that its reports name them.
# shellcheck disable=SC2086 # the option lists are split on purpose
(cd "$scratch" && "$simcoll" calibrate $files --like "$plat" $fit --latency-factor -o refit.xml) \
    > "$out-fit.txt"
# shellcheck disable=SC2086
(cd "$scratch" && "$simcoll" calibrate $files --like "$plat" $fit -o nolat.xml) > /dev/null
# shellcheck disable=SC2086
(cd "$scratch" && "$simcoll" calibrate --report --platform "$plat" $files) > "$scratch/shipped.txt"
# shellcheck disable=SC2086
(cd "$scratch" && "$simcoll" calibrate --report --platform nolat.xml $files) > "$scratch/nolat.txt"

# Per series and size range, the median of the point-by-point residuals.
ranges() {
    awk -v edges="$1" '
    function median(a, n,   i, j, t) {
        for (i = 2; i <= n; i++) {
            t = a[i]
            for (j = i - 1; j >= 1 && a[j] > t; j--) a[j + 1] = a[j]
            a[j + 1] = t
        }
        return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
    }
    BEGIN { ne = split(edges, e, ",") }
    $1 ~ /_[A-Za-z]+\.csv:[0-9]+$/ && $NF ~ /%$/ {
        f = $1; sub(/\.csv:[0-9]+$/, "", f); sub(/.*_/, "", f)
        s = $(NF - 5) + 0; x = $NF; sub("%", "", x)
        r = 0; for (i = 1; i <= ne; i++) if (s >= e[i]) r = i
        k = f SUBSEP r; n[k]++; v[k, n[k]] = x + 0; seen[f] = 1
    }
    END {
        for (f in seen) for (r = 0; r <= ne; r++) {
            k = f SUBSEP r; if (!n[k]) continue
            delete a; for (i = 1; i <= n[k]; i++) a[i] = v[k, i]
            printf "%-9s %6s .. %-6s %6d samples  median %+.1f%%\n", f, r ? e[r] : 0,
                   r < ne ? e[r + 1] - 1 : "", n[k], median(a, n[k])
        }
    }' "$2" | sort -k1,1 -k2,2n
}
{
    echo "# platforms/$system.xml: median residual per size range (bytes)"
    ranges $edges "$scratch/shipped.txt"
    echo "# by the fit's segments"
    ranges $segments "$scratch/shipped.txt"
    echo "# the same ranges without a latency factor: the ping-pong"
    ranges $edges "$scratch/nolat.txt" | grep PingPong
} > "$out-residuals.txt"
echo "fit: $out-fit.txt"
cat "$out-residuals.txt"

# The shipped network level is the fit's: every number of the simcoll/inter
# properties and of the NIC link, in base units, within 0.06% (4 digits).
numbers() {
    awk '
    function si(v,   u, x) {
        x = v + 0; u = v; sub(/^[-+0-9.eE]+/, "", u)
        if (u == "s" || u == "") return x
        if (u == "ms") return x * 1e-3
        if (u == "us") return x * 1e-6
        if (u == "ns") return x * 1e-9
        if (u == "ps") return x * 1e-12
        if (u == "Bps") return x
        if (u == "kBps") return x * 1e3
        if (u == "MBps") return x * 1e6
        if (u == "GBps") return x * 1e9
        return "unit?" u
    }
    /<prop id="simcoll\/inter\// || /<link id="node-0_nic"/ {
        name = $0; sub(/^.*id="/, "", name); sub(/".*$/, "", name)
        n = 0
        while (match($0, /(value|bandwidth|latency)="[^"]*"/)) {
            val = substr($0, RSTART, RLENGTH); $0 = substr($0, RSTART + RLENGTH)
            sub(/^[a-z]+="/, "", val); sub(/"$/, "", val)
            m = split(val, part, /[;:]/)
            for (i = 1; i <= m; i++) print name "#" (++n), si(part[i])
        }
    }' "$1" | sort
}
numbers "$plat" > "$scratch/shipped.num"
numbers "$scratch/refit.xml" > "$scratch/refit.num"
join -a 1 -a 2 -e missing -o 0,1.2,2.2 "$scratch/shipped.num" "$scratch/refit.num" | awk '
    { d = $2 - $3; if (d < 0) d = -d; t = $3 < 0 ? -$3 : $3
      if ($2 == "missing" || $3 == "missing" || d > 6e-4 * t) { bad = 1; print "differs: " $0 } }
    END { if (bad || NR == 0) exit 1 }' || {
    echo "$me: $plat's network level is not what the point-to-point files give" >&2
    exit 1
}
echo "$me: platforms/$system.xml's network level is the fit (to 4 digits)"
