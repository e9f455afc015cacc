/* Every call libsimcoll-trace.so records, on any number of ranks from 2:
 * blocking and non-blocking sends of each mode, receives from any source
 * and of any tag, each wait and test, MPI_PROC_NULL, a cancelled receive,
 * every collective (with MPI_IN_PLACE where MPI allows it), and
 * communicators made by split, split_type, dup, dup_with_info, create,
 * create_group, Cart_create, Cart_sub and Dist_graph_create_adjacent, with
 * messages and collectives on them (tests/cli/tracer.sh). It prints, summed
 * over ranks, the messages sent and the calls of each collective, which
 * simcoll run's replay of the trace must count alike.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
    K_BARRIER,
    K_BCAST,
    K_REDUCE,
    K_ALLREDUCE,
    K_GATHER,
    K_GATHERV,
    K_SCATTER,
    K_SCATTERV,
    K_ALLGATHER,
    K_ALLGATHERV,
    K_ALLTOALL,
    K_ALLTOALLV,
    K_REDUCE_SCATTER,
    K_SCAN,
    K_EXSCAN,
    K_MESSAGES,
    K_COUNT
};
static const char *names[K_COUNT] = {"barrier",        "bcast",      "reduce",   "allreduce",
                                     "gather",         "gatherv",    "scatter",  "scatterv",
                                     "allgather",      "allgatherv", "alltoall", "alltoallv",
                                     "reduce_scatter", "scan",       "exscan",   "messages"};
static long n[K_COUNT];

/* A ring on `comm`: each rank sends to the next, by the mode asked. */
static void ring(MPI_Comm comm, int tag, int mode)
{
    int rank, size;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    int next = (rank + 1) % size, prev = (rank + size - 1) % size;
    double out[64] = {0}, in[64];
    MPI_Request r[2];
    int flag = 0, index, outcount, idx[2];
    MPI_Status st;
    n[K_MESSAGES]++;
    switch (mode) {
    case 0: /* MPI_Send, MPI_Recv from any source of any tag */
        MPI_Irecv(in, 64, MPI_DOUBLE, MPI_ANY_SOURCE, MPI_ANY_TAG, comm, &r[0]);
        MPI_Send(out, 64, MPI_DOUBLE, next, tag, comm);
        MPI_Wait(&r[0], &st);
        break;
    case 1: /* MPI_Ssend (to a posted receive), MPI_Recv */
        if (rank % 2 == 0) {
            MPI_Ssend(out, 8, MPI_DOUBLE, next, tag, comm);
            MPI_Recv(in, 8, MPI_DOUBLE, prev, tag, comm, MPI_STATUS_IGNORE);
        } else {
            MPI_Recv(in, 8, MPI_DOUBLE, prev, tag, comm, MPI_STATUS_IGNORE);
            MPI_Ssend(out, 8, MPI_DOUBLE, next, tag, comm);
        }
        break;
    case 2: { /* MPI_Bsend */
        static char buf[4096];
        void *b;
        int len;
        MPI_Buffer_attach(buf, sizeof buf);
        MPI_Bsend(out, 16, MPI_DOUBLE, next, tag, comm);
        MPI_Recv(in, 16, MPI_DOUBLE, MPI_ANY_SOURCE, tag, comm, &st);
        MPI_Buffer_detach(&b, &len);
        break;
    }
    case 3: /* MPI_Rsend, MPI_Irsend to receives posted before a barrier */
        MPI_Irecv(in, 4, MPI_DOUBLE, prev, tag, comm, &r[0]);
        MPI_Barrier(comm);
        n[K_BARRIER]++;
        if (tag % 2)
            MPI_Rsend(out, 4, MPI_DOUBLE, next, tag, comm);
        else {
            MPI_Irsend(out, 4, MPI_DOUBLE, next, tag, comm, &r[1]);
            MPI_Wait(&r[1], MPI_STATUS_IGNORE);
        }
        MPI_Wait(&r[0], MPI_STATUS_IGNORE);
        break;
    case 4: /* MPI_Isend, MPI_Waitall */
        MPI_Irecv(in, 32, MPI_DOUBLE, prev, tag, comm, &r[0]);
        MPI_Isend(out, 32, MPI_DOUBLE, next, tag, comm, &r[1]);
        MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
        break;
    case 5: /* MPI_Issend, MPI_Waitany */
        MPI_Irecv(in, 3, MPI_DOUBLE, prev, tag, comm, &r[0]);
        MPI_Issend(out, 3, MPI_DOUBLE, next, tag, comm, &r[1]);
        MPI_Waitany(2, r, &index, &st);
        MPI_Waitany(2, r, &index, &st);
        break;
    case 6: /* MPI_Ibsend, MPI_Waitsome */
    {
        static char buf[4096];
        void *b;
        int len;
        MPI_Buffer_attach(buf, sizeof buf);
        MPI_Irecv(in, 5, MPI_DOUBLE, prev, tag, comm, &r[0]);
        MPI_Ibsend(out, 5, MPI_DOUBLE, next, tag, comm, &r[1]);
        int left = 2;
        while (left > 0) {
            MPI_Waitsome(2, r, &outcount, idx, MPI_STATUSES_IGNORE);
            left -= outcount;
        }
        MPI_Buffer_detach(&b, &len);
    } break;
    case 7: /* MPI_Testall */
        MPI_Irecv(in, 7, MPI_DOUBLE, prev, tag, comm, &r[0]);
        MPI_Isend(out, 7, MPI_DOUBLE, next, tag, comm, &r[1]);
        while (!flag)
            MPI_Testall(2, r, &flag, MPI_STATUSES_IGNORE);
        break;
    case 8: /* MPI_Testany, then MPI_Testsome */
        MPI_Irecv(in, 9, MPI_DOUBLE, MPI_ANY_SOURCE, tag, comm, &r[0]);
        MPI_Isend(out, 9, MPI_DOUBLE, next, tag, comm, &r[1]);
        do
            MPI_Testany(2, r, &index, &flag, &st);
        while (!flag);
        do
            MPI_Testsome(2, r, &outcount, idx, MPI_STATUSES_IGNORE);
        while (outcount != MPI_UNDEFINED && r[0] != MPI_REQUEST_NULL);
        while (r[1] != MPI_REQUEST_NULL || r[0] != MPI_REQUEST_NULL)
            MPI_Testsome(2, r, &outcount, idx, MPI_STATUSES_IGNORE);
        break;
    case 9: /* MPI_Test on one request */
        MPI_Irecv(in, 2, MPI_DOUBLE, prev, tag, comm, &r[0]);
        MPI_Send(out, 2, MPI_DOUBLE, next, tag, comm);
        while (!flag)
            MPI_Test(&r[0], &flag, MPI_STATUS_IGNORE);
        break;
    case 10: /* MPI_Sendrecv */
        MPI_Sendrecv(out, 10, MPI_DOUBLE, next, tag, in, 10, MPI_DOUBLE, prev, tag, comm,
                     MPI_STATUS_IGNORE);
        break;
    case 11: /* MPI_Sendrecv_replace, from any source */
        MPI_Sendrecv_replace(out, 11, MPI_DOUBLE, next, tag, MPI_ANY_SOURCE, tag, comm, &st);
        break;
    }
}

static void collectives(MPI_Comm comm)
{
    int rank, size;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    int *counts = malloc((size_t)size * sizeof *counts),
        *displs = malloc((size_t)size * sizeof *displs);
    double *a = calloc((size_t)size * 16, sizeof *a), *b = calloc((size_t)size * 16, sizeof *b);
    for (int i = 0; i < size; i++) {
        counts[i] = 2;
        displs[i] = 2 * i;
    }
    int root = size - 1;
    MPI_Datatype types[64];
    for (int i = 0; i < size && i < 64; i++)
        types[i] = MPI_DOUBLE;
    MPI_Barrier(comm);
    MPI_Bcast(a, 16, MPI_DOUBLE, root, comm);
    MPI_Reduce(a, b, 16, MPI_DOUBLE, MPI_SUM, root, comm);
    MPI_Allreduce(a, b, 16, MPI_DOUBLE, MPI_SUM, comm);
    MPI_Allreduce(MPI_IN_PLACE, b, 4, MPI_DOUBLE, MPI_MAX, comm);
    MPI_Gather(a, 2, MPI_DOUBLE, b, 2, MPI_DOUBLE, root, comm);
    MPI_Gatherv(a, 2, MPI_DOUBLE, b, counts, displs, MPI_DOUBLE, 0, comm);
    MPI_Scatter(a, 2, MPI_DOUBLE, b, 2, MPI_DOUBLE, root, comm);
    MPI_Scatterv(a, counts, displs, MPI_DOUBLE, b, 2, MPI_DOUBLE, 0, comm);
    MPI_Allgather(a, 2, MPI_DOUBLE, b, 2, MPI_DOUBLE, comm);
    MPI_Allgather(MPI_IN_PLACE, 2, MPI_DOUBLE, b, 2, MPI_DOUBLE, comm);
    MPI_Allgatherv(a, 2, MPI_DOUBLE, b, counts, displs, MPI_DOUBLE, comm);
    MPI_Alltoall(a, 2, MPI_DOUBLE, b, 2, MPI_DOUBLE, comm);
    MPI_Alltoallv(a, counts, displs, MPI_DOUBLE, b, counts, displs, MPI_DOUBLE, comm);
    if (size <= 64) {
        int bdispls[64];
        for (int i = 0; i < size; i++)
            bdispls[i] = displs[i] * (int)sizeof(double);
        MPI_Alltoallw(a, counts, bdispls, types, b, counts, bdispls, types, comm);
        n[K_ALLTOALLV]++;
    }
    MPI_Reduce_scatter(a, b, counts, MPI_DOUBLE, MPI_SUM, comm);
    MPI_Reduce_scatter_block(a, b, 2, MPI_DOUBLE, MPI_SUM, comm);
    MPI_Scan(a, b, 3, MPI_DOUBLE, MPI_SUM, comm);
    MPI_Exscan(a, b, 3, MPI_DOUBLE, MPI_SUM, comm);
    n[K_BARRIER]++, n[K_BCAST]++, n[K_REDUCE]++, n[K_ALLREDUCE] += 2, n[K_GATHER]++;
    n[K_GATHERV]++, n[K_SCATTER]++, n[K_SCATTERV]++, n[K_ALLGATHER] += 2, n[K_ALLGATHERV]++;
    n[K_ALLTOALL]++, n[K_ALLTOALLV]++, n[K_REDUCE_SCATTER] += 2, n[K_SCAN]++, n[K_EXSCAN]++;
    free(counts);
    free(displs);
    free(a);
    free(b);
}

int main(int argc, char **argv)
{
    int provided;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    for (int mode = 0; mode < 12; mode++)
        ring(MPI_COMM_WORLD, 100 + mode, mode);
    ring(MPI_COMM_WORLD, 201, 3); /* MPI_Rsend */
    /* MPI_PROC_NULL: no message */
    double x = 0;
    MPI_Send(&x, 1, MPI_DOUBLE, MPI_PROC_NULL, 0, MPI_COMM_WORLD);
    MPI_Recv(&x, 1, MPI_DOUBLE, MPI_PROC_NULL, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Sendrecv(&x, 1, MPI_DOUBLE, MPI_PROC_NULL, 0, &x, 1, MPI_DOUBLE, MPI_PROC_NULL, 0,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    /* a receive cancelled */
    MPI_Request r;
    MPI_Status st;
    MPI_Irecv(&x, 1, MPI_DOUBLE, rank, 999, MPI_COMM_WORLD, &r);
    MPI_Cancel(&r);
    MPI_Wait(&r, &st);
    /* a message to oneself */
    ring(MPI_COMM_SELF, 300, 10);
    collectives(MPI_COMM_WORLD);
    /* communicators, each used */
    MPI_Comm split, dup, info_dup, created, group_made, cart, sub, shared, graph;
    MPI_Comm_split(MPI_COMM_WORLD, rank % 2, size - rank, &split); /* keys reverse the order */
    ring(split, 400, 10);
    collectives(split);
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    ring(dup, 401, 4);
    MPI_Comm_dup_with_info(split, MPI_INFO_NULL, &info_dup);
    ring(info_dup, 402, 0);
    MPI_Group world_group, half;
    MPI_Comm_group(MPI_COMM_WORLD, &world_group);
    int range[1][3] = {{0, (size - 1) / 2, 1}};
    MPI_Group_range_incl(world_group, 1, range, &half);
    MPI_Comm_create(MPI_COMM_WORLD, half, &created);
    if (created != MPI_COMM_NULL) {
        ring(created, 403, 4);
        MPI_Allreduce(MPI_IN_PLACE, &x, 1, MPI_DOUBLE, MPI_SUM, created);
        n[K_ALLREDUCE]++;
    }
    if (rank <= (size - 1) / 2) {
        MPI_Comm_create_group(MPI_COMM_WORLD, half, 7, &group_made);
        ring(group_made, 404, 10);
        MPI_Comm_free(&group_made);
    }
    int dims[1] = {size}, periods[1] = {1}, remain[1] = {1};
    MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 1, &cart);
    ring(cart, 405, 4);
    MPI_Cart_sub(cart, remain, &sub);
    MPI_Barrier(sub);
    n[K_BARRIER]++;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &shared);
    MPI_Bcast(&x, 1, MPI_DOUBLE, 0, shared);
    n[K_BCAST]++;
    int next = (rank + 1) % size, prev = (rank + size - 1) % size;
    int weight = 1;
    MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, &prev, &weight, 1, &next, &weight,
                                   MPI_INFO_NULL, 0, &graph);
    ring(graph, 406, 10);
    MPI_Comm_free(&graph);
    MPI_Comm_free(&shared);
    MPI_Comm_free(&sub);
    MPI_Comm_free(&cart);
    if (created != MPI_COMM_NULL)
        MPI_Comm_free(&created);
    MPI_Group_free(&half);
    MPI_Group_free(&world_group);
    MPI_Comm_free(&info_dup);
    MPI_Comm_free(&dup);
    MPI_Comm_free(&split);
    long total[K_COUNT];
    n[K_REDUCE]++; /* the one below */
    MPI_Reduce(n, total, K_COUNT, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0) {
        printf("tracer-calls: ranks %d", size);
        for (int k = 0; k < K_COUNT; k++)
            printf(" %s %ld", names[k], total[k]);
        printf("\n");
    }
    MPI_Finalize();
    return 0;
}
