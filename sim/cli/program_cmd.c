/* simcoll run: a program on a platform, packed or not (simcoll tune, the
 * curves that packing reads, is tune_cmd.c); a trace and jobs side by side
 * are trace_cmd.c's and jobs_cmd.c's.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "program_cmd.h"

#include "gnuplot.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "algorithms/kinds.h"
#include "algorithms/mapping/search.h"
#include "args.h"
#include "common/sc_units.h"
#include "sim/analysis/map_search.h"
#include "report.h"
#include "run_opts.h"
#include "run_setup.h"
#include "sim/analysis/sensitivity.h"
#include "sim/simgrid/engine.h"
#include "sim/io/files.h"
#include "sim/io/mapfile.h"
#include "sim/program/export_ti.h"
#include "sim/program/graph.h"
#include "sim/program/pack.h"
#include "jobs_cmd.h"
#include "tune_cmd.h"
#include "trace.h"
#include "trace_cmd.h"

/* The profile that chooses for calls naming no algorithm, unless --mpi. */
#define DEFAULT_PROFILE "mpich-3.2"

/* Programs are small text files; a larger one is a mistake. */
#define MAX_PROGRAM_BYTES (16u << 20)

static void print_run_usage(void)
{
    fputs("usage: simcoll run --platform FILE [--np N[,N...]] [--mapping M] [--mpi P]\n"
          "         [--partitioner multilevel|greedy|scotch|metis]\n"
          "         [--objective cut|bottleneck|time] [--budget N|SECONDS]\n"
          "         [--pack none|auto|show] [--turning-from SIZE] [--trace-ops FILE]\n"
          "         [--timeline FILE.svg|.png] [--trace FILE.json] [--paje FILE]\n"
          "         [--load FILE.c|FILE.so] [--sensitivity]\n"
          "         [--no-payload] [--data decider=D] [--export-ti DIR] [--replay=live]\n"
          "         [--format table|csv|json] PROGRAM\n"
          "       simcoll run --platform FILE [--mapping M] [--mpi P] [--algos K=A,...]\n"
          "         [--compute-scale F] [--timeline F] [--trace F] [--paje F]\n"
          "         [--explain] [--replay[=nodes|maestro]] [--export-ti DIR]\n"
          "         [--format table|csv|json] TRACE\n"
          "       simcoll run --platform FILE (--job FILE@NODES[:NP] ... | --jobs FILE)\n"
          "         [--mpi P] [--algos K=A,...] [--compute-scale F] [--format table|csv]\n"
          "A TRACE is an application's recorded run: an OTF2 archive's anchor\n"
          "(traces.otf2), a DUMPI .meta file, or an SMPI time-independent index or\n"
          "action file (docs/traces.md). --algos KIND=ALGO,... runs every call of\n"
          "a kind with ALGO (else --mpi's choice); --compute-scale F: computing F\n"
          "times as fast as recorded; --replay plays the ranks' ops with an actor\n"
          "per node (nodes) or none (maestro, SimGrid 4.1), faster, without each\n"
          "call's time; a PROGRAM's ranks run live with --replay=live (SimGrid 4.1:\n"
          "each rank's code on an actor, its calls played from maestro, faster).\n"
          "--export-ti DIR also writes the ranks as SMPI time-independent\n"
          "traces (DIR/index.txt and a file per rank) for SMPI's replay. --job runs\n"
          "programs or traces at once, each on its own nodes (NODES: 0-7, 0-3,8-11;\n"
          "NP: a program's ranks, else its nodes' cores), and each alone on the same\n"
          "nodes: the slowdown each suffers; --jobs FILE: a job a line.\n" SC_CLI_DATA_HELP,
          stdout);
}

static const int run_accepts[] = {
    SC_OPT_PLATFORM,     SC_OPT_NP,          SC_OPT_MAPPING,     SC_OPT_MPI_PROGRAM,
    SC_OPT_NO_PAYLOAD,   SC_OPT_TRACE_OPS,   SC_OPT_PACK,        SC_OPT_FORMAT,
    SC_OPT_TURNING_FROM, SC_OPT_DATA,        SC_OPT_TIMELINE,    SC_OPT_TRACE,
    SC_OPT_PAJE,         SC_OPT_LOAD,        SC_OPT_SENSITIVITY, SC_OPT_OBJECTIVE,
    SC_OPT_BUDGET,       SC_OPT_PARTITIONER, SC_OPT_ALGOS,       SC_OPT_COMPUTE_SCALE,
    SC_OPT_REPLAY,       SC_OPT_EXPLAIN,     SC_OPT_EXPORT_TI,   SC_OPT_JOB,
    SC_OPT_JOBS,         SC_OPT_HELP,        0};

static const sc_run_syntax_t run_syntax = {
    .name = "run",
    .shortopts = ":",
    .options = run_accepts,
    .takes_program = 1,
    .help = print_run_usage,
};

/* run's checks of its options, across them. */
static sc_err_t check_run_options(const sc_run_opts_t *o)
{
    if (o->from_given && o->pack == SC_PACK_NONE)
        return sc_error(SC_ERR_INPUT, "--turning-from says where --pack auto or show looks for "
                                      "the turning point; give --pack auto or --pack show");
    const char *shown = o->trace_ops      ? "--trace-ops"
                        : o->timeline     ? "--timeline"
                        : o->trace        ? "--trace"
                        : o->paje         ? "--paje"
                        : o->format_given ? "--format"
                                          : NULL;
    if (o->pack == SC_PACK_SHOW && shown)
        return sc_error(SC_ERR_INPUT,
                        "--pack show prints the rewritten program and runs "
                        "nothing, so %s has nothing to apply to",
                        shown);
    if (o->partitioner_given && o->mapping_greedy)
        return sc_error(SC_ERR_INPUT, "--mapping greedy is --mapping partition --partitioner "
                                      "greedy; give --mapping partition with --partitioner");
    if (o->partitioner_given && !(o->mapping && !strcmp(o->mapping, "partition")))
        return sc_error(SC_ERR_INPUT, "--partitioner applies to --mapping partition; leave it "
                                      "out or give --mapping partition");
    return SC_OK;
}

/* --mapping partition or greedy: pi from the program's graph. */
static int partitions(const char *mapping)
{
    return !strcmp(mapping, "partition") || !strcmp(mapping, "greedy");
}

static int shows_messages(const sc_run_opts_t *o)
{
    return o->timeline || o->trace || o->paje;
}

/* Jobs side by side (jobs_cmd.c): the files are the jobs', and what
 * places or writes one run's ranks does not apply. */
static sc_err_t check_job_options(sc_run_opts_t *o)
{
    sc_err_t err = sc_run_opts_need_platform(o);
    if (err)
        return err;
    if (o->program)
        return sc_error(SC_ERR_INPUT, "'%s': with --job or --jobs the jobs name their files "
                        "(FILE@NODES); give it as a --job", o->program);
    const char *refused = o->np_list                ? "--np (a job's is FILE@NODES:NP)"
                          : o->mapping              ? "--mapping (a job's nodes are its own)"
                          : o->export_ti            ? "--export-ti"
                          : o->pack != SC_PACK_NONE ? "--pack"
                          : o->trace_ops            ? "--trace-ops"
                          : shows_messages(o)       ? "--timeline, --trace and --paje"
                          : o->explain              ? "--explain"
                          : o->sensitivity          ? "--sensitivity"
                          : o->format == SC_FORMAT_JSON ? "--format json"
                                                        : NULL;
    if (refused)
        return sc_error(SC_ERR_INPUT, "%s: not with jobs side by side (--job, --jobs)", refused);
    if (!o->mpi)
        o->mpi = sc_profile_find(DEFAULT_PROFILE);
    return SC_OK;
}

/* Reads and checks the options of run or tune, before any file is read;
 * sets *done after --help. */
sc_err_t sc_cli_program_options(int argc, char **argv, int tune, sc_run_opts_t *o, int *done)
{
    sc_err_t err = sc_run_opts_parse(tune ? &sc_cli_tune_syntax : &run_syntax, argc, argv, o, done);
    if (err || *done)
        return err;
    if (!tune && (o->njobs || o->jobs_file))
        return check_job_options(o);
    if (!tune && !o->program)
        return sc_error(SC_ERR_INPUT, "run needs a program file, e.g. simcoll run --platform "
                                      "gige.xml experiments/packing/halo.prog");
    if ((err = sc_run_opts_need_platform(o)))
        return err;
    if (tune && !o->coll)
        return sc_error(SC_ERR_INPUT,
                        "tune needs --coll NAME: allgather, bcast, reduce, allreduce, scatter, "
                        "halo or send");
    if (!tune && (err = check_run_options(o)))
        return err;
    if (o->objective_given && !(o->mapping && partitions(o->mapping)))
        return sc_error(SC_ERR_INPUT, "--objective says what --mapping partition or greedy "
                                      "minimises; give one of them");
    if (o->budget_given && o->objective != SC_OBJECTIVE_TIME)
        return sc_error(SC_ERR_INPUT, "--budget limits --objective time's simulations; give "
                                      "--objective time");
    if (tune && o->mapping && partitions(o->mapping))
        return sc_error(SC_ERR_INPUT,
                        "--mapping %s: tune measures a curve of sizes, and each size has a "
                        "graph and a partition of its own; use block, cyclic or a mapping file "
                        "(simcoll map writes one)",
                        o->mapping);
    const char *terminal;
    if ((err = sc_run_opts_files_distinct(o, o->mapping)) ||
        (o->plot && (err = sc_gnuplot_terminal("--plot", o->plot, &terminal)))) /* before runs */
        return err;
    if (!o->mpi)
        o->mpi = sc_profile_find(DEFAULT_PROFILE);
    return SC_OK;
}

const sc_profile_t *sc_cli_default_profile(void)
{
    return sc_profile_find(DEFAULT_PROFILE);
}

sc_err_t sc_cli_program_graph(const sc_platform_t *plat, const sc_program_t *prog,
                              const sc_profile_t *profile, int np, sc_graph_t *graph)
{
    sc_run_spec_t spec = {.plat = plat,
                          .program = prog,
                          .np = np,
                          .profile = profile ? profile : sc_cli_default_profile()};
    sc_program_t resolved;
    int *node_of = malloc((size_t)np * sizeof *node_of);
    sc_err_t err =
        node_of ? sc_run_resolved(&spec, &resolved) : sc_error(SC_ERR_RUN, "out of memory");
    if (!err) {
        /* the nodes the program was resolved with: block placement's */
        if (!(err = sc_place(plat, np, SC_PLACE_BLOCK, node_of)))
            err = sc_program_graph(&resolved, np, node_of, graph);
        sc_program_destroy(&resolved);
    }
    free(node_of);
    return err;
}

sc_err_t sc_cli_make_place(const char *mapping, int np, sc_cli_place_t *pl)
{
    *pl = (sc_cli_place_t){SC_PLACE_BLOCK, NULL, "block", ""};
    if (!mapping || !strcmp(mapping, "block"))
        return SC_OK;
    if (!strcmp(mapping, "cyclic")) {
        *pl = (sc_cli_place_t){SC_PLACE_CYCLIC, NULL, "cyclic", ""};
        return SC_OK;
    }
    pl->name = mapping;
    return sc_mapfile_read(mapping, np, &pl->pi);
}

sc_err_t sc_cli_process_counts(const char *list, const sc_platform_t *plat, int **nps, int *n)
{
    if (!list) {
        *nps = malloc(sizeof **nps);
        if (!*nps)
            return sc_error(SC_ERR_RUN, "out of memory");
        **nps = plat->total_cores;
        *n = 1;
        return SC_OK;
    }
    char *text = strdup(list), **items = NULL;
    sc_err_t err =
        text ? sc_cli_split_list(text, "--np", &items, n) : sc_error(SC_ERR_RUN, "out of memory");
    *nps = err ? NULL : malloc((size_t)*n * sizeof **nps);
    if (!err && !*nps)
        err = sc_error(SC_ERR_RUN, "out of memory");
    for (int i = 0; !err && i < *n; i++)
        err = sc_parse_int(items[i], "--np", 1, 1 << 30, &(*nps)[i]);
    if (!err)
        err = sc_cli_distinct_nps(*nps, *n);
    free(items);
    free(text);
    return err;
}

/* ---- simcoll run ---- */

static sc_err_t write_trace(const char *path, const sc_program_t *prog, const sc_run_result_t *res)
{
    sc_outputs_t *outs;
    FILE *f;
    sc_err_t err = sc_output_open("--trace-ops", path, &outs, &f);
    if (err)
        return err;
    fprintf(f, "index,line,statement,algo,size_bytes,start_s,end_s,inter_node_bytes,"
               "intra_node_bytes,inter_node_messages,intra_node_messages,valid\n");
    for (long k = 0; k < res->nops; k++) {
        const sc_op_record_t *op = &res->ops[k];
        const sc_stmt_t *st = &prog->stmts[op->stmt];
        const char *what = st->kind == SC_STMT_HALO   ? "halo"
                           : st->kind == SC_STMT_SEND ? "send"
                                                      : sc_kind(st->collective)->name;
        int line = st->npieces ? st->pieces[0].line : st->line;
        fprintf(f, "%ld,%d,%s,%s,%zu,%.9e,%.9e,%.0f,%.0f,%ld,%ld,%s\n", k, line, what,
                st->kind == SC_STMT_HALO || st->kind == SC_STMT_SEND ? "" : st->algo->name,
                st->bytes, op->start, op->end, op->bytes[SC_LEVEL_INTER], op->bytes[SC_LEVEL_INTRA],
                op->messages[SC_LEVEL_INTER], op->messages[SC_LEVEL_INTRA],
                op->valid < 0 ? ""
                : op->valid   ? "yes"
                              : "no");
    }
    return sc_outputs_commit(outs);
}

sc_err_t sc_cli_program_read(const char *path, sc_program_t *prog)
{
    char *text;
    size_t len;
    sc_err_t err = sc_input_file("program", path, MAX_PROGRAM_BYTES, &text, &len);
    if (err)
        return err;
    err = sc_program_parse(path, text, len, prog);
    free(text);
    return err;
}

/* What every run of `simcoll run` shares. */
typedef struct {
    const sc_run_opts_t *o;
    const sc_platform_t *plat;
    const sc_program_t *prog;
    int argc; /* the command line, named in the traces */
    char **argv;
    FILE *after;     /* --sensitivity's table and the ranges' times, printed after a table */
    sc_cli_place_t *places; /* by process count */
    sc_assumed_budget_t *assumed; /* the check of the assumed parameters */
} program_run_t;

/* --timeline, --trace or --paje: every message of the run. */
/* The run of `prog` at np with the placement pl. */
static sc_run_spec_t program_spec(const program_run_t *r, const sc_program_t *prog, int np,
                                  const sc_cli_place_t *pl)
{
    const sc_run_opts_t *o = r->o;
    return (sc_run_spec_t){.plat = r->plat,
                           .program = prog,
                           .profile = o->mpi,
                           .np = np,
                           .placement = pl->placement,
                           .pi = pl->pi,
                           .payload = o->payload,
                           .trace = o->trace_ops != NULL,
                           .deciders = o->data.deciders,
                           .extreme = o->data.extreme,
                           .replay = o->replay};
}

/* The traces of one run write one run: one --np. */
static sc_err_t check_traces(const sc_run_opts_t *o, int nnps)
{
    const char *terminal;
    if ((o->trace_ops || shows_messages(o) || o->export_ti) && nnps > 1)
        return sc_error(SC_ERR_INPUT, "%s writes one run; give one --np, not %s",
                        o->trace_ops  ? "--trace-ops"
                        : o->export_ti ? "--export-ti"
                        : o->timeline ? "--timeline"
                        : o->trace    ? "--trace"
                                      : "--paje",
                        o->np_list);
    if (o->sensitivity && (nnps > 1 || o->format != SC_FORMAT_TABLE || o->pack == SC_PACK_SHOW))
        return sc_error(SC_ERR_INPUT, "--sensitivity writes text after the table of one run: give "
                                      "one --np, no --format csv or json, and no --pack show");
    if (o->timeline)
        return sc_gnuplot_terminal("--timeline", o->timeline, &terminal);
    return SC_OK;
}

/* --mapping partition or greedy at np: the program's graph cut into the
 * platform's nodes, as simcoll map PROGRAM does; its figures on stderr. */
static sc_err_t partition_place(const program_run_t *r, int np, sc_cli_place_t *pl)
{
    const sc_run_opts_t *o = r->o;
    sc_partitioner_t how = o->map.partitioner; /* --mapping greedy's, or --partitioner's */
    /* The report's mapping: "partition", or which other partitioner made it. */
    const char *name = how == SC_PARTITIONER_MULTILEVEL ? "partition" : sc_partitioner_name(how);
    *pl = (sc_cli_place_t){SC_PLACE_BLOCK, malloc((size_t)np * sizeof *pl->pi), name, ""};
    sc_graph_t graph = {0};
    double seconds = 0;
    sc_err_t err = pl->pi ? sc_cli_program_graph(r->plat, r->prog, o->mpi, np, &graph)
                          : sc_error(SC_ERR_RUN, "out of memory");
    if (!err)
        err = sc_mapping_search_graph(r->plat, &graph, how, pl->pi, &seconds);
    if (!err && o->objective != SC_OBJECTIVE_CUT) {
        sc_cli_place_t block = {SC_PLACE_BLOCK, NULL, "block", ""};
        sc_run_spec_t run = program_spec(r, r->prog, np, &block);
        run.trace = 0;
        err = sc_map_objective(r->plat, &graph, &run, o->objective, &o->budget, pl->pi,
                                   pl->chosen, sizeof pl->chosen);
        /* the table names what was run: time may have kept cyclic placement */
        if (!err && *pl->chosen)
            pl->name = pl->chosen;
    }
    double cut = 0, block = 0;
    if (!err &&
        !(err = sc_cli_graph_cut(r->plat, &graph, SC_PLACE_BLOCK, pl->pi, &cut, NULL, NULL)) &&
        !(err = sc_cli_graph_cut(r->plat, &graph, SC_PLACE_BLOCK, NULL, &block, NULL, NULL))) {
        /* As simcoll map prints them, in bytes: the same figures read the
         * same in both (not as "simcoll: ..." lines, which are errors). */
        fprintf(stderr,
                "# --mapping %s%s%s at np %d: cut weight %.0f of %.0f bytes (block "
                "placement %.0f); %.3g s to partition\n",
                o->mapping, o->partitioner_given ? " --partitioner " : "",
                o->partitioner_given ? sc_partitioner_name(how) : "", np, cut, graph.total_weight,
                block, seconds);
        sc_bottleneck_t load[2];
        if (o->objective_given &&
            !(err = sc_cli_graph_load(r->plat, &graph, SC_PLACE_BLOCK, pl->pi, &load[0])) &&
            !(err = sc_cli_graph_load(r->plat, &graph, SC_PLACE_BLOCK, NULL, &load[1])))
            fprintf(stderr,
                    "# --objective %s at np %d: the busiest node's link carries %.0f "
                    "bytes (block placement %.0f)\n",
                    sc_objective_name(o->objective), np, load[0].load, load[1].load);
    }
    sc_graph_destroy(&graph);
    if (err) {
        free(pl->pi);
        pl->pi = NULL;
    }
    return err;
}

/* Everything is checked before the first simulation starts, but for
 * what packing makes of the program, which needs simulations to tune;
 * the places of the runs are worked out here, once. */
static sc_err_t check_runs(const program_run_t *r, const int *nps, int nnps)
{
    sc_err_t err = SC_OK;
    for (int i = 0; i < nnps && !err; i++) {
        sc_cli_place_t *pl = &r->places[i];
        err = r->o->mapping && partitions(r->o->mapping) ? partition_place(r, nps[i], pl)
                                                         : sc_cli_make_place(r->o->mapping, nps[i], pl);
        if (!err) {
            sc_run_spec_t spec = program_spec(r, r->prog, nps[i], pl);
            err = sc_run_check(&spec);
        }
    }
    return err;
}

/* --export-ti: the program as run at np (its calls resolved, not
 * packed), before it runs, so that a run refused writes nothing. */
static sc_err_t export_ti(const program_run_t *r, int np, const sc_cli_place_t *pl)
{
    sc_run_spec_t spec = program_spec(r, r->prog, np, pl);
    sc_program_t resolved;
    sc_err_t err = sc_run_resolved(&spec, &resolved);
    if (err)
        return err;
    err = sc_program_export_ti(&resolved, np, "--export-ti", r->o->export_ti);
    sc_program_destroy(&resolved);
    if (!err)
        fprintf(stderr, "simcoll: wrote %d ranks' SMPI time-independent traces to %s/index.txt\n",
                np, r->o->export_ti);
    return err;
}

/* The model's time of `prog` at np under the placement pl (NaN: none). */
static sc_err_t model_of(const program_run_t *r, const sc_program_t *prog, int np,
                         const sc_cli_place_t *pl, double *seconds)
{
    sc_run_spec_t spec = program_spec(r, prog, np, pl);
    return sc_run_model(&spec, seconds);
}

/* The rewrites of the patent that the cost model finds faster: each is
 * tried in the program's order on top of those kept, and kept only if the
 * whole program's model time falls, so that the program packed is never
 * slower than as written under the model. Without a model (uneven nodes,
 * an algorithm without one) every rewrite is made, as the patent says.
 * skip gets 1 for each rewrite left out; *as_written and *packed_s are the
 * model's times of the program as written and packed. */
static sc_err_t choose_rewrites(const program_run_t *r, int np, const sc_cli_place_t *pl, sc_cli_intervals_t *ivs,
                                unsigned char *skip, const unsigned char *starts,
                                double *as_written, double *packed_s)
{
    int n = r->prog->nstmts;
    sc_err_t err = model_of(r, r->prog, np, pl, as_written);
    *packed_s = *as_written;
    if (err || isnan(*as_written)) {
        memset(skip, 0, (size_t)n);
        return err;
    }
    memcpy(skip, starts, (size_t)n);
    for (int i = 0; i < n && !err; i++) {
        if (!starts[i])
            continue;
        sc_program_t trial = {0};
        double t;
        skip[i] = 0;
        if (!(err = sc_program_pack_some(r->prog, sc_cli_interval_of, ivs, skip, NULL, &trial)))
            err = model_of(r, &trial, np, pl, &t);
        sc_program_destroy(&trial);
        if (!err && t < *packed_s)
            *packed_s = t;
        else
            skip[i] = 1;
    }
    return err;
}

/* What --pack show says of each rewrite and, having simulated both, of the
 * model's verdict: contention the model leaves out can make a rewrite it
 * finds faster slower in the simulation, and the other way round. */
static sc_err_t show_verdict(const program_run_t *r, int np, const sc_cli_place_t *pl,
                             const sc_program_t *packed, const unsigned char *skip,
                             const unsigned char *starts, double as_written, double packed_s)
{
    char a[32], b[32];
    int kept = 0, offered = 0;
    for (int i = 0; i < r->prog->nstmts; i++) {
        if (!starts[i])
            continue;
        offered++;
        kept += !skip[i];
        if (skip[i])
            printf("# line %d: left as written: the cost model finds the program no faster "
                   "rewritten there\n",
                   r->prog->stmts[i].line);
    }
    if (isnan(as_written)) {
        printf("# every rewrite made: the program has no cost model to check them against\n");
        return SC_OK;
    }
    sc_format_duration(as_written, a, sizeof a);
    sc_format_duration(packed_s, b, sizeof b);
    printf("# the cost model: %s as written, %s packed (%d of %d rewrites made)\n", a, b, kept,
           offered);
    if (!kept)
        return SC_OK;
    sc_run_result_t written_run, packed_run;
    sc_run_spec_t spec = program_spec(r, r->prog, np, pl);
    sc_err_t err = sc_run(&spec, &written_run);
    if (err)
        return err;
    spec.program = packed;
    if ((err = sc_run(&spec, &packed_run))) {
        sc_run_result_destroy(&written_run);
        return err;
    }
    sc_format_duration(written_run.sim_time_s, a, sizeof a);
    sc_format_duration(packed_run.sim_time_s, b, sizeof b);
    printf("# simulated: %s as written, %s packed", a, b);
    if (packed_run.sim_time_s > written_run.sim_time_s)
        printf(": the simulation disagrees with the model, packing is %.1f%% slower (contention "
               "for NICs and memory buses, which the model leaves out)",
               100 * (packed_run.sim_time_s / written_run.sim_time_s - 1));
    printf("\n");
    sc_run_result_destroy(&written_run);
    sc_run_result_destroy(&packed_run);
    return SC_OK;
}

/* --pack auto or show: the program packed for np into *packed, with the
 * intervals found on stderr; show prints it, with the model's verdict on
 * each rewrite and the simulation's on the whole. */
static sc_err_t pack_at(const program_run_t *r, int np, const sc_cli_place_t *pl, sc_program_t *packed)
{
    if (np == 1) {
        /* One rank communicates with nobody: no type of communication has
         * a bandwidth curve to find an interval on. */
        sc_err_t err = sc_program_copy(r->prog, packed);
        if (!err && r->o->pack == SC_PACK_SHOW) {
            printf("# %s at np 1 (simcoll run --pack show): one rank communicates with nobody, "
                   "so nothing is packed or split\n",
                   r->o->program);
            sc_program_print(packed, stdout);
        } else if (!err) {
            fprintf(stderr, "simcoll: --pack auto at np 1: one rank communicates with nobody, "
                            "so the program runs as written\n");
        }
        return err;
    }
    sc_cli_bench_t bench = {r->plat, np, pl, r->o->mpi, r->o->turning_from};
    sc_cli_intervals_t ivs = {&bench, NULL, 0, 0};
    int n = r->prog->nstmts;
    unsigned char *starts = malloc((size_t)n + 1), *skip = malloc((size_t)n + 1);
    double as_written = NAN, packed_s = NAN;
    sc_err_t err = starts && skip ? SC_OK : sc_error(SC_ERR_RUN, "out of memory");
    if (!err)
        err = sc_program_pack_some(r->prog, sc_cli_interval_of, &ivs, NULL, starts, packed);
    if (!err)
        err = choose_rewrites(r, np, pl, &ivs, skip, starts, &as_written, &packed_s);
    if (!err) {
        sc_program_destroy(packed);
        err = sc_program_pack_some(r->prog, sc_cli_interval_of, &ivs, skip, NULL, packed);
    }
    if (!err)
        sc_cli_print_intervals(&ivs, np);
    free(ivs.known);
    if (!err && r->o->pack == SC_PACK_SHOW) {
        printf("# %s packed for np %d (simcoll run --pack show)\n", r->o->program, np);
        sc_program_print(packed, stdout);
        err = show_verdict(r, np, pl, packed, skip, starts, as_written, packed_s);
    }
    free(starts);
    free(skip);
    return err;
}

/* --trace-ops and the messages of the run `spec` made into `row`. */
static sc_err_t write_run_traces(const program_run_t *r, const sc_run_spec_t *spec,
                                 const sc_program_report_row_t *row, const sc_cli_place_t *pl)
{
    const sc_run_opts_t *o = r->o;
    sc_err_t err = SC_OK;
    if (o->trace_ops) {
        /* The trace names statements of the program as run. */
        sc_program_t resolved;
        if (!(err = sc_run_resolved(spec, &resolved))) {
            err = write_trace(o->trace_ops, &resolved, &row->result);
            sc_program_destroy(&resolved);
        }
    }
    if (!err && shows_messages(o)) {
        char title[1024], command[4096];
        snprintf(title, sizeof title, "%s, np %d, %s, %s mapping", o->program, spec->np,
                 r->plat->name, pl->name);
        sc_provenance_t prov = {o->platform, r->argc, r->argv};
        sc_provenance_command(&prov, command, sizeof command);
        sc_trace_info_t info = {r->plat, row->result.node_of, spec->np, title, command};
        err = sc_trace_write_all(o->timeline, o->trace, o->paje, &info, &row->result);
    }
    return err;
}

/* The program at np, packed or not, into rows[*nrows] (unless --pack show,
 * which runs nothing); counts a wrong result in *invalid. */
static sc_err_t run_at(const program_run_t *r, int np, const sc_cli_place_t *pl,
                       sc_program_report_row_t *rows, int *nrows, int *invalid)
{
    const sc_run_opts_t *o = r->o;
    sc_program_t packed = {0};
    const sc_program_t *runs = r->prog;
    sc_err_t err = SC_OK;
    if (o->pack != SC_PACK_NONE) {
        err = pack_at(r, np, pl, &packed);
        runs = &packed;
    }
    if (!err && o->pack != SC_PACK_SHOW) {
        sc_run_spec_t spec = program_spec(r, runs, np, pl);
        spec.messages = shows_messages(o);
        sc_program_report_row_t *row = &rows[*nrows];
        *row = (sc_program_report_row_t){.program = o->program,
                                         .platform = r->plat->name,
                                         .np = np,
                                         .mapping = pl->name,
                                         .pack = o->pack == SC_PACK_AUTO ? "auto" : "none"};
        if (!(err = sc_run(&spec, &row->result))) {
            (*nrows)++;
            *invalid += row->result.valid == 0;
            err = write_run_traces(r, &spec, row, pl);
            if (!err && o->sensitivity)
                err = sc_sensitivity_print(r->after, o->platform, &spec, &row->result);
            if (!err && r->plat->nranges)
                err = sc_ranges_print(o->format == SC_FORMAT_TABLE ? r->after : stderr, o->platform,
                                      &spec, &row->result);
            char what[1200];
            snprintf(what, sizeof what, "%s np %d", o->program, np);
            sc_assumed_run_t run = sc_assumed_run_of(o->platform, &spec, &row->result);
            if (!err && row->result.valid != 0)
                err = sc_assumed_check(stderr, &run, what, r->assumed);
        }
    }
    sc_program_destroy(&packed);
    return err;
}

/* --algos: the algorithm of every call of a kind that names neither an
 * algorithm nor a profile. */
static sc_err_t force_algos(const sc_run_opts_t *o, sc_program_t *prog)
{
    for (int i = 0; o->algos_given && i < prog->nstmts; i++) {
        sc_stmt_t *st = &prog->stmts[i];
        if (st->kind != SC_STMT_CALL || st->choice.algo || st->choice.profile)
            continue;
        st->choice.algo = o->forced[st->collective];
    }
    return SC_OK;
}

int sc_cli_run_program(int argc, char **argv)
{
    sc_run_opts_t o;
    int done, *nps = NULL, nnps = 0, invalid = 0;
    sc_err_t err = sc_cli_program_options(argc, argv, 0, &o, &done);
    if (err || done)
        return err ? sc_cli_fail(err) : 0;
    if (o.njobs || o.jobs_file)
        return sc_cli_run_jobs(&o, argc, argv);
    if (sc_cli_is_trace(o.program))
        return sc_cli_run_trace(&o, argc, argv);
    if (o.replay && o.replay != SC_REPLAY_LIVE)
        return sc_cli_fail(sc_error(SC_ERR_INPUT, "--replay plays a trace's ranks, or one call "
                                                  "(simcoll --algo ... --replay); a program "
                                                  "runs with an actor per rank (leave it out, "
                                                  "or run it live: --replay=live)"));
    if (o.explain)
        return sc_cli_fail(sc_error(SC_ERR_INPUT, "--explain explains a trace's run, or one "
                                                  "call's (simcoll --algo ... --explain); for a "
                                                  "program, --trace-ops and --timeline show "
                                                  "its calls and messages"));
    sc_platform_t plat = {0};
    sc_program_t prog = {0};
    sc_program_report_row_t *rows = NULL;
    int nrows = 0;
    char *after = NULL;
    size_t after_len = 0;
    sc_assumed_budget_t assumed = {0};
    program_run_t r = {&o, &plat, &prog, argc, argv, NULL, NULL, &assumed};
    err = sc_cli_load_all(o.loads, o.nloads);
    if (err || (err = sc_platform_load("--platform", o.platform, &plat)) ||
        (err = sc_cli_program_read(o.program, &prog)) || (err = force_algos(&o, &prog)) ||
        (err = sc_cli_process_counts(o.np_list, &plat, &nps, &nnps)) || (err = check_traces(&o, nnps)))
        goto cleanup;
    rows = calloc((size_t)nnps, sizeof *rows);
    r.places = calloc((size_t)nnps, sizeof *r.places);
    r.after = open_memstream(&after, &after_len);
    if (!rows || !r.places || !r.after) {
        err = sc_error(SC_ERR_RUN, "out of memory");
        goto cleanup;
    }
    err = check_runs(&r, nps, nnps);
    if (!err && o.export_ti)
        err = export_ti(&r, nps[0], &r.places[0]);
    for (int i = 0; i < nnps && !err; i++)
        err = run_at(&r, nps[i], &r.places[i], rows, &nrows, &invalid);
    if (!err && o.pack != SC_PACK_SHOW) {
        sc_provenance_t prov = {o.platform, argc, argv};
        sc_program_report_print(stdout, o.format, rows, nrows, &prov);
        if (fclose(r.after) == 0 && after_len)
            printf("\n%s", after);
        r.after = NULL;
        sc_assumed_print_unchecked(stderr, &assumed);
        for (int k = 0; k < nrows && !err && invalid; k++)
            if (rows[k].result.valid == 0)
                err = sc_error(SC_ERR_RUN,
                               "%d of %d runs gave a WRONG result (valid: no above); the first, "
                               "at np %d: %s",
                               invalid, nrows, rows[k].np, rows[k].result.wrong);
    }
cleanup:
    if (r.after)
        fclose(r.after);
    free(after);
    for (int i = 0; rows && i < nrows; i++)
        sc_run_result_destroy(&rows[i].result);
    free(rows);
    for (int i = 0; r.places && i < nnps; i++)
        free(r.places[i].pi);
    free(r.places);
    free(nps);
    sc_program_destroy(&prog);
    sc_platform_destroy(&plat);
    return err ? sc_cli_fail(err) : 0;
}

