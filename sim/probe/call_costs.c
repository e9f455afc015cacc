/* simcoll-probe --call-costs (issue 45): collectives on MPI_COMM_SELF and
 * on rank 0's pairs against their ping-pong, fan-in, a relay and the
 * barrier's skew.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "probe.h"

/* --call-costs (issue 45): what a small collective pays beside the
 * messages a ping-pong shows. Each test runs on the pair's communicator
 * (rank 0 and its partner of a placement, rank 0 first) and gives rank 0
 * one sample per iteration: the rows are the median of --reps after
 * --warmup, and KIND-min the smallest, the least disturbed by other work
 * on the machine. */
enum { SELF_BATCH = 100 };

static const char *const cost_collectives[] = {"barrier", "bcast", "allreduce", "scatter"};
enum { NCOST_COLLECTIVES = 4 };

/* One call of collective c rooted at `root` (2-rank and MPI_COMM_SELF
 * communicators only: scatter's `in` holds a block a rank). */
static void call_rooted(const char *c, MPI_Comm comm, int root, long bytes, char *in, char *out)
{
    int count = (int)bytes;
    if (!strcmp(c, "barrier"))
        MPI_Barrier(comm);
    else if (!strcmp(c, "bcast"))
        MPI_Bcast(in, count, MPI_BYTE, root, comm);
    else if (!strcmp(c, "allreduce"))
        MPI_Allreduce(in, out, count / 4, MPI_FLOAT, MPI_SUM, comm);
    else
        MPI_Scatter(in, count, MPI_BYTE, out, count, MPI_BYTE, root, comm);
}

/* The ping-pong of the pair, as pingpong() times it, on pc; with
 * `barrier`, an MPI_Barrier of the two before each round trip (outside
 * the time): the round trip then never follows another at once. */
static void pair_pingpong(MPI_Comm pc, char *buffer, long bytes, int barrier, const options_t *o,
                          double *t)
{
    int r;
    MPI_Comm_rank(pc, &r);
    for (int i = -o->warmup; i < o->reps; i++) {
        if (barrier)
            MPI_Barrier(pc);
        double start = MPI_Wtime();
        if (r == 0) {
            MPI_Send(buffer, (int)bytes, MPI_BYTE, 1, TAG, pc);
            MPI_Recv(buffer, (int)bytes, MPI_BYTE, 1, TAG, pc, MPI_STATUS_IGNORE);
        } else {
            MPI_Recv(buffer, (int)bytes, MPI_BYTE, 0, TAG, pc, MPI_STATUS_IGNORE);
            MPI_Send(buffer, (int)bytes, MPI_BYTE, 0, TAG, pc);
        }
        if (i >= 0)
            t[i] = (MPI_Wtime() - start) / 2;
    }
}

/* The pair's ping-pong made of the calls a collective makes for each of
 * its messages (Open MPI's and MPICH's collectives send and receive by
 * request): the receive posted with MPI_Irecv before the message comes,
 * the send an MPI_Isend, each completed by MPI_Wait; half a round trip.
 * Less the blocking ping-pong's one-way time, what a collective's message
 * pays beside the one osu_latency times (MPI_Send's fast path). */
static void pair_pingpong_requests(MPI_Comm pc, char *buffer, long bytes, const options_t *o,
                                   double *t)
{
    int r;
    MPI_Comm_rank(pc, &r);
    /* rank 0 sends while its receive is posted: into the next block */
    char *into = r == 0 ? buffer + bytes : buffer;
    for (int i = -o->warmup; i < o->reps; i++) {
        MPI_Request send, recv;
        double start = MPI_Wtime();
        MPI_Irecv(into, (int)bytes, MPI_BYTE, 1 - r, TAG, pc, &recv);
        if (r == 1)
            MPI_Wait(&recv, MPI_STATUS_IGNORE);
        MPI_Isend(buffer, (int)bytes, MPI_BYTE, 1 - r, TAG, pc, &send);
        MPI_Wait(&send, MPI_STATUS_IGNORE);
        if (r == 0)
            MPI_Wait(&recv, MPI_STATUS_IGNORE);
        if (i >= 0)
            t[i] = (MPI_Wtime() - start) / 2;
    }
}

/* A ping-pong made of collectives: the call rooted at rank 0, then at
 * rank 1, half the time of both. On two ranks a broadcast or a scatter
 * is one message and no algorithm, so it takes the ping-pong's one-way
 * time plus what the call itself costs; a barrier or an allreduce is an
 * exchange, one message each way at once. */
static void collective_pingpong(MPI_Comm pc, const char *c, long bytes, char *in, char *out,
                                const options_t *o, double *t)
{
    for (int i = -o->warmup; i < o->reps; i++) {
        double start = MPI_Wtime();
        call_rooted(c, pc, 0, bytes, in, out);
        call_rooted(c, pc, 1, bytes, in, out);
        if (i >= 0)
            t[i] = (MPI_Wtime() - start) / 2;
    }
}

/* The time of one call on MPI_COMM_SELF (no message at all): batches of
 * SELF_BATCH calls, each sample a batch's time over SELF_BATCH, as one
 * call is near the clock's resolution. */
static void self_call(const char *c, long bytes, char *in, char *out, const options_t *o, double *t)
{
    for (int i = -o->warmup; i < o->reps; i++) {
        double start = MPI_Wtime();
        for (int j = 0; j < SELF_BATCH; j++)
            call_rooted(c, MPI_COMM_SELF, 0, bytes, in, out);
        if (i >= 0)
            t[i] = (MPI_Wtime() - start) / SELF_BATCH;
    }
}

/* The partner's clock less rank 0's (rank 0's answer): rank 0 sends,
 * the partner answers with its time, which was read halfway through the
 * round trip of the shortest round trip measured (Cristian's method;
 * wrong by at most half that round trip). */
static double clock_offset(MPI_Comm pc, const options_t *o, double *round_trip)
{
    int r;
    MPI_Comm_rank(pc, &r);
    double best = -1, offset = 0;
    for (int i = -o->warmup; i < o->reps; i++) {
        if (r == 0) {
            double there, sent = MPI_Wtime();
            MPI_Send(NULL, 0, MPI_BYTE, 1, TAG, pc);
            MPI_Recv(&there, 1, MPI_DOUBLE, 1, TAG, pc, MPI_STATUS_IGNORE);
            double back = MPI_Wtime();
            if (i >= 0 && (best < 0 || back - sent < best)) {
                best = back - sent;
                offset = there - (sent + back) / 2;
            }
        } else {
            MPI_Recv(NULL, 0, MPI_BYTE, 0, TAG, pc, MPI_STATUS_IGNORE);
            double now = MPI_Wtime();
            MPI_Send(&now, 1, MPI_DOUBLE, 0, TAG, pc);
        }
    }
    *round_trip = best;
    return offset;
}

/* When each of the two leaves an MPI_Barrier: into t (rank 0), the
 * partner's time of leaving less rank 0's, on rank 0's clock (positive:
 * the partner leaves later), for barriers back to back (bytes < 0) or in
 * OSU's loop of a broadcast of `bytes` from rank 0 after each barrier.
 * Returns the clock offset used; *round_trip the round trip it came from. */
static double barrier_skew(MPI_Comm pc, long bytes, char *in, const options_t *o, double *t,
                           double *exits, double *round_trip)
{
    int r;
    MPI_Comm_rank(pc, &r);
    double offset = clock_offset(pc, o, round_trip);
    for (int i = -o->warmup; i < o->reps; i++) {
        MPI_Barrier(pc);
        double left = MPI_Wtime();
        if (i >= 0)
            exits[i] = left;
        if (bytes >= 0)
            MPI_Bcast(in, (int)bytes, MPI_BYTE, 0, pc);
    }
    if (r == 1) {
        MPI_Send(exits, o->reps, MPI_DOUBLE, 0, TAG, pc);
        return offset;
    }
    MPI_Recv(t, o->reps, MPI_DOUBLE, 1, TAG, pc, MPI_STATUS_IGNORE);
    for (int i = 0; i < o->reps; i++)
        t[i] = t[i] - offset - exits[i];
    return offset;
}

/* k senders to one receiver at once: rank 0 posts a receive from each,
 * tells each to go (an empty message), and waits for all; t holds its
 * time from the first "go" to the last message. With k = 1 this is the
 * ping-pong of an empty message and one of `bytes`. */
static void fan_in(MPI_Comm fc, char *buffer, int k, long bytes, const options_t *o, double *t)
{
    MPI_Request req[64];
    int r;
    MPI_Comm_rank(fc, &r);
    for (int i = -o->warmup; i < o->reps; i++) {
        if (r == 0) {
            for (int s = 1; s <= k; s++)
                MPI_Irecv(buffer + (size_t)(s - 1) * (size_t)bytes, (int)bytes, MPI_BYTE, s, TAG,
                          fc, &req[s - 1]);
            double start = MPI_Wtime();
            for (int s = 1; s <= k; s++)
                MPI_Send(NULL, 0, MPI_BYTE, s, TAG + 1, fc);
            MPI_Waitall(k, req, MPI_STATUSES_IGNORE);
            if (i >= 0)
                t[i] = MPI_Wtime() - start;
        } else {
            MPI_Recv(NULL, 0, MPI_BYTE, 0, TAG + 1, fc, MPI_STATUS_IGNORE);
            MPI_Send(buffer, (int)bytes, MPI_BYTE, 0, TAG, fc);
        }
    }
}

/* A message passed round a ring of the communicator's k + 1 ranks, from
 * rank 0 back to it, each rank receiving it from the one before and
 * sending it on as pair_pingpong_requests does: a hop of a chain (the
 * pipeline broadcast's) on the ranks' own cores. t holds rank 0's round
 * over its k + 1 hops: the time of a hop. With k = 1 this is
 * pair_pingpong_requests on rank 0's first neighbour. */
static void relay(MPI_Comm rc, char *buffer, int k, long bytes, const options_t *o, double *t)
{
    int r;
    MPI_Comm_rank(rc, &r);
    int before = (r + k) % (k + 1), after = (r + 1) % (k + 1);
    char *into = r == 0 ? buffer + bytes : buffer; /* as pair_pingpong_requests */
    for (int i = -o->warmup; i < o->reps; i++) {
        MPI_Request send, recv;
        MPI_Barrier(rc);
        double start = MPI_Wtime();
        MPI_Irecv(into, (int)bytes, MPI_BYTE, before, TAG, rc, &recv);
        if (r != 0)
            MPI_Wait(&recv, MPI_STATUS_IGNORE);
        MPI_Isend(buffer, (int)bytes, MPI_BYTE, after, TAG, rc, &send);
        MPI_Wait(&send, MPI_STATUS_IGNORE);
        if (r == 0) {
            MPI_Wait(&recv, MPI_STATUS_IGNORE);
            if (i >= 0)
                t[i] = (MPI_Wtime() - start) / (k + 1);
        }
    }
}

static void row_at(FILE *f, int me, const char *kind, const char *placement, int pairs, long bytes,
                   double value)
{
    if (me == 0)
        fprintf(f, "%-20s %-6s %3d %9ld %.6e\n", kind, placement, pairs, bytes, value);
}

/* Rank 0's rows of samples t: KIND their median, KIND-min the smallest. */
static void rows_of(FILE *f, int me, const char *kind, const char *placement, int pairs, long bytes,
                    double *t, const options_t *o)
{
    if (me != 0)
        return;
    char min_kind[40];
    snprintf(min_kind, sizeof min_kind, "%s-min", kind);
    double m = probe_median(t, o->reps); /* sorts t: t[0] is the smallest */
    row_at(f, me, kind, placement, pairs, bytes, m);
    row_at(f, me, min_kind, placement, pairs, bytes, t[0]);
}

/* Every --call-costs measurement; the sizes are --sizes (the barrier's
 * and the reference ping-pong's 0 bytes too). */
void probe_measure_call_costs(FILE *f, const options_t *o, int me, int nranks, char *buffer,
                              double *t)
{
    static const long small[] = {4, 64, 1024, 4096};
    const long *sizes = o->sizes_given ? o->sizes : small;
    int nsizes = o->sizes_given ? o->nsizes : 4;
    long most = 0;
    for (int k = 0; k < nsizes; k++)
        most = sizes[k] > most ? sizes[k] : most;
    if (most * 64 > o->max_size)
        probe_die("--call-costs: --sizes up to %ld bytes need --max-size %ld or more", most,
                  most * 64);
    /* Scatter's root holds a block per rank (two). */
    char *in = calloc((size_t)most * 2 + 4, 1), *out = calloc((size_t)most * 2 + 4, 1);
    double *exits = malloc((size_t)o->reps * sizeof *exits);
    if (!in || !out || !exits)
        probe_die("out of memory");
    if (me == 0)
        fprintf(f,
                "# call costs: median of %d after %d (KIND-min: the smallest); call-COLL "
                "self: one call on MPI_COMM_SELF; call-COLL PLACEMENT: the call on the "
                "pair's 2 ranks rooted at each in turn, half of both; call-pingpong: the "
                "pair's one-way time; pingpong-barrier: the same after an MPI_Barrier; "
                "pingpong-requests: the same by MPI_Irecv, MPI_Isend and MPI_Wait; "
                "fan-in intra K: K senders to rank 0 at once; relay intra K: a hop of a "
                "message passed round rank 0 and K others by requests; barrier-skew(-bcast): "
                "when the partner leaves a barrier less when rank 0 does\n",
                o->reps, o->warmup);
    for (int c = 0; c < NCOST_COLLECTIVES; c++)
        for (int k = 0; k < (c ? nsizes : 1); k++) {
            long bytes = c ? sizes[k] : 0;
            if (!strcmp(cost_collectives[c], "allreduce"))
                bytes -= bytes % 4;
            char kind[32];
            snprintf(kind, sizeof kind, "call-%s", cost_collectives[c]);
            if (me == 0) {
                self_call(cost_collectives[c], bytes, in, out, o, t);
                rows_of(f, me, kind, "self", 1, bytes, t, o);
            }
        }
    MPI_Barrier(MPI_COMM_WORLD);
    for (int p = 0; p < NPLACEMENTS; p++) {
        int peer = probe_partner(p);
        if (peer < 0)
            continue;
        MPI_Comm pc;
        MPI_Comm_split(MPI_COMM_WORLD, me == 0 || me == peer ? 0 : MPI_UNDEFINED, me, &pc);
        const char *where = probe_placement_name[p];
        /* Per size, the reference ping-pong next to what is compared
         * with it, so that the machine's load is much the same. */
        for (int k = -1; k < nsizes; k++) {
            long bytes = k < 0 ? 0 : sizes[k];
            if (pc != MPI_COMM_NULL) {
                pair_pingpong(pc, buffer, bytes, 0, o, t);
                rows_of(f, me, "call-pingpong", where, 1, bytes, t, o);
                pair_pingpong(pc, buffer, bytes, 1, o, t);
                rows_of(f, me, "pingpong-barrier", where, 1, bytes, t, o);
                pair_pingpong_requests(pc, buffer, bytes, o, t);
                rows_of(f, me, "pingpong-requests", where, 1, bytes, t, o);
                for (int c = 0; c < NCOST_COLLECTIVES; c++) {
                    /* The barrier at 0 bytes only, the others at the sizes. */
                    if ((k < 0) != !strcmp(cost_collectives[c], "barrier"))
                        continue;
                    long b = bytes - (strcmp(cost_collectives[c], "allreduce") ? 0 : bytes % 4);
                    char kind[32];
                    snprintf(kind, sizeof kind, "call-%s", cost_collectives[c]);
                    collective_pingpong(pc, cost_collectives[c], b, in, out, o, t);
                    rows_of(f, me, kind, where, 1, b, t, o);
                }
                double offset, trip;
                offset = barrier_skew(pc, k < 0 ? -1 : bytes, in, o, t, exits, &trip);
                if (me == 0) {
                    double m = probe_median(t, o->reps);
                    row_at(f, me, k < 0 ? "barrier-skew" : "barrier-skew-bcast", where, 1, bytes,
                           m);
                    fprintf(f,
                            "# %s %s %ld: quartiles %.3e %.3e, clock offset %.3e from a round "
                            "trip of %.3e\n",
                            k < 0 ? "barrier-skew" : "barrier-skew-bcast", where, bytes,
                            t[o->reps / 4], t[3 * o->reps / 4], offset, trip);
                }
            }
            MPI_Barrier(MPI_COMM_WORLD);
        }
        if (pc != MPI_COMM_NULL)
            MPI_Comm_free(&pc);
    }
    /* k senders of rank 0's host at once, and the relay round them and
     * rank 0, k = 1, 2, 4, ... */
    int on_host = 0;
    for (int r = 1; r < nranks; r++)
        on_host += probe_same_host(0, r);
    for (int k = 1; k <= on_host && k <= 64; k *= 2) {
        /* Rank 0 and the first k other ranks of its host. */
        int in_it = me == 0, senders = 0;
        for (int r = 1; r <= me && senders < k; r++)
            if (probe_same_host(0, r) && ++senders && r == me)
                in_it = 1;
        MPI_Comm fc;
        MPI_Comm_split(MPI_COMM_WORLD, in_it ? 0 : MPI_UNDEFINED, me, &fc);
        for (int s = 0; s < nsizes; s++) {
            if (fc != MPI_COMM_NULL) {
                fan_in(fc, buffer, k, sizes[s], o, t);
                rows_of(f, me, "fan-in", "intra", k, sizes[s], t, o);
                relay(fc, buffer, k, sizes[s], o, t);
                rows_of(f, me, "relay", "intra", k, sizes[s], t, o);
            }
            MPI_Barrier(MPI_COMM_WORLD);
        }
        if (fc != MPI_COMM_NULL)
            MPI_Comm_free(&fc);
    }
    free(in);
    free(out);
    free(exits);
}
