/* The replay engine (sim/replay/) against the actor engine: the same
 * schedule on the same platform must take the same simulated time, rank
 * by rank, with the same traffic; and what it cannot play is refused.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include <CUnit/CUnit.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "algorithms/schedule.h"
#include "helpers.h"
#include "sim/engine/run.h"
#include "sim/program/program.h"
#include "sim/replay/due_queue.h"
#include "sim/simgrid/driver.h"
#include "sim/simgrid/engine.h"
#include "suites.h"

static size_t fit(const sc_algo_t *a, size_t bytes)
{
    return sc_algo_is_reduction(a) ? bytes / sizeof(int) * sizeof(int) : bytes;
}

/* Two engines compared, and how closely their times must agree. */
typedef struct {
    int first, second; /* sc_run_spec_t.replay: 0 (actors), SC_REPLAY_NODES,
                          SC_REPLAY_MAESTRO, SC_REPLAY_LIVE */
    double relative, absolute;
    double expected; /* relative: closer than this but in a few runs (0: always) */
    int data;        /* 1: the second runs with data, which must check right */
} engines_t;

/* To 1e-9, or to 10 ps: SimGrid rounds event times to 1 ps
 * (surf/precision, sim/simgrid/engine.c), and the engines' events are
 * not computed alike (a sleep against a timeout, an execution against a
 * known duration). */
static const engines_t actors_replay = {0, SC_REPLAY_NODES, 1e-9, 1e-11, 0, 0};

/* The driver runs the replay's state machines on the same events in the
 * same order: to 1e-12 relative. But the replay's node actor, busy or
 * holding until `next`, waits with a timeout of next - now and wakes at
 * now + (next - now), which may miss `next` by an ulp, where the driver's
 * timer fires at `next` (a reduction's combining on 24 ranks of ib4x:
 * 9.989301877859668e-05 s replayed, 9.9893018778596544e-05 driven). And
 * the driver carries the messages of one instant, route and size as one
 * flow that counts as n (sim/simgrid/driver.cpp, one_flow), whose rate
 * SimGrid rounds otherwise than n flows'. Where flows share links, its
 * solver carries those roundings on to about 1e-11 of the whole, and a
 * rank's end to a few 1e-10 or a few of SimGrid's 1 ps steps of time, in
 * a few runs (ring allreduces of rendezvous sizes): those are held to the
 * actors' tolerance and counted. */
static const engines_t replay_driver = {SC_REPLAY_NODES, SC_REPLAY_MAESTRO, 1e-9, 1e-11, 1e-12, 0};

/* Live ranks hand the driver the ops a recording would have, and it plays
 * them alike: the same events in the same order, to 1e-12; with their
 * data, checked. */
static const engines_t driver_live = {SC_REPLAY_MAESTRO, SC_REPLAY_LIVE, 1e-12, 0, 0, 1};

/* Live ranks run programs and data-dependent algorithms the driver cannot
 * play: against the actors, as the replay is. */
static const engines_t actors_live = {0, SC_REPLAY_LIVE, 1e-9, 1e-11, 0, 1};

static const char *engine_name(int replay)
{
    return replay == SC_REPLAY_LIVE      ? "live"
           : replay == SC_REPLAY_MAESTRO ? "driver"
           : replay                      ? "replay"
                                         : "actors";
}

static double tolerance(const engines_t *e, double t)
{
    return e->relative * fabs(t) + e->absolute;
}

static int close_to(const engines_t *e, double a, double b)
{
    return fabs(a - b) <= tolerance(e, b);
}

/* Whether the two runs agree; prints what differs, unless `what` is NULL. */
static int same_run(const engines_t *e, const sc_run_result_t *one, const sc_run_result_t *two,
                    int np, const char *what)
{
    int same = close_to(e, two->sim_time_s, one->sim_time_s) &&
               close_to(e, two->mean_rank_time_s, one->mean_rank_time_s) &&
               two->path_bytes == one->path_bytes && two->max_rank_bytes == one->max_rank_bytes &&
               two->nlevels == one->nlevels;
    /* Ranks' starts and ends to the whole's tolerance: one that finishes
     * early in a long run carries the rounding of every event before. */
    for (int r = 0; same && r < np; r++)
        same = fabs(two->finish[r] - one->finish[r]) <= tolerance(e, one->sim_time_s) &&
               fabs(two->start[r] - one->start[r]) <= tolerance(e, one->sim_time_s);
    for (int l = 0; same && l < one->nlevels; l++)
        same = two->level_messages[l] == one->level_messages[l] &&
               two->level_bytes[l] == one->level_bytes[l];
    if (!same && what)
        fprintf(stderr, "\n%s: %s %.15g s (mean %.15g), %s %.15g s (mean %.15g)\n", what,
                engine_name(e->first), one->sim_time_s, one->mean_rank_time_s,
                engine_name(e->second), two->sim_time_s, two->mean_rank_time_s);
    return same;
}

/* Every algorithm whose messages depend on neither data nor timing, on
 * eager and rendezvous sizes (140000 is rendezvous on every level of the
 * platforms below but loggp-flow's nodes, 1 eager), under SimGrid's full
 * network update (see sc_engine_full_network_update), played by both
 * engines. The platforms have no NIC gap: with one, the engines may serve
 * messages asking for a NIC at the same instant in different orders (see
 * sim/simgrid/node_replay.c). */
static int compare(const engines_t *e, const char *relative, sc_placement_t placement,
                   const int *nps, int nnps)
{
    static const size_t sizes[] = {1, 140000};
    const sc_platform_t *plat = sc_test_platform(relative);
    if (!plat)
        return 0;
    int runs = 0, rounded = 0;
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
                sc_run_spec_t spec = {.plat = plat,
                                      .algo = a,
                                      .np = np,
                                      .bytes = fit(a, sizes[s]),
                                      .root = np / 3,
                                      .placement = placement,
                                      .replay = e->first};
                sc_run_result_t one, two;
                if (sc_run(&spec, &one) != SC_OK) {
                    CU_FAIL(sc_error_message());
                    continue;
                }
                spec.replay = e->second;
                spec.payload = e->data;
                if (sc_run(&spec, &two) != SC_OK) {
                    fprintf(stderr, "\n%s %s np=%d: %s\n", relative, a->name, np,
                            sc_error_message());
                    CU_FAIL("the second engine failed");
                    sc_run_result_destroy(&one);
                    continue;
                }
                char what[160];
                snprintf(what, sizeof what, "%s %s np=%d size=%zu %s", relative, a->name, np,
                         sizes[s], sc_placement_name(placement));
                CU_ASSERT_TRUE(same_run(e, &one, &two, np, what));
                if (e->data && two.valid != 1) {
                    fprintf(stderr, "\n%s: data not right (%d): %s\n", what, two.valid, two.wrong);
                    CU_FAIL("the second engine's data are not right");
                }
                if (e->expected > 0) {
                    engines_t closer = *e;
                    closer.relative = e->expected;
                    closer.absolute = 0;
                    rounded += !same_run(&closer, &one, &two, np, NULL);
                }
                runs++;
                sc_run_result_destroy(&one);
                sc_run_result_destroy(&two);
            }
    sc_engine_full_network_update(0);
    if (rounded)
        printf(" [%s: %d of %d runs beyond %g] ", relative, rounded, runs, e->expected);
    return runs;
}

static int compare_engines(const char *relative, sc_placement_t placement, const int *nps, int nnps)
{
    return compare(&actors_replay, relative, placement, nps, nnps);
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

/* The driver (--replay=maestro) against the replay, in a SimGrid 4.1
 * build; 3.32 builds refuse it (test_driver_needs_simgrid_41). */
static int compare_driver(const char *relative, sc_placement_t placement, const int *nps, int nnps)
{
    return compare(&replay_driver, relative, placement, nps, nnps);
}

/* Whether this build has the driver; says so in the test's line if not. */
static int driver_here(void)
{
    if (sc_driver_available() == SC_OK)
        return 1;
    printf(" [SimGrid %s: no driver, see the refusal below] ", sc_simgrid_version());
    return 0;
}

/* ib4x: nodes of 8 cores sharing their NIC; 3, 6, 12, 13, 24 ranks. */
static void test_driver_same_as_replay_ib4x(void)
{
    static const int nps[] = {3, 6, 12, 13, 24};
    if (!driver_here())
        return;
    int runs = compare_driver("platforms/ib4x.xml", SC_PLACE_BLOCK, nps, 5) +
               compare_driver("platforms/ib4x.xml", SC_PLACE_CYCLIC, nps, 5);
    printf(" [%d runs] ", runs);
    CU_ASSERT_TRUE(runs > 500 / sc_test_sample());
}

/* Nodes of 8, 4, 6, 8, 3 cores; racks behind their own uplinks; a
 * platform without contention (FATPIPE links). */
static void test_driver_same_as_replay_uneven_racks(void)
{
    static const int uneven[] = {13, 24, 29}, racks[] = {5, 12}, flat[] = {6, 13};
    if (!driver_here())
        return;
    int runs = compare_driver("tests/platforms/uneven.xml", SC_PLACE_BLOCK, uneven, 3) +
               compare_driver("tests/platforms/nocontention-racks.xml", SC_PLACE_CYCLIC, racks, 2) +
               compare_driver("tests/platforms/nocontention.xml", SC_PLACE_BLOCK, flat, 2);
    printf(" [%d runs] ", runs);
    CU_ASSERT_TRUE(runs > 400 / sc_test_sample());
}

/* Latency factors (what SimGrid delivers held back by timers) and flow
 * factors (each flow's rate bounded). */
static void test_driver_same_as_replay_factors(void)
{
    static const int nps[] = {3, 6, 13}, racks[] = {5, 12}, flow[] = {3, 6, 12, 16};
    if (!driver_here())
        return;
    int runs =
        compare_driver("tests/platforms/loggp-lat.xml", SC_PLACE_BLOCK, nps, 3) +
        compare_driver("tests/platforms/loggp-lat.xml", SC_PLACE_CYCLIC, nps, 3) +
        compare_driver("tests/platforms/nocontention-racks-lat.xml", SC_PLACE_CYCLIC, racks, 2) +
        compare_driver("tests/platforms/loggp-flow.xml", SC_PLACE_BLOCK, flow, 4) +
        compare_driver("tests/platforms/loggp-flow.xml", SC_PLACE_CYCLIC, flow, 4);
    printf(" [%d runs] ", runs);
    CU_ASSERT_TRUE(runs > 600 / sc_test_sample());
}

/* Live ranks (--replay=live) against the driver, their data checked. */
static int compare_live(const char *relative, sc_placement_t placement, const int *nps, int nnps)
{
    return compare(&driver_live, relative, placement, nps, nnps);
}

/* ib4x, both placements; uneven nodes; racks with latency factors; flow
 * factors; o_call. */
static void test_live_same_as_driver(void)
{
    static const int nps[] = {3, 6, 13, 24}, uneven[] = {13, 29}, racks[] = {5, 12},
                     flow[] = {6, 16};
    if (!driver_here())
        return;
    int runs =
        compare_live("platforms/ib4x.xml", SC_PLACE_BLOCK, nps, 4) +
        compare_live("platforms/ib4x.xml", SC_PLACE_CYCLIC, nps, 4) +
        compare_live("tests/platforms/uneven.xml", SC_PLACE_BLOCK, uneven, 2) +
        compare_live("tests/platforms/nocontention-racks-lat.xml", SC_PLACE_CYCLIC, racks, 2) +
        compare_live("tests/platforms/loggp-flow.xml", SC_PLACE_BLOCK, flow, 2) +
        compare_live("tests/platforms/nocontention-call.xml", SC_PLACE_BLOCK, nps, 4);
    printf(" [%d runs] ", runs);
    CU_ASSERT_TRUE(runs > 900 / sc_test_sample());
}

/* Live ranks run what looks at the data (allreduce-spec: speculation on
 * who holds the maximum), with the actors' times; and say which call they
 * cannot make, when they meet it. */
static void test_live_runs_data_and_refuses_waits_for_any(void)
{
    const sc_platform_t *plat = sc_test_platform("platforms/ib4x.xml");
    if (!plat || !driver_here())
        return;
    sc_run_spec_t spec = {.plat = plat,
                          .algo = sc_algo_find("allreduce-spec"),
                          .np = 13,
                          .bytes = 4096,
                          .op = SC_OP_MAX,
                          .type = SC_TYPE_DOUBLE,
                          .payload = 1};
    sc_run_result_t actors, live;
    CU_ASSERT_EQUAL_FATAL(sc_run(&spec, &actors), SC_OK);
    spec.replay = SC_REPLAY_LIVE;
    CU_ASSERT_EQUAL_FATAL(sc_run(&spec, &live), SC_OK);
    CU_ASSERT_EQUAL(live.valid, 1);
    CU_ASSERT_TRUE(same_run(&actors_live, &actors, &live, spec.np, "allreduce-spec"));
    CU_ASSERT_EQUAL(live.speculated, actors.speculated);
    sc_run_result_destroy(&actors);
    sc_run_result_destroy(&live);
    spec.algo = sc_algo_find("allreduce-early");
    spec.op = SC_OP_LOR;
    spec.type = SC_TYPE_INT;
    CU_ASSERT_EQUAL(sc_run(&spec, &live), SC_ERR_INPUT);
    CU_ASSERT_PTR_NOT_NULL(strstr(sc_error_message(), "this code made a receive from any source"));
    const sc_algo_t any = {.name = "waits-for-any", .run = waits_for_any};
    spec.algo = &any;
    spec.payload = 0;
    CU_ASSERT_EQUAL(sc_run(&spec, &live), SC_ERR_INPUT);
    CU_ASSERT_PTR_NOT_NULL(strstr(sc_error_message(), "this code made a wait for any request"));
}

/* Programs live against the actors, data checked: halos on grids,
 * computations (a duration, flops, spread), loops, every collective kind,
 * a send, an until loop without predict; on ib4x (no NIC gap), under the
 * full network update, to the actors' and the replay's tolerance. */
static void test_live_programs_same_as_actors(void)
{
    static const char *const texts[] = {
        "loop 3\n  halo 4K dims=2 buf=u\n  compute 200us spread=0.5\n"
        "  allreduce 8 in=r out=res\nend\n",
        "allgather 2K\nbcast 1K root=2\nreduce 64K op=max\nscatter 512 root=1\nbarrier\n"
        "compute 1Gf\nallreduce 70000\nsend 140000 from=1 to=4\n",
        "loop 2\n  halo 64K dims=3 buf=u\n  compute 2ms\nend\n",
        "until 1e-3 max=4 error=1 rate=0.1\n  halo 1K dims=1 buf=p\n  compute 50us\nend\n"};
    static const int nps[] = {5, 8, 13, 24};
    const sc_platform_t *plat = sc_test_platform("platforms/ib4x.xml");
    if (!plat || !driver_here())
        return;
    int runs = 0;
    sc_engine_full_network_update(1);
    for (size_t t = 0; t < sizeof texts / sizeof *texts; t++) {
        sc_program_t prog;
        CU_ASSERT_EQUAL_FATAL(sc_program_parse("live.prog", texts[t], strlen(texts[t]), &prog),
                              SC_OK);
        for (int i = 0; i < 4; i++) {
            sc_run_spec_t spec = {.plat = plat,
                                  .program = &prog,
                                  .profile = sc_profile_find(t % 2 ? "openmpi-4.1" : "mpich-3.2"),
                                  .np = nps[i],
                                  .payload = 1};
            sc_run_result_t actors, live;
            if (sc_run(&spec, &actors) != SC_OK) {
                fprintf(stderr, "\nprogram %zu np=%d: %s\n", t, nps[i], sc_error_message());
                CU_FAIL("the actors failed");
                continue;
            }
            spec.replay = SC_REPLAY_LIVE;
            if (sc_run(&spec, &live) != SC_OK) {
                fprintf(stderr, "\nprogram %zu np=%d: %s\n", t, nps[i], sc_error_message());
                CU_FAIL("live ranks failed");
                sc_run_result_destroy(&actors);
                continue;
            }
            char what[64];
            snprintf(what, sizeof what, "program %zu np=%d", t, nps[i]);
            CU_ASSERT_TRUE(same_run(&actors_live, &actors, &live, nps[i], what));
            CU_ASSERT_EQUAL(live.valid, actors.valid);
            CU_ASSERT_NOT_EQUAL(live.valid, 0);
            runs++;
            sc_run_result_destroy(&actors);
            sc_run_result_destroy(&live);
        }
        sc_program_destroy(&prog);
    }
    sc_engine_full_network_update(0);
    printf(" [%d runs] ", runs);
    CU_ASSERT_EQUAL(runs, 16);
}

/* Whether a rank's window, its peers shifted (sc_op_window_t), is what
 * the rank's own recording gives. */
static int window_is_own(const sc_op_window_t *w, const sc_schedule_t *own, int np)
{
    if (w->nops != own->op_start[1])
        return 0;
    for (long i = 0; i < w->nops; i++) {
        const sc_sched_op_t *a = &w->ops[i], *b = &own->ops[i];
        int peer = a->peer;
        if (a->kind == SC_OP_SEND || a->kind == SC_OP_RECV)
            peer = (a->peer + w->shift) % np;
        if (a->kind != b->kind || a->req != b->req || peer != b->peer || a->tag != b->tag ||
            memcmp(&a->u, &b->u, sizeof a->u))
            return 0;
        if (a->kind == SC_OP_WAIT && a->u.wait.count &&
            memcmp(w->ids + a->u.wait.first, own->wait_ids + b->u.wait.first,
                   a->u.wait.count * sizeof *w->ids))
            return 0;
    }
    return 1;
}

/* A schedule keeps once the ops that ranks have alike but for their
 * rank (schedule.h, like): each rank's window, shifted, is still the
 * rank's own recording, for every algorithm; Bruck's ranks keep one
 * rank's ops. */
static void test_shared_ops_are_each_ranks(void)
{
    const sc_platform_t *plat = sc_test_platform("platforms/ib4x.xml");
    if (!plat)
        return;
    enum { NP = 24 };
    int node_of[NP], domain_of[NP];
    for (int r = 0; r < NP; r++)
        node_of[r] = r < 5 ? 0 : 1 + (r - 5) / 8; /* uneven nodes: SMP-aware ops differ */
    CU_ASSERT_EQUAL_FATAL(sc_place_domains(plat, NP, node_of, domain_of), SC_OK);
    sc_scratch_t *scratch = sc_scratch_create();
    void *area = scratch ? sc_scratch_get(scratch, (size_t)NP * 4096 + 64) : NULL;
    CU_ASSERT_PTR_NOT_NULL_FATAL(area);
    int checked = 0;
    for (const sc_algo_t *a = sc_algos; a->name; a++)
        for (int np = 16; np <= NP; np += NP - 16) {
            if (!sc_test_generic(a) || sc_algo_check(a, np) != SC_OK)
                continue;
            sc_model_t model;
            CU_ASSERT_EQUAL_FATAL(sc_model_init(&model, plat, np, node_of, domain_of, NULL, NULL,
                                                sizeof(int)),
                                  SC_OK);
            sc_coll_args_t args = {.sendbuf = area, .recvbuf = area, .bytes = fit(a, 3000),
                                   .root = np / 3, .op = SC_OP_SUM, .type = SC_TYPE_INT};
            sc_schedule_t all = {0}, own = {0};
            sc_schedule_source_t source = {0};
            sc_algo_call_t one = {a, &args};
            int same = sc_schedule_record(a, &args, &model, scratch, &all) == SC_OK &&
                       sc_schedule_source_init(&source, &all) == SC_OK;
            for (int r = 0; same && r < np; r++) {
                sc_op_window_t w = {0};
                int got = source.source.next(&source.source, r, &w);
                same = got >= 0 &&
                       sc_schedule_record_rank(sc_schedule_run_algo, &one, a->name, &model, r, scratch,
                                               &own) == SC_OK &&
                       window_is_own(&w, &own, np);
            }
            if (!same)
                fprintf(stderr, "\n%s np=%d: a rank's shared ops are not its own\n", a->name, np);
            CU_ASSERT_TRUE(same);
            if (!strcmp(a->name, "bruck"))
                CU_ASSERT_EQUAL(all.op_start[np], all.op_start[1]);
            checked++;
            sc_schedule_source_destroy(&source);
            sc_schedule_destroy(&all);
            sc_schedule_destroy(&own);
            sc_model_destroy(&model);
        }
    sc_scratch_destroy(scratch);
    printf(" [%d schedules] ", checked);
    CU_ASSERT_TRUE(checked > 40);
}

/* The players' queue of what is due (sim/replay/due_queue.h) gives its
 * items as a sort by (date, order queued) does, with pushes between pops,
 * dates repeated, -0.0 beside 0.0, and more dates than its recent slots. */
static void test_due_queue_order(void)
{
    enum { N = 20000 };
    static double date[N];
    static int taken[N];
    sc_due_queue_t q = {0};
    unsigned seed = 12345;
    int pushed = 0, popped = 0;
    double now = 0;
    int in_order = 1;
    while (popped < N) {
        seed = seed * 1103515245u + 12345u;
        if (pushed < N && (seed >> 16) % 3 != 0) {
            seed = seed * 1103515245u + 12345u;
            unsigned pick = (seed >> 16) % 1000;
            /* few dates often (ranks alike), many dates sometimes */
            double d = pick < 600 ? now + (double)(pick % 4) : now + (double)pick / 7.0;
            if (pick == 999)
                d = now == 0 ? -0.0 : now;
            date[pushed] = d;
            CU_ASSERT_TRUE_FATAL(sc_due_push(&q, d, NULL, pushed));
            pushed++;
            continue;
        }
        if (sc_due_empty(&q))
            continue;
        /* the first due: the least date, the first queued among them */
        int first = -1;
        for (int i = 0; i < pushed; i++)
            if (!taken[i] && (first < 0 || date[i] < date[first]))
                first = i;
        sc_due_t d = sc_due_pop(&q);
        in_order &= d.rank == first && d.date == date[first] && !d.env;
        taken[d.rank] = 1;
        now = d.date;
        popped++;
    }
    CU_ASSERT_TRUE(in_order);
    CU_ASSERT_TRUE(sc_due_empty(&q));
    sc_due_free(&q);
}

/* SimGrid 3.32 starts maestro's communications detached and scans them
 * all at each completion: a 3.32 build refuses the driver before
 * running, saying why; a 4.1 build takes it. */
static void test_driver_needs_simgrid_41(void)
{
    const sc_platform_t *plat = sc_test_platform("platforms/ib4x.xml");
    if (!plat)
        return;
    sc_run_spec_t spec = {.plat = plat,
                          .algo = sc_algo_find("bruck"),
                          .np = 8,
                          .bytes = 64,
                          .replay = SC_REPLAY_MAESTRO};
    if (sc_driver_available() == SC_OK) {
        CU_ASSERT_EQUAL(sc_run_check(&spec), SC_OK);
        return;
    }
    CU_ASSERT_EQUAL(sc_run_check(&spec), SC_ERR_INPUT);
    CU_ASSERT_PTR_NOT_NULL(strstr(sc_error_message(), "--replay=maestro needs SimGrid 4.1"));
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
    CU_add_test(s, "driver = replay, every algorithm, ib4x", test_driver_same_as_replay_ib4x);
    CU_add_test(s, "driver = replay, uneven nodes, racks, no contention",
                test_driver_same_as_replay_uneven_racks);
    CU_add_test(s, "driver = replay, latency and flow factors", test_driver_same_as_replay_factors);
    CU_add_test(s, "driver needs SimGrid 4.1", test_driver_needs_simgrid_41);
    CU_add_test(s, "live = driver, with data, every algorithm", test_live_same_as_driver);
    CU_add_test(s, "live runs data-dependent code, refuses waits for any",
                test_live_runs_data_and_refuses_waits_for_any);
    CU_add_test(s, "live = actors, programs", test_live_programs_same_as_actors);
    CU_add_test(s, "ranks' shared ops are each rank's own", test_shared_ops_are_each_ranks);
    CU_add_test(s, "what is due comes by date, in the order queued", test_due_queue_order);
}
