/* Every collective algorithm, one file each under algorithms/<collective>/.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef SC_COLLECTIVES_H
#define SC_COLLECTIVES_H

#include "registry.h"

/* Message tags, one per collective and per kind of point-to-point
 * statement of a program (SC_TAG_HALO + face, see p2p/halo.h), so that
 * operations run back to back cannot match each other's messages. */
enum {
    SC_TAG_ALLGATHER = 1,
    SC_TAG_BCAST,
    SC_TAG_BARRIER,
    SC_TAG_REDUCE,
    SC_TAG_ALLREDUCE,
    SC_TAG_SEND,
    SC_TAG_HALO,
    /* after the halo's six faces: the tags above keep their numbers */
    SC_TAG_SCATTER = SC_TAG_HALO + 6,
    /* Early exit: SC_TAG_EARLY + 2 * call (vectors) and + 1 (decisions),
     * above every other tag and any subcommunicator's. */
    SC_TAG_EARLY = 1 << 24
};

sc_err_t sc_allgather_ring(sc_comm_t *comm, const sc_coll_args_t *args);
sc_err_t sc_allgather_rd(sc_comm_t *comm, const sc_coll_args_t *args);
sc_err_t sc_allgather_bruck(sc_comm_t *comm, const sc_coll_args_t *args);

/* Hierarchy-aware variants (M. G. Kurnosov, A. A. Paznikov; lecture 13). */
sc_err_t sc_allgather_rd_exch(sc_comm_t *comm, const sc_coll_args_t *args);
sc_err_t sc_allgather_rd_reorder(sc_comm_t *comm, const sc_coll_args_t *args);
sc_err_t sc_allgather_bruck_exch(sc_comm_t *comm, const sc_coll_args_t *args);
sc_err_t sc_allgather_bruck_reorder(sc_comm_t *comm, const sc_coll_args_t *args);
sc_err_t sc_allgather_ring_reorder(sc_comm_t *comm, const sc_coll_args_t *args);

/* The position rank r plays, and the rank playing position j. */
/* public: in simcoll.h, the plug-ins' API (algorithms/plugin/) */
/* The position rank `rank` plays in a mapping-aware algorithm, and the
 * rank playing `position` (args->pi, args->pi_inv; the identity without a
 * mapping). */
static inline int sc_position(const sc_coll_args_t *args, int rank)
{
    return args->pi ? args->pi[rank] : rank;
}

static inline int sc_player(const sc_coll_args_t *args, int position)
{
    return args->pi_inv ? args->pi_inv[position] : position;
}
/* end public */

/* The steps the allgather algorithms share with their variants, played by
 * the rank at position `me` through args' mapping, on m-byte blocks:
 * recursive doubling over the p slots of `slots` (position order); the
 * exch variants' first step, which fills `slot` with the block of the
 * position this rank plays. */
sc_err_t sc_rd_steps(sc_comm_t *comm, const sc_coll_args_t *args, char *slots, int me);
sc_err_t sc_exchange_own(sc_comm_t *comm, const sc_coll_args_t *args, void *slot);

/* The whole Bruck allgather played at position pi(rank) through args'
 * mapping (the identity without one): the work buffer starts with the
 * rank's own block, or with `exch` with the block of the position it plays
 * (sc_exchange_own); at the end every block goes to its rank's slot of
 * recvbuf. `name` is the algorithm's, for messages. */
sc_err_t sc_bruck_played(sc_comm_t *comm, const sc_coll_args_t *args, int exch,
                         const char *name);

sc_err_t sc_bcast_binomial(sc_comm_t *comm, const sc_coll_args_t *args);

/* The part of a buffer that the subtree of relative rank rel, mask ranks
 * from rel on (of p), holds: *size bytes at *offset. */
typedef void (*sc_subtree_part_t)(const void *ctx, int p, int rel, int mask, size_t *offset,
                                  size_t *size);

/* Down the binomial tree rooted at `root` (sc_binomial_mask, algorithms/
 * steps.h): every rank but the root receives its subtree's part of buf
 * from its parent, then sends each child its subtree's part, the largest
 * subtree first, with blocking sends; an empty part is not sent. The
 * binomial broadcast (the whole buffer for every subtree) and the binomial
 * scatters of the scatter broadcasts (their chunks). */
sc_err_t sc_binomial_down(sc_comm_t *comm, int root, char *buf, int tag, sc_subtree_part_t part,
                          const void *ctx);
sc_err_t sc_bcast_scatter_allgather(sc_comm_t *comm,
                                    const sc_coll_args_t *args);
sc_err_t sc_bcast_scatter_rd(sc_comm_t *comm, const sc_coll_args_t *args);

/* The binomial scatter both scatter broadcasts start with: p chunks of
 * ceil(m/p) bytes, every rank receiving those of its subtree. */
sc_err_t sc_bcast_scatter(sc_comm_t *comm, const sc_coll_args_t *args);

sc_err_t sc_barrier_dissemination(sc_comm_t *comm, const sc_coll_args_t *args);

/* Reductions (reference 000, IBM patent): binomial tree (MST), recursive
 * halving + doubling (RHRD), the prior-art extension of RHRD to any p, and
 * the patent's method; ring allreduce. */
sc_err_t sc_reduce_mst(sc_comm_t *comm, const sc_coll_args_t *args);
sc_err_t sc_reduce_rhrd(sc_comm_t *comm, const sc_coll_args_t *args);
sc_err_t sc_reduce_mpich(sc_comm_t *comm, const sc_coll_args_t *args);
sc_err_t sc_reduce_nonpow2(sc_comm_t *comm, const sc_coll_args_t *args);
sc_err_t sc_allreduce_mst(sc_comm_t *comm, const sc_coll_args_t *args);
sc_err_t sc_allreduce_rhrd(sc_comm_t *comm, const sc_coll_args_t *args);
sc_err_t sc_allreduce_mpich(sc_comm_t *comm, const sc_coll_args_t *args);
sc_err_t sc_allreduce_nonpow2(sc_comm_t *comm, const sc_coll_args_t *args);
sc_err_t sc_allreduce_ring(sc_comm_t *comm, const sc_coll_args_t *args);

/* Early exit for land, lor, band, bor (reference 003): recursive doubling
 * that a rank whose input decides the result cuts short (allreduce/early.c). */
sc_err_t sc_allreduce_early(sc_comm_t *comm, const sc_coll_args_t *args);
sc_err_t sc_reduce_early(sc_comm_t *comm, const sc_coll_args_t *args);
/* The same schedule as a solver's exit test: a sum of non-negative errors
 * against args->threshold, +inf when a rank's own error reaches it. */
sc_err_t sc_allreduce_if(sc_comm_t *comm, const sc_coll_args_t *args);

/* Speculative MAX/MIN with history, verified (allreduce/speculate.c). */
sc_err_t sc_allreduce_spec(sc_comm_t *comm, const sc_coll_args_t *args);
/* How often the rank's calls of allreduce-spec bet, and wrongly. */
void sc_allreduce_spec_counts(const sc_comm_t *comm, long *speculated, long *mispredicted);

/* MPICH's SMP-aware collectives (mpich/smp.c): flat algorithms on the node
 * and node-leader communicators, as MPICH2 1.2.1 runs by default. */
sc_err_t sc_barrier_mpich_smp(sc_comm_t *comm, const sc_coll_args_t *args);
sc_err_t sc_bcast_mpich_smp(sc_comm_t *comm, const sc_coll_args_t *args);
sc_err_t sc_allreduce_mpich_smp(sc_comm_t *comm, const sc_coll_args_t *args);
sc_err_t sc_reduce_mpich_smp(sc_comm_t *comm, const sc_coll_args_t *args);
/* MPICH's flat MPIR_Allreduce and MPIR_Reduce: recursive doubling or
 * Rabenseifner, binomial or Rabenseifner, by size (models/mpich.h). */
sc_err_t sc_allreduce_mpich_flat(sc_comm_t *comm, const sc_coll_args_t *args);
sc_err_t sc_reduce_mpich_flat(sc_comm_t *comm, const sc_coll_args_t *args);

/* MVAPICH2 1.4's two-level collectives (mvapich2/shmem.c): shared-memory
 * steps on each node as messages, point-to-point ones among node leaders. */
sc_err_t sc_barrier_mv2_shmem(sc_comm_t *comm, const sc_coll_args_t *args);
sc_err_t sc_bcast_mv2_knomial(sc_comm_t *comm, const sc_coll_args_t *args);
sc_err_t sc_bcast_mv2_shmem(sc_comm_t *comm, const sc_coll_args_t *args);
sc_err_t sc_allreduce_mv2_shmem(sc_comm_t *comm, const sc_coll_args_t *args);
sc_err_t sc_reduce_mv2_shmem(sc_comm_t *comm, const sc_coll_args_t *args);

/* MPICH's own reductions (rabenseifner.c): whole-vector folding for any p,
 * then recursive doubling or Rabenseifner's halving and doubling/gather. */
sc_err_t sc_allreduce_rd(sc_comm_t *comm, const sc_coll_args_t *args);
sc_err_t sc_allreduce_rabenseifner(sc_comm_t *comm, const sc_coll_args_t *args);
sc_err_t sc_reduce_rabenseifner(sc_comm_t *comm, const sc_coll_args_t *args);

#endif
