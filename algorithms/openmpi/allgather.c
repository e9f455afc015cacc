/* Open MPI 4.1's neighbour-exchange allgather
 * (ompi/mca/coll/base/coll_base_allgather.c, tag v4.1.6,
 * ompi_coll_base_allgather_intra_neighborexchange; J. Chen, L. Zhang,
 * Y. Zhang, W. Yuan, "Performance evaluation of allgather algorithms on
 * terascale Linux cluster with fast Ethernet", HPCAsia 2005). Open MPI's
 * other allgathers are simcoll's: recursive doubling is rd (Bruck when p is
 * not a power of two), bruck and ring are bruck and ring, and two_procs is
 * one exchange of the own block, which is rd on two ranks.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "../collectives.h"
#include "openmpi.h"

/* p even (Open MPI runs the ring for odd p). Even rank i talks to i+1 first
 * and odd rank i to i-1; at step 0 the two swap their own blocks, and at
 * steps k = 1 .. p/2-1 each rank swaps the pair of blocks it received last
 * (blocks 2j and 2j+1, adjacent in recvbuf) with its other neighbour,
 * alternating. Even ranks receive pairs from further down the ring at odd
 * steps and up it at even ones, odd ranks the mirror. Cost on one level:
 * T = p/2 alpha + (p-1) m beta. */
sc_err_t sc_allgather_ompi_neighbor(sc_comm_t *comm, const sc_coll_args_t *args)
{
    int p = comm->size, rank = comm->rank;
    size_t m = args->bytes;
    char *out = args->recvbuf;
    if (m == 0)
        return SC_OK;
    if (p % 2)
        return sc_allgather_ring(comm, args);
    sc_buf_copy(comm, out + (size_t)rank * m, args->sendbuf, m);
    int even = rank % 2 == 0;
    int neighbor[2] = {even ? (rank + 1) % p : rank - 1, even ? (rank - 1 + p) % p : (rank + 1) % p};
    int offset[2] = {even ? 2 : -2, even ? -2 : 2};
    int from[2] = {even ? rank : rank - 1, even ? rank : rank - 1}; /* first block of a pair */
    sc_err_t err = sc_sendrecv(comm, out + (size_t)rank * m, m, neighbor[0], SC_TAG_ALLGATHER,
                               out + (size_t)neighbor[0] * m, m, neighbor[0], SC_TAG_ALLGATHER);
    int send_from = even ? rank : from[0];
    for (int k = 1; k < p / 2 && !err; k++) {
        int side = k % 2;
        from[side] = (from[side] + offset[side] + p) % p;
        err = sc_sendrecv(comm, out + (size_t)send_from * m, 2 * m, neighbor[side],
                          SC_TAG_ALLGATHER, out + (size_t)from[side] * m, 2 * m, neighbor[side],
                          SC_TAG_ALLGATHER);
        send_from = from[side];
    }
    return err;
}
