/* simcoll-probe (sim/probe/simcoll_probe.c): "# simcoll-probe 1" first,
 * comments about the cluster, then rows "kind placement pairs bytes
 * value", or "collective NAME np bytes seconds"; a series is a run of rows
 * of one kind, placement and pairs, or of one collective and np.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "reader.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

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

/* The point of a row, in the open series if the row continues it, else in
 * a new one: a series is a run of rows of one kind, placement and pairs,
 * or of one collective and np (the other fields "" and 0). */
static sc_err_t probe_point(sc_meas_reader_t *r, const char *line, sc_measure_kind_t kind,
                            const char *collective, int np, const char *placement, int pairs,
                            size_t bytes, double value)
{
    const sc_series_t *open = r->open >= 0 ? &r->series[r->open] : NULL;
    if (!open || open->kind != kind || strcmp(open->collective, collective) || open->np != np ||
        strcmp(open->placement, placement) || open->pairs != pairs) {
        sc_err_t err;
        if ((err = sc_meas_series_close(r, "rows")) ||
            (err = sc_meas_series_open(r, line, kind, "simcoll-probe 1", collective, np, pairs)))
            return err;
        snprintf(r->series[r->open].placement, sizeof r->series[r->open].placement, "%s",
                 placement);
    }
    return sc_meas_point_add(r, bytes, value, NAN);
}

/* A row "collective NAME np bytes seconds" (OSU's average over ranks). */
static sc_err_t probe_collective(sc_meas_reader_t *r, char **field, const char *line)
{
    char shown[80];
    const char *name = field[1];
    size_t len = strlen(name);
    if (len == 0 || len >= sizeof r->series[0].collective ||
        strspn(name, "abcdefghijklmnopqrstuvwxyz_") != len)
        return sc_error_at(r->where, r->line,
                           "collective '%s'; expected a name in lower case (bcast, "
                           "allreduce, ...)",
                           sc_meas_show(name, shown, sizeof shown));
    int np;
    size_t bytes;
    double value;
    sc_err_t err;
    if ((err = sc_meas_get_count(r, "np", field[2], &np)) ||
        (err = sc_meas_get_size(r, "bytes", field[3], &bytes)) ||
        (err = sc_meas_get_real(r, "seconds", field[4], &value)))
        return err;
    return probe_point(r, line, SC_MEASURE_COLLECTIVE, name, np, "", 0, bytes, value);
}

/* A row "kind placement pairs bytes value". */
static sc_err_t probe_message(sc_meas_reader_t *r, char **field, const char *line)
{
    char shown[80];
    size_t k = 0, nk = sizeof probe_kinds / sizeof probe_kinds[0], p = 0;
    while (k < nk && strcmp(field[0], probe_kinds[k].name))
        k++;
    while (p < NPROBE_PLACEMENTS && strcmp(field[1], probe_placements[p]))
        p++;
    if (k == nk)
        return sc_error_at(r->where, r->line,
                           "kind '%s'; expected latency, send-overhead, "
                           "recv-overhead or bandwidth",
                           sc_meas_show(field[0], shown, sizeof shown));
    if (p == NPROBE_PLACEMENTS)
        return sc_error_at(r->where, r->line,
                           "placement '%s'; expected intra, ccx, numa, socket or inter",
                           sc_meas_show(field[1], shown, sizeof shown));
    int pairs;
    size_t bytes;
    double value;
    sc_err_t err;
    if ((err = sc_meas_get_count(r, "pairs", field[2], &pairs)) ||
        (err = sc_meas_get_size(r, "bytes", field[3], &bytes)) ||
        (err = sc_meas_get_real(r, "value", field[4], &value)))
        return err;
    if (probe_kinds[k].kind != SC_MEASURE_BANDWIDTH && pairs != 1)
        return sc_error_at(r->where, r->line,
                           "%s with %d pairs; expected 1 (only bandwidth rows "
                           "stream several pairs at once)",
                           probe_kinds[k].name, pairs);
    return probe_point(r, line, probe_kinds[k].kind, "", 0, probe_placements[p],
                       pairs > 1 ? pairs : 0, bytes, value);
}

sc_err_t sc_meas_probe_parse(sc_meas_reader_t *r)
{
    char *field[SC_MEAS_MAX_FIELDS + 1], shown[80], copy[SC_MEAS_LINE_MAX + 1];
    sc_err_t err = SC_OK;
    int version_seen = 0;
    sc_meas_rewind(r);
    while (!err && sc_meas_next_line(r, &err) > 0) {
        char *s = sc_meas_trim(r->buf);
        if (!version_seen && *s) {
            if (strcmp(s, "# simcoll-probe 1") && !sc_meas_starts_with(s, "# simcoll-probe 1:"))
                return sc_error_at(r->where, r->line,
                                   "'%s' is not simcoll-probe's first line; expected "
                                   "'# simcoll-probe 1' (version 1)",
                                   sc_meas_show(s, shown, sizeof shown));
            version_seen = 1;
            continue;
        }
        if (!*s || *s == '#')
            continue;
        snprintf(copy, sizeof copy, "%s", s);
        int n = sc_meas_split(s, field);
        if (n != 5)
            return sc_error_at(r->where, r->line,
                               "'%s' has %d fields; expected 5: kind placement pairs "
                               "bytes value, or collective NAME np bytes seconds",
                               sc_meas_show(copy, shown, sizeof shown), n);
        err = !strcmp(field[0], "collective") ? probe_collective(r, field, copy)
                                              : probe_message(r, field, copy);
    }
    if (!err && !version_seen)
        err = sc_error_at(r->where, 0, "no line in it; expected '# simcoll-probe 1' first");
    return err;
}

/* s is a trimmed line starting with '#'. */
int sc_meas_probe_header(const char *s)
{
    return sc_meas_starts_with(s, "# simcoll-probe ");
}
