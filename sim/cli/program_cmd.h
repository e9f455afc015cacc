/* simcoll run (a program) and simcoll tune (reference 002's interval).
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef SC_CLI_PROGRAM_H
#define SC_CLI_PROGRAM_H

/* argv[1] is "run" or "tune"; returns the exit code. */
int sc_cli_run_program(int argc, char **argv);
int sc_cli_tune(int argc, char **argv);

#endif
