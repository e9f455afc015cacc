/* Dissemination barrier: D. Hensgen, R. Finkel, U. Manber, "Two algorithms
 * for barrier synchronization", IJPP 17(1), 1988; MPICH's MPIR_Barrier.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "../collectives.h"

/* ceil(log2 p) rounds; in round k rank i signals (i + 2^k) mod p and waits
 * for (i - 2^k) mod p. After the last round every rank has heard, directly
 * or not, from every other. Cost on one level: ceil(log2 p)(o + L). */
sc_err_t sc_barrier_dissemination(sc_comm_t *comm, const sc_coll_args_t *args)
{
    (void)args;
    int rank = comm->rank, p = comm->size;
    for (int mask = 1; mask < p; mask <<= 1) {
        sc_err_t err = sc_sendrecv(comm, NULL, 0, (rank + mask) % p,
                                   SC_TAG_BARRIER, NULL, 0,
                                   (rank - mask + p) % p, SC_TAG_BARRIER);
        if (err)
            return err;
    }
    return SC_OK;
}
