/* The options of the commands that simulate: the collective run, map, run
 * and tune. One table of options and one parser; each command says which
 * of them it takes.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef SC_CLI_RUN_OPTS_H
#define SC_CLI_RUN_OPTS_H

#include "algorithms/mapping/objective.h"
#include "algorithms/mapping/partition.h"
#include "algorithms/profiles/profiles.h"
#include "sim/analysis/map_search.h"
#include "args.h"
#include "report.h"

/* --mapping as the collective run and map use it: MPI's own placements, a
 * partition of the algorithm's graph, or pi from a file. */
typedef enum {
    SC_MAP_DEFAULT, /* partition for the algorithms that use a mapping, else block */
    SC_MAP_BLOCK,
    SC_MAP_CYCLIC,
    SC_MAP_PARTITION,
    SC_MAP_FILE
} sc_map_kind_t;

typedef struct {
    sc_map_kind_t kind;
    const char *file;
    sc_partitioner_t partitioner;
} sc_map_choice_t;

/* --pack of simcoll run. */
typedef enum { SC_PACK_NONE, SC_PACK_AUTO, SC_PACK_SHOW } sc_pack_t;

/* Every option's value; a command reads those it takes. The strings point
 * into argv. */
typedef struct {
    const char *platform, *algo, *compare, *np_list, *size_list, *coll, *dims;
    const char *mapping; /* as given (run, tune) */
    sc_map_choice_t map; /* as understood (the collective run, map) */
    int mapping_greedy;  /* --mapping greedy was given */
    int partitioner_given;
    sc_objective_t objective; /* map, run: what the partition minimises */
    int objective_given, budget_given;
    sc_map_budget_t budget;
    int root;
    sc_op_t op;
    sc_type_t type;
    sc_format_t format;
    /* Options given that only some commands or collectives use: refused
     * where they would be ignored. */
    int root_given, op_given, type_given, format_given, from_given;
    int payload; /* 0 after --no-payload */
    int replay, explain, sensitivity;
    sc_cli_data_t data;
    const sc_profile_t *mpi;
    const char *out, *machinefile, *rankfile, *plot; /* -o: map's pi, tune's curve */
    const char *hosts; /* map: the hosts the machinefile and rankfile name (sim/io/hosts.h) */
    const char *timeline, *trace, *paje; /* every message of one run */
    const char *trace_ops;               /* run: every call of the program */
    const char *export_ti; /* run: the ranks as SMPI time-independent traces */
    /* run: applications side by side, --job FILE@NODES[:NP] and --jobs FILE */
    const char *jobs[SC_CLI_MAX_JOBS];
    int njobs;
    const char *jobs_file;
    const char *loads[SC_CLI_MAX_LOADS]; /* --load, loaded by the command before any algorithm
                                            is looked up (not by sc_cli_check) */
    int nloads;
    sc_pack_t pack;
    double turning_from; /* where --pack and tune look for the turning point */
    const char *program; /* run, map: the file (a program or a trace) */
    const char *matrix;  /* map: a traffic matrix */
    /* --algos KIND=ALGO,...: the algorithm of every call of a kind that
     * names none (run: traces and programs) */
    const sc_algo_t *forced[SC_NCOLLECTIVES];
    int algos_given;
    double compute_scale; /* --compute-scale of a trace's computing (1: as recorded) */
    int compute_scale_given;
} sc_run_opts_t;

/* The options, by what getopt_long returns for them. The letters are
 * short options too where a command lists them in its `shortopts`. */
enum {
    SC_OPT_HELP = 'h',
    SC_OPT_OUTPUT = 'o',
    SC_OPT_PLATFORM = 256,
    SC_OPT_ALGO,
    SC_OPT_COMPARE,
    SC_OPT_NP,
    SC_OPT_SIZE,
    SC_OPT_MAPPING,
    SC_OPT_PARTITIONER,
    SC_OPT_ROOT,
    SC_OPT_OP,
    SC_OPT_TYPE,
    SC_OPT_FORMAT,
    SC_OPT_FORMAT_CURVE,
    SC_OPT_NO_PAYLOAD,
    SC_OPT_COLL,
    SC_OPT_COLL_TUNE,
    SC_OPT_MPI,
    SC_OPT_MPI_PROGRAM,
    SC_OPT_DATA,
    SC_OPT_TIMELINE,
    SC_OPT_TRACE,
    SC_OPT_PAJE,
    SC_OPT_EXPLAIN,
    SC_OPT_SENSITIVITY,
    SC_OPT_LOAD,
    SC_OPT_REPLAY,
    SC_OPT_VERSION,
    SC_OPT_MACHINEFILE,
    SC_OPT_RANKFILE,
    SC_OPT_TRACE_OPS,
    SC_OPT_PACK,
    SC_OPT_TURNING_FROM,
    SC_OPT_DIMS,
    SC_OPT_PLOT,
    SC_OPT_MATRIX,
    SC_OPT_OBJECTIVE,
    SC_OPT_BUDGET,
    SC_OPT_ALGOS,
    SC_OPT_COMPUTE_SCALE,
    SC_OPT_HOSTS,
    SC_OPT_EXPORT_TI,
    SC_OPT_JOB,
    SC_OPT_JOBS
};

/* How one command reads its arguments. */
typedef struct {
    /* in its messages' "(simcoll NAME --help lists options)"; NULL for the
     * collective run, whose hint is "simcoll --help" */
    const char *name;
    /* getopt's: ':' first (the parser words the messages), then the short
     * options it takes: -h for the collective run, -o for map and tune */
    const char *shortopts;
    /* the SC_OPT_* it takes, 0 last */
    const int *options;
    /* 1: one word besides the options, the program (simcoll run) */
    int takes_program;
    /* 1: a value that is an option (--platform --algo) is refused as a
     * forgotten value; run and tune take it as the value, as they always
     * have */
    int refuses_option_values;
    /* prints --help to stdout */
    void (*help)(void);
} sc_run_syntax_t;

/* Reads argv (argv[1] the command's name, or with syntax->name NULL the
 * first option) into *o as `syntax` says: options it does not take,
 * missing values and words left over are SC_ERR_INPUT. Sets *done after
 * --help or --version, which print. Checks nothing across options: that
 * is each command's. */
sc_err_t sc_run_opts_parse(const sc_run_syntax_t *syntax, int argc, char **argv, sc_run_opts_t *o,
                           int *done);

/* --algos KIND=ALGO,...: forced[kind] the algorithm named for it (every
 * other entry left as it is), or SC_ERR_INPUT naming `what` and the item. */
sc_err_t sc_cli_algos(const char *value, const char *what, const sc_algo_t **forced);

/* --compute-scale: a factor above 0, at most 1e6. */
sc_err_t sc_cli_compute_scale(const char *value, const char *what, double *scale);

/* SC_ERR_INPUT unless --platform was given. */
sc_err_t sc_run_opts_need_platform(const sc_run_opts_t *o);

/* SC_ERR_INPUT when an output file given is another output or an input
 * (sc_files_distinct). `mapping`: the mapping file the command reads, NULL
 * if none (the collective run's o->map.file, run's and tune's o->mapping). */
sc_err_t sc_run_opts_files_distinct(const sc_run_opts_t *o, const char *mapping);

#endif
