/* One simulated run of one collective algorithm, and its results.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef SC_RUN_H
#define SC_RUN_H

#include "algorithms/mapping/partition.h"
#include "algorithms/registry.h"

typedef struct {
    const sc_platform_t *plat;
    const sc_algo_t *algo;
    int np;
    size_t bytes;          /* allgather: per-rank block; bcast: message;
                              reduce, allreduce: the vector */
    int root;              /* bcast, reduce */
    sc_op_t op;            /* reduce, allreduce */
    sc_type_t type;
    sc_placement_t placement; /* where MPI puts the ranks */
    /* NULL, or the layout of algorithm positions on those ranks: the rank
     * in placement slot i plays position pi[i]. Algorithms flagged
     * SC_USES_MAPPING keep their ranks and play through pi (exch/reorder
     * variants); any other algorithm gets its ranks placed so that rank
     * pi[i] sits in slot i, as an mpirun rankfile would. */
    const int *pi;
    int payload;           /* 1: real data, checked; 0: sizes only */
    double start_skew_s;   /* rank r starts r * skew after 0 (tests) */
} sc_run_spec_t;

typedef struct {
    double sim_time_s;     /* latest finish - earliest start, simulated */
    double model_time_s;   /* the cost model's prediction; NaN when the
                              platform is not uniform (see models/) */
    int nodes;             /* nodes that host at least one rank */
    long messages[SC_NLEVELS];
    double bytes[SC_NLEVELS];
    double max_rank_bytes; /* the most bytes one rank sent */
    double path_bytes;     /* bytes on the critical path (sc_traffic_t) */
    int valid;             /* 1 right result, 0 wrong, -1 not checked */
    double *start, *finish; /* per rank, simulated seconds */
} sc_run_result_t;

/* Checks the spec (SC_ERR_INPUT naming the problem: np out of range,
 * root out of range, algorithm preconditions, an operation the type does
 * not have, a vector that is not whole elements, pi not a permutation), then
 * simulates it in a child
 * process. SC_ERR_RUN if the simulation fails; a wrong result is not an
 * error but res->valid == 0. Free res with sc_run_result_destroy. */
sc_err_t sc_run(const sc_run_spec_t *spec, sc_run_result_t *res);

/* Only the checks of sc_run, so that a batch can be validated before any
 * simulation starts. */
sc_err_t sc_run_check(const sc_run_spec_t *spec);

void sc_run_result_destroy(sc_run_result_t *res);

/* Computes pi for the spec's algorithm and process count by partitioning
 * its communication graph into parts as large as the node shares of MPI's
 * block placement (see algorithms/mapping/mapping.h); *seconds is the time
 * the partitioner took. */
sc_err_t sc_run_partition(const sc_run_spec_t *spec, sc_partitioner_t how, int *pi,
                          double *seconds);

/* The quality of the spec's layout: *cut is the weight of the algorithm's
 * communication graph (m = 1, see algorithms/mapping/graph.h) between
 * positions on different nodes, *total the weight of the whole graph. */
sc_err_t sc_run_cut(const sc_run_spec_t *spec, double *cut, double *total);

/* The bytes rank r contributes in verified runs: distinct for every rank
 * in the first byte up to 256 ranks, in the first four up to 2^32. */
unsigned char sc_pattern_byte(int rank, size_t offset);

#endif
