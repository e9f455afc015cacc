/* Communicators over some ranks of another, and the node communicators
 * SMP-aware algorithms build from where ranks run.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "subcomm.h"

#include <stdlib.h>
#include <string.h>

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

/* Where a communicator's ranks are, as every rank of it sees it: built
 * once from node_of and shared, not by each rank at each call (O(p) each:
 * at 4096 ranks, a program's SMP-aware allreduces spent 30% of the run
 * building it). A few are kept, those of communicators in use pinned. */
struct sc_node_layout {
    int size;
    int *node_of; /* a copy of what it was built from */
    int *node_of_rank, *local_index, *roots, nroots;
    int *first, *members; /* the ranks of node k (among the roots), in rank order:
                             members[first[k] .. first[k + 1]) */
    int users;            /* sc_smp_t holding it */
    int kept;             /* in `kept_layouts`; else freed by its last user */
};

enum { KEPT_LAYOUTS = 8 };
static sc_node_layout_t *kept_layouts[KEPT_LAYOUTS];
static int next_evicted;

static void layout_free(sc_node_layout_t *lay)
{
    if (!lay)
        return;
    free(lay->node_of);
    free(lay->node_of_rank);
    free(lay->local_index);
    free(lay->roots);
    free(lay->first);
    free(lay->members);
    free(lay);
}

static sc_node_layout_t *layout_build(const int *node_of, int p)
{
    sc_node_layout_t *lay = calloc(1, sizeof *lay);
    int max_node = 0;
    for (int r = 0; r < p; r++)
        if (node_of[r] > max_node)
            max_node = node_of[r];
    /* by node number: its index among the roots (-1: not seen yet) */
    int *root_index = malloc(((size_t)max_node + 1) * sizeof *root_index);
    if (lay) {
        lay->size = p;
        lay->node_of = malloc((size_t)p * sizeof *lay->node_of);
        lay->node_of_rank = malloc((size_t)p * sizeof *lay->node_of_rank);
        lay->local_index = malloc((size_t)p * sizeof *lay->local_index);
        lay->roots = malloc((size_t)p * sizeof *lay->roots);
        lay->first = calloc((size_t)p + 1, sizeof *lay->first);
        lay->members = malloc((size_t)p * sizeof *lay->members);
    }
    if (!lay || !root_index || !lay->node_of || !lay->node_of_rank || !lay->local_index ||
        !lay->roots || !lay->first || !lay->members) {
        free(root_index);
        layout_free(lay);
        return NULL;
    }
    memcpy(lay->node_of, node_of, (size_t)p * sizeof *node_of);
    for (int u = 0; u <= max_node; u++)
        root_index[u] = -1;
    for (int r = 0; r < p; r++) {
        int u = node_of[r];
        if (root_index[u] < 0) {
            root_index[u] = lay->nroots;
            lay->roots[lay->nroots++] = r;
        }
        int k = root_index[u];
        lay->node_of_rank[r] = k;
        lay->local_index[r] = lay->first[k + 1]++; /* counts node k's ranks so far */
    }
    for (int k = 0; k < lay->nroots; k++)
        lay->first[k + 1] += lay->first[k];
    for (int r = 0; r < p; r++)
        lay->members[lay->first[lay->node_of_rank[r]] + lay->local_index[r]] = r;
    free(root_index);
    return lay;
}

/* The layout of node_of's p ranks: a kept one if it was built from the same
 * nodes, else a new one, kept in place of one nobody uses if there is. */
static sc_node_layout_t *layout_of(const int *node_of, int p)
{
    for (int i = 0; i < KEPT_LAYOUTS; i++) {
        sc_node_layout_t *lay = kept_layouts[i];
        if (lay && lay->size == p && !memcmp(lay->node_of, node_of, (size_t)p * sizeof *node_of))
            return lay;
    }
    sc_node_layout_t *lay = layout_build(node_of, p);
    for (int n = 0; lay && n < KEPT_LAYOUTS; n++) {
        int i = (next_evicted + n) % KEPT_LAYOUTS;
        if (!kept_layouts[i] || !kept_layouts[i]->users) {
            layout_free(kept_layouts[i]);
            kept_layouts[i] = lay;
            lay->kept = 1;
            next_evicted = (i + 1) % KEPT_LAYOUTS;
            break;
        }
    }
    return lay;
}

sc_err_t sc_smp_init(sc_smp_t *smp, sc_comm_t *comm, int context)
{
    int p = comm->size;
    *smp = (sc_smp_t){0};
    if (!comm->node_of)
        return SC_OK; /* nodes not known: flat */
    comm->read_nodes = 1;
    sc_node_layout_t *lay = layout_of(comm->node_of, p);
    if (!lay)
        return sc_error(SC_ERR_RUN, "out of memory building node communicators");
    lay->users++;
    int me = comm->rank, k = lay->node_of_rank[me];
    smp->layout = lay;
    smp->node_of_rank = lay->node_of_rank;
    smp->local_index = lay->local_index;
    smp->roots = lay->roots;
    smp->nroots = lay->nroots;
    smp->node_ranks = lay->members + lay->first[k];
    smp->nnode = lay->first[k + 1] - lay->first[k];
    smp->my_node_index = lay->local_index[me];
    smp->my_root_index = k;
    /* Every rank on a node of its own: no hierarchy, as in MPICH. */
    smp->node_aware = smp->nroots < p;
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
    sc_node_layout_t *lay = smp->layout;
    if (lay && !--lay->users && !lay->kept)
        layout_free(lay);
    *smp = (sc_smp_t){0};
}
