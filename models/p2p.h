/* Costs of the point-to-point statements of programs: halo exchanges on a
 * grid of ranks, and the copies that packing adds.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef SC_P2P_MODEL_H
#define SC_P2P_MODEL_H

#include "cost.h"

/* A Cartesian grid of ranks as MPI_Cart_create makes it: rank r has
 * coordinates in row-major order (the last dimension varies fastest). */
typedef struct {
    int ndims;
    int dims[3];
    int periodic; /* every dimension wraps around */
} sc_grid_t;

/* The rank one step away from `rank` along dimension d, in direction dir
 * (+1 or -1), as MPI_Cart_shift gives it; -1 past an edge of a grid that
 * does not wrap around. */
int sc_grid_neighbour(const sc_grid_t *grid, int rank, int d, int dir);

/* How many faces rank `rank` sends to and receives from other ranks in a
 * halo exchange (neighbours past an edge or equal to itself excluded). */
void sc_grid_messages(const sc_grid_t *grid, int rank, int *sent, int *received);

/* Seconds rank r spends copying `bytes` from one buffer to another, as
 * packing does: two bytes of memory traffic per byte (a load and a store)
 * at its node's memory-bus bandwidth. */
double sc_model_copy_time(const sc_model_t *model, int rank, size_t bytes);

#endif
