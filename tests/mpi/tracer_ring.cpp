// A C++ application for the tracer (tests/cli/tracer.sh): a ring of
// messages in std::vector buffers, an allreduce and a broadcast, through
// the MPI C API as C++ code calls it.
// SPDX-License-Identifier: GPL-2.0-or-later
#include <mpi.h>

#include <cstdio>
#include <numeric>
#include <vector>

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank = 0, size = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    std::vector<double> out(1000, rank), in(1000);
    const int rounds = 10;
    for (int round = 0; round < rounds; round++) {
        MPI_Request req[2];
        MPI_Irecv(in.data(), (int)in.size(), MPI_DOUBLE, (rank + size - 1) % size, round,
                  MPI_COMM_WORLD, &req[0]);
        MPI_Isend(out.data(), (int)out.size(), MPI_DOUBLE, (rank + 1) % size, round, MPI_COMM_WORLD,
                  &req[1]);
        MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
        out.swap(in);
    }
    double mine = std::accumulate(out.begin(), out.end(), 0.0), sum = 0;
    MPI_Allreduce(&mine, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    MPI_Bcast(&sum, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    if (rank == 0)
        std::printf("tracer-ring: ranks %d messages %d allreduce 1 bcast 1\n", size, size * rounds);
    MPI_Finalize();
    return 0;
}
