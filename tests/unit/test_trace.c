/* What --timeline, --trace, --paje and --explain are made of: the
 * transport's record of every message, and the step-by-step explanation
 * of a run, against cases worked out by hand.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include <CUnit/CUnit.h>
#include <math.h>
#include <stdio.h>

#include "helpers.h"
#include "models/cost.h"
#include "sim/analysis/explain.h"
#include "sim/engine/run.h"
#include "suites.h"

/* Every message recorded once, in the run's counts, each posted, leaving
 * and arriving in that order within the run's time. */
static void test_message_records(void)
{
    const sc_platform_t *plat = sc_test_platform("platforms/gige.xml");
    if (!plat)
        return;
    static const char *const algos[] = {"bruck", "allreduce-rabenseifner", "bcast-binomial",
                                        "allreduce-early"};
    for (int a = 0; a < 4; a++) {
        const sc_algo_t *algo = sc_algo_find(algos[a]);
        sc_run_spec_t spec = {.plat = plat,
                              .algo = algo,
                              .np = 24,
                              .bytes = 256 * 1024,
                              .payload = 1,
                              .messages = 1,
                              .op = SC_OP_SUM,
                              .type = SC_TYPE_INT};
        if (algo->needs & SC_EARLY_EXIT)
            spec.op = SC_OP_BOR;
        sc_run_result_t res;
        if (sc_run(&spec, &res) != SC_OK) {
            fprintf(stderr, "\n%s: %s\n", algos[a], sc_error_message());
            CU_FAIL("run failed");
            continue;
        }
        long per_level[SC_NLEVELS] = {0}, bad = 0;
        double t0 = INFINITY, t1 = -INFINITY;
        for (int r = 0; r < spec.np; r++) {
            t0 = res.start[r] < t0 ? res.start[r] : t0;
            t1 = res.finish[r] > t1 ? res.finish[r] : t1;
        }
        for (long k = 0; k < res.nmsgs; k++) {
            const sc_msg_record_t *m = &res.msgs[k];
            per_level[m->level]++;
            bad += !(t0 <= m->posted && m->posted <= m->left &&
                     (isnan(m->arrived) || (m->left <= m->arrived && m->arrived <= t1)));
        }
        CU_ASSERT_EQUAL(res.valid, 1);
        CU_ASSERT_EQUAL(bad, 0);
        CU_ASSERT_EQUAL(per_level[SC_LEVEL_INTER], res.messages[SC_LEVEL_INTER]);
        CU_ASSERT_EQUAL(per_level[SC_LEVEL_INTRA], res.messages[SC_LEVEL_INTRA]);
        CU_ASSERT(res.nmsgs > 0);
        sc_run_result_destroy(&res);
    }
}

static int run_traced(const sc_platform_t *plat, const char *algo, int np, size_t bytes,
                      sc_run_result_t *res)
{
    sc_run_spec_t spec = {.plat = plat,
                          .algo = sc_algo_find(algo),
                          .np = np,
                          .bytes = bytes,
                          .payload = 1,
                          .messages = 1};
    if (sc_run(&spec, res) != SC_OK) {
        fprintf(stderr, "\n%s: %s\n", algo, sc_error_message());
        CU_FAIL("run failed");
        return 0;
    }
    return 1;
}

/* The ring allgather at np 4 on one node of the contention-free platform,
 * by hand: 3 steps of 4 messages inside the node, every rank sending and
 * receiving in lock step, so each step takes exactly what its slowest
 * message takes alone and nothing waits; the critical path is one message
 * per step. */
static void test_explain_ring(void)
{
    const sc_platform_t *plat = sc_test_platform("tests/platforms/nocontention.xml");
    sc_run_result_t res;
    if (!plat || !run_traced(plat, "ring", 4, 1000, &res))
        return;
    sc_explain_t e;
    CU_ASSERT_EQUAL_FATAL(sc_explain(plat, 4, &res, &e), SC_OK);
    CU_ASSERT_EQUAL(e.nsteps, 3);
    for (int s = 0; s < e.nsteps; s++) {
        const sc_explain_step_t *st = &e.steps[s];
        CU_ASSERT_EQUAL(st->messages[SC_LEVEL_INTRA], 4);
        CU_ASSERT_EQUAL(st->messages[SC_LEVEL_INTER], 0);
        CU_ASSERT_DOUBLE_EQUAL(st->bytes[SC_LEVEL_INTRA], 4000, 0);
        CU_ASSERT(st->waited_max < 1e-12);
        CU_ASSERT_DOUBLE_EQUAL(st->end - st->start, st->alone, 1e-12);
        CU_ASSERT_EQUAL(st->busiest_node, -1); /* no NIC used */
    }
    CU_ASSERT_EQUAL(e.npath, 3);
    for (int i = 0; i < e.npath; i++)
        CU_ASSERT_EQUAL(e.step_of_msg[e.path[i]], i + 1);
    /* The steps follow each other: the run is their sum, plus the last
     * receive's overhead. */
    CU_ASSERT(e.steps[1].start >= e.steps[0].end - 1e-12);
    sc_explain_destroy(&e);
    sc_run_result_destroy(&res);
}

/* Bruck's allgather at np 16 on gige (two nodes of 8 cores), by hand:
 * log2 16 = 4 steps; in step 4 (distance 8) every rank of node 0 sends its
 * 8 blocks (16 KiB) to a rank of node 1 and back, so node 0's NIC sends 8
 * messages, 128 KiB, the busiest, and they queue there: the step takes
 * several times its slowest message alone. */
static void test_explain_bruck(void)
{
    const sc_platform_t *plat = sc_test_platform("platforms/gige.xml");
    sc_run_result_t res;
    if (!plat || !run_traced(plat, "bruck", 16, 2048, &res))
        return;
    sc_explain_t e;
    CU_ASSERT_EQUAL_FATAL(sc_explain(plat, 16, &res, &e), SC_OK);
    CU_ASSERT_EQUAL_FATAL(e.nsteps, 4);
    const sc_explain_step_t *last = &e.steps[3];
    CU_ASSERT_EQUAL(last->messages[SC_LEVEL_INTER], 16);
    CU_ASSERT_EQUAL(last->messages[SC_LEVEL_INTRA], 0);
    CU_ASSERT_DOUBLE_EQUAL(last->bytes[SC_LEVEL_INTER], 16 * 16384.0, 0);
    CU_ASSERT_EQUAL(last->busiest_messages, 8);
    CU_ASSERT_DOUBLE_EQUAL(last->busiest_bytes, 8 * 16384.0, 0);
    CU_ASSERT(last->end - last->start > 3 * last->alone);
    CU_ASSERT(last->waited_max > 0);
    /* Steps 1 to 3 move 1, 2 and 4 blocks per rank. */
    for (int s = 0; s < 3; s++)
        CU_ASSERT_DOUBLE_EQUAL(e.steps[s].bytes[SC_LEVEL_INTER] + e.steps[s].bytes[SC_LEVEL_INTRA],
                               16 * 2048.0 * (1 << s), 0);
    CU_ASSERT_EQUAL(e.npath, 4);
    sc_explain_destroy(&e);
    sc_run_result_destroy(&res);
}

/* allreduce-rd of 1 MiB at np 8 on one node of gige, by hand: 3 steps of 8
 * messages inside the node, all on its memory bus at once, so every step
 * waits there (there is no NIC to name); between two messages of the
 * critical path the rank combines 1 MiB, at least gamma x 1 MiB. */
static void test_explain_memory_bus(void)
{
    const sc_platform_t *plat = sc_test_platform("platforms/gige.xml");
    sc_run_result_t res;
    if (!plat || !run_traced(plat, "allreduce-rd", 8, 1 << 20, &res))
        return;
    sc_explain_t e;
    CU_ASSERT_EQUAL_FATAL(sc_explain(plat, 8, &res, &e), SC_OK);
    CU_ASSERT_EQUAL_FATAL(e.nsteps, 3);
    for (int s = 0; s < e.nsteps; s++) {
        const sc_explain_step_t *st = &e.steps[s];
        CU_ASSERT_EQUAL(st->busiest_node, -1);
        CU_ASSERT(st->waited_intra > 0);
        CU_ASSERT_EQUAL(sc_explain_waited_at(st), SC_WAITED_BUS);
        CU_ASSERT_EQUAL(st->bus_node, 0);
        CU_ASSERT_EQUAL(st->bus_messages, 8);
        CU_ASSERT_DOUBLE_EQUAL(st->bus_bytes, 8.0 * (1 << 20), 0);
    }
    sc_model_t model;
    CU_ASSERT_EQUAL_FATAL(
        sc_model_init(&model, plat, 8, res.node_of, res.domain_of, NULL, NULL, sizeof(double)),
        SC_OK);
    double combine = sc_model_reduce_time(&model, 0, 0, 1 << 20);
    CU_ASSERT_EQUAL_FATAL(e.npath, 3);
    for (int i = 1; i < e.npath; i++)
        CU_ASSERT(e.path_on_rank[i] >= combine);
    CU_ASSERT(e.path_tail >= combine); /* the last rank combines the last message too */
    sc_model_destroy(&model);
    sc_explain_destroy(&e);
    sc_run_result_destroy(&res);
}

void sc_suite_trace(void)
{
    CU_pSuite s = CU_add_suite("trace", NULL, NULL);
    CU_add_test(s, "every message recorded, in order, within the run", test_message_records);
    CU_add_test(s, "explain: the ring at np 4, no contention", test_explain_ring);
    CU_add_test(s, "explain: Bruck at np 16 on gige, the NIC of step 4", test_explain_bruck);
    CU_add_test(s, "explain: allreduce-rd in one gige node, its memory bus and combining",
                test_explain_memory_bus);
}
