/* Costs of the point-to-point statements of programs.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "p2p.h"

int sc_grid_neighbour(const sc_grid_t *grid, int rank, int d, int dir)
{
    int stride = 1;
    for (int k = grid->ndims - 1; k > d; k--)
        stride *= grid->dims[k];
    int coord = rank / stride % grid->dims[d], to = coord + dir;
    if (to < 0 || to >= grid->dims[d]) {
        if (!grid->periodic)
            return -1;
        to = (to + grid->dims[d]) % grid->dims[d];
    }
    return rank + (to - coord) * stride;
}

void sc_grid_messages(const sc_grid_t *grid, int rank, int *sent, int *received)
{
    *sent = *received = 0;
    for (int d = 0; d < grid->ndims; d++)
        for (int dir = 1; dir >= -1; dir -= 2) {
            int to = sc_grid_neighbour(grid, rank, d, dir);
            int from = sc_grid_neighbour(grid, rank, d, -dir);
            *sent += to >= 0 && to != rank;
            *received += from >= 0 && from != rank;
        }
}

double sc_model_copy_time(const sc_model_t *model, int rank, size_t bytes)
{
    return 2.0 * (double)bytes / model->plat->nodes[model->node_of[rank]].membus_Bps;
}
