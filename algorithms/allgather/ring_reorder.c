/* Ring reorder: the reorder method of M. G. Kurnosov and A. A. Paznikov
 * (lecture 13) applied to the ring allgather.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "../collectives.h"

/* The ring runs among positions: the rank at position i' = pi(i) passes
 * blocks to position i'+1 and receives from position i'-1. The block of
 * position j is that of rank pi^-1(j), so it is stored straight at slot
 * pi^-1(j) of the output: no permutation is left at the end. Cost on one
 * level: (p-1)(alpha + m beta), on the mapped positions. */
sc_err_t sc_allgather_ring_reorder(sc_comm_t *comm, const sc_coll_args_t *args)
{
    int p = comm->size, me = sc_position(args, comm->rank);
    size_t m = args->bytes;
    char *out = args->recvbuf;
    if (m == 0)
        return SC_OK;
    sc_buf_copy(comm, out + (size_t)comm->rank * m, args->sendbuf, m);
    int left = sc_player(args, (me - 1 + p) % p), right = sc_player(args, (me + 1) % p);
    for (int k = 0; k < p - 1; k++) {
        int send_rank = sc_player(args, (me - k + p) % p);
        int recv_rank = sc_player(args, (me - k - 1 + p) % p);
        sc_err_t err = sc_sendrecv(comm, out + (size_t)send_rank * m, m, right, SC_TAG_ALLGATHER,
                                   out + (size_t)recv_rank * m, m, left, SC_TAG_ALLGATHER);
        if (err)
            return err;
    }
    return SC_OK;
}
