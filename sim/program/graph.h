/* The communication graph of a whole program, for mapping it.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef SC_PROGRAM_GRAPH_H
#define SC_PROGRAM_GRAPH_H

#include "algorithms/mapping/graph.h"
#include "program.h"

/* The graph of `prog`, resolved for p ranks on nodes node_of (by rank,
 * as sc_program_resolve had them; NULL: not known): vertex r is rank r,
 * and the weight of edge {a, b} the bytes a and b send each other over
 * the whole run. It is the sum of its statements' graphs, each times the
 * iterations of the loops around it: a call's is its algorithm's graph at
 * the call's size (sc_graph_record_sized), a halo's links each rank with
 * its grid neighbours by one face a message, a send's links its two
 * ranks by its size, and an until loop adds its allreduce once an
 * iteration. Barriers and compute statements carry no bytes, and neither
 * do calls of algorithms that follow the nodes (SMP-aware: what they send
 * between nodes depends on how many ranks each node holds, which mapping
 * keeps, not on which). SC_ERR_INPUT "PATH:LINE: ..." for a call whose
 * algorithm has no fixed graph (sc_graph_recordable). */
sc_err_t sc_program_graph(const sc_program_t *prog, int p, const int *node_of,
                          sc_graph_t *graph);

#endif
