/* Cost prediction of the dissemination barrier (Hensgen, Finkel, Manber).
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "collectives.h"

/* Round k: an empty message to i + 2^k, one from i - 2^k. */
static void dissemination_round(int k, int p, size_t bytes, int root, sc_round_t *round)
{
    (void)bytes;
    (void)root;
    for (int i = 0; i < p; i++) {
        round->dst[i] = (i + (1 << k)) % p;
        round->src[i] = (i - (1 << k) + p) % p;
        round->bytes[i] = 0;
    }
}

sc_err_t sc_model_barrier_dissemination(const sc_model_t *model, size_t bytes, int root,
                                        double *t)
{
    return sc_model_rounds(model, sc_ceil_log2(model->size), dissemination_round, bytes, root,
                           t);
}
