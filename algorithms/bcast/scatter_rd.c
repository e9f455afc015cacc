/* Broadcast as a binomial scatter followed by a recursive-doubling
 * allgather of the pieces: MPICH's MPIR_Bcast_scatter_doubling_allgather,
 * its choice for medium messages on a power-of-two number of processes
 * (MPICH2 1.2.1, src/mpi/coll/bcast.c; the same in MPICH 3.x).
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "algorithms/steps.h"
#include "../collectives.h"

/* Chunks as in bcast-scatter-allgather: p chunks of ceil(m/p) bytes, chunk
 * c belongs to relative rank c, and the binomial scatter gives every rank
 * the chunks of its subtree. Then at step k = 0, 1, ... relative rank i
 * exchanges the 2^k chunks of its subtree of that size with i XOR 2^k.
 * p must be a power of two. Cost on one level, m divisible by p:
 * 2 log2(p) alpha + 2 (p-1)/p m beta. */
sc_err_t sc_bcast_scatter_rd(sc_comm_t *comm, const sc_coll_args_t *args)
{
    int rank = comm->rank, p = comm->size, root = args->root;
    int rel = (rank - root + p) % p;
    size_t m = args->bytes, chunk = (m + (size_t)p - 1) / (size_t)p;
    char *buf = args->recvbuf;
    if (m == 0 || p == 1)
        return SC_OK;
    sc_err_t err = sc_bcast_scatter(comm, args);
    for (int mask = 1; !err && mask < p; mask <<= 1) {
        int peer_rel = rel ^ mask;
        int mine = rel & ~(mask - 1), theirs = peer_rel & ~(mask - 1);
        err = sc_sendrecv(comm, buf + (size_t)mine * chunk, sc_chunk_span_bytes(m, p, mine, mask),
                          (peer_rel + root) % p, SC_TAG_BCAST, buf + (size_t)theirs * chunk,
                          sc_chunk_span_bytes(m, p, theirs, mask), (peer_rel + root) % p,
                          SC_TAG_BCAST);
    }
    return err;
}
