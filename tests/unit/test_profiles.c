/* MPI library profiles: every rule of algorithms/profiles/, at its
 * thresholds, with and without ranks sharing nodes.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include <CUnit/CUnit.h>
#include <stdio.h>
#include <string.h>

#include "algorithms/profiles/profiles.h"
#include "suites.h"

enum { MAXP = 1024 };

/* node_of for p ranks: `per_node` per node (1: no hierarchy). */
static const int *nodes(int p, int per_node)
{
    static int node_of[MAXP];
    for (int r = 0; r < p; r++)
        node_of[r] = r / per_node;
    return node_of;
}

static void expect(const char *profile, sc_collective_t coll, size_t bytes, int p, int per_node,
                   sc_type_t type, const char *want)
{
    const sc_profile_t *prof = sc_profile_find(profile);
    CU_ASSERT_PTR_NOT_NULL_FATAL(prof);
    sc_call_t call = {coll, bytes, p, nodes(p, per_node), type};
    const sc_algo_t *got = sc_profile_choose(prof, &call);
    if (!got || strcmp(got->name, want) != 0) {
        fprintf(stderr, "\n%s %s %zu bytes p=%d (%d a node): got %s, want %s\n", profile,
                sc_collective_name(coll), bytes, p, per_node, got ? got->name : "nothing", want);
        CU_FAIL("profile chose another algorithm");
    } else {
        CU_ASSERT_EQUAL(got->collective, coll);
    }
}

static void test_mpich(void)
{
    static const char *const mpich[] = {"mpich2-1.2.1", "mpich-3.2"};
    const sc_type_t D = SC_TYPE_DOUBLE, I = SC_TYPE_INT;
    for (int i = 0; i < 2; i++) {
        const char *m = mpich[i];
        /* node-aware: SMP variants for all sizes */
        expect(m, SC_BARRIER, 0, 64, 8, D, "barrier-mpich-smp");
        expect(m, SC_BARRIER, 0, 2, 8, D, "barrier-mpich-smp");
        expect(m, SC_BCAST, 1, 64, 8, D, "bcast-mpich-smp");
        expect(m, SC_BCAST, 1 << 20, 64, 8, D, "bcast-mpich-smp");
        expect(m, SC_ALLREDUCE, 8, 24, 8, D, "allreduce-mpich-smp");
        expect(m, SC_REDUCE, 1 << 20, 24, 8, D, "reduce-mpich-smp");
        /* one rank a node: flat, by size */
        expect(m, SC_BARRIER, 0, 64, 1, D, "barrier");
        expect(m, SC_BCAST, 12287, 64, 1, D, "bcast-binomial");
        expect(m, SC_BCAST, 12288, 64, 1, D, "bcast-scatter-rd");
        expect(m, SC_BCAST, 12288, 7, 1, D, "bcast-binomial"); /* fewer than 8 processes */
        expect(m, SC_BCAST, 12288, 24, 1, D, "bcast-scatter-allgather");
        expect(m, SC_BCAST, 524287, 64, 1, D, "bcast-scatter-rd");
        expect(m, SC_BCAST, 524288, 64, 1, D, "bcast-scatter-allgather");
        /* allgather: the gathered size counts, and no SMP variant */
        expect(m, SC_ALLGATHER, 8191, 64, 8, D, "rd");         /* 524224 < 512 KiB */
        expect(m, SC_ALLGATHER, 8192, 64, 8, D, "ring");       /* 524288, p a power of two */
        expect(m, SC_ALLGATHER, 3413, 24, 1, D, "bruck");      /* 81912 < 80 KiB */
        expect(m, SC_ALLGATHER, 3414, 24, 1, D, "ring");       /* 81936 */
        /* allreduce: 2048 bytes inclusive, and elements against pof2(p) */
        expect(m, SC_ALLREDUCE, 2048, 64, 1, D, "allreduce-rd");
        expect(m, SC_ALLREDUCE, 2056, 64, 1, D, "allreduce-rabenseifner");
        expect(m, SC_ALLREDUCE, 4096, 128, 1, I, "allreduce-rabenseifner");
        expect(m, SC_ALLREDUCE, 4096, 1024, 1, D, "allreduce-rd"); /* 512 elements < 1024 */
        expect(m, SC_ALLREDUCE, 8192, 1024, 1, D, "allreduce-rabenseifner");
        /* reduce: above 2048 strictly */
        expect(m, SC_REDUCE, 2048, 64, 1, D, "reduce-mst");
        expect(m, SC_REDUCE, 2056, 64, 1, D, "reduce-rabenseifner");
        expect(m, SC_REDUCE, 2056, 128, 1, I, "reduce-rabenseifner");
        expect(m, SC_REDUCE, 4096, 1024, 1, D, "reduce-mst");
    }
}

/* Every profile has a rule for every collective, and every choice it can
 * make is a registered algorithm of that collective. */
static void test_table(void)
{
    for (const sc_profile_t *p = sc_profiles; p->name; p++) {
        CU_ASSERT_PTR_NOT_NULL(p->library);
        CU_ASSERT_PTR_NOT_NULL(p->source);
        for (int c = 0; c <= SC_ALLREDUCE; c++) {
            CU_ASSERT_PTR_NOT_NULL(p->rules[c]);
            for (int np = 1; np <= 100; np += 11)
                for (size_t m = 8; m <= (1u << 22); m *= 4) {
                    sc_call_t call = {(sc_collective_t)c, m, np, nodes(np, np % 2 ? 1 : 8),
                                      SC_TYPE_DOUBLE};
                    const sc_algo_t *a = sc_profile_choose(p, &call);
                    CU_ASSERT_PTR_NOT_NULL_FATAL(a);
                    CU_ASSERT_EQUAL(a->collective, (sc_collective_t)c);
                }
        }
    }
    CU_ASSERT_PTR_NULL(sc_profile_find("openmpi-0.1"));
}

void sc_suite_profiles(void)
{
    CU_pSuite s = CU_add_suite("profiles", NULL, NULL);
    CU_add_test(s, "MPICH2 1.2.1 and MPICH 3.2", test_mpich);
    CU_add_test(s, "every profile, every collective", test_table);
}
