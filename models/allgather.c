/* Cost predictions of the allgather algorithms (lecture 13, SibSUTI).
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "collectives.h"

int sc_ceil_log2(int p)
{
    int k = 0;
    while ((1 << k) < p)
        k++;
    return k;
}

/* Round k: every rank passes one block to its right neighbour. */
static void ring_round(int k, int p, size_t bytes, int root, sc_round_t *round)
{
    (void)k;
    (void)root;
    for (int i = 0; i < p; i++) {
        round->dst[i] = (i + 1) % p;
        round->src[i] = (i - 1 + p) % p;
        round->bytes[i] = bytes;
    }
}

/* Round k: partners i XOR 2^k swap the 2^k blocks they hold. */
static void rd_round(int k, int p, size_t bytes, int root, sc_round_t *round)
{
    (void)root;
    for (int i = 0; i < p; i++) {
        round->dst[i] = round->src[i] = i ^ (1 << k);
        round->bytes[i] = ((size_t)1 << k) * bytes;
    }
}

/* Round k: send min(2^k, p - 2^k) blocks to i - 2^k, get as many from
 * i + 2^k. */
static void bruck_round(int k, int p, size_t bytes, int root, sc_round_t *round)
{
    (void)root;
    int pof2 = 1 << k, blocks = pof2 < p - pof2 ? pof2 : p - pof2;
    for (int i = 0; i < p; i++) {
        round->dst[i] = (i - pof2 + p) % p;
        round->src[i] = (i + pof2) % p;
        round->bytes[i] = (size_t)blocks * bytes;
    }
}

sc_err_t sc_model_allgather_ring(const sc_model_t *model, size_t bytes, int root, double *t)
{
    if (model->size == 1 || bytes == 0)
        return SC_OK;
    return sc_model_rounds(model, model->size - 1, ring_round, bytes, root, t);
}

sc_err_t sc_model_allgather_rd(const sc_model_t *model, size_t bytes, int root, double *t)
{
    if (model->size == 1 || bytes == 0)
        return SC_OK;
    return sc_model_rounds(model, sc_ceil_log2(model->size), rd_round, bytes, root, t);
}

sc_err_t sc_model_allgather_bruck(const sc_model_t *model, size_t bytes, int root, double *t)
{
    if (model->size == 1 || bytes == 0)
        return SC_OK;
    return sc_model_rounds(model, sc_ceil_log2(model->size), bruck_round, bytes, root, t);
}

sc_err_t sc_model_allgather_rd_exch(const sc_model_t *model, size_t bytes, int root, double *t)
{
    if (model->size == 1 || bytes == 0)
        return SC_OK;
    sc_err_t err = sc_model_exchange_own(model, bytes, t);
    return err ? err : sc_model_allgather_rd(model, bytes, root, t);
}

sc_err_t sc_model_allgather_bruck_exch(const sc_model_t *model, size_t bytes, int root,
                                       double *t)
{
    if (model->size == 1 || bytes == 0)
        return SC_OK;
    sc_err_t err = sc_model_exchange_own(model, bytes, t);
    return err ? err : sc_model_allgather_bruck(model, bytes, root, t);
}
