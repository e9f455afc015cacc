/* The LogGP parameters of a level, one message at a time and under
 * concurrency: simulated times against closed forms worked out here from
 * the numbers of tests/platforms/loggp*.xml, and against the cost models;
 * with latency factors and flow factors in both engines.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include <CUnit/CUnit.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "helpers.h"
#include "algorithms/steps.h"
#include "suites.h"

/* tests/platforms/loggp.xml, by hand: 4 nodes of 4 cores, FATPIPE links. */
static const double H = 40; /* header bytes */

static double inter_os(double m) { return m < 1024 ? 3e-6 + 0.01e-9 * m : 4e-6; }
static double inter_or(double m) { return m < 1024 ? 2e-6 : 5e-6 + 0.02e-9 * m; }
static double inter_f(double m) { return m < 1024 ? 0.6 : m < 65536 ? 0.9 : 0.95; }
/* The latency factors of tests/platforms/loggp-lat.xml and
 * loggp-gap-lat.xml (`lat`); the other platforms have none. */
static double inter_l(double m, int lat) { return !lat ? 1 : m < 1420 ? 1.2 : m < 32768 ? 2 : 3.5; }
static double inter_wire_l(double m, int lat) /* two NIC links of 5 us, 100 MB/s */
{
    return 10e-6 * inter_l(m, lat) + round((H + m) / inter_f(m)) / 100e6;
}
static double inter_wire(double m) { return inter_wire_l(m, 0); }
static double intra_os(double m) { return m < 4096 ? 1e-6 : 2e-6 + 0.5e-9 * m; }
static double intra_or(double m) { return m < 4096 ? 0.5e-6 : 1e-6 + 0.25e-9 * m; }
static double intra_f(double m) { return m < 1024 ? 0.5 : 0.8; }
static double intra_l(double m, int lat) { return !lat ? 1 : m < 2048 ? 1.5 : 4; }
static double intra_wire_l(double m, int lat) /* the memory bus: 200 ns, 1 GB/s */
{
    return 200e-9 * intra_l(m, lat) + round((H + m) / intra_f(m)) / 1e9;
}

/* One message, eager below the level's limit, else rendezvous (RTS, CTS,
 * data). */
static double one_message_l(int inter, double m, int lat)
{
    double os = inter ? inter_os(m) : intra_os(m), orr = inter ? inter_or(m) : intra_or(m);
    double eager_limit = inter ? 16384 : 4096;
    double w0 = inter ? inter_wire_l(0, lat) : intra_wire_l(0, lat);
    double wm = inter ? inter_wire_l(m, lat) : intra_wire_l(m, lat);
    return os + (m <= eager_limit ? wm : 2 * w0 + wm) + orr;
}
static double one_message(int inter, double m) { return one_message_l(inter, m, 0); }

/* `algo` run on np ranks of plat placed by `placement`, `bytes` a rank,
 * with data or sizes only, by the actors or the replay: its result in
 * *res; the test stops unless it ran. */
static void run_algo(const sc_platform_t *plat, const sc_algo_t *algo, int np, size_t bytes,
                     sc_placement_t placement, int payload, int replay, sc_run_result_t *res)
{
    sc_run_spec_t spec = {.plat = plat, .algo = algo, .np = np, .bytes = bytes,
                          .placement = placement, .payload = payload, .replay = replay};
    CU_ASSERT_EQUAL_FATAL(sc_run(&spec, res), SC_OK);
}

/* One message of `bytes` (a binomial broadcast on 2 ranks: cyclic
 * placement puts them on two nodes, `inter`, block on one), with data or
 * sizes only, by the actors or the replay: its result in *res, and the test
 * fails, saying `what`, unless the simulation and the model both take
 * `want`. */
static void one_message_run(const sc_platform_t *plat, int inter, size_t bytes, int payload,
                            int replay, double want, const char *what, sc_run_result_t *res)
{
    run_algo(plat, sc_algo_find("bcast-binomial"), 2, bytes,
             inter ? SC_PLACE_CYCLIC : SC_PLACE_BLOCK, payload, replay, res);
    if (fabs(res->sim_time_s - want) > 1e-9 * want ||
        fabs(res->model_time_s - want) > 1e-9 * want) {
        fprintf(stderr, "\n%s: %s%s %zu bytes: simulated %.12g, model %.12g, closed form %.12g\n",
                what, replay ? "replay, " : "", inter ? "inter" : "intra", bytes, res->sim_time_s,
                res->model_time_s, want);
        CU_FAIL("one message's time is not its closed form (stderr says which)");
    }
}

static void test_single_message(void)
{
    const sc_platform_t *plat = sc_test_platform("tests/platforms/loggp.xml");
    if (!plat)
        return;
    static const size_t sizes[] = {1, 1000, 1023, 1024, 4095, 4096, 4097, 5000, 16384, 16385,
                                   65535, 65536, 200000};
    for (int inter = 0; inter <= 1; inter++)
        for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
            sc_run_result_t res;
            double want = one_message(inter, (double)sizes[i]);
            one_message_run(plat, inter, sizes[i], 1, 0, want,
                            "one message does not cost o_s + wire + o_r", &res);
            /* The receiver spends all of it, the sender o_s or more. */
            double os = inter ? inter_os((double)sizes[i]) : intra_os((double)sizes[i]);
            CU_ASSERT(res.mean_rank_time_s >= (want + os) / 2 - 1e-12 * want);
            CU_ASSERT(res.mean_rank_time_s <= res.sim_time_s);
            CU_ASSERT_EQUAL(res.valid, 1);
            sc_run_result_destroy(&res);
        }
}

/* Ranks 0..h-1 (node 0) each send bytes to rank h + i (node 1) at once,
 * h = p/2: h messages through one NIC in each direction. */
static sc_err_t fan(sc_comm_t *comm, const sc_coll_args_t *args)
{
    int h = comm->size / 2;
    if (comm->rank < h)
        return sc_send(comm, args->sendbuf, args->bytes, comm->rank + h, 1);
    return sc_recv(comm, args->recvbuf, args->bytes, comm->rank - h, 1);
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* The gap g = 10 us, more than o_s: the four messages of node 0 leave one
 * g apart, whichever core sends them, and arrive one g apart; each sender
 * waits for its slot. The model predicts the same times. With latency
 * factors (`lat`), messages arrive later, and the receiving NIC's slots
 * with them. */
static void check_gap(const char *relative, int lat)
{
    const sc_platform_t *plat = sc_test_platform(relative);
    if (!plat)
        return;
    const double g = 10e-6;
    CU_ASSERT_DOUBLE_EQUAL(plat->level[SC_LEVEL_INTER].gap_s, g, 1e-18);
    sc_algo_t algo = {"fan", SC_BARRIER, fan, 0, "4 senders on one node"};
    static const size_t sizes[] = {8, 5000, 100000};
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        double m = (double)sizes[s];
        sc_run_result_t res;
        run_algo(plat, &algo, 8, sizes[s], SC_PLACE_BLOCK, 0, 0, &res);
        double recv[4], send[4];
        for (int i = 0; i < 4; i++) {
            send[i] = res.finish[i];
            recv[i] = res.finish[4 + i];
        }
        qsort(send, 4, sizeof *send, by_value);
        qsort(recv, 4, sizeof *recv, by_value);
        for (int k = 0; k < 4; k++) {
            double w_first = m <= 16384 ? inter_wire_l(m, lat) : inter_wire_l(0, lat);
            double leaves = inter_os(m) + k * g;
            /* Eager: the sender is done when its message leaves; rendezvous:
             * when the data has arrived (RTS, CTS, data). */
            double arrives = m <= 16384 ? leaves + w_first
                                        : leaves + 2 * inter_wire_l(0, lat) + inter_wire_l(m, lat);
            double sent = m <= 16384 ? leaves : arrives;
            if (fabs(send[k] - sent) > 1e-12 || fabs(recv[k] - (arrives + inter_or(m))) > 1e-12) {
                fprintf(stderr, "\n%.0f bytes, slot %d: sender %.12g (want %.12g), receiver "
                                "%.12g (want %.12g)\n",
                        m, k, send[k], sent, recv[k], arrives + inter_or(m));
                CU_FAIL("the gap does not queue messages one g apart");
            }
        }
        CU_ASSERT_DOUBLE_EQUAL(res.model_time_s, res.sim_time_s, 1e-12);
        sc_run_result_destroy(&res);
    }
}

static void test_gap_queues_messages(void)
{
    check_gap("tests/platforms/loggp-gap.xml", 0);
    check_gap("tests/platforms/loggp-gap-lat.xml", 1);
}

/* One rank receives from three other nodes at once: the messages arrive
 * together, and its overhead o_r is paid once per message. */
static sc_err_t gather(sc_comm_t *comm, const sc_coll_args_t *args)
{
    if (comm->rank != 0)
        return sc_send(comm, args->sendbuf, args->bytes, 0, 1);
    sc_request_t *reqs[3];
    for (int i = 0; i < 3; i++) {
        sc_err_t err = sc_irecv(comm, args->recvbuf, args->bytes, i + 1, 1, &reqs[i]);
        if (err)
            return err;
    }
    return sc_waitall(comm, 3, reqs);
}

static void test_recv_overhead_per_message(void)
{
    const sc_platform_t *plat = sc_test_platform("tests/platforms/loggp.xml");
    if (!plat)
        return;
    sc_algo_t algo = {"gather3", SC_BARRIER, gather, 0, "three messages to rank 0"};
    static const size_t sizes[] = {8, 2000};
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        double m = (double)sizes[s];
        sc_run_result_t res;
        run_algo(plat, &algo, 4, sizes[s], SC_PLACE_CYCLIC, 0, 0, &res);
        double want = inter_os(m) + inter_wire(m) + 3 * inter_or(m);
        CU_ASSERT_DOUBLE_EQUAL(res.finish[0], want, 1e-12);
        for (int r = 1; r < 4; r++) /* eager: the senders are done once it left */
            CU_ASSERT_DOUBLE_EQUAL(res.finish[r], inter_os(m), 1e-12);
        sc_run_result_destroy(&res);
    }
}

/* Rank 0 sends to rank 1, which sends the same back. */
static sc_err_t pingpong(sc_comm_t *comm, const sc_coll_args_t *args)
{
    sc_err_t err = SC_OK;
    if (comm->rank == 0 && !(err = sc_send(comm, args->sendbuf, args->bytes, 1, 1)))
        err = sc_recv(comm, args->recvbuf, args->bytes, 1, 2);
    if (comm->rank == 1 && !(err = sc_recv(comm, args->recvbuf, args->bytes, 0, 1)))
        err = sc_send(comm, args->sendbuf, args->bytes, 0, 2);
    return err;
}

/* Latency factors (tests/platforms/loggp-lat.xml): a message of m data
 * bytes takes L l(m) where it took L, RTS and CTS L l(0), on either level,
 * in both engines. One message, and a ping-pong, whose rendezvous sender
 * completes with its receiver and so answers the reply's RTS at once. */
static void test_latency_factor(void)
{
    const sc_platform_t *plat = sc_test_platform("tests/platforms/loggp-lat.xml");
    if (!plat)
        return;
    CU_ASSERT_DOUBLE_EQUAL(sc_level_latency_factor(&plat->level[SC_LEVEL_INTER], 1420), 2, 0);
    sc_algo_t pp = {"pingpong", SC_BARRIER, pingpong, 0, "one there and back"};
    static const size_t sizes[] = {1,    1000, 1419,  1420,  2047,  2048,  4096,
                                   4097, 5000, 16384, 16385, 32767, 32768, 70000};
    for (int replay = 0; replay <= 1; replay++)
        for (int inter = 0; inter <= 1; inter++)
            for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
                double one = one_message_l(inter, (double)sizes[i], 1);
                for (int twice = 0; twice <= 1; twice++) {
                    sc_run_result_t res;
                    run_algo(plat, twice ? &pp : sc_algo_find("bcast-binomial"), 2, sizes[i],
                             inter ? SC_PLACE_CYCLIC : SC_PLACE_BLOCK, 0, replay, &res);
                    double want = twice ? 2 * one : one;
                    if (fabs(res.sim_time_s - want) > 1e-9 * want ||
                        fabs(res.model_time_s - want) > 1e-9 * want) {
                        fprintf(stderr,
                                "\n%s%s %s %zu bytes: simulated %.12g, model %.12g, closed "
                                "form %.12g\n",
                                replay ? "replay, " : "", twice ? "ping-pong" : "one message",
                                inter ? "inter" : "intra", sizes[i], res.sim_time_s,
                                res.model_time_s, want);
                        CU_FAIL("a message does not take its latency times the factor");
                    }
                    sc_run_result_destroy(&res);
                }
            }
}

/* tests/platforms/loggp-flow.xml, by hand. */
static double flow_intra_F(double m) { return m < 1024 ? 0.2 : 0.5; }
static double flow_inter_F(double m) { return m < 65536 ? 0.5 : 1; }
static double flow_wire(int inter, double m)
{
    if (!inter) /* one 1 GB/s memory bus of 200 ns, no bandwidth factor */
        return 200e-9 + (H + m) / (flow_intra_F(m) * 1e9);
    /* two NIC links of 5 us, 100 MB/s; the wire bytes inflated by the
     * bandwidth factor 0.8, unless the flow bound is slower still */
    return 10e-6 + fmax(round((H + m) / 0.8) / 100e6, (H + m) / (flow_inter_F(m) * 100e6));
}
static double flow_message(int inter, double m)
{
    if (!inter)
        return 1e-6 + flow_wire(0, m) + 0.5e-6; /* always eager */
    return 3e-6 + (m <= 16384 ? flow_wire(1, m) : 2 * flow_wire(1, 0) + flow_wire(1, m)) + 2e-6;
}

/* A flow factor bounds each message: alone, a message takes its data and
 * header at F(m) B (or the wire bytes at B, whichever is slower), in both
 * engines and in the model; four at once inside a node share the memory
 * bus only when their bounds add up to more than it carries. */
static void test_flow_factor(void)
{
    const sc_platform_t *plat = sc_test_platform("tests/platforms/loggp-flow.xml");
    if (!plat)
        return;
    static const size_t sizes[] = {1, 1000, 1023, 1024, 5000, 16384, 16385, 65535, 65536, 200000};
    for (int replay = 0; replay <= 1; replay++)
        for (int inter = 0; inter <= 1; inter++)
            for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
                sc_run_result_t res;
                one_message_run(plat, inter, sizes[i], 0, replay,
                                flow_message(inter, (double)sizes[i]),
                                "one message does not move at its flow bound", &res);
                sc_run_result_destroy(&res);
            }
    /* Four pairs on node 0 at once: at 0.2 GB/s each they take 0.8 of the
     * bus, each as fast as alone; at 0.5 GB/s each the bus's 1 GB/s splits
     * four ways, 0.25 GB/s each. */
    sc_algo_t algo = {"fan", SC_BARRIER, fan, 0, "4 senders on one node"};
    static const size_t fan_sizes[] = {500, 8000};
    for (int replay = 0; replay <= 1; replay++)
        for (size_t i = 0; i < 2; i++) {
            double m = (double)fan_sizes[i];
            sc_run_result_t res;
            run_algo(plat, &algo, 8, fan_sizes[i], SC_PLACE_BLOCK, 0, replay, &res);
            double rate = m < 1024 ? 0.2e9 : 0.25e9;
            double want = 1e-6 + 200e-9 + (H + m) / rate + 0.5e-6;
            CU_ASSERT_DOUBLE_EQUAL(res.sim_time_s, want, 1e-9 * want);
            /* The model knows no contention: right where there is none. */
            if (m < 1024)
                CU_ASSERT_DOUBLE_EQUAL(res.model_time_s, want, 1e-9 * want);
            sc_run_result_destroy(&res);
        }
}

void sc_suite_loggp(void)
{
    CU_pSuite s = CU_add_suite("loggp", NULL, NULL);
    CU_add_test(s, "one message: o_s + wire + o_r, piecewise", test_single_message);
    CU_add_test(s, "the gap queues a node's messages", test_gap_queues_messages);
    CU_add_test(s, "o_r once per message received", test_recv_overhead_per_message);
    CU_add_test(s, "latency factors, both engines", test_latency_factor);
    CU_add_test(s, "flow factors bound each message, both engines", test_flow_factor);
}
