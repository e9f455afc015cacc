/* Open MPI's coll/tuned: its fixed decision rules and the trees its base
 * collectives run on.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef SC_OMPI_TUNED_H
#define SC_OMPI_TUNED_H

#include <stddef.h>

/* The algorithms coll/tuned numbers, as in the *_do_this switches of
 * ompi/mca/coll/tuned/coll_tuned_<coll>_decision.c (Open MPI v4.1.6). */
typedef enum {
    SC_OMPI_BCAST_LINEAR = 1,
    SC_OMPI_BCAST_CHAIN,
    SC_OMPI_BCAST_PIPELINE,
    SC_OMPI_BCAST_SPLIT_BINTREE,
    SC_OMPI_BCAST_BINTREE,
    SC_OMPI_BCAST_BINOMIAL,
    SC_OMPI_BCAST_KNOMIAL,
    SC_OMPI_BCAST_SCATTER_ALLGATHER,
    SC_OMPI_BCAST_SCATTER_ALLGATHER_RING,
} sc_ompi_bcast_t;

typedef enum {
    SC_OMPI_REDUCE_LINEAR = 1,
    SC_OMPI_REDUCE_CHAIN,
    SC_OMPI_REDUCE_PIPELINE,
    SC_OMPI_REDUCE_BINARY,
    SC_OMPI_REDUCE_BINOMIAL,
    SC_OMPI_REDUCE_IN_ORDER_BINARY,
    SC_OMPI_REDUCE_REDSCAT_GATHER,
} sc_ompi_reduce_t;

typedef enum {
    SC_OMPI_ALLREDUCE_LINEAR = 1,
    SC_OMPI_ALLREDUCE_NONOVERLAPPING,
    SC_OMPI_ALLREDUCE_RECURSIVE_DOUBLING,
    SC_OMPI_ALLREDUCE_RING,
    SC_OMPI_ALLREDUCE_SEGMENTED_RING,
    SC_OMPI_ALLREDUCE_RABENSEIFNER,
} sc_ompi_allreduce_t;

typedef enum {
    SC_OMPI_BARRIER_LINEAR = 1,
    SC_OMPI_BARRIER_DOUBLE_RING,
    SC_OMPI_BARRIER_RECURSIVE_DOUBLING,
    SC_OMPI_BARRIER_BRUCK,
    SC_OMPI_BARRIER_TWO_PROCS,
    SC_OMPI_BARRIER_TREE,
} sc_ompi_barrier_t;

typedef enum {
    SC_OMPI_ALLGATHER_LINEAR = 1,
    SC_OMPI_ALLGATHER_BRUCK,
    SC_OMPI_ALLGATHER_RECURSIVE_DOUBLING,
    SC_OMPI_ALLGATHER_RING,
    SC_OMPI_ALLGATHER_NEIGHBOR,
    SC_OMPI_ALLGATHER_TWO_PROCS,
} sc_ompi_allgather_t;

/* coll_tuned_scatter_algorithm's numbers (coll_tuned_scatter_decision.c). */
typedef enum {
    SC_OMPI_SCATTER_BASIC_LINEAR = 1,
    SC_OMPI_SCATTER_BINOMIAL,
    SC_OMPI_SCATTER_LINEAR_NB,
} sc_ompi_scatter_t;

/* The fixed decision rules of Open MPI 4.1 (identical from v4.1.0 to
 * v4.1.6 and in v5.0.0), ompi/mca/coll/tuned/coll_tuned_decision_fixed.c:
 * the algorithm the table names for `bytes` on p processes, before the
 * algorithm's own fallbacks (algorithms/profiles/openmpi.c resolves
 * those). bcast, reduce and allreduce measure the whole message; allgather
 * the block of one rank; barrier only p. Operations are commutative (all of
 * simcoll's are), which selects the commutative half of the reduce and
 * allreduce tables. */
sc_ompi_bcast_t sc_ompi41_bcast_rule(size_t bytes, int p);
sc_ompi_reduce_t sc_ompi41_reduce_rule(size_t bytes, int p);
sc_ompi_allreduce_t sc_ompi41_allreduce_rule(size_t bytes, int p);
sc_ompi_barrier_t sc_ompi41_barrier_rule(int p);
sc_ompi_allgather_t sc_ompi41_allgather_rule(size_t block, int p);
/* scatter: by the block of one rank, at the root (v4.1.0 to v5.0.5). */
sc_ompi_scatter_t sc_ompi41_scatter_rule(size_t block, int p);

/* The fixed decision rules of Open MPI 3.1.0 to 4.0.7, before 4.1's tables:
 * ompi/mca/coll/tuned/coll_tuned_decision_fixed.c, which is the same for
 * these five collectives from v3.0.0 to v4.0.7 (cited at v4.0.3 and v3.1.6
 * in algorithms/profiles/openmpi.c). Sizes as above; `elems` is the
 * element count of a reduction, which the allreduce and reduce rules also
 * test; operations are commutative. The segment size in bytes the rule
 * passes to the algorithm goes to *segsize (0: one segment). */
sc_ompi_allreduce_t sc_ompi40_allreduce_rule(size_t bytes, size_t elems, int p, size_t *segsize);
sc_ompi_barrier_t sc_ompi40_barrier_rule(int p);
sc_ompi_bcast_t sc_ompi40_bcast_rule(size_t bytes, int p, size_t *segsize);
sc_ompi_reduce_t sc_ompi40_reduce_rule(size_t bytes, size_t elems, int p, size_t *segsize);
sc_ompi_allgather_t sc_ompi40_allgather_rule(size_t block, int p);
sc_ompi_scatter_t sc_ompi40_scatter_rule(size_t block, int p);

/* The segment the 4.0 allreduce rule gives the segmented ring: 1 MiB. */
#define SC_OMPI_RING_SEGMENT ((size_t)1 << 20)

/* The phases of ompi_coll_base_allreduce_intra_ring_segmented for n
 * elements of `elem` bytes on p ranks and `segsize`-byte segments: 1 (the
 * plain ring) when n < p segments, else n / (p segments), plus one when the
 * remainder is at least p elements and above half of p segments. */
size_t sc_ompi_ring_phases(size_t n, size_t elem, int p, size_t segsize);

/* The trees of ompi/mca/coll/base/coll_base_topo.c. Ranks are shifted so
 * that the root is 0 (v = (rank - root) mod p), except in the in-order
 * binary tree, whose root is always rank p - 1.
 *   FLAT                 the root's children are all other ranks in rank
 *                        order (what the basic_linear broadcast does)
 *   CHAIN                build_chain with fanout 1: v - 1 -> v -> v + 1
 *   BINARY               build_tree(2): level L holds v = 2^L - 1 ..
 *                        2^(L+1) - 2, children v + 2^L and v + 2^(L+1)
 *   BINOMIAL             build_bmtree: children v + 2^j for every 2^j
 *                        above v's highest bit, nearest first
 *   IN_ORDER_BINOMIAL    build_in_order_bmtree: children v + 2^j for every
 *                        2^j below v's lowest set bit, nearest first
 *   KNOMIAL              build_kmtree, radix SC_OMPI_KNOMIAL_RADIX:
 *                        children v + r 4^j (r = 1..3), farthest first
 *   IN_ORDER_BINARY      build_in_order_bintree: p - 1 at the top, its
 *                        left child p - 2 over the upper ranks, its right
 *                        child floor(p/2) - 1 over ranks 0 .. floor(p/2) - 1 */
typedef enum {
    SC_OMPI_TREE_FLAT,
    SC_OMPI_TREE_CHAIN,
    SC_OMPI_TREE_BINARY,
    SC_OMPI_TREE_BINOMIAL,
    SC_OMPI_TREE_IN_ORDER_BINOMIAL,
    SC_OMPI_TREE_KNOMIAL,
    SC_OMPI_TREE_IN_ORDER_BINARY,
} sc_ompi_tree_t;

/* coll_tuned_bcast_knomial_radix, coll_tuned_bcast_decision.c. */
enum { SC_OMPI_KNOMIAL_RADIX = 4 };

/* Rank `rank`'s place in the tree over p ranks rooted at `root`: its parent
 * (-1 at the tree's root) goes to *parent and its children, in the order
 * Open MPI serves them, to child[]. Returns the number of children: p - 1
 * at the root of FLAT, at most 2 log2(p) + 2 (64 for any int p) otherwise. */
int sc_ompi_tree(sc_ompi_tree_t tree, int p, int root, int rank, int *parent, int *child);

#endif
