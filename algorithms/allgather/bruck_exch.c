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
    return sc_bruck_played(comm, args, 1, "bruck-exch");
}
