/* simcoll validate: collective timings of benchmark files against the
 * platform's predictions.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef SC_CLI_VALIDATE_CMD_H
#define SC_CLI_VALIDATE_CMD_H

/* simcoll validate --platform FILE (--mpi P | --algo A) [--np N] FILE[@ALGO]... */
int sc_cli_validate(int argc, char **argv);

#endif
