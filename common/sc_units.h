/* Parsing of sizes and durations given by users and platform files.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef SC_UNITS_H
#define SC_UNITS_H

#include <stddef.h>

#include "sc_error.h"

/* A byte count: digits with an optional K, M or G suffix (powers of 1024,
 * as MPI users count message sizes), optionally followed by iB: "2048",
 * "2048B", "4K", "64KiB", "1M". "1MB" (KB, GB) is refused as ambiguous:
 * SimGrid's platform files read it as 10^6. Negative or unparsable text is
 * SC_ERR_INPUT with a message that starts with `what` (e.g. "--size"). */
sc_err_t sc_parse_size(const char *text, const char *what, size_t *bytes);

/* A duration in SimGrid's notation: a number and one of s, ms, us, ns, ps
 * ("0.8us", "23us"). A bare number is seconds. At most SC_DURATION_MAX_S:
 * a double's step at 1e9 is 0.12 us. */
#define SC_DURATION_MAX_S 1e9
sc_err_t sc_parse_duration(const char *text, const char *what, double *seconds);

/* Quantities of SimGrid platform files. */
typedef enum {
    SC_QTY_TIME,      /* seconds: w, d, h, m, s, ms, us, ns, ps */
    SC_QTY_BANDWIDTH, /* bytes/s: Bps or bps with k..Y (x1000) or Ki..Yi (x1024) */
    SC_QTY_SPEED,     /* flop/s: f with k..Y, or flops with kilo..yotta */
    SC_QTY_SIZE       /* bytes: B or b with k..Y or Ki..Yi */
} sc_quantity_t;

/* Parses a number and unit exactly as SimGrid's platform reader does
 * ("11.5us", "117.685MBps", "10Gf"; a bare number is in the base unit), but
 * only finite values: SimGrid's strtod also takes "nan" and "inf". Returns 0
 * and sets *value, or -1 if the text is not such a quantity. */
int sc_parse_quantity(const char *text, sc_quantity_t kind, double *value);

/* Whether text is a number without a unit ("8.97"), which SimGrid reads in
 * its base unit (8.97 s): a platform file's author rarely means that. */
int sc_quantity_is_bare(const char *text);

/* The units of a kind, for messages ("s, ms, us, ns, ps, ..."). */
const char *sc_quantity_units(sc_quantity_t kind);

/* A positive integer in [min, max]. */
sc_err_t sc_parse_int(const char *text, const char *what, int min, int max, int *value);

/* Formats seconds with a unit chosen for readability ("12.4 us"). */
void sc_format_duration(double seconds, char *out, size_t outlen);

/* Writes a quantity as a platform file would hold it, readably and to 10
 * significant digits: the SI prefix that puts the number in [1, 1000)
 * ("378.6ns", "12.17GBps", "33.6Gf", "64kB"), which sc_parse_quantity
 * reads back. */
void sc_format_quantity(double value, sc_quantity_t kind, char *out, size_t outlen);

/* Formats a byte count with a binary unit ("2 KiB", "1.5 MiB"). */
void sc_format_bytes(double bytes, char *out, size_t outlen);

#endif
