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

int sc_binomial_mask(int rel, int p)
{
    return rel ? rel & -rel : 1 << sc_ceil_log2(p);
}

/* Costs a binomial tree rooted at `root`, blocking sends, largest child
 * first. Each child gets the whole message, or with `scatter` the chunks of
 * its subtree; a child owed zero bytes receives nothing and starts at once.
 * Leaves t[r] = when rank r has sent to all its children. */
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
        for (int mask = sc_binomial_mask(rel, p) >> 1; mask > 0; mask >>= 1) {
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

/* Round k of the ring: every rank passes on the chunk it received k rounds
 * ago, starting with its own. */
static void ring_of_chunks_round(int k, int p, size_t bytes, int root, sc_round_t *round)
{
    for (int i = 0; i < p; i++) {
        int chunk = ((i - k - root) % p + p) % p;
        round->dst[i] = (i + 1) % p;
        round->src[i] = (i - 1 + p) % p;
        round->bytes[i] = sc_chunk_span_bytes(bytes, p, chunk, 1);
    }
}

/* Round k of the recursive-doubling allgather of the chunks: relative rank
 * i exchanges the 2^k chunks of its subtree with i XOR 2^k. */
static void doubling_of_chunks_round(int k, int p, size_t bytes, int root, sc_round_t *round)
{
    int mask = 1 << k;
    for (int rel = 0; rel < p; rel++) {
        int i = (rel + root) % p, peer = (rel ^ mask) % p;
        round->dst[i] = round->src[i] = (peer + root) % p;
        round->bytes[i] = sc_chunk_span_bytes(bytes, p, rel & ~(mask - 1), mask);
    }
}

sc_err_t sc_model_bcast_binomial(const sc_model_t *model, size_t bytes,
                                 int root, double *t)
{
    if (model->size == 1 || bytes == 0)
        return SC_OK;
    return binomial_tree(model, bytes, root, 0, t);
}

sc_err_t sc_model_bcast_scatter_rd(const sc_model_t *model, size_t bytes, int root, double *t)
{
    int p = model->size;
    if (p == 1 || bytes == 0)
        return SC_OK;
    sc_err_t err = binomial_tree(model, bytes, root, 1, t);
    return err ? err
               : sc_model_rounds(model, sc_ceil_log2(p), doubling_of_chunks_round, bytes, root, t);
}

sc_err_t sc_model_bcast_scatter_allgather(const sc_model_t *model,
                                          size_t bytes, int root, double *t)
{
    int p = model->size;
    if (p == 1 || bytes == 0)
        return SC_OK;
    sc_err_t err = binomial_tree(model, bytes, root, 1, t);
    return err ? err : sc_model_rounds(model, p - 1, ring_of_chunks_round, bytes, root, t);
}
