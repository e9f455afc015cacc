/* OSU micro-benchmarks 3.x to 7.x: "# OSU MPI[-VARIANT] NAME Test vX.Y",
 * optional comment lines ("# Datatype: MPI_CHAR.", "# [ pairs: 4 ] [
 * window size: 64 ]"), a column header, rows. OMB 7 repeats the column
 * header for each datatype of -T: each is a series of its own.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "reader.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

typedef enum {
    OC_SIZE,
    OC_AVG, /* "Latency (us)", "Avg Latency(us)" */
    OC_MIN,
    OC_MAX,
    OC_ITER,
    OC_MBPS,  /* "Bandwidth (MB/s)", "MB/s" */
    OC_RATE,  /* "Messages/s" */
    OC_VALID, /* OMB 7 -c: Pass or Fail */
    OC_TAIL,  /* OMB 7 tail percentiles */
    OC_XMIT   /* OMB 7 derived datatypes: "Transmit Size" */
} osu_col_t;

/* A space in a label matches any white space, none included; '#' matches
 * digits. */
static const struct {
    const char *label;
    osu_col_t col;
} osu_labels[] = {
    {"Size", OC_SIZE},
    {"Latency (us)", OC_AVG},
    {"Avg Latency (us)", OC_AVG},
    {"Min Latency (us)", OC_MIN},
    {"Max Latency (us)", OC_MAX},
    {"Iterations", OC_ITER},
    {"Bandwidth (MB/s)", OC_MBPS},
    {"MB/s", OC_MBPS},
    {"Messages/s", OC_RATE},
    {"Validation", OC_VALID},
    {"P# Tail Lat (us)", OC_TAIL},
    {"P# Tail BW (MB/s)", OC_TAIL},
    {"Transmit Size", OC_XMIT},
};

static const char *const osu_col_name[] = {
    "Size", "Latency (us)", "Min Latency(us)", "Max Latency(us)", "Iterations",
    "MB/s", "Messages/s",   "Validation",      "Tail Lat(us)",    "Transmit Size",
};

/* The length of `label` at the start of t, or 0. */
static size_t match_label(const char *t, const char *label)
{
    const char *p = t;
    for (const char *l = label; *l; l++) {
        if (*l == ' ') {
            while (*p == ' ' || *p == '\t')
                p++;
        } else if (*l == '#') {
            if (!isdigit((unsigned char)*p))
                return 0;
            while (isdigit((unsigned char)*p))
                p++;
        } else if (*p && tolower((unsigned char)*p) == tolower((unsigned char)*l)) {
            p++;
        } else {
            return 0;
        }
    }
    return *p && !isspace((unsigned char)*p) ? 0 : (size_t)(p - t);
}

/* The column at the start of t and its length, or 0. */
static size_t osu_label(const char *t, osu_col_t *col)
{
    for (size_t i = 0; i < sizeof osu_labels / sizeof osu_labels[0]; i++) {
        size_t n = match_label(t, osu_labels[i].label);
        if (n) {
            *col = osu_labels[i].col;
            return n;
        }
    }
    return 0;
}

typedef struct {
    sc_measure_kind_t kind;
    const char *collective;
    char source[256];
    int pairs;
    int line; /* of the test header */
    osu_col_t col[SC_MEAS_MAX_FIELDS];
    int ncols;
    int columns_line;
} osu_test_t;

/* Recognizes the test of a "# OSU ..." header line s. */
static sc_err_t osu_header(sc_meas_reader_t *r, const char *s, osu_test_t *t)
{
    char shown[80], body[SC_MEAS_LINE_MAX + 1];
    snprintf(body, sizeof body, "%s", s + 1);
    char *b = sc_meas_trim(body);
    snprintf(t->source, sizeof t->source, "%s", b);
    b = sc_meas_trim(b + strlen("OSU "));
    /* the version, if any, is the last word: "v5.6.2" */
    char *last = strrchr(b, ' ');
    if (last && last[1] == 'v' && isdigit((unsigned char)last[2]))
        *last = '\0';
    b = sc_meas_trim(b);
    /* b is "MPI[-VARIANT[ MANAGED]] NAME Test" */
    int best = -1;
    size_t blen = strlen(b), best_len = 0;
    for (size_t i = 0; i < sc_meas_nbenches; i++) {
        const char *test = sc_meas_benches[i].osu;
        size_t n = test ? strlen(test) : 0;
        if (test && n < blen && b[blen - n - 1] == ' ' && strcmp(b + blen - n, test) == 0 &&
            n > best_len) {
            best = (int)i;
            best_len = n;
        }
    }
    /* What comes before the name must be "MPI" and an accelerator variant
     * ("-CUDA", "-ROCM", "-CUDA MANAGED"); anything else ("MPI Multi",
     * "MPI Non-blocking", "MPI_Put") is another test. */
    int ok = best >= 0 && sc_meas_starts_with(b, "MPI");
    if (ok) {
        const char *v = b + 3, *name = b + blen - best_len - 1;
        if (*v == '-') {
            for (v++; v < name && isalnum((unsigned char)*v);)
                v++;
            if (v < name && strncmp(v, " MANAGED", 8) == 0)
                v += 8;
        }
        ok = v == name;
    }
    if (!ok)
        return sc_error_at(
            r->where, r->line,
            "'%s' is not a test simcoll reads; expected osu_latency, osu_bw, osu_bibw, "
            "osu_mbw_mr or a blocking collective (osu_bcast, osu_barrier, "
            "osu_allreduce, ...)",
            sc_meas_show(s, shown, sizeof shown));
    t->kind = sc_meas_benches[best].kind;
    t->collective = sc_meas_benches[best].collective;
    t->pairs = 0;
    t->line = r->line;
    t->ncols = 0;
    return SC_OK;
}

/* "# [ pairs: 4 ] [ window size: 64 ]" (osu_mbw_mr). */
static sc_err_t osu_pairs(sc_meas_reader_t *r, const char *s, osu_test_t *t)
{
    char shown[80];
    const char *p = strstr(s, "pairs:"), *w = strstr(s, "window size:");
    if (w) {
        w += strlen("window size:");
        while (isspace((unsigned char)*w))
            w++;
        if (sc_meas_starts_with(w, "varied"))
            return sc_error_at(
                r->where, r->line,
                "'%s': osu_mbw_mr -vw prints a table of window sizes; expected a run "
                "with one window size",
                sc_meas_show(s, shown, sizeof shown));
    }
    p += strlen("pairs:");
    while (isspace((unsigned char)*p))
        p++;
    char num[32];
    size_t n = strspn(p, "0123456789");
    snprintf(num, sizeof num, "%.*s", n < sizeof num - 1 ? (int)n : (int)sizeof num - 1, p);
    if (!n || n >= sizeof num - 1)
        return sc_error_at(r->where, r->line,
                           "'%s' has no pair count; expected '# [ pairs: P ] [ window "
                           "size: W ]'",
                           sc_meas_show(s, shown, sizeof shown));
    return sc_meas_get_count(r, "pairs", num, &t->pairs);
}

/* A column header: 0 if s is no column header, 1 if it is one, -1 with
 * *err if it names a column simcoll does not know. */
static int osu_columns(sc_meas_reader_t *r, const char *s, osu_test_t *t, sc_err_t *err)
{
    const char *p = s + 1;
    osu_col_t col;
    while (isspace((unsigned char)*p))
        p++;
    if (!osu_label(p, &col))
        return 0;
    t->ncols = 0;
    int seen = 0;
    while (*p) {
        size_t n = osu_label(p, &col);
        char shown[80], word[80];
        if (!n) {
            snprintf(word, sizeof word, "%.*s", (int)strcspn(p, " \t"), p);
            *err = sc_error_at(r->where, r->line,
                               "unknown column '%s'; expected OSU's Size, Latency (us), "
                               "Avg/Min/Max Latency(us), Iterations, Bandwidth (MB/s), MB/s, "
                               "Messages/s",
                               sc_meas_show(word, shown, sizeof shown));
            return -1;
        }
        if (seen & (1 << col) && col != OC_TAIL) {
            *err = sc_error_at(r->where, r->line, "column '%s' appears twice; expected it once",
                               osu_col_name[col]);
            return -1;
        }
        if (t->ncols == SC_MEAS_MAX_FIELDS) {
            *err = sc_error_at(r->where, r->line, "more than %d columns", SC_MEAS_MAX_FIELDS);
            return -1;
        }
        seen |= 1 << col;
        t->col[t->ncols++] = col;
        for (p += n; isspace((unsigned char)*p);)
            p++;
    }
    /* The value column must be the one the test measures. */
    int is_bw = t->kind == SC_MEASURE_BANDWIDTH || t->kind == SC_MEASURE_BIBANDWIDTH ||
                t->kind == SC_MEASURE_MESSAGE_RATE;
    int barrier = t->collective && strcmp(t->collective, "barrier") == 0;
    const char *expected = t->kind == SC_MEASURE_MESSAGE_RATE ? "'# Size  MB/s  Messages/s'"
                           : is_bw                            ? "'# Size  Bandwidth (MB/s)'"
                           : barrier                          ? "'# Avg Latency(us)'"
                           : t->kind == SC_MEASURE_LATENCY    ? "'# Size  Latency (us)'"
                                                              : "'# Size  Avg Latency(us)'";
    const char *problem = NULL;
    if (!(seen & (1 << (is_bw ? OC_MBPS : OC_AVG))))
        problem = is_bw ? "no bandwidth column" : "no latency column";
    else if (seen & (1 << (is_bw ? OC_AVG : OC_MBPS)))
        problem =
            is_bw ? "a latency column in a bandwidth test" : "a bandwidth column in a latency test";
    else if (seen & (1 << OC_RATE) && t->kind != SC_MEASURE_MESSAGE_RATE)
        problem = "a Messages/s column outside osu_mbw_mr";
    else if (!(seen & (1 << OC_SIZE)) && !barrier)
        problem = "no Size column";
    if (problem) {
        char shown[80];
        *err = sc_error_at(r->where, r->line, "'%s' has %s; expected %s",
                           sc_meas_show(s, shown, sizeof shown), problem, expected);
        return -1;
    }
    if (t->kind == SC_MEASURE_MESSAGE_RATE && t->pairs == 0) {
        *err = sc_error_at(r->where, r->line,
                           "osu_mbw_mr columns without the pair count; expected '# [ pairs: P ] "
                           "[ window size: W ]' after the header on line %d",
                           t->line);
        return -1;
    }
    t->columns_line = r->line;
    return 1;
}

static sc_err_t osu_row(sc_meas_reader_t *r, char *s, const osu_test_t *t)
{
    char *field[SC_MEAS_MAX_FIELDS + 1], shown[80];
    char copy[SC_MEAS_LINE_MAX + 1];
    snprintf(copy, sizeof copy, "%s", s);
    int n = sc_meas_split(s, field);
    sc_err_t err = sc_meas_row_width(r, copy, n, t->ncols, t->columns_line);
    if (err)
        return err;
    size_t bytes = 0, count;
    double value = NAN, max = NAN, rate = NAN, x;
    for (int i = 0; i < n && !err; i++) {
        const char *name = osu_col_name[t->col[i]];
        switch (t->col[i]) {
        case OC_SIZE: err = sc_meas_get_size(r, name, field[i], &bytes); break;
        case OC_AVG: err = sc_meas_scaled(r, name, field[i], 1e-6, &value); break;
        case OC_MAX: err = sc_meas_scaled(r, name, field[i], 1e-6, &max); break;
        case OC_MBPS: err = sc_meas_scaled(r, name, field[i], 1e6, &value); break;
        case OC_RATE: err = sc_meas_get_real(r, name, field[i], &rate); break;
        case OC_MIN:
        case OC_TAIL: err = sc_meas_get_real(r, name, field[i], &x); break;
        case OC_ITER:
        case OC_XMIT: err = sc_meas_get_size(r, name, field[i], &count); break;
        case OC_VALID:
            if (strcasecmp(field[i], "Pass") != 0)
                err = sc_error_at(r->where, r->line,
                                  "Validation '%s': OSU found wrong data at this size; expected "
                                  "'Pass'",
                                  sc_meas_show(field[i], shown, sizeof shown));
            break;
        }
    }
    if (err)
        return err;
    double value2 = t->kind == SC_MEASURE_COLLECTIVE     ? max
                    : t->kind == SC_MEASURE_MESSAGE_RATE ? rate
                                                         : NAN;
    return sc_meas_point_add(r, bytes, value, value2);
}

sc_err_t sc_meas_osu_parse(sc_meas_reader_t *r)
{
    enum { NONE, HEADER, COLUMNS } state = NONE;
    osu_test_t t;
    memset(&t, 0, sizeof t);
    char shown[80];
    static const char no_data[] = "rows of the sizes and values its column header names";
    sc_err_t err = SC_OK;
    sc_meas_rewind(r);
    char *s;
    while (!err && (s = sc_meas_next_text(r, &err))) {
        if (*s == '#') {
            if (sc_meas_osu_header(s)) {
                if (state == HEADER)
                    return sc_error_at(r->where, t.line,
                                       "'%s' is followed by no column header and no "
                                       "data; expected '# Size ...' and rows",
                                       sc_meas_show(t.source, shown, sizeof shown));
                if ((err = sc_meas_series_close(r, no_data)) || (err = osu_header(r, s, &t)))
                    return err;
                state = HEADER;
            } else if (state != NONE && t.kind == SC_MEASURE_MESSAGE_RATE && strstr(s, "pairs:")) {
                err = osu_pairs(r, s, &t);
            } else if (state != NONE) {
                int is_columns = osu_columns(r, s, &t, &err);
                if (is_columns > 0 && !(err = sc_meas_series_close(r, no_data)))
                    err = sc_meas_series_open(r, s, t.kind, t.source, t.collective, 0, t.pairs);
                if (is_columns > 0)
                    state = COLUMNS;
            }
            continue;
        }
        if (state == NONE)
            return sc_error_at(r->where, r->line,
                               "'%s' comes before any OSU header; expected a '# OSU MPI ... Test' "
                               "line first",
                               sc_meas_show(s, shown, sizeof shown));
        if (state == HEADER)
            return sc_error_at(r->where, r->line,
                               "'%s' comes before the column header; expected a '# Size ...' line "
                               "after the header on line %d",
                               sc_meas_show(s, shown, sizeof shown), t.line);
        err = osu_row(r, s, &t);
    }
    if (err)
        return err;
    if (state == HEADER)
        return sc_error_at(r->where, t.line,
                           "'%s' is followed by no column header and no data; expected '# Size "
                           "...' and rows",
                           sc_meas_show(t.source, shown, sizeof shown));
    return sc_meas_series_close(r, no_data);
}

/* s is a trimmed line starting with '#'. */
int sc_meas_osu_header(const char *s)
{
    s++;
    while (isspace((unsigned char)*s))
        s++;
    return sc_meas_starts_with(s, "OSU ");
}
