/* MPICH's choice of collective algorithm by message size and process count
 * (MPICH2 1.2.1: src/include/mpiimpl.h, and the collective's file in
 * src/mpi/coll/; MPICH 3.0 to 3.3 make the same choices with their default
 * CVARs): what its profile (algorithms/profiles/mpich.c) and its SMP-aware
 * collectives (smp.c) run.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef SC_MPICH_CHOICES_H
#define SC_MPICH_CHOICES_H

#include <stddef.h>

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

#endif
