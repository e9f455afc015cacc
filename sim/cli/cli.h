/* The simcoll command line.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef SC_CLI_H
#define SC_CLI_H

#include "models/platform.h"

/* Runs `simcoll argv...`; returns the process exit code (0 ok, 1 a run
 * failed or gave a wrong result, 2 bad input). Results go to stdout,
 * messages to stderr. */
int sc_cli_main(int argc, char **argv);

/* Everything a run (or `simcoll map`) does with its arguments before it
 * reads any file: options, lists, sizes and every check of every run, with
 * `plat` standing for the platform. For the command-line fuzzer. */
sc_err_t sc_cli_check(int argc, char **argv, const sc_platform_t *plat);

#endif
