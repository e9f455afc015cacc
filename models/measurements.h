/* Measurements of real machines, as simcoll reads them from benchmark
 * output (sim/io/measurements.h): point-to-point series to calibrate a
 * platform from, collective series to validate its predictions against.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef SC_MEASUREMENTS_H
#define SC_MEASUREMENTS_H

#include <stddef.h>

#include "common/sc_error.h"

/* What a series measures. Times are in seconds, bandwidths in bytes/s,
 * rates in messages/s, whatever unit the file printed. */
typedef enum {
    SC_MEASURE_LATENCY,       /* one-way time of a ping-pong (half the round trip):
                                 osu_latency, IMB PingPong, NetPIPE, SMPI PingPong */
    SC_MEASURE_PINGPING,      /* one-way time when both ranks send at once: IMB PingPing */
    SC_MEASURE_BANDWIDTH,     /* streaming bandwidth of one pair, one direction:
                                 osu_bw, IMB Uniband (value2: messages/s if printed) */
    SC_MEASURE_BIBANDWIDTH,   /* both directions together: osu_bibw, IMB Biband */
    SC_MEASURE_MESSAGE_RATE,  /* `pairs` pairs streaming at once: osu_mbw_mr;
                                 value bytes/s in all, value2 messages/s in all */
    SC_MEASURE_SEND_OVERHEAD, /* time inside a nonblocking send: SMPI calibration Isend */
    SC_MEASURE_RECV_OVERHEAD, /* time inside a receive whose message had arrived:
                                 SMPI calibration Recv */
    SC_MEASURE_COLLECTIVE,    /* average time per call of `collective` on `np`
                                 processes: osu_bcast..., IMB Bcast...;
                                 value2: the slowest rank's (t_max) if printed */
    SC_MEASURE_CALL           /* a call of `collective` on 2 ranks, one message and no
                                 algorithm (simcoll-probe --call-costs' call-bcast),
                                 value2 the ping-pong's one-way time beside it: the
                                 difference is what the call pays beside its message */
} sc_measure_kind_t;

/* One measured point. A file with several samples of a size (SMPI
 * calibration CSVs) gives one point per sample. */
typedef struct {
    size_t bytes;  /* message size; 0 for a barrier */
    double value;  /* see sc_measure_kind_t */
    double value2; /* NAN when the file did not print it */
    int line;      /* where it was read, for residual reports */
} sc_point_t;

typedef struct {
    char *path;             /* the file */
    char *source;           /* benchmark and version as the file names them,
                               e.g. "OSU MPI Latency Test v5.6.2" */
    sc_measure_kind_t kind;
    char collective[32];    /* SC_MEASURE_COLLECTIVE: "bcast", "barrier",
                               "allgather", "allreduce", "reduce", "alltoall",
                               ... lower case, MPI_ prefix dropped; else "" */
    int np;                 /* processes the file says it ran, 0 if it does not */
    int pairs;              /* SC_MEASURE_MESSAGE_RATE (osu_mbw_mr), and IMB's Uniband
                               and Biband (np/2): the pairs streaming at once, whose
                               total the value is; 0 for one pair */
    /* Between which ranks, where the file says (simcoll-probe): "intra"
     * (one node, the smallest domain the system names), "ccx" (one NUMA
     * domain, two last-level caches), "numa" (one socket, two NUMA
     * domains), "socket" (one node, two sockets), "inter" (two nodes);
     * else "". */
    char placement[8];
    sc_point_t *points;
    int npoints;
} sc_series_t;

/* Frees what one series owns and zeroes it. */
void sc_series_free(sc_series_t *series);

/* Frees n series and the array. */
void sc_series_destroy(sc_series_t *series, int n);

#endif
