/* MPI library profiles: the table, and what they share.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "profiles.h"

#include <stdlib.h>
#include <string.h>

/* The rules as the libraries' sources state them, m being the bytes of the
 * call (allgather: of all blocks), p the processes. "node-aware": some node
 * holds two of the ranks. */
#define MPICH_RULES                                                                               \
    {                                                                                             \
        [SC_ALLGATHER] = "rd if p is a power of two and p m < 512 KiB; bruck if p m < 80 KiB; "   \
                         "else ring",                                                             \
        [SC_BCAST] = "bcast-mpich-smp if node-aware; else bcast-binomial if m < 12 KiB or p < 8; " \
                     "bcast-scatter-rd if m < 512 KiB and p a power of two; else "                \
                     "bcast-scatter-allgather",                                                   \
        [SC_BARRIER] = "barrier-mpich-smp if node-aware; else barrier (dissemination)",           \
        [SC_REDUCE] = "reduce-mpich-smp if node-aware; else reduce-rabenseifner if m > 2048 and " \
                      "the vector has at least pof2(p) elements; else reduce-mst",                \
        [SC_ALLREDUCE] = "allreduce-mpich-smp if node-aware; else allreduce-rd if m <= 2048 or "  \
                         "the vector has fewer than pof2(p) elements; else "                      \
                         "allreduce-rabenseifner",                                                \
        [SC_SCATTER] = "scatter-ompi-binomial always (MPIR_Scatter's binomial tree: the same "    \
                       "messages in the same order)",                                             \
    }

const sc_profile_t sc_profiles[] = {
    {"mpich2-1.2.1", "MPICH2 1.2.1, ch3 device, SMP-aware collectives (--enable-smpcoll, the default)",
     "MPICH2 1.2.1 (pmodels/mpich, tag v1.2.1): src/include/mpiimpl.h:3387-3400, "
     "src/mpi/coll/{barrier,bcast,allgather,allreduce,reduce}.c",
     sc_profile_mpich_choose, MPICH_RULES},
    {"mpich-3.2", "MPICH 3.0 to 3.3 with default CVARs (the same choices as MPICH2 1.2.1)",
     "MPICH 3.2 (pmodels/mpich, tag v3.2): the CVAR defaults and MPIR_*_intra of "
     "src/mpi/coll/{barrier,bcast,allgather,allreduce,reduce}.c",
     sc_profile_mpich_choose, MPICH_RULES},
    {"openmpi-4.0", "Open MPI 3.1.0 to 4.0.7, coll/tuned with its fixed decision rules (the default)",
     "Open MPI v4.0.3 and v3.1.6 (open-mpi/ompi): ompi/mca/coll/tuned/coll_tuned_decision_fixed.c "
     "(the same rules from v3.0.0 to v4.0.7) and ompi/mca/coll/base/coll_base_allreduce.c",
     sc_profile_openmpi40_choose,
     {
        [SC_ALLGATHER] = "p == 2: rd (two-procs); p m < 50000 (m one rank's block): rd if p is a "
                         "power of two, else bruck; else ring for odd p, "
                         "allgather-ompi-neighbor for even p",
        [SC_BARRIER] = "p == 2 (two-procs) or p a power of two: barrier-ompi-rd; else barrier "
                       "(bruck = dissemination)",
        [SC_BCAST] =
         "m < 2048: bcast-ompi-binomial; m < 370728: split-bintree with 1 KiB segments; else, "
         "with lines fitted by Open MPI, p < 1.6134e-6 m + 2.1102: pipeline with 128 KiB "
         "segments; p < 13: split-bintree with 8 KiB; p < 2.3679e-6 m + 1.1787: pipeline 64 "
         "KiB; p < 3.2118e-6 m + 8.7936: pipeline 16 KiB; else pipeline 8 KiB. APPROXIMATION: "
         "simcoll runs split-bintree as bcast-ompi-split-bintree and pipeline as "
         "bcast-ompi-chain, both unsegmented (slower than Open MPI's pipelines for long messages)",
        [SC_REDUCE] =
         "p < 8 and m < 512: reduce-ompi-linear; p < 8 and m < 20480, m < 2048 or one element: "
         "reduce-ompi-binomial; else, with lines fitted by Open MPI, p > 0.6016/1024 m + "
         "1.3496: binomial with 1 KiB segments; p > 0.0410/1024 m + 9.7128: pipeline 1 KiB; p "
         "> 0.0422/1024 m + 1.1614: binary 32 KiB; p > 0.0033/1024 m + 1.6761: pipeline 32 KiB; "
         "else pipeline 64 KiB. APPROXIMATION: simcoll runs these unsegmented as "
         "reduce-ompi-binomial, reduce-ompi-chain (pipeline) and reduce-ompi-binary, exact only "
         "when m is at most the segment",
        [SC_ALLREDUCE] =
         "m < 10000: allreduce-rd; more elements than p: allreduce-ompi-ring up to p MiB, "
         "allreduce-ompi-ring-segmented (1 MiB segments) above; else (from 1250 ranks for "
         "doubles) nonoverlapping, APPROXIMATED by allreduce-ompi-nonoverlapping, whose reduce "
         "and broadcast follow 4.1's tables, not 4.0's segmented binomial reduce and "
         "split-bintree or pipeline broadcast",
        [SC_SCATTER] = "by p and the block m: scatter-ompi-binomial if p > 10 and m < 300, else "
                       "scatter-ompi-linear",
     }},
    {"openmpi-4.1", "Open MPI 4.1 (and 5.0), coll/tuned with its fixed decision rules (the default)",
     "Open MPI v4.1.6 (open-mpi/ompi): ompi/mca/coll/tuned/coll_tuned_decision_fixed.c and the "
     "fallbacks in ompi/mca/coll/base/coll_base_{barrier,bcast,allgather,allreduce,reduce}.c",
     sc_profile_openmpi41_choose,
     {
        [SC_ALLGATHER] =
         "by p and the block m: p == 2: two-procs; p < 32: rd; p < 64: m < 1K rd, < 64K "
         "neighbor, else ring; p < 128: m < 512 rd, < 64K neighbor, else ring; p < 256: m < "
         "512 rd, < 128K neighbor, < 512K ring, < 1M neighbor, else ring; p < 512: m < 32 rd, "
         "< 128 bruck, < 1K rd, < 128K neighbor, < 512K ring, < 1M neighbor, else ring; p < "
         "1024: m < 64 rd, < 256 bruck, < 2K rd, else neighbor; p < 2048: m < 4 rd, < 8 bruck,"
         " < 16 rd, < 32 bruck, < 256 rd, < 512 bruck, < 4K rd, else neighbor; p < 4096: m < "
         "32 bruck, < 128 rd, < 512 bruck, < 4K rd, else neighbor; else: m < 2 rd, < 8 bruck, "
         "< 16 rd, < 512 bruck, < 4K rd, else neighbor (rd: rd, or bruck unless p is a power "
         "of two; neighbor: allgather-ompi-neighbor, or ring for odd p; two-procs: rd)",
        [SC_BARRIER] =
         "by p only: p < 4 barrier-ompi-rd; p < 8 barrier-ompi-linear; p < 64 barrier-ompi-rd;"
         " p < 256 barrier (bruck = dissemination); p < 512 barrier-ompi-tree; p < 1024 "
         "barrier; p < 4096 barrier-ompi-tree; else barrier",
        [SC_BCAST] =
         "bcast-ompi-NAME by p and m: p < 4: m < 32 chain, < 256 bintree, < 512 chain, < 1K "
         "knomial, < 32K linear, < 128K bintree, < 256K chain, < 512K linear, < 1M binomial, "
         "else bintree; p < 8: m < 64 bintree, < 128 binomial, < 2K bintree, < 8K binomial, < "
         "1M linear, else chain; p < 16: m < 8 knomial, < 64 bintree, < 4K knomial, < 16K "
         "bintree, < 32K binomial, else linear; p < 32: m < 4K knomial, < 1M binomial, else "
         "scatter; p < 64: m < 2K binomial, else knomial; p < 128: knomial; p < 256: m < 2 "
         "binomial, < 16K bintree, < 32K linear, < 64K bintree, else knomial; p < 1024: m < "
         "16K knomial, < 32K split, else knomial; p < 2048: m < 512K knomial, else scatter; p "
         "< 4096: m < 256K knomial, else scatter; else: m < 8K knomial, < 16K bintree, < 256K "
         "knomial, else scatter (split: split-bintree, or chain for m = 1; scatter: "
         "scatter-allgather, or linear for m < p)",
        [SC_REDUCE] =
         "reduce-ompi-NAME by p and m: p < 4: m < 8 redscat, < 16 binary, < 32 chain, < 256K "
         "linear, else chain; p < 8: m < 4K binary, < 64K chain, < 256K binomial, < 512K "
         "linear, < 1M binomial, else linear; p < 16: m < 8K binary, else binomial; p < 32: m "
         "< 4K binary, else binomial; p < 256: binomial; p < 512: m < 8K binomial, < 16K "
         "in-order, else binomial; p < 2048: binomial; p < 4096: m < 512 binomial, < 1K "
         "in-order, < 8K binomial, < 16K in-order, else binomial; else: m < 16 binomial, < 32 "
         "in-order, < 1K binomial, < 2K in-order, < 8K binomial, < 16K in-order, else binomial"
         " (in-order: in-order-binary; redscat: redscat-gather, or linear below pof2(p) "
         "elements)",
        [SC_ALLREDUCE] =
         "by p and m: p < 4: m < 8 ring, < 4K rd, < 8K ring, < 16K rd, < 256K ring, else "
         "rabenseifner; p < 8: m < 16 ring, < 8K rd, else rabenseifner; p < 16: m < 8K rd, "
         "else rabenseifner; p < 32: m < 64 ring, < 4K rd, else rabenseifner; p < 64: m < 128 "
         "ring, else rabenseifner; p < 128: m < 256K rd, else rabenseifner; p < 256: m < 128K "
         "nonoverlapping, < 256K rd, else rabenseifner; p < 512: m < 4K nonoverlapping, else "
         "rabenseifner; p < 2048: m < 2K nonoverlapping, < 16K rd, else rabenseifner; p < "
         "4096: m < 2K nonoverlapping, < 4K ring, < 16K rd, else rabenseifner; else: m < 2K "
         "nonoverlapping, < 16K ring, < 32K rd, else rabenseifner (rd: allreduce-rd; ring: "
         "allreduce-ompi-ring, or allreduce-rd below p elements; rabenseifner: "
         "allreduce-mpich, or allreduce-ompi-linear below pof2(p) elements; nonoverlapping: "
         "allreduce-ompi-nonoverlapping, reduce to 0 and broadcast as their rules pick)",
        [SC_SCATTER] =
         "scatter-ompi-NAME by p and the block m (5.0.5's rules too): p < 4: m < 2 linear-nb, "
         "< 128K linear, < 256K linear-nb, else linear; p < 8: m < 2K binomial, < 4K linear, < "
         "8K binomial, < 32K linear, < 1M linear-nb, else linear; p < 16: m < 16K binomial, < "
         "1M linear-nb, else linear; p < 32: m < 16K binomial, < 32K linear, else linear-nb; p "
         "< 64: m < 512 binomial, < 8K linear-nb, < 16K binomial, else linear-nb; else: m < "
         "512 binomial, else linear-nb",
     }},
    {"mvapich2-1.4", "MVAPICH2 1.4, gen2 (OFED InfiniBand) channel, shared-memory collectives on (the default)",
     "MVAPICH2 1.4 (trunk r3523, 'Update for 1.4 release'; github.com/kumattau/mvapich2 commit "
     "fe083fff): src/mpi/coll/{barrier,bcast,allgather,allreduce,reduce}.c, "
     "src/mpi/comm/create_2level_comm.c, src/mpid/ch3/channels/mrail/src/gen2/ibv_param.c:70-74",
     sc_profile_mvapich2_14_choose,
     {
        [SC_ALLGATHER] = "as mpich2-1.2.1: rd if p is a power of two and p m < 512 KiB; bruck if "
                         "p m < 80 KiB; else ring",
        [SC_BARRIER] = "barrier-mv2-shmem if node-aware; else barrier (dissemination)",
        [SC_BCAST] = "m <= 12 KiB or p < 8: bcast-mv2-knomial if p > 64 and m <= 2048, else "
                     "bcast-binomial; m < 1 MiB: bcast-mv2-shmem if node-aware, else "
                     "bcast-scatter-allgather; else bcast-scatter-allgather",
        [SC_REDUCE] = "reduce-mv2-shmem if node-aware and m < 1 KiB; else reduce-rabenseifner if "
                      "m > 2048 and the vector has at least pof2(p) elements; else reduce-mst",
        [SC_ALLREDUCE] = "allreduce-mv2-shmem if node-aware and m < 32 KiB; else allreduce-rd if "
                         "m <= 2048 or the vector has fewer than pof2(p) elements; else "
                         "allreduce-rabenseifner",
        [SC_SCATTER] = "none: simcoll has not read MVAPICH2 1.4's scatter code",
     }},
    {NULL, NULL, NULL, NULL, {NULL}},
};

const sc_profile_t *sc_profile_find(const char *name)
{
    for (const sc_profile_t *p = sc_profiles; p->name; p++)
        if (!strcmp(p->name, name))
            return p;
    return NULL;
}

const sc_algo_t *sc_profile_choose(const sc_profile_t *profile, const sc_call_t *call)
{
    const char *name = profile->choose(call);
    return name ? sc_algo_find(name) : NULL;
}

sc_err_t sc_profile_no_rule(const sc_profile_t *profile, sc_collective_t collective)
{
    return sc_error(SC_ERR_INPUT, "profile %s has no %s rule (simcoll list --mpi); name an "
                                  "algorithm instead (simcoll list --coll %s)",
                    profile->name, sc_collective_name(collective), sc_collective_name(collective));
}

int sc_call_node_aware(const sc_call_t *call)
{
    int max = 0;
    for (int r = 0; r < call->p; r++)
        if (call->node_of[r] > max)
            max = call->node_of[r];
    char *seen = calloc((size_t)max + 1, 1);
    int twice = 0;
    for (int r = 0; seen && r < call->p && !twice; r++)
        twice = seen[call->node_of[r]]++;
    free(seen);
    return twice;
}
