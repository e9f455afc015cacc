/* MVAPICH2 1.4's two-level collectives, which its MPI_Barrier, MPIR_Bcast,
 * MPI_Allreduce and MPI_Reduce run on a communicator with a node
 * communicator and a node-leader communicator (src/mpi/comm/
 * create_2level_comm.c:76-257 builds them for MPI_COMM_WORLD at MPI_Init,
 * MV2_USE_SHMEM_COLL=1 by default: src/mpi/init/initthread.c:419, 545-549).
 * Its nodes and leaders are MPICH's (algorithms/subcomm.h): a node's ranks
 * in rank order, its lowest rank the leader, the leaders in rank order.
 *
 * Where MVAPICH2 hands data through a node's shared-memory segment
 * (src/mpid/ch3/channels/mrail/src/rdma/ch3_shmem_coll.c), simcoll sends
 * a message on the node (which a platform routes through the node's
 * memory): a flag a process sets and its leader polls is an empty message,
 * a vector a process writes for its leader to read a message of the
 * vector. Where MVAPICH2 sends point-to-point messages (its leader and
 * node communicators' MPIR_ functions) so does simcoll. On a communicator
 * whose ranks are each on a node of their own the node steps vanish and
 * the leader step, over every rank in rank order, is the flat algorithm.
 * The algorithms assume MVAPICH2's shared buffers free: the flow control
 * of one call on the next (a process waits for its leader to have read
 * its previous vector) is not modelled.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include <stdlib.h>

#include "algorithms/mvapich2/choices.h"
#include "../collectives.h"
#include "../mpich/smp.h"
#include "../reduce/vector.h"

/* MPIR_Bcast on a node communicator (no two-level structure there:
 * create_2level_comm.c:204 clears shmem_coll_ok on it). */
static sc_err_t mv2_bcast_flat(sc_comm_t *comm, const sc_coll_args_t *args)
{
    return sc_smp_bcast_chosen(comm, args, sc_mv2_bcast_flat_choice(args->bytes, comm->size));
}

/* MVAPICH2's MPIR_Allreduce and MPIR_Reduce are MPICH2's, with the same
 * thresholds (src/mpi/coll/allreduce.c:289-294, reduce.c:199-203):
 * sc_allreduce_mpich_flat and sc_reduce_mpich_flat. */

/* The k-nomial tree of knomial_2level_Bcast (bcast.c:1209-1251): relative
 * rank v receives from v with its lowest non-zero base-k digit cleared,
 * then sends, with blocking sends, to v + j k^i for the digits i below that
 * one, the largest i first, j = 1 .. k-1. */
static sc_err_t knomial(sc_comm_t *comm, void *buf, size_t m, int root, int k)
{
    int p = comm->size, rank = comm->rank, rel = (rank - root + p) % p, mask = 1;
    sc_err_t err = SC_OK;
    for (; mask < p; mask *= k)
        if (rel % (k * mask)) {
            int src = (rel / (k * mask) * (k * mask) + root) % p;
            err = sc_recv(comm, buf, m, src, SC_TAG_BCAST);
            break;
        }
    for (mask /= k; mask > 0 && !err; mask /= k)
        for (int j = 1; j < k && !err; j++)
            if (rel + mask * j < p)
                err = sc_send(comm, buf, m, (rank + mask * j) % p, SC_TAG_BCAST);
    return err;
}

/* Every rank of the node but its leader hands `m` bytes to the leader,
 * which takes them in local order into slots of `into` (m bytes apart;
 * NULL: empty messages); shared_mem gather of ch3_shmem_coll.c:324-416 and
 * 419-461. */
static sc_err_t node_gather(sc_subcomm_t *node, const void *mine, char *into, size_t m)
{
    sc_comm_t *c = &node->comm;
    sc_err_t err = SC_OK;
    if (c->rank != 0)
        return sc_send(c, mine, m, 0, SC_TAG_REDUCE);
    for (int i = 1; i < c->size && !err; i++)
        err = sc_recv(c, into ? into + (size_t)(i - 1) * m : NULL, m, i, SC_TAG_REDUCE);
    return err;
}

/* The leader hands `m` bytes to every other rank of the node in local order
 * (ch3_shmem_coll.c:464-506; the copies out of bcast's shared buffer). */
static sc_err_t node_release(sc_subcomm_t *node, void *buf, size_t m)
{
    sc_comm_t *c = &node->comm;
    sc_err_t err = SC_OK;
    if (c->rank != 0)
        return sc_recv(c, buf, m, 0, SC_TAG_BCAST);
    for (int i = 1; i < c->size && !err; i++)
        err = sc_send(c, buf, m, i, SC_TAG_BCAST);
    return err;
}

/* MPI_Barrier (src/mpi/coll/barrier.c:406-447): the node's ranks check in
 * with their leader, the leaders run MPIR_Barrier (dissemination) if there
 * are several nodes, the leader releases its node. */
static sc_err_t barrier_steps(sc_comm_t *comm, sc_smp_t *smp, const sc_coll_args_t *args)
{
    (void)comm;
    sc_err_t err = SC_OK;
    if (smp->nnode > 1)
        err = node_gather(&smp->node, NULL, NULL, 0);
    if (!err && sc_smp_is_leader(smp) && smp->nroots > 1)
        err = sc_barrier_dissemination(&smp->leaders.comm, args);
    if (!err && smp->nnode > 1)
        err = node_release(&smp->node, NULL, 0);
    return err;
}

sc_err_t sc_barrier_mv2_shmem(sc_comm_t *comm, const sc_coll_args_t *args)
{
    return sc_smp_run(comm, args, sc_barrier_dissemination, barrier_steps);
}

/* knomial_2level_Bcast (src/mpi/coll/bcast.c:1143-1298): a root that is
 * not its node's leader sends it the message; the leaders run a k-nomial
 * tree from the root's leader, then every node one from its leader (the
 * root's node too: the root gets its message again). */
static sc_err_t knomial_flat(sc_comm_t *comm, const sc_coll_args_t *args)
{
    return knomial(comm, args->recvbuf, args->bytes, args->root, SC_MV2_KNOMIAL_RADIX);
}

static sc_err_t knomial_steps(sc_comm_t *comm, sc_smp_t *smp, const sc_coll_args_t *args)
{
    int k = SC_MV2_KNOMIAL_RADIX, rn = smp->node_of_rank[args->root];
    size_t m = args->bytes;
    sc_err_t err = sc_smp_root_to_leader(comm, smp, args->recvbuf, m, args->root);
    if (!err && sc_smp_is_leader(smp) && smp->nroots > 1)
        err = knomial(&smp->leaders.comm, args->recvbuf, m, rn, k);
    if (!err && smp->nnode > 1)
        err = knomial(&smp->node.comm, args->recvbuf, m, 0, k);
    return err;
}

sc_err_t sc_bcast_mv2_knomial(sc_comm_t *comm, const sc_coll_args_t *args)
{
    return sc_smp_run_bcast(comm, args, knomial_flat, knomial_steps);
}

/* intra_shmem_Bcast_Large (src/mpi/coll/bcast.c:1312-1575): the root puts
 * the message in its node's shared buffer (here: sends it to its leader),
 * MPIR_Barrier on every node, the leaders scatter it (binomial) and gather
 * it (ring) as MPIR_Bcast's long-message algorithm does, every rank copies
 * it out of its node's buffer (here: the leader sends it to each in turn,
 * after the ring rather than chunk by chunk), MPIR_Barrier on every node. */
static sc_err_t shmem_bcast_steps(sc_comm_t *comm, sc_smp_t *smp, const sc_coll_args_t *args)
{
    size_t m = args->bytes;
    sc_coll_args_t a = *args;
    sc_err_t err = sc_smp_root_to_leader(comm, smp, args->recvbuf, m, args->root);
    if (!err && smp->nnode > 1)
        err = sc_barrier_dissemination(&smp->node.comm, args);
    a.root = smp->node_of_rank[args->root];
    if (!err && sc_smp_is_leader(smp) && smp->nroots > 1)
        err = sc_bcast_scatter_allgather(&smp->leaders.comm, &a);
    if (!err && smp->nnode > 1)
        err = node_release(&smp->node, args->recvbuf, m);
    if (!err && smp->nnode > 1)
        err = sc_barrier_dissemination(&smp->node.comm, args);
    return err;
}

sc_err_t sc_bcast_mv2_shmem(sc_comm_t *comm, const sc_coll_args_t *args)
{
    return sc_smp_run_bcast(comm, args, sc_bcast_scatter_allgather, shmem_bcast_steps);
}

/* The leader's accumulator: its own vector combined, in local order, with
 * the vectors of the other ranks of its node (allreduce.c:807-826,
 * reduce.c:961-984: it waits for all of them, then combines). */
static sc_err_t node_reduce(sc_comm_t *comm, sc_smp_t *smp, const sc_coll_args_t *args,
                            char *acc)
{
    size_t m = args->bytes, n = sc_vector_elems(args);
    sc_span_t all = {0, n};
    if (sc_smp_is_leader(smp))
        sc_buf_copy(comm, acc, args->sendbuf, m);
    if (smp->nnode < 2)
        return SC_OK;
    if (!sc_smp_is_leader(smp))
        return node_gather(&smp->node, args->sendbuf, NULL, m);
    char *slots = NULL;
    sc_err_t err = sc_vector_alloc(comm, args, n * (size_t)(smp->nnode - 1), &slots);
    if (!err)
        err = node_gather(&smp->node, NULL, slots, m);
    for (int i = 1; i < smp->nnode && !err; i++)
        err = sc_vector_combine(comm, args, acc, slots + (size_t)(i - 1) * m, all);
    if (slots)
        sc_buf_free(comm, slots);
    return err;
}

/* MPI_Allreduce's shared-memory path (src/mpi/coll/allreduce.c:777-855):
 * each node reduced at its leader, MPIR_Allreduce among the leaders,
 * MPIR_Bcast from the leader on each node. */
static sc_err_t node_reduce_in_place(sc_comm_t *comm, sc_smp_t *smp, const sc_coll_args_t *args)
{
    return node_reduce(comm, smp, args, args->recvbuf);
}

static sc_err_t allreduce_steps(sc_comm_t *comm, sc_smp_t *smp, const sc_coll_args_t *args)
{
    return sc_smp_allreduce_steps(comm, smp, args, node_reduce_in_place, mv2_bcast_flat);
}

sc_err_t sc_allreduce_mv2_shmem(sc_comm_t *comm, const sc_coll_args_t *args)
{
    return sc_smp_run_reduction(comm, args, sc_allreduce_mpich_flat, allreduce_steps);
}

/* MPI_Reduce's shared-memory path (src/mpi/coll/reduce.c:929-1047): each
 * node reduced at its leader, MPIR_Reduce among the leaders to the root's
 * node's leader, which sends the result to the root if that is another
 * rank. */
static sc_err_t reduce_steps(sc_comm_t *comm, sc_smp_t *smp, const sc_coll_args_t *args)
{
    size_t m = args->bytes;
    int root = args->root, rn = smp->node_of_rank[root], rl = smp->local_index[root];
    int leader = sc_smp_is_leader(smp), on_root_node = smp->my_root_index == rn;
    char *node_sum = leader ? sc_buf_alloc(comm, m) : NULL;
    char *inter = leader ? sc_buf_alloc(comm, m) : NULL;
    sc_err_t err = SC_OK;
    if (leader && (!node_sum || !inter))
        err = sc_error(SC_ERR_RUN, "rank %d: out of memory", comm->rank);
    if (!err)
        err = node_reduce(comm, smp, args, node_sum);
    if (!err && leader && smp->nroots > 1) {
        sc_coll_args_t a = *args;
        a.root = rn;
        a.sendbuf = node_sum;
        a.recvbuf = inter;
        err = sc_reduce_mpich_flat(&smp->leaders.comm, &a);
    } else if (!err && leader) {
        sc_buf_copy(comm, inter, node_sum, m);
    }
    if (!err && on_root_node) {
        if (leader && rl == 0)
            sc_buf_copy(comm, args->recvbuf, inter, m);
        else if (leader)
            err = sc_send(&smp->node.comm, inter, m, rl, SC_TAG_REDUCE);
        else if (comm->rank == root)
            err = sc_recv(&smp->node.comm, args->recvbuf, m, 0, SC_TAG_REDUCE);
    }
    if (node_sum)
        sc_buf_free(comm, node_sum);
    if (inter)
        sc_buf_free(comm, inter);
    return err;
}

sc_err_t sc_reduce_mv2_shmem(sc_comm_t *comm, const sc_coll_args_t *args)
{
    return sc_smp_run_reduction(comm, args, sc_reduce_mpich_flat, reduce_steps);
}
