/* MPI library profiles: every rule of algorithms/profiles/, at its
 * thresholds, with and without ranks sharing nodes.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include <CUnit/CUnit.h>
#include <stdio.h>
#include <string.h>

#include "algorithms/profiles/profiles.h"
#include "algorithms/openmpi/tuned.h"
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

/* A call and the algorithm a profile must choose for it. */
typedef struct {
    sc_collective_t coll;
    size_t bytes;
    int p, per_node;
    sc_type_t type;
    const char *want;
} choice_t;

static void expect_all(const char *profile, const choice_t *c, size_t n)
{
    for (size_t i = 0; i < n; i++)
        expect(profile, c[i].coll, c[i].bytes, c[i].p, c[i].per_node, c[i].type, c[i].want);
}

/* MPICH's rules where no node variant applies, which MVAPICH2 1.4 falls
 * back on too. allgather: by the gathered size, no SMP variant; allreduce:
 * 2048 bytes inclusive, and elements against pof2(p); reduce: above 2048
 * strictly, elements against pof2(p). */
static const choice_t mpich_flat[] = {
    {SC_ALLGATHER, 8191, 64, 8, SC_TYPE_DOUBLE, "rd"},   /* 524224 < 512 KiB */
    {SC_ALLGATHER, 8192, 64, 8, SC_TYPE_DOUBLE, "ring"}, /* 524288, p a power of two */
    {SC_ALLGATHER, 3413, 24, 1, SC_TYPE_DOUBLE, "bruck"}, /* 81912 < 80 KiB */
    {SC_ALLGATHER, 3414, 24, 1, SC_TYPE_DOUBLE, "ring"},  /* 81936 */
    {SC_ALLREDUCE, 8, 64, 1, SC_TYPE_DOUBLE, "allreduce-rd"},
    {SC_ALLREDUCE, 2048, 64, 1, SC_TYPE_DOUBLE, "allreduce-rd"},
    {SC_ALLREDUCE, 2056, 64, 1, SC_TYPE_DOUBLE, "allreduce-rabenseifner"},
    {SC_ALLREDUCE, 32760, 64, 1, SC_TYPE_DOUBLE, "allreduce-rabenseifner"},
    {SC_ALLREDUCE, 4096, 128, 1, SC_TYPE_INT, "allreduce-rabenseifner"},
    {SC_ALLREDUCE, 4096, 1024, 1, SC_TYPE_DOUBLE, "allreduce-rd"}, /* 512 elements < 1024 */
    {SC_ALLREDUCE, 8192, 1024, 1, SC_TYPE_DOUBLE, "allreduce-rabenseifner"},
    {SC_REDUCE, 2048, 64, 1, SC_TYPE_DOUBLE, "reduce-mst"},
    {SC_REDUCE, 2056, 64, 1, SC_TYPE_DOUBLE, "reduce-rabenseifner"},
    {SC_REDUCE, 2056, 128, 1, SC_TYPE_INT, "reduce-rabenseifner"},
    {SC_REDUCE, 4096, 1024, 1, SC_TYPE_DOUBLE, "reduce-mst"}, /* 512 elements < 1024 */
};

static void test_mpich(void)
{
    static const char *const mpich[] = {"mpich2-1.2.1", "mpich-3.2"};
    const sc_type_t D = SC_TYPE_DOUBLE;
    const choice_t cases[] = {
        /* node-aware: SMP variants for all sizes */
        {SC_BARRIER, 0, 64, 8, D, "barrier-mpich-smp"},
        {SC_BARRIER, 0, 2, 8, D, "barrier-mpich-smp"},
        {SC_BCAST, 1, 64, 8, D, "bcast-mpich-smp"},
        {SC_BCAST, 1 << 20, 64, 8, D, "bcast-mpich-smp"},
        {SC_ALLREDUCE, 8, 24, 8, D, "allreduce-mpich-smp"},
        {SC_REDUCE, 1 << 20, 24, 8, D, "reduce-mpich-smp"},
        /* one rank a node: flat, by size */
        {SC_BARRIER, 0, 64, 1, D, "barrier"},
        {SC_BCAST, 12287, 64, 1, D, "bcast-binomial"},
        {SC_BCAST, 12288, 64, 1, D, "bcast-scatter-rd"},
        {SC_BCAST, 12288, 7, 1, D, "bcast-binomial"}, /* fewer than 8 processes */
        {SC_BCAST, 12288, 24, 1, D, "bcast-scatter-allgather"},
        {SC_BCAST, 524287, 64, 1, D, "bcast-scatter-rd"},
        {SC_BCAST, 524288, 64, 1, D, "bcast-scatter-allgather"},
    };
    for (int i = 0; i < 2; i++) {
        expect_all(mpich[i], cases, sizeof cases / sizeof cases[0]);
        /* allgather at any placement, allreduce and reduce at one rank a node */
        expect_all(mpich[i], mpich_flat, sizeof mpich_flat / sizeof mpich_flat[0]);
    }
}

/* Open MPI 4.1: both sides of every size threshold of every band of p of the
 * fixed rules (at the band's largest p; allgather, whose fallbacks depend on
 * p's parity, at its smallest too) and the band's smallest p once; names
 * after the fallbacks inside the algorithms. Reductions are of ints.
 * Generated from Open MPI v4.1.6's coll_tuned_decision_fixed.c. */
static const struct {
    sc_collective_t coll;
    int p;
    size_t bytes;
    const char *want;
} ompi41_rows[] = {
        /* allgather */
        {SC_ALLGATHER, 2, 1, "rd"},
        {SC_ALLGATHER, 2, 2097152, "rd"},
        {SC_ALLGATHER, 31, 1, "bruck"},
        {SC_ALLGATHER, 31, 2097152, "bruck"},
        {SC_ALLGATHER, 3, 1, "bruck"},
        {SC_ALLGATHER, 3, 2097152, "bruck"},
        {SC_ALLGATHER, 63, 1, "bruck"},
        {SC_ALLGATHER, 63, 1023, "bruck"},
        {SC_ALLGATHER, 63, 1024, "ring"},
        {SC_ALLGATHER, 63, 2097152, "ring"},
        {SC_ALLGATHER, 32, 1, "rd"},
        {SC_ALLGATHER, 32, 1023, "rd"},
        {SC_ALLGATHER, 32, 1024, "allgather-ompi-neighbor"},
        {SC_ALLGATHER, 32, 65535, "allgather-ompi-neighbor"},
        {SC_ALLGATHER, 32, 65536, "ring"},
        {SC_ALLGATHER, 32, 2097152, "ring"},
        {SC_ALLGATHER, 127, 1, "bruck"},
        {SC_ALLGATHER, 127, 511, "bruck"},
        {SC_ALLGATHER, 127, 512, "ring"},
        {SC_ALLGATHER, 127, 2097152, "ring"},
        {SC_ALLGATHER, 64, 1, "rd"},
        {SC_ALLGATHER, 64, 511, "rd"},
        {SC_ALLGATHER, 64, 512, "allgather-ompi-neighbor"},
        {SC_ALLGATHER, 64, 65535, "allgather-ompi-neighbor"},
        {SC_ALLGATHER, 64, 65536, "ring"},
        {SC_ALLGATHER, 64, 2097152, "ring"},
        {SC_ALLGATHER, 255, 1, "bruck"},
        {SC_ALLGATHER, 255, 511, "bruck"},
        {SC_ALLGATHER, 255, 512, "ring"},
        {SC_ALLGATHER, 255, 2097152, "ring"},
        {SC_ALLGATHER, 128, 1, "rd"},
        {SC_ALLGATHER, 128, 511, "rd"},
        {SC_ALLGATHER, 128, 512, "allgather-ompi-neighbor"},
        {SC_ALLGATHER, 128, 131071, "allgather-ompi-neighbor"},
        {SC_ALLGATHER, 128, 131072, "ring"},
        {SC_ALLGATHER, 128, 524287, "ring"},
        {SC_ALLGATHER, 128, 524288, "allgather-ompi-neighbor"},
        {SC_ALLGATHER, 128, 1048575, "allgather-ompi-neighbor"},
        {SC_ALLGATHER, 128, 1048576, "ring"},
        {SC_ALLGATHER, 128, 2097152, "ring"},
        {SC_ALLGATHER, 511, 1, "bruck"},
        {SC_ALLGATHER, 511, 1023, "bruck"},
        {SC_ALLGATHER, 511, 1024, "ring"},
        {SC_ALLGATHER, 511, 2097152, "ring"},
        {SC_ALLGATHER, 256, 1, "rd"},
        {SC_ALLGATHER, 256, 31, "rd"},
        {SC_ALLGATHER, 256, 32, "bruck"},
        {SC_ALLGATHER, 256, 127, "bruck"},
        {SC_ALLGATHER, 256, 128, "rd"},
        {SC_ALLGATHER, 256, 1023, "rd"},
        {SC_ALLGATHER, 256, 1024, "allgather-ompi-neighbor"},
        {SC_ALLGATHER, 256, 131071, "allgather-ompi-neighbor"},
        {SC_ALLGATHER, 256, 131072, "ring"},
        {SC_ALLGATHER, 256, 524287, "ring"},
        {SC_ALLGATHER, 256, 524288, "allgather-ompi-neighbor"},
        {SC_ALLGATHER, 256, 1048575, "allgather-ompi-neighbor"},
        {SC_ALLGATHER, 256, 1048576, "ring"},
        {SC_ALLGATHER, 256, 2097152, "ring"},
        {SC_ALLGATHER, 1023, 1, "bruck"},
        {SC_ALLGATHER, 1023, 2047, "bruck"},
        {SC_ALLGATHER, 1023, 2048, "ring"},
        {SC_ALLGATHER, 1023, 2097152, "ring"},
        {SC_ALLGATHER, 512, 1, "rd"},
        {SC_ALLGATHER, 512, 63, "rd"},
        {SC_ALLGATHER, 512, 64, "bruck"},
        {SC_ALLGATHER, 512, 255, "bruck"},
        {SC_ALLGATHER, 512, 256, "rd"},
        {SC_ALLGATHER, 512, 2047, "rd"},
        {SC_ALLGATHER, 512, 2048, "allgather-ompi-neighbor"},
        {SC_ALLGATHER, 512, 2097152, "allgather-ompi-neighbor"},
        {SC_ALLGATHER, 2047, 1, "bruck"},
        {SC_ALLGATHER, 2047, 4095, "bruck"},
        {SC_ALLGATHER, 2047, 4096, "ring"},
        {SC_ALLGATHER, 2047, 2097152, "ring"},
        {SC_ALLGATHER, 1024, 1, "rd"},
        {SC_ALLGATHER, 1024, 3, "rd"},
        {SC_ALLGATHER, 1024, 4, "bruck"},
        {SC_ALLGATHER, 1024, 7, "bruck"},
        {SC_ALLGATHER, 1024, 8, "rd"},
        {SC_ALLGATHER, 1024, 15, "rd"},
        {SC_ALLGATHER, 1024, 16, "bruck"},
        {SC_ALLGATHER, 1024, 31, "bruck"},
        {SC_ALLGATHER, 1024, 32, "rd"},
        {SC_ALLGATHER, 1024, 255, "rd"},
        {SC_ALLGATHER, 1024, 256, "bruck"},
        {SC_ALLGATHER, 1024, 511, "bruck"},
        {SC_ALLGATHER, 1024, 512, "rd"},
        {SC_ALLGATHER, 1024, 4095, "rd"},
        {SC_ALLGATHER, 1024, 4096, "allgather-ompi-neighbor"},
        {SC_ALLGATHER, 1024, 2097152, "allgather-ompi-neighbor"},
        {SC_ALLGATHER, 4095, 1, "bruck"},
        {SC_ALLGATHER, 4095, 4095, "bruck"},
        {SC_ALLGATHER, 4095, 4096, "ring"},
        {SC_ALLGATHER, 4095, 2097152, "ring"},
        {SC_ALLGATHER, 2048, 1, "bruck"},
        {SC_ALLGATHER, 2048, 31, "bruck"},
        {SC_ALLGATHER, 2048, 32, "rd"},
        {SC_ALLGATHER, 2048, 127, "rd"},
        {SC_ALLGATHER, 2048, 128, "bruck"},
        {SC_ALLGATHER, 2048, 511, "bruck"},
        {SC_ALLGATHER, 2048, 512, "rd"},
        {SC_ALLGATHER, 2048, 4095, "rd"},
        {SC_ALLGATHER, 2048, 4096, "allgather-ompi-neighbor"},
        {SC_ALLGATHER, 2048, 2097152, "allgather-ompi-neighbor"},
        {SC_ALLGATHER, 8191, 1, "bruck"},
        {SC_ALLGATHER, 8191, 4095, "bruck"},
        {SC_ALLGATHER, 8191, 4096, "ring"},
        {SC_ALLGATHER, 8191, 2097152, "ring"},
        {SC_ALLGATHER, 4096, 1, "rd"},
        {SC_ALLGATHER, 4096, 2, "bruck"},
        {SC_ALLGATHER, 4096, 7, "bruck"},
        {SC_ALLGATHER, 4096, 8, "rd"},
        {SC_ALLGATHER, 4096, 15, "rd"},
        {SC_ALLGATHER, 4096, 16, "bruck"},
        {SC_ALLGATHER, 4096, 511, "bruck"},
        {SC_ALLGATHER, 4096, 512, "rd"},
        {SC_ALLGATHER, 4096, 4095, "rd"},
        {SC_ALLGATHER, 4096, 4096, "allgather-ompi-neighbor"},
        {SC_ALLGATHER, 4096, 2097152, "allgather-ompi-neighbor"},
        /* bcast */
        {SC_BCAST, 3, 1, "bcast-ompi-chain"},
        {SC_BCAST, 3, 31, "bcast-ompi-chain"},
        {SC_BCAST, 3, 32, "bcast-ompi-bintree"},
        {SC_BCAST, 3, 255, "bcast-ompi-bintree"},
        {SC_BCAST, 3, 256, "bcast-ompi-chain"},
        {SC_BCAST, 3, 511, "bcast-ompi-chain"},
        {SC_BCAST, 3, 512, "bcast-ompi-knomial"},
        {SC_BCAST, 3, 1023, "bcast-ompi-knomial"},
        {SC_BCAST, 3, 1024, "bcast-ompi-linear"},
        {SC_BCAST, 3, 32767, "bcast-ompi-linear"},
        {SC_BCAST, 3, 32768, "bcast-ompi-bintree"},
        {SC_BCAST, 3, 131071, "bcast-ompi-bintree"},
        {SC_BCAST, 3, 131072, "bcast-ompi-chain"},
        {SC_BCAST, 3, 262143, "bcast-ompi-chain"},
        {SC_BCAST, 3, 262144, "bcast-ompi-linear"},
        {SC_BCAST, 3, 524287, "bcast-ompi-linear"},
        {SC_BCAST, 3, 524288, "bcast-ompi-binomial"},
        {SC_BCAST, 3, 1048575, "bcast-ompi-binomial"},
        {SC_BCAST, 3, 1048576, "bcast-ompi-bintree"},
        {SC_BCAST, 3, 2097152, "bcast-ompi-bintree"},
        {SC_BCAST, 2, 1, "bcast-ompi-chain"},
        {SC_BCAST, 7, 1, "bcast-ompi-bintree"},
        {SC_BCAST, 7, 63, "bcast-ompi-bintree"},
        {SC_BCAST, 7, 64, "bcast-ompi-binomial"},
        {SC_BCAST, 7, 127, "bcast-ompi-binomial"},
        {SC_BCAST, 7, 128, "bcast-ompi-bintree"},
        {SC_BCAST, 7, 2047, "bcast-ompi-bintree"},
        {SC_BCAST, 7, 2048, "bcast-ompi-binomial"},
        {SC_BCAST, 7, 8191, "bcast-ompi-binomial"},
        {SC_BCAST, 7, 8192, "bcast-ompi-linear"},
        {SC_BCAST, 7, 1048575, "bcast-ompi-linear"},
        {SC_BCAST, 7, 1048576, "bcast-ompi-chain"},
        {SC_BCAST, 7, 2097152, "bcast-ompi-chain"},
        {SC_BCAST, 4, 1, "bcast-ompi-bintree"},
        {SC_BCAST, 15, 1, "bcast-ompi-knomial"},
        {SC_BCAST, 15, 7, "bcast-ompi-knomial"},
        {SC_BCAST, 15, 8, "bcast-ompi-bintree"},
        {SC_BCAST, 15, 63, "bcast-ompi-bintree"},
        {SC_BCAST, 15, 64, "bcast-ompi-knomial"},
        {SC_BCAST, 15, 4095, "bcast-ompi-knomial"},
        {SC_BCAST, 15, 4096, "bcast-ompi-bintree"},
        {SC_BCAST, 15, 16383, "bcast-ompi-bintree"},
        {SC_BCAST, 15, 16384, "bcast-ompi-binomial"},
        {SC_BCAST, 15, 32767, "bcast-ompi-binomial"},
        {SC_BCAST, 15, 32768, "bcast-ompi-linear"},
        {SC_BCAST, 15, 2097152, "bcast-ompi-linear"},
        {SC_BCAST, 8, 1, "bcast-ompi-knomial"},
        {SC_BCAST, 31, 1, "bcast-ompi-knomial"},
        {SC_BCAST, 31, 4095, "bcast-ompi-knomial"},
        {SC_BCAST, 31, 4096, "bcast-ompi-binomial"},
        {SC_BCAST, 31, 1048575, "bcast-ompi-binomial"},
        {SC_BCAST, 31, 1048576, "bcast-ompi-scatter-allgather"},
        {SC_BCAST, 31, 2097152, "bcast-ompi-scatter-allgather"},
        {SC_BCAST, 16, 1, "bcast-ompi-knomial"},
        {SC_BCAST, 63, 1, "bcast-ompi-binomial"},
        {SC_BCAST, 63, 2047, "bcast-ompi-binomial"},
        {SC_BCAST, 63, 2048, "bcast-ompi-knomial"},
        {SC_BCAST, 63, 2097152, "bcast-ompi-knomial"},
        {SC_BCAST, 32, 1, "bcast-ompi-binomial"},
        {SC_BCAST, 127, 1, "bcast-ompi-knomial"},
        {SC_BCAST, 127, 2097152, "bcast-ompi-knomial"},
        {SC_BCAST, 64, 1, "bcast-ompi-knomial"},
        {SC_BCAST, 255, 1, "bcast-ompi-binomial"},
        {SC_BCAST, 255, 2, "bcast-ompi-bintree"},
        {SC_BCAST, 255, 16383, "bcast-ompi-bintree"},
        {SC_BCAST, 255, 16384, "bcast-ompi-linear"},
        {SC_BCAST, 255, 32767, "bcast-ompi-linear"},
        {SC_BCAST, 255, 32768, "bcast-ompi-bintree"},
        {SC_BCAST, 255, 65535, "bcast-ompi-bintree"},
        {SC_BCAST, 255, 65536, "bcast-ompi-knomial"},
        {SC_BCAST, 255, 2097152, "bcast-ompi-knomial"},
        {SC_BCAST, 128, 1, "bcast-ompi-binomial"},
        {SC_BCAST, 1023, 1, "bcast-ompi-knomial"},
        {SC_BCAST, 1023, 16383, "bcast-ompi-knomial"},
        {SC_BCAST, 1023, 16384, "bcast-ompi-split-bintree"},
        {SC_BCAST, 1023, 32767, "bcast-ompi-split-bintree"},
        {SC_BCAST, 1023, 32768, "bcast-ompi-knomial"},
        {SC_BCAST, 1023, 2097152, "bcast-ompi-knomial"},
        {SC_BCAST, 256, 1, "bcast-ompi-knomial"},
        {SC_BCAST, 2047, 1, "bcast-ompi-knomial"},
        {SC_BCAST, 2047, 524287, "bcast-ompi-knomial"},
        {SC_BCAST, 2047, 524288, "bcast-ompi-scatter-allgather"},
        {SC_BCAST, 2047, 2097152, "bcast-ompi-scatter-allgather"},
        {SC_BCAST, 1024, 1, "bcast-ompi-knomial"},
        {SC_BCAST, 4095, 1, "bcast-ompi-knomial"},
        {SC_BCAST, 4095, 262143, "bcast-ompi-knomial"},
        {SC_BCAST, 4095, 262144, "bcast-ompi-scatter-allgather"},
        {SC_BCAST, 4095, 2097152, "bcast-ompi-scatter-allgather"},
        {SC_BCAST, 2048, 1, "bcast-ompi-knomial"},
        {SC_BCAST, 8191, 1, "bcast-ompi-knomial"},
        {SC_BCAST, 8191, 8191, "bcast-ompi-knomial"},
        {SC_BCAST, 8191, 8192, "bcast-ompi-bintree"},
        {SC_BCAST, 8191, 16383, "bcast-ompi-bintree"},
        {SC_BCAST, 8191, 16384, "bcast-ompi-knomial"},
        {SC_BCAST, 8191, 262143, "bcast-ompi-knomial"},
        {SC_BCAST, 8191, 262144, "bcast-ompi-scatter-allgather"},
        {SC_BCAST, 8191, 2097152, "bcast-ompi-scatter-allgather"},
        {SC_BCAST, 4096, 1, "bcast-ompi-knomial"},
        /* reduce */
        {SC_REDUCE, 3, 1, "reduce-ompi-linear"},
        {SC_REDUCE, 3, 4, "reduce-ompi-linear"},
        {SC_REDUCE, 3, 8, "reduce-ompi-binary"},
        {SC_REDUCE, 3, 12, "reduce-ompi-binary"},
        {SC_REDUCE, 3, 16, "reduce-ompi-chain"},
        {SC_REDUCE, 3, 28, "reduce-ompi-chain"},
        {SC_REDUCE, 3, 32, "reduce-ompi-linear"},
        {SC_REDUCE, 3, 262140, "reduce-ompi-linear"},
        {SC_REDUCE, 3, 262144, "reduce-ompi-chain"},
        {SC_REDUCE, 3, 2097152, "reduce-ompi-chain"},
        {SC_REDUCE, 2, 1, "reduce-ompi-linear"},
        {SC_REDUCE, 7, 1, "reduce-ompi-binary"},
        {SC_REDUCE, 7, 4092, "reduce-ompi-binary"},
        {SC_REDUCE, 7, 4096, "reduce-ompi-chain"},
        {SC_REDUCE, 7, 65532, "reduce-ompi-chain"},
        {SC_REDUCE, 7, 65536, "reduce-ompi-binomial"},
        {SC_REDUCE, 7, 262140, "reduce-ompi-binomial"},
        {SC_REDUCE, 7, 262144, "reduce-ompi-linear"},
        {SC_REDUCE, 7, 524284, "reduce-ompi-linear"},
        {SC_REDUCE, 7, 524288, "reduce-ompi-binomial"},
        {SC_REDUCE, 7, 1048572, "reduce-ompi-binomial"},
        {SC_REDUCE, 7, 1048576, "reduce-ompi-linear"},
        {SC_REDUCE, 7, 2097152, "reduce-ompi-linear"},
        {SC_REDUCE, 4, 1, "reduce-ompi-binary"},
        {SC_REDUCE, 15, 1, "reduce-ompi-binary"},
        {SC_REDUCE, 15, 8188, "reduce-ompi-binary"},
        {SC_REDUCE, 15, 8192, "reduce-ompi-binomial"},
        {SC_REDUCE, 15, 2097152, "reduce-ompi-binomial"},
        {SC_REDUCE, 8, 1, "reduce-ompi-binary"},
        {SC_REDUCE, 31, 1, "reduce-ompi-binary"},
        {SC_REDUCE, 31, 4092, "reduce-ompi-binary"},
        {SC_REDUCE, 31, 4096, "reduce-ompi-binomial"},
        {SC_REDUCE, 31, 2097152, "reduce-ompi-binomial"},
        {SC_REDUCE, 16, 1, "reduce-ompi-binary"},
        {SC_REDUCE, 255, 1, "reduce-ompi-binomial"},
        {SC_REDUCE, 255, 2097152, "reduce-ompi-binomial"},
        {SC_REDUCE, 32, 1, "reduce-ompi-binomial"},
        {SC_REDUCE, 511, 1, "reduce-ompi-binomial"},
        {SC_REDUCE, 511, 8188, "reduce-ompi-binomial"},
        {SC_REDUCE, 511, 8192, "reduce-ompi-in-order-binary"},
        {SC_REDUCE, 511, 16380, "reduce-ompi-in-order-binary"},
        {SC_REDUCE, 511, 16384, "reduce-ompi-binomial"},
        {SC_REDUCE, 511, 2097152, "reduce-ompi-binomial"},
        {SC_REDUCE, 256, 1, "reduce-ompi-binomial"},
        {SC_REDUCE, 2047, 1, "reduce-ompi-binomial"},
        {SC_REDUCE, 2047, 2097152, "reduce-ompi-binomial"},
        {SC_REDUCE, 512, 1, "reduce-ompi-binomial"},
        {SC_REDUCE, 4095, 1, "reduce-ompi-binomial"},
        {SC_REDUCE, 4095, 508, "reduce-ompi-binomial"},
        {SC_REDUCE, 4095, 512, "reduce-ompi-in-order-binary"},
        {SC_REDUCE, 4095, 1020, "reduce-ompi-in-order-binary"},
        {SC_REDUCE, 4095, 1024, "reduce-ompi-binomial"},
        {SC_REDUCE, 4095, 8188, "reduce-ompi-binomial"},
        {SC_REDUCE, 4095, 8192, "reduce-ompi-in-order-binary"},
        {SC_REDUCE, 4095, 16380, "reduce-ompi-in-order-binary"},
        {SC_REDUCE, 4095, 16384, "reduce-ompi-binomial"},
        {SC_REDUCE, 4095, 2097152, "reduce-ompi-binomial"},
        {SC_REDUCE, 2048, 1, "reduce-ompi-binomial"},
        {SC_REDUCE, 8191, 1, "reduce-ompi-binomial"},
        {SC_REDUCE, 8191, 12, "reduce-ompi-binomial"},
        {SC_REDUCE, 8191, 16, "reduce-ompi-in-order-binary"},
        {SC_REDUCE, 8191, 28, "reduce-ompi-in-order-binary"},
        {SC_REDUCE, 8191, 32, "reduce-ompi-binomial"},
        {SC_REDUCE, 8191, 1020, "reduce-ompi-binomial"},
        {SC_REDUCE, 8191, 1024, "reduce-ompi-in-order-binary"},
        {SC_REDUCE, 8191, 2044, "reduce-ompi-in-order-binary"},
        {SC_REDUCE, 8191, 2048, "reduce-ompi-binomial"},
        {SC_REDUCE, 8191, 8188, "reduce-ompi-binomial"},
        {SC_REDUCE, 8191, 8192, "reduce-ompi-in-order-binary"},
        {SC_REDUCE, 8191, 16380, "reduce-ompi-in-order-binary"},
        {SC_REDUCE, 8191, 16384, "reduce-ompi-binomial"},
        {SC_REDUCE, 8191, 2097152, "reduce-ompi-binomial"},
        {SC_REDUCE, 4096, 1, "reduce-ompi-binomial"},
        /* allreduce */
        {SC_ALLREDUCE, 3, 1, "allreduce-rd"},
        {SC_ALLREDUCE, 3, 4092, "allreduce-rd"},
        {SC_ALLREDUCE, 3, 4096, "allreduce-ompi-ring"},
        {SC_ALLREDUCE, 3, 8188, "allreduce-ompi-ring"},
        {SC_ALLREDUCE, 3, 8192, "allreduce-rd"},
        {SC_ALLREDUCE, 3, 16380, "allreduce-rd"},
        {SC_ALLREDUCE, 3, 16384, "allreduce-ompi-ring"},
        {SC_ALLREDUCE, 3, 262140, "allreduce-ompi-ring"},
        {SC_ALLREDUCE, 3, 262144, "allreduce-mpich"},
        {SC_ALLREDUCE, 3, 2097152, "allreduce-mpich"},
        {SC_ALLREDUCE, 2, 1, "allreduce-rd"},
        {SC_ALLREDUCE, 7, 1, "allreduce-rd"},
        {SC_ALLREDUCE, 7, 8188, "allreduce-rd"},
        {SC_ALLREDUCE, 7, 8192, "allreduce-mpich"},
        {SC_ALLREDUCE, 7, 2097152, "allreduce-mpich"},
        {SC_ALLREDUCE, 4, 1, "allreduce-rd"},
        {SC_ALLREDUCE, 15, 1, "allreduce-rd"},
        {SC_ALLREDUCE, 15, 8188, "allreduce-rd"},
        {SC_ALLREDUCE, 15, 8192, "allreduce-mpich"},
        {SC_ALLREDUCE, 15, 2097152, "allreduce-mpich"},
        {SC_ALLREDUCE, 8, 1, "allreduce-rd"},
        {SC_ALLREDUCE, 31, 1, "allreduce-rd"},
        {SC_ALLREDUCE, 31, 4092, "allreduce-rd"},
        {SC_ALLREDUCE, 31, 4096, "allreduce-mpich"},
        {SC_ALLREDUCE, 31, 2097152, "allreduce-mpich"},
        {SC_ALLREDUCE, 16, 1, "allreduce-rd"},
        {SC_ALLREDUCE, 63, 1, "allreduce-rd"},
        {SC_ALLREDUCE, 63, 124, "allreduce-rd"},
        {SC_ALLREDUCE, 63, 128, "allreduce-mpich"},
        {SC_ALLREDUCE, 63, 2097152, "allreduce-mpich"},
        {SC_ALLREDUCE, 32, 1, "allreduce-rd"},
        {SC_ALLREDUCE, 127, 1, "allreduce-rd"},
        {SC_ALLREDUCE, 127, 262140, "allreduce-rd"},
        {SC_ALLREDUCE, 127, 262144, "allreduce-mpich"},
        {SC_ALLREDUCE, 127, 2097152, "allreduce-mpich"},
        {SC_ALLREDUCE, 64, 1, "allreduce-rd"},
        {SC_ALLREDUCE, 255, 1, "allreduce-ompi-nonoverlapping"},
        {SC_ALLREDUCE, 255, 131068, "allreduce-ompi-nonoverlapping"},
        {SC_ALLREDUCE, 255, 131072, "allreduce-rd"},
        {SC_ALLREDUCE, 255, 262140, "allreduce-rd"},
        {SC_ALLREDUCE, 255, 262144, "allreduce-mpich"},
        {SC_ALLREDUCE, 255, 2097152, "allreduce-mpich"},
        {SC_ALLREDUCE, 128, 1, "allreduce-ompi-nonoverlapping"},
        {SC_ALLREDUCE, 511, 1, "allreduce-ompi-nonoverlapping"},
        {SC_ALLREDUCE, 511, 4092, "allreduce-ompi-nonoverlapping"},
        {SC_ALLREDUCE, 511, 4096, "allreduce-mpich"},
        {SC_ALLREDUCE, 511, 2097152, "allreduce-mpich"},
        {SC_ALLREDUCE, 256, 1, "allreduce-ompi-nonoverlapping"},
        {SC_ALLREDUCE, 2047, 1, "allreduce-ompi-nonoverlapping"},
        {SC_ALLREDUCE, 2047, 2044, "allreduce-ompi-nonoverlapping"},
        {SC_ALLREDUCE, 2047, 2048, "allreduce-rd"},
        {SC_ALLREDUCE, 2047, 16380, "allreduce-rd"},
        {SC_ALLREDUCE, 2047, 16384, "allreduce-mpich"},
        {SC_ALLREDUCE, 2047, 2097152, "allreduce-mpich"},
        {SC_ALLREDUCE, 512, 1, "allreduce-ompi-nonoverlapping"},
        {SC_ALLREDUCE, 4095, 1, "allreduce-ompi-nonoverlapping"},
        {SC_ALLREDUCE, 4095, 2044, "allreduce-ompi-nonoverlapping"},
        {SC_ALLREDUCE, 4095, 2048, "allreduce-rd"},
        {SC_ALLREDUCE, 4095, 16380, "allreduce-rd"},
        {SC_ALLREDUCE, 4095, 16384, "allreduce-mpich"},
        {SC_ALLREDUCE, 4095, 2097152, "allreduce-mpich"},
        {SC_ALLREDUCE, 2048, 1, "allreduce-ompi-nonoverlapping"},
        {SC_ALLREDUCE, 8191, 1, "allreduce-ompi-nonoverlapping"},
        {SC_ALLREDUCE, 8191, 2044, "allreduce-ompi-nonoverlapping"},
        {SC_ALLREDUCE, 8191, 2048, "allreduce-rd"},
        {SC_ALLREDUCE, 8191, 32764, "allreduce-rd"},
        {SC_ALLREDUCE, 8191, 32768, "allreduce-mpich"},
        {SC_ALLREDUCE, 8191, 2097152, "allreduce-mpich"},
        {SC_ALLREDUCE, 4096, 1, "allreduce-ompi-nonoverlapping"},
};

static void expect_prof(const char *name, sc_collective_t coll, size_t bytes, int p,
                        sc_type_t type, const char *want)
{
    static int node_of[8192]; /* coll/tuned ignores where ranks are */
    const sc_profile_t *prof = sc_profile_find(name);
    CU_ASSERT_PTR_NOT_NULL_FATAL(prof);
    CU_ASSERT_FATAL(p <= 8192);
    sc_call_t call = {coll, bytes, p, node_of, type};
    const sc_algo_t *got = sc_profile_choose(prof, &call);
    if (!got || strcmp(got->name, want) != 0) {
        fprintf(stderr, "\n%s %s %zu bytes p=%d: got %s, want %s\n", name,
                sc_collective_name(coll), bytes, p, got ? got->name : "nothing", want);
        CU_FAIL("profile chose another algorithm");
    } else {
        CU_ASSERT_EQUAL(got->collective, coll);
    }
}

static void expect_ompi(sc_collective_t coll, size_t bytes, int p, sc_type_t type, const char *want)
{
    expect_prof("openmpi-4.1", coll, bytes, p, type, want);
}

static void expect40(sc_collective_t coll, size_t bytes, int p, sc_type_t type, const char *want)
{
    expect_prof("openmpi-4.0", coll, bytes, p, type, want);
}

/* The rule's algorithm and segment for a broadcast or a reduce of ints. */
static void expect_bcast40(size_t bytes, int p, sc_ompi_bcast_t alg, size_t seg)
{
    size_t got_seg = 99;
    sc_ompi_bcast_t got = sc_ompi40_bcast_rule(bytes, p, &got_seg);
    if (got != alg || got_seg != seg) {
        fprintf(stderr, "\n4.0 bcast %zu bytes p=%d: got %d/%zu, want %d/%zu\n", bytes, p,
                (int)got, got_seg, (int)alg, seg);
        CU_FAIL("4.0 bcast rule");
    }
}

static void expect_reduce40(size_t bytes, int p, sc_ompi_reduce_t alg, size_t seg)
{
    size_t got_seg = 99;
    sc_ompi_reduce_t got = sc_ompi40_reduce_rule(bytes, bytes / 4, p, &got_seg);
    if (got != alg || got_seg != seg) {
        fprintf(stderr, "\n4.0 reduce %zu bytes p=%d: got %d/%zu, want %d/%zu\n", bytes, p,
                (int)got, got_seg, (int)alg, seg);
        CU_FAIL("4.0 reduce rule");
    }
}

/* Open MPI 3.1 / 4.0: both sides of every threshold of the fixed rules of
 * coll_tuned_decision_fixed.c (v4.0.3), the fitted lines' crossings worked
 * out apart (smallest integer m on the far side, in doubles as Open MPI
 * evaluates them). */
static void test_openmpi40(void)
{
    const sc_type_t I = SC_TYPE_INT, D = SC_TYPE_DOUBLE;
    const size_t MiB = (size_t)1 << 20;
    /* allreduce: 10000 bytes; count > p; p MiB */
    expect40(SC_ALLREDUCE, 4, 64, I, "allreduce-rd");
    expect40(SC_ALLREDUCE, 9996, 64, I, "allreduce-rd");
    expect40(SC_ALLREDUCE, 10000, 64, I, "allreduce-ompi-ring");
    expect40(SC_ALLREDUCE, MiB, 64, I, "allreduce-ompi-ring");
    expect40(SC_ALLREDUCE, 64 * MiB, 64, I, "allreduce-ompi-ring");
    expect40(SC_ALLREDUCE, 64 * MiB + 4, 64, I, "allreduce-ompi-ring-segmented");
    expect40(SC_ALLREDUCE, 4 * MiB, 4, D, "allreduce-ompi-ring");
    expect40(SC_ALLREDUCE, 4 * MiB + 8, 4, D, "allreduce-ompi-ring-segmented");
    expect40(SC_ALLREDUCE, 10000, 2499, I, "allreduce-ompi-ring"); /* 2500 ints > p */
    expect40(SC_ALLREDUCE, 10000, 2500, I, "allreduce-ompi-nonoverlapping");
    expect40(SC_ALLREDUCE, 9996, 2500, I, "allreduce-rd");
    expect40(SC_ALLREDUCE, 10000, 1249, D, "allreduce-ompi-ring");
    expect40(SC_ALLREDUCE, 10000, 1250, D, "allreduce-ompi-nonoverlapping");
    size_t seg = 99;
    CU_ASSERT_EQUAL(sc_ompi40_allreduce_rule(64 * MiB + 4, 16 * MiB + 1, 64, &seg),
                    SC_OMPI_ALLREDUCE_SEGMENTED_RING);
    CU_ASSERT_EQUAL(seg, MiB);
    CU_ASSERT_EQUAL(sc_ompi40_allreduce_rule(64 * MiB, 16 * MiB, 64, &seg), SC_OMPI_ALLREDUCE_RING);
    CU_ASSERT_EQUAL(seg, 0);
    /* allgather: two procs; 50000 bytes gathered; a power of two; odd p */
    expect40(SC_ALLGATHER, 4, 2, D, "rd");
    expect40(SC_ALLGATHER, MiB, 2, D, "rd");
    expect40(SC_ALLGATHER, 4, 64, D, "rd");
    expect40(SC_ALLGATHER, 781, 64, D, "rd");                      /* 49984 */
    expect40(SC_ALLGATHER, 782, 64, D, "allgather-ompi-neighbor"); /* 50048 */
    expect40(SC_ALLGATHER, MiB, 64, D, "allgather-ompi-neighbor");
    expect40(SC_ALLGATHER, 2083, 24, D, "bruck");                  /* 49992 */
    expect40(SC_ALLGATHER, 2084, 24, D, "allgather-ompi-neighbor");
    expect40(SC_ALLGATHER, 1999, 25, D, "bruck");                  /* 49975 */
    expect40(SC_ALLGATHER, 2000, 25, D, "ring");                   /* 50000 */
    expect40(SC_ALLGATHER, 16666, 3, D, "bruck");
    expect40(SC_ALLGATHER, 16667, 3, D, "ring");
    /* barrier: by p only */
    static const struct {
        int p;
        const char *want;
    } barriers[] = {{1, "barrier-ompi-rd"}, {2, "barrier-ompi-rd"}, {3, "barrier"},
                    {4, "barrier-ompi-rd"}, {5, "barrier"},         {6, "barrier"},
                    {63, "barrier"},        {64, "barrier-ompi-rd"}, {65, "barrier"},
                    {96, "barrier"},        {4096, "barrier-ompi-rd"}};
    for (size_t i = 0; i < sizeof barriers / sizeof barriers[0]; i++)
        expect40(SC_BARRIER, 0, barriers[i].p, D, barriers[i].want);
    CU_ASSERT_EQUAL(sc_ompi40_barrier_rule(2), SC_OMPI_BARRIER_TWO_PROCS);
    /* bcast: 2048 and 370728 bytes, then p < 13 and the lines */
    expect40(SC_BCAST, 1, 64, D, "bcast-ompi-binomial");
    expect40(SC_BCAST, 2047, 64, D, "bcast-ompi-binomial");
    expect40(SC_BCAST, 2048, 64, D, "bcast-ompi-split-bintree");
    expect40(SC_BCAST, 370727, 64, D, "bcast-ompi-split-bintree");
    expect40(SC_BCAST, 370728, 64, D, "bcast-ompi-chain");
    expect40(SC_BCAST, 370728, 12, D, "bcast-ompi-split-bintree");
    expect40(SC_BCAST, 370728, 13, D, "bcast-ompi-chain");
    expect40(SC_BCAST, 370728, 2, D, "bcast-ompi-chain"); /* 128 KiB pipeline */
    expect_bcast40(2047, 64, SC_OMPI_BCAST_BINOMIAL, 0);
    expect_bcast40(2048, 64, SC_OMPI_BCAST_SPLIT_BINTREE, 1024);
    expect_bcast40(370727, 64, SC_OMPI_BCAST_SPLIT_BINTREE, 1024);
    expect_bcast40(370728, 64, SC_OMPI_BCAST_PIPELINE, 8192);
    expect_bcast40(370728, 2, SC_OMPI_BCAST_PIPELINE, 131072);
    expect_bcast40(1171315, 4, SC_OMPI_BCAST_SPLIT_BINTREE, 8192);
    expect_bcast40(1171316, 4, SC_OMPI_BCAST_PIPELINE, 131072);
    expect_bcast40(1309670, 13, SC_OMPI_BCAST_PIPELINE, 8192);
    expect_bcast40(1309671, 13, SC_OMPI_BCAST_PIPELINE, 16384);
    expect_bcast40(17188616, 64, SC_OMPI_BCAST_PIPELINE, 8192);
    expect_bcast40(17188617, 64, SC_OMPI_BCAST_PIPELINE, 16384);
    expect_bcast40(26530385, 64, SC_OMPI_BCAST_PIPELINE, 16384);
    expect_bcast40(26530386, 64, SC_OMPI_BCAST_PIPELINE, 65536);
    expect_bcast40(38359861, 64, SC_OMPI_BCAST_PIPELINE, 65536);
    expect_bcast40(38359862, 64, SC_OMPI_BCAST_PIPELINE, 131072);
    /* reduce: p < 8 with 512 and 20480 bytes, 2048, then the lines */
    expect40(SC_REDUCE, 508, 7, I, "reduce-ompi-linear");
    expect40(SC_REDUCE, 512, 7, I, "reduce-ompi-binomial");
    expect40(SC_REDUCE, 508, 8, I, "reduce-ompi-binomial");
    expect40(SC_REDUCE, 20476, 7, I, "reduce-ompi-binomial");
    expect40(SC_REDUCE, 20480, 7, I, "reduce-ompi-binary"); /* the third line */
    expect40(SC_REDUCE, 2044, 64, I, "reduce-ompi-binomial");
    expect40(SC_REDUCE, 2048, 64, I, "reduce-ompi-binomial");
    expect40(SC_REDUCE, 106636, 64, I, "reduce-ompi-binomial");
    expect40(SC_REDUCE, 106640, 64, I, "reduce-ompi-chain");
    expect40(SC_REDUCE, 1524800, 64, I, "reduce-ompi-binary");
    expect40(SC_REDUCE, 1524804, 64, I, "reduce-ompi-chain");
    expect_reduce40(508, 7, SC_OMPI_REDUCE_LINEAR, 0);
    expect_reduce40(512, 7, SC_OMPI_REDUCE_BINOMIAL, 0);
    expect_reduce40(20476, 7, SC_OMPI_REDUCE_BINOMIAL, 0);
    expect_reduce40(20480, 7, SC_OMPI_REDUCE_BINARY, 32768);
    expect_reduce40(2047, 64, SC_OMPI_REDUCE_BINOMIAL, 0);
    expect_reduce40(2048, 64, SC_OMPI_REDUCE_BINOMIAL, 1024);
    expect_reduce40(106638, 64, SC_OMPI_REDUCE_BINOMIAL, 1024);
    expect_reduce40(106639, 64, SC_OMPI_REDUCE_PIPELINE, 1024);
    expect_reduce40(1355855, 64, SC_OMPI_REDUCE_PIPELINE, 1024);
    expect_reduce40(1355856, 64, SC_OMPI_REDUCE_BINARY, 32768);
    expect_reduce40(1524803, 64, SC_OMPI_REDUCE_BINARY, 32768);
    expect_reduce40(1524804, 64, SC_OMPI_REDUCE_PIPELINE, 32768);
    expect_reduce40(19339295, 64, SC_OMPI_REDUCE_PIPELINE, 32768);
    expect_reduce40(19339296, 64, SC_OMPI_REDUCE_PIPELINE, 65536);
    expect_reduce40(11319, 8, SC_OMPI_REDUCE_BINOMIAL, 1024);
    expect_reduce40(11320, 8, SC_OMPI_REDUCE_BINARY, 32768); /* p = 8 never above line 2 */
    expect_reduce40(157026, 16, SC_OMPI_REDUCE_PIPELINE, 1024);
    expect_reduce40(157027, 16, SC_OMPI_REDUCE_BINARY, 32768);
    /* one element: unsegmented binomial whatever the size */
    size_t rseg = 99;
    CU_ASSERT_EQUAL(sc_ompi40_reduce_rule(4096, 1, 64, &rseg), SC_OMPI_REDUCE_BINOMIAL);
    CU_ASSERT_EQUAL(rseg, 0);
}

static void test_openmpi41(void)
{
    const sc_type_t I = SC_TYPE_INT, D = SC_TYPE_DOUBLE;
    for (size_t i = 0; i < sizeof ompi41_rows / sizeof ompi41_rows[0]; i++)
        expect_ompi(ompi41_rows[i].coll, ompi41_rows[i].bytes, ompi41_rows[i].p, I,
                    ompi41_rows[i].want);
    /* barrier: by p only */
    static const struct {
        int p;
        const char *want;
    } barriers[] = {{2, "barrier-ompi-rd"},      {3, "barrier-ompi-rd"},
                    {4, "barrier-ompi-linear"},  {7, "barrier-ompi-linear"},
                    {8, "barrier-ompi-rd"},      {63, "barrier-ompi-rd"},
                    {64, "barrier"},             {255, "barrier"},
                    {256, "barrier-ompi-tree"},  {511, "barrier-ompi-tree"},
                    {512, "barrier"},            {1023, "barrier"},
                    {1024, "barrier-ompi-tree"}, {4095, "barrier-ompi-tree"},
                    {4096, "barrier"},           {8192, "barrier"}};
    for (size_t i = 0; i < sizeof barriers / sizeof barriers[0]; i++)
        expect_ompi(SC_BARRIER, 0, barriers[i].p, D, barriers[i].want);
    /* fallbacks, by elements of the type: the ring below p elements runs
     * recursive doubling; Rabenseifner below pof2(p) elements the linear
     * allreduce, and reduce's the linear reduce */
    expect_ompi(SC_ALLREDUCE, 4, 3, I, "allreduce-rd");           /* ring, 1 element */
    expect_ompi(SC_ALLREDUCE, 4096, 3, D, "allreduce-ompi-ring"); /* ring, 512 doubles */
    expect_ompi(SC_ALLREDUCE, 56, 16, D, "allreduce-rd");         /* ring (alg 5), 7 < 16 */
    expect_ompi(SC_ALLREDUCE, 32768, 8192, D, "allreduce-ompi-linear"); /* 4096 < 8192 */
    expect_ompi(SC_ALLREDUCE, 65536, 8192, D, "allreduce-mpich");
    expect_ompi(SC_REDUCE, 4, 3, I, "reduce-ompi-linear");        /* redscat, 1 < 2 */
    expect_ompi(SC_REDUCE, 4, 2, I, "reduce-ompi-linear");
    expect_ompi(SC_BCAST, 1, 2, D, "bcast-ompi-chain"); /* pipeline: the same chain */
    expect_ompi(SC_ALLGATHER, 4096, 64, D, "allgather-ompi-neighbor");
    expect_ompi(SC_ALLGATHER, 4096, 65, D, "ring"); /* neighbor exchange needs even p */
    expect_ompi(SC_ALLGATHER, 8, 24, D, "bruck");   /* recursive doubling needs 2^k */
    expect_ompi(SC_ALLGATHER, 8, 16, D, "rd");
}

/* MVAPICH2 1.4: both sides of every threshold, ranks sharing nodes (8 a
 * node) and not (1 a node). */
static void test_mvapich2(void)
{
    const char *v = "mvapich2-1.4";
    const sc_type_t D = SC_TYPE_DOUBLE, I = SC_TYPE_INT;
    const choice_t cases[] = {
        /* barrier: the shared-memory barrier whenever a node holds two ranks */
        {SC_BARRIER, 0, 64, 8, D, "barrier-mv2-shmem"},
        {SC_BARRIER, 0, 2, 8, D, "barrier-mv2-shmem"},
        {SC_BARRIER, 0, 9, 8, D, "barrier-mv2-shmem"}, /* one full node, one rank */
        {SC_BARRIER, 0, 64, 1, D, "barrier"},
        /* bcast, short: k-nomial above 64 processes up to 2048 bytes */
        {SC_BCAST, 2048, 65, 8, D, "bcast-mv2-knomial"},
        {SC_BCAST, 2048, 65, 1, D, "bcast-mv2-knomial"},
        {SC_BCAST, 1, 65, 8, D, "bcast-mv2-knomial"},
        {SC_BCAST, 2049, 65, 8, D, "bcast-binomial"},
        {SC_BCAST, 2048, 64, 8, D, "bcast-binomial"},
        {SC_BCAST, 2048, 64, 1, D, "bcast-binomial"},
        /* the short-message test includes 12288 bytes (MPICH2 1.2.1's does not) */
        {SC_BCAST, 12288, 64, 8, D, "bcast-binomial"},
        {SC_BCAST, 12288, 64, 1, D, "bcast-binomial"},
        {SC_BCAST, 12289, 64, 8, D, "bcast-mv2-shmem"},
        {SC_BCAST, 12289, 64, 1, D, "bcast-scatter-allgather"}, /* not scatter-rd */
        {SC_BCAST, 12289, 24, 1, D, "bcast-scatter-allgather"},
        /* fewer than 8 processes: binomial at any size */
        {SC_BCAST, 1 << 20, 7, 8, D, "bcast-binomial"},
        {SC_BCAST, 1 << 20, 7, 1, D, "bcast-binomial"},
        {SC_BCAST, 12289, 8, 8, D, "bcast-mv2-shmem"},
        /* the shared-memory broadcast below 1 MiB */
        {SC_BCAST, (1 << 20) - 1, 64, 8, D, "bcast-mv2-shmem"},
        {SC_BCAST, (1 << 20) - 1, 64, 1, D, "bcast-scatter-allgather"},
        {SC_BCAST, 1 << 20, 64, 8, D, "bcast-scatter-allgather"},
        {SC_BCAST, 1 << 20, 64, 1, D, "bcast-scatter-allgather"},
        /* allreduce: shared memory below 32 KiB when nodes are shared */
        {SC_ALLREDUCE, 32760, 64, 8, D, "allreduce-mv2-shmem"},
        {SC_ALLREDUCE, 8, 64, 8, D, "allreduce-mv2-shmem"},
        {SC_ALLREDUCE, 32768, 64, 8, D, "allreduce-rabenseifner"},
        {SC_ALLREDUCE, 32768, 1024, 8, I, "allreduce-rabenseifner"}, /* 8192 >= 1024 */
        {SC_ALLREDUCE, 32768, 1024, 8, D, "allreduce-rabenseifner"}, /* 4096 >= 1024 */
        /* reduce: shared memory below 1 KiB when nodes are shared */
        {SC_REDUCE, 1020, 64, 8, I, "reduce-mv2-shmem"},
        {SC_REDUCE, 4, 2, 8, I, "reduce-mv2-shmem"},
        {SC_REDUCE, 1024, 64, 8, I, "reduce-mst"},
        {SC_REDUCE, 1020, 64, 1, I, "reduce-mst"},
        /* ... else MPICH's, whose SMP variant MVAPICH2 has not */
        {SC_REDUCE, 2048, 64, 8, D, "reduce-mst"},
        {SC_REDUCE, 2056, 64, 8, D, "reduce-rabenseifner"},
    };
    expect_all(v, cases, sizeof cases / sizeof cases[0]);
    /* allgather, and allreduce and reduce one rank a node: MPICH's */
    expect_all(v, mpich_flat, sizeof mpich_flat / sizeof mpich_flat[0]);
}

/* Scatter: both sides of every threshold of Open MPI 4.1's (and 5.0.5's)
 * table and of 3.1/4.0's rule, by the block; MPICH's binomial tree always;
 * no rule for MVAPICH2 1.4, refused with a message. */
static void test_scatter(void)
{
    const sc_type_t D = SC_TYPE_DOUBLE;
    static const struct {
        int p;
        size_t bytes;
        const char *want;
    } rows[] = {
        {2, 1, "linear-nb"},          {3, 2, "linear"},         {3, 131071, "linear"},
        {3, 131072, "linear-nb"},     {3, 262143, "linear-nb"}, {3, 262144, "linear"},
        {4, 2047, "binomial"},        {7, 2048, "linear"},      {7, 4096, "binomial"},
        {7, 8191, "binomial"},        {7, 8192, "linear"},      {7, 32768, "linear-nb"},
        {7, 1048575, "linear-nb"},    {7, 1048576, "linear"},   {8, 16383, "binomial"},
        {15, 16384, "linear-nb"},     {15, 1048576, "linear"},  {16, 16383, "binomial"},
        {31, 16384, "linear"},        {31, 32768, "linear-nb"}, {32, 511, "binomial"},
        {63, 512, "linear-nb"},       {63, 8191, "linear-nb"},  {63, 8192, "binomial"},
        {63, 16384, "linear-nb"},     {64, 511, "binomial"},    {128, 512, "linear-nb"},
        {4096, 1 << 20, "linear-nb"},
    };
    char want[64];
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        snprintf(want, sizeof want, "scatter-ompi-%s", rows[i].want);
        expect_ompi(SC_SCATTER, rows[i].bytes, rows[i].p, D, want);
    }
    expect40(SC_SCATTER, 299, 11, D, "scatter-ompi-binomial");
    expect40(SC_SCATTER, 300, 11, D, "scatter-ompi-linear");
    expect40(SC_SCATTER, 1, 10, D, "scatter-ompi-linear");
    expect("mpich-3.2", SC_SCATTER, 1 << 20, 64, 8, D, "scatter-ompi-binomial");
    expect("mpich2-1.2.1", SC_SCATTER, 8, 5, 1, D, "scatter-ompi-binomial");
    const sc_profile_t *mv2 = sc_profile_find("mvapich2-1.4");
    sc_call_t call = {SC_SCATTER, 8, 16, nodes(16, 8), D};
    CU_ASSERT_PTR_NULL(sc_profile_choose(mv2, &call));
    CU_ASSERT_EQUAL(sc_profile_no_rule(mv2, SC_SCATTER), SC_ERR_INPUT);
    CU_ASSERT_PTR_NOT_NULL(strstr(sc_error_message(), "mvapich2-1.4 has no scatter rule"));
}

/* Every profile has a rule for every collective, and every choice it can
 * make is a registered algorithm of that collective; MVAPICH2 1.4 alone
 * has none for scatter (test_scatter). */
static void test_table(void)
{
    for (const sc_profile_t *p = sc_profiles; p->name; p++) {
        CU_ASSERT_PTR_NOT_NULL(p->library);
        CU_ASSERT_PTR_NOT_NULL(p->source);
        for (int c = 0; c < SC_NCOLLECTIVES; c++) {
            CU_ASSERT_PTR_NOT_NULL(p->rules[c]);
            if (c == SC_SCATTER && !strcmp(p->name, "mvapich2-1.4"))
                continue;
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
    CU_add_test(s, "Open MPI 4.1", test_openmpi41);
    CU_add_test(s, "MVAPICH2 1.4", test_mvapich2);
    CU_add_test(s, "Open MPI 3.1 and 4.0", test_openmpi40);
    CU_add_test(s, "scatter", test_scatter);
    CU_add_test(s, "every profile, every collective", test_table);
}
