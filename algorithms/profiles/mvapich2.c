/* The choices of MVAPICH2 1.4 (trunk r3523 of 2009-10-29, "Update for 1.4
 * release", maint/Version 1.4.0: commit fe083fff of the mirror
 * github.com/kumattau/mvapich2), gen2 (OFED) channel, default environment,
 * on MPI_COMM_WORLD, whose two-level communicators MPI_Init builds
 * (src/mpi/init/initthread.c:503-515; shmem_coll_ok is set for it whether or
 * not ranks share nodes, src/mpi/comm/create_2level_comm.c:212-230):
 *   MPI_Barrier    src/mpi/coll/barrier.c:406-451: the shared-memory
 *                  barrier (MV2_USE_SHMEM_BARRIER, on).
 *   MPI_Bcast      src/mpi/coll/bcast.c:189-205: up to 12288 bytes
 *                  (inclusive) or below 8 processes, k-nomial on both
 *                  levels if there are more than 64 processes and at most
 *                  2048 bytes (ibv_param.c:70-74), else the flat binomial
 *                  tree; bcast.c:289-295: below 1 MiB (MV2_SHMEM_BCAST_MSG)
 *                  the shared-memory broadcast; bcast.c:601-: else scatter
 *                  + allgather (ring, the message being >= 512 KiB).
 *   MPI_Allgather  src/mpi/coll/allgather.c:141-566: MPICH's (no
 *                  shared-memory variant).
 *   MPI_Allreduce  src/mpi/coll/allreduce.c:777-858: the shared-memory path
 *                  below 32 KiB (MV2_SHMEM_ALLREDUCE_MSG; stride = count x
 *                  extent), else MPIR_Allreduce, MPICH's (allreduce.c:289).
 *   MPI_Reduce     src/mpi/coll/reduce.c:929-1050: the shared-memory path
 *                  below 1 KiB (MV2_SHMEM_REDUCE_MSG), else MPIR_Reduce,
 *                  MPICH's (reduce.c:199-203).
 * When every rank is alone on its node, the two-level algorithms reduce to
 * the flat ones (the node steps vanish, the leaders are every rank):
 * barrier, bcast-scatter-allgather, allreduce-rd/-rabenseifner and
 * reduce-mst/-rabenseifner are named then; the k-nomial broadcast stays
 * bcast-mv2-knomial, which runs flat on such a communicator. Every
 * operation simcoll has is commutative, as the shared-memory paths require.
 * The thresholds are in models/mvapich2.h.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "algorithms/mvapich2/choices.h"
#include "profiles.h"

const char *sc_profile_mvapich2_14_choose(const sc_call_t *call)
{
    int smp = sc_call_node_aware(call), p = call->p;
    size_t m = call->bytes;
    switch (call->collective) {
    case SC_BARRIER:
        return smp ? "barrier-mv2-shmem" : "barrier";
    case SC_BCAST:
        if (m <= SC_MPICH_BCAST_SHORT || p < SC_MPICH_BCAST_MIN_PROCS) {
            if (p > SC_MV2_KNOMIAL_MIN_PROCS && m <= SC_MV2_KNOMIAL_MAX_MSG)
                return "bcast-mv2-knomial";
            return "bcast-binomial";
        }
        if (m < SC_MV2_SHMEM_BCAST_MSG)
            return smp ? "bcast-mv2-shmem" : "bcast-scatter-allgather";
        return "bcast-scatter-allgather"; /* m >= 1 MiB > 512 KiB: ring */
    case SC_ALLGATHER:
        break;
    case SC_ALLREDUCE:
        if (smp && m < SC_MV2_SHMEM_ALLREDUCE_MSG)
            return "allreduce-mv2-shmem";
        break;
    case SC_REDUCE:
        if (smp && m < SC_MV2_SHMEM_REDUCE_MSG)
            return "reduce-mv2-shmem";
        break;
    case SC_SCATTER: /* its scatter.c was not read: no rule rather than a guess */ return NULL;
    }
    return sc_profile_mpich_flat_choose(call);
}
