/* MPICH's own reductions for any number of processes: recursive doubling
 * for short vectors and Rabenseifner's algorithm for long ones, with the
 * whole-vector folding MPICH uses when p is not a power of two (MPICH2
 * 1.2.1, src/mpi/coll/allreduce.c and reduce.c, MPIR_Allreduce and
 * MPIR_Reduce_redscat_gather; unchanged in MPICH 3.0 to 3.3).
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "../collectives.h"
#include "vector.h"

/* N = largest power of two <= p, r = p - N; ranks are virtual, numbered
 * from `root`. Of the first 2r ranks, one of each pair (2i, 2i+1) sends its
 * whole vector to the other, which combines it; the sender drops out. In
 * allreduce the even one sends (MPICH: "even ranks send to rank + 1"), in
 * reduce the odd one (its mirror). The N survivors run `steps` on the whole
 * vector; for allreduce the dropped ranks then get the result back.
 * `keep_odd`: survivor k of the pairs is 2k + 1 (allreduce) or 2k. */
static int survivor(int k, int r, int keep_odd)
{
    return k < r ? 2 * k + keep_odd : k + r;
}

typedef enum { STEPS_DOUBLING, STEPS_RHRD, STEPS_HALVING_GATHER } steps_t;

static sc_err_t fold_and_run(sc_comm_t *comm, const sc_coll_args_t *args, int root, int tag,
                             int allreduce, steps_t steps)
{
    size_t n = sc_vector_elems(args);
    if (n == 0)
        return SC_OK;
    int p = comm->size, N = sc_pow2_below(p), r = p - N;
    int v = (comm->rank - root + p) % p, keep_odd = allreduce;
    sc_span_t whole = {0, n};
    char *vec = args->recvbuf, *tmp;
    sc_vector_start(comm, args);
    sc_err_t err = sc_vector_alloc(comm, args, n, &tmp);
    int me = v >= 2 * r ? v - r : ((v & 1) == keep_odd ? v / 2 : -1); /* survivor index */
    if (!err && v < 2 * r) {
        int partner = sc_rank_of_virtual(comm, root, v ^ 1);
        err = me < 0 ? sc_vector_send(comm, args, vec, whole, partner, tag)
                     : sc_vector_recv_combine(comm, args, vec, tmp, whole, partner, tag);
    }
    if (!err && me >= 0) {
        sc_group_t g = {.size = N, .me = me};
        for (int s = 0; (1 << s) < N; s++)
            g.peer[s] = sc_rank_of_virtual(comm, root, survivor(me ^ (1 << s), r, keep_odd));
        if (steps == STEPS_DOUBLING) {
            for (int s = 0; !err && (1 << s) < N; s++)
                err = sc_vector_sendrecv_combine(comm, args, vec, tmp, whole, g.peer[s], whole,
                                                 g.peer[s], tag);
        } else {
            err = sc_group_halving(comm, args, &g, vec, tmp, whole, tag, NULL);
            if (!err)
                err = steps == STEPS_RHRD ? sc_group_doubling(comm, args, &g, vec, whole, tag)
                                          : sc_group_gather(comm, args, &g, vec, whole, tag);
        }
    }
    if (!err && allreduce && v < 2 * r) {
        int partner = sc_rank_of_virtual(comm, root, v ^ 1);
        err = me < 0 ? sc_vector_recv(comm, args, vec, whole, partner, tag)
                     : sc_vector_send(comm, args, vec, whole, partner, tag);
    }
    if (tmp)
        sc_buf_free(comm, tmp);
    return err;
}

/* Recursive doubling: log2 N exchanges of the whole vector. Cost on one
 * level, r > 0: (2 + log2 N) alpha + (2 + log2 N) L beta + (1 + log2 N) L gamma. */
sc_err_t sc_allreduce_rd(sc_comm_t *comm, const sc_coll_args_t *args)
{
    return fold_and_run(comm, args, 0, SC_TAG_ALLREDUCE, 1, STEPS_DOUBLING);
}

/* Rabenseifner: recursive halving and doubling among the survivors. Cost
 * on one level, r > 0, L divisible by N:
 *   (2 + 2 log2 N) alpha + (2 + 2(N-1)/N) L beta + (1 + (N-1)/N) L gamma. */
sc_err_t sc_allreduce_rabenseifner(sc_comm_t *comm, const sc_coll_args_t *args)
{
    return fold_and_run(comm, args, 0, SC_TAG_ALLREDUCE, 1, STEPS_RHRD);
}

/* Rabenseifner reduce: recursive halving, then a binomial gather to the
 * root. MPICH numbers ranks from 0 and has the result sent on to the root
 * (by newrank 0 when the root dropped out); simcoll numbers them from the
 * root, which is MPICH's schedule for root 0 and saves that message
 * otherwise. Cost on one level, r > 0, L divisible by N:
 *   (1 + 2 log2 N) alpha + (1 + 2(N-1)/N) L beta + (1 + (N-1)/N) L gamma. */
sc_err_t sc_reduce_rabenseifner(sc_comm_t *comm, const sc_coll_args_t *args)
{
    return fold_and_run(comm, args, args->root, SC_TAG_REDUCE, 0, STEPS_HALVING_GATHER);
}
