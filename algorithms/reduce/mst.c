/* Binomial-tree (MST) reduce and allreduce (reference 000; MPICH's
 * MPIR_Reduce_binomial for commutative operations).
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "../collectives.h"
#include "vector.h"

/* With relative rank rel = (rank - root) mod p: at step mask = 1, 2, 4, ...
 * a rank with `mask` set in rel sends its partial result to rel - mask and
 * is done; otherwise it receives the partial result of rel + mask (if that
 * exists) and combines it with its own. Every message is the whole vector.
 * Cost on one level, p a power of two, blocking (rendezvous) messages:
 *   T = log2(p) (alpha + L beta + L gamma). */
static sc_err_t binomial_reduce(sc_comm_t *comm, const sc_coll_args_t *args, int root, int tag)
{
    int rank = comm->rank, p = comm->size, rel = (rank - root + p) % p;
    sc_span_t all = {0, sc_vector_elems(args)};
    char *vec = args->recvbuf, *tmp;
    sc_vector_start(comm, args);
    sc_err_t err = sc_vector_alloc(comm, args, all.hi, &tmp);
    for (int mask = 1; mask < p && !err; mask <<= 1) {
        if (rel & mask) {
            err = sc_vector_send(comm, args, vec, all, (rank - mask + p) % p, tag);
            break;
        }
        if (rel + mask < p)
            err = sc_vector_recv_combine(comm, args, vec, tmp, all, (rank + mask) % p, tag);
    }
    if (tmp)
        sc_buf_free(comm, tmp);
    return err;
}

sc_err_t sc_reduce_mst(sc_comm_t *comm, const sc_coll_args_t *args)
{
    if (sc_vector_elems(args) == 0)
        return SC_OK;
    return binomial_reduce(comm, args, args->root, SC_TAG_REDUCE);
}

/* Reduce to rank 0, then the binomial broadcast from it:
 *   T = log2(p) (2 alpha + 2 L beta + L gamma) on the terms above. */
sc_err_t sc_allreduce_mst(sc_comm_t *comm, const sc_coll_args_t *args)
{
    if (sc_vector_elems(args) == 0)
        return SC_OK;
    sc_err_t err = binomial_reduce(comm, args, 0, SC_TAG_ALLREDUCE);
    sc_coll_args_t bcast = *args;
    bcast.root = 0;
    return err ? err : sc_bcast_binomial(comm, &bcast);
}
