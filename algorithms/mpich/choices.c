/* MPICH's choice of collective algorithm (choices.h).
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "choices.h"

#include "algorithms/steps.h"

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
