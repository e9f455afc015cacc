/* Cost prediction of the dissemination barrier (Hensgen, Finkel, Manber).
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "collectives.h"

sc_err_t sc_model_barrier_dissemination(const sc_model_t *model, size_t bytes,
                                        int root, double *t)
{
    (void)bytes;
    (void)root;
    int p = model->size;
    if (p == 1)
        return SC_OK;
    sc_round_t round;
    sc_err_t err = sc_round_init(&round, p);
    if (err)
        return err;
    for (int mask = 1; mask < p; mask <<= 1) {
        for (int i = 0; i < p; i++) {
            round.dst[i] = (i + mask) % p;
            round.src[i] = (i - mask + p) % p;
        }
        sc_model_exchange(model, &round, t);
    }
    sc_round_destroy(&round);
    return SC_OK;
}
