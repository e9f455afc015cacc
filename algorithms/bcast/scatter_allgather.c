/* Broadcast as a binomial scatter followed by a ring allgather:
 * M. Barnett, S. Gupta, D. G. Payne, L. Shuler, R. van de Geijn, J. Watts,
 * "Interprocessor collective communication library (InterCom)", SHPCC 1994;
 * MPICH's MPIR_Bcast for long messages (scatter_ring_allgather).
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "algorithms/steps.h"
#include "../collectives.h"

/* Chunks rel..rel+mask-1 of the message. */
static void chunks(const void *ctx, int p, int rel, int mask, size_t *offset, size_t *size)
{
    size_t m = ((const sc_coll_args_t *)ctx)->bytes;
    size_t chunk = (m + (size_t)p - 1) / (size_t)p;
    *offset = (size_t)rel * chunk;
    *size = sc_chunk_span_bytes(m, p, rel, mask);
}

/* The message is cut into p chunks of ceil(m/p) bytes; chunk c belongs to
 * relative rank c. The binomial scatter gives every rank the chunks of its
 * subtree; then p-1 ring steps pass every chunk around. Cost on one level,
 * m divisible by p, p a power of two:
 * (log2 p + p - 1) alpha + 2 (p-1)/p m beta. */
sc_err_t sc_bcast_scatter(sc_comm_t *comm, const sc_coll_args_t *args)
{
    /* Receive the chunks of my subtree (lowest set bit of rel chunks from
     * rel on), then hand each child its subtree's chunks. */
    return sc_binomial_down(comm, args->root, args->recvbuf, SC_TAG_BCAST, chunks, args);
}

sc_err_t sc_bcast_scatter_allgather(sc_comm_t *comm,
                                    const sc_coll_args_t *args)
{
    int rank = comm->rank, p = comm->size, root = args->root;
    int rel = (rank - root + p) % p;
    size_t m = args->bytes;
    size_t chunk = (m + (size_t)p - 1) / (size_t)p;
    char *buf = args->recvbuf;
    if (m == 0 || p == 1)
        return SC_OK;
    sc_err_t err = sc_bcast_scatter(comm, args);
    if (err)
        return err;

    /* Ring allgather of the chunks: at step k pass on the chunk of relative
     * rank rel-k+1, receive that of rel-k from the left. */
    int left = (rank - 1 + p) % p, right = (rank + 1) % p;
    for (int k = 1; k < p; k++) {
        int out_chunk = (rel - k + 1 + p) % p, in_chunk = (rel - k + p) % p;
        err = sc_sendrecv(
            comm, buf + (size_t)out_chunk * chunk,
            sc_chunk_span_bytes(m, p, out_chunk, 1), right, SC_TAG_BCAST,
            buf + (size_t)in_chunk * chunk, sc_chunk_span_bytes(m, p, in_chunk, 1),
            left, SC_TAG_BCAST);
        if (err)
            return err;
    }
    return SC_OK;
}
