/* Allgatherv on a ring (MPICH's MPIR_Allgatherv_intra_ring), sizes only.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "irregular.h"

/* p - 1 steps; in step k rank r sends the block of rank r - k to its right
 * and receives that of rank r - k - 1 from its left, as a sendrecv. */
sc_err_t sc_allgatherv_ring(sc_comm_t *comm, const size_t *counts)
{
    int rank = comm->rank, p = comm->size;
    int right = (rank + 1) % p, left = (rank - 1 + p) % p;
    for (int k = 0; k < p - 1; k++) {
        int sent = (rank - k + p) % p;
        sc_err_t err = sc_sendrecv(comm, NULL, counts[sent], right, SC_TAG_ALLGATHERV, NULL,
                                   SC_ANY_SIZE, left, SC_TAG_ALLGATHERV);
        if (err)
            return err;
    }
    return SC_OK;
}
