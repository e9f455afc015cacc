/* Tests of platform loading, checking and the placement of ranks.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include <CUnit/CUnit.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "algorithms/registry.h"
#include "helpers.h"
#include "models/cost.h"
#include "models/params.h"
#include "sim/simgrid/engine.h"
#include "sim/engine/generate.h"
#include "sim/engine/run.h"
#include "sim/io/platform_props.h"
#include "sim/program/program.h"
#include "suites.h"

static void check_level(const sc_level_t *lv, double lat, double bw, double o, size_t eager)
{
    CU_ASSERT_DOUBLE_EQUAL(lv->latency_s, lat, lat * 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(lv->bandwidth_Bps, bw, bw * 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(sc_level_send_overhead(lv, 1), o, o * 1e-9);
    CU_ASSERT_EQUAL(lv->eager_limit, eager);
}

/* The numbers below are the cited ones of platforms/README.md. */
static void test_shipped_platforms(void)
{
    const sc_platform_t *g = sc_test_platform("platforms/gige.xml");
    const sc_platform_t *ib = sc_test_platform("platforms/ib4x.xml");
    if (!g || !ib)
        return;
    CU_ASSERT_STRING_EQUAL(g->name, "gige");
    CU_ASSERT_EQUAL(g->nnodes, 8);
    CU_ASSERT_EQUAL(g->total_cores, 64);
    CU_ASSERT_TRUE(g->uniform);
    for (int i = 0; i < g->nnodes; i++) {
        char name[16];
        snprintf(name, sizeof name, "node-%d", i);
        CU_ASSERT_STRING_EQUAL(g->nodes[i].name, name);
        CU_ASSERT_EQUAL(g->nodes[i].cores, 8);
        CU_ASSERT_DOUBLE_EQUAL(g->nodes[i].speed_flops, 10e9, 1);
    }
    const sc_level_t *gi = &g->level[SC_LEVEL_INTRA], *gn = &g->level[SC_LEVEL_INTER];
    check_level(gi, 30e-9, 5333e6, 0.24e-6, 65536);
    CU_ASSERT_DOUBLE_EQUAL(sc_level_recv_overhead(gi, 100), 0, 0);
    check_level(gn, 17.94e-6, 115.73e6, 3.646e-6 + 0.3092e-9, 131072);
    /* the fitted segments, at their edges */
    CU_ASSERT_DOUBLE_EQUAL(sc_level_send_overhead(gn, 1420), 5.899e-6 + 1420 * 0.2184e-9, 1e-15);
    CU_ASSERT_DOUBLE_EQUAL(sc_level_recv_overhead(gn, 1419), 12.56e-6 + 1419 * 0.38e-9, 1e-15);
    CU_ASSERT_DOUBLE_EQUAL(sc_level_recv_overhead(gn, 40000), 84.88e-6, 1e-15);
    CU_ASSERT_DOUBLE_EQUAL(sc_level_bandwidth_factor(gn, 1000), 0.4627, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(sc_level_bandwidth_factor(gn, 70000), 1, 0);
    CU_ASSERT_DOUBLE_EQUAL(gn->gap_s, 0.672e-6, 1e-18);
    CU_ASSERT_STRING_EQUAL(ib->name, "ib4x");
    CU_ASSERT_EQUAL(ib->total_cores, 64);
    const sc_level_t *bn = &ib->level[SC_LEVEL_INTER];
    check_level(&ib->level[SC_LEVEL_INTRA], 30e-9, 5333e6, 0.24e-6, 65536);
    check_level(bn, 3.8e-6, 1497e6, 0.4e-6, 6140);
    CU_ASSERT_DOUBLE_EQUAL(sc_level_recv_overhead(bn, 1), 0.4e-6, 1e-18);
    CU_ASSERT_EQUAL(bn->gap_s, 0);
    const sc_platform_t *edr = sc_test_platform("platforms/ib4x-edr.xml");
    if (!edr)
        return;
    CU_ASSERT_STRING_EQUAL(edr->name, "ib4x-edr");
    CU_ASSERT_EQUAL(edr->nnodes, 16);
    CU_ASSERT_EQUAL(edr->total_cores, 512);
    CU_ASSERT_TRUE(edr->uniform);
    CU_ASSERT_DOUBLE_EQUAL(edr->nodes[15].speed_flops, 33.6e9, 1);
    const sc_level_t *en = &edr->level[SC_LEVEL_INTER];
    const sc_level_t *ei = &edr->level[SC_LEVEL_INTRA];
    check_level(ei, 28e-9, 61.3e9, 0.12e-6, 8192);
    CU_ASSERT_DOUBLE_EQUAL(sc_level_send_overhead(ei, 128), 50.06e-9, 1e-18);
    CU_ASSERT_DOUBLE_EQUAL(sc_level_recv_overhead(ei, 128), 587e-9 + 128 * 238.6e-12, 1e-18);
    CU_ASSERT_DOUBLE_EQUAL(sc_level_recv_overhead(ei, 1 << 20), (1 << 20) * 108.8e-12, 1e-15);
    check_level(en, 0.7572e-6, 12.17e9, 0.1248e-6 + 0.7577e-9, 8192);
    CU_ASSERT_DOUBLE_EQUAL(sc_level_recv_overhead(en, 256), 0.1248e-6 + 256 * 0.1311e-9, 1e-15);
    CU_ASSERT_DOUBLE_EQUAL(sc_level_bandwidth_factor(en, 255), 0.3812, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(sc_level_bandwidth_factor(en, 256), 1, 0);
    CU_ASSERT_DOUBLE_EQUAL(en->gap_s, 11.96e-9, 1e-18);
}

/* The platforms fitted to excalibur-tests' cclake and alaska Ethernet runs:
 * the numbers of their comments and of platforms/README.md. */
static void test_shipped_excalibur_platforms(void)
{
    const sc_platform_t *hdr = sc_test_platform("platforms/ib-hdr100.xml");
    const sc_platform_t *r25 = sc_test_platform("platforms/roce-25g.xml");
    const sc_platform_t *r50 = sc_test_platform("platforms/roce-50g.xml");
    if (!hdr || !r25 || !r50)
        return;
    CU_ASSERT_STRING_EQUAL(hdr->name, "ib-hdr100");
    CU_ASSERT_STRING_EQUAL(r25->name, "roce-25g");
    CU_ASSERT_STRING_EQUAL(r50->name, "roce-50g");
    CU_ASSERT_EQUAL(r25->total_cores, 16 * 32);
    CU_ASSERT_DOUBLE_EQUAL(r25->nodes[0].speed_flops, 33.6e9, 1);
    check_level(&r25->level[SC_LEVEL_INTRA], 28e-9, 61.3e9, 0.12e-6, 8192); /* as ib4x-edr */
    const sc_platform_t *cclake[] = {hdr, r50};
    for (int i = 0; i < 2; i++) {
        CU_ASSERT_EQUAL(cclake[i]->nnodes, 56);
        CU_ASSERT_EQUAL(cclake[i]->total_cores, 56 * 56);
        CU_ASSERT_TRUE(cclake[i]->uniform);
        CU_ASSERT_DOUBLE_EQUAL(cclake[i]->nodes[55].speed_flops, 70.4e9, 1);
        const sc_level_t *ci = &cclake[i]->level[SC_LEVEL_INTRA];
        check_level(ci, 28.64e-9, 25.84e9, 107.6e-9, 8192);
        CU_ASSERT_DOUBLE_EQUAL(sc_level_recv_overhead(ci, 127), 131.6e-9, 1e-18);
        CU_ASSERT_DOUBLE_EQUAL(sc_level_send_overhead(ci, 8192), 426.8e-9 + 8192 * 183e-12,
                               1e-15);
        CU_ASSERT_DOUBLE_EQUAL(sc_level_recv_overhead(ci, 8193), 8193 * 63.25e-12, 1e-15);
    }
    const sc_level_t *h = &hdr->level[SC_LEVEL_INTER];
    check_level(h, 0.6792e-6, 12.32e9, 0.139e-6 + 0.4622e-9, 8192);
    CU_ASSERT_DOUBLE_EQUAL(sc_level_recv_overhead(h, 256), 0.139e-6 + 256 * 0.1453e-9, 1e-15);
    CU_ASSERT_DOUBLE_EQUAL(sc_level_recv_overhead(h, 10000), 0.139e-6, 1e-15);
    CU_ASSERT_DOUBLE_EQUAL(sc_level_bandwidth_factor(h, 255), 0.2381, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(sc_level_bandwidth_factor(h, 8193), 0.998, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(h->gap_s, 12.48e-9, 1e-18);
    const sc_level_t *e25 = &r25->level[SC_LEVEL_INTER];
    check_level(e25, 1.0296e-6, 3.063e9, 0.1606e-6 + 0.5408e-9, 8192);
    CU_ASSERT_DOUBLE_EQUAL(sc_level_send_overhead(e25, 8000), 0.1606e-6 + 8000 * 0.2091e-9,
                           1e-15);
    CU_ASSERT_DOUBLE_EQUAL(sc_level_bandwidth_factor(e25, 256), 0.9892, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(sc_level_bandwidth_factor(e25, 8193), 1, 0);
    CU_ASSERT_DOUBLE_EQUAL(e25->gap_s, 30.32e-9, 1e-18);
    const sc_level_t *e50 = &r50->level[SC_LEVEL_INTER];
    check_level(e50, 1.0942e-6, 5.785e9, 0.1609e-6 + 0.3461e-9, 8192);
    CU_ASSERT_DOUBLE_EQUAL(sc_level_bandwidth_factor(e50, 0), 0.3042, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(sc_level_bandwidth_factor(e50, 100000), 0.9974, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(e50->gap_s, 19.46e-9, 1e-18);
}

/* tengige.xml: taurus's nodes, gige.xml's shared memory and the network fitted
 * with a latency factor to taurus's Open MPI over TCP (platforms/README.md). */
static void test_shipped_tengige(void)
{
    const sc_platform_t *t = sc_test_platform("platforms/tengige.xml");
    if (!t)
        return;
    CU_ASSERT_STRING_EQUAL(t->name, "tengige");
    CU_ASSERT_EQUAL(t->nnodes, 16);
    CU_ASSERT_EQUAL(t->total_cores, 16 * 12);
    CU_ASSERT_TRUE(t->uniform);
    CU_ASSERT_DOUBLE_EQUAL(t->nodes[15].speed_flops, 18.4e9, 1);
    check_level(&t->level[SC_LEVEL_INTRA], 30e-9, 5333e6, 0.24e-6, 65536); /* gige.xml's */
    const sc_level_t *n = &t->level[SC_LEVEL_INTER];
    check_level(n, 8.518e-6, 839.1e6, 3.627e-6 + 0.05674e-9, 65536);
    CU_ASSERT_DOUBLE_EQUAL(sc_level_recv_overhead(n, 1420), 6.5e-6 + 1420 * 0.283e-9, 1e-15);
    CU_ASSERT_DOUBLE_EQUAL(sc_level_bandwidth_factor(n, 127), 0.04488, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(sc_level_latency_factor(n, 127), 1, 0);
    CU_ASSERT_DOUBLE_EQUAL(sc_level_latency_factor(n, 128), 1.857, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(sc_level_latency_factor(n, 1420), 5.314, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(sc_level_latency_factor(n, 65536), 2.203, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(sc_level_latency_factor(n, 65537), 6.639, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(n->gap_s, 67.2e-9, 1e-18);
}

/* ib-fdr.xml: Stampede's nodes, ib4x.xml's shared memory (but the memory
 * bus) and the network fitted to Stampede's MVAPICH2 over InfiniBand FDR. */
static void test_shipped_ib_fdr(void)
{
    const sc_platform_t *t = sc_test_platform("platforms/ib-fdr.xml");
    if (!t)
        return;
    CU_ASSERT_STRING_EQUAL(t->name, "ib-fdr");
    CU_ASSERT_EQUAL(t->nnodes, 16);
    CU_ASSERT_EQUAL(t->total_cores, 16 * 16);
    CU_ASSERT_TRUE(t->uniform);
    CU_ASSERT_DOUBLE_EQUAL(t->nodes[15].speed_flops, 21.6e9, 1);
    check_level(&t->level[SC_LEVEL_INTRA], 30e-9, 102.4e9, 0.24e-6, 65536);
    const sc_level_t *n = &t->level[SC_LEVEL_INTER];
    check_level(n, 389.8e-9, 5.081e9, 474.9e-9 + 0.2835e-9, 17420);
    CU_ASSERT_DOUBLE_EQUAL(sc_level_recv_overhead(n, 1420), 400e-9, 1e-18);
    CU_ASSERT_DOUBLE_EQUAL(sc_level_bandwidth_factor(n, 149), 0.1545, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(sc_level_latency_factor(n, 150), 3.038, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(sc_level_latency_factor(n, 17420), 4.624, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(sc_level_latency_factor(n, 17421), 8.237, 1e-12);
    CU_ASSERT_EQUAL(n->gap_s, 0);
}

static void test_uneven_platform(void)
{
    const sc_platform_t *u = sc_test_platform("tests/platforms/uneven.xml");
    if (!u)
        return;
    static const int cores[] = {8, 4, 6, 8, 3};
    CU_ASSERT_EQUAL(u->nnodes, 5);
    CU_ASSERT_EQUAL(u->total_cores, 29);
    for (int i = 0; i < 5; i++)
        CU_ASSERT_EQUAL(u->nodes[i].cores, cores[i]);
    CU_ASSERT_TRUE(u->uniform);
    const sc_platform_t *n = sc_test_platform("tests/platforms/nonuniform.xml");
    if (n)
        CU_ASSERT_FALSE(n->uniform);
}

/* Each bad platform is refused as bad input with a message naming why. */
static void expect_refused(const char *relative, const char *needle)
{
    sc_platform_t plat;
    sc_err_t err = sc_platform_load("--platform", sc_test_path(relative), &plat);
    CU_ASSERT_EQUAL(err, SC_ERR_INPUT);
    if (err == SC_OK) {
        sc_platform_destroy(&plat);
        return;
    }
    if (!strstr(sc_error_message(), needle)) {
        fprintf(stderr, "\n%s: message lacks '%s': %s\n", relative, needle, sc_error_message());
        CU_FAIL("message does not name the problem");
    }
}

static void test_bad_platforms(void)
{
    expect_refused("tests/platforms/does-not-exist.xml", "cannot read it: No such file");
    sc_platform_t plat;
    CU_ASSERT_EQUAL(sc_platform_load("--platform", "/dev/zero", &plat), SC_ERR_INPUT);
    CU_ASSERT_PTR_NOT_NULL(strstr(sc_error_message(), "not a regular file"));
    expect_refused("platforms", "is a directory");
    expect_refused("tests/platforms/empty.xml", "Document is empty");
    expect_refused("tests/platforms/malformed.xml", "malformed.xml':6");
    expect_refused("tests/platforms/missing-prop.xml", "simcoll/inter/eager-limit");
    expect_refused("tests/platforms/bad-prop.xml", "'fast' is not a duration");
    expect_refused("tests/platforms/no-loopback.xml", "memory-bus link");
    expect_refused("tests/platforms/no-hostlink.xml", "host 'node-0' has no <host_link");
    expect_refused("tests/platforms/loopback-through-nic.xml", "node 'node-0' reaches itself "
                                                               "through link 'node-0_nic_UP'");
}

static void count_per_node(const int *node_of, int np, int *count, int nnodes)
{
    memset(count, 0, (size_t)nnodes * sizeof *count);
    for (int r = 0; r < np; r++)
        count[node_of[r]]++;
}

static void test_placement(void)
{
    const sc_platform_t *u = sc_test_platform("tests/platforms/uneven.xml");
    if (!u)
        return;
    int node_of[29], count[5];
    /* block: fill nodes in order */
    CU_ASSERT_EQUAL(sc_place(u, 29, SC_PLACE_BLOCK, node_of), SC_OK);
    for (int r = 0; r < 29; r++)
        CU_ASSERT_EQUAL(node_of[r], r < 8 ? 0 : r < 12 ? 1 : r < 18 ? 2 : r < 26 ? 3 : 4);
    CU_ASSERT_EQUAL(sc_place(u, 10, SC_PLACE_BLOCK, node_of), SC_OK);
    CU_ASSERT_EQUAL(sc_place_nodes_used(u, 10, node_of), 2);
    /* cyclic: round robin, skipping full nodes */
    CU_ASSERT_EQUAL(sc_place(u, 10, SC_PLACE_CYCLIC, node_of), SC_OK);
    for (int r = 0; r < 10; r++)
        CU_ASSERT_EQUAL(node_of[r], r % 5);
    CU_ASSERT_EQUAL(sc_place(u, 29, SC_PLACE_CYCLIC, node_of), SC_OK);
    count_per_node(node_of, 29, count, 5);
    for (int i = 0; i < 5; i++)
        CU_ASSERT_EQUAL(count[i], u->nodes[i].cores);
    /* node 4 (3 cores) is full after rank 14, node 1 (4) after rank 16 */
    CU_ASSERT_EQUAL(node_of[15], 0);
    CU_ASSERT_EQUAL(node_of[18], 3);
    CU_ASSERT_EQUAL(node_of[19], 0);
    CU_ASSERT_EQUAL(node_of[20], 2);
    /* out of range */
    CU_ASSERT_EQUAL(sc_place(u, 0, SC_PLACE_BLOCK, node_of), SC_ERR_INPUT);
    CU_ASSERT_EQUAL(sc_place(u, 30, SC_PLACE_CYCLIC, node_of), SC_ERR_INPUT);
    CU_ASSERT_PTR_NOT_NULL(strstr(sc_error_message(), "use --np 1..29"));
}

/* A 12-node copy of gige: same levels, nodes in natural order (node-10
 * after node-9), the requested core count. */
static void test_generated_platform(void)
{
    const sc_platform_t *g = sc_test_platform("platforms/gige.xml");
    if (!g)
        return;
    char path[SC_TEST_TEMP_LEN];
    CU_ASSERT_FATAL(sc_test_temp_file(path) == 0);
    CU_ASSERT_EQUAL_FATAL(sc_generate_platform(g->path, NULL, NULL, 12, "4", 1, NULL, 0, path), SC_OK);
    sc_platform_t gen;
    CU_ASSERT_EQUAL_FATAL(sc_platform_load("--platform", path, &gen), SC_OK);
    CU_ASSERT_STRING_EQUAL(gen.name, "gige-12x4");
    CU_ASSERT_EQUAL(gen.nnodes, 12);
    CU_ASSERT_EQUAL(gen.total_cores, 48);
    CU_ASSERT_TRUE(gen.uniform);
    for (int i = 0; i < 12; i++) {
        char name[16];
        snprintf(name, sizeof name, "node-%d", i);
        CU_ASSERT_STRING_EQUAL(gen.nodes[i].name, name);
        CU_ASSERT_DOUBLE_EQUAL(gen.nodes[i].speed_flops, g->nodes[0].speed_flops, 1e-3);
    }
    for (int l = 0; l < SC_NLEVELS; l++)
        check_level(&gen.level[l], g->level[l].latency_s, g->level[l].bandwidth_Bps,
                    sc_level_send_overhead(&g->level[l], 1), g->level[l].eager_limit);
    sc_platform_destroy(&gen);
    CU_ASSERT_EQUAL(sc_generate_platform(sc_test_path("tests/platforms/nonuniform.xml"), NULL, NULL,
                                         4, NULL, 1, NULL, 0, path),
                    SC_ERR_INPUT);
    CU_ASSERT_EQUAL(
        sc_generate_platform(g->path, NULL, NULL, 4, NULL, 1, NULL, 0, "/nonexistent-dir/p.xml"),
        SC_ERR_INPUT);
    remove(path);
}

/* A template's latency factors carry into a generated platform as the
 * template writes them, and read back the same; written by
 * sc_piecewise_write (calibrate, --net), a factor reads back as it was. */
static void test_generated_latency_factor(void)
{
    const sc_platform_t *t = sc_test_platform("tests/platforms/loggp-lat.xml");
    if (!t)
        return;
    char path[SC_TEST_TEMP_LEN];
    CU_ASSERT_FATAL(sc_test_temp_file(path) == 0);
    CU_ASSERT_EQUAL_FATAL(sc_generate_platform(t->path, NULL, NULL, 3, "2", 1, NULL, 0, path),
                          SC_OK);
    sc_platform_t gen;
    CU_ASSERT_EQUAL_FATAL(sc_platform_load("--platform", path, &gen), SC_OK);
    for (int l = 0; l < SC_NLEVELS; l++) {
        CU_ASSERT_EQUAL(gen.level[l].latency_factor.n, t->level[l].latency_factor.n);
        for (size_t m = 0; m < 1000000; m = 3 * m + 1)
            CU_ASSERT_EQUAL(sc_level_latency_factor(&gen.level[l], m),
                            sc_level_latency_factor(&t->level[l], m));
    }
    sc_platform_destroy(&gen);
    FILE *f = fopen(path, "r");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    char line[256];
    int found = 0;
    while (fgets(line, sizeof line, f))
        found += strstr(line, "<prop id=\"simcoll/inter/latency-factor\" "
                              "value=\"0:1.2;1420:2;32768:3.5\"/>") != NULL;
    fclose(f);
    CU_ASSERT_EQUAL(found, 1);
    remove(path);
    char *text = NULL;
    size_t len = 0;
    f = open_memstream(&text, &len);
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    sc_piecewise_write(f, &t->level[SC_LEVEL_INTER].latency_factor, 1);
    fclose(f);
    CU_ASSERT_STRING_EQUAL(text, "0:1.2;1420:2;32768:3.5");
    free(text);
}

/* --cores LIST: uneven nodes in the order given, the zone named by their
 * runs; a list that disagrees with --nodes, or is not one, refused. */
static void test_generated_uneven(void)
{
    const sc_platform_t *g = sc_test_platform("platforms/gige.xml");
    if (!g)
        return;
    char path[SC_TEST_TEMP_LEN];
    CU_ASSERT_FATAL(sc_test_temp_file(path) == 0);
    CU_ASSERT_EQUAL_FATAL(
        sc_generate_platform(g->path, NULL, NULL, 0, "2x16,4+4,1x2", 1, NULL, 0, path), SC_OK);
    sc_platform_t gen;
    CU_ASSERT_EQUAL_FATAL(sc_platform_load("--platform", path, &gen), SC_OK);
    static const int want[] = {16, 16, 4, 4, 2};
    CU_ASSERT_STRING_EQUAL(gen.name, "gige-2x16+2x4+1x2");
    CU_ASSERT_EQUAL_FATAL(gen.nnodes, 5);
    CU_ASSERT_EQUAL(gen.total_cores, 42);
    CU_ASSERT_TRUE(gen.uniform); /* same links and speeds: the models stay exact */
    for (int i = 0; i < 5; i++)
        CU_ASSERT_EQUAL(gen.nodes[i].cores, want[i]);
    sc_platform_destroy(&gen);
    /* The same list with the count it gives is accepted; "8" is every node. */
    CU_ASSERT_EQUAL(sc_generate_platform(g->path, NULL, NULL, 5, "2x16+4+4+2", 1, NULL, 0, path),
                    SC_OK);
    CU_ASSERT_EQUAL_FATAL(sc_generate_platform(g->path, NULL, NULL, 3, "8", 1, NULL, 0, path), SC_OK);
    CU_ASSERT_EQUAL_FATAL(sc_platform_load("--platform", path, &gen), SC_OK);
    CU_ASSERT_EQUAL(gen.total_cores, 24);
    CU_ASSERT_STRING_EQUAL(gen.name, "gige-3x8");
    sc_platform_destroy(&gen);
    static const char *const bad[][2] = {
        {"2x16,4", NULL}, /* with --nodes 2 */
        {"4,,8", "an empty item"},
        {"x8", "an empty item"},
        {"4x", "an empty item"},
        {"0x8", "K of KxC"},
        {"2x0", "--cores"},
        {"eight", "--cores"},
        {"2x4x4", "--cores"},
        {"1048577x1", "K of KxC"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        remove(path);
        int nodes = i == 0 ? 2 : 0;
        CU_ASSERT_EQUAL(sc_generate_platform(g->path, NULL, NULL, nodes, bad[i][0], 1, NULL, 0, path),
                        SC_ERR_INPUT);
        const char *need = i == 0 ? "--nodes 2, but --cores '2x16,4' lists 3 nodes" : bad[i][1];
        if (!strstr(sc_error_message(), need))
            fprintf(stderr, "\n--cores %s: %s\n", bad[i][0], sc_error_message());
        CU_ASSERT_PTR_NOT_NULL(strstr(sc_error_message(), need));
        CU_ASSERT_EQUAL(access(path, F_OK), -1); /* nothing written */
    }
    remove(path);
}

/* --net: the preset's network level on the template's nodes, --set
 * applied after it; unknown presets refused naming the known ones. */
static void test_generated_network(void)
{
    const sc_platform_t *g = sc_test_platform("platforms/gige.xml");
    const sc_platform_t *ib = sc_test_platform("platforms/ib4x.xml");
    if (!g || !ib)
        return;
    char path[SC_TEST_TEMP_LEN];
    CU_ASSERT_FATAL(sc_test_temp_file(path) == 0);
    char *sets[] = {"inter.bandwidth=2x"};
    CU_ASSERT_EQUAL_FATAL(sc_generate_platform(g->path, "ib4x-ddr", NULL, 3, "16", 1, sets, 1, path),
                          SC_OK);
    sc_platform_t gen;
    CU_ASSERT_EQUAL_FATAL(sc_platform_load("--platform", path, &gen), SC_OK);
    CU_ASSERT_STRING_EQUAL(gen.name, "ib4x-ddr-3x16-inter.bandwidth=2x"); /* what sets it apart */
    const sc_level_t *in = &gen.level[SC_LEVEL_INTER], *want = &ib->level[SC_LEVEL_INTER];
    CU_ASSERT_DOUBLE_EQUAL(in->bandwidth_Bps, 2 * want->bandwidth_Bps, 1e-6 * want->bandwidth_Bps);
    CU_ASSERT_DOUBLE_EQUAL(in->latency_s, want->latency_s, 1e-15);
    CU_ASSERT_DOUBLE_EQUAL(in->gap_s, want->gap_s, 1e-15);
    CU_ASSERT_EQUAL(in->eager_limit, want->eager_limit);
    for (size_t m = 0; m < 1000000; m = 3 * m + 1) {
        CU_ASSERT_DOUBLE_EQUAL(sc_level_send_overhead(in, m), sc_level_send_overhead(want, m), 1e-15);
        CU_ASSERT_DOUBLE_EQUAL(sc_level_recv_overhead(in, m), sc_level_recv_overhead(want, m), 1e-15);
        CU_ASSERT_DOUBLE_EQUAL(sc_level_bandwidth_factor(in, m),
                               sc_level_bandwidth_factor(want, m), 1e-12);
    }
    /* The nodes and shared memory stay the template's. */
    CU_ASSERT_DOUBLE_EQUAL(gen.level[SC_LEVEL_INTRA].bandwidth_Bps,
                           g->level[SC_LEVEL_INTRA].bandwidth_Bps, 1);
    CU_ASSERT_EQUAL(gen.nodes[0].cores, 16);
    sc_platform_destroy(&gen);
    /* The other way round, and without --like: the preset's own platform. */
    CU_ASSERT_EQUAL_FATAL(sc_generate_platform(ib->path, "gige", NULL, 2, NULL, 1, NULL, 0, path),
                          SC_OK);
    CU_ASSERT_EQUAL_FATAL(sc_platform_load("--platform", path, &gen), SC_OK);
    in = &gen.level[SC_LEVEL_INTER], want = &g->level[SC_LEVEL_INTER];
    CU_ASSERT_DOUBLE_EQUAL(in->latency_s, want->latency_s, 1e-15);
    for (size_t m = 0; m < 1000000; m = 3 * m + 1)
        CU_ASSERT_DOUBLE_EQUAL(sc_level_bandwidth_factor(in, m),
                               sc_level_bandwidth_factor(want, m), 1e-12);
    sc_platform_destroy(&gen);
    CU_ASSERT_EQUAL_FATAL(sc_generate_platform(NULL, "gige", NULL, 2, NULL, 1, NULL, 0, path), SC_OK);
    CU_ASSERT_EQUAL_FATAL(sc_platform_load("--platform", path, &gen), SC_OK);
    CU_ASSERT_STRING_EQUAL(gen.name, "gige-2x8");
    sc_platform_destroy(&gen);
    /* Every preset's own platform ships and gives the generator its level. */
    for (const sc_network_preset_t *n = sc_network_presets; n->name; n++) {
        char shipped[64];
        snprintf(shipped, sizeof shipped, "platforms/%s", n->platform);
        const sc_platform_t *own = sc_test_platform(shipped);
        CU_ASSERT_PTR_NOT_NULL_FATAL(own);
        CU_ASSERT_EQUAL_FATAL(sc_generate_platform(g->path, n->name, NULL, 2, NULL, 1, NULL, 0, path),
                              SC_OK);
        CU_ASSERT_EQUAL_FATAL(sc_platform_load("--platform", path, &gen), SC_OK);
        in = &gen.level[SC_LEVEL_INTER], want = &own->level[SC_LEVEL_INTER];
        CU_ASSERT_DOUBLE_EQUAL(in->latency_s, want->latency_s, 1e-15);
        CU_ASSERT_DOUBLE_EQUAL(in->bandwidth_Bps, want->bandwidth_Bps, 1e-6 * want->bandwidth_Bps);
        CU_ASSERT_DOUBLE_EQUAL(in->gap_s, want->gap_s, 1e-18);
        CU_ASSERT_DOUBLE_EQUAL(sc_level_send_overhead(in, 300), sc_level_send_overhead(want, 300),
                               1e-15);
        CU_ASSERT_EQUAL(gen.nodes[0].cores, 8);
        sc_platform_destroy(&gen);
    }
    remove(path);
    CU_ASSERT_EQUAL(sc_generate_platform(g->path, "ib5x", NULL, 2, NULL, 1, NULL, 0, path),
                    SC_ERR_INPUT);
    CU_ASSERT_PTR_NOT_NULL(strstr(sc_error_message(), "unknown interconnect 'ib5x'; use gige, "));
    CU_ASSERT_EQUAL(sc_generate_platform(NULL, NULL, NULL, 2, NULL, 1, NULL, 0, path), SC_ERR_INPUT);
    CU_ASSERT_EQUAL(access(path, F_OK), -1);
}

/* One run of `algo` on every core of the platform at `path`. */
static double run_time(const char *path, const char *algo, int np, size_t bytes, int *valid)
{
    sc_platform_t plat;
    CU_ASSERT_EQUAL_FATAL(sc_platform_load("--platform", path, &plat), SC_OK);
    sc_run_spec_t spec = {.plat = &plat,
                          .algo = sc_algo_find(algo),
                          .np = np ? np : plat.total_cores,
                          .bytes = bytes,
                          .payload = 1,
                          .placement = SC_PLACE_BLOCK};
    sc_run_result_t res;
    CU_ASSERT_EQUAL_FATAL(sc_run(&spec, &res), SC_OK);
    double t = res.sim_time_s;
    *valid = res.valid;
    sc_run_result_destroy(&res);
    sc_platform_destroy(&plat);
    return t;
}

/* One size-only run of `algo` on np ranks of the platform at `path`. */
static void run_result(const char *path, const char *algo, int np, size_t bytes,
                       sc_run_result_t *res)
{
    sc_platform_t plat;
    CU_ASSERT_EQUAL_FATAL(sc_platform_load("--platform", path, &plat), SC_OK);
    sc_run_spec_t spec = {.plat = &plat, .algo = sc_algo_find(algo), .np = np, .bytes = bytes,
                          .placement = SC_PLACE_BLOCK};
    CU_ASSERT_EQUAL_FATAL(sc_run(&spec, res), SC_OK);
    sc_platform_destroy(&plat);
}

/* Simulated and model time of one message of `bytes` from rank 0 to rank
 * `to` of np ranks placed by block on plat. */
static void one_send(const sc_platform_t *plat, int np, int to, size_t bytes, double *sim,
                     double *model)
{
    char text[96];
    snprintf(text, sizeof text, "send %zu from=0 to=%d\n", bytes, to);
    sc_program_t prog;
    CU_ASSERT_EQUAL_FATAL(sc_program_parse("send.prog", text, strlen(text), &prog), SC_OK);
    sc_run_spec_t spec = {.plat = plat, .program = &prog, .np = np, .placement = SC_PLACE_BLOCK};
    sc_run_result_t res;
    CU_ASSERT_EQUAL_FATAL(sc_run(&spec, &res), SC_OK);
    *sim = res.sim_time_s;
    *model = res.model_time_s;
    sc_run_result_destroy(&res);
    sc_program_destroy(&prog);
}

/* The NIC's limit both ways (inter.bidirectional-bandwidth): an exchange
 * of m bytes between two nodes (ring allgather on 2 ranks: RTS, CTS and
 * DATA each way at once) takes longer by what its DATA, a header and m
 * bytes, takes at B_bi / 2 instead of B (RTS and CTS, headers alone,
 * share no link: sim/protocol/protocol.h), one way (a broadcast) nothing
 * more; on one switch simcoll builds and on SimGrid's torus alike. */
static void test_bidirectional(void)
{
    const sc_platform_t *g = sc_test_platform("platforms/ib4x.xml");
    if (!g)
        return;
    char *limit[] = {"inter.bidirectional-bandwidth=1.5GBps"};
    static const char *const topologies[] = {"racks:2,1", "torus:2"};
    size_t m = 4 << 20;
    for (int t = 0; t < 2; t++) {
        char free_path[SC_TEST_TEMP_LEN], limited_path[SC_TEST_TEMP_LEN];
        CU_ASSERT_FATAL(sc_test_temp_file(free_path) == 0 && sc_test_temp_file(limited_path) == 0);
        CU_ASSERT_EQUAL_FATAL(
            sc_generate_platform(g->path, NULL, topologies[t], 2, "1", 1, NULL, 0, free_path),
            SC_OK);
        CU_ASSERT_EQUAL_FATAL(
            sc_generate_platform(g->path, NULL, topologies[t], 2, "1", 1, limit, 1, limited_path),
            SC_OK);
        sc_platform_t limited;
        CU_ASSERT_EQUAL_FATAL(sc_platform_load("--platform", limited_path, &limited), SC_OK);
        double bi = limited.level[SC_LEVEL_INTER].bidirectional_Bps;
        double b = limited.level[SC_LEVEL_INTER].bandwidth_Bps;
        double h = (double)limited.header_bytes;
        CU_ASSERT_DOUBLE_EQUAL(bi, 1.5e9, 1e-6);
        sc_platform_destroy(&limited);
        int valid;
        double exchange = run_time(free_path, "ring", 2, m, &valid);
        double slower = run_time(limited_path, "ring", 2, m, &valid);
        double want = exchange + (h + (double)m) * (2 / bi - 1 / b);
        CU_ASSERT_DOUBLE_EQUAL(slower, want, 1e-9 * want);
        CU_ASSERT_EQUAL(run_time(free_path, "bcast-binomial", 2, m, &valid),
                        run_time(limited_path, "bcast-binomial", 2, m, &valid));
        remove(free_path);
        remove(limited_path);
    }
    /* Generated without a topology, the nodes go on one switch simcoll
     * builds; such a platform is a template, whose limit its copies keep. */
    char path[SC_TEST_TEMP_LEN], copy[SC_TEST_TEMP_LEN];
    CU_ASSERT_FATAL(sc_test_temp_file(path) == 0 && sc_test_temp_file(copy) == 0);
    CU_ASSERT_EQUAL_FATAL(sc_generate_platform(g->path, NULL, NULL, 2, "1", 1, limit, 1, path),
                          SC_OK);
    CU_ASSERT_EQUAL_FATAL(sc_generate_platform(path, NULL, NULL, 3, "2", 1, NULL, 0, copy), SC_OK);
    sc_platform_t kept;
    CU_ASSERT_EQUAL_FATAL(sc_platform_load("--platform", copy, &kept), SC_OK);
    CU_ASSERT_TRUE(kept.topology);
    CU_ASSERT_EQUAL(kept.nnodes, 3);
    CU_ASSERT_DOUBLE_EQUAL(kept.level[SC_LEVEL_INTER].bidirectional_Bps, 1.5e9, 1e-6);
    sc_platform_destroy(&kept);
    /* A file of host_links cannot have it: SimGrid gives a host_link no
     * second link. */
    FILE *in = fopen(g->path, "r"), *out = fopen(path, "w");
    CU_ASSERT_FATAL(in && out);
    char line[1024];
    while (fgets(line, sizeof line, in)) {
        fputs(line, out);
        if (strstr(line, "simcoll/header-bytes"))
            fputs("    <prop id=\"simcoll/inter/bidirectional-bandwidth\" value=\"1GBps\"/>\n",
                  out);
    }
    fclose(in);
    CU_ASSERT_FATAL(fclose(out) == 0);
    sc_platform_t refused;
    CU_ASSERT_EQUAL(sc_platform_load("--platform", path, &refused), SC_ERR_INPUT);
    CU_ASSERT_PTR_NOT_NULL(strstr(sc_error_message(), "value=\"racks:8,1\""));
    remove(path);
    remove(copy);
}

/* Nested levels inside nodes (tests/platforms/nocontention-domains.xml: 2
 * nodes of 2 sockets of 2 NUMA domains of 2 CCXs of 2 cores): each level's
 * route (the memory bus and the link where two domains part), the domain
 * each rank takes and the level of its messages, one message at each
 * level against the closed form, the mapping level by level, and the
 * levels in generated platforms. */
static void test_nested_domains(void)
{
    const sc_platform_t *p = sc_test_platform("tests/platforms/nocontention-domains.xml");
    if (!p)
        return;
    CU_ASSERT_EQUAL(p->nnodes, 2);
    CU_ASSERT_EQUAL(p->total_cores, 32);
    CU_ASSERT_EQUAL(p->nlevels, 5);
    CU_ASSERT_EQUAL(sc_platform_node_levels(p), 3);
    CU_ASSERT_EQUAL(sc_platform_domains(p), 8);
    CU_ASSERT_EQUAL(sc_platform_domain_span(p, SC_DOMAIN_CCX), 1);
    CU_ASSERT_EQUAL(sc_platform_domain_span(p, SC_DOMAIN_NUMA), 2);
    CU_ASSERT_EQUAL(sc_platform_domain_span(p, SC_DOMAIN_SOCKET), 4);
    CU_ASSERT_TRUE(p->uniform);
    /* the memory bus (200 ns, 1 GB/s) and each level's slower link */
    static const double latency[SC_NDOMAIN_KINDS] = {220e-9, 250e-9, 300e-9};
    static const double bandwidth[SC_NDOMAIN_KINDS] = {800e6, 600e6, 400e6};
    for (int d = 0; d < SC_NDOMAIN_KINDS; d++) {
        const sc_level_t *lv = &p->between_domains[d];
        CU_ASSERT_DOUBLE_EQUAL(lv->latency_s, latency[d], 1e-15);
        CU_ASSERT_DOUBLE_EQUAL(lv->bandwidth_Bps, bandwidth[d], 1e-3);
        CU_ASSERT_EQUAL(lv->eager_limit, 4096);
        CU_ASSERT_EQUAL(sc_platform_domain_hier(p, (sc_domain_kind_t)d), d + 1);
        CU_ASSERT_EQUAL(sc_platform_domain_kind(p, d + 1), d);
    }

    /* Block: rank r on node r / 16, CCX (r % 16) / 2 of it. */
    int node_of[32], domain_of[32];
    CU_ASSERT_EQUAL_FATAL(sc_place(p, 32, SC_PLACE_BLOCK, node_of), SC_OK);
    CU_ASSERT_EQUAL_FATAL(sc_place_domains(p, 32, node_of, domain_of), SC_OK);
    for (int r = 0; r < 32; r++)
        CU_ASSERT_EQUAL(domain_of[r], r % 16 / 2);
    sc_model_t model;
    CU_ASSERT_EQUAL_FATAL(sc_model_init(&model, p, 32, node_of, domain_of, NULL, NULL, 8), SC_OK);
    static const int pairs[][3] = {{0, 1, 0}, {0, 2, 1}, {0, 4, 2},   {0, 8, 3},   {0, 16, 4},
                                   {2, 4, 2}, {6, 8, 3}, {10, 12, 2}, {12, 14, 1}, {15, 31, 4}};
    for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++) {
        int hier = pairs[i][2];
        CU_ASSERT_EQUAL(sc_model_hier_level(&model, pairs[i][0], pairs[i][1]), hier);
        CU_ASSERT_PTR_EQUAL(sc_model_level(&model, pairs[i][0], pairs[i][1]),
                            sc_platform_level(p, hier));
        CU_ASSERT_EQUAL(sc_model_level_id(&model, pairs[i][0], pairs[i][1]),
                        hier < 4 ? SC_LEVEL_INTRA : SC_LEVEL_INTER);
    }
    CU_ASSERT_PTR_EQUAL(sc_platform_level(p, 2), &p->between_domains[SC_DOMAIN_NUMA]);
    sc_model_destroy(&model);

    /* One message to a rank at each level: eager ones cost o_s, the route's
     * latency and (header + m) / its bandwidth, o_r; the model is exact,
     * rendezvous included. */
    static const int to[] = {1, 2, 4, 8, 16};
    static const size_t sizes[] = {8, 3000, 100000};
    for (int k = 0; k < 5; k++)
        for (int s = 0; s < 3; s++) {
            double sim, modeled;
            one_send(p, 32, to[k], sizes[s], &sim, &modeled);
            CU_ASSERT_DOUBLE_EQUAL(sim, modeled, 1e-9 * modeled);
            const sc_level_t *lv = sc_platform_level(p, k);
            if (sizes[s] > lv->eager_limit)
                continue;
            double closed = sc_level_send_overhead(lv, sizes[s]) + lv->latency_s +
                            (double)(p->header_bytes + sizes[s]) / lv->bandwidth_Bps +
                            sc_level_recv_overhead(lv, sizes[s]);
            CU_ASSERT_DOUBLE_EQUAL(sim, closed, 1e-9 * closed);
        }

    /* A level's own flow factor (simcoll/numa/flow-factor): a message
     * between NUMA domains moves at most at half the route's 600 MB/s;
     * the other levels keep shared memory's (none here). */
    char slow[SC_TEST_TEMP_LEN];
    CU_ASSERT_FATAL(sc_test_temp_file(slow) == 0);
    FILE *in = fopen(p->path, "r"), *out = fopen(slow, "w");
    CU_ASSERT_FATAL(in && out);
    char line[1024];
    while (fgets(line, sizeof line, in)) {
        fputs(line, out);
        if (strstr(line, "simcoll/ccx"))
            fputs("    <prop id=\"simcoll/numa/flow-factor\" value=\"0:0.5\"/>\n", out);
    }
    fclose(in);
    CU_ASSERT_FATAL(fclose(out) == 0);
    sc_platform_t halved;
    CU_ASSERT_EQUAL_FATAL(sc_platform_load("--platform", slow, &halved), SC_OK);
    CU_ASSERT_EQUAL(halved.between_domains[SC_DOMAIN_NUMA].flow_factor.n, 1);
    CU_ASSERT_EQUAL(halved.between_domains[SC_DOMAIN_CCX].flow_factor.n, 0);
    for (int k = 1; k <= 3; k++) {
        double sim, modeled, intact, ignored;
        one_send(&halved, 32, to[k], 3000, &sim, &modeled);
        one_send(p, 32, to[k], 3000, &intact, &ignored);
        CU_ASSERT_DOUBLE_EQUAL(sim, modeled, 1e-9 * modeled);
        const sc_level_t *lv = sc_platform_level(p, k);
        double wire = 3040 / (k == 2 ? 300e6 : lv->bandwidth_Bps);
        CU_ASSERT_DOUBLE_EQUAL(sim, 1e-6 + lv->latency_s + wire, 1e-9 * sim);
        CU_ASSERT_TRUE(k == 2 ? sim > intact : sim == intact);
    }
    sc_platform_destroy(&halved);

    /* The mapping goes level by level: on one node, Bruck's positions
     * cross fewer CCXs than block and cyclic placements make them. */
    sc_run_spec_t spec = {.plat = p,
                          .algo = sc_algo_find("bruck-reorder"),
                          .np = 16,
                          .bytes = 64,
                          .placement = SC_PLACE_BLOCK};
    sc_graph_t graph = {0};
    int pi[16];
    double seconds, cut, total, top, mapped, placed[2];
    CU_ASSERT_EQUAL_FATAL(sc_run_partition(&spec, &graph, SC_PARTITIONER_MULTILEVEL, pi, &seconds),
                          SC_OK);
    for (int c = 0; c < 2; c++) {
        spec.placement = c ? SC_PLACE_CYCLIC : SC_PLACE_BLOCK;
        CU_ASSERT_EQUAL(sc_run_cut(&spec, &graph, &cut, &total, &top, &placed[c]), SC_OK);
    }
    spec.placement = SC_PLACE_BLOCK;
    spec.pi = pi;
    CU_ASSERT_EQUAL(sc_run_cut(&spec, &graph, &cut, &total, &top, &mapped), SC_OK);
    CU_ASSERT_TRUE(mapped <= placed[0] && mapped <= placed[1]);
    CU_ASSERT_TRUE(mapped < total);
    sc_graph_destroy(&graph);

    /* Generated: core:2,ccx:2,numa:2,socket:2,node:2 is this cluster's
     * shape; each level's link starts adding nothing to the memory bus,
     * and --set adds to it. */
    const sc_platform_t *g = sc_test_platform("platforms/ib4x.xml");
    if (!g)
        return;
    sc_levels_t levels;
    CU_ASSERT_EQUAL_FATAL(sc_levels_parse("core:2,ccx:2,numa:2,socket:2,node:2", &levels), SC_OK);
    CU_ASSERT_EQUAL(levels.nodes, 2);
    CU_ASSERT_STRING_EQUAL(levels.cores, "16");
    for (int d = 0; d < SC_NDOMAIN_KINDS; d++)
        CU_ASSERT_EQUAL(levels.domains[d], 2);
    char path[SC_TEST_TEMP_LEN];
    CU_ASSERT_FATAL(sc_test_temp_file(path) == 0);
    char *sets[] = {"ccx.latency=20ns", "numa.latency=50ns", "socket.latency=100ns",
                    "socket.bandwidth=0.5x"};
    CU_ASSERT_EQUAL_FATAL(sc_generate_platform_smpi(g->path, NULL, NULL, levels.nodes, levels.cores,
                                                    levels.domains, sets, 4, 0, path),
                          SC_OK);
    sc_platform_t gen;
    CU_ASSERT_EQUAL_FATAL(sc_platform_load("--platform", path, &gen), SC_OK);
    CU_ASSERT_EQUAL(gen.total_cores, 32);
    CU_ASSERT_EQUAL(sc_platform_domains(&gen), 8);
    CU_ASSERT_EQUAL(gen.nlevels, 5);
    const sc_level_t *bus = &g->level[SC_LEVEL_INTRA];
    static const double added[SC_NDOMAIN_KINDS] = {20e-9, 50e-9, 100e-9};
    for (int d = 0; d < SC_NDOMAIN_KINDS; d++) {
        CU_ASSERT_DOUBLE_EQUAL(gen.between_domains[d].latency_s, bus->latency_s + added[d], 1e-15);
        CU_ASSERT_DOUBLE_EQUAL(gen.between_domains[d].bandwidth_Bps,
                               (d == SC_DOMAIN_SOCKET ? 0.5 : 1) * bus->bandwidth_Bps, 1e-3);
    }
    sc_platform_destroy(&gen);
    /* A level out of order, too many domains, a level's setting without it */
    CU_ASSERT_EQUAL(sc_levels_parse("core:2,socket:2,numa:2,node:2", &levels), SC_ERR_INPUT);
    CU_ASSERT_EQUAL(sc_levels_parse("ccx:8,numa:4,socket:4,node:2", &levels), SC_ERR_INPUT);
    char *numa_set[] = {"numa.latency=50ns"};
    CU_ASSERT_EQUAL(sc_generate_platform(g->path, NULL, NULL, 2, "4", 2, numa_set, 1, path),
                    SC_ERR_INPUT);
    CU_ASSERT_PTR_NOT_NULL(strstr(sc_error_message(), "--numa N"));
}

/* A platform calibrated for SMPI (tests/platforms/smpi-config.xml: its
 * network's settings in <config>) runs as the same platform with simcoll's
 * properties (smpi-props.xml) does, to the bit; written with
 * --smpi-config, it reads back the same, and writes the same again. */
static void test_smpi_config(void)
{
    /* Loaded here, not among the suites' shared platforms (of which there
     * may be 16). */
    sc_platform_t loaded[2];
    CU_ASSERT_EQUAL_FATAL(
        sc_platform_load("--platform", sc_test_path("tests/platforms/smpi-config.xml"), &loaded[0]),
        SC_OK);
    CU_ASSERT_EQUAL_FATAL(
        sc_platform_load("--platform", sc_test_path("tests/platforms/smpi-props.xml"), &loaded[1]),
        SC_OK);
    const sc_platform_t *config = &loaded[0], *props = &loaded[1];
    static const char *const algos[] = {"bcast-binomial", "allreduce-rd", "ring",
                                        "bcast-scatter-allgather"};
    /* about each boundary (multiples of 4 for the allreduce of ints) */
    static const size_t sizes[] = {0, 4, 1404, 1408, 1420, 1424, 16384, 16388, 65520, 1 << 20};
    for (size_t a = 0; a < sizeof algos / sizeof algos[0]; a++)
        for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
            int valid_a, valid_b;
            double ta = run_time(config->path, algos[a], 0, sizes[i], &valid_a);
            double tb = run_time(props->path, algos[a], 0, sizes[i], &valid_b);
            if (ta != tb)
                fprintf(stderr, "\n%s %zu: %.17g vs %.17g\n", algos[a], sizes[i], ta, tb);
            CU_ASSERT_EQUAL(ta, tb);
            CU_ASSERT_TRUE(valid_a && valid_b);
        }
    char path[SC_TEST_TEMP_LEN], again[SC_TEST_TEMP_LEN];
    CU_ASSERT_FATAL(sc_test_temp_file(path) == 0 && sc_test_temp_file(again) == 0);
    CU_ASSERT_EQUAL_FATAL(
        sc_generate_platform_smpi(config->path, NULL, NULL, 3, NULL, NULL, NULL, 0, 1, path),
        SC_OK);
    CU_ASSERT_EQUAL_FATAL(
        sc_generate_platform_smpi(path, NULL, NULL, 3, NULL, NULL, NULL, 0, 1, again), SC_OK);
    sc_platform_t gen, gen2;
    CU_ASSERT_EQUAL_FATAL(sc_platform_load("--platform", path, &gen), SC_OK);
    CU_ASSERT_EQUAL_FATAL(sc_platform_load("--platform", again, &gen2), SC_OK);
    for (int l = 0; l < SC_NLEVELS; l++) {
        const sc_level_t *x = &config->level[l], *y = &gen.level[l], *z = &gen2.level[l];
        CU_ASSERT_EQUAL(memcmp(&x->send_overhead, &y->send_overhead, sizeof x->send_overhead), 0);
        CU_ASSERT_EQUAL(memcmp(&x->recv_overhead, &y->recv_overhead, sizeof x->recv_overhead), 0);
        CU_ASSERT_EQUAL(
            memcmp(&x->bandwidth_factor, &y->bandwidth_factor, sizeof x->bandwidth_factor), 0);
        CU_ASSERT_EQUAL(memcmp(&x->latency_factor, &y->latency_factor, sizeof x->latency_factor),
                        0);
        CU_ASSERT_EQUAL(x->eager_limit, y->eager_limit);
        CU_ASSERT_EQUAL(memcmp(&y->send_overhead, &z->send_overhead, sizeof y->send_overhead), 0);
        CU_ASSERT_EQUAL(
            memcmp(&y->bandwidth_factor, &z->bandwidth_factor, sizeof y->bandwidth_factor), 0);
        CU_ASSERT_EQUAL(y->eager_limit, z->eager_limit);
    }
    sc_platform_destroy(&gen);
    sc_platform_destroy(&gen2);
    /* The settings in place of the network's properties, and the same
     * settings written again. */
    char *text[2] = {NULL, NULL};
    const char *files[2] = {path, again};
    for (int k = 0; k < 2; k++) {
        FILE *f = fopen(files[k], "r");
        CU_ASSERT_PTR_NOT_NULL_FATAL(f);
        size_t len = 0;
        FILE *mem = open_memstream(&text[k], &len);
        char line[1024];
        while (fgets(line, sizeof line, f))
            if ((strstr(line, "smpi/") || strstr(line, "simcoll/")) &&
                !strstr(line, "generated-by"))
                fputs(line, mem);
        fclose(mem);
        fclose(f);
    }
    CU_ASSERT_STRING_EQUAL(text[0], text[1]);
    CU_ASSERT_PTR_NULL(strstr(text[0], "simcoll/inter/send-overhead"));
    CU_ASSERT_PTR_NULL(strstr(text[0], "simcoll/inter/eager-limit"));
    CU_ASSERT_PTR_NOT_NULL(
        strstr(text[0], "<prop id=\"smpi/bw-factor\" value=\"15:0.6;1420:0.9;65536:0.95\"/>"));
    CU_ASSERT_PTR_NOT_NULL(
        strstr(text[0], "<prop id=\"smpi/send-is-detached-thresh\" value=\"16385\"/>"));
    CU_ASSERT_PTR_NOT_NULL(strstr(text[0], "simcoll/intra/send-overhead"));
    free(text[0]);
    free(text[1]);
    remove(path);
    remove(again);
    sc_platform_destroy(&loaded[0]);
    sc_platform_destroy(&loaded[1]);
}

/* The level a message crosses in a topology (models/platform.h): a ring
 * on one-core nodes sends rank i's message to i + 1, across the smallest
 * group that holds both, and SimGrid's routes agree with those groups. */
static void test_topology_levels(void)
{
    const sc_platform_t *g = sc_test_platform("platforms/gige.xml");
    if (!g)
        return;
    char path[SC_TEST_TEMP_LEN], other[SC_TEST_TEMP_LEN];
    CU_ASSERT_FATAL(sc_test_temp_file(path) == 0 && sc_test_temp_file(other) == 0);
    static const struct {
        const char *topology;
        int nlevels;
        long messages[5]; /* ring of 16 ranks: 15 steps of 16 messages */
    } cases[] = {
        {"fat-tree:2;4,4;1,2;1,1", 3, {0, 15 * 12, 15 * 4}},      /* leaves of 4 */
        {"dragonfly:2,1;2,1;2,1;2", 5, {0, 15 * 8, 15 * 4, 15 * 2, 15 * 2}},
        {"torus:4,4", 2, {0, 15 * 16}},
    };
    for (int i = 0; i < 3; i++) {
        CU_ASSERT_EQUAL_FATAL(
            sc_generate_platform(g->path, NULL, cases[i].topology, 0, "1", 1, NULL, 0, path), SC_OK);
        sc_run_result_t res;
        run_result(path, "ring", 16, 1000, &res);
        CU_ASSERT_EQUAL(res.nlevels, cases[i].nlevels);
        long between = 0;
        for (int l = 0; l < SC_MAX_LEVELS; l++) {
            CU_ASSERT_EQUAL(res.level_messages[l], l < 5 ? cases[i].messages[l] : 0);
            CU_ASSERT_DOUBLE_EQUAL(res.level_bytes[l], 1000.0 * res.level_messages[l], 0);
            between += l > 0 ? res.level_messages[l] : 0;
        }
        CU_ASSERT_EQUAL(between, res.messages[SC_LEVEL_INTER]);
        sc_run_result_destroy(&res);
    }
    /* Nodes 0 and 1 on one leaf switch (2 links between them) or on two
     * (4 links): the second route is longer by two NIC links, one NIC
     * latency, and its message is a level higher. */
    CU_ASSERT_EQUAL_FATAL(
        sc_generate_platform(g->path, NULL, "fat-tree:2;2,8;1,1;1,1", 0, "1", 1, NULL, 0, path), SC_OK);
    CU_ASSERT_EQUAL_FATAL(
        sc_generate_platform(g->path, NULL, "fat-tree:2;1,16;1,1;1,1", 0, "1", 1, NULL, 0, other),
        SC_OK);
    sc_run_result_t near, far;
    run_result(path, "bcast-binomial", 2, 1, &near);
    run_result(other, "bcast-binomial", 2, 1, &far);
    CU_ASSERT_EQUAL(near.level_messages[1], 1);
    CU_ASSERT_EQUAL(far.level_messages[2], 1);
    CU_ASSERT_DOUBLE_EQUAL(far.sim_time_s - near.sim_time_s, g->level[SC_LEVEL_INTER].latency_s,
                           1e-9 * far.sim_time_s);
    sc_run_result_destroy(&near);
    sc_run_result_destroy(&far);
    remove(path);
    remove(other);
}

/* Racks (racks:N,R, --levels node:N,rack:R): each rack's switch joined to
 * a core switch by its uplink. With uplinks like the NIC links they are
 * SimGrid's two-level fat tree of one link between switches, to the
 * simulated second; the default uplink (as fast as the rack's nodes' links
 * together) is faster; the messages that cross racks are level 2. */
static void test_racks(void)
{
    const sc_platform_t *g = sc_test_platform("platforms/ib4x.xml");
    if (!g)
        return;
    char racks[SC_TEST_TEMP_LEN], tree[SC_TEST_TEMP_LEN], fast[SC_TEST_TEMP_LEN];
    CU_ASSERT_FATAL(sc_test_temp_file(racks) == 0 && sc_test_temp_file(tree) == 0 &&
                    sc_test_temp_file(fast) == 0);
    char *slow[] = {"rack.bandwidth=0.25x"};
    sc_levels_t levels;
    CU_ASSERT_EQUAL_FATAL(sc_levels_parse("core:2,node:4,rack:3", &levels), SC_OK);
    CU_ASSERT_EQUAL(levels.nodes, 12);
    CU_ASSERT_STRING_EQUAL(levels.cores, "2");
    CU_ASSERT_STRING_EQUAL(levels.topology, "racks:4,3");
    CU_ASSERT_EQUAL_FATAL(sc_generate_platform(g->path, NULL, levels.topology, levels.nodes,
                                               levels.cores, 1, slow, 1, racks),
                          SC_OK);
    CU_ASSERT_EQUAL_FATAL(sc_generate_platform(g->path, NULL, "fat-tree:2;4,3;1,1;1,1", 0, "2", 1,
                                               NULL, 0, tree),
                          SC_OK);
    CU_ASSERT_EQUAL_FATAL(sc_generate_platform(g->path, NULL, "racks:4,3", 0, "2", 1, NULL, 0, fast),
                          SC_OK);
    static const char *const algos[] = {"bruck", "ring", "bcast-binomial", "allreduce-rd"};
    for (int i = 0; i < 4; i++) {
        sc_run_result_t a, b, c;
        run_result(racks, algos[i], 24, 4096, &a);
        run_result(tree, algos[i], 24, 4096, &b);
        run_result(fast, algos[i], 24, 4096, &c);
        CU_ASSERT_DOUBLE_EQUAL(a.sim_time_s, b.sim_time_s, 1e-9 * b.sim_time_s);
        CU_ASSERT_TRUE(c.sim_time_s <= a.sim_time_s);
        CU_ASSERT_EQUAL(a.nlevels, 3);
        for (int l = 0; l < 3; l++)
            CU_ASSERT_EQUAL(a.level_messages[l], b.level_messages[l]);
        CU_ASSERT_TRUE(a.level_messages[2] > 0);
        sc_run_result_destroy(&a);
        sc_run_result_destroy(&b);
        sc_run_result_destroy(&c);
    }
    /* Bruck's last steps cross the racks with many messages at once: the
     * default uplinks carry them faster than the one-link ones. */
    int valid_fast, valid_slow;
    CU_ASSERT_TRUE(run_time(fast, "bruck", 24, 65536, &valid_fast) <
                   0.9 * run_time(racks, "bruck", 24, 65536, &valid_slow));
    CU_ASSERT(valid_fast == 1 && valid_slow == 1);
    /* The uplink's own latency, set: one message between racks (one node a
     * rack) pays two NIC links and two uplinks, and the model, which takes
     * the routes' latency, says so to the simulated second. */
    char *uplink[] = {"rack.latency=3us", "rack.bandwidth=0.5x"};
    CU_ASSERT_EQUAL_FATAL(sc_generate_platform(g->path, NULL, "racks:1,3", 0, "1", 1, uplink, 2, fast),
                          SC_OK);
    sc_platform_t one;
    CU_ASSERT_EQUAL_FATAL(sc_platform_load("--platform", fast, &one), SC_OK);
    CU_ASSERT_TRUE(one.uniform);
    CU_ASSERT_DOUBLE_EQUAL(one.between_groups[0].latency_s,
                           g->level[SC_LEVEL_INTER].latency_s + 2 * 3e-6, 1e-15);
    CU_ASSERT_DOUBLE_EQUAL(one.between_groups[0].bandwidth_Bps,
                           0.5 * g->level[SC_LEVEL_INTER].bandwidth_Bps, 1);
    sc_platform_destroy(&one);
    sc_run_result_t msg;
    run_result(fast, "bcast-binomial", 2, 100000, &msg);
    CU_ASSERT_EQUAL(msg.level_messages[2], 1);
    CU_ASSERT_DOUBLE_EQUAL(msg.sim_time_s, msg.model_time_s, 1e-9 * msg.model_time_s);
    sc_run_result_destroy(&msg);
    static const char *const bad[][2] = {
        {"socket:100,node:4", "--levels: socket"},
        {"socket:2,core:2,node:4", "'core' after a larger level"},
        {"node:4,core:2", "'core' after a larger level"},
        {"node:4,node:2", "'node' twice"},
        {"rack:4", "no node level"},
        {"node:4,shelf:2", "unknown item 'shelf:2'"},
        {"node:0", "--levels: node"},
        {"node:4,", "ends with ','"},
        {"node:1024,rack:2048", "more than"},
        {"node:0000000000000000000000000000004junk", "--levels: node"},
        {"core:100000,node:2", "--levels: core"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        CU_ASSERT_EQUAL(sc_levels_parse(bad[i][0], &levels), SC_ERR_INPUT);
        if (!strstr(sc_error_message(), bad[i][1]))
            fprintf(stderr, "\n--levels %s: %s\n", bad[i][0], sc_error_message());
        CU_ASSERT_PTR_NOT_NULL(strstr(sc_error_message(), bad[i][1]));
    }
    char *unknown[] = {"rack.gap=1us"};
    CU_ASSERT_EQUAL(sc_generate_platform(g->path, NULL, "racks:4,3", 0, NULL, 1, unknown, 1, fast),
                    SC_ERR_INPUT);
    CU_ASSERT_PTR_NOT_NULL(strstr(sc_error_message(), "unknown parameter 'gap'"));
    remove(racks);
    remove(tree);
    remove(fast);
}

/* Nodes of sockets (tests/platforms/nocontention-sockets.xml: 2 racks of
 * nodes of 4, 6; 2, 4 cores, each node of 2 sockets): the levels and their
 * routes, the sockets ranks take, the level of their messages; and
 * sockets in generated platforms. */
static void test_sockets(void)
{
    const sc_platform_t *p = sc_test_platform("tests/platforms/nocontention-sockets.xml");
    if (!p)
        return;
    CU_ASSERT_EQUAL(p->nnodes, 4);
    CU_ASSERT_EQUAL(p->total_cores, 16);
    CU_ASSERT_EQUAL(p->domain_count[SC_DOMAIN_SOCKET], 2);
    CU_ASSERT_EQUAL(p->nlevels, 4);
    CU_ASSERT_TRUE(p->uniform);
    CU_ASSERT_STRING_EQUAL(p->nodes[1].name, "n1");
    CU_ASSERT_EQUAL(p->nodes[1].cores, 6);
    /* In a socket its memory bus; between sockets the memory bus and the
     * node's slower socket link, with shared memory's overhead and eager
     * limit; between nodes the two NIC links alone, as without sockets. */
    CU_ASSERT_DOUBLE_EQUAL(p->level[SC_LEVEL_INTRA].latency_s, 200e-9, 1e-15);
    CU_ASSERT_DOUBLE_EQUAL(p->level[SC_LEVEL_INTRA].bandwidth_Bps, 1e9, 1e-3);
    CU_ASSERT_DOUBLE_EQUAL(p->between_domains[SC_DOMAIN_SOCKET].latency_s, 200e-9, 1e-15);
    CU_ASSERT_DOUBLE_EQUAL(p->between_domains[SC_DOMAIN_SOCKET].bandwidth_Bps, 400e6, 1e-3);
    CU_ASSERT_EQUAL(p->between_domains[SC_DOMAIN_SOCKET].eager_limit, 4096);
    CU_ASSERT_DOUBLE_EQUAL(sc_level_send_overhead(&p->between_domains[SC_DOMAIN_SOCKET], 1), 1e-6,
                           1e-15);
    CU_ASSERT_DOUBLE_EQUAL(p->level[SC_LEVEL_INTER].latency_s, 10e-6, 1e-15);
    CU_ASSERT_DOUBLE_EQUAL(p->level[SC_LEVEL_INTER].bandwidth_Bps, 100e6, 1e-3);
    /* between racks: the two NIC links (5 us each) and the uplinks */
    CU_ASSERT_DOUBLE_EQUAL(p->between_groups[0].latency_s, 10e-6, 1e-15);
    CU_ASSERT_DOUBLE_EQUAL(p->between_groups[0].bandwidth_Bps, 40e6, 1e-3);

    /* A node's ranks take its cores in order, socket 0's first. */
    int node_of[16], domain_of[16];
    static const int block[16] = {0, 0, 1, 1, 0, 0, 0, 1, 1, 1, 0, 1, 0, 0, 1, 1};
    CU_ASSERT_EQUAL_FATAL(sc_place(p, 16, SC_PLACE_BLOCK, node_of), SC_OK);
    CU_ASSERT_EQUAL_FATAL(sc_place_domains(p, 16, node_of, domain_of), SC_OK);
    for (int r = 0; r < 16; r++)
        CU_ASSERT_EQUAL(domain_of[r], block[r]);
    sc_model_t model;
    CU_ASSERT_EQUAL_FATAL(sc_model_init(&model, p, 16, node_of, domain_of, NULL, NULL, 8), SC_OK);
    CU_ASSERT_EQUAL(sc_model_hier_level(&model, 0, 1), 0);
    CU_ASSERT_EQUAL(sc_model_hier_level(&model, 0, 2), 1);
    CU_ASSERT_EQUAL(sc_model_hier_level(&model, 0, 4), 2);  /* n0 to n1, one rack */
    CU_ASSERT_EQUAL(sc_model_hier_level(&model, 0, 12), 3); /* n0 to n3, two racks */
    CU_ASSERT_EQUAL(sc_model_level_id(&model, 0, 2), SC_LEVEL_INTRA);
    CU_ASSERT_PTR_EQUAL(sc_model_level(&model, 0, 2), &p->between_domains[SC_DOMAIN_SOCKET]);
    CU_ASSERT_PTR_EQUAL(sc_model_level(&model, 0, 4), &p->level[SC_LEVEL_INTER]);
    sc_model_destroy(&model);
    /* cyclic: two ranks a node; n2 has one core a socket */
    static const int cyclic[8] = {0, 0, 0, 0, 0, 0, 1, 0};
    CU_ASSERT_EQUAL_FATAL(sc_place(p, 8, SC_PLACE_CYCLIC, node_of), SC_OK);
    CU_ASSERT_EQUAL_FATAL(sc_place_domains(p, 8, node_of, domain_of), SC_OK);
    for (int r = 0; r < 8; r++)
        CU_ASSERT_EQUAL(domain_of[r], cyclic[r]);

    /* A ring on n0's 4 cores: of each step's 4 messages, 2 stay in a
     * socket and 2 cross to the other; the model is exact. */
    sc_run_result_t ring;
    run_result(p->path, "ring", 4, 1024, &ring);
    CU_ASSERT_EQUAL(ring.nlevels, 4);
    CU_ASSERT_EQUAL(ring.level_messages[0], 6);
    CU_ASSERT_EQUAL(ring.level_messages[1], 6);
    CU_ASSERT_EQUAL(ring.level_messages[2] + ring.level_messages[3], 0);
    CU_ASSERT_EQUAL(ring.messages[SC_LEVEL_INTRA], 12);
    CU_ASSERT_DOUBLE_EQUAL(ring.sim_time_s, ring.model_time_s, 1e-9 * ring.model_time_s);
    sc_run_result_destroy(&ring);

    /* Generated: core:2,socket:3,node:2 is 2 nodes of 3 sockets of 2
     * cores; the sockets' link starts adding nothing to the memory bus. */
    const sc_platform_t *g = sc_test_platform("platforms/ib4x.xml");
    if (!g)
        return;
    char path[SC_TEST_TEMP_LEN];
    CU_ASSERT_FATAL(sc_test_temp_file(path) == 0);
    sc_levels_t levels;
    CU_ASSERT_EQUAL_FATAL(sc_levels_parse("core:2,socket:3,node:2", &levels), SC_OK);
    CU_ASSERT_EQUAL(levels.domains[SC_DOMAIN_SOCKET], 3);
    CU_ASSERT_EQUAL(levels.nodes, 2);
    CU_ASSERT_STRING_EQUAL(levels.cores, "6");
    CU_ASSERT_STRING_EQUAL(levels.topology, "");
    CU_ASSERT_EQUAL_FATAL(sc_generate_platform(g->path, NULL, NULL, levels.nodes, levels.cores,
                                               levels.domains[SC_DOMAIN_SOCKET], NULL, 0, path),
                          SC_OK);
    sc_platform_t gen;
    CU_ASSERT_EQUAL_FATAL(sc_platform_load("--platform", path, &gen), SC_OK);
    CU_ASSERT_EQUAL(gen.domain_count[SC_DOMAIN_SOCKET], 3);
    CU_ASSERT_EQUAL(gen.total_cores, 12);
    CU_ASSERT_EQUAL(gen.nlevels, 3);
    CU_ASSERT_TRUE(gen.uniform);
    CU_ASSERT_DOUBLE_EQUAL(gen.between_domains[SC_DOMAIN_SOCKET].latency_s,
                           g->level[SC_LEVEL_INTRA].latency_s, 1e-15);
    CU_ASSERT_DOUBLE_EQUAL(gen.between_domains[SC_DOMAIN_SOCKET].bandwidth_Bps,
                           g->level[SC_LEVEL_INTRA].bandwidth_Bps, 1e-3);
    CU_ASSERT_DOUBLE_EQUAL(gen.level[SC_LEVEL_INTER].latency_s,
                           g->level[SC_LEVEL_INTER].latency_s, 1e-15);
    sc_platform_destroy(&gen);
    char *sets[] = {"socket.latency=100ns", "socket.bandwidth=0.5x"};
    CU_ASSERT_EQUAL_FATAL(sc_generate_platform(g->path, NULL, "racks:2,2", 0, "4", 2, sets, 2, path),
                          SC_OK);
    CU_ASSERT_EQUAL_FATAL(sc_platform_load("--platform", path, &gen), SC_OK);
    CU_ASSERT_EQUAL(gen.nlevels, 4);
    CU_ASSERT_DOUBLE_EQUAL(gen.between_domains[SC_DOMAIN_SOCKET].latency_s,
                           g->level[SC_LEVEL_INTRA].latency_s + 100e-9, 1e-15);
    CU_ASSERT_DOUBLE_EQUAL(gen.between_domains[SC_DOMAIN_SOCKET].bandwidth_Bps,
                           0.5 * g->level[SC_LEVEL_INTRA].bandwidth_Bps, 1e-3);
    sc_platform_destroy(&gen);

    /* One rank a node, 2 racks of 2 nodes: every message crosses the
     * network, and takes as long as without sockets. */
    char other[SC_TEST_TEMP_LEN];
    CU_ASSERT_FATAL(sc_test_temp_file(other) == 0);
    CU_ASSERT_EQUAL_FATAL(sc_generate_platform(g->path, NULL, "racks:2,2", 0, NULL, 2, NULL, 0,
                                               path),
                          SC_OK);
    CU_ASSERT_EQUAL_FATAL(sc_generate_platform(g->path, NULL, "racks:2,2", 0, NULL, 1, NULL, 0,
                                               other),
                          SC_OK);
    sc_platform_t with, without;
    CU_ASSERT_EQUAL_FATAL(sc_platform_load("--platform", path, &with), SC_OK);
    CU_ASSERT_EQUAL_FATAL(sc_platform_load("--platform", other, &without), SC_OK);
    CU_ASSERT_DOUBLE_EQUAL(with.between_groups[0].latency_s, without.between_groups[0].latency_s,
                           1e-15);
    static const char *const spread[] = {"bruck", "allreduce-rd", "bcast-binomial"};
    for (int i = 0; i < 3; i++) {
        sc_run_result_t a, b;
        sc_run_spec_t spec = {.plat = &with, .algo = sc_algo_find(spread[i]), .np = 4,
                              .bytes = 4096, .placement = SC_PLACE_CYCLIC};
        CU_ASSERT_EQUAL_FATAL(sc_run(&spec, &a), SC_OK);
        spec.plat = &without;
        CU_ASSERT_EQUAL_FATAL(sc_run(&spec, &b), SC_OK);
        CU_ASSERT_DOUBLE_EQUAL(a.sim_time_s, b.sim_time_s, 1e-12 * b.sim_time_s);
        CU_ASSERT_TRUE(a.level_messages[3] > 0); /* between racks */
        sc_run_result_destroy(&a);
        sc_run_result_destroy(&b);
    }
    sc_platform_destroy(&with);
    sc_platform_destroy(&without);
    remove(other);

    /* The mapping judged by its cut between nodes first: on 3 gige nodes
     * of 4 sockets, a partition into sockets cut this graph 256 between
     * nodes where block placement cuts 128. */
    CU_ASSERT_EQUAL_FATAL(sc_generate_platform(sc_test_path("platforms/gige.xml"), NULL, NULL, 3,
                                               "8", 4, NULL, 0, path),
                          SC_OK);
    CU_ASSERT_EQUAL_FATAL(sc_platform_load("--platform", path, &gen), SC_OK);
    sc_run_spec_t spec = {.plat = &gen, .algo = sc_algo_find("reduce-ompi-in-order-binary"),
                          .np = 16};
    int pi[16];
    double seconds, cut, block_cut, total;
    for (int how = 0; how < 2; how++) {
        spec.pi = NULL;
        CU_ASSERT_EQUAL_FATAL(sc_run_partition(&spec, NULL, (sc_partitioner_t)how, pi, &seconds),
                              SC_OK);
        CU_ASSERT_EQUAL(sc_run_cut(&spec, NULL, &block_cut, &total, NULL, NULL), SC_OK);
        spec.pi = pi;
        CU_ASSERT_EQUAL(sc_run_cut(&spec, NULL, &cut, &total, NULL, NULL), SC_OK);
        CU_ASSERT_TRUE(cut <= block_cut);
    }
    sc_platform_destroy(&gen);
    remove(path);

    static const struct {
        int sockets;
        char *set;
        const char *needle;
    } bad[] = {
        {3, NULL, "3 sockets a node cannot share node-0's 8 cores evenly"},
        {1, "socket.latency=1us", "there are no sockets"},
        {2, "socket.gap=1us", "unknown parameter 'gap'"},
        {2, "socket.latency=2x", "socket.latency starts at 0, which a factor leaves 0"},
        {65, NULL, "--sockets 65: give 1 to 64"},
    };
    CU_ASSERT_EQUAL(sc_generate_platform(g->path, NULL, "torus:2,2", 0, NULL, 2, NULL, 0, path),
                    SC_ERR_INPUT);
    CU_ASSERT_PTR_NOT_NULL(strstr(sc_error_message(), "not in 'torus:2,2'"));
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char *set[] = {bad[i].set};
        CU_ASSERT_EQUAL(sc_generate_platform(g->path, NULL, NULL, 2, NULL, bad[i].sockets, set,
                                             bad[i].set ? 1 : 0, path),
                        SC_ERR_INPUT);
        if (!strstr(sc_error_message(), bad[i].needle))
            fprintf(stderr, "\nsockets %d, %s: %s\n", bad[i].sockets, bad[i].set,
                    sc_error_message());
        CU_ASSERT_PTR_NOT_NULL(strstr(sc_error_message(), bad[i].needle));
        CU_ASSERT_EQUAL(access(path, F_OK), -1);
    }
}

/* A topology's node i is simcoll's node i, in name order, whatever the
 * order of the file: nocontention-racks.xml with n0 and n2 swapped in it
 * is the same platform, uniform, with the same times. */
static void test_topology_file_order(void)
{
    const char *original = sc_test_path("tests/platforms/nocontention-racks.xml");
    FILE *in = fopen(original, "r");
    CU_ASSERT_PTR_NOT_NULL_FATAL(in);
    char text[8192];
    size_t n = fread(text, 1, sizeof text - 1, in);
    fclose(in);
    text[n] = '\0';
    char *n0 = strstr(text, "<host id=\"n0\""), *n2 = strstr(text, "<host id=\"n2\"");
    CU_ASSERT_FATAL(n0 && n2 && n0 < n2 && strstr(n2, "core=\"2\"") < strchr(n2, '\n'));
    char line0[64], line2[64];
    snprintf(line0, sizeof line0, "%.*s", (int)(strchr(n0, '\n') - n0), n0);
    snprintf(line2, sizeof line2, "%.*s", (int)(strchr(n2, '\n') - n2), n2);
    CU_ASSERT_FATAL(strlen(line0) == strlen(line2)); /* same length: swap in place */
    memcpy(n0, line2, strlen(line2));
    memcpy(n2, line0, strlen(line0));
    char path[SC_TEST_TEMP_LEN];
    CU_ASSERT_FATAL(sc_test_temp_file(path) == 0);
    FILE *out = fopen(path, "w");
    CU_ASSERT_PTR_NOT_NULL_FATAL(out);
    fputs(text, out);
    fclose(out);
    sc_platform_t swapped;
    CU_ASSERT_EQUAL_FATAL(sc_platform_load("--platform", path, &swapped), SC_OK);
    CU_ASSERT_TRUE(swapped.uniform);
    CU_ASSERT_STRING_EQUAL(swapped.nodes[2].name, "n2");
    CU_ASSERT_EQUAL(swapped.nodes[2].cores, 2);
    sc_platform_destroy(&swapped);
    static const char *const algos[] = {"bruck", "bcast-binomial"};
    for (int i = 0; i < 2; i++) {
        sc_run_result_t a, b;
        run_result(original, algos[i], 17, 3000, &a);
        run_result(path, algos[i], 17, 3000, &b);
        CU_ASSERT_DOUBLE_EQUAL(a.sim_time_s, b.sim_time_s, 1e-12 * a.sim_time_s);
        CU_ASSERT_DOUBLE_EQUAL(b.sim_time_s, b.model_time_s, 1e-9 * b.model_time_s);
        CU_ASSERT_EQUAL(a.level_messages[2], b.level_messages[2]);
        sc_run_result_destroy(&a);
        sc_run_result_destroy(&b);
    }
    remove(path);
}

/* --topology: SimGrid's torus, fat tree and dragonfly of the template's
 * NIC links, each node keeping its own shared memory bus; a one-level fat
 * tree is the star simcoll builds without one, and a torus of two nodes
 * has one link where the star has two. */
static void test_generated_topology(void)
{
    const sc_platform_t *g = sc_test_platform("platforms/gige.xml");
    if (!g)
        return;
    char path[SC_TEST_TEMP_LEN], star[SC_TEST_TEMP_LEN];
    CU_ASSERT_FATAL(sc_test_temp_file(path) == 0 && sc_test_temp_file(star) == 0);
    static const char *const topologies[][2] = {
        {"torus:2,2", "gige-4x2-torus:2,2"},
        {"fat-tree:2;2,2;1,2;1,1", "gige-4x2-fat-tree:2;2,2;1,2;1,1"},
        {"dragonfly:2,1;1,1;2,1;1", "gige-4x2-dragonfly:2,1;1,1;2,1;1"},
    };
    for (int i = 0; i < 3; i++) {
        CU_ASSERT_EQUAL_FATAL(
            sc_generate_platform(g->path, NULL, topologies[i][0], 0, "2", 1, NULL, 0, path), SC_OK);
        sc_platform_t gen;
        CU_ASSERT_EQUAL_FATAL(sc_platform_load("--platform", path, &gen), SC_OK);
        CU_ASSERT_STRING_EQUAL(gen.name, topologies[i][1]);
        CU_ASSERT_EQUAL(gen.nnodes, 4);
        CU_ASSERT_TRUE(gen.topology);
        /* A fat tree's routes are those of their level; a torus's and a
         * dragonfly's differ in hops within one. */
        CU_ASSERT_EQUAL(gen.uniform, i == 1);
        sc_platform_destroy(&gen);
        int valid = 0;
        run_time(path, "bruck", 0, 2048, &valid);
        CU_ASSERT_EQUAL(valid, 1);
    }
    /* One switch: the star's time, exactly. */
    int valid;
    CU_ASSERT_EQUAL_FATAL(
        sc_generate_platform(g->path, NULL, "fat-tree:1;4;1;1", 0, NULL, 1, NULL, 0, path), SC_OK);
    CU_ASSERT_EQUAL_FATAL(sc_generate_platform(g->path, NULL, NULL, 4, NULL, 1, NULL, 0, star), SC_OK);
    double tree = run_time(path, "bruck", 0, 2048, &valid),
           flat = run_time(star, "bruck", 0, 2048, &valid);
    CU_ASSERT_DOUBLE_EQUAL(tree, flat, 1e-9 * flat);
    /* Two nodes of one core: a torus link is one NIC link, the star two. */
    CU_ASSERT_EQUAL_FATAL(sc_generate_platform(g->path, NULL, "torus:2", 0, "1", 1, NULL, 0, path),
                          SC_OK);
    CU_ASSERT_EQUAL_FATAL(sc_generate_platform(g->path, NULL, NULL, 2, "1", 1, NULL, 0, star), SC_OK);
    double one = run_time(path, "bcast-binomial", 2, 1000, &valid);
    double two = run_time(star, "bcast-binomial", 2, 1000, &valid);
    CU_ASSERT_DOUBLE_EQUAL(two - one, g->level[SC_LEVEL_INTER].latency_s / 2, 1e-9 * two);
    /* Refused, nothing written. */
    remove(path);
    CU_ASSERT_EQUAL(sc_generate_platform(g->path, NULL, "torus:2,2", 5, NULL, 1, NULL, 0, path),
                    SC_ERR_INPUT);
    CU_ASSERT_PTR_NOT_NULL(strstr(sc_error_message(), "--topology 'torus:2,2' connects 4 nodes"));
    CU_ASSERT_EQUAL(sc_generate_platform(g->path, NULL, "torus:x", 0, NULL, 1, NULL, 0, path),
                    SC_ERR_INPUT);
    CU_ASSERT_EQUAL(access(path, F_OK), -1);
    remove(star);
}

/* --set: each parameter changed absolutely or by a factor, the rest as
 * the template's; bad settings refused naming them, nothing written. */
static void test_generated_what_if(void)
{
    const sc_platform_t *g = sc_test_platform("platforms/gige.xml");
    if (!g)
        return;
    char path[SC_TEST_TEMP_LEN];
    CU_ASSERT_FATAL(sc_test_temp_file(path) == 0);
    char *sets[] = {"inter.bandwidth=2x",    "inter.latency=1.5us",      "node.speed=10Gf",
                    "inter.send-overhead=0.5x", "inter.recv-overhead=3us", "inter.gap=0",
                    "intra.eager-limit=128KiB", "intra.bandwidth=20GBps"};
    CU_ASSERT_EQUAL_FATAL(sc_generate_platform(g->path, NULL, NULL, 4, NULL, 1, sets, 8, path), SC_OK);
    sc_platform_t gen;
    CU_ASSERT_EQUAL_FATAL(sc_platform_load("--platform", path, &gen), SC_OK);
    const sc_level_t *in = &gen.level[SC_LEVEL_INTER], *was = &g->level[SC_LEVEL_INTER];
    CU_ASSERT_DOUBLE_EQUAL(in->bandwidth_Bps, 2 * was->bandwidth_Bps, 1e-6 * was->bandwidth_Bps);
    CU_ASSERT_DOUBLE_EQUAL(in->latency_s, 1.5e-6, 1e-15);
    CU_ASSERT_DOUBLE_EQUAL(gen.nodes[0].speed_flops, 1e10, 1);
    for (size_t m = 0; m < 100000; m = 3 * m + 1)
        CU_ASSERT_DOUBLE_EQUAL(sc_level_send_overhead(in, m), 0.5 * sc_level_send_overhead(was, m),
                               1e-15);
    CU_ASSERT_DOUBLE_EQUAL(sc_level_recv_overhead(in, 100000), 3e-6, 1e-15);
    CU_ASSERT_DOUBLE_EQUAL(in->gap_s, 0, 0);
    CU_ASSERT_EQUAL(in->eager_limit, was->eager_limit);
    CU_ASSERT_EQUAL(gen.level[SC_LEVEL_INTRA].eager_limit, 131072);
    CU_ASSERT_DOUBLE_EQUAL(gen.level[SC_LEVEL_INTRA].bandwidth_Bps, 2e10, 1);
    CU_ASSERT_DOUBLE_EQUAL(gen.level[SC_LEVEL_INTRA].latency_s,
                           g->level[SC_LEVEL_INTRA].latency_s, 1e-15);
    sc_platform_destroy(&gen);
    static const char *const bad[][2] = {
        {"inter.bandwidth=0x", "not a factor above 0 and below 1e12"},
        {"inter.bandwidth=fast", "(like 2x or 0.5x) or a positive bandwidth"},
        {"intra.gap=1us", "unknown parameter 'gap'"},
        {"rack.bandwidth=1GBps", "there are no racks"},
        {"cabinet.bandwidth=1GBps", "unknown level 'cabinet'"},
        {"inter.latency", "give LEVEL.PARAM=VALUE"},
        {"inter.latency=-1us", "or a non-negative duration"},
        {"inter.bandwidth=1e-300Bps", "the generated platform"},
        {"inter.bandwidth=1e300x", "not a factor above 0 and below 1e12"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char *one[] = {(char *)bad[i][0]};
        remove(path);
        CU_ASSERT_EQUAL(sc_generate_platform(g->path, NULL, NULL, 4, NULL, 1, one, 1, path),
                        SC_ERR_INPUT);
        if (!strstr(sc_error_message(), bad[i][1]))
            fprintf(stderr, "\n--set %s: %s\n", bad[i][0], sc_error_message());
        CU_ASSERT_PTR_NOT_NULL(strstr(sc_error_message(), bad[i][1]));
        CU_ASSERT_EQUAL(access(path, F_OK), -1); /* nothing written */
    }
    remove(path);
}


/* A run of `algo` on np ranks placed `placement` on `path` with one
 * parameter scaled (param NULL: none). */
static sc_run_result_t scaled_run(const char *path, const char *param, sc_param_at_t at,
                                  double factor, const char *algo, int np,
                                  sc_placement_t placement, size_t bytes)
{
    sc_scaling_t scaling = {param ? sc_param_find(param, strlen(param), at) : NULL, at, factor};
    sc_platform_t plat;
    sc_run_result_t res = {0};
    CU_ASSERT_EQUAL_FATAL(sc_platform_load_scaled("--platform", sc_test_path(path), &scaling,
                                                  param ? 1 : 0, &plat),
                          SC_OK);
    sc_run_spec_t spec = {.plat = &plat, .algo = sc_algo_find(algo), .np = np, .bytes = bytes,
                          .placement = placement, .payload = 1};
    CU_ASSERT_EQUAL_FATAL(sc_run(&spec, &res), SC_OK);
    CU_ASSERT_EQUAL(res.valid, 1);
    sc_platform_destroy(&plat);
    return res;
}

/* Sensitivity's platforms (sc_platform_load_scaled): each parameter at
 * each level, doubled, changes the simulated time, and the cost model,
 * which reads the scaled routes, still gives it to the simulated second
 * (the platforms have no contention); a level the platform lacks, and a
 * node's speed, are refused. */
static void test_scaled_platforms(void)
{
    /* Inside a node: node 0's ranks alone (block); otherwise every rank,
     * cyclic, so that every level carries messages. (The uplinks and the
     * sockets' links of these files add no latency: nothing to scale.) */
    static const struct {
        const char *file, *param;
        sc_param_at_t at;
        int one_node;
    } cases[] = {
        {"tests/platforms/nocontention.xml", "latency", SC_AT_INTER, 0},
        {"tests/platforms/nocontention.xml", "bandwidth", SC_AT_INTER, 0},
        {"tests/platforms/nocontention.xml", "latency", SC_AT_INTRA, 1},
        {"tests/platforms/nocontention.xml", "bandwidth", SC_AT_INTRA, 1},
        {"tests/platforms/nocontention.xml", "send-overhead", SC_AT_INTER, 0},
        {"tests/platforms/nocontention.xml", "send-overhead", SC_AT_INTRA, 1},
        {"tests/platforms/nocontention.xml", "eager-limit", SC_AT_INTER, 0},
        {"tests/platforms/nocontention-racks.xml", "bandwidth", SC_AT_RACK, 0},
        {"tests/platforms/nocontention-racks.xml", "latency", SC_AT_INTER, 0},
        {"tests/platforms/nocontention-sockets.xml", "bandwidth", SC_AT_SOCKET, 1},
        {"tests/platforms/nocontention-sockets.xml", "latency", SC_AT_INTRA, 1},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        sc_platform_t base;
        CU_ASSERT_EQUAL_FATAL(sc_platform_load("--platform", sc_test_path(cases[i].file), &base),
                              SC_OK);
        /* 1500 bytes: eager inside a node, rendezvous between nodes. */
        int np = cases[i].one_node ? base.nodes[0].cores : base.total_cores;
        sc_placement_t placement = cases[i].one_node ? SC_PLACE_BLOCK : SC_PLACE_CYCLIC;
        sc_platform_destroy(&base);
        sc_run_result_t before =
            scaled_run(cases[i].file, NULL, cases[i].at, 1, "bruck", np, placement, 1500);
        sc_run_result_t after = scaled_run(cases[i].file, cases[i].param, cases[i].at, 2, "bruck",
                                           np, placement, 1500);
        if (fabs(after.sim_time_s - after.model_time_s) > 1e-9 * after.model_time_s ||
            after.sim_time_s == before.sim_time_s)
            fprintf(stderr, "\n%s %s.%s x2: simulated %.12g (before %.12g), model %.12g\n",
                    cases[i].file, sc_param_at_name(cases[i].at), cases[i].param,
                    after.sim_time_s, before.sim_time_s, after.model_time_s);
        CU_ASSERT_DOUBLE_EQUAL(after.sim_time_s, after.model_time_s, 1e-9 * after.model_time_s);
        CU_ASSERT_NOT_EQUAL(after.sim_time_s, before.sim_time_s);
        sc_run_result_destroy(&before);
        sc_run_result_destroy(&after);
    }
    /* The scaled level's own figures. */
    sc_platform_t base, twice;
    const char *name = "tests/platforms/nocontention.xml", *file = sc_test_path(name);
    sc_scaling_t lat = {sc_param_find("latency", 7, SC_AT_INTER), SC_AT_INTER, 2};
    CU_ASSERT_EQUAL_FATAL(sc_platform_load("--platform", file, &base), SC_OK);
    CU_ASSERT_EQUAL_FATAL(sc_platform_load_scaled("--platform", file, &lat, 1, &twice), SC_OK);
    CU_ASSERT_DOUBLE_EQUAL(twice.level[SC_LEVEL_INTER].latency_s,
                           2 * base.level[SC_LEVEL_INTER].latency_s, 1e-18);
    CU_ASSERT_DOUBLE_EQUAL(twice.level[SC_LEVEL_INTRA].latency_s,
                           base.level[SC_LEVEL_INTRA].latency_s, 1e-18);
    sc_platform_destroy(&twice);
    sc_scaling_t refused[] = {{sc_param_find("latency", 7, SC_AT_SOCKET), SC_AT_SOCKET, 2},
                              {sc_param_find("bandwidth", 9, SC_AT_RACK), SC_AT_RACK, 2},
                              {sc_param_find("speed", 5, SC_AT_NODE), SC_AT_NODE, 2}};
    for (int i = 0; i < 3; i++) {
        CU_ASSERT_PTR_NOT_NULL_FATAL(refused[i].param);
        CU_ASSERT_EQUAL(sc_platform_load_scaled("--platform", file, &refused[i], 1, &twice),
                        SC_ERR_INPUT);
    }
    /* One eager message between two nodes, T = o_s + L + (m + h) / B: the
     * elasticity of T to L is L / T, as --sensitivity reckons it from runs
     * 1% above and below (T is linear in L, so exactly), and to B close to
     * -(m + h) / (B T), as the sign and size of a known case. */
    double L = base.level[SC_LEVEL_INTER].latency_s, B = base.level[SC_LEVEL_INTER].bandwidth_Bps;
    double T = sc_level_send_overhead(&base.level[SC_LEVEL_INTER], 512) + L + 552 / B;
    sc_run_result_t up = scaled_run(name, "latency", SC_AT_INTER, 1.01, "bcast-binomial", 2,
                                    SC_PLACE_CYCLIC, 512),
                    down = scaled_run(name, "latency", SC_AT_INTER, 0.99, "bcast-binomial", 2,
                                      SC_PLACE_CYCLIC, 512);
    CU_ASSERT_DOUBLE_EQUAL((up.sim_time_s - down.sim_time_s) / (0.02 * T), L / T, 1e-9);
    sc_run_result_destroy(&up);
    sc_run_result_destroy(&down);
    up = scaled_run(name, "bandwidth", SC_AT_INTER, 1.01, "bcast-binomial", 2, SC_PLACE_CYCLIC,
                    512);
    down = scaled_run(name, "bandwidth", SC_AT_INTER, 0.99, "bcast-binomial", 2, SC_PLACE_CYCLIC,
                      512);
    double e = (up.sim_time_s - down.sim_time_s) / (0.02 * T);
    CU_ASSERT_TRUE(e < 0);
    CU_ASSERT_DOUBLE_EQUAL(e, -552 / (B * T), 1e-3 * 552 / (B * T));
    sc_run_result_destroy(&up);
    sc_run_result_destroy(&down);
    sc_platform_destroy(&base);
}

/* The table of parameters is consistent: what reads it relies on that. */
static void test_params_table(void)
{
    const unsigned levels = SC_AT(SC_AT_INTRA) | SC_AT(SC_AT_INTER);
    const unsigned domains = SC_AT(SC_AT_SOCKET) | SC_AT(SC_AT_NUMA) | SC_AT(SC_AT_CCX);
    const unsigned links = levels | SC_AT(SC_AT_RACK) | domains;
    for (const sc_param_t *p = sc_params; p->name; p++) {
        CU_ASSERT_TRUE(p->at != 0 && p->doc && *p->doc);
        for (int at = 0; at < SC_NAT; at++)
            if (p->at & SC_AT(at))
                CU_ASSERT_PTR_EQUAL(sc_param_find(p->name, strlen(p->name), (sc_param_at_t)at), p);
        /* Only the properties' levels name their messages. */
        if (strstr(p->doc, "%s"))
            CU_ASSERT_EQUAL(p->at & ~(levels | domains), 0);
        int piecewise = p->kind == SC_PARAM_PIECEWISE_TIME || p->kind == SC_PARAM_PIECEWISE_FACTOR;
        if (p->carrier != SC_CARRIER_PROP)
            CU_ASSERT_FALSE(piecewise || p->required || p->constant_of);
        CU_ASSERT_FALSE(p->settable && p->kind == SC_PARAM_PIECEWISE_FACTOR); /* no unit */
        CU_ASSERT_EQUAL(p->fit_name == NULL, p->fit == NULL);
        CU_ASSERT_TRUE(p->min <= p->max);
        if (p->constant_of) {
            const sc_param_t *form =
                sc_param_find(p->constant_of, strlen(p->constant_of), SC_AT_INTRA);
            /* on the levels of its form, or some of them */
            CU_ASSERT_TRUE(form && (form->at & p->at) == p->at && form->offset == p->offset &&
                           form->kind == SC_PARAM_PIECEWISE_TIME && p->kind == SC_PARAM_DURATION);
        }
        sc_param_in_t in = p->at & links ? SC_IN_LEVEL
                           : p->at == SC_AT(SC_AT_NODE) ? SC_IN_NODE
                                                        : SC_IN_PLATFORM;
        CU_ASSERT_EQUAL(p->in, in);
    }
    /* The properties: as many as before the table, the domains' flow
     * factors and overheads, the NIC's limit both ways and a call's
     * entry, in the files' order, each found by its id. */
    sc_platform_prop_t props[SC_MAX_PLATFORM_PROPS];
    int n = sc_platform_props_list(props);
    CU_ASSERT_EQUAL(n, 27);
    CU_ASSERT_STRING_EQUAL(props[0].id, "simcoll/intra/send-overhead");
    CU_ASSERT_STRING_EQUAL(props[4].id, "simcoll/intra/latency-factor");
    CU_ASSERT_STRING_EQUAL(props[5].id, "simcoll/intra/flow-factor");
    CU_ASSERT_STRING_EQUAL(props[6].id, "simcoll/intra/call-overhead");
    CU_ASSERT_STRING_EQUAL(props[15].id, "simcoll/inter/gap");
    CU_ASSERT_STRING_EQUAL(props[16].id, "simcoll/inter/bidirectional-bandwidth");
    CU_ASSERT_STRING_EQUAL(props[17].id, "simcoll/socket/send-overhead");
    CU_ASSERT_STRING_EQUAL(props[19].id, "simcoll/socket/flow-factor");
    CU_ASSERT_STRING_EQUAL(props[24].id, "simcoll/ccx/recv-overhead");
    CU_ASSERT_STRING_EQUAL(props[25].id, "simcoll/ccx/flow-factor");
    CU_ASSERT_STRING_EQUAL(props[26].id, "simcoll/header-bytes");
    for (int i = 0; i < n; i++)
        CU_ASSERT_EQUAL(sc_platform_prop_index(props[i].id), i);
    CU_ASSERT_EQUAL(sc_platform_prop_index("simcoll/intra/gap"), -1);
    CU_ASSERT_EQUAL(sc_platform_prop_index("simcoll/inter/call-overhead"), -1);
    char doc[200];
    sc_param_describe(props[7].param, props[7].at, doc, sizeof doc);
    CU_ASSERT_STRING_EQUAL(doc, "the largest intra-node message sent eagerly (bytes)");
}

void sc_suite_platform(void)
{
    CU_pSuite s = CU_add_suite("platform", NULL, NULL);
    CU_add_test(s, "the table of parameters", test_params_table);
    CU_add_test(s, "scaled parameters (sensitivity)", test_scaled_platforms);
    CU_add_test(s, "what-if settings of a generated platform", test_generated_what_if);
    CU_add_test(s, "uneven nodes of a generated platform", test_generated_uneven);
    CU_add_test(s, "interconnect presets of a generated platform", test_generated_network);
    CU_add_test(s, "SimGrid's topologies in a generated platform", test_generated_topology);
    CU_add_test(s, "levels of a topology's messages", test_topology_levels);
    CU_add_test(s, "racks and their uplinks", test_racks);
    CU_add_test(s, "a NIC's limit both ways", test_bidirectional);
    CU_add_test(s, "nodes of sockets", test_sockets);
    CU_add_test(s, "nested levels inside nodes", test_nested_domains);
    CU_add_test(s, "a topology's nodes in name order", test_topology_file_order);
    CU_add_test(s, "shipped platforms", test_shipped_platforms);
    CU_add_test(s, "shipped platforms fitted to excalibur-tests",
                test_shipped_excalibur_platforms);
    CU_add_test(s, "shipped platform fitted to Grid'5000 taurus", test_shipped_tengige);
    CU_add_test(s, "shipped platform fitted to TACC Stampede", test_shipped_ib_fdr);
    CU_add_test(s, "uneven and non-uniform", test_uneven_platform);
    CU_add_test(s, "bad platforms", test_bad_platforms);
    CU_add_test(s, "placement", test_placement);
    CU_add_test(s, "generated platform", test_generated_platform);
    CU_add_test(s, "latency factors of a generated platform", test_generated_latency_factor);
    CU_add_test(s, "SMPI's settings read and written back identically", test_smpi_config);
}
