/* Cost predictions of the allgather algorithms (lecture 13, SibSUTI).
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "collectives.h"

sc_err_t sc_model_allgather_ring(const sc_model_t *model, size_t bytes,
                                 int root, double *t)
{
    (void)root;
    int p = model->size;
    if (p == 1 || bytes == 0)
        return SC_OK;
    sc_round_t round;
    sc_err_t err = sc_round_init(&round, p);
    if (err)
        return err;
    for (int i = 0; i < p; i++) {
        round.dst[i] = (i + 1) % p;
        round.src[i] = (i - 1 + p) % p;
        round.bytes[i] = bytes;
    }
    for (int k = 0; k < p - 1; k++)
        sc_model_exchange(model, &round, t);
    sc_round_destroy(&round);
    return SC_OK;
}

sc_err_t sc_model_allgather_rd(const sc_model_t *model, size_t bytes, int root,
                               double *t)
{
    (void)root;
    int p = model->size;
    if (p == 1 || bytes == 0)
        return SC_OK;
    sc_round_t round;
    sc_err_t err = sc_round_init(&round, p);
    if (err)
        return err;
    for (int mask = 1; mask < p; mask <<= 1) {
        for (int i = 0; i < p; i++) {
            round.dst[i] = round.src[i] = i ^ mask;
            round.bytes[i] = (size_t)mask * bytes;
        }
        sc_model_exchange(model, &round, t);
    }
    sc_round_destroy(&round);
    return SC_OK;
}

sc_err_t sc_model_allgather_bruck(const sc_model_t *model, size_t bytes,
                                  int root, double *t)
{
    (void)root;
    int p = model->size;
    if (p == 1 || bytes == 0)
        return SC_OK;
    sc_round_t round;
    sc_err_t err = sc_round_init(&round, p);
    if (err)
        return err;
    for (int pof2 = 1; pof2 < p; pof2 <<= 1) {
        int blocks = pof2 < p - pof2 ? pof2 : p - pof2;
        for (int i = 0; i < p; i++) {
            round.dst[i] = (i - pof2 + p) % p;
            round.src[i] = (i + pof2) % p;
            round.bytes[i] = (size_t)blocks * bytes;
        }
        sc_model_exchange(model, &round, t);
    }
    sc_round_destroy(&round);
    return SC_OK;
}
