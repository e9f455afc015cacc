/* Intel MPI Benchmarks (IMB-MPI1) 3.x to 2021: "# Benchmarking NAME",
 * "# #processes = N", a column header, rows; or one table of every
 * benchmark ("#Benchmarking #procs #bytes ...", a row per benchmark,
 * process count and size).
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "reader.h"

#include <ctype.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

enum { IMB_SKIP = -1 };

typedef enum {
    IC_BYTES,
    IC_REPS,
    IC_T, /* PingPong, PingPing: one-way time, the slower rank's */
    IC_TMIN,
    IC_TMAX,
    IC_TAVG,
    IC_MBPS,
    IC_RATE,
    IC_DEFECTS, /* a -DCHECK build */
    IC_NAME,    /* the table layout */
    IC_PROCS
} imb_col_t;

static const char *const imb_col_name[] = {
    "#bytes",     "#repetitions", "t[usec]", "t_min[usec]",   "t_max[usec]", "t_avg[usec]",
    "Mbytes/sec", "Msg/sec",      "defects", "#Benchmarking", "#procs",
};

typedef struct {
    int active, skip;
    char name[64];
    int kind;
    const char *collective;
    int np;
    int line;
    imb_col_t col[SC_MEAS_MAX_FIELDS];
    int ncols, columns_line;
    int table;         /* the one-table layout */
    char title[160];   /* "Intel(R) MPI Benchmarks 2019 Update 5, MPI-1 part" */
    char skipped[160]; /* benchmarks skipped, for the message of a file without points */
} imb_state_t;

/* The kind of a benchmark simcoll reads (sc_meas_benches), or IMB_SKIP for
 * the others (Sendrecv, Exchange, Reduce_local and those of IMB-EXT, -NBC,
 * -RMA, -IO). */
static int imb_lookup(const char *name, const char **collective)
{
    for (size_t i = 0; i < sc_meas_nbenches; i++)
        if (sc_meas_benches[i].imb && strcmp(name, sc_meas_benches[i].imb) == 0) {
            *collective = sc_meas_benches[i].collective;
            return (int)sc_meas_benches[i].kind;
        }
    return IMB_SKIP;
}

static void imb_note_skipped(imb_state_t *b, const char *name)
{
    if (strstr(b->skipped, name))
        return;
    size_t n = strlen(b->skipped);
    if (n + strlen(name) + 8 < sizeof b->skipped)
        snprintf(b->skipped + n, sizeof b->skipped - n, "%s%s", n ? ", " : "", name);
}

/* Parses a column header (s is the trimmed line). */
static sc_err_t imb_columns(sc_meas_reader_t *r, const char *s, imb_state_t *b)
{
    char *field[SC_MEAS_MAX_FIELDS + 1], shown[80], copy[SC_MEAS_LINE_MAX + 1];
    snprintf(copy, sizeof copy, "%s", s);
    int n = sc_meas_split(copy, field), seen = 0;
    if (n > SC_MEAS_MAX_FIELDS)
        return sc_error_at(r->where, r->line, "more than %d columns", SC_MEAS_MAX_FIELDS);
    b->ncols = 0;
    for (int i = 0; i < n; i++) {
        int c = -1;
        for (int k = 0; k < (int)(sizeof imb_col_name / sizeof imb_col_name[0]); k++)
            if (strcmp(field[i], imb_col_name[k]) == 0)
                c = k;
        if (c < 0 && strcmp(field[i], "Group") == 0)
            return sc_error_at(r->where, r->line,
                               "a Group column: IMB -multi output; expected a run "
                               "without -multi");
        if (c < 0)
            return sc_error_at(r->where, r->line,
                               "unknown column '%s'; expected IMB-MPI1's #bytes, #repetitions, "
                               "t[usec], t_min[usec], t_max[usec], t_avg[usec], Mbytes/sec, "
                               "Msg/sec",
                               sc_meas_show(field[i], shown, sizeof shown));
        if (seen & (1 << c))
            return sc_error_at(r->where, r->line, "column '%s' appears twice; expected it once",
                               imb_col_name[c]);
        seen |= 1 << c;
        b->col[b->ncols++] = (imb_col_t)c;
    }
    if (b->table && (!(seen & (1 << IC_NAME)) || !(seen & (1 << IC_PROCS))))
        return sc_error_at(r->where, r->line,
                           "a table without #Benchmarking and #procs columns; expected "
                           "'#Benchmarking #procs #bytes #repetitions ...'");
    if (!b->table && (seen & (1 << IC_NAME) || seen & (1 << IC_PROCS)))
        return sc_error_at(r->where, r->line,
                           "#Benchmarking or #procs column inside a '# Benchmarking' "
                           "block; expected '#bytes #repetitions ...'");
    b->columns_line = r->line;
    return SC_OK;
}

/* Whether the columns hold what a benchmark of b->kind gives. */
static sc_err_t imb_check_columns(sc_meas_reader_t *r, const imb_state_t *b, int line)
{
    int seen = 0;
    for (int i = 0; i < b->ncols; i++)
        seen |= 1 << b->col[i];
    const char *expected = NULL;
    switch (b->kind) {
    case SC_MEASURE_LATENCY:
    case SC_MEASURE_PINGPING:
        if (!(seen & (1 << IC_BYTES)) || !(seen & (1 << IC_T)))
            expected = "'#bytes #repetitions t[usec] Mbytes/sec'";
        break;
    case SC_MEASURE_BANDWIDTH:
    case SC_MEASURE_BIBANDWIDTH:
        if (!(seen & (1 << IC_BYTES)) || !(seen & (1 << IC_MBPS)))
            expected = "'#bytes #repetitions Mbytes/sec Msg/sec'";
        break;
    default:
        if (strcmp(b->collective, "barrier") == 0
                ? !(seen & (1 << IC_TAVG))
                : !(seen & (1 << IC_TAVG)) || !(seen & (1 << IC_BYTES)))
            expected = strcmp(b->collective, "barrier") == 0
                           ? "'#repetitions t_min[usec] t_max[usec] t_avg[usec]'"
                           : "'#bytes #repetitions t_min[usec] t_max[usec] t_avg[usec]'";
    }
    if (expected)
        return sc_error_at(r->where, line,
                           "the columns on line %d do not hold what %s measures; expected %s",
                           b->columns_line, b->name, expected);
    return SC_OK;
}

static sc_err_t imb_open(sc_meas_reader_t *r, const imb_state_t *b, const char *header)
{
    char source[256];
    snprintf(source, sizeof source, "%s%s%s", b->title[0] ? b->title : "IMB-MPI1",
             b->title[0] ? ": " : " ", b->name);
    /* Uniband and Biband run np/2 pairs at once and print their total. */
    int pairs = b->kind == SC_MEASURE_BANDWIDTH || b->kind == SC_MEASURE_BIBANDWIDTH
                    ? (b->np >= 4 ? b->np / 2 : 0)
                    : 0;
    return sc_meas_series_open(r, header, (sc_measure_kind_t)b->kind, source, b->collective, b->np,
                               pairs);
}

/* Mbytes/sec in IMB 2018 and later is 1e6 bytes/s; IMB 3.x divided by
 * 2^20. Uniband and Biband print the message rate too, and IMB computes
 * Mbytes/sec as MEGA * Msg/sec * bytes: the most precisely printed row
 * tells which MEGA the file used. Without such a row, 1e6. */
static sc_err_t imb_scale_bandwidth(sc_meas_reader_t *r, sc_series_t *s)
{
    double best = 0.01, mega = 1e6;
    for (int i = 0; i < s->npoints; i++) {
        const sc_point_t *p = &s->points[i];
        if (p->bytes == 0 || !(p->value > 0) || !(p->value2 > 0))
            continue;
        double rounding = 0.005 / p->value + 0.5 / p->value2;
        if (rounding < best) {
            best = rounding;
            double ratio = p->value / (p->value2 * (double)p->bytes);
            mega = fabs(ratio * 1048576.0 - 1) < fabs(ratio * 1e6 - 1) ? 1048576.0 : 1e6;
        }
    }
    for (int i = 0; i < s->npoints; i++) {
        s->points[i].value *= mega;
        if (!isfinite(s->points[i].value))
            return sc_error_at(r->where, s->points[i].line,
                               "Mbytes/sec is too large; expected a number "
                               "below %g",
                               DBL_MAX / mega);
    }
    return SC_OK;
}

static sc_err_t imb_close_series(sc_meas_reader_t *r)
{
    int open = r->open;
    sc_err_t err = sc_meas_series_close(r, "rows of the sizes and times its column header names");
    if (!err && open >= 0 &&
        (r->series[open].kind == SC_MEASURE_BANDWIDTH ||
         r->series[open].kind == SC_MEASURE_BIBANDWIDTH))
        err = imb_scale_bandwidth(r, &r->series[open]);
    return err;
}

/* Ends the block: a benchmark simcoll reads must have had data. */
static sc_err_t imb_close_block(sc_meas_reader_t *r, imb_state_t *b)
{
    if (b->active && !b->skip && r->open < 0)
        return sc_error_at(r->where, b->line,
                           "'# Benchmarking %s' is followed by no %s; expected a column "
                           "header and rows",
                           b->name, b->ncols ? "data" : "column header");
    b->active = 0;
    return imb_close_series(r);
}

/* A sample IMB did not measure: "4194304 time-out.; Time limit ...". */
static int imb_failed_sample(char **field, int n)
{
    for (int i = 1; i < n && i < 4; i++)
        if (sc_meas_starts_with(field[i], "time-out") ||
            sc_meas_starts_with(field[i], "out-of-mem") ||
            sc_meas_starts_with(field[i], "int-overflow"))
            return 1;
    return 0;
}

static sc_err_t imb_row(sc_meas_reader_t *r, char *s, imb_state_t *b)
{
    char *field[SC_MEAS_MAX_FIELDS + 1], shown[80], copy[SC_MEAS_LINE_MAX + 1];
    snprintf(copy, sizeof copy, "%s", s);
    int n = sc_meas_split(s, field);
    if (n > 1 && n <= SC_MEAS_MAX_FIELDS && imb_failed_sample(field, n))
        return SC_OK;
    sc_err_t err = sc_meas_row_width(r, copy, n, b->ncols, b->columns_line);
    if (err)
        return err;
    if (b->table) {
        /* One row of the table: a new series when the benchmark or the
         * process count changes. */
        int np = 0;
        const char *name = "";
        for (int i = 0; i < n && !err; i++) {
            if (b->col[i] == IC_NAME)
                name = field[i];
            else if (b->col[i] == IC_PROCS)
                err = sc_meas_get_count(r, "#procs", field[i], &np);
        }
        if (err)
            return err;
        const char *collective = NULL;
        int kind = imb_lookup(name, &collective);
        if (kind == IMB_SKIP) {
            imb_note_skipped(b, sc_meas_show(name, shown, sizeof shown));
            return SC_OK;
        }
        if (r->open < 0 || strcmp(name, b->name) != 0 || np != b->np) {
            if ((err = imb_close_series(r)))
                return err;
            sc_meas_show(name, b->name, sizeof b->name);
            b->kind = kind;
            b->collective = collective;
            b->np = np;
            if ((err = imb_check_columns(r, b, r->line)) || (err = imb_open(r, b, copy)))
                return err;
        }
    }
    size_t bytes = 0, reps;
    double t = NAN, tmax = NAN, tavg = NAN, mbps = NAN, rate = NAN, x;
    for (int i = 0; i < n && !err; i++) {
        const char *name = imb_col_name[b->col[i]];
        switch (b->col[i]) {
        case IC_BYTES: err = sc_meas_get_size(r, name, field[i], &bytes); break;
        case IC_REPS: err = sc_meas_get_size(r, name, field[i], &reps); break;
        case IC_T: err = sc_meas_scaled(r, name, field[i], 1e-6, &t); break;
        case IC_TMAX: err = sc_meas_scaled(r, name, field[i], 1e-6, &tmax); break;
        case IC_TAVG: err = sc_meas_scaled(r, name, field[i], 1e-6, &tavg); break;
        case IC_MBPS: err = sc_meas_get_real(r, name, field[i], &mbps); break;
        case IC_RATE: err = sc_meas_get_real(r, name, field[i], &rate); break;
        case IC_TMIN:
        case IC_DEFECTS: err = sc_meas_get_real(r, name, field[i], &x); break;
        case IC_NAME:
        case IC_PROCS: break;
        }
    }
    if (err)
        return err;
    switch (b->kind) {
    case SC_MEASURE_LATENCY:
    case SC_MEASURE_PINGPING: return sc_meas_point_add(r, bytes, t, NAN);
    case SC_MEASURE_BANDWIDTH:
    case SC_MEASURE_BIBANDWIDTH:
        return sc_meas_point_add(r, bytes, mbps, rate); /* scaled at the end */
    default: return sc_meas_point_add(r, bytes, tavg, tmax);
    }
}

/* A line that is no comment: a row of the block or of the table. */
static sc_err_t imb_data_line(sc_meas_reader_t *r, char *s, imb_state_t *b)
{
    char shown[80];
    if (b->table || (b->active && !b->skip && b->ncols))
        return imb_row(r, s, b);
    if (!b->active)
        return sc_error_at(r->where, r->line,
                           "'%s' is outside any benchmark block; expected '# Benchmarking "
                           "NAME', '# #processes = N' and a column header before rows",
                           sc_meas_show(s, shown, sizeof shown));
    if (!b->skip)
        return sc_error_at(r->where, r->line,
                           "'%s' comes before the column header of '# Benchmarking %s' (line "
                           "%d); expected '#bytes #repetitions ...'",
                           sc_meas_show(s, shown, sizeof shown), b->name, b->line);
    return SC_OK;
}

/* "#bytes #repetitions ..." (or "#repetitions ..." of a Barrier): the
 * block's column header, which opens its series. */
static sc_err_t imb_block_columns(sc_meas_reader_t *r, const char *s, imb_state_t *b)
{
    char shown[80];
    sc_err_t err;
    if (!b->active)
        return sc_error_at(r->where, r->line,
                           "column header '%s' outside any benchmark block; expected "
                           "'# Benchmarking NAME' before it",
                           sc_meas_show(s, shown, sizeof shown));
    if (b->skip)
        return SC_OK;
    if (b->ncols)
        return sc_error_at(r->where, r->line,
                           "a second column header in '# Benchmarking %s' "
                           "(line %d); expected rows",
                           b->name, b->line);
    if (!b->np)
        return sc_error_at(r->where, r->line,
                           "'# Benchmarking %s' (line %d) has no process "
                           "count; expected '# #processes = N' before its columns",
                           b->name, b->line);
    if ((err = imb_columns(r, s, b)) || (err = imb_check_columns(r, b, r->line)))
        return err;
    return imb_open(r, b, s);
}

/* "# Benchmarking NAME" (body is the line after '#', trimmed): ends the
 * block before and starts one, skipped if simcoll does not read NAME. */
static sc_err_t imb_block(sc_meas_reader_t *r, char *body, imb_state_t *b)
{
    char shown[80];
    sc_err_t err = imb_close_block(r, b);
    if (err)
        return err;
    char *field[SC_MEAS_MAX_FIELDS + 1];
    int n = sc_meas_split(body, field);
    const char *name = n > 1 ? field[1] : "";
    if (sc_meas_starts_with(name, "Multi-"))
        return sc_error_at(r->where, r->line,
                           "'# Benchmarking %s' is IMB -multi output; expected a run without "
                           "-multi",
                           sc_meas_show(name, shown, sizeof shown));
    if (n != 2 || strlen(name) >= sizeof b->name)
        return sc_error_at(r->where, r->line,
                           "'# Benchmarking %s%s' is not one benchmark name of up to %d "
                           "characters; expected '# Benchmarking NAME'",
                           sc_meas_show(name, shown, sizeof shown), n > 2 ? " ..." : "",
                           (int)sizeof b->name - 1);
    b->active = 1;
    b->table = 0;
    b->line = r->line;
    b->np = 0;
    b->ncols = 0;
    b->kind = imb_lookup(name, &b->collective);
    b->skip = b->kind == IMB_SKIP;
    sc_meas_show(name, b->name, sizeof b->name); /* printable, for messages */
    if (b->skip)
        imb_note_skipped(b, b->name);
    return SC_OK;
}

/* "# #processes = 8", "# #processes = 4; rank order (rowwise):" (s the
 * line, body after its '#'), before the block's columns. */
static sc_err_t imb_processes(sc_meas_reader_t *r, const char *s, const char *body, imb_state_t *b)
{
    char shown[80];
    if (!b->active || b->ncols)
        return SC_OK;
    const char *p = body + strlen("#processes");
    while (isspace((unsigned char)*p))
        p++;
    char num[32];
    size_t n = *p == '=' ? strspn(p + 1 + strspn(p + 1, " \t"), "0123456789") : 0;
    if (n == 0 || n >= sizeof num)
        return sc_error_at(r->where, r->line,
                           "'%s' has no process count; expected "
                           "'# #processes = N'",
                           sc_meas_show(s, shown, sizeof shown));
    p += 1 + strspn(p + 1, " \t");
    snprintf(num, sizeof num, "%.*s", (int)n, p);
    return sc_meas_get_count(r, "#processes", num, &b->np);
}

sc_err_t sc_meas_imb_parse(sc_meas_reader_t *r)
{
    imb_state_t b;
    memset(&b, 0, sizeof b);
    char shown[80];
    sc_err_t err = SC_OK;
    sc_meas_rewind(r);
    char *s;
    while (!err && (s = sc_meas_next_text(r, &err))) {
        if (*s != '#') {
            err = imb_data_line(r, s, &b);
        } else if (sc_meas_starts_with(s, "#Benchmarking")) { /* the table layout */
            if (!(err = imb_close_block(r, &b))) {
                b.table = 1;
                err = imb_columns(r, s, &b);
            }
        } else if (sc_meas_starts_with(s, "#bytes") || sc_meas_starts_with(s, "#repetitions")) {
            err = imb_block_columns(r, s, &b);
        } else {
            char *body = sc_meas_trim(s + 1);
            if (sc_meas_starts_with(body, "Benchmarking") && isspace((unsigned char)body[12]))
                err = imb_block(r, body, &b);
            else if (sc_meas_starts_with(body, "#processes"))
                err = imb_processes(r, s, body, &b);
            else if (strstr(body, "Intel") && strstr(body, "MPI Benchmark"))
                snprintf(b.title, sizeof b.title, "%s", sc_meas_show(body, shown, sizeof shown));
        }
    }
    if (!err)
        err = imb_close_block(r, &b);
    if (!err && r->nseries == 0)
        err = sc_error_at(r->where, 0,
                          "no benchmark simcoll reads%s%s%s; expected PingPong, PingPing, "
                          "Uniband, Biband or a collective (Bcast, Barrier, Allreduce, ...)",
                          b.skipped[0] ? " (only " : "", b.skipped, b.skipped[0] ? ")" : "");
    return err;
}

int sc_meas_imb_marker(const char *s)
{
    if (sc_meas_starts_with(s, "#Benchmarking"))
        return 1;
    s++;
    while (isspace((unsigned char)*s))
        s++;
    return (sc_meas_starts_with(s, "Benchmarking") && isspace((unsigned char)s[12])) ||
           (strstr(s, "Intel") && strstr(s, "MPI Benchmark"));
}
