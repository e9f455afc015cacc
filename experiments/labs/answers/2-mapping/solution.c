/* Lab 2, the teacher's solution: Bruck's allgather played through a
 * mapping (lecture 13's "reorder" variant), for simcoll --load.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include <simcoll.h>

enum { MY_TAG = 4243 };

/* This rank plays position me = pi(rank). Bruck on positions: after the
 * steps, work slot j holds the block of position (me + j) mod p, which is
 * the block of the rank playing that position; it goes to that rank's
 * place in the output. No message more than Bruck's. */
static sc_err_t my_bruck_reorder(sc_comm_t *comm, const sc_coll_args_t *args)
{
    int p = comm->size, me = sc_position(args, comm->rank);
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
        int to = sc_player(args, (me - d + p) % p), from = sc_player(args, (me + d) % p);
        err = sc_sendrecv(comm, work, (size_t)count * m, to, MY_TAG, work + (size_t)d * m,
                          (size_t)count * m, from, MY_TAG);
    }
    for (int j = 0; j < p && !err; j++)
        sc_buf_copy(comm, out + (size_t)sc_player(args, (me + j) % p) * m, work + (size_t)j * m, m);
    sc_buf_free(comm, work);
    return err;
}

const sc_algo_t simcoll_algorithms[] = {
    {.name = "my_bruck_reorder", .collective = SC_ALLGATHER, .run = my_bruck_reorder,
     .needs = SC_USES_MAPPING, .doc = "Bruck played through a mapping (lab 2's solution)"},
    {.name = NULL},
};
