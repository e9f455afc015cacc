/* simcoll map: pi for an algorithm, with an MPICH machinefile and an Open
 * MPI rankfile placing the ranks the same way.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "map_cmd.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "algorithms/kinds.h"
#include "algorithms/mapping/search.h"
#include "common/sc_units.h"
#include "sim/analysis/map_search.h"
#include "sim/analysis/sensitivity.h"
#include "program_cmd.h"
#include "run_setup.h"
#include "sim/io/hosts.h"
#include "sim/io/mapfile.h"
#include "sim/io/matrix.h"
#include "trace_cmd.h"

static const char map_usage[] =
    "usage: simcoll map --platform FILE --algo NAME [--np N] [--root R]\n"
    "                   [--partitioner multilevel|greedy|scotch|metis] [-o PI]\n"
    "                   [--machinefile F] [--rankfile F] [--objective cut|bottleneck|time]\n"
    "                   [--budget N|SECONDS] [--size S (with --algo and time)]\n"
    "                   [--hosts FILE|NODELIST]\n"
    "       simcoll map --platform FILE [--np N] [--mpi P] [options as above] PROGRAM\n"
    "       simcoll map --platform FILE [--mpi P] [--algos K=A,...] [options as above] TRACE\n"
    "       simcoll map --platform FILE --matrix FILE [--np N] [options as above]\n"
    "Computes pi, the mapping of the algorithm's positions to ranks that cuts its\n"
    "communication graph into node-sized parts with the least traffic between\n"
    "nodes, and writes it one position per line (stdout or -o), with an MPICH\n"
    "machinefile and an Open MPI rankfile placing the ranks the same way.\n"
    "A PROGRAM (as simcoll run takes) is mapped by the sum of its statements'\n"
    "graphs in bytes, loops multiplied out; a TRACE (an OTF2 anchor, a DUMPI\n"
    ".meta file, an SMPI time-independent index or action file) by its\n"
    "messages and its collectives' graphs as their algorithms send them;\n"
    "a traffic matrix (--matrix: Matrix\n"
    "Market coordinate, or CSV lines src,dst,bytes[,messages]) by its bytes.\n"
    "--objective bottleneck lowers the bytes through the busiest node's link\n"
    "(then the cut); time simulates the cut's, the bottleneck's, block and\n"
    "cyclic mappings and improves the fastest by swapping ranks between\n"
    "nodes, up to --budget simulations (default 24) or seconds (30s).\n"
    "--hosts names the hosts the machinefile and rankfile place ranks on, in\n"
    "the order of the platform's nodes: a file of names (one a line), a\n"
    "simcoll-probe file, or a Slurm node list (n[01-04]: $SLURM_JOB_NODELIST);\n"
    "without it they name simcoll's nodes (node-0, ...), to be replaced.\n"
    "The figures go to stderr, as the comments that head pi's file.\n";

static void print_map_usage(void)
{
    fputs(map_usage, stdout);
}

static const int map_accepts[] = {SC_OPT_PLATFORM,
                                  SC_OPT_ALGO,
                                  SC_OPT_NP,
                                  SC_OPT_ROOT,
                                  SC_OPT_PARTITIONER,
                                  SC_OPT_OUTPUT,
                                  SC_OPT_MACHINEFILE,
                                  SC_OPT_RANKFILE,
                                  SC_OPT_MATRIX,
                                  SC_OPT_MPI_PROGRAM,
                                  SC_OPT_OBJECTIVE,
                                  SC_OPT_BUDGET,
                                  SC_OPT_SIZE,
                                  SC_OPT_ALGOS,
                                  SC_OPT_HOSTS,
                                  SC_OPT_HELP,
                                  0};

static const sc_run_syntax_t map_syntax = {
    .name = "map",
    .shortopts = ":o:",
    .options = map_accepts,
    .takes_program = 1,
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
    int what = !!o->algo + !!o->program + !!o->matrix;
    if (what == 0)
        return sc_error(SC_ERR_INPUT, "map needs --algo NAME (simcoll list shows the algorithms), "
                                      "a program file or --matrix FILE");
    if (what > 1)
        return sc_error(SC_ERR_INPUT,
                        "map maps one thing, and was given %s: give --algo NAME, a "
                        "program file or --matrix FILE",
                        !o->algo     ? "a program and --matrix"
                        : o->program ? "--algo and a program"
                                     : "--algo and --matrix");
    if (o->root_given && !o->algo)
        return sc_error(SC_ERR_INPUT, "--root applies to --algo; a program names its calls' roots");
    if (o->mpi && !o->program)
        return sc_error(SC_ERR_INPUT, "--mpi chooses the algorithms of a program's calls; give a "
                                      "program file");
    if (o->algos_given && !(o->program && sc_cli_is_trace(o->program)))
        return sc_error(SC_ERR_INPUT, "--algos chooses the algorithms of a trace's collectives; "
                                      "give a trace");
    int time = o->objective == SC_OBJECTIVE_TIME;
    if (time && o->matrix)
        return sc_error(SC_ERR_INPUT, "--objective time simulates the run, and a traffic matrix "
                                      "has none; use cut or bottleneck");
    if (o->budget_given && !time)
        return sc_error(SC_ERR_INPUT, "--budget limits --objective time's simulations; give "
                                      "--objective time");
    if (o->hosts && !o->machinefile && !o->rankfile)
        return sc_error(SC_ERR_INPUT, "--hosts names the hosts of --machinefile and --rankfile; "
                                      "give one of them");
    if (o->size_list && !(time && o->algo))
        return sc_error(SC_ERR_INPUT, "--size is the size --objective time simulates --algo's "
                                      "call at; give --algo and --objective time");
    return sc_run_opts_files_distinct(o, NULL);
}

/* What map worked out, whatever it mapped: pi, and the weight between
 * nodes under it, under MPI's block placement and under its cyclic one
 * ([0], [1], [2]), between the largest groups and between smallest domains. */
typedef struct {
    char what[1100];  /* "--algo bruck", "halo.prog", "--matrix t.mtx" */
    const char *unit; /* of the weights: " bytes", and for an algorithm's graph of
                         which call: 1-byte blocks, a vector of np ints */
    int np;
    int *pi;
    double seconds, total, cut[3], top[3], domains[3];
    sc_bottleneck_t load[3];
    char extra[256]; /* a line more for the header, or "" */
} mapped_t;

/* --objective time: the assumed parameters of the platform that the
 * chosen mapping's simulated time rests on (sc_assumed_check), on stderr. */
static sc_err_t note_assumed(const sc_run_opts_t *o, const sc_run_spec_t *run, const int *pi)
{
    if (o->objective != SC_OBJECTIVE_TIME || !run || !run->plat->nsources)
        return SC_OK;
    sc_run_spec_t spec = *run;
    spec.pi = pi;
    spec.placement = SC_PLACE_BLOCK;
    sc_run_result_t res;
    sc_err_t err = sc_run(&spec, &res);
    if (err)
        return err;
    sc_assumed_run_t checked = sc_assumed_run_of(o->platform, &spec, &res);
    sc_assumed_budget_t budget = {0};
    if (!(err = sc_assumed_check(stderr, &checked, "the mapping's simulated time", &budget)))
        sc_assumed_print_unchecked(stderr, &budget);
    sc_run_result_destroy(&res);
    return err;
}

/* The nodes pi and MPI's placements use, when they differ: cyclic placement
 * spreads fewer ranks than cores over every node, where pi and block fill
 * the fewest, so its cut and load are over more nodes and links ("24
 * ranks: pi and block placement on 3 nodes, cyclic on 8"). "" when all
 * use the same. */
static sc_err_t nodes_line(const sc_platform_t *plat, int np, char *line, size_t size)
{
    int *node_of = malloc((size_t)np * sizeof *node_of);
    sc_err_t err = node_of ? sc_place(plat, np, SC_PLACE_BLOCK, node_of)
                           : sc_error(SC_ERR_RUN, "out of memory");
    int block = err ? 0 : sc_place_nodes_used(plat, np, node_of);
    if (!err)
        err = sc_place(plat, np, SC_PLACE_CYCLIC, node_of);
    int cyclic = err ? 0 : sc_place_nodes_used(plat, np, node_of);
    line[0] = '\0';
    if (!err && block != cyclic)
        snprintf(line, size,
                 "\nnodes: pi and block placement use %d, cyclic placement %d (spread over more "
                 "nodes, more of the graph crosses between them, on more links)",
                 block, cyclic);
    free(node_of);
    return err;
}

static sc_err_t map_algo(const sc_run_opts_t *o, const sc_platform_t *plat, mapped_t *m)
{
    const sc_algo_t *algo;
    sc_layout_t lay = {0};
    sc_graph_t graph = {0}; /* recorded once where placement does not change it */
    sc_err_t err;
    if ((err = sc_cli_find_algo(o->algo, "--algo", &algo)))
        return err;
    if (o->root_given && !sc_kind(algo->collective)->has_root) {
        const char *what = sc_collective_name(algo->collective);
        return sc_error(SC_ERR_INPUT,
                        "--root applies to bcast, reduce and scatter, and %s is %s %s", algo->name,
                        strchr("aeiou", what[0]) ? "an" : "a", what);
    }
    snprintf(m->what, sizeof m->what, "--algo %s", algo->name);
    /* an algorithm's graph is recorded on one call of the least data
     * (algorithms/mapping/graph.c): its weights scale with --size */
    m->unit =
        sc_algo_is_reduction(algo) ? " bytes at a vector of np ints" : " bytes at 1 byte a block";
    sc_run_spec_t spec = {.plat = plat, .algo = algo, .np = m->np, .root = o->root};
    sc_map_choice_t choice = o->map;
    choice.kind = SC_MAP_PARTITION;
    if ((err = sc_graph_recordable(algo)) || (err = sc_run_check(&spec)) ||
        (err = sc_cli_make_layout(plat, algo, m->np, o->root, &choice, &graph, &lay)))
        goto cleanup;
    m->pi = lay.pi;
    lay.pi = NULL;
    m->seconds = lay.seconds;
    if (o->objective_given) {
        /* the graph the partition cut: flat for an SMP-aware algorithm */
        if (!graph.size && (err = sc_graph_record(algo, m->np, o->root, &graph)))
            goto cleanup;
        size_t bytes = 2048;
        if (o->size_list && (err = sc_parse_size(o->size_list, "--size", &bytes)))
            goto cleanup;
        sc_run_spec_t run = {.plat = plat,
                             .algo = algo,
                             .np = m->np,
                             .root = o->root,
                             .bytes = bytes,
                             .op = SC_OP_SUM,
                             .type = SC_TYPE_DOUBLE,
                             .payload = 1};
        /* only time simulates: cut and bottleneck need no buffers (65,536
         * ranks of Bruck's would take 8 TiB) */
        if ((o->objective == SC_OBJECTIVE_TIME && (err = sc_run_check(&run))) ||
            (err = sc_map_objective(plat, &graph, &run, o->objective, &o->budget, m->pi, NULL,
                                        0)) ||
            (err = note_assumed(o, &run, m->pi)))
            goto cleanup;
        for (int k = 0; k < 3 && !err; k++)
            err = sc_cli_graph_load(plat, &graph, k == 2 ? SC_PLACE_CYCLIC : SC_PLACE_BLOCK,
                                    k ? NULL : m->pi, &m->load[k]);
        if (err)
            goto cleanup;
    }
    /* How good is it, next to MPI's placements? */
    spec.pi = m->pi;
    if ((err = sc_run_cut(&spec, &graph, &m->cut[0], &m->total, &m->top[0], &m->domains[0])))
        goto cleanup;
    spec.pi = NULL;
    if ((err = sc_run_cut(&spec, &graph, &m->cut[1], &m->total, &m->top[1], &m->domains[1])))
        goto cleanup;
    spec.placement = SC_PLACE_CYCLIC;
    err = sc_run_cut(&spec, &graph, &m->cut[2], &m->total, &m->top[2], &m->domains[2]);
cleanup:
    free(lay.pi);
    sc_graph_destroy(&graph);
    return err;
}

/* pi for a graph of positions (a program's, a matrix's), and its cuts. */
static sc_err_t map_graph(const sc_platform_t *plat, const sc_graph_t *graph,
                          const sc_run_opts_t *o, const sc_run_spec_t *run, mapped_t *m)
{
    m->pi = malloc((size_t)m->np * sizeof *m->pi);
    if (!m->pi)
        return sc_error(SC_ERR_RUN, "out of memory");
    m->unit = " bytes";
    m->total = graph->total_weight;
    sc_err_t err = sc_mapping_search_graph(plat, graph, o->map.partitioner, m->pi, &m->seconds);
    if (!err)
        err = sc_map_objective(plat, graph, run, o->objective, &o->budget, m->pi, NULL, 0);
    if (!err)
        err = note_assumed(o, run, m->pi);
    const sc_placement_t placement[3] = {SC_PLACE_BLOCK, SC_PLACE_BLOCK, SC_PLACE_CYCLIC};
    for (int k = 0; k < 3 && !err; k++)
        if (!(err = sc_cli_graph_cut(plat, graph, placement[k], k ? NULL : m->pi, &m->cut[k],
                                     &m->top[k], &m->domains[k])))
            err = sc_cli_graph_load(plat, graph, placement[k], k ? NULL : m->pi, &m->load[k]);
    return err;
}

/* The messages of a traffic matrix that gives them, between nodes under
 * pi, block and cyclic placement, as a line of the header. */
static sc_err_t matrix_messages(const sc_platform_t *plat, const sc_matrix_t *mx, mapped_t *m)
{
    sc_graph_sum_t sum;
    sc_graph_t graph = {0};
    sc_err_t err = sc_graph_sum_init(&sum, mx->size);
    for (long e = 0; !err && e < mx->nentries; e++)
        err = sc_graph_sum_edge(&sum, mx->entries[e].src, mx->entries[e].dst,
                                mx->entries[e].messages);
    if (!err)
        err = sc_graph_sum_finish(&sum, &graph);
    sc_graph_sum_destroy(&sum);
    double cut[3] = {0};
    const sc_placement_t placement[3] = {SC_PLACE_BLOCK, SC_PLACE_BLOCK, SC_PLACE_CYCLIC};
    for (int k = 0; k < 3 && !err; k++)
        err = sc_cli_graph_cut(plat, &graph, placement[k], k ? NULL : m->pi, &cut[k], NULL, NULL);
    if (!err)
        snprintf(m->extra, sizeof m->extra,
                 "\nmessages between nodes %.0f of %.0f (block placement %.0f, cyclic %.0f)",
                 cut[0], graph.total_weight, cut[1], cut[2]);
    sc_graph_destroy(&graph);
    return err;
}

static sc_err_t map_matrix(const sc_run_opts_t *o, const sc_platform_t *plat, mapped_t *m)
{
    sc_matrix_t mx;
    sc_graph_sum_t sum;
    sc_graph_t graph = {0};
    sc_err_t err = sc_matrix_read(o->matrix, o->np_list ? m->np : 0, &mx);
    if (err)
        return err;
    snprintf(m->what, sizeof m->what, "--matrix %s", o->matrix);
    m->np = mx.size;
    if (m->np > plat->total_cores) {
        err = sc_error(SC_ERR_INPUT,
                       "--matrix '%s' has %d ranks, which do not fit platform '%s': it has %d "
                       "cores on %d nodes",
                       o->matrix, m->np, plat->path, plat->total_cores, plat->nnodes);
        goto cleanup;
    }
    if ((err = sc_graph_sum_init(&sum, mx.size)))
        goto cleanup;
    for (long e = 0; !err && e < mx.nentries; e++)
        err = sc_graph_sum_edge(&sum, mx.entries[e].src, mx.entries[e].dst, mx.entries[e].bytes);
    if (!err)
        err = sc_graph_sum_finish(&sum, &graph);
    sc_graph_sum_destroy(&sum);
    if (!err)
        err = map_graph(plat, &graph, o, NULL, m);
    if (!err && mx.has_messages)
        err = matrix_messages(plat, &mx, m);
cleanup:
    sc_graph_destroy(&graph);
    sc_matrix_destroy(&mx);
    return err;
}

/* A trace's graph: its messages, and its collectives as their algorithms
 * send them (sc_cli_trace_graph). */
static sc_err_t map_trace(const sc_run_opts_t *o, const sc_platform_t *plat, mapped_t *m)
{
    sc_trace_t *trace;
    sc_trace_summary_t sum;
    sc_graph_t graph = {0};
    if (o->objective == SC_OBJECTIVE_TIME)
        return sc_error(SC_ERR_INPUT, "--objective time does not map a trace yet; use cut or "
                                      "bottleneck");
    sc_err_t err = sc_cli_trace_open(o->program, &trace, &sum);
    if (err)
        return err;
    snprintf(m->what, sizeof m->what, "%s", o->program);
    int ranks = sc_trace_ranks(trace);
    if (o->np_list && m->np != ranks)
        err = sc_error(SC_ERR_INPUT,
                       "--np %d: trace '%s' was recorded with %d ranks (leave "
                       "--np out)",
                       m->np, o->program, ranks);
    else if (ranks > plat->total_cores)
        err = sc_error(SC_ERR_INPUT,
                       "trace '%s' has %d ranks, more than platform '%s' has "
                       "cores (%d on %d nodes)",
                       o->program, ranks, plat->path, plat->total_cores, plat->nnodes);
    m->np = ranks;
    if (!err) {
        sc_cli_trace_skipped(trace, &sum);
        err = sc_cli_trace_graph(plat, trace, o->mpi ? o->mpi : sc_cli_default_profile(), o->forced,
                                 &graph);
    }
    if (!err)
        err = map_graph(plat, &graph, o, NULL, m);
    sc_graph_destroy(&graph);
    sc_trace_summary_destroy(&sum);
    sc_trace_close(trace);
    return err;
}

static sc_err_t map_program(const sc_run_opts_t *o, const sc_platform_t *plat, mapped_t *m)
{
    sc_program_t prog;
    sc_graph_t graph = {0};
    sc_err_t err = sc_cli_program_read(o->program, &prog);
    if (err)
        return err;
    snprintf(m->what, sizeof m->what, "%s", o->program);
    sc_run_spec_t run = {.plat = plat,
                         .program = &prog,
                         .np = m->np,
                         .payload = 1,
                         .profile = o->mpi ? o->mpi : sc_cli_default_profile()};
    if (!(err = sc_cli_program_graph(plat, &prog, o->mpi, m->np, &graph)))
        err = map_graph(plat, &graph, o, &run, m);
    sc_graph_destroy(&graph);
    sc_program_destroy(&prog);
    return err;
}

/* --hosts: at least one a node the ranks use (block placement's, which pi
 * permutes), the platform's node n being the n-th. */
static sc_err_t hosts_for(const sc_run_opts_t *o, const sc_platform_t *plat, int np,
                          const int *slot_node, sc_hosts_t *hosts)
{
    sc_err_t err = sc_hosts_read("--hosts", o->hosts, hosts);
    int used = 0;
    for (int i = 0; !err && i < np; i++)
        used = slot_node[i] + 1 > used ? slot_node[i] + 1 : used;
    if (!err && hosts->n < used)
        err = sc_error(SC_ERR_INPUT,
                       "--hosts '%s' names %d host%s, and the %d ranks are on %d nodes of '%s' "
                       "(%s to %s): give one a node, in the platform's order",
                       o->hosts, hosts->n, hosts->n == 1 ? "" : "s", np, used, plat->path,
                       plat->nodes[0].name, plat->nodes[used - 1].name);
    return err;
}

int sc_cli_map(int argc, char **argv)
{
    sc_run_opts_t o;
    int done;
    sc_err_t err = sc_cli_map_options(argc, argv, &o, &done);
    if (err || done)
        return err ? sc_cli_fail(err) : 0;
    sc_platform_t plat = {0};
    mapped_t m = {0};
    sc_hosts_t hosts = {0};
    int *slot_node = NULL;
    if ((err = sc_cli_load_platform(o.platform, &plat)))
        goto cleanup;
    int trace = o.program && sc_cli_is_trace(o.program);
    if (o.np_list           ? (err = sc_parse_int(o.np_list, "--np", 1, 1 << 30, &m.np))
        : o.matrix || trace ? SC_OK
                            : (err = sc_cli_default_np(&plat, &m.np)))
        goto cleanup;
    if ((err = o.algo      ? map_algo(&o, &plat, &m)
               : trace     ? map_trace(&o, &plat, &m)
               : o.program ? map_program(&o, &plat, &m)
                           : map_matrix(&o, &plat, &m)))
        goto cleanup;
    int np = m.np;
    char header[2048], groups[256] = "", between_domains[256] = "", objective[256] = "",
                       nodes[256] = "";
    if (o.objective_given)
        snprintf(objective, sizeof objective,
                 "\nobjective %s: the busiest node's link carries %.0f%s (block placement %.0f, "
                 "cyclic %.0f)",
                 sc_objective_name(o.objective), m.load[0].load, m.unit, m.load[1].load,
                 m.load[2].load);
    if ((err = nodes_line(&plat, np, nodes, sizeof nodes)))
        goto cleanup;
    if (sc_platform_node_levels(&plat)) {
        sc_domain_kind_t smallest = (sc_domain_kind_t)sc_platform_domain_kind(&plat, 1);
        snprintf(between_domains, sizeof between_domains,
                 "\nbetween %s (%d a node), in a node or not: %.0f (block %.0f, cyclic %.0f)",
                 sc_domain_plural(smallest), sc_platform_domains(&plat), m.domains[0], m.domains[1],
                 m.domains[2]);
    }
    if (plat.ngroupings > 0)
        snprintf(groups, sizeof groups,
                 "\nbetween the largest groups of %ld node%s (racks): %.0f (block %.0f, "
                 "cyclic %.0f)",
                 plat.group_size[plat.ngroupings - 1],
                 plat.group_size[plat.ngroupings - 1] == 1 ? "" : "s", m.top[0], m.top[1],
                 m.top[2]);
    snprintf(header, sizeof header,
             "simcoll map %s --np %d on %s (%s, %d nodes), partitioner %s\n"
             "cut weight %.0f of %.0f%s (block placement %.0f, cyclic %.0f); %.3g s to "
             "partition%s%s%s%s%s",
             m.what, np, o.platform, plat.name, plat.nnodes, sc_partitioner_name(o.map.partitioner),
             m.cut[0], m.total, m.unit, m.cut[1], m.cut[2], m.seconds, nodes, objective, m.extra,
             groups, between_domains);
    slot_node = malloc((size_t)np * sizeof *slot_node);
    if (!slot_node) {
        err = sc_error(SC_ERR_RUN, "out of memory");
        goto cleanup;
    }
    if ((err = sc_place(&plat, np, SC_PLACE_BLOCK, slot_node)))
        goto cleanup;
    if (o.hosts && (err = hosts_for(&o, &plat, np, slot_node, &hosts)))
        goto cleanup;
    if (!o.hosts && (o.machinefile || o.rankfile))
        fprintf(stderr,
                "simcoll: note: %s names simcoll's nodes (%s, ...), not your hosts: "
                "replace them, or give --hosts FILE|NODELIST\n",
                o.machinefile ? o.machinefile : o.rankfile, plat.nodes[0].name);
    if (o.out) {
        err = sc_mapfile_write(&plat, np, m.pi, slot_node, header, o.out, o.machinefile, o.rankfile,
                               hosts.names);
    } else {
        if (!(err = sc_mapfile_write(&plat, np, m.pi, slot_node, header, NULL, o.machinefile,
                                     o.rankfile, hosts.names)))
            for (int r = 0; r < np; r++)
                printf("%d\n", m.pi[r]);
    }
    /* The figures, each line after the first of the header, on stderr
     * (stdout may be pi) as the file's comments read them, not as
     * "simcoll: ..." lines, which are errors and warnings. */
    for (const char *line = strchr(header, '\n'); !err && line; line = strchr(line + 1, '\n')) {
        const char *end = strchr(line + 1, '\n');
        fprintf(stderr, "# %.*s\n", (int)(end ? end - line - 1 : (long)strlen(line + 1)), line + 1);
    }
cleanup:
    sc_hosts_destroy(&hosts);
    free(slot_node);
    free(m.pi);
    sc_platform_destroy(&plat);
    return err ? sc_cli_fail(err) : 0;
}
