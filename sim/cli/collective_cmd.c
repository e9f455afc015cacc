/* The collective run: algorithms at process counts and sizes on a
 * platform, side by side, against the cost model.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "collective_cmd.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "algorithms/kinds.h"
#include "algorithms/mapping/mapping.h"
#include "cli.h"
#include "commands.h"
#include "common/sc_units.h"
#include "sim/analysis/explain.h"
#include "map_cmd.h"
#include "gnuplot.h"
#include "run_setup.h"
#include "sim/analysis/sensitivity.h"
#include "trace.h"

/* --help after the usage lines of every command (sc_cli_usage): what
 * simcoll does and the options of a collective run. */
static const char usage[] =
    "\n"
    "Simulates MPI collective algorithms on a cluster of SMP nodes (SimGrid)\n"
    "and prints the simulated time beside the cost model's prediction.\n"
    "\n"
    "  --platform FILE        a simcoll cluster in SimGrid XML (see platforms/)\n"
    "  --algo NAME            the algorithm to run (simcoll list shows all)\n"
    "  --compare A,B,...      several algorithms side by side\n"
    "  --coll NAME --mpi P    the algorithm MPI library profile P runs for collective\n"
    "                         NAME (allgather, bcast, barrier, reduce, allreduce,\n"
    "                         scatter) at each size and process count (simcoll\n"
    "                         list --mpi)\n"
    "  --np N[,N...]          process counts (default: every core of the platform)\n"
    "  --size S[,S...]        bytes per rank (allgather or scatter block, bcast\n"
    "                         message, reduce/allreduce vector); K, M, G are\n"
    "                         powers of 1024 (default 2048)\n"
    "  --op OP                reduction: sum (default), prod, max, min, land, lor,\n"
    "                         lxor, band, bor, bxor (the last six on int only)\n"
    "  --type T               reduction element type: double (default) or int\n" SC_CLI_DATA_HELP
    "  --mapping M            where algorithm positions run: block, cyclic (MPI's\n"
    "                         placements), partition (the algorithm's graph cut into\n"
    "                         node-sized parts), greedy, or a file of pi; default\n"
    "                         partition for the exch/reorder variants, else block\n"
    "  --partitioner P        multilevel (default), greedy, or scotch or metis where\n"
    "                         built with them, for --mapping partition\n"
    "  --root R               root rank of a broadcast, reduce or scatter (default 0)\n"
    "  --format table|csv|json  output format (default table)\n"
    "  --no-payload           sizes only, no data: for large runs; results are\n"
    "                         then not checked\n"
    "  --replay[=nodes|maestro|live]  with --no-payload: record the algorithm's\n"
    "                         schedule and play it with one actor per node (nodes,\n"
    "                         the default) instead of one per rank: the same\n"
    "                         protocol in a third of the memory; maestro plays it\n"
    "                         with no actor at all, from SimGrid's callbacks and\n"
    "                         timers (the same times, faster; needs SimGrid 4.1);\n"
    "                         live runs each rank's code on its actor, data\n"
    "                         included, its calls played as maestro plays them\n"
    "                         (sends, receives and waits for all only)\n";

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
    "  --sensitivity          after the table, how much the time depends on each\n"
    "                         platform parameter: the run again with each 1% above\n"
    "                         and below, its elasticity, and what measures it\n"
    "  --help, --version\n"
    "\n"
    "simcoll map computes pi for an algorithm and writes it (stdout or -o), and\n"
    "an MPICH machinefile and an Open MPI rankfile placing the ranks the same way.\n"
    "simcoll platform writes a cluster of N nodes (of C cores) with the links and\n"
    "protocol properties of the nodes of FILE, for what-if studies: on one switch,\n"
    "in racks or in one of SimGrid's topologies.\n";

static void print_usage(void)
{
    sc_cli_usage(stdout);
    fputs(usage, stdout);
    fputs(usage_traces, stdout);
}

static const int collective_accepts[] = {
    SC_OPT_PLATFORM, SC_OPT_ALGO,     SC_OPT_COMPARE,  SC_OPT_NP,       SC_OPT_SIZE,
    SC_OPT_MAPPING,  SC_OPT_PARTITIONER, SC_OPT_ROOT,  SC_OPT_FORMAT,   SC_OPT_OP,
    SC_OPT_TYPE,     SC_OPT_NO_PAYLOAD, SC_OPT_HELP,   SC_OPT_COLL,     SC_OPT_MPI,
    SC_OPT_VERSION,  SC_OPT_DATA,     SC_OPT_TIMELINE, SC_OPT_TRACE,    SC_OPT_PAJE,
    SC_OPT_EXPLAIN,  SC_OPT_LOAD,     SC_OPT_REPLAY,   SC_OPT_SENSITIVITY, 0};

static const sc_run_syntax_t collective_syntax = {
    .name = NULL,
    .shortopts = ":h",
    .options = collective_accepts,
    .refuses_option_values = 1,
    .help = print_usage,
};

/* Reads and checks the options, before any file is read; sets *done
 * after --help or --version. */
static sc_err_t collective_options(int argc, char **argv, sc_run_opts_t *o, int *done)
{
    sc_err_t err = sc_run_opts_parse(&collective_syntax, argc, argv, o, done);
    if (err || *done || (err = sc_run_opts_need_platform(o)))
        return err;
    if (!o->coll != !o->mpi)
        return sc_error(SC_ERR_INPUT, "--coll NAME and --mpi PROFILE go together: the "
                                      "collective, and the library whose choice of algorithm "
                                      "runs");
    if ((!!o->algo + !!o->compare + !!o->coll) != 1)
        return sc_error(SC_ERR_INPUT, "give exactly one of --algo NAME, --compare A,B,... or "
                                      "--coll NAME --mpi PROFILE (simcoll list shows the "
                                      "algorithms, simcoll list --mpi the profiles)");
    if (o->partitioner_given && o->map.kind != SC_MAP_PARTITION &&
        o->map.kind != SC_MAP_DEFAULT) /* by default the algorithms on a mapping partition */
        return sc_error(SC_ERR_INPUT, "--partitioner applies to --mapping partition; leave it "
                                      "out or give --mapping partition");
    if (o->partitioner_given && o->mapping_greedy)
        return sc_error(SC_ERR_INPUT, "--mapping greedy is --mapping partition --partitioner "
                                      "greedy; give --mapping partition with --partitioner");
    if (o->mpi && o->map.kind == SC_MAP_PARTITION)
        return sc_error(SC_ERR_INPUT, "--mapping partition or greedy partitions one algorithm's "
                                      "graph; with --mpi the algorithm depends on the size, so "
                                      "use block, cyclic or a mapping file");
    return sc_run_opts_files_distinct(o, o->map.file);
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

/* --root, --op, --type and --size are refused when no collective run has a
 * root, reduces or has data: silently ignored, they would let a user think
 * they mattered. */
static sc_err_t check_applies(const sc_run_opts_t *o, const lists_t *l)
{
    int rooted = 0, reduces = 0, data = 0;
    for (int i = 0; i < l->nalgos; i++) {
        rooted |= sc_kind(l->algos[i]->collective)->has_root;
        reduces |= sc_kind(l->algos[i]->collective)->is_reduction;
        data |= sc_kind(l->algos[i]->collective)->has_data;
    }
    if (o->coll) {
        rooted = sc_kind_find(o->coll)->has_root;
        reduces = sc_kind_find(o->coll)->is_reduction;
        data = sc_kind_find(o->coll)->has_data;
    }
    const char *option = o->root_given && !rooted ? "--root"
                         : o->op_given && !reduces ? "--op"
                         : o->type_given && !reduces ? "--type"
                         : o->size_list && !data ? "--size"
                                                      : NULL;
    if (!option)
        return SC_OK;
    const char *applies = !strcmp(option, "--root") ? "bcast, reduce and scatter"
                          : !strcmp(option, "--size")
                              ? "allgather, bcast, reduce, allreduce and scatter"
                              : "reduce and allreduce";
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

/* Parses the lists; process counts default to every core of plat. */
static sc_err_t parse_lists(const sc_run_opts_t *o, const sc_platform_t *plat, lists_t *l)
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
        err = sc_cli_find_algo(l->algo_items[i], algo_option, &l->algos[i]);
    for (int i = 0; i < l->nsizes && !err; i++)
        err = sc_parse_size(l->size_items[i], "--size", &l->sizes[i]);
    for (int i = 0; i < l->nnps && !err; i++) {
        if (!l->np_items)
            err = sc_cli_default_np(plat, &l->nps[i]);
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

/* Where the ranks of a layout run, by rank, for a profile's choice. */
static sc_err_t rank_nodes(const sc_platform_t *plat, int np, const sc_layout_t *lay, int *node_of)
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
    sc_layout_t layout;
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
static sc_err_t make_batch(const sc_run_opts_t *o, const sc_platform_t *plat, const lists_t *l,
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
        sc_layout_t place = {0};
        if (!node_of)
            err = sc_error(SC_ERR_RUN, "out of memory");
        /* MPI's placement (block, cyclic or a mapping file), as the library
         * sees it; no algorithm is needed to make it. */
        if (!err && !(err = sc_run_check(&(sc_run_spec_t){.plat = plat,
                                                          .algo = sc_algo_find("barrier"),
                                                          .np = np})) &&
            !(err = sc_cli_make_layout(plat, sc_algo_find("barrier"), np, 0, &o->map, NULL,
                                       &place)))
            err = rank_nodes(plat, np, &place, node_of);
        int has_data = sc_kind((sc_collective_t)coll)->has_data;
        for (int s = 0; s < (has_data ? l->nsizes : 1) && !err; s++) {
            sc_call_t call = {(sc_collective_t)coll, has_data ? l->sizes[s] : 0, np, node_of,
                              o->type};
            const sc_algo_t *algo = sc_profile_choose(o->mpi, &call);
            if (!algo) {
                err = sc_profile_no_rule(o->mpi, coll);
                break;
            }
            int plan = plan_of(b, algo, np);
            b->runs[b->nruns++] = (struct run){plan, has_data ? l->sizes[s] : 0};
        }
        free(place.pi);
        free(node_of);
    }
    return err;
}

/* --timeline, --trace, --paje: the messages of the command's one run. */
static sc_err_t write_traces(const sc_run_opts_t *o, const sc_platform_t *plat, const plan_t *pl,
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
        e.reduction = sc_algo_is_reduction(pl->algo);
        sc_explain_print(stdout, title, plat, pl->np, &row->result, &e);
        sc_explain_destroy(&e);
    }
    return err;
}

/* What every run of the batch shares, for sc_run_check and sc_run. */
static sc_run_spec_t batch_spec(const sc_run_opts_t *o, const sc_platform_t *plat,
                                const plan_t *pl, size_t bytes)
{
    return (sc_run_spec_t){.plat = plat, .algo = pl->algo, .np = pl->np, .bytes = bytes,
                           .root = o->root, .op = o->op, .type = o->type,
                           .deciders = o->data.deciders, .extreme = o->data.extreme};
}

/* --timeline, --trace, --paje, --explain and --sensitivity show one run,
 * which the batch must be. */
static sc_err_t check_shown(const sc_run_opts_t *o, const batch_t *b, int traced)
{
    const char *terminal;
    if ((traced || o->sensitivity) && b->nruns != 1)
        return sc_error(SC_ERR_INPUT,
                        "--timeline, --trace, --paje, --explain and --sensitivity show one run, "
                        "and this command makes %d: give one --algo, one --np and one --size",
                        b->nruns);
    if ((o->explain || o->sensitivity) && o->format != SC_FORMAT_TABLE)
        return sc_error(SC_ERR_INPUT, "--%s writes text after the table; it does not go with "
                                      "--format csv or json",
                        o->explain ? "explain" : "sensitivity");
    if (o->timeline)
        return sc_gnuplot_terminal("--timeline", o->timeline, &terminal);
    return SC_OK;
}

/* The layout of every plan, with the cut of its algorithm's graph. */
static sc_err_t make_layouts(const sc_run_opts_t *o, const sc_platform_t *plat, batch_t *b)
{
    sc_err_t err = SC_OK;
    for (int i = 0; i < b->nplans && !err; i++) {
        plan_t *pl = &b->plans[i];
        sc_layout_t *lay = &pl->layout;
        sc_graph_t graph = {0};
        if (!(err = sc_cli_make_layout(plat, pl->algo, pl->np, o->root, &o->map, &graph, lay))) {
            sc_run_spec_t spec = {.plat = plat, .algo = pl->algo, .np = pl->np, .root = o->root,
                                  .op = o->op, .type = o->type, .placement = lay->placement,
                                  .pi = lay->pi};
            /* An early-exit algorithm's messages depend on the data: no
             * fixed graph to cut (its cut and graph weight are NaN, shown
             * empty); one of the user's runs only in a simulation child (a
             * crash there is reported, not suffered). */
            if (!(pl->algo->needs & SC_DATA_DEPENDENT) && !sc_algo_is_added(pl->algo))
                /* the partition's graph if it made one, else counted as
                 * recorded: a million ranks' graph takes gigabytes */
                err = sc_run_cut(&spec, graph.size ? &graph : NULL, &lay->cut, &lay->total, NULL,
                                 NULL);
            else
                lay->cut = lay->total = NAN;
        }
        sc_graph_destroy(&graph);
    }
    return err;
}

/* Run k of the batch as it simulates, its layout made. */
static sc_run_spec_t run_spec(const sc_run_opts_t *o, const sc_platform_t *plat, const batch_t *b,
                              int k)
{
    const plan_t *pl = &b->plans[b->runs[k].plan];
    sc_run_spec_t spec = batch_spec(o, plat, pl, b->runs[k].bytes);
    spec.placement = pl->layout.placement;
    spec.pi = pl->layout.pi;
    spec.payload = o->payload;
    spec.replay = o->replay;
    return spec;
}

/* Simulates every run of the batch into rows[*nrows...], counting those
 * whose result was wrong in *invalid. */
static sc_err_t run_batch(const sc_run_opts_t *o, const sc_platform_t *plat, const batch_t *b,
                          int traced, sc_report_row_t *rows, int *nrows, int *invalid)
{
    sc_err_t err = SC_OK;
    for (int k = 0; k < b->nruns && !err; k++) {
        const plan_t *pl = &b->plans[b->runs[k].plan];
        const sc_layout_t *lay = &pl->layout;
        sc_run_spec_t spec = run_spec(o, plat, b, k);
        spec.messages = traced;
        sc_report_row_t *row = &rows[*nrows];
        *row = (sc_report_row_t){.platform = plat->name, .algo = pl->algo, .np = pl->np,
                                 .bytes = b->runs[k].bytes, .op = o->op, .type = o->type,
                                 .mapping = lay->name, .cut_weight = lay->cut,
                                 .graph_weight = lay->total, .partition_wall_time_s = lay->seconds,
                                 .mpi = o->mpi ? o->mpi->name : NULL};
        if (!(err = sc_run(&spec, &row->result))) {
            (*nrows)++;
            *invalid += row->result.valid == 0;
        }
    }
    return err;
}

static int slower_first(const void *a, const void *b, void *rows)
{
    const sc_report_row_t *r = rows;
    double x = r[*(const int *)a].result.sim_time_s, y = r[*(const int *)b].result.sim_time_s;
    return x < y ? 1 : x > y ? -1 : *(const int *)a - *(const int *)b;
}

/* On stderr, for each run from the slowest: the assumed parameters of the
 * platform that move its time by more than 10% (sc_assumed_check). */
static sc_err_t note_assumed(const sc_run_opts_t *o, const sc_platform_t *plat, const batch_t *b,
                             sc_report_row_t *rows, int nrows)
{
    if (!plat->nsources || nrows == 0)
        return SC_OK;
    int *order = malloc((size_t)nrows * sizeof *order);
    if (!order)
        return sc_error(SC_ERR_RUN, "out of memory");
    for (int k = 0; k < nrows; k++)
        order[k] = k;
    qsort_r(order, (size_t)nrows, sizeof *order, slower_first, rows);
    sc_assumed_budget_t budget = {0};
    sc_err_t err = SC_OK;
    for (int i = 0; i < nrows && !err; i++) {
        int k = order[i];
        sc_run_spec_t spec = run_spec(o, plat, b, k);
        char what[160], size[32];
        sc_format_bytes((double)rows[k].bytes, size, sizeof size);
        snprintf(what, sizeof what, "%s np %d, %s", rows[k].algo->name, rows[k].np, size);
        sc_assumed_run_t run = sc_assumed_run_of(o->platform, &spec, &rows[k].result);
        err = sc_assumed_check(stderr, &run, nrows > 1 ? what : NULL, &budget);
    }
    if (!err)
        sc_assumed_print_unchecked(stderr, &budget);
    free(order);
    return err;
}

int sc_cli_collective(int argc, char **argv)
{
    sc_run_opts_t o;
    int done;
    sc_err_t err = collective_options(argc, argv, &o, &done);
    if (err || done)
        return err ? sc_cli_fail(err) : 0;
    sc_platform_t plat = {0};
    lists_t l = {0};
    batch_t b = {0};
    sc_report_row_t *rows = NULL;
    int nrows = 0, invalid = 0;
    int traced = o.timeline || o.trace || o.paje || o.explain;
    err = sc_cli_load_all(o.loads, o.nloads);
    if (err || (err = sc_cli_load_platform(o.platform, &plat)) ||
        (err = parse_lists(&o, &plat, &l)) || (err = make_batch(&o, &plat, &l, &b)) ||
        (err = check_shown(&o, &b, traced)))
        goto cleanup;
    rows = calloc((size_t)b.nruns, sizeof *rows);
    if (!rows) {
        err = sc_error(SC_ERR_RUN, "out of memory");
        goto cleanup;
    }
    /* Everything is checked, and every mapping made, before the first
     * simulation starts. */
    for (int k = 0; k < b.nruns && !err; k++) {
        sc_run_spec_t spec = batch_spec(&o, &plat, &b.plans[b.runs[k].plan], b.runs[k].bytes);
        err = sc_run_check(&spec);
    }
    if (err || (err = make_layouts(&o, &plat, &b)) ||
        (err = run_batch(&o, &plat, &b, traced, rows, &nrows, &invalid)))
        goto cleanup;
    sc_provenance_t prov = {o.platform, argc, argv};
    sc_report_print(stdout, o.format, rows, nrows, &prov);
    if (traced)
        err = write_traces(&o, &plat, &b.plans[b.runs[0].plan], &rows[0], &prov);
    if (!err && o.sensitivity) {
        sc_run_spec_t spec = run_spec(&o, &plat, &b, 0);
        putchar('\n');
        err = sc_sensitivity_print(stdout, o.platform, &spec, &rows[0].result);
    }
    /* Ranged parameters: after a table, or on stderr beside CSV and JSON. */
    for (int k = 0; k < nrows && !err && plat.nranges; k++) {
        sc_run_spec_t spec = run_spec(&o, &plat, &b, k);
        if (k == 0 && o.format == SC_FORMAT_TABLE)
            putchar('\n');
        err = sc_ranges_print(o.format == SC_FORMAT_TABLE ? stdout : stderr, o.platform, &spec,
                              &rows[k].result);
    }
    if (!err && !invalid)
        err = note_assumed(&o, &plat, &b, rows, nrows);
    for (int k = 0; k < nrows && !err && invalid; k++) {
        const sc_report_row_t *row = &rows[k];
        char size[32];
        sc_format_bytes((double)row->bytes, size, sizeof size);
        if (row->result.valid == 0)
            err = sc_error(SC_ERR_RUN,
                           "%d of %d runs gave a WRONG result (valid: no above); the first, %s "
                           "at np %d, %s: %s",
                           invalid, nrows, row->algo->name, row->np, size, row->result.wrong);
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

sc_err_t sc_cli_check(int argc, char **argv, const sc_platform_t *plat)
{
    sc_error_clear();
    int done;
    sc_run_opts_t o;
    lists_t l = {0};
    batch_t b = {0};
    if (argc > 1 && strcmp(argv[1], "map") == 0)
        return sc_cli_map_options(argc, argv, &o, &done);
    sc_err_t err = collective_options(argc, argv, &o, &done);
    if (err || done)
        return err;
    /* A mapping file would be read: that is for the mapping-file fuzzer. */
    if (!(err = parse_lists(&o, plat, &l)) && o.map.kind != SC_MAP_FILE)
        err = make_batch(&o, plat, &l, &b);
    for (int k = 0; k < b.nruns && !err; k++) {
        sc_run_spec_t spec = batch_spec(&o, plat, &b.plans[b.runs[k].plan], b.runs[k].bytes);
        spec.payload = o.payload;
        spec.replay = o.replay;
        err = sc_run_check(&spec);
    }
    free(b.plans);
    free(b.runs);
    lists_free(&l);
    return err;
}
