/* The choices of Open MPI 4.1's coll/tuned with its fixed rules (the
 * default: coll_tuned_use_dynamic_rules = 0), from Open MPI v4.1.6:
 * ompi/mca/coll/tuned/coll_tuned_decision_fixed.c (the tables, in
 * models/openmpi.c) and the fallbacks inside the algorithms of
 * ompi/mca/coll/base/ (here). The tables are the same from v4.1.0 to
 * v4.1.6 and in v5.0.0. coll/tuned knows nothing of nodes, so neither does
 * this profile. The name returned is the algorithm that actually runs.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "../../models/collectives.h"
#include "../../models/openmpi.h"
#include "profiles.h"

/* A broadcast of simcoll's is `bytes` single bytes (MPI_BYTE): Open MPI's
 * element counts are bytes. */
static const char *bcast(size_t bytes, int p)
{
    switch (sc_ompi41_bcast_rule(bytes, p)) {
    case SC_OMPI_BCAST_LINEAR:
        return "bcast-ompi-linear";
    case SC_OMPI_BCAST_CHAIN:
    case SC_OMPI_BCAST_PIPELINE: /* fanout 0 is forced to 1: the same chain */
        return "bcast-ompi-chain";
    case SC_OMPI_BCAST_SPLIT_BINTREE: /* one half empty: chain with fanout 1 */
        return bytes < 2 ? "bcast-ompi-chain" : "bcast-ompi-split-bintree";
    case SC_OMPI_BCAST_BINTREE:
        return "bcast-ompi-bintree";
    case SC_OMPI_BCAST_BINOMIAL:
        return "bcast-ompi-binomial";
    case SC_OMPI_BCAST_KNOMIAL:
        return "bcast-ompi-knomial";
    case SC_OMPI_BCAST_SCATTER_ALLGATHER: /* count < p: basic linear */
        return bytes < (size_t)p ? "bcast-ompi-linear" : "bcast-ompi-scatter-allgather";
    case SC_OMPI_BCAST_SCATTER_ALLGATHER_RING: /* MPICH's scatter + ring, same chunks */
        return bytes < (size_t)p ? "bcast-ompi-linear" : "bcast-scatter-allgather";
    }
    return "bcast-ompi-linear";
}

static const char *reduce(size_t bytes, size_t elems, int p)
{
    int N = sc_pow2_below(p);
    switch (sc_ompi41_reduce_rule(bytes, p)) {
    case SC_OMPI_REDUCE_LINEAR:
        return "reduce-ompi-linear";
    case SC_OMPI_REDUCE_CHAIN:
    case SC_OMPI_REDUCE_PIPELINE:
        return "reduce-ompi-chain";
    case SC_OMPI_REDUCE_BINARY:
        return "reduce-ompi-binary";
    case SC_OMPI_REDUCE_BINOMIAL:
        return "reduce-ompi-binomial";
    case SC_OMPI_REDUCE_IN_ORDER_BINARY:
        return "reduce-ompi-in-order-binary";
    case SC_OMPI_REDUCE_REDSCAT_GATHER: /* pof2 < 2 or count < pof2: basic linear */
        return N < 2 || elems < (size_t)N ? "reduce-ompi-linear" : "reduce-ompi-redscat-gather";
    }
    return "reduce-ompi-linear";
}

static const char *allreduce(size_t bytes, size_t elems, int p)
{
    switch (sc_ompi41_allreduce_rule(bytes, p)) {
    case SC_OMPI_ALLREDUCE_LINEAR:
        return "allreduce-ompi-linear";
    case SC_OMPI_ALLREDUCE_NONOVERLAPPING:
        return "allreduce-ompi-nonoverlapping";
    case SC_OMPI_ALLREDUCE_RECURSIVE_DOUBLING: /* MPICH's, the same messages */
        return "allreduce-rd";
    case SC_OMPI_ALLREDUCE_RING:
    case SC_OMPI_ALLREDUCE_SEGMENTED_RING: /* segsize 0: one segment, the plain ring */
        return elems < (size_t)p ? "allreduce-rd" : "allreduce-ompi-ring";
    case SC_OMPI_ALLREDUCE_RABENSEIFNER: /* count < pof2: basic linear */
        return elems < (size_t)sc_pow2_below(p) ? "allreduce-ompi-linear" : "allreduce-mpich";
    }
    return "allreduce-ompi-linear";
}

static const char *barrier(int p)
{
    switch (sc_ompi41_barrier_rule(p)) {
    case SC_OMPI_BARRIER_LINEAR:
        return "barrier-ompi-linear";
    case SC_OMPI_BARRIER_RECURSIVE_DOUBLING:
        return "barrier-ompi-rd";
    case SC_OMPI_BARRIER_BRUCK: /* dissemination */
        return "barrier";
    case SC_OMPI_BARRIER_TREE:
        return "barrier-ompi-tree";
    case SC_OMPI_BARRIER_DOUBLE_RING: /* no 4.1 rule selects these two */
    case SC_OMPI_BARRIER_TWO_PROCS:
        break;
    }
    return "barrier-ompi-rd";
}

static const char *allgather(size_t block, int p)
{
    int pow2 = (p & (p - 1)) == 0;
    switch (sc_ompi41_allgather_rule(block, p)) {
    case SC_OMPI_ALLGATHER_TWO_PROCS: /* one exchange of the own block: rd on two ranks */
        return "rd";
    case SC_OMPI_ALLGATHER_RECURSIVE_DOUBLING: /* not a power of two: Bruck */
        return pow2 ? "rd" : "bruck";
    case SC_OMPI_ALLGATHER_BRUCK:
        return "bruck";
    case SC_OMPI_ALLGATHER_RING:
        return "ring";
    case SC_OMPI_ALLGATHER_NEIGHBOR: /* odd p: ring */
        return p % 2 ? "ring" : "allgather-ompi-neighbor";
    case SC_OMPI_ALLGATHER_LINEAR: /* no 4.1 rule selects it */
        break;
    }
    return "ring";
}

const char *sc_profile_openmpi41_choose(const sc_call_t *call)
{
    int p = call->p;
    size_t elems = call->bytes / sc_type_size(call->type);
    switch (call->collective) {
    case SC_BARRIER:
        return barrier(p);
    case SC_BCAST:
        return bcast(call->bytes, p);
    case SC_ALLGATHER:
        return allgather(call->bytes, p);
    case SC_REDUCE:
        return reduce(call->bytes, elems, p);
    case SC_ALLREDUCE:
        return allreduce(call->bytes, elems, p);
    }
    return "barrier";
}
