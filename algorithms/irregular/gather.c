/* Gather by a binomial tree (MPICH's MPIR_Gather_intra_binomial) and
 * gatherv linear (MPIR_Gatherv_intra_linear), sizes only.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "irregular.h"

/* With relative rank r = (rank - root) mod p, rank r collects the blocks
 * of r .. r + 2^k - 1 from its children r + 2^j (j < k), then sends them
 * to r - 2^k, where 2^k is r's lowest set bit: ceil(log2 p) steps, the
 * root's last receive carrying about half of the blocks. */
sc_err_t sc_gather_binomial(sc_comm_t *comm, size_t bytes, int root)
{
    int rank = comm->rank, p = comm->size;
    int rel = (rank - root + p) % p;
    size_t held = 1; /* blocks this rank holds */
    for (int mask = 1; mask < p; mask <<= 1) {
        if (rel & mask) {
            int parent = (rel - mask + root) % p;
            return sc_send(comm, NULL, held * bytes, parent, SC_TAG_GATHER);
        }
        int child = rel + mask;
        if (child < p) {
            size_t blocks = (size_t)(child + mask <= p ? mask : p - child);
            sc_err_t err = sc_recv(comm, NULL, SC_ANY_SIZE, (child + root) % p, SC_TAG_GATHER);
            if (err)
                return err;
            held += blocks;
        }
    }
    return SC_OK;
}

sc_err_t sc_gatherv_linear(sc_comm_t *comm, size_t bytes, int root)
{
    int rank = comm->rank, p = comm->size;
    if (rank != root)
        return sc_send(comm, NULL, bytes, root, SC_TAG_GATHER);
    for (int r = 0; r < p; r++) {
        if (r == root)
            continue;
        sc_err_t err = sc_recv(comm, NULL, SC_ANY_SIZE, r, SC_TAG_GATHER);
        if (err)
            return err;
    }
    return SC_OK;
}
