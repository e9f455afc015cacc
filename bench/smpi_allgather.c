/* One MPI_Allgather of N bytes per rank, for bench/scale.sh's SMPI column
 * (run with smpirun --cfg=smpi/allgather:bruck).
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include <mpi.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int size;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int bytes = argc > 1 ? atoi(argv[1]) : 2048;
    /* SMPI_SHARED_MALLOC: every rank's buffers map the same pages, so
     * thousands of ranks fit in memory as in simcoll's size-only mode.
     * scale.sh makes SMPI's shared blocks 16 MiB, so a buffer is one memory
     * map (at 1 MiB, 4096 ranks exceed Linux's vm.max_map_count). */
    char *send = SMPI_SHARED_MALLOC((size_t)bytes);
    char *recv = SMPI_SHARED_MALLOC((size_t)bytes * (size_t)size);
    MPI_Allgather(send, bytes, MPI_CHAR, recv, bytes, MPI_CHAR, MPI_COMM_WORLD);
    SMPI_SHARED_FREE(recv);
    SMPI_SHARED_FREE(send);
    MPI_Finalize();
    return 0;
}
