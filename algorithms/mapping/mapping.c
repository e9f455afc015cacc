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

/* What one level of the split shares: the whole graph, the ranks each node
 * holds, the groupings, and where each position goes. */
typedef struct {
    const sc_graph_t *graph;
    const int *capacity; /* ranks on node u */
    const long *group_size;
    sc_partitioner_t how;
    int *node_of_position;
} split_t;

/* Parts with no room (nodes the run leaves empty) go to the partitioners
 * as parts all the same, and can make their bisections cut more: 13 ranks
 * on gige.xml's 8 nodes, allreduce-nonpow2's graph cut 280 among 8 parts,
 * 104 among the 2 with room. Sometimes less (allreduce-nonpow2 at 19 ranks
 * of ib4x.xml: 384 among 8, 488 among 3). So the graph is also split among
 * the parts with room only, and part[] becomes that split where it cuts
 * less. `scratch` has room for g->size ints. */
static sc_err_t without_empty_parts(const sc_graph_t *g, int nparts, const int *capacity,
                                    sc_partitioner_t how, int *scratch, int *part)
{
    int used = 0;
    for (int q = 0; q < nparts; q++)
        used += capacity[q] > 0;
    if (used == nparts)
        return SC_OK;
    int *room = malloc((size_t)used * sizeof *room);
    int *other = malloc((size_t)g->size * sizeof *other);
    sc_err_t err = room && other ? SC_OK
                                 : sc_error(SC_ERR_RUN, "out of memory mapping %d ranks", g->size);
    for (int q = 0, k = 0; !err && q < nparts; q++)
        if (capacity[q] > 0) {
            scratch[k] = q; /* the k-th part with room is part q */
            room[k++] = capacity[q];
        }
    if (!err && !(err = sc_partition(g, used, room, how, other))) {
        for (int i = 0; i < g->size; i++)
            other[i] = scratch[other[i]];
        if (sc_graph_cut(g, other) < sc_graph_cut(g, part))
            for (int i = 0; i < g->size; i++)
                part[i] = other[i];
    }
    free(room);
    free(other);
    return err;
}

/* Splits the positions in[0..n-1] among nodes [first, first + count): into
 * the groups of grouping `level` there (each group_size[level] nodes), then
 * each group's on, or at level -1 into the nodes themselves. */
static sc_err_t split(const split_t *sp, const int *in, int n, int first, int count, int level)
{
    if (n == 0)
        return SC_OK;
    long size = level >= 0 ? sp->group_size[level] : 1;
    int nparts = (int)((count + size - 1) / size);
    int *capacity = calloc((size_t)nparts, sizeof *capacity);
    int *part = malloc((size_t)n * sizeof *part);
    int *members = malloc((size_t)n * sizeof *members);
    sc_graph_t sub = {0};
    const sc_graph_t *g = sp->graph;
    sc_err_t err = SC_OK;
    if (!capacity || !part || !members) {
        err = sc_error(SC_ERR_RUN, "out of memory mapping %d ranks", sp->graph->size);
        goto cleanup;
    }
    for (int u = first; u < first + count; u++)
        capacity[(u - first) / size] += sp->capacity[u];
    if (n < sp->graph->size) { /* a group's positions: their own graph */
        if ((err = sc_graph_induced(sp->graph, in, n, &sub)))
            goto cleanup;
        g = &sub;
    }
    if ((err = sc_partition(g, nparts, capacity, sp->how, part)))
        goto cleanup;
    if ((err = without_empty_parts(g, nparts, capacity, sp->how, members, part)))
        goto cleanup;
    for (int q = 0; q < nparts && !err; q++) {
        int m = 0;
        for (int i = 0; i < n; i++)
            if (part[i] == q)
                members[m++] = in[i];
        int node = first + q * (int)size;
        if (level < 0) {
            for (int i = 0; i < m; i++)
                sp->node_of_position[members[i]] = node;
        } else {
            int nodes = first + count - node < size ? first + count - node : (int)size;
            err = split(sp, members, m, node, nodes, level - 1);
        }
    }
cleanup:
    sc_graph_destroy(&sub);
    free(capacity);
    free(part);
    free(members);
    return err;
}

/* The partitioners are heuristics, and on nodes a run only partly fills
 * (13 ranks on nodes of 8) they can cut more than the ranks in order do:
 * the greedy one cut reduce-mst's graph at 13 ranks of gige.xml 208 where
 * block placement cuts 52. So part[] (the node of each position) becomes
 * block placement's when that cuts less: pi is never worse than no
 * mapping. */
static void keep_block_if_better(const sc_graph_t *graph, const int *node_of_rank, int *part)
{
    if (sc_graph_cut(graph, node_of_rank) < sc_graph_cut(graph, part))
        for (int j = 0; j < graph->size; j++)
            part[j] = node_of_rank[j];
}

sc_err_t sc_mapping_partition(const sc_graph_t *graph, int nnodes, const int *node_of_rank,
                              int ngroupings, const long *group_size, sc_partitioner_t how,
                              int *pi, double *seconds)
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
    for (int j = 0; j < p; j++)
        positions[j] = j;
    double t0 = now();
    split_t sp = {graph, capacity, group_size, how, part};
    err = split(&sp, positions, p, 0, nnodes, ngroupings - 1);
    *seconds = now() - t0;
    if (err)
        goto cleanup;
    keep_block_if_better(graph, node_of_rank, part);
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
