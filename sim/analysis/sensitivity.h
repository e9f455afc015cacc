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

/* Where a run's time rests on an assumption: the parameters its platform
 * marks assumed or set (simcoll/source/..., sim/io/platform_props.h) that
 * the run uses, each rerun at 0.5 and 1.5 times its value (the platform
 * reloaded scaled, as --sensitivity does: two simulations a parameter).
 * Latencies, bandwidths, overheads, eager limits, the gap and the header
 * are rerun; factors and core speeds are not. */
#define SC_ASSUMED_STEP 0.5      /* the change tried each side */
#define SC_ASSUMED_THRESHOLD 0.1 /* what moves the result enough to say */

/* One assumed parameter's effect on a run: the simulated time's relative
 * change at (1 - STEP) and (1 + STEP) times its value. */
typedef struct {
    int param, at;       /* the source's (sc_param_source_t) */
    double down, up;     /* (T(0.5x) - T) / T, (T(1.5x) - T) / T */
} sc_assumed_effect_t;

/* The assumed parameters `spec` uses (base: its run at the platform's
 * values), in the platform's order, into ids[] (indexes of
 * spec->plat->sources); returns how many (at most max). */
int sc_assumed_params(const sc_run_spec_t *spec, const sc_run_result_t *base, int *ids, int max);

/* The effect of source `id` of spec->plat (loaded from `path`) on the run
 * `base` of `spec`: two reruns. */
sc_err_t sc_assumed_effect(const char *path, const sc_run_spec_t *spec,
                           const sc_run_result_t *base, int id, sc_assumed_effect_t *effect);

/* Prints on `out`, if the effect passes SC_ASSUMED_THRESHOLD either way,
 * "note: WHAT rests on assumed PARAM (VALUE, from ...): at 0.5x/1.5x it
 * moves by A%/B%"; WHAT is "this result" when NULL. Returns 1 if printed. */
int sc_assumed_print(FILE *out, const sc_platform_t *plat, size_t bytes, const char *what,
                     const sc_assumed_effect_t *effect);

/* The whole check of one run: every assumed parameter it uses (at most
 * max_reruns / 2 of them; *reruns, if not NULL, gets the reruns made),
 * each printed if it passes the threshold. */
sc_err_t sc_assumed_note(FILE *out, const char *path, const sc_run_spec_t *spec,
                         const sc_run_result_t *base, const char *what, int max_reruns,
                         int *reruns);

#endif
