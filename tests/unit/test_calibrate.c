/* The calibration fit: measurements made from a known level (with noise
 * that the medians remove) must give that level back.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include <CUnit/CUnit.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/sc_units.h"
#include "models/calibrate.h"
#include "models/params.h"
#include "suites.h"

enum { HEADER = 40 };

/* A GigE-like level with every parameter set, three segments. */
static sc_level_t truth(double gap)
{
    sc_level_t lv = {.latency_s = 23e-6, .bandwidth_Bps = 117.685e6, .gap_s = gap,
                     .eager_limit = 131072};
    lv.send_overhead = (sc_piecewise_t){3, {{0, 2e-6, 1e-9}, {1420, 4e-6, 0.5e-9},
                                            {131073, 20e-6, 0.1e-9}}};
    /* Above the eager limit a receive fetches the data, and o_r cannot be
     * told apart from it: calibration carries the eager segment's on. */
    lv.recv_overhead = (sc_piecewise_t){3, {{0, 3e-6, 0}, {1420, 5e-6, 1e-9},
                                            {131073, 5e-6, 1e-9}}};
    lv.bandwidth_factor = (sc_piecewise_t){3, {{0, 0.6, 0}, {1420, 0.85, 0}, {131073, 0.95, 0}}};
    return lv;
}

static const size_t breakpoints[] = {1420};

/* A series of `kind` at sizes 2^k +- a little, each size measured three
 * times: the value, and the value with +-20% noise, so the median is it. */
static sc_series_t make_series(const sc_level_t *lv, sc_measure_kind_t kind, int pairs,
                               const char *path)
{
    sc_series_t s = {.path = (char *)path, .kind = kind, .pairs = pairs};
    s.points = calloc(3 * 64, sizeof *s.points);
    for (size_t m = 1; m <= (1u << 22); m *= 2)
        for (long d = -1; d <= 1; d += 2) {
            size_t size = (size_t)((long)m + (m > 4 ? d * 3 : 0));
            sc_point_t p = {.bytes = size, .value2 = NAN, .line = s.npoints + 1};
            double v = sc_calibrate_predict(lv, HEADER, 0, &s, &p);
            for (int k = -1; k <= 1; k++) {
                p.value = v * (1 + 0.2 * k);
                if (kind == SC_MEASURE_MESSAGE_RATE)
                    p.value2 = p.value / (double)size;
                s.points[s.npoints++] = p;
            }
            if (m <= 4)
                break;
        }
    return s;
}

static void free_series(sc_series_t *s, int n)
{
    for (int i = 0; i < n; i++)
        free(s[i].points);
}

/* Overheads come back exactly; what the wire gives is off by the rounding
 * of wire bytes to whole bytes (half a byte in a fit over hundreds). */
#define CLOSE(got, want) CU_ASSERT_DOUBLE_EQUAL((got), (want), 1e-9 * fabs(want) + 1e-15)
#define NEAR(got, want) CU_ASSERT_DOUBLE_EQUAL((got), (want), 1e-3 * fabs(want))

static void check_segments(const sc_piecewise_t *got, const sc_piecewise_t *want)
{
    CU_ASSERT_EQUAL_FATAL(got->n, want->n);
    for (int k = 0; k < got->n; k++) {
        CU_ASSERT_EQUAL(got->seg[k].min_bytes, want->seg[k].min_bytes);
        CLOSE(got->seg[k].start, want->seg[k].start);
        CLOSE(got->seg[k].per_byte, want->seg[k].per_byte);
    }
}

static sc_fit_spec_t spec_for(const sc_level_t *fallback)
{
    return (sc_fit_spec_t){.breakpoints = breakpoints, .nbreakpoints = 1,
                           .eager_limit = 131072, .header_bytes = HEADER, .fallback = fallback};
}

/* A benchmark whose series a test measures: its kind, pairs and file. */
typedef struct {
    sc_measure_kind_t kind;
    int pairs;
    const char *path;
} bench_t;

/* Overhead samples and a ping-pong, what a network level is fitted from. */
static const bench_t overheads_pingpong[] = {{SC_MEASURE_SEND_OVERHEAD, 0, "isend.csv"},
                                             {SC_MEASURE_RECV_OVERHEAD, 0, "recv.csv"},
                                             {SC_MEASURE_LATENCY, 0, "lat.txt"}};

/* A fit: the series measured, the template it starts from and its spec
 * (whose fallback is that template), and what it gives. */
typedef struct {
    sc_series_t s[5];
    int n;
    sc_level_t start;
    sc_fit_spec_t spec;
    sc_fit_t fit;
} fitting_t;

/* The n benchmarks of `b` measured from `want` (make_series), to be fitted
 * from a Hockney template (1 us, 1 GB/s, o = 0.8 us, eager to 64 KiB). */
static void measure(fitting_t *f, const sc_level_t *want, const bench_t *b, int n)
{
    for (int i = 0; i < n; i++)
        f->s[i] = make_series(want, b[i].kind, b[i].pairs, b[i].path);
    f->n = n;
    f->start = sc_level_hockney(1e-6, 1e9, 0.8e-6, 65536);
    f->spec = spec_for(&f->start);
}

static sc_err_t fit(fitting_t *f)
{
    return sc_calibrate_fit(&f->spec, f->s, f->n, &f->fit);
}

/* Overheads, latency and per-segment bandwidth come back from overhead
 * samples and a ping-pong alone. */
static void test_recovers_level(void)
{
    sc_level_t want = truth(0);
    fitting_t f;
    measure(&f, &want, overheads_pingpong, 3);
    CU_ASSERT_EQUAL_FATAL(fit(&f), SC_OK);
    const sc_level_t *got = &f.fit.level;
    check_segments(&got->send_overhead, &want.send_overhead);
    check_segments(&got->recv_overhead, &want.recv_overhead);
    NEAR(got->latency_s, want.latency_s);
    /* Without a streaming bandwidth the last segment's slope is the
     * bandwidth: each segment's bandwidth times factor is what matters. */
    for (int k = 0; k < 3; k++)
        NEAR(got->bandwidth_Bps * got->bandwidth_factor.seg[k].start,
             want.bandwidth_Bps * want.bandwidth_factor.seg[k].start);
    CU_ASSERT_EQUAL(got->eager_limit, 131072);
    /* ...so every ping-pong point is predicted as measured (the median). */
    for (int j = 1; j < f.s[2].npoints; j += 3)
        NEAR(sc_calibrate_predict(got, HEADER, 0, &f.s[2], &f.s[2].points[j]),
             f.s[2].points[j].value);
    CU_ASSERT_TRUE(f.fit.nnotes >= 9);
    CU_ASSERT_EQUAL(got->flow_factor.n, 0); /* a network's slope is the wire's */
    free_series(f.s, f.n);
}

/* In shared memory a ping-pong's slope is one pair's copy rate: it comes
 * back as the flow factor, which bounds each message alone, and not as a
 * bandwidth factor charged to the node's one memory link; the link's
 * bandwidth is the fastest slope, so that no factor passes 1. */
static void test_shared_memory_pingpong(void)
{
    sc_level_t want = truth(0);
    want.bandwidth_Bps = 31e9;
    want.bandwidth_factor = (sc_piecewise_t){0};
    want.flow_factor = (sc_piecewise_t){3, {{0, 0.07, 0}, {1420, 0.085, 0}, {131073, 1, 0}}};
    fitting_t f;
    measure(&f, &want, overheads_pingpong, 3);
    f.start.bandwidth_factor = sc_piecewise_constant(0.5); /* the template's: dropped */
    f.spec.shared_memory = 1;
    CU_ASSERT_EQUAL_FATAL(fit(&f), SC_OK);
    const sc_level_t *got = &f.fit.level;
    CU_ASSERT_EQUAL(got->bandwidth_factor.n, 0);
    CU_ASSERT_EQUAL_FATAL(got->flow_factor.n, 3);
    NEAR(got->bandwidth_Bps, want.bandwidth_Bps);
    for (int k = 0; k < 3; k++)
        NEAR(got->flow_factor.seg[k].start, want.flow_factor.seg[k].start);
    NEAR(got->latency_s, want.latency_s);
    for (int j = 1; j < f.s[2].npoints; j += 3)
        NEAR(sc_calibrate_predict(got, HEADER, 1, &f.s[2], &f.s[2].points[j]),
             f.s[2].points[j].value);
    free_series(f.s, f.n);
}

/* With --latency-factor (spec.latency_factor), a level whose latency
 * steps up per segment comes back, its ping-pong too, the rendezvous
 * segment's handshake accounted for; without, the template's factor is
 * dropped, as it multiplied the template's latency. */
static void test_latency_factor(void)
{
    sc_level_t want = truth(0);
    want.latency_factor = (sc_piecewise_t){3, {{0, 1, 0}, {1420, 1.6, 0}, {131073, 4.5, 0}}};
    fitting_t f;
    measure(&f, &want, overheads_pingpong, 3);
    f.spec.latency_factor = 1;
    CU_ASSERT_EQUAL_FATAL(fit(&f), SC_OK);
    const sc_level_t *got = &f.fit.level;
    NEAR(got->latency_s, want.latency_s);
    CU_ASSERT_EQUAL_FATAL(got->latency_factor.n, 3);
    for (int k = 0; k < 3; k++) {
        CU_ASSERT_EQUAL(got->latency_factor.seg[k].min_bytes,
                        want.latency_factor.seg[k].min_bytes);
        NEAR(got->latency_factor.seg[k].start, want.latency_factor.seg[k].start);
    }
    int named = 0;
    for (int i = 0; i < f.fit.nnotes; i++)
        named += !strncmp(f.fit.notes[i].what, "lat-factor [", 12);
    CU_ASSERT_EQUAL(named, 3);
    for (int j = 1; j < f.s[2].npoints; j += 3)
        NEAR(sc_calibrate_predict(got, HEADER, 0, &f.s[2], &f.s[2].points[j]),
             f.s[2].points[j].value);
    /* Without the option: no factor, whatever the template had. */
    f.start.latency_factor = want.latency_factor;
    f.spec.latency_factor = 0;
    CU_ASSERT_EQUAL_FATAL(fit(&f), SC_OK);
    CU_ASSERT_EQUAL(got->latency_factor.n, 0);
    free_series(f.s, f.n);
}

/* 1 if the note of a fit names parameter p (its segments too). */
static int names(const sc_fit_note_t *n, const sc_param_t *p)
{
    size_t len = strlen(p->fit_name);
    return !strncmp(n->what, p->fit_name, len) && (!n->what[len] || n->what[len] == ' ');
}

/* A fit of every kind of measurement of the network reports every
 * parameter the table says calibrate fits there, and no other (but for
 * remarks, "note"). */
static void check_notes_follow_table(const sc_fit_t *fit)
{
    for (const sc_param_t *p = sc_params; p->name; p++) {
        int found = 0;
        for (int i = 0; p->fit_name && i < fit->nnotes; i++)
            found |= names(&fit->notes[i], p);
        CU_ASSERT_EQUAL(found, p->fit_name != NULL && (p->at & SC_AT(SC_AT_INTER)));
    }
    for (int i = 0; i < fit->nnotes; i++) {
        int named = !strcmp(fit->notes[i].what, "note");
        for (const sc_param_t *p = sc_params; p->name; p++)
            named |= p->fit_name && names(&fit->notes[i], p);
        CU_ASSERT_TRUE(named);
    }
}

/* A streaming bandwidth sets the link's bandwidth; message rates of eight
 * pairs, limited by the NIC's gap, give g. */
static void test_bandwidth_and_gap(void)
{
    sc_level_t want = truth(5e-6); /* 8 pairs could send 8 / 3us; the NIC takes 1 / 5us */
    static const bench_t streams[] = {{SC_MEASURE_SEND_OVERHEAD, 0, "isend.csv"},
                                      {SC_MEASURE_RECV_OVERHEAD, 0, "recv.csv"},
                                      {SC_MEASURE_LATENCY, 0, "lat.txt"},
                                      {SC_MEASURE_BANDWIDTH, 0, "bw.txt"},
                                      {SC_MEASURE_MESSAGE_RATE, 8, "mr.txt"}};
    fitting_t f;
    measure(&f, &want, streams, 5);
    CU_ASSERT_EQUAL_FATAL(fit(&f), SC_OK);
    const sc_level_t *got = &f.fit.level;
    check_notes_follow_table(&f.fit);
    NEAR(got->gap_s, 5e-6);
    /* The largest streaming bandwidth: 4 MiB messages at 0.95 of B. */
    double m = 4194307, best = m / ((HEADER + m) / (want.bandwidth_Bps * 0.95));
    CU_ASSERT_DOUBLE_EQUAL(got->bandwidth_Bps, best, 1e-6 * best);
    for (int k = 0; k < 3; k++)
        NEAR(got->bandwidth_Bps * got->bandwidth_factor.seg[k].start,
             want.bandwidth_Bps * want.bandwidth_factor.seg[k].start);
    free_series(f.s, f.n);
    /* When the senders' o_s is what limits the rate, g stays 0. */
    sc_level_t slow_cores = truth(0);
    slow_cores.send_overhead = sc_piecewise_constant(20e-6);
    slow_cores.recv_overhead = sc_piecewise_constant(0);
    static const bench_t one_pair[] = {{SC_MEASURE_SEND_OVERHEAD, 0, "isend.csv"},
                                       {SC_MEASURE_LATENCY, 0, "lat.txt"},
                                       {SC_MEASURE_MESSAGE_RATE, 1, "mr.txt"}};
    measure(&f, &slow_cores, one_pair, 3);
    f.start.gap_s = 1e-6; /* not kept: the measurements say no gap shows */
    CU_ASSERT_EQUAL_FATAL(fit(&f), SC_OK);
    CU_ASSERT_EQUAL(got->gap_s, 0);
    free_series(f.s, f.n);
}

/* B_bi: a stream both ways between two nodes (osu_bibw) whose largest
 * size carries less than twice the bandwidth gives the NIC's limit both
 * ways, its median there; the fitted level then predicts that stream;
 * near twice the bandwidth, the directions share nothing: no limit. */
static void test_bidirectional(void)
{
    static const bench_t both_ways[] = {{SC_MEASURE_SEND_OVERHEAD, 0, "isend.csv"},
                                        {SC_MEASURE_LATENCY, 0, "lat.txt"},
                                        {SC_MEASURE_BIBANDWIDTH, 0, "bibw.txt"}};
    sc_level_t want = truth(0);
    want.bidirectional_Bps = 1.5 * want.bandwidth_Bps;
    fitting_t f;
    measure(&f, &want, both_ways, 3);
    CU_ASSERT_EQUAL_FATAL(fit(&f), SC_OK);
    const sc_level_t *got = &f.fit.level;
    const sc_point_t *last = &f.s[2].points[f.s[2].npoints - 2]; /* the median of the largest */
    CLOSE(got->bidirectional_Bps, last->value);
    CU_ASSERT_TRUE(got->bidirectional_Bps < 2 * got->bandwidth_Bps);
    NEAR(sc_calibrate_predict(got, HEADER, 0, &f.s[2], last), last->value);
    free_series(f.s, f.n);
    want.bidirectional_Bps = 0; /* each direction its own bandwidth */
    measure(&f, &want, both_ways, 3);
    f.start.bidirectional_Bps = 1e9; /* not kept: the stream says no limit shows */
    CU_ASSERT_EQUAL_FATAL(fit(&f), SC_OK);
    CU_ASSERT_EQUAL(got->bidirectional_Bps, 0);
    free_series(f.s, f.n);
}

/* OSU-like measurements only (no Isend or Recv samples): o_s and o_r come
 * from one pair's stream, and where 32 pairs stream faster through the NIC
 * than the ping-pong's slope allows, the rest of the slope goes to the
 * cores; the ping-pong and both streams then come back. */
static void test_overheads_from_streams(void)
{
    sc_level_t want = {.latency_s = 1e-6, .bandwidth_Bps = 10e9, .gap_s = 10e-9,
                       .eager_limit = 131072};
    want.send_overhead = (sc_piecewise_t){2, {{0, 0.2e-6, 0.15e-9}, {1420, 0.2e-6, 0.02e-9}}};
    want.recv_overhead = want.send_overhead;
    want.bandwidth_factor = sc_piecewise_constant(1);
    static const bench_t osu[] = {{SC_MEASURE_LATENCY, 0, "lat.txt"},
                                  {SC_MEASURE_BANDWIDTH, 0, "bw.txt"},
                                  {SC_MEASURE_MESSAGE_RATE, 1, "mr1.txt"},
                                  {SC_MEASURE_MESSAGE_RATE, 32, "mr32.txt"}};
    fitting_t f;
    measure(&f, &want, osu, 4);
    f.start = sc_level_hockney(5e-6, 1e9, 3e-6, 65536);
    CU_ASSERT_EQUAL_FATAL(fit(&f), SC_OK);
    const sc_level_t *lv = &f.fit.level;
    const sc_series_t *s = f.s;
    /* One pair's 1-byte stream: o(1) a message. */
    CU_ASSERT_DOUBLE_EQUAL(sc_level_send_overhead(lv, 0), 0.2e-6 + 0.15e-9, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(sc_level_recv_overhead(lv, 0), sc_level_send_overhead(lv, 0), 0);
    /* The small messages' per-byte cost is the cores' again, not the NIC's. */
    CU_ASSERT_DOUBLE_EQUAL(lv->send_overhead.seg[0].per_byte, 0.15e-9, 0.05 * 0.15e-9);
    CU_ASSERT(lv->bandwidth_factor.seg[0].start > 0.9);
    NEAR(lv->gap_s, 10e-9);
    for (int i = 0; i < 4; i++)
        for (int j = 1; j < s[i].npoints; j += 3) {
            double got = sc_calibrate_predict(lv, HEADER, 0, &s[i], &s[i].points[j]);
            double tolerance = s[i].kind == SC_MEASURE_LATENCY ? 0.01 : 0.1;
            if (fabs(got - s[i].points[j].value) > tolerance * s[i].points[j].value) {
                fprintf(stderr, "\n%s, %zu bytes: predicted %g, measured %g\n", s[i].path,
                        s[i].points[j].bytes, got, s[i].points[j].value);
                CU_FAIL("a measurement does not come back");
            }
        }
    free_series(f.s, f.n);
}

/* A node's shared memory measured by streams only (IMB Uniband inside one
 * node): per-segment overheads from one pair, the memory's bandwidth from
 * the most any number of pairs carried at the largest size; the template's
 * latency; no gap. Without one pair's stream nothing is fitted. */
static void test_shared_memory_from_streams(void)
{
    sc_level_t want = {.latency_s = 28e-9, .bandwidth_Bps = 47e9, .eager_limit = 8192};
    want.recv_overhead = (sc_piecewise_t){
        3, {{0, 0.12e-6, 0.6e-9}, {128, 0.5e-6, 0.24e-9}, {8193, 1e-6, 0.1e-9}}};
    want.send_overhead = (sc_piecewise_t){
        3, {{0, 0.05e-6, 0}, {128, 0.1e-6, 0.05e-9}, {8193, 0, 0.01e-9}}};
    sc_series_t s[3] = {make_series(&want, SC_MEASURE_BANDWIDTH, 0, "uniband, np 2"),
                        make_series(&want, SC_MEASURE_BANDWIDTH, 16, "uniband, np 32"),
                        make_series(&want, SC_MEASURE_BIBANDWIDTH, 0, "biband, np 2")};
    sc_level_t start = sc_level_hockney(28e-9, 153.6e9, 0.24e-6, 8192);
    start.gap_s = 1e-6;
    static const size_t at128[] = {128};
    sc_fit_spec_t spec = {.breakpoints = at128, .nbreakpoints = 1, .eager_limit = 8192,
                          .header_bytes = HEADER, .fallback = &start, .shared_memory = 1};
    sc_fit_t fit;
    CU_ASSERT_EQUAL_FATAL(sc_calibrate_fit(&spec, s, 3, &fit), SC_OK);
    /* one way gives the slower side, o_r; both ways o_s + o_r */
    check_segments(&fit.level.send_overhead, &want.send_overhead);
    check_segments(&fit.level.recv_overhead, &want.recv_overhead);
    NEAR(fit.level.bandwidth_Bps, want.bandwidth_Bps);
    CU_ASSERT_EQUAL(fit.level.bandwidth_factor.n, 0);
    CU_ASSERT_EQUAL(fit.level.latency_s, 28e-9);
    CU_ASSERT_EQUAL(fit.level.gap_s, 0);
    for (int j = 1; j < s[1].npoints; j += 3)
        NEAR(sc_calibrate_predict(&fit.level, HEADER, 1, &s[1], &s[1].points[j]),
             s[1].points[j].value);
    /* Both ways, 16 pairs of 4 MiB messages fill the node's one memory
     * link: their total is its bandwidth (each direction gets half), where
     * two links (a NIC's two directions) would carry twice as much. */
    sc_series_t bi16 = {.kind = SC_MEASURE_BIBANDWIDTH, .pairs = 16};
    sc_point_t big = {.bytes = 4194304};
    double full = want.bandwidth_Bps * 4194304.0 / (4194304 + HEADER);
    NEAR(sc_calibrate_predict(&fit.level, HEADER, 1, &bi16, &big), full);
    NEAR(sc_calibrate_predict(&fit.level, HEADER, 0, &bi16, &big), 2 * full);
    /* A segment where one pair's stream has no size takes the nearest
     * one's, below first ([6, 10) holds none of 1, 2, 4, 5, 11, ...). */
    static const size_t gaps[] = {6, 10};
    sc_fit_spec_t gap_spec = spec;
    gap_spec.breakpoints = gaps;
    gap_spec.nbreakpoints = 2;
    CU_ASSERT_EQUAL_FATAL(sc_calibrate_fit(&gap_spec, s, 3, &fit), SC_OK);
    CU_ASSERT_EQUAL(fit.level.recv_overhead.seg[1].min_bytes, 6);
    CLOSE(fit.level.recv_overhead.seg[1].start, fit.level.recv_overhead.seg[0].start);
    CLOSE(fit.level.recv_overhead.seg[1].per_byte, fit.level.recv_overhead.seg[0].per_byte);
    /* Without the stream both ways, o_s is taken equal to o_r. */
    CU_ASSERT_EQUAL_FATAL(sc_calibrate_fit(&spec, s, 2, &fit), SC_OK);
    check_segments(&fit.level.send_overhead, &want.recv_overhead);
    /* The network level still needs its ping-pong, and shared memory one
     * pair's stream. */
    spec.shared_memory = 0;
    CU_ASSERT_EQUAL(sc_calibrate_fit(&spec, s, 2, &fit), SC_ERR_INPUT);
    spec.shared_memory = 1;
    CU_ASSERT_EQUAL(sc_calibrate_fit(&spec, s + 1, 1, &fit), SC_ERR_INPUT);
    /* Streams that carried nothing fit nothing. */
    for (int j = 0; j < s[0].npoints; j++)
        s[0].points[j].value = 0;
    CU_ASSERT_EQUAL(sc_calibrate_fit(&spec, s, 1, &fit), SC_ERR_INPUT);
    CU_ASSERT_PTR_NOT_NULL(strstr(sc_error_message(), "carried nothing"));
    free_series(s, 3);
}

/* Every fitted number of a level, finite. */
static int level_finite(const sc_level_t *lv)
{
    const sc_piecewise_t *pw[] = {&lv->send_overhead, &lv->recv_overhead, &lv->bandwidth_factor,
                                  &lv->latency_factor, &lv->flow_factor};
    int ok = isfinite(lv->latency_s) && isfinite(lv->bandwidth_Bps) && isfinite(lv->gap_s) &&
             isfinite(lv->bidirectional_Bps);
    for (size_t i = 0; i < sizeof pw / sizeof pw[0]; i++)
        for (int k = 0; k < pw[i]->n; k++)
            ok &= isfinite(pw[i]->seg[k].start) && isfinite(pw[i]->seg[k].per_byte);
    return ok;
}

/* The readers refuse a time above SC_DURATION_MAX_S and a bandwidth above
 * 1 PB/s (sim/io/measurements/read.c). Up to those, at sizes up to the largest
 * size_t, every fitted value is finite: at 1e308 s a fit's sums had
 * overflowed and the latency came out NaN. */
static void test_finite_at_bounds(void)
{
    static const size_t sizes[] = {1, 1024, 1u << 20, (size_t)1 << 40, SIZE_MAX};
    static const double one_way[] = {1e-6, 2e-6, 1e-3, 10, SC_DURATION_MAX_S};
    sc_point_t lat[5], os[5], bw[5];
    for (int i = 0; i < 5; i++) {
        lat[i] = (sc_point_t){sizes[i], one_way[i], NAN, i + 1};
        os[i] = (sc_point_t){sizes[i], i % 2 ? 0 : SC_DURATION_MAX_S, NAN, i + 1};
        bw[i] = (sc_point_t){sizes[i], 1e15, NAN, i + 1};
    }
    sc_series_t s[4] = {
        {.path = "lat", .kind = SC_MEASURE_LATENCY, .points = lat, .npoints = 5},
        {.path = "isend", .kind = SC_MEASURE_SEND_OVERHEAD, .points = os, .npoints = 5},
        {.path = "recv", .kind = SC_MEASURE_RECV_OVERHEAD, .points = os, .npoints = 5},
        {.path = "bw", .kind = SC_MEASURE_BANDWIDTH, .points = bw, .npoints = 5}};
    sc_level_t start = sc_level_hockney(1e-6, 1e9, 0.8e-6, 65536);
    for (int shared = 0; shared <= 1; shared++) {
        sc_fit_spec_t spec = spec_for(&start);
        spec.shared_memory = shared;
        sc_fit_t fit;
        CU_ASSERT_EQUAL_FATAL(sc_calibrate_fit(&spec, s, 4, &fit), SC_OK);
        CU_ASSERT(level_finite(&fit.level));
        for (int i = 0; i < 4; i++)
            for (int j = 0; j < 5; j++)
                CU_ASSERT(isfinite(sc_calibrate_predict(&fit.level, HEADER, shared, &s[i],
                                                        &s[i].points[j])));
    }
}

/* The note of parameter `what`, or NULL. */
static const sc_fit_note_t *fit_note(const sc_fit_t *fit, const char *what)
{
    for (int i = 0; i < fit->nnotes; i++)
        if (!strcmp(fit->notes[i].what, what))
            return &fit->notes[i];
    return NULL;
}

/* o_call, shared memory only: the median over the eager sizes of a
 * broadcast on two ranks less the ping-pong beside it (at 1 MiB, past the
 * eager limit, the ping-pong's protocol differs: not used), at least 0;
 * without broadcasts the template's, kept. A network level fits none. */
static void test_call_overhead(void)
{
    sc_point_t lat[8];
    for (int i = 0; i < 8; i++) /* 1 us and 1 GB/s, 8 B to 128 KiB */
        lat[i] = (sc_point_t){(size_t)8 << (2 * i), 1e-6 + (double)((size_t)8 << (2 * i)) / 1e9,
                              NAN, i + 1};
    sc_point_t call[4] = {{4, 1.3e-6, 1e-6, 3},
                          {64, 1.25e-6, 1e-6, 4},
                          {1024, 1.6e-6, 1.2e-6, 5},
                          {1 << 20, 1e-3, 2e-3, 6}};
    sc_series_t s[2] = {
        {.path = "lat", .kind = SC_MEASURE_LATENCY, .points = lat, .npoints = 8},
        {.path = "costs.txt", .kind = SC_MEASURE_CALL, .points = call, .npoints = 4}};
    sc_level_t start = sc_level_hockney(1e-7, 1e10, 5e-8, 65536);
    start.call_overhead_s = 7e-8;
    sc_fit_spec_t spec = spec_for(&start);
    spec.eager_limit = 65536;
    sc_fit_t fit;
    for (int shared = 0; shared <= 1; shared++) {
        spec.shared_memory = shared;
        CU_ASSERT_EQUAL_FATAL(sc_calibrate_fit(&spec, s, 2, &fit), SC_OK);
        /* 0.3, 0.25 and 0.4 us: the median */
        CU_ASSERT_DOUBLE_EQUAL(fit.level.call_overhead_s, shared ? 3e-7 : 7e-8, 1e-15);
        CU_ASSERT_EQUAL(fit_note(&fit, "o_call") != NULL, shared);
        CU_ASSERT(isnan(sc_calibrate_predict(&fit.level, HEADER, shared, &s[1], &call[0])));
    }
    /* the sizes' differences all below 0: 0, clamped */
    call[0].value = 0.9e-6;
    call[1].value = 0.8e-6;
    call[2].value = 1.1e-6;
    CU_ASSERT_EQUAL_FATAL(sc_calibrate_fit(&spec, s, 2, &fit), SC_OK);
    CU_ASSERT_EQUAL(fit.level.call_overhead_s, 0);
    CU_ASSERT(fit_note(&fit, "o_call") && fit_note(&fit, "o_call")->origin == SC_FIT_CLAMPED);
    /* none sent eagerly: the template's, kept */
    spec.eager_limit = 2;
    CU_ASSERT_EQUAL_FATAL(sc_calibrate_fit(&spec, s, 2, &fit), SC_OK);
    CU_ASSERT_EQUAL(fit.level.call_overhead_s, 7e-8);
    CU_ASSERT(fit_note(&fit, "o_call") && fit_note(&fit, "o_call")->origin == SC_FIT_KEPT);
}

static void test_needs_pingpong(void)
{
    sc_level_t want = truth(0);
    fitting_t f;
    measure(&f, &want, overheads_pingpong, 1); /* the send overheads alone */
    CU_ASSERT_EQUAL(fit(&f), SC_ERR_INPUT);
    CU_ASSERT_PTR_NOT_NULL(strstr(sc_error_message(), "no ping-pong latency"));
    free_series(f.s, f.n);
}

void sc_suite_calibrate(void)
{
    CU_pSuite s = CU_add_suite("calibrate", NULL, NULL);
    CU_add_test(s, "a known level comes back", test_recovers_level);
    CU_add_test(s, "latency factors per segment, with the option", test_latency_factor);
    CU_add_test(s, "shared memory: a ping-pong's slope bounds each message",
                test_shared_memory_pingpong);
    CU_add_test(s, "shared memory from streams alone", test_shared_memory_from_streams);
    CU_add_test(s, "streaming bandwidth and the NIC's gap", test_bandwidth_and_gap);
    CU_add_test(s, "the NIC's limit both ways", test_bidirectional);
    CU_add_test(s, "no ping-pong, no fit", test_needs_pingpong);
    CU_add_test(s, "a collective call's own cost", test_call_overhead);
    CU_add_test(s, "measurements at the readers' bounds: a finite fit", test_finite_at_bounds);
    CU_add_test(s, "OSU only: overheads from streams", test_overheads_from_streams);
}
