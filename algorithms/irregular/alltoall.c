/* Alltoall(v), linear and pairwise (MPICH's MPIR_Alltoall_intra_scattered
 * and MPIR_Alltoall_intra_pairwise), sizes only.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include <stdlib.h>

#include "irregular.h"

/* Every receive and send posted at once, the peers taken from rank + 1
 * round the ring, then one wait for all: p - 1 messages each way in
 * flight together. */
sc_err_t sc_alltoallv_linear(sc_comm_t *comm, const size_t *counts)
{
    int rank = comm->rank, p = comm->size;
    sc_request_t **reqs = calloc(2 * (size_t)p, sizeof *reqs);
    if (!reqs)
        return sc_error(SC_ERR_RUN, "out of memory exchanging with %d ranks", p);
    sc_err_t err = SC_OK;
    for (int k = 1; k < p && !err; k++)
        err = sc_irecv(comm, NULL, SC_ANY_SIZE, (rank - k + p) % p, SC_TAG_ALLTOALL, &reqs[k]);
    for (int k = 1; k < p && !err; k++) {
        int dst = (rank + k) % p;
        err = sc_isend(comm, NULL, counts[dst], dst, SC_TAG_ALLTOALL, &reqs[p + k]);
    }
    sc_err_t waited = sc_waitall(comm, 2 * p, reqs);
    free(reqs);
    return err ? err : waited;
}

/* p - 1 steps, one sendrecv each: to rank + k, from rank - k. */
sc_err_t sc_alltoallv_pairwise(sc_comm_t *comm, const size_t *counts)
{
    int rank = comm->rank, p = comm->size;
    for (int k = 1; k < p; k++) {
        int dst = (rank + k) % p, src = (rank - k + p) % p;
        sc_err_t err = sc_sendrecv(comm, NULL, counts[dst], dst, SC_TAG_ALLTOALL, NULL,
                                   SC_ANY_SIZE, src, SC_TAG_ALLTOALL);
        if (err)
            return err;
    }
    return SC_OK;
}
