/* The two-level frame of MPICH's SMP-aware collectives (smp.c), which
 * MVAPICH2's shared-memory ones share (../mvapich2/shmem.c): the same node
 * and leader communicators, the same flat fallback, the same first step of
 * a broadcast, the same flat broadcasts and the same shape of an allreduce.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef SC_MPICH_SMP_H
#define SC_MPICH_SMP_H

#include "../registry.h"
#include "choices.h"
#include "../subcomm.h"

/* A collective's steps on the node and leader communicators of `smp`. */
typedef sc_err_t (*sc_smp_steps_fn)(sc_comm_t *comm, sc_smp_t *smp, const sc_coll_args_t *args);

/* Builds comm's node and leader communicators and runs `steps` on them;
 * runs `flat` on comm instead when every rank is on a node of its own, where
 * MPICH builds no hierarchy. */
sc_err_t sc_smp_run(sc_comm_t *comm, const sc_coll_args_t *args, sc_coll_fn flat,
                    sc_smp_steps_fn steps);

/* As sc_smp_run, for a broadcast: nothing to do for an empty message or a
 * single rank; for a reduce or an allreduce: there the result is the
 * rank's own vector, started at once. */
sc_err_t sc_smp_run_bcast(sc_comm_t *comm, const sc_coll_args_t *args, sc_coll_fn flat,
                          sc_smp_steps_fn steps);
sc_err_t sc_smp_run_reduction(sc_comm_t *comm, const sc_coll_args_t *args, sc_coll_fn flat,
                              sc_smp_steps_fn steps);

/* Runs the flat broadcast `choice` names: MPICH's choice by size and
 * process count, or MVAPICH2's on a node (its thresholds, the same three
 * algorithms). */
sc_err_t sc_smp_bcast_chosen(sc_comm_t *comm, const sc_coll_args_t *args, sc_mpich_bcast_t choice);

/* A broadcast's first step: a root that is not its node's leader sends it
 * the message (`m` bytes of buf, which the leader receives into its buf). */
sc_err_t sc_smp_root_to_leader(sc_comm_t *comm, sc_smp_t *smp, void *buf, size_t m, int root);

/* An allreduce's steps: `node_reduce` leaves each node's reduction in
 * args->recvbuf at its leader, the leaders allreduce it by MPICH's flat
 * choice, and `node_bcast` hands the result to the node from its leader. */
sc_err_t sc_smp_allreduce_steps(sc_comm_t *comm, sc_smp_t *smp, const sc_coll_args_t *args,
                                sc_smp_steps_fn node_reduce, sc_coll_fn node_bcast);

#endif
