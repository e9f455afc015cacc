/* Open MPI 5.0's hierarchical broadcast and scatter, coll/han (ompi/mca/coll/han/
 * coll_han_bcast.c, mca_coll_han_bcast_intra, tag v5.0.5), which Open MPI
 * 5 prefers to coll/tuned (priority 35 against 30) on a communicator over
 * several nodes holding as many ranks each:
 *   - the message goes in segments of 64 KiB (coll_han_bcast_segsize);
 *   - each segment first among the ranks that sit on their nodes where the
 *     root sits on its own (han's "up" communicator, the ranks of the
 *     root's local rank), by libnbc's ibcast (coll_han_bcast_up_module 0:
 *     nbc_ibcast.c's choice, linear up to 4 ranks, binomial above);
 *   - then on each node from that rank (the "low" communicator), by
 *     coll/tuned's broadcast (coll_han_bcast_low_module 0): its fixed
 *     rules, or the algorithm coll_tuned_bcast_algorithm forces (the
 *     -linear, -chain, -bintree variants);
 *   - a segment's up level follows the low level of the one before.
 * On one node, or nodes of unequal counts, han steps aside and tuned's
 * flat broadcast runs (here also on nodes of one rank each, where han
 * would run with nothing to do inside the nodes). Two simplifications:
 * han posts the up level of segment i + 1 before the low level of segment
 * i and waits for it after (its task t1), so the two overlap where here
 * they follow each other (on ORFEO's two nodes a 64 KiB segment takes
 * 7.1 us between the leaders against 99 us on a node of 64 ranks: the
 * overlap would save at most about 7% of a broadcast of several
 * segments); and the up level of segments of 64 KiB and more stays
 * binomial (libnbc switches to a chain of 8 KiB pieces there), which
 * changes nothing where it is one message (two nodes). With the levels in
 * sequence, the cost model (models/openmpi.c) is the same steps on the
 * subcommunicators, exact without contention.
 * The scatter (coll_han_scatter.c, mca_coll_han_scatter_intra, han's
 * default for it) in one piece: the root sends each node's blocks, in the
 * order of the ranks there, to the rank of its local rank on that node, by
 * libnbc's iscatter (coll_han_scatter_up_module 0: nbc_iscatter.c, the
 * root isends to every other rank, as scatter-ompi-linear-nb; on two nodes
 * one message), then each node scatters from that rank by coll/tuned
 * (coll_han_scatter_low_module 0): its fixed rules, or the algorithm
 * coll_tuned_scatter_algorithm forces. The same condition for han to run.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include <stdlib.h>

#include "../collectives.h"
#include "../subcomm.h"
#include "openmpi.h"

/* The node communicators (HAN_CONTEXT, + 1) and the up level (+ 2). */
enum { HAN_CONTEXT = 5, HAN_SEGMENT = 65536, HAN_LINEAR_UP_TO = 4 };

/* The broadcast or scatter inside each node, over the node's ranks. */
typedef sc_err_t (*low_fn)(sc_comm_t *comm, const sc_coll_args_t *args);

/* Whether han runs on the ranks smp describes: more than one node, nodes
 * of as many ranks each, some of more than one; -1 out of memory. */
static int han_runs(const sc_smp_t *smp, int p)
{
    int nnodes = smp->nroots, *count = calloc((size_t)nnodes, sizeof *count);
    if (!count)
        return -1;
    for (int r = 0; r < p; r++)
        count[smp->node_of_rank[r]]++;
    int even = smp->node_aware && nnodes > 1;
    for (int k = 1; k < nnodes && even; k++)
        even = count[k] == count[0];
    free(count);
    return even;
}

/* han's up level: on each node the rank of the root's local rank, nodes
 * in order; members[] has room for one per node. */
static void up_members_of(const sc_smp_t *smp, int p, int root, int *members)
{
    for (int r = 0; r < p; r++)
        if (smp->local_index[r] == smp->local_index[root])
            members[smp->node_of_rank[r]] = r;
}

static sc_err_t tuned_rules(sc_comm_t *comm, const sc_coll_args_t *args)
{
    return sc_bcast_ompi_tuned(comm, args, 1);
}

static sc_err_t han_bcast(sc_comm_t *comm, const sc_coll_args_t *args, low_fn low)
{
    if (args->bytes == 0 || comm->size == 1)
        return SC_OK;
    sc_smp_t smp;
    sc_err_t err = sc_smp_init(&smp, comm, HAN_CONTEXT);
    if (err)
        return err;
    int p = comm->size, nnodes = smp.nroots, root = args->root;
    int *up_members = malloc((size_t)nnodes * sizeof(int)), even = han_runs(&smp, p);
    if (!up_members || even < 0) {
        err = sc_error(SC_ERR_RUN, "rank %d: out of memory for han's levels", comm->rank);
        goto done;
    }
    if (!even) { /* han steps aside: tuned's flat broadcast */
        err = low(comm, args);
        goto done;
    }
    int root_local = smp.local_index[root];
    up_members_of(&smp, p, root, up_members);
    sc_subcomm_t up;
    int in_up = smp.local_index[comm->rank] == root_local;
    if (in_up)
        sc_subcomm_init(&up, comm, up_members, nnodes, smp.node_of_rank[comm->rank],
                        HAN_CONTEXT + 2);
    size_t m = args->bytes;
    for (size_t at = 0; at < m && !err; at += HAN_SEGMENT) {
        sc_coll_args_t a = *args;
        a.recvbuf = (char *)args->recvbuf + at;
        a.bytes = m - at < HAN_SEGMENT ? m - at : HAN_SEGMENT;
        /* up: libnbc's ibcast, linear up to 4 ranks, binomial above */
        a.root = smp.node_of_rank[root];
        if (in_up)
            err = nnodes <= HAN_LINEAR_UP_TO ? sc_bcast_ompi_linear(&up.comm, &a)
                                             : sc_bcast_ompi_binomial(&up.comm, &a);
        a.root = root_local;
        if (!err && smp.node.comm.size > 1)
            err = low(&smp.node.comm, &a);
    }
done:
    free(up_members);
    sc_smp_destroy(&smp);
    return err;
}

static sc_err_t han_scatter(sc_comm_t *comm, const sc_coll_args_t *args, low_fn low)
{
    if (args->bytes == 0 || comm->size == 1)
        return low(comm, args); /* one rank: its own block, copied */
    sc_smp_t smp;
    sc_err_t err = sc_smp_init(&smp, comm, HAN_CONTEXT);
    if (err)
        return err;
    int p = comm->size, nnodes = smp.nroots, root = args->root, rank = comm->rank;
    int *up_members = malloc((size_t)nnodes * sizeof(int)), even = han_runs(&smp, p);
    char *node_blocks = NULL, *ordered = NULL;
    if (!up_members || even < 0) {
        err = sc_error(SC_ERR_RUN, "rank %d: out of memory for han's levels", rank);
        goto done;
    }
    if (!even) { /* han steps aside: tuned's flat scatter */
        err = low(comm, args);
        goto done;
    }
    size_t m = args->bytes, c = (size_t)(p / nnodes);
    sc_coll_args_t a = *args;
    if (smp.local_index[rank] == smp.local_index[root]) {
        /* up: the root's blocks ordered by node, then by rank on it (han
         * copies them so unless ranks were mapped by core) */
        up_members_of(&smp, p, root, up_members);
        node_blocks = sc_buf_alloc(comm, c * m);
        if (rank == root && node_blocks && (ordered = sc_buf_alloc(comm, (size_t)p * m)))
            for (int r = 0; r < p; r++)
                sc_buf_copy(comm,
                            ordered +
                                ((size_t)smp.node_of_rank[r] * c + (size_t)smp.local_index[r]) * m,
                            (const char *)args->sendbuf + (size_t)r * m, m);
        if (!node_blocks || (rank == root && !ordered)) {
            err = sc_error(SC_ERR_RUN, "rank %d: out of memory for han's blocks", rank);
            goto done;
        }
        sc_subcomm_t up;
        sc_subcomm_init(&up, comm, up_members, nnodes, smp.node_of_rank[rank], HAN_CONTEXT + 2);
        a.sendbuf = ordered;
        a.recvbuf = node_blocks;
        a.bytes = c * m;
        a.root = smp.node_of_rank[root];
        err = sc_scatter_ompi_linear_nb(&up.comm, &a);
    }
    a.sendbuf = node_blocks;
    a.recvbuf = args->recvbuf;
    a.bytes = m;
    a.root = smp.local_index[root];
    if (!err)
        err = low(&smp.node.comm, &a);
done:
    if (ordered)
        sc_buf_free(comm, ordered);
    if (node_blocks)
        sc_buf_free(comm, node_blocks);
    free(up_members);
    sc_smp_destroy(&smp);
    return err;
}

sc_err_t sc_scatter_ompi_han(sc_comm_t *comm, const sc_coll_args_t *args)
{
    return han_scatter(comm, args, sc_scatter_ompi_tuned);
}

sc_err_t sc_scatter_ompi_han_linear(sc_comm_t *comm, const sc_coll_args_t *args)
{
    return han_scatter(comm, args, sc_scatter_ompi_linear);
}

sc_err_t sc_scatter_ompi_han_linear_nb(sc_comm_t *comm, const sc_coll_args_t *args)
{
    return han_scatter(comm, args, sc_scatter_ompi_linear_nb);
}

sc_err_t sc_scatter_ompi_han_binomial(sc_comm_t *comm, const sc_coll_args_t *args)
{
    return han_scatter(comm, args, sc_scatter_ompi_binomial);
}

sc_err_t sc_bcast_ompi_han(sc_comm_t *comm, const sc_coll_args_t *args)
{
    return han_bcast(comm, args, tuned_rules);
}

sc_err_t sc_bcast_ompi_han_linear(sc_comm_t *comm, const sc_coll_args_t *args)
{
    return han_bcast(comm, args, sc_bcast_ompi_linear);
}

sc_err_t sc_bcast_ompi_han_chain(sc_comm_t *comm, const sc_coll_args_t *args)
{
    return han_bcast(comm, args, sc_bcast_ompi_chain);
}

sc_err_t sc_bcast_ompi_han_bintree(sc_comm_t *comm, const sc_coll_args_t *args)
{
    return han_bcast(comm, args, sc_bcast_ompi_bintree);
}
