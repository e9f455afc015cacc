/* simcoll map: pi for an algorithm, with a machinefile and a rankfile.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef SC_CLI_MAP_CMD_H
#define SC_CLI_MAP_CMD_H

#include "run_opts.h"

/* Runs `simcoll map ...` (argv[1] is "map"); returns the exit code. */
int sc_cli_map(int argc, char **argv);

/* Reads and checks map's options, as sc_cli_map does before it reads any
 * file; sets *done after --help. */
sc_err_t sc_cli_map_options(int argc, char **argv, sc_run_opts_t *o, int *done);

#endif
