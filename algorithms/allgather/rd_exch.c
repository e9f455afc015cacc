/* Recursive doubling exch (M. G. Kurnosov, A. A. Paznikov; lecture 13).
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "../collectives.h"

/* (1) Rank i sends a_i to pi^-1(i) and receives the block of position
 * i' = pi(i) from rank pi(i); (2) recursive doubling among positions, rank i
 * at position i' exchanging with the rank at position i' XOR 2^k. Position
 * j holds a_j throughout, so the result is in rank order. Cost: one
 * exchange of m bytes, then recursive doubling on the mapped positions. */
sc_err_t sc_allgather_rd_exch(sc_comm_t *comm, const sc_coll_args_t *args)
{
    size_t m = args->bytes;
    char *out = args->recvbuf;
    int me = sc_position(args, comm->rank);
    if (m == 0)
        return SC_OK;
    sc_err_t err = sc_exchange_own(comm, args, out + (size_t)me * m);
    return err ? err : sc_rd_steps(comm, args, out, me);
}
