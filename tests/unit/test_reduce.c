/* Reduce and allreduce: operations, every algorithm against the sequential
 * reduction and its cost model, the bytes on the critical path.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include <CUnit/CUnit.h>
#include <stdlib.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "algorithms/collectives.h"
#include "algorithms/mapping/graph.h"
#include "helpers.h"
#include "algorithms/openmpi/openmpi.h"
#include "algorithms/steps.h"
#include "algorithms/openmpi/tuned.h"
#include "suites.h"

/* 12 nodes of 8 cores and one of 6, no link shared: models are exact. */
#define BIG "tests/platforms/nocontention-102.xml"

static void test_ops(void)
{
    int a[] = {INT_MAX, 6, 0, -3}, b[] = {1, 3, 5, -3};
    sc_op_apply(SC_OP_SUM, SC_TYPE_INT, a, b, 4);
    CU_ASSERT_EQUAL(a[0], INT_MIN); /* wraps around, no overflow */
    CU_ASSERT_EQUAL(a[1], 9);
    CU_ASSERT_EQUAL(a[3], -6);
    int l[] = {2, 0, 7, 0}, m[] = {5, 5, 0, 0};
    sc_op_apply(SC_OP_LXOR, SC_TYPE_INT, l, m, 4);
    CU_ASSERT_TRUE(l[0] == 0 && l[1] == 1 && l[2] == 1 && l[3] == 0);
    int x[] = {12, 12}, y[] = {10, 10};
    sc_op_apply(SC_OP_BAND, SC_TYPE_INT, x, y, 1);
    sc_op_apply(SC_OP_BXOR, SC_TYPE_INT, x + 1, y + 1, 1);
    CU_ASSERT_EQUAL(x[0], 8);
    CU_ASSERT_EQUAL(x[1], 6);
    double d[] = {1.5, -2, 3}, e[] = {2, 4, -1};
    sc_op_apply(SC_OP_PROD, SC_TYPE_DOUBLE, d, e, 3);
    CU_ASSERT_DOUBLE_EQUAL(d[0], 3, 0);
    CU_ASSERT_DOUBLE_EQUAL(d[1], -8, 0);
    sc_op_apply(SC_OP_MIN, SC_TYPE_DOUBLE, d, e, 3);
    CU_ASSERT_DOUBLE_EQUAL(d[2], -3, 0);

    sc_op_t op;
    sc_type_t type;
    CU_ASSERT_EQUAL(sc_op_parse("lxor", "--op", &op), SC_OK);
    CU_ASSERT_EQUAL(op, SC_OP_LXOR);
    CU_ASSERT_EQUAL(sc_op_parse("avg", "--op", &op), SC_ERR_INPUT);
    CU_ASSERT_PTR_NOT_NULL(strstr(sc_error_message(), "'avg'"));
    CU_ASSERT_EQUAL(sc_type_parse("float", "--type", &type), SC_ERR_INPUT);
    CU_ASSERT_PTR_NOT_NULL(strstr(sc_error_message(), "use int or double"));
    for (int o = 0; o < SC_NOPS; o++) {
        CU_ASSERT_EQUAL(sc_op_check((sc_op_t)o, SC_TYPE_INT), SC_OK);
        CU_ASSERT_EQUAL(sc_op_check((sc_op_t)o, SC_TYPE_DOUBLE),
                        o <= SC_OP_MIN ? SC_OK : SC_ERR_INPUT);
    }
}

/* The sample inputs combine to the same bits in any order: sum them
 * forwards and backwards. */
static void test_samples_any_order(void)
{
    enum { P = 40, N = 50 };
    for (int t = 0; t < SC_NTYPES; t++)
        for (int o = 0; o < SC_NOPS; o++) {
            if (sc_op_check((sc_op_t)o, (sc_type_t)t) != SC_OK)
                continue;
            size_t elem = sc_type_size((sc_type_t)t);
            char fwd[N * 8], bwd[N * 8], in[N * 8];
            for (int k = 0; k < N; k++) {
                sc_op_sample((sc_op_t)o, (sc_type_t)t, 0, P, (size_t)k, fwd + k * elem);
                sc_op_sample((sc_op_t)o, (sc_type_t)t, P - 1, P, (size_t)k, bwd + k * elem);
            }
            for (int r = 1; r < P; r++) {
                for (int k = 0; k < N; k++)
                    sc_op_sample((sc_op_t)o, (sc_type_t)t, r, P, (size_t)k, in + k * elem);
                sc_op_apply((sc_op_t)o, (sc_type_t)t, fwd, in, N);
                for (int k = 0; k < N; k++)
                    sc_op_sample((sc_op_t)o, (sc_type_t)t, P - 1 - r, P, (size_t)k,
                                 in + k * elem);
                sc_op_apply((sc_op_t)o, (sc_type_t)t, bwd, in, N);
            }
            CU_ASSERT_EQUAL(memcmp(fwd, bwd, N * elem), 0);
        }
}

/* Vector lengths in elements for p ranks: empty, one element, shorter
 * than, as long as and not divisible by p, odd. */
static int lengths(int p, size_t *out)
{
    size_t cand[] = {0, 1, 3, (size_t)p - 1, (size_t)p, 2 * (size_t)p + 1};
    int n = 0;
    for (size_t i = 0; i < sizeof cand / sizeof cand[0]; i++) {
        int seen = 0;
        for (int j = 0; j < n; j++)
            seen |= out[j] == cand[i];
        if (!seen)
            out[n++] = cand[i];
    }
    return n;
}

static const int grid_nps[] = {1,  2,  3,  4,  5,  6,  7,  8,  9,  10, 11, 12, 13,
                               14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26,
                               27, 28, 29, 30, 31, 32, 33, 63, 64, 65, 100};

/* Runs spec; checks the result and that the simulated time is the
 * model's. Returns 1 if it ran. */
static int check_run(const sc_run_spec_t *spec)
{
    sc_run_result_t res;
    if (sc_run(spec, &res) != SC_OK) {
        fprintf(stderr, "\n%s np=%d %zu bytes %s/%s: %s\n", spec->algo->name, spec->np,
                spec->bytes, sc_op_name(spec->op), sc_type_name(spec->type), sc_error_message());
        CU_FAIL("reduction failed");
        return 0;
    }
    int right = res.valid == 1;
    int exact = fabs(res.sim_time_s - res.model_time_s) <= 1e-6 * res.model_time_s + 1e-15;
    if (!right || !exact) {
        fprintf(stderr, "\n%s np=%d root=%d %zu bytes %s/%s: %s, simulated %.9g, model %.9g\n",
                spec->algo->name, spec->np, spec->root, spec->bytes, sc_op_name(spec->op),
                sc_type_name(spec->type), right ? "right" : "WRONG RESULT", res.sim_time_s,
                res.model_time_s);
        CU_ASSERT_TRUE(right);
        CU_ASSERT_TRUE(exact);
    }
    sc_run_result_destroy(&res);
    return 1;
}

/* Process counts at which every operation runs at every length; at the
 * others the operation rotates with the count and the length, so that
 * every algorithm still meets every operation many times (running them
 * all everywhere made this suite most of CI's time). */
static int all_ops_at(int np)
{
    return np == 3 || np == 12 || np == 33 || np == 100;
}

/* Under SIMCOLL_TEST_SAMPLE = k (sc_test_sample), the grids keep every
 * k-th process count and 3 and 12, where every operation runs: a memory
 * error of an algorithm shows at a few counts as well as at many. */

/* Every reduction algorithm x the process counts and lengths above x the
 * operations of `type`, roots spread over the ranks. */
static void check_grid(sc_type_t type)
{
    const sc_platform_t *plat = sc_test_platform(BIG);
    if (!plat)
        return;
    sc_op_t ops[SC_NOPS];
    int nops = 0;
    for (int o = 0; o < SC_NOPS; o++)
        if (sc_op_check((sc_op_t)o, type) == SC_OK)
            ops[nops++] = (sc_op_t)o;
    int runs = 0, sample = sc_test_sample();
    for (const sc_algo_t *a = sc_algos; a->name; a++) {
        if (!sc_algo_is_reduction(a) || !sc_test_generic(a))
            continue;
        for (size_t i = 0; i < sizeof grid_nps / sizeof grid_nps[0]; i++) {
            int np = grid_nps[i];
            if (sc_algo_check(a, np) != SC_OK ||
                (i % (size_t)sample && np != 3 && np != 12) || (sample > 1 && np == 100))
                continue;
            size_t n[8];
            int nn = lengths(np, n);
            for (int j = 0; j < nn; j++)
                for (int k = 0; k < nops; k++) {
                    if (!all_ops_at(np) && k != (int)((i + (size_t)j) % (size_t)nops))
                        continue;
                    sc_run_spec_t spec = {.plat = plat, .algo = a, .np = np,
                                          .bytes = n[j] * sc_type_size(type),
                                          .root = (2 * np + (int)ops[k]) / 3 % np, .op = ops[k],
                                          .type = type, .payload = 1};
                    runs += check_run(&spec);
                }
        }
    }
    printf(" [%d runs] ", runs);
    CU_ASSERT_TRUE(runs > 5000 / (2 * sample));
}

static void test_grid_int(void)
{
    check_grid(SC_TYPE_INT);
}

static void test_grid_double(void)
{
    check_grid(SC_TYPE_DOUBLE);
}

/* 1 MiB vectors: every algorithm and operation on a few process counts (a
 * power of two for the algorithms that need one, and two that are not;
 * the grid suites cover many more counts with small vectors). Under
 * SIMCOLL_TEST_SAMPLE = k, every k-th operation at each count, in turn. */
static void test_one_mib(void)
{
    const sc_platform_t *plat = sc_test_platform(BIG);
    if (!plat)
        return;
    static const int nps[] = {7, 16, 65};
    int runs = 0, sample = sc_test_sample();
    for (const sc_algo_t *a = sc_algos; a->name; a++)
        for (int t = 0; sc_algo_is_reduction(a) && sc_test_generic(a) && t < SC_NTYPES; t++)
            for (int o = 0; o < SC_NOPS; o++)
                for (size_t i = 0; i < sizeof nps / sizeof nps[0]; i++) {
                    if (sc_op_check((sc_op_t)o, (sc_type_t)t) != SC_OK ||
                        sc_algo_check(a, nps[i]) != SC_OK || (o + (int)i) % sample)
                        continue;
                    sc_run_spec_t spec = {.plat = plat, .algo = a, .np = nps[i],
                                          .bytes = 1 << 20, .root = nps[i] / 2,
                                          .op = (sc_op_t)o, .type = (sc_type_t)t,
                                          .payload = 1};
                    runs += check_run(&spec);
                }
    printf(" [%d runs] ", runs);
    CU_ASSERT_TRUE(runs > 800 / sample);
}

/* A binomial reduce to rank 0 that drops what odd ranks send at the first
 * step: the check must catch it for every operation. */
static sc_err_t lossy_reduce(sc_comm_t *comm, const sc_coll_args_t *args)
{
    int rank = comm->rank, p = comm->size;
    sc_buf_copy(comm, args->recvbuf, args->sendbuf, args->bytes);
    char tmp[1024];
    for (int mask = 1; mask < p; mask <<= 1) {
        if (rank & mask)
            return sc_send(comm, args->recvbuf, args->bytes, rank - mask, SC_TAG_ALLREDUCE);
        if (rank + mask < p) {
            sc_err_t err = sc_recv(comm, tmp, args->bytes, rank + mask, SC_TAG_ALLREDUCE);
            if (err)
                return err;
            if (mask != 1)
                sc_op_apply(args->op, args->type, args->recvbuf, tmp,
                            args->bytes / sc_type_size(args->type));
        }
    }
    return SC_OK;
}

static void test_wrong_result_is_caught(void)
{
    const sc_platform_t *plat = sc_test_platform("platforms/gige.xml");
    if (!plat)
        return;
    sc_algo_t lossy = {"lossy", SC_REDUCE, lossy_reduce, 0, "binomial reduce that loses rank 1"};
    for (int t = 0; t < SC_NTYPES; t++)
        for (int o = 0; o < SC_NOPS; o++) {
            if (sc_op_check((sc_op_t)o, (sc_type_t)t) != SC_OK)
                continue;
            sc_run_spec_t spec = {.plat = plat, .algo = &lossy, .np = 5,
                                  .bytes = 11 * sc_type_size((sc_type_t)t), .op = (sc_op_t)o,
                                  .type = (sc_type_t)t, .payload = 1};
            sc_run_result_t res;
            CU_ASSERT_EQUAL_FATAL(sc_run(&spec, &res), SC_OK);
            if (res.valid != 0)
                fprintf(stderr, "\nlost rank not noticed with %s/%s\n", sc_op_name(spec.op),
                        sc_type_name(spec.type));
            CU_ASSERT_EQUAL(res.valid, 0);
            sc_run_result_destroy(&res);
        }
}

/* The bytes on the critical path are the beta coefficients of the closed
 * forms (models/collectives.h) times L. */
static double expected_path(const char *algo, int p, double L)
{
    int N = sc_pow2_below(p), logp = sc_ceil_log2(p), r = p - N;
    /* Open MPI's: a rank's blocking send and its receives count one after
     * the other; the trees and the ring have no simple form */
    if (!strcmp(algo, "reduce-ompi-chain") || !strcmp(algo, "reduce-ompi-linear"))
        return (p - 1) * L;
    if (!strcmp(algo, "reduce-ompi-binomial"))
        return logp * L;
    if (!strcmp(algo, "allreduce-ompi-linear"))
        return p * L;
    if (strstr(algo, "-ompi-"))
        return NAN;
    if (!strcmp(algo, "reduce-mst"))
        return logp * L;
    if (!strcmp(algo, "allreduce-mst"))
        return 2 * logp * L;
    if (!strcmp(algo, "allreduce-rd"))
        return (r ? 2 : 0) * L + sc_ceil_log2(N) * L;
    /* two levels (MPICH's SMP, MVAPICH2's shared-memory): the paths depend
     * on the nodes */
    if (strstr(algo, "-mpich-smp") || strstr(algo, "-mv2-"))
        return NAN;
    if (!strcmp(algo, "allreduce-ring") || r == 0)
        return 2.0 * (p - 1) / p * L;
    if (!strcmp(algo, "reduce-mpich"))
        return (3 - 2.0 / N) * L;
    if (!strcmp(algo, "allreduce-mpich"))
        return (4 - 2.0 / N) * L;
    if (!strcmp(algo, "reduce-nonpow2"))
        return (2.5 - 2.0 / N) * L;
    if (!strcmp(algo, "allreduce-nonpow2"))
        return (3 - 2.0 / N) * L;
    if (!strcmp(algo, "allreduce-rabenseifner"))
        return (4 - 2.0 / N) * L;
    if (!strcmp(algo, "reduce-rabenseifner"))
        return (3 - 2.0 / N) * L;
    return NAN;
}

static void test_critical_path_bytes(void)
{
    const sc_platform_t *plat = sc_test_platform(BIG);
    if (!plat)
        return;
    static const int nps[] = {2, 3, 5, 6, 7, 12, 16, 24, 29, 64, 65, 100};
    for (const sc_algo_t *a = sc_algos; a->name; a++)
        for (size_t i = 0; sc_algo_is_reduction(a) && sc_test_generic(a) && i < sizeof nps / sizeof nps[0];
             i++) {
            int p = nps[i];
            if (sc_algo_check(a, p) != SC_OK)
                continue;
            /* 256 p doubles divide into p ring parts and 2N halves */
            size_t bytes = 256 * (size_t)p * sizeof(double);
            double want = expected_path(a->name, p, (double)bytes);
            if (isnan(want))
                continue;
            sc_run_spec_t spec = {.plat = plat, .algo = a, .np = p, .bytes = bytes,
                                  .root = p - 1, .type = SC_TYPE_DOUBLE, .payload = 0};
            sc_run_result_t res;
            CU_ASSERT_EQUAL_FATAL(sc_run(&spec, &res), SC_OK);
            if (fabs(res.path_bytes - want) > 0.5) {
                fprintf(stderr, "\n%s np=%d: critical path %.0f bytes, formula %.0f\n", a->name,
                        p, res.path_bytes, want);
                CU_FAIL("critical-path bytes differ from the closed form");
            }
            sc_run_result_destroy(&res);
        }
}

/* For p a power of two the patent's method is RHRD: the same messages, so
 * the same graph and, even with contention, the same time. */
static void test_nonpow2_is_rhrd(void)
{
    const sc_platform_t *plat = sc_test_platform("platforms/gige.xml");
    if (!plat)
        return;
    static const char *const pairs[][2] = {{"reduce-nonpow2", "reduce-rhrd"},
                                           {"allreduce-nonpow2", "allreduce-rhrd"}};
    for (int k = 0; k < 2; k++)
        for (int p = 1; p <= 64; p *= 2) {
            sc_run_result_t res[2];
            sc_graph_t graph[2];
            for (int j = 0; j < 2; j++) {
                sc_run_spec_t spec = {.plat = plat, .algo = sc_algo_find(pairs[k][j]), .np = p,
                                      .bytes = 40000, .root = p / 3, .payload = 1};
                CU_ASSERT_EQUAL_FATAL(sc_run(&spec, &res[j]), SC_OK);
                CU_ASSERT_EQUAL(res[j].valid, 1);
                CU_ASSERT_EQUAL_FATAL(sc_graph_record(spec.algo, p, p / 3, &graph[j]), SC_OK);
            }
            CU_ASSERT_DOUBLE_EQUAL(res[0].sim_time_s, res[1].sim_time_s, 0);
            for (int l = 0; l < SC_NLEVELS; l++) {
                CU_ASSERT_EQUAL(res[0].messages[l], res[1].messages[l]);
                CU_ASSERT_DOUBLE_EQUAL(res[0].bytes[l], res[1].bytes[l], 0);
            }
            igraph_bool_t same = 0;
            CU_ASSERT_EQUAL(igraph_is_same_graph(&graph[0].graph, &graph[1].graph, &same),
                            IGRAPH_SUCCESS);
            CU_ASSERT_TRUE(same);
            CU_ASSERT_TRUE(igraph_vector_all_e(&graph[0].weight, &graph[1].weight));
            for (int j = 0; j < 2; j++) {
                sc_run_result_destroy(&res[j]);
                sc_graph_destroy(&graph[j]);
            }
        }
}

/* Results on the shipped platforms (contention, eager and rendezvous) and
 * on uneven nodes, with both placements. */
static void test_shipped_platforms(void)
{
    static const char *const plats[] = {"platforms/gige.xml", "platforms/ib4x.xml",
                                        "tests/platforms/uneven.xml"};
    static const int nps[] = {3, 6, 11, 13, 24, 29, 63};
    static const size_t sizes[] = {8, 9000 * 8};
    long cases = 0; /* under sampling, one in k in turn (sc_test_sampled) */
    for (size_t f = 0; f < sizeof plats / sizeof plats[0]; f++) {
        const sc_platform_t *plat = sc_test_platform(plats[f]);
        for (const sc_algo_t *a = sc_algos; plat && a->name; a++)
            for (size_t i = 0;
                 sc_algo_is_reduction(a) && sc_test_generic(a) && i < sizeof nps / sizeof nps[0]; i++)
                for (int pl = 0; pl < 2; pl++)
                    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
                        int np = nps[i];
                        if (np > plat->total_cores || sc_algo_check(a, np) != SC_OK ||
                            !sc_test_sampled(cases++))
                            continue;
                        sc_run_spec_t spec = {.plat = plat, .algo = a, .np = np,
                                              .bytes = sizes[s], .root = np / 2,
                                              .op = SC_OP_SUM, .type = SC_TYPE_DOUBLE,
                                              .placement = (sc_placement_t)pl, .payload = 1};
                        sc_run_result_t res;
                        CU_ASSERT_EQUAL_FATAL(sc_run(&spec, &res), SC_OK);
                        if (res.valid != 1)
                            fprintf(stderr, "\n%s %s np=%d: WRONG RESULT\n", plats[f],
                                    a->name, np);
                        CU_ASSERT_EQUAL(res.valid, 1);
                        sc_run_result_destroy(&res);
                    }
    }
}

/* Open MPI's segmented ring with segments of a few elements, so that small
 * vectors run in many phases: 16 bytes (4 ints, 2 doubles) and 30 bytes
 * (7 ints; 4 doubles, the half element left over rounding up). */
static sc_err_t ring_seg16(sc_comm_t *comm, const sc_coll_args_t *args)
{
    return sc_allreduce_ompi_ring_segmented_by(comm, args, 16);
}

static sc_err_t ring_seg30(sc_comm_t *comm, const sc_coll_args_t *args)
{
    return sc_allreduce_ompi_ring_segmented_by(comm, args, 30);
}

static sc_err_t ring_seg2000(sc_comm_t *comm, const sc_coll_args_t *args)
{
    return sc_allreduce_ompi_ring_segmented_by(comm, args, 2000);
}

static void test_ring_phases(void)
{
    /* 1 when n < p segments; a last phase for a remainder of at least p
     * elements and above half a round */
    CU_ASSERT_EQUAL(sc_ompi_ring_phases(15, 4, 4, 16), 1);
    CU_ASSERT_EQUAL(sc_ompi_ring_phases(64, 4, 4, 16), 4);
    CU_ASSERT_EQUAL(sc_ompi_ring_phases(16 + 8, 4, 4, 16), 1);     /* 8 = half a round */
    CU_ASSERT_EQUAL(sc_ompi_ring_phases(16 + 9, 4, 4, 16), 2);
    CU_ASSERT_EQUAL(sc_ompi_ring_phases(4 * 16 + 9, 4, 4, 16), 5);
    CU_ASSERT_EQUAL(sc_ompi_ring_phases(100 * 16 + 9, 4, 4, 16), 101);
    CU_ASSERT_EQUAL(sc_ompi_ring_phases(100 * 16 + 9, 4, 16, 16), 25); /* 9 < 16 ranks */
    CU_ASSERT_EQUAL(sc_ompi_ring_phases(1000, 8, 5, 30), 50);          /* 4 doubles a segment */
    CU_ASSERT_EQUAL(sc_ompi_ring_phases(1000, 8, 5, 28), 67); /* 3 doubles, 10 left */
    CU_ASSERT_EQUAL(sc_ompi_ring_phases(1000, 8, 5, 0), 1);
    CU_ASSERT_EQUAL(sc_ompi_ring_phases((size_t)64 << 18, 4, 64, (size_t)1 << 20), 1);
    CU_ASSERT_EQUAL(sc_ompi_ring_phases(((size_t)64 << 18) * 3, 4, 64, (size_t)1 << 20), 3);
}

/* The segmented ring against the sequential reduction and its model, to
 * 1e-9, on many counts and lengths (1, 2, several phases, remainders
 * above and below the extra phase's bounds), eager pieces and, with 2000
 * byte segments, rendezvous ones between nodes; the model also with the
 * NIC gap of loggp-gap.xml; results on uneven nodes. A run sends about
 * 2 p n / (elements a segment) messages: the two longest vectors in 16
 * and 30 byte segments run only up to 16 ranks, where they already make
 * many phases, since at 64 ranks they were most of the suite's time. */
static void test_ring_segmented(void)
{
    const sc_platform_t *plat = sc_test_platform(BIG);
    const sc_platform_t *uneven = sc_test_platform("tests/platforms/uneven.xml");
    const sc_platform_t *gap = sc_test_platform("tests/platforms/loggp-gap.xml");
    if (!plat || !uneven || !gap)
        return;
    sc_algo_t algos[] = {
        {"ring-seg16", SC_ALLREDUCE, ring_seg16, 0, "segments of 16 bytes"},
        {"ring-seg30", SC_ALLREDUCE, ring_seg30, 0, "segments of 30 bytes"},
        {"ring-seg2000", SC_ALLREDUCE, ring_seg2000, 0, "segments of 2000 bytes"},
    };
    static const int nps[] = {2, 3, 4, 5, 7, 8, 13, 16, 24, 29, 64, 65};
    int runs = 0;
    long cases = 0; /* under sampling, one in k in turn (sc_test_sampled) */
    for (size_t a = 0; a < sizeof algos / sizeof algos[0]; a++)
        for (size_t i = 0; i < sizeof nps / sizeof nps[0]; i++)
            for (int t = 0; t < SC_NTYPES; t++) {
                size_t p = (size_t)nps[i];
                size_t n[] = {p - 1, p, 4 * p, 4 * p + 1, 9 * p + p / 2 + 1, 40 * p + 3,
                              3000 + p, 6400};
                if (a == 2) { /* 500 ints or 250 doubles a segment */
                    size_t seg = 2000 / sc_type_size((sc_type_t)t);
                    size_t big[] = {p - 1, p * seg - 1, p * seg, 2 * p * seg + p * seg / 2 + p,
                                    3 * p * seg + 7, 5000, 6400, 20000};
                    memcpy(n, big, sizeof n);
                }
                size_t nlengths = a < 2 && p > 16 ? 6 : sizeof n / sizeof n[0];
                for (size_t j = 0; j < nlengths; j++) {
                    if (!sc_test_sampled(cases++))
                        continue;
                    sc_run_spec_t spec = {.plat = plat, .algo = &algos[a], .np = nps[i],
                                          .bytes = n[j] * sc_type_size((sc_type_t)t),
                                          .op = (sc_op_t)((j + i) % 2 ? SC_OP_SUM : SC_OP_MAX),
                                          .type = (sc_type_t)t, .payload = 1};
                    sc_run_result_t res;
                    CU_ASSERT_EQUAL_FATAL(sc_run(&spec, &res), SC_OK);
                    int exact =
                        fabs(res.sim_time_s - res.model_time_s) <= 1e-9 * res.model_time_s;
                    if (res.valid != 1 || !exact)
                        fprintf(stderr, "\n%s np=%d %zu elements %s: %s, simulated %.12g, "
                                        "model %.12g\n",
                                algos[a].name, nps[i], n[j], sc_type_name(spec.type),
                                res.valid == 1 ? "right" : "WRONG RESULT", res.sim_time_s,
                                res.model_time_s);
                    CU_ASSERT_EQUAL(res.valid, 1);
                    CU_ASSERT_TRUE(exact);
                    sc_run_result_destroy(&res);
                    if (nps[i] <= gap->total_cores) {
                        spec.plat = gap;
                        CU_ASSERT_EQUAL_FATAL(sc_run(&spec, &res), SC_OK);
                        /* event times under the gap differ in the last
                         * picosecond, as in test_loggp.c */
                        double tol = 1e-9 * res.model_time_s + 2e-12;
                        if (fabs(res.sim_time_s - res.model_time_s) > tol)
                            fprintf(stderr, "\n%s np=%d %zu elements, with a gap: simulated "
                                            "%.12g, model %.12g\n",
                                    algos[a].name, nps[i], n[j], res.sim_time_s,
                                    res.model_time_s);
                        CU_ASSERT_DOUBLE_EQUAL(res.sim_time_s, res.model_time_s, tol);
                        sc_run_result_destroy(&res);
                    }
                    if (nps[i] <= uneven->total_cores) {
                        spec.plat = uneven;
                        CU_ASSERT_EQUAL_FATAL(sc_run(&spec, &res), SC_OK);
                        CU_ASSERT_EQUAL(res.valid, 1);
                        sc_run_result_destroy(&res);
                    }
                    runs++;
                }
            }
    printf(" [%d runs] ", runs);
}

static void test_bad_input(void)
{
    const sc_platform_t *plat = sc_test_platform("platforms/gige.xml");
    if (!plat)
        return;
    sc_run_result_t res;
    sc_run_spec_t spec = {.plat = plat, .algo = sc_algo_find("allreduce-nonpow2"), .np = 8,
                          .bytes = 64, .op = SC_OP_BAND, .type = SC_TYPE_DOUBLE};
    CU_ASSERT_EQUAL(sc_run(&spec, &res), SC_ERR_INPUT);
    CU_ASSERT_PTR_NOT_NULL(strstr(sc_error_message(), "the operation band"));
    spec.op = SC_OP_SUM;
    spec.bytes = 12;
    CU_ASSERT_EQUAL(sc_run(&spec, &res), SC_ERR_INPUT);
    CU_ASSERT_PTR_NOT_NULL(strstr(sc_error_message(), "allreduce of 12 bytes"));
    spec.algo = sc_algo_find("reduce-mst");
    spec.bytes = 16;
    spec.root = 8;
    CU_ASSERT_EQUAL(sc_run(&spec, &res), SC_ERR_INPUT);
    CU_ASSERT_PTR_NOT_NULL(strstr(sc_error_message(), "root 8 is out of range"));
    spec.algo = sc_algo_find("allreduce-rhrd");
    spec.root = 0;
    spec.np = 12;
    CU_ASSERT_EQUAL(sc_run(&spec, &res), SC_ERR_INPUT);
    CU_ASSERT_PTR_NOT_NULL(strstr(sc_error_message(), "allreduce-nonpow2"));
}

void sc_suite_reduce(void)
{
    CU_pSuite s = CU_add_suite("reduce", NULL, NULL);
    CU_add_test(s, "operations", test_ops);
    CU_add_test(s, "sample inputs combine in any order", test_samples_any_order);
    CU_add_test(s, "a lost contribution is caught", test_wrong_result_is_caught);
    CU_add_test(s, "critical-path bytes match the closed forms", test_critical_path_bytes);
    CU_add_test(s, "nonpow2 is RHRD for powers of two", test_nonpow2_is_rhrd);
    CU_add_test(s, "results on the shipped and uneven platforms", test_shipped_platforms);
    CU_add_test(s, "bad input", test_bad_input);
    CU_add_test(s, "Open MPI's segmented ring: phases", test_ring_phases);
    CU_add_test(s, "Open MPI's segmented ring: results and model", test_ring_segmented);
    s = CU_add_suite("reduce-grid-int", NULL, NULL);
    CU_add_test(s, "every algorithm and int operation, np 1..33, 63, 64, 65, 100",
                test_grid_int);
    s = CU_add_suite("reduce-grid-double", NULL, NULL);
    CU_add_test(s, "every algorithm and double operation, np 1..33, 63, 64, 65, 100",
                test_grid_double);
    s = CU_add_suite("reduce-1mib", NULL, NULL);
    CU_add_test(s, "1 MiB vectors", test_one_mib);
}
