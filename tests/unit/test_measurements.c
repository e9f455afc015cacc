/* Benchmark output: OSU, IMB, NetPIPE and SimGrid calibration files read
 * into series, and everything that is refused.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include <CUnit/CUnit.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "helpers.h"
#include "sim/io/measurements.h"
#include "suites.h"

#define OPTION "--measured"

static sc_series_t *series;
static int nseries;

static void release(void)
{
    sc_series_destroy(series, nseries);
    series = NULL;
    nseries = 0;
}

static const char *fixture(const char *name)
{
    static char path[4][1024];
    static int next;
    char *p = path[next++ % 4];
    snprintf(p, sizeof path[0], "%s", sc_test_path("tests/measurements/"));
    strncat(p, name, sizeof path[0] - strlen(p) - 1);
    return p;
}

/* Reads a fixture; the test fails (and returns 0) if it is refused or does
 * not hold `n` series. */
static int load(const char *name, sc_measure_format_t format, int n)
{
    release();
    sc_err_t err = sc_measurements_read(OPTION, fixture(name), format, &series, &nseries);
    if (err)
        fprintf(stderr, "\n%s: %s\n", name, sc_error_message());
    CU_ASSERT_EQUAL(err, SC_OK);
    CU_ASSERT_EQUAL(nseries, n);
    if (!err && nseries != n)
        fprintf(stderr, "\n%s: %d series, expected %d\n", name, nseries, n);
    return !err && nseries == n;
}

static void expect_series(int i, sc_measure_kind_t kind, const char *source, const char *collective,
                          int np, int pairs, int npoints)
{
    const sc_series_t *s = &series[i];
    CU_ASSERT_EQUAL(s->kind, kind);
    CU_ASSERT_STRING_EQUAL(s->source, source);
    CU_ASSERT_STRING_EQUAL(s->collective, collective);
    CU_ASSERT_EQUAL(s->np, np);
    CU_ASSERT_EQUAL(s->pairs, pairs);
    CU_ASSERT_EQUAL(s->npoints, npoints);
    CU_ASSERT(strcmp(s->path, "t.txt") == 0 || strstr(s->path, "tests/measurements/"));
    if (s->kind != kind || strcmp(s->source, source) || s->npoints != npoints)
        fprintf(stderr, "\nseries %d: kind %d '%s', %d points\n", i, s->kind, s->source,
                s->npoints);
}

static int same(double got, double want)
{
    if (isnan(want))
        return isnan(got);
    return fabs(got - want) <= 1e-12 * fabs(want);
}

/* Point k of series i; value2 NAN means "not printed". */
static void expect_point(int i, int k, size_t bytes, double value, double value2, int line)
{
    if (i >= nseries || k >= series[i].npoints) {
        CU_FAIL("no such point");
        return;
    }
    const sc_point_t *p = &series[i].points[k];
    CU_ASSERT_EQUAL(p->bytes, bytes);
    CU_ASSERT(same(p->value, value));
    CU_ASSERT(same(p->value2, value2));
    CU_ASSERT_EQUAL(p->line, line);
    if (p->bytes != bytes || !same(p->value, value) || !same(p->value2, value2) || p->line != line)
        fprintf(stderr,
                "\nseries %d point %d: %zu %.17g %.17g line %d; expected %zu %.17g %.17g "
                "line %d\n",
                i, k, p->bytes, p->value, p->value2, p->line, bytes, value, value2, line);
}

static void expect_message(const char *needle)
{
    if (!strstr(sc_error_message(), needle)) {
        fprintf(stderr, "\nmessage lacks '%s': %s\n", needle, sc_error_message());
        CU_FAIL("message does not name the problem");
    }
}

/* Parses text from a buffer of exactly its length (no NUL after it, so that
 * AddressSanitizer sees any read past the end). */
static void expect_text_refused(const char *text, sc_measure_format_t format, const char *needle)
{
    size_t len = strlen(text);
    char *copy = malloc(len ? len : 1);
    memcpy(copy, text, len);
    sc_series_t *s = (sc_series_t *)1;
    int n = -1;
    CU_ASSERT_EQUAL(sc_measurements_parse(OPTION, "t.txt", copy, len, format, &s, &n),
                    SC_ERR_INPUT);
    CU_ASSERT_PTR_NULL(s);
    CU_ASSERT_EQUAL(n, 0);
    expect_message(needle);
    free(copy);
}

static int parse_text(const char *text, sc_measure_format_t format, int n)
{
    release();
    size_t len = strlen(text);
    char *copy = malloc(len ? len : 1);
    memcpy(copy, text, len);
    sc_err_t err = sc_measurements_parse(OPTION, "t.txt", copy, len, format, &series, &nseries);
    free(copy);
    if (err)
        fprintf(stderr, "\n%s\n", sc_error_message());
    CU_ASSERT_EQUAL(err, SC_OK);
    CU_ASSERT_EQUAL(nseries, n);
    return !err && nseries == n;
}

static void expect_file_refused(const char *name, sc_measure_format_t format, const char *needle)
{
    release();
    CU_ASSERT_EQUAL(sc_measurements_read(OPTION, fixture(name), format, &series, &nseries),
                    SC_ERR_INPUT);
    CU_ASSERT_PTR_NULL(series);
    CU_ASSERT_EQUAL(nseries, 0);
    expect_message(needle);
}

/* ------------------------------------------------------------------ */

static void test_osu_latency(void)
{
    if (load("osu_latency-5.6.txt", SC_MEASURE_FORMAT_AUTO, 1)) {
        expect_series(0, SC_MEASURE_LATENCY, "OSU MPI Latency Test v5.6.2", "", 0, 0, 8);
        expect_point(0, 0, 0, 2.5e-6, NAN, 3);
        expect_point(0, 1, 1, 2.75e-6, NAN, 4);
        expect_point(0, 5, 1024, 10.25e-6, NAN, 8);
        expect_point(0, 7, 1048576, 1.5e-3, NAN, 10);
        CU_ASSERT_STRING_EQUAL(series[0].path, fixture("osu_latency-5.6.txt"));
    }
    if (load("osu_latency-3.1.txt", SC_MEASURE_FORMAT_OSU, 1)) {
        expect_series(0, SC_MEASURE_LATENCY, "OSU MPI Latency Test v3.1.1", "", 0, 0, 3);
        expect_point(0, 0, 0, 40e-6, NAN, 3);
        expect_point(0, 2, 1024, 62.25e-6, NAN, 5);
    }
    /* OMB 7: a datatype line, "Avg Latency(us)", a Validation column, and
     * the column header again for the second datatype of -T */
    if (load("osu_latency-7.4-datatypes.txt", SC_MEASURE_FORMAT_AUTO, 2)) {
        expect_series(0, SC_MEASURE_LATENCY, "OSU MPI Latency Test v7.4", "", 0, 0, 3);
        expect_series(1, SC_MEASURE_LATENCY, "OSU MPI Latency Test v7.4", "", 0, 0, 2);
        expect_point(0, 0, 1, 1.5e-6, NAN, 5);
        expect_point(0, 2, 4, 1.7e-6, NAN, 7);
        expect_point(1, 0, 4, 1.75e-6, NAN, 10);
        expect_point(1, 1, 8, 1.85e-6, NAN, 11);
    }
}

static void test_osu_bandwidth(void)
{
    if (load("osu_bw-5.3-cuda.txt", SC_MEASURE_FORMAT_AUTO, 1)) {
        expect_series(0, SC_MEASURE_BANDWIDTH, "OSU MPI-CUDA Bandwidth Test v5.3", "", 0, 0, 3);
        expect_point(0, 0, 1, 0.5e6, NAN, 4); /* MB/s is 1e6 bytes/s */
        expect_point(0, 1, 1024, 400.25e6, NAN, 5);
        expect_point(0, 2, 4194304, 1e10, NAN, 6);
    }
    if (load("osu_bibw-5.6.txt", SC_MEASURE_FORMAT_OSU, 1)) {
        expect_series(0, SC_MEASURE_BIBANDWIDTH, "OSU MPI Bi-Directional Bandwidth Test v5.6.2", "",
                      0, 0, 3);
        expect_point(0, 0, 1, 1.25e6, NAN, 3);
        expect_point(0, 2, 4194304, 2e10, NAN, 5);
    }
    if (load("osu_mbw_mr-5.6.txt", SC_MEASURE_FORMAT_AUTO, 1)) {
        expect_series(0, SC_MEASURE_MESSAGE_RATE,
                      "OSU MPI Multiple Bandwidth / Message Rate Test v5.6.2", "", 0, 4, 3);
        expect_point(0, 0, 1, 20e6, 20000000.0, 4);
        expect_point(0, 1, 1024, 8000e6, 7812500.0, 5);
        expect_point(0, 2, 4194304, 3000e6, 715.26, 6);
    }
}

static void test_osu_collectives(void)
{
    if (load("osu_bcast-7.0-full.txt", SC_MEASURE_FORMAT_AUTO, 1)) {
        expect_series(0, SC_MEASURE_COLLECTIVE, "OSU MPI Broadcast Latency Test v7.0", "bcast", 0,
                      0, 3);
        expect_point(0, 0, 1, 80e-6, 120e-6, 5); /* value2: Max Latency */
        expect_point(0, 1, 2, 81.5e-6, 121.25e-6, 6);
        expect_point(0, 2, 1048576, 5e-3, 6e-3, 7);
    }
    if (load("osu_barrier-5.3.txt", SC_MEASURE_FORMAT_AUTO, 1)) {
        expect_series(0, SC_MEASURE_COLLECTIVE, "OSU MPI Barrier Latency Test v5.3", "barrier", 0,
                      0, 1);
        expect_point(0, 0, 0, 150.25e-6, NAN, 3);
    }
    if (load("osu_allreduce-5.6.txt", SC_MEASURE_FORMAT_OSU, 1)) {
        expect_series(0, SC_MEASURE_COLLECTIVE, "OSU MPI Allreduce Latency Test v5.6.2",
                      "allreduce", 0, 0, 4);
        expect_point(0, 0, 4, 6e-6, NAN, 4);
        expect_point(0, 3, 1048576, 3.6e-3, NAN, 7);
    }
    /* several tests in one file: one series each */
    if (load("osu-suite-5.6.txt", SC_MEASURE_FORMAT_AUTO, 5)) {
        expect_series(0, SC_MEASURE_LATENCY, "OSU MPI Latency Test v5.6.2", "", 0, 0, 2);
        expect_series(1, SC_MEASURE_COLLECTIVE,
                      "OSU MPI All-to-All Personalized Exchange Latency Test v5.6.2", "alltoall", 0,
                      0, 2);
        expect_series(2, SC_MEASURE_COLLECTIVE, "OSU MPI Reduce_scatter Latency Test v5.6.2",
                      "reduce_scatter", 0, 0, 1);
        expect_series(3, SC_MEASURE_COLLECTIVE, "OSU MPI-ROCM Gather Latency Test v7.4", "gather",
                      0, 0, 1);
        expect_series(4, SC_MEASURE_COLLECTIVE, "OSU MPI Barrier Latency Test v7.4", "barrier", 0,
                      0, 1);
        expect_point(0, 1, 1, 1.1e-6, NAN, 4);
        expect_point(1, 1, 2, 10.5e-6, NAN, 9);
        expect_point(2, 0, 4, 12e-6, NAN, 13);
        expect_point(3, 0, 1, 3e-6, 4e-6, 18);
        expect_point(4, 0, 0, 5e-6, 6.5e-6, 22);
    }
    /* every variant of the header the OMB sources print */
    if (parse_text("# OSU MPI-CUDA MANAGED Broadcast Latency Test v5.3\n"
                   "# Size       Avg Latency(us)\n"
                   "1 2.00\n"
                   "# OSU MPI All-to-Allv Personalized Exchange Latency Test\n"
                   "# Size Avg Latency (us)\n"
                   "1 3.00\n"
                   "# OSU MPI Scatterv Latency Test v7.4\n"
                   "# Size  Avg Latency(us)  P50 Tail Lat(us)  P99 Tail Lat(us)  Transmit Size\n"
                   "8 4.00 3.50 9.00 8\n",
                   SC_MEASURE_FORMAT_AUTO, 3)) {
        CU_ASSERT_STRING_EQUAL(series[0].collective, "bcast");
        CU_ASSERT_STRING_EQUAL(series[0].source,
                               "OSU MPI-CUDA MANAGED Broadcast Latency Test v5.3");
        CU_ASSERT_STRING_EQUAL(series[1].collective, "alltoallv");
        CU_ASSERT_STRING_EQUAL(series[2].collective, "scatterv");
        expect_point(2, 0, 8, 4e-6, NAN, 9);
    }
}

static void test_imb(void)
{
    if (load("imb-2019-pingpong.txt", SC_MEASURE_FORMAT_AUTO, 1)) {
        expect_series(0, SC_MEASURE_LATENCY,
                      "Intel(R) MPI Benchmarks 2019 Update 5, MPI-1 part: PingPong", "", 2, 0, 4);
        expect_point(0, 0, 0, 3e-6, NAN, 36); /* t[usec]; Mbytes/sec ignored */
        expect_point(0, 3, 4194304, 1.4e-3, NAN, 39);
    }
    /* -npmin: the same benchmark on 2 and 4 processes; Sendrecv skipped; a
     * sample that timed out has no point */
    if (load("imb-2019-mpi1.txt", SC_MEASURE_FORMAT_IMB, 6)) {
        const char *t = "Intel(R) MPI Benchmarks 2019 Update 5, MPI-1 part: ";
        char src[128];
        snprintf(src, sizeof src, "%sPingPong", t);
        expect_series(0, SC_MEASURE_LATENCY, src, "", 2, 0, 2);
        snprintf(src, sizeof src, "%sPingPing", t);
        expect_series(1, SC_MEASURE_PINGPING, src, "", 2, 0, 2);
        snprintf(src, sizeof src, "%sAllreduce", t);
        expect_series(2, SC_MEASURE_COLLECTIVE, src, "allreduce", 2, 0, 2);
        expect_series(3, SC_MEASURE_COLLECTIVE, src, "allreduce", 4, 0, 2);
        snprintf(src, sizeof src, "%sBcast", t);
        expect_series(4, SC_MEASURE_COLLECTIVE, src, "bcast", 4, 0, 2);
        snprintf(src, sizeof src, "%sBarrier", t);
        expect_series(5, SC_MEASURE_COLLECTIVE, src, "barrier", 4, 0, 1);
        expect_point(0, 1, 1024, 35e-6, NAN, 22);
        expect_point(1, 0, 0, 21e-6, NAN, 30);
        expect_point(2, 1, 4, 30.5e-6, 31e-6, 48); /* t_avg, t_max */
        expect_point(3, 1, 4, 62e-6, 64e-6, 57);
        expect_point(4, 1, 1, 50e-6, 55e-6, 65);
        expect_point(5, 0, 0, 91e-6, 92e-6, 72);
    }
    if (load("imb-3.2-barrier.txt", SC_MEASURE_FORMAT_AUTO, 2)) {
        expect_series(0, SC_MEASURE_COLLECTIVE,
                      "Intel (R) MPI Benchmark Suite V3.2.4, MPI-1 part: Barrier", "barrier", 6, 0,
                      1);
        expect_series(1, SC_MEASURE_COLLECTIVE,
                      "Intel (R) MPI Benchmark Suite V3.2.4, MPI-1 part: Reduce_scatter",
                      "reduce_scatter", 6, 0, 2);
        expect_point(0, 0, 0, 190.75e-6, 191.5e-6, 16);
        expect_point(1, 1, 1536, 310e-6, 320e-6, 24);
    }
    /* Uniband, Biband: Mbytes/sec is 1e6 bytes/s, value2 the Msg/sec */
    if (load("imb-2019-uniband-biband.txt", SC_MEASURE_FORMAT_AUTO, 2)) {
        expect_series(0, SC_MEASURE_BANDWIDTH,
                      "Intel(R) MPI Benchmarks 2019 Update 5, MPI-1 part: Uniband", "", 2, 0, 4);
        expect_series(1, SC_MEASURE_BIBANDWIDTH,
                      "Intel(R) MPI Benchmarks 2019 Update 5, MPI-1 part: Biband", "", 2, 0, 3);
        expect_point(0, 0, 0, 0, 0, 10);
        expect_point(0, 1, 1, 2.5e6, 2500000, 11);
        expect_point(0, 2, 1024, 1638.4e6, 1600000, 12);
        expect_point(0, 3, 4194304, 8388.61e6, 2000, 13);
        expect_point(1, 2, 4194304, 14680.06e6, 3500, 22);
    }
    /* an IMB whose Mbytes/sec is 2^20 bytes/s: Msg/sec x bytes shows it */
    if (load("imb-4.1-uniband-mebibytes.txt", SC_MEASURE_FORMAT_AUTO, 1)) {
        /* 4 processes: 2 pairs, whose total is the value */
        expect_series(0, SC_MEASURE_BANDWIDTH, "Intel (R) MPI Benchmarks 4.1, MPI-1 part: Uniband",
                      "", 4, 2, 4);
        expect_point(0, 2, 65536, 750.0 * 1048576, 12000, 12);
        expect_point(0, 3, 1048576, 900.0 * 1048576, 900, 13);
    }
    /* the one-table layout: a series per benchmark and process count */
    if (load("imb-table.txt", SC_MEASURE_FORMAT_AUTO, 3)) {
        expect_series(0, SC_MEASURE_COLLECTIVE, "IMB-MPI1 Allreduce", "allreduce", 96, 0, 2);
        expect_series(1, SC_MEASURE_COLLECTIVE, "IMB-MPI1 Bcast", "bcast", 96, 0, 1);
        expect_series(2, SC_MEASURE_COLLECTIVE, "IMB-MPI1 Allreduce", "allreduce", 192, 0, 1);
        expect_point(0, 1, 1024, 410e-6, 420e-6, 3);
        expect_point(1, 0, 1, 120e-6, 140e-6, 4);
        expect_point(2, 0, 4, 315e-6, 330e-6, 6);
    }
    /* "# #processes = 4; rank order (rowwise):" of -map, and the defects
     * column of a -DCHECK build */
    if (parse_text("# Benchmarking Alltoall\n"
                   "# #processes = 4; rank order (rowwise): \n"
                   "#    0    2\n"
                   "#    1    3\n"
                   "#bytes #repetitions t_min[usec] t_max[usec] t_avg[usec] defects\n"
                   "8 1000 1.00 2.00 1.50 0.00\n",
                   SC_MEASURE_FORMAT_AUTO, 1)) {
        expect_series(0, SC_MEASURE_COLLECTIVE, "IMB-MPI1 Alltoall", "alltoall", 4, 0, 1);
        expect_point(0, 0, 8, 1.5e-6, 2e-6, 6);
    }
}

static void test_netpipe(void)
{
    if (load("netpipe-3.7.np.out", SC_MEASURE_FORMAT_AUTO, 1)) {
        expect_series(0, SC_MEASURE_LATENCY, "NetPIPE np.out", "", 0, 0, 34);
        expect_point(0, 0, 1, 3.001e-5, NAN, 1); /* the seconds column: one way */
        expect_point(0, 29, 1024, 3.922e-5, NAN, 30);
        expect_point(0, 33, 65539, 6.1985e-4, NAN, 34);
    }
    if (load("netpipe-3.7.np.out", SC_MEASURE_FORMAT_NETPIPE, 1))
        CU_ASSERT_EQUAL(series[0].npoints, 34);
}

static void test_smpi(void)
{
    if (load("smpi-pingpong.csv", SC_MEASURE_FORMAT_AUTO, 1)) {
        expect_series(0, SC_MEASURE_LATENCY, "SimGrid platform-calibration PingPong", "", 0, 0, 4);
        /* (MPI_Send + MPI_Recv) / 2, on the line of the MPI_Send */
        expect_point(0, 0, 765921, 7e-3, NAN, 1);
        expect_point(0, 1, 1, (3e-6 + 1.25e-4) / 2, NAN, 3);
        expect_point(0, 3, 1420, (6e-6 + 1.1e-4) / 2, NAN, 7);
    }
    if (load("smpi-isend.csv", SC_MEASURE_FORMAT_SMPI, 1)) {
        expect_series(0, SC_MEASURE_SEND_OVERHEAD, "SimGrid platform-calibration Isend", "", 0, 0,
                      4);
        expect_point(0, 0, 765921, 1.15e-5, NAN, 1);
        expect_point(0, 3, 32768, 5.25e-6, NAN, 4);
    }
    /* MPI_Wtime and MPI_Test rows are skipped */
    if (load("smpi-recv.csv", SC_MEASURE_FORMAT_AUTO, 1)) {
        expect_series(0, SC_MEASURE_RECV_OVERHEAD, "SimGrid platform-calibration Recv", "", 0, 0,
                      3);
        expect_point(0, 0, 1, 8.5e-6, NAN, 2);
        expect_point(0, 1, 1024, 1.2e-5, NAN, 3);
        expect_point(0, 2, 765921, 1.4e-3, NAN, 5);
    }
    /* a header row as R writes it, CRLF line ends, spaces around fields */
    if (parse_text("Op,Size,Start,Duration\r\nMPI_Isend, 8 ,1.0,2e-6\r\n", SC_MEASURE_FORMAT_AUTO,
                   1))
        expect_point(0, 0, 8, 2e-6, NAN, 2);
}

/* simcoll-probe's own output on this project's machine (sim/probe/;
 * tests/measurements/probe-*.txt: 2 ranks over shared memory, and over
 * TCP loopback with --each-rank-a-node): a series per run of rows of one
 * kind, placement and pairs; refused rows name what is wrong. */
static void test_probe(void)
{
    static const sc_measure_kind_t kinds[] = {SC_MEASURE_LATENCY, SC_MEASURE_SEND_OVERHEAD,
                                              SC_MEASURE_RECV_OVERHEAD, SC_MEASURE_BANDWIDTH};
    static const int npoints[] = {29, 21, 21, 7};
    for (int tcp = 0; tcp <= 1; tcp++) {
        if (!load(tcp ? "probe-tcp.txt" : "probe-shm.txt", SC_MEASURE_FORMAT_AUTO, 4))
            continue;
        for (int i = 0; i < 4; i++) {
            expect_series(i, kinds[i], "simcoll-probe 1", "", 0, 0, npoints[i]);
            CU_ASSERT_STRING_EQUAL(series[i].placement, tcp ? "inter" : "intra");
        }
    }
    if (load("probe-shm.txt", SC_MEASURE_FORMAT_PROBE, 4)) {
        expect_point(0, 0, 1, 5.6625e-7, NAN, 12);
        expect_point(3, 6, 1048576, 2.107543e9, NAN, 90);
    }
    static const char head[] = "# simcoll-probe 1: x\n# a comment\n";
    char text[256];
    /* several pairs streaming: one series each */
    snprintf(text, sizeof text, "%sbandwidth inter 1 8 1e6\nbandwidth inter 2 8 2e6\n"
                                "bandwidth inter 2 64 9e6\n", head);
    if (parse_text(text, SC_MEASURE_FORMAT_AUTO, 2)) {
        CU_ASSERT_EQUAL(series[0].pairs, 0);
        CU_ASSERT_EQUAL(series[1].pairs, 2);
        CU_ASSERT_EQUAL(series[1].npoints, 2);
    }
    /* every placement of a node's levels, a series each */
    snprintf(text, sizeof text,
             "%slatency intra 1 8 1e-7\nlatency ccx 1 8 3e-7\n"
             "latency numa 1 8 4e-7\nlatency socket 1 8 5e-7\n",
             head);
    if (parse_text(text, SC_MEASURE_FORMAT_AUTO, 4)) {
        static const char *const placed[] = {"intra", "ccx", "numa", "socket"};
        for (int i = 0; i < 4; i++)
            CU_ASSERT_STRING_EQUAL(series[i].placement, placed[i]);
    }
    /* collectives: a series per collective and process count */
    snprintf(text, sizeof text, "%scollective bcast 2 8 1e-6\ncollective bcast 2 64 2e-6\n"
                                "collective bcast 4 8 3e-6\ncollective barrier 4 0 4e-6\n", head);
    if (parse_text(text, SC_MEASURE_FORMAT_AUTO, 3)) {
        expect_series(0, SC_MEASURE_COLLECTIVE, "simcoll-probe 1", "bcast", 2, 0, 2);
        expect_series(1, SC_MEASURE_COLLECTIVE, "simcoll-probe 1", "bcast", 4, 0, 1);
        expect_series(2, SC_MEASURE_COLLECTIVE, "simcoll-probe 1", "barrier", 4, 0, 1);
        expect_point(0, 1, 64, 2e-6, NAN, 4);
    }
    static const struct {
        const char *rows, *needle;
    } bad[] = {
        {"collective BCAST 2 8 1e-6\n", "collective 'BCAST'; expected a name in lower case"},
        {"collective bcast 0 8 1e-6\n", "np '0' is out of range"},
        {"latency intra 1 8\n", "has 4 fields; expected 5"},
        {"latency nearby 1 8 1e-6\n",
         "placement 'nearby'; expected intra, ccx, numa, socket or inter"},
        {"bw intra 1 8 1e6\n", "kind 'bw'; expected latency, send-overhead"},
        {"latency intra 2 8 1e-6\n", "latency with 2 pairs; expected 1"},
        {"latency intra 0 8 1e-6\n", "pairs '0' is out of range"},
        {"latency intra 1 8 -1e-6\n", "-1e-6"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        snprintf(text, sizeof text, "%s%s", head, bad[i].rows);
        expect_text_refused(text, SC_MEASURE_FORMAT_AUTO, bad[i].needle);
    }
    /* the rows of --call-costs (issue 45) are checked and skipped: the
     * latency's rows around them are one series, as if they were not
     * there; MPI_COMM_SELF only for the collectives, a negative value
     * only for the barrier's skew */
    if (parse_text("# simcoll-probe 1\nlatency intra 1 8 1e-7\ncall-bcast self 1 4 3e-8\n"
                   "call-bcast-min intra 1 4 2e-7\nbarrier-skew intra 1 0 -3.9e-7\n"
                   "barrier-skew-bcast intra 1 4 2e-8\nfan-in intra 2 4 1e-6\n"
                   "pingpong-barrier intra 1 0 1.4e-7\npingpong-requests ccx 1 4 1.6e-7\n"
                   "relay-min intra 3 64 2e-7\nlatency intra 1 16 2e-7\n",
                   SC_MEASURE_FORMAT_AUTO, 1)) {
        expect_series(0, SC_MEASURE_LATENCY, "simcoll-probe 1", "", 0, 0, 2);
        expect_point(0, 1, 16, 2e-7, NAN, 11);
    }
    /* the intra placement's broadcasts with the ping-pong of their size
     * before them are the call series: one, whatever rows come between;
     * a broadcast of another size than the ping-pong before it, or of
     * another placement, or on MPI_COMM_SELF, is no point of it */
    if (parse_text("# simcoll-probe 1\nlatency intra 1 8 1e-7\n"
                   "call-pingpong intra 1 4 1.5e-7\npingpong-barrier intra 1 4 1.6e-7\n"
                   "call-bcast intra 1 4 2e-7\ncall-bcast-min intra 1 4 1.8e-7\n"
                   "call-bcast self 1 4 1e-8\ncall-pingpong ccx 1 4 3e-7\ncall-bcast ccx 1 4 4e-7\n"
                   "latency intra 1 16 2e-7\ncall-pingpong intra 1 64 1.6e-7\n"
                   "call-bcast intra 1 1024 9e-7\ncall-pingpong intra 1 1024 3e-7\n"
                   "call-bcast intra 1 1024 3.5e-7\n",
                   SC_MEASURE_FORMAT_AUTO, 2)) {
        expect_series(0, SC_MEASURE_LATENCY, "simcoll-probe 1", "", 0, 0, 2);
        expect_series(1, SC_MEASURE_CALL, "simcoll-probe 1", "bcast", 2, 0, 2);
        CU_ASSERT_STRING_EQUAL(series[1].placement, "intra");
        expect_point(1, 0, 4, 2e-7, 1.5e-7, 5);
        expect_point(1, 1, 1024, 3.5e-7, 3e-7, 14);
    }
    static const struct {
        const char *rows, *needle;
    } skipped_bad[] = {
        {"call-pingpong self 1 0 1e-7\n",
         "placement 'self' of call-pingpong; expected intra, ccx, numa, socket or inter"},
        {"call-bcast nearby 1 4 1e-7\n", "placement 'nearby' of call-bcast; expected self, intra"},
        {"call-bcast self 1 4 -1e-7\n", "-1e-7"},
        {"barrier-skew intra 1 0 nan\n", "nan"},
        {"fan-in intra 0 4 1e-6\n", "pairs '0' is out of range"},
        {"relay intra 2 4 -1e-6\n", "-1e-6"},
        {"pingpong-requests self 1 4 1e-7\n",
         "placement 'self' of pingpong-requests; expected intra"},
        {"call-bcast self 1 4\n", "has 4 fields; expected 5"},
        {"call-bcast self 1 4 3e-8\nbarrier-skew intra 1 0 -1e-7\n",
         "only the 2 rows of simcoll-probe --call-costs (call-bcast, ...), which give no "
         "message's time to fit"},
        /* a call series alone is no message's time either */
        {"call-pingpong intra 1 4 1.5e-7\ncall-bcast intra 1 4 2e-7\n",
         "only the 2 rows of simcoll-probe --call-costs (call-pingpong, ...)"},
    };
    for (size_t i = 0; i < sizeof skipped_bad / sizeof skipped_bad[0]; i++) {
        snprintf(text, sizeof text, "%s%s", head, skipped_bad[i].rows);
        expect_text_refused(text, SC_MEASURE_FORMAT_AUTO, skipped_bad[i].needle);
    }
    /* a file cut in the middle of a row: its line named */
    expect_text_refused("# simcoll-probe 1\nlatency intra 1 8 1e-6\nlatency intra 1 16",
                        SC_MEASURE_FORMAT_AUTO, "t.txt':3: 'latency intra 1 16' has 4 fields");
    expect_text_refused("# simcoll-probe 2\nlatency intra 1 8 1e-6\n", SC_MEASURE_FORMAT_PROBE,
                        "expected '# simcoll-probe 1' (version 1)");
    expect_text_refused("latency intra 1 8 1e-6\n", SC_MEASURE_FORMAT_PROBE,
                        "expected '# simcoll-probe 1'");
}

/* Each fixture gives the same with its format named as found by itself. */
static void test_auto_and_explicit(void)
{
    static const struct {
        const char *file;
        sc_measure_format_t format;
    } files[] = {
        {"osu_latency-5.6.txt", SC_MEASURE_FORMAT_OSU},
        {"osu_mbw_mr-5.6.txt", SC_MEASURE_FORMAT_OSU},
        {"osu-suite-5.6.txt", SC_MEASURE_FORMAT_OSU},
        {"imb-2019-pingpong.txt", SC_MEASURE_FORMAT_IMB},
        {"imb-table.txt", SC_MEASURE_FORMAT_IMB},
        {"netpipe-3.7.np.out", SC_MEASURE_FORMAT_NETPIPE},
        {"smpi-pingpong.csv", SC_MEASURE_FORMAT_SMPI},
        {"smpi-recv.csv", SC_MEASURE_FORMAT_SMPI},
    };
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        sc_series_t *a = NULL, *b = NULL;
        int na = 0, nb = 0;
        CU_ASSERT_EQUAL(
            sc_measurements_read(OPTION, fixture(files[i].file), SC_MEASURE_FORMAT_AUTO, &a, &na),
            SC_OK);
        CU_ASSERT_EQUAL(
            sc_measurements_read(OPTION, fixture(files[i].file), files[i].format, &b, &nb), SC_OK);
        CU_ASSERT_EQUAL(na, nb);
        for (int k = 0; k < na && k < nb; k++) {
            CU_ASSERT_EQUAL(a[k].kind, b[k].kind);
            CU_ASSERT_EQUAL(a[k].npoints, b[k].npoints);
            for (int j = 0; j < a[k].npoints && j < b[k].npoints; j++) {
                CU_ASSERT_EQUAL(a[k].points[j].bytes, b[k].points[j].bytes);
                CU_ASSERT_EQUAL(a[k].points[j].value, b[k].points[j].value);
                CU_ASSERT(same(a[k].points[j].value2, b[k].points[j].value2));
                CU_ASSERT_EQUAL(a[k].points[j].line, b[k].points[j].line);
            }
        }
        sc_series_destroy(a, na);
        sc_series_destroy(b, nb);
    }
    /* a format named that the content is not */
    expect_file_refused("osu_latency-5.6.txt", SC_MEASURE_FORMAT_IMB,
                        "osu_latency-5.6.txt':1: '# OSU MPI Latency Test v5.6.2' is an OSU "
                        "micro-benchmarks header; expected Intel MPI Benchmarks output");
    expect_file_refused("imb-2019-pingpong.txt", SC_MEASURE_FORMAT_OSU,
                        "imb-2019-pingpong.txt':2: '#    Intel(R) MPI Benchmarks 2019 Update 5, "
                        "MPI-1 part' is Intel MPI Benchmarks output; expected OSU "
                        "micro-benchmarks output");
    expect_file_refused("smpi-isend.csv", SC_MEASURE_FORMAT_NETPIPE,
                        "smpi-isend.csv':1: 'MPI_Isend,765921,20.000000,1.150000e-05' is a "
                        "SimGrid calibration CSV row; expected NetPIPE np.out rows");
    expect_file_refused("netpipe-3.7.np.out", SC_MEASURE_FORMAT_SMPI,
                        "np.out':1: '1 0.254228   0.00003001' is a NetPIPE np.out row; expected "
                        "SimGrid platform-calibration CSV rows");
    expect_file_refused("netpipe-3.7.np.out", SC_MEASURE_FORMAT_OSU,
                        "is a NetPIPE np.out row; expected OSU micro-benchmarks output");
    /* content that is none of them */
    expect_text_refused("hello\n", SC_MEASURE_FORMAT_AUTO,
                        OPTION " 't.txt':1: 'hello' is not output of a benchmark simcoll reads; "
                               "expected the output of osu_*");
    /* the message names the file alone without an option */
    sc_series_t *s = NULL;
    int n = 0;
    CU_ASSERT_EQUAL(
        sc_measurements_parse(NULL, "x.txt", "hello", 5, SC_MEASURE_FORMAT_AUTO, &s, &n),
        SC_ERR_INPUT);
    expect_message("'x.txt':1: 'hello' is not");
    CU_ASSERT_EQUAL(strncmp(sc_error_message(), "'x.txt':1: ", 11), 0);
}

static void test_refused_numbers(void)
{
    expect_file_refused("bad/osu-negative.txt", SC_MEASURE_FORMAT_AUTO, OPTION " '");
    expect_message("osu-negative.txt':4: Latency (us) '-2.75' is negative; expected a number >= 0");
    expect_file_refused("bad/osu-nan.txt", SC_MEASURE_FORMAT_AUTO,
                        "osu-nan.txt':4: MB/s '-nan' is not a finite number");
    expect_text_refused("# OSU MPI Latency Test v5.6.2\n# Size Latency (us)\n1 inf\n",
                        SC_MEASURE_FORMAT_AUTO, "t.txt':3: Latency (us) 'inf' is not a finite");
    expect_text_refused("# OSU MPI Latency Test v5.6.2\n# Size Latency (us)\n1 1e999\n",
                        SC_MEASURE_FORMAT_AUTO, "t.txt':3: Latency (us) '1e999' is not a finite");
    expect_text_refused("# OSU MPI Bandwidth Test v5.6.2\n# Size Bandwidth (MB/s)\n1 1e305\n",
                        SC_MEASURE_FORMAT_AUTO, "t.txt':3: MB/s '1e305' is too large");
    expect_text_refused("# OSU MPI Latency Test v5.6.2\n# Size Latency (us)\n1 0x10\n",
                        SC_MEASURE_FORMAT_AUTO, "t.txt':3: Latency (us) '0x10' is not a number");
    expect_text_refused("# OSU MPI Latency Test v5.6.2\n# Size Latency (us)\n1.5 2.0\n",
                        SC_MEASURE_FORMAT_AUTO, "t.txt':3: Size '1.5' is not a whole number");
    expect_text_refused("# OSU MPI Latency Test v5.6.2\n# Size Latency (us)\n-1 2.0\n",
                        SC_MEASURE_FORMAT_AUTO, "t.txt':3: Size '-1' is negative");
    expect_file_refused("bad/osu-size-overflow.txt", SC_MEASURE_FORMAT_AUTO,
                        "osu-size-overflow.txt':3: Size '99999999999999999999999' does not fit "
                        "in size_t");
    expect_text_refused("# Benchmarking PingPong\n# #processes = 2\n#bytes #repetitions t[usec] "
                        "Mbytes/sec\n0 1000 nan 0.00\n",
                        SC_MEASURE_FORMAT_AUTO, "t.txt':4: t[usec] 'nan' is not a finite");
    expect_text_refused("# Benchmarking PingPong\n# #processes = 0\n", SC_MEASURE_FORMAT_AUTO,
                        "t.txt':2: #processes '0' is out of range; expected 1 to");
    expect_text_refused("1 0.000007 -1.0\n", SC_MEASURE_FORMAT_NETPIPE,
                        "t.txt':1: seconds '-1.0' is negative");
    expect_text_refused("MPI_Recv,1,0.4,-8e-6\n", SC_MEASURE_FORMAT_AUTO,
                        "t.txt':1: duration '-8e-6' is negative");
    expect_text_refused("MPI_Recv,18446744073709551616,0.4,8e-6\n", SC_MEASURE_FORMAT_AUTO,
                        "t.txt':1: size '18446744073709551616' does not fit in size_t");
    /* finite, but no machine's: a fit's sums over them overflowed to NaN */
    expect_text_refused("# simcoll-probe 1\nlatency socket 1 8 1e-6\nlatency socket 1 1024 1e308\n",
                        SC_MEASURE_FORMAT_AUTO,
                        "t.txt':3: a time of 1e+308 s is more than 1e+09 s; expected a measured "
                        "time");
    expect_text_refused("# OSU MPI Latency Test v5.6.2\n# Size Latency (us)\n1 2e15\n",
                        SC_MEASURE_FORMAT_AUTO, "t.txt':3: a time of 2e+09 s is more than 1e+09 s");
    expect_text_refused("# OSU MPI Bandwidth Test v5.6.2\n# Size Bandwidth (MB/s)\n1 2e9\n",
                        SC_MEASURE_FORMAT_AUTO,
                        "t.txt':3: 2e+15 bytes/s is more than 1e+15 bytes/s, the fastest link a "
                        "platform may have");
    expect_text_refused("# OSU MPI Allreduce Latency Test v5.6.2\n# Size Avg Latency(us)\n"
                        "4 1e300\n",
                        SC_MEASURE_FORMAT_AUTO, "t.txt':3: a time of 1e+294 s is more than");
    /* the bounds themselves are measurements */
    parse_text("# OSU MPI Latency Test v5.6.2\n# Size Latency (us)\n1 1e15\n",
               SC_MEASURE_FORMAT_AUTO, 1);
    parse_text("# OSU MPI Bandwidth Test v5.6.2\n# Size Bandwidth (MB/s)\n1 1e9\n",
               SC_MEASURE_FORMAT_AUTO, 1);
    /* the largest size_t is a size */
    if (parse_text("MPI_Recv,18446744073709551615,0.4,8e-6\n", SC_MEASURE_FORMAT_AUTO, 1))
        CU_ASSERT_EQUAL(series[0].points[0].bytes, (size_t)18446744073709551615u);
}

static void test_refused_structure(void)
{
    /* a header without data, data without a header, no point at all */
    expect_file_refused("bad/osu-header-without-data.txt", SC_MEASURE_FORMAT_AUTO,
                        "osu-header-without-data.txt':6: '# Size      Bandwidth (MB/s)' is "
                        "followed by no data");
    expect_text_refused("# OSU MPI Latency Test v5.6.2\n\n", SC_MEASURE_FORMAT_AUTO,
                        "t.txt':1: 'OSU MPI Latency Test v5.6.2' is followed by no column header "
                        "and no data");
    expect_text_refused("# OSU MPI Latency Test v5.6.2\n0 2.5\n", SC_MEASURE_FORMAT_AUTO,
                        "t.txt':2: '0 2.5' comes before the column header");
    expect_file_refused("bad/osu-rows-without-header.txt", SC_MEASURE_FORMAT_AUTO,
                        "osu-rows-without-header.txt':1: '0                       2.50' is not "
                        "output of a benchmark simcoll reads");
    expect_file_refused("bad/osu-rows-without-header.txt", SC_MEASURE_FORMAT_OSU,
                        "osu-rows-without-header.txt':1: '0                       2.50' comes "
                        "before any OSU header; expected a '# OSU MPI ... Test' line first");
    expect_file_refused("bad/empty.txt", SC_MEASURE_FORMAT_AUTO,
                        "empty.txt': no measurement in it; expected the output of osu_*");
    expect_file_refused("bad/empty.txt", SC_MEASURE_FORMAT_NETPIPE,
                        "empty.txt': no measurement in it; expected NetPIPE np.out rows");
    expect_text_refused("# just a comment\n\n", SC_MEASURE_FORMAT_AUTO,
                        "t.txt': no measurement in it");
    expect_file_refused("bad/imb-no-rows.txt", SC_MEASURE_FORMAT_AUTO,
                        "imb-no-rows.txt':5: '#bytes #repetitions      t[usec]   Mbytes/sec' is "
                        "followed by no data");
    expect_text_refused("# Benchmarking PingPong\n# #processes = 2\n", SC_MEASURE_FORMAT_AUTO,
                        "t.txt':1: '# Benchmarking PingPong' is followed by no column header");
    expect_text_refused("# Benchmarking Sendrecv\n# #processes = 2\n#bytes #repetitions "
                        "t_min[usec] t_max[usec] t_avg[usec] Mbytes/sec\n0 1000 1 2 1.5 0\n",
                        SC_MEASURE_FORMAT_AUTO,
                        "t.txt': no benchmark simcoll reads (only Sendrecv); expected PingPong");
    expect_text_refused("0 1000 2.00 0.00\n", SC_MEASURE_FORMAT_IMB,
                        "t.txt':1: '0 1000 2.00 0.00' is outside any benchmark block");
    expect_text_refused("# Benchmarking PingPong\n# #processes = 2\n0 1000 2.00 0.00\n",
                        SC_MEASURE_FORMAT_AUTO,
                        "t.txt':3: '0 1000 2.00 0.00' comes before the column header of "
                        "'# Benchmarking PingPong' (line 1)");
    expect_text_refused("# Benchmarking PingPong\n#bytes #repetitions t[usec] Mbytes/sec\n",
                        SC_MEASURE_FORMAT_AUTO,
                        "t.txt':2: '# Benchmarking PingPong' (line 1) has no process count");
    expect_text_refused("#bytes #repetitions t[usec] Mbytes/sec\n", SC_MEASURE_FORMAT_IMB,
                        "t.txt':1: column header '#bytes #repetitions t[usec] Mbytes/sec' "
                        "outside any benchmark block");
    expect_text_refused("# Benchmarking Ping Pong\n", SC_MEASURE_FORMAT_AUTO,
                        "t.txt':1: '# Benchmarking Ping ...' is not one benchmark name");
    expect_text_refused("# Benchmarking Multi-PingPong\n", SC_MEASURE_FORMAT_AUTO,
                        "t.txt':1: '# Benchmarking Multi-PingPong' is IMB -multi output");
    expect_text_refused("# Benchmarking Ibcast\n# #processes = 2\n#bytes #repetitions "
                        "t_ovrl[usec] t_pure[usec] t_CPU[usec] overlap[%]\n",
                        SC_MEASURE_FORMAT_AUTO, "t.txt': no benchmark simcoll reads (only Ibcast)");
    expect_text_refused("# Benchmarking Bcast\n# #processes = 2\n#bytes #repetitions "
                        "t_ovrl[usec] t_pure[usec]\n",
                        SC_MEASURE_FORMAT_AUTO, "t.txt':3: unknown column 't_ovrl[usec]'");
    expect_text_refused("# Benchmarking PingPong\n# #processes = 2\n#bytes #repetitions "
                        "t_min[usec] t_max[usec] t_avg[usec]\n",
                        SC_MEASURE_FORMAT_AUTO,
                        "t.txt':3: the columns on line 3 do not hold what PingPong measures; "
                        "expected '#bytes #repetitions t[usec] Mbytes/sec'");
    expect_text_refused("# Benchmarking Bcast\n# #processes = 2\n#bytes #repetitions "
                        "t_min[usec] t_max[usec] t_avg[usec]\n1 1000 1 2\n",
                        SC_MEASURE_FORMAT_AUTO,
                        "t.txt':4: '1 1000 1 2' has 4 fields; expected 5, as the column header "
                        "on line 3 says");
    expect_text_refused("#Benchmarking #procs #bytes #repetitions t_min[usec] t_max[usec] "
                        "t_avg[usec]\nPingPong 2 0 1000 1 1 1\n",
                        SC_MEASURE_FORMAT_AUTO,
                        "t.txt':2: the columns on line 1 do not hold what PingPong measures");
    /* OSU */
    expect_file_refused("bad/osu-multi-latency.txt", SC_MEASURE_FORMAT_AUTO,
                        "osu-multi-latency.txt':1: '# OSU MPI Multi Latency Test v5.3' is not a "
                        "test simcoll reads; expected osu_latency, osu_bw");
    expect_text_refused("# OSU MPI Non-Blocking Broadcast Latency Test v5.3\n",
                        SC_MEASURE_FORMAT_AUTO, "is not a test simcoll reads");
    expect_text_refused("# OSU MPI_Put Latency Test v5.3\n", SC_MEASURE_FORMAT_AUTO,
                        "is not a test simcoll reads");
    expect_text_refused("# OSU OpenSHMEM Put Test v5.3\n", SC_MEASURE_FORMAT_AUTO,
                        "is not a test simcoll reads");
    expect_text_refused("# OSU MPI Latency Test v5.6.2\n# Size Latency (us)\n0 1.0 2.0\n",
                        SC_MEASURE_FORMAT_AUTO,
                        "t.txt':3: '0 1.0 2.0' has 3 fields; expected 2, as the column header on "
                        "line 2 says");
    expect_text_refused("# OSU MPI Latency Test v5.6.2\n# Size  Foo (us)\n", SC_MEASURE_FORMAT_AUTO,
                        "t.txt':2: unknown column 'Foo'");
    expect_text_refused("# OSU MPI Latency Test v5.6.2\n# Size Bandwidth (MB/s)\n",
                        SC_MEASURE_FORMAT_AUTO,
                        "t.txt':2: '# Size Bandwidth (MB/s)' has no latency column; expected "
                        "'# Size  Latency (us)'");
    expect_text_refused("# OSU MPI Allreduce Latency Test v5.6.2\n# Avg Latency(us)\n",
                        SC_MEASURE_FORMAT_AUTO,
                        "'# Avg Latency(us)' has no Size column; expected '# Size  Avg "
                        "Latency(us)'");
    expect_text_refused("# OSU MPI Multiple Bandwidth / Message Rate Test v5.6.2\n"
                        "# Size MB/s Messages/s\n",
                        SC_MEASURE_FORMAT_AUTO,
                        "t.txt':2: osu_mbw_mr columns without the pair count");
    expect_text_refused("# OSU MPI Multiple Bandwidth / Message Rate Test v5.6.2\n"
                        "# [ pairs: 2 ] [ window size: varied ]\n",
                        SC_MEASURE_FORMAT_AUTO,
                        "t.txt':2: '# [ pairs: 2 ] [ window size: "
                        "varied ]': osu_mbw_mr -vw prints a table");
    expect_text_refused("# OSU MPI Latency Test v7.4\n# Size Avg Latency(us) Validation\n"
                        "1 1.50 Fail\n",
                        SC_MEASURE_FORMAT_AUTO,
                        "t.txt':3: Validation 'Fail': OSU found wrong data at this size");
    /* NetPIPE */
    expect_file_refused("bad/netpipe-not-netpipe.txt", SC_MEASURE_FORMAT_AUTO,
                        "netpipe-not-netpipe.txt':2: '2   9.500000   0.00003001': 9.500000 Mbps "
                        "is not 8 x 2 bytes in 0.00003001 s");
    expect_text_refused("1 2 3 4\n", SC_MEASURE_FORMAT_NETPIPE,
                        "t.txt':1: '1 2 3 4' has 4 fields; expected NetPIPE's three");
    /* OSU's rows are not NetPIPE's, although they are three numbers */
    expect_text_refused("1 20.00 20000000.00\n", SC_MEASURE_FORMAT_AUTO,
                        "t.txt':1: '1 20.00 20000000.00' is not output of a benchmark");
    /* SimGrid calibration */
    expect_file_refused("bad/smpi-unpaired.csv", SC_MEASURE_FORMAT_AUTO,
                        "smpi-unpaired.csv':4: an MPI_Recv of 16 bytes after the MPI_Send of 8 on "
                        "line 3; expected the same size");
    expect_text_refused("MPI_Recv,1,0.1,1e-6\nMPI_Send,1,0.2,1e-6\n", SC_MEASURE_FORMAT_AUTO,
                        "t.txt':1: an MPI_Recv that follows no MPI_Send");
    expect_text_refused("MPI_Send,1,0.1,1e-6\nMPI_Send,1,0.2,1e-6\n", SC_MEASURE_FORMAT_AUTO,
                        "t.txt':2: an MPI_Send after the MPI_Send of line 1");
    expect_text_refused("MPI_Send,1,0.1,1e-6\n", SC_MEASURE_FORMAT_AUTO,
                        "t.txt':1: an MPI_Send without its MPI_Recv");
    expect_text_refused("MPI_Isend,1,0.1,1e-6\nMPI_Recv,1,0.2,1e-6\n", SC_MEASURE_FORMAT_AUTO,
                        "t.txt':2: MPI_Recv rows among the MPI_Isend rows of line 1; expected "
                        "one experiment per file");
    expect_text_refused("MPI_Test,1,0.1,1e-6\nMPI_Wtime,0,0.2,0.4\n", SC_MEASURE_FORMAT_AUTO,
                        "t.txt': no MPI_Send, MPI_Recv or MPI_Isend row");
    expect_text_refused("MPI_Isend,1,0.1,1e-6\ndgemm,1,0.2,1e-6\n", SC_MEASURE_FORMAT_AUTO,
                        "t.txt':2: operation 'dgemm' is not one of the calibration's");
    expect_text_refused("MPI_Isend,1,0.1,1e-6\nMPI_Isend,1,0.1\n", SC_MEASURE_FORMAT_AUTO,
                        "t.txt':2: 'MPI_Isend,1,0.1' has 3 comma-separated fields; expected 4");
    /* text itself */
    static const char nul[] = "# OSU MPI Latency Test v5.6.2\n# Size Latency (us)\n0 1\0\n";
    sc_series_t *s = NULL;
    int n = 0;
    CU_ASSERT_EQUAL(
        sc_measurements_parse(OPTION, "t.txt", nul, sizeof nul - 1, SC_MEASURE_FORMAT_AUTO, &s, &n),
        SC_ERR_INPUT);
    expect_message("t.txt':3: a NUL byte; expected text");
    char *long_line = malloc(5001);
    memset(long_line, '1', 5000);
    long_line[5000] = '\0';
    expect_text_refused(long_line, SC_MEASURE_FORMAT_AUTO,
                        "t.txt':1: a line of 5000 characters; expected at most 4096");
    free(long_line);
    expect_text_refused("# OSU MPI Latency Test v5.6.2\n# Size Latency (us)\n0 \x01\xff\n",
                        SC_MEASURE_FORMAT_AUTO,
                        "t.txt':3: Latency (us) '?"
                        "?' is not a number");
}

/* A FIFO is refused at once, never waited on; so are directories and
 * missing files. */
static void test_read_files(void)
{
    char dir[] = "/tmp/simcoll-measurements-XXXXXX";
    if (!mkdtemp(dir)) {
        CU_FAIL("mkdtemp");
        return;
    }
    char fifo[64];
    snprintf(fifo, sizeof fifo, "%s/fifo", dir);
    CU_ASSERT_EQUAL_FATAL(mkfifo(fifo, 0600), 0);
    release();
    CU_ASSERT_EQUAL(sc_measurements_read(OPTION, fifo, SC_MEASURE_FORMAT_AUTO, &series, &nseries),
                    SC_ERR_INPUT);
    CU_ASSERT_PTR_NULL(series);
    expect_message(OPTION " '/tmp/simcoll-measurements-");
    expect_message("/fifo': not a regular file (a FIFO, socket or device); give a file");
    CU_ASSERT_EQUAL(sc_measurements_read(OPTION, dir, SC_MEASURE_FORMAT_AUTO, &series, &nseries),
                    SC_ERR_INPUT);
    expect_message("is a directory");
    CU_ASSERT_EQUAL(sc_measurements_read(OPTION, "/nonexistent/osu.txt", SC_MEASURE_FORMAT_AUTO,
                                         &series, &nseries),
                    SC_ERR_INPUT);
    expect_message(OPTION " '/nonexistent/osu.txt': cannot read it: No such file or directory");
    unlink(fifo);
    rmdir(dir);
}

static int teardown(void)
{
    release();
    return 0;
}

void sc_suite_measurements(void)
{
    CU_pSuite s = CU_add_suite("measurements", NULL, teardown);
    CU_add_test(s, "OSU latency, 3.x to 7.x", test_osu_latency);
    CU_add_test(s, "OSU bandwidth, bi-bandwidth, message rate", test_osu_bandwidth);
    CU_add_test(s, "OSU collectives, several tests in a file", test_osu_collectives);
    CU_add_test(s, "IMB blocks, -npmin, Uniband/Biband units, table", test_imb);
    CU_add_test(s, "NetPIPE np.out", test_netpipe);
    CU_add_test(s, "SimGrid calibration CSVs", test_smpi);
    CU_add_test(s, "simcoll-probe's files", test_probe);
    CU_add_test(s, "format found from content or named", test_auto_and_explicit);
    CU_add_test(s, "negative, non-finite, oversized numbers refused", test_refused_numbers);
    CU_add_test(s, "headers without data, data without headers, malformed", test_refused_structure);
    CU_add_test(s, "FIFOs, directories, missing files refused", test_read_files);
}
