/* Rabenseifner's recursive halving + doubling (RHRD) reduce and allreduce
 * for p a power of two (reference 000; R. Rabenseifner, "Optimization of
 * Collective Reduction Operations", ICCS 2004).
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "../collectives.h"
#include "vector.h"

/* log2 p steps of recursive halving leave each rank with the result for
 * 1/p of the vector (sc_group_halving); then the steps in reverse either
 * gather it to the root or exchange it among all (recursive doubling).
 * Ranks are numbered from the root. Cost on one level, L divisible by p,
 * for both:
 *   T = 2 log2(p) alpha + 2 (p-1)/p L beta + (p-1)/p L gamma. */
static sc_err_t rhrd(sc_comm_t *comm, const sc_coll_args_t *args, int root, int tag,
                     int allreduce)
{
    size_t n = sc_vector_elems(args);
    if (n == 0)
        return SC_OK;
    int p = comm->size, v = (comm->rank - root + p) % p;
    sc_group_t g = {.size = p, .me = v};
    for (int s = 0; (1 << s) < p; s++)
        g.peer[s] = sc_rank_of_virtual(comm, root, v ^ (1 << s));
    sc_span_t whole = {0, n};
    char *vec = args->recvbuf, *tmp;
    sc_vector_start(comm, args);
    sc_err_t err = sc_vector_alloc(comm, args, (n + 1) / 2, &tmp);
    if (!err)
        err = sc_group_halving(comm, args, &g, vec, tmp, whole, tag, NULL);
    if (!err)
        err = allreduce ? sc_group_doubling(comm, args, &g, vec, whole, tag)
                        : sc_group_gather(comm, args, &g, vec, whole, tag);
    if (tmp)
        sc_buf_free(comm, tmp);
    return err;
}

sc_err_t sc_reduce_rhrd(sc_comm_t *comm, const sc_coll_args_t *args)
{
    return rhrd(comm, args, args->root, SC_TAG_REDUCE, 0);
}

sc_err_t sc_allreduce_rhrd(sc_comm_t *comm, const sc_coll_args_t *args)
{
    return rhrd(comm, args, 0, SC_TAG_ALLREDUCE, 1);
}
