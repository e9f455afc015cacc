/* What the collective run and simcoll map work out before they simulate.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "run_setup.h"

#include <stdio.h>
#include <stdlib.h>

#include "algorithms/mapping/search.h"
#include "sim/io/mapfile.h"

sc_err_t sc_cli_find_algo(const char *name, const char *option, const sc_algo_t **out)
{
    *out = sc_algo_find(name);
    if (*out)
        return SC_OK;
    return sc_error(SC_ERR_INPUT,
                    "%s: unknown algorithm '%s'; did you mean '%s'? (simcoll list shows all)",
                    option, name, sc_algo_nearest(name)->name);
}

sc_err_t sc_cli_make_layout(const sc_platform_t *plat, const sc_algo_t *algo, int np, int root,
                            const sc_map_choice_t *choice, sc_graph_t *graph, sc_layout_t *out)
{
    sc_map_kind_t kind = choice->kind;
    /* The default for an algorithm on a mapping is the partition of its
     * graph, which simcoll does not record for a loaded one: say what to
     * give, rather than refuse a --mapping partition never asked for. */
    if (kind == SC_MAP_DEFAULT && (algo->needs & SC_USES_MAPPING) && sc_algo_is_added(algo))
        return sc_error(SC_ERR_INPUT,
                        "%s plays through a mapping (SC_USES_MAPPING) and no --mapping was "
                        "given; the default, partition, cuts the algorithm's graph, which "
                        "simcoll does not record for an algorithm of your own (--load): give "
                        "--mapping FILE (simcoll map --platform %s --algo bruck --np %d -o "
                        "pi.txt writes one from a built-in algorithm's graph), or --mapping "
                        "block to run it unmapped",
                        algo->name, plat->path, np);
    if (kind == SC_MAP_DEFAULT)
        kind = algo->needs & SC_USES_MAPPING ? SC_MAP_PARTITION : SC_MAP_BLOCK;
    *out = (sc_layout_t){.placement = kind == SC_MAP_CYCLIC ? SC_PLACE_CYCLIC : SC_PLACE_BLOCK};
    switch (kind) {
    case SC_MAP_DEFAULT:
    case SC_MAP_BLOCK:
        out->name = "block";
        return SC_OK;
    case SC_MAP_CYCLIC:
        out->name = "cyclic";
        return SC_OK;
    case SC_MAP_FILE:
        out->name = choice->file;
        return sc_mapfile_read(choice->file, np, &out->pi);
    case SC_MAP_PARTITION:
        break;
    }
    /* The report's mapping: "partition", or which other partitioner made it. */
    out->name = choice->partitioner == SC_PARTITIONER_MULTILEVEL
                    ? "partition"
                    : sc_partitioner_name(choice->partitioner);
    sc_run_spec_t spec = {.plat = plat, .algo = algo, .np = np, .root = root};
    out->pi = malloc((size_t)np * sizeof *out->pi);
    sc_err_t err = out->pi
                       ? sc_run_partition(&spec, graph, choice->partitioner, out->pi, &out->seconds)
                       : sc_error(SC_ERR_RUN, "out of memory");
    if (err) {
        free(out->pi);
        out->pi = NULL;
    }
    return err;
}

/* Without --np a run uses every core of the platform, up to this many: a
 * platform of a million cores would otherwise start a simulation of hours
 * by default (4096 ranks of Bruck take about 5 s, bench/README.md). */
#define DEFAULT_NP_MAX 4096

sc_err_t sc_cli_default_np(const sc_platform_t *plat, int *np)
{
    *np = plat->total_cores;
    if (*np > DEFAULT_NP_MAX)
        return sc_error(SC_ERR_INPUT,
                        "--np: platform '%s' has %d cores, and without --np simcoll runs every "
                        "core only up to %d (a simulation of 4096 ranks takes seconds, of a "
                        "million hours); give the process count, e.g. --np %d",
                        plat->path, *np, DEFAULT_NP_MAX, DEFAULT_NP_MAX);
    return SC_OK;
}

sc_err_t sc_cli_load_platform(const char *path, sc_platform_t *plat)
{
    sc_err_t err = sc_platform_load("--platform", path, plat);
    if (!err && !plat->uniform)
        fprintf(stderr, "simcoll: note: platform '%s' is not uniform (its nodes' core speeds, "
                        "memory buses or network routes differ), so the cost model is not "
                        "applied\n",
                path);
    return err;
}

/* The node and smallest domain of every position (at[0..np) and at[np..2np)) when
 * MPI places the ranks by `placement` and slot i plays position pi[i]
 * (pi NULL: position i); at has room for 4 np ints. */
static sc_err_t place_positions(const sc_platform_t *plat, int np, sc_placement_t placement,
                                const int *pi, int *at)
{
    int *node_of_position = at, *domain_of_position = at + np, *slot_node = at + 2 * np,
        *slot_domain = at + 3 * np;
    sc_err_t err = sc_place(plat, np, placement, slot_node);
    if (!err)
        err = sc_place_domains(plat, np, slot_node, slot_domain);
    for (int i = 0; !err && i < np; i++) {
        int j = pi ? pi[i] : i;
        node_of_position[j] = slot_node[i];
        domain_of_position[j] = slot_domain[i];
    }
    return err;
}

sc_err_t sc_cli_graph_cut(const sc_platform_t *plat, const sc_graph_t *graph,
                          sc_placement_t placement, const int *pi, double *cut, double *top_cut,
                          double *domain_cut)
{
    int np = graph->size;
    int *at = malloc(4 * (size_t)np * sizeof *at);
    double total;
    sc_err_t err = at ? place_positions(plat, np, placement, pi, at)
                      : sc_error(SC_ERR_RUN, "out of memory");
    if (!err)
        err = sc_mapping_graph_cut(plat, graph, at, at + np, cut, &total, top_cut, domain_cut);
    free(at);
    return err;
}

sc_err_t sc_cli_graph_load(const sc_platform_t *plat, const sc_graph_t *graph,
                           sc_placement_t placement, const int *pi, sc_bottleneck_t *load)
{
    int np = graph->size;
    int *at = malloc(4 * (size_t)np * sizeof *at);
    sc_err_t err = at ? place_positions(plat, np, placement, pi, at)
                      : sc_error(SC_ERR_RUN, "out of memory");
    if (!err)
        *load = sc_graph_bottleneck(graph, at, plat->nnodes, NULL);
    free(at);
    return err;
}
