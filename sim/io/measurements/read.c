/* Reading benchmark output (OSU, IMB, NetPIPE, SimGrid calibration CSVs,
 * simcoll-probe's files) into measured series: which format a text is,
 * its parser (one file a format), and what no machine measures.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "reader.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/sc_units.h"
#include "models/params.h"
#include "sim/io/files.h"

/* Benchmark output is a few hundred kilobytes; calibration CSVs of many
 * repetitions reach tens of megabytes. */
#define SC_MEASURE_MAX_BYTES ((size_t)256 << 20)

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

/* The format of the text, and the line that shows it (*line 0 and
 * SC_MEASURE_FORMAT_AUTO for a text without one). */
static sc_err_t detect(sc_meas_reader_t *r, sc_measure_format_t *format, int *line, char *text,
                       size_t size)
{
    *format = SC_MEASURE_FORMAT_AUTO;
    *line = 0;
    text[0] = '\0';
    sc_measure_format_t first = SC_MEASURE_FORMAT_AUTO;
    int first_line = 0;
    char first_text[96] = "";
    sc_err_t err = SC_OK;
    sc_meas_rewind(r);
    while (sc_meas_next_line(r, &err) > 0) {
        char *s = sc_meas_trim(r->buf);
        if (*s == '#') {
            sc_measure_format_t f = sc_meas_osu_header(s)     ? SC_MEASURE_FORMAT_OSU
                                    : sc_meas_imb_marker(s)   ? SC_MEASURE_FORMAT_IMB
                                    : sc_meas_probe_header(s) ? SC_MEASURE_FORMAT_PROBE
                                                              : SC_MEASURE_FORMAT_AUTO;
            if (f != SC_MEASURE_FORMAT_AUTO) {
                *format = f;
                *line = r->line;
                sc_meas_show(s, text, size);
                return SC_OK;
            }
        } else if (*s && !first_line) {
            first_line = r->line;
            sc_meas_show(s, first_text, sizeof first_text);
            first = sc_meas_smpi_row(s)      ? SC_MEASURE_FORMAT_SMPI
                    : sc_meas_netpipe_row(s) ? SC_MEASURE_FORMAT_NETPIPE
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

/* Refuses a time above SC_DURATION_MAX_S or a rate above the fastest link
 * a platform may have: such a value is a misprint or a wrong unit, not a
 * machine, and a fit's sums over it overflow (a latency of 1e308 s made
 * the fitted latency -nan). Below these bounds every fit is finite. */
static sc_err_t check_plausible(const sc_meas_reader_t *r)
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
    sc_meas_reader_t *r = calloc(1, sizeof *r);
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
    case SC_MEASURE_FORMAT_OSU: err = sc_meas_osu_parse(r); break;
    case SC_MEASURE_FORMAT_IMB: err = sc_meas_imb_parse(r); break;
    case SC_MEASURE_FORMAT_NETPIPE: err = sc_meas_netpipe_parse(r); break;
    case SC_MEASURE_FORMAT_PROBE: err = sc_meas_probe_parse(r); break;
    default: err = sc_meas_smpi_parse(r); break;
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
    char *text;
    size_t len;
    sc_err_t err = sc_input_file(option, path, SC_MEASURE_MAX_BYTES, &text, &len);
    if (err)
        return err;
    err = sc_measurements_parse(option, path, text, len, format, series, nseries);
    free(text);
    return err;
}
