/* The simcoll command line.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef SC_CLI_H
#define SC_CLI_H

/* Runs `simcoll argv...`; returns the process exit code (0 ok, 1 a run
 * failed or gave a wrong result, 2 bad input). Results go to stdout,
 * messages to stderr. */
int sc_cli_main(int argc, char **argv);

#endif
