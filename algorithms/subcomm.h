/* Communicators over some ranks of another, and the node communicators
 * SMP-aware algorithms build from where ranks run (as MPICH's
 * MPIR_Comm_commit does).
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef SC_SUBCOMM_H
#define SC_SUBCOMM_H

#include "p2p.h"

/* Rank i of the subcommunicator is rank members[i] of the parent. Its
 * messages carry their tag plus `context` * SC_SUBCOMM_TAGS, so that no two
 * subcommunicators match each other's messages (MPI separates them by a
 * context id). Algorithms run on sub->comm as on any communicator; it knows
 * nothing of nodes (node_of NULL), so SMP-aware algorithms run flat on it,
 * as MPICH's do on its node communicators. */
enum { SC_SUBCOMM_TAGS = 1000 };

typedef struct {
    sc_comm_t comm;
    sc_comm_t *parent;
    const int *members;
    int context;
} sc_subcomm_t;

/* members[0..n-1] are parent ranks, `me` this rank's index among them
 * (members[me] == parent->rank). `members` must outlive the subcommunicator. */
void sc_subcomm_init(sc_subcomm_t *sub, sc_comm_t *parent, const int *members, int n, int me,
                     int context);

/* What MPICH builds for a communicator whose ranks' nodes are known
 * (src/mpi/comm/commutil.c, MPIR_Comm_commit; the same from MPICH2 1.2.1
 * to 3.3):
 *   node   the ranks on this rank's node, in rank order;
 *   roots  the lowest rank of each node, nodes in the order of their lowest
 *          rank; only those ranks are members.
 * A communicator is node-aware unless every rank is on a node of its own
 * (or nodes are not known): then MPICH builds no hierarchy. */
typedef struct sc_node_layout sc_node_layout_t;
typedef struct {
    int node_aware;
    const int *node_ranks; /* this node's ranks; this rank is node_ranks[my_node_index] */
    int nnode;
    int my_node_index;
    const int *roots; /* one per node */
    int nroots;
    int my_root_index;       /* index of this rank's node among the roots */
    const int *node_of_rank; /* index among the roots of every rank's node */
    const int *local_index;  /* every rank's index on its node */
    sc_subcomm_t node;       /* over node_ranks */
    sc_subcomm_t leaders;    /* over roots; valid only on a node's lowest rank */
    sc_node_layout_t *layout; /* what the arrays above are of, shared (subcomm.c) */
} sc_smp_t;

/* Builds the node and root communicators of comm (contexts `context` and
 * `context` + 1). SC_ERR_RUN if memory runs out. Free with sc_smp_destroy. */
sc_err_t sc_smp_init(sc_smp_t *smp, sc_comm_t *comm, int context);
void sc_smp_destroy(sc_smp_t *smp);

/* 1 if this rank is the lowest of its node (its node's member of roots). */
static inline int sc_smp_is_leader(const sc_smp_t *smp)
{
    return smp->my_node_index == 0;
}

#endif
