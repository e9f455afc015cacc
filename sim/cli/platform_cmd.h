/* simcoll platform: a cluster written from the nodes of another.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef SC_CLI_PLATFORM_CMD_H
#define SC_CLI_PLATFORM_CMD_H

/* Runs `simcoll platform ...` (argv[1] is "platform"); returns the exit
 * code. */
int sc_cli_platform(int argc, char **argv);

#endif
