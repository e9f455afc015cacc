/* Lab 2: Bruck's allgather played through a mapping (lecture 13's
 * "reorder" variant), for simcoll --load. As given, it ignores the
 * mapping: it is plain Bruck, right, but as slow as Bruck under MPI's
 * block placement whatever --mapping says. Make it play position pi(rank):
 * the three places marked TODO (sc_position and sc_player, simcoll.h).
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include <simcoll.h>

enum { MY_TAG = 4243 };

/* Bruck: after the steps, work slot j holds the block of (me + j) mod p. */
static sc_err_t my_bruck_reorder(sc_comm_t *comm, const sc_coll_args_t *args)
{
    int p = comm->size, me = comm->rank; /* TODO: the position this rank plays */
    size_t m = args->bytes;
    char *out = args->recvbuf;
    if (m == 0)
        return SC_OK;
    char *work = sc_buf_alloc(comm, (size_t)p * m);
    if (!work)
        return sc_error(SC_ERR_RUN, "my_bruck_reorder: out of memory");
    sc_buf_copy(comm, work, args->sendbuf, m);
    sc_err_t err = SC_OK;
    for (int d = 1; d < p && !err; d *= 2) {
        int count = d < p - d ? d : p - d;
        /* TODO: the ranks playing these positions */
        int to = (me - d + p) % p, from = (me + d) % p;
        err = sc_sendrecv(comm, work, (size_t)count * m, to, MY_TAG, work + (size_t)d * m,
                          (size_t)count * m, from, MY_TAG);
    }
    for (int j = 0; j < p && !err; j++)
        /* TODO: the block of position (me + j) mod p is its player's */
        sc_buf_copy(comm, out + (size_t)((me + j) % p) * m, work + (size_t)j * m, m);
    sc_buf_free(comm, work);
    return err;
}

const sc_algo_t simcoll_algorithms[] = {
    {.name = "my_bruck_reorder", .collective = SC_ALLGATHER, .run = my_bruck_reorder,
     .needs = SC_USES_MAPPING, .doc = "Bruck played through a mapping (lab 2)"},
    {.name = NULL},
};
