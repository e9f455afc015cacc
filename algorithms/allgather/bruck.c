/* Bruck allgather: J. Bruck, C.-T. Ho, S. Kipnis, E. Upfal, D. Weathersby,
 * "Efficient algorithms for all-to-all communications in multiport
 * message-passing systems", IEEE TPDS 8(11), 1997; lecture 13, SibSUTI.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "../collectives.h"

/* Any p. A work buffer holds blocks in the order i, i+1, ..., i+p-1 (mod p)
 * as seen from position i. At step k the rank at position i sends the first
 * min(2^k, p-2^k) blocks it holds to position (i - 2^k) mod p and appends
 * those of (i + 2^k) mod p; after ceil(log2 p) steps it rotates the buffer
 * by i blocks into rank order. Cost on one level:
 * ceil(log2 p) alpha + (p-1) m beta. */
sc_err_t sc_bruck_steps(sc_comm_t *comm, const sc_coll_args_t *args, char *work, int me)
{
    int p = comm->size;
    size_t m = args->bytes;
    for (int pof2 = 1; pof2 < p; pof2 <<= 1) {
        int blocks = pof2 < p - pof2 ? pof2 : p - pof2;
        int dst = sc_player(args, (me - pof2 + p) % p);
        int src = sc_player(args, (me + pof2) % p);
        sc_err_t err = sc_sendrecv(comm, work, (size_t)blocks * m, dst, SC_TAG_ALLGATHER,
                                   work + (size_t)pof2 * m, (size_t)blocks * m, src,
                                   SC_TAG_ALLGATHER);
        if (err)
            return err;
    }
    return SC_OK;
}

sc_err_t sc_allgather_bruck(sc_comm_t *comm, const sc_coll_args_t *args)
{
    int rank = comm->rank, p = comm->size;
    size_t m = args->bytes;
    char *out = args->recvbuf;
    if (m == 0)
        return SC_OK;
    char *work = sc_buf_alloc(comm, (size_t)p * m);
    if (!work)
        return sc_error(SC_ERR_RUN, "bruck: out of memory for %d blocks of %zu bytes", p, m);
    sc_buf_copy(comm, work, args->sendbuf, m);
    sc_err_t err = sc_bruck_steps(comm, args, work, rank);
    for (int j = 0; j < p && !err; j++)
        sc_buf_copy(comm, out + (size_t)((rank + j) % p) * m, work + (size_t)j * m, m);
    sc_buf_free(comm, work);
    return err;
}
