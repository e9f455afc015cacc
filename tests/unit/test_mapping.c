/* Communication graphs, exact-size partitions and the mapping pi.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include <CUnit/CUnit.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "algorithms/mapping/mapping.h"
#include "helpers.h"
#include "sim/engine/run.h"
#include "suites.h"

static double edge_weight(const sc_graph_t *g, int a, int b)
{
    igraph_integer_t eid;
    if (igraph_get_eid(&g->graph, &eid, a, b, IGRAPH_UNDIRECTED, 0) != IGRAPH_SUCCESS || eid < 0)
        return 0;
    return VECTOR(g->weight)[eid];
}

/* Every allgather delivers p-1 one-byte blocks to each of p ranks. */
static void test_graph_weights(void)
{
    const char *algos[] = {"ring", "rd", "bruck"};
    for (int a = 0; a < 3; a++)
        for (int p = 1; p <= 33; p++) {
            if (a == 1 && (p & (p - 1)))
                continue;
            sc_graph_t g;
            CU_ASSERT_EQUAL_FATAL(sc_graph_record(sc_algo_find(algos[a]), p, 0, &g), SC_OK);
            CU_ASSERT_EQUAL(g.size, p);
            CU_ASSERT_DOUBLE_EQUAL(g.total_weight, (double)p * (p - 1), 0);
            sc_graph_destroy(&g);
        }
}

/* The lecture's graphs: recursive doubling links i and i XOR 2^k with
 * weight 2 * 2^k; Bruck links i and i + 2^k, the blocks of step k flowing
 * one way. */
static void test_graph_shapes(void)
{
    sc_graph_t g;
    CU_ASSERT_EQUAL_FATAL(sc_graph_record(sc_algo_find("rd"), 8, 0, &g), SC_OK);
    CU_ASSERT_EQUAL(igraph_ecount(&g.graph), 12);
    for (int i = 0; i < 8; i++)
        for (int k = 0; k < 3; k++)
            CU_ASSERT_DOUBLE_EQUAL(edge_weight(&g, i, i ^ (1 << k)), 2.0 * (1 << k), 0);
    sc_graph_destroy(&g);
    CU_ASSERT_EQUAL_FATAL(sc_graph_record(sc_algo_find("bruck"), 6, 0, &g), SC_OK);
    /* p = 6: step 0 sends 1 block to i-1, step 1 2 blocks to i-2, step 2
     * 2 blocks to i-4 = i+2: edge {0, 2} carries 2 each way, as {0, 4} */
    CU_ASSERT_DOUBLE_EQUAL(edge_weight(&g, 0, 1), 1, 0);
    CU_ASSERT_DOUBLE_EQUAL(edge_weight(&g, 0, 2), 4, 0);
    CU_ASSERT_DOUBLE_EQUAL(edge_weight(&g, 0, 4), 4, 0);
    CU_ASSERT_DOUBLE_EQUAL(edge_weight(&g, 0, 3), 0, 0);
    sc_graph_destroy(&g);
    /* a variant records the graph of its base algorithm */
    sc_graph_t base, variant;
    CU_ASSERT_EQUAL_FATAL(sc_graph_record(sc_algo_find("bruck"), 12, 0, &base), SC_OK);
    CU_ASSERT_EQUAL_FATAL(sc_graph_record(sc_algo_find("bruck-exch"), 12, 0, &variant), SC_OK);
    CU_ASSERT_EQUAL(igraph_ecount(&base.graph), igraph_ecount(&variant.graph));
    CU_ASSERT_DOUBLE_EQUAL(base.total_weight, variant.total_weight, 0);
    sc_graph_destroy(&base);
    sc_graph_destroy(&variant);
}

/* Rank 0 sends to rank 1, which never receives: the recorder must say its
 * graph cannot be trusted. */
static sc_err_t lopsided(sc_comm_t *comm, const sc_coll_args_t *args)
{
    return comm->rank == 0 ? sc_send(comm, args->sendbuf, 1, 1, 0) : SC_OK;
}

/* Rank 0 sends 1 and 3 bytes to rank 1, which receives 2 and 2: as many
 * messages and bytes, but not the same messages. */
static sc_err_t resized(sc_comm_t *comm, const sc_coll_args_t *args)
{
    sc_err_t err = SC_OK;
    for (int k = 0; k < 2 && !err; k++) {
        if (comm->rank == 0)
            err = sc_send(comm, args->sendbuf, k ? 3 : 1, 1, 0);
        else if (comm->rank == 1)
            err = sc_recv(comm, args->recvbuf, 2, 0, 0);
    }
    return err;
}

/* Rank 0 talks to every other rank once each way, with message sizes
 * growing with the peer: the recorder's table of a rank's peers grows. */
static sc_err_t star(sc_comm_t *comm, const sc_coll_args_t *args)
{
    sc_err_t err = SC_OK;
    for (int r = 1; r < comm->size && !err; r++)
        if (comm->rank == 0)
            err = sc_sendrecv(comm, args->sendbuf, (size_t)r, r, 0, args->recvbuf, (size_t)r, r, 0);
        else if (comm->rank == r)
            err = sc_sendrecv(comm, args->sendbuf, (size_t)r, 0, 0, args->recvbuf, (size_t)r, 0, 0);
    return err;
}

static void test_graph_refuses_mismatch(void)
{
    sc_algo_t algo = {"lopsided", SC_BARRIER, lopsided, 0, "test"};
    sc_graph_t g;
    CU_ASSERT_EQUAL(sc_graph_record(&algo, 3, 0, &g), SC_ERR_RUN);
    CU_ASSERT_PTR_NOT_NULL(strstr(sc_error_message(), "sends and receives differ"));
    sc_algo_t other = {"resized", SC_BARRIER, resized, 0, "test"};
    CU_ASSERT_EQUAL(sc_graph_record(&other, 2, 0, &g), SC_ERR_RUN);
    CU_ASSERT_PTR_NOT_NULL(strstr(sc_error_message(), "sends and receives differ"));
}

static void test_graph_many_peers(void)
{
    sc_algo_t algo = {"star", SC_BARRIER, star, 0, "test"};
    const int p = 300;
    sc_graph_t g;
    CU_ASSERT_EQUAL_FATAL(sc_graph_record(&algo, p, 0, &g), SC_OK);
    CU_ASSERT_EQUAL(igraph_ecount(&g.graph), p - 1);
    for (int r = 1; r < p; r++)
        CU_ASSERT_DOUBLE_EQUAL(edge_weight(&g, 0, r), 2.0 * r, 0);
    CU_ASSERT_DOUBLE_EQUAL(g.total_weight, (double)p * (p - 1), 0);
    sc_graph_destroy(&g);
}

/* Whether a and b have the same edges with the same weights. */
static int same_graph(const sc_graph_t *a, const sc_graph_t *b)
{
    if (a->size != b->size || igraph_ecount(&a->graph) != igraph_ecount(&b->graph) ||
        a->total_weight != b->total_weight)
        return 0;
    for (igraph_integer_t e = 0; e < igraph_ecount(&a->graph); e++)
        if (edge_weight(b, (int)IGRAPH_FROM(&a->graph, e), (int)IGRAPH_TO(&a->graph, e)) !=
            VECTOR(a->weight)[e])
            return 0;
    return 1;
}

/* A graph the recorder says holds for every placement must be the same
 * under two different ones (blocks of 4 ranks per node, and 3 nodes taking
 * ranks in turn); the SMP-aware algorithms say it does not, and their
 * graphs differ. This is what lets simcoll map record a graph once. */
static void test_graph_placement(void)
{
    const int p = 12;
    int blocks[12], turns[12];
    for (int r = 0; r < p; r++) {
        blocks[r] = r / 4;
        turns[r] = r % 3;
    }
    int smp_aware = 0;
    for (const sc_algo_t *a = sc_algos; a->name; a++) {
        if (sc_graph_recordable(a) != SC_OK || (a->needs & SC_NEEDS_POW2))
            continue;
        sc_graph_t x, y;
        CU_ASSERT_EQUAL_FATAL(sc_graph_record_placed(a, p, 1, blocks, &x), SC_OK);
        CU_ASSERT_EQUAL_FATAL(sc_graph_record_placed(a, p, 1, turns, &y), SC_OK);
        CU_ASSERT_EQUAL(x.placed, y.placed);
        if (!x.placed && !same_graph(&x, &y))
            CU_FAIL("a graph said to hold for every placement changed with it");
        if (x.placed) {
            smp_aware++;
            /* (barrier-mv2-shmem's messages are empty: no edges either way) */
            CU_ASSERT_TRUE(x.total_weight == 0 || !same_graph(&x, &y));
        }
        sc_graph_destroy(&x);
        sc_graph_destroy(&y);
    }
    /* MPICH's four SMP algorithms, MVAPICH2's five and Open MPI 5's four
     * han broadcasts and four han scatters */
    CU_ASSERT_EQUAL(smp_aware, 17);
    sc_graph_t flat;
    CU_ASSERT_EQUAL_FATAL(sc_graph_record(sc_algo_find("bcast-mpich-smp"), p, 1, &flat), SC_OK);
    CU_ASSERT_FALSE(flat.placed); /* nodes unknown: flat, holds anywhere */
    sc_graph_destroy(&flat);
}

/* The cuts counted as the graph is recorded (no memo) are the recorded
 * graph's, for every algorithm on uneven nodes, racks and domains, both
 * placements; and a recording whose sends are not its receives fails the
 * same way counted. */
static void test_counted_cuts(void)
{
    const char *platforms[] = {"tests/platforms/uneven.xml",
                               "tests/platforms/nocontention-racks.xml",
                               "tests/platforms/nocontention-domains.xml"};
    const int sizes[] = {5, 13, 16};
    int compared = 0;
    for (int k = 0; k < 3; k++) {
        const sc_platform_t *plat = sc_test_platform(platforms[k]);
        CU_ASSERT_PTR_NOT_NULL_FATAL(plat);
        for (const sc_algo_t *a = sc_algos; a->name; a++)
            for (int n = 0; n < 3; n++)
                for (int c = 0; c < 2; c++) {
                    if (sc_graph_recordable(a) != SC_OK || sizes[n] > plat->total_cores)
                        continue;
                    sc_run_spec_t spec = {.plat = plat,
                                          .algo = a,
                                          .np = sizes[n],
                                          .root = 1,
                                          .placement = c ? SC_PLACE_CYCLIC : SC_PLACE_BLOCK};
                    if (sc_run_check(&spec) != SC_OK)
                        continue;
                    sc_graph_t graph = {0};
                    double cut[2], total[2], top[2], domain[2];
                    sc_err_t kept =
                        sc_run_cut(&spec, &graph, &cut[0], &total[0], &top[0], &domain[0]);
                    sc_err_t counted =
                        sc_run_cut(&spec, NULL, &cut[1], &total[1], &top[1], &domain[1]);
                    sc_graph_destroy(&graph);
                    if (kept || counted || cut[0] != cut[1] || total[0] != total[1] ||
                        top[0] != top[1] || domain[0] != domain[1]) {
                        CU_FAIL("the counted cuts differ from the graph's");
                        printf("\n%s on %d ranks of %s, %s: errors %d %d, cut %g %g, total %g "
                               "%g, top %g %g, domains %g %g\n",
                               a->name, sizes[n], platforms[k], c ? "cyclic" : "block", kept,
                               counted, cut[0], cut[1], total[0], total[1], top[0], top[1],
                               domain[0], domain[1]);
                    }
                    compared++;
                }
    }
    CU_ASSERT_TRUE(compared > 500);
    sc_algo_t lopsided_algo = {"lopsided", SC_BARRIER, lopsided, 0, "test"};
    const int *units[1] = {(int[]){0, 0, 1}};
    double cut, total;
    CU_ASSERT_EQUAL(sc_graph_count_cuts(&lopsided_algo, 3, 0, NULL, units, 1, &cut, &total),
                    SC_ERR_RUN);
    CU_ASSERT_PTR_NOT_NULL(strstr(sc_error_message(), "sends and receives differ"));
}

static double cut_of(const sc_graph_t *g, const int *part)
{
    return sc_graph_cut(g, part);
}

/* Exact sizes whatever the capacities, uneven and empty parts included
 * (helpers.c), by both of simcoll's partitioners. */
static void test_exact_sizes(void)
{
    sc_test_exact_sizes(SC_PARTITIONER_MULTILEVEL);
    sc_test_exact_sizes(SC_PARTITIONER_GREEDY);
}

static void test_bad_capacities(void)
{
    sc_graph_t g;
    CU_ASSERT_EQUAL_FATAL(sc_graph_record(sc_algo_find("bruck"), 10, 0, &g), SC_OK);
    int part[10], caps[2] = {8, 8}, negative[2] = {11, -1};
    CU_ASSERT_EQUAL(sc_partition(&g, 2, caps, SC_PARTITIONER_MULTILEVEL, part), SC_ERR_INPUT);
    CU_ASSERT_PTR_NOT_NULL(strstr(sc_error_message(), "the 2 parts hold 16 vertices but the graph has 10"));
    CU_ASSERT_EQUAL(sc_partition(&g, 2, negative, SC_PARTITIONER_GREEDY, part), SC_ERR_INPUT);
    sc_graph_destroy(&g);
}

/* For p a power of two and parts of 8 the optimum keeps the three heaviest
 * dimensions inside parts: the cut of cyclic placement. Both partitioners
 * reach it; block placement is far worse. */
static void test_optimal_on_powers_of_two(void)
{
    const char *algos[] = {"rd", "bruck"};
    for (int a = 0; a < 2; a++)
        for (int p = 16; p <= 1024; p *= 4) {
            sc_graph_t g;
            CU_ASSERT_EQUAL_FATAL(sc_graph_record(sc_algo_find(algos[a]), p, 0, &g), SC_OK);
            int nparts = p / 8;
            int *caps = malloc((size_t)nparts * sizeof *caps);
            int *part = malloc((size_t)p * sizeof *part);
            int *cyclic = malloc((size_t)p * sizeof *cyclic);
            for (int u = 0; u < nparts; u++)
                caps[u] = 8;
            for (int v = 0; v < p; v++)
                cyclic[v] = v % nparts;
            for (int how = 0; how < 2; how++) {
                CU_ASSERT_EQUAL(sc_partition(&g, nparts, caps, (sc_partitioner_t)how, part), SC_OK);
                CU_ASSERT_DOUBLE_EQUAL(cut_of(&g, part), cut_of(&g, cyclic), 0);
            }
            free(caps);
            free(part);
            free(cyclic);
            sc_graph_destroy(&g);
        }
}

/* Not powers of two, uneven nodes: never worse than MPI's block placement,
 * and the same answer twice. */
static void test_better_than_block(void)
{
    static const int ns[] = {12, 20, 28, 29, 45, 100};
    for (size_t i = 0; i < sizeof ns / sizeof ns[0]; i++) {
        int p = ns[i], nparts = (p + 7) / 8;
        sc_graph_t g;
        CU_ASSERT_EQUAL_FATAL(sc_graph_record(sc_algo_find("bruck"), p, 0, &g), SC_OK);
        int *caps = malloc((size_t)nparts * sizeof *caps);
        int *part = malloc((size_t)p * sizeof *part), *again = malloc((size_t)p * sizeof *again);
        int *block = malloc((size_t)p * sizeof *block);
        for (int u = 0; u < nparts; u++)
            caps[u] = u + 1 < nparts ? 8 : p - 8 * (nparts - 1);
        for (int v = 0; v < p; v++)
            block[v] = v / 8;
        CU_ASSERT_EQUAL(sc_partition(&g, nparts, caps, SC_PARTITIONER_MULTILEVEL, part), SC_OK);
        CU_ASSERT_EQUAL(sc_partition(&g, nparts, caps, SC_PARTITIONER_MULTILEVEL, again), SC_OK);
        CU_ASSERT_EQUAL(memcmp(part, again, (size_t)p * sizeof *part), 0);
        CU_ASSERT_TRUE(cut_of(&g, part) <= cut_of(&g, block));
        if (p > 8)
            CU_ASSERT_TRUE(cut_of(&g, part) < cut_of(&g, block));
        free(caps);
        free(part);
        free(again);
        free(block);
        sc_graph_destroy(&g);
    }
}

/* pi is never worse than block placement, even where the partitioner is:
 * these graphs on nodes of 8 that the ranks only partly fill (found by a
 * review: allreduce-nonpow2 at 13 ranks cut 280 against block's 104). */
static void test_pi_never_worse_than_block(void)
{
    static const struct {
        const char *algo;
        int p;
    } cases[] = {{"allreduce-nonpow2", 13}, {"bcast-binomial", 13}, {"bcast-binomial", 20},
                 {"reduce-mst", 12},        {"reduce-mst", 13},     {"reduce-mst", 20},
                 {"allreduce-rd", 13},      {"allreduce-mpich", 12}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int p = cases[i].p, nnodes = 8; /* gige.xml's, the last ones empty as in simcoll map */
        int *node_of_rank = malloc((size_t)p * sizeof *node_of_rank);
        int *pi = malloc((size_t)p * sizeof *pi), *pi_inv = malloc((size_t)p * sizeof *pi_inv);
        int *node_of_position = malloc((size_t)p * sizeof *node_of_position);
        for (int r = 0; r < p; r++)
            node_of_rank[r] = r / 8;
        sc_graph_t g;
        CU_ASSERT_EQUAL_FATAL(sc_graph_record(sc_algo_find(cases[i].algo), p, 0, &g), SC_OK);
        for (int how = 0; how < 2; how++) {
            double seconds;
            CU_ASSERT_EQUAL_FATAL(sc_mapping_partition(&g, nnodes, node_of_rank, 0, NULL,
                                                       how ? SC_PARTITIONER_GREEDY
                                                           : SC_PARTITIONER_MULTILEVEL,
                                                       pi, &seconds),
                                  SC_OK);
            CU_ASSERT_EQUAL_FATAL(sc_mapping_invert(p, pi, pi_inv), SC_OK);
            for (int j = 0; j < p; j++)
                node_of_position[j] = node_of_rank[pi_inv[j]];
            double cut = sc_graph_cut(&g, node_of_position), block = sc_graph_cut(&g, node_of_rank);
            if (cut > block)
                fprintf(stderr, "\n%s np %d (%s): cut %g, block %g\n", cases[i].algo, p,
                        how ? "greedy" : "multilevel", cut, block);
            CU_ASSERT_TRUE(cut <= block);
        }
        sc_graph_destroy(&g);
        free(node_of_rank);
        free(pi);
        free(pi_inv);
        free(node_of_position);
    }
}

/* pi: the ranks MPI put on node u play the positions of part u. */
static void test_pi_from_partition(void)
{
    int p = 29, nnodes = 5;
    static const int cores[] = {8, 4, 6, 8, 3};
    int node_of_rank[29], pi[29], pi_inv[29];
    for (int r = 0, u = 0, used = 0; r < p; r++) {
        if (used == cores[u]) {
            u++;
            used = 0;
        }
        node_of_rank[r] = u;
        used++;
    }
    sc_graph_t g;
    CU_ASSERT_EQUAL_FATAL(sc_graph_record(sc_algo_find("bruck"), p, 0, &g), SC_OK);
    double seconds = -1;
    CU_ASSERT_EQUAL_FATAL(sc_mapping_partition(&g, nnodes, node_of_rank, 0, NULL,
                                               SC_PARTITIONER_MULTILEVEL, pi, &seconds),
                          SC_OK);
    CU_ASSERT_TRUE(seconds >= 0);
    CU_ASSERT_EQUAL(sc_mapping_invert(p, pi, pi_inv), SC_OK);
    /* positions of the ranks of one node are in increasing order */
    for (int r = 1; r < p; r++)
        if (node_of_rank[r] == node_of_rank[r - 1])
            CU_ASSERT_TRUE(pi[r] > pi[r - 1]);
    /* the layout's cut is what the partitioner achieved */
    int node_of_position[29];
    for (int j = 0; j < p; j++)
        node_of_position[j] = node_of_rank[pi_inv[j]];
    CU_ASSERT_TRUE(sc_graph_cut(&g, node_of_position) < sc_graph_cut(&g, node_of_rank));
    sc_graph_destroy(&g);
}

/* pi on a network of groups of nodes (a fat tree's racks): the positions
 * go to groups first, then within each group to its nodes. A ring of 16
 * positions on 8 nodes of 2 ranks, 4 nodes a rack: two arcs of 8, one per
 * rack, each cut into nodes: 2 of its 16 edges between racks, 8 between
 * nodes. Bruck's graph on 32 nodes of 8, 4 a rack: less than half as much
 * between racks as the partition that knows only nodes (measured: 3.7 MB
 * against 15.3 MB of 2 KiB blocks), as much between nodes. */
static void test_pi_by_levels(void)
{
    static const long racks[] = {4};
    for (int t = 0; t < 2; t++) {
        int p = t ? 256 : 16, per = t ? 8 : 2, nnodes = p / per;
        int node_of_rank[256], pi[256], pi_inv[256], node_of_position[256],
            rack_of_position[256];
        for (int r = 0; r < p; r++)
            node_of_rank[r] = r / per;
        sc_graph_t g;
        CU_ASSERT_EQUAL_FATAL(sc_graph_record(sc_algo_find(t ? "bruck" : "ring"), p, 0, &g),
                              SC_OK);
        double seconds, cut[2][2]; /* [flat, by levels][between nodes, between racks] */
        for (int levels = 0; levels < 2; levels++) {
            CU_ASSERT_EQUAL_FATAL(sc_mapping_partition(&g, nnodes, node_of_rank, levels, racks,
                                                       SC_PARTITIONER_MULTILEVEL, pi, &seconds),
                                  SC_OK);
            CU_ASSERT_EQUAL_FATAL(sc_mapping_invert(p, pi, pi_inv), SC_OK);
            for (int j = 0; j < p; j++) {
                node_of_position[j] = node_of_rank[pi_inv[j]];
                rack_of_position[j] = node_of_position[j] / 4;
            }
            cut[levels][0] = sc_graph_cut(&g, node_of_position);
            cut[levels][1] = sc_graph_cut(&g, rack_of_position);
        }
        if (t == 0) {
            double edge = g.total_weight / 16;
            CU_ASSERT_DOUBLE_EQUAL(cut[1][1], 2 * edge, 1e-9);
            CU_ASSERT_DOUBLE_EQUAL(cut[1][0], 8 * edge, 1e-9);
        } else {
            CU_ASSERT_TRUE(cut[1][1] < 0.5 * cut[0][1]);
            CU_ASSERT_DOUBLE_EQUAL(cut[1][0], cut[0][0], 1e-9 * cut[0][0]);
        }
        sc_graph_destroy(&g);
    }
}

static void test_invert_checks(void)
{
    int pi_inv[4];
    CU_ASSERT_EQUAL(sc_mapping_invert(4, (int[]){2, 0, 3, 1}, pi_inv), SC_OK);
    CU_ASSERT_EQUAL(pi_inv[2], 0);
    CU_ASSERT_EQUAL(pi_inv[1], 3);
    CU_ASSERT_EQUAL(sc_mapping_invert(4, (int[]){2, 0, 2, 1}, pi_inv), SC_ERR_INPUT);
    CU_ASSERT_PTR_NOT_NULL(strstr(sc_error_message(), "ranks 0 and 2 both play position 2"));
    CU_ASSERT_EQUAL(sc_mapping_invert(4, (int[]){0, 1, 2, 4}, pi_inv), SC_ERR_INPUT);
}

void sc_suite_mapping(void)
{
    CU_pSuite s = CU_add_suite("mapping", NULL, NULL);
    CU_add_test(s, "graph weights", test_graph_weights);
    CU_add_test(s, "pi level by level", test_pi_by_levels);
    CU_add_test(s, "graph shapes", test_graph_shapes);
    CU_add_test(s, "graph of an inconsistent program is refused", test_graph_refuses_mismatch);
    CU_add_test(s, "graph of a rank with many peers", test_graph_many_peers);
    CU_add_test(s, "graph and placement", test_graph_placement);
    CU_add_test(s, "cuts counted as recorded", test_counted_cuts);
    CU_add_test(s, "exact part sizes", test_exact_sizes);
    CU_add_test(s, "bad capacities", test_bad_capacities);
    CU_add_test(s, "optimal on powers of two", test_optimal_on_powers_of_two);
    CU_add_test(s, "better than block placement", test_better_than_block);
    CU_add_test(s, "pi from a partition", test_pi_from_partition);
    CU_add_test(s, "pi never worse than block placement", test_pi_never_worse_than_block);
    CU_add_test(s, "pi inversion checks", test_invert_checks);
}
