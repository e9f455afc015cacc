/* MPICH's SMP-aware collectives: the flat algorithms run on the node
 * communicator and on the node-leader communicator (algorithms/subcomm.h).
 * MPICH2 1.2.1 uses them by default (configure --enable-smpcoll defaults
 * to yes): MPI_Barrier, MPIR_SMP_Bcast, MPI_Allreduce and MPI_Reduce in
 * src/mpi/coll/{barrier,bcast,allreduce,reduce}.c; MPICH 3.0 to 3.3 do the
 * same with their default CVARs. On a communicator whose ranks are each on
 * a node of their own, MPICH builds no hierarchy and runs flat.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "smp.h"

#include <stdlib.h>

#include "algorithms/mpich/choices.h"
#include "../collectives.h"
#include "../reduce/vector.h"

/* Contexts of the node and leader communicators (tags apart from the
 * whole communicator's). */
enum { NODE_CONTEXT = 1 };

static int is_pow2(int p)
{
    return (p & (p - 1)) == 0;
}

sc_err_t sc_smp_bcast_chosen(sc_comm_t *comm, const sc_coll_args_t *args, sc_mpich_bcast_t choice)
{
    switch (choice) {
    case SC_MPICH_BCAST_BINOMIAL:
        return sc_bcast_binomial(comm, args);
    case SC_MPICH_BCAST_SCATTER_RD:
        return sc_bcast_scatter_rd(comm, args);
    case SC_MPICH_BCAST_SCATTER_RING:
        break;
    }
    return sc_bcast_scatter_allgather(comm, args);
}

/* MPICH's flat MPIR_Bcast, MPIR_Allreduce, MPIR_Reduce: the choice by size
 * and process count (models/mpich.h), run. */
static sc_err_t mpich_bcast(sc_comm_t *comm, const sc_coll_args_t *args)
{
    return sc_smp_bcast_chosen(comm, args, sc_mpich_bcast_choice(args->bytes, comm->size));
}

sc_err_t sc_allreduce_mpich_flat(sc_comm_t *comm, const sc_coll_args_t *args)
{
    if (sc_mpich_allreduce_choice(args->bytes, sc_vector_elems(args), comm->size) ==
        SC_MPICH_ALLREDUCE_RD)
        return sc_allreduce_rd(comm, args);
    return sc_allreduce_rabenseifner(comm, args);
}

sc_err_t sc_reduce_mpich_flat(sc_comm_t *comm, const sc_coll_args_t *args)
{
    if (sc_mpich_reduce_choice(args->bytes, sc_vector_elems(args), comm->size) ==
        SC_MPICH_REDUCE_RABENSEIFNER)
        return sc_reduce_rabenseifner(comm, args);
    return sc_reduce_mst(comm, args);
}

sc_err_t sc_smp_run(sc_comm_t *comm, const sc_coll_args_t *args, sc_coll_fn flat,
                    sc_smp_steps_fn steps)
{
    sc_smp_t smp;
    sc_err_t err = sc_smp_init(&smp, comm, NODE_CONTEXT);
    if (err)
        return err;
    err = smp.node_aware ? steps(comm, &smp, args) : flat(comm, args);
    sc_smp_destroy(&smp);
    return err;
}

sc_err_t sc_smp_run_bcast(sc_comm_t *comm, const sc_coll_args_t *args, sc_coll_fn flat,
                          sc_smp_steps_fn steps)
{
    if (args->bytes == 0 || comm->size == 1)
        return SC_OK;
    return sc_smp_run(comm, args, flat, steps);
}

sc_err_t sc_smp_run_reduction(sc_comm_t *comm, const sc_coll_args_t *args, sc_coll_fn flat,
                              sc_smp_steps_fn steps)
{
    if (args->bytes == 0 || comm->size == 1) {
        sc_vector_start(comm, args);
        return SC_OK;
    }
    return sc_smp_run(comm, args, flat, steps);
}

sc_err_t sc_smp_root_to_leader(sc_comm_t *comm, sc_smp_t *smp, void *buf, size_t m, int root)
{
    int rl = smp->local_index[root];
    if (smp->my_root_index != smp->node_of_rank[root] || rl == 0)
        return SC_OK;
    if (comm->rank == root)
        return sc_send(&smp->node.comm, buf, m, 0, SC_TAG_BCAST);
    if (sc_smp_is_leader(smp))
        return sc_recv(&smp->node.comm, buf, m, rl, SC_TAG_BCAST);
    return SC_OK;
}

sc_err_t sc_smp_allreduce_steps(sc_comm_t *comm, sc_smp_t *smp, const sc_coll_args_t *args,
                                sc_smp_steps_fn node_reduce, sc_coll_fn node_bcast)
{
    sc_coll_args_t a = *args;
    a.root = 0;
    sc_err_t err = node_reduce(comm, smp, args);
    a.sendbuf = args->recvbuf; /* in place from here on */
    if (!err && sc_smp_is_leader(smp) && smp->nroots > 1)
        err = sc_allreduce_mpich_flat(&smp->leaders.comm, &a);
    if (!err && smp->nnode > 1)
        err = node_bcast(&smp->node.comm, &a);
    return err;
}

/* Barrier on the node, among the leaders, then a 1-byte binomial broadcast
 * on the node from its leader. */
static sc_err_t barrier_steps(sc_comm_t *comm, sc_smp_t *smp, const sc_coll_args_t *args)
{
    sc_err_t err = SC_OK;
    sc_coll_args_t one = *args;
    char *byte = sc_buf_alloc(comm, 1);
    one.recvbuf = byte;
    one.bytes = 1;
    one.root = 0;
    if (!byte)
        err = sc_error(SC_ERR_RUN, "rank %d: out of memory", comm->rank);
    if (!err && smp->nnode > 1)
        err = sc_barrier_dissemination(&smp->node.comm, args);
    if (!err && sc_smp_is_leader(smp) && smp->nroots > 1)
        err = sc_barrier_dissemination(&smp->leaders.comm, args);
    if (!err && smp->nnode > 1)
        err = sc_bcast_binomial(&smp->node.comm, &one);
    if (byte)
        sc_buf_free(comm, byte);
    return err;
}

sc_err_t sc_barrier_mpich_smp(sc_comm_t *comm, const sc_coll_args_t *args)
{
    return sc_smp_run(comm, args, sc_barrier_dissemination, barrier_steps);
}

/* MPIR_SMP_Bcast. Short messages: the root hands the message to its node's
 * leader, the leaders run a binomial broadcast, then every node one from its
 * leader (the root's node too: MPICH has no guard there, so a root that is
 * not its node's leader gets its own message back). Medium messages on a
 * power of two: the root's node first, the leaders by scatter and
 * allgather, the other nodes from their leaders. Long messages: flat
 * scatter + ring allgather. */
static sc_err_t bcast_steps(sc_comm_t *comm, sc_smp_t *smp, const sc_coll_args_t *args)
{
    int p = comm->size;
    size_t m = args->bytes;
    int root = args->root;
    int rn = smp->node_of_rank[root];
    int rl = smp->local_index[root];
    int on_root_node = smp->my_root_index == rn;
    int leader = sc_smp_is_leader(smp);
    sc_coll_args_t a = *args;
    sc_err_t err = SC_OK;
    if (m < SC_MPICH_BCAST_SHORT || p < SC_MPICH_BCAST_MIN_PROCS) {
        err = sc_smp_root_to_leader(comm, smp, args->recvbuf, m, root);
        a.root = rn;
        if (!err && leader && smp->nroots > 1)
            err = sc_bcast_binomial(&smp->leaders.comm, &a);
        a.root = 0;
        if (!err && smp->nnode > 1)
            err = sc_bcast_binomial(&smp->node.comm, &a);
    } else if (m < SC_MPICH_BCAST_LONG && is_pow2(p)) {
        a.root = rl;
        if (on_root_node && rl != 0)
            err = sc_bcast_binomial(&smp->node.comm, &a);
        a.root = rn;
        if (!err && leader && smp->nroots > 1)
            err = is_pow2(smp->nroots) ? sc_bcast_scatter_rd(&smp->leaders.comm, &a)
                                       : sc_bcast_scatter_allgather(&smp->leaders.comm, &a);
        a.root = 0;
        if (!err && smp->nnode > 1 && !(on_root_node && rl != 0))
            err = sc_bcast_binomial(&smp->node.comm, &a);
    } else {
        err = sc_bcast_scatter_allgather(comm, args);
    }
    return err;
}

sc_err_t sc_bcast_mpich_smp(sc_comm_t *comm, const sc_coll_args_t *args)
{
    return sc_smp_run_bcast(comm, args, mpich_bcast, bcast_steps);
}

/* Reduce to each node's leader, allreduce among the leaders, broadcast on
 * each node: MPICH's flat choices at each step, for any size (the op being
 * commutative, as every operation simcoll has). */
static sc_err_t node_reduce(sc_comm_t *comm, sc_smp_t *smp, const sc_coll_args_t *args)
{
    sc_coll_args_t a = *args;
    a.root = 0;
    if (smp->nnode > 1)
        return sc_reduce_mpich_flat(&smp->node.comm, &a);
    sc_vector_start(comm, args);
    return SC_OK;
}

static sc_err_t allreduce_steps(sc_comm_t *comm, sc_smp_t *smp, const sc_coll_args_t *args)
{
    return sc_smp_allreduce_steps(comm, smp, args, node_reduce, mpich_bcast);
}

sc_err_t sc_allreduce_mpich_smp(sc_comm_t *comm, const sc_coll_args_t *args)
{
    return sc_smp_run_reduction(comm, args, sc_allreduce_mpich_flat, allreduce_steps);
}

/* Reduce to the leader on every node but the root's, reduce among the
 * leaders to the root's node's leader, then on the root's node to the root,
 * the leader contributing what the leaders reduced. */
static sc_err_t reduce_steps(sc_comm_t *comm, sc_smp_t *smp, const sc_coll_args_t *args)
{
    size_t m = args->bytes;
    int root = args->root, rn = smp->node_of_rank[root];
    int on_root_node = smp->my_root_index == rn, leader = sc_smp_is_leader(smp);
    char *node_sum = sc_buf_alloc(comm, m), *inter = sc_buf_alloc(comm, m);
    sc_err_t err = SC_OK;
    if (!node_sum || !inter)
        err = sc_error(SC_ERR_RUN, "rank %d: out of memory", comm->rank);
    sc_coll_args_t a = *args;
    /* 1. every other node to its leader */
    if (!err && !on_root_node) {
        a.root = 0;
        a.recvbuf = node_sum;
        if (smp->nnode > 1)
            err = sc_reduce_mpich_flat(&smp->node.comm, &a);
        else
            sc_buf_copy(comm, node_sum, args->sendbuf, m);
    }
    /* 2. the leaders to the root's node's leader */
    if (!err && leader && smp->nroots > 1) {
        a.root = rn;
        a.sendbuf = on_root_node ? args->sendbuf : node_sum;
        a.recvbuf = inter;
        err = sc_reduce_mpich_flat(&smp->leaders.comm, &a);
    } else if (!err && leader && on_root_node) {
        sc_buf_copy(comm, inter, args->sendbuf, m);
    }
    /* 3. the root's node to the root */
    if (!err && on_root_node) {
        a.root = smp->local_index[root];
        a.sendbuf = leader ? inter : args->sendbuf;
        a.recvbuf = args->recvbuf;
        if (smp->nnode > 1)
            err = sc_reduce_mpich_flat(&smp->node.comm, &a);
        else
            sc_buf_copy(comm, args->recvbuf, inter, m);
    }
    if (node_sum)
        sc_buf_free(comm, node_sum);
    if (inter)
        sc_buf_free(comm, inter);
    return err;
}

sc_err_t sc_reduce_mpich_smp(sc_comm_t *comm, const sc_coll_args_t *args)
{
    return sc_smp_run_reduction(comm, args, sc_reduce_mpich_flat, reduce_steps);
}
