/* Open MPI's scatters (ompi/mca/coll/base/coll_base_scatter.c, tag v5.0.5,
 * the same in v4.1.6): basic linear, linear with isends, binomial.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include <stdlib.h>

#include "algorithms/openmpi/tuned.h"
#include "../collectives.h"
#include "openmpi.h"

/* The root's block for rank r: at r * m of sendbuf, rank order (MPI's). */
static const char *block_of(const sc_coll_args_t *args, int r)
{
    return (const char *)args->sendbuf + (size_t)r * args->bytes;
}

/* ompi_coll_base_scatter_intra_basic_linear and _linear_nb (coll/tuned
 * passes max_requests 0: every send an isend). Every rank but the root
 * receives its block from the root; the root serves ranks 0, 1, ... p-1 in
 * rank order (not from itself on), copying its own block: with blocking
 * sends, each waits for its receiver past the eager limit; with isends,
 * all are posted and then waited for. Cost on one level where links are
 * not shared, with rendezvous blocks (alpha = o_s + 3L + o_r): blocking
 * T = (p-1)(alpha + m beta) less the overlap of a send's o_r with the
 * next one's o_s; isends T = alpha + (p-2) o_s + m beta (a shared link
 * makes it (p-1) m beta). */
static sc_err_t linear(sc_comm_t *comm, const sc_coll_args_t *args, int nonblocking)
{
    int p = comm->size, rank = comm->rank, root = args->root, posted = 0;
    size_t m = args->bytes;
    if (m == 0)
        return SC_OK;
    if (rank != root)
        return sc_recv(comm, args->recvbuf, m, root, SC_TAG_SCATTER);
    sc_request_t **reqs = NULL;
    if (nonblocking && p > 1 && !(reqs = malloc((size_t)(p - 1) * sizeof *reqs)))
        return sc_error(SC_ERR_RUN, "rank %d: out of memory for %d requests", rank, p - 1);
    sc_err_t err = SC_OK;
    for (int r = 0; r < p && !err; r++) {
        if (r == root)
            sc_buf_copy(comm, args->recvbuf, block_of(args, r), m);
        else if (nonblocking)
            err = sc_isend(comm, block_of(args, r), m, r, SC_TAG_SCATTER, &reqs[posted++]);
        else
            err = sc_send(comm, block_of(args, r), m, r, SC_TAG_SCATTER);
    }
    sc_err_t werr = posted ? sc_waitall(comm, posted, reqs) : SC_OK;
    free(reqs);
    return err ? err : werr;
}

sc_err_t sc_scatter_ompi_linear(sc_comm_t *comm, const sc_coll_args_t *args)
{
    return linear(comm, args, 0);
}

sc_err_t sc_scatter_ompi_linear_nb(sc_comm_t *comm, const sc_coll_args_t *args)
{
    return linear(comm, args, 1);
}

/* ompi_coll_base_scatter_intra_binomial on the in-order binomial tree
 * (SC_OMPI_TREE_IN_ORDER_BINOMIAL): v = (rank - root) mod p; v's parent is
 * v less its lowest set bit, its children v + 2^j below that bit. The root,
 * whose blocks are put in v order first when it is not rank 0, and every
 * inner rank (even v) hold the blocks of their subtree, v to the next
 * sibling's position; odd v are leaves and receive their own block only.
 * Each rank receives its subtree's blocks from its parent, keeps the
 * first, and sends each child its subtree's blocks with a blocking send,
 * the largest subtree first. ceil(log2 p) levels; on one level without
 * shared links the root's sends alone take the sum over j of
 * alpha + min(2^j, p - 2^j) m beta, about log2(p) alpha + (p-1) m beta. */
sc_err_t sc_scatter_ompi_binomial(sc_comm_t *comm, const sc_coll_args_t *args)
{
    int p = comm->size, rank = comm->rank, root = args->root, parent;
    int v = (rank - root + p) % p, child[64];
    size_t m = args->bytes;
    if (m == 0)
        return SC_OK;
    int n = sc_ompi_tree(SC_OMPI_TREE_IN_ORDER_BINOMIAL, p, root, rank, &parent, child);
    if (v % 2) /* a leaf */
        return sc_recv(comm, args->recvbuf, m, parent, SC_TAG_SCATTER);
    /* the subtree: up to the parent's next child, or the end */
    int span = v ? v - (parent - root + p) % p : p, held = p - v < span ? p - v : span;
    char *blocks = NULL;
    sc_err_t err = SC_OK;
    if (v || root != 0) {
        blocks = sc_buf_alloc(comm, (size_t)held * m);
        if (!blocks)
            return sc_error(SC_ERR_RUN, "rank %d: out of memory for %d blocks of %zu bytes", rank,
                            held, m);
    }
    if (v) {
        err = sc_recv(comm, blocks, (size_t)held * m, parent, SC_TAG_SCATTER);
    } else if (root != 0) { /* v order: the root's blocks from its own on */
        sc_buf_copy(comm, blocks, block_of(args, root), (size_t)(p - root) * m);
        sc_buf_copy(comm, blocks + (size_t)(p - root) * m, block_of(args, 0), (size_t)root * m);
    }
    const char *mine = blocks ? blocks : block_of(args, root);
    if (!err)
        sc_buf_copy(comm, args->recvbuf, mine, m);
    for (int i = n - 1; i >= 0 && !err; i--) {
        int d = (child[i] - rank + p) % p; /* the child's v less ours */
        int count = p - v - d < d ? p - v - d : d;
        err = sc_send(comm, mine + (size_t)d * m, (size_t)count * m, child[i], SC_TAG_SCATTER);
    }
    if (blocks)
        sc_buf_free(comm, blocks);
    return err;
}

sc_err_t sc_scatter_ompi_tuned(sc_comm_t *comm, const sc_coll_args_t *args)
{
    switch (sc_ompi41_scatter_rule(args->bytes, comm->size)) {
    case SC_OMPI_SCATTER_BINOMIAL: return sc_scatter_ompi_binomial(comm, args);
    case SC_OMPI_SCATTER_LINEAR_NB: return sc_scatter_ompi_linear_nb(comm, args);
    case SC_OMPI_SCATTER_BASIC_LINEAR: break;
    }
    return sc_scatter_ompi_linear(comm, args);
}
