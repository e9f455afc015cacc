/* simcoll-probe --collectives: each collective timed as OSU times it, for
 * simcoll validate.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "probe.h"

/* One call of collective c on comm over `bytes` (allgather: each rank's
 * block; reduce, allreduce: floats summed, as OSU's). */
static void call(const char *c, MPI_Comm comm, long bytes, char *in, char *out)
{
    int count = (int)bytes;
    if (!strcmp(c, "barrier"))
        MPI_Barrier(comm);
    else if (!strcmp(c, "bcast"))
        MPI_Bcast(in, count, MPI_BYTE, 0, comm);
    else if (!strcmp(c, "allgather"))
        MPI_Allgather(in, count, MPI_BYTE, out, count, MPI_BYTE, comm);
    else if (!strcmp(c, "reduce"))
        MPI_Reduce(in, out, count / 4, MPI_FLOAT, MPI_SUM, 0, comm);
    else
        MPI_Allreduce(in, out, count / 4, MPI_FLOAT, MPI_SUM, comm);
}

/* Each collective on the first n ranks for each --np n, at each size, as
 * OSU times it: a barrier, then the call, per iteration; each rank's mean
 * time per call, averaged over the ranks (OSU's "Avg Latency"). */
void probe_measure_collectives(FILE *f, const options_t *o, int me, int nranks)
{
    long most = 0;
    for (int k = 0; k < o->nsizes; k++)
        most = o->sizes[k] > most ? o->sizes[k] : most;
    size_t block = (size_t)(most ? most : 1);
    char *in = calloc(block, 1), *out = calloc(block, (size_t)nranks);
    if (!in || !out)
        probe_die("out of memory for collectives of %ld bytes on %d ranks", most, nranks);
    for (int c = 0; c < o->ncolls; c++)
        for (int q = 0; q < o->nnps; q++) {
            MPI_Comm comm;
            int n = (int)o->nps[q];
            MPI_Comm_split(MPI_COMM_WORLD, me < n ? 0 : MPI_UNDEFINED, me, &comm);
            for (int k = 0; k < (strcmp(o->colls[c], "barrier") ? o->nsizes : 1); k++) {
                long bytes = strcmp(o->colls[c], "barrier") ? o->sizes[k] : 0;
                /* The reductions sum whole floats. */
                if (!strcmp(o->colls[c], "reduce") || !strcmp(o->colls[c], "allreduce"))
                    bytes -= bytes % 4;
                double total = 0, mean = 0;
                if (comm != MPI_COMM_NULL) {
                    for (int i = -o->warmup; i < o->reps; i++) {
                        MPI_Barrier(comm);
                        double start = MPI_Wtime();
                        call(o->colls[c], comm, bytes, in, out);
                        if (i >= 0)
                            total += MPI_Wtime() - start;
                    }
                    double mine = total / o->reps;
                    MPI_Reduce(&mine, &mean, 1, MPI_DOUBLE, MPI_SUM, 0, comm);
                    mean /= n;
                }
                MPI_Barrier(MPI_COMM_WORLD);
                if (me == 0 && (bytes > 0 || !strcmp(o->colls[c], "barrier")))
                    fprintf(f, "collective    %-9s %5d %9ld %.6e\n", o->colls[c], n, bytes,
                            mean);
            }
            if (comm != MPI_COMM_NULL)
                MPI_Comm_free(&comm);
        }
    free(in);
    free(out);
}
