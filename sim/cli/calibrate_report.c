/* What simcoll calibrate prints of a fit (calibrate_report.h).
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "calibrate_report.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/sc_units.h"
#include "models/params.h"
#include "sim/engine/generate.h"

/* Prints what the fit found and how. */
void sc_cal_print_fit(const sc_fit_t *fit, const char *level)
{
    printf("# %s level, fitted\n", level);
    int w = 9;
    for (int i = 0; i < fit->nnotes; i++)
        if ((int)strlen(fit->notes[i].what) > w)
            w = (int)strlen(fit->notes[i].what);
    printf("%-*s  %-24s  %s\n", w, "parameter", "value", "how");
    for (int i = 0; i < fit->nnotes; i++)
        printf("%-*s  %-24s  %s\n", w, fit->notes[i].what, fit->notes[i].value, fit->notes[i].how);
}

/* The kept range of the parameter a note names, or NULL. */
static const sc_range_t *note_range(const sc_fit_note_t *note, const sc_cal_ranges_t *kept)
{
    for (int i = 0; i < kept->n; i++) {
        const char *fit_name = sc_params[kept->range[i].param].fit_name;
        if (fit_name && !strcmp(fit_name, note->what))
            return &kept->range[i];
    }
    return NULL;
}

/* The parameters of one origin, "o_s, o_r, g" (clamped ones with their
 * value: "latency 0 s"; kept ranges with theirs: "o_s 1us..5us (a
 * range)"); empty if none. */
static void with_origin(const sc_fit_t *fit, const sc_cal_ranges_t *kept, sc_fit_origin_t origin,
                        char *out, size_t size)
{
    size_t n = 0;
    out[0] = '\0';
    for (int i = 0; i < fit->nnotes && n < size; i++) {
        const sc_fit_note_t *note = &fit->notes[i];
        if (note->origin != origin)
            continue;
        int valued = origin == SC_FIT_CLAMPED || note_range(note, kept);
        n += (size_t)snprintf(out + n, size - n, "%s%s%s%s%s", n ? ", " : "", note->what,
                              valued ? " " : "", valued ? note->value : "",
                              origin == SC_FIT_KEPT && valued ? " (a range)" : "");
    }
    /* a parameter no fit gives (the eager limit) has no note */
    for (int i = 0; origin == SC_FIT_KEPT && i < kept->n && n < size; i++) {
        const sc_param_t *p = &sc_params[kept->range[i].param];
        char text[112];
        if (p->fit_name)
            continue;
        sc_generate_range_text(&kept->range[i], text, sizeof text);
        n += (size_t)snprintf(out + n, size - n, "%s%s %s (a range)", n ? ", " : "", p->name, text);
    }
}

/* What the measurements did not give, in a clause: "o_s, o_r and g are the
 * template's (no measurement gives them); latency 0 s was clamped (the fit
 * gave a value simcoll does not take)"; empty if everything was fitted. */
void sc_cal_not_fitted(const sc_fit_t *fit, const sc_cal_ranges_t *kept, char *out, size_t size)
{
    char kept_text[512], clamped[512];
    with_origin(fit, kept, SC_FIT_KEPT, kept_text, sizeof kept_text);
    with_origin(fit, kept, SC_FIT_CLAMPED, clamped, sizeof clamped);
    snprintf(out, size, "%s%s%s%s%s",
             *kept_text ? "kept from the template, as no measurement "
                          "gives them: "
                        : "",
             kept_text, *kept_text && *clamped ? "; " : "",
             *clamped ? "clamped, as the fit gave a value simcoll does not take: " : "", clamped);
}

/* A network's bandwidth factor above 1 means the ping-pong moved data
 * faster than the bandwidth it was fitted against (the largest stream):
 * fitted, as SMPI's bw-factor allows, but said, since the likelier cause
 * is a stream that did not fill the link. "factor [4096, 65537) 1.252,
 * ..." into out; "" if none. */
void sc_cal_above_one(const sc_fit_t *fit, char *out, size_t size)
{
    size_t n = 0;
    out[0] = '\0';
    for (int i = 0; i < fit->nnotes && n < size; i++) {
        const sc_fit_note_t *note = &fit->notes[i];
        if (!strncmp(note->what, "factor", 6) && note->origin == SC_FIT_FITTED &&
            strtod(note->value, NULL) > 1)
            n += (size_t)snprintf(out + n, size - n, "%s%s %s", n ? ", " : "", note->what,
                                  note->value);
    }
}

static int by_abs(const void *a, const void *b)
{
    double x = fabs(*(const double *)a), y = fabs(*(const double *)b);
    return x < y ? -1 : x > y;
}

static void format_value(sc_measure_kind_t kind, double v, char *out, size_t len)
{
    if (isnan(v))
        snprintf(out, len, "-");
    else if (kind == SC_MEASURE_BANDWIDTH || kind == SC_MEASURE_BIBANDWIDTH ||
             kind == SC_MEASURE_MESSAGE_RATE)
        snprintf(out, len, "%.4g MB/s", v / 1e6);
    else
        sc_format_duration(v, out, len);
}

/* Series s's relative errors against the level into errs (sorted by size),
 * *n of them; the median |error|, or NaN without a point. */
static double series_median(const sc_level_t *lv, size_t header, int shared_memory,
                            const sc_series_t *s, double *errs, int *n)
{
    *n = 0;
    for (int j = 0; j < s->npoints; j++) {
        double want = sc_calibrate_predict(lv, header, shared_memory, s, &s->points[j]);
        if (!isnan(want) && s->points[j].value > 0)
            errs[(*n)++] = (want - s->points[j].value) / s->points[j].value;
    }
    if (*n == 0)
        return NAN;
    qsort(errs, (size_t)*n, sizeof *errs, by_abs);
    int m = *n;
    return m % 2 ? fabs(errs[m / 2]) : (fabs(errs[m / 2 - 1]) + fabs(errs[m / 2])) / 2;
}

/* The largest points of one series, for the errors' room. */
static int most_points(const sc_cal_series_t *all)
{
    int cap = 1;
    for (int i = 0; i < all->n; i++)
        if (all->series[i].npoints > cap)
            cap = all->series[i].npoints;
    return cap;
}

/* The series with the largest median |error|, or -1; its median in *worst. */
int sc_cal_worst_series(const sc_level_t *lv, size_t header, int shared_memory,
                        const sc_cal_series_t *all, double *worst)
{
    double *errs = malloc((size_t)most_points(all) * sizeof *errs);
    int at = -1, n;
    *worst = 0;
    for (int i = 0; errs && i < all->n; i++) {
        double median = series_median(lv, header, shared_memory, &all->series[i], errs, &n);
        if (!isnan(median) && median > *worst) {
            *worst = median;
            at = i;
        }
    }
    free(errs);
    return at;
}

/* Residuals of the level against every point: per point with `detail`,
 * then per series the median and largest relative error. */
void sc_cal_print_residuals(const sc_level_t *lv, size_t header, int shared_memory,
                            const sc_cal_series_t *all, int detail)
{
    if (detail) {
        printf("\n# residuals: (predicted - measured) / measured\n"
               "file:line  measures  size  measured  predicted  error\n");
        for (int i = 0; i < all->n; i++) {
            const sc_series_t *s = &all->series[i];
            for (int j = 0; j < s->npoints; j++) {
                const sc_point_t *p = &s->points[j];
                double want = sc_calibrate_predict(lv, header, shared_memory, s, p);
                if (isnan(want) || p->value <= 0)
                    continue;
                char got_text[32], want_text[32];
                format_value(s->kind, p->value, got_text, sizeof got_text);
                format_value(s->kind, want, want_text, sizeof want_text);
                printf("%s:%d  %s  %zu  %s  %s  %+.1f%%\n", s->path, p->line,
                       sc_cal_kind_name(s->kind), p->bytes, got_text, want_text,
                       100 * (want - p->value) / p->value);
            }
        }
    }
    double *errs = malloc((size_t)most_points(all) * sizeof *errs);
    if (!errs)
        return;
    printf("\n# residuals per series: (predicted - measured) / measured\n");
    printf("%-40s  %-13s  %6s  %14s  %8s\n", "file", "measures", "points", "median |error|",
           "largest");
    for (int i = 0; i < all->n; i++) {
        const sc_series_t *s = &all->series[i];
        int n;
        double median = series_median(lv, header, shared_memory, s, errs, &n);
        if (n == 0)
            continue;
        /* A file of several series (IMB's sections) names each by its
         * process count. */
        char name[512];
        if (s->np > 0 && ((i > 0 && strcmp(all->series[i - 1].path, s->path) == 0) ||
                          (i + 1 < all->n && strcmp(all->series[i + 1].path, s->path) == 0)))
            snprintf(name, sizeof name, "%s, np %d", s->path, s->np);
        else
            snprintf(name, sizeof name, "%s", s->path);
        printf("%-40s  %-13s  %6d  %13.1f%%  %+7.1f%%\n", name, sc_cal_kind_name(s->kind), n,
               100 * median, 100 * errs[n - 1]);
    }
    free(errs);
}
