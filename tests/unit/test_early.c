/* Early-exit reductions (reference 003): exact results for every deciding
 * operation, process count and placement of the deciders; what a decision
 * saves and what it never costs.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include <CUnit/CUnit.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "helpers.h"
#include "sim/program/program.h"
#include "suites.h"

#define BIG "tests/platforms/nocontention-102.xml"

static const sc_op_t deciding_ops[] = {SC_OP_LAND, SC_OP_LOR, SC_OP_BAND, SC_OP_BOR};

/* none, first, last, middle, several at once, everyone; and the standard
 * pattern (NULL), where rank 0 decides a one-element land or lor. */
static int decider_cases(int p, sc_deciders_t cases[7])
{
    sc_deciders_parse("none", &cases[0]);
    sc_deciders_parse("first", &cases[1]);
    sc_deciders_parse("last", &cases[2]);
    sc_deciders_parse("middle", &cases[3]);
    cases[4] = (sc_deciders_t){
        .kind = SC_DECIDERS_RANKS, .nranks = 3, .ranks = {p / 3, p - 2 > 0 ? p - 2 : 0, p / 2}};
    sc_deciders_parse("1.0", &cases[5]);
    sc_deciders_parse("0.25", &cases[6]);
    return 7;
}

static int run(const sc_run_spec_t *spec, sc_run_result_t *res)
{
    if (sc_run(spec, res) == SC_OK)
        return 1;
    fprintf(stderr, "\n%s np=%d %zu bytes %s: %s\n", spec->algo->name, spec->np, spec->bytes,
            sc_op_name(spec->op), sc_error_message());
    CU_FAIL("early-exit run failed");
    return 0;
}

/* Both early-exit algorithms, every deciding op, np 1..33, 64, 100, every
 * case of deciders, one element and 3000 (rendezvous across nodes), roots
 * spread over the ranks: the result is exact, and a size-only run, which
 * knows who decides without data, takes the same simulated time and sends
 * the same messages. */
static void test_exact(void)
{
    const sc_platform_t *plat = sc_test_platform(BIG);
    static const size_t elems[] = {1, 3000};
    int runs = 0;
    long cases_run = 0; /* under sampling, one in k in turn (sc_test_sampled) */
    for (int a = 0; a < 2; a++)
        for (int np = 1; plat && np <= 100; np = np < 33 ? np + 1 : np == 33 ? 64 : np + 36) {
            const sc_algo_t *early = sc_algo_find(a ? "reduce-early" : "allreduce-early");
            CU_ASSERT_PTR_NOT_NULL_FATAL(early);
            sc_deciders_t cases[7];
            int ncases = decider_cases(np, cases);
            for (int c = -1; c < ncases; c++)
                for (int e = 0; e < 2; e++) {
                    if (!sc_test_sampled(cases_run++))
                        continue;
                    sc_op_t op = deciding_ops[(np + c + e + 1) % 4];
                    sc_run_spec_t spec = {.plat = plat,
                                          .algo = early,
                                          .np = np,
                                          .bytes = elems[e] * sizeof(int),
                                          .op = op,
                                          .root = (c + 1) * np / 8 % np,
                                          .type = SC_TYPE_INT,
                                          .payload = 1,
                                          .placement = (sc_placement_t)(np % 2),
                                          .deciders = c < 0 ? NULL : &cases[c]};
                    sc_run_result_t res, sizes;
                    if (!run(&spec, &res))
                        continue;
                    runs++;
                    spec.payload = 0;
                    if (res.valid != 1 || !run(&spec, &sizes)) {
                        fprintf(stderr, "\n%s np=%d %s case %d: WRONG RESULT\n", early->name, np,
                                sc_op_name(op), c);
                        CU_FAIL("wrong result");
                        sc_run_result_destroy(&res);
                        continue;
                    }
                    CU_ASSERT_DOUBLE_EQUAL(sizes.sim_time_s, res.sim_time_s,
                                           1e-12 * res.sim_time_s);
                    CU_ASSERT_EQUAL(sizes.messages[SC_LEVEL_INTER], res.messages[SC_LEVEL_INTER]);
                    CU_ASSERT_EQUAL(sizes.messages[SC_LEVEL_INTRA], res.messages[SC_LEVEL_INTRA]);
                    sc_run_result_destroy(&sizes);
                    sc_run_result_destroy(&res);
                }
        }
    printf(" [%d runs] ", runs);
    CU_ASSERT_TRUE(runs >= 2 * 35 * 8 * 2 / sc_test_sample());
}

/* Without a decider the algorithm is MPICH's recursive doubling, message
 * for message and to the simulated second; with deciders it never sends
 * more messages or bytes (each pair of peers one message each way), and
 * everyone deciding is faster than nobody. */
static void test_costs(void)
{
    const sc_platform_t *plat = sc_test_platform("platforms/gige.xml");
    const sc_algo_t *early = sc_algo_find("allreduce-early"), *rd = sc_algo_find("allreduce-rd");
    static const int nps[] = {2, 5, 8, 13, 24, 31, 64};
    static const size_t bytes[] = {4, 4 * 3000, 4 * 65536};
    for (size_t i = 0; plat && i < sizeof nps / sizeof nps[0]; i++)
        for (size_t b = 0; b < sizeof bytes / sizeof bytes[0]; b++) {
            int np = nps[i];
            sc_deciders_t cases[7];
            int ncases = decider_cases(np, cases);
            sc_run_spec_t spec = {.plat = plat,
                                  .algo = rd,
                                  .np = np,
                                  .bytes = bytes[b],
                                  .op = SC_OP_BOR,
                                  .type = SC_TYPE_INT,
                                  .deciders = &cases[0]};
            sc_run_result_t base, none;
            if (!run(&spec, &base))
                continue;
            spec.algo = early;
            if (run(&spec, &none)) {
                CU_ASSERT_DOUBLE_EQUAL(none.sim_time_s, base.sim_time_s, 1e-9 * base.sim_time_s);
                for (int l = 0; l < SC_NLEVELS; l++) {
                    CU_ASSERT_EQUAL(none.messages[l], base.messages[l]);
                    CU_ASSERT_DOUBLE_EQUAL(none.bytes[l], base.bytes[l], 0.5);
                }
            }
            for (int c = 1; c < ncases; c++) {
                spec.deciders = &cases[c];
                sc_run_result_t res;
                if (!run(&spec, &res))
                    continue;
                for (int l = 0; l < SC_NLEVELS; l++) {
                    CU_ASSERT_EQUAL(res.messages[l], base.messages[l]);
                    CU_ASSERT_TRUE(res.bytes[l] <= base.bytes[l] + 0.5);
                }
                if (c == 5) /* everyone decides */
                    CU_ASSERT_TRUE(res.sim_time_s < none.sim_time_s);
                sc_run_result_destroy(&res);
            }
            sc_run_result_destroy(&none);
            sc_run_result_destroy(&base);
        }
}

/* Operations one value cannot decide are refused before anything runs,
 * and so are deciders that do not exist. */
static void test_refused(void)
{
    const sc_platform_t *plat = sc_test_platform("platforms/gige.xml");
    if (!plat)
        return;
    sc_deciders_t d;
    sc_run_spec_t spec = {.plat = plat,
                          .algo = sc_algo_find("allreduce-early"),
                          .np = 8,
                          .bytes = 8,
                          .op = SC_OP_SUM,
                          .type = SC_TYPE_INT};
    CU_ASSERT_EQUAL(sc_run_check(&spec), SC_ERR_INPUT);
    CU_ASSERT_PTR_NOT_NULL(strstr(sc_error_message(), "land, lor, band or bor, not sum"));
    spec.op = SC_OP_LAND;
    CU_ASSERT_EQUAL(sc_deciders_parse("8", &d), SC_OK);
    spec.deciders = &d;
    CU_ASSERT_EQUAL(sc_run_check(&spec), SC_ERR_INPUT);
    CU_ASSERT_PTR_NOT_NULL(strstr(sc_error_message(), "rank 8 does not exist"));
    CU_ASSERT_EQUAL(sc_deciders_parse("0+5+63", &d), SC_OK);
    CU_ASSERT_EQUAL(d.nranks, 3);
    CU_ASSERT_EQUAL(sc_deciders_parse("2+", &d), SC_ERR_INPUT);
    CU_ASSERT_EQUAL(sc_deciders_parse("-1", &d), SC_ERR_INPUT);
    CU_ASSERT_EQUAL(sc_deciders_parse("1.01", &d), SC_ERR_INPUT);
    CU_ASSERT_EQUAL(sc_deciders_parse("nan.", &d), SC_ERR_INPUT);
    CU_ASSERT_EQUAL(sc_deciders_parse("", &d), SC_ERR_INPUT);
}

/* A fraction picks about that share of the ranks, differently per call. */
static void test_fraction(void)
{
    sc_deciders_t d;
    CU_ASSERT_EQUAL_FATAL(sc_deciders_parse("0.1", &d), SC_OK);
    int picked = 0, differ = 0;
    for (int r = 0; r < 10000; r++) {
        picked += sc_deciders_has(&d, r, 10000, 0);
        differ += sc_deciders_has(&d, r, 10000, 0) != sc_deciders_has(&d, r, 10000, 1);
    }
    CU_ASSERT_TRUE(picked > 900 && picked < 1100);
    CU_ASSERT_TRUE(differ > 1500);
}

/* A program of `calls` speculative reductions of `elems` elements. */
static int spec_program(sc_op_t op, sc_type_t type, size_t elems, int calls, sc_program_t *prog)
{
    char text[256];
    snprintf(text, sizeof text, "loop %d\n  allreduce %zu algo=allreduce-spec op=%s type=%s\nend\n",
             calls, elems * sc_type_size(type), sc_op_name(op), sc_type_name(type));
    return sc_program_parse("spec.prog", text, strlen(text), prog) == SC_OK;
}

/* Speculative MAX and MIN: exact in every call (the program's calls are
 * checked one by one), with data and size-only agreeing on time, messages
 * and bets; with the extreme fixed, every bet after the first calls is
 * right; moving at every call, bets go wrong and the result stays exact. */
static void test_speculation(void)
{
    const sc_platform_t *plat = sc_test_platform(BIG);
    static const sc_extreme_t fixed = {3, 0}, moving = {SC_DECIDER_LAST, 0.3}, always = {0, 1};
    const sc_extreme_t *cases[] = {NULL, &fixed, &moving, &always};
    int runs = 0;
    long cases_run = 0; /* under sampling, one in k in turn (sc_test_sampled) */
    for (int np = 1; plat && np <= 100; np = np < 33 ? np + 1 : np == 33 ? 64 : np + 36)
        for (int c = 0; c < 4; c++)
            for (int e = 0; e < 2; e++) {
                if (!sc_test_sampled(cases_run++))
                    continue;
                sc_op_t op = (np + c + e) % 2 ? SC_OP_MAX : SC_OP_MIN;
                sc_type_t type = (np + c) % 3 ? SC_TYPE_INT : SC_TYPE_DOUBLE;
                sc_program_t prog;
                CU_ASSERT_FATAL(spec_program(op, type, e ? 3000 : 1, 6, &prog));
                sc_run_spec_t spec = {.plat = plat,
                                      .program = &prog,
                                      .np = np,
                                      .payload = 1,
                                      .placement = (sc_placement_t)(np % 2),
                                      .extreme = cases[c] && cases[c]->rank < np ? cases[c] : NULL};
                sc_run_result_t res, sizes;
                if (sc_run(&spec, &res) != SC_OK) {
                    fprintf(stderr, "\nallreduce-spec np=%d case %d: %s\n", np, c,
                            sc_error_message());
                    CU_FAIL("speculative run failed");
                    sc_program_destroy(&prog);
                    continue;
                }
                runs++;
                if (res.valid != 1)
                    fprintf(stderr, "\nallreduce-spec np=%d %s/%s case %d: WRONG RESULT\n", np,
                            sc_op_name(op), sc_type_name(type), c);
                CU_ASSERT_EQUAL(res.valid, 1);
                CU_ASSERT_TRUE(res.mispredicted <= res.speculated);
                if (np > 1 && spec.extreme == &fixed) {
                    CU_ASSERT_EQUAL(res.speculated, 5); /* every call after the first */
                    CU_ASSERT_EQUAL(res.mispredicted, 0);
                }
                spec.payload = 0;
                if (sc_run(&spec, &sizes) == SC_OK) {
                    CU_ASSERT_DOUBLE_EQUAL(sizes.sim_time_s, res.sim_time_s,
                                           1e-12 * res.sim_time_s);
                    CU_ASSERT_EQUAL(sizes.messages[SC_LEVEL_INTER], res.messages[SC_LEVEL_INTER]);
                    CU_ASSERT_EQUAL(sizes.speculated, res.speculated);
                    CU_ASSERT_EQUAL(sizes.mispredicted, res.mispredicted);
                    sc_run_result_destroy(&sizes);
                } else {
                    CU_FAIL(sc_error_message());
                }
                sc_run_result_destroy(&res);
                sc_program_destroy(&prog);
            }
    printf(" [%d runs] ", runs);
    CU_ASSERT_TRUE(runs >= 35 * 8 / sc_test_sample());
}

/* A bet that holds costs a broadcast and a one-int check instead of the
 * reduction: with the extreme fixed, 64 KiB MAX at 64 ranks on gige is
 * faster than recursive doubling. */
static void test_speculation_saves(void)
{
    const sc_platform_t *plat = sc_test_platform("platforms/gige.xml");
    static const sc_extreme_t fixed = {5, 0};
    sc_program_t prog;
    if (!plat || !spec_program(SC_OP_MAX, SC_TYPE_INT, 16384, 10, &prog))
        return;
    sc_run_spec_t spec = {.plat = plat, .program = &prog, .np = 64, .extreme = &fixed};
    sc_run_result_t res, base;
    CU_ASSERT_EQUAL_FATAL(sc_run(&spec, &res), SC_OK);
    sc_program_destroy(&prog);
    sc_run_spec_t rd = {.plat = plat,
                        .algo = sc_algo_find("allreduce-rd"),
                        .np = 64,
                        .bytes = 65536,
                        .op = SC_OP_MAX,
                        .type = SC_TYPE_INT};
    CU_ASSERT_EQUAL_FATAL(sc_run(&rd, &base), SC_OK);
    CU_ASSERT_EQUAL(res.speculated, 9);
    CU_ASSERT_TRUE(res.sim_time_s < 10 * base.sim_time_s);
    sc_run_result_destroy(&res);
    sc_run_result_destroy(&base);
}

void sc_suite_early(void)
{
    CU_pSuite s = CU_add_suite("early", NULL, NULL);
    CU_add_test(s, "exact results", test_exact);
    CU_add_test(s, "no more messages than recursive doubling", test_costs);
    CU_add_test(s, "bad input refused", test_refused);
    CU_add_test(s, "fractions of deciders", test_fraction);
    CU_add_test(s, "speculative max and min", test_speculation);
    CU_add_test(s, "a right bet saves time", test_speculation_saves);
}
