/* The communication graph of an algorithm, recorded from its own code.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef SC_GRAPH_H
#define SC_GRAPH_H

#include <igraph.h>

#include "../registry.h"

/* G = (V, E), |V| = p: vertex j is algorithm position j, and the weight of
 * edge {i, j} is d_ij, the bytes sent between i and j in both directions
 * over the whole algorithm run with m = 1 (lecture 13, step 1). Edges of
 * weight 0 (empty messages) are left out. */
typedef struct {
    int size;
    igraph_t graph;         /* undirected, no multi-edges or loops */
    igraph_vector_t weight; /* by edge id */
    double total_weight;
    int placed; /* 1: the algorithm followed the ranks' nodes
                   (SMP-aware), so the graph holds for the
                   node_of it was recorded with only */
} sc_graph_t;

/* Records algo's messages on p ranks (root `root`; 1 byte per block, or for
 * reductions a vector of p ints, so that no part of a split vector is
 * empty) with a transport that runs every rank's code in turn, sends
 * complete at once and receives take nothing: valid for algorithms whose
 * messages do not depend on data or timing, as all registered ones. The
 * recorder checks that every pair's sends match its receives and fails
 * (SC_ERR_RUN) otherwise. */
/* SC_ERR_INPUT naming the algorithm if its messages depend on the data
 * (early exit), so that it has no graph to record. */
sc_err_t sc_graph_recordable(const sc_algo_t *algo);

sc_err_t sc_graph_record(const sc_algo_t *algo, int p, int root, sc_graph_t *graph);

/* The same with the ranks' nodes known (node_of, by rank; NULL: not
 * known), which the SMP-aware algorithms follow. */
sc_err_t sc_graph_record_placed(const sc_algo_t *algo, int p, int root, const int *node_of,
                                sc_graph_t *graph);
void sc_graph_destroy(sc_graph_t *graph);

/* The subgraph of the n vertices in[0..n-1] and the edges between them:
 * its vertex i is vertex in[i] of `graph`. */
sc_err_t sc_graph_induced(const sc_graph_t *graph, const int *in, int n, sc_graph_t *out);

/* Total weight of the edges whose ends are on different nodes, position j
 * being on node node_of_position[j]. */
double sc_graph_cut(const sc_graph_t *graph, const int *node_of_position);

/* Turns an igraph error code into sc_error's SC_ERR_RUN naming `what`.
 * simcoll makes igraph return errors instead of aborting (see graph.c). */
sc_err_t sc_igraph_check(igraph_error_t code, const char *what);

/* "0.10.4": the igraph library simcoll partitions with. */
const char *sc_igraph_version(void);

#endif
