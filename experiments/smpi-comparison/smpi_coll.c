/* One collective call under SMPI, timed in simulated seconds from the
 * earliest start to the latest finish over all ranks, as simcoll reports
 * sim_time_s. Used by run.sh, which picks SMPI's algorithm with --cfg.
 * With `warm`, the call is made once untimed first: SMPI's SMP-aware
 * algorithms build node communicators, with collectives of their own, on
 * their first call. A barrier then separates the warm-up from the timed
 * call, and ranks leave it at slightly different times.
 * usage: smpi_coll allgather|bcast|barrier|reduce|allreduce BYTES [warm]
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void call(const char *coll, char *send, char *recv, int bytes)
{
    if (!strcmp(coll, "allgather"))
        MPI_Allgather(send, bytes, MPI_BYTE, recv, bytes, MPI_BYTE, MPI_COMM_WORLD);
    else if (!strcmp(coll, "bcast"))
        MPI_Bcast(send, bytes, MPI_BYTE, 0, MPI_COMM_WORLD);
    else if (!strcmp(coll, "barrier"))
        MPI_Barrier(MPI_COMM_WORLD);
    else if (!strcmp(coll, "reduce"))
        MPI_Reduce(send, recv, bytes / 8, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
    else if (!strcmp(coll, "allreduce"))
        MPI_Allreduce(send, recv, bytes / 8, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    else
        MPI_Abort(MPI_COMM_WORLD, 2);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (argc != 3 && !(argc == 4 && !strcmp(argv[3], "warm"))) {
        if (rank == 0)
            fprintf(stderr, "usage: smpi_coll COLLECTIVE BYTES [warm]\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    const char *coll = argv[1];
    int bytes = atoi(argv[2]);
    /* Shared buffers: contents do not matter here, only times. */
    char *send = SMPI_SHARED_MALLOC((size_t)bytes + 8);
    char *recv = SMPI_SHARED_MALLOC((size_t)bytes * (size_t)size + 8);
    double start = 0;
    for (int timed = argc == 4 ? 0 : 1; timed < 2; timed++) {
        if (timed && argc == 4)
            MPI_Barrier(MPI_COMM_WORLD);
        start = MPI_Wtime();
        call(coll, send, recv, bytes);
    }
    double finish = MPI_Wtime(), first, last;
    /* Taken after the call: these collectives do not count. */
    MPI_Reduce(&start, &first, 1, MPI_DOUBLE, MPI_MIN, 0, MPI_COMM_WORLD);
    MPI_Reduce(&finish, &last, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    if (rank == 0)
        printf("%.9g\n", last - first);
    SMPI_SHARED_FREE(recv);
    SMPI_SHARED_FREE(send);
    MPI_Finalize();
    return 0;
}
