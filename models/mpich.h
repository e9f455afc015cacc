/* MPICH's choice of collective algorithm by message size and process count
 * (MPICH2 1.2.1: src/include/mpiimpl.h, and the collective's file in
 * src/mpi/coll/; MPICH 3.0 to 3.3 make the same choices with their default
 * CVARs), and the cost of its SMP-aware (two-level) collectives.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef SC_MPICH_H
#define SC_MPICH_H

#include "cost.h"

/* MPIR_BCAST_SHORT_MSG, _LONG_MSG, _MIN_PROCS; MPIR_ALLGATHER_SHORT_MSG,
 * _LONG_MSG; MPIR_REDUCE_SHORT_MSG; MPIR_ALLREDUCE_SHORT_MSG (MPICH2 1.2.1,
 * src/include/mpiimpl.h:3387-3400; the CVAR defaults of MPICH 3.2). */
#define SC_MPICH_BCAST_SHORT 12288
#define SC_MPICH_BCAST_LONG 524288
#define SC_MPICH_BCAST_MIN_PROCS 8
#define SC_MPICH_ALLGATHER_SHORT 81920
#define SC_MPICH_ALLGATHER_LONG 524288
#define SC_MPICH_REDUCE_SHORT 2048
#define SC_MPICH_ALLREDUCE_SHORT 2048

/* MPIR_Bcast, flat: binomial below 12288 bytes or 8 processes, scatter +
 * recursive doubling below 512 KiB on a power of two, else scatter + ring. */
typedef enum { SC_MPICH_BCAST_BINOMIAL, SC_MPICH_BCAST_SCATTER_RD, SC_MPICH_BCAST_SCATTER_RING }
    sc_mpich_bcast_t;
sc_mpich_bcast_t sc_mpich_bcast_choice(size_t bytes, int p);

/* MPIR_Allgather: `total` is the gathered size (block x p): recursive
 * doubling below 512 KiB on a power of two, Bruck below 80 KiB, else ring. */
typedef enum { SC_MPICH_ALLGATHER_RD, SC_MPICH_ALLGATHER_BRUCK, SC_MPICH_ALLGATHER_RING }
    sc_mpich_allgather_t;
sc_mpich_allgather_t sc_mpich_allgather_choice(size_t total, int p);

/* MPIR_Allreduce: recursive doubling up to 2048 bytes (inclusive) or when
 * the vector has fewer elements than the largest power of two <= p, else
 * Rabenseifner. */
typedef enum { SC_MPICH_ALLREDUCE_RD, SC_MPICH_ALLREDUCE_RABENSEIFNER } sc_mpich_allreduce_t;
sc_mpich_allreduce_t sc_mpich_allreduce_choice(size_t bytes, size_t elems, int p);

/* MPIR_Reduce: Rabenseifner above 2048 bytes (strictly) when the vector has
 * at least as many elements as the largest power of two <= p, else the
 * binomial tree. */
typedef enum { SC_MPICH_REDUCE_BINOMIAL, SC_MPICH_REDUCE_RABENSEIFNER } sc_mpich_reduce_t;
sc_mpich_reduce_t sc_mpich_reduce_choice(size_t bytes, size_t elems, int p);

/* MPICH's hierarchy of all ranks (algorithms/subcomm.h, sc_smp_t, from
 * every rank's point of view at once). */
typedef struct {
    int nroots, node_aware;
    int *roots;          /* by node index, its lowest rank */
    int *node, *local;   /* by rank: its node's index, its index there */
    int *start, *ranks;  /* node k's ranks, in order: ranks[start[k] .. start[k+1]) */
} sc_hier_t;

int sc_hier_node_size(const sc_hier_t *h, int k);
/* fn on node k's ranks (if it has more than one), and on the node leaders
 * (if there are more than one), as sc_model_sub. */
sc_err_t sc_hier_on_node(const sc_model_t *model, const sc_hier_t *h, int k, sc_model_fn fn,
                         size_t bytes, int root, double *t);
sc_err_t sc_hier_on_leaders(const sc_model_t *model, const sc_hier_t *h, sc_model_fn fn,
                            size_t bytes, int root, double *t);

/* The cost of a collective's two-level schedule on the hierarchy h of
 * model's ranks, as an sc_model_fn (sc_hier_model). */
typedef sc_err_t (*sc_hier_fn)(const sc_model_t *model, const sc_hier_t *h, size_t bytes,
                               int root, double *t);

/* What the costs of MPICH's and MVAPICH2's two-level collectives share:
 * builds the hierarchy of model's ranks and runs `two_level` on it, or,
 * when no node holds two ranks (the libraries then run their flat
 * algorithm), `flat` on all ranks. SC_ERR_RUN if memory runs out. */
sc_err_t sc_hier_model(const sc_model_t *model, sc_model_fn flat, sc_hier_fn two_level,
                       size_t bytes, int root, double *t);

/* The costs of MPICH's SMP-aware collectives (algorithms/mpich/smp.c), as
 * its flat algorithms on the node and node-leader communicators. */
sc_err_t sc_model_barrier_mpich_smp(const sc_model_t *model, size_t bytes, int root, double *t);
sc_err_t sc_model_bcast_mpich_smp(const sc_model_t *model, size_t bytes, int root, double *t);
sc_err_t sc_model_allreduce_mpich_smp(const sc_model_t *model, size_t bytes, int root,
                                      double *t);
sc_err_t sc_model_reduce_mpich_smp(const sc_model_t *model, size_t bytes, int root, double *t);

/* MPIR_Bcast, MPIR_Allreduce and MPIR_Reduce as models: the flat choice,
 * costed. */
sc_err_t sc_model_bcast_mpich(const sc_model_t *model, size_t bytes, int root, double *t);
sc_err_t sc_model_allreduce_mpich_flat(const sc_model_t *model, size_t bytes, int root,
                                       double *t);
sc_err_t sc_model_reduce_mpich_flat(const sc_model_t *model, size_t bytes, int root, double *t);

#endif
