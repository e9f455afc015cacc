#!/bin/sh
# simcoll run --export-ti: traces and programs written as SMPI
# time-independent traces. What simcoll reads back runs to the same
# simulated time as the original (traces of each format, programs with
# halos, sends, collectives and counted and until loops); what the format
# cannot hold is refused with exit 2 and no folder left; with SMPI's
# replay at hand, SMPI reads every written file and agrees within 1%
# (experiments/smpi-comparison/traces.sh, whose figures README.md gives).
# usage: export_ti.sh SIMCOLL SOURCE_DIR
# SPDX-License-Identifier: GPL-2.0-or-later
set -u
simcoll=$1 src=$2
. "$(dirname "$0")/lib.sh"
from_source

sim_time() { # INPUT [OPTIONS...]: the run's sim_time_s
    input=$1
    shift
    line=$("$simcoll" run --platform gige.xml --format csv "$@" "$input" 2>/dev/null) ||
        fail "$input $*: the run failed"
    column=$(echo "$line" | head -n 1 | tr , '\n' | grep -nx sim_time_s | cut -d: -f1)
    echo "$line" | sed -n 2p | cut -d, -f"$column"
}

# same INPUT DIR [OPTIONS...]: the export of INPUT in DIR, read back, takes
# INPUT's time (to the 9 digits of a program's row).
same() {
    input=$1 dir=$2
    shift 2
    a=$(sim_time "$input" --export-ti "$dir" "$@")
    [ -f "$dir/index.txt" ] || fail "$input: no $dir/index.txt"
    b=$(sim_time "$dir/index.txt")
    awk -v a="$a" -v b="$b" 'BEGIN { d = (a - b) / a; exit !(d < 1e-8 && d > -1e-8) }' ||
        fail "$input: $a s, its export $b s"
}

same "$traces/sst-dumpi-testtrace-4/testtrace.meta" dumpi4
same "$traces/sst-macro-dumpi-bgp-7/testbgp.meta" bgp7
same "$traces/simgrid-ti-32/smpi_replay.txt" ti32 # alltoallv's receive counts
if "$simcoll" run --platform gige.xml "$traces/pipit-pingpong-otf2-2/traces.otf2" >/dev/null 2>&1; then
    same "$traces/pipit-pingpong-otf2-2/traces.otf2" otf2 # (a build with OTF2)
fi
same "$src/experiments/packing/halo.prog" halo --np 16 --no-payload
same "$src/experiments/packing/cg.prog" cg --np 24 --no-payload
printf 'loop 3\n  send 1K from=0 to=5\n  compute 1Mf spread=0.5\n  bcast 4K root=2\nend\nhalo 2K dims=2 periodic\nbarrier\nreduce 24 root=1\n' > mixed.prog
same mixed.prog mixed --np 12
printf 'until 1e-6 max=40 error=1 rate=0.5\n  compute 100us\nend\n' > until.prog
same until.prog until --np 8
grep -q '^0 compute 1000000$' mixed/rank-0.txt || fail "mixed: rank 0 computes not 1e6 flops"
grep -q '^11 compute 1500000$' mixed/rank-11.txt || fail "mixed: rank 11's imbalance is not 1.5"
[ "$(grep -c allreduce until/rank-3.txt)" = 21 ] || fail "until: not one allreduce an iteration"

# refused OUTPUT-DIR REGEX INPUT [OPTIONS...]: exit 2, the message, no
# folder of that name or beside it.
refused() {
    dir=$1 regex=$2 input=$3
    shift 3
    : > out.txt
    : > err.txt
    before=$(ls)
    "$simcoll" run --platform gige.xml --export-ti "$dir" "$@" "$input" > out.txt 2> err.txt
    code=$?
    [ $code = 2 ] || fail "$input $*: exit $code, expected 2: $(cat err.txt)"
    grep -Eq -- "$regex" err.txt || fail "$input: message does not match '$regex': $(cat err.txt)"
    [ ! -s out.txt ] || fail "$input: wrote to stdout"
    [ "$(ls)" = "$before" ] || fail "$input: left $(ls | tr '\n' ' ')"
}

mkdir full && touch full/x
refused full "'full': the folder is not empty" mixed.prog --np 12
rm -r full
refused nowhere/x "its parent folder does not exist" mixed.prog --np 12
refused x "--export-ti writes one run; give one --np, not 12,16" mixed.prog --np 12,16
printf 'until 1e-3 max=10 error=1 rate=0.5 predict\n  compute 10us\nend\n' > bet.prog
refused x "bet.prog:1: an until loop with predict cannot be written" bet.prog --np 4
printf '0 init\n1 init\n0 irecv -333 0 8\n1 send 0 0 8\n0 wait -333 0 0\n' > any.txt
refused x "rank 0, any.txt:3: a receive from any source .* cannot be written" any.txt
if "$simcoll" run --platform gige.xml "$traces/sst-macro-otf2-10/traces.otf2" >/dev/null 2>&1; then
    refused x "a collective on a communicator other than MPI_COMM_WORLD cannot be written" \
        "$traces/sst-macro-otf2-10/traces.otf2"
fi

# SMPI's replay reads what was written, and agrees.
if command -v smpirun >/dev/null && command -v gcc >/dev/null; then
    RESULTS=$work "$src/experiments/smpi-comparison/traces.sh" "$simcoll" > smpi.txt 2>&1 ||
        fail "experiments/smpi-comparison/traces.sh failed: $(tail -n 3 smpi.txt)"
    awk -F, 'NR > 1 && ($5 > 1 || $5 < -1 || $4 == "" || $4 == 0) { bad = bad $0 "\n" }
             END { if (bad) { printf "%s", bad; exit 1 } }' traces.csv ||
        fail "SMPI disagrees beyond 1% (above)"
    echo "export_ti.sh: SMPI's replay agrees within 1% on $(($(wc -l < traces.csv) - 1)) inputs"
fi
echo "export_ti.sh: all cases passed"
