/* Cost predictions of the broadcast algorithms (MPICH's binomial tree and
 * van de Geijn's scatter + ring allgather).
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "collectives.h"

#include <stdlib.h>

size_t sc_chunk_span_bytes(size_t bytes, int nchunks, int first, int count)
{
    size_t chunk = (bytes + (size_t)nchunks - 1) / (size_t)nchunks;
    size_t lo = (size_t)first * chunk, hi = (size_t)(first + count) * chunk;
    if (lo > bytes)
        lo = bytes;
    if (hi > bytes)
        hi = bytes;
    return hi - lo;
}

/* The mask a binomial-tree rank starts sending with: the root sends to
 * relative ranks 2^k below the first power of two >= p, any other rank
 * below the lowest bit of its relative rank (the bit it received on). */
static int first_child_mask(int rel, int p)
{
    if (rel)
        return (rel & -rel) >> 1;
    int mask = 1;
    while (mask < p)
        mask <<= 1;
    return mask >> 1;
}

/* Costs a binomial tree rooted at `root` in which relative rank r sends
 * child_bytes(r + mask, mask) bytes to each child r + mask, largest mask
 * first, with blocking sends. A child owed zero bytes receives nothing and
 * starts at once. Leaves t[r] = when rank r has sent to all its children. */
static sc_err_t binomial_tree(const sc_model_t *model, size_t bytes, int root,
                              int scatter, double *t)
{
    int p = model->size;
    double *ready = malloc((size_t)p * sizeof *ready); /* by relative rank */
    if (!ready)
        return sc_error(SC_ERR_RUN, "out of memory in the cost model");
    ready[0] = t[root];
    for (int rel = 0; rel < p; rel++) {
        int rank = (rel + root) % p;
        double now = ready[rel];
        for (int mask = first_child_mask(rel, p); mask > 0; mask >>= 1) {
            if (rel + mask >= p)
                continue;
            int child = (rank + mask) % p;
            size_t size = scatter ? sc_chunk_span_bytes(bytes, p, rel + mask, mask)
                                  : bytes;
            ready[rel + mask] = size ? sc_model_send(model, rank, child, size,
                                                     &now, t[child])
                                     : t[child];
        }
        t[rank] = now;
    }
    free(ready);
    return SC_OK;
}

sc_err_t sc_model_bcast_binomial(const sc_model_t *model, size_t bytes,
                                 int root, double *t)
{
    if (model->size == 1 || bytes == 0)
        return SC_OK;
    return binomial_tree(model, bytes, root, 0, t);
}

sc_err_t sc_model_bcast_scatter_allgather(const sc_model_t *model,
                                          size_t bytes, int root, double *t)
{
    int p = model->size;
    if (p == 1 || bytes == 0)
        return SC_OK;
    sc_err_t err = binomial_tree(model, bytes, root, 1, t);
    if (err)
        return err;
    sc_round_t round;
    err = sc_round_init(&round, p);
    if (err)
        return err;
    for (int i = 0; i < p; i++) {
        round.dst[i] = (i + 1) % p;
        round.src[i] = (i - 1 + p) % p;
    }
    /* Round k: every rank passes on the chunk it received k-1 rounds ago,
     * starting with its own. */
    for (int k = 1; k < p; k++) {
        for (int i = 0; i < p; i++) {
            int chunk = ((i - (k - 1) - root) % p + 2 * p) % p;
            round.bytes[i] = sc_chunk_span_bytes(bytes, p, chunk, 1);
        }
        sc_model_exchange(model, &round, t);
    }
    sc_round_destroy(&round);
    return SC_OK;
}
