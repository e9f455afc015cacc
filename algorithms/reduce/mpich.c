/* The prior-art extension of RHRD to any number of processes, as reference
 * 000 (IBM patent, background) describes it; registered as "mpich".
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "../collectives.h"
#include "vector.h"

/* The virtual rank of survivor k: the even ranks of the first 2r, then
 * every rank from 2r on. */
static int survivor(int k, int r)
{
    return k < r ? 2 * k : k + r;
}

/* N = largest power of two <= p, r = p - N; ranks numbered from the root.
 * The first 2r ranks pair up (2i, 2i+1): the even one keeps the lower half,
 * the odd one the upper; they exchange the other halves and combine, then
 * the odd one sends its combined half to the even one and drops out. The N
 * survivors run RHRD on the whole vector (rhrd.c). For allreduce each
 * dropped rank finally receives the whole result from its even partner.
 * (MPICH's own Rabenseifner allreduce instead has the first even ranks
 * send their whole vector to rank + 1; the patent compares its method with
 * the variant above, and so does simcoll.) Cost on one level, L divisible by 2N, the
 * patent's formulas (1) and (2):
 *   reduce    T = (2 + 2 log2 N) alpha + (1 + 2(N-1)/N) L beta + (1/2 + (N-1)/N) L gamma
 *   allreduce T = (3 + 2 log2 N) alpha + (2 + 2(N-1)/N) L beta + (1/2 + (N-1)/N) L gamma */
static sc_err_t prior_art(sc_comm_t *comm, const sc_coll_args_t *args, int root, int tag,
                          int allreduce)
{
    size_t n = sc_vector_elems(args);
    if (n == 0)
        return SC_OK;
    int p = comm->size, N = sc_pow2_below(p), r = p - N;
    int v = (comm->rank - root + p) % p;
    sc_span_t whole = {0, n};
    char *vec = args->recvbuf, *tmp;
    sc_vector_start(comm, args);
    sc_err_t err = sc_vector_alloc(comm, args, (n + 1) / 2, &tmp);
    int me = v >= 2 * r ? v - r : (v & 1 ? -1 : v / 2); /* survivor index */
    if (!err && v < 2 * r) {
        int upper = v & 1, partner = sc_rank_of_virtual(comm, root, v ^ 1);
        err = sc_vector_sendrecv_combine(comm, args, vec, tmp, sc_span_half(whole, !upper),
                                         partner, sc_span_half(whole, upper), partner, tag);
        if (!err)
            err = upper ? sc_vector_send(comm, args, vec, sc_span_half(whole, 1), partner, tag)
                        : sc_vector_recv(comm, args, vec, sc_span_half(whole, 1), partner, tag);
    }
    if (!err && me >= 0) {
        sc_group_t g = {.size = N, .me = me};
        for (int s = 0; (1 << s) < N; s++)
            g.peer[s] = sc_rank_of_virtual(comm, root, survivor(me ^ (1 << s), r));
        err = sc_group_halving(comm, args, &g, vec, tmp, whole, tag, NULL);
        if (!err)
            err = allreduce ? sc_group_doubling(comm, args, &g, vec, whole, tag)
                            : sc_group_gather(comm, args, &g, vec, whole, tag);
    }
    if (!err && allreduce && v < 2 * r) {
        int partner = sc_rank_of_virtual(comm, root, v ^ 1);
        err = v & 1 ? sc_vector_recv(comm, args, vec, whole, partner, tag)
                    : sc_vector_send(comm, args, vec, whole, partner, tag);
    }
    if (tmp)
        sc_buf_free(comm, tmp);
    return err;
}

sc_err_t sc_reduce_mpich(sc_comm_t *comm, const sc_coll_args_t *args)
{
    return prior_art(comm, args, args->root, SC_TAG_REDUCE, 0);
}

sc_err_t sc_allreduce_mpich(sc_comm_t *comm, const sc_coll_args_t *args)
{
    return prior_art(comm, args, 0, SC_TAG_ALLREDUCE, 1);
}
