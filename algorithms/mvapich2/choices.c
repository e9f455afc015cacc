/* MVAPICH2's flat broadcast choice (choices.h).
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "choices.h"

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
