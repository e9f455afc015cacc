/* The closed forms of the textbook and the seeds against the cost model:
 * each algorithm's schedule, recorded from its code and evaluated without
 * contention (sim/replay/evaluate.h), on platforms where the closed form
 * is exact.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include <CUnit/CUnit.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "algorithms/registry.h"
#include "helpers.h"
#include "algorithms/steps.h"
#include "suites.h"

/* One level everywhere: latency L, bandwidth B, send overhead O_S, receive
 * overhead O_R; cores of 1 Gflop/s on a memory bus of MEMBUS bytes/s. In the
 * closed forms O stands for both overheads of a message, O_S + O_R. */
static const double L = 2e-6, B = 1e9, O_S = 0.7e-6, O_R = 0.3e-6, O = O_S + O_R, MEMBUS = 2e9;

static sc_platform_t single_level(int cores, size_t eager_limit)
{
    static sc_node_t node;
    node = (sc_node_t){.name = "n", .cores = cores, .speed_flops = 1e9, .membus_Bps = MEMBUS};
    sc_platform_t p = {.nnodes = 1, .nodes = &node, .total_cores = cores, .uniform = 1};
    for (int l = 0; l < SC_NLEVELS; l++) {
        p.level[l] = sc_level_hockney(L, B, O_S, eager_limit);
        p.level[l].recv_overhead = sc_piecewise_constant(O_R);
    }
    return p;
}

/* The model's time of `algo` on np ranks placed by node_of, rooted at 0,
 * on doubles summed. */
static double predict(const sc_platform_t *plat, const int *node_of, int np, const char *algo,
                      size_t m)
{
    double *t = calloc((size_t)np, sizeof *t);
    CU_ASSERT_EQUAL_FATAL(
        sc_test_evaluate(plat, node_of, np, sc_algo_find(algo), m, 0, SC_TYPE_DOUBLE, NULL, t),
        SC_OK);
    double T = sc_model_max(t, np);
    free(t);
    return T;
}

#define ASSERT_TIME(got, want) CU_ASSERT_DOUBLE_EQUAL((got), (want), 1e-12 + 1e-9 * (want))
#define ASSERT_TRUE_LE(got, bound) CU_ASSERT_TRUE((got) <= (bound) * (1 + 1e-9))

static void test_allgather_closed_forms(void)
{
    int zeros[64] = {0};
    const size_t m = 1000;
    for (int eager = 1; eager >= 0; eager--) {
        sc_platform_t plat = single_level(64, eager ? (size_t)1 << 30 : 0);
        double alpha = O + (eager ? L : 3 * L), beta = 1 / B;
        for (int p = 1; p <= 64; p++) {
            ASSERT_TIME(predict(&plat, zeros, p, "ring", m), (p - 1) * (alpha + m * beta));
            ASSERT_TIME(predict(&plat, zeros, p, "bruck", m),
                        sc_ceil_log2(p) * alpha + (p - 1) * m * beta);
            ASSERT_TIME(predict(&plat, zeros, p, "barrier", 0), sc_ceil_log2(p) * (O + L));
            if ((p & (p - 1)) == 0)
                ASSERT_TIME(predict(&plat, zeros, p, "rd", m),
                            sc_ceil_log2(p) * alpha + (p - 1) * m * beta);
            /* zero-byte collectives return at once, as in MPICH */
            ASSERT_TIME(predict(&plat, zeros, p, "bruck", 0), 0.0);
        }
    }
}

static void test_bcast_closed_forms(void)
{
    int zeros[64] = {0};
    sc_platform_t plat = single_level(64, 0); /* every message uses rendezvous */
    double alpha = O + 3 * L, beta = 1 / B;
    /* Every hop of the deepest path pays o_r; when p is not a power of two
     * the latest leaf is not the deepest, so the form holds with o_r = 0. */
    for (int p = 1; p <= 64; p *= 2)
        ASSERT_TIME(predict(&plat, zeros, p, "bcast-binomial", 4096),
                    sc_ceil_log2(p) * (alpha + 4096 * beta));
    sc_platform_t no_or = single_level(64, 0);
    for (int l = 0; l < SC_NLEVELS; l++)
        no_or.level[l].recv_overhead = sc_piecewise_constant(0);
    for (int p = 1; p <= 64; p++)
        ASSERT_TIME(predict(&no_or, zeros, p, "bcast-binomial", 4096),
                    sc_ceil_log2(p) * (alpha - O_R + 4096 * beta));
    for (int p = 2; p <= 64; p *= 2) {
        size_t m = 64 * 1024; /* divisible by every p */
        ASSERT_TIME(predict(&plat, zeros, p, "bcast-scatter-allgather", m),
                    (sc_ceil_log2(p) + p - 1) * alpha + 2.0 * (p - 1) / p * m * beta);
        ASSERT_TIME(predict(&plat, zeros, p, "bcast-scatter-rd", m),
                    2 * sc_ceil_log2(p) * alpha + 2.0 * (p - 1) / p * m * beta);
    }
}

/* The gap g on p nodes of one core (every message between nodes): a rank's
 * messages leave at most one per g, so a round takes the larger of alpha
 * and g: ring (eager) T = alpha + (p-2) max(alpha, g), dissemination barrier
 * T = alpha_0 + (ceil(log2 p) - 1) max(alpha_0, g). */
static void test_gap_closed_forms(void)
{
    enum { P = 24 };
    static sc_node_t nodes[P];
    for (int i = 0; i < P; i++)
        nodes[i] = (sc_node_t){"n", 1, 1e9, MEMBUS};
    sc_platform_t plat = {.nnodes = P, .nodes = nodes, .total_cores = P, .uniform = 1};
    for (int l = 0; l < SC_NLEVELS; l++) {
        plat.level[l] = sc_level_hockney(L, B, O_S, (size_t)1 << 30);
        plat.level[l].recv_overhead = sc_piecewise_constant(O_R);
    }
    int node_of[P];
    for (int i = 0; i < P; i++)
        node_of[i] = i;
    const size_t m = 1000;
    double alpha = O + L + m / B, alpha0 = O + L;
    static const double gaps[] = {0, 0.5e-6, 3.2e-6, 4e-6, 10e-6};
    for (size_t k = 0; k < sizeof gaps / sizeof gaps[0]; k++) {
        double g = gaps[k];
        plat.level[SC_LEVEL_INTER].gap_s = g;
        for (int p = 2; p <= P; p++) {
            ASSERT_TIME(predict(&plat, node_of, p, "ring", m),
                        alpha + (p - 2) * (alpha > g ? alpha : g));
            ASSERT_TIME(predict(&plat, node_of, p, "barrier", 0),
                        alpha0 + (sc_ceil_log2(p) - 1) * (alpha0 > g ? alpha0 : g));
        }
    }
}

/* Recursive doubling on two nodes of 4 cores, block placement: the first two
 * steps stay in a node, the third crosses: the placement-aware closed form
 * is the sum of the levels' alpha + 2^k m beta. */
static void test_two_level_rd(void)
{
    sc_node_t nodes[2] = {{"a", 4, 1e9, 5e9}, {"b", 4, 1e9, 5e9}};
    sc_platform_t plat = {.nnodes = 2, .nodes = nodes, .total_cores = 8, .uniform = 1};
    plat.level[SC_LEVEL_INTRA] = sc_level_hockney(0.1e-6, 5e9, 0.5e-6, 1 << 20);
    plat.level[SC_LEVEL_INTER] = sc_level_hockney(10e-6, 0.1e9, 0.5e-6, 1 << 20);
    int node_of[8];
    CU_ASSERT_EQUAL(sc_place(&plat, 8, SC_PLACE_BLOCK, node_of), SC_OK);
    const size_t m = 2048;
    const sc_level_t *in = &plat.level[SC_LEVEL_INTRA], *out = &plat.level[SC_LEVEL_INTER];
    double want = (sc_level_send_overhead(in, m) + in->latency_s + 1 * m / in->bandwidth_Bps) +
                  (sc_level_send_overhead(in, m) + in->latency_s + 2 * m / in->bandwidth_Bps) +
                  (sc_level_send_overhead(out, m) + out->latency_s + 4 * m / out->bandwidth_Bps);
    ASSERT_TIME(predict(&plat, node_of, 8, "rd", m), want);
    /* cyclic placement (even ranks on one node): only the first step,
     * partner i XOR 1, crosses nodes */
    CU_ASSERT_EQUAL(sc_place(&plat, 8, SC_PLACE_CYCLIC, node_of), SC_OK);
    double cyc = (sc_level_send_overhead(out, m) + out->latency_s + 1 * m / out->bandwidth_Bps) +
                 (sc_level_send_overhead(in, m) + in->latency_s + 2 * m / in->bandwidth_Bps) +
                 (sc_level_send_overhead(in, m) + in->latency_s + 4 * m / in->bandwidth_Bps);
    ASSERT_TIME(predict(&plat, node_of, 8, "rd", m), cyc);
}

/* An algorithm's closed form: a alpha + b m beta + c m gamma. */
typedef struct {
    const char *algo;
    double a, b, c;
} form_t;

/* Each algorithm of `forms` on p ranks of plat, m bytes, predicted as its
 * closed form. */
static void check_forms(const sc_platform_t *plat, int p, double m, double alpha, double beta,
                        double gamma, const form_t *forms, size_t n)
{
    int zeros[64] = {0};
    for (size_t i = 0; i < n; i++) {
        const form_t *f = &forms[i];
        unsigned before = sc_test_failures();
        ASSERT_TIME(predict(plat, zeros, p, f->algo, (size_t)m),
                    f->a * alpha + f->b * m * beta + f->c * m * gamma);
        if (sc_test_case_failed(before))
            fprintf(stderr, "\n  failed case: %s, p = %d, %.0f bytes\n", f->algo, p, m);
    }
}

/* The reductions' closed forms (models/collectives.h) on doubles: gamma is
 * the memory-bound 3 bytes of traffic per byte (3 / MEMBUS = 1.5 ns, more
 * than one flop per 8 bytes at 1 Gflop/s). */
static void test_reduce_closed_forms(void)
{
    int zeros[64] = {0};
    sc_platform_t plat = single_level(64, 0); /* every message uses rendezvous */
    double alpha = O + 3 * L, beta = 1 / B, gamma = 3 / MEMBUS;
    for (int p = 2; p <= 64; p++) {
        int N = sc_pow2_below(p);
        double lgN = sc_ceil_log2(N);
        /* divisible into p ring parts and into 2N halves of halves */
        double m = 8.0 * p * 2 * N;
        size_t bytes = (size_t)m;
        ASSERT_TIME(predict(&plat, zeros, p, "allreduce-ring", bytes),
                    2 * (p - 1) * alpha + 2.0 * (p - 1) / p * m * beta + (p - 1.0) / p * m * gamma);
        if (p == N) {
            double rhrd =
                2 * lgN * alpha + 2.0 * (p - 1) / p * m * beta + (p - 1.0) / p * m * gamma;
            static const char *const same[] = {"reduce-rhrd",         "allreduce-rhrd",
                                               "reduce-mpich",        "allreduce-mpich",
                                               "reduce-nonpow2",      "allreduce-nonpow2",
                                               "reduce-rabenseifner", "allreduce-rabenseifner"};
            for (int i = 0; i < 8; i++)
                ASSERT_TIME(predict(&plat, zeros, p, same[i], bytes), rhrd);
            const form_t pow2[] = {{"allreduce-rd", lgN, lgN, lgN},
                                   {"reduce-mst", lgN, lgN, lgN},
                                   {"allreduce-mst", 2 * lgN, 2 * lgN, lgN}};
            check_forms(&plat, p, m, alpha, beta, gamma, pow2, 3);
            continue;
        }
        /* MPICH's own Rabenseifner folds whole vectors (models/collectives.h) */
        double g = 1.5 - 1.0 / N, fold_g = 2 - 1.0 / N;
        const form_t forms[] = {
            {"reduce-mpich", 2 + 2 * lgN, 3 - 2.0 / N, g},
            {"allreduce-mpich", 3 + 2 * lgN, 4 - 2.0 / N, g},
            {"reduce-nonpow2", 1 + 2 * lgN, 2.5 - 2.0 / N, g},
            {"allreduce-nonpow2", 2 + 2 * lgN, 3 - 2.0 / N, g},
            {"allreduce-rabenseifner", 2 + 2 * lgN, 4 - 2.0 / N, fold_g},
            {"reduce-rabenseifner", 1 + 2 * lgN, 3 - 2.0 / N, fold_g},
            {"allreduce-rd", 2 + lgN, 2 + lgN, 1 + lgN},
        };
        check_forms(&plat, p, m, alpha, beta, gamma, forms, sizeof forms / sizeof forms[0]);
    }
}

/* Open MPI's algorithms (algorithms/openmpi/), where they have closed
 * forms. */
static void test_openmpi_closed_forms(void)
{
    int zeros[64] = {0};
    sc_platform_t rdv = single_level(64, 0), eager = single_level(64, (size_t)1 << 30);
    double alpha = O + 3 * L, beta = 1 / B, gamma = 3 / MEMBUS, alpha0 = O + L;
    const size_t m = 4096;
    for (int p = 2; p <= 64; p++) {
        int k = sc_ceil_log2(p), N = sc_pow2_below(p);
        ASSERT_TIME(predict(&rdv, zeros, p, "bcast-ompi-chain", m), (p - 1) * (alpha + m * beta));
        /* the root's sends overlap once posted: the last one leaves after p-1 o_s */
        ASSERT_TIME(predict(&rdv, zeros, p, "bcast-ompi-linear", m),
                    alpha + (p - 2) * O_S + m * beta);
        ASSERT_TIME(predict(&eager, zeros, p, "bcast-ompi-linear", m),
                    (p - 1) * O_S + L + m * beta + O_R);
        ASSERT_TIME(predict(&rdv, zeros, p, "reduce-ompi-chain", m),
                    (p - 1) * (alpha + m * beta + m * gamma));
        /* the root takes the vectors one by one; their requests are all in */
        ASSERT_TIME(predict(&rdv, zeros, p, "reduce-ompi-linear", m),
                    O_S + L + (p - 1) * (2 * L + O_R + m * beta + m * gamma));
        ASSERT_TIME(predict(&eager, zeros, p, "reduce-ompi-linear", m),
                    O_S + L + m * beta + (p - 1) * (O_R + m * gamma));
        ASSERT_TIME(predict(&eager, zeros, p, "barrier-ompi-linear", 0), p * O + 2 * L);
        if (p % 2 == 0)
            ASSERT_TIME(predict(&rdv, zeros, p, "allgather-ompi-neighbor", m),
                        p / 2 * alpha + (p - 1) * m * beta);
        /* Rabenseifner's reduce from rank 0 is the prior art's */
        ASSERT_TIME(predict(&rdv, zeros, p, "reduce-ompi-redscat-gather", 8 * m),
                    predict(&rdv, zeros, p, "reduce-mpich", 8 * m));
        size_t ring = 8 * (size_t)p * 16; /* divisible into p blocks */
        ASSERT_TIME(predict(&rdv, zeros, p, "allreduce-ompi-ring", ring),
                    2 * (p - 1) * alpha + 2.0 * (p - 1) / p * ring * beta +
                        (p - 1.0) / p * ring * gamma);
        if (p != N) {
            ASSERT_TRUE_LE(predict(&eager, zeros, p, "barrier-ompi-rd", 0), (k + 1) * alpha0);
            continue;
        }
        ASSERT_TIME(predict(&rdv, zeros, p, "reduce-ompi-binomial", m),
                    k * (alpha + m * beta + m * gamma));
        ASSERT_TIME(predict(&eager, zeros, p, "barrier-ompi-rd", 0), k * alpha0);
        ASSERT_TIME(predict(&eager, zeros, p, "barrier-ompi-tree", 0), 2 * k * alpha0);
    }
}

static void test_chunks(void)
{
    /* 1000 bytes in 3 chunks of 334: 334, 334, 332 */
    CU_ASSERT_EQUAL(sc_chunk_span_bytes(1000, 3, 0, 1), 334);
    CU_ASSERT_EQUAL(sc_chunk_span_bytes(1000, 3, 2, 1), 332);
    CU_ASSERT_EQUAL(sc_chunk_span_bytes(1000, 3, 1, 2), 666);
    CU_ASSERT_EQUAL(sc_chunk_span_bytes(1000, 3, 2, 4), 332);
    /* 1 byte in 5 chunks: only the first has data */
    CU_ASSERT_EQUAL(sc_chunk_span_bytes(1, 5, 0, 1), 1);
    CU_ASSERT_EQUAL(sc_chunk_span_bytes(1, 5, 1, 4), 0);
    CU_ASSERT_EQUAL(sc_chunk_span_bytes(0, 5, 0, 5), 0);
}

/* o_call: every rank enters the call that long before its first message,
 * so every rank of every replayable algorithm finishes that much later
 * (nothing else changes: the same schedule from a later start), on one
 * node and on eight. */
static void test_call_overhead(void)
{
    static const int nps[] = {1, 2, 3, 5, 8, 13};
    const double o_call = 0.45e-6;
    int zeros[13] = {0}, nodes[13];
    for (int r = 0; r < 13; r++)
        nodes[r] = r % 8;
    sc_platform_t plat = single_level(64, 4096);
    static sc_node_t eight[8];
    for (int n = 0; n < 8; n++)
        eight[n] = plat.nodes[0];
    long cases = 0;
    for (int spread = 0; spread <= 1; spread++) {
        if (spread) {
            plat.nnodes = 8;
            plat.nodes = eight;
            plat.total_cores = 8 * 64;
        }
        for (const sc_algo_t *a = sc_algos; a->name; a++)
            for (int i = 0; i < 6; i++) {
                int np = nps[i];
                if ((a->needs & SC_DATA_DEPENDENT) ||
                    ((a->needs & SC_NEEDS_POW2) && (np & (np - 1))))
                    continue;
                double before[13], after[13];
                const int *node_of = spread ? nodes : zeros;
                plat.level[SC_LEVEL_INTRA].call_overhead_s = 0;
                CU_ASSERT_EQUAL_FATAL(
                    sc_test_evaluate(&plat, node_of, np, a, 1000, 0, SC_TYPE_DOUBLE, NULL, before),
                    SC_OK);
                plat.level[SC_LEVEL_INTRA].call_overhead_s = o_call;
                CU_ASSERT_EQUAL_FATAL(
                    sc_test_evaluate(&plat, node_of, np, a, 1000, 0, SC_TYPE_DOUBLE, NULL, after),
                    SC_OK);
                for (int r = 0; r < np; r++) {
                    ASSERT_TIME(after[r], before[r] + o_call);
                    if (fabs(after[r] - before[r] - o_call) > 1e-12 + 1e-9 * after[r])
                        fprintf(stderr, "\n%s np %d rank %d: %.9g, %.9g without o_call", a->name,
                                np, r, after[r], before[r]);
                }
                cases++;
            }
    }
    CU_ASSERT_TRUE(cases > 100);
}

void sc_suite_models(void)
{
    CU_pSuite s = CU_add_suite("models", NULL, NULL);
    CU_add_test(s, "allgather and barrier closed forms", test_allgather_closed_forms);
    CU_add_test(s, "bcast closed forms", test_bcast_closed_forms);
    CU_add_test(s, "the gap in closed forms", test_gap_closed_forms);
    CU_add_test(s, "two-level recursive doubling", test_two_level_rd);
    CU_add_test(s, "reduce and allreduce closed forms", test_reduce_closed_forms);
    CU_add_test(s, "Open MPI closed forms", test_openmpi_closed_forms);
    CU_add_test(s, "chunk sizes", test_chunks);
    CU_add_test(s, "a call's entry, o_call", test_call_overhead);
}
