/* simcoll-probe (sim/probe/simcoll_probe.c): "# simcoll-probe 1" first,
 * comments about the cluster, then rows "kind placement pairs bytes
 * value", or "collective NAME np bytes seconds"; a series is a run of rows
 * of one kind, placement and pairs, or of one collective and np. The rows
 * of --call-costs are checked and skipped: nothing is fitted to them yet.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "reader.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
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

/* The rows of simcoll-probe --call-costs (issue 45: what a small
 * collective pays beside its messages): each is checked as a row, then
 * skipped, but for the broadcasts on the intra placement's two ranks,
 * which the call series keeps (probe_call). `self` marks a kind that may
 * be measured on MPI_COMM_SELF (placement "self"), `sign` one whose value
 * may be negative (a difference of two ranks' times). */
static const struct {
    const char *name;
    int self, sign;
} probe_skipped[] = {
    {"call-barrier", 1, 0},
    {"call-barrier-min", 1, 0},
    {"call-bcast", 1, 0},
    {"call-bcast-min", 1, 0},
    {"call-allreduce", 1, 0},
    {"call-allreduce-min", 1, 0},
    {"call-scatter", 1, 0},
    {"call-scatter-min", 1, 0},
    {"call-pingpong", 0, 0},
    {"call-pingpong-min", 0, 0},
    {"pingpong-barrier", 0, 0},
    {"pingpong-barrier-min", 0, 0},
    {"pingpong-requests", 0, 0},
    {"pingpong-requests-min", 0, 0},
    {"fan-in", 0, 0},
    {"fan-in-min", 0, 0},
    {"relay", 0, 0},
    {"relay-min", 0, 0},
    {"barrier-skew", 0, 1},
    {"barrier-skew-bcast", 0, 1},
};
enum { NPROBE_SKIPPED = sizeof probe_skipped / sizeof probe_skipped[0] };

/* A row of a kind of probe_skipped[k]: SC_OK if it is well formed (a
 * known placement, pairs, bytes, a finite value), its bytes and value
 * into *bytes and *value. */
static sc_err_t probe_skip(sc_meas_reader_t *r, char **field, size_t k, size_t *bytes,
                           double *value)
{
    char shown[80];
    size_t p = 0;
    while (p < NPROBE_PLACEMENTS && strcmp(field[1], probe_placements[p]))
        p++;
    if (p == NPROBE_PLACEMENTS && !(probe_skipped[k].self && !strcmp(field[1], "self")))
        return sc_error_at(r->where, r->line,
                           "placement '%s' of %s; expected %sintra, ccx, "
                           "numa, socket or inter",
                           sc_meas_show(field[1], shown, sizeof shown), probe_skipped[k].name,
                           probe_skipped[k].self ? "self, " : "");
    int pairs;
    sc_err_t err;
    if ((err = sc_meas_get_count(r, "pairs", field[2], &pairs)) ||
        (err = sc_meas_get_size(r, "bytes", field[3], bytes)))
        return err;
    sc_meas_num_t num = sc_meas_parse_real(field[4], value);
    if (num == SC_MEAS_NUM_OK ||
        (num == SC_MEAS_NUM_NEGATIVE && probe_skipped[k].sign && isfinite(strtod(field[4], NULL))))
        return SC_OK;
    return sc_meas_get_real(r, "value", field[4], value);
}

/* What the call series needs of the rows: where it is (-1 before its
 * first point), and the intra placement's last ping-pong row. */
typedef struct {
    int series;
    size_t pingpong_bytes;
    double pingpong; /* NAN: none yet */
} probe_calls_t;

/* Row `kind` of the intra placement (checked): a ping-pong is kept for
 * the broadcast of its size that follows it; that broadcast and it make
 * a point of the call series (SC_MEASURE_CALL), which the rows between
 * leave open, as they leave the message series open. */
static sc_err_t probe_call(sc_meas_reader_t *r, const char *line, const char *kind,
                           probe_calls_t *calls, size_t bytes, double value)
{
    if (!strcmp(kind, "call-pingpong")) {
        calls->pingpong_bytes = bytes;
        calls->pingpong = value;
        return SC_OK;
    }
    if (strcmp(kind, "call-bcast") || isnan(calls->pingpong) || calls->pingpong_bytes != bytes)
        return SC_OK;
    int was = r->open;
    sc_err_t err = SC_OK;
    if (calls->series < 0) {
        r->open = -1; /* `was` goes on after this row */
        err = sc_meas_series_open(r, line, SC_MEASURE_CALL, "simcoll-probe 1", "bcast", 2, 0);
        if (!err) {
            calls->series = r->open;
            snprintf(r->series[r->open].placement, sizeof r->series[r->open].placement, "intra");
        }
    }
    r->open = calls->series;
    if (!err)
        err = sc_meas_point_add(r, bytes, value, calls->pingpong);
    r->open = was;
    return err;
}

/* The index in probe_skipped of a kind, or -1. */
static int probe_skipped_kind(const char *kind)
{
    for (size_t k = 0; k < NPROBE_SKIPPED; k++)
        if (!strcmp(kind, probe_skipped[k].name))
            return (int)k;
    return -1;
}

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
                           "recv-overhead or bandwidth (or one of --call-costs: call-bcast, "
                           "...)",
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
    int version_seen = 0, skipped = 0, k;
    char first_skipped[24] = "";
    probe_calls_t calls = {.series = -1, .pingpong = NAN};
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
        if ((k = probe_skipped_kind(field[0])) >= 0) {
            if (!skipped++)
                snprintf(first_skipped, sizeof first_skipped, "%s", field[0]);
            size_t bytes;
            double value;
            err = probe_skip(r, field, (size_t)k, &bytes, &value);
            if (!err && !strcmp(field[1], "intra") && !strcmp(field[2], "1"))
                err = probe_call(r, copy, field[0], &calls, bytes, value);
            continue;
        }
        err = !strcmp(field[0], "collective") ? probe_collective(r, field, copy)
                                              : probe_message(r, field, copy);
    }
    if (!err && !version_seen)
        err = sc_error_at(r->where, 0, "no line in it; expected '# simcoll-probe 1' first");
    if (!err && r->nseries == (calls.series >= 0) && skipped)
        err = sc_error_at(r->where, 0,
                          "only the %d rows of simcoll-probe --call-costs (%s, ...), which "
                          "give no message's time to fit; expected a run without "
                          "--skip-point-to-point",
                          skipped, first_skipped);
    return err;
}

/* s is a trimmed line starting with '#'. */
int sc_meas_probe_header(const char *s)
{
    return sc_meas_starts_with(s, "# simcoll-probe ");
}
