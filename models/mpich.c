/* MPICH's choice of collective algorithm by message size and process
 * count, and the cost of its SMP-aware collectives.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "mpich.h"

#include <stdlib.h>

#include "collectives.h"

static int is_pow2(int p)
{
    return p > 0 && (p & (p - 1)) == 0;
}

sc_mpich_bcast_t sc_mpich_bcast_choice(size_t bytes, int p)
{
    if (bytes < SC_MPICH_BCAST_SHORT || p < SC_MPICH_BCAST_MIN_PROCS)
        return SC_MPICH_BCAST_BINOMIAL;
    if (bytes < SC_MPICH_BCAST_LONG && is_pow2(p))
        return SC_MPICH_BCAST_SCATTER_RD;
    return SC_MPICH_BCAST_SCATTER_RING;
}

sc_mpich_allgather_t sc_mpich_allgather_choice(size_t total, int p)
{
    if (total < SC_MPICH_ALLGATHER_LONG && is_pow2(p))
        return SC_MPICH_ALLGATHER_RD;
    if (total < SC_MPICH_ALLGATHER_SHORT)
        return SC_MPICH_ALLGATHER_BRUCK;
    return SC_MPICH_ALLGATHER_RING;
}

sc_mpich_allreduce_t sc_mpich_allreduce_choice(size_t bytes, size_t elems, int p)
{
    if (bytes <= SC_MPICH_ALLREDUCE_SHORT || elems < (size_t)sc_pow2_below(p))
        return SC_MPICH_ALLREDUCE_RD;
    return SC_MPICH_ALLREDUCE_RABENSEIFNER;
}

sc_mpich_reduce_t sc_mpich_reduce_choice(size_t bytes, size_t elems, int p)
{
    if (bytes > SC_MPICH_REDUCE_SHORT && elems >= (size_t)sc_pow2_below(p))
        return SC_MPICH_REDUCE_RABENSEIFNER;
    return SC_MPICH_REDUCE_BINOMIAL;
}

sc_err_t sc_model_bcast_mpich(const sc_model_t *model, size_t bytes, int root, double *t)
{
    switch (sc_mpich_bcast_choice(bytes, model->size)) {
    case SC_MPICH_BCAST_BINOMIAL:
        return sc_model_bcast_binomial(model, bytes, root, t);
    case SC_MPICH_BCAST_SCATTER_RD:
        return sc_model_bcast_scatter_rd(model, bytes, root, t);
    case SC_MPICH_BCAST_SCATTER_RING:
        break;
    }
    return sc_model_bcast_scatter_allgather(model, bytes, root, t);
}

sc_err_t sc_model_allreduce_mpich_flat(const sc_model_t *model, size_t bytes, int root,
                                       double *t)
{
    size_t elems = bytes / model->elem_size;
    if (sc_mpich_allreduce_choice(bytes, elems, model->size) == SC_MPICH_ALLREDUCE_RD)
        return sc_model_allreduce_rd(model, bytes, root, t);
    return sc_model_allreduce_rabenseifner(model, bytes, root, t);
}

sc_err_t sc_model_reduce_mpich_flat(const sc_model_t *model, size_t bytes, int root, double *t)
{
    size_t elems = bytes / model->elem_size;
    if (sc_mpich_reduce_choice(bytes, elems, model->size) == SC_MPICH_REDUCE_RABENSEIFNER)
        return sc_model_reduce_rabenseifner(model, bytes, root, t);
    return sc_model_reduce_mst(model, bytes, root, t);
}

static void hier_destroy(sc_hier_t *h)
{
    free(h->roots);
    free(h->node);
    free(h->local);
    free(h->start);
    free(h->ranks);
}

/* Builds the hierarchy of model's ranks; SC_ERR_RUN if memory runs out. */
static sc_err_t hier_init(sc_hier_t *h, const sc_model_t *model)
{
    int p = model->size, nn = model->plat->nnodes;
    *h = (sc_hier_t){.roots = malloc((size_t)p * sizeof(int)), .node = malloc((size_t)p * sizeof(int)),
                  .local = malloc((size_t)p * sizeof(int)),
                  .start = calloc((size_t)p + 1, sizeof(int)),
                  .ranks = malloc((size_t)p * sizeof(int))};
    int *index = malloc((size_t)nn * sizeof *index), *fill = calloc((size_t)p + 1, sizeof *fill);
    if (!h->roots || !h->node || !h->local || !h->start || !h->ranks || !index || !fill) {
        free(index);
        free(fill);
        hier_destroy(h);
        return sc_error(SC_ERR_RUN, "out of memory in the cost model");
    }
    for (int u = 0; u < nn; u++)
        index[u] = -1;
    for (int r = 0; r < p; r++) {
        int u = model->node_of[r];
        if (index[u] < 0) {
            index[u] = h->nroots;
            h->roots[h->nroots++] = r;
        }
        h->node[r] = index[u];
        h->local[r] = h->start[index[u] + 1]++;
    }
    for (int k = 0; k < h->nroots; k++)
        h->start[k + 1] += h->start[k];
    for (int r = 0; r < p; r++) {
        int k = h->node[r];
        h->ranks[h->start[k] + fill[k]++] = r;
    }
    h->node_aware = h->nroots < p;
    free(index);
    free(fill);
    return SC_OK;
}

int sc_hier_node_size(const sc_hier_t *h, int k)
{
    return h->start[k + 1] - h->start[k];
}

/* fn on node k's ranks, if it has more than one (MPICH makes no node
 * communicator for one). */
sc_err_t sc_hier_on_node(const sc_model_t *model, const sc_hier_t *h, int k, sc_model_fn fn,
                         size_t bytes, int root, double *t)
{
    if (sc_hier_node_size(h, k) < 2)
        return SC_OK;
    return sc_model_sub(model, h->ranks + h->start[k], sc_hier_node_size(h, k), fn, bytes, root,
                        t);
}

sc_err_t sc_hier_on_leaders(const sc_model_t *model, const sc_hier_t *h, sc_model_fn fn,
                            size_t bytes, int root, double *t)
{
    if (h->nroots < 2)
        return SC_OK;
    return sc_model_sub(model, h->roots, h->nroots, fn, bytes, root, t);
}

sc_err_t sc_hier_model(const sc_model_t *model, sc_model_fn flat, sc_hier_fn two_level,
                       size_t bytes, int root, double *t)
{
    sc_hier_t h;
    sc_err_t err = hier_init(&h, model);
    if (err)
        return err;
    err = h.node_aware ? two_level(model, &h, bytes, root, t) : flat(model, bytes, root, t);
    hier_destroy(&h);
    return err;
}

static sc_err_t barrier_smp(const sc_model_t *model, const sc_hier_t *h, size_t bytes, int root,
                            double *t)
{
    (void)bytes;
    (void)root;
    sc_err_t err = SC_OK;
    for (int k = 0; k < h->nroots && !err; k++)
        err = sc_hier_on_node(model, h, k, sc_model_barrier_dissemination, 0, 0, t);
    if (!err)
        err = sc_hier_on_leaders(model, h, sc_model_barrier_dissemination, 0, 0, t);
    for (int k = 0; k < h->nroots && !err; k++)
        err = sc_hier_on_node(model, h, k, sc_model_bcast_binomial, 1, 0, t);
    return err;
}

sc_err_t sc_model_barrier_mpich_smp(const sc_model_t *model, size_t bytes, int root, double *t)
{
    (void)bytes;
    (void)root;
    return sc_hier_model(model, sc_model_barrier_dissemination, barrier_smp, 0, 0, t);
}

static sc_err_t bcast_smp(const sc_model_t *model, const sc_hier_t *h, size_t bytes, int root,
                          double *t)
{
    int p = model->size, rn = h->node[root], rl = h->local[root], leader = h->roots[rn];
    sc_err_t err = SC_OK;
    if (bytes < SC_MPICH_BCAST_SHORT || p < SC_MPICH_BCAST_MIN_PROCS) {
        if (rl != 0)
            t[leader] = sc_model_send(model, root, leader, bytes, &t[root], t[leader]);
        err = sc_hier_on_leaders(model, h, sc_model_bcast_binomial, bytes, rn, t);
        for (int k = 0; k < h->nroots && !err; k++)
            err = sc_hier_on_node(model, h, k, sc_model_bcast_binomial, bytes, 0, t);
    } else if (bytes < SC_MPICH_BCAST_LONG && is_pow2(p)) {
        if (rl != 0)
            err = sc_hier_on_node(model, h, rn, sc_model_bcast_binomial, bytes, rl, t);
        if (!err)
            err = sc_hier_on_leaders(model, h,
                                     is_pow2(h->nroots) ? sc_model_bcast_scatter_rd
                                                        : sc_model_bcast_scatter_allgather,
                                     bytes, rn, t);
        for (int k = 0; k < h->nroots && !err; k++)
            if (k != rn || rl == 0)
                err = sc_hier_on_node(model, h, k, sc_model_bcast_binomial, bytes, 0, t);
    } else {
        err = sc_model_bcast_scatter_allgather(model, bytes, root, t);
    }
    return err;
}

sc_err_t sc_model_bcast_mpich_smp(const sc_model_t *model, size_t bytes, int root, double *t)
{
    if (model->size == 1 || bytes == 0)
        return SC_OK;
    return sc_hier_model(model, sc_model_bcast_mpich, bcast_smp, bytes, root, t);
}

static sc_err_t allreduce_smp(const sc_model_t *model, const sc_hier_t *h, size_t bytes,
                              int root, double *t)
{
    (void)root;
    sc_err_t err = SC_OK;
    for (int k = 0; k < h->nroots && !err; k++)
        err = sc_hier_on_node(model, h, k, sc_model_reduce_mpich_flat, bytes, 0, t);
    if (!err)
        err = sc_hier_on_leaders(model, h, sc_model_allreduce_mpich_flat, bytes, 0, t);
    for (int k = 0; k < h->nroots && !err; k++)
        err = sc_hier_on_node(model, h, k, sc_model_bcast_mpich, bytes, 0, t);
    return err;
}

sc_err_t sc_model_allreduce_mpich_smp(const sc_model_t *model, size_t bytes, int root,
                                      double *t)
{
    (void)root;
    if (model->size == 1 || bytes == 0)
        return SC_OK;
    return sc_hier_model(model, sc_model_allreduce_mpich_flat, allreduce_smp, bytes, 0, t);
}

static sc_err_t reduce_smp(const sc_model_t *model, const sc_hier_t *h, size_t bytes, int root,
                           double *t)
{
    int rn = h->node[root];
    sc_err_t err = SC_OK;
    for (int k = 0; k < h->nroots && !err; k++)
        if (k != rn)
            err = sc_hier_on_node(model, h, k, sc_model_reduce_mpich_flat, bytes, 0, t);
    if (!err)
        err = sc_hier_on_leaders(model, h, sc_model_reduce_mpich_flat, bytes, rn, t);
    if (!err)
        err = sc_hier_on_node(model, h, rn, sc_model_reduce_mpich_flat, bytes, h->local[root], t);
    return err;
}

sc_err_t sc_model_reduce_mpich_smp(const sc_model_t *model, size_t bytes, int root, double *t)
{
    if (model->size == 1 || bytes == 0)
        return SC_OK;
    return sc_hier_model(model, sc_model_reduce_mpich_flat, reduce_smp, bytes, root, t);
}
