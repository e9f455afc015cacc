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
    return sc_algo_find(profile->choose(call));
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
