/* The simcoll command line.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "cli.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "algorithms/mapping/mapping.h"
#include "sim/engine/engine.h"
#include "sim/io/files.h"
#include "sim/io/generate.h"
#include "sim/io/mapfile.h"
#include "sim/io/report.h"
#include "common/sc_units.h"

#define SC_VERSION "0.1.0"

static const char usage[] =
    "usage: simcoll --platform FILE (--algo NAME | --compare A,B,...) [options]\n"
    "       simcoll map --platform FILE --algo NAME [--np N] [--partitioner P]\n"
    "                   [-o PI] [--machinefile F] [--rankfile F]\n"
    "       simcoll platform --like FILE --nodes N [--cores C] [-o OUT]\n"
    "       simcoll list\n"
    "\n"
    "Simulates MPI collective algorithms on a cluster of SMP nodes (SimGrid)\n"
    "and prints the simulated time beside the cost model's prediction.\n"
    "\n"
    "  --platform FILE        a simcoll cluster in SimGrid XML (see platforms/)\n"
    "  --algo NAME            the algorithm to run (simcoll list shows all)\n"
    "  --compare A,B,...      several algorithms side by side\n"
    "  --np N[,N...]          process counts (default: every core of the platform)\n"
    "  --size S[,S...]        bytes per rank (allgather block, bcast message,\n"
    "                         reduce/allreduce vector); K, M, G are powers of\n"
    "                         1024 (default 2048)\n"
    "  --op OP                reduction: sum (default), prod, max, min, land, lor,\n"
    "                         lxor, band, bor, bxor (the last six on int only)\n"
    "  --type T               reduction element type: double (default) or int\n"
    "  --mapping M            where algorithm positions run: block, cyclic (MPI's\n"
    "                         placements), partition (the algorithm's graph cut into\n"
    "                         node-sized parts), greedy, or a file of pi; default\n"
    "                         partition for the exch/reorder variants, else block\n"
    "  --partitioner P        multilevel (default) or greedy, for --mapping partition\n"
    "  --root R               root rank of a broadcast or reduce (default 0)\n"
    "  --format table|csv|json  output format (default table)\n"
    "  --no-payload           sizes only, no data: for large runs; results are\n"
    "                         then not checked\n"
    "  --help, --version\n"
    "\n"
    "simcoll map computes pi for an algorithm and writes it (stdout or -o), and\n"
    "an MPICH machinefile and an Open MPI rankfile placing the ranks the same way.\n"
    "simcoll platform writes a cluster of N nodes (of C cores) with the links and\n"
    "protocol properties of the nodes of FILE, for what-if studies.\n";

static int fail(sc_err_t err)
{
    fprintf(stderr, "simcoll: %s\n", sc_error_message());
    return (int)err;
}

/* Splits a comma-separated list in place into *items (caller frees the
 * array) and its length *n. An empty item is bad input. */
static sc_err_t split_list(char *text, const char *what, char ***items, int *n)
{
    *n = 1;
    for (const char *p = text; *p; p++)
        *n += *p == ',';
    *items = malloc((size_t)*n * sizeof **items);
    if (!*items)
        return sc_error(SC_ERR_RUN, "out of memory");
    int i = 0;
    for (char *item = text, *next; item; item = next) {
        next = strchr(item, ',');
        if (next)
            *next++ = '\0';
        if (!*item)
            return sc_error(SC_ERR_INPUT, "%s: empty item in the comma-separated list", what);
        (*items)[i++] = item;
    }
    return SC_OK;
}

/* The option getopt_long just refused, as the user wrote it. `before` is
 * optind before the call: getopt_long moves past a word only once done
 * with it, so a letter inside a cluster like -xyz is still at args[optind]
 * while a finished word is at args[optind - 1]. */
static const char *refused_option(char **args, int before)
{
    static char text[300];
    const char *word = optind == before ? args[optind] : args[optind - 1];
    if (!word)
        word = "?";
    if (optopt && word[0] == '-' && word[1] != '-' && strlen(word) > 2)
        snprintf(text, sizeof text, "-%c' (in '%.200s')", optopt, word);
    else
        snprintf(text, sizeof text, "%.200s'", word);
    return text;
}

static sc_err_t parse_choice(const char *value, const char *option,
                             const char *const *choices, int *index)
{
    for (int i = 0; choices[i]; i++)
        if (strcmp(value, choices[i]) == 0) {
            *index = i;
            return SC_OK;
        }
    char valid[256] = "";
    for (int i = 0; choices[i]; i++) {
        strncat(valid, i ? ", " : "", sizeof valid - strlen(valid) - 1);
        strncat(valid, choices[i], sizeof valid - strlen(valid) - 1);
    }
    return sc_error(SC_ERR_INPUT, "%s: unknown value '%s'; use one of %s", option, value, valid);
}

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

static sc_err_t make_layout(const sc_platform_t *plat, const sc_algo_t *algo, int np, int root,
                            const map_choice_t *choice, layout_t *out)
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
    sc_err_t err = out->pi ? sc_run_partition(&spec, choice->partitioner, out->pi, &out->seconds)
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
    const char *out, *machinefile, *rankfile; /* map only */
} opts_t;

enum { OPT_PARTITIONER = 256, OPT_MACHINEFILE, OPT_RANKFILE, OPT_OP, OPT_TYPE };

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
        {"version", no_argument, NULL, 'V'},        {NULL, 0, NULL, 0}};
    static const struct option map_opts[] = {
        {"platform", required_argument, NULL, 'p'}, {"algo", required_argument, NULL, 'a'},
        {"np", required_argument, NULL, 'n'},       {"root", required_argument, NULL, 'r'},
        {"partitioner", required_argument, NULL, OPT_PARTITIONER},
        {"output", required_argument, NULL, 'o'},
        {"machinefile", required_argument, NULL, OPT_MACHINEFILE},
        {"rankfile", required_argument, NULL, OPT_RANKFILE},
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
        switch (c) {
        case 'p': o->platform = optarg; break;
        case 'a': o->algo = optarg; break;
        case 'c': o->compare = optarg; break;
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
                o->map.kind = MAP_PARTITION;
                o->map.partitioner = SC_PARTITIONER_GREEDY;
            } else {
                o->map.kind = MAP_FILE;
                o->map.file = optarg;
            }
            break;
        case OPT_PARTITIONER:
            if (!(err = parse_choice(optarg, "--partitioner", partitioners, &index)))
                o->map.partitioner = index ? SC_PARTITIONER_GREEDY : SC_PARTITIONER_MULTILEVEL;
            break;
        case 'r': err = sc_parse_int(optarg, "--root", 0, 1 << 30, &o->root); break;
        case OPT_OP: err = sc_op_parse(optarg, "--op", &o->op); break;
        case OPT_TYPE: err = sc_type_parse(optarg, "--type", &o->type); break;
        case 'f':
            if (!(err = parse_choice(optarg, "--format", formats, &index)))
                o->format = (sc_format_t)index;
            break;
        case 'N': o->payload = 0; break;
        case 'h': fputs(usage, stdout); *done = 1; return SC_OK;
        case 'V': printf("simcoll %s\n", SC_VERSION); *done = 1; return SC_OK;
        case ':':
            err = sc_error(SC_ERR_INPUT, "'%s needs a value (simcoll --help lists options)",
                           refused_option(args, before));
            break;
        default:
            err = sc_error(SC_ERR_INPUT, "unknown option '%s (simcoll --help lists options)",
                           refused_option(args, before));
            break;
        }
    }
    if (!err && optind < nargs)
        err = sc_error(SC_ERR_INPUT, "unexpected argument '%s' (simcoll --help lists options)",
                       args[optind]);
    if (!err && !o->platform)
        err = sc_error(SC_ERR_INPUT,
                       "--platform FILE is required, e.g. --platform platforms/ib4x.xml");
    if (!err && map && !o->algo)
        err = sc_error(SC_ERR_INPUT, "map needs --algo NAME (simcoll list shows the algorithms)");
    if (!err && !map && !o->algo == !o->compare)
        err = sc_error(SC_ERR_INPUT, "give exactly one of --algo NAME or --compare A,B,... "
                                     "(simcoll list shows the algorithms)");
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
static sc_err_t parse_lists(const opts_t *o, const sc_platform_t *plat, lists_t *l)
{
    const char *algo_option = o->algo ? "--algo" : "--compare";
    l->algo_text = strdup(o->algo ? o->algo : o->compare);
    /* 2048 bytes: the block size of the lecture's Bruck experiment. */
    l->size_text = strdup(o->size_list ? o->size_list : "2048");
    l->np_text = o->np_list ? strdup(o->np_list) : NULL;
    if (!l->algo_text || !l->size_text || (o->np_list && !l->np_text))
        return sc_error(SC_ERR_RUN, "out of memory");
    sc_err_t err;
    if ((err = split_list(l->algo_text, algo_option, &l->algo_items, &l->nalgos)) ||
        (err = split_list(l->size_text, "--size", &l->size_items, &l->nsizes)))
        return err;
    l->nnps = 1;
    if (l->np_text && (err = split_list(l->np_text, "--np", &l->np_items, &l->nnps)))
        return err;
    if (o->algo && l->nalgos > 1)
        return sc_error(SC_ERR_INPUT, "--algo takes one name; use --compare %s", o->algo);
    l->algos = malloc((size_t)l->nalgos * sizeof *l->algos);
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
    return err;
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

static int run_command(int argc, char **argv)
{
    opts_t o;
    int done;
    sc_err_t err = parse_options(argc, argv, 1, 0, &o, &done);
    if (err || done)
        return err ? fail(err) : 0;
    sc_platform_t plat = {0};
    lists_t l = {0};
    layout_t *layouts = NULL; /* by algorithm and process count */
    sc_report_row_t *rows = NULL;
    int nrows = 0, invalid = 0;
    if ((err = load_platform(o.platform, &plat)) || (err = parse_lists(&o, &plat, &l)))
        goto cleanup;
    int nlayouts = l.nalgos * l.nnps;
    layouts = calloc((size_t)nlayouts, sizeof *layouts);
    rows = calloc((size_t)nlayouts * (size_t)l.nsizes, sizeof *rows);
    if (!layouts || !rows) {
        err = sc_error(SC_ERR_RUN, "out of memory");
        goto cleanup;
    }
    /* Everything is checked, and every mapping made, before the first
     * simulation starts. */
    for (int a = 0; a < l.nalgos && !err; a++)
        for (int i = 0; i < l.nnps && !err; i++) {
            sc_run_spec_t spec = {.plat = &plat, .algo = l.algos[a], .np = l.nps[i],
                                  .root = o.root, .op = o.op, .type = o.type};
            for (int s = 0; s < l.nsizes && !err; s++) {
                spec.bytes = l.sizes[s];
                err = sc_run_check(&spec);
            }
            layout_t *lay = &layouts[a * l.nnps + i];
            if (!err)
                err = make_layout(&plat, l.algos[a], l.nps[i], o.root, &o.map, lay);
            if (!err) {
                spec.placement = lay->placement;
                spec.pi = lay->pi;
                err = sc_run_cut(&spec, &lay->cut, &lay->total);
            }
        }
    for (int a = 0; a < l.nalgos && !err; a++)
        for (int i = 0; i < l.nnps && !err; i++)
            for (int s = 0; s < l.nsizes && !err; s++) {
                const layout_t *lay = &layouts[a * l.nnps + i];
                sc_run_spec_t spec = {.plat = &plat, .algo = l.algos[a], .np = l.nps[i],
                                      .bytes = l.sizes[s], .root = o.root, .op = o.op,
                                      .type = o.type, .placement = lay->placement,
                                      .pi = lay->pi, .payload = o.payload};
                sc_report_row_t *row = &rows[nrows];
                *row = (sc_report_row_t){.platform = plat.name, .algo = l.algos[a],
                                         .np = l.nps[i], .bytes = l.sizes[s], .op = o.op,
                                         .type = o.type,
                                         .mapping = lay->name, .cut_weight = lay->cut,
                                         .graph_weight = lay->total,
                                         .partition_time_s = lay->seconds};
                if (!(err = sc_run(&spec, &row->result))) {
                    nrows++;
                    invalid += row->result.valid == 0;
                }
            }
    if (!err) {
        sc_report_print(stdout, o.format, rows, nrows);
        if (invalid)
            err = sc_error(SC_ERR_RUN, "%d of %d runs gave a WRONG result (valid: no above)",
                           invalid, nrows);
    }
cleanup:
    if (err)
        fail(err);
    for (int i = 0; i < nrows; i++)
        sc_run_result_destroy(&rows[i].result);
    for (int i = 0; layouts && i < l.nalgos * l.nnps; i++)
        free(layouts[i].pi);
    free(layouts);
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
    if (err)
        return fail(err);
    const sc_algo_t *algo;
    sc_platform_t plat = {0};
    layout_t lay = {0};
    int *slot_node = NULL, np;
    if ((err = find_algo(o.algo, "--algo", &algo)) || (err = load_platform(o.platform, &plat)))
        goto cleanup;
    if (o.np_list ? (err = sc_parse_int(o.np_list, "--np", 1, 1 << 30, &np))
                  : (err = default_np(&plat, &np)))
        goto cleanup;
    sc_run_spec_t spec = {.plat = &plat, .algo = algo, .np = np, .root = o.root};
    o.map.kind = MAP_PARTITION;
    if ((err = sc_run_check(&spec)) ||
        (err = make_layout(&plat, algo, np, o.root, &o.map, &lay)))
        goto cleanup;
    /* How good is it, next to MPI's placements? */
    double cut = 0, total = 0, block = 0, cyclic = 0;
    spec.pi = lay.pi;
    if ((err = sc_run_cut(&spec, &cut, &total)))
        goto cleanup;
    spec.pi = NULL;
    if ((err = sc_run_cut(&spec, &block, &total)))
        goto cleanup;
    spec.placement = SC_PLACE_CYCLIC;
    if ((err = sc_run_cut(&spec, &cyclic, &total)))
        goto cleanup;
    char header[512];
    snprintf(header, sizeof header,
             "simcoll map --algo %s --np %d on %s (%s, %d nodes), partitioner %s\n"
             "cut weight %.0f of %.0f (block placement %.0f, cyclic %.0f); %.3g s to partition",
             algo->name, np, o.platform, plat.name, plat.nnodes,
             sc_partitioner_name(o.map.partitioner), cut, total, block, cyclic, lay.seconds);
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
    if (!err)
        fprintf(stderr, "simcoll: %s\n", strchr(header, '\n') + 1);
cleanup:
    free(slot_node);
    free(lay.pi);
    sc_platform_destroy(&plat);
    return err ? fail(err) : 0;
}

static int list_command(int argc, char **argv)
{
    (void)argv;
    if (argc > 2) {
        fprintf(stderr, "simcoll: list takes no arguments\n");
        return SC_ERR_INPUT;
    }
    int width = 4;
    for (const sc_algo_t *a = sc_algos; a->name; a++)
        if ((int)strlen(a->name) > width)
            width = (int)strlen(a->name);
    printf("%-*s  %-10s %-6s %s\n", width, "name", "collective", "needs", "description");
    for (const sc_algo_t *a = sc_algos; a->name; a++)
        printf("%-*s  %-10s %-6s %s\n", width, a->name, sc_collective_name(a->collective),
               a->needs & SC_NEEDS_POW2 ? "pow2" : a->needs & SC_USES_MAPPING ? "pi" : "-",
               a->doc);
    return 0;
}

static int platform_command(int argc, char **argv)
{
    static const struct option longopts[] = {{"like", required_argument, NULL, 'l'},
                                             {"nodes", required_argument, NULL, 'n'},
                                             {"cores", required_argument, NULL, 'c'},
                                             {"output", required_argument, NULL, 'o'},
                                             {NULL, 0, NULL, 0}};
    const char *like = NULL, *out = NULL;
    int nodes = 0, cores = 0, c;
    sc_err_t err = SC_OK;
    opterr = 0;
    optind = 0;
    for (int before = 1;
         !err && (c = getopt_long(argc - 1, argv + 1, ":o:", longopts, NULL)) != -1;
         before = optind) {
        switch (c) {
        case 'l': like = optarg; break;
        case 'n': err = sc_parse_int(optarg, "--nodes", 1, 1 << 20, &nodes); break;
        case 'c': err = sc_parse_int(optarg, "--cores", 1, 1 << 16, &cores); break;
        case 'o': out = optarg; break;
        case ':':
            err = sc_error(SC_ERR_INPUT, "'%s needs a value", refused_option(argv + 1, before));
            break;
        default:
            err = sc_error(SC_ERR_INPUT,
                           "platform: unknown option '%s; use --like, --nodes, --cores, -o",
                           refused_option(argv + 1, before));
            break;
        }
    }
    if (!err && optind + 1 < argc)
        err = sc_error(SC_ERR_INPUT, "platform: unexpected argument '%s'", argv[optind + 1]);
    if (!err && (!like || !nodes))
        err = sc_error(SC_ERR_INPUT, "platform needs --like FILE and --nodes N, e.g. "
                                     "simcoll platform --like platforms/ib4x.xml --nodes 128");
    if (!err)
        err = sc_generate_platform(like, nodes, cores, out);
    return err ? fail(err) : 0;
}

sc_err_t sc_cli_check(int argc, char **argv, const sc_platform_t *plat)
{
    sc_error_clear();
    int map = argc > 1 && strcmp(argv[1], "map") == 0, done;
    opts_t o;
    lists_t l = {0};
    sc_err_t err = parse_options(argc, argv, map ? 2 : 1, map, &o, &done);
    if (err || done || map)
        return err;
    err = parse_lists(&o, plat, &l);
    for (int a = 0; a < l.nalgos && !err; a++)
        for (int i = 0; i < l.nnps && !err; i++)
            for (int s = 0; s < l.nsizes && !err; s++) {
                sc_run_spec_t spec = {.plat = plat, .algo = l.algos[a], .np = l.nps[i],
                                      .bytes = l.sizes[s], .root = o.root, .op = o.op,
                                      .type = o.type, .payload = o.payload};
                err = sc_run_check(&spec);
            }
    lists_free(&l);
    return err;
}

int sc_cli_main(int argc, char **argv)
{
    sc_error_clear();
    int code;
    if (argc > 1 && strcmp(argv[1], "list") == 0)
        code = list_command(argc, argv);
    else if (argc > 1 && strcmp(argv[1], "platform") == 0)
        code = platform_command(argc, argv);
    else if (argc > 1 && strcmp(argv[1], "map") == 0)
        code = map_command(argc, argv);
    else
        code = run_command(argc, argv);
    /* Results that never reached stdout (a full disk, /dev/full) are a
     * failed run, not a success. */
    sc_err_t err = sc_stdout_finish();
    return err && !code ? fail(err) : code;
}
