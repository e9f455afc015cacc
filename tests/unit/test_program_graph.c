/* A program's communication graph: its statements' graphs added up, loops
 * multiplied out, checked against sums worked out by hand.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include <CUnit/CUnit.h>
#include <stdlib.h>
#include <string.h>

#include "sim/program/graph.h"
#include "suites.h"

enum { MAXP = 16 };

/* The graph as a dense matrix of weights, w[a][b] = w[b][a]. */
static void dense(const sc_graph_t *g, double w[MAXP][MAXP])
{
    memset(w, 0, sizeof(double[MAXP][MAXP]));
    for (igraph_integer_t e = 0; e < igraph_ecount(&g->graph); e++) {
        int a = (int)IGRAPH_FROM(&g->graph, e), b = (int)IGRAPH_TO(&g->graph, e);
        w[a][b] += VECTOR(g->weight)[e];
        if (a != b)
            w[b][a] += VECTOR(g->weight)[e];
    }
}

/* The graph of the program `text` at p ranks on nodes node_of (NULL: not
 * known), into w; the total weight, or -1 if it failed (the error is then
 * in `err`). */
static double graph_on(const char *text, int p, const int *node_of, double w[MAXP][MAXP],
                       sc_err_t *err)
{
    sc_program_t prog;
    int one_node[MAXP] = {0};
    sc_graph_t g = {0};
    *err = sc_program_parse("t.prog", text, strlen(text), &prog);
    if (*err)
        return -1;
    if (!(*err = sc_program_resolve(&prog, p, node_of ? node_of : one_node,
                                    sc_profile_find("mpich-3.2"))) &&
        !(*err = sc_program_graph(&prog, p, node_of, &g)))
        dense(&g, w);
    double total = *err ? -1 : g.total_weight;
    sc_graph_destroy(&g);
    sc_program_destroy(&prog);
    return total;
}

/* The same with the nodes not known. */
static double graph_of(const char *text, int p, double w[MAXP][MAXP], sc_err_t *err)
{
    return graph_on(text, p, NULL, w, err);
}

/* ring allgather of 16-byte blocks, a send and a periodic 1-D halo on 4
 * ranks: ring sends 3 blocks from i to i + 1 (48), the halo 10 bytes each
 * way between neighbours (20), the send 100 from 0 to 3. */
static void test_by_hand(void)
{
    double w[MAXP][MAXP];
    sc_err_t err;
    double total = graph_of("allgather 16 algo=ring\n"
                            "send 100 from=0 to=3\n"
                            "halo 10 dims=1 periodic\n"
                            "compute 1ms\n"
                            "barrier algo=barrier\n",
                            4, w, &err);
    CU_ASSERT_EQUAL_FATAL(err, SC_OK);
    CU_ASSERT_DOUBLE_EQUAL(w[0][1], 68, 0);
    CU_ASSERT_DOUBLE_EQUAL(w[1][2], 68, 0);
    CU_ASSERT_DOUBLE_EQUAL(w[2][3], 68, 0);
    CU_ASSERT_DOUBLE_EQUAL(w[0][3], 168, 0);
    CU_ASSERT_DOUBLE_EQUAL(w[0][2], 0, 0);
    CU_ASSERT_DOUBLE_EQUAL(w[1][3], 0, 0);
    CU_ASSERT_DOUBLE_EQUAL(total, 372, 0);
}

/* The graph of a program equals the sum of the graphs of its statements,
 * each a program of its own. */
static void test_sum_of_statements(void)
{
    static const char *const statements[] = {
        "allgather 24 algo=bruck\n",
        "bcast 1000 algo=bcast-scatter-allgather root=2\n",
        "reduce 64 algo=reduce-mst root=5 type=int op=max\n",
        "allreduce 800 algo=allreduce-mpich type=double\n",
        "halo 40 dims=2x3\n",
        "send 7 from=4 to=1\n",
        "allreduce 800\n", /* the profile's choice, nodes unknown: flat */
    };
    enum { N = sizeof statements / sizeof statements[0] };
    const int p = 6;
    char whole[1024] = "";
    double w[MAXP][MAXP], sum[MAXP][MAXP] = {{0}}, total = 0;
    sc_err_t err;
    for (int i = 0; i < N; i++) {
        strcat(whole, statements[i]);
        double t = graph_of(statements[i], p, w, &err);
        CU_ASSERT_EQUAL_FATAL(err, SC_OK);
        CU_ASSERT(t > 0);
        total += t;
        for (int a = 0; a < p; a++)
            for (int b = 0; b < p; b++)
                sum[a][b] += w[a][b];
    }
    CU_ASSERT_DOUBLE_EQUAL(graph_of(whole, p, w, &err), total, 0);
    CU_ASSERT_EQUAL_FATAL(err, SC_OK);
    for (int a = 0; a < p; a++)
        for (int b = 0; b < p; b++)
            CU_ASSERT_DOUBLE_EQUAL(w[a][b], sum[a][b], 0);
}

/* Nested loops multiply; an until loop adds its allreduce once an
 * iteration (error 1, halved each time, under 0.1 after 5). */
static void test_loops_multiply(void)
{
    double w[MAXP][MAXP], once[MAXP][MAXP];
    sc_err_t err;
    CU_ASSERT_DOUBLE_EQUAL(graph_of("loop 3\n  loop 2\n    send 7 from=1 to=2\n  end\nend\n"
                                    "send 1 from=2 to=1\n",
                                    3, w, &err),
                           43, 0);
    CU_ASSERT_DOUBLE_EQUAL(w[1][2], 43, 0);

    double t1 = graph_of("allgather 16 algo=bruck\n", 5, once, &err);
    double t5 = graph_of("loop 5\n  allgather 16 algo=bruck\n  compute 1us\nend\n", 5, w, &err);
    CU_ASSERT_EQUAL_FATAL(err, SC_OK);
    CU_ASSERT_DOUBLE_EQUAL(t5, 5 * t1, 0);
    for (int a = 0; a < 5; a++)
        for (int b = 0; b < 5; b++)
            CU_ASSERT_DOUBLE_EQUAL(w[a][b], 5 * once[a][b], 0);

    t1 = graph_of("allreduce 8 algo=allreduce-rd\n", 8, once, &err);
    double until =
        graph_of("until 0.1 max=100 algo=allreduce-rd\n  send 3 from=0 to=7\nend\n", 8, w, &err);
    CU_ASSERT_EQUAL_FATAL(err, SC_OK);
    CU_ASSERT_DOUBLE_EQUAL(until, 5 * t1 + 5 * 3, 0);
    CU_ASSERT_DOUBLE_EQUAL(w[0][7], 5 * once[0][7] + 15, 0);
}

/* A call of an algorithm that follows the nodes weighs nothing when they
 * are known: what it sends between nodes depends on their counts of
 * ranks only. Unknown, its flat fallback counts. */
static void test_node_aware_left_out(void)
{
    double w[MAXP][MAXP];
    sc_err_t err;
    const int node_of[8] = {0, 0, 0, 0, 1, 1, 1, 1};
    const char *text = "bcast 1000 algo=bcast-mpich-smp\nsend 5 from=0 to=1\n";
    CU_ASSERT_DOUBLE_EQUAL(graph_on(text, 8, node_of, w, &err), 5, 0);
    CU_ASSERT_EQUAL(err, SC_OK);
    CU_ASSERT(graph_of(text, 8, w, &err) > 5);
    CU_ASSERT_EQUAL(err, SC_OK);
}

/* A call too large to record at its size is recorded smaller and scaled:
 * ring allgather of 1 MiB blocks on 64 ranks moves 63 blocks a rank. */
static void test_large_calls_scale(void)
{
    sc_graph_t g;
    CU_ASSERT_EQUAL_FATAL(
        sc_graph_record_sized(sc_algo_find("ring"), 64, 0, NULL, 1 << 20, SC_TYPE_INT, &g), SC_OK);
    CU_ASSERT_DOUBLE_EQUAL(g.total_weight, 64.0 * 63 * (1 << 20), 0);
    sc_graph_destroy(&g);
    /* a broadcast moves its message to every other rank at least once */
    CU_ASSERT_EQUAL_FATAL(
        sc_graph_record_sized(sc_algo_find("bcast-binomial"), 64, 0, NULL, 1 << 20, SC_TYPE_INT,
                              &g),
        SC_OK);
    CU_ASSERT_DOUBLE_EQUAL(g.total_weight, 63.0 * (1 << 20), 0);
    sc_graph_destroy(&g);
}

/* A call whose messages depend on the data has no graph: refused with
 * the program's line. */
static void test_data_dependent_refused(void)
{
    double w[MAXP][MAXP];
    sc_err_t err;
    graph_of("send 1 from=0 to=1\nallreduce 8 algo=allreduce-early op=land type=int\n", 4, w, &err);
    CU_ASSERT_EQUAL(err, SC_ERR_INPUT);
    CU_ASSERT_PTR_NOT_NULL(strstr(sc_error_message(), "t.prog:2: allreduce-early sends messages"));
}

void sc_suite_program_graph(void)
{
    CU_pSuite s = CU_add_suite("program-graph", NULL, NULL);
    CU_add_test(s, "a small program by hand", test_by_hand);
    CU_add_test(s, "the sum of its statements", test_sum_of_statements);
    CU_add_test(s, "loops multiply", test_loops_multiply);
    CU_add_test(s, "node-aware calls left out", test_node_aware_left_out);
    CU_add_test(s, "large calls scale", test_large_calls_scale);
    CU_add_test(s, "data-dependent calls refused", test_data_dependent_refused);
}
