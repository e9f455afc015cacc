#!/bin/sh
# simcoll against SMPI (SimGrid's MPI) on the same platform and network
# model, algorithm by algorithm: writes results/comparison.csv and
# results/summary.txt. The pairs below name the same algorithm in both; each
# was read in SMPI 3.32's source (src/smpi/colls/) and simcoll's.
# Needs a built simcoll (./setup.sh) and SMPI (smpicc, smpirun: Debian's
# libsimgrid-dev); about three minutes on 2 cores.
# usage: experiments/smpi-comparison/run.sh [path/to/simcoll]
# SPDX-License-Identifier: GPL-2.0-or-later
set -eu
. "$(dirname "$0")/../common.sh"
simcoll=${1:-$top/build/simcoll}
need_simcoll "$simcoll"
for tool in smpicc smpirun; do
    command -v $tool >/dev/null || { echo "run.sh: needs $tool (apt-get install libsimgrid-dev)" >&2; exit 2; }
done

# collective, simcoll's name, SMPI's name (--cfg=smpi/COLLECTIVE:NAME), and
# what else SMPI needs to run the same algorithm: redbcast reduces and
# broadcasts with SMPI's selected algorithms, here set to binomial ones;
# mpich_smp builds node communicators with collectives of its own on its
# first call, so that call is a warm-up, untimed (see smpi_coll.c).
# Left out because SMPI's algorithm differs from simcoll's of that name:
# ompi_split_bintree (SMPI segments 1 KiB or 8 KiB and falls back to a
# linear broadcast for small messages) and reduce ompi_chain (SMPI runs
# size/2 chains of 64 KiB segments; simcoll's is one unsegmented chain).
pairs="allgather bruck bruck
allgather rd rdb
allgather ring NTSLR
allgather allgather-ompi-neighbor ompi_neighborexchange
bcast bcast-binomial binomial_tree
bcast bcast-scatter-rd scatter_rdb_allgather
bcast bcast-scatter-allgather scatter_LR_allgather
barrier barrier ompi_bruck
barrier barrier-ompi-rd ompi_recursivedoubling
barrier barrier-ompi-linear ompi_basic_linear
barrier barrier-ompi-tree ompi_tree
barrier barrier-mpich-smp mpich_smp warm
reduce reduce-mst binomial
reduce reduce-ompi-linear ompi_basic_linear
reduce reduce-ompi-binary ompi_binary
reduce reduce-ompi-binomial ompi_binomial
reduce reduce-ompi-in-order-binary ompi_in_order_binary
allreduce allreduce-rd rdb
allreduce allreduce-mst redbcast --cfg=smpi/reduce:binomial,--cfg=smpi/bcast:binomial_tree
allreduce allreduce-rhrd rab_rdb
allreduce allreduce-ring lr"
nps="16 24 64"
sizes="8 2048 32768"

# ib4x.xml's nodes (8 cores, its links), made comparable with what SMPI
# models: no software overheads and no header bytes (SMPI has neither
# unless configured), one eager limit on both levels (SMPI has one), and
# cores so fast that reductions take no time (SMPI is told not to time
# computation).
"$simcoll" platform --like "$top/platforms/ib4x.xml" --nodes 8 -o "$scratch/ib4x.xml"
sed -e 's#"simcoll/\(intra\|inter\)/\(send\|recv\)-overhead" value="[^"]*"#"simcoll/\1/\2-overhead" value="0:0us"#' \
    -e 's#"simcoll/\(intra\|inter\)/eager-limit" value="[^"]*"#"simcoll/\1/eager-limit" value="65536"#' \
    -e 's#"simcoll/header-bytes" value="[^"]*"#"simcoll/header-bytes" value="0"#' \
    -e 's#speed="[^"]*"#speed="1e15f"#' "$scratch/ib4x.xml" > "$results/platform.xml"
# Reductions: simcoll charges a combine 3 bytes of memory traffic per byte
# (models/cost.c) and SMPI nothing; a memory bus of 1 PB/s makes that
# nothing in both, and intra-node messages cost their latency only.
sed 's#\(_membus" bandwidth="\)[^"]*"#\11e15Bps"#' "$results/platform.xml" > "$results/platform-reductions.xml"
awk 'BEGIN { for (n = 0; n < 8; n++) for (c = 0; c < 8; c++) print "node-" n }' > "$scratch/hosts"
smpicc -O2 -o "$scratch/smpi_coll" "$here/smpi_coll.c"

# SMPI with simcoll's network configuration (sim/simgrid/engine.c), without
# its own bandwidth and latency corrections, sends below 64 KiB eager
# (async-small-thresh: they flow before the receive is posted, as simcoll's
# eager messages do) and no timing of the program's own computation.
smpi() {
    extra=$(echo "$6" | tr , ' ')
    smpirun -np "$1" -platform "$5" -hostfile "$scratch/hosts" \
        --cfg=smpi/"$2":"$3" $extra --cfg=network/model:CM02 --cfg=network/crosstraffic:0 \
        --cfg=surf/precision:1e-12 --cfg=smpi/bw-factor:1 --cfg=smpi/lat-factor:1 \
        --cfg=smpi/async-small-thresh:65536 --cfg=smpi/send-is-detached-thresh:65536 \
        --cfg=smpi/simulate-computation:no --log=root.thresh:error \
        "$scratch/smpi_coll" "$2" "$4" $7 | tail -n 1
}

csv=$results/comparison.csv
echo "collective,simcoll_algo,smpi_algo,np,size_bytes,simcoll_s,smpi_s,difference_pct" > "$csv"
echo "$pairs" | while read -r coll ours theirs options; do
    warm=""
    case $options in warm) warm=warm options="" ;; esac
    for np in $nps; do
        # rd, rab_rdb and scatter_rdb_allgather need a power of two in both.
        case "$ours,$np" in rd,24 | allreduce-rhrd,24 | bcast-scatter-rd,24) continue ;; esac
        # lr is a ring only for a multiple of np elements (doubles): it
        # runs rdb below np and a second allreduce on the remainder.
        for size in $sizes; do
            [ "$coll" = barrier ] && [ "$size" != 8 ] && continue
            [ "$theirs" = lr ] && [ $((size / 8 % np)) != 0 ] && continue
            set -- --algo "$ours" --np "$np" --no-payload --format csv
            [ "$coll" = barrier ] || set -- "$@" --size "$size"
            platform=$results/platform.xml
            case $coll in reduce | allreduce) platform=$results/platform-reductions.xml ;; esac
            mine=$("$simcoll" --platform "$platform" "$@" | tail -n 1 | cut -d, -f8)
            bytes=$size
            [ "$coll" = barrier ] && bytes=0
            other=$(smpi "$np" "$coll" "$theirs" "$bytes" "$platform" "$options" "$warm")
            awk -v c="$coll" -v a="$ours" -v b="$theirs" -v n="$np" -v s="$bytes" -v x="$mine" \
                -v y="$other" 'BEGIN { printf "%s,%s,%s,%d,%d,%.9g,%.9g,%.2f\n",
                                       c, a, b, n, s, x, y, 100 * (x - y) / y }' >> "$csv"
        done
    done
done

# summary.txt: per pair, the largest and the median |difference|.
awk -F, 'NR > 1 { k = $1 "," $2 "," $3; d = $8 < 0 ? -$8 : $8; n[k]++; v[k, n[k]] = d
                  if (!(k in order)) { order[k] = ++K; keys[K] = k } }
    END { print "# collective,simcoll,smpi,runs,median_abs_difference_pct,largest_abs_difference_pct"
          for (i = 1; i <= K; i++) {
              k = keys[i]; m = n[k]
              for (a = 1; a <= m; a++) for (b = a + 1; b <= m; b++)
                  if (v[k, b] < v[k, a]) { t = v[k, a]; v[k, a] = v[k, b]; v[k, b] = t }
              med = m % 2 ? v[k, (m + 1) / 2] : (v[k, m / 2] + v[k, m / 2 + 1]) / 2
              printf "%s,%d,%.2f,%.2f\n", k, m, med, v[k, m]
          } }' "$csv" > "$results/summary.txt"
cat "$results/summary.txt"
