/* A halo exchange on a grid of ranks.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "halo.h"

#include "../collectives.h"

sc_err_t sc_halo_exchange(sc_comm_t *comm, const sc_grid_t *grid, void *const *face,
                          void *const *ghost, size_t bytes)
{
    int rank = comm->rank;
    for (int d = 0; d < grid->ndims; d++)
        for (int dir = 1; dir >= -1; dir -= 2) {
            /* Towards +1: the upper face goes, the lower ghost fills. */
            int out = 2 * d + (dir > 0), in = 2 * d + (dir < 0);
            int to = sc_grid_neighbour(grid, rank, d, dir);
            int from = sc_grid_neighbour(grid, rank, d, -dir);
            int tag = SC_TAG_HALO + out;
            sc_err_t err = SC_OK;
            if (to == rank) {
                sc_buf_copy(comm, ghost[in], face[out], bytes);
            } else if (to >= 0 && from >= 0) {
                err = sc_sendrecv(comm, face[out], bytes, to, tag, ghost[in], bytes, from, tag);
            } else if (to >= 0) {
                err = sc_send(comm, face[out], bytes, to, tag);
            } else if (from >= 0) {
                err = sc_recv(comm, ghost[in], bytes, from, tag);
            }
            if (err)
                return err;
        }
    return SC_OK;
}
