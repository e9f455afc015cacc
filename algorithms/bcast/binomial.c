/* Binomial-tree broadcast (MPICH's MPIR_Bcast for short messages).
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "algorithms/steps.h"
#include "../collectives.h"

/* With relative rank r = (rank - root) mod p, a rank receives from r minus
 * its lowest set bit, then sends to r + 2^j for every 2^j below that bit,
 * largest first, with blocking sends. Cost on one level with sends that
 * hold the sender for the whole transfer: ceil(log2 p)(alpha + m beta). */
sc_err_t sc_bcast_binomial(sc_comm_t *comm, const sc_coll_args_t *args)
{
    int rank = comm->rank, p = comm->size;
    int rel = (rank - args->root + p) % p;
    if (args->bytes == 0)
        return SC_OK;
    int mask = sc_binomial_mask(rel, p);
    if (rel) {
        sc_err_t err = sc_recv(comm, args->recvbuf, args->bytes, (rank - mask + p) % p,
                               SC_TAG_BCAST);
        if (err)
            return err;
    }
    for (mask >>= 1; mask > 0; mask >>= 1) {
        if (rel + mask >= p)
            continue;
        sc_err_t err = sc_send(comm, args->recvbuf, args->bytes,
                               (rank + mask) % p, SC_TAG_BCAST);
        if (err)
            return err;
    }
    return SC_OK;
}
