/* What the parsers of benchmark output share: the text read line by line,
 * numbers as benchmarks print them, the series filled, the messages; and
 * each format's entry points. Private to sim/io/measurements/.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef SC_IO_MEASUREMENTS_READER_H
#define SC_IO_MEASUREMENTS_READER_H

#include <stddef.h>

#include "sim/io/measurements.h"

/* Longer lines are not benchmark output: refused, never cut. */
#define SC_MEAS_LINE_MAX 4096
/* More fields than any format has (OMB 7 with every option prints 10). */
#define SC_MEAS_MAX_FIELDS 24

typedef struct {
    char where[1200]; /* "OPTION 'FILE'", the start of every message */
    const char *name; /* the file, for the series */
    const char *text, *at, *end;
    int line; /* number of the line in buf */
    char buf[SC_MEAS_LINE_MAX + 1];
    sc_series_t *series;
    int nseries, cap;
    int open;           /* the series being filled, -1 if none */
    int open_line;      /* where its header is */
    char open_text[96]; /* and what it says, for "no data" messages */
} sc_meas_reader_t;

/* ------------------------------------------------------------------ */
/* Lines, messages, series (reader.c)                                 */

/* Up to 60 characters of s into out (size bytes), control and non-ASCII
 * bytes shown as '?', so that a message stays one readable line whatever
 * the input; returns out. */
const char *sc_meas_show(const char *s, char *out, size_t size);

/* Back to the first line (past a UTF-8 byte order mark). */
void sc_meas_rewind(sc_meas_reader_t *r);

/* The next line into r->buf, without its end of line: 1, or 0 at the end
 * of the text, or -1 with the error in *err (a line longer than
 * SC_MEAS_LINE_MAX). */
int sc_meas_next_line(sc_meas_reader_t *r, sc_err_t *err);

/* The next line that is not blank, read into r->buf and trimmed (in
 * place); NULL at the end of the text, or with the error in *err. */
char *sc_meas_next_text(sc_meas_reader_t *r, sc_err_t *err);

/* s without leading and trailing white space (in place). */
char *sc_meas_trim(char *s);

/* Splits s at white space (in place): the number of fields; only the
 * first SC_MEAS_MAX_FIELDS are stored in field[]. */
int sc_meas_split(char *s, char **field);

int sc_meas_starts_with(const char *s, const char *prefix);

/* Starts a series; `header` is the line that announced it, for messages. */
sc_err_t sc_meas_series_open(sc_meas_reader_t *r, const char *header, sc_measure_kind_t kind,
                             const char *source, const char *collective, int np, int pairs);

/* Ends the series being filled, if any: fails if it has no point (a
 * header without data; `expected` says what should have followed). */
sc_err_t sc_meas_series_close(sc_meas_reader_t *r, const char *expected);

/* Adds a point of the current line to the open series. Every value is
 * finite and non-negative (value2 may be NAN): what overflowed in a unit
 * conversion is refused here. */
sc_err_t sc_meas_point_add(sc_meas_reader_t *r, size_t bytes, double value, double value2);

/* SC_OK if a row of n fields has the ncols of its column header (on line
 * columns_line), else SC_ERR_INPUT showing the row as read. */
sc_err_t sc_meas_row_width(const sc_meas_reader_t *r, const char *row, int n, int ncols,
                           int columns_line);

/* ------------------------------------------------------------------ */
/* Numbers (reader.c)                                                 */

typedef enum {
    SC_MEAS_NUM_OK,
    SC_MEAS_NUM_SYNTAX,
    SC_MEAS_NUM_NEGATIVE,
    SC_MEAS_NUM_NONFINITE,
    SC_MEAS_NUM_RANGE
} sc_meas_num_t;

/* A decimal number as benchmarks print it: optional sign, digits with an
 * optional fraction, optional exponent. Hexadecimal floats are refused;
 * nan and inf are recognized so that a message can name them. */
sc_meas_num_t sc_meas_parse_real(const char *s, double *v);

/* A whole, non-negative number that fits size_t. */
sc_meas_num_t sc_meas_parse_size(const char *s, size_t *v);

/* The same, or SC_ERR_INPUT naming the current line, the column `what`
 * and the field `tok`. */
sc_err_t sc_meas_get_real(const sc_meas_reader_t *r, const char *what, const char *tok, double *v);
sc_err_t sc_meas_get_size(const sc_meas_reader_t *r, const char *what, const char *tok, size_t *v);

/* A count of processes or pairs: 1 to INT_MAX. */
sc_err_t sc_meas_get_count(const sc_meas_reader_t *r, const char *what, const char *tok, int *v);

/* A number times `factor` (a unit's), refused if the product overflows. */
sc_err_t sc_meas_scaled(const sc_meas_reader_t *r, const char *what, const char *tok, double factor,
                        double *v);

/* ------------------------------------------------------------------ */
/* The benchmarks simcoll reads (reader.c)                            */

/* A benchmark as each suite names it, NULL where the suite has none:
 * IMB-MPI1's benchmark ("Bcast"), the OSU test as its header names it,
 * without "OSU MPI" and the version ("Broadcast Latency Test"). What both
 * time (a collective, osu_bw and Uniband, ...) is one row. Other
 * benchmarks are skipped (IMB) or refused (OSU). */
typedef struct {
    const char *imb, *osu;
    sc_measure_kind_t kind;
    const char *collective; /* simcoll's name of it, for SC_MEASURE_COLLECTIVE */
} sc_meas_bench_t;

extern const sc_meas_bench_t sc_meas_benches[];
extern const size_t sc_meas_nbenches;

/* ------------------------------------------------------------------ */
/* The formats: each reads the whole text into r's series (from its first
 * line), and says whether a line shows the format (read.c's detection:
 * the first header that names a benchmark, else the first line that is
 * not a comment). A header test takes a trimmed line starting with '#'. */

int sc_meas_osu_header(const char *s); /* "# OSU MPI ... Test" */
sc_err_t sc_meas_osu_parse(sc_meas_reader_t *r);

int sc_meas_imb_marker(const char *s); /* "# Benchmarking NAME", IMB's title */
sc_err_t sc_meas_imb_parse(sc_meas_reader_t *r);

int sc_meas_probe_header(const char *s); /* "# simcoll-probe VERSION" */
sc_err_t sc_meas_probe_parse(sc_meas_reader_t *r);

/* Three numbers, the second the bandwidth of the first two (split in
 * place). */
int sc_meas_netpipe_row(char *line);
sc_err_t sc_meas_netpipe_parse(sc_meas_reader_t *r);

/* Four comma-separated fields, the first an MPI_ operation or "Op". */
int sc_meas_smpi_row(const char *line);
sc_err_t sc_meas_smpi_parse(sc_meas_reader_t *r);

#endif
