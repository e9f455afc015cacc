/* The external partitioners, Scotch and METIS, behind sc_partition.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef SC_EXTERNAL_H
#define SC_EXTERNAL_H

#include "partition.h"

/* sc_partition for how = SC_PARTITIONER_SCOTCH or SC_PARTITIONER_METIS, the
 * capacities already checked (>= 0, adding up to the graph's size): the
 * library's partition with the capacities as target weights, then made
 * exact (part u holds exactly capacity[u] vertices). SC_ERR_INPUT if this
 * build lacks the library, SC_ERR_RUN if the library fails. */
sc_err_t sc_partition_external(const sc_graph_t *graph, int nparts, const int *capacity,
                               sc_partitioner_t how, int *part);

/* Moves vertices from the parts holding more than capacity[u] to those
 * holding fewer until every part holds exactly capacity[u] (the
 * capacities adding up to the number of vertices), each time the move that
 * adds least to the cut. Deterministic. */
sc_err_t sc_partition_make_exact(const sc_graph_t *graph, int nparts, const int *capacity,
                                 int *part);

#endif
