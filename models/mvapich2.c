/* MVAPICH2 1.4's flat broadcast choice, and the cost of its two-level
 * collectives (algorithms/mvapich2/shmem.c), schedule by schedule.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "mvapich2.h"

#include "collectives.h"

static int is_pow2(int p)
{
    return p > 0 && (p & (p - 1)) == 0;
}

sc_mpich_bcast_t sc_mv2_bcast_flat_choice(size_t bytes, int p)
{
    if (bytes <= SC_MPICH_BCAST_SHORT || p < SC_MPICH_BCAST_MIN_PROCS)
        return SC_MPICH_BCAST_BINOMIAL;
    if (bytes < SC_MPICH_BCAST_LONG && is_pow2(p))
        return SC_MPICH_BCAST_SCATTER_RD;
    return SC_MPICH_BCAST_SCATTER_RING;
}

static sc_err_t model_bcast_flat(const sc_model_t *model, size_t bytes, int root, double *t)
{
    switch (sc_mv2_bcast_flat_choice(bytes, model->size)) {
    case SC_MPICH_BCAST_BINOMIAL:
        return sc_model_bcast_binomial(model, bytes, root, t);
    case SC_MPICH_BCAST_SCATTER_RD:
        return sc_model_bcast_scatter_rd(model, bytes, root, t);
    case SC_MPICH_BCAST_SCATTER_RING:
        break;
    }
    return sc_model_bcast_scatter_allgather(model, bytes, root, t);
}

/* The k-nomial tree, radix 4: relative ranks in increasing order reach
 * every parent before its children; each sends to its children in turn
 * with blocking sends. */
static sc_err_t model_knomial(const sc_model_t *model, size_t m, int root, double *t)
{
    int p = model->size, k = SC_MV2_KNOMIAL_RADIX;
    if (m == 0 || p == 1)
        return SC_OK;
    for (int v = 0; v < p; v++) {
        int u = (v + root) % p, mask = 1;
        while (mask < p && v % (k * mask) == 0)
            mask *= k;
        double now = t[u];
        for (mask /= k; mask > 0; mask /= k)
            for (int j = 1; j < k; j++)
                if (v + mask * j < p) {
                    int c = (u + mask * j) % p;
                    t[c] = sc_model_send(model, u, c, m, &now, t[c]);
                }
        t[u] = now;
    }
    return SC_OK;
}

/* Node k's ranks hand m bytes each to its leader, which takes them in local
 * order, then, with `combine`, combines them one after the other. */
static void node_gather(const sc_model_t *model, const sc_hier_t *h, int k, size_t m,
                        int combine, double *t)
{
    int n = sc_hier_node_size(h, k), *r = h->ranks + h->start[k];
    for (int i = 1; i < n; i++)
        t[r[0]] = sc_model_send(model, r[i], r[0], m, &t[r[i]], t[r[0]]);
    for (int i = 1; combine && i < n; i++)
        t[r[0]] += sc_model_reduce_time(model, r[0], m);
}

/* Node k's leader hands m bytes to each of its ranks in turn. */
static void node_release(const sc_model_t *model, const sc_hier_t *h, int k, size_t m, double *t)
{
    int n = sc_hier_node_size(h, k), *r = h->ranks + h->start[k];
    for (int i = 1; i < n; i++)
        t[r[i]] = sc_model_send(model, r[0], r[i], m, &t[r[0]], t[r[i]]);
}

static sc_err_t barrier_shmem(const sc_model_t *model, const sc_hier_t *h, size_t bytes,
                              int root, double *t)
{
    (void)bytes;
    (void)root;
    for (int k = 0; k < h->nroots; k++)
        node_gather(model, h, k, 0, 0, t);
    sc_err_t err = sc_hier_on_leaders(model, h, sc_model_barrier_dissemination, 0, 0, t);
    for (int k = 0; k < h->nroots && !err; k++)
        node_release(model, h, k, 0, t);
    return err;
}

sc_err_t sc_model_barrier_mv2_shmem(const sc_model_t *model, size_t bytes, int root, double *t)
{
    (void)bytes;
    (void)root;
    return sc_hier_model(model, sc_model_barrier_dissemination, barrier_shmem, 0, 0, t);
}

static sc_err_t bcast_knomial(const sc_model_t *model, const sc_hier_t *h, size_t bytes,
                              int root, double *t)
{
    int rn = h->node[root], leader = h->roots[rn];
    if (h->local[root] != 0)
        t[leader] = sc_model_send(model, root, leader, bytes, &t[root], t[leader]);
    sc_err_t err = sc_hier_on_leaders(model, h, model_knomial, bytes, rn, t);
    for (int k = 0; k < h->nroots && !err; k++)
        err = sc_hier_on_node(model, h, k, model_knomial, bytes, 0, t);
    return err;
}

sc_err_t sc_model_bcast_mv2_knomial(const sc_model_t *model, size_t bytes, int root, double *t)
{
    if (model->size == 1 || bytes == 0)
        return SC_OK;
    return sc_hier_model(model, model_knomial, bcast_knomial, bytes, root, t);
}

static sc_err_t bcast_shmem(const sc_model_t *model, const sc_hier_t *h, size_t bytes, int root,
                            double *t)
{
    int rn = h->node[root], leader = h->roots[rn];
    sc_err_t err = SC_OK;
    if (h->local[root] != 0)
        t[leader] = sc_model_send(model, root, leader, bytes, &t[root], t[leader]);
    for (int k = 0; k < h->nroots && !err; k++)
        err = sc_hier_on_node(model, h, k, sc_model_barrier_dissemination, 0, 0, t);
    if (!err)
        err = sc_hier_on_leaders(model, h, sc_model_bcast_scatter_allgather, bytes, rn, t);
    for (int k = 0; k < h->nroots && !err; k++)
        node_release(model, h, k, bytes, t);
    for (int k = 0; k < h->nroots && !err; k++)
        err = sc_hier_on_node(model, h, k, sc_model_barrier_dissemination, 0, 0, t);
    return err;
}

sc_err_t sc_model_bcast_mv2_shmem(const sc_model_t *model, size_t bytes, int root, double *t)
{
    if (model->size == 1 || bytes == 0)
        return SC_OK;
    return sc_hier_model(model, sc_model_bcast_scatter_allgather, bcast_shmem, bytes, root, t);
}

static sc_err_t allreduce_shmem(const sc_model_t *model, const sc_hier_t *h, size_t bytes,
                                int root, double *t)
{
    (void)root;
    for (int k = 0; k < h->nroots; k++)
        node_gather(model, h, k, bytes, 1, t);
    sc_err_t err = sc_hier_on_leaders(model, h, sc_model_allreduce_mpich_flat, bytes, 0, t);
    for (int k = 0; k < h->nroots && !err; k++)
        err = sc_hier_on_node(model, h, k, model_bcast_flat, bytes, 0, t);
    return err;
}

sc_err_t sc_model_allreduce_mv2_shmem(const sc_model_t *model, size_t bytes, int root,
                                      double *t)
{
    (void)root;
    if (model->size == 1 || bytes == 0)
        return SC_OK;
    return sc_hier_model(model, sc_model_allreduce_mpich_flat, allreduce_shmem, bytes, 0, t);
}

static sc_err_t reduce_shmem(const sc_model_t *model, const sc_hier_t *h, size_t bytes, int root,
                             double *t)
{
    int rn = h->node[root], leader = h->roots[rn];
    for (int k = 0; k < h->nroots; k++)
        node_gather(model, h, k, bytes, 1, t);
    sc_err_t err = sc_hier_on_leaders(model, h, sc_model_reduce_mpich_flat, bytes, rn, t);
    if (!err && h->local[root] != 0)
        t[root] = sc_model_send(model, leader, root, bytes, &t[leader], t[root]);
    return err;
}

sc_err_t sc_model_reduce_mv2_shmem(const sc_model_t *model, size_t bytes, int root, double *t)
{
    if (model->size == 1 || bytes == 0)
        return SC_OK;
    return sc_hier_model(model, sc_model_reduce_mpich_flat, reduce_shmem, bytes, root, t);
}
