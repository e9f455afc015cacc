/* What the collective run and simcoll map work out before they simulate:
 * the algorithm, the platform, the process count and the layout.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef SC_CLI_RUN_SETUP_H
#define SC_CLI_RUN_SETUP_H

#include "algorithms/mapping/graph.h"
#include "algorithms/mapping/objective.h"
#include "algorithms/registry.h"
#include "run_opts.h"
#include "sim/simgrid/engine.h"

/* The algorithm `name`, or SC_ERR_INPUT naming `option` and the nearest
 * name. */
sc_err_t sc_cli_find_algo(const char *name, const char *option, const sc_algo_t **out);

/* Loads --platform `path`, with a note on stderr when the cost model does
 * not apply to it. */
sc_err_t sc_cli_load_platform(const char *path, sc_platform_t *plat);

/* The process count without --np: every core of plat, or SC_ERR_INPUT for
 * a platform too large to run whole by default. */
sc_err_t sc_cli_default_np(const sc_platform_t *plat, int *np);

/* How one algorithm runs at one process count, worked out once and
 * shared by all sizes. */
typedef struct {
    sc_placement_t placement;
    int *pi;        /* NULL: the identity; the caller frees it */
    double seconds; /* spent partitioning */
    const char *name;
    double cut, total; /* of the algorithm's graph under it (sc_run_cut) */
} sc_layout_t;

/* The layout `choice` gives algo at np; `graph`: as sc_run_partition's
 * memo. */
sc_err_t sc_cli_make_layout(const sc_platform_t *plat, const sc_algo_t *algo, int np, int root,
                            const sc_map_choice_t *choice, sc_graph_t *graph, sc_layout_t *out);

/* The weight of `graph`, whose vertices are positions, between nodes
 * (*cut), between the platform's largest groups of nodes (*top_cut unless
 * NULL) and between smallest domains (*domain_cut unless NULL) when MPI places the
 * ranks by `placement` and the rank in slot i plays position pi[i] (pi
 * NULL: position i), as sc_run lays a spec out. */
sc_err_t sc_cli_graph_cut(const sc_platform_t *plat, const sc_graph_t *graph,
                          sc_placement_t placement, const int *pi, double *cut, double *top_cut,
                          double *domain_cut);

/* The same layout's bottleneck (algorithms/mapping/objective.h): the
 * bytes through the busiest node's link, how many nodes carry that much,
 * the cut. */
sc_err_t sc_cli_graph_load(const sc_platform_t *plat, const sc_graph_t *graph,
                           sc_placement_t placement, const int *pi, sc_bottleneck_t *load);

#endif
