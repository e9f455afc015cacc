/* MVAPICH2 1.4's choice of collective algorithm by message size, process
 * count and node sharing (algorithms/mvapich2/shmem.c runs it).
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef SC_MVAPICH2_CHOICES_H
#define SC_MVAPICH2_CHOICES_H

#include "algorithms/mpich/choices.h"

/* Defaults of MVAPICH2 1.4 (trunk r3523, "Update for 1.4 release",
 * maint/Version 1.4.0; commit fe083fff of github.com/kumattau/mvapich2),
 * gen2 (OFED) channel:
 *   MV2_KNOMIAL_2LEVEL_BCAST_SYSTEM_SIZE_THRESHOLD 64 and _MESSAGE_SIZE_
 *     THRESHOLD 2048, radix 4 on both levels
 *     (src/mpid/ch3/channels/mrail/src/gen2/ibv_param.c:70-74);
 *   MV2_SHMEM_BCAST_MSG 1 MiB (src/mpi/coll/bcast.c:88, 93);
 *   MV2_SHMEM_ALLREDUCE_MSG 32 KiB and MV2_SHMEM_REDUCE_MSG 1 KiB
 *     (src/include/mpiimpl.h:3504-3505, initthread.c:439-443).
 * The flat algorithms are MPICH2 1.0.8's with the thresholds of
 * algorithms/mpich/choices.h (src/include/mpiimpl.h:3456-3471), but for MPIR_Bcast's
 * short-message test, which includes 12288 bytes (bcast.c:189). */
#define SC_MV2_KNOMIAL_MIN_PROCS 64 /* k-nomial above this many processes */
#define SC_MV2_KNOMIAL_MAX_MSG 2048 /* up to this many bytes (inclusive) */
#define SC_MV2_KNOMIAL_RADIX 4
#define SC_MV2_SHMEM_BCAST_MSG (1 << 20)  /* shared-memory bcast below this */
#define SC_MV2_SHMEM_ALLREDUCE_MSG (1 << 15)
#define SC_MV2_SHMEM_REDUCE_MSG (1 << 10)

/* MPIR_Bcast on a communicator without MVAPICH2's two-level structure (a
 * node communicator): binomial up to 12288 bytes or below 8 processes,
 * scatter + recursive doubling below 512 KiB on a power of two, else
 * scatter + ring. */
sc_mpich_bcast_t sc_mv2_bcast_flat_choice(size_t bytes, int p);

#endif
