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
} sc_partitioner_t;

/* "multilevel" / "greedy". */
const char *sc_partitioner_name(sc_partitioner_t how);

/* Splits the graph's vertices into nparts parts, part u holding exactly
 * capacity[u] vertices, and tries to minimise the total weight of the
 * edges between parts. part[v] receives the part of vertex v. Capacities
 * must be >= 0 and add up to the number of vertices (SC_ERR_INPUT
 * otherwise). Deterministic. Time O(E log E) per coarsening level plus the
 * refinement passes. */
sc_err_t sc_partition(const sc_graph_t *graph, int nparts, const int *capacity,
                      sc_partitioner_t how, int *part);

#endif
