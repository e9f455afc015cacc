/* Preloaded beside libsimcoll-trace.so (tests/cli/tracer.sh): rank 0
 * leaves its first PMPI_Barrier, the one where the tracer puts the ranks'
 * clocks together at MPI_Init, 0.3 s after the others, as a rank the
 * scheduler has put aside would. Were the others' clocks put on rank 0's
 * by that leaving, their calls would seem 0.3 s later than they were, past
 * the end of rank 0's. On one host the trace must not see it.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include <dlfcn.h>
#include <mpi.h>
#include <time.h>

int PMPI_Barrier(MPI_Comm comm)
{
    static int calls;
    int (*barrier)(MPI_Comm);
    *(void **)&barrier = dlsym(RTLD_NEXT, "PMPI_Barrier");
    int err = barrier(comm);
    int rank;
    PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (calls++ == 0 && rank == 0)
        nanosleep(&(struct timespec){0, 300000000}, NULL);
    return err;
}
