/* Open MPI 4.1's broadcasts (ompi/mca/coll/base/coll_base_bcast.c, tag
 * v4.1.6): the generic tree broadcast on its five trees, the split binary
 * tree, and scatter + recursive-doubling allgather.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include <stdlib.h>

#include "algorithms/steps.h"
#include "algorithms/openmpi/tuned.h"
#include "../collectives.h"
#include "openmpi.h"

/* ompi_coll_base_bcast_intra_generic with one segment (coll/tuned passes
 * segsize 0): a rank receives the message from its parent with a blocking
 * receive, isends it to every child in the tree's order, and waits for all
 * of them. The trees (models/openmpi.h, coll_base_topo.c):
 *   bcast-ompi-linear    ompi_coll_base_bcast_intra_basic_linear: the root
 *                        isends to every rank in rank order, then waits;
 *   bcast-ompi-chain     _chain and _pipeline (coll/tuned's fanout 0 is
 *                        forced to 1): root -> root+1 -> ... -> root+p-1;
 *   bcast-ompi-bintree   _bintree: build_tree(2), level by level;
 *   bcast-ompi-binomial  _binomial: build_bmtree, children v + 2^j above v's
 *                        highest bit, nearest first (MPICH's binomial tree,
 *                        bcast-binomial, numbers the other way round: its
 *                        children are below the lowest bit, farthest first,
 *                        sent one blocking send after the other);
 *   bcast-ompi-knomial   _knomial, radix 4 (coll_tuned_bcast_knomial_radix):
 *                        children v + r 4^j, r = 1..3, farthest first.
 * Cost on one level where links are not shared, with rendezvous messages
 * (alpha = o_s + 3L + o_r): chain T = (p-1)(alpha + m beta); linear
 * T = alpha + (p-2) o_s + m beta (a shared link makes it (p-1) m beta). A
 * rank's sends overlap after their o_s, so the other trees have no simple
 * closed form: each level costs between alpha + m beta and
 * alpha + (c-1) o_s + m beta for a rank of c children. */
static sc_err_t tree_bcast(sc_comm_t *comm, const sc_coll_args_t *args, sc_ompi_tree_t tree)
{
    int p = comm->size, parent;
    size_t m = args->bytes;
    if (m == 0 || p == 1)
        return SC_OK;
    /* only the linear root has more than a few dozen children */
    size_t most = tree == SC_OMPI_TREE_FLAT && comm->rank == args->root ? (size_t)p : 64;
    int *child = malloc(most * sizeof *child);
    sc_request_t **reqs = malloc(most * sizeof *reqs);
    if (!child || !reqs) {
        free(child);
        free(reqs);
        return sc_error(SC_ERR_RUN, "rank %d: out of memory for a broadcast tree", comm->rank);
    }
    int n = sc_ompi_tree(tree, p, args->root, comm->rank, &parent, child), posted = 0;
    sc_err_t err = parent >= 0 ? sc_recv(comm, args->recvbuf, m, parent, SC_TAG_BCAST) : SC_OK;
    for (; posted < n && !err; posted++)
        err = sc_isend(comm, args->recvbuf, m, child[posted], SC_TAG_BCAST, &reqs[posted]);
    sc_err_t werr = posted ? sc_waitall(comm, posted, reqs) : SC_OK;
    free(child);
    free(reqs);
    return err ? err : werr;
}

sc_err_t sc_bcast_ompi_linear(sc_comm_t *comm, const sc_coll_args_t *args)
{
    return tree_bcast(comm, args, SC_OMPI_TREE_FLAT);
}

sc_err_t sc_bcast_ompi_chain(sc_comm_t *comm, const sc_coll_args_t *args)
{
    return tree_bcast(comm, args, SC_OMPI_TREE_CHAIN);
}

sc_err_t sc_bcast_ompi_bintree(sc_comm_t *comm, const sc_coll_args_t *args)
{
    return tree_bcast(comm, args, SC_OMPI_TREE_BINARY);
}

sc_err_t sc_bcast_ompi_binomial(sc_comm_t *comm, const sc_coll_args_t *args)
{
    return tree_bcast(comm, args, SC_OMPI_TREE_BINOMIAL);
}

sc_err_t sc_bcast_ompi_knomial(sc_comm_t *comm, const sc_coll_args_t *args)
{
    return tree_bcast(comm, args, SC_OMPI_TREE_KNOMIAL);
}

/* ompi_coll_base_bcast_intra_split_bintree, one segment, on n elements of
 * `elem` bytes. The first ceil(n/2) elements go down the left subtree of
 * build_tree(2) (odd shifted ranks), the rest down the right one (even),
 * with blocking sends, the root serving its left child first. Then every
 * rank but the root swaps halves with its pair, the next rank if it is on
 * the left and the previous one if on the right; for even p rank root+p-1
 * has no pair and gets the right half from the root instead. With n = 1
 * (one half empty) Open MPI runs the chain broadcast. Every message
 * carries half the message; on one level the time is about the binary
 * tree's depth times alpha + m/2 beta, plus the root's second send and the
 * swap (no simple closed form: the root serves its children in turn). */
static sc_err_t split_bintree(sc_comm_t *comm, const sc_coll_args_t *args, size_t elem)
{
    int p = comm->size, rank = comm->rank, root = args->root, parent, child[2];
    size_t n = args->bytes / elem;
    if (n == 0 || p == 1)
        return SC_OK;
    size_t cnt[2] = {(n + 1) / 2 * elem, n / 2 * elem};
    if (cnt[1] == 0)
        return tree_bcast(comm, args, SC_OMPI_TREE_CHAIN);
    char *half[2] = {args->recvbuf, (char *)args->recvbuf + cnt[0]};
    int side = ((rank - root + p) % p + 1) % 2; /* 0: left subtree, 1: right (and the root) */
    int nc = sc_ompi_tree(SC_OMPI_TREE_BINARY, p, root, rank, &parent, child);
    sc_err_t err = SC_OK;
    if (rank != root)
        err = sc_recv(comm, half[side], cnt[side], parent, SC_TAG_BCAST);
    for (int i = 0; i < nc && !err; i++) {
        int h = rank == root ? i : side;
        err = sc_send(comm, half[h], cnt[h], child[i], SC_TAG_BCAST);
    }
    if (err)
        return err;
    int pair = side == 0 ? (rank + 1) % p : (rank - 1 + p) % p, last = (root + p - 1) % p;
    if (p % 2 == 0 && rank == root)
        return sc_send(comm, half[1], cnt[1], last, SC_TAG_BCAST);
    if (p % 2 == 0 && rank == last)
        return sc_recv(comm, half[1], cnt[1], root, SC_TAG_BCAST);
    if (rank == root)
        return SC_OK;
    return sc_sendrecv(comm, half[side], cnt[side], pair, SC_TAG_BCAST, half[!side], cnt[!side],
                       pair, SC_TAG_BCAST);
}

sc_err_t sc_bcast_ompi_split_bintree(sc_comm_t *comm, const sc_coll_args_t *args)
{
    return split_bintree(comm, args, 1);
}

/* ompi_coll_base_bcast_intra_scatter_allgather on n elements of `elem`
 * bytes. Fewer elements than ranks: Open MPI runs the linear broadcast.
 * Otherwise the message is cut into p chunks of ceil(n/p) elements and
 * scattered down MPICH's binomial tree (relative rank v gets the chunks of
 * its subtree; blocking sends, farthest child first), then gathered back by
 * recursive doubling: at distance 2^k, v swaps the chunks of its aligned
 * group of 2^k with v XOR 2^k. When p is not a power of two a partner may
 * not exist; the group whose partner group is cut short then hands the
 * chunks it got on by recursive halving (Open MPI's "haves to have-nots"
 * fix-up, the same as MPICH's non-power-of-two allgather): at distance
 * 2^j < 2^k, member v sends them to v + 2^j if v holds them and v + 2^j
 * does not. Every message is sent even when its chunks are empty. Cost on
 * one level, rendezvous, p = 2^k, n divisible by p:
 * 2 log2(p) alpha + 2 (p-1)/p m beta (as bcast-scatter-rd). */
static size_t chunk_bytes(size_t n, int p, int first, int count, size_t elem)
{
    return sc_chunk_span_bytes(n, p, first, count) * elem;
}

static size_t chunk_offset(size_t n, int p, int first, size_t elem)
{
    return chunk_bytes(n, p, 0, first, elem);
}

/* n elements of elem bytes cut into p chunks: chunks rel..rel+mask-1. */
typedef struct {
    size_t n, elem;
} chunking_t;

static void chunks(const void *ctx, int p, int rel, int mask, size_t *offset, size_t *size)
{
    const chunking_t *c = ctx;
    *offset = chunk_offset(c->n, p, rel, c->elem);
    *size = chunk_bytes(c->n, p, rel, mask, c->elem);
}

static sc_err_t scatter_allgather(sc_comm_t *comm, const sc_coll_args_t *args, size_t elem)
{
    int p = comm->size, rank = comm->rank, root = args->root, v = (rank - root + p) % p;
    size_t n = args->bytes / elem;
    char *buf = args->recvbuf;
    if (n == 0 || p == 1)
        return SC_OK;
    if (n < (size_t)p)
        return tree_bcast(comm, args, SC_OMPI_TREE_FLAT);
    chunking_t c = {n, elem};
    sc_err_t err = sc_binomial_down(comm, root, buf, SC_TAG_BCAST, chunks, &c);
    for (int mask = 1; mask < p && !err; mask <<= 1) {
        int w = v ^ mask, base = v & ~(mask - 1), other = w & ~(mask - 1);
        if (w < p)
            err = sc_sendrecv(comm, buf + chunk_offset(n, p, base, elem),
                              chunk_bytes(n, p, base, mask, elem), (w + root) % p, SC_TAG_BCAST,
                              buf + chunk_offset(n, p, other, elem),
                              chunk_bytes(n, p, other, mask, elem), (w + root) % p, SC_TAG_BCAST);
        if (other + mask <= p)
            continue;
        /* the partner group is cut short: pass on what its members sent */
        int have = p - base - mask; /* members of my group that got it */
        size_t off = chunk_offset(n, p, base + mask, elem);
        size_t size = chunk_bytes(n, p, base + mask, mask, elem);
        for (int half = mask >> 1; half > 0 && !err; half >>= 1) {
            int u = v ^ half, sub = v & ~(2 * half - 1);
            if (u > v && v < sub + have && u >= sub + have)
                err = sc_send(comm, buf + off, size, (u + root) % p, SC_TAG_BCAST);
            else if (u < v && u < sub + have && v >= sub + have)
                err = sc_recv(comm, buf + off, size, (u + root) % p, SC_TAG_BCAST);
        }
    }
    return err;
}

sc_err_t sc_bcast_ompi_scatter_allgather(sc_comm_t *comm, const sc_coll_args_t *args)
{
    return scatter_allgather(comm, args, 1);
}

sc_err_t sc_bcast_ompi_tuned(sc_comm_t *comm, const sc_coll_args_t *args, size_t elem)
{
    switch (sc_ompi41_bcast_rule(args->bytes, comm->size)) {
    case SC_OMPI_BCAST_LINEAR:
        return tree_bcast(comm, args, SC_OMPI_TREE_FLAT);
    case SC_OMPI_BCAST_CHAIN:
    case SC_OMPI_BCAST_PIPELINE:
        return tree_bcast(comm, args, SC_OMPI_TREE_CHAIN);
    case SC_OMPI_BCAST_SPLIT_BINTREE:
        return split_bintree(comm, args, elem);
    case SC_OMPI_BCAST_BINTREE:
        return tree_bcast(comm, args, SC_OMPI_TREE_BINARY);
    case SC_OMPI_BCAST_BINOMIAL:
        return tree_bcast(comm, args, SC_OMPI_TREE_BINOMIAL);
    case SC_OMPI_BCAST_KNOMIAL:
        return tree_bcast(comm, args, SC_OMPI_TREE_KNOMIAL);
    case SC_OMPI_BCAST_SCATTER_ALLGATHER:
        return scatter_allgather(comm, args, elem);
    case SC_OMPI_BCAST_SCATTER_ALLGATHER_RING:
        break; /* no 4.1 rule selects it */
    }
    return sc_error(SC_ERR_RUN, "internal: no Open MPI broadcast for this rule");
}
