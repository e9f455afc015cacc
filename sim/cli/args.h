/* What every simcoll command does with its arguments: lists, choices,
 * options getopt refused, and the message of a failure.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef SC_CLI_ARGS_H
#define SC_CLI_ARGS_H

#include <stddef.h>

#include "algorithms/profiles/profiles.h"
#include "algorithms/reduce/deciders.h"
#include "common/sc_error.h"

/* Prints "simcoll: MESSAGE" for the last error and returns err as an exit
 * code. */
int sc_cli_fail(sc_err_t err);

/* The exit code of a command that returned `code`, once its results have
 * reached stdout: results that never did (a full disk, /dev/full) make a
 * failed run, not a success. */
int sc_cli_finish(int code);

/* Splits a comma-separated list in place into *items (caller frees the
 * array) and its length *n. An empty item is bad input, named with `what`. */
sc_err_t sc_cli_split_list(char *text, const char *what, char ***items, int *n);

/* Refuses (SC_ERR_INPUT) a process count listed twice in nps[0..n-1]: it
 * would give two identical rows, as a sweep's repeated axis value would. */
sc_err_t sc_cli_distinct_nps(const int *nps, int n);

/* The option getopt_long just refused, as the user wrote it, followed by a
 * closing quote: "-x' (in '-xyz')", "--frob'", or, for a long option
 * written with one dash, "-np' (long options take two dashes: --np)".
 * `before` is optind before the call; `longopts` the command's options. */
struct option;
const char *sc_cli_refused_option(char **args, int before, const struct option *longopts);

/* mpirun spells the process count -np: each argument "-np" of argv[1..]
 * becomes "--np", which getopt_long takes (it would read -np as -n -p). */
void sc_cli_accept_mpirun_np(int argc, char **argv);

/* The index of `value` among the NULL-terminated `choices`, or SC_ERR_INPUT
 * naming `option`, the nearest choice and every one. */
sc_err_t sc_cli_choice(const char *value, const char *option, const char *const *choices,
                       int *index);

/* A collective's name given to `option` (--coll), or SC_ERR_INPUT with the
 * nearest and every name. */
sc_err_t sc_cli_coll(const char *option, const char *name);

/* --mpi NAME: the MPI library profile *out, or SC_ERR_INPUT listing them. */
sc_err_t sc_cli_profile(const char *name, const sc_profile_t **out);

/* --data KEY=VALUE, given once per key: the input distribution of
 * reductions, decider=SPEC (sc_deciders_parse) and extreme=SPEC
 * (sc_extreme_parse). The pointers are NULL for keys not given. */
typedef struct {
    sc_deciders_t deciders_given;
    sc_extreme_t extreme_given;
    const sc_deciders_t *deciders;
    const sc_extreme_t *extreme;
} sc_cli_data_t;
sc_err_t sc_cli_data(const char *text, sc_cli_data_t *data);

/* What --help says of --data. */
#define SC_CLI_DATA_HELP                                                                       \
    "  --data decider=D       which ranks hold a value that alone decides a reduction\n"     \
    "                         by land, lor, band or bor (their whole vector: false,\n"       \
    "                         true, all bits 0, all bits 1; the others hold values that\n"   \
    "                         decide nothing): none, first, last, middle, a rank (5),\n"     \
    "                         ranks joined by + (0+5+63), or a fraction of the ranks\n"      \
    "                         picked at random per call (0.01, 1.0). Without it rank k\n"   \
    "                         mod (p+1) decides element k of land and lor\n"     \
    "  --data extreme=R[/Q]   for max and min: rank R holds the extreme of every\n"     \
    "                         element, and before each later call it moves with\n"  \
    "                         probability Q (default 0) to a rank picked at random\n"

/* --load FILE: kept as given (at most SC_CLI_MAX_LOADS), and loaded once
 * the options are read, before any algorithm is looked up by name; never by
 * the option parsing itself, which the CLI fuzzer runs. */
#define SC_CLI_MAX_LOADS 8
/* simcoll run --job: at most this many jobs side by side */
#define SC_CLI_MAX_JOBS 16
sc_err_t sc_cli_add_load(const char **loads, int *n, const char *path);
sc_err_t sc_cli_load_all(const char *const *loads, int n);

/* Writes `word` into out[size] as sh reads it back: in single quotes, each
 * ' as '\''. 0 if it fit, -1 if it was cut. */
int sc_shell_quote(const char *word, char *out, size_t size);

/* 1 if s ends in suffix (a file name's extension). */
int sc_ends_with(const char *s, const char *suffix);

#endif
