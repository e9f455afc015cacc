/* The simcoll command line.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "cli.h"

#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "algorithms/mapping/graph.h"
#include "algorithms/mapping/mapping.h"
#include "algorithms/profiles/profiles.h"
#include "args.h"
#include "calibrate.h"
#include "list_cmd.h"
#include "platform_cmd.h"
#include "plot.h"
#include "plugin.h"
#include "sweep.h"
#include "program_cmd.h"
#include "sim/engine/engine.h"
#include "sim/io/files.h"
#include "sim/io/mapfile.h"
#include "report.h"
#include "explain.h"
#include "trace.h"
#include "common/sc_units.h"

static const char map_usage[] =
    "usage: simcoll map --platform FILE --algo NAME [--np N] [--root R]\n"
    "                   [--partitioner multilevel|greedy] [-o PI] [--machinefile F]\n"
    "                   [--rankfile F]\n"
    "Computes pi, the mapping of the algorithm's positions to ranks that cuts its\n"
    "communication graph into node-sized parts with the least traffic between\n"
    "nodes, and writes it one position per line (stdout or -o), with an MPICH\n"
    "machinefile and an Open MPI rankfile placing the ranks the same way.\n";

static const char usage[] =
    "Usage: simcoll --platform FILE (--algo NAME | --compare A,B,...) [options]\n"
    "  or:  simcoll --platform FILE --coll NAME --mpi PROFILE [options]\n"
    "  or:  simcoll map --platform FILE --algo NAME [--np N] [-o PI] (map --help)\n"
    "  or:  simcoll platform --like FILE|--net NET --nodes N [--cores C|LIST] [-o OUT]\n"
    "                        (--topology, --levels, --set: platform --help)\n"
    "  or:  simcoll calibrate MEASUREMENTS --like FILE [-o OUT] (calibrate --help)\n"
    "  or:  simcoll run --platform FILE [--np N] [options] PROGRAM (run --help)\n"
    "  or:  simcoll tune --platform FILE --coll NAME [--np N] (tune --help)\n"
    "  or:  simcoll plot FILE.csv -x COLUMN -y COLUMN [--by COLUMN] -o OUT.png (plot --help)\n"
    "  or:  simcoll sweep STUDY [-j N] [-o RESULTS.csv] (sweep --help)\n"
    "  or:  simcoll new-algo COLLECTIVE NAME -o FILE.c (an algorithm of your own)\n"
    "  or:  simcoll list [--mpi]\n"
    "\n"
    "Simulates MPI collective algorithms on a cluster of SMP nodes (SimGrid)\n"
    "and prints the simulated time beside the cost model's prediction.\n"
    "\n"
    "  --platform FILE        a simcoll cluster in SimGrid XML (see platforms/)\n"
    "  --algo NAME            the algorithm to run (simcoll list shows all)\n"
    "  --compare A,B,...      several algorithms side by side\n"
    "  --coll NAME --mpi P    the algorithm MPI library profile P runs for collective\n"
    "                         NAME (allgather, bcast, barrier, reduce, allreduce) at\n"
    "                         each size and process count (simcoll list --mpi)\n"
    "  --np N[,N...]          process counts (default: every core of the platform)\n"
    "  --size S[,S...]        bytes per rank (allgather block, bcast message,\n"
    "                         reduce/allreduce vector); K, M, G are powers of\n"
    "                         1024 (default 2048)\n"
    "  --op OP                reduction: sum (default), prod, max, min, land, lor,\n"
    "                         lxor, band, bor, bxor (the last six on int only)\n"
    "  --type T               reduction element type: double (default) or int\n"
    SC_CLI_DATA_HELP
    "  --mapping M            where algorithm positions run: block, cyclic (MPI's\n"
    "                         placements), partition (the algorithm's graph cut into\n"
    "                         node-sized parts), greedy, or a file of pi; default\n"
    "                         partition for the exch/reorder variants, else block\n"
    "  --partitioner P        multilevel (default) or greedy, for --mapping partition\n"
    "  --root R               root rank of a broadcast or reduce (default 0)\n"
    "  --format table|csv|json  output format (default table)\n"
    "  --no-payload           sizes only, no data: for large runs; results are\n"
    "                         then not checked\n"
    "  --replay               with --no-payload: record the algorithm's schedule\n"
    "                         and play it with one actor per node instead of one\n"
    "                         per rank: the same protocol in a third of the memory\n"
    ;

/* The rest of --help (one string would pass C99's 4095 characters). */
static const char usage_traces[] =
    "  --timeline FILE        draw every message of the run (one --algo, --np and\n"
    "                         --size): .svg or .png, a lane per rank (per node\n"
    "                         above 64 ranks)\n"
    "  --trace FILE           every message as Chrome trace events (JSON: open in\n"
    "                         https://ui.perfetto.dev or chrome://tracing)\n"
    "  --paje FILE            every message as a Paje trace (ViTE, pajeng)\n"
    "  --load FILE.c|FILE.so  add the algorithms of a file of your own (its table\n"
    "                         simcoll_algorithms; simcoll new-algo writes one),\n"
    "                         compiled with cc against simcoll.h; repeatable\n"
    "  --explain              after the table, the run step by step: messages,\n"
    "                         bytes, time against the cost model, waiting, the\n"
    "                         busiest NIC, and the critical path (one run)\n"
    "  --help, --version\n"
    "\n"
    "simcoll map computes pi for an algorithm and writes it (stdout or -o), and\n"
    "an MPICH machinefile and an Open MPI rankfile placing the ranks the same way.\n"
    "simcoll platform writes a cluster of N nodes (of C cores) with the links and\n"
    "protocol properties of the nodes of FILE, for what-if studies: on one switch,\n"
    "in racks or in one of SimGrid's topologies.\n";

static sc_err_t find_algo(const char *name, const char *option, const sc_algo_t **out)
{
    *out = sc_algo_find(name);
    if (*out)
        return SC_OK;
    return sc_error(SC_ERR_INPUT,
                    "%s: unknown algorithm '%s'; did you mean '%s'? (simcoll list shows all)",
                    option, name, sc_algo_nearest(name)->name);
}

/* --mapping: MPI's own placements, a partition of the algorithm's graph,
 * or pi from a file. */
typedef enum { MAP_DEFAULT, MAP_BLOCK, MAP_CYCLIC, MAP_PARTITION, MAP_FILE } map_kind_t;

typedef struct {
    map_kind_t kind;
    const char *file;
    sc_partitioner_t partitioner;
} map_choice_t;

/* How one algorithm runs at one process count, worked out once and
 * shared by all sizes. */
typedef struct {
    sc_placement_t placement;
    int *pi;        /* NULL: the identity */
    double seconds; /* spent partitioning */
    const char *name;
    double cut, total; /* of the algorithm's graph under it (sc_run_cut) */
} layout_t;

/* `graph`: as sc_run_partition's memo. */
static sc_err_t make_layout(const sc_platform_t *plat, const sc_algo_t *algo, int np, int root,
                            const map_choice_t *choice, sc_graph_t *graph, layout_t *out)
{
    map_kind_t kind = choice->kind;
    if (kind == MAP_DEFAULT)
        kind = algo->needs & SC_USES_MAPPING ? MAP_PARTITION : MAP_BLOCK;
    *out = (layout_t){.placement = kind == MAP_CYCLIC ? SC_PLACE_CYCLIC : SC_PLACE_BLOCK};
    switch (kind) {
    case MAP_DEFAULT:
    case MAP_BLOCK:
        out->name = "block";
        return SC_OK;
    case MAP_CYCLIC:
        out->name = "cyclic";
        return SC_OK;
    case MAP_FILE:
        out->name = choice->file;
        return sc_mapfile_read(choice->file, np, &out->pi);
    case MAP_PARTITION:
        break;
    }
    out->name = choice->partitioner == SC_PARTITIONER_GREEDY ? "greedy" : "partition";
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

/* Options shared by runs and `simcoll map`. */
typedef struct {
    const char *platform, *algo, *compare, *np_list, *size_list;
    map_choice_t map;
    int root;
    sc_op_t op;
    sc_type_t type;
    sc_format_t format;
    int payload;
    int replay; /* --replay */
    int root_given, op_given, type_given; /* refused where nothing uses them */
    int partitioner_given, mapping_greedy;
    sc_cli_data_t data; /* --data */
    const char *out, *machinefile, *rankfile; /* map only */
    const char *coll;                  /* --coll, with --mpi */
    const sc_profile_t *mpi;
    const char *timeline, *trace, *paje; /* every message of one run */
    int explain;
    const char *loads[SC_CLI_MAX_LOADS]; /* --load, loaded by run_command before --algo is
                             looked up (not by sc_cli_check) */
    int nloads;
} opts_t;

enum {
    OPT_PARTITIONER = 256,
    OPT_MACHINEFILE,
    OPT_RANKFILE,
    OPT_OP,
    OPT_TYPE,
    OPT_COLL,
    OPT_MPI,
    OPT_DATA,
    OPT_TIMELINE,
    OPT_TRACE,
    OPT_PAJE,
    OPT_EXPLAIN,
    OPT_LOAD,
    OPT_REPLAY
};


/* Parses argv from argv[first]; `map` selects the map command's options.
 * Sets *done after --help/--version. */
static sc_err_t parse_options(int argc, char **argv, int first, int map, opts_t *o, int *done)
{
    static const struct option run_opts[] = {
        {"platform", required_argument, NULL, 'p'}, {"algo", required_argument, NULL, 'a'},
        {"compare", required_argument, NULL, 'c'},  {"np", required_argument, NULL, 'n'},
        {"size", required_argument, NULL, 's'},     {"mapping", required_argument, NULL, 'm'},
        {"partitioner", required_argument, NULL, OPT_PARTITIONER},
        {"root", required_argument, NULL, 'r'},     {"format", required_argument, NULL, 'f'},
        {"op", required_argument, NULL, OPT_OP},    {"type", required_argument, NULL, OPT_TYPE},
        {"no-payload", no_argument, NULL, 'N'},     {"help", no_argument, NULL, 'h'},
        {"coll", required_argument, NULL, OPT_COLL}, {"mpi", required_argument, NULL, OPT_MPI},
        {"version", no_argument, NULL, 'V'},        {"data", required_argument, NULL, OPT_DATA},
        {"timeline", required_argument, NULL, OPT_TIMELINE},
        {"trace", required_argument, NULL, OPT_TRACE},
        {"paje", required_argument, NULL, OPT_PAJE},
        {"explain", no_argument, NULL, OPT_EXPLAIN},
        {"load", required_argument, NULL, OPT_LOAD},
        {"replay", no_argument, NULL, OPT_REPLAY},
        {NULL, 0, NULL, 0}};
    static const struct option map_opts[] = {
        {"platform", required_argument, NULL, 'p'}, {"algo", required_argument, NULL, 'a'},
        {"np", required_argument, NULL, 'n'},       {"root", required_argument, NULL, 'r'},
        {"partitioner", required_argument, NULL, OPT_PARTITIONER},
        {"output", required_argument, NULL, 'o'},
        {"machinefile", required_argument, NULL, OPT_MACHINEFILE},
        {"rankfile", required_argument, NULL, OPT_RANKFILE},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0}};
    static const char *const formats[] = {"table", "csv", "json", NULL};
    static const char *const partitioners[] = {"multilevel", "greedy", NULL};
    *o = (opts_t){.format = SC_FORMAT_TABLE, .payload = 1, .op = SC_OP_SUM,
                  .type = SC_TYPE_DOUBLE};
    *done = 0;
    opterr = 0;
    optind = 0; /* GNU: restart parsing (sc_cli_main may run more than once) */
    int c, index;
    sc_err_t err = SC_OK;
    char **args = argv + first - 1; /* getopt starts at args[1] */
    int nargs = argc - first + 1;
    for (int before = 1;
         !err && (c = getopt_long(nargs, args, map ? ":o:" : ":h", map ? map_opts : run_opts,
                                  NULL)) != -1;
         before = optind) {
        if (optarg && !strncmp(optarg, "--", 2) && optarg[2]) {
            /* "--platform --algo ring": the value was forgotten. The
             * option is the word before its value, or holds it after '='. */
            const char *word = args[optind - 1] == optarg ? args[optind - 2] : args[optind - 1];
            err = sc_error(SC_ERR_INPUT, "'%.*s' needs a value, and was given the option '%s' "
                                         "(simcoll%s --help lists options)",
                           (int)strcspn(word, "="), word, optarg, map ? " map" : "");
            break;
        }
        switch (c) {
        case 'p': o->platform = optarg; break;
        case 'a': o->algo = optarg; break;
        case 'c': o->compare = optarg; break;
        case OPT_COLL:
            if (!(err = sc_cli_coll(optarg)))
                o->coll = optarg;
            break;
        case OPT_MPI: err = sc_cli_profile(optarg, &o->mpi); break;
        case 'n': o->np_list = optarg; break;
        case 's': o->size_list = optarg; break;
        case 'o': o->out = optarg; break;
        case OPT_MACHINEFILE: o->machinefile = optarg; break;
        case OPT_RANKFILE: o->rankfile = optarg; break;
        case 'm':
            if (!strcmp(optarg, "block"))
                o->map.kind = MAP_BLOCK;
            else if (!strcmp(optarg, "cyclic"))
                o->map.kind = MAP_CYCLIC;
            else if (!strcmp(optarg, "partition"))
                o->map.kind = MAP_PARTITION;
            else if (!strcmp(optarg, "greedy")) {
                o->mapping_greedy = 1;
                o->map.kind = MAP_PARTITION;
                o->map.partitioner = SC_PARTITIONER_GREEDY;
            } else {
                o->map.kind = MAP_FILE;
                o->map.file = optarg;
            }
            break;
        case OPT_PARTITIONER:
            o->partitioner_given = 1;
            if (!(err = sc_cli_choice(optarg, "--partitioner", partitioners, &index)))
                o->map.partitioner = index ? SC_PARTITIONER_GREEDY : SC_PARTITIONER_MULTILEVEL;
            break;
        case 'r':
            o->root_given = 1;
            err = sc_parse_int(optarg, "--root", 0, 1 << 30, &o->root);
            break;
        case OPT_OP:
            o->op_given = 1;
            err = sc_op_parse(optarg, "--op", &o->op);
            break;
        case OPT_TYPE:
            o->type_given = 1;
            err = sc_type_parse(optarg, "--type", &o->type);
            break;
        case OPT_DATA:
            err = sc_cli_data(optarg, &o->data);
            break;
        case OPT_TIMELINE: o->timeline = optarg; break;
        case OPT_TRACE: o->trace = optarg; break;
        case OPT_PAJE: o->paje = optarg; break;
        case OPT_EXPLAIN: o->explain = 1; break;
        case OPT_LOAD: err = sc_cli_add_load(o->loads, &o->nloads, optarg); break;
        case 'f':
            if (!(err = sc_cli_choice(optarg, "--format", formats, &index)))
                o->format = (sc_format_t)index;
            break;
        case 'N': o->payload = 0; break;
        case OPT_REPLAY: o->replay = 1; break;
        case 'h':
            fputs(map ? map_usage : usage, stdout);
            if (!map)
                fputs(usage_traces, stdout);
            *done = 1;
            return SC_OK;
        case 'V':
            printf("simcoll %s (SimGrid %s, igraph %s)\n", SC_VERSION, sc_simgrid_version(),
                   sc_igraph_version());
            *done = 1;
            return SC_OK;
        case ':':
            err = sc_error(SC_ERR_INPUT, "'%s needs a value (simcoll%s --help lists options)",
                           sc_cli_refused_option(args, before, map ? map_opts : run_opts),
                           map ? " map" : "");
            break;
        default:
            err = sc_error(SC_ERR_INPUT, "unknown option '%s (simcoll%s --help lists options)",
                           sc_cli_refused_option(args, before, map ? map_opts : run_opts),
                           map ? " map" : "");
            break;
        }
    }
    if (!err && optind < nargs)
        err = sc_error(SC_ERR_INPUT, "unexpected argument '%s' (simcoll%s --help lists options)",
                       args[optind], map ? " map" : "");
    if (!err && !o->platform)
        err = sc_error(SC_ERR_INPUT,
                       "--platform FILE is required, e.g. --platform ib4x.xml (a shipped platform)");
    if (!err && map && !o->algo)
        err = sc_error(SC_ERR_INPUT, "map needs --algo NAME (simcoll list shows the algorithms)");
    if (!err && !map && !o->coll != !o->mpi)
        err = sc_error(SC_ERR_INPUT, "--coll NAME and --mpi PROFILE go together: the collective, "
                                     "and the library whose choice of algorithm runs");
    if (!err && !map && (!!o->algo + !!o->compare + !!o->coll) != 1)
        err = sc_error(SC_ERR_INPUT, "give exactly one of --algo NAME, --compare A,B,... or "
                                     "--coll NAME --mpi PROFILE (simcoll list shows the "
                                     "algorithms, simcoll list --mpi the profiles)");
    if (!err && !map && o->partitioner_given && o->map.kind != MAP_PARTITION &&
        o->map.kind != MAP_DEFAULT) /* by default the algorithms on a mapping partition */
        err = sc_error(SC_ERR_INPUT, "--partitioner applies to --mapping partition; leave it out "
                                     "or give --mapping partition");
    if (!err && o->partitioner_given && o->mapping_greedy)
        err = sc_error(SC_ERR_INPUT, "--mapping greedy is --mapping partition --partitioner "
                                     "greedy; give --mapping partition with --partitioner");
    if (!err && o->mpi && o->map.kind == MAP_PARTITION)
        err = sc_error(SC_ERR_INPUT, "--mapping partition or greedy partitions one algorithm's "
                                     "graph; with --mpi the algorithm depends on the size, so use "
                                     "block, cyclic or a mapping file");
    const sc_file_role_t files[] = {
        {"--platform", o->platform, 0},   {"--mapping", o->map.file, 0},
        {"-o", o->out, 1},                {"--machinefile", o->machinefile, 1},
        {"--rankfile", o->rankfile, 1},   {"--timeline", o->timeline, 1},
        {"--trace", o->trace, 1},         {"--paje", o->paje, 1}};
    if (!err)
        err = sc_files_distinct(files, (int)(sizeof files / sizeof files[0]));
    return err;
}

/* The lists of a run: algorithms, process counts, sizes. */
typedef struct {
    char *algo_text, *np_text, *size_text;
    char **algo_items, **np_items, **size_items;
    int nalgos, nnps, nsizes;
    const sc_algo_t **algos;
    int *nps;
    size_t *sizes;
} lists_t;

static void lists_free(lists_t *l)
{
    free(l->algo_text);
    free(l->np_text);
    free(l->size_text);
    free(l->algo_items);
    free(l->np_items);
    free(l->size_items);
    free(l->algos);
    free(l->nps);
    free(l->sizes);
}

/* Without --np a run uses every core of the platform, up to this many: a
 * platform of a million cores would otherwise start a simulation of hours
 * by default (4096 ranks of Bruck take about 5 s, bench/README.md). */
#define DEFAULT_NP_MAX 4096

static sc_err_t default_np(const sc_platform_t *plat, int *np)
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

/* Parses the lists; process counts default to every core of plat. */
/* --root, --op and --type are refused when no collective run has a root
 * or reduces: silently ignored, they would let a user think they mattered. */
static sc_err_t check_applies(const opts_t *o, const lists_t *l)
{
    int rooted = 0, reduces = 0;
    for (int i = 0; i < l->nalgos; i++) {
        rooted |= sc_kind(l->algos[i]->collective)->has_root;
        reduces |= sc_kind(l->algos[i]->collective)->is_reduction;
    }
    if (o->coll) {
        rooted = sc_kind_find(o->coll)->has_root;
        reduces = sc_kind_find(o->coll)->is_reduction;
    }
    const char *option = o->root_given && !rooted ? "--root"
                         : o->op_given && !reduces ? "--op"
                         : o->type_given && !reduces ? "--type"
                                                      : NULL;
    if (!option)
        return SC_OK;
    const char *applies = strcmp(option, "--root") ? "reduce and allreduce" : "bcast and reduce";
    if (o->coll)
        return sc_error(SC_ERR_INPUT, "%s applies to %s, not to %s", option, applies, o->coll);
    if (l->nalgos > 1)
        return sc_error(SC_ERR_INPUT,
                        "%s applies to %s, and none of the algorithms compared is one", option,
                        applies);
    const char *what = sc_collective_name(l->algos[0]->collective);
    return sc_error(SC_ERR_INPUT, "%s applies to %s, and %s is %s %s", option, applies,
                    l->algos[0]->name, strchr("aeiou", what[0]) ? "an" : "a", what);
}

static sc_err_t parse_lists(const opts_t *o, const sc_platform_t *plat, lists_t *l)
{
    const char *algo_option = o->algo ? "--algo" : "--compare";
    /* --coll: the profile picks the algorithms, size by size */
    const char *algos = o->algo ? o->algo : o->compare;
    l->algo_text = algos ? strdup(algos) : NULL;
    /* 2048 bytes: the block size of the lecture's Bruck experiment. */
    l->size_text = strdup(o->size_list ? o->size_list : "2048");
    l->np_text = o->np_list ? strdup(o->np_list) : NULL;
    if ((algos && !l->algo_text) || !l->size_text || (o->np_list && !l->np_text))
        return sc_error(SC_ERR_RUN, "out of memory");
    sc_err_t err;
    if ((algos &&
         (err = sc_cli_split_list(l->algo_text, algo_option, &l->algo_items, &l->nalgos))) ||
        (err = sc_cli_split_list(l->size_text, "--size", &l->size_items, &l->nsizes)))
        return err;
    l->nnps = 1;
    if (l->np_text && (err = sc_cli_split_list(l->np_text, "--np", &l->np_items, &l->nnps)))
        return err;
    if (o->algo && l->nalgos > 1)
        return sc_error(SC_ERR_INPUT, "--algo takes one name; use --compare %s", o->algo);
    l->algos = malloc((size_t)(l->nalgos ? l->nalgos : 1) * sizeof *l->algos);
    l->sizes = malloc((size_t)l->nsizes * sizeof *l->sizes);
    l->nps = malloc((size_t)l->nnps * sizeof *l->nps);
    if (!l->algos || !l->sizes || !l->nps)
        return sc_error(SC_ERR_RUN, "out of memory");
    for (int i = 0; i < l->nalgos && !err; i++)
        err = find_algo(l->algo_items[i], algo_option, &l->algos[i]);
    for (int i = 0; i < l->nsizes && !err; i++)
        err = sc_parse_size(l->size_items[i], "--size", &l->sizes[i]);
    for (int i = 0; i < l->nnps && !err; i++) {
        if (!l->np_items)
            err = default_np(plat, &l->nps[i]);
        else
            err = sc_parse_int(l->np_items[i], "--np", 1, 1 << 30, &l->nps[i]);
    }
    /* A value listed twice would give two identical rows (as a sweep's
     * axis, which refuses it too). */
    for (int i = 0; i < l->nalgos && !err; i++)
        for (int j = 0; j < i && !err; j++)
            if (l->algos[i] == l->algos[j])
                err = sc_error(SC_ERR_INPUT, "%s: '%s' is listed twice", algo_option,
                               l->algos[i]->name);
    for (int i = 0; i < l->nsizes && !err; i++)
        for (int j = 0; j < i && !err; j++)
            if (l->sizes[i] == l->sizes[j])
                err = sc_error(SC_ERR_INPUT, "--size: %zu bytes is listed twice ('%s', '%s')",
                               l->sizes[i], l->size_items[j], l->size_items[i]);
    if (!err && l->np_items)
        err = sc_cli_distinct_nps(l->nps, l->nnps);
    return err ? err : check_applies(o, l);
}

static sc_err_t load_platform(const char *path, sc_platform_t *plat)
{
    sc_err_t err = sc_platform_load("--platform", path, plat);
    if (!err && !plat->uniform)
        fprintf(stderr, "simcoll: note: platform '%s' is not uniform (its nodes' core speeds, "
                        "memory buses or network routes differ), so the cost model is not "
                        "applied\n",
                path);
    return err;
}

/* Where the ranks of a layout run, by rank, for a profile's choice. */
static sc_err_t rank_nodes(const sc_platform_t *plat, int np, const layout_t *lay, int *node_of)
{
    int *slot = malloc((size_t)np * sizeof *slot), *inv = malloc((size_t)np * sizeof *inv);
    sc_err_t err = slot && inv ? sc_place(plat, np, lay->placement, slot)
                               : sc_error(SC_ERR_RUN, "out of memory");
    if (!err && lay->pi)
        err = sc_mapping_invert(np, lay->pi, inv);
    for (int j = 0; !err && j < np; j++)
        node_of[j] = slot[lay->pi ? inv[j] : j]; /* rank j on the node of position j */
    free(slot);
    free(inv);
    return err;
}

/* One algorithm at one process count: its layout, worked out once and
 * shared by all its sizes. */
typedef struct {
    const sc_algo_t *algo;
    int np;
    layout_t layout;
} plan_t;

/* The plans and runs of a command line. */
typedef struct {
    plan_t *plans;
    int nplans;
    struct run {
        int plan;
        size_t bytes;
    } *runs;
    int nruns;
} batch_t;

/* The index of the plan of algo at np, added if new (plans has room). */
static int plan_of(batch_t *b, const sc_algo_t *algo, int np)
{
    for (int i = 0; i < b->nplans; i++)
        if (b->plans[i].algo == algo && b->plans[i].np == np)
            return i;
    b->plans[b->nplans] = (plan_t){algo, np, {0}};
    return b->nplans++;
}

/* Lists every run: algorithms x process counts x sizes, or with --mpi the
 * profile's choice for each process count and size. */
static sc_err_t make_batch(const opts_t *o, const sc_platform_t *plat, const lists_t *l,
                           batch_t *b)
{
    int per_np = o->mpi ? l->nsizes : l->nalgos;
    b->plans = calloc((size_t)per_np * (size_t)l->nnps, sizeof *b->plans);
    b->runs = calloc((size_t)(o->mpi ? 1 : l->nalgos) * (size_t)l->nnps * (size_t)l->nsizes,
                     sizeof *b->runs);
    if (!b->plans || !b->runs)
        return sc_error(SC_ERR_RUN, "out of memory");
    sc_err_t err = SC_OK;
    if (!o->mpi) {
        for (int a = 0; a < l->nalgos; a++)
            for (int i = 0; i < l->nnps; i++) {
                int plan = plan_of(b, l->algos[a], l->nps[i]);
                /* A barrier has no data: one run, whatever --size says. */
                if (!sc_kind(l->algos[a]->collective)->has_data)
                    b->runs[b->nruns++] = (struct run){plan, 0};
                for (int s = 0; s < l->nsizes && sc_kind(l->algos[a]->collective)->has_data; s++)
                    b->runs[b->nruns++] = (struct run){plan, l->sizes[s]};
            }
        return SC_OK;
    }
    sc_collective_t coll = sc_kind_find(o->coll)->collective;
    for (int i = 0; i < l->nnps && !err; i++) {
        int np = l->nps[i];
        int *node_of = malloc((size_t)np * sizeof *node_of);
        layout_t place = {0};
        if (!node_of)
            err = sc_error(SC_ERR_RUN, "out of memory");
        /* MPI's placement (block, cyclic or a mapping file), as the library
         * sees it; no algorithm is needed to make it. */
        if (!err && !(err = sc_run_check(&(sc_run_spec_t){.plat = plat,
                                                          .algo = sc_algo_find("barrier"),
                                                          .np = np})) &&
            !(err = make_layout(plat, sc_algo_find("barrier"), np, 0, &o->map, NULL, &place)))
            err = rank_nodes(plat, np, &place, node_of);
        int has_data = sc_kind((sc_collective_t)coll)->has_data;
        for (int s = 0; s < (has_data ? l->nsizes : 1) && !err; s++) {
            sc_call_t call = {(sc_collective_t)coll, has_data ? l->sizes[s] : 0, np, node_of,
                              o->type};
            int plan = plan_of(b, sc_profile_choose(o->mpi, &call), np);
            b->runs[b->nruns++] = (struct run){plan, has_data ? l->sizes[s] : 0};
        }
        free(place.pi);
        free(node_of);
    }
    return err;
}

/* --timeline, --trace, --paje: the messages of the command's one run. */
static sc_err_t write_traces(const opts_t *o, const sc_platform_t *plat, const plan_t *pl,
                             const sc_report_row_t *row, const sc_provenance_t *prov)
{
    char size[32], title[512], command[4096];
    sc_format_bytes((double)row->bytes, size, sizeof size);
    if (sc_kind(pl->algo->collective)->has_data)
        snprintf(title, sizeof title, "%s, np %d, %s, %s, %s mapping", pl->algo->name, pl->np,
                 size, plat->name, pl->layout.name);
    else
        snprintf(title, sizeof title, "%s, np %d, %s, %s mapping", pl->algo->name, pl->np,
                 plat->name, pl->layout.name);
    sc_provenance_command(prov, command, sizeof command);
    sc_trace_info_t info = {plat, row->result.node_of, pl->np, title, command};
    sc_err_t err = sc_trace_write_all(o->timeline, o->trace, o->paje, &info, &row->result);
    sc_explain_t e;
    if (!err && o->explain && !(err = sc_explain(plat, pl->np, &row->result, &e))) {
        sc_explain_print(stdout, title, plat, pl->np, &row->result, &e);
        sc_explain_destroy(&e);
    }
    return err;
}

static int run_command(int argc, char **argv)
{
    opts_t o;
    int done;
    sc_err_t err = parse_options(argc, argv, 1, 0, &o, &done);
    if (err || done)
        return err ? sc_cli_fail(err) : 0;
    sc_platform_t plat = {0};
    lists_t l = {0};
    batch_t b = {0};
    sc_report_row_t *rows = NULL;
    int nrows = 0, invalid = 0;
    err = sc_cli_load_all(o.loads, o.nloads);
    if (err || (err = load_platform(o.platform, &plat)) || (err = parse_lists(&o, &plat, &l)) ||
        (err = make_batch(&o, &plat, &l, &b)))
        goto cleanup;
    int traced = o.timeline || o.trace || o.paje || o.explain;
    const char *terminal;
    if (traced && b.nruns != 1)
        err = sc_error(SC_ERR_INPUT,
                       "--timeline, --trace, --paje and --explain show one run, and this "
                       "command makes %d: give one --algo, one --np and one --size",
                       b.nruns);
    else if (o.explain && o.format != SC_FORMAT_TABLE)
        err = sc_error(SC_ERR_INPUT, "--explain writes text after the table; it does not go "
                                     "with --format csv or json");
    else if (o.timeline)
        err = sc_gnuplot_terminal("--timeline", o.timeline, &terminal);
    if (err)
        goto cleanup;
    rows = calloc((size_t)b.nruns, sizeof *rows);
    if (!rows) {
        err = sc_error(SC_ERR_RUN, "out of memory");
        goto cleanup;
    }
    /* Everything is checked, and every mapping made, before the first
     * simulation starts. */
    for (int k = 0; k < b.nruns && !err; k++) {
        const plan_t *pl = &b.plans[b.runs[k].plan];
        sc_run_spec_t spec = {.plat = &plat, .algo = pl->algo, .np = pl->np,
                              .bytes = b.runs[k].bytes, .root = o.root, .op = o.op,
                              .type = o.type, .deciders = o.data.deciders,
                              .extreme = o.data.extreme};
        err = sc_run_check(&spec);
    }
    for (int i = 0; i < b.nplans && !err; i++) {
        plan_t *pl = &b.plans[i];
        layout_t *lay = &pl->layout;
        sc_graph_t graph = {0};
        if (!(err = make_layout(&plat, pl->algo, pl->np, o.root, &o.map, &graph, lay))) {
            sc_run_spec_t spec = {.plat = &plat, .algo = pl->algo, .np = pl->np, .root = o.root,
                                  .op = o.op, .type = o.type, .placement = lay->placement,
                                  .pi = lay->pi};
            /* An early-exit algorithm's messages depend on the data: no
             * fixed graph to cut (its cut and graph weight are NaN, shown
             * empty); one of the user's runs only in a simulation child (a
             * crash there is reported, not suffered). */
            if (!(pl->algo->needs & SC_DATA_DEPENDENT) && !sc_algo_is_added(pl->algo))
                err = sc_run_cut(&spec, &graph, &lay->cut, &lay->total, NULL, NULL);
            else
                lay->cut = lay->total = NAN;
        }
        sc_graph_destroy(&graph);
    }
    for (int k = 0; k < b.nruns && !err; k++) {
        const plan_t *pl = &b.plans[b.runs[k].plan];
        const layout_t *lay = &pl->layout;
        sc_run_spec_t spec = {.plat = &plat, .algo = pl->algo, .np = pl->np,
                              .bytes = b.runs[k].bytes, .root = o.root, .op = o.op,
                              .type = o.type, .placement = lay->placement, .pi = lay->pi,
                              .payload = o.payload, .deciders = o.data.deciders,
                              .extreme = o.data.extreme, .messages = traced,
                              .replay = o.replay};
        sc_report_row_t *row = &rows[nrows];
        *row = (sc_report_row_t){.platform = plat.name, .algo = pl->algo, .np = pl->np,
                                 .bytes = b.runs[k].bytes, .op = o.op, .type = o.type,
                                 .mapping = lay->name, .cut_weight = lay->cut,
                                 .graph_weight = lay->total, .partition_time_s = lay->seconds,
                                 .mpi = o.mpi ? o.mpi->name : NULL};
        if (!(err = sc_run(&spec, &row->result))) {
            nrows++;
            invalid += row->result.valid == 0;
        }
    }
    if (!err) {
        sc_provenance_t prov = {o.platform, argc, argv};
        sc_report_print(stdout, o.format, rows, nrows, &prov);
        if (traced)
            err = write_traces(&o, &plat, &b.plans[b.runs[0].plan], &rows[0], &prov);
        if (!err && invalid)
            err = sc_error(SC_ERR_RUN, "%d of %d runs gave a WRONG result (valid: no above)",
                           invalid, nrows);
    }
cleanup:
    if (err)
        sc_cli_fail(err);
    for (int i = 0; i < nrows; i++)
        sc_run_result_destroy(&rows[i].result);
    for (int i = 0; i < b.nplans; i++)
        free(b.plans[i].layout.pi);
    free(b.plans);
    free(b.runs);
    free(rows);
    lists_free(&l);
    sc_platform_destroy(&plat);
    return (int)err;
}

static int map_command(int argc, char **argv)
{
    opts_t o;
    int done;
    sc_err_t err = parse_options(argc, argv, 2, 1, &o, &done);
    if (err || done)
        return err ? sc_cli_fail(err) : 0;
    const sc_algo_t *algo;
    sc_platform_t plat = {0};
    layout_t lay = {0};
    sc_graph_t graph = {0}; /* recorded once where placement does not change it */
    int *slot_node = NULL, np;
    if ((err = find_algo(o.algo, "--algo", &algo)))
        goto cleanup;
    if (o.root_given && !sc_kind(algo->collective)->has_root) {
        const char *what = sc_collective_name(algo->collective);
        err = sc_error(SC_ERR_INPUT, "--root applies to bcast and reduce, and %s is %s %s",
                       algo->name, strchr("aeiou", what[0]) ? "an" : "a", what);
        goto cleanup;
    }
    if ((err = load_platform(o.platform, &plat)))
        goto cleanup;
    if (o.np_list ? (err = sc_parse_int(o.np_list, "--np", 1, 1 << 30, &np))
                  : (err = default_np(&plat, &np)))
        goto cleanup;
    sc_run_spec_t spec = {.plat = &plat, .algo = algo, .np = np, .root = o.root};
    o.map.kind = MAP_PARTITION;
    if ((err = sc_graph_recordable(algo)) || (err = sc_run_check(&spec)) ||
        (err = make_layout(&plat, algo, np, o.root, &o.map, &graph, &lay)))
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

sc_err_t sc_cli_check(int argc, char **argv, const sc_platform_t *plat)
{
    sc_error_clear();
    int map = argc > 1 && strcmp(argv[1], "map") == 0, done;
    opts_t o;
    lists_t l = {0};
    batch_t b = {0};
    sc_err_t err = parse_options(argc, argv, map ? 2 : 1, map, &o, &done);
    if (err || done || map)
        return err;
    /* A mapping file would be read: that is for the mapping-file fuzzer. */
    if (!(err = parse_lists(&o, plat, &l)) && o.map.kind != MAP_FILE)
        err = make_batch(&o, plat, &l, &b);
    for (int k = 0; k < b.nruns && !err; k++) {
        const plan_t *pl = &b.plans[b.runs[k].plan];
        sc_run_spec_t spec = {.plat = plat, .algo = pl->algo, .np = pl->np,
                              .bytes = b.runs[k].bytes, .root = o.root, .op = o.op,
                              .type = o.type, .payload = o.payload, .deciders = o.data.deciders,
                              .extreme = o.data.extreme, .replay = o.replay};
        err = sc_run_check(&spec);
    }
    free(b.plans);
    free(b.runs);
    lists_free(&l);
    return err;
}

int sc_cli_main(int argc, char **argv)
{
    sc_error_clear();
    int code;
    if (argc > 1 && strcmp(argv[1], "list") == 0)
        code = sc_cli_list(argc, argv);
    else if (argc > 1 && strcmp(argv[1], "platform") == 0)
        code = sc_cli_platform(argc, argv);
    else if (argc > 1 && strcmp(argv[1], "map") == 0)
        code = map_command(argc, argv);
    else if (argc > 1 && strcmp(argv[1], "calibrate") == 0)
        code = sc_cli_calibrate(argc, argv);
    else if (argc > 1 && strcmp(argv[1], "run") == 0)
        code = sc_cli_run_program(argc, argv);
    else if (argc > 1 && strcmp(argv[1], "tune") == 0)
        code = sc_cli_tune(argc, argv);
    else if (argc > 1 && strcmp(argv[1], "plot") == 0)
        code = sc_cli_plot(argc, argv);
    else if (argc > 1 && strcmp(argv[1], "sweep") == 0)
        code = sc_cli_sweep(argc, argv);
    else if (argc > 1 && strcmp(argv[1], "new-algo") == 0)
        code = sc_cli_new_algo(argc - 1, argv + 1);
    else
        code = run_command(argc, argv);
    /* Results that never reached stdout (a full disk, /dev/full) are a
     * failed run, not a success. */
    sc_err_t err = sc_stdout_finish();
    return err && !code ? sc_cli_fail(err) : code;
}
