/* Objectives beyond the cut: the traffic through the busiest node's link.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef SC_OBJECTIVE_H
#define SC_OBJECTIVE_H

#include "graph.h"

/* What a mapping minimises. cut: the bytes between nodes (lecture 13).
 * bottleneck: the bytes through the busiest node's network link, then
 * the cut. time: the simulated time (sim/cli/map_search.c). */
typedef enum { SC_OBJECTIVE_CUT, SC_OBJECTIVE_BOTTLENECK, SC_OBJECTIVE_TIME } sc_objective_t;

/* "cut", "bottleneck", "time". */
const char *sc_objective_name(sc_objective_t objective);

/* How loaded a layout is: the bytes through the busiest node's link
 * (`load` of the node whose edges leaving it weigh most: a node's link
 * carries both directions, and an edge's weight is both directions'),
 * how many nodes carry that much, and the cut. Compared in that order. */
typedef struct {
    double load;
    int busiest;
    double cut;
} sc_bottleneck_t;

/* The bottleneck of positions on nodes node_of_position[j] (0..nnodes-1);
 * load[u], the bytes through node u's link, unless load is NULL. O(E +
 * nnodes). */
sc_bottleneck_t sc_graph_bottleneck(const sc_graph_t *graph, const int *node_of_position,
                                    int nnodes, double *load);

/* -1, 0 or 1 as a is less loaded than b, as loaded, or more. */
int sc_bottleneck_compare(const sc_bottleneck_t *a, const sc_bottleneck_t *b);

/* A swap of the positions of two slots on different nodes, and the
 * bottleneck it leads to. */
typedef struct {
    int slot_a, slot_b;
    sc_bottleneck_t after;
} sc_swap_t;

/* Every swap between a slot on the busiest node (the lowest-numbered of
 * them) and a slot on another node, when slot i (on node slot_node[i])
 * plays position pi[i]: *swaps (malloc'ed, *nswaps of them) sorted from
 * the least loaded outcome, ties by slots. Only the two nodes' loads
 * change, so each costs O(1) after O(E + k p) for the busiest node's k
 * positions. */
sc_err_t sc_mapping_swaps(const sc_graph_t *graph, int nnodes, const int *slot_node,
                          const int *pi, sc_swap_t **swaps, long *nswaps);

/* Lowers the bottleneck of pi by swaps (sc_mapping_swaps' best, while it
 * is less loaded than the layout before it), at most max_swaps of them.
 * Node sizes stay and pi stays a permutation; a layout no swap improves
 * is left as it is. Deterministic. */
sc_err_t sc_mapping_balance(const sc_graph_t *graph, int nnodes, const int *slot_node, int *pi,
                            long max_swaps);

/* pi for positions on nodes node_of_position[j], onto slots on nodes
 * slot_node (the ranks of node u, in order, take its positions, in
 * order); 0 if the nodes do not hold as many positions as slots. */
int sc_mapping_from_nodes(int p, const int *node_of_position, const int *slot_node, int nnodes,
                          int *pi);

#endif
