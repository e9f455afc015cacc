/* simcoll run (a program) and simcoll tune (reference 002's interval).
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef SC_CLI_PROGRAM_H
#define SC_CLI_PROGRAM_H

#include "sim/program/program.h"

/* Reads and parses the program file `path` as simcoll run does: SC_ERR_INPUT
 * naming the file (and its line) when it cannot be read or parsed. Free
 * *prog with sc_program_destroy. */
sc_err_t sc_cli_program_read(const char *path, sc_program_t *prog);

/* argv[1] is "run" or "tune"; returns the exit code. */
int sc_cli_run_program(int argc, char **argv);
int sc_cli_tune(int argc, char **argv);

#endif
