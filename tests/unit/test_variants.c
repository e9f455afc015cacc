/* The exch/reorder variants and mapped placements: results in rank order
 * for every mapping, times against the models, and the equivalences.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include <CUnit/CUnit.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"
#include "suites.h"

typedef enum { PI_PARTITION, PI_GREEDY, PI_RANDOM, NPIS } pi_kind_t;
static const char *const pi_names[NPIS] = {"partition", "greedy", "random"};

/* A permutation of 0..p-1 from a fixed linear congruential sequence. */
static void random_pi(int p, unsigned seed, int *pi)
{
    for (int i = 0; i < p; i++)
        pi[i] = i;
    for (int i = p - 1; i > 0; i--) {
        seed = seed * 1103515245u + 12345u;
        int j = (int)((seed >> 8) % (unsigned)(i + 1));
        int t = pi[i];
        pi[i] = pi[j];
        pi[j] = t;
    }
}

static int make_pi(const sc_run_spec_t *spec, pi_kind_t kind, int *pi)
{
    double seconds;
    if (kind == PI_RANDOM) {
        random_pi(spec->np, (unsigned)spec->np * 7u + 1u, pi);
        return 1;
    }
    sc_partitioner_t how = kind == PI_GREEDY ? SC_PARTITIONER_GREEDY : SC_PARTITIONER_MULTILEVEL;
    if (sc_run_partition(spec, NULL, how, pi, &seconds) != SC_OK) {
        fprintf(stderr, "\npartition: %s\n", sc_error_message());
        CU_FAIL("partition failed");
        return 0;
    }
    return 1;
}

static int allgather_applies(const sc_algo_t *a, int np, const sc_platform_t *plat)
{
    return a->collective == SC_ALLGATHER && np <= plat->total_cores &&
           (!(a->needs & SC_NEEDS_POW2) || (np & (np - 1)) == 0);
}

/* Every allgather, plain (placed by pi) or variant (playing through pi),
 * for every process count and mapping: blocks in rank order. */
static int check_results(const char *relative, const int *nps, int nnps)
{
    static const size_t sizes[] = {3, 7000}; /* 7000: rendezvous across ib4x-like links */
    const sc_platform_t *plat = sc_test_platform(relative);
    if (!plat)
        return 0;
    int runs = 0;
    for (const sc_algo_t *a = sc_algos; a->name; a++)
        for (int i = 0; i < nnps; i++) {
            if (!allgather_applies(a, nps[i], plat))
                continue;
            int *pi = malloc((size_t)nps[i] * sizeof *pi);
            for (int k = 0; k < NPIS; k++) {
                sc_run_spec_t spec = {.plat = plat, .algo = a, .np = nps[i], .payload = 1};
                if (!make_pi(&spec, (pi_kind_t)k, pi))
                    continue;
                spec.pi = pi;
                for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
                    spec.bytes = sizes[s];
                    sc_run_result_t res;
                    sc_err_t err = sc_run(&spec, &res);
                    runs++;
                    if (err || res.valid != 1) {
                        fprintf(stderr, "\n%s %s np=%d size=%zu pi=%s: %s\n", relative, a->name,
                                nps[i], sizes[s], pi_names[k],
                                err ? sc_error_message() : "WRONG RESULT");
                        CU_FAIL("mapped allgather failed or gave a wrong result");
                    }
                    if (!err)
                        sc_run_result_destroy(&res);
                }
            }
            free(pi);
        }
    return runs;
}

static void test_results_gige(void)
{
    CU_ASSERT_TRUE(check_results("platforms/gige.xml", sc_test_nps, sc_test_nnps) > 300);
}

static void test_results_uneven(void)
{
    static const int nps[] = {5, 13, 16, 21, 29}; /* nodes of 8, 4, 6, 8, 3 cores */
    CU_ASSERT_TRUE(check_results("tests/platforms/uneven.xml", nps, 5) > 100);
}

/* Without contention the models of the variants are exact too. */
static void test_models_exact(void)
{
    const sc_platform_t *plat = sc_test_platform("tests/platforms/nocontention.xml");
    if (!plat)
        return;
    static const int nps[] = {2, 7, 16, 28};
    static const size_t sizes[] = {1, 3000, 100000};
    int runs = 0;
    double worst = 0;
    for (const sc_algo_t *a = sc_algos; a->name; a++)
        for (int i = 0; i < 4; i++) {
            if (!allgather_applies(a, nps[i], plat))
                continue;
            int pi[28];
            for (int k = 0; k < NPIS; k++) {
                sc_run_spec_t spec = {.plat = plat, .algo = a, .np = nps[i]};
                if (!make_pi(&spec, (pi_kind_t)k, pi))
                    continue;
                spec.pi = pi;
                for (int s = 0; s < 3; s++) {
                    spec.bytes = sizes[s];
                    sc_run_result_t res;
                    if (sc_run(&spec, &res) != SC_OK) {
                        CU_FAIL(sc_error_message());
                        continue;
                    }
                    runs++;
                    double diff = fabs(res.sim_time_s - res.model_time_s) / res.model_time_s;
                    if (diff > worst)
                        worst = diff;
                    if (!(fabs(res.sim_time_s - res.model_time_s) <= 1e-6 * res.model_time_s)) {
                        fprintf(stderr, "\n%s np=%d size=%zu pi=%s: simulated %.9g, model %.9g\n",
                                a->name, nps[i], sizes[s], pi_names[k], res.sim_time_s,
                                res.model_time_s);
                        CU_FAIL("simulated time differs from the cost model");
                    }
                    sc_run_result_destroy(&res);
                }
            }
        }
    printf(" [%d runs, largest relative difference %.2g] ", runs, worst);
    CU_ASSERT_TRUE(runs > 100);
}

static double simulate(const sc_platform_t *plat, const char *algo, int np, size_t bytes,
                       const int *pi, double *cut)
{
    sc_run_spec_t spec = {.plat = plat, .algo = sc_algo_find(algo), .np = np, .bytes = bytes,
                          .pi = pi};
    sc_run_result_t res;
    double total;
    CU_ASSERT_EQUAL_FATAL(sc_run(&spec, &res), SC_OK);
    CU_ASSERT_EQUAL(sc_run_cut(&spec, NULL, cut, &total, NULL, NULL), SC_OK);
    double t = res.sim_time_s;
    sc_run_result_destroy(&res);
    return t;
}

/* A reorder variant playing through pi on MPI's block placement moves the
 * same messages between the same nodes as its plain algorithm placed by pi
 * (a rankfile): the simulated times are equal. exch adds one exchange. */
static void test_reorder_equals_placement(void)
{
    const sc_platform_t *plat = sc_test_platform("platforms/gige.xml");
    if (!plat)
        return;
    static const char *const pairs[][3] = {{"bruck", "bruck-reorder", "bruck-exch"},
                                           {"rd", "rd-reorder", "rd-exch"},
                                           {"ring", "ring-reorder", NULL}};
    for (int k = 0; k < 3; k++)
        for (int np = 16; np <= 64; np *= 2) {
            int pi[64];
            sc_run_spec_t spec = {.plat = plat, .algo = sc_algo_find(pairs[k][0]), .np = np};
            CU_ASSERT_EQUAL_FATAL(make_pi(&spec, PI_PARTITION, pi), 1);
            double cut_plain, cut_reorder, cut_exch;
            double plain = simulate(plat, pairs[k][0], np, 2048, pi, &cut_plain);
            double reorder = simulate(plat, pairs[k][1], np, 2048, pi, &cut_reorder);
            CU_ASSERT_DOUBLE_EQUAL(plain, reorder, 1e-12 * plain);
            CU_ASSERT_DOUBLE_EQUAL(cut_plain, cut_reorder, 0);
            double block_cut;
            simulate(plat, pairs[k][0], np, 2048, NULL, &block_cut);
            CU_ASSERT_TRUE(cut_plain <= block_cut);
            if (pairs[k][2])
                CU_ASSERT_TRUE(simulate(plat, pairs[k][2], np, 2048, pi, &cut_exch) > reorder);
        }
}

/* The lecture's claim on the Gigabit Ethernet cluster: Bruck on 64 ranks
 * with 2048-byte blocks is much faster with pi from the partition than
 * with MPI's default placement. */
static void test_partition_speeds_up_bruck(void)
{
    const sc_platform_t *plat = sc_test_platform("platforms/gige.xml");
    if (!plat)
        return;
    int pi[64];
    sc_run_spec_t spec = {.plat = plat, .algo = sc_algo_find("bruck"), .np = 64};
    CU_ASSERT_EQUAL_FATAL(make_pi(&spec, PI_PARTITION, pi), 1);
    double cut;
    double block = simulate(plat, "bruck", 64, 2048, NULL, &cut);
    double reorder = simulate(plat, "bruck-reorder", 64, 2048, pi, &cut);
    CU_ASSERT_TRUE(reorder < block / 2);
}

static void test_bad_pi(void)
{
    const sc_platform_t *plat = sc_test_platform("platforms/gige.xml");
    if (!plat)
        return;
    int pi[4] = {0, 1, 1, 3};
    sc_run_spec_t spec = {.plat = plat, .algo = sc_algo_find("bruck-reorder"), .np = 4,
                          .bytes = 8, .pi = pi};
    sc_run_result_t res;
    CU_ASSERT_EQUAL(sc_run(&spec, &res), SC_ERR_INPUT);
    CU_ASSERT_PTR_NOT_NULL(strstr(sc_error_message(), "both play position 1"));
}

void sc_suite_variants(void)
{
    CU_pSuite s = CU_add_suite("variants", NULL, NULL);
    CU_add_test(s, "mapped allgathers on gige", test_results_gige);
    CU_add_test(s, "mapped allgathers on uneven nodes", test_results_uneven);
    CU_add_test(s, "models of mapped runs are exact", test_models_exact);
    CU_add_test(s, "reorder equals the plain algorithm placed by pi", test_reorder_equals_placement);
    CU_add_test(s, "the partition speeds Bruck up on gige", test_partition_speeds_up_bruck);
    CU_add_test(s, "a pi that is not a permutation", test_bad_pi);
}
