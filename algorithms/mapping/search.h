/* The mapping search on a platform: an algorithm's communication graph
 * partitioned among the platform's nodes and their domains, and the cut of a
 * layout.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef SC_MAPPING_SEARCH_H
#define SC_MAPPING_SEARCH_H

#include "../../models/platform.h"
#include "mapping.h"
#include "objective.h"

/* Both calls record the graph of `algo` on np ranks from `root`. `memo`
 * (NULL, or zeroed before the first call) lets calls for one algorithm,
 * process count and root record it once: it keeps the graph when the
 * algorithm's messages do not depend on where the ranks are (all but the
 * SMP-aware ones), for the next call to use. Free it with
 * sc_graph_destroy. An algorithm whose graph cannot be recorded fails as
 * sc_graph_recordable says. */

/* Computes pi by partitioning the graph into parts as large as the node
 * shares of MPI's block placement on `plat` (see mapping.h), level by
 * level, domains inside nodes included; *seconds is the time the partitioner took. */
sc_err_t sc_mapping_search(const sc_platform_t *plat, const sc_algo_t *algo, int np, int root,
                           sc_graph_t *memo, sc_partitioner_t how, int *pi, double *seconds);

/* The quality of a layout on `plat`: the ranks on node_of (by rank), the
 * algorithm positions on node_of_position and domain_of_position (a
 * smallest domain numbered within its node). *cut is the weight of the graph (m =
 * 1, see graph.h) between positions on different nodes, *total the weight
 * of the whole graph, and *top_cut (unless NULL) the weight between the
 * platform's largest groups of nodes (a fat tree's racks; the same as
 * *cut on a network of no groups), and *domain_cut (unless NULL) the
 * weight between positions on different smallest domains, in a node or
 * not (the same as *cut without domains). With memo NULL the graph is
 * counted as it is recorded, never kept (sc_graph_count_cuts): the
 * memory of a million ranks' cut is then theirs, not the graph's. */
sc_err_t sc_mapping_cut(const sc_platform_t *plat, const sc_algo_t *algo, int np, int root,
                        const int *node_of, const int *node_of_position,
                        const int *domain_of_position, sc_graph_t *memo, double *cut, double *total,
                        double *top_cut, double *domain_cut);

/* The same two for a graph given (a program's, a traffic matrix's: see
 * graph.h) whose vertices are the positions 0..graph->size - 1. */
sc_err_t sc_mapping_search_graph(const sc_platform_t *plat, const sc_graph_t *graph,
                                 sc_partitioner_t how, int *pi, double *seconds);
sc_err_t sc_mapping_graph_cut(const sc_platform_t *plat, const sc_graph_t *graph,
                              const int *node_of_position, const int *domain_of_position,
                              double *cut, double *total, double *top_cut, double *domain_cut);

/* pi for the bottleneck (objective.h) on a graph of positions, from the
 * cut's pi given in `pi`: that pi, MPI's block placement and its cyclic
 * one (where cyclic fills the nodes as block does), each balanced by
 * swaps (sc_mapping_balance), and the least loaded of the three kept, so
 * that it is never more loaded than any of them. */
sc_err_t sc_mapping_bottleneck(const sc_platform_t *plat, const sc_graph_t *graph, int *pi);

#endif
