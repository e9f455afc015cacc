/* simcoll run (a program); what simcoll tune (tune_cmd.c) shares with it.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef SC_CLI_PROGRAM_H
#define SC_CLI_PROGRAM_H

#include "algorithms/mapping/graph.h"
#include "sim/simgrid/engine.h"
#include "sim/program/program.h"
#include "tune_cmd.h"

/* Reads and parses the program file `path` as simcoll run does: SC_ERR_INPUT
 * naming the file (and its line) when it cannot be read or parsed. Free
 * *prog with sc_program_destroy. */
sc_err_t sc_cli_program_read(const char *path, sc_program_t *prog);

/* The communication graph of `prog` at np ranks (sc_program_graph), its
 * calls' algorithms chosen as a run on `plat` with MPI's block placement
 * chooses them: named, or by `profile` (NULL: run's default). SC_ERR_INPUT
 * as sc_run_check for a process count or a program the platform cannot
 * run. Free *graph with sc_graph_destroy. */
sc_err_t sc_cli_program_graph(const sc_platform_t *plat, const sc_program_t *prog,
                              const sc_profile_t *profile, int np, sc_graph_t *graph);

/* The profile that chooses the algorithms of calls naming none, unless
 * --mpi says otherwise. */
const sc_profile_t *sc_cli_default_profile(void);

/* The options of run (tune = 0) or tune (1), read and checked before any
 * file is read; *done after --help. */
sc_err_t sc_cli_program_options(int argc, char **argv, int tune, sc_run_opts_t *o, int *done);

/* The process counts of --np (NULL: every core of plat), distinct. */
sc_err_t sc_cli_process_counts(const char *list, const sc_platform_t *plat, int **nps, int *n);

/* The placement --mapping names: block, cyclic or a mapping file's. */
sc_err_t sc_cli_make_place(const char *mapping, int np, sc_cli_place_t *pl);

/* argv[1] is "run" or "tune"; returns the exit code. */
int sc_cli_run_program(int argc, char **argv);
int sc_cli_tune(int argc, char **argv);

#endif
