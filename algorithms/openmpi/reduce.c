/* Open MPI 4.1's reduces (ompi/mca/coll/base/coll_base_reduce.c, tag
 * v4.1.6): the generic tree reduce on its four trees, the linear reduce,
 * and Rabenseifner's reduce-scatter + gather.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include <stdlib.h>

#include "algorithms/openmpi/tuned.h"
#include "../collectives.h"
#include "../reduce/vector.h"
#include "openmpi.h"

/* ompi_coll_base_reduce_generic with one segment (coll/tuned passes segsize
 * 0 and max_requests 0), commutative operation. A leaf sends its vector to
 * its parent with a blocking send. A rank with children c_0 .. c_(k-1)
 * receives c_0's vector into its accumulator; for i = 1 .. k-1 it posts the
 * receive of c_i (into one of two buffers), waits for c_(i-1) and combines
 * (after c_0 its own vector, after c_i c_i's), so that two receives are
 * outstanding while it waits; it then waits for c_(k-1), combines, and
 * sends the result to its parent. The trees (models/openmpi.h):
 *   reduce-ompi-chain     _chain and _pipeline (fanout 0 forced to 1):
 *                         root+p-1 -> ... -> root+1 -> root;
 *   reduce-ompi-binary    _binary: build_tree(2);
 *   reduce-ompi-binomial  _binomial: build_in_order_bmtree, the tree of
 *                         reduce-mst (MPICH), children v + 1, 2, 4, ...;
 *                         reduce-mst posts each receive only after the
 *                         previous combine, so a rendezvous request waits
 *                         for that where Open MPI answers it at once;
 *   reduce-ompi-in-order-binary  _in_order_binary: build_in_order_bintree,
 *                         rooted at rank p-1, which then sends the result
 *                         to the root if that is another rank.
 * Cost on one level, rendezvous (alpha = o_s + 3L + o_r, gamma per byte
 * combined): chain T = (p-1)(alpha + L beta + L gamma); binomial, p a power
 * of two, T = log2(p)(alpha + L beta + L gamma). */
static sc_err_t tree_reduce(sc_comm_t *comm, const sc_coll_args_t *args, sc_ompi_tree_t tree)
{
    int p = comm->size, parent;
    size_t n = sc_vector_elems(args), L = args->bytes;
    sc_span_t all = {0, n};
    if (n == 0)
        return SC_OK;
    if (p == 1) {
        sc_vector_start(comm, args);
        return SC_OK;
    }
    int *child = malloc(64 * sizeof *child); /* at most 2 log2 p children */
    if (!child)
        return sc_error(SC_ERR_RUN, "rank %d: out of memory for a reduce tree", comm->rank);
    int k = sc_ompi_tree(tree, p, args->root, comm->rank, &parent, child);
    if (k == 0) {
        sc_err_t err = sc_send(comm, args->sendbuf, L, parent, SC_TAG_REDUCE);
        free(child);
        return err;
    }
    char *vec = args->recvbuf, *tmp[2] = {NULL, NULL};
    sc_request_t *req[2] = {NULL, NULL};
    sc_err_t err = SC_OK;
    for (int b = 0; b < 2 && k > 1 && !err; b++)
        err = sc_vector_alloc(comm, args, n, &tmp[b]);
    if (!err)
        err = sc_irecv(comm, vec, L, child[0], SC_TAG_REDUCE, &req[0]);
    for (int i = 1; i < k && !err; i++) {
        err = sc_irecv(comm, tmp[i % 2], L, child[i], SC_TAG_REDUCE, &req[i % 2]);
        if (!err)
            err = sc_wait(comm, &req[(i - 1) % 2]);
        if (!err)
            err = sc_vector_combine(comm, args, vec, i == 1 ? args->sendbuf : tmp[(i - 1) % 2],
                                    all);
    }
    if (!err)
        err = sc_wait(comm, &req[(k - 1) % 2]);
    if (!err)
        err = sc_vector_combine(comm, args, vec, k == 1 ? args->sendbuf : tmp[(k - 1) % 2], all);
    if (err) /* release whatever is still posted */
        sc_waitall(comm, 2, req);
    if (!err && parent >= 0)
        err = sc_send(comm, vec, L, parent, SC_TAG_REDUCE);
    for (int b = 0; b < 2; b++)
        if (tmp[b])
            sc_buf_free(comm, tmp[b]);
    free(child);
    return err;
}

sc_err_t sc_reduce_ompi_chain(sc_comm_t *comm, const sc_coll_args_t *args)
{
    return tree_reduce(comm, args, SC_OMPI_TREE_CHAIN);
}

sc_err_t sc_reduce_ompi_binary(sc_comm_t *comm, const sc_coll_args_t *args)
{
    return tree_reduce(comm, args, SC_OMPI_TREE_BINARY);
}

sc_err_t sc_reduce_ompi_binomial(sc_comm_t *comm, const sc_coll_args_t *args)
{
    return tree_reduce(comm, args, SC_OMPI_TREE_IN_ORDER_BINOMIAL);
}

sc_err_t sc_reduce_ompi_in_order_binary(sc_comm_t *comm, const sc_coll_args_t *args)
{
    int p = comm->size, top = p - 1, root = args->root;
    sc_err_t err = tree_reduce(comm, args, SC_OMPI_TREE_IN_ORDER_BINARY);
    if (err || root == top || args->bytes == 0)
        return err;
    if (comm->rank == top)
        return sc_send(comm, args->recvbuf, args->bytes, root, SC_TAG_REDUCE);
    if (comm->rank == root)
        return sc_recv(comm, args->recvbuf, args->bytes, top, SC_TAG_REDUCE);
    return SC_OK;
}

/* ompi_coll_base_reduce_intra_basic_linear: every other rank sends its
 * vector to the root; the root receives rank p-1's (or copies its own if it
 * is p-1), then for i = p-2 down to 0 receives rank i's and combines it
 * (its own without a message). Blocking calls throughout. Cost on one
 * level, rendezvous, root 0: T = o_s + L_w + (p-1)(2 L_w + o_r + L beta +
 * L gamma), L_w the wire latency; eager: o_s + L_w + L beta + (p-1)(o_r +
 * L gamma). */
static sc_err_t reduce_linear(sc_comm_t *comm, const sc_coll_args_t *args)
{
    int p = comm->size, rank = comm->rank, root = args->root;
    size_t n = sc_vector_elems(args);
    sc_span_t all = {0, n};
    if (n == 0)
        return SC_OK;
    if (rank != root)
        return sc_send(comm, args->sendbuf, args->bytes, root, SC_TAG_REDUCE);
    char *vec = args->recvbuf, *tmp;
    sc_err_t err = sc_vector_alloc(comm, args, n, &tmp);
    if (!err && root == p - 1)
        sc_vector_start(comm, args);
    else if (!err)
        err = sc_recv(comm, vec, args->bytes, p - 1, SC_TAG_REDUCE);
    for (int i = p - 2; i >= 0 && !err; i--) {
        if (i == root)
            err = sc_vector_combine(comm, args, vec, args->sendbuf, all);
        else
            err = sc_vector_recv_combine(comm, args, vec, tmp, all, i, SC_TAG_REDUCE);
    }
    if (tmp)
        sc_buf_free(comm, tmp);
    return err;
}

sc_err_t sc_reduce_ompi_linear(sc_comm_t *comm, const sc_coll_args_t *args)
{
    return reduce_linear(comm, args);
}

/* The span virtual rank v splits at step s of recursive halving. */
static sc_span_t window(size_t n, int v, int s)
{
    sc_span_t x = {0, n};
    for (int i = 0; i < s; i++)
        x = sc_span_half(x, (v >> i) & 1);
    return x;
}

/* ompi_coll_base_reduce_intra_redscat_gather. N = the largest power of two
 * <= p, r = p - N; ranks are numbered from 0 whatever the root. With fewer
 * than N elements (or p = 1) Open MPI runs the linear reduce.
 *   1. Ranks 2i, 2i+1 < 2r swap halves: the even one keeps the lower half,
 *      the odd one the upper, each combines its own; the odd one then
 *      sends its half to the even one and drops out (the prior art of
 *      reduce-mpich, two messages of L/2 where MPICH's own
 *      reduce-rabenseifner sends the whole vector once).
 *   2. The N survivors, v = i for 2i < 2r and v = rank - r beyond, halve
 *      recursively at distances 1, 2, 4, ...: the lower rank of a pair
 *      keeps the lower half.
 *   3. A binomial gather towards the root's survivor, largest distance
 *      (smallest blocks) first: at distance 2^s the rank whose partner's
 *      aligned group of 2^s holds the root sends what it has and leaves.
 *      A root that dropped out in step 1 first receives v = 0's block from
 *      rank 0 and plays v = 0.
 * For root 0 this is reduce-mpich's schedule message for message (simcoll
 * numbers that one's ranks from the root instead). Cost on one level,
 * rendezvous, r > 0, root 0, L divisible by 2N:
 *   T = (2 + 2 log2 N) alpha + (3 - 2/N) L beta + (3/2 - 1/N) L gamma. */
sc_err_t sc_reduce_ompi_redscat_gather(sc_comm_t *comm, const sc_coll_args_t *args)
{
    int p = comm->size, N = sc_pow2_below(p), r = p - N, rank = comm->rank, root = args->root;
    int steps = sc_ceil_log2(N);
    size_t n = sc_vector_elems(args);
    if (n == 0)
        return SC_OK;
    if (N < 2 || n < (size_t)N)
        return reduce_linear(comm, args);
    sc_span_t whole = {0, n};
    char *vec = args->recvbuf, *tmp;
    sc_vector_start(comm, args);
    sc_err_t err = sc_vector_alloc(comm, args, (n + 1) / 2, &tmp);
    int v = rank >= 2 * r ? rank - r : rank % 2 ? -1 : rank / 2;
    if (!err && rank < 2 * r) {
        int upper = rank % 2, partner = rank ^ 1;
        err = sc_vector_sendrecv_combine(comm, args, vec, tmp, sc_span_half(whole, !upper),
                                         partner, sc_span_half(whole, upper), partner,
                                         SC_TAG_REDUCE);
        if (!err)
            err = upper ? sc_vector_send(comm, args, vec, sc_span_half(whole, 1), partner,
                                         SC_TAG_REDUCE)
                        : sc_vector_recv(comm, args, vec, sc_span_half(whole, 1), partner,
                                         SC_TAG_REDUCE);
    }
#define REAL(x) ((x) < r ? 2 * (x) : (x) + r)
    if (!err && v >= 0) {
        sc_group_t g = {.size = N, .me = v};
        for (int s = 0; s < steps; s++)
            g.peer[s] = REAL(v ^ (1 << s));
        err = sc_group_halving(comm, args, &g, vec, tmp, whole, SC_TAG_REDUCE, NULL);
    }
    int odd_root = root < 2 * r && root % 2;
    int vroot = odd_root ? 0 : root < 2 * r ? root / 2 : root - r;
    if (!err && odd_root && rank == root) {
        err = sc_vector_recv(comm, args, vec, window(n, 0, steps), 0, SC_TAG_REDUCE);
        v = 0;
    } else if (!err && odd_root && v == 0) {
        err = sc_vector_send(comm, args, vec, window(n, 0, steps), root, SC_TAG_REDUCE);
        v = -1;
    }
    for (int s = steps - 1; s >= 0 && v >= 0 && !err; s--) {
        int w = v ^ (1 << s), bit = (v >> s) & 1;
        int peer = w == 0 && odd_root ? root : REAL(w);
        sc_span_t P = window(n, v, s);
        if ((w >> s) == (vroot >> s)) {
            err = sc_vector_send(comm, args, vec, sc_span_half(P, bit), peer, SC_TAG_REDUCE);
            break;
        }
        err = sc_vector_recv(comm, args, vec, sc_span_half(P, !bit), peer, SC_TAG_REDUCE);
    }
#undef REAL
    if (tmp)
        sc_buf_free(comm, tmp);
    return err;
}

sc_err_t sc_reduce_ompi_tuned(sc_comm_t *comm, const sc_coll_args_t *args)
{
    switch (sc_ompi41_reduce_rule(args->bytes, comm->size)) {
    case SC_OMPI_REDUCE_LINEAR:
        return reduce_linear(comm, args);
    case SC_OMPI_REDUCE_CHAIN:
    case SC_OMPI_REDUCE_PIPELINE:
        return tree_reduce(comm, args, SC_OMPI_TREE_CHAIN);
    case SC_OMPI_REDUCE_BINARY:
        return tree_reduce(comm, args, SC_OMPI_TREE_BINARY);
    case SC_OMPI_REDUCE_BINOMIAL:
        return tree_reduce(comm, args, SC_OMPI_TREE_IN_ORDER_BINOMIAL);
    case SC_OMPI_REDUCE_IN_ORDER_BINARY:
        return sc_reduce_ompi_in_order_binary(comm, args);
    case SC_OMPI_REDUCE_REDSCAT_GATHER:
        return sc_reduce_ompi_redscat_gather(comm, args);
    }
    return sc_error(SC_ERR_RUN, "internal: no Open MPI reduce for this rule");
}
