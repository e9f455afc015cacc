/* simcoll sweep: a study's every point, resumable.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef SC_CLI_SWEEP_H
#define SC_CLI_SWEEP_H

int sc_cli_sweep(int argc, char **argv);

#endif
