/* Ring allgather (lecture 13, SibSUTI; MPICH's MPIR_Allgather ring).
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "../collectives.h"

/* p-1 steps. At step k rank i sends block (i-k) mod p to its right
 * neighbour and receives block (i-k-1) mod p from its left one, so every
 * block travels once around the ring.
 * Cost on one level: (p-1)(alpha + m beta). */
sc_err_t sc_allgather_ring(sc_comm_t *comm, const sc_coll_args_t *args)
{
    int rank = comm->rank, p = comm->size;
    size_t m = args->bytes;
    char *out = args->recvbuf;
    if (m == 0)
        return SC_OK;
    sc_buf_copy(comm, out + (size_t)rank * m, args->sendbuf, m);
    int left = (rank - 1 + p) % p, right = (rank + 1) % p;
    for (int k = 0; k < p - 1; k++) {
        int send_block = (rank - k + p) % p;
        int recv_block = (rank - k - 1 + p) % p;
        sc_err_t err = sc_sendrecv(comm, out + (size_t)send_block * m, m, right,
                                   SC_TAG_ALLGATHER, out + (size_t)recv_block * m,
                                   m, left, SC_TAG_ALLGATHER);
        if (err)
            return err;
    }
    return SC_OK;
}
