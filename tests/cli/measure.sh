#!/bin/sh
# simcoll validate --measure: the benchmarks' loops simulated. OSU's and
# IMB's give a time for every point; mpiperf's, one call timed to its
# slowest rank, is the collective run's sim_time_s; on 64 ranks the
# barrier's exit skew makes OSU's figure other than one call's; a
# benchmark simcoll does not run is refused.
# usage: measure.sh SIMCOLL SOURCE_DIR
# SPDX-License-Identifier: GPL-2.0-or-later
set -u
simcoll=$1 src=$2
. "$(dirname "$0")/lib.sh"
from_source
printf '# OSU MPI Broadcast Latency Test v5.6.2\n# Size       Avg Latency(us)\n4 10.00\n65536 300.00\n' > osu_bcast.txt
printf '# OSU MPI Allreduce Latency Test v5.6.2\n# Size       Avg Latency(us)\n8 10.00\n65536 300.00\n' > osu_allreduce.txt

simulated() { # FILE NP MEASURE [CHOICE]: the simulated column (s), a line a point;
    # the benchmark's barriers are CHOICE's (--algo: the dissemination barrier)
    "$simcoll" validate --platform gige.xml ${4:---mpi openmpi-4.1} --np "$2" --measure "$3" \
        --format csv "$1" 2>/dev/null | awk -F, 'NR > 1 && $1 != "" { print $7 }'
}
for m in osu imb; do
    simulated osu_bcast.txt 16 $m | awk -v m=$m '!($1 > 0 && $1 < 1) { print m ": " $0; bad = 1 }
                                                 END { exit bad || NR != 2 }' ||
        fail "--measure $m: no time for every point"
done
mine=$(simulated osu_bcast.txt 16 mpiperf | head -n 1)
run=$("$simcoll" --platform gige.xml --mpi openmpi-4.1 --coll bcast --np 16 --size 4 \
    --no-payload --format csv | awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i }
                                         NR == 2 { print $c["sim_time_s"] }')
awk -v a="$mine" -v b="$run" 'BEGIN { d = (a - b) / b; exit !(d < 1e-6 && d > -1e-6) }' ||
    fail "mpiperf $mine, the call's sim_time_s $run"
[ "$(simulated osu_bcast.txt 64 osu)" != "$(simulated osu_bcast.txt 64 call)" ] ||
    fail "64 ranks: OSU's loop gives the one call's time"
"$simcoll" validate --platform gige.xml --mpi openmpi-4.1 --np 2 --measure netpipe \
    osu_bcast.txt > out.txt 2> err.txt
[ $? = 2 ] && grep -q "'netpipe' is not a benchmark simcoll runs: call, osu, imb or mpiperf" err.txt &&
    [ ! -s out.txt ] || fail "--measure netpipe: $(cat err.txt)"
echo "measure.sh: all cases passed"
