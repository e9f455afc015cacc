/* tracer-overhead: the time of cheap MPI calls, one rank alone (on
 * MPI_COMM_SELF, where MPI itself costs least), so that the same run with
 * and without libsimcoll-trace.so preloaded gives the tracer's own cost per
 * call (experiments/traces/miniapp/overhead.sh).
 * usage: tracer-overhead [ITERATIONS]   (default 200000 of each kind)
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    long n = argc > 1 ? atol(argv[1]) : 200000;
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    double x = 1, y = 0, t;
    MPI_Request req[2];
    /* warm up: MPI's own first calls are slow */
    for (long i = 0; i < n / 10; i++)
        MPI_Barrier(MPI_COMM_SELF);
    t = MPI_Wtime();
    for (long i = 0; i < n; i++)
        MPI_Barrier(MPI_COMM_SELF);
    double barrier = (MPI_Wtime() - t) / (double)n;
    t = MPI_Wtime();
    for (long i = 0; i < n; i++)
        MPI_Allreduce(&x, &y, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_SELF);
    double allreduce = (MPI_Wtime() - t) / (double)n;
    t = MPI_Wtime();
    for (long i = 0; i < n; i++) {
        MPI_Irecv(&y, 1, MPI_DOUBLE, 0, 0, MPI_COMM_SELF, &req[0]);
        MPI_Isend(&x, 1, MPI_DOUBLE, 0, 0, MPI_COMM_SELF, &req[1]);
        MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
    }
    double p2p = (MPI_Wtime() - t) / (double)n / 3;
    /* a test that fails: a receive nothing matches */
    int flag;
    MPI_Irecv(&y, 1, MPI_DOUBLE, 0, 1, MPI_COMM_SELF, &req[0]);
    t = MPI_Wtime();
    for (long i = 0; i < n; i++)
        MPI_Test(&req[0], &flag, MPI_STATUS_IGNORE);
    double test = (MPI_Wtime() - t) / (double)n;
    MPI_Send(&x, 1, MPI_DOUBLE, 0, 1, MPI_COMM_SELF);
    MPI_Wait(&req[0], MPI_STATUS_IGNORE);
    /* the clock the tracer reads twice a call */
    double sum = 0;
    t = MPI_Wtime();
    for (long i = 0; i < n; i++)
        sum += MPI_Wtime();
    double wtime = (MPI_Wtime() - t) / (double)n;
    if (rank == 0)
        printf("tracer-overhead: %ld calls of each kind, ns a call: barrier %.1f allreduce %.1f "
               "isend-irecv-waitall %.1f test %.1f (MPI_Wtime %.1f)\n",
               n, 1e9 * barrier, 1e9 * allreduce, 1e9 * p2p, 1e9 * test, 1e9 * wtime);
    if (sum < 0)
        printf("never\n");
    MPI_Finalize();
    return 0;
}
