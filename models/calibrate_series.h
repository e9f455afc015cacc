/* The measurements as the calibration fit reads them: per size the median
 * of a kind's points, and least-squares lines over a range of sizes.
 * Private to models/calibrate*.c.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef SC_CALIBRATE_SERIES_H
#define SC_CALIBRATE_SERIES_H

#include "measurements.h"

/* The median value per size of every point of the series of one kind:
 * sizes[i], values[i] for i < n, sizes ascending. Owns sizes and values. */
typedef struct {
    double *sizes, *values;
    int n;
    const char *files; /* for the notes: the first file, " and others" after it if more */
    char files_text[160];
} sc_medians_t;

/* The medians of every point of the series of `kind` (none: n 0).
 * SC_ERR_RUN if out of memory. */
sc_err_t sc_medians_of_kind(const sc_series_t *series, int nseries, sc_measure_kind_t kind,
                            sc_medians_t *out);

/* The medians of one pair's streams of `kind` (bytes/s): a message rate
 * counts as a bandwidth, whose unit it shares. */
sc_err_t sc_medians_one_pair(const sc_series_t *series, int nseries, sc_measure_kind_t kind,
                             sc_medians_t *out);

void sc_medians_free(sc_medians_t *m);

/* What the calls of the SC_MEASURE_CALL series take beyond the ping-pong
 * beside them (a point's value less its value2), at sizes up to
 * `max_bytes`: *n of them in *extra (NULL when none; the caller frees
 * it), *file the first such series' file. SC_ERR_RUN if out of memory. */
sc_err_t sc_call_extras(const sc_series_t *series, int nseries, size_t max_bytes, double **extra,
                        int *n, const char **file);

/* Least squares y = a + b x over the medians with size x in [lo, hi), y
 * their values or, if `y` is not NULL, y[i] for size i (NaN: a point with
 * nothing to fit, left out); b 0 over one size. Returns the number of
 * sizes used (0: a and b 0). */
int sc_least_squares(const sc_medians_t *md, double lo, double hi, const double *y, double *a,
                     double *b);

#endif
