/* Scan by recursive doubling (MPICH's MPIR_Scan_intra_recursive_doubling),
 * sizes only.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "irregular.h"

/* In step k rank r exchanges its partial sum with r xor 2^k (if that rank
 * exists) and combines what it got: ceil(log2 p) exchanges of the whole
 * vector, each followed by one reduction. */
sc_err_t sc_scan_rd(sc_comm_t *comm, size_t bytes)
{
    int rank = comm->rank, p = comm->size;
    for (int mask = 1; mask < p; mask <<= 1) {
        int partner = rank ^ mask;
        if (partner >= p)
            continue;
        sc_err_t err = sc_sendrecv(comm, NULL, bytes, partner, SC_TAG_SCAN, NULL, bytes, partner,
                                   SC_TAG_SCAN);
        if (!err)
            err = sc_reduce_time(comm, bytes);
        if (err)
            return err;
    }
    return SC_OK;
}
