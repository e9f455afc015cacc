/* Parsing of sizes and durations given by users and platform files.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "units.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

sc_err_t sc_parse_size(const char *text, const char *what, size_t *bytes)
{
    const char *p = text;
    while (isspace((unsigned char)*p))
        p++;
    if (*p == '-')
        return sc_error(SC_ERR_INPUT,
                        "%s: '%s' is negative; sizes are >= 0 bytes", what, text);
    if (!isdigit((unsigned char)*p))
        goto bad;
    errno = 0;
    char *end;
    unsigned long long value = strtoull(p, &end, 10);
    if (errno == ERANGE)
        goto bad;
    unsigned long long unit = 1;
    switch (*end) {
    case 'K': case 'k': unit = 1ull << 10; end++; break;
    case 'M': case 'm': unit = 1ull << 20; end++; break;
    case 'G': case 'g': unit = 1ull << 30; end++; break;
    default: break;
    }
    if (unit > 1 && *end == 'i')
        end++;
    if (*end == 'B')
        end++;
    if (*end != '\0' || value > SIZE_MAX / unit)
        goto bad;
    *bytes = (size_t)(value * unit);
    return SC_OK;
bad:
    return sc_error(SC_ERR_INPUT,
                    "%s: '%s' is not a size; use bytes with an optional K, M "
                    "or G suffix (powers of 1024), e.g. 2048, 4K, 1M",
                    what, text);
}

sc_err_t sc_parse_duration(const char *text, const char *what, double *seconds)
{
    static const struct {
        const char *suffix;
        double scale;
    } units[] = {{"ps", 1e-12}, {"ns", 1e-9}, {"us", 1e-6},
                 {"ms", 1e-3},  {"s", 1.0},   {"", 1.0}};
    errno = 0;
    char *end;
    double value = strtod(text, &end);
    if (end == text || errno == ERANGE || !isfinite(value) || value < 0)
        goto bad;
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
        if (strcmp(end, units[i].suffix) == 0) {
            *seconds = value * units[i].scale;
            return SC_OK;
        }
bad:
    return sc_error(SC_ERR_INPUT,
                    "%s: '%s' is not a duration; use a number >= 0 and one of "
                    "s, ms, us, ns, ps, e.g. 0.8us",
                    what, text);
}

sc_err_t sc_parse_int(const char *text, const char *what, int min, int max,
                      int *value)
{
    errno = 0;
    char *end;
    long v = strtol(text, &end, 10);
    if (end == text || *end != '\0' || errno == ERANGE || v < min || v > max)
        return sc_error(SC_ERR_INPUT, "%s: '%s' is not an integer in %d..%d",
                        what, text, min, max);
    *value = (int)v;
    return SC_OK;
}

void sc_format_duration(double seconds, char *out, size_t outlen)
{
    if (isnan(seconds))
        snprintf(out, outlen, "n/a");
    else if (seconds >= 1.0 || seconds == 0.0)
        snprintf(out, outlen, "%.4g s", seconds);
    else if (seconds >= 1e-3)
        snprintf(out, outlen, "%.4g ms", seconds * 1e3);
    else
        snprintf(out, outlen, "%.4g us", seconds * 1e6);
}

void sc_format_bytes(double bytes, char *out, size_t outlen)
{
    static const char *const units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    size_t u = 0;
    while (bytes >= 1024.0 && u + 1 < sizeof units / sizeof units[0]) {
        bytes /= 1024.0;
        u++;
    }
    snprintf(out, outlen, u ? "%.4g %s" : "%.0f %s", bytes, units[u]);
}
