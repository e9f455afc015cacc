/* SMPI's calibration settings in a platform file's <config> (SimGrid
 * 3.32): read into simcoll's network level, and written from it.
 *
 * SMPI's rules, from SimGrid 3.32's source:
 *   - smpi_utils.cpp parse_factor: "SIZE:V[:V...];..." sorted by SIZE, SIZE
 *     read by std::stoi (so "4e+05" is 4), each V by xbt_parse_get_time
 *     (a bare number is seconds);
 *   - smpi_host.cpp osend/orecv: the segment with the largest SIZE below
 *     the message's size m, START + PER_BYTE * m (its first two values);
 *     the first segment for m up to the second's SIZE;
 *   - network_smpi.cpp get_bandwidth_factor/get_latency_factor: the same
 *     search, 1 below the first SIZE, by the size SimGrid sends, m + 16
 *     (smpi_request.cpp: payload_size_ = size_ + 16);
 *   - smpi_request.cpp: a send below smpi/send-is-detached-thresh returns
 *     at once (detached), and only one below smpi/async-small-thresh goes
 *     before its receive is posted; smpi_config.cpp requires async <=
 *     detached.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "smpi_config.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/sc_units.h"
#include "piecewise.h"

const char *const sc_smpi_names[SC_SMPI_N] = {
    [SC_SMPI_OS] = "smpi/os",
    [SC_SMPI_OR] = "smpi/or",
    [SC_SMPI_BW_FACTOR] = "smpi/bw-factor",
    [SC_SMPI_LAT_FACTOR] = "smpi/lat-factor",
    [SC_SMPI_ASYNC_SMALL] = "smpi/async-small-thresh",
    [SC_SMPI_DETACHED] = "smpi/send-is-detached-thresh",
};

/* The network-level parameter each setting gives (both thresholds the
 * eager limit). */
static const char *const gives[SC_SMPI_N] = {
    [SC_SMPI_OS] = "send-overhead",           [SC_SMPI_OR] = "recv-overhead",
    [SC_SMPI_BW_FACTOR] = "bandwidth-factor", [SC_SMPI_LAT_FACTOR] = "latency-factor",
    [SC_SMPI_ASYNC_SMALL] = "eager-limit",    [SC_SMPI_DETACHED] = "eager-limit",
};

int sc_smpi_find(const char *id)
{
    for (int k = 0; k < SC_SMPI_N; k++)
        if (!strcmp(id, sc_smpi_names[k]))
            return k;
    return -1;
}

const char *sc_smpi_renamed(const char *id)
{
    if (!strcmp(id, "smpi/async-small-thres"))
        return sc_smpi_names[SC_SMPI_ASYNC_SMALL];
    if (!strcmp(id, "smpi/send-is-detached-thres"))
        return sc_smpi_names[SC_SMPI_DETACHED];
    return NULL;
}

const char *sc_smpi_param(int k)
{
    return gives[k];
}

int sc_smpi_gives(const sc_platform_prop_t *prop)
{
    if (prop->at != SC_AT_INTER)
        return 0;
    const char *name = prop->param->constant_of ? prop->param->constant_of : prop->param->name;
    for (int k = 0; k < SC_SMPI_N; k++)
        if (!strcmp(name, gives[k]))
            return 1;
    return 0;
}

/* The shortest text of v that strtod reads back as v. */
static void put_double(FILE *f, double v)
{
    char text[32];
    for (int digits = 15; digits <= 17; digits++) {
        snprintf(text, sizeof text, "%.*g", digits, v);
        if (strtod(text, NULL) == v)
            break;
    }
    fputs(text, f);
}

/* An SMPI size: whole bytes in digits, at most INT_MAX (std::stoi). */
static sc_err_t parse_bytes(const char *where, const char *text, long *bytes)
{
    size_t digits = strspn(text, "0123456789");
    if (digits == 0 || text[digits] || digits > 10 || strtol(text, NULL, 10) > INT_MAX)
        return sc_error(SC_ERR_INPUT,
                        "%s: '%s' is not a whole number of bytes from 0 to %d in digits (SMPI "
                        "reads a size with std::stoi, which stops at the first other character: "
                        "'4e+05' is 4 bytes to it)",
                        where, text, INT_MAX);
    *bytes = strtol(text, NULL, 10);
    return SC_OK;
}

/* One segment of an SMPI setting, SIZE:START:PER_BYTE[:...] or
 * SIZE:FACTOR (arg: an int, 1 for a factor), in SMPI's units; its ranges
 * are checked where it is translated. */
static sc_err_t smpi_segment(const char *where, const char *item,
                             char *const fields[SC_PIECEWISE_FIELDS], int nfields,
                             const void *arg, sc_segment_t *seg)
{
    (void)nfields; /* START and PER_BYTE, or FACTOR: what the syntax allows */
    int factor = *(const int *)arg;
    char sub[1300];
    snprintf(sub, sizeof sub, "%s: segment '%s'", where, item);
    long size;
    sc_err_t err = parse_bytes(sub, fields[0], &size);
    if (err)
        return err;
    seg->min_bytes = (double)size;
    double *v[2] = {&seg->start, &seg->per_byte};
    for (int k = 0; k < (factor ? 1 : 2) && !err; k++) {
        const char *value = fields[k + 1];
        if (factor) {
            char *end;
            errno = 0;
            *v[k] = strtod(value, &end);
            if (end == value || *end || errno || !isfinite(*v[k]))
                err = sc_error(SC_ERR_INPUT, "%s: factor '%s' is not a number", sub, value);
        } else if (sc_parse_quantity(value, SC_QTY_TIME, v[k]) != 0) {
            err = sc_error(SC_ERR_INPUT,
                           "%s: '%s' is not a duration; use a number with one of %s (a bare "
                           "number is seconds)",
                           sub, value, sc_quantity_units(SC_QTY_TIME));
        }
        *v[k] += 0.0; /* -0 is 0 */
    }
    return err;
}

/* SIZE:START:PER_BYTE;... (`factor` 0) or SIZE:FACTOR;... into *pw,
 * sorted by size (SMPI's sizes: whole bytes, however many segments
 * start at 0). */
static sc_err_t parse_setting(const char *where, const char *text, int factor, sc_piecewise_t *pw)
{
    const sc_piecewise_syntax_t syntax = {
        .syntax = factor ? "SIZE:FACTOR;... (e.g. 0:0.8;1420:0.95)"
                         : "SIZE:START:PER_BYTE;... (e.g. 0:1.7e-06:2.8e-10;1420:2e-06:0)",
        .note = factor ? ""
                       : " (SMPI reads START and PER_BYTE of every segment, and ignores further "
                         "values)",
        .min_fields = factor ? 2 : 3,
        .max_fields = factor ? 2 : INT_MAX,
        .segment = smpi_segment,
        .arg = &factor,
    };
    sc_err_t err = sc_piecewise_parse(where, text, &syntax, pw);
    if (err)
        return err;
    int k = sc_piecewise_repeated(pw);
    if (k)
        return sc_error(SC_ERR_INPUT, "%s: two segments at %ld bytes (SMPI would take either)",
                        where, (long)pw->seg[k].min_bytes);
    return SC_OK;
}

/* The parameter `name` of the network level. */
static const sc_param_t *param(const char *name)
{
    return sc_param_find(name, strlen(name), SC_AT_INTER);
}

/* smpi/os or smpi/or: simcoll's segment 0 is SMPI's first (which SMPI
 * applies to every size up to the second's SIZE), segment k from SMPI's
 * SIZE + 1. */
static sc_err_t translate_overhead(const char *where, const char *value, FILE *out)
{
    sc_piecewise_t pw;
    sc_err_t err = parse_setting(where, value, 0, &pw);
    if (err)
        return err;
    const sc_segment_t *seg = pw.seg;
    const sc_param_t *p = param("send-overhead");
    for (int k = 0; k < pw.n; k++) {
        if (seg[k].start < 0 || seg[k].per_byte < 0)
            return sc_error(SC_ERR_INPUT,
                            "%s: segment at %ld bytes costs %.15g s + %.15g s a byte: simcoll "
                            "takes no negative overhead (SMPI charges none where the sum is "
                            "negative, and subtracts where it is not); refit the segment, or "
                            "give 0",
                            where, (long)seg[k].min_bytes, seg[k].start, seg[k].per_byte);
        if (seg[k].start > p->max)
            return sc_error(SC_ERR_INPUT,
                            "%s: START %.15g s (segment at %ld bytes) is out of range; a start is "
                            "at most %g s",
                            where, seg[k].start, (long)seg[k].min_bytes, p->max);
        if (seg[k].per_byte > SC_PROP_MAX_PER_BYTE)
            return sc_error(SC_ERR_INPUT,
                            "%s: PER_BYTE %.15g s (segment at %ld bytes) is out of range; a cost "
                            "per byte is at most %g s",
                            where, seg[k].per_byte, (long)seg[k].min_bytes, SC_PROP_MAX_PER_BYTE);
        /* in seconds, said: simcoll's properties take no bare durations */
        fprintf(out, "%s%ld:", k ? ";" : "", k ? (long)seg[k].min_bytes + 1 : 0L);
        put_double(out, seg[k].start);
        fputs("s:", out);
        put_double(out, seg[k].per_byte);
        fputc('s', out);
    }
    return SC_OK;
}

/* smpi/bw-factor or smpi/lat-factor: SMPI's factor at SIZE is for messages
 * of m bytes with m + 16 > SIZE, from SIZE - 15 on (0 if less); 1 below
 * the first. Nothing is written when the factor is 1 at every size (the
 * property's default). */
static sc_err_t translate_factor(const char *where, const char *value, const sc_param_t *p,
                                 FILE *out)
{
    sc_piecewise_t pw;
    sc_err_t err = parse_setting(where, value, 1, &pw);
    if (err)
        return err;
    const sc_segment_t *seg = pw.seg;
    int low = 0, ones = 1;
    for (int k = 0; k < pw.n; k++) {
        if (seg[k].start < seg[low].start)
            low = k;
        ones &= seg[k].start == 1;
    }
    double smallest = seg[low].start;
    if (p->min >= 1 && smallest < p->min)
        return sc_error(SC_ERR_INPUT,
                        "%s: factor %.15g (segment at %ld bytes) is below 1: simcoll adds the "
                        "latency beyond the route's at the receiver and cannot take any away. "
                        "Give the NIC links %.15g times their latency and divide every factor by "
                        "%.15g: the same latency for every size, in SMPI too",
                        where, smallest, (long)seg[low].min_bytes, smallest, smallest);
    for (int k = 0; k < pw.n; k++)
        if (!(p->above_min ? seg[k].start > p->min : seg[k].start >= p->min) ||
            !(seg[k].start <= p->max))
            return sc_error(SC_ERR_INPUT,
                            "%s: factor %.15g (segment at %ld bytes) is not %s %g "
                            "and at most %g",
                            where, seg[k].start, (long)seg[k].min_bytes,
                            p->above_min ? "above" : "at least", p->min, p->max);
    if (ones)
        return SC_OK;
    /* At most one segment of simcoll's for each of SMPI's, and one more. */
    sc_segment_t mine[SC_MAX_SEGMENTS + 1];
    int m = 0;
    if (seg[0].min_bytes >= SC_SMPI_ENVELOPE)
        mine[m++] = (sc_segment_t){.min_bytes = 0, .start = 1};
    for (int k = 0; k < pw.n; k++) {
        double from =
            seg[k].min_bytes >= SC_SMPI_ENVELOPE ? seg[k].min_bytes - SC_SMPI_ENVELOPE + 1 : 0;
        if (m && mine[m - 1].min_bytes == from)
            m--; /* SMPI's later segment covers every size of this one */
        mine[m++] = (sc_segment_t){.min_bytes = from, .start = seg[k].start};
    }
    if (m > SC_MAX_SEGMENTS)
        return sc_error(SC_ERR_INPUT,
                        "%s: %d segments, with the factor 1 SMPI applies below the first "
                        "(%ld bytes with the envelope); simcoll takes at most %d",
                        where, m, (long)seg[0].min_bytes, SC_MAX_SEGMENTS);
    for (int k = 0; k < m; k++) {
        fprintf(out, "%s%ld:", k ? ";" : "", (long)mine[k].min_bytes);
        put_double(out, mine[k].start);
    }
    return SC_OK;
}

/* The two thresholds, into the eager limit: simcoll sends a message of at
 * most the eager limit at once, before its receive is posted, and the
 * sender goes on (both of SMPI's below both thresholds); larger ones wait
 * for the receiver (SMPI's above both). */
static sc_err_t translate_thresholds(const char *file, const char *const value[SC_SMPI_N],
                                     const int line[SC_SMPI_N], FILE *out)
{
    const char *async = sc_smpi_names[SC_SMPI_ASYNC_SMALL];
    const char *detached = sc_smpi_names[SC_SMPI_DETACHED];
    long t[SC_SMPI_N] = {0};
    for (int k = SC_SMPI_ASYNC_SMALL; k <= SC_SMPI_DETACHED; k++) {
        char where[1300];
        snprintf(where, sizeof where, "%s:%d: <config> %s", file, line[k], sc_smpi_names[k]);
        sc_err_t err = value[k] ? parse_bytes(where, value[k], &t[k]) : SC_OK;
        if (err)
            return err;
    }
    int given = value[SC_SMPI_ASYNC_SMALL] ? SC_SMPI_ASYNC_SMALL : SC_SMPI_DETACHED;
    if (!value[SC_SMPI_ASYNC_SMALL] || !value[SC_SMPI_DETACHED])
        return sc_error(
            SC_ERR_INPUT,
            "%s:%d: <config> gives %s but not %s: simcoll has one protocol switch, "
            "its eager limit, below which a message goes before its receive is "
            "posted (SMPI's %s) and its sender goes on (SMPI's %s). Give both the "
            "same value, the eager limit + 1, or leave both out and give "
            "simcoll/inter/eager-limit",
            file, line[given], sc_smpi_names[given],
            sc_smpi_names[given == SC_SMPI_DETACHED ? SC_SMPI_ASYNC_SMALL : SC_SMPI_DETACHED],
            async, detached);
    if (t[SC_SMPI_ASYNC_SMALL] > t[SC_SMPI_DETACHED])
        return sc_error(SC_ERR_INPUT,
                        "%s:%d: <config> %s %ld is above %s %ld, which SMPI refuses; give both "
                        "the same value, the eager limit + 1",
                        file, line[SC_SMPI_ASYNC_SMALL], async, t[SC_SMPI_ASYNC_SMALL], detached,
                        t[SC_SMPI_DETACHED]);
    if (t[SC_SMPI_ASYNC_SMALL] < t[SC_SMPI_DETACHED])
        return sc_error(SC_ERR_INPUT,
                        "%s:%d: <config> %s %ld is below %s %ld: a send of %ld to %ld bytes "
                        "returns at once in SMPI, but its data waits for the receive, which "
                        "simcoll does not model (one protocol switch, its eager limit). Give both "
                        "the same value, the eager limit + 1",
                        file, line[SC_SMPI_ASYNC_SMALL], async, t[SC_SMPI_ASYNC_SMALL], detached,
                        t[SC_SMPI_DETACHED], t[SC_SMPI_ASYNC_SMALL], t[SC_SMPI_DETACHED] - 1);
    if (t[SC_SMPI_DETACHED] == 0)
        return sc_error(SC_ERR_INPUT,
                        "%s:%d: <config> %s 0 sends no message eagerly; simcoll sends messages "
                        "up to its eager limit eagerly, and 0 bytes at least: give 1 or more",
                        file, line[SC_SMPI_DETACHED], detached);
    fprintf(out, "%ld", t[SC_SMPI_DETACHED] - 1);
    return SC_OK;
}

sc_err_t sc_smpi_translate(const char *file, const char *const value[SC_SMPI_N],
                           const int line[SC_SMPI_N], char *text[SC_MAX_PLATFORM_PROPS],
                           int from[SC_MAX_PLATFORM_PROPS])
{
    for (int i = 0; i < SC_MAX_PLATFORM_PROPS; i++) {
        text[i] = NULL;
        from[i] = -1;
    }
    sc_err_t err = SC_OK;
    for (int k = 0; k < SC_SMPI_N && !err; k++) {
        if (!value[k] || (k == SC_SMPI_ASYNC_SMALL && value[SC_SMPI_DETACHED]))
            continue; /* the thresholds: once, as the detached one */
        char id[64];
        snprintf(id, sizeof id, "simcoll/inter/%s", gives[k]);
        int i = sc_platform_prop_index(id);
        char where[1300];
        snprintf(where, sizeof where, "%s:%d: <config> %s", file, line[k], sc_smpi_names[k]);
        char *out = NULL;
        size_t len = 0;
        FILE *f = open_memstream(&out, &len);
        if (!f)
            return sc_error(SC_ERR_RUN, "out of memory");
        switch (k) {
        case SC_SMPI_OS:
        case SC_SMPI_OR: err = translate_overhead(where, value[k], f); break;
        case SC_SMPI_BW_FACTOR:
        case SC_SMPI_LAT_FACTOR: err = translate_factor(where, value[k], param(gives[k]), f); break;
        default: err = translate_thresholds(file, value, line, f); break;
        }
        if (fclose(f) != 0 && !err)
            err = sc_error(SC_ERR_RUN, "out of memory");
        if (err || !len) {
            free(out);
            continue;
        }
        text[i] = out;
        from[i] = k;
    }
    if (err)
        for (int i = 0; i < SC_MAX_PLATFORM_PROPS; i++) {
            free(text[i]);
            text[i] = NULL;
        }
    return err;
}

/* A size SMPI reads with std::stoi. */
static sc_err_t fits(const char *setting, double bytes)
{
    if (bytes > INT_MAX)
        return sc_error(SC_ERR_INPUT,
                        "--smpi-config: %s would need a size of %.0f bytes; SMPI's "
                        "are ints, at most %d",
                        setting, bytes, INT_MAX);
    return SC_OK;
}

/* A setting from simcoll's segments: an overhead's SIZE:START:PER_BYTE,
 * simcoll's segment k > 0 as SMPI's at its SIZE - 1 (SMPI's segment is for
 * sizes above SIZE); a factor's SIZE:FACTOR at the size SMPI gives it, the
 * envelope's bytes added. A factor is written even without segments:
 * SMPI's own defaults are not 1. */
static sc_err_t write_setting(FILE *f, const char *setting, const sc_piecewise_t *pw, int factor,
                              const char *indent)
{
    fprintf(f, "%s<prop id=\"%s\" value=\"", indent, setting);
    if (pw->n == 0)
        fputs(factor ? "0:1" : "0:0:0", f);
    for (int k = 0; k < pw->n; k++) {
        double size = factor ? pw->seg[k].min_bytes + SC_SMPI_ENVELOPE - 1
                      : k    ? pw->seg[k].min_bytes - 1
                             : 0;
        sc_err_t err = fits(setting, size);
        if (err)
            return err;
        fprintf(f, "%s%.0f:", k ? ";" : "", size);
        put_double(f, pw->seg[k].start);
        if (!factor) {
            fputc(':', f);
            put_double(f, pw->seg[k].per_byte);
        }
    }
    fputs("\"/>\n", f);
    return SC_OK;
}

sc_err_t sc_smpi_write(FILE *f, const sc_level_t *lv, const char *indent)
{
    sc_err_t err = fits("smpi/send-is-detached-thresh", (double)lv->eager_limit + 1);
    if (err)
        return err;
    fprintf(f, "%s<config>\n", indent);
    char inner[64];
    snprintf(inner, sizeof inner, "%s  ", indent);
    if ((err = write_setting(f, sc_smpi_names[SC_SMPI_OS], &lv->send_overhead, 0, inner)) ||
        (lv->recv_overhead.n &&
         (err = write_setting(f, sc_smpi_names[SC_SMPI_OR], &lv->recv_overhead, 0, inner))) ||
        (err = write_setting(f, sc_smpi_names[SC_SMPI_BW_FACTOR], &lv->bandwidth_factor, 1,
                             inner)) ||
        (err = write_setting(f, sc_smpi_names[SC_SMPI_LAT_FACTOR], &lv->latency_factor, 1, inner)))
        return err;
    for (int k = SC_SMPI_ASYNC_SMALL; k <= SC_SMPI_DETACHED; k++)
        fprintf(f, "%s<prop id=\"%s\" value=\"%zu\"/>\n", inner, sc_smpi_names[k],
                lv->eager_limit + 1);
    fprintf(f, "%s</config>\n", indent);
    return SC_OK;
}
