/* --sensitivity: how much a run's simulated time depends on each
 * parameter of its platform.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef SC_CLI_SENSITIVITY_H
#define SC_CLI_SENSITIVITY_H

#include <stdio.h>

#include "sim/engine/run.h"

/* Runs `spec` (whose platform was loaded from `path`) again with each
 * parameter of the platform 1% above and 1% below its value, one at a
 * time, and prints each one's elasticity: the relative change of the time
 * over the relative change of the parameter, (T(1.01 x) - T(0.99 x)) /
 * (0.02 T(x)), of sim_time_s and of mean_rank_time_s, `base` being the
 * run at the platform's values. The parameters are those of the table
 * (models/params.c) a platform can scale (sc_platform_load_scaled): the
 * latency and bandwidth of every link level it has, and the overheads,
 * eager limit and gap of shared memory and of the network, where not 0. */
sc_err_t sc_sensitivity_print(FILE *out, const char *path, const sc_run_spec_t *spec,
                              const sc_run_result_t *base);

/* With parameters given as ranges LO..HI (sc_range_t): runs `spec` at
 * every corner of them (each at its LO or its HI: 2^n runs) and prints one
 * line, the least and the most simulated and mean rank time, beside
 * `mid`, the run at their midpoints (the platform's values). Nothing
 * without ranges. */
sc_err_t sc_ranges_print(FILE *out, const char *path, const sc_run_spec_t *spec,
                         const sc_run_result_t *mid);

#endif
