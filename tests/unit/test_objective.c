/* Objectives beyond the cut: node loads, swaps whose outcome is known
 * before they are made, and the bottleneck never worse than the mappings
 * it starts from.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include <CUnit/CUnit.h>
#include <stdlib.h>
#include <string.h>

#include "algorithms/mapping/search.h"
#include "helpers.h"
#include "suites.h"

/* A graph of p vertices from (a, b, weight) triples. */
static void make_graph(int p, const double (*edges)[3], int n, sc_graph_t *g)
{
    sc_graph_sum_t sum;
    CU_ASSERT_EQUAL_FATAL(sc_graph_sum_init(&sum, p), SC_OK);
    for (int e = 0; e < n; e++)
        CU_ASSERT_EQUAL(sc_graph_sum_edge(&sum, (int)edges[e][0], (int)edges[e][1], edges[e][2]),
                        SC_OK);
    CU_ASSERT_EQUAL_FATAL(sc_graph_sum_finish(&sum, g), SC_OK);
    sc_graph_sum_destroy(&sum);
}

/* Three nodes of two: 0-1 and 2-3 and 4-5 heavy pairs, 0 also talks to
 * 2 and 4. */
static void test_loads_by_hand(void)
{
    const double edges[][3] = {{0, 1, 10}, {2, 3, 10}, {4, 5, 10}, {0, 2, 3}, {0, 4, 5}};
    sc_graph_t g;
    make_graph(6, edges, 5, &g);
    int nodes[] = {0, 0, 1, 1, 2, 2};
    double load[3];
    sc_bottleneck_t b = sc_graph_bottleneck(&g, nodes, 3, load);
    CU_ASSERT_DOUBLE_EQUAL(load[0], 8, 0);
    CU_ASSERT_DOUBLE_EQUAL(load[1], 3, 0);
    CU_ASSERT_DOUBLE_EQUAL(load[2], 5, 0);
    CU_ASSERT_DOUBLE_EQUAL(b.load, 8, 0);
    CU_ASSERT_EQUAL(b.busiest, 1);
    CU_ASSERT_DOUBLE_EQUAL(b.cut, 8, 0);
    sc_graph_destroy(&g);
}

/* Every swap's outcome, worked out from the loads of two nodes, is the
 * bottleneck measured after making it. */
static void test_swaps_predicted(void)
{
    const char *algos[] = {"bruck", "ring", "bcast-binomial", "allreduce-mpich"};
    int slot_node[24], pi[24], node_of[24];
    for (int i = 0; i < 24; i++)
        slot_node[i] = i / 5; /* nodes of 5, the last of 4 */
    for (int a = 0; a < 4; a++) {
        sc_graph_t g;
        CU_ASSERT_EQUAL_FATAL(sc_graph_record(sc_algo_find(algos[a]), 24, 0, &g), SC_OK);
        for (int i = 0; i < 24; i++)
            pi[i] = (7 * i + a) % 24; /* a scrambled layout */
        sc_swap_t *swaps;
        long n;
        CU_ASSERT_EQUAL_FATAL(sc_mapping_swaps(&g, 5, slot_node, pi, &swaps, &n), SC_OK);
        CU_ASSERT(n > 0);
        for (long k = 0; k < n; k++) {
            int x = swaps[k].slot_a, y = swaps[k].slot_b;
            CU_ASSERT_NOT_EQUAL(slot_node[x], slot_node[y]);
            int t = pi[x];
            pi[x] = pi[y];
            pi[y] = t;
            for (int i = 0; i < 24; i++)
                node_of[pi[i]] = slot_node[i];
            sc_bottleneck_t b = sc_graph_bottleneck(&g, node_of, 5, NULL);
            CU_ASSERT_EQUAL(sc_bottleneck_compare(&b, &swaps[k].after), 0);
            pi[y] = pi[x];
            pi[x] = t;
            if (k)
                CU_ASSERT(sc_bottleneck_compare(&swaps[k - 1].after, &swaps[k].after) <= 0);
        }
        free(swaps);
        sc_graph_destroy(&g);
    }
}

static sc_bottleneck_t load_of(const sc_graph_t *g, const int *slot_node, int nnodes,
                               const int *pi)
{
    int *node_of = malloc((size_t)g->size * sizeof *node_of);
    for (int i = 0; i < g->size; i++)
        node_of[pi[i]] = slot_node[i];
    sc_bottleneck_t b = sc_graph_bottleneck(g, node_of, nnodes, NULL);
    free(node_of);
    return b;
}

/* On a grid of algorithms, process counts and platforms, the bottleneck's
 * pi is never more loaded than the cut's pi, block placement or cyclic
 * placement (where it fills the nodes as block does), and is a
 * permutation; somewhere it is less loaded than the cut's. */
static void test_never_worse(void)
{
    const char *platforms[] = {"platforms/gige.xml", "platforms/ib4x.xml",
                               "tests/platforms/uneven.xml", "tests/platforms/fat-tree.xml",
                               "tests/platforms/nocontention-sockets.xml"};
    const char *algos[] = {"ring", "bruck", "rd", "bcast-binomial", "bcast-scatter-allgather",
                           "reduce-mst", "allreduce-rhrd", "allreduce-mpich", "allreduce-nonpow2"};
    const int nps[] = {8, 13, 16, 24, 32};
    int improved = 0;
    for (int f = 0; f < 5; f++) {
        const sc_platform_t *plat = sc_test_platform(platforms[f]);
        CU_ASSERT_PTR_NOT_NULL_FATAL(plat);
        for (int a = 0; a < 9; a++)
            for (int k = 0; k < 5; k++) {
                int p = nps[k];
                const sc_algo_t *algo = sc_algo_find(algos[a]);
                if (p > plat->total_cores || sc_algo_check(algo, p))
                    continue;
                int *cut = malloc((size_t)p * sizeof *cut), *pi = malloc((size_t)p * sizeof *pi);
                int *slot_node = malloc((size_t)p * sizeof *slot_node);
                int *cyclic = malloc((size_t)p * sizeof *cyclic);
                int *seen = calloc((size_t)p, sizeof *seen);
                sc_graph_t g;
                double seconds;
                CU_ASSERT_EQUAL_FATAL(sc_graph_record(algo, p, 0, &g), SC_OK);
                CU_ASSERT_EQUAL_FATAL(
                    sc_mapping_search_graph(plat, &g, SC_PARTITIONER_MULTILEVEL, cut, &seconds),
                    SC_OK);
                memcpy(pi, cut, (size_t)p * sizeof *pi);
                CU_ASSERT_EQUAL_FATAL(sc_mapping_bottleneck(plat, &g, pi), SC_OK);
                CU_ASSERT_EQUAL(sc_place(plat, p, SC_PLACE_BLOCK, slot_node), SC_OK);
                for (int i = 0; i < p; i++)
                    seen[pi[i]]++;
                for (int j = 0; j < p; j++)
                    CU_ASSERT_EQUAL(seen[j], 1);
                sc_bottleneck_t got = load_of(&g, slot_node, plat->nnodes, pi);
                sc_bottleneck_t from_cut = load_of(&g, slot_node, plat->nnodes, cut);
                for (int i = 0; i < p; i++)
                    seen[i] = i;
                sc_bottleneck_t block = load_of(&g, slot_node, plat->nnodes, seen);
                CU_ASSERT(sc_bottleneck_compare(&got, &from_cut) <= 0);
                CU_ASSERT(sc_bottleneck_compare(&got, &block) <= 0);
                CU_ASSERT_EQUAL(sc_place(plat, p, SC_PLACE_CYCLIC, cyclic), SC_OK);
                if (sc_mapping_from_nodes(p, cyclic, slot_node, plat->nnodes, seen)) {
                    sc_bottleneck_t by_cyclic = load_of(&g, slot_node, plat->nnodes, seen);
                    CU_ASSERT(sc_bottleneck_compare(&got, &by_cyclic) <= 0);
                }
                improved += got.load < from_cut.load;
                sc_graph_destroy(&g);
                free(cut);
                free(pi);
                free(slot_node);
                free(cyclic);
                free(seen);
            }
    }
    CU_ASSERT(improved > 0);
}

/* pi from nodes: a permutation onto the slots where the counts agree. */
static void test_from_nodes(void)
{
    int slot_node[] = {0, 0, 1, 1, 2};
    int good[] = {2, 0, 1, 0, 1}, bad[] = {0, 0, 0, 1, 2}, pi[5];
    CU_ASSERT_EQUAL(sc_mapping_from_nodes(5, bad, slot_node, 3, pi), 0);
    CU_ASSERT_EQUAL_FATAL(sc_mapping_from_nodes(5, good, slot_node, 3, pi), 1);
    int want[] = {1, 3, 2, 4, 0};
    for (int i = 0; i < 5; i++)
        CU_ASSERT_EQUAL(pi[i], want[i]);
}

void sc_suite_objective(void)
{
    CU_pSuite s = CU_add_suite("objective", NULL, NULL);
    CU_add_test(s, "node loads by hand", test_loads_by_hand);
    CU_add_test(s, "swaps' outcomes predicted", test_swaps_predicted);
    CU_add_test(s, "bottleneck never worse than its starts", test_never_worse);
    CU_add_test(s, "pi from nodes", test_from_nodes);
}
