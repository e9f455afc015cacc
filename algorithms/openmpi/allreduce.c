/* Open MPI 4.1's allreduces that simcoll's own do not cover
 * (ompi/mca/coll/base/coll_base_allreduce.c, tag v4.1.6): linear,
 * nonoverlapping (reduce + broadcast through coll/tuned's rules), and the
 * ring. Its recursive doubling is allreduce-rd and its Rabenseifner
 * (redscat_allgather) allreduce-mpich, message for message.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "algorithms/openmpi/tuned.h"
#include "../collectives.h"
#include "../reduce/vector.h"
#include "openmpi.h"

/* The allreduce's arguments with root 0: its reduce goes to rank 0 and its
 * broadcast starts there, into every rank's recvbuf. */
static sc_coll_args_t at_zero(const sc_coll_args_t *args)
{
    sc_coll_args_t a = *args;
    a.root = 0;
    return a;
}

/* ompi_coll_base_allreduce_intra_basic_linear: reduce-ompi-linear to rank
 * 0, then bcast-ompi-linear from it. */
sc_err_t sc_allreduce_ompi_linear(sc_comm_t *comm, const sc_coll_args_t *args)
{
    if (args->bytes == 0)
        return SC_OK;
    sc_coll_args_t a = at_zero(args);
    sc_err_t err = sc_reduce_ompi_linear(comm, &a);
    return err ? err : sc_bcast_ompi_linear(comm, &a);
}

/* ompi_coll_base_allreduce_intra_nonoverlapping: coll_reduce to rank 0 and
 * coll_bcast from it, which under coll/tuned are the reduce and the
 * broadcast its fixed rules pick for this size and p (the broadcast on
 * elements of the reduction's type). */
sc_err_t sc_allreduce_ompi_nonoverlapping(sc_comm_t *comm, const sc_coll_args_t *args)
{
    if (args->bytes == 0)
        return SC_OK;
    sc_coll_args_t a = at_zero(args);
    sc_err_t err = sc_reduce_ompi_tuned(comm, &a);
    return err ? err : sc_bcast_ompi_tuned(comm, &a, sc_type_size(args->type));
}

/* ompi_coll_base_allreduce_intra_ring. With fewer elements than ranks Open
 * MPI runs recursive doubling (allreduce-rd). Otherwise the vector is cut
 * into p blocks, the first n mod p of ceil(n/p) elements and the others of
 * floor(n/p) (allreduce-ring spreads the remainder evenly instead).
 * Reduce-scatter, p-1 steps: rank i posts the receive of block i-1 from
 * its left neighbour and sends block i to its right one (blocking); at step
 * k = 2 .. p-1 it posts the receive of block i-k, waits for block i-k+1,
 * combines it into its own and sends the sum right; it then waits for block
 * i+1 and combines it, which completes that block. The receive of a step is
 * thus posted one step ahead, while allreduce-ring posts it with the send.
 * Allgather, p-1 steps of sendrecv: block i+1-k right, block i-k from the
 * left. Cost on one level, rendezvous, L divisible by p:
 *   T = 2 (p-1) alpha + 2 (p-1)/p L beta + (p-1)/p L gamma. */
static sc_span_t block(size_t n, int p, int b)
{
    size_t late = n / (size_t)p, split = n % (size_t)p, early = late + (split != 0);
    size_t k = (size_t)b;
    if (k < split)
        return (sc_span_t){k * early, (k + 1) * early};
    return (sc_span_t){k * late + split, (k + 1) * late + split};
}

/* Piece `ph` of `phases` of a span, cut as block() cuts the vector. */
static sc_span_t piece(sc_span_t s, size_t phases, size_t ph)
{
    sc_span_t q = block(sc_span_len(s), (int)phases, (int)ph);
    return (sc_span_t){s.lo + q.lo, s.lo + q.hi};
}

/* ompi_coll_base_allreduce_intra_ring_segmented (v4.0.3
 * coll_base_allreduce.c:616-853): the reduce-scatter above is run
 * `phases` times (sc_ompi_ring_phases), phase f on piece f of every block,
 * the blocks cut into phases pieces as the vector into blocks (the first
 * ones one element longer); each phase posts its first receive only after
 * the last combine of the one before. The allgather then moves whole
 * blocks, as in the ring. The phases do not overlap, so on one level,
 * rendezvous, q phases, L divisible by p q:
 *   T = (q+1) (p-1) alpha + (p-1)/p L (2 beta + gamma).
 * phases = 1 is the ring (allreduce-ompi-ring). */
static sc_err_t ring(sc_comm_t *comm, const sc_coll_args_t *args, size_t phases)
{
    int p = comm->size, rank = comm->rank;
    size_t n = sc_vector_elems(args);
    int left = (rank - 1 + p) % p, right = (rank + 1) % p;
    char *vec = args->recvbuf, *tmp[2] = {NULL, NULL};
    sc_request_t *req[2] = {NULL, NULL};
    size_t biggest = (n + (size_t)p - 1) / (size_t)p;
    sc_vector_start(comm, args);
    sc_err_t err = sc_vector_alloc(comm, args, biggest, &tmp[0]);
    if (!err)
        err = sc_vector_alloc(comm, args, biggest, &tmp[1]);
#define BLOCK(b) block(n, p, (((b) % p) + p) % p)
#define PIECE(b) piece(BLOCK(b), phases, ph)
    for (size_t ph = 0; ph < phases && !err; ph++) {
        int in = 0;
        err = sc_irecv(comm, tmp[0], sc_span_bytes(args, PIECE(rank - 1)), left, SC_TAG_ALLREDUCE,
                       &req[0]);
        if (!err)
            err = sc_vector_send(comm, args, vec, PIECE(rank), right, SC_TAG_ALLREDUCE);
        for (int k = 2; k < p && !err; k++) {
            sc_span_t prev = PIECE(rank - k + 1);
            in ^= 1;
            err = sc_irecv(comm, tmp[in], sc_span_bytes(args, PIECE(rank - k)), left,
                           SC_TAG_ALLREDUCE, &req[in]);
            if (!err)
                err = sc_wait(comm, &req[in ^ 1]);
            if (!err)
                err = sc_vector_combine(comm, args, vec, tmp[in ^ 1], prev);
            if (!err)
                err = sc_vector_send(comm, args, vec, prev, right, SC_TAG_ALLREDUCE);
        }
        if (!err)
            err = sc_wait(comm, &req[in]);
        if (!err)
            err = sc_vector_combine(comm, args, vec, tmp[in], PIECE(rank + 1));
        if (err)
            sc_waitall(comm, 2, req);
    }
    for (int k = 0; k < p - 1 && !err; k++)
        err = sc_vector_sendrecv(comm, args, vec, BLOCK(rank + 1 - k), right, BLOCK(rank - k), left,
                                 SC_TAG_ALLREDUCE);
#undef PIECE
#undef BLOCK
    for (int b = 0; b < 2; b++)
        if (tmp[b])
            sc_buf_free(comm, tmp[b]);
    return err;
}

sc_err_t sc_allreduce_ompi_ring(sc_comm_t *comm, const sc_coll_args_t *args)
{
    return sc_allreduce_ompi_ring_segmented_by(comm, args, 0);
}

sc_err_t sc_allreduce_ompi_ring_segmented_by(sc_comm_t *comm, const sc_coll_args_t *args,
                                             size_t segsize)
{
    int p = comm->size;
    size_t n = sc_vector_elems(args);
    if (n == 0)
        return SC_OK;
    if (p == 1) {
        sc_vector_start(comm, args);
        return SC_OK;
    }
    if (n < (size_t)p)
        return sc_allreduce_rd(comm, args);
    return ring(comm, args, sc_ompi_ring_phases(n, sc_type_size(args->type), p, segsize));
}

sc_err_t sc_allreduce_ompi_ring_segmented(sc_comm_t *comm, const sc_coll_args_t *args)
{
    return sc_allreduce_ompi_ring_segmented_by(comm, args, SC_OMPI_RING_SEGMENT);
}
