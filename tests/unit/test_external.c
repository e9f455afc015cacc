/* The external partitioners, Scotch and METIS (algorithms/mapping/external.c),
 * and the repair that makes their parts' sizes exact. Suites "scotch" and
 * "metis": in a build without the library, only the refusal is tested.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include <CUnit/CUnit.h>
#include <stdlib.h>
#include <string.h>

#include "algorithms/mapping/external.h"
#include "algorithms/mapping/mapping.h"
#include "helpers.h"
#include "suites.h"

/* Two cliques of a and b vertices (edges of weight `heavy`), joined by one
 * edge of weight 1 between vertex a-1 and vertex a. */
static void two_cliques(int a, int b, double heavy, sc_graph_t *g)
{
    sc_graph_sum_t sum;
    CU_ASSERT_EQUAL_FATAL(sc_graph_sum_init(&sum, a + b), SC_OK);
    for (int i = 0; i < a + b; i++)
        for (int j = i + 1; j < a + b; j++)
            if ((i < a) == (j < a))
                CU_ASSERT_EQUAL_FATAL(sc_graph_sum_edge(&sum, i, j, heavy), SC_OK);
    CU_ASSERT_EQUAL_FATAL(sc_graph_sum_edge(&sum, a - 1, a, 1), SC_OK);
    CU_ASSERT_EQUAL_FATAL(sc_graph_sum_finish(&sum, g), SC_OK);
    sc_graph_sum_destroy(&sum);
}

/* Exact sizes whatever the capacities (helpers.c). */
static void exact_sizes(sc_partitioner_t how)
{
    sc_test_exact_sizes(how);
}

/* Two cliques joined by one light edge: each clique a part, whichever
 * order the parts come in, with an empty part among them, and with weights
 * too large for the libraries' 32-bit integers (scaled down). */
static void obvious_split(sc_partitioner_t how)
{
    static const int caps[][3] = {{5, 7, 0}, {7, 5, 0}, {0, 7, 5}, {5, 0, 7}};
    for (int big = 0; big < 2; big++) {
        sc_graph_t g;
        two_cliques(5, 7, big ? 1e12 : 10, &g);
        for (size_t c = 0; c < sizeof caps / sizeof caps[0]; c++) {
            int part[12];
            CU_ASSERT_EQUAL_FATAL(sc_partition(&g, 3, caps[c], how, part), SC_OK);
            CU_ASSERT_DOUBLE_EQUAL(sc_graph_cut(&g, part), 1, 1e-9);
            int *size = sc_test_part_sizes(part, 12, 3);
            for (int u = 0; u < 3; u++)
                CU_ASSERT_EQUAL(size[u], caps[c][u]);
            free(size);
        }
        sc_graph_destroy(&g);
    }
}

/* The same graph gives the same partition every time (fixed seeds, one
 * thread). */
static void deterministic(sc_partitioner_t how)
{
    sc_graph_t g;
    int p = 1000, nparts = 125;
    CU_ASSERT_EQUAL_FATAL(sc_graph_record(sc_algo_find("bruck"), p, 0, &g), SC_OK);
    int *caps = malloc((size_t)nparts * sizeof *caps);
    for (int u = 0; u < nparts; u++)
        caps[u] = 8;
    int *part = malloc((size_t)p * sizeof *part), *again = malloc((size_t)p * sizeof *again);
    CU_ASSERT_EQUAL(sc_partition(&g, nparts, caps, how, part), SC_OK);
    CU_ASSERT_EQUAL(sc_partition(&g, nparts, caps, how, again), SC_OK);
    CU_ASSERT_EQUAL(memcmp(part, again, (size_t)p * sizeof *part), 0);
    /* and the cut is a partition's: below block placement's (METIS k-way cut 0.73 of it) */
    int *block = malloc((size_t)p * sizeof *block);
    for (int v = 0; v < p; v++)
        block[v] = v / 8;
    CU_ASSERT_TRUE(sc_graph_cut(&g, part) < sc_graph_cut(&g, block));
    free(block);
    free(caps);
    free(part);
    free(again);
    sc_graph_destroy(&g);
}

/* Level by level (racks, then nodes), through sc_mapping_partition's how:
 * a ring of 16 on 8 nodes of 2, 4 a rack: two arcs, one a rack, each cut
 * into nodes (as the multilevel partitioner does, test_mapping.c). */
static void by_levels(sc_partitioner_t how)
{
    static const long racks[] = {4};
    int p = 16, node_of_rank[16], pi[16], pi_inv[16], node_of_position[16], rack_of_position[16];
    for (int r = 0; r < p; r++)
        node_of_rank[r] = r / 2;
    sc_graph_t g;
    CU_ASSERT_EQUAL_FATAL(sc_graph_record(sc_algo_find("ring"), p, 0, &g), SC_OK);
    double seconds = -1;
    CU_ASSERT_EQUAL_FATAL(sc_mapping_partition(&g, 8, node_of_rank, 1, racks, how, pi, &seconds),
                          SC_OK);
    CU_ASSERT_TRUE(seconds >= 0);
    CU_ASSERT_EQUAL_FATAL(sc_mapping_invert(p, pi, pi_inv), SC_OK);
    for (int j = 0; j < p; j++) {
        node_of_position[j] = node_of_rank[pi_inv[j]];
        rack_of_position[j] = node_of_position[j] / 4;
    }
    double edge = g.total_weight / 16;
    CU_ASSERT_DOUBLE_EQUAL(sc_graph_cut(&g, rack_of_position), 2 * edge, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(sc_graph_cut(&g, node_of_position), 8 * edge, 1e-9);
    sc_graph_destroy(&g);
}

/* A build without the library refuses it, naming it and what it offers. */
static void refused(sc_partitioner_t how)
{
    sc_graph_t g;
    int part[12], caps[2] = {5, 7};
    two_cliques(5, 7, 10, &g);
    CU_ASSERT_EQUAL(sc_partition(&g, 2, caps, how, part), SC_ERR_INPUT);
    CU_ASSERT_PTR_NOT_NULL(strstr(sc_error_message(), sc_partitioner_name(how)));
    CU_ASSERT_PTR_NOT_NULL(strstr(sc_error_message(), "it offers multilevel, greedy"));
    sc_graph_destroy(&g);
}

#define FOR_BOTH(test)                                                                             \
    static void scotch_##test(void) { test(SC_PARTITIONER_SCOTCH); }                               \
    static void metis_##test(void) { test(SC_PARTITIONER_METIS); }
FOR_BOTH(exact_sizes)
FOR_BOTH(obvious_split)
FOR_BOTH(deterministic)
FOR_BOTH(by_levels)
FOR_BOTH(refused)

/* The repair alone: from over-full parts to under-full ones, the vertex
 * whose move costs least first. Cliques of 4 (edges 10) joined by an edge
 * of 1 between 3 and 4; part 0 holds the first clique and vertex 4 (5 for
 * a capacity of 4): moving 4 back costs 1 - 30 < 0, any other 30 - 1. */
static void test_repair(void)
{
    sc_graph_t g;
    two_cliques(4, 4, 10, &g);
    int part[8] = {0, 0, 0, 0, 0, 1, 1, 1}, caps[2] = {4, 4};
    CU_ASSERT_EQUAL(sc_partition_make_exact(&g, 2, caps, part), SC_OK);
    for (int v = 0; v < 8; v++)
        CU_ASSERT_EQUAL(part[v], v < 4 ? 0 : 1);
    /* three parts, all vertices in the middle one: the first clique goes
     * whole to one part and the second to the other (cut 1) */
    int all[8] = {1, 1, 1, 1, 1, 1, 1, 1}, three[3] = {4, 0, 4};
    CU_ASSERT_EQUAL(sc_partition_make_exact(&g, 3, three, all), SC_OK);
    int *size = sc_test_part_sizes(all, 8, 3);
    CU_ASSERT_EQUAL(size[0], 4);
    CU_ASSERT_EQUAL(size[2], 4);
    CU_ASSERT_DOUBLE_EQUAL(sc_graph_cut(&g, all), 1, 1e-9);
    free(size);
    /* an exact partition is left as it is */
    int exact[8] = {1, 0, 1, 0, 1, 0, 1, 0};
    CU_ASSERT_EQUAL(sc_partition_make_exact(&g, 2, caps, exact), SC_OK);
    for (int v = 0; v < 8; v++)
        CU_ASSERT_EQUAL(exact[v], v % 2 ? 0 : 1);
    sc_graph_destroy(&g);
}

static void add_suite(const char *name, sc_partitioner_t how, CU_TestFunc exact,
                      CU_TestFunc obvious, CU_TestFunc same, CU_TestFunc levels,
                      CU_TestFunc refusal)
{
    CU_pSuite s = CU_add_suite(name, NULL, NULL);
    if (!sc_partitioner_available(how)) {
        CU_add_test(s, "refused by a build without it", refusal);
        return;
    }
    CU_add_test(s, "exact part sizes", exact);
    CU_add_test(s, "two cliques split at their light edge", obvious);
    CU_add_test(s, "deterministic", same);
    CU_add_test(s, "level by level", levels);
    CU_add_test(s, "sizes made exact, cheapest move first", test_repair);
}

void sc_suite_external(void)
{
    add_suite("scotch", SC_PARTITIONER_SCOTCH, scotch_exact_sizes, scotch_obvious_split,
              scotch_deterministic, scotch_by_levels, scotch_refused);
    add_suite("metis", SC_PARTITIONER_METIS, metis_exact_sizes, metis_obvious_split,
              metis_deterministic, metis_by_levels, metis_refused);
}
