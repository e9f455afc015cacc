/* simcoll map: pi for an algorithm, with an MPICH machinefile and an Open
 * MPI rankfile placing the ranks the same way.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "map_cmd.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "algorithms/kinds.h"
#include "common/sc_units.h"
#include "run_setup.h"
#include "sim/io/mapfile.h"

static const char map_usage[] =
    "usage: simcoll map --platform FILE --algo NAME [--np N] [--root R]\n"
    "                   [--partitioner multilevel|greedy] [-o PI] [--machinefile F]\n"
    "                   [--rankfile F]\n"
    "Computes pi, the mapping of the algorithm's positions to ranks that cuts its\n"
    "communication graph into node-sized parts with the least traffic between\n"
    "nodes, and writes it one position per line (stdout or -o), with an MPICH\n"
    "machinefile and an Open MPI rankfile placing the ranks the same way.\n";

static void print_map_usage(void)
{
    fputs(map_usage, stdout);
}

static const int map_accepts[] = {SC_OPT_PLATFORM, SC_OPT_ALGO, SC_OPT_NP, SC_OPT_ROOT,
                                  SC_OPT_PARTITIONER, SC_OPT_OUTPUT, SC_OPT_MACHINEFILE,
                                  SC_OPT_RANKFILE, SC_OPT_HELP, 0};

static const sc_run_syntax_t map_syntax = {
    .name = "map",
    .shortopts = ":o:",
    .options = map_accepts,
    .refuses_option_values = 1,
    .help = print_map_usage,
};

sc_err_t sc_cli_map_options(int argc, char **argv, sc_run_opts_t *o, int *done)
{
    sc_err_t err = sc_run_opts_parse(&map_syntax, argc, argv, o, done);
    if (err || *done)
        return err;
    if ((err = sc_run_opts_need_platform(o)))
        return err;
    if (!o->algo)
        return sc_error(SC_ERR_INPUT, "map needs --algo NAME (simcoll list shows the algorithms)");
    return sc_run_opts_files_distinct(o, NULL);
}

int sc_cli_map(int argc, char **argv)
{
    sc_run_opts_t o;
    int done;
    sc_err_t err = sc_cli_map_options(argc, argv, &o, &done);
    if (err || done)
        return err ? sc_cli_fail(err) : 0;
    const sc_algo_t *algo;
    sc_platform_t plat = {0};
    sc_layout_t lay = {0};
    sc_graph_t graph = {0}; /* recorded once where placement does not change it */
    int *slot_node = NULL, np;
    if ((err = sc_cli_find_algo(o.algo, "--algo", &algo)))
        goto cleanup;
    if (o.root_given && !sc_kind(algo->collective)->has_root) {
        const char *what = sc_collective_name(algo->collective);
        err = sc_error(SC_ERR_INPUT, "--root applies to bcast and reduce, and %s is %s %s",
                       algo->name, strchr("aeiou", what[0]) ? "an" : "a", what);
        goto cleanup;
    }
    if ((err = sc_cli_load_platform(o.platform, &plat)))
        goto cleanup;
    if (o.np_list ? (err = sc_parse_int(o.np_list, "--np", 1, 1 << 30, &np))
                  : (err = sc_cli_default_np(&plat, &np)))
        goto cleanup;
    sc_run_spec_t spec = {.plat = &plat, .algo = algo, .np = np, .root = o.root};
    o.map.kind = SC_MAP_PARTITION;
    if ((err = sc_graph_recordable(algo)) || (err = sc_run_check(&spec)) ||
        (err = sc_cli_make_layout(&plat, algo, np, o.root, &o.map, &graph, &lay)))
        goto cleanup;
    /* How good is it, next to MPI's placements? */
    double cut = 0, total = 0, block = 0, cyclic = 0, top[3] = {0}, sockets[3] = {0};
    spec.pi = lay.pi;
    if ((err = sc_run_cut(&spec, &graph, &cut, &total, &top[0], &sockets[0])))
        goto cleanup;
    spec.pi = NULL;
    if ((err = sc_run_cut(&spec, &graph, &block, &total, &top[1], &sockets[1])))
        goto cleanup;
    spec.placement = SC_PLACE_CYCLIC;
    if ((err = sc_run_cut(&spec, &graph, &cyclic, &total, &top[2], &sockets[2])))
        goto cleanup;
    char header[1024], groups[256] = "", between_sockets[256] = "";
    if (sc_platform_socket_levels(&plat))
        snprintf(between_sockets, sizeof between_sockets,
                 "\nbetween sockets (%d a node), in a node or not: %.0f (block %.0f, cyclic %.0f)",
                 plat.sockets, sockets[0], sockets[1], sockets[2]);
    if (plat.ngroupings > 0)
        snprintf(groups, sizeof groups,
                 "\nbetween the largest groups of %ld node%s (racks): %.0f (block %.0f, "
                 "cyclic %.0f)",
                 plat.group_size[plat.ngroupings - 1],
                 plat.group_size[plat.ngroupings - 1] == 1 ? "" : "s", top[0], top[1], top[2]);
    snprintf(header, sizeof header,
             "simcoll map --algo %s --np %d on %s (%s, %d nodes), partitioner %s\n"
             "cut weight %.0f of %.0f (block placement %.0f, cyclic %.0f); %.3g s to partition%s%s",
             algo->name, np, o.platform, plat.name, plat.nnodes,
             sc_partitioner_name(o.map.partitioner), cut, total, block, cyclic, lay.seconds,
             groups, between_sockets);
    slot_node = malloc((size_t)np * sizeof *slot_node);
    if (!slot_node) {
        err = sc_error(SC_ERR_RUN, "out of memory");
        goto cleanup;
    }
    if ((err = sc_place(&plat, np, SC_PLACE_BLOCK, slot_node)))
        goto cleanup;
    if (o.out) {
        err = sc_mapfile_write(&plat, np, lay.pi, slot_node, header, o.out, o.machinefile,
                               o.rankfile);
    } else {
        if (!(err = sc_mapfile_write(&plat, np, lay.pi, slot_node, header, NULL, o.machinefile,
                                     o.rankfile)))
            for (int r = 0; r < np; r++)
                printf("%d\n", lay.pi[r]);
    }
    /* The figures, each line after the first of the header. */
    for (const char *line = strchr(header, '\n'); !err && line; line = strchr(line + 1, '\n')) {
        const char *end = strchr(line + 1, '\n');
        fprintf(stderr, "simcoll: %.*s\n", (int)(end ? end - line - 1 : (long)strlen(line + 1)),
                line + 1);
    }
cleanup:
    free(slot_node);
    free(lay.pi);
    sc_graph_destroy(&graph);
    sc_platform_destroy(&plat);
    return err ? sc_cli_fail(err) : 0;
}
