/* Scatterv, linear (MPICH's MPIR_Scatterv_intra_linear), sizes only.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include <stdlib.h>

#include "irregular.h"

/* The root posts a send to every other rank and waits for them all. */
sc_err_t sc_scatterv_linear(sc_comm_t *comm, const size_t *counts, int root)
{
    int rank = comm->rank, p = comm->size;
    if (rank != root)
        return sc_recv(comm, NULL, SC_ANY_SIZE, root, SC_TAG_SCATTERV);
    sc_request_t **reqs = calloc((size_t)p, sizeof *reqs);
    if (!reqs)
        return sc_error(SC_ERR_RUN, "out of memory scattering to %d ranks", p);
    sc_err_t err = SC_OK;
    for (int r = 0; r < p && !err; r++)
        if (r != root)
            err = sc_isend(comm, NULL, counts[r], r, SC_TAG_SCATTERV, &reqs[r]);
    sc_err_t waited = sc_waitall(comm, p, reqs);
    free(reqs);
    return err ? err : waited;
}
