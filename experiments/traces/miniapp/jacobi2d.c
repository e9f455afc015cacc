/* jacobi2d: a small MPI application to trace and replay (experiments/traces/
 * miniapp/README.md). Two solvers, as applications run them:
 *   1. Jacobi iterations of Laplace's equation on an N x N grid, split in
 *      blocks over a 2-D Cartesian grid of the ranks: each iteration
 *      exchanges the blocks' edges with the four neighbours (MPI_Irecv,
 *      MPI_Isend of rows and of columns as a vector datatype, MPI_Waitall,
 *      on a duplicate of the Cartesian communicator), updates the block
 *      and sums the residual with MPI_Allreduce;
 *   2. conjugate gradients on a 1-D Poisson problem of M points a rank:
 *      MPI_Sendrecv of the ends with the two neighbours for the product by
 *      the matrix, two MPI_Allreduce dot products an iteration.
 * Around them: parameters broadcast, a row communicator (MPI_Comm_split)
 * reducing each row's residual, the ranks' times gathered, barriers.
 * It prints its own time (MPI_Init's return to the last barrier, rank 0's
 * clock) and how many messages and collectives its ranks made, so that a
 * replay of its trace can be checked against both.
 * --crash-after S: the last rank kills itself (SIGKILL) at the first
 * iteration S seconds after the start, as a crash would (tests/cli/
 * tracer.sh).
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include <math.h>
#include <mpi.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { C_MSG, C_ALLREDUCE, C_REDUCE, C_BCAST, C_GATHER, C_BARRIER, C_COUNT };

static long counts[C_COUNT];

static void usage(void)
{
    fprintf(stderr, "usage: jacobi2d [-n N] [-i ITERATIONS] [-m POINTS] [-c ITERATIONS] "
                    "[--crash-after SECONDS]\n"
                    "  -n N   Jacobi grid of N x N points (default 512)\n"
                    "  -i I   Jacobi iterations (default 200)\n"
                    "  -m M   conjugate gradients' points a rank (default 20000)\n"
                    "  -c C   conjugate gradient iterations (default 100)\n");
}

/* Parameters, parsed by rank 0 and broadcast: n, iterations, m, cg, and
 * the crash time (0: none). */
static int parse(int argc, char **argv, double p[5])
{
    p[0] = 512, p[1] = 200, p[2] = 20000, p[3] = 100, p[4] = 0;
    for (int i = 1; i < argc; i++) {
        int k = !strcmp(argv[i], "-n")              ? 0
                : !strcmp(argv[i], "-i")            ? 1
                : !strcmp(argv[i], "-m")            ? 2
                : !strcmp(argv[i], "-c")            ? 3
                : !strcmp(argv[i], "--crash-after") ? 4
                                                    : -1;
        char *end;
        if (k < 0 || i + 1 == argc || (p[k] = strtod(argv[++i], &end), *end) || p[k] < 0) {
            usage();
            return 0;
        }
    }
    return p[0] >= 4;
}

static double jacobi(MPI_Comm cart, int n, int iterations, double crash, double start)
{
    int dims[2], periods[2], coords[2], rank, size;
    MPI_Comm_rank(cart, &rank);
    MPI_Comm_size(cart, &size);
    MPI_Cart_get(cart, 2, dims, periods, coords);
    int up, down, left, right;
    MPI_Cart_shift(cart, 0, 1, &up, &down);
    MPI_Cart_shift(cart, 1, 1, &left, &right);
    /* this block: rows and columns of the grid, the rest spread */
    int rows = n / dims[0] + (coords[0] < n % dims[0]);
    int cols = n / dims[1] + (coords[1] < n % dims[1]);
    int w = cols + 2;
    double *u = calloc((size_t)(rows + 2) * (size_t)w, sizeof *u);
    double *v = calloc((size_t)(rows + 2) * (size_t)w, sizeof *v);
    if (!u || !v) {
        fprintf(stderr, "jacobi2d: out of memory\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    if (coords[0] == 0) /* the grid's top edge is held at 1 */
        for (int j = 0; j < w; j++)
            u[j] = v[j] = 1;
    MPI_Datatype column;
    MPI_Type_vector(rows, 1, w, MPI_DOUBLE, &column);
    MPI_Type_commit(&column);
    MPI_Comm halo; /* as a library keeps its messages apart */
    MPI_Comm_dup(cart, &halo);
    double residual = 0;
    for (int it = 0; it < iterations; it++) {
        if (crash > 0 && rank == size - 1 && MPI_Wtime() - start > crash)
            raise(SIGKILL);
        MPI_Request req[8];
        MPI_Irecv(&u[1], cols, MPI_DOUBLE, up, 0, halo, &req[0]);
        MPI_Irecv(&u[(rows + 1) * w + 1], cols, MPI_DOUBLE, down, 1, halo, &req[1]);
        MPI_Irecv(&u[w], 1, column, left, 2, halo, &req[2]);
        MPI_Irecv(&u[w + cols + 1], 1, column, right, 3, halo, &req[3]);
        MPI_Isend(&u[w + 1], cols, MPI_DOUBLE, up, 1, halo, &req[4]);
        MPI_Isend(&u[rows * w + 1], cols, MPI_DOUBLE, down, 0, halo, &req[5]);
        MPI_Isend(&u[w + 1], 1, column, left, 3, halo, &req[6]);
        MPI_Isend(&u[w + cols], 1, column, right, 2, halo, &req[7]);
        counts[C_MSG] += (up != MPI_PROC_NULL) + (down != MPI_PROC_NULL) + (left != MPI_PROC_NULL) +
                         (right != MPI_PROC_NULL);
        MPI_Waitall(8, req, MPI_STATUSES_IGNORE);
        double local = 0;
        for (int i = 1; i <= rows; i++)
            for (int j = 1; j <= cols; j++) {
                int k = i * w + j;
                v[k] = 0.25 * (u[k - 1] + u[k + 1] + u[k - w] + u[k + w]);
                local += (v[k] - u[k]) * (v[k] - u[k]);
            }
        double *t = u;
        u = v;
        v = t;
        MPI_Allreduce(&local, &residual, 1, MPI_DOUBLE, MPI_SUM, cart);
        counts[C_ALLREDUCE]++;
    }
    /* each row's share of the last residual, at the row's first rank */
    MPI_Comm row;
    MPI_Comm_split(cart, coords[0], coords[1], &row);
    double mine = 0, sum = 0;
    for (int i = 1; i <= rows; i++)
        for (int j = 1; j <= cols; j++)
            mine += u[i * w + j];
    MPI_Reduce(&mine, &sum, 1, MPI_DOUBLE, MPI_SUM, 0, row);
    counts[C_REDUCE]++;
    MPI_Comm_free(&row);
    MPI_Comm_free(&halo);
    MPI_Type_free(&column);
    free(u);
    free(v);
    return sqrt(residual);
}

/* Conjugate gradients on -x'' = 1 with x = 0 at both ends, M points a
 * rank; a fixed number of iterations, so that every run makes the same
 * calls. */
static double cg(int m, int iterations)
{
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int left = rank > 0 ? rank - 1 : MPI_PROC_NULL;
    int right = rank < size - 1 ? rank + 1 : MPI_PROC_NULL;
    double *x = calloc((size_t)m, sizeof *x), *r = malloc((size_t)m * sizeof *r);
    double *p = malloc((size_t)(m + 2) * sizeof *p), *q = malloc((size_t)m * sizeof *q);
    if (!x || !r || !p || !q) {
        fprintf(stderr, "jacobi2d: out of memory\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    double rr = 0, local;
    for (int i = 0; i < m; i++) {
        r[i] = 1;
        p[i + 1] = 1;
    }
    local = m;
    MPI_Allreduce(&local, &rr, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    counts[C_ALLREDUCE]++;
    for (int it = 0; it < iterations && rr > 0; it++) {
        p[0] = p[m + 1] = 0;
        MPI_Sendrecv(&p[1], 1, MPI_DOUBLE, left, 0, &p[m + 1], 1, MPI_DOUBLE, right, 0,
                     MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Sendrecv(&p[m], 1, MPI_DOUBLE, right, 1, &p[0], 1, MPI_DOUBLE, left, 1, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
        counts[C_MSG] += (left != MPI_PROC_NULL) + (right != MPI_PROC_NULL);
        local = 0;
        for (int i = 0; i < m; i++) {
            q[i] = 2 * p[i + 1] - p[i] - p[i + 2];
            local += p[i + 1] * q[i];
        }
        double pq;
        MPI_Allreduce(&local, &pq, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        double alpha = rr / pq, next = 0;
        local = 0;
        for (int i = 0; i < m; i++) {
            x[i] += alpha * p[i + 1];
            r[i] -= alpha * q[i];
            local += r[i] * r[i];
        }
        MPI_Allreduce(&local, &next, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        counts[C_ALLREDUCE] += 2;
        for (int i = 0; i < m; i++)
            p[i + 1] = r[i] + next / rr * p[i + 1];
        rr = next;
    }
    free(x);
    free(r);
    free(p);
    free(q);
    return sqrt(rr);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    double start = MPI_Wtime();
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    double p[5];
    int ok = rank == 0 ? parse(argc, argv, p) : 1;
    MPI_Bcast(&ok, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (!ok) {
        MPI_Finalize();
        return 2;
    }
    MPI_Bcast(p, 5, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    counts[C_BCAST] += 2;
    int dims[2] = {0, 0}, periods[2] = {0, 0};
    MPI_Dims_create(size, 2, dims);
    MPI_Comm cart;
    MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &cart);
    MPI_Barrier(MPI_COMM_WORLD);
    counts[C_BARRIER]++;
    double res_j = jacobi(cart, (int)p[0], (int)p[1], p[4], start);
    double res_cg = cg((int)p[2], (int)p[3]);
    MPI_Comm_free(&cart);
    double mine = MPI_Wtime() - start, *all = rank == 0 ? malloc((size_t)size * sizeof *all) : NULL;
    MPI_Gather(&mine, 1, MPI_DOUBLE, all, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    counts[C_GATHER]++;
    counts[C_REDUCE]++; /* the one below */
    long total[C_COUNT];
    MPI_Reduce(counts, total, C_COUNT, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    MPI_Barrier(MPI_COMM_WORLD);
    double elapsed = MPI_Wtime() - start;
    if (rank == 0) {
        /* every collective was called by every rank of its communicator:
         * calls are counted once (a row's reduce once per row) */
        printf("jacobi2d: ranks %d grid %dx%d dims %dx%d jacobi %d cg-points %d cg %d time_s %.6f "
               "residual %.6e %.6e messages %ld allreduce %ld reduce %ld bcast %ld gather %ld "
               "barrier %ld\n",
               size, (int)p[0], (int)p[0], dims[0], dims[1], (int)p[1], (int)p[2], (int)p[3],
               elapsed, res_j, res_cg, total[C_MSG], total[C_ALLREDUCE] / size, (long)dims[0] + 1,
               total[C_BCAST] / size, total[C_GATHER] / size, total[C_BARRIER] / size + 1);
        free(all);
    }
    MPI_Finalize();
    return 0;
}
