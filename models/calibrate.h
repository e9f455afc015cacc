/* Fitting a level's message costs (LogGP, models/platform.h) to
 * point-to-point measurements, and predicting those measurements back.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef SC_CALIBRATE_H
#define SC_CALIBRATE_H

#include "measurements.h"
#include "platform.h"

/* The sender's share of an eager shared-memory message's one-way time that
 * calibrate takes without overhead samples: simcoll-probe's MPI_Isend
 * against its ping-pong, 2 ranks on 2 cores of one VM, 1 B to 2 KiB, gave
 * 0.47 to 0.55 with Open MPI 4.1.4 and 0.50 to 0.55 with MPICH 4.0.2
 * (experiments/small-messages, its results' full files). */
#define SC_DEFAULT_SENDER_SHARE 0.5

/* What to fit and what to fall back on. */
typedef struct {
    /* Sizes where the piecewise parameters change (besides 0), ascending;
     * the segment after the eager limit is always one of its own. */
    const size_t *breakpoints;
    int nbreakpoints;
    size_t eager_limit;
    size_t header_bytes;
    /* The parameters no measurement gives are this level's (the template's):
     * o_s without send-overhead samples (or a one-pair stream), o_r without
     * receive-overhead samples (or a one-pair stream), g without message
     * rates. */
    const sc_level_t *fallback;
    /* 1 when the level is a node's shared memory (--level intra): it has no
     * NIC, so no gap, and without a ping-pong it may be fitted to streams
     * alone (sc_calibrate_fit). */
    int shared_memory;
    /* 1 to fit a latency factor per segment to the ping-pong's intercepts
     * (calibrate --latency-factor); 0: none, the intercept of the first
     * segment gives the latency and the others are not fitted. */
    int latency_factor;
    /* Shared memory without overhead samples or a one-pair stream: o_s is
     * this share of the ping-pong's one-way time (0: the template's o_s).
     * An eager message between cores is copied in by its sender and out by
     * its receiver, so the sender's core is busy for part of the one-way
     * time, growing with the size; calibrate's --sender-share. */
    double sender_share;
} sc_fit_spec_t;

/* Where a value came from when the measurements did not give it: a fit
 * that keeps the template's overheads or clamps a latency at 0 can miss
 * the measurements by hundreds of percent, and says so. */
typedef enum {
    SC_FIT_FITTED,  /* from the measurements */
    SC_FIT_KEPT,    /* the template's: no measurement gives it */
    SC_FIT_CLAMPED, /* the fit's value was outside what simcoll takes, set to the bound */
} sc_fit_origin_t;

/* How one fitted parameter was obtained, for the report. */
typedef struct {
    char what[48];  /* "o_s [0, 1420)", "bandwidth", "g" ... */
    char value[64]; /* as written to the platform */
    char how[200];  /* "least squares over 12 sizes of osu_latency.txt" */
    sc_fit_origin_t origin;
} sc_fit_note_t;

enum { SC_MAX_FIT_NOTES = 4 * SC_MAX_SEGMENTS + 8 };

typedef struct {
    sc_level_t level;
    sc_fit_note_t notes[SC_MAX_FIT_NOTES];
    int nnotes;
    double sender_share; /* the share o_s was taken as, or 0 (spec->sender_share) */
} sc_fit_t;

/* Fits a level to the series, in this order (each step uses the ones
 * before; per size the median of its samples counts, so outliers do not):
 *   o_s(m), o_r(m)   least squares per segment over the send and receive
 *                    overhead samples (SMPI calibration Isend and Recv);
 *                    without any, both the time per message of the fastest
 *                    one-pair stream of 1 to 64 B (osu_bw, osu_mbw_mr with
 *                    one pair), when there is one: neither side can be
 *                    busier than that, and a stream cannot tell them apart;
 *                    without that, in shared memory with a sender share,
 *                    o_s per eager segment that share of the ping-pong's
 *                    least squares there, past the eager limit the share of
 *                    the first segment's intercept (a request), and o_r the
 *                    template's;
 *   bandwidth factor per segment: the slope of the one-way latency minus
 *                    o_s and o_r (ping-pong series), against the bandwidth:
 *                    the largest streaming bandwidth measured (osu_bw), or
 *                    the slope of the last segment;
 *   latency L        the intercept of the first segment, less the header's
 *                    time;
 *   latency factor   with spec->latency_factor, per segment: its intercept
 *                    less the header's time (and past the eager limit the
 *                    handshake's two header-only messages), over L; 1 in
 *                    the first segment, at least 1 (simcoll cannot shorten
 *                    a route); without, none (the template's is dropped: it
 *                    belonged to the template's latency);
 *   g                1 / the largest message rate of a NIC (osu_mbw_mr,
 *                    osu_bw at small sizes), when that rate is below what the
 *                    senders' o_s allow, so that the NIC is what limits it.
 * A shared-memory level without a ping-pong (IMB's Uniband and Biband run
 * inside one node give only streams) is fitted to streams alone: per
 * segment o_r = a + b m over one pair's time a message one way (the slower
 * side), o_s over its time both ways (Biband: o_s + o_r) less o_r, each
 * term between 0 and o_r's, or equal to o_r without one (one size: a + 0 m,
 * or 0 + b m past the eager limit; none: the nearest segment's); the
 * bandwidth the most bytes/s of any stream, one way or both, of the largest
 * size (pairs sharing the node's memory); no bandwidth factor; no gap;
 * the template's latency and latency factor, which no stream shows.
 * SC_ERR_INPUT when there is no ping-pong series to fit L and the bandwidth
 * to (nor, for shared memory, streams of one pair), naming what is missing. */
sc_err_t sc_calibrate_fit(const sc_fit_spec_t *spec, const sc_series_t *series, int nseries,
                          sc_fit_t *fit);

/* What the level predicts for point p of series s, in the series' unit:
 * the one-way time of a ping-pong (o_s + wire + o_r, with the rendezvous
 * handshake above the eager limit), o_s, o_r (above the eager limit, the
 * receive of an announced message: its clear-to-send, the data, o_r), and for
 * streaming (osu_bw, osu_mbw_mr: a window of messages in flight) the rate
 * the slowest of the sender's o_s, the NIC's g and the wire allow (both ways,
 * Biband, through one link each way, or the one memory link of a node with
 * `shared_memory`). NAN for
 * what it does not predict (collectives: simulate them). */
double sc_calibrate_predict(const sc_level_t *lv, size_t header_bytes, int shared_memory,
                            const sc_series_t *s, const sc_point_t *p);

#endif
