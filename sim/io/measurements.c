/* Reading benchmark output (OSU, IMB, NetPIPE, SimGrid calibration CSVs)
 * into measured series. SPDX-License-Identifier: GPL-2.0-or-later */
#include "measurements.h"

#include <ctype.h>
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/sc_units.h"
#include "files.h"
#include "models/params.h"

/* Benchmark output is a few hundred kilobytes; calibration CSVs of many
 * repetitions reach tens of megabytes. */
#define SC_MEASURE_MAX_BYTES ((size_t)256 << 20)
/* Longer lines are not benchmark output: refused, never cut. */
#define LINE_MAX_CHARS 4096
/* More fields than any format has (OMB 7 with every option prints 10). */
#define MAX_FIELDS 24

/* ------------------------------------------------------------------ */
/* Lines, messages, series                                            */

typedef struct {
    char where[1200]; /* "OPTION 'FILE'", the start of every message */
    const char *name; /* the file, for the series */
    const char *text, *at, *end;
    int line; /* number of the line in buf */
    char buf[LINE_MAX_CHARS + 1];
    sc_series_t *series;
    int nseries, cap;
    int open;           /* the series being filled, -1 if none */
    int open_line;      /* where its header is */
    char open_text[96]; /* and what it says, for "no data" messages */
} reader_t;

/* Up to 60 characters of s, control and non-ASCII bytes shown as '?', so
 * that a message stays one readable line whatever the input. */
static const char *show(const char *s, char *out, size_t size)
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

static sc_err_t out_of_memory(const reader_t *r)
{
    return sc_error(SC_ERR_RUN, "%s: out of memory reading it", r->where);
}

static void reader_rewind(reader_t *r)
{
    r->at = r->text;
    r->line = 0;
    /* A UTF-8 byte order mark is not part of the first line. */
    if (r->end - r->at >= 3 && memcmp(r->at, "\xEF\xBB\xBF", 3) == 0)
        r->at += 3;
}

/* The next line into r->buf, without its end of line: 1, or 0 at the end
 * of the text, or -1 with the error in *err. */
static int next_line(reader_t *r, sc_err_t *err)
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
    if (n > LINE_MAX_CHARS) {
        *err = sc_error_at(r->where, r->line, "a line of %zu characters; expected at most %d", n,
                           LINE_MAX_CHARS);
        return -1;
    }
    memcpy(r->buf, start, n);
    r->buf[n] = '\0';
    return 1;
}

/* s without leading and trailing white space (in place). */
static char *trim(char *s)
{
    while (isspace((unsigned char)*s))
        s++;
    size_t n = strlen(s);
    while (n > 0 && isspace((unsigned char)s[n - 1]))
        s[--n] = '\0';
    return s;
}

/* Splits s at white space (in place): the number of fields; only the
 * first MAX_FIELDS are stored. */
static int split(char *s, char **field)
{
    int n = 0;
    for (;;) {
        while (isspace((unsigned char)*s))
            s++;
        if (!*s)
            return n;
        if (n < MAX_FIELDS)
            field[n] = s;
        n++;
        while (*s && !isspace((unsigned char)*s))
            s++;
        if (*s)
            *s++ = '\0';
    }
}

static int starts_with(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* Fails if the series being filled has no point: a header without data. */
static sc_err_t series_close(reader_t *r, const char *expected)
{
    int open = r->open;
    r->open = -1;
    if (open >= 0 && r->series[open].npoints == 0)
        return sc_error_at(r->where, r->open_line, "'%s' is followed by no data; expected %s",
                           r->open_text, expected);
    return SC_OK;
}

/* Starts a series; `header` (the line that announced it, for messages). */
static sc_err_t series_open(reader_t *r, const char *header, sc_measure_kind_t kind,
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
    show(header, r->open_text, sizeof r->open_text);
    return SC_OK;
}

/* Adds a point of the current line to the open series. Every value is
 * finite and non-negative (value2 may be NAN): what overflowed in a unit
 * conversion is refused here. */
static sc_err_t point_add(reader_t *r, size_t bytes, double value, double value2)
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

/* ------------------------------------------------------------------ */
/* Numbers                                                            */

typedef enum { NUM_OK, NUM_SYNTAX, NUM_NEGATIVE, NUM_NONFINITE, NUM_RANGE } num_t;

/* A decimal number as benchmarks print it: optional sign, digits with an
 * optional fraction, optional exponent. Hexadecimal floats are refused;
 * nan and inf are recognized so that the message can name them. */
static num_t parse_real(const char *s, double *v)
{
    const char *p = s;
    int negative = 0, digits = 0, nonzero = 0;
    if (*p == '+' || *p == '-')
        negative = *p++ == '-';
    if (strcasecmp(p, "nan") == 0 || strcasecmp(p, "inf") == 0 || strcasecmp(p, "infinity") == 0)
        return NUM_NONFINITE;
    for (; isdigit((unsigned char)*p); p++, digits++)
        nonzero |= *p != '0';
    if (*p == '.')
        for (p++; isdigit((unsigned char)*p); p++, digits++)
            nonzero |= *p != '0';
    if (!digits)
        return NUM_SYNTAX;
    if (*p == 'e' || *p == 'E') {
        p++;
        if (*p == '+' || *p == '-')
            p++;
        if (!isdigit((unsigned char)*p))
            return NUM_SYNTAX;
        while (isdigit((unsigned char)*p))
            p++;
    }
    if (*p)
        return NUM_SYNTAX;
    if (negative && nonzero)
        return NUM_NEGATIVE;
    double x = strtod(s, NULL);
    if (!isfinite(x))
        return NUM_NONFINITE;
    *v = x == 0 ? 0.0 : fabs(x); /* no -0 */
    return NUM_OK;
}

/* A whole, non-negative number that fits size_t. */
static num_t parse_size(const char *s, size_t *v)
{
    const char *p = s;
    int negative = *p == '-';
    if (*p == '-' || *p == '+')
        p++;
    if (!*p)
        return NUM_SYNTAX;
    size_t x = 0;
    int range = 0, nonzero = 0;
    for (; *p; p++) {
        if (!isdigit((unsigned char)*p))
            return NUM_SYNTAX;
        unsigned d = (unsigned)(*p - '0');
        nonzero |= d != 0;
        if (x > (SIZE_MAX - d) / 10)
            range = 1;
        else
            x = 10 * x + d;
    }
    if (negative && nonzero)
        return NUM_NEGATIVE;
    if (range)
        return NUM_RANGE;
    *v = x;
    return NUM_OK;
}

/* The message for a field `tok` of column `what` that did not parse. */
static sc_err_t bad_number(const reader_t *r, num_t why, const char *what, const char *tok,
                           int whole)
{
    char shown[80];
    show(tok, shown, sizeof shown);
    switch (why) {
    case NUM_NEGATIVE:
        return sc_error_at(r->where, r->line, "%s '%s' is negative; expected a number >= 0", what,
                           shown);
    case NUM_NONFINITE:
        return sc_error_at(r->where, r->line,
                           "%s '%s' is not a finite number; expected a number >= 0", what, shown);
    case NUM_RANGE:
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

static sc_err_t get_real(const reader_t *r, const char *what, const char *tok, double *v)
{
    num_t why = parse_real(tok, v);
    return why == NUM_OK ? SC_OK : bad_number(r, why, what, tok, 0);
}

static sc_err_t get_size(const reader_t *r, const char *what, const char *tok, size_t *v)
{
    num_t why = parse_size(tok, v);
    return why == NUM_OK ? SC_OK : bad_number(r, why, what, tok, 1);
}

/* A count of processes or pairs: 1 to INT_MAX. */
static sc_err_t get_count(const reader_t *r, const char *what, const char *tok, int *v)
{
    size_t x;
    num_t why = parse_size(tok, &x);
    if (why == NUM_OK && (x == 0 || x > INT_MAX)) {
        char shown[80];
        return sc_error_at(r->where, r->line, "%s '%s' is out of range; expected 1 to %d", what,
                           show(tok, shown, sizeof shown), INT_MAX);
    }
    if (why != NUM_OK)
        return bad_number(r, why, what, tok, 1);
    *v = (int)x;
    return SC_OK;
}

/* value * factor, refused if it overflows. */
static sc_err_t scaled(const reader_t *r, const char *what, const char *tok, double factor,
                       double *v)
{
    sc_err_t err = get_real(r, what, tok, v);
    if (err)
        return err;
    *v *= factor;
    if (!isfinite(*v)) {
        char shown[80];
        return sc_error_at(r->where, r->line, "%s '%s' is too large; expected a number below %g",
                           what, show(tok, shown, sizeof shown), DBL_MAX / factor);
    }
    return SC_OK;
}

/* ------------------------------------------------------------------ */
/* Which format: the first header that names a benchmark, else the first
 * line that is not a comment. */

static const char *const format_expected[] = {
    [SC_MEASURE_FORMAT_AUTO] =
        ("the output of osu_* ('# OSU MPI ... Test'), IMB-MPI1 ('# Benchmarking NAME'), "
         "NetPIPE (np.out: 'bytes Mbps seconds'), SimGrid's platform calibration (CSV: "
         "'MPI_Send,size,start,duration') or simcoll-probe ('# simcoll-probe 1')"),
    [SC_MEASURE_FORMAT_OSU] = ("OSU micro-benchmarks output (a '# OSU MPI ... Test' header, "
                               "a column header, rows)"),
    [SC_MEASURE_FORMAT_IMB] = "Intel MPI Benchmarks output ('# Benchmarking NAME' blocks)",
    [SC_MEASURE_FORMAT_NETPIPE] = "NetPIPE np.out rows ('bytes Mbps seconds')",
    [SC_MEASURE_FORMAT_SMPI] =
        "SimGrid platform-calibration CSV rows ('MPI_Send,size,start,duration')",
    [SC_MEASURE_FORMAT_PROBE] =
        "simcoll-probe's file ('# simcoll-probe 1', then 'kind placement pairs bytes value' rows)",
};

static const char *const format_found[] = {
    [SC_MEASURE_FORMAT_AUTO] = "not output of a benchmark simcoll reads",
    [SC_MEASURE_FORMAT_OSU] = "an OSU micro-benchmarks header",
    [SC_MEASURE_FORMAT_IMB] = "Intel MPI Benchmarks output",
    [SC_MEASURE_FORMAT_NETPIPE] = "a NetPIPE np.out row",
    [SC_MEASURE_FORMAT_SMPI] = "a SimGrid calibration CSV row",
    [SC_MEASURE_FORMAT_PROBE] = "simcoll-probe's file",
};

/* s is a trimmed line starting with '#'. */
static int is_probe_header(const char *s)
{
    return starts_with(s, "# simcoll-probe ");
}

/* s is a trimmed line starting with '#'. */
static int is_osu_header(const char *s)
{
    s++;
    while (isspace((unsigned char)*s))
        s++;
    return starts_with(s, "OSU ");
}

static int is_imb_marker(const char *s)
{
    if (starts_with(s, "#Benchmarking"))
        return 1;
    s++;
    while (isspace((unsigned char)*s))
        s++;
    return (starts_with(s, "Benchmarking") && isspace((unsigned char)s[12])) ||
           (strstr(s, "Intel") && strstr(s, "MPI Benchmark"));
}

static int netpipe_consistent(const char *mbps_tok, size_t bytes, double mbps, const char *t_tok,
                              double t);

/* A NetPIPE row: three numbers, the second the bandwidth of the first two. */
static int is_netpipe_row(char *line)
{
    char *field[MAX_FIELDS + 1];
    size_t bytes;
    double mbps, t;
    return split(line, field) == 3 && parse_size(field[0], &bytes) == NUM_OK &&
           parse_real(field[1], &mbps) == NUM_OK && parse_real(field[2], &t) == NUM_OK &&
           netpipe_consistent(field[1], bytes, mbps, field[2], t);
}

static int is_smpi_row(const char *line)
{
    int commas = 0;
    for (const char *p = line; *p; p++)
        commas += *p == ',';
    if (commas != 3)
        return 0;
    char op[32];
    size_t n = strcspn(line, ",");
    if (n >= sizeof op)
        return 0;
    memcpy(op, line, n);
    op[n] = '\0';
    char *o = trim(op);
    return starts_with(o, "MPI_") || strcasecmp(o, "Op") == 0;
}

/* The format of the text, and the line that shows it (*line 0 and
 * SC_MEASURE_FORMAT_AUTO for a text without one). */
static sc_err_t detect(reader_t *r, sc_measure_format_t *format, int *line, char *text, size_t size)
{
    *format = SC_MEASURE_FORMAT_AUTO;
    *line = 0;
    text[0] = '\0';
    sc_measure_format_t first = SC_MEASURE_FORMAT_AUTO;
    int first_line = 0;
    char first_text[96] = "";
    sc_err_t err = SC_OK;
    reader_rewind(r);
    while (next_line(r, &err) > 0) {
        char *s = trim(r->buf);
        if (*s == '#') {
            sc_measure_format_t f = is_osu_header(s)     ? SC_MEASURE_FORMAT_OSU
                                    : is_imb_marker(s)   ? SC_MEASURE_FORMAT_IMB
                                    : is_probe_header(s) ? SC_MEASURE_FORMAT_PROBE
                                                         : SC_MEASURE_FORMAT_AUTO;
            if (f != SC_MEASURE_FORMAT_AUTO) {
                *format = f;
                *line = r->line;
                show(s, text, size);
                return SC_OK;
            }
        } else if (*s && !first_line) {
            first_line = r->line;
            show(s, first_text, sizeof first_text);
            first = is_smpi_row(s)      ? SC_MEASURE_FORMAT_SMPI
                    : is_netpipe_row(s) ? SC_MEASURE_FORMAT_NETPIPE
                                        : SC_MEASURE_FORMAT_AUTO;
        }
    }
    if (err)
        return err;
    *format = first;
    *line = first_line;
    snprintf(text, size, "%s", first_text);
    return SC_OK;
}

/* ------------------------------------------------------------------ */
/* OSU micro-benchmarks 3.x to 7.x: "# OSU MPI[-VARIANT] NAME Test vX.Y",
 * optional comment lines ("# Datatype: MPI_CHAR.", "# [ pairs: 4 ] [
 * window size: 64 ]"), a column header, rows. OMB 7 repeats the column
 * header for each datatype of -T: each is a series of its own. */

static const struct {
    const char *name; /* as the header names the test, without "OSU MPI" */
    sc_measure_kind_t kind;
    const char *collective;
} osu_tests[] = {
    {"Latency Test", SC_MEASURE_LATENCY, NULL},
    {"Bandwidth Test", SC_MEASURE_BANDWIDTH, NULL},
    {"Bi-Directional Bandwidth Test", SC_MEASURE_BIBANDWIDTH, NULL},
    {"Multiple Bandwidth / Message Rate Test", SC_MEASURE_MESSAGE_RATE, NULL},
    {"Broadcast Latency Test", SC_MEASURE_COLLECTIVE, "bcast"},
    {"Barrier Latency Test", SC_MEASURE_COLLECTIVE, "barrier"},
    {"Allgather Latency Test", SC_MEASURE_COLLECTIVE, "allgather"},
    {"Allgatherv Latency Test", SC_MEASURE_COLLECTIVE, "allgatherv"},
    {"Allreduce Latency Test", SC_MEASURE_COLLECTIVE, "allreduce"},
    {"Reduce Latency Test", SC_MEASURE_COLLECTIVE, "reduce"},
    {"Reduce_scatter Latency Test", SC_MEASURE_COLLECTIVE, "reduce_scatter"},
    {"Reduce_scatter_block Latency Test", SC_MEASURE_COLLECTIVE, "reduce_scatter_block"},
    {"Gather Latency Test", SC_MEASURE_COLLECTIVE, "gather"},
    {"Gatherv Latency Test", SC_MEASURE_COLLECTIVE, "gatherv"},
    {"Scatter Latency Test", SC_MEASURE_COLLECTIVE, "scatter"},
    {"Scatterv Latency Test", SC_MEASURE_COLLECTIVE, "scatterv"},
    {"All-to-All Personalized Exchange Latency Test", SC_MEASURE_COLLECTIVE, "alltoall"},
    {"All-to-Allv Personalized Exchange Latency Test", SC_MEASURE_COLLECTIVE, "alltoallv"},
    {"All-to-Allw Personalized Exchange Latency Test", SC_MEASURE_COLLECTIVE, "alltoallw"},
};

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
    osu_col_t col[MAX_FIELDS];
    int ncols;
    int columns_line;
} osu_test_t;

/* Recognizes the test of a "# OSU ..." header line s. */
static sc_err_t osu_header(reader_t *r, const char *s, osu_test_t *t)
{
    char shown[80], body[LINE_MAX_CHARS + 1];
    snprintf(body, sizeof body, "%s", s + 1);
    char *b = trim(body);
    snprintf(t->source, sizeof t->source, "%s", b);
    b = trim(b + strlen("OSU "));
    /* the version, if any, is the last word: "v5.6.2" */
    char *last = strrchr(b, ' ');
    if (last && last[1] == 'v' && isdigit((unsigned char)last[2]))
        *last = '\0';
    b = trim(b);
    /* b is "MPI[-VARIANT[ MANAGED]] NAME Test" */
    int best = -1;
    size_t blen = strlen(b), best_len = 0;
    for (size_t i = 0; i < sizeof osu_tests / sizeof osu_tests[0]; i++) {
        size_t n = strlen(osu_tests[i].name);
        if (n < blen && b[blen - n - 1] == ' ' && strcmp(b + blen - n, osu_tests[i].name) == 0 &&
            n > best_len) {
            best = (int)i;
            best_len = n;
        }
    }
    /* What comes before the name must be "MPI" and an accelerator variant
     * ("-CUDA", "-ROCM", "-CUDA MANAGED"); anything else ("MPI Multi",
     * "MPI Non-blocking", "MPI_Put") is another test. */
    int ok = best >= 0 && starts_with(b, "MPI");
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
            show(s, shown, sizeof shown));
    t->kind = osu_tests[best].kind;
    t->collective = osu_tests[best].collective;
    t->pairs = 0;
    t->line = r->line;
    t->ncols = 0;
    return SC_OK;
}

/* "# [ pairs: 4 ] [ window size: 64 ]" (osu_mbw_mr). */
static sc_err_t osu_pairs(reader_t *r, const char *s, osu_test_t *t)
{
    char shown[80];
    const char *p = strstr(s, "pairs:"), *w = strstr(s, "window size:");
    if (w) {
        w += strlen("window size:");
        while (isspace((unsigned char)*w))
            w++;
        if (starts_with(w, "varied"))
            return sc_error_at(
                r->where, r->line,
                "'%s': osu_mbw_mr -vw prints a table of window sizes; expected a run "
                "with one window size",
                show(s, shown, sizeof shown));
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
                           show(s, shown, sizeof shown));
    return get_count(r, "pairs", num, &t->pairs);
}

/* A column header: 0 if s is no column header, 1 if it is one, -1 with
 * *err if it names a column simcoll does not know. */
static int osu_columns(reader_t *r, const char *s, osu_test_t *t, sc_err_t *err)
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
                               show(word, shown, sizeof shown));
            return -1;
        }
        if (seen & (1 << col) && col != OC_TAIL) {
            *err = sc_error_at(r->where, r->line, "column '%s' appears twice; expected it once",
                               osu_col_name[col]);
            return -1;
        }
        if (t->ncols == MAX_FIELDS) {
            *err = sc_error_at(r->where, r->line, "more than %d columns", MAX_FIELDS);
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
                           show(s, shown, sizeof shown), problem, expected);
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

static sc_err_t osu_row(reader_t *r, char *s, const osu_test_t *t)
{
    char *field[MAX_FIELDS + 1], shown[80];
    char copy[LINE_MAX_CHARS + 1];
    snprintf(copy, sizeof copy, "%s", s);
    int n = split(s, field);
    if (n != t->ncols)
        return sc_error_at(r->where, r->line,
                           "'%s' has %d fields; expected %d, as the column header on line %d says",
                           show(copy, shown, sizeof shown), n, t->ncols, t->columns_line);
    size_t bytes = 0, count;
    double value = NAN, max = NAN, rate = NAN, x;
    sc_err_t err = SC_OK;
    for (int i = 0; i < n && !err; i++) {
        const char *name = osu_col_name[t->col[i]];
        switch (t->col[i]) {
        case OC_SIZE: err = get_size(r, name, field[i], &bytes); break;
        case OC_AVG: err = scaled(r, name, field[i], 1e-6, &value); break;
        case OC_MAX: err = scaled(r, name, field[i], 1e-6, &max); break;
        case OC_MBPS: err = scaled(r, name, field[i], 1e6, &value); break;
        case OC_RATE: err = get_real(r, name, field[i], &rate); break;
        case OC_MIN:
        case OC_TAIL: err = get_real(r, name, field[i], &x); break;
        case OC_ITER:
        case OC_XMIT: err = get_size(r, name, field[i], &count); break;
        case OC_VALID:
            if (strcasecmp(field[i], "Pass") != 0)
                err = sc_error_at(r->where, r->line,
                                  "Validation '%s': OSU found wrong data at this size; expected "
                                  "'Pass'",
                                  show(field[i], shown, sizeof shown));
            break;
        }
    }
    if (err)
        return err;
    double value2 = t->kind == SC_MEASURE_COLLECTIVE     ? max
                    : t->kind == SC_MEASURE_MESSAGE_RATE ? rate
                                                         : NAN;
    return point_add(r, bytes, value, value2);
}

static sc_err_t parse_osu(reader_t *r)
{
    enum { NONE, HEADER, COLUMNS } state = NONE;
    osu_test_t t;
    memset(&t, 0, sizeof t);
    char shown[80];
    static const char no_data[] = "rows of the sizes and values its column header names";
    sc_err_t err = SC_OK;
    reader_rewind(r);
    while (!err && next_line(r, &err) > 0) {
        char *s = trim(r->buf);
        if (!*s)
            continue;
        if (*s == '#') {
            if (is_osu_header(s)) {
                if (state == HEADER)
                    return sc_error_at(r->where, t.line,
                                       "'%s' is followed by no column header and no "
                                       "data; expected '# Size ...' and rows",
                                       show(t.source, shown, sizeof shown));
                if ((err = series_close(r, no_data)) || (err = osu_header(r, s, &t)))
                    return err;
                state = HEADER;
            } else if (state != NONE && t.kind == SC_MEASURE_MESSAGE_RATE && strstr(s, "pairs:")) {
                err = osu_pairs(r, s, &t);
            } else if (state != NONE) {
                int is_columns = osu_columns(r, s, &t, &err);
                if (is_columns > 0 && !(err = series_close(r, no_data)))
                    err = series_open(r, s, t.kind, t.source, t.collective, 0, t.pairs);
                if (is_columns > 0)
                    state = COLUMNS;
            }
            continue;
        }
        if (state == NONE)
            return sc_error_at(r->where, r->line,
                               "'%s' comes before any OSU header; expected a '# OSU MPI ... Test' "
                               "line first",
                               show(s, shown, sizeof shown));
        if (state == HEADER)
            return sc_error_at(r->where, r->line,
                               "'%s' comes before the column header; expected a '# Size ...' line "
                               "after the header on line %d",
                               show(s, shown, sizeof shown), t.line);
        err = osu_row(r, s, &t);
    }
    if (err)
        return err;
    if (state == HEADER)
        return sc_error_at(r->where, t.line,
                           "'%s' is followed by no column header and no data; expected '# Size "
                           "...' and rows",
                           show(t.source, shown, sizeof shown));
    return series_close(r, no_data);
}

/* ------------------------------------------------------------------ */
/* Intel MPI Benchmarks (IMB-MPI1) 3.x to 2021: "# Benchmarking NAME",
 * "# #processes = N", a column header, rows; or one table of every
 * benchmark ("#Benchmarking #procs #bytes ...", a row per benchmark,
 * process count and size). */

enum { IMB_SKIP = -1 };

/* Benchmarks simcoll reads; others (Sendrecv, Exchange, Reduce_local and
 * those of IMB-EXT, -NBC, -RMA, -IO) are skipped. */
static const struct {
    const char *name;
    int kind; /* sc_measure_kind_t */
    const char *collective;
} imb_benchmarks[] = {
    {"PingPong", SC_MEASURE_LATENCY, NULL},
    {"PingPongSpecificSource", SC_MEASURE_LATENCY, NULL},
    {"PingPongAnySource", SC_MEASURE_LATENCY, NULL},
    {"PingPing", SC_MEASURE_PINGPING, NULL},
    {"PingPingSpecificSource", SC_MEASURE_PINGPING, NULL},
    {"PingPingAnySource", SC_MEASURE_PINGPING, NULL},
    {"Uniband", SC_MEASURE_BANDWIDTH, NULL},
    {"Biband", SC_MEASURE_BIBANDWIDTH, NULL},
    {"Bcast", SC_MEASURE_COLLECTIVE, "bcast"},
    {"Barrier", SC_MEASURE_COLLECTIVE, "barrier"},
    {"Allgather", SC_MEASURE_COLLECTIVE, "allgather"},
    {"Allgatherv", SC_MEASURE_COLLECTIVE, "allgatherv"},
    {"Allreduce", SC_MEASURE_COLLECTIVE, "allreduce"},
    {"Reduce", SC_MEASURE_COLLECTIVE, "reduce"},
    {"Reduce_scatter", SC_MEASURE_COLLECTIVE, "reduce_scatter"},
    {"Reduce_scatter_block", SC_MEASURE_COLLECTIVE, "reduce_scatter_block"},
    {"Gather", SC_MEASURE_COLLECTIVE, "gather"},
    {"Gatherv", SC_MEASURE_COLLECTIVE, "gatherv"},
    {"Scatter", SC_MEASURE_COLLECTIVE, "scatter"},
    {"Scatterv", SC_MEASURE_COLLECTIVE, "scatterv"},
    {"Alltoall", SC_MEASURE_COLLECTIVE, "alltoall"},
    {"Alltoallv", SC_MEASURE_COLLECTIVE, "alltoallv"},
};

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
    imb_col_t col[MAX_FIELDS];
    int ncols, columns_line;
    int table;         /* the one-table layout */
    char title[160];   /* "Intel(R) MPI Benchmarks 2019 Update 5, MPI-1 part" */
    char skipped[160]; /* benchmarks skipped, for the message of a file without points */
} imb_state_t;

static int imb_lookup(const char *name, const char **collective)
{
    for (size_t i = 0; i < sizeof imb_benchmarks / sizeof imb_benchmarks[0]; i++)
        if (strcmp(name, imb_benchmarks[i].name) == 0) {
            *collective = imb_benchmarks[i].collective;
            return imb_benchmarks[i].kind;
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
static sc_err_t imb_columns(reader_t *r, const char *s, imb_state_t *b)
{
    char *field[MAX_FIELDS + 1], shown[80], copy[LINE_MAX_CHARS + 1];
    snprintf(copy, sizeof copy, "%s", s);
    int n = split(copy, field), seen = 0;
    if (n > MAX_FIELDS)
        return sc_error_at(r->where, r->line, "more than %d columns", MAX_FIELDS);
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
                               show(field[i], shown, sizeof shown));
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
static sc_err_t imb_check_columns(reader_t *r, const imb_state_t *b, int line)
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

static sc_err_t imb_open(reader_t *r, const imb_state_t *b, const char *header)
{
    char source[256];
    snprintf(source, sizeof source, "%s%s%s", b->title[0] ? b->title : "IMB-MPI1",
             b->title[0] ? ": " : " ", b->name);
    /* Uniband and Biband run np/2 pairs at once and print their total. */
    int pairs = b->kind == SC_MEASURE_BANDWIDTH || b->kind == SC_MEASURE_BIBANDWIDTH
                    ? (b->np >= 4 ? b->np / 2 : 0)
                    : 0;
    return series_open(r, header, (sc_measure_kind_t)b->kind, source, b->collective, b->np,
                       pairs);
}

/* Mbytes/sec in IMB 2018 and later is 1e6 bytes/s; IMB 3.x divided by
 * 2^20. Uniband and Biband print the message rate too, and IMB computes
 * Mbytes/sec as MEGA * Msg/sec * bytes: the most precisely printed row
 * tells which MEGA the file used. Without such a row, 1e6. */
static sc_err_t imb_scale_bandwidth(reader_t *r, sc_series_t *s)
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

static sc_err_t imb_close_series(reader_t *r)
{
    int open = r->open;
    sc_err_t err = series_close(r, "rows of the sizes and times its column header names");
    if (!err && open >= 0 &&
        (r->series[open].kind == SC_MEASURE_BANDWIDTH ||
         r->series[open].kind == SC_MEASURE_BIBANDWIDTH))
        err = imb_scale_bandwidth(r, &r->series[open]);
    return err;
}

/* Ends the block: a benchmark simcoll reads must have had data. */
static sc_err_t imb_close_block(reader_t *r, imb_state_t *b)
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
        if (starts_with(field[i], "time-out") || starts_with(field[i], "out-of-mem") ||
            starts_with(field[i], "int-overflow"))
            return 1;
    return 0;
}

static sc_err_t imb_row(reader_t *r, char *s, imb_state_t *b)
{
    char *field[MAX_FIELDS + 1], shown[80], copy[LINE_MAX_CHARS + 1];
    snprintf(copy, sizeof copy, "%s", s);
    int n = split(s, field);
    if (n > 1 && n <= MAX_FIELDS && imb_failed_sample(field, n))
        return SC_OK;
    if (n != b->ncols)
        return sc_error_at(r->where, r->line,
                           "'%s' has %d fields; expected %d, as the column header on line %d says",
                           show(copy, shown, sizeof shown), n, b->ncols, b->columns_line);
    sc_err_t err = SC_OK;
    if (b->table) {
        /* One row of the table: a new series when the benchmark or the
         * process count changes. */
        int np = 0;
        const char *name = "";
        for (int i = 0; i < n && !err; i++) {
            if (b->col[i] == IC_NAME)
                name = field[i];
            else if (b->col[i] == IC_PROCS)
                err = get_count(r, "#procs", field[i], &np);
        }
        if (err)
            return err;
        const char *collective = NULL;
        int kind = imb_lookup(name, &collective);
        if (kind == IMB_SKIP) {
            imb_note_skipped(b, show(name, shown, sizeof shown));
            return SC_OK;
        }
        if (r->open < 0 || strcmp(name, b->name) != 0 || np != b->np) {
            if ((err = imb_close_series(r)))
                return err;
            show(name, b->name, sizeof b->name);
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
        case IC_BYTES: err = get_size(r, name, field[i], &bytes); break;
        case IC_REPS: err = get_size(r, name, field[i], &reps); break;
        case IC_T: err = scaled(r, name, field[i], 1e-6, &t); break;
        case IC_TMAX: err = scaled(r, name, field[i], 1e-6, &tmax); break;
        case IC_TAVG: err = scaled(r, name, field[i], 1e-6, &tavg); break;
        case IC_MBPS: err = get_real(r, name, field[i], &mbps); break;
        case IC_RATE: err = get_real(r, name, field[i], &rate); break;
        case IC_TMIN:
        case IC_DEFECTS: err = get_real(r, name, field[i], &x); break;
        case IC_NAME:
        case IC_PROCS: break;
        }
    }
    if (err)
        return err;
    switch (b->kind) {
    case SC_MEASURE_LATENCY:
    case SC_MEASURE_PINGPING: return point_add(r, bytes, t, NAN);
    case SC_MEASURE_BANDWIDTH:
    case SC_MEASURE_BIBANDWIDTH: return point_add(r, bytes, mbps, rate); /* scaled at the end */
    default: return point_add(r, bytes, tavg, tmax);
    }
}

static sc_err_t parse_imb(reader_t *r)
{
    imb_state_t b;
    memset(&b, 0, sizeof b);
    char shown[80], shown2[80];
    sc_err_t err = SC_OK;
    reader_rewind(r);
    while (!err && next_line(r, &err) > 0) {
        char *s = trim(r->buf);
        if (!*s)
            continue;
        if (*s != '#') {
            if (b.table || (b.active && !b.skip && b.ncols))
                err = imb_row(r, s, &b);
            else if (!b.active)
                err = sc_error_at(r->where, r->line,
                                  "'%s' is outside any benchmark block; expected '# Benchmarking "
                                  "NAME', '# #processes = N' and a column header before rows",
                                  show(s, shown, sizeof shown));
            else if (!b.skip)
                err =
                    sc_error_at(r->where, r->line,
                                "'%s' comes before the column header of '# Benchmarking %s' (line "
                                "%d); expected '#bytes #repetitions ...'",
                                show(s, shown, sizeof shown), b.name, b.line);
            continue;
        }
        if (starts_with(s, "#Benchmarking")) { /* the table layout */
            if ((err = imb_close_block(r, &b)))
                break;
            b.table = 1;
            err = imb_columns(r, s, &b);
            continue;
        }
        if (starts_with(s, "#bytes") || starts_with(s, "#repetitions")) {
            if (!b.active) {
                err = sc_error_at(r->where, r->line,
                                  "column header '%s' outside any benchmark block; expected "
                                  "'# Benchmarking NAME' before it",
                                  show(s, shown, sizeof shown));
            } else if (!b.skip) {
                if (b.ncols)
                    err = sc_error_at(r->where, r->line,
                                      "a second column header in '# Benchmarking %s' "
                                      "(line %d); expected rows",
                                      b.name, b.line);
                else if (!b.np)
                    err = sc_error_at(r->where, r->line,
                                      "'# Benchmarking %s' (line %d) has no process "
                                      "count; expected '# #processes = N' before its columns",
                                      b.name, b.line);
                else if (!(err = imb_columns(r, s, &b)) &&
                         !(err = imb_check_columns(r, &b, r->line)))
                    err = imb_open(r, &b, s);
            }
            continue;
        }
        char *body = trim(s + 1);
        if (starts_with(body, "Benchmarking") && isspace((unsigned char)body[12])) {
            if ((err = imb_close_block(r, &b)))
                break;
            char *field[MAX_FIELDS + 1];
            int n = split(body, field);
            const char *name = n > 1 ? field[1] : "";
            if (starts_with(name, "Multi-")) {
                err =
                    sc_error_at(r->where, r->line,
                                "'# Benchmarking %s' is IMB -multi output; expected a run without "
                                "-multi",
                                show(name, shown, sizeof shown));
                break;
            }
            if (n != 2 || strlen(name) >= sizeof b.name) {
                err = sc_error_at(r->where, r->line,
                                  "'# Benchmarking %s%s' is not one benchmark name of up to %d "
                                  "characters; expected '# Benchmarking NAME'",
                                  show(name, shown, sizeof shown), n > 2 ? " ..." : "",
                                  (int)sizeof b.name - 1);
                break;
            }
            b.active = 1;
            b.table = 0;
            b.line = r->line;
            b.np = 0;
            b.ncols = 0;
            b.kind = imb_lookup(name, &b.collective);
            b.skip = b.kind == IMB_SKIP;
            show(name, b.name, sizeof b.name); /* printable, for messages */
            if (b.skip)
                imb_note_skipped(&b, b.name);
        } else if (starts_with(body, "#processes")) {
            /* "# #processes = 8", "# #processes = 4; rank order (rowwise):" */
            if (b.active && !b.ncols) {
                char *p = body + strlen("#processes");
                while (isspace((unsigned char)*p))
                    p++;
                char num[32];
                size_t n = *p == '=' ? strspn(p + 1 + strspn(p + 1, " \t"), "0123456789") : 0;
                if (n == 0 || n >= sizeof num) {
                    err = sc_error_at(r->where, r->line,
                                      "'%s' has no process count; expected "
                                      "'# #processes = N'",
                                      show(s, shown, sizeof shown));
                    break;
                }
                p += 1 + strspn(p + 1, " \t");
                snprintf(num, sizeof num, "%.*s", (int)n, p);
                err = get_count(r, "#processes", num, &b.np);
            }
        } else if (strstr(body, "Intel") && strstr(body, "MPI Benchmark")) {
            snprintf(b.title, sizeof b.title, "%s", show(body, shown2, sizeof shown2));
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

/* ------------------------------------------------------------------ */
/* NetPIPE 3.x np.out: "%8d %lf %12.8lf", bytes, Mbps, one-way seconds,
 * where Mbps = 8 bytes / (seconds * 2^20). */

/* Half the last printed digit of tok: the rounding of a printed number. */
static double printed_rounding(const char *tok)
{
    const char *dot = strchr(tok, '.'), *e = strpbrk(tok, "eE");
    int decimals = 0;
    if (dot)
        for (const char *p = dot + 1; isdigit((unsigned char)*p); p++)
            decimals++;
    long exp10 = e ? strtol(e + 1, NULL, 10) : 0;
    if (exp10 > 400)
        exp10 = 400;
    if (exp10 < -400)
        exp10 = -400;
    return 0.5 * pow(10.0, (double)(exp10 - decimals));
}

/* Whether Mbps is 8 bytes / seconds in megabits (2^20 as NetPIPE 3 has it,
 * or 1e6), up to the rounding of the printed numbers. A check that three
 * numbers are NetPIPE's, not another benchmark's columns. */
static int netpipe_consistent(const char *mbps_tok, size_t bytes, double mbps, const char *t_tok,
                              double t)
{
    double dm = printed_rounding(mbps_tok), dt = printed_rounding(t_tok);
    double bits = 8.0 * (double)bytes;
    static const double megabit[] = {1048576.0, 1e6};
    for (int i = 0; i < 2; i++) {
        double lo = bits / ((t + dt) * megabit[i]);
        double hi = t - dt > 0 ? bits / ((t - dt) * megabit[i]) : INFINITY;
        if (bytes == 0)
            lo = hi = 0;
        if (mbps + dm >= lo * (1 - 1e-9) && mbps - dm <= hi * (1 + 1e-9))
            return 1;
    }
    return 0;
}

static sc_err_t parse_netpipe(reader_t *r)
{
    char *field[MAX_FIELDS + 1], shown[80], copy[LINE_MAX_CHARS + 1];
    sc_err_t err = SC_OK;
    reader_rewind(r);
    while (!err && next_line(r, &err) > 0) {
        char *s = trim(r->buf);
        if (!*s || *s == '#')
            continue;
        snprintf(copy, sizeof copy, "%s", s);
        int n = split(s, field);
        if (n != 3) {
            err = sc_error_at(r->where, r->line,
                              "'%s' has %d fields; expected NetPIPE's three: bytes Mbps "
                              "seconds",
                              show(copy, shown, sizeof shown), n);
            break;
        }
        size_t bytes;
        double mbps, t;
        if ((err = get_size(r, "bytes", field[0], &bytes)) ||
            (err = get_real(r, "Mbps", field[1], &mbps)) ||
            (err = get_real(r, "seconds", field[2], &t)))
            break;
        if (!netpipe_consistent(field[1], bytes, mbps, field[2], t)) {
            err = sc_error_at(r->where, r->line,
                              "'%s': %s Mbps is not 8 x %zu bytes in %s s; expected NetPIPE's "
                              "'bytes Mbps seconds', Mbps = 8 bytes / seconds / 2^20",
                              show(copy, shown, sizeof shown), field[1], bytes, field[2]);
            break;
        }
        if (r->open < 0 &&
            (err = series_open(r, copy, SC_MEASURE_LATENCY, "NetPIPE np.out", NULL, 0, 0)))
            break;
        err = point_add(r, bytes, t, NAN);
    }
    return err;
}

/* ------------------------------------------------------------------ */
/* SimGrid platform-calibration CSV: "MPI_Op,size,start,duration" rows, in
 * seconds. One file is one experiment: Isend (MPI_Isend rows), Recv
 * (MPI_Recv rows) or PingPong (MPI_Send then MPI_Recv of the same size,
 * both timed on the initiator). */

enum { OP_SEND, OP_RECV, OP_ISEND, OP_OTHER };

typedef struct {
    int op;
    size_t bytes;
    double duration;
} smpi_row_t;

/* Parses the current line: 1 with *row, 0 for a line to skip (blank, a
 * header), -1 with *err. */
static int smpi_row(reader_t *r, smpi_row_t *row, int *header_seen, sc_err_t *err)
{
    static const struct {
        const char *name;
        int op;
    } ops[] = {{"MPI_Send", OP_SEND},  {"MPI_Recv", OP_RECV},    {"MPI_Isend", OP_ISEND},
               {"MPI_Test", OP_OTHER}, {"MPI_Iprobe", OP_OTHER}, {"MPI_Wtime", OP_OTHER}};
    char copy[LINE_MAX_CHARS + 1], shown[80];
    char *s = trim(r->buf);
    if (!*s || *s == '#')
        return 0;
    snprintf(copy, sizeof copy, "%s", s);
    char *field[4];
    int n = 0;
    for (char *p = s;; p++) {
        if (n < 4)
            field[n] = p;
        n++;
        p += strcspn(p, ",");
        if (!*p)
            break;
        *p = '\0';
    }
    if (n != 4) {
        *err = sc_error_at(r->where, r->line,
                           "'%s' has %d comma-separated fields; expected 4: "
                           "operation,size,start,duration",
                           show(copy, shown, sizeof shown), n);
        return -1;
    }
    for (int i = 0; i < 4; i++)
        field[i] = trim(field[i]);
    if (!*header_seen && strcasecmp(field[0], "Op") == 0 && strcasecmp(field[1], "Size") == 0 &&
        strcasecmp(field[2], "Start") == 0 && strcasecmp(field[3], "Duration") == 0) {
        *header_seen = 1;
        return 0;
    }
    *header_seen = 1;
    row->op = -1;
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
        if (strcmp(field[0], ops[i].name) == 0)
            row->op = ops[i].op;
    if (row->op < 0) {
        *err = sc_error_at(r->where, r->line,
                           "operation '%s' is not one of the calibration's; expected "
                           "MPI_Send, MPI_Recv, MPI_Isend (or MPI_Test, MPI_Iprobe, MPI_Wtime, "
                           "skipped)",
                           show(field[0], shown, sizeof shown));
        return -1;
    }
    double start;
    if ((*err = get_size(r, "size", field[1], &row->bytes)) ||
        (*err = get_real(r, "start", field[2], &start)) ||
        (*err = get_real(r, "duration", field[3], &row->duration)))
        return -1;
    return 1;
}

static sc_err_t parse_smpi(reader_t *r)
{
    /* First pass: check every row and see which experiment this is. */
    int line_of[3] = {0, 0, 0}, header_seen = 0;
    smpi_row_t row;
    sc_err_t err = SC_OK;
    reader_rewind(r);
    while (next_line(r, &err) > 0) {
        int got = smpi_row(r, &row, &header_seen, &err);
        if (got < 0)
            return err;
        if (got && row.op != OP_OTHER && !line_of[row.op])
            line_of[row.op] = r->line;
    }
    if (err)
        return err;
    if (line_of[OP_ISEND] && (line_of[OP_SEND] || line_of[OP_RECV])) {
        int other = line_of[OP_SEND] ? line_of[OP_SEND] : line_of[OP_RECV];
        return sc_error_at(r->where, other,
                           "%s rows among the MPI_Isend rows of line %d; expected one experiment "
                           "per file: Isend, Recv or PingPong",
                           line_of[OP_SEND] ? "MPI_Send" : "MPI_Recv", line_of[OP_ISEND]);
    }
    sc_measure_kind_t kind = line_of[OP_ISEND]  ? SC_MEASURE_SEND_OVERHEAD
                             : line_of[OP_SEND] ? SC_MEASURE_LATENCY
                                                : SC_MEASURE_RECV_OVERHEAD;
    const char *source = line_of[OP_ISEND]  ? "SimGrid platform-calibration Isend"
                         : line_of[OP_SEND] ? "SimGrid platform-calibration PingPong"
                                            : "SimGrid platform-calibration Recv";
    if (!line_of[OP_ISEND] && !line_of[OP_SEND] && !line_of[OP_RECV])
        return sc_error_at(r->where, 0,
                           "no MPI_Send, MPI_Recv or MPI_Isend row; expected the Isend, Recv "
                           "or PingPong CSV of SimGrid's platform calibration");
    /* Second pass: the points. */
    header_seen = 0;
    int send_line = 0;
    smpi_row_t send = {0, 0, 0};
    reader_rewind(r);
    while (!err && next_line(r, &err) > 0) {
        int got = smpi_row(r, &row, &header_seen, &err);
        if (got <= 0 || row.op == OP_OTHER)
            continue;
        if (r->open < 0 && (err = series_open(r, r->buf, kind, source, NULL, 0, 0)))
            break;
        if (kind != SC_MEASURE_LATENCY) {
            err = point_add(r, row.bytes, row.duration, NAN);
        } else if (row.op == OP_SEND) {
            if (send_line)
                err = sc_error_at(r->where, r->line,
                                  "an MPI_Send after the MPI_Send of line %d; expected "
                                  "MPI_Recv rows to follow MPI_Send rows (a PingPong CSV)",
                                  send_line);
            send = row;
            send_line = r->line;
        } else if (!send_line) {
            err = sc_error_at(r->where, r->line,
                              "an MPI_Recv that follows no MPI_Send; expected MPI_Send "
                              "then MPI_Recv of the same size (a PingPong CSV)");
        } else if (row.bytes != send.bytes) {
            err = sc_error_at(r->where, r->line,
                              "an MPI_Recv of %zu bytes after the MPI_Send of %zu on line "
                              "%d; expected the same size",
                              row.bytes, send.bytes, send_line);
        } else {
            /* Round trip: MPI_Send's time plus the MPI_Recv that waited for
             * the answer; one way is half of it. */
            int line = r->line;
            r->line = send_line;
            err = point_add(r, row.bytes, (send.duration + row.duration) / 2, NAN);
            r->line = line;
            send_line = 0;
        }
    }
    if (!err && send_line)
        err = sc_error_at(r->where, send_line,
                          "an MPI_Send without its MPI_Recv; expected MPI_Send then "
                          "MPI_Recv of the same size (a PingPong CSV)");
    return err;
}

/* ------------------------------------------------------------------ */
/* simcoll-probe (sim/probe/simcoll_probe.c): "# simcoll-probe 1" first,
 * comments about the cluster, then rows "kind placement pairs bytes
 * value", or "collective NAME np bytes seconds"; a series is a run of rows
 * of one kind, placement and pairs, or of one collective and np. */

static const struct {
    const char *name;
    sc_measure_kind_t kind;
} probe_kinds[] = {
    {"latency", SC_MEASURE_LATENCY},
    {"send-overhead", SC_MEASURE_SEND_OVERHEAD},
    {"recv-overhead", SC_MEASURE_RECV_OVERHEAD},
    {"bandwidth", SC_MEASURE_BANDWIDTH},
};
static const char *const probe_placements[] = {"intra", "ccx", "numa", "socket", "inter"};
enum { NPROBE_PLACEMENTS = sizeof probe_placements / sizeof probe_placements[0] };

/* A row "collective NAME np bytes seconds" (OSU's average over ranks). */
static sc_err_t probe_collective(reader_t *r, char **field, const char *line)
{
    char shown[80];
    const char *name = field[1];
    size_t len = strlen(name);
    if (len == 0 || len >= sizeof r->series[0].collective ||
        strspn(name, "abcdefghijklmnopqrstuvwxyz_") != len)
        return sc_error_at(r->where, r->line,
                           "collective '%s'; expected a name in lower case (bcast, "
                           "allreduce, ...)",
                           show(name, shown, sizeof shown));
    int np;
    size_t bytes;
    double value;
    sc_err_t err;
    if ((err = get_count(r, "np", field[2], &np)) ||
        (err = get_size(r, "bytes", field[3], &bytes)) ||
        (err = get_real(r, "seconds", field[4], &value)))
        return err;
    const sc_series_t *open = r->open >= 0 ? &r->series[r->open] : NULL;
    if (!open || open->kind != SC_MEASURE_COLLECTIVE || strcmp(open->collective, name) ||
        open->np != np) {
        if ((err = series_close(r, "rows")) ||
            (err = series_open(r, line, SC_MEASURE_COLLECTIVE, "simcoll-probe 1", name, np, 0)))
            return err;
    }
    return point_add(r, bytes, value, NAN);
}

static sc_err_t parse_probe(reader_t *r)
{
    char *field[MAX_FIELDS + 1], shown[80], copy[LINE_MAX_CHARS + 1];
    sc_err_t err = SC_OK;
    int version_seen = 0;
    reader_rewind(r);
    while (!err && next_line(r, &err) > 0) {
        char *s = trim(r->buf);
        if (!version_seen && *s) {
            if (strcmp(s, "# simcoll-probe 1") && !starts_with(s, "# simcoll-probe 1:"))
                return sc_error_at(r->where, r->line,
                                   "'%s' is not simcoll-probe's first line; expected "
                                   "'# simcoll-probe 1' (version 1)",
                                   show(s, shown, sizeof shown));
            version_seen = 1;
            continue;
        }
        if (!*s || *s == '#')
            continue;
        snprintf(copy, sizeof copy, "%s", s);
        int n = split(s, field);
        if (n != 5)
            return sc_error_at(r->where, r->line,
                               "'%s' has %d fields; expected 5: kind placement pairs "
                               "bytes value, or collective NAME np bytes seconds",
                               show(copy, shown, sizeof shown), n);
        if (!strcmp(field[0], "collective")) {
            if ((err = probe_collective(r, field, copy)))
                return err;
            continue;
        }
        size_t k = 0, nk = sizeof probe_kinds / sizeof probe_kinds[0], p = 0;
        while (k < nk && strcmp(field[0], probe_kinds[k].name))
            k++;
        while (p < NPROBE_PLACEMENTS && strcmp(field[1], probe_placements[p]))
            p++;
        if (k == nk)
            return sc_error_at(r->where, r->line,
                               "kind '%s'; expected latency, send-overhead, "
                               "recv-overhead or bandwidth",
                               show(field[0], shown, sizeof shown));
        if (p == NPROBE_PLACEMENTS)
            return sc_error_at(r->where, r->line,
                               "placement '%s'; expected intra, ccx, numa, socket or inter",
                               show(field[1], shown, sizeof shown));
        int pairs;
        size_t bytes;
        double value;
        if ((err = get_count(r, "pairs", field[2], &pairs)) ||
            (err = get_size(r, "bytes", field[3], &bytes)) ||
            (err = get_real(r, "value", field[4], &value)))
            return err;
        if (probe_kinds[k].kind != SC_MEASURE_BANDWIDTH && pairs != 1)
            return sc_error_at(r->where, r->line,
                               "%s with %d pairs; expected 1 (only bandwidth rows "
                               "stream several pairs at once)",
                               probe_kinds[k].name, pairs);
        const sc_series_t *open = r->open >= 0 ? &r->series[r->open] : NULL;
        if (!open || open->kind != probe_kinds[k].kind ||
            strcmp(open->placement, probe_placements[p]) ||
            open->pairs != (pairs > 1 ? pairs : 0)) {
            if ((err = series_close(r, "rows")) ||
                (err = series_open(r, copy, probe_kinds[k].kind, "simcoll-probe 1", NULL, 0,
                                   pairs > 1 ? pairs : 0)))
                return err;
            snprintf(r->series[r->open].placement, sizeof r->series[r->open].placement, "%s",
                     probe_placements[p]);
        }
        err = point_add(r, bytes, value, NAN);
    }
    if (!err && !version_seen)
        err = sc_error_at(r->where, 0, "no line in it; expected '# simcoll-probe 1' first");
    return err;
}

/* ------------------------------------------------------------------ */

/* Refuses a time above SC_DURATION_MAX_S or a rate above the fastest link
 * a platform may have: such a value is a misprint or a wrong unit, not a
 * machine, and a fit's sums over it overflow (a latency of 1e308 s made
 * the fitted latency -nan). Below these bounds every fit is finite. */
static sc_err_t check_plausible(const reader_t *r)
{
    const char *link = "bandwidth";
    double fastest = sc_param_find(link, strlen(link), SC_AT_INTER)->max;
    for (int i = 0; i < r->nseries; i++) {
        const sc_series_t *s = &r->series[i];
        int rate = s->kind == SC_MEASURE_BANDWIDTH || s->kind == SC_MEASURE_BIBANDWIDTH ||
                   s->kind == SC_MEASURE_MESSAGE_RATE;
        for (int j = 0; j < s->npoints; j++) {
            double v = s->points[j].value;
            if (rate && v > fastest)
                return sc_error_at(r->where, s->points[j].line,
                                   "%g bytes/s is more than %g bytes/s, the fastest link a "
                                   "platform may have; expected a measured bandwidth (check "
                                   "the file's unit)",
                                   v, fastest);
            if (!rate && v > SC_DURATION_MAX_S)
                return sc_error_at(r->where, s->points[j].line,
                                   "a time of %g s is more than %g s; expected a measured time "
                                   "(check the file's unit)",
                                   v, SC_DURATION_MAX_S);
        }
    }
    return SC_OK;
}

sc_err_t sc_measurements_parse(const char *option, const char *name, const char *text, size_t len,
                               sc_measure_format_t format, sc_series_t **series, int *nseries)
{
    *series = NULL;
    *nseries = 0;
    if (!name)
        name = "";
    if (!text)
        text = "", len = 0;
    reader_t *r = calloc(1, sizeof *r);
    if (!r)
        return sc_error(SC_ERR_RUN, "out of memory reading '%s'", name);
    if (option && *option)
        snprintf(r->where, sizeof r->where, "%s '%s'", option, name);
    else
        snprintf(r->where, sizeof r->where, "'%s'", name);
    r->name = name;
    r->text = text;
    r->end = text + len;
    r->open = -1;
    sc_err_t err = SC_OK;
    const char *nul = memchr(text, '\0', len);
    if (nul) {
        int line = 1;
        for (const char *p = text; p < nul; p++)
            line += *p == '\n' && line < INT_MAX;
        err = sc_error_at(r->where, line, "a NUL byte; expected text");
        goto cleanup;
    }
    if ((int)format < (int)SC_MEASURE_FORMAT_AUTO || (int)format > (int)SC_MEASURE_FORMAT_PROBE) {
        err = sc_error(SC_ERR_RUN, "%s: unknown format %d", r->where, (int)format);
        goto cleanup;
    }
    sc_measure_format_t found;
    int line;
    char evidence[96];
    if ((err = detect(r, &found, &line, evidence, sizeof evidence)))
        goto cleanup;
    if (format == SC_MEASURE_FORMAT_AUTO && found == SC_MEASURE_FORMAT_AUTO) {
        if (line)
            err = sc_error_at(r->where, line, "'%s' is %s; expected %s", evidence,
                              format_found[found], format_expected[format]);
        else
            err = sc_error_at(r->where, 0, "no measurement in it; expected %s",
                              format_expected[format]);
        goto cleanup;
    }
    if (format != SC_MEASURE_FORMAT_AUTO && found != SC_MEASURE_FORMAT_AUTO && found != format) {
        err = sc_error_at(r->where, line, "'%s' is %s; expected %s", evidence, format_found[found],
                          format_expected[format]);
        goto cleanup;
    }
    if (format == SC_MEASURE_FORMAT_AUTO)
        format = found;
    switch (format) {
    case SC_MEASURE_FORMAT_OSU: err = parse_osu(r); break;
    case SC_MEASURE_FORMAT_IMB: err = parse_imb(r); break;
    case SC_MEASURE_FORMAT_NETPIPE: err = parse_netpipe(r); break;
    case SC_MEASURE_FORMAT_PROBE: err = parse_probe(r); break;
    default: err = parse_smpi(r); break;
    }
    if (!err)
        err = check_plausible(r);
    if (!err && r->nseries == 0)
        err =
            sc_error_at(r->where, 0, "no measurement in it; expected %s", format_expected[format]);
cleanup:
    if (err) {
        sc_series_destroy(r->series, r->nseries);
    } else {
        *series = r->series;
        *nseries = r->nseries;
    }
    free(r);
    return err;
}

sc_err_t sc_measurements_read(const char *option, const char *path, sc_measure_format_t format,
                              sc_series_t **series, int *nseries)
{
    *series = NULL;
    *nseries = 0;
    char what[1200], *text;
    size_t len;
    if (option && *option)
        snprintf(what, sizeof what, "%s '%s'", option, path);
    else
        snprintf(what, sizeof what, "'%s'", path);
    sc_err_t err = sc_input_read(what, path, SC_MEASURE_MAX_BYTES, &text, &len);
    if (err)
        return err;
    err = sc_measurements_parse(option, path, text, len, format, series, nseries);
    free(text);
    return err;
}
