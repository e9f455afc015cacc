/* The mapping objectives beyond the cut, on a platform: bottleneck, and
 * time, which simulates.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef SC_CLI_MAP_SEARCH_H
#define SC_CLI_MAP_SEARCH_H

#include "run_opts.h"
#include "sim/engine/run.h"

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
sc_err_t sc_cli_map_objective(const sc_platform_t *plat, const sc_graph_t *graph,
                              const sc_run_spec_t *run, sc_objective_t objective,
                              const sc_map_budget_t *budget, int *pi, char *chosen,
                              size_t size);

#endif
