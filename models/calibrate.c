/* Fitting a level's message costs (LogGP, models/platform.h) to
 * point-to-point measurements, and predicting those measurements back.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "calibrate.h"
#include "calibrate_series.h"
#include "common/sc_stats.h"
#include "params.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Messages per second in one direction between two nodes when `pairs`
 * cores stream at once, each busy `per_message` a message and each
 * message `flow` at its flow bound: the slowest of the cores, the
 * messages' own rate, the NIC's gap and the wire, which holds each for
 * `link`. */
static double stream_rate(const sc_level_t *lv, int pairs, double per_message, double flow,
                          double link)
{
    double busiest = fmax(per_message, flow);
    double rate = busiest > 0 ? pairs / busiest : INFINITY;
    if (lv->gap_s > 0 && 1 / lv->gap_s < rate)
        rate = 1 / lv->gap_s;
    if (link > 0 && 1 / link < rate)
        rate = 1 / link;
    return rate;
}

double sc_calibrate_predict(const sc_level_t *lv, size_t header, int shared_memory,
                            const sc_series_t *s, const sc_point_t *p)
{
    size_t m = p->bytes;
    double os = sc_level_send_overhead(lv, m), orr = sc_level_recv_overhead(lv, m);
    double link = sc_level_link_time(lv, header, m), flow = sc_level_flow_time(lv, header, m);
    int pairs = s->pairs > 0 ? s->pairs : 1;
    switch (s->kind) {
    case SC_MEASURE_LATENCY:
    case SC_MEASURE_PINGPING:
        return os +
               (m <= lv->eager_limit
                    ? sc_level_wire_time(lv, header, m)
                    : 2 * sc_level_wire_time(lv, header, 0) + sc_level_wire_time(lv, header, m)) +
               orr;
    case SC_MEASURE_SEND_OVERHEAD:
        return os;
    case SC_MEASURE_RECV_OVERHEAD:
        /* A rendezvous message has only announced itself: the receive
         * answers, and the data comes. */
        return m <= lv->eager_limit
                   ? orr
                   : sc_level_wire_time(lv, header, 0) + sc_level_wire_time(lv, header, m) + orr;
    case SC_MEASURE_BANDWIDTH:
    case SC_MEASURE_MESSAGE_RATE: /* senders busy o_s a message, receivers o_r */
        return (double)m * stream_rate(lv, pairs, os > orr ? os : orr, flow, link);
    case SC_MEASURE_BIBANDWIDTH: /* every core sends and receives; the two
                                    directions share a node's one memory link,
                                    or its NIC's B_bi */
        if (!shared_memory && lv->bidirectional_Bps > 0 &&
            2 * link * lv->bandwidth_Bps / lv->bidirectional_Bps > link)
            link = 2 * link * lv->bandwidth_Bps / lv->bidirectional_Bps;
        return 2 * (double)m *
               stream_rate(lv, pairs, os + orr, flow, shared_memory ? 2 * link : link);
    case SC_MEASURE_COLLECTIVE:
    case SC_MEASURE_CALL: /* no message's time: fit_call_overhead's note says how it fits */ break;
    }
    return NAN;
}

static sc_fit_note_t *note(sc_fit_t *fit, const char *what, const char *value,
                           const char *how_fmt, ...) __attribute__((format(printf, 4, 5)));
/* Records how a parameter was obtained, as fitted; a later note of the
 * same parameter replaces the earlier one, in its place. Returns the note
 * (NULL when the notes are full), for its origin. */
static sc_fit_note_t *note(sc_fit_t *fit, const char *what, const char *value,
                           const char *how_fmt, ...)
{
    sc_fit_note_t *n = NULL;
    for (int i = 0; i < fit->nnotes && !n; i++)
        if (strcmp(fit->notes[i].what, what) == 0)
            n = &fit->notes[i];
    if (!n && fit->nnotes == SC_MAX_FIT_NOTES)
        return NULL;
    if (!n)
        n = &fit->notes[fit->nnotes++];
    n->origin = SC_FIT_FITTED;
    snprintf(n->what, sizeof n->what, "%s", what);
    snprintf(n->value, sizeof n->value, "%s", value);
    va_list ap;
    va_start(ap, how_fmt);
    vsnprintf(n->how, sizeof n->how, how_fmt, ap);
    va_end(ap);
    return n;
}

static void set_origin(sc_fit_note_t *n, sc_fit_origin_t origin)
{
    if (n)
        n->origin = origin;
}

/* The segments' first sizes: 0, the breakpoints, and past the eager limit. */
static int segment_starts(const sc_fit_spec_t *spec, double *starts)
{
    int n = 0;
    starts[n++] = 0;
    double eager_end = (double)spec->eager_limit + 1;
    for (int i = 0; i < spec->nbreakpoints && n < SC_MAX_SEGMENTS - 1; i++) {
        double b = (double)spec->breakpoints[i];
        if (b > starts[n - 1] && b < eager_end)
            starts[n++] = b;
    }
    if (n < SC_MAX_SEGMENTS)
        starts[n++] = eager_end;
    for (int i = 0; i < spec->nbreakpoints && n < SC_MAX_SEGMENTS; i++) {
        double b = (double)spec->breakpoints[i];
        if (b > starts[n - 1])
            starts[n++] = b;
    }
    return n;
}

static void segment_name(char *out, size_t len, const char *param, const double *starts, int k,
                         int n)
{
    if (k + 1 < n)
        snprintf(out, len, "%s [%.0f, %.0f)", param, starts[k], starts[k + 1]);
    else
        snprintf(out, len, "%s [%.0f, ...)", param, starts[k]);
}

/* Where a straight line would have a negative term: y = a (per_message
 * 1, the mean of y) or y = b x (the mean of y / x) over sizes in [lo, hi). */
static void segment_mean(const sc_medians_t *md, double lo, double hi, const double *y,
                         int per_message, double *a, double *b)
{
    double sum = 0;
    int n = 0;
    for (int i = 0; i < md->n; i++)
        if (md->sizes[i] >= lo && md->sizes[i] < hi && !isnan(y[i])) {
            sum += per_message ? y[i] : y[i] / md->sizes[i];
            n++;
        }
    *a = per_message ? sum / n : 0;
    *b = per_message ? 0 : sum / n;
}

/* An overhead, piecewise, from samples; the fallback's where none. From
 * `first_unusable` on (the first rendezvous size, for o_r: a receive of
 * such a message fetches the data, so its time is not an overhead) the
 * segments repeat the last one below. */
static void fit_overhead(const sc_medians_t *md, const double *starts, int nseg,
                         double first_unusable, const sc_piecewise_t *fallback, const char *param,
                         sc_fit_t *fit, sc_piecewise_t *out)
{
    char name[48], value[64];
    if (md->n == 0) {
        *out = *fallback;
        snprintf(value, sizeof value, fallback->n > 1 ? "%.4g s + %.4g s/B, ..." : "%.4g s + %.4g s/B",
                 fallback->n ? fallback->seg[0].start : 0,
                 fallback->n ? fallback->seg[0].per_byte : 0);
        set_origin(note(fit, param, value, "no samples: the template's, kept"), SC_FIT_KEPT);
        return;
    }
    *out = (sc_piecewise_t){.n = nseg};
    for (int k = 0; k < nseg; k++) {
        double lo = starts[k], hi = k + 1 < nseg ? starts[k + 1] : INFINITY, a, b;
        int usable = lo < first_unusable;
        int used = usable ? sc_least_squares(md, lo, hi, NULL, &a, &b) : 0;
        segment_name(name, sizeof name, param, starts, k, nseg);
        if (used == 0 && k > 0) {
            out->seg[k] = out->seg[k - 1];
            out->seg[k].min_bytes = lo;
            snprintf(value, sizeof value, "%.4g s + %.4g s/B", out->seg[k].start,
                     out->seg[k].per_byte);
            note(fit, name, value,
                 usable ? "no sample in this segment: the one below"
                        : "rendezvous: a receive here also fetches the data; the one below");
            continue;
        }
        if (used == 0) { /* nothing below the first sample: its value */
            a = md->values[0];
            b = 0;
        }
        if (b < 0) /* noise on a flat segment: its mean */
            segment_mean(md, lo, hi, md->values, 1, &a, &b);
        int negative = a < 0;
        if (negative)
            a = 0;
        out->seg[k] = (sc_segment_t){lo, a, b};
        snprintf(value, sizeof value, "%.4g s + %.4g s/B", a, b);
        set_origin(note(fit, name, value, "least squares over %d size%s of %s%s", used,
                        used == 1 ? "" : "s", md->files, negative ? ", below 0 s: 0" : ""),
                   negative ? SC_FIT_CLAMPED : SC_FIT_FITTED);
    }
}

/* o_call (shared memory only): a broadcast on two ranks is one message and
 * no algorithm, so what it takes beyond the ping-pong's one-way time beside
 * it is the call's own cost; the median of that over the sizes sent
 * eagerly (past the eager limit the ping-pong may take another protocol
 * than the broadcast: Open MPI 4.1's vader does, at 3868 bytes), at least
 * 0. Without such measurements the template's stays, noted as kept when
 * it has one. */
static sc_err_t fit_call_overhead(const sc_fit_spec_t *spec, const sc_series_t *series, int nseries,
                                  sc_fit_t *fit)
{
    double *extra;
    int n;
    const char *file;
    sc_err_t err = sc_call_extras(series, nseries, spec->eager_limit, &extra, &n, &file);
    if (err)
        return err;
    char value[64];
    double *o_call = &fit->level.call_overhead_s;
    if (n == 0) {
        free(extra);
        snprintf(value, sizeof value, "%.4g s", *o_call);
        if (*o_call > 0)
            set_origin(note(fit, "o_call", value,
                            "no broadcast on two ranks of a node (simcoll-probe --call-costs) "
                            "sent eagerly: the template's, kept"),
                       SC_FIT_KEPT);
        return SC_OK;
    }
    double median = sc_median_sorting(extra, n);
    free(extra);
    *o_call = median > 0 ? median : 0;
    snprintf(value, sizeof value, "%.4g s", *o_call);
    set_origin(note(fit, "o_call", value,
                    "the median over %d size%s of %s's call-bcast on two ranks less its "
                    "ping-pong's one-way time%s",
                    n, n == 1 ? "" : "s", file, median < 0 ? " (below 0: 0)" : ""),
               median < 0 ? SC_FIT_CLAMPED : SC_FIT_FITTED);
    return SC_OK;
}

/* o_s of shared memory from its ping-pong alone (spec->sender_share): the
 * sender of an eager message copies it into memory its receiver copies it
 * out of, so its core is busy for a share of the one-way time that grows
 * with the size; per eager segment that share of the ping-pong's least
 * squares there. Past the eager limit the sender only announces the
 * message (the receiver fetches the data): the share of the first
 * segment's intercept. o_r stays the template's. */
static void fit_sender_share(const sc_fit_spec_t *spec, const sc_medians_t *lat,
                             const double *starts, int nseg, sc_fit_t *fit)
{
    double share = spec->sender_share, eager_end = (double)spec->eager_limit + 1;
    sc_piecewise_t *os = &fit->level.send_overhead;
    *os = (sc_piecewise_t){.n = nseg};
    fit->sender_share = share;
    char name[48], value[64];
    for (int k = 0; k < nseg; k++) {
        double lo = starts[k], hi = k + 1 < nseg ? starts[k + 1] : INFINITY, a, b;
        int used = lo < eager_end ? sc_least_squares(lat, lo, hi, NULL, &a, &b) : 0;
        segment_name(name, sizeof name, "o_s", starts, k, nseg);
        if (lo >= eager_end || (used == 0 && k > 0)) {
            os->seg[k] =
                (sc_segment_t){lo, lo >= eager_end ? os->seg[0].start : os->seg[k - 1].start,
                               lo >= eager_end ? 0 : os->seg[k - 1].per_byte};
            snprintf(value, sizeof value, "%.4g s + %.4g s/B", os->seg[k].start,
                     os->seg[k].per_byte);
            note(fit, name, value,
                 lo >= eager_end ? "rendezvous: the sender announces the message; the first "
                                   "segment's start"
                                 : "no ping-pong size in this segment: the one below");
            continue;
        }
        if (used == 0) { /* no size below the first breakpoint: the smallest's time */
            a = lat->values[0];
            b = 0;
        }
        if (b < 0) /* noise on a flat segment: its mean */
            segment_mean(lat, lo, hi, lat->values, 1, &a, &b);
        os->seg[k] = (sc_segment_t){lo, share * fmax(a, 0), share * b};
        snprintf(value, sizeof value, "%.4g s + %.4g s/B", os->seg[k].start, os->seg[k].per_byte);
        note(fit, name, value,
             "%.3g of the ping-pong's least squares over %d size%s of %s (the sender's share, "
             "--sender-share)",
             share, used, used == 1 ? "" : "s", lat->files);
    }
}

/* The time per message of the fastest stream of small messages (1 to 64
 * bytes) between one sender and one receiver (osu_bw, osu_mbw_mr with one
 * pair), or 0 if no series has one. */
static sc_err_t single_stream_time(const sc_series_t *series, int nseries, double *per_message,
                                   const char **file)
{
    double best = 0;
    for (int i = 0; i < nseries; i++) {
        const sc_series_t *s = &series[i];
        if ((s->kind != SC_MEASURE_MESSAGE_RATE && s->kind != SC_MEASURE_BANDWIDTH) ||
            s->pairs > 1)
            continue;
        sc_medians_t md;
        sc_err_t err = sc_medians_of_kind(s, 1, s->kind, &md);
        if (err)
            return err;
        for (int j = 0; j < md.n; j++) {
            double rate = md.values[j] / md.sizes[j]; /* bytes/s to messages/s */
            if (md.sizes[j] >= 1 && md.sizes[j] <= 64 && rate > best) {
                best = rate;
                *file = s->path;
            }
        }
        sc_medians_free(&md);
    }
    *per_message = best > 0 ? 1 / best : 0;
    return SC_OK;
}

/* With overheads from a one-pair stream (single_stream_time): where
 * several pairs streaming at once carried more bytes per second through
 * one NIC than the ping-pong's slope (b[k] seconds a byte) allows the
 * wire, the wire is at least that fast, and the rest of the slope is the
 * cores' (copies): it goes to o_s and o_r, half each, which run in
 * parallel on the node's cores instead of queueing on its NIC. */
static sc_err_t cores_take_excess(const sc_series_t *series, int nseries, const double *starts,
                                  int nseg, const double *b, double B, double per_message,
                                  double per_message_recv, sc_fit_t *fit, sc_level_t *lv)
{
    double nic[SC_MAX_SEGMENTS] = {0};
    const char *file = NULL;
    for (int i = 0; i < nseries; i++) {
        const sc_series_t *s = &series[i];
        if ((s->kind != SC_MEASURE_MESSAGE_RATE && s->kind != SC_MEASURE_BANDWIDTH) ||
            s->pairs < 2)
            continue;
        sc_medians_t md;
        sc_err_t err = sc_medians_of_kind(s, 1, s->kind, &md);
        if (err)
            return err;
        for (int j = 0; j < md.n; j++)
            for (int k = 0; k < nseg; k++)
                if (md.sizes[j] >= starts[k] && (k + 1 == nseg || md.sizes[j] < starts[k + 1]) &&
                    md.values[j] > nic[k]) {
                    nic[k] = md.values[j];
                    file = s->path;
                }
        sc_medians_free(&md);
    }
    if (!file)
        return SC_OK;
    sc_piecewise_t *os = &lv->send_overhead, *orr = &lv->recv_overhead;
    *os = *orr = (sc_piecewise_t){.n = nseg};
    for (int k = 0; k < nseg; k++) {
        double f = lv->bandwidth_factor.seg[k].start, per_byte = 0;
        double g = nic[k] / B > 1 ? 1 : nic[k] / B;
        if (g > f && b[k] > 1 / (B * g)) {
            per_byte = (b[k] - 1 / (B * g)) / 2;
            lv->bandwidth_factor.seg[k].start = g;
            char name[48], value[64];
            segment_name(name, sizeof name, "factor", starts, k, nseg);
            snprintf(value, sizeof value, "%.4g", g);
            note(fit, name, value, "the most bytes/s several pairs streamed here through one NIC "
                 "(%s), over the bandwidth", file);
            snprintf(value, sizeof value, "+ %.4g s/B", per_byte);
            segment_name(name, sizeof name, "o_s, o_r", starts, k, nseg);
            note(fit, name, value, "each: the ping-pong's per-byte cost beyond that wire's, half "
                 "to each side");
        }
        os->seg[k] = (sc_segment_t){starts[k], per_message, per_byte};
        orr->seg[k] = (sc_segment_t){starts[k], per_message_recv, per_byte};
    }
    return SC_OK;
}

/* The most bytes a second any stream (one way or both ways, any number of
 * pairs) carried at the largest size measured: what passed through the
 * node's memory at once. *bytes that size, 0 if no series has one. The
 * largest size is the one whose buffers are least likely to sit in a
 * cache, which a collective's large buffers do not either. */
static sc_err_t largest_stream(const sc_series_t *series, int nseries, double *bytes,
                               double *rate, const char **file)
{
    *bytes = *rate = 0;
    for (int i = 0; i < nseries; i++) {
        const sc_series_t *s = &series[i];
        if (s->kind != SC_MEASURE_MESSAGE_RATE && s->kind != SC_MEASURE_BANDWIDTH &&
            s->kind != SC_MEASURE_BIBANDWIDTH)
            continue;
        sc_medians_t md;
        sc_err_t err = sc_medians_of_kind(s, 1, s->kind, &md);
        if (err)
            return err;
        if (md.n > 0 && (md.sizes[md.n - 1] > *bytes ||
                         (md.sizes[md.n - 1] == *bytes && md.values[md.n - 1] > *rate))) {
            *bytes = md.sizes[md.n - 1];
            *rate = md.values[md.n - 1];
            *file = s->path;
        }
        sc_medians_free(&md);
    }
    return SC_OK;
}

/* Per segment, a + b m by least squares over y (a term that would be
 * negative dropped), or *used = 0 where no size falls in the segment. */
static void fit_segment(const sc_medians_t *md, const double *starts, int k, int nseg,
                        double eager_end, const double *y, double *a, double *b, int *used)
{
    double lo = k == 0 ? 1 : starts[k], hi = k + 1 < nseg ? starts[k + 1] : INFINITY;
    *used = sc_least_squares(md, lo, hi, y, a, b);
    if (*used == 1) /* one size: a cost per message, or per byte past the eager limit */
        segment_mean(md, lo, hi, y, lo < eager_end, a, b);
    else if (*used && (*b < 0 || *a < 0))
        segment_mean(md, lo, hi, y, *b < 0, a, b);
}

/* A shared memory's bandwidth from streams: the most bytes a second pairs
 * pushed through the node at once (largest_stream), their headers counted.
 * SC_ERR_INPUT without one pair's stream one way of two sizes (`uni`), or
 * when the streams carried nothing at their largest size. */
static sc_err_t streams_bandwidth(const sc_fit_spec_t *spec, const sc_series_t *series, int nseries,
                                  const sc_medians_t *uni, sc_fit_t *fit)
{
    double m, rate;
    const char *all_file = NULL;
    sc_err_t err = largest_stream(series, nseries, &m, &rate, &all_file);
    if (err)
        return err;
    if (uni->n < 2)
        return sc_error(SC_ERR_INPUT,
                        "calibrate: no ping-pong latency (osu_latency, IMB PingPong, NetPIPE or an "
                        "SMPI PingPong CSV), nor one pair's stream of at least two sizes (IMB "
                        "Uniband on 2 processes, osu_bw) to fit the shared memory to");
    if (!(m > 0 && rate > 0))
        return sc_error(SC_ERR_INPUT,
                        "calibrate: the streams in %s carried nothing at their "
                        "largest size, %.0f bytes, so no bandwidth can be fitted",
                        all_file ? all_file : uni->files, m);
    sc_level_t *lv = &fit->level;
    double h = (double)spec->header_bytes;
    lv->bandwidth_Bps = rate * (m + h) / m;
    lv->bandwidth_factor = (sc_piecewise_t){0};
    char value[64];
    snprintf(value, sizeof value, "%.6g B/s", lv->bandwidth_Bps);
    note(fit, "bandwidth", value,
         "the most bytes/s of any stream of %.0f B, the largest size (%s), both ways counted",
         m, all_file);
    return SC_OK;
}

/* Per segment, o_r = a + b m over one pair's time a message one way
 * (`uni`: the slower side) and o_s over its time both ways (`bi`: o_s +
 * o_r) less o_r; used[k] and used_bi[k] count the sizes of each in
 * segment k. *limited: the sizes at which one way reached 90% of the
 * bandwidth. */
static sc_err_t fit_stream_segments(const sc_fit_spec_t *spec, const sc_medians_t *uni,
                                    const sc_medians_t *bi, double bandwidth, const double *starts,
                                    int nseg, int *used, int *used_bi, sc_piecewise_t *os,
                                    sc_piecewise_t *orr, int *limited)
{
    /* Seconds a message: one way, and each core's both ways (2m bytes);
     * NaN where a stream carried nothing. */
    double *t_uni = malloc((size_t)uni->n * sizeof *t_uni);
    double *t_bi = malloc((size_t)(bi->n > 0 ? bi->n : 1) * sizeof *t_bi);
    if (!t_uni || !t_bi) {
        free(t_uni);
        free(t_bi);
        return sc_error(SC_ERR_RUN, "out of memory fitting the measurements");
    }
    *limited = 0;
    for (int i = 0; i < uni->n; i++) {
        t_uni[i] = uni->values[i] > 0 ? uni->sizes[i] / uni->values[i] : NAN;
        *limited += uni->values[i] >= 0.9 * bandwidth;
    }
    for (int i = 0; i < bi->n; i++)
        t_bi[i] = bi->values[i] > 0 ? 2 * bi->sizes[i] / bi->values[i] : NAN;
    double eager_end = (double)spec->eager_limit + 1;
    *os = *orr = (sc_piecewise_t){.n = nseg};
    for (int k = 0; k < nseg; k++) {
        double a, b, a2 = 0, b2 = 0;
        used_bi[k] = 0;
        fit_segment(uni, starts, k, nseg, eager_end, t_uni, &a, &b, &used[k]);
        if (bi->n > 0)
            fit_segment(bi, starts, k, nseg, eager_end, t_bi, &a2, &b2, &used_bi[k]);
        /* The receiver is the slower side: it copies the data out (of a
         * shared buffer, or straight from the sender's memory). The sender
         * gets what both ways took beyond it, each term within 0 and the
         * receiver's. */
        double fa = used_bi[k] ? a2 - a : a, fb = used_bi[k] ? b2 - b : b;
        fa = fa < 0 ? 0 : fa > a ? a : fa;
        fb = fb < 0 ? 0 : fb > b ? b : fb;
        orr->seg[k] = (sc_segment_t){starts[k], a, b};
        os->seg[k] = (sc_segment_t){starts[k], fa, fb};
    }
    free(t_uni);
    free(t_bi);
    return SC_OK;
}

/* Notes every segment's o_s and o_r as fit_stream_segments gave them; a
 * segment without a size of one pair's stream first takes the nearest
 * segment's that has one, below first. */
static void note_stream_segments(const sc_medians_t *uni, const sc_medians_t *bi,
                                 const double *starts, int nseg, const int *used,
                                 const int *used_bi, sc_piecewise_t *os, sc_piecewise_t *orr,
                                 sc_fit_t *fit)
{
    char value[64], name[48];
    for (int k = 0; k < nseg; k++) {
        char from[48] = "";
        if (!used[k]) {
            int f = -1;
            for (int d = 1; f < 0; d++)
                f = k - d >= 0 && used[k - d] ? k - d : k + d < nseg && used[k + d] ? k + d : -1;
            os->seg[k] = os->seg[f];
            orr->seg[k] = orr->seg[f];
            os->seg[k].min_bytes = orr->seg[k].min_bytes = starts[k];
            segment_name(from, sizeof from, "the segment", starts, f, nseg);
        }
        segment_name(name, sizeof name, "o_s", starts, k, nseg);
        snprintf(value, sizeof value, "%.4g s + %.4g s/B", os->seg[k].start, os->seg[k].per_byte);
        if (!used[k])
            note(fit, name, value, "no size of one pair's stream here: as %s", from);
        else if (used_bi[k])
            note(fit, name, value,
                 "one pair's time a message both ways (%d sizes, %s) less one way's: the "
                 "faster side",
                 used_bi[k], bi->files);
        else
            note(fit, name, value, "taken equal to o_r: %s",
                 bi->n ? "no size of a stream both ways (Biband) here to tell them apart"
                       : "no stream both ways (Biband) tells them apart");
        segment_name(name, sizeof name, "o_r", starts, k, nseg);
        snprintf(value, sizeof value, "%.4g s + %.4g s/B", orr->seg[k].start, orr->seg[k].per_byte);
        if (!used[k])
            note(fit, name, value, "no size of one pair's stream here: as %s", from);
        else
            note(fit, name, value,
                 "%s over %d size%s of one pair's time a message one way (%s): the slower side",
                 used[k] > 1 ? "least squares" : "the time", used[k], used[k] > 1 ? "s" : "",
                 uni->files);
    }
}

/* A shared-memory level from streams alone (sc_calibrate_fit). One pair's
 * stream one way takes the slower core's time a message, max(o_s, o_r);
 * both ways (Biband), each core sends and receives: o_s + o_r. */
static sc_err_t fit_streams_only(const sc_fit_spec_t *spec, const sc_series_t *series, int nseries,
                                 sc_fit_t *fit)
{
    sc_level_t *lv = &fit->level;
    sc_medians_t uni = {0}, bi = {0};
    double starts[SC_MAX_SEGMENTS];
    int nseg = segment_starts(spec, starts), used[SC_MAX_SEGMENTS], used_bi[SC_MAX_SEGMENTS];
    int limited = 0, any = 0;
    sc_piecewise_t os, orr;
    sc_err_t err;
    if ((err = sc_medians_one_pair(series, nseries, SC_MEASURE_BANDWIDTH, &uni)) ||
        (err = sc_medians_one_pair(series, nseries, SC_MEASURE_BIBANDWIDTH, &bi)) ||
        (err = streams_bandwidth(spec, series, nseries, &uni, fit)) ||
        (err = fit_stream_segments(spec, &uni, &bi, lv->bandwidth_Bps, starts, nseg, used, used_bi,
                                   &os, &orr, &limited)))
        goto cleanup;
    for (int k = 0; k < nseg; k++)
        any |= used[k] > 0;
    if (!any) {
        err = sc_error(SC_ERR_INPUT,
                       "calibrate: one pair's stream in %s carried nothing at any "
                       "size from 1 byte, so no overhead can be fitted",
                       uni.files);
        goto cleanup;
    }
    note_stream_segments(&uni, &bi, starts, nseg, used, used_bi, &os, &orr, fit);
    lv->send_overhead = os;
    lv->recv_overhead = orr;
    if (limited)
        note(fit, "note", "-", "one pair's stream reached 90%% of the bandwidth at %d sizes: "
             "there the memory, not the cores, may have limited it", limited);
    lv->latency_s = spec->fallback->latency_s;
    char value[64];
    snprintf(value, sizeof value, "%.6g s", lv->latency_s);
    set_origin(note(fit, "latency", value,
                    "no ping-pong: the template's, kept (a stream does not show it)"),
               SC_FIT_KEPT);
    if (spec->latency_factor)
        set_origin(note(fit, "lat-factor", "-", "no ping-pong: the template's, kept with its latency"),
                   SC_FIT_KEPT);
    lv->gap_s = 0;
    note(fit, "g", "0 s", "shared memory: no NIC between a node's cores");
cleanup:
    sc_medians_free(&uni);
    sc_medians_free(&bi);
    return err;
}

/* A latency factor per segment (sc_calibrate_fit), from the intercepts
 * a[k] of the ping-pong's wire, fitted over used[k] sizes: a segment's
 * intercept is L l_k + h / (B f_k), and past the eager limit the
 * handshake's RTS and CTS add 2 w(0) = 2 (L + h / (B f_0)). L is the
 * first segment's intercept, so l_0 = 1. Each is kept in the range
 * platform files hold it to. */
static void fit_latency_factor(const double *a, const int *used, const double *starts, int nseg,
                               double eager_end, double h, const sc_piecewise_t *f,
                               sc_fit_t *fit, sc_level_t *lv)
{
    const char *param = "latency-factor";
    const sc_param_t *range = sc_param_find(param, strlen(param), SC_AT_INTER);
    char name[48], value[64];
    double L = lv->latency_s, B = lv->bandwidth_Bps;
    if (!(L > 0)) {
        note(fit, "lat-factor", "-", "none: the latency is 0, and no factor changes that");
        return;
    }
    double handshake = 2 * (L + h / (B * f->seg[0].start));
    lv->latency_factor = (sc_piecewise_t){.n = nseg};
    for (int k = 0; k < nseg; k++) {
        double l = NAN;
        const char *how;
        int clamped = 0;
        if (k == 0) {
            l = 1;
            how = "1: the latency is this segment's intercept";
        } else if (used[k] < 2) {
            l = lv->latency_factor.seg[k - 1].start;
            how = "fewer than two sizes here: the one below";
        } else {
            l = (a[k] - (starts[k] >= eager_end ? handshake : 0) - h / (B * f->seg[k].start)) / L;
            how = starts[k] >= eager_end
                      ? "the latency's intercept here, less the handshake and the header, over "
                        "the latency"
                      : "the latency's intercept here, less the header, over the latency";
            clamped = !(l >= range->min) || l > range->max;
            if (!(l >= range->min)) {
                l = range->min;
                how = "the intercept here is below the first segment's: 1, as simcoll cannot "
                      "shorten a route";
            } else if (l > range->max) {
                l = range->max;
                how = "the intercept here is more than the largest factor times the latency: "
                      "the largest";
            }
        }
        lv->latency_factor.seg[k] = (sc_segment_t){starts[k], l, 0};
        segment_name(name, sizeof name, "lat-factor", starts, k, nseg);
        snprintf(value, sizeof value, "%.4g", l);
        set_origin(note(fit, name, value, "%s", how), clamped ? SC_FIT_CLAMPED : SC_FIT_FITTED);
    }
}

/* B_bi between nodes: the most bytes/s one pair's stream both ways
 * carried at any size (osu_bibw, IMB Biband of 2 ranks; the median of the
 * size's points), as the bandwidth is the most a stream one way carried,
 * when below twice the bandwidth just fitted. A NIC whose directions are
 * independent carries twice, less what the stream's own costs and noise
 * take: within 5% of it, no limit (cloud_noise_data's full-duplex systems
 * exchange at 1.3% to 2.7% over one way at 4 MiB; Piz Daint's 40%). Below
 * the bandwidth itself, the limit would slow one way too, which the
 * ping-pong contradicts: the bandwidth, with a note. */
static sc_err_t fit_bidirectional(const sc_series_t *series, int nseries, sc_fit_t *fit)
{
    sc_level_t *lv = &fit->level;
    sc_medians_t bi;
    sc_err_t err = sc_medians_one_pair(series, nseries, SC_MEASURE_BIBANDWIDTH, &bi);
    if (err)
        return err;
    char value[64];
    if (bi.n == 0 && lv->bidirectional_Bps > 0) {
        snprintf(value, sizeof value, "%.6g B/s", lv->bidirectional_Bps);
        set_origin(note(fit, "B_bi", value,
                        "no stream both ways (osu_bibw, IMB Biband): the "
                        "template's, kept"),
                   SC_FIT_KEPT);
    } else if (bi.n == 0) {
        note(fit, "B_bi", "none",
             "no stream both ways (osu_bibw, IMB Biband): each direction "
             "carries the bandwidth");
    } else {
        int best = 0;
        for (int i = 1; i < bi.n; i++)
            if (bi.values[i] > bi.values[best])
                best = i;
        double both = bi.values[best], size = bi.sizes[best];
        if (both >= 0.95 * 2 * lv->bandwidth_Bps) {
            lv->bidirectional_Bps = 0;
            note(fit, "B_bi", "none",
                 "%.4g B/s both ways at %.0f bytes in %s, within 5%% of "
                 "twice the bandwidth: the directions do not share",
                 both, size, bi.files);
        } else {
            lv->bidirectional_Bps = both > lv->bandwidth_Bps ? both : lv->bandwidth_Bps;
            snprintf(value, sizeof value, "%.6g B/s", lv->bidirectional_Bps);
            note(fit, "B_bi", value, "%s%.4g B/s both ways at %.0f bytes in %s (one way: %.4g)",
                 both > lv->bandwidth_Bps ? "" : "the bandwidth, above ", both, size, bi.files,
                 lv->bandwidth_Bps);
        }
    }
    sc_medians_free(&bi);
    return SC_OK;
}
/* The ping-pong's wire: its one-way time less both overheads, per segment
 * a + b m by least squares over used[k] sizes. */
typedef struct {
    double a[SC_MAX_SEGMENTS], b[SC_MAX_SEGMENTS];
    int used[SC_MAX_SEGMENTS];
} wire_t;

/* o_s and o_r without overhead samples (OSU, IMB), from one sender
 * streaming to one receiver, `per_message` a message (single_stream_time,
 * in `file`): neither can be busier per message than the stream's time per
 * message, and a stream cannot tell them apart; both together fit in the
 * one-way time of the smallest message. Returns o_r's time a message. */
static double overheads_from_stream(const sc_medians_t *lat, double per_message, const char *file,
                                    sc_fit_t *fit)
{
    sc_level_t *lv = &fit->level;
    double room = lat->values[0] - per_message, recv = per_message;
    if (room < recv)
        recv = room > 0 ? room : 0;
    lv->send_overhead = sc_piecewise_constant(per_message);
    lv->recv_overhead = sc_piecewise_constant(recv);
    char value[64];
    snprintf(value, sizeof value, "%.4g s + 0 s/B", per_message);
    note(fit, "o_s", value, "1 / the largest rate of one pair's stream of 1 to 64 B in %s", file);
    snprintf(value, sizeof value, "%.4g s + 0 s/B", recv);
    note(fit, "o_r", value,
         recv == per_message ? "taken equal to o_s: one stream cannot tell them apart"
                             : "what the one-way time of %.0f bytes leaves after o_s",
         lat->sizes[0]);
    return recv;
}

static sc_err_t fit_wire(const sc_medians_t *lat, const sc_level_t *lv, const double *starts,
                         int nseg, wire_t *wire)
{
    double *w = malloc((size_t)lat->n * sizeof *w);
    if (!w)
        return sc_error(SC_ERR_RUN, "out of memory fitting the measurements");
    for (int i = 0; i < lat->n; i++) {
        size_t m = (size_t)lat->sizes[i];
        w[i] = lat->values[i] - sc_level_send_overhead(lv, m) - sc_level_recv_overhead(lv, m);
    }
    for (int k = 0; k < nseg; k++)
        wire->used[k] = sc_least_squares(lat, starts[k], k + 1 < nseg ? starts[k + 1] : INFINITY, w,
                                         &wire->a[k], &wire->b[k]);
    free(w);
    return SC_OK;
}

/* The bandwidth: the largest streaming bandwidth measured (`bw`), or else
 * 1 / the wire's slope in the last segment that has one. SC_ERR_INPUT when
 * the wire grows with the size in no segment, or the bandwidth is not a
 * positive number. */
static sc_err_t fit_bandwidth(const sc_fit_spec_t *spec, const sc_medians_t *lat,
                              const sc_medians_t *bw, const wire_t *wire, const double *starts,
                              int nseg, sc_fit_t *fit)
{
    int last = -1; /* the largest segment with a slope */
    for (int k = 0; k < nseg; k++)
        if (wire->used[k] >= 2 && wire->b[k] > 0)
            last = k;
    if (last < 0)
        return sc_error(SC_ERR_INPUT,
                        "calibrate: the ping-pong latency in %s, less the send and receive "
                        "overheads, does not grow with the size in any segment, so no "
                        "bandwidth can be fitted; give sizes over a wider range, or "
                        "--breakpoints and --eager-limit at the library's protocol switches",
                        lat->files);
    char value[64];
    double B;
    if (bw->n > 0) {
        B = 0;
        for (int i = 0; i < bw->n; i++)
            if (bw->values[i] > B)
                B = bw->values[i];
        snprintf(value, sizeof value, "%.6g B/s", B);
        note(fit, "bandwidth", value, "the largest streaming bandwidth in %s", bw->files);
    } else {
        /* In shared memory the flow factor may not pass 1: the fastest
         * slope, not the last, gives the link. */
        int k = last;
        for (int j = 0; spec->shared_memory && j < nseg; j++)
            if (wire->used[j] >= 2 && wire->b[j] > 0 && wire->b[j] < wire->b[k])
                k = j;
        B = 1 / wire->b[k];
        snprintf(value, sizeof value, "%.6g B/s", B);
        note(fit, "bandwidth", value, "1 / the latency's slope over %d sizes from %.0f bytes%s",
             wire->used[k], starts[k],
             spec->shared_memory ? ", one pair's fastest: what all the node's cores copy at "
                                   "once was not measured"
                                 : "");
    }
    if (!(B > 0 && isfinite(B)))
        return sc_error(SC_ERR_INPUT,
                        "calibrate: the measurements in %s give a bandwidth of %g "
                        "B/s, so no network can be fitted to them",
                        bw->n > 0 ? bw->files : lat->files, B);
    fit->level.bandwidth_Bps = B;
    return SC_OK;
}

/* A ping-pong's slope is one pair's rate. On a network it is the wire's
 * (one pair fills a NIC, and what slows it, packets and headers, takes the
 * wire's time): the bandwidth factor, charged to the links as SMPI does.
 * In shared memory it is what one core copies, a small part of what the
 * node's memory carries for all its cores at once: the flow factor, which
 * bounds each message alone. Returns the factor fitted, the other none. */
static const sc_piecewise_t *fit_pair_factor(const sc_fit_spec_t *spec, const wire_t *wire,
                                             const double *starts, int nseg, sc_fit_t *fit)
{
    sc_level_t *lv = &fit->level;
    double B = lv->bandwidth_Bps;
    const char *factor_name = spec->shared_memory ? "flow factor" : "factor";
    const char *param = spec->shared_memory ? "flow-factor" : "bandwidth-factor";
    double most = sc_param_find(param, strlen(param), SC_AT_INTRA)->max; /* files' bound */
    sc_piecewise_t *pair_factor =
        spec->shared_memory ? &lv->flow_factor : &lv->bandwidth_factor;
    lv->bandwidth_factor = lv->flow_factor = (sc_piecewise_t){0};
    pair_factor->n = nseg;
    char value[64], name[48];
    for (int k = 0; k < nseg; k++) {
        int used = wire->used[k];
        double f = used >= 2 && wire->b[k] > 0 ? 1 / (wire->b[k] * B) : NAN;
        segment_name(name, sizeof name, factor_name, starts, k, nseg);
        if (f > most) {
            f = most;
            snprintf(value, sizeof value, "%.4g", f);
            set_origin(note(fit, name, value,
                            "the latency's slope over %d sizes is faster "
                            "than the bandwidth: the most the factor may be",
                            used),
                       SC_FIT_CLAMPED);
        } else if (!(f > 0)) {
            f = k > 0 ? pair_factor->seg[k - 1].start : 1;
            snprintf(value, sizeof value, "%.4g", f);
            note(fit, name, value, "%s: the one below",
                 used < 2 ? "fewer than two sizes here" : "no usable slope here");
        } else {
            snprintf(value, sizeof value, "%.4g", f);
            note(fit, name, value, "bandwidth / (1 / the latency's slope over %d sizes)", used);
        }
        pair_factor->seg[k] = (sc_segment_t){starts[k], f, 0};
    }
    note(fit, spec->shared_memory ? "factor" : "flow factor", "none",
         spec->shared_memory ? "shared memory: the flow factor takes the slope"
                             : "a network: the bandwidth factor takes the slope");
    return pair_factor;
}

/* L: the first segment's intercept less the header's time (the template's
 * without a size there, 0 below the header's time); with
 * spec->latency_factor, a factor per segment (fit_latency_factor). */
static void fit_latency(const sc_fit_spec_t *spec, const wire_t *wire, const double *starts,
                        int nseg, const sc_piecewise_t *pair_factor, sc_fit_t *fit)
{
    sc_level_t *lv = &fit->level;
    double h = (double)spec->header_bytes;
    double L = wire->a[0] - h / (lv->bandwidth_Bps * pair_factor->seg[0].start);
    char value[64];
    if (wire->used[0] == 0 || L < 0) {
        L = L < 0 ? 0 : spec->fallback->latency_s;
        snprintf(value, sizeof value, "%.6g s", L);
        set_origin(note(fit, "latency", value,
                        wire->used[0] ? "the intercept was below the header's time: 0"
                                      : "no size in the first segment: the template's"),
                   wire->used[0] ? SC_FIT_CLAMPED : SC_FIT_KEPT);
    } else {
        snprintf(value, sizeof value, "%.6g s", L);
        note(fit, "latency", value, "the latency's intercept below %.0f bytes, less the header",
             nseg > 1 ? starts[1] : INFINITY);
    }
    lv->latency_s = L;
    /* The template's factor multiplied the template's latency. */
    lv->latency_factor = (sc_piecewise_t){0};
    if (spec->latency_factor)
        fit_latency_factor(wire->a, wire->used, starts, nseg, (double)spec->eager_limit + 1, h,
                           pair_factor, fit, lv);
}

/* g: the largest message rate observed (per size, the median of its
 * samples), if the cores could have gone faster. */
static sc_err_t fit_gap(const sc_series_t *series, int nseries, sc_fit_t *fit)
{
    sc_level_t *lv = &fit->level;
    double best_rate = 0, best_cores = 0;
    const char *rate_file = NULL;
    for (int i = 0; i < nseries; i++) {
        const sc_series_t *s = &series[i];
        if (s->kind != SC_MEASURE_MESSAGE_RATE && s->kind != SC_MEASURE_BANDWIDTH)
            continue;
        int pairs = s->pairs > 0 ? s->pairs : 1;
        sc_medians_t md;
        sc_err_t err = sc_medians_of_kind(s, 1, s->kind, &md);
        if (err)
            return err;
        for (int j = 0; j < md.n; j++) {
            size_t m = (size_t)md.sizes[j];
            if (m == 0 || m > 64)
                continue;
            /* value is bytes/s, for osu_mbw_mr too: its messages/s column
             * is the same divided by the size. */
            double rate = md.values[j] / (double)m;
            if (rate > best_rate) {
                double os_m = sc_level_send_overhead(lv, m), or_m = sc_level_recv_overhead(lv, m);
                double core = os_m > or_m ? os_m : or_m;
                best_rate = rate;
                best_cores = core > 0 ? pairs / core : INFINITY;
                rate_file = s->path;
            }
        }
        sc_medians_free(&md);
    }
    char value[64];
    if (best_rate <= 0) {
        snprintf(value, sizeof value, "%.6g s", lv->gap_s);
        set_origin(note(fit, "g", value, "no message rate of small messages: the template's, kept"),
                   SC_FIT_KEPT);
    } else if (best_rate < 0.9 * best_cores) {
        lv->gap_s = 1 / best_rate;
        snprintf(value, sizeof value, "%.6g s", lv->gap_s);
        note(fit, "g", value, "1 / %.4g messages/s, the largest rate in %s, below the %.4g/s "
                              "the senders' overheads allow",
             best_rate, rate_file, best_cores);
    } else {
        lv->gap_s = 0;
        note(fit, "g", "0 s", "the largest rate in %s (%.4g/s) is what the overheads allow: the "
                              "NIC did not limit it",
             rate_file, best_rate);
    }
    return SC_OK;
}

sc_err_t sc_calibrate_fit(const sc_fit_spec_t *spec, const sc_series_t *series, int nseries,
                          sc_fit_t *fit)
{
    memset(fit, 0, sizeof *fit);
    sc_level_t *lv = &fit->level;
    *lv = *spec->fallback;
    lv->eager_limit = spec->eager_limit;
    double starts[SC_MAX_SEGMENTS];
    int nseg = segment_starts(spec, starts);

    sc_medians_t os = {0}, orr = {0}, lat = {0}, bw = {0};
    sc_err_t err;
    if ((err = sc_medians_of_kind(series, nseries, SC_MEASURE_SEND_OVERHEAD, &os)) ||
        (err = sc_medians_of_kind(series, nseries, SC_MEASURE_RECV_OVERHEAD, &orr)) ||
        (err = sc_medians_of_kind(series, nseries, SC_MEASURE_LATENCY, &lat)) ||
        (err = sc_medians_of_kind(series, nseries, SC_MEASURE_BANDWIDTH, &bw)))
        goto cleanup;
    if (lat.n < 2 && spec->shared_memory && os.n == 0 && orr.n == 0) {
        err = fit_streams_only(spec, series, nseries, fit);
        goto cleanup;
    }
    if (lat.n < 2) {
        err = sc_error(SC_ERR_INPUT,
                       "calibrate: no ping-pong latency of at least two sizes (osu_latency, "
                       "IMB PingPong, NetPIPE or an SMPI PingPong CSV) to fit the latency and "
                       "bandwidth to");
        goto cleanup;
    }
    double per_message = 0, per_message_recv = 0;
    const char *stream_file = NULL;
    if (os.n == 0 && orr.n == 0 &&
        (err = single_stream_time(series, nseries, &per_message, &stream_file)))
        goto cleanup;
    if (per_message > 0) {
        per_message_recv = overheads_from_stream(&lat, per_message, stream_file, fit);
    } else {
        if (os.n == 0 && spec->shared_memory && spec->sender_share > 0)
            fit_sender_share(spec, &lat, starts, nseg, fit);
        else
            fit_overhead(&os, starts, nseg, INFINITY, &spec->fallback->send_overhead, "o_s", fit,
                         &lv->send_overhead);
        fit_overhead(&orr, starts, nseg, (double)spec->eager_limit + 1,
                     &spec->fallback->recv_overhead, "o_r", fit, &lv->recv_overhead);
    }
    wire_t wire;
    if ((err = fit_wire(&lat, lv, starts, nseg, &wire)) ||
        (err = fit_bandwidth(spec, &lat, &bw, &wire, starts, nseg, fit)))
        goto cleanup;
    const sc_piecewise_t *pair_factor = fit_pair_factor(spec, &wire, starts, nseg, fit);
    if (per_message > 0 && !spec->shared_memory &&
        (err = cores_take_excess(series, nseries, starts, nseg, wire.b, lv->bandwidth_Bps,
                                 per_message, per_message_recv, fit, lv)))
        goto cleanup;
    fit_latency(spec, &wire, starts, nseg, pair_factor, fit);
    if (spec->shared_memory) {
        lv->gap_s = 0;
        note(fit, "g", "0 s", "shared memory: no NIC between a node's cores");
        err = fit_call_overhead(spec, series, nseries, fit);
    } else if (!(err = fit_gap(series, nseries, fit))) {
        err = fit_bidirectional(series, nseries, fit);
    }
cleanup:
    sc_medians_free(&os);
    sc_medians_free(&orr);
    sc_medians_free(&lat);
    sc_medians_free(&bw);
    return err;
}
