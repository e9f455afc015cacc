/* Bruck exch (M. G. Kurnosov, A. A. Paznikov; lecture 13).
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "../collectives.h"

/* (1) As rd-exch: rank i receives the block of position i' = pi(i); (2) at
 * step k rank i sends to pi^-1((i' - 2^k) mod p) and receives from
 * pi^-1((i' + 2^k) mod p); (3) a cyclic shift by i' positions puts the
 * blocks in rank order. Cost: one exchange of m bytes, then Bruck on the
 * mapped positions. */
sc_err_t sc_allgather_bruck_exch(sc_comm_t *comm, const sc_coll_args_t *args)
{
    int p = comm->size, me = sc_position(args, comm->rank);
    size_t m = args->bytes;
    char *out = args->recvbuf;
    if (m == 0)
        return SC_OK;
    char *work = sc_buf_alloc(comm, (size_t)p * m);
    if (!work)
        return sc_error(SC_ERR_RUN, "bruck-exch: out of memory for %d blocks of %zu bytes", p, m);
    sc_err_t err = sc_exchange_own(comm, args, work);
    if (!err)
        err = sc_bruck_steps(comm, args, work, me);
    for (int j = 0; j < p && !err; j++)
        sc_buf_copy(comm, out + (size_t)((me + j) % p) * m, work + (size_t)j * m, m);
    sc_buf_free(comm, work);
    return err;
}
