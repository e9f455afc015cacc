#!/bin/sh
# The README's table from simcoll-probe --call-costs files RESULTS/LIB-N.txt
# (run.sh): per library, the median over the runs of each run's median, and
# the smallest of each run's smallest (KIND-min rows), in ns; the per-call
# cost is a collective's time less the one-way ping-pong's, both measured
# in the same run at the same size.
# usage: summarize.sh RESULTS
# SPDX-License-Identifier: GPL-2.0-or-later
set -eu
cd "$1"
awk '
function sorted(list, v,   n, i, j, t) {
    n = split(list, v, " ")
    for (i = 2; i <= n; i++)
        for (j = i; j > 1 && v[j - 1] + 0 > v[j] + 0; j--) { t = v[j]; v[j] = v[j - 1]; v[j - 1] = t }
    return n
}
function med(list,   v, n) {
    if (list == "") return ""
    n = sorted(list, v)
    return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
}
function low(list,   v) { if (list == "") return ""; sorted(list, v); return v[1] }
function ns(x) { return x == "" ? "-" : sprintf("%.0f", x * 1e9) }
FNR == 1 { lib = FILENAME; sub(/-[0-9]+\.txt$/, "", lib); libs[lib] = 1 }
/^#/ || NF != 5 { next }
{
    kind = $1; place = $2; pairs = $3
    if (kind == "collective") { kind = "osu-" $2; place = "np" $3; pairs = 1 }
    stat = "med"
    if (kind ~ /-min$/) { stat = "min"; sub(/-min$/, "", kind) }
    key = lib SUBSEP stat SUBSEP kind SUBSEP place SUBSEP pairs SUBSEP $4
    val[key] = val[key] " " $5
}
function cell(l, kind, place, bytes,   m, n) {
    m = med(val[l, "med", kind, place, 1, bytes])
    n = low(val[l, "min", kind, place, 1, bytes])
    return ns(m) " | " ns(n)
}
# a collective less the one-way time, at the medians and at the smallest
function diff(l, kind, place, bytes, ref,   a, b, c, d) {
    a = med(val[l, "med", kind, place, 1, bytes]); b = med(val[l, "med", ref, place, 1, bytes])
    c = low(val[l, "min", kind, place, 1, bytes]); d = low(val[l, "min", ref, place, 1, bytes])
    return (a == "" || b == "" ? "-" : ns(a - b)) " | " (c == "" || d == "" ? "-" : ns(c - d))
}
function line(label, kind, place, bytes,   l, s) {
    s = "| " label " | " bytes
    for (l = 1; l <= 2; l++) s = s " | " cell(order[l], kind, place, bytes)
    print s " |"
}
function dline(label, kind, place, bytes, ref,   l, s) {
    s = "| " label " | " bytes
    for (l = 1; l <= 2; l++) s = s " | " diff(order[l], kind, place, bytes, ref)
    print s " |"
}
END {
    order[1] = "openmpi"; order[2] = "mpich"
    print "| measurement (ns) | bytes | Open MPI median | min | MPICH median | min |"
    print "|---|---:|---:|---:|---:|---:|"
    split("4 64 1024 4096", size, " ")
    line("MPI_Barrier on MPI_COMM_SELF", "call-barrier", "self", 0)
    for (c = 1; c <= 3; c++) {
        split("bcast allreduce scatter", coll, " ")
        for (i = 1; i <= 4; i++)
            line("MPI_" coll[c] " on MPI_COMM_SELF", "call-" coll[c], "self", size[i])
    }
    line("ping-pong one-way, 2 ranks", "call-pingpong", "intra", 0)
    for (i = 1; i <= 4; i++) line("ping-pong one-way, 2 ranks", "call-pingpong", "intra", size[i])
    line("MPI_Barrier, 2 ranks (one exchange)", "call-barrier", "intra", 0)
    dline("  less the one-way time: per call", "call-barrier", "intra", 0, "call-pingpong")
    for (c = 1; c <= 3; c++)
        for (i = 1; i <= 4; i++) {
            line("MPI_" coll[c] ", 2 ranks, " (c == 2 ? "back to back (an exchange)" : "root in turn"),
                 "call-" coll[c], "intra", size[i])
            dline("  less the one-way time: per call", "call-" coll[c], "intra", size[i],
                  "call-pingpong")
        }
    line("ping-pong after an MPI_Barrier", "pingpong-barrier", "intra", 0)
    for (i = 1; i <= 4; i++) {
        line("ping-pong after an MPI_Barrier", "pingpong-barrier", "intra", size[i])
        dline("  less the ping-pong without", "pingpong-barrier", "intra", size[i], "call-pingpong")
    }
    line("ping-pong by requests (Irecv, Isend, Wait)", "pingpong-requests", "intra", 0)
    dline("  less the blocking ping-pong", "pingpong-requests", "intra", 0, "call-pingpong")
    for (i = 1; i <= 4; i++) {
        line("ping-pong by requests (Irecv, Isend, Wait)", "pingpong-requests", "intra", size[i])
        dline("  less the blocking ping-pong", "pingpong-requests", "intra", size[i], "call-pingpong")
    }
    for (i = 1; i <= 4; i++)
        line("fan-in, 1 sender (round trip)", "fan-in", "intra", size[i])
    for (i = 1; i <= 4; i++)
        line("relay round 2 ranks by requests (a hop)", "relay", "intra", size[i])
    line("barrier exit skew, back to back (signed: partner later)", "barrier-skew", "intra", 0)
    for (i = 1; i <= 4; i++)
        line("barrier exit skew in OSU loop of bcast", "barrier-skew-bcast", "intra", size[i])
    line("OSU-style MPI_Barrier, 2 ranks (mean in call)", "osu-barrier", "np2", 0)
    for (c = 1; c <= 2; c++) {
        split("bcast allreduce", oc, " ")
        for (i = 1; i <= 4; i++)
            line("OSU-style MPI_" oc[c] ", 2 ranks (mean in call)", "osu-" oc[c], "np2", size[i])
    }
}' $(ls openmpi-[0-9]*.txt mpich-[0-9]*.txt)
echo
echo "Runs: $(ls openmpi-[0-9]*.txt | wc -l) with Open MPI, $(ls mpich-[0-9]*.txt | wc -l) with MPICH;" \
    "the min columns show no -min row for skews and OSU-style rows (their medians only)."
