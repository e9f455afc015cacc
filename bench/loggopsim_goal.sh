#!/bin/sh
# LogGOPSim's input for the job bench/scale.sh times, so that LogGOPSim (Hoefler,
# Schneider, Lumsdaine, HPDC 2010; github.com/spcl/LogGOPSim) runs beside simcoll as a
# peer instead of being quoted: Bruck allgather of BLOCK-byte blocks among RANKS ranks.
#
#   bench/loggopsim_goal.sh RANKS [BLOCK] > bruck.goal    # GOAL text, for its txt2bin
#   bench/loggopsim_goal.sh --params                      # LogGOPSim's -L -o -g -G -O -S
#   bench/loggopsim_goal.sh --closed-form RANKS [BLOCK]   # the time it should print, in s
#
# Why our own generator: Schedgen (LogGOPSim's) has no Bruck allgather. Its
# "dissemination" pattern has Bruck's partners but sends the same size every round, and
# it is also what Schedgen plays for an MPI_Allgather met in a trace; Schedgen2's
# allgather is recursive doubling. Bruck's round k sends min(2^k, p - 2^k) blocks.
#
# The schedule, rank r, round k = 0 .. ceil(log2 p) - 1, d = 2^k: send min(d, p - d)
# blocks to (r - d) mod p, receive as many from (r + d) mod p; round k+1's send requires
# round k's receive (GOAL's "requires": it starts once that receive has completed). All
# receives are posted at the start: LogGOPSim matches on (source, tag), and the tag is
# the round, so an early post changes nothing but where the message waits.
#
# The parameters are ib4x's inter-node ones (platforms/ib4x.xml, whose comments cite
# their sources), in PICOSECONDS: LogGOPSim's parameters and times are integers, and
# ib4x's gap per byte is 0.668 ns. LogGOPSim's "Maximum finishing time ... (x s)" divides
# by 1e9 (it assumes ns): divide its integer by 1e12 instead.
#   L = 3.8 us     two 1.9 us HCA links, node to node (the verbs latency)
#   o = 0.4 us     simcoll/inter/send-overhead = recv-overhead = 0.4 us (one o in LogGOPSim)
#   G = 668 ps/B   1 / 1497 MB/s (SimGrid's MBps is 10^6 bytes/s): 668.003 ps, rounded
#   g = 0          ib4x has no gap ("no message rate of InfiniHost III HCAs was found")
#   O = 0          no per-byte overhead in ib4x
#   S = 6140 B     simcoll/inter/eager-limit (MVAPICH2 1.4's rdma eager threshold)
# and every message carries HEADER = 40 bytes besides its blocks (simcoll/header-bytes).
#
# What LogGOPSim does not model here, so its times are not simcoll's:
# - contention: a message takes o + L + o + (s-1)G whatever else is in flight; only each
#   process's own o and g serialise. ib4x's 8 ranks per node share one NIC each way
#   (SPLITDUPLEX), which in simcoll makes every inter-node round about 8 times slower;
# - SMP nodes: every rank is a host of its own with the inter-node parameters, where
#   ib4x sends intra-node messages over the node's memory bus (0.24 us, 5333 MB/s);
# - rendezvous costs: above S a send completes only once its receive is matched (a
#   synchronisation), with no request and clear-to-send crossing the network; simcoll
#   sends those two envelopes first (two more latencies and overheads per message).
# SPDX-License-Identifier: GPL-2.0-or-later
set -eu
L=3800000 o=400000 g=0 G=668 O=0 S=6140 HEADER=40

usage() {
    echo "usage: bench/loggopsim_goal.sh RANKS [BLOCK] | --params | --closed-form RANKS [BLOCK]" >&2
    exit 2
}
mode=goal
case ${1:-} in
--params) echo "-L $L -o $o -g $g -G $G -O $O -S $S"; exit 0 ;;
--closed-form) mode=closed; shift ;;
esac
[ $# -ge 1 ] && [ $# -le 2 ] || usage
p=$1
block=${2:-2048}
case $p$block in *[!0-9]*) usage ;; esac
[ "$p" -ge 2 ] || usage

# --closed-form: every rank does the same, so the time is the sum over rounds of
# LogGOPSim's per-message path: o (send) + L + o (receive) + (s-1)G for s bytes, the
# receive's G charged before the next round's send may start (LogGOPSim.cpp's OP_MSG).
awk -v mode="$mode" -v p="$p" -v block="$block" -v header="$HEADER" \
    -v L="$L" -v o="$o" -v G="$G" 'BEGIN {
    if (mode == "closed") {
        t = 0
        for (d = 1; d < p; d *= 2) {
            m = d < p - d ? d : p - d
            t += o + L + o + (m * block + header - 1) * G
        }
        printf "%.9g\n", t / 1e12
        exit
    }
    print "num_ranks " p
    for (r = 0; r < p; r++) {
        printf "\nrank %d {\n", r
        k = 0
        for (d = 1; d < p; d *= 2) {
            m = d < p - d ? d : p - d
            bytes = m * block + header
            printf "s%d: send %db to %d tag %d\n", k, bytes, (r - d + p) % p, k
            if (k > 0)
                printf "s%d requires r%d\n", k, k - 1
            printf "r%d: recv %db from %d tag %d\n", k, bytes, (r + d) % p, k
            k++
        }
        print "}"
    }
}'
