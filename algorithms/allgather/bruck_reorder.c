/* Bruck reorder (M. G. Kurnosov, A. A. Paznikov; lecture 13).
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "../collectives.h"

/* (1) Bruck's steps played at position i' = pi(i), starting from the rank's
 * own a_i; (2) the block at work slot j, that of the rank at position
 * (j + i') mod p, goes to slot pi^-1((j + i') mod p). No extra message.
 * Cost: Bruck on the mapped positions. */
sc_err_t sc_allgather_bruck_reorder(sc_comm_t *comm, const sc_coll_args_t *args)
{
    int p = comm->size, me = sc_position(args, comm->rank);
    size_t m = args->bytes;
    char *out = args->recvbuf;
    if (m == 0)
        return SC_OK;
    char *work = sc_buf_alloc(comm, (size_t)p * m);
    if (!work)
        return sc_error(SC_ERR_RUN, "bruck-reorder: out of memory for %d blocks of %zu bytes", p,
                        m);
    sc_buf_copy(comm, work, args->sendbuf, m);
    sc_err_t err = sc_bruck_steps(comm, args, work, me);
    for (int j = 0; j < p && !err; j++)
        sc_buf_copy(comm, out + (size_t)sc_player(args, (j + me) % p) * m, work + (size_t)j * m,
                    m);
    sc_buf_free(comm, work);
    return err;
}
