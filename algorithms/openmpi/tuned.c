/* Open MPI's coll/tuned: the fixed decision rules, the trees of
 * ompi/mca/coll/base/coll_base_topo.c, the segmented ring's phases.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "tuned.h"

#include <stdlib.h>


/* ---- the fixed decision rules (coll_tuned_decision_fixed.c, v4.1.6) ----
 * Each row is a process-count band: `below` is its upper bound (exclusive)
 * and the band's thresholds are read in order, the first size bound above
 * the size giving the algorithm; `last` applies beyond them. */

typedef struct {
    size_t below;
    int alg;
} step_t;

static int pick(const step_t *steps, int nsteps, int last, size_t s)
{
    for (int i = 0; i < nsteps; i++)
        if (s < steps[i].below)
            return steps[i].alg;
    return last;
}

#define PICK(last, ...)                                                                           \
    do {                                                                                          \
        static const step_t steps_[] = {__VA_ARGS__};                                             \
        return pick(steps_, (int)(sizeof steps_ / sizeof steps_[0]), (last), s);                 \
    } while (0)

sc_ompi_allreduce_t sc_ompi41_allreduce_rule(size_t s, int p)
{
    /* ompi_coll_tuned_allreduce_intra_dec_fixed, commutative operations */
    if (p < 4)
        PICK(6, {8, 4}, {4096, 3}, {8192, 4}, {16384, 3}, {65536, 4}, {262144, 5});
    if (p < 8)
        PICK(6, {16, 4}, {8192, 3});
    if (p < 16)
        PICK(6, {8192, 3});
    if (p < 32)
        PICK(6, {64, 5}, {4096, 3});
    if (p < 64)
        PICK(6, {128, 5});
    if (p < 128)
        PICK(6, {262144, 3});
    if (p < 256)
        PICK(6, {131072, 2}, {262144, 3});
    if (p < 512)
        PICK(6, {4096, 2});
    if (p < 2048)
        PICK(6, {2048, 2}, {16384, 3});
    if (p < 4096)
        PICK(6, {2048, 2}, {4096, 5}, {16384, 3});
    PICK(6, {2048, 2}, {16384, 5}, {32768, 3});
}

sc_ompi_barrier_t sc_ompi41_barrier_rule(int p)
{
    /* ompi_coll_tuned_barrier_intra_dec_fixed */
    if (p < 4)
        return SC_OMPI_BARRIER_RECURSIVE_DOUBLING;
    if (p < 8)
        return SC_OMPI_BARRIER_LINEAR;
    if (p < 64)
        return SC_OMPI_BARRIER_RECURSIVE_DOUBLING;
    if (p < 256)
        return SC_OMPI_BARRIER_BRUCK;
    if (p < 512)
        return SC_OMPI_BARRIER_TREE;
    if (p < 1024)
        return SC_OMPI_BARRIER_BRUCK;
    if (p < 4096)
        return SC_OMPI_BARRIER_TREE;
    return SC_OMPI_BARRIER_BRUCK;
}

sc_ompi_bcast_t sc_ompi41_bcast_rule(size_t s, int p)
{
    /* ompi_coll_tuned_bcast_intra_dec_fixed */
    if (p < 4)
        PICK(5, {32, 3}, {256, 5}, {512, 3}, {1024, 7}, {32768, 1}, {131072, 5}, {262144, 2},
             {524288, 1}, {1048576, 6});
    if (p < 8)
        PICK(2, {64, 5}, {128, 6}, {2048, 5}, {8192, 6}, {1048576, 1});
    if (p < 16)
        PICK(1, {8, 7}, {64, 5}, {4096, 7}, {16384, 5}, {32768, 6});
    if (p < 32)
        PICK(8, {4096, 7}, {1048576, 6});
    if (p < 64)
        PICK(7, {2048, 6});
    if (p < 128)
        return SC_OMPI_BCAST_KNOMIAL;
    if (p < 256)
        PICK(7, {2, 6}, {16384, 5}, {32768, 1}, {65536, 5});
    if (p < 1024)
        PICK(7, {16384, 7}, {32768, 4});
    if (p < 2048)
        PICK(8, {524288, 7});
    if (p < 4096)
        PICK(8, {262144, 7});
    PICK(8, {8192, 7}, {16384, 5}, {262144, 7});
}

sc_ompi_reduce_t sc_ompi41_reduce_rule(size_t s, int p)
{
    /* ompi_coll_tuned_reduce_intra_dec_fixed, commutative operations */
    if (p < 4)
        PICK(3, {8, 7}, {16, 4}, {32, 3}, {262144, 1}, {524288, 3}, {1048576, 2});
    if (p < 8)
        PICK(1, {4096, 4}, {65536, 2}, {262144, 5}, {524288, 1}, {1048576, 5});
    if (p < 16)
        PICK(5, {8192, 4});
    if (p < 32)
        PICK(5, {4096, 4});
    if (p < 256)
        return SC_OMPI_REDUCE_BINOMIAL;
    if (p < 512)
        PICK(5, {8192, 5}, {16384, 6});
    if (p < 2048)
        return SC_OMPI_REDUCE_BINOMIAL;
    if (p < 4096)
        PICK(5, {512, 5}, {1024, 6}, {8192, 5}, {16384, 6});
    PICK(5, {16, 5}, {32, 6}, {1024, 5}, {2048, 6}, {8192, 5}, {16384, 6});
}

sc_ompi_allgather_t sc_ompi41_allgather_rule(size_t s, int p)
{
    /* ompi_coll_tuned_allgather_intra_dec_fixed: s is one rank's block */
    if (p == 2)
        return SC_OMPI_ALLGATHER_TWO_PROCS;
    if (p < 32)
        return SC_OMPI_ALLGATHER_RECURSIVE_DOUBLING;
    if (p < 64)
        PICK(4, {1024, 3}, {65536, 5});
    if (p < 128)
        PICK(4, {512, 3}, {65536, 5});
    if (p < 256)
        PICK(4, {512, 3}, {131072, 5}, {524288, 4}, {1048576, 5});
    if (p < 512)
        PICK(4, {32, 3}, {128, 2}, {1024, 3}, {131072, 5}, {524288, 4}, {1048576, 5});
    if (p < 1024)
        PICK(5, {64, 3}, {256, 2}, {2048, 3});
    if (p < 2048)
        PICK(5, {4, 3}, {8, 2}, {16, 3}, {32, 2}, {256, 3}, {512, 2}, {4096, 3});
    if (p < 4096)
        PICK(5, {32, 2}, {128, 3}, {512, 2}, {4096, 3});
    PICK(5, {2, 3}, {8, 2}, {16, 3}, {512, 2}, {4096, 3});
}

sc_ompi_scatter_t sc_ompi41_scatter_rule(size_t s, int p)
{
    /* ompi_coll_tuned_scatter_intra_dec_fixed: the same text in v4.1.6
     * and v5.0.5, the block being the root's scount elements */
    if (p < 4)
        PICK(1, {2, 3}, {131072, 1}, {262144, 3});
    if (p < 8)
        PICK(1, {2048, 2}, {4096, 1}, {8192, 2}, {32768, 1}, {1048576, 3});
    if (p < 16)
        PICK(1, {16384, 2}, {1048576, 3});
    if (p < 32)
        PICK(3, {16384, 2}, {32768, 1});
    if (p < 64)
        PICK(3, {512, 2}, {8192, 3}, {16384, 2});
    PICK(3, {512, 2});
}

/* ---- the older fixed rules (v3.1.6 and v4.0.3: the same text) ---- */

sc_ompi_scatter_t sc_ompi40_scatter_rule(size_t block, int p)
{
    /* ompi_coll_tuned_scatter_intra_dec_fixed: binomial for more than 10
     * processes and blocks below 300 bytes, else basic linear */
    return p > 10 && block < 300 ? SC_OMPI_SCATTER_BINOMIAL : SC_OMPI_SCATTER_BASIC_LINEAR;
}

sc_ompi_allreduce_t sc_ompi40_allreduce_rule(size_t bytes, size_t elems, int p, size_t *segsize)
{
    /* ompi_coll_tuned_allreduce_intra_dec_fixed: recursive doubling below
     * 10000 bytes; for commutative operations on more elements than ranks
     * the ring, segmented into 1 MiB pieces once the vector exceeds p MiB;
     * else reduce + broadcast */
    const size_t segment = (size_t)1 << 20;
    *segsize = 0;
    if (bytes < 10000)
        return SC_OMPI_ALLREDUCE_RECURSIVE_DOUBLING;
    if (elems > (size_t)p) {
        if ((size_t)p * segment >= bytes)
            return SC_OMPI_ALLREDUCE_RING;
        *segsize = segment;
        return SC_OMPI_ALLREDUCE_SEGMENTED_RING;
    }
    return SC_OMPI_ALLREDUCE_NONOVERLAPPING;
}

sc_ompi_barrier_t sc_ompi40_barrier_rule(int p)
{
    /* ompi_coll_tuned_barrier_intra_dec_fixed: two procs, recursive
     * doubling for a power of two, else Bruck */
    if (p == 2)
        return SC_OMPI_BARRIER_TWO_PROCS;
    return (p & (p - 1)) == 0 ? SC_OMPI_BARRIER_RECURSIVE_DOUBLING : SC_OMPI_BARRIER_BRUCK;
}

sc_ompi_bcast_t sc_ompi40_bcast_rule(size_t bytes, int p, size_t *segsize)
{
    /* ompi_coll_tuned_bcast_intra_dec_fixed; a broadcast's count is its
     * bytes (MPI_BYTE). The lines p = a m + b were fitted for 16, 64 and
     * 128 KiB segments. */
    double m = (double)bytes;
    *segsize = 0;
    if (bytes < 2048) /* its count <= 1 test is implied */
        return SC_OMPI_BCAST_BINOMIAL;
    if (bytes < 370728) {
        *segsize = 1024;
        return SC_OMPI_BCAST_SPLIT_BINTREE;
    }
    if (p < 1.6134e-6 * m + 2.1102)
        *segsize = 128 * 1024;
    else if (p < 13) {
        *segsize = 8 * 1024;
        return SC_OMPI_BCAST_SPLIT_BINTREE;
    } else if (p < 2.3679e-6 * m + 1.1787)
        *segsize = 64 * 1024;
    else if (p < 3.2118e-6 * m + 8.7936)
        *segsize = 16 * 1024;
    else
        *segsize = 8 * 1024;
    return SC_OMPI_BCAST_PIPELINE;
}

sc_ompi_reduce_t sc_ompi40_reduce_rule(size_t bytes, size_t elems, int p, size_t *segsize)
{
    /* ompi_coll_tuned_reduce_intra_dec_fixed, commutative operations */
    double m = (double)bytes;
    *segsize = 0;
    if (p < 8 && bytes < 512)
        return SC_OMPI_REDUCE_LINEAR;
    if ((p < 8 && bytes < 20480) || bytes < 2048 || elems <= 1)
        return SC_OMPI_REDUCE_BINOMIAL;
    if (p > 0.6016 / 1024.0 * m + 1.3496) {
        *segsize = 1024;
        return SC_OMPI_REDUCE_BINOMIAL;
    }
    if (p > 0.0410 / 1024.0 * m + 9.7128) {
        *segsize = 1024;
        return SC_OMPI_REDUCE_PIPELINE;
    }
    if (p > 0.0422 / 1024.0 * m + 1.1614) {
        *segsize = 32 * 1024;
        return SC_OMPI_REDUCE_BINARY;
    }
    *segsize = p > 0.0033 / 1024.0 * m + 1.6761 ? 32 * 1024 : 64 * 1024;
    return SC_OMPI_REDUCE_PIPELINE;
}

sc_ompi_allgather_t sc_ompi40_allgather_rule(size_t block, int p)
{
    /* ompi_coll_tuned_allgather_intra_dec_fixed: two procs; below 50000
     * bytes in all, recursive doubling (p a power of two) or Bruck; else
     * ring (odd p) or neighbour exchange (even p) */
    if (p == 2)
        return SC_OMPI_ALLGATHER_TWO_PROCS;
    if (block * (size_t)p < 50000)
        return (p & (p - 1)) == 0 ? SC_OMPI_ALLGATHER_RECURSIVE_DOUBLING : SC_OMPI_ALLGATHER_BRUCK;
    return p % 2 ? SC_OMPI_ALLGATHER_RING : SC_OMPI_ALLGATHER_NEIGHBOR;
}

/* ---- trees (coll_base_topo.c) ---- */

/* build_in_order_bintree: descend from the top (rank p - 1) to `rank`,
 * keeping the subtree's size and the offset of its lowest rank. */
static int in_order_binary(int p, int rank, int *parent, int *child)
{
    int size = p, me = rank, top = p - 1, offset = 0, n = 0;
    for (;;) {
        int right = size / 2, left_child = -1, right_child = -1;
        if (size > 1) {
            left_child = top - 1;
            if (left_child > 0)
                right_child = right - 1;
        }
        if (me == top) {
            if (left_child >= 0)
                child[n++] = left_child + offset;
            if (right_child >= 0)
                child[n++] = right_child + offset;
            return n;
        }
        if (me > right_child) { /* in the left subtree: ranks right .. top - 1 */
            if (me == left_child)
                *parent = top + offset;
            size -= right + 1;
            offset += right;
            me -= right;
            top = size - 1;
        } else { /* in the right subtree: ranks 0 .. right - 1 */
            if (me == right_child)
                *parent = top + offset;
            size = right;
            top = right_child;
        }
    }
}

int sc_ompi_tree(sc_ompi_tree_t tree, int p, int root, int rank, int *parent, int *child)
{
    int n = 0, v = (rank - root + p) % p;
    *parent = -1;
#define REAL(x) (((x) + root) % p)
    switch (tree) {
    case SC_OMPI_TREE_IN_ORDER_BINARY:
        return in_order_binary(p, rank, parent, child);
    case SC_OMPI_TREE_FLAT:
        if (v)
            *parent = root;
        else
            for (int r = 0; r < p; r++)
                if (r != root)
                    child[n++] = r;
        return n;
    case SC_OMPI_TREE_CHAIN:
        if (v)
            *parent = REAL(v - 1);
        if (v + 1 < p)
            child[n++] = REAL(v + 1);
        return n;
    case SC_OMPI_TREE_BINARY: {
        int first = 0, delta = 1; /* v's level starts at first = delta - 1 */
        while (2 * first + 1 <= v) {
            first = 2 * first + 1;
            delta *= 2;
        }
        for (int i = 1; i <= 2 && v + i * delta < p; i++)
            child[n++] = REAL(v + i * delta);
        if (v) {
            int up = v;
            if (up < 2)
                up = 0;
            else
                while (up >= first)
                    up -= delta / 2;
            *parent = REAL(up);
        }
        return n;
    }
    case SC_OMPI_TREE_BINOMIAL: {
        int mask = 1; /* the smallest power of two above v */
        while (mask <= v)
            mask <<= 1;
        if (v)
            *parent = REAL(v ^ (mask >> 1));
        for (; mask < p && (v ^ mask) < p; mask <<= 1)
            child[n++] = REAL(v ^ mask);
        return n;
    }
    case SC_OMPI_TREE_IN_ORDER_BINOMIAL:
        for (int mask = 1; mask < p; mask <<= 1) {
            int other = v ^ mask;
            if (other < v) {
                *parent = REAL(other);
                break;
            }
            if (other < p)
                child[n++] = REAL(other);
        }
        return n;
    case SC_OMPI_TREE_KNOMIAL: {
        const int k = SC_OMPI_KNOMIAL_RADIX;
        long mask = 1;
        for (; mask < p; mask *= k)
            if (v % (k * mask)) {
                *parent = REAL((int)(v / (k * mask) * (k * mask)));
                break;
            }
        for (mask /= k; mask > 0; mask /= k)
            for (int r = 1; r < k; r++)
                if (v + mask * r < p)
                    child[n++] = REAL((int)(v + mask * r));
        return n;
    }
    }
#undef REAL
    return n;
}

size_t sc_ompi_ring_phases(size_t n, size_t elem, int p, size_t segsize)
{
    size_t seg = n; /* COLL_BASE_COMPUTED_SEGCOUNT: whole elements, rounded */
    if (segsize >= elem && segsize < elem * n)
        seg = segsize / elem + (segsize % elem > elem / 2);
    size_t round = (size_t)p * seg;
    if (n < round)
        return 1;
    size_t phases = n / round, rest = n % round;
    return phases + (rest >= (size_t)p && rest > round / 2);
}
