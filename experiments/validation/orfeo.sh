#!/bin/sh
# Predictions of simcoll against osu_bcast and osu_scatter on ORFEO's
# GENOA nodes (Area Science Park, Trieste: 2 x AMD EPYC 9374F, 64 cores a
# node), published by github.com/robonoff/HPC-project (commit 1399da7,
# ex1/scripts/): OSU micro-benchmarks 7.5.1 and Open MPI 5.0.5, ranks
# placed by core (mpirun --map-by core) on two nodes of 64, 2 to 128
# processes.
#   point to point  latency_pt2pt.csv, osu_latency 1 B to 4 MiB between core 0
#                   and cores 1 (same CCX), 4 (other CCD), 8 (other NUMA
#                   domain), 32 (other socket) and another node;
#   varied          osu_bcast, 2 B to 256 KiB, 2 to 128 processes (powers
#                   of two), coll_tuned_bcast_algorithm 0, 1, 3, 5;
#   fixed           osu_bcast of 4 B on 2 to 128 processes, the same four;
#   scatter         osu_scatter, the same two series (blocks of one rank),
#                   coll_tuned_scatter_algorithm 0, 1, 2, 3 (below).
# The platform (platforms/orfeo-genoa.xml) is fitted by simcoll calibrate to
# the point-to-point file only; this script fits it again and checks the
# shipped numbers. Nothing is fitted to the collectives. OSU reports the mean
# over ranks of each rank's mean time over its loop of a call and a barrier:
# each point is predicted so (simcoll validate --measure osu), and as one call
# (the mean over ranks, mean_rank_time_s: the "call" columns, as predicted
# until issue 45). The files are read from a checkout (or git directory) of
# the repository, never copied.
# Needs a built simcoll, git and gnuplot; about 3 minutes (2 min 58 s measured,
# two cores shared).
# usage: experiments/validation/orfeo.sh HPC_PROJECT_CHECKOUT [simcoll]
# SPDX-License-Identifier: GPL-2.0-or-later
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
[ $# -ge 1 ] || { echo "usage: $0 HPC_PROJECT_CHECKOUT_OR_GIT_DIR [simcoll]" >&2; exit 2; }
repo=$1
simcoll=${2:-$top/build/simcoll}
commit=1399da751ef0c6d0a545bfca4695b379c6fe9f44
profile=openmpi-4.1
[ -x "$simcoll" ] || { echo "orfeo.sh: build simcoll first (./setup.sh)" >&2; exit 2; }
command -v gnuplot >/dev/null || { echo "orfeo.sh: needs gnuplot (apt-get install gnuplot-nox)" >&2; exit 2; }
gitdir=$(git -C "$repo" rev-parse --absolute-git-dir 2>/dev/null) || gitdir=
if [ -z "$gitdir" ] ||
   ! git --git-dir="$gitdir" cat-file -e "$commit:ex1/scripts/latency_pt2pt.csv" 2>/dev/null; then
    echo "orfeo.sh: '$repo' is not a clone of github.com/robonoff/HPC-project holding" \
         "commit $commit" >&2
    exit 2
fi
show() { git --git-dir="$gitdir" show "$commit:ex1/scripts/$1"; }
results=$here/results
out=$results/orfeo
mkdir -p "$results"
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
plat=$top/platforms/orfeo-genoa.xml
# The platform as shipped before nested levels inside nodes (one level inside
# a socket): its predictions are the "before" columns.
before=$here/before/orfeo-genoa-sockets.xml
# Median and largest |value| of a list of relative errors on stdin (one a line).
stats() {
    awk '{ print ($1 < 0 ? -$1 : $1), $1 }' | sort -g | awk '{ a[++n] = $1; s[n] = $2 }
        END { if (!n) { print "-"; exit }
              med = n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
              printf "%d %.1f%% %+.1f%%\n", n, 100 * med, 100 * s[n] }'
}

# The summaries' tables, the broadcast's and the scatter's alike, of a CSV
# of predictions: column 9 the error on the platform, 13 on before/'s.

# errors CSV CONDITION [-v NAME=VALUE ...]: the errors of the rows where the
# awk CONDITION holds, "points median|error| largest | before: median
# largest" ("-" for none).
errors() {
    csv=$1 cond=$2
    shift 2
    a=$(awk -F, "$@" "NR > 1 && $cond { print \$9 }" "$csv" | stats)
    b=$(awk -F, "$@" "NR > 1 && $cond { print \$13 }" "$csv" | stats | cut -d' ' -f2-)
    echo "$a | $b"
}

# by_series CSV: for each line "SERIES ALG RAN ALGO" read, its errors on one
# node, on two nodes flat and on two nodes under han, where it has points.
by_series() {
    csv=$1
    while read -r series alg ran algo; do
        for r in "2 64 one-node" "65 127 two-nodes-flat" "128 128 two-nodes-han"; do
            # shellcheck disable=SC2086 # numbers and a label
            set -- $r
            # shellcheck disable=SC2016 # an awk expression
            e=$(errors "$csv" '$1 == s && $2 == a && $4 >= lo && $4 <= hi' -v s="$series" \
                -v a="$alg" -v lo="$1" -v hi="$2")
            [ "${e%% |*}" = "-" ] && continue
            echo "$series $alg $ran $algo $3($1-$2): $e"
        done
    done
}

# by_processes CSV: the errors of every series by process count.
by_processes() {
    csv=$1
    for r in "2 64" "65 127" "128 128" "2 128"; do
        # shellcheck disable=SC2086 # numbers
        set -- $r
        # shellcheck disable=SC2016 # an awk expression
        echo "all processes $1-$2: $(errors "$csv" '$4 >= lo && $4 <= hi' -v lo="$1" -v hi="$2")"
    done
}

# by_size CSV CONDITION: the errors of the varied series on one node where
# CONDITION holds too, by size: 2 ranks apart, then up to 1 KiB, 2 to 128 KiB
# (eager copies), 256 KiB (one copy).
by_size() {
    csv=$1
    varied='$1 == "varied" && '"$2"' && $4 >= lo && $4 <= hi && $5 >= s0 && $5 <= s1'
    for r in "2 2 2 262144" "4 64 2 1024" "4 64 2048 131072" "4 64 262144 262144"; do
        # shellcheck disable=SC2086 # numbers
        set -- $r
        echo "varied processes $1-$2, bytes $3-$4:" \
            "$(errors "$csv" "$varied" -v lo="$1" -v hi="$2" -v s0="$3" -v s1="$4")"
    done
}

# --- What the job scripts ran -------------------------------------------
# coll_tuned_bcast_algorithm is obeyed only with coll_tuned_use_dynamic_rules
# true (Open MPI 5.0.5, ompi/mca/coll/tuned/coll_tuned_module.c); with false
# the fixed decision rules run. The varied run of algorithm 1 set it false:
# it measured the default again. Numbers of 5.0.5
# (coll_tuned_bcast_decision.c): 1 basic_linear, 3 pipeline, 5 binary_tree,
# all unsegmented (the segment size defaults to 0) and so, in simcoll,
# bcast-ompi-linear, bcast-ompi-chain (pipeline = a chain of fanout 1) and
# bcast-ompi-bintree. Per series: job script, data file, the algorithm's
# number, whether the script turned the dynamic rules on, what ran, simcoll's
# algorithm (profile: --mpi openmpi-4.1, whose bcast rules are 5.0.5's).
cat > "$scratch/series" <<'EOF'
varied/bcast0_mappingbycore.sh varied/csv/bcast0_core_mapping_genoa.csv 0 false default profile
varied/bcast1_mappingbycore.sh varied/csv/bcast1_core_mapping_genoa.csv 1 false default profile
varied/bcast3_mappingbycore.sh varied/csv/bcast3_core_mapping_genoa.csv 3 true pipeline bcast-ompi-chain
varied/bcast5_mappingbycore.sh varied/csv/bcast5_core_mapping_genoa.csv 5 true binary_tree bcast-ompi-bintree
fixed/bcast0_fixed.sh fixed/csv/bcast0_fixed_core.csv 0 false default profile
fixed/bcast1_fixed.sh fixed/csv/bcast1_fixed_core.csv 1 true basic_linear bcast-ompi-linear
fixed/bcast3_5_fixed.sh fixed/csv/bcast3_fixed_core.csv 3 true pipeline bcast-ompi-chain
fixed/bcast3_5_fixed.sh fixed/csv/bcast5_fixed_core.csv 5 true binary_tree bcast-ompi-bintree
EOF
# Check the job scripts say so: 2 nodes of 64 tasks, and an mpirun line
# (continuation lines joined) mapping by core with those dynamic rules and
# that algorithm.
while read -r job file alg dyn ran algo; do
    show "bcast/$job" > "$scratch/job.sh"
    if ! grep -q -- "--nodes=2" "$scratch/job.sh" ||
       ! grep -q -- "--ntasks-per-node=64" "$scratch/job.sh" ||
       ! sed -e :a -e '/\\$/N; s/\\\n//; ta' "$scratch/job.sh" | grep -v '^[[:space:]]*#' |
         grep 'mpirun' | grep -- '--map-by core' | grep -- "coll_tuned_use_dynamic_rules $dyn " |
         grep -q -- "coll_tuned_bcast_algorithm $alg "; then
        echo "orfeo.sh: bcast/$job does not run algorithm $alg with dynamic rules $dyn," \
             "64 ranks a node by core" >&2
        exit 1
    fi
done < "$scratch/series"

# --- The platform, from the point-to-point file only ---------------------
# One OSU latency file per placement (calibrate reads OSU's text format).
show latency_pt2pt.csv > "$scratch/latency_pt2pt.csv"
for p in "Same CCX:ccx" "Same NUMA (different CCD):ccd" "Same Socket (different NUMA):numa" \
         "Different Socket:socket" "Different Node:node"; do
    label=${p%:*}
    {
        echo "# OSU MPI Latency Test v7.5.1"
        echo "# Size          Latency (us)"
        awk -F, -v l="$label" '$1 == l { printf "%-10d%18.2f\n", $2, $3 }' "$scratch/latency_pt2pt.csv"
    } > "$scratch/${p##*:}.txt"
    [ "$(grep -c '^[0-9]' "$scratch/${p##*:}.txt")" -eq 23 ] ||
        { echo "orfeo.sh: latency_pt2pt.csv lacks the 23 sizes of '$label'" >&2; exit 1; }
done
# A ping-pong cannot tell the cores' time from the wire's. The fastest
# one-way time of all (two cores of one CCX, sharing their L3) bounds what
# the library's code costs a message: o_r is half of it on both levels, and
# so is the network's o_s. Shared memory's o_s is calibrate's (its
# --sender-share): half of each placement's one-way time, as simcoll-probe
# measured the sender's share elsewhere (experiments/small-messages).
overhead=$(awk -F, 'NR > 1 && (m == "" || $3 < m) { m = $3 } END { printf "%.4g", m / 2 }' \
    "$scratch/latency_pt2pt.csv")
# Template: ib-hdr100.xml's header (40 B) and ConnectX-6 gap (12.48 ns), the
# only numbers of it that stay; the cores' speed, 3.85 GHz x 16 flop/cycle.
"$simcoll" platform --like "$top/platforms/ib-hdr100.xml" --nodes 2 --cores 64 \
    --set node.speed=61.6Gf \
    --set "intra.recv-overhead=${overhead}us" \
    --set "inter.send-overhead=${overhead}us" --set "inter.recv-overhead=${overhead}us" \
    -o "$scratch/template.xml"
# The levels inside a node, as the file's core pairs show them (AMD EPYC
# 9374F): 4 cores a CCX (one CCX a CCD), 2 CCDs a NUMA domain of 8 cores, 4
# NUMA domains a socket of 32, 2 sockets. Each placement is fitted alike:
# breakpoint 2048 (below it a message costs about the same whatever its
# size; above it the time doubles with the size), eager limit 128 KiB (every
# placement's time falls or flattens from 128 to 256 KiB: the switch to a
# single copy). One CCX gives shared memory itself (the memory bus and the
# intra properties); each larger level, fitted on its own rows, gives its
# link (the latency it adds to one CCX's, its fastest slope as bandwidth)
# and its own flow factor (its pair's slopes: the copy rate of a pair that
# far apart). Between nodes: breakpoint 256 (the time jumps there, 1.52 to
# 1.82 us), the same eager limit.
intra="--level intra --breakpoints 2048 --eager-limit 131072"
inter="--breakpoints 256 --eager-limit 131072"
for p in ccx ccd numa socket; do
    # shellcheck disable=SC2086 # the option lists are split on purpose
    (cd "$scratch" && "$simcoll" calibrate $intra --osu-latency $p.txt --like template.xml \
        -o $p.xml) > "$out-fit-$p.txt"
done
# shellcheck disable=SC2086
(cd "$scratch" && "$simcoll" calibrate $inter --osu-latency node.txt --like ccx.xml \
    -o inter.xml) > "$out-fit-inter.txt"
fitted() { # FILE PARAMETER: the fitted value, in base units
    awk -v p="$2" 'index($0, p) == 1 { v = substr($0, length(p) + 1); sub(/^ +/, "", v)
                                        split(v, f, " "); print f[1]; exit }' "$1"
}
# A level's link, flow factor and o_s from its placement's fit: latency
# less one CCX's; bandwidth its fastest slope (one pair's single copy),
# slower than the memory bus's, so that the route's bandwidth is the link's;
# the flow factors of its slopes against that bandwidth and its o_s, as
# calibrate fitted them: properties no --set gives (per segment), into
# $scratch/own, and their sources into $scratch/own-sources (o_s's as
# calibrate marked shared memory's, naming the level's own file).
intra_send=$(sed -n 's/.*"simcoll\/source\/intra\/send-overhead" value="\([^"]*\)".*/\1/p' \
                 "$scratch/ccx.xml")
[ -n "$intra_send" ] || { echo "orfeo.sh: no source of shared memory's o_s" >&2; exit 1; }
sets=
: > "$scratch/own"
: > "$scratch/own-sources"
for l in ccx:ccd numa:numa socket:socket; do
    level=${l%:*} fit=$out-fit-${l#*:}.txt
    lat=$(awk -v a="$(fitted "$fit" latency)" -v b="$(fitted "$out-fit-ccx.txt" latency)" \
              'BEGIN { if (a < b) exit 1; printf "%.4g", (a - b) * 1e9 }') ||
        { echo "orfeo.sh: the $level level's latency is below one CCX's" >&2; exit 1; }
    bw=$(awk -v a="$(fitted "$fit" bandwidth)" -v b="$(fitted "$out-fit-ccx.txt" bandwidth)" \
             'BEGIN { if (a > b) exit 1; printf "%.4g", a / 1e9 }') ||
        { echo "orfeo.sh: the $level level's bandwidth is above the memory bus's" >&2; exit 1; }
    flow=$(awk '/^flow factor \[/ { split($3, lo, "[[,]"); printf "%s%s:%.4g", n++ ? ";" : "", lo[2], $5 }' \
               "$fit")
    send=$(awk '/^o_s \[/ { split($2, lo, "[[,]"); printf "%s%s:%ss:%ss", n++ ? ";" : "", lo[2], $4, $7 }' \
               "$fit")
    [ -n "$flow" ] && [ -n "$send" ] ||
        { echo "orfeo.sh: no flow factor or o_s per segment in $fit" >&2; exit 1; }
    sets="$sets --set $level.latency=${lat}ns --set $level.bandwidth=${bw}GBps"
    printf '    <prop id="simcoll/%s/flow-factor" value="%s"/>\n' "$level" "$flow" >> "$scratch/own"
    printf '    <prop id="simcoll/%s/send-overhead" value="%s"/>\n' "$level" "$send" >> "$scratch/own"
    printf '    <prop id="simcoll/source/%s/send-overhead" value="%s"/>\n' "$level" \
        "$(echo "$intra_send" | sed "s/ccx\.txt/${l#*:}.txt/")" >> "$scratch/own-sources"
    echo "# $level link: latency $lat ns (this placement's fitted latency less one CCX's)," \
         "bandwidth $bw GB/s (its fastest slope); $level flow factor $flow; o_s $send" >> "$fit"
done
# shellcheck disable=SC2086 # the settings are split on purpose
"$simcoll" platform --like "$scratch/inter.xml" --nodes 2 --cores 64 --sockets 2 --numa 4 --ccx 2 \
    $sets -o "$scratch/levels.xml"
# The levels' own properties after simcoll/ccx, their sources after shared
# memory's o_s's.
awk -v own="$scratch/own" -v sources="$scratch/own-sources" '
    { print }
    /<prop id="simcoll\/ccx"/ { while ((getline line < own) > 0) print line }
    /<prop id="simcoll\/source\/intra\/send-overhead"/ { while ((getline line < sources) > 0) print line }
    ' "$scratch/levels.xml" > "$scratch/refit.xml"
# kept for the record, the scratch directory's name left out of its commands
sed "s|$scratch/||g" "$scratch/refit.xml" > "$out-refit.xml"
echo "# o_r = ${overhead} us on both levels, and the network's o_s (half the fastest one-way time)" >> "$out-fit-ccx.txt"

# The platform's one-way times for each placement: one message from rank 0
# to rank 1 (same CCX), 4 (other CCD), 8 (other NUMA domain), 32 (other
# socket) and 64 (other node), as a program of one send. Per placement and
# platform (shipped, refit, and before: one level inside a socket, where
# ranks 1, 4 and 8 cost the same): size, measured and predicted seconds.
sizes_p2p=$(awk '!/^#/ { print $1 }' "$scratch/numa.txt")
residuals() { # PLATFORM NAME
    for p in ccx:1 ccd:4 numa:8 socket:32 node:64; do
        for s in $sizes_p2p; do
            echo "send $s from=0 to=${p#*:}" > "$scratch/p.prog"
            t=$("$simcoll" run --platform "$1" --np 65 --no-payload --format csv "$scratch/p.prog" |
                awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
                         { print $(c["sim_time_s"]) }')
            awk -v p="${p%:*}" -v s="$s" -v t="$t" '!/^#/ && $1 == s {
                printf "%s,%s,%s,%.9g,%.9g,%.4f\n", p, name, s, $2 * 1e-6, t, (t - $2 * 1e-6) / ($2 * 1e-6) }' \
                name="$2" "$scratch/${p%:*}.txt"
        done
    done
}
{
    echo "placement,platform,size_bytes,measured_s,predicted_s,error"
    residuals "$plat" shipped
    residuals "$scratch/refit.xml" refit
    residuals "$before" before
} > "$out-p2p.csv"
# Median |error| per placement and platform; the shipped platform must be
# the refit's (rounded to 4 digits): medians within 0.2 points.
p2p_medians() {
    awk -F, -v w="$1" 'NR > 1 && $2 == w { e = $6 < 0 ? -$6 : $6; print $1, e }' "$out-p2p.csv" |
        sort -k1,1 -k2,2g | awk '{ v[$1, ++n[$1]] = $2 }
            END { for (p in n) { k = n[p]; m = k % 2 ? v[p, (k + 1) / 2] : (v[p, k / 2] + v[p, k / 2 + 1]) / 2
                                 printf "%s %.2f\n", p, 100 * m } }' | sort
}
p2p_medians shipped > "$scratch/shipped.med"
p2p_medians refit > "$scratch/refit.med"
join "$scratch/shipped.med" "$scratch/refit.med" | awk '
    { d = $2 - $3; if (d < 0) d = -d; if (d > 0.2) { bad = 1; print "differs: " $0 } }
    END { if (bad || NR != 5) exit 1 }' || {
    echo "orfeo.sh: $plat is not what the point-to-point file gives" >&2
    exit 1
}

# --- Predictions ---------------------------------------------------------
# measured OSU_FILE OUT: the rows of an OSU output of the checkout as
# np,size,seconds.
measured() {
    show "$1" | awk -F, 'NR > 1 && NF >= 3 { gsub(/ /, ""); print $1 "," $2 "," $3 * 1e-6 }' > "$2"
}

# predicted COLL ALGO NPS SIZES OUT: simcoll's times of ALGO (profile: the
# library's choice for COLL) at those process counts and sizes, on the
# shipped platform into OUT-shipped.csv and on before/'s into
# OUT-before.csv.
predicted() {
    case $2 in
    profile) what="--coll $1 --mpi $profile" ;;
    *) what="--algo $2" ;;
    esac
    for p in shipped before; do
        case $p in shipped) pf=$plat ;; *) pf=$before ;; esac
        # shellcheck disable=SC2086 # the options are split on purpose
        "$simcoll" --platform "$pf" $what --np "$3" --size "$4" --no-payload \
            --format csv > "$5-$p.csv"
    done
}

# osu_predicted COLL ALGO HAN MEASURED OUT: what osu_COLL prints at each
# point of MEASURED ("processes,bytes,seconds") on the shipped platform, as
# simcoll validate --measure osu simulates OSU's loop (warm-up, a barrier
# after every call as the profile chooses it, each rank's mean, their
# average): ALGO below 128 ranks (profile: the library's choice), HAN at
# 128; validate's CSV into OUT-osu.csv. The points go to validate as
# simcoll-probe files (rows "collective COLL np bytes seconds"), ranks by
# core (validate's block placement, as the collective runs').
osu_predicted() {
    for osu_part in flat han; do
        # shellcheck disable=SC2016 # awk conditions
        case $osu_part in flat) osu_keep='$1 != 128' ;; *) osu_keep='$1 == 128' ;; esac
        {
            echo "# simcoll-probe 1"
            sort -t, -k1,1n -k2,2n "$4" |
                awk -F, -v c="$1" "$osu_keep"' { printf "collective %s %d %d %s\n", c, $1, $2, $3 }'
        } > "$5-$osu_part.probe"
    done
    osu_flat=$5-flat.probe
    [ "$2" = profile ] || osu_flat=$osu_flat@$2
    osu_han=$5-han.probe@$3
    grep -q '^collective' "$5-han.probe" || osu_han=
    # shellcheck disable=SC2086 # $osu_han is one file, or nothing
    "$simcoll" validate --platform "$plat" --mpi "$profile" --measure osu --format csv \
        "$osu_flat" $osu_han > "$5-osu.csv" 2> "$5-osu.err" || { cat "$5-osu.err" >&2; exit 1; }
}

# Each series with simcoll's algorithm at every process count and size it
# measured, ranks by core as mpirun placed them (block: 64 a node, socket 0's
# cores first). Measured rows: np,size,seconds.
n=0
while read -r job file alg dyn ran algo; do
    n=$((n + 1))
    measured "bcast/$file" "$scratch/m$n.csv"
    nps=$(cut -d, -f1 "$scratch/m$n.csv" | sort -n | uniq | paste -sd,)
    sizes=$(cut -d, -f2 "$scratch/m$n.csv" | sort -n | uniq | paste -sd,)
    predicted bcast "$algo" "$nps" "$sizes" "$scratch/p$n"
    # 128 ranks, 64 a node: coll/han ran, with tuned's rules or the forced
    # algorithm inside the nodes; the shipped platform predicts it so (the
    # "before" column keeps the flat algorithm simcoll ran before it had han).
    case $algo in
    profile) han=bcast-ompi-han ;;
    bcast-ompi-linear) han=bcast-ompi-han-linear ;;
    bcast-ompi-chain) han=bcast-ompi-han-chain ;;
    bcast-ompi-bintree) han=bcast-ompi-han-bintree ;;
    *) echo "orfeo.sh: no han variant of $algo" >&2; exit 1 ;;
    esac
    if grep -q '^128,' "$scratch/m$n.csv"; then
        "$simcoll" --platform "$plat" --algo "$han" --np 128 --size "$sizes" --no-payload \
            --format csv > "$scratch/p$n-han.csv"
        awk -F, 'FNR == 1 { for (i = 1; i <= NF; i++) c[$i] = i }
                 FILENAME == ARGV[1] && (FNR == 1 || $(c["np"]) != 128) { print }
                 FILENAME == ARGV[2] && FNR > 1 { print }' \
            "$scratch/p$n-shipped.csv" "$scratch/p$n-han.csv" > "$scratch/p$n-merged.csv"
        mv "$scratch/p$n-merged.csv" "$scratch/p$n-shipped.csv"
    fi
    osu_predicted bcast "$algo" "$han" "$scratch/m$n.csv" "$scratch/p$n"
done < "$scratch/series"

# predictions SERIES ALG RAN MEASURED OSU BEFORE SHIPPED: one job's rows of
# orfeo.csv or orfeo-osu-scatter.csv (their columns below): each point of
# MEASURED ("processes,bytes,seconds") with OSU's loop on the platform (OSU,
# simcoll validate's CSV), and one call on the platform (SHIPPED) and before
# (BEFORE), both simcoll's --format csv; the algorithms must agree.
predictions() {
    awk -F, -v series="$1" -v alg="$2" -v ran="$3" '
        FILENAME == ARGV[1] { m[$1 "," $2] = $3; next }
        FILENAME == ARGV[2] { if (FNR > 1) { o[$3 "," $4] = $7; oa[$3 "," $4] = $5 }; next }
        FNR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
        !/^[a-z]/ { next }
        { k = $(c["np"]) "," $(c["size_bytes"]) }
        FILENAME == ARGV[3] { b[k] = $(c["mean_rank_time_s"]); next }
        (k in m) && m[k] > 0 {
            if (!(k in b)) { print "orfeo.sh: no before prediction of " k > "/dev/stderr"; exit 1 }
            if (!(k in o) || oa[k] != $(c["algo"])) {
                print "orfeo.sh: OSU loop and one call ran other algorithms at " k > "/dev/stderr"
                exit 1
            }
            p = o[k]; q = $(c["mean_rank_time_s"]); r = b[k]
            printf "%s,%s,%s,%s,%s,%.9g,%.9g,%.4f,%.9g,%s,%.9g,%.4f,%.9g,%.4f\n", series, alg,
                   ran, k, $(c["algo"]), m[k], p, (p - m[k]) / m[k], $(c["sim_time_s"]),
                   $(c["np"]) == 128 ? "yes" : "no", r, (r - m[k]) / m[k], q, (q - m[k]) / m[k] }' \
        "$4" "$5" "$6" "$7"
}

# all_predictions M P: the header of orfeo.csv and orfeo-osu-scatter.csv, and
# for the n-th line "SERIES ALG RAN" read, its predictions: measured in
# $scratch/Mn.csv, predicted in $scratch/Pn-osu.csv, Pn-before.csv and
# Pn-shipped.csv.
all_predictions() {
    echo "series,ompi_algorithm,ran,np,size_bytes,algo,measured_s,predicted_s,error,predicted_slowest_s,han,before_s,before_error,call_s,call_error"
    n=0
    while read -r series alg ran; do
        n=$((n + 1))
        predictions "$series" "$alg" "$ran" "$scratch/$1$n.csv" "$scratch/$2$n-osu.csv" \
            "$scratch/$2$n-before.csv" "$scratch/$2$n-shipped.csv"
    done
}

# orfeo.csv: series (varied or fixed), Open MPI's algorithm number and what
# ran, process count, bytes, simcoll's algorithm, measured and predicted mean
# seconds (OSU's loop), relative error, the slowest rank's time in one call,
# whether the
# measured run used coll/han (128 ranks, 64 a node: Open MPI 5.0.5's
# hierarchical broadcast, predicted by simcoll's bcast-ompi-han variants;
# below 128 the job is on one node, or its nodes hold unequal counts, and
# han steps aside), and the prediction and error before nested levels
# inside nodes and han (the flat algorithm at 128; one call), and one call's
# prediction and error on the platform.
while read -r job file alg dyn ran algo; do
    echo "${file%%/*} $alg $ran"
done < "$scratch/series" | all_predictions m p > "$out.csv"

# --- Summary -------------------------------------------------------------
# rankings FILTER COLUMN CSV: for each (series, processes, size) of the rows
# the awk pattern FILTER keeps, whether simcoll's fastest (the prediction in
# COLUMN) is the measured fastest (column 7; ties count when they share it)
# and Kendall's tau-b between the two orders: "SERIES PROCESSES TOP1 TAU
# BYTES" lines, leaving out points where simcoll predicts every algorithm
# alike.
rankings() {
    awk -F, -v col="$2" "$1"' {
        k = $1 SUBSEP $4 SUBSEP $5; n[k]++; m[k, n[k]] = $7; p[k, n[k]] = $col }
        END {
            for (k in n) {
                c = n[k]; if (c < 2) continue
                mm = m[k, 1]; pm = p[k, 1]
                for (i = 2; i <= c; i++) { if (m[k, i] < mm) mm = m[k, i]; if (p[k, i] < pm) pm = p[k, i] }
                top = 0
                for (i = 1; i <= c; i++) if (m[k, i] == mm && p[k, i] <= pm * (1 + 1e-9)) top = 1
                C = D = tx = ty = 0
                for (i = 1; i <= c; i++) for (j = i + 1; j <= c; j++) {
                    dx = m[k, i] - m[k, j]; dy = p[k, i] - p[k, j]
                    if (dy != 0 && (dy < 0 ? -dy : dy) <= 1e-9 * pm) dy = 0
                    if (dx == 0) tx++
                    if (dy == 0) ty++
                    if (dx * dy > 0) C++; else if (dx * dy < 0) D++
                }
                n0 = c * (c - 1) / 2; den = sqrt((n0 - tx) * (n0 - ty))
                if (ty == n0) continue
                split(k, f, SUBSEP)
                printf "%s %d %s %s %d\n", f[1], f[2], top, (den > 0 ? (C - D) / den : "none"), f[3]
            }
        }' "$3"
}

# classes CSV RANK_CALL RANK_OSU: by size class (up to 4 KiB, above), one
# call against OSU's loop: every point's errors (classes.awk), then the top-1
# agreement of two rankings' files.
classes() {
    echo "# by size class, every point: one call against OSU's loop; top-1 agreement of the rankings above"
    awk -F, 'NR > 1 { print $5, $15, $9 }' "$1" | awk -v bench=osu -f "$here/classes.awk"
    echo "# top-1 by size class: points top-1 one call | points top-1 osu"
    awk 'FNR == 1 { f++ } { k = $5 <= 4096 ? 1 : 2; n[f, k]++; t[f, k] += $3; n[f, 3]++; t[f, 3] += $3 }
         END { split("up to 4 KiB,above 4 KiB,all", name, ",")
               for (k = 1; k <= 3; k++)
                   if (n[1, k] || n[2, k])
                       printf "%s: %d/%d | %d/%d\n", name[k], t[1, k], n[1, k], t[2, k], n[2, k] }' \
        "$2" "$3"
}

{
    echo "# osu_bcast on ORFEO GENOA (robonoff/HPC-project $commit), platforms/orfeo-genoa.xml"
    echo "# relative error (predicted - measured) / measured against OSU's average: OSU's loop (simcoll validate --measure osu); before: one call (mean_rank_time_s)"
    echo "# series alg ran simcoll processes: points median|error| largest | before: median largest"
    while read -r job file alg dyn ran algo; do
        echo "${file%%/*} $alg $ran $algo"
    done < "$scratch/series" | by_series "$out.csv"
    by_processes "$out.csv"
    # The varied series on one node, the rerun of the default left out (2
    # ranks share a CCX).
    # shellcheck disable=SC2016 # an awk expression
    by_size "$out.csv" '$2 != 1'
    echo
    # Rankings: at each (series, processes, size) where several algorithms
    # were measured (varied: default, pipeline, binary tree; the rerun of
    # the default is left out; fixed: those and basic linear), does simcoll's
    # fastest match the measured fastest (ties count when they share it), and
    # Kendall's tau-b between the two orders (pairs tied on both sides count
    # neither way; a point whose measurements all tie has no tau). Points
    # where simcoll predicts every algorithm alike (2 processes: each is one
    # message) rank nothing and are left out.
    echo "# rankings: series processes: points top-1-agree mean-tau median-tau (before: top-1 mean-tau) [one call: top-1 mean-tau]"
    for col in 8 12 14; do
        # shellcheck disable=SC2016 # an awk pattern
        rankings 'NR > 1 && !($1 == "varied" && $2 == 1)' "$col" "$out.csv" > "$scratch/rank$col"
    done
    for s in varied fixed; do
        for r in "2 64" "65 127" "128 128"; do
            # shellcheck disable=SC2086 # numbers and a label
            set -- $r
            a=$(awk -v s="$s" -v lo="$1" -v hi="$2" '$1 == s && $2 >= lo && $2 <= hi' "$scratch/rank8")
            [ -n "$a" ] || continue
            b=$(echo "$a" | awk '{ n++; t += $3 } $4 != "none" { print $4 > "/dev/stderr"; m++; s += $4 }
                END { printf "%d %d/%d %.2f", n, t, n, m ? s / m : 0 }' 2> "$scratch/taus")
            med=$(sort -g "$scratch/taus" | awk '{ v[++n] = $1 } END { if (n) printf "%.2f", n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2 }')
            other() { # FILE: top-1 and mean tau of another prediction
                awk -v s="$s" -v lo="$1" -v hi="$2" '$1 == s && $2 >= lo && $2 <= hi { n++; t += $3 }
                    $1 == s && $2 >= lo && $2 <= hi && $4 != "none" { m++; x += $4 }
                    END { printf "%d/%d %.2f", t, n, m ? x / m : 0 }' "$3"
            }
            echo "$s $1-$2: $b $med ($(other "$1" "$2" "$scratch/rank12"))" \
                "[one call: $(other "$1" "$2" "$scratch/rank14")]"
        done
    done
    echo
    classes "$out.csv" "$scratch/rank14" "$scratch/rank8"
    echo
    # The varied run of algorithm 1 measured the default again: how far two
    # measurements of the same broadcast lie apart, (rerun - first) / first.
    echo "# repeatability, varied default measured twice: points median|difference| largest"
    echo "default twice: $(awk -F, '$1 == "varied" && $2 == 0 { a[$4 "," $5] = $7 }
        $1 == "varied" && $2 == 1 { b[$4 "," $5] = $7 }
        END { for (k in a) if (k in b) print (b[k] - a[k]) / a[k] }' "$out.csv" | stats)"
    echo
    echo "# platform, one message one way: placement (rank 0 to): points median|error| largest | before: median largest"
    for p in ccx ccd numa socket node; do
        a=$(awk -F, -v p="$p" 'NR > 1 && $1 == p && $2 == "shipped" { print $6 }' "$out-p2p.csv" | stats)
        b=$(awk -F, -v p="$p" 'NR > 1 && $1 == p && $2 == "before" { print $6 }' "$out-p2p.csv" | stats |
            cut -d' ' -f2-)
        echo "$p: $a | $b"
    done
} > "$out-summary.txt"
cat "$out-summary.txt"

# --- Plots ---------------------------------------------------------------
# accuracy_plot CSV PNG BENCHMARK ALGORITHM...: predicted against measured,
# every point of CSV (log-log; the diagonal is exact), a series for each
# algorithm, and for each under han.
accuracy_plot() {
    csv=$1 png=$2 bench=$3
    shift 3
    rm -rf "$scratch/dat" && mkdir "$scratch/dat"
    awk -F, 'NR > 1 { print > (d "/" $3 ($11 == "yes" ? "-han" : "") ".dat") }' d="$scratch/dat" "$csv"
    {
        echo "set terminal pngcairo noenhanced size 900,700 font ',11'"
        echo "set output '$png'"
        echo "set logscale xy; set grid; set key top left"
        echo "set xlabel 'measured (us)'; set ylabel 'predicted by simcoll (us)'"
        echo "set title '$bench on ORFEO GENOA, Open MPI 5.0.5, 2-128 ranks, 64 a node'"
        printf "set datafile separator ','\nplot x title 'exact' lw 2 lc rgb 'black'"
        printf ", 2*x title 'x2' dt 2 lc rgb 'gray', x/2 title '/2' dt 2 lc rgb 'gray'"
        for r in "$@"; do
            [ -s "$scratch/dat/$r.dat" ] &&
                printf ", '%s' using (\$7*1e6):(\$8*1e6) title '%s' pt 7 ps 0.6" "$scratch/dat/$r.dat" "$r"
            [ -s "$scratch/dat/$r-han.dat" ] &&
                printf ", '%s' using (\$7*1e6):(\$8*1e6) title '%s, 128 ranks (han)' pt 4 ps 0.8" \
                    "$scratch/dat/$r-han.dat" "$r"
        done
        echo
    } | gnuplot
}

# time_plots CSV FILTER OUT BENCHMARK FOUR_BYTES: time against size at 64
# ranks (one node) into OUT-64.png and against the process count at 4 bytes
# into OUT-fixed.png, measured and predicted per algorithm, of CSV's rows the
# awk FILTER keeps, through simcoll plot.
time_plots() {
    awk -F, 'NR == 1 { print "series,np,size_bytes,source,time_s"; next }
             '"$2"' {
                 print $1 "," $4 "," $5 ",measured " $3 "," $7
                 print $1 "," $4 "," $5 ",simcoll " $3 "," $8 }' "$1" > "$scratch/long.csv"
    "$simcoll" plot "$scratch/long.csv" -x size_bytes -y time_s --by source --where series=varied \
        --where np=64 --logx --logy --title "$4, 64 ranks on one GENOA node (Open MPI 5.0.5)" \
        -o "$3-64.png"
    "$simcoll" plot "$scratch/long.csv" -x np -y time_s --by source --where series=fixed \
        --linx --logy --title "$5, 2-128 ranks, 64 a node (Open MPI 5.0.5)" -o "$3-fixed.png"
}

accuracy_plot "$out.csv" "$out-scatter.png" osu_bcast default basic_linear pipeline binary_tree
# The rerun of the default left out.
# shellcheck disable=SC2016 # an awk expression
time_plots "$out.csv" '!($1 == "varied" && $2 == 1)' "$out" osu_bcast "osu_bcast of 4 bytes"

# --- osu_scatter ----------------------------------------------------------
# The same platform and placements, nothing fitted: scatter/varied (2 B to
# 256 KiB a rank's block, 2 to 128 processes, powers of two) and
# scatter/fixed (4 B, 2 to 128 processes), coll_tuned_scatter_algorithm
# 0 to 3. Both job scripts loop over the four with coll_tuned_use_dynamic_rules
# true on every mpirun, so each forced algorithm ran (5.0.5's
# ompi_coll_tuned_scatter_intra_dec_dynamic: a forced algorithm first,
# then rules from a file, which none gave, then the fixed rules); 0 forces
# nothing and ran the fixed rules, which 5.0.5 shares with 4.1.6
# (--mpi openmpi-4.1). Numbers of coll_tuned_scatter_decision.c: 1
# basic_linear, 2 binomial, 3 linear_nb (max_requests 0: every send an
# isend). osu_scatter's size is one rank's block, its root rank 0, its
# "Avg Latency(us)" the mean over ranks (mean_rank_time_s). At 128 ranks,
# 64 a node, coll/han ran (coll_han_scatter.c): the scatter-ompi-han
# variants, the forced algorithm inside the nodes. Each point is predicted on
# the shipped platform and, as "before", on before/orfeo-genoa-sockets.xml
# (one level inside a socket) with the same algorithms, han's included: the
# scatters were first predicted after nested levels, so the platform is the
# only thing the before columns change.
sout=$results/orfeo-osu-scatter
cat > "$scratch/sseries" <<'EOF'
varied/scatter_varied.sh varied/csv/scatter0_core_mapping.csv 0 default profile scatter-ompi-han
varied/scatter_varied.sh varied/csv/scatter1_core_mapping.csv 1 basic_linear scatter-ompi-linear scatter-ompi-han-linear
varied/scatter_varied.sh varied/csv/scatter2_core_mapping.csv 2 binomial scatter-ompi-binomial scatter-ompi-han-binomial
varied/scatter_varied.sh varied/csv/scatter3_core_mapping.csv 3 linear_nb scatter-ompi-linear-nb scatter-ompi-han-linear-nb
fixed/scatter.sh fixed/csv/scatter0_fixed_core.csv 0 default profile scatter-ompi-han
fixed/scatter.sh fixed/csv/scatter1_fixed_core.csv 1 basic_linear scatter-ompi-linear scatter-ompi-han-linear
fixed/scatter.sh fixed/csv/scatter2_fixed_core.csv 2 binomial scatter-ompi-binomial scatter-ompi-han-binomial
fixed/scatter.sh fixed/csv/scatter3_fixed_core.csv 3 linear_nb scatter-ompi-linear-nb scatter-ompi-han-linear-nb
EOF
# The job scripts: 2 nodes of 64 tasks; every mpirun line (continuations
# joined) maps by core, turns the dynamic rules on and forces the loop's
# algorithm, which runs over 0 to 3 and names the data file.
for job in varied/scatter_varied.sh fixed/scatter.sh; do
    show "scatter/$job" > "$scratch/job.sh"
    sed -e :a -e '/\\$/N; s/\\\n//; ta' "$scratch/job.sh" | grep -v '^[[:space:]]*#' |
        grep 'mpirun' > "$scratch/mpirun.txt" || true
    # shellcheck disable=SC2016 # $alg: the job script's own variable, literally
    if ! grep -q -- "--nodes=2" "$scratch/job.sh" ||
       ! grep -q -- "--ntasks-per-node=64" "$scratch/job.sh" ||
       ! grep -Eq 'for (alg|algoritm) in \{0\.\.3\}' "$scratch/job.sh" ||
       [ ! -s "$scratch/mpirun.txt" ] ||
       grep -v -- '--map-by core' "$scratch/mpirun.txt" | grep -q . ||
       grep -v -- 'coll_tuned_use_dynamic_rules true ' "$scratch/mpirun.txt" | grep -q . ||
       grep -Ev -- 'coll_tuned_scatter_algorithm \$(alg|algoritm) ' "$scratch/mpirun.txt" |
           grep -q .; then
        echo "orfeo.sh: scatter/$job does not force algorithms 0 to 3 with dynamic rules" \
             "true, 64 ranks a node by core" >&2
        exit 1
    fi
done
n=0
while read -r job file alg ran algo han; do
    n=$((n + 1))
    measured "scatter/$file" "$scratch/sm$n.csv"
    nps=$(cut -d, -f1 "$scratch/sm$n.csv" | awk '$1 != 128' | sort -n | uniq | paste -sd,)
    sizes=$(cut -d, -f2 "$scratch/sm$n.csv" | sort -n | uniq | paste -sd,)
    predicted scatter "$algo" "$nps" "$sizes" "$scratch/sp$n"
    osu_predicted scatter "$algo" "$han" "$scratch/sm$n.csv" "$scratch/sp$n"
    # 128 ranks: han ran, on both platforms alike.
    grep -q '^128,' "$scratch/sm$n.csv" || continue
    for p in shipped before; do
        case $p in shipped) pf=$plat ;; *) pf=$before ;; esac
        "$simcoll" --platform "$pf" --algo "$han" --np 128 --size "$sizes" --no-payload \
            --format csv | tail -n +2 >> "$scratch/sp$n-$p.csv"
    done
done < "$scratch/sseries"
# orfeo-osu-scatter.csv: series, Open MPI's algorithm number and what ran,
# processes, bytes (a rank's block), simcoll's algorithm, measured and
# predicted mean seconds (OSU's loop), relative error, the slowest rank's
# time in one call, whether han ran (128 ranks), the prediction and error
# before (before/orfeo-genoa-sockets.xml, the same algorithms, one call), and
# one call's prediction and error on the platform.
while read -r job file alg ran algo han; do
    echo "${file%%/*} $alg $ran"
done < "$scratch/sseries" | all_predictions sm sp > "$sout.csv"
measured=$(awk 'END { print NR }' "$scratch"/sm?.csv)
predicted=$(($(wc -l < "$sout.csv") - 1))
[ "$measured" -eq "$predicted" ] ||
    { echo "orfeo.sh: $measured scatter points measured, $predicted predicted" >&2; exit 1; }
{
    echo "# osu_scatter on ORFEO GENOA (robonoff/HPC-project $commit), platforms/orfeo-genoa.xml"
    echo "# relative error (predicted - measured) / measured against OSU's average: OSU's loop (simcoll validate --measure osu)"
    echo "# before: one call (mean_rank_time_s) of the same algorithms on before/orfeo-genoa-sockets.xml (one level inside a socket)"
    echo "# series alg ran simcoll processes: points median|error| largest | before: median largest"
    while read -r job file alg ran algo han; do
        echo "${file%%/*} $alg $ran $algo"
    done < "$scratch/sseries" | by_series "$sout.csv"
    # Per algorithm, every series and process count.
    for a in 0 1 2 3; do
        e=$(awk -F, -v a="$a" 'NR > 1 && $2 == a { print $9 }' "$sout.csv" | stats)
        b=$(awk -F, -v a="$a" 'NR > 1 && $2 == a { print $13 }' "$sout.csv" | stats | cut -d' ' -f2-)
        echo "algorithm $a, all series 2-128: $e | $b"
    done
    by_processes "$sout.csv"
    # The varied series on one node by block size (2 ranks apart: one
    # message).
    by_size "$sout.csv" 1
    echo
    # Rankings of the three forced algorithms (the default runs one of
    # them: ranking it would set an algorithm against itself) at each
    # (series, processes, size): simcoll's fastest the measured fastest
    # (ties count when they share it), Kendall's tau-b between the orders;
    # points where simcoll predicts all alike (2 ranks: one message) left out.
    echo "# rankings of basic_linear, binomial, linear_nb: series processes: points top-1-agree mean-tau median-tau (before: points top-1 mean-tau median-tau) [one call: the same]"
    # shellcheck disable=SC2016 # an awk pattern
    rankings 'NR > 1 && $2 != 0' 8 "$sout.csv" > "$scratch/srank"
    # shellcheck disable=SC2016
    rankings 'NR > 1 && $2 != 0' 12 "$sout.csv" > "$scratch/srank-before"
    # shellcheck disable=SC2016
    rankings 'NR > 1 && $2 != 0' 14 "$sout.csv" > "$scratch/srank-call"
    # ranked FILE SERIES LO HI: "points top-1/points mean-tau median-tau" of those rows
    ranked() {
        awk -v s="$2" -v lo="$3" -v hi="$4" '$1 == s && $2 >= lo && $2 <= hi' "$1" |
            awk '{ n++; t += $3 } $4 != "none" { print $4 > "/dev/stderr"; m++; s += $4 }
                 END { if (n) printf "%d %d/%d %.2f", n, t, n, m ? s / m : 0 }' 2> "$scratch/staus"
        [ -s "$scratch/staus" ] || return 0
        sort -g "$scratch/staus" | awk '{ v[++n] = $1 } END { if (n) printf " %.2f", n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2 }'
    }
    for s in varied fixed; do
        for r in "2 64" "65 127" "128 128"; do
            # shellcheck disable=SC2086 # numbers
            set -- $r
            a=$(ranked "$scratch/srank" "$s" "$1" "$2")
            [ -n "$a" ] || continue
            echo "$s $1-$2: $a ($(ranked "$scratch/srank-before" "$s" "$1" "$2"))" \
                "[one call: $(ranked "$scratch/srank-call" "$s" "$1" "$2")]"
        done
    done
    echo "all: $(awk '{ n++; t += $3 } END { printf "%d/%d", t, n }' "$scratch/srank") top-1" \
         "(before: $(awk '{ n++; t += $3 } END { printf "%d/%d", t, n }' "$scratch/srank-before"))" \
         "[one call: $(awk '{ n++; t += $3 } END { printf "%d/%d", t, n }' "$scratch/srank-call")]"
    echo
    classes "$sout.csv" "$scratch/srank-call" "$scratch/srank"
    echo
    # The default against the forced algorithm it ran (the same messages):
    # two measurements of one scatter, (default - forced) / forced.
    echo "# repeatability, the default against the forced algorithm simcoll says it ran: points median|difference| largest"
    echo "default against its forced twin: $(awk -F, 'NR > 1 && $2 != 0 { f[$1 "," $4 "," $5 "," $6] = $7 }
        NR > 1 && $2 == 0 { d[$1 "," $4 "," $5 "," $6] = $7 }
        END { for (k in d) if (k in f) print (d[k] - f[k]) / f[k] }' "$sout.csv" | stats)"
} > "$sout-summary.txt"
cat "$sout-summary.txt"
accuracy_plot "$sout.csv" "$sout.png" osu_scatter default basic_linear binomial linear_nb
time_plots "$sout.csv" 1 "$sout" osu_scatter "osu_scatter of 4 bytes a rank"
echo "results: $out.csv, $out-summary.txt, $out-p2p.csv, $out-fit-{ccx,ccd,numa,socket,inter}.txt," \
     "$out-refit.xml," \
     "$out-{scatter,64,fixed}.png; $sout.csv, $sout-summary.txt, $sout{,-64,-fixed}.png"
