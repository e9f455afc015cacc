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

/* Every kind of statement, loops, compute in both units, buffers shared
 * between statements; the last rank is named by the test. */
static const char *mixed =
    "loop 2\n"
    "  halo 3000 dims=%s buf=u\n"
    "  compute 20us\n"
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

void sc_suite_program_run(void)
{
    CU_pSuite s = CU_add_suite("program-run", NULL, NULL);
    CU_add_test(s, "results right, simulated = model without contention", test_results_and_model);
    CU_add_test(s, "packing and splitting keep every result", test_packing_keeps_results);
    CU_add_test(s, "the trace of statements", test_trace);
    CU_add_test(s, "errors that depend on the process count", test_run_errors);
}
