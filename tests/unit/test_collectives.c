/* Every collective's result against the sequential reference, and its
 * simulated time against its cost model where the model is exact.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include <CUnit/CUnit.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "algorithms/collectives.h"
#include "helpers.h"
#include "algorithms/steps.h"
#include "suites.h"

/* 0 and 1 byte; 7000 (eager in a node, rendezvous across ib4x); 140000
 * (rendezvous on every level of both platforms). */
static const size_t sizes[] = {0, 1, 7000, 140000};
enum { NSIZES = sizeof sizes / sizeof sizes[0], BIG_NP = 16 };

/* Reductions work on whole ints (the default type of a spec): sizes are
 * rounded down to them. test_reduce.c covers every operation and type. */
static size_t fit(const sc_algo_t *a, size_t bytes)
{
    return sc_algo_is_reduction(a) ? bytes / sizeof(int) * sizeof(int) : bytes;
}

static int applies(const sc_algo_t *a, int np, const sc_platform_t *plat)
{
    if (np > plat->total_cores || !sc_test_generic(a))
        return 0;
    return !(a->needs & SC_NEEDS_POW2) || (np & (np - 1)) == 0;
}

/* Runs every algorithm for every process count and size; counts runs. */
static int check_results(const char *relative, sc_placement_t placement, const int *nps, int nnps)
{
    const sc_platform_t *plat = sc_test_platform(relative);
    if (!plat)
        return 0;
    int runs = 0;
    long cases = 0;
    for (const sc_algo_t *a = sc_algos; a->name; a++)
        for (int i = 0; i < nnps; i++)
            for (int s = 0; s < NSIZES; s++) {
                int np = nps[i];
                /* + i: the sampled size turns from one count to the next */
                if (!applies(a, np, plat) || (sizes[s] > 10000 && np > BIG_NP) ||
                    !sc_test_sampled(cases++ + i))
                    continue;
                sc_run_spec_t spec = {.plat = plat, .algo = a, .np = np,
                                      .bytes = fit(a, sizes[s]), .root = np / 3,
                                      .placement = placement, .payload = 1};
                sc_run_result_t res;
                sc_err_t err = sc_run(&spec, &res);
                runs++;
                if (err || res.valid != 1) {
                    fprintf(stderr, "\n%s %s np=%d size=%zu %s: %s\n", relative, a->name, np,
                            sizes[s], sc_placement_name(placement),
                            err ? sc_error_message() : "WRONG RESULT");
                    CU_FAIL("collective failed or gave a wrong result");
                }
                if (!err)
                    sc_run_result_destroy(&res);
            }
    return runs;
}

static void test_gige_block(void)
{
    CU_ASSERT_TRUE(check_results("platforms/gige.xml", SC_PLACE_BLOCK, sc_test_nps, sc_test_nnps) > 200 / sc_test_sample());
}

static void test_gige_cyclic(void)
{
    CU_ASSERT_TRUE(check_results("platforms/gige.xml", SC_PLACE_CYCLIC, sc_test_nps, sc_test_nnps) > 200 / sc_test_sample());
}

static void test_ib4x_block(void)
{
    CU_ASSERT_TRUE(check_results("platforms/ib4x.xml", SC_PLACE_BLOCK, sc_test_nps, sc_test_nnps) > 200 / sc_test_sample());
}

static void test_ib4x_cyclic(void)
{
    CU_ASSERT_TRUE(check_results("platforms/ib4x.xml", SC_PLACE_CYCLIC, sc_test_nps, sc_test_nnps) > 200 / sc_test_sample());
}

/* Nodes of 8, 4, 6, 8, 3 cores: 29 ranks fill them all. */
static void test_uneven_nodes(void)
{
    static const int nps[] = {6, 11, 13, 16, 21, 29};
    for (int pl = 0; pl < 2; pl++)
        CU_ASSERT_TRUE(check_results("tests/platforms/uneven.xml", (sc_placement_t)pl, nps,
                                     (int)(sizeof nps / sizeof nps[0])) > 50 / sc_test_sample());
}

/* On a platform where no two messages share a link the cost model is exact:
 * the simulated time must equal it. */
static void check_model_exact(const char *relative, const int *nps, int nnps,
                              const size_t *msizes, int nsizes, int min_runs)
{
    const sc_platform_t *plat = sc_test_platform(relative);
    if (!plat)
        return;
    double worst = 0;
    int runs = 0;
    long cases = 0;
    for (const sc_algo_t *a = sc_algos; a->name; a++)
        for (int pl = 0; pl < 2; pl++)
            for (int i = 0; i < nnps; i++)
                for (int s = 0; s < nsizes; s++) {
                    if (!applies(a, nps[i], plat) || !sc_test_sampled(cases++ + i + pl))
                        continue;
                    sc_run_spec_t spec = {.plat = plat, .algo = a, .np = nps[i],
                                          .bytes = fit(a, msizes[s]), .root = nps[i] - 1,
                                          .placement = (sc_placement_t)pl, .payload = 0};
                    sc_run_result_t res;
                    if (sc_run(&spec, &res) != SC_OK) {
                        CU_FAIL(sc_error_message());
                        continue;
                    }
                    runs++;
                    double diff = fabs(res.sim_time_s - res.model_time_s);
                    double rel = res.model_time_s > 0 ? diff / res.model_time_s : diff;
                    if (!(diff <= 1e-6 * res.model_time_s + 1e-15)) {
                        fprintf(stderr, "\n%s %s np=%d size=%zu %s: simulated %.9g, model %.9g\n",
                                relative, a->name, nps[i], msizes[s],
                                sc_placement_name(spec.placement), res.sim_time_s,
                                res.model_time_s);
                        CU_FAIL("simulated time differs from the cost model");
                    }
                    if (rel > worst)
                        worst = rel;
                    sc_run_result_destroy(&res);
                }
    printf(" [%d runs, largest relative difference %.2g] ", runs, worst);
    CU_ASSERT_TRUE(runs > min_runs / sc_test_sample());
}

/* Sizes straddle both eager limits of tests/platforms/nocontention.xml
 * (4096 in a node, 1024 across). */
static void test_model_exact(void)
{
    static const int nps[] = {1, 2, 3, 4, 5, 7, 8, 9, 16, 24, 28};
    static const size_t msizes[] = {1, 1000, 3000, 5000, 100000};
    check_model_exact("tests/platforms/nocontention.xml", nps, 11, msizes, 5, 400);
}

/* The same with every LogGP parameter but the gap set, piecewise
 * (tests/platforms/loggp.xml): segments at 1024 and 4096 bytes in a node,
 * 1024 and 65536 across; eager limits 4096 and 16384. */
static void test_model_exact_loggp(void)
{
    static const int nps[] = {1, 2, 3, 5, 7, 8, 13, 16};
    static const size_t msizes[] = {8, 1000, 3000, 6000, 20000, 70000};
    check_model_exact("tests/platforms/loggp.xml", nps, 8, msizes, 6, 300);
}

/* The same with latency factors too (tests/platforms/loggp-lat.xml):
 * their segments at 2048 bytes in a node, 1420 and 32768 across. */
static void test_model_exact_latency_factor(void)
{
    static const int nps[] = {2, 3, 5, 8, 13};
    static const size_t msizes[] = {8, 1500, 3000, 6000, 20000, 40000};
    check_model_exact("tests/platforms/loggp-lat.xml", nps, 5, msizes, 6, 200);
}

/* The same on three levels (tests/platforms/nocontention-racks.xml): in a
 * node, in a rack, between racks through slower uplinks. */
static void test_model_exact_racks(void)
{
    static const int nps[] = {2, 5, 13, 21};
    static const size_t msizes[] = {1, 3000, 100000};
    check_model_exact("tests/platforms/nocontention-racks.xml", nps, 4, msizes, 3, 150);
}

/* The same with latency factors (tests/platforms/nocontention-racks-lat.xml):
 * a message between racks takes its route's latency times the factor. */
static void test_model_exact_racks_latency_factor(void)
{
    static const int nps[] = {5, 21};
    static const size_t msizes[] = {1, 3000, 100000};
    check_model_exact("tests/platforms/nocontention-racks-lat.xml", nps, 2, msizes, 3, 100);
}

/* The same on four levels (tests/platforms/nocontention-sockets.xml): in a
 * socket, between the sockets of a node, in a rack, between racks; and
 * every algorithm's output right there. */
static void test_model_exact_sockets(void)
{
    static const int nps[] = {2, 3, 7, 11, 16};
    static const size_t msizes[] = {1, 3000, 100000};
    check_model_exact("tests/platforms/nocontention-sockets.xml", nps, 5, msizes, 3, 200);
    static const int checked[] = {3, 6, 13, 16};
    for (int pl = 0; pl < 2; pl++)
        CU_ASSERT_TRUE(check_results("tests/platforms/nocontention-sockets.xml",
                                     (sc_placement_t)pl, checked, 4) > 50);
}

/* Ranks that enter late: nobody may leave the barrier before the last one
 * entered, and the model (started at the same times) still matches. */
static void test_barrier_semantics(void)
{
    const sc_platform_t *plat = sc_test_platform("tests/platforms/nocontention.xml");
    if (!plat)
        return;
    for (int np = 2; np <= 28; np += 13) {
        sc_run_spec_t spec = {.plat = plat, .algo = sc_algo_find("barrier"), .np = np,
                              .placement = SC_PLACE_CYCLIC, .payload = 1,
                              .start_skew_s = 3e-6};
        sc_run_result_t res;
        CU_ASSERT_EQUAL_FATAL(sc_run(&spec, &res), SC_OK);
        CU_ASSERT_EQUAL(res.valid, 1);
        CU_ASSERT_DOUBLE_EQUAL(res.start[np - 1], 3e-6 * (np - 1), 1e-15);
        for (int r = 0; r < np; r++)
            CU_ASSERT_TRUE(res.finish[r] >= res.start[np - 1]);
        CU_ASSERT_DOUBLE_EQUAL(res.sim_time_s, res.model_time_s, 1e-6 * res.model_time_s);
        sc_run_result_destroy(&res);
    }
}

/* A ring allgather that passes on its own block at every step: the check
 * must catch it. */
static sc_err_t broken_allgather(sc_comm_t *comm, const sc_coll_args_t *args)
{
    int rank = comm->rank, p = comm->size;
    char *out = args->recvbuf;
    size_t m = args->bytes;
    sc_buf_copy(comm, out + (size_t)rank * m, args->sendbuf, m);
    for (int k = 0; k < p - 1; k++) {
        int recv_block = (rank - k - 1 + p) % p;
        sc_err_t err = sc_sendrecv(comm, args->sendbuf, m, (rank + 1) % p, 1,
                                   out + (size_t)recv_block * m, m, (rank - 1 + p) % p, 1);
        if (err)
            return err;
    }
    return SC_OK;
}

static void test_wrong_result_is_caught(void)
{
    const sc_platform_t *plat = sc_test_platform("platforms/gige.xml");
    if (!plat)
        return;
    sc_algo_t broken = {"broken", SC_ALLGATHER, broken_allgather, 0, "ring that forwards the wrong block"};
    sc_run_spec_t spec = {.plat = plat, .algo = &broken, .np = 5, .bytes = 16, .payload = 1};
    sc_run_result_t res;
    CU_ASSERT_EQUAL_FATAL(sc_run(&spec, &res), SC_OK);
    CU_ASSERT_EQUAL(res.valid, 0);
    sc_run_result_destroy(&res);
    /* np 2: the own block is the right one to pass on */
    spec.np = 2;
    CU_ASSERT_EQUAL_FATAL(sc_run(&spec, &res), SC_OK);
    CU_ASSERT_EQUAL(res.valid, 1);
    sc_run_result_destroy(&res);
}

static void test_run_checks(void)
{
    const sc_platform_t *plat = sc_test_platform("platforms/gige.xml");
    if (!plat)
        return;
    sc_run_result_t res;
    sc_run_spec_t spec = {.plat = plat, .algo = sc_algo_find("rd"), .np = 24, .bytes = 8};
    CU_ASSERT_EQUAL(sc_run(&spec, &res), SC_ERR_INPUT);
    spec.algo = sc_algo_find("bruck");
    spec.np = 65;
    CU_ASSERT_EQUAL(sc_run(&spec, &res), SC_ERR_INPUT);
    CU_ASSERT_PTR_NOT_NULL(strstr(sc_error_message(), "65 processes do not fit"));
    spec.algo = sc_algo_find("bcast-binomial");
    spec.np = 8;
    spec.root = 8;
    CU_ASSERT_EQUAL(sc_run(&spec, &res), SC_ERR_INPUT);
    CU_ASSERT_PTR_NOT_NULL(strstr(sc_error_message(), "root 8 is out of range"));
}

void sc_suite_collectives(void)
{
    CU_pSuite s = CU_add_suite("collectives", NULL, NULL);
    CU_add_test(s, "results on gige, block", test_gige_block);
    CU_add_test(s, "results on gige, cyclic", test_gige_cyclic);
    CU_add_test(s, "results on ib4x, block", test_ib4x_block);
    CU_add_test(s, "results on ib4x, cyclic", test_ib4x_cyclic);
    CU_add_test(s, "results on uneven nodes", test_uneven_nodes);
    CU_add_test(s, "simulated time equals the model without contention", test_model_exact);
    CU_add_test(s, "... with LogGP overheads and bandwidth factors", test_model_exact_loggp);
    CU_add_test(s, "... and latency factors", test_model_exact_latency_factor);
    CU_add_test(s, "cost model exact on racks (three levels)", test_model_exact_racks);
    CU_add_test(s, "... with latency factors", test_model_exact_racks_latency_factor);
    CU_add_test(s, "cost model exact with sockets (four levels)", test_model_exact_sockets);
    CU_add_test(s, "barrier with late ranks", test_barrier_semantics);
    CU_add_test(s, "a wrong result is caught", test_wrong_result_is_caught);
    CU_add_test(s, "bad run specifications", test_run_checks);
}
