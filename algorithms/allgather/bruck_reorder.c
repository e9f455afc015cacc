/* Bruck reorder (M. G. Kurnosov, A. A. Paznikov; lecture 13).
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "../collectives.h"

/* (1) Bruck's steps played at position i' = pi(i), starting from the rank's
 * own a_i; (2) the block at work slot j, that of the rank at position
 * (j + i') mod p, goes to slot pi^-1((j + i') mod p). No extra message.
 * Cost: Bruck on the mapped positions. */
sc_err_t sc_allgather_bruck_reorder(sc_comm_t *comm, const sc_coll_args_t *args)
{
    return sc_bruck_played(comm, args, 0, "bruck-reorder");
}
