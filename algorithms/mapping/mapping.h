/* The rank mapping pi of the hierarchy-aware method (lecture 13, step 3).
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef SC_MAPPING_H
#define SC_MAPPING_H

#include "partition.h"

/* pi[r] is the algorithm position rank r plays; pi_inv[j] the rank that
 * plays position j. Ranks are where MPI placed them (node_of_rank). */

/* SC_ERR_INPUT unless pi is a permutation of 0..p-1; fills pi_inv. */
sc_err_t sc_mapping_invert(int p, const int *pi, int *pi_inv);

/* Partitions the algorithm's graph into one part per node, part u as large
 * as the number of ranks MPI put on node u, and lets those ranks play the
 * positions of part u (smallest rank the smallest position). On a network
 * of groups of nodes (ngroupings > 0: groups of group_size[k] consecutive
 * nodes, smallest first, as sc_platform_t has them) it goes level by
 * level: the positions into the largest groups first, then each group's
 * into its smaller groups, down to its nodes, so that the heaviest edges
 * stay inside the smallest group they can. Fills pi and the seconds the
 * partitioner took (wall clock). */
sc_err_t sc_mapping_partition(const sc_graph_t *graph, int nnodes, const int *node_of_rank,
                              int ngroupings, const long *group_size, sc_partitioner_t how,
                              int *pi, double *seconds);

#endif
