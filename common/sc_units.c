/* Parsing of sizes and durations given by users and platform files.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "sc_units.h"

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
        return sc_error(SC_ERR_INPUT, "%s: '%s' is negative; sizes are >= 0 bytes", what, text);
    if (!isdigit((unsigned char)*p))
        goto bad;
    errno = 0;
    char *end;
    unsigned long long value = strtoull(p, &end, 10);
    if (errno == ERANGE)
        goto bad;
    unsigned long long unit = 1;
    switch (*end) {
    case 'K':
    case 'k':
        unit = 1ull << 10;
        end++;
        break;
    case 'M':
    case 'm':
        unit = 1ull << 20;
        end++;
        break;
    case 'G':
    case 'g':
        unit = 1ull << 30;
        end++;
        break;
    default: break;
    }
    /* "1MB" is 2^20 bytes to MPI users but 10^6 in SimGrid's platform files:
     * refused, with the spellings that say which. */
    if (unit > 1 && end[0] == 'B' && end[1] == '\0')
        return sc_error(SC_ERR_INPUT,
                        "%s: '%s' is ambiguous: %cB is 10^%d bytes in SimGrid's platform files "
                        "and 2^%d in MPI's habit; write %.*s%c or %.*s%ciB for %llu bytes, or the "
                        "bytes themselves",
                        what, text, end[-1], unit == 1ull << 10 ? 3 : unit == 1ull << 20 ? 6 : 9,
                        unit == 1ull << 10 ? 10 : unit == 1ull << 20 ? 20 : 30,
                        (int)(end - 1 - p), p, toupper((unsigned char)end[-1]), (int)(end - 1 - p),
                        p, toupper((unsigned char)end[-1]), value * unit);
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
                    "or G suffix (powers of 1024, also written KiB, MiB, GiB), e.g. 2048, 4K, 1M",
                    what, text);
}

sc_err_t sc_parse_duration(const char *text, const char *what, double *seconds)
{
    static const struct {
        const char *suffix;
        double scale;
    } units[] = {{"ps", 1e-12}, {"ns", 1e-9}, {"us", 1e-6}, {"ms", 1e-3}, {"s", 1.0}, {"", 1.0}};
    errno = 0;
    char *end;
    double value = strtod(text, &end);
    if (end == text || errno == ERANGE || !isfinite(value) || value < 0)
        goto bad;
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
        if (strcmp(end, units[i].suffix) == 0) {
            *seconds = value * units[i].scale;
            if (*seconds > SC_DURATION_MAX_S)
                return sc_error(SC_ERR_INPUT,
                                "%s: '%s' is more than %g s; simulated times are doubles in "
                                "seconds, which beyond that lose the microseconds of a message",
                                what, text, SC_DURATION_MAX_S);
            return SC_OK;
        }
bad:
    return sc_error(SC_ERR_INPUT,
                    "%s: '%s' is not a duration; use a number >= 0 with one of s, ms, us, "
                    "ns, ps (a bare number is seconds), e.g. 0.8us",
                    what, text);
}

/* One unit of SimGrid's tables (src/xbt/xbt_parse_units.cpp): a base unit,
 * its value, and whether it takes decimal (k..Y) or binary (Ki..Yi) or
 * spelled-out (kilo..yotta) prefixes. */
typedef struct {
    const char *unit;
    double value;
    enum { PLAIN, DECIMAL, BINARY, WORDS } prefixes;
} unit_t;

static const unit_t time_units[] = {{"w", 7 * 24 * 3600.0, PLAIN},
                                    {"d", 24 * 3600.0, PLAIN},
                                    {"h", 3600.0, PLAIN},
                                    {"m", 60.0, PLAIN},
                                    {"s", 1.0, PLAIN},
                                    {"ms", 1e-3, PLAIN},
                                    {"us", 1e-6, PLAIN},
                                    {"ns", 1e-9, PLAIN},
                                    {"ps", 1e-12, PLAIN},
                                    {NULL, 0, PLAIN}};
static const unit_t bandwidth_units[] = {{"bps", 0.125, DECIMAL},
                                         {"bps", 0.125, BINARY},
                                         {"Bps", 1.0, DECIMAL},
                                         {"Bps", 1.0, BINARY},
                                         {NULL, 0, PLAIN}};
static const unit_t speed_units[] = {{"f", 1.0, DECIMAL}, {"flops", 1.0, WORDS}, {NULL, 0, PLAIN}};
static const unit_t size_units[] = {{"b", 0.125, DECIMAL},
                                    {"b", 0.125, BINARY},
                                    {"B", 1.0, DECIMAL},
                                    {"B", 1.0, BINARY},
                                    {NULL, 0, PLAIN}};

/* The value of `suffix` under unit u, or 0 if it is not u with a prefix. */
static double unit_value(const unit_t *u, const char *suffix)
{
    static const char *const decimal[] = {"k", "M", "G", "T", "P", "E", "Z", "Y", NULL};
    static const char *const binary[] = {"Ki", "Mi", "Gi", "Ti", "Pi", "Ei", "Zi", "Yi", NULL};
    static const char *const words[] = {"kilo", "mega", "giga",  "tera", "peta",
                                        "exa",  "zeta", "yotta", NULL};
    if (strcmp(suffix, u->unit) == 0)
        return u->value;
    const char *const *prefixes = u->prefixes == DECIMAL  ? decimal
                                  : u->prefixes == BINARY ? binary
                                  : u->prefixes == WORDS  ? words
                                                          : NULL;
    double mult = u->prefixes == BINARY ? 1024.0 : 1000.0, value = u->value;
    for (int i = 0; prefixes && prefixes[i]; i++) {
        value *= mult;
        size_t n = strlen(prefixes[i]);
        if (strncmp(suffix, prefixes[i], n) == 0 && strcmp(suffix + n, u->unit) == 0)
            return value;
    }
    return 0;
}

int sc_parse_quantity(const char *text, sc_quantity_t kind, double *value)
{
    static const unit_t *const tables[] = {time_units, bandwidth_units, speed_units, size_units};
    errno = 0;
    char *end;
    double number = strtod(text, &end);
    if (end == text || errno == ERANGE || !isfinite(number))
        return -1;
    if (*end == '\0') { /* a bare number is in the base unit: s, Bps, f or B */
        *value = number;
        return 0;
    }
    for (const unit_t *u = tables[kind]; u->unit; u++) {
        double scale = unit_value(u, end);
        if (scale > 0) {
            *value = number * scale;
            return isfinite(*value) ? 0 : -1;
        }
    }
    return -1;
}

int sc_quantity_is_bare(const char *text)
{
    char *end;
    strtod(text, &end);
    return end != text && *end == '\0';
}

const char *sc_quantity_units(sc_quantity_t kind)
{
    switch (kind) {
    case SC_QTY_TIME: return "s, ms, us, ns, ps (or m, h, d, w)";
    case SC_QTY_BANDWIDTH:
        return "Bps, kBps, MBps, GBps, TBps, KiBps, MiBps, GiBps, or bps, kbps, Mbps, Gbps for "
               "bits";
    case SC_QTY_SPEED: return "f, kf, Mf, Gf, Tf (flop/s)";
    case SC_QTY_SIZE: return "B, kB, MB, GB, KiB, MiB, GiB";
    }
    return "";
}

sc_err_t sc_parse_int(const char *text, const char *what, int min, int max, int *value)
{
    errno = 0;
    char *end;
    long v = strtol(text, &end, 10);
    if (end == text || *end != '\0' || errno == ERANGE || v < min || v > max)
        return sc_error(SC_ERR_INPUT, "%s: '%s' is not an integer in %d..%d", what, text, min, max);
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

void sc_format_quantity(double value, sc_quantity_t kind, char *out, size_t outlen)
{
    /* From the largest unit down; times stop at ps, the rest at the base. */
    static const char *const units[][5] = {
        [SC_QTY_TIME] = {"s", "ms", "us", "ns", "ps"},
        [SC_QTY_BANDWIDTH] = {"TBps", "GBps", "MBps", "kBps", "Bps"},
        [SC_QTY_SPEED] = {"Tf", "Gf", "Mf", "kf", "f"},
        [SC_QTY_SIZE] = {"TB", "GB", "MB", "kB", "B"},
    };
    double scale = kind == SC_QTY_TIME ? 1 : 1e12;
    int u = 0;
    while (u < 4 && value != 0 && fabs(value) < scale) {
        scale /= 1000;
        u++;
    }
    char number[32];
    snprintf(number, sizeof number, "%.10g", value / scale);
    snprintf(out, outlen, "%s%s", number, units[kind][u]);
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
