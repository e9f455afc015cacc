/* A halo exchange on a grid of ranks, as MPI codes write it with
 * MPI_Cart_shift and MPI_Sendrecv.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef SC_HALO_H
#define SC_HALO_H

#include "../../models/p2p.h"
#include "../p2p.h"

/* Rank comm->rank sends face[2d + 1] (its upper face along dimension d)
 * to its +1 neighbour and receives ghost[2d] from its -1 neighbour, then
 * sends face[2d] to its -1 neighbour and receives ghost[2d + 1] from its
 * +1 neighbour, dimension after dimension; `bytes` each. A neighbour that
 * is the rank itself (a wrapped dimension of one) is a local copy. Costs
 * what sc_model_halo says when no two messages share a link. */
sc_err_t sc_halo_exchange(sc_comm_t *comm, const sc_grid_t *grid, void *const *face,
                          void *const *ghost, size_t bytes);

#endif
