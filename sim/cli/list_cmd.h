/* simcoll list: the algorithms, the MPI profiles or the network presets.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef SC_CLI_LIST_CMD_H
#define SC_CLI_LIST_CMD_H

/* Runs `simcoll list ...` (argv[1] is "list"); returns the exit code. */
int sc_cli_list(int argc, char **argv);

#endif
