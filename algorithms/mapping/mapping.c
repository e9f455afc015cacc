/* The rank mapping pi of the hierarchy-aware method (lecture 13, step 3).
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "mapping.h"

#include <stdlib.h>
#include <time.h>

sc_err_t sc_mapping_invert(int p, const int *pi, int *pi_inv)
{
    for (int j = 0; j < p; j++)
        pi_inv[j] = -1;
    for (int r = 0; r < p; r++) {
        if (pi[r] < 0 || pi[r] >= p)
            return sc_error(SC_ERR_INPUT, "mapping: rank %d plays position %d; positions are 0..%d",
                            r, pi[r], p - 1);
        if (pi_inv[pi[r]] >= 0)
            return sc_error(SC_ERR_INPUT, "mapping: ranks %d and %d both play position %d",
                            pi_inv[pi[r]], r, pi[r]);
        pi_inv[pi[r]] = r;
    }
    return SC_OK;
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

sc_err_t sc_mapping_partition(const sc_graph_t *graph, int nnodes, const int *node_of_rank,
                              sc_partitioner_t how, int *pi, double *seconds)
{
    int p = graph->size;
    int *capacity = calloc((size_t)nnodes, sizeof *capacity);
    int *offset = malloc((size_t)nnodes * sizeof *offset);
    int *part = malloc((size_t)p * sizeof *part);
    int *positions = malloc((size_t)p * sizeof *positions); /* grouped by part */
    sc_err_t err = SC_OK;
    if (!capacity || !offset || !part || !positions) {
        err = sc_error(SC_ERR_RUN, "out of memory mapping %d ranks", p);
        goto cleanup;
    }
    for (int r = 0; r < p; r++)
        capacity[node_of_rank[r]]++;
    double t0 = now();
    err = sc_partition(graph, nnodes, capacity, how, part);
    *seconds = now() - t0;
    if (err)
        goto cleanup;
    /* The ranks of node u, in order, take the positions of part u, in order. */
    for (int u = 0, sum = 0; u < nnodes; sum += capacity[u++])
        offset[u] = sum;
    for (int j = 0; j < p; j++)
        positions[offset[part[j]]++] = j;
    for (int u = 0, sum = 0; u < nnodes; sum += capacity[u++])
        offset[u] = sum;
    for (int r = 0; r < p; r++)
        pi[r] = positions[offset[node_of_rank[r]]++];
cleanup:
    free(capacity);
    free(offset);
    free(part);
    free(positions);
    return err;
}
