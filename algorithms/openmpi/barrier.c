/* Open MPI 4.1's barriers that simcoll's dissemination barrier does not
 * cover (ompi/mca/coll/base/coll_base_barrier.c, tag v4.1.6): recursive
 * doubling, linear and tree. Its "bruck" barrier is simcoll's `barrier`
 * (dissemination), message for message.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include <stdlib.h>

#include "algorithms/steps.h"
#include "../collectives.h"
#include "openmpi.h"

/* ompi_coll_base_barrier_intra_recursivedoubling, empty messages. N = the
 * largest power of two <= p. A rank i >= N first signals i - N and waits for
 * its answer (one sendrecv, the receive matched by the last step); ranks
 * i < p - N wait for that signal. Ranks below N then swap signals with
 * i XOR 2^k for k = 0 .. log2 N - 1, and finally ranks i < p - N signal
 * i + N. Open MPI makes that last send synchronous (MPI_Ssend); simcoll's
 * point-to-point layer has no synchronous mode, so here it is a standard
 * send and its sender may leave one acknowledgement earlier than under Open
 * MPI. Cost on one level (alpha_0 = o_s + L + o_r, empty messages):
 * log2(p) alpha_0 for p a power of two; otherwise at most
 * (log2 N + 2) alpha_0 (a rank that waited for its signal passes the delay
 * to its partners, not along the whole way). */
sc_err_t sc_barrier_ompi_rd(sc_comm_t *comm, const sc_coll_args_t *args)
{
    (void)args;
    int p = comm->size, rank = comm->rank, N = sc_pow2_below(p);
    sc_err_t err = SC_OK;
    if (p == 1)
        return SC_OK;
    if (rank >= N)
        return sc_sendrecv(comm, NULL, 0, rank - N, SC_TAG_BARRIER, NULL, 0, rank - N,
                           SC_TAG_BARRIER);
    if (rank < p - N)
        err = sc_recv(comm, NULL, 0, rank + N, SC_TAG_BARRIER);
    for (int mask = 1; mask < N && !err; mask <<= 1)
        err = sc_sendrecv(comm, NULL, 0, rank ^ mask, SC_TAG_BARRIER, NULL, 0, rank ^ mask,
                          SC_TAG_BARRIER);
    if (!err && rank < p - N)
        err = sc_send(comm, NULL, 0, rank + N, SC_TAG_BARRIER);
    return err;
}

/* ompi_coll_base_barrier_intra_basic_linear: every rank but 0 sends rank 0
 * an empty message and waits for one back; rank 0 receives them all
 * (MPI_ANY_SOURCE in Open MPI; one receive per rank here, which completes
 * at the same time since every message is alike), then sends to 1 .. p-1
 * in turn with blocking sends. Cost on one level: p (o_s + o_r) + 2L. */
sc_err_t sc_barrier_ompi_linear(sc_comm_t *comm, const sc_coll_args_t *args)
{
    (void)args;
    int p = comm->size, rank = comm->rank;
    if (p == 1)
        return SC_OK;
    if (rank > 0) {
        sc_err_t err = sc_send(comm, NULL, 0, 0, SC_TAG_BARRIER);
        return err ? err : sc_recv(comm, NULL, 0, 0, SC_TAG_BARRIER);
    }
    sc_request_t **reqs = malloc((size_t)p * sizeof *reqs);
    if (!reqs)
        return sc_error(SC_ERR_RUN, "rank 0: out of memory for %d requests", p);
    sc_err_t err = SC_OK;
    int posted = 0;
    for (int i = 1; i < p && !err; i++, posted++)
        err = sc_irecv(comm, NULL, 0, i, SC_TAG_BARRIER, &reqs[posted]);
    sc_err_t werr = sc_waitall(comm, posted, reqs);
    free(reqs);
    if (!err)
        err = werr;
    for (int i = 1; i < p && !err; i++)
        err = sc_send(comm, NULL, 0, i, SC_TAG_BARRIER);
    return err;
}

/* ompi_coll_base_barrier_intra_tree: with D the smallest power of two
 * >= p, for distances 1, 2, .. D/2 every rank whose bits below the
 * distance are clear receives an empty message from rank + distance (if it
 * exists) or, if the distance's bit is set, sends one to rank - distance
 * (a binomial gather to rank 0); then the same in reverse order of
 * distances with the directions swapped (a binomial broadcast). Blocking
 * calls. Cost on one level, p a power of two: 2 log2(p) alpha_0. */
sc_err_t sc_barrier_ompi_tree(sc_comm_t *comm, const sc_coll_args_t *args)
{
    (void)args;
    int p = comm->size, rank = comm->rank, depth = 1;
    sc_err_t err = SC_OK;
    while (depth < p)
        depth <<= 1;
    for (int jump = 1; jump < depth && !err; jump <<= 1) {
        int partner = rank ^ jump;
        if ((partner & (jump - 1)) || partner >= p)
            continue;
        err = partner > rank ? sc_recv(comm, NULL, 0, partner, SC_TAG_BARRIER)
                             : sc_send(comm, NULL, 0, partner, SC_TAG_BARRIER);
    }
    for (int jump = depth >> 1; jump > 0 && !err; jump >>= 1) {
        int partner = rank ^ jump;
        if ((partner & (jump - 1)) || partner >= p)
            continue;
        err = partner > rank ? sc_send(comm, NULL, 0, partner, SC_TAG_BARRIER)
                             : sc_recv(comm, NULL, 0, partner, SC_TAG_BARRIER);
    }
    return err;
}
