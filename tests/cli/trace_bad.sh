#!/bin/sh
# Bad traces: each refused with exit code 2, a message naming the file,
# the rank and the event, nothing on stdout and no file written.
# usage: trace_bad.sh SIMCOLL SOURCE_DIR
# SPDX-License-Identifier: GPL-2.0-or-later
set -u
simcoll=$1 src=$2
. "$(dirname "$0")/lib.sh"
from_source

# refused TRACE REGEX [PLATFORM]: exit 2, the message, nothing written.
refused() {
    rm -f out.txt err.txt tl.svg
    "$simcoll" run --platform "${3:-gige.xml}" --timeline tl.svg "$1" > out.txt 2> err.txt
    code=$?
    [ $code = 2 ] || fail "$1: exit $code, expected 2: $(cat err.txt)"
    grep -Eq -- "$2" err.txt || fail "$1: message does not match '$2': $(cat err.txt)"
    [ ! -s out.txt ] || fail "$1: wrote to stdout: $(cat out.txt)"
    [ ! -e tl.svg ] || fail "$1: wrote the timeline"
}

# ---- TI ----
printf '0 init\n0 frobnicate 3\n' > unknown.txt
refused unknown.txt "unknown.txt:2: unknown action 'frobnicate'"
printf '0 send 1\n1 recv 0 0 8\n' > short.txt
refused short.txt "short.txt:1: 'send' lacks its count"
printf '0 send 1 0 eight\n1 recv 0 0 8\n' > nan.txt
refused nan.txt "nan.txt:1: count 'eight' is not a number"
printf '0 bcast 8 0 99\n1 bcast 8 0 99\n' > type.txt
refused type.txt "type.txt:1: datatype '99' is not one of SimGrid's"
printf '0 send 1 0 8\n1 compute 1e6\n' > unreceived.txt
refused unreceived.txt "rank 0 sends 1 message.* to rank 1 on MPI_COMM_WORLD .* rank 1 receives only 0 of them.*a send is never received"
printf '0 compute 1e6\n1 recv 0 7 8\n' > unsent.txt
refused unsent.txt "rank 1 receives 1 message.* from rank 0 on MPI_COMM_WORLD .* rank 0 sends it only 0: a receive is never sent"
printf '0 init\n1 init\n0 finalize\n1 finalize\n' > empty.txt
refused empty.txt "holds no event to replay"
printf '0 send 2 0 8\n1 compute 1\n' > peer.txt
refused peer.txt "peer.txt:1: a message to rank 2 of a communicator of 2 ranks"
awk 'BEGIN { for (r = 0; r < 100; r++) print r, "compute 1e6" }' > wide.txt
refused wide.txt "has 100 ranks, more than platform '.*nocontention.xml' has cores \(28 on 4 nodes\)" \
    "$src/tests/platforms/nocontention.xml"
# a rank number beyond the file's actions: a wrong number, refused before
# room is taken for that many ranks (the fuzz smoke's input had 262854465)
printf '0 compute 1\n262854465 compute 1e6\n' > far.txt
refused far.txt "far.txt:2: rank 262854465 in a file of 2 actions; a TI trace holds the actions of every rank from 0 to its highest"
# an index naming a file that is not there
printf 'rank0.txt\nrank1.txt\n' > index.txt
printf '0 compute 1\n' > rank0.txt
refused index.txt "TI index '.*index.txt', line 2: 'rank1.txt' is not a file"

# ---- DUMPI ----
cp "$traces"/sst-dumpi-testtrace-4/testtrace* .
# another version: the header's (at 0x179) major number made 2
cp testtrace-0001.bin keep.bin
printf '\002' | dd of=testtrace-0001.bin bs=1 seek=$((0x179)) conv=notrunc 2>/dev/null
refused testtrace.meta "DUMPI file '.*testtrace-0001.bin' \(rank 1\) is of DUMPI version 2.0.0. simcoll reads versions 0.6.3 to 1.x"
cp keep.bin testtrace-0001.bin
# the barrier's communicator (at 0x9d of rank 0's file) made 7, never made
cp testtrace-0000.bin keep.bin
printf '\000\007' | dd of=testtrace-0000.bin bs=1 seek=$((0x9d)) conv=notrunc 2>/dev/null
refused testtrace.meta "testtrace-0000.bin' \(rank 0\), record 4 at byte 128: communicator 7 was never made"
cp keep.bin testtrace-0000.bin
# cut in half: its index of sections is gone
head -c 1480 keep.bin > testtrace-0000.bin
refused testtrace.meta "testtrace-0000.bin' \(rank 0\): its index of sections .* is missing or corrupt: the file is truncated"
cp keep.bin testtrace-0000.bin
rm testtrace-0002.bin
refused testtrace.meta "rank 2's file testtrace-0002.bin is missing"

# ---- OTF2 ----
if "$simcoll" run --platform gige.xml "$traces/pipit-pingpong-otf2-2/traces.otf2" >/dev/null 2>&1; then
    cp -r "$traces/sst-macro-otf2-10" otf2
    size=$(wc -c < otf2/traces/3.evt)
    head -c $((size / 2)) "$traces/sst-macro-otf2-10/traces/3.evt" > otf2/traces/3.evt
    refused otf2/traces.otf2 "OTF2 archive '.*traces.otf2', rank 3, event [0-9]+: its events end after"
    # sizes libotf2 would allocate 16 GiB for (found by fuzz_trace_otf2)
    cp -r "$traces/pipit-pingpong-otf2-2" pingpong
    cp "$src/tests/fuzz/regressions/trace_otf2/huge-allocation" pingpong/traces/0.evt
    refused pingpong/traces.otf2 "rank 0, event 0: its events end after 0 of the 60 .*corrupt: INVALID_DATA"
    printf 'OTF2 garbage' > otf2/traces.otf2
    refused otf2/traces.otf2 "OTF2 archive '.*traces.otf2' cannot be opened"
else
    echo "trace_bad.sh: this build reads no OTF2 traces: OTF2 cases not run"
fi
# ---- What libsimcoll-trace.so leaves until its run ends ----
# (sim/tracer/convert.c writes it; tests/cli/tracer.sh makes one of a
# killed run): its line is the message, whatever the build reads.
mkdir -p unfinished
printf '# simcoll-trace: no trace yet: the run writing it has not reached MPI_Finalize (it is running, or it was killed); its ranks'"'"' calls are in unfinished/spool, which '"'"'simcoll-trace-recover unfinished'"'"' makes a trace of, up to the ranks'"'"' last whole calls\n' \
    > unfinished/traces.otf2
refused unfinished/traces.otf2 "^simcoll: trace 'unfinished/traces.otf2': no trace yet: the run writing it has not reached MPI_Finalize .*'simcoll-trace-recover unfinished'"
echo "trace_bad.sh: ok"
