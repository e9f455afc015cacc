/* Recursive doubling allgather (lecture 13, SibSUTI; MPICH's MPIR_Allgather
 * for power-of-two communicators).
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "../collectives.h"

/* p a power of two (checked by the registry before the run). At step k the
 * rank at position i exchanges the 2^k blocks it holds, those of the
 * aligned group of 2^k positions containing i, with position i XOR 2^k.
 * Block sizes m, 2m, 4m, ...
 * Cost on one level: log2(p) alpha + (p-1) m beta. */
sc_err_t sc_rd_steps(sc_comm_t *comm, const sc_coll_args_t *args, char *slots, int me)
{
    size_t m = args->bytes;
    for (int mask = 1; mask < comm->size; mask <<= 1) {
        int partner = me ^ mask, player = sc_player(args, partner);
        size_t mine = (size_t)(me & ~(mask - 1)) * m;
        size_t theirs = (size_t)(partner & ~(mask - 1)) * m;
        size_t span = (size_t)mask * m;
        sc_err_t err = sc_sendrecv(comm, slots + mine, span, player, SC_TAG_ALLGATHER,
                                   slots + theirs, span, player, SC_TAG_ALLGATHER);
        if (err)
            return err;
    }
    return SC_OK;
}

sc_err_t sc_allgather_rd(sc_comm_t *comm, const sc_coll_args_t *args)
{
    size_t m = args->bytes;
    char *out = args->recvbuf;
    if (m == 0)
        return SC_OK;
    sc_buf_copy(comm, out + (size_t)comm->rank * m, args->sendbuf, m);
    return sc_rd_steps(comm, args, out, comm->rank);
}
