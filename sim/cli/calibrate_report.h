/* What simcoll calibrate prints of a fit (calibrate_report.c): its
 * parameters and how each was found, what the measurements did not give,
 * and the residuals of a level against the measurements. Private to
 * sim/cli/calibrate*.c.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef SC_CLI_CALIBRATE_REPORT_H
#define SC_CLI_CALIBRATE_REPORT_H

#include <stddef.h>

#include "calibrate_input.h"
#include "models/calibrate.h"

/* The template's ranges LO..HI on the fitted level that the fitted
 * platform keeps as ranges. */
typedef struct {
    sc_range_t range[SC_MAX_RANGES];
    int n;
} sc_cal_ranges_t;

/* A fit whose median residual on some series is above this is warned of
 * (refused with --strict): a wrong template, breakpoint or eager limit
 * gives hundreds of percent; the shipped fits are mostly within it, and
 * those that are not (ORFEO's other socket, 14.9%: one level inside a
 * socket) say so in their files. */
#define SC_CAL_BAD_FIT 0.10

/* Prints what the fit found and how. */
void sc_cal_print_fit(const sc_fit_t *fit, const char *level);

/* What the measurements did not give, in a clause: "o_s, o_r and g are the
 * template's (no measurement gives them); latency 0 s was clamped (the fit
 * gave a value simcoll does not take)"; empty if everything was fitted. */
void sc_cal_not_fitted(const sc_fit_t *fit, const sc_cal_ranges_t *kept, char *out, size_t size);

/* The network's bandwidth factors above 1, "factor [4096, 65537) 1.252,
 * ..." into out; "" if none. */
void sc_cal_above_one(const sc_fit_t *fit, char *out, size_t size);

/* The series with the largest median |error|, or -1; its median in *worst. */
int sc_cal_worst_series(const sc_level_t *lv, size_t header, int shared_memory,
                        const sc_cal_series_t *all, double *worst);

/* Residuals of the level against every point: per point with `detail`,
 * then per series the median and largest relative error. */
void sc_cal_print_residuals(const sc_level_t *lv, size_t header, int shared_memory,
                            const sc_cal_series_t *all, int detail);

#endif
