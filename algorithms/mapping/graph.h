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

/* The graph sc_graph_record_placed records, not kept: counted as the ranks
 * are recorded, so that its memory is the ranks' (a million ranks of
 * Bruck's graph take gigabytes). cut[k] is the weight of its edges whose
 * ends are in different units of unit_of[k] (by position), for each of
 * the n assignments, *total the weight of all its edges. */
sc_err_t sc_graph_count_cuts(const sc_algo_t *algo, int p, int root, const int *node_of,
                             const int *const *unit_of, int n, double *cut, double *total);

/* Its edges, for what cannot use igraph (only algorithms/mapping does):
 * edge e (0 .. sc_graph_nedges - 1) joins *a and *b; its weight. */
long sc_graph_nedges(const sc_graph_t *graph);
double sc_graph_edge(const sc_graph_t *graph, long e, int *a, int *b);

/* The graph of one call of `bytes` (the allgather block, the broadcast
 * message, the reduction vector of `type`), the ranks on node_of (NULL:
 * not known): weights in bytes, as the call moves them. A call whose
 * shared buffer (p blocks, or the vector) would exceed
 * SC_GRAPH_RECORD_MAX_BYTES is recorded at the largest size whose buffer
 * fits and its weights scaled up, which is exact for algorithms whose
 * messages grow in proportion to the data (all registered ones but where
 * a split rounds to whole elements). */
#define SC_GRAPH_RECORD_MAX_BYTES (16u << 20)
sc_err_t sc_graph_record_sized(const sc_algo_t *algo, int p, int root, const int *node_of,
                               size_t bytes, sc_type_t type, sc_graph_t *graph);

/* Several graphs on the same vertices added up, edge by edge: edges are
 * collected, then igraph merges the parallel ones summing their weights.
 * init, any number of edge and add, then finish (which leaves the sum
 * still to be destroyed). */
typedef struct {
    int size;
    igraph_vector_int_t ends; /* the edges collected, two ends each */
    igraph_vector_t weight;
} sc_graph_sum_t;

sc_err_t sc_graph_sum_init(sc_graph_sum_t *sum, int size);
/* Adds `weight` to edge {a, b}; a loop (a == b) or a weight of 0 adds
 * nothing. Vertices must be in 0..size-1. */
sc_err_t sc_graph_sum_edge(sc_graph_sum_t *sum, int a, int b, double weight);
/* Adds every edge of `graph` (of the sum's size), its weight times factor. */
sc_err_t sc_graph_sum_add(sc_graph_sum_t *sum, const sc_graph_t *graph, double factor);
/* Adds every edge {a, b} of `graph` (of any size) as edge {vertex[a],
 * vertex[b]} of the sum, its weight times factor: a subcommunicator's
 * graph on the world's ranks. */
sc_err_t sc_graph_sum_add_mapped(sc_graph_sum_t *sum, const sc_graph_t *graph, double factor,
                                 const int *vertex);
/* The sum as a graph; free it with sc_graph_destroy. */
sc_err_t sc_graph_sum_finish(sc_graph_sum_t *sum, sc_graph_t *out);
void sc_graph_sum_destroy(sc_graph_sum_t *sum);

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
