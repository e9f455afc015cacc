/* A recorded application (sim/trace/) run on a platform: an actor per rank
 * plays the rank's events through the MPI point-to-point protocol, and its
 * collectives as calls of the algorithms the user chooses, on the ranks'
 * own communicators. Sizes only: a trace holds no data.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef SC_TRACE_RUN_H
#define SC_TRACE_RUN_H

#include "algorithms/profiles/profiles.h"
#include "models/platform.h"
#include "sim/engine/run.h"
#include "sim/simgrid/transport.h"
#include "sim/trace/trace.h"

typedef struct {
    const sc_platform_t *plat;
    sc_trace_t *trace;          /* scanned (sc_trace_scan) */
    sc_placement_t placement;   /* where MPI puts the ranks */
    const int *pi;              /* NULL, or rank pi[i] sits in slot i (a rankfile) */
    /* NULL, or each rank's node, its cores taken in rank order (jobs side
     * by side: placement and pi are then not used) */
    const int *node_of;
    /* Which algorithm runs each collective simcoll has algorithms of: the
     * one forced for its kind (NULL: none), else the profile's choice. */
    const sc_profile_t *profile;
    const sc_algo_t *forced[SC_NCOLLECTIVES];
    /* Computing takes 1 / compute_scale of its recorded time (a core that
     * many times as fast); flops run at the platform's core speed. */
    double compute_scale;
    int messages; /* 1: every message as it went (res->msgs) */
    /* 0: an actor per rank; SC_REPLAY_NODES or SC_REPLAY_MAESTRO: the
     * ranks' ops played by an actor per node or by the driver
     * (sim/replay/trace_source.h), which do not measure each call's
     * time (res->costs stays empty) */
    int replay;
} sc_trace_run_spec_t;

/* What the calls of one kind and size cost, over every rank. */
typedef enum {
    /* 0 .. SC_TCOLL_COUNT - 1: the collectives (sc_tcoll_t) */
    SC_TCOST_SEND = SC_TCOLL_COUNT,
    SC_TCOST_RECV,
    SC_TCOST_ISEND,
    SC_TCOST_IRECV,
    SC_TCOST_WAIT,
    SC_TCOST_TEST,
    SC_TCOST_KINDS
} sc_tcost_kind_t;

/* Sizes by powers of two: bucket 0 holds 0 bytes, bucket k bytes of at
 * least 2^(k-1) and below 2^k. */
#define SC_TCOST_BUCKETS 66

typedef struct {
    long calls;     /* by ranks: a collective of n ranks counts n */
    double seconds; /* summed over ranks */
} sc_tcost_t;

/* An algorithm and the collective calls it ran (counted once per call). */
typedef struct {
    sc_tcoll_t coll;
    char name[40];
    long calls;
} sc_tcoll_use_t;

#define SC_TRACE_MAX_USES 64

typedef struct {
    int np, nodes;
    double sim_time_s;          /* the latest end less the earliest start */
    double *start, *finish;     /* per rank */
    double *mpi, *compute;      /* per rank: time inside MPI calls, computing */
    long messages[SC_NLEVELS];
    double bytes[SC_NLEVELS];
    int nlevels;
    long level_messages[SC_MAX_LEVELS];
    double level_bytes[SC_MAX_LEVELS];
    double max_rank_bytes;
    sc_tcost_t costs[SC_TCOST_KINDS][SC_TCOST_BUCKETS]; /* empty with spec->replay */
    sc_tcoll_use_t uses[SC_TRACE_MAX_USES];
    int nuses;
    sc_msg_record_t *msgs;      /* spec->messages */
    long nmsgs;
    int *node_of, *domain_of;   /* by rank: its node, its smallest domain there */
} sc_trace_run_result_t;

/* The name of a cost kind: a collective's, "send", "recv", ... */
const char *sc_tcost_name(sc_tcost_kind_t kind);

/* Checks the spec against the trace before anything is simulated:
 * SC_ERR_INPUT naming the problem (more ranks than the platform's cores, a
 * forced algorithm the trace's calls cannot run: a power of two it lacks,
 * data it does not hold). */
sc_err_t sc_trace_run_check(const sc_trace_run_spec_t *spec);

/* Simulates the trace in a child process. SC_ERR_RUN if the simulation
 * fails (a deadlock names the ranks stuck and their events). Free res
 * with sc_trace_run_result_destroy. */
sc_err_t sc_trace_run(const sc_trace_run_spec_t *spec, sc_trace_run_result_t *res);

void sc_trace_run_result_destroy(sc_trace_run_result_t *res);

#endif
