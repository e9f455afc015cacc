/* The mapping objectives beyond the cut, on a platform: bottleneck, and
 * time, which simulates.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef SC_MAP_SEARCH_H
#define SC_MAP_SEARCH_H

#include "algorithms/mapping/objective.h"
#include "sim/engine/run.h"

/* --budget of --objective time: simulations, or seconds of wall time
 * (the other 0: not limited by it). By default 24 simulations: a second
 * each for a program of 64 ranks (halo.prog on gige.xml). */
#define SC_MAP_BUDGET_SIMULATIONS 24
typedef struct {
    long simulations;
    double seconds;
} sc_map_budget_t;

/* Turns pi, the cut's (sc_mapping_search_graph) on `graph` of positions,
 * into the mapping `objective` asks for:
 *   cut: as it is;
 *   bottleneck: sc_mapping_bottleneck;
 *   time: the fastest of the cut's, the bottleneck's, block and cyclic
 *     placement (where cyclic fills the nodes as block does), each
 *     simulated as `run` (its pi set to each; plat, np and what it runs),
 *     improved by swaps of two ranks between the busiest node and
 *     another, the swaps that load the links least tried first, each
 *     simulated and kept if faster, until `budget` runs out or no swap
 *     is left untried. Every step and what it gained goes to stderr.
 *     The starts are simulated whatever the budget. `run` NULL (a matrix,
 *     nothing to simulate) is SC_ERR_INPUT.
 * Never worse, by its objective, than any mapping it starts from. With
 * time, `chosen` (unless NULL) says what pi became, for a run's mapping
 * column: "time: cyclic", "time: bottleneck + 2 swaps". */
sc_err_t sc_map_objective(const sc_platform_t *plat, const sc_graph_t *graph,
                              const sc_run_spec_t *run, sc_objective_t objective,
                              const sc_map_budget_t *budget, int *pi, char *chosen,
                              size_t size);

#endif
