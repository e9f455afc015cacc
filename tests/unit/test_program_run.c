/* Programs run: every statement's result checked, times equal to the
 * program's cost model where it is exact, packing that keeps results, and
 * the per-statement trace.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include <CUnit/CUnit.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "helpers.h"
#include "sim/engine/run.h"
#include "sim/program/pack.h"
#include "suites.h"

/* Every kind of statement, loops, compute in both units (one uneven),
 * buffers shared
 * between statements; the last rank is named by the test. */
static const char *mixed =
    "loop 2\n"
    "  halo 3000 dims=%s buf=u\n"
    "  compute 20us spread=0.5\n"
    "  send 5000 from=0 to=%d buf=s\n"
    "  allreduce 4096 algo=allreduce-nonpow2 buf=u\n"
    "  compute 1Mf\n"
    "  bcast 2000 root=%d algo=bcast-binomial\n"
    "  allgather 700 algo=bruck in=a out=b\n"
    "  reduce 40 root=0 op=bxor type=int algo=reduce-mst\n"
    "  barrier algo=barrier\n"
    "end\n";

static sc_err_t make(const char *dims, int np, sc_program_t *prog)
{
    char text[1024];
    snprintf(text, sizeof text, mixed, dims, np - 1, np > 2 ? 2 : 0);
    return sc_program_parse("mixed.prog", text, strlen(text), prog);
}

static int run(const sc_platform_t *plat, const sc_program_t *prog, int np, int payload,
               int trace, sc_run_result_t *res)
{
    sc_run_spec_t spec = {.plat = plat, .program = prog, .np = np, .payload = payload,
                          .trace = trace};
    if (sc_run(&spec, res) != SC_OK) {
        fprintf(stderr, "\n%s np=%d: %s\n", plat->path, np, sc_error_message());
        CU_FAIL("program did not run");
        return 0;
    }
    return 1;
}

/* Right results everywhere, and simulated = model where no two messages
 * share a link, halos of 1, 2 and 3 dimensions, wrapped or not. */
static void test_results_and_model(void)
{
    static const char *const platforms[] = {"tests/platforms/nocontention.xml",
                                            "tests/platforms/loggp.xml"};
    static const char *const dims[] = {"1", "2 periodic", "3", "3 periodic"};
    static const int nps[] = {2, 5, 12, 16, 28};
    int runs = 0;
    double worst = 0;
    for (int f = 0; f < 2; f++) {
        const sc_platform_t *plat = sc_test_platform(platforms[f]);
        if (!plat)
            return;
        for (size_t d = 0; d < sizeof dims / sizeof dims[0]; d++)
            for (size_t i = 0; i < sizeof nps / sizeof nps[0]; i++) {
                int np = nps[i];
                if (np > plat->total_cores)
                    continue;
                sc_program_t prog;
                CU_ASSERT_EQUAL_FATAL(make(dims[d], np, &prog), SC_OK);
                sc_run_result_t res;
                if (run(plat, &prog, np, 1, 0, &res)) {
                    runs++;
                    double rel = fabs(res.sim_time_s - res.model_time_s) / res.model_time_s;
                    worst = rel > worst ? rel : worst;
                    if (res.valid != 1 || !(rel < 1e-9)) {
                        fprintf(stderr, "\n%s dims=%s np=%d: valid %d, simulated %.12g, model %.12g\n",
                                platforms[f], dims[d], np, res.valid, res.sim_time_s,
                                res.model_time_s);
                        CU_FAIL("wrong result or time");
                    }
                    CU_ASSERT_EQUAL(res.statements, 2 * 7);
                    sc_run_result_destroy(&res);
                }
                sc_program_destroy(&prog);
            }
    }
    printf(" [%d runs, largest relative difference %.2g] ", runs, worst);
    CU_ASSERT(runs >= 30);
}

static sc_err_t fixed_interval(void *ctx, const sc_stmt_t *st, sc_interval_t *iv)
{
    (void)st;
    *iv = *(const sc_interval_t *)ctx;
    return SC_OK;
}

/* Packed and split, every statement as written still gets its right
 * result, and the model still equals the simulation, copies included. A
 * packing that put a piece in the wrong place would be caught. */
static void test_packing_keeps_results(void)
{
    const sc_platform_t *plat = sc_test_platform("tests/platforms/nocontention.xml");
    if (!plat)
        return;
    const char *text = "loop 3\n"
                       "  allreduce 48 buf=a algo=allreduce-mst\n"
                       "  allreduce 48 buf=b algo=allreduce-mst\n"
                       "  allreduce 8000 buf=c algo=allreduce-mst\n"
                       "  allgather 100 in=x out=y algo=ring\n"
                       "  allgather 60 in=z out=w algo=ring\n"
                       "  allgather 5000 in=v out=t algo=ring\n"
                       "  bcast 30 root=1 algo=bcast-binomial\n"
                       "  bcast 50 root=1 algo=bcast-binomial\n"
                       "  halo 40 dims=2 buf=h1\n"
                       "  halo 40 dims=2 buf=h2\n"
                       "  send 10 from=1 to=3 buf=m1\n"
                       "  send 20 from=1 to=3 buf=m2\n"
                       "  send 3000 from=1 to=3 buf=m3\n"
                       "  scatter 70 root=2 in=s1 out=r1 algo=scatter-ompi-binomial\n"
                       "  scatter 90 root=2 in=s2 out=r2 algo=scatter-ompi-binomial\n"
                       "  scatter 3000 root=1 in=s3 out=r3 algo=scatter-ompi-linear\n"
                       "  scatter 2100 root=3 buf=s4 algo=scatter-ompi-linear-nb\n"
                       "end\n";
    sc_program_t prog, packed;
    CU_ASSERT_EQUAL_FATAL(sc_program_parse("p.prog", text, strlen(text), &prog), SC_OK);
    sc_interval_t iv = {512, 1024};
    CU_ASSERT_EQUAL_FATAL(sc_program_pack(&prog, fixed_interval, &iv, &packed), SC_OK);
    /* Two packed allreduces become one; 8000 bytes become 8 chunks. */
    CU_ASSERT(packed.nstmts > prog.nstmts);
    sc_run_result_t plain, pk;
    for (int np = 4; np <= 16; np += 12) {
        if (!run(plat, &prog, np, 1, 0, &plain) || !run(plat, &packed, np, 1, 0, &pk))
            return;
        CU_ASSERT_EQUAL(plain.valid, 1);
        CU_ASSERT_EQUAL(pk.valid, 1);
        CU_ASSERT_DOUBLE_EQUAL(pk.model_time_s, pk.sim_time_s, 1e-9 * pk.sim_time_s);
        CU_ASSERT_DOUBLE_EQUAL(plain.model_time_s, plain.sim_time_s, 1e-9 * plain.sim_time_s);
        /* The same data crosses the network, packed or not; only headers
         * (fewer or more messages) differ. */
        CU_ASSERT(pk.messages[SC_LEVEL_INTER] + pk.messages[SC_LEVEL_INTRA] !=
                  plain.messages[SC_LEVEL_INTER] + plain.messages[SC_LEVEL_INTRA]);
        sc_run_result_destroy(&plain);
        sc_run_result_destroy(&pk);
    }
    /* A split that sends one chunk twice and another never: caught. */
    for (int i = 0; i + 1 < packed.nstmts; i++) {
        sc_piece_t *a = packed.stmts[i].pieces, *b = packed.stmts[i + 1].pieces;
        if (packed.stmts[i].kind == SC_STMT_CALL && packed.stmts[i].npieces == 1 &&
            packed.stmts[i + 1].npieces == 1 && a->origin == b->origin && a->offset == 0) {
            b->offset = 0;
            break;
        }
    }
    if (run(plat, &packed, 4, 1, 0, &pk)) {
        CU_ASSERT_EQUAL(pk.valid, 0);
        sc_run_result_destroy(&pk);
    }
    sc_program_destroy(&packed);
    sc_program_destroy(&prog);
}

/* One record per communication statement run, adding up to the totals. */
static void test_trace(void)
{
    const sc_platform_t *plat = sc_test_platform("platforms/gige.xml");
    if (!plat)
        return;
    sc_program_t prog;
    CU_ASSERT_EQUAL_FATAL(make("2", 24, &prog), SC_OK);
    sc_run_result_t res;
    if (!run(plat, &prog, 24, 1, 1, &res))
        return;
    CU_ASSERT_EQUAL(res.nops, 14);
    double bytes[SC_NLEVELS] = {0};
    long messages = 0;
    for (long k = 0; k < res.nops; k++) {
        const sc_op_record_t *op = &res.ops[k];
        CU_ASSERT(op->start <= op->end);
        CU_ASSERT(k == 0 || op->end >= res.ops[k - 1].start);
        for (int l = 0; l < SC_NLEVELS; l++) {
            bytes[l] += op->bytes[l];
            messages += op->messages[l];
        }
        CU_ASSERT_EQUAL(op->valid, 1);
    }
    CU_ASSERT_EQUAL(res.ops[0].stmt, 1);  /* the halo, inside the loop */
    CU_ASSERT_EQUAL(res.ops[13].stmt, 9); /* the barrier */
    CU_ASSERT_DOUBLE_EQUAL(bytes[SC_LEVEL_INTER], res.bytes[SC_LEVEL_INTER], 0.5);
    CU_ASSERT_DOUBLE_EQUAL(bytes[SC_LEVEL_INTRA], res.bytes[SC_LEVEL_INTRA], 0.5);
    CU_ASSERT_EQUAL(messages, res.messages[SC_LEVEL_INTER] + res.messages[SC_LEVEL_INTRA]);
    sc_run_result_destroy(&res);
    sc_program_destroy(&prog);
}

/* What only the process count decides is refused before anything runs,
 * with the file and line. */
static void test_run_errors(void)
{
    const sc_platform_t *plat = sc_test_platform("platforms/gige.xml");
    if (!plat)
        return;
    sc_program_t prog;
    CU_ASSERT_EQUAL_FATAL(make("5x5", 24, &prog), SC_OK);
    sc_run_spec_t spec = {.plat = plat, .program = &prog, .np = 24};
    CU_ASSERT_EQUAL(sc_run_check(&spec), SC_ERR_INPUT);
    CU_ASSERT_PTR_NOT_NULL(strstr(sc_error_message(), "mixed.prog:2: halo dims=5x5 is a grid of 25"));
    spec.np = 25;
    CU_ASSERT_EQUAL(sc_run_check(&spec), SC_OK);
    spec.np = 65;
    CU_ASSERT_EQUAL(sc_run_check(&spec), SC_ERR_INPUT);
    sc_program_destroy(&prog);
    /* A program whose calls name no algorithm needs a profile. */
    const char *text = "allreduce 8\n";
    CU_ASSERT_EQUAL_FATAL(sc_program_parse("q.prog", text, strlen(text), &prog), SC_OK);
    spec = (sc_run_spec_t){.plat = plat, .program = &prog, .np = 8};
    CU_ASSERT_EQUAL(sc_run_check(&spec), SC_ERR_INPUT);
    spec.profile = sc_profile_find("mpich-3.2");
    CU_ASSERT_EQUAL(sc_run_check(&spec), SC_OK);
    sc_program_destroy(&prog);
}

/* A solver's loop: `compute 30us spread=2; compute 1Mf` (the last rank
 * computing 90us and 1Mf) is what a bet runs ahead of the halo. */
static const char *solver =
    "until 1e-3 max=%ld error=1 rate=0.7 algo=%s%s\n"
    "  compute 30us spread=2\n"
    "  compute 1Mf\n"
    "  halo 100 dims=1\n"
    "  compute 5us\n"
    "end\n";

static int run_solver(const sc_platform_t *plat, int np, long max, const char *algo,
                      const char *predict, int payload, sc_run_result_t *res)
{
    char text[512];
    snprintf(text, sizeof text, solver, max, algo, predict);
    sc_program_t prog;
    if (sc_program_parse("solver.prog", text, strlen(text), &prog) != SC_OK) {
        fprintf(stderr, "\n%s\n", sc_error_message());
        CU_FAIL("solver did not parse");
        return 0;
    }
    int ok = run(plat, &prog, np, payload, 1, res);
    sc_program_destroy(&prog);
    return ok;
}

/* Until loops end where the global error passes the tolerance (21
 * iterations: 0.7^20 < 1e-3 <= 0.7^19) or at max=, each iteration's sum
 * right (allreduce-if's +inf only where a rank's own error decides),
 * whichever allreduce, with or without prediction; simulated = model
 * without contention, where a bet's computing has a core of its own (at
 * most half as many ranks as cores on the node: else the allreduce's
 * combining shares cores with it, which only slows it). */
static void test_until_loops(void)
{
    static const char *const platforms[] = {"tests/platforms/nocontention.xml",
                                            "tests/platforms/loggp.xml"};
    static const char *const algos[] = {"allreduce-rd", "allreduce-nonpow2", "allreduce-if"};
    static const char *const predicts[] = {"", " predict save=3us rollback=7us"};
    static const int nps[] = {1, 2, 3, 5, 8, 13, 16};
    static const long maxes[] = {4, 100};
    int runs = 0;
    for (int f = 0; f < 2; f++) {
        const sc_platform_t *plat = sc_test_platform(platforms[f]);
        if (!plat)
            return;
        for (size_t i = 0; i < sizeof nps / sizeof nps[0]; i++)
            for (int a = 0; a < 3; a++)
                for (int pr = 0; pr < 2; pr++)
                    for (int m = 0; m < 2; m++) {
                        sc_run_result_t res;
                        if (nps[i] > plat->total_cores ||
                            !run_solver(plat, nps[i], maxes[m], algos[a], predicts[pr], 1, &res))
                            continue;
                        runs++;
                        long iterations = maxes[m] < 21 ? maxes[m] : 21;
                        /* allreduce-if has no model */
                        int exact = a < 2 && (pr == 0 || 2 * nps[i] <= plat->nodes[0].cores);
                        double rel = (res.sim_time_s - res.model_time_s) / res.model_time_s;
                        if (res.valid != 1 || res.statements != 2 * iterations ||
                            res.nops != 2 * iterations || (exact && !(fabs(rel) < 1e-9)) ||
                            (a < 2 && !(rel > -1e-9))) {
                            fprintf(stderr,
                                    "\n%s np=%d %s%s max=%ld: valid %d, %ld statements, "
                                    "simulated %.12g, model %.12g\n",
                                    platforms[f], nps[i], algos[a], predicts[pr], maxes[m],
                                    res.valid, res.statements, res.sim_time_s, res.model_time_s);
                            CU_FAIL("wrong solver loop");
                        }
                        sc_run_result_destroy(&res);
                    }
    }
    printf(" [%d runs] ", runs);
    CU_ASSERT(runs >= 120);
}

/* Prediction: the bet overlaps the next iteration's computing with the
 * allreduce, so it saves time; a lost bet costs exactly rollback=, each
 * bet exactly save=; nothing is rolled back when the loop stops at max=.
 * And allreduce-if, when no rank's error alone decides, costs what
 * recursive doubling costs, and less when ranks decide. */
static void test_until_prediction(void)
{
    const sc_platform_t *plat = sc_test_platform("tests/platforms/nocontention.xml");
    sc_run_result_t res;
    double t[6];
    static const char *const predicts[] = {"", " predict", " predict rollback=1ms",
                                           " predict save=10us"};
    for (int k = 0; plat && k < 4; k++) {
        if (!run_solver(plat, 4, 100, "allreduce-rd", predicts[k], 0, &res))
            return;
        t[k] = res.sim_time_s;
        sc_run_result_destroy(&res);
    }
    if (!plat)
        return;
    CU_ASSERT(t[1] < t[0]);
    CU_ASSERT_DOUBLE_EQUAL(t[2] - t[1], 1e-3, 1e-9 * t[2]);
    CU_ASSERT_DOUBLE_EQUAL(t[3] - t[1], 21 * 10e-6, 1e-9 * t[3]); /* the lost bet too */
    /* Across nodes the allreduce takes longer, and the bet hides more. */
    for (int k = 0; k < 2; k++) {
        if (!run_solver(plat, 16, 100, "allreduce-rd", predicts[k], 0, &res))
            return;
        t[4 + k] = res.sim_time_s;
        sc_run_result_destroy(&res);
    }
    printf(" [np 4: blocking %.6g s, predicted %.6g s; np 16: %.6g, %.6g] ", t[0], t[1], t[4],
           t[5]);
    CU_ASSERT(t[5] < t[4] && t[4] - t[5] > t[0] - t[1]);
    /* At max=4 the loop ends without a bet on a fifth iteration. */
    if (!run_solver(plat, 4, 4, "allreduce-rd", " predict", 0, &res))
        return;
    t[4] = res.sim_time_s;
    sc_run_result_destroy(&res);
    if (!run_solver(plat, 4, 4, "allreduce-rd", " predict rollback=1ms", 0, &res))
        return;
    CU_ASSERT_DOUBLE_EQUAL(res.sim_time_s, t[4], 1e-9 * t[4]);
    sc_run_result_destroy(&res);
    /* error=1e-9: no rank ever decides; the loop runs to max. */
    const char *quiet = "until 1e-6 max=5 error=1e-9 algo=%s\n  compute 1us\nend\n";
    for (int a = 0; a < 2; a++) {
        char text[256];
        snprintf(text, sizeof text, quiet, a ? "allreduce-if" : "allreduce-rd");
        sc_program_t prog;
        CU_ASSERT_EQUAL_FATAL(sc_program_parse("q.prog", text, strlen(text), &prog), SC_OK);
        if (run(plat, &prog, 16, 1, 0, &res)) {
            CU_ASSERT_EQUAL(res.valid, 1);
            t[a] = res.sim_time_s;
            sc_run_result_destroy(&res);
        }
        sc_program_destroy(&prog);
    }
    CU_ASSERT_DOUBLE_EQUAL(t[1], t[0], 1e-9 * t[0]);
    /* error=1e308, near the largest double: each rank's share is right
     * (2 * error overflowed to inf, and the sum was wrong). */
    const char *huge = "until 1e-3 max=5 error=1e308 algo=allreduce-rd\n  compute 1us\nend\n";
    sc_program_t prog;
    CU_ASSERT_EQUAL_FATAL(sc_program_parse("h.prog", huge, strlen(huge), &prog), SC_OK);
    if (run(plat, &prog, 16, 1, 0, &res)) {
        CU_ASSERT_EQUAL(res.valid, 1);
        sc_run_result_destroy(&res);
    }
    sc_program_destroy(&prog);
    /* error=1: at first every rank decides, at the end none does. */
    if (run_solver(plat, 16, 100, "allreduce-if", "", 1, &res)) {
        CU_ASSERT_EQUAL(res.valid, 1);
        CU_ASSERT(res.ops[1].end - res.ops[1].start < res.ops[41].end - res.ops[41].start);
        sc_run_result_destroy(&res);
    }
}

void sc_suite_program_run(void)
{
    CU_pSuite s = CU_add_suite("program-run", NULL, NULL);
    CU_add_test(s, "results right, simulated = model without contention", test_results_and_model);
    CU_add_test(s, "packing and splitting keep every result", test_packing_keeps_results);
    CU_add_test(s, "the trace of statements", test_trace);
    CU_add_test(s, "errors that depend on the process count", test_run_errors);
    CU_add_test(s, "until loops: iterations, sums, simulated = model", test_until_loops);
    CU_add_test(s, "until loops: prediction's gain and costs, allreduce-if",
                test_until_prediction);
}
