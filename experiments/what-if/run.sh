#!/bin/sh
# Regenerates results/whatif.csv (the sweep of study.ini), results/summary.txt
# (each upgrade against the Gigabit Ethernet cluster of 8-core nodes, block
# placement) and results/upgrades.png (simcoll plot --relative-to). 2 to 4
# minutes on 2 cores.
# usage: experiments/what-if/run.sh [--replot] [path/to/simcoll]
# SPDX-License-Identifier: GPL-2.0-or-later
set -eu
. "$(dirname "$0")/../common.sh"
sweep_start whatif.csv "$@"

# summary.txt: program, mapping, configuration, simulated time, speedup
# against gige with 8 cores and 1x bandwidth (the cluster as it is). A row's
# values of the study's axes are columns of their own (the study's
# platform, the template, too).
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
    $2 == "ok" {
        prog = $col["program"]; sub(/.*\//, "", prog)
        plat = $col["template"]; sub(/\.xml$/, "", plat)
        bw = $col["set"]; sub(/inter.bandwidth=/, "", bw)
        conf = plat " " $col["cores"] "-core " bw
        t[prog "," $col["mapping"] "," conf] = $col["sim_time_s"]
        progs[prog] = 1; maps[$col["mapping"]] = 1; confs[conf] = 1
    }
    END {
        print "# program,mapping,configuration,sim_time_s,speedup"
        for (pr in progs) for (m in maps) for (c in confs) {
            base = t[pr ",block,gige 8-core 1x"]; x = t[pr "," m "," c]
            if (x != "") printf "%s,%s,%s,%.5g,%.2f\n", pr, m, c, x, base / x
        }
    }' "$results/whatif.csv" | sort -t, -k1,1 -k5,5gr > "$results/summary.txt"

# One cluster of bars per configuration, a bar per program and placement, each
# the speedup over gige with 8 cores and 1x bandwidth under block placement.
"$simcoll" plot "$results/whatif.csv" -x platform -y sim_time_s --by program,mapping \
    --relative-to template=gige.xml --relative-to cores=8 --relative-to set=inter.bandwidth=1x \
    --relative-to mapping=block --title '64 Jet-like nodes, 512 processes: speedup' \
    -o "$results/upgrades.png"
cat "$results/summary.txt"
