/* The choices of MPICH2 1.2.1 and of MPICH 3.0 to 3.3 (which make the same
 * ones with their default CVARs): MPI_Barrier, MPI_Bcast, MPI_Allgather,
 * MPI_Allreduce and MPI_Reduce of src/mpi/coll/ (MPICH2 1.2.1 at tag v1.2.1:
 * barrier.c:412-450, bcast.c:968-1061, allgather.c:73-581,
 * allreduce.c:684-740 and 95-484, reduce.c:1076-1180 and 713-776; MPICH 3.2:
 * MPIR_Bcast_intra, MPIR_Barrier_intra, MPIR_Allgather_intra,
 * MPIR_Allreduce_intra, MPIR_Reduce_intra). The thresholds are in
 * models/mpich.h. MPI_Scatter is binomial whatever the size and placement
 * (MPIR_Scatter of scatter.c at v1.2.1, MPIR_Scatter_intra at v3.2): the
 * tree, block counts and order of scatter-ompi-binomial (children at
 * relative rank + 2^j below its lowest set bit, largest first, blocking
 * sends of the child's subtree).
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "algorithms/mpich/choices.h"
#include "profiles.h"

const char *sc_profile_mpich_flat_choose(const sc_call_t *call)
{
    int p = call->p;
    size_t elems = call->bytes / sc_type_size(call->type);
    switch (call->collective) {
    case SC_BARRIER:
        return "barrier";
    case SC_BCAST:
        switch (sc_mpich_bcast_choice(call->bytes, p)) {
        case SC_MPICH_BCAST_BINOMIAL:
            return "bcast-binomial";
        case SC_MPICH_BCAST_SCATTER_RD:
            return "bcast-scatter-rd";
        case SC_MPICH_BCAST_SCATTER_RING:
            break;
        }
        return "bcast-scatter-allgather";
    case SC_ALLGATHER:
        /* MPICH measures the whole gathered size. */
        switch (sc_mpich_allgather_choice(call->bytes * (size_t)p, p)) {
        case SC_MPICH_ALLGATHER_RD:
            return "rd";
        case SC_MPICH_ALLGATHER_BRUCK:
            return "bruck";
        case SC_MPICH_ALLGATHER_RING:
            break;
        }
        return "ring";
    case SC_ALLREDUCE:
        return sc_mpich_allreduce_choice(call->bytes, elems, p) == SC_MPICH_ALLREDUCE_RD
                   ? "allreduce-rd"
                   : "allreduce-rabenseifner";
    case SC_REDUCE:
        return sc_mpich_reduce_choice(call->bytes, elems, p) == SC_MPICH_REDUCE_RABENSEIFNER
                   ? "reduce-rabenseifner"
                   : "reduce-mst";
    case SC_SCATTER: return "scatter-ompi-binomial";
    }
    return "barrier";
}

const char *sc_profile_mpich_choose(const sc_call_t *call)
{
    if (!sc_call_node_aware(call))
        return sc_profile_mpich_flat_choose(call);
    switch (call->collective) {
    case SC_BARRIER:
        return "barrier-mpich-smp";
    case SC_BCAST:
        return "bcast-mpich-smp";
    case SC_ALLREDUCE:
        return "allreduce-mpich-smp";
    case SC_REDUCE:
        return "reduce-mpich-smp";
    case SC_ALLGATHER: /* no SMP variant */
    case SC_SCATTER: break;
    }
    return sc_profile_mpich_flat_choose(call);
}
