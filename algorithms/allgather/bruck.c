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
static sc_err_t bruck_steps(sc_comm_t *comm, const sc_coll_args_t *args, char *work, int me)
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

/* Work slot j ends up with the block of position me + j. With exch that
 * block is position's own (a_j sits at position j); otherwise it is the
 * block of the rank playing that position. */
sc_err_t sc_bruck_played(sc_comm_t *comm, const sc_coll_args_t *args, int exch,
                         const char *name)
{
    int p = comm->size, me = sc_position(args, comm->rank);
    size_t m = args->bytes;
    char *out = args->recvbuf;
    if (m == 0)
        return SC_OK;
    char *work = sc_buf_alloc(comm, (size_t)p * m);
    if (!work)
        return sc_error(SC_ERR_RUN, "%s: out of memory for %d blocks of %zu bytes", name, p, m);
    sc_err_t err = SC_OK;
    if (exch)
        err = sc_exchange_own(comm, args, work);
    else
        sc_buf_copy(comm, work, args->sendbuf, m);
    if (!err)
        err = bruck_steps(comm, args, work, me);
    for (int j = 0; j < p && !err && sc_moves_data(comm); j++) {
        int position = (me + j) % p, owner = exch ? position : sc_player(args, position);
        sc_buf_copy(comm, out + (size_t)owner * m, work + (size_t)j * m, m);
    }
    sc_buf_free(comm, work);
    return err;
}

/* Plain Bruck ignores any mapping, as the registry promises. */
sc_err_t sc_allgather_bruck(sc_comm_t *comm, const sc_coll_args_t *args)
{
    sc_coll_args_t plain = *args;
    plain.pi = plain.pi_inv = NULL;
    return sc_bruck_played(comm, &plain, 0, "bruck");
}
