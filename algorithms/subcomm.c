/* Communicators over some ranks of another, and the node communicators
 * SMP-aware algorithms build from where ranks run.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "subcomm.h"

#include <stdlib.h>

static sc_subcomm_t *sub_of(sc_comm_t *comm)
{
    return comm->impl;
}

static sc_err_t check_peer(const sc_comm_t *comm, int peer, const char *what)
{
    if (peer < 0 || peer >= comm->size)
        return sc_error(SC_ERR_RUN, "rank %d of a subcommunicator of %d: %s rank %d", comm->rank,
                        comm->size, what, peer);
    return SC_OK;
}

static sc_err_t sub_isend(sc_comm_t *comm, const void *buf, size_t bytes, int dst, int tag,
                          sc_request_t **req)
{
    sc_subcomm_t *sub = sub_of(comm);
    *req = NULL;
    sc_err_t err = check_peer(comm, dst, "send to");
    return err ? err
               : sc_isend(sub->parent, buf, bytes, sub->members[dst],
                          tag + sub->context * SC_SUBCOMM_TAGS, req);
}

/* A tag of the subcommunicator's context, on the parent. Any tag would
 * also match other contexts' messages: refused. */
static sc_err_t parent_tag(const sc_comm_t *comm, int tag, int *out)
{
    if (tag == SC_ANY_TAG)
        return sc_error(SC_ERR_RUN, "rank %d of a subcommunicator: receives from any tag "
                        "are not supported on subcommunicators", comm->rank);
    *out = tag + sub_of((sc_comm_t *)comm)->context * SC_SUBCOMM_TAGS;
    return SC_OK;
}

/* The subcommunicator rank of parent rank r (r itself if negative). */
static int member_index(const sc_subcomm_t *sub, int r)
{
    for (int i = 0; r >= 0 && i < sub->comm.size; i++)
        if (sub->members[i] == r)
            return i;
    return r;
}

static sc_err_t sub_irecv(sc_comm_t *comm, void *buf, size_t bytes, int src, int tag,
                          sc_request_t **req)
{
    sc_subcomm_t *sub = sub_of(comm);
    *req = NULL;
    int ptag = 0;
    sc_err_t err = src == SC_ANY_SOURCE ? SC_OK : check_peer(comm, src, "receive from");
    if (!err)
        err = parent_tag(comm, tag, &ptag);
    return err ? err
               : sc_irecv(sub->parent, buf, bytes,
                          src == SC_ANY_SOURCE ? SC_ANY_SOURCE : sub->members[src], ptag, req);
}

static sc_err_t sub_waitany(sc_comm_t *comm, int count, sc_request_t **reqs, int *index,
                            int *source, int complete)
{
    sc_subcomm_t *sub = sub_of(comm);
    sc_err_t err = complete ? sc_waitany(sub->parent, count, reqs, index, source)
                            : sc_wait_ready(sub->parent, count, reqs, index);
    if (source)
        *source = member_index(sub, *source);
    return err;
}

static sc_err_t sub_test(sc_comm_t *comm, sc_request_t **req, int *flag)
{
    return sc_test(sub_of(comm)->parent, req, flag);
}

static sc_err_t sub_cancel(sc_comm_t *comm, sc_request_t **req, int *cancelled)
{
    return sc_cancel(sub_of(comm)->parent, req, cancelled);
}

static sc_err_t sub_request_free(sc_comm_t *comm, sc_request_t **req)
{
    return sc_request_free(sub_of(comm)->parent, req);
}

static sc_err_t sub_iprobe(sc_comm_t *comm, int src, int tag, int *flag, int *source,
                           size_t *bytes)
{
    sc_subcomm_t *sub = sub_of(comm);
    int ptag = 0;
    sc_err_t err = src == SC_ANY_SOURCE ? SC_OK : check_peer(comm, src, "probe for");
    if (!err)
        err = parent_tag(comm, tag, &ptag);
    if (!err)
        err = sc_iprobe(sub->parent, src == SC_ANY_SOURCE ? SC_ANY_SOURCE : sub->members[src],
                        ptag, flag, source, bytes);
    if (!err && source && *flag)
        *source = member_index(sub, *source);
    return err;
}

static sc_err_t sub_waitall(sc_comm_t *comm, int count, sc_request_t **reqs)
{
    return sc_waitall(sub_of(comm)->parent, count, reqs);
}

/* The parent combines at the element size of the subcommunicator's call. */
static sc_err_t sub_reduce_time(sc_comm_t *comm, size_t bytes)
{
    sc_comm_t *parent = sub_of(comm)->parent;
    if (comm->elem_size)
        parent->elem_size = comm->elem_size;
    return sc_reduce_time(parent, bytes);
}

/* A trace's call on a communicator it made: the rank enters it as any. */
static sc_err_t sub_enter_call(sc_comm_t *comm)
{
    return sc_enter_call(sub_of(comm)->parent);
}

static const sc_transport_t sub_transport = {
    .isend = sub_isend,
    .irecv = sub_irecv,
    .waitall = sub_waitall,
    .reduce_time = sub_reduce_time,
    .enter_call = sub_enter_call,
    .waitany = sub_waitany,
    .test = sub_test,
    .cancel = sub_cancel,
    .request_free = sub_request_free,
    .iprobe = sub_iprobe,
};

void sc_subcomm_init(sc_subcomm_t *sub, sc_comm_t *parent, const int *members, int n, int me,
                     int context)
{
    *sub = (sc_subcomm_t){.parent = parent, .members = members, .context = context};
    sub->comm = (sc_comm_t){.rank = me, .size = n, .transport = &sub_transport, .impl = sub,
                            .scratch = parent->scratch};
}

sc_err_t sc_smp_init(sc_smp_t *smp, sc_comm_t *comm, int context)
{
    int p = comm->size;
    *smp = (sc_smp_t){0};
    if (!comm->node_of)
        return SC_OK; /* nodes not known: flat */
    comm->read_nodes = 1;
    smp->node_of_rank = malloc((size_t)p * sizeof *smp->node_of_rank);
    smp->local_index = malloc((size_t)p * sizeof *smp->local_index);
    smp->roots = malloc((size_t)p * sizeof *smp->roots);
    smp->node_ranks = malloc((size_t)p * sizeof *smp->node_ranks);
    /* by node number: its index among the roots (-1: not seen yet) and its
     * count of ranks so far */
    int max_node = 0;
    for (int r = 0; r < p; r++)
        if (comm->node_of[r] > max_node)
            max_node = comm->node_of[r];
    int *root_index = malloc(((size_t)max_node + 1) * sizeof *root_index);
    int *count = calloc((size_t)max_node + 1, sizeof *count);
    if (!smp->node_of_rank || !smp->local_index || !smp->roots || !smp->node_ranks ||
        !root_index || !count) {
        free(root_index);
        free(count);
        sc_smp_destroy(smp);
        return sc_error(SC_ERR_RUN, "out of memory building node communicators");
    }
    for (int u = 0; u <= max_node; u++)
        root_index[u] = -1;
    int me = comm->rank, mine = comm->node_of[me];
    for (int r = 0; r < p; r++) {
        int u = comm->node_of[r];
        if (root_index[u] < 0) {
            root_index[u] = smp->nroots;
            smp->roots[smp->nroots++] = r;
        }
        smp->node_of_rank[r] = root_index[u];
        smp->local_index[r] = count[u]++;
        if (u == mine)
            smp->node_ranks[smp->nnode++] = r;
    }
    smp->my_node_index = smp->local_index[me];
    smp->my_root_index = smp->node_of_rank[me];
    /* Every rank on a node of its own: no hierarchy, as in MPICH. */
    smp->node_aware = smp->nroots < p;
    free(root_index);
    free(count);
    sc_subcomm_init(&smp->node, comm, smp->node_ranks, smp->nnode, smp->my_node_index, context);
    if (sc_smp_is_leader(smp))
        sc_subcomm_init(&smp->leaders, comm, smp->roots, smp->nroots, smp->my_root_index,
                        context + 1);
    return SC_OK;
}

void sc_smp_destroy(sc_smp_t *smp)
{
    sc_comm_release(&smp->node.comm);
    sc_comm_release(&smp->leaders.comm);
    free(smp->node_of_rank);
    free(smp->local_index);
    free(smp->roots);
    free(smp->node_ranks);
    *smp = (sc_smp_t){0};
}
