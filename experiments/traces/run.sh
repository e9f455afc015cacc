#!/bin/sh
# Regenerates results/traces.csv (the sweep of study.ini: two recorded
# applications replayed on 16 what-if clusters each), results/summary.txt
# (each point's speedup over the trace on gige.xml's 8-core nodes, block
# placement, computing as recorded) and results/speedups.png (simcoll plot
# --relative-to).
# usage: experiments/traces/run.sh [--replot] [path/to/simcoll]
# SPDX-License-Identifier: GPL-2.0-or-later
set -eu
. "$(dirname "$0")/../common.sh"
sweep_start traces.csv "$@"

# summary.txt: trace, configuration, simulated time, speedup over the trace
# on gige's 8-core nodes, block placement, computing as recorded. A row's
# values of the study's axes are columns of their own (the study's
# platform, the template, too).
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
    $2 == "ok" {
        tr = $col["trace"]; sub(/^.*third_party\/traces\//, "", tr); sub(/\/.*/, "", tr)
        plat = $col["template"]; sub(/\.xml$/, "", plat)
        conf = plat " " $col["cores"] "-core " $col["mapping"] " cpu x" $col["compute-scale"]
        t[tr "," conf] = $col["sim_time_s"]
        traces[tr] = 1; confs[conf] = 1
    }
    END {
        print "# trace,configuration,sim_time_s,speedup"
        for (tr in traces) for (c in confs) {
            base = t[tr ",gige 8-core block cpu x1"]; x = t[tr "," c]
            if (x != "") printf "%s,%s,%.5g,%.2f\n", tr, c, x, base / x
        }
    }' "$results/traces.csv" | sort -t, -k1,1 -k4,4gr > "$results/summary.txt"

# A cluster of bars per generated platform, a bar per trace, mapping and CPU
# speed, each the speedup over the trace on gige's 8-core nodes as recorded.
"$simcoll" plot "$results/traces.csv" -x platform -y sim_time_s --by trace,mapping,compute-scale \
    --relative-to template=gige.xml --relative-to cores=8 --relative-to mapping=block \
    --relative-to compute-scale=1 --title 'Two traced applications on what-if clusters: speedup' \
    -o "$results/speedups.png"
cat "$results/summary.txt"
