/* Splitting a communication graph into node-sized parts of exact sizes.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef SC_PARTITION_H
#define SC_PARTITION_H

#include "graph.h"

typedef enum {
    /* Coarsen by heavy-edge matching (contracting with igraph), pack the
     * clusters into parts of exact sizes, refine by size-preserving swaps. */
    SC_PARTITIONER_MULTILEVEL,
    /* Reference 004's heuristic: merge along the heaviest edge while the
     * merged group still fits a node, then pack; no refinement. Fast. */
    SC_PARTITIONER_GREEDY,
    /* Scotch's mapping onto a complete graph whose vertices weigh the parts'
     * sizes, strategy quality and balance 0 (algorithms/mapping/external.c;
     * in builds that found libscotch-dev only), sizes then made exact. */
    SC_PARTITIONER_SCOTCH,
    /* METIS's recursive bisection with the parts' sizes as target weights
     * and the least imbalance it takes (libmetis-dev; in builds that found
     * it only), sizes then made exact. */
    SC_PARTITIONER_METIS,
} sc_partitioner_t;

#define SC_PARTITIONERS 4

/* "multilevel" / "greedy" / "scotch" / "metis". */
const char *sc_partitioner_name(sc_partitioner_t how);

/* 1 if this build has the partitioner: multilevel and greedy always, scotch
 * and metis where CMake found their libraries (SIMCOLL_HAVE_SCOTCH,
 * SIMCOLL_HAVE_METIS). */
int sc_partitioner_available(sc_partitioner_t how);

/* "multilevel, greedy, metis": the partitioners this build has. */
const char *sc_partitioners_available(void);

/* Splits the graph's vertices into nparts parts, part u holding exactly
 * capacity[u] vertices, and tries to minimise the total weight of the
 * edges between parts. part[v] receives the part of vertex v. Capacities
 * must be >= 0 and add up to the number of vertices (SC_ERR_INPUT
 * otherwise). Deterministic. Time O(E log E) per coarsening level plus the
 * refinement passes. A partitioner this build lacks is refused
 * (SC_ERR_INPUT, naming it and what the build offers). */
sc_err_t sc_partition(const sc_graph_t *graph, int nparts, const int *capacity,
                      sc_partitioner_t how, int *part);

#endif
