/* simcoll calibrate: a platform fitted to point-to-point measurements, and
 * the residuals of a platform against them.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef SC_CLI_CALIBRATE_H
#define SC_CLI_CALIBRATE_H

/* Runs `simcoll calibrate ...` (argv[1] is "calibrate"); returns the exit
 * code. */
int sc_cli_calibrate(int argc, char **argv);

#endif
