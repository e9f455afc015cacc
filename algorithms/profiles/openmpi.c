/* The choices of Open MPI 4.1's coll/tuned with its fixed rules (the
 * default: coll_tuned_use_dynamic_rules = 0), from Open MPI v4.1.6:
 * ompi/mca/coll/tuned/coll_tuned_decision_fixed.c (the tables, in
 * models/openmpi.c) and the fallbacks inside the algorithms of
 * ompi/mca/coll/base/ (here). The tables are the same from v4.1.0 to
 * v4.1.6 and in v5.0.0. coll/tuned knows nothing of nodes, so neither does
 * this profile. The name returned is the algorithm that actually runs.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "algorithms/steps.h"
#include "algorithms/openmpi/tuned.h"
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

static const char *scatter(sc_ompi_scatter_t rule)
{
    switch (rule) {
    case SC_OMPI_SCATTER_BASIC_LINEAR: return "scatter-ompi-linear";
    case SC_OMPI_SCATTER_BINOMIAL: return "scatter-ompi-binomial";
    case SC_OMPI_SCATTER_LINEAR_NB: return "scatter-ompi-linear-nb";
    }
    return "scatter-ompi-linear";
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
    case SC_SCATTER: return scatter(sc_ompi41_scatter_rule(call->bytes, p));
    }
    return "barrier";
}

/* ---- Open MPI 3.1 and 4.0 ----
 * The fixed rules before 4.1's tables, ompi/mca/coll/tuned/
 * coll_tuned_decision_fixed.c, identical for these five collectives from
 * v3.0.0 to v4.0.7 (and the base algorithms they call identical from
 * v3.1.6 to v4.0.7 but for additions). Lines at v4.0.3 (v3.1.6):
 *   allreduce  44-86   (44-86)    recursive doubling below 10000 bytes;
 *                                 commutative and count > p: ring up to
 *                                 p MiB, else ring_segmented, 1 MiB
 *                                 segments; else nonoverlapping
 *   barrier    197-223 (187-213)  two_procs for p = 2; recursive doubling
 *                                 for a power of two; else bruck
 *   bcast      233-343 (223-333)  binomial below 2048 bytes or count <= 1;
 *                                 split_bintree, 1 KiB segments, below
 *                                 370728; then by p against the fitted
 *                                 lines a m + b: pipeline with 128 KiB
 *                                 segments, split_bintree 8 KiB (p < 13),
 *                                 pipeline 64, 16 or 8 KiB
 *   reduce     353-455 (343-445)  commutative: linear for p < 8 and m <
 *                                 512; binomial unsegmented for p < 8 and
 *                                 m < 20480, m < 2048 or count <= 1; then
 *                                 against four fitted lines: binomial 1
 *                                 KiB, pipeline 1 KiB, binary 32 KiB,
 *                                 pipeline 32 or 64 KiB segments
 *   allgather  542-628 (512-594)  two_procs for p = 2; below 50000 bytes
 *                                 gathered recursive doubling (p a power
 *                                 of two) or bruck; else ring (odd p) or
 *                                 neighbor exchange (even p)
 *   scatter    v4.0.7 777-811 (v3.1.6 the same)  binomial for p > 10 and
 *                                 blocks below 300 bytes, else basic
 *                                 linear
 * The segmented ring is allreduce-ompi-ring-segmented. simcoll has the
 * other segmented algorithms only with one segment: where a rule passes a
 * segment shorter than the message, the profile returns the same
 * algorithm on the same tree unsegmented, an approximation its rules text
 * says (a pipeline of s segments over a chain of p ranks takes about
 * (p - 2 + s) segment times, the unsegmented chain (p - 1) s). */

static const char *bcast40(size_t bytes, int p)
{
    size_t seg;
    switch (sc_ompi40_bcast_rule(bytes, p, &seg)) {
    case SC_OMPI_BCAST_BINOMIAL:
        return "bcast-ompi-binomial";
    case SC_OMPI_BCAST_SPLIT_BINTREE: /* approximation: segments of `seg` */
        return "bcast-ompi-split-bintree";
    case SC_OMPI_BCAST_PIPELINE: /* approximation: segments of `seg` */
        return "bcast-ompi-chain";
    default: /* no 4.0 rule picks the others */
        break;
    }
    return "bcast-ompi-binomial";
}

static const char *reduce40(size_t bytes, size_t elems, int p)
{
    size_t seg; /* segmented (approximation) when seg < bytes */
    switch (sc_ompi40_reduce_rule(bytes, elems, p, &seg)) {
    case SC_OMPI_REDUCE_LINEAR:
        return "reduce-ompi-linear";
    case SC_OMPI_REDUCE_BINOMIAL:
        return "reduce-ompi-binomial";
    case SC_OMPI_REDUCE_PIPELINE:
        return "reduce-ompi-chain";
    case SC_OMPI_REDUCE_BINARY:
        return "reduce-ompi-binary";
    default: /* no 4.0 rule picks the others */
        break;
    }
    return "reduce-ompi-binomial";
}

static const char *allreduce40(size_t bytes, size_t elems, int p)
{
    size_t seg;
    switch (sc_ompi40_allreduce_rule(bytes, elems, p, &seg)) {
    case SC_OMPI_ALLREDUCE_RECURSIVE_DOUBLING: /* MPICH's, the same messages */
        return "allreduce-rd";
    case SC_OMPI_ALLREDUCE_RING: /* count > p: no fallback */
        return "allreduce-ompi-ring";
    case SC_OMPI_ALLREDUCE_SEGMENTED_RING:
        return "allreduce-ompi-ring-segmented";
    case SC_OMPI_ALLREDUCE_NONOVERLAPPING: /* approximation: 4.1's reduce and bcast inside */
        return "allreduce-ompi-nonoverlapping";
    default: /* no 4.0 rule picks the others */
        break;
    }
    return "allreduce-rd";
}

static const char *barrier40(int p)
{
    switch (sc_ompi40_barrier_rule(p)) {
    case SC_OMPI_BARRIER_TWO_PROCS: /* one empty exchange: rd on two ranks */
    case SC_OMPI_BARRIER_RECURSIVE_DOUBLING:
        return "barrier-ompi-rd";
    case SC_OMPI_BARRIER_BRUCK: /* dissemination */
        return "barrier";
    default: /* no 4.0 rule picks the others */
        break;
    }
    return "barrier";
}

static const char *allgather40(size_t block, int p)
{
    switch (sc_ompi40_allgather_rule(block, p)) {
    case SC_OMPI_ALLGATHER_TWO_PROCS: /* one exchange of the own block: rd on two ranks */
    case SC_OMPI_ALLGATHER_RECURSIVE_DOUBLING:
        return "rd";
    case SC_OMPI_ALLGATHER_BRUCK:
        return "bruck";
    case SC_OMPI_ALLGATHER_RING:
        return "ring";
    case SC_OMPI_ALLGATHER_NEIGHBOR: /* even p */
        return "allgather-ompi-neighbor";
    default: /* no 4.0 rule picks the others */
        break;
    }
    return "ring";
}

const char *sc_profile_openmpi40_choose(const sc_call_t *call)
{
    int p = call->p;
    size_t elems = call->bytes / sc_type_size(call->type);
    switch (call->collective) {
    case SC_BARRIER:
        return barrier40(p);
    case SC_BCAST:
        return bcast40(call->bytes, p);
    case SC_ALLGATHER:
        return allgather40(call->bytes, p);
    case SC_REDUCE:
        return reduce40(call->bytes, elems, p);
    case SC_ALLREDUCE:
        return allreduce40(call->bytes, elems, p);
    case SC_SCATTER: return scatter(sc_ompi40_scatter_rule(call->bytes, p));
    }
    return "barrier";
}
