/* What the parsers of benchmark output share: lines, messages, series,
 * numbers. SPDX-License-Identifier: GPL-2.0-or-later */
#include "reader.h"

#include <ctype.h>
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ------------------------------------------------------------------ */
/* Lines, messages, series                                            */

const sc_meas_bench_t sc_meas_benches[] = {
    {"PingPong", "Latency Test", SC_MEASURE_LATENCY, NULL},
    {"PingPongSpecificSource", NULL, SC_MEASURE_LATENCY, NULL},
    {"PingPongAnySource", NULL, SC_MEASURE_LATENCY, NULL},
    {"PingPing", NULL, SC_MEASURE_PINGPING, NULL},
    {"PingPingSpecificSource", NULL, SC_MEASURE_PINGPING, NULL},
    {"PingPingAnySource", NULL, SC_MEASURE_PINGPING, NULL},
    {"Uniband", "Bandwidth Test", SC_MEASURE_BANDWIDTH, NULL},
    {"Biband", "Bi-Directional Bandwidth Test", SC_MEASURE_BIBANDWIDTH, NULL},
    {NULL, "Multiple Bandwidth / Message Rate Test", SC_MEASURE_MESSAGE_RATE, NULL},
    {"Bcast", "Broadcast Latency Test", SC_MEASURE_COLLECTIVE, "bcast"},
    {"Barrier", "Barrier Latency Test", SC_MEASURE_COLLECTIVE, "barrier"},
    {"Allgather", "Allgather Latency Test", SC_MEASURE_COLLECTIVE, "allgather"},
    {"Allgatherv", "Allgatherv Latency Test", SC_MEASURE_COLLECTIVE, "allgatherv"},
    {"Allreduce", "Allreduce Latency Test", SC_MEASURE_COLLECTIVE, "allreduce"},
    {"Reduce", "Reduce Latency Test", SC_MEASURE_COLLECTIVE, "reduce"},
    {"Reduce_scatter", "Reduce_scatter Latency Test", SC_MEASURE_COLLECTIVE, "reduce_scatter"},
    {"Reduce_scatter_block", "Reduce_scatter_block Latency Test", SC_MEASURE_COLLECTIVE,
     "reduce_scatter_block"},
    {"Gather", "Gather Latency Test", SC_MEASURE_COLLECTIVE, "gather"},
    {"Gatherv", "Gatherv Latency Test", SC_MEASURE_COLLECTIVE, "gatherv"},
    {"Scatter", "Scatter Latency Test", SC_MEASURE_COLLECTIVE, "scatter"},
    {"Scatterv", "Scatterv Latency Test", SC_MEASURE_COLLECTIVE, "scatterv"},
    {"Alltoall", "All-to-All Personalized Exchange Latency Test", SC_MEASURE_COLLECTIVE,
     "alltoall"},
    {"Alltoallv", "All-to-Allv Personalized Exchange Latency Test", SC_MEASURE_COLLECTIVE,
     "alltoallv"},
    {NULL, "All-to-Allw Personalized Exchange Latency Test", SC_MEASURE_COLLECTIVE, "alltoallw"},
};
const size_t sc_meas_nbenches = sizeof sc_meas_benches / sizeof sc_meas_benches[0];

/* Up to 60 characters of s, control and non-ASCII bytes shown as '?', so
 * that a message stays one readable line whatever the input. */
const char *sc_meas_show(const char *s, char *out, size_t size)
{
    size_t n = 0, max = size - 4 < 60 ? size - 4 : 60;
    for (; s[n] && n < max; n++)
        out[n] = isprint((unsigned char)s[n]) ? s[n] : '?';
    if (s[n]) {
        memcpy(out + n, "...", 3);
        n += 3;
    }
    out[n] = '\0';
    return out;
}

static sc_err_t out_of_memory(const sc_meas_reader_t *r)
{
    return sc_error(SC_ERR_RUN, "%s: out of memory reading it", r->where);
}

void sc_meas_rewind(sc_meas_reader_t *r)
{
    r->at = r->text;
    r->line = 0;
    /* A UTF-8 byte order mark is not part of the first line. */
    if (r->end - r->at >= 3 && memcmp(r->at, "\xEF\xBB\xBF", 3) == 0)
        r->at += 3;
}

/* The next line into r->buf, without its end of line: 1, or 0 at the end
 * of the text, or -1 with the error in *err. */
int sc_meas_next_line(sc_meas_reader_t *r, sc_err_t *err)
{
    if (r->at >= r->end)
        return 0;
    if (r->line == INT_MAX) {
        *err = sc_error_at(r->where, 0, "more than %d lines; benchmark output is shorter", INT_MAX);
        return -1;
    }
    r->line++;
    const char *start = r->at, *eol = memchr(start, '\n', (size_t)(r->end - start));
    size_t n = eol ? (size_t)(eol - start) : (size_t)(r->end - start);
    r->at = start + n + (eol != NULL);
    if (n > 0 && start[n - 1] == '\r')
        n--;
    if (n > SC_MEAS_LINE_MAX) {
        *err = sc_error_at(r->where, r->line, "a line of %zu characters; expected at most %d", n,
                           SC_MEAS_LINE_MAX);
        return -1;
    }
    memcpy(r->buf, start, n);
    r->buf[n] = '\0';
    return 1;
}

char *sc_meas_next_text(sc_meas_reader_t *r, sc_err_t *err)
{
    while (sc_meas_next_line(r, err) > 0) {
        char *s = sc_meas_trim(r->buf);
        if (*s)
            return s;
    }
    return NULL;
}

/* s without leading and trailing white space (in place). */
char *sc_meas_trim(char *s)
{
    while (isspace((unsigned char)*s))
        s++;
    size_t n = strlen(s);
    while (n > 0 && isspace((unsigned char)s[n - 1]))
        s[--n] = '\0';
    return s;
}

/* Splits s at white space (in place): the number of fields; only the
 * first SC_MEAS_MAX_FIELDS are stored. */
int sc_meas_split(char *s, char **field)
{
    int n = 0;
    for (;;) {
        while (isspace((unsigned char)*s))
            s++;
        if (!*s)
            return n;
        if (n < SC_MEAS_MAX_FIELDS)
            field[n] = s;
        n++;
        while (*s && !isspace((unsigned char)*s))
            s++;
        if (*s)
            *s++ = '\0';
    }
}

int sc_meas_starts_with(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* Fails if the series being filled has no point: a header without data. */
sc_err_t sc_meas_series_close(sc_meas_reader_t *r, const char *expected)
{
    int open = r->open;
    r->open = -1;
    if (open >= 0 && r->series[open].npoints == 0)
        return sc_error_at(r->where, r->open_line, "'%s' is followed by no data; expected %s",
                           r->open_text, expected);
    return SC_OK;
}

/* Starts a series; `header` (the line that announced it, for messages). */
sc_err_t sc_meas_series_open(sc_meas_reader_t *r, const char *header, sc_measure_kind_t kind,
                             const char *source, const char *collective, int np, int pairs)
{
    if (r->nseries == r->cap) {
        if (r->cap >= INT_MAX / 2)
            return sc_error_at(r->where, r->line, "too many series; expected fewer than %d",
                               INT_MAX / 2);
        int cap = r->cap ? 2 * r->cap : 4;
        sc_series_t *bigger = realloc(r->series, (size_t)cap * sizeof *bigger);
        if (!bigger)
            return out_of_memory(r);
        r->series = bigger;
        r->cap = cap;
    }
    sc_series_t *s = &r->series[r->nseries];
    memset(s, 0, sizeof *s);
    s->path = strdup(r->name);
    s->source = strdup(source);
    if (!s->path || !s->source) {
        sc_series_free(s);
        return out_of_memory(r);
    }
    s->kind = kind;
    snprintf(s->collective, sizeof s->collective, "%s", collective ? collective : "");
    s->np = np;
    s->pairs = pairs;
    r->open = r->nseries++;
    r->open_line = r->line;
    sc_meas_show(header, r->open_text, sizeof r->open_text);
    return SC_OK;
}

/* Adds a point of the current line to the open series. Every value is
 * finite and non-negative (value2 may be NAN): what overflowed in a unit
 * conversion is refused here. */
sc_err_t sc_meas_point_add(sc_meas_reader_t *r, size_t bytes, double value, double value2)
{
    sc_series_t *s = &r->series[r->open];
    if (!isfinite(value) || value < 0 || (!isnan(value2) && (!isfinite(value2) || value2 < 0)))
        return sc_error_at(r->where, r->line,
                           "a value that overflows a double; expected smaller numbers");
    if (s->npoints == INT_MAX)
        return sc_error_at(r->where, r->line, "more than %d points in a series", INT_MAX);
    if ((s->npoints & (s->npoints - 1)) == 0) { /* 0, 1, 2, 4, ...: full */
        size_t cap = s->npoints ? 2 * (size_t)s->npoints : 1;
        sc_point_t *bigger = realloc(s->points, cap * sizeof *bigger);
        if (!bigger)
            return out_of_memory(r);
        s->points = bigger;
    }
    s->points[s->npoints++] = (sc_point_t){bytes, value, value2, r->line};
    return SC_OK;
}

sc_err_t sc_meas_row_width(const sc_meas_reader_t *r, const char *row, int n, int ncols,
                           int columns_line)
{
    char shown[80];
    if (n == ncols)
        return SC_OK;
    return sc_error_at(r->where, r->line,
                       "'%s' has %d fields; expected %d, as the column header on line %d says",
                       sc_meas_show(row, shown, sizeof shown), n, ncols, columns_line);
}

/* ------------------------------------------------------------------ */
/* Numbers                                                            */

/* A decimal number as benchmarks print it: optional sign, digits with an
 * optional fraction, optional exponent. Hexadecimal floats are refused;
 * nan and inf are recognized so that the message can name them. */
sc_meas_num_t sc_meas_parse_real(const char *s, double *v)
{
    const char *p = s;
    int negative = 0, digits = 0, nonzero = 0;
    if (*p == '+' || *p == '-')
        negative = *p++ == '-';
    if (strcasecmp(p, "nan") == 0 || strcasecmp(p, "inf") == 0 || strcasecmp(p, "infinity") == 0)
        return SC_MEAS_NUM_NONFINITE;
    for (; isdigit((unsigned char)*p); p++, digits++)
        nonzero |= *p != '0';
    if (*p == '.')
        for (p++; isdigit((unsigned char)*p); p++, digits++)
            nonzero |= *p != '0';
    if (!digits)
        return SC_MEAS_NUM_SYNTAX;
    if (*p == 'e' || *p == 'E') {
        p++;
        if (*p == '+' || *p == '-')
            p++;
        if (!isdigit((unsigned char)*p))
            return SC_MEAS_NUM_SYNTAX;
        while (isdigit((unsigned char)*p))
            p++;
    }
    if (*p)
        return SC_MEAS_NUM_SYNTAX;
    if (negative && nonzero)
        return SC_MEAS_NUM_NEGATIVE;
    double x = strtod(s, NULL);
    if (!isfinite(x))
        return SC_MEAS_NUM_NONFINITE;
    *v = x == 0 ? 0.0 : fabs(x); /* no -0 */
    return SC_MEAS_NUM_OK;
}

/* A whole, non-negative number that fits size_t. */
sc_meas_num_t sc_meas_parse_size(const char *s, size_t *v)
{
    const char *p = s;
    int negative = *p == '-';
    if (*p == '-' || *p == '+')
        p++;
    if (!*p)
        return SC_MEAS_NUM_SYNTAX;
    size_t x = 0;
    int range = 0, nonzero = 0;
    for (; *p; p++) {
        if (!isdigit((unsigned char)*p))
            return SC_MEAS_NUM_SYNTAX;
        unsigned d = (unsigned)(*p - '0');
        nonzero |= d != 0;
        if (x > (SIZE_MAX - d) / 10)
            range = 1;
        else
            x = 10 * x + d;
    }
    if (negative && nonzero)
        return SC_MEAS_NUM_NEGATIVE;
    if (range)
        return SC_MEAS_NUM_RANGE;
    *v = x;
    return SC_MEAS_NUM_OK;
}

/* The message for a field `tok` of column `what` that did not parse. */
static sc_err_t bad_number(const sc_meas_reader_t *r, sc_meas_num_t why, const char *what,
                           const char *tok, int whole)
{
    char shown[80];
    sc_meas_show(tok, shown, sizeof shown);
    switch (why) {
    case SC_MEAS_NUM_NEGATIVE:
        return sc_error_at(r->where, r->line, "%s '%s' is negative; expected a number >= 0", what,
                           shown);
    case SC_MEAS_NUM_NONFINITE:
        return sc_error_at(r->where, r->line,
                           "%s '%s' is not a finite number; expected a number >= 0", what, shown);
    case SC_MEAS_NUM_RANGE:
        return sc_error_at(r->where, r->line,
                           "%s '%s' does not fit in size_t; expected at most %zu", what, shown,
                           (size_t)SIZE_MAX);
    default:
        return sc_error_at(r->where, r->line, "%s '%s' is not %s", what, shown,
                           whole ? "a whole number; expected digits only"
                                 : "a number; expected a "
                                   "decimal like 12.5");
    }
}

sc_err_t sc_meas_get_real(const sc_meas_reader_t *r, const char *what, const char *tok, double *v)
{
    sc_meas_num_t why = sc_meas_parse_real(tok, v);
    return why == SC_MEAS_NUM_OK ? SC_OK : bad_number(r, why, what, tok, 0);
}

sc_err_t sc_meas_get_size(const sc_meas_reader_t *r, const char *what, const char *tok, size_t *v)
{
    sc_meas_num_t why = sc_meas_parse_size(tok, v);
    return why == SC_MEAS_NUM_OK ? SC_OK : bad_number(r, why, what, tok, 1);
}

/* A count of processes or pairs: 1 to INT_MAX. */
sc_err_t sc_meas_get_count(const sc_meas_reader_t *r, const char *what, const char *tok, int *v)
{
    size_t x;
    sc_meas_num_t why = sc_meas_parse_size(tok, &x);
    if (why == SC_MEAS_NUM_OK && (x == 0 || x > INT_MAX)) {
        char shown[80];
        return sc_error_at(r->where, r->line, "%s '%s' is out of range; expected 1 to %d", what,
                           sc_meas_show(tok, shown, sizeof shown), INT_MAX);
    }
    if (why != SC_MEAS_NUM_OK)
        return bad_number(r, why, what, tok, 1);
    *v = (int)x;
    return SC_OK;
}

/* value * factor, refused if it overflows. */
sc_err_t sc_meas_scaled(const sc_meas_reader_t *r, const char *what, const char *tok, double factor,
                        double *v)
{
    sc_err_t err = sc_meas_get_real(r, what, tok, v);
    if (err)
        return err;
    *v *= factor;
    if (!isfinite(*v)) {
        char shown[80];
        return sc_error_at(r->where, r->line, "%s '%s' is too large; expected a number below %g",
                           what, sc_meas_show(tok, shown, sizeof shown), DBL_MAX / factor);
    }
    return SC_OK;
}
