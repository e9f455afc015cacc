/* The options of the commands that simulate, and their one parser.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "run_opts.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "algorithms/kinds.h"
#include "common/sc_units.h"
#include "sim/simgrid/engine.h"
#include "sim/engine/run.h"
#include "sim/io/files.h"
#include "sim/program/pack.h"

/* Every option of the commands that simulate. An option has one entry
 * per meaning: --coll, --mpi and --format have two, told apart by what a
 * command takes (see set_option). */
static const struct option all_options[] = {
    /* name          argument           flag  getopt returns */
    {"platform", required_argument, NULL, SC_OPT_PLATFORM},
    {"algo", required_argument, NULL, SC_OPT_ALGO},
    {"compare", required_argument, NULL, SC_OPT_COMPARE},
    {"np", required_argument, NULL, SC_OPT_NP},
    {"size", required_argument, NULL, SC_OPT_SIZE},
    {"mapping", required_argument, NULL, SC_OPT_MAPPING},
    {"partitioner", required_argument, NULL, SC_OPT_PARTITIONER},
    {"root", required_argument, NULL, SC_OPT_ROOT},
    {"op", required_argument, NULL, SC_OPT_OP},
    {"type", required_argument, NULL, SC_OPT_TYPE},
    {"format", required_argument, NULL, SC_OPT_FORMAT},
    {"format", required_argument, NULL, SC_OPT_FORMAT_CURVE},
    {"no-payload", no_argument, NULL, SC_OPT_NO_PAYLOAD},
    {"coll", required_argument, NULL, SC_OPT_COLL},
    {"coll", required_argument, NULL, SC_OPT_COLL_TUNE},
    {"mpi", required_argument, NULL, SC_OPT_MPI},
    {"mpi", required_argument, NULL, SC_OPT_MPI_PROGRAM},
    {"data", required_argument, NULL, SC_OPT_DATA},
    {"timeline", required_argument, NULL, SC_OPT_TIMELINE},
    {"trace", required_argument, NULL, SC_OPT_TRACE},
    {"paje", required_argument, NULL, SC_OPT_PAJE},
    {"explain", no_argument, NULL, SC_OPT_EXPLAIN},
    {"sensitivity", no_argument, NULL, SC_OPT_SENSITIVITY},
    {"load", required_argument, NULL, SC_OPT_LOAD},
    {"replay", optional_argument, NULL, SC_OPT_REPLAY},
    {"version", no_argument, NULL, SC_OPT_VERSION},
    {"output", required_argument, NULL, SC_OPT_OUTPUT},
    {"machinefile", required_argument, NULL, SC_OPT_MACHINEFILE},
    {"rankfile", required_argument, NULL, SC_OPT_RANKFILE},
    {"trace-ops", required_argument, NULL, SC_OPT_TRACE_OPS},
    {"pack", required_argument, NULL, SC_OPT_PACK},
    {"turning-from", required_argument, NULL, SC_OPT_TURNING_FROM},
    {"dims", required_argument, NULL, SC_OPT_DIMS},
    {"plot", required_argument, NULL, SC_OPT_PLOT},
    {"matrix", required_argument, NULL, SC_OPT_MATRIX},
    {"objective", required_argument, NULL, SC_OPT_OBJECTIVE},
    {"budget", required_argument, NULL, SC_OPT_BUDGET},
    {"algos", required_argument, NULL, SC_OPT_ALGOS},
    {"compute-scale", required_argument, NULL, SC_OPT_COMPUTE_SCALE},
    {"hosts", required_argument, NULL, SC_OPT_HOSTS},
    {"export-ti", required_argument, NULL, SC_OPT_EXPORT_TI},
    {"job", required_argument, NULL, SC_OPT_JOB},
    {"jobs", required_argument, NULL, SC_OPT_JOBS},
    {"help", no_argument, NULL, SC_OPT_HELP},
};
enum { NOPTIONS = sizeof all_options / sizeof all_options[0] };

/* The getopt_long table of the options `ids` (0 last), in out[NOPTIONS + 1]. */
static void select_options(const int *ids, struct option *out)
{
    int n = 0;
    for (const int *id = ids; *id; id++)
        for (int i = 0; i < NOPTIONS; i++)
            if (all_options[i].val == *id)
                out[n++] = all_options[i];
    out[n] = (struct option){NULL, 0, NULL, 0};
}

/* --mapping, as the collective run and map understand it. Each --mapping
 * overrides the last's kind and file; greedy's partitioner stays. */
static void set_mapping(const char *value, sc_run_opts_t *o)
{
    o->mapping = value;
    if (!strcmp(value, "block"))
        o->map.kind = SC_MAP_BLOCK;
    else if (!strcmp(value, "cyclic"))
        o->map.kind = SC_MAP_CYCLIC;
    else if (!strcmp(value, "partition"))
        o->map.kind = SC_MAP_PARTITION;
    else if (!strcmp(value, "greedy")) {
        o->mapping_greedy = 1;
        o->map.kind = SC_MAP_PARTITION;
        o->map.partitioner = SC_PARTITIONER_GREEDY;
    } else {
        o->map.kind = SC_MAP_FILE;
        o->map.file = value;
    }
}

/* --budget: a count of simulations, or a duration of wall time. */
static sc_err_t set_budget(const char *value, sc_map_budget_t *budget)
{
    *budget = (sc_map_budget_t){0, 0};
    size_t n = strlen(value);
    if (n && value[n - 1] >= '0' && value[n - 1] <= '9') {
        int count;
        if (sc_parse_int(value, "--budget", 1, 1000000, &count))
            return sc_error(SC_ERR_INPUT,
                            "--budget: '%s' is neither a count of simulations (1 to 1000000) "
                            "nor a duration (30s, 500ms)",
                            value);
        budget->simulations = count;
        return SC_OK;
    }
    if (sc_parse_duration(value, "--budget", &budget->seconds) || !(budget->seconds > 0))
        return sc_error(SC_ERR_INPUT,
                        "--budget: '%s' is neither a count of simulations (1 to 1000000) nor a "
                        "duration (30s, 500ms)",
                        value);
    return SC_OK;
}

sc_err_t sc_cli_algos(const char *value, const char *what, const sc_algo_t **forced)
{
    char text[1024];
    if (snprintf(text, sizeof text, "%s", value) >= (int)sizeof text)
        return sc_error(SC_ERR_INPUT, "%s: '%.40s...' is too long", what, value);
    char *save = NULL;
    for (char *item = strtok_r(text, ",", &save); item; item = strtok_r(NULL, ",", &save)) {
        char *eq = strchr(item, '=');
        if (!eq || eq == item || !eq[1])
            return sc_error(SC_ERR_INPUT,
                            "%s: '%s' is not KIND=ALGO (e.g. "
                            "allreduce=allreduce-rd,bcast=bcast-binomial; simcoll list shows the "
                            "algorithms)",
                            what, item);
        *eq = '\0';
        const sc_kind_t *kind = sc_kind_find(item);
        if (!kind)
            return sc_error(SC_ERR_INPUT,
                            "%s: '%s' is not a collective simcoll has "
                            "algorithms of (allgather, bcast, barrier, reduce, allreduce, "
                            "scatter)",
                            what, item);
        const sc_algo_t *algo = sc_algo_find(eq + 1);
        if (!algo) {
            /* the nearest of the kind's own algorithms */
            const char *names[256];
            int n = 0;
            for (int i = 0; sc_algos[i].name && n < 255; i++)
                if (sc_algos[i].collective == kind->collective)
                    names[n++] = sc_algos[i].name;
            names[n] = NULL;
            return sc_error(SC_ERR_INPUT,
                            "%s %s: unknown algorithm '%s'; did you mean "
                            "'%s'? (simcoll list --coll %s shows them)",
                            what, item, eq + 1, sc_name_nearest(eq + 1, names), item);
        }
        if (algo->collective != kind->collective)
            return sc_error(SC_ERR_INPUT, "%s %s=%s: %s is a%s %s algorithm", what, item, eq + 1,
                            eq + 1, sc_kind(algo->collective)->name[0] == 'a' ? "n" : "",
                            sc_kind(algo->collective)->name);
        if (forced[kind->collective])
            return sc_error(SC_ERR_INPUT, "%s names %s twice", what, item);
        forced[kind->collective] = algo;
    }
    return SC_OK;
}

sc_err_t sc_cli_compute_scale(const char *value, const char *what, double *scale)
{
    char *end;
    *scale = strtod(value, &end);
    if (end == value || *end || !(*scale > 0) || *scale > 1e6)
        return sc_error(SC_ERR_INPUT,
                        "%s: '%s' is not a factor above 0 (2: a core twice as fast "
                        "as the recorded one's; at most 1e6)",
                        what, value);
    return SC_OK;
}

/* Options whose value is a name, a number or a choice, checked as read. */
static sc_err_t set_checked(int id, const char *value, sc_run_opts_t *o)
{
    static const char *const formats[] = {"table", "csv", "json", NULL};
    static const char *const curve_formats[] = {"table", "csv", NULL}; /* tune: no JSON */
    /* In sc_partitioner_t's order. */
    static const char *const partitioners[] = {"multilevel", "greedy", "scotch", "metis", NULL};
    static const char *const packs[] = {"none", "auto", "show", NULL};
    static const char *const objectives[] = {"cut", "bottleneck", "time", NULL};
    /* index + 1 is the SC_REPLAY_ value */
    static const char *const replays[] = {"nodes", "maestro", "live", NULL};
    int index;
    size_t bytes;
    sc_err_t err;
    switch (id) {
    case SC_OPT_PARTITIONER:
        o->partitioner_given = 1;
        if ((err = sc_cli_choice(value, "--partitioner", partitioners, &index)))
            return err;
        o->map.partitioner = (sc_partitioner_t)index;
        if (!sc_partitioner_available(o->map.partitioner)) /* Scotch, METIS: optional */
            return sc_error(SC_ERR_INPUT,
                            "--partitioner: '%s' is not in this build (built without "
                            "lib%s-dev: install it and build again); this build offers %s",
                            value, value, sc_partitioners_available());
        return SC_OK;
    case SC_OPT_OBJECTIVE:
        o->objective_given = 1;
        if (!(err = sc_cli_choice(value, "--objective", objectives, &index)))
            o->objective = (sc_objective_t)index;
        return err;
    case SC_OPT_BUDGET: o->budget_given = 1; return set_budget(value, &o->budget);
    case SC_OPT_ALGOS: o->algos_given = 1; return sc_cli_algos(value, "--algos", o->forced);
    case SC_OPT_COMPUTE_SCALE:
        o->compute_scale_given = 1;
        return sc_cli_compute_scale(value, "--compute-scale", &o->compute_scale);
    case SC_OPT_ROOT: o->root_given = 1; return sc_parse_int(value, "--root", 0, 1 << 30, &o->root);
    case SC_OPT_OP: o->op_given = 1; return sc_op_parse(value, "--op", &o->op);
    case SC_OPT_TYPE: o->type_given = 1; return sc_type_parse(value, "--type", &o->type);
    case SC_OPT_FORMAT:
    case SC_OPT_FORMAT_CURVE:
        o->format_given = 1;
        if (!(err = sc_cli_choice(value, "--format", id == SC_OPT_FORMAT ? formats : curve_formats,
                                  &index)))
            o->format = (sc_format_t)index;
        return err;
    case SC_OPT_PACK:
        if (!(err = sc_cli_choice(value, "--pack", packs, &index)))
            o->pack = (sc_pack_t)index;
        return err;
    case SC_OPT_TURNING_FROM:
        o->from_given = 1;
        if (!(err = sc_parse_size(value, "--turning-from", &bytes)))
            o->turning_from = (double)bytes;
        return err;
    case SC_OPT_COLL: /* the collective run: a collective */
        if (!(err = sc_cli_coll("--coll", value)))
            o->coll = value;
        return err;
    case SC_OPT_MPI: return sc_cli_profile(value, &o->mpi);
    case SC_OPT_MPI_PROGRAM: /* run and tune word it so */
        if (!(o->mpi = sc_profile_find(value)))
            return sc_error(SC_ERR_INPUT,
                            "--mpi: unknown profile '%s' (simcoll list --mpi shows them)", value);
        return SC_OK;
    case SC_OPT_DATA: return sc_cli_data(value, &o->data);
    case SC_OPT_LOAD: return sc_cli_add_load(o->loads, &o->nloads, value);
    case SC_OPT_REPLAY: /* --replay alone: an actor per node */
        if (!value) {
            o->replay = SC_REPLAY_NODES;
            return SC_OK;
        }
        if (!(err = sc_cli_choice(value, "--replay", replays, &index)))
            o->replay = index + 1;
        return err;
    }
    return SC_OK;
}

/* What option `id` with `value` (NULL for a flag) sets. */
static sc_err_t set_option(int id, const char *value, sc_run_opts_t *o)
{
    switch (id) {
    case SC_OPT_PLATFORM: o->platform = value; break;
    case SC_OPT_ALGO: o->algo = value; break;
    case SC_OPT_COMPARE: o->compare = value; break;
    case SC_OPT_NP: o->np_list = value; break;
    case SC_OPT_SIZE: o->size_list = value; break;
    case SC_OPT_MAPPING: set_mapping(value, o); break;
    case SC_OPT_COLL_TUNE: o->coll = value; break; /* tune: also halo and send */
    case SC_OPT_DIMS: o->dims = value; break;
    case SC_OPT_OUTPUT: o->out = value; break;
    case SC_OPT_MACHINEFILE: o->machinefile = value; break;
    case SC_OPT_RANKFILE: o->rankfile = value; break;
    case SC_OPT_HOSTS: o->hosts = value; break;
    case SC_OPT_PLOT: o->plot = value; break;
    case SC_OPT_MATRIX: o->matrix = value; break;
    case SC_OPT_TIMELINE: o->timeline = value; break;
    case SC_OPT_TRACE: o->trace = value; break;
    case SC_OPT_PAJE: o->paje = value; break;
    case SC_OPT_TRACE_OPS: o->trace_ops = value; break;
    case SC_OPT_EXPORT_TI: o->export_ti = value; break;
    case SC_OPT_JOBS: o->jobs_file = value; break;
    case SC_OPT_JOB:
        if (o->njobs == SC_CLI_MAX_JOBS)
            return sc_error(SC_ERR_INPUT, "--job: at most %d jobs (a --jobs file holds as many)",
                            SC_CLI_MAX_JOBS);
        o->jobs[o->njobs++] = value;
        break;
    case SC_OPT_NO_PAYLOAD: o->payload = 0; break;
    case SC_OPT_EXPLAIN: o->explain = 1; break;
    case SC_OPT_SENSITIVITY: o->sensitivity = 1; break;
    default: return set_checked(id, value, o);
    }
    return SC_OK;
}

/* " NAME" of the hint "(simcoll NAME --help lists options)". */
static const char *hint_name(const sc_run_syntax_t *syntax)
{
    static char text[64];
    snprintf(text, sizeof text, "%s%s", syntax->name ? " " : "", syntax->name ? syntax->name : "");
    return text;
}

/* "--platform --algo ring": the value was forgotten. The option is the
 * word before its value, or holds it after '='. */
static sc_err_t forgotten_value(const sc_run_syntax_t *syntax, char **args)
{
    const char *word = args[optind - 1] == optarg ? args[optind - 2] : args[optind - 1];
    return sc_error(SC_ERR_INPUT,
                    "'%.*s' needs a value, and was given the option '%s' "
                    "(simcoll%s --help lists options)",
                    (int)strcspn(word, "="), word, optarg, hint_name(syntax));
}

/* The words after the options: run's program, or one too many. */
static sc_err_t take_words(const sc_run_syntax_t *syntax, char **args, int nargs, sc_run_opts_t *o)
{
    int left = nargs - optind;
    if (syntax->takes_program && left == 1)
        o->program = args[optind];
    else if (left > 0)
        return sc_error(SC_ERR_INPUT, "unexpected argument '%s' (simcoll%s --help lists options)",
                        args[optind + syntax->takes_program], hint_name(syntax));
    return SC_OK;
}

sc_err_t sc_run_opts_parse(const sc_run_syntax_t *syntax, int argc, char **argv, sc_run_opts_t *o,
                           int *done)
{
    struct option longopts[NOPTIONS + 1];
    select_options(syntax->options, longopts);
    *o = (sc_run_opts_t){.format = SC_FORMAT_TABLE,
                         .payload = 1,
                         .op = SC_OP_SUM,
                         .type = SC_TYPE_DOUBLE,
                         .turning_from = SC_TURNING_FROM_PATENT,
                         .budget = {SC_MAP_BUDGET_SIMULATIONS, 0},
                         .compute_scale = 1};
    *done = 0;
    opterr = 0;
    optind = 0; /* GNU: restart parsing (sc_cli_main may run more than once) */
    sc_cli_accept_mpirun_np(argc, argv);
    /* getopt starts at args[1]: after the command's name, if it has one */
    char **args = syntax->name ? argv + 1 : argv;
    int nargs = syntax->name ? argc - 1 : argc, c;
    sc_err_t err = SC_OK;
    for (int before = 1;
         !err && (c = getopt_long(nargs, args, syntax->shortopts, longopts, NULL)) != -1;
         before = optind) {
        if (syntax->refuses_option_values && optarg && !strncmp(optarg, "--", 2) && optarg[2])
            return forgotten_value(syntax, args);
        switch (c) {
        case SC_OPT_HELP:
            syntax->help();
            *done = 1;
            return SC_OK;
        case SC_OPT_VERSION:
            printf("simcoll %s (SimGrid %s, igraph %s)\n", SC_VERSION, sc_simgrid_version(),
                   sc_igraph_version());
            *done = 1;
            return SC_OK;
        case ':':
            err = sc_error(SC_ERR_INPUT, "'%s needs a value (simcoll%s --help lists options)",
                           sc_cli_refused_option(args, before, longopts), hint_name(syntax));
            break;
        case '?':
            err = sc_error(SC_ERR_INPUT, "unknown option '%s (simcoll%s --help lists options)",
                           sc_cli_refused_option(args, before, longopts), hint_name(syntax));
            break;
        default: err = set_option(c, optarg, o); break;
        }
    }
    return err ? err : take_words(syntax, args, nargs, o);
}

sc_err_t sc_run_opts_need_platform(const sc_run_opts_t *o)
{
    if (o->platform)
        return SC_OK;
    return sc_error(SC_ERR_INPUT,
                    "--platform FILE is required, e.g. --platform ib4x.xml (a shipped platform)");
}

sc_err_t sc_run_opts_files_distinct(const sc_run_opts_t *o, const char *mapping)
{
    /* inputs, then outputs: the order the commands have always named them */
    const sc_file_role_t files[] = {
        {"--platform", o->platform, 0},
        {"the program", o->program, 0},
        {"--mapping", mapping, 0},
        {"--matrix", o->matrix, 0},
        {"--trace-ops", o->trace_ops, 1},
        {"--timeline", o->timeline, 1},
        {"--trace", o->trace, 1},
        {"--paje", o->paje, 1},
        {"-o", o->out, 1},
        {"--plot", o->plot, 1},
        {"--machinefile", o->machinefile, 1},
        {"--rankfile", o->rankfile, 1},
        {"--hosts", o->hosts && access(o->hosts, F_OK) == 0 ? o->hosts : NULL, 0}};
    return sc_files_distinct(files, (int)(sizeof files / sizeof files[0]));
}
