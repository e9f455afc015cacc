/* One simulated run of a program, or of one collective call (a program of
 * one call), and its results.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef SC_RUN_H
#define SC_RUN_H

#include "algorithms/mapping/partition.h"
#include "algorithms/registry.h"
#include "sim/simgrid/transport.h"
#include "sim/program/bench.h"
#include "sim/program/program.h"

/* How sc_run_spec_t.replay plays a schedule: with one actor per node
 * (sim/simgrid/node_replay.c, --replay), or from SimGrid's maestro without any
 * actor (sim/simgrid/driver.cpp, --replay=maestro: SimGrid 4.1 only); or
 * the ranks' code live, an actor a rank, its calls played from maestro
 * (sim/simgrid/live.cpp, --replay=live: SimGrid 4.1 only). */
enum { SC_REPLAY_NODES = 1, SC_REPLAY_MAESTRO = 2, SC_REPLAY_LIVE = 3 };

typedef struct {
    const sc_platform_t *plat;
    /* What every rank runs: a program, resolved here for np (its calls'
     * algorithms chosen, calls without one by `profile`); or, when program
     * is NULL, one call of `algo` on `bytes`, `root`, `op`, `type`. */
    const sc_program_t *program;
    const sc_profile_t *profile;
    const sc_algo_t *algo;
    size_t bytes;          /* allgather: per-rank block; bcast: message;
                              reduce, allreduce: the vector */
    int root;              /* bcast, reduce */
    sc_op_t op;            /* reduce, allreduce */
    sc_type_t type;
    int np;
    sc_placement_t placement; /* where MPI puts the ranks */
    /* NULL, or the layout of algorithm positions on those ranks: the rank
     * in placement slot i plays position pi[i]. The algorithm of a program
     * of one call flagged SC_USES_MAPPING keeps its ranks and plays through
     * pi (exch/reorder variants); otherwise the ranks are placed so that
     * rank pi[i] sits in slot i, as an mpirun rankfile would. */
    const int *pi;
    int payload;           /* 1: real data, checked; 0: sizes only */
    /* Which ranks' inputs decide the reductions by land, lor, band, bor
     * (--data decider); NULL for the standard pattern. */
    const sc_deciders_t *deciders;
    /* Who holds the extreme of the max and min reductions (--data
     * extreme); NULL for the standard pattern. */
    const sc_extreme_t *extreme;
    int trace;             /* 1: figures per statement run (res->ops) */
    int messages;          /* 1: every message as it went (res->msgs) */
    double start_skew_s;   /* rank r starts r * skew after 0 (tests) */
    /* SC_REPLAY_NODES, SC_REPLAY_MAESTRO: play the call's recorded
     * schedule instead of running an actor per rank (sim/replay/), for
     * size-only runs of one call of an algorithm whose messages depend on
     * neither data nor timing; SC_REPLAY_LIVE: one call, its ranks' code
     * live, with data or not; 0: the actors */
    int replay;
    /* A benchmark's timing of some statements (sim/program/bench.h) */
    sc_measure_t measure;
} sc_run_spec_t;

/* One communication statement as it ran (all ranks together). */
typedef struct {
    int stmt;              /* index in the program run */
    double start, end;     /* earliest start, latest end over its ranks */
    double bytes[SC_NLEVELS];
    long messages[SC_NLEVELS];
    int valid;             /* as sc_run_result_t's, for the statements
                              whose last piece this was */
} sc_op_record_t;

typedef struct {
    double sim_time_s;     /* latest finish - earliest start, simulated */
    double mean_rank_time_s; /* the mean over ranks of finish - start */
    /* spec->measure: each rank's time per timed execution, its mean, least
     * and most over ranks (OSU's Avg, Min and Max Latency; IMB's t_avg,
     * t_min, t_max); NaN without */
    double measured_mean_s, measured_min_s, measured_max_s;
    double model_time_s;   /* the cost model's prediction; NaN when the
                              platform is not uniform (see models/) or an
                              algorithm has no model */
    int nodes;             /* nodes that host at least one rank */
    int platform_nodes;    /* the platform's, used or not */
    long messages[SC_NLEVELS];
    double bytes[SC_NLEVELS];
    /* the same by the network's hierarchy (sc_traffic_t), levels 0 to
     * nlevels - 1 (the platform's) */
    int nlevels;
    long level_messages[SC_MAX_LEVELS];
    double level_bytes[SC_MAX_LEVELS];
    double max_rank_bytes; /* the most bytes one rank sent */
    double path_bytes;     /* bytes on the critical path (sc_traffic_t) */
    int valid;             /* 1 right result, 0 wrong, -1 not checked */
    char wrong[256];       /* valid 0: the lowest rank's wrong result, "rank 3,
                              line 1: block 5 (rank 5's), byte 0: 0x00,
                              expected 0x2a" */
    long speculated;       /* speculative reductions that bet (allreduce-spec) */
    long mispredicted;     /* of those, the bets that were wrong */
    double *start, *finish; /* per rank, simulated seconds */
    long statements;       /* communication statements run */
    sc_op_record_t *ops;   /* spec->trace: one per statement run */
    long nops;
    sc_msg_record_t *msgs; /* spec->messages: in the order they were sent */
    long nmsgs;
    int *node_of;          /* by rank: the node it ran on */
    int *domain_of;        /* and its smallest domain there (0 without) */
} sc_run_result_t;

/* Most communication statements a traced run records, and most messages
 * a run recording them may send (it fails beyond). */
#define SC_RUN_MAX_TRACE 1000000L
#define SC_RUN_MAX_MESSAGES 1000000L

/* Checks the spec (SC_ERR_INPUT naming the problem: process count out of
 * range, roots and ranks, algorithm preconditions, an operation the type
 * does not have, a vector that is not whole elements, pi not a
 * permutation, buffers beyond the machine), then simulates it in a child
 * process. SC_ERR_RUN if the simulation fails; a wrong result is not an
 * error but res->valid == 0. Free res with sc_run_result_destroy. */
sc_err_t sc_run(const sc_run_spec_t *spec, sc_run_result_t *res);

/* The cost model's time of the spec's program, every rank starting at 0,
 * without simulating it: NaN when the platform's nodes differ or an
 * algorithm of the program has no model. The checks are sc_run's. */
sc_err_t sc_run_model(const sc_run_spec_t *spec, double *seconds);

/* Only the checks of sc_run, so that a batch can be validated before any
 * simulation starts. */
sc_err_t sc_run_check(const sc_run_spec_t *spec);

void sc_run_result_destroy(sc_run_result_t *res);

/* The program as sc_run runs the spec: resolved for its process count and
 * placement (its calls' algorithms chosen). Free with sc_program_destroy. */
sc_err_t sc_run_resolved(const sc_run_spec_t *spec, sc_program_t *prog);

/* The mapping search of algorithms/mapping/search.h for one call
 * (spec->algo on spec->np ranks from spec->root, on spec->plat), `memo`
 * as there. */

/* sc_mapping_search, once the spec has passed sc_run_check: pi for the
 * algorithm and process count, by partitioning its communication graph
 * into parts as large as the node shares of MPI's block placement;
 * *seconds is the time the partitioner took. */
sc_err_t sc_run_partition(const sc_run_spec_t *spec, sc_graph_t *memo, sc_partitioner_t how,
                          int *pi, double *seconds);

/* sc_mapping_cut of the spec's layout (its ranks and algorithm positions
 * where sc_run puts them): the weight of the algorithm's communication
 * graph between nodes (*cut), in all (*total), between the largest groups
 * of nodes (*top_cut unless NULL) and between domains (*domain_cut unless
 * NULL). */
sc_err_t sc_run_cut(const sc_run_spec_t *spec, sc_graph_t *memo, double *cut, double *total,
                    double *top_cut, double *domain_cut);

#endif
