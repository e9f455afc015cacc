/* The replay engine (sim/replay/) against the actor engine: the same
 * schedule on the same platform must take the same simulated time, rank
 * by rank, with the same traffic; and what it cannot play is refused.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include <CUnit/CUnit.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "helpers.h"
#include "sim/engine/engine.h"
#include "sim/engine/run.h"
#include "sim/replay/schedule.h"
#include "suites.h"

static size_t fit(const sc_algo_t *a, size_t bytes)
{
    return sc_algo_is_reduction(a) ? bytes / sizeof(int) * sizeof(int) : bytes;
}

/* To 1e-9, or to 10 ps: SimGrid rounds event times to 1 ps
 * (surf/precision, sim/engine/engine.c), and the engines' events are
 * not computed alike (a sleep against a timeout, an execution against a
 * known duration). */
static double tolerance(double t)
{
    return 1e-9 * fabs(t) + 1e-11;
}

static int close_to(double a, double b)
{
    return fabs(a - b) <= tolerance(b);
}

/* Whether the two runs agree; prints what differs. */
static int same_run(const sc_run_result_t *actors, const sc_run_result_t *replay, int np,
                    const char *what)
{
    int same = close_to(replay->sim_time_s, actors->sim_time_s) &&
               close_to(replay->mean_rank_time_s, actors->mean_rank_time_s) &&
               replay->path_bytes == actors->path_bytes &&
               replay->max_rank_bytes == actors->max_rank_bytes &&
               replay->nlevels == actors->nlevels;
    /* Ranks' ends to the whole's tolerance: one that finishes early in a
     * long run carries the rounding of every event before. */
    for (int r = 0; same && r < np; r++)
        same = fabs(replay->finish[r] - actors->finish[r]) <= tolerance(actors->sim_time_s);
    for (int l = 0; same && l < actors->nlevels; l++)
        same = replay->level_messages[l] == actors->level_messages[l] &&
               replay->level_bytes[l] == actors->level_bytes[l];
    if (!same)
        fprintf(stderr, "\n%s: actors %.12g s (mean %.12g), replay %.12g s (mean %.12g)\n",
                what, actors->sim_time_s, actors->mean_rank_time_s, replay->sim_time_s,
                replay->mean_rank_time_s);
    return same;
}

/* Every algorithm whose messages depend on neither data nor timing, on
 * eager and rendezvous sizes (140000 is rendezvous on every level of the
 * platforms below, 1 eager), under SimGrid's full network update (see
 * sc_engine_full_network_update). The platforms have no NIC gap: with
 * one, the two engines may serve messages asking for a NIC at the same
 * instant in different orders (see sim/replay/replay.c). */
static int compare_engines(const char *relative, sc_placement_t placement, const int *nps,
                           int nnps)
{
    static const size_t sizes[] = {1, 140000};
    const sc_platform_t *plat = sc_test_platform(relative);
    if (!plat)
        return 0;
    int runs = 0;
    long cases = 0; /* under sampling, one in k in turn (sc_test_sampled) */
    sc_engine_full_network_update(1);
    for (const sc_algo_t *a = sc_algos; a->name; a++)
        for (int i = 0; i < nnps; i++)
            for (int s = 0; s < 2; s++) {
                int np = nps[i];
                if (np > plat->total_cores || !sc_test_generic(a) ||
                    ((a->needs & SC_NEEDS_POW2) && (np & (np - 1))) ||
                    !sc_test_sampled(cases++))
                    continue;
                sc_run_spec_t spec = {.plat = plat, .algo = a, .np = np,
                                      .bytes = fit(a, sizes[s]), .root = np / 3,
                                      .placement = placement};
                sc_run_result_t actors, replay;
                if (sc_run(&spec, &actors) != SC_OK) {
                    CU_FAIL(sc_error_message());
                    continue;
                }
                spec.replay = 1;
                if (sc_run(&spec, &replay) != SC_OK) {
                    fprintf(stderr, "\n%s %s np=%d: %s\n", relative, a->name, np,
                            sc_error_message());
                    CU_FAIL("the replay failed");
                    sc_run_result_destroy(&actors);
                    continue;
                }
                char what[160];
                snprintf(what, sizeof what, "%s %s np=%d size=%zu %s", relative, a->name, np,
                         sizes[s], sc_placement_name(placement));
                CU_ASSERT_TRUE(same_run(&actors, &replay, np, what));
                runs++;
                sc_run_result_destroy(&actors);
                sc_run_result_destroy(&replay);
            }
    sc_engine_full_network_update(0);
    return runs;
}

static void test_same_as_actors_ib4x(void)
{
    static const int nps[] = {3, 8, 17};
    int runs = compare_engines("platforms/ib4x.xml", SC_PLACE_BLOCK, nps, 3) +
               compare_engines("platforms/ib4x.xml", SC_PLACE_CYCLIC, nps, 3);
    printf(" [%d runs] ", runs);
    CU_ASSERT_TRUE(runs > 300 / sc_test_sample());
}

/* Nodes of 8, 4, 6, 8, 3 cores; racks of nodes behind their own uplinks. */
static void test_same_as_actors_uneven_racks(void)
{
    static const int uneven[] = {13, 29}, racks[] = {5, 12};
    int runs = compare_engines("tests/platforms/uneven.xml", SC_PLACE_BLOCK, uneven, 2) +
               compare_engines("tests/platforms/nocontention-racks.xml", SC_PLACE_CYCLIC,
                               racks, 2);
    printf(" [%d runs] ", runs);
    CU_ASSERT_TRUE(runs > 200 / sc_test_sample());
}

/* Latency factors: both engines hold what SimGrid delivers for the
 * latency beyond the route's, envelopes and rendezvous sends alike. */
static void test_same_as_actors_latency_factor(void)
{
    static const int nps[] = {3, 8, 13};
    static const int racks[] = {5, 12};
    int runs = compare_engines("tests/platforms/loggp-lat.xml", SC_PLACE_BLOCK, nps, 3) +
               compare_engines("tests/platforms/loggp-lat.xml", SC_PLACE_CYCLIC, nps, 3) +
               compare_engines("tests/platforms/nocontention-racks-lat.xml", SC_PLACE_CYCLIC,
                               racks, 2);
    printf(" [%d runs] ", runs);
    CU_ASSERT_TRUE(runs > 400 / sc_test_sample());
}

static sc_err_t waits_for_any(sc_comm_t *comm, const sc_coll_args_t *args)
{
    (void)args;
    sc_request_t *reqs[1] = {NULL};
    int index;
    return sc_waitany(comm, 1, reqs, &index, NULL);
}

static sc_err_t receives_from_any(sc_comm_t *comm, const sc_coll_args_t *args)
{
    (void)args;
    sc_request_t *req;
    return sc_irecv(comm, NULL, 0, SC_ANY_SOURCE, 0, &req);
}

/* Calls whose outcome depends on timing cannot be recorded into a fixed
 * schedule: the recording says which. */
static void test_refuses_timing_dependent_calls(void)
{
    const sc_platform_t *plat = sc_test_platform("platforms/ib4x.xml");
    if (!plat)
        return;
    static const int node_of[2] = {0, 0};
    sc_model_t model = {.plat = plat, .size = 2, .node_of = node_of, .elem_size = 4};
    sc_coll_args_t args = {0};
    sc_schedule_t sched;
    const sc_algo_t any = {.name = "waits-for-any", .run = waits_for_any};
    CU_ASSERT_EQUAL(sc_schedule_record(&any, &args, &model, NULL, &sched), SC_ERR_INPUT);
    CU_ASSERT_PTR_NOT_NULL(strstr(sc_error_message(), "a wait for any of several requests"));
    const sc_algo_t from_any = {.name = "receives-from-any", .run = receives_from_any};
    CU_ASSERT_EQUAL(sc_schedule_record(&from_any, &args, &model, NULL, &sched), SC_ERR_INPUT);
    CU_ASSERT_PTR_NOT_NULL(strstr(sc_error_message(), "a receive from any source"));
}

/* What sc_run refuses before starting: data, programs of several calls
 * (tests/cli cover those), algorithms that look at data. */
static void test_refuses_runs_it_cannot_play(void)
{
    const sc_platform_t *plat = sc_test_platform("platforms/ib4x.xml");
    if (!plat)
        return;
    sc_run_spec_t spec = {.plat = plat, .algo = sc_algo_find("bruck"), .np = 8, .bytes = 64,
                          .payload = 1, .replay = 1};
    CU_ASSERT_EQUAL(sc_run_check(&spec), SC_ERR_INPUT);
    CU_ASSERT_PTR_NOT_NULL(strstr(sc_error_message(), "add --no-payload"));
    spec.payload = 0;
    CU_ASSERT_EQUAL(sc_run_check(&spec), SC_OK);
    spec.algo = sc_algo_find("allreduce-early");
    spec.op = SC_OP_LOR;
    spec.type = SC_TYPE_INT;
    CU_ASSERT_EQUAL(sc_run_check(&spec), SC_ERR_INPUT);
    CU_ASSERT_PTR_NOT_NULL(strstr(sc_error_message(), "depend on the data"));
}

void sc_suite_replay(void)
{
    CU_pSuite s = CU_add_suite("replay", NULL, NULL);
    CU_add_test(s, "replay = actors, every algorithm, ib4x", test_same_as_actors_ib4x);
    CU_add_test(s, "replay = actors, uneven nodes, racks", test_same_as_actors_uneven_racks);
    CU_add_test(s, "replay = actors, latency factors", test_same_as_actors_latency_factor);
    CU_add_test(s, "recording refuses timing-dependent calls",
                test_refuses_timing_dependent_calls);
    CU_add_test(s, "runs a replay cannot play are refused", test_refuses_runs_it_cannot_play);
}
