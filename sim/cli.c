/* The simcoll command line.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "cli.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "generate.h"
#include "report.h"
#include "units.h"

#define SC_VERSION "0.1.0"

static const char usage[] =
    "usage: simcoll --platform FILE (--algo NAME | --compare A,B,...) [options]\n"
    "       simcoll list\n"
    "       simcoll platform --like FILE --nodes N [--cores C] [-o OUT]\n"
    "\n"
    "Simulates MPI collective algorithms on a cluster of SMP nodes (SimGrid)\n"
    "and prints the simulated time beside the cost model's prediction.\n"
    "\n"
    "  --platform FILE        a simcoll cluster in SimGrid XML (see platforms/)\n"
    "  --algo NAME            the algorithm to run (simcoll list shows all)\n"
    "  --compare A,B,...      several algorithms side by side\n"
    "  --np N[,N...]          process counts (default: every core of the platform)\n"
    "  --size S[,S...]        bytes per rank (allgather block, bcast message);\n"
    "                         K, M, G are powers of 1024 (default 2048)\n"
    "  --mapping block|cyclic placement of ranks on cores (default block)\n"
    "  --root R               root rank of a broadcast (default 0)\n"
    "  --format table|csv|json  output format (default table)\n"
    "  --no-payload           sizes only, no data: for large runs; results are\n"
    "                         then not checked\n"
    "  --help, --version\n"
    "\n"
    "simcoll platform writes a cluster of N nodes (of C cores) with the links and\n"
    "protocol properties of the nodes of FILE, for what-if studies.\n";

typedef struct {
    const char *platform;
    const char *algo;
    const char *compare;
    const char *np_list;
    const char *size_list;
    sc_placement_t placement;
    const char *mapping;
    int root;
    sc_format_t format;
    int payload;
} run_opts_t;

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

static sc_err_t parse_run_options(int argc, char **argv, run_opts_t *o, int *done)
{
    static const struct option longopts[] = {
        {"platform", required_argument, NULL, 'p'}, {"algo", required_argument, NULL, 'a'},
        {"compare", required_argument, NULL, 'c'},  {"np", required_argument, NULL, 'n'},
        {"size", required_argument, NULL, 's'},     {"mapping", required_argument, NULL, 'm'},
        {"root", required_argument, NULL, 'r'},     {"format", required_argument, NULL, 'f'},
        {"no-payload", no_argument, NULL, 'N'},     {"help", no_argument, NULL, 'h'},
        {"version", no_argument, NULL, 'V'},        {NULL, 0, NULL, 0}};
    static const char *const formats[] = {"table", "csv", "json", NULL};
    static const char *const mappings[] = {"block", "cyclic", NULL};
    *o = (run_opts_t){.placement = SC_PLACE_BLOCK, .mapping = "block",
                      .format = SC_FORMAT_TABLE, .payload = 1};
    *done = 0;
    opterr = 0;
    optind = 0; /* GNU: restart parsing (sc_cli_main may run more than once) */
    int c, index;
    sc_err_t err = SC_OK;
    while (!err && (c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
        switch (c) {
        case 'p': o->platform = optarg; break;
        case 'a': o->algo = optarg; break;
        case 'c': o->compare = optarg; break;
        case 'n': o->np_list = optarg; break;
        case 's': o->size_list = optarg; break;
        case 'm':
            if (!(err = parse_choice(optarg, "--mapping", mappings, &index))) {
                o->placement = index == 1 ? SC_PLACE_CYCLIC : SC_PLACE_BLOCK;
                o->mapping = mappings[index];
            }
            break;
        case 'r': err = sc_parse_int(optarg, "--root", 0, 1 << 30, &o->root); break;
        case 'f':
            if (!(err = parse_choice(optarg, "--format", formats, &index)))
                o->format = (sc_format_t)index;
            break;
        case 'N': o->payload = 0; break;
        case 'h': fputs(usage, stdout); *done = 1; return SC_OK;
        case 'V': printf("simcoll %s\n", SC_VERSION); *done = 1; return SC_OK;
        case ':':
            err = sc_error(SC_ERR_INPUT, "%s needs a value (simcoll --help lists options)",
                           argv[optind - 1]);
            break;
        default:
            err = sc_error(SC_ERR_INPUT, "unknown option '%s' (simcoll --help lists options)",
                           argv[optind - 1]);
            break;
        }
    }
    if (!err && optind < argc)
        err = sc_error(SC_ERR_INPUT, "unexpected argument '%s' (simcoll --help lists options)",
                       argv[optind]);
    if (!err && !o->platform)
        err = sc_error(SC_ERR_INPUT,
                       "--platform FILE is required, e.g. --platform platforms/ib4x.xml");
    if (!err && !o->algo == !o->compare)
        err = sc_error(SC_ERR_INPUT, "give exactly one of --algo NAME or --compare A,B,... "
                                     "(simcoll list shows the algorithms)");
    return err;
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

static int run_command(int argc, char **argv)
{
    run_opts_t o;
    int done;
    sc_err_t err = parse_run_options(argc, argv, &o, &done);
    if (err || done)
        return err ? fail(err) : 0;

    char *algo_text = strdup(o.algo ? o.algo : o.compare);
    char *np_text = o.np_list ? strdup(o.np_list) : NULL;
    /* 2048 bytes: the block size of the lecture's Bruck experiment. */
    char *size_text = strdup(o.size_list ? o.size_list : "2048");
    char **algo_items = NULL, **np_items = NULL, **size_items = NULL;
    const sc_algo_t **algos = NULL;
    int *nps = NULL;
    size_t *sizes = NULL;
    sc_report_row_t *rows = NULL;
    int nrows = 0, nalgos = 0, nnps = 0, nsizes = 0;
    sc_platform_t plat = {0};
    if (!algo_text || !size_text || (o.np_list && !np_text)) {
        err = sc_error(SC_ERR_RUN, "out of memory");
        goto cleanup;
    }

    /* Everything is checked before the first simulation starts. */
    const char *algo_option = o.algo ? "--algo" : "--compare";
    if ((err = split_list(algo_text, algo_option, &algo_items, &nalgos)) ||
        (err = split_list(size_text, "--size", &size_items, &nsizes)))
        goto cleanup;
    if (o.algo && nalgos > 1) {
        err = sc_error(SC_ERR_INPUT, "--algo takes one name; use --compare %s", o.algo);
        goto cleanup;
    }
    algos = malloc((size_t)nalgos * sizeof *algos);
    sizes = malloc((size_t)nsizes * sizeof *sizes);
    if (!algos || !sizes) {
        err = sc_error(SC_ERR_RUN, "out of memory");
        goto cleanup;
    }
    for (int i = 0; i < nalgos && !err; i++)
        err = find_algo(algo_items[i], algo_option, &algos[i]);
    for (int i = 0; i < nsizes && !err; i++)
        err = sc_parse_size(size_items[i], "--size", &sizes[i]);
    if (err || (err = sc_platform_load(o.platform, &plat)))
        goto cleanup;
    if (!plat.uniform)
        fprintf(stderr, "simcoll: note: platform '%s' is not uniform (its nodes' memory buses "
                        "or network routes differ), so the cost model is not applied\n",
                o.platform);
    nnps = 1;
    if (np_text && (err = split_list(np_text, "--np", &np_items, &nnps)))
        goto cleanup;
    nps = malloc((size_t)nnps * sizeof *nps);
    rows = calloc((size_t)(nalgos * nnps * nsizes), sizeof *rows);
    if (!nps || !rows) {
        err = sc_error(SC_ERR_RUN, "out of memory");
        goto cleanup;
    }
    for (int i = 0; i < nnps && !err; i++) {
        if (!np_items)
            nps[i] = plat.total_cores;
        else
            err = sc_parse_int(np_items[i], "--np", 1, 1 << 30, &nps[i]);
    }
    for (int a = 0; a < nalgos && !err; a++)
        for (int i = 0; i < nnps && !err; i++) {
            sc_run_spec_t spec = {.plat = &plat, .algo = algos[a], .np = nps[i],
                                  .root = o.root, .placement = o.placement};
            err = sc_run_check(&spec);
        }
    if (err)
        goto cleanup;

    int invalid = 0;
    for (int a = 0; a < nalgos; a++)
        for (int i = 0; i < nnps; i++)
            for (int s = 0; s < nsizes; s++) {
                sc_run_spec_t spec = {.plat = &plat, .algo = algos[a], .np = nps[i],
                                      .bytes = sizes[s], .root = o.root,
                                      .placement = o.placement, .payload = o.payload};
                sc_report_row_t *row = &rows[nrows];
                *row = (sc_report_row_t){.platform = plat.name, .algo = algos[a],
                                         .np = nps[i], .bytes = sizes[s],
                                         .mapping = o.mapping};
                if ((err = sc_run(&spec, &row->result)))
                    goto cleanup;
                nrows++;
                invalid += row->result.valid == 0;
            }
    sc_report_print(stdout, o.format, rows, nrows);
    if (invalid)
        err = sc_error(SC_ERR_RUN, "%d of %d runs gave a WRONG result (valid: no above)",
                       invalid, nrows);

cleanup:
    if (err)
        fail(err);
    for (int i = 0; i < nrows; i++)
        sc_run_result_destroy(&rows[i].result);
    free(rows);
    free(nps);
    free(sizes);
    free(algos);
    free(algo_items);
    free(np_items);
    free(size_items);
    free(algo_text);
    free(np_text);
    free(size_text);
    sc_platform_destroy(&plat);
    return (int)err;
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
               a->needs & SC_NEEDS_POW2 ? "pow2" : "-", a->doc);
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
    while (!err && (c = getopt_long(argc - 1, argv + 1, ":o:", longopts, NULL)) != -1) {
        switch (c) {
        case 'l': like = optarg; break;
        case 'n': err = sc_parse_int(optarg, "--nodes", 1, 1 << 20, &nodes); break;
        case 'c': err = sc_parse_int(optarg, "--cores", 1, 1 << 16, &cores); break;
        case 'o': out = optarg; break;
        case ':':
            err = sc_error(SC_ERR_INPUT, "%s needs a value", argv[optind]);
            break;
        default:
            err = sc_error(SC_ERR_INPUT,
                           "platform: unknown option '%s'; use --like, --nodes, --cores, -o",
                           argv[optind]);
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

int sc_cli_main(int argc, char **argv)
{
    sc_error_clear();
    if (argc > 1 && strcmp(argv[1], "list") == 0)
        return list_command(argc, argv);
    if (argc > 1 && strcmp(argv[1], "platform") == 0)
        return platform_command(argc, argv);
    return run_command(argc, argv);
}
