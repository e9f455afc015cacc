/* The first step of the exch variants (M. G. Kurnosov, A. A. Paznikov;
 * lecture 13, SibSUTI).
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "../collectives.h"

/* Rank i sends its block a_i to the rank playing position i, pi^-1(i), and
 * receives from rank pi(i) the block of the position it plays, so that from
 * then on position j holds a_j and the result lands in rank order. A rank
 * that plays its own position just copies. */
sc_err_t sc_exchange_own(sc_comm_t *comm, const sc_coll_args_t *args, void *slot)
{
    int rank = comm->rank, mine = sc_position(args, rank);
    if (mine == rank) {
        sc_buf_copy(comm, slot, args->sendbuf, args->bytes);
        return SC_OK;
    }
    return sc_sendrecv(comm, args->sendbuf, args->bytes, sc_player(args, rank), SC_TAG_ALLGATHER,
                       slot, args->bytes, mine, SC_TAG_ALLGATHER);
}
