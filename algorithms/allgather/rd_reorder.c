/* Recursive doubling reorder (M. G. Kurnosov, A. A. Paznikov; lecture 13).
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "../collectives.h"

/* (1) Rank i puts a_i at position i' = pi(i); (2) recursive doubling among
 * positions; (3) the block at position j, that of rank pi^-1(j), moves to
 * slot pi^-1(j). No extra message: step 3 is a local permutation (local
 * copies are not charged time). Cost: recursive doubling on the mapped
 * positions. */
sc_err_t sc_allgather_rd_reorder(sc_comm_t *comm, const sc_coll_args_t *args)
{
    int p = comm->size, me = sc_position(args, comm->rank);
    size_t m = args->bytes;
    char *out = args->recvbuf;
    if (m == 0)
        return SC_OK;
    char *slots = sc_buf_alloc(comm, (size_t)p * m);
    if (!slots)
        return sc_error(SC_ERR_RUN, "rd-reorder: out of memory for %d blocks of %zu bytes", p, m);
    sc_buf_copy(comm, slots + (size_t)me * m, args->sendbuf, m);
    sc_err_t err = sc_rd_steps(comm, args, slots, me);
    for (int j = 0; j < p && !err && sc_moves_data(comm); j++)
        sc_buf_copy(comm, out + (size_t)sc_player(args, j) * m, slots + (size_t)j * m, m);
    sc_buf_free(comm, slots);
    return err;
}
