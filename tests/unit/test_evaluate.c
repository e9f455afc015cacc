/* The evaluator (sim/replay/evaluate.c) against the engines: where no two
 * messages share a link, each algorithm's recorded schedule, evaluated,
 * gives every rank's finish time that the simulation gives.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include <CUnit/CUnit.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "algorithms/collectives.h"
#include "helpers.h"
#include "sim/engine/run.h"
#include "sim/replay/evaluate.h"
#include "suites.h"

/* Each algorithm simulated (sc_run: the actors, or the `replay` engine)
 * against its recorded schedule evaluated on the same layout from the
 * same start times, rank by rank. With a NIC's gap, messages asking for it
 * at one instant take their slots in the order their senders ask, and the
 * actors ask in SimGrid's order of waking them, the replay's engines and
 * the evaluator by rank: there the driver is the reference. */
static void check_engine(const char *relative, const int *nps, int nnps, const size_t *msizes,
                         int nsizes, int replay)
{
    const sc_platform_t *plat = sc_test_platform(relative);
    if (!plat)
        return;
    int runs = 0, differ = 0;
    long cases = 0;
    double worst = 0;
    for (const sc_algo_t *a = sc_algos; a->name; a++)
        for (int pl = 0; pl < 2; pl++)
            for (int i = 0; i < nnps; i++)
                for (int s = 0; s < nsizes; s++) {
                    int np = nps[i];
                    if (np > plat->total_cores || (a->needs & SC_DATA_DEPENDENT) ||
                        ((a->needs & SC_NEEDS_POW2) && (np & (np - 1))) ||
                        !sc_test_sampled(cases++ + i + pl))
                        continue;
                    size_t bytes = sc_algo_is_reduction(a) ? msizes[s] / 4 * 4 : msizes[s];
                    sc_run_spec_t spec = {.plat = plat,
                                          .algo = a,
                                          .np = np,
                                          .bytes = bytes,
                                          .root = np - 1,
                                          .placement = (sc_placement_t)pl,
                                          .type = SC_TYPE_INT,
                                          .op = SC_OP_SUM,
                                          .replay = replay};
                    sc_run_result_t res;
                    if (sc_run(&spec, &res) != SC_OK) {
                        CU_FAIL(sc_error_message());
                        continue;
                    }
                    double *t = calloc((size_t)np, sizeof *t);
                    int *node_of = malloc((size_t)np * sizeof *node_of);
                    sc_err_t err =
                        t && node_of ? sc_place(plat, np, spec.placement, node_of) : SC_ERR_RUN;
                    if (!err)
                        err = sc_test_evaluate(plat, node_of, np, a, bytes, np - 1, SC_TYPE_INT,
                                               res.start, t);
                    free(node_of);
                    CU_ASSERT_EQUAL(err, SC_OK);
                    double d = 0;
                    for (int r = 0; !err && r < np; r++) {
                        double e =
                            fabs(t[r] - res.finish[r]) / (res.finish[r] > 0 ? res.finish[r] : 1);
                        d = e > d ? e : d;
                    }
                    if (!err && d > 1e-9) {
                        differ++;
                        fprintf(stderr,
                                "\n%s %s np %d bytes %zu %s: simulated %.9g, evaluator %.9g",
                                relative, a->name, np, bytes, sc_placement_name(spec.placement),
                                res.sim_time_s, sc_model_max(t, np));
                    }
                    worst = d > worst ? d : worst;
                    runs++;
                    free(t);
                    sc_run_result_destroy(&res);
                }
    printf(" [%d runs, %d differ, largest relative difference %.2g] ", runs, differ, worst);
    CU_ASSERT_EQUAL(differ, 0);
}

static void test_engine_nocontention(void)
{
    static const int nps[] = {1, 2, 3, 5, 8, 13, 16};
    static const size_t msizes[] = {1, 3000, 5000, 100000};
    check_engine("tests/platforms/nocontention.xml", nps, 7, msizes, 4, 0);
}

static void test_engine_loggp(void)
{
    static const int nps[] = {2, 3, 7, 13};
    static const size_t msizes[] = {8, 3000, 6000, 70000};
    check_engine("tests/platforms/loggp-lat.xml", nps, 4, msizes, 4, 0);
}

static void test_engine_gap(void)
{
    static const int nps[] = {2, 3, 7, 13};
    static const size_t msizes[] = {8, 3000, 6000, 70000};
    check_engine("tests/platforms/loggp-gap.xml", nps, 4, msizes, 4, SC_REPLAY_MAESTRO);
}

static void test_engine_racks(void)
{
    static const int nps[] = {5, 13, 21};
    static const size_t msizes[] = {1, 3000, 100000};
    check_engine("tests/platforms/nocontention-racks-lat.xml", nps, 3, msizes, 3, 0);
}

static void test_engine_sockets(void)
{
    static const int nps[] = {3, 7, 16};
    static const size_t msizes[] = {1, 3000, 100000};
    check_engine("tests/platforms/nocontention-sockets.xml", nps, 3, msizes, 3, 0);
}

/* o_call: the actors' transport spends it as the recording's COMPUTE op
 * does, and so does the driver. */
static void test_engine_call_overhead(void)
{
    static const int nps[] = {2, 5, 13};
    static const size_t msizes[] = {8, 5000};
    check_engine("tests/platforms/nocontention-call.xml", nps, 3, msizes, 2, 0);
    check_engine("tests/platforms/nocontention-call.xml", nps, 3, msizes, 2, SC_REPLAY_MAESTRO);
}

void sc_suite_evaluate(void)
{
    CU_pSuite s = CU_add_suite("evaluate", NULL, NULL);
    CU_add_test(s, "the engines' times without contention", test_engine_nocontention);
    CU_add_test(s, "the engines' times with latency factors", test_engine_loggp);
    CU_add_test(s, "the engines' times with a gap", test_engine_gap);
    CU_add_test(s, "the engines' times on racks", test_engine_racks);
    CU_add_test(s, "the engines' times on sockets", test_engine_sockets);
    CU_add_test(s, "the engines' times with a call's entry", test_engine_call_overhead);
}
