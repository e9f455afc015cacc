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
 * the run uses, rerun at 0.5 or 1.5 times their value (the platform
 * reloaded scaled, as --sensitivity does), each at its slower side: 0.5x
 * a bandwidth, 1.5x a latency, an overhead, the gap or the header, which
 * moves the run at least as far as the other side; an eager limit, which
 * has no slower side, at both. Factors and core speeds are not rerun. */
#define SC_ASSUMED_STEP 0.5      /* the change tried each side */
#define SC_ASSUMED_THRESHOLD 0.1 /* what moves the result enough to say */

/* One assumed parameter's effect on a run: the simulated time's relative
 * change at `factor` times its value. */
typedef struct {
    int param, at;  /* the source's (sc_param_source_t) */
    double factor;  /* 1 - STEP or 1 + STEP */
    double change;  /* (T(factor) - T) / T */
} sc_assumed_effect_t;

/* A run to check, of any kind: its platform (loaded from `path`), what it
 * sent, its time, and how to run it again on another platform. */
typedef sc_err_t (*sc_assumed_rerun_t)(void *arg, const sc_platform_t *plat, double *seconds);
typedef struct {
    const sc_platform_t *plat;
    const char *path;
    size_t bytes;                 /* the message size a value is shown at */
    long messages[SC_NLEVELS];    /* sent inside nodes, between them */
    double seconds;               /* its simulated time */
    sc_assumed_rerun_t rerun;
    void *arg;
} sc_assumed_run_t;

/* The run of an sc_run spec, `base` its result (run->arg is spec). */
sc_assumed_run_t sc_assumed_run_of(const char *path, const sc_run_spec_t *spec,
                                   const sc_run_result_t *base);

/* The assumed parameters the run uses, in the platform's order, into
 * ids[] (indexes of run->plat->sources); returns how many (at most max). */
int sc_assumed_params(const sc_assumed_run_t *run, int *ids, int max);

/* Prints on `out`, if the effect passes SC_ASSUMED_THRESHOLD either way,
 * "note: WHAT rests on assumed PARAM (VALUE, from ...): at 0.5x it moves
 * by A%"; WHAT is "this result" when NULL. Returns 1 if printed. */
int sc_assumed_print(FILE *out, const sc_platform_t *plat, size_t bytes, const char *what,
                     const sc_assumed_effect_t *effect);

/* What one command spends on the check: a rerun a run, of runs of at
 * most SC_ASSUMED_MAX_MESSAGES messages, and SC_ASSUMED_RERUNS more to
 * tell which parameter moves the runs that move. */
#define SC_ASSUMED_RERUNS 4
#define SC_ASSUMED_MAX_MESSAGES 50000L
typedef struct {
    int reruns;    /* made so far to single out a parameter */
    int runs;      /* runs offered */
    int unchecked; /* runs with an assumed parameter they use left unchecked */
    int moved;     /* runs that move by more than the threshold */
    int untold;    /* of those, runs the reruns left did not tell apart */
    double most;   /* the largest such move */
} sc_assumed_budget_t;

/* The check of one run within budget b: one rerun with every assumed
 * parameter it uses at its slower side; if that moves it by more than the
 * threshold, each parameter no note names yet (bandwidths first, then
 * overheads, latencies and the rest) rerun at 0.5x and 1.5x while b's
 * reruns last, each printed if it passes the threshold. */
sc_err_t sc_assumed_check(FILE *out, const sc_assumed_run_t *run, const char *what,
                          sc_assumed_budget_t *b);

/* The runs that moved but were not told apart, and those not checked. */
void sc_assumed_print_unchecked(FILE *out, const sc_assumed_budget_t *b);

/* For a sweep, whose points run in children of its process: 1 makes the
 * checks of this process only count the runs that use an assumed
 * parameter (sc_assumed_unchecked) without rerunning any, and print
 * nothing (a point whose platform another point checks). */
extern int sc_assumed_skip;
/* What this process's checks found, "PARAM +A%/+B%" of every note joined
 * by "; " (a sweep's column), and the runs they left unchecked. */
extern char sc_assumed_found[1024];
extern int sc_assumed_unchecked;

#endif
