/* Parsing of sizes and durations given by users and platform files.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef SC_UNITS_H
#define SC_UNITS_H

#include <stddef.h>

#include "../common/sc_error.h"

/* A byte count: digits with an optional K, M or G suffix (powers of 1024,
 * as MPI users count message sizes), optionally followed by B or iB:
 * "2048", "4K", "64KiB", "1M". Negative or unparsable text is SC_ERR_INPUT
 * with a message that starts with `what` (e.g. "--size"). */
sc_err_t sc_parse_size(const char *text, const char *what, size_t *bytes);

/* A duration in SimGrid's notation: a number and one of s, ms, us, ns, ps
 * ("0.8us", "23us"). A bare number is seconds. */
sc_err_t sc_parse_duration(const char *text, const char *what, double *seconds);

/* A positive integer in [min, max]. */
sc_err_t sc_parse_int(const char *text, const char *what, int min, int max,
                      int *value);

/* Formats seconds with a unit chosen for readability ("12.4 us"). */
void sc_format_duration(double seconds, char *out, size_t outlen);

/* Formats a byte count with a binary unit ("2 KiB", "1.5 MiB"). */
void sc_format_bytes(double bytes, char *out, size_t outlen);

#endif
