/* The collective run: `simcoll --platform FILE --algo NAME ...`.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef SC_CLI_COLLECTIVE_CMD_H
#define SC_CLI_COLLECTIVE_CMD_H

/* Runs `simcoll --platform ...` (argv[1] its first option); returns the
 * exit code. Its --help is simcoll's. */
int sc_cli_collective(int argc, char **argv);

#endif
