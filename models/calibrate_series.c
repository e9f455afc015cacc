/* The measurements as the calibration fit reads them (calibrate_series.h).
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "calibrate_series.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static int by_size_value(const void *a, const void *b)
{
    const double *x = a, *y = b;
    if (x[0] != y[0])
        return x[0] < y[0] ? -1 : 1;
    return x[1] < y[1] ? -1 : x[1] > y[1];
}

sc_err_t sc_medians_of_kind(const sc_series_t *series, int nseries, sc_measure_kind_t kind,
                            sc_medians_t *out)
{
    *out = (sc_medians_t){0};
    int total = 0, nfiles = 0;
    const char *first = NULL;
    for (int i = 0; i < nseries; i++)
        if (series[i].kind == kind) {
            total += series[i].npoints;
            if (!first)
                first = series[i].path;
            nfiles++;
        }
    if (total == 0)
        return SC_OK;
    snprintf(out->files_text, sizeof out->files_text, "%s%s", first,
             nfiles > 1 ? " and others" : "");
    out->files = out->files_text;
    double *pairs = malloc(2 * (size_t)total * sizeof *pairs);
    out->sizes = malloc((size_t)total * sizeof *out->sizes);
    out->values = malloc((size_t)total * sizeof *out->values);
    if (!pairs || !out->sizes || !out->values) {
        free(pairs);
        free(out->sizes);
        free(out->values);
        *out = (sc_medians_t){0};
        return sc_error(SC_ERR_RUN, "out of memory fitting the measurements");
    }
    int k = 0;
    for (int i = 0; i < nseries; i++)
        if (series[i].kind == kind)
            for (int j = 0; j < series[i].npoints; j++) {
                pairs[2 * k] = (double)series[i].points[j].bytes;
                pairs[2 * k + 1] = series[i].points[j].value;
                k++;
            }
    qsort(pairs, (size_t)total, 2 * sizeof *pairs, by_size_value);
    for (int lo = 0; lo < total;) {
        int hi = lo;
        while (hi < total && pairs[2 * hi] == pairs[2 * lo])
            hi++;
        int c = hi - lo;
        double med = c % 2 ? pairs[2 * (lo + c / 2) + 1]
                           : (pairs[2 * (lo + c / 2 - 1) + 1] + pairs[2 * (lo + c / 2) + 1]) / 2;
        out->sizes[out->n] = pairs[2 * lo];
        out->values[out->n++] = med;
        lo = hi;
    }
    free(pairs);
    return SC_OK;
}

void sc_medians_free(sc_medians_t *m)
{
    free(m->sizes);
    free(m->values);
    *m = (sc_medians_t){0};
}

int sc_least_squares(const sc_medians_t *md, double lo, double hi, const double *y, double *a,
                     double *b)
{
    double sx = 0, sy = 0, sxx = 0, sxy = 0;
    int n = 0;
    for (int i = 0; i < md->n; i++) {
        double x = md->sizes[i];
        if (x < lo || x >= hi)
            continue;
        double v = y ? y[i] : md->values[i];
        if (isnan(v))
            continue; /* a point with nothing to fit (a zero rate) */
        sx += x;
        sy += v;
        sxx += x * x;
        sxy += x * v;
        n++;
    }
    *a = *b = 0;
    if (n == 0)
        return 0;
    double det = n * sxx - sx * sx;
    if (n == 1 || fabs(det) <= 1e-12 * n * sxx) {
        *a = sy / n;
        return n;
    }
    *b = (n * sxy - sx * sy) / det;
    *a = (sy - *b * sx) / n;
    return n;
}

sc_err_t sc_medians_one_pair(const sc_series_t *series, int nseries, sc_measure_kind_t kind,
                             sc_medians_t *md)
{
    sc_series_t *one = malloc((size_t)(nseries > 0 ? nseries : 1) * sizeof *one);
    if (!one)
        return sc_error(SC_ERR_RUN, "out of memory fitting the measurements");
    int n = 0;
    for (int i = 0; i < nseries; i++) {
        sc_measure_kind_t k = series[i].kind;
        if (k == SC_MEASURE_MESSAGE_RATE)
            k = SC_MEASURE_BANDWIDTH; /* its value is bytes/s too */
        if (k == kind && series[i].pairs <= 1) {
            one[n] = series[i];
            one[n++].kind = kind;
        }
    }
    sc_err_t err = sc_medians_of_kind(one, n, kind, md);
    free(one);
    return err;
}

sc_err_t sc_call_extras(const sc_series_t *series, int nseries, size_t max_bytes, double **extra,
                        int *n, const char **file)
{
    int total = 0;
    *file = NULL;
    *n = 0;
    for (int i = 0; i < nseries; i++)
        if (series[i].kind == SC_MEASURE_CALL) {
            total += series[i].npoints;
            *file = *file ? *file : series[i].path;
        }
    *extra = total ? malloc((size_t)total * sizeof **extra) : NULL;
    if (total && !*extra)
        return sc_error(SC_ERR_RUN, "out of memory fitting the measurements");
    for (int i = 0; i < nseries; i++)
        for (int j = 0; series[i].kind == SC_MEASURE_CALL && j < series[i].npoints; j++) {
            const sc_point_t *p = &series[i].points[j];
            if (p->bytes <= max_bytes && !isnan(p->value2))
                (*extra)[(*n)++] = p->value - p->value2;
        }
    return SC_OK;
}
