/* Recursive doubling allgather (lecture 13, SibSUTI; MPICH's MPIR_Allgather
 * for power-of-two communicators).
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "../collectives.h"

/* p a power of two (checked by the registry before the run). At step k rank
 * i exchanges the 2^k blocks it holds, those of the aligned group of 2^k
 * ranks containing i, with rank i XOR 2^k. Block sizes m, 2m, 4m, ...
 * Cost on one level: log2(p) alpha + (p-1) m beta. */
sc_err_t sc_allgather_rd(sc_comm_t *comm, const sc_coll_args_t *args)
{
    int rank = comm->rank, p = comm->size;
    size_t m = args->bytes;
    char *out = args->recvbuf;
    if (m == 0)
        return SC_OK;
    sc_buf_copy(comm, out + (size_t)rank * m, args->sendbuf, m);
    for (int mask = 1; mask < p; mask <<= 1) {
        int partner = rank ^ mask;
        size_t mine = (size_t)(rank & ~(mask - 1)) * m;
        size_t theirs = (size_t)(partner & ~(mask - 1)) * m;
        size_t span = (size_t)mask * m;
        sc_err_t err = sc_sendrecv(comm, out + mine, span, partner,
                                   SC_TAG_ALLGATHER, out + theirs, span,
                                   partner, SC_TAG_ALLGATHER);
        if (err)
            return err;
    }
    return SC_OK;
}
