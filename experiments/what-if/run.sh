#!/bin/sh
# Regenerates results/whatif.csv (the sweep of study.ini), results/summary.txt
# (each upgrade against the Gigabit Ethernet cluster of 8-core nodes, block
# placement) and results/upgrades.png. About 2 minutes on 2 cores.
# usage: experiments/what-if/run.sh [--replot] [path/to/simcoll]
# SPDX-License-Identifier: GPL-2.0-or-later
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
replot=0
if [ "${1:-}" = --replot ]; then replot=1; shift; fi
simcoll=${1:-$top/build/simcoll}
[ -x "$simcoll" ] || { echo "run.sh: build simcoll first (./setup.sh)" >&2; exit 2; }
command -v gnuplot >/dev/null || { echo "run.sh: needs gnuplot (apt-get install gnuplot-nox)" >&2; exit 2; }
results=$here/results
mkdir -p "$results"
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
cd "$here"
if [ $replot = 0 ]; then
    rm -rf "$scratch/whatif.csv"*
    "$simcoll" sweep study.ini -j 2 -o "$scratch/whatif.csv"
    # The generated platforms' paths are the scratch directory's: keep their names only.
    sed "s|$scratch/whatif.csv.platforms/||g" "$scratch/whatif.csv" > "$results/whatif.csv"
fi

# summary.txt: program, mapping, configuration, simulated time, speedup
# against gige with 8 cores and 1x bandwidth (the cluster as it is).
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
    $2 == "ok" {
        key = $0; sub(/^"/, "", key); sub(/",ok,.*/, "", key)
        n = split(key, kv, ";")
        for (i = 1; i <= n; i++) { split(kv[i], p, "="); v[p[1]] = substr(kv[i], length(p[1]) + 2) }
        prog = v["program"]; sub(/.*\//, "", prog)
        plat = v["platform"]; sub(/\.xml$/, "", plat)
        bw = v["set"]; sub(/inter.bandwidth=/, "", bw)
        conf = plat " " v["cores"] "-core " bw
        t[prog "," v["mapping"] "," conf] = $col["sim_time_s"]
        progs[prog] = 1; maps[v["mapping"]] = 1; confs[conf] = 1
    }
    END {
        print "# program,mapping,configuration,sim_time_s,speedup"
        for (pr in progs) for (m in maps) for (c in confs) {
            base = t[pr ",block,gige 8-core 1x"]; x = t[pr "," m "," c]
            if (x != "") printf "%s,%s,%s,%.5g,%.2f\n", pr, m, c, x, base / x
        }
    }' "$results/whatif.csv" | sort -t, -k1,1 -k5,5gr > "$results/summary.txt"

# One bar per upgrade, for each program (block placement; cyclic beside it).
for prog in cg.prog stencil.prog; do
    grep "^$prog," "$results/summary.txt" | awk -F, '{ print $3 "," $2 "," $5 }' |
        sort -t, -k1,1 -k2,2 > "$scratch/$prog.csv"
done
gnuplot <<PLOT
set terminal pngcairo noenhanced size 1000,560 font ',11'
set output '$results/upgrades.png'
set title '64 Jet-like nodes, 512 processes: speedup over gige, 8-core nodes, block placement'
set datafile separator ','
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set ylabel 'speedup (higher is better)'
set xtics rotate by -25 scale 0
set key outside right top
set grid ytics
set yrange [0:*]
set arrow from graph 0, first 1 to graph 1, first 1 nohead dt 2 lc rgb 'gray30'
plot '< grep ",block," $scratch/cg.prog.csv' using 3:xtic(1) title 'cg.prog, block', \
     '< grep ",cyclic," $scratch/cg.prog.csv' using 3 title 'cg.prog, cyclic', \
     '< grep ",block," $scratch/stencil.prog.csv' using 3 title 'stencil.prog, block', \
     '< grep ",cyclic," $scratch/stencil.prog.csv' using 3 title 'stencil.prog, cyclic'
PLOT
cat "$results/summary.txt"
