/* Ring allreduce: ring reduce-scatter, then ring allgather (Patarasuk and
 * Yuan, "Bandwidth optimal all-reduce algorithms for clusters of
 * workstations", JPDC 69(2), 2009). The bandwidth-optimal reference.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "../collectives.h"
#include "../reduce/vector.h"

/* The vector is cut into p parts of n/p elements (rounded). In p-1 steps
 * each rank passes part (rank - step) to its right neighbour and combines
 * part (rank - step - 1) coming from the left; it then holds part rank+1
 * complete. p-1 more steps pass the complete parts around the ring. Cost
 * on one level, L divisible by p:
 *   T = 2 (p-1) alpha + 2 (p-1)/p L beta + (p-1)/p L gamma. */
sc_err_t sc_allreduce_ring(sc_comm_t *comm, const sc_coll_args_t *args)
{
    size_t n = sc_vector_elems(args);
    if (n == 0)
        return SC_OK;
    int rank = comm->rank, p = comm->size;
    int left = (rank - 1 + p) % p, right = (rank + 1) % p;
    char *vec = args->recvbuf, *tmp;
    sc_vector_start(comm, args);
    sc_err_t err = sc_vector_alloc(comm, args, (n + (size_t)p - 1) / (size_t)p, &tmp);
    for (int step = 0; step < p - 1 && !err; step++) {
        sc_span_t out = sc_span_part(n, p, (rank - step + p) % p);
        sc_span_t in = sc_span_part(n, p, (rank - step - 1 + 2 * p) % p);
        err = sc_vector_sendrecv_combine(comm, args, vec, tmp, out, right, in, left,
                                         SC_TAG_ALLREDUCE);
    }
    for (int step = 0; step < p - 1 && !err; step++) {
        sc_span_t out = sc_span_part(n, p, (rank + 1 - step + p) % p);
        sc_span_t in = sc_span_part(n, p, (rank - step + p) % p);
        err = sc_vector_sendrecv(comm, args, vec, out, right, in, left, SC_TAG_ALLREDUCE);
    }
    if (tmp)
        sc_buf_free(comm, tmp);
    return err;
}
